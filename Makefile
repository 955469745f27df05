# uapin -- pinned-page user access for 32-bit ARM LPAE.  See README.md.
#
#   make bench          build the perf kernel, boot it, measure every uaccess
#                       strategy; table on stdout, results/bench.{csv,md,png};
#                       the distro-4g4g kernel against the distro kernel
#                       when both are built (DISTRO=1 builds them)
#   make check          build the debug kernel, boot it, run every test
#   make soak           the long munmap race soak (ITERS=100000)
#   make distro         build the distro kernel (Debian's armmp-lpae config);
#                       make check then boots it too
#   make distro-4g4g    build the distro-4g4g kernel (Debian's armmp-lpae
#                       config with the 4G/4G split, modules as modules);
#                       make check then boots it under UEFI at 1 and 6 GiB
#   make debian-image   build a Debian bookworm armhf system image (systemd,
#                       apt, python3, gcc); make check then boots it on the
#                       distro-4g4g and distro kernels
#   make kasan          build the debug kernel with KASAN; make check then
#                       boots it too
#   make 4g4g           build the 4G/4G split's debug kernel with HIGHMEM and
#                       HIGHPTE (make check builds the one without HIGHMEM);
#                       make check then boots it too
#   make export-series  turn the commits in the base's tree back into its series
#
# BASE=7.3 or BASE=6.12 (make BASE=6.12 check) picks the kernel base: 7.3
# builds build/linux from series/, 6.12 (the long-term backport) builds
# build/6.12/linux from series-6.12/ (scripts/lib.sh).
.PHONY: all bench bench-wallclock check soak distro distro-4g4g debian-image kasan 4g4g kernel-4g4g deps tree kernel-debug kernel-perf guest \
	initramfs export-series clean distclean

all: check

# The base (BASE=, default in scripts/lib.sh) and its build folder, both
# from scripts/lib.sh, the one place that maps a base to its folders.
KB := $(shell top=$(CURDIR); . $(CURDIR)/scripts/lib.sh && echo $$kb)
ifeq ($(KB),)
$(error scripts/lib.sh gives no build folder for BASE=$(BASE))
endif

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
distro-4g4g kernel-distro-4g4g: tree
	scripts/build-kernel distro-4g4g
debian-image: deps
	scripts/mk-debian-image
kasan kernel-kasan: tree
	scripts/build-kernel kasan
4g4g kernel-4g4g: tree
	scripts/build-kernel 4g4g
guest: tree
	$(MAKE) -C guest TOP=$(CURDIR) KB=$(KB)
initramfs: guest
	scripts/mk-initramfs $(patsubst $(KB)/kernel-%/arch/arm/boot/zImage,%,$(wildcard $(KB)/kernel-*/arch/arm/boot/zImage))

check:
	scripts/check
soak:
	scripts/soak $(ITERS)
bench:
	scripts/bench $(if $(WALLCLOCK),--wallclock) $(if $(DISTRO),--distro)
bench-wallclock:
	scripts/bench --wallclock
export-series:
	scripts/export-series

clean:
	rm -rf $(addprefix $(KB)/,kernel-debug kernel-perf kernel-distro kernel-distro-4g4g kernel-kasan kernel-4g4g kernel-4g4g-perf guest check bench)
distclean:
	rm -rf build
