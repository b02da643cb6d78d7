/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the kernel says (kernel.h) and the known kernel bugs compiled in
 * from src/kernel-hazards.tab (kernel-hazards.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gz.h"
#include "kernel-hazards.h"
#include "kernel.h"
#include "test.h"

static void test_cmdline(void)
{
	char buf[64];
	const char *cl = "BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda nomodeset video=1024x768 "
			 "video=efifb:off quiet";

	ASSERT_STR_EQ(kernel_cmdline_value(cl, "nomodeset", buf, sizeof(buf)), "");
	ASSERT_STR_EQ(kernel_cmdline_value(cl, "video", buf, sizeof(buf)), "efifb:off");
	ASSERT_STR_EQ(kernel_cmdline_value(cl, "root", buf, sizeof(buf)), "/dev/vda");
	ASSERT_NULL(kernel_cmdline_value(cl, "nomode", buf, sizeof(buf)));
	ASSERT_NULL(kernel_cmdline_value(cl, "quie", buf, sizeof(buf)));
	ASSERT_NULL(kernel_cmdline_value("", "video", buf, sizeof(buf)));
	ASSERT_NULL(kernel_cmdline_value(NULL, "video", buf, sizeof(buf)));
}

static void test_config(void)
{
	char text[] =
		"#\n# CONFIG_FB_DEVICE is not set\nCONFIG_FB=y\nCONFIG_DRM_BOCHS=m\n"
		"CONFIG_FBX=y\nCONFIG_FB_VESA=n\n# CONFIG_FB_EFI is not set really\n";
	struct kernel_config c = { .text = text };

	ASSERT_INT_EQ(kernel_config_value(&c, "FB"), 'y');
	ASSERT_INT_EQ(kernel_config_value(&c, "DRM_BOCHS"), 'm');
	ASSERT_INT_EQ(kernel_config_value(&c, "FB_DEVICE"), 'n');
	ASSERT_INT_EQ(kernel_config_value(&c, "FB_VESA"), 'n');
	/* a longer name is not this one; a comment that is not the form is nothing */
	ASSERT_INT_EQ(kernel_config_value(&c, "FBX"), 'y');
	ASSERT_INT_EQ(kernel_config_value(&c, "FB_EFI"), 0);
	ASSERT_INT_EQ(kernel_config_value(&c, "DRM"), 0);
	c.text = NULL;
	ASSERT_INT_EQ(kernel_config_value(&c, "FB"), 0);
}

static void test_upstream(void)
{
	char buf[32];

	ASSERT_STR_EQ(kernel_upstream_from_uname(
			      "6.1.0-57-amd64",
			      "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2025-11-20)", buf,
			      sizeof(buf)),
		      "6.1.192");
	ASSERT_STR_EQ(kernel_upstream_from_uname(
			      "6.12.118+deb13-amd64",
			      "#1 SMP PREEMPT_DYNAMIC Debian 6.12.118-1 (2025-12-01)",
			      buf, sizeof(buf)),
		      "6.12.118");
	ASSERT_STR_EQ(kernel_upstream_from_uname("6.8.0-31-generic", "#31-Ubuntu SMP",
						 buf, sizeof(buf)),
		      "6.8.0");
	ASSERT_STR_EQ(kernel_upstream_from_uname("6.19.2", NULL, buf, sizeof(buf)),
		      "6.19.2");
	ASSERT_STR_EQ(kernel_upstream_from_uname("6.9", "#1", buf, sizeof(buf)), "");
	ASSERT_STR_EQ(kernel_upstream_from_uname("junk", "Debian x", buf, sizeof(buf)),
		      "");
	ASSERT_STR_EQ(kernel_upstream_from_uname("1..2", NULL, buf, sizeof(buf)), "");
}

/* Data lines of the table: the generated C table must hold each one. */
static size_t table_lines(void)
{
	const char *path = getenv("top_srcdir");
	char file[4096], line[4096];
	size_t n = 0;
	FILE *f;

	snprintf(file, sizeof(file), "%s/src/kernel-hazards.tab", path ? path : "..");
	f = fopen(file, "re");
	ASSERT_TRUE(f != NULL);
	while (f && fgets(line, sizeof(line), f))
		n += line[0] != '#' && line[0] != '\n';
	if (f)
		fclose(f);
	return n;
}

static void test_hazards(void)
{
	const struct kernel_hazard *h;
	size_t i = 0, n = 0;

	ASSERT_INT_EQ(n_kernel_hazards, table_lines());
	ASSERT_TRUE(kernel_version_cmp("6.1.176", "6.1.192") < 0);
	ASSERT_TRUE(kernel_version_cmp("6.12.0", "6.1.999") > 0);
	ASSERT_INT_EQ(kernel_version_cmp("6.1.9", "6.1.9"), 0);
	for (size_t k = 0; k < n_kernel_hazards; k++) {
		h = &kernel_hazards[k];
		ASSERT_MSG(kernel_version_cmp(h->kmin, h->kmax) <= 0, "%s: range %s..%s",
			   h->id, h->kmin, h->kmax);
		ASSERT_MSG(*h->description && *h->regex, "%s: fields", h->id);
	}
	/* cirrus's spin on 6.12.118, not on 6.1.192, not for bochs */
	while ((h = kernel_hazard_next("6.12.118", "cirrus", NULL, &i)))
		n += strcmp(h->id, "cirrus-unbind-mapped-exit") == 0;
	ASSERT_INT_EQ(n, 1);
	i = 0;
	ASSERT_NULL(kernel_hazard_next("6.1.192", "cirrus", NULL, &i));
	i = 0;
	ASSERT_NULL(kernel_hazard_next("6.12.118", "bochs-drm", NULL, &i));
	/* the range's ends are in it, one past is not */
	i = 0;
	ASSERT_TRUE(kernel_hazard_next("6.1.176", "vfb", "unbind-mapped", &i) != NULL);
	i = 0;
	ASSERT_NULL(kernel_hazard_next("6.1.177", "vfb", "unbind-mapped", &i));
	i = 0;
	ASSERT_NULL(kernel_hazard_next("", "vfb", NULL, &i));
}

/* /proc/config.gz as doctor reads it: whole, and refused when too large
 * or holding a NUL. */
static void test_gz(void)
{
	char dir[] = "/tmp/fbclass-gz.XXXXXX", cmd[256], path[128];
	char *text;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof(cmd),
		 "printf 'CONFIG_FB=y\\nCONFIG_DRM=m\\n' | gzip >%s/config.gz && "
		 "printf 'a\\0b' | gzip >%s/nul.gz",
		 dir, dir);
	if (system(cmd) != 0) {
		ASSERT_MSG(false, "gzip could not make the test files");
		return;
	}
	snprintf(path, sizeof(path), "%s/config.gz", dir);
	text = fb_gz_read_file(path, 4096);
	ASSERT_STR_EQ(text, "CONFIG_FB=y\nCONFIG_DRM=m\n");
	free(text);
	/* cut at max: what fits is read, no more */
	text = fb_gz_read_file(path, 11);
	ASSERT_STR_EQ(text, "CONFIG_FB=y");
	free(text);
	snprintf(path, sizeof(path), "%s/nul.gz", dir);
	errno = 0;
	ASSERT_NULL(fb_gz_read_file(path, 4096));
	ASSERT_INT_EQ(errno, EINVAL);
	snprintf(path, sizeof(path), "%s/none.gz", dir);
	ASSERT_NULL(fb_gz_read_file(path, 4096));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ASSERT_INT_EQ(system(cmd), 0);
}

int main(void)
{
	test_cmdline();
	test_config();
	test_upstream();
	test_hazards();
	test_gz();
	return test_finish("test-kernel");
}
