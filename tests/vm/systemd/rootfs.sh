#!/bin/bash
# rootfs.sh SUITE: a Debian root of SUITE (bookworm or trixie) for the
# systemd guest tier, built once with debootstrap --variant=minbase plus
# systemd-sysv, udev, kmod and the libraries fbclassctl links or dlopen()s,
# from the host's own Debian mirror, into the cache
# ($FBCLASSCTL_VM_CACHE/rootfs-SUITE).  Prints the root's path.
# Built under a lock, into a temporary directory that becomes the root only
# once debootstrap finished and the stamp (.complete, which names what was
# asked for) is written: a half-built root is never used, and a root built
# with another package list is built again.
# Exit 77 with the reason on stderr when it cannot be built here (not
# root, no debootstrap, no mirror, debootstrap failed); the caller turns it
# into a failure under CI=true.
set -eu
suite=${1:?usage: rootfs.sh bookworm|trixie}
cache=${FBCLASSCTL_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fbclassctl-vm}

say() { echo "vm-rootfs [$suite]: $*" >&2; }
cannot() { say "$*"; exit 77; }

# What a user would apt-get install before `make install`: the init and
# udev, kmod, and the runtime libraries of the -dev packages configure used
# (libudev1 comes with udev, libkmod2 with kmod, libsmartcols1 with
# util-linux, libz with minbase).
case $suite in
bookworm) libs=libjson-c5,libpng16-16,libpixman-1-0,libdrm2 ;;
trixie) libs=libjson-c5,libpng16-16t64,libpixman-1-0,libdrm2 ;;
*) echo "rootfs.sh: unknown suite '$suite' (bookworm or trixie)" >&2; exit 2 ;;
esac
include=systemd-sysv,udev,kmod,$libs

root=$cache/rootfs-$suite
# the host's own Debian mirror (the one its apt reads bookworm from)
host_suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
# shellcheck disable=SC2016 # apt's own $(FIELD) syntax
mirror=${VM_ROOTFS_MIRROR:-$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' \
	'Identifier: Packages' 2>/dev/null | awk -v h="$host_suite" '$2 == h { print $1; exit }')}
stamp="suite=$suite include=$include variant=minbase"

if [ -f "$root/.complete" ] && [ "$(cat "$root/.complete")" = "$stamp" ]; then
	echo "$root"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || cannot "not root: debootstrap needs root to build the Debian root"
command -v debootstrap >/dev/null || cannot "debootstrap not found (apt-get install debootstrap)"
[ -n "$mirror" ] || cannot "the host's apt sources name no Debian mirror for '${host_suite:-?}' (set VM_ROOTFS_MIRROR)"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || cannot "no $keyring (apt-get install debian-archive-keyring)"

mkdir -p "$cache"
exec 9>"$cache/.rootfs-$suite.lock"
flock 9
# another run may have built it while this one waited
if [ -f "$root/.complete" ] && [ "$(cat "$root/.complete")" = "$stamp" ]; then
	echo "$root"
	exit 0
fi
tmp=$cache/.rootfs-$suite.building
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT
say "debootstrap --variant=minbase --include=$include $suite from $mirror (once; cached in $root)"
t0=$(date +%s)
if ! timeout 1800 debootstrap --variant=minbase --keyring="$keyring" --include="$include" \
	"$suite" "$tmp" "$mirror" >"$cache/.rootfs-$suite.log" 2>&1; then
	tail -n 20 "$cache/.rootfs-$suite.log" | sed 's/^/  /' >&2
	cannot "debootstrap of $suite failed (log: $cache/.rootfs-$suite.log)"
fi
# no downloaded packages in the cache: the tier copies the root per run
rm -rf "$tmp/var/cache/apt/archives/"*.deb "$tmp/var/lib/apt/lists/"*_Packages
say "built in $(($(date +%s) - t0)) s, $(du -sm "$tmp" | cut -f1) MB"
printf '%s\n' "$stamp" >"$tmp/.complete"
rm -rf "$root"
mv "$tmp" "$root"
trap - EXIT
echo "$root"
