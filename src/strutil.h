/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* C-style escaped copy for messages: "29:x\n" stays readable; quotes and
 * backslashes are escaped, controls and bytes that are not valid UTF-8
 * become \n, \t, \xNN; valid UTF-8 stays.  Truncated to at most max input
 * bytes ("..." appended).  Returns a malloc'd string or NULL. */
char *str_escape(const char *s, size_t max);
/* A copy of v without its trailing '\n' and '\r' (what libudev strips). */
char *fb_strip_newlines_dup(const char *v);
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

/* ---- the strict number parsers: every number fbclassctl reads ---- */

/* Decimal digits only: no sign, no space, no leading zero ("0" itself is
 * fine), at most max.  *end (when not NULL) points after the digits.
 * 0, -EINVAL (not a number) or -ERANGE (above max). */
int parse_decimal_prefix(const char *s, unsigned long long max, unsigned long long *out,
			 const char **end);
/* The same, with nothing after the digits. */
int parse_decimal(const char *s, unsigned long long max, unsigned long long *out);
/* Strict fd number (--ready-fd): decimal, 0..INT_MAX.  0 or -EINVAL. */
int parse_fd(const char *s, int *fd);
/* A number of seconds for an option, as strtod(3) reads it: finite, at
 * most 3600, and above 0 unless zero_ok.  0 or -EINVAL. */
int parse_seconds(const char *s, bool zero_ok, double *out);

/* "3.9M" in the lsblk way (powers of 1024, one decimal when useful). */
char *size_to_human(uint64_t bytes, char *buf, size_t len);

/* Append owned (taken over: freed on failure too; NULL is out of memory)
 * to a growing array of *n strings with room for *cap.  0 or -ENOMEM. */
int strv_push(char ***v, size_t *n, size_t *cap, char *owned);
/* Free n strings and the array. */
void strv_free(char **v, size_t n);
/* Is s one of the n strings of v? */
bool strv_contains(char *const *v, size_t n, const char *s);
