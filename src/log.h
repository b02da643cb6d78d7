/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <syslog.h>

#include "macro.h"

/* One helper for every message: "fbclassctl: message" on stderr (or syslog).
 * Logging never changes errno. */
extern int log_max_priority;

void log_set_syslog(bool on);
/* The user's LC_CTYPE (widths in tables) and LC_MESSAGES (strerror's and
 * getopt's words), loaded once; a no-op after the first call.  main()
 * loads them before any command but coldplug, which at boot prints
 * nothing at all and should not pay for them: the macros below load them
 * before a message that will be printed, ahead of its arguments, so that
 * a strerror() among them is in the user's language too. */
void log_locale_init(void);
#define log_prepare(prio) ((prio) <= log_max_priority ? log_locale_init() : (void)0)
void log_msg(int prio, const char *fmt, ...) _printf_format_(2, 3);
/* Log with errno set to -r, so that %m names the cause r carries, and
 * return r (a -errno): `return log_errno(r, "%s: cannot open: %m", path);` */
int log_msg_errno(int prio, int r, const char *fmt, ...) _printf_format_(3, 4);

#define ERR(...) (log_prepare(LOG_ERR), log_msg(LOG_ERR, __VA_ARGS__))
#define WRN(...) (log_prepare(LOG_WARNING), log_msg(LOG_WARNING, __VA_ARGS__))
#define INF(...) (log_prepare(LOG_INFO), log_msg(LOG_INFO, __VA_ARGS__))
#define DBG(...)                                         \
	do {                                             \
		if (log_max_priority >= LOG_DEBUG) {     \
			log_locale_init();               \
			log_msg(LOG_DEBUG, __VA_ARGS__); \
		}                                        \
	} while (0)
#define log_errno(r, ...) (log_prepare(LOG_ERR), log_msg_errno(LOG_ERR, (r), __VA_ARGS__))
#define log_warn_errno(r, ...) \
	(log_prepare(LOG_WARNING), log_msg_errno(LOG_WARNING, (r), __VA_ARGS__))
