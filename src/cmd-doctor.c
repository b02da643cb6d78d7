/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl doctor: a verdict per check, its evidence and the fix. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "doctor.h"
#include "jsonc-backend.h"
#include "jsonout.h"
#include "log.h"
#include "macro.h"
#include "nodes.h"
#include "strutil.h"

static void doctor_usage(void)
{
	printf("Usage: fbclassctl doctor [options] [fbN|cardN]\n"
	       "\n"
	       "Check framebuffers, DRM cards, their drivers, nodes and monitors, and say\n"
	       "what is wrong, the evidence, and the fix: why there is no /dev/fb0, a\n"
	       "firmware framebuffer whose native driver is not loaded, a missing node,\n"
	       "a node you cannot open, fbcon, holders, and connectors without a monitor.\n"
	       "Exit status 0 when nothing is wrong, 1 when something is, 4 when the\n"
	       "device named does not exist.\n"
	       "\n"
	       "Options:\n"
	       "  -J, --json        JSON output\n"
	       "      --dev DIR     device directory (default /dev)\n"
	       "      --proc DIR    process directory, cmdline, config.gz (default /proc)\n"
	       "      --boot DIR    where config-RELEASE is (default /boot)\n"
	       "  -h, --help        show this help\n");
}

struct doctor_cli {
	struct doctor_opts o;
	bool json, help;
};

/* 0, or -EINVAL for a usage error (said). */
static int doctor_parse_args(int argc, char *argv[], struct doctor_cli *cli)
{
	enum { OPT_PROC = FB_CMD_OPT_OWN, OPT_BOOT };
	static const struct option options[] = {
		FB_CMD_OPTION_JSON,
		FB_CMD_OPTION_DEV,
		{ "proc", required_argument, NULL, OPT_PROC },
		{ "boot", required_argument, NULL, OPT_BOOT },
		FB_CMD_OPTION_HELP,
		{},
	};
	const struct fb_cmd_common common = { &cli->o.devdir, &cli->json, &cli->help };
	int c;

	cli->o = (struct doctor_opts){ .devdir = "/dev",
				       .proc_dir = "/proc",
				       .boot_dir = "/boot" };
	while ((c = fb_cmd_getopt(argc, argv, "Jh", options, &common)) != -1) {
		switch (c) {
		case OPT_PROC:
			cli->o.proc_dir = optarg;
			break;
		case OPT_BOOT:
			cli->o.boot_dir = optarg;
			break;
		default:
			return -EINVAL;
		}
	}
	if (cli->help)
		return 0;
	if (optind + 1 < argc) {
		ERR("doctor: one device at a time (fbN or cardN)");
		return -EINVAL;
	}
	return 0;
}

/* The subject named on the command line: a framebuffer by any of its
 * names, or a card.  0, or -ENODEV (said). */
static int doctor_subject(const char *arg, const struct fb_device_list *fbs,
			  const struct drm_list *drm, const char **only)
{
	const struct fb_device *d = fb_device_list_find(fbs, arg);

	if (d) {
		*only = d->name;
		return 0;
	}
	for (size_t i = 0; i < drm->n; i++)
		if (strcmp(drm->cards[i].name, arg) == 0) {
			*only = drm->cards[i].name;
			return 0;
		}
	ERR("%s: no such framebuffer or DRM card", arg);
	return -ENODEV;
}

/* On a terminal the summary and the evidence wrap in place, under their
 * own column (a terminal too narrow for that column: the summary under
 * the line, where the evidence goes); a fix stays on one line, to be
 * pasted whole. */
static void print_text(const struct doctor_report *rep)
{
	size_t width = terminal_width(STDOUT_FILENO);

	for (size_t i = 0; i < rep->n; i++) {
		const struct doctor_finding *f = &rep->findings[i];

		/* summaries, evidence and fixes quote sysfs, EDIDs and /proc */
		_cleanup_free_ char *subject = str_escape_text(f->subject);

		int at = printf("%-8s %-8s %-14s ", doctor_verdict_name(f->verdict),
				subject ? subject : "?", f->check);

		if (width && width < 33 + 20) {
			fputs("\n         ", stdout);
			fputs_escaped_wrapped(f->summary, 9, 9, width, stdout);
		} else
			fputs_escaped_wrapped(f->summary, at > 0 ? (size_t)at : 0, 33,
					      width, stdout);
		for (size_t j = 0; j < f->n_evidence; j++) {
			fputs("\n         evidence: ", stdout);
			fputs_escaped_wrapped(f->evidence[j], 19,
					      width < 19 + 20 ? 9 : 19, width, stdout);
		}
		for (size_t j = 0; j < f->n_fixes; j++) {
			fputs("\n         fix: ", stdout);
			fputs_escaped(f->fixes[j], stdout);
		}
		putchar('\n');
	}
}

static struct json_object *json_strings(char *const *v, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, jsonout_string_safe(v[i]));
	return a;
}

static int print_json(const struct doctor_report *rep)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *arr = json_object_new_array();
	size_t problems = 0;
	int r;

	for (size_t i = 0; i < rep->n; i++) {
		const struct doctor_finding *f = &rep->findings[i];
		struct json_object *o = json_object_new_object();

		problems += f->verdict == DOCTOR_PROBLEM;
		jsonout_add_string(o, "verdict",
				   f->verdict == DOCTOR_PROBLEM
					   ? "problem"
					   : doctor_verdict_name(f->verdict));
		jsonout_add_string(o, "subject", f->subject);
		jsonout_add_string(o, "check", f->check);
		jsonout_add_string(o, "summary", f->summary);
		json_object_object_add(o, "evidence",
				       json_strings(f->evidence, f->n_evidence));
		json_object_object_add(o, "fix", json_strings(f->fixes, f->n_fixes));
		json_object_array_add(arr, o);
	}
	json_object_object_add(doc, "findings", arr);
	jsonout_add_uint(doc, "problems", problems);
	r = jsonout_print(doc);
	json_object_put(doc);
	return r;
}

static int do_doctor(int argc, char *argv[])
{
	struct doctor_cli cli = {};
	struct fb_device_list fbs = {};
	struct drm_list drm = {};
	struct doctor_report rep = {};
	int r, ret = FB_EXIT_ERROR;

	if (doctor_parse_args(argc, argv, &cli) < 0)
		return fb_usage_error("doctor");
	if (cli.help) {
		doctor_usage();
		return FB_EXIT_OK;
	}
	if (cli.json && fb_jsonc_open("doctor -J") < 0)
		return FB_EXIT_ERROR;
	if (fb_cmd_scan(&fbs, FB_SCAN_NODE, false) < 0)
		return FB_EXIT_ERROR;
	r = fb_cmd_scan_drm(&drm, DRM_SCAN_ALL);
	if (r < 0)
		goto finish;
	if (optind < argc && doctor_subject(argv[optind], &fbs, &drm, &cli.o.only) < 0) {
		ret = FB_EXIT_NO_DEVICE;
		goto finish;
	}
	r = doctor_run(&cli.o, &fbs, &drm, &rep);
	if (r < 0) {
		log_errno(r, "doctor: %m");
		goto finish;
	}
	if (cli.json)
		r = print_json(&rep);
	else
		print_text(&rep);
	ret = r < 0 || doctor_report_has_problem(&rep) ? FB_EXIT_ERROR : FB_EXIT_OK;
finish:
	doctor_report_free(&rep);
	display_list_free(&drm);
	fb_device_list_free(&fbs);
	return ret;
}

const struct fb_cmd fb_cmd_doctor = {
	.name = "doctor",
	.cmd = do_doctor,
	.help = "say what is wrong with framebuffers and displays, and the fix",
};
