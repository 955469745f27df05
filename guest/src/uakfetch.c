/*
 * uakfetch: what kprobe events fetch, kernel and user memory alike.  The
 * trace probe code takes every address below TASK_SIZE for a user one
 * under ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE; in the 4G/4G split kernel
 * lowmem lies there too, so a kernel string read that way is a "(fault)".
 * One open() of a file of its own, with the events filtered to this
 * process, must show:
 *  - comm: $comm (current->comm, kernel memory) is the name it set;
 *  - imm: an immediate string (\"hello", kept in kernel memory) is hello;
 *  - kptr: in do_filp_open(), the kernel copy of the path,
 *    pathname->name = +0(+0(%r1)), is the path;
 *  - user: in do_sys_openat2(), the user string +u0(%r1) is the path.
 */
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include "uamode.h"

#define TR "/sys/kernel/tracing"
#define KE TR "/kprobe_events"
#define NAME "uakfetch-xyz"

static int put(const char *path, const char *s, int append)
{
	int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	long n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		n = -errno;
	close(fd);
	return n == (long)strlen(s) ? 0 : n < 0 ? n : -EIO;
}

static void cleanup(void)
{
	put(TR "/events/uak/enable", "0\n", 0);
	put(KE, "-:uak/open\n", 1);
	put(KE, "-:uak/filp\n", 1);
}

/* The value of " @key=" in @line (up to the next blank) into @buf. */
static void field(const char *line, const char *key, char *buf, size_t n)
{
	const char *p = line ? strstr(line, key) : NULL;
	size_t i = 0;

	if (!p) {
		snprintf(buf, n, "%s", line ? "(no field)" : "(no record)");
		return;
	}
	for (p += strlen(key); *p && *p != ' ' && *p != '\n' && i + 1 < n; p++)
		buf[i++] = *p;
	buf[i] = 0;
}

static int check(const char *name, const char *line, const char *key,
		 const char *want)
{
	char got[300], exp[300];

	field(line, key, got, sizeof(got));
	snprintf(exp, sizeof(exp), "\"%s\"", want);
	if (!strcmp(got, exp)) {
		printf("UTEST PASS uakfetch:%s\n", name);
		return 0;
	}
	printf("UTEST FAIL uakfetch:%s (%s%s, want %s)\n", name, key + 1, got, exp);
	return 1;
}

int main(void)
{
	static char line[1024], open_line[1024], filp_line[1024];
	char path[64], filt[64];
	int have_open = 0, have_filp = 0, fd, err, rc = 0;
	struct stat sb;
	FILE *f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (stat(KE, &sb) && mount("tracefs", TR, "tracefs", 0, NULL)) {
		printf("UTEST FAIL uakfetch (no tracefs at " TR ": %s)\n", strerror(errno));
		return 1;
	}
	if (stat(KE, &sb)) {
		printf("UTEST FAIL uakfetch (no " KE ": %s)\n", strerror(errno));
		return 1;
	}
	if (prctl(PR_SET_NAME, NAME, 0, 0, 0)) {
		printf("UTEST FAIL uakfetch (PR_SET_NAME: %s)\n", strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "/tmp/uakfetch-probe-%d", (int)getpid());
	snprintf(filt, sizeof(filt), "common_pid == %d\n", (int)getpid());
	cleanup();	/* a previous run's, if it died */
	err = put(KE, "p:uak/open do_sys_openat2 comm=$comm:string "
		  "imm=\\\"hello\" user=+u0(%r1):ustring\n", 1);
	/* do_filp_open() is do_file_open() since 7.x: the same arguments */
	if (!err && put(KE, "p:uak/filp do_filp_open kptr=+0(+0(%r1)):string\n", 1))
		err = put(KE, "p:uak/filp do_file_open kptr=+0(+0(%r1)):string\n", 1);
	if (!err)
		err = put(TR "/events/uak/open/filter", filt, 0);
	if (!err)
		err = put(TR "/events/uak/filp/filter", filt, 0);
	if (!err)
		err = put(TR "/trace", "", 0);
	if (!err)
		err = put(TR "/tracing_on", "1\n", 0);
	if (!err)
		err = put(TR "/events/uak/enable", "1\n", 0);
	if (err) {
		printf("UTEST FAIL uakfetch (cannot set up the kprobe events: %s)\n",
		       strerror(-err));
		cleanup();
		return 1;
	}
	fd = open(path, O_RDONLY | O_CREAT, 0600);
	put(TR "/events/uak/enable", "0\n", 0);
	if (fd < 0) {
		printf("UTEST FAIL uakfetch (open %s: %s)\n", path, strerror(errno));
		cleanup();
		return 1;
	}
	close(fd);
	unlink(path);
	f = fopen(TR "/trace", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (!have_open && strstr(line, " open: ")) {
			strcpy(open_line, line);
			have_open = 1;
		} else if (!have_filp && strstr(line, " filp: ")) {
			strcpy(filp_line, line);
			have_filp = 1;
		}
	}
	if (f)
		fclose(f);
	cleanup();
	rc |= check("comm", have_open ? open_line : NULL, " comm=", NAME);
	rc |= check("imm", have_open ? open_line : NULL, " imm=", "hello");
	rc |= check("kptr", have_filp ? filp_line : NULL, " kptr=", path);
	rc |= check("user", have_open ? open_line : NULL, " user=", path);
	return rc;
}
