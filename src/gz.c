/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A gzip'ed file read whole: see gz.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gz.h"

char *fb_gz_read_file(const char *path, size_t max)
{
	const struct fb_gz_lib *lib;
	char *buf;
	size_t n = 0;
	void *gz;
	int r = 1;

	if (access(path, R_OK) < 0)
		return NULL;
	lib = fb_gz_lib(path);
	if (!lib)
		return NULL;
	buf = malloc(max + 1);
	gz = buf ? lib->open(path, "rb") : NULL;
	if (!gz) {
		free(buf);
		return NULL;
	}
	while (n < max && (r = lib->read(gz, buf + n, (unsigned)(max - n))) > 0)
		n += (size_t)r;
	lib->close(gz);
	if (r < 0 || memchr(buf, '\0', n)) {
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}
