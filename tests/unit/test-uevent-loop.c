/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The poll loop of the daemon and monitor, on two pipes: one stands for
 * the uevent socket, one for the signalfd (a signalfd_siginfo written in
 * whole is what a signalfd read gives). */
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "uevent-loop.h"

struct fake {
	int events[2], signals[2];
	unsigned n_events, n_signals, n_idle;
	unsigned wait_ms; /* what on_events asks for */
	int idle_ms; /* what idle_ms answers; -1 forever */
	int last_signo;
	int stop_signo; /* on_signal ends the loop on this one */
	struct timespec before_second_poll;
};

static void send_signal(struct fake *f, int signo)
{
	struct signalfd_siginfo si = { .ssi_signo = (uint32_t)signo };

	ASSERT_TRUE(write(f->signals[1], &si, sizeof(si)) == sizeof(si));
}

/* Reads what is queued; a signal follows the first batch. */
static unsigned on_events(void *data)
{
	struct fake *f = data;
	char buf[64];

	ASSERT_TRUE(read(f->events[0], buf, sizeof(buf)) > 0);
	f->n_events++;
	clock_gettime(CLOCK_MONOTONIC, &f->before_second_poll);
	send_signal(f, SIGHUP);
	return f->wait_ms;
}

static bool on_signal(void *data, const struct signalfd_siginfo *si)
{
	struct fake *f = data;

	f->n_signals++;
	f->last_signo = (int)si->ssi_signo;
	if ((int)si->ssi_signo == SIGHUP)
		send_signal(f, f->stop_signo);
	return (int)si->ssi_signo == f->stop_signo;
}

static int idle_ms(void *data)
{
	return ((struct fake *)data)->idle_ms;
}

/* After the first idle spell: an event, so that the loop goes on. */
static void on_idle(void *data)
{
	struct fake *f = data;

	if (f->n_idle++ == 0)
		ASSERT_TRUE(write(f->events[1], "e", 1) == 1);
}

static void fake_open(struct fake *f)
{
	*f = (struct fake){ .idle_ms = -1, .stop_signo = SIGTERM };
	ASSERT_TRUE(pipe(f->events) == 0);
	ASSERT_TRUE(pipe(f->signals) == 0);
}

static void fake_close(struct fake *f)
{
	close(f->events[0]);
	close(f->events[1]);
	close(f->signals[0]);
	close(f->signals[1]);
}

static struct uevent_loop loop_of(struct fake *f)
{
	return (struct uevent_loop){ .sfd = f->signals[0],
				     .event_fd = f->events[0],
				     .on_events = on_events,
				     .on_signal = on_signal,
				     .idle_ms = f->idle_ms >= 0 ? idle_ms : NULL,
				     .on_idle = on_idle,
				     .data = f };
}

/* Events, then a signal that goes on (SIGHUP), then one that ends it. */
static void test_events_then_signals(void)
{
	struct fake f;
	struct uevent_loop l;

	fake_open(&f);
	l = loop_of(&f);
	ASSERT_TRUE(write(f.events[1], "abc", 3) == 3);
	ASSERT_INT_EQ(uevent_loop_run(&l), 0);
	ASSERT_INT_EQ(f.n_events, 1);
	ASSERT_INT_EQ(f.n_signals, 2);
	ASSERT_INT_EQ(f.last_signo, SIGTERM);
	ASSERT_INT_EQ(f.n_idle, 0);
	fake_close(&f);
}

/* Queued events are read before a signal that came with them. */
static void test_events_before_signal(void)
{
	struct fake f;
	struct uevent_loop l;

	fake_open(&f);
	f.stop_signo = SIGINT;
	l = loop_of(&f);
	ASSERT_TRUE(write(f.events[1], "x", 1) == 1);
	send_signal(&f, SIGINT);
	ASSERT_INT_EQ(uevent_loop_run(&l), 0);
	ASSERT_INT_EQ(f.n_events, 1);
	ASSERT_INT_EQ(f.last_signo, SIGINT);
	fake_close(&f);
}

/* Quiet for idle_ms: on_idle, then the loop polls again. */
static void test_idle(void)
{
	struct fake f;
	struct uevent_loop l;

	fake_open(&f);
	f.idle_ms = 10;
	l = loop_of(&f);
	ASSERT_INT_EQ(uevent_loop_run(&l), 0);
	ASSERT_TRUE(f.n_idle >= 1);
	ASSERT_INT_EQ(f.n_events, 1);
	ASSERT_INT_EQ(f.last_signo, SIGTERM);
	fake_close(&f);
}

/* on_events' answer: the loop lets that long pass before it polls
 * again (the daemon's --coalesce). */
static void test_wait_after_events(void)
{
	struct fake f;
	struct uevent_loop l;
	struct timespec end;
	long long ms;

	fake_open(&f);
	f.wait_ms = 50;
	l = loop_of(&f);
	ASSERT_TRUE(write(f.events[1], "x", 1) == 1);
	ASSERT_INT_EQ(uevent_loop_run(&l), 0);
	clock_gettime(CLOCK_MONOTONIC, &end);
	ms = (end.tv_sec - f.before_second_poll.tv_sec) * 1000LL +
	     (end.tv_nsec - f.before_second_poll.tv_nsec) / 1000000;
	ASSERT_MSG(ms >= 50, "%lld ms between the batch and the next poll", ms);
	fake_close(&f);
}

int main(void)
{
	test_events_then_signals();
	test_events_before_signal();
	test_idle();
	test_wait_after_events();
	return test_finish("uevent-loop");
}
