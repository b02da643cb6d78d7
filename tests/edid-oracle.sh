#!/bin/bash
# The EDID decoder (src/edid.c) against an independent oracle, edid-decode,
# on every blob in tests/edid/: qemu's EDIDs captured in the VM and blobs
# made byte by byte (tests/edid/make-blobs.sh).  For each blob:
# - every field edid-decode shows (vendor, product, serial number, week,
#   year, version, size, name, serial string, preferred mode, pixel clock,
#   refresh, extension count, checksum verdict) equals ours, except the
#   fields tests/edid/expected.txt says we must leave unknown, which must
#   be unknown;
# - our problems are exactly the ones expected.txt lists, the return value
#   and the trusted verdict follow from them, and edid-decode prints the
#   strings expected.txt gives (its own verdict on the same fault);
# - a blob we trust has no failure in edid-decode's base block;
# - the decoder does not crash (edid-fields exits 0 on every blob).
set -u
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
export LC_ALL=C

edid_dir=$top_srcdir/tests/edid
fields=${EDID_FIELDS:-$top_builddir/tests/unit/edid-fields}
command -v edid-decode >/dev/null || skip "edid-decode not found (Debian package edid-decode)"
[ -x "$fields" ] || skip "$fields not built (make check builds it)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

compared="checksum version vendor product serial_number week year model_year size_cm name serial_text preferred pixel_clock_khz refresh_mhz extensions"

# decode_oracle BLOB > key=value: the same keys as edid-fields, from
# edid-decode's text.  "unknown" where it shows nothing.
decode_oracle() {
	edid-decode --skip-hex-dump --skip-sha "$1" 2>&1 | awk '
	function quoted(s) { sub(/^[^'\'']*'\''/, "", s); sub(/'\''$/, "", s); return s }
	BEGIN { checksum = version = vendor = product = year = size = "unknown"
		name = serial_text = preferred = clock = hz = "unknown"
		serial = week = "none"; model_year = "no"; ext = 0 }
	/^Block 0, Base EDID:/ { base = 1; seen = 1; next }
	!base { next }
	/^  EDID Structure Version & Revision: / { version = $NF }
	/^    Manufacturer: / { vendor = substr($0, length("    Manufacturer: ") + 1) }
	/^    Model: / { product = $2 }
	/^    Serial Number: / { serial = $3 }
	/^    Made in: week / { week = $4; year = $6 }
	/^    Made in: [0-9]+$/ { year = $3 }
	/^    Model year: / { year = $3; model_year = "yes" }
	/^    Maximum image size: / { size = $4 "x" $7 }
	/^    Display Product Name: / && name == "unknown" { name = quoted($0) }
	/^    Display Product Serial Number: / && serial_text == "unknown" { serial_text = quoted($0) }
	/^    DTD 1: / {
		preferred = $3; hz = $4
		for (i = 5; i <= NF; i++) if ($i == "MHz") clock = sprintf("%.0f", $(i - 1) * 1000)
	}
	/^  Extension blocks: / { ext = $3 }
	/^Checksum: / { checksum = /should be/ ? "bad" : "ok"; base = 0 }
	END {
		if (!seen) exit
		print "checksum=" checksum; print "version=" version; print "vendor=" vendor
		print "product=" product; print "serial_number=" serial; print "week=" week
		print "year=" year; print "model_year=" model_year; print "size_cm=" size
		print "name=" name; print "serial_text=" serial_text; print "preferred=" preferred
		print "pixel_clock_khz=" clock; print "refresh_hz=" hz; print "extensions=" ext
	}'
}

# base_failures BLOB: edid-decode's failures outside the extension blocks.
base_failures() {
	edid-decode --skip-hex-dump --skip-sha -c "$1" 2>&1 | awk '
	/^Failures:$/ { on = 1; next }
	/^EDID conformity:/ { on = 0 }
	on && /^[^ ]/ { ext = /^Block [1-9]/ }
	on && /^ / && !ext { print }'
}

value() { sed -n "s/^$1=//p" "$2" | head -n 1; }

# check_blob NAME PROBLEMS UNKNOWN STRINGS...
check_blob() {
	local name=$1 want_problems=$2 unknown=$3 blob=$edid_dir/$1.bin
	local ours=$work/$name.ours oracle=$work/$name.oracle dec=$work/$name.dec bad=0
	local rc key got want len part
	shift 3
	if [ ! -f "$blob" ]; then
		not_ok "$name: $blob is missing (listed in expected.txt)"
		return
	fi
	"$fields" "$blob" >"$ours" 2>"$work/$name.err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		not_ok "$name: edid-fields exited $rc"
		sed 's/^/#   /' "$work/$name.err"
		return
	fi
	edid-decode --skip-hex-dump --skip-sha -c "$blob" >"$dec" 2>&1

	# the problems, exactly, and what follows from them
	got=$(value problems "$ours")
	if [ "$got" != "$want_problems" ]; then
		echo "#   problems: ours '$got', expected '$want_problems'"
		bad=1
	fi
	case $want_problems in
	none) want="ok yes" ;;
	empty) want="ENODATA no" ;;
	*) want="EBADMSG no" ;;
	esac
	got="$(value return "$ours") $(value trusted "$ours")"
	if [ "$got" != "$want" ]; then
		echo "#   return and trusted: ours '$got', expected '$want'"
		bad=1
	fi
	for part in "$@"; do
		if ! grep -qF -- "$part" "$dec"; then
			echo "#   edid-decode does not say: $part"
			bad=1
		fi
	done
	if [ "$want_problems" = none ] && [ -n "$(base_failures "$blob")" ]; then
		echo "#   we trust it, edid-decode fails its base block:"
		base_failures "$blob" | sed 's/^/#     /'
		bad=1
	fi

	# the fields: edid-decode refuses a length that is not whole blocks,
	# so the whole blocks are its input then
	decode_oracle "$blob" >"$oracle"
	if [ ! -s "$oracle" ]; then
		len=$(($(wc -c <"$blob") / 128 * 128))
		if [ "$len" -gt 0 ]; then
			head -c "$len" "$blob" >"$work/$name.whole"
			decode_oracle "$work/$name.whole" >"$oracle"
		fi
	fi
	if [ "$unknown" = all ]; then
		[ "$(value decoded "$ours")" = no ] || { echo "#   decoded, expected not"; bad=1; }
	else
		[ "$(value decoded "$ours")" = yes ] || { echo "#   not decoded"; bad=1; }
	fi
	for key in $compared; do
		got=$(value "$key" "$ours")
		if [ "$unknown" = all ] && [ "$key" != checksum ] ||
			case ",$unknown," in *",$key,"*) true ;; *) false ;; esac; then
			want=unknown
		elif [ ! -s "$oracle" ]; then
			want=unknown # edid-decode shows nothing either
		elif [ "$key" = refresh_mhz ]; then
			want=$(value refresh_hz "$oracle")
			# edid-decode prints Hz to 6 decimals; ours is mHz rounded
			if [ "$want" != unknown ] && [ "$got" != unknown ] &&
				awk -v a="$got" -v b="$want" 'BEGIN { d = a - b * 1000; exit !(d <= 0.5005 && d >= -0.5005) }'; then
				continue
			fi
			[ "$want" = unknown ] || want="$want Hz"
		else
			want=$(value "$key" "$oracle")
		fi
		if [ "$got" != "$want" ]; then
			echo "#   $key: ours '$got', edid-decode '$want'"
			bad=1
		fi
	done
	if [ "$bad" -eq 0 ]; then
		ok "$name: $want_problems"
	else
		not_ok "$name"
	fi
}

listed=" "
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	# split on " | "
	IFS=$'\x01' read -r -a cols <<<"${line// | /$'\x01'}"
	listed="$listed${cols[0]} "
	check_blob "${cols[@]}"
done <"$edid_dir/expected.txt"

# every blob is checked: a new one without a line would pass unseen
for blob in "$edid_dir"/*.bin; do
	name=$(basename "$blob" .bin)
	case $listed in
	*" $name "*) ;;
	*) not_ok "$name.bin has no line in expected.txt" ;;
	esac
done

# The oracle itself: a changed field must be seen (the comparison can fail).
cp "$edid_dir/monitor.bin" "$work/mutant.bin"
printf 'E' | dd of="$work/mutant.bin" bs=1 seek=98 conv=notrunc 2>/dev/null # 'DELL' -> 'DELE'
"$fields" "$work/mutant.bin" >"$work/mutant.ours"
decode_oracle "$work/mutant.bin" >"$work/mutant.oracle"
if [ "$(value name "$work/mutant.oracle")" = "DELE U2415" ] &&
	[ "$(value name "$work/mutant.ours")" = "DELE U2415" ] &&
	[ "$(value checksum "$work/mutant.ours")" = bad ] &&
	[ "$(value checksum "$work/mutant.oracle")" = bad ]; then
	ok "a changed byte changes both views (name, checksum)"
else
	not_ok "a changed byte changes both views"
	paste "$work/mutant.ours" "$work/mutant.oracle" | sed 's/^/#   /'
fi

finish
