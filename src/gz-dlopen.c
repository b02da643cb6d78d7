/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libz for src/gz.c, dlopen()ed: see gz.h. */
#include <errno.h>

#include "dlopen.h"
#include "gz.h"
#include "log.h"
#include "macro.h"

#define ZLIB_SONAME "libz.so.1"

const char fb_gz_backend_name[] = "dlopen " ZLIB_SONAME;
FB_DLOPEN_NOTE(zlib, "zlib", "doctor reads the kernel configuration from /proc/config.gz",
	       "suggested", ZLIB_SONAME);

const struct fb_gz_lib *fb_gz_lib(const char *who)
{
	static struct fb_gz_lib lib;
	static const struct fb_dlsym syms[] = { FB_DLSYM(gzopen, lib.open),
						FB_DLSYM(gzread, lib.read),
						FB_DLSYM(gzclose, lib.close) };
	static int state = FB_DL_UNTRIED;

	if (fb_dlopen_many(&state, LOG_WARNING, who, ZLIB_SONAME, "zlib1g", syms,
			   ARRAY_SIZE(syms)) < 0) {
		errno = ELIBACC;
		return NULL;
	}
	return &lib;
}
