/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The escaper every printed text from outside goes through.  Oracles: what
 * it writes is valid UTF-8 with no control (C0 only with KEEP_C0, for the
 * JSON writer; never DEL or U+0080..U+009F), never longer than 4 bytes per
 * input byte and "...", and with QUOTES it reads back as the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strutil.h"

static void check_safe(const char *out, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)out;

	while (*p) {
		size_t len = utf8_seq_len(p);

		if (len == 0 || *p == 0x7f ||
		    (*p < 0x20 && !(flags & STR_ESCAPE_KEEP_C0)) ||
		    (len == 2 && p[0] == 0xc2 && p[1] <= 0x9f))
			__builtin_trap();
		p += len;
	}
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* str_escape's output read back; NULL when it is not what str_escape writes. */
static char *unescape(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s != '\\') {
			*o++ = *s;
			continue;
		}
		s++;
		if (*s == 'n' || *s == 't')
			*o++ = *s == 'n' ? '\n' : '\t';
		else if (*s == '\\' || *s == '"')
			*o++ = *s;
		else if (*s == 'x' && hex(s[1]) >= 0 && hex(s[2]) >= 0)
			*o++ = (char)(hex(s[1]) << 4 | hex(s[2])), s += 2;
		else
			__builtin_trap();
	}
	*o = '\0';
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned all_flags[] = { 0, STR_ESCAPE_QUOTES, STR_ESCAPE_KEEP_C0 };
	char *text;
	size_t max;

	if (size < 1)
		return 0;
	max = data[0] == 0xff ? SIZE_MAX : data[0];
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	for (size_t i = 0; i < sizeof(all_flags) / sizeof(all_flags[0]); i++) {
		char *out = str_escape_flags(text, max, all_flags[i]);
		size_t n = strnlen(text, max);

		if (!out)
			continue;
		check_safe(out, all_flags[i]);
		if (strlen(out) > n * 4 + 3)
			__builtin_trap();
		if (all_flags[i] == STR_ESCAPE_QUOTES && strlen(text) <= max) {
			char *back = unescape(out);

			if (back && strcmp(back, text) != 0)
				__builtin_trap();
			free(back);
		}
		free(out);
	}
	free(text);
	return 0;
}
