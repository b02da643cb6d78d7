/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Safe removal of a framebuffer's driver: check holders, unbind fbcon,
 * then remove the module (refcount 0) or unbind the parent device, wait for
 * the class device to go; its node and links then go through the node
 * manager (nodemgr_remove), as for hotplug's remove.
 *
 * The race window: a process can open the node between the holder check
 * and the unbind/unload.  It is kept small by doing nothing slow in
 * between (the fbcon unbind, then at once the unload), but it cannot be
 * closed from user space; the kernel would need a module reference per
 * open file, which vfb's fb_ops do not take.
 */

#include <stdbool.h>
#include <sys/types.h>

#include "nodemgr.h"

struct fb_device;
struct fb_rules;

/* What unload was asked. */
struct fb_unload_opts {
	struct nodemgr_opts nm; /* --dev, --config: the node manager's */
	unsigned long long timeout; /* seconds to wait for the device to go */
	bool force; /* go on although processes hold it */
};

/*
 * The whole unload of dev, each step said on stdout: refuse while it is
 * held (but with force), move its node aside, unbind fbcon, look again,
 * remove the driver as fb_unload_decide() says, wait for the class device
 * to go, then remove its node and links (nodemgr_remove with rules).  On a
 * refusal or failure fbcon and the node are put back.  0 or -errno
 * (reported; -EBUSY: held).
 */
int fb_unload_device(const struct fb_unload_opts *o, const struct fb_rules *rules,
		     const struct fb_device *dev);

enum fb_unload_method {
	FB_UNLOAD_NONE, /* cannot: no parent or no driver */
	FB_UNLOAD_REMOVE_MODULE, /* kmod_module_remove_module */
	FB_UNLOAD_UNBIND, /* write the parent's name to driver/unbind */
};

/* What is known when deciding. */
struct fb_unload_facts {
	bool has_parent;
	bool has_driver;
	bool has_module; /* the driver is a loadable module */
	long refcnt; /* module refcount; < 0 unknown (built-in, gone) */
	unsigned bound_devices; /* devices bound to the driver, this one included */
	bool on_platform_bus; /* the parent is a platform device (vfb.0, vesafb.0) */
	bool holders_present; /* only possible with --force */
};

/* Pure: remove the module only when it is loadable, its refcount is 0,
 * it drives this device alone, the device is a platform device (which such
 * a module typically made itself, as vfb does), and no process holds the
 * device (with --force and holders present the module's code must stay:
 * their close would run it).  Otherwise unbind this one device: a PCI or
 * USB device stays where it is and can be bound again. */
enum fb_unload_method fb_unload_decide(const struct fb_unload_facts *f, const char **why);

/* Devices bound to the driver of the parent device at parent_syspath:
 * the driver directory's symlinks other than "module". */
unsigned fb_unload_count_bound(const char *parent_syspath);
/* Unbind the parent device sysname at parent_syspath from its driver
 * (driver/unbind).  0 or -errno. */
int fb_unload_unbind(const char *parent_syspath, const char *sysname);

/* Wait until path no longer exists, up to timeout_ms.  0 or -ETIMEDOUT. */
int fb_wait_gone(const char *path, unsigned timeout_ms);

/*
 * The window between the holder check and the unload: a process that
 * opens the node in between is not seen.  It is made as small as it can
 * be by moving the node aside first, under the node manager's temporary
 * name (devdir/.fbclassctl-PID-NAME, which a later coldplug prunes should
 * we die), so that no new open by its name can succeed, and by checking
 * the holders once more right before the unload.
 *
 * fb_unload_node_aside: when devdir/name is the character device devnum,
 * rename it aside (aside receives the new name, "" when there was no such
 * node).  0 or -errno.  fb_unload_node_back: rename it back (a refusal);
 * fb_unload_node_drop: remove it (the device is gone).  Both do nothing
 * for an empty aside, and never follow a symlink.
 */
int fb_unload_node_aside(const char *devdir, const char *name, dev_t devnum, char *aside,
			 size_t len);
int fb_unload_node_back(const char *devdir, const char *name, const char *aside);
int fb_unload_node_drop(const char *devdir, const char *aside);
