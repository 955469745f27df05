// SPDX-License-Identifier: GPL-2.0
/*
 * uacmp - the same user-access workload under uaccess mode "direct" and
 * "pinned", compared record by record and each checked against the value
 * the test computes by itself.
 *
 * Every case runs once per mode in a forked child under a watchdog (a hang
 * is a FAIL with the case's name).  The child fills a record: for every
 * syscall it makes, the return value, errno and a hash of the bytes it
 * produced (user buffer, file contents, struct bytes).  The parent switches
 * the mode through /sys/kernel/debug/uaccess/mode between the runs and
 * requires identical records; every record is also checked against its
 * exact expected value (k valid bytes before a bad page: the syscall
 * returns exactly k, or -EFAULT when k == 0, and so on).
 *
 * Without the mode file only "direct" exists; with uaccess_strict only
 * "pinned".  Then the cases are checked against their expected values only,
 * one "UTEST SKIP uacmp:compare" line says so, and no comparison is claimed.
 *
 * Output: "UTEST PASS|FAIL|SKIP uacmp:<case> [detail]" per case, then
 * "uacmp:pins" (outstanding pins must be 0) when the pins file exists.
 * Lines not starting with UTEST are diagnostics.  Exit 0 iff no FAIL.
 *
 * usage: uacmp [-v] [-l] [-2] [-t WATCHDOG_S] [CASE-SUBSTRING...]
 *   -v  print every record;  -l  list the cases;  -t  per-run watchdog (60 s)
 *   -2  self-check of the records: run each case twice in the current mode
 *       and compare the two runs (no mode switching; not a direct/pinned test)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/futex.h>
#include <linux/openat2.h>

#define PROG "uacmp"
#define MAXOBS 200
#define FAIL_SIZE 1536
#include "uarec.h"
#define D "/tmp/uacmp.d"
#define DATA D "/data"		/* 64 KiB of file_byte(), only ever read */
#define WFILE D "/wfile"	/* rewritten by the write cases */
#define SFILE D "/file"		/* only stat()ed and opened, never read */
#define SFILE_SIZE 12345
#define LINK D "/link"
#define DIR50 D "/dir50"
#define DATA_SIZE (64 * 1024)
#define LINK_TARGET "/tmp/uacmp.d/target-0123456789-abcdefghijklmnopqrstuvwxyz"
#define CWD_DIR D "/cwd-0123456789abcdefghijklmnopqrstuvwxyz-0123456789/sub"

static long page;

static void expect(int cond, const char *fmt, ...)
{
	char b[160];
	va_list ap;

	if (cond)
		return;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	failf("%s", b);
}

static unsigned char file_byte(long pos) { return (unsigned char)(pos * 7 + 3); }
static unsigned char user_byte(long i) { return (unsigned char)(0x80 | (i * 13)); }

/* ---- buffers that run into a bad page -------------------------------- */

enum bad { BAD_PROT_NONE, BAD_UNMAPPED, BAD_READONLY, NR_BAD };
static const char *const bad_name[] = { "prot_none", "unmapped", "readonly" };

struct bbuf {
	unsigned char *map, *p;
	size_t len, good;
};

/*
 * k accessible bytes (filled with 0xee) right before two bad pages: returns
 * the start of those k bytes.  At least one good page, so p[-1] is valid.
 * A readonly bad region holds 0xee too.
 */
static unsigned char *bad_buf(struct bbuf *b, int kind, long k)
{
	unsigned char *bad;

	b->good = (k + page - 1) / page;
	if (!b->good)
		b->good = 1;
	b->len = (b->good + 2) * page;
	b->map = mmap(NULL, b->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->map == MAP_FAILED)
		die("mmap");
	memset(b->map, 0xee, b->len);
	bad = b->map + b->good * page;
	if (kind == BAD_PROT_NONE)
		mprotect(bad, 2 * page, PROT_NONE);
	else if (kind == BAD_UNMAPPED)
		munmap(bad, 2 * page);
	else
		mprotect(bad, 2 * page, PROT_READ);
	b->p = bad - k;
	return b->p;
}

static void free_bbuf(struct bbuf *b)
{
	munmap(b->map, b->len);
}

/* The bytes before b->p must still be 0xee. */
static int before_untouched(struct bbuf *b)
{
	for (unsigned char *q = b->map; q < b->p; q++)
		if (*q != 0xee)
			return 0;
	return 1;
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		die(path);
	return fd;
}

static void write_file(const char *path, long size, unsigned char (*byte)(long), int mode)
{
	unsigned char *b = malloc(size ? size : 1);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, mode);

	if (!b || fd < 0)
		die(path);
	for (long i = 0; i < size; i++)
		b[i] = byte(i);
	if (write(fd, b, size) != size)
		die("write");
	fchmod(fd, mode);
	close(fd);
	free(b);
}

static uint32_t file_hash(const char *path, long off, long n)
{
	unsigned char *b = malloc(n);
	int fd = open_or_die(path, O_RDONLY);
	uint32_t h;

	if (!b || pread(fd, b, n, off) != n)
		die("pread for hash");
	h = fnv(b, n);
	close(fd);
	free(b);
	return h;
}

/* ---- edge: read/write family with a buffer ending at a bad page ------ */

enum op { OP_READ, OP_PREAD, OP_READV, OP_PREADV, OP_WRITE, OP_PWRITE, OP_WRITEV, OP_PWRITEV, NR_OPS };
static const char *const op_name[] = { "read", "pread", "readv", "preadv",
				       "write", "pwrite", "writev", "pwritev" };

static long do_op(int op, int fd, struct iovec *iov, int niov, off_t off)
{
	if (op != OP_PREAD && op != OP_PREADV && op != OP_PWRITE && op != OP_PWRITEV &&
	    lseek(fd, off, SEEK_SET) != off)
		die("lseek");
	switch (op) {
	case OP_READ: return DO(read(fd, iov[0].iov_base, iov[0].iov_len));
	case OP_PREAD: return DO(pread(fd, iov[0].iov_base, iov[0].iov_len, off));
	case OP_READV: return DO(readv(fd, iov, niov));
	case OP_PREADV: return DO(preadv(fd, iov, niov, off));
	case OP_WRITE: return DO(write(fd, iov[0].iov_base, iov[0].iov_len));
	case OP_PWRITE: return DO(pwrite(fd, iov[0].iov_base, iov[0].iov_len, off));
	case OP_WRITEV: return DO(writev(fd, iov, niov));
	default: return DO(pwritev(fd, iov, niov, off));
	}
}

static void case_edge(int op, int bad)
{
	static const long ks[] = { 0, 1, 63, 64, 100, 4095, 4196 };
	static const long extras[] = { 1, 4196 };
	static const long offs[] = { 0, 3 };
	int is_write = op >= OP_WRITE, vec = op == OP_READV || op == OP_PREADV ||
					     op == OP_WRITEV || op == OP_PWRITEV;
	unsigned char head[100];

	for (size_t a = 0; a < sizeof(ks) / sizeof(ks[0]); a++)
	for (size_t b = 0; b < sizeof(extras) / sizeof(extras[0]); b++)
	for (size_t c = 0; c < sizeof(offs) / sizeof(offs[0]); c++)
	for (int two = 0; two <= vec; two++) {
		long k = ks[a], len = k + extras[b], off = offs[c], want, pre = two ? 100 : 0;
		struct iovec iov[2];
		struct bbuf bb;
		unsigned char *p;
		const char *what = L("k=%ld len=%ld off=%ld%s", k, len, off, two ? " +100-byte iov" : "");
		int fd, niov = 0;
		long ret, got;

		if (is_write)
			write_file(WFILE, DATA_SIZE, file_byte, 0644);
		p = bad_buf(&bb, bad, k);
		for (long i = 0; i < k; i++)
			p[i] = user_byte(i);
		memset(head, 0x55, sizeof(head));
		if (two)
			iov[niov++] = (struct iovec){ head, sizeof(head) };
		iov[niov++] = (struct iovec){ p, len };
		fd = open_or_die(is_write ? WFILE : DATA, is_write ? O_RDWR : O_RDONLY);
		ret = do_op(op, fd, iov, niov, off);

		/* What exactly must have happened. */
		if (is_write && bad == BAD_READONLY)
			want = pre + len;		/* a readonly page is a fine source */
		else
			want = pre + k ? pre + k : -1;
		got = ret > 0 ? ret : 0;
		if (!is_write) {
			ck(what, ret, E, want, EFAULT, p, k);
			for (long i = 0; i < pre && i < got; i++)
				if (head[i] != file_byte(off + i)) {
					failf("%s: head byte %ld wrong", what, i);
					break;
				}
			for (long i = 0; i < k; i++) {
				long j = pre + i;
				unsigned char w = j < got ? file_byte(off + j) : user_byte(i);

				if (p[i] != w) {
					failf("%s: user byte %ld is %#x, want %#x%s", what, i, p[i], w,
					      j < got ? "" : " (past the count)");
					break;
				}
			}
			if (!before_untouched(&bb))
				failf("%s: a byte before the buffer changed", what);
		} else {
			long n = pre + len + 64;
			unsigned char *fb = malloc(n);

			if (!fb || pread(fd, fb, n, off) != n)
				die("pread back");
			ck(what, ret, E, want, EFAULT, fb, n);
			for (long j = 0; j < n; j++) {
				long i = j - pre;
				unsigned char w = j >= got ? file_byte(off + j) :
						  i < 0 ? 0x55 : i < k ? user_byte(i) : 0xee;

				if (fb[j] != w) {
					failf("%s: file byte %ld is %#x, want %#x%s", what, off + j, fb[j], w,
					      j < got ? "" : " (past the count)");
					break;
				}
			}
			free(fb);
		}
		close(fd);
		free_bbuf(&bb);
	}
}

/* ---- stat, fstat, lstat, fstatat, statx ------------------------------- */

struct kstat64 {		/* arch/arm/include/uapi/asm/stat.h */
	unsigned long long st_dev;
	unsigned char __pad0[4];
	unsigned long __st_ino;
	unsigned int st_mode;
	unsigned int st_nlink;
	unsigned long st_uid;
	unsigned long st_gid;
	unsigned long long st_rdev;
	unsigned char __pad3[4];
	long long st_size;
	unsigned long st_blksize;
	unsigned long long st_blocks;
	unsigned long atime, atime_nsec, mtime, mtime_nsec, ctime, ctime_nsec;
	unsigned long long ino;
};

static void case_stat(int unused1, int unused2)
{
	unsigned char b1[256], b2[256], b3[256];
	struct kstat64 *s = (void *)b1;
	struct statx sx;
	struct bbuf bb;
	char *pathp;
	long r;
	int fd;

	(void)unused1, (void)unused2;
	memset(b1, 0x5a, sizeof(b1));
	r = DO(syscall(SYS_stat64, SFILE, b1));
	ck("stat64", r, E, 0, 0, b1, sizeof(b1));
	expect(s->st_size == SFILE_SIZE, "stat64: st_size %lld, want %d", s->st_size, SFILE_SIZE);
	expect(s->st_mode == (S_IFREG | 0640), "stat64: st_mode %o", s->st_mode);
	expect(s->st_nlink == 1, "stat64: st_nlink %u", s->st_nlink);
	for (size_t i = sizeof(struct kstat64); i < sizeof(b1); i++)
		if (b1[i] != 0x5a) {
			failf("stat64 wrote past the struct (byte %zu)", i);
			break;
		}

	fd = open_or_die(SFILE, O_RDONLY);
	memset(b2, 0x5a, sizeof(b2));
	r = DO(syscall(SYS_fstat64, fd, b2));
	ck("fstat64", r, E, 0, 0, b2, sizeof(b2));
	expect(!memcmp(b1, b2, sizeof(b1)), "fstat64 and stat64 differ");
	memset(b3, 0x5a, sizeof(b3));
	r = DO(syscall(SYS_fstatat64, AT_FDCWD, SFILE, b3, 0));
	ck("fstatat64", r, E, 0, 0, b3, sizeof(b3));
	expect(!memcmp(b1, b3, sizeof(b1)), "fstatat64 and stat64 differ");

	memset(b3, 0x5a, sizeof(b3));
	r = DO(syscall(SYS_lstat64, LINK, b3));
	ck("lstat64 link", r, E, 0, 0, b3, sizeof(b3));
	expect(((struct kstat64 *)b3)->st_mode == (S_IFLNK | 0777), "lstat64: link st_mode %o",
	       ((struct kstat64 *)b3)->st_mode);
	expect(((struct kstat64 *)b3)->st_size == (long long)strlen(LINK_TARGET),
	       "lstat64: link st_size %lld", ((struct kstat64 *)b3)->st_size);

	memset(&sx, 0x5a, sizeof(sx));
	r = DO(statx(AT_FDCWD, SFILE, 0, STATX_BASIC_STATS, &sx));
	ck("statx", r, E, 0, 0, &sx, sizeof(sx));
	expect(sx.stx_size == SFILE_SIZE && sx.stx_mode == (S_IFREG | 0640) &&
	       sx.stx_ino == s->ino && sx.stx_mtime.tv_sec == (long long)s->mtime &&
	       sx.stx_mtime.tv_nsec == s->mtime_nsec,
	       "statx disagrees with stat64");

	/* The struct running into a bad page: EFAULT. */
	for (int kind = 0; kind < 2; kind++) {
		static const long ks[] = { 0, 1, 50, 103 };

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			unsigned char *p = bad_buf(&bb, kind, ks[i]);

			r = DO(syscall(SYS_fstat64, fd, p));
			ck(L("fstat64 %s k=%ld", bad_name[kind], ks[i]), r, E, -1, EFAULT, p, ks[i]);
			r = DO(statx(AT_FDCWD, SFILE, 0, STATX_BASIC_STATS, (void *)p));
			ck(L("statx %s k=%ld", bad_name[kind], ks[i]), r, E, -1, EFAULT, p, ks[i]);
			free_bbuf(&bb);
		}
		/* The path running into the bad page. */
		pathp = (char *)bad_buf(&bb, kind, strlen(SFILE));
		memcpy(pathp, SFILE, strlen(SFILE));
		r = DO(syscall(SYS_stat64, pathp, b1));
		ck(L("stat64 path into %s", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);
	}
	r = DO(syscall(SYS_stat64, NULL, b1));
	ck("stat64 NULL path", r, E, -1, EFAULT, HASH_NONE);
	r = DO(syscall(SYS_fstat64, fd, NULL));
	ck("fstat64 NULL buf", r, E, -1, EFAULT, HASH_NONE);
	close(fd);
}

/* ---- getdents64 ------------------------------------------------------- */

struct ld64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Names in buf[0..n): add each to seen[] (index 0 ".", 1 "..", 2+i "f%02d"). */
static int collect(const unsigned char *buf, long n, int *seen, const char *what)
{
	long pos = 0;
	int count = 0;

	while (pos < n) {
		const struct ld64 *d = (const void *)(buf + pos);
		int idx = -1, v;

		if (d->d_reclen < 20 || pos + d->d_reclen > n) {
			failf("%s: bad d_reclen %u at %ld", what, d->d_reclen, pos);
			return count;
		}
		if (!strcmp(d->d_name, "."))
			idx = 0;
		else if (!strcmp(d->d_name, ".."))
			idx = 1;
		else if (sscanf(d->d_name, "f%2d", &v) == 1 && v >= 0 && v < 50 && strlen(d->d_name) == 3)
			idx = 2 + v;
		if (idx < 0)
			failf("%s: unexpected name '%.20s'", what, d->d_name);
		else
			seen[idx]++;
		pos += d->d_reclen;
		count++;
	}
	return count;
}

static void all_once(const int *seen, const char *what)
{
	for (int i = 0; i < 52; i++)
		if (seen[i] != 1) {
			failf("%s: entry %d seen %d times", what, i, seen[i]);
			return;
		}
}

static void case_getdents(int unused1, int unused2)
{
	static unsigned char big[65536];
	int seen[52], fd;
	long r, total;

	(void)unused1, (void)unused2;
	/* One call with a big buffer: all 52 entries, 24 bytes each. */
	fd = open_or_die(DIR50, O_RDONLY | O_DIRECTORY);
	memset(big, 0, sizeof(big));
	memset(seen, 0, sizeof(seen));
	r = DO(syscall(SYS_getdents64, fd, big, sizeof(big)));
	ck("getdents64 64k", r, E, 52 * 24, 0, big, r > 0 ? r : 0);
	collect(big, r, seen, "getdents64 64k");
	all_once(seen, "getdents64 64k");
	r = DO(syscall(SYS_getdents64, fd, big, sizeof(big)));
	ck("getdents64 64k at end", r, E, 0, 0, HASH_NONE);
	close(fd);

	/* 100-byte buffer: 4 entries per call. */
	fd = open_or_die(DIR50, O_RDONLY | O_DIRECTORY);
	memset(seen, 0, sizeof(seen));
	for (int i = 0; i < 14; i++) {
		unsigned char small[100];

		memset(small, 0, sizeof(small));
		r = DO(syscall(SYS_getdents64, fd, small, sizeof(small)));
		ck(L("getdents64 100 #%d", i), r, E, i < 13 ? 96 : 0, 0, small, r > 0 ? r : 0);
		if (r > 0)
			collect(small, r, seen, "getdents64 100");
	}
	all_once(seen, "getdents64 100");
	close(fd);
	fd = open_or_die(DIR50, O_RDONLY | O_DIRECTORY);
	r = DO(syscall(SYS_getdents64, fd, big, 10));
	ck("getdents64 count 10", r, E, -1, EINVAL, HASH_NONE);
	close(fd);

	/*
	 * Buffer of k bytes before a bad page.  Entry j starts at 24*j and
	 * filldir64 writes its first 20+namelen bytes (d_off, d_ino, d_reclen,
	 * d_type, name and NUL), not the padding: entry j is complete iff
	 * 24*j + 20 + namelen <= k.  The count covers the complete entries,
	 * reclen each (padding included), or EFAULT if none.  The rest of the
	 * directory must then come out once, no entry lost or repeated.
	 */
	for (int kind = 0; kind < NR_BAD; kind++) {
		static const long ks[] = { 0, 20, 21, 24, 45, 46, 70, 71, 100, 1000, 1246, 1247, 1248 };

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			long k = ks[i], n = 0, want;
			struct bbuf bb;
			unsigned char *p = bad_buf(&bb, kind, k);
			const char *what = L("getdents64 %s k=%ld", bad_name[kind], k);

			while (n < 52 && 24 * n + 20 + (n == 0 ? 1 : n == 1 ? 2 : 3) <= k)
				n++;
			want = n ? 24 * n : -1;
			fd = open_or_die(DIR50, O_RDONLY | O_DIRECTORY);
			r = DO(syscall(SYS_getdents64, fd, p, k + 4096));
			ck(what, r, E, want, EFAULT, p, r > 0 ? (r < k ? r : k) : 0);
			memset(seen, 0, sizeof(seen));
			total = 0;
			if (r > 0) {
				/* The last entry's padding may lie in the bad page. */
				unsigned char copy[1248];

				memset(copy, 0, sizeof(copy));
				memcpy(copy, p, r < k ? r : k);
				total = collect(copy, r, seen, what);
			}
			for (;;) {
				long rr = syscall(SYS_getdents64, fd, big, sizeof(big));

				if (rr <= 0)
					break;
				total += collect(big, rr, seen, what);
			}
			all_once(seen, what);
			note(L("%s rest", what), total, 0, seen, sizeof(seen));
			close(fd);
			free_bbuf(&bb);
		}
	}
}

/* ---- pipe ------------------------------------------------------------- */

static long drain(int fd, unsigned char *b, long max)
{
	long n = 0, r;

	while (n < max && (r = read(fd, b + n, max - n)) > 0)
		n += r;
	return n;
}

static void case_pipe(int unused1, int unused2)
{
	static unsigned char src[70000], dst[70000];
	int p[2];
	long r, n;

	(void)unused1, (void)unused2;
	for (long i = 0; i < (long)sizeof(src); i++)
		src[i] = user_byte(i);
	if (pipe2(p, O_NONBLOCK))
		die("pipe2");
	r = DO(write(p[1], src, 3000));
	ck("write 3000", r, E, 3000, 0, HASH_NONE);
	memset(dst, 0, sizeof(dst));
	r = DO(read(p[0], dst, 5000));
	ck("read 5000", r, E, 3000, 0, dst, 5000);
	expect(!memcmp(src, dst, 3000), "pipe: read data differs");
	r = DO(read(p[0], dst, 5000));
	ck("read empty", r, E, -1, EAGAIN, HASH_NONE);

	/* 64 KiB of capacity: a 70000-byte non-blocking write stops at 65536. */
	r = DO(write(p[1], src, sizeof(src)));
	ck("write 70000 nonblock", r, E, 65536, 0, HASH_NONE);
	memset(dst, 0, sizeof(dst));
	n = drain(p[0], dst, sizeof(dst));
	ck("drain", n, 0, 65536, 0, dst, n);
	expect(!memcmp(src, dst, 65536), "pipe: 64k data differs");

	/*
	 * Write from k bytes before a bad page: pipe_write fills whole pages,
	 * and a page it cannot fill is dropped, so exactly floor(k/4096)*4096
	 * bytes go in, or EFAULT.
	 */
	for (int kind = 0; kind < 2; kind++) {
		static const long ks[] = { 0, 100, 4095, 4096, 4196, 8192 };

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			long k = ks[i], want = k / 4096 * 4096;
			struct bbuf bb;
			unsigned char *q = bad_buf(&bb, kind, k);
			const char *what = L("write %s k=%ld", bad_name[kind], k);

			for (long j = 0; j < k; j++)
				q[j] = user_byte(j);
			r = DO(write(p[1], q, k + 64));
			ck(what, r, E, want ? want : -1, EFAULT, HASH_NONE);
			memset(dst, 0, sizeof(dst));
			n = drain(p[0], dst, sizeof(dst));
			ck(L("%s: pipe held", what), n, 0, want, 0, dst, n);
			expect(!memcmp(dst, src, n), "%s: pipe data differs", what);
			free_bbuf(&bb);
		}
	}

	/*
	 * Read into k bytes before a bad page: pipe_read copies whole pipe
	 * buffers; a buffer it cannot copy completely stays in the pipe.
	 * Pipe holds a 4096-byte buffer then a 100-byte one.
	 */
	for (int kind = 0; kind < NR_BAD; kind++) {
		static const long ks[] = { 0, 50, 4095, 4096, 4150, 4196 };

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			long k = ks[i], want = k >= 4196 ? 4196 : k >= 4096 ? 4096 : -1;
			struct bbuf bb;
			unsigned char *q = bad_buf(&bb, kind, k);
			const char *what = L("read %s k=%ld", bad_name[kind], k);

			if (write(p[1], src, 4096) != 4096 || write(p[1], src + 4096, 100) != 100)
				die("pipe fill");
			r = DO(read(p[0], q, 4196));
			ck(what, r, E, want, EFAULT, q, k);
			if (r > 0)
				expect(!memcmp(q, src, r), "%s: data differs", what);
			n = drain(p[0], dst, sizeof(dst));
			ck(L("%s: left", what), n, 0, 4196 - (want > 0 ? want : 0), 0, dst, n);
			if (want > 0)
				expect(!memcmp(dst, src + want, n), "%s: rest differs", what);
			free_bbuf(&bb);
		}
	}
	close(p[0]);
	close(p[1]);
}

/* ---- sendmsg/recvmsg on AF_UNIX --------------------------------------- */

static void case_unix(int unused1, int unused2)
{
	static unsigned char a[10], b[4000], c[333], r1[100], r2[8000];
	union {
		char buf[CMSG_SPACE(3 * sizeof(int))];
		struct cmsghdr align;
	} cu, cr;
	struct iovec iov[3] = { { a, sizeof(a) }, { b, sizeof(b) }, { c, sizeof(c) } };
	struct iovec riov[2] = { { r1, sizeof(r1) }, { r2, sizeof(r2) } };
	struct msghdr m = { 0 }, rm = { 0 };
	struct cmsghdr *cm;
	struct sockaddr_un sa;
	socklen_t salen;
	struct stat st1, st2;
	int sv[2], dv[2], fds[2], fdd, pp[2];
	long r;

	(void)unused1, (void)unused2;
	for (size_t i = 0; i < sizeof(a); i++) a[i] = user_byte(i);
	for (size_t i = 0; i < sizeof(b); i++) b[i] = user_byte(i + 10);
	for (size_t i = 0; i < sizeof(c); i++) c[i] = user_byte(i + 4010);
	fdd = open_or_die(DATA, O_RDONLY);
	if (pipe(pp) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
	    socketpair(AF_UNIX, SOCK_DGRAM, 0, dv))
		die("socketpair");
	fds[0] = fdd;
	fds[1] = pp[0];

	/* Stream: 3 iovecs and SCM_RIGHTS with 2 fds, received into 2 iovecs. */
	memset(&cu, 0, sizeof(cu));
	m.msg_iov = iov;
	m.msg_iovlen = 3;
	m.msg_control = cu.buf;
	m.msg_controllen = CMSG_SPACE(2 * sizeof(int));
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(2 * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	r = DO(sendmsg(sv[0], &m, 0));
	ck("stream sendmsg", r, E, 4343, 0, HASH_NONE);

	memset(&cr, 0x77, sizeof(cr));
	memset(r1, 0, sizeof(r1));
	memset(r2, 0, sizeof(r2));
	rm.msg_iov = riov;
	rm.msg_iovlen = 2;
	rm.msg_control = cr.buf;
	rm.msg_controllen = sizeof(cr.buf);
	r = DO(recvmsg(sv[1], &rm, 0));
	ck("stream recvmsg", r, E, 4343, 0, r2, sizeof(r2));
	note("stream recvmsg r1", 0, 0, r1, sizeof(r1));
	note("stream recvmsg control", rm.msg_controllen, rm.msg_flags, cr.buf, sizeof(cr.buf));
	expect(!memcmp(r1, a, 10) && !memcmp(r1 + 10, b, 90) && !memcmp(r2, b + 90, 3910) &&
	       !memcmp(r2 + 3910, c, 333), "stream recvmsg: data differs");
	cm = CMSG_FIRSTHDR(&rm);
	expect(rm.msg_flags == 0, "stream recvmsg: msg_flags %#x", rm.msg_flags);
	expect(cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
	       cm->cmsg_len == CMSG_LEN(2 * sizeof(int)) &&
	       rm.msg_controllen == CMSG_SPACE(2 * sizeof(int)),
	       "stream recvmsg: control message wrong (len %u)", (unsigned)rm.msg_controllen);
	if (cm && cm->cmsg_type == SCM_RIGHTS) {
		int got[2];

		memcpy(got, CMSG_DATA(cm), sizeof(got));
		expect(!fstat(got[0], &st1) && !fstat(fdd, &st2) && st1.st_ino == st2.st_ino,
		       "SCM_RIGHTS: first fd is not the data file");
		expect(!fstat(got[1], &st1) && !fstat(pp[0], &st2) && st1.st_ino == st2.st_ino,
		       "SCM_RIGHTS: second fd is not the pipe");
		close(got[0]);
		close(got[1]);
	}

	/* Datagram: a 100-byte receive truncates (MSG_TRUNC), a short control buffer MSG_CTRUNC. */
	m.msg_controllen = CMSG_SPACE(2 * sizeof(int));
	r = DO(sendmsg(dv[0], &m, 0));
	ck("dgram sendmsg", r, E, 4343, 0, HASH_NONE);
	memset(&cr, 0x77, sizeof(cr));
	memset(r1, 0, sizeof(r1));
	rm.msg_iov = riov;
	rm.msg_iovlen = 1;
	rm.msg_control = cr.buf;
	rm.msg_controllen = CMSG_SPACE(sizeof(int));
	rm.msg_flags = 0;
	r = DO(recvmsg(dv[1], &rm, 0));
	ck("dgram recvmsg short", r, E, 100, 0, r1, sizeof(r1));
	note("dgram recvmsg short control", rm.msg_controllen, rm.msg_flags, cr.buf, sizeof(cr.buf));
	expect(rm.msg_flags == (MSG_TRUNC | MSG_CTRUNC), "dgram: msg_flags %#x, want MSG_TRUNC|MSG_CTRUNC",
	       rm.msg_flags);
	cm = CMSG_FIRSTHDR(&rm);
	if (cm && cm->cmsg_type == SCM_RIGHTS && cm->cmsg_len > CMSG_LEN(0)) {
		int got;

		memcpy(&got, CMSG_DATA(cm), sizeof(got));
		close(got);
	}
	expect(!memcmp(r1, a, 10) && !memcmp(r1 + 10, b, 90), "dgram recvmsg: data differs");

	/* sendmsg with the iovec array, or the data, in a bad page. */
	for (int kind = 0; kind < 2; kind++) {
		struct bbuf bb;
		unsigned char *q = bad_buf(&bb, kind, sizeof(struct iovec));
		struct msghdr bm = { 0 };

		memcpy(q, &iov[0], sizeof(struct iovec));
		bm.msg_iov = (void *)q;
		bm.msg_iovlen = 2;	/* the second iovec is in the bad page */
		r = DO(sendmsg(sv[0], &bm, MSG_DONTWAIT));
		ck(L("sendmsg iovec array into %s", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);

		q = bad_buf(&bb, kind, 100);
		for (int j = 0; j < 100; j++)
			q[j] = user_byte(j);
		r = DO(send(sv[0], q, 200, MSG_DONTWAIT));
		ck(L("stream send data into %s k=100", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		r = DO(send(dv[0], q, 200, MSG_DONTWAIT));
		ck(L("dgram send data into %s k=100", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);

		/* recv into k bytes before a bad page: EFAULT, the data stays queued. */
		if (send(sv[0], b, 200, 0) != 200)
			die("send");
		q = bad_buf(&bb, kind, 100);
		r = DO(recv(sv[1], q, 200, MSG_DONTWAIT));
		ck(L("stream recv into %s k=100", bad_name[kind]), r, E, -1, EFAULT, q, 100);
		memset(r2, 0, sizeof(r2));
		r = DO(recv(sv[1], r2, sizeof(r2), MSG_DONTWAIT));
		ck(L("stream recv after %s", bad_name[kind]), r, E, 200, 0, r2, 200);
		expect(!memcmp(r2, b, 200), "stream recv after EFAULT: data differs");
		free_bbuf(&bb);
	}

	/* Addresses: bind an abstract name, getsockname() it back, and into a bad page. */
	{
		int s = socket(AF_UNIX, SOCK_DGRAM, 0);
		static const char name[] = "\0uacmp-abstract-name";
		socklen_t len = offsetof(struct sockaddr_un, sun_path) + sizeof(name) - 1;
		struct bbuf bb;
		unsigned char *q;

		memset(&sa, 0, sizeof(sa));
		sa.sun_family = AF_UNIX;
		memcpy(sa.sun_path, name, sizeof(name) - 1);
		r = DO(bind(s, (void *)&sa, len));
		ck("bind abstract", r, E, 0, 0, HASH_NONE);
		memset(&sa, 0x33, sizeof(sa));
		salen = sizeof(sa);
		r = DO(getsockname(s, (void *)&sa, &salen));
		ck("getsockname", r, E, 0, 0, &sa, sizeof(sa));
		expect(salen == len && !memcmp(sa.sun_path, name, sizeof(name) - 1),
		       "getsockname: wrong address (len %u)", (unsigned)salen);
		for (int kind = 0; kind < 2; kind++) {
			q = bad_buf(&bb, kind, 10);
			salen = sizeof(sa);
			r = DO(getsockname(s, (void *)q, &salen));
			ck(L("getsockname addr into %s k=10", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
			free_bbuf(&bb);
			q = bad_buf(&bb, kind, 2);
			r = DO(getsockname(s, (void *)&sa, (socklen_t *)q));
			ck(L("getsockname len into %s k=2", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
			free_bbuf(&bb);
			q = bad_buf(&bb, kind, 10);
			memcpy(q, &sa, 10);
			{
				int cs = socket(AF_UNIX, SOCK_DGRAM, 0);

				r = DO(connect(cs, (void *)q, len));
				ck(L("connect addr into %s k=10", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
				close(cs);
			}
			free_bbuf(&bb);
		}
		close(s);
	}
	close(sv[0]);
	close(sv[1]);
	close(dv[0]);
	close(dv[1]);
}

/* ---- poll/select -------------------------------------------------------- */

static void case_poll(int unused1, int unused2)
{
	int a[2], b[2], nfds;
	struct pollfd pf[6];
	fd_set rs, ws, es;
	struct timeval tv;
	struct timespec ts = { 0, 0 };
	sigset_t mask;
	long r;

	(void)unused1, (void)unused2;
	if (pipe(a) || pipe(b) || write(a[1], "x", 1) != 1)
		die("pipes");
	close(99);
	close(20);
	pf[0] = (struct pollfd){ a[0], POLLIN | POLLOUT | POLLPRI, 0x1234 };
	pf[1] = (struct pollfd){ a[1], POLLIN | POLLOUT, 0x1234 };
	pf[2] = (struct pollfd){ b[0], POLLIN, 0x1234 };
	pf[3] = (struct pollfd){ b[1], POLLOUT, 0x1234 };
	pf[4] = (struct pollfd){ 99, POLLIN, 0x1234 };
	pf[5] = (struct pollfd){ -1, POLLIN, 0x1234 };
	r = DO(poll(pf, 6, 0));
	ck("poll", r, E, 4, 0, pf, sizeof(pf));
	expect(pf[0].revents == POLLIN && pf[1].revents == POLLOUT && pf[2].revents == 0 &&
	       pf[3].revents == POLLOUT && pf[4].revents == POLLNVAL && pf[5].revents == 0,
	       "poll: revents %#x %#x %#x %#x %#x %#x", pf[0].revents, pf[1].revents,
	       pf[2].revents, pf[3].revents, pf[4].revents, pf[5].revents);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	for (int i = 0; i < 6; i++)
		pf[i].revents = 0x1234;
	r = DO(ppoll(pf, 6, &ts, &mask));
	ck("ppoll", r, E, 4, 0, pf, sizeof(pf));

	for (int kind = 0; kind < NR_BAD; kind++) {
		static const long ks[] = { 0, 8, 24, 40 };

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			struct bbuf bb;
			unsigned char *q = bad_buf(&bb, kind, ks[i]);

			memcpy(q, pf, ks[i]);
			r = DO(poll((void *)q, 6, 0));
			/* revents go back with the rest: a readonly page fails too */
			ck(L("poll %s k=%ld", bad_name[kind], ks[i]), r, E, -1, EFAULT, q, ks[i]);
			free_bbuf(&bb);
		}
	}

	nfds = (a[1] > b[1] ? a[1] : b[1]) + 1;
	FD_ZERO(&rs); FD_ZERO(&ws); FD_ZERO(&es);
	FD_SET(a[0], &rs); FD_SET(b[0], &rs);
	FD_SET(a[1], &ws); FD_SET(b[1], &ws);
	FD_SET(a[0], &es);
	tv = (struct timeval){ 0, 0 };
	r = DO(syscall(SYS__newselect, nfds, &rs, &ws, &es, &tv));
	ck("select", r, E, 3, 0, &rs, sizeof(rs));
	note("select ws", 0, 0, &ws, sizeof(ws));
	note("select es", 0, 0, &es, sizeof(es));
	expect(FD_ISSET(a[0], &rs) && !FD_ISSET(b[0], &rs) && FD_ISSET(a[1], &ws) &&
	       FD_ISSET(b[1], &ws) && !FD_ISSET(a[0], &es), "select: wrong sets");
	FD_ZERO(&rs);
	FD_SET(a[0], &rs);
	FD_SET(20, &rs);
	r = DO(syscall(SYS__newselect, 21, &rs, NULL, NULL, &tv));
	ck("select closed fd", r, E, -1, EBADF, HASH_NONE);
	FD_ZERO(&rs);
	FD_SET(a[0], &rs);
	r = DO(pselect(nfds, &rs, NULL, NULL, &ts, &mask));
	ck("pselect", r, E, 1, 0, &rs, sizeof(rs));

	for (int kind = 0; kind < 2; kind++) {
		struct bbuf bb;
		unsigned char *q = bad_buf(&bb, kind, 0);

		FD_ZERO(&rs);
		FD_SET(a[0], &rs);
		r = DO(syscall(SYS__newselect, nfds, q, NULL, NULL, &tv));
		ck(L("select readfds in %s", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		r = DO(syscall(SYS__newselect, nfds, &rs, NULL, NULL, q));
		ck(L("select timeout in %s", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);
		/* 2 of the 4 bytes of the set before the bad page */
		q = bad_buf(&bb, kind, 2);
		memset(q, 0, 2);
		q[0] = 1u << a[0];
		r = DO(syscall(SYS__newselect, nfds, q, NULL, NULL, &tv));
		ck(L("select readfds %s k=2", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);
	}
	close(a[0]); close(a[1]); close(b[0]); close(b[1]);
}

/* ---- futex ---------------------------------------------------------------- */

static long fx(int *uaddr, int op, int val, const void *t_or_val2, int *uaddr2, int val3)
{
	return syscall(SYS_futex, uaddr, op, val, t_or_val2, uaddr2, val3);
}

struct waiter {
	pthread_t th;
	int *uaddr, val, tid;
	volatile int started;
	long ret;
	int err;
};

static void *waiter_fn(void *arg)
{
	struct waiter *w = arg;

	w->tid = gettid();
	__atomic_store_n(&w->started, 1, __ATOMIC_SEQ_CST);
	errno = 0;
	w->ret = fx(w->uaddr, FUTEX_WAIT_PRIVATE, w->val, NULL, NULL, 0);
	w->err = w->ret < 0 ? errno : 0;
	return NULL;
}

/* Wait until the thread sleeps (in FUTEX_WAIT: it does nothing else). */
static void wait_sleeping(struct waiter *w)
{
	char path[64], buf[256], *p;

	while (!__atomic_load_n(&w->started, __ATOMIC_SEQ_CST))
		sched_yield();
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", w->tid);
	for (int i = 0; i < 5000; i++) {
		int fd = open(path, O_RDONLY);
		long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

		if (fd >= 0)
			close(fd);
		if (n > 0) {
			buf[n] = 0;
			p = strrchr(buf, ')');
			if (p && p[1] == ' ' && p[2] == 'S') {
				usleep(2000);	/* and a little more, to be sure */
				return;
			}
		}
		usleep(1000);
	}
	die("waiter never slept");
}

static void start_waiter(struct waiter *w, int *uaddr, int val)
{
	memset(w, 0, sizeof(*w));
	w->uaddr = uaddr;
	w->val = val;
	if (pthread_create(&w->th, NULL, waiter_fn, w))
		die("pthread_create");
	wait_sleeping(w);
}

static void join_waiter(struct waiter *w, const char *what)
{
	pthread_join(w->th, NULL);
	ck(what, w->ret, w->err, 0, 0, HASH_NONE);
}

static void case_futex(int unused1, int unused2)
{
	static int f, g;
	struct timespec to = { 0, 10 * 1000 * 1000 };
	struct waiter w1, w2;
	struct bbuf bb;
	long r;

	(void)unused1, (void)unused2;
	f = 1;
	r = DO(fx(&f, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0));
	ck("wait wrong value", r, E, -1, EAGAIN, HASH_NONE);
	r = DO(fx(&f, FUTEX_WAIT, 2, NULL, NULL, 0));
	ck("wait shared wrong value", r, E, -1, EAGAIN, HASH_NONE);
	r = DO(fx(&f, FUTEX_WAIT_PRIVATE, 1, &to, NULL, 0));
	ck("wait 10ms timeout", r, E, -1, ETIMEDOUT, HASH_NONE);
	r = DO(fx(&f, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	ck("wake nobody", r, E, 0, 0, HASH_NONE);
	r = DO(fx((int *)((char *)&f + 1), FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0));
	ck("wait misaligned", r, E, -1, EINVAL, HASH_NONE);

	/* WAKE with a waiter */
	f = 0;
	start_waiter(&w1, &f, 0);
	r = DO(fx(&f, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	ck("wake 1 waiter", r, E, 1, 0, HASH_NONE);
	join_waiter(&w1, "woken waiter");

	/* WAKE_OP: the op on uaddr2, then its comparison decides the second wake. */
	f = 0;
	g = 7;
	start_waiter(&w1, &f, 0);
	start_waiter(&w2, &g, 7);
	r = DO(fx(&f, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &g,
		  FUTEX_OP(FUTEX_OP_ADD, 5, FUTEX_OP_CMP_EQ, 7)));
	ck("wake_op add 5, cmp eq 7", r, E, 2, 0, &g, sizeof(g));
	expect(g == 12, "wake_op add: uaddr2 is %d, want 12", g);
	join_waiter(&w1, "wake_op waiter 1");
	join_waiter(&w2, "wake_op waiter 2");
	{
		static const struct { int op, oparg, want; const char *name; } ops[] = {
			{ FUTEX_OP_SET, 3, 3, "set 3" },
			{ FUTEX_OP_SET | FUTEX_OP_OPARG_SHIFT, 4, 16, "set 1<<4" },
			{ FUTEX_OP_OR, 0x101, 0x111, "or 0x101" },
			{ FUTEX_OP_ANDN, 0x11, 0x100, "andn 0x11" },
			{ FUTEX_OP_XOR, 0x0ff, 0x1ff, "xor 0xff" },
			{ FUTEX_OP_ADD, -0x800, -0x601, "add -0x800" },
		};

		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			r = DO(fx(&f, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &g,
				  FUTEX_OP(ops[i].op, ops[i].oparg, FUTEX_OP_CMP_NE, 0)));
			ck(L("wake_op %s", ops[i].name), r, E, 0, 0, &g, sizeof(g));
			expect(g == ops[i].want, "wake_op %s: uaddr2 is %#x, want %#x", ops[i].name, g,
			       ops[i].want);
		}
	}

	/* CMP_REQUEUE: wrong val3 -> EAGAIN; right: 1 woken + 1 requeued. */
	f = 0;
	g = 0;
	start_waiter(&w1, &f, 0);
	start_waiter(&w2, &f, 0);
	r = DO(fx(&f, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1, &g, 5));
	ck("cmp_requeue wrong val3", r, E, -1, EAGAIN, HASH_NONE);
	r = DO(fx(&f, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1, &g, 0));
	ck("cmp_requeue", r, E, 2, 0, HASH_NONE);
	r = DO(fx(&f, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0));
	ck("wake on the old futex after requeue", r, E, 0, 0, HASH_NONE);
	r = DO(fx(&g, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0));
	ck("wake the requeued one", r, E, 1, 0, HASH_NONE);
	join_waiter(&w1, "requeue waiter 1");
	join_waiter(&w2, "requeue waiter 2");

	/* PI: the lock word gets our tid, then 0. */
	f = 0;
	r = DO(fx(&f, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0));
	ck("lock_pi", r, E, 0, 0, HASH_NONE);
	note("lock_pi word is our tid", f == gettid(), 0, HASH_NONE);
	expect(f == gettid(), "lock_pi: word %#x, want tid %#x", f, gettid());
	r = DO(fx(&f, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0));
	ck("unlock_pi", r, E, 0, 0, &f, sizeof(f));
	expect(f == 0, "unlock_pi: word %#x", f);
	r = DO(fx(&f, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0));
	ck("unlock_pi not owner", r, E, -1, EPERM, HASH_NONE);

	/* Bad addresses. */
	for (int kind = 0; kind < NR_BAD; kind++) {
		int *q = (int *)bad_buf(&bb, kind, 0);
		int ro = kind == BAD_READONLY;	/* readable, holds 0xeeeeeeee */
		int v = (int)0xeeeeeeee;

		r = DO(fx(q, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0));
		ck(L("wait %s", bad_name[kind]), r, E, -1, ro ? EAGAIN : EFAULT, HASH_NONE);
		if (ro) {
			r = DO(fx(q, FUTEX_WAIT_PRIVATE, v, &to, NULL, 0));
			ck("wait readonly right value", r, E, -1, ETIMEDOUT, HASH_NONE);
		}
		r = DO(fx(q, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
		ck(L("wake private %s (memory not touched)", bad_name[kind]), r, E, 0, 0, HASH_NONE);
		r = DO(fx(q, FUTEX_WAKE, 1, NULL, NULL, 0));
		/* shared: get_futex_key refuses a readonly anonymous page too */
		ck(L("wake shared %s", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		g = 0;
		r = DO(fx(&f, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, q,
			  FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_EQ, 0)));
		ck(L("wake_op uaddr2 %s", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		r = DO(fx(q, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1, &g, 0));
		ck(L("cmp_requeue uaddr %s", bad_name[kind]), r, E, -1, ro ? EAGAIN : EFAULT, HASH_NONE);
		r = DO(fx(q, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0));
		ck(L("lock_pi %s", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		r = DO(fx(&f, FUTEX_WAIT_PRIVATE, f, q, NULL, 0));
		/* readonly: 0xeeeeeeee nanoseconds is no valid timespec */
		ck(L("wait timeout in %s", bad_name[kind]), r, E, -1, ro ? EINVAL : EFAULT, HASH_NONE);
		free_bbuf(&bb);
	}

	/* Robust list: get_robust_list writes a pointer and a length. */
	{
		void *head = NULL;
		size_t len = 0;

		r = DO(syscall(SYS_get_robust_list, 0, &head, &len));
		ck("get_robust_list", r, E, 0, 0, &len, sizeof(len));
		expect(head != NULL && len == 12, "get_robust_list: head %p len %zu", head, len);
		bad_buf(&bb, BAD_PROT_NONE, 0);
		r = DO(syscall(SYS_get_robust_list, 0, bb.p, &len));
		ck("get_robust_list head into prot_none", r, E, -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);
	}
}

/* ---- rt_sigaction and friends ------------------------------------------ */

struct ksigaction {		/* the kernel's struct sigaction: 20 bytes, the mask 4-aligned */
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
} __attribute__((packed, aligned(4)));

static void h_nop(int sig) { (void)sig; }
static void h_nop2(int sig) { (void)sig; }

static void case_sigaction(int unused1, int unused2)
{
	struct ksigaction n1 = { (void *)h_nop, SA_RESTART | SA_NODEFER | 0x04000000 /* SA_RESTORER */,
				 (void *)h_nop2, (1ull << (SIGUSR2 - 1)) | (1ull << (SIGKILL - 1)) };
	struct ksigaction n2 = { (void *)h_nop2, SA_SIGINFO, NULL, 1ull << (SIGHUP - 1) };
	struct ksigaction old;
	uint64_t set, oset;
	struct bbuf bb;
	stack_t ss, oss;
	long r;

	(void)unused1, (void)unused2;
	memset(&old, 0x5a, sizeof(old));
	r = DO(syscall(SYS_rt_sigaction, SIGUSR1, &n1, &old, 8));
	ck("rt_sigaction set, old default", r, E, 0, 0, &old, sizeof(old));
	expect(!old.handler && !old.flags && !old.mask, "old action not the default (%p %#lx %p %#llx)",
	       old.handler, old.flags, old.restorer, (unsigned long long)old.mask);
	memset(&old, 0x5a, sizeof(old));
	r = DO(syscall(SYS_rt_sigaction, SIGUSR1, &n2, &old, 8));
	ck("rt_sigaction set, old n1", r, E, 0, 0, &old, sizeof(old));
	expect(old.handler == (void *)h_nop && old.flags == n1.flags && old.restorer == n1.restorer &&
	       old.mask == (1ull << (SIGUSR2 - 1)), "old action is not n1 without SIGKILL in the mask "
	       "(%p %#lx %p %#llx)", old.handler, old.flags, old.restorer, (unsigned long long)old.mask);
	r = DO(syscall(SYS_rt_sigaction, SIGUSR1, NULL, &old, 8));
	ck("rt_sigaction query", r, E, 0, 0, &old, sizeof(old));
	expect(old.handler == (void *)h_nop2 && old.flags == SA_SIGINFO && old.mask == n2.mask,
	       "query: action is not n2");
	r = DO(syscall(SYS_rt_sigaction, SIGUSR1, &n1, NULL, 4));
	ck("rt_sigaction sigsetsize 4", r, E, -1, EINVAL, HASH_NONE);
	r = DO(syscall(SYS_rt_sigaction, SIGKILL, &n1, NULL, 8));
	ck("rt_sigaction SIGKILL", r, E, -1, EINVAL, HASH_NONE);

	for (int kind = 0; kind < NR_BAD; kind++) {
		int ro = kind == BAD_READONLY;
		unsigned char *q = bad_buf(&bb, kind, 10);

		memcpy(q, &n1, 10);
		r = DO(syscall(SYS_rt_sigaction, SIGUSR2, q, NULL, 8));
		ck(L("rt_sigaction act into %s k=10", bad_name[kind]), r, E, ro ? 0 : -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);
		/* oact in a bad page: the new action is installed all the same. */
		syscall(SYS_rt_sigaction, SIGUSR2, &n2, NULL, 8);
		q = bad_buf(&bb, kind, 10);
		r = DO(syscall(SYS_rt_sigaction, SIGUSR2, &n1, q, 8));
		ck(L("rt_sigaction oact into %s k=10", bad_name[kind]), r, E, -1, EFAULT, q, 10);
		r = DO(syscall(SYS_rt_sigaction, SIGUSR2, NULL, &old, 8));
		ck(L("after oact EFAULT (%s)", bad_name[kind]), r, E, 0, 0, &old, sizeof(old));
		expect(old.handler == (void *)h_nop, "oact EFAULT (%s): new action not installed",
		       bad_name[kind]);
		free_bbuf(&bb);
	}
	n1.handler = SIG_DFL;
	syscall(SYS_rt_sigaction, SIGUSR1, &n1, NULL, 8);
	syscall(SYS_rt_sigaction, SIGUSR2, &n1, NULL, 8);

	/* rt_sigprocmask, rt_sigpending, sigaltstack */
	set = (1ull << (SIGUSR1 - 1)) | (1ull << (SIGKILL - 1));
	oset = 0x5a5a5a5a5a5a5a5aull;
	r = DO(syscall(SYS_rt_sigprocmask, SIG_SETMASK, &set, &oset, 8));
	ck("rt_sigprocmask", r, E, 0, 0, &oset, sizeof(oset));
	expect(oset == 0, "rt_sigprocmask: old mask %#llx", (unsigned long long)oset);
	r = DO(syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &oset, 8));
	ck("rt_sigprocmask query", r, E, 0, 0, &oset, sizeof(oset));
	expect(oset == (1ull << (SIGUSR1 - 1)), "rt_sigprocmask: mask %#llx", (unsigned long long)oset);
	kill(getpid(), SIGUSR1);
	oset = 0;
	r = DO(syscall(SYS_rt_sigpending, &oset, 8));
	ck("rt_sigpending", r, E, 0, 0, &oset, sizeof(oset));
	expect(oset == (1ull << (SIGUSR1 - 1)), "rt_sigpending: %#llx", (unsigned long long)oset);
	signal(SIGUSR1, SIG_IGN);	/* discards the pending one */
	set = 0;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &set, NULL, 8);
	signal(SIGUSR1, SIG_DFL);
	for (int kind = 0; kind < NR_BAD; kind++) {
		int ro = kind == BAD_READONLY;
		unsigned char *q = bad_buf(&bb, kind, 4);

		memset(q, 0, 4);
		r = DO(syscall(SYS_rt_sigprocmask, SIG_BLOCK, q, NULL, 8));
		ck(L("rt_sigprocmask set into %s k=4", bad_name[kind]), r, E, ro ? 0 : -1, EFAULT, HASH_NONE);
		r = DO(syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, q, 8));
		ck(L("rt_sigprocmask oset into %s k=4", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		r = DO(syscall(SYS_rt_sigpending, q, 8));
		ck(L("rt_sigpending into %s k=4", bad_name[kind]), r, E, -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);
	}
	set = 0;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &set, NULL, 8);

	ss.ss_sp = malloc(65536);
	ss.ss_size = 65536;
	ss.ss_flags = 0;
	memset(&oss, 0x5a, sizeof(oss));
	r = DO(sigaltstack(&ss, &oss));
	ck("sigaltstack", r, E, 0, 0, &oss, sizeof(oss));
	expect(oss.ss_flags == SS_DISABLE, "sigaltstack: old flags %#x", oss.ss_flags);
	memset(&oss, 0x5a, sizeof(oss));
	r = DO(sigaltstack(NULL, &oss));
	ck("sigaltstack query", r, E, 0, 0, HASH_NONE);
	expect(oss.ss_sp == ss.ss_sp && oss.ss_size == 65536 && oss.ss_flags == 0,
	       "sigaltstack query: wrong stack");
	bad_buf(&bb, BAD_PROT_NONE, 4);
	r = DO(sigaltstack(NULL, (void *)bb.p));
	ck("sigaltstack oss into prot_none k=4", r, E, -1, EFAULT, HASH_NONE);
	free_bbuf(&bb);
}

/* ---- signal delivery ------------------------------------------------------ */

#define ALT_SIZE (64 * 1024)
static volatile int h_signo, h_code, h_value, h_pid_ok, h_uid_ok, h_count;
static volatile unsigned long h_regs[12], h_vfp_magic, h_d8lo, h_d8hi;
static volatile long h_stack_off, h_onstack, h_ucstack_ok;
static unsigned char h_siginfo[128];
static char *altstack;

static void h_info(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	int local;
	stack_t cur;

	h_count++;
	h_signo = sig;
	h_code = si->si_code;
	h_value = si->si_value.sival_int;
	h_pid_ok = si->si_pid == getpid();
	h_uid_ok = si->si_uid == getuid();
	memcpy(h_siginfo, si, sizeof(h_siginfo));
	memset(h_siginfo + offsetof(siginfo_t, si_pid), 0, sizeof(pid_t));	/* differs per run */
	h_vfp_magic = uc->uc_regspace[0];
	if (altstack) {
		h_stack_off = altstack + ALT_SIZE - (char *)&local;
		h_onstack = (char *)&local > altstack && (char *)&local < altstack + ALT_SIZE;
		h_ucstack_ok = uc->uc_stack.ss_sp == altstack && uc->uc_stack.ss_size == ALT_SIZE &&
			       uc->uc_stack.ss_flags == 0;
		h_onstack &= !sigaltstack(NULL, &cur) && cur.ss_flags == SS_ONSTACK;
	}
	if (sig == SIGUSR2) {
		/* What the interrupted code had; then change r5 and d8 for sigreturn. */
		h_regs[4] = uc->uc_mcontext.arm_r4;
		h_regs[5] = uc->uc_mcontext.arm_r5;
		h_regs[6] = uc->uc_mcontext.arm_r6;
		h_regs[8] = uc->uc_mcontext.arm_r8;
		h_regs[9] = uc->uc_mcontext.arm_r9;
		h_regs[10] = uc->uc_mcontext.arm_r10;
		h_regs[11] = uc->uc_mcontext.arm_fp;
		/* uc_regspace: VFP magic, size, then d0..d31 */
		if (uc->uc_regspace[0] == 0x56465001) {
			h_d8lo = uc->uc_regspace[2 + 16];
			h_d8hi = uc->uc_regspace[2 + 17];
			uc->uc_regspace[2 + 16] = 0xd8d8d8d8;
			uc->uc_regspace[2 + 17] = 0x12345678;
		}
		uc->uc_mcontext.arm_r5 = 0x0bad0005;
	}
}

/* r4-r6, r8-r11 and d8 hold known values across a tgkill() that delivers SIGUSR2. */
static void regs_probe(unsigned long *out)
{
	register unsigned long r0 asm("r0") = getpid();
	register unsigned long r1 asm("r1") = gettid();
	register unsigned long r2 asm("r2") = SIGUSR2;
	register unsigned long *r3 asm("r3") = out;

	asm volatile(
		"push {r7}\n\t"
		"movw r4, #0x4444\n\tmovt r4, #0x1004\n\t"
		"movw r5, #0x5555\n\tmovt r5, #0x1005\n\t"
		"movw r6, #0x6666\n\tmovt r6, #0x1006\n\t"
		"movw r8, #0x8888\n\tmovt r8, #0x1008\n\t"
		"movw r9, #0x9999\n\tmovt r9, #0x1009\n\t"
		"movw r10, #0xaaaa\n\tmovt r10, #0x100a\n\t"
		"movw r11, #0xbbbb\n\tmovt r11, #0x100b\n\t"
		"vmov d8, r4, r6\n\t"
		"movw r7, %[nr]\n\t"
		"svc #0\n\t"
		"pop {r7}\n\t"
		"str r0, [r3, #0]\n\t"
		"str r4, [r3, #16]\n\t"
		"str r5, [r3, #20]\n\t"
		"str r6, [r3, #24]\n\t"
		"str r8, [r3, #32]\n\t"
		"str r9, [r3, #36]\n\t"
		"str r10, [r3, #40]\n\t"
		"str r11, [r3, #44]\n\t"
		"vmov r4, r5, d8\n\t"
		"str r4, [r3, #48]\n\t"
		"str r5, [r3, #52]\n\t"
		: "+r"(r0)
		: "r"(r1), "r"(r2), "r"(r3), [nr] "i"(__NR_tgkill)
		: "r4", "r5", "r6", "r8", "r9", "r10", "r11", "d8", "memory");
}

static void case_signal(int unused1, int unused2)
{
	struct sigaction sa;
	unsigned long out[14];
	union sigval sv;
	stack_t ss;
	long r;
	int status;
	pid_t pid;

	(void)unused1, (void)unused2;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = h_info;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);

	/* siginfo of a sigqueue()d signal */
	sv.sival_int = 0x12345678;
	r = DO(sigqueue(getpid(), SIGUSR1, sv));
	ck("sigqueue", r, E, 0, 0, HASH_NONE);
	note("siginfo", h_count, 0, h_siginfo, sizeof(h_siginfo));
	expect(h_count == 1 && h_signo == SIGUSR1 && h_code == SI_QUEUE && h_value == 0x12345678 &&
	       h_pid_ok && h_uid_ok, "siginfo: count %d signo %d code %d value %#x pid_ok %d uid_ok %d",
	       h_count, h_signo, h_code, h_value, h_pid_ok, h_uid_ok);
	expect(h_vfp_magic == 0x56465001, "ucontext: no VFP frame (magic %#lx)", h_vfp_magic);

	/* sigreturn restores the registers, with the handler's changes */
	memset(out, 0, sizeof(out));
	regs_probe(out);
	note("regs after sigreturn", out[0], 0, out, sizeof(out));
	note("regs in the frame", 0, 0, (const void *)h_regs, sizeof(h_regs));
	expect(h_regs[4] == 0x10044444 && h_regs[5] == 0x10055555 && h_regs[6] == 0x10066666 &&
	       h_regs[8] == 0x10088888 && h_regs[9] == 0x10099999 && h_regs[10] == 0x100aaaaa &&
	       h_regs[11] == 0x100bbbbb, "signal frame: wrong saved registers (r4 %#lx r5 %#lx r11 %#lx)",
	       h_regs[4], h_regs[5], h_regs[11]);
	expect(h_d8lo == 0x10044444 && h_d8hi == 0x10066666, "signal frame: d8 %#lx:%#lx", h_d8hi, h_d8lo);
	expect(out[0] == 0 && out[4] == 0x10044444 && out[5] == 0x0bad0005 && out[6] == 0x10066666 &&
	       out[8] == 0x10088888 && out[9] == 0x10099999 && out[10] == 0x100aaaaa &&
	       out[11] == 0x100bbbbb, "after sigreturn: r0 %#lx r4 %#lx r5 %#lx (want 0xbad0005) r6 %#lx r11 %#lx",
	       out[0], out[4], out[5], out[6], out[11]);
	expect(out[12] == 0xd8d8d8d8 && out[13] == 0x12345678, "after sigreturn: d8 %#lx:%#lx, want the handler's",
	       out[13], out[12]);

	/* The frame on a sigaltstack */
	altstack = mmap(NULL, ALT_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (altstack == MAP_FAILED)
		die("mmap altstack");
	memset(altstack, 0x5a, ALT_SIZE);
	ss.ss_sp = altstack;
	ss.ss_size = ALT_SIZE;
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	h_count = 0;
	r = DO(sigqueue(getpid(), SIGUSR1, sv));
	ck("sigqueue onstack", r, E, 0, 0, HASH_NONE);
	note("altstack frame offset", h_stack_off, 0, HASH_NONE);
	expect(h_count == 1 && h_onstack && h_ucstack_ok,
	       "altstack: count %d onstack %ld uc_stack ok %ld", h_count, h_onstack, h_ucstack_ok);
	expect(h_stack_off > 0 && h_stack_off < 8192, "altstack: handler %ld bytes below the top",
	       h_stack_off);
	memset(out, 0, sizeof(out));
	sigaction(SIGUSR2, &sa, NULL);
	regs_probe(out);
	note("regs after sigreturn from altstack", out[0], 0, out, sizeof(out));
	expect(out[5] == 0x0bad0005 && out[4] == 0x10044444 && out[12] == 0xd8d8d8d8,
	       "altstack sigreturn: r4 %#lx r5 %#lx d8lo %#lx", out[4], out[5], out[12]);

	/* A frame that cannot be written: SIGSEGV. */
	pid = fork();
	if (pid == 0) {
		char *bad = mmap(NULL, ALT_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		ss.ss_sp = bad;
		sigaltstack(&ss, NULL);
		raise(SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	note("altstack in prot_none", status, 0, HASH_NONE);
	expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	       "unwritable altstack: status %#x, want killed by SIGSEGV", status);
	altstack = NULL;
}

/* ---- getcwd, readlink ------------------------------------------------------- */

static void case_getcwd(int unused1, int unused2)
{
	char buf[4096];
	long need = strlen(CWD_DIR) + 1, r;

	(void)unused1, (void)unused2;
	if (chdir(CWD_DIR))
		die("chdir");
	memset(buf, 0x5a, sizeof(buf));
	r = DO(syscall(SYS_getcwd, buf, sizeof(buf)));
	ck("getcwd", r, E, need, 0, buf, sizeof(buf));
	expect(!strcmp(buf, CWD_DIR), "getcwd: '%.60s'", buf);
	r = DO(syscall(SYS_getcwd, buf, need - 1));
	ck("getcwd size need-1", r, E, -1, ERANGE, HASH_NONE);
	r = DO(syscall(SYS_getcwd, buf, need));
	ck("getcwd size need", r, E, need, 0, HASH_NONE);
	for (int kind = 0; kind < NR_BAD; kind++) {
		long ks[] = { 0, 1, need - 1, need, need + 50 };

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			struct bbuf bb;
			unsigned char *q = bad_buf(&bb, kind, ks[i]);

			r = DO(syscall(SYS_getcwd, q, 4096));
			ck(L("getcwd %s k=%ld", bad_name[kind], ks[i]), r, E, ks[i] >= need ? need : -1,
			   EFAULT, q, ks[i]);
			if (r > 0)
				expect(!strcmp((char *)q, CWD_DIR), "getcwd %s: wrong string", bad_name[kind]);
			free_bbuf(&bb);
		}
	}
	if (chdir("/tmp"))
		die("chdir /tmp");
}

static void case_readlink(int unused1, int unused2)
{
	char buf[4096];
	long n = strlen(LINK_TARGET), r;
	struct bbuf bb;

	(void)unused1, (void)unused2;
	memset(buf, 0x5a, sizeof(buf));
	r = DO(readlink(LINK, buf, sizeof(buf)));
	ck("readlink", r, E, n, 0, buf, 256);
	expect(!memcmp(buf, LINK_TARGET, n) && buf[n] == 0x5a, "readlink: wrong bytes");
	memset(buf, 0x5a, sizeof(buf));
	r = DO(readlink(LINK, buf, 10));
	ck("readlink bufsiz 10", r, E, 10, 0, buf, 256);
	expect(!memcmp(buf, LINK_TARGET, 10) && buf[10] == 0x5a, "readlink 10: wrong bytes");
	r = DO(readlinkat(AT_FDCWD, LINK, buf, 0));
	ck("readlink bufsiz 0", r, E, -1, EINVAL, HASH_NONE);
	r = DO(readlink(SFILE, buf, sizeof(buf)));
	ck("readlink not a link", r, E, -1, EINVAL, HASH_NONE);
	for (int kind = 0; kind < NR_BAD; kind++) {
		long ks[] = { 0, 10, n - 1, n, n + 1 };

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			unsigned char *q = bad_buf(&bb, kind, ks[i]);

			r = DO(readlink(LINK, (char *)q, 4096));
			ck(L("readlink %s k=%ld", bad_name[kind], ks[i]), r, E, ks[i] >= n ? n : -1, EFAULT,
			   q, ks[i]);
			free_bbuf(&bb);
		}
		/* The path running into the bad page, and ending right before it. */
		char *pp = (char *)bad_buf(&bb, kind, strlen(LINK));
		memcpy(pp, LINK, strlen(LINK));
		r = DO(readlink(pp, buf, sizeof(buf)));
		ck(L("readlink path into %s", bad_name[kind]), r, E, -1,
		   kind == BAD_READONLY ? ENAMETOOLONG : EFAULT, HASH_NONE);
		free_bbuf(&bb);
		pp = (char *)bad_buf(&bb, kind, strlen(LINK) + 1);
		memcpy(pp, LINK, strlen(LINK) + 1);
		r = DO(readlink(pp, buf, sizeof(buf)));
		ck(L("readlink path NUL last before %s", bad_name[kind]), r, E, n, 0, HASH_NONE);
		free_bbuf(&bb);
	}
}

/* ---- open() path strings -------------------------------------------------- */

/* "/tmp/uacmp.d/" + "./" repeated + "file", total length len (len - 17 even). */
static void make_long_path(char *p, long len)
{
	long dots = len - (long)strlen(D "/file");

	memcpy(p, D "/", strlen(D "/"));
	p += strlen(D "/");
	if (dots & 1) {
		*p++ = '/';
		dots--;
	}
	for (long i = 0; i < dots; i += 2, p += 2)
		memcpy(p, "./", 2);
	memcpy(p, "file", 4);
}

static void case_open(int unused1, int unused2)
{
	long n = strlen(SFILE), r;
	struct bbuf bb;
	char *p;

	(void)unused1, (void)unused2;
	for (int kind = 0; kind < NR_BAD; kind++) {
		const char *bn = bad_name[kind];
		/* a path going on into a readonly page of 0xee is just too long */
		int efault = kind == BAD_READONLY ? ENAMETOOLONG : EFAULT;

		p = (char *)bad_buf(&bb, kind, n + 1);
		memcpy(p, SFILE, n + 1);
		r = DO(open(p, O_RDONLY));
		ck(L("open NUL last before %s", bn), r, E, ANY, 0, HASH_NONE);
		expect(r >= 0, "open with the NUL last before %s: %s", bn, rstr(r, E));
		if (r >= 0)
			close(r);
		free_bbuf(&bb);

		p = (char *)bad_buf(&bb, kind, n);
		memcpy(p, SFILE, n);
		r = DO(open(p, O_RDONLY));
		ck(L("open path into %s", bn), r, E, -1, efault, HASH_NONE);
		r = DO(open(p + n, O_RDONLY));
		ck(L("open path at %s", bn), r, E, -1, efault, HASH_NONE);
		free_bbuf(&bb);

		/* 2000 bytes over a page boundary (p + 905 is page aligned) */
		p = (char *)bad_buf(&bb, kind, 5001);
		make_long_path(p + 100, 2000);
		p[2100] = 0;
		r = DO(open(p + 100, O_RDONLY));
		ck(L("open 2000-byte path over a page boundary, %s", bn), r, E, ANY, 0, HASH_NONE);
		expect(r >= 0, "open 2000-byte path (%s): %s", bn, rstr(r, E));
		if (r >= 0)
			close(r);
		/* 4095 bytes + NUL: works; 4096 bytes and no NUL: ENAMETOOLONG */
		make_long_path(p + 905, 4095);
		p[5000] = 0;
		r = DO(open(p + 905, O_RDONLY));
		ck(L("open 4095-byte path, NUL last before %s", bn), r, E, ANY, 0, HASH_NONE);
		expect(r >= 0, "open 4095-byte path (%s): %s", bn, rstr(r, E));
		if (r >= 0)
			close(r);
		make_long_path(p + 905, 4095);
		p[5000] = '/';
		r = DO(open(p + 905, O_RDONLY));
		ck(L("open 4096 bytes up to %s, no NUL", bn), r, E, -1, ENAMETOOLONG, HASH_NONE);
		/* a readonly page is readable: the name just goes on, too long */
		make_long_path(p + 906, 4093);
		p[4999] = 'x';
		p[5000] = 'y';
		r = DO(open(p + 906, O_RDONLY));
		ck(L("open 4095 bytes up to %s, no NUL", bn), r, E, -1, efault, HASH_NONE);
		free_bbuf(&bb);
	}
	r = DO(open("", O_RDONLY));
	ck("open empty path", r, E, -1, ENOENT, HASH_NONE);
	r = DO(syscall(SYS_openat, AT_FDCWD, NULL, O_RDONLY));
	ck("open NULL", r, E, -1, EFAULT, HASH_NONE);

	/* openat2: copy_struct_from_user checks the bytes past the struct are zero */
	{
		unsigned char how[64];
		struct open_how *h = (void *)how;

		memset(how, 0, sizeof(how));
		h->flags = O_RDONLY;
		r = DO(syscall(SYS_openat2, AT_FDCWD, SFILE, how, sizeof(how)));
		ck("openat2 64-byte how, zero tail", r, E, ANY, 0, HASH_NONE);
		expect(r >= 0, "openat2 with a zero tail: %s", rstr(r, E));
		if (r >= 0)
			close(r);
		how[63] = 1;
		r = DO(syscall(SYS_openat2, AT_FDCWD, SFILE, how, sizeof(how)));
		ck("openat2 nonzero tail", r, E, -1, E2BIG, HASH_NONE);
		for (int kind = 0; kind < NR_BAD; kind++) {
			unsigned char *q = bad_buf(&bb, kind, sizeof(struct open_how));

			memcpy(q, how, sizeof(struct open_how));
			r = DO(syscall(SYS_openat2, AT_FDCWD, SFILE, q, sizeof(struct open_how) + 8));
			ck(L("openat2 tail in %s", bad_name[kind]), r, E, kind == BAD_READONLY ? ANY : -1,
			   EFAULT, HASH_NONE);
			if (kind == BAD_READONLY) {
				/* the readonly tail holds 0xee: not zero */
				expect(r == -1 && E == E2BIG, "openat2 readonly tail: %s, want E2BIG", rstr(r, E));
			}
			r = DO(syscall(SYS_openat2, AT_FDCWD, SFILE, q + 8, sizeof(struct open_how)));
			ck(L("openat2 struct into %s", bad_name[kind]), r, E, kind == BAD_READONLY ? ANY : -1,
			   EFAULT, HASH_NONE);
			if (r >= 0)
				close(r);
			free_bbuf(&bb);
		}
	}
}

/* ---- uname, prctl -------------------------------------------------------- */

static void case_uname(int unused1, int unused2)
{
	struct utsname u;
	struct bbuf bb;
	long r;

	(void)unused1, (void)unused2;
	memset(&u, 0x5a, sizeof(u));
	r = DO(uname(&u));
	ck("uname", r, E, 0, 0, &u, sizeof(u));
	expect(!strcmp(u.sysname, "Linux") && !strncmp(u.machine, "armv7", 5),
	       "uname: sysname '%s' machine '%s'", u.sysname, u.machine);
	for (int kind = 0; kind < NR_BAD; kind++) {
		long ks[] = { 0, 100, (long)sizeof(u) - 1, (long)sizeof(u) };

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			unsigned char *q = bad_buf(&bb, kind, ks[i]);

			r = DO(uname((void *)q));
			ck(L("uname %s k=%ld", bad_name[kind], ks[i]), r, E,
			   ks[i] >= (long)sizeof(u) ? 0 : -1, EFAULT, q, ks[i]);
			free_bbuf(&bb);
		}
	}
}

static void case_prctl(int unused1, int unused2)
{
	char name[32];
	struct bbuf bb;
	long r;
	int sig;

	(void)unused1, (void)unused2;
	r = DO(prctl(PR_SET_NAME, "uacmp-name-1234"));
	ck("PR_SET_NAME 15", r, E, 0, 0, HASH_NONE);
	memset(name, 0x5a, sizeof(name));
	r = DO(prctl(PR_GET_NAME, name));
	ck("PR_GET_NAME", r, E, 0, 0, name, sizeof(name));
	expect(!strcmp(name, "uacmp-name-1234") && name[16] == 0x5a, "PR_GET_NAME: '%.20s'", name);
	r = DO(prctl(PR_SET_NAME, "a-name-longer-than-fifteen"));
	ck("PR_SET_NAME 26", r, E, 0, 0, HASH_NONE);
	memset(name, 0x5a, sizeof(name));
	r = DO(prctl(PR_GET_NAME, name));
	ck("PR_GET_NAME truncated", r, E, 0, 0, name, sizeof(name));
	expect(!strcmp(name, "a-name-longer-t"), "PR_GET_NAME truncated: '%.20s'", name);
	for (int kind = 0; kind < NR_BAD; kind++) {
		const char *bn = bad_name[kind];
		char *q;

		/* get: 16 bytes out */
		q = (char *)bad_buf(&bb, kind, 15);
		r = DO(prctl(PR_GET_NAME, q));
		ck(L("PR_GET_NAME %s k=15", bn), r, E, -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);
		q = (char *)bad_buf(&bb, kind, 16);
		r = DO(prctl(PR_GET_NAME, q));
		ck(L("PR_GET_NAME %s k=16", bn), r, E, 0, 0, q, 16);
		free_bbuf(&bb);
		/* set: at most 15 bytes are read */
		q = (char *)bad_buf(&bb, kind, 5);
		memcpy(q, "abcde", 5);
		r = DO(prctl(PR_SET_NAME, q));
		ck(L("PR_SET_NAME 5 bytes into %s", bn), r, E, kind == BAD_READONLY ? 0 : -1, EFAULT,
		   HASH_NONE);
		free_bbuf(&bb);
		q = (char *)bad_buf(&bb, kind, 15);
		memcpy(q, "fifteen-bytes-x", 15);
		r = DO(prctl(PR_SET_NAME, q));
		ck(L("PR_SET_NAME 15 bytes, no NUL, up to %s", bn), r, E, 0, 0, HASH_NONE);
		memset(name, 0, sizeof(name));
		prctl(PR_GET_NAME, name);
		expect(!strcmp(name, "fifteen-bytes-x"), "PR_SET_NAME up to %s: name '%.20s'", bn, name);
		free_bbuf(&bb);
		q = (char *)bad_buf(&bb, kind, 3);
		r = DO(prctl(PR_GET_PDEATHSIG, q));
		ck(L("PR_GET_PDEATHSIG into %s k=3", bn), r, E, -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);
	}
	sig = -1;
	r = DO(prctl(PR_GET_PDEATHSIG, &sig));
	ck("PR_GET_PDEATHSIG", r, E, 0, 0, &sig, sizeof(sig));
	expect(sig == 0, "PR_GET_PDEATHSIG: %d", sig);
}

/* ---- MAP_SHARED vs MAP_PRIVATE, COW after fork, fault-in ---------------- */

static unsigned char b0_byte(long i) { return (unsigned char)(i * 3 + 0x40); }

static int same_as(const unsigned char *p, long n, unsigned char (*byte)(long), long base)
{
	for (long i = 0; i < n; i++)
		if (p[i] != byte(base + i))
			return 0;
	return 1;
}

static uint32_t range_hash(unsigned char (*byte)(long), long base, long n)
{
	unsigned char *b = malloc(n);
	uint32_t h;

	for (long i = 0; i < n; i++)
		b[i] = byte(base + i);
	h = fnv(b, n);
	free(b);
	return h;
}

static void case_mapsem(int unused1, int unused2)
{
	long n = 3 * page + 100, r;
	int dfd = open_or_die(DATA, O_RDONLY), bfd;
	unsigned char *m;

	(void)unused1, (void)unused2;
	/* read() into a MAP_SHARED mapping of another file reaches that file */
	write_file(WFILE, 4 * page, b0_byte, 0644);
	bfd = open_or_die(WFILE, O_RDWR);
	m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	if (m == MAP_FAILED)
		die("mmap shared");
	r = DO(pread(dfd, m + 50, n, 1000));
	ck("pread into MAP_SHARED", r, E, n, 0, m, 4 * page);
	note("the file after", 0, 0, HASH_NONE);
	R->obs[R->nobs - 1].hash = file_hash(WFILE, 0, 4 * page);
	expect(file_hash(WFILE, 50, n) == range_hash(file_byte, 1000, n) &&
	       file_hash(WFILE, 0, 50) == range_hash(b0_byte, 0, 50) &&
	       file_hash(WFILE, 50 + n, 4 * page - 50 - n) == range_hash(b0_byte, 50 + n, 4 * page - 50 - n),
	       "MAP_SHARED: the file does not hold what read() stored");
	/* write() from it takes the file's bytes */
	r = DO(write(open_or_die("/dev/null", O_WRONLY), m, 4 * page));
	ck("write from MAP_SHARED to /dev/null", r, E, 4 * page, 0, HASH_NONE);
	munmap(m, 4 * page);

	/* ... into MAP_PRIVATE it does not */
	write_file(WFILE, 4 * page, b0_byte, 0644);
	m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, bfd, 0);
	if (m == MAP_FAILED)
		die("mmap private");
	expect(m[page] == b0_byte(page), "MAP_PRIVATE: mapping does not show the file");
	r = DO(pread(dfd, m + 50, n, 1000));
	ck("pread into MAP_PRIVATE", r, E, n, 0, m, 4 * page);
	expect(same_as(m + 50, n, file_byte, 1000), "MAP_PRIVATE: mapping does not hold the data");
	expect(file_hash(WFILE, 0, 4 * page) == range_hash(b0_byte, 0, 4 * page),
	       "MAP_PRIVATE: read() reached the file");
	munmap(m, 4 * page);

	/* a PROT_READ MAP_SHARED mapping is no destination; the file stays */
	m = mmap(NULL, 4 * page, PROT_READ, MAP_SHARED, bfd, 0);
	if (m == MAP_FAILED)
		die("mmap ro");
	r = DO(pread(dfd, m, 100, 0));
	ck("pread into PROT_READ MAP_SHARED", r, E, -1, EFAULT, HASH_NONE);
	r = DO(pread(dfd, m + page - 10, 100, 0));
	ck("pread into PROT_READ MAP_SHARED at +4086", r, E, -1, EFAULT, HASH_NONE);
	expect(file_hash(WFILE, 0, 4 * page) == range_hash(b0_byte, 0, 4 * page),
	       "PROT_READ MAP_SHARED: the file changed");
	munmap(m, 4 * page);
	/* a readonly fd mapped shared, then made writable: refused */
	{
		int rofd = open_or_die(WFILE, O_RDONLY);

		m = mmap(NULL, 4 * page, PROT_READ, MAP_SHARED, rofd, 0);
		r = DO(mprotect(m, 4 * page, PROT_READ | PROT_WRITE));
		ck("mprotect RW of a readonly-fd shared map", r, E, -1, EACCES, HASH_NONE);
		r = DO(pread(dfd, m, 100, 0));
		ck("pread into it", r, E, -1, EFAULT, HASH_NONE);
		munmap(m, 4 * page);
		close(rofd);
	}
	close(bfd);
	close(dfd);
}

static void case_cow(int unused1, int unused2)
{
	long n = 3 * page;
	int dfd = open_or_die(DATA, O_RDONLY), go[2], done[2], status;
	unsigned char *priv, *shared, *priv2, c;
	pid_t pid;
	long r;

	(void)unused1, (void)unused2;
	if (n <= 0 || n > (1 << 20))
		die("page size");
	priv = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	priv2 = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	shared = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (priv == MAP_FAILED || priv2 == MAP_FAILED || shared == MAP_FAILED || pipe(go) || pipe(done))
		die("setup");
	for (long i = 0; i < n; i++)
		priv[i] = priv2[i] = shared[i] = b0_byte(i);

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int bad = 0;

		/* wait until the parent has read() into its copies */
		if (read(go[0], &c, 1) != 1)
			_exit(10);
		bad |= !same_as(priv, n, b0_byte, 0);		/* must not see the parent's data */
		bad |= !same_as(shared, n, file_byte, 0) << 1;	/* must see it */
		/* now the child writes into priv2 with read(); the parent checks */
		bad |= (pread(dfd, priv2, n, 0) != n) << 2;
		bad |= !same_as(priv2, n, file_byte, 0) << 3;
		if (write(done[1], "x", 1) != 1)
			_exit(11);
		_exit(bad);
	}
	r = DO(read(dfd, priv, n));	/* dfd at offset 0 */
	ck("parent read into COW-shared private page", r, E, n, 0, priv, n);
	expect(same_as(priv, n, file_byte, 0), "parent: private buffer does not hold the data");
	r = DO(pread(dfd, shared, n, 0));
	ck("parent pread into MAP_SHARED anon", r, E, n, 0, shared, n);
	if (write(go[1], "x", 1) != 1 || read(done[0], &c, 1) != 1)
		die("sync");
	expect(same_as(priv2, n, b0_byte, 0), "parent sees the child's read() into its COW copy");
	waitpid(pid, &status, 0);
	note("child status", status, 0, HASH_NONE);
	expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "child: status %#x (bit0: saw the parent's data in its COW copy, bit1: MAP_SHARED "
	       "lost the data, bit3: its own read() wrong)", status);
	close(dfd);
}

static void case_faultin(int unused1, int unused2)
{
	long n = 3 * page, r;
	int dfd = open_or_die(DATA, O_RDONLY), ffd;
	unsigned char *m;

	(void)unused1, (void)unused2;
	/* a fresh, never touched anonymous mapping */
	m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r = DO(pread(dfd, m + 100, n, 7));
	ck("pread into untouched anon", r, E, n, 0, m, 4 * page);
	expect(same_as(m + 100, n, file_byte, 7) && !m[99] && !m[100 + n], "untouched anon: wrong bytes");
	munmap(m, 4 * page);

	/* an anonymous mapping that maps the zero page (read first) */
	m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (long i = 0; i < 4 * page; i += page)
		expect(m[i] == 0, "fresh anon not zero");
	r = DO(pread(dfd, m + 100, n, 7));
	ck("pread into zero-page anon", r, E, n, 0, m, 4 * page);
	expect(same_as(m + 100, n, file_byte, 7) && !m[99] && !m[100 + n], "zero-page anon: wrong bytes");
	munmap(m, 4 * page);

	/* a file-backed MAP_SHARED mapping of a sparse file, never touched */
	ffd = open_or_die(WFILE, O_RDWR | O_CREAT | O_TRUNC);
	if (ftruncate(ffd, 4 * page))
		die("ftruncate");
	m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_SHARED, ffd, 0);
	r = DO(pread(dfd, m + 100, n, 7));
	ck("pread into untouched MAP_SHARED file", r, E, n, 0, HASH_NONE);
	note("the file after", 0, 0, HASH_NONE);
	R->obs[R->nobs - 1].hash = file_hash(WFILE, 0, 4 * page);
	expect(file_hash(WFILE, 100, n) == range_hash(file_byte, 7, n), "sparse MAP_SHARED: file wrong");
	munmap(m, 4 * page);
	/* ... and MAP_PRIVATE of a fresh sparse file: the file stays zero */
	if (ftruncate(ffd, 0) || ftruncate(ffd, 4 * page))
		die("ftruncate");
	m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, ffd, 0);
	r = DO(pread(dfd, m + 100, n, 7));
	ck("pread into untouched MAP_PRIVATE file", r, E, n, 0, m, 4 * page);
	{
		static unsigned char z[4 * 4096];

		expect(file_hash(WFILE, 0, 4 * page) == fnv(z, 4 * page), "MAP_PRIVATE sparse: file changed");
	}
	munmap(m, 4 * page);
	close(ffd);

	/* a transparent huge page (THP=always), across its middle */
	{
		long hp = 2 * 1024 * 1024;
		unsigned char *raw = mmap(NULL, 2 * hp, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		unsigned char *h = (unsigned char *)(((unsigned long)raw + hp - 1) & ~(hp - 1));

		madvise(h, hp, MADV_HUGEPAGE);
		r = DO(pread(dfd, h + hp / 2 - 5000, 10000, 3));
		ck("pread into untouched THP", r, E, 10000, 0, h + hp / 2 - 5000, 10000);
		expect(same_as(h + hp / 2 - 5000, 10000, file_byte, 3), "THP: wrong bytes");
		r = DO(write(open_or_die("/dev/null", O_WRONLY), h, hp));
		ck("write 2 MiB from THP", r, E, hp, 0, HASH_NONE);
		munmap(raw, 2 * hp);
	}
	close(dfd);
}

/* ---- clear_user: /dev/zero --------------------------------------------- */

static void case_zero(int unused1, int unused2)
{
	static unsigned char big[10000];
	int zfd = open_or_die("/dev/zero", O_RDONLY);
	long r;

	(void)unused1, (void)unused2;
	memset(big, 0x5a, sizeof(big));
	r = DO(read(zfd, big, sizeof(big)));
	ck("read /dev/zero 10000", r, E, sizeof(big), 0, big, sizeof(big));
	for (int kind = 0; kind < NR_BAD; kind++) {
		static const long ks[] = { 0, 1, 63, 64, 100, 4095, 4196 };

		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			long k = ks[i];
			struct bbuf bb;
			unsigned char *q = bad_buf(&bb, kind, k);
			const char *what = L("read /dev/zero %s k=%ld", bad_name[kind], k);

			for (long j = 0; j < k; j++)
				q[j] = user_byte(j);
			r = DO(read(zfd, q, k + 100));
			ck(what, r, E, k ? k : -1, EFAULT, q, k);
			for (long j = 0; j < k; j++)
				if (q[j] != (j < r ? 0 : user_byte(j))) {
					failf("%s: byte %ld is %#x", what, j, q[j]);
					break;
				}
			if (!before_untouched(&bb))
				failf("%s: a byte before the buffer changed", what);
			free_bbuf(&bb);
		}
	}
	close(zfd);
}

/* ---- execve: argv/envp strings and arrays (strnlen_user, get_user) ------- */

static uint32_t argv_hash(char *const *v, uint32_t h)
{
	for (; *v; v++)
		for (const unsigned char *s = (const void *)*v;; s++) {
			h ^= *s;
			h *= 16777619u;
			if (!*s)
				break;
		}
	return h;
}

/* Run execve() in a grandchild; stdout of the new program comes back in out. */
static int try_exec(const char *path, char *const *argv, char *const *envp, char *out, size_t outsz)
{
	int p[2], status;
	pid_t pid;
	long n;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		execve(path, argv, envp);
		_exit(errno);
	}
	close(p[1]);
	n = drain(p[0], (unsigned char *)out, outsz - 1);
	out[n > 0 ? n : 0] = 0;
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void case_execve(int unused1, int unused2)
{
	struct bbuf sb, ab, eb;
	char *s1, *s2, *s3, **argv, **envp, out[64], self[] = "/proc/self/exe";
	char *const argv_ok[] = { "uacmp", "--argv-hash", NULL };
	long k2 = 1000;
	int st;

	(void)unused1, (void)unused2;
	/*
	 * s1: 5000 bytes over a page boundary; s2: 1000 bytes whose NUL is
	 * the last byte before a bad page.
	 */
	s1 = (char *)bad_buf(&sb, BAD_PROT_NONE, 6000);
	memset(s1, 'a', 4999);
	s1[4999] = 0;
	s2 = s1 + 5000;
	memset(s2, 'b', k2 - 1);
	s2[k2 - 1] = 0;
	/* argv: its NULL the last 4 bytes before a bad page */
	argv = (char **)bad_buf(&ab, BAD_UNMAPPED, 5 * sizeof(char *));
	argv[0] = "uacmp";
	argv[1] = "--argv-hash";
	argv[2] = s1;
	argv[3] = s2;
	argv[4] = NULL;
	envp = (char **)bad_buf(&eb, BAD_PROT_NONE, 3 * sizeof(char *));
	s3 = (char *)eb.map + 100;	/* a good env string */
	strcpy(s3, "UACMP=1");
	envp[0] = s3;
	envp[1] = s2;
	envp[2] = NULL;

	st = try_exec(self, argv, envp, out, sizeof(out));
	note("execve ok: exit", st, 0, out, strlen(out));
	{
		char want[16];

		snprintf(want, sizeof(want), "%08x\n", argv_hash(envp, argv_hash(argv, 2166136261u)));
		expect(st == 0 && !strcmp(out, want), "execve: exit %d, printed '%.20s', want '%.9s'", st, out,
		       want);
	}
	/* a string with no NUL before the bad page */
	s2[k2 - 1] = 'b';
	st = try_exec(self, argv, envp, out, sizeof(out));
	ck("execve argv string into prot_none", st, 0, EFAULT, 0, HASH_NONE);
	argv[3] = (char *)argv_ok[0];
	st = try_exec(self, argv, envp, out, sizeof(out));
	ck("execve envp string into prot_none", st, 0, EFAULT, 0, HASH_NONE);
	envp[1] = NULL;
	/* the argv array with no NULL before the unmapped page */
	argv[4] = (char *)argv_ok[0];
	st = try_exec(self, argv, envp, out, sizeof(out));
	ck("execve argv array into unmapped", st, 0, EFAULT, 0, HASH_NONE);
	/* argv fine, envp array runs into prot_none */
	envp[1] = s3;
	envp[2] = s3;
	st = try_exec(self, argv_ok, envp, out, sizeof(out));
	ck("execve envp array into prot_none", st, 0, EFAULT, 0, HASH_NONE);
	/* the path with no NUL */
	s2 = (char *)sb.map + sb.good * page - strlen(self);
	memcpy(s2, self, strlen(self));
	st = try_exec(s2, argv_ok, NULL, out, sizeof(out));
	ck("execve path into prot_none", st, 0, EFAULT, 0, HASH_NONE);
	free_bbuf(&sb);
	free_bbuf(&ab);
	free_bbuf(&eb);
}

/* ---- put_user/get_user of single values ------------------------------- */

static void case_scalars(int unused1, int unused2)
{
	int p[2], n, s, type;
	socklen_t len;
	long r;
	pid_t pid;

	(void)unused1, (void)unused2;
	if (pipe(p) || write(p[1], "0123456789", 10) != 10)
		die("pipe");
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	n = -1;
	r = DO(ioctl(p[0], FIONREAD, &n));
	ck("FIONREAD", r, E, 0, 0, &n, sizeof(n));
	expect(n == 10, "FIONREAD: %d", n);
	len = sizeof(type);
	r = DO(getsockopt(s, SOL_SOCKET, SO_TYPE, &type, &len));
	ck("getsockopt SO_TYPE", r, E, 0, 0, &type, sizeof(type));
	expect(type == SOCK_STREAM && len == sizeof(int), "SO_TYPE %d len %u", type, (unsigned)len);
	{
		cpu_set_t cs;

		memset(&cs, 0x5a, sizeof(cs));
		r = DO(syscall(SYS_sched_getaffinity, 0, sizeof(cs), &cs));
		ck("sched_getaffinity", r, E, 4, 0, &cs, sizeof(cs));
	}
	for (int kind = 0; kind < NR_BAD; kind++) {
		const char *bn = bad_name[kind];
		struct bbuf bb;
		unsigned char *q = bad_buf(&bb, kind, 2);
		struct rlimit rl;
		int ro = kind == BAD_READONLY;

		r = DO(ioctl(p[0], FIONREAD, q));
		ck(L("FIONREAD into %s k=2", bn), r, E, -1, EFAULT, HASH_NONE);
		len = sizeof(type);
		r = DO(getsockopt(s, SOL_SOCKET, SO_TYPE, q, &len));
		ck(L("getsockopt optval into %s k=2", bn), r, E, -1, EFAULT, HASH_NONE);
		memcpy(q, &len, 2);
		r = DO(getsockopt(s, SOL_SOCKET, SO_TYPE, &type, (socklen_t *)q));
		/* readonly: optlen reads as 0xeeee0004, negative */
		ck(L("getsockopt optlen into %s k=2", bn), r, E, -1, ro ? EINVAL : EFAULT, HASH_NONE);
		r = DO(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, q));
		ck(L("clock_gettime into %s k=2", bn), r, E, -1, EFAULT, HASH_NONE);
		r = DO(sysinfo((void *)q));
		ck(L("sysinfo into %s k=2", bn), r, E, -1, EFAULT, HASH_NONE);
		r = DO(syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, q));
		ck(L("prlimit64 old into %s k=2", bn), r, E, -1, EFAULT, HASH_NONE);
		getrlimit(RLIMIT_NOFILE, &rl);
		memcpy(q, &rl, 2);
		r = DO(syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, q, NULL));
		ck(L("prlimit64 new into %s k=2", bn), r, E, ro ? ANY : -1, EFAULT, HASH_NONE);
		free_bbuf(&bb);

		/* pipe2's fd pair: the first fits, the second does not */
		q = bad_buf(&bb, kind, 4);
		memset(q, 0x5a, 4);
		{
			int lowest = dup(0), after;

			close(lowest);
			r = DO(pipe2((int *)q, 0));
			ck(L("pipe2 fds into %s k=4", bn), r, E, -1, EFAULT, HASH_NONE);
			after = dup(0);
			close(after);
			expect(after == lowest, "pipe2 EFAULT (%s) left fds installed", bn);
		}
		free_bbuf(&bb);

		/* wait4's status: the child is reaped, then EFAULT */
		pid = fork();
		if (pid == 0)
			_exit(7);
		q = bad_buf(&bb, kind, 2);
		r = DO(wait4(pid, (int *)q, 0, NULL));
		ck(L("wait4 status into %s k=2", bn), r, E, -1, EFAULT, HASH_NONE);
		r = DO(wait4(pid, NULL, WNOHANG, NULL));
		ck(L("wait4 again after %s", bn), r, E, -1, ECHILD, HASH_NONE);
		free_bbuf(&bb);
	}
	close(s);
	close(p[0]);
	close(p[1]);
}

/* ---- driver -------------------------------------------------------------- */

static int twice;		/* -2: every case twice in the current mode */

static int run_case(const struct tcase *c)
{
	long pins_before = pins_outstanding();
	int run = run_modes(c, 0);

	if (run == RUN_SKIP || run == RUN_DIFFER)
		return run == RUN_DIFFER;
	if (have_modefile) {
		long pins_after = pins_outstanding();

		if (pins_after > 0 && pins_after != pins_before)
			printf("    %s: pins outstanding %ld after the case (before: %ld)\n", c->name,
			       pins_after, pins_before);
	}
	if (run == RUN_FAIL) {
		printf("UTEST FAIL uacmp:%s\n", c->name);
		return 1;
	}
	if (nmodes == 2)
		printf("UTEST PASS uacmp:%s (%s = %s = expected, %d records)\n", c->name, modes[0], modes[1],
		       recs[0].nobs);
	else
		printf("UTEST PASS uacmp:%s (%s as expected, %d records; not compared)\n", c->name, modes[0],
		       recs[0].nobs);
	return 0;
}

static unsigned char zero_byte(long i) { (void)i; return 0; }

static void global_setup(void)
{
	char name[64];

	if (system("rm -rf " D) != 0 || mkdir(D, 0755) || mkdir(DIR50, 0755))
		goto fail;
	write_file(DATA, DATA_SIZE, file_byte, 0644);
	write_file(SFILE, SFILE_SIZE, zero_byte, 0640);
	if (symlink(LINK_TARGET, LINK))
		goto fail;
	for (int i = 0; i < 50; i++) {
		int fd;

		snprintf(name, sizeof(name), DIR50 "/f%02d", i);
		fd = open(name, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			goto fail;
		close(fd);
	}
	if (mkdir(D "/cwd-0123456789abcdefghijklmnopqrstuvwxyz-0123456789", 0755) || mkdir(CWD_DIR, 0755))
		goto fail;
	return;
fail:
	perror("uacmp: setup of " D);
	exit(2);
}

/* Whether /proc/kallsyms has @sym (1 when it cannot tell). */
static int have_ksym(const char *sym)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], want[128];
	int found = 0;

	if (!f)
		return 1;	/* cannot tell: expect it */
	snprintf(want, sizeof(want), " %s\n", sym);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	fclose(f);
	return found;
}

/*
 * Whether the kernel has the memcpy mode (CONFIG_UACCESS_WITH_MEMCPY,
 * which Debian's configuration leaves off): its copy routine is in
 * /proc/kallsyms.
 */
static int have_memcpy_mode(void)
{
	return have_ksym("__copy_to_user_memcpy");
}

/*
 * The direct and gup modes are not built with CONFIG_UACCESS_PINNED_ONLY
 * (the 4G/4G split): their routines are not in /proc/kallsyms.
 */
static int have_mode(const char *mode)
{
	if (!strcmp(mode, "memcpy"))
		return have_memcpy_mode();
	if (!strcmp(mode, "direct"))
		return have_ksym("__get_user_4");
	if (!strcmp(mode, "gup"))
		return have_ksym("gup_kmap_copy_from_user");
	return 1;
}

/*
 * The mode file's own contract: an unknown name fails with EINVAL and
 * changes nothing; under uaccess_strict every mode but pinned fails with
 * EPERM (a mode this kernel was built without is an unknown name).
 * Returns 1 on a FAIL.
 */
static int check_modefile(int strict)
{
	static const char *const others[] = { "direct", "memcpy", "gup" };
	char before[32] = "", after[32] = "", why[256] = "";
	size_t used = 0;
	int err;

	read_small(MODE_FILE, before, sizeof(before));
	err = set_mode("no-such-mode");
	read_small(MODE_FILE, after, sizeof(after));
	if (err != EINVAL || strcmp(before, after))
		used += snprintf(why + used, sizeof(why) - used, "unknown name: %s, mode '%s' -> '%s'; ",
				 err ? strerror(err) : "accepted", before, after);
	for (size_t i = 0; strict && i < sizeof(others) / sizeof(others[0]); i++) {
		int want = EPERM;

		if (!have_mode(others[i]))
			want = EINVAL;
		err = set_mode(others[i]);
		if (err != want && used < sizeof(why))
			used += snprintf(why + used, sizeof(why) - used, "%s under strict: %s; ", others[i],
					 err ? strerror(err) : "accepted");
		if (!err)
			set_mode("pinned");
	}
	if (used) {
		why[used - 2] = 0;
		printf("UTEST FAIL uacmp:modefile (%s)\n", why);
		return 1;
	}
	printf("UTEST PASS uacmp:modefile (unknown name: EINVAL, mode unchanged%s)\n",
	       !strict ? "" : !have_mode("direct") ? "; pinned only: direct, memcpy, gup (not built): EINVAL" :
	       have_memcpy_mode() ? "; strict: direct, memcpy, gup: EPERM" :
	       "; strict: direct, gup: EPERM; memcpy (not built): EINVAL");
	return 0;
}

static int choose_modes(void)
{
	int strict, failed;

	if (twice) {
		modes[0] = "current";
		modes[1] = "current(again)";
		nmodes = 2;
		printf("uacmp: -2: every case twice in the current mode, records compared (determinism check)\n");
		return 0;
	}
	if (access(MODE_FILE, F_OK)) {
		modes[0] = "direct";
		nmodes = 1;
		printf("uacmp: no %s: this kernel has only the direct mode; checking expected values only,"
		       " no direct/pinned comparison\n", MODE_FILE);
		printf("UTEST SKIP uacmp:compare (no uaccess mode file: direct only, nothing to compare with)\n");
		return 0;
	}
	strict = start_modes("modefile");
	failed = check_modefile(strict);
	pick_modes(strict);
	if (nmodes == 1) {
		printf("uacmp: only mode %s%s; checking expected values only, no comparison\n",
		       modes[0], strict ? " (uaccess_strict)" : " available");
		printf("UTEST SKIP uacmp:compare (only %s%s: nothing to compare with)\n", modes[0],
		       strict ? ", strict" : " available");
	} else if (nmodes == 0) {
		printf("UTEST FAIL uacmp:modes (neither direct nor pinned can be set)\n");
		exit(1);
	}
	return failed;
}

static int argv_hash_main(int argc, char **argv, char **envp)
{
	(void)argc;
	printf("%08x\n", argv_hash(envp, argv_hash(argv, 2166136261u)));
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	int opt, failures = 0, list = 0, ran = 0;

	if (argc >= 2 && !strcmp(argv[1], "--argv-hash"))
		return argv_hash_main(argc, argv, envp);
	while ((opt = getopt(argc, argv, "vl2t:")) != -1) {
		if (opt == 'v')
			verbose = 1;
		else if (opt == '2')
			twice = 1;
		else if (opt == 'l')
			list = 1;
		else if (opt == 't')
			watchdog_s = atoi(optarg);
		else {
			fprintf(stderr, "usage: uacmp [-v] [-l] [-2] [-t WATCHDOG_S] [CASE-SUBSTRING...]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);

	for (int op = 0; op < NR_OPS; op++)
		for (int bad = 0; bad < NR_BAD; bad++)
			add(L("edge:%s:%s", op_name[op], bad_name[bad]), case_edge, op, bad);
	add("stat", case_stat, 0, 0);
	add("getdents64", case_getdents, 0, 0);
	add("pipe", case_pipe, 0, 0);
	add("unix_msg", case_unix, 0, 0);
	add("poll_select", case_poll, 0, 0);
	add("futex", case_futex, 0, 0);
	add("sigaction", case_sigaction, 0, 0);
	add("signal", case_signal, 0, 0);
	add("getcwd", case_getcwd, 0, 0);
	add("readlink", case_readlink, 0, 0);
	add("open_path", case_open, 0, 0);
	add("uname", case_uname, 0, 0);
	add("prctl_name", case_prctl, 0, 0);
	add("map_shared_private", case_mapsem, 0, 0);
	add("cow_fork", case_cow, 0, 0);
	add("fault_in", case_faultin, 0, 0);
	add("clear_user_dev_zero", case_zero, 0, 0);
	add("execve", case_execve, 0, 0);
	add("put_get_user", case_scalars, 0, 0);
	if (list) {
		for (int i = 0; i < ncases; i++)
			printf("%s\n", cases[i].name);
		return 0;
	}

	if (rec_init())
		return 2;
	global_setup();
	failures += choose_modes();
	failures += run_cases(argc, argv, run_case, &ran);
	restore_mode();
	failures += pins_verdict(1);
	printf("uacmp: %d cases, %d failed, modes:%s%s\n", ran, failures, modes[0],
	       nmodes == 2 ? L(" %s (compared)", modes[1]) : " (not compared)");
	return failures ? 1 : 0;
}
