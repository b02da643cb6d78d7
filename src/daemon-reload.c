/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reloading the daemon, the asker told when it is done: see
 * daemon-reload.h. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "daemon-reload.h"
#include "daemon.h"
#include "log.h"
#include "macro.h"

static unsigned long long monotonic_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000ULL +
	       (unsigned long long)ts.tv_nsec / 1000;
}

int fb_reload_notify_start(void)
{
	char state[64];

	/* systemd 253+ takes the reload as ours only when this time is
	 * after its SIGHUP. */
	snprintf(state, sizeof(state), "RELOADING=1\nMONOTONIC_USEC=%llu",
		 monotonic_usec());
	return fb_notify(state);
}

int fb_reload_notify_done(void)
{
	return fb_notify("READY=1");
}

bool fb_reload_is_request(const struct signalfd_siginfo *si)
{
	return (int)si->ssi_signo == FB_RELOAD_SIGNAL && si->ssi_code == SI_QUEUE &&
	       si->ssi_pid > 0;
}

void fb_reload_answer(const struct signalfd_siginfo *si)
{
	if (sigqueue((pid_t)si->ssi_pid, FB_RELOAD_SIGNAL,
		     (union sigval){ .sival_int = 0 }) < 0)
		log_warn_errno(
			-errno,
			"reload asked by pid %u: cannot tell it the reload is done: %m",
			si->ssi_pid);
}

/* Wait for pid's answer on sfd, or its exit on pidfd (-1: not known). */
static int reload_wait(pid_t pid, int sfd, int pidfd)
{
	unsigned long long deadline = monotonic_usec() + FB_RELOAD_TIMEOUT_MS * 1000ULL;

	for (;;) {
		struct pollfd p[2] = { { .fd = sfd, .events = POLLIN },
				       { .fd = pidfd, .events = POLLIN } };
		unsigned long long now = monotonic_usec();
		struct signalfd_siginfo si;
		int n;

		if (now >= deadline)
			return log_errno(
				-ETIMEDOUT,
				"--reload %d: no answer within %u s: %m (is it fbclassctl daemon?)",
				(int)pid, FB_RELOAD_TIMEOUT_MS / 1000);
		n = poll(p, pidfd >= 0 ? 2 : 1, (int)((deadline - now + 999) / 1000));
		if (n < 0 && errno != EINTR)
			return log_errno(-errno, "--reload %d: poll: %m", (int)pid);
		/* The answer first: the daemon may answer, then exit. */
		while (read(sfd, &si, sizeof(si)) == sizeof(si))
			if ((pid_t)si.ssi_pid == pid && si.ssi_code == SI_QUEUE)
				return 0;
		if (n > 0 && pidfd >= 0 && p[1].revents)
			return log_errno(-ESRCH,
					 "--reload %d: it exited before it had reloaded",
					 (int)pid);
	}
}

int fb_reload_request(pid_t pid)
{
	_cleanup_close_ int sfd = -1, pidfd = -1;
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, FB_RELOAD_SIGNAL);
	/* Blocked before asking: the answer cannot come too early. */
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return log_errno(-errno, "--reload: cannot block the answer's signal: %m");
	sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0)
		return log_errno(-errno, "--reload: cannot set up signal handling: %m");
	/* Its exit, when the kernel can tell (5.3 and later). */
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0 && errno == ESRCH)
		return log_errno(-ESRCH, "--reload %d: no such process", (int)pid);
	if (sigqueue(pid, FB_RELOAD_SIGNAL, (union sigval){ .sival_int = 0 }) < 0)
		return errno == ESRCH
			       ? log_errno(-ESRCH, "--reload %d: no such process",
					   (int)pid)
			       : log_errno(-errno, "--reload %d: cannot signal it: %m",
					   (int)pid);
	return reload_wait(pid, sfd, pidfd);
}
