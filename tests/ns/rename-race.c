/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Preloaded by tests/ns/run.sh: the first renameat2() with
 * RENAME_NOREPLACE meets what coldplug did not see when it listed the dev
 * dir.  FBNS_RACE=file: a regular file is put at the name first, as a
 * racer would; FBNS_RACE=einval: it fails with EINVAL, as on a file system
 * without RENAME_NOREPLACE.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* RENAME_NOREPLACE */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
	      unsigned int flags)
{
	static int (*real)(int, const char *, int, const char *, unsigned int);
	static int done;
	const char *race = getenv("FBNS_RACE");

	if (!real)
		real = (int (*)(int, const char *, int, const char *,
				unsigned int))dlsym(RTLD_NEXT, "renameat2");
	if (!done && race && (flags & RENAME_NOREPLACE)) {
		done = 1;
		if (strcmp(race, "einval") == 0) {
			errno = EINVAL;
			return -1;
		}
		int fd = openat(newdirfd, newpath,
				O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);

		if (fd >= 0)
			close(fd);
	}
	return real(olddirfd, oldpath, newdirfd, newpath, flags);
}
