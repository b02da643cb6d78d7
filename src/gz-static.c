/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libz for src/gz.c, linked in (the static build): see gz.h. */
#include <zlib.h>

#include "gz.h"
#include "macro.h"

const char fb_gz_backend_name[] = "static";

static void *gz_open(const char *path, const char *mode)
{
	return gzopen(path, mode);
}

static int gz_read(void *gz, void *buf, unsigned len)
{
	return gzread(gz, buf, len);
}

static int gz_close(void *gz)
{
	return gzclose(gz);
}

const struct fb_gz_lib *fb_gz_lib(_unused_ const char *who)
{
	static const struct fb_gz_lib lib = { gz_open, gz_read, gz_close };

	return &lib;
}
