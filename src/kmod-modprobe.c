/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The module seam without libkmod (the static build): modules.alias for
 * the lookup, `modprobe -b` (kmod's or busybox's) to load, /sys/module for
 * the refcount, delete_module(2) to remove.  See kmod.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel.h"
#include "kmod.h"
#include "log.h"
#include "macro.h"
#include "modalias-files.h"
#include "strutil.h"
#include "fbclass.h"

const char fb_kmod_backend_name[] = "modules.alias + modprobe -b";

struct fb_kmod {
	char moddir[4096];
};

int fb_kmod_new(struct fb_kmod **k)
{
	int r;

	*k = calloc(1, sizeof(**k));
	if (!*k)
		return -ENOMEM;
	r = fb_module_dir((*k)->moddir, sizeof((*k)->moddir));
	if (r < 0) {
		free(*k);
		*k = NULL;
	}
	return r;
}

void fb_kmod_free(struct fb_kmod *k)
{
	free(k);
}

struct lookup_ctx {
	struct fb_kmod *k;
	fb_kmod_match_fn fn;
	void *userdata;
	char **seen;
	size_t n_seen, cap;
	int r;
};

static void lookup_match(const char *name, const char *path, void *userdata)
{
	struct lookup_ctx *c = userdata;

	if (c->r < 0 || strv_contains(c->seen, c->n_seen, name))
		return;
	c->r = strv_push(&c->seen, &c->n_seen, &c->cap, strdup(name));
	if (c->r == 0)
		c->fn(c->k, name, path, c->userdata);
}

int fb_kmod_lookup(struct fb_kmod *k, const char *alias, fb_kmod_match_fn fn,
		   void *userdata)
{
	struct lookup_ctx c = { .k = k, .fn = fn, .userdata = userdata };
	int r = fb_modalias_lookup(k->moddir, alias, lookup_match, &c);

	strv_free(c.seen, c.n_seen);
	return r < 0 ? r : c.r;
}

/* modprobe -b exits 0 when the blacklist keeps a module out, as libkmod's
 * own modprobe does: the module is loaded only when /sys/module/NAME is
 * there afterwards; else it counts as blacklisted, as libkmod's > 0. */
int fb_kmod_insert(struct fb_kmod *k, const char *name)
{
	char *const argv[] = { (char *)"modprobe", (char *)"-b", (char *)"--",
			       (char *)name, NULL };
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "fbclassctl: cannot run modprobe: %m\n");
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		char path[512];

		snprintf(path, sizeof(path), "/sys/module/%s", name);
		return access(path, F_OK) == 0 ? 0 : 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return -EIO;
}

/* Module names compare with '-' and '_' alike, as modprobe does. */
static bool module_name_eq(const char *a, const char *b, size_t blen)
{
	size_t i = 0;

	for (; i < blen && a[i]; i++)
		if (a[i] != b[i] && !(strchr("-_", a[i]) && strchr("-_", b[i])))
			return false;
	return !a[i] && i == blen;
}

/* A "blacklist NAME" line for name in one configuration file. */
static bool conf_blacklists(const char *path, const char *name)
{
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		const char *p = line + strspn(line, " \t");
		size_t n;

		if (strncmp(p, "blacklist", 9) != 0 || !strchr(" \t", p[9]))
			continue;
		p += 9 + strspn(p + 9, " \t");
		n = strcspn(p, " \t\n#");
		found = n && module_name_eq(name, p, n);
	}
	fclose(f);
	return found;
}

int fb_kmod_blacklisted(struct fb_kmod *k, const char *name)
{
	static const char *const dirs[] = { "/etc/modprobe.d", "/run/modprobe.d",
					    "/usr/local/lib/modprobe.d",
					    "/lib/modprobe.d", "/usr/lib/modprobe.d" };
	_cleanup_free_ char *cmdline = NULL;
	char list[1024];

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		struct dirent *de;
		DIR *d = opendir(dirs[i]);

		while (d && (de = readdir(d))) {
			char path[4096];
			size_t n = strlen(de->d_name);

			if (n < 6 || strcmp(de->d_name + n - 5, ".conf") != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], de->d_name);
			if (conf_blacklists(path, name)) {
				closedir(d);
				return 1;
			}
		}
		if (d)
			closedir(d);
	}
	/* modprobe.blacklist=a,b on the kernel command line */
	cmdline = kernel_cmdline("/proc");
	if (cmdline &&
	    kernel_cmdline_value(cmdline, "modprobe.blacklist", list, sizeof(list)))
		for (const char *p = list; *p;) {
			size_t n = strcspn(p, ",");

			if (module_name_eq(name, p, n))
				return 1;
			p += n + (p[n] == ',');
		}
	return 0;
}

long fb_kmod_refcnt(struct fb_kmod *k, const char *name)
{
	char path[512], buf[32];
	_cleanup_close_ int fd = -1;
	unsigned v;
	ssize_t n;

	if ((size_t)snprintf(path, sizeof(path), "/sys/module/%s/refcnt", name) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (fb_parse_uint(buf, &v) < 0)
		return -EIO;
	return (long)v;
}

int fb_kmod_remove(struct fb_kmod *k, const char *name)
{
	long refcnt = fb_kmod_refcnt(k, name);

	if (refcnt < 0)
		return (int)refcnt;
	/* refcount rechecked at the last moment: still 0 */
	if (refcnt != 0)
		return -EBUSY;
	if (syscall(SYS_delete_module, name, O_NONBLOCK) < 0)
		return -errno;
	return 0;
}
