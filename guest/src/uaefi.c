// SPDX-License-Identifier: GPL-2.0
/*
 * uaefi - EFI runtime services through efivarfs (the 4G/4G split's EFI
 * check, run by guest/scripts/uapin-pm): every read and write of a
 * variable file is a GetVariable()/SetVariable() call into the firmware,
 * which runs on efi_mm's tables at the addresses the stub gave it.
 *
 *   uaefi loop DIR N TOKEN  N times: write "TOKEN-i" to DIR/UapinTest-GUID
 *                           (non-volatile, boot and runtime access), read
 *                           the file back through a new descriptor and
 *                           compare; also read one variable the firmware
 *                           wrote itself (the first Boot#### or BootOrder)
 *                           each time.  Leaves TOKEN in the variable.
 *   uaefi check DIR TOKEN   the variable holds TOKEN with the attributes
 *                           written (a later boot: the value reached the
 *                           firmware's store), then delete it and check
 *                           that it is gone.
 *
 * Output: "UTEST PASS|FAIL efi:<check> (detail)"; exit 0 iff all pass.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <unistd.h>

#define GUID "8e9b3b5e-2f6e-4c35-9d40-7561706e6566"
#define NAME "UapinTest-" GUID
/* EFI_VARIABLE_NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS */
#define ATTR 7u

static int fails;

static void result(int ok, const char *check, const char *detail)
{
	printf("UTEST %s efi:%s (%s)\n", ok ? "PASS" : "FAIL", check, detail);
	fails += !ok;
}

/* Read a variable file: 4 bytes of attributes, then the data. */
static ssize_t get(const char *path, uint32_t *attr, char *buf, size_t len)
{
	char tmp[4 + 1024];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	n = read(fd, tmp, sizeof(tmp));
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 4)
		return n < 0 ? n : -EIO;
	memcpy(attr, tmp, 4);
	n -= 4;
	if ((size_t)n > len)
		n = len;
	memcpy(buf, tmp + 4, n);
	return n;
}

/*
 * efivarfs makes a variable it does not know immutable, also one it has
 * just created: chattr -i before a write or an unlink.  No file: nothing.
 */
static int mutable(const char *path)
{
	int fd = open(path, O_RDONLY), flags, err = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		err = -errno;
	} else if (flags & FS_IMMUTABLE_FL) {
		flags &= ~FS_IMMUTABLE_FL;
		if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
			err = -errno;
	}
	close(fd);
	return err;
}

/* Write a variable file in one write(): efivarfs wants attributes + data. */
static int set(const char *path, const char *val)
{
	char tmp[4 + 256];
	uint32_t attr = ATTR;
	size_t n = strlen(val);
	ssize_t w;
	int fd;

	if (n > sizeof(tmp) - 4)
		return -EINVAL;
	memcpy(tmp, &attr, 4);
	memcpy(tmp + 4, val, n);
	w = mutable(path);
	if (w)
		return w;
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		return -errno;
	w = write(fd, tmp, 4 + n);
	w = w < 0 ? -errno : w;
	close(fd);
	return w == (ssize_t)(4 + n) ? 0 : (w < 0 ? (int)w : -EIO);
}

/* A variable the firmware wrote itself: BootOrder or a Boot#### one. */
static int firmware_var(const char *dir, char *path, size_t len)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, "BootOrder-", 10) ||
		    (!strncmp(e->d_name, "Boot0", 5) && !found)) {
			snprintf(path, len, "%s/%s", dir, e->d_name);
			found = 1;
			if (!strncmp(e->d_name, "BootOrder-", 10))
				break;
		}
	}
	closedir(d);
	return found;
}

static int loop(const char *dir, long n, const char *token)
{
	char path[512], fw[512], want[128], buf[1024], d[256];
	uint32_t attr, fwattr;
	ssize_t got, fwlen = -1;
	long i, bad = 0, fwbad = 0;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, NAME);
	if (!firmware_var(dir, fw, sizeof(fw))) {
		result(0, "firmware-variable", "no BootOrder or Boot#### variable in efivarfs");
		return 1;
	}
	for (i = 0; i <= n; i++) {
		if (i < n)
			snprintf(want, sizeof(want), "%s-%ld", token, i);
		else
			snprintf(want, sizeof(want), "%s", token);
		err = set(path, want);
		if (err) {
			snprintf(d, sizeof(d), "write %ld of %s: %s", i, NAME, strerror(-err));
			result(0, "set-get", d);
			return 1;
		}
		got = get(path, &attr, buf, sizeof(buf));
		if (got != (ssize_t)strlen(want) || memcmp(buf, want, got) || attr != ATTR)
			bad++;
		got = get(fw, &fwattr, buf, sizeof(buf));
		if (fwlen < 0)
			fwlen = got;
		if (got <= 0 || got != fwlen)
			fwbad++;
	}
	snprintf(d, sizeof(d), "%ld SetVariable+GetVariable round trips, %ld mismatches; last value %s",
		 n + 1, bad, token);
	result(!bad, "set-get", d);
	snprintf(d, sizeof(d), "%s read %ld times, %zd bytes, %ld bad reads",
		 strrchr(fw, '/') + 1, n + 1, fwlen, fwbad);
	result(!fwbad && fwlen > 0, "firmware-variable", d);
	return fails != 0;
}

static int check(const char *dir, const char *token)
{
	char path[512], buf[1024], d[1536];
	uint32_t attr = 0;
	ssize_t got;
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, NAME);
	got = get(path, &attr, buf, sizeof(buf) - 1);
	if (got < 0) {
		snprintf(d, sizeof(d), "%s after the reboot: %s", NAME, strerror(-got));
		result(0, "persist", d);
		return 1;
	}
	buf[got] = 0;
	snprintf(d, sizeof(d), "%s after the reboot holds '%s', attributes %#x (want '%s', %#x)",
		 NAME, buf, attr, token, ATTR);
	result(!strcmp(buf, token) && attr == ATTR, "persist", d);
	if (mutable(path) || unlink(path)) {
		snprintf(d, sizeof(d), "unlink %s: %s", NAME, strerror(errno));
		result(0, "delete", d);
		return 1;
	}
	/* efivarfs drops the file; the firmware must not have it either. */
	got = get(path, &attr, buf, sizeof(buf));
	snprintf(d, sizeof(d), "after unlink: %s", got < 0 ? strerror(-got) : "still readable");
	result(got == -ENOENT && stat(path, &st) != 0, "delete", d);
	return fails != 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "loop"))
		return loop(argv[2], strtol(argv[3], NULL, 0), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "check"))
		return check(argv[2], argv[3]);
	fprintf(stderr, "usage: uaefi loop DIR N TOKEN | uaefi check DIR TOKEN\n");
	return 2;
}
