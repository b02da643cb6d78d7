/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Inside the sysfs seam: what one reader provides.  src/sysfs.c hands each
 * call of src/sysfs.h to the reader that opened the handle; a reader's own
 * handles start with struct fb_sysfs and struct fb_sysfs_dev.
 */

#include <stddef.h>

#include "sysfs.h"

struct fb_sysfs_ops {
	void (*free)(struct fb_sysfs *s);
	int (*class_list)(struct fb_sysfs *s, char ***syspaths, size_t *n);
	int (*dev_open)(struct fb_sysfs *s, const char *syspath, struct fb_sysfs_dev **d);
	void (*dev_close)(struct fb_sysfs_dev *d);
	char *(*dev_attr)(struct fb_sysfs_dev *d, const char *name);
	int (*dev_read)(struct fb_sysfs_dev *d, const char *name, char *buf, size_t size);
	int (*dev_attr_names)(struct fb_sysfs_dev *d, char ***names, size_t *n);
	int (*dev_parents)(struct fb_sysfs_dev *d, struct fb_parent **parents, size_t *n);
};

struct fb_sysfs {
	const struct fb_sysfs_ops *ops;
};

/* syspath and sysname are the reader's, valid until dev_close. */
struct fb_sysfs_dev {
	const struct fb_sysfs_ops *ops;
	const char *syspath;
	const char *sysname;
};

/* Each returns 0 or -errno with *s set up, ops included. */
int fb_sysfs_library_new(struct fb_sysfs **s, const char *subsystem);
int fb_sysfs_direct_new(struct fb_sysfs **s, const char *subsystem);

#define fb_sysfs_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr)-offsetof(type, member)))
