# fbclassctl daemon on a real kernel: modprobe bochs hands vesafb's fb0 over
# to bochs while it runs, --load-modules loads bochs, vfb comes and goes,
# bochs is unbound and bound, a forged uevent from a root process is ignored, a 3000-event burst through a 64 KiB buffer
# overruns it (ENOBUFS) and /dev still ends right, SIGHUP with a broken rules
# file keeps the old rules, SIGTERM exits 0, and no fd on /dev/fb* or sysfs
# is held between events.
# shellcheck shell=sh disable=SC2034
# Boots on every kernel: uevents and module removal differ between the kernels.
KERNELS=all
QEMU_VGA=std
KCMDLINE="vga=0x317"
MODULES="bochs vfb"
GUEST_HELPERS="uevent-forge waitnode"

is_node() { [ -c "/dev/$1" ] && [ "$(stat -c '%t:%T' "/dev/$1")" = "$2" ]; }
link_is() { [ "$(readlink "/dev/$1")" = "$2" ]; }
no_entry() { [ ! -e "/dev/$1" ] && [ ! -L "/dev/$1" ]; }
alive() { kill -0 "$1" 2>/dev/null; }
snapshot() { ls -lnR /dev 2>&1 | grep -v ' console$\| null$\| zero$\| urandom$\| ttyS1$'; }

# held_fds PID: the fds of PID on /dev/fb* or under /sys, one a line
held_fds() {
	for _fd in /proc/"$1"/fd/*; do
		_t=$(readlink "$_fd") || continue
		case $_t in /dev/fb* | /sys/*) echo "$_fd -> $_t" ;; esac
	done
}

# start_daemon DESC LOG ARGS...: the daemon in the background ($dpid),
# ok once it wrote its readiness newline.  Not in a $(...): the shell
# must be its parent, and its stdout must not be a pipe someone reads.
start_daemon() {
	_desc=$1
	_log=$2
	shift 2
	rm -f /tmp/ready
	fbclassctl -vv daemon --ready-fd 3 "$@" 3>/tmp/ready 2>"$_log" >/dev/null </dev/null &
	dpid=$!
	t_check "$_desc" wait_for 100 test -s /tmp/ready
}

# stop_daemon DESC: SIGTERM, ok when it exits 0
stop_daemon() {
	kill -TERM "$dpid"
	wait "$dpid"
	t_is "$?" 0 "$1"
}

scenario() {
	t_is "$(cat /sys/class/graphics/fb0/name)" "VESA VGA" "vesafb owns fb0 at boot"

	# uevents as busybox sees them: proves the forged one below is sent
	busybox uevent sh -c 'echo "$ACTION $DEVPATH" >>/tmp/raw-uevents' </dev/null >/dev/null 2>&1 &
	rawpid=$!

	start_daemon "daemon is ready (newline on --ready-fd)" /tmp/daemon0.log
	t_check "the ready fd got exactly one newline" sh -c '[ "$(od -An -c /tmp/ready | tr -d " ")" = "\\n" ]'
	t_check "start-up coldplug: vesafb fb0 node" is_node fb0 1d:0
	t_check "start-up coldplug: vesafb by-path link $(vesafb_path_id)" \
		link_is "fb/by-path/$(vesafb_path_id)" ../../fb0
	t_is "$(held_fds "$dpid")" "" "idle daemon holds no fd on /dev/fb* or sysfs"
	t_check "modprobe bochs while the daemon runs" modprobe bochs
	t_check "vesafb→bochs handoff: fb0 is bochs" \
		wait_for 300 grep -qx bochs-drmdrmfb /sys/class/graphics/fb0/name
	t_check "handoff: fb0 node" wait_for 50 is_node fb0 1d:0
	t_check "handoff: by-path link moved to pci-0000:00:02.0" \
		wait_for 50 link_is fb/by-path/pci-0000:00:02.0 ../../fb0
	t_check "handoff: vesafb by-path link pruned" wait_for 50 no_entry "fb/by-path/$(vesafb_path_id)"
	t_check "handoff: vesafb by-name link pruned" wait_for 50 no_entry fb/by-name/VESA_VGA
	t_check "handoff: bochs by-name link" wait_for 50 link_is fb/by-name/bochs-drmdrmfb ../../fb0
	stop_daemon "first daemon: SIGTERM exit 0"
	t_check "rmmod bochs" rmmod bochs
	t_check "no framebuffer left" wait_for 50 test ! -e /sys/class/graphics/fb0
	rm -rf /dev/fb0 /dev/fb

	start_daemon "daemon --load-modules is ready" /tmp/daemon.log --load-modules
	t_check "daemon --load-modules loaded bochs" grep -q 'loaded bochs' /tmp/daemon.log
	t_check "bochs is loaded" grep -q '^bochs ' /proc/modules
	t_check "fb0 appears" wait_for 100 is_node fb0 1d:0
	t_check "fb0 by-path link" wait_for 50 link_is fb/by-path/pci-0000:00:02.0 ../../fb0
	t_is "$(held_fds "$dpid")" "" "idle daemon holds no fd on /dev/fb* or sysfs"

	fbclassctl monitor >/tmp/monitor.txt 2>/tmp/monitor.err </dev/null &
	monpid=$!
	fbclassctl monitor -J >/tmp/monitor.json 2>/tmp/monitor-json.err </dev/null &
	monjpid=$!
	sleep 1
	t_check "modprobe vfb vfb_enable=1" modprobe vfb vfb_enable=1
	t_check "/dev/fb1 within a second" wait_for 10 is_node fb1 1d:1
	t_check "fb1 by-path link within a second" wait_for 10 link_is fb/by-path/platform-vfb.0 ../../fb1
	t_is "$(held_fds "$dpid")" "" "after vfb: no fd on /dev/fb* or sysfs"
	# Both monitors open fb1 to read its format when its add comes: rmmod
	# before they printed that line would take fb1 from under them (format
	# null), or find vfb held (EAGAIN).  So wait for the lines, then for
	# nothing to hold vfb.
	wait_for 100 grep -q '^add fb1 ' /tmp/monitor.txt
	wait_for 100 jq -e 'select(.name == "fb1" and .action == "add")' /tmp/monitor.json
	t_check "rmmod vfb" rmmod_idle vfb "$dpid" "$monpid" "$monjpid"
	t_check "/dev/fb1 removed" wait_for 20 no_entry fb1
	t_check "fb1 by-path link removed" wait_for 20 no_entry fb/by-path/platform-vfb.0
	t_check "fb1 by-name link removed" wait_for 20 no_entry fb/by-name/Virtual_FB
	sleep 1
	# monitor ends with 0 on SIGHUP (a dropped ssh session) and SIGTERM;
	# SIGINT is display.sh's
	kill -HUP "$monpid"
	kill -TERM "$monjpid"
	wait "$monpid"
	t_is "$?" 0 "monitor: SIGHUP exits 0"
	wait "$monjpid"
	t_is "$?" 0 "monitor -J: SIGTERM exits 0"
	t_is "$(grep ' fb1 ' /tmp/monitor.txt)" "add fb1 29:1 vfb C8 640x480
remove fb1 29:1 - -" "monitor: add with driver and format read at event time, remove of a gone device"
	t_is "$(jq -c 'select(.name == "fb1") | [.action, ."maj:min", .present, .driver, .format, .xres, .yres]' /tmp/monitor.json)" \
		'["add","29:1",true,"vfb","C8",640,480]
["remove","29:1",false,null,null,null,null]' "monitor -J: one JSON object a line"
	t_is "$(grep -c '^fbclassctl: monitor: listening for kernel uevents of graphics and drm; ' \
		/tmp/monitor.err /tmp/monitor-json.err | cut -d: -f2 | paste -sd' ' -)" "1 1" \
		"monitor: each run says what it listens to, once, on stderr"
	t_is "$(grep -hv '^fbclassctl: monitor: listening for kernel uevents of ' \
		/tmp/monitor.err /tmp/monitor-json.err)" "" "monitor: nothing else on stderr"

	pci=/sys/bus/pci/devices/0000:00:02.0
	drv=$(readlink -f $pci/driver)
	t_check "unbind bochs" sh -c "echo 0000:00:02.0 >$drv/unbind"
	t_check "unbind: /dev/fb0 removed" wait_for 50 no_entry fb0
	t_check "unbind: by-path link removed" wait_for 50 no_entry fb/by-path/pci-0000:00:02.0
	t_check "bind bochs" sh -c "echo 0000:00:02.0 >$drv/bind"
	t_check "bind: /dev/fb0 back" wait_for 50 is_node fb0 1d:0
	t_check "bind: by-path link back" wait_for 50 link_is fb/by-path/pci-0000:00:02.0 ../../fb0

	# A change event is checked against the plan of the last full scan,
	# once sysfs shows the same device: what was damaged in /dev between
	# events is put back all the same.
	mode0=$(stat -c %a /dev/fb0)
	chmod 0606 /dev/fb0
	echo change >/sys/class/graphics/fb0/uevent
	t_check "change: mode $mode0 put back" wait_for 50 sh -c "[ \"\$(stat -c %a /dev/fb0)\" = $mode0 ]"
	t_check "change: answered from the cached plan (logged)" \
		wait_for 20 grep -q 'fb0: the same device as at the last scan' /tmp/daemon.log
	rm /dev/fb/by-path/pci-0000:00:02.0
	echo change >/sys/class/graphics/fb0/uevent
	t_check "change: a deleted by-path link is put back" \
		wait_for 50 link_is fb/by-path/pci-0000:00:02.0 ../../fb0
	rm /dev/fb0
	ln -s /dev/null /dev/fb0
	echo change >/sys/class/graphics/fb0/uevent
	t_check "change: a symlink planted at fb0 is replaced by the node" wait_for 50 is_node fb0 1d:0
	t_check "change: /dev/null untouched" is_node null 1:3

	# A forged add from a root process: busybox uevent receives it, the
	# daemon (its netlink reader checks the sender, as libudev does) drops it.
	t_check "uevent-forge is in the initramfs" command -v uevent-forge
	t_check "forged add of fb7 sent" uevent-forge add /devices/virtual/graphics/fb7 \
		SUBSYSTEM=graphics MAJOR=29 MINOR=7 DEVNAME=fb7 SEQNUM=999999
	t_check "busybox uevent saw the forged event" wait_for 30 grep -q 'add /devices/virtual/graphics/fb7' /tmp/raw-uevents
	sleep 1
	t_check "the daemon never saw it" sh -c '! grep -q fb7 /tmp/daemon.log'
	t_check "the daemon logged real events (so the check above can see one)" \
		grep -q 'fb1: add event' /tmp/daemon.log
	t_check "nothing made for the forged event" no_entry fb7
	kill "$rawpid" 2>/dev/null

	stop_daemon "SIGTERM: exit 0"
	t_check "SIGTERM: logged" grep -q 'exiting' /tmp/daemon.log

	# The burst: stopped while 3000 events overrun a 64 KiB buffer.
	t_check "modprobe vfb before the burst" modprobe vfb vfb_enable=1
	start_daemon "daemon --buffer-size 65536 ready" /tmp/burst.log --buffer-size 65536
	t_check "fb1 made by the start-up coldplug" is_node fb1 1d:1
	# bounded memory: 500 events, then 2000 more, while it keeps up
	i=0
	while [ $i -lt 500 ]; do echo change >/sys/class/graphics/fb0/uevent; i=$((i + 1)); done
	sleep 3
	rss1=$(awk '/^RssAnon:/ { print $2 }' /proc/$dpid/status)
	while [ $i -lt 2500 ]; do echo change >/sys/class/graphics/fb0/uevent; i=$((i + 1)); done
	sleep 3
	rss2=$(awk '/^RssAnon:/ { print $2 }' /proc/$dpid/status)
	t_diag "RssAnon after 500 events: $rss1 kB, after 2500: $rss2 kB"
	t_check "memory does not grow with events (RssAnon +$((rss2 - rss1)) kB < 64 kB)" \
		test $((rss2 - rss1)) -lt 64
	kill -STOP "$dpid"
	i=0
	while [ $i -lt 1500 ]; do echo change >/sys/class/graphics/fb0/uevent; i=$((i + 1)); done
	rmmod_idle vfb "$dpid" | t_diag_stdin
	while [ $i -lt 2000 ]; do echo change >/sys/class/graphics/fb0/uevent; i=$((i + 1)); done
	modprobe vfb vfb_enable=1 videomemorysize=4194304 mode_option=1024x768-32@60
	while [ $i -lt 3000 ]; do echo change >/sys/class/graphics/fb0/uevent; i=$((i + 1)); done
	rmmod_idle vfb "$dpid" | t_diag_stdin
	kill -CONT "$dpid"
	t_check "burst: the daemon logged the overrun (ENOBUFS)" wait_for 300 grep -q 'uevents were lost' /tmp/burst.log
	t_check "burst: fb1 removed (add and remove in the burst)" wait_for 100 no_entry fb1
	t_check "burst: daemon alive" alive "$dpid"
	sleep 2
	snapshot >/tmp/after-burst
	t_check "burst: fb0 node right" is_node fb0 1d:0
	t_check "burst: fb0 by-path link right" link_is fb/by-path/pci-0000:00:02.0 ../../fb0
	t_check "burst: no vfb link left" no_entry fb/by-path/platform-vfb.0
	fbclassctl coldplug 2>/dev/null
	snapshot >/tmp/after-coldplug
	t_check "burst: /dev exactly as a fresh coldplug wants it" cmp /tmp/after-burst /tmp/after-coldplug
	t_is "$(held_fds "$dpid")" "" "after the burst: no fd on /dev/fb* or sysfs"
	stop_daemon "burst daemon: SIGTERM exit 0"

	# SIGHUP with a broken rules file: the old rules stay.
	echo "driver=bochs-drm link=display/main" >/tmp/rules.conf
	start_daemon "daemon --config with a display/main rule ready" /tmp/hup.log \
		--config /tmp/rules.conf
	t_check "rule link display/main" link_is display/main ../fb0
	echo "driver=bochs-drm bogus=1" >/tmp/rules.conf
	kill -HUP "$dpid"
	t_check "SIGHUP: broken rules reported as FILE:LINE" wait_for 50 grep -q '/tmp/rules.conf:1:' /tmp/hup.log
	t_check "SIGHUP: old rules kept (said)" grep -q 'stay in force' /tmp/hup.log
	t_check "SIGHUP: daemon alive" alive "$dpid"
	rm /dev/display/main
	echo change >/sys/class/graphics/fb0/uevent
	t_check "SIGHUP: an event still applies the old rule" wait_for 50 link_is display/main ../fb0
	stop_daemon "SIGHUP daemon: SIGTERM exit 0"
	out_file /tmp/daemon.log daemon.log
	out_file /tmp/burst.log burst.log
}
