/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Preloaded by tests/ns/run.sh, where coldplug makes a node that its
 * listing of the dev dir found absent.  Such a node is born under its own
 * name (mknodat(), on a tmpfs) or made under a temporary one and moved
 * there (renameat2() with RENAME_NOREPLACE).
 *   FBNS_RACE=file    the first of them meets a regular file put at the
 *                     name first, as a racer would
 *   FBNS_RACE=einval  that renameat2() fails with EINVAL, as on a file
 *                     system without RENAME_NOREPLACE
 *   FBNS_RACE=trace   each mknodat() and renameat2() appends a line with
 *                     its names to the file $FBNS_TRACE
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h> /* RENAME_NOREPLACE */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int done;

static bool mode_is(const char *want)
{
	const char *race = getenv("FBNS_RACE");

	return race && strcmp(race, want) == 0;
}

static void trace(const char *what, const char *a, const char *b)
{
	const char *path = getenv("FBNS_TRACE");
	FILE *f;

	if (!mode_is("trace") || !path || !(f = fopen(path, "ae")))
		return;
	fprintf(f, "%s %s%s%s\n", what, a, b ? " " : "", b ? b : "");
	fclose(f);
}

/* The racer: a regular file at dirfd/name, once. */
static void race_file(int dirfd, const char *name)
{
	int fd;

	done = 1;
	fd = openat(dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}

int mknodat(int dirfd, const char *name, mode_t mode, dev_t dev)
{
	static int (*real)(int, const char *, mode_t, dev_t);

	if (!real)
		real = (int (*)(int, const char *, mode_t, dev_t))dlsym(RTLD_NEXT,
									"mknodat");
	trace("mknodat", name, NULL);
	if (!done && mode_is("file") && strncmp(name, ".fbclassctl-", 12) != 0)
		race_file(dirfd, name);
	return real(dirfd, name, mode, dev);
}

int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
	      unsigned int flags)
{
	static int (*real)(int, const char *, int, const char *, unsigned int);

	if (!real)
		real = (int (*)(int, const char *, int, const char *,
				unsigned int))dlsym(RTLD_NEXT, "renameat2");
	trace("renameat2", oldpath, newpath);
	if (!done && (flags & RENAME_NOREPLACE)) {
		if (mode_is("einval")) {
			done = 1;
			errno = EINVAL;
			return -1;
		}
		if (mode_is("file"))
			race_file(newdirfd, newpath);
	}
	return real(olddirfd, oldpath, newdirfd, newpath, flags);
}
