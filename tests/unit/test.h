/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The one dialect of the C tests, after systemd's tests: each ASSERT_*
 * prints file:line and the expression when it fails, counts, and goes on;
 * main() ends with `return test_finish("name")`, which fails a test that
 * checked nothing.  test_skip() is exit status 77 (SKIP) on a user's
 * machine and a failure under CI=true, as the shell tiers' skip() is.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;
static int test_checks;

#define TEST_FAIL_AT(...)                                               \
	do {                                                            \
		test_failures++;                                        \
		fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);         \
		fprintf(stderr, __VA_ARGS__);                           \
		fputc('\n', stderr);                                    \
		if (test_failures >= 100) {                             \
			fputs("too many failures; stopping\n", stderr); \
			exit(EXIT_FAILURE);                             \
		}                                                       \
	} while (0)

#define ASSERT_TRUE(expr)                                            \
	do {                                                         \
		test_checks++;                                       \
		if (!(expr))                                         \
			TEST_FAIL_AT("assertion failed: %s", #expr); \
	} while (0)

/* ASSERT_TRUE with what was being checked: ASSERT_MSG(ok, "fill %u bpp", bpp). */
#define ASSERT_MSG(expr, ...)                                                       \
	do {                                                                        \
		test_checks++;                                                      \
		if (!(expr)) {                                                      \
			char test_msg_[4096];                                       \
			snprintf(test_msg_, sizeof(test_msg_), __VA_ARGS__);        \
			TEST_FAIL_AT("assertion failed: %s: %s", #expr, test_msg_); \
		}                                                                   \
	} while (0)

#define ASSERT_INT_EQ(a, b)                                                     \
	do {                                                                    \
		long long _a = (long long)(a), _b = (long long)(b);             \
		test_checks++;                                                  \
		if (_a != _b)                                                   \
			TEST_FAIL_AT("%s == %s: %lld != %lld", #a, #b, _a, _b); \
	} while (0)

#define ASSERT_STR_EQ(a, b)                                                   \
	do {                                                                  \
		const char *_a = (a), *_b = (b);                              \
		test_checks++;                                                \
		if (!_a || !_b || strcmp(_a, _b) != 0)                        \
			TEST_FAIL_AT("%s == %s: \"%s\" != \"%s\"", #a, #b,    \
				     _a ? _a : "(null)", _b ? _b : "(null)"); \
	} while (0)

#define ASSERT_NULL(a) ASSERT_TRUE((a) == NULL)

/* The verdict: failure when an assertion failed or none ran. */
static inline int test_finish(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
	if (test_checks == 0) {
		fprintf(stderr,
			"%s: no check ran: a test that checks nothing cannot pass\n",
			name);
		return EXIT_FAILURE;
	}
	return test_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* `return test_skip("why", ...)` from main: 77 (SKIP), or under CI=true
 * a failure, because there a test that cannot run is a broken machine. */
static inline int test_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int test_skip(const char *fmt, ...)
{
	const char *ci = getenv("CI");
	bool fail = ci && strcmp(ci, "true") == 0;
	va_list ap;

	fputs(fail ? "FAIL (CI=true, a skip is a failure): " : "SKIP: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return fail ? EXIT_FAILURE : 77;
}
