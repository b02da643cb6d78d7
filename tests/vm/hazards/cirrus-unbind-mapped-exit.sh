# Hazard cirrus-unbind-mapped-exit: cirrus's fb0 mapped and written by a
# plain mmap+memset (fbtool fill, no fbclassctl), the PCI device unbound
# from cirrus, then the process killed.  On 6.12 cirrus's fbdev emulation
# is shmem-backed, and the exiting process spins in the kernel for good:
# __fput -> shmem_evict_inode -> shmem_undo_range, state R (seen on
# 6.12.117 and 6.12.118; the rest of the guest still runs, and reboots).
# 6.1's cirrus sets up the generic fbdev emulation (drm_fbdev_generic_setup,
# a shadow buffer), 6.12's the shmem one (drm_fbdev_shmem_setup, which maps
# the GEM object's shmem pages): on 6.1 the process exits at once.
# shellcheck shell=sh disable=SC2034
HAZARD=cirrus-unbind-mapped-exit
QEMU_VGA=cirrus
KCMDLINE="fbcon=map:9"
MODULES="cirrus"
GUEST_HELPERS="fbtool"

scenario() {
	t_check "modprobe cirrus" modprobe cirrus
	t_check "fb0 appears" sysfs_wait /sys/class/graphics/fb0 10
	fb_mknod fb0
	drv=$(readlink -f /sys/bus/pci/devices/0000:00:02.0/driver)
	t_diag "fb0: $(cat /sys/class/graphics/fb0/name), driver $drv"
	rm -f /tmp/ready
	fbtool fill /dev/fb0 /tmp/ready &
	mapper=$!
	t_check "pid $mapper mapped and wrote fb0" wait_for 100 test -s /tmp/ready
	t_check "unbind 0000:00:02.0 from cirrus" sh -c "echo 0000:00:02.0 >$drv/unbind"
	t_check "fb0 is gone from sysfs" sysfs_gone /sys/class/graphics/fb0 10
	hazard_trigger "SIGKILL pid $mapper, which still maps the unbound cirrus fb0"
	kill -KILL "$mapper"
	if hazard_watch_exit "$mapper" 10; then
		wait "$mapper" 2>/dev/null
	fi
	t_kernel_clean "the kernel logged no oops, BUG or WARNING"
}
