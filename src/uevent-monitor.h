/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The kernel uevent monitor of daemon and monitor: libudev's "kernel"
 * monitor (src/monitor-udev.c, the default) or our own reader of
 * NETLINK_KOBJECT_UEVENT (src/monitor-netlink.c, --with-libsysfs).  Both
 * take only messages the kernel sent: sender port 0, credentials uid 0, a
 * well-formed "action@/devpath" message that was not cut short.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* "libudev" or "netlink", for fbclassctl --version. */
extern const char fb_monitor_backend_name[];

struct fb_monitor;

struct fb_monitor_event {
	const char *action, *subsystem, *sysname, *syspath; /* valid until the next receive */
	unsigned long long seqnum;
	dev_t devnum; /* 0 when the event has no MAJOR/MINOR */
};

/* Listen to kernel uevents of the given subsystems, with a kernel receive
 * buffer of buffer_size bytes (0: the system's default).  Returns 0 or
 * -errno (reported). */
int fb_monitor_open(struct fb_monitor **m, const char *const *subsystems, size_t n,
		    unsigned buffer_size);
int fb_monitor_fd(const struct fb_monitor *m);
/* 1: ev filled; 0: nothing (more) queued; -ENOBUFS: the kernel dropped
 * events because the receive buffer overran; other -errno. */
int fb_monitor_receive(struct fb_monitor *m, struct fb_monitor_event *ev);
void fb_monitor_free(struct fb_monitor *m);
