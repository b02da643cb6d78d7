# set against fbset, on vfb (4 MiB) with fbcon on it: for each request,
# fbset from the same starting mode, then fbclassctl set; the same var
# (info -J) and the same `fbset -s`.  Depths 8 -> 16 -> 24, a virtual
# height of twice the visible one, timings, fb.modes modes, --all, --rgba;
# --test changes nothing; a refused mode keeps the old one; pans; a
# malformed fb.modes sets nothing.  bochs-drm's fbdev emulation (fb1) is
# refused with the video= argument of a mode its connector offers.
# A rule's fbmode= and console= are applied by coldplug, as fbset -s and
# con2fbmap (the oracles) see it.  Last, vfb unbound and bound again
# while set runs over and over, and unbound just before set's ioctl.
# shellcheck shell=sh disable=SC2034,SC2086
QEMU_VGA=none
QEMU_ARGS="-device VGA,edid=on,xres=1280,yres=800"
KCMDLINE=""
MODULES="vfb bochs"
# about 60 checks, each a few processes: 100 s under TCG on a busy host
BOOT_TIMEOUT=300
GUEST_TOOLS="con2fbmap"
GUEST_HELPERS="unbind-at-put.so"

var_of() { fbclassctl info -J "$1" 2>/dev/null | jq -c '.framebuffers[0].var'; }
show() { fbset -fb /dev/fb0 -s; }
# oracle N: the fb con2fbmap says console N is drawn on
oracle() { con2fbmap "$1" | sed -n 's/^console [0-9]* is mapped to framebuffer \([0-9]*\)$/\1/p'; }

# restore: the mode vfb started in, by fbset (the oracle's own hands)
restore() { fbset -fb /dev/fb0 -g $orig_g -t $orig_t >/dev/null 2>&1; }

# same LABEL PREP "FBSET ARGS" "SET ARGS": from the mode PREP leaves (after
# restore), fbset and set give the same var and the same fbset -s.
same() {
	_label=$1
	restore && eval "$2"
	fbset -fb /dev/fb0 $3 >/tmp/fbset.out 2>&1
	_rc_fbset=$?
	_want=$(var_of fb0)
	show >/tmp/want.s
	restore && eval "$2"
	fbclassctl set fb0 $4 >/tmp/set.out 2>&1
	_rc_set=$?
	_got=$(var_of fb0)
	show >/tmp/got.s
	t_is "$_rc_set $_rc_fbset" "0 0" "$_label: set and fbset exit 0"
	if [ -n "$_want" ] && [ "$_got" = "$_want" ]; then
		t_ok "$_label: the same var as fbset"
	else
		t_not_ok "$_label: the same var as fbset"
		t_diag "fbset: $_want"
		t_diag "set:   $_got"
		t_diag_stdin </tmp/set.out
		t_diag_stdin </tmp/fbset.out
	fi
	t_check "$_label: the same fbset -s" cmp /tmp/want.s /tmp/got.s
}

scenario() {
	t_check "modprobe vfb vfb_enable=1 videomemorysize=4194304" \
		modprobe vfb vfb_enable=1 videomemorysize=4194304
	t_check "fb0 appears under vfb.0" sysfs_wait /sys/devices/platform/vfb.0/graphics/fb0 10
	fb_mknod fb0
	orig_g=$(show | awk '$1 == "geometry" { print $2, $3, $4, $5, $6 }')
	orig_t=$(show | awk '$1 == "timings" { print $2, $3, $4, $5, $6, $7, $8 }')
	t_diag "vfb starts in: geometry $orig_g timings $orig_t"
	t_is "$(echo $orig_g | cut -d' ' -f5)" 8 "vfb starts at 8 bpp"

	same "8 -> 16 bpp" : "-g 640 480 640 480 16" "-g 640 480 640 480 16"
	# vfb's 16 bpp is BGR565: blue on top
	t_is "$(var_of fb0 | jq -r '"\(.bits_per_pixel) \(.blue.length)/\(.blue.offset)"')" "16 5/11" \
		"16 bpp: vfb made it BGR565"
	grep '^fb0: the driver changed blue 8/0 -> 5/11$' /tmp/set.out >/dev/null &&
		t_ok "16 bpp: set reports blue 8/0 -> 5/11" ||
		{ t_not_ok "16 bpp: set reports blue 8/0 -> 5/11"; t_diag_stdin </tmp/set.out; }
	same "16 -> 24 bpp" "fbset -fb /dev/fb0 -depth 16" "-g 640 480 640 480 24" \
		"-g 640 480 640 480 24"
	same "virtual height twice the visible" : "-g 800 600 800 1200 16" \
		"-g 800 600 800 1200 16"
	same "a smaller virtual size is raised" : "-g 640 480 320 240 8" "-g 640 480 320 240 8"
	grep -q 'the driver changed yres_virtual 240 -> 480' /tmp/set.out &&
		t_ok "set reports yres_virtual 240 -> 480" ||
		{ t_not_ok "set reports yres_virtual 240 -> 480"; t_diag_stdin </tmp/set.out; }
	same "timings" : "-t 25000 88 40 23 1 128 4" "-t 25000 88 40 23 1 128 4"
	same "--all" : "-a -g 640 480 640 480 16" "--all -g 640 480 640 480 16"
	same "--rgba" : "-depth 16 -rgba 5/10,5/5,5/0,1/15" \
		"-g 640 480 640 480 16 --rgba 5/10,5/5,5/0,1/15"
	same "--accel" : "-accel false" "--accel false"

	cat >/tmp/test.modes <<'EOF2'
# modes for the test
mode "800x600-72"
    # D: 50.00 MHz, H: 48.077 kHz, V: 72.188 Hz
    geometry 800 600 800 600 8
    timings 20000 64 56 23 37 120 6
    hsync high
    vsync high
endmode

mode "1024x768-60"
    geometry 1024 768 1024 768 32
    timings 15384 160 24 29 3 136 6
    accel false
endmode
EOF2
	same "--mode NAME from fb.modes" : "-db /tmp/test.modes 800x600-72" \
		"--db /tmp/test.modes --mode 800x600-72"
	same "--mode with -g on top" : "-db /tmp/test.modes 1024x768-60 -g 1024 768 1024 1024 16" \
		"--db /tmp/test.modes --mode 1024x768-60 -g 1024 768 1024 1024 16"
	same "--mode WxH-DEPTH@HZ" : "-db /tmp/test.modes 800x600-72 -depth 16" \
		"--db /tmp/test.modes --mode 800x600-16@72"

	# --test: the driver's answer, nothing applied
	restore
	_before=$(var_of fb0)
	t_is "$(fbclassctl set --test fb0 -g 800 600 800 300 16 >/tmp/set.out 2>&1; echo $?)" 0 \
		"--test exits 0"
	t_is "$(var_of fb0)" "$_before" "--test changes nothing"
	grep -q '^fb0: the driver would change yres_virtual 300 -> 600$' /tmp/set.out &&
		t_ok "--test says what the driver would change" ||
		{ t_not_ok "--test says what the driver would change"; t_diag_stdin </tmp/set.out; }

	# refused: the old mode stays, the field is named, exit 5; fbset refuses it too
	restore
	_before=$(var_of fb0)
	t_is "$(fbset -fb /dev/fb0 -g 1024 768 1024 1536 32 >/dev/null 2>&1; echo $?)" 1 \
		"fbset: 1024x1536 at 32 bpp does not fit in 4 MiB"
	restore
	t_is "$(fbclassctl set fb0 -g 1024 768 1024 1536 32 >/tmp/set.out 2>/tmp/set.err; echo $?)" 5 \
		"set: the refused mode exits 5"
	t_is "$(var_of fb0)" "$_before" "set: a refused mode leaves the old one"
	grep -q 'refuses the mode.*yres_virtual: 1024x1536 at 32 bpp needs 6291456 bytes' /tmp/set.err &&
		t_ok "set names yres_virtual and the memory" ||
		{ t_not_ok "set names yres_virtual and the memory"; t_diag_stdin </tmp/set.err; }
	t_is "$(fbclassctl set fb0 -g 640 480 640 480 64 >/dev/null 2>/tmp/set.err; echo $?)" 5 \
		"set: 64 bpp is refused (exit 5)"
	grep -q 'the depth (bits_per_pixel, rgba)' /tmp/set.err &&
		t_ok "set names the depth" || { t_not_ok "set names the depth"; t_diag_stdin </tmp/set.err; }
	t_is "$(var_of fb0)" "$_before" "set: 64 bpp leaves the old mode"

	# pan inside and outside the virtual area
	t_check "set fb0 -g 640 480 640 960 8" fbclassctl set fb0 -g 640 480 640 960 8
	t_check "set fb0 --pan 0,480" fbclassctl set fb0 --pan 0,480
	t_is "$(var_of fb0 | jq -r '"\(.xoffset),\(.yoffset)"')" "0,480" "pan: yoffset 480"
	t_is "$(fbclassctl set fb0 --pan 0,481 2>/tmp/set.err; echo $?)" 2 "pan outside: exit 2"
	grep -q 'outside the virtual area 640x960' /tmp/set.err && t_ok "pan outside: said" ||
		{ t_not_ok "pan outside: said"; t_diag_stdin </tmp/set.err; }
	t_is "$(var_of fb0 | jq -r '.yoffset')" 480 "pan outside: nothing moved"

	# malformed fb.modes and unknown names: exit 2, nothing set
	restore
	_before=$(var_of fb0)
	printf 'mode "x"\n  geometry 800 600 800 600 16\n  timings 1 2 3\nendmode\n' >/tmp/bad.modes
	t_is "$(fbclassctl set fb0 --db /tmp/bad.modes --mode x 2>/tmp/set.err; echo $?)" 2 \
		"malformed fb.modes: exit 2"
	t_is "$(cat /tmp/set.err)" \
		"fbclassctl: /tmp/bad.modes:4: timings takes 7 numbers, found 'endmode' as number 4" \
		"malformed fb.modes: FILE:LINE: reason"
	t_is "$(fbclassctl set fb0 --db /tmp/test.modes --mode nosuch 2>&1; echo $?)" \
		"fbclassctl: unknown mode 'nosuch': not in /tmp/test.modes, and not WxH[-DEPTH][@HZ]
2" "unknown mode: said, exit 2"
	t_is "$(var_of fb0)" "$_before" "bad fb.modes and unknown modes set nothing"

	# DRM's fbdev emulation: refused, with the video= argument
	t_check "modprobe bochs" modprobe bochs
	t_check "fb1 appears (bochs-drm)" sysfs_wait /sys/class/graphics/fb1 10
	fb_mknod fb1
	_before=$(var_of fb1)
	t_is "$(fbclassctl set fb1 -g 1280 800 1280 800 32 >/dev/null 2>/tmp/set.err; echo $?)" 5 \
		"bochs-drm: set exits 5"
	grep -qE '^  video=Virtual-1:1280x800@[0-9]+$' /tmp/set.err &&
		t_ok "bochs-drm: video=Virtual-1:1280x800@HZ" ||
		{ t_not_ok "bochs-drm: video=Virtual-1:1280x800@HZ"; t_diag_stdin </tmp/set.err; }
	t_is "$(fbclassctl set fb1 -g 1234 567 1234 567 32 >/dev/null 2>/tmp/set.err; echo $?)" 5 \
		"bochs-drm: a size the connector lacks: exit 5"
	grep -q 'no connected connector of card0 offers 1234x567' /tmp/set.err &&
		! grep -q '^  video=' /tmp/set.err && t_ok "bochs-drm: no video= for a size not offered" ||
		{ t_not_ok "bochs-drm: no video= for a size not offered"; t_diag_stdin </tmp/set.err; }
	t_is "$(var_of fb1)" "$_before" "bochs-drm: nothing set"

	# a rule's fbmode= and console= on vfb, applied by coldplug: tty2 is
	# put on bochs's fb1 first, so that console=2 has to move it
	restore
	con2fbmap 2 1
	t_is "$(oracle 2)" 1 "rule: tty2 starts on fb1 (con2fbmap)"
	_before=$(var_of fb1)
	printf 'name=fb0 fbmode=800x600-16 console=2\nname=fb1 fbmode=1024x768-32\n' >/tmp/setup.conf
	t_is "$(fbclassctl coldplug --config /tmp/setup.conf 2>/tmp/cold.err; echo $?)" 0 \
		"rule: coldplug exits 0"
	t_is "$(grep -v '^fbclassctl: fb1: ' /tmp/cold.err | grep -c 'not set\|cannot\|did not')" 0 \
		"rule: coldplug logs no failure for fb0"
	grep -q "^fbclassctl: fb1: fbmode= not set: DRM's fbdev emulation takes its mode from the kernel's video= argument" \
		/tmp/cold.err && t_ok "rule: fbmode= on bochs-drm's fb1: refused, video= named" ||
		t_not_ok "rule: fbmode= on bochs-drm's fb1: refused, video= named"
	t_is "$(var_of fb1)" "$_before" "rule: fb1 (bochs-drm) unchanged"
	t_diag_stdin </tmp/cold.err
	grep -q '^fbclassctl: fb0: fbmode: set 800x600, 16 bpp$' /tmp/cold.err &&
		t_ok "rule: coldplug says fb0's mode" || t_not_ok "rule: coldplug says fb0's mode"
	t_is "$(show | awk '$1 == "geometry" { print $2, $3, $6 }')" "800 600 16" \
		"rule: fbmode=800x600-16 set (fbset -s)"
	t_is "$(oracle 2)" 0 "rule: console=2 moved tty2 to fb0 (con2fbmap)"
	restore
	vanish
}

# A device that vanishes halfway: set runs over and over while vfb.0 is
# unbound and bound again four times, 200 ms each way (a set takes tens
# of ms here, so several fall in each gap).  Each set exits 0, 1 or 4 and
# never dies; each failure names fb0 and its cause; some saw it gone; and
# once vfb is back (fb0 again, bochs holds fb1), set works.
vanish() {
	: >/tmp/vanish.on
	(
		_i=0
		while [ -e /tmp/vanish.on ]; do
			_d=$((8 + 8 * (_i % 2)))
			fbclassctl set fb0 -g 640 480 640 480 $_d >/dev/null 2>/tmp/vanish.err.$_i
			echo "$?" >>/tmp/vanish.rc
			_i=$((_i + 1))
		done
	) &
	_loop=$!
	for _k in 1 2 3 4; do
		sleep 0.2
		echo vfb.0 >/sys/bus/platform/drivers/vfb/unbind
		sleep 0.2
		echo vfb.0 >/sys/bus/platform/drivers/vfb/bind
	done
	sleep 0.2
	rm -f /tmp/vanish.on
	wait "$_loop"
	t_diag "vanish: $(wc -l </tmp/vanish.rc) sets, exits: $(sort /tmp/vanish.rc | uniq -c | tr -s ' \n' ' ')"
	t_is "$(grep -cvx '[014]' /tmp/vanish.rc)" 0 "vanish: every set exits 0, 1 or 4 (none dies)"
	t_check "vanish: some sets saw fb0 gone" grep -qvx 0 /tmp/vanish.rc
	cat /tmp/vanish.err.* >/tmp/vanish.err
	t_diag_stdin </tmp/vanish.err
	t_is "$(grep -cv '^fbclassctl: fb0: \|fb0' /tmp/vanish.err)" 0 "vanish: each failure names fb0"
	t_check "vanish: vfb is fb0 again" sysfs_wait /sys/devices/platform/vfb.0/graphics/fb0 10
	t_check "vanish: set works once it is back" fbclassctl set fb0 -g 640 480 640 480 16
	halfway
	t_kernel_clean "vanish: no oops, BUG or WARNING"
}

# Halfway for certain: unbind-at-put.so (tests/vm/guest/unbind-at-put.c)
# unbinds vfb.0 after set found fb0 and opened its node, just before its
# FBIOPUT_VSCREENINFO; the ioctl meets a device that is gone.
halfway() {
	UNBIND_AT_PUT=/sys/bus/platform/drivers/vfb/unbind:vfb.0 \
		LD_PRELOAD=/usr/bin/unbind-at-put.so \
		fbclassctl set fb0 -g 640 480 640 480 8 >/dev/null 2>/tmp/half.err
	t_is "$?" 1 "halfway: set of a device removed before its ioctl exits 1"
	t_diag_stdin </tmp/half.err
	t_check "halfway: vfb.0 was unbound before the ioctl" \
		grep -qx 'unbind-at-put: vfb.0 unbound: ok' /tmp/half.err
	t_check "halfway: set names fb0, the ioctl and the cause" grep -qx \
		'fbclassctl: fb0: FBIOPUT_VSCREENINFO failed: No such device (device removed?)' \
		/tmp/half.err
	t_is "$(grep -cv '^unbind-at-put: \|^fbclassctl: fb0: ' /tmp/half.err)" 0 \
		"halfway: nothing else said, nothing unnamed"
	echo vfb.0 >/sys/bus/platform/drivers/vfb/bind
	t_check "halfway: vfb is fb0 again" sysfs_wait /sys/devices/platform/vfb.0/graphics/fb0 10
	t_check "halfway: set works once it is back" fbclassctl set fb0 -g 640 480 640 480 16
}
