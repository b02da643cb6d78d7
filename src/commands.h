/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The subcommand table, kmod style: each command lives in its own file. */

/* Exit codes, documented in fbclassctl(8). */
enum {
	FB_EXIT_OK = 0,
	FB_EXIT_ERROR = 1,
	FB_EXIT_USAGE = 2,
	FB_EXIT_VALIDATION = 3,
	FB_EXIT_NO_DEVICE = 4, /* a device named does not exist */
	FB_EXIT_REFUSED = 5, /* set: the driver refuses the request */
	FB_EXIT_TIMEOUT = 6, /* wait: the condition did not come */
};

struct fb_cmd {
	const char *name;
	int (*cmd)(int argc, char *argv[]);
	const char *help;
};

extern const struct fb_cmd fb_cmd_list;
extern const struct fb_cmd fb_cmd_info;
extern const struct fb_cmd fb_cmd_holders;
extern const struct fb_cmd fb_cmd_unload;
extern const struct fb_cmd fb_cmd_snap;
extern const struct fb_cmd fb_cmd_coldplug, fb_cmd_hotplug;
extern const struct fb_cmd fb_cmd_bench;
extern const struct fb_cmd fb_cmd_daemon, fb_cmd_monitor;
extern const struct fb_cmd fb_cmd_doctor;
extern const struct fb_cmd fb_cmd_set;
extern const struct fb_cmd fb_cmd_pattern;
extern const struct fb_cmd fb_cmd_metrics;
extern const struct fb_cmd fb_cmd_wait;

/* ---- what the commands share (src/commands.c) ----
 * Below src/cmd-*.c everything returns 0 or -errno; a command turns that
 * into its exit code, in one place. */

struct fb_device;
struct fb_device_list;
struct drm_list;
struct nodemgr_opts;

/* "Try 'fbclassctl CMD --help'." on stderr; returns FB_EXIT_USAGE. */
int fb_usage_error(const char *cmd);
/* The one mapping of a library result to an exit status: FB_EXIT_ERROR
 * for a -errno, else FB_EXIT_OK.  fb_exit_code_usage: the same, but
 * -EINVAL from what reads the user's input (options, a rules file, where
 * nothing was changed yet) is FB_EXIT_USAGE.  Elsewhere -EINVAL is not
 * the user's (a rejected uevent, a value sysfs got wrong): exit 1. */
int fb_exit_code(int r);
int fb_exit_code_usage(int r);
/* The same for fb_cmd_select()'s result: -ENODEV (a DEVICE named none)
 * is FB_EXIT_NO_DEVICE. */
int fb_select_exit_code(int r);
/* fb_device_scan(), saying once why the class could not be read, and
 * with say_empty that it is empty (info level).  0 or -errno (reported). */
int fb_cmd_scan(struct fb_device_list *list, unsigned what, bool say_empty);
/* display_scan(), saying why /sys/class/drm could not be read.  0 or -errno
 * (reported). */
int fb_cmd_scan_drm(struct drm_list *drm, unsigned what);
/* The devices of list that argv[0..argc) name, in order ("fb0", "0",
 * "/dev/fb0", "/sys/class/graphics/fb0", a link to the node); every device
 * when argc is 0.  A name that
 * matches none is reported as "NAME: no such framebuffer" and left out;
 * the others are still chosen.  *sel (malloc'd) points into list.
 * 0, -ENODEV when some name matched none, or -ENOMEM (reported). */
int fb_cmd_select(const struct fb_device_list *list, int argc, char *const argv[],
		  const struct fb_device ***sel, size_t *n);

/*
 * The options of coldplug (all of them) or, without coldplug, of hotplug
 * (--dev, --config, --dry-run, --full-scan; another coldplug option is
 * named as one).
 * argv[0] is the command.  0, or -EINVAL for a usage error, already
 * reported (the command says how to get help).
 */
int fb_cmd_nodemgr_parse_args(int argc, char *argv[], bool coldplug,
			      struct nodemgr_opts *o);
