/* SPDX-License-Identifier: LGPL-2.1-or-later */

#include <errno.h>
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

/* errno as the caller had it, for %m; stdio and syslog may change it. */
static void log_va(int prio, int errnum, const char *fmt, va_list ap)
{
	if (prio > log_max_priority)
		return;
	errno = errnum;
	if (log_to_syslog) {
		vsyslog(prio, fmt, ap);
		return;
	}
	fputs("fbclassctl: ", stderr);
	errno = errnum;
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_msg(int prio, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	log_va(prio, saved, fmt, ap);
	va_end(ap);
	errno = saved;
}

int log_msg_errno(int prio, int r, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	log_va(prio, r < 0 ? -r : r, fmt, ap);
	va_end(ap);
	errno = saved;
	return r;
}
