/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The module seam through libkmod (dlopen()ed): see kmod-backend.h. */
#include "config.h"

#include <errno.h>
#include <libkmod.h>
#include <stdlib.h>

#include "kmod-backend.h"
#include "kmod-dl.h"

const char fb_kmod_backend_name[] = "dlopen " FB_LIBKMOD_SONAME;

struct fb_kmod {
	struct kmod_ctx *ctx;
};

int fb_kmod_new(struct fb_kmod **k)
{
	int r = fb_libkmod_open();

	*k = NULL;
	if (r < 0)
		return r;
	*k = calloc(1, sizeof(**k));
	if (!*k)
		return -ENOMEM;
	(*k)->ctx = kmod_new(NULL, NULL);
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
	kmod_unref(k->ctx);
	free(k);
}

int fb_kmod_lookup(struct fb_kmod *k, const char *alias, fb_kmod_match_fn fn,
		   void *userdata)
{
	struct kmod_list *list = NULL, *it;
	int r = kmod_module_new_from_lookup(k->ctx, alias, &list);

	if (r < 0)
		return r;
	kmod_list_foreach(it, list)
	{
		struct kmod_module *mod = kmod_module_get_module(it);

		fn(k, kmod_module_get_name(mod), kmod_module_get_path(mod), userdata);
		kmod_module_unref(mod);
	}
	kmod_module_unref_list(list);
	return 0;
}

int fb_kmod_insert(struct fb_kmod *k, const char *name)
{
	struct kmod_module *mod = NULL;
	int r = kmod_module_new_from_name(k->ctx, name, &mod);

	if (r < 0)
		return r;
	r = kmod_module_probe_insert_module(mod, KMOD_PROBE_APPLY_BLACKLIST, NULL, NULL,
					    NULL, NULL);
	kmod_module_unref(mod);
	return r;
}

long fb_kmod_refcnt(struct fb_kmod *k, const char *name)
{
	struct kmod_module *mod = NULL;
	long r;

	if (kmod_module_new_from_name(k->ctx, name, &mod) < 0)
		return -ENOENT;
	r = kmod_module_get_refcnt(mod);
	kmod_module_unref(mod);
	return r;
}

int fb_kmod_remove(struct fb_kmod *k, const char *name)
{
	struct kmod_module *mod = NULL;
	int r = kmod_module_new_from_name(k->ctx, name, &mod);

	if (r < 0)
		return r;
	/* refcount rechecked at the last moment: still 0 */
	if (kmod_module_get_refcnt(mod) != 0)
		r = -EBUSY;
	else
		r = kmod_module_remove_module(mod, 0);
	kmod_module_unref(mod);
	return r;
}
