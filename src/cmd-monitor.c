/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl monitor: graphics uevents as they come, one line each. */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "commands.h"
#include "daemon.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"
#include "log.h"
#include "macro.h"
#include "uevent-monitor.h"

struct monitor_line {
	const char *action, *name;
	unsigned long long seqnum;
	char devnum[24], driver[64], format[64];
	unsigned xres, yres;
	bool present;
};

/* Read the device now: the event may be stale, or the device gone. */
static void monitor_describe(const struct fb_monitor_event *ev, struct monitor_line *l)
{
	struct fb_device fb = {};
	struct fb_hwinfo hw;
	dev_t devnum = ev->devnum;

	*l = (struct monitor_line){
		.action = ev->action,
		.name = ev->sysname,
		.seqnum = ev->seqnum,
	};
	if (major(devnum))
		snprintf(l->devnum, sizeof(l->devnum), "%u:%u", major(devnum),
			 minor(devnum));
	if (fb_device_scan_one(ev->syspath, FB_SCAN_NODE, &fb) < 0)
		return;
	l->present = true;
	if (fb_device_parent(&fb) && fb_device_parent(&fb)->driver)
		snprintf(l->driver, sizeof(l->driver), "%s",
			 fb_device_parent(&fb)->driver);
	if (fb_hw_query(&fb, "/dev", geteuid() == 0, &hw) == 0 && hw.valid) {
		struct fb_pixel_format fmt;

		fb_pixel_format_decode(&hw.var, hw.fix.visual, &fmt);
		snprintf(l->format, sizeof(l->format), "%s", fmt.name);
		l->xres = hw.var.xres;
		l->yres = hw.var.yres;
	}
	fb_device_free(&fb);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void monitor_print(const struct monitor_line *l, bool json)
{
	if (!json) {
		printf("%s %s %s %s %s", or_dash(l->action), or_dash(l->name),
		       or_dash(l->devnum), or_dash(l->driver), or_dash(l->format));
		if (l->xres)
			printf(" %ux%u", l->xres, l->yres);
		printf("\n");
	} else {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "seqnum", json_object_new_uint64(l->seqnum));
		json_object_object_add(o, "action",
				       json_object_new_string(or_dash(l->action)));
		json_object_object_add(o, "name",
				       json_object_new_string(or_dash(l->name)));
		json_object_object_add(o, "devnum",
				       *l->devnum ? json_object_new_string(l->devnum)
						  : NULL);
		json_object_object_add(o, "present", json_object_new_boolean(l->present));
		json_object_object_add(o, "driver",
				       *l->driver ? json_object_new_string(l->driver)
						  : NULL);
		json_object_object_add(o, "format",
				       *l->format ? json_object_new_string(l->format)
						  : NULL);
		json_object_object_add(o, "xres",
				       l->xres ? json_object_new_int64(l->xres) : NULL);
		json_object_object_add(o, "yres",
				       l->xres ? json_object_new_int64(l->yres) : NULL);
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	}
	fflush(stdout);
}

static void monitor_help(void)
{
	printf("Usage: fbclassctl monitor [options]\n"
	       "\n"
	       "Print graphics uevents from the kernel as they come, like\n"
	       "udevadm monitor --kernel --subsystem-match=graphics.  Each line:\n"
	       "ACTION NAME MAJ:MIN DRIVER FORMAT [XRESxYRES], read when the event\n"
	       "arrives; \"-\" where the device is gone or has no such value.\n"
	       "Ctrl-C exits 0.\n"
	       "\n"
	       "Options:\n"
	       "  -J, --json   one JSON object per line\n"
	       "  -h, --help   show this help\n");
}

static int do_monitor(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	static const int sigs[] = { SIGTERM, SIGINT };
	static const char *const graphics[] = { "graphics" };
	struct fb_monitor *mon = NULL;
	bool json = false;
	int c, sfd = -1, ret = FB_EXIT_ERROR;

	while ((c = getopt_long(argc, argv, "Jh", options, NULL)) != -1) {
		switch (c) {
		case 'J':
			json = true;
			break;
		case 'h':
			monitor_help();
			return FB_EXIT_OK;
		default:
			return fb_usage_error("monitor");
		}
	}
	if (optind < argc) {
		ERR("monitor: unexpected argument \"%s\"", argv[optind]);
		return fb_usage_error("monitor");
	}
	sfd = fb_signals_open(sigs, ARRAY_SIZE(sigs));
	if (sfd < 0 || fb_monitor_open(&mon, graphics, ARRAY_SIZE(graphics), 0) < 0)
		goto finish;
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = sfd, .events = POLLIN },
			{ .fd = fb_monitor_fd(mon), .events = POLLIN },
		};
		struct fb_monitor_event ev;
		int r;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			ERR("poll: %m");
			goto finish;
		}
		if (p[0].revents) {
			ret = FB_EXIT_OK;
			goto finish;
		}
		while ((r = fb_monitor_receive(mon, &ev)) != 0) {
			struct monitor_line l;

			if (r == -ENOBUFS) {
				WRN("kernel uevents were lost (receive buffer overran)");
				continue;
			}
			if (r < 0)
				break;
			monitor_describe(&ev, &l);
			monitor_print(&l, json);
		}
	}
finish:
	fb_monitor_free(mon);
	if (sfd >= 0)
		close(sfd);
	return ret;
}

const struct fb_cmd fb_cmd_monitor = {
	.name = "monitor",
	.cmd = do_monitor,
	.help = "print graphics uevents as they come",
};
