/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libpng linked in (the static build): the pointers of png-backend.h name the
 * real functions. */
#define FB_PNG_DL_IMPL
#include "png-backend.h"

const char fb_png_backend_name[] = "static";

#define FB_PNG_DEFINE(f) typeof(f) *fb_sym_##f = f;
FB_PNG_SYMBOLS(FB_PNG_DEFINE)
#undef FB_PNG_DEFINE

int fb_libpng_open(const char *who)
{
	return 0;
}
