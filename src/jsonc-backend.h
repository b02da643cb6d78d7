/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * json-c, opened on first use instead of linked (src/jsonc-dlopen.c), or
 * linked into the static build (src/jsonc-static.c).  Linked, it costs
 * every process ld.so's mapping and relocation of it (about 53,000
 * instructions, a fortieth of a coldplug), while only -J prints JSON.
 *
 * Every file that builds or prints JSON includes this, never
 * <json-c/json.h> itself: the json-c names below then call through
 * pointers, and call sites read as json-c's.  A command calls
 * fb_jsonc_open() as soon as it knows it prints JSON, so that a missing
 * library is one error before any work; a json-c call made before that
 * loads the library itself, or exits 1 saying why, and never calls
 * through NULL.  `nm -D --undefined-only fbclassctl` lists no json_*.
 */

#include <json-c/json.h>

#define FB_JSONC_SONAME "libjson-c.so.5"

/* "dlopen libjson-c.so.5", or "static" (src/jsonc-static.c), for --version. */
extern const char fb_jsonc_backend_name[];

/* X(return type, function, parameters, arguments) for every json-c
 * function fbclassctl calls, json_object_get_object for
 * json_object_object_foreach: json_object_put, then the others. */
#define FB_JSONC_SYMBOLS(X) \
	X(int, json_object_put, (struct json_object * o), (o)) FB_JSONC_OTHERS(X)
#define FB_JSONC_OTHERS(X)                                                               \
	X(struct json_object *, json_object_new_object, (void), ())                      \
	X(struct json_object *, json_object_new_array, (void), ())                       \
	X(struct json_object *, json_object_new_string, (const char *s), (s))            \
	X(struct json_object *, json_object_new_int, (int32_t i), (i))                   \
	X(struct json_object *, json_object_new_int64, (int64_t i), (i))                 \
	X(struct json_object *, json_object_new_uint64, (uint64_t i), (i))               \
	X(struct json_object *, json_object_new_double, (double d), (d))                 \
	X(struct json_object *, json_object_new_boolean, (json_bool b), (b))             \
	X(int, json_object_object_add,                                                   \
	  (struct json_object * o, const char *key, struct json_object *v), (o, key, v)) \
	X(int, json_object_object_length, (const struct json_object *o), (o))            \
	X(struct lh_table *, json_object_get_object, (const struct json_object *o), (o)) \
	X(int, json_object_array_add, (struct json_object * o, struct json_object * v),  \
	  (o, v))                                                                        \
	X(size_t, json_object_array_length, (const struct json_object *o), (o))          \
	X(struct json_object *, json_object_array_get_idx,                               \
	  (const struct json_object *o, size_t i), (o, i))                               \
	X(int, json_object_is_type, (const struct json_object *o, enum json_type t),     \
	  (o, t))                                                                        \
	X(const char *, json_object_to_json_string_ext, (struct json_object * o, int f), \
	  (o, f))

#define FB_JSONC_DECLARE(ret, f, params, args) extern __typeof__(f) *fb_sym_##f;
FB_JSONC_SYMBOLS(FB_JSONC_DECLARE)
#undef FB_JSONC_DECLARE

#ifndef FB_JSONC_DL_IMPL
#define json_object_new_object	       fb_sym_json_object_new_object
#define json_object_new_array	       fb_sym_json_object_new_array
#define json_object_new_string	       fb_sym_json_object_new_string
#define json_object_new_int	       fb_sym_json_object_new_int
#define json_object_new_int64	       fb_sym_json_object_new_int64
#define json_object_new_uint64	       fb_sym_json_object_new_uint64
#define json_object_new_double	       fb_sym_json_object_new_double
#define json_object_new_boolean	       fb_sym_json_object_new_boolean
#define json_object_object_add	       fb_sym_json_object_object_add
#define json_object_object_length      fb_sym_json_object_object_length
#define json_object_get_object	       fb_sym_json_object_get_object
#define json_object_array_add	       fb_sym_json_object_array_add
#define json_object_array_length       fb_sym_json_object_array_length
#define json_object_array_get_idx      fb_sym_json_object_array_get_idx
#define json_object_put		       fb_sym_json_object_put
#define json_object_is_type	       fb_sym_json_object_is_type
#define json_object_to_json_string_ext fb_sym_json_object_to_json_string_ext
#endif

/* 0 when json-c is usable; else -ELIBACC, said once at error level as
 * "WHO: cannot load libjson-c.so.5 (Debian package libjson-c5): REASON"
 * (src/dlopen.h), and every later call returns it again at once. */
int fb_jsonc_open(const char *who);
