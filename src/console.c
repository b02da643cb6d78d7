/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbcon's console map and the repaint: see console.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "console.h"
#include "fbinfo_ioctl.h"
#include "log.h"

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
