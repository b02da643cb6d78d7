/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The kernel uevent monitor of daemon and monitor: our own reader of
 * NETLINK_KOBJECT_UEVENT (src/uevent-monitor-netlink.c), in every build.  It takes
 * only what libudev's "kernel" monitor takes: messages the kernel sent
 * (sender port 0, credentials uid 0), well-formed "action@/devpath"
 * messages that were not cut short.  libudev's monitor was the default
 * until the VM bench showed its per-message work (a device object with
 * its properties, for each event) costing three times all of busybox
 * mdev -d's handling of a change event; see tests/vm/bench/.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* "netlink", for fbclassctl --version. */
extern const char fb_monitor_backend_name[];

struct fb_monitor;

struct fb_monitor_event {
	const char *action, *subsystem, *sysname,
		*syspath; /* valid until the next receive */
	unsigned long long seqnum;
	dev_t devnum; /* 0 when the event has no MAJOR/MINOR */
	bool hotplug; /* HOTPLUG=1: DRM probed a card's connectors */
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
