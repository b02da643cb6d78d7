/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * info --probe: each capability tried on the device, within bench's rules
 * (put back what moved; never hang).  See fbcaps.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fbcaps.h"
#include "fbinfo_ioctl.h"
#include "jsonout.h"
#include "log.h"
#include "strutil.h"

#define VSYNC_TIMEOUT_MS 500
#define VSYNC_WAITS	 10
#define VSYNC_WAITS_MAX	 64
/* Successive waits closer than this did not wait for anything. */
#define VSYNC_AT_ONCE_NS 1000000ull

static int kernel_ioctl(int fd, unsigned long request, void *arg)
{
	int r = ioctl(fd, request, arg);

	return r < 0 ? -errno : r;
}

const struct fb_caps_ops fb_caps_kernel_ops = { .ioctl = kernel_ioctl };

const char *fb_caps_answer_name(enum fb_caps_answer answer)
{
	switch (answer) {
	case FB_CAPS_YES:
		return "yes";
	case FB_CAPS_NO:
		return "no";
	case FB_CAPS_UNTESTED:
		break;
	}
	return "untested";
}

static void say(struct fb_caps_item *item, enum fb_caps_answer answer, const char *fmt,
		...) _printf_format_(3, 4);
static void say(struct fb_caps_item *item, enum fb_caps_answer answer, const char *fmt,
		...)
{
	va_list ap;

	item->answer = answer;
	va_start(ap, fmt);
	vsnprintf(item->reason, sizeof(item->reason), fmt, ap);
	va_end(ap);
}

void fb_caps_untested(struct fb_caps *caps, const char *fmt, ...)
{
	struct fb_caps_item *items[] = { &caps->pan, &caps->pan_display, &caps->vsync,
					 &caps->blank };
	char why[sizeof(caps->pan.reason)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	*caps = (struct fb_caps){ .double_height = -1 };
	for (size_t i = 0; i < ARRAY_SIZE(items); i++)
		say(items[i], FB_CAPS_UNTESTED, "%s", why);
}

/* ---- pan: the steps, and 2x the height under FB_ACTIVATE_TEST ---- */

/* 1 accepted (the driver wrote back at least twice the height), 0 not,
 * -errno of the ioctl in *err.  Nothing is applied. */
static int ask_double_height(const struct fb_caps_ops *ops, int fd,
			     const struct fb_var_screeninfo *cur, int *err)
{
	struct fb_var_screeninfo v = *cur;

	v.yres_virtual = 2 * cur->yres;
	v.xoffset = v.yoffset = 0;
	v.activate = FB_ACTIVATE_TEST;
	*err = ops->ioctl(fd, FBIOPUT_VSCREENINFO, &v);
	if (*err < 0)
		return 0;
	return v.yres_virtual >= 2 * cur->yres;
}

static void probe_pan(const struct fb_caps_ops *ops, int fd,
		      const struct fb_var_screeninfo *var,
		      const struct fb_fix_screeninfo *fix, struct fb_caps *caps)
{
	bool room = var->yres_virtual > var->yres || var->xres_virtual > var->xres;
	char steps[96], twice[128];
	int err = 0;

	caps->xpanstep = fix->xpanstep;
	caps->ypanstep = fix->ypanstep;
	caps->ywrapstep = fix->ywrapstep;
	snprintf(steps, sizeof(steps), "xpanstep %u, ypanstep %u, ywrapstep %u",
		 fix->xpanstep, fix->ypanstep, fix->ywrapstep);
	if (!fix->xpanstep && !fix->ypanstep && !fix->ywrapstep) {
		say(&caps->pan, FB_CAPS_NO, "%s: the driver pans in no direction", steps);
		return;
	}
	caps->double_height = var->yres_virtual >= 2 * var->yres
				      ? 1
				      : ask_double_height(ops, fd, var, &err);
	if (var->yres_virtual >= 2 * var->yres)
		snprintf(twice, sizeof(twice), "twice the height already");
	else if (caps->double_height)
		snprintf(twice, sizeof(twice),
			 "a virtual height of %u (twice %u) accepted under FB_ACTIVATE_TEST",
			 2 * var->yres, var->yres);
	else if (err < 0)
		snprintf(twice, sizeof(twice),
			 "a virtual height of %u (twice %u) refused under FB_ACTIVATE_TEST: %s",
			 2 * var->yres, var->yres, strerror(-err));
	else
		snprintf(twice, sizeof(twice),
			 "a virtual height of %u (twice %u) asked under FB_ACTIVATE_TEST, the driver would make it %u",
			 2 * var->yres, var->yres, var->yres_virtual);
	if (room || caps->double_height)
		say(&caps->pan, FB_CAPS_YES, "%s; virtual %ux%u; %s", steps,
		    var->xres_virtual, var->yres_virtual, twice);
	else
		say(&caps->pan, FB_CAPS_NO,
		    "%s, but the virtual area is the visible one and %s", steps, twice);
}

/* ---- FBIOPAN_DISPLAY: somewhere else, read back, back again ---- */

/* The farthest offset a step reaches in a range of room, or 0 from there. */
static uint32_t pan_target(uint32_t cur, uint32_t room, uint32_t step)
{
	return cur ? 0 : room / step * step;
}

/* Where to pan to: y by ypanstep (or ywrapstep), else x; false: no room. */
static bool choose_pan(const struct fb_var_screeninfo *var,
		       const struct fb_fix_screeninfo *fix, struct fb_var_screeninfo *to)
{
	uint32_t yroom = var->yres_virtual - var->yres,
		 xroom = var->xres_virtual - var->xres;
	uint32_t ystep = fix->ypanstep ? fix->ypanstep : fix->ywrapstep;

	*to = *var;
	to->vmode &= ~FB_VMODE_YWRAP;
	if (var->yres_virtual > var->yres && ystep && yroom >= ystep) {
		to->yoffset = pan_target(var->yoffset, yroom, ystep);
		if (!fix->ypanstep)
			to->vmode |= FB_VMODE_YWRAP;
		return true;
	}
	if (var->xres_virtual > var->xres && fix->xpanstep && xroom >= fix->xpanstep) {
		to->xoffset = pan_target(var->xoffset, xroom, fix->xpanstep);
		return true;
	}
	return false;
}

static void probe_pan_display(const struct fb_caps_ops *ops, int fd,
			      const struct fb_var_screeninfo *var,
			      const struct fb_fix_screeninfo *fix, struct fb_caps *caps)
{
	struct fb_var_screeninfo to, back = *var, now;
	int r, rb;

	if (!fix->xpanstep && !fix->ypanstep && !fix->ywrapstep) {
		say(&caps->pan_display, FB_CAPS_NO, "the driver declares no pan step");
		return;
	}
	if (!choose_pan(var, fix, &to)) {
		say(&caps->pan_display, FB_CAPS_UNTESTED,
		    "no room to pan: virtual %ux%u, visible %ux%u (set -g with a larger virtual size, or bench's flip, gives it room)",
		    var->xres_virtual, var->yres_virtual, var->xres, var->yres);
		return;
	}
	r = ops->ioctl(fd, FBIOPAN_DISPLAY, &to);
	if (r < 0) {
		say(&caps->pan_display, r == -EBUSY ? FB_CAPS_UNTESTED : FB_CAPS_NO,
		    "FBIOPAN_DISPLAY to %u,%u: %s%s", to.xoffset, to.yoffset,
		    strerror(-r),
		    r == -EBUSY ? " (another DRM master holds the card?)" : "");
		return;
	}
	r = ops->ioctl(fd, FBIOGET_VSCREENINFO, &now);
	rb = ops->ioctl(fd, FBIOPAN_DISPLAY, &back);
	if (rb < 0)
		WRN("FBIOPAN_DISPLAY back to %u,%u: %s", back.xoffset, back.yoffset,
		    strerror(-rb));
	if (r < 0)
		say(&caps->pan_display, FB_CAPS_UNTESTED,
		    "panned to %u,%u, then FBIOGET_VSCREENINFO: %s", to.xoffset,
		    to.yoffset, strerror(-r));
	else if (now.xoffset != to.xoffset || now.yoffset != to.yoffset)
		say(&caps->pan_display, FB_CAPS_NO,
		    "FBIOPAN_DISPLAY to %u,%u took, but the offsets read back are %u,%u",
		    to.xoffset, to.yoffset, now.xoffset, now.yoffset);
	else
		say(&caps->pan_display, FB_CAPS_YES,
		    "panned to %u,%u and read back, then back to %u,%u%s", to.xoffset,
		    to.yoffset, back.xoffset, back.yoffset, rb < 0 ? " FAILED" : "");
}

/* ---- FBIO_WAITFORVSYNC in a child, under a timeout ---- */

struct vsync_record {
	int r; /* the ioctl's */
	uint64_t ns; /* CLOCK_MONOTONIC when it returned */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The child: one record per wait, until one fails. */
_Noreturn static void vsync_child(const struct fb_caps_ops *ops, int fd, int out,
				  unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint32_t crtc = 0;
		struct vsync_record rec;

		memset(&rec, 0, sizeof(rec)); /* the padding goes down the pipe too */
		rec.r = ops->ioctl(fd, FBIO_WAITFORVSYNC, &crtc);
		rec.ns = now_ns();
		if (write(out, &rec, sizeof(rec)) != (ssize_t)sizeof(rec) || rec.r < 0)
			break;
	}
	_exit(0);
}

/* Kill the child (stuck in the driver, or done) and reap it, waiting a
 * second at most: a child the kernel cannot kill is left behind, said. */
static void vsync_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		usleep(10000);
	}
	WRN("FBIO_WAITFORVSYNC: process %d does not die in the driver; left behind",
	    (int)pid);
}

/* Read up to n records, each within timeout_ms.  The count read. */
static unsigned vsync_collect(int in, struct vsync_record *recs, unsigned n,
			      unsigned timeout_ms)
{
	unsigned got = 0;

	while (got < n) {
		struct pollfd p = { .fd = in, .events = POLLIN };
		int r = poll(&p, 1, (int)timeout_ms);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 ||
		    read(in, &recs[got], sizeof(recs[got])) != (ssize_t)sizeof(recs[got]))
			break;
		if (recs[got++].r < 0)
			break;
	}
	return got;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The answer from n records of n_asked (n < n_asked: timed out). */
static void vsync_judge(const struct vsync_record *recs, unsigned n, unsigned n_asked,
			unsigned timeout_ms, struct fb_caps *caps)
{
	uint64_t gaps[VSYNC_WAITS_MAX], median;

	if (n && recs[n - 1].r < 0) {
		int e = -recs[n - 1].r;

		say(&caps->vsync, e == EINTR ? FB_CAPS_UNTESTED : FB_CAPS_NO,
		    "FBIO_WAITFORVSYNC: %s%s", strerror(e),
		    e == ENOTTY ? " (the driver has no such ioctl)" : "");
		return;
	}
	if (n < n_asked) {
		say(&caps->vsync, FB_CAPS_UNTESTED,
		    "FBIO_WAITFORVSYNC did not return within %u ms (%u of %u waits done): timed out, the wait was killed",
		    timeout_ms, n, n_asked);
		return;
	}
	for (unsigned i = 1; i < n; i++)
		gaps[i - 1] = recs[i].ns - recs[i - 1].ns;
	qsort(gaps, n - 1, sizeof(gaps[0]), cmp_u64);
	median = gaps[(n - 1) / 2];
	if (median < VSYNC_AT_ONCE_NS) {
		say(&caps->vsync, FB_CAPS_NO,
		    "FBIO_WAITFORVSYNC returns at once (%u waits, %llu us apart): it waits for no vertical blank",
		    n, (unsigned long long)(median / 1000));
		return;
	}
	caps->refresh_mhz = (1000000000000ull + median / 2) / median;
	say(&caps->vsync, FB_CAPS_YES, "%u waits, %llu.%03llu ms apart: %llu.%03llu Hz",
	    n, (unsigned long long)(median / 1000000),
	    (unsigned long long)(median / 1000 % 1000),
	    (unsigned long long)(caps->refresh_mhz / 1000),
	    (unsigned long long)(caps->refresh_mhz % 1000));
}

static void probe_vsync(const struct fb_caps_ops *ops, int fd,
			const struct fb_caps_opts *o, struct fb_caps *caps)
{
	unsigned timeout =
		o && o->vsync_timeout_ms ? o->vsync_timeout_ms : VSYNC_TIMEOUT_MS;
	unsigned n = 1 + (o && o->vsync_waits ? o->vsync_waits : VSYNC_WAITS);
	struct vsync_record recs[VSYNC_WAITS_MAX + 1];
	int pipefd[2];
	pid_t pid;

	n = MIN(n, (unsigned)ARRAY_SIZE(recs));
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		say(&caps->vsync, FB_CAPS_UNTESTED, "cannot make a pipe: %s",
		    strerror(errno));
		return;
	}
	fflush(NULL); /* nothing buffered is written twice */
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		vsync_child(ops, fd, pipefd[1], n);
	}
	close(pipefd[1]);
	if (pid < 0) {
		say(&caps->vsync, FB_CAPS_UNTESTED, "cannot fork: %s", strerror(errno));
		close(pipefd[0]);
		return;
	}
	unsigned got = vsync_collect(pipefd[0], recs, n, timeout);
	close(pipefd[0]);
	vsync_reap(pid);
	vsync_judge(recs, got, n, timeout, caps);
}

/* ---- FBIOBLANK: unblank, which shows nothing new ---- */

static void probe_blank(const struct fb_caps_ops *ops, int fd, struct fb_caps *caps)
{
	int r = ops->ioctl(fd, FBIOBLANK, (void *)(uintptr_t)FB_BLANK_UNBLANK);

	if (r == 0)
		say(&caps->blank, FB_CAPS_YES,
		    "FB_BLANK_UNBLANK accepted; the blank levels were not tried, they would blank the screen (console blank does)");
	else if (r > 0)
		say(&caps->blank, FB_CAPS_NO,
		    "FBIOBLANK returned %d: the driver leaves blanking to fbcon", r);
	else if (r == -EINVAL || r == -ENOTTY || r == -ENOSYS)
		say(&caps->blank, FB_CAPS_NO,
		    "FB_BLANK_UNBLANK: %s (the driver cannot blank)", strerror(-r));
	else
		say(&caps->blank, FB_CAPS_UNTESTED, "FB_BLANK_UNBLANK: %s", strerror(-r));
}

void fb_caps_probe_fd(const struct fb_caps_ops *ops, int fd, const struct fb_caps_opts *o,
		      struct fb_caps *caps)
{
	struct fb_var_screeninfo var;
	struct fb_fix_screeninfo fix;
	int r;

	*caps = (struct fb_caps){ .double_height = -1 };
	r = ops->ioctl(fd, FBIOGET_VSCREENINFO, &var);
	if (r >= 0)
		r = ops->ioctl(fd, FBIOGET_FSCREENINFO, &fix);
	if (r < 0) {
		fb_caps_untested(caps, "cannot query the mode: %s", strerror(-r));
		return;
	}
	probe_pan(ops, fd, &var, &fix, caps);
	probe_pan_display(ops, fd, &var, &fix, caps);
	probe_vsync(ops, fd, o, caps);
	probe_blank(ops, fd, caps);
}

void fb_caps_probe(const struct fb_device *dev, const char *devdir, bool allow_private,
		   struct fb_caps *caps)
{
	int fd = fb_hw_open(dev, devdir, O_RDWR, allow_private, NULL);

	if (fd == -ENOENT)
		fb_caps_untested(caps, "no node %s/%s", devdir, dev->devname);
	else if (fd == -ESTALE)
		fb_caps_untested(caps, "%s/%s is not %s's node", devdir, dev->devname,
				 dev->name);
	else if (fd < 0)
		fb_caps_untested(caps, "cannot open %s/%s read-write: %s%s", devdir,
				 dev->devname, strerror(-fd),
				 fd == -EACCES || fd == -EPERM
					 ? " (probing needs write access)"
					 : "");
	if (fd < 0)
		return;
	fb_caps_probe_fd(&fb_caps_kernel_ops, fd, NULL, caps);
	close(fd);
}

/* ---- output ---- */

static void print_item(FILE *out, const char *key, const struct fb_caps_item *item)
{
	_cleanup_free_ char *e = str_escape_text(item->reason);

	fprintf(out, "    %-18s %s: %s\n", key, fb_caps_answer_name(item->answer),
		e ? e : "?");
}

void fb_caps_print(FILE *out, const struct fb_caps *caps)
{
	fprintf(out, "  capabilities (probed):\n");
	print_item(out, "pan", &caps->pan);
	print_item(out, "pan_display", &caps->pan_display);
	print_item(out, "vsync", &caps->vsync);
	print_item(out, "blank", &caps->blank);
}

static struct json_object *json_item(const struct fb_caps_item *item)
{
	struct json_object *o = json_object_new_object();

	jsonout_add_string(o, "answer", fb_caps_answer_name(item->answer));
	jsonout_add_string(o, "reason", item->reason);
	return o;
}

struct json_object *fb_caps_json(const struct fb_caps *caps)
{
	struct json_object *o = json_object_new_object();
	struct json_object *pan = json_item(&caps->pan), *vsync = json_item(&caps->vsync);
	bool steps = caps->pan.answer != FB_CAPS_UNTESTED;

	json_object_object_add(pan, "xpanstep",
			       steps ? json_object_new_int(caps->xpanstep) : NULL);
	json_object_object_add(pan, "ypanstep",
			       steps ? json_object_new_int(caps->ypanstep) : NULL);
	json_object_object_add(pan, "ywrapstep",
			       steps ? json_object_new_int(caps->ywrapstep) : NULL);
	json_object_object_add(pan, "double_height",
			       caps->double_height < 0
				       ? NULL
				       : json_object_new_boolean(caps->double_height));
	json_object_object_add(o, "pan", pan);
	json_object_object_add(o, "pan_display", json_item(&caps->pan_display));
	json_object_object_add(vsync, "refresh_hz",
			       caps->refresh_mhz
				       ? json_object_new_double(caps->refresh_mhz / 1000.0)
				       : NULL);
	json_object_object_add(o, "vsync", vsync);
	json_object_object_add(o, "blank", json_item(&caps->blank));
	return o;
}
