// SPDX-License-Identifier: GPL-2.0
/*
 * uazero: a zero-length user copy is a no-op.
 *
 * The ABI: copy_to_user(p, x, 0) and copy_from_user(x, p, 0) return 0 and
 * touch nothing, whatever p is: mapped or not, resident or not, readable,
 * writable or neither.  The stock routines check access_ok(p, 0) and copy
 * nothing, so a syscall that passes a user-chosen length of 0 succeeds
 * even on an unmapped address and faults nothing in.  An engine that
 * reaches user memory by walking the page tables and faulting the page in
 * before it looks at the length breaks that: a write fault (copy_to_user)
 * allocates an anonymous page, breaks COW, or calls a MAP_SHARED file's
 * page_mkwrite (which changes its mtime); a read fault (copy_from_user)
 * maps a page; either waits on a userfaultfd that registered the range.
 *
 * The syscalls, each with a user-chosen length of 0 (checked in the
 * kernel tree, 7.3 and 6.12 alike):
 *
 *   getsockopt_len0     getsockopt(unix socket, SOL_SOCKET, SO_TYPE, p,
 *                       &len) with len = 0: net/core/sock.c sk_getsockopt()
 *                       clamps len to sizeof(int) only when larger, calls
 *                       copy_to_sockptr(optval, &v, 0), i.e.
 *                       copy_to_user(p, &v, 0), writes len (0) back and
 *                       returns 0.                         (copy_to_user)
 *   setdomainname_len0  setdomainname(p, 0) in a new UTS namespace:
 *                       kernel/sys.c calls copy_from_user(tmp, p, 0) and
 *                       sets an empty domain name.       (copy_from_user)
 *
 * Each runs with p in one kind of page (the fixture's variants):
 *
 *   untouched    a fresh anonymous MAP_PRIVATE page never touched
 *   readonly     the same, PROT_READ only (copy_to_user's fault would be
 *                refused; copy_from_user's maps the shared zero page)
 *   unmapped     a page mmap()ed and munmap()ed again: no VMA at all
 *   uffd         an anonymous page registered with userfaultfd for
 *                MISSING faults, UFFD_FEATURE_SIGBUS, no monitor: a fault
 *                makes the kernel access fail instead of waiting forever
 *   uffd_monitor the same without UFFD_FEATURE_SIGBUS (and without
 *                UFFD_USER_MODE_ONLY, so kernel faults are reported) and
 *                with a monitor thread that counts the faults and resolves
 *                them with UFFDIO_COPY.  copy_*_user() return the bytes
 *                not copied, at most the length, so with length 0 a fault
 *                in the SIGBUS variant can fail nothing the caller sees:
 *                only a monitor can see that the kernel faulted at all.
 *   shared_file  a MAP_SHARED PROT_READ|PROT_WRITE mapping of a ramfs file
 *                written with write() (in the page cache; the fresh mapping
 *                has no PTE), its mtime set to 2000-01-01 before mmap()
 *
 * and each test checks the syscall's return value and result, then that
 * the page is as it was, in ways that fail when the kernel faults it in:
 *
 *   - anonymous pages: mincore() says not resident.  mm/mincore.c
 *     mincore_pte_range() reports 1 for any present PTE (the shared zero
 *     page of a read fault included) and, on an anonymous VMA, 0 for an
 *     empty one.
 *   - every mapped page: /proc/self/pagemap has neither PM_PRESENT nor
 *     PM_SWAP (fs/proc/task_mmu.c pte_to_pagemap_entry()).  The only
 *     check that sees a read fault on the file mapping (mincore reports
 *     page-cache residency there): without pagemap (no
 *     CONFIG_PROC_PAGE_MONITOR) that case is a SKIP.
 *   - shared_file: mtime is still 2000-01-01 and ctime as set up (a write
 *     fault goes through ramfs's filemap_page_mkwrite(), which calls
 *     file_update_time()).
 *   - uffd_monitor: no fault reached the monitor.
 *   - unmapped: the hole is still a hole (mincore(): ENOMEM).
 *
 * UAZERO_SELFCHECK=1 in the environment makes every syscall use length 1
 * instead of 0, where the fault really happens: every test must then
 * FAIL, each on the check its variant relies on (or on the return value,
 * EFAULT, where the access cannot succeed), which shows the checks can
 * fail.  Each test has a 20 s watchdog (TEST_F_TIMEOUT), so that a wait
 * on a userfaultfd is a named failure, not a hung boot.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* 6.12's harness has a handler with an unused parameter (-Wextra). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#define T2000		946684800	/* 2000-01-01 00:00:00 UTC */
#define PM_SWAP		(1ULL << 62)
#define PM_PRESENT	(1ULL << 63)

enum kind { UNTOUCHED, READONLY, UNMAPPED, UFFD, UFFD_MONITOR, SHARED_FILE };

/* The length the syscalls pass: 0, or 1 to show that the checks fail. */
static size_t copy_len(void)
{
	const char *s = getenv("UAZERO_SELFCHECK");

	return s && *s && strcmp(s, "0") ? 1 : 0;
}

FIXTURE(uazero) {
	long psz;
	char *map;		/* the mapping holding addr (NULL: none) */
	char *addr;		/* the user address given to the syscall */
	int pagemap;		/* /proc/self/pagemap, or -1 */
	/* uffd, uffd_monitor */
	int uffd;
	char *zero;		/* the monitor's UFFDIO_COPY source */
	pthread_t monitor;
	bool monitor_started;
	int stop, faults;
	unsigned long fault_addr;
	/* shared_file */
	bool mounted;
	int fd;
	char dir[64], path[96];
	struct timespec ctime;
};

FIXTURE_VARIANT(uazero) {
	enum kind kind;
};

FIXTURE_VARIANT_ADD(uazero, untouched) { .kind = UNTOUCHED };
FIXTURE_VARIANT_ADD(uazero, readonly) { .kind = READONLY };
FIXTURE_VARIANT_ADD(uazero, unmapped) { .kind = UNMAPPED };
FIXTURE_VARIANT_ADD(uazero, uffd) { .kind = UFFD };
FIXTURE_VARIANT_ADD(uazero, uffd_monitor) { .kind = UFFD_MONITOR };
FIXTURE_VARIANT_ADD(uazero, shared_file) { .kind = SHARED_FILE };

/* uffd_monitor: count every fault and resolve it with a page of zeros. */
static void *monitor(void *arg)
{
	FIXTURE_DATA(uazero) *self = arg;

	while (!__atomic_load_n(&self->stop, __ATOMIC_ACQUIRE)) {
		struct pollfd pfd = { .fd = self->uffd, .events = POLLIN };
		struct uffdio_copy cp;
		struct uffd_msg msg;

		if (poll(&pfd, 1, 20) <= 0)
			continue;
		if (read(self->uffd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		self->fault_addr = msg.arg.pagefault.address;
		__atomic_add_fetch(&self->faults, 1, __ATOMIC_RELEASE);
		memset(&cp, 0, sizeof(cp));
		cp.dst = msg.arg.pagefault.address & ~(unsigned long)(self->psz - 1);
		cp.src = (unsigned long)self->zero;
		cp.len = self->psz;
		if (ioctl(self->uffd, UFFDIO_COPY, &cp) && errno == EEXIST) {
			struct uffdio_range r = { .start = cp.dst, .len = cp.len };

			ioctl(self->uffd, UFFDIO_WAKE, &r);
		}
	}
	return NULL;
}

/*
 * Set up a userfaultfd on self->map for MISSING faults.  Returns NULL, or
 * why it cannot be had here (a SKIP), or (with *fail set) what failed.
 */
static const char *setup_uffd(FIXTURE_DATA(uazero) *self, bool sigbus, bool *fail)
{
	static char why[160];
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	int flags = O_CLOEXEC | O_NONBLOCK;

	*fail = false;
	/* Without UFFD_USER_MODE_ONLY kernel-mode faults are reported (not
	 * refused), which needs CAP_SYS_PTRACE or vm.unprivileged_userfaultfd. */
	self->uffd = syscall(__NR_userfaultfd, flags | (sigbus ? UFFD_USER_MODE_ONLY : 0));
	if (self->uffd < 0 && sigbus && errno == EINVAL)
		self->uffd = syscall(__NR_userfaultfd, flags);
	if (self->uffd < 0) {
		snprintf(why, sizeof(why), "userfaultfd(%s): %s",
			 sigbus ? "UFFD_USER_MODE_ONLY" : "kernel faults", strerror(errno));
		return why;
	}
	api.features = sigbus ? UFFD_FEATURE_SIGBUS : 0;
	if (ioctl(self->uffd, UFFDIO_API, &api)) {
		snprintf(why, sizeof(why), "UFFDIO_API (features %#llx): %s",
			 (unsigned long long)api.features, strerror(errno));
		return why;
	}
	reg.range.start = (unsigned long)self->map;
	reg.range.len = self->psz;
	if (ioctl(self->uffd, UFFDIO_REGISTER, &reg)) {
		snprintf(why, sizeof(why), "UFFDIO_REGISTER: %s", strerror(errno));
		return why;
	}
	if (sigbus)
		return NULL;
	self->zero = mmap(NULL, self->psz, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (self->zero == MAP_FAILED) {
		self->zero = NULL;
		snprintf(why, sizeof(why), "mmap: %s", strerror(errno));
		*fail = true;
		return why;
	}
	errno = pthread_create(&self->monitor, NULL, monitor, self);
	if (errno) {
		snprintf(why, sizeof(why), "pthread_create: %s", strerror(errno));
		*fail = true;
		return why;
	}
	self->monitor_started = true;
	return NULL;
}

/*
 * shared_file: a page-sized file on a ramfs mounted on a fresh directory
 * under /tmp (in a private mount namespace when one can be had, so that a
 * test killed by its watchdog leaves no mount behind), written with
 * write(), its times set to 2000-01-01, mapped MAP_SHARED read-write.
 */
static const char *setup_file(FIXTURE_DATA(uazero) *self, bool *fail)
{
	static char why[200];
	struct timespec ts[2] = { { T2000, 0 }, { T2000, 0 } };
	struct stat st;
	char *buf;

	*fail = false;
	if (!unshare(CLONE_NEWNS))
		mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	strcpy(self->dir, "/tmp/uazero.XXXXXX");
	if (!mkdtemp(self->dir)) {
		snprintf(why, sizeof(why), "mkdtemp(%s): %s", self->dir, strerror(errno));
		self->dir[0] = '\0';
		*fail = true;
		return why;
	}
	if (mount("none", self->dir, "ramfs", 0, NULL)) {
		snprintf(why, sizeof(why), "mount ramfs on a directory in /tmp refused: %s", strerror(errno));
		return why;
	}
	self->mounted = true;
	snprintf(self->path, sizeof(self->path), "%s/file", self->dir);
	self->fd = open(self->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	buf = calloc(1, self->psz);
	*fail = true;
	if (self->fd < 0 || !buf) {
		snprintf(why, sizeof(why), "open %s: %s", self->path, strerror(errno));
		free(buf);
		return why;
	}
	if (write(self->fd, buf, self->psz) != self->psz) {
		snprintf(why, sizeof(why), "write %s: %s", self->path, strerror(errno));
		free(buf);
		return why;
	}
	free(buf);
	if (utimensat(AT_FDCWD, self->path, ts, 0) || fstat(self->fd, &st)) {
		snprintf(why, sizeof(why), "utimensat/fstat %s: %s", self->path, strerror(errno));
		return why;
	}
	self->ctime = st.st_ctim;
	self->map = mmap(NULL, self->psz, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	if (self->map == MAP_FAILED) {
		self->map = NULL;
		snprintf(why, sizeof(why), "mmap %s MAP_SHARED: %s", self->path, strerror(errno));
		return why;
	}
	*fail = false;
	return NULL;
}

static void cleanup(FIXTURE_DATA(uazero) *self)
{
	if (self->monitor_started) {
		__atomic_store_n(&self->stop, 1, __ATOMIC_RELEASE);
		pthread_join(self->monitor, NULL);
		self->monitor_started = false;
	}
	if (self->uffd >= 0)
		close(self->uffd);
	self->uffd = -1;
	if (self->zero)
		munmap(self->zero, self->psz);
	self->zero = NULL;
	if (self->map)
		munmap(self->map, self->psz);
	self->map = NULL;
	if (self->fd >= 0) {
		close(self->fd);
		unlink(self->path);
	}
	self->fd = -1;
	if (self->mounted)
		umount2(self->dir, MNT_DETACH);
	self->mounted = false;
	if (self->dir[0])
		rmdir(self->dir);
	self->dir[0] = '\0';
	if (self->pagemap >= 0)
		close(self->pagemap);
	self->pagemap = -1;
}

FIXTURE_SETUP(uazero)
{
	const char *why = NULL;
	bool fail = false;
	int prot = PROT_READ | PROT_WRITE;

	self->psz = sysconf(_SC_PAGESIZE);
	self->uffd = -1;
	self->fd = -1;
	self->pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (self->pagemap < 0)
		TH_LOG("no /proc/self/pagemap (%s): PTEs not checked", strerror(errno));

	switch (variant->kind) {
	case READONLY:
		prot = PROT_READ;
		/* fall through */
	case UNTOUCHED:
	case UNMAPPED:
	case UFFD:
	case UFFD_MONITOR:
		self->map = mmap(NULL, self->psz, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (self->map == MAP_FAILED) {
			self->map = NULL;
			cleanup(self);
			ASSERT_TRUE(false) TH_LOG("mmap: %s", strerror(errno));
		}
		if (variant->kind == UNMAPPED) {
			ASSERT_EQ(0, munmap(self->map, self->psz));
			self->addr = self->map;
			self->map = NULL;
			return;
		}
		if (variant->kind == UFFD || variant->kind == UFFD_MONITOR)
			why = setup_uffd(self, variant->kind == UFFD, &fail);
		break;
	case SHARED_FILE:
		why = setup_file(self, &fail);
		break;
	}
	if (why) {
		/* The harness runs no teardown after a failed or skipped
		 * setup: undo it here. */
		cleanup(self);
		if (!fail)
			SKIP(return, "%s", why);
		ASSERT_TRUE(false) TH_LOG("setup: %s", why);
	}
	self->addr = self->map;
}

FIXTURE_TEARDOWN(uazero)
{
	cleanup(self);
}

/*
 * The number of ways the page at self->addr is not as set up (each one
 * logged); when is "before" or "after" the syscall.
 */
static int changes(struct __test_metadata *_metadata, FIXTURE_DATA(uazero) *self,
		   const FIXTURE_VARIANT(uazero) *variant, const char *when)
{
	unsigned char vec = 0;
	uint64_t pme = 0;
	struct stat st;
	int bad = 0;

	if (variant->kind == UNMAPPED) {
		if (mincore(self->addr, self->psz, &vec) == 0 || errno != ENOMEM) {
			TH_LOG("%s: the hole at %p is mapped (mincore: %s)", when,
			       self->addr, strerror(errno));
			bad++;
		}
		return bad;
	}
	if (variant->kind != SHARED_FILE) {
		/* Anonymous: any present PTE, the zero page's too, is 1. */
		if (mincore(self->addr, self->psz, &vec)) {
			TH_LOG("%s: mincore(%p): %s", when, self->addr, strerror(errno));
			bad++;
		} else if (vec & 1) {
			TH_LOG("%s: mincore: the page at %p is resident (faulted in)",
			       when, self->addr);
			bad++;
		}
	}
	if (self->pagemap >= 0) {
		off_t off = (uintptr_t)self->addr / self->psz * sizeof(pme);

		if (pread(self->pagemap, &pme, sizeof(pme), off) != sizeof(pme)) {
			TH_LOG("%s: read /proc/self/pagemap: %s", when, strerror(errno));
			bad++;
		} else if (pme & (PM_PRESENT | PM_SWAP)) {
			TH_LOG("%s: pagemap: %p has a PTE (entry %#llx): faulted in",
			       when, self->addr, (unsigned long long)pme);
			bad++;
		}
	}
	if (variant->kind == SHARED_FILE) {
		if (fstat(self->fd, &st)) {
			TH_LOG("%s: fstat: %s", when, strerror(errno));
			bad++;
		} else {
			if (st.st_mtim.tv_sec != T2000 || st.st_mtim.tv_nsec) {
				TH_LOG("%s: mtime %lld.%09ld, not 2000-01-01 (%d): a write fault through page_mkwrite",
				       when, (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec, T2000);
				bad++;
			}
			if (st.st_ctim.tv_sec != self->ctime.tv_sec ||
			    st.st_ctim.tv_nsec != self->ctime.tv_nsec) {
				TH_LOG("%s: ctime %lld.%09ld, was %lld.%09ld", when,
				       (long long)st.st_ctim.tv_sec, (long)st.st_ctim.tv_nsec,
				       (long long)self->ctime.tv_sec, (long)self->ctime.tv_nsec);
				bad++;
			}
		}
	}
	if (variant->kind == UFFD_MONITOR) {
		int n = __atomic_load_n(&self->faults, __ATOMIC_ACQUIRE);

		if (n) {
			TH_LOG("%s: %d userfaultfd fault(s), the first at %#lx", when, n,
			       self->fault_addr);
			bad++;
		}
	}
	return bad;
}

static void selfcheck_note(struct __test_metadata *_metadata, size_t n)
{
	if (n)
		TH_LOG("UAZERO_SELFCHECK: length %zu, not 0: this test must FAIL", n);
}

/* copy_to_user(p, &v, 0) through getsockopt(SO_TYPE) with *optlen 0. */
TEST_F_TIMEOUT(uazero, getsockopt_len0, 20)
{
	size_t n = copy_len();
	socklen_t len = n;
	int fd, ret, err;

	selfcheck_note(_metadata, n);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, fd) TH_LOG("socket(AF_UNIX): %s", strerror(errno));
	ASSERT_EQ(0, changes(_metadata, self, variant, "before"));

	errno = 0;
	ret = getsockopt(fd, SOL_SOCKET, SO_TYPE, self->addr, &len);
	err = errno;
	/* Success: 0, and len is min(len, sizeof(int)), here len itself. */
	EXPECT_EQ(0, ret) TH_LOG("getsockopt(SO_TYPE, %p, &len=%zu): %d, errno %d (%s)",
				 self->addr, n, ret, err, strerror(err));
	EXPECT_EQ(n, len) TH_LOG("getsockopt(SO_TYPE) changed len %zu to %u", n, (unsigned int)len);
	EXPECT_EQ(0, changes(_metadata, self, variant, "after getsockopt"));
	close(fd);
}

/*
 * copy_from_user(tmp, p, 0) through setdomainname(p, 0), in a UTS
 * namespace of its own: each test runs in a process of its own (the
 * harness forks one per test and another for setup, test and teardown),
 * so unshare() here leaves the runner's namespace alone.
 */
TEST_F_TIMEOUT(uazero, setdomainname_len0, 20)
{
	size_t n = copy_len();
	struct utsname u;
	int ret, err;

	selfcheck_note(_metadata, n);
	if (variant->kind == SHARED_FILE && self->pagemap < 0)
		SKIP(return, "no /proc/self/pagemap: a read fault on the file mapping changes nothing else");
	if (unshare(CLONE_NEWUTS)) {
		err = errno;
		if (err == EPERM || err == EINVAL)
			SKIP(return, "unshare(CLONE_NEWUTS) refused: %s", strerror(err));
		ASSERT_EQ(0, err) TH_LOG("unshare(CLONE_NEWUTS): %s", strerror(err));
	}
	ASSERT_EQ(0, changes(_metadata, self, variant, "before"));

	errno = 0;
	ret = setdomainname(self->addr, n);
	err = errno;
	EXPECT_EQ(0, ret) TH_LOG("setdomainname(%p, %zu): %d, errno %d (%s)",
				 self->addr, n, ret, err, strerror(err));
	EXPECT_EQ(0, changes(_metadata, self, variant, "after setdomainname"));
	if (ret == 0) {
		ASSERT_EQ(0, uname(&u));
		EXPECT_STREQ("", u.domainname);
	}
}

TEST_HARNESS_MAIN
