# fbclassctl metrics and daemon --metrics on a real kernel: bochs-drm with
# qemu's EDID.  metrics reads fb0's format and mode through its node and
# the monitor from the EDID; promtool (host) accepts what it and the
# daemon wrote.  A connector forced off shows in the daemon's --metrics
# file within 2 s, and connected again after detect; vfb loaded shows as a
# second framebuffer.  wait returns at once for what is there, times out
# for what is not, and returns when vfb is loaded a second later, through
# a burst of unrelated uevents.  (Writing the status file sends no uevent on 6.1 or
# 6.12, see display.sh: a change written to card0's uevent file tells, as
# a real unplug's HOTPLUG=1 change does.)
# shellcheck shell=sh disable=SC2034,SC2154
QEMU_VGA=none
QEMU_ARGS="-device VGA,edid=on,xres=1280,yres=800"
KCMDLINE=""
MODULES="bochs vfb"

c=/sys/class/drm/card0-Virtual-1
prom=/tmp/m/fb.prom
conn='card="card0",connector="Virtual-1"'

# has FILE LINE: a whole line of FILE
has() { grep -qxF -- "$2" "$1"; }

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	t_check "card0-Virtual-1 appears" sysfs_wait "$c" 10
	fb_mknod fb0
	fbclassctl metrics >/tmp/metrics.prom 2>/tmp/metrics.err
	t_is "$?" 0 "metrics exits 0"
	out_file /tmp/metrics.prom metrics.prom
	t_check "metrics: fb0 through its node: XRGB8888, 1280x800" has /tmp/metrics.prom \
		'fbclassctl_fb_info{fb="fb0",id="bochs-drmdrmfb",kind="drm",driver="bochs-drm",format="XRGB8888",mode="1280x800"} 1'
	t_check "metrics: the node is correct" has /tmp/metrics.prom \
		'fbclassctl_fb_node_correct{fb="fb0",node="/dev/fb0"} 1'
	t_check "metrics: the QEMU Monitor from the EDID" has /tmp/metrics.prom \
		"fbclassctl_connector_monitor_info{$conn,vendor=\"RHT\",product=\"0x1234\",serial=\"\",name=\"QEMU Monitor\"} 1"

	mkdir -p /tmp/m
	daemon_start "daemon --metrics: ready" /tmp/daemon.log --metrics "$prom"
	t_check "daemon --metrics: written before ready, connected" has "$prom" \
		"fbclassctl_connector_status{$conn,status=\"connected\"} 1"
	echo off >"$c/status"
	echo change >/sys/class/drm/card0/uevent
	t_check "forced off: the file says disconnected within 2 s" wait_for 20 has "$prom" \
		"fbclassctl_connector_status{$conn,status=\"disconnected\"} 1"
	out_file "$prom" daemon-off.prom
	echo detect >"$c/status"
	echo change >/sys/class/drm/card0/uevent
	t_check "detect: connected again within 2 s" wait_for 20 has "$prom" \
		"fbclassctl_connector_status{$conn,status=\"connected\"} 1"
	# wait: at once for what is there, a timeout for what is not, and
	# through a burst of unrelated uevents until vfb comes a second later
	fbclassctl wait -t 5 fb0
	t_is "$?" 0 "wait fb0: there at once"
	fbclassctl wait -t 0.5 fb1 2>/dev/null
	t_is "$?" 6 "wait -t 0.5 fb1: not there, exit 6"
	fbclassctl wait -t 30 --connected card0-Virtual-1
	t_is "$?" 0 "wait --connected card0-Virtual-1: connected at once"
	fbclassctl wait -t 30 fb1 2>/tmp/wait.err &
	wpid=$!
	i=0
	while [ "$i" -lt 300 ]; do
		echo change >/sys/devices/virtual/mem/null/uevent
		i=$((i + 1))
	done
	sleep 1
	t_check "wait fb1: still waiting after 300 unrelated uevents and 1 s" kill -0 "$wpid"
	t_check "modprobe vfb vfb_enable=1" modprobe vfb vfb_enable=1
	wait "$wpid"
	t_is "$?" 0 "wait fb1: returns 0 once vfb is loaded"
	t_check "vfb: two framebuffers in the file within 2 s" wait_for 20 has "$prom" \
		"fbclassctl_framebuffers 2"
	t_check "no temporary file left beside it" test "$(ls -A /tmp/m)" = fb.prom
	daemon_stop "daemon --metrics: SIGTERM exit 0"
}

host_check() {
	_bad=0
	for _f in metrics.prom daemon-off.prom; do
		if promtool check metrics <"$_f" >promtool.out 2>&1; then
			echo "ok - promtool check metrics accepts $_f"
		else
			echo "not ok - promtool check metrics accepts $_f"
			sed 's/^/#   /' promtool.out
			_bad=1
		fi
	done
	return "$_bad"
}
