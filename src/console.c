/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbcon's console map and the repaint: see console.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "console.h"
#include "fbinfo_ioctl.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "sysfs-file.h"

int fb_console_map_read(int fd, int map[FB_CONSOLE_MAX])
{
	for (unsigned i = 0; i < FB_CONSOLE_MAX; i++) {
		struct fb_con2fbmap m = { .console = i + 1 };

		if (ioctl(fd, FBIOGET_CON2FBMAP, &m) < 0)
			return -errno;
		map[i] = (int)m.framebuffer;
	}
	return 0;
}

int fb_console_tty0_open(const char *devdir)
{
	return fb_chrdev_open(devdir, "tty0", makedev(4, 0), O_RDWR, true, NULL);
}

int fb_console_front(const char *devdir)
{
	struct vt_stat st;
	int fd = fb_console_tty0_open(devdir), r;

	if (fd < 0)
		return fd;
	r = ioctl(fd, VT_GETSTATE, &st) < 0 ? -errno : st.v_active;
	close(fd);
	return r;
}

/* KD_GRAPHICS and back to KD_TEXT: fbcon redraws the console in front on
 * its way back to text mode.  True when done. */
static bool repaint_front(const char *devdir)
{
	int fd = fb_console_tty0_open(devdir), mode;
	bool done = false;

	if (fd < 0)
		return false;
	if (ioctl(fd, KDGETMODE, &mode) == 0 && mode == KD_TEXT &&
	    ioctl(fd, KDSETMODE, KD_GRAPHICS) == 0) {
		done = ioctl(fd, KDSETMODE, KD_TEXT) == 0;
		if (!done)
			WRN("%s/tty0: cannot switch the console back to text mode: %m",
			    devdir);
	}
	close(fd);
	return done;
}

int fb_console_map_set(int fd, const char *devdir, unsigned console, unsigned fb,
		       bool *repainted)
{
	struct fb_con2fbmap m = { .console = console, .framebuffer = fb };

	*repainted = false;
	if (console < 1 || console > FB_CONSOLE_MAX)
		return -ERANGE;
	if (ioctl(fd, FBIOPUT_CON2FBMAP, &m) < 0)
		return -errno;
	m.framebuffer = ~0u;
	if (ioctl(fd, FBIOGET_CON2FBMAP, &m) < 0)
		return -errno;
	if (m.framebuffer != fb)
		return -EIO;
	if (fb_console_front(devdir) == (int)console)
		*repainted = repaint_front(devdir);
	return 0;
}

static const char *const blank_names[] = {
	[FB_BLANK_UNBLANK] = "unblank",	    [FB_BLANK_NORMAL] = "normal",
	[FB_BLANK_VSYNC_SUSPEND] = "vsync", [FB_BLANK_HSYNC_SUSPEND] = "hsync",
	[FB_BLANK_POWERDOWN] = "powerdown",
};

int fb_console_blank_level(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(blank_names); i++)
		if (strcmp(name, blank_names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

int fb_console_blank(int fd, int level)
{
	return ioctl(fd, FBIOBLANK, (unsigned long)level) < 0 ? -errno : 0;
}

/* SYSROOT/class/graphics/fbcon/NAME into buf; 0 or -errno */
static int fbcon_attr_path(const char *sysroot, const char *name, char *buf, size_t size)
{
	if ((size_t)snprintf(buf, size, "%s/class/graphics/fbcon/%s", sysroot, name) >=
	    size)
		return -ENAMETOOLONG;
	return 0;
}

/* an fbcon attribute that holds a small number: it, or -errno */
static int fbcon_attr_get(const char *sysroot, const char *name)
{
	char path[PATH_MAX], buf[32];
	unsigned long long v;
	int r = fbcon_attr_path(sysroot, name, path, sizeof(path));

	if (r < 0)
		return r;
	r = sysfs_file_read_at(AT_FDCWD, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	buf[strcspn(buf, "\n")] = '\0';
	r = parse_decimal(buf, INT_MAX, &v);
	return r < 0 ? -EBADMSG : (int)v;
}

static int fbcon_attr_set(const char *sysroot, const char *name, unsigned value)
{
	char path[PATH_MAX], buf[16];
	int r = fbcon_attr_path(sysroot, name, path, sizeof(path));

	if (r < 0)
		return r;
	snprintf(buf, sizeof(buf), "%u", value);
	return sysfs_file_write(path, buf);
}

int fb_console_rotate_set(const char *sysroot, unsigned degrees, bool all)
{
	int r;

	if (degrees % 90 || degrees > 270)
		return -EINVAL;
	r = fbcon_attr_set(sysroot, all ? "rotate_all" : "rotate", degrees / 90);
	if (r < 0)
		return r;
	r = fb_console_rotate_get(sysroot);
	return r < 0 ? r : r == (int)degrees ? 0 : -EIO;
}

int fb_console_rotate_get(const char *sysroot)
{
	int r = fbcon_attr_get(sysroot, "rotate");

	return r < 0 ? r : r > 3 ? -EBADMSG : r * 90;
}

int fb_console_cursor_blink_set(const char *sysroot, bool on)
{
	int r = fbcon_attr_set(sysroot, "cursor_blink", on);

	if (r < 0)
		return r;
	r = fb_console_cursor_blink_get(sysroot);
	return r < 0 ? r : r == on ? 0 : -EIO;
}

int fb_console_cursor_blink_get(const char *sysroot)
{
	int r = fbcon_attr_get(sysroot, "cursor_blink");

	return r < 0 ? r : r != 0;
}
