/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The signals that would end the process by default, caught for the time
 * a command has something to put back (bench: the screen, mode, colour map
 * and VT mode; snap: a half-written file).  The handler only records the
 * signal; the command's loops look at fb_stop_signal, put things back, and
 * exit 128 + N, as a shell would report the death.
 */

#include <signal.h>
#include <stddef.h>

/* HUP, INT, QUIT, TERM, PIPE, ALRM, USR1, USR2, XCPU, XFSZ, VTALRM, PROF */
#define FB_STOP_SIGNALS_MAX 12

/* The signal that arrived, 0 while none did. */
extern volatile sig_atomic_t fb_stop_signal;

/* Catch them (and clear fb_stop_signal); SIGHUP ignored on entry (nohup)
 * stays ignored. */
void fb_stop_signals_catch(void);
/* Put back what was there before. */
void fb_stop_signals_restore(void);
/* "SIGHUP"; "signal N" for one without a name.  Writes into buf. */
const char *fb_signal_name(int sig, char *buf, size_t len);

/* For a poll loop (the daemon, monitor): block sigs and return a
 * signalfd for them, or -errno (reported). */
int fb_signals_open(const int *sigs, size_t n);
