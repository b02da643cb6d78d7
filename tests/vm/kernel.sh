#!/bin/bash
# kernel.sh SERIES [PIN]: fetch a Debian kernel of SERIES into a cache,
# unpack it and run depmod.  It is never installed on the host.
#   SERIES  6.1 (Debian 12, bookworm) or 6.12 (Debian 13, trixie)
#   PIN     which package (default: $VM_KERNEL_VERSION_6_1 / _6_12, or
#           $VM_KERNEL_VERSION when it is of SERIES, else the one
#           linux-image-amd64 depends on in that suite):
#             6.1.176-1                    a version of linux-image-amd64
#             linux-image-6.1.0-50-amd64   that package's candidate
#             linux-image-6.1.0-50-amd64=6.1.176-1
# The host's own release is read with the host's apt, another suite with
# a private apt state in the cache (apt-suite.sh): the host's apt
# configuration is never changed.
# Prints KSERIES KSUITE KPKG KPKGVER KUPSTREAM KVER KMODDIR KROOT as
# shell assignments on stdout; progress on stderr.  Exit 77 (skip) with
# the reason when the kernel cannot be had: a pinned version is never
# replaced by another, and a series never by the other series.
set -eu

series=${1:?usage: kernel.sh 6.1|6.12 [PIN]}
cache=${FBCLASSCTL_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fbclassctl-vm}
meta=${FBCLASSCTL_VM_KERNEL_META:-linux-image-amd64}

say() { echo "vm-kernel [$series]: $*" >&2; }
skip() {
	say "$1"
	exit 77
}

case $series in
6.1) suite=bookworm ;;
6.12) suite=trixie ;;
*) echo "kernel.sh: unknown kernel series '$series' (6.1 or 6.12)" >&2; exit 2 ;;
esac

# series_of PIN: the MAJOR.MINOR a pin names (6.1.0-50 is 6.1, 6.12.117+deb13 is 6.12)
series_of() {
	local v=$1
	case $v in *=*) v=${v#*=} ;; esac
	v=${v#linux-image-}
	echo "$v" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p'
}

# write_meta DIR PKG VER: DIR/.kernel, what this script prints of a kernel
write_meta() {
	local kv=${2#linux-image-} md=lib/modules/${2#linux-image-}
	[ -L "$1/lib" ] && md=usr/lib/modules/$kv
	printf '%s\n' "KSERIES=$series" "KSUITE=$suite" "KPKG=$2" "KPKGVER=$3" \
		"KUPSTREAM=${3%%-*}" "KVER=$kv" "KMODDIR=$md" >"$1/.kernel"
}
print_kernel() {
	cat "$1/.kernel"
	echo "KROOT=$1"
}

if [ $# -ge 2 ]; then
	pin=$2
else
	var=VM_KERNEL_VERSION_${series//./_}
	pin=${!var:-}
	if [ -z "$pin" ] && [ -n "${VM_KERNEL_VERSION:-}" ] &&
		[ "$(series_of "$VM_KERNEL_VERSION")" = "$series" ]; then
		pin=$VM_KERNEL_VERSION
	fi
fi
if [ -n "$pin" ] && [ "$(series_of "$pin")" != "$series" ]; then
	echo "kernel.sh: $pin is not a $series kernel" >&2
	exit 2
fi

mkdir -p "$cache/kernel"
# one fetch at a time (make check runs the vm and hostile tiers side by side)
exec 9>"$cache/.kernel.lock"
flock 9

# shellcheck source=tests/vm/apt-suite.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt-suite.sh"
rc=0
apt_suite "$suite" || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
apt_cache() { apt-cache "${apt_opts[@]}" "$@"; }

# image_of META_VERSION: the linux-image-* package that version of $meta depends on
image_of() {
	apt_cache depends "$meta${1:+=$1}" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n1
}

# use_cached REASON: the newest complete cached kernel of this series;
# only for the default kernel (a pin is that version or nothing)
use_cached() {
	local d best=
	[ -z "$pin" ] || skip "$1; $pin is pinned, so no other kernel is used"
	for d in "$cache"/kernel/linux-image-*; do
		[ -f "$d/.complete" ] || continue
		[ -f "$d/.kernel" ] || continue
		grep -qx "KSERIES=$series" "$d/.kernel" || continue
		best=$d
	done
	[ -n "$best" ] || skip "$1, and no $series kernel is cached in $cache/kernel"
	say "$1; using the cached ${best##*/}"
	print_kernel "$best"
	exit 0
}

if [ -n "$pin" ]; then
	case $pin in
	linux-image-*=*) pkg=${pin%%=*} ver=${pin#*=} ;;
	linux-image-*) pkg=$pin ver= ;;
	*)
		pkg=$(image_of "$pin")
		ver=$pin
		[ -n "$pkg" ] || skip "apt knows no $meta=$pin in $suite (gone from the archive?)"
		;;
	esac
else
	pkg=$(image_of "")
	if [ -z "$pkg" ] && [ ${#apt_opts[@]} -eq 0 ]; then
		# a fresh machine may have no package lists yet
		say "apt-cache knows no dependency of $meta; running apt-get update"
		if [ "$(id -u)" -eq 0 ]; then
			apt-get update -qq >&2 || say "apt-get update failed"
		else
			sudo -n apt-get update -qq >&2 || say "apt-get update needs root (sudo)"
		fi
		pkg=$(image_of "")
	fi
	[ -n "$pkg" ] || use_cached "cannot resolve $meta to a kernel package in $suite"
	ver=
fi
if [ -z "$ver" ]; then
	ver=$(apt_cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		use_cached "apt knows no version of $pkg in $suite"
	fi
fi
kver=${pkg#linux-image-}
kroot=$cache/kernel/$pkg-$ver

# a cache from before two kernels has no .kernel yet
[ -f "$kroot/.complete" ] && [ ! -f "$kroot/.kernel" ] && write_meta "$kroot" "$pkg" "$ver"
if [ -f "$kroot/.complete" ]; then
	say "using cached $pkg $ver"
else
	tmp=$(mktemp -d "$cache/kernel/.fetch.XXXXXX")
	chmod 0755 "$tmp" # apt downloads as _apt
	trap 'rm -rf "$tmp"' EXIT
	say "downloading $pkg $ver from $suite (apt-get download, not installed)"
	if ! (cd "$tmp" && timeout 900 apt-get "${apt_opts[@]}" download -q "$pkg=$ver" >&2); then
		use_cached "apt-get download $pkg=$ver failed"
	fi
	deb=$(ls "$tmp"/*.deb)
	say "unpacking $(basename "$deb")"
	mkdir "$tmp/root"
	dpkg-deb -x "$deb" "$tmp/root"
	[ -f "$tmp/root/boot/vmlinuz-$kver" ] || { say "no /boot/vmlinuz-$kver in $deb"; exit 1; }
	# Merged /usr (Debian 13): the modules are in usr/lib/modules.  The
	# host's depmod -b and modprobe -d look in BASE/lib/modules, as the
	# guest's kmod does in /lib/modules: a /lib link as on the real system.
	moddir=lib/modules/$kver
	if [ ! -d "$tmp/root/$moddir" ] && [ -d "$tmp/root/usr/$moddir" ]; then
		[ -e "$tmp/root/lib" ] || ln -s usr/lib "$tmp/root/lib"
	fi
	[ -d "$tmp/root/$moddir" ] || { say "no modules directory for $kver in $deb"; exit 1; }
	depmod -b "$tmp/root" "$kver"
	write_meta "$tmp/root" "$pkg" "$ver"
	[ -z "$pin" ] || touch "$tmp/root/.pinned"
	touch "$tmp/root/.complete"
	rm -rf "$kroot"
	mv "$tmp/root" "$kroot"
	# a new default replaces the older defaults of its series; pinned ones stay
	if [ -z "$pin" ]; then
		for old in "$cache"/kernel/linux-image-*; do
			[ "$old" = "$kroot" ] || [ -e "$old/.pinned" ] && continue
			# a cache from before two kernels has no .kernel: its series by name
			if [ -f "$old/.kernel" ]; then
				grep -qx "KSERIES=$series" "$old/.kernel" || continue
			else
				[ "$(series_of "${old##*/}")" = "$series" ] || continue
			fi
			rm -rf "$old"
		done
	fi
fi
print_kernel "$kroot"
