/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fbclassctl coldplug: scan, plan, apply, prune.
 * fbclassctl hotplug: one uevent from the environment, the same plan and
 * apply for that one device.
 */
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

#include "bench.h"
#include "commands.h"
#include "fbclass.h"
#include "nodemgr.h"
#include "log.h"
#include "macro.h"
#include "modules.h"
#include "nodes.h"
#include "rules.h"
#include "strutil.h"
#include "uevent.h"

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
	       "  --validate       validate each device whose node this run creates, in\n"
	       "                   bench's quick mode; the node stays, a failure gives\n"
	       "                   exit status 3\n"
	       "  -h, --help       show this help\n");
}

enum {
	OPT_DEV = 0x100,
	OPT_CONFIG,
	OPT_DRY_RUN,
	OPT_CHECK_CONFIG,
	OPT_LOAD_MODULES,
	OPT_SETTLE,
	OPT_VALIDATE,
};

static int parse_common(int argc, char *argv[], struct nodemgr_opts *o, bool coldplug)
{
	static const struct option options[] = {
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "check-config", no_argument, NULL, OPT_CHECK_CONFIG },
		{ "load-modules", no_argument, NULL, OPT_LOAD_MODULES },
		{ "settle", required_argument, NULL, OPT_SETTLE },
		{ "validate", no_argument, NULL, OPT_VALIDATE },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	const char *cmd = coldplug ? "coldplug" : "hotplug";
	int c;

	*o = (struct nodemgr_opts){ .devdir = "/dev",
				    .config = FB_RULES_DEFAULT_FILE,
				    .settle = 5 };
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
			if (coldplug && c == OPT_VALIDATE) {
				o->validate = fbclassctl_bench_quick;
				break;
			}
			if (coldplug && c == OPT_SETTLE) {
				if (parse_seconds(optarg, true, &o->settle) < 0) {
					ERR("--settle: invalid number of seconds \"%s\"",
					    optarg);
					return fb_usage_error(cmd);
				}
				break;
			}
			if (c != '?')
				ERR("%s: option %s is for coldplug only", cmd,
				    argv[optind - 1]);
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
	struct nodemgr_opts o;
	int r = parse_common(argc, argv, &o, true);

	if (r < 0) {
		coldplug_help();
		return FB_EXIT_OK;
	}
	if (r > 0)
		return r;
	if (o.check_config) {
		struct fb_rules rules = {};

		r = nodemgr_rules_load(&o, &rules);
		if (!r)
			printf("%s: %zu rule%s, no errors\n", o.config, rules.n,
			       rules.n == 1 ? "" : "s");
		fb_rules_free(&rules);
		return r;
	}
	return nodemgr_coldplug(&o, NULL, NULL);
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

static int do_hotplug(int argc, char *argv[])
{
	struct fb_uevent_env env;
	struct fb_uevent ev;
	struct nodemgr_opts o;
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
	return nodemgr_hotplug(&o, &ev);
}

const struct fb_cmd fb_cmd_hotplug = {
	.name = "hotplug",
	.cmd = do_hotplug,
	.help = "handle one uevent from the environment (uevent helper)",
};
