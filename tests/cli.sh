#!/bin/bash
# Command line: help, usage errors and their exit codes, the empty system.
set -u
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
UMOCKDEV_RUN=${UMOCKDEV_RUN:-$(command -v umockdev-run)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# expect RC STDOUT-SUBSTRING STDERR-SUBSTRING -- ARGS...
expect() {
	local want=$1 out=$2 err=$3
	shift 4
	"$FBCLASSCTL" "$@" >"$work/out" 2>"$work/err"
	local rc=$?
	local what="fbclassctl $*"
	if [ "$rc" -ne "$want" ]; then
		not_ok "$what: exit $rc, expected $want"
		sed 's/^/#   /' "$work/err"
		return
	fi
	if [ -n "$out" ] && ! grep -qF -- "$out" "$work/out"; then
		not_ok "$what: stdout lacks '$out'"
		return
	fi
	if [ -n "$err" ] && ! grep -qF -- "$err" "$work/err"; then
		not_ok "$what: stderr lacks '$err'"
		sed 's/^/#   /' "$work/err"
		return
	fi
	ok "$what (exit $rc)"
}

expect 0 "Usage: fbclassctl [options] COMMAND" "" -- --help
expect 0 "fbclassctl 0.1" "" -- --version
expect 0 "sysfs: " "" -- --version
expect 0 "uevents: " "" -- --version
expect 0 "table: " "" -- --version
expect 0 "json: " "" -- --version
expect 2 "" "fbclassctl: missing command" --
expect 2 "" "Try 'fbclassctl --help'" -- --bogus
expect 2 "" "fbclassctl: unknown command 'frobnicate'" -- frobnicate
for cmd in $("$FBCLASSCTL" --help | awk '/^Commands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
	expect 0 "Usage: fbclassctl $cmd" "" -- "$cmd" --help
	expect 2 "" "Try 'fbclassctl $cmd --help'" -- "$cmd" --no-such-option
	# one prefix: getopt's messages too, never the binary's path
	expect 2 "" "fbclassctl: unrecognized option '--no-such-option'" -- "$cmd" --no-such-option
	check "$cmd: every stderr line is 'fbclassctl: ' or 'Try '" \
		test "$(grep -cvE "^(fbclassctl: |Try 'fbclassctl )" "$work/err")" -eq 0
done
expect 2 "" "fbclassctl: unrecognized option '--bogus'" -- --bogus
check "no path in getopt's message" test "$(grep -c / "$work/err")" -eq 0
expect 2 "" "fbclassctl: unknown column \"BOGUS\"" -- list -o NAME,BOGUS
expect 2 "" "fbclassctl: unknown column \" RES\"" -- list -o "NAME, RES"
expect 2 "" "fbclassctl: --sort: unknown column \"NO PE\"" -- list -x "NO PE"
# Global options before or after the command; -q is --quiet in every
# command, bench's included (its --quick has no short option).
expect 4 "" "fbclassctl: fb9: no such framebuffer or DRM card" -- doctor -v fb9 --dev "$work"
expect 4 "" "fbclassctl: fb9: no such framebuffer or DRM card" -- doctor fb9 -q --dev "$work"
expect 4 "" "fbclassctl: fb9: no such framebuffer or DRM card" -- doctor fb9 --verbose --dev "$work"
expect 2 "" "fbclassctl: unrecognized option '--bogus'" -- list --quiet --bogus
expect 0 "Usage: fbclassctl bench" "" -- bench -q --help
"$FBCLASSCTL" bench --help >"$work/out"
check "bench: -q is not --quick" test "$(grep -c -- '-q, --quick' "$work/out")" -eq 0
check "bench: --strategy is -S (-s is monitor's --subsystem)" grep -q -- '-S, --strategy LIST' "$work/out"
# each short option means one thing in every command's --help
for cmd in $("$FBCLASSCTL" --help | awk '/^Commands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
	"$FBCLASSCTL" "$cmd" --help | sed -n 's/^ *\(-[a-zA-Z]\), \(--[a-z-]*\).*/\1 \2/p'
done | sort -u >"$work/shorts"
# (but list's -n, lsblk's --noheadings, and set's -t, fbset's --timings)
grep -vxE -- '-n --noheadings|-t --timings' "$work/shorts" >"$work/shorts1"
check "every short option has one long name across commands" \
	test "$(cut -d' ' -f1 "$work/shorts1" | uniq -d | wc -l)" -eq 0
check "-n is --dry-run" grep -qxF -- '-n --dry-run' "$work/shorts1"
check "... and the check read some" test "$(wc -l <"$work/shorts")" -ge 10
# durations: one error, the value and the range
expect 2 "" 'fbclassctl: --duration: "0" is not a number of seconds above 0, at most 3600' -- bench -d 0
expect 2 "" 'fbclassctl: --timeout: "soon" is not a number of seconds from 0 to 3600' -- wait -t soon fb9
expect 2 "" 'fbclassctl: --settle: "-1" is not a number of seconds from 0 to 3600' -- coldplug --settle -1 --dev "$work"
# --quiet silences a warning given after the command as before it.
"$FBCLASSCTL" -q list --dev "$work/none" >/dev/null 2>"$work/err1"
"$FBCLASSCTL" list -q --dev "$work/none" >/dev/null 2>"$work/err2"
check "list -q: stderr as for -q list" cmp -s "$work/err1" "$work/err2"
"$FBCLASSCTL" -vv list --dev "$work/none" >/dev/null 2>"$work/err1"
"$FBCLASSCTL" list -vv --dev "$work/none" >/dev/null 2>"$work/err2"
check "list -vv: stderr as for -vv list" cmp -s "$work/err1" "$work/err2"
# --dry-run is -n where it exists.
for cmd in coldplug hotplug; do
	expect 0 "-n, --dry-run" "" -- "$cmd" --help
done
: >"$work/empty.conf"
expect 0 "" "" -- coldplug -n --dev "$work" --config "$work/empty.conf"
expect 0 "" "" -- hotplug -n --dev "$work" --config "$work/empty.conf"
# --check-config stops after the rules: an option it would drop is refused
expect 2 "" "fbclassctl: coldplug: --check-config checks the rules file only; it takes no --dry-run" -- \
	coldplug --dry-run --check-config --dev "$work" --config "$work/empty.conf"
# hotplug run by hand, with no event: said, not silent (no uevent variable
# in the environment; not env -i, which would also drop what
# check-valgrind's wrapper needs)
env -u ACTION -u SUBSYSTEM -u DEVPATH -u DEVNAME -u MAJOR -u MINOR -u SEQNUM \
	"$FBCLASSCTL" hotplug --dev "$work" --config "$work/empty.conf" >"$work/out" 2>"$work/err"
check "hotplug with an empty environment: exit 0" test $? -eq 0
check "hotplug with an empty environment says there is no uevent" \
	grep -qF "fbclassctl: no uevent in the environment (ACTION, SUBSYSTEM and DEVPATH are unset): nothing done" "$work/err"
# monitor says what it listens to, on stderr, as udevadm monitor does
timeout -s INT 2 "$FBCLASSCTL" monitor -s graphics >"$work/out" 2>"$work/err"
if grep -q "cannot" "$work/err"; then
	skip_part "monitor's banner" "no uevent socket here: $(head -n1 "$work/err")"
else
	check "monitor: a banner on stderr" \
		grep -qxF "fbclassctl: monitor: listening for kernel uevents of graphics; SIGINT (Ctrl-C) stops" "$work/err"
	check "monitor: stdout holds the events only" test ! -s "$work/out"
fi
expect 2 "" "mutually exclusive" -- list -J -P
expect 2 "" "mutually exclusive" -- list -r -P
expect 2 "" "mutually exclusive" -- info -J --fbset
expect 2 "" "--probe and --fbset are mutually exclusive" -- info --probe --fbset
expect 2 "" "--probe and --modes are mutually exclusive" -- info --probe --modes
expect 4 "" "fb0: no such framebuffer" -- list fb0
# An unknown device has its own exit status, 4, in every command that
# takes DEVICE; 1 stays "problems found" (doctor) or an error.
for cmd in list info doctor holders bench snap pattern unload; do
	expect 4 "" "fb9: no such framebuffer" -- $cmd fb9 --dev "$work"
done
# snap CONNECTOR: a connector that is not there is exit 4 too; the static
# build cannot read KMS and says so (exit 1) before it looks.
if "$FBCLASSCTL" --version | grep -q '^drm: none'; then
	expect 1 "" "card9-Virtual-1: cannot tell (not in the static build)" -- snap card9-Virtual-1 "$work/c.png"
else
	expect 4 "" "card9-Virtual-1: no such connector" -- snap card9-Virtual-1 "$work/c.png"
	expect 4 "" "card9-Virtual-1: no such connector" -- snap /sys/class/drm/card9-Virtual-1
fi
expect 2 "" "expected DEVICE or CONNECTOR and an optional FILE.png" -- snap card0-Virtual-1 a.png b.png
# A --dev that is a file is a usage error, in every command that takes one.
for cmd in list info holders bench snap doctor coldplug hotplug daemon "unload fb0" "set fb0" \
	"pattern fb0"; do
	# shellcheck disable=SC2086
	expect 2 "" "fbclassctl: --dev /etc/passwd: not a directory" -- $cmd --dev /etc/passwd
done
expect 0 "MAJ:MIN" "" -- list --help
# pattern: a bad name or colour is a usage error before any device is read.
expect 2 "" 'fbclassctl: pattern "plaid": unknown pattern (bars, ramp, grid, checker, solid:COLOUR, text)' \
	-- pattern fb9 plaid
expect 2 "" 'fbclassctl: pattern "solid:#12345": bad colour: #RRGGBB takes 6 hex digits, not 5' \
	-- pattern fb9 'solid:#12345'
expect 2 "" 'fbclassctl: pattern "solid:#12345z": bad colour: #RRGGBB takes hex digits 0-9, a-f' \
	-- pattern fb9 'solid:#12345z'
expect 2 "" 'fbclassctl: pattern "solid:pink": unknown colour' \
	-- pattern fb9 solid:pink
expect 2 "" 'fbclassctl: --keep and --duration exclude each other' -- pattern --keep -d 1 fb9
expect 2 "" 'fbclassctl: --duration: "soon" is not a number of seconds from 0 to 3600' -- pattern -d soon fb9
expect 2 "" 'fbclassctl: --duration: "soon" is not a number of seconds from 0 to 3600' -- pattern --seconds soon fb9
expect 2 "" 'fbclassctl: expected DEVICE and an optional pattern NAME' -- pattern fb0 bars extra
expect 4 "" "fb9: no such framebuffer" -- pattern fb9 'solid:#FF8000' -d 0
expect 0 "Usage: fbclassctl pattern" "" -- pattern --help
# set: a bad request or fb.modes is a usage error before any device is read.
printf 'mode "x"\n  geometry 800 600 800 600 16\n  timings 1 2 3\nendmode\n' >"$work/bad.modes"
expect 2 "" "fbclassctl: $work/bad.modes:4: timings takes 7 numbers, found 'endmode' as number 4" \
	-- set fb0 --db "$work/bad.modes" --mode x
printf 'mode "x"\n  geometry 800 600 800 600 16\n  timings 1 2 3 4 5 6 7\nendmode\n' >"$work/good.modes"
expect 2 "" "fbclassctl: unknown mode 'nosuch': not in $work/good.modes" \
	-- set fb0 --db "$work/good.modes" --mode nosuch
expect 2 "" "fbclassctl: $work/none.modes: No such file or directory" -- set fb0 --db "$work/none.modes" --mode x
expect 2 "" "fbclassctl: --geometry takes 5 numbers" -- set fb0 -g 1 2 3
expect 2 "" "fbclassctl: --timings: 'x' is not a number" -- set fb0 -t 1 2 3 4 5 6 x
expect 2 "" "fbclassctl: --pan takes X,Y" -- set fb0 --pan 1
expect 2 "" "fbclassctl: --accel takes true or false" -- set fb0 --accel maybe
expect 2 "" "fbclassctl: --rgba takes R,G,B,T" -- set fb0 --rgba 8,8,x
expect 2 "" "fbclassctl: nothing to set" -- set fb0
expect 2 "" "fbclassctl: expected one DEVICE" -- set -g 1 2 3 4 5
expect 0 "--geometry XRES YRES VXRES VYRES DEPTH" "" -- set --help
# --help names every column with a description.
n=$("$FBCLASSCTL" list --help | awk '/^Columns/{on=1; next} on && NF==0 {exit} on && NF>=2' | wc -l)
check "list --help describes 23 columns and --connectors' 8" test "$n" -eq 31
# --connectors has columns of its own, and no --drm or --bytes
expect 2 "" 'fbclassctl: unknown column "NAME"' -- list --connectors -o NAME
expect 2 "" 'fbclassctl: unknown column "SCANOUT"' -- list -o SCANOUT
expect 2 "" 'fbclassctl: --sort: unknown column "RES"' -- list --connectors -x RES
expect 2 "" "fbclassctl: --connectors lists connectors: --drm has no meaning there" -- list --connectors --drm
expect 0 "SCANOUT" "" -- list --connectors --list-columns

# console's commands: their operands are checked before anything is read
expect 2 "" 'console: unknown command "frob"' -- console frob
expect 2 "" "console --all: only rotate takes it" -- console --all
expect 2 "" "console --all: only rotate takes it" -- console blank fb0 powerdown --all
expect 2 "" "console -J: only the map (no command) takes it" -- console -J rotate
expect 2 "" 'console blank: "off": a level is unblank, normal, vsync, hsync or powerdown' -- console blank fb0 off
expect 2 "" "console blank: give a framebuffer and a level" -- console blank fb0
expect 2 "" 'console rotate: "45": an angle is 0, 90, 180 or 270' -- console rotate 45
expect 2 "" 'console rotate: "360": an angle is 0, 90, 180 or 270' -- console rotate 360
expect 2 "" "console rotate: at most one angle" -- console rotate 90 180
expect 2 "" "console cursor-blink: on or off" -- console cursor-blink yes
expect 2 "" 'console map: "0": not a console from 1 to 63' -- console map 0 fb0

if "$FBCLASSCTL" --version | grep -q '^link: static'; then
	# umockdev fakes sysfs through LD_PRELOAD, which a static binary ignores
	echo "# console on a captured tree: not for the static build (umockdev cannot fake its sysfs)"
elif [ -x "$UMOCKDEV_RUN" ]; then
	# fbcon's attributes in a captured tree (6.1, with fbcon): read, set,
	# read back; rotate_all is write-only, so the capture has none
	tree=$top_srcdir/tests/fixtures/captured/multi.umockdev
	um() { "$UMOCKDEV_RUN" -d "$tree" -- sh -c "$@" >"$work/out" 2>"$work/err"; }
	um '"$0" console rotate' "$FBCLASSCTL"
	check "console rotate: the captured 0" grep -qx "rotate: 0 (the console in front)" "$work/out"
	um '"$0" console rotate 270 && cat /sys/class/graphics/fbcon/rotate' "$FBCLASSCTL"
	check "console rotate 270: 3 in fbcon/rotate, read back" \
		test "$(tr '\n' ' ' <"$work/out")" = "rotate: 270 (the console in front) 3 "
	um '"$0" console cursor-blink off && cat /sys/class/graphics/fbcon/cursor_blink' "$FBCLASSCTL"
	check "console cursor-blink off: 0 in fbcon/cursor_blink" \
		test "$(tr '\n' ' ' <"$work/out")" = "cursor-blink: off 0 "
	um '"$0" console rotate --all 90; echo "rc=$?"' "$FBCLASSCTL"
	check "console rotate --all where fbcon has no rotate_all: exit 1, said" \
		sh -c 'grep -qx "rc=1" "$1/out" && grep -qF "console rotate: fbcon has no rotate_all" "$1/err"' - "$work"
	# a rotate_all that fbcon/rotate does not follow, as on a kernel
	# without rotation (here: two plain files)
	um ': >/sys/class/graphics/fbcon/rotate_all; "$0" console rotate --all 180; echo "rc=$?"' \
		"$FBCLASSCTL"
	check "console rotate --all 180 that does not read back: exit 1, said" \
		sh -c 'grep -qx "rc=1" "$1/out" && grep -qF "rotate_all took 180, but rotate reads back otherwise" "$1/err"' - "$work"
	"$UMOCKDEV_RUN" -- "$FBCLASSCTL" console cursor-blink >"$work/out" 2>"$work/err"
	check "console cursor-blink without fbcon: exit 1, named" \
		grep -qF "console cursor-blink: no fbcon (/sys/class/graphics/fbcon)" "$work/err"
fi

if "$FBCLASSCTL" --version | grep -q '^link: static'; then
	echo "# info's video= lines on a captured tree: not for the static build"
elif [ -x "$UMOCKDEV_RUN" ]; then
	# DRM's fbdev emulation: one video= line for each size the connector's
	# sysfs "modes" offers (the oracle: that file, read by cat), the EDID's
	# preferred size with its refresh; none for a native or virtual fb
	tree=$top_srcdir/tests/fixtures/captured-6.12/drm-bochs.umockdev
	"$UMOCKDEV_RUN" -d "$tree" -- sh -c '"$0" info fb0; cat /sys/class/drm/card0-Virtual-1/modes' \
		"$FBCLASSCTL" >"$work/out" 2>"$work/err"
	sed -n 's/^    video=Virtual-1:\([0-9]*x[0-9]*\).*/\1/p' "$work/out" >"$work/video"
	grep -x '[0-9]*x[0-9]*' "$work/out" | awk '!seen[$0]++' >"$work/offered"
	check "info drm-bochs: a video= line for each size offered, in order" \
		sh -c 'test -s "$1/video" && cmp -s "$1/video" "$1/offered"' - "$work"
	check "info drm-bochs: the EDID's preferred size with its refresh" \
		grep -qx "    video=Virtual-1:1280x800@75" "$work/out"
	"$UMOCKDEV_RUN" -d "$tree" -- "$FBCLASSCTL" info -J fb0 >"$work/out" 2>"$work/err"
	check "info -J drm-bochs: display.video holds the same" \
		test "$(python3 -c 'import json,sys; print(len(json.load(sys.stdin)["framebuffers"][0]["display"]["video"]))' <"$work/out")" = "$(wc -l <"$work/video")"
	"$UMOCKDEV_RUN" -d "$top_srcdir/tests/fixtures/captured-6.12/vfb.umockdev" -- \
		"$FBCLASSCTL" info >"$work/out" 2>"$work/err"
	check "info vfb: no video= line (not DRM's fbdev emulation)" \
		test "$(grep -c 'video=' "$work/out")" -eq 0
	# info --modes: fb.modes blocks, one for each size offered, that our
	# own parser (set --db: a parsed file gets as far as the device, exit
	# 4) and fbset -db read back; fbset on a plain file gets as far as
	# FBIOPUT_VSCREENINFO only for a mode it found and parsed
	"$UMOCKDEV_RUN" -d "$tree" -- "$FBCLASSCTL" info --modes fb0 >"$work/fb.modes" 2>"$work/err"
	sed -n 's/^mode "\(.*\)"$/\1/p' "$work/fb.modes" >"$work/names"
	check "info --modes drm-bochs: a block for each size offered" \
		test "$(sed 's/-[0-9]*$//' "$work/names" | sort -u | wc -l)" -eq "$(wc -l <"$work/offered")"
	check "info --modes drm-bochs: each name once" test "$(sort "$work/names" | uniq -d | wc -l)" -eq 0
	check "info --modes drm-bochs: the EDID's preferred size at its 75 Hz" grep -qx 'mode "1280x800-75"' "$work/fb.modes"
	: >"$work/parsed"
	while read -r name; do
		"$FBCLASSCTL" set --db "$work/fb.modes" --mode "$name" fb99 >/dev/null 2>&1
		echo "$?" >>"$work/parsed"
	done <"$work/names"
	check "info --modes: every block parses back (set --db)" \
		test "$(sort -u "$work/parsed" | tr -d '\n')" = 4
	if command -v fbset >/dev/null; then
		: >"$work/fakefb"
		while read -r name; do
			fbset -fb "$work/fakefb" -db "$work/fb.modes" "$name" 2>&1
		done <"$work/names" | sort -u >"$work/fbset.out"
		check "info --modes: fbset -db finds and parses every block" \
			test "$(cat "$work/fbset.out")" = "ioctl FBIOPUT_VSCREENINFO: Inappropriate ioctl for device"
	else
		echo "# fbset not installed: info --modes not held to fbset -db"
	fi
	"$UMOCKDEV_RUN" -d "$top_srcdir/tests/fixtures/captured-6.12/vfb.umockdev" -- \
		"$FBCLASSCTL" info --modes fb0 >"$work/out" 2>"$work/err"
	# CVT by hand: a line of (1e6/110 - 550) / 483 = 17.683 us, blanking 24.695 %
	# of 640 in cells of 16: 208, clock 848 / 17.683 us in 0.25 MHz steps 47.75,
	# hsync 8 % of 848: 64, 32 lines of sync and back porch, vsync 4 (4:3)
	check "info --modes vfb: sysfs's U:640x480p-110 with CVT's timings" \
		sh -c 'grep -qF "# fb0 modes: U:640x480p-110 (timings: VESA CVT at 110 Hz, computed)" "$1" &&
			grep -qx "    timings 20942 104 40 28 3 64 4" "$1"' - "$work/out"
	expect 2 "" "--json, --fbset and --modes are mutually exclusive" -- info --modes -J
	# a rule's fbmode=, console= and rotate=: --dry-run prints them as the
	# commands that do them, after the node; a bad value stops everything
	mkdir -p "$work/dev"
	printf 'name=fb0 fbmode=800x600-16 console=1-63 rotate=90\nname=fb9 console=2 mode=0600\n' >"$work/setup.conf"
	"$UMOCKDEV_RUN" -d "$top_srcdir/tests/fixtures/captured-6.12/vfb.umockdev" -- \
		"$FBCLASSCTL" coldplug --dry-run --config "$work/setup.conf" --dev "$work/dev" >"$work/out" 2>"$work/err"
	check "coldplug --dry-run: the rule's setup, after the node, as commands" \
		test "$(grep -A3 '^ln -s ../../fb0 .*/fb/by-name/' "$work/out" | tail -n 3 | tr '\n' '|')" = \
		"set fb0 --mode 800x600-16|console map 1-63 fb0|console rotate 90|"
	check "coldplug --dry-run: only the matching rule's" test "$(grep -c '^console map' "$work/out")" -eq 1
	"$UMOCKDEV_RUN" -d "$top_srcdir/tests/fixtures/captured-6.12/vfb.umockdev" -- \
		env ACTION=add SUBSYSTEM=graphics DEVPATH=/devices/platform/vfb.0/graphics/fb0 \
		DEVNAME=fb0 MAJOR=29 MINOR=0 \
		"$FBCLASSCTL" hotplug --dry-run --config "$work/setup.conf" --dev "$work/dev" >"$work/out" 2>"$work/err"
	check "hotplug add --dry-run: the rule's setup too" \
		test "$(tail -n 3 "$work/out" | tr '\n' '|')" = \
		"set fb0 --mode 800x600-16|console map 1-63 fb0|console rotate 90|"
	if [ "$(id -u)" = 0 ]; then
		# applied for real on a tree without the device: each part fails,
		# each is said naming fb0 and why, and the node is made all the same
		mkdir -p "$work/dev2"
		echo 'name=fb0 fbmode=no-such-mode console=1' >"$work/fail.conf"
		"$UMOCKDEV_RUN" -d "$top_srcdir/tests/fixtures/captured-6.12/vfb.umockdev" -- \
			"$FBCLASSCTL" coldplug --config "$work/fail.conf" --dev "$work/dev2" >"$work/out" 2>"$work/err"
		rc=$?
		check "coldplug, a setup that fails: exit 0, the node made" \
			sh -c 'test "$0" -eq 0 && test -c "$1/dev2/fb0" && test -L "$1/dev2/fb/by-name/Virtual_FB"' "$rc" "$work"
		check "coldplug, a setup that fails: fbmode= said, naming fb0" \
			grep -qF "fbclassctl: fb0: fbmode=no-such-mode (rule at line 1) not set" "$work/err"
		check "coldplug, a setup that fails: console= said, naming fb0 and the cause" \
			grep -qF "fbclassctl: fb0: console=: cannot open $work/dev2/fb0: No such device or address" "$work/err"
	fi
	printf 'name=fb0 console=2\nname=fb0 fbmode=800x600-16 rotate=45\n' >"$work/bad.conf"
	"$UMOCKDEV_RUN" -d "$top_srcdir/tests/fixtures/captured-6.12/vfb.umockdev" -- \
		"$FBCLASSCTL" coldplug --config "$work/bad.conf" --dev "$work/dev" >"$work/out" 2>"$work/err"
	rc=$?
	check "coldplug, rotate=45: exit 2, FILE:LINE: reason, nothing made" \
		sh -c 'test "$0" -eq 2 && grep -qF "bad.conf:2: invalid rotate \"45\": expected 0, 90, 180 or 270" "$1/err" && test -z "$(ls "$1/dev")"' "$rc" "$work"
fi

if [ -x "$UMOCKDEV_RUN" ]; then
	# An empty testbed: a machine without framebuffers.
	"$UMOCKDEV_RUN" -- "$FBCLASSCTL" list >"$work/out" 2>"$work/err"
	rc=$?
	check "no framebuffers: exit 0" test "$rc" -eq 0
	check "no framebuffers: said plainly" grep -qF "fbclassctl: no framebuffer devices found in /sys/class/graphics" "$work/err"
	"$UMOCKDEV_RUN" -- "$FBCLASSCTL" list -J >"$work/out" 2>"$work/err"
	check "no framebuffers: empty JSON array" test "$(tr -d ' \n' <"$work/out")" = '{"framebuffers":[]}'
	"$UMOCKDEV_RUN" -- "$FBCLASSCTL" info -J >"$work/out" 2>"$work/err"
	check "no framebuffers: info -J" test "$(tr -d ' \n' <"$work/out")" = '{"framebuffers":[]}'
	# info --probe where nothing can be opened: each capability untested,
	# why (umockdev cannot fake the static binary's sysfs, as above)
	t=$top_srcdir/tests/fixtures/captured/drm-bochs.umockdev
	if "$FBCLASSCTL" --version | grep -q '^link: static'; then
		echo "# info --probe on a captured tree: not for the static build"
	elif have_fixture "$t"; then
		mkdir -p "$work/nodev"
		"$UMOCKDEV_RUN" -d "$t" -- "$FBCLASSCTL" info --probe --dev "$work/nodev" \
			--no-temp-node fb0 >"$work/out" 2>"$work/err"
		check "info --probe without a node: exit 0" test $? -eq 0
		check "info --probe without a node: the section" grep -qxF "  capabilities (probed):" "$work/out"
		check "info --probe without a node: vsync untested, why" \
			grep -qxF "    vsync              untested: no node $work/nodev/fb0" "$work/out"
		"$UMOCKDEV_RUN" -d "$t" -- "$FBCLASSCTL" info --dev "$work/nodev" \
			--no-temp-node fb0 >"$work/out" 2>"$work/err"
		check "info without --probe tries nothing" test "$(grep -c capabilities "$work/out")" = 0
	fi
	"$UMOCKDEV_RUN" -- "$FBCLASSCTL" -q list >"$work/out" 2>"$work/err"
	check "-q silences the notice" test ! -s "$work/err"
else
	not_ok "umockdev-run is needed for the empty-system checks"
fi
finish
