/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * pattern's procedure on a real framebuffer, under bench's rules: open and
 * map it as bench does, save the screen, mode and colour map
 * (fb_bench_save), put the console in graphics mode, draw the pattern (and
 * for pseudocolor its colour map), wait, and put everything back
 * (fb_bench_restore) on every path a restore can take.
 */

#include <stdbool.h>

#include "fbclass.h"
#include "pattern.h"

struct fb_pattern_show_opts {
	double seconds; /* < 0: no time limit */
	bool keep; /* leave the pattern (and the console in graphics mode) */
	bool key; /* stdin is a terminal: a key ends the wait */
	/* Called once the pattern is on the screen (what is shown, until
	 * what), before the wait; NULL: nothing. */
	void (*shown)(void *arg, const char *name, const char *format, unsigned width,
		      unsigned height, unsigned stride);
	void *shown_arg;
};

/*
 * Show p on fbdev (node under devdir) until a key, opts->seconds or a stop
 * signal.  p->text is set for FB_PATTERN_TEXT (name, format, mode, stride)
 * and points into static storage.  Returns 0; -EINTR when a stop signal
 * ended it (fb_stop_signal says which; the screen is put back first);
 * -ENODEV when the device went away (said, nothing to put back);
 * -EOPNOTSUPP for a format no pattern can be drawn in; another -errno.
 * Every error is reported.
 */
int fb_pattern_show(const struct fb_device *fbdev, const char *devdir,
		    struct fb_pattern *p, const struct fb_pattern_show_opts *opts);
