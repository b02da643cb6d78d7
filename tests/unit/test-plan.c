/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* nodes_plan() on plain data: nodes, owners, links, collisions, rules. */
#include <errno.h>
#include <sys/sysmacros.h>

#include "test.h"
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

/* The target of the link at path, or NULL (which ASSERT_STR_EQ fails). */
static const char *target(const struct node_plan *p, const char *path)
{
	static char buf[NODE_PATH_MAX];
	const struct node_link *l = find(p, path);

	if (!l)
		return NULL;
	node_link_target(l, buf, sizeof(buf));
	return buf;
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

	ASSERT_TRUE(FBDEV(3) == makedev(29, 3));
	ASSERT_INT_EQ(nodes_plan(in, 4, NULL, &defaults, &p), 0);
	ASSERT_INT_EQ(p.n_nodes, 4);
	ASSERT_STR_EQ(p.nodes[0].name, "fb2");
	ASSERT_TRUE(p.nodes[0].devnum == makedev(29, 2));
	ASSERT_STR_EQ(p.nodes[1].name, "fb0");
	ASSERT_INT_EQ(p.nodes[1].own.gid, 44);
	ASSERT_INT_EQ(p.nodes[1].own.mode, 0660);
	ASSERT_STR_EQ(p.nodes[1].own.group, "video");
	/* by-path x2 (fb0 wins over fb2), by-name x2 (fb0 wins, "Virtual_FB") */
	ASSERT_INT_EQ(p.n_links, 4);
	l = find(&p, "fb/by-path/pci-0000:00:02.0");
	ASSERT_TRUE(l && strcmp(l->node, "fb0") == 0);
	ASSERT_STR_EQ(target(&p, "fb/by-path/pci-0000:00:02.0"), "../../fb0");
	ASSERT_STR_EQ(target(&p, "fb/by-name/bochsdrmfb"), "../../fb0");
	ASSERT_STR_EQ(target(&p, "fb/by-name/Virtual_FB"), "../../fb1");
	ASSERT_STR_EQ(target(&p, "fb/by-path/platform-vfb.0"), "../../fb1");
	ASSERT_INT_EQ(p.n_kept, 0);
	ASSERT_INT_EQ(p.n_stale, 0);
	nodes_plan_free(&p);

	/* No parent path id, no id: a node and no links. */
	struct node_input in2[] = { { &devs[3], NULL } };
	ASSERT_INT_EQ(nodes_plan(in2, 1, NULL, &defaults, &p), 0);
	ASSERT_INT_EQ(p.n_nodes, 1);
	ASSERT_INT_EQ(p.n_links, 0);
	nodes_plan_free(&p);

	ASSERT_INT_EQ(nodes_plan(NULL, 0, NULL, &defaults, &p), 0);
	ASSERT_INT_EQ(p.n_nodes + p.n_links, 0);
	nodes_plan_free(&p);
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

	ASSERT_INT_EQ(fb_rules_parse_string(conf, "plan.conf", &r), 0);
	ASSERT_INT_EQ(nodes_plan(in, 3, &r, &defaults, &p), 0);
	ASSERT_INT_EQ(p.n_nodes, 2);
	ASSERT_STR_EQ(p.nodes[0].name, "fb0");
	ASSERT_INT_EQ(p.nodes[0].own.gid, 0);
	ASSERT_STR_EQ(p.nodes[0].own.group, "root");
	ASSERT_INT_EQ(p.nodes[0].own.mode, 0600);
	ASSERT_STR_EQ(p.nodes[1].name, "fb1");
	ASSERT_INT_EQ(p.nodes[1].own.mode, 0666);
	ASSERT_STR_EQ(p.nodes[1].own.group, "video"); /* default kept */
	ASSERT_INT_EQ(p.n_kept, 1);
	ASSERT_STR_EQ(p.kept[0], "fb3");
	ASSERT_STR_EQ(target(&p, "display/main"), "../fb0");
	ASSERT_STR_EQ(target(&p, "display/vfb"), "../fb1");
	ASSERT_STR_EQ(target(&p, "deep/er/vfb"), "../../fb1");
	ASSERT_TRUE(find(&p, "fb/by-name/VESA_VGA") ==
		    NULL); /* ignored device: no links */
	ASSERT_INT_EQ(p.n_stale, 1);
	ASSERT_STR_EQ(p.stale[0], "display/gone");
	nodes_plan_free(&p);
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
	ASSERT_INT_EQ(nodes_plan(in, 5, NULL, &defaults, &p), 0);
	ASSERT_INT_EQ(p.n_nodes, 1);
	ASSERT_STR_EQ(p.nodes[0].name, "fb4");
	nodes_plan_free(&p);
}

static void test_sanitize(void)
{
	static const struct {
		const char *in, *out;
	} names[] = {
		{ "Bochs DRM", "Bochs_DRM" },
		{ "a/b\\c\"d$e", "a_b_c_d_e" },
		{ "..", "__" },
		{ ".", "_" },
		{ "pci-0000:00:02.0", "pci-0000:00:02.0" },
		{ "\xc3\xa9t\xc3\xa9", "__t__" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ASSERT_MSG(nodes_plan_link_name_sanitize(names[i].in, buf, sizeof(buf)),
			   "\"%s\"", names[i].in);
		ASSERT_STR_EQ(buf, names[i].out);
	}
	ASSERT_TRUE(!nodes_plan_link_name_sanitize("", buf, sizeof(buf)));
	ASSERT_TRUE(nodes_plan_link_name_sanitize("0123456789abcdefghijklmnopqrstuvwxyz",
						  buf, 8));
	ASSERT_STR_EQ(buf, "0123456");

	ASSERT_TRUE(nodes_plan_name_is_safe("fb0"));
	ASSERT_TRUE(!nodes_plan_name_is_safe("fb0/../x"));
	ASSERT_TRUE(!nodes_plan_name_is_safe("/etc/x"));
	ASSERT_TRUE(!nodes_plan_name_is_safe(".."));
	ASSERT_TRUE(!nodes_plan_name_is_safe("."));
	ASSERT_TRUE(!nodes_plan_name_is_safe(""));
	ASSERT_TRUE(!nodes_plan_name_is_safe(NULL));
	ASSERT_TRUE(!nodes_plan_name_is_safe("fb\n0"));
	ASSERT_TRUE(!nodes_plan_name_is_safe(".fbclassctl-1-fb0"));
}

/* --load-modules keeps only display drivers. */
static void test_module_paths(void)
{
	ASSERT_TRUE(fb_module_path_is_display(
		"/lib/modules/6.1.0-57-amd64/kernel/drivers/gpu/drm/tiny/bochs.ko"));
	ASSERT_TRUE(fb_module_path_is_display(
		"/lib/modules/6.1.0/kernel/drivers/video/fbdev/vfb.ko.xz"));
	ASSERT_TRUE(!fb_module_path_is_display(
		"/lib/modules/6.1.0/kernel/sound/pci/hda/snd-hda-intel.ko"));
	ASSERT_TRUE(!fb_module_path_is_display(
		"/lib/modules/6.1.0/kernel/drivers/gpu/host1x/host1x.ko"));
	ASSERT_TRUE(!fb_module_path_is_display(
		"/lib/modules/6.1.0/updates/drivers/gpu/drm/x.ko"));
	ASSERT_TRUE(!fb_module_path_is_display(NULL)); /* built in */
}

/* fb/by-connector: one link per connected connector of a DRM fb's card;
 * rules on connector= and monitor=; a shared path id warned about. */
static void test_connectors(void)
{
	static const char *const conns[] = { "card0-Virtual-1", "card0-HDMI-A-1" };
	static const char *const mons[] = { "QEMU Monitor", NULL };
	struct node_input in[] = {
		{ &devs[0], "bochsdrmfb", conns, mons, 2 },
		{ &devs[2], "bochsdrmfb", conns, mons, 1 },
	};
	struct fb_rules rules = {};
	struct node_plan p;
	char buf[512] = "";
	FILE *saved = stderr, *mem = fmemopen(buf, sizeof(buf) - 1, "w");

	ASSERT_INT_EQ(fb_rules_parse_string("monitor=\"QEMU Monitor\" link=display/main\n"
					    "connector=card0-HDMI-* mode=0600\n",
					    "c.conf", &rules),
		      0);
	if (mem)
		stderr = mem;
	ASSERT_INT_EQ(nodes_plan(in, 2, &rules, &defaults, &p), 0);
	if (mem) {
		fclose(mem);
		stderr = saved;
	}
	ASSERT_STR_EQ(target(&p, "fb/by-connector/card0-Virtual-1"), "../../fb0");
	ASSERT_STR_EQ(target(&p, "fb/by-connector/card0-HDMI-A-1"), "../../fb0");
	ASSERT_STR_EQ(target(&p, "display/main"), "../fb0");
	/* fb0's first rule is the monitor's: its mode is the default */
	ASSERT_INT_EQ(p.nodes[0].own.mode, 0660);
	/* fb0 and fb2 share pci-0000:00:02.0: said, naming both */
	ASSERT_TRUE(
		strstr(buf,
		       "fb0 and fb2 share the path id pci-0000:00:02.0: only fb0 gets fb/by-path/pci-0000:00:02.0") !=
		NULL);
	nodes_plan_free(&p);
	fb_rules_free(&rules);
}

int main(void)
{
	test_connectors();
	test_module_paths();
	test_defaults();
	test_rules();
	test_unsafe_devname();
	test_sanitize();
	return test_finish("test-plan");
}
