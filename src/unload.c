/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Safe unload: the procedure, the decision, the unbind, and the wait. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fbclass.h"
#include "holders.h"
#include "kernel-hazards.h"
#include "kernel.h"
#include "kmod.h"
#include "log.h"
#include "macro.h"
#include "nodemgr.h"
#include "nodes.h"
#include "rules.h"
#include "strutil.h"
#include "sysfs-file.h"
#include "unload.h"

enum fb_unload_method fb_unload_decide(const struct fb_unload_facts *f, const char **why)
{
	const char *dummy;

	if (!why)
		why = &dummy;
	if (!f->has_parent) {
		*why = "it has no parent device";
		return FB_UNLOAD_NONE;
	}
	if (!f->has_driver) {
		*why = "its parent device has no driver bound";
		return FB_UNLOAD_NONE;
	}
	if (!f->has_module) {
		*why = "the driver is built in";
		return FB_UNLOAD_UNBIND;
	}
	if (f->holders_present) {
		*why = "processes hold the device (--force): its module must stay loaded";
		return FB_UNLOAD_UNBIND;
	}
	if (f->refcnt < 0) {
		*why = "the module's refcount is unknown";
		return FB_UNLOAD_UNBIND;
	}
	if (f->refcnt > 0) {
		*why = "the module is in use (refcount above 0)";
		return FB_UNLOAD_UNBIND;
	}
	if (f->bound_devices != 1) {
		*why = "the driver runs other devices too";
		return FB_UNLOAD_UNBIND;
	}
	if (!f->on_platform_bus) {
		*why = "a device on a hardware bus is unbound, not its module removed";
		return FB_UNLOAD_UNBIND;
	}
	*why = "the module's refcount is 0 and it drives this device alone";
	return FB_UNLOAD_REMOVE_MODULE;
}

unsigned fb_unload_count_bound(const char *parent_syspath)
{
	char path[4096];
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/driver", parent_syspath);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_type == DT_LNK && strcmp(de->d_name, "module") != 0)
			n++;
	closedir(d);
	return n;
}

int fb_unload_unbind(const char *parent_syspath, const char *sysname)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/driver/unbind", parent_syspath);
	return sysfs_file_write(path, sysname);
}

int fb_wait_gone(const char *path, unsigned timeout_ms)
{
	struct timespec step = { .tv_sec = 0, .tv_nsec = 20 * 1000 * 1000 };
	unsigned waited = 0;
	struct stat st;

	for (;;) {
		if (lstat(path, &st) < 0 && errno == ENOENT)
			return 0;
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&step, NULL);
		waited += 20;
	}
}

int fb_unload_node_aside(const char *devdir, const char *name, dev_t devnum, char *aside,
			 size_t len)
{
	_cleanup_close_ int dfd = node_dir_open(devdir);
	struct stat st;

	aside[0] = '\0';
	if (dfd < 0)
		return dfd;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISCHR(st.st_mode) || st.st_rdev != devnum)
		return 0; /* not ours to move: the node manager leaves it too */
	if ((size_t)snprintf(aside, len, NODE_TMP_PREFIX "%d-%s", (int)getpid(), name) >=
	    len) {
		aside[0] = '\0';
		return -ENAMETOOLONG;
	}
	if (renameat(dfd, name, dfd, aside) < 0) {
		aside[0] = '\0';
		return -errno;
	}
	return 0;
}

/* Put the node aside back as name, or with name NULL remove it.  Nothing
 * to do when nothing was put aside. */
static int node_from_aside(const char *devdir, const char *aside, const char *name)
{
	_cleanup_close_ int dfd = -1;

	if (!*aside)
		return 0;
	dfd = node_dir_open(devdir);
	if (dfd < 0)
		return dfd;
	if (!name)
		return unlinkat(dfd, aside, 0) < 0 && errno != ENOENT ? -errno : 0;
	/* RENAME_NOREPLACE: a node made meanwhile (a coldplug) is kept */
	if (renameat2(dfd, aside, dfd, name, RENAME_NOREPLACE) < 0) {
		if (errno != EEXIST)
			return -errno; /* left aside: a coldplug puts a node back */
		unlinkat(dfd, aside, 0);
	}
	return 0;
}

int fb_unload_node_back(const char *devdir, const char *name, const char *aside)
{
	return node_from_aside(devdir, aside, name);
}

int fb_unload_node_drop(const char *devdir, const char *aside)
{
	return node_from_aside(devdir, aside, NULL);
}

/* ---- the procedure ---- */

/* One unload: the device, and what was done to it so far. */
struct unload {
	const struct fb_unload_opts *o;
	const struct fb_device *dev;
	const struct fb_parent *parent;
	size_t n_holders, n_uninspectable;
	struct fb_fbcon_state fbcon;
	bool fbcon_unbound;
	bool driver_gone;
	char aside[NODE_NAME_MAX + 32]; /* the node's name while it is moved aside */
};

static const char *node_name_of(const struct fb_device *dev)
{
	return dev->devname ? dev->devname : dev->name;
}

/* A known kernel bug that this way of unloading the driver, with the
 * device held, meets on this kernel (src/kernel-hazards.tab): the
 * unload's --force never goes past one.  NULL when none applies. */
static const struct kernel_hazard *unload_hazard(const struct unload *u,
						 enum fb_unload_method how, char *version,
						 size_t len)
{
	static const char *const rmmod[] = { "rmmod-open" };
	static const char *const unbind[] = { "unbind-mapped", "unbind-mapped-exit" };
	const char *const *triggers = how == FB_UNLOAD_REMOVE_MODULE ? rmmod : unbind;
	size_t n =
		how == FB_UNLOAD_REMOVE_MODULE ? ARRAY_SIZE(rmmod) : ARRAY_SIZE(unbind);
	const struct kernel_hazard *h = NULL;

	kernel_upstream_version(version, len);
	for (size_t t = 0; !h && u->parent && t < n; t++) {
		size_t i = 0;

		h = kernel_hazard_next(version, u->parent->driver, triggers[t], &i);
	}
	return h;
}

/* --force with the device held: refused where a known kernel bug waits.
 * 0, or -EBUSY (reported). */
static int refuse_known_bug(const struct unload *u, enum fb_unload_method how)
{
	const struct kernel_hazard *h;
	char version[32];

	if (!u->o->force || !u->n_holders)
		return 0;
	h = unload_hazard(u, how, version, sizeof(version));
	if (!h)
		return 0;
	ERR("%s: refusing to unload, even with --force: a known kernel bug of %s (%s) on %s: %s",
	    u->dev->name, u->parent->driver, h->id, version, h->description);
	return -EBUSY;
}

/* Holders of the device, each printed.  Returns the count; *uninspectable
 * counts the processes that could not be looked into. */
static size_t check_holders(const struct fb_device *dev, const char *devdir, bool force,
			    size_t *uninspectable)
{
	struct fb_holder_target t;
	struct fb_holder_list hl;
	char how[512];
	size_t n;
	int r;

	fb_holder_target_init(&t, dev, devdir);
	r = fb_holders_scan("/proc", &t, 1, &hl);
	if (r < 0) {
		log_errno(r, "/proc: cannot scan processes: %m");
		*uninspectable = 1;
		return 0;
	}
	n = hl.n;
	*uninspectable = hl.n_uninspectable;
	for (size_t i = 0; i < hl.n; i++) {
		const struct fb_holder *h = &hl.holders[i];

		fb_holder_describe(h, how, sizeof(how));
		if (force)
			WRN("%s: held by pid %d (%s): %s", dev->name, (int)h->pid,
			    h->comm, how);
		else
			ERR("%s: held by pid %d (%s): %s", dev->name, (int)h->pid,
			    h->comm, how);
	}
	fb_holder_list_free(&hl);
	return n;
}

/* 1. Holders.  A process we cannot look into might hold it too.  0, or
 * -EBUSY (reported). */
static int refuse_if_held(struct unload *u)
{
	const char *name = u->dev->name;
	size_t uninspectable, n;

	n = u->n_holders =
		check_holders(u->dev, u->o->nm.devdir, u->o->force, &uninspectable);
	u->n_uninspectable = uninspectable;
	if (u->o->force)
		return 0; /* said by remove_driver(), once it is sure to go on */
	if (n)
		ERR("%s: refusing to unload: %zu process%s hold%s it; close %s first (or see --force)",
		    name, n, n == 1 ? "" : "es", n == 1 ? "s" : "",
		    n == 1 ? "it" : "them");
	if (uninspectable)
		ERR("%s: refusing to unload: %zu process%s could not be inspected%s",
		    name, uninspectable, uninspectable == 1 ? "" : "es",
		    geteuid() == 0 ? ": their holds are unknown" : " (run as root)");
	return n || uninspectable ? -EBUSY : 0;
}

/* 2. fbcon, if it runs on this framebuffer.  0 or -errno (reported). */
static int unbind_fbcon(struct unload *u)
{
	const char *name = u->dev->name;
	unsigned first, last;
	int nc, r;

	if (fb_fbcon_read("/sys", &u->fbcon) != 0 || !u->fbcon.bound)
		return 0;
	nc = fb_fbcon_consoles(u->dev, u->o->nm.devdir, &first, &last);
	if (nc == 0)
		return 0;
	if (nc > 0)
		print_line_escaped("%s: unbinding fbcon (%s, consoles %u-%u) first", name,
				   u->fbcon.vtcon, first, last);
	else
		print_line_escaped(
			"%s: unbinding fbcon (%s; its console map is unknown: %s) first",
			name, u->fbcon.vtcon, strerror(-nc));
	fflush(stdout);
	r = fb_fbcon_set_bind("/sys", &u->fbcon, false);
	if (r < 0)
		return log_errno(
			r,
			"%s: cannot unbind fbcon through /sys/class/vtconsole/%s/bind: %m",
			name, u->fbcon.vtcon);
	u->fbcon_unbound = true;
	return 0;
}

/* Nothing was removed: give the console back. */
static void rebind_fbcon(const struct unload *u)
{
	if (fb_fbcon_set_bind("/sys", &u->fbcon, true) == 0)
		print_line_escaped("%s: fbcon bound again (%s)", u->dev->name,
				   u->fbcon.vtcon);
	else
		WRN("%s: fbcon stays unbound: cannot write /sys/class/vtconsole/%s/bind",
		    u->dev->name, u->fbcon.vtcon);
}

static int remove_module(const struct unload *u, struct fb_kmod *kmod, const char *why)
{
	const char *module = u->parent->module;
	int r;

	print_line_escaped("%s: removing module %s (%s)", u->dev->name, module, why);
	fflush(stdout);
	r = fb_kmod_remove(kmod, module);
	if (r < 0)
		return log_errno(r, "%s: cannot remove module %s: %m", u->dev->name,
				 module);
	return 0;
}

static int unbind_parent(const struct unload *u, const char *why)
{
	const struct fb_parent *p = u->parent;
	int r;

	if (p->module)
		print_line_escaped("%s: unbinding %s from driver %s (module %s: %s)",
				   u->dev->name, p->sysname, p->driver, p->module, why);
	else
		print_line_escaped("%s: unbinding %s from driver %s (%s)", u->dev->name,
				   p->sysname, p->driver, why);
	fflush(stdout);
	r = fb_unload_unbind(p->syspath, p->sysname);
	if (r < 0)
		return log_errno(r, "%s: cannot unbind %s through %s/driver/unbind: %m",
				 u->dev->name, p->sysname, p->syspath);
	return 0;
}

/* 3. Module or unbind, as fb_unload_decide says.  0 or -errno (reported). */
static int remove_driver(struct unload *u)
{
	const struct fb_parent *parent = u->parent;
	struct fb_unload_facts facts = {
		.refcnt = -1,
		.has_parent = parent != NULL,
		.has_driver = parent && parent->driver,
		.has_module = parent && parent->module,
		.holders_present = u->n_holders > 0,
		.on_platform_bus = parent && streq_ptr(parent->subsystem, "platform"),
	};
	struct fb_kmod *kmod = NULL;
	enum fb_unload_method action;
	const char *why = NULL;
	int r = 0;

	if (facts.has_module) {
		r = fb_kmod_new(&kmod);
		if (r < 0) {
			if (r == -ENOMEM)
				ERR("%s: cannot start module loading (%s)", u->dev->name,
				    fb_kmod_backend_name);
			return r;
		}
		facts.refcnt = fb_kmod_refcnt(kmod, parent->module);
	}
	if (facts.has_driver)
		facts.bound_devices = fb_unload_count_bound(parent->syspath);
	action = fb_unload_decide(&facts, &why);
	r = refuse_known_bug(u, action);
	if (r < 0)
		goto finish;
	if (u->o->force && action != FB_UNLOAD_NONE &&
	    (u->n_holders || u->n_uninspectable))
		WRN("*** --force: %s is unloaded although %zu process%s hold%s it and %zu could not be inspected; their next access or close may crash the kernel ***",
		    u->dev->name, u->n_holders, u->n_holders == 1 ? "" : "es",
		    u->n_holders == 1 ? "s" : "", u->n_uninspectable);
	switch (action) {
	case FB_UNLOAD_NONE:
		ERR("%s: cannot unload: %s", u->dev->name, why);
		r = -ENODEV;
		break;
	case FB_UNLOAD_REMOVE_MODULE:
		r = remove_module(u, kmod, why);
		break;
	case FB_UNLOAD_UNBIND:
		r = unbind_parent(u, why);
		break;
	}
finish:
	fb_kmod_free(kmod);
	u->driver_gone = r == 0;
	return r;
}

/* 4. Wait for the class device to go, then its node and links go the
 * node manager's way.  0 or -errno (reported). */
static int remove_node(const struct unload *u, const struct fb_rules *rules)
{
	const struct fb_device *dev = u->dev;
	int r;

	r = fb_wait_gone(dev->syspath, u->o->timeout * 1000);
	if (r < 0) {
		ERR("%s: %s still exists after %llu s; node left in place", dev->name,
		    dev->syspath, u->o->timeout);
		return r;
	}
	print_line_escaped("%s: %s is gone", dev->name, dev->syspath);
	r = nodemgr_remove(&u->o->nm, rules, dev->devname ? dev->devname : dev->name,
			   dev->devnum);
	if (r < 0)
		return log_errno(r, "%s: cannot remove its node and links under %s: %m",
				 dev->name, u->o->nm.devdir);
	return 0;
}

/* Move the node aside, so that nothing opens it by name from now on.
 * 0 or -errno (reported). */
static int node_aside(struct unload *u)
{
	const struct fb_device *dev = u->dev;
	int r = fb_unload_node_aside(u->o->nm.devdir, node_name_of(dev), dev->devnum,
				     u->aside, sizeof(u->aside));

	if (r < 0)
		return log_errno(r, "%s: cannot move %s/%s aside: %m", dev->name,
				 u->o->nm.devdir, node_name_of(dev));
	return 0;
}

static void node_back(const struct unload *u)
{
	int r = fb_unload_node_back(u->o->nm.devdir, node_name_of(u->dev), u->aside);

	if (r < 0)
		log_warn_errno(
			r,
			"%s: cannot put %s/%s back (it is %s/%s; 'fbclassctl coldplug' makes a new one): %m",
			u->dev->name, u->o->nm.devdir, node_name_of(u->dev),
			u->o->nm.devdir, u->aside);
}

/* 1b. Right before the unload, with the node aside: a process that opened
 * it since the first look holds it now.  0, or -EBUSY (reported). */
static int refuse_if_held_now(struct unload *u)
{
	size_t uninspectable, n;

	if (u->o->force)
		return 0;
	n = check_holders(u->dev, u->o->nm.devdir, false, &uninspectable);
	if (!n && !uninspectable)
		return 0;
	ERR("%s: refusing to unload: %zu process%s opened it during the unload; close %s first",
	    u->dev->name, n + uninspectable, n + uninspectable == 1 ? "" : "es",
	    n + uninspectable == 1 ? "it" : "them");
	return -EBUSY;
}

int fb_unload_device(const struct fb_unload_opts *o, const struct fb_rules *rules,
		     const struct fb_device *dev)
{
	struct unload u = { .o = o, .dev = dev, .parent = fb_device_parent(dev) };
	int r;

	r = refuse_if_held(&u);
	if (r == 0)
		r = node_aside(&u);
	if (r == 0)
		r = unbind_fbcon(&u);
	if (r == 0)
		r = refuse_if_held_now(&u);
	if (r == 0)
		r = remove_driver(&u);
	if (r == 0)
		r = remove_node(&u, rules);
	if (u.fbcon_unbound && !u.driver_gone)
		rebind_fbcon(&u);
	/* the device is gone: its node with it; else it goes back in place */
	if (r < 0)
		node_back(&u);
	else if (fb_unload_node_drop(o->nm.devdir, u.aside) < 0)
		WRN("%s: %s/%s is left; the next coldplug removes it", dev->name,
		    o->nm.devdir, u.aside);
	else if (*u.aside && o->nm.say_removed)
		print_line_escaped("removed %s/%s", o->nm.devdir, node_name_of(dev));
	return r;
}
