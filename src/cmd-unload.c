/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl unload: remove a framebuffer's driver when nobody holds it
 * (src/unload.c does it). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "macro.h"
#include "nodes.h"
#include "nodemgr.h"
#include "rules.h"
#include "strutil.h"
#include "unload.h"

static void unload_usage(void)
{
	printf("Usage: fbclassctl unload [options] DEVICE\n"
	       "\n"
	       "Remove the driver of a framebuffer safely: refuse while a process holds\n"
	       "it, unbind fbcon first, remove the module when its refcount is 0 (else\n"
	       "unbind the parent device), wait for the device to go, then remove its\n"
	       "node and the links fbclassctl made for it, as hotplug's remove does.\n"
	       "\n"
	       "Options:\n"
	       "      --force          do not check holders (dangerous; see fbclassctl(8))\n"
	       "      --timeout SECS   wait this long for the device to go (default 5)\n"
	       "      --dev DIR        device directory (default /dev)\n"
	       "      --config FILE    rules file, for its links (default " FB_RULES_DEFAULT_FILE
	       ")\n"
	       "  -h, --help           show this help\n");
}

struct unload_opts {
	struct fb_unload_opts u;
	char *device;
	bool help;
};

/* 0, or -EINVAL for a usage error (reported). */
static int parse_args(int argc, char *argv[], struct unload_opts *o)
{
	enum { OPT_FORCE = NODEMGR_OPT_END, OPT_TIMEOUT };
	static const struct option options[] = {
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		NODEMGR_OPTION_DEV,
		NODEMGR_OPTION_CONFIG,
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int c;

	*o = (struct unload_opts){ .u.timeout = 5 };
	nodemgr_opts_init(&o->u.nm);
	o->u.nm.say_removed = true;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case OPT_FORCE:
			o->u.force = true;
			break;
		case OPT_TIMEOUT:
			if (parse_decimal(optarg, 3600, &o->u.timeout) < 0) {
				ERR("--timeout: \"%s\" is not a number of seconds (0 to 3600)",
				    optarg);
				return -EINVAL;
			}
			break;
		case 'h':
			o->help = true;
			return 0;
		case '?':
			return -EINVAL; /* getopt_long said why */
		default: /* --dev, --config */
			nodemgr_parse_option(c, optarg, &o->u.nm);
		}
	}
	if (optind + 1 != argc) {
		ERR("%s", optind == argc ? "missing DEVICE" : "only one DEVICE at a time");
		return -EINVAL;
	}
	o->device = argv[optind];
	return node_devdir_check(o->u.nm.devdir) < 0 ? -EINVAL : 0;
}

static int do_unload(int argc, char *argv[])
{
	struct fb_device_list list = {};
	const struct fb_device **sel = NULL;
	struct fb_rules rules = {};
	struct unload_opts o;
	size_t nsel;
	int r, ret;

	if (parse_args(argc, argv, &o) < 0)
		return fb_usage_error("unload");
	if (o.help) {
		unload_usage();
		return FB_EXIT_OK;
	}
	r = fb_cmd_scan(&list, FB_SCAN_NODE, false);
	if (r == 0)
		r = fb_cmd_select(&list, 1, &o.device, &sel, &nsel);
	if (r < 0) {
		ret = fb_exit_code(r, FB_FROM_SELECT);
		goto finish;
	}
	/* Before anything is done: the links to remove depend on the rules. */
	r = nodemgr_rules_load(&o.u.nm, &rules);
	if (r < 0)
		/* A rules file to fix is a usage error; nothing was changed. */
		ret = fb_exit_code(r, FB_FROM_INPUT);
	else
		ret = fb_exit_code(fb_unload_device(&o.u, &rules, sel[0]),
				   FB_FROM_LIBRARY);
finish:
	fb_rules_free(&rules);
	free(sel);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_unload = {
	.name = "unload",
	.cmd = do_unload,
	.help = "remove a framebuffer's driver when nobody holds it",
};
