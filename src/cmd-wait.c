/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl wait: until a framebuffer or connector is there (waitfor.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "log.h"
#include "strutil.h"
#include "waitfor.h"

static void wait_usage(void)
{
	printf("Usage: fbclassctl wait [options] fbN|CONNECTOR\n"
	       "\n"
	       "Wait until the framebuffer fbN or the DRM connector CONNECTOR\n"
	       "(card0-HDMI-A-1) is there, listening to the kernel's uevents (no udevd\n"
	       "needed); at once when it already is.  Exit status 0 then, 6 on timeout.\n"
	       "\n"
	       "Options:\n"
	       "      --connected    and a monitor is connected (fbN: to its DRM card)\n"
	       "      --shown        and that connector is enabled, its DPMS On\n"
	       "  -t, --timeout SECS give up after SECS seconds (default: never)\n"
	       "  -h, --help         show this help\n");
}

static int do_wait(int argc, char *argv[])
{
	enum { OPT_CONNECTED = 0x100, OPT_SHOWN };
	static const struct option options[] = {
		{ "connected", no_argument, NULL, OPT_CONNECTED },
		{ "shown", no_argument, NULL, OPT_SHOWN },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	enum waitfor_what what = WAITFOR_PRESENT;
	struct waitfor_target t;
	double timeout = -1;
	int c, r;

	while ((c = getopt_long(argc, argv, "t:h", options, NULL)) != -1) {
		switch (c) {
		case OPT_CONNECTED:
			what = what == WAITFOR_SHOWN ? what : WAITFOR_CONNECTED;
			break;
		case OPT_SHOWN:
			what = WAITFOR_SHOWN;
			break;
		case 't':
			if (parse_seconds_option("--timeout", optarg, true, &timeout) < 0)
				return fb_usage_error("wait");
			break;
		case 'h':
			wait_usage();
			return FB_EXIT_OK;
		default:
			return fb_usage_error("wait");
		}
	}
	if (optind + 1 != argc) {
		ERR("wait: name one framebuffer or connector");
		return fb_usage_error("wait");
	}
	if (waitfor_target_parse(argv[optind], what, &t) < 0)
		return fb_usage_error("wait");
	r = waitfor_run(&t, timeout < 0 ? -1 : (int)(timeout * 1000 + 0.5));
	if (r == -ETIMEDOUT)
		INF("wait: %s: not %s after %g s", t.name,
		    what == WAITFOR_SHOWN	? "shown"
		    : what == WAITFOR_CONNECTED ? "connected"
						: "there",
		    timeout);
	return fb_exit_code(r, FB_FROM_WAIT);
}

const struct fb_cmd fb_cmd_wait = {
	.name = "wait",
	.cmd = do_wait,
	.help = "wait until a framebuffer or connector is there (uevents)",
};
