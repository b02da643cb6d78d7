/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The daemon's pure parts: readiness addresses, options, event classes. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "commands.h"
#include "daemon.h"
#include "log.h"
#include "macro.h"
#include "strutil.h"
#include "rules.h"
#include "uevent.h"

int fb_notify_address(const char *s, struct sockaddr_un *sa, socklen_t *len)
{
	size_t n;

	if (!s || (s[0] != '/' && s[0] != '@') || !s[1])
		return -EINVAL;
	n = strlen(s);
	if (n > sizeof(sa->sun_path) - (s[0] == '/'))
		return -ENAMETOOLONG;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, s, n);
	if (s[0] == '@')
		sa->sun_path[0] = '\0'; /* abstract: no terminator counted */
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (s[0] == '/'));
	return 0;
}

int fb_notify(const char *state)
{
	const char *env = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa;
	socklen_t len;
	_cleanup_close_ int fd = -1;
	int r;

	if (!env)
		return 0;
	r = fb_notify_address(env, &sa, &len);
	if (r < 0)
		return log_errno(
			r, "NOTIFY_SOCKET=%s: not an absolute path or @abstract name: %m",
			env);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return log_errno(-errno, "NOTIFY_SOCKET=%s: cannot create a socket: %m",
				 env);
	if (sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, len) <
	    0)
		return log_errno(-errno, "NOTIFY_SOCKET=%s: cannot send %s: %m", env,
				 state);
	return 0;
}

int fb_parse_fd(const char *s, int *fd)
{
	unsigned long long v;

	if (parse_decimal(s, INT_MAX, &v) < 0)
		return -EINVAL;
	*fd = (int)v;
	return 0;
}

static int parse_buffer_size(const char *s, unsigned *out)
{
	unsigned long long v;

	if (parse_decimal(s, FB_DAEMON_BUFFER_MAX, &v) < 0 || v < FB_DAEMON_BUFFER_MIN)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

enum {
	OPT_DEV = 0x100,
	OPT_CONFIG,
	OPT_LOAD_MODULES,
	OPT_BUFFER_SIZE,
	OPT_READY_FD,
	OPT_SYSLOG,
	OPT_VALIDATE,
	OPT_COALESCE,
};

int fb_daemon_parse_args(int argc, char *argv[], struct fb_daemon_opts *o)
{
	static const struct option options[] = {
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "load-modules", no_argument, NULL, OPT_LOAD_MODULES },
		{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
		{ "ready-fd", required_argument, NULL, OPT_READY_FD },
		{ "syslog", no_argument, NULL, OPT_SYSLOG },
		{ "validate", no_argument, NULL, OPT_VALIDATE },
		{ "coalesce", required_argument, NULL, OPT_COALESCE },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int c;

	*o = (struct fb_daemon_opts){
		.nm = { .devdir = "/dev", .config = FB_RULES_DEFAULT_FILE },
		.buffer_size = FB_DAEMON_BUFFER_DEFAULT,
		.coalesce_ms = FB_DAEMON_COALESCE_DEFAULT,
		.ready_fd = -1,
	};
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case OPT_DEV:
			o->nm.devdir = optarg;
			break;
		case OPT_CONFIG:
			o->nm.config = optarg;
			o->nm.config_given = true;
			break;
		case OPT_LOAD_MODULES:
			o->nm.load_modules = true;
			break;
		case OPT_VALIDATE:
			o->nm.validate = fbclassctl_bench_quick;
			break;
		case OPT_BUFFER_SIZE:
			if (parse_buffer_size(optarg, &o->buffer_size) < 0) {
				ERR("--buffer-size: \"%s\" is not a number of bytes from %u to %u",
				    optarg, FB_DAEMON_BUFFER_MIN, FB_DAEMON_BUFFER_MAX);
				return fb_usage_error("daemon");
			}
			break;
		case OPT_COALESCE: {
			unsigned long long v;

			if (parse_decimal(optarg, FB_DAEMON_COALESCE_MAX, &v) < 0) {
				ERR("--coalesce: \"%s\" is not a number of milliseconds from 0 to %u",
				    optarg, FB_DAEMON_COALESCE_MAX);
				return fb_usage_error("daemon");
			}
			o->coalesce_ms = (unsigned)v;
			break;
		}
		case OPT_READY_FD:
			if (fb_parse_fd(optarg, &o->ready_fd) < 0) {
				ERR("--ready-fd: \"%s\" is not a file descriptor number",
				    optarg);
				return fb_usage_error("daemon");
			}
			break;
		case OPT_SYSLOG:
			o->syslog = true;
			break;
		case 'h':
			return -1;
		default:
			return fb_usage_error("daemon");
		}
	}
	if (optind < argc) {
		ERR("daemon: unexpected argument \"%s\"", argv[optind]);
		return fb_usage_error("daemon");
	}
	if (!*o->nm.devdir) {
		ERR("--dev: empty directory name");
		return fb_usage_error("daemon");
	}
	return 0;
}

enum fb_daemon_action fb_daemon_classify(const char *subsystem, const char *action,
					 bool has_devnum, bool load_modules)
{
	static const char *const sync_actions[] = { "add",  "change", "remove",
						    "bind", "unbind", "move" };

	if (!subsystem || !action)
		return FB_DAEMON_IGNORE;
	if (strcmp(subsystem, "graphics") == 0) {
		if (!has_devnum)
			return FB_DAEMON_IGNORE; /* fbcon: no node */
		for (size_t i = 0; i < ARRAY_SIZE(sync_actions); i++)
			if (strcmp(action, sync_actions[i]) == 0)
				return FB_DAEMON_SYNC;
		return FB_DAEMON_IGNORE;
	}
	if (load_modules && strcmp(action, "add") == 0 &&
	    (strcmp(subsystem, "pci") == 0 || strcmp(subsystem, "platform") == 0 ||
	     strcmp(subsystem, "usb") == 0))
		return FB_DAEMON_LOAD;
	return FB_DAEMON_IGNORE;
}
