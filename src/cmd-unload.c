/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl unload: remove a framebuffer's driver when nobody holds it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "commands.h"
#include "holders.h"
#include "kmod.h"
#include "log.h"
#include "strutil.h"
#include "unload.h"

static void unload_usage(void)
{
	printf("Usage: fbclassctl unload [options] DEVICE\n"
	       "\n"
	       "Remove the driver of a framebuffer safely: refuse while a process holds\n"
	       "it, unbind fbcon first, remove the module when its refcount is 0 (else\n"
	       "unbind the parent device), wait for the device to go, then remove its\n"
	       "node and /dev/fb/by-* links.\n"
	       "\n"
	       "Options:\n"
	       "      --force          do not check holders (dangerous; see fbclassctl(8))\n"
	       "      --timeout SECS   wait this long for the device to go (default 5)\n"
	       "      --dev DIR        device directory (default /dev)\n"
	       "  -h, --help           show this help\n");
}

/* Devices bound to the driver of parent: the driver directory's symlinks
 * other than "module". */
static unsigned count_bound_devices(const char *parent_syspath)
{
	char path[4096];
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/driver", parent_syspath);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_type == DT_LNK && strcmp(de->d_name, "module") != 0)
			n++;
	closedir(d);
	return n;
}

static int unbind_parent(const char *parent_syspath, const char *sysname)
{
	char path[4096];
	int fd, r = 0;
	size_t len = strlen(sysname);

	snprintf(path, sizeof(path), "%s/driver/unbind", parent_syspath);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, sysname, len) != (ssize_t)len)
		r = -errno;
	close(fd);
	return r;
}

static void report_removed(const char *path)
{
	printf("removed %s\n", path);
}

/* Holders of the target; prints them.  Returns the count. */
static size_t check_holders(const struct fb_device *dev, const char *devdir, bool force,
			    size_t *uninspectable)
{
	struct fb_holder_target t;
	struct fb_holder_list hl;
	char how[512];
	size_t n;
	int r;

	fb_holder_target_init(&t, dev, devdir);
	r = fb_holders_scan("/proc", &t, 1, &hl);
	if (r < 0) {
		ERR("/proc: cannot scan processes: %s", strerror(-r));
		*uninspectable = 1;
		return 0;
	}
	n = hl.n;
	*uninspectable = hl.n_uninspectable;
	for (size_t i = 0; i < hl.n; i++) {
		const struct fb_holder *h = &hl.holders[i];

		fb_holder_describe(h, how, sizeof(how));
		if (force)
			WRN("%s: held by pid %d (%s): %s", dev->name, (int)h->pid,
			    h->comm, how);
		else
			ERR("%s: held by pid %d (%s): %s", dev->name, (int)h->pid,
			    h->comm, how);
	}
	fb_holder_list_free(&hl);
	return n;
}

static int do_unload(int argc, char *argv[])
{
	enum { OPT_FORCE = 0x100, OPT_TIMEOUT, OPT_DEV };
	static const struct option options[] = {
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	const char *devdir = "/dev", *why = NULL;
	bool force = false, fbcon_unbound = false, driver_gone = false;
	unsigned long long timeout = 5;
	struct fb_device_list list = {};
	const struct fb_device *dev, **sel = NULL;
	const struct fb_parent *parent;
	struct fb_unload_facts facts = { .refcnt = -1 };
	struct fb_fbcon_state st;
	struct fb_kmod *kmod = NULL;
	enum fb_unload_method method;
	size_t n_holders, uninspectable, nsel;
	char *name = NULL, *syspath = NULL;
	int c, r, ret = FB_EXIT_ERROR;

	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case OPT_FORCE:
			force = true;
			break;
		case OPT_TIMEOUT:
			if (parse_decimal(optarg, 3600, &timeout) < 0) {
				ERR("--timeout: \"%s\" is not a number of seconds (0 to 3600)",
				    optarg);
				return fb_usage_error("unload");
			}
			break;
		case OPT_DEV:
			devdir = optarg;
			break;
		case 'h':
			unload_usage();
			return FB_EXIT_OK;
		default:
			return fb_usage_error("unload");
		}
	}
	if (optind + 1 != argc) {
		ERR("%s", optind == argc ? "missing DEVICE" : "only one DEVICE at a time");
		return fb_usage_error("unload");
	}
	if (fb_cmd_scan(&list, FB_SCAN_NODE, false) < 0)
		return FB_EXIT_ERROR;
	if (fb_cmd_select(&list, 1, argv + optind, &sel, &nsel) < 0)
		goto finish;
	dev = sel[0];
	name = strdup(dev->name);
	syspath = strdup(dev->syspath);
	if (!name || !syspath) {
		ERR("out of memory");
		goto finish;
	}
	parent = fb_device_parent(dev);

	/* 1. Holders.  A process we cannot look into might hold it too. */
	n_holders = check_holders(dev, devdir, force, &uninspectable);
	if (!force && (n_holders || uninspectable)) {
		if (n_holders)
			ERR("%s: refusing to unload: %zu process%s hold%s it; close %s first (or see --force)",
			    name, n_holders, n_holders == 1 ? "" : "es",
			    n_holders == 1 ? "s" : "", n_holders == 1 ? "it" : "them");
		if (uninspectable)
			ERR("%s: refusing to unload: %zu processes could not be inspected (run as root)",
			    name, uninspectable);
		goto finish;
	}
	if (force) {
		WRN("*** --force: %s is unloaded although %zu process%s hold%s it and %zu could not be inspected; their next access or close may crash the kernel ***",
		    name, n_holders, n_holders == 1 ? "" : "es",
		    n_holders == 1 ? "s" : "", uninspectable);
	}

	/* 2. fbcon, if it runs on this framebuffer. */
	r = fb_fbcon_read("/sys", &st);
	if (r == 0 && st.bound) {
		unsigned first, last;
		int nc = fb_fbcon_consoles(dev, devdir, &first, &last);

		if (nc != 0) {
			if (nc > 0)
				printf("%s: unbinding fbcon (%s, consoles %u-%u) first\n",
				       name, st.vtcon, first, last);
			else
				printf("%s: unbinding fbcon (%s; its console map is unknown: %s) first\n",
				       name, st.vtcon, strerror(-nc));
			fflush(stdout);
			r = fb_fbcon_set_bind("/sys", &st, false);
			if (r < 0) {
				ERR("%s: cannot unbind fbcon through /sys/class/vtconsole/%s/bind: %s",
				    name, st.vtcon, strerror(-r));
				goto finish;
			}
			fbcon_unbound = true;
		}
	}

	/* 3. Module or unbind. */
	facts.has_parent = parent != NULL;
	facts.has_driver = parent && parent->driver;
	facts.has_module = parent && parent->module;
	facts.holders_present = n_holders > 0;
	facts.on_platform_bus = parent && streq_ptr(parent->subsystem, "platform");
	if (facts.has_module) {
		r = fb_kmod_new(&kmod);
		if (r < 0) {
			if (r == -ENOMEM)
				ERR("%s: cannot start module loading (%s)", name,
				    fb_kmod_backend_name);
			goto finish;
		}
		facts.refcnt = fb_kmod_refcnt(kmod, parent->module);
	}
	if (facts.has_driver)
		facts.bound_devices = count_bound_devices(parent->syspath);
	method = fb_unload_decide(&facts, &why);
	switch (method) {
	case FB_UNLOAD_NONE:
		ERR("%s: cannot unload: %s", name, why);
		goto finish;
	case FB_UNLOAD_REMOVE_MODULE:
		printf("%s: removing module %s (%s)\n", name, parent->module, why);
		fflush(stdout);
		r = fb_kmod_remove(kmod, parent->module);
		if (r < 0) {
			ERR("%s: cannot remove module %s: %s", name, parent->module,
			    strerror(-r));
			goto finish;
		}
		break;
	case FB_UNLOAD_UNBIND:
		if (facts.has_module)
			printf("%s: unbinding %s from driver %s (module %s: %s)\n", name,
			       parent->sysname, parent->driver, parent->module, why);
		else
			printf("%s: unbinding %s from driver %s (%s)\n", name,
			       parent->sysname, parent->driver, why);
		fflush(stdout);
		r = unbind_parent(parent->syspath, parent->sysname);
		if (r < 0) {
			ERR("%s: cannot unbind %s through %s/driver/unbind: %s", name,
			    parent->sysname, parent->syspath, strerror(-r));
			goto finish;
		}
		break;
	}

	driver_gone = true;

	/* 4. Wait for the class device to go, then its node and links. */
	r = fb_wait_gone(syspath, timeout * 1000);
	if (r < 0) {
		ERR("%s: %s still exists after %llu s; node left in place", name, syspath,
		    timeout);
		goto finish;
	}
	printf("%s: %s is gone\n", name, syspath);
	r = fb_unload_remove_node(devdir, dev->devname, dev->devnum, report_removed);
	if (r < 0) {
		ERR("%s: cannot remove its node and links under %s: %s", name, devdir,
		    strerror(-r));
		goto finish;
	}
	ret = FB_EXIT_OK;
finish:
	if (fbcon_unbound && !driver_gone) {
		/* Nothing was removed: give the console back. */
		if (fb_fbcon_set_bind("/sys", &st, true) == 0)
			printf("%s: fbcon bound again (%s)\n", name, st.vtcon);
		else
			WRN("%s: fbcon stays unbound: cannot write /sys/class/vtconsole/%s/bind",
			    name, st.vtcon);
	}
	fb_kmod_free(kmod);
	free(sel);
	free(name);
	free(syspath);
	fb_device_list_free(&list);
	return ret;
}

const struct fb_cmd fb_cmd_unload = {
	.name = "unload",
	.cmd = do_unload,
	.help = "remove a framebuffer's driver when nobody holds it",
};
