// SPDX-License-Identifier: GPL-2.0
/*
 * uaedge - exactness of user copies at the edge of an inaccessible page.
 *
 * A user buffer starts k bytes before a page that is PROT_NONE or not
 * mapped at all, and the syscall is asked for len > k bytes.  The only
 * exact answer is k: the kernel copies every byte up to the bad one and
 * says so (an x86 kernel does), and for k == 0 it fails with EFAULT.
 * Checked for read, pread, readv, write, pwrite, writev and pwritev on a
 * tmpfs file, including the bytes that land (and those that must not).
 *
 * Every case runs in its own child with a watchdog: stock ARM 6.12 makes
 * write() retry forever in generic_perform_write() for most k, and only a
 * fatal signal ends it.  Prints one UTEST line per (syscall, bad page kind)
 * and the first few failing cases under it.
 *
 * usage: uaedge [-v] [-t WATCHDOG_MS]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILE_SIZE (64 * 1024)
#define DATAFILE "/tmp/uaedge.data"

enum op { OP_READ, OP_PREAD, OP_READV, OP_WRITE, OP_PWRITE, OP_WRITEV, OP_PWRITEV, NR_OPS };
static const char *const op_name[] = { "read", "pread", "readv", "write", "pwrite", "writev", "pwritev" };
enum bad { BAD_PROT_NONE, BAD_UNMAPPED, NR_BAD };
static const char *const bad_name[] = { "prot_none", "unmapped" };

static const long ks[] = { 0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65,
			   100, 127, 128, 255, 256, 511, 512, 1000, 4095 };
static const long extras[] = { 1, 64, 4196 };
static const long offs[] = { 0, 100 };

struct verdict {
	long ret;
	int err;
	int content_ok;
	char why[96];
};

static long page;
static int verbose, watchdog_ms = 2000;

static unsigned char file_byte(long pos) { return (unsigned char)(pos * 7 + 3); }
static unsigned char user_byte(long i) { return (unsigned char)(0x80 | (i * 13)); }

static void reset_file(void)
{
	unsigned char *b = malloc(FILE_SIZE);
	int fd = open(DATAFILE, O_RDWR | O_CREAT | O_TRUNC, 0644);
	long i;

	if (!b || fd < 0) {
		perror("uaedge: reset_file");
		exit(2);
	}
	for (i = 0; i < FILE_SIZE; i++)
		b[i] = file_byte(i);
	if (write(fd, b, FILE_SIZE) != FILE_SIZE) {
		perror("uaedge: write data file");
		exit(2);
	}
	close(fd);
	free(b);
}

/* In the child: set up, do the syscall, check the bytes, report. */
static void child(enum op op, enum bad bad, long k, long len, long off, struct verdict *v)
{
	unsigned char *map, *buf;
	struct iovec iov;
	struct itimerval it = { .it_value = { watchdog_ms / 1000, (watchdog_ms % 1000) * 1000 } };
	int fd, is_write = op >= OP_WRITE;
	long i, ret;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		_exit(3);
	for (i = 0; i < page; i++)
		map[i] = 0xee;
	buf = map + page - k;
	for (i = 0; i < k; i++)
		buf[i] = user_byte(i);
	if (bad == BAD_PROT_NONE)
		mprotect(map + page, page, PROT_NONE);
	else
		munmap(map + page, page);
	fd = open(DATAFILE, is_write ? O_RDWR : O_RDONLY);
	if (fd < 0 || lseek(fd, off, SEEK_SET) != off)
		_exit(4);
	iov.iov_base = buf;
	iov.iov_len = len;

	setitimer(ITIMER_REAL, &it, NULL);	/* SIGALRM kills us in a hang */
	errno = 0;
	switch (op) {
	case OP_READ: ret = read(fd, buf, len); break;
	case OP_PREAD: ret = pread(fd, buf, len, off); break;
	case OP_READV: ret = readv(fd, &iov, 1); break;
	case OP_WRITE: ret = write(fd, buf, len); break;
	case OP_PWRITE: ret = pwrite(fd, buf, len, off); break;
	case OP_WRITEV: ret = writev(fd, &iov, 1); break;
	default: ret = pwritev(fd, &iov, 1, off); break;
	}
	v->ret = ret;
	v->err = errno;
	it.it_value.tv_sec = it.it_value.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);

	/* Which bytes must have moved: ret of them (if ret > 0). */
	v->content_ok = 1;
	if (!is_write) {
		long got = ret > 0 ? ret : 0;

		for (i = 0; i < k && v->content_ok; i++) {
			unsigned char want = i < got ? file_byte(off + i) : user_byte(i);

			if (buf[i] != want) {
				v->content_ok = 0;
				snprintf(v->why, sizeof(v->why), "user byte %ld is %#x, want %#x%s", i,
					 buf[i], want, i < got ? "" : " (past the count)");
			}
		}
		for (i = 0; i < page - k && v->content_ok; i++)
			if (map[i] != 0xee) {
				v->content_ok = 0;
				snprintf(v->why, sizeof(v->why), "byte before the buffer changed");
			}
	} else {
		unsigned char b[8192];
		long want_n = k + 64, got = ret > 0 ? ret : 0;

		if (pread(fd, b, want_n, off) != want_n)
			_exit(5);
		for (i = 0; i < want_n && v->content_ok; i++) {
			unsigned char want = i < got ? user_byte(i) : file_byte(off + i);

			if (b[i] != want) {
				v->content_ok = 0;
				snprintf(v->why, sizeof(v->why), "file byte %ld is %#x, want %#x%s", off + i,
					 b[i], want, i < got ? "" : " (past the count)");
			}
		}
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	struct verdict *v;
	int opt, failures = 0;

	while ((opt = getopt(argc, argv, "vt:")) != -1) {
		if (opt == 'v')
			verbose = 1;
		else if (opt == 't')
			watchdog_ms = atoi(optarg);
		else {
			fprintf(stderr, "usage: uaedge [-v] [-t WATCHDOG_MS]\n");
			return 2;
		}
	}
	page = sysconf(_SC_PAGESIZE);
	reset_file();
	v = mmap(NULL, sizeof(*v), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (v == MAP_FAILED)
		return 2;

	for (int op = 0; op < NR_OPS; op++) {
		for (int bad = 0; bad < NR_BAD; bad++) {
			int cases = 0, bad_cases = 0, hangs = 0, shown = 0;

			for (size_t a = 0; a < sizeof(ks) / sizeof(ks[0]); a++)
			for (size_t b = 0; b < sizeof(extras) / sizeof(extras[0]); b++)
			for (size_t c = 0; c < sizeof(offs) / sizeof(offs[0]); c++) {
				long k = ks[a], len = k + extras[b], off = offs[c], want;
				char what[160];
				int status, ok;
				pid_t pid;

				if (op >= OP_WRITE)
					reset_file();
				memset(v, 0, sizeof(*v));
				v->ret = -999;
				pid = fork();
				if (pid < 0)
					return 2;
				if (pid == 0)
					child(op, bad, k, len, off, v);
				waitpid(pid, &status, 0);
				cases++;
				want = k ? k : -1;
				if (WIFSIGNALED(status)) {
					ok = 0;
					hangs += WTERMSIG(status) == SIGALRM;
					snprintf(what, sizeof(what), "%s",
						 WTERMSIG(status) == SIGALRM ? "no return (killed by the watchdog)"
									      : strsignal(WTERMSIG(status)));
				} else if (WEXITSTATUS(status)) {
					ok = 0;
					snprintf(what, sizeof(what), "test setup failed (%d)", WEXITSTATUS(status));
				} else {
					ok = v->ret == want && (want > 0 || v->err == EFAULT) && v->content_ok;
					snprintf(what, sizeof(what), "returned %ld%s%s, want %ld%s%s%s", v->ret,
						 v->ret < 0 ? " " : "", v->ret < 0 ? strerror(v->err) : "",
						 want, want < 0 ? " EFAULT" : "",
						 v->content_ok ? "" : "; ", v->content_ok ? "" : v->why);
				}
				if (!ok) {
					bad_cases++;
					if (verbose || shown < 4) {
						printf("    %s %s k=%ld len=%ld off=%ld: %s\n", op_name[op],
						       bad_name[bad], k, len, off, what);
						shown++;
					}
				}
			}
			printf("UTEST %s uaedge:%s:%s (%d cases, %d wrong, %d never returned)\n",
			       bad_cases ? "FAIL" : "PASS", op_name[op], bad_name[bad], cases,
			       bad_cases, hangs);
			failures += bad_cases != 0;
		}
	}
	return failures ? 1 : 0;
}
