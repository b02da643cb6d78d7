# bochs behind a PCI bridge (-device pci-bridge + -device VGA on it): udev's
# path_id names only the nearest of a run of PCI ancestors (its
# skip_subsystem), and so must fbclassctl: pci-0000:01:01.0, not the
# bridge's 0000:00:02.0 before it.  The display join still finds card0.
# shellcheck shell=sh disable=SC2034,SC2016,SC2154
QEMU_VGA=none
QEMU_ARGS="-device pci-bridge,id=br1,chassis_nr=1 -device VGA,bus=br1,addr=1"
KCMDLINE=""
MODULES="bochs"
GUEST_TOOLS="udevadm"

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	t_is "$(readlink -f /sys/class/graphics/fb0)" /sys/devices/pci0000:00/0000:00:02.0/0000:01:01.0/graphics/fb0 \
		"sysfs: fb0 is on 0000:01:01.0 behind the bridge 0000:00:02.0"
	t_path_id_udev fb0 "bochs behind a PCI bridge"
	t_is "$(udev_path_id /sys/class/graphics/fb0)" pci-0000:01:01.0 "udev: the nearest PCI device only"
	t_is "$(drm_card_of fb0)" card0 "sysfs: card0 shares fb0's parent device"
	t_is "$(fbclassctl list -n -o CARD,CONNECTOR fb0 | tr -s ' ')" "card0 card0-Virtual-1" \
		"list: CARD card0, CONNECTOR card0-Virtual-1 behind the bridge"
	t_kernel_clean "no oops, BUG or WARNING (but known kernel hazards)"
}
