/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl hotplug: one uevent from the environment, checked against
 * sysfs, then the node manager's plan and apply for that one device. */
#include <errno.h>
#include <stdio.h>

#include "commands.h"
#include "log.h"
#include "nodemgr.h"
#include "rules.h"
#include "uevent.h"

static void hotplug_help(void)
{
	printf("Usage: fbclassctl hotplug [options]\n"
	       "\n"
	       "Handle one kernel uevent from the environment, as a uevent helper\n"
	       "(/proc/sys/kernel/hotplug), an mdev.conf command or a udev RUN rule.\n"
	       "Reads ACTION, DEVPATH, SUBSYSTEM, MAJOR, MINOR, DEVNAME and SEQNUM.\n"
	       "Events of other subsystems exit 0 at once; with no event in the\n"
	       "environment it says so and exits 0.  An event that disagrees\n"
	       "with sysfs is rejected (exit 1) and nothing is created.\n"
	       "\n"
	       "Options:\n"
	       "  --dev DIR        manage nodes under DIR (default /dev)\n"
	       "  --config FILE    rules file (default " FB_RULES_DEFAULT_FILE ")\n"
	       "  -n, --dry-run    print what would be done, change nothing\n"
	       "  --full-scan      read sysfs through the library, as list does\n"
	       "  -h, --help       show this help\n");
}

/* The event in the environment: 1 to act on, filled in ev; 0 not for us;
 * -EINVAL rejected (reported). */
static int read_uevent(struct fb_uevent *ev)
{
	struct fb_uevent_env env;
	char why[1024];
	int r;

	fb_uevent_env_from_environ(&env);
	if (!env.action && !env.subsystem && !env.devpath) {
		/* not the kernel, mdev or udev: a person, told what it is for */
		INF("no uevent in the environment (ACTION, SUBSYSTEM and DEVPATH are unset): nothing done; the kernel, mdev or udev runs hotplug once an event, and 'fbclassctl coldplug' handles every framebuffer");
		return 0;
	}
	r = fb_uevent_parse(&env, ev, why, sizeof(why));
	if (r == 0)
		DBG("uevent ignored: %s", why);
	else if (r < 0)
		ERR("uevent rejected: %s", why);
	else if (ev->has_seqnum)
		DBG("%s: SEQNUM %llu", ev->devname, ev->seqnum);
	return r;
}

static int do_hotplug(int argc, char *argv[])
{
	struct fb_rules rules = {};
	struct nodemgr_opts o;
	struct fb_uevent ev;
	int r, ret;

	if (fb_cmd_nodemgr_parse_args(argc, argv, false, &o) < 0)
		return fb_usage_error("hotplug");
	if (o.help) {
		hotplug_help();
		return FB_EXIT_OK;
	}
	r = read_uevent(&ev);
	if (r > 0)
		r = nodemgr_hotplug_check(&ev);
	if (r <= 0)
		return fb_exit_code(r, FB_FROM_LIBRARY);
	r = nodemgr_rules_load(&o, &rules);
	if (r < 0)
		/* A rules file to fix is a usage error; nothing was changed. */
		ret = fb_exit_code(r, FB_FROM_INPUT);
	else
		ret = fb_exit_code(nodemgr_hotplug(&o, &rules, &ev), FB_FROM_LIBRARY);
	fb_rules_free(&rules);
	return ret;
}

const struct fb_cmd fb_cmd_hotplug = {
	.name = "hotplug",
	.cmd = do_hotplug,
	.help = "handle one uevent from the environment (uevent helper)",
};
