#!/bin/bash
# The systemd guest tier: fbclassctl as a user installs it into a real
# Debian, booted with systemd as PID 1 and systemd-udevd beside it.
#   - the Debian root: debootstrap --variant=minbase plus systemd-sysv,
#     udev and kmod, built once into the cache (rootfs.sh);
#   - fbclassctl configured --prefix=/usr in a build directory of its own
#     under the build tree, `make install DESTDIR=` a copy of the root, the
#     unit enabled with `systemctl --root`;
#   - the copy packed whole as a cpio initramfs and booted under qemu with
#     the suite's Debian kernel (rdinit=/sbin/init: systemd), its modules
#     in /lib/modules; guest.sh runs after boot (vm-systemd-test.service)
#     and prints TAP on the console; the host judges it as the VM tier does
#     (vm_check_log: the plan, no "not ok", no unexcused oops or WARNING).
# One boot per suite, the suites side by side.  SKIPs (77) with the reason
# when the root, the kernel or qemu cannot be had; under CI=true that is a
# failure.
#   VM_SYSTEMD_SUITES="bookworm trixie"  the suites (the default: both;
#                                 under CI=true bookworm alone, unless
#                                 VM_FULL=1; bookworm: Debian 12 and 6.1,
#                                 trixie: Debian 13 and 6.12)
#   VM_KEEP=1                     keep the work directory (the root, the image)
#   VM_STREAM=1                   print the console while it boots
#   VM_TIMEOUT=SECS               the limit per boot (here at least 300)
#   FBCLASSCTL_VM_ACCEL=tcg|kvm   as run.sh: KVM only if a probe boot works
# make check runs it as $(SHELL) run.sh
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/../../lib.sh"
# shellcheck source=tests/vm/lib-vm.sh
. "$here/../lib-vm.sh"
# shellcheck source=tests/vm/systemd/build-usr.sh
. "$here/build-usr.sh"

for tool in qemu-system-x86_64:qemu-system-x86 cpio:cpio depmod:kmod kmod:kmod \
	apt-get:apt flock:util-linux systemctl:systemd make:make; do
	command -v "${tool%%:*}" >/dev/null ||
		skip "${tool%%:*} not found (apt-get install ${tool#*:})"
done
[ -x "$top_srcdir/configure" ] || skip "$top_srcdir/configure missing (run ./autogen.sh)"
VM_TIMEOUT=$((${VM_TIMEOUT:-120} > 300 ? ${VM_TIMEOUT:-120} : 300))
VM_MEM=${VM_SYSTEMD_MEM:-1G}

tier_setup systemd

# modules_into ROOT MODULE...: the modules and their dependencies from the
# cached kernel (KROOT) into ROOT's /lib/modules/KVER as the package has
# them, with the package's modules.order and builtin lists, then depmod.
modules_into() {
	local root=$1 m deps verb path rel
	shift
	for m in "$@"; do
		deps=$(modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" 2>&1) ||
			{ vm_say "module $m: not in $KROOT ($deps)"; return 1; }
		while read -r verb path _; do
			[ "$verb" = insmod ] || continue
			rel=usr/lib/modules/$KVER/${path#*/modules/"$KVER"/}
			mkdir -p "$root/$(dirname "$rel")"
			cp "$path" "$root/$rel"
		done <<<"$deps"
	done
	cp "$KROOT/lib/modules/$KVER"/modules.{order,builtin,builtin.modinfo} "$root/usr/lib/modules/$KVER/"
	depmod -b "$root" "$KVER"
}

# image SUITE ROOT BUILD OUT: the root copied (without documentation and
# locales), fbclassctl installed and enabled, the test service, packed.
image() {
	local suite=$1 base=$2 build=$3 out=$4 img=$work/root-$1 type
	rm -rf "$img" && mkdir "$img"
	tar -C "$base" --exclude=./usr/share/doc --exclude=./usr/share/man \
		--exclude=./usr/share/locale --exclude=./usr/share/info --exclude=./.complete \
		-cf - . | tar -C "$img" -xf - || return 1
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$build" -s install DESTDIR="$img" \
		>"$work/install-$suite.out" 2>&1 || { cat "$work/install-$suite.out" >&2; return 1; }
	modules_into "$img" bochs cirrus vfb || return 1
	install -D -m 0755 "$here/guest.sh" "$img/vm/guest.sh"
	type=notify
	[ "$suite" = bookworm ] || type=notify-reload
	printf 'EXPECT_TYPE=%s\nEXPECT_IDLE_DROP=%s\n' "$type" "$([ "$suite" = bookworm ] && echo 0 || echo 1)" \
		>"$img/vm/expect"
	cat >"$img/etc/systemd/system/vm-systemd-test.service" <<-'EOF'
		[Unit]
		Description=fbclassctl systemd guest checks (TAP on the console)
		After=fbclassctl.service systemd-udevd.service systemd-udev-trigger.service multi-user.target
		[Service]
		Type=oneshot
		ExecStart=/vm/guest.sh
		ExecStopPost=/bin/systemctl poweroff --force --force
		StandardOutput=tty
		StandardError=tty
		TTYPath=/dev/ttyS0
		[Install]
		WantedBy=default.target
	EOF
	# udevd must not load the display drivers: the daemon's --load-modules
	# does (guest.sh checks that it can under the unit's hardening)
	ln -sfn /dev/null "$img/etc/udev/rules.d/80-drivers.rules"
	systemctl --root="$img" --quiet enable fbclassctl.service vm-systemd-test.service &&
		systemctl --root="$img" --quiet mask serial-getty@ttyS0.service getty@tty1.service \
			systemd-firstboot.service || return 1
	# the kernel opens /dev/console of the initramfs before init runs
	mknod -m 0600 "$img/dev/console" c 5 1 2>/dev/null || true
	# uncompressed: TCG unpacks gzip slowly, and qemu loads the file as it is
	(cd "$img" && find . -print0 | cpio --null -o -H newc --quiet) >"$out" || return 1
	[ "${VM_KEEP:-0}" = 1 ] || rm -rf "$img"
}

# boot SUITE IMAGE OUTDIR: one boot, systemd as PID 1 (vm_boot's qemu line).
boot() {
	local out=$3 rc t0 accel_opts=(-accel tcg)
	[ "${VM_ACCEL:-tcg}" != kvm ] || accel_opts=(-enable-kvm -cpu host)
	vm_slot_take
	t0=$(date +%s.%N)
	timeout --foreground -k 5 "$VM_TIMEOUT" qemu-system-x86_64 \
		"${accel_opts[@]}" -m "$VM_MEM" -smp 1 -nographic -no-reboot -vga std -nic none \
		-serial stdio -monitor none \
		-kernel "$KROOT/boot/vmlinuz-$KVER" -initrd "$2" \
		-append "console=ttyS0 rdinit=/sbin/init oops=panic panic=-1 loglevel=5 nosoftlockup rcupdate.rcu_cpu_stall_suppress=1 systemd.show_status=error" \
		</dev/null 2>&1 |
		if [ "${VM_STREAM:-0}" = 1 ]; then tee "$out/console.log"; else cat >"$out/console.log"; fi
	rc=${PIPESTATUS[0]}
	VM_BOOT_SECONDS=$(since "$t0")
	vm_slot_give
	return "$rc"
}

# CI (CI=true, not VM_FULL=1) boots bookworm alone: the cold root and
# --prefix build of each suite cost CI about two minutes, and the
# 25-minute budget holds only one.  bookworm is the suite of the machines
# CI runs on, and the one whose unit broke (reload with /bin/kill, systemd
# 252); trixie (notify-reload, 257) boots in make check-full.
if [ "$(vm_quick)" = 1 ]; then
	suites=${VM_SYSTEMD_SUITES:-bookworm}
else
	suites=${VM_SYSTEMD_SUITES:-bookworm trixie}
fi
for suite in $suites; do
	case $suite in
	bookworm | trixie) ;;
	*) echo "vm-systemd: unknown suite '$suite' (bookworm or trixie)" >&2; exit 2 ;;
	esac
done
# The roots side by side: debootstrap waits on the mirror more than on the
# CPU.  Each has its own lock and stamp in the cache.
t0=$(date +%s.%N)
for suite in $suites; do
	(
		rc=0
		"$here/rootfs.sh" "$suite" >"$work/rootfs-$suite.out" 2>"$work/rootfs-$suite.err" || rc=$?
		echo "$rc" >"$work/rootfs-$suite.rc"
	) &
done
wait
vm_say "roots of $suites ready in $(since "$t0") s"
# suite_run SUITE: kernel, build, image, boot and verdict of one suite.
# 0 passed, 1 failed, 77 cannot run here (the reason: the last line, "why: ...")
suite_run() {
	local suite=$1 series root rc=0 build t0 name log
	case $suite in
	bookworm) series=6.1 ;;
	trixie) series=6.12 ;;
	esac
	sed 's/^/  /' "$work/rootfs-$suite.err" >&2
	if [ "$(cat "$work/rootfs-$suite.rc")" != 0 ]; then
		echo "why: no Debian $suite root: $(tail -n1 "$work/rootfs-$suite.err")"
		return 77
	fi
	root=$(cat "$work/rootfs-$suite.out")
	vm_kernel "$series" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "why: no $series kernel for $suite (see above)"
		return 77
	fi
	VM_ACCEL=$(vm_accel)
	t0=$(date +%s.%N)
	build=$(build_usr "$suite") || { echo "FAIL: configure --prefix=/usr and make for $suite (above)"; return 1; }
	vm_say "$suite: built --prefix=/usr in $build ($(since "$t0") s)"
	t0=$(date +%s.%N)
	image "$suite" "$root" "$build" "$work/$suite.cpio" ||
		{ echo "FAIL: the $suite image could not be made (above)"; return 1; }
	vm_say "$suite: image packed, $(($(stat -c %s "$work/$suite.cpio") / 1048576)) MB ($(since "$t0") s)"
	mkdir -p "$work/$suite"
	rc=0
	boot "$suite" "$work/$suite.cpio" "$work/$suite" || rc=$?
	[ "${VM_KEEP:-0}" = 1 ] || rm -f "$work/$suite.cpio"
	name="systemd-$suite"
	log=$logs/$name-$KUPSTREAM.console.log
	cp "$work/$suite/console.log" "$log"
	VM_BOOT_TIMEOUT=$VM_TIMEOUT
	if vm_check_log "$log" "$name" "$rc"; then
		echo "PASS: $name [$KLABEL] (boot ${VM_BOOT_SECONDS} s)"
		return 0
	fi
	echo "FAIL: $name [$KLABEL] (boot ${VM_BOOT_SECONDS} s; console log: $log)"
	return 1
}

# The suites side by side: the boots take the shared slots (vm_slot_take),
# so two boot at once only where no other tier holds a slot.
for suite in $suites; do
	(
		rc=0
		suite_run "$suite" >"$work/run-$suite.out" 2>&1 || rc=$?
		echo "$rc" >"$work/run-$suite.rc"
	) &
done
wait
fails=0
ran=0
for suite in $suites; do
	rc=$(cat "$work/run-$suite.rc")
	grep -v '^why: ' "$work/run-$suite.out"
	case $rc in
	0) ran=$((ran + 1)) ;;
	77)
		why=$(sed -n 's/^why: //p' "$work/run-$suite.out" | tail -n1)
		if [ "${CI:-}" = true ]; then
			echo "FAIL (CI=true, a skip is a failure): $why"
			fails=$((fails + 1))
		else
			echo "SKIP: $why"
		fi
		;;
	*) ran=$((ran + 1)) fails=$((fails + 1)) ;;
	esac
done
[ "$ran" -gt 0 ] || [ "$fails" -gt 0 ] || skip "no suite could boot (above)"
[ "$fails" -eq 0 ]
