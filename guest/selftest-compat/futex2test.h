/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replacement for tools/testing/selftests/futex/include/futex2test.h, found
 * first on the include path when the futex selftests are built for armhf.
 *
 * futex_waitv() takes a struct __kernel_timespec (64-bit tv_sec) but the
 * selftest passes the C library's struct timespec, which is 32-bit on armhf
 * glibc without _TIME_BITS=64: the kernel then reads a timeout decades away
 * and futex_wait_timeout/futex_waitv hang on every 32-bit target.  Convert.
 */
#include <stdint.h>
#include <time.h>
#include <linux/time_types.h>

#define u64_to_ptr(x) ((void *)(uintptr_t)(x))

static inline int futex_waitv(volatile struct futex_waitv *waiters, unsigned long nr_waiters,
			      unsigned long flags, struct timespec *timo, clockid_t clockid)
{
	struct __kernel_timespec kts, *k = NULL;

	if (timo) {
		kts.tv_sec = timo->tv_sec;
		kts.tv_nsec = timo->tv_nsec;
		k = &kts;
	}
	return syscall(__NR_futex_waitv, waiters, nr_waiters, flags, k, clockid);
}
