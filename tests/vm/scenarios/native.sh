# Native fbdev drivers, in one boot per kernel: cirrusfb (-vga cirrus,
# cirrus-drm not loaded) and aty128fb (a second card, qemu's ati-vga, a
# Rage 128 Pro).  Both bind; list, info and info --fbset work, and
# info --fbset equals fbset -s.  set against fbset (the oracle) on
# cirrusfb: depths 8 -> 16 -> 24 give the var fbset gives, set reports
# the fields the driver rounded (RGB565 at 16), and a mode larger than
# its 4 MiB is refused with the old mode kept; on aty128fb 16 bpp is
# XRGB1555, as fbset and set both see, and pattern solid:red is pure red
# in qemu's screendump of ati-vga (the oracle of what the card shows) at
# 16 and 8 bpp.  console map against con2fbmap (Debian's fbset package)
# with cirrusfb and vfb.  On cirrusfb, fbcon unbound, at 8, 16 and 24
# bpp: pattern solid:red is pure red in qemu's screendump, and pattern
# bars equals snap fb0; the pan as the screen shows it (a page drawn red
# at 0,0 and one blue at 0,480, each in qemu's screendump only when
# panned to).  bench -d 1 on both cards: validated, memory as
# before, auto within 0.9x of the best strategy of each op.
# shellcheck shell=sh disable=SC2034,SC2086
QEMU_VGA=cirrus
# ati-vga behind a PCI bridge: qemu gives both cards the legacy VGA
# ports, and with ati-vga on the root bus a read(2) of cirrusfb's node
# (likely its fb_sync, which polls the blitter through them) never
# returns and stops the guest; the bridge does not forward them, and aty128fb needs only MMIO
QEMU_ARGS="-device pci-bridge,id=br1,chassis_nr=1 -device ati-vga,id=ati,bus=br1,addr=1"
QEMU_SCREENDUMP=1
KCMDLINE=""
MODULES="cirrusfb aty128fb vfb"
GUEST_TOOLS="con2fbmap"
# what the drivers do differs between the kernels' fbdev cores
KERNELS=all
# 34 to 47 s a boot here; bench's second looks and a busy CI host can
# pass the default 120 s
BOOT_TIMEOUT=240

# auto_check: /vm/bench-lib.sh
# shellcheck disable=SC1091
[ ! -r /vm/bench-lib.sh ] || . /vm/bench-lib.sh # not on the host, which reads the variables

# bench_timed NAME FB: bench -d 1 -J validates and leaves FB as it was;
# auto within 0.9x of the best strategy of each op (issue 28).  --quick
# measures nothing that auto_check could compare.
bench_timed() {
	_before=$(fb_md5 "$2")
	_t0=$(cut -d' ' -f1 /proc/uptime)
	fbclassctl bench -d 1 -J "$2" >/tmp/bench.json 2>/tmp/bench.err
	t_is "$?" 0 "$1: bench -d 1 -J exits 0"
	t_diag "$1: bench -d 1 took $(awk -v a="$_t0" '{ printf "%.1f", $1 - a }' /proc/uptime) s"
	t_is "$(jq -r '.framebuffers[0].validation.passed' /tmp/bench.json)" true \
		"$1: bench validation passed"
	t_is "$(fb_md5 "$2")" "$_before" "$1: /dev/$2 identical after bench"
	t_check "$1: bench measured auto" \
		jq -e '[.framebuffers[0].results[] | select(.strategy == "auto")] | length > 0' /tmp/bench.json
	auto_check "$1" "$2"
}

var_of() { fbclassctl info -J "$1" 2>/dev/null | jq -c '.framebuffers[0].var'; }
show() { fbset -fb "/dev/$1" -s; }

# oracle N: the fb con2fbmap says console N is drawn on
oracle() {
	con2fbmap "$1" | sed -n 's/^console [0-9]* is mapped to framebuffer \([0-9]*\)$/\1/p'
}

# bound FB DRIVER MODULE: FB is there, bound to DRIVER; list, info and
# info --fbset work; info --fbset equals fbset -s
bound() {
	t_check "$1 appears" sysfs_wait "/sys/class/graphics/$1" 10
	fb_mknod "$1"
	t_is "$(basename "$(readlink "/sys/class/graphics/$1/device/driver")")" "$2" \
		"$1: bound to $2"
	t_is "$(fbclassctl list -n -o DRIVER "$1" 2>&1)" "$2" "$2: list names the driver"
	t_check "$2: info $1" fbclassctl info "$1"
	fbclassctl info --fbset "$1" >/tmp/info.fbset 2>&1
	t_is "$?" 0 "$2: info --fbset exits 0"
	show "$1" >/tmp/fbset.s 2>&1
	t_check "$2: info --fbset equals fbset -s" cmp /tmp/info.fbset /tmp/fbset.s
}

# restore: cirrusfb's mode at load time, by fbset
restore() { fbset -fb /dev/fb0 -g $orig_g -t $orig_t >/dev/null 2>&1; }

# same FB LABEL PREP "ARGS": from the mode PREP leaves (after restore),
# fbset ARGS and fbclassctl set ARGS give the same var and fbset -s
same() {
	restore && eval "$3"
	fbset -fb "/dev/$1" $4 >/tmp/fbset.out 2>&1
	_rc_fbset=$?
	_want=$(var_of "$1")
	show "$1" >/tmp/want.s
	restore && eval "$3"
	fbclassctl set "$1" $4 >/tmp/set.out 2>&1
	_rc_set=$?
	_got=$(var_of "$1")
	show "$1" >/tmp/got.s
	t_is "$_rc_set $_rc_fbset" "0 0" "$2: set and fbset exit 0"
	if [ -n "$_want" ] && [ "$_got" = "$_want" ]; then
		t_ok "$2: the same var as fbset"
	else
		t_not_ok "$2: the same var as fbset"
		t_diag "fbset: $_want"
		t_diag "set:   $_got"
		t_diag_stdin </tmp/set.out
	fi
	t_check "$2: the same fbset -s" cmp /tmp/want.s /tmp/got.s
}

# said FILE LINE DESC: FILE has LINE
said() {
	if grep -qxF "$2" "$1"; then
		t_ok "$3"
	else
		t_not_ok "$3"
		t_diag_stdin <"$1"
	fi
}

cirrus_set() {
	orig_g=$(show fb0 | awk '$1 == "geometry" { print $2, $3, $4, $5, $6 }')
	orig_t=$(show fb0 | awk '$1 == "timings" { print $2, $3, $4, $5, $6, $7, $8 }')
	t_diag "cirrusfb starts in: geometry $orig_g timings $orig_t"
	t_is "$(echo $orig_g | cut -d' ' -f5)" 8 "cirrusfb starts at 8 bpp"
	same fb0 "cirrusfb 8 -> 16 bpp" : "-g 640 480 640 480 16"
	t_is "$(fbclassctl list -n -o FORMAT fb0 2>&1)" RGB565 "cirrusfb 16 bpp: RGB565"
	said /tmp/set.out "fb0: the driver changed red 8/0 -> 5/11" \
		"cirrusfb 16 bpp: set reports red 8/0 -> 5/11"
	said /tmp/set.out "fb0: the driver changed green 8/0 -> 6/5" \
		"cirrusfb 16 bpp: set reports green 8/0 -> 6/5"
	same fb0 "cirrusfb 16 -> 24 bpp" "fbset -fb /dev/fb0 -depth 16" "-g 640 480 640 480 24"
	t_is "$(fbclassctl list -n -o FORMAT fb0 2>&1)" RGB888 "cirrusfb 24 bpp: RGB888"
	same fb0 "cirrusfb 24 -> 8 bpp" "fbset -fb /dev/fb0 -depth 24" "-g 640 480 640 480 8"
	# refused: 1024x2048 at 24 bpp needs 6291456 bytes of the 4 MiB
	restore
	_before=$(var_of fb0)
	fbset -fb /dev/fb0 -g 1024 768 1024 2048 24 >/dev/null 2>&1
	t_is "$?" 1 "cirrusfb: fbset refuses a virtual 1024x2048 at 24 bpp"
	restore
	fbclassctl set fb0 -g 1024 768 1024 2048 24 >/dev/null 2>/tmp/set.err
	t_is "$?" 5 "cirrusfb: set refuses a virtual 1024x2048 at 24 bpp, exit 5"
	t_diag_stdin </tmp/set.err
	t_check "cirrusfb: the refusal names fb0 and the mode" grep -q '^fbclassctl: fb0: .*refuses the mode' /tmp/set.err
	t_is "$(var_of fb0)" "$_before" "cirrusfb: a refused mode leaves the old one"
	restore
}

aty_set() {
	fbset -fb /dev/fb1 -depth 16 >/tmp/fbset.out 2>&1
	t_is "$?" 0 "aty128fb: fbset -depth 16 exits 0"
	_want=$(var_of fb1)
	show fb1 >/tmp/want.s
	fbset -fb /dev/fb1 -depth 8 >/dev/null 2>&1
	t_is "$(fbclassctl list -n -o FORMAT fb1 2>&1)" C8 "aty128fb: back at 8 bpp (C8)"
	fbclassctl set fb1 -g 640 480 640 480 16 >/tmp/set.out 2>&1
	t_is "$?" 0 "aty128fb: set -g 640 480 640 480 16 exits 0"
	t_is "$(var_of fb1)" "$_want" "aty128fb 16 bpp: the same var as fbset"
	show fb1 >/tmp/got.s
	t_check "aty128fb 16 bpp: the same fbset -s" cmp /tmp/want.s /tmp/got.s
	t_is "$(var_of fb1 | jq -r '[.red, .green, .blue] | map("\(.length)/\(.offset)") | join(",")')" \
		"5/10,5/5,5/0" "aty128fb 16 bpp: fbset's var is XRGB1555"
	t_is "$(fbclassctl list -n -o FORMAT fb1 2>&1)" XRGB1555 "aty128fb 16 bpp: list says XRGB1555"
	said /tmp/set.out "fb1: the driver changed green 8/0 -> 5/5" \
		"aty128fb 16 bpp: set reports green 8/0 -> 5/5"
	bound fb1 aty128fb
}

# aty_red DEPTH: pattern solid:red on aty128fb at DEPTH, kept, and qemu's
# screendump of ati-vga as aty-redDEPTH.ppm (host_check)
aty_red() {
	fbclassctl pattern fb1 solid:red --keep >/tmp/pattern.out 2>&1
	t_is "$?" 0 "aty128fb $1 bpp: pattern fb1 solid:red --keep exits 0"
	t_diag_stdin </tmp/pattern.out
	screendump "aty-red$1" ati
}

# cirrus_pattern DEPTH: cirrusfb set to DEPTH; solid:red and bars kept,
# qemu's screendumps cirrus-redDEPTH.ppm and cirrus-barsDEPTH.ppm, and
# snap fb0 of the bars as cirrus-barsDEPTH.png (host_check)
cirrus_pattern() {
	t_check "cirrusfb: set to $1 bpp" fbclassctl set fb0 -g 640 480 640 480 "$1"
	fbclassctl pattern fb0 solid:red --keep >/tmp/pattern.out 2>&1
	t_is "$?" 0 "cirrusfb $1 bpp: pattern fb0 solid:red --keep exits 0"
	t_diag_stdin </tmp/pattern.out
	screendump "cirrus-red$1"
	fbclassctl pattern fb0 bars --keep >/tmp/pattern.out 2>&1
	t_is "$?" 0 "cirrusfb $1 bpp: pattern fb0 bars --keep exits 0"
	t_check "cirrusfb $1 bpp: snap fb0 of the bars" fbclassctl snap fb0 "/tmp/bars$1.png"
	screendump "cirrus-bars$1"
	out_file "/tmp/bars$1.png" "cirrus-bars$1.png"
}

# cirrus_pan: the pan as the screen shows it, at 16 bpp (0 and 255 are
# exact there): a virtual height of twice 480, pattern solid:red drawn at
# 0,0 and solid:blue at 0,480 (pattern draws the visible area, which the
# pan moves); qemu's screendumps cirrus-pan0.ppm and cirrus-pan480.ppm
# (host_check: red, then blue)
cirrus_pan() {
	t_check "cirrusfb: set -g 640 480 640 960 16" fbclassctl set fb0 -g 640 480 640 960 16
	t_check "cirrusfb: set --pan 0,0" fbclassctl set fb0 --pan 0,0
	t_check "cirrusfb: pattern solid:red at 0,0" fbclassctl pattern fb0 solid:red --keep
	t_check "cirrusfb: set --pan 0,480" fbclassctl set fb0 --pan 0,480
	t_is "$(var_of fb0 | jq -r .yoffset)" 480 "cirrusfb: yoffset 480 read back"
	t_check "cirrusfb: pattern solid:blue at 0,480" fbclassctl pattern fb0 solid:blue --keep
	screendump cirrus-pan480
	t_check "cirrusfb: set --pan 0,0 again" fbclassctl set fb0 --pan 0,0
	screendump cirrus-pan0
	fbclassctl info --probe -J fb0 >/tmp/probe.json 2>&1
	t_is "$(jq -r '.framebuffers[0].capabilities.pan_display.answer' /tmp/probe.json)" yes \
		"cirrusfb: info --probe: pan_display yes"
}

console_map() {
	t_check "modprobe vfb" modprobe vfb vfb_enable=1 videomemorysize=2097152 mode_option=640x480-8
	t_check "vfb's fb2 appears" sysfs_wait /sys/class/graphics/fb2 10
	fb_mknod fb2
	t_is "$(oracle 1) $(oracle 2)" "0 0" "con2fbmap: consoles 1 and 2 on cirrusfb's fb0"
	fbclassctl console map 1 fb2 >/tmp/map.out 2>&1
	t_is "$?" 0 "console map 1 fb2 exits 0"
	t_diag_stdin </tmp/map.out
	t_is "$(oracle 1)" 2 "con2fbmap: console 1 is on vfb's fb2"
	t_is "$(oracle 2)" 0 "con2fbmap: console 2 stayed on cirrusfb's fb0"
	t_is "$(fbclassctl console -J | jq -r '.consoles[0].fb')" 2 "console -J: tty1 on fb2"
	fbclassctl console map tty1 fb0 >/tmp/map.out 2>&1
	t_is "$?" 0 "console map tty1 fb0 exits 0"
	t_is "$(oracle 1)" 0 "con2fbmap: console 1 is back on cirrusfb's fb0"
}

scenario() {
	t_check "modprobe cirrusfb" modprobe cirrusfb
	bound fb0 cirrusfb
	t_check "cirrus-drm is not loaded" sh -c '! grep -q "^cirrus " /proc/modules'
	t_check "modprobe aty128fb" modprobe aty128fb
	bound fb1 aty128fb
	# aty128fb leaves line_length 0 until the first FBIOPUT_VSCREENINFO
	t_diag "aty128fb at load: stride $(cat /sys/class/graphics/fb1/stride)"
	cirrus_set
	aty_set
	aty_red 16
	t_check "aty128fb: set to 8 bpp" fbclassctl set fb1 -g 640 480 640 480 8
	aty_red 8
	console_map
	fbcon_unbind
	for _d in 8 16 24; do
		cirrus_pattern "$_d"
	done
	cirrus_pan
	bench_timed "cirrusfb 24 bpp" fb0
	bench_timed "aty128fb 8 bpp" fb1
	t_kernel_clean "no oops, BUG or WARNING"
}

# ppm_rgb FILE.ppm: the RGB bytes of qemu's screendump, after a "W H" line
ppm_rgb() {
	_wh=$(head -n 2 "$1" | tail -n 1)
	printf '%s\n' "$_wh"
	tail -c $((${_wh% *} * ${_wh#* } * 3)) "$1"
}

# red R: every pixel of the 640x480 screen (R, 0, 0), as ppm_rgb prints it
red() { solid "$1" 00 00; }
# solid R G B: every pixel (R, G, B)
solid() {
	perl -e 'print "640 480\n", (join "", map { chr hex } @ARGV) x (640 * 480)' "$1" "$2" "$3"
}

host_check() {
	_rc=0
	# Pure red as qemu shows it: ff through cirrus's 6-bit VGA DAC at
	# 8 bpp (qemu widens 63 to ff, but a colour map's 170, 42 in 6 bits,
	# would show as a8), ff at cirrus's RGB565 and RGB888; f8 at
	# aty128fb's XRGB1555 (qemu's ati-vga widens 5 bits by a shift), ff
	# through its 8-bit DAC.  The bars are 0 or 255 in each component,
	# so at each depth the screendump equals snap fb0 byte for byte.
	for _c in aty-red16:f8 aty-red8:ff cirrus-red8:ff cirrus-red16:ff cirrus-red24:ff; do
		_f=${_c%:*}
		red "${_c#*:}" >"$_f.want"
		if ppm_rgb "$_f.ppm" | cmp -s - "$_f.want"; then
			echo "ok - $_f: qemu's screendump is pure red (${_c#*:} 00 00)"
		else
			echo "not ok - $_f: the screendump is not pure red (${_c#*:} 00 00): $_f.ppm"
			_rc=1
		fi
	done
	# the pan: red at 0,0, blue at 0,480, each shown only when panned to
	for _c in cirrus-pan0:ff:00 cirrus-pan480:00:ff; do
		_f=${_c%%:*}
		_rb=${_c#*:}
		solid "${_rb%:*}" 00 "${_rb#*:}" >"$_f.want"
		if ppm_rgb "$_f.ppm" | cmp -s - "$_f.want"; then
			echo "ok - $_f: qemu's screendump shows the page panned to"
		else
			echo "not ok - $_f: the screendump is not the page panned to: $_f.ppm"
			_rc=1
		fi
	done
	for _d in 8 16 24; do
		ppm_rgb "cirrus-bars$_d.ppm" >"cirrus-bars$_d.rgb"
		if "${top_builddir:-.}/tests/vm/host/pngcmp" "cirrus-bars$_d.png" "cirrus-bars$_d.rgb"; then
			echo "ok - cirrusfb $_d bpp: pattern bars: qemu's screendump equals snap fb0"
		else
			echo "not ok - cirrusfb $_d bpp: pattern bars: the screendump differs from snap fb0"
			_rc=1
		fi
	done
	return "$_rc"
}
