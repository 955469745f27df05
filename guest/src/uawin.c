/*
 * uawin: a get_user()/put_user() must reach the calling process's own
 * page, never a page of another process that has a user_access_begin()
 * window open at the same user address on the CPU the caller ran on a
 * moment ago.
 *
 * Every process maps its own page at one fixed address, ADDR.
 *  - Holders loop poll() over 512 pollfds (fd -1) filling that page: poll
 *    writes each revents inside one user_write_access_begin() window on
 *    the page.  After each call every fd field must still be -1.
 *  - Writers loop ioctl(FIONREAD) on a pipe holding a count of bytes of
 *    their own into an int at ADDR + 8 * k (the offset of pollfd k's fd
 *    field): a put_user().  The int must then hold that count.
 *  - Readers loop FUTEX_WAIT with a zero timeout on ADDR + 8 * k, whose
 *    value they know: a get_user().  ETIMEDOUT is right; EAGAIN means the
 *    kernel read another value, i.e. another page.
 *  - A migrator moves writers and readers between CPU 0 and 1 without
 *    pause, so that they are preempted and moved inside the accessors.
 * Runs in direct and in pinned (each for half of -T seconds); both must
 * show no foreign write, lost write or foreign read.  Needs 2 CPUs in
 * real time: make check's race boot runs it, make soak for longer.
 *
 *   uawin [-T seconds] [-m mode]
 */
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include <time.h>
#include "uamode.h"

#define ADDR	((void *)0x50000000UL)
#define NFDS	512	/* 8 bytes each: one page */
#define HOLDERS	2
#define WRITERS	3
#define READERS	1

struct shared {
	volatile int stop;
	unsigned long foreign_w;	/* a holder found a foreign value */
	unsigned long foreign_v;	/* the last one it found */
	unsigned long lost_w;		/* a writer's value was not in its page */
	unsigned long foreign_r;	/* a reader's futex saw another value */
	unsigned long writes, reads, polls, moves;
	unsigned long errors;		/* a call failed unexpectedly */
};

static struct shared *sh;

static void *map_own_page(void)
{
	void *p = mmap(ADDR, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	if (p != ADDR) {
		perror("mmap ADDR");
		exit(2);
	}
	return p;
}

static void holder(void)
{
	struct pollfd *pfd = map_own_page();
	unsigned long n = 0;
	int i;

	for (i = 0; i < NFDS; i++)
		pfd[i] = (struct pollfd){ .fd = -1, .events = POLLIN };
	while (!sh->stop) {
		if (poll(pfd, NFDS, 0) < 0)
			__sync_fetch_and_add(&sh->errors, 1);
		for (i = 0; i < NFDS; i++) {
			if (pfd[i].fd == -1 && pfd[i].events == POLLIN)
				continue;
			__sync_fetch_and_add(&sh->foreign_w, 1);
			sh->foreign_v = (unsigned int)pfd[i].fd;
			pfd[i] = (struct pollfd){ .fd = -1, .events = POLLIN };
		}
		n++;
	}
	__sync_fetch_and_add(&sh->polls, n);
	exit(0);
}

static void writer(int w)
{
	int *page = map_own_page(), p[2], want = 1000 + w, got;
	unsigned long n = 0;
	char buf[1024] = { 0 };

	if (pipe(p) || write(p[1], buf, want) != want) {
		perror("pipe");
		exit(2);
	}
	while (!sh->stop) {
		int *slot = page + 2 * (n % NFDS);

		*slot = -7;
		if (ioctl(p[0], FIONREAD, slot))
			__sync_fetch_and_add(&sh->errors, 1);
		got = *slot;
		if (got != want)
			__sync_fetch_and_add(&sh->lost_w, 1);
		n++;
	}
	__sync_fetch_and_add(&sh->writes, n);
	exit(0);
}

static void reader(int r)
{
	uint32_t *page = map_own_page();
	struct timespec zero = { 0, 0 };
	unsigned long n = 0;
	int i;

	for (i = 0; i < 1024; i++)
		page[i] = 0x5eed0000u + r * 0x1000 + i;
	while (!sh->stop) {
		uint32_t *slot = page + 2 * (n % NFDS);
		long rc = syscall(SYS_futex, slot, FUTEX_WAIT_PRIVATE, *slot,
				  &zero, NULL, 0);

		if (rc == 0 || errno != ETIMEDOUT) {
			if (rc < 0 && errno == EAGAIN)
				__sync_fetch_and_add(&sh->foreign_r, 1);
			else if (rc < 0 && errno != EINTR)
				__sync_fetch_and_add(&sh->errors, 1);
		}
		n++;
	}
	__sync_fetch_and_add(&sh->reads, n);
	exit(0);
}

static void migrator(pid_t *pids, int n)
{
	unsigned long moves = 0;
	cpu_set_t set;
	int i;

	while (!sh->stop) {
		for (i = 0; i < n; i++) {
			CPU_ZERO(&set);
			CPU_SET((moves + i) & 1, &set);
			if (!sched_setaffinity(pids[i], sizeof(set), &set))
				moves++;
		}
	}
	sh->moves = moves;
	exit(0);
}

static pid_t spawn(void (*fn)(int), int arg)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!pid)
		fn(arg);
	return pid;
}

static void holder_fn(int unused) { (void)unused; holder(); }
static void writer_fn(int w) { writer(w); }
static void reader_fn(int r) { reader(r); }

/* One run in @mode for @secs seconds: 0 if nothing went astray. */
static int run(const char *mode, int secs)
{
	pid_t pids[HOLDERS + WRITERS + READERS], mig;
	int i, n = 0, st, bad;

	if (strcmp(mode, "stock")) {
		int err = set_mode(mode);

		if (err) {
			printf("UTEST SKIP uawin:%s (mode not available: %s)\n",
			       mode, strerror(err));
			return 0;
		}
	}
	memset((void *)sh, 0, sizeof(*sh));
	for (i = 0; i < HOLDERS; i++)
		pids[n++] = spawn(holder_fn, i);
	for (i = 0; i < WRITERS; i++)
		pids[n++] = spawn(writer_fn, i);
	for (i = 0; i < READERS; i++)
		pids[n++] = spawn(reader_fn, i);
	/* Holders stay where the scheduler puts them; the others move. */
	mig = fork();
	if (!mig)
		migrator(pids + HOLDERS, n - HOLDERS);
	sleep(secs);
	sh->stop = 1;
	for (i = 0; i < n; i++)
		waitpid(pids[i], &st, 0);
	waitpid(mig, &st, 0);
	bad = sh->foreign_w || sh->lost_w || sh->foreign_r;
	printf("UTEST %s uawin:%s (%lus: %lu puts, %lu gets, %lu polls, %lu moves;"
	       " foreign writes %lu (last 0x%lx), lost writes %lu, foreign reads %lu,"
	       " errors %lu)\n", bad || sh->errors ? "FAIL" : "PASS", mode,
	       (unsigned long)secs, sh->writes, sh->reads, sh->polls, sh->moves,
	       sh->foreign_w, sh->foreign_v, sh->lost_w, sh->foreign_r, sh->errors);
	if (!sh->writes || !sh->reads || !sh->polls || !sh->moves) {
		printf("UTEST FAIL uawin:%s:ran (a kind of process did nothing)\n", mode);
		return 1;
	}
	return bad || sh->errors;
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	int secs = 30, opt, rc = 0;

	while ((opt = getopt(argc, argv, "T:m:")) != -1) {
		switch (opt) {
		case 'T':
			secs = atoi(optarg);
			break;
		case 'm':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: uawin [-T seconds] [-m mode]\n");
			return 2;
		}
	}
	if (secs < 2)
		secs = 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	if (only) {
		rc |= run(only, secs);
	} else if (access(MODE_FILE, F_OK)) {
		/* A stock kernel: its own routines only. */
		rc |= run("stock", secs);
	} else {
		rc |= run("direct", secs / 2);
		rc |= run("pinned", secs - secs / 2);
		set_mode("direct");
	}
	return rc;
}
