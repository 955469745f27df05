// SPDX-License-Identifier: GPL-2.0
/*
 * ua4g - what a 4G/4G split (CONFIG_VMSPLIT_4G_4G) must give user space and
 * must not break.  The kernel runs on page tables of its own, switched on
 * every entry and exit, with lowmem at addresses user space also uses, and
 * user memory reached only through the pinned engine; so each check below
 * compares what the kernel did with what the program knows it must be.
 *
 *   lowmem      /proc/zoneinfo: at least -l MiB (default 3379, 3.3 GiB)
 *               present in the lowmem zones; without -H no HighMem zone
 *               with pages and no HighTotal in /proc/meminfo, with -H MiB
 *               (HIGHMEM beside the split) at least that much in both
 *   bigmap      one process maps 3.3 GiB of anonymous memory (more than a
 *               3G/1G split's whole user space), writes every page as far
 *               as the RAM allows and one word per MiB beyond, checks all
 *               of it and a pipe read into its last page; with -H, at
 *               least 512 MiB of those pages must have come from highmem
 *               (HighFree), and the kernel copies a page out of and into
 *               the mapping at every MiB through a pipe
 *   high        a mapping at 0xe8000000 written and read back, through
 *               read()/write() too; mmap at TASK_SIZE (0xf0000000) fails
 *   stack       the stack is above 0xe0000000 and grows 6 MiB down,
 *               below a mapping placed right under it, data intact
 *   procs       300 processes alive at once (more than the 255 ASIDs),
 *               each checks its own memory after all have run; then 3000
 *               forked in turn (ASID rollovers), each checking its memory
 *   signal      a handler run through the kernel's sigpage return (no
 *               SA_RESTORER), siginfo and the interrupted frame intact
 *   vdso        [vdso] mapped at AT_SYSINFO_EHDR, its clock_gettime used
 *   kuser       the kuser helpers in the vectors page: version, get_tls,
 *               cmpxchg, memory barrier (SKIP without KUSER_HELPERS)
 *   ptrace      PTRACE_PEEKDATA/POKEDATA and process_vm_readv/writev on
 *               another process's memory
 *   hotplug     CPU 1 offline and online again, a process on it after
 *               (SKIP with one CPU)
 *
 * Output: "UTEST PASS|FAIL|SKIP ua4g:<check> [detail]"; exit 0 iff no FAIL.
 * usage: ua4g [-l MiB] [-H MiB] [CHECK...]   (default: all)
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uameminfo.h"

#define MiB (1024UL * 1024)
static int failed;
static long psz;
static unsigned long long want_low_mib = 3379;	/* -l MiB */
static unsigned long long want_high_mib;	/* -H MiB: 0, no highmem */

static void result(const char *st, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void result(const char *st, const char *name, const char *fmt, ...)
{
	char d[256] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(d, sizeof(d), fmt, ap);
		va_end(ap);
	}
	printf("UTEST %s ua4g:%s%s%s\n", st, name, d[0] ? " " : "", d);
	fflush(stdout);
	if (!strcmp(st, "FAIL"))
		failed = 1;
}
#define PASS(n) result("PASS", n, NULL)
#define FAIL(n, ...) result("FAIL", n, __VA_ARGS__)
#define SKIP(n, ...) result("SKIP", n, __VA_ARGS__)

static void check_lowmem(void)
{
	unsigned long long low = 0, high = 0, pages, total;
	char line[256], zone[32] = "";
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f) {
		FAIL("lowmem", "(/proc/zoneinfo: %s)", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %*d, zone %31s", zone) == 1)
			continue;
		if (sscanf(line, " present %llu", &pages) == 1) {
			if (!strcmp(zone, "HighMem"))
				high += pages;
			else
				low += pages;
		}
	}
	fclose(f);
	low = low * psz / MiB;
	high = high * psz / MiB;
	total = meminfo_kib("HighTotal") / 1024;
	if (!want_high_mib && (high || total))
		FAIL("lowmem", "(highmem present: zone %llu MiB, HighTotal %llu MiB)", high, total);
	else if (want_high_mib && (high < want_high_mib || total < want_high_mib))
		FAIL("lowmem", "(highmem: zone %llu MiB, HighTotal %llu MiB, want >= %llu)",
		     high, total, want_high_mib);
	else if (low < want_low_mib)
		FAIL("lowmem", "(%llu MiB of lowmem, want >= %llu)", low, want_low_mib);
	else if (want_high_mib)
		result("PASS", "lowmem", "(%llu MiB, %llu MiB of highmem)", low, high);
	else
		result("PASS", "lowmem", "(%llu MiB, no highmem)", low);
}

/* The word each page gets: its address mixed with a seed. */
static inline uint32_t pat(uintptr_t a, uint32_t seed)
{
	return (uint32_t)(a * 2654435761u) ^ seed;
}

/*
 * 3379 MiB (3.3 GiB) of address space in one mapping, more than a 3G/1G
 * split's whole user space (TASK_SIZE 0xbf000000): every page written as
 * far as the RAM allows (MemAvailable less 192 MiB), one word per MiB
 * beyond, then all of it checked, and a pipe read into its last page.
 */
static void check_bigmap(void)
{
	size_t len = 3379 * MiB, i, bad = 0, full, avail = meminfo_kib("MemAvailable") * 1024;
	unsigned long long hfree = meminfo_kib("HighFree"), hused = 0;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int fd[2] = { -1, -1 };
	uint32_t w = 0x5a5aa5a5, r;
	const char *why = NULL;

	if (p == MAP_FAILED) {
		FAIL("bigmap", "(mmap 3379 MiB: %s)", strerror(errno));
		return;
	}
	full = avail > 192 * MiB ? avail - 192 * MiB : 0;
	if (full > len)
		full = len;
	full &= ~(2 * MiB - 1);
	/* Beyond what is written in full, a word must not be a huge page. */
	madvise(p + full, len - full, MADV_NOHUGEPAGE);
	for (i = 0; i < len; i += i < full ? (size_t)psz : MiB)
		*(uint32_t *)(p + i) = pat((uintptr_t)(p + i), 1);
	for (i = 0; i < len; i += i < full ? (size_t)psz : MiB)
		bad += *(uint32_t *)(p + i) != pat((uintptr_t)(p + i), 1);
	if (want_high_mib) {
		/* The pages just written: user pages come from highmem first. */
		hused = (hfree - meminfo_kib("HighFree")) / 1024;
		if (hused < 512)
			why = "fewer than 512 MiB of its pages in highmem";
	}
	/* The kernel writes into the last page and reads from the first. */
	if (pipe(fd) || write(fd[1], &w, 4) != 4 ||
	    read(fd[0], p + len - 4, 4) != 4 || write(fd[1], p, 4) != 4 ||
	    read(fd[0], &r, 4) != 4) {
		FAIL("bigmap", "(pipe round trip: %s)", strerror(errno));
		goto out;
	}
	/*
	 * With highmem, the kernel copies a whole page out of the mapping
	 * and a new page into it at every MiB written (most of them highmem
	 * pages, which the engine maps in its own slots), each compared.
	 */
	for (i = 0; want_high_mib && !why && i + psz <= full; i += MiB) {
		static char buf[65536], in[65536];
		size_t k;

		if (write(fd[1], p + i, psz) != psz || read(fd[0], buf, psz) != psz ||
		    memcmp(buf, p + i, psz)) {
			why = "a page copied out of the mapping differs";
			break;
		}
		for (k = 0; k < (size_t)psz; k++)
			in[k] = (char)(i / MiB + k);
		if (write(fd[1], in, psz) != psz || read(fd[0], p + i, psz) != psz ||
		    memcmp(in, p + i, psz)) {
			why = "a page copied into the mapping differs";
			break;
		}
	}
	if (why || bad || *(uint32_t *)(p + len - 4) != w ||
		   r != pat((uintptr_t)p, 1)) {
		FAIL("bigmap", "(%zu pages wrong, kernel copy %s%s%s)", bad,
		     r != pat((uintptr_t)p, 1) ? "wrong" : "right",
		     why ? ", " : "", why ? why : "");
	} else if (want_high_mib) {
		result("PASS", "bigmap", "(%zu MiB mapped at %p, %zu MiB of it written page by page, %llu MiB of that highmem, copied in and out by the kernel)",
		       (size_t)(len / MiB), p, (size_t)(full / MiB), hused);
	} else {
		result("PASS", "bigmap", "(%zu MiB mapped at %p, %zu MiB of it written page by page)",
		       (size_t)(len / MiB), p, (size_t)(full / MiB));
	}
out:
	if (fd[0] >= 0) {
		close(fd[0]);
		close(fd[1]);
	}
	munmap(p, len);
}

static void check_high(void)
{
	uintptr_t at = 0xe8000000;
	size_t len = 4 * MiB, i;
	char *p = mmap((void *)at, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	char buf[64], out[64];
	int fd[2], ok = 1;
	void *q;

	if (p == MAP_FAILED || (uintptr_t)p != at) {
		FAIL("high", "(mmap at %#lx: %s)", (unsigned long)at, strerror(errno));
		return;
	}
	for (i = 0; i < len; i += psz)
		*(uint32_t *)(p + i) = pat((uintptr_t)(p + i), 2);
	for (i = 0; i < len; i += psz)
		ok &= *(uint32_t *)(p + i) == pat((uintptr_t)(p + i), 2);
	memset(buf, 0x77, sizeof(buf));
	if (pipe(fd) || write(fd[1], buf, sizeof(buf)) != sizeof(buf) ||
	    read(fd[0], p + len - 32, sizeof(buf)) != sizeof(buf)) {
		/* 32 bytes fit: the read must stop short, not write past the end */
		ok &= errno == EFAULT;
	}
	close(fd[0]);
	close(fd[1]);
	if (pipe(fd) || write(fd[1], p + 100, 64) != 64 || read(fd[0], out, 64) != 64 ||
	    memcmp(out, p + 100, 64))
		ok = 0;
	close(fd[0]);
	close(fd[1]);
	q = mmap((void *)0xf0000000, psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (q != MAP_FAILED) {
		FAIL("high", "(mmap at TASK_SIZE 0xf0000000 succeeded)");
		munmap(q, psz);
	} else if (!ok) {
		FAIL("high", "(data at %#lx wrong)", (unsigned long)at);
	} else {
		PASS("high");
	}
	munmap(p, len);
}

static unsigned long stack_lo(void)
{
	char line[256];
	unsigned long lo = 0, hi;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]"))
			sscanf(line, "%lx-%lx", &lo, &hi);
	if (f)
		fclose(f);
	return lo;
}

static int grow(int depth, uint32_t *sum)
{
	volatile char frame[64 * 1024];
	size_t i;

	for (i = 0; i < sizeof(frame); i += 1024)
		frame[i] = (char)(depth + i);
	if (depth > 0 && grow(depth - 1, sum))
		return 1;
	for (i = 0; i < sizeof(frame); i += 1024)
		if (frame[i] != (char)(depth + i))
			return 1;
	*sum += depth;
	return 0;
}

static void check_stack(void)
{
	unsigned long lo0 = stack_lo(), lo1;
	uint32_t sum = 0;
	char *below;
	int bad;

	if (lo0 < 0xe0000000UL) {
		FAIL("stack", "([stack] starts at %#lx, below 0xe0000000)", lo0);
		return;
	}
	/* A mapping right under the room the stack may grow into (8 MiB). */
	below = mmap((void *)(lo0 - 9 * MiB), MiB, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (below == MAP_FAILED) {
		FAIL("stack", "(mmap under the stack: %s)", strerror(errno));
		return;
	}
	memset(below, 0x3c, MiB);
	bad = grow(96, &sum);	/* 97 frames of 64 KiB: about 6 MiB */
	lo1 = stack_lo();
	if (bad || sum != 96 * 97 / 2 || lo1 > lo0 - 5 * MiB || below[0] != 0x3c ||
	    below[MiB - 1] != 0x3c)
		FAIL("stack", "(grew from %#lx to %#lx, data %s)", lo0, lo1,
		     bad ? "wrong" : "right");
	else
		result("PASS", "stack", "([stack] from %#lx down to %#lx)", lo0, lo1);
	munmap(below, MiB);
}

/* A child: its own pages, written, then checked after others have run. */
static int child_mem(unsigned int id, int go_fd)
{
	size_t len = 4 * psz, i;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char c;

	if (p == MAP_FAILED)
		return 2;
	for (i = 0; i < len; i += 64)
		*(uint32_t *)(p + i) = pat(i, id);
	if (go_fd >= 0 && read(go_fd, &c, 1) != 1)
		return 3;
	sched_yield();
	for (i = 0; i < len; i += 64)
		if (*(uint32_t *)(p + i) != pat(i, id))
			return 1;
	return 0;
}

static void check_procs(void)
{
	enum { ALIVE = 300, SERIAL = 3000 };
	pid_t pids[ALIVE];
	int go[2], n, st, bad = 0, err = 0;
	uint32_t cow = 0x12345678;

	if (pipe(go)) {
		FAIL("procs", "(pipe: %s)", strerror(errno));
		return;
	}
	for (n = 0; n < ALIVE; n++) {
		pids[n] = fork();
		if (pids[n] == 0) {
			close(go[1]);
			_exit(child_mem(n, go[0]));
		}
		if (pids[n] < 0) {
			err = errno;
			break;
		}
	}
	close(go[0]);
	/* All alive: now let them check, each after the others have run. */
	for (st = 0; st < n; st++)
		if (write(go[1], "g", 1) != 1)
			err = errno;
	close(go[1]);
	for (st = 0; st < n; st++) {
		int s;

		if (waitpid(pids[st], &s, 0) != pids[st] || !WIFEXITED(s) || WEXITSTATUS(s))
			bad++;
	}
	if (n < ALIVE || bad)
		FAIL("procs", "(%d of %d alive, %d with wrong memory%s%s)", n, ALIVE, bad,
		     err ? ", " : "", err ? strerror(err) : "");
	else
		result("PASS", "procs:alive", "(%d at once)", ALIVE);

	bad = 0;
	for (n = 0; n < SERIAL; n++) {
		pid_t pid = fork();
		int s;

		if (pid == 0)
			_exit(cow != 0x12345678 ? 4 : child_mem(n, -1));
		if (pid < 0 || waitpid(pid, &s, 0) != pid || !WIFEXITED(s) || WEXITSTATUS(s))
			bad++;
		cow = 0x12345678;	/* the parent's page, written between forks */
	}
	if (bad)
		FAIL("procs:serial", "(%d of %d with wrong memory)", bad, SERIAL);
	else
		result("PASS", "procs:serial", "(%d in turn)", SERIAL);
}

/* The kernel's rt_sigaction, without SA_RESTORER: return via the sigpage. */
struct ksigaction {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask[2];
};

static volatile int sig_seen, sig_code, sig_fd = -1;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	(void)uc;
	sig_seen = sig;
	sig_code = si->si_code;
	if (sig_fd >= 0 && write(sig_fd, &a, sizeof(a)) != sizeof(a))
		sig_seen = -1;
}

static void check_signal(void)
{
	struct ksigaction ka = { .handler = on_sig, .flags = SA_SIGINFO };
	volatile uint32_t canary = 0xc0ffee11;
	uintptr_t got = 0;
	int fd[2], s;
	pid_t pid;
	char *p;

	if (syscall(SYS_rt_sigaction, SIGUSR1, &ka, NULL, 8)) {
		FAIL("signal", "(rt_sigaction: %s)", strerror(errno));
		return;
	}
	kill(getpid(), SIGUSR1);
	if (sig_seen != SIGUSR1 || sig_code != SI_USER || canary != 0xc0ffee11) {
		FAIL("signal", "(SIGUSR1: seen %d code %d)", sig_seen, sig_code);
		return;
	}
	/*
	 * A fault at a high user address: the handler (run once, then the
	 * default action) reports the address through a pipe.
	 */
	p = mmap((void *)0xe9000000, psz, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED || pipe(fd)) {
		FAIL("signal", "(mmap/pipe: %s)", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		ka.flags = SA_SIGINFO | SA_RESETHAND;
		sig_fd = fd[1];
		syscall(SYS_rt_sigaction, SIGSEGV, &ka, NULL, 8);
		(void)*(volatile char *)(p + 8);
		_exit(9);
	}
	close(fd[1]);
	waitpid(pid, &s, 0);
	if (read(fd[0], &got, sizeof(got)) != sizeof(got))
		got = 0;
	close(fd[0]);
	munmap(p, psz);
	if (!WIFSIGNALED(s) || WTERMSIG(s) != SIGSEGV || got != (uintptr_t)(p + 8))
		FAIL("signal", "(SIGSEGV at %p: status %#x, si_addr %#lx)", p + 8, s,
		     (unsigned long)got);
	else
		PASS("signal");
}

static void check_vdso(void)
{
	unsigned long v = getauxval(AT_SYSINFO_EHDR);
	struct timespec a, b;
	char line[256];
	int mapped = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			mapped = lo == v;
	}
	if (f)
		fclose(f);
	if (!v || !mapped || memcmp((void *)v, "\177ELF", 4)) {
		FAIL("vdso", "(AT_SYSINFO_EHDR %#lx, [vdso] %s)", v, mapped ? "there" : "not there");
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b);
	if (b.tv_sec < a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec < a.tv_nsec))
		FAIL("vdso", "(vdso time ahead of the syscall's)");
	else
		result("PASS", "vdso", "(at %#lx)", v);
}

typedef int (*kuser_cmpxchg_t)(int oldval, int newval, volatile int *ptr);
typedef void *(*kuser_get_tls_t)(void);
typedef void (*kuser_dmb_t)(void);

static void check_kuser(void)
{
	int version = *(volatile int *)0xffff0ffc;
	volatile int word = 5;
	void *tls;

	/* Without KUSER_HELPERS the page is not readable: the load faults. */
	(void)version;
	tls = ((kuser_get_tls_t)0xffff0fe0)();
	if (tls != __builtin_thread_pointer()) {
		FAIL("kuser", "(get_tls %p, TPIDRURO %p)", tls, __builtin_thread_pointer());
		return;
	}
	((kuser_dmb_t)0xffff0fa0)();
	if (((kuser_cmpxchg_t)0xffff0fc0)(5, 7, &word) != 0 || word != 7 ||
	    ((kuser_cmpxchg_t)0xffff0fc0)(5, 9, &word) == 0 || word != 7) {
		FAIL("kuser", "(cmpxchg: word %d)", word);
		return;
	}
	result("PASS", "kuser", "(helpers version %d)", version);
}

static void check_kuser_forked(void)
{
	pid_t pid = fork();
	int s;

	if (pid == 0) {
		check_kuser();
		_exit(failed);
	}
	waitpid(pid, &s, 0);
	if (WIFSIGNALED(s) && WTERMSIG(s) == SIGSEGV)
		SKIP("kuser", "(no kuser helpers: CONFIG_KUSER_HELPERS=n)");
	else if (!WIFEXITED(s) || WEXITSTATUS(s))
		failed = 1;
}

static void check_ptrace(void)
{
	size_t len = 2 * psz;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *priv = malloc(len), back[256];
	struct iovec l, r;
	pid_t pid;
	long w;
	int s, ok = 127;

	if (p == MAP_FAILED || !priv) {
		FAIL("ptrace", "(mmap: %s)", strerror(errno));
		return;
	}
	memset(priv, 0x42, len);
	pid = fork();
	if (pid == 0) {
		/* The child's private copy differs from the parent's after fork. */
		memset(priv, 0x24, len);
		p[0] = 1;
		while (p[0] != 2)
			sched_yield();
		_exit(priv[psz - 1] == 'X' && priv[psz + 1] == 'Y' &&
		      priv[2 * psz - 1] == 'Z' ? 0 : 1);
	}
	while (p[0] != 1)
		sched_yield();
	if (ptrace(PTRACE_ATTACH, pid, 0, 0) || waitpid(pid, &s, 0) != pid) {
		FAIL("ptrace", "(attach: %s)", strerror(errno));
		kill(pid, SIGKILL);
		return;
	}
	errno = 0;
	w = ptrace(PTRACE_PEEKDATA, pid, priv + 16, 0);
	if (errno || w != 0x24242424)
		ok &= ~2;
	/* Across the page boundary: 'X' before it, 'Y' after it. */
	if (ptrace(PTRACE_POKEDATA, pid, priv + psz - 2, (void *)0x59245824L))
		ok &= ~4;
	ptrace(PTRACE_DETACH, pid, 0, 0);
	l.iov_base = back;
	l.iov_len = sizeof(back);
	r.iov_base = priv + psz - 128;
	r.iov_len = sizeof(back);
	if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)sizeof(back))
		ok &= ~8;
	if (back[0] != 0x24 || back[127] != 'X' || back[129] != 'Y')
		ok &= ~16;
	memset(back, 'Z', sizeof(back));
	r.iov_base = priv + 2 * psz - 64;
	r.iov_len = 64;
	l.iov_len = 64;
	if (process_vm_writev(pid, &l, 1, &r, 1, 0) != 64)
		ok &= ~32;
	if (priv[0] != 0x42)	/* the parent's own copy untouched */
		ok &= ~64;
	p[0] = 2;
	waitpid(pid, &s, 0);
	if (ok != 127 || !WIFEXITED(s) || WEXITSTATUS(s))
		FAIL("ptrace", "(checks passed %#x of 0x7f, child status %#x)", ok, s);
	else
		PASS("ptrace");
	munmap(p, len);
}

static int set_online(int cpu, int on)
{
	char path[64];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static void check_hotplug(void)
{
	cpu_set_t set;
	pid_t pid;
	int s;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2 || access("/sys/devices/system/cpu/cpu1/online", W_OK)) {
		SKIP("hotplug", "(no second CPU to take offline)");
		return;
	}
	if (set_online(1, 0) || sysconf(_SC_NPROCESSORS_ONLN) != 1 || set_online(1, 1)) {
		FAIL("hotplug", "(cpu1 offline/online: %s)", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		CPU_ZERO(&set);
		CPU_SET(1, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(5);
		_exit(child_mem(1, -1) || sched_getcpu() != 1);
	}
	waitpid(pid, &s, 0);
	if (!WIFEXITED(s) || WEXITSTATUS(s))
		FAIL("hotplug", "(a process on cpu1 after: status %#x)", s);
	else
		PASS("hotplug");
}

static const struct {
	const char *name;
	void (*fn)(void);
} checks[] = {
	{ "lowmem", check_lowmem }, { "bigmap", check_bigmap },
	{ "high", check_high }, { "stack", check_stack },
	{ "procs", check_procs }, { "signal", check_signal },
	{ "vdso", check_vdso }, { "kuser", check_kuser_forked },
	{ "ptrace", check_ptrace }, { "hotplug", check_hotplug },
};

int main(int argc, char **argv)
{
	unsigned int i;
	int a;

	psz = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (argc > 2 && (!strcmp(argv[1], "-l") || !strcmp(argv[1], "-H"))) {
		if (argv[1][1] == 'l')
			want_low_mib = strtoull(argv[2], NULL, 0);
		else
			want_high_mib = strtoull(argv[2], NULL, 0);
		argv += 2;
		argc -= 2;
	}
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		int want = argc < 2;

		for (a = 1; a < argc; a++)
			want |= !strcmp(argv[a], checks[i].name);
		if (want)
			checks[i].fn();
	}
	return failed;
}
