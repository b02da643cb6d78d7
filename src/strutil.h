/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

/* C-style escaped copy for messages: "29:x\n" stays readable, control and
 * non-ASCII bytes become \n, \t, \xNN.  Truncated to at most max input
 * bytes ("..." appended).  Returns a malloc'd string or NULL. */
char *str_escape(const char *s, size_t max);
/* strdup that accepts NULL. */
char *strdup_or_null(const char *s);
/* Last path component of a symlink's target, or NULL. */
char *readlink_basename(const char *path);
