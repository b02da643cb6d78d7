/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * fbclassctl daemon: its options, readiness (NOTIFY_SOCKET, --ready-fd),
 * what an event asks for (pure, unit-tested), and what it does on events
 * and signals in the loop it shares with monitor (src/uevent-loop.h).
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "nodemgr.h"

struct fb_rules;

#define FB_DAEMON_BUFFER_DEFAULT (16u << 20)
#define FB_DAEMON_BUFFER_MIN	 4096u
#define FB_DAEMON_BUFFER_MAX	 (1u << 30)
/* --coalesce MS: after a batch of change events only, wait this long
 * before reading again, so that a storm of them is read and checked in a
 * few large batches.  Any other event is then late by at most this. */
#define FB_DAEMON_COALESCE_DEFAULT 20u
#define FB_DAEMON_COALESCE_MAX	   1000u
/* After events, once this long has passed without another, the daemon
 * gives back what handling them faulted in (src/idle-memory.h): its idle
 * cost stays what it was after the start, whatever came before. */
#define FB_DAEMON_IDLE_RELEASE_MS 2000

struct fb_daemon_opts {
	struct nodemgr_opts nm;
	unsigned buffer_size; /* kernel receive buffer of the netlink socket */
	unsigned coalesce_ms; /* see FB_DAEMON_COALESCE_DEFAULT; 0: never wait */
	int ready_fd; /* -1: none */
	bool syslog;
	const char *metrics; /* --metrics FILE; NULL: none */
	int reload_pid; /* --reload PID: ask it to reload, and wait; 0: none */
	bool help; /* --help was given: the command prints its help */
};

/*
 * Options of "daemon" (argv[0] is the command).  0, or -EINVAL for a
 * usage error, already reported (the command says how to get help).
 */
int fb_daemon_parse_args(int argc, char *argv[], struct fb_daemon_opts *o);

/*
 * The daemon, with rules loaded by the caller (SIGHUP replaces them
 * there): listen, run a full coldplug, signal readiness, then keep /dev
 * right on events until SIGTERM or SIGINT.  A coldplug that fails, at
 * start too, is logged and the daemon goes on (and is ready): what failed
 * is tried again on the next event of that device, or on SIGHUP.  0 after
 * SIGTERM or SIGINT; -errno when it could not start listening or poll
 * failed (reported).
 */
int fb_daemon_run(const struct fb_daemon_opts *o, struct fb_rules *rules);

/* NOTIFY_SOCKET as sd_notify(3) reads it: an absolute path, or "@name" for
 * the abstract namespace.  Returns 0, -EINVAL or -ENAMETOOLONG. */
int fb_notify_address(const char *s, struct sockaddr_un *sa, socklen_t *len);
/* Send state ("READY=1") to $NOTIFY_SOCKET, one datagram.  0 when unset
 * or sent; -errno otherwise (already reported). */
int fb_notify(const char *state);

enum fb_daemon_action {
	FB_DAEMON_IGNORE,
	FB_DAEMON_SYNC, /* re-read that graphics device and fix its node */
	FB_DAEMON_LOAD, /* a bus device appeared: maybe load its display driver */
	FB_DAEMON_DISPLAY, /* a DRM card changed (a monitor plugged or pulled):
			    * the by-connector links follow */
};

/* What an event asks for.  has_devnum: the event carries MAJOR/MINOR
 * (fbcon does not).  A card's change comes with HOTPLUG=1 when a connector
 * was probed, and without it from "echo change > .../uevent": either
 * refreshes the links. */
enum fb_daemon_action fb_daemon_classify(const char *subsystem, const char *action,
					 const char *sysname, bool has_devnum,
					 bool load_modules);
