/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fbclassctl metrics: the display health for Prometheus (src/metrics.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "log.h"
#include "metrics.h"
#include "nodes.h"

static void metrics_usage(void)
{
	printf("Usage: fbclassctl metrics [options]\n"
	       "\n"
	       "Print the display health in the Prometheus text format that\n"
	       "node_exporter's textfile collector reads: each framebuffer and whether\n"
	       "it is on screen, each DRM connector (status, link-status, CRTC, active\n"
	       "mode) and its monitor, doctor's problems per check, the version.\n"
	       "What is on screen comes from KMS (root, libdrm); where KMS cannot be\n"
	       "read, the metrics say why (fbclassctl_kms_scan_success).\n"
	       "Problems go into the metrics: the exit status is 0 once they are written.\n"
	       "\n"
	       "Options:\n"
	       "  -o, --output FILE  write FILE atomically (a temporary file beside it,\n"
	       "                     then renamed), e.g. a .prom file in the collector's\n"
	       "                     directory; default: standard output\n"
	       "      --dev DIR      device directory (default /dev)\n"
	       "  -h, --help         show this help\n");
}

static int do_metrics(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		FB_CMD_OPTION_DEV,
		FB_CMD_OPTION_HELP,
		{},
	};
	struct metrics_opts o = { .devdir = "/dev",
				  .proc_dir = "/proc",
				  .boot_dir = "/boot" };
	const char *output = NULL;
	bool help = false;
	const struct fb_cmd_common common = { .devdir = &o.devdir, .help = &help };
	int c, r;

	while ((c = fb_cmd_getopt(argc, argv, "o:h", options, &common)) != -1) {
		if (c != 'o')
			return fb_usage_error("metrics");
		if (!*optarg) {
			ERR("--output: empty file name");
			return fb_usage_error("metrics");
		}
		output = optarg;
	}
	if (help) {
		metrics_usage();
		return FB_EXIT_OK;
	}
	if (optind < argc) {
		ERR("metrics: unexpected argument '%s'", argv[optind]);
		return fb_usage_error("metrics");
	}
	if (output)
		return fb_exit_code(metrics_write_file(output, &o), FB_FROM_LIBRARY);
	r = metrics_print(stdout, &o);
	if (fflush(stdout) != 0 && r == 0)
		r = -errno;
	if (r < 0)
		log_errno(r, "standard output: cannot write the metrics: %m");
	return fb_exit_code(r, FB_FROM_LIBRARY);
}

const struct fb_cmd fb_cmd_metrics = {
	.name = "metrics",
	.cmd = do_metrics,
	.help = "display health in the Prometheus text format (node_exporter)",
};
