/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libpng through dlopen(): see png-backend.h. */
#define FB_PNG_DL_IMPL
#include "dlopen.h"
#include "log.h"
#include "macro.h"
#include "png-backend.h"

const char fb_png_backend_name[] = "dlopen " FB_LIBPNG_SONAME;
FB_DLOPEN_NOTE(png, "png", "snap and bench --snap write PNG files", "recommended",
	       FB_LIBPNG_SONAME);

#define FB_PNG_DEFINE(f) typeof(f) *fb_sym_##f;
FB_PNG_SYMBOLS(FB_PNG_DEFINE)
#undef FB_PNG_DEFINE

int fb_libpng_open(const char *who)
{
#define FB_PNG_DLSYM(f) FB_DLSYM(f, fb_sym_##f),
	static const struct fb_dlsym syms[] = { FB_PNG_SYMBOLS(FB_PNG_DLSYM) };
#undef FB_PNG_DLSYM
	static int state = FB_DL_UNTRIED;

	return fb_dlopen_many(&state, LOG_ERR, who, FB_LIBPNG_SONAME, "libpng16-16", syms,
			      ARRAY_SIZE(syms));
}
