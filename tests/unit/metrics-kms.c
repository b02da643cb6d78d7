/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * metrics-kms NAME [--link-bad] [--no-debugfs] [--dev DIR]: fbclassctl
 * metrics with each DRM card's KMS state read from the answers captured
 * in tests/unit/kms/NAME (as tests/unit/test-kms does) instead of
 * /dev/dri, for tests/metrics.sh to run under umockdev on the captured
 * bochs tree.  NAME "none": KMS cannot be read ("libdrm not found").
 * --link-bad: every connector's link-status Bad; --no-debugfs: no owner
 * can be told.
 */
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "metrics-kms.h"
#include "metrics.h"
#include "scanout.h"

static bool none, no_debugfs;

static void read_card(struct scanout_card *s, const struct drm_card *card,
		      const char *fbdev)
{
	memset(s, 0, sizeof(*s));
	s->card = card;
	s->fbdev = fbdev;
	if (none) {
		snprintf(s->reason, sizeof(s->reason), "libdrm not found");
		return;
	}
	s->have_kms =
		metrics_kms_read(&s->kms, no_debugfs, s->reason, sizeof(s->reason)) == 0;
	s->kms.minor = minor(card->devnum);
}

int main(int argc, char *argv[])
{
	struct metrics_opts o = { .devdir = "/dev",
				  .proc_dir = "/proc",
				  .boot_dir = "/boot",
				  .read_card = read_card };
	bool bad = false;

	if (argc < 2) {
		fprintf(stderr,
			"usage: metrics-kms NAME [--link-bad] [--no-debugfs] [--dev DIR]\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--link-bad") == 0)
			bad = true;
		else if (strcmp(argv[i], "--no-debugfs") == 0)
			no_debugfs = true;
		else if (strcmp(argv[i], "--dev") == 0 && i + 1 < argc)
			o.devdir = argv[++i];
		else
			return 2;
	}
	none = strcmp(argv[1], "none") == 0;
	if (!none && metrics_kms_load(argv[1]) < 0)
		return 1;
	if (bad)
		metrics_kms_link_bad();
	return metrics_print(stdout, &o) < 0 || fflush(stdout) != 0;
}
