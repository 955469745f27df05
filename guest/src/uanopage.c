/*
 * uanopage: user memory without a struct page.  RAM above mem= is mapped
 * through /dev/mem (VM_IO|VM_PFNMAP, special entries, uncached since the
 * pfn is not valid), MAP_SHARED and MAP_PRIVATE, and the kernel must
 * reach it as the stock routines do:
 *   shared-write   write() from it into a pipe, bytes read back
 *   shared-pread   pread() of a file into it
 *   futex-wait     FUTEX_WAIT on a word there: ETIMEDOUT when it matches,
 *                  EAGAIN when it does not
 *   futex-wake-op  FUTEX_WAKE_OP setting a second word there
 *   futex-pi       FUTEX_LOCK_PI then FUTEX_UNLOCK_PI on a word there
 *   private-cow    a store into a MAP_PRIVATE mapping of it (the COW
 *                  copies the old page under the page-table lock)
 *   many           256 pread()s into it and write()s from it in a row in
 *                  one process: each access maps the page for the kernel
 *                  (kmap_local), and a mapping left behind by each would
 *                  exhaust the task's slots (16) long before the end
 * Each case in a child under a 20 s alarm, in direct and in pinned: the
 * results must be the expected ones in both (and so the same).
 *
 *   uanopage [-p PHYS]   (default 0x78000000: above mem=640M on -m 1024)
 * Skips when PHYS is System RAM the kernel manages (no mem= boot).
 */
#include <linux/futex.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include "uamode.h"

#define PG 4096

static unsigned long phys = 0x78000000UL;

static long futex(void *u, int op, unsigned int val, void *ts, void *u2, unsigned int v3)
{
	return syscall(SYS_futex, u, op, val, ts, u2, v3);
}

static volatile uint32_t *map(int shared, off_t off)
{
	int fd = open("/dev/mem", O_RDWR);
	void *p;

	if (fd < 0)
		return NULL;
	p = mmap(NULL, PG, PROT_READ | PROT_WRITE, shared ? MAP_SHARED : MAP_PRIVATE,
		 fd, (off_t)phys + off);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static void fill(volatile uint32_t *w, uint32_t seed)
{
	for (int i = 0; i < PG / 4; i++)
		w[i] = seed + i * 0x01010101u;
}

/* Each case: 0 pass; prints why on failure. */
static int shared_write(void)
{
	volatile uint32_t *w = map(1, 0);
	uint32_t got[64];
	int p[2];

	if (!w || pipe(p))
		return printf("  setup: %s\n", strerror(errno)), 1;
	fill(w, 0x11000000u);
	if (write(p[1], (void *)(w + 16), sizeof(got)) != sizeof(got))
		return printf("  write: %s\n", strerror(errno)), 1;
	if (read(p[0], got, sizeof(got)) != sizeof(got))
		return printf("  read back: %s\n", strerror(errno)), 1;
	for (int i = 0; i < 64; i++)
		if (got[i] != w[16 + i])
			return printf("  word %d: 0x%08x, want 0x%08x\n", i, got[i], w[16 + i]), 1;
	return 0;
}

static int shared_pread(void)
{
	volatile uint32_t *w = map(1, PG);
	uint32_t src[64];
	int fd = open("/tmp/uanopage.dat", O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (!w || fd < 0)
		return printf("  setup: %s\n", strerror(errno)), 1;
	fill(w, 0);
	for (int i = 0; i < 64; i++)
		src[i] = 0xabc00000u + i;
	if (write(fd, src, sizeof(src)) != sizeof(src))
		return 1;
	if (pread(fd, (void *)(w + 8), sizeof(src), 0) != sizeof(src))
		return printf("  pread: %s\n", strerror(errno)), 1;
	for (int i = 0; i < 64; i++)
		if (w[8 + i] != src[i])
			return printf("  word %d: 0x%08x, want 0x%08x\n", i, w[8 + i], src[i]), 1;
	if (w[7] != 7 * 0x01010101u || w[72] != 72 * 0x01010101u)
		return printf("  pread wrote outside its range\n"), 1;
	return 0;
}

static int futex_wait(void)
{
	volatile uint32_t *w = map(1, 2 * PG);
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	long rc;

	if (!w)
		return printf("  setup: %s\n", strerror(errno)), 1;
	w[3] = 42;
	rc = futex((void *)(w + 3), FUTEX_WAIT_PRIVATE, 42, &ts, NULL, 0);
	if (rc != -1 || errno != ETIMEDOUT)
		return printf("  matching value: %ld (%s), want ETIMEDOUT\n", rc, strerror(errno)), 1;
	rc = futex((void *)(w + 3), FUTEX_WAIT_PRIVATE, 43, &ts, NULL, 0);
	if (rc != -1 || errno != EAGAIN)
		return printf("  other value: %ld (%s), want EAGAIN\n", rc, strerror(errno)), 1;
	return 0;
}

static int futex_wake_op(void)
{
	volatile uint32_t *w = map(1, 3 * PG);
	long rc;

	if (!w)
		return printf("  setup: %s\n", strerror(errno)), 1;
	w[0] = 0;
	w[1] = 7;
	rc = futex((void *)w, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, (void *)(w + 1),
		   FUTEX_OP(FUTEX_OP_SET, 5, FUTEX_OP_CMP_EQ, 7));
	if (rc != 0 || w[1] != 5)
		return printf("  %ld (%s), second word %u; want 0, 5\n", rc,
			      rc ? strerror(errno) : "", w[1]), 1;
	return 0;
}

static int futex_pi(void)
{
	volatile uint32_t *w = map(1, 4 * PG);
	uint32_t tid = syscall(SYS_gettid);
	long rc;

	if (!w)
		return printf("  setup: %s\n", strerror(errno)), 1;
	w[5] = 0;
	rc = futex((void *)(w + 5), FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	if (rc || (w[5] & FUTEX_TID_MASK) != tid)
		return printf("  lock: %ld (%s), word 0x%x, tid %u\n", rc, rc ? strerror(errno) : "",
			      w[5], tid), 1;
	rc = futex((void *)(w + 5), FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	if (rc || w[5] != 0)
		return printf("  unlock: %ld (%s), word 0x%x\n", rc, rc ? strerror(errno) : "", w[5]), 1;
	return 0;
}

static int private_cow(void)
{
	volatile uint32_t *s = map(1, 5 * PG), *p = map(0, 5 * PG);

	if (!s || !p)
		return printf("  setup: %s\n", strerror(errno)), 1;
	fill(s, 0x22000000u);
	if (p[9] != s[9])
		return printf("  private read 0x%08x, want 0x%08x\n", p[9], s[9]), 1;
	p[10] = 0xdeadbeef;	/* COW: the old page is copied under the PTE lock */
	if (p[10] != 0xdeadbeef || p[11] != s[11] || p[1000] != s[1000])
		return printf("  after the COW: 0x%08x 0x%08x 0x%08x, want 0xdeadbeef 0x%08x 0x%08x\n",
			      p[10], p[11], p[1000], s[11], s[1000]), 1;
	if (s[10] != 0x22000000u + 10 * 0x01010101u)
		return printf("  the COW changed the shared page\n"), 1;
	return 0;
}

static int many(void)
{
	volatile uint32_t *w = map(1, 2 * PG);
	int fd = open("/tmp/uanopage.many", O_RDWR | O_CREAT | O_TRUNC, 0600);
	uint32_t v, got;
	int p[2];

	if (!w || fd < 0 || pipe(p))
		return printf("  setup: %s\n", strerror(errno)), 1;
	for (int i = 0; i < 256; i++) {
		volatile uint32_t *u = w + i % (PG / 4);

		v = 0x5a000000u + i;
		if (pwrite(fd, &v, 4, 0) != 4 || pread(fd, (void *)u, 4, 0) != 4)
			return printf("  pread %d: %s\n", i, strerror(errno)), 1;
		if (*u != v)
			return printf("  pread %d: 0x%08x, want 0x%08x\n", i, *u, v), 1;
		if (write(p[1], (void *)u, 4) != 4 || read(p[0], &got, 4) != 4)
			return printf("  write %d: %s\n", i, strerror(errno)), 1;
		if (got != v)
			return printf("  write %d: 0x%08x, want 0x%08x\n", i, got, v), 1;
	}
	return 0;
}

static const struct { const char *name; int (*fn)(void); } cases[] = {
	{ "shared-write", shared_write }, { "shared-pread", shared_pread },
	{ "futex-wait", futex_wait }, { "futex-wake-op", futex_wake_op },
	{ "futex-pi", futex_pi }, { "private-cow", private_cow },
	{ "many", many },
};

/* Whether @phys is in a "System RAM" range of /proc/iomem. */
static int managed_ram(unsigned long pa)
{
	char line[256];
	FILE *f = fopen("/proc/iomem", "r");
	int in = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b;

		if (line[0] != ' ' && sscanf(line, "%lx-%lx", &a, &b) == 2 &&
		    strstr(line, "System RAM") && pa >= a && pa <= b)
			in = 1;
	}
	fclose(f);
	return in;
}

int main(int argc, char **argv)
{
	const char *modes[2];
	int nmodes, rc = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "-p"))
		phys = strtoul(argv[2], NULL, 0);
	if (managed_ram(phys)) {
		printf("UTEST SKIP uanopage (0x%lx is System RAM here: boot with mem= below it)\n", phys);
		return 0;
	}
	nmodes = test_modes(modes);
	for (int m = 0; m < nmodes; m++) {
		if (select_mode(modes[m])) {
			printf("UTEST FAIL uanopage:%s (cannot select the mode)\n", modes[m]);
			rc = 1;
			continue;
		}
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			pid_t pid = fork();
			int st;

			if (!pid) {
				alarm(20);
				exit(cases[c].fn());
			}
			waitpid(pid, &st, 0);
			if (WIFEXITED(st) && !WEXITSTATUS(st)) {
				printf("UTEST PASS uanopage:%s:%s\n", modes[m], cases[c].name);
			} else {
				printf("UTEST FAIL uanopage:%s:%s (%s %d)\n", modes[m], cases[c].name,
				       WIFEXITED(st) ? "exit" : "signal",
				       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
				rc = 1;
			}
		}
	}
	if (nmodes == 2)
		set_mode("direct");
	return rc;
}
