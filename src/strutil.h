/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* C-style escaped copy for messages: "29:x\n" stays readable; quotes and
 * backslashes are escaped, controls and bytes that are not valid UTF-8
 * become \n, \t, \xNN; valid UTF-8 stays.  Truncated to at most max input
 * bytes ("..." appended).  Returns a malloc'd string or NULL. */
char *str_escape(const char *s, size_t max);
/* strdup that accepts NULL. */
char *strdup_or_null(const char *s);
/* Last path component of a symlink's target, or NULL. */
char *readlink_basename(const char *path);
/* Valid UTF-8 for JSON: each byte that is not part of a valid sequence
 * becomes the text \xNN; everything else, controls included, is kept (the
 * JSON writer escapes those).  malloc'd, or NULL. */
char *str_utf8_sanitize(const char *s);
/* Length of the valid UTF-8 sequence at s, or 0. */
size_t utf8_seq_len(const unsigned char *s);
