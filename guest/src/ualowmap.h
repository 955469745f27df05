/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ualowmap.h - where lowmem lies on a 4G/4G split (CONFIG_VMSPLIT_4G_4G),
 * from what user space can see: the kernel maps RAM at PAGE_OFFSET
 * (0x01000000) upward, at 0x01000000 + (phys - PHYS_OFFSET), PHYS_OFFSET
 * being the lowest System RAM address, up to 0xf0000000 (TASK_SIZE: RAM
 * beyond is not lowmem) and below the HighMem zone's first page when there
 * is one (lowmem may stop earlier, at 0xe0000000 on an EFI boot that keeps
 * the runtime services).
 */
#ifndef UALOWMAP_H
#define UALOWMAP_H
#include <stdio.h>
#include <string.h>

#define LOW_PAGE_OFFSET 0x01000000ULL
#define LOW_CAP 0xf0000000ULL	/* TASK_SIZE: lowmem ends here at most */
#define MAX_RANGES 32

struct range {
	unsigned long long start, end;	/* [start, end) */
};

/*
 * The HighMem zone's first physical address from /proc/zoneinfo, or ~0
 * without one (no HIGHMEM, or no RAM there): lowmem ends below it.
 */
static unsigned long long highmem_start(void)
{
	unsigned long long pfn, start = ~0ULL, spanned = 0;
	char line[256];
	int in_high = 0;
	FILE *f = fopen("/proc/zoneinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Node ", 5)) {
			in_high = strstr(line, "zone") && strstr(line, "HighMem");
			spanned = 0;
			continue;
		}
		if (!in_high)
			continue;
		if (sscanf(line, " spanned %llu", &pfn) == 1)
			spanned = pfn;
		else if (sscanf(line, " start_pfn: %llu", &pfn) == 1 && spanned)
			start = pfn << 12;
	}
	if (f)
		fclose(f);
	return start;
}

/*
 * Lowmem from /proc/iomem's top-level System RAM (root only: as non-root
 * every address reads 0): up to MAX_RANGES ranges in @low, adjacent ones
 * merged, their number in *@nlowp and the RAM's size in *@ram_bytesp;
 * 0 on success.
 */
static int read_lowmem(struct range *low, int *nlowp, unsigned long long *ram_bytesp)
{
	struct range ram[MAX_RANGES];
	unsigned long long s, e, high, phys_offset = ~0ULL;
	char line[256], name[128];
	unsigned long long ram_bytes = 0;
	int nram = 0, nlow = 0, i;
	FILE *f = fopen("/proc/iomem", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* Top level: no indentation. */
		if (line[0] == ' ' ||
		    sscanf(line, "%llx-%llx : %127[^\n]", &s, &e, name) != 3 ||
		    strcmp(name, "System RAM") || e < s || nram == MAX_RANGES)
			continue;
		ram[nram].start = s;
		ram[nram++].end = e + 1;
		ram_bytes += e + 1 - s;
		if (s < phys_offset)
			phys_offset = s;
	}
	fclose(f);
	/* As non-root every address reads 0. */
	if (!nram || ram_bytes <= (unsigned long long)nram)
		return -1;
	high = highmem_start();
	for (i = 0; i < nram; i++) {
		if (ram[i].start >= high)
			continue;
		s = LOW_PAGE_OFFSET + (ram[i].start - phys_offset);
		e = LOW_PAGE_OFFSET + ((ram[i].end < high ? ram[i].end : high) - phys_offset);
		if (e > LOW_CAP)
			e = LOW_CAP;
		if (s >= e)
			continue;
		/* iomem lists ranges in order: merge the adjacent ones. */
		if (nlow && low[nlow - 1].end == s) {
			low[nlow - 1].end = e;
		} else {
			low[nlow].start = s;
			low[nlow++].end = e;
		}
	}
	*nlowp = nlow;
	*ram_bytesp = ram_bytes;
	return 0;
}
#endif
