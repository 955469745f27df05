/*
 * uapfnmap: user access to a VM_IO|VM_PFNMAP mapping, direct against pinned.
 *
 * An anonymous page of ours is mapped a second time through /dev/mem at its
 * physical address (from /proc/self/pagemap): remap_pfn_range(), so the
 * second mapping is VM_IO|VM_PFNMAP with special PTEs.  Through that alias:
 *   read   write() to a pipe from the alias: the pipe gets the page's bytes
 *   write  pread() from a file into the alias: the anonymous page sees them
 *   edge   the alias followed by a PROT_NONE page: pwrite() and pread() of
 *          k + 64 bytes starting k bytes before the end return exactly k
 * Each case runs in every mode it can switch to (direct and pinned; only
 * pinned under uaccess_strict) and the results must be identical and equal
 * to the expected values.  One "UTEST PASS|FAIL uapfnmap:<case>" line each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PG 4096
#define MODE_FILE "/sys/kernel/debug/uaccess/mode"

static int failures;

static int set_mode(const char *m)
{
	int fd = open(MODE_FILE, O_WRONLY), ok;

	if (fd < 0)
		return strcmp(m, "direct") ? -1 : 0;
	ok = write(fd, m, strlen(m)) == (ssize_t)strlen(m);
	close(fd);
	return ok ? 0 : -1;
}

static void get_mode(char *buf, size_t len)
{
	int fd = open(MODE_FILE, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		snprintf(buf, len, "direct");
	else
		buf[strcspn(buf, "\n")] = buf[n] = 0;
}

static uint64_t pfn_of(void *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0 || pread(fd, &e, 8, ((uintptr_t)p / PG) * 8) != 8) {
		perror("uapfnmap: /proc/self/pagemap");
		exit(2);
	}
	close(fd);
	if (!(e >> 63) || !(e & ((1ULL << 55) - 1))) {
		fprintf(stderr, "uapfnmap: no PFN in pagemap (entry %#llx)\n", (unsigned long long)e);
		exit(2);
	}
	return e & ((1ULL << 55) - 1);
}

struct rec {
	long ret[8];
	unsigned int sum[8];
};

static unsigned int sum(const unsigned char *p, size_t n)
{
	unsigned int s = 2166136261u;

	while (n--)
		s = (s ^ *p++) * 16777619u;
	return s;
}

static void expect(const char *mode, const char *what, long got, long want)
{
	if (got != want) {
		printf("    %s: %s returned %ld, expected %ld\n", mode, what, got, want);
		failures++;
	}
}

/* One mode: the three cases; results in *r. */
static void run(const char *mode, unsigned char *anon, unsigned char *alias,
		unsigned char *edge, int devmem, uint64_t pfn, struct rec *r)
{
	unsigned char buf[2 * PG];
	int p[2], f, k, i = 0;
	long ret;

	memset(r, 0, sizeof(*r));
	if (pipe(p))
		exit(2);
	f = open("/tmp/uapfnmap.dat", O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (k = 0; k < 2 * PG; k++)
		buf[k] = (unsigned char)(k * 7 + 3);
	if (f < 0 || write(f, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		exit(2);

	/* read: write() from the alias */
	for (k = 0; k < PG; k++)
		anon[k] = (unsigned char)(k * 13 + 1);
	ret = write(p[1], alias, PG);
	expect(mode, "read: write(pipe, alias, 4096)", ret, PG);
	if (read(p[0], buf, PG) != PG || memcmp(buf, anon, PG)) {
		printf("    %s: read: the pipe did not get the page's bytes\n", mode);
		failures++;
	}
	r->ret[i] = ret;
	r->sum[i++] = sum(buf, PG);

	/* write: pread() into the alias */
	memset(anon, 0, PG);
	ret = pread(f, alias, PG, 100);
	expect(mode, "write: pread(file, alias, 4096)", ret, PG);
	for (k = 0; k < PG; k++)
		if (anon[k] != (unsigned char)((k + 100) * 7 + 3))
			break;
	if (k != PG) {
		printf("    %s: write: byte %d of the page is wrong\n", mode, k);
		failures++;
	}
	r->ret[i] = ret;
	r->sum[i++] = sum(anon, PG);

	/* edge: the alias runs into a PROT_NONE page */
	{
		static const int ks[] = { 1, 63, 64, 100, 4095 };
		size_t j;

		for (j = 0; j < sizeof(ks) / sizeof(ks[0]); j++) {
			int kk = ks[j];
			char what[64];

			/* (a pipe drops a partly copied page: use a file) */
			ret = pwrite(f, edge + PG - kk, kk + 64, PG);
			snprintf(what, sizeof(what), "edge: pwrite() of %d valid bytes", kk);
			expect(mode, what, ret, kk);
			r->ret[i] += ret;
			ret = pread(f, edge + PG - kk, kk + 64, 0);
			snprintf(what, sizeof(what), "edge: pread() into %d valid bytes", kk);
			expect(mode, what, ret, kk);
			r->ret[i] += ret;
		}
		r->sum[i++] = sum(anon, PG);
	}
	(void)devmem;
	(void)pfn;
	close(f);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	static const char *modes[] = { "direct", "pinned" };
	struct rec rec[2];
	char saved[32];
	unsigned char *anon, *alias, *edge;
	int devmem, n = 0, m, before;
	uint64_t pfn;

	anon = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED || mlock(anon, PG))
		return perror("uapfnmap: anonymous page"), 2;
	anon[0] = 1;
	pfn = pfn_of(anon);
	devmem = open("/dev/mem", O_RDWR);
	if (devmem < 0)
		return perror("uapfnmap: /dev/mem"), 2;
	alias = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, devmem, (off_t)(pfn * PG));
	if (alias == MAP_FAILED && errno == EPERM) {
		/* A distribution's kernel: STRICT_DEVMEM refuses RAM. */
		printf("UTEST SKIP uapfnmap (mmap of RAM through /dev/mem: EPERM, CONFIG_STRICT_DEVMEM; the lab's own kernels run it)\n");
		return 0;
	}
	if (alias == MAP_FAILED)
		return perror("uapfnmap: mmap /dev/mem"), 2;
	/* A second alias, followed by a PROT_NONE page. */
	edge = mmap(NULL, 2 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (edge == MAP_FAILED ||
	    mmap(edge, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, devmem, (off_t)(pfn * PG)) != edge)
		return perror("uapfnmap: edge alias"), 2;
	printf("    uapfnmap: page at pfn %#llx mapped through /dev/mem (VM_IO|VM_PFNMAP)\n",
	       (unsigned long long)pfn);

	get_mode(saved, sizeof(saved));
	for (m = 0; m < 2; m++) {
		if (set_mode(modes[m]))
			continue;
		before = failures;
		run(modes[m], anon, alias, edge, devmem, pfn, &rec[n]);
		printf("UTEST %s uapfnmap:%s\n", failures == before ? "PASS" : "FAIL", modes[m]);
		n++;
	}
	set_mode(saved);
	if (n == 2) {
		int same = !memcmp(&rec[0], &rec[1], sizeof(rec[0]));

		printf("UTEST %s uapfnmap:direct-vs-pinned%s\n", same ? "PASS" : "FAIL",
		       same ? "" : " (results differ)");
		failures += !same;
	} else {
		printf("UTEST SKIP uapfnmap:direct-vs-pinned (only %s: nothing to compare)\n", saved);
	}
	return failures ? 1 : 0;
}
