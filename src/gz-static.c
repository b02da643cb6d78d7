/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A gzip'ed file through libz, linked in (the static build): see gz.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gz.h"
#include "macro.h"

char *fb_gz_read_file(const char *path, size_t max)
{
	char *buf = malloc(max + 1);
	size_t n = 0;
	gzFile gz;
	int r = 1;

	gz = buf ? gzopen(path, "rb") : NULL;
	if (!gz) {
		free(buf);
		return NULL;
	}
	while (n < max && (r = gzread(gz, buf + n, (unsigned)(max - n))) > 0)
		n += (size_t)r;
	gzclose(gz);
	if (r < 0 || memchr(buf, '\0', n)) {
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}
