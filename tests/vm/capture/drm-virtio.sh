# Capture: virtio-gpu (-device virtio-vga with qemu's EDID at 1600x900):
# fb0, card0, its render node renderD128 and its connector; fb, card and
# render node all hang under the PCI function, not under the virtio device
# between them.  Files: drm-virtio.umockdev, qemu-virtio-1600x900.bin.
# shellcheck shell=sh disable=SC2034,SC2016
QEMU_VGA=none
KCMDLINE=""
MODULES="virtio_pci virtio-gpu"
QEMU_ARGS="-device virtio-vga,edid=on,xres=1600,yres=900"

scenario() {
	# record the DRM side too
	export CAPTURE_DRM=1
	t_check "modprobe virtio_pci" modprobe virtio_pci
	t_check "modprobe virtio-gpu" modprobe virtio-gpu
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 20
	t_check "card0 appears" sysfs_wait /sys/class/drm/card0 10
	sleep 1
	for c in /sys/class/drm/card0-*; do
		t_diag "${c##*/}: $(cat "$c/status"), $(cat "$c/enabled"), EDID $(wc -c <"$c/edid") bytes, $(head -n 1 "$c/modes")"
	done
	for d in /sys/class/graphics/fb0 /sys/class/drm/card0 /sys/class/drm/renderD*; do
		t_diag "${d##*/} is $(realpath "$d"), its device $(realpath "$d/device")"
	done
	for c in /sys/class/drm/card0-*; do
		# sysfs says 0 bytes for a binary attribute: read it to know
		cat "$c/edid" >/tmp/edid.bin
		if [ "$(wc -c </tmp/edid.bin)" -gt 0 ]; then
			out_file /tmp/edid.bin "qemu-virtio-$(head -n 1 "$c/modes").bin"
			break
		fi
	done
	/vm/capture-sysfs.sh /sys/class/graphics/fb0 >/tmp/drm-virtio.umockdev
	t_check "the capture has the render node" grep -q '^P: /devices/.*/drm/renderD128$' /tmp/drm-virtio.umockdev
	t_check "... and a connector" grep -q '^P: /devices/.*/drm/card0/card0-' /tmp/drm-virtio.umockdev
	out_file /tmp/drm-virtio.umockdev drm-virtio.umockdev
}
