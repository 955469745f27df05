/* SPDX-License-Identifier: GPL-2.0 */
/* uameminfo.h - one /proc/meminfo field, in KiB (0 when absent). */
#ifndef UAMEMINFO_H
#define UAMEMINFO_H
#include <stdio.h>
#include <string.h>

static unsigned long long meminfo_kib(const char *key)
{
	char line[256];
	unsigned long long v = 0, kb;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) &&
		    sscanf(line + strlen(key), ": %llu", &kb) == 1)
			v = kb;
	if (f)
		fclose(f);
	return v;
}
#endif
