/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * A gzip'ed file read whole (/proc/config.gz): through libz dlopen()ed on
 * first use (src/gz-dlopen.c; only doctor reads one, and only where /boot
 * has no configuration), or linked into the static build (src/gz-static.c,
 * where libpng brings it anyway).
 */

#include <stddef.h>

/* The file's uncompressed text, NUL-terminated: malloc'd, or NULL when it
 * cannot be read, holds a NUL, or is larger than max (errno tells). */
char *fb_gz_read_file(const char *path, size_t max);
