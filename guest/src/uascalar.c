/*
 * uascalar: a get_user()/put_user() is all or nothing.  A scalar that
 * starts k bytes before a PROT_NONE or unmapped page must fail with
 * EFAULT and leave the k bytes before the page as they were.
 *
 *  - ioctl(FIONREAD) into an int 1-3 bytes before the page (put_user of
 *    4 bytes): the stock routine (one strt) stores nothing; so must every
 *    mode.
 *  - epoll_wait() whose event's 8-byte data field starts 1-7 bytes
 *    before the page (put_user of 8 bytes; the 4-byte events field before
 *    it is stored): pinned must store none of data's bytes.  The stock
 *    ARM __put_user_8 stores the first word when the second faults, so in
 *    direct this is only reported, not checked.
 *
 * Every mode the kernel has of direct and pinned, each case in a child.
 */
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "uamode.h"

#define PG 4096
#define SENT 0xee

static const char *bad_name[] = { "PROT_NONE", "unmapped" };

/* Two pages, the second made bad; returns the first. */
static unsigned char *two_pages(int bad)
{
	unsigned char *p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	memset(p, SENT, PG);
	if (bad == 0 ? mprotect(p + PG, PG, PROT_NONE) : munmap(p + PG, PG)) {
		perror("mprotect/munmap");
		exit(2);
	}
	return p;
}

/* Bytes of [from, to) that are no longer SENT. */
static int changed(const unsigned char *from, const unsigned char *to)
{
	int n = 0;

	for (; from < to; from++)
		n += *from != SENT;
	return n;
}

static int fionread(const char *mode, int bad, int k)
{
	unsigned char *p = two_pages(bad);
	int fd[2], rc, err, n;

	if (pipe(fd) || write(fd[1], "0123456789", 10) != 10)
		return 2;
	rc = ioctl(fd[0], FIONREAD, (int *)(p + PG - k));
	err = errno;
	n = changed(p + PG - k, p + PG);
	if (rc == -1 && err == EFAULT && n == 0) {
		printf("UTEST PASS uascalar:%s:fionread-%s-k%d\n", mode, bad_name[bad], k);
		return 0;
	}
	printf("UTEST FAIL uascalar:%s:fionread-%s-k%d (ioctl %d errno %d, %d of the %d bytes"
	       " before the page stored; want -1 EFAULT, none)\n",
	       mode, bad_name[bad], k, rc, rc ? err : 0, n, k);
	return 1;
}

static int epoll(const char *mode, int bad, int k)
{
	unsigned char *p = two_pages(bad);
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 0x1122334455667788ull };
	struct epoll_event *out = (struct epoll_event *)(p + PG - k - 8);
	int fd[2], ep, rc, err, n, events_ok;

	if (sizeof(*out) != 16 || (char *)&out->data - (char *)out != 8) {
		printf("UTEST FAIL uascalar:%s:epoll (struct epoll_event is not 16 bytes"
		       " with data at 8)\n", mode);
		return 1;
	}
	ep = epoll_create1(0);
	if (ep < 0 || pipe(fd) || write(fd[1], "x", 1) != 1 ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, fd[0], &ev))
		return 2;
	rc = epoll_wait(ep, out, 1, 0);
	err = errno;
	n = changed(p + PG - k, p + PG);
	events_ok = !changed(p + PG - k - 8, p + PG - k - 4) ? 0 :
		    *(unsigned int *)(p + PG - k - 8) == EPOLLIN;
	if ((!strcmp(mode, "direct") || !strcmp(mode, "stock")) &&
	    rc == -1 && err == EFAULT) {
		/* Stock: not all or nothing for 8 bytes; say what it did. */
		printf("uascalar: direct: epoll-%s-k%d: stock stored %d of data's %d bytes"
		       " before the page\n", bad_name[bad], k, n, k);
		return 0;
	}
	if (rc == -1 && err == EFAULT && n == 0 && events_ok) {
		printf("UTEST PASS uascalar:%s:epoll-%s-k%d\n", mode, bad_name[bad], k);
		return 0;
	}
	printf("UTEST FAIL uascalar:%s:epoll-%s-k%d (epoll_wait %d errno %d, events %s,"
	       " %d of data's %d bytes before the page stored; want -1 EFAULT, events"
	       " stored, none of data)\n", mode, bad_name[bad], k, rc, rc ? err : 0,
	       events_ok ? "stored" : "not stored", n, k);
	return 1;
}

/* Run @fn in a child under @mode, so that a crash or hang is its own. */
static int in_child(int (*fn)(const char *, int, int), const char *mode, int bad, int k)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		alarm(20);
		exit(fn(mode, bad, k));
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 2;
	if (WIFEXITED(st) && WEXITSTATUS(st) < 2)
		return WEXITSTATUS(st);
	printf("UTEST FAIL uascalar:%s:%s-%s-k%d (child %s %d)\n", mode,
	       fn == fionread ? "fionread" : "epoll", bad_name[bad], k,
	       WIFEXITED(st) ? "exit" : "signal",
	       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	return 1;
}

int main(void)
{
	const char *modes[2];
	int m, bad, k, rc = 0, nmodes;

	setvbuf(stdout, NULL, _IOLBF, 0);
	nmodes = test_modes(modes);
	for (m = 0; m < nmodes; m++) {
		if (select_mode(modes[m])) {
			printf("UTEST FAIL uascalar:%s (cannot select the mode)\n", modes[m]);
			rc = 1;
			continue;
		}
		for (bad = 0; bad < 2; bad++) {
			for (k = 1; k <= 3; k++)
				rc |= in_child(fionread, modes[m], bad, k);
			for (k = 1; k <= 7; k++)
				rc |= in_child(epoll, modes[m], bad, k);
		}
	}
	if (nmodes == 2)
		set_mode("direct");
	return rc;
}
