/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The seam between module loading and unload (src/modules.c,
 * src/cmd-unload.c) and what does the work: libkmod through dlopen()
 * (src/kmod-libkmod.c, the default), or modules.alias, `modprobe -b` and
 * delete_module(2) (src/kmod-modprobe.c, the static build: Debian has no
 * libkmod.a).  configure builds exactly one of the two.
 */

/* For fbclassctl --version: "dlopen libkmod.so.2", ... */
extern const char fb_kmod_backend_name[];

struct fb_kmod;

/* 0, or -errno (reported once where the cause is known). */
int fb_kmod_new(struct fb_kmod **k);
void fb_kmod_free(struct fb_kmod *k);

/* Each module a modalias resolves to, once (a module may match it on
 * several alias lines); path NULL for a built-in one.  0 or -errno. */
typedef void (*fb_kmod_match_fn)(struct fb_kmod *k, const char *name, const char *path,
				 void *userdata);
int fb_kmod_lookup(struct fb_kmod *k, const char *alias, fb_kmod_match_fn fn,
		   void *userdata);

/* Load name and its dependencies, honouring blacklists: 0 loaded, > 0
 * blacklisted (not loaded), or -errno. */
int fb_kmod_insert(struct fb_kmod *k, const char *name);

/* Is name kept out by a "blacklist NAME" line of the modprobe
 * configuration (or modprobe.blacklist= on the kernel command line)?
 * 1 yes, 0 no, or -errno. */
int fb_kmod_blacklisted(struct fb_kmod *k, const char *name);

/* Refcount of a loaded module, or -errno (-ENOENT: not loaded). */
long fb_kmod_refcnt(struct fb_kmod *k, const char *name);

/* Remove name if its refcount is still 0 (else -EBUSY), without waiting.
 * 0 or -errno. */
int fb_kmod_remove(struct fb_kmod *k, const char *name);
