/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* uevent parsing, both forms.  The first byte picks one:
 * even: the netlink buffer "action@devpath\0KEY=VAL\0..." (the rest);
 * odd: the uevent-helper environment, KEY=VAL strings split at NUL. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "uevent-message.h"

static void check_event(const struct fb_uevent_env *env)
{
	struct fb_uevent ev;
	char why[256];

	if (fb_uevent_parse(env, &ev, why, sizeof(why)) != 1)
		return;
	/* What is accepted names one safe node under /sys/devices. */
	if (!ev.devname[0] || strchr(ev.devname, '/') || strcmp(ev.devname, "..") == 0 ||
	    strcmp(ev.devname, ".") == 0)
		__builtin_trap();
	if (strncmp(ev.devpath, "/devices/", 9) != 0 || strstr(ev.devpath, "/../"))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fb_uevent_env env = {};
	char why[256], *buf;

	if (size < 1)
		return 0;
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	if (data[0] % 2 == 0) {
		if (uevent_message_parse(buf, size - 1, &env, why, sizeof(why)) == 0)
			check_event(&env);
	} else {
		buf[size - 1] = '\0';
		for (char *p = buf; p < buf + size - 1; p += strlen(p) + 1) {
			static const char *const keys[] = {
				"ACTION=", "DEVPATH=", "SUBSYSTEM=", "MAJOR=",
				"MINOR=",  "DEVNAME=", "SEQNUM="
			};
			const char **slots[] = { &env.action,	 &env.devpath,
						 &env.subsystem, &env.major,
						 &env.minor,	 &env.devname,
						 &env.seqnum };

			for (size_t i = 0; i < 7; i++)
				if (strncmp(p, keys[i], strlen(keys[i])) == 0)
					*slots[i] = p + strlen(keys[i]);
		}
		check_event(&env);
	}
	free(buf);
	return 0;
}
