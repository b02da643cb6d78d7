/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* json-c helpers every -J output uses: see jsonout.h. */
#include <errno.h>
#include <stdio.h>

#include "jsonout.h"
#include "macro.h"
#include "strutil.h"

struct json_object *jsonout_string_safe(const char *value)
{
	_cleanup_free_ char *safe = value ? str_utf8_sanitize(value) : NULL;

	return safe ? json_object_new_string(safe) : NULL;
}

void jsonout_add_string(struct json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key, jsonout_string_safe(value));
}

void jsonout_add_uint(struct json_object *o, const char *key, uint64_t value)
{
	json_object_object_add(o, key, json_object_new_uint64(value));
}

void jsonout_add_bool(struct json_object *o, const char *key, bool value)
{
	json_object_object_add(o, key, json_object_new_boolean(value));
}

int jsonout_print(struct json_object *doc)
{
	const char *s =
		json_object_to_json_string_ext(doc,
					       JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!s)
		return -ENOMEM;
	if (fputs(s, stdout) == EOF || fputc('\n', stdout) == EOF)
		return -EIO;
	return 0;
}
