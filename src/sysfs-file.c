/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One sysfs file read, below every reader of the seam: see sysfs-file.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "macro.h"
#include "sysfs-file.h"

int sysfs_file_read_at(int dirfd, const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t n = 0;

	if (fd < 0)
		return -errno;
	while (n < size - 1) {
		size_t want = size - 1 - n;
		ssize_t r = read(fd, buf + n, want);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		n += (size_t)r;
		if ((size_t)r < want) /* the end: nothing more to ask for */
			break;
	}
	buf[n] = '\0';
	return memchr(buf, '\0', n) ? -EINVAL : (int)n;
}

int sysfs_file_read_attr(const char *syspath, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", syspath, name) >= sizeof(path))
		return -ENAMETOOLONG;
	return sysfs_file_read_at(AT_FDCWD, path, buf, size);
}

int sysfs_file_write(const char *path, const char *value)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t len = strlen(value);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

char *sysfs_file_uevent_value(const char *uevent, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = uevent; *p;) {
		size_t len = strcspn(p, "\n");

		if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=')
			return strndup(p + klen + 1, len - klen - 1);
		p += len;
		if (*p == '\n')
			p++;
	}
	return NULL;
}
