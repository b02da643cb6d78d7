/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fbclassctl daemon: the node manager on kernel uevents, after skarnet's
 * mdevd: foreground, one poll loop over {signalfd, netlink}, readiness on
 * NOTIFY_SOCKET and --ready-fd, SIGHUP reloads, SIGTERM exits 0.  Its
 * options, readiness, what an event asks for, and what it does in the
 * loop (src/uevent-loop.c).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon-reload.h"
#include "daemon.h"
#include "idle-memory.h"
#include "log.h"
#include "macro.h"
#include "metrics.h"
#include "modules.h"
#include "nodes.h"
#include "rules.h"
#include "stop-signals.h"
#include "strutil.h"
#include "uevent-loop.h"
#include "uevent-monitor.h"

int fb_notify_address(const char *s, struct sockaddr_un *sa, socklen_t *len)
{
	size_t n;

	if (!s || (s[0] != '/' && s[0] != '@') || !s[1])
		return -EINVAL;
	n = strlen(s);
	if (n > sizeof(sa->sun_path) - (s[0] == '/'))
		return -ENAMETOOLONG;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, s, n);
	if (s[0] == '@')
		sa->sun_path[0] = '\0'; /* abstract: no terminator counted */
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (s[0] == '/'));
	return 0;
}

int fb_notify(const char *state)
{
	const char *env = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa;
	socklen_t len;
	_cleanup_close_ int fd = -1;
	ssize_t sent;
	int r;

	if (!env)
		return 0;
	r = fb_notify_address(env, &sa, &len);
	if (r < 0)
		return log_errno(
			r, "NOTIFY_SOCKET=%s: not an absolute path or @abstract name: %m",
			env);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return log_errno(-errno, "NOTIFY_SOCKET=%s: cannot create a socket: %m",
				 env);
	sent = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, len);
	if (sent < 0)
		return log_errno(-errno, "NOTIFY_SOCKET=%s: cannot send %s: %m", env,
				 state);
	return 0;
}

static int parse_buffer_size(const char *s, unsigned *out)
{
	unsigned long long v;

	if (parse_decimal(s, FB_DAEMON_BUFFER_MAX, &v) < 0 || v < FB_DAEMON_BUFFER_MIN)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* --metrics FILE, --reload PID.  0 or -EINVAL (said). */
static int daemon_parse_metrics_reload(bool reload, const char *arg,
				       struct fb_daemon_opts *o)
{
	int pid;

	if (!reload) {
		if (!*arg) {
			ERR("--metrics: empty file name");
			return -EINVAL;
		}
		o->metrics = arg;
		return 0;
	}
	if (parse_fd(arg, &pid) < 0 || pid < 1) {
		ERR("--reload: \"%s\" is not a process id", arg);
		return -EINVAL;
	}
	o->reload_pid = pid;
	return 0;
}

enum {
	OPT_BUFFER_SIZE = NODEMGR_OPT_END,
	OPT_READY_FD,
	OPT_SYSLOG,
	OPT_COALESCE,
	OPT_METRICS,
	OPT_RELOAD,
};

int fb_daemon_parse_args(int argc, char *argv[], struct fb_daemon_opts *o)
{
	static const struct option options[] = {
		NODEMGR_OPTION_DEV,
		NODEMGR_OPTION_CONFIG,
		NODEMGR_OPTION_LOAD_MODULES,
		{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
		{ "ready-fd", required_argument, NULL, OPT_READY_FD },
		{ "syslog", no_argument, NULL, OPT_SYSLOG },
		NODEMGR_OPTION_VALIDATE,
		{ "coalesce", required_argument, NULL, OPT_COALESCE },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "reload", required_argument, NULL, OPT_RELOAD },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int c;

	*o = (struct fb_daemon_opts){
		.buffer_size = FB_DAEMON_BUFFER_DEFAULT,
		.coalesce_ms = FB_DAEMON_COALESCE_DEFAULT,
		.ready_fd = -1,
	};
	nodemgr_opts_init(&o->nm);
	/* No --settle: the daemon itself finds drivers as they appear, and
	 * waiting would only delay readiness. */
	o->nm.settle = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case NODEMGR_OPT_DEV:
		case NODEMGR_OPT_CONFIG:
		case NODEMGR_OPT_LOAD_MODULES:
		case NODEMGR_OPT_VALIDATE:
			nodemgr_parse_option(c, optarg, &o->nm);
			break;
		case OPT_BUFFER_SIZE:
			if (parse_buffer_size(optarg, &o->buffer_size) < 0) {
				ERR("--buffer-size: \"%s\" is not a number of bytes from %u to %u",
				    optarg, FB_DAEMON_BUFFER_MIN, FB_DAEMON_BUFFER_MAX);
				return -EINVAL;
			}
			break;
		case OPT_COALESCE: {
			unsigned long long v;

			if (parse_decimal(optarg, FB_DAEMON_COALESCE_MAX, &v) < 0) {
				ERR("--coalesce: \"%s\" is not a number of milliseconds from 0 to %u",
				    optarg, FB_DAEMON_COALESCE_MAX);
				return -EINVAL;
			}
			o->coalesce_ms = (unsigned)v;
			break;
		}
		case OPT_READY_FD:
			if (parse_fd(optarg, &o->ready_fd) < 0) {
				ERR("--ready-fd: \"%s\" is not a file descriptor number",
				    optarg);
				return -EINVAL;
			}
			break;
		case OPT_SYSLOG:
			o->syslog = true;
			break;
		case OPT_METRICS:
		case OPT_RELOAD:
			if (daemon_parse_metrics_reload(c == OPT_RELOAD, optarg, o) < 0)
				return -EINVAL;
			break;
		case 'h':
			o->help = true;
			return 0;
		default:
			return -EINVAL; /* getopt_long said why */
		}
	}
	return nodemgr_check_args("daemon", argc, argv, &o->nm);
}

enum fb_daemon_action fb_daemon_classify(const char *subsystem, const char *action,
					 const char *sysname, bool has_devnum,
					 bool load_modules)
{
	static const char *const sync_actions[] = { "add",  "change", "remove",
						    "bind", "unbind", "move" };

	if (!subsystem || !action)
		return FB_DAEMON_IGNORE;
	if (strcmp(subsystem, "graphics") == 0) {
		if (!has_devnum)
			return FB_DAEMON_IGNORE; /* fbcon: no node */
		for (size_t i = 0; i < ARRAY_SIZE(sync_actions); i++)
			if (strcmp(action, sync_actions[i]) == 0)
				return FB_DAEMON_SYNC;
		return FB_DAEMON_IGNORE;
	}
	if (strcmp(subsystem, "drm") == 0)
		return has_devnum && sysname && strncmp(sysname, "card", 4) == 0 &&
				       (strcmp(action, "change") == 0 ||
					strcmp(action, "add") == 0 ||
					strcmp(action, "remove") == 0)
			       ? FB_DAEMON_DISPLAY
			       : FB_DAEMON_IGNORE;
	if (load_modules && strcmp(action, "add") == 0 &&
	    (strcmp(subsystem, "pci") == 0 || strcmp(subsystem, "platform") == 0 ||
	     strcmp(subsystem, "usb") == 0))
		return FB_DAEMON_LOAD;
	return FB_DAEMON_IGNORE;
}

/* ---- the loop ---- */

/* Events read in one go before acting: a burst of changes for one device
 * becomes one sysfs read.  Both bounds keep memory fixed. */
#define DAEMON_BATCH_MAX 1024
#define DAEMON_DIRTY_MAX 16

struct daemon {
	const struct fb_daemon_opts *o;
	struct fb_rules *rules; /* the caller's; SIGHUP replaces them there */
	struct fb_monitor *mon;
	int sfd;
	unsigned long long last_seqnum;
	char dirty[DAEMON_DIRTY_MAX][NODE_NAME_MAX];
	bool dirty_full[DAEMON_DIRTY_MAX]; /* an event other than change came */
	size_t n_dirty;
	struct nodemgr_cache cache; /* the last full scan's plan, for change events */
	bool resync; /* events were lost, or too many devices: full coldplug */
	bool relink; /* a DRM card changed: plan and apply every link again */
	bool release; /* events came since memory was last given back */
	bool metrics_dirty; /* a graphics or drm event: --metrics is written again */
};

/* The kernel monitor of graphics and drm events, and of the buses whose
 * devices may want a display driver loaded. */
static int monitor_open(struct fb_monitor **monp, bool buses, unsigned buffer_size)
{
	static const char *const subsystems[] = { "graphics", "drm", "pci", "platform",
						  "usb" };

	return fb_monitor_open(monp, subsystems, buses ? ARRAY_SIZE(subsystems) : 2,
			       buffer_size);
}

/*
 * --metrics FILE: written at start, on reload and after a batch that held
 * a graphics or drm event, by a child.  metrics reads each card's KMS
 * state, and that dlopen()s libdrm (src/kms-libdrm.c); done in here, the
 * daemon would keep libdrm mapped, and what the scan allocated, for as
 * long as it runs.  A fork that calls the library and _exit()s (no stdio
 * flushed twice) leaves nothing behind: no exec, so no program to find
 * on disk and no options to pass on, and a test program linking the
 * library runs it too.  The daemon waits for it, as it waited for the write
 * before: the file is there before READY=1, one write at a time, and a
 * connector's change is in it once the batch is handled.  A failure was
 * reported (by the child); the next event tries again.
 */
static void write_metrics(struct daemon *d)
{
	const struct metrics_opts mo = { .devdir = d->o->nm.devdir,
					 .proc_dir = "/proc",
					 .boot_dir = "/boot" };
	sigset_t none;
	pid_t pid;
	int status;

	d->metrics_dirty = false;
	if (!d->o->metrics)
		return;
	pid = fork();
	if (pid < 0) {
		log_errno(-errno, "%s: cannot fork the metrics writer: %m", d->o->metrics);
		return;
	}
	if (pid == 0) {
		/* the daemon's signals are its signalfd's: SIGTERM ends this one */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		_exit(metrics_write_file(d->o->metrics, &mo) < 0 ? 1 : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			log_errno(-errno, "%s: the metrics writer (pid %d): %m",
				  d->o->metrics, (int)pid);
			return;
		}
	if (WIFSIGNALED(status))
		ERR("%s: the metrics writer (pid %d) was killed by %s", d->o->metrics,
		    (int)pid, strsignal(WTERMSIG(status)));
}

/* A full coldplug: at start, after lost events, on SIGHUP.  What failed
 * was reported; the daemon goes on, and the next event of a device (or
 * SIGHUP) tries that device again. */
static void daemon_coldplug(struct daemon *d, const char *when)
{
	int r = nodemgr_coldplug(&d->o->nm, d->rules, &d->cache, NULL);

	if (r < 0)
		log_errno(
			r,
			"coldplug %s incomplete: %m; still listening (the next event or SIGHUP tries again)",
			when);
}

/* A card's connectors changed: every framebuffer's links again (plan,
 * apply, prune), without loading drivers or validating. */
static void relink(struct daemon *d)
{
	struct nodemgr_opts o = d->o->nm;
	int r;

	o.load_modules = false;
	o.validate = false;
	r = nodemgr_coldplug(&o, d->rules, &d->cache, NULL);
	if (r < 0)
		log_errno(r, "links after a display change incomplete: %m");
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

	if (streq_ptr(subsystem, "graphics") || streq_ptr(subsystem, "drm"))
		d->metrics_dirty = true;
	/* Other subsystems use seqnums too: a gap is normal, but says so. */
	if (d->last_seqnum && seq != d->last_seqnum + 1)
		DBG("SEQNUM %llu after %llu: %llu events not for us or lost", seq,
		    d->last_seqnum, seq - d->last_seqnum - 1);
	d->last_seqnum = seq;
	switch (fb_daemon_classify(subsystem, action, name, major(ev->devnum) != 0,
				   d->o->nm.load_modules)) {
	case FB_DAEMON_SYNC:
		DBG("%s: %s event (SEQNUM %llu)", name, action, seq);
		mark_dirty(d, name, strcmp(action, "change") != 0);
		break;
	case FB_DAEMON_LOAD:
		fb_modules_load_for_device(ev->syspath, &n);
		break;
	case FB_DAEMON_DISPLAY:
		DBG("%s: %s event (SEQNUM %llu): the connectors may have changed", name,
		    action, seq);
		d->relink = true;
		break;
	case FB_DAEMON_IGNORE:
		break;
	}
}

/* Act once per device read in this batch.  Each failure was reported;
 * the next event of that device tries again. */
static void sync_dirty(struct daemon *d)
{
	for (size_t i = 0; i < d->n_dirty; i++) {
		if (!d->dirty_full[i] &&
		    nodemgr_event_quick(&d->o->nm, &d->cache, d->dirty[i]) != -EAGAIN)
			continue;
		nodemgr_event(&d->o->nm, d->rules, d->dirty[i], &d->cache);
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
	if (d->resync)
		daemon_coldplug(d, "after lost events");
	else
		sync_dirty(d);
	if (d->relink && !d->resync)
		relink(d);
	if (d->metrics_dirty || d->resync)
		write_metrics(d);
	d->resync = false;
	d->relink = false;
	d->n_dirty = 0;
	return changes_only;
}

/* SIGHUP, or FB_RELOAD_SIGNAL from "daemon --reload": the rules read
 * again, a coldplug, the metrics; systemd is told when it starts and
 * ends. */
static void reload(struct daemon *d)
{
	struct fb_rules fresh = {};

	fb_reload_notify_start();
	if (nodemgr_rules_load(&d->o->nm, &fresh) < 0) {
		ERR("%s: not reloaded; the rules read before stay in force",
		    d->o->nm.config);
		fb_rules_free(&fresh);
	} else {
		INF("%s: reloaded, %zu rule%s", d->o->nm.config, fresh.n,
		    fresh.n == 1 ? "" : "s");
		fb_rules_free(d->rules);
		*d->rules = fresh;
	}
	daemon_coldplug(d, "after SIGHUP");
	write_metrics(d);
	d->release = true;
	fb_reload_notify_done();
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

/* After a batch of change events only: how long to let the next ones
 * queue before reading again (--coalesce).  A storm of them (a driver
 * that sends one per frame, a loop writing "change" to uevent) is then
 * read and checked in a few large batches. */
static unsigned loop_events(void *data)
{
	struct daemon *d = data;
	bool changes_only = drain_events(d);

	d->release = true;
	return changes_only ? d->o->coalesce_ms : 0;
}

/* Idle for a while after events: give back what handling them took. */
static int loop_idle_ms(void *data)
{
	const struct daemon *d = data;

	return d->release ? FB_DAEMON_IDLE_RELEASE_MS : -1;
}

static void loop_idle(void *data)
{
	struct daemon *d = data;

	fb_idle_memory_release();
	d->release = false;
}

/* SIGHUP or a reload request: reload, go on.  SIGTERM, SIGINT: end. */
static bool loop_signal(void *data, const struct signalfd_siginfo *si)
{
	struct daemon *d = data;

	if (si->ssi_signo == SIGHUP || fb_reload_is_request(si)) {
		INF("%s: reloading %s",
		    si->ssi_signo == SIGHUP ? "SIGHUP" : "reload asked", d->o->nm.config);
		reload(d);
		if (fb_reload_is_request(si))
			fb_reload_answer(si);
		return false;
	}
	if ((int)si->ssi_signo == FB_RELOAD_SIGNAL)
		return false; /* not queued by --reload: not for us */
	INF("%s: exiting", strsignal((int)si->ssi_signo));
	fb_notify("STOPPING=1");
	return true;
}

/* Events and signals until SIGTERM or SIGINT (0) or a failed poll
 * (-errno, reported). */
static int daemon_loop(struct daemon *d)
{
	const struct uevent_loop l = {
		.sfd = d->sfd,
		.event_fd = fb_monitor_fd(d->mon),
		.on_events = loop_events,
		.on_signal = loop_signal,
		.idle_ms = loop_idle_ms,
		.on_idle = loop_idle,
		.data = d,
	};

	return uevent_loop_run(&l);
}

int fb_daemon_run(const struct fb_daemon_opts *o, struct fb_rules *rules)
{
	const int sigs[] = { SIGHUP, SIGTERM, SIGINT, FB_RELOAD_SIGNAL };
	struct daemon d = { .o = o, .rules = rules, .sfd = -1 };
	int r;

	r = d.sfd = fb_signals_open(sigs, ARRAY_SIZE(sigs));
	/* 1. listen, 2. coldplug, 3. ready: no event falls between scan and loop. */
	if (r >= 0)
		r = monitor_open(&d.mon, o->nm.load_modules, o->buffer_size);
	if (r >= 0) {
		daemon_coldplug(&d, "at start");
		write_metrics(&d);
		signal_ready(o);
		INF("daemon ready (%s, rules %s)", o->nm.devdir, o->nm.config);
		/* what only the start ran need not stay */
		fb_idle_memory_release();
		r = daemon_loop(&d);
	}
	nodemgr_cache_clear(&d.cache);
	fb_monitor_free(d.mon);
	if (d.sfd >= 0)
		close(d.sfd);
	return r;
}
