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

/* A scalar, or a key made a string, as json-c writes it (its escaping). */
static void put_scalar(struct json_object *v, FILE *out)
{
	fputs(v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
							    JSON_C_TO_STRING_NOSLASHESCAPE)
		: "null",
	      out);
}

static void put_key(const char *key, FILE *out)
{
	struct json_object *k = json_object_new_string(key);

	put_scalar(k, out);
	fputs(": ", out);
	json_object_put(k);
}

/* One value at nesting depth; depth < 0: all on one line. */
static void put_value(struct json_object *v, int depth, FILE *out);

/* Between members: a new line, indented; on one line, a space. */
static void put_break(bool first, int depth, FILE *out)
{
	if (!first)
		fputc(',', out);
	if (depth < 0) {
		if (!first)
			fputc(' ', out);
		return;
	}
	fputc('\n', out);
	for (int i = 0; i < depth; i++)
		fputs("  ", out);
}

static void put_container(struct json_object *v, int depth, FILE *out)
{
	bool obj = json_object_is_type(v, json_type_object);
	size_t n =
		obj ? (size_t)json_object_object_length(v) : json_object_array_length(v);
	int inner = depth < 0 ? depth : depth + 1;
	size_t i = 0;

	fputc(obj ? '{' : '[', out);
	if (obj) {
		json_object_object_foreach(v, key, val)
		{
			put_break(i++ == 0, inner, out);
			put_key(key, out);
			put_value(val, inner, out);
		}
	} else
		for (i = 0; i < n; i++) {
			put_break(i == 0, inner, out);
			put_value(json_object_array_get_idx(v, i), inner, out);
		}
	if (n && depth >= 0)
		put_break(true, depth, out);
	fputc(obj ? '}' : ']', out);
}

static void put_value(struct json_object *v, int depth, FILE *out)
{
	if (json_object_is_type(v, json_type_object) ||
	    json_object_is_type(v, json_type_array))
		put_container(v, depth, out);
	else
		put_scalar(v, out);
}

static int print_doc(struct json_object *doc, int depth)
{
	put_value(doc, depth, stdout);
	if (fputc('\n', stdout) == EOF || ferror(stdout))
		return -EIO;
	return 0;
}

int jsonout_print(struct json_object *doc)
{
	return print_doc(doc, 0);
}

int jsonout_print_line(struct json_object *doc)
{
	return print_doc(doc, -1);
}
