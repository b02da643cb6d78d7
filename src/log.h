/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <syslog.h>

#include "macro.h"

/* One helper for every message: "fbclassctl: message" on stderr (or syslog). */
extern int log_max_priority;

void log_set_syslog(bool on);
void log_msg(int prio, const char *fmt, ...) _printf_format_(2, 3);

#define ERR(...) log_msg(LOG_ERR, __VA_ARGS__)
#define WRN(...) log_msg(LOG_WARNING, __VA_ARGS__)
#define INF(...) log_msg(LOG_INFO, __VA_ARGS__)
#define DBG(...)                                         \
	do {                                             \
		if (log_max_priority >= LOG_DEBUG)       \
			log_msg(LOG_DEBUG, __VA_ARGS__); \
	} while (0)
