/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * uevent-forge ACTION DEVPATH [VAR=VALUE...]: send a uevent to netlink
 * group 1 from this (root) process, as a forger would: the sender's nl_pid
 * is our pid, not the kernel's 0.  The daemon must ignore it; busybox
 * mdev -d does not.  Test-only, packed into the VM's initramfs.
 */
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	struct sockaddr_nl self = { .nl_family = AF_NETLINK },
			   group = { .nl_family = AF_NETLINK };
	char buf[4096];
	size_t n = 0;
	int fd, k;

	if (argc < 3) {
		fprintf(stderr, "usage: uevent-forge ACTION DEVPATH [VAR=VALUE...]\n");
		return 2;
	}
	k = snprintf(buf, sizeof(buf), "%s@%s", argv[1], argv[2]);
	n += (size_t)k + 1;
	k = snprintf(buf + n, sizeof(buf) - n, "ACTION=%s", argv[1]);
	n += (size_t)k + 1;
	k = snprintf(buf + n, sizeof(buf) - n, "DEVPATH=%s", argv[2]);
	n += (size_t)k + 1;
	for (int i = 3; i < argc && n < sizeof(buf); i++) {
		k = snprintf(buf + n, sizeof(buf) - n, "%s", argv[i]);
		n += (size_t)k + 1;
	}
	if (n > sizeof(buf)) {
		fprintf(stderr, "uevent-forge: message too long\n");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0) {
		perror("uevent-forge: socket");
		return 1;
	}
	self.nl_pid = (unsigned)getpid();
	if (bind(fd, (struct sockaddr *)&self, sizeof(self)) < 0) {
		perror("uevent-forge: bind");
		return 1;
	}
	group.nl_groups = 1;
	if (sendto(fd, buf, n, 0, (struct sockaddr *)&group, sizeof(group)) < 0) {
		perror("uevent-forge: sendto group 1");
		return 1;
	}
	close(fd);
	return 0;
}
