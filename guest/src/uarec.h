/*
 * uarec.h: the harness shared by uacmp and uastale.  Every case runs once
 * per uaccess mode (switched through uamode.h) in a forked child under a
 * watchdog.  The child fills a record: for every syscall it makes, the
 * return value, errno and a hash of the bytes it produced, and the checks
 * that failed.  The parent prints what went wrong in each run and requires
 * the records of the two modes to be identical.
 *
 * PROG (the program's name in its UTEST lines), MAXOBS (records kept per
 * run) and FAIL_SIZE (bytes of failure text per run) must be defined first.
 */
#ifndef UAREC_H
#define UAREC_H

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include "uamode.h"

/* ---- the record a case run produces ---------------------------------- */

struct obs {
	char what[56];
	long ret;
	int err;
	uint32_t hash;
};
struct rec {
	int nobs, overflow, nfail, done, skip;
	struct obs obs[MAXOBS];
	char fail[FAIL_SIZE];
	char skipwhy[160];
};

static struct rec *R;		/* the current child's record (shared mapping) */
static int verbose;
static int E;			/* errno of the last DO() */
static int quiet;		/* loops: records folded into acc, not kept one by one */
static uint32_t acc;

#define DO(expr) ({ errno = 0; long r_ = (long)(expr); E = r_ < 0 ? errno : 0; r_; })
#define ANY (-1000)		/* do not check the return value */
#define HASH_NONE NULL, 0

static uint32_t fnv_more(uint32_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--) {
		h ^= *b++;
		h *= 16777619u;
	}
	return h;
}

static uint32_t fnv(const void *p, size_t n)
{
	return fnv_more(2166136261u, p, n);
}

static const char *L(const char *fmt, ...)
{
	static char ring[16][128];
	static int i;
	char *s = ring[i++ & 15];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s, sizeof(ring[0]), fmt, ap);
	va_end(ap);
	return s;
}

static void failf(const char *fmt, ...)
{
	size_t used = strlen(R->fail);
	va_list ap;

	R->nfail++;
	if (used + 8 >= sizeof(R->fail))
		return;
	if (used)
		used += snprintf(R->fail + used, sizeof(R->fail) - used, "; ");
	va_start(ap, fmt);
	vsnprintf(R->fail + used, sizeof(R->fail) - used, fmt, ap);
	va_end(ap);
}

/* Record what a syscall did: its result and a hash h of the bytes it produced. */
static void note_h(const char *what, long ret, int err, uint32_t h)
{
	struct obs *o;

	if (quiet) {
		acc = fnv_more(acc, &ret, sizeof(ret));
		acc = fnv_more(acc, &err, sizeof(err));
		acc = fnv_more(acc, &h, sizeof(h));
		return;
	}
	if (R->nobs >= MAXOBS) {
		R->overflow = 1;
		return;
	}
	o = &R->obs[R->nobs++];
	snprintf(o->what, sizeof(o->what), "%s", what);
	o->ret = ret;
	o->err = err;
	o->hash = h;
}

static void note(const char *what, long ret, int err, const void *p, size_t n)
{
	note_h(what, ret, err, p ? fnv(p, n) : 0);
}

static const char *rstr(long ret, int err)
{
	return ret < 0 ? L("%ld %s", ret, strerrorname_np(err) ? strerrorname_np(err) : "?")
		       : L("%ld", ret);
}

/*
 * Record and check: wret >= 0 wants that return value, wret == -1 wants a
 * failure with errno werr, ANY checks nothing.
 */
static void ck(const char *what, long ret, int err, long wret, int werr, const void *p, size_t n)
{
	note(what, ret, err, p, n);
	if (wret == ANY)
		return;
	if (wret >= 0 ? ret != wret : (ret != -1 || err != werr))
		failf("%s: returned %s, want %s", what, rstr(ret, err),
		      wret >= 0 ? L("%ld", wret) : L("-1 %s", strerrorname_np(werr)));
}

/* Loops: fold the records from here on into one hash ... */
static inline void quiet_begin(void)
{
	quiet = 1;
	acc = 2166136261u;
}

/* ... and keep that as one record. */
static inline void quiet_end(const char *what, long n)
{
	quiet = 0;
	note_h(what, n, 0, acc);
}

/* Setup failures inside a case are not kernel verdicts: exit loudly. */
static void die(const char *what)
{
	failf("setup: %s: %s", what, strerror(errno));
	_exit(3);
}

/* ---- the cases, run once per mode ------------------------------------- */

struct tcase {
	char name[48];
	void (*fn)(int, int);	/* runs as fn(a, b) */
	int a, b;
	int variant;		/* the program's own, for case_start() */
};

static struct tcase cases[80];
static int ncases;

static void add(const char *name, void (*fn)(int, int), int a, int b)
{
	snprintf(cases[ncases].name, sizeof(cases[0].name), "%s", name);
	cases[ncases].fn = fn;
	cases[ncases].a = a;
	cases[ncases].b = b;
	ncases++;
}

/* The program's own preparation in the child, right before case c runs (or NULL). */
static void (*case_start)(const struct tcase *c);

static int watchdog_s = 60;
static const char *modes[2];
static int nmodes, have_modefile;
static char orig_mode[32];
static struct rec *recs;	/* one per mode, shared with the children */
static double run_secs;		/* how long run_modes() took to run the case */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* waitpid with a timeout (SIGCHLD is blocked in the parent) */
static int reap(pid_t pid, int *status, int ms)
{
	sigset_t s;
	struct timespec ts;
	double end = now() + ms / 1000.0;

	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	for (;;) {
		double left;

		if (waitpid(pid, status, WNOHANG) == pid)
			return 0;
		left = end - now();
		if (left <= 0)
			return -1;
		if (left > 0.1)
			left = 0.1;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		sigtimedwait(&s, NULL, &ts);
	}
}

/* Run case c under mode index mi; returns a problem string or NULL. */
static const char *run_one(const struct tcase *c, int mi)
{
	static char why[160];
	struct rec *rc = &recs[mi];
	int status, err;
	pid_t pid;

	if (have_modefile && (err = set_mode(modes[mi]))) {
		snprintf(why, sizeof(why), "cannot switch to mode %s: %s", modes[mi], strerror(err));
		return why;
	}
	memset(rc, 0, sizeof(*rc));
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(why, sizeof(why), "fork: %s", strerror(errno));
		return why;
	}
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		R = rc;
		if (case_start)
			case_start(c);
		alarm(watchdog_s);
		c->fn(c->a, c->b);
		R->done = 1;
		_exit(0);
	}
	if (reap(pid, &status, (watchdog_s + 5) * 1000)) {
		kill(pid, SIGKILL);
		if (reap(pid, &status, 10000)) {
			snprintf(why, sizeof(why), "hung and could not be killed (mode %s)", modes[mi]);
			return why;
		}
		snprintf(why, sizeof(why), "hung: killed after %ds (mode %s)", watchdog_s + 5, modes[mi]);
		return why;
	}
	if (WIFSIGNALED(status)) {
		snprintf(why, sizeof(why), "%s (mode %s)%s",
			 WTERMSIG(status) == SIGALRM ? "hung: the watchdog fired" : strsignal(WTERMSIG(status)),
			 modes[mi], rc->nobs ? L(" after '%s'", rc->obs[rc->nobs - 1].what) : "");
		return why;
	}
	if (WEXITSTATUS(status) || !rc->done) {
		snprintf(why, sizeof(why), "child exit %d (mode %s)%s", WEXITSTATUS(status), modes[mi],
			 rc->nfail ? "" : ", no result");
		return rc->nfail ? NULL : why;
	}
	return NULL;
}

/* What run_modes() found; for RUN_SKIP and RUN_DIFFER it printed the verdict. */
enum { RUN_PASS, RUN_FAIL, RUN_SKIP, RUN_DIFFER };

/*
 * Run case c once per mode and print what went wrong in each run (with -v
 * every record).  A case that skipped itself gets its SKIP line here, and
 * so does a FAIL for records that differ between the modes; whether the
 * runs passed or failed is the program's to print.  fail_max: 0 prints a
 * run's failed checks as they are, else their count and at most fail_max
 * characters of them.
 */
static int run_modes(const struct tcase *c, int fail_max)
{
	char problem[2][160] = { "", "" };	/* run_one()'s answer is overwritten by the next */
	int failed = 0;
	double t0 = now();

	for (int mi = 0; mi < nmodes; mi++) {
		const char *why = run_one(c, mi);

		if (why)
			snprintf(problem[mi], sizeof(problem[mi]), "%s", why);
	}
	run_secs = now() - t0;
	for (int mi = 0; mi < nmodes; mi++) {
		if (problem[mi][0]) {
			printf("    %s: %s\n", c->name, problem[mi]);
			failed = 1;
		}
		if (recs[mi].nfail) {
			if (fail_max)
				printf("    [%s] %d failed: %.*s\n", modes[mi], recs[mi].nfail, fail_max,
				       recs[mi].fail);
			else
				printf("    [%s] %s\n", modes[mi], recs[mi].fail);
			failed = 1;
		}
		if (recs[mi].overflow)
			printf("    [%s] note: more than %d records, the rest not compared\n", modes[mi], MAXOBS);
		if (verbose)
			for (int i = 0; i < recs[mi].nobs; i++)
				printf("      [%s] %-48s %-16s %08x\n", modes[mi], recs[mi].obs[i].what,
				       rstr(recs[mi].obs[i].ret, recs[mi].obs[i].err), recs[mi].obs[i].hash);
	}
	if (recs[0].skip && !failed) {
		printf("UTEST SKIP " PROG ":%s (%s)\n", c->name, recs[0].skipwhy);
		return RUN_SKIP;
	}
	if (nmodes == 2 && !problem[0][0] && !problem[1][0]) {
		struct rec *a = &recs[0], *b = &recs[1];
		int n = a->nobs > b->nobs ? a->nobs : b->nobs, diffs = 0;

		for (int i = 0; i < n; i++) {
			struct obs *x = i < a->nobs ? &a->obs[i] : NULL, *y = i < b->nobs ? &b->obs[i] : NULL;

			if (x && y && !strcmp(x->what, y->what) && x->ret == y->ret && x->err == y->err &&
			    x->hash == y->hash)
				continue;
			if (diffs++ < 4)
				printf("    differ: %s: %s %s hash %08x | %s %s hash %08x\n",
				       x ? x->what : y->what, modes[0], x ? rstr(x->ret, x->err) : "(none)",
				       x ? x->hash : 0, modes[1], y ? rstr(y->ret, y->err) : "(none)",
				       y ? y->hash : 0);
		}
		if (diffs) {
			printf("UTEST FAIL " PROG ":%s (%s and %s differ in %d of %d records)\n", c->name,
			       modes[0], modes[1], diffs, n);
			return RUN_DIFFER;
		}
	}
	return failed ? RUN_FAIL : RUN_PASS;
}

/*
 * Run every case, or with CASE-SUBSTRINGs after the options those whose
 * name holds one, through run(): returns the failures, *ran the cases run.
 */
static int run_cases(int argc, char **argv, int (*run)(const struct tcase *), int *ran)
{
	int failures = 0;

	for (int i = 0; i < ncases; i++) {
		int want = optind >= argc;

		for (int j = optind; j < argc; j++)
			want |= strstr(cases[i].name, argv[j]) != NULL;
		if (!want)
			continue;
		failures += run(&cases[i]);
		++*ran;
	}
	return failures;
}

/* ---- the modes, the start and the end ----------------------------------- */

/*
 * The mode file is there: keep the mode found (restore_mode() puts it back)
 * and say it; 1 under uaccess_strict.  An unreadable mode file is a FAIL of
 * PROG:failname, and the end.
 */
static int start_modes(const char *failname)
{
	char s[8] = "0";

	have_modefile = 1;
	if (read_small(MODE_FILE, orig_mode, sizeof(orig_mode))) {
		printf("UTEST FAIL " PROG ":%s (cannot read %s)\n", failname, MODE_FILE);
		exit(1);
	}
	read_small(STRICT_FILE, s, sizeof(s));
	printf(PROG ": mode at start '%s', strict %s\n", orig_mode, s);
	return !strcmp(s, "1");
}

/* The modes to run the cases in: those of direct, pinned that can be set. */
static void pick_modes(int strict)
{
	for (int i = strict; i < 2; i++) {	/* strict: pinned only */
		const char *want = i ? "pinned" : "direct";
		int err = set_mode(want);

		if (!err)
			modes[nmodes++] = want;
		else
			printf(PROG ": mode %s not available: %s\n", want, strerror(err));
	}
}

static void restore_mode(void)
{
	if (have_modefile && orig_mode[0] && set_mode(orig_mode))
		printf(PROG ": could not restore mode %s\n", orig_mode);
}

/* The records, and SIGCHLD blocked for reap(): 0, or -1. */
static int rec_init(void)
{
	sigset_t chld;

	recs = mmap(NULL, 2 * sizeof(struct rec), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (recs == MAP_FAILED)
		return -1;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	return 0;
}

/*
 * No pin may be left outstanding at the end: 1 if one is (a FAIL).  Without
 * the pins file (a kernel that does not count them) nothing to check, and
 * with say_skip a SKIP line says so.
 */
static int pins_verdict(int say_skip)
{
	long out;

	if (access(PINS_FILE, F_OK)) {
		if (say_skip)
			printf("UTEST SKIP " PROG ":pins (no pins file: this kernel does not count pins)\n");
		return 0;
	}
	out = pins_outstanding();
	printf("UTEST %s " PROG ":pins (outstanding %ld)\n", out == 0 ? "PASS" : "FAIL", out);
	return out != 0;
}

#endif
