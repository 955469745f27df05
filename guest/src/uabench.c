// SPDX-License-Identifier: GPL-2.0
/*
 * uabench - the uapin guest benchmark suite.
 *
 * Runs every workload once per uaccess strategy ("mode") per round, modes
 * interleaved inside each round so that all of them see the same machine
 * state, and prints the median of the rounds as
 *
 *	RESULT <mode> <workload> <parameter> <value> <unit>
 *
 * Modes are switched through /sys/kernel/debug/uaccess/mode; on a kernel
 * without that file only "direct" (the stock routines) exists.  Time is
 * CLOCK_MONOTONIC: under qemu -icount shift=0 one nanosecond is one guest
 * instruction, so figures repeat from run to run; what still varies is
 * where timer ticks and other interrupts land in a measurement window,
 * which only ever adds instructions.  So under icount the best round is
 * the estimate of a workload's own cost (-s best); in wall-clock runs the
 * median is (-s median, the default).
 *
 * usage: uabench [-r ROUNDS] [-s median|best] [-m MODE,MODE...] [-w WORKLOAD-PREFIX]... [-l]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MODE_FILE "/sys/kernel/debug/uaccess/mode"
#define WORKDIR "/tmp/uabench"
#define TMPFS_FILE WORKDIR "/data"
#define TMPFS_BYTES (4u << 20)	/* bytes moved per dd-style measurement */
#define DIR_ENTRIES 1000
#define RAMDISK "/dev/ram0"
#define CACHED_BYTES (2u << 20)	/* hdparm -T reads 2 MiB blocks */
#define MAX_MODES 8
#define MAX_ROUNDS 64

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "uabench: ");
	vfprintf(stderr, fmt, ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ---- modes ---------------------------------------------------------- */

static int have_mode_file(void)
{
	return access(MODE_FILE, W_OK) == 0;
}

static int set_mode(const char *mode)
{
	int fd, ret = 0;

	if (!have_mode_file())
		return strcmp(mode, "direct") == 0 ? 0 : -1;
	fd = open(MODE_FILE, O_WRONLY);
	if (fd < 0)
		return -1;
	if (write(fd, mode, strlen(mode)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

static void get_mode(char *buf, size_t len)
{
	int fd = open(MODE_FILE, O_RDONLY);
	ssize_t n;

	snprintf(buf, len, "direct");
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

/* ---- workloads ------------------------------------------------------ */

struct result {
	double value;
	const char *unit;
};

static char *bufbase;

/* A user buffer for bs bytes starting 'off' bytes past a page boundary. */
static char *userbuf(size_t bs, size_t off)
{
	memset(bufbase, 0x5a, bs + off);	/* fault it in, untimed */
	return bufbase + off;
}

/*
 * One untimed call of the measured kind on the measured buffer, then back
 * to the start of the file.  dd and hdparm -T run for seconds on one
 * buffer; a measurement here moves only a few MiB, right after the mode
 * switch, so without this the first pass over the buffer (page-table
 * walks that fill the pinned engine's TLB) would weigh as if every dd
 * ran for 4 MiB.
 */
static void warm_up(int fd, char *buf, size_t bs, int write_it)
{
	ssize_t n = write_it ? write(fd, buf, bs) : read(fd, buf, bs);

	if (n != (ssize_t)bs || lseek(fd, 0, SEEK_SET) != 0)
		die("warm-up %s of %zu bytes", write_it ? "write" : "read", bs);
}

static struct result tmpfs_io(long bs, int write_it, size_t off)
{
	int fd = open(TMPFS_FILE, O_RDWR);
	char *buf = userbuf(bs, off);
	uint64_t t0, t1;
	size_t done;

	if (fd < 0)
		die("open %s", TMPFS_FILE);
	warm_up(fd, buf, bs, write_it);
	t0 = now_ns();
	for (done = 0; done < TMPFS_BYTES; done += bs) {
		ssize_t n = write_it ? write(fd, buf, bs) : read(fd, buf, bs);

		if (n != bs)
			die("%s bs=%ld returned %zd", write_it ? "write" : "read", bs, n);
	}
	t1 = now_ns();
	close(fd);
	return (struct result){ TMPFS_BYTES * 1e3 / (double)(t1 - t0), "MB/s" };
}

static struct result w_tmpfs_read(long bs) { return tmpfs_io(bs, 0, 0); }
static struct result w_tmpfs_read_mis(long bs) { return tmpfs_io(bs, 0, 100); }
static struct result w_tmpfs_write(long bs) { return tmpfs_io(bs, 1, 0); }
static struct result w_tmpfs_write_mis(long bs) { return tmpfs_io(bs, 1, 100); }

/* hdparm -T: read 2 MiB blocks from the block device's page cache. */
static struct result w_cached_read(long reps)
{
	int fd = open(RAMDISK, O_RDONLY);
	char *buf = userbuf(CACHED_BYTES, 0);
	uint64_t t0, t1;
	long i;

	if (fd < 0)
		die("open %s", RAMDISK);
	warm_up(fd, buf, CACHED_BYTES, 0);
	t0 = now_ns();
	for (i = 0; i < reps; i++) {
		if (lseek(fd, 0, SEEK_SET) != 0 ||
		    read(fd, buf, CACHED_BYTES) != (ssize_t)CACHED_BYTES)
			die("read %s", RAMDISK);
	}
	t1 = now_ns();
	close(fd);
	return (struct result){ (double)CACHED_BYTES * reps * 1e3 / (t1 - t0), "MB/s" };
}

/* /dev/zero: clear_user() on the read side. */
static struct result w_zero_read(long bs)
{
	int fd = open("/dev/zero", O_RDONLY);
	char *buf = userbuf(bs, 0);
	uint64_t t0, t1;
	size_t done;

	if (fd < 0)
		die("open /dev/zero");
	warm_up(fd, buf, bs, 0);
	t0 = now_ns();
	for (done = 0; done < TMPFS_BYTES; done += bs)
		if (read(fd, buf, bs) != bs)
			die("read /dev/zero");
	t1 = now_ns();
	close(fd);
	return (struct result){ TMPFS_BYTES * 1e3 / (double)(t1 - t0), "MB/s" };
}

/* The null system call: entry and exit, no user memory touched. */
static struct result w_getppid(long calls)
{
	uint64_t t0, t1;
	long i;

	t0 = now_ns();
	for (i = 0; i < calls; i++)
		syscall(SYS_getppid);
	t1 = now_ns();
	return (struct result){ (t1 - t0) / 1e3 / calls, "us/call" };
}

static struct result w_stat(long calls)
{
	struct stat st;
	uint64_t t0, t1;
	long i;

	t0 = now_ns();
	for (i = 0; i < calls; i++)
		if (stat(TMPFS_FILE, &st))
			die("stat");
	t1 = now_ns();
	return (struct result){ (t1 - t0) / 1e3 / calls, "us/call" };
}

/* One scan = rewind + getdents64 until it returns 0. */
static struct result w_getdents(long entries)
{
	static char dbuf[32768];
	int fd = open(WORKDIR "/dir", O_RDONLY | O_DIRECTORY);
	uint64_t t0, t1;
	long seen = 0, scans = 20, i;

	if (fd < 0)
		die("open dir");
	memset(dbuf, 0, sizeof(dbuf));
	t0 = now_ns();
	for (i = 0; i < scans; i++) {
		long n;

		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, dbuf, sizeof(dbuf))) > 0)
			seen += n;
		if (n < 0)
			die("getdents64");
	}
	t1 = now_ns();
	close(fd);
	if (seen < entries * scans * 20)
		die("getdents64 saw only %ld bytes for %ld entries", seen / scans, entries);
	return (struct result){ (t1 - t0) / 1e3 / scans, "us/scan" };
}

/* Two processes bounce a message through two pipes. */
static struct result w_pipe(long msg)
{
	int a[2], b[2], trips = 2000, i;
	char buf[4096];
	uint64_t t0, t1;
	pid_t pid;

	if (pipe(a) || pipe(b))
		die("pipe");
	memset(buf, 1, sizeof(buf));
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		for (i = 0; i < trips; i++)
			if (read(a[0], buf, msg) != msg || write(b[1], buf, msg) != msg)
				_exit(1);
		_exit(0);
	}
	t0 = now_ns();
	for (i = 0; i < trips; i++)
		if (write(a[1], buf, msg) != msg || read(b[0], buf, msg) != msg)
			die("pipe ping-pong");
	t1 = now_ns();
	waitpid(pid, NULL, 0);
	close(a[0]); close(a[1]); close(b[0]); close(b[1]);
	return (struct result){ (t1 - t0) / 1e3 / trips, "us/roundtrip" };
}

/* Two threads hand a token back and forth with FUTEX_WAIT/FUTEX_WAKE. */
static volatile int futex_word;
static long futex_trips;

static void fwait(int val)
{
	while (__atomic_load_n(&futex_word, __ATOMIC_ACQUIRE) == val)
		syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void fset(int val)
{
	__atomic_store_n(&futex_word, val, __ATOMIC_RELEASE);
	syscall(SYS_futex, &futex_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *futex_peer(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < futex_trips; i++) {
		fwait(0);
		fset(0);
	}
	return NULL;
}

/*
 * Both threads SCHED_FIFO (the peer inherits it): a wakeup then never
 * preempts the waker, so each hop is one FUTEX_WAKE, one FUTEX_WAIT and one
 * switch.  Under SCHED_OTHER, 7.x's EEVDF sometimes preempts the waker
 * before it waits (a second switch, a FUTEX_WAIT that finds the value
 * changed), and on one vCPU a run settles in one pattern or the other:
 * the same kernel measured 8.1 to 9.4 us a round trip from boot to boot.
 */
static struct result w_futex(long trips)
{
	struct sched_param fifo = { .sched_priority = 1 }, other = { 0 };
	pthread_t th;
	uint64_t t0, t1;
	long i;

	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		die("sched_setscheduler(SCHED_FIFO)");
	futex_word = 0;
	futex_trips = trips;
	if (pthread_create(&th, NULL, futex_peer, NULL))
		die("pthread_create");
	t0 = now_ns();
	for (i = 0; i < trips; i++) {
		fset(1);
		fwait(1);
	}
	t1 = now_ns();
	pthread_join(th, NULL);
	sched_setscheduler(0, SCHED_OTHER, &other);
	return (struct result){ (t1 - t0) / 1e3 / trips, "us/roundtrip" };
}

/* Run a program, return its stdout+stderr in buf. */
static int run_capture(char *const argv[], char *buf, size_t len)
{
	int p[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while (got < len - 1 && (n = read(p[0], buf + got, len - 1 - got)) > 0)
		got += n;
	buf[got] = 0;
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * rt-tests hackbench (unix sockets by default, -p for pipes): "Time: <s>",
 * printed in ms: 1000 loops make that about 0.3 s, so the ms resolution
 * is 0.3% (with 100 loops the ratios moved in steps of 3.5%).
 */
static struct result hackbench(int pipes)
{
	char *argv[] = { "hackbench", "-g", "4", "-f", "5", "-l", "1000",
			 pipes ? "-p" : NULL, NULL };
	char out[4096], *t;

	if (run_capture(argv, out, sizeof(out)) != 0)
		die("hackbench failed:\n%s", out);
	t = strstr(out, "Time:");
	if (!t)
		die("hackbench printed no time:\n%s", out);
	return (struct result){ strtod(t + 5, NULL) * 1e3, "ms" };
}

static struct result w_hackbench_pipe(long unused) { (void)unused; return hackbench(1); }
static struct result w_hackbench_sock(long unused) { (void)unused; return hackbench(0); }

/* busybox dd as a cross-check of the tmpfs figures: time the whole command. */
static struct result dd_cmd(long bs, int write_it)
{
	char bsarg[32], cnt[32], out[4096];
	char *argv[] = { "dd", write_it ? "if=/dev/zero" : "if=" TMPFS_FILE,
			 write_it ? "of=" TMPFS_FILE : "of=/dev/null", bsarg, cnt,
			 write_it ? "conv=notrunc" : NULL, NULL };
	uint64_t t0, t1;

	snprintf(bsarg, sizeof(bsarg), "bs=%ld", bs);
	snprintf(cnt, sizeof(cnt), "count=%ld", (long)(TMPFS_BYTES / bs));
	t0 = now_ns();
	if (run_capture(argv, out, sizeof(out)) != 0)
		die("dd failed:\n%s", out);
	t1 = now_ns();
	return (struct result){ TMPFS_BYTES * 1e3 / (double)(t1 - t0), "MB/s" };
}

static struct result w_dd_read(long bs) { return dd_cmd(bs, 0); }
static struct result w_dd_write(long bs) { return dd_cmd(bs, 1); }

struct workload {
	const char *name;
	long param;
	struct result (*fn)(long param);
};

#define DD_SIZES(name, fn) \
	{ name, 512, fn }, { name, 1024, fn }, { name, 4096, fn }, \
	{ name, 16384, fn }, { name, 32768, fn }, { name, 65536, fn }, \
	{ name, 1048576, fn }

static const struct workload workloads[] = {
	DD_SIZES("tmpfs-read", w_tmpfs_read),
	DD_SIZES("tmpfs-read-misaligned", w_tmpfs_read_mis),
	DD_SIZES("tmpfs-write", w_tmpfs_write),
	DD_SIZES("tmpfs-write-misaligned", w_tmpfs_write_mis),
	{ "cached-read", 8, w_cached_read },
	{ "zero-read", 4096, w_zero_read },
	{ "zero-read", 65536, w_zero_read },
	{ "getppid", 20000, w_getppid },
	{ "stat", 2000, w_stat },
	{ "getdents64", DIR_ENTRIES, w_getdents },
	{ "pipe-pingpong", 64, w_pipe },
	{ "futex-pingpong", 2000, w_futex },
	{ "hackbench-pipe", 0, w_hackbench_pipe },
	{ "hackbench-socket", 0, w_hackbench_sock },
	{ "dd-read", 512, w_dd_read },
	{ "dd-read", 4096, w_dd_read },
	{ "dd-read", 65536, w_dd_read },
	{ "dd-read", 1048576, w_dd_read },
	{ "dd-write", 512, w_dd_write },
	{ "dd-write", 4096, w_dd_write },
	{ "dd-write", 65536, w_dd_write },
	{ "dd-write", 1048576, w_dd_write },
};
#define NWORK (sizeof(workloads) / sizeof(workloads[0]))

static void setup(void)
{
	char path[256], *buf;
	int fd, i;

	mkdir(WORKDIR, 0755);
	mkdir(WORKDIR "/dir", 0755);
	fd = open(TMPFS_FILE, O_RDWR | O_CREAT | O_TRUNC, 0644);
	buf = malloc(TMPFS_BYTES);
	if (fd < 0 || !buf)
		die("create %s", TMPFS_FILE);
	memset(buf, 0xa5, TMPFS_BYTES);
	if (write(fd, buf, TMPFS_BYTES) != (ssize_t)TMPFS_BYTES)
		die("fill %s", TMPFS_FILE);
	close(fd);
	for (i = 0; i < DIR_ENTRIES; i++) {
		snprintf(path, sizeof(path), WORKDIR "/dir/entry-%05d", i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			die("create %s", path);
		close(fd);
	}
	fd = open(RAMDISK, O_RDWR);
	if (fd < 0)
		die("open %s", RAMDISK);
	if (write(fd, buf, CACHED_BYTES) != (ssize_t)CACHED_BYTES)
		die("fill %s", RAMDISK);
	close(fd);
	free(buf);
	bufbase = mmap(NULL, (2u << 20) + 8192, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bufbase == MAP_FAILED)
		die("mmap");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static double samples[NWORK][MAX_MODES][MAX_ROUNDS];
	static const char *known[] = { "direct", "memcpy", "gup", "pinned" };
	const char *modes[MAX_MODES], *prefixes[32];
	const char *units[NWORK] = { NULL };	/* set by the workloads that ran */
	char saved[64], *list = NULL;
	int nmodes = 0, nprefix = 0, rounds = 3, listonly = 0, best = 0;
	int opt, r, m;
	size_t w, i;

	while ((opt = getopt(argc, argv, "r:s:m:w:l")) != -1) {
		switch (opt) {
		case 'r':
			rounds = atoi(optarg);
			break;
		case 's':
			if (strcmp(optarg, "best") && strcmp(optarg, "median")) {
				fprintf(stderr, "uabench: -s takes best or median\n");
				return 2;
			}
			best = !strcmp(optarg, "best");
			break;
		case 'm':
			list = optarg;
			break;
		case 'w':
			if (nprefix < 32)
				prefixes[nprefix++] = optarg;
			break;
		case 'l':
			listonly = 1;
			break;
		default:
			fprintf(stderr, "usage: uabench [-r ROUNDS] [-s median|best] [-m MODE,...] [-w WORKLOAD]... [-l]\n");
			return 2;
		}
	}
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "uabench: rounds must be 1..%d\n", MAX_ROUNDS);
		return 2;
	}
	get_mode(saved, sizeof(saved));
	if (list) {
		char *tok;

		for (tok = strtok(list, ","); tok && nmodes < MAX_MODES; tok = strtok(NULL, ",")) {
			if (set_mode(tok)) {
				fprintf(stderr, "uabench: this kernel has no uaccess mode '%s'\n", tok);
				return 2;
			}
			modes[nmodes++] = tok;
		}
	} else {
		/* Every mode this kernel accepts. */
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (set_mode(known[i]) == 0)
				modes[nmodes++] = known[i];
	}
	set_mode(saved);
	printf("MODES");
	for (m = 0; m < nmodes; m++)
		printf(" %s", modes[m]);
	printf("\n");
	if (listonly)
		return 0;
	setup();

	for (r = 0; r < rounds; r++) {
		for (w = 0; w < NWORK; w++) {
			int take = nprefix == 0;

			for (i = 0; i < (size_t)nprefix; i++)
				take |= !strncmp(workloads[w].name, prefixes[i], strlen(prefixes[i]));
			if (!take)
				continue;
			for (m = 0; m < nmodes; m++) {
				struct result res;

				if (set_mode(modes[m]))
					die("switching to mode %s", modes[m]);
				res = workloads[w].fn(workloads[w].param);
				samples[w][m][r] = res.value;
				units[w] = res.unit;
			}
		}
		set_mode(saved);
		fprintf(stderr, "uabench: round %d/%d done\n", r + 1, rounds);
	}
	set_mode(saved);

	for (w = 0; w < NWORK; w++) {
		if (!units[w])
			continue;
		for (m = 0; m < nmodes; m++) {
			double *s = samples[w][m], v;

			qsort(s, rounds, sizeof(*s), cmp_double);
			v = s[rounds / 2];
			if (best)	/* highest throughput, or lowest time */
				v = strcmp(units[w], "MB/s") ? s[0] : s[rounds - 1];
			printf("RESULT %s %s %ld %.4f %s min=%.4f max=%.4f\n", modes[m],
			       workloads[w].name, workloads[w].param, v, units[w],
			       s[0], s[rounds - 1]);
		}
	}
	return 0;
}
