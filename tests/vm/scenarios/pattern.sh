# pattern on bochs (XRGB8888, 1280x800), against qemu's screendump, the
# independent oracle of what the emulated display shows: solid:red is pure
# red on the screen; bars, ramp, grid and text each equal snap fb0 taken
# while they show; after --seconds, SIGTERM, SIGINT and SIGHUP, the screen
# equals what it showed before (fbcon unbound, fbtool's pattern on it,
# which fbtool says the screen must show); with fbcon bound, the console
# comes back.  vfb at 8 bpp (pseudocolor: the pattern's own colour map),
# 16 (BGR565) and 24: bars as snap reads them equal the documented bars,
# and afterwards the memory and the colour map are fbtool's again.  Last,
# the device unbound while a pattern shows: exit 1, the object and the
# cause.
# Pan, shown by the oracle: bochs's fbdev buffer is allocated twice the
# screen's height (drm_fbdev_overalloc=200, the same parameter on 6.1 and
# 6.12); fbtool fills the top page with 0xa5 and draws its pattern in the
# second, and set --pan moves between them.  bochs takes the pan and reads
# it back, but the screendump stays on the top page: its plane update sets
# the CRTC's position and ignores the source offset the pan changes (seen
# on 6.1.192 and 6.12.118); a driver that pans for real fails that check.
# info --probe on both: what bochs and vfb can do, measured; bench's flip.
# One boot: what is drawn does not differ between kernels.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
QEMU_SCREENDUMP=1
KCMDLINE="drm_kms_helper.drm_fbdev_overalloc=200"
MODULES="bochs vfb"
GUEST_HELPERS="fbtool"
# 15 screendumps of 3 s each, 14 snaps and 3 loads of vfb on top of the boot
BOOT_TIMEOUT=300

# shows PID FILE: the pattern of PID is on the screen (its line is out)
shows() {
	wait_for 300 grep -q ': shown until\|: kept' "$2" || {
		t_diag "pattern did not say it shows: $(cat "$2")"
		return 1
	}
}

# round NAME SIGNAL: pattern NAME until SIGNAL (or --seconds when SIGNAL is
# "time"); the snap taken while it shows is sent as NAME.png, the
# screendumps are NAME.ppm and NAME-after.ppm (host_check compares)
round() {
	if [ "$2" = time ]; then
		fbclassctl pattern fb0 "$1" --seconds 12 </dev/null >"/tmp/$1.out" 2>&1 &
	else
		fbclassctl pattern fb0 "$1" </dev/null >"/tmp/$1.out" 2>&1 &
	fi
	_pid=$!
	shows "$_pid" "/tmp/$1.out"
	t_check "$1: snap fb0 while it shows" fbclassctl snap fb0 "/tmp/$1.png"
	screendump "$(echo "$1" | tr -c 'a-z0-9\n' '-')"
	case $2 in
	time) _want=0 ;;
	TERM) _want=143 ;;
	INT) _want=130 ;;
	HUP) _want=129 ;;
	esac
	[ "$2" = time ] || kill -s "$2" "$_pid"
	wait "$_pid"
	_rc=$?
	t_is "$_rc" "$_want" "$1: pattern ends with exit $_want (${2})"
	[ "$_rc" = "$_want" ] || t_diag_stdin <"/tmp/$1.out"
	screendump "$(echo "$1" | tr -c 'a-z0-9\n' '-')-after"
	out_file "/tmp/$1.png" "$(echo "$1" | tr -c 'a-z0-9\n' '-').png"
}

# vfb_round DEPTH: bars on vfb (fb1) at DEPTH; vfb has no screen, so
# snap (through the colour map at 8 bpp) is the view, held on the host to
# the bars as documented
vfb_round() {
	t_check "vfb$1: modprobe vfb at $1 bpp" modprobe vfb vfb_enable=1 \
		videomemorysize=4194304 "mode_option=640x480-$1"
	t_check "vfb$1: fb1 appears" sysfs_wait /sys/class/graphics/fb1 10
	fb_mknod fb1
	t_diag "vfb$1: $(fbclassctl list -n -o NAME,RES,BPP,FORMAT,VISUAL fb1 2>&1)"
	[ "$1" = 8 ] && vfb_caps
	t_check "vfb$1: fbtool writes its pattern" fbtool pattern /dev/fb1 "/tmp/vfb$1-before.rgb"
	fbtool format /dev/fb1 "/tmp/vfb$1-before.fmt"
	# 4 s: the snap of vfb's 640x480 takes well under one under TCG
	fbclassctl pattern fb1 bars --seconds 4 </dev/null >"/tmp/vfb$1.out" 2>&1 &
	_pid=$!
	shows "$_pid" "/tmp/vfb$1.out"
	t_check "vfb$1: snap fb1 while it shows" fbclassctl snap fb1 "/tmp/vfb$1-bars.png"
	wait "$_pid"
	t_is "$?" 0 "vfb$1: pattern bars --seconds 4 exits 0"
	fbtool format /dev/fb1 "/tmp/vfb$1-after.fmt"
	t_check "vfb$1: the format and colour map are as before" \
		cmp "/tmp/vfb$1-before.fmt" "/tmp/vfb$1-after.fmt"
	t_check "vfb$1: snap fb1 after" fbclassctl snap fb1 "/tmp/vfb$1-after.png"
	out_file "/tmp/vfb$1-bars.png" "vfb$1-bars.png"
	out_file "/tmp/vfb$1-after.png" "vfb$1-after.png"
	out_file_gz "/tmp/vfb$1-before.rgb" "vfb$1-before.rgb"
	t_check "vfb$1: rmmod vfb" rmmod vfb
	sysfs_gone /sys/class/graphics/fb1 10
}

# cap FB NAME: info --probe's answer for capability NAME of FB (-J)
cap() { jq -r ".framebuffers[0].capabilities.$2.answer" "/tmp/caps-$1.json"; }
# flip FB WHO WANT WHAT: bench's flip on FB exits 0, and its JSON's
# "virtual_resized verified page_y" is WANT; WHO and WHAT name the checks
flip() {
	fbclassctl bench -J --quick -S pan "$1" >"/tmp/flip-$1.json" 2>"/tmp/flip-$1.err"
	t_is "$?" 0 "$2: bench --quick -S pan exits 0"
	jq -c '.framebuffers[0].flip' "/tmp/flip-$1.json" | t_diag_stdin
	t_is "$(jq -r '.framebuffers[0].flip | "\(.virtual_resized) \(.verified) \(.page_y)"' "/tmp/flip-$1.json")" \
		"$3" "$2: $4"
}

# probe FB: info -J --probe FB into /tmp/caps-FB.json, in a few seconds
probe() {
	_t0=$(date +%s)
	t_check "$1: info -J --probe exits 0" sh -c "fbclassctl info -J --probe $1 >/tmp/caps-$1.json"
	t_check "$1: info --probe returns within 10 s" test $(($(date +%s) - _t0)) -le 10
	jq -c '.framebuffers[0].capabilities' "/tmp/caps-$1.json" | t_diag_stdin
}

# vfb: no FBIO_WAITFORVSYNC (ENOTTY), pans by 1 with room for 2 pages in
# 4 MiB, no blank operation; bench's flip makes the room and flips
vfb_caps() {
	probe fb1
	t_is "$(cap fb1 vsync)" no "vfb: vsync no"
	t_check "vfb: vsync no because of ENOTTY" \
		jq -e '.framebuffers[0].capabilities.vsync.reason | test("Inappropriate ioctl")' /tmp/caps-fb1.json
	t_is "$(cap fb1 pan)" yes "vfb: pan yes (twice the height under FB_ACTIVATE_TEST)"
	t_is "$(jq -r '.framebuffers[0].capabilities.pan.double_height' /tmp/caps-fb1.json)" true \
		"vfb: a virtual height of twice 480 accepted"
	t_is "$(cap fb1 pan_display)" untested "vfb: pan_display untested (no room)"
	t_is "$(cap fb1 blank)" no "vfb: blank no (no blank operation)"
	flip fb1 vfb "true true 480" "flip made room for page 2 at y=480, read back"
	t_is "$(fbclassctl list -n -r -o VIRT fb1)" "640x480" "vfb: the virtual size is back after bench"
}

# bochs with a buffer of twice its height: info --probe, bench's flip, and
# the pan as the screen shows it (fbcon unbound)
bochs_pan() {
	t_is "$(fbclassctl list -n -r -o VIRT fb0)" "1280x1600" "bochs: virtual 1280x1600 (overalloc 200)"
	probe fb0
	t_is "$(cap fb0 pan)" yes "bochs: pan yes"
	t_is "$(cap fb0 pan_display)" yes "bochs: pan_display yes (panned, read back, put back)"
	t_is "$(jq -r '.framebuffers[0].var.yoffset' /tmp/caps-fb0.json)" 0 "bochs: yoffset 0 before the probe"
	t_is "$(fbclassctl info -J fb0 | jq -r '.framebuffers[0].var.yoffset')" 0 "bochs: yoffset 0 after it"
	# no vblank interrupt in bochs: the wait returns at once (6.1 and 6.12)
	t_is "$(cap fb0 vsync)" no "bochs: vsync no (FBIO_WAITFORVSYNC returns at once)"
	flip fb0 bochs "false true 800" "flip between y=0 and y=800, read back"
	# the oracle: the top page all 0xa5, fbtool's pattern in the second
	t_check "pan: fbtool draws its pattern in the second page" fbtool pattern /dev/fb0 /tmp/page2.rgb 800
	t_check "pan: set fb0 --pan 0,0" fbclassctl set fb0 --pan 0,0
	screendump pan-top
	t_check "pan: set fb0 --pan 0,800" fbclassctl set fb0 --pan 0,800
	screendump pan-page2
	out_file_gz /tmp/page2.rgb page2.rgb
	t_check "pan: set fb0 --pan 0,0 again" fbclassctl set fb0 --pan 0,0
}

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	fb_mknod fb0
	echo 0 >/sys/class/graphics/fbcon/cursor_blink
	t_diag "$(fbclassctl list -n -o NAME,RES,BPP,FORMAT fb0 2>&1)"
	t_is "$(fbclassctl list -n -o FORMAT fb0 2>/dev/null)" XRGB8888 "bochs runs at XRGB8888"

	# the console's own case: it comes back (fbcon repaints on KD_TEXT)
	screendump console-before
	fbclassctl pattern fb0 checker --seconds 2 </dev/null >/tmp/console.out 2>&1
	t_is "$?" 0 "console: pattern checker --seconds 2 exits 0"
	screendump console-after

	# for an exact check, content of fbtool's: fbcon off.  (Random bytes
	# written through write(2) reached bochs' screen only in part: the
	# deferred I/O of 6.12 showed some of their pages only after the next
	# write through the mapping.)
	fbcon_unbind
	t_check "fbtool writes its pattern" fbtool pattern /dev/fb0 /tmp/before.rgb
	screendump before
	out_file_gz /tmp/before.rgb before.rgb

	round solid:red time
	round bars TERM
	round ramp INT
	round grid HUP
	round text time
	t_check "text: says what it shows" grep -q '^fb0: XRGB8888, 1280x800, stride 5120: shown until 12 s, a stop signal$' /tmp/text.out
	for depth in 8 16 24; do
		vfb_round "$depth"
	done
	bochs_pan
	t_kernel_clean "no oops, BUG or WARNING"

	# the device goes away while a pattern shows
	fbclassctl pattern fb0 grid </dev/null >/tmp/gone.out 2>&1 &
	_pid=$!
	shows "$_pid" /tmp/gone.out
	_pci=$(basename "$(readlink -f /sys/class/graphics/fb0/device)")
	t_diag "unbinding $_pci from bochs-drm"
	echo "$_pci" >/sys/bus/pci/drivers/bochs-drm/unbind
	wait "$_pid"
	_rc=$?
	t_is "$_rc" 1 "gone: pattern exits 1 when the device goes away"
	t_check "gone: the message names fb0 and the cause" grep -q \
		'^fbclassctl: fb0: the device went away while the pattern was shown (/sys/.*/fb0: No such device); nothing left to put back$' \
		/tmp/gone.out
	[ "$_rc" = 1 ] || t_diag_stdin </tmp/gone.out
}

# ppm_rgb FILE.ppm: as pngcmp's expected file, "W H\n" and the RGB bytes
ppm_rgb() {
	_wh=$(head -n 2 "$1" | tail -n 1)
	printf '%s\n' "$_wh"
	tail -c $((${_wh% *} * ${_wh#* } * 3)) "$1"
}

# dump_is FILE.ppm WANT.rgb WHAT: the screendump is WANT, said as WHAT
dump_is() {
	if ppm_rgb "$1" | cmp -s - "$2"; then
		echo "ok - $3"
	else
		echo "not ok - not so: $3 ($1)"
		return 1
	fi
}

host_check() {
	_rc=0
	_pngcmp=${top_builddir:-.}/tests/vm/host/pngcmp
	if [ "$(head -c 16 before.ppm | tr '\n' ' ')" = "P6 1280 800 255 " ]; then
		echo "ok - qemu shows 1280x800"
	else
		echo "not ok - qemu shows $(head -c 16 before.ppm | tr '\n' ' ')"
		_rc=1
	fi
	# the screen before: what fbtool says it shows
	gzip -dc before.rgb.gz >before.rgb
	dump_is before.ppm before.rgb "before: the screendump is fbtool's pattern" || _rc=1
	# solid:red: every pixel of the screen is ff 00 00
	perl -e 'print "1280 800\n", "\xff\x00\x00" x (1280 * 800)' >red.rgb
	dump_is solid-red.ppm red.rgb "solid:red: the screendump is pure red" || _rc=1
	for p in solid-red bars ramp grid text; do
		ppm_rgb "$p.ppm" >"$p.rgb"
		if "$_pngcmp" "$p.png" "$p.rgb"; then
			echo "ok - $p: snap fb0 equals the screendump"
		else
			echo "not ok - $p: snap fb0 differs from the screendump ($p.png, $p.ppm)"
			_rc=1
		fi
		if cmp -s before.ppm "$p-after.ppm"; then
			echo "ok - $p: after it the screen is as before"
		else
			echo "not ok - $p: the screen differs from before ($p-after.ppm, before.ppm)"
			_rc=1
		fi
	done
	# the bars as documented: bar i over [i*W/8, (i+1)*W/8)
	perl -e '@c = ("\xff\xff\xff", "\xff\xff\x00", "\x00\xff\xff", "\x00\xff\x00",
		"\xff\x00\xff", "\xff\x00\x00", "\x00\x00\xff", "\x00\x00\x00");
		print "640 480\n", join("", map { $c[int($_ * 8 / 640)] } 0 .. 639) x 480' >bars640.rgb
	for d in 8 16 24; do
		gzip -dc "vfb$d-before.rgb.gz" >"vfb$d-before.rgb"
		if "$_pngcmp" "vfb$d-bars.png" bars640.rgb; then
			echo "ok - vfb$d: snap shows the bars as documented"
		else
			echo "not ok - vfb$d: snap does not show the bars as documented"
			_rc=1
		fi
		if "$_pngcmp" "vfb$d-after.png" "vfb$d-before.rgb"; then
			echo "ok - vfb$d: after it, fbtool's pattern is back"
		else
			echo "not ok - vfb$d: after it, the memory is not fbtool's pattern"
			_rc=1
		fi
	done
	# pan: the screen shows the page panned to
	perl -e 'print "1280 800\n", "\xa5" x (1280 * 800 * 3)' >a5.rgb
	dump_is pan-top.ppm a5.rgb "pan: at 0,0 the screendump is the top page (all 0xa5)" || _rc=1
	gzip -dc page2.rgb.gz >page2.rgb
	# bochs does not show the pan (above): still the top page, not fbtool's
	dump_is pan-page2.ppm a5.rgb "pan: at 0,800 bochs still shows the top page (the pan is not shown)" || _rc=1
	if ppm_rgb pan-page2.ppm | cmp -s - page2.rgb; then
		echo "not ok - pan: bochs shows the second page now: it pans for real (update pattern.sh and fbclassctl(8))"
		_rc=1
	fi
	if cmp -s console-before.ppm console-after.ppm; then
		echo "ok - console: it comes back as it was"
	else
		echo "not ok - console: differs after the pattern (console-before.ppm, console-after.ppm)"
		_rc=1
	fi
	return "$_rc"
}
