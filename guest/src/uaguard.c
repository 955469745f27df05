// SPDX-License-Identifier: GPL-2.0
/*
 * uaguard: user mappings kept out of lowmem on a 4G/4G split
 * (CONFIG_VMSPLIT_4G_4G, arch/arm/mm/mmap.c).  There a user address below
 * TASK_SIZE is also a kernel address, and inside lowmem a stray kernel
 * access to a user pointer reads lowmem instead of faulting.  Where lowmem
 * takes at most half of the user range ([0x01000000, 0xf0000000)), the
 * kernel keeps every user mapping out of it unless booted with
 * vmsplit_guard=off; otherwise user mappings may lie there as on stock.
 *
 * The expected answer comes from what the program sees, not from the
 * kernel's own verdict: lowmem from /proc/iomem and /proc/zoneinfo
 * (ualowmap.h), the option from /proc/cmdline.  With the guard each case
 * must find nothing of the process inside lowmem and MAP_FIXED there
 * refused with ENOMEM; without it, the stock behaviour (the mapping made
 * where asked).
 *
 *   fixed_inside      mmap(MAP_FIXED) and MAP_FIXED_NOREPLACE of a page in
 *                     the middle of lowmem
 *   fixed_edges       a range across lowmem's start, lowmem's last page
 *                     (refused with the guard), the page at its end and the
 *                     page below its start (made in both cases; the page
 *                     at the end may hold the heap already)
 *   hint_inside       mmap() with a hint inside lowmem: moved out of it
 *   mremap_inside     a mapping below lowmem grown in place across its
 *                     start; moved (MREMAP_FIXED) inside it
 *   shmat_inside      a System V segment attached at an address inside it
 *   brk_norandom      a non-PIE static executable re-executed with
 *                     ADDR_NO_RANDOMIZE (setarch -R, gdb): its heap, grown
 *                     by 32 MiB, lies outside lowmem
 *   brk_random        the same with randomize_va_space=2, 10 runs
 *   pie               a dynamic PIE (uaguard-pie, 32 MiB of .bss): its
 *                     image, .bss and heap outside lowmem
 *   bigexec           a non-PIE static executable whose .bss reaches past
 *                     0x01000000 (uaguard-bigexec): with the guard it
 *                     cannot be loaded (killed by SIGSEGV at exec, or
 *                     ENOMEM), without it it runs
 *
 * Every case SKIPs on a kernel without the split (mmap at 0xd0000000
 * fails: above TASK_SIZE on 3G/1G).  Run as root (/proc/iomem).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef UAGUARD_BIG
/* A non-PIE executable whose .bss reaches past 0x01000000 (16 MiB). */
static char big[32 << 20];
#elif defined(UAGUARD_PIE)
static char big[32 << 20];
#endif

#define UL(p)		((unsigned long)(p))
#define HEAP_GROW	(32UL << 20)
#define USER_TOP	0xf0000000UL	/* TASK_SIZE on the split */

/*
 * UAGUARD_LAYOUT=1: print where this process lies and exit (constructor,
 * before the harness): "LAYOUT text=A data=B-C heap=D-E" with the heap
 * grown by HEAP_GROW (heap=0-0 when brk() refuses).
 */
__attribute__((constructor)) static void layout(void)
{
	uintptr_t text = (uintptr_t)&layout, d0 = 0, d1 = 0, h0, h1 = 0;
	char *p;

	if (!getenv("UAGUARD_LAYOUT"))
		return;
#if defined(UAGUARD_BIG) || defined(UAGUARD_PIE)
	big[0] = 1;
	big[sizeof(big) - 1] = 1;
	d0 = (uintptr_t)big;
	d1 = (uintptr_t)big + sizeof(big);
#endif
	h0 = (uintptr_t)sbrk(0);
	p = sbrk(HEAP_GROW);
	if (p == (void *)-1) {
		h0 = 0;
	} else {
		memset(p, 0x5a, HEAP_GROW);
		h1 = (uintptr_t)sbrk(0);
	}
	printf("LAYOUT text=%#lx data=%#lx-%#lx heap=%#lx-%#lx\n", (unsigned long)text,
	       (unsigned long)d0, (unsigned long)d1, (unsigned long)h0, (unsigned long)h1);
	fflush(stdout);
	_exit(0);
}

#if defined(UAGUARD_BIG) || defined(UAGUARD_PIE)
int main(void)
{
	return 0;
}
#else
/* 6.12's harness has a handler with an unused parameter (-Wextra). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
#include "ualowmap.h"

static struct {
	int split, guard;		/* -1: not read yet */
	unsigned long start, end;	/* lowmem [start, end) */
	long psz;
} g = { .split = -1 };

/* What this machine must do, from /proc (the exact answer). */
static void expectation(void)
{
	struct range low[MAX_RANGES];
	unsigned long long ram;
	char cmd[4096] = "";
	int n, fd;
	void *p;

	if (g.split >= 0)
		return;
	g.psz = sysconf(_SC_PAGESIZE);
	p = mmap((void *)0xd0000000UL, g.psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_FIXED_NOREPLACE, -1, 0);
	g.split = p == (void *)0xd0000000UL;
	if (p != MAP_FAILED)
		munmap(p, g.psz);
	if (!g.split || read_lowmem(low, &n, &ram) || !n)
		return;
	g.start = LOW_PAGE_OFFSET;
	g.end = low[n - 1].end;
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, cmd, sizeof(cmd) - 1) < 0)
			cmd[0] = 0;
		close(fd);
	}
	g.guard = !strstr(cmd, "vmsplit_guard=off") &&
		  g.end - g.start <= (USER_TOP - LOW_PAGE_OFFSET) / 2;
}

#define SETUP()								\
	do {								\
		expectation();						\
		if (!g.split)						\
			SKIP(return, "not a 4G/4G split");		\
		ASSERT_NE(0UL, g.end) TH_LOG("no lowmem in /proc/iomem (root?)"); \
		TH_LOG("lowmem %#lx-%#lx, user mappings %s", g.start, g.end, \
		       g.guard ? "kept out" : "allowed");		\
	} while (0)

static int in_low(unsigned long s, unsigned long e)
{
	return s < g.end && e > g.start;
}

static void *map_at(unsigned long addr, unsigned long len, int flags)
{
	return mmap((void *)addr, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
}

/* The middle of lowmem, 64 KiB aligned (SHMLBA is 16 KiB). */
static unsigned long mid(void)
{
	return (g.start + (g.end - g.start) / 2) & ~0xffffUL;
}

/* Made where asked without the guard, refused with ENOMEM with it. */
#define EXPECT_MAP(p, addr, len)					\
	do {								\
		if (g.guard) {						\
			EXPECT_EQ(UL(MAP_FAILED), UL(p));			\
			EXPECT_EQ(ENOMEM, errno);			\
		} else {						\
			EXPECT_EQ(UL(addr), UL(p));			\
		}							\
		if ((p) != MAP_FAILED)					\
			munmap((p), (len));				\
	} while (0)

TEST(fixed_inside)
{
	void *p;

	SETUP();
	p = map_at(mid(), g.psz, MAP_FIXED_NOREPLACE);
	EXPECT_MAP(p, mid(), g.psz);
	p = map_at(mid(), g.psz, MAP_FIXED);
	EXPECT_MAP(p, mid(), g.psz);
}

TEST(fixed_edges)
{
	unsigned long a;
	void *p;

	SETUP();
	a = g.start - g.psz;
	p = map_at(a, 2 * g.psz, MAP_FIXED_NOREPLACE);
	EXPECT_MAP(p, a, 2 * g.psz);
	/* Without the guard the stack may hold lowmem's last page (EEXIST). */
	a = g.end - g.psz;
	p = map_at(a, g.psz, MAP_FIXED_NOREPLACE);
	if (g.guard || p != MAP_FAILED || errno != EEXIST)
		EXPECT_MAP(p, a, g.psz);
	/*
	 * Outside: made in both cases.  With the guard the heap may start
	 * right there (EEXIST): the page is then mapped already.
	 */
	a = g.end;
	p = g.end < USER_TOP ? map_at(a, g.psz, MAP_FIXED_NOREPLACE) : NULL;
	if (!p) {
		TH_LOG("lowmem reaches TASK_SIZE: no page above it");
	} else if (p == MAP_FAILED && errno == EEXIST) {
		unsigned char vec;

		EXPECT_EQ(0, mincore((void *)a, g.psz, &vec));
	} else {
		EXPECT_EQ(a, UL(p));
	}
	if (p && p != MAP_FAILED)
		munmap(p, g.psz);
	a = g.start - g.psz;
	p = map_at(a, g.psz, MAP_FIXED_NOREPLACE);
	EXPECT_EQ(a, UL(p));
	if (p != MAP_FAILED)
		munmap(p, g.psz);
}

TEST(hint_inside)
{
	unsigned long a = 0;
	char *p;

	SETUP();
	p = map_at(mid(), 4 * g.psz, 0);
	ASSERT_NE(UL(MAP_FAILED), UL(p));
	a = (unsigned long)p;
	p[0] = 1;
	if (g.guard) {
		EXPECT_FALSE(in_low(a, a + 4 * g.psz)) TH_LOG("hint kept at %#lx", a);
	} else {
		EXPECT_EQ(mid(), a);
	}
	munmap(p, 4 * g.psz);
}

TEST(mremap_inside)
{
	unsigned long a;
	void *p, *q;

	SETUP();
	/* Two pages right below lowmem, grown in place to four. */
	a = g.start - 2 * g.psz;
	p = map_at(a, 2 * g.psz, MAP_FIXED_NOREPLACE);
	ASSERT_EQ(a, UL(p));
	q = mremap(p, 2 * g.psz, 4 * g.psz, 0);
	if (g.guard) {
		EXPECT_EQ(UL(MAP_FAILED), UL(q));
		EXPECT_EQ(ENOMEM, errno);
	} else {
		EXPECT_EQ(UL(p), UL(q));
	}
	munmap((void *)a, 4 * g.psz);
	/* One page moved inside lowmem. */
	p = map_at(0, g.psz, 0);
	ASSERT_NE(UL(MAP_FAILED), UL(p));
	q = mremap(p, g.psz, g.psz, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)mid());
	EXPECT_MAP(q, mid(), g.psz);
	if (q == MAP_FAILED)
		munmap(p, g.psz);
}

TEST(shmat_inside)
{
	int id;
	void *p;

	SETUP();
	id = shmget(IPC_PRIVATE, g.psz, IPC_CREAT | 0600);
	if (id < 0 && errno == ENOSYS)
		SKIP(return, "no System V IPC");
	ASSERT_LE(0, id);
	p = shmat(id, (void *)mid(), 0);
	if (g.guard) {
		EXPECT_EQ(~0UL, UL(p));
		EXPECT_EQ(ENOMEM, errno);
	} else {
		EXPECT_EQ(mid(), UL(p));
	}
	if (p != (void *)-1)
		shmdt(p);
	shmctl(id, IPC_RMID, NULL);
}

/*
 * Run @prog with UAGUARD_LAYOUT=1 (with ADDR_NO_RANDOMIZE when @norand):
 * 0 with the layout read, 1 when it printed none (its wait status in
 * *@status), -1 on error.
 */
static int run_layout(const char *prog, int norand, unsigned long v[5], int *status)
{
	char buf[256] = "";
	ssize_t n = 0, r;
	int fd[2];
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(fd[1], 1);
		close(fd[0]);
		if (norand && personality(personality(0xffffffff) | ADDR_NO_RANDOMIZE) < 0)
			_exit(126);
		setenv("UAGUARD_LAYOUT", "1", 1);
		execl(prog, prog, (char *)NULL);
		_exit(errno == ENOMEM ? 125 : 127);
	}
	close(fd[1]);
	while ((r = read(fd[0], buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd[0]);
	waitpid(pid, status, 0);
	if (sscanf(buf, "LAYOUT text=%lx data=%lx-%lx heap=%lx-%lx", &v[0], &v[1], &v[2],
		   &v[3], &v[4]) != 5)
		return 1;
	return 0;
}

static void check_layout(struct __test_metadata *_metadata, const char *prog, int norand)
{
	unsigned long v[5];
	int st = 0, rc = run_layout(prog, norand, v, &st);

	ASSERT_EQ(0, rc) TH_LOG("%s printed no layout (wait status %#x)", prog, st);
	TH_LOG("%s: text %#lx data %#lx-%#lx heap %#lx-%#lx", prog, v[0], v[1], v[2], v[3], v[4]);
	ASSERT_NE(0UL, v[4]) TH_LOG("%s: brk() refused %lu MiB", prog, HEAP_GROW >> 20);
	if (!g.guard)
		return;
	EXPECT_FALSE(in_low(v[0], v[0] + 1)) TH_LOG("text in lowmem");
	if (v[2]) {
		EXPECT_FALSE(in_low(v[1], v[2])) TH_LOG(".bss in lowmem");
	}
	EXPECT_FALSE(in_low(v[3], v[4])) TH_LOG("heap in lowmem");
}

TEST(brk_norandom)
{
	SETUP();
	check_layout(_metadata, "/proc/self/exe", 1);
}

#define ASLR_SYSCTL "/proc/sys/kernel/randomize_va_space"

TEST(brk_random)
{
	char old[8] = "";
	int fd, i, n;

	SETUP();
	fd = open(ASLR_SYSCTL, O_RDWR);
	ASSERT_LE(0, fd);
	n = read(fd, old, sizeof(old) - 1);
	ASSERT_LT(0, n);
	ASSERT_EQ(1, pwrite(fd, "2", 1, 0));
	for (i = 0; i < 10 && !_metadata->exit_code; i++)
		check_layout(_metadata, "/proc/self/exe", 0);
	ASSERT_EQ(n, pwrite(fd, old, n, 0));
	close(fd);
}

/* The variants beside this program (guest/Makefile). */
static void sibling(char *buf, size_t size, const char *name)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	buf[n > 0 ? n : 0] = 0;
	slash = strrchr(buf, '/');
	snprintf(slash ? slash + 1 : buf, size - (slash ? slash + 1 - buf : 0), "%s", name);
}

TEST(pie)
{
	char prog[256];

	SETUP();
	sibling(prog, sizeof(prog), "uaguard-pie");
	if (access(prog, X_OK))
		SKIP(return, "no %s", prog);
	if (access("/lib/ld-linux-armhf.so.3", X_OK))
		SKIP(return, "no dynamic loader in this system");
	check_layout(_metadata, prog, 1);
	check_layout(_metadata, prog, 0);
}

TEST(bigexec)
{
	char prog[256];
	unsigned long v[5];
	int st = 0, rc;

	SETUP();
	sibling(prog, sizeof(prog), "uaguard-bigexec");
	if (access(prog, X_OK))
		SKIP(return, "no %s", prog);
	rc = run_layout(prog, 1, v, &st);
	if (g.guard) {
		EXPECT_EQ(1, rc) TH_LOG("loaded: .bss %#lx-%#lx", v[1], v[2]);
		EXPECT_TRUE((WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) ||
			    (WIFEXITED(st) && WEXITSTATUS(st) == 125))
			TH_LOG("wait status %#x", st);
	} else {
		EXPECT_EQ(0, rc) TH_LOG("wait status %#x", st);
	}
}

TEST_HARNESS_MAIN
#endif
