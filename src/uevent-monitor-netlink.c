/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The uevent monitor (src/uevent-monitor.h) without libudev: our own
 * reader of NETLINK_KOBJECT_UEVENT, multicast group 1 (the kernel's).
 *
 * It believes what libudev's "kernel" monitor believes, and nothing else:
 * a message the kernel sent (sender port 0, SCM_CREDENTIALS with uid 0),
 * not cut short (MSG_TRUNC), and well-formed as
 * uevent_message_parse() checks it (the parser the fuzzer covers).
 * Anything else is dropped with a debug line.  Bounded memory: one fixed
 * buffer.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "uevent-monitor.h"
#include "uevent-message.h"
#include "uevent.h"

#define KERNEL_GROUP 1u
/* The kernel's uevent buffer is 2048 bytes; libudev reads 8192. */
#define MSG_MAX	       8192
#define SUBSYSTEMS_MAX 8

const char fb_monitor_backend_name[] = "netlink";

struct fb_monitor {
	int fd;
	char subsystems[SUBSYSTEMS_MAX][32];
	size_t n_subsystems;
	char buf[MSG_MAX + 1];
	char syspath[FB_UEVENT_DEVPATH_MAX + 8];
};

void fb_monitor_free(struct fb_monitor *m)
{
	if (!m)
		return;
	if (m->fd >= 0)
		close(m->fd);
	free(m);
}

int fb_monitor_open(struct fb_monitor **mp, const char *const *subsystems, size_t n,
		    unsigned buffer_size)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = KERNEL_GROUP };
	struct fb_monitor *m;
	int on = 1, r;

	*mp = NULL;
	if (n > SUBSYSTEMS_MAX)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		snprintf(m->subsystems[i], sizeof(m->subsystems[i]), "%s", subsystems[i]);
	m->n_subsystems = n;
	m->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
		       NETLINK_KOBJECT_UEVENT);
	if (m->fd < 0) {
		r = -errno;
		ERR("cannot open the kernel uevent socket: %s", strerror(-r));
		goto fail;
	}
	/* Without credentials on every message the uid cannot be checked. */
	if (setsockopt(m->fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0) {
		r = -errno;
		ERR("cannot ask for uevent sender credentials: %s", strerror(-r));
		goto fail;
	}
	if (buffer_size) {
		int size = (int)buffer_size;

		/* FORCE passes rmem_max as root; as anyone else, the plain one. */
		if (setsockopt(m->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) <
			    0 &&
		    setsockopt(m->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)) < 0)
			WRN("cannot set the uevent receive buffer to %u bytes: %m",
			    buffer_size);
	}
	if (bind(m->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		ERR("cannot listen to kernel uevents: %s", strerror(-r));
		goto fail;
	}
	*mp = m;
	return 0;
fail:
	fb_monitor_free(m);
	return r;
}

int fb_monitor_fd(const struct fb_monitor *m)
{
	return m->fd;
}

static bool subsystem_wanted(const struct fb_monitor *m, const char *subsystem)
{
	for (size_t i = 0; i < m->n_subsystems; i++)
		if (subsystem && strcmp(m->subsystems[i], subsystem) == 0)
			return true;
	return false;
}

/* Strict decimal, else 0. */
static unsigned number_or_zero(const char *s, unsigned long long max)
{
	unsigned long long v;

	return s && parse_decimal(s, max, &v) == 0 ? (unsigned)v : 0;
}

/* One message: 1 taken into ev, 0 dropped (why logged), -errno. */
static int receive_one(struct fb_monitor *m, struct fb_monitor_event *ev)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(struct ucred))];
	} control;
	struct sockaddr_nl sender = {};
	struct iovec iov = { .iov_base = m->buf, .iov_len = MSG_MAX };
	struct msghdr msg = {
		.msg_name = &sender,
		.msg_namelen = sizeof(sender),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = &control,
		.msg_controllen = sizeof(control),
	};
	const struct ucred *cred = NULL;
	struct fb_uevent_env env;
	char why[128];
	const char *base;
	ssize_t len;

	len = recvmsg(m->fd, &msg, MSG_DONTWAIT);
	if (len < 0)
		return errno == EAGAIN || errno == EINTR ? -EAGAIN : -errno;
	if (msg.msg_flags & MSG_TRUNC) {
		DBG("uevent dropped: longer than %d bytes (cut short)", MSG_MAX);
		return 0;
	}
	if (msg.msg_namelen != sizeof(sender) || sender.nl_family != AF_NETLINK) {
		DBG("uevent dropped: no netlink sender address");
		return 0;
	}
	if (sender.nl_pid != 0) {
		DBG("uevent dropped: sent by port %u, not by the kernel", sender.nl_pid);
		return 0;
	}
	if (sender.nl_groups != KERNEL_GROUP) {
		DBG("uevent dropped: to group %#x, not the kernel's", sender.nl_groups);
		return 0;
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
		    c->cmsg_len == CMSG_LEN(sizeof(struct ucred)))
			cred = (const struct ucred *)CMSG_DATA(c);
	if (!cred || cred->uid != 0) {
		DBG("uevent dropped: %s",
		    cred ? "sender uid is not 0" : "no sender credentials");
		return 0;
	}
	m->buf[len] = '\0';
	if (uevent_message_parse(m->buf, (size_t)len, &env, why, sizeof(why)) < 0) {
		DBG("uevent dropped: %s", why);
		return 0;
	}
	if (!subsystem_wanted(m, env.subsystem))
		return 0;
	if (strlen(env.devpath) >= FB_UEVENT_DEVPATH_MAX) {
		DBG("uevent dropped: DEVPATH longer than %d bytes", FB_UEVENT_DEVPATH_MAX);
		return 0;
	}
	snprintf(m->syspath, sizeof(m->syspath), "/sys%s", env.devpath);
	base = strrchr(env.devpath, '/');
	*ev = (struct fb_monitor_event){
		.action = env.action,
		.subsystem = env.subsystem,
		.sysname = base ? base + 1 : env.devpath,
		.syspath = m->syspath,
	};
	if (env.seqnum)
		parse_decimal(env.seqnum, ~0ull, &ev->seqnum);
	ev->hotplug = env.hotplug && strcmp(env.hotplug, "1") == 0;
	if (env.major && env.minor)
		ev->devnum = makedev(number_or_zero(env.major, 4095),
				     number_or_zero(env.minor, 1048575));
	return 1;
}

int fb_monitor_receive(struct fb_monitor *m, struct fb_monitor_event *ev)
{
	/* Dropped messages are skipped; bounded so that a flood of them
	 * cannot keep the caller from its signals. */
	for (unsigned i = 0; i < 256; i++) {
		int r = receive_one(m, ev);

		if (r == -EAGAIN)
			return 0;
		if (r != 0)
			return r;
	}
	return 0;
}
