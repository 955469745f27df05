// SPDX-License-Identifier: GPL-2.0
/*
 * uahwbp - hardware watchpoints on an address that is both user memory and
 * kernel lowmem (CONFIG_VMSPLIT_4G_4G: 0x20000000 is both with 1 GiB of
 * RAM).  A page is mapped at that address and, pinned to CPU 0, written
 * NWRITES times from user mode under each of these perf watchpoints:
 *  - wide: CPU-wide (pid -1, cpu 0, no exclusions), as
 *    register_wide_hw_breakpoint() makes: on the split a kernel watchpoint
 *    on lowmem, so the user's writes must not count (0);
 *  - task: per task (pid 0, cpu -1, perf's mem:ADDR): user only, NWRITES;
 *  - task-u: per task with exclude_kernel: NWRITES.
 * "task" also shows that watchpoints fire here, so wide's 0 means something.
 * ARM's hw_breakpoint single-steps a perf watchpoint (default overflow
 * handler) and refuses one it would step in kernel space (EPERM) or on a
 * CPU (EINVAL): perf_event_open() cannot make a CPU-wide watchpoint on
 * any ARM kernel, so "wide" is a SKIP there (only in-kernel users of
 * register_wide_hw_breakpoint(), with their own handler, get one).  The
 * step uses a mismatch breakpoint, which QEMU does not implement: after a
 * hit the watchpoint never re-arms, so the task cases open a fresh event
 * for each write, which must count 1.  With ARMv7 debug (QEMU's
 * cortex-a15) the FSR does not tell loads from stores and a store-only
 * watchpoint is refused (EINVAL): one on loads and stores is used then.
 * "UTEST PASS|FAIL|SKIP uahwbp:<case> (detail)"; exit 0 iff no FAIL.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#define ADDR 0x20000000UL
#define NWRITES 10

static volatile unsigned int *const word = (volatile unsigned int *)ADDR;
static int rw;	/* store-only watchpoints refused: RW ones used */

/* An enabled watchpoint on ADDR; -1 after printing why not (*skip: SKIP). */
static int bp_open(const char *name, pid_t pid, int cpu, int excl_kernel,
		   int *skip)
{
	struct perf_event_attr attr;
	int fd, e, wide;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = rw ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
	attr.bp_addr = ADDR;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.sample_period = 1;
	attr.disabled = 1;
	attr.exclude_kernel = excl_kernel;
	fd = syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
	if (fd < 0 && errno == EINVAL && pid == 0 && !rw) {
		rw = 1;
		attr.bp_type = HW_BREAKPOINT_RW;
		fd = syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
	}
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		return fd;
	}
	e = errno;
	wide = pid == -1 && (e == EPERM || e == EINVAL);
	*skip = wide || e == ENOENT || e == ENODEV || e == EOPNOTSUPP;
	printf("UTEST %s uahwbp:%s (perf_event_open: %s%s)\n",
	       *skip ? "SKIP" : "FAIL", name, strerror(e),
	       wide ? ": ARM refuses CPU-wide perf watchpoints" : "");
	return -1;
}

/* The hits counted, or -1 after a FAIL line. */
static long bp_close(const char *name, int fd)
{
	uint64_t count;
	long n;

	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	n = read(fd, &count, sizeof(count));
	close(fd);
	if (n == sizeof(count))
		return count;
	printf("UTEST FAIL uahwbp:%s (read: %s)\n", name, strerror(errno));
	return -1;
}

static int report(const char *name, long hits, long want, const char *how)
{
	printf("UTEST %s uahwbp:%s (%ld hits of %d user writes%s, want %ld%s)\n",
	       hits == want ? "PASS" : "FAIL", name, hits, NWRITES, how, want,
	       rw ? "; RW watchpoints" : "");
	return hits != want;
}

/* A CPU-wide watchpoint (on CPU 0, where we run): no user write counts. */
static int wide(void)
{
	int fd, i, skip = 0;
	long n;

	fd = bp_open("wide-user-write", -1, 0, 0, &skip);
	if (fd < 0)
		return !skip;
	for (i = 0; i < NWRITES; i++)
		*word = i;
	n = bp_close("wide-user-write", fd);
	return n < 0 || report("wide-user-write", n, 0, "");
}

/* A watchpoint on this task: every user write counts, one per event. */
static int task(const char *name, int excl_kernel)
{
	int fd, i, skip = 0;
	long n, hits = 0;

	for (i = 0; i < NWRITES; i++) {
		fd = bp_open(name, 0, -1, excl_kernel, &skip);
		if (fd < 0)
			return !skip;
		*word = i;
		n = bp_close(name, fd);
		if (n < 0)
			return 1;
		hits += n;
	}
	return report(name, hits, NWRITES, ", a fresh event each");
}

int main(void)
{
	cpu_set_t set;
	void *m;
	int rc = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	m = mmap((void *)ADDR, 4096, PROT_READ | PROT_WRITE,
		 MAP_FIXED | MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	if (m != (void *)ADDR) {
		printf("UTEST FAIL uahwbp (mmap at %#lx: %s)\n", ADDR, strerror(errno));
		return 1;
	}
	*word = 0;	/* fault it in first */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		printf("UTEST FAIL uahwbp (sched_setaffinity: %s)\n", strerror(errno));
		return 1;
	}
	rc |= wide();
	rc |= task("task", 0);
	rc |= task("task-u", 1);
	return rc;
}
