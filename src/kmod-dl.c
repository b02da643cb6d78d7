/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libkmod through dlopen(): see kmod-dl.h. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>

#define FB_KMOD_DL_IMPL
#include "kmod-dl.h"
#include "log.h"

#define FB_KMOD_DEFINE(f) typeof(f) *fb_sym_##f;
FB_KMOD_SYMBOLS(FB_KMOD_DEFINE)
#undef FB_KMOD_DEFINE

int fb_libkmod_open(void)
{
	static int state = 1; /* 1: not tried yet */
	void *h;

	if (state <= 0)
		return state;
	h = dlopen(FB_LIBKMOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		ERR("cannot load %s (Debian package libkmod2): %s", FB_LIBKMOD_SONAME,
		    dlerror());
		return state = -ENOENT;
	}
#define FB_KMOD_RESOLVE(f)                                                          \
	*(void **)&fb_sym_##f = dlsym(h, #f);                                       \
	if (!fb_sym_##f) {                                                          \
		ERR("%s: symbol %s missing: %s", FB_LIBKMOD_SONAME, #f, dlerror()); \
		return state = -ENOENT;                                             \
	}
	FB_KMOD_SYMBOLS(FB_KMOD_RESOLVE)
#undef FB_KMOD_RESOLVE
	return state = 0;
}
