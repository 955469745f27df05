// SPDX-License-Identifier: GPL-2.0
/*
 * uacacheflush: ARM's cacheflush syscall (__ARM_NR_cacheflush), which
 * makes code written through the data side visible to instruction fetch.
 *
 * The ABI (arch/arm/kernel/traps.c do_cache_op()): cacheflush(start, end,
 * flags) returns 0 once [start, end) is coherent, -EINVAL for flags other
 * than 0 or end < start, -EFAULT where the range meets an address with no
 * readable mapping (unmapped, PROT_NONE; beyond TASK_SIZE).  A page never
 * touched is faulted in, as by a read.  With the pinned engine the
 * maintenance goes through the kernel's alias of each user page
 * (arm_uap_coherent_user_range()): these tests compare it with stock's
 * maintenance by the user's address, in every boot that runs them.
 *
 *   jit          a PROT_READ|PROT_WRITE|PROT_EXEC page: write "mov r0,
 *                #n; bx lr", cacheflush, call it; again with another n
 *                (QEMU keeps its translations coherent with memory
 *                itself, so on QEMU this checks the syscall's result, not
 *                the caches)
 *   jit_pages    the same in each of 64 pages, one cacheflush over all,
 *                from and to addresses inside a page
 *   untouched    a fresh page never touched: 0, and the page is resident
 *   unmapped     a page mmap()ed and munmap()ed: EFAULT, and EFAULT for a
 *                range that starts mapped and runs into it
 *   prot_none    a PROT_NONE page: EFAULT
 *   kernel       a range above TASK_SIZE: EFAULT
 *   einval       flags 1, end < start: EINVAL; start == end: 0
 *
 * The stock routine faults because cache maintenance by address
 * translates the address (an unmapped or PROT_NONE page gives a
 * translation fault, which the fixup turns into EFAULT; a page never
 * touched is faulted in).  QEMU's does not: its DCCMVAU and ICIMVAU do no
 * translation, so under QEMU the stock routine returns 0 for any range
 * access_ok() allows.  untouched, unmapped and prot_none are therefore
 * checked against the hardware's answer in the pinned mode (which
 * translates in software) and SKIP in the direct mode.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 6.12's harness has a handler with an unused parameter (-Wextra). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
#include "uamode.h"

#ifndef __ARM_NR_cacheflush
#define __ARM_NR_cacheflush	(0x0f0000 + 2)
#endif

#define NPAGES	64

static long cacheflush(uintptr_t start, uintptr_t end, int flags)
{
	return syscall(__ARM_NR_cacheflush, start, end, flags);
}

/* "mov r0, #n; bx lr" (ARM state; n < 256) at @p. */
static void emit(uint32_t *p, unsigned int n)
{
	p[0] = 0xe3a00000 | (n & 0xff);
	p[1] = 0xe12fff1e;
}

static unsigned int call(void *p)
{
	unsigned int (*fn)(void) = (unsigned int (*)(void))p;

	return fn();
}

/* The direct mode: stock's cache maintenance, which QEMU never faults. */
static int direct_mode(void)
{
	char m[32];

	return !read_small(MODE_FILE, m, sizeof(m)) && !strcmp(m, "direct");
}

#define SKIP_IF_QEMU_DIRECT()						\
	do {								\
		if (direct_mode())					\
			SKIP(return, "direct: QEMU's maintenance never faults"); \
	} while (0)

static char *map(long len, int prot)
{
	char *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

TEST(jit)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = map(psz, PROT_READ | PROT_WRITE | PROT_EXEC);
	uint32_t *code;

	ASSERT_TRUE(p != NULL);
	code = (uint32_t *)(p + 256);
	emit(code, 17);
	ASSERT_EQ(0, cacheflush((uintptr_t)code, (uintptr_t)(code + 2), 0));
	EXPECT_EQ(17u, call(code));
	emit(code, 42);
	ASSERT_EQ(0, cacheflush((uintptr_t)code, (uintptr_t)(code + 2), 0));
	EXPECT_EQ(42u, call(code));
	munmap(p, psz);
}

TEST(jit_pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = map(NPAGES * psz, PROT_READ | PROT_WRITE | PROT_EXEC);
	unsigned int i, round;

	ASSERT_TRUE(p != NULL);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < NPAGES; i++)
			emit((uint32_t *)(p + i * psz + 64), i + 100 * round);
		ASSERT_EQ(0, cacheflush((uintptr_t)p + 64,
					(uintptr_t)p + (NPAGES - 1) * psz + 72, 0));
		for (i = 0; i < NPAGES; i++)
			EXPECT_EQ(i + 100 * round, call(p + i * psz + 64));
	}
	munmap(p, NPAGES * psz);
}

TEST(untouched)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = map(psz, PROT_READ | PROT_WRITE | PROT_EXEC);
	unsigned char vec = 0;

	SKIP_IF_QEMU_DIRECT();
	ASSERT_TRUE(p != NULL);
	ASSERT_EQ(0, mincore(p, psz, &vec));
	ASSERT_EQ(0, vec & 1);
	EXPECT_EQ(0, cacheflush((uintptr_t)p, (uintptr_t)p + psz, 0));
	ASSERT_EQ(0, mincore(p, psz, &vec));
	EXPECT_EQ(1, vec & 1);
	munmap(p, psz);
}

TEST(unmapped)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = map(2 * psz, PROT_READ | PROT_WRITE);

	SKIP_IF_QEMU_DIRECT();
	ASSERT_TRUE(p != NULL);
	p[0] = 1;
	ASSERT_EQ(0, munmap(p + psz, psz));
	errno = 0;
	EXPECT_EQ(-1, cacheflush((uintptr_t)p + psz, (uintptr_t)p + 2 * psz, 0));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, cacheflush((uintptr_t)p + 64, (uintptr_t)p + psz + 64, 0));
	EXPECT_EQ(EFAULT, errno);
	munmap(p, psz);
}

TEST(prot_none)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = map(psz, PROT_NONE);

	SKIP_IF_QEMU_DIRECT();
	ASSERT_TRUE(p != NULL);
	errno = 0;
	EXPECT_EQ(-1, cacheflush((uintptr_t)p, (uintptr_t)p + 64, 0));
	EXPECT_EQ(EFAULT, errno);
	munmap(p, psz);
}

TEST(kernel)
{
	/* Above TASK_SIZE on 3G/1G and on the 4G/4G split alike */
	uintptr_t k = 0xfffff000u;

	errno = 0;
	EXPECT_EQ(-1, cacheflush(k, k + 64, 0));
	EXPECT_EQ(EFAULT, errno);
}

TEST(einval)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = map(psz, PROT_READ | PROT_WRITE);

	ASSERT_TRUE(p != NULL);
	p[0] = 1;
	errno = 0;
	EXPECT_EQ(-1, cacheflush((uintptr_t)p, (uintptr_t)p + 64, 1));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, cacheflush((uintptr_t)p + 64, (uintptr_t)p, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, cacheflush((uintptr_t)p, (uintptr_t)p, 0));
	munmap(p, psz);
}

TEST_HARNESS_MAIN
