/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fbclassctl daemon: the node manager on kernel uevents, after skarnet's
 * mdevd: foreground, one poll loop over {signalfd, netlink}, readiness on
 * NOTIFY_SOCKET and --ready-fd, SIGHUP reloads, SIGTERM exits 0.
 * fbclassctl monitor: graphics uevents as they come, one line each.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "daemon.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"
#include "nodemgr.h"
#include "log.h"
#include "macro.h"
#include "modules.h"
#include "nodes.h"
#include "rules.h"
#include "uevent-monitor.h"

/* Events read in one go before acting: a burst of changes for one device
 * becomes one sysfs read.  Both bounds keep memory fixed. */
#define DAEMON_BATCH_MAX 1024
#define DAEMON_DIRTY_MAX 16

struct daemon {
	struct fb_daemon_opts *o;
	struct fb_rules rules;
	struct fb_monitor *mon;
	int sfd;
	unsigned long long last_seqnum;
	char dirty[DAEMON_DIRTY_MAX][NODE_NAME_MAX];
	bool dirty_full[DAEMON_DIRTY_MAX]; /* an event other than change came */
	size_t n_dirty;
	struct nodemgr_cache cache; /* the last full scan's plan, for change events */
	bool resync; /* events were lost, or too many devices: full coldplug */
};

/* Block sigs and return a signalfd for them, or -errno. */
static int signals_open(const int *sigs, size_t n)
{
	sigset_t mask;
	int fd;

	sigemptyset(&mask);
	for (size_t i = 0; i < n; i++)
		sigaddset(&mask, sigs[i]);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -errno;
	fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* The kernel monitor of graphics events, and of the buses whose devices
 * may want a display driver loaded. */
static int monitor_open(struct fb_monitor **monp, bool buses, unsigned buffer_size)
{
	static const char *const subsystems[] = { "graphics", "pci", "platform", "usb" };

	return fb_monitor_open(monp, subsystems, buses ? ARRAY_SIZE(subsystems) : 1,
			       buffer_size);
}

/* A change of a device already planned for can be checked against the
 * cached plan; add, remove, bind and unbind (in any order in one batch)
 * take a full scan. */
static void mark_dirty(struct daemon *d, const char *name, bool full)
{
	for (size_t i = 0; i < d->n_dirty; i++)
		if (strcmp(d->dirty[i], name) == 0) {
			d->dirty_full[i] |= full;
			return;
		}
	if (d->n_dirty == DAEMON_DIRTY_MAX || strlen(name) >= NODE_NAME_MAX) {
		d->resync = true;
		return;
	}
	d->dirty_full[d->n_dirty] = full;
	snprintf(d->dirty[d->n_dirty++], NODE_NAME_MAX, "%s", name);
}

static void handle_device(struct daemon *d, const struct fb_monitor_event *ev)
{
	const char *subsystem = ev->subsystem;
	const char *action = ev->action;
	const char *name = ev->sysname;
	unsigned long long seq = ev->seqnum;
	unsigned n;

	/* Other subsystems use seqnums too: a gap is normal, but says so. */
	if (d->last_seqnum && seq != d->last_seqnum + 1)
		DBG("SEQNUM %llu after %llu: %llu events not for us or lost", seq,
		    d->last_seqnum, seq - d->last_seqnum - 1);
	d->last_seqnum = seq;
	switch (fb_daemon_classify(subsystem, action, major(ev->devnum) != 0,
				   d->o->nm.load_modules)) {
	case FB_DAEMON_SYNC:
		DBG("%s: %s event (SEQNUM %llu)", name, action, seq);
		mark_dirty(d, name, strcmp(action, "change") != 0);
		break;
	case FB_DAEMON_LOAD:
		fb_modules_load_for_device(ev->syspath, &n);
		break;
	case FB_DAEMON_IGNORE:
		break;
	}
}

/* Read what is queued (bounded), then act once per device.  True when
 * that was change events only, which --coalesce lets gather. */
static bool drain_events(struct daemon *d)
{
	bool changes_only;

	for (unsigned i = 0; i < DAEMON_BATCH_MAX; i++) {
		struct fb_monitor_event ev;
		int r = fb_monitor_receive(d->mon, &ev);

		if (r > 0) {
			handle_device(d, &ev);
			continue;
		}
		if (r == -ENOBUFS) {
			WRN("kernel uevents were lost (receive buffer of %u bytes overran); running a full coldplug",
			    d->o->buffer_size);
			d->resync = true;
			continue;
		}
		if (r < 0)
			DBG("uevent socket: %s", strerror(-r));
		break;
	}
	changes_only = d->n_dirty > 0 && !d->resync;
	for (size_t i = 0; i < d->n_dirty; i++)
		changes_only &= !d->dirty_full[i];
	if (d->resync) {
		nodemgr_coldplug(&d->o->nm, &d->rules, &d->cache);
	} else {
		for (size_t i = 0; i < d->n_dirty; i++) {
			if (!d->dirty_full[i] &&
			    nodemgr_event_quick(&d->o->nm, &d->cache, d->dirty[i]) !=
				    -EAGAIN)
				continue;
			nodemgr_event(&d->o->nm, &d->rules, d->dirty[i], &d->cache);
		}
	}
	d->resync = false;
	d->n_dirty = 0;
	return changes_only;
}

static void reload(struct daemon *d)
{
	struct fb_rules fresh = {};

	if (nodemgr_rules_load(&d->o->nm, &fresh) != 0) {
		ERR("%s: not reloaded; the rules read before stay in force",
		    d->o->nm.config);
		fb_rules_free(&fresh);
	} else {
		INF("%s: reloaded, %zu rule%s", d->o->nm.config, fresh.n,
		    fresh.n == 1 ? "" : "s");
		fb_rules_free(&d->rules);
		d->rules = fresh;
	}
	nodemgr_coldplug(&d->o->nm, &d->rules, &d->cache);
}

static void signal_ready(const struct fb_daemon_opts *o)
{
	fb_notify("READY=1");
	if (o->ready_fd < 0)
		return;
	if (write(o->ready_fd, "\n", 1) != 1)
		ERR("--ready-fd %d: cannot write the readiness newline: %m", o->ready_fd);
	close(o->ready_fd);
}

static void daemon_help(void)
{
	printf("Usage: fbclassctl daemon [options]\n"
	       "\n"
	       "Keep /dev/fbN nodes and links right on kernel uevents, in the foreground.\n"
	       "Listens to the kernel (never to other processes), runs a full coldplug,\n"
	       "then signals readiness (NOTIFY_SOCKET, --ready-fd).  SIGHUP reloads the\n"
	       "rules and runs a coldplug; SIGTERM and SIGINT exit 0.\n"
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
	       "  -h, --help          show this help\n");
}

static int do_daemon(int argc, char *argv[])
{
	static const int sigs[] = { SIGHUP, SIGTERM, SIGINT };
	struct fb_daemon_opts o;
	struct daemon d = { .o = &o, .sfd = -1 };
	int ret = FB_EXIT_ERROR, r;

	r = fb_daemon_parse_args(argc, argv, &o);
	if (r < 0) {
		daemon_help();
		return FB_EXIT_OK;
	}
	if (r > 0)
		return r;
	if (o.syslog)
		log_set_syslog(true);
	/* The daemon itself finds drivers; waiting would only delay readiness. */
	o.nm.settle = 0;
	ret = nodemgr_rules_load(&o.nm, &d.rules);
	if (ret)
		goto finish;
	ret = FB_EXIT_ERROR;
	d.sfd = signals_open(sigs, ARRAY_SIZE(sigs));
	if (d.sfd < 0) {
		ERR("cannot set up signal handling: %s", strerror(-d.sfd));
		goto finish;
	}
	/* 1. listen, 2. coldplug, 3. ready: no event falls between scan and loop. */
	if (monitor_open(&d.mon, o.nm.load_modules, o.buffer_size) < 0)
		goto finish;
	nodemgr_coldplug(&o.nm, &d.rules, &d.cache);
	signal_ready(&o);
	INF("daemon ready (%s, rules %s)", o.nm.devdir, o.nm.config);

	for (bool gather = false;;) {
		struct pollfd p[2] = {
			{ .fd = d.sfd, .events = POLLIN },
			{ .fd = fb_monitor_fd(d.mon), .events = POLLIN },
		};
		struct signalfd_siginfo si;

		/* A storm of change events (a driver that sends one per frame, a
		 * loop writing "change" to uevent): let the next ones queue in
		 * the kernel's buffer, and read and check them as one batch.  A
		 * signal waits too (at most coalesce_ms); nothing is lost. */
		if (gather)
			nanosleep(&(struct timespec){ .tv_sec = o.coalesce_ms / 1000,
						      .tv_nsec = o.coalesce_ms % 1000 *
								 1000000L },
				  NULL);
		gather = false;
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			ERR("poll: %m");
			goto finish;
		}
		if (p[1].revents)
			gather = drain_events(&d) && o.coalesce_ms;
		if (!p[0].revents || read(d.sfd, &si, sizeof(si)) != sizeof(si))
			continue;
		if (si.ssi_signo == SIGHUP) {
			INF("SIGHUP: reloading %s", o.nm.config);
			reload(&d);
			continue;
		}
		INF("%s: exiting", strsignal((int)si.ssi_signo));
		fb_notify("STOPPING=1");
		ret = FB_EXIT_OK;
		goto finish;
	}
finish:
	nodemgr_cache_clear(&d.cache);
	fb_monitor_free(d.mon);
	if (d.sfd >= 0)
		close(d.sfd);
	fb_rules_free(&d.rules);
	return ret;
}

const struct fb_cmd fb_cmd_daemon = {
	.name = "daemon",
	.cmd = do_daemon,
	.help = "keep /dev nodes right on kernel uevents (foreground)",
};

/* ---- monitor ---- */

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
	sfd = signals_open(sigs, ARRAY_SIZE(sigs));
	if (sfd < 0) {
		ERR("cannot set up signal handling: %s", strerror(-sfd));
		goto finish;
	}
	if (monitor_open(&mon, false, 0) < 0)
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
