/*
 * uastray: make the kernel read a user address directly (bypassing the
 * pinned routines) through /sys/kernel/debug/uaccess/stray, to check what
 * uaccess_strict does with such an access: the write must fail with EFAULT
 * (the access fails as a bad address would), and the kernel log must show
 * one WARN naming the function (checked by scripts/check on the console).
 * Without strict mode the same read succeeds.
 *
 * The kernel's load is a plain privileged ldr with an exception-table
 * entry, as an unconverted __get_user() is on LPAE (TUSER() is empty
 * without CPU_USE_DOMAINS), not an unprivileged ldrt.  On the 4G/4G split
 * (always strict) it goes through the kernel's tables: it faults and WARNs
 * only because mmap(NULL) places the page above lowmem, as it does with up
 * to about 2 GiB of RAM; at an address inside lowmem the same bug reads
 * lowmem silently (the split's documented residual risk).
 *
 *   uastray        prints "STRAY rc=<0|-errno> strict=<0|1>"; exit 0 when
 *                  the result is the expected one for the mode
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int read_int(const char *path)
{
	char buf[16] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	return buf[0] ? buf[0] - '0' : -1;
}

int main(void)
{
	volatile unsigned int *p;
	char addr[32];
	int fd, rc = 0, strict = read_int("/sys/kernel/debug/uaccess/strict");

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	*p = 0x12345678;	/* present, young, dirty: a direct read works */
	fd = open("/sys/kernel/debug/uaccess/stray", O_WRONLY);
	if (fd < 0) {
		perror("open /sys/kernel/debug/uaccess/stray");
		return 2;
	}
	snprintf(addr, sizeof(addr), "%#lx", (unsigned long)p);
	if (write(fd, addr, strlen(addr)) < 0)
		rc = -errno;
	close(fd);
	printf("STRAY rc=%d strict=%d\n", rc, strict);
	if (strict == 1)
		return rc == -EFAULT ? 0 : 1;
	return rc == 0 ? 0 : 1;
}
