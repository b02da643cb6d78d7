/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* json-c linked in (the static build): the pointers of jsonc-backend.h name
 * the real functions. */
#define FB_JSONC_DL_IMPL
#include "jsonc-backend.h"

const char fb_jsonc_backend_name[] = "static";

#define FB_JSONC_DEFINE(ret, f, params, args) __typeof__(f) *fb_sym_##f = f;
FB_JSONC_SYMBOLS(FB_JSONC_DEFINE)
#undef FB_JSONC_DEFINE

int fb_jsonc_open(const char *who)
{
	return 0;
}
