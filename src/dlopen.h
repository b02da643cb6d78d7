/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The one way fbclassctl dlopen()s an optional library (libkmod,
 * libsmartcols, libpng, pixman), in the manner of systemd's
 * dlopen_many_sym_or_warn(): a library is opened on first use, so that the
 * daemon and the boot-time coldplug map none of them, and every symbol is
 * resolved at once, so that a missing one is one clear message up front
 * rather than a crash later.
 */

#include <stddef.h>

/* One symbol: its name and the pointer that receives its address. */
struct fb_dlsym {
	const char *name;
	void **addr;
};
#define FB_DLSYM(sym, var)            \
	{                             \
#sym, (void **)&(var) \
	}

/* What is known of one library: start it at FB_DL_UNTRIED. */
enum fb_dl_state { FB_DL_UNTRIED = 1, FB_DL_LOADED = 0 };

/*
 * dlopen(soname) and resolve every symbol of syms, once: *state keeps the
 * outcome for later calls.  On failure the reason is said once, at
 * priority prio, as "[WHO: ]cannot load SONAME (Debian package PACKAGE):
 * REASON", and -ELIBACC is returned then and at every later call; who may
 * be NULL.  0 when every symbol was found.  The library stays loaded.
 */
int fb_dlopen_many(int *state, int prio, const char *who, const char *soname,
		   const char *package, const struct fb_dlsym *syms, size_t n);
