#!/bin/bash
# build.sh KVER [SUITE [PKGVER]]: build fbfake.ko for the VM's Debian kernel
# KVER (from SUITE, default the host's release; PKGVER the kernel package's
# version, default the candidate) on the host and print its path.  The
# kernel headers (linux-headers-KVER, the -common package and the
# linux-kbuild package it depends on) are fetched with apt-get download
# into the VM cache (a private apt state for another suite: ../apt-suite.sh)
# and unpacked there, never installed.  The module is built with the gcc
# the headers depend on (the kernel's compiler); when the host has no such
# gcc (Debian 13's headers need gcc-14; Debian 12 has gcc-12, which rejects
# the flags of 6.12's config: "unrecognized command-line option
# '-fmin-function-alignment=16'") it is not built.  Cached by kernel
# version and by the md5 of its source.  Exit 77, with the reason, when it
# cannot be had.
set -eu
kver=$1
suite=${2:-}
pkgver=${3:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${FBCLASSCTL_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fbclassctl-vm}
say() { echo "vm-fbfake [$kver]: $*" >&2; }
# shellcheck source=tests/vm/apt-suite.sh
. "$here/../apt-suite.sh"

sum=$(cat "$here/fbfake.c" "$here/Kbuild" | md5sum | cut -c1-12)
ko=$cache/fbfake/$kver-$sum/fbfake.ko
if [ -f "$ko" ]; then
	echo "$ko"
	exit 0
fi
command -v make >/dev/null || { say "make is needed"; exit 77; }
if [ -n "$suite" ]; then
	rc=0
	apt_suite "$suite" || rc=$?
	[ "$rc" -eq 0 ] || exit "$rc"
else
	apt_opts=()
fi

headers=linux-headers-$kver
deps=$(apt-cache "${apt_opts[@]}" depends "$headers${pkgver:+=$pkgver}" 2>/dev/null) ||
	{ say "apt knows no $headers${pkgver:+=$pkgver}${suite:+ in $suite}"; exit 77; }
common=$(sed -n 's/^ *Depends: \(linux-headers-[^ ]*-common\)$/\1/p' <<<"$deps" | head -n1)
kbuild=$(sed -n 's/^ *Depends: \(linux-kbuild-[^ ]*\)$/\1/p' <<<"$deps" | head -n1)
# Debian 13: "gcc-14"; Debian 12: "linux-compiler-gcc-12-x86"
cc=$(sed -n 's/^ *Depends: \(linux-compiler-\)\{0,1\}\(gcc-[0-9][0-9]*\)\(-x86\)\{0,1\}$/\2/p' <<<"$deps" |
	head -n1)
if [ -z "$common" ] || [ -z "$kbuild" ] || [ -z "$cc" ]; then
	say "$headers: cannot tell its -common, linux-kbuild and gcc-N dependencies"
	exit 77
fi
command -v "$cc" >/dev/null || {
	say "$headers needs $cc, the compiler its kernel was built with, and this host has none ($(gcc -dumpversion 2>/dev/null | sed 's/^/gcc-/' || echo 'no gcc'))"
	exit 77
}

hroot=$cache/headers/$kver
hdir=$hroot/usr/src/linux-headers-$kver
if [ ! -f "$hroot/.complete" ]; then
	mkdir -p "$cache/headers"
	tmp=$(mktemp -d "$cache/headers/.fetch.XXXXXX")
	chmod 0755 "$tmp" # apt downloads as _apt
	trap 'rm -rf "$tmp"' EXIT
	say "downloading $headers $common $kbuild${suite:+ from $suite} (apt-get download, not installed)"
	(cd "$tmp" && timeout 600 apt-get "${apt_opts[@]}" download -q \
		"$headers${pkgver:+=$pkgver}" "$common${pkgver:+=$pkgver}" "$kbuild${pkgver:+=$pkgver}" >&2) ||
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
make -s -C "$hdir" M="$build" CC="$cc" modules >"$build/log" 2>&1 ||
	{ say "module build failed:"; grep -v BTF "$build/log" >&2; exit 1; }
mkdir -p "$(dirname "$ko")"
cp "$build/fbfake.ko" "$ko.tmp" && mv "$ko.tmp" "$ko"
say "built $ko"
echo "$ko"
