// SPDX-License-Identifier: GPL-2.0
/*
 * uarace - once munmap() of one MAP_SHARED alias has returned, no user
 * copy may read or write through it (Al Viro's case against the 2020 RFC:
 * get_user_pages_fast() pins the page just before munmap() removes it,
 * and the copy then goes through a kmap alias after munmap returned).
 *
 * A memfd of LEN bytes is mapped twice, MAP_SHARED: alias1 and alias2.
 *
 * Before every other racing call T1 has the kernel read (write direction)
 * or write (read direction) alias1 once, with the bytes it holds, so that
 * in the pinned mode that call goes through TLB hits, the others through
 * walks (see run()).
 *
 *   write        T1: write(pipe, alias1, LEN).  T2: munmap(alias1), then
 *                fill the pages with a marker through alias2.  Any marker
 *                byte in what write() delivered is a violation.
 *   read         T1: pread(tmpfs file, alias1, LEN).  T2: munmap(alias1),
 *                snapshot the pages through alias2, and once read() has
 *                returned compare: any change is a violation.
 *   write-block  the pipe holds 2 pages: write() copies 2, blocks; T2 sees
 *                them queued (FIONREAD), munmaps, fills the marker, drains.
 *                The rest of the copy happens after munmap by construction;
 *                write() must return exactly 2 pages.
 *   read-block   recv(MSG_WAITALL) on a unix stream socket: T2 sends half,
 *                waits until it has landed, munmaps, snapshots, sends the
 *                rest.  Same by construction, on any number of CPUs; recv()
 *                must return exactly the first half.
 *
 * In the two racing directions T2 waits a self-adjusting, jittered delay
 * so that munmap() returns while the syscall is in flight; an iteration
 * "overlapped" if it did (clock_gettime around both calls) or if the
 * syscall came back short.  Fewer than 1% overlapped iterations is a FAIL
 * (the test proved nothing) on 2+ CPUs, a SKIP on 1 CPU, where two threads
 * never run at once.
 *
 * Modes (through /sys/kernel/debug/uaccess/mode): default every one the
 * kernel accepts of direct, pinned, gup and ref; just direct without the
 * file.  ref is pinned with uaccess/force_ref on: every miss goes through
 * the engine's reference path (interrupt context's, and a task's with
 * interrupts off), which must hold the munmap() guarantee as the walk does.
 * gup is the RFC v1 algorithm and is expected to show violations: they are
 * reported, not failed.  Every other mode must show none.
 *
 * Output per mode and direction:
 *   RACE <mode> <direction> iterations=N overlapped=M violations=V
 *   UTEST PASS|FAIL|SKIP uarace:<mode>:<direction> (...)      (not for gup)
 * and "UTEST PASS|FAIL uarace:pins" (outstanding pins 0) if the pins file exists.
 *
 * usage: uarace [-n ITERATIONS] [-m MODE]... [-d DIRECTION]... [-l LEN] [-T SECONDS] [-v]
 *   -n  iterations of each racing direction (default 5000); the blocked
 *       directions run n/50 (at least 20)
 *   -T  time budget for the whole run (default none): each mode/direction
 *       stops at its share and reports the iterations it did
 *   -X  self-test of the checker: T2 does not really munmap alias1, so the
 *       copies legitimately go on through it and every direction must
 *       FAIL with violations (a run that does not shows a blind checker)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "uamode.h"
#define DATAFILE "/tmp/uarace.data"
#define PRIMEFILE "/tmp/uarace.prime"
#define MARK 0xa5

enum dir { D_WRITE, D_READ, D_WRITE_BLOCK, D_READ_BLOCK, NR_DIRS };
static const char *const dir_name[] = { "write", "read", "write-block", "read-block" };

static long len = 16 * 1024, page;
static double loops_per_us = 1;
static int ncpu, verbose, parallel = 1;

static unsigned char before_byte(long i) { return (unsigned char)((i * 13 + 1) & 0x7f); }
static unsigned char data_byte(long i) { return (unsigned char)(0x80 | ((i * 29 + 5) & 0x7f)); }

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Waiting for the other thread: spin when the threads run side by side;
 * when they take turns, sleep (under -icount a spinning vCPU burns its
 * whole turn, and a sleeping one lets the clock jump).
 */
static void relax(long *spins)
{
	if (!parallel)
		usleep(20);
	else if (++*spins % 256 == 0)
		sched_yield();
}

/* ---- two-thread barrier ------------------------------------------------ */

static int bar_count, bar_gen;

static void barrier(void)
{
	int gen = __atomic_load_n(&bar_gen, __ATOMIC_ACQUIRE);
	long spins = 0;

	if (__atomic_add_fetch(&bar_count, 1, __ATOMIC_ACQ_REL) == 2) {
		__atomic_store_n(&bar_count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&bar_gen, gen + 1, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&bar_gen, __ATOMIC_ACQUIRE) == gen)
		relax(&spins);
}

/* ---- one iteration's shared state --------------------------------------- */

static struct {
	int dir, stop, mfd, dfd, pw, pr, sock[2];
	int prime;		/* a file holding before_byte(): see run() */
	unsigned char *alias1, *alias2, *snap, *got;
	long delay1, delay2;	/* spin loops: T1 before the syscall, T2 before munmap */
	double u0, u1;		/* T2: munmap start, return */
	int t1_done;		/* T1's syscall has returned */
	long changed;		/* read directions: bytes changed after munmap */
	long got_n;		/* write-block: bytes T2 drained */
	int t2_error;		/* T2 gave up waiting (setup problem) */
} S;

static volatile long sink;

static void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

static void wait_t1(void)
{
	long spins = 0;

	while (!__atomic_load_n(&S.t1_done, __ATOMIC_ACQUIRE))
		relax(&spins);
}

static long count_changed(void)
{
	long n = 0;

	for (long i = 0; i < len; i++)
		n += S.alias2[i] != S.snap[i];
	return n;
}

static int fake_unmap;		/* -X: self-test of the detection */

static void unmap_alias1(void)
{
	S.u0 = now();
	if (!fake_unmap && munmap(S.alias1, len)) {
		perror("uarace: munmap");
		exit(2);
	}
	S.u1 = now();
}

/* write-block: wait until write() has queued 2 pages (the pipe is full). */
static int wait_queued(int fd, long want)
{
	double end = now() + 10;
	long spins = 0;
	int n = 0;

	while (now() < end) {
		if (ioctl(fd, FIONREAD, &n) == 0 && n >= want)
			return 0;
		relax(&spins);
	}
	return -1;
}

/* Run the calling thread on CPU cpu only (the two racers on different CPUs). */
static void pin_to(int cpu)
{
	cpu_set_t cs;

	if (ncpu < 2)
		return;
	CPU_ZERO(&cs);
	CPU_SET(cpu, &cs);
	if (sched_setaffinity(0, sizeof(cs), &cs))
		perror("uarace: sched_setaffinity");
}

/*
 * Do two threads really run at the same time?  Not on 1 CPU, and not
 * under qemu -icount, where the vCPUs take turns (round-robin): there a
 * munmap's TLB shootdown waits for the other vCPU's turn, and a syscall
 * is only overlapped when a turn ends inside it.  One thread counts, the
 * other watches the count change: side by side it sees thousands of
 * changes in 50 ms, taking turns only one per turn.
 */
static volatile unsigned long probe_ctr;
static volatile int probe_stop;

static void *probe_main(void *arg)
{
	(void)arg;
	pin_to(1);
	while (!probe_stop)
		probe_ctr++;
	return NULL;
}

static int parallel_probe(long *changes_out)
{
	pthread_t th;
	unsigned long last = probe_ctr;
	long changes = 0;
	double end;

	*changes_out = 0;
	if (ncpu < 2)
		return 0;
	probe_stop = 0;
	if (pthread_create(&th, NULL, probe_main, NULL))
		return 0;
	while (probe_ctr == last)
		sched_yield();		/* until it runs at all */
	/* the best of 5 windows of 50 ms: a busy host may stall a vCPU for a while */
	for (int w = 0; w < 5 && changes < 1000; w++) {
		long n = 0;

		last = probe_ctr;
		end = now() + 0.05;
		while (now() < end) {
			unsigned long c = probe_ctr;

			n += c != last;
			last = c;
		}
		if (n > changes)
			changes = n;
	}
	probe_stop = 1;
	pthread_join(th, NULL);
	*changes_out = changes;
	return changes >= 1000;
}

static void *t2_main(void *arg)
{
	(void)arg;
	pin_to(1);
	for (;;) {
		double end;
		long spins = 0;

		barrier();
		if (S.stop)
			return NULL;
		switch (S.dir) {
		case D_WRITE:
			spin(S.delay2);
			unmap_alias1();
			memset(S.alias2, MARK, len);
			break;
		case D_READ:
			spin(S.delay2);
			unmap_alias1();
			memcpy(S.snap, S.alias2, len);
			while (!__atomic_load_n(&S.t1_done, __ATOMIC_ACQUIRE)) {
				if (memcmp(S.snap, S.alias2, len))
					break;
				relax(&spins);
			}
			wait_t1();
			S.changed = count_changed();
			break;
		case D_WRITE_BLOCK:
			if (wait_queued(S.pr, 2 * page)) {
				S.t2_error = 1;
				/* let write() finish so that the iteration ends */
			}
			unmap_alias1();
			memset(S.alias2, MARK, len);
			S.got_n = 0;
			for (;;) {
				long r = read(S.pr, S.got + S.got_n, len - S.got_n);

				if (r > 0) {
					S.got_n += r;
					continue;
				}
				if (__atomic_load_n(&S.t1_done, __ATOMIC_ACQUIRE)) {
					/* T1 returned: whatever it queued is there now */
					while ((r = read(S.pr, S.got + S.got_n, len - S.got_n)) > 0)
						S.got_n += r;
					break;
				}
				relax(&spins);
			}
			break;
		case D_READ_BLOCK:
			if (send(S.sock[0], S.snap, len / 2, 0) != len / 2) {
				perror("uarace: send");
				exit(2);
			}
			/* wait until the first half has landed in the pages */
			end = now() + 10;
			while (memcmp(S.alias2, S.snap, len / 2) && now() < end)
				relax(&spins);
			if (memcmp(S.alias2, S.snap, len / 2))
				S.t2_error = 1;
			unmap_alias1();
			memcpy(S.snap + len, S.alias2, len);	/* snapshot after munmap */
			if (send(S.sock[0], S.snap + len / 2, len - len / 2, 0) != len - len / 2) {
				perror("uarace: send");
				exit(2);
			}
			wait_t1();
			S.changed = 0;
			for (long i = 0; i < len; i++)
				S.changed += S.alias2[i] != S.snap[len + i];
			break;
		}
		barrier();
	}
}

/* ---- modes --------------------------------------------------------------- */

/* ---- one mode, one direction --------------------------------------------- */

struct result {
	long iters, overlapped, violations, cut, efault, early, late, errors, bad_bytes, wrong_ret;
	int budget_hit;
};

static uint32_t rnd_state = 2463534242u;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static unsigned char *map_alias(void)
{
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, S.mfd, 0);

	if (p == MAP_FAILED) {
		perror("uarace: mmap");
		exit(2);
	}
	return p;
}

static void run(int dir, long iters, double deadline, struct result *res)
{
	static unsigned char *drained;
	double delay = 0;	/* adaptive, in spin loops: > 0 delays T2, < 0 delays T1 */
	double t_setup = 0, t_race = 0, t_check = 0, ta, tb = now();
	double dur = 0;		/* running average of the syscall's duration, s */
	double step_min = loops_per_us > 1 ? loops_per_us : 1;	/* 1 us */

	memset(res, 0, sizeof(*res));
	if (!drained)
		drained = malloc(len);
	S.dir = dir;
	for (long it = 0; it < iters; it++) {
		double t0, t1;
		long ret = 0, want_ret = -2;	/* the blocked directions know their count */
		int err = 0;

		if (now() > deadline) {
			res->budget_hit = 1;
			break;
		}
		S.alias1 = map_alias();
		S.alias2 = map_alias();
		/* fill through alias1: this also maps its pages (writable) for gup_fast */
		for (long i = 0; i < len; i++)
			S.alias1[i] = before_byte(i);
		/*
		 * Every other iteration, let the kernel use alias1 once the way
		 * the racing call will (it reads it for write(), writes it for
		 * pread()), with the bytes it already holds: the pinned engine's
		 * TLB then has its translations, and the racing call goes
		 * through TLB hits that munmap()'s TLB flush must wait for.  The
		 * other iterations race the walks (and the page-table lock).
		 */
		if ((it & 1) &&
		    ((dir == D_WRITE && pwrite(S.prime, S.alias1, len, 0) != len) ||
		     (dir == D_READ && pread(S.prime, S.alias1, len, 0) != len))) {
			perror("uarace: priming alias1");
			exit(2);
		}
		S.t1_done = 0;
		S.changed = 0;
		S.t2_error = 0;
		if (dir == D_READ_BLOCK) {
			if (socketpair(AF_UNIX, SOCK_STREAM, 0, S.sock)) {
				perror("uarace: socketpair");
				exit(2);
			}
			for (long i = 0; i < len; i++)
				S.snap[i] = data_byte(i);
		}
		/*
		 * The adaptive delay, jittered by +-half a syscall, so that
		 * munmap lands all over the copy, not at one spot.
		 */
		S.delay1 = S.delay2 = 0;
		if (dir == D_WRITE || dir == D_READ) {
			double d = delay + ((rnd() % 1024) / 1024.0 - 0.5) * dur * 1e6 * loops_per_us;

			S.delay1 = d < 0 ? (long)-d : 0;
			S.delay2 = d > 0 ? (long)d : 0;
		}
		ta = now();
		t_setup += ta - tb;
		barrier();
		if (dir == D_WRITE || dir == D_READ)
			spin(S.delay1);
		t0 = now();
		errno = 0;
		switch (dir) {
		case D_WRITE:
			ret = write(S.pw, S.alias1, len);
			break;
		case D_WRITE_BLOCK:
			ret = write(S.pw, S.alias1, len);
			want_ret = 2 * page;	/* the 2 pages queued before munmap */
			break;
		case D_READ:
			ret = pread(S.dfd, S.alias1, len, 0);
			break;
		case D_READ_BLOCK:
			ret = recv(S.sock[1], S.alias1, len, MSG_WAITALL);
			want_ret = len / 2;	/* the half that landed before munmap */
			break;
		}
		err = ret < 0 ? errno : 0;
		t1 = now();
		__atomic_store_n(&S.t1_done, 1, __ATOMIC_RELEASE);
		barrier();
		tb = now();
		t_race += tb - ta;

		res->iters++;
		/* (a sample is capped at 4x the average: the host may stall a vCPU) */
		dur = !dur ? t1 - t0 : dur * 0.9 + (t1 - t0 < 4 * dur ? t1 - t0 : 4 * dur) * 0.1;
		if (S.t2_error)
			res->errors++;
		if (ret < 0 && err != EFAULT) {
			printf("    %s: iteration %ld: syscall failed: %s\n", dir_name[dir], it, strerror(err));
			res->errors++;
		}
		if (ret != len)
			res->cut++;
		if (ret < 0)
			res->efault++;
		/* Did munmap() return while the syscall was in flight (or cut it short)? */
		if ((S.u1 >= t0 && S.u1 <= t1) || (ret > 0 && ret < len))
			res->overlapped++;
		if (verbose > 1 && (it < 40 || it % 50 == 0))
			printf("      it %ld: delay %ld/%ld call %.1f us, munmap %+.1f..%+.1f us from the call's start, ret %ld\n",
			       it, S.delay1, S.delay2, (t1 - t0) * 1e6, (S.u0 - t0) * 1e6, (S.u1 - t0) * 1e6, ret);
		if (S.u1 < t0)
			res->early++;
		else if (S.u0 > t1)
			res->late++;

		/* Violations */
		if (dir == D_WRITE || dir == D_WRITE_BLOCK) {
			long n = 0, marks = 0, wrong = 0;

			if (dir == D_WRITE) {
				long r;

				while (n < len && (r = read(S.pr, drained + n, len - n)) > 0)
					n += r;
			} else {
				n = S.got_n;
				memcpy(drained, S.got, n);
			}
			if (n != (ret > 0 ? ret : 0)) {
				printf("    %s: iteration %ld: write() returned %ld but the pipe held %ld\n",
				       dir_name[dir], it, ret, n);
				res->errors++;
			}
			for (long i = 0; i < n; i++) {
				if (drained[i] == MARK)
					marks++;
				else if (drained[i] != before_byte(i))
					wrong++;
			}
			if (marks || wrong) {
				res->violations++;
				res->bad_bytes += marks + wrong;
				if (verbose || res->violations <= 3)
					printf("    %s: iteration %ld: write() returned %ld; %ld marker bytes"
					       " (stored after munmap returned), %ld other wrong bytes\n",
					       dir_name[dir], it, ret, marks, wrong);
			}
		} else {
			if (S.changed) {
				res->violations++;
				res->bad_bytes += S.changed;
				if (verbose || res->violations <= 3)
					printf("    %s: iteration %ld: read returned %ld; %ld bytes changed after"
					       " munmap returned\n", dir_name[dir], it, ret, S.changed);
			}
		}
		/* The blocked directions: stock's exact count (the rest met the dead alias). */
		if (want_ret != -2 && ret != want_ret) {
			res->wrong_ret++;
			if (verbose || res->wrong_ret <= 3)
				printf("    %s: iteration %ld: returned %ld, want %ld\n", dir_name[dir], it,
				       ret, want_ret);
		}
		if (dir == D_READ_BLOCK) {
			close(S.sock[0]);
			close(S.sock[1]);
		}
		munmap(S.alias2, len);
		if (fake_unmap)
			munmap(S.alias1, len);
		t_check += now() - tb;
		tb = now();

		/*
		 * Aim munmap into the copy itself: a syscall that failed
		 * with EFAULT met a dead alias from the start (later next
		 * time), one that copied everything was not disturbed
		 * (earlier), a short count is on target.  A fixed step of an
		 * eighth of a syscall; a miss by more than 4 syscalls is
		 * mostly a vCPU the host did not run (a busy host) and moves
		 * the delay 8 times less.  The delay stays within 20 syscalls.
		 */
		if (dir == D_WRITE || dir == D_READ) {
			double dl = dur * 1e6 * loops_per_us;
			double step = dl / 8 > step_min ? dl / 8 : step_min;

			if (ret < 0)
				delay += S.u1 < t0 - 4 * dur ? step / 8 : step;
			else if (ret == len)
				delay -= S.u0 > t1 + 4 * dur ? step / 8 : step;
			if (delay > 20 * dl)
				delay = 20 * dl;
			if (delay < -20 * dl)
				delay = -20 * dl;
		}
	}
	if (verbose)
		printf("    %s: final delay %.0f loops (%.1f us); time: setup %.2f s, race %.2f s, check %.2f s\n",
		       dir_name[dir], delay, delay / loops_per_us, t_setup, t_race, t_check);
}

static int report(const char *mode, int dir, const struct result *r, long asked)
{
	int racing = dir == D_WRITE || dir == D_READ, is_gup = !strcmp(mode, "gup");
	long need = (r->iters + 99) / 100;
	char detail[200];

	printf("RACE %s %s iterations=%ld overlapped=%ld violations=%ld\n", mode, dir_name[dir], r->iters,
	       r->overlapped, r->violations);
	printf("    %s %s: returned short %ld, EFAULT %ld, all %ld; munmap done before the call %ld,"
	       " started after it %ld; bad bytes %ld, setup errors %ld%s\n", mode, dir_name[dir],
	       r->cut - r->efault, r->efault, r->iters - r->cut, r->early, r->late, r->bad_bytes, r->errors,
	       r->budget_hit ? " (stopped by the time budget)" : "");
	snprintf(detail, sizeof(detail), "%ld iterations%s, %ld overlapped, %ld violations",
		 r->iters, r->iters < asked ? " (time budget)" : "", r->overlapped, r->violations);
	if (is_gup) {
		printf("    gup %s: %ld violations (gup is the RFC v1 algorithm; violations expected, "
		       "not failed)\n", dir_name[dir], r->violations);
		return 0;
	}
	if (r->violations) {
		printf("UTEST FAIL uarace:%s:%s (%s)\n", mode, dir_name[dir], detail);
		return 1;
	}
	if (r->errors) {
		printf("UTEST FAIL uarace:%s:%s (%s; %ld setup errors)\n", mode, dir_name[dir], detail,
		       r->errors);
		return 1;
	}
	if (r->wrong_ret) {
		printf("UTEST FAIL uarace:%s:%s (%s; %ld returned another count than stock's)\n", mode,
		       dir_name[dir], detail, r->wrong_ret);
		return 1;
	}
	if (r->iters == 0 || r->overlapped < need || (!racing && r->overlapped != r->iters)) {
		if (racing && !parallel && r->iters) {
			printf("UTEST SKIP uarace:%s:%s (%s: %s, the threads did not run at once; "
			       "the -block directions cover munmap inside a copy)\n", mode, dir_name[dir],
			       detail, ncpu < 2 ? "1 CPU" : "vCPUs taking turns (qemu -icount or a busy host)");
			return 0;
		}
		printf("UTEST FAIL uarace:%s:%s (%s: too few overlapped, the race was not exercised)\n",
		       mode, dir_name[dir], detail);
		return 1;
	}
	printf("UTEST PASS uarace:%s:%s (%s)\n", mode, dir_name[dir], detail);
	return 0;
}

int main(int argc, char **argv)
{
	const char *modes[8], *avail[8];
	int nmodes = 0, navail = 0, dirs[NR_DIRS], ndirs = 0, opt, failures = 0, have_modefile;
	long iters = 5000;
	double budget = 0, t_start;
	char orig[32] = "", strict[8] = "0";
	pthread_t t2;
	int p[2];

	while ((opt = getopt(argc, argv, "n:m:d:l:T:vX")) != -1) {
		switch (opt) {
		case 'n': iters = atol(optarg); break;
		case 'm':
			if (nmodes < 8)
				modes[nmodes++] = optarg;
			break;
		case 'd':
			for (int d = 0; d < NR_DIRS; d++)
				if (!strcmp(optarg, dir_name[d]) && ndirs < NR_DIRS)
					dirs[ndirs++] = d;
			break;
		case 'l': len = atol(optarg); break;
		case 'T': budget = atof(optarg); break;
		case 'v': verbose++; break;
		case 'X': fake_unmap = 1; break;
		default:
			fprintf(stderr, "usage: uarace [-n ITERATIONS] [-m MODE]... [-d DIRECTION]... [-l LEN]"
				" [-T SECONDS] [-v]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	len = (len + page - 1) / page * page;
	if (len < 4 * page)
		len = 4 * page;
	if (!ndirs)
		for (int d = 0; d < NR_DIRS; d++)
			dirs[ndirs++] = d;
	rnd_state ^= (uint32_t)getpid();

	/* Which modes exist */
	have_modefile = !access(MODE_FILE, F_OK);
	if (fake_unmap)
		printf("uarace: -X: munmap is skipped, every direction must show violations\n");
	if (have_modefile) {
		read_small(MODE_FILE, orig, sizeof(orig));
		read_small(STRICT_FILE, strict, sizeof(strict));
		printf("uarace: mode at start '%s', strict %s, %d CPU(s), LEN %ld\n", orig, strict, ncpu, len);
	} else {
		printf("uarace: no %s: only the direct mode; %d CPU(s), LEN %ld\n", MODE_FILE, ncpu, len);
	}
	if (!nmodes) {
		static const char *const dflt[] = { "direct", "pinned", "gup", "ref" };

		for (int i = 0; i < 4; i++) {
			int err = have_modefile ? set_mode(dflt[i]) : i ? ENOENT : 0;

			if (!err)
				avail[navail++] = dflt[i];
			else if (have_modefile)
				printf("uarace: mode %s not available: %s\n", dflt[i], strerror(err));
			if (err && have_modefile && !strcmp(dflt[i], "pinned")) {
				printf("UTEST FAIL uarace:pinned (the kernel has a mode file but refuses pinned: %s)\n",
				       strerror(err));
				failures++;
			}
		}
	} else {
		for (int i = 0; i < nmodes; i++) {
			int err = have_modefile ? set_mode(modes[i]) : strcmp(modes[i], "direct") ? ENOENT : 0;

			if (!err)
				avail[navail++] = modes[i];
			else if (!strcmp(modes[i], "gup"))
				printf("uarace: mode gup not available: %s\n", strerror(err));
			else {
				printf("UTEST SKIP uarace:%s (mode not available: %s)\n", modes[i],
				       have_modefile ? strerror(err) : "no mode file");
			}
		}
	}

	/* The memfd, the data file, the pipe, the buffers */
	S.mfd = memfd_create("uarace", 0);
	if (S.mfd < 0 || ftruncate(S.mfd, len)) {
		perror("uarace: memfd");
		return 2;
	}
	{
		unsigned char *b = malloc(len);
		int fd = open(DATAFILE, O_RDWR | O_CREAT | O_TRUNC, 0644);

		for (long i = 0; i < len; i++)
			b[i] = data_byte(i);
		if (fd < 0 || write(fd, b, len) != len) {
			perror("uarace: data file");
			return 2;
		}
		free(b);
		S.dfd = fd;
	}
	{
		unsigned char *b = malloc(len);
		int fd = open(PRIMEFILE, O_RDWR | O_CREAT | O_TRUNC, 0644);

		for (long i = 0; i < len; i++)
			b[i] = before_byte(i);
		if (fd < 0 || write(fd, b, len) != len) {
			perror("uarace: prime file");
			return 2;
		}
		free(b);
		S.prime = fd;
	}
	S.snap = malloc(2 * len);
	S.got = malloc(len);
	pin_to(0);
	if (pthread_create(&t2, NULL, t2_main, NULL)) {
		perror("uarace: pthread_create");
		return 2;
	}

	{
		double t = now();

		spin(200000);
		t = now() - t;
		loops_per_us = t > 0 ? 200000 / (t * 1e6) : 1;
	}
	t_start = now();
	for (int mi = 0; mi < navail; mi++) {
		if (have_modefile && set_mode(avail[mi])) {
			printf("UTEST FAIL uarace:%s (cannot switch to it)\n", avail[mi]);
			failures++;
			continue;
		}
		for (int di = 0; di < ndirs; di++) {
			int d = dirs[di], block = d == D_WRITE_BLOCK || d == D_READ_BLOCK;
			long n, changes;

			/*
			 * Racing needs the two threads to run at once: probe that
			 * right before (a busy host can make the vCPUs take turns).
			 */
			if (!block) {
				parallel = parallel_probe(&changes);
				for (int tries = 1; !parallel && ncpu > 1 && tries < 4; tries++) {
					usleep(500000);	/* a busy host may let go in a moment */
					parallel = parallel_probe(&changes);
				}
				if (!parallel || verbose)
					printf("    %s %s: threads run %s (%ld changes seen in 50 ms)%s\n",
					       avail[mi], dir_name[d], parallel ? "side by side" : "by turns",
					       changes, parallel ? "" : ": only 20 iterations, overlap not"
					       " expected (1 CPU, qemu -icount, or a host too busy to run"
					       " both vCPUs)");
			}
			n = block ? (iters / 50 > 20 ? iters / 50 : 20) : parallel ? iters :
			    iters < 20 ? iters : 20;
			int slots_left = (navail - mi) * ndirs - di;
			double deadline = budget > 0 ? now() + (budget - (now() - t_start)) / slots_left : 1e300;
			struct result res;

			/* A fresh pipe per direction: write wants room for LEN, write-block 2 pages. */
			if (pipe(p)) {
				perror("uarace: pipe");
				return 2;
			}
			S.pw = p[1];
			S.pr = p[0];
			fcntl(S.pr, F_SETFL, O_NONBLOCK);
			if (fcntl(S.pw, F_SETPIPE_SZ, block ? 2 * page : 4 * len) < 0)
				perror("uarace: F_SETPIPE_SZ");
			run(d, n, deadline, &res);
			failures += report(avail[mi], d, &res, n);
			close(p[0]);
			close(p[1]);
		}
	}
	S.stop = 1;
	barrier();
	pthread_join(t2, NULL);
	if (have_modefile && orig[0] && set_mode(orig))
		printf("uarace: could not restore mode %s\n", orig);
	if (!access(PINS_FILE, F_OK)) {
		long out = pins_outstanding();

		printf("UTEST %s uarace:pins (outstanding %ld)\n", out == 0 ? "PASS" : "FAIL", out);
		failures += out != 0;
	} else {
		printf("UTEST SKIP uarace:pins (no pins file: this kernel does not count pins)\n");
	}
	unlink(DATAFILE);
	printf("uarace: %d failures, %.1f s\n", failures, now() - t_start);
	return failures ? 1 : 0;
}
