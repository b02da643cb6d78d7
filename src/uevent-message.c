/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "uevent-message.h"

static int reject(char *why, size_t len, const char *fmt, ...) _printf_format_(3, 4);
static int reject(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool key_is_valid(const char *k, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((k[i] >= 'A' && k[i] <= 'Z') || (k[i] >= '0' && k[i] <= '9') ||
		      k[i] == '_'))
			return false;
	return true;
}

int uevent_message_parse(const char *buf, size_t len, struct fb_uevent_env *env,
			 char *why, size_t whylen)
{
	static const struct {
		const char *key;
		size_t offset;
	} keys[] = {
		{ "ACTION", offsetof(struct fb_uevent_env, action) },
		{ "DEVPATH", offsetof(struct fb_uevent_env, devpath) },
		{ "SUBSYSTEM", offsetof(struct fb_uevent_env, subsystem) },
		{ "MAJOR", offsetof(struct fb_uevent_env, major) },
		{ "MINOR", offsetof(struct fb_uevent_env, minor) },
		{ "DEVNAME", offsetof(struct fb_uevent_env, devname) },
		{ "SEQNUM", offsetof(struct fb_uevent_env, seqnum) },
		{ "HOTPLUG", offsetof(struct fb_uevent_env, hotplug) },
	};
	const char *header, *at, *p, *end = buf + len;

	memset(env, 0, sizeof(*env));
	if (len == 0)
		return reject(why, whylen, "empty message");
	if (buf[len - 1] != '\0')
		return reject(why, whylen,
			      "message cut short (last field not terminated)");
	if (len >= 8 && memcmp(buf, "libudev", 8) == 0)
		return reject(why, whylen, "a libudev message, not the kernel's");
	header = buf;
	at = strchr(header, '@');
	if (!at || at == header || at[1] != '/')
		return reject(why, whylen, "header is not \"action@/devpath\"");

	for (p = header + strlen(header) + 1; p < end; p += strlen(p) + 1) {
		const char *eq = strchr(p, '=');
		size_t klen;
		bool known = false;

		if (!*p)
			return reject(why, whylen, "empty field");
		if (!eq || !key_is_valid(p, (size_t)(eq - p)))
			return reject(why, whylen, "field is not KEY=VALUE");
		klen = (size_t)(eq - p);
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
			const char **slot = (const char **)((char *)env + keys[i].offset);

			if (strlen(keys[i].key) != klen ||
			    strncmp(p, keys[i].key, klen) != 0)
				continue;
			if (*slot)
				return reject(why, whylen, "%s given twice", keys[i].key);
			*slot = eq + 1;
			known = true;
		}
		if (!known) {
			/* Unknown keys are fine, but not twice either. */
			for (const char *q = header + strlen(header) + 1; q < p;
			     q += strlen(q) + 1)
				if (strncmp(q, p, klen + 1) == 0)
					return reject(why, whylen, "%.*s given twice",
						      (int)klen, p);
		}
	}
	if (!env->action || !env->devpath)
		return reject(why, whylen, "ACTION or DEVPATH missing");
	if (strlen(env->action) != (size_t)(at - header) ||
	    strncmp(env->action, header, (size_t)(at - header)) != 0 ||
	    strcmp(env->devpath, at + 1) != 0)
		return reject(why, whylen, "header disagrees with ACTION or DEVPATH");
	return 0;
}
