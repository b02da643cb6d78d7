/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The one escaper of text from outside (sysfs, EDID, uevents, /proc, rules
 * files, file names), used where it is printed.  Valid UTF-8 stays; every
 * other byte, every control (C0, DEL and the C1 controls U+0080..U+009F,
 * which a terminal may take as CSI) becomes \n, \t or \xNN.  At most max
 * input bytes ("..." appended when cut; SIZE_MAX: all).  malloc'd or NULL. */
#define STR_ESCAPE_QUOTES  1u /* also \" and \\: a value shown in quotes */
#define STR_ESCAPE_KEEP_C0 2u /* keep C0 controls: JSON, whose writer escapes them */
#define STR_ESCAPE_KEEP_NL 4u /* keep '\n': a format that escapes it itself */
char *str_escape_flags(const char *s, size_t max, unsigned flags);
/* str_escape_flags(s, max, STR_ESCAPE_QUOTES): "29:x\n" stays readable. */
char *str_escape(const char *s, size_t max);
/* str_escape_flags(s, SIZE_MAX, 0): a line of text for a terminal. */
char *str_escape_text(const char *s);
/* fputs of str_escape_text(s): text from outside onto a terminal.  0 or
 * -errno (-ENOMEM: nothing written). */
int fputs_escaped(const char *s, FILE *f);
/* fputs_escaped, wrapped at spaces in place for a terminal width columns
 * wide: the text starts at column start, each line after the first is
 * indented by indent; a word too long for a line stays whole.  width 0
 * (not a terminal), or less than 20 columns left for the text: one line.
 * 0 or -errno. */
int fputs_escaped_wrapped(const char *s, size_t start, size_t indent, size_t width,
			  FILE *f);
/* The width of the terminal fd is (COLUMNS, else its size, else 80), as
 * libsmartcols reads it; 0 when fd is no terminal: output to a pipe or a
 * file is never cut nor wrapped. */
size_t terminal_width(int fd);
/* printf(3) of one line onto f, escaped whole by str_escape_text, then
 * '\n': for lines that quote text from outside.  0 or -errno. */
int fprint_line_escaped(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same onto stdout. */
#define print_line_escaped(...) fprint_line_escaped(stdout, __VA_ARGS__)
/* A copy of v without its trailing '\n' and '\r' (what libudev strips). */
char *fb_strip_newlines_dup(const char *v);
/* The strings up to a NULL, one after the other, into buf (size > 0;
 * always terminated, cut when too long).  Returns the whole length, as
 * snprintf does, so >= size means cut.  For the paths of the coldplug
 * path, where snprintf's format parsing was a third of the instructions
 * (bench/coldplug-vs-mdev.sh, callgrind). */
size_t str_concat(char *buf, size_t size, const char *s, ...) __attribute__((sentinel));
/* The strings up to a NULL, one after the other, in a new allocation;
 * NULL on ENOMEM.  asprintf("%s%s") without the format parsing. */
char *str_concat_dup(const char *s, ...) __attribute__((sentinel));
/* FNV-1a of s: a hash to compare before strcmp, where the same set of
 * paths is searched again and again. */
uint32_t str_hash(const char *s);
/* str_concat of one string: strlcpy(3). */
#define str_copy(buf, size, s) str_concat(buf, size, s, (const char *)NULL)
/* A whole small file, NUL-terminated, malloc'd; NULL with errno when it
 * cannot be read, is larger than max (EFBIG), or holds a NUL (EINVAL). */
char *file_read_text(const char *path, size_t max);
/* strdup that accepts NULL. */
char *strdup_or_null(const char *s);
/* Last path component of a symlink's target, or NULL. */
char *readlink_basename(const char *path);
/* str_escape_flags(s, SIZE_MAX, STR_ESCAPE_KEEP_C0): a JSON string's
 * bytes, for json-c (which escapes C0 but not DEL or C1). */
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
/* The same for option opt ("--timeout"), with every duration's one error:
 * the value and the range allowed.  0 or -EINVAL (said). */
int parse_seconds_option(const char *opt, const char *s, bool zero_ok, double *out);

/* "3.9M" in the lsblk way (powers of 1024, one decimal when useful). */
char *size_to_human(uint64_t bytes, char *buf, size_t len);

/* Append owned (taken over: freed on failure too; NULL is out of memory)
 * to a growing array of *n strings with room for *cap.  0 or -ENOMEM. */
int strv_push(char ***v, size_t *n, size_t *cap, char *owned);
/* Free n strings and the array. */
void strv_free(char **v, size_t n);
/* Is s one of the n strings of v? */
bool strv_contains(char *const *v, size_t n, const char *s);
