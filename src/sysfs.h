/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The seam between the scans (src/fbclass.c, src/display.c) and what reads
 * sysfs.  Two readers:
 * - the library: libudev (src/sysfs-libudev.c, the default) or libsysfs
 *   (src/sysfs-libsysfs.c, ./configure --with-libsysfs).  configure builds
 *   exactly one of the two files; nothing above this header knows which.
 *   list, info and everything that shows a device read through it.
 * - the direct reader (src/sysfs-direct.c), in every build: no library,
 *   one fd on /sys and everything relative to it (openat, readlinkat,
 *   faccessat, getdents64), each ancestor of a scan read once, one device
 *   open at a time.  Parents come without modalias.  The node manager's
 *   plan reads through it, so both builds make the same coldplug.
 *
 * Hold nothing: a struct fb_sysfs lives for one scan, a struct
 * fb_sysfs_dev for one device of it, and every string handed out is the
 * caller's own copy.
 */

#include <stdbool.h>
#include <stddef.h>

/* One ancestor of a class device that is a device, nearest first. */
struct fb_parent {
	char *syspath;
	char *sysname;
	char *subsystem; /* NULL when the device has none */
	char *driver; /* NULL when no driver is bound */
	char *module; /* from the driver's "module" link; NULL for built-ins */
	char *modalias;
};

/* "libudev" or "libsysfs", for fbclassctl --version. */
extern const char fb_sysfs_backend_name[];

struct fb_sysfs;
struct fb_sysfs_dev;

enum fb_sysfs_reader {
	FB_SYSFS_LIBRARY,
	FB_SYSFS_DIRECT,
};

/* A reader of one class: "graphics", or "drm" for the display side.
 * Returns 0 or -errno (-ENODEV: the direct reader found no /sys). */
int fb_sysfs_new(struct fb_sysfs **s, const char *subsystem, enum fb_sysfs_reader reader);
void fb_sysfs_free(struct fb_sysfs *s);

/* The syspaths (canonical, /sys/devices/...) of every entry of the
 * class (for graphics, fbcon included): malloc'd array of malloc'd
 * strings.  A class that does not exist has no entries.  Returns 0 or
 * -errno (the class could not be read). */
int fb_sysfs_class_list(struct fb_sysfs *s, char ***syspaths, size_t *n);

/* Open one device of the class by syspath (/sys/devices/... or
 * /sys/class/CLASS/NAME).  -ENODEV when it is gone or not of the class,
 * -ENAMETOOLONG when the backend cannot address it (reported), -EBUSY
 * when the direct reader has a device open already. */
int fb_sysfs_dev_open(struct fb_sysfs *s, const char *syspath, struct fb_sysfs_dev **d);
void fb_sysfs_dev_close(struct fb_sysfs_dev *d);
const char *fb_sysfs_dev_syspath(const struct fb_sysfs_dev *d);
const char *fb_sysfs_dev_sysname(const struct fb_sysfs_dev *d);

/* One attribute of the device, as the library read it (trailing newlines
 * may or may not be there: the caller strips them).  A malloc'd copy, or
 * NULL when absent, unreadable or out of memory (errno tells). */
char *fb_sysfs_dev_attr(struct fb_sysfs_dev *d, const char *name);
/* One attribute as raw bytes, NUL-terminated in buf (size bytes), without
 * the newline stripping libudev does: the strict parsers must see exactly
 * what the kernel wrote.  Its length, -ENOENT when absent, -EINVAL when it
 * holds a NUL, or -errno; longer ones are cut at size - 1. */
int fb_sysfs_dev_read(struct fb_sysfs_dev *d, const char *name, char *buf, size_t size);
/* The names of the device's own regular-file attributes (no links, no
 * subdirectories): malloc'd array of malloc'd strings.  0 or -errno. */
int fb_sysfs_dev_attr_names(struct fb_sysfs_dev *d, char ***names, size_t *n);
/* The ancestors that are devices (they have a uevent file), nearest
 * first, with syspath, sysname, subsystem, driver and (but for the direct
 * reader) modalias filled in; module is the caller's.  0 or -errno. */
int fb_sysfs_dev_parents(struct fb_sysfs_dev *d, struct fb_parent **parents, size_t *n);

/* Module loading: for every device of the given bus subsystems that has a
 * modalias and no bound driver, fn(syspath, modalias, userdata).  Returns
 * 0 or -errno (reported). */
typedef void (*fb_sysfs_unbound_fn)(const char *syspath, const char *modalias,
				    void *userdata);
int fb_sysfs_for_each_unbound(const char *const *subsystems, size_t n,
			      fb_sysfs_unbound_fn fn, void *userdata);
/* The modalias of one device when no driver is bound to it: a malloc'd
 * copy, or NULL (gone, bound, no modalias). */
char *fb_sysfs_unbound_modalias(const char *syspath);

/* ---- in src/sysfs.c, above the readers ---- */

/* fb_sysfs_dev_parents() with each driver's module filled in (the
 * driver's "module" link, read alike for every reader).  0 or -errno. */
int fb_sysfs_parents_copy(struct fb_sysfs_dev *sd, struct fb_parent **parents, size_t *n);
void fb_sysfs_parents_free(struct fb_parent *parents, size_t n);
