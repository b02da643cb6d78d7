/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * auto's chooser on what the kernel told, one recorded report per device
 * class: fix.id, the kind fbclassctl gives it, the parent's driver and
 * smem_start, as fbclassctl read them under Debian's 6.1 and 6.12 in
 * qemu (tests/fixtures/captured, the VM tier), with the path the VM bench
 * measured fastest.
 */
#include <string.h>

#include "bench.h"
#include "test.h"

#define M FB_BENCH_PATH_MAP
#define W FB_BENCH_PATH_RW

static const char *const op_names[] = { "fill",	    "copy",   "upload",
					"readback", "rect16", "rect128" };

struct recorded {
	const char *what;
	struct fb_bench_facts facts;
	enum fb_bench_path want[6]; /* in the order of op_names */
	const char *why; /* a word the reason must name */
};

/* The node takes write(2) and read(2) and maps, unless a case says not. */
#define RW .mapped = true, .can_write = true, .can_read = true

static const struct recorded devices[] = {
	{ "bochs (DRM emulation, 6.1 and 6.12)",
	  { "bochs-drmdrmfb", "bochs-drm", "drm", 0, RW },
	  { W, W, W, W, M, M },
	  "DRM" },
	{ "cirrus (DRM emulation)",
	  { "cirrusdrmfb", "cirrus", "drm", 0, RW },
	  { W, W, W, W, M, M },
	  "deferred I/O" },
	{ "qxl (DRM emulation)",
	  { "qxldrmfb", "qxl", "drm", 0, RW },
	  { W, W, W, W, M, M },
	  "DRM" },
	{ "virtio-gpu (DRM emulation)",
	  { "virtio_gpudrmfb", "virtio_gpu", "drm", 0, RW },
	  { W, W, W, W, M, M },
	  "DRM" },
	{ "vmwgfx under 6.12 (drm_fbdev_ttm)",
	  { "vmwgfxdrmfb", "vmwgfx", "drm", 0, RW },
	  { W, W, W, W, M, M },
	  "vmwgfxdrmfb" },
	{ "vmwgfx under 6.1 (its own fbdev, id svgadrmfb)",
	  { "svgadrmfb", "vmwgfx", "drm", 0, RW },
	  { W, W, W, W, M, M },
	  "read(2)" },
	{ "simpledrm (a firmware fb through DRM)",
	  { "simpledrmdrmfb", "simple-framebuffer", "firmware", 0, RW },
	  { W, W, W, W, M, M },
	  "DRM" },
	{ "vfb (vmalloc'ed RAM, smem_start its address)",
	  { "Virtual FB", "vfb", "virtual", 0xffffc90000400000ul, RW },
	  { M, M, W, W, M, M },
	  "read(2)" },
	{ "vesafb (firmware, the VRAM's bus address)",
	  { "VESA VGA", "vesa-framebuffer", "firmware", 0xfd000000ul, RW },
	  { M, M, M, M, M, M },
	  "0xfd000000" },
	{ "a native fbdev driver (cirrusfb)",
	  { "CL Picasso4", "cirrusfb", "fbdev", 0xfc000000ul, RW },
	  { M, M, M, M, M, M },
	  "fbdev" },
	{ "a DRM emulation that refuses write(2) and read(2)",
	  { "bochs-drmdrmfb", "bochs-drm", "drm", 0, .mapped = true },
	  { M, M, M, M, M, M },
	  "refuses" },
	{ "mmap refused (the pread/pwrite fallback)",
	  { "VESA VGA", "vesa-framebuffer", "firmware", 0xfd000000ul, .can_write = true,
	    .can_read = true },
	  { W, W, W, W, W, W },
	  "cannot be mapped" },
	{ "a RAM buffer in the tests: no kind, no id",
	  { NULL, NULL, NULL, 0, RW },
	  { M, M, M, M, M, M },
	  "RAM" },
};

static void test_recorded(void)
{
	for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++) {
		const struct recorded *d = &devices[i];

		for (size_t op = 0; op < 6; op++) {
			struct fb_bench_choice c;

			memset(&c, 0xa5, sizeof(c));
			fb_bench_choose(&d->facts, op_names[op], &c);
			ASSERT_MSG(c.path == d->want[op], "%s, %s: %s, want %s (%s)",
				   d->what, op_names[op],
				   fb_bench_path_name(c.path, op_names[op]),
				   fb_bench_path_name(d->want[op], op_names[op]), c.why);
			ASSERT_MSG(memchr(c.why, '\0', sizeof(c.why)) &&
					   strlen(c.why) > 20,
				   "%s, %s: a reason in words: '%.40s'", d->what,
				   op_names[op], c.why);
		}
		struct fb_bench_choice c;
		fb_bench_choose(&d->facts, "readback", &c);
		ASSERT_MSG(strstr(c.why, d->why), "%s: the reason names '%s': %s",
			   d->what, d->why, c.why);
	}
}

static void test_path_names(void)
{
	ASSERT_STR_EQ(fb_bench_path_name(W, "readback"), "read");
	ASSERT_STR_EQ(fb_bench_path_name(W, "fill"), "write");
	ASSERT_STR_EQ(fb_bench_path_name(FB_BENCH_PATH_SHADOW, "rect16"), "shadow");
	ASSERT_STR_EQ(fb_bench_path_name(M, "copy"), "mapping");
}

int main(void)
{
	test_recorded();
	test_path_names();
	return test_finish("test-bench-choose");
}
