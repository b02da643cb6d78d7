/* SPDX-License-Identifier: LGPL-2.1-or-later */

#include <stdarg.h>
#include <stdio.h>

#include "log.h"

int log_max_priority = LOG_INFO;
static bool log_to_syslog;

void log_set_syslog(bool on)
{
	if (on && !log_to_syslog)
		openlog("fbclassctl", LOG_PID, LOG_DAEMON);
	log_to_syslog = on;
}

void log_msg(int prio, const char *fmt, ...)
{
	va_list ap;

	if (prio > log_max_priority)
		return;
	va_start(ap, fmt);
	if (log_to_syslog) {
		vsyslog(prio, fmt, ap);
	} else {
		fputs("fbclassctl: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}
