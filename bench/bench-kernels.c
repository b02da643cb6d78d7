/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * make bench: the fill and copy kernels on RAM, side by side with glibc and
 * pixman, in one run, at two sizes:
 *   in-cache    one 1920x1080 frame, filled over and over;
 *   past-cache  a rotation of 3840x2160 32 bpp frames totalling >= 4x the LLC.
 * Past the cache every store waits on memory, so the past-cache kernels are
 * held against a ceiling measured apart from them: the write bandwidth of
 * the memory, every online CPU storing non-temporally into its own part of
 * one buffer of the same size, at once.
 * Methods are interleaved round by round, in a new order each round, so a
 * change of clock or a noisy neighbour hits all of them alike.  A ratio is the median over the rounds of
 * the ratio measured within one round (paired), with its interquartile range.
 * It reports what it measured, goal by goal, and never fails on timing: it
 * exits 0 unless it cannot run at all.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench-kernels.h"

#define ARRAY_SIZE_T(a) (sizeof(a) / sizeof((a)[0]))
#define MAX(a, b)	((a) > (b) ? (a) : (b))
#define MAX_ROUNDS	41
#define MAX_FRAMES	64
#define MAX_ENTRIES	64

struct bcase {
	const char *name;
	const char *tag; /* column name in the summary */
	unsigned n_frames;
	size_t frame_bytes; /* each frame is one buffer */
	size_t stride;
	unsigned height;
	uint8_t *frames[MAX_FRAMES];
	unsigned reps; /* ops per round: whole rotations for past-cache */
	unsigned rounds; /* <= MAX_ROUNDS */
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

/* The median and quartiles of n values (n >= 1); v is left untouched. */
struct stats {
	double median, q1, q3;
};

static struct stats stats_of(const double *v, unsigned n)
{
	double s[MAX_ROUNDS];

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return (struct stats){
		.median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2,
		.q1 = s[n / 4],
		.q3 = s[(3 * n) / 4],
	};
}

/* One timed kind of operation: a fill method or a copy method at one bpp. */
struct entry {
	const char *label; /* method name */
	bool is_copy;
	int method;
	unsigned bpp;
	double samples[MAX_ROUNDS]; /* MB/s (10^6 bytes) per round, in round order */
	struct stats mbps;
	bool ok;
};

static struct bench_kernel_surface surface_of(const struct bcase *c, unsigned i,
					      unsigned bpp)
{
	struct bench_kernel_surface s = {
		.pixels = c->frames[i],
		.stride = c->stride,
		.width = (unsigned)(c->stride * 8 / bpp),
		.height = c->height,
		.bpp = bpp,
	};
	/* in-cache frames are 1920 pixels wide at every bpp */
	if (c->n_frames == 1)
		s.width = 1920, s.stride = bench_kernel_row_bytes(bpp, 1920);
	return s;
}

static const uint32_t fill_pixel[33] = {
	[16] = 0xf81f, [24] = 0x123456, [32] = 0x00123456
};
/* memset's byte: not 0, which some memory systems write faster than data. */
#define MEMSET_PIXEL 0x5a5a5a5a

/* One op on frame i; returns bytes written, 0 when the method refused. */
static size_t run_once(const struct bcase *c, const struct entry *e, unsigned i)
{
	struct bench_kernel_surface s = surface_of(c, i, e->bpp);

	if (e->is_copy) {
		unsigned h = s.height - 16;
		if (bench_kernel_copy(&s, 0, 0, &s, 0, 16, s.width, h, e->method) < 0)
			return 0;
		return bench_kernel_row_bytes(s.bpp, s.width) * h;
	}
	uint32_t px =
		e->method == BENCH_KERNEL_FILL_MEMSET ? MEMSET_PIXEL : fill_pixel[e->bpp];
	if (bench_kernel_fill(&s, 0, 0, s.width, s.height, px, e->method) < 0)
		return 0;
	return bench_kernel_row_bytes(s.bpp, s.width) * s.height;
}

static void run_entries(const struct bcase *c, struct entry *e, unsigned n)
{
	/* Warm-up: a full rotation each, and check which methods apply. */
	for (unsigned j = 0; j < n; j++) {
		e[j].ok = true;
		for (unsigned i = 0; i < c->n_frames && e[j].ok; i++)
			e[j].ok = run_once(c, &e[j], i) > 0;
	}
	/* Seeded from the clock: a fixed seed repeats the same orders, and with
	 * them the same bias, run after run. */
	uint32_t rng = (uint32_t)(now() * 1e6) | 1;
	unsigned order[MAX_ENTRIES];

	for (unsigned j = 0; j < n; j++)
		order[j] = j;
	for (unsigned r = 0; r < c->rounds; r++) {
		/* A new order each round (Fisher-Yates): what ran just
		 * before matters here.  With a rotated fixed order "auto" always
		 * followed memset and measured 0.85 of it, while the same kernel as
		 * "avx2" measured 0.73. */
		for (unsigned j = n - 1; j > 0; j--) {
			rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
			unsigned k = rng % (j + 1), t = order[j];
			order[j] = order[k];
			order[k] = t;
		}
		for (unsigned jj = 0; jj < n; jj++) {
			unsigned j = order[jj];
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
	for (unsigned j = 0; j < n; j++)
		if (e[j].ok)
			e[j].mbps = stats_of(e[j].samples, c->rounds);
}

static const struct entry *find(const struct entry *e, unsigned n, bool is_copy,
				int method, unsigned bpp)
{
	for (unsigned j = 0; j < n; j++)
		if (e[j].is_copy == is_copy && e[j].method == method && e[j].bpp == bpp &&
		    e[j].ok)
			return &e[j];
	return NULL;
}

/* a / b round by round; false when either did not run. */
static bool paired_ratio(const struct entry *a, const struct entry *b, unsigned rounds,
			 struct stats *out)
{
	double r[MAX_ROUNDS];

	if (!a || !b)
		return false;
	for (unsigned i = 0; i < rounds; i++)
		r[i] = a->samples[i] / b->samples[i];
	*out = stats_of(r, rounds);
	return true;
}

static const int fill_methods[] = {
	BENCH_KERNEL_FILL_MEMSET,  BENCH_KERNEL_FILL_AUTO,   BENCH_KERNEL_FILL_SCALAR32,
	BENCH_KERNEL_FILL_STOS,	   BENCH_KERNEL_FILL_SSE2,   BENCH_KERNEL_FILL_SSE2_PFW,
	BENCH_KERNEL_FILL_SSE2_NT, BENCH_KERNEL_FILL_AVX2,   BENCH_KERNEL_FILL_AVX2_PFW,
	BENCH_KERNEL_FILL_AVX2_NT, BENCH_KERNEL_FILL_PIXMAN,
};
static const int copy_methods[] = {
	BENCH_KERNEL_COPY_MEMMOVE,  BENCH_KERNEL_COPY_AUTO,    BENCH_KERNEL_COPY_MEMCPY,
	BENCH_KERNEL_COPY_SCALAR32, BENCH_KERNEL_COPY_SSE2_NT, BENCH_KERNEL_COPY_AVX2_NT,
	BENCH_KERNEL_COPY_PIXMAN,
};
static const unsigned fill_bpps[] = { 16, 24, 32 };

/* What one case measured, for the summary. */
struct result {
	bool ran;
	const char *why; /* when !ran */
	struct stats fill_vs_memset[33], fill_vs_pixman[33], memset_vs_pixman[33];
	struct stats best_vs_pixman[33], copy_vs_memmove;
	bool have_memset[33], have_pixman[33], have_copy;
	const char *fill_auto[33], *best_fill[33], *copy_auto;
	/* past-cache: each single-thread fill at 32 bpp, MB/s median */
	struct {
		const char *label;
		double mbps;
	} fills32[MAX_ENTRIES];
	unsigned n_fills32;
};

static void print_ratio(const struct stats *s)
{
	printf(" %6.2f %5.0f%%", s->median, 100 * (s->q3 - s->q1) / s->median);
}

static void print_table(const struct bcase *c, const struct entry *e, unsigned n)
{
	printf("%-6s %-4s %-10s %10s %6s %15s %15s\n", "op", "bpp", "method", "MB/s",
	       "iqr%", "/memset  iqr", "/pixman  iqr");
	for (unsigned j = 0; j < n; j++) {
		if (e[j].is_copy)
			continue;
		const struct entry *ms =
			find(e, n, false, BENCH_KERNEL_FILL_MEMSET, e[j].bpp);
		const struct entry *px =
			find(e, n, false, BENCH_KERNEL_FILL_PIXMAN, e[j].bpp);
		struct stats r;

		printf("%-6s %-4u %-10s ", "fill", e[j].bpp, e[j].label);
		if (!e[j].ok) {
			printf("%10s\n", "n/a");
			continue;
		}
		printf("%10.0f %6.1f", e[j].mbps.median,
		       100 * (e[j].mbps.q3 - e[j].mbps.q1) / e[j].mbps.median);
		if (paired_ratio(&e[j], ms, c->rounds, &r))
			print_ratio(&r);
		else
			printf(" %14s", "n/a");
		if (paired_ratio(&e[j], px, c->rounds, &r))
			print_ratio(&r);
		printf("\n");
	}
	printf("%-6s %-4s %-10s %10s %6s %15s\n", "op", "bpp", "method", "MB/s", "iqr%",
	       "/memmove  iqr");
	for (unsigned j = 0; j < n; j++) {
		if (!e[j].is_copy)
			continue;
		const struct entry *mm = find(e, n, true, BENCH_KERNEL_COPY_MEMMOVE, 32);
		struct stats r;

		printf("%-6s %-4u %-10s ", "scroll", e[j].bpp, e[j].label);
		if (!e[j].ok) {
			printf("%10s\n", "n/a");
			continue;
		}
		printf("%10.0f %6.1f", e[j].mbps.median,
		       100 * (e[j].mbps.q3 - e[j].mbps.q1) / e[j].mbps.median);
		if (paired_ratio(&e[j], mm, c->rounds, &r))
			print_ratio(&r);
		printf("\n");
	}
}

static void summarize(const struct bcase *c, const struct entry *e, unsigned n,
		      struct result *res)
{
	for (size_t b = 0; b < ARRAY_SIZE_T(fill_bpps); b++) {
		unsigned bpp = fill_bpps[b];
		struct bench_kernel_surface s = surface_of(c, 0, bpp);
		const struct entry *a = find(e, n, false, BENCH_KERNEL_FILL_AUTO, bpp);
		const struct entry *ms = find(e, n, false, BENCH_KERNEL_FILL_MEMSET, bpp);
		const struct entry *px = find(e, n, false, BENCH_KERNEL_FILL_PIXMAN, bpp);
		const struct entry *best = NULL;
		struct stats rb = { 0 }, rj;

		/* Our kernel with the best paired ratio to pixman: the ceiling. */
		for (unsigned j = 0; j < n; j++)
			if (!e[j].is_copy && e[j].ok && e[j].bpp == bpp &&
			    e[j].method != BENCH_KERNEL_FILL_MEMSET &&
			    e[j].method != BENCH_KERNEL_FILL_PIXMAN &&
			    paired_ratio(&e[j], px, c->rounds, &rj) &&
			    (!best || rj.median > rb.median)) {
				best = &e[j];
				rb = rj;
			}
		res->have_memset[bpp] =
			paired_ratio(a, ms, c->rounds, &res->fill_vs_memset[bpp]);
		res->have_pixman[bpp] =
			paired_ratio(a, px, c->rounds, &res->fill_vs_pixman[bpp]) &&
			paired_ratio(ms, px, c->rounds, &res->memset_vs_pixman[bpp]) &&
			paired_ratio(best, px, c->rounds, &res->best_vs_pixman[bpp]);
		res->fill_auto[bpp] =
			bench_kernel_fill_method_name(bench_kernel_fill_choose(
				bench_kernel_row_bytes(bpp, s.width) * s.height, bpp));
		res->best_fill[bpp] = best ? best->label : "?";
	}
	res->have_copy = paired_ratio(find(e, n, true, BENCH_KERNEL_COPY_AUTO, 32),
				      find(e, n, true, BENCH_KERNEL_COPY_MEMMOVE, 32),
				      c->rounds, &res->copy_vs_memmove);
	res->copy_auto =
		bench_kernel_copy_method_name(bench_kernel_copy_choose(c->frame_bytes));
	for (unsigned j = 0; j < n; j++)
		if (!e[j].is_copy && e[j].ok && e[j].bpp == 32)
			res->fills32[res->n_fills32++] =
				(typeof(res->fills32[0])){ e[j].label, e[j].mbps.median };
	res->ran = true;
}

static void run_case(struct bcase *c, struct result *res)
{
	struct entry e[MAX_ENTRIES];
	unsigned n = 0;
	size_t bytes_per_round = c->frame_bytes * c->n_frames * c->reps;

	for (size_t b = 0; b < ARRAY_SIZE_T(fill_bpps); b++)
		for (size_t m = 0; m < ARRAY_SIZE_T(fill_methods); m++) {
			if (!bench_kernel_fill_method_cpu_ok(fill_methods[m]))
				continue;
			e[n++] = (struct entry){ .label = bench_kernel_fill_method_name(
							 fill_methods[m]),
						 .method = fill_methods[m],
						 .bpp = fill_bpps[b] };
		}
	for (size_t m = 0; m < ARRAY_SIZE_T(copy_methods); m++) {
		if (!bench_kernel_copy_method_cpu_ok(copy_methods[m]))
			continue;
		e[n++] = (struct entry){ .label = bench_kernel_copy_method_name(
						 copy_methods[m]),
					 .is_copy = true,
					 .method = copy_methods[m],
					 .bpp = 32 };
	}

	printf("\n== %s: %u frame(s) of %zu bytes (%.1f MiB touched per op and round), %u round(s)\n",
	       c->name, c->n_frames, c->frame_bytes, (double)bytes_per_round / (1 << 20),
	       c->rounds);
	fflush(stdout);
	run_entries(c, e, n);
	print_table(c, e, n);
	summarize(c, e, n, res);
}

static int alloc_case(struct bcase *c)
{
	for (unsigned i = 0; i < c->n_frames; i++) {
		void *p = mmap(NULL, c->frame_bytes, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (p == MAP_FAILED) {
			int err = errno;
			fprintf(stderr,
				"bench-kernels: %s: cannot map %zu bytes for frame %u: %s\n",
				c->name, c->frame_bytes, i, strerror(err));
			return -err;
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

/* ---- the memory's write bandwidth: the ceiling past the cache ---- */

#define CEILING_ROUNDS 11
#define MAX_THREADS    64

struct ceiling_part {
	pthread_t thread;
	struct bench_kernel_surface s; /* this thread's rows of the buffer */
	pthread_barrier_t *start;
	double t_end;
	int rc;
};

static int nt_fill_method(void)
{
	if (bench_kernel_fill_method_cpu_ok(BENCH_KERNEL_FILL_AVX2_NT))
		return BENCH_KERNEL_FILL_AVX2_NT;
	if (bench_kernel_fill_method_cpu_ok(BENCH_KERNEL_FILL_SSE2_NT))
		return BENCH_KERNEL_FILL_SSE2_NT;
	return BENCH_KERNEL_FILL_MEMSET;
}

static void *ceiling_thread(void *arg)
{
	struct ceiling_part *p = arg;

	pthread_barrier_wait(p->start);
	p->rc = bench_kernel_fill(&p->s, 0, 0, p->s.width, p->s.height, 0x00123456,
				  nt_fill_method());
	p->t_end = now();
	return NULL;
}

struct ceiling {
	bool ran;
	const char *why;
	unsigned threads;
	const char *method;
	struct stats all, one; /* MB/s: every CPU at once, and one alone */
};

/* One round: the buffer (rows x stride) split by rows among n threads. */
static double ceiling_round(uint8_t *buf, size_t stride, unsigned rows, unsigned n)
{
	struct ceiling_part parts[MAX_THREADS];
	pthread_barrier_t start;
	double t0, t_end = 0;
	unsigned made = 0;

	if (pthread_barrier_init(&start, NULL, n + 1) != 0)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned y0 = rows * i / n, y1 = rows * (i + 1) / n;

		parts[i] = (struct ceiling_part){
			.s = { buf + (size_t)y0 * stride, stride, (unsigned)(stride / 4),
			       y1 - y0, 32 },
			.start = &start,
		};
		if (pthread_create(&parts[i].thread, NULL, ceiling_thread, &parts[i]) != 0)
			break;
		made++;
	}
	if (made < n) {
		/* cannot happen short of resources: no number rather than a wrong one */
		fprintf(stderr, "bench-kernels: ceiling: cannot start %u threads\n", n);
		exit(EXIT_FAILURE);
	}
	t0 = now();
	pthread_barrier_wait(&start);
	for (unsigned i = 0; i < n; i++) {
		pthread_join(parts[i].thread, NULL);
		if (parts[i].rc < 0)
			return 0;
		t_end = MAX(t_end, parts[i].t_end);
	}
	pthread_barrier_destroy(&start);
	return (double)stride * rows / (t_end - t0) / 1e6;
}

static void measure_ceiling(size_t bytes, struct ceiling *c)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t stride = 3840 * 4;
	unsigned rows = (unsigned)(bytes / stride);
	double all[CEILING_ROUNDS], one[CEILING_ROUNDS];
	uint8_t *buf;

	c->threads = cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : (unsigned)cpus;
	c->method = bench_kernel_fill_method_name(nt_fill_method());
	buf = mmap(NULL, stride * rows, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED) {
		c->why = "no memory";
		return;
	}
	ceiling_round(buf, stride, rows, c->threads); /* warm-up */
	for (unsigned r = 0; r < CEILING_ROUNDS; r++) {
		all[r] = ceiling_round(buf, stride, rows, c->threads);
		one[r] = ceiling_round(buf, stride, rows, 1);
		if (all[r] <= 0 || one[r] <= 0) {
			c->why = "the non-temporal fill refused the buffer";
			munmap(buf, stride * rows);
			return;
		}
	}
	munmap(buf, stride * rows);
	c->all = stats_of(all, CEILING_ROUNDS);
	c->one = stats_of(one, CEILING_ROUNDS);
	c->ran = true;
}

/*
 * One summary line: the ratio, its goal, the paired median with its
 * quartiles, and the verdict; "(noise)" when the goal lies inside the middle
 * half of the rounds, so that a repeat run may well say the opposite.
 */
static void summary_line(const char *ratio, const char *size, double goal, bool have,
			 const struct stats *s, const char *method)
{
	printf("%-22s %-10s ", ratio, size);
	if (goal > 0)
		printf(">= %-5.2f ", goal);
	else
		printf("%-8s ", "(info)");
	if (!have) {
		printf("%6s\n", "n/a");
		return;
	}
	printf("%6.2f  %4.2f-%-4.2f  ", s->median, s->q1, s->q3);
	if (goal > 0)
		printf("%-8s %-8s", s->median >= goal ? "met" : "NOT met",
		       s->q1 < goal && goal <= s->q3 ? "(noise)" : "");
	else
		printf("%-17s", "");
	printf(" %s\n", method ? method : "");
}

/* Past the cache: each single-thread fill at 32 bpp as a fraction of the
 * memory's write bandwidth; the goal is auto's. */
static void print_ceiling(const struct ceiling *c, const struct result *rc)
{
	printf("\n== past-cache ceiling: the memory's write bandwidth, %u thread(s) storing %s into their own part of one buffer at once\n",
	       c->threads, c->method);
	if (!c->ran) {
		printf("not measured (%s)\n", c->why);
		return;
	}
	printf("all %u CPU(s): %.0f MB/s [%.0f-%.0f]; one CPU alone: %.0f MB/s (%.2f of it)\n",
	       c->threads, c->all.median, c->all.q1, c->all.q3, c->one.median,
	       c->one.median / c->all.median);
	if (!rc->ran)
		return;
	printf("%-22s %-8s %8s  %s\n", "fill32 (one thread)", "MB/s", "/ceiling", "goal");
	for (unsigned i = 0; i < rc->n_fills32; i++) {
		bool is_auto = strcmp(rc->fills32[i].label, "auto") == 0;
		double f = rc->fills32[i].mbps / c->all.median;

		printf("  %-20s %8.0f %8.2f  %s\n", rc->fills32[i].label,
		       rc->fills32[i].mbps, f,
		       !is_auto	  ? ""
		       : f >= 0.9 ? ">= 0.90 met"
				  : ">= 0.90 NOT met");
	}
}

static void print_summary(const struct bcase *hot, const struct result *rh,
			  const struct bcase *cold, const struct result *rc)
{
	const struct bcase *cases[] = { hot, cold };
	const struct result *res[] = { rh, rc };
	const double memset_goal[] = { 0.9, 1.1 };
	char l[64];

	printf("\n== summary: auto (the method fbclassctl picks for the size) against the baselines\n");
	printf("%-22s %-10s %-8s %6s  %-9s  %-17s %s\n", "ratio", "size", "goal",
	       "median", "q1-q3", "verdict", "method");
	for (size_t b = 0; b < ARRAY_SIZE_T(fill_bpps); b++) {
		unsigned bpp = fill_bpps[b];
		snprintf(l, sizeof(l), "fill%u/memset", bpp);
		for (int k = 0; k < 2; k++)
			if (res[k]->ran)
				summary_line(l, cases[k]->tag, memset_goal[k],
					     res[k]->have_memset[bpp],
					     &res[k]->fill_vs_memset[bpp],
					     res[k]->fill_auto[bpp]);
	}
	for (size_t b = 0; b < ARRAY_SIZE_T(fill_bpps); b++) {
		unsigned bpp = fill_bpps[b];
		for (int k = 0; k < 2; k++) {
			if (!res[k]->ran || !res[k]->have_pixman[bpp])
				continue;
			snprintf(l, sizeof(l), "fill%u/pixman_fill", bpp);
			summary_line(l, cases[k]->tag, k == 0 ? 1.5 : 0, true,
				     &res[k]->fill_vs_pixman[bpp],
				     res[k]->fill_auto[bpp]);
			/* What the goal asks of the machine: memset, the store limit,
			 * and our fastest kernel, each against pixman_fill. */
			snprintf(l, sizeof(l), "  memset/pixman_fill");
			summary_line(l, cases[k]->tag, 0, true,
				     &res[k]->memset_vs_pixman[bpp], "memset");
			snprintf(l, sizeof(l), "  best/pixman_fill");
			summary_line(l, cases[k]->tag, 0, true,
				     &res[k]->best_vs_pixman[bpp],
				     res[k]->best_fill[bpp]);
		}
	}
	for (int k = 0; k < 2; k++)
		if (res[k]->ran)
			summary_line("scroll/memmove", cases[k]->tag, 0.95,
				     res[k]->have_copy, &res[k]->copy_vs_memmove,
				     res[k]->copy_auto);
	for (int k = 0; k < 2; k++)
		if (!res[k]->ran)
			printf("%s: not run (%s)\n", cases[k]->name, res[k]->why);
	/* Say when the pixman goal (in-cache only: past the cache the ceiling
	 * below is the goal) asks for more than the store limit gives. */
	for (size_t b = 0; rh->ran && b < ARRAY_SIZE_T(fill_bpps); b++) {
		unsigned bpp = fill_bpps[b];
		double limit;

		if (!rh->have_pixman[bpp])
			continue;
		limit = MAX(rh->memset_vs_pixman[bpp].median,
			    rh->best_vs_pixman[bpp].median);
		if (limit >= 1.5)
			continue;
		printf("note: fill%u/pixman_fill >= 1.5 %s: no kernel measured reaches it; memset is %.2fx and the best kernel (%s) %.2fx pixman_fill\n",
		       bpp, hot->tag, rh->memset_vs_pixman[bpp].median,
		       rh->best_fill[bpp], rh->best_vs_pixman[bpp].median);
	}
}

int main(void)
{
	size_t llc = bench_kernel_llc_bytes();
	struct bcase hot = {
		.name = "in-cache 1920x1080",
		.tag = "in-cache",
		.n_frames = 1,
		.frame_bytes = 1920 * 1080 * 4,
		.stride = 1920 * 4,
		.height = 1080,
		.reps = 8,
		.rounds = 41,
	};
	size_t big = (size_t)3840 * 2160 * 4;
	struct bcase cold = {
		.name = "past-cache 3840x2160 rotation",
		.tag = "past-cache",
		.n_frames = (unsigned)((4 * llc + big - 1) / big),
		.frame_bytes = big,
		.stride = 3840 * 4,
		.height = 2160,
		.reps = 1,
		.rounds = 21,
	};
	struct result rh = { .why = "no memory" }, rc = { .why = "no memory" };
	struct ceiling ceiling = {};

	if (cold.n_frames < 2)
		cold.n_frames = 2;
	if (cold.n_frames > MAX_FRAMES)
		cold.n_frames = MAX_FRAMES;

	printf("fbclassctl kernel benchmark (RAM only; timings are reported, never judged)\n");
	printf("LLC %zu KiB shared by %u CPU(s) (sysfs cpu0 cache); non-temporal threshold %zu KiB (3/4 of a CPU's share)\n",
	       llc >> 10, bench_kernel_llc_sharers(), bench_kernel_nt_threshold() >> 10);
	printf("CPU: avx2 %s, erms %s, prefetchw %s, sse4.1 %s (__builtin_cpu_supports, cpuid)\n",
	       bench_kernel_fill_method_cpu_ok(BENCH_KERNEL_FILL_AVX2) ? "yes" : "no",
	       bench_kernel_cpu_has_erms() ? "yes" : "no",
	       bench_kernel_fill_method_cpu_ok(BENCH_KERNEL_FILL_SSE2_PFW) ? "yes" : "no",
	       bench_kernel_copy_method_cpu_ok(BENCH_KERNEL_COPY_SSE41_LOAD) ? "yes"
									     : "no");
	printf("fill pixels: RGB565 0xf81f, RGB888 0x123456, XRGB8888 0x00123456; memset writes the same bytes with 0x5a; scroll = in-place copy up 16 rows, 32 bpp\n");
	printf("past-cache: %u frames x %zu bytes = %.1f MiB = %.1fx LLC; 16/24 bpp fills use the same bytes per frame\n",
	       cold.n_frames, big, (double)big * cold.n_frames / (1 << 20),
	       (double)big * cold.n_frames / (double)llc);
	printf("ratios: median over the rounds of the ratio within each round, and the spread of the middle half (iqr)\n");

	/* Short of memory, report what can be measured; this is not a test. */
	if (alloc_case(&hot) == 0)
		run_case(&hot, &rh);
	if (alloc_case(&cold) == 0)
		run_case(&cold, &rc);
	free_case(&hot);
	free_case(&cold);
	if (rh.ran || rc.ran)
		print_summary(&hot, &rh, &cold, &rc);
	measure_ceiling(big * cold.n_frames, &ceiling);
	print_ceiling(&ceiling, &rc);
	return rh.ran || rc.ran ? EXIT_SUCCESS : EXIT_FAILURE;
}
