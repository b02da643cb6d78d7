/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libpng through dlopen(): see png-dl.h. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>

#define FB_PNG_DL_IMPL
#include "log.h"
#include "png-dl.h"

const char fb_png_backend_name[] = "dlopen " FB_LIBPNG_SONAME;

#define FB_PNG_DEFINE(f) typeof(f) *fb_sym_##f;
FB_PNG_SYMBOLS(FB_PNG_DEFINE)
#undef FB_PNG_DEFINE

int fb_libpng_open(const char *who)
{
	static int state = 1; /* 1: not tried yet */
	void *h;

	if (state <= 0)
		return state;
	h = dlopen(FB_LIBPNG_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		ERR("%s: %s not available: %s (Debian package libpng16-16)", who,
		    FB_LIBPNG_SONAME, dlerror());
		return state = -ENOENT;
	}
#define FB_PNG_RESOLVE(f)                                               \
	*(void **)&fb_sym_##f = dlsym(h, #f);                           \
	if (!fb_sym_##f) {                                              \
		ERR("%s: %s not available: symbol %s missing: %s", who, \
		    FB_LIBPNG_SONAME, #f, dlerror());                   \
		return state = -ENOENT;                                 \
	}
	FB_PNG_SYMBOLS(FB_PNG_RESOLVE)
#undef FB_PNG_RESOLVE
	return state = 0;
}
