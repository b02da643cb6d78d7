/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sysfs attribute parsers: numbers, virtual_size, mode and modes, and
 * the escaping applied to attribute text before it is shown. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbclass.h"
#include "strutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), back[128];
	struct fb_sysfs_mode m;
	unsigned x, y;
	size_t n;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	size_t len = strlen(text);
	if (len && text[len - 1] == '\n')
		len--;

	if (fb_parse_uint(text, &x) == 0) {
		snprintf(back, sizeof(back), "%u", x);
		if (strlen(back) != len || strncmp(back, text, len) != 0)
			__builtin_trap();
	}
	if (fb_parse_pair(text, &x, &y) == 0) {
		snprintf(back, sizeof(back), "%u,%u", x, y);
		if (strlen(back) != len || strncmp(back, text, len) != 0)
			__builtin_trap();
	}
	if (fb_parse_mode(text, &m) == 0) {
		snprintf(back, sizeof(back), "%c:%ux%u%c-%u", m.kind, m.xres, m.yres,
			 m.scan, m.refresh);
		if (strlen(back) != len || strncmp(back, text, len) != 0)
			__builtin_trap();
	}
	(void)fb_parse_modes(text, &n);

	char *e = str_escape(text, 4096);
	char *u = str_utf8_sanitize(text);
	if (u) {
		/* The result is valid UTF-8 throughout. */
		for (const unsigned char *p = (const unsigned char *)u; *p;) {
			size_t l = utf8_seq_len(p);

			if (!l)
				__builtin_trap();
			p += l;
		}
	}
	free(e);
	free(u);
	free(text);
	return 0;
}
