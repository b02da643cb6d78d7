/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The poll loop of the daemon and monitor. */
#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "uevent-loop.h"

/* Let the next events queue in the kernel's buffer, to be read as one
 * batch.  A signal waits too (at most ms); nothing is lost. */
static void queue_wait(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

int uevent_loop_run(const struct uevent_loop *l)
{
	for (unsigned wait_ms = 0;;) {
		struct pollfd p[2] = {
			{ .fd = l->sfd, .events = POLLIN },
			{ .fd = l->event_fd, .events = POLLIN },
		};
		struct signalfd_siginfo si;
		int n;

		if (wait_ms)
			queue_wait(wait_ms);
		wait_ms = 0;
		n = poll(p, 2, l->idle_ms ? l->idle_ms(l->data) : -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return log_errno(-errno, "poll: %m");
		}
		if (n == 0) {
			l->on_idle(l->data);
			continue;
		}
		if (p[1].revents)
			wait_ms = l->on_events(l->data);
		if (!p[0].revents || read(l->sfd, &si, sizeof(si)) != sizeof(si))
			continue;
		if (l->on_signal(l->data, &si))
			return 0;
	}
}
