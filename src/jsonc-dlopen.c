/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* json-c through dlopen(): see jsonc-backend.h. */
#include <stdlib.h>

#define FB_JSONC_DL_IMPL
#include "dlopen.h"
#include "jsonc-backend.h"
#include "log.h"
#include "macro.h"

const char fb_jsonc_backend_name[] = "dlopen " FB_JSONC_SONAME;
/* required, as libudev is: -J is every command's interface for scripts,
 * with no fallback (the table has the built-in printer). */
FB_DLOPEN_NOTE(jsonc, "json", "-J output of every command", "required", FB_JSONC_SONAME);

/* What dlsym() found; the public pointers take them only once all are. */
#define FB_JSONC_REAL(ret, f, params, args) static __typeof__(f) *real_##f;
FB_JSONC_SYMBOLS(FB_JSONC_REAL)
#undef FB_JSONC_REAL

int fb_jsonc_open(const char *who)
{
#define FB_JSONC_DLSYM(ret, f, params, args) FB_DLSYM(f, real_##f),
	static const struct fb_dlsym syms[] = { FB_JSONC_SYMBOLS(FB_JSONC_DLSYM) };
#undef FB_JSONC_DLSYM
	static int state = FB_DL_UNTRIED;
	int r = fb_dlopen_many(&state, LOG_ERR, who, FB_JSONC_SONAME, "libjson-c5", syms,
			       ARRAY_SIZE(syms));

	if (r < 0)
		return r;
#define FB_JSONC_TAKE(ret, f, params, args) fb_sym_##f = real_##f;
	FB_JSONC_SYMBOLS(FB_JSONC_TAKE)
#undef FB_JSONC_TAKE
	return 0;
}

/* Where every pointer starts: a json-c call that no fb_jsonc_open() came
 * before loads the library, or, when it cannot, exits as a command would
 * have (the reason said), rather than call through NULL. */
static void jsonc_need(void)
{
	if (fb_jsonc_open(NULL) < 0)
		exit(EXIT_FAILURE);
}

#define FB_JSONC_FIRST(ret, f, params, args) \
	static ret first_##f params          \
	{                                    \
		jsonc_need();                \
		return real_##f args;        \
	}                                    \
	__typeof__(f) *fb_sym_##f = first_##f;
FB_JSONC_OTHERS(FB_JSONC_FIRST)
#undef FB_JSONC_FIRST

/* json_object_put(NULL) is json-c's no-op, and cleanup calls it whether or
 * not -J made a document: without one, it loads nothing. */
static int first_json_object_put(struct json_object *o)
{
	if (!o)
		return 0;
	jsonc_need();
	return real_json_object_put(o);
}
__typeof__(json_object_put) *fb_sym_json_object_put = first_json_object_put;
