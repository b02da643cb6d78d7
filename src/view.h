/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdio.h>

#include "display.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"

/* Everything one command shows about one framebuffer, gathered once. */
struct fb_view {
	const struct fb_device *dev;
	struct fb_hw_node node;
	struct fb_hwinfo hw;
	struct fb_pixel_format fmt; /* valid when hw.valid */
	unsigned sys_bpp, sys_stride, sys_vx, sys_vy; /* from sysfs, 0 if absent */
	bool has_sys_bpp, has_sys_stride, has_sys_virt;
	struct fb_sysfs_mode sys_mode; /* "mode", else "modes" when it has one line */
	bool has_sys_mode;
	/* the display side, after fb_view_join_display() */
	const struct drm_card *card; /* NULL: no DRM card drives it */
	enum fb_kind kind;
};

/* Nodes this user may not open, gathered over a command's devices and
 * said in one line by fb_view_denied_say(). */
struct fb_view_denied {
	char nodes[1024]; /* "/dev/fb0, /dev/fb1" */
	size_t n;
	struct fb_hw_node first; /* its owner and mode name the way in */
};

/* Why the hardware could not be queried: "/dev/fb0 is missing", and the
 * way out, " ('fbclassctl coldplug' creates it)" or "". */
struct fb_view_why {
	char what[4200];
	char hint[64];
};
/* After fb_view_load_sysfs(): query the hardware, quietly.  0, or -errno
 * with why filled in. */
int fb_view_query(struct fb_view *v, const char *devdir, bool allow_private,
		  struct fb_view_why *why);
/* Inspect the node and query the hardware; says on stderr why values come
 * from sysfs only, but for a node this user may not open when denied is
 * given: that one is added there. */
void fb_view_load(struct fb_view *v, const struct fb_device *dev, const char *devdir,
		  bool allow_private, struct fb_view_denied *denied);
/* What sysfs and a stat of the node say, without opening it: no ioctl,
 * no warning. */
void fb_view_load_sysfs(struct fb_view *v, const struct fb_device *dev,
			const char *devdir);
/* One warning for all of denied's nodes, naming their owner, group and
 * mode; nothing when there are none. */
void fb_view_denied_say(const struct fb_view_denied *denied);

/* Find the framebuffer's DRM card in drm (NULL: none scanned) and tell its
 * kind.  After fb_view_load(): the kind needs fix.id. */
void fb_view_join_display(struct fb_view *v, const struct drm_list *drm);

/* The device's identification: fix.id from the ioctl, else sysfs "name". */
const char *fb_view_id(const struct fb_view *v, char *buf, size_t len);

/* info --modes: the current mode with its own timings, then each line of
 * sysfs "modes" and, on DRM's fbdev emulation, each size a connected
 * connector offers, with VESA CVT's timings (sysfs gives none), each as
 * an fb.modes block under a comment naming where it is from; one block a
 * size and refresh.  fbmodes_parse() and fbset -db read it back.  In
 * view-modes.c. */
void fb_view_print_modes(FILE *out, const struct fb_view *v);
