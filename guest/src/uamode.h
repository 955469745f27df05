/*
 * uamode.h: the uaccess debugfs files, shared by the guest tests
 * (uacmp, uarace, uastale).
 */
#ifndef UAMODE_H
#define UAMODE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DBG	/* -DDBG='"/some/dir"' points the program at a stand-in, for testing */
#define DBG "/sys/kernel/debug/uaccess"
#endif
#define MODE_FILE DBG "/mode"
#define STRICT_FILE DBG "/strict"
#define PINS_FILE DBG "/pins"
#define FORCE_REF_FILE DBG "/force_ref"	/* CONFIG_UACCESS_PINNED_STATS */

/* Read a small file, trailing newline and blanks cut: 0 or -errno. */
static inline int read_small(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY);
	long r;

	if (fd < 0)
		return -errno;
	r = read(fd, buf, n - 1);
	close(fd);
	if (r < 0)
		return -EIO;
	buf[r] = 0;
	while (r && (buf[r - 1] == '\n' || buf[r - 1] == ' '))
		buf[--r] = 0;
	return 0;
}

/* Write @val to the file @path as echo(1) would: 0 or the errno. */
static inline int write_small(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (dprintf(fd, "%s\n", val) < 0)
		err = errno;
	close(fd);
	return err;
}

/*
 * Switch the mode and read it back: 0, or the errno of the write.  "ref"
 * is the pinned mode with uaccess/force_ref on (task-context misses take
 * the engine's reference path); every other mode turns force_ref off.
 */
static inline int set_mode(const char *m)
{
	int ref = !strcmp(m, "ref"), err;
	const char *mode = ref ? "pinned" : m;
	char now[32];

	if (ref && access(FORCE_REF_FILE, F_OK))
		return ENOENT;
	if (!access(FORCE_REF_FILE, F_OK)) {
		err = write_small(FORCE_REF_FILE, "0");
		if (err)
			return err;
	}
	err = write_small(MODE_FILE, mode);
	if (err)
		return err;
	if (read_small(MODE_FILE, now, sizeof(now)) || strcmp(now, mode))
		return EIO;
	if (ref) {
		err = write_small(FORCE_REF_FILE, "1");
		if (err)
			return err;
		if (read_small(FORCE_REF_FILE, now, sizeof(now)) || strcmp(now, "Y"))
			return EIO;
	}
	return 0;
}

/*
 * The modes a test runs its cases in, into @modes: "direct" and "pinned";
 * only "pinned" under uaccess_strict; "stock" (no switching) without the
 * mode file.  Returns how many.  select_mode() then selects one.
 */
static inline int test_modes(const char *modes[2])
{
	char strict[8] = "";

	if (access(MODE_FILE, F_OK)) {
		modes[0] = "stock";
		return 1;
	}
	if (!read_small(STRICT_FILE, strict, sizeof(strict)) && !strcmp(strict, "1")) {
		modes[0] = "pinned";
		return 1;
	}
	modes[0] = "direct";
	modes[1] = "pinned";
	return 2;
}

/* Select @mode of test_modes() ("stock" needs nothing): 0, or the errno. */
static inline int select_mode(const char *mode)
{
	return strcmp(mode, "stock") ? set_mode(mode) : 0;
}

/* uaccess/pins "outstanding": the count, -1 without the file, -2 unparsable. */
static inline long pins_outstanding(void)
{
	char buf[256], *p;

	if (read_small(PINS_FILE, buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "outstanding");
	return p ? atol(p + strlen("outstanding")) : -2;
}

#endif
