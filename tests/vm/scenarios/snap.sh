# snap of a known pattern, written by fbtool (which shares no code with
# fbclassctl), on bochs at 32 bpp and vfb at 8 bpp (cmap, panned) and
# 24 bpp (panned); the host decodes each PNG with libpng and compares
# every pixel with what fbtool says the screen shows.
# bench --quick --snap on each of them: the fill, upload and copy PNGs are
# decoded on the host and compared with the documented patterns, built by
# tests/vm/host/benchpat from the format fbtool reads (and its colour map).
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
KCMDLINE=""
MODULES="bochs vfb"
GUEST_HELPERS="fbtool"
# The bench PNGs of random images (~2.4 MB each on bochs) cross the ~200 kB/s
# serial data port: ~90 s of guest time under TCG on an idle host.
BOOT_TIMEOUT=300

# snap_round NAME fbN [YOFFSET]
snap_round() {
	t_check "$1: fbtool writes the pattern" fbtool pattern "/dev/$2" "/tmp/$1.rgb" ${3:-}
	t_diag "$1: $(fbclassctl list -n -o NAME,RES,VIRT,BPP,FORMAT,VISUAL 2>&1 | grep "^$2 ")"
	t_check "$1: fbclassctl snap $2" fbclassctl snap "$2" "/tmp/$1.png"
	t_check "$1: snap to stdout gives the same bytes" sh -c \
		"fbclassctl snap $2 - | cmp - /tmp/$1.png"
	out_file "/tmp/$1.png" "$1.png"
	out_file_gz "/tmp/$1.rgb" "$1.rgb"
}

# bench_snap_round NAME fbN: bench --quick -J --snap, after snap_round (so
# an 8 bpp device has fbtool's colour map).  A symlink planted at one of
# the names is replaced, not followed.
bench_snap_round() {
	_d=/tmp/bs-$1
	mkdir -p "$_d"
	echo keep >/tmp/victim
	ln -sf /tmp/victim "$_d/$2-copy.png"
	t_check "$1: fbtool format $2" fbtool format "/dev/$2" "/tmp/$1-bench.fmt"
	fbclassctl bench --quick -J --snap "$_d" "$2" >/tmp/bs.json 2>/tmp/bs.err
	_rc=$?
	t_is "$_rc" 0 "$1: bench --quick -J --snap $_d $2 exits 0"
	[ "$_rc" = 0 ] || t_diag_stdin </tmp/bs.err
	t_is "$(jq -r '[.framebuffers[0].snapshots[] | "\(.op)=\(.file)=\(.passed)"] | join(" ")' /tmp/bs.json)" \
		"fill=$_d/$2-fill.png=true upload=$_d/$2-upload.png=true copy=$_d/$2-copy.png=true" \
		"$1: -J lists the three snapshots"
	t_check "$1: the planted symlink was replaced by a file" \
		sh -c "test -f '$_d/$2-copy.png' && ! test -L '$_d/$2-copy.png'"
	t_is "$(cat /tmp/victim)" keep "$1: the symlink's target is untouched"
	t_is "$(ls "$_d" | tr '\n' ' ')" "$2-copy.png $2-fill.png $2-upload.png " \
		"$1: only the three PNGs in $_d (no temporary left)"
	for _op in fill upload copy; do
		out_file "$_d/$2-$_op.png" "$1-bench-$_op.png"
	done
	out_file "/tmp/$1-bench.fmt" "$1-bench.fmt"
	rm -rf "$_d"
}

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	fb_mknod fb0
	# fbcon would draw its console over the pattern
	fbcon_unbind
	snap_round bochs32 fb0
	bench_snap_round bochs32 fb0
	t_check "bochs32: the table names the snapshots" sh -c \
		'mkdir -p /tmp/bst && fbclassctl bench --quick --snap /tmp/bst/ fb0 2>/dev/null | grep -q "snapshot: fill/auto -> /tmp/bst/fb0-fill.png (validation passed)"'

	t_check "modprobe vfb (8 bpp)" modprobe vfb vfb_enable=1 videomemorysize=4194304
	t_check "fb1 appears" sysfs_wait /sys/class/graphics/fb1 10
	fb_mknod fb1
	snap_round vfb8 fb1 100
	bench_snap_round vfb8 fb1
	t_check "rmmod vfb" rmmod vfb
	sysfs_gone /sys/class/graphics/fb1 10

	t_check "modprobe vfb (24 bpp)" modprobe vfb vfb_enable=1 videomemorysize=4194304 \
		mode_option=640x480-24
	t_check "fb1 appears again" sysfs_wait /sys/class/graphics/fb1 10
	fb_mknod fb1
	snap_round vfb24 fb1 7
	bench_snap_round vfb24 fb1

	t_check "snap --all /tmp writes one PNG per framebuffer" \
		sh -c 'cd /tmp && mkdir all && fbclassctl snap --all /tmp/all && test "$(ls all | grep -c "^fb[01]-[0-9]\{8\}-[0-9]\{6\}\.png$")" = 2'
	fbclassctl snap fb1 /tmp/x.png >/dev/null 2>&1
	t_check "snap of a missing device fails with exit 4" sh -c \
		'fbclassctl snap fb9 /tmp/y.png; test $? = 4 && ! test -e /tmp/y.png'
}

# On the host, in the directory of the files the guest sent.
host_check() {
	_bad=0
	for n in bochs32 vfb8 vfb24; do
		gzip -dc "$n.rgb.gz" >"$n.rgb" &&
			"${top_builddir:-.}/tests/vm/host/pngcmp" "$n.png" "$n.rgb" || _bad=1
		for op in fill upload copy; do
			"${top_builddir:-.}/tests/vm/host/benchpat" "$op" "$n-bench.fmt" \
				>"$n-bench-$op.rgb" &&
				"${top_builddir:-.}/tests/vm/host/pngcmp" "$n-bench-$op.png" \
					"$n-bench-$op.rgb" || _bad=1
		done
	done
	return "$_bad"
}
