/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl daemon: the node manager on kernel uevents (src/daemon.c). */
#include <errno.h>
#include <stdio.h>

#include "bench.h"
#include "commands.h"
#include "daemon-reload.h"
#include "daemon.h"
#include "log.h"
#include "nodemgr.h"
#include "rules.h"

static void daemon_help(void)
{
	printf("Usage: fbclassctl daemon [options]\n"
	       "\n"
	       "Keep /dev/fbN nodes and links right on kernel uevents, in the foreground.\n"
	       "Listens to the kernel (never to other processes), runs a full coldplug,\n"
	       "then signals readiness (NOTIFY_SOCKET, --ready-fd).  SIGHUP reloads the\n"
	       "rules and runs a coldplug (RELOADING=1, then READY=1 on NOTIFY_SOCKET);\n"
	       "SIGTERM and SIGINT exit 0.\n"
	       "\n"
	       "Options:\n"
	       "  --dev DIR           manage nodes under DIR (default /dev)\n"
	       "  --config FILE       rules file (default " FB_RULES_DEFAULT_FILE ")\n"
	       "  --load-modules      load display drivers for devices without a driver,\n"
	       "                      at start and when pci, platform or usb devices appear\n"
	       "  --buffer-size BYTES kernel receive buffer (default 16777216)\n"
	       "  --ready-fd N        write a newline to fd N when ready (s6)\n"
	       "  --syslog            log to syslog instead of stderr\n"
	       "  --validate          validate each device whose node an event creates\n"
	       "  --coalesce MS       after a batch of change events, wait MS milliseconds\n"
	       "                      before reading more (default 20; 0: never wait)\n"
	       "  --metrics FILE      write the display health to FILE (as 'metrics -o')\n"
	       "                      at start, on reload and on graphics or DRM uevents\n"
	       "  --reload PID        ask the daemon PID to reload, and wait until it has\n"
	       "                      (ExecReload= for systemd before 253)\n"
	       "  -h, --help          show this help\n");
}

static int do_daemon(int argc, char *argv[])
{
	struct fb_rules rules = {};
	struct fb_daemon_opts o;
	int r, ret;

	if (fb_daemon_parse_args(argc, argv, &o) < 0)
		return fb_usage_error("daemon");
	if (o.help) {
		daemon_help();
		return FB_EXIT_OK;
	}
	o.nm.validator = fb_bench_quick; /* --validate: bench's quick mode */
	if (o.syslog)
		log_set_syslog(true);
	if (o.reload_pid)
		return fb_exit_code(fb_reload_request(o.reload_pid), FB_FROM_LIBRARY);
	r = nodemgr_rules_load(&o.nm, &rules);
	if (r < 0)
		/* A rules file to fix at start is a usage error. */
		ret = fb_exit_code(r, FB_FROM_INPUT);
	else
		ret = fb_exit_code(fb_daemon_run(&o, &rules), FB_FROM_LIBRARY);
	fb_rules_free(&rules);
	return ret;
}

const struct fb_cmd fb_cmd_daemon = {
	.name = "daemon",
	.cmd = do_daemon,
	.help = "keep /dev nodes right on kernel uevents (foreground)",
};
