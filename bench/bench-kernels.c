/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * make bench: the fill and copy kernels on RAM, side by side with glibc and
 * pixman, in one run, at two sizes:
 *   in-cache    one 1920x1080 frame, filled over and over;
 *   past-cache  a rotation of 3840x2160 32 bpp frames totalling >= 4x the LLC.
 * Methods are interleaved round by round, so a change of clock or a noisy
 * neighbour hits all of them alike; each number is the median of the rounds.
 * It reports what it measured and never fails on timing.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench-kernels.h"

#define ARRAY_SIZE_T(a) (sizeof(a) / sizeof((a)[0]))
#define ROUNDS 21
#define MAX_FRAMES 64

struct bcase {
	const char *name;
	unsigned n_frames;
	size_t frame_bytes; /* each frame is one buffer */
	size_t stride;
	unsigned height;
	uint8_t *frames[MAX_FRAMES];
	unsigned reps; /* ops per round: whole rotations for past-cache */
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One timed kind of operation: a fill method or a copy method at one bpp. */
struct entry {
	const char *label; /* method name */
	bool is_copy;
	int method;
	unsigned bpp;
	double samples[ROUNDS];
	double mbps;   /* median, MB/s (10^6 bytes) */
	double spread; /* interquartile range / median */
	bool ok;
};

static struct fbk_surface surface_of(const struct bcase *c, unsigned i, unsigned bpp)
{
	struct fbk_surface s = {
		.pixels = c->frames[i],
		.stride = c->stride,
		.width = (unsigned)(c->stride * 8 / bpp),
		.height = c->height,
		.bpp = bpp,
	};
	/* in-cache frames are 1920 pixels wide at every bpp */
	if (c->n_frames == 1)
		s.width = 1920, s.stride = fbk_row_bytes(bpp, 1920);
	return s;
}

static const uint32_t fill_pixel[33] = { [16] = 0xf81f, [24] = 0x123456, [32] = 0x00123456 };

/* One op on frame i; returns bytes written, 0 when the method refused. */
static size_t run_once(const struct bcase *c, const struct entry *e, unsigned i)
{
	struct fbk_surface s = surface_of(c, i, e->bpp);

	if (e->is_copy) {
		unsigned h = s.height - 16;
		if (fbk_copy(&s, 0, 0, &s, 0, 16, s.width, h, e->method) < 0)
			return 0;
		return fbk_row_bytes(s.bpp, s.width) * h;
	}
	uint32_t px = e->method == FBK_FILL_MEMSET ? 0x5a5a5a5a : fill_pixel[e->bpp];
	if (fbk_fill(&s, 0, 0, s.width, s.height, px, e->method) < 0)
		return 0;
	return fbk_row_bytes(s.bpp, s.width) * s.height;
}

static void run_entries(const struct bcase *c, struct entry *e, unsigned n)
{
	/* Warm-up: a full rotation each, and check which methods apply. */
	for (unsigned j = 0; j < n; j++) {
		e[j].ok = true;
		for (unsigned i = 0; i < c->n_frames && e[j].ok; i++)
			e[j].ok = run_once(c, &e[j], i) > 0;
	}
	for (unsigned r = 0; r < ROUNDS; r++) {
		/* Rotate the order each round: no method always follows the same one. */
		for (unsigned jj = 0; jj < n; jj++) {
			unsigned j = (jj + r * 7) % n;
			if (!e[j].ok)
				continue;
			size_t bytes = 0;
			/* After a non-temporal method the frame is out of the cache:
			 * bring it back so that every method starts alike. */
			if (c->n_frames == 1)
				run_once(c, &e[j], 0);
			double t0 = now();
			for (unsigned k = 0; k < c->reps; k++)
				for (unsigned i = 0; i < c->n_frames; i++)
					bytes += run_once(c, &e[j], i);
			double dt = now() - t0;
			e[j].samples[r] = (double)bytes / dt / 1e6;
		}
	}
	for (unsigned j = 0; j < n; j++) {
		e[j].mbps = e[j].ok ? median(e[j].samples, ROUNDS) : 0;
		/* samples are sorted now: the middle half tells the noise */
		if (e[j].ok)
			e[j].spread = (e[j].samples[ROUNDS * 3 / 4] - e[j].samples[ROUNDS / 4]) /
				      e[j].mbps;
	}
}

static double find(const struct entry *e, unsigned n, bool is_copy, int method, unsigned bpp)
{
	for (unsigned j = 0; j < n; j++)
		if (e[j].is_copy == is_copy && e[j].method == method && e[j].bpp == bpp &&
		    e[j].ok)
			return e[j].mbps;
	return 0;
}

static const int fill_methods[] = {
	FBK_FILL_MEMSET, FBK_FILL_AUTO, FBK_FILL_SCALAR32, FBK_FILL_STOS,   FBK_FILL_SSE2,
	FBK_FILL_SSE2_NT, FBK_FILL_AVX2, FBK_FILL_AVX2_NT, FBK_FILL_PIXMAN,
};
static const int copy_methods[] = {
	FBK_COPY_MEMMOVE, FBK_COPY_AUTO,    FBK_COPY_MEMCPY, FBK_COPY_SCALAR32,
	FBK_COPY_SSE2_NT, FBK_COPY_AVX2_NT, FBK_COPY_PIXMAN,
};
static const unsigned fill_bpps[] = { 16, 24, 32 };

struct summary {
	double fill_vs_memset[33], fill_vs_pixman[33], copy_vs_memmove;
	const char *fill_auto[33], *copy_auto;
};

static void run_case(struct bcase *c, struct summary *sum)
{
	struct entry e[64];
	unsigned n = 0;
	size_t bytes_per_round = c->frame_bytes * c->n_frames * c->reps;

	for (size_t b = 0; b < ARRAY_SIZE_T(fill_bpps); b++)
		for (size_t m = 0; m < ARRAY_SIZE_T(fill_methods); m++) {
			if (!fbk_fill_method_cpu_ok(fill_methods[m]))
				continue;
			e[n++] = (struct entry){ .label = fbk_fill_method_name(fill_methods[m]),
						 .method = fill_methods[m],
						 .bpp = fill_bpps[b] };
		}
	for (size_t m = 0; m < ARRAY_SIZE_T(copy_methods); m++) {
		if (!fbk_copy_method_cpu_ok(copy_methods[m]))
			continue;
		e[n++] = (struct entry){ .label = fbk_copy_method_name(copy_methods[m]),
					 .is_copy = true,
					 .method = copy_methods[m],
					 .bpp = 32 };
	}

	printf("\n== %s: %u frame(s) of %zu bytes (%.1f MiB touched per round), %d round(s)\n",
	       c->name, c->n_frames, c->frame_bytes, (double)bytes_per_round / (1 << 20),
	       ROUNDS);
	fflush(stdout);
	run_entries(c, e, n);

	printf("%-6s %-4s %-10s %10s %6s %10s %10s\n", "op", "bpp", "method", "MB/s", "iqr%",
	       "/memset", "/pixman");
	for (unsigned j = 0; j < n; j++) {
		if (e[j].is_copy)
			continue;
		double ms = find(e, n, false, FBK_FILL_MEMSET, e[j].bpp);
		double px = find(e, n, false, FBK_FILL_PIXMAN, e[j].bpp);
		printf("%-6s %-4u %-10s ", "fill", e[j].bpp, e[j].label);
		if (!e[j].ok) {
			printf("%10s\n", "n/a");
			continue;
		}
		printf("%10.0f %6.1f %10.2f", e[j].mbps, 100 * e[j].spread, e[j].mbps / ms);
		if (px > 0)
			printf(" %10.2f", e[j].mbps / px);
		printf("\n");
	}
	printf("%-6s %-4s %-10s %10s %6s %10s\n", "op", "bpp", "method", "MB/s", "iqr%",
	       "/memmove");
	for (unsigned j = 0; j < n; j++) {
		if (!e[j].is_copy)
			continue;
		double mm = find(e, n, true, FBK_COPY_MEMMOVE, 32);
		printf("%-6s %-4u %-10s ", "scroll", e[j].bpp, e[j].label);
		if (!e[j].ok)
			printf("%10s\n", "n/a");
		else
			printf("%10.0f %6.1f %10.2f\n", e[j].mbps, 100 * e[j].spread,
			       e[j].mbps / mm);
	}

	for (size_t b = 0; b < ARRAY_SIZE_T(fill_bpps); b++) {
		unsigned bpp = fill_bpps[b];
		struct fbk_surface s = surface_of(c, 0, bpp);
		double a = find(e, n, false, FBK_FILL_AUTO, bpp);
		double px = find(e, n, false, FBK_FILL_PIXMAN, bpp);

		sum->fill_vs_memset[bpp] = a / find(e, n, false, FBK_FILL_MEMSET, bpp);
		sum->fill_vs_pixman[bpp] = px > 0 ? a / px : 0;
		sum->fill_auto[bpp] = fbk_fill_method_name(
			fbk_fill_choose(fbk_row_bytes(bpp, s.width) * s.height, bpp));
	}
	sum->copy_vs_memmove =
		find(e, n, true, FBK_COPY_AUTO, 32) / find(e, n, true, FBK_COPY_MEMMOVE, 32);
	sum->copy_auto = fbk_copy_method_name(fbk_copy_choose(c->frame_bytes));
}

static int alloc_case(struct bcase *c)
{
	for (unsigned i = 0; i < c->n_frames; i++) {
		void *p = mmap(NULL, c->frame_bytes, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "bench-kernels: cannot map %zu bytes for %s: %s\n",
				c->frame_bytes, c->name, strerror(errno));
			return -errno;
		}
		memset(p, 0x11, c->frame_bytes);
		c->frames[i] = p;
	}
	return 0;
}

static void free_case(struct bcase *c)
{
	for (unsigned i = 0; i < c->n_frames; i++)
		if (c->frames[i])
			munmap(c->frames[i], c->frame_bytes);
}

static const char *verdict(double v, double goal)
{
	return v >= goal ? "met" : "NOT met";
}

int main(void)
{
	size_t llc = fbk_llc_bytes();
	struct bcase hot = {
		.name = "in-cache 1920x1080",
		.n_frames = 1,
		.frame_bytes = 1920 * 1080 * 4,
		.stride = 1920 * 4,
		.height = 1080,
		.reps = 8,
	};
	size_t big = (size_t)3840 * 2160 * 4;
	struct bcase cold = {
		.name = "past-cache 3840x2160 rotation",
		.n_frames = (unsigned)((4 * llc + big - 1) / big),
		.frame_bytes = big,
		.stride = 3840 * 4,
		.height = 2160,
		.reps = 1,
	};
	struct summary sh = { 0 }, sc = { 0 };
	int rc = EXIT_FAILURE;

	if (cold.n_frames < 2)
		cold.n_frames = 2;
	if (cold.n_frames > MAX_FRAMES)
		cold.n_frames = MAX_FRAMES;

	printf("fbclassctl kernel benchmark (RAM only; timings are reported, never judged)\n");
	printf("LLC %zu KiB (sysfs cpu0 cache); non-temporal threshold %zu KiB; "
	       "avx2 %s, sse4.1 %s\n",
	       llc >> 10, fbk_nt_threshold() >> 10, fbk_fill_method_cpu_ok(FBK_FILL_AVX2) ? "yes" : "no",
	       fbk_copy_method_cpu_ok(FBK_COPY_SSE41_LOAD) ? "yes" : "no");
	printf("fill pixels: RGB565 0xf81f, RGB888 0x123456, XRGB8888 0x00123456; "
	       "memset writes the same bytes with 0x5a; scroll = in-place copy up 16 rows, "
	       "32 bpp\n");
	printf("past-cache: %u frames x %zu bytes = %.1f MiB = %.1fx LLC; 16/24 bpp fills "
	       "use the same bytes per frame\n",
	       cold.n_frames, big, (double)big * cold.n_frames / (1 << 20),
	       (double)big * cold.n_frames / (double)llc);

	if (alloc_case(&hot) < 0 || alloc_case(&cold) < 0)
		goto finish;
	run_case(&hot, &sh);
	run_case(&cold, &sc);

	printf("\n== summary: auto (the method fbclassctl picks for the size) against the "
	       "baselines\n");
	printf("%-28s %-22s %-22s\n", "ratio (goal in, past)", "in-cache", "past-cache");
	for (size_t b = 0; b < ARRAY_SIZE_T(fill_bpps); b++) {
		unsigned bpp = fill_bpps[b];
		char l[64];
		snprintf(l, sizeof(l), "fill%u/memset (0.9, 1.1)", bpp);
		printf("%-28s %5.2f %-7s %-8s %5.2f %-7s %-8s\n", l, sh.fill_vs_memset[bpp],
		       verdict(sh.fill_vs_memset[bpp], 0.9), sh.fill_auto[bpp],
		       sc.fill_vs_memset[bpp], verdict(sc.fill_vs_memset[bpp], 1.1),
		       sc.fill_auto[bpp]);
	}
	for (size_t b = 0; b < ARRAY_SIZE_T(fill_bpps); b++) {
		unsigned bpp = fill_bpps[b];
		char l[64];
		if (!sh.fill_vs_pixman[bpp])
			continue;
		snprintf(l, sizeof(l), "fill%u/pixman_fill (1.5)", bpp);
		printf("%-28s %5.2f %-16s %5.2f %-16s\n", l, sh.fill_vs_pixman[bpp],
		       verdict(sh.fill_vs_pixman[bpp], 1.5), sc.fill_vs_pixman[bpp],
		       verdict(sc.fill_vs_pixman[bpp], 1.5));
	}
	printf("%-28s %5.2f %-7s %-8s %5.2f %-7s %-8s\n", "scroll/memmove (0.95)",
	       sh.copy_vs_memmove, verdict(sh.copy_vs_memmove, 0.95), sh.copy_auto,
	       sc.copy_vs_memmove, verdict(sc.copy_vs_memmove, 0.95), sc.copy_auto);
	rc = EXIT_SUCCESS;
finish:
	free_case(&hot);
	free_case(&cold);
	return rc;
}
