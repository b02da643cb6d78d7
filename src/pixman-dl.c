/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pixman through dlopen(): see pixman-backend.h. */
#include "config.h"

#include <dlfcn.h>

#include "pixman-backend.h"

const char fb_pixman_backend_name[] = "dlopen";

bool fb_pixman_load(__typeof__(pixman_fill) **fill, __typeof__(pixman_blt) **blt)
{
	static __typeof__(pixman_fill) *f;
	static __typeof__(pixman_blt) *b;
	static bool tried;
	void *h;

	if (!tried) {
		tried = true;
		h = dlopen("libpixman-1.so.0", RTLD_NOW | RTLD_LOCAL);
		if (h) {
			*(void **)&f = dlsym(h, "pixman_fill");
			*(void **)&b = dlsym(h, "pixman_blt");
		}
	}
	*fill = f;
	*blt = b;
	return f && b;
}
