#!/bin/bash
# Escape tier: no command puts a terminal control onto stdout or stderr.
# tests/fixtures/handmade/terminal.umockdev holds ESC [2J, BEL, CR, 0x9b,
# U+009B and 0xff in the fb's name, a uevent field and the EDID's monitor
# name and serial; a process renames itself to the same bytes, a rules
# file and a file name hold them.  Every command runs on them in text,
# JSON (-J) and pairs (-P) mode where it has them, and its output must be
# valid UTF-8 with no control but '\n' and '\t' (nor U+0080..U+009F).
set -u
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

export LC_ALL=C.UTF-8
UMOCKDEV_RUN=${UMOCKDEV_RUN:-$(command -v umockdev-run)}
[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run not found (Debian package umockdev)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
command -v perl >/dev/null || skip "perl not found"
tree=$top_srcdir/tests/fixtures/handmade/terminal.umockdev
[ -f "$tree" ] || skip "$tree missing"

work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/dev" "$work/proc"
: >"$work/empty.conf"
evil=$(printf '\033[2J\a\r\233\302\233\377')

# unsafe FILE: exit 0 when FILE holds a control other than \n and \t, a
# C1 control as UTF-8, or a byte that is not valid UTF-8.
unsafe() {
	perl -e '
		local $/; my $s = <STDIN>;
		exit 0 if $s =~ /[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]/;
		$s =~ s/[\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}//g;
		exit(length $s ? 0 : 1);
	' <"$1"
}

# The checker itself must see each kind of attack.
for bad in '\033[2J' '\a' '\r' '\233' '\302\233' '\377' 'ok\177'; do
	printf 'a%b\n' "$bad" >"$work/sample"
	check "the checker sees $(printf %q "$(printf %b "$bad")")" unsafe "$work/sample"
done
printf 'caf\303\251 \\xff\t\n' >"$work/sample"
check "the checker passes escaped text and UTF-8" test "$(unsafe "$work/sample" && echo bad)" = ""

# safe_cmd DESC CMD...: CMD under umockdev on the tree; its stdout and
# stderr must be safe, and it must not die of a signal.
safe_cmd() {
	local desc=$1 rc
	shift
	# the arguments go through a file: umockdev-run refuses an argument
	# that is not UTF-8 ("Invalid byte sequence") and would never run
	# the command
	printf '%s\0' "$@" >"$work/argv"
	"$UMOCKDEV_RUN" -d "$tree" -- bash -c 'mapfile -d "" -t a <"$0" && exec "${a[@]}"' \
		"$work/argv" >"$work/out" 2>"$work/err"
	rc=$?
	if grep -q 'umockdev' "$work/err"; then
		not_ok "$desc: umockdev-run did not run it: $(head -n 1 "$work/err")"
		return
	fi
	if [ "$rc" -gt 128 ]; then
		not_ok "$desc: died of signal $((rc - 128))"
	elif unsafe "$work/out"; then
		not_ok "$desc: stdout carries a control: $(od -c "$work/out" | grep -m3 -E '033|\\a|\\r|233|377|302')"
	elif unsafe "$work/err"; then
		not_ok "$desc: stderr carries a control: $(od -c "$work/err" | grep -m3 -E '033|\\a|\\r|233|377|302')"
	else
		ok "$desc (exit $rc)"
	fi
}
# safe DESC ARGS...: the same for fbclassctl ARGS.
safe() {
	local desc=$1
	shift
	safe_cmd "$desc" "$FBCLASSCTL" "$@"
}

# A process whose comm is the attack, under a /proc of its own: its pid
# directory links to the real comm and holds an fd link to a node 29:0
# (mknod: root only).
fifo=$work/hold
mkfifo "$fifo"
(printf '%s' "$evil" >"/proc/$BASHPID/comm" && exec 3<>"$fifo" && read -r -u 3) &
pids+=($!)
holder=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(od -An -c "/proc/$holder/comm" | tr -d ' \n')" = '033[2J\a\r233302233377\n' ] && break
	sleep 0.1
done
check "a process renamed itself to the attack" \
	test "$(od -An -tx1 "/proc/$holder/comm" | tr -d ' \n')" = 1b5b324a070d9bc29bff0a
fakeproc=$work/proc
mkdir -p "$fakeproc/$holder/fd"
ln -s "/proc/$holder/comm" "$fakeproc/$holder/comm"
printf 'BOOT_IMAGE=/vmlinuz %s\n' "$evil" >"$fakeproc/cmdline"
if mknod "$work/fbnode" c 29 0 2>/dev/null; then
	ln -s "$work/fbnode" "$fakeproc/$holder/fd/3"
	"$UMOCKDEV_RUN" -d "$tree" -- "$FBCLASSCTL" holders --proc "$fakeproc" --dev "$work/dev" fb0 \
		>"$work/out" 2>/dev/null
	if grep -qF 'pid' "$work/out" && grep -qF '\x1b[2J\x07\x0d\x9b\xc2\x9b\xff' "$work/out"; then
		ok "holders lists the renamed process, its comm escaped"
	else
		not_ok "holders lists the renamed process, its comm escaped: $(od -c "$work/out" | head -5)"
	fi
else
	skip_part "holders lists the renamed process" "mknod needs root"
fi

# A rules file and a --dev that are the attack: echoed in errors.
printf 'KERNEL=="fb*", SYMLINK+="%s"\nBOGUS %s\n' "$evil" "$evil" >"$work/rules.conf"
mkdir -p "$work/$evil"

d=(--dev "$work/dev")
for mode in "" -J -P -r; do
	safe "list $mode" list $mode "${d[@]}"
	safe "list -O $mode" list -O $mode "${d[@]}"
	safe "list --drm -O $mode" list --drm -O $mode "${d[@]}"
done
for mode in "" -J; do
	safe "info $mode" info $mode "${d[@]}"
	safe "doctor $mode" doctor $mode --proc "$fakeproc" "${d[@]}"
	safe "holders $mode" holders $mode --proc "$fakeproc" "${d[@]}"
done
safe "info --fbset" info --fbset "${d[@]}"
safe "coldplug --dry-run" coldplug --dry-run "${d[@]}" --config "$work/empty.conf"
safe "coldplug --dry-run, rules from outside" coldplug --dry-run "${d[@]}" --config "$work/rules.conf"
safe "coldplug --check-config" coldplug --check-config --config "$work/rules.conf"
safe "coldplug --dev named by the attack" coldplug --dry-run --dev "$work/$evil" --config "$work/empty.conf"
safe_cmd "hotplug of a hostile event" env ACTION=add "DEVPATH=/devices/pci0000:00/0000:00:02.0/graphics/$evil" \
	SUBSYSTEM=graphics MAJOR=29 MINOR=0 "DEVNAME=$evil" \
	"$FBCLASSCTL" hotplug --dry-run "${d[@]}" --config "$work/empty.conf"
safe "snap" snap fb0 "${d[@]}" -o "$work/$evil.png"
safe "bench" bench --quick fb0 "${d[@]}"
safe "pattern text" pattern fb0 text -d 0 "${d[@]}"
safe "pattern of an unknown device named by the attack" pattern "$evil" -d 0 "${d[@]}"
safe "pattern named by the attack" pattern fb0 "$evil" -d 0 "${d[@]}"
safe "pattern colour named by the attack" pattern fb0 "solid:$evil" -d 0 "${d[@]}"
safe "an unknown device named by the attack" info "$evil" "${d[@]}"
safe "doctor of an unknown device named by the attack" doctor "$evil" "${d[@]}"
safe "set --test" set fb0 --test -g 640 480 640 480 16 "${d[@]}"
safe "set of an unknown device named by the attack" set "$evil" -g 640 480 640 480 16 "${d[@]}"
safe "metrics" metrics "${d[@]}"
safe "wait -t 0 for an unknown device named by the attack" wait -t 0 "$evil"
safe "console" console "${d[@]}"
safe "console -J" console -J "${d[@]}"
safe "console map to an unknown device named by the attack" console map 1 "$evil" "${d[@]}"
safe "console map of a console named by the attack" console map "$evil" fb0 "${d[@]}"
safe "console blank of a device named by the attack" console blank "$evil" powerdown "${d[@]}"
safe "console blank at a level named by the attack" console blank fb0 "$evil" "${d[@]}"
safe "console rotate by an angle named by the attack" console rotate "$evil"
safe "console cursor-blink to a state named by the attack" console cursor-blink "$evil"
safe "console: a command named by the attack" console "$evil"
finish
