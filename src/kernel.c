/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the running kernel says about framebuffers: see kernel.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "fbclass.h"
#include "gz.h"
#include "kernel.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"

/* A kernel configuration is about 250 kB; anything far larger is not one. */
#define CONFIG_MAX (4u << 20)

char *kernel_module_param(const char *module, const char *name)
{
	_cleanup_free_ char *path = NULL, *v = NULL;

	if (asprintf(&path, "/sys/module/%s/parameters/%s", module, name) < 0)
		return NULL;
	v = file_read_text(path, 4096);
	return v ? fb_strip_newlines_dup(v) : NULL;
}

int kernel_fbdev_emulation(void)
{
	_cleanup_free_ char *v = kernel_module_param("drm_kms_helper", "fbdev_emulation");
	unsigned long long n;

	if (!v)
		return -1;
	/* a bool parameter reads Y or N */
	if (strcmp(v, "Y") == 0 || strcmp(v, "N") == 0)
		return v[0] == 'Y';
	if (parse_decimal(v, 1, &n) == 0)
		return (int)n;
	return -1;
}

char *kernel_cmdline(const char *proc_dir)
{
	_cleanup_free_ char *path = NULL, *v = NULL;

	if (asprintf(&path, "%s/cmdline", proc_dir) < 0)
		return NULL;
	v = file_read_text(path, 64 * 1024);
	return v ? fb_strip_newlines_dup(v) : NULL;
}

const char *kernel_cmdline_value(const char *cmdline, const char *key, char *buf,
				 size_t len)
{
	size_t klen = strlen(key);
	const char *found = NULL;
	size_t found_len = 0;

	for (const char *p = cmdline; p && *p;) {
		size_t n = strcspn(p, " \t\n");

		if (n >= klen && strncmp(p, key, klen) == 0 &&
		    (n == klen || p[klen] == '=')) {
			found = n == klen ? p + n : p + klen + 1;
			found_len = n == klen ? 0 : n - klen - 1;
		}
		p += n;
		p += strspn(p, " \t\n");
	}
	if (!found)
		return NULL;
	snprintf(buf, len, "%.*s", (int)found_len, found);
	return buf;
}

int kernel_config_read(struct kernel_config *c, const char *boot_dir, const char *proc_dir)
{
	char release[65];

	memset(c, 0, sizeof(*c));
	snprintf(c->source, sizeof(c->source), "%s/config-%s", boot_dir,
		 kernel_release(release, sizeof(release)));
	c->text = file_read_text(c->source, CONFIG_MAX);
	if (c->text)
		return 0;
	if (errno == ENOMEM)
		return -ENOMEM;
	snprintf(c->source, sizeof(c->source), "%s/config.gz", proc_dir);
	c->text = fb_gz_read_file(c->source, CONFIG_MAX);
	if (c->text)
		return 0;
	c->source[0] = '\0';
	return errno == ENOMEM ? -ENOMEM : -ENOENT;
}

char kernel_config_value(const struct kernel_config *c, const char *name)
{
	size_t len = strlen(name);

	for (const char *line = c->text; line && *line;) {
		size_t n = strcspn(line, "\n");

		/* "CONFIG_FB_DEVICE=y" */
		if (n > 7 + len + 1 && strncmp(line, "CONFIG_", 7) == 0 &&
		    strncmp(line + 7, name, len) == 0 && line[7 + len] == '=')
			return line[8 + len] == 'y' || line[8 + len] == 'm'
				       ? line[8 + len]
				       : 'n';
		/* "# CONFIG_FB_DEVICE is not set" */
		if (n == 9 + len + 11 && strncmp(line, "# CONFIG_", 9) == 0 &&
		    strncmp(line + 9, name, len) == 0 &&
		    strncmp(line + 9 + len, " is not set", 11) == 0)
			return 'n';
		line += n;
		if (*line)
			line++;
	}
	return 0;
}

void kernel_config_free(struct kernel_config *c)
{
	free(c->text);
	memset(c, 0, sizeof(*c));
}

/* "6.1.192" at s (digits and two dots, then anything but a digit or dot),
 * into buf; false when s does not start so. */
static bool copy_version(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	int dots = 0;

	while ((s[n] >= '0' && s[n] <= '9') ||
	       (s[n] == '.' && dots < 2 && n && s[n - 1] != '.'))
		dots += s[n++] == '.';
	if (dots < 2 || s[n - 1] == '.' || n >= len)
		return false;
	snprintf(buf, len, "%.*s", (int)n, s);
	return true;
}

const char *kernel_upstream_from_uname(const char *release, const char *version,
				       char *buf, size_t len)
{
	const char *debian = version ? strstr(version, "Debian ") : NULL;

	buf[0] = '\0';
	if (debian && copy_version(debian + 7, buf, len))
		return buf;
	if (release && copy_version(release, buf, len))
		return buf;
	buf[0] = '\0';
	return buf;
}

const char *kernel_upstream_version(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u) < 0) {
		buf[0] = '\0';
		return buf;
	}
	return kernel_upstream_from_uname(u.release, u.version, buf, len);
}

const char *kernel_release(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u) < 0)
		u.release[0] = '\0';
	snprintf(buf, len, "%s", u.release);
	return buf;
}
