/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "strutil.h"

char *str_escape(const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);
	bool cut = n > max;
	char *out, *o;

	if (cut)
		n = max;
	out = malloc(n * 4 + 4);
	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else if (c == '\t') {
			*o++ = '\\';
			*o++ = 't';
		} else if (c == '\\' || c == '"') {
			*o++ = '\\';
			*o++ = (char)c;
		} else if (c < 0x20 || c >= 0x7f) {
			o += sprintf(o, "\\x%02x", c);
		} else {
			*o++ = (char)c;
		}
	}
	if (cut)
		o = stpcpy(o, "...");
	*o = '\0';
	return out;
}

char *strdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

char *readlink_basename(const char *path)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	const char *base;

	if (n < 0)
		return NULL;
	buf[n] = '\0';
	base = strrchr(buf, '/');
	return strdup(base ? base + 1 : buf);
}
