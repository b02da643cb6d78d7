/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "jsonc-backend.h"
#include <stdbool.h>
#include <stdint.h>

/* json-c helpers: a string that may be NULL becomes null; strings are
 * copied as bytes (made valid UTF-8) and escaped by json-c. */
void jsonout_add_string(struct json_object *o, const char *key, const char *value);
/* The same as a value of its own (an array element); NULL for NULL. */
struct json_object *jsonout_string_safe(const char *value);
void jsonout_add_uint(struct json_object *o, const char *key, uint64_t value);
void jsonout_add_bool(struct json_object *o, const char *key, bool value);
/* Print a document to stdout in the one layout of every -J: two spaces
 * a level, "key": value, [] and {} when empty, a final newline.  Our own
 * walk, so that it holds across json-c versions; json-c escapes.  0 or
 * -EIO. */
int jsonout_print(struct json_object *doc);
/* The same document on one line, as monitor prints each event:
 * {"key": value, "list": [1, 2]}.  0 or -EIO. */
int jsonout_print_line(struct json_object *doc);
