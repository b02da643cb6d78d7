/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The node manager's one code path: coldplug (scan, plan, apply, prune),
 * the uevent helper (one event, strictly checked against sysfs), the
 * daemon (an event is a hint: the device's current sysfs state decides)
 * and the removal of a device that left (hotplug's remove, unload); and
 * the options of coldplug and hotplug.  Every function returns 0 or
 * -errno and has reported its error; the commands turn that into their
 * exit status.
 */

#include <stdbool.h>
#include <sys/types.h>

#include "handoff.h"

struct fb_device;
struct fb_device_list;
struct fb_rules;
struct fb_uevent;
struct nodemgr_cache;
struct node_plan;

/* A device validator (fb_bench_quick): 0 passed, 1 failed (logged),
 * -errno when it could not run (logged; -ENODEV: the device went away). */
typedef int (*nodemgr_validate_fn)(const struct fb_device *dev, const char *devdir);

struct nodemgr_opts {
	const char *devdir;
	const char *config;
	bool config_given;
	bool dry_run;
	bool check_config;
	bool load_modules;
	bool full_scan; /* read sysfs through the library, as list does */
	bool say_removed; /* print "removed PATH" on stdout for each entry removed */
	bool help; /* --help was given: the command prints its help */
	double settle; /* seconds to wait after loading modules; 0: do not wait */
	bool validate; /* --validate: run validator on each node this run created */
	nodemgr_validate_fn validator; /* the command's (bench's quick mode) */
};

/*
 * The options the node manager's commands share (coldplug, hotplug,
 * daemon, unload), for a command that parses its own: its getopt_long
 * table lists those it takes with these values and its own from
 * NODEMGR_OPT_END on, and each of these goes to nodemgr_parse_option().
 */
enum {
	NODEMGR_OPT_DEV = 0x100,
	NODEMGR_OPT_CONFIG,
	NODEMGR_OPT_DRY_RUN,
	NODEMGR_OPT_CHECK_CONFIG,
	NODEMGR_OPT_LOAD_MODULES,
	NODEMGR_OPT_SETTLE,
	NODEMGR_OPT_VALIDATE,
	NODEMGR_OPT_FULL_SCAN,
	NODEMGR_OPT_END,
};
/* Their entries of a getopt_long table (<getopt.h>), one a line. */
/* clang-format off */
#define NODEMGR_OPTION_DEV          { "dev", required_argument, NULL, NODEMGR_OPT_DEV }
#define NODEMGR_OPTION_CONFIG       { "config", required_argument, NULL, NODEMGR_OPT_CONFIG }
#define NODEMGR_OPTION_DRY_RUN      { "dry-run", no_argument, NULL, NODEMGR_OPT_DRY_RUN }
#define NODEMGR_OPTION_CHECK_CONFIG { "check-config", no_argument, NULL, NODEMGR_OPT_CHECK_CONFIG }
#define NODEMGR_OPTION_LOAD_MODULES { "load-modules", no_argument, NULL, NODEMGR_OPT_LOAD_MODULES }
#define NODEMGR_OPTION_SETTLE       { "settle", required_argument, NULL, NODEMGR_OPT_SETTLE }
#define NODEMGR_OPTION_VALIDATE     { "validate", no_argument, NULL, NODEMGR_OPT_VALIDATE }
#define NODEMGR_OPTION_FULL_SCAN    { "full-scan", no_argument, NULL, NODEMGR_OPT_FULL_SCAN }
/* clang-format on */
/* The defaults: --dev /dev, --config FB_RULES_DEFAULT_FILE, --settle 5. */
void nodemgr_opts_init(struct nodemgr_opts *o);
/* One of the shared options, c, with its argument.  0, or -EINVAL
 * (reported). */
int nodemgr_parse_option(int c, const char *arg, struct nodemgr_opts *o);
/* After the options: no argument is left, and --dev is not empty and,
 * when it exists, a directory.  0, or -EINVAL (reported, naming cmd). */
int nodemgr_check_args(const char *cmd, int argc, char *argv[],
		       const struct nodemgr_opts *o);

/*
 * Load o->config (a missing default file gives no rules).  0; -EINVAL
 * when the file is the user's to fix: each bad line printed as FILE:LINE,
 * or why the file cannot be used (missing, not a regular file, too large,
 * not readable); -ENOMEM or -EIO (reported).
 */
int nodemgr_rules_load(const struct nodemgr_opts *o, struct fb_rules *rules);

/*
 * Full coldplug with rules: with o->load_modules load display drivers
 * first, then scan, plan, apply, prune.  With keep, the plan and the
 * devices' fingerprints are kept there (see struct nodemgr_cache).
 * With o->validate, each device whose node this run created is validated,
 * and *invalid (when not NULL) says whether one failed or could not be
 * validated: that is an outcome, not an error (the node stays), so it is
 * not in the return value.  0 or -errno: a node, a link or the scan
 * failed (reported; every other entry was still tried).
 */
int nodemgr_coldplug(const struct nodemgr_opts *o, const struct fb_rules *rules,
		     struct nodemgr_cache *keep, bool *invalid);

/* Run o->validate on every device of list with created[i] set.  A device
 * that went away meanwhile is no failure.  Returns how many failed or
 * could not be validated (0: all passed). */
unsigned nodemgr_validate_created(const struct nodemgr_opts *o,
				  const struct fb_device_list *list, const bool *created);

/*
 * The uevent helper, in two steps, so that the rules are read only for an
 * event that asks for something.  nodemgr_hotplug_check: does ev agree
 * with sysfs now?  1: act on it; 0: nothing to do (a remove of a device
 * that is still in sysfs with that number: the event was stale);
 * -errno: rejected (reported).  nodemgr_hotplug: make that one node and
 * its links (add, change), or remove them (nodemgr_remove).  0 or -errno.
 */
int nodemgr_hotplug_check(const struct fb_uevent *ev);
int nodemgr_hotplug(const struct nodemgr_opts *o, const struct fb_rules *rules,
		    const struct fb_uevent *ev);

/*
 * A device that has left: plan the devices still present with rules,
 * then remove what only the device name had (node_remove): its node when
 * it is still the character device devnum, the links to it under fb/by-*,
 * and rule links that no present device gets, when they point to it.
 * Symlinks fbclassctl did not make are left alone.  0 or -errno.
 */
int nodemgr_remove(const struct nodemgr_opts *o, const struct fb_rules *rules,
		   const char *name, dev_t devnum);

/*
 * The daemon's action for an event of graphics device name (add, change,
 * remove, bind, unbind alike): read the device from sysfs now; when it
 * exists make its node and links, then prune what no present device
 * wants.  Stale, duplicated and reordered events converge on the same
 * /dev.  Returns 0 or -errno.
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
	/* The driver each name last had, kept across clears: a remove and
	 * an add with another driver is a handoff (src/handoff.h). */
	struct handoff_memory drivers;
};
/* Forget the plan and the fingerprints (not the drivers). */
void nodemgr_cache_clear(struct nodemgr_cache *c);

/*
 * A change event for name, answered from the cache: read the device's
 * fingerprint from sysfs now; when it is what the plan was made from, make
 * that device's node and links right (node_apply_one: a deleted or
 * replaced node or link is put back, owner and mode fixed).  Nothing is
 * pruned here.  -EAGAIN when the cache cannot answer (nothing kept, device
 * not kept, fingerprint differs or unreadable, --validate and no node):
 * call nodemgr_event.  Else 0 or -errno.
 */
int nodemgr_event_quick(const struct nodemgr_opts *o, const struct nodemgr_cache *c,
			const char *name);
