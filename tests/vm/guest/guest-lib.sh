# TAP helpers for scenarios, sourced by /init in the guest (busybox sh).
# Every helper prints exactly one TAP line; t_done prints the plan last.
# shellcheck shell=sh

t_n=0
t_failed=0

t_ok() {
	t_n=$((t_n + 1))
	echo "ok $t_n - $*"
}

t_not_ok() {
	t_n=$((t_n + 1))
	t_failed=$((t_failed + 1))
	echo "not ok $t_n - $*"
}

# t_check DESC CMD...: ok if CMD succeeds; its output is shown on failure.
t_check() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		t_ok "$_desc"
	else
		t_not_ok "$_desc"
		t_diag "command: $*"
		printf '%s\n' "$_out" | t_diag_stdin
	fi
}

# t_is GOT WANT DESC
t_is() {
	if [ "$1" = "$2" ]; then
		t_ok "$3"
	else
		t_not_ok "$3"
		t_diag "got:  '$1'"
		t_diag "want: '$2'"
	fi
}

t_diag() { echo "# $*"; }
t_diag_stdin() { sed 's/^/# /'; }

t_done() { echo "1..$t_n"; }

# screendump NAME [DEVICE]: the host takes qemu's screendump as NAME.ppm,
# of the display device whose qdev id is DEVICE if given (the
# scenario sets QEMU_SCREENDUMP=1; lib-vm.sh's vm_screendumps polls the
# console every 0.1 s), then the guest waits until the host says NAME on
# the third serial port (fd 6, opened by init): nothing may change the
# screen in between.  No answer in 60 s is a failed check.
screendump() {
	echo "vm-screendump $1${2:+ $2}"
	while read -r -t 60 _ack <&6; do
		[ "$_ack" = "$1" ] && return 0
	done
	t_not_ok "screendump $1: the host took it and answered"
	return 1
}

# out_file FILE NAME: send FILE to the host over the data port (/dev/ttyS1),
# base64 between markers; the host writes it to its result directory as NAME
# and fails the boot if it did not arrive whole (the "# sent" line).
out_file() {
	{
		echo "==> BEGIN $2"
		base64 <"$1"
		echo "==> END $2"
	} >/dev/ttyS1
	echo "# sent $2 $(md5sum <"$1" | cut -d' ' -f1)"
}

# out_file_gz FILE NAME: FILE compressed (gzip -1) as NAME.gz: the data port
# carries ~200 kB/s under TCG, and a raw frame of a test pattern is megabytes
# that compress a hundredfold.
out_file_gz() {
	gzip -1 -c "$1" >"$1.gz" && out_file "$1.gz" "$2.gz"
	rm -f "$1.gz"
}

# sysfs_wait PATH [SECS]: wait until PATH exists (uevents are asynchronous).
sysfs_wait() {
	_i=0
	while [ ! -e "$1" ]; do
		_i=$((_i + 1))
		[ "$_i" -gt $((${2:-5} * 10)) ] && return 1
		usleep 100000
	done
}

# sysfs_gone PATH [SECS]
sysfs_gone() {
	_i=0
	while [ -e "$1" ]; do
		_i=$((_i + 1))
		[ "$_i" -gt $((${2:-5} * 10)) ] && return 1
		usleep 100000
	done
}

# wait_for TENTHS CMD...: until CMD succeeds, at most TENTHS tenths of a second
wait_for() {
	_n=$1
	shift
	while ! "$@" >/dev/null 2>&1; do
		_n=$((_n - 1))
		[ "$_n" -le 0 ] && return 1
		usleep 100000
	done
}

# per_kernel SERIES=VALUE...: the VALUE for the booted kernel's series
# (6.1, 6.12), for an expectation that differs between kernels; the
# caller says why in a comment.  A kernel with no VALUE gets a text that
# matches no real value, so the check fails and says so.
per_kernel() {
	for _kv in "$@"; do
		case $_kv in "$VM_KSERIES="*) echo "${_kv#*=}"; return 0 ;; esac
	done
	echo "(no expectation for kernel ${VM_KSERIES:-?})"
}

# Where the firmware framebuffer's platform device sits differs between
# the kernels: 6.12's sysfb registers vesa-framebuffer.0 as a child of the
# PCI VGA device it scans out of, 6.1 at the root of /sys/devices/platform.
# So do its sysfs path and the by-path id (udev's rule: the parents' ids).
vesafb_sysfs() {
	per_kernel 6.1=/sys/devices/platform/vesa-framebuffer.0 \
		6.12=/sys/devices/pci0000:00/0000:00:02.0/vesa-framebuffer.0
}
vesafb_path_id() {
	per_kernel 6.1=platform-vesa-framebuffer.0 6.12=pci-0000:00:02.0-platform-vesa-framebuffer.0
}

# module_loaded NAME: NAME is in /proc/modules
module_loaded() { grep -q "^$1 " /proc/modules; }

# module_file NAME: the file modprobe loads NAME from (kmod's modinfo -n)
module_file() { modinfo -n "$1" 2>&1; }

# module_unused NAME: nothing holds module NAME (its refcount is 0), the
# condition rmmod's delete_module(O_NONBLOCK) needs, else EAGAIN
module_unused() { [ "$(cat "/sys/module/$1/refcnt" 2>/dev/null)" = 0 ]; }

# module_holders NAME [PID...]: who holds module NAME, for a diagnosis:
# its refcount and holders, every fd on /dev/fb* in /proc, fbcon's
# consoles, and the state and fds of each PID (a daemon, a monitor)
module_holders() {
	_m=$1
	shift
	echo "$_m: refcnt $(cat "/sys/module/$_m/refcnt" 2>&1)," \
		"holders: $(ls "/sys/module/$_m/holders" 2>/dev/null | tr '\n' ' ')"
	for _fd in /proc/[0-9]*/fd/*; do
		_t=$(readlink "$_fd" 2>/dev/null) || continue
		case $_t in /dev/fb*)
			_p=${_fd#/proc/}
			_p=${_p%%/*}
			echo "open: $_fd -> $_t ($(cat "/proc/$_p/comm" 2>/dev/null))"
			;;
		esac
	done
	for _v in /sys/class/vtconsole/vtcon*; do
		echo "fbcon: ${_v##*/}: $(cat "$_v/name" 2>/dev/null), bind $(cat "$_v/bind" 2>/dev/null)"
	done
	for _fb in /sys/class/graphics/fb[0-9]*; do
		[ -e "$_fb" ] && echo "fb: ${_fb##*/}: $(cat "$_fb/name" 2>/dev/null)"
	done
	for _p in "$@"; do
		echo "pid $_p: $(grep '^State:' "/proc/$_p/status" 2>/dev/null || echo gone)," \
			"wchan $(cat "/proc/$_p/wchan" 2>/dev/null)"
		ls -l "/proc/$_p/fd" 2>/dev/null | sed -n 's/.* \([0-9]* -> .*\)/  fd \1/p'
	done
}

# rmmod_idle NAME [PID...]: rmmod NAME once nothing holds it (at most 10
# s: the last close of a node, fbcon letting go, come a little after the
# event a test waits for); on a failure, who holds it (module_holders)
rmmod_idle() {
	wait_for 100 module_unused "$1"
	rmmod "$1" && return 0
	module_holders "$@"
	return 1
}

# vfb_up fbN [PARAM=VALUE...]: modprobe vfb vfb_enable=1 PARAMS, wait for
# fbN under vfb.0 and make /dev/fbN (no TAP line)
vfb_up() {
	_fb=$1
	shift
	modprobe vfb vfb_enable=1 "$@" || return 1
	sysfs_wait "/sys/devices/platform/vfb.0/graphics/$_fb" 10 || return 1
	fb_mknod "$_fb"
}

# fb_by_path fbN PATHID: the /dev/fb/by-path link coldplug would make
fb_by_path() {
	mkdir -p /dev/fb/by-path
	ln -sfn "../../$1" "/dev/fb/by-path/$2"
}

# vfb_up_linked: vfb as fb1 (fb0 is another driver's), with the by-path
# link coldplug would make (platform-vfb.0)
vfb_up_linked() { vfb_up fb1 && fb_by_path fb1 platform-vfb.0; }

# fb_md5 fbN: the md5 of /dev/fbN's whole memory
fb_md5() { md5sum "/dev/$1" | cut -d' ' -f1; }

# fbcon_unbind: take fbcon off every framebuffer (it draws its console and
# cursor into them)
fbcon_unbind() {
	for _v in /sys/class/vtconsole/vtcon*; do
		grep -q "frame buffer" "$_v/name" && echo 0 >"$_v/bind"
	done
	return 0
}

# dmesg_lines: how many lines the kernel log has now (for kernel_check)
dmesg_lines() { dmesg | wc -l; }

# kernel_check [SINCE]: the kernel log (after line SINCE) through the
# table of known hazards (/vm/kernel-hazards.tab): prints "#" lines for
# every oops, BUG or WARNING, and returns 1 when one is not a known hazard
# of this kernel version (no TAP line)
kernel_check() {
	dmesg | tail -n +$((${1:-0} + 1)) >/tmp/kernel-check.log
	awk -v ver="$VM_KUPSTREAM" -f /vm/kernel-hazards.awk /vm/kernel-hazards.tab \
		/tmp/kernel-check.log >/tmp/kernel-check.out
	_krc=$?
	while IFS='	' read -r _kind _id _eff _line; do
		case $_kind in
		known) t_diag "known kernel bug $_id ($_eff) on $VM_KUPSTREAM, excused: $_line" ;;
		unknown) t_diag "the kernel logged, and no known hazard excuses: $_line" ;;
		ctx) t_diag "  $_line" ;;
		near) t_diag "  (hazard $_id matches, but is known on $_eff only)" ;;
		error) t_diag "kernel-hazards: $_line" ;;
		esac
	done </tmp/kernel-check.out
	return "$_krc"
}

# t_kernel_clean DESC [SINCE]: ok when the kernel logged no oops, BUG or
# WARNING (since line SINCE) but known hazards of this kernel version
t_kernel_clean() {
	if kernel_check "${2:-0}"; then t_ok "$1"; else t_not_ok "$1"; fi
}

# ---- the hazard scenarios (tests/vm/hazards/) ----
# hazard_say TEXT: a line for the host's verdict and the record
hazard_say() { echo "vm-hazard: $*"; }
# hazard_trigger DESC: mark the trigger; what fails before it is the setup
hazard_trigger() { hazard_say "trigger: $*"; }

# pid_state PID: its state letter (R, S, D, Z, ...), or "gone"
pid_state() {
	_s=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
	echo "${_s:-gone}"
}

# hazard_watch_exit PID SECS: PID was killed; wait SECS for it to exit (a
# zombie has).  When it has not, print its state a few times and its
# kernel stack (/proc/PID/stack), the evidence of a spin or a hang, and
# return 1.
hazard_watch_exit() {
	_i=0
	while [ "$_i" -lt $(($2 * 10)) ]; do
		case $(pid_state "$1") in gone | Z) hazard_say "pid $1 exited"; return 0 ;; esac
		usleep 100000
		_i=$((_i + 1))
	done
	_states=
	for _i in 1 2 3 4 5; do
		_states="$_states$(pid_state "$1")"
		usleep 200000
	done
	hazard_say "pid $1 has not exited $2 s after SIGKILL; state over 1 s: $_states;" \
		"wchan $(cat "/proc/$1/wchan" 2>/dev/null); its kernel stack:"
	sed 's/^/vm-hazard: stack: /' "/proc/$1/stack" 2>&1
	return 1
}

# fb_mknod fbN: make /dev/fbN from its sysfs dev attribute (no coldplug yet).
fb_mknod() {
	_dev=$(cat "/sys/class/graphics/$1/dev") || return 1
	rm -f "/dev/$1"
	mknod -m 0600 "/dev/$1" c "${_dev%%:*}" "${_dev#*:}"
}

# fb_count: how many framebuffers (entries with a dev attribute) exist.
fb_count() {
	_c=0
	for _d in /sys/class/graphics/*; do
		[ -e "$_d/dev" ] && _c=$((_c + 1))
	done
	echo "$_c"
}

# t_run DESC CMD...: run CMD with its output on the console (the demo).
t_run() {
	_desc=$1
	shift
	echo
	echo "=== \$ $*"
	if "$@"; then t_ok "$_desc"; else t_not_ok "$_desc (exit $?)"; fi
}

# ---- the display side (/sys/class/drm), read by the shell as the oracle ----

# same_device A B: two sysfs paths whose device links lead to one device
same_device() { [ "$(readlink -f "$1/device")" = "$(readlink -f "$2/device")" ]; }

# drm_card_of fbN: the DRM card (card0) whose device is fbN's parent, or nothing
drm_card_of() {
	for _c in /sys/class/drm/card*; do
		case ${_c##*/} in card*-* | *[!a-z0-9]*) continue ;; esac
		[ -e "$_c/dev" ] && same_device "$_c" "/sys/class/graphics/$1" && echo "${_c##*/}"
	done
	return 0
}

# drm_connected CARD: its connected connectors (card0-Virtual-1), one a line, sorted
drm_connected() {
	for _k in /sys/class/drm/"$1"-*; do
		[ "$(cat "$_k/status" 2>/dev/null)" = connected ] && echo "${_k##*/}"
	done | sort
}

# links_in DIR: "NAME -> TARGET" for each symlink in DIR, sorted (nothing
# when DIR does not exist)
links_in() {
	for _l in "$1"/*; do
		[ -L "$_l" ] && echo "${_l##*/} -> $(readlink "$_l")"
	done | sort
}

# udev_path_id SYSPATH: udev's own ID_PATH of SYSPATH (`udevadm test-builtin
# path_id`, from GUEST_TOOLS="udevadm"), or nothing
udev_path_id() { udevadm test-builtin path_id "$1" 2>/dev/null | sed -n 's/^ID_PATH=//p'; }

# t_path_id_udev fbN [WHAT]: fbclassctl's PATH of fbN is udev's ID_PATH, and
# not empty (one TAP line)
t_path_id_udev() {
	_udev=$(udev_path_id "/sys/class/graphics/$1")
	_ours=$(fbclassctl list -n -o PATH "$1" 2>&1)
	t_diag "path id of $1${2:+ ($2)}: udev '$_udev', fbclassctl '$_ours'"
	if [ -n "$_udev" ] && [ "$_udev" = "$_ours" ]; then
		t_ok "$1${2:+ ($2)}: list's PATH $_ours is udev's path_id"
	else
		t_not_ok "$1${2:+ ($2)}: list's PATH is udev's path_id"
	fi
}

# hazard_regex ID: the regex of hazard ID in /vm/kernel-hazards.tab for the
# booted kernel (its range holds VM_KUPSTREAM), or nothing
hazard_regex() {
	awk -F'\t' -v id="$1" -v ver="$VM_KUPSTREAM" '
	function vcmp(a, b,    x, y, i) {
		split(a, x, "."); split(b, y, ".")
		for (i = 1; i <= 3; i++) {
			if (x[i] + 0 != y[i] + 0) return x[i] + 0 < y[i] + 0 ? -1 : 1
		}
		return 0
	}
	!/^#/ && $1 == id && vcmp($2, ver) <= 0 && vcmp(ver, $3) <= 0 { print $7; exit }' \
		/vm/kernel-hazards.tab
}

# daemon_start DESC LOG ARGS...: `fbclassctl -vv daemon ARGS` in the
# background ($daemon_pid), ok once it wrote its readiness newline.  Not in
# a $(...): the shell must be its parent.
daemon_start() {
	_desc=$1
	_log=$2
	shift 2
	rm -f /tmp/daemon.ready
	fbclassctl -vv daemon --ready-fd 3 "$@" 3>/tmp/daemon.ready 2>"$_log" >/dev/null </dev/null &
	daemon_pid=$!
	t_check "$_desc" wait_for 100 test -s /tmp/daemon.ready
}

# daemon_stop DESC: SIGTERM, ok when it exits 0
daemon_stop() {
	kill -TERM "$daemon_pid"
	wait "$daemon_pid"
	t_is "$?" 0 "$1"
}

# uevents_start FILE: every uevent the kernel sends, as "ACTION SUBSYSTEM
# DEVPATH HOTPLUG=..." lines in FILE, by busybox's own listener
# ($uevents_pid), the witness of what the kernel sent; uevent_mark FILE TEXT
# puts a marker line between them
uevents_start() {
	: >"$1"
	busybox uevent sh -c "echo \"\$ACTION \$SUBSYSTEM \$DEVPATH HOTPLUG=\$HOTPLUG\" >>$1" \
		</dev/null >/dev/null 2>&1 &
	# shellcheck disable=SC2034 # the scenario kills it
	uevents_pid=$!
	usleep 300000
}
uevent_mark() { echo "--- $2" >>"$1"; }
# uevents_between FILE A B: the lines between markers A and B
uevents_between() { sed -n "/^--- $2\$/,/^--- $3\$/p" "$1" | grep -v '^--- '; }
