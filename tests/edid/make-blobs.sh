#!/bin/bash
# Bytes travel as one word of hex per byte, split on purpose:
# shellcheck disable=SC2048,SC2086,SC2116
# make-blobs.sh [DIR]: write the hand-made EDID blobs of tests/edid/ byte
# by byte (default DIR: the directory of this script).  Not run by the
# tests: the .bin files are committed, and what they must decode to comes
# from edid-decode (tests/edid-oracle.sh), or, for the hostile ones, from
# how they are built here (tests/edid/expected.txt).
#
# The qemu-*.bin blobs are not made here: tests/vm/capture/ records them
# from qemu's own EDID generator, read in the guest from sysfs.
set -eu
dir=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
mkdir -p "$dir"

# hexstr TEXT: the ASCII bytes of TEXT as hex.
hexstr() {
	printf '%s' "$1" | od -An -v -tx1 | tr -s ' \n' '  '
}

# vendor ABC: the manufacturer id, three 5-bit letters (A=1), big endian.
vendor() {
	local a b c v
	a=$(($(printf '%d' "'${1:0:1}") - 64))
	b=$(($(printf '%d' "'${1:1:1}") - 64))
	c=$(($(printf '%d' "'${1:2:1}") - 64))
	v=$(((a << 10) | (b << 5) | c))
	printf '%02x %02x' $((v >> 8)) $((v & 255))
}

# le16 N, le32 N: little-endian fields.
le16() { printf '%02x %02x' $(($1 & 255)) $((($1 >> 8) & 255)); }
le32() { printf '%02x %02x %02x %02x' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)); }

# text_descriptor TAG TEXT: a display descriptor holding up to 13 bytes
# of TEXT, terminated by 0x0a and padded with spaces when shorter, as
# EDID 1.4 section 3.10.3 says.
text_descriptor() {
	local tag=$1 text=$2 hex pad n
	hex=$(hexstr "$text")
	n=${#text}
	pad=
	if [ "$n" -lt 13 ]; then
		pad=0a
		while [ $((n + 1)) -lt 13 ]; do
			pad="$pad 20"
			n=$((n + 1))
		done
	fi
	echo "00 00 00 $tag 00 $hex $pad"
}

# raw_descriptor TAG HEX...: a display descriptor with 13 bytes as given.
raw_descriptor() {
	local tag=$1
	shift
	echo "00 00 00 $tag 00 $*"
}

# dtd CLOCK_10KHZ HACT HBLANK VACT VBLANK HFP HSYNC VFP VSYNC HMM VMM FLAGS:
# an 18-byte detailed timing descriptor (EDID 1.4 section 3.10.2).
dtd() {
	local clk=$1 ha=$2 hb=$3 va=$4 vb=$5 hfp=$6 hs=$7 vfp=$8 vs=$9 hmm=${10} vmm=${11} fl=${12}
	printf '%s %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x %02x 00 00 %02x' \
		"$(le16 "$clk")" \
		$((ha & 255)) $((hb & 255)) $((((ha >> 8) << 4) | (hb >> 8))) \
		$((va & 255)) $((vb & 255)) $((((va >> 8) << 4) | (vb >> 8))) \
		$((hfp & 255)) $((hs & 255)) $((((vfp & 15) << 4) | (vs & 15))) \
		$((((hfp >> 8) << 6) | ((hs >> 8) << 4) | ((vfp >> 4) << 2) | (vs >> 4))) \
		$((hmm & 255)) $((vmm & 255)) $((((hmm >> 8) << 4) | (vmm >> 8))) "$fl"
}

# checksummed HEX...: the 127 bytes given and the byte that makes the
# block sum to 0 mod 256; fails unless exactly 127 bytes are given.
checksummed() {
	local h n=0 sum=0
	for h in $*; do
		sum=$((sum + 16#$h))
		n=$((n + 1))
	done
	[ "$n" -eq 127 ] || { echo "make-blobs: a block of $n bytes, not 127" >&2; return 1; }
	printf '%s %02x\n' "$(echo $*)" $(((256 - sum % 256) % 256))
}

# plus_one N HEX...: the bytes with byte N (1-based) one more, mod 256.
plus_one() {
	local n=$1 i=0 h out=
	shift
	for h in $*; do
		i=$((i + 1))
		[ "$i" -eq "$n" ] && h=$(printf '%02x' $(((16#$h + 1) % 256)))
		out="$out $h"
	done
	echo $out
}

# write NAME HEX...: the bytes, as DIR/NAME.bin.
write() {
	local name=$1
	shift
	local h
	for h in $*; do
		# shellcheck disable=SC2059 # the format is the byte
		printf "\\x$h"
	done >"$dir/$name.bin"
	echo "make-blobs: $name.bin ($(wc -c <"$dir/$name.bin") bytes)" >&2
}

# base OPTIONS...: bytes 0..126 of a base block; each part can be
# replaced with VAR=VALUE arguments (a plain list of hex bytes each).
base() {
	local header="00 ff ff ff ff ff ff 00"
	local id # manufacturer, product, serial number, week, year
	id="$(vendor DEL) $(le16 0xa0b5) $(le32 0x4c4b3032) 0c 1d"
	local version="01 04"
	# digital, 8 bits per colour, DisplayPort; 52 cm x 32 cm; gamma 2.2;
	# standby, suspend, active off, RGB 4:4:4 + YCrCb 4:4:4, sRGB, preferred
	# timing is native
	local basic="a5 34 20 78 ee"
	local chroma="ee 91 a3 54 4c 99 26 0f 50 54"
	local established="21 08 00"
	# 1680x1050 (16:10), 1280x1024 (5:4), 1600x1200 (4:3), at 60 Hz
	local standard="b3 00 81 80 a9 40 01 01 01 01 01 01 01 01 01 01"
	# 1920x1200 at 59.950 Hz, CVT reduced blanking, 518 mm x 324 mm, H+ V-
	local d1 d2 d3 d4
	d1=$(dtd 15400 1920 160 1200 35 48 32 3 6 518 324 0x1a)
	# range limits: 56-76 Hz, 30-81 kHz, 170 MHz, no formula (bare limits)
	d2="00 00 00 fd 00 38 4c 1e 51 11 01 0a 20 20 20 20 20 20"
	d3=$(text_descriptor fc "DELL U2415")
	d4=$(text_descriptor ff "CFV9N99T0ABL")
	local ext=00
	local arg
	for arg in "$@"; do
		local "$arg"
	done
	echo "$header $id $version $basic $chroma $established $standard $d1 $d2 $d3 $d4 $ext"
}

# A CTA-861 extension block: 1080p60, 720p60, 480p; stereo LPCM 32-48
# kHz; front left/right speakers; RGB quantization selectable (VCDB); no
# detailed timings.
cta_block() {
	checksummed "02 03 13 f0 43 10 04 03 23 09 07 07 83 01 00 00 e2 00 40" \
		"$(printf '00 %.0s' $(seq 1 108))"
}

# ---- well-formed: every field must agree with edid-decode ----
write monitor "$(checksummed "$(base)")"
# with a CTA extension, the serial number only in its string (CTA-861 asks it)
write monitor-cta "$(checksummed "$(base ext=01 id="$(vendor DEL) $(le16 0xd0c1) $(le32 0) 2a 1c" \
	d3="$(text_descriptor fc "DELL P2715Q")")")" "$(cta_block)"
# 13 characters: the descriptor is full, so no 0x0a terminator (legal)
write name-13 "$(checksummed "$(base d3="$(text_descriptor fc "ABCDEFGHIJKLM")")")"
# week 0xff: the year is a model year (EDID 1.4)
write model-year "$(checksummed "$(base id="$(vendor GSM) $(le16 0x5b09) $(le32 0) ff 20")")"
# no size (a projector), no serial number, EDID 1.3 (digital, sRGB,
# preferred timing; range limits with the default GTF), no serial string
write no-size "$(checksummed "$(base version="01 03" basic="80 00 00 78 0e" \
	id="$(vendor ACR) $(le16 0x0333) $(le32 0) 01 11" \
	d1="$(dtd 15400 1920 160 1200 35 48 32 3 6 0 0 0x1a)" \
	d2="00 00 00 fd 00 38 4c 1e 51 11 00 0a 20 20 20 20 20 20" \
	d3="$(text_descriptor fc "PJ-1080")" d4="$(text_descriptor fe "projector")")")"
# 1920x1080i at 60 Hz (CEA-861 VIC 5), 74.25 MHz
write interlaced "$(checksummed "$(base d1="$(dtd 7425 1920 280 540 22 88 44 2 5 518 324 0x9e)")")"

# ---- hostile: the problems each has are in expected.txt ----
: >"$dir/empty.bin"
echo "make-blobs: empty.bin (0 bytes)" >&2
good=$(checksummed "$(base)")
write short-1 "$(echo "$good" | cut -d' ' -f1)"
write short-127 "$(echo "$good" | cut -d' ' -f1-127)"
write length-129 "$good 00"
# byte 127 one off
write bad-checksum "$(plus_one 128 "$good")"
# the fixed header's byte 7 is 0x01, checksum still right
write bad-header "$(checksummed "$(base header="00 ff ff ff ff ff ff 01")")"
# a name shorter than 13 characters, padded with spaces but no 0x0a
write name-unterminated "$(checksummed "$(base d3="$(raw_descriptor fc "$(hexstr "DELL U2415") 20 20 20")")")"
# a control byte (0x01) and a NUL in the name
write name-nonprintable "$(checksummed "$(base d3="$(raw_descriptor fc "$(hexstr "DELL") 01 $(hexstr "U2415") 00 0a 20")")")"
# NULs, not spaces, after the terminator
write name-bad-padding "$(checksummed "$(base d3="$(raw_descriptor fc "$(hexstr "DELL U2415") 0a 00 00")")")"
# a week past 54
write bad-week "$(checksummed "$(base id="$(vendor DEL) $(le16 0xa0b5) $(le32 0x4c4b3032) 3c 1d")")"
# byte 126 says one extension, and there is none
write extension-count "$(checksummed "$(base ext=01)")"
# 256 bytes, byte 126 says none
write extension-count-256 "$(checksummed "$(base)")" "$(cta_block)"
# the extension block's checksum is one off
write extension-checksum "$(checksummed "$(base ext=01)")" \
	"$(plus_one 128 "$(cta_block)")"
# the first descriptor is the range limits, not a detailed timing
write no-dtd "$(checksummed "$(base d1="00 00 00 fd 00 38 4c 1e 51 11 01 0a 20 20 20 20 20 20" \
	d2="$(raw_descriptor 10 00 00 00 00 00 00 00 00 00 00 00 00 00)")")"
# a manufacturer id with a letter 0 ('@') and one past 'Z' (27)
write bad-vendor "$(checksummed "$(base id="00 bb $(le16 0xa0b5) $(le32 0x4c4b3032) 0c 1d")")"
# a display descriptor of a reserved tag (0x42), and one with byte 2 set
write odd-descriptor "$(checksummed "$(base d2="$(raw_descriptor 42 00 00 00 00 00 00 00 00 00 00 00 00 00)" \
	d4="00 00 01 ff 00 $(hexstr "CFV9N99T0ABL") 0a")")"
# the serial string descriptor holds a NUL byte
write serial-text-nul "$(checksummed "$(base d4="$(raw_descriptor ff "$(hexstr "CFV9") 00 $(hexstr "N99T0AB") 0a")")")"
# a second name descriptor in place of the serial string
write name-twice "$(checksummed "$(base d4="$(text_descriptor fc "OTHER NAME")")")"
# the first DTD has no lines and no pixels
write dtd-zero-size "$(checksummed "$(base d1="$(dtd 15400 0 160 0 35 48 32 3 6 518 324 0x1a)")")"
# EDID structure version 2 (its layout is not the 1.x one decoded here)
write version-2 "$(checksummed "$(base version="02 00")")"
