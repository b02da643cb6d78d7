/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The uevent monitor (src/uevent-monitor.h) through libudev's "kernel" monitor. */
#include "config.h"

#include <errno.h>
#include <libudev.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "uevent-monitor.h"

const char fb_monitor_backend_name[] = "libudev";

struct fb_monitor {
	struct udev *udev;
	struct udev_monitor *mon;
	struct udev_device *last; /* backs the strings of the last event */
};

void fb_monitor_free(struct fb_monitor *m)
{
	if (!m)
		return;
	udev_device_unref(m->last);
	udev_monitor_unref(m->mon);
	udev_unref(m->udev);
	free(m);
}

/* libudev drops messages whose sender is not the kernel, so a root
 * process cannot forge an event into the daemon. */
int fb_monitor_open(struct fb_monitor **mp, const char *const *subsystems, size_t n,
		    unsigned buffer_size)
{
	struct fb_monitor *m;
	int r = 0;

	*mp = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->udev = udev_new();
	if (!m->udev) {
		ERR("cannot start libudev: %m");
		r = -ENOMEM;
		goto fail;
	}
	m->mon = udev_monitor_new_from_netlink(m->udev, "kernel");
	if (!m->mon) {
		r = errno ? -errno : -ENOMEM;
		ERR("cannot open the kernel uevent socket: %s", strerror(-r));
		goto fail;
	}
	for (size_t i = 0; r >= 0 && i < n; i++)
		r = udev_monitor_filter_add_match_subsystem_devtype(m->mon, subsystems[i], NULL);
	if (r < 0) {
		ERR("cannot set the uevent subsystem filter: %s", strerror(-r));
		goto fail;
	}
	if (buffer_size) {
		r = udev_monitor_set_receive_buffer_size(m->mon, (int)buffer_size);
		if (r < 0)
			WRN("cannot set the uevent receive buffer to %u bytes: %s", buffer_size,
			    strerror(-r));
	}
	r = udev_monitor_enable_receiving(m->mon);
	if (r < 0) {
		ERR("cannot listen to kernel uevents: %s", strerror(-r));
		goto fail;
	}
	*mp = m;
	return 0;
fail:
	fb_monitor_free(m);
	return r;
}

int fb_monitor_fd(const struct fb_monitor *m)
{
	return udev_monitor_get_fd(m->mon);
}

int fb_monitor_receive(struct fb_monitor *m, struct fb_monitor_event *ev)
{
	struct udev_device *dev;

	udev_device_unref(m->last);
	m->last = NULL;
	errno = 0;
	dev = udev_monitor_receive_device(m->mon);
	if (!dev) {
		if (errno == ENOBUFS)
			return -ENOBUFS;
		if (errno && errno != EAGAIN && errno != EINTR)
			return -errno;
		return 0;
	}
	m->last = dev;
	*ev = (struct fb_monitor_event){
		.action = udev_device_get_action(dev),
		.subsystem = udev_device_get_subsystem(dev),
		.sysname = udev_device_get_sysname(dev),
		.syspath = udev_device_get_syspath(dev),
		.seqnum = udev_device_get_seqnum(dev),
		.devnum = udev_device_get_devnum(dev),
	};
	return 1;
}
