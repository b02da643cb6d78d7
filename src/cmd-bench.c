/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl bench: measure and validate each framebuffer against RAM. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench.h"
#include "display.h"
#include "stop-signals.h"
#include "commands.h"
#include "fbclass.h"
#include "jsonc-backend.h"
#include "jsonout.h"
#include "kms.h"
#include "log.h"
#include "nodes.h"
#include "strutil.h"

static void bench_help(void)
{
	printf("Usage: fbclassctl bench [options] [DEVICE...]\n"
	       "\n"
	       "Measure fill, upload, readback, copy (scroll) and rectangle fills on each\n"
	       "framebuffer (default: all), with every store strategy this CPU has, and the\n"
	       "same on a RAM buffer of the same geometry; validate what was drawn.  It draws\n"
	       "on the visible screen, then restores its contents, mode and colour map, and\n"
	       "reads the screen back, before and after the console returns to text mode:\n"
	       "restored: yes (as saved), console redrawn (fbcon repainted it in text mode:\n"
	       "not an error) or NO with the first pixel that differs (exit 1).\n"
	       "\n"
	       "DEVICE is fb0, 0, /dev/fb0, /sys/class/graphics/fb0 or a link to the node.\n"
	       "\n"
	       "Options:\n"
	       "  -d, --duration SECS   time for the timing loops per device (default 2)\n"
	       "      --quick           validate only: one pass per operation with auto\n"
	       "                        (or with the strategies -S names)\n"
	       "  -S, --strategy LIST   only these strategies (comma-separated):\n"
	       "                        memset memcpy memmove scalar32 stos sse2 avx2 sse2-nt\n"
	       "                        avx2-nt sse41-load pixman auto write read shadow pan\n"
	       "  -J, --json            JSON output\n"
	       "      --snap DIR        save each validated pattern as read back from the\n"
	       "                        device: DIR/fbN-fill.png, DIR/fbN-upload.png,\n"
	       "                        DIR/fbN-copy.png (8-bit RGB; DIR must exist)\n"
	       "      --dev DIR         device nodes are under DIR (default /dev)\n"
	       "  -h, --help            show this help\n"
	       "\n"
	       "Operations: fill (solid colour), upload (RAM to FB), readback (FB to RAM),\n"
	       "copy (overlapping scroll by 16 rows), rect16 and rect128 (squares at\n"
	       "pseudo-random places), and flip: page flips by FBIOPAN_DISPLAY per second,\n"
	       "between the visible page and a second one (the virtual height made twice\n"
	       "the visible one for the run where it is not), or why it was skipped.\n"
	       "RATIO (ratio in -J) = the device's speed over the fastest RAM strategy of\n"
	       "the same operation; SAME-RATIO (same_strategy_ratio)\n"
	       "over the same strategy on RAM.  auto picks per device and operation from\n"
	       "what the kernel tells: write(2) and read(2) on DRM's fbdev emulation (a\n"
	       "shadow under deferred I/O) but for rects, and for vfb's upload and readback,\n"
	       "stores into the mapping elsewhere; -v says which and why.  A strategy named that applies to no\n"
	       "operation on a device is exit 2 for it, before anything is drawn.\n"
	       "shadow (copy, rects) draws into a RAM copy of the frame and uploads the\n"
	       "changed rows.  Each device ends with advice for a program drawing there:\n"
	       "per operation the fastest strategy, its speed against the fastest RAM one,\n"
	       "and why.\n"
	       "\n"
	       "On DRM's fbdev emulation a whole run (not --quick, no -S) also runs every\n"
	       "strategy without a node on a dumb buffer of the same card, the same size\n"
	       "and depth, never shown, as a KMS client draws: per operation the fastest\n"
	       "of each and FB/KMS, what the fbdev path costs (kms in -J).\n"
	       "\n"
	       "Exit status: 0 ok, 1 error or device removed, 2 usage, 3 validation failed,\n"
	       "4 no such device, 128+N stopped by signal N (SIGHUP 129, SIGINT 130,\n"
	       "SIGTERM 143, ...); the screen is restored first in every case but a removed\n"
	       "device.  A --snap DIR that is not a writable directory is exit 1 before\n"
	       "anything is drawn; so is a snapshot that could not be written, at the end.\n");
}

static double mb(double bytes_per_second)
{
	return bytes_per_second / 1e6;
}

static void print_advice(const char *name, const struct fb_bench_advice *adv)
{
	if (!adv || !adv->n)
		return;
	print_line_escaped(
		"  advice for a program drawing on %s (x RAM: against the fastest RAM strategy):",
		name);
	for (size_t i = 0; i < adv->n; i++)
		printf("    %-9s %-11s %5.2fx  %s\n", adv->ops[i].op,
		       adv->ops[i].strategy, adv->ops[i].ratio, adv->ops[i].reason);
	printf("  in short: %s\n", adv->summary);
}

static void print_kms(const struct fb_bench_kms *k)
{
	if (!k || !k->card[0])
		return;
	if (!k->have) {
		print_line_escaped("  against a KMS client on %s: cannot tell (%s)",
				   k->card, k->why);
		return;
	}
	printf("  against a KMS client on %s (a dumb buffer of the same size and depth,\n"
	       "  not shown; validation %s):\n",
	       k->card, k->valid ? "passed" : "FAILED");
	printf("    %-9s %10s %-11s %10s %-11s %6s\n", "OP", "FB MB/s", "(fastest)",
	       "KMS MB/s", "(fastest)", "FB/KMS");
	for (size_t i = 0; i < k->n; i++)
		printf("    %-9s %10.1f %-11s %10.1f %-11s %5.2fx\n", k->ops[i].op,
		       mb(k->ops[i].fb), k->ops[i].fb_strategy, mb(k->ops[i].kms),
		       k->ops[i].kms_strategy, k->ops[i].ratio);
}

static json_object *json_kms(const struct fb_bench_kms *k)
{
	json_object *o = json_object_new_object(), *ops;

	jsonout_add_string(o, "card", k->card);
	if (!k->have) {
		json_object_object_add(o, "error", jsonout_string_safe(k->why));
		return o;
	}
	json_object_object_add(o, "validation_passed", json_object_new_boolean(k->valid));
	ops = json_object_new_array();
	for (size_t i = 0; i < k->n; i++) {
		json_object *e = json_object_new_object();

		jsonout_add_string(e, "op", k->ops[i].op);
		json_object_object_add(e, "fb_bytes_per_second",
				       json_object_new_double(k->ops[i].fb));
		jsonout_add_string(e, "fb_strategy", k->ops[i].fb_strategy);
		json_object_object_add(e, "kms_bytes_per_second",
				       json_object_new_double(k->ops[i].kms));
		jsonout_add_string(e, "kms_strategy", k->ops[i].kms_strategy);
		json_object_object_add(e, "ratio",
				       json_object_new_double(k->ops[i].ratio));
		json_object_array_add(ops, e);
	}
	json_object_object_add(o, "ops", ops);
	return o;
}

/* The flip line: its rate, or why it was skipped. */
static void print_flip(const struct fb_bench_flip *f)
{
	if (!f->ran) {
		print_line_escaped("  flip: skipped: %s", f->skipped);
		return;
	}
	printf("  flip: %.1f flips/s (%.1f-%.1f, %u runs) by FBIOPAN_DISPLAY between y=%u and y=%u%s, read back: %s\n",
	       f->rate.median, f->rate.min, f->rate.max, f->rate.runs, f->home_y,
	       f->page_y, f->resized ? " (virtual height set for the run)" : "",
	       f->verified < 0 ? "-"
	       : f->verified   ? "yes"
			       : "NO");
}

static json_object *json_flip(const struct fb_bench_flip *f)
{
	json_object *o = json_object_new_object();

	if (!f->ran) {
		json_object_object_add(o, "skipped", jsonout_string_safe(f->skipped));
		return o;
	}
	json_object_object_add(o, "flips_per_second",
			       json_object_new_double(f->rate.median));
	json_object_object_add(o, "min_flips_per_second",
			       json_object_new_double(f->rate.min));
	json_object_object_add(o, "max_flips_per_second",
			       json_object_new_double(f->rate.max));
	json_object_object_add(o, "runs", json_object_new_int((int)f->rate.runs));
	json_object_object_add(o, "home_y", json_object_new_int64(f->home_y));
	json_object_object_add(o, "page_y", json_object_new_int64(f->page_y));
	json_object_object_add(o, "yres_virtual", json_object_new_int64(f->yres_virtual));
	json_object_object_add(o, "virtual_resized", json_object_new_boolean(f->resized));
	json_object_object_add(o, "verified",
			       f->verified < 0 ? NULL
					       : json_object_new_boolean(f->verified));
	return o;
}

/* The restore line: yes, console redrawn, or NO with the first difference. */
static void print_restore(const char *name, const struct fb_bench_report *rep)
{
	const struct fb_bench_mismatch *f = &rep->restore_first;

	if (rep->restore == FB_BENCH_RESTORE_YES)
		printf("  restored: yes\n\n");
	else if (rep->restore == FB_BENCH_RESTORE_CONSOLE_REDRAWN)
		printf("  restored: console redrawn: read back as saved, then fbcon repainted its console on %s in text mode (%" PRIu64
		       " pixels differ)\n\n",
		       name, rep->restore_mismatches);
	else if (rep->restore_mismatches)
		printf("  restored: NO: %" PRIu64
		       " pixels differ from what was saved%s, the first at x=%u y=%u: saved 0x%08x, now 0x%08x\n\n",
		       rep->restore_mismatches,
		       rep->restore_after_text
			       ? " after the console went back to text mode"
			       : "",
		       f->x, f->y, f->expected, f->got);
	else
		printf("  restored: NO\n\n");
}

static void print_table(const struct fb_bench_dev *dev, const struct fb_bench_mapping *m,
			const struct fb_bench_report *rep, bool quick,
			const struct fb_bench_snaps *snaps,
			const struct fb_bench_advice *adv, const struct fb_bench_kms *kms)
{
	print_line_escaped("%s: %s %ux%u, %u bpp, stride %zu, %s", dev->name,
			   dev->fmt.name, dev->vis.width, dev->vis.height,
			   m->hw.var.bits_per_pixel, dev->vis.stride,
			   dev->use_rw ? "pread/pwrite (mmap refused)" : "mapped");
	if (quick)
		printf("(--quick: single passes; the timings are indicative only)\n");
	printf("  %-9s %-11s %10s %19s %9s %9s %10s %6s %10s %8s %s\n", "OP", "STRATEGY",
	       "MB/s", "MIN-MAX MB/s", "MPIX/S", "FPS", "RAM MB/s", "RATIO", "SAME-RATIO",
	       "FLUSH", "VERIFIED");
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct fb_bench_result *r = &rep->results[i];
		double ops_per_s = r->fb.median / r->bytes_per_op * r->ops_per_run;
		char minmax[40], flush[16], fps[16], strategy[32];

		snprintf(minmax, sizeof(minmax), "%.1f-%.1f", mb(r->fb.min),
			 mb(r->fb.max));
		if (r->flush_seconds >= 0)
			snprintf(flush, sizeof(flush), "%.2fms", r->flush_seconds * 1e3);
		else
			snprintf(flush, sizeof(flush), "-");
		if (r->frames_per_op > 0)
			snprintf(fps, sizeof(fps), "%.1f", ops_per_s);
		else
			snprintf(fps, sizeof(fps), "%.0f/s", ops_per_s);
		if (r->auto_strategy)
			snprintf(strategy, sizeof(strategy), "%s=%s", r->strategy,
				 r->auto_strategy);
		else
			snprintf(strategy, sizeof(strategy), "%s", r->strategy);
		printf("%c %-9s %-11s %10.1f %19s %9.2f %9s %10.1f %6.2f %10.2f %8s %s\n",
		       r->best ? '*' : ' ', r->op, strategy, mb(r->fb.median), minmax,
		       r->fb.median / r->bytes_per_op * r->pixels_per_op / 1e6, fps,
		       mb(r->ram.median), r->ratio, r->same_strategy_ratio, flush,
		       r->verified < 0 ? "-"
		       : r->verified   ? "yes"
				       : "NO");
	}
	printf("  (RATIO: against the op's fastest RAM strategy; SAME-RATIO: against the same\n"
	       "  strategy on RAM; * the fastest strategy on %s; auto=X: auto ran X;\n"
	       "  FPS for rects: rectangles per second)\n",
	       dev->name);
	const struct fb_bench_validation *v = &rep->validation;
	printf("  validation: %s, %" PRIu64 " mismatches in %" PRIu64 " bytes checked\n",
	       v->passed ? "passed" : "FAILED", v->mismatches, v->bytes_checked);
	if (v->have_first)
		printf("  first mismatch: %s/%s at x=%u y=%u: expected 0x%08x, got 0x%08x\n",
		       v->first.op, v->first.strategy, v->first.x, v->first.y,
		       v->first.expected, v->first.got);
	for (size_t i = 0; snaps && i < snaps->n; i++)
		printf("  snapshot: %s/%s -> %s (validation %s)\n", snaps->shots[i].op,
		       snaps->shots[i].strategy, snaps->shots[i].file,
		       snaps->shots[i].passed ? "passed" : "FAILED");
	print_flip(&rep->flip);
	print_advice(dev->name, adv);
	print_kms(kms);
	print_restore(dev->name, rep);
}

static json_object *json_result(const struct fb_bench_result *r)
{
	json_object *o = json_object_new_object();
	double per_s = r->fb.median / r->bytes_per_op;

	json_object_object_add(o, "op", json_object_new_string(r->op));
	json_object_object_add(o, "strategy", json_object_new_string(r->strategy));
	json_object_object_add(o, "bytes_per_second",
			       json_object_new_double(r->fb.median));
	json_object_object_add(o, "ram_bytes_per_second",
			       json_object_new_double(r->ram.median));
	json_object_object_add(o, "ratio", json_object_new_double(r->ratio));
	json_object_object_add(o, "same_strategy_ratio",
			       json_object_new_double(r->same_strategy_ratio));
	if (r->auto_strategy)
		jsonout_add_string(o, "auto_strategy", r->auto_strategy);
	json_object_object_add(o, "mpixels_per_second",
			       json_object_new_double(per_s * r->pixels_per_op / 1e6));
	json_object_object_add(o, "frames_per_second",
			       json_object_new_double(per_s * r->frames_per_op));
	/* Beyond the documented keys: the spread, rects, flush, verdicts. */
	json_object_object_add(o, "min_bytes_per_second",
			       json_object_new_double(r->fb.min));
	json_object_object_add(o, "max_bytes_per_second",
			       json_object_new_double(r->fb.max));
	json_object_object_add(o, "runs", json_object_new_int((int)r->fb.runs));
	json_object_object_add(o, "ops_per_second",
			       json_object_new_double(per_s * r->ops_per_run));
	json_object_object_add(o, "flush_seconds",
			       r->flush_seconds >= 0
				       ? json_object_new_double(r->flush_seconds)
				       : NULL);
	json_object_object_add(o, "verified",
			       r->verified < 0 ? NULL
					       : json_object_new_boolean(r->verified));
	json_object_object_add(o, "best", json_object_new_boolean(r->best));
	return o;
}

/* The files bench --snap wrote for one framebuffer. */
static json_object *json_snapshots(const struct fb_bench_snaps *snaps)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < snaps->n; i++) {
		const struct fb_bench_snapshot *s = &snaps->shots[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "op", json_object_new_string(s->op));
		json_object_object_add(o, "strategy", json_object_new_string(s->strategy));
		json_object_object_add(o, "file", json_object_new_string(s->file));
		json_object_object_add(o, "passed", json_object_new_boolean(s->passed));
		json_object_array_add(a, o);
	}
	return a;
}

/* {"summary": ..., "ops": [{op, strategy, ratio, direct_strategy,
 * direct_ratio, reason}]} */
static json_object *json_advice(const struct fb_bench_advice *adv)
{
	json_object *o = json_object_new_object(), *ops = json_object_new_array();

	for (size_t i = 0; i < adv->n; i++) {
		const struct fb_bench_advice_op *a = &adv->ops[i];
		json_object *e = json_object_new_object();

		jsonout_add_string(e, "op", a->op);
		jsonout_add_string(e, "strategy", a->strategy);
		json_object_object_add(e, "ratio", json_object_new_double(a->ratio));
		jsonout_add_string(e, "direct_strategy", a->direct_strategy);
		json_object_object_add(e, "direct_ratio",
				       json_object_new_double(a->direct_ratio));
		jsonout_add_string(e, "reason", a->reason);
		json_object_array_add(ops, e);
	}
	jsonout_add_string(o, "summary", adv->summary);
	json_object_object_add(o, "ops", ops);
	return o;
}

/* {mismatches, x, y, saved, got}: the first pixel of the read-back that
 * decided (the key "got" as before "restore" was added). */
static json_object *json_restore_difference(const struct fb_bench_report *rep)
{
	const struct fb_bench_mismatch *f = &rep->restore_first;
	json_object *d = json_object_new_object();

	json_object_object_add(d, "mismatches",
			       json_object_new_int64((int64_t)rep->restore_mismatches));
	json_object_object_add(d, "x", json_object_new_int((int)f->x));
	json_object_object_add(d, "y", json_object_new_int((int)f->y));
	json_object_object_add(d, "saved", json_object_new_int64(f->expected));
	json_object_object_add(d, "got", json_object_new_int64(f->got));
	return d;
}

/* {state, mismatches, after_text_mode, first: {x, y, saved, now}} */
static json_object *json_restore(const struct fb_bench_report *rep)
{
	const struct fb_bench_mismatch *f = &rep->restore_first;
	json_object *o = json_object_new_object(), *d;

	jsonout_add_string(o, "state", fb_bench_restore_name(rep->restore));
	json_object_object_add(o, "mismatches",
			       json_object_new_int64((int64_t)rep->restore_mismatches));
	if (!rep->restore_mismatches)
		return o;
	json_object_object_add(o, "after_text_mode",
			       json_object_new_boolean(rep->restore_after_text));
	d = json_object_new_object();
	json_object_object_add(d, "x", json_object_new_int((int)f->x));
	json_object_object_add(d, "y", json_object_new_int((int)f->y));
	json_object_object_add(d, "saved", json_object_new_int64(f->expected));
	json_object_object_add(d, "now", json_object_new_int64(f->got));
	json_object_object_add(o, "first", d);
	return o;
}

static json_object *json_device(const struct fb_bench_dev *dev,
				const struct fb_bench_report *rep,
				const struct fb_bench_snaps *snaps,
				const struct fb_bench_advice *adv,
				const struct fb_bench_kms *kms)
{
	json_object *o = json_object_new_object(), *results = json_object_new_array();
	json_object *v = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(dev->name));
	json_object_object_add(o, "format", json_object_new_string(dev->fmt.name));
	for (size_t i = 0; i < rep->n_results; i++)
		json_object_array_add(results, json_result(&rep->results[i]));
	json_object_object_add(o, "results", results);
	json_object_object_add(v, "passed",
			       json_object_new_boolean(rep->validation.passed));
	json_object_object_add(v, "mismatches",
			       json_object_new_int64((int64_t)rep->validation.mismatches));
	json_object_object_add(v, "bytes_checked",
			       json_object_new_int64(
				       (int64_t)rep->validation.bytes_checked));
	if (rep->validation.have_first) {
		const struct fb_bench_mismatch *f = &rep->validation.first;
		json_object *fo = json_object_new_object();
		json_object_object_add(fo, "op", json_object_new_string(f->op));
		json_object_object_add(fo, "strategy",
				       json_object_new_string(f->strategy));
		json_object_object_add(fo, "x", json_object_new_int((int)f->x));
		json_object_object_add(fo, "y", json_object_new_int((int)f->y));
		json_object_object_add(fo, "expected", json_object_new_int64(f->expected));
		json_object_object_add(fo, "got", json_object_new_int64(f->got));
		json_object_object_add(v, "first_mismatch", fo);
	}
	json_object_object_add(o, "validation", v);
	json_object_object_add(o, "flip", json_flip(&rep->flip));
	if (snaps)
		json_object_object_add(o, "snapshots", json_snapshots(snaps));
	if (adv)
		json_object_object_add(o, "advice", json_advice(adv));
	if (kms && kms->card[0])
		json_object_object_add(o, "kms", json_kms(kms));
	json_object_object_add(o, "restored", json_object_new_boolean(rep->restored));
	json_object_object_add(o, "restore", json_restore(rep));
	if (rep->restore == FB_BENCH_RESTORE_NO && rep->restore_mismatches)
		json_object_object_add(o, "restore_difference",
				       json_restore_difference(rep));
	return o;
}

/* A device that could not be benchmarked, in -J: its name and why. */
static json_object *json_error(const char *name, const char *what, int r)
{
	json_object *o = json_object_new_object();
	char msg[160];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(-r));
	jsonout_add_string(o, "name", name);
	jsonout_add_string(o, "error", msg);
	return o;
}

/* -J with nothing to benchmark: an empty list, and why. */
static void print_json_empty(const char *why)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "framebuffers", json_object_new_array());
	jsonout_add_string(root, "error", why);
	jsonout_print(root);
	json_object_put(root);
}

/* "a,b,c" → NULL-terminated array pointing into the (modified) string. */
static char **split_list(char *s)
{
	size_t n = 2;
	for (char *p = s; *p; p++)
		n += *p == ',';
	char **v = calloc(n, sizeof(*v));
	size_t i = 0;
	if (!v)
		return NULL;
	for (char *save = NULL, *t = strtok_r(s, ",", &save); t;
	     t = strtok_r(NULL, ",", &save))
		v[i++] = t;
	return v;
}

struct bench_cli {
	struct fb_bench_opts opts;
	const char *devdir, *snap_dir;
	char **strategies; /* malloc'd array into argv's strings */
	bool json, help;
};

/* --strategy LIST: names checked, kept in cli->strategies.  0, -EINVAL
 * (said) or -ENOMEM. */
static int bench_parse_strategies(struct bench_cli *cli, char *list)
{
	free(cli->strategies);
	cli->strategies = split_list(list);
	if (!cli->strategies)
		return log_errno(-ENOMEM, "bench: %m");
	for (char **s = cli->strategies; *s; s++)
		if (!fb_bench_strategy_known(*s)) {
			ERR("bench: unknown strategy '%s'", *s);
			return -EINVAL;
		}
	cli->opts.strategies = cli->strategies;
	return 0;
}

/* 0, -EINVAL for a usage error (said), or -ENOMEM (said). */
static int bench_parse_args(int argc, char *argv[], struct bench_cli *cli)
{
	enum { OPT_SNAP = FB_CMD_OPT_OWN };
	static const struct option options[] = {
		{ "duration", required_argument, NULL, 'd' },
		/* -q is the global --quiet, -s monitor's --subsystem */
		{ "quick", no_argument, NULL, 'q' },
		{ "strategy", required_argument, NULL, 'S' },
		FB_CMD_OPTION_JSON,
		FB_CMD_OPTION_DEV,
		{ "snap", required_argument, NULL, OPT_SNAP },
		FB_CMD_OPTION_HELP,
		{},
	};
	const struct fb_cmd_common common = { &cli->devdir, &cli->json, &cli->help };
	int c, r;

	while ((c = fb_cmd_getopt(argc, argv, "d:S:Jh", options, &common)) != -1) {
		switch (c) {
		case 'd':
			if (parse_seconds_option("--duration", optarg, false,
						 &cli->opts.duration) < 0)
				return -EINVAL;
			break;
		case 'q':
			cli->opts.quick = true;
			break;
		case 'S':
			r = bench_parse_strategies(cli, optarg);
			if (r < 0)
				return r;
			break;
		case OPT_SNAP:
			cli->snap_dir = optarg;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

/* What the devices came to, for the exit code. */
struct bench_outcome {
	bool error, invalid, unrestored, refused;
	int selected; /* the exit status of the devices' choice */
};

/* The card of target when it is DRM's fbdev emulation: its minor. */
static bool bench_drm_card(const struct fb_device *target,
			   const struct fb_bench_mapping *m, unsigned *card_minor)
{
	struct drm_list drm = {};
	const struct drm_card *card;
	char id[FB_FIX_ID_MAX];
	bool found = false;

	if (fb_cmd_scan_drm(&drm, DRM_SCAN_ALL) < 0)
		return false;
	fb_fix_id(&m->hw.fix, id, sizeof(id));
	card = display_card_of_fb(&drm, target);
	if (card && card->devnum && display_kind_of(target, id, card) == FB_KIND_DRM) {
		*card_minor = minor(card->devnum);
		found = true;
	}
	display_list_free(&drm);
	return found;
}

/* The run on one device with the console in graphics mode, and back in
 * text mode before the last read-back (fb_bench_run's second look). */
static int bench_run_quiet(const struct bench_cli *cli, struct fb_bench_console *con,
			   struct fb_bench_dev *dev, struct fb_bench_report *rep)
{
	struct fb_bench_opts opts = cli->opts;
	int r;

	fb_bench_console_quiet(cli->devdir, con);
	opts.console_text = fb_bench_console_text;
	opts.console_arg = con;
	r = fb_bench_run(dev, &opts, rep);
	fb_bench_console_restore(con); /* where the run ended before its read-back */
	return r;
}

/* Benchmark one device and print its report (or add it to fbs). */
static void bench_one(const struct bench_cli *cli, const struct fb_device *target,
		      struct fb_bench_console *con, struct fb_bench_report *rep,
		      struct fb_bench_snaps *snaps, json_object *fbs,
		      struct bench_outcome *out)
{
	struct fb_bench_snaps *shown = cli->snap_dir ? snaps : NULL;
	struct fb_bench_kms kms;
	unsigned card_minor;
	struct fb_bench_advice adv;
	bool advised;
	const char *why = NULL;
	struct fb_bench_dev dev;
	struct fb_bench_mapping m;
	int r = fb_bench_device_open(target, cli->devdir, &dev, &m);

	if (r < 0) {
		out->error = true;
		if (cli->json)
			json_object_array_add(fbs, json_error(target->name,
							      "cannot open or map it", r));
		return;
	}
	fb_bench_snaps_reset(snaps);
	r = bench_run_quiet(cli, con, &dev, rep);
	fb_bench_device_close(&dev, &m);
	if (r == -ENODEV || rep->device_removed) {
		ERR("%s: device removed during benchmark", dev.name);
		out->error = true;
		why = "device removed during benchmark";
	} else if (rep->strategy_refused) {
		out->refused = true; /* said, with the reason */
		why = "a strategy named does not apply";
	} else if (r < 0 && r != -EINTR) {
		ERR("%s: benchmark failed: %s", dev.name, strerror(-r));
		out->error = true;
		why = "benchmark failed";
	}
	if (!rep->restored) {
		ERR("%s: the screen was not restored%s", dev.name,
		    rep->device_removed ? " (the device is gone)" : "");
		out->error = true;
		out->unrestored = true;
	}
	if (!rep->validation.passed)
		out->invalid = true;
	if (snaps->error)
		out->error = true; /* logged as it happened */
	/* Advice from a whole run that chose among strategies (not --quick). */
	advised = r == 0 && !cli->opts.quick;
	if (advised)
		fb_bench_advise(rep, dev.name, &adv);
	/* and, on DRM's fbdev emulation, the same against a KMS client */
	kms.card[0] = '\0';
	if (advised && !cli->opts.strategies && bench_drm_card(target, &m, &card_minor) &&
	    fb_bench_kms_compare(&dev, card_minor, &cli->opts, rep, &kms) < 0)
		WRN("%s: no comparison with a KMS client on %s: %s", dev.name, kms.card,
		    kms.why);
	if (cli->json) {
		json_object *o =
			json_device(&dev, rep, shown, advised ? &adv : NULL, &kms);

		if (why) {
			char msg[160];

			snprintf(msg, sizeof(msg), "%s: %s", why,
				 strerror(r < 0 ? -r : ENODEV));
			json_object_object_add(o, "error", jsonout_string_safe(msg));
		}
		json_object_array_add(fbs, o);
	} else
		print_table(&dev, &m, rep, cli->opts.quick, shown, advised ? &adv : NULL,
			    &kms);
}

/* Every target, with the console quiet and the signals caught; then the
 * JSON document, and the exit code. */
static int bench_targets(struct bench_cli *cli, const struct fb_device **targets,
			 size_t n, struct fb_bench_snaps *snaps,
			 struct bench_outcome *out)
{
	_cleanup_free_ struct fb_bench_report *rep = calloc(1, sizeof(*rep));
	struct fb_bench_console con = { .fd = -1 };
	json_object *root = NULL, *fbs = NULL;

	if (!rep)
		return log_errno(-ENOMEM, "bench: %m");
	for (size_t i = 0; i < n; i++)
		WRN("%s: bench draws on the visible screen; contents, mode and colour map are restored afterwards",
		    targets[i]->name);
	cli->opts.progress =
		!cli->json && isatty(STDERR_FILENO) && log_max_priority >= LOG_WARNING;
	if (cli->json) {
		root = json_object_new_object();
		fbs = json_object_new_array();
		json_object_object_add(root, "framebuffers", fbs);
	}
	fb_bench_install_signals();
	for (size_t i = 0; i < n && !fb_stop_signal; i++)
		bench_one(cli, targets[i], &con, rep, snaps, fbs, out);
	fb_bench_restore_signals();
	if (cli->json) {
		jsonout_print(root);
		json_object_put(root);
	}
	return 0;
}

static int bench_exit_code(const struct bench_outcome *out)
{
	if (fb_stop_signal) {
		char name[32];

		ERR("interrupted by %s; the screen was %srestored",
		    fb_signal_name(fb_stop_signal, name, sizeof(name)),
		    out->unrestored ? "not " : "");
		return 128 + fb_stop_signal;
	}
	if (out->error)
		return FB_EXIT_ERROR;
	if (out->refused)
		return FB_EXIT_USAGE;
	if (out->selected)
		return out->selected;
	return out->invalid ? FB_EXIT_VALIDATION : FB_EXIT_OK;
}

static int bench_main(int argc, char *argv[])
{
	struct bench_cli cli = { .opts = { .duration = 2 }, .devdir = "/dev" };
	struct fb_device_list list = { 0 };
	struct fb_bench_snaps snaps = { .dirfd = -1 };
	_cleanup_free_ const struct fb_device **targets = NULL;
	struct bench_outcome out = {};
	size_t n_targets = 0;
	int r, rc = FB_EXIT_ERROR;

	r = bench_parse_args(argc, argv, &cli);
	if (r < 0 || cli.help) {
		free(cli.strategies);
		if (r == -ENOMEM)
			return FB_EXIT_ERROR;
		if (r < 0)
			return fb_usage_error("bench");
		bench_help();
		return FB_EXIT_OK;
	}
	if (cli.json && fb_jsonc_open("bench -J") < 0)
		goto finish;
	/* A directory that will not take the files is found before anything is drawn. */
	if (cli.snap_dir) {
		if (fb_bench_snaps_open(&snaps, cli.snap_dir) < 0)
			goto finish;
		cli.opts.validated = fb_bench_snaps_validated;
		cli.opts.validated_arg = &snaps;
	}
	if (fb_cmd_scan(&list, FB_SCAN_NODE, false) < 0)
		goto finish;
	r = fb_cmd_select(&list, argc - optind, argv + optind, &targets, &n_targets);
	if (r == -ENOMEM)
		goto finish;
	out.selected = fb_exit_code(r, FB_FROM_SELECT);
	if (!n_targets) {
		rc = out.selected ? out.selected : FB_EXIT_ERROR;
		if (optind == argc)
			ERR("no framebuffer to benchmark: /sys/class/graphics has no fbN device");
		if (cli.json)
			print_json_empty(optind == argc ? "no framebuffer to benchmark"
							: "no such framebuffer");
		goto finish;
	}
	if (bench_targets(&cli, targets, n_targets, &snaps, &out) == 0)
		rc = bench_exit_code(&out);
finish:
	free(cli.strategies);
	fb_bench_snaps_close(&snaps);
	fb_device_list_free(&list);
	return rc;
}

const struct fb_cmd fb_cmd_bench = {
	.name = "bench",
	.cmd = bench_main,
	.help = "measure and validate each framebuffer against RAM",
};
