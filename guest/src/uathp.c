/*
 * uathp: PROT_NONE transparent huge pages on LPAE (LTP madvise05's
 * crash, a stock 6.12 bug).  LPAE's set_pmd_at() clears the valid bit of
 * a PROT_NONE section, and pmd_present() tested only that bit: the
 * kernel took the entry for a swap entry, and munmap() oopsed in
 * zap_huge_pmd() ("Non present huge pmd without pmd migration enabled!").
 *
 * For the huge zero page (read faults) and for a real THP (written):
 * mmap 32 MiB, fault it in, mprotect(PROT_NONE); fork() (copy_huge_pmd);
 * read it through /proc/self/mem (FOLL_FORCE GUP of a PROT_NONE leaf);
 * mprotect() back to readable and check the contents; PROT_NONE again;
 * munmap().  Each case in a child under a watchdog; a kernel oops ends
 * the boot (guest-run reports it).
 */
#define _FILE_OFFSET_BITS 64
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "uamode.h"

#define LEN	(32UL << 20)
#define HUGE	(2UL << 20)

static int fail(const char *name, const char *what)
{
	printf("UTEST FAIL uathp:%s (%s: %s)\n", name, what, strerror(errno));
	return 1;
}

static unsigned char want(int written, unsigned long i)
{
	return written ? (unsigned char)(i / HUGE * 7 + 1) : 0;
}

static int one(const char *name, int written)
{
	unsigned char *raw, *p, buf[64];
	unsigned long i;
	pid_t pid;
	int st, fd;

	raw = mmap(NULL, LEN + HUGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return fail(name, "mmap");
	p = (unsigned char *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
	if (madvise(p, LEN, MADV_HUGEPAGE))
		return fail(name, "madvise(MADV_HUGEPAGE)");
	if (!written && mprotect(p, LEN, PROT_READ))
		return fail(name, "mprotect(PROT_READ)");
	for (i = 0; i < LEN; i += HUGE) {
		if (written)
			memset(p + i, want(1, i), HUGE);
		else if (p[i] != 0)
			return fail(name, "the zero page is not zero");
	}
	if (mprotect(p, LEN, PROT_NONE))
		return fail(name, "mprotect(PROT_NONE)");
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return fail(name, "fork with PROT_NONE huge pages");
	fd = open("/proc/self/mem", O_RDONLY);
	if (fd < 0)
		return fail(name, "open /proc/self/mem");
	for (i = 0; i < LEN; i += 4 * HUGE) {
		if (pread(fd, buf, sizeof(buf), (off_t)(uintptr_t)(p + i + 4096)) != sizeof(buf))
			return fail(name, "pread /proc/self/mem of PROT_NONE");
		if (buf[0] != want(written, i) || buf[63] != want(written, i)) {
			printf("UTEST FAIL uathp:%s (/proc/self/mem read 0x%02x at +%lu MiB,"
			       " want 0x%02x)\n", name, buf[0], i >> 20, want(written, i));
			return 1;
		}
	}
	close(fd);
	if (mprotect(p, LEN, PROT_READ))
		return fail(name, "mprotect(PROT_READ) back");
	for (i = 0; i < LEN; i += HUGE / 2) {
		if (p[i] != want(written, i)) {
			printf("UTEST FAIL uathp:%s (read 0x%02x at +%lu KiB, want 0x%02x)\n",
			       name, p[i], i >> 10, want(written, i));
			return 1;
		}
	}
	if (mprotect(p, LEN, PROT_NONE))
		return fail(name, "mprotect(PROT_NONE) again");
	if (munmap(raw, LEN + HUGE))
		return fail(name, "munmap");
	printf("UTEST PASS uathp:%s\n", name);
	return 0;
}

int main(void)
{
	static const char *const names[] = { "huge-zero-page", "thp" };
	char thp[64] = "";
	int w, rc = 0, st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (read_small("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp)) ||
	    strstr(thp, "[never]")) {
		printf("UTEST SKIP uathp (no transparent huge pages: '%s')\n", thp);
		return 0;
	}
	for (w = 0; w < 2; w++) {
		pid_t pid = fork();

		if (pid == 0) {
			alarm(60);
			_exit(one(names[w], w));
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid) {
			printf("UTEST FAIL uathp:%s (fork)\n", names[w]);
			rc = 1;
		} else if (!WIFEXITED(st)) {
			printf("UTEST FAIL uathp:%s (killed by signal %d)\n", names[w],
			       WTERMSIG(st));
			rc = 1;
		} else {
			rc |= WEXITSTATUS(st);
		}
	}
	return rc;
}
