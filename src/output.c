/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <inttypes.h>
#include <sys/sysmacros.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"
#include "output.h"
#include "strutil.h"

void fb_view_load(struct fb_view *v, const struct fb_device *dev, const char *devdir,
		  bool allow_private)
{
	int r;

	memset(v, 0, sizeof(*v));
	v->dev = dev;
	v->has_sys_bpp =
		fb_parse_uint(fb_device_attr(dev, "bits_per_pixel"), &v->sys_bpp) == 0;
	v->has_sys_stride =
		fb_parse_uint(fb_device_attr(dev, "stride"), &v->sys_stride) == 0;
	v->has_sys_virt = fb_parse_pair(fb_device_attr(dev, "virtual_size"), &v->sys_vx,
					&v->sys_vy) == 0;
	v->has_sys_mode = fb_parse_mode(fb_device_attr(dev, "mode"), &v->sys_mode) == 0;

	fb_node_inspect(dev, devdir, &v->node);
	r = fb_hw_query(dev, devdir, allow_private, &v->hw);
	if (r == 0) {
		fb_pixel_format_decode(&v->hw.var, v->hw.fix.visual, &v->fmt);
		return;
	}
	if (r == -ENOENT)
		WRN("%s: %s is missing; showing sysfs values only ('fbclassctl coldplug' creates it)",
		    dev->name, v->node.path);
	else if (r == -ESTALE)
		WRN("%s: %s is not character device %u:%u; showing sysfs values only ('fbclassctl coldplug' replaces it)",
		    dev->name, v->node.path, major(dev->devnum), minor(dev->devnum));
	else
		WRN("%s: cannot query the hardware: %s; showing sysfs values only",
		    dev->name, strerror(-r));
}

const char *fb_view_id(const struct fb_view *v, char *buf, size_t len)
{
	if (v->hw.valid) {
		/* fix.id is 16 bytes and need not be NUL-terminated. */
		size_t n = strnlen(v->hw.fix.id, sizeof(v->hw.fix.id));

		snprintf(buf, len, "%.*s", (int)n, v->hw.fix.id);
		return buf;
	}
	return fb_device_attr(v->dev, "name");
}

char *size_to_human(uint64_t bytes, char *buf, size_t len)
{
	static const char suffix[] = "BKMGTPE";
	uint64_t whole = bytes, rem = 0;
	size_t i = 0;

	while (whole >= 1024 && i + 1 < sizeof(suffix) - 1) {
		rem = whole % 1024;
		whole /= 1024;
		i++;
	}
	if (i == 0) {
		snprintf(buf, len, "%" PRIu64 "B", bytes);
		return buf;
	}
	/* One decimal, rounded, dropped when it is zero ("4M", "3.9M"). */
	uint64_t dec = (rem * 10 + 512) / 1024;
	if (dec == 10) {
		whole++;
		dec = 0;
	}
	if (dec)
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "%c", whole, dec, suffix[i]);
	else
		snprintf(buf, len, "%" PRIu64 "%c", whole, suffix[i]);
	return buf;
}

void json_add_string(struct json_object *o, const char *key, const char *value)
{
	_cleanup_free_ char *safe = value ? str_utf8_sanitize(value) : NULL;

	json_object_object_add(o, key, safe ? json_object_new_string(safe) : NULL);
}

void json_add_uint(struct json_object *o, const char *key, uint64_t value)
{
	json_object_object_add(o, key, json_object_new_uint64(value));
}

void json_add_bool(struct json_object *o, const char *key, bool value)
{
	json_object_object_add(o, key, json_object_new_boolean(value));
}

int json_print(struct json_object *doc)
{
	const char *s =
		json_object_to_json_string_ext(doc,
					       JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!s)
		return -ENOMEM;
	if (fputs(s, stdout) == EOF || fputc('\n', stdout) == EOF)
		return -EIO;
	return 0;
}

int fb_usage_error(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "Try 'fbclassctl %s --help' for more information.\n", cmd);
	else
		fprintf(stderr, "Try 'fbclassctl --help' for more information.\n");
	return FB_EXIT_USAGE;
}
