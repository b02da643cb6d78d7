/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the commands share: the usage error, the scan, the devices named,
 * coldplug's and hotplug's options. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "display.h"
#include "fbclass.h"
#include "log.h"
#include "macro.h"
#include "nodemgr.h"
#include "nodes.h"

int fb_usage_error(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "Try 'fbclassctl %s --help' for more information.\n", cmd);
	else
		fprintf(stderr, "Try 'fbclassctl --help' for more information.\n");
	return FB_EXIT_USAGE;
}

int fb_cmd_scan(struct fb_device_list *list, unsigned what, bool say_empty)
{
	int r = fb_device_scan(list, what);

	if (r < 0)
		return log_errno(r, "cannot scan /sys/class/graphics: %m");
	if (!list->n && say_empty)
		INF("no framebuffer devices found in /sys/class/graphics");
	return 0;
}

int fb_cmd_scan_drm(struct drm_list *drm, unsigned what)
{
	int r = display_scan(drm, what);

	if (r < 0)
		return log_errno(r, "cannot scan /sys/class/drm: %m");
	return 0;
}

/* A DEVICE argument that names nothing: a node path whose framebuffer is
 * in sysfs, only the node missing, says so. */
static void say_no_such(const struct fb_device_list *list, const char *spec)
{
	const char *base = strrchr(spec, '/');
	struct stat st;

	if (base && strncmp(spec, "/sys/", 5) != 0 && lstat(spec, &st) < 0 &&
	    errno == ENOENT) {
		for (size_t i = 0; i < list->n; i++) {
			const struct fb_device *d = &list->devices[i];

			if (strcmp(base + 1, d->devname ? d->devname : d->name) != 0)
				continue;
			ERR("%s: no such node, but %s is in /sys/class/graphics: name it %s ('fbclassctl coldplug' creates the node)",
			    spec, d->name, d->name);
			return;
		}
	}
	ERR("%s: no such framebuffer", spec);
}

int fb_cmd_select(const struct fb_device_list *list, int argc, char *const argv[],
		  const struct fb_device ***sel, size_t *n)
{
	const struct fb_device **v;
	int ret = 0;

	*sel = NULL;
	*n = 0;
	v = calloc((argc ? (size_t)argc : list->n) + 1, sizeof(*v));
	if (!v)
		return log_errno(-ENOMEM, "cannot choose devices: %m");
	if (argc == 0) {
		for (size_t i = 0; i < list->n; i++)
			v[(*n)++] = &list->devices[i];
	}
	for (int i = 0; i < argc; i++) {
		const struct fb_device *d = fb_device_list_find(list, argv[i]);

		if (!d) {
			say_no_such(list, argv[i]);
			ret = -ENODEV;
			continue;
		}
		v[(*n)++] = d;
	}
	*sel = v;
	return ret;
}

/* The -errno values that are not plain errors where they come from. */
static const struct {
	enum fb_result_from from;
	int r;
	int code;
} exit_codes[] = {
	{ FB_FROM_INPUT, -EINVAL, FB_EXIT_USAGE },
	{ FB_FROM_SELECT, -ENODEV, FB_EXIT_NO_DEVICE },
	{ FB_FROM_MODESET, -EINVAL, FB_EXIT_REFUSED },
	{ FB_FROM_MODESET, -ERANGE, FB_EXIT_USAGE },
	{ FB_FROM_MODESET, -EDOM, FB_EXIT_USAGE },
	{ FB_FROM_WAIT, -ETIMEDOUT, FB_EXIT_TIMEOUT },
};

int fb_exit_code(int r, enum fb_result_from from)
{
	if (r >= 0)
		return FB_EXIT_OK;
	for (size_t i = 0; i < ARRAY_SIZE(exit_codes); i++)
		if (exit_codes[i].from == from && exit_codes[i].r == r)
			return exit_codes[i].code;
	return FB_EXIT_ERROR;
}

/* 1 when c is a common option the command has (taken into t), 0 when it
 * is the command's own, -EINVAL when --dev names no usable directory. */
static int common_option(const struct fb_cmd_common *t, int c, const char *arg)
{
	if (c == 'J' && t->json) {
		*t->json = true;
		return 1;
	}
	if (c == 'h' && t->help) {
		*t->help = true;
		return 1;
	}
	if (c == FB_CMD_OPT_DEV && t->devdir) {
		if (node_devdir_check(arg) < 0)
			return -EINVAL;
		*t->devdir = arg;
		return 1;
	}
	return 0;
}

int fb_cmd_getopt(int argc, char *argv[], const char *shortopts,
		  const struct option *options, const struct fb_cmd_common *t)
{
	int c, r;

	while ((c = getopt_long(argc, argv, shortopts, options, NULL)) != -1) {
		r = common_option(t, c, optarg);
		if (r < 0)
			return '?';
		if (t->help && *t->help)
			return -1;
		if (r == 0)
			return c;
	}
	return -1;
}

static bool is_hotplug_option(int c)
{
	return c == NODEMGR_OPT_DEV || c == NODEMGR_OPT_CONFIG ||
	       c == NODEMGR_OPT_DRY_RUN || c == NODEMGR_OPT_FULL_SCAN;
}

int fb_cmd_nodemgr_parse_args(int argc, char *argv[], bool coldplug,
			      struct nodemgr_opts *o)
{
	static const struct option options[] = {
		NODEMGR_OPTION_DEV,
		NODEMGR_OPTION_CONFIG,
		NODEMGR_OPTION_DRY_RUN,
		NODEMGR_OPTION_CHECK_CONFIG,
		NODEMGR_OPTION_LOAD_MODULES,
		NODEMGR_OPTION_SETTLE,
		NODEMGR_OPTION_VALIDATE,
		NODEMGR_OPTION_FULL_SCAN,
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	const char *cmd = coldplug ? "coldplug" : "hotplug";
	int c;

	nodemgr_opts_init(o);
	while ((c = getopt_long(argc, argv, "nh", options, NULL)) != -1) {
		if (c == 'h') {
			o->help = true;
			return 0;
		}
		if (c == 'n')
			c = NODEMGR_OPT_DRY_RUN;
		if (c == '?')
			return -EINVAL; /* getopt_long said why */
		if (!coldplug && !is_hotplug_option(c)) {
			ERR("%s: option %s is for coldplug only", cmd, argv[optind - 1]);
			return -EINVAL;
		}
		if (nodemgr_parse_option(c, optarg, o) < 0)
			return -EINVAL;
	}
	return nodemgr_check_args(cmd, argc, argv, o);
}
