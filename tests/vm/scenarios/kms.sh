# The KMS reader (src/kms.h, through tests/unit/kms-dump) on bochs: on the
# console the plane shows fbcon's FB, owner [fbcon]; while Debian's
# modetest shows 800x600 the reader says 800x600 and owner modetest, the
# DRM master; after modetest exits, fbcon's FB again.  Every id, mode,
# size, format and modifier equals drm_info -j's (the oracle).  list's
# SHOWN says yes, no, yes; doctor fb0 exits 1 naming modetest.  Neither a
# read nor list nor doctor changes the screen (qemu's screendump before
# and after, held equal by host_check) or the DRM master (debugfs'
# clients); the kernel makes a plain opener master, and the reader drops
# it (strace).  snap card0-Virtual-1 equals the screendump on the console
# (and snap fb0) and under modetest, and needs root (snapc_*).  One boot
# per kernel covers it all.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=std
QEMU_SCREENDUMP=1
# what opening a card does to the master differs by kernel: both
KERNELS=all
KCMDLINE=""
MODULES="bochs"
GUEST_TOOLS="modetest drm_info strace"
GUEST_HELPERS="unit/kms-dump"
# 18 screendumps of 3 s each, on top of the boot: more than VM_TIMEOUT
# when the host is busy
BOOT_TIMEOUT=300

dri=/sys/kernel/debug/dri/0
# ours and theirs: /vm/kms-lib.sh
[ ! -r /vm/kms-lib.sh ] || . /vm/kms-lib.sh # not on the host, which reads the variables

# masters: the clients of card0 that are master, "comm:pid" a line
masters() {
	awk 'NR > 1 && $(NF - 3) == "y" { print $(NF - 6) ":" $(NF - 5) }' "$dri/clients"
}

# read_round NAME: screendump, a read, screendump, drm_info; the master kept
read_round() {
	_m0=$(masters)
	screendump "$1-before"
	kms-dump 0 >"/tmp/$1.json" 2>"/tmp/$1.err"
	t_is "$?" 0 "$1: kms-dump reads card0"
	screendump "$1-after"
	t_is "$(masters)" "$_m0" "$1: the DRM master is as before the read (${_m0:-none})"
	drm_info -j >"/tmp/$1-drm_info.json" 2>/tmp/drm_info.err
	t_is "$(ours "/tmp/$1.json")" "$(theirs "/tmp/$1-drm_info.json")" \
		"$1: CRTC, plane, connector and FB ids, modes, sizes, formats equal drm_info -j's"
	out_file "/tmp/$1.json" "$1.json"
	out_file "/tmp/$1-drm_info.json" "$1-drm_info.json"
	# the unit tests' captured answers (tests/unit/kms/)
	cat "$dri/framebuffer" >"/tmp/$1.framebuffer"
	cat "$dri/clients" >"/tmp/$1.clients"
	out_file "/tmp/$1.framebuffer" "$1.framebuffer"
	out_file "/tmp/$1.clients" "$1.clients"
}

# list_round NAME WANT RC: list's SHOWN for fb0 is WANT, doctor fb0 exits
# RC; both leave the screen and the master as they were (host_check
# compares NAME-list-before and -after)
list_round() {
	_m0=$(masters)
	screendump "$1-list-before"
	_got=$(fbclassctl list -n -o SHOWN fb0 2>&1)
	fbclassctl doctor fb0 >"/tmp/$1.doctor" 2>&1
	_rc=$?
	screendump "$1-list-after"
	t_is "$_got" "$2" "$1: list -o SHOWN fb0 says $2"
	t_is "$_rc" "$3" "$1: doctor fb0 exits $3"
	[ "$_rc" = "$3" ] || t_diag_stdin <"/tmp/$1.doctor"
	t_is "$(masters)" "$_m0" "$1: list and doctor leave the DRM master as it was (${_m0:-none})"
}

# open_master: who is master while this shell holds card0 open (the
# kernel's own doing, the reason the reader drops master)
open_master() {
	exec 8</dev/dri/card0
	masters | cut -d: -f1 | tr '\n' ' '
	exec 8<&-
}

# drops NAME: the DROP_MASTER ioctls of one more read, traced
drops() {
	strace -f -e trace=ioctl -o "/tmp/$1.strace" kms-dump 0 >/dev/null 2>&1
	grep -c 'DRM_IOCTL_DROP_MASTER.* = 0$' "/tmp/$1.strace"
}

# shown FILE: "WxH owner" of the FB the primary plane of the first active CRTC shows
shown() {
	jq -r '(.crtcs[] | select(.active) | .id) as $c | (.planes[] |
		select(.type == "primary" and .crtc_id == $c) | .fb_id) as $f |
		(.crtcs[] | select(.id == $c) | .mode | "\(.hdisplay)x\(.vdisplay)") + " " +
		(.fbs[] | select(.id == $f) | "\(.width)x\(.height) \(.owner.kind) \(.owner.comm)" +
		" \(.owner.pid) \(.owner.master)")' "$1" | head -n 1
}

# ---- snap CONNECTOR (issue 23): what card0-Virtual-1 shows, against qemu ----
# snapc_round NAME: qemu's screendump, snap card0-Virtual-1, a screendump
# again; the PNG goes to the host, whose snapc_host_check holds it against
# the first screendump pixel for pixel and the two screendumps equal (snap
# changed nothing on screen).  holders card0 names the same DRM master
# before and after.
snapc_round() {
	_m0=$(fbclassctl holders card0 2>&1 | grep 'DRM master:')
	screendump "snapc-$1"
	fbclassctl snap card0-Virtual-1 "/tmp/snapc-$1.png" >"/tmp/snapc-$1.out" 2>&1
	_rc=$?
	screendump "snapc-$1-after"
	t_is "$_rc" 0 "snap CONNECTOR, $1: snap card0-Virtual-1 exits 0"
	[ "$_rc" = 0 ] || t_diag_stdin <"/tmp/snapc-$1.out"
	t_is "$(fbclassctl holders card0 2>&1 | grep 'DRM master:')" "$_m0" \
		"snap CONNECTOR, $1: holders card0 names the same DRM master after snap (${_m0#*: })"
	out_file "/tmp/snapc-$1.png" "snapc-$1.png"
}

# snapc_nobody NAME WANT: snap card0-Virtual-1 as uid 65534 exits 1 with
# WANT in its message, and writes nothing
snapc_nobody() {
	mkdir -p /tmp/nb && chmod 777 /tmp/nb
	su -s /bin/sh -c "$(command -v fbclassctl) snap card0-Virtual-1 /tmp/nb/x.png" \
		nobody >"/tmp/snapc-$1.out" 2>&1
	t_is "$?" 1 "snap CONNECTOR, $1: not root, snap card0-Virtual-1 exits 1"
	t_diag "$1: $(cat "/tmp/snapc-$1.out")"
	t_check "snap CONNECTOR, $1: it says why ($2)" grep -q "$2" "/tmp/snapc-$1.out"
	t_check "snap CONNECTOR, $1: no file written" test ! -e /tmp/nb/x.png
}

# snapc_console: at the console, snap card0-Virtual-1 is qemu's screen and
# snap fb0 byte for byte; a caller that is not root is told it needs root,
# through a node it cannot open and through one it can (GETFB2 then gives
# it no handle)
snapc_console() {
	snapc_round console
	fbclassctl snap fb0 /tmp/snapc-fb0.png >/dev/null 2>&1
	t_check "snap CONNECTOR, console: the PNG equals snap fb0's byte for byte" \
		cmp /tmp/snapc-console.png /tmp/snapc-fb0.png
	grep -q '^nobody:' /etc/passwd 2>/dev/null ||
		echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
	_m0=$(masters)
	snapc_nobody nobody-0600 "card0-Virtual-1: /dev/dri/card0: Permission denied (reading what is shown needs root)"
	chmod 666 /dev/dri/card0
	snapc_nobody nobody-0666 "card0-Virtual-1: GETFB2 gave no handle to FB [0-9]*'s buffer: reading it needs root (CAP_SYS_ADMIN)"
	chmod 600 /dev/dri/card0
	t_is "$(masters)" "$_m0" "snap CONNECTOR, not root: the DRM master is as before (${_m0:-none})"
	snapc_trace
}

# snapc_trace: snap's ioctls at the console, traced: the master its open
# gave dropped, the buffer dumb-mapped, every handle GETFB2 gave closed
snapc_trace() {
	strace -f -e trace=ioctl -o /tmp/snapc.strace fbclassctl snap card0-Virtual-1 \
		/tmp/snapc-trace.png >/dev/null 2>&1
	_g=$(grep -c 'DRM_IOCTL_MODE_GETFB2.* = 0$' /tmp/snapc.strace)
	t_check "snap CONNECTOR, trace: GETFB2 is traced" test "$_g" -gt 0
	t_is "$(grep -c 'DRM_IOCTL_GEM_CLOSE.* = 0$' /tmp/snapc.strace)" "$_g" \
		"snap CONNECTOR, trace: each of the $_g handles GETFB2 gave is closed"
	t_is "$(grep -c 'DRM_IOCTL_DROP_MASTER.* = 0$' /tmp/snapc.strace)" 1 \
		"snap CONNECTOR, trace: the master its open gave is dropped"
	t_is "$(grep -c 'DRM_IOCTL_MODE_MAP_DUMB.* = 0$' /tmp/snapc.strace)" 1 \
		"snap CONNECTOR, trace: the buffer is dumb-mapped once"
	out_file /tmp/snapc.strace snapc.strace
}

# snapc_host_check: on the host, each snap PNG equals its screendump
snapc_host_check() {
	_bad=0
	for r in console modetest; do
		_h=$(head -n 3 "snapc-$r.ppm" | wc -c)
		{ sed -n 2p "snapc-$r.ppm" && tail -c +"$((_h + 1))" "snapc-$r.ppm"; } >"snapc-$r.rgb"
		if "${top_builddir:-.}/tests/vm/host/pngcmp" "snapc-$r.png" "snapc-$r.rgb"; then
			echo "ok - snap CONNECTOR, $r: snap card0-Virtual-1 equals qemu's screendump pixel for pixel"
		else
			echo "not ok - snap CONNECTOR, $r: snap card0-Virtual-1 differs from qemu's screendump (snapc-$r.png, snapc-$r.ppm)"
			_bad=1
		fi
		if cmp -s "snapc-$r.ppm" "snapc-$r-after.ppm"; then
			echo "ok - snap CONNECTOR, $r: the screen is as it was before snap"
		else
			echo "not ok - snap CONNECTOR, $r: snap changed the screen (snapc-$r.ppm, snapc-$r-after.ppm)"
			_bad=1
		fi
	done
	return "$_bad"
}
# ---- end of snap CONNECTOR ----
# ---- list --connectors and info's scanout section (issue 23) ----
# Each cell held against drm_info -j (read_round's NAME-drm_info.json)
# and debugfs, the independent oracles; kept in this block of its own.

# conn_oracle NAME: "CRTC WxH HZ FB FOURCC" of card0-Virtual-1 in drm_info
# -j's answers: its CRTC_ID, that CRTC's mode with the refresh from the
# clock and totals (Hz, 3 decimals), the FB id and fourcc on its primary plane
conn_oracle() {
	jq -r '.["/dev/dri/card0"] as $c | ($c.connectors[0].properties.CRTC_ID.value) as $crtc |
		($c.crtcs[] | select(.id == $crtc) | .mode) as $m |
		($c.planes[] | select(.crtc_id == $crtc and .properties.type.value == 1) | .fb) as $fb |
		"\($crtc) \($m.hdisplay)x\($m.vdisplay) " +
		"\($m.clock * 1000 / ($m.htotal * $m.vtotal) * 1000 | round / 1000) \($fb.id) " +
		([$fb.format % 256, ($fb.format / 256 | floor) % 256,
		  ($fb.format / 65536 | floor) % 256, ($fb.format / 16777216 | floor)] | implode)' \
		"/tmp/$1-drm_info.json"
}

# connectors_round NAME OWNER: list --connectors -J's row of
# card0-Virtual-1 against conn_oracle NAME; SCANOUT is fb0 exactly when
# debugfs says [fbcon] made the FB shown; OWNER is OWNER; the master kept
connectors_round() {
	_m0=$(masters)
	fbclassctl list --connectors -J >"/tmp/$1-conn.json" 2>"/tmp/$1-conn.err"
	t_is "$?" 0 "$1: list --connectors exits 0"
	t_is "$(masters)" "$_m0" "$1: list --connectors leaves the DRM master as it was (${_m0:-none})"
	out_file "/tmp/$1-conn.json" "$1-conn.json"
	set -- "$1" "$2" $(conn_oracle "$1")
	_row='.connectors[] | select(.connector == "card0-Virtual-1")'
	t_is "$(jq -r "$_row | \"\(.card) \(.status) \(.crtc)\"" "/tmp/$1-conn.json")" \
		"card0 connected $3" "$1: CARD, STATUS and CRTC ($3) equal drm_info's"
	_mode=$(jq -r "$_row | .mode" "/tmp/$1-conn.json")
	t_is "${_mode%@*}" "$4" "$1: MODE is $4, as drm_info's CRTC has it"
	t_check "$1: MODE's refresh ${_mode#*@} is drm_info's $5 to the hundredth" \
		awk -v a="${_mode#*@}" -v b="$5" 'BEGIN { d = a - b; exit !(d < 0.0051 && d > -0.0051) }'
	if grep -A1 "^framebuffer\[$6\]:" "$dri/framebuffer" | grep -q 'allocated by = \[fbcon\]'; then
		_want=fb0
	else
		_want="FB $6 $4 $7"
	fi
	t_is "$(jq -r "$_row | .scanout" "/tmp/$1-conn.json")" "$_want" \
		"$1: SCANOUT is $_want (FB $6 on the primary plane, debugfs names its maker)"
	t_is "$(jq -r "$_row | .owner" "/tmp/$1-conn.json")" "$2" "$1: OWNER is $2"
	# info's scanout section says the same
	fbclassctl info -J fb0 >"/tmp/$1-info.json" 2>/dev/null
	t_is "$(jq -r '.framebuffers[0].scanout.connectors[0] |
		"\(.crtc) \(.mode) \(.scanout) \(.fb.id) \(.owner.name)"' "/tmp/$1-info.json")" \
		"$3 $_mode $_want $6 $2" "$1: info -J's scanout section agrees"
}

# ---- end of list --connectors ----

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	fb_mknod fb0
	t_check "card0-Virtual-1 appears" sysfs_wait /sys/class/drm/card0-Virtual-1 10
	# the nodes as devtmpfs makes them: root, 0600
	mkdir -p /dev/dri
	mknod -m 600 /dev/dri/card0 c 226 0
	mknod -m 600 /dev/dri/renderD128 c 226 128
	mkdir -p /sys/kernel/debug
	t_check "mount debugfs" mount -t debugfs none /sys/kernel/debug
	# a blinking cursor would change the screen between two screendumps
	echo 0 >/sys/class/graphics/fbcon/cursor_blink

	# what the kernel does (6.1 and 6.12 alike): a plain open of the
	# primary node with no master makes the opener master ...
	t_is "$(open_master)" "$(cat /proc/$$/comm) " "kernel: opening card0 with no master makes the opener master"
	screendump open-before
	open_master >/dev/null
	screendump open-after
	# ... so the reader drops it at once, and no longer holds it
	t_is "$(drops console)" 1 "console: the reader drops the master its open gave it"
	read_round console
	list_round console yes 0
	snapc_console
	connectors_round console "[fbcon]"
	t_check "console: doctor fb0 says it is on screen" grep -qE '^ok +fb0 +shown +fb0 is on screen' /tmp/console.doctor
	t_is "$(shown /tmp/console.json)" "1280x800 1280x800 fbcon [fbcon] 0 false" \
		"console: the primary plane shows fbcon's 1280x800 FB, owner [fbcon]"
	t_is "$(jq -r '.connectors[0].name' /tmp/console.json)" card0-Virtual-1 \
		"console: the connector is named as sysfs names it"
	t_check "console: sysfs has that connector" test -d \
		"/sys/class/drm/$(jq -r '.connectors[0].name' /tmp/console.json)"

	conn=$(jq '.["/dev/dri/card0"].connectors[0].id' /tmp/console-drm_info.json)
	mkfifo /tmp/mt.in
	modetest -M bochs-drm -s "$conn:800x600" </tmp/mt.in >/tmp/mt.out 2>&1 &
	mtpid=$!
	exec 7>/tmp/mt.in
	t_check "modetest becomes master and sets 800x600" wait_for 100 \
		sh -c "grep -q '^ *modetest *$mtpid .* y ' $dri/clients && grep -q 'size=800x600' $dri/framebuffer"
	sleep 1
	t_is "$(open_master)" "modetest " "kernel: opening card0 while modetest is master leaves it master"
	t_is "$(drops modetest)" 0 "modetest: the reader has no master to drop"
	read_round modetest
	list_round modetest no 1
	snapc_round modetest
	connectors_round modetest "modetest[$mtpid]"
	t_check "modetest: doctor fb0 names what the connector shows, and whose" grep -q \
		"card0-Virtual-1 shows FB [0-9]* 800x600 XR24 of modetest\[$mtpid\], DRM master" /tmp/modetest.doctor
	t_is "$(shown /tmp/modetest.json)" "800x600 800x600 process modetest $mtpid true" \
		"modetest: the plane shows modetest's 800x600 FB, owner modetest[$mtpid], master"
	echo >&7
	exec 7>&-
	wait "$mtpid"
	t_diag "modetest: $(tr '\n' ' ' </tmp/mt.out | cut -c1-200)"

	read_round after
	list_round after yes 0
	connectors_round after "[fbcon]"
	t_is "$(shown /tmp/after.json)" "1280x800 1280x800 fbcon [fbcon] 0 false" \
		"after modetest exits: fbcon's FB is shown again"
	t_kernel_clean "no oops, BUG or WARNING"
}

# host_check: each read left qemu's screen as it was; modetest's screen is
# not the console's, and is 800x600
host_check() {
	_rc=0
	# open: the last close of card0 has the kernel restore fbcon's mode,
	# which is the one shown
	for r in open console modetest after console-list modetest-list after-list; do
		if cmp -s "$r-before.ppm" "$r-after.ppm"; then
			echo "ok - $r: the screendumps before and after the read are identical"
		else
			echo "not ok - $r: the screen changed across the read ($r-before.ppm, $r-after.ppm)"
			_rc=1
		fi
	done
	if [ "$(head -c 15 modetest-before.ppm | tr '\n' ' ')" = "P6 800 600 255 " ]; then
		echo "ok - modetest: qemu shows 800x600"
	else
		echo "not ok - modetest: qemu shows $(head -c 15 modetest-before.ppm | tr '\n' ' ')"
		_rc=1
	fi
	if [ "$(head -c 16 console-before.ppm | tr '\n' ' ')" = "P6 1280 800 255 " ]; then
		echo "ok - console: qemu shows 1280x800"
	else
		echo "not ok - console: qemu shows $(head -c 16 console-before.ppm | tr '\n' ' ')"
		_rc=1
	fi
	snapc_host_check || _rc=1
	return "$_rc"
}
