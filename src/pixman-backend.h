/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * pixman for bench: dlopen()ed on first use (src/pixman-dlopen.c; the daemon
 * and coldplug never draw with it, and linked in, its start-up tables
 * cost ~470 kB resident in every process), or linked into the static
 * build (src/pixman-static.c).
 */

#include <pixman.h>
#include <stdbool.h>

/* "dlopen" or "static", for fbclassctl --version. */
extern const char fb_pixman_backend_name[];

/* The two functions bench uses: 0, or -ELIBACC when pixman is not
 * available (src/dlopen.h; said at debug level). */
int fb_pixman_load(__typeof__(pixman_fill) **fill, __typeof__(pixman_blt) **blt);
