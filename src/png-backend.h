/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * libpng, opened on first use instead of linked.  Linked, it brings libz
 * and libm into every fbclassctl process (the daemon, coldplug), while only
 * snap and bench --snap write a PNG.
 *
 * Include this after <png.h> in the one file that calls libpng (snap.c):
 * the png_* names below then refer to pointers that fb_libpng_open() fills
 * in.  Call it, and check for 0, before the first png_* call.
 */

#include <png.h>

#define FB_LIBPNG_SONAME "libpng16.so.16"

/* "dlopen libpng16.so.16", or "static" (src/png-static.c), for --version. */
extern const char fb_png_backend_name[];

#define FB_PNG_SYMBOLS(X)           \
	X(png_create_write_struct)  \
	X(png_create_info_struct)   \
	X(png_destroy_write_struct) \
	X(png_get_error_ptr)        \
	X(png_init_io)              \
	X(png_set_IHDR)             \
	X(png_write_info)           \
	X(png_write_row)            \
	X(png_write_end)

#define FB_PNG_DECLARE(f) extern typeof(f) *fb_sym_##f;
FB_PNG_SYMBOLS(FB_PNG_DECLARE)
#undef FB_PNG_DECLARE

#ifndef FB_PNG_DL_IMPL
#define png_create_write_struct	 fb_sym_png_create_write_struct
#define png_create_info_struct	 fb_sym_png_create_info_struct
#define png_destroy_write_struct fb_sym_png_destroy_write_struct
#define png_get_error_ptr	 fb_sym_png_get_error_ptr
#define png_init_io		 fb_sym_png_init_io
#define png_set_IHDR		 fb_sym_png_set_IHDR
#define png_write_info		 fb_sym_png_write_info
#define png_write_row		 fb_sym_png_write_row
#define png_write_end		 fb_sym_png_write_end
#endif

/* 0 when libpng is usable; else -ELIBACC, reported once as
 * "WHO: cannot load libpng16.so.16 (Debian package libpng16-16): REASON"
 * (src/dlopen.h), and every later call returns it again at once. */
int fb_libpng_open(const char *who);
