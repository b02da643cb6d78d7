/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * fbclassctl wait: until a framebuffer or a DRM connector is there (and
 * connected, or shown), for initramfs and kiosk start scripts.  The kernel's
 * uevents are read with our own netlink reader (src/uevent-monitor.h), so
 * it works without udevd; the condition is checked once at the start and
 * again after each batch of graphics or drm events, never in a polling
 * loop.
 */

#include <stdbool.h>

enum waitfor_what {
	WAITFOR_PRESENT, /* it exists */
	WAITFOR_CONNECTED, /* a monitor is connected (to one of the fb's card's connectors) */
	WAITFOR_SHOWN, /* that connector is also enabled and its DPMS On */
};

struct waitfor_target {
	const char *name; /* "fb0", or a connector: "card0-HDMI-A-1" */
	bool connector;
	enum waitfor_what what;
};

/* "fbN" (also "/dev/fbN") or "cardN-NAME".  0 or -EINVAL (said). */
int waitfor_target_parse(const char *arg, enum waitfor_what what,
			 struct waitfor_target *t);
/* Does the condition hold now?  1, 0, or -errno (sysfs could not be read). */
int waitfor_check(const struct waitfor_target *t);
/* Wait until it holds, at most timeout_ms (< 0: forever).  0 when it
 * holds; -ETIMEDOUT; other -errno (reported). */
int waitfor_run(const struct waitfor_target *t, int timeout_ms);
