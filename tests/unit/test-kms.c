/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The KMS reader (src/kms-read.c, src/kms-owner.c) fed with answers
 * captured on bochs in the VM on 6.1 and 6.12 by tests/vm/scenarios/kms.sh
 * (tests/unit/kms/NAME/: drm_info -j's JSON,
 * debugfs' dri/0/framebuffer and clients): ids, modes, formats, owners;
 * a non-linear modifier; an FB, a connector gone by the time they are
 * read; debugfs missing; owners that cannot be told.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kms-fake.h"
#include "test.h"

static char dir[512];

static int load(const char *name)
{
	return kms_fake_load(name, dir, sizeof(dir));
}

static int read_card(struct kms_card *card, const char *dri_dir)
{
	char reason[256] = "";
	int r;

	memset(card, 0, sizeof(*card));
	r = kms_read_card(&kms_fake_ops, -1, card, reason, sizeof(reason));
	ASSERT_MSG(r == 0, "kms_read_card: %d %s", r, reason);
	if (r == 0)
		kms_owner_resolve(card, dri_dir);
	return r;
}

/* bochs on 6.12 at the console: fbcon's FB on the one CRTC */
static void test_console(void)
{
	struct kms_card card;
	const struct kms_plane *pl;
	const struct kms_fb *fb;
	char fourcc[5];

	if (load("bochs-6.12-console") < 0 || read_card(&card, dir) < 0)
		return;
	ASSERT_INT_EQ(card.n_crtcs, 1);
	ASSERT_INT_EQ(card.crtcs[0].id, 36);
	ASSERT_TRUE(card.crtcs[0].active);
	ASSERT_STR_EQ(card.crtcs[0].mode.name, "1280x800");
	ASSERT_INT_EQ(card.crtcs[0].mode.clock_khz, 107300);
	ASSERT_INT_EQ(card.crtcs[0].mode.htotal, 1728);
	ASSERT_INT_EQ(card.crtcs[0].mode.vsync_start, 804);
	ASSERT_INT_EQ(card.crtcs[0].mode.vrefresh, 75);
	/* 107300 kHz / (1728 x 828) */
	ASSERT_INT_EQ(card.crtcs[0].mode.refresh_mhz, 74994);
	ASSERT_INT_EQ(card.n_planes, 1);
	pl = kms_card_primary(&card, 36);
	ASSERT_TRUE(pl != NULL);
	if (pl) {
		ASSERT_INT_EQ(pl->id, 34);
		ASSERT_INT_EQ(pl->fb_id, 38);
		ASSERT_TRUE(pl->have_position);
		ASSERT_INT_EQ(pl->crtc_w, 1280);
		ASSERT_INT_EQ(pl->crtc_h, 800);
	}
	ASSERT_INT_EQ(card.n_connectors, 1);
	ASSERT_STR_EQ(card.connectors[0].name, "card0-Virtual-1");
	ASSERT_INT_EQ(card.connectors[0].id, 32);
	ASSERT_INT_EQ(card.connectors[0].crtc_id, 36);
	ASSERT_INT_EQ(card.connectors[0].connection, KMS_CONNECTED);
	ASSERT_INT_EQ(card.connectors[0].link_status, 0);
	ASSERT_INT_EQ(card.connectors[0].dpms, 0);
	ASSERT_INT_EQ(card.n_fbs, 1);
	fb = kms_card_fb(&card, 38);
	ASSERT_TRUE(fb != NULL);
	if (fb) {
		ASSERT_INT_EQ(fb->width, 1280);
		ASSERT_INT_EQ(fb->height, 800);
		ASSERT_STR_EQ(kms_fourcc_str(fb->fourcc, fourcc), "XR24");
		ASSERT_TRUE(!fb->have_modifier);
		ASSERT_INT_EQ(fb->modifier, 0);
		ASSERT_INT_EQ(fb->owner.kind, KMS_OWNER_FBCON);
		ASSERT_STR_EQ(fb->owner.comm, "[fbcon]");
	}
	ASSERT_INT_EQ(kms_fake.closed_handles, 0);
	kms_card_free(&card);
}

/* modetest showing 800x600 (6.1 and 6.12 number the objects apart): its
 * own FB on the primary plane, its owner modetest[pid], the DRM master */
static void test_modetest(const char *name, uint32_t crtc, uint32_t plane, uint32_t fb_id,
			  uint32_t conn, pid_t pid)
{
	struct kms_card card;
	const struct kms_plane *pl;
	const struct kms_fb *fb;

	if (load(name) < 0 || read_card(&card, dir) < 0)
		return;
	ASSERT_INT_EQ(card.n_crtcs, 1);
	ASSERT_INT_EQ(card.crtcs[0].id, crtc);
	ASSERT_STR_EQ(card.crtcs[0].mode.name, "800x600");
	ASSERT_INT_EQ(card.crtcs[0].mode.clock_khz, 40000);
	/* 40000 kHz / (1056 x 628): modetest says 60.32 Hz */
	ASSERT_INT_EQ(card.crtcs[0].mode.refresh_mhz, 60317);
	ASSERT_INT_EQ(card.crtcs[0].mode.vrefresh, 60);
	pl = kms_card_primary(&card, crtc);
	ASSERT_TRUE(pl && pl->id == plane && pl->fb_id == fb_id);
	ASSERT_INT_EQ(card.connectors[0].id, conn);
	ASSERT_INT_EQ(card.connectors[0].crtc_id, crtc);
	ASSERT_STR_EQ(card.connectors[0].name, "card0-Virtual-1");
	fb = kms_card_fb(&card, fb_id);
	ASSERT_TRUE(fb != NULL);
	if (fb) {
		ASSERT_INT_EQ(fb->width, 800);
		ASSERT_INT_EQ(fb->height, 600);
		ASSERT_INT_EQ(fb->owner.kind, KMS_OWNER_PROCESS);
		ASSERT_STR_EQ(fb->owner.comm, "modetest");
		ASSERT_INT_EQ(fb->owner.pid, pid);
		ASSERT_TRUE(fb->owner.master);
	}
	kms_card_free(&card);
}

/* A tiled FB: the modifier is kept, not taken for linear. */
static void test_modifier(void)
{
	struct kms_card card;

	if (load("bochs-6.12-console") < 0)
		return;
	kms_fake.modifier = 0x0100000000000001ULL; /* I915_FORMAT_MOD_X_TILED */
	kms_fake.handle = 7; /* as root: the handle is given back */
	if (read_card(&card, dir) < 0)
		return;
	ASSERT_INT_EQ(card.n_fbs, 1);
	ASSERT_TRUE(card.fbs[0].have_modifier);
	ASSERT_TRUE(card.fbs[0].modifier == 0x0100000000000001ULL);
	ASSERT_INT_EQ(kms_fake.closed_handles, 1);
	kms_card_free(&card);
}

/* The FB the plane shows is freed before GETFB2: kept, marked gone. */
static void test_fb_gone(void)
{
	struct kms_card card;

	if (load("bochs-6.12-console") < 0)
		return;
	kms_fake.gone_fb = 38;
	if (read_card(&card, dir) < 0)
		return;
	ASSERT_INT_EQ(card.n_fbs, 1);
	ASSERT_INT_EQ(card.fbs[0].id, 38);
	ASSERT_TRUE(card.fbs[0].gone);
	ASSERT_INT_EQ(card.fbs[0].width, 0);
	ASSERT_INT_EQ(card.fbs[0].owner.kind, KMS_OWNER_UNKNOWN);
	ASSERT_MSG(strstr(card.fbs[0].owner.reason, "freed") != NULL, "reason: %s",
		   card.fbs[0].owner.reason);
	/* the rest of the card is read as ever */
	ASSERT_INT_EQ(card.n_connectors, 1);
	ASSERT_INT_EQ(card.planes[0].fb_id, 38);
	kms_card_free(&card);
}

/* A connector gone mid-read (unplugged MST, unbind) is left out. */
static void test_connector_gone(void)
{
	struct kms_card card;

	if (load("bochs-6.12-console") < 0)
		return;
	kms_fake.vanished = 32;
	if (read_card(&card, dir) < 0)
		return;
	ASSERT_INT_EQ(card.n_connectors, 0);
	ASSERT_INT_EQ(card.n_crtcs, 1);
	kms_card_free(&card);
}

/* No debugfs: the owner is unknown, and the reason says so. */
static void test_no_debugfs(void)
{
	struct kms_card card;

	if (load("bochs-6.12-console") < 0 || read_card(&card, "/nonexistent/dri/0") < 0)
		return;
	ASSERT_INT_EQ(card.fbs[0].owner.kind, KMS_OWNER_UNKNOWN);
	ASSERT_MSG(strstr(card.fbs[0].owner.reason, "debugfs not mounted") != NULL,
		   "reason: %s", card.fbs[0].owner.reason);
	kms_card_free(&card);
}

static void write_file(const char *d, const char *name, const char *text)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	f = fopen(path, "we");
	ASSERT_TRUE(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const char fb40[] = "framebuffer[40]:\n\tallocated by = my app\n\trefcount=2\n"
			   "\tformat=XR24 little-endian (0x34325258)\n\tsize=800x600\n";
static const char clients_head[] =
	"             command  tgid dev master a   uid      magic\n";

/* owner_for CLIENTS: the owner of FB 40 (made by "my app") for these clients */
static struct kms_owner owner_for(const char *clients)
{
	char d[] = "/tmp/test-kms.XXXXXX", text[1024];
	struct kms_card card = { 0 };
	struct kms_fb fb = { .id = 40 };
	struct kms_owner o = { 0 };

	if (!mkdtemp(d)) {
		ASSERT_TRUE(false);
		return o;
	}
	write_file(d, "framebuffer", fb40);
	snprintf(text, sizeof(text), "%s%s", clients_head, clients);
	write_file(d, "clients", text);
	card.fbs = &fb;
	card.n_fbs = 1;
	kms_owner_resolve(&card, d);
	o = fb.owner;
	snprintf(text, sizeof(text), "rm -rf '%s'", d);
	ASSERT_INT_EQ(system(text), 0);
	return o;
}

/* A comm with a blank, joined to its client; two clients of that name. */
static void test_owner_join(void)
{
	struct kms_owner o;

	o = owner_for("              my app   160   0   y    y     0          0\n"
		      "             weston   170   0   n    y     0          0\n");
	ASSERT_INT_EQ(o.kind, KMS_OWNER_PROCESS);
	ASSERT_STR_EQ(o.comm, "my app");
	ASSERT_INT_EQ(o.pid, 160);
	ASSERT_TRUE(o.master);
	o = owner_for("              my app   160   0   n    y     0          0\n"
		      "              my app   161   0   n    y     0          0\n");
	ASSERT_INT_EQ(o.kind, KMS_OWNER_UNKNOWN);
	ASSERT_MSG(strstr(o.reason, "2 processes named my app") != NULL, "reason: %s",
		   o.reason);
	o = owner_for("             weston   170   0   y    y     0          0\n");
	ASSERT_INT_EQ(o.kind, KMS_OWNER_UNKNOWN);
	ASSERT_MSG(strstr(o.reason, "no process named my app") != NULL, "reason: %s",
		   o.reason);
	/* one process, two open files: still one owner */
	o = owner_for("              my app   160   0   y    y     0          0\n"
		      "              my app   160   0   n    y     0          0\n");
	ASSERT_INT_EQ(o.kind, KMS_OWNER_PROCESS);
	ASSERT_INT_EQ(o.pid, 160);
}

/* SHOWN: fbcon's FB on an active CRTC, another's, or an owner unknown */
static void test_shown(void)
{
	struct kms_card card;

	if (load("bochs-6.12-console") < 0 || read_card(&card, dir) < 0)
		return;
	ASSERT_STR_EQ(kms_shown_name(kms_card_shown(&card)), "yes");
	card.crtcs[0].active = false;
	ASSERT_STR_EQ(kms_shown_name(kms_card_shown(&card)), "no");
	kms_card_free(&card);
	if (load("bochs-6.1-modetest") < 0 || read_card(&card, dir) < 0)
		return;
	ASSERT_STR_EQ(kms_shown_name(kms_card_shown(&card)), "no");
	kms_card_free(&card);
	if (load("bochs-6.12-console") < 0 || read_card(&card, "/nonexistent") < 0)
		return;
	ASSERT_STR_EQ(kms_shown_name(kms_card_shown(&card)), "unknown");
	kms_card_free(&card);
	if (load("bochs-6.12-console") < 0)
		return;
	kms_fake.gone_fb = 38;
	if (read_card(&card, dir) < 0)
		return;
	ASSERT_STR_EQ(kms_shown_name(kms_card_shown(&card)), "unknown");
	kms_card_free(&card);
}

/* doctor's words for what a connector shows */
static void test_scanout_text(void)
{
	struct kms_card card;
	char buf[512];

	if (load("bochs-6.12-modetest") < 0 || read_card(&card, dir) < 0)
		return;
	ASSERT_TRUE(kms_connector_scanout(&card, &card.connectors[0], buf, sizeof(buf)));
	ASSERT_STR_EQ(
		buf,
		"card0-Virtual-1 shows FB 40 800x600 XR24 of modetest[185], DRM master");
	/* a comm from outside is escaped */
	snprintf(card.fbs[0].owner.comm, sizeof(card.fbs[0].owner.comm), "evil\x1b[2J");
	kms_connector_scanout(&card, &card.connectors[0], buf, sizeof(buf));
	ASSERT_MSG(strstr(buf, "evil\\x1b[2J[185]") != NULL, "%s", buf);
	card.crtcs[0].active = false;
	ASSERT_TRUE(!kms_connector_scanout(&card, &card.connectors[0], buf, sizeof(buf)));
	kms_card_free(&card);
	if (load("bochs-6.1-modetest") < 0 || read_card(&card, dir) < 0)
		return;
	kms_connector_scanout(&card, &card.connectors[0], buf, sizeof(buf));
	ASSERT_STR_EQ(
		buf,
		"card0-Virtual-1 shows FB 39 800x600 XR24 of modetest[140], DRM master");
	kms_card_free(&card);
}

/* list --connectors' cells: the mode, what is shown, whose */
static void test_connector_row(void)
{
	struct kms_card card;
	const struct kms_fb *fb;
	char buf[128];

	if (load("bochs-6.12-console") < 0 || read_card(&card, dir) < 0)
		return;
	/* 107300 kHz / (1728 x 828) = 74.994 Hz */
	ASSERT_STR_EQ(kms_connector_mode(&card, &card.connectors[0], buf, sizeof(buf)),
		      "1280x800@74.99");
	fb = kms_connector_fb(&card, &card.connectors[0]);
	ASSERT_TRUE(fb != NULL && fb->id == 38);
	if (fb) {
		ASSERT_STR_EQ(kms_fb_text(fb, "fb0", buf, sizeof(buf)), "fb0");
		ASSERT_STR_EQ(kms_fb_text(fb, NULL, buf, sizeof(buf)),
			      "FB 38 1280x800 XR24");
		ASSERT_STR_EQ(kms_owner_text(&fb->owner, buf, sizeof(buf)), "[fbcon]");
	}
	ASSERT_TRUE(!kms_connector_dark(&card, &card.connectors[0]));
	ASSERT_STR_EQ(kms_link_status_name(card.connectors[0].link_status), "good");
	ASSERT_STR_EQ(kms_dpms_name(card.connectors[0].dpms), "on");
	kms_card_free(&card);
	if (load("bochs-6.12-modetest") < 0 || read_card(&card, dir) < 0)
		return;
	ASSERT_STR_EQ(kms_connector_mode(&card, &card.connectors[0], buf, sizeof(buf)),
		      "800x600@60.32");
	fb = kms_connector_fb(&card, &card.connectors[0]);
	ASSERT_TRUE(fb != NULL);
	if (fb) {
		/* not fbcon's: its id, never the fb's name */
		ASSERT_STR_EQ(kms_fb_text(fb, "fb0", buf, sizeof(buf)),
			      "FB 40 800x600 XR24");
		ASSERT_STR_EQ(kms_owner_text(&fb->owner, buf, sizeof(buf)),
			      "modetest[185]");
		card.fbs[0].gone = true;
		ASSERT_STR_EQ(kms_fb_text(fb, "fb0", buf, sizeof(buf)), "FB 40 (freed)");
	}
	/* a CRTC switched off: no mode, nothing shown */
	card.crtcs[0].active = false;
	ASSERT_STR_EQ(kms_connector_mode(&card, &card.connectors[0], buf, sizeof(buf)),
		      "");
	ASSERT_TRUE(kms_connector_fb(&card, &card.connectors[0]) == NULL);
	ASSERT_TRUE(kms_connector_dark(&card, &card.connectors[0]));
	kms_card_free(&card);
	/* a mode of whole Hz has no decimals */
	card.crtcs = &(struct kms_crtc){
		.id = 1,
		.active = true,
		.mode_valid = true,
		.mode = { .hdisplay = 640, .vdisplay = 480, .refresh_mhz = 59999 }
	};
	card.n_crtcs = 1;
	ASSERT_STR_EQ(kms_connector_mode(&card, &(struct kms_connector){ .crtc_id = 1 },
					 buf, sizeof(buf)),
		      "640x480@60");
}

/* property NAME of connector id in the captured answers set to value */
static void set_connector_prop(uint32_t id, const char *name, int64_t value)
{
	json_object *card = NULL, *conns = NULL, *props = NULL, *prop = NULL;

	json_object_object_get_ex(kms_fake.root, "/dev/dri/card0", &card);
	json_object_object_get_ex(card, "connectors", &conns);
	for (size_t i = 0; conns && i < json_object_array_length(conns); i++) {
		json_object *c = json_object_array_get_idx(conns, i), *v = NULL;

		if (json_object_object_get_ex(c, "id", &v) &&
		    json_object_get_int64(v) == id)
			json_object_object_get_ex(c, "properties", &props);
	}
	if (props && json_object_object_get_ex(props, name, &prop))
		json_object_object_add(prop, "raw_value", json_object_new_int64(value));
	ASSERT_MSG(prop != NULL, "connector %u has no property %s", id, name);
}

/* doctor's connector checks, from the console's answers changed as a
 * kernel would give them: a connected connector that no CRTC drives
 * (CRTC_ID 0), and a link that failed training (link-status Bad) */
static void test_dark_and_bad_link(void)
{
	struct kms_card card;
	char buf[128];

	if (load("bochs-6.12-console") < 0)
		return;
	set_connector_prop(32, "CRTC_ID", 0);
	set_connector_prop(32, "link-status", 1);
	if (read_card(&card, dir) < 0)
		return;
	ASSERT_INT_EQ(card.connectors[0].connection, KMS_CONNECTED);
	ASSERT_INT_EQ(card.connectors[0].crtc_id, 0);
	ASSERT_TRUE(kms_connector_dark(&card, &card.connectors[0]));
	ASSERT_STR_EQ(kms_connector_mode(&card, &card.connectors[0], buf, sizeof(buf)),
		      "");
	ASSERT_TRUE(kms_connector_fb(&card, &card.connectors[0]) == NULL);
	ASSERT_INT_EQ(card.connectors[0].link_status, 1);
	ASSERT_STR_EQ(kms_link_status_name(card.connectors[0].link_status), "bad");
	/* disconnected and dark is no fault */
	card.connectors[0].connection = KMS_DISCONNECTED;
	ASSERT_TRUE(!kms_connector_dark(&card, &card.connectors[0]));
	kms_card_free(&card);
}

int main(void)
{
	test_console();
	test_modetest("bochs-6.1-modetest", 35, 33, 39, 31, 140);
	test_modetest("bochs-6.12-modetest", 36, 34, 40, 32, 185);
	test_modifier();
	test_fb_gone();
	test_connector_gone();
	test_no_debugfs();
	test_owner_join();
	test_shown();
	test_scanout_text();
	test_connector_row();
	test_dark_and_bad_link();
	json_object_put(kms_fake.root);
	return test_finish("test-kms");
}
