/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl monitor: graphics uevents as they come, one line each. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "commands.h"
#include "display.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"
#include "jsonc-backend.h"
#include "jsonout.h"
#include "log.h"
#include "macro.h"
#include "stop-signals.h"
#include "strutil.h"
#include "uevent-loop.h"
#include "uevent-monitor.h"

struct monitor_line {
	const char *action, *name, *subsystem;
	unsigned long long seqnum;
	char devnum[24], driver[64], format[64];
	unsigned xres, yres;
	bool present, hotplug;
	/* drm: the card's status and connected connectors, read now */
	const char *status;
	char connected[256];
};

static void describe_fb(const struct fb_monitor_event *ev, struct monitor_line *l)
{
	struct fb_device fb = {};
	struct fb_hwinfo hw;

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

/* A card's event: its connectors as sysfs shows them now. */
static void describe_card(const struct fb_monitor_event *ev, struct monitor_line *l,
			  struct drm_list *drm)
{
	const struct drm_card *card = NULL;
	size_t n = 0;

	display_list_free(drm);
	if (display_scan(drm, DRM_SCAN_ALL) < 0)
		return;
	for (size_t i = 0; i < drm->n && !card; i++)
		if (strcmp(drm->cards[i].name, ev->sysname) == 0)
			card = &drm->cards[i];
	if (!card)
		return;
	l->present = true;
	if (card->n_parents && card->parents[0].driver)
		snprintf(l->driver, sizeof(l->driver), "%s", card->parents[0].driver);
	l->status = display_card_status(card);
	for (size_t i = 0; i < card->n_connectors; i++)
		if (card->connectors[i].status == DRM_STATUS_CONNECTED)
			n += (size_t)snprintf(l->connected + n,
					      n < sizeof(l->connected)
						      ? sizeof(l->connected) - n
						      : 0,
					      "%s%s", n ? "," : "",
					      card->connectors[i].name);
}

/* Read the device now: the event may be stale, or the device gone. */
static void monitor_describe(const struct fb_monitor_event *ev, struct monitor_line *l,
			     struct drm_list *drm)
{
	dev_t devnum = ev->devnum;

	*l = (struct monitor_line){
		.action = ev->action,
		.name = ev->sysname,
		.subsystem = ev->subsystem,
		.seqnum = ev->seqnum,
		.hotplug = ev->hotplug,
	};
	if (major(devnum))
		snprintf(l->devnum, sizeof(l->devnum), "%u:%u", major(devnum),
			 minor(devnum));
	if (streq_ptr(ev->subsystem, "drm"))
		describe_card(ev, l, drm);
	else
		describe_fb(ev, l);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void print_text(const struct monitor_line *l)
{
	bool drm = streq_ptr(l->subsystem, "drm");
	char res[32] = "";

	/* every field is a uevent's text: escaped with the line */
	if (drm) {
		print_line_escaped("%s %s %s %s %s %s%s", or_dash(l->action),
				   or_dash(l->name), or_dash(l->devnum),
				   or_dash(l->driver), or_dash(l->status),
				   or_dash(l->connected), l->hotplug ? " HOTPLUG" : "");
		return;
	}
	if (l->xres)
		snprintf(res, sizeof(res), " %ux%u", l->xres, l->yres);
	print_line_escaped("%s %s %s %s %s%s", or_dash(l->action), or_dash(l->name),
			   or_dash(l->devnum), or_dash(l->driver), or_dash(l->format),
			   res);
}

static void print_json(const struct monitor_line *l)
{
	struct json_object *o = json_object_new_object();
	bool drm = streq_ptr(l->subsystem, "drm");

	jsonout_add_uint(o, "seqnum", l->seqnum);
	jsonout_add_string(o, "subsystem", l->subsystem);
	jsonout_add_string(o, "action", or_dash(l->action));
	jsonout_add_string(o, "name", or_dash(l->name));
	jsonout_add_string(o, "maj:min", *l->devnum ? l->devnum : NULL);
	jsonout_add_bool(o, "present", l->present);
	jsonout_add_string(o, "driver", *l->driver ? l->driver : NULL);
	if (drm) {
		struct json_object *a = json_object_new_array();

		for (const char *p = l->connected; *p;) {
			size_t n = strcspn(p, ",");
			char name[128];

			snprintf(name, sizeof(name), "%.*s", (int)n, p);
			json_object_array_add(a, jsonout_string_safe(name));
			p += n + (p[n] == ',');
		}
		jsonout_add_bool(o, "hotplug", l->hotplug);
		jsonout_add_string(o, "status", l->status);
		json_object_object_add(o, "connected", a);
	} else {
		jsonout_add_string(o, "format", *l->format ? l->format : NULL);
		json_object_object_add(o, "xres",
				       l->xres ? json_object_new_int64(l->xres) : NULL);
		json_object_object_add(o, "yres",
				       l->xres ? json_object_new_int64(l->yres) : NULL);
	}
	jsonout_print_line(o);
	json_object_put(o);
}

static void monitor_print(const struct monitor_line *l, bool json)
{
	if (json)
		print_json(l);
	else
		print_text(l);
	fflush(stdout);
}

struct monitor_state {
	struct fb_monitor *mon;
	struct drm_list drm; /* the cards read for the last drm event */
	bool json;
};

/* Every queued event, one line each; then poll again at once. */
static unsigned monitor_events(void *data)
{
	struct monitor_state *st = data;
	struct fb_monitor_event ev;
	int r;

	while ((r = fb_monitor_receive(st->mon, &ev)) != 0) {
		struct monitor_line l;

		if (r == -ENOBUFS) {
			WRN("kernel uevents were lost (receive buffer overran)");
			continue;
		}
		if (r < 0)
			break;
		monitor_describe(&ev, &l, &st->drm);
		monitor_print(&l, st->json);
	}
	return 0;
}

/* SIGINT, SIGTERM, SIGHUP: the end. */
static bool monitor_signal(void *data, const struct signalfd_siginfo *si)
{
	(void)data;
	(void)si;
	return true;
}

static void monitor_help(void)
{
	printf("Usage: fbclassctl monitor [options]\n"
	       "\n"
	       "Print graphics and DRM uevents from the kernel as they come, like\n"
	       "udevadm monitor --kernel.  A graphics line: ACTION NAME MAJ:MIN DRIVER\n"
	       "FORMAT [XRESxYRES]; a DRM card's: ACTION NAME MAJ:MIN DRIVER STATUS\n"
	       "CONNECTED [HOTPLUG], its connectors read when the event arrives; \"-\"\n"
	       "where the device is gone or has no such value.  SIGINT, SIGTERM and\n"
	       "SIGHUP exit 0.\n"
	       "\n"
	       "Options:\n"
	       "  -s, --subsystem LIST   graphics, drm or both (default graphics,drm)\n"
	       "  -J, --json             one JSON object per line\n"
	       "  -h, --help             show this help\n");
}

/* -s graphics,drm: the subsystems named, each known.  0 or -EINVAL. */
static int parse_subsystems(const char *arg, const char **v, size_t *n)
{
	static const char *const known[] = { "graphics", "drm" };

	*n = 0;
	for (const char *p = arg; *p;) {
		size_t len = strcspn(p, ","), k = 0;

		while (k < ARRAY_SIZE(known) &&
		       (strlen(known[k]) != len || strncmp(known[k], p, len) != 0))
			k++;
		if (k == ARRAY_SIZE(known)) {
			ERR("--subsystem: unknown subsystem \"%.*s\" (graphics or drm)",
			    (int)len, p);
			return -EINVAL;
		}
		if (*n < ARRAY_SIZE(known))
			v[(*n)++] = known[k];
		p += len + (p[len] == ',');
	}
	if (!*n) {
		ERR("--subsystem: no subsystem named");
		return -EINVAL;
	}
	return 0;
}

static int do_monitor(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "subsystem", required_argument, NULL, 's' },
		FB_CMD_OPTION_JSON,
		FB_CMD_OPTION_HELP,
		{},
	};
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	const char *subsystems[2] = { "graphics", "drm" };
	size_t n_subsystems = 2;
	struct monitor_state st = {};
	bool help = false;
	const struct fb_cmd_common common = { .json = &st.json, .help = &help };
	int c, sfd = -1, ret = FB_EXIT_ERROR;

	while ((c = fb_cmd_getopt(argc, argv, "s:Jh", options, &common)) != -1) {
		if (c != 's' || parse_subsystems(optarg, subsystems, &n_subsystems) < 0)
			return fb_usage_error("monitor");
	}
	if (help) {
		monitor_help();
		return FB_EXIT_OK;
	}
	if (st.json && fb_jsonc_open("monitor -J") < 0)
		return FB_EXIT_ERROR;
	if (optind < argc) {
		ERR("monitor: unexpected argument \"%s\"", argv[optind]);
		return fb_usage_error("monitor");
	}
	sfd = fb_signals_open(sigs, ARRAY_SIZE(sigs));
	if (sfd >= 0 && fb_monitor_open(&st.mon, subsystems, n_subsystems, 0) >= 0) {
		const struct uevent_loop l = { .sfd = sfd,
					       .event_fd = fb_monitor_fd(st.mon),
					       .on_events = monitor_events,
					       .on_signal = monitor_signal,
					       .data = &st };

		/* as udevadm monitor says what it listens to; stderr keeps
		 * stdout the events only */
		INF("monitor: listening for kernel uevents of %s%s%s; SIGINT (Ctrl-C) stops",
		    subsystems[0], n_subsystems > 1 ? " and " : "",
		    n_subsystems > 1 ? subsystems[1] : "");
		if (uevent_loop_run(&l) == 0)
			ret = FB_EXIT_OK;
	}
	display_list_free(&st.drm);
	fb_monitor_free(st.mon);
	if (sfd >= 0)
		close(sfd);
	return ret;
}

const struct fb_cmd fb_cmd_monitor = {
	.name = "monitor",
	.cmd = do_monitor,
	.help = "print graphics and DRM uevents as they come",
};
