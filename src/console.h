/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once
/*
 * fbcon's map of virtual consoles to framebuffers (FBIOGET_CON2FBMAP,
 * FBIOPUT_CON2FBMAP), and the repaint con2fbmap leaves out: a console
 * moved while it is the one in front stays dark until something redraws
 * it, so fb_console_map_set() switches the foreground VT to graphics mode
 * and back, on which fbcon redraws it (as bench's restore does).
 * Then what setterm and echo into sysfs do: blank a framebuffer
 * (FBIOBLANK), fbcon's rotation and its cursor's blinking (the fbcon
 * device's attributes in SYSROOT/class/graphics/fbcon).
 */
#include <stdbool.h>

/* The kernel's MAX_NR_CONSOLES: consoles are 1..63. */
#define FB_CONSOLE_MAX 63

/* map[i]: the fb index console i + 1 is drawn on; asked through fd, an
 * open framebuffer.  0, or -errno: -EINVAL or -ENOTTY where the kernel
 * has no fbcon. */
int fb_console_map_read(int fd, int map[FB_CONSOLE_MAX]);

/* tty0, the foreground VT, opened read-write: from devdir, else through a
 * private node (an initramfs's bare /dev) as root.  An fd or -errno. */
int fb_console_tty0_open(const char *devdir);

/* The foreground virtual console (VT_GETSTATE on tty0), or -errno. */
int fb_console_front(const char *devdir);

/*
 * Draw console (1..FB_CONSOLE_MAX) on framebuffer index fb, asked through
 * fd, then read the map back: -EIO when the kernel took the request but
 * the console is not there (fbcon refuses quietly when that fb cannot
 * hold a console).  When the console is the one in front and in text
 * mode, it is repainted (*repainted set).  0 or -errno.
 */
int fb_console_map_set(int fd, const char *devdir, unsigned console, unsigned fb,
		       bool *repainted);

/* FBIOBLANK's levels by name: "unblank", "normal", "vsync", "hsync",
 * "powerdown" (FB_BLANK_UNBLANK .. FB_BLANK_POWERDOWN), or -EINVAL. */
int fb_console_blank_level(const char *name);
/* FBIOBLANK on fd, an open framebuffer: 0 or -errno (-EINVAL where the
 * driver cannot blank). */
int fb_console_blank(int fd, int level);

/*
 * fbcon's rotation in degrees (0, 90, 180, 270): of the console in front
 * (fbcon/rotate: the framebuffer it is on) or, all, of every console
 * (fbcon/rotate_all), then read back from fbcon/rotate.  0 or -errno:
 * -ENOENT without fbcon, -EIO when the read-back is not what was asked.
 */
int fb_console_rotate_set(const char *sysroot, unsigned degrees, bool all);
/* The rotation of the console in front in degrees, or -errno. */
int fb_console_rotate_get(const char *sysroot);

/* fbcon/cursor_blink on or off, then read back: 0 or -errno (-EIO when
 * the read-back differs).  get: 1, 0 or -errno. */
int fb_console_cursor_blink_set(const char *sysroot, bool on);
int fb_console_cursor_blink_get(const char *sysroot);
