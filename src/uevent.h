/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Validation of one uevent's variables (uevent-helper environment, or a
 * netlink message), before anything is done for it.  Pure: no I/O, so it
 * can be fuzzed.  What only sysfs can tell (DEVPATH exists, MAJOR:MINOR
 * equals its dev) is checked by the caller afterwards.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "nodes.h"

#define FB_UEVENT_DEVPATH_MAX 1024

struct fb_uevent_env {
	const char *action, *devpath, *subsystem, *major, *minor, *devname, *seqnum;
	const char *hotplug; /* drm: "1" when a connector was probed */
};

enum fb_uevent_action {
	FB_UEVENT_ADD,
	FB_UEVENT_CHANGE,
	FB_UEVENT_REMOVE,
};

struct fb_uevent {
	enum fb_uevent_action action;
	char devpath[FB_UEVENT_DEVPATH_MAX]; /* "/devices/.../graphics/fb0" */
	char devname[NODE_NAME_MAX]; /* "fb0", equal to the last component */
	dev_t devnum;
	unsigned long long seqnum;
	bool has_seqnum;
};

/* Fill env from getenv(). */
void fb_uevent_env_from_environ(struct fb_uevent_env *env);

/*
 * 1: a framebuffer event to act on, ev filled.  0: not for us (another
 * subsystem, bind/unbind/move/online/offline, fbcon which has no node);
 * why says which.  -EINVAL: rejected, why says what is wrong.
 */
int fb_uevent_parse(const struct fb_uevent_env *env, struct fb_uevent *ev, char *why,
		    size_t whylen);
