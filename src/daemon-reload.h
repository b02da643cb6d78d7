/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Reloading the daemon so that the asker knows when it is done.
 *
 * systemd 253 and later (Type=notify-reload) send SIGHUP and wait for
 * RELOADING=1 with MONOTONIC_USEC=, then READY=1: the daemon sends both
 * (fb_reload_notify_start/done).  systemd 252 (Debian 12) knows no
 * notify-reload: its reload is over when ExecReload= exits, and a minimal
 * Debian has no /bin/kill.  There ExecReload= is "fbclassctl daemon
 * --reload $MAINPID": fb_reload_request() queues FB_RELOAD_SIGNAL to the
 * daemon and waits until the daemon queues it back (fb_reload_answer),
 * once the rules are read and the coldplug has run.  A real-time signal is
 * queued, never merged with a SIGHUP already pending.
 */

#include <signal.h>
#include <stdbool.h>
#include <sys/signalfd.h>
#include <sys/types.h>

#define FB_RELOAD_SIGNAL (SIGRTMIN + 1)
/* How long --reload waits for the daemon at most. */
#define FB_RELOAD_TIMEOUT_MS 120000

/* RELOADING=1 and MONOTONIC_USEC=now to NOTIFY_SOCKET (when set).  0 or
 * -errno (reported). */
int fb_reload_notify_start(void);
/* READY=1: the reload is done. */
int fb_reload_notify_done(void);

/* Is si a reload asked by fb_reload_request()?  (Then answer it.) */
bool fb_reload_is_request(const struct signalfd_siginfo *si);
/* Tell the asker of si that the reload is done.  Failures are reported;
 * the asker then times out. */
void fb_reload_answer(const struct signalfd_siginfo *si);

/* Ask daemon pid to reload and wait until it has: 0, or -errno (reported:
 * no such process, not allowed, it exited, or no answer within
 * FB_RELOAD_TIMEOUT_MS: -ETIMEDOUT). */
int fb_reload_request(pid_t pid);
