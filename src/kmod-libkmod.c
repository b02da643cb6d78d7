/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The module seam through libkmod (dlopen()ed): see kmod.h. */
#include <errno.h>
#include <libkmod.h>
#include <stdlib.h>
#include <string.h>

#include "dlopen.h"
#include "kmod.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"

/*
 * libkmod is opened on first use instead of linked: linked, it brings
 * libcrypto, libzstd and liblzma (about 1.7 MiB of resident pages) into
 * every fbclassctl process, while only module loading and unload need it.
 */
#define LIBKMOD_SONAME "libkmod.so.2"

const char fb_kmod_backend_name[] = "dlopen " LIBKMOD_SONAME;
FB_DLOPEN_NOTE(
	kmod, "kmod",
	"load display drivers (coldplug and daemon --load-modules), unload, doctor's driver checks",
	"recommended", LIBKMOD_SONAME);

#define LIBKMOD_SYMBOLS(X)                 \
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
	X(kmod_module_apply_filter)        \
	X(kmod_module_remove_module)

static struct {
#define LIBKMOD_FIELD(f) typeof(f) *f;
	LIBKMOD_SYMBOLS(LIBKMOD_FIELD)
#undef LIBKMOD_FIELD
} sym;

static int libkmod_open(void)
{
#define LIBKMOD_DLSYM(f) FB_DLSYM(f, sym.f),
	static const struct fb_dlsym syms[] = { LIBKMOD_SYMBOLS(LIBKMOD_DLSYM) };
#undef LIBKMOD_DLSYM
	static int state = FB_DL_UNTRIED;

	return fb_dlopen_many(&state, LOG_ERR, NULL, LIBKMOD_SONAME, "libkmod2", syms,
			      ARRAY_SIZE(syms));
}

struct fb_kmod {
	struct kmod_ctx *ctx;
};

int fb_kmod_new(struct fb_kmod **k)
{
	int r = libkmod_open();

	*k = NULL;
	if (r < 0)
		return r;
	*k = calloc(1, sizeof(**k));
	if (!*k)
		return -ENOMEM;
	/* the tests' FBCLASSCTL_MODULE_DIR, as the static build reads it */
	const char *dir = getenv("FBCLASSCTL_MODULE_DIR");

	(*k)->ctx = sym.kmod_new(dir && *dir ? dir : NULL, NULL);
	if (!(*k)->ctx) {
		free(*k);
		*k = NULL;
		return -ENOMEM;
	}
	return 0;
}

void fb_kmod_free(struct fb_kmod *k)
{
	if (!k)
		return;
	sym.kmod_unref(k->ctx);
	free(k);
}

int fb_kmod_lookup(struct fb_kmod *k, const char *alias, fb_kmod_match_fn fn,
		   void *userdata)
{
	struct kmod_list *list = NULL, *it;
	char **seen = NULL;
	size_t n_seen = 0, cap = 0;
	int r = sym.kmod_module_new_from_lookup(k->ctx, alias, &list);

	if (r < 0)
		return r;
	for (it = list; r == 0 && it; it = sym.kmod_list_next(list, it)) {
		struct kmod_module *mod = sym.kmod_module_get_module(it);
		const char *name = sym.kmod_module_get_name(mod);

		if (!strv_contains(seen, n_seen, name)) {
			r = strv_push(&seen, &n_seen, &cap, strdup(name));
			if (r == 0)
				fn(k, name, sym.kmod_module_get_path(mod), userdata);
		}
		sym.kmod_module_unref(mod);
	}
	sym.kmod_module_unref_list(list);
	strv_free(seen, n_seen);
	return r;
}

int fb_kmod_insert(struct fb_kmod *k, const char *name)
{
	struct kmod_module *mod = NULL;
	int r = sym.kmod_module_new_from_name(k->ctx, name, &mod);

	if (r < 0)
		return r;
	r = sym.kmod_module_probe_insert_module(mod, KMOD_PROBE_APPLY_BLACKLIST, NULL,
						NULL, NULL, NULL);
	sym.kmod_module_unref(mod);
	return r;
}

int fb_kmod_blacklisted(struct fb_kmod *k, const char *name)
{
	struct kmod_list *list = NULL, *kept = NULL;
	int r = sym.kmod_module_new_from_lookup(k->ctx, name, &list);

	if (r < 0)
		return r;
	if (!list)
		return -ENOENT;
	r = sym.kmod_module_apply_filter(k->ctx, KMOD_FILTER_BLACKLIST, list, &kept);
	if (r == 0)
		r = kept == NULL;
	sym.kmod_module_unref_list(kept);
	sym.kmod_module_unref_list(list);
	return r;
}

long fb_kmod_refcnt(struct fb_kmod *k, const char *name)
{
	struct kmod_module *mod = NULL;
	long r;

	if (sym.kmod_module_new_from_name(k->ctx, name, &mod) < 0)
		return -ENOENT;
	r = sym.kmod_module_get_refcnt(mod);
	sym.kmod_module_unref(mod);
	return r;
}

int fb_kmod_remove(struct fb_kmod *k, const char *name)
{
	struct kmod_module *mod = NULL;
	int r = sym.kmod_module_new_from_name(k->ctx, name, &mod);

	if (r < 0)
		return r;
	/* refcount rechecked at the last moment: still 0 */
	if (sym.kmod_module_get_refcnt(mod) != 0)
		r = -EBUSY;
	else
		r = sym.kmod_module_remove_module(mod, 0);
	sym.kmod_module_unref(mod);
	return r;
}
