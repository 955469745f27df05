/*
 * uauffd: the address a kernel-mode fault reports to userfaultfd.  With
 * UFFD_FEATURE_EXACT_ADDRESS the handler is told the address accessed,
 * not its page; the engine must pass handle_mm_fault() the address it
 * was accessing (review defect 10a: it passed addr & PAGE_MASK).
 *
 * Each case maps two fresh anonymous pages registered for MISSING faults
 * and has the kernel access the second one at offset OFF (not page
 * aligned) through a syscall; a handler thread records the first fault's
 * address and flags and resolves it with UFFDIO_COPY of a known page:
 *
 *   read      read() from a pipe into the page    copy_to_user()
 *   write     write() of the page into a pipe     copy_from_user()
 *   fionread  ioctl(FIONREAD) into the page       put_user()
 *
 * Per mode (direct and pinned; pinned alone under uaccess_strict) the
 * syscall must succeed with the right bytes, a fault must reach the
 * handler in the page accessed, and the write flag must say whether the
 * kernel stored.  In the pinned mode the address must be the first byte
 * accessed, page+OFF.  The stock routines are not exact here: ARM's
 * do_page_fault() passes a kernel-mode fault's address to
 * handle_mm_fault() as addr & PAGE_MASK (its per-VMA-lock path, taken for
 * user-mode faults only, passes addr), so the direct mode is only
 * required to report an address in the page, and the report says which.
 */
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "uamode.h"

#define PAGE	4096UL
#define OFF	0x123UL		/* offset of the access in the second page */
#define NBYTES	64UL		/* bytes moved by read() and write() */

enum { C_READ, C_WRITE, C_FIONREAD, NR_CASES };
static const char *const case_name[NR_CASES] = { "read", "write", "fionread" };

struct fault {
	int n;			/* faults seen */
	unsigned long addr;	/* the first one's address */
	unsigned long long flags;
};

static int uffd;
static unsigned char src_page[PAGE];
static struct fault seen;
static volatile int stop;

static void *handler(void *arg)
{
	(void)arg;
	while (!stop) {
		struct pollfd pfd = { .fd = uffd, .events = POLLIN };
		struct uffd_msg msg;
		struct uffdio_copy cp;

		if (poll(&pfd, 1, 50) <= 0)
			continue;
		if (read(uffd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		if (!seen.n++) {
			seen.addr = msg.arg.pagefault.address;
			seen.flags = msg.arg.pagefault.flags;
		}
		cp.dst = msg.arg.pagefault.address & ~(PAGE - 1);
		cp.src = (unsigned long)src_page;
		cp.len = PAGE;
		cp.mode = 0;
		cp.copy = 0;
		if (ioctl(uffd, UFFDIO_COPY, &cp) && errno != EEXIST)
			perror("uauffd: UFFDIO_COPY");
	}
	return NULL;
}

/* One case: 0 and *f filled in, or -1 with *why set. */
static int one(int c, struct fault *f, const char **why)
{
	unsigned char buf[NBYTES], *p, *at;
	struct uffdio_register reg;
	int pfd[2], ok = 1, n;
	long r;

	*why = "";
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		*why = "mmap failed";
		return -1;
	}
	reg.range.start = (unsigned long)p;
	reg.range.len = 2 * PAGE;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		*why = "UFFDIO_REGISTER failed";
		munmap(p, 2 * PAGE);
		return -1;
	}
	if (pipe(pfd)) {
		*why = "pipe failed";
		munmap(p, 2 * PAGE);
		return -1;
	}
	at = p + PAGE + OFF;
	memset(&seen, 0, sizeof(seen));
	__sync_synchronize();
	switch (c) {
	case C_READ:
		memset(buf, 0x5a, sizeof(buf));
		if (write(pfd[1], buf, sizeof(buf)) != (long)sizeof(buf)) {
			*why = "pipe write failed";
			ok = 0;
			break;
		}
		r = read(pfd[0], at, NBYTES);
		if (r != (long)NBYTES || memcmp(at, buf, NBYTES)) {
			*why = "read() did not deliver the bytes";
			ok = 0;
		}
		break;
	case C_WRITE:
		r = write(pfd[1], at, NBYTES);
		if (r != (long)NBYTES || read(pfd[0], buf, NBYTES) != (long)NBYTES ||
		    memcmp(buf, src_page + OFF, NBYTES)) {
			*why = "write() did not take the handler's bytes";
			ok = 0;
		}
		break;
	case C_FIONREAD:
		if (write(pfd[1], "abc", 3) != 3) {
			*why = "pipe write failed";
			ok = 0;
			break;
		}
		r = ioctl(pfd[0], FIONREAD, (int *)(void *)at);
		memcpy(&n, at, sizeof(n));
		if (r || n != 3) {
			*why = "FIONREAD did not store 3";
			ok = 0;
		}
		break;
	}
	__sync_synchronize();
	*f = seen;
	close(pfd[0]);
	close(pfd[1]);
	munmap(p, 2 * PAGE);
	if (ok && !f->n)
		*why = "no fault reached the handler";
	if (!ok || !f->n)
		return -1;
	/* Relative to the page, for the report. */
	f->addr -= (unsigned long)p + PAGE;
	return 0;
}

int main(void)
{
	const char *modes[2], *why;
	struct uffdio_api api = {
		.api = UFFD_API, .features = UFFD_FEATURE_EXACT_ADDRESS,
	};
	int nmodes, failures = 0;
	unsigned long lo, hi;
	pthread_t th;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (unsigned long i = 0; i < PAGE; i++)
		src_page[i] = (unsigned char)(i * 7 + 3);
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0) {
		printf("UTEST FAIL uauffd:setup (userfaultfd: %s)\n", strerror(errno));
		return 1;
	}
	if (ioctl(uffd, UFFDIO_API, &api)) {
		printf("UTEST FAIL uauffd:setup (UFFDIO_API with UFFD_FEATURE_EXACT_ADDRESS: %s)\n",
		       strerror(errno));
		return 1;
	}
	if (pthread_create(&th, NULL, handler, NULL)) {
		printf("UTEST FAIL uauffd:setup (pthread_create)\n");
		return 1;
	}
	nmodes = test_modes(modes);
	for (int m = 0; m < nmodes; m++) {
		int err = select_mode(modes[m]);

		if (err) {
			printf("UTEST FAIL uauffd:%s (cannot select the mode: %s)\n", modes[m],
			       strerror(err));
			failures++;
			continue;
		}
		for (int c = 0; c < NR_CASES; c++) {
			int want_write = c != C_WRITE;
			int is_write, exact;
			struct fault f;

			if (one(c, &f, &why)) {
				printf("UTEST FAIL uauffd:%s:%s (%s)\n", modes[m], case_name[c], why);
				failures++;
				continue;
			}
			is_write = !!(f.flags & UFFD_PAGEFAULT_FLAG_WRITE);
			exact = !strcmp(modes[m], "pinned");
			lo = exact ? OFF : 0;
			hi = exact ? OFF + 1 : PAGE;
			if (f.addr < lo || f.addr >= hi || is_write != want_write) {
				printf("UTEST FAIL uauffd:%s:%s (fault reported at page+%#lx for a %s, want %s%#lx for a %s)\n",
				       modes[m], case_name[c], f.addr, is_write ? "write" : "read",
				       exact ? "the first byte accessed, page+" : "an address in the page, below page+",
				       exact ? lo : hi, want_write ? "write" : "read");
				failures++;
				continue;
			}
			printf("UTEST PASS uauffd:%s:%s (%d fault(s), the first at page+%#lx, %s)\n", modes[m],
			       case_name[c], f.n, f.addr, is_write ? "write" : "read");
		}
	}
	stop = 1;
	pthread_join(th, NULL);
	select_mode(modes[0]);
	return failures != 0;
}
