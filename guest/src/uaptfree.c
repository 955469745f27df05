/*
 * uaptfree: page tables freed under the walk.  One thread maps a 2 MiB
 * region (one PTE table of its own, at a fixed 2 MiB-aligned address),
 * touches it and unmaps it, over and over: each munmap() frees the table
 * and, with split PTE locks, its lock (a separate allocation under
 * lockdep, poisoned by SLUB debugging once freed).  The other threads
 * pread() into and write() from the region meanwhile: each kernel access
 * walks to that table and takes its lock unless the engine's TLB has the
 * page.  In the pinned mode every call must return the full count or
 * EFAULT: the 64 bytes lie in one page, which the engine copies under its
 * PTE lock (or as a TLB hit, which munmap()'s flush waits for), so the
 * region is there or not.  The stock routines copy a word at a time and
 * can meet munmap() midway, so in the direct mode a short count is right
 * too (counted, not failed).  And the kernel must not complain (a freed
 * lock spun on or held is a "bad magic" or use-after-free report, which
 * fails the boot).
 *
 *   uaptfree [-T seconds]   (direct for a quarter of the time, then pinned)
 */
#include <pthread.h>
#include <sys/mman.h>
#include "uamode.h"

#define REGION	((char *)0x60000000UL)
#define LEN	(2UL << 20)

static volatile int stop;
static int fd;
static unsigned long maps, ok_calls, efault_calls, short_calls, bad_calls;

static void *mapper(void *arg)
{
	(void)arg;
	while (!stop) {
		char *p = mmap(REGION, LEN, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

		if (p != REGION) {
			__sync_fetch_and_add(&bad_calls, 1);
			continue;
		}
		for (unsigned long o = 0; o < LEN; o += 4096 * 16)
			p[o] = 0x5a;
		munmap(p, LEN);
		maps++;
	}
	return NULL;
}

static void *accessor(void *arg)
{
	unsigned long i = (unsigned long)arg;

	while (!stop) {
		unsigned long off = (i * 4096 * 16 + (i & 1) * 7) % LEN;
		ssize_t n = (i & 1) ? write(fd, REGION + off, 64)
				    : pread(fd, REGION + off, 64, 0);

		if (n == 64)
			__sync_fetch_and_add(&ok_calls, 1);
		else if (n < 0 && errno == EFAULT)
			__sync_fetch_and_add(&efault_calls, 1);
		else if (n > 0 && n < 64)
			__sync_fetch_and_add(&short_calls, 1);
		else
			__sync_fetch_and_add(&bad_calls, 1);
		if (i & 1)
			lseek(fd, 0, SEEK_SET);
		i += 2;
	}
	return NULL;
}

static int run(const char *mode, int secs)
{
	pthread_t m, a[3];
	char pat[64];
	int bad, partial_ok = strcmp(mode, "pinned") != 0;

	if (strcmp(mode, "stock") && set_mode(mode)) {
		printf("UTEST SKIP uaptfree:%s (mode not available)\n", mode);
		return 0;
	}
	memset(pat, 0x5a, sizeof(pat));
	fd = open("/tmp/uaptfree.dat", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, pat, 64) != 64)
		return 2;
	stop = 0;
	maps = ok_calls = efault_calls = short_calls = bad_calls = 0;
	pthread_create(&m, NULL, mapper, NULL);
	for (unsigned long i = 0; i < 3; i++)
		pthread_create(&a[i], NULL, accessor, (void *)i);
	sleep(secs);
	stop = 1;
	pthread_join(m, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(a[i], NULL);
	close(fd);
	bad = bad_calls || (short_calls && !partial_ok) || !maps || !ok_calls || !efault_calls;
	printf("UTEST %s uaptfree:%s (%ds: %lu maps, %lu accesses done, %lu EFAULT, %lu short%s, %lu wrong)\n",
	       bad ? "FAIL" : "PASS", mode, secs, maps, ok_calls, efault_calls, short_calls,
	       partial_ok ? " (right for the stock routines)" : "", bad_calls);
	return bad;
}

int main(int argc, char **argv)
{
	int secs = 20, rc = 0;

	if (argc == 3 && !strcmp(argv[1], "-T"))
		secs = atoi(argv[2]);
	if (secs < 4)
		secs = 4;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access(MODE_FILE, F_OK)) {
		rc |= run("stock", secs);
	} else {
		/* direct is the control; the pinned walks are what is tested */
		rc |= run("direct", secs / 4);
		rc |= run("pinned", secs - secs / 4);
		set_mode("direct");
	}
	return rc;
}
