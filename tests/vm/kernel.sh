#!/bin/bash
# Fetch the Debian kernel that linux-image-amd64 currently depends on into a
# cache, unpack it and run depmod.  It is never installed on the host.
# Prints KVER=... and KROOT=... on stdout; progress on stderr.
# Reused until the package version changes; the older one is then removed.
# Exit 77 (skip) when no kernel can be had, not even a cached one.
set -eu

cache=${FBCLASSCTL_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fbclassctl-vm}
meta=${FBCLASSCTL_VM_KERNEL_META:-linux-image-amd64}

say() { echo "vm-kernel: $*" >&2; }

pkg_of_meta() {
	apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n1
}

# use_cached REASON: fall back to the complete kernel in the cache (one is kept).
use_cached() {
	local d
	for d in "$cache"/kernel/linux-image-*; do
		[ -f "$d/.complete" ] || continue
		say "$1; using the cached ${d##*/}"
		echo "KVER=$(ls "$d/lib/modules")"
		echo "KROOT=$d"
		exit 0
	done
	say "$1, and no kernel is cached in $cache/kernel"
	exit 77
}

command -v apt-cache >/dev/null || use_cached "apt-cache not found"
pkg=$(pkg_of_meta || true)
if [ -z "$pkg" ]; then
	# a fresh machine may have no package lists yet
	say "apt-cache knows no dependency of $meta; running apt-get update"
	if [ "$(id -u)" -eq 0 ]; then
		apt-get update -qq >&2 || say "apt-get update failed"
	else
		sudo -n apt-get update -qq >&2 || say "apt-get update needs root (sudo)"
	fi
	pkg=$(pkg_of_meta || true)
fi
[ -n "$pkg" ] || use_cached "cannot resolve $meta to a kernel package"
ver=$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
	use_cached "apt knows no version of $pkg"
fi
kver=${pkg#linux-image-}
kroot=$cache/kernel/$pkg-$ver

if [ -f "$kroot/.complete" ]; then
	say "using cached $pkg $ver"
else
	mkdir -p "$cache/kernel"
	tmp=$(mktemp -d "$cache/kernel/.fetch.XXXXXX")
	chmod 0755 "$tmp" # apt downloads as _apt
	trap 'rm -rf "$tmp"' EXIT
	say "downloading $pkg $ver (apt-get download, not installed)"
	if ! (cd "$tmp" && apt-get download -q "$pkg=$ver" >&2); then
		use_cached "apt-get download $pkg=$ver failed"
	fi
	deb=$(ls "$tmp"/*.deb)
	say "unpacking $(basename "$deb")"
	mkdir "$tmp/root"
	dpkg-deb -x "$deb" "$tmp/root"
	[ -f "$tmp/root/boot/vmlinuz-$kver" ] || { say "no /boot/vmlinuz-$kver in $deb"; exit 1; }
	depmod -b "$tmp/root" "$kver"
	touch "$tmp/root/.complete"
	rm -rf "$kroot"
	mv "$tmp/root" "$kroot"
	for old in "$cache"/kernel/linux-image-*; do
		[ "$old" = "$kroot" ] || rm -rf "$old"
	done
fi
echo "KVER=$kver"
echo "KROOT=$kroot"
