/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * A gzip'ed file read whole (/proc/config.gz), in src/gz.c, through libz:
 * dlopen()ed on first use (src/gz-dlopen.c; only doctor reads one, and
 * only where /boot has no configuration), or linked into the static build
 * (src/gz-static.c, where libpng brings it anyway).
 */

#include <stddef.h>

/* The file's uncompressed text, NUL-terminated: malloc'd, or NULL when it
 * cannot be read, holds a NUL, or is larger than max (errno tells). */
char *fb_gz_read_file(const char *path, size_t max);

/* What a backend gives src/gz.c: libz's gzopen, gzread and gzclose. */
struct fb_gz_lib {
	void *(*open)(const char *path, const char *mode);
	int (*read)(void *gz, void *buf, unsigned len);
	int (*close)(void *gz);
};
/* libz, or NULL with errno ELIBACC when it cannot be loaded (said once,
 * naming who wanted it). */
const struct fb_gz_lib *fb_gz_lib(const char *who);
/* How this build reads it, for --version: "dlopen libz.so.1" or "static". */
extern const char fb_gz_backend_name[];
