/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * uevent-sink: listen to the kernel's uevents and throw them away, one
 * blocking read(2) each, until killed.  The VM bench runs it next to the
 * daemons: what waking once per event costs a process that does nothing
 * else (mdev -d wakes once per event too), and the resident size of a
 * plain dynamic glibc program.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int size = 16 << 20;
	static char buf[8192];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("uevent-sink: kernel uevent socket");
		return 1;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		perror("uevent-sink: SO_RCVBUFFORCE");
	for (;;)
		if (read(fd, buf, sizeof(buf)) < 0 && errno != ENOBUFS && errno != EINTR) {
			perror("uevent-sink: read");
			return 1;
		}
}
