/*
 * uaswitch: switching the uaccess mode while user_access_begin() windows
 * and TLB hits are in use.  Processes loop poll() over 512 pollfds (one
 * write window per call), getdents64() of /bin (filldir's windows) and
 * sched_yield() (rseq's accesses on the way back to user space, when
 * glibc registered an rseq area), checking every result, while the main
 * process switches between direct and pinned as fast as it can.  The
 * kernel must not complain (a window open across the switch used to take
 * the stock path inside the window: "sleeping function called from
 * invalid context ... uap_window_open"), and every call must give the
 * right result in both modes.
 *
 *   uaswitch [-n switches]
 */
#include <dirent.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "uamode.h"

#define NFDS 512

struct shared {
	volatile int stop;
	unsigned long calls[3], bad[3];
};

static struct shared *sh;

static void poller(void)
{
	static struct pollfd pfd[NFDS] __attribute__((aligned(4096)));
	int i, rc;

	for (i = 0; i < NFDS; i++)
		pfd[i] = (struct pollfd){ .fd = -1, .events = POLLIN, .revents = 0x55 };
	while (!sh->stop) {
		rc = poll(pfd, NFDS, 0);
		for (i = 0; i < NFDS; i++)
			if (pfd[i].fd != -1 || pfd[i].revents != 0)
				break;
		if (rc != 0 || i < NFDS)
			sh->bad[0]++;
		pfd[0].revents = 0x55;
		sh->calls[0]++;
	}
	exit(0);
}

static void lister(void)
{
	static char buf[4096] __attribute__((aligned(4096)));
	long n, first = -1;
	int fd = open("/bin", O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		exit(2);
	while (!sh->stop) {
		long total = 0;

		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
			total += n;
		if (n < 0 || (first >= 0 && total != first))
			sh->bad[1]++;
		if (first < 0)
			first = total;
		sh->calls[1]++;
	}
	exit(0);
}

static void yielder(void)
{
	while (!sh->stop) {
		if (sched_yield())
			sh->bad[2]++;
		sh->calls[2]++;
	}
	exit(0);
}

int main(int argc, char **argv)
{
	void (*fns[3])(void) = { poller, lister, yielder };
	const char *what[3] = { "poll", "getdents64", "sched_yield" };
	int n = 300, i, st, err, rc = 0;
	pid_t pids[3];

	if (argc == 3 && !strcmp(argv[1], "-n"))
		n = atoi(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access(MODE_FILE, F_OK) || set_mode("direct")) {
		printf("UTEST SKIP uaswitch (no mode switching in this kernel or boot)\n");
		return 0;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	for (i = 0; i < 3; i++) {
		pids[i] = fork();
		if (!pids[i])
			fns[i]();
	}
	for (i = 0; i < n; i++) {
		err = set_mode(i & 1 ? "direct" : "pinned");
		if (err) {
			printf("UTEST FAIL uaswitch (switch %d: %s)\n", i, strerror(err));
			rc = 1;
			break;
		}
		usleep(1000);
	}
	sh->stop = 1;
	for (i = 0; i < 3; i++)
		waitpid(pids[i], &st, 0);
	set_mode("direct");
	for (i = 0; i < 3; i++) {
		int bad = sh->bad[i] || !sh->calls[i];

		printf("UTEST %s uaswitch:%s (%d switches, %lu calls, %lu wrong)\n",
		       bad ? "FAIL" : "PASS", what[i], n, sh->calls[i], sh->bad[i]);
		rc |= bad;
	}
	return rc;
}
