/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Tiny assertion helpers: print file:line and the expression, count, and
 * let main() return the verdict. Exit 77 means skipped. */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;
static int test_checks;

#define ASSERT_TRUE(expr)                                                          \
	do {                                                                       \
		test_checks++;                                                     \
		if (!(expr)) {                                                     \
			test_failures++;                                           \
			fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, \
				__LINE__, #expr);                                  \
		}                                                                  \
	} while (0)

#define ASSERT_INT_EQ(a, b)                                                          \
	do {                                                                         \
		long long _a = (long long)(a), _b = (long long)(b);                  \
		test_checks++;                                                       \
		if (_a != _b) {                                                      \
			test_failures++;                                             \
			fprintf(stderr, "%s:%d: %s == %s: %lld != %lld\n", __FILE__, \
				__LINE__, #a, #b, _a, _b);                           \
		}                                                                    \
	} while (0)

#define ASSERT_STR_EQ(a, b)                                                              \
	do {                                                                             \
		const char *_a = (a), *_b = (b);                                         \
		test_checks++;                                                           \
		if (!_a || !_b || strcmp(_a, _b) != 0) {                                 \
			test_failures++;                                                 \
			fprintf(stderr, "%s:%d: %s == %s: \"%s\" != \"%s\"\n", __FILE__, \
				__LINE__, #a, #b, _a ? _a : "(null)",                    \
				_b ? _b : "(null)");                                     \
		}                                                                        \
	} while (0)

#define ASSERT_NULL(a) ASSERT_TRUE((a) == NULL)

static inline int test_finish(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
	return test_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
