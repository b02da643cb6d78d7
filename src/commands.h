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
extern const struct fb_cmd fb_cmd_console;

/* ---- what the commands share (src/commands.c) ----
 * Below src/cmd-*.c everything returns 0 or -errno; a command turns that
 * into its exit code, in one place. */

struct fb_device;
struct fb_device_list;
struct drm_list;
struct nodemgr_opts;

/* "Try 'fbclassctl CMD --help'." on stderr; returns FB_EXIT_USAGE. */
int fb_usage_error(const char *cmd);
/* Where a command got a library result: what an -errno means there. */
enum fb_result_from {
	/* Any call: every -errno is an error.  -EINVAL here is not the
	 * user's (a rejected uevent, a value sysfs got wrong). */
	FB_FROM_LIBRARY,
	/* What reads the user's input (options, a rules file, a mode name)
	 * before anything was changed: -EINVAL is a usage error. */
	FB_FROM_INPUT,
	/* fb_cmd_select() and its kin: -ENODEV, a DEVICE named none. */
	FB_FROM_SELECT,
	/* modeset_apply(): -EINVAL, the driver refused the request;
	 * -ERANGE and -EDOM, a request no mode can hold (usage). */
	FB_FROM_MODESET,
	/* waitfor_run(): -ETIMEDOUT, the condition did not come. */
	FB_FROM_WAIT,
};
/* The one mapping of a library result to an exit status: 0 is
 * FB_EXIT_OK; a -errno is what commands.c's table gives it for from,
 * else FB_EXIT_ERROR. */
int fb_exit_code(int r, enum fb_result_from from);
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
 * The options that mean the same in every command that takes them:
 * -J/--json, --dev DIR (checked with node_devdir_check) and -h/--help.
 * A command puts FB_CMD_OPTION_* in its getopt table, numbers its own
 * long-only options from FB_CMD_OPT_OWN, and reads its options with
 * fb_cmd_getopt().
 */
#define FB_CMD_OPT_DEV 0x100
#define FB_CMD_OPT_OWN 0x101
/* clang-format off */
#define FB_CMD_OPTION_JSON { "json", no_argument, NULL, 'J' }
#define FB_CMD_OPTION_DEV  { "dev", required_argument, NULL, FB_CMD_OPT_DEV }
#define FB_CMD_OPTION_HELP { "help", no_argument, NULL, 'h' }
/* clang-format on */

/* Where the common options land; NULL for an option the command lacks. */
struct fb_cmd_common {
	const char **devdir;
	bool *json, *help;
};
struct option;
/* getopt_long() that takes the common options into t itself: the next
 * option that is the command's own (or '?', getopt's "not an option",
 * also when --dev names no usable directory, said); -1 at the end and
 * as soon as help is asked for. */
int fb_cmd_getopt(int argc, char *argv[], const char *shortopts,
		  const struct option *options, const struct fb_cmd_common *t);

/*
 * The options of coldplug (all of them) or, without coldplug, of hotplug
 * (--dev, --config, --dry-run, --full-scan; another coldplug option is
 * named as one).
 * argv[0] is the command.  0, or -EINVAL for a usage error, already
 * reported (the command says how to get help).
 */
int fb_cmd_nodemgr_parse_args(int argc, char *argv[], bool coldplug,
			      struct nodemgr_opts *o);
