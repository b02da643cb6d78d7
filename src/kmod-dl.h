/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * libkmod, opened on first use instead of linked.  Linked, it brings
 * libcrypto, libzstd and liblzma (about 1.7 MiB of resident pages) into
 * every fbclassctl process, while only module loading and unload need it.
 *
 * Include this after <libkmod.h>: the kmod_* names below then refer to
 * pointers that fb_libkmod_open() fills in.  Call it, and check for 0,
 * before the first kmod_* call.
 */

#include <libkmod.h>

#define FB_LIBKMOD_SONAME "libkmod.so.2"

#define FB_KMOD_SYMBOLS(X)                 \
	X(kmod_new)                        \
	X(kmod_unref)                      \
	X(kmod_list_next)                  \
	X(kmod_module_new_from_lookup)     \
	X(kmod_module_new_from_name)       \
	X(kmod_module_get_module)          \
	X(kmod_module_get_name)            \
	X(kmod_module_get_path)            \
	X(kmod_module_get_refcnt)          \
	X(kmod_module_unref)               \
	X(kmod_module_unref_list)          \
	X(kmod_module_probe_insert_module) \
	X(kmod_module_remove_module)

#define FB_KMOD_DECLARE(f) extern typeof(f) *fb_sym_##f;
FB_KMOD_SYMBOLS(FB_KMOD_DECLARE)
#undef FB_KMOD_DECLARE

#ifndef FB_KMOD_DL_IMPL
#define kmod_new			fb_sym_kmod_new
#define kmod_unref			fb_sym_kmod_unref
#define kmod_list_next			fb_sym_kmod_list_next
#define kmod_module_new_from_lookup	fb_sym_kmod_module_new_from_lookup
#define kmod_module_new_from_name	fb_sym_kmod_module_new_from_name
#define kmod_module_get_module		fb_sym_kmod_module_get_module
#define kmod_module_get_name		fb_sym_kmod_module_get_name
#define kmod_module_get_path		fb_sym_kmod_module_get_path
#define kmod_module_get_refcnt		fb_sym_kmod_module_get_refcnt
#define kmod_module_unref		fb_sym_kmod_module_unref
#define kmod_module_unref_list		fb_sym_kmod_module_unref_list
#define kmod_module_probe_insert_module fb_sym_kmod_module_probe_insert_module
#define kmod_module_remove_module	fb_sym_kmod_module_remove_module
#endif

/* 0 when libkmod is usable; else -ENOENT, reported once (naming the
 * Debian package), and every later call returns it again at once. */
int fb_libkmod_open(void);
