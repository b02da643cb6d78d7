/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The one poll loop over {signalfd, uevent monitor} that the daemon and
 * monitor run, mdevd's shape: queued events first, then a signal.  What
 * an event or a signal means is the caller's, through the callbacks.
 */

#include <stdbool.h>
#include <sys/signalfd.h>

struct uevent_loop {
	int sfd; /* from fb_signals_open() */
	int event_fd; /* fb_monitor_fd() of the uevent monitor */
	/* Events are queued on event_fd: read them.  Returns how long (ms)
	 * to let more queue before the next poll; 0: poll at once. */
	unsigned (*on_events)(void *data);
	/* A signal read from sfd: true ends the loop. */
	bool (*on_signal)(void *data, const struct signalfd_siginfo *si);
	/* NULL, or how long (ms) the next poll waits before on_idle is
	 * called; -1: no limit. */
	int (*idle_ms)(void *data);
	void (*on_idle)(void *data);
	void *data;
};

/* Poll until on_signal says to end (0), or poll fails (-errno,
 * reported). */
int uevent_loop_run(const struct uevent_loop *l);
