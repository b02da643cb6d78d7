#!/bin/bash
# fbclassctl metrics: promtool accepts what it writes on every captured
# and hand-made fixture (under umockdev), values from known trees, hostile
# sysfs and EDID strings valid and escaped, --output atomic and its
# errors; as root in a private mount namespace, a read-only directory and
# a full 4 kB tmpfs leave the old file whole.  (The atomic rename raced by
# a reader 1000 times is tests/unit/test-metrics.)
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

export LC_ALL=C.UTF-8
UMOCKDEV_RUN=${UMOCKDEV_RUN:-$(command -v umockdev-run)}
[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run not found (Debian package umockdev)"
command -v promtool >/dev/null || skip "promtool not found (Debian package prometheus)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
case $FBCLASSCTL in /*) ;; *) FBCLASSCTL=$PWD/$FBCLASSCTL ;; esac
fixdir=$top_srcdir/tests/fixtures

work=$(mktemp -d /tmp/fbclassctl-metrics.XXXXXX)
trap 'umount "$work/mnt" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/dev" "$work/mnt"

# metrics FIXTURE ARGS...: stdout to $work/out, stderr to $work/err, $rc
metrics() {
	local fixture=$1
	shift
	"$UMOCKDEV_RUN" -d "$fixture" -- "$FBCLASSCTL" metrics --dev "$work/dev" "$@" \
		>"$work/out" 2>"$work/err"
	rc=$?
}
# promtool_ok NAME FILE: promtool check metrics accepts FILE
promtool_ok() {
	if promtool check metrics <"$2" >"$work/prom" 2>&1; then ok "$1"; else
		not_ok "$1"
		sed 's/^/#   /' "$work/prom"
	fi
}
has_line() { # NAME LINE: a whole line of $work/out
	if grep -qxF -- "$2" "$work/out"; then ok "$1"; else
		not_ok "$1: no line '$2'"
		grep -v '^#' "$work/out" | sed 's/^/#   /' | head -n 40
	fi
}
no_line() { # NAME PATTERN (grep -E)
	if grep -qE -- "$2" "$work/out"; then
		not_ok "$1"
		grep -E -- "$2" "$work/out" | sed 's/^/#   /'
	else ok "$1"; fi
}

# ns_part: in a private mount namespace (as root): a read-only directory,
# and a tmpfs of 4 kB that the old file fills.
ns_part() {
	local f=$fixdir/captured/drm-bochs.umockdev m=$work/mnt
	mount -t tmpfs -o size=64k fbmetrics "$m" || { not_ok "mount a tmpfs"; return; }
	echo "old 1" >"$m/fb.prom"
	mount -o remount,ro "$m"
	metrics "$f" -o "$m/fb.prom"
	expect_eq "read-only directory: exit 1" "$rc" 1
	expect_eq "read-only directory: names the file and the cause" "$(cat "$work/err")" \
		"fbclassctl: $m/fb.prom: cannot create a temporary file beside it: Read-only file system"
	expect_eq "read-only directory: the old file whole" "$(cat "$m/fb.prom")" "old 1"
	umount "$m"
	mount -t tmpfs -o size=4k fbmetrics "$m" || { not_ok "mount a 4 kB tmpfs"; return; }
	echo "old 2" >"$m/fb.prom"
	metrics "$f" -o "$m/fb.prom"
	expect_eq "full disk: exit 1" "$rc" 1
	if grep -qE "^fbclassctl: $m/fb.prom: cannot write [0-9]+ bytes: No space left on device \(the old file is kept\)$" "$work/err"; then
		ok "full disk: names the file and the cause"
	else
		not_ok "full disk: names the file and the cause"
		sed 's/^/#   /' "$work/err"
	fi
	expect_eq "full disk: the old file whole" "$(cat "$m/fb.prom")" "old 2"
	expect_eq "full disk: no temporary file left" "$(ls -A "$m")" fb.prom
	umount "$m"
}
if [ "${1:-}" = --ns-only ]; then
	ns_part
	finish
	exit
fi

# The oracle can fail: a second TYPE line, a raw control byte's neighbour
# (an invalid escape) are refused.
printf '# TYPE a gauge\na 1\n# TYPE a gauge\na{x="1"} 2\n' >"$work/bad1"
printf 'a{x="\\x1b"} 1\n' >"$work/bad2"
check "promtool refuses a family printed twice" sh -c '! promtool check metrics <"$1" >/dev/null 2>&1' _ "$work/bad1"
check "promtool refuses an escape the format lacks" sh -c '! promtool check metrics <"$1" >/dev/null 2>&1' _ "$work/bad2"

# ---- every fixture ----
n=0
for f in "$fixdir"/captured/*.umockdev "$fixdir"/captured-6.12/*.umockdev "$fixdir"/handmade/*.umockdev; do
	name=${f#"$fixdir"/}
	metrics "$f"
	if [ "$rc" -ne 0 ]; then
		not_ok "$name: metrics exits $rc"
		sed 's/^/#   /' "$work/err"
		continue
	fi
	n=$((n + 1))
	promtool_ok "$name: promtool check metrics" "$work/out"
done
check "metrics ran on more than 40 fixtures ($n)" test "$n" -gt 40

# ---- values from known trees ----
metrics "$fixdir/captured/drm-bochs.umockdev"
c='card="card0",connector="Virtual-1"'
has_line "drm-bochs: connected" "fbclassctl_connector_status{$c,status=\"connected\"} 1"
has_line "drm-bochs: not disconnected" "fbclassctl_connector_status{$c,status=\"disconnected\"} 0"
has_line "drm-bochs: enabled" "fbclassctl_connector_enabled{$c} 1"
has_line "drm-bochs: DPMS On" "fbclassctl_connector_dpms{$c,dpms=\"On\"} 1"
has_line "drm-bochs: DPMS not Off" "fbclassctl_connector_dpms{$c,dpms=\"Off\"} 0"
has_line "drm-bochs: 15 modes" "fbclassctl_connector_modes{$c} 15"
has_line "drm-bochs: EDID valid" "fbclassctl_connector_edid_valid{$c} 1"
has_line "drm-bochs: the monitor" \
	"fbclassctl_connector_monitor_info{$c,vendor=\"RHT\",product=\"0x1234\",serial=\"\",name=\"QEMU Monitor\"} 1"
has_line "drm-bochs: fb0's kind, driver, and mode from sysfs's one line of modes" \
	'fbclassctl_fb_info{fb="fb0",id="bochs-drmdrmfb",kind="drm",driver="bochs-drm",format="",mode="1280x800"} 1'
has_line "drm-bochs: no node in an empty dev dir" "fbclassctl_fb_node_correct{fb=\"fb0\",node=\"$work/dev/fb0\"} 0"
has_line "drm-bochs: doctor counts the missing node" 'fbclassctl_doctor_problems{check="node"} 1'
has_line "drm-bochs: one framebuffer" "fbclassctl_framebuffers 1"
has_line "drm-bochs: the version" "fbclassctl_build_info{version=\"$("$FBCLASSCTL" --version | sed -n '1s/^fbclassctl //p')\"} 1"
check "no timestamps: every sample line is NAME{...} VALUE" \
	sh -c '! grep -v "^#" "$1" | grep -vE "^[a-z_]+(\{.*\})? -?[0-9]+$"' _ "$work/out"
metrics "$fixdir/captured/drm-bochs-off.umockdev"
has_line "drm-bochs-off: disconnected" "fbclassctl_connector_status{$c,status=\"disconnected\"} 1"
has_line "drm-bochs-off: not connected" "fbclassctl_connector_status{$c,status=\"connected\"} 0"
no_line "drm-bochs-off: no monitor" '^fbclassctl_connector_monitor_info\{'
metrics "$fixdir/handmade/drm-edid-bad-checksum.umockdev"
has_line "bad checksum: EDID not valid" "fbclassctl_connector_edid_valid{$c} 0"
metrics "$fixdir/handmade/drm-no-status.umockdev"
has_line "no status attribute: unreadable" "fbclassctl_connector_status{$c,status=\"unreadable\"} 1"
metrics "$fixdir/captured/vfb.umockdev"
expect_eq "vfb: no DRM card, no connector" "$(grep -c '^fbclassctl_connector' "$work/out")" 0

# ---- hostile strings ----
# valid_text NAME: UTF-8 throughout, and no control byte but newlines
valid_text() {
	if iconv -f UTF-8 -t UTF-8 "$work/out" >/dev/null 2>&1 &&
		! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$work/out"; then
		ok "$1: valid UTF-8, no control byte"
	else
		not_ok "$1: valid UTF-8, no control byte"
		od -c "$work/out" | grep -E '\\[0-9]{3}|\\t|\\r' | head -n 5 | sed 's/^/#   /'
	fi
}
metrics "$fixdir/handmade/hostile.umockdev"
expect_eq "hostile: metrics exits 0" "$rc" 0
promtool_ok "hostile: promtool check metrics" "$work/out"
valid_text "hostile"
has_line "hostile: fb0's id: UTF-8 kept, bad bytes and a control as \\xNN" \
	'fbclassctl_fb_info{fb="fb0",id="café \\xff\\xfe\\x01x",kind="fbdev",driver="",format="",mode=""} 1'
check "hostile: a long id cut at 256 bytes" \
	grep -qE '^fbclassctl_fb_info\{fb="fb1",id="N{256}\.\.\."' "$work/out"

# A DRM tree with hostile words: drm-bochs with a connector named with a
# quote, a backslash and ESC, and an EDID whose monitor name holds a quote
# and a backslash ("Q"\U Monitor": printable ASCII, which the decoder
# keeps; the checksum made right).
hex=$(sed -n 's/^H: edid=//p' "$fixdir/captured/drm-bochs.umockdev")
# bytes 114, 115: 'E' 45 -> '"' 22, 'M' 4D -> '\' 5C; byte 127: the checksum
sum=$(((0x${hex:254:2} + 0x45 - 0x22 + 0x4D - 0x5C) & 0xff))
hex2=${hex:0:228}225C${hex:232:22}$(printf '%02X' "$sum")${hex:256}
check "the hostile EDID: the captured one but for 3 bytes" \
	test "${#hex2}" = "${#hex}" -a "${hex:226:2}${hex:228:4}${hex:232:2}" = 51454D55 \
	-a "${hex2:226:8}" = 51225C55
sed -e "s/^H: edid=.*/H: edid=$hex2/" -e $'s/card0-Virtual-1/card0-V"i\\\\\x1bt-1/g' \
	"$fixdir/captured/drm-bochs.umockdev" >"$work/hostile-drm.umockdev"
metrics "$work/hostile-drm.umockdev"
expect_eq "hostile DRM: metrics exits 0" "$rc" 0
promtool_ok "hostile DRM: promtool check metrics" "$work/out"
valid_text "hostile DRM"
ch='card="card0",connector="V\"i\\\\x1bt-1"'
has_line "hostile DRM: the connector's quote and backslash escaped, ESC as \\x1b" \
	"fbclassctl_connector_status{$ch,status=\"connected\"} 1"
has_line "hostile DRM: the monitor's quote and backslash escaped" \
	"fbclassctl_connector_monitor_info{$ch,vendor=\"RHT\",product=\"0x1234\",serial=\"\",name=\"Q\\\"\\\\U Monitor\"} 1"
has_line "hostile DRM: the EDID is still valid" "fbclassctl_connector_edid_valid{$ch} 1"

# ---- KMS: link-status, CRTC, active mode, shown ----
# tests/unit/metrics-kms is metrics with each card's KMS state read from
# the answers captured on bochs in the VM (tests/unit/kms/NAME, the same
# answers tests/unit/test-kms reads) instead of /dev/dri, under umockdev
# on the captured bochs tree.  Expected: drm_info's CRTC_ID and mode
# (107300 kHz / (1728 x 828) = 74.994 Hz; 40000 kHz / (1056 x 628) =
# 60.32 Hz) and debugfs' "allocated by" of the FB on the primary plane.
mk=${top_builddir:-$top_srcdir/_build}/tests/unit/metrics-kms
# kms NAME ARGS...: metrics-kms on drm-bochs, as metrics above
kms() {
	top_srcdir=${kms_top:-$top_srcdir} "$UMOCKDEV_RUN" -d "$fixdir/captured/drm-bochs.umockdev" -- \
		"$mk" "$@" --dev "$work/dev" >"$work/out" 2>"$work/err"
	rc=$?
}
if [ ! -x "$mk" ]; then
	skip_part "metrics with captured KMS answers" "$mk not built (make check builds it)"
else
	kms bochs-6.12-console
	expect_eq "console: exits 0" "$rc" 0
	promtool_ok "console: promtool check metrics" "$work/out"
	has_line "console: KMS read" 'fbclassctl_kms_scan_success{card="card0",reason=""} 1'
	has_line "console: fb0 is shown (fbcon's FB on the primary plane)" 'fbclassctl_fb_shown{fb="fb0"} 1'
	has_line "console: that can be told" 'fbclassctl_fb_shown_known{fb="fb0",reason=""} 1'
	has_line "console: link-status good" "fbclassctl_connector_link_status{$c,link_status=\"good\"} 1"
	has_line "console: link-status not bad" "fbclassctl_connector_link_status{$c,link_status=\"bad\"} 0"
	has_line "console: link-status not unknown" "fbclassctl_connector_link_status{$c,link_status=\"unknown\"} 0"
	has_line "console: CRTC 36, drm_info's CRTC_ID" "fbclassctl_connector_crtc{$c} 36"
	has_line "console: the mode 1280x800 at 74.99 Hz" \
		"fbclassctl_connector_mode_info{$c,mode=\"1280x800@74.99\",width=\"1280\",height=\"800\",refresh=\"74.99\"} 1"
	# the man page lists every family metrics prints (.B NAME or NAME{...})
	undocumented=
	for fam in $(sed -n 's/^# TYPE \([a-z_]*\) .*/\1/p' "$work/out"); do
		grep -qE "^\.B $fam(\{.*\})?\$" "$top_srcdir/man/fbclassctl.8" ||
			undocumented="$undocumented $fam"
	done
	expect_eq "man/fbclassctl.8 documents every metric family" "${undocumented# }" ""
	kms bochs-6.12-modetest
	promtool_ok "modetest: promtool check metrics" "$work/out"
	has_line "modetest: fb0 is not shown (modetest's FB is)" 'fbclassctl_fb_shown{fb="fb0"} 0'
	has_line "modetest: that can be told" 'fbclassctl_fb_shown_known{fb="fb0",reason=""} 1'
	has_line "modetest: the mode 800x600 at 60.32 Hz" \
		"fbclassctl_connector_mode_info{$c,mode=\"800x600@60.32\",width=\"800\",height=\"600\",refresh=\"60.32\"} 1"
	kms bochs-6.1-modetest
	has_line "6.1 modetest: CRTC 35, drm_info's CRTC_ID" "fbclassctl_connector_crtc{$c} 35"
	has_line "6.1 modetest: fb0 is not shown" 'fbclassctl_fb_shown{fb="fb0"} 0'
	kms bochs-6.12-console --link-bad
	has_line "link-status Bad: bad" "fbclassctl_connector_link_status{$c,link_status=\"bad\"} 1"
	has_line "link-status Bad: not good" "fbclassctl_connector_link_status{$c,link_status=\"good\"} 0"
	kms bochs-6.12-console --no-debugfs
	expect_eq "no debugfs: exits 0" "$rc" 0
	promtool_ok "no debugfs: promtool check metrics" "$work/out"
	no_line "no debugfs: no shown sample (it cannot be told)" '^fbclassctl_fb_shown\{'
	has_line "no debugfs: shown not known, and why" \
		'fbclassctl_fb_shown_known{fb="fb0",reason="cannot read /nonexistent/framebuffer: No such file (debugfs not mounted?)"} 0'
	has_line "no debugfs: the mode is still told" \
		"fbclassctl_connector_mode_info{$c,mode=\"1280x800@74.99\",width=\"1280\",height=\"800\",refresh=\"74.99\"} 1"
	kms none
	expect_eq "KMS unreadable: exits 0" "$rc" 0
	promtool_ok "KMS unreadable: promtool check metrics" "$work/out"
	has_line "KMS unreadable: said, with the reason" \
		'fbclassctl_kms_scan_success{card="card0",reason="libdrm not found"} 0'
	has_line "KMS unreadable: shown not known, and why" \
		'fbclassctl_fb_shown_known{fb="fb0",reason="libdrm not found"} 0'
	no_line "KMS unreadable: no shown, CRTC or mode sample" \
		'^fbclassctl_(fb_shown|connector_crtc|connector_mode_info)\{'
	has_line "KMS unreadable: link-status unknown" \
		"fbclassctl_connector_link_status{$c,link_status=\"unknown\"} 1"
	has_line "KMS unreadable: sysfs' status still there" \
		"fbclassctl_connector_status{$c,status=\"connected\"} 1"
	# an owner's comm from debugfs with a quote, a backslash and ESC: the
	# reason label escaped
	kms_top=$work/top
	mkdir -p "$kms_top/tests/unit/kms/hostile"
	cp "$top_srcdir/tests/unit/kms/bochs-6.12-modetest/"* "$kms_top/tests/unit/kms/hostile/"
	sed -i $'s/allocated by = modetest/allocated by = m"o\\\\\x1bd/' "$kms_top/tests/unit/kms/hostile/framebuffer"
	kms hostile
	unset kms_top
	expect_eq "hostile owner: exits 0" "$rc" 0
	promtool_ok "hostile owner: promtool check metrics" "$work/out"
	valid_text "hostile owner"
	has_line "hostile owner: the comm's quote and backslash escaped, ESC as \\x1b" \
		'fbclassctl_fb_shown_known{fb="fb0",reason="no process named m\"o\\\\x1bd has the card open (it closed it?)"} 0'
fi

# ---- --output ----
f=$fixdir/captured/drm-bochs.umockdev
metrics "$f"
cp "$work/out" "$work/stdout.prom"
mkdir "$work/tf"
echo "old" >"$work/tf/fb.prom"
metrics "$f" --output "$work/tf/fb.prom"
expect_eq "--output: exit 0" "$rc" 0
expect_eq "--output: nothing on stdout" "$(cat "$work/out")" ""
check "--output: the file is what stdout gets" cmp "$work/stdout.prom" "$work/tf/fb.prom"
expect_eq "--output: mode 0644" "$(stat -c %a "$work/tf/fb.prom")" 644
expect_eq "--output: no temporary file left" "$(ls -A "$work/tf")" fb.prom
metrics "$f" -o "$work/none/fb.prom"
expect_eq "--output in a missing directory: exit 1" "$rc" 1
expect_eq "--output in a missing directory: names the file and the cause" "$(cat "$work/err")" \
	"fbclassctl: $work/none/fb.prom: cannot create a temporary file beside it: No such file or directory"
metrics "$f" -o "$work/tf/"
expect_eq "--output naming a directory: exit 1" "$rc" 1
metrics "$f" -o ""
expect_eq "--output '': usage error" "$rc" 2
metrics "$f" extra
expect_eq "an operand: usage error" "$rc" 2

# ---- as root: a read-only directory, a full disk ----
if [ "$(id -u)" != 0 ]; then
	skip_part "read-only and full --output directories" "needs root (mount)"
elif [ -z "${FBMETRICS_INNER:-}" ] && ! unshare --mount --propagation private true 2>/dev/null; then
	skip_part "read-only and full --output directories" "unshare --mount does not work here"
elif [ -z "${FBMETRICS_INNER:-}" ]; then
	FBMETRICS_INNER=1 unshare --mount --propagation private bash "$0" --ns-only >"$work/ns.log"
	ns_rc=$?
	cat "$work/ns.log"
	if [ "$ns_rc" -eq 0 ] && grep -q '^ok - full disk: the old file whole' "$work/ns.log"; then
		ok "the namespace part passed"
	else
		not_ok "the namespace part failed (exit $ns_rc)"
	fi
fi
finish
