# coldplug --validate on a tmpfs /dev: bochs-drm's fb0 and vfb's fb1 are
# validated (bench's quick mode) when this run creates their nodes, pass,
# and exit 0 with the nodes made; nodes already there are not validated.
# daemon --validate validates vfb's fb1 when its add event makes the node.
# (The exit status 3 of a failing device is covered by tests/unit/test-validate.)
# shellcheck shell=sh disable=SC2034
QEMU_VGA=std
MODULES="bochs vfb"

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "modprobe vfb" modprobe vfb vfb_enable=1
	t_check "fb1 appears" sysfs_wait /sys/devices/platform/vfb.0/graphics/fb1 10
	rm -f /dev/fb0 /dev/fb1
	fbclassctl -v coldplug --validate >/tmp/v1 2>&1
	t_is "$?" 0 "coldplug --validate exits 0"
	t_check "fb0 and fb1 nodes made" test -c /dev/fb0 -a -c /dev/fb1
	t_check "fb0 validated" grep -q "fb0: validation passed" /tmp/v1
	t_check "fb1 validated" grep -q "fb1: validation passed" /tmp/v1
	fbclassctl -v coldplug --validate >/tmp/v2 2>&1
	t_is "$?" 0 "second coldplug --validate exits 0"
	t_check "existing nodes not validated again" sh -c '! grep -q validation /tmp/v2'

	t_check "rmmod vfb" rmmod vfb
	rm -f /tmp/ready
	fbclassctl -v daemon --validate --ready-fd 3 3>/tmp/ready 2>/tmp/d.log >/dev/null </dev/null &
	dpid=$!
	t_check "daemon --validate is ready" wait_for 100 test -s /tmp/ready
	t_check "modprobe vfb under the daemon" modprobe vfb vfb_enable=1
	t_check "daemon made fb1" wait_for 100 test -c /dev/fb1
	t_check "daemon validated fb1" wait_for 100 grep -q "fb1: validation passed" /tmp/d.log
	t_check "fb0 (already there) not validated" sh -c '! grep -q "fb0: validation" /tmp/d.log'
	kill -TERM "$dpid"
	wait "$dpid"
	t_is "$?" 0 "daemon SIGTERM exit 0"
	cat /tmp/v1 /tmp/v2 /tmp/d.log >&2
}
