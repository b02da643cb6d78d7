/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdio.h>

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
	struct fb_sysfs_mode sys_mode;
	bool has_sys_mode;
};

/* Inspect the node and query the hardware; says on stderr why values come
 * from sysfs only. */
void fb_view_load(struct fb_view *v, const struct fb_device *dev, const char *devdir,
		  bool allow_private);

/* The device's identification: fix.id from the ioctl, else sysfs "name". */
const char *fb_view_id(const struct fb_view *v, char *buf, size_t len);
