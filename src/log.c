/* SPDX-License-Identifier: LGPL-2.1-or-later */

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>

#include "log.h"
#include "macro.h"
#include "strutil.h"

int log_max_priority = LOG_INFO;
static bool log_to_syslog;

void log_set_syslog(bool on)
{
	if (on && !log_to_syslog)
		openlog("fbclassctl", LOG_PID, LOG_DAEMON);
	log_to_syslog = on;
}

void log_locale_init(void)
{
	static bool done;
	int saved = errno; /* the macros call this before "-errno" is read */

	if (done)
		return;
	done = true;
	/* Numbers stay "1.5" for scripts and JSON, and the other
	 * categories, which nothing here uses, are not loaded at all. */
	setlocale(LC_CTYPE, "");
	setlocale(LC_MESSAGES, "");
	errno = saved;
}

/* errno as the caller had it, for %m; stdio and syslog may change it.
 * Messages carry text from outside (sysfs, uevents, /proc, rules files,
 * file names): escaped here, where every message is printed. */
static void log_va(int prio, int errnum, const char *fmt, va_list ap)
{
	_cleanup_free_ char *raw = NULL, *msg = NULL;

	if (prio > log_max_priority)
		return;
	log_locale_init(); /* log_msg() called without the macros */
	errno = errnum;
	if (vasprintf(&raw, fmt, ap) < 0)
		raw = NULL;
	msg = raw ? str_escape_text(raw) : NULL;
	if (log_to_syslog) {
		syslog(prio, "%s", msg ? msg : "(out of memory formatting a message)");
		return;
	}
	fprintf(stderr, "fbclassctl: %s\n",
		msg ? msg : "(out of memory formatting a message)");
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
