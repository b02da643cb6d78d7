/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Safe removal of a framebuffer's driver: check holders, unbind fbcon,
 * then remove the module (refcount 0) or unbind the parent device, wait for
 * the class device to go, and remove the node and its links.
 *
 * The race window: a process can open the node between the holder check
 * and the unbind/unload.  It is kept small by doing nothing slow in
 * between (the fbcon unbind, then at once the unload), but it cannot be
 * closed from user space; the kernel would need a module reference per
 * open file, which vfb's fb_ops do not take.
 */

#include <stdbool.h>
#include <sys/types.h>

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

/* Pure: does the symlink target, found in directory linkdir (relative to
 * the device directory devdir, e.g. "fb/by-path"), name the entry devname
 * of devdir?  Relative targets are resolved lexically ("../../fb1");
 * absolute ones must be devdir/devname. */
bool fb_link_points_to(const char *devdir, const char *linkdir, const char *target,
		       const char *devname);

/* Remove devdir/devname if it is still a character device with devnum,
 * and every symlink in devdir/fb/by-* that points to it.  When something
 * else has taken the name, nothing is removed (and a warning says so);
 * when the name is free, the links to it still are.  Never follows a
 * symlink: each directory is opened with O_NOFOLLOW|O_DIRECTORY relative
 * to its parent's fd and entries are removed with unlinkat.  Calls
 * report(path) for each removal.  Returns the number of entries removed
 * or -errno. */
int fb_unload_remove_node(const char *devdir, const char *devname, dev_t devnum,
			  void (*report)(const char *path));

/* Wait until path no longer exists, up to timeout_ms.  0 or -ETIMEDOUT. */
int fb_wait_gone(const char *path, unsigned timeout_ms);
