/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* dlopen() of an optional library: see dlopen.h. */
#include <dlfcn.h>
#include <errno.h>

#include "dlopen.h"
#include "log.h"

static int dl_fail(int *state, int prio, const char *who, const char *soname,
		   const char *package, const char *reason)
{
	log_msg(prio, "%s%scannot load %s (Debian package %s): %s", who ? who : "",
		who ? ": " : "", soname, package, reason ? reason : "unknown error");
	return *state = -ELIBACC;
}

int fb_dlopen_many(int *state, int prio, const char *who, const char *soname,
		   const char *package, const struct fb_dlsym *syms, size_t n)
{
	void *h;

	if (*state <= 0)
		return *state;
	h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return dl_fail(state, prio, who, soname, package, dlerror());
	for (size_t i = 0; i < n; i++) {
		*syms[i].addr = dlsym(h, syms[i].name);
		if (!*syms[i].addr) {
			const char *reason = dlerror();

			for (size_t j = 0; j < n; j++)
				*syms[j].addr = NULL;
			dlclose(h);
			return dl_fail(state, prio, who, soname, package, reason);
		}
	}
	return *state = FB_DL_LOADED;
}
