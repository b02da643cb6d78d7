/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The node manager's one code path for coldplug, the uevent helper, the
 * daemon and unload: scan, plan, apply, prune.  See nodemgr.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "display.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"
#include "nodemgr.h"
#include "log.h"
#include "macro.h"
#include "modules.h"
#include "nodes.h"
#include "rules.h"
#include "rules-apply.h"
#include "strutil.h"
#include "uevent.h"

/* ---- options ---- */

void nodemgr_opts_init(struct nodemgr_opts *o)
{
	*o = (struct nodemgr_opts){ .devdir = "/dev",
				    .config = FB_RULES_DEFAULT_FILE,
				    .settle = 5 };
}

int nodemgr_parse_option(int c, const char *arg, struct nodemgr_opts *o)
{
	switch (c) {
	case NODEMGR_OPT_DEV:
		o->devdir = arg;
		return 0;
	case NODEMGR_OPT_CONFIG:
		o->config = arg;
		o->config_given = true;
		return 0;
	case NODEMGR_OPT_DRY_RUN:
		o->dry_run = true;
		return 0;
	case NODEMGR_OPT_CHECK_CONFIG:
		o->check_config = true;
		return 0;
	case NODEMGR_OPT_LOAD_MODULES:
		o->load_modules = true;
		return 0;
	case NODEMGR_OPT_VALIDATE:
		o->validate = true;
		return 0;
	case NODEMGR_OPT_FULL_SCAN:
		o->full_scan = true;
		return 0;
	case NODEMGR_OPT_SETTLE:
		return parse_seconds_option("--settle", arg, true, &o->settle);
	}
	return -EINVAL;
}

int nodemgr_check_args(const char *cmd, int argc, char *argv[],
		       const struct nodemgr_opts *o)
{
	if (optind < argc) {
		ERR("%s: unexpected argument \"%s\"", cmd, argv[optind]);
		return -EINVAL;
	}
	/* --check-config reads the rules and stops: the others would be
	 * dropped without a word */
	if (o->check_config && (o->dry_run || o->load_modules || o->validate)) {
		ERR("%s: --check-config checks the rules file only; it takes no %s", cmd,
		    o->dry_run	      ? "--dry-run"
		    : o->load_modules ? "--load-modules"
				      : "--validate");
		return -EINVAL;
	}
	/* A --dev that is there but no directory: nothing could be made. */
	return node_devdir_check(o->devdir) < 0 ? -EINVAL : 0;
}

/* ---- rules ---- */

int nodemgr_rules_load(const struct nodemgr_opts *o, struct fb_rules *rules)
{
	int r = fb_rules_load(o->config, !o->config_given, rules);

	if (r == -EINVAL)
		for (size_t i = 0; i < rules->n_errors; i++)
			ERR("%s", rules->errors[i]);
	if (r == -ENOMEM)
		return log_errno(r, "%s: cannot load rules: %m", o->config);
	if (r == -EIO)
		return r;
	/* Whatever else kept the rules from being read is the file's
	 * fault, not the machine's; fb_rules_load said what. */
	return r < 0 ? -EINVAL : 0;
}

/* ---- what every run shares: scan, plan, the dev dir ---- */

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
	return fb_fix_id(&hw.fix, buf, len);
}

/* The connected connectors of a DRM framebuffer's card, each with the
 * name in its EDID when the EDID is trusted (an untrusted one names
 * nothing that a rule could act on).  Arrays point into drm.  0 or
 * -ENOMEM. */
static int connected_of(const struct drm_card *card, const char ***names,
			const char ***monitors, size_t *n)
{
	size_t cap = card ? card->n_connectors : 0;

	*n = 0;
	*names = calloc(cap + 1, sizeof(**names));
	*monitors = calloc(cap + 1, sizeof(**monitors));
	if (!*names || !*monitors)
		return -ENOMEM;
	for (size_t i = 0; i < cap; i++) {
		const struct drm_connector *c = &card->connectors[i];

		if (c->status != DRM_STATUS_CONNECTED)
			continue;
		(*names)[*n] = c->name;
		(*monitors)[*n] =
			c->edid_len && !c->edid_info.problems && c->edid_info.name[0]
				? c->edid_info.name
				: NULL;
		(*n)++;
	}
	return 0;
}

static void inputs_free(struct node_input *in, size_t n)
{
	for (size_t i = 0; in && i < n; i++) {
		free((void *)in[i].connectors);
		free((void *)in[i].monitors);
	}
	free(in);
}

/* What the plan needs, read directly, unless --full-scan. */
static unsigned scan_what(const struct nodemgr_opts *o)
{
	return o->full_scan ? FB_SCAN_NODE : FB_SCAN_PLAN;
}

static int plan_devices(const struct fb_device_list *list, const struct fb_rules *rules,
			const struct nodemgr_opts *o, struct node_plan *plan)
{
	struct node_input *in = calloc(list->n ? list->n : 1, sizeof(*in));
	char(*ids)[sizeof(((struct fb_fix_screeninfo *)0)->id) + 1];
	struct node_owner defaults;
	struct drm_list drm = {};
	int r;

	ids = calloc(list->n ? list->n : 1, sizeof(*ids));
	if (!in || !ids) {
		free(in);
		free(ids);
		return -ENOMEM;
	}
	/* the connectors, for fb/by-connector and the rules that name them */
	r = display_scan(&drm, o->full_scan ? DRM_SCAN_ALL
			       : fb_rules_match_monitors(rules)
				       ? DRM_SCAN_PLAN | DRM_SCAN_EDID
				       : DRM_SCAN_PLAN);
	if (r == -ENOMEM)
		goto finish;
	if (r < 0)
		log_warn_errno(r,
			       "cannot scan /sys/class/drm: %m; no fb/by-connector links");
	nodes_plan_owner_defaults(&defaults);
	for (size_t i = 0; i < list->n; i++) {
		const struct fb_device *dev = &list->devices[i];
		const struct drm_card *card = display_card_of_fb(&drm, dev);
		const char **names, **monitors;

		in[i].dev = dev;
		/* --dry-run makes not even a private temporary node. */
		in[i].id = device_id(dev, o->devdir, !o->dry_run, ids[i], sizeof(ids[i]));
		if (display_kind_of(dev, in[i].id, card) != FB_KIND_DRM)
			card = NULL;
		r = connected_of(card, &names, &monitors, &in[i].n_connectors);
		in[i].connectors = names;
		in[i].monitors = monitors;
		if (r < 0)
			goto finish;
	}
	r = nodes_plan(in, list->n, rules, &defaults, plan);
finish:
	inputs_free(in, list->n);
	free(ids);
	display_list_free(&drm);
	return r;
}

/* One run of the node manager: the class as sysfs has it now, its plan,
 * and the dev dir. */
struct nodemgr_run {
	struct fb_device_list list;
	struct node_plan plan;
	int dfd;
};
#define NODEMGR_RUN_INIT  \
	{                 \
		.dfd = -1 \
	}

/* Scan the whole class and plan it with rules.  0 or -errno (reported). */
static int run_plan(const struct nodemgr_opts *o, const struct fb_rules *rules,
		    struct nodemgr_run *run)
{
	int r;

	umask(022);
	r = fb_device_scan(&run->list, scan_what(o));
	if (r < 0)
		return log_errno(r, "cannot scan /sys/class/graphics: %m");
	r = plan_devices(&run->list, rules, o, &run->plan);
	if (r < 0)
		return log_errno(r, "cannot plan nodes: %m");
	return 0;
}

static int open_devdir(const char *devdir)
{
	int fd = node_dir_open(devdir);

	if (fd < 0)
		return log_errno(fd, "%s: cannot open device directory: %m", devdir);
	return fd;
}

static int run_open_devdir(const struct nodemgr_opts *o, struct nodemgr_run *run)
{
	run->dfd = open_devdir(o->devdir);
	return run->dfd < 0 ? run->dfd : 0;
}

static void run_free(struct nodemgr_run *run)
{
	if (run->dfd >= 0)
		close(run->dfd);
	nodes_plan_free(&run->plan);
	fb_device_list_free(&run->list);
}

static unsigned node_flags(const struct nodemgr_opts *o)
{
	return (o->dry_run ? NODE_DRY_RUN : 0) | (o->say_removed ? NODE_SAY_REMOVED : 0);
}

static bool plan_wants(const struct node_plan *plan, const char *node)
{
	for (size_t i = 0; i < plan->n_nodes; i++)
		if (strcmp(plan->nodes[i].name, node) == 0)
			return true;
	return false;
}

static const char *node_name(const struct fb_device *dev)
{
	return dev->devname ? dev->devname : dev->name;
}

/* The node is there: a character device with that number. */
static bool node_present(int dfd, const char *node, dev_t devnum)
{
	struct stat st;

	return fstatat(dfd, node, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISCHR(st.st_mode) &&
	       st.st_rdev == devnum;
}

static bool device_node_present(int dfd, const struct fb_device *dev)
{
	return node_present(dfd, node_name(dev), dev->devnum);
}

/* ---- coldplug ---- */

unsigned nodemgr_validate_created(const struct nodemgr_opts *o,
				  const struct fb_device_list *list, const bool *created)
{
	unsigned failed = 0;

	for (size_t i = 0; i < list->n; i++) {
		int r;

		if (!created[i])
			continue;
		r = o->validator(&list->devices[i], o->devdir);
		if (r == -ENODEV)
			continue;
		if (r != 0)
			failed++;
		else
			INF("%s: validation passed", list->devices[i].name);
	}
	return failed;
}

void nodemgr_cache_clear(struct nodemgr_cache *c)
{
	if (c->plan) {
		nodes_plan_free(c->plan);
		free(c->plan);
	}
	for (size_t i = 0; i < c->n; i++) {
		free(c->devs[i].name);
		free(c->devs[i].node);
		free(c->devs[i].fingerprint);
	}
	free(c->devs);
	c->plan = NULL;
	c->devs = NULL;
	c->n = 0;
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

/* --load-modules: display drivers for the devices without one, then give
 * the class time to settle.  0 or -errno (reported). */
static int load_display_modules(const struct nodemgr_opts *o)
{
	unsigned n = 0;
	int r = fb_modules_load_display(o->dry_run, &n);

	if (r < 0)
		return r;
	if (n && !o->dry_run && o->settle > 0 &&
	    fb_class_settle((unsigned)(o->settle * 1000), 500) == -ETIMEDOUT)
		WRN("graphics class still changing after %g s; going on", o->settle);
	return 0;
}

/* --validate: which devices have no node yet.  *created is NULL without
 * --validate.  0 or -ENOMEM (reported). */
static int nodes_missing(const struct nodemgr_opts *o, const struct nodemgr_run *run,
			 bool **created)
{
	*created = NULL;
	if (!o->validate || o->dry_run)
		return 0;
	*created = calloc(run->list.n ? run->list.n : 1, sizeof(**created));
	if (!*created)
		return log_errno(-ENOMEM, "--validate: %m");
	for (size_t i = 0; i < run->list.n; i++)
		(*created)[i] = !device_node_present(run->dfd, &run->list.devices[i]);
	return 0;
}

/* --validate: the devices whose node was missing and is there now.
 * True when one of them failed. */
static bool validate_created(const struct nodemgr_opts *o, const struct nodemgr_run *run,
			     bool *created)
{
	for (size_t i = 0; i < run->list.n; i++)
		created[i] = created[i] &&
			     device_node_present(run->dfd, &run->list.devices[i]);
	return nodemgr_validate_created(o, &run->list, created) > 0;
}

/* The rules' fbmode=, console= and rotate= on each device the plan made a
 * node for (only: that node alone).  A failure is logged, naming the
 * device; the nodes and the other devices do not depend on it. */
static void run_setup(const struct nodemgr_opts *o, const struct nodemgr_run *run,
		      const char *only)
{
	/* By node, those with setup first: without rules that is none, and
	 * no name is compared (each device with each node was 1,024 strcmp
	 * calls for 32 fbs). */
	for (size_t j = 0; j < run->plan.n_nodes; j++) {
		const struct node_entry *e = &run->plan.nodes[j];

		if (!rules_apply_wanted(e->rule) || (only && strcmp(e->name, only) != 0))
			continue;
		for (size_t i = 0; i < run->list.n; i++)
			if (strcmp(node_name(&run->list.devices[i]), e->name) == 0)
				rules_apply_device(e->rule, &run->list.devices[i],
						   o->devdir, "/sys", o->dry_run);
	}
}

int nodemgr_coldplug(const struct nodemgr_opts *o, const struct fb_rules *rules,
		     struct nodemgr_cache *keep, bool *invalid)
{
	struct nodemgr_run run = NODEMGR_RUN_INIT;
	bool *created = NULL, failed = false;
	int ret;

	if (keep)
		nodemgr_cache_clear(keep);
	ret = o->load_modules ? load_display_modules(o) : 0;
	if (ret == 0)
		ret = run_plan(o, rules, &run);
	if (ret == 0)
		ret = run_open_devdir(o, &run);
	if (ret == 0)
		ret = nodes_missing(o, &run, &created);
	if (ret < 0)
		goto finish;
	if (keep)
		handoff_check_memory(&keep->drivers, &run.list, o->devdir);
	else
		handoff_check_links(run.dfd, o->devdir, &run.list, &run.plan);
	/* Every entry is tried; the first error is the result. */
	ret = node_sync(run.dfd, o->devdir, &run.plan, node_flags(o));
	run_setup(o, &run, NULL);
	/* The nodes stay, validated or not. */
	if (created)
		failed = validate_created(o, &run, created);
	if (keep)
		cache_fill(keep, &run.list, &run.plan);
finish:
	if (invalid)
		*invalid = failed;
	free(created);
	run_free(&run);
	return ret;
}

/* ---- the uevent helper ---- */

/* DEVPATH must name a real directory under /sys/devices, not a way out. */
static int check_syspath(const struct fb_uevent *ev, char *syspath, size_t len)
{
	_cleanup_free_ char *real = NULL;

	snprintf(syspath, len, "/sys%s", ev->devpath);
	real = realpath(syspath, NULL);
	if (!real)
		return log_errno(-errno,
				 "%s: uevent rejected: DEVPATH %s: %m (device vanished?)",
				 ev->devname, ev->devpath);
	if (strncmp(real, "/sys/devices/", 13) != 0) {
		ERR("%s: uevent rejected: DEVPATH %s resolves to %s, outside /sys/devices",
		    ev->devname, ev->devpath, real);
		return -EINVAL;
	}
	return 0;
}

/* add, change: the device is a framebuffer now, with the event's number
 * and name.  0 or -errno (reported). */
static int check_add(const struct fb_uevent *ev)
{
	char syspath[FB_UEVENT_DEVPATH_MAX + 8];
	struct fb_device dev = {};
	int r = check_syspath(ev, syspath, sizeof(syspath));

	if (r < 0)
		return r;
	r = fb_device_scan_one(syspath, FB_SCAN_PLAN, &dev);
	if (r < 0) {
		ERR("%s: uevent rejected: %s is not a framebuffer now: %s", ev->devname,
		    syspath, r == -ENODEV ? "gone or without dev" : strerror(-r));
	} else if (dev.devnum != ev->devnum) {
		ERR("%s: uevent rejected: MAJOR:MINOR %u:%u disagree with sysfs dev %u:%u",
		    ev->devname, major(ev->devnum), minor(ev->devnum), major(dev.devnum),
		    minor(dev.devnum));
		r = -EINVAL;
	} else if (strcmp(dev.name, ev->devname) != 0 ||
		   (dev.devname && strcmp(dev.devname, ev->devname) != 0)) {
		ERR("%s: uevent rejected: DEVNAME disagrees with sysfs name \"%s\"",
		    ev->devname, dev.devname ? dev.devname : dev.name);
		r = -EINVAL;
	}
	fb_device_free(&dev);
	return r;
}

/* An event is a hint: a device that is back with that number keeps its
 * node (a remove that arrived after the new add). */
static bool remove_is_stale(const struct fb_uevent *ev)
{
	char syspath[FB_UEVENT_DEVPATH_MAX + 8];
	struct fb_device dev = {};
	bool stale;

	snprintf(syspath, sizeof(syspath), "/sys%s", ev->devpath);
	stale = fb_device_scan_one(syspath, FB_SCAN_PLAN, &dev) == 0 &&
		dev.devnum == ev->devnum;
	fb_device_free(&dev);
	if (stale)
		INF("%s: still present in sysfs; remove event ignored", ev->devname);
	return stale;
}

int nodemgr_hotplug_check(const struct fb_uevent *ev)
{
	int r;

	if (ev->action == FB_UEVENT_REMOVE)
		return remove_is_stale(ev) ? 0 : 1;
	r = check_add(ev);
	return r < 0 ? r : 1;
}

static int hotplug_add(const struct nodemgr_opts *o, const struct fb_rules *rules,
		       const struct fb_uevent *ev)
{
	struct nodemgr_run run = NODEMGR_RUN_INIT;
	int r;

	/* The whole class, for the by-name collision rule; then only this node. */
	r = run_plan(o, rules, &run);
	if (r == 0 && !plan_wants(&run.plan, ev->devname)) {
		INF("%s: no node wanted (ignored by a rule, or gone)", ev->devname);
		goto finish;
	}
	if (r == 0)
		r = run_open_devdir(o, &run);
	if (r == 0)
		r = node_apply_one(run.dfd, o->devdir, &run.plan, ev->devname,
				   node_flags(o));
	if (r == 0)
		run_setup(o, &run, ev->devname);
finish:
	run_free(&run);
	return r;
}

int nodemgr_hotplug(const struct nodemgr_opts *o, const struct fb_rules *rules,
		    const struct fb_uevent *ev)
{
	if (ev->action == FB_UEVENT_REMOVE)
		return nodemgr_remove(o, rules, ev->devname, ev->devnum);
	return hotplug_add(o, rules, ev);
}

int nodemgr_remove(const struct nodemgr_opts *o, const struct fb_rules *rules,
		   const char *name, dev_t devnum)
{
	struct nodemgr_run run = NODEMGR_RUN_INIT;
	int r;

	/* Plan the others, so that the rule links only this device had show
	 * up as stale.  Without a plan (the class cannot be read) its node
	 * and fb/by-* links still go. */
	if (run_plan(o, rules, &run) < 0)
		nodes_plan_free(&run.plan);
	r = run_open_devdir(o, &run);
	if (r == 0)
		r = node_remove(run.dfd, o->devdir, name, devnum, &run.plan,
				node_flags(o));
	run_free(&run);
	return r;
}

/* ---- the daemon ---- */

int nodemgr_event_quick(const struct nodemgr_opts *o, const struct nodemgr_cache *c,
			const char *name)
{
	_cleanup_free_ char *now = NULL;
	const struct nodemgr_cached_dev *k = NULL;
	const struct node_entry *e = NULL;
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
	if (o->validate && !node_present(dfd, e->name, e->devnum)) {
		close(dfd);
		return -EAGAIN;
	}
	DBG("%s: the same device as at the last scan; checking its node and links", name);
	r = node_apply_one(dfd, o->devdir, c->plan, e->name, 0);
	close(dfd);
	return r;
}

static const struct fb_device *find_device(const struct fb_device_list *list,
					   const char *name)
{
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->devices[i].name, name) == 0)
			return &list->devices[i];
	return NULL;
}

/* Make the node and links of dev, which the plan wants.  --validate: a
 * device that failed is logged, and keeps its node. */
static int event_apply(const struct nodemgr_opts *o, const struct nodemgr_run *run,
		       const struct fb_device *dev)
{
	bool validate = o->validate && !o->dry_run && !device_node_present(run->dfd, dev);
	int r = node_apply_one(run->dfd, o->devdir, &run->plan, dev->name, node_flags(o));

	if (r == 0 && validate && device_node_present(run->dfd, dev) &&
	    o->validator(dev, o->devdir) == 0)
		INF("%s: validation passed", dev->name);
	return r;
}

int nodemgr_event(const struct nodemgr_opts *o, const struct fb_rules *rules,
		  const char *name, struct nodemgr_cache *keep)
{
	struct nodemgr_run run = NODEMGR_RUN_INIT;
	const struct fb_device *dev;
	int ret, r;

	if (keep)
		nodemgr_cache_clear(keep);
	if (!nodes_plan_name_is_safe(name)) {
		ERR("%.64s: event ignored: not a plain device name", name);
		return -EINVAL;
	}
	/* The event said something happened to name; sysfs says what is true.
	 * One scan of the whole class answers both questions: is name there
	 * now, and which nodes do the others keep (the by-name collision
	 * rule, and the prune below).  A malformed entry is not in the list
	 * (the scan warned), so it counts as absent. */
	ret = run_plan(o, rules, &run);
	if (ret == 0)
		ret = run_open_devdir(o, &run);
	if (ret < 0)
		goto finish;
	if (keep)
		handoff_check_memory(&keep->drivers, &run.list, o->devdir);
	dev = find_device(&run.list, name);
	if (dev && plan_wants(&run.plan, name))
		ret = event_apply(o, &run, dev);
	else if (dev)
		DBG("%s: no node wanted (ignored by a rule)", name);
	/* A remove and add folded into one event (a driver handoff), or a
	 * remove: links and nodes nobody wants any more go. */
	r = node_prune(run.dfd, o->devdir, &run.plan, node_flags(o));
	if (r < 0 && ret == 0)
		ret = r;
	if (keep)
		cache_fill(keep, &run.list, &run.plan);
finish:
	run_free(&run);
	return ret;
}
