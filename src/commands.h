/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The subcommand table, kmod style: each command lives in its own file. */

/* Exit codes, documented in fbclassctl(8). */
enum {
	FB_EXIT_OK = 0,
	FB_EXIT_ERROR = 1,
	FB_EXIT_USAGE = 2,
	FB_EXIT_VALIDATION = 3,
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

/* "Try 'fbclassctl CMD --help'." on stderr; returns FB_EXIT_USAGE. */
int fb_usage_error(const char *cmd);
