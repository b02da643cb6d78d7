/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * fbclassctl doctor: what is wrong between the framebuffers, the DRM
 * cards, their drivers, the nodes and the monitors, each with the
 * evidence read and the fix.  The checks read sysfs, /proc, /boot and
 * the modprobe configuration; they open no device but to ask fbcon's map
 * and, read only, the DRM card (what KMS shows: src/kms.h).
 */

#include <stdbool.h>
#include <stddef.h>

#include "display.h"
#include "fbclass.h"

enum doctor_verdict {
	DOCTOR_OK, /* checked, nothing wrong */
	DOCTOR_INFO, /* worth knowing, not wrong */
	DOCTOR_PROBLEM, /* something is wrong: the exit status is 1 */
	DOCTOR_UNKNOWN, /* could not be checked (not root): the answer is not known */
};

struct doctor_finding {
	enum doctor_verdict verdict;
	char check[24]; /* "class-empty", "native-driver", ... */
	char subject[64]; /* "fb0", "card0", or "system" */
	char *summary; /* one line */
	char **evidence; /* what was read that says so */
	size_t n_evidence;
	char **fixes; /* what to do, each a way */
	size_t n_fixes;
};

struct doctor_report {
	struct doctor_finding *findings;
	size_t n;
};

struct doctor_opts {
	const char *devdir; /* /dev */
	const char *proc_dir; /* /proc: cmdline, config.gz, processes */
	const char *boot_dir; /* /boot: config-RELEASE */
	const char *only; /* "fb0" or "card0": checks of that one only; NULL all */
};

/* Run every check on the scanned devices.  0 or -ENOMEM. */
int doctor_run(const struct doctor_opts *o, const struct fb_device_list *fbs,
	       const struct drm_list *drm, struct doctor_report *rep);
void doctor_report_free(struct doctor_report *rep);
bool doctor_report_has_problem(const struct doctor_report *rep);
const char *doctor_verdict_name(enum doctor_verdict v);
