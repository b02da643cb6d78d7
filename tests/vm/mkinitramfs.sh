#!/bin/bash
# mkinitramfs.sh OUT.cpio.gz SCENARIO.sh: build the test VM's initramfs.
#   busybox-static, kmod's tools, /init, the scenario, fbclassctl
#   ($FBCLASSCTL, if it exists) and fbset and jq with the libraries ldd
#   names, the modules the scenario lists in MODULES (with their
#   dependencies) plus $VM_MODULES_ALWAYS, the out-of-tree modules EXTRA_KO
#   names, and the table of known kernel hazards.  Needs KROOT and KVER
#   (from kernel.sh).
set -eu

out=$1
scenario=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${KROOT:?KROOT unset (run kernel.sh)}" "${KVER:?KVER unset}"

die() { echo "vm-initramfs: $*" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-vm-root.XXXXXX")
# mktemp makes it 0700: the guest's / must let every user in (su nobody)
chmod 0755 "$stage"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,vm,etc}

# GUEST_PACK=initramfs-tools: fbclassctl is packed by the project's own
# initramfs-tools hook (contrib/initramfs-tools/hooks/fbclassctl) with
# Debian's hook-functions (copy_exec: the binary and what ldd names), into
# the empty root before anything else, as mkinitramfs would; what the hook
# put there is listed in /vm/hook-manifest.  Its copy_modules_dir finds no
# module directory here (the host has no such kernel; MODULESDIR names
# none on purpose): the modules are the scenario's MODULES, packed below.
# shellcheck disable=SC1090
pack=$(GUEST_PACK=; . "$scenario"; echo "$GUEST_PACK")
bin=
if [ -n "${FBCLASSCTL:-}" ] && [ -x "$FBCLASSCTL" ]; then
	# a libtool wrapper script is not the binary
	bin=$FBCLASSCTL
	if head -c 2 "$bin" | grep -q '#!'; then
		[ -x "$(dirname "$bin")/.libs/$(basename "$bin")" ] &&
			bin=$(dirname "$bin")/.libs/$(basename "$bin")
	fi
fi
case $pack in
'') ;;
initramfs-tools)
	[ -n "$bin" ] || die "GUEST_PACK=initramfs-tools: FBCLASSCTL is not built"
	[ -r /usr/share/initramfs-tools/hook-functions ] ||
		die "GUEST_PACK=initramfs-tools: no /usr/share/initramfs-tools/hook-functions (apt-get install initramfs-tools-core)"
	# the hook finds fbclassctl in PATH, as it would in /usr/bin
	hookpath=$(mktemp -d "${TMPDIR:-/tmp}/fbclassctl-vm-hook.XXXXXX")
	cp "$bin" "$hookpath/fbclassctl"
	PATH=$hookpath:$PATH DESTDIR=$stage verbose=y version=$KVER MODULESDIR=$stage/no-modules \
		sh "$here/../../contrib/initramfs-tools/hooks/fbclassctl" >&2 ||
		die "the initramfs-tools hook failed"
	rm -rf "$hookpath"
	(cd "$stage" && find . ! -type d | sort) >"$stage/hook-manifest"
	;;
*) die "GUEST_PACK=$pack: not a way to pack (initramfs-tools)" ;;
esac

busybox=$(command -v busybox) || die "busybox not found (apt-get install busybox-static)"
if ldd "$busybox" >/dev/null 2>&1; then
	die "$busybox is dynamically linked; install busybox-static"
fi
cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done

# copy_elf FILE [DEST]: FILE and every library ldd names, at their own paths.
copy_elf() {
	local src=$1 dest=${2:-$1} lib
	mkdir -p "$stage$(dirname "$dest")"
	cp -L "$src" "$stage$dest"
	for lib in $(ldd "$src" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# Modules stay as the kernel package ships them (Debian 13: .ko.xz), so the
# guest loads what a real system loads, and fbclassctl's libkmod (Debian
# 12's libkmod2, built with xz and zstd) decompresses them itself.
# busybox's modprobe and insmod cannot ("Invalid ELF header magic"), and
# the static build runs `modprobe -b` from PATH: kmod's own tools replace
# busybox's applets, on both kernels alike (kmod needs only the libraries
# libkmod needs anyway).
kmod=$(command -v kmod) || die "kmod not found (apt-get install kmod)"
copy_elf "$kmod" /bin/kmod
for tool in modprobe insmod rmmod lsmod modinfo depmod; do
	ln -sfn kmod "$stage/bin/$tool"
done

if [ -n "$bin" ] && [ -z "$pack" ]; then
	copy_elf "$bin" /usr/bin/fbclassctl
	# dlopen()ed on first use, so ldd does not name them: what --version
	# names (libkmod, pixman, libpng, zlib, libsmartcols, libdrm), found as
	# the initramfs-tools hook finds them, so the guest has what an
	# installed system has
	for dl in $("$bin" --version | sed -n 's/^[a-z]*: dlopen \(lib[^ ,]*\.so\.[0-9]*\).*/\1/p'); do
		lib=$(ldconfig -p | awk -v n="$dl" '$1 == n && /x86-64/ { print $NF; exit }')
		[ -n "$lib" ] || die "$dl not found (fbclassctl --version names it; apt-get install its package)"
		copy_elf "$lib"
	done
fi
# A second build (FBCLASSCTL_SYSFS: the --with-libsysfs one) for the
# scenarios that compare the two backends, as /usr/bin/fbclassctl-sysfs.
if [ -n "${FBCLASSCTL_SYSFS:-}" ]; then
	sbin=$FBCLASSCTL_SYSFS
	if head -c 2 "$sbin" | grep -q '#!'; then
		sbin=$(dirname "$sbin")/.libs/$(basename "$sbin")
	fi
	[ -x "$sbin" ] || die "FBCLASSCTL_SYSFS: $sbin is not built"
	copy_elf "$sbin" /usr/bin/fbclassctl-sysfs
fi
# The static build (FBCLASSCTL_STATIC: --enable-static-binary) for the
# same comparison, as /usr/bin/fbclassctl-static; it needs no library.
if [ -n "${FBCLASSCTL_STATIC:-}" ]; then
	[ -x "$FBCLASSCTL_STATIC" ] || die "FBCLASSCTL_STATIC: $FBCLASSCTL_STATIC is not built"
	copy_elf "$FBCLASSCTL_STATIC" /usr/bin/fbclassctl-static
fi
for tool in fbset jq; do
	path=$(command -v "$tool") || die "$tool not found (apt-get install $tool)"
	copy_elf "$path" "/usr/bin/$tool"
done
# The scenario's GUEST_HELPERS: small C programs of tests/vm/guest/, built
# next to fbclassctl by make check (unit/kms-dump: one of tests/unit/).
# shellcheck disable=SC1090
helpers=$(GUEST_HELPERS=; . "$scenario"; echo "$GUEST_HELPERS")
for h in $helpers; do
	case $h in
	*/*) hbin=$(dirname "${FBCLASSCTL:-./fbclassctl}")/tests/$h ;;
	*) hbin=$(dirname "${FBCLASSCTL:-./fbclassctl}")/tests/vm/guest/$h ;;
	esac
	[ -x "$hbin" ] || die "guest helper $h: $hbin not built (make check, or make tests/vm/guest/$h)"
	copy_elf "$hbin" "/usr/bin/${h##*/}"
done

# udevadm_path: Debian 12's udevadm (the oracle of path ids): the host's,
# when the udev package is installed, else the udev package fetched with
# apt-get download and unpacked into the cache, as the kernels are (never
# installed).  Its libraries (libkmod, libacl, libblkid, libcap,
# libselinux) are the host's own, as ldd names them.
udevadm_path() {
	local cache
	if [ -x /usr/bin/udevadm ] && dpkg-query -W -f '${Status}' udev 2>/dev/null |
		grep -q 'install ok installed'; then
		echo /usr/bin/udevadm
		return
	fi
	cache=${FBCLASSCTL_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fbclassctl-vm}/udev
	mkdir -p "$cache"
	(
		flock 9
		[ -x "$cache/root/bin/udevadm" ] && exit 0
		cd "$cache" && rm -rf udev_*.deb root &&
			apt-get -q download udev >&2 &&
			dpkg-deb -x udev_*.deb root
	) 9>"$cache/.lock" || return 1
	# Debian 12's udev is not merged-/usr: /bin/udevadm
	[ -x "$cache/root/bin/udevadm" ] || return 1
	echo "$cache/root/bin/udevadm"
}
# GUEST_TOOLS: the host's programs (udevadm, strace) as /usr/bin/NAME with
# the libraries ldd names; udevadm is Debian 12's (udevadm_path).  The
# guest runs them as oracles (`udevadm test-builtin path_id SYSPATH` needs
# no rules, no hwdb, no daemon) or witnesses (strace).
# shellcheck disable=SC1090
tools=$(GUEST_TOOLS=; . "$scenario"; echo "$GUEST_TOOLS")
for t in $tools; do
	case $t in
	udevadm) path=$(udevadm_path) ||
		die "udevadm: neither the host's nor Debian's udev package (apt-get download udev)" ;;
	*) path=$(command -v "$t") || die "guest tool $t: not on the host (apt-get install $t)" ;;
	esac
	copy_elf "$path" "/usr/bin/$t"
done
# MODPROBE_CONF: lines of /etc/modprobe.d/vm-scenario.conf in the guest
# ("blacklist bochs"), read by kmod's modprobe and by fbclassctl's libkmod
# shellcheck disable=SC1090
modprobe_conf=$(MODPROBE_CONF=; . "$scenario"; printf '%s' "$MODPROBE_CONF")
if [ -n "$modprobe_conf" ]; then
	mkdir -p "$stage/etc/modprobe.d"
	printf '%s\n' "$modprobe_conf" >"$stage/etc/modprobe.d/vm-scenario.conf"
fi

# Modules: the scenario's MODULES plus what the harness itself needs.
# shellcheck disable=SC1090
modules=$(MODULES=; . "$scenario"; echo "$MODULES")
modules="$modules ${VM_MODULES_ALWAYS:-}"
mdir=lib/modules/$KVER
mkdir -p "$stage/$mdir"
for m in $modules; do
	deps=$(modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" 2>&1) ||
		die "module $m: not in $KROOT ($deps)"
	while read -r verb path _; do
		[ "$verb" = insmod ] || continue
		# modprobe -d names them under KROOT/lib (a link to usr/lib on a
		# merged-/usr kernel); the guest's kmod looks in /lib/modules
		rel=${path#"$KROOT"/}
		rel=lib/modules/$KVER/${rel#*/modules/"$KVER"/}
		mkdir -p "$stage/$(dirname "$rel")"
		case $rel in
		# Debian 12's kmod has no zlib: a gzip'ed module is unpacked here
		*.gz) gzip -dc "$path" >"$stage/${rel%.gz}" ;;
		*) cp "$path" "$stage/$rel" ;;
		esac
	done <<<"$deps"
done
# Out-of-tree modules built on the host (EXTRA_KO="/path/a.ko ..." in the
# scenario or the environment), under extra/ so modprobe finds them.
# shellcheck disable=SC1090
extra_ko=$(EXTRA_KO=${EXTRA_KO:-}; . "$scenario"; echo "$EXTRA_KO")
for ko in $extra_ko; do
	[ -f "$ko" ] || die "EXTRA_KO: no $ko"
	mkdir -p "$stage/$mdir/extra"
	cp "$ko" "$stage/$mdir/extra/"
done
cp "$KROOT/$mdir"/modules.{order,builtin,builtin.modinfo} "$stage/$mdir/"
depmod -b "$stage" "$KVER"

install -m 0755 "$here/guest/init" "$stage/init"
install -m 0644 "$here/guest/guest-lib.sh" "$here/guest/fbcheck.sh" "$here/guest/kms-lib.sh" \
	"$here/guest/bench-lib.sh" "$stage/vm/"
# the known kernel hazards, for the guest's own dmesg checks (t_kernel_clean)
install -m 0644 "$here/kernel-hazards.awk" "$stage/vm/kernel-hazards.awk"
install -m 0644 "${VM_HAZARDS:-$here/../../src/kernel-hazards.tab}" "$stage/vm/kernel-hazards.tab"
install -m 0755 "$here/capture-sysfs.sh" "$stage/vm/capture-sysfs.sh"
install -m 0644 "$scenario" "$stage/vm/scenario.sh"
[ ! -e "$stage/hook-manifest" ] || mv "$stage/hook-manifest" "$stage/vm/hook-manifest"
# the kernel opens /dev/console of the initramfs before /init runs
mknod -m 0600 "$stage/dev/console" c 5 1 2>/dev/null || true

(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out"
