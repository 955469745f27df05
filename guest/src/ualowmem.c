// SPDX-License-Identifier: GPL-2.0
/*
 * ualowmem - a lowmem-pressure workload: how many empty files a tmpfs holds
 * before the kernel runs out of the memory its inodes and dentries must
 * come from.  On a 3G/1G split with HIGHMEM those are lowmem (at most
 * about 760 MiB), whatever the RAM; on a 4G/4G split all of RAM is lowmem.
 *
 * One child per online CPU creates files in its own directory of a fresh
 * tmpfs (no inode limit), with mknod() (one system call, no open file),
 * until mknod() fails or the OOM killer takes it
 * (the children are its first choice, the parent is exempt); each reports
 * its count through a pipe every 1000 files.  The result is the sum when
 * the last child has ended.  Output:
 *   RESULT lowmem-files <count> files (<how the children ended>)
 *   RESULT lowmem-lowfree-mib <MiB> (LowFree, or MemFree without highmem, before)
 * usage: ualowmem [-c CAP] [DIR]   (default /tmp/ualowmem, mounted here as
 * tmpfs; with -c, stop after CAP files in all: "cap" then means at least CAP)
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

struct report {
	unsigned int child;
	unsigned long n;
};

static void creator(const char *dir, unsigned int child, unsigned long cap, int out)
{
	struct report r = { child, 0 };
	char name[64];

	oom_adj("1000");
	snprintf(name, sizeof(name), "%s/d%u", dir, child);
	if (mkdir(name, 0755) || chdir(name))
		_exit(2);
	for (;;) {
		snprintf(name, sizeof(name), "f%lu", r.n);
		if (mknod(name, S_IFREG | 0644, 0))
			_exit(errno == ENOSPC ? 3 : errno == ENOMEM ? 4 : 5);
		if (++r.n % 1000 == 0 && write(out, &r, sizeof(r)) != sizeof(r))
			_exit(6);
		if (cap && r.n >= cap)
			_exit(7);
	}
}

#define MAX_CHILDREN 16

int main(int argc, char **argv)
{
	static const char *const ends[] = { "?", "?", "mkdir", "ENOSPC", "ENOMEM", "other error", "pipe", "cap" };
	unsigned long long low = meminfo_kib("LowFree");
	unsigned long counts[MAX_CHILDREN] = { 0 }, total = 0, cap = 0, last = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int nchild, i;
	char how[256] = "";
	const char *dir;
	struct report r;
	int fd[2], st;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "-c")) {
		cap = strtoul(argv[2], NULL, 0);
		argv += 2;
		argc -= 2;
	}
	dir = argc > 1 ? argv[1] : "/tmp/ualowmem";
	nchild = ncpu < 1 ? 1 : ncpu > MAX_CHILDREN ? MAX_CHILDREN : ncpu;
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
	for (i = 0; i < nchild; i++) {
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			close(fd[0]);
			creator(dir, i, cap ? (cap + nchild - 1) / nchild : 0, fd[1]);
		}
	}
	close(fd[1]);
	/* A report is smaller than PIPE_BUF: each write arrives whole. */
	while (read(fd[0], &r, sizeof(r)) == sizeof(r)) {
		if (r.child >= nchild)
			continue;
		total += r.n - counts[r.child];
		counts[r.child] = r.n;
		if (total - last >= 250000) {
			last = total;
			fprintf(stderr, "ualowmem: %lu files\n", total);
		}
	}
	for (i = 0; i < nchild; i++) {
		const char *e;

		if (wait(&st) < 0)
			break;
		if (WIFSIGNALED(st))
			e = WTERMSIG(st) == SIGKILL ? "OOM-killed" : "killed";
		else
			e = WEXITSTATUS(st) < 8 ? ends[WEXITSTATUS(st)] : "?";
		if (!strstr(how, e))
			snprintf(how + strlen(how), sizeof(how) - strlen(how), "%s%s", *how ? ", " : "", e);
	}
	printf("RESULT lowmem-files %lu files (%s; %u creators)\n", total, how, nchild);
	printf("RESULT lowmem-lowfree-mib %llu MiB before\n", low / 1024);
	/* Free them again: unmounting drops every inode. */
	if (umount2(dir, MNT_DETACH))
		perror("umount");
	return 0;
}
