/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The daemon's pure parts: NOTIFY_SOCKET addresses, options, and what each
 * event asks for; plus one real datagram to an abstract socket. */
#include <errno.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "test.h"
#include "daemon.h"
#include "log.h"

static void test_notify_address(void)
{
	struct sockaddr_un sa;
	socklen_t len;
	char longpath[200];

	ASSERT_INT_EQ(fb_notify_address("/run/systemd/notify", &sa, &len), 0);
	ASSERT_INT_EQ(sa.sun_family, AF_UNIX);
	ASSERT_STR_EQ(sa.sun_path, "/run/systemd/notify");
	ASSERT_INT_EQ(len, offsetof(struct sockaddr_un, sun_path) +
				   strlen("/run/systemd/notify") + 1);

	ASSERT_INT_EQ(fb_notify_address("@fbclassctl/notify", &sa, &len), 0);
	ASSERT_INT_EQ(sa.sun_path[0], '\0');
	ASSERT_TRUE(memcmp(sa.sun_path + 1, "fbclassctl/notify", 17) == 0);
	/* abstract: the leading NUL and the name, no terminator */
	ASSERT_INT_EQ(len, offsetof(struct sockaddr_un, sun_path) + 18);

	ASSERT_INT_EQ(fb_notify_address(NULL, &sa, &len), -EINVAL);
	ASSERT_INT_EQ(fb_notify_address("", &sa, &len), -EINVAL);
	ASSERT_INT_EQ(fb_notify_address("@", &sa, &len), -EINVAL);
	ASSERT_INT_EQ(fb_notify_address("/", &sa, &len), -EINVAL);
	ASSERT_INT_EQ(fb_notify_address("run/notify", &sa, &len), -EINVAL);
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	ASSERT_INT_EQ(fb_notify_address(longpath, &sa, &len), -ENAMETOOLONG);
	longpath[sizeof(sa.sun_path) - 1] = '\0'; /* 107 characters and the NUL: fits */
	ASSERT_INT_EQ(fb_notify_address(longpath, &sa, &len), 0);
	longpath[sizeof(sa.sun_path) - 1] = 'a';
	longpath[sizeof(sa.sun_path)] = '\0'; /* 108: no room for the NUL */
	ASSERT_INT_EQ(fb_notify_address(longpath, &sa, &len), -ENAMETOOLONG);
	longpath[0] = '@'; /* abstract: 108 bytes fit exactly */
	ASSERT_INT_EQ(fb_notify_address(longpath, &sa, &len), 0);
}

/* A real datagram: READY=1 arrives at an abstract socket named by
 * NOTIFY_SOCKET; unset NOTIFY_SOCKET sends nothing and succeeds. */
static void test_notify_send(void)
{
	struct sockaddr_un sa;
	socklen_t len;
	char name[64], buf[64];
	int fd;
	ssize_t n;

	snprintf(name, sizeof(name), "@fbclassctl-test-%d", (int)getpid());
	ASSERT_INT_EQ(fb_notify_address(name, &sa, &len), 0);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	ASSERT_TRUE(fd >= 0);
	ASSERT_INT_EQ(bind(fd, (struct sockaddr *)&sa, len), 0);
	unsetenv("NOTIFY_SOCKET");
	ASSERT_INT_EQ(fb_notify("READY=1"), 0);
	setenv("NOTIFY_SOCKET", name, 1);
	ASSERT_INT_EQ(fb_notify("READY=1"), 0);
	n = recv(fd, buf, sizeof(buf) - 1, 0);
	ASSERT_INT_EQ(n, 7);
	buf[n > 0 ? n : 0] = '\0';
	ASSERT_STR_EQ(buf, "READY=1");
	setenv("NOTIFY_SOCKET", "relative/path", 1);
	ASSERT_INT_EQ(fb_notify("READY=1"), -EINVAL);
	unsetenv("NOTIFY_SOCKET");
	close(fd);
}

static int parse(struct fb_daemon_opts *o, const char *a1, const char *a2, const char *a3)
{
	char *argv[] = { "daemon", (char *)a1, (char *)a2, (char *)a3, NULL };
	int argc = 1 + !!a1 + !!a2 + !!a3;

	return fb_daemon_parse_args(argc, argv, o);
}

static void test_options(void)
{
	struct fb_daemon_opts o;

	ASSERT_INT_EQ(parse(&o, NULL, NULL, NULL), 0);
	ASSERT_STR_EQ(o.nm.devdir, "/dev");
	ASSERT_TRUE(!o.nm.config_given);
	ASSERT_TRUE(!o.nm.load_modules);
	ASSERT_INT_EQ(o.buffer_size, 16 * 1024 * 1024);
	ASSERT_INT_EQ(o.ready_fd, -1);
	ASSERT_TRUE(!o.syslog);
	ASSERT_INT_EQ(o.coalesce_ms, 20);
	ASSERT_INT_EQ(parse(&o, "--coalesce", "0", NULL), 0);
	ASSERT_INT_EQ(o.coalesce_ms, 0);
	ASSERT_INT_EQ(parse(&o, "--coalesce=1000", NULL, NULL), 0);
	ASSERT_INT_EQ(o.coalesce_ms, 1000);

	ASSERT_INT_EQ(parse(&o, "--buffer-size", "65536", "--load-modules"), 0);
	ASSERT_INT_EQ(o.buffer_size, 65536);
	ASSERT_TRUE(o.nm.load_modules);
	ASSERT_INT_EQ(parse(&o, "--ready-fd", "3", "--syslog"), 0);
	ASSERT_INT_EQ(o.ready_fd, 3);
	ASSERT_TRUE(o.syslog);
	ASSERT_INT_EQ(parse(&o, "--config", "/tmp/x.conf", "--dev=/tmp/d"), 0);
	ASSERT_STR_EQ(o.nm.config, "/tmp/x.conf");
	ASSERT_TRUE(o.nm.config_given);
	ASSERT_STR_EQ(o.nm.devdir, "/tmp/d");
	ASSERT_TRUE(!o.help);
	ASSERT_INT_EQ(parse(&o, "--help", NULL, NULL), 0);
	ASSERT_TRUE(o.help);

	log_max_priority = -1; /* the usage errors below are expected */
	ASSERT_INT_EQ(parse(&o, "--buffer-size", "4095", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--buffer-size", "16M", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--buffer-size", "-1", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--buffer-size", "99999999999", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--coalesce", "1001", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--coalesce", "5ms", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--coalesce", "", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--ready-fd", "x", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--ready-fd", "-1", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--ready-fd", "03", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--dev", "", NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "--dry-run", NULL, NULL), -EINVAL);
	ASSERT_INT_EQ(parse(&o, "stray", NULL, NULL), -EINVAL);
	log_max_priority = LOG_INFO;
}

static void test_classify(void)
{
	static const char *const sync[] = { "add",  "change", "remove",
					    "bind", "unbind", "move" };

	for (size_t i = 0; i < sizeof(sync) / sizeof(sync[0]); i++) {
		ASSERT_INT_EQ(fb_daemon_classify("graphics", sync[i], "fb0", true, false),
			      FB_DAEMON_SYNC);
		ASSERT_INT_EQ(fb_daemon_classify("graphics", sync[i], "fb0", true, true),
			      FB_DAEMON_SYNC);
		/* fbcon: no node, nothing to do */
		ASSERT_INT_EQ(fb_daemon_classify("graphics", sync[i], "fb0", false, true),
			      FB_DAEMON_IGNORE);
	}
	ASSERT_INT_EQ(fb_daemon_classify("graphics", "online", "fb0", true, false),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("graphics", "bogus", "fb0", true, false),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("graphics", NULL, "fb0", true, false),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify(NULL, "add", "fb0", true, false),
		      FB_DAEMON_IGNORE);
	/* bus devices: only add, only with --load-modules */
	ASSERT_INT_EQ(fb_daemon_classify("pci", "add", "0000:00:02.0", false, true),
		      FB_DAEMON_LOAD);
	ASSERT_INT_EQ(fb_daemon_classify("platform", "add", "0000:00:02.0", false, true),
		      FB_DAEMON_LOAD);
	ASSERT_INT_EQ(fb_daemon_classify("usb", "add", "0000:00:02.0", false, true),
		      FB_DAEMON_LOAD);
	/* a card's change (a monitor plugged, or echo change > uevent), not
	 * its render node's, nor a connector without a device number */
	ASSERT_INT_EQ(fb_daemon_classify("drm", "change", "card0", true, false),
		      FB_DAEMON_DISPLAY);
	ASSERT_INT_EQ(fb_daemon_classify("drm", "add", "card1", true, false),
		      FB_DAEMON_DISPLAY);
	ASSERT_INT_EQ(fb_daemon_classify("drm", "change", "renderD128", true, false),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("drm", "change", "card0-Virtual-1", false, false),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("drm", "bind", "card0", true, false),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("drm", "change", NULL, true, false),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("pci", "add", "0000:00:02.0", false, false),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("pci", "bind", "0000:00:02.0", false, true),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("pci", "remove", "0000:00:02.0", false, true),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("block", "add", "sda", true, true),
		      FB_DAEMON_IGNORE);
	ASSERT_INT_EQ(fb_daemon_classify("drm", "add", "renderD128", true, true),
		      FB_DAEMON_IGNORE);
}

int main(void)
{
	test_notify_address();
	test_notify_send();
	test_options();
	test_classify();
	return test_finish("test-daemon");
}
