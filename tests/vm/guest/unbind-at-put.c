// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * unbind-at-put.so: an LD_PRELOAD library for the VM tier.  Just before a
 * program's first FBIOPUT_VSCREENINFO, it writes a device's name to its
 * driver's unbind file, so that the device vanishes halfway: after the
 * program found it in sysfs and opened its node, before the ioctl.
 *
 *   UNBIND_AT_PUT=/sys/bus/platform/drivers/vfb/unbind:vfb.0 \
 *   LD_PRELOAD=/usr/bin/unbind-at-put.so fbclassctl set fb0 ...
 *
 * The unbind's result goes to stderr as "unbind-at-put: ..." so that the
 * test sees it happened.  For fbclassctl's tests in a throw-away VM only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static void unbind_once(void)
{
	static int done;
	const char *spec = getenv("UNBIND_AT_PUT");
	const char *colon = spec ? strrchr(spec, ':') : NULL;
	char path[256];
	ssize_t n;
	int fd;

	if (done || !colon || (size_t)(colon - spec) >= sizeof(path))
		return;
	done = 1;
	memcpy(path, spec, (size_t)(colon - spec));
	path[colon - spec] = '\0';
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "unbind-at-put: open %s: %s\n", path, strerror(errno));
		return;
	}
	n = write(fd, colon + 1, strlen(colon + 1));
	fprintf(stderr, "unbind-at-put: %s unbound: %s\n", colon + 1,
		n < 0 ? strerror(errno) : "ok");
	close(fd);
}

int ioctl(int fd, unsigned long request, ...)
{
	static int (*real)(int, unsigned long, ...);
	int saved = errno;
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	if (request == FBIOPUT_VSCREENINFO)
		unbind_once();
	errno = saved;
	return real(fd, request, arg);
}
