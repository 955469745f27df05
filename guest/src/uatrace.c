/*
 * uatrace: kprobe events that fetch user memory (copy_from_user_nofault()
 * from a kprobe handler, interrupts off) in the two contexts where the
 * pinned engine must neither lock nor fault:
 *  - inirq: a probe on update_process_times() (the timer interrupt)
 *    fetching the u32 at 0x50000000 of whatever task it interrupts: the
 *    idle task and kernel threads (no mm: must record a fault) as well as
 *    a process spinning in user mode with that page mapped (must record
 *    its value);
 *  - underptl: a probe on folio_add_new_anon_rmap(), which
 *    do_anonymous_page() calls with the page-table lock of the faulting
 *    address held, fetching the u32 at that address (not mapped yet: a
 *    fault is recorded); the engine used to spin on that lock.
 * Per mode (direct, pinned; pinned only under uaccess_strict): the events
 * must fire, and the spinning process's value must be seen.
 */
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "uamode.h"

#define TR "/sys/kernel/tracing"
#define ADDR ((void *)0x50000000UL)
#define MAGIC 0x600dcafeu

static int put(const char *path, const char *s, int append)
{
	int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	long n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (long)strlen(s) ? 0 : -EIO;
}

static void spin_user(void)
{
	volatile unsigned int *p = mmap(ADDR, 4096, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	volatile unsigned long i;

	if (p != ADDR)
		_exit(2);
	for (i = 0; i < 1024; i++)
		p[i] = MAGIC;
	for (i = 0; i < 60000000UL; i++)
		;
	_exit(0);
}

static int one(const char *mode)
{
	unsigned long irq = 0, irq_val = 0, ptl = 0, i;
	static char line[512];
	char *anon;
	FILE *f;
	pid_t pid;
	int st, rc = 0;

	if (put(TR "/trace", "", 0) || put(TR "/events/uapin/enable", "1\n", 0)) {
		printf("UTEST FAIL uatrace:%s (cannot enable the events)\n", mode);
		return 1;
	}
	pid = fork();
	if (pid == 0)
		spin_user();
	/* Fresh anonymous pages: one probe hit under the PTE lock each. */
	anon = mmap(NULL, 256 * 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED)
		return 2;
	for (i = 0; i < 256; i++)
		anon[i * 4096] = 1;
	munmap(anon, 256 * 4096);
	waitpid(pid, &st, 0);
	put(TR "/events/uapin/enable", "0\n", 0);
	f = fopen(TR "/trace", "r");
	if (!f)
		return 2;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, " inirq: ")) {
			irq++;
			irq_val += !!strstr(line, "val=0x600dcafe");
		} else if (strstr(line, " underptl: ")) {
			ptl++;
		}
	}
	fclose(f);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("UTEST FAIL uatrace:%s:spinner (status 0x%x)\n", mode, st);
		rc = 1;
	}
	if (irq && irq_val) {
		printf("UTEST PASS uatrace:%s:inirq (%lu records, %lu with the process's value)\n",
		       mode, irq, irq_val);
	} else {
		printf("UTEST FAIL uatrace:%s:inirq (%lu records, %lu with the process's value)\n",
		       mode, irq, irq_val);
		rc = 1;
	}
	if (ptl >= 256) {
		printf("UTEST PASS uatrace:%s:underptl (%lu records)\n", mode, ptl);
	} else {
		printf("UTEST FAIL uatrace:%s:underptl (%lu records, want >= 256)\n", mode, ptl);
		rc = 1;
	}
	return rc;
}

int main(void)
{
	const char *modes[2];
	int nmodes, m, rc = 0;
	struct stat sb;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (stat(TR "/kprobe_events", &sb) &&
	    mount("tracefs", TR, "tracefs", 0, NULL)) {
		printf("UTEST FAIL uatrace (no tracefs at " TR ": %s)\n", strerror(errno));
		return 1;
	}
	put(TR "/kprobe_events", "", 0);
	if (put(TR "/kprobe_events",
		"p:uapin/inirq update_process_times val=+u0(\\0x50000000):x32\n", 1) ||
	    put(TR "/kprobe_events",
		"p:uapin/underptl folio_add_new_anon_rmap addr=%r2:x32 val=+u0(%r2):x32\n", 1)) {
		printf("UTEST FAIL uatrace (cannot add the kprobe events)\n");
		return 1;
	}
	nmodes = test_modes(modes);
	for (m = 0; m < nmodes; m++) {
		if (select_mode(modes[m])) {
			printf("UTEST FAIL uatrace:%s (cannot select the mode)\n", modes[m]);
			rc = 1;
			continue;
		}
		rc |= one(modes[m]);
	}
	if (nmodes == 2)
		set_mode("direct");
	put(TR "/kprobe_events", "", 0);
	return rc;
}
