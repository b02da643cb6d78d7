#!/bin/bash
# The systemd tier's initramfs part: the project's initramfs-tools hook and
# dracut module inside Debian's own update-initramfs and dracut.
#   - the image is made without a boot: a copy of the cached Debian 12 root
#     (rootfs.sh), fbclassctl installed as run.sh installs it (configure
#     --prefix=/usr, make install DESTDIR=), the tool installed from
#     Debian's packages (fetched with the host's apt, dpkg -i in the copy),
#     the kernel's modules and config from the VM kernel cache, then the
#     real `update-initramfs -c -k KVER` / `dracut --kver KVER` in a chroot
#     of the copy (a private mount namespace: unshare -m);
#   - the image's listing (lsinitramfs / lsinitrd, in the copy) has
#     fbclassctl and every library `fbclassctl --version` says it dlopen()s;
#   - one boot per tool, the kernel and that image alone, stopped in the
#     initramfs shell (break= / rd.break=) and driven over the serial
#     console: the boot ran coldplug (its line in the kernel log, the
#     /dev/fb/by-path link, bochs loaded by it before udev), and
#     `fbclassctl list` prints fb0.
# TAP on stdout.  SKIPs (77) with the reason when the root, the kernel or
# the packages cannot be had; under CI=true that is a failure.  Debian 12
# (bookworm, 6.1) only: the suite of CI's machines, whose apt fetches the
# packages.
#   VM_INITRD_TOOLS="initramfs-tools dracut"  the tools (default: both)
#   VM_KEEP=1        keep the work directory (the roots, the images, logs)
#   VM_TIMEOUT=SECS  the limit per boot (here at least 240)
# make check runs it as $(SHELL) initrd.sh
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/../../lib.sh"
# shellcheck source=tests/vm/lib-vm.sh
. "$here/../lib-vm.sh"
# shellcheck source=tests/vm/systemd/build-usr.sh
. "$here/build-usr.sh"

for tool in qemu-system-x86_64:qemu-system-x86 unshare:util-linux chroot:coreutils \
	apt-get:apt flock:util-linux make:make mkfifo:coreutils; do
	command -v "${tool%%:*}" >/dev/null ||
		skip "${tool%%:*} not found (apt-get install ${tool#*:})"
done
[ "$(id -u)" -eq 0 ] || skip "not root: the image is made in a chroot"
[ -x "$top_srcdir/configure" ] || skip "$top_srcdir/configure missing (run ./autogen.sh)"
VM_TIMEOUT=$((${VM_TIMEOUT:-120} > 240 ? ${VM_TIMEOUT:-120} : 240))
suite=bookworm
tools=${VM_INITRD_TOOLS:-initramfs-tools dracut}

tier_setup initrd

# in_root ROOT CMD...: CMD in a chroot of ROOT, with /proc, /sys, /dev and
# the cached kernel's modules mounted in a mount namespace of its own (the
# mounts end with it; nothing of the host's is left mounted)
in_root() {
	local root=$1
	shift
	mkdir -p "$root/usr/lib/modules/$KVER"
	# shellcheck disable=SC2016 # the script is sh -c's
	unshare -m --propagation private sh -ec '
		root=$1 mods=$2
		shift 2
		mount -t proc proc "$root/proc"
		mount -t sysfs sysfs "$root/sys"
		mount --rbind /dev "$root/dev"
		mount --bind -o ro "$mods" "$root/usr/lib/modules/${mods##*/}"
		exec chroot "$root" "$@"' sh "$root" "$KROOT/$KMODDIR" "$@"
}

# root_for TOOL ROOT: the copy ROOT of the cached root, fbclassctl
# installed in it as run.sh installs it, TOOL installed from Debian's
# packages (with what it recommends, as apt-get install TOOL does, for
# initramfs-tools), the kernel's config in /boot
root_for() {
	local tool=$1 img=$2 pkgs
	case $tool in
	# busybox (recommended): the shell's grep, stat, ls
	initramfs-tools) pkgs=(initramfs-tools) ;;
	# not the 60 packages it recommends (lvm2, cryptsetup, ...): the
	# image needs none of them, and they cost the download and dpkg
	dracut) pkgs=(--no-install-recommends dracut) ;;
	esac
	rm -rf "$img" && mkdir -p "$img" || return 1
	tar -C "$base" --exclude=./usr/share/doc --exclude=./usr/share/man \
		--exclude=./usr/share/locale --exclude=./usr/share/info --exclude=./.complete \
		-cf - . | tar -C "$img" -xf - || return 1
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$build" -s install DESTDIR="$img" \
		>"$work/install-$tool.out" 2>&1 || { cat "$work/install-$tool.out" >&2; return 1; }
	# the host's apt resolves against the copy's dpkg status (the host is
	# Debian 12, as the copy is) and fetches into the copy
	mkdir -p "$img/var/cache/fbclassctl-debs/partial"
	timeout 300 apt-get -q -y install --download-only \
		-o "Dir::State::status=$img/var/lib/dpkg/status" \
		-o "Dir::Cache::archives=$img/var/cache/fbclassctl-debs" \
		"${pkgs[@]}" >"$work/apt-$tool.out" 2>&1 || {
		tail -n 20 "$work/apt-$tool.out" >&2
		echo "why: apt-get could not fetch $tool for the Debian $suite root (above)"
		return 77
	}
	cp "$KROOT/boot/config-$KVER" "$img/boot/"
	# no initramfs at install time: there is no kernel package in the root
	in_root "$img" sh -c 'dpkg -i /var/cache/fbclassctl-debs/*.deb' \
		>"$work/dpkg-$tool.out" 2>&1 || { tail -n 30 "$work/dpkg-$tool.out" >&2; return 1; }
	rm -rf "$img/var/cache/fbclassctl-debs"
}

# console_has OUT REGEX N: the console (OUT/console.log) has at least N
# lines that match REGEX (extended; the carriage returns taken out)
console_has() {
	[ "$(tr -d '\r' <"$1/console.log" | grep -cE "$2")" -ge "$3" ]
}

# await OUT REGEX N: wait until console_has OUT REGEX N; 1 when qemu ended
# first or VM_TIMEOUT passed since the boot began (T_BOOT)
await() {
	while ! console_has "$@"; do
		kill -0 "$qemu" 2>/dev/null || return 1
		[ "$(date +%s)" -lt $((T_BOOT + VM_TIMEOUT)) ] || return 1
		sleep 0.2
	done
}

# boot IMAGE OUT APPEND STAGE...: boot the kernel with IMAGE as its
# initramfs, the console on a pipe; for each STAGE ("REGEX N", a newline,
# COMMANDS), wait for the Nth console line that matches REGEX, then type
# COMMANDS.  No panic= on the command line: initramfs-tools' panic() then
# reboots instead of opening the shell.
# The last stage's commands end the boot (sysrq b; -no-reboot).  Returns
# 0 when every stage was reached and qemu ended in time.
boot() {
	local image=$1 out=$2 append=$3 stage re n cmds rc=0 accel_opts=(-accel tcg)
	shift 3
	[ "${VM_ACCEL:-tcg}" != kvm ] || accel_opts=(-enable-kvm -cpu host)
	mkdir -p "$out"
	rm -f "$out/in" && mkfifo "$out/in" && : >"$out/console.log" || return 1
	vm_slot_take
	T_BOOT=$(date +%s)
	local t0
	t0=$(date +%s.%N)
	# timeout: no qemu is left waiting in its shell if this script dies
	timeout -k 5 $((VM_TIMEOUT + 10)) qemu-system-x86_64 "${accel_opts[@]}" -m 512M -smp 1 -nographic -no-reboot \
		-vga std -nic none -serial stdio -monitor none \
		-kernel "$KROOT/boot/vmlinuz-$KVER" -initrd "$image" \
		-append "console=ttyS0 loglevel=5 nosoftlockup rcupdate.rcu_cpu_stall_suppress=1 $append" \
		<"$out/in" >"$out/console.log" 2>&1 &
	qemu=$!
	exec {qin}>"$out/in"
	for stage; do
		re=${stage%%$'\n'*}
		n=${re##* } re=${re% *}
		cmds=${stage#*$'\n'}
		if ! await "$out" "$re" "$n"; then
			echo "# the console never showed '$re' (the ${n}th time)"
			rc=1
			break
		fi
		printf '%s\n' "$cmds" >&"$qin"
	done
	# the last commands end the boot; else it ends here
	while kill -0 "$qemu" 2>/dev/null && [ "$(date +%s)" -lt $((T_BOOT + VM_TIMEOUT)) ]; do
		sleep 0.2
	done
	if kill -0 "$qemu" 2>/dev/null; then
		echo "# timeout after ${VM_TIMEOUT} s"
		kill "$qemu"
		rc=1
	fi
	wait "$qemu" || true
	exec {qin}>&-
	VM_BOOT_SECONDS=$(since "$t0")
	vm_slot_give
	tr -d '\r' <"$out/console.log" >"$out/console.clean"
	return "$rc"
}

# between OUT FROM TO: the console lines after the line FROM, before TO
between() {
	awk -v a="$2" -v b="$3" '$0 == b { p = 0 } p { print } $0 == a { p = 1 }' "$1/console.clean"
}
# field OUT KEY: the value of "@@KEY VALUE" on the console
field() {
	sed -n "s/^@@$2 //p" "$1/console.clean" | tail -n1
}

# The commands typed in the initramfs shell.  Each result comes on a line
# of its own that starts with @@ (the echo of the typed line starts with
# the prompt or "echo", never with @@).
# shellcheck disable=SC2016 # for the guest's shell to expand
#   at the first stop (before the scripts that coldplug): no fb0 yet
shell_before='echo "@@fb0-before $(test -e /sys/class/graphics/fb0 && echo yes || echo no)"'
#   at the second (after): what coldplug left, then fbclassctl list
# shellcheck disable=SC2016 # for the guest's shell to expand
#   (shell builtins, ls and fbclassctl: dracut's image has no grep, no stat)
shell_after='echo "@@bochs $(test -e /sys/module/bochs/initstate && echo loaded || echo none)"
set -- $(ls -ln /dev/fb0); echo "@@fb0-node $1 $3 $4"
echo "@@by-path" $(ls /dev/fb/by-path/ 2>/dev/null)
echo "@@list-begin"; fbclassctl list; echo "@@list-rc $?"
echo "@@done"; echo b >/proc/sysrq-trigger'

# check_boot TOOL OUT: the verdict on the console of TOOL's boot
check_boot() {
	local tool=$1 out=$2 rc
	# initramfs-tools stops twice: before init-top (no fb0 yet), after it
	[ "$tool" != initramfs-tools ] ||
		expect_eq "$tool: no fb0 at the first stop (before coldplug)" "$(field "$out" fb0-before)" no
	# what coldplug says as it works (dracut: through the journal, with
	# the unit's name in front)
	check "$tool: the boot log shows coldplug load bochs" \
		grep -qE '^(\[ *[0-9.]+\] dracut-pre-trigger\[[0-9]+\]: )?fbclassctl: /sys/devices/pci0000:00/0000:00:02\.0: loaded bochs for pci:' \
		"$out/console.clean"
	expect_eq "$tool: bochs is loaded at the stop" "$(field "$out" bochs)" loaded
	# root:video 0660 (Debian's video group is 44; the project's hook and
	# module copy the root's)
	expect_eq "$tool: /dev/fb0 is root:video 0660" "$(field "$out" fb0-node)" "crw-rw---- 0 44"
	expect_eq "$tool: coldplug made fb0's /dev/fb/by-path link" "$(field "$out" by-path)" "pci-0000:00:02.0"
	rc=$(field "$out" list-rc)
	expect_eq "$tool: fbclassctl list exits 0 in the initramfs shell" "$rc" 0
	check "$tool: fbclassctl list prints fb0 in the initramfs shell" \
		grep -qE '^fb0 +29:0 .* bochs-drm ' <(between "$out" @@list-begin "@@list-rc $rc")
}

# check_listing TOOL ROOT LISTING: the image has fbclassctl, the project's
# script, and each library `fbclassctl --version` (the installed binary,
# in ROOT) names as one it dlopen()s, by that soname
check_listing() {
	local tool=$1 root=$2 list=$3 sonames so script
	case $tool in
	initramfs-tools) script=scripts/init-top/fbclassctl ;;
	dracut) script=usr/lib/dracut/hooks/pre-trigger/50-fbclassctl-coldplug.sh ;;
	esac
	check "$tool: the image has usr/bin/fbclassctl" grep -qx 'usr/bin/fbclassctl' "$list"
	check "$tool: the image has $script" grep -qx "$script" "$list"
	check "$tool: the image has bochs.ko" grep -qE '/drm/tiny/bochs\.ko(\.xz)?$' "$list"
	sonames=$(in_root "$root" /usr/bin/fbclassctl --version | grep -o 'lib[a-z0-9_+-]*\.so\.[0-9]*' | sort -u)
	check "$tool: fbclassctl --version names the libraries it dlopen()s" test -n "$sonames"
	for so in $sonames; do
		check "$tool: the image has $so" grep -qE "^usr/lib/x86_64-linux-gnu/$so\$" "$list"
	done
}

# make_image TOOL ROOT: TOOL's image of the kernel in ROOT/boot/initrd.img-KVER
#   initramfs-tools: MODULES=list (the default, most, packs every storage
#     driver: a larger image, a slower build and boot); the display
#     drivers come from the project's hook, as it promises;
#   dracut: the project's module and the ones a boot to its shell needs
#     (the default set takes 100 s and 44 MB here); fbclassctl named, as
#     its check() asks (dracut --add fbclassctl, or -m)
make_image() {
	local tool=$1 root=$2
	case $tool in
	initramfs-tools)
		sed -i 's/^MODULES=.*/MODULES=list/' "$root/etc/initramfs-tools/initramfs.conf"
		in_root "$root" update-initramfs -c -k "$KVER"
		;;
	dracut)
		in_root "$root" dracut -m "base udev-rules dracut-systemd fbclassctl" --kver "$KVER"
		;;
	esac
}

# listing TOOL ROOT: the image's files, one a line, relative
listing() {
	case $1 in
	initramfs-tools) in_root "$2" lsinitramfs "/boot/initrd.img-$KVER" ;;
	dracut) in_root "$2" lsinitrd "/boot/initrd.img-$KVER" | awk '$1 ~ /^[-dlcbps]/ { print $9 }' ;;
	esac
}

# boot_tool TOOL IMAGE OUT: the boot of TOOL's image, stopped in its shell
#   initramfs-tools: break=top,modules, the shell before and after
#     init-top (where the project's script runs coldplug); the shell's
#     own "exit" goes on;
#   dracut: rd.break=initqueue, after pre-trigger (the project's hook)
#     and udev's trigger; systemd's emergency mode asks for Enter first
boot_tool() {
	case $1 in
	initramfs-tools)
		boot "$2" "$3" "break=top,modules" \
			"Spawning shell within the initramfs 1"$'\n'"$shell_before"$'\n'exit \
			"Spawning shell within the initramfs 2"$'\n'"$shell_after"
		;;
	dracut)
		boot "$2" "$3" "rd.break=initqueue" \
			"Press Enter for maintenance 1"$'\n' \
			"^sh-[0-9.]+# 1"$'\n'"$shell_after"
		;;
	esac
}

# tool_run TOOL: the root, the image, its listing, the boot and the
# verdict of one tool (TAP).  77 (the reason: the last line, "why: ...")
# when the packages cannot be fetched.
tool_run() {
	local tool=$1 root=$work/root-$1 t0 rc=0 out=$work/$1 log
	t0=$(date +%s.%N)
	root_for "$tool" "$root" || rc=$?
	[ "$rc" -ne 77 ] || return 77
	if [ "$rc" -ne 0 ]; then
		not_ok "$tool: a root with fbclassctl and $tool (above)"
		return 1
	fi
	vm_say "$tool: root with fbclassctl and $tool in $(since "$t0") s"
	t0=$(date +%s.%N)
	if ! make_image "$tool" "$root" >"$work/image-$tool.out" 2>&1; then
		tail -n 30 "$work/image-$tool.out" | sed 's/^/# /'
		not_ok "$tool: the image is made"
		return 1
	fi
	ok "$tool: the image is made ($(since "$t0") s, $(($(stat -c %s "$root/boot/initrd.img-$KVER") / 1048576)) MB)"
	listing "$tool" "$root" >"$work/listing-$tool.txt"
	check_listing "$tool" "$root" "$work/listing-$tool.txt"
	mkdir -p "$out"
	boot_tool "$tool" "$root/boot/initrd.img-$KVER" "$out" || rc=$?
	log=$logs/initrd-$tool-$KUPSTREAM.console.log
	cp "$out/console.log" "$log"
	if [ "$rc" -eq 0 ]; then
		ok "$tool: booted to its shell and out (${VM_BOOT_SECONDS} s)"
	else
		tail -n 15 "$out/console.clean" | sed 's/^/#   /'
		not_ok "$tool: booted to its shell and out (${VM_BOOT_SECONDS} s; console log: $log)"
	fi
	check_boot "$tool" "$out"
	[ "${VM_KEEP:-0}" = 1 ] || rm -rf "$root"
}

for tool in $tools; do
	case $tool in
	initramfs-tools | dracut) ;;
	*) echo "vm-initrd: unknown tool '$tool' (initramfs-tools or dracut)" >&2; exit 2 ;;
	esac
done
rc=0
base=$("$here/rootfs.sh" "$suite") || rc=$?
[ "$rc" -eq 0 ] || skip "no Debian $suite root (above)"
vm_kernel 6.1 || skip "no 6.1 kernel for $suite (above)"
VM_ACCEL=$(vm_accel)
t0=$(date +%s.%N)
build=$(build_usr "$suite") || { not_ok "configure --prefix=/usr and make for $suite (above)"; finish; exit; }
vm_say "$suite: built --prefix=/usr in $build ($(since "$t0") s)"
# one tool after the other: their Debian packages conflict, and each
# boot takes a slot of its own anyway
for tool in $tools; do
	rc=0
	tool_run "$tool" >"$work/run-$tool.out" || rc=$?
	grep -v '^why: ' "$work/run-$tool.out"
	if [ "$rc" -eq 77 ]; then
		skip_part "$tool" "$(sed -n 's/^why: //p' "$work/run-$tool.out" | tail -n1)"
	fi
done
finish
