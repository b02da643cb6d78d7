# console: fbcon's map of consoles to framebuffers, held to con2fbmap
# (Debian's fbset package, the oracle), on bochs (fb0) and vfb (fb1).
# console and console -J say what con2fbmap says for each console, and
# which is in front; console map 1 fb1 moves tty1 to vfb, con2fbmap
# agrees, and tty1, the console in front, is drawn there at once (vfb's
# memory, all zero before, holds text); con2fbmap alone is measured the
# same way and said (6.1 and 6.12 redraw it on the map themselves).  Back to fb0; a console outside 1-63, a framebuffer
# that is not there and a word that is not a console each exit as
# documented.  cursor-blink and rotate (one console, and --all) are read
# back from fbcon's attributes; blank fb0 turns bochs's CRTC off and on
# again, as KMS tells, and vfb, which cannot blank, is an error.
# One boot: fbcon's map is the same question on both kernels.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
KCMDLINE=""
MODULES="bochs vfb"
GUEST_TOOLS="con2fbmap"

# lit FB: how many bytes of FB's memory are not zero
lit() {
	head -c "$(($(cat "/sys/class/graphics/$1/stride") * 480))" "/dev/$1" | tr -d '\000' | wc -c
}

# oracle N: the fb con2fbmap says console N is drawn on
oracle() {
	con2fbmap "$1" | sed -n 's/^console [0-9]* is mapped to framebuffer \([0-9]*\)$/\1/p'
}

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	fb_mknod fb0
	t_check "modprobe vfb" modprobe vfb vfb_enable=1 videomemorysize=2097152 mode_option=640x480-8
	t_check "fb1 appears" sysfs_wait /sys/class/graphics/fb1 10
	fb_mknod fb1
	echo 0 >/sys/class/graphics/fbcon/cursor_blink

	fbclassctl console >/tmp/show.out 2>&1
	t_is "$?" 0 "console exits 0"
	t_diag_stdin </tmp/show.out
	t_is "$(cat /tmp/show.out)" "fb0    tty1-tty63 (tty1 in front)
fb1    no console" "console: fb0 draws tty1-63, tty1 in front; fb1 none"
	fbclassctl console -J >/tmp/show.json 2>&1
	t_is "$?" 0 "console -J exits 0"
	t_is "$(jq '.consoles | length' /tmp/show.json)" 63 "console -J: 63 consoles"
	for n in 1 2 63; do
		t_is "$(jq ".consoles[$((n - 1))] | \"\(.console) \(.fb)\"" -r /tmp/show.json)" \
			"$n $(oracle "$n")" "console -J: tty$n on the fb con2fbmap names"
	done
	t_is "$(jq -r '[.consoles[] | select(.front) | .console] | tostring' /tmp/show.json)" \
		'[1]' "console -J: tty1 alone in front"

	# con2fbmap alone, for the record: is tty1 drawn on fb1 at once?
	t_is "$(lit fb1)" 0 "vfb's memory is all zero before"
	con2fbmap 1 1
	sleep 1
	t_diag "con2fbmap 1 1: $(lit fb1) bytes of fb1 lit, con2fbmap says $(oracle 1)"
	con2fbmap 1 0
	dd if=/dev/zero of=/dev/fb1 bs=4096 count=75 2>/dev/null
	t_is "$(lit fb1)" 0 "vfb's memory is all zero again"

	fbclassctl console map 1 fb1 >/tmp/map.out 2>&1
	t_is "$?" 0 "console map 1 fb1 exits 0"
	t_is "$(cat /tmp/map.out)" "tty1: on fb1, repainted (in front)" "console map: says it moved and repainted"
	t_is "$(oracle 1)" 1 "con2fbmap: console 1 is on fb1"
	t_is "$(oracle 2)" 0 "con2fbmap: console 2 stayed on fb0"
	t_check "tty1 is drawn on fb1 at once ($(lit fb1) bytes lit)" test "$(lit fb1)" -gt 1000
	t_diag "console map 1 fb1: $(lit fb1) bytes of fb1 lit"
	t_is "$(fbclassctl console | tail -n 1)" "fb1    tty1 (tty1 in front)" "console: fb1 draws tty1, in front"

	fbclassctl console map tty1 0 >/tmp/back.out 2>&1
	t_is "$?" 0 "console map tty1 0 exits 0"
	t_is "$(oracle 1)" 0 "con2fbmap: console 1 is back on fb0"

	fbclassctl console map 64 fb0 >/dev/null 2>/tmp/range.err
	t_is "$?" 2 "console map 64: exit 2"
	t_check "console map 64: names the range" grep -q '"64": not a console from 1 to 63' /tmp/range.err
	fbclassctl console map 1 fb7 >/dev/null 2>/tmp/nofb.err
	t_is "$?" 4 "console map 1 fb7: exit 4"
	t_check "console map 1 fb7: names fb7" grep -q 'fb7' /tmp/nofb.err
	fbclassctl console map x fb0 >/dev/null 2>/tmp/word.err
	t_is "$?" 2 "console map x: exit 2"
	t_is "$(oracle 1)" 0 "after the refusals console 1 is still on fb0"

	# cursor-blink and rotate: fbcon's attributes, set and read back
	t_is "$(fbclassctl console cursor-blink on)" "cursor-blink: on" "console cursor-blink on"
	t_is "$(cat /sys/class/graphics/fbcon/cursor_blink)" 1 "fbcon's cursor_blink is 1"
	t_is "$(fbclassctl console cursor-blink off)" "cursor-blink: off" "console cursor-blink off"
	t_is "$(cat /sys/class/graphics/fbcon/cursor_blink)" 0 "fbcon's cursor_blink is 0"
	t_is "$(fbclassctl console rotate 90)" "rotate: 90 (the console in front)" "console rotate 90"
	t_is "$(cat /sys/class/graphics/fbcon/rotate)" 1 "fbcon's rotate is 1 (90 degrees)"
	t_is "$(fbclassctl console rotate --all 180)" "rotate: 180 (every console)" \
		"console rotate --all 180"
	t_is "$(cat /sys/class/graphics/fbcon/rotate)" 2 "fbcon's rotate is 2 (180 degrees)"
	t_is "$(fbclassctl console rotate --all 0)" "rotate: 0 (every console)" "console rotate --all 0"
	t_is "$(fbclassctl console rotate)" "rotate: 0 (the console in front)" "console rotate: 0 again"

	# blank: FBIOBLANK; DRM's emulation turns the CRTC off (what KMS
	# says, through list --connectors), vfb cannot blank
	_mode() { fbclassctl list --connectors -J | jq -r '.connectors[0].mode'; }
	_before=$(_mode)
	t_check "bochs's CRTC shows a mode ($_before)" test "$_before" != null
	t_is "$(fbclassctl console blank fb0 powerdown)" "fb0: blanked" "console blank fb0 powerdown"
	t_is "$(_mode)" null "blanked: KMS says the CRTC shows nothing"
	t_is "$(fbclassctl console blank fb0 unblank)" "fb0: unblanked" "console blank fb0 unblank"
	t_is "$(_mode)" "$_before" "unblanked: the CRTC shows $_before again"
	fbclassctl console blank fb1 powerdown >/dev/null 2>/tmp/blank.err
	t_is "$?" 1 "console blank fb1 (vfb): exit 1"
	t_check "console blank fb1: the driver does not blank" grep -q 'fb1: the driver does not blank' /tmp/blank.err
	t_kernel_clean "no oops, BUG or WARNING"
}
