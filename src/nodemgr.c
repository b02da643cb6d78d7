/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The node manager's one code path for coldplug, the uevent helper and the
 * daemon: scan, plan, apply, prune.  See nodemgr.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "commands.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"
#include "nodemgr.h"
#include "log.h"
#include "macro.h"
#include "modules.h"
#include "nodes.h"
#include "rules.h"
#include "uevent.h"

/* Print every bad line; FB_EXIT_USAGE when there was one, FB_EXIT_ERROR when
 * the file could not be read, 0 when the rules are good. */
int nodemgr_rules_load(const struct nodemgr_opts *o, struct fb_rules *rules)
{
	int r = fb_rules_load(o->config, !o->config_given, rules);

	if (r == -EINVAL && rules->n_errors) {
		for (size_t i = 0; i < rules->n_errors; i++)
			ERR("%s", rules->errors[i]);
		return FB_EXIT_USAGE;
	}
	if (r < 0)
		return r == -ENOMEM || r == -EIO ? FB_EXIT_ERROR : FB_EXIT_USAGE;
	return 0;
}

/* fix.id, else the sysfs name; the sysfs "name" attribute is fix.id as the
 * kernel prints it, so the node is opened only for entries without one. */
static const char *device_id(const struct fb_device *dev, const char *devdir,
			     bool allow_private, char *buf, size_t len)
{
	const char *name = fb_device_attr(dev, "name");
	struct fb_hwinfo hw;

	if (name && *name)
		return name;
	if (fb_hw_query(dev, devdir, allow_private, &hw) < 0 || !hw.valid || !hw.fix.id[0])
		return NULL;
	snprintf(buf, len, "%.*s", (int)sizeof(hw.fix.id), hw.fix.id);
	return buf;
}

static int plan_devices(const struct fb_device_list *list, const struct fb_rules *rules,
			const struct nodemgr_opts *o, struct node_plan *plan)
{
	struct node_input *in = calloc(list->n ? list->n : 1, sizeof(*in));
	char(*ids)[sizeof(((struct fb_fix_screeninfo *)0)->id) + 1];
	struct node_owner defaults;
	int r;

	ids = calloc(list->n ? list->n : 1, sizeof(*ids));
	if (!in || !ids) {
		free(in);
		free(ids);
		return -ENOMEM;
	}
	node_owner_defaults(&defaults);
	for (size_t i = 0; i < list->n; i++) {
		in[i].dev = &list->devices[i];
		/* --dry-run makes not even a private temporary node. */
		in[i].id = device_id(&list->devices[i], o->devdir, !o->dry_run, ids[i],
				     sizeof(ids[i]));
	}
	r = node_plan(in, list->n, rules, &defaults, plan);
	free(in);
	free(ids);
	return r;
}

static const char *node_name(const struct fb_device *dev)
{
	return dev->devname ? dev->devname : dev->name;
}

/* The device's node is there: a character device with its number. */
static bool node_present(int dfd, const struct fb_device *dev)
{
	struct stat st;

	return fstatat(dfd, node_name(dev), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISCHR(st.st_mode) && st.st_rdev == dev->devnum;
}

int nodemgr_validate_created(const struct nodemgr_opts *o,
			     const struct fb_device_list *list, const bool *created)
{
	int ret = 0;

	for (size_t i = 0; i < list->n; i++) {
		int r;

		if (!created[i])
			continue;
		r = o->validate(&list->devices[i], o->devdir);
		if (r == -ENODEV)
			continue;
		if (r != 0)
			ret = FB_EXIT_VALIDATION;
		else
			INF("%s: validation passed", list->devices[i].name);
	}
	return ret;
}

static int open_devdir(const char *devdir)
{
	int fd = open(devdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		ERR("%s: cannot open device directory: %m", devdir);
	return fd;
}

void nodemgr_cache_clear(struct nodemgr_cache *c)
{
	if (c->plan) {
		node_plan_free(c->plan);
		free(c->plan);
	}
	for (size_t i = 0; i < c->n; i++) {
		free(c->devs[i].name);
		free(c->devs[i].node);
		free(c->devs[i].fingerprint);
	}
	free(c->devs);
	memset(c, 0, sizeof(*c));
}

/* Keep plan (taken over: *plan is left empty) and the fingerprints of
 * list's devices.  A device whose fingerprint cannot be read is left
 * out: its next event takes the full path.  Out of memory keeps nothing. */
static void cache_fill(struct nodemgr_cache *c, const struct fb_device_list *list,
		       struct node_plan *plan)
{
	struct node_plan *kept = malloc(sizeof(*kept));

	c->devs = calloc(list->n ? list->n : 1, sizeof(*c->devs));
	if (!kept || !c->devs) {
		free(kept);
		nodemgr_cache_clear(c);
		return;
	}
	*kept = *plan;
	memset(plan, 0, sizeof(*plan));
	c->plan = kept;
	for (size_t i = 0; i < list->n; i++) {
		const struct fb_device *dev = &list->devices[i];
		struct nodemgr_cached_dev *k = &c->devs[c->n];
		int r = fb_device_fingerprint(dev->name, &k->fingerprint);

		if (r == -ENOMEM)
			goto fail;
		if (r < 0) {
			DBG("%s: not kept for quick checks: %s", dev->name, strerror(-r));
			continue;
		}
		k->name = strdup(dev->name);
		k->node = strdup(node_name(dev));
		c->n++;
		if (!k->name || !k->node)
			goto fail;
	}
	return;
fail:
	nodemgr_cache_clear(c);
}

int nodemgr_coldplug(const struct nodemgr_opts *o, const struct fb_rules *given,
		     struct nodemgr_cache *keep)
{
	struct fb_device_list list = {};
	struct fb_rules rules = {};
	struct node_plan plan = {};
	unsigned flags = o->dry_run ? NODE_DRY_RUN : 0;
	bool *created = NULL;
	int ret = FB_EXIT_OK, r, dfd = -1;

	if (keep)
		nodemgr_cache_clear(keep);
	if (!given) {
		ret = nodemgr_rules_load(o, &rules);
		if (ret)
			goto finish;
		given = &rules;
	}
	umask(022);
	if (o->load_modules) {
		unsigned n = 0;

		r = fb_modules_load_display(o->dry_run, &n);
		if (r < 0) {
			ret = FB_EXIT_ERROR;
			goto finish;
		}
		if (n && !o->dry_run && o->settle > 0 &&
		    fb_class_settle((unsigned)(o->settle * 1000), 500) == -ETIMEDOUT)
			WRN("graphics class still changing after %g s; going on",
			    o->settle);
	}
	r = fb_device_scan(&list, FB_SCAN_NODE);
	if (r < 0) {
		ERR("cannot scan /sys/class/graphics: %s", strerror(-r));
		ret = FB_EXIT_ERROR;
		goto finish;
	}
	r = plan_devices(&list, given, o, &plan);
	if (r < 0) {
		ERR("cannot plan nodes: %s", strerror(-r));
		ret = FB_EXIT_ERROR;
		goto finish;
	}
	dfd = open_devdir(o->devdir);
	if (dfd < 0) {
		ret = FB_EXIT_ERROR;
		goto finish;
	}
	if (o->validate && !o->dry_run) {
		created = calloc(list.n ? list.n : 1, sizeof(*created));
		if (!created) {
			ret = FB_EXIT_ERROR;
			goto finish;
		}
		for (size_t i = 0; i < list.n; i++)
			created[i] = !node_present(dfd, &list.devices[i]);
	}
	r = node_apply(dfd, o->devdir, &plan, flags);
	if (r < 0)
		ret = FB_EXIT_ERROR;
	r = node_prune(dfd, o->devdir, &plan, flags);
	if (r < 0)
		ret = FB_EXIT_ERROR;
	if (created) {
		for (size_t i = 0; i < list.n; i++)
			created[i] = created[i] && node_present(dfd, &list.devices[i]);
		/* The nodes stay; an error (1) outranks a failed validation (3). */
		r = nodemgr_validate_created(o, &list, created);
		if (r && ret == FB_EXIT_OK)
			ret = r;
	}
	if (keep)
		cache_fill(keep, &list, &plan);
finish:
	free(created);
	if (dfd >= 0)
		close(dfd);
	node_plan_free(&plan);
	fb_device_list_free(&list);
	fb_rules_free(&rules);
	return ret;
}

/* DEVPATH must name a real directory under /sys/devices, not a way out. */
static int check_syspath(const struct fb_uevent *ev, char *syspath, size_t len)
{
	_cleanup_free_ char *real = NULL;

	snprintf(syspath, len, "/sys%s", ev->devpath);
	real = realpath(syspath, NULL);
	if (!real) {
		int r = -errno;

		ERR("%s: uevent rejected: DEVPATH %s: %s (device vanished?)", ev->devname,
		    ev->devpath, strerror(-r));
		return r;
	}
	if (strncmp(real, "/sys/devices/", 13) != 0) {
		ERR("%s: uevent rejected: DEVPATH %s resolves to %s, outside /sys/devices",
		    ev->devname, ev->devpath, real);
		return -EINVAL;
	}
	return 0;
}

static int hotplug_add(const struct nodemgr_opts *o, const struct fb_uevent *ev)
{
	struct fb_device_list list = {};
	struct fb_device dev = {};
	struct fb_rules rules = {};
	struct node_plan plan = {};
	char syspath[FB_UEVENT_DEVPATH_MAX + 8];
	bool planned = false;
	int ret = FB_EXIT_ERROR, r, dfd = -1;

	if (check_syspath(ev, syspath, sizeof(syspath)) < 0)
		return FB_EXIT_ERROR;
	r = fb_device_scan_one(syspath, FB_SCAN_NODE, &dev);
	if (r < 0) {
		ERR("%s: uevent rejected: %s is not a framebuffer now: %s", ev->devname,
		    syspath, r == -ENODEV ? "gone or without dev" : strerror(-r));
		goto finish;
	}
	if (dev.devnum != ev->devnum) {
		ERR("%s: uevent rejected: MAJOR:MINOR %u:%u disagree with sysfs dev %u:%u",
		    ev->devname, major(ev->devnum), minor(ev->devnum), major(dev.devnum),
		    minor(dev.devnum));
		goto finish;
	}
	if (strcmp(dev.name, ev->devname) != 0 ||
	    (dev.devname && strcmp(dev.devname, ev->devname) != 0)) {
		ERR("%s: uevent rejected: DEVNAME disagrees with sysfs name \"%s\"",
		    ev->devname, dev.devname ? dev.devname : dev.name);
		goto finish;
	}
	ret = nodemgr_rules_load(o, &rules);
	if (ret)
		goto finish;
	ret = FB_EXIT_ERROR;
	umask(022);
	/* The whole class, for the by-name collision rule; then only this node. */
	r = fb_device_scan(&list, FB_SCAN_NODE);
	if (r < 0) {
		ERR("cannot scan /sys/class/graphics: %s", strerror(-r));
		goto finish;
	}
	r = plan_devices(&list, &rules, o, &plan);
	if (r < 0) {
		ERR("cannot plan nodes: %s", strerror(-r));
		goto finish;
	}
	for (size_t i = 0; i < plan.n_nodes; i++)
		planned |= strcmp(plan.nodes[i].name, ev->devname) == 0;
	if (!planned) {
		INF("%s: no node wanted (ignored by a rule, or gone)", ev->devname);
		ret = FB_EXIT_OK;
		goto finish;
	}
	dfd = open_devdir(o->devdir);
	if (dfd < 0)
		goto finish;
	r = node_apply_one(dfd, o->devdir, &plan, ev->devname,
			   o->dry_run ? NODE_DRY_RUN : 0);
	ret = r < 0 ? FB_EXIT_ERROR : FB_EXIT_OK;
finish:
	if (dfd >= 0)
		close(dfd);
	node_plan_free(&plan);
	fb_device_list_free(&list);
	fb_device_free(&dev);
	fb_rules_free(&rules);
	return ret;
}

static int hotplug_remove(const struct nodemgr_opts *o, const struct fb_uevent *ev)
{
	struct fb_device_list list = {};
	struct fb_device dev = {};
	struct fb_rules rules = {};
	struct node_plan plan = {};
	char syspath[FB_UEVENT_DEVPATH_MAX + 8];
	int ret = FB_EXIT_ERROR, r, dfd = -1;

	/* An event is a hint: a device that is back with that number keeps
	 * its node (a remove that arrived after the new add). */
	snprintf(syspath, sizeof(syspath), "/sys%s", ev->devpath);
	if (fb_device_scan_one(syspath, FB_SCAN_NODE, &dev) == 0 &&
	    dev.devnum == ev->devnum) {
		INF("%s: still present in sysfs; remove event ignored", ev->devname);
		ret = FB_EXIT_OK;
		goto finish;
	}
	ret = nodemgr_rules_load(o, &rules);
	if (ret)
		goto finish;
	ret = FB_EXIT_ERROR;
	/* Plan the others, so rule links of this device show up as stale. */
	if (fb_device_scan(&list, FB_SCAN_NODE) == 0 &&
	    plan_devices(&list, &rules, o, &plan) < 0)
		goto finish;
	dfd = open_devdir(o->devdir);
	if (dfd < 0)
		goto finish;
	r = node_remove(dfd, o->devdir, ev->devname, ev->devnum, &plan,
			o->dry_run ? NODE_DRY_RUN : 0);
	ret = r < 0 ? FB_EXIT_ERROR : FB_EXIT_OK;
finish:
	if (dfd >= 0)
		close(dfd);
	node_plan_free(&plan);
	fb_device_list_free(&list);
	fb_device_free(&dev);
	fb_rules_free(&rules);
	return ret;
}

int nodemgr_hotplug(const struct nodemgr_opts *o, const struct fb_uevent *ev)
{
	if (ev->action == FB_UEVENT_REMOVE)
		return hotplug_remove(o, ev);
	return hotplug_add(o, ev);
}

int nodemgr_event_quick(const struct nodemgr_opts *o, const struct nodemgr_cache *c,
			const char *name)
{
	_cleanup_free_ char *now = NULL;
	const struct nodemgr_cached_dev *k = NULL;
	const struct node_entry *e = NULL;
	struct stat st;
	int r, dfd;

	if (!c->plan || o->dry_run)
		return -EAGAIN;
	for (size_t i = 0; i < c->n && !k; i++)
		if (strcmp(c->devs[i].name, name) == 0)
			k = &c->devs[i];
	if (!k)
		return -EAGAIN;
	r = fb_device_fingerprint(name, &now);
	if (r < 0 || strcmp(now, k->fingerprint) != 0) {
		DBG("%s: %s since the last scan; scanning", name,
		    r < 0 ? strerror(-r) : "changed");
		return -EAGAIN;
	}
	for (size_t i = 0; i < c->plan->n_nodes && !e; i++)
		if (strcmp(c->plan->nodes[i].name, k->node) == 0)
			e = &c->plan->nodes[i];
	if (!e) {
		DBG("%s: no node wanted (ignored by a rule)", name);
		return 0;
	}
	dfd = open_devdir(o->devdir);
	if (dfd < 0)
		return dfd;
	/* --validate runs on a node this event creates: the full path does it. */
	if (o->validate && !(fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			     S_ISCHR(st.st_mode) && st.st_rdev == e->devnum)) {
		close(dfd);
		return -EAGAIN;
	}
	DBG("%s: the same device as at the last scan; checking its node and links", name);
	r = node_apply_one(dfd, o->devdir, c->plan, e->name, 0);
	close(dfd);
	return r;
}

int nodemgr_event(const struct nodemgr_opts *o, const struct fb_rules *rules,
		  const char *name, struct nodemgr_cache *keep)
{
	struct fb_device_list list = {};
	const struct fb_device *dev = NULL;
	struct node_plan plan = {};
	unsigned flags = o->dry_run ? NODE_DRY_RUN : 0;
	bool present, planned = false;
	int ret, r, dfd = -1;

	if (keep)
		nodemgr_cache_clear(keep);
	if (!node_name_is_safe(name)) {
		ERR("%.64s: event ignored: not a plain device name", name);
		return -EINVAL;
	}
	umask(022);
	/* The event said something happened to name; sysfs says what is true.
	 * One scan of the whole class answers both questions: is name there
	 * now, and which nodes do the others keep (the by-name collision
	 * rule, and the prune below).  A malformed entry is not in the list
	 * (the scan warned), so it counts as absent. */
	ret = fb_device_scan(&list, FB_SCAN_NODE);
	if (ret < 0) {
		ERR("cannot scan /sys/class/graphics: %s", strerror(-ret));
		goto finish;
	}
	for (size_t i = 0; i < list.n && !dev; i++)
		if (strcmp(list.devices[i].name, name) == 0)
			dev = &list.devices[i];
	present = dev != NULL;
	ret = plan_devices(&list, rules, o, &plan);
	if (ret < 0) {
		ERR("cannot plan nodes: %s", strerror(-ret));
		goto finish;
	}
	for (size_t i = 0; present && i < plan.n_nodes; i++)
		planned |= strcmp(plan.nodes[i].name, name) == 0;
	dfd = open_devdir(o->devdir);
	if (dfd < 0) {
		ret = dfd;
		goto finish;
	}
	ret = 0;
	if (planned) {
		/* --validate: a device that failed is logged, and keeps its node. */
		bool validate = o->validate && !o->dry_run && !node_present(dfd, dev);

		r = node_apply_one(dfd, o->devdir, &plan, name, flags);
		if (r < 0)
			ret = r;
		else if (validate && node_present(dfd, dev) &&
			 o->validate(dev, o->devdir) == 0)
			INF("%s: validation passed", dev->name);
	} else if (present) {
		DBG("%s: no node wanted (ignored by a rule)", name);
	}
	/* A remove and add folded into one event (a driver handoff), or a
	 * remove: links and nodes nobody wants any more go. */
	r = node_prune(dfd, o->devdir, &plan, flags);
	if (r < 0 && !ret)
		ret = r;
	if (keep)
		cache_fill(keep, &list, &plan);
finish:
	if (dfd >= 0)
		close(dfd);
	node_plan_free(&plan);
	fb_device_list_free(&list);
	return ret;
}
