/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pixman through dlopen(): see pixman-backend.h. */
#include "dlopen.h"
#include "log.h"
#include "macro.h"
#include "pixman-backend.h"

#define PIXMAN_SONAME "libpixman-1.so.0"

const char fb_pixman_backend_name[] = "dlopen " PIXMAN_SONAME;
FB_DLOPEN_NOTE(pixman, "pixman", "bench's pixman fill and copy strategy", "suggested",
	       PIXMAN_SONAME);

int fb_pixman_load(__typeof__(pixman_fill) **fill, __typeof__(pixman_blt) **blt)
{
	static __typeof__(pixman_fill) *f;
	static __typeof__(pixman_blt) *b;
	static const struct fb_dlsym syms[] = { FB_DLSYM(pixman_fill, f),
						FB_DLSYM(pixman_blt, b) };
	static int state = FB_DL_UNTRIED;
	/* bench names a strategy it cannot run; the reason is a debug line */
	int r = fb_dlopen_many(&state, LOG_DEBUG, "pixman", PIXMAN_SONAME,
			       "libpixman-1-0", syms, ARRAY_SIZE(syms));

	*fill = f;
	*blt = b;
	return r;
}
