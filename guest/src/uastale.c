// SPDX-License-Identifier: GPL-2.0
/*
 * uastale - no user access may go through a stale translation: after an
 * mm syscall (or a fault) has removed or changed a user mapping, the kernel
 * must neither read nor write the page that used to be there.
 *
 * Why: a pinned engine that remembers (mm, user page) -> kernel address
 * translations (a software TLB) reuses them without walking the page
 * tables, and depends on flush_tlb_mm/page/range to forget them, on every
 * CPU (on ARMv7 SMP these run on the calling CPU only: the hardware
 * broadcasts the TLB maintenance, not a software cache's).  A forgotten
 * flush, or one that reaches one CPU only, shows up here: a copy that
 * succeeds where it must EFAULT, a read that returns the old page's bytes,
 * a write that lands in the old page (a freed page, or a page cache page
 * of a file no longer mapped there) instead of the new one.
 *
 * Every case first PRIMES the translations: the kernel reads and writes the
 * user pages several times through syscalls (write() from the buffer into a
 * pipe, read() from a pipe into it, FIONREAD's put_user).  Then an mm
 * syscall changes the mapping (munmap, mmap MAP_FIXED, mprotect, fork's
 * COW, madvise, mremap, ftruncate; also from the other CPU and from
 * another process), and the kernel accesses the pages again: copy_from_user
 * (write() to a pipe), get_user (FUTEX_WAIT compares the word it reads),
 * copy_to_user (read() from a pipe), put_user (FIONREAD) and clear_user
 * (read() from /dev/zero).  Each result is checked against the exact value
 * the test computes from its own model of the memory (the bytes, and
 * EFAULT where nothing is mapped or the page is read-only), and a failed
 * read() must leave its data in the pipe.  Files live on tmpfs and are read
 * back with pread() to prove that nothing reached a file no longer mapped.
 * The first access after the change is a read; in the ":wfirst" variants
 * it is a write (of a few bytes, so that the reads after it still tell the
 * old page from the new one).
 *
 * Every case runs once per mode ("direct", then "pinned", switched through
 * /sys/kernel/debug/uaccess/mode) in a forked child under a watchdog (a
 * hang is a FAIL with the case's name); the records of the two runs (return
 * values, errno, hashes of the bytes produced) must also be identical.
 * Without the mode file (stock kernel) or under uaccess_strict (pinned
 * only) the cases run in the one mode there is, against the expected values
 * only, and one "UTEST SKIP uastale:compare" line says so.
 *
 * Output: "UTEST PASS|FAIL|SKIP uastale:<case> [detail]" per case, then
 * "uastale:pins" (outstanding pins must be 0) when the pins file exists;
 * other lines are diagnostics.  Exit 0 iff no FAIL.
 *
 * usage: uastale [-v] [-l] [-S] [-t WATCHDOG_S] [CASE-SUBSTRING...]
 *   -v  print every record;  -l  list the cases;  -t  per-run watchdog (60 s)
 *   -S  self-check of the test: the mapping changes are skipped (or made
 *       harmless), so the kernel finds the old pages just as it would
 *       through a stale translation; every case must then FAIL, and is
 *       reported as "UTEST PASS uastale:sabotage:<case>" (current mode only)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#define PROG "uastale"
#define MAXOBS 400
#define FAIL_SIZE 2048
#include "uarec.h"
#define D "/tmp/uastale.d"

#define PG 4096L		/* the probes' offsets assume 4 KiB pages */
#define CHUNK (8 * PG)		/* priming copies through the pipe at most this much at once */
#define BIG (2L << 20)		/* "many": more pages than a 256-entry cache holds */
#define XCPU_ITERS 300
#define REUSE_ITERS 60

static uint32_t seedctr;	/* the next fill() seed */
static int zfd = -1;		/* /dev/zero */
static int sabotage;		/* -S: skip the mapping changes (the test's self-check) */
static int wfirst;		/* probe(): the small writes before the reads */

enum { ST_RW, ST_RO, ST_NONE };	/* what the user mapping allows now */

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		die("malloc");
	return p;
}

static uint32_t next_seed(void)
{
	return ++seedctr;
}

/* A pseudo-random byte stream: two seeds never give the same page. */
static void fill(unsigned char *b, long n, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 0x9e3779b9u;

	if (!x)
		x = 1;
	for (long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = x >> 24;
	}
}

/* Where got[] differs from want[], and whether it holds what the old mapping held. */
static const char *diffstr(const unsigned char *got, long ngot, const unsigned char *want,
			   const unsigned char *old, long n)
{
	long i = 0;

	if (ngot != n)
		return L("%ld bytes, want %ld", ngot, n);
	while (i < n && got[i] == want[i])
		i++;
	if (i == n)
		return "same";
	return L("byte %ld is %#x, want %#x%s", i, got[i], want[i],
		 old && !memcmp(got, old, n) ? " (all bytes are the OLD mapping's: stale translation)" :
		 old && got[i] == old[i] ? " (the old mapping's byte)" : "");
}

static int pin_cpu(int cpu)
{
	cpu_set_t cs;

	CPU_ZERO(&cs);
	CPU_SET(cpu, &cs);
	return sched_setaffinity(0, sizeof(cs), &cs);
}

static int online_cpus(void)
{
	return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/* ---- memory and files -------------------------------------------------- */

/*
 * The mapping changes under test.  With -S they are skipped, or made
 * harmless (a MAP_SHARED buffer where fork must COW, a missing store):
 * then the kernel finds the old page, just as through a stale translation,
 * and every case must FAIL.  map_anon()/map_file() at an address count.
 */
static void ch_munmap(void *p, long len)
{
	if (!sabotage && munmap(p, len))
		die("munmap");
}

static void ch_mprotect(void *p, long len, int prot)
{
	if (!sabotage && mprotect(p, len, prot))
		die("mprotect");
}

static void ch_madvise(void *p, long len, int advice)
{
	if (!sabotage && madvise(p, len, advice))
		die("madvise");
}

static void *ch_mremap(void *p, long len, long newlen, int flags, void *to)
{
	void *r;

	if (sabotage)
		return flags & MREMAP_FIXED ? to : p;
	r = mremap(p, len, newlen, flags, to);
	if (r == MAP_FAILED || r != (flags & MREMAP_FIXED ? to : p))
		die("mremap");
	return r;
}

/* Private anonymous memory; given an address, a new mapping there (MAP_FIXED: a change). */
static unsigned char *map_anon(void *at, long len)
{
	void *p;

	if (at && sabotage)
		return at;
	p = mmap(at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED : 0),
		 -1, 0);

	if (p == MAP_FAILED || (at && p != at))
		die("mmap anon");
	return p;
}

static unsigned char *map_file(void *at, long len, int fd, int flags)
{
	void *p;

	if (at && sabotage)
		return at;
	p = mmap(at, len, PROT_READ | PROT_WRITE, flags | (at ? MAP_FIXED : 0), fd, 0);

	if (p == MAP_FAILED || (at && p != at))
		die("mmap file");
	return p;
}

/* Memory a fork must copy on write (with -S: shared, no COW). */
static unsigned char *map_cow(long len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       (sabotage ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap cow");
	return p;
}

/* A tmpfs file of len bytes of fill(seed); its bytes also in m if m. */
static int make_file(const char *name, long len, uint32_t seed, unsigned char *m)
{
	unsigned char *b = m ? m : xmalloc(len);
	int fd = open(L(D "/%s", name), O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die(name);
	fill(b, len, seed);
	if (pwrite(fd, b, len, 0) != len)
		die("pwrite");
	if (!m)
		free(b);
	return fd;
}

/* The file's bytes [off, off + n) must be m (what is there is recorded). */
static void file_is(int fd, long off, const unsigned char *m, long n, const char *what,
		    const unsigned char *old)
{
	unsigned char *b = xmalloc(n + 1);
	long r = DO(pread(fd, b, n + 1, off));

	ck(what, r, E, n, 0, b, r > 0 ? r : 0);
	if (r == n && memcmp(b, m, n))
		failf("%s: %s", what, diffstr(b, n, m, old, n));
	free(b);
}

/* ---- the kernel's accesses -------------------------------------------- */

struct io {
	int r, w;		/* a non-blocking pipe */
	unsigned char s1[PG], s2[PG], big[CHUNK];
};

static struct io *new_io(void)
{
	struct io *io = xmalloc(sizeof(*io));
	int p[2];

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
		die("pipe2");
	io->r = p[0];
	io->w = p[1];
	if (zfd < 0)
		zfd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (zfd < 0)
		die("/dev/zero");
	return io;
}

/* Empty the pipe: up to max bytes into b; returns how many bytes it held. */
static long drain(struct io *io, unsigned char *b, long max)
{
	unsigned char junk[256];
	long got = 0, r;

	while ((r = read(io->r, got < max ? b + got : junk,
			 got < max ? max - got : (long)sizeof(junk))) > 0)
		got += r;
	return got;
}

/*
 * copy_from_user: write() n bytes at q into the pipe.  Readable: all of
 * them, exactly want[].  Else EFAULT and nothing in the pipe.
 */
static void kread(struct io *io, const char *what, unsigned char *q, long n, int rd,
		  const unsigned char *want, const unsigned char *old)
{
	unsigned char *b = n > PG ? io->big : io->s1;
	long r, got;

	r = DO(write(io->w, q, n));
	got = drain(io, b, n);
	ck(what, r, E, rd ? n : -1, EFAULT, b, got < n ? got : n);
	if (rd && (got != n || memcmp(b, want, n)))
		failf("%s: %s", what, diffstr(b, got, want, old, n));
	if (!rd && got)
		failf("%s: %ld bytes reached the pipe", what, got);
}

/*
 * copy_to_user: read() n new bytes from the pipe into q.  Writable: all of
 * them (m[] follows).  Else EFAULT, and the bytes stay in the pipe.
 */
static void kwrite(struct io *io, const char *what, unsigned char *q, long n, int wr,
		   unsigned char *m)
{
	unsigned char *src = io->s2, *back = io->s1;
	long r, got;

	if (n > PG)
		die("kwrite size");
	fill(src, n, next_seed());
	if (write(io->w, src, n) != n)
		die("pipe write");
	r = DO(read(io->r, q, n));
	ck(what, r, E, wr ? n : -1, EFAULT, HASH_NONE);
	if (wr)
		memcpy(m, src, n);
	got = drain(io, back, n);
	if (!wr && (got != n || memcmp(back, src, n)))
		failf("%s: the failed read() lost the pipe's data (%s)", what,
		      diffstr(back, got, src, NULL, n));
	if (wr && got)
		failf("%s: %ld bytes left in the pipe", what, got);
}

/* get_user: FUTEX_WAIT with a zero timeout compares the word at q with val. */
static long futex_wait0(unsigned char *q, uint32_t val)
{
	struct timespec ts = { 0, 0 };

	return syscall(SYS_futex, q, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0);
}

static void kget(const char *what, unsigned char *q, int rd, const unsigned char *m)
{
	uint32_t word;
	long r;

	memcpy(&word, m, 4);
	r = DO(futex_wait0(q, word ^ 0x5a5a5a5a));
	ck(L("%s !=", what), r, E, -1, rd ? EAGAIN : EFAULT, HASH_NONE);
	r = DO(futex_wait0(q, word));
	ck(L("%s ==", what), r, E, -1, rd ? ETIMEDOUT : EFAULT, HASH_NONE);
}

/* put_user: FIONREAD stores the pipe's byte count (3) at q. */
static void kput(struct io *io, const char *what, unsigned char *q, int wr, unsigned char *m)
{
	int three = 3;
	long r;

	if (write(io->w, "abc", 3) != 3)
		die("pipe write");
	r = DO(ioctl(io->r, FIONREAD, q));
	ck(what, r, E, wr ? 0 : -1, EFAULT, HASH_NONE);
	if (wr)
		memcpy(m, &three, 4);
	if (drain(io, io->s1, 3) != 3)
		failf("%s: the pipe did not hold its 3 bytes", what);
}

/* clear_user: read() n bytes of /dev/zero into q. */
static void kclear(const char *what, unsigned char *q, long n, int wr, unsigned char *m)
{
	long r = DO(read(zfd, q, n));

	ck(what, r, E, wr ? n : -1, EFAULT, HASH_NONE);
	if (wr)
		memset(m, 0, n);
}

/* What the page holds now, as the kernel and as the user see it. */
static void verify(struct io *io, const char *tag, unsigned char *q, int st, const unsigned char *m,
		   const unsigned char *old)
{
	char t[64];

	if (st == ST_NONE)
		return;
	snprintf(t, sizeof(t), "%s", tag);
	kread(io, L("%s: kread now", t), q, PG, 1, m, old);
	note(L("%s: user view", t), 0, 0, q, PG);
	if (memcmp(q, m, PG))
		failf("%s: the user sees %s", t, diffstr(q, PG, m, old, PG));
}

static void small_writes(struct io *io, const char *t, unsigned char *q, int wr, unsigned char *m)
{
	kwrite(io, L("%s: kwrite 200@2000", t), q + 2000, 200, wr, m + 2000);
	kput(io, L("%s: put_user", t), q + 16, wr, m + 16);
	kclear(L("%s: clear_user 500@3000", t), q + 3000, 500, wr, m + 3000);
}

/*
 * Every kind of access to the page at q, whose mapping is now st and
 * whose bytes the model m holds (updated by the writes); old, if known,
 * is what the page held before the change (named in a mismatch).  The
 * first access after the change is a read, or with wfirst a small write
 * (a cache may keep reads and writes apart, or a read may refresh it);
 * the small writes leave most of the page as it was, so the reads after
 * them still tell the old page from the new one.
 */
static void probe(struct io *io, const char *tag, unsigned char *q, int st, unsigned char *m,
		  const unsigned char *old)
{
	int rd = st != ST_NONE, wr = st == ST_RW;
	char t[64];

	snprintf(t, sizeof(t), "%s", tag);
	if (wfirst)
		small_writes(io, t, q, wr, m);
	kread(io, L("%s: kread page", t), q, PG, rd, m, old);
	kread(io, L("%s: kread 100@1000", t), q + 1000, 100, rd, m + 1000, old ? old + 1000 : NULL);
	kget(L("%s: get_user", t), q + 8, rd, m + 8);
	kwrite(io, L("%s: kwrite page", t), q, PG, wr, m);
	if (!wfirst)
		small_writes(io, t, q, wr, m);
	verify(io, t, q, st, m, old);
}

static void probe_pages(struct io *io, const char *tag, unsigned char *p, int npages, int st,
			unsigned char *m, const unsigned char *old)
{
	char t[64];

	snprintf(t, sizeof(t), "%s", tag);
	for (int k = 0; k < npages; k++)
		probe(io, L("%s p%d", t, k), p + k * PG, st, m + k * PG, old ? old + k * PG : NULL);
}

/*
 * Make the kernel read and write [p, p + len) three times over, and store
 * into every page once with put_user: the translations a cache would keep.
 * m holds what p holds and follows the writes.
 */
static void prime(struct io *io, const char *tag, unsigned char *p, long len, unsigned char *m)
{
	int bad = 0;
	long r, got;

	for (int rep = 0; rep < 3; rep++) {
		for (long off = 0; off < len; off += CHUNK) {
			long n = len - off < CHUNK ? len - off : CHUNK;

			r = write(io->w, p + off, n);
			got = drain(io, io->big, n);
			if (r != n || got != n || memcmp(io->big, m + off, n))
				bad |= 1;
			fill(io->big, n, next_seed());
			if (write(io->w, io->big, n) != n)
				die("pipe write");
			if (read(io->r, p + off, n) != n)
				bad |= 2;
			else
				memcpy(m + off, io->big, n);
			drain(io, io->s1, PG);
			for (long k = 0; !rep && k < n; k += PG) {
				int three = 3;

				if (write(io->w, "abc", 3) != 3)
					die("pipe write");
				if (ioctl(io->r, FIONREAD, p + off + k + 16))
					bad |= 4;
				else
					memcpy(m + off + k + 16, &three, 4);
				drain(io, io->s1, 3);
			}
		}
	}
	if (memcmp(p, m, len))
		bad |= 8;
	if (bad)
		failf("%s: priming went wrong:%s%s%s%s", tag, bad & 1 ? " a kernel read was wrong" : "",
		      bad & 2 ? " a kernel write failed" : "", bad & 4 ? " a put_user failed" : "",
		      bad & 8 ? " the user does not see the kernel's writes" : "");
	note(L("%s: primed", tag), len, 0, p, len);
}

/* ---- the cases ------------------------------------------------------------ */

/*
 * munmap: 0: a one-page mapping; 1: the middle page of three (the VMA is
 * split, its neighbours stay); 2: a MAP_SHARED tmpfs page, whose page cache
 * page lives on: a stale write would land in the file.
 */
static void case_munmap(int kind, int unused)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(3 * PG), *old = xmalloc(3 * PG), *p;
	int np = kind == 1 ? 3 : 1, fd = -1;

	(void)unused;
	if (kind == 2) {
		fd = make_file("f", PG, next_seed(), m);
		p = map_file(NULL, PG, fd, MAP_SHARED);
	} else {
		p = map_anon(NULL, np * PG);
		fill(m, np * PG, next_seed());
		memcpy(p, m, np * PG);
	}
	prime(io, "munmap", p, np * PG, m);
	memcpy(old, m, np * PG);
	if (kind == 1) {
		ch_munmap(p + PG, PG);
		probe(io, "munmap:middle p0", p, ST_RW, m, NULL);
		probe(io, "munmap:middle p1", p + PG, ST_NONE, m + PG, old + PG);
		probe(io, "munmap:middle p2", p + 2 * PG, ST_RW, m + 2 * PG, NULL);
		return;
	}
	if (kind == 2)
		file_is(fd, 0, m, PG, "munmap: the file after priming", NULL);
	ch_munmap(p, PG);
	probe(io, "munmap", p, ST_NONE, m, old);
	if (kind == 2)
		file_is(fd, 0, old, PG, "munmap: the file, unchanged", NULL);
}

/*
 * munmap + mmap(MAP_FIXED) at the same address: the kernel must see the
 * new page (zeros, or a second file's bytes), and write into it; a file
 * that was mapped there before must not change.
 */
static void case_remap(int from_file, int to_file)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(PG), *old = xmalloc(PG), *p;
	int fd1 = -1, fd2 = -1;

	if (from_file) {
		fd1 = make_file("old", PG, next_seed(), m);
		p = map_file(NULL, PG, fd1, MAP_SHARED);
	} else {
		p = map_anon(NULL, PG);
		fill(m, PG, next_seed());
		memcpy(p, m, PG);
	}
	prime(io, "remap", p, PG, m);
	memcpy(old, m, PG);
	ch_munmap(p, PG);
	if (to_file) {
		fd2 = make_file("new", PG, next_seed(), m);
		map_file(p, PG, fd2, MAP_SHARED);
	} else {
		map_anon(p, PG);
		memset(m, 0, PG);
	}
	probe(io, "remap", p, ST_RW, m, old);
	if (to_file)
		file_is(fd2, 0, m, PG, "remap: the new file has the writes", old);
	if (from_file)
		file_is(fd1, 0, old, PG, "remap: the old file, unchanged", NULL);
}

/*
 * mprotect of the first of two pages (anonymous, or a MAP_SHARED file):
 * PROT_READ (reads work, writes EFAULT, the pipe keeps its data), then
 * PROT_NONE (everything EFAULTs), then PROT_READ|PROT_WRITE again.  The
 * second page keeps working all along.
 */
static void case_mprotect(int file, int unused)
{
	static const struct { int prot, st; const char *name; } steps[] = {
		{ PROT_READ, ST_RO, "mprotect ro" },
		{ PROT_NONE, ST_NONE, "mprotect none" },
		{ PROT_READ | PROT_WRITE, ST_RW, "mprotect rw" },
	};
	struct io *io = new_io();
	unsigned char *m = xmalloc(2 * PG), *p;
	int fd = -1;

	(void)unused;
	if (file) {
		fd = make_file("f", 2 * PG, next_seed(), m);
		p = map_file(NULL, 2 * PG, fd, MAP_SHARED);
	} else {
		p = map_anon(NULL, 2 * PG);
		fill(m, 2 * PG, next_seed());
		memcpy(p, m, 2 * PG);
	}
	prime(io, "mprotect", p, 2 * PG, m);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		ch_mprotect(p, PG, steps[i].prot);
		probe(io, L("%s p0", steps[i].name), p, steps[i].st, m, NULL);
		probe(io, L("%s p1", steps[i].name), p + PG, ST_RW, m + PG, NULL);
		if (file)
			file_is(fd, 0, m, 2 * PG, L("%s: the file", steps[i].name), NULL);
	}
	verify(io, "mprotect end p0", p, ST_RW, m, NULL);
}

static void hand_wait(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("handoff read");
}

static void hand_send(int fd)
{
	if (write(fd, "x", 1) != 1)
		die("handoff write");
}

static void reap_child(pid_t pid, const char *what)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	note(L("%s: status", what), status, 0, HASH_NONE);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		failf("%s: status %#x", what, status);
}

/*
 * fork COW: the parent primes a writable translation, then forks; parent
 * and child each make the kernel write their own data into the page.
 * Each must see only its own: the first writer's bytes must not show in
 * the other process (child_first: the child writes first).
 */
static void case_cow_fork(int child_first, int unused)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(PG), *p = map_cow(PG);
	int go[2], back[2];
	pid_t pid;

	(void)unused;
	fill(m, PG, next_seed());
	memcpy(p, m, PG);
	prime(io, "cow", p, PG, m);
	if (pipe(go) || pipe(back))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		alarm(watchdog_s);
		seedctr += 100000;	/* the child's data differs from the parent's */
		if (!child_first)
			hand_wait(go[0]);
		probe(io, "cow child", p, ST_RW, m, NULL);
		hand_send(back[1]);
		if (child_first) {
			hand_wait(go[0]);
			verify(io, "cow child, at the end", p, ST_RW, m, NULL);
		}
		_exit(0);
	}
	if (child_first)
		hand_wait(back[0]);
	probe(io, "cow parent", p, ST_RW, m, NULL);
	hand_send(go[1]);
	if (!child_first) {
		hand_wait(back[0]);
		verify(io, "cow parent, at the end", p, ST_RW, m, NULL);
	}
	reap_child(pid, "cow child");
}

/*
 * fork COW broken by the user: after the fork the kernel reads the shared
 * page (a read-only translation), then the process writes it itself (the
 * fault gives it a new page); the kernel must read the new page.  The
 * child's copy must keep the old bytes, and it does the same in turn.
 */
static void case_cow_user(int unused1, int unused2)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(PG), *x = xmalloc(PG), *p = map_cow(PG);
	int go[2], back[2];
	pid_t pid;

	(void)unused1, (void)unused2;
	fill(m, PG, next_seed());
	memcpy(p, m, PG);
	prime(io, "cow", p, PG, m);
	memcpy(x, m, PG);
	if (pipe(go) || pipe(back))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		alarm(watchdog_s);
		seedctr += 100000;
		hand_wait(go[0]);
		for (int i = 0; i < 3; i++)
			kread(io, L("cow child: kread %d", i), p, PG, 1, m, NULL);
		fill(m, PG, next_seed());
		memcpy(p, m, PG);
		verify(io, "cow child, after its store", p, ST_RW, m, x);
		hand_send(back[1]);
		_exit(0);
	}
	for (int i = 0; i < 3; i++)
		kread(io, L("cow parent: kread %d", i), p, PG, 1, m, NULL);
	fill(m, PG, next_seed());
	memcpy(p, m, PG);
	verify(io, "cow parent, after its store", p, ST_RW, m, x);
	hand_send(go[1]);
	hand_wait(back[0]);
	verify(io, "cow parent, at the end", p, ST_RW, m, x);
	reap_child(pid, "cow child");
}

/*
 * MAP_PRIVATE of a file: the kernel first reads the page cache page, then
 * writes (copy_to_user, or put_user on the second page): that breaks COW,
 * and neither the write nor later reads may reach the page cache page.
 */
static void case_cow_private_file(int unused1, int unused2)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(2 * PG), *f = xmalloc(2 * PG), *p;
	int fd = make_file("f", 2 * PG, next_seed(), f);

	(void)unused1, (void)unused2;
	memcpy(m, f, 2 * PG);
	/* -S: shared, no COW: the kernel's writes reach the file */
	p = map_file(NULL, 2 * PG, fd, sabotage ? MAP_SHARED : MAP_PRIVATE);
	for (int i = 0; i < 3; i++) {
		kread(io, L("private file p0: kread %d", i), p, PG, 1, m, NULL);
		kread(io, L("private file p1: kread %d", i), p + PG, PG, 1, m + PG, NULL);
	}
	kwrite(io, "private file p0: kwrite page", p, PG, 1, m);
	kput(io, "private file p1: put_user", p + PG + 16, 1, m + PG + 16);
	verify(io, "private file p0", p, ST_RW, m, f);
	verify(io, "private file p1", p + PG, ST_RW, m + PG, f + PG);
	file_is(fd, 0, f, 2 * PG, "private file: the file, unchanged", NULL);
	probe_pages(io, "private file", p, 2, ST_RW, m, f);
	file_is(fd, 0, f, 2 * PG, "private file: the file, still unchanged", NULL);
}

/*
 * The zero page: a fresh anonymous page read by the kernel maps the shared
 * zero page.  Then a store by the user, or a write by the kernel (copy or
 * put_user), must get a page of its own, seen by later kernel reads; and
 * the zero page must still read as zeros.
 */
static void case_zeropage(int unused1, int unused2)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(PG), *z = xmalloc(PG), *p;

	(void)unused1, (void)unused2;
	memset(z, 0, PG);
	for (int how = 0; how < 4; how++) {
		const char *name = how == 0 ? "user store" : how == 1 ? "kwrite page" :
				   how == 2 ? "put_user" : "kwrite 200@2000";
		char t[48];

		snprintf(t, sizeof(t), "zeropage, %s", name);
		p = map_anon(NULL, PG);
		memset(m, 0, PG);
		for (int i = 0; i < 3; i++)
			kread(io, L("%s: kread %d", t, i), p, PG, 1, m, NULL);
		if (how == 0) {
			fill(m, PG, next_seed());
			if (!sabotage)
				memcpy(p, m, PG);
		} else if (how == 1) {
			kwrite(io, L("%s", t), p, PG, 1, m);
		} else if (how == 2) {
			kput(io, L("%s", t), p + 16, 1, m + 16);
		} else {
			kwrite(io, L("%s", t), p + 2000, 200, 1, m + 2000);
		}
		verify(io, t, p, ST_RW, m, z);
		munmap(p, PG);
	}
	p = map_anon(NULL, PG);
	memset(m, 0, PG);
	kread(io, "zeropage, still zeros", p, PG, 1, m, NULL);
	probe(io, "zeropage", p, ST_RW, m, NULL);
}

/*
 * madvise: 0: MADV_DONTNEED of private anonymous memory (zeros after);
 * 1: MADV_DONTNEED of a MAP_PRIVATE file whose pages the kernel's writes
 * have copied: the copies are dropped, the file's own bytes are back;
 * 2: MADV_REMOVE of the first page of a MAP_SHARED tmpfs file (a hole:
 * zeros after, the page freed; the second page stays).
 */
static void case_madvise(int kind, int unused)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(2 * PG), *old = xmalloc(2 * PG), *f = xmalloc(2 * PG), *p;
	int fd = -1;

	(void)unused;
	if (kind) {
		fd = make_file("f", 2 * PG, next_seed(), f);
		memcpy(m, f, 2 * PG);
		p = map_file(NULL, 2 * PG, fd, kind == 1 ? MAP_PRIVATE : MAP_SHARED);
	} else {
		p = map_anon(NULL, 2 * PG);
		fill(m, 2 * PG, next_seed());
		memcpy(p, m, 2 * PG);
	}
	prime(io, "madvise", p, 2 * PG, m);
	memcpy(old, m, 2 * PG);
	if (kind == 2) {
		ch_madvise(p, PG, MADV_REMOVE);
		memset(m, 0, PG);
	} else {
		ch_madvise(p, 2 * PG, MADV_DONTNEED);
		if (kind)
			memcpy(m, f, 2 * PG);
		else
			memset(m, 0, 2 * PG);
	}
	probe_pages(io, "madvise", p, 2, ST_RW, m, old);
	if (kind == 1)
		file_is(fd, 0, f, 2 * PG, "madvise: the private file, unchanged", NULL);
	if (kind == 2)
		file_is(fd, 0, m, 2 * PG, "madvise: the file", old);
}

/*
 * mremap: 0: four pages moved (MREMAP_MAYMOVE|MREMAP_FIXED) onto four
 * other primed pages: the old address EFAULTs, the new one has the moved
 * bytes, never the replaced mapping's.  1: shrunk to one page in place
 * (the rest EFAULTs), then grown back in place (fresh zero pages).
 */
static void case_mremap(int kind, int unused)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(4 * PG), *old = xmalloc(4 * PG), *md = xmalloc(4 * PG);
	unsigned char *p = map_anon(NULL, 4 * PG), *d;

	(void)unused;
	fill(m, 4 * PG, next_seed());
	memcpy(p, m, 4 * PG);
	prime(io, "mremap", p, 4 * PG, m);
	memcpy(old, m, 4 * PG);
	if (kind == 0) {
		d = map_anon(NULL, 4 * PG);
		fill(md, 4 * PG, next_seed());
		memcpy(d, md, 4 * PG);
		prime(io, "mremap target", d, 4 * PG, md);
		ch_mremap(p, 4 * PG, 4 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, d);
		probe_pages(io, "mremap old", p, 4, ST_NONE, old, NULL);
		probe_pages(io, "mremap new", d, 4, ST_RW, m, md);
		return;
	}
	ch_mremap(p, 4 * PG, PG, 0, NULL);
	probe(io, "mremap shrunk p0", p, ST_RW, m, NULL);
	probe_pages(io, "mremap shrunk, gone", p + PG, 3, ST_NONE, m + PG, NULL);
	ch_mremap(p, PG, 4 * PG, 0, NULL);
	memset(m + PG, 0, 3 * PG);
	probe_pages(io, "mremap regrown", p, 4, ST_RW, m, old);
}

/* ftruncate, by this process or by another one on the other CPU. */
static void truncate_to(int fd, long len, int other)
{
	pid_t pid;

	if (sabotage)
		return;
	if (!other) {
		if (ftruncate(fd, len))
			die("ftruncate");
		return;
	}
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		pin_cpu(online_cpus() > 1 ? 1 : 0);
		_exit(ftruncate(fd, len) ? 1 : 0);
	}
	reap_child(pid, "ftruncate in another process");
}

/*
 * ftruncate of a MAP_SHARED tmpfs file from four pages to one page and
 * 100 bytes: the page at EOF stays (its tail now zeros), the two pages
 * beyond EOF EFAULT, as in direct mode.  Then grown back to four pages:
 * those two are holes, zeros, not the old pages.  other: the truncation
 * is done by another process (on the other CPU when there is one).
 */
static void case_ftruncate(int other, int unused)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(4 * PG), *old = xmalloc(4 * PG), *p;
	int fd = make_file("t", 4 * PG, next_seed(), m);

	(void)unused;
	if (other)
		pin_cpu(0);
	p = map_file(NULL, 4 * PG, fd, MAP_SHARED);
	prime(io, "ftruncate", p, 4 * PG, m);
	file_is(fd, 0, m, 4 * PG, "ftruncate: the file after priming", NULL);
	memcpy(old, m, 4 * PG);
	truncate_to(fd, PG + 100, other);
	memset(m + PG + 100, 0, PG - 100);
	probe_pages(io, "ftruncate", p, 2, ST_RW, m, old);
	probe_pages(io, "ftruncate, beyond EOF", p + 2 * PG, 2, ST_NONE, m + 2 * PG, NULL);
	file_is(fd, 0, m, PG + 100, "ftruncate: the file", old);
	truncate_to(fd, 4 * PG, other);
	memset(m + 2 * PG, 0, 2 * PG);
	probe_pages(io, "ftruncate, regrown", p + 2 * PG, 2, ST_RW, m + 2 * PG, old + 2 * PG);
	verify(io, "ftruncate, regrown p0", p, ST_RW, m, NULL);
	verify(io, "ftruncate, regrown p1", p + PG, ST_RW, m + PG, NULL);
	file_is(fd, 0, m, 4 * PG, "ftruncate, regrown: the file", old);
}

/*
 * Cross-CPU: two threads on CPU 0 and CPU 1 both prime one page; one of
 * them (the changer) changes its mapping, the other (the checker) then
 * accesses it through syscalls (a read first, or every other round a
 * write).  The change cycles through munmap, mmap(MAP_FIXED) of anonymous
 * memory and of a shared file, mprotect(PROT_READ), MADV_DONTNEED and
 * mremap of another page onto it; the roles swap after every round of
 * these.  The page is at the same address every time.
 */
enum { X_MUNMAP, X_ANON, X_FILE, X_RO, X_DONTNEED, X_MREMAP, NR_X };
static const char *const x_name[] = { "munmap", "mmap anon", "mmap file", "mprotect ro",
				      "dontneed", "mremap" };

struct xcpu {
	struct io *io[2];
	int hand[2][2];			/* hand[i]: pipe to thread i */
	unsigned char *a;
	unsigned char m[PG], old[PG];
	int fd, st, kind, cpu_bad;
	long count[NR_X];
};

static void x_loop(struct xcpu *x, int me)
{
	for (int i = 0; i < XCPU_ITERS; i++) {
		/* each kind in turn; the roles swap, and the order, every round of kinds */
		int kind = i % NR_X, checker = (i / NR_X) & 1;
		int prev = i ? ((i - 1) / NR_X) & 1 : checker, next = ((i + 1) / NR_X) & 1;
		struct io *io = x->io[me];
		unsigned char *b;

		if (me == checker) {
			if (prev != me)
				hand_wait(x->hand[me][0]);
			wfirst = (i / (2 * NR_X)) & 1;
			map_anon(x->a, PG);
			fill(x->m, PG, next_seed());
			memcpy(x->a, x->m, PG);
			prime(io, "xcpu checker", x->a, PG, x->m);
			hand_send(x->hand[!me][1]);
			hand_wait(x->hand[me][0]);
			if (sched_getcpu() != me)
				x->cpu_bad++;
			probe(io, L("xcpu %s, checked on CPU%d", x_name[x->kind], me), x->a, x->st, x->m,
			      x->old);
			if (x->kind == X_FILE)
				file_is(x->fd, 0, x->m, PG, "xcpu: the file", x->old);
			x->count[x->kind]++;
			if (i + 1 < XCPU_ITERS && next != me)
				hand_send(x->hand[!me][1]);
			continue;
		}
		hand_wait(x->hand[me][0]);
		if (sched_getcpu() != me)
			x->cpu_bad++;
		prime(io, "xcpu changer", x->a, PG, x->m);
		memcpy(x->old, x->m, PG);
		x->kind = kind;
		x->st = ST_RW;
		switch (kind) {
		case X_MUNMAP:
			ch_munmap(x->a, PG);
			x->st = ST_NONE;
			break;
		case X_ANON:
			map_anon(x->a, PG);
			memset(x->m, 0, PG);
			break;
		case X_FILE:
			fill(x->m, PG, next_seed());
			if (pwrite(x->fd, x->m, PG, 0) != PG)
				die("pwrite");
			map_file(x->a, PG, x->fd, MAP_SHARED);
			break;
		case X_RO:
			ch_mprotect(x->a, PG, PROT_READ);
			x->st = ST_RO;
			break;
		case X_DONTNEED:
			ch_madvise(x->a, PG, MADV_DONTNEED);
			memset(x->m, 0, PG);
			break;
		case X_MREMAP:
			b = map_anon(NULL, PG);
			fill(x->m, PG, next_seed());
			memcpy(b, x->m, PG);
			ch_mremap(b, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED, x->a);
			break;
		}
		hand_send(x->hand[!me][1]);
	}
}

static void *x_thread(void *arg)
{
	struct xcpu *x = arg;

	if (pin_cpu(1))
		die("sched_setaffinity CPU1 (thread)");
	x_loop(x, 1);
	return NULL;
}

static void case_xcpu(int unused1, int unused2)
{
	struct xcpu *x = xmalloc(sizeof(*x));
	pthread_t th;
	char sum[160];
	size_t used = 0;

	(void)unused1, (void)unused2;
	if (online_cpus() < 2) {
		R->skip = 1;
		snprintf(R->skipwhy, sizeof(R->skipwhy), "%d CPU online: needs 2", online_cpus());
		return;
	}
	memset(x, 0, sizeof(*x));
	if (pin_cpu(0) || pin_cpu(1) || pin_cpu(0)) {
		R->skip = 1;
		snprintf(R->skipwhy, sizeof(R->skipwhy), "cannot run on CPU 0 and CPU 1: %s",
			 strerror(errno));
		return;
	}
	x->io[0] = new_io();
	x->io[1] = new_io();
	if (pipe(x->hand[0]) || pipe(x->hand[1]))
		die("pipe");
	x->fd = make_file("x", PG, next_seed(), NULL);
	x->a = map_anon(NULL, PG);
	quiet_begin();
	if (pthread_create(&th, NULL, x_thread, x))
		die("pthread_create");
	x_loop(x, 0);
	pthread_join(th, NULL);
	quiet_end(L("xcpu: %d iterations", XCPU_ITERS), XCPU_ITERS);
	note("xcpu: checks of each kind of change", NR_X, 0, x->count, sizeof(x->count));
	for (int k = 0; k < NR_X; k++) {
		used += snprintf(sum + used, sizeof(sum) - used, "%s%s %ld", k ? ", " : "", x_name[k],
				 x->count[k]);
		if (x->count[k] != XCPU_ITERS / NR_X)
			failf("xcpu: %ld checks of %s, want %d", x->count[k], x_name[k], XCPU_ITERS / NR_X);
	}
	if (verbose)
		printf("    xcpu: checks: %s\n", sum);
	if (x->cpu_bad)
		failf("xcpu: %d times a thread was not on its CPU", x->cpu_bad);
}

/*
 * Many pages: 2 MiB (512 pages, more than a 256-entry cache), all primed,
 * then changed as a whole, and every page checked, the last primed first:
 * A: replaced by fresh anonymous memory, read by the kernel first (zeros),
 *    then every 8th page probed in full;
 * B: replaced by a MAP_SHARED file (mmap MAP_FIXED over it), written by
 *    the kernel first (the writes must be in the file);
 * C: that file mapping unmapped: every page EFAULTs both ways, the file
 *    keeps its bytes;
 * D: fresh anonymous memory made PROT_READ: every kernel write EFAULTs.
 */
static void case_many(int unused1, int unused2)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(BIG), *old = xmalloc(BIG), *f = xmalloc(BIG), *p;
	long np = BIG / PG;
	int fd = make_file("big", BIG, next_seed(), f);

	(void)unused1, (void)unused2;
	p = map_anon(NULL, BIG);
	fill(m, BIG, next_seed());
	memcpy(p, m, BIG);

	prime(io, "many A", p, BIG, m);
	memcpy(old, m, BIG);
	ch_munmap(p, BIG);
	map_anon(p, BIG);
	memset(m, 0, BIG);
	quiet_begin();
	for (long k = np - 1; k >= 0; k--)
		kread(io, L("many A p%ld: kread", k), p + k * PG, PG, 1, m + k * PG, old + k * PG);
	quiet_end("many A: kread of each new page, last first", np);
	quiet_begin();
	for (long k = 0; k < np; k += 8)
		probe(io, L("many A p%ld", k), p + k * PG, ST_RW, m + k * PG, old + k * PG);
	quiet_end("many A: probe of every 8th page", np / 8);

	prime(io, "many B", p, BIG, m);
	memcpy(old, m, BIG);
	map_file(p, BIG, fd, MAP_SHARED);
	memcpy(m, f, BIG);
	quiet_begin();
	for (long k = np - 1; k >= 0; k--)
		kwrite(io, L("many B p%ld: kwrite", k), p + k * PG, PG, 1, m + k * PG);
	for (long k = 0; k < np; k++)
		verify(io, L("many B p%ld", k), p + k * PG, ST_RW, m + k * PG, old + k * PG);
	quiet_end("many B: kwrite of each file page, last first", np);
	file_is(fd, 0, m, BIG, "many B: the file has the writes", old);

	prime(io, "many C", p, BIG, m);
	file_is(fd, 0, m, BIG, "many C: the file after priming", NULL);
	memcpy(old, m, BIG);
	ch_munmap(p, BIG);
	quiet_begin();
	for (long k = np - 1; k >= 0; k--)
		kwrite(io, L("many C p%ld: kwrite", k), p + k * PG, PG, 0, m + k * PG);
	for (long k = np - 1; k >= 0; k--)
		kread(io, L("many C p%ld: kread", k), p + k * PG, PG, 0, m + k * PG, NULL);
	quiet_end("many C: unmapped, each page both ways", np);
	file_is(fd, 0, old, BIG, "many C: the file, unchanged", NULL);

	map_anon(p, BIG);
	fill(m, BIG, next_seed());
	memcpy(p, m, BIG);
	prime(io, "many D", p, BIG, m);
	ch_mprotect(p, BIG, PROT_READ);
	quiet_begin();
	for (long k = np - 1; k >= 0; k--)
		kwrite(io, L("many D p%ld: kwrite", k), p + k * PG, PG, 0, m + k * PG);
	for (long k = np - 1; k >= 0; k--)
		kput(io, L("many D p%ld: put_user", k), p + k * PG + 16, 0, m + k * PG + 16);
	quiet_end("many D: read-only, each page written", np);
	note("many D: user view", 0, 0, p, BIG);
	if (memcmp(p, m, BIG))
		failf("many D: the user sees %s", diffstr(p, BIG, m, NULL, BIG));
}

/*
 * mm reuse: 60 processes one after the other on one CPU, each mapping its
 * own page at the same address and priming it, then exiting.  A new
 * process may get the freed mm_struct of the last one; the first kernel
 * read in each must see that process's own bytes.
 */
static void case_mm_reuse(int unused1, int unused2)
{
	struct io *io = new_io();
	unsigned char *m = xmalloc(PG), *a = map_anon(NULL, PG);
	int ok = 0;

	(void)unused1, (void)unused2;
	pin_cpu(0);
	for (int i = 0; i < REUSE_ITERS; i++) {
		int status;
		pid_t pid;

		seedctr += 1000;
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			alarm(watchdog_s);
			quiet_begin();
			map_anon(a, PG);
			fill(m, PG, next_seed());
			if (!sabotage)
				memcpy(a, m, PG);
			kread(io, L("mm_reuse %d: first kread", i), a, PG, 1, m, NULL);
			prime(io, "mm_reuse", a, PG, m);
			probe(io, L("mm_reuse %d", i), a, ST_RW, m, NULL);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		if (WIFEXITED(status) && !WEXITSTATUS(status))
			ok++;
		else
			failf("mm_reuse %d: child status %#x", i, status);
	}
	note("mm_reuse: children exited 0", ok, 0, HASH_NONE);
}

/* ---- driver -------------------------------------------------------------- */

/* The case, then the same with the probes' small writes first. */
static void add2(const char *name, void (*fn)(int, int), int a, int b)
{
	add(name, fn, a, b);
	add(L("%s:wfirst", name), fn, a, b);
	cases[ncases - 1].variant = 1;
}

/* In the child, before the case: the order of its probes. */
static void start_case(const struct tcase *c)
{
	wfirst = c->variant;
}

static int run_case(const struct tcase *c)
{
	int run = run_modes(c, sabotage ? 300 : FAIL_SIZE), failed = run == RUN_FAIL;

	if (run == RUN_SKIP || run == RUN_DIFFER)
		return run == RUN_DIFFER;
	if (sabotage) {
		/* -S: the case must have caught the stale mapping */
		printf("UTEST %s uastale:sabotage:%s (%s)\n", failed ? "PASS" : "FAIL", c->name,
		       failed ? L("caught: %d failed checks", recs[0].nfail) :
		       "passed although the kernel found the old mappings");
		return !failed;
	}
	if (failed) {
		printf("UTEST FAIL uastale:%s\n", c->name);
		return 1;
	}
	if (nmodes == 2)
		printf("UTEST PASS uastale:%s (%s = %s = expected, %d records, %.1f s)\n", c->name,
		       modes[0], modes[1], recs[0].nobs, run_secs);
	else
		printf("UTEST PASS uastale:%s (%s as expected, %d records, %.1f s; not compared)\n",
		       c->name, modes[0], recs[0].nobs, run_secs);
	return 0;
}

static void choose_modes(void)
{
	int strict;

	if (sabotage || access(MODE_FILE, F_OK)) {
		modes[0] = "current";
		nmodes = 1;
		if (sabotage) {
			printf("uastale: -S: the mapping changes are skipped, every case must FAIL\n");
			return;
		}
		printf("uastale: no %s: checking expected values only, no direct/pinned comparison\n",
		       MODE_FILE);
		printf("UTEST SKIP uastale:compare (no uaccess mode file: one mode, nothing to compare with)\n");
		return;
	}
	strict = start_modes("modes");
	pick_modes(strict);
	if (nmodes == 0) {
		printf("UTEST FAIL uastale:modes (neither direct nor pinned can be set)\n");
		exit(1);
	}
	if (nmodes == 1) {
		printf("uastale: only mode %s (%s); checking expected values only, no comparison\n",
		       modes[0], strict ? "uaccess_strict" : "the other cannot be set");
		printf("UTEST SKIP uastale:compare (only %s%s: nothing to compare with)\n", modes[0],
		       strict ? ", strict" : " available");
	}
}

int main(int argc, char **argv)
{
	int opt, failures = 0, list = 0, ran = 0;
	double t0 = now();

	while ((opt = getopt(argc, argv, "vlSt:")) != -1) {
		if (opt == 'v')
			verbose = 1;
		else if (opt == 'S')
			sabotage = 1;
		else if (opt == 'l')
			list = 1;
		else if (opt == 't')
			watchdog_s = atoi(optarg);
		else {
			fprintf(stderr, "usage: uastale [-v] [-l] [-S] [-t WATCHDOG_S] [CASE-SUBSTRING...]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (sysconf(_SC_PAGESIZE) != PG) {
		printf("UTEST FAIL uastale:setup (page size %ld, the test assumes %ld)\n",
		       sysconf(_SC_PAGESIZE), PG);
		return 1;
	}

	add2("munmap:page", case_munmap, 0, 0);
	add("munmap:middle", case_munmap, 1, 0);
	add2("munmap:file", case_munmap, 2, 0);
	add2("remap:anon", case_remap, 0, 0);
	add2("remap:file", case_remap, 1, 1);
	add2("remap:anon_to_file", case_remap, 0, 1);
	add2("remap:file_to_anon", case_remap, 1, 0);
	add2("mprotect:anon", case_mprotect, 0, 0);
	add2("mprotect:file", case_mprotect, 1, 0);
	add2("cow:fork_parent_first", case_cow_fork, 0, 0);
	add2("cow:fork_child_first", case_cow_fork, 1, 0);
	add("cow:user_store", case_cow_user, 0, 0);
	add("cow:private_file", case_cow_private_file, 0, 0);
	add("zeropage", case_zeropage, 0, 0);
	add2("madvise:dontneed", case_madvise, 0, 0);
	add2("madvise:dontneed_private_file", case_madvise, 1, 0);
	add2("madvise:remove", case_madvise, 2, 0);
	add2("mremap:move", case_mremap, 0, 0);
	add2("mremap:shrink_grow", case_mremap, 1, 0);
	add2("ftruncate", case_ftruncate, 0, 0);
	add2("ftruncate:other_process", case_ftruncate, 1, 0);
	add("xcpu", case_xcpu, 0, 0);
	add("many", case_many, 0, 0);
	add("mm_reuse", case_mm_reuse, 0, 0);
	if (list) {
		for (int i = 0; i < ncases; i++)
			printf("%s\n", cases[i].name);
		return 0;
	}

	if (rec_init())
		return 2;
	if (system("rm -rf " D) != 0 || mkdir(D, 0755)) {
		perror("uastale: setup of " D);
		return 2;
	}
	choose_modes();
	case_start = start_case;
	failures += run_cases(argc, argv, run_case, &ran);
	restore_mode();
	if (system("rm -rf " D) != 0)
		printf("uastale: could not remove " D "\n");
	failures += pins_verdict(0);
	printf("uastale: %d cases, %d failed, modes:%s%s, %.1f s\n", ran, failures, modes[0],
	       nmodes == 2 ? L(" %s (compared)", modes[1]) : " (not compared)", now() - t0);
	return failures ? 1 : 0;
}
