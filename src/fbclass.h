/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Scan of /sys/class/graphics into plain copies.
 *
 * Rule 1 of the design: hold nothing.  fb_device_scan() returns strings it
 * copied; no libudev handle, sysfs fd or device node survives the call.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sysfs.h"

#define FB_GRAPHICS_MAJOR   29
#define FB_DEVNUM_MAJOR_MAX 4095u
#define FB_DEVNUM_MINOR_MAX 1048575u

struct fb_attr {
	char *name;
	char *value; /* as read, one trailing newline removed */
};

struct fb_device {
	char *name; /* sysname: "fb0" */
	char *syspath; /* /sys/devices/.../graphics/fb0 */
	char *devname; /* DEVNAME from uevent, else name */
	dev_t devnum;
	struct fb_attr *attrs; /* sorted by name: every attribute present with
				* FB_SCAN_ATTRS, else only those it names */
	size_t n_attrs;
	struct fb_parent *parents; /* parents[0] is the "device" link target */
	size_t n_parents;
	char *path_id; /* udev ID_PATH style; NULL without a parent */
};

struct fb_device_list {
	struct fb_device *devices; /* sorted by minor */
	size_t n;
};

/* What a scan reads.  Every scan reads dev, uevent, the "name" attribute
 * and the parent chain (driver, path id). */
enum fb_scan_what {
	/* Through the library, with each parent's module and modalias. */
	FB_SCAN_NODE = 0,
	/* The same, and every attribute (list, info). */
	FB_SCAN_ATTRS = 1 << 0,
	/* What a node plan needs and nothing more: the sysfs seam's direct
	 * reader, parents without module or modalias (coldplug, hotplug,
	 * the daemon).  Not with FB_SCAN_ATTRS. */
	FB_SCAN_PLAN = 1 << 1,
};

/* Enumerate the graphics class.  Malformed entries are warned about and
 * skipped.  Returns 0 or -errno (the class itself could not be read). */
int fb_device_scan(struct fb_device_list *list, unsigned what);
/* Read one class device by syspath ("/sys/devices/.../fb0" or
 * "/sys/class/graphics/fb0").  -ENODEV when it is gone or has no "dev",
 * -EINVAL when it is malformed (already warned), -ENAMETOOLONG when the
 * sysfs backend cannot address it (libsysfs; already reported). */
int fb_device_scan_one(const char *syspath, unsigned what, struct fb_device *dev);
void fb_device_free(struct fb_device *dev);
void fb_device_list_free(struct fb_device_list *list);
/* Find by "fb0", "0", "/dev/fb0", "/sys/class/graphics/fb0" or a symlink
 * to a node. */
const struct fb_device *fb_device_list_find(const struct fb_device_list *list,
					    const char *spec);

/*
 * What the daemon compares to tell that graphics device name is still the
 * registration it planned for: where /sys/class/graphics/NAME points, its
 * dev, uevent and name attributes, and its parent's driver link, in one
 * malloc'd string.  A dozen syscalls and no library, against a scan's
 * hundreds.  0, -ENODEV when the device is gone, or -errno.
 */
int fb_device_fingerprint(const char *name, char **out);

const char *fb_device_attr(const struct fb_device *dev, const char *name);
const struct fb_parent *fb_device_parent(const struct fb_device *dev);

/* ---- strict parsers: pure functions, no I/O ---- */

/* Decimal "MAJ:MIN", an optional single '\n', nothing else.  -EINVAL or
 * -ERANGE. */
int fb_parse_devnum(const char *text, dev_t *out);
/* A decimal unsigned with an optional trailing '\n'. */
int fb_parse_uint(const char *text, unsigned *out);
/* "X,Y" as in virtual_size. */
int fb_parse_pair(const char *text, unsigned *x, unsigned *y);

/* The "mode" attribute, e.g. "U:1024x768p-75" or "S:640x480-60". */
struct fb_sysfs_mode {
	char kind; /* 'U' user, 'S' standard, 'V' VESA, 'D' detailed, ... */
	unsigned xres, yres;
	char scan; /* 'p' progressive, 'i' interlaced, 'd' doublescan */
	unsigned refresh;
};
int fb_parse_mode(const char *text, struct fb_sysfs_mode *out);
/* Count of modes in the "modes" attribute; each line must parse. */
int fb_parse_modes(const char *text, size_t *count);

/* One step of the path-id chain: what udev's path_id looks at. */
struct fb_path_elem {
	const char *subsystem;
	const char *sysname;
};
/* udev ID_PATH for a parent chain (nearest first): "pci-0000:00:02.0",
 * "platform-vfb.0", "pci-0000:00:14.0-usb-0:1.2:1.0".  NULL when no
 * element names a supported bus, or on ENOMEM (errno tells). */
char *fb_path_id_build(const struct fb_path_elem *chain, size_t n);
