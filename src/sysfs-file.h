/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Below the sysfs seam: reading one sysfs file, which every reader
 * (src/sysfs-direct.c, src/sysfs-libudev.c, src/sysfs-libsysfs.c) and the
 * graphics scan's fingerprint share.  It calls nothing of the seam, so the
 * seam's layers only point down to it.
 */

#include <stddef.h>

/* A file below dirfd (AT_FDCWD: an absolute path) as fb_sysfs_dev_read()
 * returns an attribute: one open, one read for what fits (sysfs hands an
 * attribute out whole, so a short read is its end), one close.  Its
 * length, NUL-terminated in buf; -EINVAL when it holds a NUL, or -errno. */
int sysfs_file_read_at(int dirfd, const char *path, char *buf, size_t size);
/* The same for syspath/name; -ENAMETOOLONG when that is no path. */
int sysfs_file_read_attr(const char *syspath, const char *name, char *buf, size_t size);

/* Write value to a sysfs file (an absolute path) in one write(2), as the
 * kernel takes an attribute: 0, -EIO on a short write, or -errno (the
 * kernel's refusal of the value, e.g. -EINVAL, comes back here). */
int sysfs_file_write(const char *path, const char *value);

/* The value of KEY= in uevent text ("KEY=VALUE\n" lines): a malloc'd
 * copy, or NULL when absent (or ENOMEM). */
char *sysfs_file_uevent_value(const char *uevent, const char *key);
