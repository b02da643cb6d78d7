/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Validation of uevent variables: see uevent.h.  Pure functions only. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "fbclass.h"
#include "macro.h"
#include "strutil.h"
#include "uevent.h"

void fb_uevent_env_from_environ(struct fb_uevent_env *env)
{
	env->action = getenv("ACTION");
	env->devpath = getenv("DEVPATH");
	env->subsystem = getenv("SUBSYSTEM");
	env->major = getenv("MAJOR");
	env->minor = getenv("MINOR");
	env->devname = getenv("DEVNAME");
	env->seqnum = getenv("SEQNUM");
}

/* "/devices/a/b": absolute under /devices, no "", "." or ".." component,
 * printable ASCII only. */
static const char *devpath_problem(const char *p)
{
	size_t len = strlen(p);

	if (len >= FB_UEVENT_DEVPATH_MAX)
		return "is too long";
	if (strncmp(p, "/devices/", 9) != 0)
		return "is not under /devices";
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c <= 0x20 || (unsigned char)*c >= 0x7f)
			return "contains a space, control or non-ASCII character";
	for (p++;;) {
		size_t n = strcspn(p, "/");

		if (n == 0)
			return "has an empty component";
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return "has a \".\" or \"..\" component";
		if (!p[n])
			break;
		p += n + 1;
	}
	return NULL;
}

_printf_format_(3, 4) static int reject(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int fb_uevent_parse(const struct fb_uevent_env *env, struct fb_uevent *ev, char *why,
		    size_t whylen)
{
	unsigned long long maj, min;
	const char *problem, *base, *devname;

	memset(ev, 0, sizeof(*ev));
	if (!env->subsystem || strcmp(env->subsystem, "graphics") != 0) {
		snprintf(why, whylen, "not a graphics event");
		return 0;
	}
	if (!env->action)
		return reject(why, whylen, "ACTION is missing");
	if (strcmp(env->action, "add") == 0) {
		ev->action = FB_UEVENT_ADD;
	} else if (strcmp(env->action, "change") == 0) {
		ev->action = FB_UEVENT_CHANGE;
	} else if (strcmp(env->action, "remove") == 0) {
		ev->action = FB_UEVENT_REMOVE;
	} else if (strcmp(env->action, "bind") == 0 ||
		   strcmp(env->action, "unbind") == 0 ||
		   strcmp(env->action, "move") == 0 ||
		   strcmp(env->action, "online") == 0 ||
		   strcmp(env->action, "offline") == 0) {
		snprintf(why, whylen, "ACTION=%s needs nothing done", env->action);
		return 0;
	} else {
		return reject(why, whylen, "unknown ACTION \"%.32s\"", env->action);
	}
	if (!env->devpath)
		return reject(why, whylen, "DEVPATH is missing");
	problem = devpath_problem(env->devpath);
	if (problem)
		return reject(why, whylen, "DEVPATH \"%.256s\" %s", env->devpath, problem);
	/* fbcon and friends: class devices without a node. */
	if (!env->major && !env->minor && !env->devname) {
		snprintf(why, whylen, "%.256s has no device node", env->devpath);
		return 0;
	}
	if (!env->major || !env->minor || !env->devname)
		return reject(why, whylen, "%s is missing",
			      !env->major   ? "MAJOR"
			      : !env->minor ? "MINOR"
					    : "DEVNAME");
	if (parse_decimal(env->major, FB_DEVNUM_MAJOR_MAX, &maj) < 0)
		return reject(why, whylen, "invalid MAJOR \"%.32s\"", env->major);
	if (parse_decimal(env->minor, FB_DEVNUM_MINOR_MAX, &min) < 0)
		return reject(why, whylen, "invalid MINOR \"%.32s\"", env->minor);
	if (maj != FB_GRAPHICS_MAJOR)
		return reject(why, whylen, "MAJOR %s is not the framebuffer major 29",
			      env->major);
	/* A udev RUN rule's environment names the node under /dev */
	devname = env->devname;
	if (strncmp(devname, "/dev/", 5) == 0)
		devname += 5;
	if (!nodes_plan_name_is_safe(devname))
		return reject(why, whylen,
			      "DEVNAME \"%.256s\" is not a plain name (no '/', no \"..\")",
			      env->devname);
	base = strrchr(env->devpath, '/') + 1;
	if (strcmp(base, devname) != 0)
		return reject(why, whylen,
			      "DEVNAME \"%.256s\" is not the device's name \"%.256s\"",
			      env->devname, base);
	if (env->seqnum) {
		if (parse_decimal(env->seqnum, ~0ULL, &ev->seqnum) < 0)
			return reject(why, whylen, "invalid SEQNUM \"%.32s\"",
				      env->seqnum);
		ev->has_seqnum = true;
	}
	snprintf(ev->devpath, sizeof(ev->devpath), "%s", env->devpath);
	snprintf(ev->devname, sizeof(ev->devname), "%s", devname);
	ev->devnum = makedev((unsigned)maj, (unsigned)min);
	return 1;
}
