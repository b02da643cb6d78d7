# The two sysfs backends on a real kernel: the default build
# (libudev) as fbclassctl, the --with-libsysfs build (libsysfs and our own
# netlink reader) as fbclassctl-sysfs.  list -J and info -J agree on
# vesafb, bochs and vfb; the netlink reader drops a forged uevent from a
# root process but takes the kernel's; a burst through a 64 KiB buffer
# overruns it (ENOBUFS) and its daemon resyncs.  Not in scenarios/: it
# needs the second build, so tests/run-all.sh runs it with
# FBCLASSCTL_SYSFS=_build-sysfs/fbclassctl.  With FBCLASSCTL_STATIC (the
# --enable-static-binary build, as fbclassctl-static) its list -J and
# info -J must be identical too (but for info's scanout sections: the
# static build says it cannot read KMS), and its coldplug --load-modules (through
# modules.alias and modprobe -b) is what loads bochs.
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
KCMDLINE="vga=0x317"
MODULES="bochs vfb"
GUEST_HELPERS="uevent-forge"

# same WHAT: list -J and info -J of both builds are byte for byte equal
same() {
	for _cmd in "list -J" "info -J"; do
		# shellcheck disable=SC2086
		fbclassctl $_cmd >/tmp/udev.json 2>/tmp/udev.err
		# shellcheck disable=SC2086
		fbclassctl-sysfs $_cmd >/tmp/sysfs.json 2>/tmp/sysfs.err
		if cmp -s /tmp/udev.json /tmp/sysfs.json && [ -s /tmp/udev.json ]; then
			t_ok "$1: $_cmd identical from libudev and libsysfs"
		else
			t_not_ok "$1: $_cmd identical from libudev and libsysfs"
			diff /tmp/udev.json /tmp/sysfs.json | head -40 | t_diag_stdin
		fi
		command -v fbclassctl-static >/dev/null || continue
		# shellcheck disable=SC2086
		fbclassctl-static $_cmd >/tmp/static.json 2>/tmp/static.err
		# The static build cannot read KMS (no libdrm in it) and says so
		# in info's scanout sections; the rest is the sysfs backends' own
		if [ "$_cmd" = "info -J" ]; then
			# (an fb with no DRM card has no KMS to read)
			_e=$(jq -r '[.framebuffers[].scanout | select(.card != null) | .error] |
				unique | join(",")' /tmp/static.json)
			[ -z "$_e" ] || t_is "$_e" "not in the static build" \
				"$1: the static build says plainly it cannot read KMS"
			for _b in udev static; do
				jq 'del(.framebuffers[].scanout)' "/tmp/$_b.json" >/tmp/$_b.noscanout.json &&
					mv /tmp/$_b.noscanout.json "/tmp/$_b.json"
			done
		fi
		if cmp -s /tmp/udev.json /tmp/static.json; then
			t_ok "$1: $_cmd identical from the static build"
		else
			t_not_ok "$1: $_cmd identical from the static build"
			diff /tmp/udev.json /tmp/static.json | head -40 | t_diag_stdin
		fi
	done
	t_is "$(jq -r '.framebuffers | length' /tmp/udev.json)" "$2" "$1: $2 framebuffer(s) listed"
}

scenario() {
	t_check "fbclassctl-sysfs is in the initramfs" command -v fbclassctl-sysfs
	t_check "fbclassctl-sysfs is the libsysfs build" sh -c \
		'fbclassctl-sysfs --version | grep -qx "sysfs: libsysfs"'
	t_check "fbclassctl-sysfs reads uevents with its own netlink reader" sh -c \
		'fbclassctl-sysfs --version | grep -qx "uevents: netlink"'
	t_check "vesafb: fb0 at boot" sysfs_wait /sys/class/graphics/fb0 10
	same vesafb 1

	# The netlink reader: a kernel event taken, a forged one dropped.
	fbclassctl-sysfs -vv monitor >/tmp/mon.out 2>/tmp/mon.err &
	mpid=$!
	usleep 500000
	t_check "forged add of fb7 sent (port of a root process)" uevent-forge add \
		/devices/virtual/graphics/fb7 SUBSYSTEM=graphics MAJOR=29 MINOR=7 DEVNAME=fb7 SEQNUM=999999
	if command -v fbclassctl-static >/dev/null; then
		t_check "fbclassctl-static is the static build" sh -c \
			'fbclassctl-static --version | grep -qx "link: static"'
		mkdir -p /tmp/stdev
		t_check "static build: coldplug --load-modules" \
			fbclassctl-static -v coldplug --dev /tmp/stdev --load-modules --settle 10
		t_check "static build: bochs is loaded" sh -c 'grep -q "^bochs " /proc/modules'
	else
		t_check "modprobe bochs" modprobe bochs
	fi
	t_check "bochs: fb0 under 0000:00:02.0" sysfs_wait /sys/devices/pci0000:00/0000:00:02.0/graphics/fb0 20
	t_check "netlink reader: the kernel's add of fb0 arrives" wait_for 50 grep -q '^add fb0 29:0' /tmp/mon.out
	t_check "netlink reader: the forged event is dropped, naming its sender" \
		grep -q 'uevent dropped: sent by port' /tmp/mon.err
	t_check "netlink reader: nothing printed for fb7" sh -c '! grep -q fb7 /tmp/mon.out'
	kill "$mpid"
	wait "$mpid" 2>/dev/null
	same bochs 1

	t_check "modprobe vfb vfb_enable=1" modprobe vfb vfb_enable=1
	t_check "vfb: fb1 appears" sysfs_wait /sys/class/graphics/fb1 10
	same "bochs and vfb" 2

	# ENOBUFS on the libsysfs build's reader: the daemon, stopped, while
	# 3000 events overrun a 64 KiB buffer; it says so and resyncs.
	mkdir -p /tmp/sdev
	fbclassctl-sysfs daemon --dev /tmp/sdev --buffer-size 65536 >/tmp/burst.log 2>&1 &
	dpid=$!
	t_check "libsysfs daemon: start-up coldplug made fb1" wait_for 100 test -c /tmp/sdev/fb1
	kill -STOP "$dpid"
	i=0
	while [ $i -lt 1500 ]; do echo change >/sys/class/graphics/fb0/uevent; i=$((i + 1)); done
	rmmod vfb
	while [ $i -lt 3000 ]; do echo change >/sys/class/graphics/fb0/uevent; i=$((i + 1)); done
	kill -CONT "$dpid"
	t_check "libsysfs daemon: logged the overrun (ENOBUFS)" wait_for 300 grep -q 'uevents were lost' /tmp/burst.log
	t_check "libsysfs daemon: fb1 removed by the resync" wait_for 100 test ! -e /tmp/sdev/fb1
	t_check "libsysfs daemon: fb0 still there" test -c /tmp/sdev/fb0
	t_check "libsysfs daemon: alive" kill -0 "$dpid"
	kill "$dpid"
	wait "$dpid"
	t_is "$?" 0 "libsysfs daemon: SIGTERM exits 0"
	same "bochs after vfb left" 1
}
