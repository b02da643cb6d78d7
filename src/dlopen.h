/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The one way fbclassctl dlopen()s an optional library (libkmod,
 * libsmartcols, libpng, pixman), in the manner of systemd's
 * dlopen_many_sym_or_warn(): a library is opened on first use, so that the
 * daemon and the boot-time coldplug map none of them, and every symbol is
 * resolved at once, so that a missing one is one clear message up front
 * rather than a crash later.
 */

#include <stddef.h>
#include <stdint.h>

/* One symbol: its name and the pointer that receives its address. */
struct fb_dlsym {
	const char *name;
	void **addr;
};
#define FB_DLSYM(sym, var)            \
	{                             \
#sym, (void **)&(var) \
	}

/* What is known of one library: start it at FB_DL_UNTRIED. */
enum fb_dl_state { FB_DL_UNTRIED = 1, FB_DL_LOADED = 0 };

/*
 * dlopen(soname) and resolve every symbol of syms, once: *state keeps the
 * outcome for later calls.  On failure the reason is said once, at
 * priority prio, as "[WHO: ]cannot load SONAME (Debian package PACKAGE):
 * REASON", and -ELIBACC is returned then and at every later call; who may
 * be NULL.  0 when every symbol was found.  The library stays loaded.
 */
int fb_dlopen_many(int *state, int prio, const char *who, const char *soname,
		   const char *package, const struct fb_dlsym *syms, size_t n);

/*
 * What a binary dlopen()s, for packagers and initramfs builders, which see
 * only what ldd names: a note in section .note.dlopen in the freedesktop
 * "ELF dlopen metadata" format (systemd's): owner "FDO", type 0x407c0c0a,
 * and as descriptor a JSON array of objects with "feature", "description",
 * "priority" (required, recommended or suggested) and "soname" (an array).
 * FB_DLOPEN_NOTE(kmod, "kmod", "loading display drivers, unload",
 * "recommended", "libkmod.so.2") next to the dlopen() it describes.
 */
#define FB_DLOPEN_NOTE_TYPE UINT32_C(0x407c0c0a)
#define FB_DLOPEN_NOTE(id, feature, description, priority, soname)                       \
	FB_DLOPEN_NOTE_JSON(id, "[{\"feature\":\"" feature                               \
				"\",\"description\":\"" description                      \
				"\",\"priority\":\"" priority "\",\"soname\":[\"" soname \
				"\"]}]")
#define FB_DLOPEN_NOTE_JSON(id, json)                                                    \
	__attribute__((used, section(".note.dlopen"))) _Alignas(4) static const struct { \
		uint32_t namesz, descsz, type;                                           \
		char name[4];                                                            \
		_Alignas(4) char desc[sizeof(json)];                                     \
	} fb_dlopen_note_##id = { 4, sizeof(json), FB_DLOPEN_NOTE_TYPE, "FDO", json }
