# The KMS reader on the other DRM drivers qemu has, in one boot: qxl with
# two heads, virtio-gpu, vmwgfx and cirrus.  On each card the reader's
# CRTC, plane, connector and FB ids, modes, sizes and formats equal
# drm_info -j's (the oracle); list --connectors names every connector
# sysfs has with its status; where a connector shows the fbdev emulation's
# buffer, SCANOUT is that fb and snap CONNECTOR equals snap fbN byte for
# byte.  Connector names count per type across cards (qxl's Virtual-1
# and -2, then virtio-gpu's Virtual-3).  vmwgfx refuses qemu's vmware-svga on 6.12 ("Hardware has no
# pitchlock"): where it does not bind, that reason is checked, not a card.
# bench on qxl's and virtio-gpu's fbs: auto as fast as the best strategy
# of each op (bench.sh does bochs, cirrus and vfb).
# Then the faults, on a fifth card (bochs, whose fb nothing maps: unbinding
# a deferred-I/O fb that was mapped once logs "BUG: Bad page state" on
# 6.12, a kernel bug of its own): no /dev/dri node (root reads through a
# private node, nobody is told the mknod), debugfs not mounted (OWNER
# unknown, and why), libdrm gone (cannot tell), and the card unbound
# while list --connectors and snap read it in a loop (each run exits 0, 1
# or 4, every message names the object, no crash, no oops).
# One boot, on the kernels in turn: what each driver tells is the same
# question on both.
# shellcheck shell=sh disable=SC2034,SC2016
# vmwgfx is tried on the primary VGA, as -vga vmware gives it
QEMU_VGA=vmware
QEMU_ARGS="-device qxl,max_outputs=2 -device virtio-gpu-pci -device cirrus-vga -device VGA"
KCMDLINE="qxl.num_heads=2"
MODULES="qxl virtio_pci virtio-gpu vmwgfx cirrus bochs"
GUEST_TOOLS="drm_info"
GUEST_HELPERS="unit/kms-dump"

# auto_check: /vm/bench-lib.sh
[ ! -r /vm/bench-lib.sh ] || . /vm/bench-lib.sh # not on the host, which reads the variables
# five cards, 40 reads racing an unbind: 80 s on 6.1 with the host idle,
# so more than VM_TIMEOUT on a busy one; and a long boot starts first
BOOT_TIMEOUT=300

# card_of DRIVER: the minor of the card DRM driver DRIVER drives (debugfs'
# name: the PCI driver of virtio-gpu's card is virtio-pci)
card_of() {
	for _k in /sys/kernel/debug/dri/[0-9]*; do
		[ "${_k##*/}" -lt 64 ] 2>/dev/null || continue
		read -r _d _ <"$_k/name" 2>/dev/null || continue
		[ "$_d" = "$1" ] || continue
		echo "${_k##*/}"
		return 0
	done
	return 1
}

# card_round DRIVER: the reader against drm_info on the card DRIVER drives
card_round() {
	set -- "$(card_of "$1")" "$1"
	t_check "$2 drives a card" test -n "$1"
	[ -n "$1" ] || return 0
	_c=card$1
	kms-dump "$1" >"/tmp/$_c.json" 2>"/tmp/$_c.err"
	t_is "$?" 0 "$_c ($2): kms-dump reads it"
	_ours=$(ours "/tmp/$_c.json")
	_theirs=$(theirs /tmp/drm_info.json "$1")
	t_is "$_ours" "$_theirs" \
		"$_c ($2): CRTC, plane, connector and FB ids, modes, sizes, formats equal drm_info -j's"
	t_is "$(jq -r --arg c "$_c" '.connectors[] | select(.card == $c) | "\(.connector) \(.status)"' \
		/tmp/conn.json)" \
		"$(for k in /sys/class/drm/"$_c"-*; do echo "${k##*/} $(cat "$k/status")"; done)" \
		"$_c ($2): list --connectors has each connector with its sysfs status"
	for k in /sys/class/drm/"$_c"-*; do
		_n=${k##*/}
		_scan=$(jq -r --arg n "$_n" '.connectors[] | select(.connector == $n) | .scanout // ""' /tmp/conn.json)
		t_diag "$_n: $(jq -c --arg n "$_n" '.connectors[] | select(.connector == $n)' /tmp/conn.json)"
		case $_scan in
		fb[0-9]*) ;;
		*) continue ;;
		esac
		fb_mknod "$_scan"
		fbclassctl snap "$_scan" "/tmp/$_n-fb.png" >/dev/null 2>&1
		t_check "$_n ($2): snap CONNECTOR runs" fbclassctl snap "$_n" "/tmp/$_n.png"
		t_check "$_n ($2): shows $_scan, and snap $_n equals snap $_scan byte for byte" \
			cmp "/tmp/$_n.png" "/tmp/$_n-fb.png"
	done
}

# bench_auto DRIVER: bench -d 1 -J on the fb of DRIVER's card validates
# and restores, and auto reaches 0.9x the best strategy of each op
# (/vm/bench-lib.sh), as bench.sh holds bochs, cirrus and vfb to it
bench_auto() {
	_c=$(card_of "$1")
	[ -n "$_c" ] || return 0
	_fb=$(ls "/sys/class/drm/card$_c/device/graphics" 2>/dev/null | head -n 1)
	t_check "$1: card$_c has an fb" test -n "$_fb"
	[ -n "$_fb" ] || return 0
	fb_mknod "$_fb"
	fbclassctl bench -d 1 -J "$_fb" >/tmp/bench.json 2>/tmp/bench.err
	_rc=$?
	t_is "$_rc" 0 "$1: bench -d 1 -J $_fb exits 0"
	[ "$_rc" = 0 ] || t_diag_stdin </tmp/bench.err
	t_is "$(jq -r '.framebuffers[0] | "\(.validation.passed) \(.restore.state != "no")"' \
		/tmp/bench.json)" "true true" "$1: bench validates $_fb and restores it"
	auto_check "$1" "$_fb"
}

# row FILE: list --connectors -J's row of the bochs card's connector ($fconn)
row() {
	jq -c --arg n "$fconn" '.connectors[] | select(.connector == $n)' "$1"
}

# fault_nonode: /dev/dri/cardN of the bochs card ($fc) missing
fault_nonode() {
	rm "/dev/dri/card$fc"
	fbclassctl list --connectors -J >/tmp/nonode.json 2>/tmp/nonode.err
	t_is "$?" 0 "no /dev/dri/card$fc, root: list --connectors exits 0"
	t_is "$(row /tmp/nonode.json | jq .crtc)" "$(row /tmp/conn.json | jq .crtc)" \
		"no /dev/dri/card$fc, root: read through a private node, the same CRTC"
	t_check "no /dev/dri/card$fc, root: the CRTC is known" test "$(row /tmp/nonode.json | jq .crtc)" != null
	t_is "$(find /run /tmp -name 'fbclassctl.*' 2>/dev/null | wc -l)" 0 \
		"no /dev/dri/card$fc, root: no private node or directory left behind"
	grep -q "^nobody:" /etc/passwd 2>/dev/null ||
		echo "nobody:x:65534:65534:nobody:/:/bin/sh" >>/etc/passwd
	su nobody -s /bin/sh -c "fbclassctl snap $fconn /tmp/nobody.png" >/tmp/nonode-nobody.err 2>&1
	t_is "$?" 1 "no /dev/dri/card$fc, nobody: snap exits 1"
	t_check "no /dev/dri/card$fc, nobody: the message says the node is missing and the mknod" \
		grep -qF "$fconn: no node /dev/dri/card$fc (devtmpfs makes it; else mknod -m 600 /dev/dri/card$fc c 226 $fc)" \
		/tmp/nonode-nobody.err
	t_diag_stdin </tmp/nonode-nobody.err
	mknod -m 600 "/dev/dri/card$fc" c 226 "$fc"
}

# fault_nodebugfs: who made an FB cannot be told without debugfs
fault_nodebugfs() {
	umount /sys/kernel/debug
	fbclassctl list --connectors -J >/tmp/nodebug.json 2>/tmp/nodebug.err
	t_is "$?" 0 "no debugfs: list --connectors exits 0"
	t_diag "no debugfs: $(row /tmp/nodebug.json)"
	t_is "$(row /tmp/nodebug.json | jq -r .owner)" unknown "no debugfs: OWNER of $fconn is unknown"
	fbclassctl info "$ffb" >/tmp/nodebug.info 2>&1
	t_check "no debugfs: info $ffb gives the reason (debugfs not mounted)" \
		grep -q 'debugfs not mounted' /tmp/nodebug.info
	grep -i 'debugfs' /tmp/nodebug.info | head -n 3 | t_diag_stdin
	mount -t debugfs none /sys/kernel/debug
}

# fault_nolibdrm: libdrm gone from the system
fault_nolibdrm() {
	_lib=$(find /lib /usr/lib -name 'libdrm.so.2*' ! -type d | head -n 1)
	t_check "libdrm: the initramfs has it (mkinitramfs packs what --version names)" test -n "$_lib"
	[ -n "$_lib" ] || return 0
	mv "$_lib" /tmp/libdrm.saved
	fbclassctl list -o NAME,SHOWN "$ffb" >/tmp/nolib.out 2>&1
	t_is "$?" 0 "no libdrm: list -o NAME,SHOWN exits 0"
	t_is "$(fbclassctl list -n -o SHOWN "$ffb" 2>/dev/null)" unknown "no libdrm: SHOWN is unknown"
	fbclassctl snap "$fconn" /tmp/nolib.png >/tmp/nolib.err 2>&1
	t_is "$?" 1 "no libdrm: snap CONNECTOR exits 1"
	t_check "no libdrm: it says libdrm is not found" grep -q 'libdrm not found' /tmp/nolib.err
	t_diag_stdin </tmp/nolib.err
	mv /tmp/libdrm.saved "$_lib"
}

# fault_unbind: the bochs card goes away while readers run
fault_unbind() {
	_dev=$(basename "$(readlink "/sys/class/drm/card$fc/device")")
	(
		i=0
		while [ "$i" -lt 40 ]; do
			fbclassctl list --connectors >/dev/null 2>>/tmp/unbind.err
			echo "list $?" >>/tmp/unbind.rc
			fbclassctl snap "$fconn" /tmp/unbind.png >/dev/null 2>>/tmp/unbind.err
			echo "snap $?" >>/tmp/unbind.rc
			i=$((i + 1))
		done
	) &
	_pid=$!
	sleep 2
	echo "$_dev" >/sys/bus/pci/drivers/bochs-drm/unbind
	wait "$_pid"
	t_diag "unbind: $(sort /tmp/unbind.rc | uniq -c | tr '\n' ' ')"
	t_is "$(grep -cvE '^(list|snap) (0|1|4)$' /tmp/unbind.rc)" 0 \
		"unbind: every list --connectors and snap exited 0, 1 or 4 (no crash)"
	t_check "unbind: the last snap failed (the card is gone)" \
		test "$(tail -n 1 /tmp/unbind.rc)" != "snap 0"
	t_is "$(grep -cv "card$fc" /tmp/unbind.err)" 0 "unbind: every message names card$fc or its connector"
	sort /tmp/unbind.err | uniq -c | head -n 5 | t_diag_stdin
}

# vmwgfx_round: vmwgfx on its card, or its known refusal of qemu's device
vmwgfx_round() {
	if card_of vmwgfx >/dev/null; then
		card_round vmwgfx
		return
	fi
	t_check "vmwgfx: no card, for the reason it gives: qemu's vmware-svga has no pitchlock" \
		sh -c 'dmesg | grep -q "vmwgfx.*Hardware has no pitchlock"'
}

scenario() {
	# virtio-gpu's device is on the virtio bus: virtio_pci first (6.1 has it
	# as a module that nothing else loads)
	for m in qxl virtio_pci virtio-gpu vmwgfx cirrus bochs; do
		t_check "modprobe $m" modprobe "$m"
		sleep 1
	done
	mkdir -p /sys/kernel/debug
	t_check "mount debugfs" mount -t debugfs none /sys/kernel/debug
	t_check "bochs-drm's card appears" wait_for 100 card_of bochs-drm
	sleep 2
	mkdir -p /dev/dri
	for k in /sys/class/drm/card[0-9]*; do
		case ${k##*/} in *-*) continue ;; esac
		mknod -m 600 "/dev/dri/${k##*/}" c 226 "${k##*/card}"
		t_diag "${k##*/}: $(cat "/sys/kernel/debug/dri/${k##*/card}/name")"
	done
	for f in /sys/class/graphics/fb[0-9]*; do
		t_diag "${f##*/}: $(cat "$f/name")"
	done
	# a blinking cursor would change an fb between two snaps
	echo 0 >/sys/class/graphics/fbcon/cursor_blink
	sleep 1
	drm_info -j >/tmp/drm_info.json 2>/tmp/drm_info.err
	t_is "$?" 0 "drm_info -j runs"
	fbclassctl list --connectors -J >/tmp/conn.json 2>/tmp/conn.err
	t_is "$?" 0 "list --connectors -J exits 0"
	for d in qxl virtio_gpu cirrus; do
		card_round "$d"
	done
	for d in qxl virtio_gpu; do
		bench_auto "$d"
	done
	vmwgfx_round
	out_file /tmp/drm_info.json drm_info.json
	out_file /tmp/conn.json conn.json
	fc=$(card_of bochs-drm)
	# connector names count per type across cards (virtio-gpu's may be Virtual-3)
	fconn=$(basename "$(ls -d "/sys/class/drm/card$fc"-* | head -n 1)")
	ffb=$(row /tmp/conn.json | jq -r .scanout)
	t_check "bochs: $fconn shows an fb ($ffb)" sh -c 'case $1 in fb[0-9]*) exit 0 ;; esac; exit 1' - "$ffb"
	fb_mknod "$ffb"
	fault_nonode
	fault_nodebugfs
	fault_nolibdrm
	fault_unbind
	t_kernel_clean "no oops, BUG or WARNING (but known kernel hazards)"
}
