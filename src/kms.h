/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The KMS seam: what a DRM card scans out, as plain copies.  For each
 * card: its CRTCs (active, mode and timings), planes (type, CRTC, FB,
 * size, position), connectors (CRTC in use, link-status, DPMS, read with
 * drmModeGetConnectorCurrent so nothing is probed) and the FBs the planes
 * show (size, fourcc, modifier, and who made them).
 *
 * kms_card_read() is the one entry: src/kms-libdrm.c (the default, libdrm
 * dlopen()ed on first use, so coldplug and the daemon never map it) or
 * src/kms-none.c (the static build), chosen by configure.  Both fill the
 * same struct kms_card; src/kms-read.c turns libdrm's answers into it and
 * src/kms-owner.c names each FB's owner, in every build, so the unit tests
 * feed them captured answers (tests/unit/test-kms.c).
 *
 * It changes nothing: see src/kms-libdrm.c for how the node is opened so
 * that neither the screen nor the DRM master moves.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* "dlopen libdrm.so.2" or "none (static build)", for --version. */
extern const char fb_kms_backend_name[];

#define KMS_MODE_NAME_MAX      32
#define KMS_CONNECTOR_NAME_MAX 64
#define KMS_COMM_MAX	       32
#define KMS_REASON_MAX	       160

/* A display mode with its timings, as DRM has it. */
struct kms_mode {
	char name[KMS_MODE_NAME_MAX];
	uint32_t clock_khz;
	uint16_t hdisplay, hsync_start, hsync_end, htotal;
	uint16_t vdisplay, vsync_start, vsync_end, vtotal;
	uint32_t flags;
	uint32_t vrefresh; /* what the kernel says, Hz */
	uint32_t refresh_mhz; /* from clock and totals, mHz: the truth for odd modes */
};

struct kms_crtc {
	uint32_t id;
	bool active; /* the ACTIVE property, else a valid mode */
	bool mode_valid;
	struct kms_mode mode;
	uint32_t fb_id; /* the legacy primary FB, 0 if none */
};

enum kms_plane_type {
	KMS_PLANE_UNKNOWN,
	KMS_PLANE_OVERLAY,
	KMS_PLANE_PRIMARY,
	KMS_PLANE_CURSOR,
};

struct kms_plane {
	uint32_t id;
	enum kms_plane_type type;
	uint32_t crtc_id, fb_id; /* 0: none */
	int32_t crtc_x, crtc_y; /* where on the CRTC (atomic properties) */
	uint32_t crtc_w, crtc_h;
	bool have_position; /* the driver told CRTC_X .. CRTC_H */
	uint32_t src_x, src_y, src_w, src_h; /* what of the FB it shows, 16.16 */
	bool have_src; /* the driver told SRC_X .. SRC_H */
};

/* DRM_MODE_CONNECTED .. DRM_MODE_UNKNOWNCONNECTION */
enum kms_connection {
	KMS_CONNECTED = 1,
	KMS_DISCONNECTED = 2,
	KMS_CONNECTION_UNKNOWN = 3
};

struct kms_connector {
	uint32_t id;
	char name[KMS_CONNECTOR_NAME_MAX]; /* as sysfs names it: card0-Virtual-1 */
	enum kms_connection connection;
	uint32_t crtc_id; /* through its encoder; 0: none */
	int link_status; /* 0 good, 1 bad, -1 not told */
	int dpms; /* 0 on, 1 standby, 2 suspend, 3 off, -1 not told */
};

enum kms_owner_kind {
	KMS_OWNER_UNKNOWN, /* reason says why */
	KMS_OWNER_FBCON, /* the fbdev emulation, "[fbcon]" */
	KMS_OWNER_PROCESS, /* comm[pid] */
};

struct kms_owner {
	enum kms_owner_kind kind;
	pid_t pid; /* 0 when not known */
	bool master; /* that client is the DRM master */
	char comm[KMS_COMM_MAX]; /* raw text from the kernel: escape it to print */
	char reason[KMS_REASON_MAX];
};

struct kms_fb {
	uint32_t id;
	bool gone; /* freed between the plane's read and its own */
	uint32_t width, height;
	uint32_t fourcc;
	uint64_t modifier; /* DRM_FORMAT_MOD_LINEAR (0) unless told */
	bool have_modifier;
	struct kms_owner owner;
};

struct kms_card {
	unsigned minor; /* cardN */
	char driver[32];
	struct kms_crtc *crtcs;
	size_t n_crtcs;
	struct kms_plane *planes;
	size_t n_planes;
	struct kms_connector *connectors;
	size_t n_connectors;
	struct kms_fb *fbs; /* every FB a plane or CRTC shows, once each */
	size_t n_fbs;
};

/*
 * Read card minor (/dev/dri/cardN) whole, without changing the screen or
 * the DRM master, and name each FB's owner from debugfs and /proc.  0, or
 * -errno with *reason saying what fbclassctl cannot tell and why: "libdrm
 * not found", "not in the static build", "/dev/dri/card0: Permission
 * denied".  card is freed on error.
 */
int kms_card_read(unsigned minor, struct kms_card *card, char *reason, size_t reason_len);
void kms_card_free(struct kms_card *card);

/*
 * A dumb buffer on card minor, made and mapped read-write as a KMS client
 * makes its own (what bench measures the fbdev emulation against): never
 * added as an FB, so nothing shows it and no mode changes.  0, or -errno
 * with *reason saying why ("libdrm not found", "not in the static build",
 * "/dev/dri/card0: Permission denied", "the driver makes no dumb buffer
 * of 1280x800 at 32 bpp: ...").  kms_dumb_free() unmaps, destroys and
 * closes; it may be called on a zeroed or failed one.
 */
struct kms_dumb {
	int fd; /* the card, -1 when none */
	uint32_t handle;
	void *map;
	size_t size;
	uint32_t pitch; /* bytes per row, the driver's choice */
};
int kms_dumb_new(unsigned minor, unsigned width, unsigned height, unsigned bpp,
		 struct kms_dumb *dumb, char *reason, size_t reason_len);
void kms_dumb_free(struct kms_dumb *dumb);

/* Lookups in a card read: NULL when there is no such object. */
const struct kms_crtc *kms_card_crtc(const struct kms_card *card, uint32_t id);
const struct kms_fb *kms_card_fb(const struct kms_card *card, uint32_t id);
/* The plane that scans out on CRTC crtc_id as its primary, else NULL. */
const struct kms_plane *kms_card_primary(const struct kms_card *card, uint32_t crtc_id);

/* "XR24" for DRM_FORMAT_XRGB8888; buf of at least 5 bytes. */
const char *kms_fourcc_str(uint32_t fourcc, char buf[static 5]);
/* The refresh rate in mHz from the pixel clock and totals (0 if none). */
uint32_t kms_mode_refresh_mhz(const struct kms_mode *m);

/* Is the fbdev emulation's buffer (fbcon's FB) what some CRTC scans out? */
enum kms_shown { KMS_SHOWN_UNKNOWN, KMS_SHOWN_NO, KMS_SHOWN_YES };

/*
 * From a card read: yes when the primary plane of an active CRTC shows
 * the FB made by [fbcon]; no when every active CRTC shows another FB
 * whose owner is known, or none is active; unknown otherwise (an owner
 * that cannot be told, an FB gone).
 */
enum kms_shown kms_card_shown(const struct kms_card *card);
/* "yes", "no", "unknown" */
const char *kms_shown_name(enum kms_shown s);
/*
 * kms_card_shown() of /dev/dri/cardN, the card read once per process
 * (list asks for each fb of a card); unknown when it cannot be read.
 */
enum kms_shown kms_shown_of_card(unsigned minor);

/*
 * What connector c of card shows, for doctor: "card0-Virtual-1 shows FB
 * 40 800x600 XR24 of modetest[160], DRM master", "... of [fbcon]", or
 * "... of an unknown owner (REASON)"; the comm escaped.  False (buf
 * empty) when c drives no active CRTC.
 */
bool kms_connector_scanout(const struct kms_card *card, const struct kms_connector *c,
			   char *buf, size_t len);

/*
 * A connector's row (list --connectors, info's scanout section), pure.
 * kms_connector_fb(): the FB on the primary plane of c's CRTC, NULL when
 * c drives no active CRTC or that plane shows none.
 */
const struct kms_fb *kms_connector_fb(const struct kms_card *card,
				      const struct kms_connector *c);
/* The active mode of c's CRTC, "1280x800@74.99" (the refresh from the
 * timings; "@60" when whole); "" when c drives no active CRTC. */
const char *kms_connector_mode(const struct kms_card *card, const struct kms_connector *c,
			       char *buf, size_t len);
/* "FB 40 800x600 XR24", or "FB 40 (freed)"; fbdev ("fb0") instead when
 * it is not NULL and fb is the fbdev emulation's ([fbcon]). */
const char *kms_fb_text(const struct kms_fb *fb, const char *fbdev, char *buf, size_t len);
/* "comm[pid]" (the comm raw: escape it where it is printed), "[fbcon]"
 * or "unknown" (o->reason says why). */
const char *kms_owner_text(const struct kms_owner *o, char *buf, size_t len);
/* Connected, yet no active CRTC drives it: no mode is set. */
bool kms_connector_dark(const struct kms_card *card, const struct kms_connector *c);
/* "good", "bad" (link-status; the fix is a new modeset), NULL when not told. */
const char *kms_link_status_name(int link_status);
/* "on", "standby", "suspend", "off"; NULL when not told. */
const char *kms_dpms_name(int dpms);
