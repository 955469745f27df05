// SPDX-License-Identifier: GPL-2.0
/*
 * uapm - memory that must survive a hibernation, and a crash dump that must
 * hold it (the 4G/4G split's hibernation and kdump checks, run by
 * guest/scripts/uapin-pm).
 *
 *   uapm mark MiB     map MiB of anonymous memory, write a pattern keyed by
 *                     each word's address into all of it, and print
 *                     "MARK phys=0x... pid=N" (the physical address of the
 *                     first page, from /proc/self/pagemap); then wait for
 *                     SIGUSR1, check every word, print "MARK ok" or
 *                     "MARK bad N words" and exit 0 or 1.
 *   uapm vmcore PHYS  in a capture kernel: find PHYS in /proc/vmcore's
 *                     PT_LOAD segments (ELF32 or ELF64) and check that its
 *                     page holds the pattern "uapm mark" wrote there at that
 *                     page's user address (the first page of the mark: its
 *                     user address is in the page's first word's key, so
 *                     the check reads it from the pattern itself); check
 *                     the VMCOREINFO note names the 4G/4G split; then
 *                     read the dump as crash and makedumpfile must, from
 *                     VMCOREINFO alone: init_uts_ns (a kernel image
 *                     symbol, translated with KIMAGE_DELTA, PAGE_OFFSET and
 *                     PHYS_OFFSET as vmcoreinfo.rst says) must hold the
 *                     OSRELEASE the note gives, and a walk of
 *                     swapper_pg_dir's LPAE tables must translate image and
 *                     lowmem addresses to the same physical addresses.
 *
 * Output of vmcore: "UTEST PASS|FAIL pm:<check> [detail]"; exit 0 iff all pass.
 */
#define _FILE_OFFSET_BITS 64	/* /proc/vmcore is larger than 2 GiB with more RAM */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MiB (1024UL * 1024)
#define PG 4096UL

/* The word at user address a: its address mixed with a constant. */
static inline uint32_t pat(uint32_t a)
{
	return (a * 2654435761u) ^ 0x4d41524bu;
}

static volatile sig_atomic_t go;

static void usr1(int sig)
{
	(void)sig;
	go = 1;
}

static int mark(size_t mib)
{
	size_t len = mib * MiB, i, bad = 0;
	uint32_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	uint64_t ent = 0;
	sigset_t none;
	int fd;

	if (p == MAP_FAILED) {
		printf("MARK mmap: %s\n", strerror(errno));
		return 1;
	}
	signal(SIGUSR1, usr1);
	for (i = 0; i < len / 4; i++)
		p[i] = pat((uint32_t)(uintptr_t)&p[i]);
	/* The first page stays where it is: a capture kernel looks for it. */
	mlock(p, PG);
	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0 || pread(fd, &ent, 8, (uintptr_t)p / PG * 8) != 8 ||
	    !(ent >> 63) || !(ent & ((1ULL << 55) - 1))) {
		printf("MARK pagemap: %s (entry %#llx)\n", strerror(errno),
		       (unsigned long long)ent);
		return 1;
	}
	close(fd);
	printf("MARK phys=0x%llx pid=%d\n",
	       (unsigned long long)(ent & ((1ULL << 55) - 1)) * PG, getpid());
	fflush(stdout);
	sigemptyset(&none);
	while (!go)
		sigsuspend(&none);
	for (i = 0; i < len / 4; i++)
		bad += p[i] != pat((uint32_t)(uintptr_t)&p[i]);
	if (bad)
		printf("MARK bad %zu words of %zu\n", bad, len / 4);
	else
		printf("MARK ok %zu MiB\n", mib);
	return !!bad;
}

static int failed;

static void result(const char *st, const char *name, const char *detail)
{
	printf("UTEST %s pm:%s%s%s\n", st, name, detail[0] ? " " : "", detail);
	if (strcmp(st, "PASS"))
		failed = 1;
}

/* One program header, from an ELF32 or ELF64 file, as ELF64's. */
static int phdr(int fd, int is64, const unsigned char *eh, unsigned int i, Elf64_Phdr *ph)
{
	if (is64) {
		const Elf64_Ehdr *e = (const void *)eh;

		return pread(fd, ph, sizeof(*ph), e->e_phoff + (off_t)i * e->e_phentsize) ==
		       sizeof(*ph) ? 0 : -1;
	} else {
		const Elf32_Ehdr *e = (const void *)eh;
		Elf32_Phdr p;

		if (pread(fd, &p, sizeof(p), e->e_phoff + (off_t)i * e->e_phentsize) != sizeof(p))
			return -1;
		ph->p_type = p.p_type;
		ph->p_offset = p.p_offset;
		ph->p_paddr = p.p_paddr;
		ph->p_filesz = p.p_filesz;
		return 0;
	}
}

/* The dump's PT_LOAD segments, for reads by physical address. */
static struct { unsigned long long pa, off, len; } seg[128];
static unsigned int nseg;

static int read_phys(int fd, unsigned long long pa, void *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < nseg; i++)
		if (pa >= seg[i].pa && pa + len <= seg[i].pa + seg[i].len)
			return pread(fd, buf, len, seg[i].off + (pa - seg[i].pa)) == (ssize_t)len ? 0 : -1;
	return -1;
}

/* The value after "KEY=" in the VMCOREINFO text, or NULL. */
static const char *info(const char *note, size_t n, const char *key)
{
	size_t k = strlen(key);
	const char *p = note, *end = note + n;

	while ((p = memmem(p, end - p, key, k))) {
		if ((p == note || p[-1] == '\n' || p[-1] == '\0') && p[k] == '=')
			return p + k + 1;
		p += k;
	}
	return NULL;
}

/*
 * Translate a kernel virtual address through swapper_pg_dir (LPAE: a
 * four-entry first level, 512-entry second and third levels, 2 MiB blocks
 * at the second) as crash's arm_vtop() does; ~0 if it is not mapped.
 */
static unsigned long long walk(int fd, unsigned long long pgd, uint32_t va)
{
	const unsigned long long oa = 0xfffffff000ULL;	/* bits 39:12 */
	uint64_t d;

	if (read_phys(fd, pgd + (va >> 30) * 8, &d, 8) || (d & 3) != 3)
		return ~0ULL;
	if (read_phys(fd, (d & oa) + ((va >> 21) & 511) * 8, &d, 8))
		return ~0ULL;
	if ((d & 3) == 1)
		return (d & oa & ~0x1fffffULL) | (va & 0x1fffff);
	if ((d & 3) != 3 || read_phys(fd, (d & oa) + ((va >> 12) & 511) * 8, &d, 8) ||
	    (d & 3) != 3)
		return ~0ULL;
	return (d & oa) | (va & 0xfff);
}

/*
 * A crash-style read of the dump from VMCOREINFO alone (vmcoreinfo.rst's
 * VMSPLIT_4G_4G fields): an image address translates as the linear address
 * KIMAGE_DELTA below it, a linear one as address - PAGE_OFFSET +
 * PHYS_OFFSET.
 */
static void crash_read(int fd, const char *note, size_t n)
{
	const char *rel = info(note, n, "OSRELEASE"), *v;
	unsigned long long po = 0, kd = 0, phys_off = 0, uts = 0, pgdv = 0, name = 0;
	unsigned long long pa, stock, pgd, w, low = ~0ULL;
	uint32_t mdf_po = 0, mdf_low;
	char buf[65], sbuf[65], d[320];
	size_t rl;
	int ok = 1, i;
	static const char *const keys[] = {
		"NUMBER(PAGE_OFFSET)", "NUMBER(KIMAGE_DELTA)", "NUMBER(PHYS_OFFSET)",
		"SYMBOL(init_uts_ns)", "SYMBOL(swapper_pg_dir)", "OFFSET(uts_namespace.name)",
	};
	unsigned long long *vals[] = { &po, &kd, &phys_off, &uts, &pgdv, &name };

	for (i = 0; i < 6; i++) {
		v = info(note, n, keys[i]);
		if (!v) {
			snprintf(d, sizeof(d), "(VMCOREINFO has no %s)", keys[i]);
			result("FAIL", "vmcore-read", d);
			return;
		}
		*vals[i] = strtoull(v, NULL, i < 3 ? 0 : i < 5 ? 16 : 10);
	}
	if (!rel) {
		result("FAIL", "vmcore-read", "(VMCOREINFO has no OSRELEASE)");
		return;
	}
	rl = strcspn(rel, "\n");
	if (uts < po + kd) {
		snprintf(d, sizeof(d), "(init_uts_ns at %#llx is not a kernel image address)", uts);
		result("FAIL", "vmcore-read", d);
		return;
	}
	/* init_uts_ns.name.release: the third 65-byte field of new_utsname */
	pa = uts - kd - po + phys_off + name + 2 * 65;
	stock = uts - po + phys_off + name + 2 * 65;
	memset(buf, 0, sizeof(buf));
	memset(sbuf, 0, sizeof(sbuf));
	if (read_phys(fd, pa, buf, 64) || strlen(buf) != rl || memcmp(buf, rel, rl))
		ok = 0;
	if (read_phys(fd, stock, sbuf, 64))
		strcpy(sbuf, "(not in the dump)");
	for (i = 0; sbuf[i]; i++)
		if (sbuf[i] < 32 || sbuf[i] > 126)
			sbuf[i] = '.';
	snprintf(d, sizeof(d), "(init_uts_ns %#llx -> %#llx: release \"%.40s\", OSRELEASE \"%.*s\"; taken as a linear address %#llx: \"%.20s\")",
		 uts, pa - name - 2 * 65, buf, (int)(rl > 40 ? 40 : rl), rel,
		 stock - name - 2 * 65, sbuf);
	result(ok ? "PASS" : "FAIL", "vmcore-read", d);
	/*
	 * For the record: Debian's makedumpfile takes page_offset on ARM as
	 * _stext & 0xffff0000 and phys_base as the lowest PT_LOAD address,
	 * which gets image symbols right on the split and lowmem wrong.
	 */
	v = info(note, n, "SYMBOL(_stext)");
	if (v)
		mdf_po = strtoul(v, NULL, 16) & 0xffff0000u;
	for (i = 0; i < (int)nseg; i++)
		if (seg[i].pa < low)
			low = seg[i].pa;
	mdf_low = (uint32_t)(po + 0x1000000 - mdf_po + low);
	printf("uapm: makedumpfile's ARM translation (page_offset %#x from _stext, phys_base %#llx): init_uts_ns %#llx -> %#x, lowmem %#llx -> %#x; VMCOREINFO's: %#llx, %#llx\n",
	       mdf_po, low, uts, (uint32_t)(uts - mdf_po + low), po + 0x1000000, mdf_low,
	       uts - kd - po + phys_off, phys_off + 0x1000000);

	/* The same translations through the crashed kernel's own tables. */
	pgd = pgdv - kd - po + phys_off;
	{
		struct { const char *what; uint32_t va; unsigned long long want; } t[] = {
			{ "init_uts_ns (image)", uts, uts - kd - po + phys_off },
			{ "init_uts_ns (linear alias)", uts - kd, uts - kd - po + phys_off },
			{ "PAGE_OFFSET", po, phys_off },
			{ "PAGE_OFFSET+16M", po + 0x1000000, phys_off + 0x1000000 },
		};
		int bad = 0, len = 0;

		len = snprintf(d, sizeof(d), "(swapper_pg_dir at %#llx:", pgd);
		for (i = 0; i < 4; i++) {
			w = walk(fd, pgd, t[i].va);
			bad += w != t[i].want;
			len += snprintf(d + len, sizeof(d) - len, " %s %#x -> %#llx%s;",
					t[i].what, t[i].va, w, w == t[i].want ? "" : " (formula: different)");
		}
		d[len - 1] = ')';
		result(bad ? "FAIL" : "PASS", "vmcore-walk", d);
	}
}

static int vmcore(unsigned long long phys)
{
	unsigned char eh[sizeof(Elf64_Ehdr)];
	static uint32_t page[PG / 4];
	static char note[65536];
	char d[256];
	unsigned long long total = 0, off = 0;
	ssize_t notelen = 0;
	unsigned int i, n, bad = 0, found = 0, is64;
	uint32_t base = 0;
	Elf64_Phdr ph;
	int fd = open("/proc/vmcore", O_RDONLY);

	if (fd < 0 || pread(fd, eh, sizeof(eh), 0) < (ssize_t)sizeof(Elf32_Ehdr) ||
	    memcmp(eh, ELFMAG, SELFMAG)) {
		snprintf(d, sizeof(d), "(/proc/vmcore: %s)", fd < 0 ? strerror(errno) : "no ELF header");
		result("FAIL", "vmcore-elf", d);
		return 1;
	}
	is64 = eh[EI_CLASS] == ELFCLASS64;
	n = is64 ? ((Elf64_Ehdr *)eh)->e_phnum : ((Elf32_Ehdr *)eh)->e_phnum;
	for (i = 0; i < n; i++) {
		if (phdr(fd, is64, eh, i, &ph)) {
			result("FAIL", "vmcore-elf", "(a program header cannot be read)");
			return 1;
		}
		if (ph.p_type == PT_LOAD) {
			total += ph.p_filesz;
			if (nseg < sizeof(seg) / sizeof(seg[0])) {
				seg[nseg].pa = ph.p_paddr;
				seg[nseg].off = ph.p_offset;
				seg[nseg++].len = ph.p_filesz;
			}
			if (phys >= ph.p_paddr && phys + PG <= ph.p_paddr + ph.p_filesz) {
				off = ph.p_offset + (phys - ph.p_paddr);
				found |= 1;
			}
		} else if (ph.p_type == PT_NOTE && ph.p_filesz < sizeof(note)) {
			ssize_t r = pread(fd, note, ph.p_filesz, ph.p_offset);

			if (r > 0 && memmem(note, r, "CONFIG_VMSPLIT_4G_4G=y", 22) &&
			    memmem(note, r, "NUMBER(KIMAGE_DELTA)=", 21)) {
				found |= 2;
				notelen = r;
			}
		}
	}
	snprintf(d, sizeof(d), "(ELF%d, %u program headers, %llu MiB of memory)",
		 is64 ? 64 : 32, n, total / MiB);
	result(total >= 256 * MiB ? "PASS" : "FAIL", "vmcore-elf", d);
	result(found & 2 ? "PASS" : "FAIL", "vmcore-info",
	       found & 2 ? "(VMCOREINFO: CONFIG_VMSPLIT_4G_4G=y, KIMAGE_DELTA)" :
			   "(no VMSPLIT_4G_4G or KIMAGE_DELTA in the notes)");
	if (found & 2)
		crash_read(fd, note, notelen);
	if (!(found & 1)) {
		snprintf(d, sizeof(d), "(physical address %#llx in no PT_LOAD segment)", phys);
		result("FAIL", "vmcore-mark", d);
		return 1;
	}
	if (pread(fd, page, PG, off) != (ssize_t)PG) {
		snprintf(d, sizeof(d), "(read at %#llx: %s)", off, strerror(errno));
		result("FAIL", "vmcore-mark", d);
		return 1;
	}
	/*
	 * The page's user address is not known here, but its first word is
	 * pat(a) for a page-aligned a: find the a (4096-aligned, below 4 GiB)
	 * whose pattern it is, then every word must follow from it.
	 */
	for (base = 0; base < 0xfffff000u; base += PG)
		if (pat(base) == page[0])
			break;
	for (i = 0; i < PG / 4; i++)
		bad += page[i] != pat(base + 4 * i);
	snprintf(d, sizeof(d), "(page at %#llx, user address %#x: %u of %lu words wrong)",
		 phys, base, bad, PG / 4);
	result(bad ? "FAIL" : "PASS", "vmcore-mark", d);
	close(fd);
	return failed;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "mark"))
		return mark(strtoul(argv[2], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "vmcore"))
		return vmcore(strtoull(argv[2], NULL, 0));
	fprintf(stderr, "usage: uapm mark MiB | uapm vmcore PHYS\n");
	return 2;
}
