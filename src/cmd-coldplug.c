/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl coldplug: scan, plan, apply, prune (src/nodemgr.c). */
#include <errno.h>
#include <stdio.h>

#include "bench.h"
#include "commands.h"
#include "nodemgr.h"
#include "rules.h"
#include "strutil.h"

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
	       "  -n, --dry-run    print mknod/chown/chmod/ln/rm lines, change nothing\n"
	       "  --check-config   check the rules file and exit: 0 good, 2 bad\n"
	       "  --load-modules   load display drivers for devices without a driver\n"
	       "  --settle SECS    after loading, wait up to SECS for the graphics\n"
	       "                   class to settle (default 5)\n"
	       "  --validate       validate each device whose node this run creates, in\n"
	       "                   bench's quick mode; the node stays, a failure gives\n"
	       "                   exit status 3\n"
	       "  --full-scan      read sysfs through the library, as list does (slower;\n"
	       "                   the plan is the same)\n"
	       "  -h, --help       show this help\n");
}

static int do_coldplug(int argc, char *argv[])
{
	struct fb_rules rules = {};
	struct nodemgr_opts o;
	bool invalid = false;
	int r, ret;

	if (fb_cmd_nodemgr_parse_args(argc, argv, true, &o) < 0)
		return fb_usage_error("coldplug");
	if (o.help) {
		coldplug_help();
		return FB_EXIT_OK;
	}
	o.validator = fb_bench_quick; /* --validate: bench's quick mode */
	r = nodemgr_rules_load(&o, &rules);
	if (r < 0) {
		/* A rules file to fix is a usage error; nothing was changed. */
		ret = fb_exit_code(r, FB_FROM_INPUT);
	} else if (o.check_config) {
		print_line_escaped("%s: %zu rule%s, no errors", o.config, rules.n,
				   rules.n == 1 ? "" : "s");
		ret = FB_EXIT_OK;
	} else {
		/* An error outranks a failed validation. */
		r = nodemgr_coldplug(&o, &rules, NULL, &invalid);
		ret = fb_exit_code(r, FB_FROM_LIBRARY);
		if (ret == FB_EXIT_OK && invalid)
			ret = FB_EXIT_VALIDATION;
	}
	fb_rules_free(&rules);
	return ret;
}

const struct fb_cmd fb_cmd_coldplug = {
	.name = "coldplug",
	.cmd = do_coldplug,
	.help = "create and prune /dev/fbN nodes and links",
};
