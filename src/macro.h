/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#define _printf_format_(a, b) __attribute__((format(printf, a, b)))
#define _must_check_	      __attribute__((warn_unused_result))
#define _unused_	      __attribute__((unused))
#define _cleanup_(x)	      __attribute__((cleanup(x)))

#define MIN(a, b)     ((a) < (b) ? (a) : (b))
#define MAX(a, b)     ((a) > (b) ? (a) : (b))
#define MAX3(a, b, c) MAX(MAX(a, b), c)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Hand over what p points to and forget it: `*out = TAKE_PTR(buf);`. */
#define TAKE_PTR(p)                     \
	({                              \
		typeof(p) _taken = (p); \
		(p) = NULL;             \
		_taken;                 \
	})

static inline void freep(void *p)
{
	free(*(void **)p);
}
#define _cleanup_free_ _cleanup_(freep)

/* "Hold nothing": an fd lives exactly as long as the block that opened it. */
static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}
#define _cleanup_close_ _cleanup_(closep)

static inline bool streq_ptr(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return __builtin_strcmp(a, b) == 0;
}
