/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A gzip'ed file through libz, dlopen()ed: see gz.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlopen.h"
#include "gz.h"
#include "log.h"
#include "macro.h"

FB_DLOPEN_NOTE(zlib, "zlib", "doctor reads the kernel configuration from /proc/config.gz",
	       "suggested", "libz.so.1");

char *fb_gz_read_file(const char *path, size_t max)
{
	static void *(*gz_open)(const char *, const char *);
	static int (*gz_read)(void *, void *, unsigned);
	static int (*gz_close)(void *);
	static const struct fb_dlsym syms[] = { FB_DLSYM(gzopen, gz_open),
						FB_DLSYM(gzread, gz_read),
						FB_DLSYM(gzclose, gz_close) };
	static int state = FB_DL_UNTRIED;
	char *buf = NULL;
	size_t n = 0;
	void *gz;
	int r = 1;

	if (access(path, R_OK) < 0)
		return NULL;
	if (fb_dlopen_many(&state, LOG_WARNING, path, "libz.so.1", "zlib1g", syms,
			   ARRAY_SIZE(syms)) < 0) {
		errno = ELIBACC;
		return NULL;
	}
	buf = malloc(max + 1);
	gz = buf ? gz_open(path, "rb") : NULL;
	if (!gz) {
		free(buf);
		return NULL;
	}
	while (n < max && (r = gz_read(gz, buf + n, (unsigned)(max - n))) > 0)
		n += (size_t)r;
	gz_close(gz);
	if (r < 0 || memchr(buf, '\0', n)) {
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}
