# fbclassctl metrics and daemon --metrics on a real kernel: bochs-drm with
# qemu's EDID.  metrics reads fb0's format and mode through its node and
# the monitor from the EDID; promtool (host) accepts what it and the
# daemon wrote.  A connector forced off shows in the daemon's --metrics
# file within 2 s, and connected again after detect; vfb loaded shows as a
# second framebuffer.  wait returns at once for what is there, times out
# for what is not, and returns when vfb is loaded a second later, through
# a burst of unrelated uevents.  KMS (issue 26): link-status, CRTC and
# the active mode in metrics equal drm_info -j's (and the mode list
# --connectors -J's), fb0 is shown at the console and not while modetest
# holds the screen; the daemon's child reads KMS, the daemon never maps
# libdrm.  (Writing the status file sends no uevent on 6.1 or
# 6.12, see display.sh: a change written to card0's uevent file tells, as
# a real unplug's HOTPLUG=1 change does.)
# shellcheck shell=sh disable=SC2034,SC2154
QEMU_VGA=none
QEMU_ARGS="-device VGA,edid=on,xres=1280,yres=800"
KCMDLINE=""
MODULES="bochs vfb"
GUEST_TOOLS="modetest drm_info"

c=/sys/class/drm/card0-Virtual-1
prom=/tmp/m/fb.prom
conn='card="card0",connector="Virtual-1"'

# has FILE LINE: a whole line of FILE
has() { grep -qxF -- "$2" "$1"; }

# ---- KMS in metrics (issue 26) ----
# kms_oracle FILE: "LINK CRTC WxH HZ" of card0-Virtual-1 in drm_info -j's
# FILE: its link-status, CRTC_ID, that CRTC's mode and the refresh from
# the clock and totals (Hz, 3 decimals)
kms_oracle() {
	jq -r '.["/dev/dri/card0"] as $c | $c.connectors[0].properties as $p |
		($p.CRTC_ID.value) as $crtc | ($c.crtcs[] | select(.id == $crtc) | .mode) as $m |
		"\(["good", "bad"][$p["link-status"].value]) \($crtc) \($m.hdisplay)x\($m.vdisplay) " +
		"\($m.clock * 1000 / ($m.htotal * $m.vtotal) * 1000 | round / 1000)"' "$1"
}
# label LINE NAME: label NAME's value in a sample line
label() { printf '%s\n' "$1" | sed -n "s/.*[{,]$2=\"\([^\"]*\)\".*/\1/p"; }

# kms_round NAME SHOWN: metrics against drm_info -j and list --connectors
# -J read at the same moment; fb0's shown is SHOWN
kms_round() {
	drm_info -j >"/tmp/$1-drm_info.json" 2>/dev/null
	fbclassctl list --connectors -J >"/tmp/$1-conn.json" 2>/dev/null
	fbclassctl metrics >"/tmp/$1.prom" 2>"/tmp/$1.err"
	t_is "$?" 0 "$1: metrics exits 0"
	out_file "/tmp/$1.prom" "$1.prom"
	out_file "/tmp/$1-drm_info.json" "$1-drm_info.json"
	set -- "$1" "$2" $(kms_oracle "/tmp/$1-drm_info.json")
	t_check "$1: KMS read" has "/tmp/$1.prom" 'fbclassctl_kms_scan_success{card="card0",reason=""} 1'
	t_check "$1: link-status $3, as drm_info says" has "/tmp/$1.prom" \
		"fbclassctl_connector_link_status{$conn,link_status=\"$3\"} 1"
	t_check "$1: CRTC $4, drm_info's CRTC_ID" has "/tmp/$1.prom" "fbclassctl_connector_crtc{$conn} $4"
	_mi=$(grep "^fbclassctl_connector_mode_info{$conn," "/tmp/$1.prom")
	t_is "$(label "$_mi" width)x$(label "$_mi" height)" "$5" "$1: the mode's width and height are drm_info's ($5)"
	t_check "$1: the mode's refresh $(label "$_mi" refresh) is drm_info's $6 to the hundredth" \
		awk -v a="$(label "$_mi" refresh)" -v b="$6" 'BEGIN { d = a - b; exit !(d < 0.0051 && d > -0.0051) }'
	t_is "$(label "$_mi" mode)" \
		"$(jq -r '.connectors[] | select(.connector == "card0-Virtual-1") | .mode' "/tmp/$1-conn.json")" \
		"$1: the mode label is list --connectors -J's MODE"
	t_check "$1: fb0's shown is $2" has "/tmp/$1.prom" "fbclassctl_fb_shown{fb=\"fb0\"} $2"
	_oracle="$5"
}

# kms_checks: at the console, then while modetest holds the screen
kms_checks() {
	mkdir -p /dev/dri /sys/kernel/debug
	mknod -m 600 /dev/dri/card0 c 226 0
	t_check "mount debugfs (who made the FB shown)" mount -t debugfs none /sys/kernel/debug
	kms_round kms-console 1
	t_is "$_oracle" 1280x800 "kms-console: drm_info says 1280x800"
	_cid=$(jq '.["/dev/dri/card0"].connectors[0].id' /tmp/kms-console-drm_info.json)
	mkfifo /tmp/mt.in
	modetest -M bochs-drm -s "$_cid:800x600" </tmp/mt.in >/tmp/mt.out 2>&1 &
	_mtpid=$!
	exec 7>/tmp/mt.in
	t_check "modetest becomes master and sets 800x600" wait_for 100 sh -c \
		"grep -q '^ *modetest *$_mtpid .* y ' /sys/kernel/debug/dri/0/clients && grep -q 'size=800x600' /sys/kernel/debug/dri/0/framebuffer"
	kms_round kms-modetest 0
	t_is "$_oracle" 800x600 "kms-modetest: drm_info says 800x600"
	echo >&7
	exec 7>&-
	wait "$_mtpid"
}
# ---- end of KMS in metrics ----

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
	kms_checks

	mkdir -p /tmp/m
	daemon_start "daemon --metrics: ready" /tmp/daemon.log --metrics "$prom"
	t_check "daemon --metrics: its child read KMS (libdrm)" has "$prom" \
		'fbclassctl_kms_scan_success{card="card0",reason=""} 1'
	t_is "$(cat "/proc/$daemon_pid/comm")" fbclassctl "daemon --metrics: \$daemon_pid is the daemon"
	t_check "daemon --metrics: the daemon has not mapped libdrm" \
		sh -c "! grep libdrm /proc/$daemon_pid/maps"
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
	for _f in metrics.prom daemon-off.prom kms-console.prom kms-modetest.prom; do
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
