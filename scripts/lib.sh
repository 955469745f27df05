# Shared helpers for the lab scripts (sourced, not run).
# shellcheck shell=bash
info() { printf '[uapin] %s\n' "$*" >&2; }
die() { printf '[uapin] ERROR: %s\n' "$*" >&2; exit 1; }

# The kernel base (BASE=7.3 or BASE=6.12; make passes BASE= through).
#   7.3:  Debian's linux-source-7.3 (trixie-backports, downloaded by
#         scripts/install-deps), series/, everything built in build/,
#         results in results/.
#   6.12: Debian's linux-source-6.12 (the long-term backport),
#         series-6.12/, built in build/6.12/, results in results/6.12/.
# Shared by both: build/debs, build/qemu-bpo, build/src.
# Set: base_ver base_pkg base_tarball series_dir kb (the base's build
# folder) res (its results folder).
# The default: 7.3, the current kernel (the Makefile asks this file too);
# 6.12 is the long-term backport.  README's results table is the default
# base's.
BASE_DEFAULT=7.3
BASE=${BASE:-$BASE_DEFAULT}
case "$BASE" in
7.3)
	base_ver=7.3 base_pkg=linux-source-7.3
	base_tarball="$top/build/src/linux-source-7.3/usr/src/linux-source-7.3.tar.xz"
	series_dir="$top/series" kb="$top/build" res="$top/results" ;;
6.12)
	base_ver=6.12 base_pkg=linux-source-6.12
	base_tarball=/usr/src/linux-source-6.12.tar.xz
	series_dir="$top/series-6.12" kb="$top/build/6.12" res="$top/results/6.12" ;;
*) die "BASE=$BASE: the bases are 7.3 and 6.12" ;;
esac
export BASE
# base_debver: the Debian version of the base's source package.
base_debver() {
	case "$BASE" in
	6.12) dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown ;;
	*) cat "$top/build/src/$base_pkg/version" 2>/dev/null || echo unknown ;;
	esac
}

# has4g TREE COMMIT: whether COMMIT of the kernel tree TREE has the 4G/4G
# split (CONFIG_VMSPLIT_4G_4G in arch/arm/Kconfig).
has4g() { git -C "$1" grep -qE '^[[:space:]]*config VMSPLIT_4G_4G$' "$2" -- arch/arm/Kconfig; }
