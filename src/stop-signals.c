/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The signals a command catches to put things back: see stop-signals.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>

#include "log.h"
#include "macro.h"
#include "stop-signals.h"

volatile sig_atomic_t fb_stop_signal;

static const int stop_signals[FB_STOP_SIGNALS_MAX] = {
	SIGHUP,	 SIGINT,  SIGQUIT, SIGTERM, SIGPIPE,   SIGALRM,
	SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
};
static struct sigaction saved[FB_STOP_SIGNALS_MAX];
static bool caught[FB_STOP_SIGNALS_MAX];

static void on_stop(int sig)
{
	fb_stop_signal = sig;
}

void fb_stop_signals_catch(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	fb_stop_signal = 0;
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		caught[i] = false;
		/* nohup's SIGHUP stays ignored.  A shell ignores INT and QUIT
		 * for a job it starts with &, but only so that the terminal's
		 * ^C does not reach it: a script's kill -INT must still stop
		 * bench with the screen put back. */
		if (sigaction(stop_signals[i], NULL, &saved[i]) < 0 ||
		    (stop_signals[i] == SIGHUP && saved[i].sa_handler == SIG_IGN))
			continue;
		caught[i] = sigaction(stop_signals[i], &sa, NULL) == 0;
	}
}

void fb_stop_signals_restore(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (caught[i])
			sigaction(stop_signals[i], &saved[i], NULL);
}

const char *fb_signal_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

int fb_signals_open(const int *sigs, size_t n)
{
	sigset_t mask;
	int fd;

	sigemptyset(&mask);
	for (size_t i = 0; i < n; i++)
		sigaddset(&mask, sigs[i]);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return log_errno(-errno, "cannot set up signal handling: %m");
	fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		return log_errno(-errno, "cannot set up signal handling: %m");
	return fd;
}
