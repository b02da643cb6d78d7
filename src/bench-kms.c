/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench against a KMS client on the same card: see bench.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "kms.h"
#include "macro.h"

/* The fastest row of op in a report (its median), or NULL. */
static const struct fb_bench_result *fastest(const struct fb_bench_report *rep,
					     const char *op)
{
	const struct fb_bench_result *best = NULL;

	for (size_t i = 0; i < rep->n_results; i++) {
		const struct fb_bench_result *r = &rep->results[i];

		if (strcmp(r->op, op) == 0 && r->fb.median > 0 &&
		    (!best || r->fb.median > best->fb.median))
			best = r;
	}
	return best;
}

/* The name a row's strategy goes by: what auto ran, for auto. */
static const char *ran(const struct fb_bench_result *r)
{
	return r->auto_strategy ? r->auto_strategy : r->strategy;
}

/* Each op both runs measured: the fastest of each, and their ratio. */
static void kms_ratios(const struct fb_bench_report *fbrep,
		       const struct fb_bench_report *krep, struct fb_bench_kms *out)
{
	for (size_t i = 0; i < fbrep->n_results && out->n < ARRAY_SIZE(out->ops); i++) {
		const char *op = fbrep->results[i].op;
		const struct fb_bench_result *f, *k;
		bool seen = false;

		for (size_t j = 0; j < out->n; j++)
			seen = seen || strcmp(out->ops[j].op, op) == 0;
		f = fastest(fbrep, op);
		k = fastest(krep, op);
		if (seen || !f || !k)
			continue;
		out->ops[out->n++] = (struct fb_bench_kms_op){
			.op = op,
			.fb_strategy = ran(f),
			.kms_strategy = ran(k),
			.fb = f->fb.median,
			.kms = k->fb.median,
			.ratio = f->fb.median / k->fb.median,
		};
	}
}

int fb_bench_kms_compare(const struct fb_bench_dev *dev, unsigned minor,
			 const struct fb_bench_opts *opts,
			 const struct fb_bench_report *fbrep, struct fb_bench_kms *out)
{
	struct fb_bench_opts o = *opts;
	struct fb_bench_report *krep;
	struct fb_bench_dev k = *dev;
	struct kms_dumb dumb;
	int r;

	memset(out, 0, sizeof(*out));
	snprintf(out->card, sizeof(out->card), "card%u", minor);
	snprintf(out->name, sizeof(out->name), "%s's dumb buffer", out->card);
	r = kms_dumb_new(minor, dev->vis.width, dev->vis.height, dev->vis.bpp, &dumb,
			 out->why, sizeof(out->why));
	if (r < 0)
		return r;
	krep = malloc(sizeof(*krep));
	if (!krep) {
		kms_dumb_free(&dumb);
		snprintf(out->why, sizeof(out->why), "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	/* the same geometry and format in the driver's own stride; no node
	 * (write and read do not apply), no sysfs device to watch, nothing
	 * shown, so nothing validated is saved */
	k.name = out->name;
	k.syspath = NULL;
	k.vis.pixels = dumb.map;
	k.vis.stride = dumb.pitch;
	k.vis_offset = 0;
	k.fd = -1;
	k.use_rw = false;
	k.is_ram = false;
	k.facts = (struct fb_bench_facts){ .id = "dumb", .kind = "kms" };
	o.validated = NULL;
	o.validated_arg = NULL;
	r = fb_bench_run(&k, &o, krep);
	kms_dumb_free(&dumb);
	if (r < 0)
		snprintf(out->why, sizeof(out->why), "the run on %s failed: %s",
			 out->name, strerror(-r));
	else {
		out->have = true;
		out->valid = krep->validation.passed;
		kms_ratios(fbrep, krep, out);
	}
	free(krep);
	return r;
}
