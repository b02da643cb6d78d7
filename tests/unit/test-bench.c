/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The bench core on RAM "devices": anonymous mappings and memfds stand in for
 * a mapped framebuffer.  Validation, mismatch reporting, save/restore on every
 * path, the stop flag and device loss (SIGBUS from a truncated memfd).
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <png.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "stop-signals.h"
#include "test.h"

struct fmt {
	const char *name;
	unsigned bpp;
	enum fb_pixel_kind kind;
	unsigned r_off, r_len, g_off, g_len, b_off, b_len, t_off, t_len;
};

static const struct fmt fmts[] = {
	{ "C1", 1, FB_PIXEL_INDEXED },
	{ "C2", 2, FB_PIXEL_INDEXED },
	{ "C4", 4, FB_PIXEL_INDEXED },
	{ "C8", 8, FB_PIXEL_INDEXED },
	{ "R8", 8, FB_PIXEL_GRAY },
	{ "XRGB1555", 15, FB_PIXEL_RGB, 10, 5, 5, 5, 0, 5 },
	{ "RGB565", 16, FB_PIXEL_RGB, 11, 5, 5, 6, 0, 5 },
	{ "RGB888", 24, FB_PIXEL_RGB, 16, 8, 8, 8, 0, 8 },
	{ "XRGB8888", 32, FB_PIXEL_RGB, 16, 8, 8, 8, 0, 8 },
	{ "ARGB8888", 32, FB_PIXEL_RGB, 16, 8, 8, 8, 0, 8, 24, 8 },
};

/* A RAM device over mem: width × height, stride with padding. */
static struct fb_bench_dev ram_dev(const struct fmt *f, uint8_t *mem, unsigned width,
				   unsigned height, size_t stride)
{
	struct fb_bench_dev d = {
		.name = "ram0",
		.vis = { mem, stride, width, height, f->bpp == 15 ? 16 : f->bpp },
		.fd = -1,
	};
	d.var.bits_per_pixel = f->bpp;
	d.var.xres = d.var.xres_virtual = width;
	d.var.yres = d.var.yres_virtual = height;
	d.var.red = (struct fb_bitfield){ f->r_off, f->r_len, 0 };
	d.var.green = (struct fb_bitfield){ f->g_off, f->g_len, 0 };
	d.var.blue = (struct fb_bitfield){ f->b_off, f->b_len, 0 };
	d.var.transp = (struct fb_bitfield){ f->t_off, f->t_len, 0 };
	d.fmt.kind = f->kind;
	d.fmt.bpp = f->bpp;
	snprintf(d.fmt.name, sizeof(d.fmt.name), "%s", f->name);
	return d;
}

static void randomize(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

static void test_pixels(void)
{
	uint8_t mem[64];
	struct fb_bench_dev d = ram_dev(&fmts[6], mem, 4, 4, 16);

	ASSERT_MSG(fb_bench_fill_pixel(&d) ==
			   ((0x12u >> 3) << 11 | (0x34u >> 2) << 5 | 0x56u >> 3),
		   "RGB565 fill pixel 0x%x", fb_bench_fill_pixel(&d));
	ASSERT_MSG(fb_bench_compare_mask(&d) == 0xffff, "RGB565 mask");
	d = ram_dev(&fmts[8], mem, 4, 4, 16);
	ASSERT_MSG(fb_bench_fill_pixel(&d) == 0x123456, "XRGB8888 fill pixel");
	ASSERT_MSG(fb_bench_compare_mask(&d) == 0xffffff, "XRGB8888 ignores X");
	d = ram_dev(&fmts[9], mem, 4, 4, 16);
	ASSERT_MSG(fb_bench_fill_pixel(&d) == 0xff123456, "ARGB8888 opaque");
	d = ram_dev(&fmts[5], mem, 4, 4, 16);
	ASSERT_MSG(fb_bench_compare_mask(&d) == 0x7fff, "XRGB1555 ignores bit 15");
	d = ram_dev(&fmts[2], mem, 4, 4, 16);
	ASSERT_MSG(fb_bench_fill_pixel(&d) == 5, "C4 index");
}

static void test_mismatch(void)
{
	const unsigned w = 21, h = 9;
	const size_t stride = w * 4 + 12;
	uint8_t *mem = calloc(h, stride);
	struct fb_bench_dev d = ram_dev(&fmts[8], mem, w, h, stride);
	struct fb_bench_validation v = { .passed = true };

	bench_kernel_fill(&d.vis, 0, 0, w, h, 0x123456, BENCH_KERNEL_FILL_REFERENCE);
	mem[stride - 1] = 0xee; /* padding: not compared */
	mem[2 * stride + 4 * 7 + 3] = 0x77; /* X byte of 7,2: masked out */
	bench_kernel_put_pixel(&d.vis, 5, 3, 0x123457); /* a real mismatch */
	bench_kernel_put_pixel(&d.vis, 20, 8, 0x000000); /* and another */
	ASSERT_MSG(fb_bench_compare(&d, NULL, 0x123456, "fill", "test", &v) == 0,
		   "compare ran");
	ASSERT_MSG(!v.passed, "mismatch detected");
	ASSERT_MSG(v.mismatches == 2, "2 mismatches, got %llu",
		   (unsigned long long)v.mismatches);
	ASSERT_MSG(v.have_first && v.first.x == 5 && v.first.y == 3,
		   "first at 5,3: %u,%u", v.first.x, v.first.y);
	ASSERT_MSG(v.first.expected == 0x123456 && v.first.got == 0x123457,
		   "values 0x%x 0x%x", v.first.expected, v.first.got);
	ASSERT_MSG(v.bytes_checked == (uint64_t)w * 4 * h, "bytes checked %llu",
		   (unsigned long long)v.bytes_checked);
	free(mem);
}

/* Run on a RAM device; everything must be byte-identical afterwards. */
static void run_and_check_restored(const struct fmt *f, unsigned w, unsigned h,
				   size_t pad, bool quick, int expect_rc)
{
	size_t stride = bench_kernel_row_bytes(f->bpp == 15 ? 16 : f->bpp, w) + pad;
	size_t len = stride * h;
	uint8_t *mem = malloc(len), *before = malloc(len);
	struct fb_bench_dev d = ram_dev(f, mem, w, h, stride);
	struct fb_bench_opts o = { .duration = 0.05, .quick = quick };
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));

	randomize(mem, len, w * 31 + h);
	memcpy(before, mem, len);
	int rc = fb_bench_run(&d, &o, rep);
	ASSERT_MSG(rc == expect_rc, "%s %ux%u pad %zu quick %d: rc %d", f->name, w, h,
		   pad, quick, rc);
	ASSERT_MSG(rep->restored, "%s: restored", f->name);
	ASSERT_MSG(memcmp(mem, before, len) == 0,
		   "%s %ux%u: contents restored byte for byte", f->name, w, h);
	if (expect_rc == 0) {
		ASSERT_MSG(
			rep->validation.passed,
			"%s %ux%u pad %zu: validation: %llu mismatches, first %s/%s at %u,%u want 0x%x got 0x%x",
			f->name, w, h, pad,
			(unsigned long long)rep->validation.mismatches,
			rep->validation.first.op, rep->validation.first.strategy,
			rep->validation.first.x, rep->validation.first.y,
			rep->validation.first.expected, rep->validation.first.got);
		ASSERT_MSG(rep->validation.bytes_checked > 0, "%s: bytes checked",
			   f->name);
		ASSERT_MSG(rep->n_results >= 4, "%s: %zu results", f->name,
			   rep->n_results);
		bool has_fill = false, has_best = false;
		for (size_t i = 0; i < rep->n_results; i++) {
			const struct fb_bench_result *r = &rep->results[i];
			has_fill |= strcmp(r->op, "fill") == 0 && r->verified == 1;
			has_best |= r->best;
			ASSERT_MSG(r->fb.median > 0 && r->have_ram && r->ram.median > 0,
				   "%s %s/%s measured", f->name, r->op, r->strategy);
			ASSERT_MSG(!quick || r->fb.runs == 1, "quick: one run");
			ASSERT_MSG(!quick || strcmp(r->strategy, "auto") == 0,
				   "%s quick: auto alone, not %s", f->name, r->strategy);
		}
		ASSERT_MSG(has_fill && has_best, "%s: a verified fill and a best",
			   f->name);
	}
	free(rep);
	free(mem);
	free(before);
}

static void test_formats(void)
{
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		run_and_check_restored(&fmts[i], 37, 23, 5, true, 0);
		run_and_check_restored(&fmts[i], 1366 / 8, 20, 0, true, 0);
	}
	/* The full timing loop once per kernel width. */
	run_and_check_restored(&fmts[6], 200, 150, 8, false, 0);
	run_and_check_restored(&fmts[7], 1366 / 4, 40, 2, false, 0);
	run_and_check_restored(&fmts[8], 320, 200, 0, false, 0);
}

static void test_stop_flag(void)
{
	fb_stop_signal = SIGINT;
	run_and_check_restored(&fmts[8], 64, 48, 0, false, -EINTR);
	fb_stop_signal = 0;
}

static void test_strategy_filter(void)
{
	char *only[] = { "memmove", "memcpy", NULL };
	uint8_t *mem = calloc(32, 256);
	struct fb_bench_dev d = ram_dev(&fmts[8], mem, 64, 32, 256);
	struct fb_bench_opts o = { .duration = 0.02, .strategies = only };
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));

	ASSERT_MSG(fb_bench_run(&d, &o, rep) == 0, "filtered run");
	for (size_t i = 0; i < rep->n_results; i++)
		ASSERT_MSG(strcmp(rep->results[i].strategy, "memmove") == 0 ||
				   strcmp(rep->results[i].strategy, "memcpy") == 0,
			   "only the listed strategies: %s", rep->results[i].strategy);
	ASSERT_MSG(rep->n_results == 3, "upload, readback, copy: %zu", rep->n_results);
	free(rep);
	free(mem);
}

/* A strategy that applies to nothing on the device is refused before
 * anything is drawn: write without a node, avx2 below 8 bpp. */
static void test_strategy_refused(void)
{
	char *write_only[] = { "memcpy", "write", NULL };
	char *avx2[] = { "avx2", NULL };
	uint8_t *mem = malloc(32 * 256), *before = malloc(32 * 256);
	struct fb_bench_dev d = ram_dev(&fmts[8], mem, 64, 32, 256);
	struct fb_bench_opts o = { .duration = 0.02, .strategies = write_only };
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));

	randomize(mem, 32 * 256, 3);
	memcpy(before, mem, 32 * 256);
	ASSERT_MSG(fb_bench_run(&d, &o, rep) == -EINVAL, "write without a node: -EINVAL");
	ASSERT_MSG(rep->strategy_refused && rep->n_results == 0,
		   "refused, nothing measured: %zu results", rep->n_results);
	ASSERT_MSG(memcmp(mem, before, 32 * 256) == 0, "nothing drawn");
	d = ram_dev(&fmts[2], mem, 64, 32, 256);
	o.strategies = avx2;
	ASSERT_MSG(fb_bench_run(&d, &o, rep) == -EINVAL && rep->strategy_refused,
		   "avx2 at 4 bpp: refused");
	d = ram_dev(&fmts[8], mem, 64, 32, 256);
	ASSERT_MSG(bench_kernel_fill_method_cpu_ok(BENCH_KERNEL_FILL_AVX2)
			   ? fb_bench_run(&d, &o, rep) == 0 && rep->n_results > 0
			   : fb_bench_run(&d, &o, rep) == -EINVAL && rep->strategy_refused,
		   "avx2 at 32 bpp: runs where the CPU has it: %zu results",
		   rep->n_results);
	free(rep);
	free(mem);
	free(before);
}

/* ratio: the device against the op's fastest RAM run; same_strategy_ratio
 * against its own; the best mark on the highest ratio; auto beside the
 * others in every op, saying what it ran. */
static void test_ratios(void)
{
	size_t stride = 256 * 4, len = stride * 64;
	uint8_t *mem = calloc(1, len);
	struct fb_bench_dev d = ram_dev(&fmts[8], mem, 256, 64, stride);
	struct fb_bench_opts o = { .duration = 0.3 };
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));
	const char *op_names[] = { "fill", "upload", "readback", "copy", "rect16" };

	ASSERT_MSG(fb_bench_run(&d, &o, rep) == 0, "full run");
	for (size_t k = 0; k < sizeof(op_names) / sizeof(op_names[0]); k++) {
		double ram = 0, top = 0;
		unsigned n = 0, autos = 0, best = 0;

		for (size_t i = 0; i < rep->n_results; i++) {
			const struct fb_bench_result *r = &rep->results[i];
			if (strcmp(r->op, op_names[k]) != 0)
				continue;
			n++;
			ram = r->ram.median > ram ? r->ram.median : ram;
			top = r->fb.median > top ? r->fb.median : top;
			if (strcmp(r->strategy, "auto") == 0)
				autos += r->auto_strategy && *r->auto_strategy;
			else
				ASSERT_MSG(!r->auto_strategy, "%s/%s: no auto_strategy",
					   r->op, r->strategy);
		}
		ASSERT_MSG(n > 1 && autos == 1, "%s: auto beside %u others", op_names[k],
			   n - 1);
		for (size_t i = 0; i < rep->n_results; i++) {
			const struct fb_bench_result *r = &rep->results[i];
			if (strcmp(r->op, op_names[k]) != 0)
				continue;
			ASSERT_MSG(fabs(r->ratio - r->fb.median / ram) < 1e-9,
				   "%s/%s: ratio %.4f = fb / fastest RAM %.4f", r->op,
				   r->strategy, r->ratio, r->fb.median / ram);
			ASSERT_MSG(fabs(r->same_strategy_ratio -
					r->fb.median / r->ram.median) < 1e-9,
				   "%s/%s: same_strategy_ratio", r->op, r->strategy);
			/* Two strategies may tie (auto runs one of the others):
			 * the mark goes on one fastest run, never on a slower. */
			ASSERT_MSG(!r->best || r->fb.median == top,
				   "%s/%s: best only on a fastest run", r->op,
				   r->strategy);
			best += r->best;
		}
		ASSERT_MSG(best == 1, "%s: one best, not %u", op_names[k], best);
	}
	free(rep);
	free(mem);
}

/* Rows 0 and 1 are the same page: what a broken driver's aliasing looks like. */
static void test_validation_fails(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int fd = memfd_create("fb-alias", MFD_CLOEXEC);
	uint8_t *base;

	ASSERT_MSG(fd >= 0 && ftruncate(fd, (off_t)(2 * page)) == 0, "memfd");
	base = mmap(NULL, 3 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mmap(base, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
	mmap(base + page, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
	mmap(base + 2 * page, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
	     (off_t)page);

	struct fb_bench_dev d = ram_dev(&fmts[8], base, (unsigned)(page / 4), 3, page);
	struct fb_bench_opts o = { .quick = true };
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));

	ASSERT_MSG(fb_bench_run(&d, &o, rep) == 0, "run completes");
	ASSERT_MSG(!rep->validation.passed, "aliased rows fail validation");
	ASSERT_MSG(rep->validation.mismatches > 0 && rep->validation.have_first,
		   "mismatches counted and the first reported");
	/* Which of the two aliased rows keeps its own pixels depends on the
	 * order memcpy stores in (glibc copies backwards when dst > src,
	 * and ASLR decides that): one of them, never row 2. */
	ASSERT_MSG(rep->validation.first.y <= 1, "first mismatch in row 0 or 1: %u",
		   rep->validation.first.y);
	ASSERT_MSG(strcmp(rep->validation.first.op, "upload") == 0, "after upload: %s",
		   rep->validation.first.op);
	munmap(base, 3 * page);
	close(fd);
	free(rep);
}

/* A truncated memfd raises SIGBUS on access, as a vanished device does. */
static void test_device_loss(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = 8 * page;
	int fd = memfd_create("fb-gone", MFD_CLOEXEC);
	uint8_t *map;

	ASSERT_MSG(fd >= 0 && ftruncate(fd, (off_t)len) == 0, "memfd");
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_MSG(map != MAP_FAILED, "map");
	ASSERT_MSG(ftruncate(fd, 0) == 0, "truncate");

	struct fb_bench_dev d = ram_dev(&fmts[8], map, 256, 32, 1024);
	struct fb_bench_opts o = { .quick = true };
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));

	fb_bench_install_signals();
	ASSERT_MSG(fb_bench_run(&d, &o, rep) == -ENODEV, "SIGBUS becomes -ENODEV");
	ASSERT_MSG(rep->device_removed && !rep->restored, "removed, not restored");
	fb_bench_restore_signals();

	/* The sysfs entry gone: the run stops after the first operation and restores. */
	ASSERT_MSG(ftruncate(fd, (off_t)len) == 0, "grow back");
	d.syspath = "/nonexistent/sys/class/graphics/fb9";
	ASSERT_MSG(fb_bench_run(&d, &o, rep) == -ENODEV, "sysfs entry gone");
	ASSERT_MSG(rep->device_removed && rep->restored,
		   "removed; memory still there: restored");
	munmap(map, len);
	close(fd);
	free(rep);
}

/* The geometry check names the one condition that fails, not a list of them. */
static void test_geometry(void)
{
	struct fb_var_screeninfo var = { .xres = 640,
					 .yres = 480,
					 .xres_virtual = 640,
					 .yres_virtual = 480,
					 .bits_per_pixel = 32 };
	struct fb_fix_screeninfo fix = { .line_length = 2560, .smem_len = 2560 * 480 };
	struct fb_var_screeninfo v;
	struct fb_fix_screeninfo f;
	char why[160];

	ASSERT_MSG(!fb_bench_geometry_error(&var, &fix, 32, why, sizeof(why)), "sane: %s",
		   why);
	f = fix;
	f.smem_len = 65536;
	ASSERT_MSG(
		fb_bench_geometry_error(&var, &f, 32, why, sizeof(why)) &&
			strcmp(why,
			       "line_length 2560 × yres_virtual 480 = 1228800 > smem_len 65536") ==
				0,
		"overrun: %s", why);
	f.smem_len = 0;
	ASSERT_MSG(fb_bench_geometry_error(&var, &f, 32, why, sizeof(why)) &&
			   strstr(why, "> smem_len 0"),
		   "smem_len 0: %s", why);
	v = var;
	v.xres = 0;
	ASSERT_MSG(fb_bench_geometry_error(&v, &fix, 32, why, sizeof(why)) &&
			   strcmp(why, "visible size 0x480 is empty") == 0,
		   "xres 0: %s", why);
	v = var;
	v.yres = 0;
	ASSERT_MSG(fb_bench_geometry_error(&v, &fix, 32, why, sizeof(why)) &&
			   strcmp(why, "visible size 640x0 is empty") == 0,
		   "yres 0: %s", why);
	f = fix;
	f.line_length = 1280;
	f.smem_len = 1280 * 480;
	ASSERT_MSG(
		fb_bench_geometry_error(&var, &f, 32, why, sizeof(why)) &&
			strcmp(why,
			       "line_length 1280 < 2560 bytes for 640 pixels of 32 bpp") ==
				0,
		"short line: %s", why);
	v = var;
	v.yoffset = 1;
	ASSERT_MSG(fb_bench_geometry_error(&v, &fix, 32, why, sizeof(why)) &&
			   strcmp(why,
				  "visible area 640x480+0+1 outside the virtual 640x480") ==
				   0,
		   "yoffset: %s", why);
	v = var;
	v.xoffset = 0xffffffffu; /* no wrap-around in the sum */
	ASSERT_MSG(fb_bench_geometry_error(&v, &fix, 32, why, sizeof(why)) &&
			   strstr(why, "outside the virtual 640x480"),
		   "xoffset wraps: %s", why);
}

/* bench --snap on a RAM RGB565 device: one PNG per validated op, the fill
 * one read back by libpng's own reader; a symlink planted at a file name
 * is replaced, not followed; a missing DIR is refused up front. */
static void test_snapshots(void)
{
	const unsigned w = 37, h = 23;
	const size_t stride = w * 2 + 6;
	uint8_t *mem = calloc(h, stride);
	struct fb_bench_dev d = ram_dev(&fmts[6], mem, w, h, stride);
	struct fb_bench_snaps snaps;
	d.visual = FB_VISUAL_TRUECOLOR; /* what snap.c decodes the format from */
	struct fb_bench_opts o = { .quick = true,
				   .validated = fb_bench_snaps_validated,
				   .validated_arg = &snaps };
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));
	char dir[256], path[512], victim[512], buf[8] = "";
	const char *ops[] = { "fill", "upload", "copy" };
	png_image img;
	uint8_t *rgb = malloc((size_t)w * h * 3);
	struct stat st;
	int fd;

	snprintf(dir, sizeof(dir), "%s/fbclass-bench-snap.XXXXXX",
		 getenv("TMPDIR") ?: "/tmp");
	ASSERT_MSG(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/missing", dir);
	ASSERT_MSG(fb_bench_snaps_open(&snaps, path) == -ENOENT,
		   "a missing DIR is refused");
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	fd = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0644);
	ASSERT_MSG(fd >= 0 && write(fd, "keep", 4) == 4, "victim");
	close(fd);
	ASSERT_MSG(fb_bench_snaps_open(&snaps, victim) == -ENOTDIR,
		   "a file as DIR is refused");
	snprintf(path, sizeof(path), "%s/ram0-fill.png", dir);
	ASSERT_MSG(symlink(victim, path) == 0, "plant a symlink");

	ASSERT_MSG(fb_bench_snaps_open(&snaps, dir) == 0, "open %s", dir);
	ASSERT_MSG(fb_bench_run(&d, &o, rep) == 0 && rep->validation.passed, "run");
	ASSERT_MSG(snaps.error == 0, "no snapshot error: %d", snaps.error);
	ASSERT_MSG(snaps.n == 3, "three snapshots: %zu", snaps.n);
	for (size_t i = 0; i < snaps.n && i < 3; i++) {
		char want[512];
		snprintf(want, sizeof(want), "%s/ram0-%s.png", dir, ops[i]);
		ASSERT_MSG(strcmp(snaps.shots[i].op, ops[i]) == 0 && snaps.shots[i].passed,
			   "snapshot %zu is %s, passed", i, ops[i]);
		ASSERT_MSG(strcmp(snaps.shots[i].file, want) == 0, "file %s",
			   snaps.shots[i].file);
		ASSERT_MSG(lstat(want, &st) == 0 && S_ISREG(st.st_mode),
			   "%s is a regular file", want);
	}
	fd = open(victim, O_RDONLY);
	ASSERT_MSG(fd >= 0 && read(fd, buf, sizeof(buf)) == 4 &&
			   memcmp(buf, "keep", 4) == 0,
		   "the symlink's target is untouched");
	close(fd);

	/* The fill colour 0x123456 in RGB565 is 2, 13, 10: 16, 53, 82 in 8 bits. */
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	ASSERT_MSG(png_image_begin_read_from_file(&img, path) != 0, "read %s", path);
	ASSERT_MSG(img.width == w && img.height == h, "%ux%u", img.width, img.height);
	img.format = PNG_FORMAT_RGB;
	ASSERT_MSG(png_image_finish_read(&img, NULL, rgb, 0, NULL) != 0, "decode");
	for (size_t i = 0; i < (size_t)w * h; i++)
		if (rgb[i * 3] != 16 || rgb[i * 3 + 1] != 53 || rgb[i * 3 + 2] != 82) {
			ASSERT_MSG(0, "fill pixel %zu is %u,%u,%u", i, rgb[i * 3],
				   rgb[i * 3 + 1], rgb[i * 3 + 2]);
			break;
		}
	fb_bench_snaps_close(&snaps);
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/ram0-%s.png", dir, ops[i]);
		unlink(path);
	}
	unlink(victim);
	ASSERT_MSG(rmdir(dir) == 0, "no temporary file left in %s", dir);
	free(rgb);
	free(rep);
	free(mem);
}

/* shadow: copy and rects drawn in a RAM copy, the changed rows uploaded;
 * the scroll validates like the others, and the screen comes back. */
static void test_shadow(void)
{
	char *only[] = { "shadow", NULL };
	size_t stride = 320 * 4 + 12, len = stride * 200;
	uint8_t *mem = malloc(len), *before = malloc(len);
	struct fb_bench_dev d = ram_dev(&fmts[8], mem, 320, 200, stride);
	struct fb_bench_opts o = { .duration = 0.05, .strategies = only };
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));
	bool copy = false, rect16 = false, rect128 = false;

	randomize(mem, len, 7);
	memcpy(before, mem, len);
	ASSERT_MSG(fb_bench_run(&d, &o, rep) == 0, "shadow run");
	ASSERT_MSG(rep->validation.passed && rep->validation.bytes_checked > 0,
		   "the shadow scroll validates: %llu mismatches",
		   (unsigned long long)rep->validation.mismatches);
	ASSERT_MSG(memcmp(mem, before, len) == 0, "restored byte for byte");
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct fb_bench_result *r = &rep->results[i];

		ASSERT_MSG(strcmp(r->strategy, "shadow") == 0, "only shadow: %s",
			   r->strategy);
		ASSERT_MSG(r->fb.median > 0 && r->ram.median > 0, "%s measured", r->op);
		copy |= strcmp(r->op, "copy") == 0 && r->verified == 1;
		rect16 |= strcmp(r->op, "rect16") == 0;
		rect128 |= strcmp(r->op, "rect128") == 0;
	}
	ASSERT_MSG(copy && rect16 && rect128 && rep->n_results == 3,
		   "copy (verified), rect16, rect128: %zu results", rep->n_results);
	free(rep);
	free(mem);
	free(before);
}

/* What the console does on its way back to text mode, in the tests: draw
 * one pixel (fbcon's repaint, or another program), and say it repainted. */
struct console_stub {
	unsigned calls;
	bool draw, repainted;
	unsigned x, y;
	uint32_t pixel;
};

static bool console_stub_text(void *arg, const struct fb_bench_dev *dev)
{
	struct console_stub *c = arg;

	c->calls++;
	if (c->draw)
		bench_kernel_put_pixel(&dev->vis, c->x, c->y, c->pixel);
	return c->repainted;
}

/* A quick run on a 64x40 XRGB8888 RAM device with the stub as its
 * console; the saved pixel at the stub's x, y into *saved. */
static void run_with_console(struct console_stub *c, struct fb_bench_report *rep,
			     uint32_t *saved)
{
	size_t stride = 64 * 4 + 8, len = stride * 40;
	uint8_t *mem = malloc(len);
	struct fb_bench_dev d = ram_dev(&fmts[8], mem, 64, 40, stride);
	struct fb_bench_opts o = { .quick = true,
				   .console_text = console_stub_text,
				   .console_arg = c };

	randomize(mem, len, 40);
	*saved = bench_kernel_get_pixel(&d.vis, c->x, c->y);
	ASSERT_MSG(fb_bench_run(&d, &o, rep) == 0, "run with a console");
	ASSERT_MSG(c->calls == 1, "back to text mode once: %u", c->calls);
	free(mem);
}

/* The three outcomes of a run whose console goes back to text mode. */
static void test_restore_console(void)
{
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));
	struct console_stub c = { .x = 13, .y = 21, .pixel = 0x00abcdef };
	uint32_t saved;

	/* nothing drawn after text mode, fbcon or not: yes */
	c.repainted = true;
	run_with_console(&c, rep, &saved);
	ASSERT_MSG(rep->restore == FB_BENCH_RESTORE_YES && rep->restored &&
			   rep->restore_mismatches == 0,
		   "untouched: yes, got %s", fb_bench_restore_name(rep->restore));

	/* fbcon repainted this fb after text mode: console redrawn, not an error */
	c = (struct console_stub){
		.draw = true, .repainted = true, .x = 13, .y = 21, .pixel = 0x00abcdef
	};
	run_with_console(&c, rep, &saved);
	ASSERT_MSG(rep->restore == FB_BENCH_RESTORE_CONSOLE_REDRAWN && rep->restored,
		   "repainted by fbcon: console-redrawn, got %s",
		   fb_bench_restore_name(rep->restore));
	ASSERT_MSG(rep->restore_after_text && rep->restore_mismatches == 1,
		   "one pixel after text mode: %llu",
		   (unsigned long long)rep->restore_mismatches);

	/* the same pixel, fbcon not on this fb: no, with where and what */
	c = (struct console_stub){ .draw = true, .x = 13, .y = 21, .pixel = 0x00abcdef };
	run_with_console(&c, rep, &saved);
	ASSERT_MSG(rep->restore == FB_BENCH_RESTORE_NO && !rep->restored,
		   "drawn, fbcon elsewhere: no, got %s",
		   fb_bench_restore_name(rep->restore));
	ASSERT_MSG(rep->restore_after_text && rep->restore_mismatches == 1 &&
			   rep->restore_first.x == 13 && rep->restore_first.y == 21,
		   "the first difference at 13,21 after text mode: %u,%u",
		   rep->restore_first.x, rep->restore_first.y);
	ASSERT_MSG(rep->restore_first.expected == (saved & 0xffffff) &&
			   rep->restore_first.got == 0xabcdef,
		   "saved 0x%x now 0x%x: 0x%x 0x%x", saved & 0xffffff, 0xabcdef,
		   rep->restore_first.expected, rep->restore_first.got);
	ASSERT_MSG(strcmp(fb_bench_restore_name(FB_BENCH_RESTORE_NO), "no") == 0 &&
			   strcmp(fb_bench_restore_name(FB_BENCH_RESTORE_YES), "yes") ==
				   0 &&
			   strcmp(fb_bench_restore_name(FB_BENCH_RESTORE_CONSOLE_REDRAWN),
				  "console-redrawn") == 0,
		   "JSON's names");
	free(rep);
}

/* A difference while still in graphics mode is never fbcon's. */
static void test_restore_judge(void)
{
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));
	struct fb_bench_validation clean = { .passed = true };
	struct fb_bench_validation gfx = {
		.mismatches = 5,
		.have_first = true,
		.first = { .x = 2, .y = 3, .expected = 0x10, .got = 0x20 },
	};
	struct fb_bench_validation text = {
		.mismatches = 9,
		.have_first = true,
		.first = { .x = 7, .y = 8, .expected = 0x30, .got = 0x40 },
	};

	fb_bench_restore_judge(&gfx, &text, true, rep);
	ASSERT_MSG(rep->restore == FB_BENCH_RESTORE_NO && !rep->restored,
		   "graphics-mode difference, fbcon on the fb: no, got %s",
		   fb_bench_restore_name(rep->restore));
	ASSERT_MSG(!rep->restore_after_text && rep->restore_mismatches == 5 &&
			   rep->restore_first.x == 2 && rep->restore_first.got == 0x20,
		   "the graphics-mode read-back's first difference: %u,%u",
		   rep->restore_first.x, rep->restore_first.y);
	fb_bench_restore_judge(&clean, NULL, true, rep);
	ASSERT_MSG(rep->restore == FB_BENCH_RESTORE_YES && rep->restored &&
			   rep->restore_mismatches == 0 && !rep->restore_after_text,
		   "one clean read-back: yes");
	fb_bench_restore_judge(&gfx, NULL, false, rep);
	ASSERT_MSG(rep->restore == FB_BENCH_RESTORE_NO && rep->restore_mismatches == 5,
		   "one read-back that differs: no");
	fb_bench_restore_judge(&clean, &text, true, rep);
	ASSERT_MSG(rep->restore == FB_BENCH_RESTORE_CONSOLE_REDRAWN &&
			   rep->restore_first.x == 7 && rep->restore_after_text,
		   "only after text mode, fbcon on the fb: console-redrawn");
	free(rep);
}

/* A result as bench.c would record it: MB/s on the device and in RAM. */
static void add_result(struct fb_bench_report *rep, const char *op, const char *strategy,
		       double fb, double ram)
{
	struct fb_bench_result *r = &rep->results[rep->n_results++];

	*r = (struct fb_bench_result){ .op = op, .strategy = strategy, .have_ram = true };
	r->fb.median = fb * 1e6;
	r->ram.median = ram * 1e6;
}

static void test_advice(void)
{
	struct fb_bench_report *rep = calloc(1, sizeof(*rep));
	struct fb_bench_advice adv;

	/* emulated VRAM: slow copies and small rects, a shadow that helps */
	add_result(rep, "fill", "memset", 1000, 1000);
	add_result(rep, "fill", "avx2-nt", 2000, 2000);
	add_result(rep, "upload", "memcpy", 990, 1000);
	add_result(rep, "readback", "memcpy", 50, 1000);
	add_result(rep, "copy", "memmove", 360, 1000);
	add_result(rep, "copy", "shadow", 900, 800);
	add_result(rep, "rect16", "avx2", 100, 1000);
	add_result(rep, "rect16", "shadow", 400, 900);
	fb_bench_advise(rep, "fb0", &adv);
	ASSERT_MSG(adv.n == 5, "an entry per op: %zu", adv.n);
	ASSERT_MSG(strcmp(adv.ops[0].op, "fill") == 0 &&
			   strcmp(adv.ops[0].strategy, "avx2-nt") == 0 &&
			   adv.ops[0].ratio > 0.999 && adv.ops[0].ratio < 1.001,
		   "fill: avx2-nt at 1.00x: %s %.3f", adv.ops[0].strategy,
		   adv.ops[0].ratio);
	ASSERT_MSG(strcmp(adv.ops[3].op, "copy") == 0 &&
			   strcmp(adv.ops[3].strategy, "shadow") == 0 &&
			   strcmp(adv.ops[3].direct_strategy, "memmove") == 0 &&
			   adv.ops[3].ratio > 0.899 && adv.ops[3].ratio < 0.901 &&
			   adv.ops[3].direct_ratio > 0.359 &&
			   adv.ops[3].direct_ratio < 0.361,
		   "copy: shadow 0.90x, memmove 0.36x against the best RAM copy");
	ASSERT_MSG(strstr(adv.ops[2].reason, "keep a copy of what you drew in RAM"),
		   "readback's reason: %s", adv.ops[2].reason);
	ASSERT_MSG(
		strcmp(adv.summary,
		       "copies within fb0 run at 0.36x RAM and 16x16 rects on fb0 at 0.10x: keep a shadow buffer in RAM and upload damaged rows; do not read fb0 back (0.05x RAM); fill with avx2-nt, upload with memcpy") ==
			0,
		"summary: %s", adv.summary);

	/* RAM-backed: nothing slow */
	memset(rep, 0, sizeof(*rep));
	add_result(rep, "fill", "memset", 1000, 1000);
	add_result(rep, "upload", "memcpy", 800, 1000);
	add_result(rep, "copy", "memmove", 700, 1000);
	add_result(rep, "copy", "shadow", 500, 600);
	fb_bench_advise(rep, "fb1", &adv);
	ASSERT_MSG(adv.n == 3 && strcmp(adv.ops[2].strategy, "memmove") == 0,
		   "copy stays direct where it is faster");
	ASSERT_MSG(
		strcmp(adv.summary,
		       "fb1 runs each operation at 0.50x RAM or better: draw on it directly; fill with memset, upload with memcpy") ==
			0,
		"summary: %s", adv.summary);

	/* slow, and no shadow helps */
	memset(rep, 0, sizeof(*rep));
	add_result(rep, "rect16", "avx2", 100, 1000);
	add_result(rep, "rect16", "shadow", 90, 1000);
	fb_bench_advise(rep, "fb2", &adv);
	ASSERT_MSG(
		strcmp(adv.summary,
		       "16x16 rects on fb2 run at 0.10x RAM: no strategy measured does better, so draw there less often") ==
			0,
		"summary: %s", adv.summary);

	/* nothing measured: no advice */
	memset(rep, 0, sizeof(*rep));
	fb_bench_advise(rep, "fb3", &adv);
	ASSERT_MSG(adv.n == 0 && adv.summary[0] == '\0', "no results, no advice");
	free(rep);
}

int main(void)
{
	test_pixels();
	test_mismatch();
	test_formats();
	test_stop_flag();
	test_strategy_filter();
	test_strategy_refused();
	test_ratios();
	test_validation_fails();
	test_device_loss();
	test_geometry();
	test_snapshots();
	test_shadow();
	test_restore_console();
	test_restore_judge();
	test_advice();
	return test_finish("test-bench");
}
