/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once
/* Tiny assertions for the node-manager tests: file:line and the expression. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

#define CHECK(expr)                                                                      \
	do {                                                                             \
		if (!(expr)) {                                                           \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, \
				#expr);                                                  \
			check_failures++;                                                \
		}                                                                        \
	} while (0)

#define CHECK_STREQ(a, b)                                                             \
	do {                                                                          \
		const char *_a = (a), *_b = (b);                                      \
		if (!_a || !_b || strcmp(_a, _b) != 0) {                              \
			fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", \
				__FILE__, __LINE__, #a, #b, _a ? _a : "(null)",       \
				_b ? _b : "(null)");                                  \
			check_failures++;                                             \
		}                                                                     \
	} while (0)

#define CHECK_INTEQ(a, b)                                                         \
	do {                                                                      \
		long long _a = (long long)(a), _b = (long long)(b);               \
		if (_a != _b) {                                                   \
			fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", \
				__FILE__, __LINE__, #a, #b, _a, _b);              \
			check_failures++;                                         \
		}                                                                 \
	} while (0)

#define CHECK_EXIT() return check_failures ? EXIT_FAILURE : EXIT_SUCCESS
