/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The display health of the machine in the Prometheus text exposition
 * format (0.0.4), as node_exporter's textfile collector reads it: HELP and
 * TYPE lines, every family's samples together, no timestamps.  Problems
 * (a class that cannot be read, a missing node, doctor's findings) are
 * metrics, not errors: only writing the file can fail.
 */

#include <stdio.h>

/* Input bytes of one label value at most; the rest is cut. */
#define METRICS_LABEL_MAX 256

struct drm_card;
struct scanout_card;

struct metrics_opts {
	const char *devdir; /* where the nodes are: /dev */
	const char *proc_dir; /* for doctor: /proc */
	const char *boot_dir; /* for doctor: /boot */
	/* How each DRM card's KMS state is read (what it shows, link-status,
	 * modes): NULL is scanout_card_read(), the join list --connectors
	 * and info use; tests/unit/metrics-kms gives captured answers. */
	void (*read_card)(struct scanout_card *s, const struct drm_card *card,
			  const char *fbdev);
};

/*
 * Write s as a label value, between the quotes: a backslash, double quote
 * and newline escaped as the format says (a reader gets them back); any
 * other control byte, and any byte that is not valid UTF-8, as
 * str_escape() shows it ("\x1b"), escaped once more.  At most
 * METRICS_LABEL_MAX input bytes ("..." appended).
 */
void metrics_put_label_value(FILE *f, const char *s);

/* Scan the graphics and DRM classes, read each card's KMS state, run
 * doctor's checks, and print every metric to f.  Reading KMS dlopen()s
 * libdrm: the daemon calls this in a child (daemon.c).  0, or -errno when f could not be written (not reported). */
int metrics_print(FILE *f, const struct metrics_opts *o);

/*
 * Replace path with len bytes of data atomically: a temporary file in the
 * same directory (".NAME.XXXXXX", which the textfile collector does not
 * read), mode 0644, written, synced, then renamed over path.  A reader
 * sees the old file or the new one, never a part.  On any failure the
 * temporary file is removed and path left as it was.  0 or -errno
 * (reported, naming path and the cause).
 */
int metrics_file_replace(const char *path, const char *data, size_t len);

/* metrics_print() into memory, then metrics_file_replace().  0 or -errno
 * (reported). */
int metrics_write_file(const char *path, const struct metrics_opts *o);
