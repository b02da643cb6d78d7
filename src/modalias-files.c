/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* modules.alias / modules.dep without libkmod: see modalias-files.h. */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "log.h"
#include "modalias-files.h"

#define MOD_PATH_MAX  4096
#define MOD_MATCH_MAX 32

int fb_module_dir(char *buf, size_t len)
{
	const char *env = getenv("FBCLASSCTL_MODULE_DIR");
	struct utsname u;
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (uname(&u) < 0)
		return -errno;
	else
		n = snprintf(buf, len, "/lib/modules/%s", u.release);
	if (n < 0 || (size_t)n >= len) {
		ERR("module directory: path too long");
		return -ENAMETOOLONG;
	}
	return 0;
}

/* libkmod's names: '-' and '_' are the same. */
static void normalize(char *name)
{
	for (; *name; name++)
		if (*name == '-')
			*name = '_';
}

struct matches {
	char *name[MOD_MATCH_MAX];
	bool builtin[MOD_MATCH_MAX];
	size_t n;
};

static bool matches_has(const struct matches *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->name[i], name) == 0)
			return true;
	return false;
}

/* Each "alias PATTERN NAME" of file whose PATTERN matches alias. */
static int read_aliases(const char *moddir, const char *file, const char *alias,
			bool builtin, struct matches *m)
{
	char path[MOD_PATH_MAX], *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", moddir, file) >= sizeof(path)) {
		ERR("%s/%s: path too long", moddir, file);
		return -ENAMETOOLONG;
	}
	f = fopen(path, "re");
	if (!f) {
		int e = errno;

		if (builtin && e == ENOENT)
			return 0; /* optional */
		ERR("%s: cannot open: %s", path, strerror(e));
		return -e;
	}
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *kw, *pat, *name;

		lineno++;
		kw = strtok_r(line, " \t\n", &save);
		if (!kw || *kw == '#')
			continue;
		pat = strtok_r(NULL, " \t\n", &save);
		name = strtok_r(NULL, " \t\n", &save);
		if (strcmp(kw, "alias") != 0 || !pat || !name ||
		    strtok_r(NULL, " \t\n", &save)) {
			WRN("%s:%u: malformed line; skipped (want: alias PATTERN NAME)",
			    path, lineno);
			continue;
		}
		if (fnmatch(pat, alias, 0) != 0)
			continue;
		normalize(name);
		if (matches_has(m, name) || m->n == MOD_MATCH_MAX)
			continue;
		m->name[m->n] = strdup(name);
		if (!m->name[m->n])
			break;
		m->builtin[m->n++] = builtin;
	}
	free(line);
	fclose(f);
	return 0;
}

/* The path of module name in modules.dep, absolute, malloc'd; NULL when
 * it is not there. */
static char *dep_path(const char *moddir, const char *name)
{
	char path[MOD_PATH_MAX], *line = NULL, *found = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/modules.dep", moddir) >= sizeof(path))
		return NULL;
	f = fopen(path, "re");
	if (!f) {
		WRN("%s: cannot open: %m", path);
		return NULL;
	}
	while (!found && getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':'), *base, *dot, mod[256];

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!colon || colon == line) {
			WRN("%s:%u: malformed line; skipped (want: PATH: DEPS)", path,
			    lineno);
			continue;
		}
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		if ((size_t)snprintf(mod, sizeof(mod), "%s", base) >= sizeof(mod))
			continue;
		dot = strstr(mod, ".ko");
		if (dot)
			*dot = '\0';
		normalize(mod);
		if (strcmp(mod, name) != 0)
			continue;
		if (line[0] == '/')
			found = strdup(line);
		else if (asprintf(&found, "%s/%s", moddir, line) < 0)
			found = NULL;
		if (found && strlen(found) >= MOD_PATH_MAX) {
			WRN("%s:%u: path too long; skipped", path, lineno);
			free(found);
			found = NULL;
		}
	}
	free(line);
	fclose(f);
	return found;
}

int fb_modalias_lookup(const char *moddir, const char *alias, fb_modalias_fn fn,
		       void *userdata)
{
	struct matches m = { .n = 0 };
	int r;

	r = read_aliases(moddir, "modules.alias", alias, false, &m);
	if (r == 0)
		r = read_aliases(moddir, "modules.builtin.alias", alias, true, &m);
	for (size_t i = 0; i < m.n; i++) {
		char *path = r == 0 && !m.builtin[i] ? dep_path(moddir, m.name[i]) : NULL;

		if (r == 0)
			fn(m.name[i], path, userdata);
		free(path);
		free(m.name[i]);
	}
	return r < 0 ? r : (int)m.n;
}
