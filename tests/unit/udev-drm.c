/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* udev-drm: what libudev sees of the DRM and graphics classes, one line per
 * device, for tests/fixtures/run.sh to check captured trees under
 * umockdev-run:
 *
 *   NAME subsystem=S devtype=T parent=P status=S edid=HEX sysattr_edid_len=N
 *
 * parent is the sysname of libudev's parent device; edid is the edid
 * file's bytes read through the syspath libudev gives ("missing" when
 * there is none); sysattr_edid_len is the length of libudev's own
 * sysattr value for it, which is text: it stops at the first NUL, and an
 * EDID starts with one. */
#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void print_edid(const char *syspath)
{
	char path[PATH_MAX];
	unsigned char buf[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/edid", syspath);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf(" edid=missing");
		return;
	}
	printf(" edid=");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			printf("%02x", buf[i]);
	if (n < 0)
		printf("(read error: %s)", strerror(errno));
	close(fd);
}

static void print_device(struct udev_device *dev)
{
	struct udev_device *parent = udev_device_get_parent(dev);
	const char *devtype = udev_device_get_devtype(dev);
	const char *status = udev_device_get_sysattr_value(dev, "status");
	const char *edid = udev_device_get_sysattr_value(dev, "edid");

	printf("%s subsystem=%s devtype=%s parent=%s status=%s",
	       udev_device_get_sysname(dev), udev_device_get_subsystem(dev),
	       devtype ? devtype : "-", parent ? udev_device_get_sysname(parent) : "-",
	       status ? status : "-");
	if (devtype && strcmp(devtype, "drm_connector") == 0) {
		print_edid(udev_device_get_syspath(dev));
		printf(" sysattr_edid_len=%zu", edid ? strlen(edid) : 0);
	}
	printf("\n");
}

int main(void)
{
	static const char *const subsystems[] = { "graphics", "drm" };
	struct udev *udev = udev_new();

	if (!udev) {
		fprintf(stderr, "udev-drm: udev_new failed\n");
		return 1;
	}
	for (size_t s = 0; s < 2; s++) {
		struct udev_enumerate *e = udev_enumerate_new(udev);
		struct udev_list_entry *entry;

		if (!e || udev_enumerate_add_match_subsystem(e, subsystems[s]) < 0 ||
		    udev_enumerate_scan_devices(e) < 0) {
			fprintf(stderr, "udev-drm: cannot enumerate %s\n", subsystems[s]);
			return 1;
		}
		udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e))
		{
			struct udev_device *dev = udev_device_new_from_syspath(
				udev, udev_list_entry_get_name(entry));

			if (!dev)
				continue;
			print_device(dev);
			udev_device_unref(dev);
		}
		udev_enumerate_unref(e);
	}
	udev_unref(udev);
	return 0;
}
