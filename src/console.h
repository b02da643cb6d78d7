/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once
/*
 * fbcon's map of virtual consoles to framebuffers (FBIOGET_CON2FBMAP,
 * FBIOPUT_CON2FBMAP), and the repaint con2fbmap leaves out: a console
 * moved while it is the one in front stays dark until something redraws
 * it, so fb_console_map_set() switches the foreground VT to graphics mode
 * and back, on which fbcon redraws it (as bench's restore does).
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
