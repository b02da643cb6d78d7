/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fbclassctl coldplug: scan, plan, apply, prune.
 * fbclassctl hotplug: one uevent from the environment, the same plan and
 * apply for that one device.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "commands.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"
#include "log.h"
#include "macro.h"
#include "modules.h"
#include "nodes.h"
#include "rules.h"
#include "uevent.h"

struct nm_opts {
	const char *devdir;
	const char *config;
	bool config_given;
	bool dry_run;
	bool check_config;
	bool load_modules;
	double settle;
};

/* Print every bad line; FB_EXIT_USAGE when there was one, FB_EXIT_ERROR when
 * the file could not be read, 0 when the rules are good. */
static int load_rules(const struct nm_opts *o, struct fb_rules *rules)
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
			const struct nm_opts *o, struct node_plan *plan)
{
	struct node_input *in = calloc(list->n ? list->n : 1, sizeof(*in));
	char (*ids)[sizeof(((struct fb_fix_screeninfo *)0)->id) + 1];
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

static int open_devdir(const char *devdir)
{
	int fd = open(devdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		ERR("%s: cannot open device directory: %m", devdir);
	return fd;
}

static int parse_settle(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0 || v > 3600)
		return -EINVAL;
	*out = v;
	return 0;
}

/* ---- coldplug ---- */

static void coldplug_help(void)
{
	printf("Usage: fbclassctl coldplug [options]\n"
	       "\n"
	       "Create /dev/fbN nodes and their /dev/fb/by-path and /dev/fb/by-name links\n"
	       "for every framebuffer, and remove the ones of framebuffers that are gone.\n"
	       "\n"
	       "Options:\n"
	       "  --dev DIR        manage nodes under DIR (default /dev)\n"
	       "  --config FILE    rules file (default " FB_RULES_DEFAULT_FILE ")\n"
	       "  --dry-run        print mknod/chown/chmod/ln/rm lines, change nothing\n"
	       "  --check-config   check the rules file and exit: 0 good, 2 bad\n"
	       "  --load-modules   load display drivers for devices without a driver\n"
	       "  --settle SECS    after loading, wait up to SECS for the graphics\n"
	       "                   class to settle (default 5)\n"
	       "  -h, --help       show this help\n");
}

static int coldplug_run(const struct nm_opts *o)
{
	struct fb_device_list list = {};
	struct fb_rules rules = {};
	struct node_plan plan = {};
	unsigned flags = o->dry_run ? NODE_DRY_RUN : 0;
	int ret, r, dfd = -1;

	ret = load_rules(o, &rules);
	if (ret)
		goto finish;
	if (o->check_config) {
		printf("%s: %zu rule%s, no errors\n", o->config, rules.n,
		       rules.n == 1 ? "" : "s");
		goto finish;
	}
	umask(022);
	if (o->load_modules) {
		unsigned n = 0;

		r = fb_modules_load_display(o->dry_run, &n);
		if (r < 0) {
			ret = FB_EXIT_ERROR;
			goto finish;
		}
		if (n && !o->dry_run &&
		    fb_class_settle((unsigned)(o->settle * 1000), 500) == -ETIMEDOUT)
			WRN("graphics class still changing after %g s; going on", o->settle);
	}
	r = fb_device_scan(&list);
	if (r < 0) {
		ERR("cannot scan /sys/class/graphics: %s", strerror(-r));
		ret = FB_EXIT_ERROR;
		goto finish;
	}
	r = plan_devices(&list, &rules, o, &plan);
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
	r = node_apply(dfd, o->devdir, &plan, flags);
	if (r < 0)
		ret = FB_EXIT_ERROR;
	r = node_prune(dfd, o->devdir, &plan, flags);
	if (r < 0)
		ret = FB_EXIT_ERROR;
finish:
	if (dfd >= 0)
		close(dfd);
	node_plan_free(&plan);
	fb_device_list_free(&list);
	fb_rules_free(&rules);
	return ret;
}

enum {
	OPT_DEV = 0x100,
	OPT_CONFIG,
	OPT_DRY_RUN,
	OPT_CHECK_CONFIG,
	OPT_LOAD_MODULES,
	OPT_SETTLE,
};

static int parse_common(int argc, char *argv[], struct nm_opts *o, bool coldplug)
{
	static const struct option options[] = {
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "check-config", no_argument, NULL, OPT_CHECK_CONFIG },
		{ "load-modules", no_argument, NULL, OPT_LOAD_MODULES },
		{ "settle", required_argument, NULL, OPT_SETTLE },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	const char *cmd = coldplug ? "coldplug" : "hotplug";
	int c;

	*o = (struct nm_opts){ .devdir = "/dev", .config = FB_RULES_DEFAULT_FILE, .settle = 5 };
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case OPT_DEV:
			o->devdir = optarg;
			break;
		case OPT_CONFIG:
			o->config = optarg;
			o->config_given = true;
			break;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case 'h':
			return -1;
		default:
			if (coldplug && c == OPT_CHECK_CONFIG) {
				o->check_config = true;
				break;
			}
			if (coldplug && c == OPT_LOAD_MODULES) {
				o->load_modules = true;
				break;
			}
			if (coldplug && c == OPT_SETTLE) {
				if (parse_settle(optarg, &o->settle) < 0) {
					ERR("--settle: invalid number of seconds \"%s\"", optarg);
					return fb_usage_error(cmd);
				}
				break;
			}
			if (c != '?')
				ERR("%s: option %s is for coldplug only", cmd, argv[optind - 1]);
			return fb_usage_error(cmd);
		}
	}
	if (optind < argc) {
		ERR("%s: unexpected argument \"%s\"", cmd, argv[optind]);
		return fb_usage_error(cmd);
	}
	if (!*o->devdir) {
		ERR("--dev: empty directory name");
		return fb_usage_error(cmd);
	}
	return 0;
}

static int do_coldplug(int argc, char *argv[])
{
	struct nm_opts o;
	int r = parse_common(argc, argv, &o, true);

	if (r < 0) {
		coldplug_help();
		return FB_EXIT_OK;
	}
	if (r > 0)
		return r;
	return coldplug_run(&o);
}

const struct fb_cmd fb_cmd_coldplug = {
	.name = "coldplug",
	.cmd = do_coldplug,
	.help = "create and prune /dev/fbN nodes and links",
};

/* ---- hotplug ---- */

static void hotplug_help(void)
{
	printf("Usage: fbclassctl hotplug [options]\n"
	       "\n"
	       "Handle one kernel uevent from the environment, as a uevent helper\n"
	       "(/proc/sys/kernel/hotplug), an mdev.conf command or a udev RUN rule.\n"
	       "Reads ACTION, DEVPATH, SUBSYSTEM, MAJOR, MINOR, DEVNAME and SEQNUM.\n"
	       "Events of other subsystems exit 0 at once.  An event that disagrees\n"
	       "with sysfs is rejected (exit 1) and nothing is created.\n"
	       "\n"
	       "Options:\n"
	       "  --dev DIR        manage nodes under DIR (default /dev)\n"
	       "  --config FILE    rules file (default " FB_RULES_DEFAULT_FILE ")\n"
	       "  --dry-run        print what would be done, change nothing\n"
	       "  -h, --help       show this help\n");
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

static int hotplug_add(const struct nm_opts *o, const struct fb_uevent *ev)
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
	r = fb_device_scan_one(syspath, &dev);
	if (r < 0) {
		ERR("%s: uevent rejected: %s is not a framebuffer now: %s", ev->devname, syspath,
		    r == -ENODEV ? "gone or without dev" : strerror(-r));
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
		ERR("%s: uevent rejected: DEVNAME disagrees with sysfs name \"%s\"", ev->devname,
		    dev.devname ? dev.devname : dev.name);
		goto finish;
	}
	ret = load_rules(o, &rules);
	if (ret)
		goto finish;
	ret = FB_EXIT_ERROR;
	umask(022);
	/* The whole class, for the by-name collision rule; then only this node. */
	r = fb_device_scan(&list);
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
	r = node_apply_one(dfd, o->devdir, &plan, ev->devname, o->dry_run ? NODE_DRY_RUN : 0);
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

static int hotplug_remove(const struct nm_opts *o, const struct fb_uevent *ev)
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
	if (fb_device_scan_one(syspath, &dev) == 0 && dev.devnum == ev->devnum) {
		INF("%s: still present in sysfs; remove event ignored", ev->devname);
		ret = FB_EXIT_OK;
		goto finish;
	}
	ret = load_rules(o, &rules);
	if (ret)
		goto finish;
	ret = FB_EXIT_ERROR;
	/* Plan the others, so rule links of this device show up as stale. */
	if (fb_device_scan(&list) == 0 && plan_devices(&list, &rules, o, &plan) < 0)
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

static int do_hotplug(int argc, char *argv[])
{
	struct fb_uevent_env env;
	struct fb_uevent ev;
	struct nm_opts o;
	char why[1024];
	int r = parse_common(argc, argv, &o, false);

	if (r < 0) {
		hotplug_help();
		return FB_EXIT_OK;
	}
	if (r > 0)
		return r;
	fb_uevent_env_from_environ(&env);
	r = fb_uevent_parse(&env, &ev, why, sizeof(why));
	if (r == 0) {
		DBG("uevent ignored: %s", why);
		return FB_EXIT_OK;
	}
	if (r < 0) {
		ERR("uevent rejected: %s", why);
		return FB_EXIT_ERROR;
	}
	if (ev.has_seqnum)
		DBG("%s: SEQNUM %llu", ev.devname, ev.seqnum);
	if (ev.action == FB_UEVENT_REMOVE)
		return hotplug_remove(&o, &ev);
	return hotplug_add(&o, &ev);
}

const struct fb_cmd fb_cmd_hotplug = {
	.name = "hotplug",
	.cmd = do_hotplug,
	.help = "handle one uevent from the environment (uevent helper)",
};
