/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The modules.alias / modules.dep reader (src/modalias-files.c) against a
 * module directory written here, malformed lines and long paths included. */
#include <errno.h>
#include <stdbool.h>
#include <unistd.h>

#include "modalias-files.h"
#include "test.h"

static char dir[] = "/tmp/test-modalias-XXXXXX";

static void write_file(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ASSERT_TRUE(f != NULL);
	if (!f)
		exit(EXIT_FAILURE);
	fputs(text, f);
	fclose(f);
}

static void remove_file(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

struct seen {
	char text[1024];
};

static void collect(const char *name, const char *path, void *userdata)
{
	struct seen *s = userdata;
	size_t n = strlen(s->text);

	snprintf(s->text + n, sizeof(s->text) - n, "%s=%s;", name,
		 path ? path + strlen(dir) + 1 : "builtin");
}

static const char *lookup(const char *alias, int want)
{
	static struct seen s;

	s.text[0] = '\0';
	ASSERT_INT_EQ(fb_modalias_lookup(dir, alias, collect, &s), want);
	return s.text;
}

int main(void)
{
	char buf[64], longname[5000];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	write_file("modules.alias", "# Aliases extracted from modules themselves.\n"
				    "alias pci:v00001234d00001111sv*sd*bc03sc*i* bochs\n"
				    "alias pci:v00001234d00001111sv*sd*bc*sc*i* bochs\n"
				    "alias pci:v*d*sv*sd*bc03sc00i00* vga-other\n"
				    "alias pci:v00008086d*sv*sd*bc*sc*i* e1000\n"
				    "alias missing-name\n"
				    "nonsense pci:* x\n"
				    "alias pci:* too many words\n"
				    "\n");
	write_file("modules.dep",
		   "kernel/drivers/gpu/drm/tiny/bochs.ko.xz: kernel/drivers/gpu/drm/drm.ko.xz\n"
		   "kernel/drivers/video/fbdev/vga-other.ko:\n"
		   "this line has no colon\n"
		   "kernel/drivers/net/e1000.ko.xz:\n");

	/* both bochs patterns match, bochs is reported once; names use '_' */
	ASSERT_STR_EQ(lookup("pci:v00001234d00001111sv00001AF4sd00001100bc03sc00i00", 2),
		      "bochs=kernel/drivers/gpu/drm/tiny/bochs.ko.xz;"
		      "vga_other=kernel/drivers/video/fbdev/vga-other.ko;");
	ASSERT_STR_EQ(lookup("pci:v00008086d00001000sv0sd0bc02sc00i00", 1),
		      "e1000=kernel/drivers/net/e1000.ko.xz;");
	ASSERT_STR_EQ(lookup("usb:v1D6Bp0002d0601dc09dsc00dp01ic09isc00ip00in00", 0), "");

	/* modules.builtin.alias: a match without a path */
	write_file("modules.builtin.alias",
		   "alias platform:simple-framebuffer simplefb\n");
	ASSERT_STR_EQ(lookup("platform:simple-framebuffer", 1), "simplefb=builtin;");

	/* a module modules.dep does not know: no path, as libkmod has none */
	write_file("modules.alias", "alias platform:vfb vfb\n");
	ASSERT_STR_EQ(lookup("platform:vfb", 1), "vfb=builtin;");

	/* a modules.dep path too long to use is skipped, not cut */
	memset(longname, 'a', sizeof(longname));
	memcpy(longname, "kernel/", 7);
	strcpy(longname + sizeof(longname) - 10, "/vfb.ko:\n");
	write_file("modules.dep", longname);
	ASSERT_STR_EQ(lookup("platform:vfb", 1), "vfb=builtin;");

	/* no modules.alias: an error, not a crash */
	remove_file("modules.alias");
	ASSERT_INT_EQ(fb_modalias_lookup(dir, "platform:vfb", collect,
					 &(struct seen){ "" }),
		      -ENOENT);

	/* a module directory too long for a path */
	ASSERT_INT_EQ(fb_modalias_lookup(longname, "platform:vfb", collect,
					 &(struct seen){ "" }),
		      -ENAMETOOLONG);

	/* FBCLASSCTL_MODULE_DIR, and its length checked */
	setenv("FBCLASSCTL_MODULE_DIR", dir, 1);
	ASSERT_INT_EQ(fb_module_dir(buf, sizeof(buf)), 0);
	ASSERT_STR_EQ(buf, dir);
	setenv("FBCLASSCTL_MODULE_DIR", longname, 1);
	ASSERT_INT_EQ(fb_module_dir(buf, sizeof(buf)), -ENAMETOOLONG);

	remove_file("modules.builtin.alias");
	remove_file("modules.dep");
	rmdir(dir);
	return test_finish("test-modalias-files");
}
