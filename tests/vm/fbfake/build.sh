#!/bin/bash
# build.sh KVER: build fbfake.ko for the VM's Debian kernel KVER on the host
# and print its path.  The kernel headers (linux-headers-KVER, its -common
# package and linux-kbuild) are fetched with apt-get download into the VM
# cache and unpacked there, never installed.  The module is cached by
# kernel version and by the md5 of its source.  Exit 77 when it cannot be had.
set -eu
kver=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${FBCLASSCTL_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fbclassctl-vm}
say() { echo "vm-fbfake: $*" >&2; }

sum=$(cat "$here/fbfake.c" "$here/Kbuild" | md5sum | cut -c1-12)
ko=$cache/fbfake/$kver-$sum/fbfake.ko
if [ -f "$ko" ]; then
	echo "$ko"
	exit 0
fi
command -v make >/dev/null && command -v gcc >/dev/null || { say "make and gcc are needed"; exit 77; }

common=linux-headers-${kver%-*}-common
kbuild=linux-kbuild-$(echo "$kver" | cut -d. -f1,2)
hroot=$cache/headers/$kver
hdir=$hroot/usr/src/linux-headers-$kver
if [ ! -f "$hroot/.complete" ]; then
	mkdir -p "$cache/headers"
	tmp=$(mktemp -d "$cache/headers/.fetch.XXXXXX")
	chmod 0755 "$tmp" # apt downloads as _apt
	trap 'rm -rf "$tmp"' EXIT
	say "downloading linux-headers-$kver $common $kbuild (apt-get download, not installed)"
	(cd "$tmp" && apt-get download -q "linux-headers-$kver" "$common" "$kbuild" >&2) ||
		{ say "apt-get download of the kernel headers failed"; exit 77; }
	mkdir "$tmp/root"
	for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done
	# the headers' Makefile includes the -common one by its installed path
	sed -i "s|^include /usr/src/|include $hroot/usr/src/|" \
		"$tmp/root/usr/src/linux-headers-$kver/Makefile"
	touch "$tmp/root/.complete"
	rm -rf "$hroot"
	mv "$tmp/root" "$hroot"
fi
[ -f "$hdir/Makefile" ] || { say "no $hdir/Makefile"; exit 1; }

build=$(mktemp -d "${TMPDIR:-/tmp}/fbfake-build.XXXXXX")
trap 'rm -rf "$build"' EXIT
cp "$here/fbfake.c" "$here/Kbuild" "$build/"
make -s -C "$hdir" M="$build" modules >"$build/log" 2>&1 ||
	{ say "module build failed:"; grep -v BTF "$build/log" >&2; exit 1; }
mkdir -p "$(dirname "$ko")"
cp "$build/fbfake.ko" "$ko.tmp" && mv "$ko.tmp" "$ko"
say "built $ko"
echo "$ko"
