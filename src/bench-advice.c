/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench's advice: from the measured table, how a program should draw on the
 * device.  Pure: a report in, text and numbers out (see bench.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "macro.h"

/* How the summary names an op's work, plural, before the device's name. */
static const char *op_phrase(const char *op)
{
	static const struct {
		const char *op, *phrase;
	} phrases[] = {
		{ "fill", "fills of" },		{ "upload", "uploads to" },
		{ "readback", "reads from" },	{ "copy", "copies within" },
		{ "rect16", "16x16 rects on" }, { "rect128", "128x128 rects on" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(phrases); i++)
		if (strcmp(phrases[i].op, op) == 0)
			return phrases[i].phrase;
	return op;
}

static bool is_shadow(const struct fb_bench_result *r)
{
	return strcmp(r->strategy, "shadow") == 0;
}

/* The op's results from index i on: the fastest on the device, the fastest
 * direct one, the best RAM speed, and how many strategies ran. */
struct op_best {
	const struct fb_bench_result *best, *direct;
	double ram;
	unsigned n;
};

static struct op_best op_best(const struct fb_bench_report *rep, size_t i)
{
	struct op_best b = {};
	const char *op = rep->results[i].op;

	for (; i < rep->n_results; i++) {
		const struct fb_bench_result *r = &rep->results[i];

		if (r->have_ram && r->ram.median > b.ram && strcmp(r->op, op) == 0)
			b.ram = r->ram.median;
		/* auto runs one of the others: advise that one by its name */
		if (strcmp(r->op, op) != 0 || strcmp(r->strategy, "auto") == 0)
			continue;
		b.n++;
		if (!b.best || r->fb.median > b.best->fb.median)
			b.best = r;
		if (!is_shadow(r) && (!b.direct || r->fb.median > b.direct->fb.median))
			b.direct = r;
	}
	return b;
}

static bool op_seen(const struct fb_bench_report *rep, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(rep->results[j].op, rep->results[i].op) == 0)
			return true;
	return false;
}

static void op_reason(struct fb_bench_advice_op *a, const char *name, unsigned n)
{
	if (strcmp(a->strategy, "shadow") == 0)
		snprintf(a->reason, sizeof(a->reason),
			 "directly on %s %.2fx RAM at best (%s); through a RAM shadow, uploading the changed rows, %.2fx",
			 name, a->direct_ratio,
			 a->direct_strategy ? a->direct_strategy : "none", a->ratio);
	else if (strcmp(a->op, "readback") == 0 && a->ratio < FB_BENCH_SLOW)
		snprintf(a->reason, sizeof(a->reason),
			 "reading %s back runs at %.2fx RAM: keep a copy of what you drew in RAM",
			 name, a->ratio);
	else if (a->ratio < FB_BENCH_SLOW)
		snprintf(a->reason, sizeof(a->reason),
			 "slow on %s with each of the %u strategies measured", name, n);
	else
		snprintf(a->reason, sizeof(a->reason),
			 "the fastest of the %u strategies measured on %s", n, name);
}

/* Append printf-style text to buf (len bytes, always terminated). */
__attribute__((format(printf, 3, 4))) static void append(char *buf, size_t len,
							 const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static const struct fb_bench_advice_op *advice_op(const struct fb_bench_advice *adv,
						  const char *op)
{
	for (size_t i = 0; i < adv->n; i++)
		if (strcmp(adv->ops[i].op, op) == 0)
			return &adv->ops[i];
	return NULL;
}

/* "copies within fb0 run at 0.36x RAM and 16x16 rects on fb0 at 0.10x": the
 * slow ops but readback.  The number of them. */
static unsigned summary_slow(const struct fb_bench_advice *adv, const char *name,
			     char *buf, size_t len, bool *shadow_helps)
{
	unsigned n = 0;

	*shadow_helps = false;
	for (size_t i = 0; i < adv->n; i++) {
		const struct fb_bench_advice_op *a = &adv->ops[i];
		char phrase[64];

		if (strcmp(a->op, "readback") == 0 || a->direct_ratio >= FB_BENCH_SLOW)
			continue;
		snprintf(phrase, sizeof(phrase), "%s %s", op_phrase(a->op), name);
		append(buf, len, n ? " and %s at %.2fx" : "%s run at %.2fx RAM", phrase,
		       a->direct_ratio);
		*shadow_helps |= strcmp(a->strategy, "shadow") == 0;
		n++;
	}
	return n;
}

static void summarize(struct fb_bench_advice *adv, const char *name)
{
	const struct fb_bench_advice_op *rb = advice_op(adv, "readback");
	const struct fb_bench_advice_op *fill = advice_op(adv, "fill");
	const struct fb_bench_advice_op *up = advice_op(adv, "upload");
	char *s = adv->summary;
	size_t len = sizeof(adv->summary);
	bool shadow_helps;
	unsigned slow = summary_slow(adv, name, s, len, &shadow_helps);

	if (slow && shadow_helps)
		append(s, len, ": keep a shadow buffer in RAM and upload damaged rows");
	else if (slow)
		append(s, len,
		       ": no strategy measured does better, so draw there less often");
	else
		append(s, len,
		       "%s runs each operation at %.2fx RAM or better: draw on it directly",
		       name, FB_BENCH_SLOW);
	if (rb && rb->ratio < FB_BENCH_SLOW)
		append(s, len, "; do not read %s back (%.2fx RAM)", name, rb->ratio);
	if (fill)
		append(s, len, "; fill with %s", fill->strategy);
	if (up)
		append(s, len, ", upload with %s", up->strategy);
}

void fb_bench_advise(const struct fb_bench_report *rep, const char *name,
		     struct fb_bench_advice *adv)
{
	memset(adv, 0, sizeof(*adv));
	for (size_t i = 0; i < rep->n_results && adv->n < FB_BENCH_ADVICE_MAX; i++) {
		struct fb_bench_advice_op *a = &adv->ops[adv->n];
		struct op_best b;

		if (op_seen(rep, i))
			continue;
		b = op_best(rep, i);
		if (b.ram <= 0 || !b.best)
			continue; /* nothing to compare with */
		a->op = b.best->op;
		a->strategy = b.best->strategy;
		a->ratio = b.best->fb.median / b.ram;
		a->direct_strategy = b.direct ? b.direct->strategy : NULL;
		a->direct_ratio = b.direct ? b.direct->fb.median / b.ram : 0;
		op_reason(a, name, b.n);
		adv->n++;
	}
	if (adv->n)
		summarize(adv, name);
}
