/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * openloop DEV READYFILE: open DEV, ask it for its mode (FBIOGET_VSCREENINFO)
 * and close it, in a tight loop until SIGTERM or SIGINT; then print "opens
 * N failures M orphaned K" and exit 0.  K counts the opens whose ioctl
 * failed with ENODEV: the framebuffer was unregistered while this process
 * held it open (what unload must never let happen).  READYFILE is made
 * after the first open that succeeded.  The racer of the VM's unload
 * scenario; like every guest helper it shares no code with fbclassctl.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char *argv[])
{
	struct sigaction sa;
	struct fb_var_screeninfo var;
	unsigned long opens = 0, failures = 0, orphaned = 0;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: openloop DEV READYFILE\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop) {
		fd = open(argv[1], O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			failures++;
			continue;
		}
		if (opens++ == 0) {
			int r = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				     0644);

			if (r >= 0)
				close(r);
		}
		if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0 && errno == ENODEV)
			orphaned++;
		close(fd);
	}
	printf("opens %lu failures %lu orphaned %lu\n", opens, failures, orphaned);
	return 0;
}
