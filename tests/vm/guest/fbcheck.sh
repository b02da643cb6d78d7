# fbclassctl against the oracle fbset, in the guest (busybox sh + jq).
# Sourced by /init after guest-lib.sh.
# shellcheck shell=sh

# fbset_norm FILE: `fbset -i` output as sorted KEY=VALUE lines.
fbset_norm() {
	awk '
	$1 == "geometry" { print "geometry=" $2 " " $3 " " $4 " " $5 " " $6 }
	$1 == "timings"  { print "timings=" $2 " " $3 " " $4 " " $5 " " $6 " " $7 " " $8 }
	$1 == "rgba"     { print "rgba=" $2 }
	$1 == "nonstd"   { print "nonstd=" $2 }
	$1 ~ /^(hsync|vsync|csync|gsync|extsync|bcast|laced|double|accel|grayscale)$/ && NF == 2 {
		flag[$1] = 1
	}
	/^    [A-Za-z][A-Za-z ]*: / {
		key = $0; sub(/^ +/, "", key); sub(/ *:.*/, "", key)
		val = $0; sub(/^[^:]*: /, "", val)
		gsub(/ /, "_", key)
		print "fix." tolower(key) "=" val
	}
	END {
		n = split("hsync vsync csync gsync extsync bcast laced double accel grayscale", f, " ")
		for (i = 1; i <= n; i++) print "flag." f[i] "=" (f[i] in flag ? 1 : 0)
	}' "$1" | sort
}

# json_raw FILE KEY: the literal number text of "KEY" (jq 1.6 rounds
# 64-bit values through a double).
json_raw() {
	grep -o "\"$2\" *: *-\?[0-9]*" "$1" | head -n1 | sed 's/.*: *//'
}

# p_fmt N: how Debian's fbset prints an address (like %#lx: 0 is "0").
p_fmt() {
	case $1 in
	0) echo 0 ;;
	'' | *[!0-9]*) echo "(not a number in info -J: '$1')" ;;
	*) printf '0x%x\n' "$1" ;;
	esac
}

# info_norm FILE: `fbclassctl info -J fbN` as the same KEY=VALUE lines.
info_norm() {
	_smem=$(json_raw "$1" smem_start)
	_mmio=$(json_raw "$1" mmio_start)
	{
		jq -r '.framebuffers[0] as $f | $f.var as $v | $f.fix as $x |
		def type_name:
			if . == 0 then "PACKED PIXELS" elif . == 1 then "PLANES"
			elif . == 2 then "INTERLEAVED PLANES (\($x.type_aux) bytes interleave)"
			else "other(\(.))" end;
		def visual_name:
			["MONO01", "MONO10", "TRUECOLOR", "PSEUDOCOLOR", "DIRECTCOLOR",
			 "STATIC PSEUDOCOLOR"][.] // "\(.) (UNKNOWN)";
		def b($s): if $s then 1 else 0 end;
		"geometry=\($v.xres) \($v.yres) \($v.xres_virtual) \($v.yres_virtual) \($v.bits_per_pixel)",
		"timings=\($v.pixclock) \($v.left_margin) \($v.right_margin) \($v.upper_margin) \($v.lower_margin) \($v.hsync_len) \($v.vsync_len)",
		"rgba=\($v.red.length)/\($v.red.offset),\($v.green.length)/\($v.green.offset),\($v.blue.length)/\($v.blue.offset),\($v.transp.length)/\($v.transp.offset)",
		(if $v.nonstd != 0 then "nonstd=\($v.nonstd)" else empty end),
		"flag.hsync=\(b($v.sync % 2 == 1))",
		"flag.vsync=\(b(($v.sync / 2 | floor) % 2 == 1))",
		"flag.extsync=\(b(($v.sync / 4 | floor) % 2 == 1))",
		"flag.csync=\(b(($v.sync / 8 | floor) % 2 == 1))",
		"flag.bcast=\(b(($v.sync / 16 | floor) % 2 == 1))",
		"flag.gsync=\(b(($v.sync / 32 | floor) % 2 == 1))",
		"flag.laced=\(b($v.vmode % 256 == 1))",
		"flag.double=\(b($v.vmode % 256 == 2))",
		"flag.accel=\(b($v.accel_flags != 0))",
		"flag.grayscale=\(b($v.grayscale != 0))",
		"fix.name=\($x.id)",
		"fix.size=\($x.smem_len)",
		"fix.type=\($x.type | type_name)",
		"fix.visual=\($x.visual | visual_name)",
		"fix.xpanstep=\($x.xpanstep)",
		"fix.ypanstep=\($x.ypanstep)",
		"fix.ywrapstep=\($x.ywrapstep)",
		"fix.linelength=\($x.line_length)",
		(if $x.mmio_len != 0 then "fix.mmio_size=\($x.mmio_len)" else empty end),
		(if $x.accel == 0 then "fix.accelerator=No" else "fix.accel-id=\($x.accel)" end)
		' "$1" || return 1
		echo "fix.address=$(p_fmt "$_smem")"
		if [ "$(jq '.framebuffers[0].fix.mmio_len' "$1")" != 0 ]; then
			echo "fix.mmio_address=$(p_fmt "$_mmio")"
		fi
	} | sort
}

# fb_vs_fbset fbN: fbclassctl info -J and --fbset against fbset, 3 TAP lines.
fb_vs_fbset() {
	_fb=$1
	fbset -fb "/dev/$_fb" -i >"/tmp/$_fb.fbset-i" 2>&1
	fbclassctl info -J "$_fb" >"/tmp/$_fb.json" 2>"/tmp/$_fb.json.err"
	# jq 1.6 exits 0 on empty input even with -e: compare the output
	_shape=$(jq '.framebuffers[0] | (.var | type) == "object" and (.fix | type) == "object"' \
		"/tmp/$_fb.json" 2>/dev/null)
	if [ "$_shape" = true ]; then
		t_ok "$_fb: info -J has var and fix"
	else
		t_not_ok "$_fb: info -J has var and fix"
		t_diag_stdin <"/tmp/$_fb.json.err"
		head -c 2000 "/tmp/$_fb.json" | t_diag_stdin
	fi
	fbset_norm "/tmp/$_fb.fbset-i" >"/tmp/$_fb.want"
	info_norm "/tmp/$_fb.json" >"/tmp/$_fb.got" 2>&1
	# Accelerator names other than "No" are fbset's own table; an accel
	# id then only has to be not "No" there.
	if grep -q '^fix.accel-id=' "/tmp/$_fb.got"; then
		sed -i '/^fix.accel-id=/d' "/tmp/$_fb.got"
		grep -q '^fix.accelerator=No$' "/tmp/$_fb.want" ||
			sed -i '/^fix.accelerator=/d' "/tmp/$_fb.want"
	fi
	if [ -s "/tmp/$_fb.want" ] && diff -u "/tmp/$_fb.want" "/tmp/$_fb.got" >"/tmp/$_fb.diff"; then
		t_ok "$_fb: info -J agrees with fbset -i ($(wc -l <"/tmp/$_fb.want") values)"
	else
		t_not_ok "$_fb: info -J agrees with fbset -i"
		t_diag "--- fbset -i, +++ fbclassctl info -J"
		t_diag_stdin <"/tmp/$_fb.diff"
	fi
	fbset -fb "/dev/$_fb" -s >"/tmp/$_fb.fbset-s" 2>&1
	fbclassctl info --fbset "$_fb" >"/tmp/$_fb.info-fbset" 2>&1
	if cmp -s "/tmp/$_fb.fbset-s" "/tmp/$_fb.info-fbset"; then
		t_ok "$_fb: info --fbset equals fbset -s byte for byte"
	else
		t_not_ok "$_fb: info --fbset equals fbset -s byte for byte"
		diff -u "/tmp/$_fb.fbset-s" "/tmp/$_fb.info-fbset" | t_diag_stdin
	fi
}

# fb_list_field fbN KEY: one value of `fbclassctl list -J --output-all`.
fb_list_field() {
	fbclassctl list -J --output-all 2>/tmp/list.err |
		jq -r --arg n "$1" --arg k "$2" '.framebuffers[] | select(.name == $n) | .[$k] // "null"'
	[ -s /tmp/list.err ] && sed 's/^/# list: /' /tmp/list.err >&2
	return 0
}

# fb_info_field fbN JQ: one value of `fbclassctl info -J fbN`, e.g.
# '.path' or '.parents[0].driver' (relative to the device object).
fb_info_field() {
	fbclassctl info -J "$1" 2>/tmp/info.err | jq -r ".framebuffers[0] | $2"
	[ -s /tmp/info.err ] && sed 's/^/# info: /' /tmp/info.err >&2
	return 0
}

# edid_name FILE: the monitor name of an EDID (the base block's descriptor
# tagged 0xfc, up to its 0x0a), read by the shell; nothing when there is none
edid_name() {
	od -An -v -tu1 "$1" 2>/dev/null | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		if (n < 128) exit
		for (d = 54; d <= 108; d += 18) {
			if (b[d] || b[d + 1] || b[d + 2] || b[d + 3] != 252) continue
			s = ""
			for (i = d + 5; i < d + 18 && b[i] != 10; i++) s = s sprintf("%c", b[i])
			print s
			exit
		}
	}'
}
