/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* node_plan() on plain data: nodes, owners, links, collisions, rules. */
#include "config.h"

#include <errno.h>
#include <sys/sysmacros.h>

#include "check.h"
#include "modules.h"
#include "nodes.h"
#include "rules.h"

static struct fb_parent pci_bochs = { .subsystem = "pci", .driver = "bochs-drm" };
static struct fb_parent plat_vesa = { .subsystem = "platform",
				      .driver = "vesa-framebuffer" };
static struct fb_parent plat_nodrv = { .subsystem = "platform" };

/* makedev() is not a constant expression; this encoding is, for minor < 256. */
#define FBDEV(min) ((dev_t)((29u << 8) | (min)))

#define DEV(n, min, path, parent)                                                 \
	{                                                                         \
		.name = n, .syspath = "/sys/devices/x/graphics/" n, .devname = n, \
		.devnum = FBDEV(min), .parents = parent, .n_parents = 1,          \
		.path_id = path,                                                  \
	}

static struct fb_device devs[] = {
	DEV("fb0", 0, "pci-0000:00:02.0", &pci_bochs),
	DEV("fb1", 1, "platform-vfb.0", &plat_nodrv),
	DEV("fb2", 2, "pci-0000:00:02.0", &pci_bochs), /* same parent as fb0 */
	DEV("fb3", 3, NULL, &plat_vesa),
};

static const struct node_owner defaults = {
	.uid = 0, .gid = 44, .mode = 0660, .user = "root", .group = "video"
};

static const struct node_link *find(const struct node_plan *p, const char *path)
{
	for (size_t i = 0; i < p->n_links; i++)
		if (strcmp(p->links[i].path, path) == 0)
			return &p->links[i];
	return NULL;
}

static void test_defaults(void)
{
	/* Inputs out of minor order: the lowest minor must still win. */
	struct node_input in[] = {
		{ &devs[2], "bochsdrmfb" },
		{ &devs[0], "bochsdrmfb" },
		{ &devs[1], "Virtual FB" },
		{ &devs[3], NULL },
	};
	struct node_plan p;
	const struct node_link *l;

	CHECK(FBDEV(3) == makedev(29, 3));
	CHECK_INTEQ(node_plan(in, 4, NULL, &defaults, &p), 0);
	CHECK_INTEQ(p.n_nodes, 4);
	CHECK_STREQ(p.nodes[0].name, "fb2");
	CHECK(p.nodes[0].devnum == makedev(29, 2));
	CHECK_STREQ(p.nodes[1].name, "fb0");
	CHECK_INTEQ(p.nodes[1].own.gid, 44);
	CHECK_INTEQ(p.nodes[1].own.mode, 0660);
	CHECK_STREQ(p.nodes[1].own.group, "video");
	/* by-path x2 (fb0 wins over fb2), by-name x2 (fb0 wins, "Virtual_FB") */
	CHECK_INTEQ(p.n_links, 4);
	l = find(&p, "fb/by-path/pci-0000:00:02.0");
	CHECK(l && strcmp(l->target, "../../fb0") == 0 && strcmp(l->node, "fb0") == 0);
	l = find(&p, "fb/by-name/bochsdrmfb");
	CHECK(l && strcmp(l->target, "../../fb0") == 0);
	l = find(&p, "fb/by-name/Virtual_FB");
	CHECK(l && strcmp(l->target, "../../fb1") == 0);
	l = find(&p, "fb/by-path/platform-vfb.0");
	CHECK(l && strcmp(l->target, "../../fb1") == 0);
	CHECK_INTEQ(p.n_kept, 0);
	CHECK_INTEQ(p.n_stale, 0);
	node_plan_free(&p);

	/* No parent path id, no id: a node and no links. */
	struct node_input in2[] = { { &devs[3], NULL } };
	CHECK_INTEQ(node_plan(in2, 1, NULL, &defaults, &p), 0);
	CHECK_INTEQ(p.n_nodes, 1);
	CHECK_INTEQ(p.n_links, 0);
	node_plan_free(&p);

	CHECK_INTEQ(node_plan(NULL, 0, NULL, &defaults, &p), 0);
	CHECK_INTEQ(p.n_nodes + p.n_links, 0);
	node_plan_free(&p);
}

static void test_rules(void)
{
	static const char conf[] =
		"name=fb3 ignore\n"
		"driver=bochs-drm id=bochs* owner=root group=root mode=0600 link=display/main\n"
		"path=platform-* mode=0666 link=display/vfb link=deep/er/vfb\n"
		"name=fb9 link=display/gone\n";
	struct node_input in[] = {
		{ &devs[0], "bochsdrmfb" },
		{ &devs[1], "Virtual FB" },
		{ &devs[3], "VESA VGA" },
	};
	struct fb_rules r;
	struct node_plan p;
	const struct node_link *l;

	CHECK_INTEQ(fb_rules_parse_string(conf, "plan.conf", &r), 0);
	CHECK_INTEQ(node_plan(in, 3, &r, &defaults, &p), 0);
	CHECK_INTEQ(p.n_nodes, 2);
	CHECK_STREQ(p.nodes[0].name, "fb0");
	CHECK_INTEQ(p.nodes[0].own.gid, 0);
	CHECK_STREQ(p.nodes[0].own.group, "root");
	CHECK_INTEQ(p.nodes[0].own.mode, 0600);
	CHECK_STREQ(p.nodes[1].name, "fb1");
	CHECK_INTEQ(p.nodes[1].own.mode, 0666);
	CHECK_STREQ(p.nodes[1].own.group, "video"); /* default kept */
	CHECK_INTEQ(p.n_kept, 1);
	CHECK_STREQ(p.kept[0], "fb3");
	l = find(&p, "display/main");
	CHECK(l && strcmp(l->target, "../fb0") == 0);
	l = find(&p, "display/vfb");
	CHECK(l && strcmp(l->target, "../fb1") == 0);
	l = find(&p, "deep/er/vfb");
	CHECK(l && strcmp(l->target, "../../fb1") == 0);
	CHECK(find(&p, "fb/by-name/VESA_VGA") == NULL); /* ignored device: no links */
	CHECK_INTEQ(p.n_stale, 1);
	CHECK_STREQ(p.stale[0], "display/gone");
	node_plan_free(&p);
	fb_rules_free(&r);
}

static void test_unsafe_devname(void)
{
	struct fb_device bad[] = {
		DEV("fb0", 0, NULL, &pci_bochs), DEV("fb1", 1, NULL, &pci_bochs),
		DEV("fb2", 2, NULL, &pci_bochs), DEV("fb3", 3, NULL, &pci_bochs),
		DEV("fb4", 4, NULL, &pci_bochs),
	};
	struct node_input in[5];
	struct node_plan p;

	bad[0].devname = "../../tmp/pwn";
	bad[1].devname = "/etc/x";
	bad[2].devname = "..";
	bad[3].devname = "";
	bad[4].devname = "fb4";
	for (int i = 0; i < 5; i++)
		in[i] = (struct node_input){ &bad[i], NULL };
	CHECK_INTEQ(node_plan(in, 5, NULL, &defaults, &p), 0);
	CHECK_INTEQ(p.n_nodes, 1);
	CHECK_STREQ(p.nodes[0].name, "fb4");
	node_plan_free(&p);
}

static void test_sanitize(void)
{
	char buf[32];

	CHECK(node_link_name_sanitize("Bochs DRM", buf, sizeof(buf)));
	CHECK_STREQ(buf, "Bochs_DRM");
	CHECK(node_link_name_sanitize("a/b\\c\"d$e", buf, sizeof(buf)));
	CHECK_STREQ(buf, "a_b_c_d_e");
	CHECK(node_link_name_sanitize("..", buf, sizeof(buf)));
	CHECK_STREQ(buf, "__");
	CHECK(node_link_name_sanitize(".", buf, sizeof(buf)));
	CHECK_STREQ(buf, "_");
	CHECK(node_link_name_sanitize("pci-0000:00:02.0", buf, sizeof(buf)));
	CHECK_STREQ(buf, "pci-0000:00:02.0");
	CHECK(node_link_name_sanitize("\xc3\xa9t\xc3\xa9", buf, sizeof(buf)));
	CHECK_STREQ(buf, "__t__");
	CHECK(!node_link_name_sanitize("", buf, sizeof(buf)));
	CHECK(node_link_name_sanitize("0123456789abcdefghijklmnopqrstuvwxyz", buf, 8));
	CHECK_STREQ(buf, "0123456");

	CHECK(node_name_is_safe("fb0"));
	CHECK(!node_name_is_safe("fb0/../x"));
	CHECK(!node_name_is_safe("/etc/x"));
	CHECK(!node_name_is_safe(".."));
	CHECK(!node_name_is_safe("."));
	CHECK(!node_name_is_safe(""));
	CHECK(!node_name_is_safe(NULL));
	CHECK(!node_name_is_safe("fb\n0"));
	CHECK(!node_name_is_safe(".fbclassctl-1-fb0"));
}

/* --load-modules keeps only display drivers. */
static void test_module_paths(void)
{
	CHECK(fb_module_path_is_display(
		"/lib/modules/6.1.0-57-amd64/kernel/drivers/gpu/drm/tiny/bochs.ko"));
	CHECK(fb_module_path_is_display(
		"/lib/modules/6.1.0/kernel/drivers/video/fbdev/vfb.ko.xz"));
	CHECK(!fb_module_path_is_display(
		"/lib/modules/6.1.0/kernel/sound/pci/hda/snd-hda-intel.ko"));
	CHECK(!fb_module_path_is_display(
		"/lib/modules/6.1.0/kernel/drivers/gpu/host1x/host1x.ko"));
	CHECK(!fb_module_path_is_display(
		"/lib/modules/6.1.0/updates/drivers/gpu/drm/x.ko"));
	CHECK(!fb_module_path_is_display(NULL)); /* built in */
}

int main(void)
{
	test_module_paths();
	test_defaults();
	test_rules();
	test_unsafe_devname();
	test_sanitize();
	CHECK_EXIT();
}
