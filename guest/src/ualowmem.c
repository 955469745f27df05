// SPDX-License-Identifier: GPL-2.0
/*
 * ualowmem - a lowmem-pressure workload: how many empty files a tmpfs holds
 * before the kernel runs out of the memory its inodes and dentries must
 * come from.  On a 3G/1G split with HIGHMEM those are lowmem (at most
 * about 760 MiB), whatever the RAM; on a 4G/4G split all of RAM is lowmem.
 *
 * A child creates files in a fresh tmpfs (no inode limit) until creat()
 * fails or the OOM killer takes it (it is made the first choice), and
 * reports its count through a pipe every 1000 files.  Output:
 *   RESULT lowmem-files <count> files (<how it ended>)
 *   RESULT lowmem-lowfree-mib <MiB> (LowFree, or MemFree without highmem, before)
 * usage: ualowmem [-c CAP] [DIR]   (default /tmp/ualowmem, mounted here as
 * tmpfs; with -c, stop after CAP files: "(cap)" then means at least CAP)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uameminfo.h"

static void oom_adj(const char *val)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, val, strlen(val)) < 0)
			perror("oom_score_adj");
		close(fd);
	}
}

int main(int argc, char **argv)
{
	unsigned long long low = meminfo_kib("LowFree");
	unsigned long n = 0, got, cap = 0;
	const char *dir;
	const char *how = "?";
	char name[64];
	int fd[2], st;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "-c")) {
		cap = strtoul(argv[2], NULL, 0);
		argv += 2;
		argc -= 2;
	}
	dir = argc > 1 ? argv[1] : "/tmp/ualowmem";
	if (!low)
		low = meminfo_kib("MemFree");	/* no highmem: all of it is lowmem */
	mkdir(dir, 0755);
	if (mount("tmpfs", dir, "tmpfs", 0, "nr_inodes=0,size=1g")) {
		perror("mount tmpfs");
		return 1;
	}
	if (pipe(fd))
		return 1;
	oom_adj("-1000");
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		oom_adj("1000");
		if (chdir(dir))
			_exit(2);
		for (;;) {
			int f;

			snprintf(name, sizeof(name), "f%lu", n);
			f = open(name, O_CREAT | O_EXCL | O_WRONLY, 0644);
			if (f < 0) {
				_exit(errno == ENOSPC ? 3 : errno == ENOMEM ? 4 : 5);
			}
			close(f);
			if (++n % 1000 == 0 && write(fd[1], &n, sizeof(n)) != sizeof(n))
				_exit(6);
			if (cap && n >= cap)
				_exit(7);
		}
	}
	close(fd[1]);
	while (read(fd[0], &got, sizeof(got)) == sizeof(got)) {
		n = got;
		if (n % 250000 == 0)
			fprintf(stderr, "ualowmem: %lu files\n", n);
	}
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st))
		how = WTERMSIG(st) == SIGKILL ? "OOM-killed" : "killed";
	else if (WEXITSTATUS(st) == 3)
		how = "ENOSPC";
	else if (WEXITSTATUS(st) == 4)
		how = "ENOMEM";
	else if (WEXITSTATUS(st) == 7)
		how = "cap";
	else
		how = "other error";
	printf("RESULT lowmem-files %lu files (%s)\n", n, how);
	printf("RESULT lowmem-lowfree-mib %llu MiB before\n", low / 1024);
	/* Free them again: unmounting drops every inode. */
	if (umount2(dir, MNT_DETACH))
		perror("umount");
	return 0;
}
