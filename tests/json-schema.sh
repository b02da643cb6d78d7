#!/bin/bash
# Every command's -J output against its definition in
# tests/json/fbclassctl.schema.json (the vocabulary fbclassctl(8) writes
# down under JSON OUTPUT), on the captured and hand-made trees; and the
# schema rejects what breaks it, so that the check can fail.
set -u
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

schema=$top_srcdir/tests/json/fbclassctl.schema.json
validate=$top_srcdir/tests/json/validate.py
# Debian's python3 with Debian's python3-jsonschema (install-deps.sh)
py=/usr/bin/python3
[ -x "$py" ] || skip "/usr/bin/python3 not found (Debian package python3)"
"$py" -c 'import jsonschema' 2>/dev/null || skip "jsonschema not importable (Debian package python3-jsonschema)"
UMOCKDEV_RUN=${UMOCKDEV_RUN:-$(command -v umockdev-run)}
[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run not found (Debian package umockdev)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
case $FBCLASSCTL in /*) ;; *) FBCLASSCTL=$PWD/$FBCLASSCTL ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/dev" "$work/proc" "$work/boot"
echo "quiet" >"$work/proc/cmdline"

# valid_rc CMD FILE DESC: list exits 0 on these trees, and its output is valid
# (a list that crashed or failed is a failed check, not a line left out)
valid_rc() {
	local rc=$?
	if [ "$rc" -ne 0 ]; then
		not_ok "$3 (exit status $rc)"
		return
	fi
	valid "$@"
}

# valid CMD FILE DESC: FILE is kept and checked by valid_all, with the rest
# (one python for all: its start, not the check, took a third of a second)
n_queued=0
queued=()
valid() {
	n_queued=$((n_queued + 1))
	cp "$2" "$work/doc.$n_queued"
	printf '%s\t%s\n' "$1" "$work/doc.$n_queued" >>"$work/queue"
	queued+=("$3")
}
# rejected CMD FILE DESC: the schema of CMD's -J rejects FILE (a document
# made broken on purpose), so that the checks above can fail
rejected() {
	if "$py" "$validate" "$schema" "$1" "$2" 2>/dev/null; then not_ok "$3"; else ok "$3"; fi
}

# valid_all: each queued document's verdict, in order
valid_all() {
	local i=0 verdict why
	[ "$n_queued" -gt 0 ] || return 0
	while IFS=$'\t' read -r verdict why; do
		if [ "$verdict" = ok ]; then
			ok "${queued[$i]}"
		else
			not_ok "${queued[$i]}"
			printf '%s\n' "$why" | sed 's/ | /\n/g' | sed 's/^/#   /'
		fi
		i=$((i + 1))
	done < <("$py" "$validate" "$schema" --batch "$work/queue")
	[ "$i" -eq "$n_queued" ] || not_ok "validate.py gave $i verdicts for $n_queued documents"
}

fixtures=("$top_srcdir"/tests/fixtures/captured/*.umockdev "$top_srcdir"/tests/fixtures/captured-6.12/*.umockdev "$top_srcdir"/tests/fixtures/handmade/*.umockdev)
check "there are trees to run on" test "${#fixtures[@]}" -ge 10
for t in "${fixtures[@]}"; do
	n=$(basename "$t" .umockdev)
	um() { "$UMOCKDEV_RUN" -d "$t" -- "$FBCLASSCTL" "$@" >"$work/out" 2>/dev/null; }
	um list -J -O --dev "$work/dev" --no-temp-node
	valid_rc list "$work/out" "$n: list -J -O"
	um list -J --drm --dev "$work/dev" --no-temp-node
	valid_rc list "$work/out" "$n: list -J --drm"
	um list -J -y -o NAME,MAJ:MIN,SIZE -b --dev "$work/dev" --no-temp-node
	valid_rc list "$work/out" "$n: list -J -y -b"
	um list --connectors -J -O
	valid_rc list-connectors "$work/out" "$n: list --connectors -J -O"
	um info -J --dev "$work/dev" --no-temp-node
	valid info "$work/out" "$n: info -J"
	um info -J --probe --dev "$work/dev" --no-temp-node
	valid info "$work/out" "$n: info -J --probe (no node: untested)"
	um holders -J --dev "$work/dev"
	valid holders "$work/out" "$n: holders -J"
	um doctor -J --dev "$work/dev" --proc "$work/proc" --boot "$work/boot"
	valid doctor "$work/out" "$n: doctor -J"
	um bench -J --quick --dev "$work/dev"
	valid bench "$work/out" "$n: bench -J (a device it cannot open is an error entry)"
done
t=$top_srcdir/tests/fixtures/captured/drm-bochs.umockdev
if have_fixture "$t"; then
	"$UMOCKDEV_RUN" -d "$t" -- "$FBCLASSCTL" holders -J card0 fb0 --dev "$work/dev" >"$work/out" 2>/dev/null
	valid holders "$work/out" "holders -J card0: the cards array"
fi

valid_all

# The schema can fail: documents that break it are rejected.
printf '{"framebuffers": [{"name": "fb0", "maj:min": "29"}]}\n' >"$work/bad"
rejected list "$work/bad" "a malformed maj:min is rejected"
printf '{"framebuffers": [{"name": "fb0", "devnum": "29:0"}]}\n' >"$work/bad"
rejected list "$work/bad" "a key outside the vocabulary is rejected"
# One layout for every -J: list's old one (libsmartcols': three spaces,
# "},{") and bench's old one ("key":value) are rejected.
printf '{\n   "framebuffers": [\n      {\n         "name": "fb0"\n      },{\n         "name": "fb1"\n      }\n   ]\n}\n' >"$work/bad"
rejected list "$work/bad" "list: libsmartcols' layout is rejected"
printf '{\n  "framebuffers":[\n    {\n      "name":"fb0",\n      "error":"cannot open or map it: No such device"\n    }\n  ]\n}\n' >"$work/bad"
rejected bench "$work/bad" "bench: a layout without spaces is rejected"
printf '{\n  "findings": [\n  ],\n  "problems": 0\n}\n' >"$work/bad"
rejected doctor "$work/bad" "doctor: an empty array over two lines is rejected"
# list --drm: a card is no framebuffer; it goes in "cards", apart
printf '{"framebuffers": [{"name": "card0", "maj:min": "226:0", "kind": "drm"}]}\n' >"$work/bad"
rejected list "$work/bad" "list --drm: a card among the framebuffers is rejected"
# holders: a master that cannot be told is a sentence, not errno's words
printf '{"framebuffers": [], "processes_scanned": 1, "processes_uninspectable": 0, "cards": [{"name": "card0", "maj:min": "226:0", "processes": [], "render": null, "master": {"error": "No such file or directory"}}]}\n' >"$work/bad"
rejected holders "$work/bad" "holders: the master's error as strerror's words alone is rejected"
# list --connectors: the VM's answers (tests/vm/scenarios/kms.sh) are
# valid, a MODE without its refresh and a key of list's are not
"$py" -c 'import json, sys; print(json.dumps(json.loads(sys.argv[1]), indent=2))' \
	'{"connectors": [{"connector": "card0-Virtual-1", "card": "card0", "status": "connected", "monitor": null, "crtc": 36, "mode": "800x600@60.32", "scanout": "FB 40 800x600 XR24", "owner": "modetest[185]"}]}' >"$work/good"
n_queued=0 queued=()
rm -f "$work/queue"
valid list-connectors "$work/good" "list --connectors: modetest's row is valid"
valid_all
printf '{"connectors": [{"connector": "card0-Virtual-1", "crtc": 36, "mode": "800x600", "scanout": "fb0", "owner": "[fbcon]"}]}\n' >"$work/bad"
rejected list-connectors "$work/bad" "list --connectors: a MODE without its refresh is rejected"
printf '{"connectors": [{"connector": "card0-Virtual-1", "name": "fb0"}]}\n' >"$work/bad"
rejected list-connectors "$work/bad" "list --connectors: list's NAME is not its column"
# bench's flip: a rate or the reason it was skipped, never errno's words alone
printf '{"framebuffers": [{"name": "fb0", "format": "XRGB8888", "results": [], "validation": {"passed": true, "mismatches": 0, "bytes_checked": 0}, "flip": {"skipped": "Invalid argument"}, "restored": true, "restore": {"state": "yes", "mismatches": 0}}]}\n' >"$work/bad"
rejected bench "$work/bad" "bench: flip skipped with strerror's words alone is rejected"
# info --probe: a capability is yes, no or untested, always with a reason
cap='{"answer": "yes", "reason": "r"}'
pan='{"answer": "yes", "reason": "r", "xpanstep": 1, "ypanstep": 1, "ywrapstep": 0, "double_height": true}'
printf '{"framebuffers": [{"name": "fb0", "capabilities": {"pan": %s, "pan_display": %s, "vsync": {"answer": "maybe", "reason": "r", "refresh_hz": null}, "blank": %s}}]}\n' \
	"$pan" "$cap" "$cap" >"$work/bad"
rejected info "$work/bad" "info --probe: an answer other than yes, no, untested is rejected"
printf '{"framebuffers": [{"name": "fb0", "capabilities": {"pan": %s, "pan_display": {"answer": "no"}, "vsync": %s, "blank": %s}}]}\n' \
	"$pan" "$cap" "$cap" >"$work/bad"
rejected info "$work/bad" "info --probe: an answer without its reason is rejected"
printf '{"findings": [], "problems": 0, "extra": 1}\n' >"$work/bad"
rejected doctor "$work/bad" "doctor: an unknown member is rejected"
printf '{"seqnum": 1, "subsystem": "graphics", "action": "add", "name": "fb0", "devnum": "29:0", "present": true, "driver": null}\n' >"$work/bad"
rejected monitor "$work/bad" "monitor: devnum is not the vocabulary's key"
finish
