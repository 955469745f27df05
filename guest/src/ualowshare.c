// SPDX-License-Identifier: GPL-2.0
/*
 * ualowshare - how much of a process's address space lies inside kernel
 * lowmem on a 4G/4G split (CONFIG_VMSPLIT_4G_4G).  There the kernel maps
 * RAM at PAGE_OFFSET (0x01000000) upward and user space uses the same
 * virtual addresses (0 to TASK_SIZE, 0xf0000000): a kernel bug that
 * dereferences a user pointer silently reads lowmem when the address lies
 * inside it, and faults otherwise.  This measures how often that would be.
 *
 * Lowmem: each top-level "System RAM" range of /proc/iomem (real addresses
 * as root) at 0x01000000 + (phys - PHYS_OFFSET), PHYS_OFFSET being the
 * lowest such start, up to 0xf0000000 (RAM beyond that is not lowmem) and
 * below the HighMem zone's first page (/proc/zoneinfo's start_pfn) when
 * there is one: lowmem may stop earlier, at 0xe0000000 on an EFI boot
 * that keeps the runtime services.
 * The processes: busybox sh -c 'cat /proc/$$/maps' and busybox cat
 * /proc/self/maps, their output read through a pipe.  For each:
 *   LOWSHARE ram=<MiB> lowmem=<start>-<end>[,...] maps=<n> inside=<k>
 *            bytes=<total> bytes_inside=<b> share=<percent> proc=<which>
 *            aslr=<kernel.randomize_va_space, -1 if unreadable>
 * then every mapping that overlaps lowmem, indented (with -v: every
 * mapping, those inside marked with '*').
 *
 * -t: a test.  With at most 2048 MiB of RAM no mapping the kernel placed
 * (mmap without a hint, stack, brk heap, vdso and sigpage, the PIE or
 * ld.so base) may overlap lowmem: "UTEST PASS|FAIL ualowshare:<which>".
 * With more RAM lowmem covers most of user space, so the report is only
 * a report: PASS, saying so.  Exit status 0 iff no FAIL.  scripts/guest-run
 * boots with norandmaps (aslr=0): the layout is then the same every run,
 * and the brk heap starts right after a non-PIE busybox's bss; with
 * randomization the heap may start up to 32 MiB higher, in lowmem.  So
 * -t then sets randomize_va_space to 2, runs both processes ASLR_RUNS
 * times each, restores the old value and prints
 *   LOWSHARE-ASLR ram=<MiB> processes=<n> with_inside=<k> max_share=<percent>
 * and "UTEST PASS|FAIL ualowshare:aslr", FAIL (up to 2048 MiB) if any
 * process had a mapping inside lowmem.
 * usage: ualowshare [-t] [-v]
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ualowmap.h"

#define MiB (1024ULL * 1024)
#define TEST_MAX_RAM_MIB 2048
#define ASLR_RUNS 20	/* per process, with randomize_va_space=2 */
#define ASLR_SYSCTL "/proc/sys/kernel/randomize_va_space"


static struct range low[MAX_RANGES];
static int nlow;
static unsigned long long ram_bytes;
static int test, verbose, failed, aslr = -1;

static void result(const char *st, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void result(const char *st, const char *name, const char *fmt, ...)
{
	char d[512] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(d, sizeof(d), fmt, ap);
		va_end(ap);
	}
	printf("UTEST %s ualowshare:%s%s%s\n", st, name, d[0] ? " " : "", d);
	fflush(stdout);
	if (!strcmp(st, "FAIL"))
		failed = 1;
}

/* Bytes of [s, e) inside lowmem. */
static unsigned long long overlap(unsigned long long s, unsigned long long e)
{
	unsigned long long n = 0, a, b;
	int i;

	for (i = 0; i < nlow; i++) {
		a = s > low[i].start ? s : low[i].start;
		b = e < low[i].end ? e : low[i].end;
		if (a < b)
			n += b - a;
	}
	return n;
}

/* Run argv, its stdout into buf (NUL-terminated); its wait status or -1. */
static int capture(char *const argv[], char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd[2], st;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf + len, size - 1 - len)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			len += n;
	buf[len] = '\0';
	close(fd[0]);
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

struct tally {
	unsigned int maps, inside;
	unsigned long long bytes, bytes_in;
	char names[400];	/* the mappings inside: "name start-end, ..." */
	char example[160];	/* the first of them as a maps line */
};

/*
 * Run argv, which prints a process's maps, and tally its mappings; with
 * print also the LOWSHARE line and the mappings inside (every one with -v).
 * Returns the wait status, or -1.
 */
static int measure(const char *which, char *const argv[], struct tally *t,
		   int print)
{
	static char buf[64 * 1024];
	unsigned long long s, e, in;
	char perms[8], *line, *save, *name;
	size_t nl = 0;
	int st, pos, i;

	memset(t, 0, sizeof(*t));
	st = capture(argv, buf, sizeof(buf));
	if (st)
		return st;
	/* The summary first: count, then list. */
	for (i = 0; i < 1 + print; i++) {
		char *copy = strdup(buf);

		if (!copy)
			return -1;
		for (line = strtok_r(copy, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			pos = 0;
			if (sscanf(line, "%llx-%llx %7s %*x %*x:%*x %*u %n",
				   &s, &e, perms, &pos) < 3 || !pos || e <= s)
				continue;
			name = line[pos] ? line + pos : "(anon)";
			in = overlap(s, e);
			if (i == 0) {
				t->maps++;
				t->bytes += e - s;
				t->bytes_in += in;
				if (!in)
					continue;
				if (!t->inside++)
					snprintf(t->example, sizeof(t->example),
						 "%08llx-%08llx %s %s", s, e, perms, name);
				if (nl < sizeof(t->names) - 1)
					nl += snprintf(t->names + nl, sizeof(t->names) - nl,
						       "%s%s %08llx-%08llx",
						       nl ? ", " : "", name, s, e);
			} else if (in || verbose) {
				printf("  %c %08llx-%08llx %s %s\n", in ? '*' : ' ',
				       s, e, perms, name);
			}
		}
		free(copy);
		if (i == 0 && print) {
			printf("LOWSHARE ram=%llu lowmem=", ram_bytes / MiB);
			for (pos = 0; pos < nlow; pos++)
				printf("%s%08llx-%08llx", pos ? "," : "",
				       low[pos].start, low[pos].end);
			printf(" maps=%u inside=%u bytes=%llu bytes_inside=%llu share=%.1f proc=%s aslr=%d\n",
			       t->maps, t->inside, t->bytes, t->bytes_in,
			       t->bytes ? 100.0 * t->bytes_in / t->bytes : 0.0,
			       which, aslr);
		}
	}
	fflush(stdout);
	return 0;
}

static void report(const char *which, char *const argv[])
{
	struct tally t;
	int st = measure(which, argv, &t, 1);

	if (st) {
		result("FAIL", which, "(%s: status %#x)", argv[0], (unsigned int)st);
		return;
	}
	if (!test)
		return;
	if (!t.maps)
		result("FAIL", which, "(no mappings parsed from %s)", argv[0]);
	else if (ram_bytes > TEST_MAX_RAM_MIB * MiB)
		result("PASS", which,
		       "(report only: %llu MiB of RAM, lowmem covers most of user space; %u of %u mappings inside)",
		       ram_bytes / MiB, t.inside, t.maps);
	else if (t.inside)
		result("FAIL", which, "(%u of %u mappings inside lowmem: %s)",
		       t.inside, t.maps, t.names);
	else
		result("PASS", which, "(%u mappings, none inside lowmem)", t.maps);
}

static int write_aslr(int val)
{
	FILE *f = fopen(ASLR_SYSCTL, "w");
	int bad;

	if (!f)
		return -1;
	bad = fprintf(f, "%d\n", val) < 0;
	return fclose(f) || bad ? -1 : 0;
}

static char *const sh[] = { "/bin/busybox", "sh", "-c", "cat /proc/$$/maps", NULL };
static char *const cat[] = { "/bin/busybox", "cat", "/proc/self/maps", NULL };
static const struct {
	const char *which;
	char *const *argv;
} procs[] = { { "busybox-sh", sh }, { "busybox-cat", cat } };

/* Both processes ASLR_RUNS times each with randomize_va_space=2. */
static void aslr_test(void)
{
	unsigned int i, n = 0, with = 0, errs = 0;
	double share, max_share = 0;
	char example[200] = "";
	struct tally t;

	if (aslr < 0 || write_aslr(2)) {
		result("FAIL", "aslr", "(cannot read or set %s)", ASLR_SYSCTL);
		return;
	}
	for (i = 0; i < 2 * ASLR_RUNS; i++) {
		const char *which = procs[i % 2].which;

		if (measure(which, procs[i % 2].argv, &t, 0) || !t.maps) {
			errs++;
			continue;
		}
		n++;
		share = 100.0 * t.bytes_in / t.bytes;
		if (share > max_share)
			max_share = share;
		if (t.inside && !with++)
			snprintf(example, sizeof(example), "%s: %s", which, t.example);
	}
	if (write_aslr(aslr))
		result("FAIL", "aslr", "(cannot restore %s to %d)", ASLR_SYSCTL, aslr);
	printf("LOWSHARE-ASLR ram=%llu processes=%u with_inside=%u max_share=%.1f\n",
	       ram_bytes / MiB, n, with, max_share);
	if (errs)
		result("FAIL", "aslr", "(%u of %u runs failed)", errs, 2 * ASLR_RUNS);
	else if (ram_bytes > TEST_MAX_RAM_MIB * MiB)
		result("PASS", "aslr",
		       "(report only: %llu MiB of RAM; %u of %u processes with mappings inside lowmem)",
		       ram_bytes / MiB, with, n);
	else if (with)
		result("FAIL", "aslr",
		       "(%u of %u processes with mappings inside lowmem, e.g. %s)",
		       with, n, example);
	else
		result("PASS", "aslr", "(%u processes, none with mappings inside lowmem)", n);
}

int main(int argc, char **argv)
{
	unsigned int i;
	FILE *f;
	int c;

	while ((c = getopt(argc, argv, "tv")) != -1) {
		switch (c) {
		case 't':
			test = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: ualowshare [-t] [-v]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	f = fopen(ASLR_SYSCTL, "r");
	if (f) {
		if (fscanf(f, "%d", &aslr) != 1)
			aslr = -1;
		fclose(f);
	}
	if (read_lowmem(low, &nlow, &ram_bytes)) {
		printf("UTEST FAIL ualowshare:iomem (no System RAM with real addresses in /proc/iomem: not root?)\n");
		return 1;
	}
	for (i = 0; i < 2; i++)
		report(procs[i].which, procs[i].argv);
	if (test)
		aslr_test();
	return failed;
}
