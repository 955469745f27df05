// SPDX-License-Identifier: GPL-2.0
/*
 * uathreads - a measurement: how many threads one process can have alive
 * at once, and how many processes, and what the kernel holds for them.
 * The limits that would stop us first are raised where root may:
 * RLIMIT_NPROC to unlimited, kernel.threads-max and kernel.pid_max to
 * 4194304 (pid_max is at most 32768 on 32-bit: then that).
 *   LIMITS nproc=<rlimit> threads-max=<n> pid_max=<n>
 * Threads with 64 KiB stacks block on a pipe read until pthread_create()
 * fails, then the peak and the memory held there:
 *   THREADS max=<n> errno=<name> tasks=<all in the system> MemFree=<kB>
 *           VmallocUsed=<kB> KernelStack=<kB> PageTables=<kB>
 * and they are released and joined.  Then the same with fork()ed children:
 *   FORKS max=<n> errno=<name> died=<n> tasks=... (the same fields)
 * Running out of memory does not make them fail but wakes the OOM killer,
 * which then thrashes for minutes; so both also stop, errno=none(lowmem),
 * once free lowmem (LowFree, MemFree without HIGHMEM) is below LOW_KIB,
 * errno=none(died) once a child has died (the OOM killer's first choice:
 * the counting process is exempt), errno=none(max) at MAX.  died: children
 * gone before the end.  vm.oom_dump_tasks is turned off (it lists all).
 * Each count runs in a process of its own: a process that had the threads
 * keeps their cached stacks, thousands of VMAs that every fork would copy.
 * usage: uathreads
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "uameminfo.h"

#define MAX 100000
#define STACK (64 * 1024)
#define LOW_KIB (64 * 1024)

static pthread_t tid[MAX];
static pid_t pid[MAX];
static int pfd[2];
static volatile sig_atomic_t gone;

static void chld(int sig)
{
	(void)sig;
	gone = 1;
}

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(s, f);
		fclose(f);	/* the write's error, if any, shows here */
	}
}

static long get(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* The peak's state: tasks in the system and the kernel's memory. */
static void peak(void)
{
	long tasks = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%*s %*s %*s %*d/%ld", &tasks) != 1)
			tasks = -1;
		fclose(f);
	}
	printf(" tasks=%ld MemFree=%llu VmallocUsed=%llu KernelStack=%llu PageTables=%llu\n",
	       tasks, meminfo_kib("MemFree"), meminfo_kib("VmallocUsed"),
	       meminfo_kib("KernelStack"), meminfo_kib("PageTables"));
}

/* Why a count stopped: err, or none and why not. */
static const char *why(int err, int n)
{
	if (err)
		return strerrorname_np(err);
	return n == MAX ? "none(max)" : gone ? "none(died)" : "none(lowmem)";
}

/* Whether free lowmem is short (checked every 64 tasks). */
static int low(int n)
{
	unsigned long long kib;

	if (n % 64)
		return 0;
	kib = meminfo_kib("LowTotal") ? meminfo_kib("LowFree") : meminfo_kib("MemFree");
	return kib < LOW_KIB;
}

static void *blocker(void *arg)
{
	char c;

	(void)arg;
	if (read(pfd[0], &c, 1) < 0)
		return NULL;
	return NULL;
}

static void threads(void)
{
	pthread_attr_t attr;
	int n, err = 0;

	if (pipe(pfd))
		return;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK);
	for (n = 0; n < MAX && !low(n); n++) {
		err = pthread_create(&tid[n], &attr, blocker, NULL);
		if (err)
			break;
	}
	printf("THREADS max=%d errno=%s", n, why(err, n));
	peak();
	close(pfd[1]);	/* every read returns 0 */
	while (n--)
		pthread_join(tid[n], NULL);
	close(pfd[0]);
	pthread_attr_destroy(&attr);
}

static void forks(void)
{
	int n, i, st, err = 0, died = 0;
	char c;

	if (pipe(pfd))
		return;
	signal(SIGCHLD, chld);
	for (n = 0; n < MAX && !gone && !low(n); n++) {
		pid[n] = fork();
		if (pid[n] < 0) {
			err = errno;
			break;
		}
		if (!pid[n]) {
			/* The OOM killer's first choice, not the parent. */
			put("/proc/self/oom_score_adj", "1000");
			close(pfd[1]);
			_exit(read(pfd[0], &c, 1) ? 1 : 0);
		}
	}
	usleep(100000);	/* a child killed at the end shows */
	for (i = 0; i < n; i++)
		died += waitpid(pid[i], &st, WNOHANG) > 0;
	printf("FORKS max=%d errno=%s died=%d", n, why(err, n), died);
	peak();
	close(pfd[1]);
	while (wait(&st) > 0)
		;
	close(pfd[0]);
}

int main(void)
{
	static const char *const pidmax[] = { "4194304", "32768" };
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (setrlimit(RLIMIT_NPROC, &rl))
		perror("setrlimit(RLIMIT_NPROC)");
	getrlimit(RLIMIT_NPROC, &rl);
	put("/proc/self/oom_score_adj", "-1000");
	put("/proc/sys/kernel/threads-max", "4194304");
	for (i = 0; i < 2; i++) {
		put("/proc/sys/kernel/pid_max", pidmax[i]);
		if (get("/proc/sys/kernel/pid_max") == atol(pidmax[i]))
			break;
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		printf("LIMITS nproc=unlimited");
	else
		printf("LIMITS nproc=%llu", (unsigned long long)rl.rlim_cur);
	printf(" threads-max=%ld pid_max=%ld\n", get("/proc/sys/kernel/threads-max"),
	       get("/proc/sys/kernel/pid_max"));
	put("/proc/sys/vm/oom_dump_tasks", "0");
	for (i = 0; i < 2; i++) {
		pid_t p = fork();

		if (!p) {
			i ? forks() : threads();
			_exit(0);
		}
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	return 0;
}
