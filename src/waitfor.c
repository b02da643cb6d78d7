/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl wait: see waitfor.h. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "display.h"
#include "fbclass.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "uevent-monitor.h"
#include "waitfor.h"

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

int waitfor_target_parse(const char *arg, enum waitfor_what what, struct waitfor_target *t)
{
	const char *s = strncmp(arg, "/dev/", 5) == 0 ? arg + 5 : arg;
	const char *dash = strchr(s, '-');

	*t = (struct waitfor_target){ .name = s, .what = what };
	if (strncmp(s, "fb", 2) == 0 && all_digits(s + 2))
		return 0;
	if (strncmp(s, "card", 4) == 0 && dash && dash[1] && !strchr(s, '/')) {
		char num[16];

		snprintf(num, sizeof(num), "%.*s", (int)MIN((size_t)(dash - s - 4), 15),
			 s + 4);
		if (all_digits(num)) {
			t->connector = true;
			return 0;
		}
	}
	_cleanup_free_ char *e = str_escape(arg, 64);
	ERR("wait: \"%s\" is neither a framebuffer (fbN) nor a DRM connector (cardN-NAME)",
	    e ? e : "?");
	return -EINVAL;
}

static bool connector_holds(const struct drm_connector *c, enum waitfor_what what)
{
	if (what == WAITFOR_PRESENT)
		return true;
	if (c->status != DRM_STATUS_CONNECTED)
		return false;
	return what == WAITFOR_CONNECTED ||
	       (streq_ptr(c->enabled, "enabled") && streq_ptr(c->dpms, "On"));
}

/* Some connector of card (or the one named) holds. */
static bool card_holds(const struct drm_card *card, const char *connector,
		       enum waitfor_what what)
{
	for (size_t i = 0; card && i < card->n_connectors; i++)
		if ((!connector || strcmp(card->connectors[i].name, connector) == 0) &&
		    connector_holds(&card->connectors[i], what))
			return true;
	return false;
}

int waitfor_check(const struct waitfor_target *t)
{
	struct fb_device_list fbs = {};
	struct drm_list drm = {};
	const struct fb_device *fb = NULL;
	bool holds = false;
	int r = 0;

	if (!t->connector) {
		_cleanup_free_ char *print = NULL;

		r = fb_device_fingerprint(t->name, &print);
		if (r == -ENODEV)
			return 0;
		if (r < 0 || t->what == WAITFOR_PRESENT)
			return r < 0 ? r : 1;
		r = fb_device_scan(&fbs, FB_SCAN_PLAN);
		fb = r == 0 ? fb_device_list_find(&fbs, t->name) : NULL;
	}
	if (r == 0)
		r = display_scan(&drm, DRM_SCAN_ALL);
	if (r == 0 && t->connector)
		for (size_t i = 0; i < drm.n && !holds; i++)
			holds = card_holds(&drm.cards[i], t->name, t->what);
	else if (r == 0 && fb)
		holds = card_holds(display_card_of_fb(&drm, fb), NULL, t->what);
	display_list_free(&drm);
	fb_device_list_free(&fbs);
	return r < 0 ? r : holds;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read what is queued; true when a graphics or drm event (or a loss) was
 * among it. */
static bool drain(struct fb_monitor *mon)
{
	struct fb_monitor_event ev;
	bool relevant = false;
	int r;

	while ((r = fb_monitor_receive(mon, &ev)) != 0) {
		if (r == -ENOBUFS)
			relevant = true;
		else if (r < 0)
			break;
		else
			relevant |= streq_ptr(ev.subsystem, "graphics") ||
				    streq_ptr(ev.subsystem, "drm");
	}
	return relevant;
}

int waitfor_run(const struct waitfor_target *t, int timeout_ms)
{
	static const char *const subsystems[] = { "graphics", "drm" };
	long long deadline = now_ms() + timeout_ms;
	struct fb_monitor *mon = NULL;
	int r;

	/* Listen first: nothing falls between the check and the wait. */
	r = fb_monitor_open(&mon, subsystems, ARRAY_SIZE(subsystems), 0);
	if (r < 0)
		return r;
	for (bool check = true;; check = drain(mon)) {
		struct pollfd p = { .fd = fb_monitor_fd(mon), .events = POLLIN };
		long long left = timeout_ms < 0 ? -1 : deadline - now_ms();

		if (check) {
			r = waitfor_check(t);
			if (r != 0) {
				if (r < 0)
					log_errno(r, "wait: %s: cannot read sysfs: %m",
						  t->name);
				break;
			}
		}
		if (timeout_ms >= 0 && left <= 0) {
			r = -ETIMEDOUT;
			break;
		}
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR) {
			r = log_errno(-errno, "wait: poll: %m");
			break;
		}
	}
	fb_monitor_free(mon);
	return r > 0 ? 0 : r;
}
