/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The node manager's one code path: coldplug (scan, plan, apply, prune),
 * the uevent helper (one event, strictly checked against sysfs) and the
 * daemon (an event is a hint: the device's current sysfs state decides).
 */

#include <stdbool.h>
#include <sys/types.h>

struct fb_device;
struct fb_device_list;
struct fb_rules;
struct fb_uevent;
struct nodemgr_cache;
struct node_plan;

/* A device validator (fbclassctl_bench_quick): 0 passed, 1 failed (logged),
 * -errno when it could not run (logged; -ENODEV: the device went away). */
typedef int (*nodemgr_validate_fn)(const struct fb_device *dev, const char *devdir);

struct nodemgr_opts {
	const char *devdir;
	const char *config;
	bool config_given;
	bool dry_run;
	bool check_config;
	bool load_modules;
	double settle; /* seconds to wait after loading modules; 0: do not wait */
	nodemgr_validate_fn validate; /* --validate: run on each node this run created */
};

/* Load o->config (a missing default file gives no rules).  Every bad line
 * is printed as FILE:LINE.  Returns 0, FB_EXIT_USAGE (bad lines) or
 * FB_EXIT_ERROR (unreadable). */
int nodemgr_rules_load(const struct nodemgr_opts *o, struct fb_rules *rules);

/* Full coldplug with rules (NULL: load o->config).  With keep, the plan
 * and the devices' fingerprints are kept there (see struct nodemgr_cache).
 * Returns an exit code. */
int nodemgr_coldplug(const struct nodemgr_opts *o, const struct fb_rules *rules,
		     struct nodemgr_cache *keep);

/* Run o->validate on every device of list with created[i] set.  A device
 * that went away meanwhile is no failure.  FB_EXIT_VALIDATION when one
 * failed or could not be validated, else 0. */
int nodemgr_validate_created(const struct nodemgr_opts *o,
			     const struct fb_device_list *list, const bool *created);

/* The uevent helper: reject an event that disagrees with sysfs, else make
 * or remove that one node.  Returns an exit code. */
int nodemgr_hotplug(const struct nodemgr_opts *o, const struct fb_uevent *ev);

/*
 * The daemon's action for an event of graphics device name (add, change,
 * remove, bind, unbind alike): read the device from sysfs now; when it
 * exists make its node and links, then prune what no present device
 * wants.  Stale, duplicated and reordered events converge on the same
 * /dev.  Returns 0 or -errno (already reported).
 */
int nodemgr_event(const struct nodemgr_opts *o, const struct fb_rules *rules,
		  const char *name, struct nodemgr_cache *keep);

/*
 * What the daemon keeps between events: the plan of its last full scan
 * (nodemgr_event with keep), and each device's fingerprint
 * (fb_device_fingerprint), read right after that scan.  Bounded by the
 * number of devices; no fd.  A device replaced since (a driver handoff, a
 * re-registration) sent remove and add events, which take the full path
 * and refresh all of it; lost events (ENOBUFS), SIGHUP and coldplug clear
 * it.
 */
struct nodemgr_cache {
	struct node_plan *plan; /* NULL: nothing kept */
	struct nodemgr_cached_dev {
		char *name; /* sysname */
		char *node; /* its node (DEVNAME), relative to the dev dir */
		char *fingerprint;
	} * devs;
	size_t n;
};
void nodemgr_cache_clear(struct nodemgr_cache *c);

/*
 * A change event for name, answered from the cache: read the device's
 * fingerprint from sysfs now; when it is what the plan was made from, make
 * that device's node and links right (node_apply_one: a deleted or
 * replaced node or link is put back, owner and mode fixed).  Nothing is
 * pruned here.  -EAGAIN when the cache cannot answer (nothing kept, device
 * not kept, fingerprint differs or unreadable, --validate and no node):
 * call nodemgr_event.  Else 0 or -errno (already reported).
 */
int nodemgr_event_quick(const struct nodemgr_opts *o, const struct nodemgr_cache *c,
			const char *name);
