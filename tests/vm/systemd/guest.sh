#!/bin/sh
# The systemd guest's checks (POSIX sh: the root's dash), run once after
# boot by vm-systemd-test.service with its output on the serial console as
# TAP, then the guest powers off.  What it checks: the unit as systemd runs
# it (start, readiness, reload, a broken rules file, stop, its hardening)
# and fbclassctl beside systemd-udevd (owner, mode and links stable under
# change uevents and a vfb added and removed), then the README's two other
# ways: hotplug from a udev RUN rule, and udevd alone.  /vm/expect (from the host)
# sets EXPECT_TYPE, the unit's Type= for this systemd, and EXPECT_IDLE_DROP
# (1: the daemon's idle release is large enough here to assert).
# shellcheck disable=SC1091
. /vm/expect
conf=/etc/fbclassctl.conf
n=0
ok() { n=$((n + 1)) && echo "ok $n - $*"; }
not_ok() { n=$((n + 1)) && echo "not ok $n - $*"; }
# t DESC CMD...: ok when CMD succeeds; its output as comments when not
t() {
	_d=$1
	shift
	if "$@" >/tmp/t.out 2>&1; then ok "$_d"; else
		not_ok "$_d"
		sed 's/^/#   /' /tmp/t.out
	fi
}
# is GOT WANT DESC
is() {
	if [ "$1" = "$2" ]; then ok "$3"; else
		not_ok "$3"
		echo "$1" | sed 's/^/#   got:  /'
		echo "$2" | sed 's/^/#   want: /'
	fi
}
# wait_for TENTHS CMD...: until CMD succeeds, at most TENTHS tenths of a second
wait_for() {
	_n=$1 _i=0
	shift
	until "$@" >/dev/null 2>&1; do
		_i=$((_i + 1))
		[ "$_i" -le "$_n" ] || return 1
		sleep 0.1
	done
}
# the daemon's messages since boot, as the journal has them
journal() { journalctl -q -b -u fbclassctl.service -o cat --no-pager; }
journal_has() { journal | grep -qF -- "$1"; }
node() { stat -c '%U:%G %a' "$1" 2>&1; }
link_of() { readlink "$1" 2>&1; }
# the state the two managers share: each node's owner, mode and, with
# "inode", its inode (a node made again by one of them has a new one), and
# every link under /dev/fb and /dev/display
state() {
	_fmt='%n %U:%G %a'
	[ "${1:-}" != inode ] || _fmt="$_fmt %i"
	for f in /dev/fb[0-9]*; do stat -c "$_fmt" "$f"; done
	find /dev/fb /dev/display -type l -exec sh -c 'echo "$1 -> $(readlink "$1")"' _ {} \; 2>/dev/null | sort
}
# up PART: the guest's uptime as a TAP comment (where the boot's time goes)
up() { echo "# $1: at $(cut -d' ' -f1 /proc/uptime) s"; }
bochs_path=/dev/fb/by-path/pci-0000:00:02.0
vfb_path=/dev/fb/by-path/platform-vfb.0

echo "# systemd $(systemctl --version | head -n1), kernel $(uname -r)"
echo "# booted to the checks in $(cut -d' ' -f1 /proc/uptime) s"

# ---- the unit ----
is "$(systemctl is-active fbclassctl.service)" active "fbclassctl.service is active after boot"
is "$(systemctl show -p Type --value fbclassctl.service)" "$EXPECT_TYPE" \
	"the unit is Type=$EXPECT_TYPE as configure chose for this systemd"
t "the root has no /bin/kill (minimal: no procps)" test ! -e /bin/kill -a ! -e /usr/bin/kill
# udev's 80-drivers.rules is masked in this root: no one but the daemon's
# --load-modules loads bochs for the VGA device, through its hardening
t "--load-modules loaded bochs under the unit's hardening" test -d /sys/module/bochs
is "$(node /dev/fb0)" "root:video 660" "/dev/fb0 is root:video 0660"
is "$(link_of "$bochs_path")" ../../fb0 "the daemon made $bochs_path"
t "the daemon made a by-connector link to fb0" sh -c 'readlink /dev/fb/by-connector/* | grep -qx ../../fb0'

# readiness through sd_notify: start returns once the coldplug is done,
# so the links are there as soon as it returns
systemctl stop fbclassctl.service
rm -rf /dev/fb
t "systemctl start succeeds" systemctl start fbclassctl.service
t "the links are there when systemctl start returns (READY=1 after coldplug)" test -L "$bochs_path"

# ---- reload ----
up "reload"
echo "driver=bochs-drm link=display/one" >"$conf"
t "systemctl reload succeeds without /bin/kill" systemctl reload fbclassctl.service
t "the reload read the rules: /dev/display/one when reload returns" test -L /dev/display/one
printf 'driver=bochs-drm link=display/two\nfrobnicate=1\n' >"$conf"
systemctl reload fbclassctl.service >/tmp/reload.out 2>&1
echo "# systemctl reload with a broken rules file: status $?"
sed 's/^/#   /' /tmp/reload.out
is "$(systemctl is-active fbclassctl.service)" active "a broken rules file on reload: the daemon stays active"
t "the journal names the broken line ($conf:2: reason)" wait_for 50 journal_has "$conf:2: "
journal | grep -F "$conf:2" | sed 's/^/#   /'
udevadm trigger --action=change --subsystem-match=graphics
udevadm settle
sleep 1
t "the old rules stay: /dev/display/one after a change uevent" test -L /dev/display/one
t "the broken file's rules are not used: no /dev/display/two" test ! -e /dev/display/two
echo "driver=bochs-drm link=display/one" >"$conf"
t "a fixed rules file reloads again" systemctl reload fbclassctl.service

# ---- beside systemd-udevd ----
up "beside udevd"
t "modprobe vfb vfb_enable=1" modprobe vfb vfb_enable=1
t "a vfb added later gets its node" wait_for 100 test -c /dev/fb1
t "... and the daemon's link $vfb_path" wait_for 100 test -L "$vfb_path"
is "$(node /dev/fb1)" "root:video 660" "/dev/fb1 is root:video 0660"
is "$(link_of "$vfb_path")" ../../fb1 "$vfb_path points at fb1"
udevadm settle
fixes() { journal | grep -c 'fixed owner'; }
fixes_before=$(fixes)
before=$(state inode)
before_modes=$(state)
echo "$before" | sed 's/^/# before: /'
# what `udevadm trigger --action=change --subsystem-match=graphics` does,
# without starting udevadm 100 times under TCG
i=0
while [ "$i" -lt 100 ]; do
	for f in /sys/class/graphics/*/uevent; do echo change >"$f"; done
	i=$((i + 1))
done
udevadm settle
sleep 2
up "100 change uevents sent"
is "$(state inode)" "$before" "100 change uevents on graphics: owner, mode, inode and links unchanged"
is "$(fixes)" "$fixes_before" "100 change uevents: the daemon fixed no node udevd had set (no fight)"
t "rmmod vfb" rmmod vfb
t "vfb removed: /dev/fb1 goes" wait_for 100 test ! -e /dev/fb1
t "vfb removed: its link goes" wait_for 100 test ! -L "$vfb_path"
t "modprobe vfb again" modprobe vfb vfb_enable=1
t "vfb again: its link is back" wait_for 100 test -L "$vfb_path"
udevadm settle
sleep 2
is "$(state)" "$before_modes" "after a vfb removed and added again: the same owner, mode and links"

# ---- hardening and stop ----
up "hardening and stop"
t "the daemon's journal has no EPERM, EACCES or seccomp refusal" \
	sh -c '! journalctl -q -b -u fbclassctl.service -o cat --no-pager | grep -iE "not permitted|permission denied|EPERM|EACCES|seccomp"'
t "the kernel logged no seccomp kill or audit refusal (type=1326)" \
	sh -c '! journalctl -q -b -k -o cat --no-pager | grep -E "type=1326|audit.*seccomp"'
# idle: 2 s after its last event the daemon gives back the pages of its
# code it read from /proc/self/smaps (ProtectProc=invisible leaves it
# self) and its free heap; it says nothing when it cannot, so measure it:
# the resident set right after a reload's coldplug (SIGHUP: the shell's
# kill), then once idle
pid=$(systemctl show -p MainPID --value fbclassctl.service)
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }
# a burst of change uevents: the daemon's event path and coldplug run
for f in /sys/class/graphics/fb*/uevent; do echo change >"$f"; done
kill -HUP "$pid"
sleep 0.5
rss_busy=$(rss)
sleep 4
rss_idle=$(rss)
echo "# the daemon's VmRSS: ${rss_busy} kB 0.5 s after a reload, ${rss_idle} kB idle"
# Debian 12 (6.1, glibc 2.36): a reload leaves so little resident that
# idle gives back almost nothing, with or without the unit's sandbox
# (1336 kB to 1344 kB in the unit, 848 to 816 kB outside it): measured,
# not asserted.  Debian 13 (6.12): 2.9 MB to 1.6 MB.
if [ "${EXPECT_IDLE_DROP:-0}" = 1 ]; then
	t "idle under the hardening: the daemon gives memory back (VmRSS drops)" test "$rss_idle" -lt "$rss_busy"
fi
t "systemctl stop succeeds" systemctl stop fbclassctl.service
is "$(systemctl is-active fbclassctl.service)" inactive "stopped: inactive, not failed"
is "$(systemctl show -p Result --value fbclassctl.service)" success "stopped: Result=success"
is "$(systemctl show -p ExecMainStatus --value fbclassctl.service)" 0 "stopped: the daemon exited 0"

# ---- the README's other two ways: the RUN rule, and udevd alone ----
up "the udev RUN rule"
rule=/etc/udev/rules.d/70-fbclassctl.rules
echo 'SUBSYSTEM=="graphics", KERNEL=="fb[0-9]*", RUN+="/usr/bin/fbclassctl hotplug"' >"$rule"
udevadm control --reload
rm -rf /dev/fb /dev/display
udevadm trigger --action=change --subsystem-match=graphics
udevadm settle
is "$(link_of "$bochs_path")" ../../fb0 "RUN rule (the daemon stopped): a change uevent makes $bochs_path"
t "RUN rule: rmmod vfb" rmmod vfb
udevadm settle
t "RUN rule: vfb removed, hotplug removes its link" test ! -L "$vfb_path"
t "RUN rule: modprobe vfb" modprobe vfb vfb_enable=1
udevadm settle
is "$(node /dev/fb1)" "root:video 660" "RUN rule: the new /dev/fb1 is root:video 0660"
is "$(link_of "$vfb_path")" ../../fb1 "RUN rule: hotplug as udevd runs it made $vfb_path"
up "udevd alone"
rm -f "$rule"
udevadm control --reload
rm -rf /dev/fb
rmmod vfb && modprobe vfb vfb_enable=1
udevadm settle
is "$(node /dev/fb1)" "root:video 660" "udevd alone: its own rules make /dev/fb1 root:video 0660"
t "udevd alone: no links" test ! -e /dev/fb
t "udevd alone: fbclassctl info fb1 works" fbclassctl info fb1

echo "# the checks ended at $(cut -d' ' -f1 /proc/uptime) s"
echo "# the daemon's journal:"
journal | tail -n 30 | sed 's/^/#   /'
echo "1..$n"
