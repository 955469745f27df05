# uapin -- pinned-page user access for 32-bit ARM LPAE.  See README.md.
#
#   make bench          build the perf kernel, boot it, measure every uaccess
#                       strategy; table on stdout, results/bench.{csv,md,png}
#   make check          build the debug kernel, boot it, run every test
#   make soak           the long munmap race soak (ITERS=100000)
#   make distro         build the distro kernel (Debian's armmp-lpae config);
#                       make check then boots it too
#   make kasan          build the debug kernel with KASAN; make check then
#                       boots it too
#   make export-series  turn the commits in build/linux back into series/
.PHONY: all bench bench-wallclock check soak distro kasan deps tree kernel-debug kernel-perf guest \
	initramfs export-series clean distclean

all: check

deps:
	scripts/install-deps
tree: deps
	scripts/kernel-tree
kernel-debug: tree
	scripts/build-kernel debug
kernel-perf: tree
	scripts/build-kernel perf
distro kernel-distro: tree
	scripts/build-kernel distro
kasan kernel-kasan: tree
	scripts/build-kernel kasan
guest: tree
	$(MAKE) -C guest TOP=$(CURDIR)
initramfs: guest
	scripts/mk-initramfs $(patsubst build/kernel-%/arch/arm/boot/zImage,%,$(wildcard build/kernel-*/arch/arm/boot/zImage))

check:
	scripts/check
soak:
	scripts/soak $(ITERS)
bench:
	scripts/bench $(if $(WALLCLOCK),--wallclock)
bench-wallclock:
	scripts/bench --wallclock
export-series:
	scripts/export-series

clean:
	rm -rf build/kernel-debug build/kernel-perf build/kernel-distro build/kernel-kasan build/guest build/check build/bench
distclean:
	rm -rf build
