/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The bench core: operations × strategies on a described buffer and on a RAM
 * buffer of the same geometry, timing, and the run that validates and
 * restores.  Nothing here opens a device (bench-device.c); the checks and
 * save/restore are in bench-check.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "stop-signals.h"
#include "log.h"

/* ---- operations and strategies ---- */

enum op_kind { OP_FILL, OP_UPLOAD, OP_READBACK, OP_COPY, OP_RECT16, OP_RECT128 };

enum strat_kind {
	ST_FILL, /* a bench-kernels fill method */
	ST_COPY, /* a bench-kernels copy method */
	ST_WRITE, /* write(2)/pwrite of whole frames to the node */
	ST_READ, /* read(2)/pread of whole frames from the node */
	ST_SHADOW, /* draw into a RAM copy of the frame, then upload the changed rows */
	ST_AUTO, /* what fb_bench_choose() picks for the device and op */
};

struct strategy {
	const char *name;
	enum strat_kind kind;
	int method;
	bool subbyte; /* usable below 8 bpp */
};

struct opdef {
	const char *name;
	enum op_kind kind;
	const struct strategy *strategies;
	bool validate;
};

#define AUTO_STRATEGY                    \
	{                                \
		"auto", ST_AUTO, 0, true \
	}

static const struct strategy fill_strategies[] = {
	{ "memset", ST_FILL, BENCH_KERNEL_FILL_MEMSET, true },
	{ "scalar32", ST_FILL, BENCH_KERNEL_FILL_SCALAR32 },
	{ "stos", ST_FILL, BENCH_KERNEL_FILL_STOS },
	{ "sse2", ST_FILL, BENCH_KERNEL_FILL_SSE2 },
	{ "avx2", ST_FILL, BENCH_KERNEL_FILL_AVX2 },
	{ "sse2-nt", ST_FILL, BENCH_KERNEL_FILL_SSE2_NT },
	{ "avx2-nt", ST_FILL, BENCH_KERNEL_FILL_AVX2_NT },
	{ "pixman", ST_FILL, BENCH_KERNEL_FILL_PIXMAN },
	{ "write", ST_WRITE, 0, true },
	AUTO_STRATEGY,
	{},
};
static const struct strategy rect_strategies[] = {
	{ "scalar32", ST_FILL, BENCH_KERNEL_FILL_SCALAR32 },
	{ "stos", ST_FILL, BENCH_KERNEL_FILL_STOS },
	{ "avx2", ST_FILL, BENCH_KERNEL_FILL_AVX2 },
	{ "pixman", ST_FILL, BENCH_KERNEL_FILL_PIXMAN },
	{ "shadow", ST_SHADOW },
	AUTO_STRATEGY,
	{},
};
static const struct strategy upload_strategies[] = {
	{ "memcpy", ST_COPY, BENCH_KERNEL_COPY_MEMCPY, true },
	{ "scalar32", ST_COPY, BENCH_KERNEL_COPY_SCALAR32, true },
	{ "sse2-nt", ST_COPY, BENCH_KERNEL_COPY_SSE2_NT, true },
	{ "avx2-nt", ST_COPY, BENCH_KERNEL_COPY_AVX2_NT, true },
	{ "pixman", ST_COPY, BENCH_KERNEL_COPY_PIXMAN },
	{ "write", ST_WRITE, 0, true },
	AUTO_STRATEGY,
	{},
};
static const struct strategy readback_strategies[] = {
	{ "memcpy", ST_COPY, BENCH_KERNEL_COPY_MEMCPY, true },
	{ "scalar32", ST_COPY, BENCH_KERNEL_COPY_SCALAR32, true },
	{ "sse41-load", ST_COPY, BENCH_KERNEL_COPY_SSE41_LOAD, true },
	{ "pixman", ST_COPY, BENCH_KERNEL_COPY_PIXMAN },
	{ "read", ST_READ, 0, true },
	AUTO_STRATEGY,
	{},
};
static const struct strategy copy_strategies[] = {
	{ "memmove", ST_COPY, BENCH_KERNEL_COPY_MEMMOVE, true },
	{ "scalar32", ST_COPY, BENCH_KERNEL_COPY_SCALAR32, true },
	{ "sse2-nt", ST_COPY, BENCH_KERNEL_COPY_SSE2_NT, true },
	{ "avx2-nt", ST_COPY, BENCH_KERNEL_COPY_AVX2_NT, true },
	{ "pixman", ST_COPY, BENCH_KERNEL_COPY_PIXMAN },
	{ "write", ST_WRITE, 0, true },
	{ "shadow", ST_SHADOW },
	AUTO_STRATEGY,
	{},
};

static const struct opdef ops[] = {
	{ "fill", OP_FILL, fill_strategies, true },
	{ "upload", OP_UPLOAD, upload_strategies, true },
	{ "readback", OP_READBACK, readback_strategies, false },
	{ "copy", OP_COPY, copy_strategies, true },
	{ "rect16", OP_RECT16, rect_strategies, false },
	{ "rect128", OP_RECT128, rect_strategies, false },
};

/* flip's one strategy: FBIOPAN_DISPLAY (bench-flip.c) */
#define FLIP_STRATEGY "pan"
#define RECTS_PER_RUN 64
#define SCROLL_ROWS   16
#define MAX_RUNS      200
/* A median of one run is whichever slice the scheduler gave it (3x apart
 * under TCG on a busy host): three at least, past the budget if need be. */
#define MIN_RUNS 3

struct run_ctx {
	struct fb_bench_dev *dev;
	const struct fb_bench_opts *opts;
	struct bench_kernel_surface ram; /* the RAM baseline */
	struct bench_kernel_surface img; /* upload source; padding = the saved padding */
	struct bench_kernel_surface stage; /* the filled frame written by "write" */
	struct bench_kernel_surface rb; /* readback destination */
	struct bench_kernel_surface expect; /* img scrolled, for copy validation */
	struct bench_kernel_surface shadow; /* "shadow": what the device shows, kept in RAM */
	uint8_t *damaged; /* "shadow": a flag per row drawn since the last upload */
	uint8_t *scratch; /* for the "write" copy: rows read back */
	uint32_t fill_px, memset_px;
	uint32_t rng;
	bool can_fsync;
	/* auto per op (index in ops[]): what it runs, named "auto", and why */
	struct strategy autos[ARRAY_SIZE(ops)];
	struct fb_bench_choice choices[ARRAY_SIZE(ops)];
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static bool strategy_wanted(const struct fb_bench_opts *o, const struct strategy *st)
{
	if (!o->strategies)
		return true;
	for (char **s = o->strategies; *s; s++)
		if (strcmp(*s, st->name) == 0)
			return true;
	return false;
}

/* Whether one of op's strategies is of that kind. */
static bool op_takes(const struct opdef *op, enum strat_kind kind)
{
	for (const struct strategy *st = op->strategies; st->name; st++)
		if (st->kind == kind)
			return true;
	return false;
}

/* Why st cannot do op on the device, or NULL when it can.  auto is judged
 * by what it resolves to. */
static const char *strategy_unfit(const struct run_ctx *c, const struct opdef *op,
				  const struct strategy *st)
{
	const struct fb_bench_dev *dev = c->dev;
	const struct bench_kernel_surface *s = &dev->vis;

	if (st->kind == ST_AUTO)
		st = &c->autos[op - ops];
	if (!op_takes(op, st->kind))
		return "the operation has no such path";
	if (s->bpp < 8 && !st->subbyte)
		return "it draws 8 bits per pixel or more";
	if (st->kind == ST_WRITE || st->kind == ST_READ) {
		if (dev->fd < 0)
			return "there is no node to write or read";
		if (st->kind == ST_WRITE && dev->no_write)
			return "the driver refuses write(2)";
		if (st->kind == ST_READ && dev->no_read)
			return "the driver refuses read(2)";
		return NULL;
	}
	if (dev->use_rw)
		return "the device cannot be mapped: only write and read apply";
	if (op->kind == OP_RECT16 || op->kind == OP_RECT128) {
		unsigned side = op->kind == OP_RECT16 ? 16 : 128;
		if (s->width < side || s->height < side)
			return "the screen is smaller than the rectangle";
	}
	if (op->kind == OP_COPY && s->height <= SCROLL_ROWS)
		return "the screen has too few rows to scroll";
	if (st->kind == ST_SHADOW)
		return NULL;
	if (st->kind == ST_FILL) {
		uint32_t px = st->method == BENCH_KERNEL_FILL_MEMSET ? c->memset_px
								     : c->fill_px;
		return bench_kernel_fill_method_usable(st->method, s, px)
			       ? NULL
			       : "this CPU, the pixel format or the stride does not suit it";
	}
	bool ok =
		op->kind == OP_READBACK
			? bench_kernel_copy_method_usable(st->method, &c->rb, s)
			: bench_kernel_copy_method_usable(st->method, s,
							  op->kind == OP_COPY ? s
									      : &c->img);
	return ok ? NULL : "this CPU, the pixel format or the stride does not suit it";
}

/* Measured in this run: named (or no filter), and --quick runs auto alone
 * unless strategies are named. */
static bool strategy_applies(const struct run_ctx *c, const struct opdef *op,
			     const struct strategy *st)
{
	if (!strategy_wanted(c->opts, st))
		return false;
	if (c->opts->quick && !c->opts->strategies && st->kind != ST_AUTO)
		return false;
	return !strategy_unfit(c, op, st);
}

/* What auto runs, by the name of the strategy that does the same: the
 * kernel bench-kernels' own auto takes for the op's size, write, read or shadow. */
static const char *auto_ran(const struct run_ctx *c, const struct opdef *op,
			    const struct strategy *a)
{
	const struct bench_kernel_surface *s = &c->dev->vis;
	unsigned side = op->kind == OP_RECT16 ? 16 : op->kind == OP_RECT128 ? 128 : 0;
	size_t bytes = side ? bench_kernel_row_bytes(s->bpp, side) * side
			    : bench_kernel_row_bytes(s->bpp, s->width) * s->height;

	switch (a->kind) {
	case ST_FILL:
		return bench_kernel_fill_method_name(
			bench_kernel_fill_choose(bytes, s->bpp));
	case ST_COPY:
		return bench_kernel_copy_method_name(bench_kernel_copy_choose(bytes));
	case ST_WRITE:
		return "write";
	case ST_READ:
		return "read";
	case ST_SHADOW:
		return "shadow";
	case ST_AUTO:
		break;
	}
	return "auto";
}

/* auto of op as one of the op's own kinds of strategy, named "auto". */
static struct strategy auto_as(const struct opdef *op, enum fb_bench_path path)
{
	bool filling =
		op->kind == OP_FILL || op->kind == OP_RECT16 || op->kind == OP_RECT128;

	if (path == FB_BENCH_PATH_RW)
		return (struct strategy){ "auto",
					  op->kind == OP_READBACK ? ST_READ : ST_WRITE, 0,
					  true };
	if (path == FB_BENCH_PATH_SHADOW)
		return (struct strategy){ "auto", ST_SHADOW, 0, false };
	return (struct strategy){ "auto", filling ? ST_FILL : ST_COPY,
				  filling ? BENCH_KERNEL_FILL_AUTO
					  : BENCH_KERNEL_COPY_AUTO,
				  true };
}

/* auto for each op: the chooser's path; where it does not fit (a sub-byte
 * depth, an op without that path), the mapping, and without one, the node.
 * Said at -v. */
static void resolve_autos(struct run_ctx *c)
{
	struct fb_bench_dev *dev = c->dev;
	struct fb_bench_facts *f = &dev->facts;

	f->mapped = !dev->use_rw;
	f->can_write = dev->fd >= 0 && !dev->no_write;
	f->can_read = dev->fd >= 0 && !dev->no_read;
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		const struct opdef *op = &ops[i];
		struct fb_bench_choice *ch = &c->choices[i];
		struct strategy *a = &c->autos[i];

		fb_bench_choose(f, op->name, ch);
		*a = auto_as(op, ch->path);
		if (strategy_unfit(c, op, a))
			*a = auto_as(op, FB_BENCH_PATH_MAP);
		if (strategy_unfit(c, op, a))
			*a = auto_as(op, FB_BENCH_PATH_RW);
		if (strategy_unfit(c, op, a) || !strategy_wanted(c->opts, a))
			continue;
		INF("%s: auto %s: %s, as %s%s", dev->name, op->name, auto_ran(c, op, a),
		    ch->why,
		    a->kind == auto_as(op, ch->path).kind
			    ? ""
			    : " (that path does not fit here)");
	}
}

/* One run of op with st on the device (on_fb) or on the RAM buffer. */
struct once_args {
	struct run_ctx *c;
	const struct opdef *op;
	const struct strategy *st;
	bool on_fb;
	double seconds; /* out: the operation */
	double flush; /* out: fsync after it; < 0 none */
	double bytes; /* out */
};

static int do_write(struct run_ctx *c, const struct opdef *op, bool on_fb,
		    const struct bench_kernel_surface *t)
{
	const struct fb_bench_dev *dev = c->dev;
	size_t len = fb_bench_frame_bytes(dev);
	size_t scroll = (size_t)SCROLL_ROWS * dev->vis.stride;

	if (op->kind == OP_COPY) {
		/* What a client of write(2) must do to scroll: read, then write. */
		if (!on_fb) {
			memmove(t->pixels, t->pixels + scroll, len - scroll);
			return 0;
		}
		int r = fb_bench_rw_all(dev->fd, c->scratch, len - scroll,
					dev->vis_offset + (off_t)scroll, false);
		if (r < 0)
			return r;
		return fb_bench_rw_all(dev->fd, c->scratch, len - scroll, dev->vis_offset,
				       true);
	}
	const struct bench_kernel_surface *src =
		op->kind == OP_FILL ? &c->stage : &c->img;
	if (!on_fb) {
		memcpy(t->pixels, src->pixels, len); /* the RAM baseline of write(2) */
		return 0;
	}
	return fb_bench_rw_all(dev->fd, src->pixels, len, dev->vis_offset, true);
}

/* Upload the rows of the shadow marked damaged to t, a run of rows at a time. */
static int shadow_upload(struct run_ctx *c, const struct bench_kernel_surface *t)
{
	unsigned h = c->shadow.height, w = c->shadow.width;

	for (unsigned y = 0; y < h;) {
		unsigned end;
		int r;

		if (!c->damaged[y]) {
			y++;
			continue;
		}
		for (end = y; end < h && c->damaged[end]; end++)
			c->damaged[end] = 0;
		r = bench_kernel_copy(t, 0, y, &c->shadow, 0, y, w, end - y,
				      BENCH_KERNEL_COPY_AUTO);
		if (r < 0)
			return r;
		y = end;
	}
	return 0;
}

/* What a program with a shadow buffer does: scroll or draw in RAM, where
 * reading is cheap, and send the device only the rows that changed. */
static int shadow_draw(struct run_ctx *c, const struct opdef *op,
		       const struct bench_kernel_surface *t)
{
	struct bench_kernel_surface *sh = &c->shadow;
	unsigned w = sh->width, h = sh->height;

	if (op->kind == OP_COPY) {
		int r = bench_kernel_copy(sh, 0, 0, sh, 0, SCROLL_ROWS, w,
					  h - SCROLL_ROWS, BENCH_KERNEL_COPY_MEMMOVE);

		if (r < 0)
			return r;
		memset(c->damaged, 1, h - SCROLL_ROWS); /* a scroll changes every row */
		return shadow_upload(c, t);
	}
	unsigned side = op->kind == OP_RECT16 ? 16 : 128;
	for (unsigned i = 0; i < RECTS_PER_RUN; i++) {
		unsigned x = next_random(&c->rng) % (w - side + 1);
		unsigned y = next_random(&c->rng) % (h - side + 1);
		int r = bench_kernel_fill(sh, x, y, side, side, c->fill_px ^ i,
					  BENCH_KERNEL_FILL_AUTO);

		if (r < 0)
			return r;
		memset(c->damaged + y, 1, side);
	}
	return shadow_upload(c, t);
}

static int op_body(struct once_args *a, const struct bench_kernel_surface *t)
{
	struct run_ctx *c = a->c;
	const struct strategy *st = a->st;
	const struct bench_kernel_surface *s = t;
	unsigned w = s->width, h = s->height;
	size_t row = bench_kernel_row_bytes(s->bpp, w);

	switch (a->op->kind) {
	case OP_FILL:
		a->bytes = (double)row * h;
		if (st->kind == ST_WRITE)
			return do_write(c, a->op, a->on_fb, t);
		return bench_kernel_fill(t, 0, 0, w, h,
					 st->method == BENCH_KERNEL_FILL_MEMSET
						 ? c->memset_px
						 : c->fill_px,
					 st->method);
	case OP_UPLOAD:
		a->bytes = (double)row * h;
		if (st->kind == ST_WRITE)
			return do_write(c, a->op, a->on_fb, t);
		return bench_kernel_copy(t, 0, 0, &c->img, 0, 0, w, h, st->method);
	case OP_READBACK:
		a->bytes = (double)row * h;
		if (st->kind == ST_READ) {
			if (!a->on_fb) {
				memcpy(c->rb.pixels, t->pixels,
				       fb_bench_frame_bytes(c->dev));
				return 0;
			}
			return fb_bench_rw_all(c->dev->fd, c->rb.pixels,
					       fb_bench_frame_bytes(c->dev),
					       c->dev->vis_offset, false);
		}
		return bench_kernel_copy(&c->rb, 0, 0, t, 0, 0, w, h, st->method);
	case OP_COPY:
		a->bytes = (double)row * (h - SCROLL_ROWS);
		if (st->kind == ST_WRITE)
			return do_write(c, a->op, a->on_fb, t);
		if (st->kind == ST_SHADOW)
			return shadow_draw(c, a->op, t);
		return bench_kernel_copy(t, 0, 0, t, 0, SCROLL_ROWS, w, h - SCROLL_ROWS,
					 st->method);
	case OP_RECT16:
	case OP_RECT128: {
		unsigned side = a->op->kind == OP_RECT16 ? 16 : 128;
		a->bytes = (double)bench_kernel_row_bytes(s->bpp, side) * side *
			   RECTS_PER_RUN;
		if (st->kind == ST_SHADOW)
			return shadow_draw(c, a->op, t);
		for (unsigned i = 0; i < RECTS_PER_RUN; i++) {
			unsigned x = next_random(&c->rng) % (w - side + 1);
			unsigned y = next_random(&c->rng) % (h - side + 1);
			int r = bench_kernel_fill(t, x, y, side, side, c->fill_px ^ i,
						  st->method);
			if (r < 0)
				return r;
		}
		return 0;
	}
	}
	return -EINVAL;
}

static bool op_writes(const struct opdef *op)
{
	return op->kind != OP_READBACK;
}

static int op_once_guarded(void *arg)
{
	struct once_args *a = arg;
	const struct bench_kernel_surface *t = a->on_fb ? &a->c->dev->vis : &a->c->ram;
	double t0 = now();
	int r = op_body(a, t);

	a->seconds = now() - t0;
	return r;
}

static int op_once(struct once_args *a)
{
	struct run_ctx *c = a->c;
	int r = fb_bench_guarded(op_once_guarded, a);

	a->flush = -1;
	if (r < 0 || !a->on_fb)
		return r;
	if (c->dev->use_rw && a->st->kind <= ST_COPY)
		return -ENOTSUP; /* not reached: strategy_applies() */
	if (op_writes(a->op) && c->can_fsync && c->dev->fd >= 0) {
		double t0 = now();
		if (fsync(c->dev->fd) < 0) {
			if (errno == EINVAL || errno == EROFS)
				c->can_fsync =
					false; /* no deferred I/O: nothing to flush */
			else
				return -errno;
		} else {
			a->flush = now() - t0;
		}
	}
	return 0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

double fb_bench_median(double *v, unsigned n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The last 5 runs within 2% of each other: the number is stable. */
static bool settled(const double *v, unsigned n)
{
	double lo, hi;

	if (n < 5)
		return false;
	lo = hi = v[n - 1];
	for (unsigned i = n - 5; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	return lo > 0 && (hi - lo) / lo < 0.02;
}

static int measure(struct run_ctx *c, const struct opdef *op, const struct strategy *st,
		   bool on_fb, double budget, struct fb_bench_stat *stat,
		   double *flush_med, double *bytes)
{
	double rates[MAX_RUNS], flushes[MAX_RUNS];
	unsigned n = 0, nf = 0;
	struct once_args a = { c, op, st, on_fb };
	int r;

	if (!c->opts->quick) {
		r = op_once(&a); /* warm-up */
		if (r < 0)
			return r;
	}
	double start = now();
	for (;;) {
		if (fb_stop_signal)
			return -EINTR;
		r = op_once(&a);
		if (r < 0)
			return r;
		rates[n++] = a.seconds > 0 ? a.bytes / a.seconds : 0;
		if (a.flush >= 0)
			flushes[nf++] = a.flush;
		if (c->opts->quick || n == MAX_RUNS || settled(rates, n) ||
		    (n >= MIN_RUNS && now() - start >= budget))
			break;
	}
	*bytes = a.bytes;
	double lo = rates[0], hi = rates[0];
	for (unsigned i = 0; i < n; i++) {
		lo = rates[i] < lo ? rates[i] : lo;
		hi = rates[i] > hi ? rates[i] : hi;
	}
	*stat = (struct fb_bench_stat){ fb_bench_median(rates, n), lo, hi, n };
	*flush_med = nf ? fb_bench_median(flushes, nf) : -1;
	return 0;
}

static bool device_present(const struct fb_bench_dev *dev)
{
	return !dev->syspath || access(dev->syspath, F_OK) == 0 || errno != ENOENT;
}

/* Put the device in a known state: the image, by the simplest path. */
static int load_image(struct run_ctx *c)
{
	const struct opdef up = { "upload", OP_UPLOAD, NULL, false };
	const struct strategy st =
		c->dev->use_rw ? (struct strategy){ "write", ST_WRITE, 0 }
			       : (struct strategy){ "memcpy", ST_COPY,
						    BENCH_KERNEL_COPY_MEMCPY };
	struct once_args a = { c, &up, &st, true };

	/* the shadow starts as what the device will show */
	memcpy(c->shadow.pixels, c->img.pixels, fb_bench_frame_bytes(c->dev));
	return op_once(&a);
}

static int validate(struct run_ctx *c, const struct opdef *op, const struct strategy *st,
		    struct fb_bench_validation *v)
{
	uint64_t before = v->mismatches;
	int r = 0;

	switch (op->kind) {
	case OP_FILL: {
		uint32_t px =
			st->method == BENCH_KERNEL_FILL_MEMSET && st->kind == ST_FILL
				? c->memset_px
				: c->fill_px;
		r = fb_bench_compare(c->dev, NULL, px, op->name, st->name, v);
		break;
	}
	case OP_UPLOAD:
		r = fb_bench_compare(c->dev, &c->img, 0, op->name, st->name, v);
		break;
	case OP_COPY: {
		struct once_args a = { c, op, st, true };
		r = load_image(c);
		if (r >= 0)
			r = op_once(&a);
		if (r >= 0)
			r = fb_bench_compare(c->dev, &c->expect, 0, op->name, st->name, v);
		break;
	}
	default:
		return -EINVAL;
	}
	if (r < 0)
		return r;
	return v->mismatches == before;
}

static void *alloc_frame(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	return p == MAP_FAILED ? NULL : p;
}

static void free_frame(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

static int setup(struct run_ctx *c, const struct fb_bench_saved *saved)
{
	struct fb_bench_dev *dev = c->dev;
	size_t len = fb_bench_frame_bytes(dev);
	struct bench_kernel_surface base = dev->vis;
	struct bench_kernel_surface *frames[] = { &c->ram, &c->img,    &c->stage,
						  &c->rb,  &c->expect, &c->shadow };

	c->fill_px = fb_bench_fill_pixel(dev);
	c->memset_px = 0x5a5a5a5au &
		       (dev->vis.bpp >= 32 ? 0xffffffffu : (1u << dev->vis.bpp) - 1);
	c->rng = 0x2545f491u;
	c->can_fsync = !dev->is_ram && dev->fd >= 0;
	for (size_t i = 0; i < ARRAY_SIZE(frames); i++) {
		*frames[i] = base;
		frames[i]->pixels = alloc_frame(len);
		if (!frames[i]->pixels)
			return -ENOMEM;
		/* The padding of what "write" sends is the device's own. */
		memcpy(frames[i]->pixels, saved->contents, len);
	}
	c->scratch = alloc_frame(len);
	c->damaged = calloc(base.height, 1);
	if (!c->scratch || !c->damaged)
		return -ENOMEM;

	/* A pseudo-random image, random bytes in every visible row; the kernels
	 * (tested against the reference) build the rest: --quick must be quick. */
	uint32_t s = 0x9e3779b9u;
	size_t row = bench_kernel_row_bytes(base.bpp, base.width);
	for (unsigned y = 0; y < base.height; y++) {
		uint8_t *p = c->img.pixels + (size_t)y * base.stride;
		for (size_t i = 0; i < row; i += 4) {
			uint32_t v = next_random(&s);
			memcpy(p + i, &v, row - i < 4 ? row - i : 4);
		}
	}
	bench_kernel_fill(&c->stage, 0, 0, base.width, base.height, c->fill_px,
			  BENCH_KERNEL_FILL_AUTO);
	memcpy(c->expect.pixels, c->img.pixels, len);
	if (base.height > SCROLL_ROWS)
		bench_kernel_copy(&c->expect, 0, 0, &c->expect, 0, SCROLL_ROWS,
				  base.width, base.height - SCROLL_ROWS,
				  BENCH_KERNEL_COPY_MEMMOVE);
	return 0;
}

static void teardown(struct run_ctx *c)
{
	size_t len = fb_bench_frame_bytes(c->dev);

	free_frame(c->ram.pixels, len);
	free_frame(c->img.pixels, len);
	free_frame(c->stage.pixels, len);
	free_frame(c->rb.pixels, len);
	free_frame(c->expect.pixels, len);
	free_frame(c->shadow.pixels, len);
	free_frame(c->scratch, len);
	free(c->damaged);
}

static unsigned count_measurements(struct run_ctx *c)
{
	unsigned n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		for (const struct strategy *st = ops[i].strategies; st->name; st++)
			n += strategy_applies(c, &ops[i], st);
	return n;
}

/* Per op: each result's ratio against the op's fastest RAM run, and the
 * best mark on the fastest device run, which thus has the highest ratio. */
static void rate_results(struct fb_bench_report *rep)
{
	for (size_t i = 0; i < rep->n_results; i++) {
		struct fb_bench_result *r = &rep->results[i], *best = NULL;
		double ram = 0;

		for (size_t j = 0; j < rep->n_results; j++) {
			struct fb_bench_result *o = &rep->results[j];

			if (strcmp(o->op, r->op) != 0)
				continue;
			if (!best || o->fb.median > best->fb.median)
				best = o;
			if (o->have_ram && o->ram.median > ram)
				ram = o->ram.median;
		}
		if (best) /* r itself at least */
			best->best = true;
		r->ratio = ram > 0 ? r->fb.median / ram : 0;
		r->same_strategy_ratio = r->have_ram && r->ram.median > 0
						 ? r->fb.median / r->ram.median
						 : 0;
	}
}

/* Each strategy opts names applies to some op on the device; else say why
 * not (the first op that lists it) and -EINVAL. */
static int check_strategies(const struct run_ctx *c)
{
	if (!c->opts->strategies)
		return 0;
	for (char **name = c->opts->strategies; *name; name++) {
		const char *why = NULL;
		bool fits = strcmp(*name, FLIP_STRATEGY) == 0; /* flip's, said there */

		for (size_t i = 0; i < ARRAY_SIZE(ops) && !fits; i++)
			for (const struct strategy *st = ops[i].strategies; st->name;
			     st++) {
				if (strcmp(st->name, *name) != 0)
					continue;
				const char *w = strategy_unfit(c, &ops[i], st);
				fits = !w;
				why = why ? why : w;
				break;
			}
		if (!fits) {
			ERR("%s: strategy %s does not apply: %s", c->dev->name, *name,
			    why ? why : "no operation has it");
			return -EINVAL;
		}
	}
	return 0;
}

static int run_ops(struct run_ctx *c, struct fb_bench_report *rep)
{
	struct fb_bench_dev *dev = c->dev;
	unsigned total = count_measurements(c), done = 0;
	double budget = c->opts->duration / (2.0 * (total ? total : 1));
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		const struct opdef *op = &ops[i];
		for (const struct strategy *st = op->strategies; st->name; st++) {
			const struct strategy *run_st =
				st->kind == ST_AUTO ? &c->autos[i] : st;

			if (!strategy_applies(c, op, st))
				continue;
			if (rep->n_results == FB_BENCH_MAX_RESULTS)
				return 0;
			struct fb_bench_result *res = &rep->results[rep->n_results];
			*res = (struct fb_bench_result){
				.op = op->name,
				.strategy = st->name,
				.verified = -1,
				.auto_strategy = st->kind == ST_AUTO
							 ? auto_ran(c, op, run_st)
							 : NULL,
			};
			if (c->opts->progress)
				fprintf(stderr, "\r%s: [%u/%u] %s %s...\033[K", dev->name,
					++done, total, op->name, st->name);
			/* Uploads and copies start from the image, and so does a
			 * shadow, which must hold what the device shows; fills
			 * overwrite it. */
			if (op->kind == OP_COPY || op->kind == OP_READBACK ||
			    run_st->kind == ST_SHADOW) {
				r = load_image(c);
				if (r < 0)
					return r;
			}
			r = measure(c, op, run_st, true, budget, &res->fb,
				    &res->flush_seconds, &res->bytes_per_op);
			if (r == -ENOTSUP) {
				/* a library that refuses this case at run time: not a row */
				DBG("%s: %s %s refused at run time; skipped", dev->name,
				    op->name, st->name);
				continue;
			}
			if (r < 0)
				return r;
			if (!device_present(dev))
				return -ENODEV;
			double no_flush; /* RAM is never flushed */
			r = measure(c, op, run_st, false, budget, &res->ram, &no_flush,
				    &res->bytes_per_op);
			if (r < 0)
				return r;
			res->have_ram = true;
			if (op->validate) {
				r = validate(c, op, run_st, &rep->validation);
				if (r < 0)
					return r;
				res->verified = r;
				if (c->opts->validated)
					c->opts->validated(c->opts->validated_arg, dev,
							   op->name, st->name, r == 1);
			}
			unsigned side = op->kind == OP_RECT16	 ? 16
					: op->kind == OP_RECT128 ? 128
								 : 0;
			res->ops_per_run = side ? RECTS_PER_RUN : 1;
			res->frames_per_op = side ? 0 : 1;
			res->pixels_per_op =
				side ? (double)side * side * RECTS_PER_RUN
				: op->kind == OP_COPY
					? (double)dev->vis.width *
						  (dev->vis.height - SCROLL_ROWS)
					: (double)dev->vis.width * dev->vis.height;
			rep->n_results++;
			if (!device_present(dev))
				return -ENODEV;
		}
	}
	return 0;
}

/* flip, on a device with a node, unless -S leaves pan out: said in
 * rep->flip.skipped otherwise.  0, -EINTR or -ENODEV. */
static int run_flip(struct run_ctx *c, struct fb_bench_report *rep)
{
	const struct fb_bench_opts *o = c->opts;
	const struct strategy pan = { FLIP_STRATEGY };
	double budget = o->duration / 10;

	rep->flip = (struct fb_bench_flip){ .verified = -1 };
	if (c->dev->fd < 0 || c->dev->is_ram) {
		snprintf(rep->flip.skipped, sizeof(rep->flip.skipped), "no node to pan");
		return 0;
	}
	if (!strategy_wanted(o, &pan)) {
		snprintf(rep->flip.skipped, sizeof(rep->flip.skipped),
			 "--strategy does not name pan");
		return 0;
	}
	budget = budget < 0.2 ? 0.2 : budget > 1 ? 1 : budget;
	return fb_bench_flip(&fb_caps_kernel_ops, c->dev->fd, budget, o->quick,
			     &rep->flip);
}

bool fb_bench_strategy_known(const char *name)
{
	if (strcmp(name, FLIP_STRATEGY) == 0)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		for (const struct strategy *st = ops[i].strategies; st->name; st++)
			if (strcmp(st->name, name) == 0)
				return true;
	return false;
}

/* The screen read back against what was saved (the colour fields). */
static int compare_saved(const struct fb_bench_dev *dev,
			 const struct fb_bench_saved *saved,
			 struct fb_bench_validation *v)
{
	struct bench_kernel_surface want = dev->vis;

	*v = (struct fb_bench_validation){ .passed = true };
	want.pixels = saved->contents;
	return fb_bench_compare(dev, &want, 0, "restore", "saved", v);
}

/* Read the screen back after the restore while the console is still in
 * graphics mode (nobody else draws), and again once opts->console_text has
 * put it back into text mode (fbcon may repaint then): the outcome into
 * rep.  0 or -errno. */
static int verify_restored(const struct fb_bench_dev *dev,
			   const struct fb_bench_saved *saved,
			   const struct fb_bench_opts *opts, struct fb_bench_report *rep)
{
	struct fb_bench_validation gfx, text;
	bool repainted = false;
	int r;

	r = compare_saved(dev, saved, &gfx);
	if (r < 0)
		return r;
	if (opts->console_text) {
		repainted = opts->console_text(opts->console_arg, dev);
		r = compare_saved(dev, saved, &text);
		if (r < 0)
			return r;
	}
	fb_bench_restore_judge(&gfx, opts->console_text ? &text : NULL, repainted, rep);
	return 0;
}

int fb_bench_run(struct fb_bench_dev *dev, const struct fb_bench_opts *opts,
		 struct fb_bench_report *rep)
{
	struct fb_bench_saved saved;
	struct run_ctx c = { .dev = dev, .opts = opts };
	int r, rr;

	*rep = (struct fb_bench_report){ .validation.passed = true };
	if (dev->vis.stride < bench_kernel_row_bytes(dev->vis.bpp, dev->vis.width) ||
	    !dev->vis.height)
		return -EINVAL;
	r = fb_bench_save(dev, &saved);
	if (r < 0) {
		rep->device_removed = r == -ENODEV;
		return r;
	}
	r = setup(&c, &saved);
	if (r >= 0) {
		resolve_autos(&c);
		r = check_strategies(&c);
		rep->strategy_refused = r < 0;
	}
	if (r >= 0)
		r = run_ops(&c, rep);
	if (r >= 0)
		r = run_flip(&c, rep);
	if (opts->progress)
		fprintf(stderr, "\r\033[K");
	/* Every exit path comes through here: put the screen back. */
	rr = fb_bench_restore(dev, &saved);
	if (rr >= 0)
		rr = verify_restored(dev, &saved, opts, rep);
	if (rr < 0)
		rep->restore = FB_BENCH_RESTORE_NO;
	rep->restored = rep->restore != FB_BENCH_RESTORE_NO;
	rep->device_removed = r == -ENODEV || rr == -ENODEV;
	if (rr < 0 && r >= 0)
		r = rr;
	rate_results(rep);
	teardown(&c);
	fb_bench_saved_free(&saved);
	return r;
}
