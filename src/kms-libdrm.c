/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The KMS seam through libdrm, dlopen()ed on first use: see kms.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "dlopen.h"
#include "fbinfo_ioctl.h"
#include "kms-capture.h"
#include "kms-read.h"
#include "log.h"
#include "macro.h"

/* Only the commands that say what is shown read KMS: coldplug and the
 * daemon never map libdrm. */
#define LIBDRM_SONAME "libdrm.so.2"

/* DRM's character major (the kernel's Documentation/admin-guide/devices.txt) */
#define KMS_DRM_MAJOR 226

const char fb_kms_backend_name[] = "dlopen " LIBDRM_SONAME;
FB_DLOPEN_NOTE(drm, "drm", "what KMS scans out: CRTCs, planes, FBs and their owners",
	       "suggested", LIBDRM_SONAME);

#define LIBDRM_SYMBOLS(X)              \
	X(drmModeGetResources)         \
	X(drmModeFreeResources)        \
	X(drmModeGetPlaneResources)    \
	X(drmModeFreePlaneResources)   \
	X(drmModeGetCrtc)              \
	X(drmModeFreeCrtc)             \
	X(drmModeGetPlane)             \
	X(drmModeFreePlane)            \
	X(drmModeGetConnectorCurrent)  \
	X(drmModeFreeConnector)        \
	X(drmModeGetEncoder)           \
	X(drmModeFreeEncoder)          \
	X(drmModeGetFB2)               \
	X(drmModeFreeFB2)              \
	X(drmModeObjectGetProperties)  \
	X(drmModeFreeObjectProperties) \
	X(drmModeGetProperty)          \
	X(drmModeFreeProperty)         \
	X(drmSetClientCap)             \
	X(drmGetVersion)               \
	X(drmFreeVersion)              \
	X(drmIsMaster)                 \
	X(drmDropMaster)

static struct {
#define LIBDRM_FIELD(f) typeof(f) *f;
	LIBDRM_SYMBOLS(LIBDRM_FIELD)
#undef LIBDRM_FIELD
} sym;

static int libdrm_open(void)
{
#define LIBDRM_DLSYM(f) FB_DLSYM(f, sym.f),
	static const struct fb_dlsym syms[] = { LIBDRM_SYMBOLS(LIBDRM_DLSYM) };
#undef LIBDRM_DLSYM
	static int state = FB_DL_UNTRIED;

	/* said by the caller as "cannot tell (libdrm not found)" */
	return fb_dlopen_many(&state, LOG_DEBUG, NULL, LIBDRM_SONAME, "libdrm2", syms,
			      ARRAY_SIZE(syms));
}

static int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c) < 0 ? -errno : 0;
}

static void driver_name(int fd, struct kms_card *card)
{
	drmVersionPtr v = sym.drmGetVersion(fd);

	if (!v)
		return;
	snprintf(card->driver, sizeof(card->driver), "%.*s", v->name_len, v->name);
	sym.drmFreeVersion(v);
}

/*
 * How the card is read without changing what it shows.  The kernel (6.1
 * and 6.12 alike, drm_file.c) makes any opener of a primary node the DRM
 * master when the card has none, and the last close of the card restores
 * the fbdev emulation's mode (drm_lastclose -> drm_client_dev_restore).
 * A render node cannot answer KMS questions, so the primary node is
 * opened (O_RDONLY to read, O_RDWR for bench's dumb buffer, which is
 * mapped to be written), and master, if the open made us it, is dropped
 * at once: a compositor that lost master (VT switched away) gets it back
 * as before, and our close is then a plain close.  While a KMS program is
 * master our open and close change nothing.  On the console (nobody else has the
 * card open), our close is the last one and the kernel re-commits fbcon's
 * own mode, the one already shown: the VM tier's screendumps
 * (tests/vm/scenarios/kms.sh) are identical before and after a read.
 */
static int open_card(unsigned minor, int flags, char *reason, size_t reason_len)
{
	drmVersionPtr v;
	bool private;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/dri/card%u", minor);
	/* where /dev has no such node (no devtmpfs), root reads through a
	 * private one, as for /dev/fbN; the node must be DRM's 226:minor */
	fd = fb_chrdev_open("/dev", path + strlen("/dev/"), makedev(KMS_DRM_MAJOR, minor),
			    flags, true, &private);
	if (fd < 0) {
		snprintf(reason, reason_len, "%s: %s", path,
			 fd == -ESTALE ? "not the DRM device's node" : strerror(-fd));
		return fd;
	}
	if (private)
		DBG("%s: missing, read through a private node", path);
	/* before drmIsMaster, which takes any other answer than EACCES for
	 * master: a node that is no DRM device (umockdev's) is said plainly */
	v = sym.drmGetVersion(fd);
	if (!v) {
		int r = errno ? -errno : -ENODEV;

		snprintf(reason, reason_len, "%s: not a DRM device (%s)", path,
			 strerror(-r));
		close(fd);
		return r;
	}
	sym.drmFreeVersion(v);
	if (sym.drmIsMaster(fd) && sym.drmDropMaster(fd) < 0)
		WRN("%s: cannot drop the DRM master the open gave: %s", path,
		    strerror(errno));
	/* per open file: what drm_info asks for, to see every plane and the
	 * atomic properties (ACTIVE, CRTC_X ...) */
	sym.drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	sym.drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
	return fd;
}

static const struct kms_drm_ops *libdrm_ops(void)
{
	static struct kms_drm_ops o;

	o = (struct kms_drm_ops){
		.get_resources = sym.drmModeGetResources,
		.free_resources = sym.drmModeFreeResources,
		.get_plane_resources = sym.drmModeGetPlaneResources,
		.free_plane_resources = sym.drmModeFreePlaneResources,
		.get_crtc = sym.drmModeGetCrtc,
		.free_crtc = sym.drmModeFreeCrtc,
		.get_plane = sym.drmModeGetPlane,
		.free_plane = sym.drmModeFreePlane,
		.get_connector_current = sym.drmModeGetConnectorCurrent,
		.free_connector = sym.drmModeFreeConnector,
		.get_encoder = sym.drmModeGetEncoder,
		.free_encoder = sym.drmModeFreeEncoder,
		.get_fb2 = sym.drmModeGetFB2,
		.free_fb2 = sym.drmModeFreeFB2,
		.get_properties = sym.drmModeObjectGetProperties,
		.free_properties = sym.drmModeFreeObjectProperties,
		.get_property = sym.drmModeGetProperty,
		.free_property = sym.drmModeFreeProperty,
		.close_handle = gem_close,
	};
	return &o;
}

static int kms_card_read_libdrm(unsigned minor, struct kms_card *card, char *reason,
				size_t reason_len)
{
	char dri[64];
	int fd, r;

	fd = open_card(minor, O_RDONLY, reason, reason_len);
	if (fd < 0)
		return fd;
	driver_name(fd, card);
	r = kms_read_card(libdrm_ops(), fd, card, reason, reason_len);
	close(fd);
	if (r < 0)
		return r;
	snprintf(dri, sizeof(dri), "/sys/kernel/debug/dri/%u", minor);
	kms_owner_resolve(card, dri);
	return 0;
}

int kms_card_read(unsigned minor, struct kms_card *card, char *reason, size_t reason_len)
{
	memset(card, 0, sizeof(*card));
	card->minor = minor;
	if (libdrm_open() < 0) {
		snprintf(reason, reason_len, "libdrm not found");
		return -ELIBACC;
	}
	return kms_card_read_libdrm(minor, card, reason, reason_len);
}

/*
 * A GEM buffer mapped read-only: the dumb map (what a dumb buffer, and so
 * fbcon's, offers), else a PRIME export mapped (what kmsgrab maps), the
 * dma-buf's fd closed at once: the mapping alone holds it until unmapped.
 */
static void *gem_map(int fd, uint32_t handle, size_t len)
{
	struct drm_mode_map_dumb md = { .handle = handle };
	struct drm_prime_handle ph = { .handle = handle, .flags = DRM_CLOEXEC };
	void *map;
	int e;

	if (ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &md) == 0) {
		map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)md.offset);
		if (map != MAP_FAILED)
			return map;
		DBG("GEM handle %u: dumb map of %zu bytes: %m; trying PRIME", handle, len);
	}
	if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph) < 0)
		return NULL;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, ph.fd, 0);
	e = errno;
	close(ph.fd);
	errno = e;
	return map == MAP_FAILED ? NULL : map;
}

static void gem_unmap(void *map, size_t len)
{
	munmap(map, len);
}

int kms_connector_snap(const char *connector, struct kms_snap *snap, char *reason,
		       size_t reason_len)
{
	struct kms_capture_ops ops = { .map = gem_map, .unmap = gem_unmap };
	char sys[KMS_CONNECTOR_NAME_MAX + 32];
	const char *name;
	unsigned minor;
	int fd, r;

	memset(snap, 0, sizeof(*snap));
	name = kms_connector_arg(connector, &minor);
	if (!name) {
		snprintf(reason, reason_len, "not a connector name (cardN-TYPE-I)");
		return -EINVAL;
	}
	if (libdrm_open() < 0) {
		snprintf(reason, reason_len, "cannot tell (libdrm not found)");
		return -EOPNOTSUPP;
	}
	snprintf(sys, sizeof(sys), "/sys/class/drm/%s", name);
	if (access(sys, F_OK) < 0) {
		snprintf(reason, reason_len, "no such connector");
		return -ENODEV;
	}
	fd = open_card(minor, O_RDONLY, reason, reason_len);
	if (fd == -ENOENT) {
		snprintf(reason, reason_len,
			 "no node /dev/dri/card%u (devtmpfs makes it; else mknod -m 600 "
			 "/dev/dri/card%u c 226 %u)",
			 minor, minor, minor);
		return -ENOENT;
	}
	if (fd == -EACCES || fd == -EPERM) {
		snprintf(reason + strlen(reason), reason_len - strlen(reason),
			 " (reading what is shown needs root)");
		return -EACCES;
	}
	if (fd < 0)
		return fd;
	ops.drm = libdrm_ops();
	r = kms_capture_card(&ops, fd, minor, name, snap, reason, reason_len);
	close(fd);
	return r;
}

int kms_dumb_new(unsigned minor, unsigned width, unsigned height, unsigned bpp,
		 struct kms_dumb *dumb, char *reason, size_t reason_len)
{
	struct drm_mode_create_dumb cd = { .width = width, .height = height, .bpp = bpp };
	struct drm_mode_map_dumb md = {};
	int r;

	memset(dumb, 0, sizeof(*dumb));
	dumb->fd = -1;
	if (libdrm_open() < 0) {
		snprintf(reason, reason_len, "libdrm not found");
		return -ELIBACC;
	}
	dumb->fd = open_card(minor, O_RDWR, reason, reason_len);
	if (dumb->fd < 0)
		return dumb->fd;
	if (ioctl(dumb->fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd) < 0) {
		r = -errno;
		snprintf(reason, reason_len,
			 "card%u: the driver makes no dumb buffer of %ux%u at %u bpp: %s",
			 minor, width, height, bpp, strerror(-r));
		kms_dumb_free(dumb);
		return r;
	}
	dumb->handle = cd.handle;
	dumb->pitch = cd.pitch;
	dumb->size = cd.size;
	md.handle = cd.handle;
	if (ioctl(dumb->fd, DRM_IOCTL_MODE_MAP_DUMB, &md) < 0) {
		r = -errno;
		snprintf(reason, reason_len, "card%u: cannot map its dumb buffer: %s",
			 minor, strerror(-r));
		kms_dumb_free(dumb);
		return r;
	}
	dumb->map = mmap(NULL, dumb->size, PROT_READ | PROT_WRITE, MAP_SHARED, dumb->fd,
			 (off_t)md.offset);
	if (dumb->map == MAP_FAILED) {
		r = -errno;
		dumb->map = NULL;
		snprintf(reason, reason_len, "card%u: cannot map its dumb buffer: %s",
			 minor, strerror(-r));
		kms_dumb_free(dumb);
		return r;
	}
	return 0;
}

void kms_dumb_free(struct kms_dumb *dumb)
{
	if (dumb->map)
		munmap(dumb->map, dumb->size);
	if (dumb->handle) {
		struct drm_mode_destroy_dumb dd = { .handle = dumb->handle };

		ioctl(dumb->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
	}
	if (dumb->fd >= 0)
		close(dumb->fd);
	memset(dumb, 0, sizeof(*dumb));
	dumb->fd = -1;
}
