/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* main: global options, then one command from the table. */

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "gz.h"
#include "jsonc-backend.h"
#include "kmod.h"
#include "kms.h"
#include "log.h"
#include "pixman-backend.h"
#include "png-backend.h"
#include "sysfs.h"
#include "table.h"
#include "uevent-monitor.h"

/* clang-format off */
static const struct fb_cmd *const commands[] = {
	&fb_cmd_list,
	&fb_cmd_info,
	&fb_cmd_doctor,
	&fb_cmd_coldplug,
	&fb_cmd_hotplug,
	&fb_cmd_bench,
	&fb_cmd_holders,
	&fb_cmd_unload,
	&fb_cmd_snap,
	&fb_cmd_set,
	&fb_cmd_pattern,
	&fb_cmd_daemon,
	&fb_cmd_monitor,
	&fb_cmd_metrics,
	&fb_cmd_wait,
	&fb_cmd_console,
};
/* clang-format on */

static void usage(FILE *out)
{
	fprintf(out, "Usage: fbclassctl [options] COMMAND [command options] [args]\n"
		     "\n"
		     "Inspect, manage and benchmark Linux framebuffer devices.\n"
		     "\n"
		     "Options (before or after the command):\n"
		     "  -v, --verbose   more messages (repeat for debug)\n"
		     "  -q, --quiet     errors only\n"
		     "  -h, --help      show this help\n"
		     "  -V, --version   show the version and features\n"
		     "\n"
		     "Commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->help);
	fprintf(out, "\nRun 'fbclassctl COMMAND --help' for the options of a command.\n"
		     "See fbclassctl(8).\n");
}

/* Is arg a global option after the command: --verbose, --quiet, or -v,
 * -vv, -q...?  They mean that in every command (no command has its own
 * -v or -q). */
static bool is_global_option(const char *arg)
{
	if (strcmp(arg, "--verbose") == 0 || strcmp(arg, "--quiet") == 0)
		return true;
	return arg[0] == '-' && arg[1] && strspn(arg + 1, "vq") == strlen(arg + 1);
}

static void apply_global_option(const char *arg)
{
	if (strcmp(arg, "--quiet") == 0 || strchr(arg, 'q')) {
		log_max_priority = LOG_ERR;
		return;
	}
	if (strcmp(arg, "--verbose") == 0)
		log_max_priority++;
	else
		log_max_priority += (int)strlen(arg + 1);
}

/* Global options after the command (up to "--") are taken out of its
 * arguments, so that "fbclassctl doctor -v fb0" is "fbclassctl -v doctor
 * fb0".  Returns the new argc. */
static int take_global_options(int argc, char *argv[])
{
	int n = 1;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[n++] = argv[i++];
			break;
		}
		if (is_global_option(argv[i]))
			apply_global_option(argv[i]);
		else
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
}

/* Is the command coldplug?  Its first argument that is no global option
 * (those take no value).  Loading the locale took 0.05 to 0.08 ms of its
 * 1.8 ms beside busybox's mdev -s (bench/coldplug-vs-mdev.sh). */
static bool locale_can_wait(int argc, char *argv[])
{
	int i = 1;

	while (i < argc && argv[i][0] == '-' && strcmp(argv[i], "--") != 0)
		i++;
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	return i < argc && strcmp(argv[i], "coldplug") == 0;
}

int main(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{},
	};
	int c;

	/* Characters (table widths) and messages (strerror) follow the
	 * user: at once, but for coldplug (log.h). */
	if (!locale_can_wait(argc, argv))
		log_locale_init();
	/* getopt's messages start with argv[0]: the one prefix, not a path */
	argv[0] = (char *)"fbclassctl";
	while ((c = getopt_long(argc, argv, "+vqhV", options, NULL)) != -1) {
		switch (c) {
		case 'v':
			log_max_priority++;
			break;
		case 'q':
			log_max_priority = LOG_ERR;
			break;
		case 'h':
			usage(stdout);
			return FB_EXIT_OK;
		case 'V':
			/* Which build this is: the backends chosen by configure. */
			printf("fbclassctl %s\n", PACKAGE_VERSION);
			printf("sysfs: %s\nuevents: %s\nkmod: %s\npixman: %s\n"
			       "png: %s\nzlib: %s\ntable: %s\ndrm: %s\njson: %s\nlink: %s\n",
			       fb_sysfs_backend_name, fb_monitor_backend_name,
			       fb_kmod_backend_name, fb_pixman_backend_name,
			       fb_png_backend_name, fb_gz_backend_name,
			       fb_table_backend_name, fb_kms_backend_name,
			       fb_jsonc_backend_name, FB_LINK);
			return FB_EXIT_OK;
		default:
			return fb_usage_error(NULL);
		}
	}
	if (optind >= argc) {
		ERR("missing command");
		return fb_usage_error(NULL);
	}
	const char *name = argv[optind];
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(commands[i]->name, name) == 0) {
			/* The command sees itself as argv[0] while the global
			 * options are taken out, then getopt's messages see
			 * "fbclassctl"; getopt restarts. */
			char **cmd_argv = argv + optind;
			int cmd_argc = take_global_options(argc - optind, cmd_argv);

			cmd_argv[0] = (char *)"fbclassctl";
			optind = 0;
			return commands[i]->cmd(cmd_argc, cmd_argv);
		}
	}
	ERR("unknown command '%s'", name);
	return fb_usage_error(NULL);
}
