/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * fbclassctl bench: operations, strategies, timing, validation, save/restore.
 *
 * The core works on a described buffer (struct fb_bench_dev): a mapped
 * framebuffer, or, in the tests, an anonymous mapping or a memfd standing in
 * for one.  Opening and mapping a real device is fb_bench_device_open().
 */

#include <linux/fb.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bench-kernels.h"
#include "fbcaps.h"
#include "fbclass.h"
#include "fbinfo_ioctl.h"

/*
 * What the kernel tells of a device, for auto's choice (fb_bench_choose).
 * id and driver may be empty strings or NULL (a RAM device in the tests).
 */
struct fb_bench_facts {
	const char *id; /* fix.id: "bochsdrmfb" */
	const char *driver; /* the nearest parent's driver, or NULL */
	const char *kind; /* "drm", "fbdev", "firmware", "virtual" or NULL */
	unsigned long smem_start; /* fix.smem_start: 0 when the kernel hides it */
	bool mapped; /* the mapping works (not the pread/pwrite fallback) */
	bool can_write, can_read; /* write(2), read(2) on the node work */
};

/* How auto does one operation on a device. */
enum fb_bench_path {
	FB_BENCH_PATH_MAP, /* stores and loads in the mapping (the kernels' own auto) */
	FB_BENCH_PATH_RW, /* whole frames through write(2) or read(2) */
	FB_BENCH_PATH_SHADOW, /* drawn in RAM, the changed rows uploaded */
};
struct fb_bench_choice {
	enum fb_bench_path path;
	char why[224];
};
/* Pure (src/bench-choose.c): auto's way of doing op ("fill", "upload",
 * "readback", "copy", "rect16", "rect128") on a device, and why, in words
 * that name what the kernel told. */
void fb_bench_choose(const struct fb_bench_facts *facts, const char *op,
		     struct fb_bench_choice *choice);
const char *fb_bench_path_name(enum fb_bench_path path, const char *op);

struct fb_bench_dev {
	const char *name; /* "fb0", for messages */
	const char *syspath; /* checked after each operation; NULL: not checked */
	struct bench_kernel_surface vis; /* the visible area: stride line_length, xres×yres */
	off_t vis_offset; /* of vis.pixels from the start of the node */
	struct fb_var_screeninfo var; /* colour fields for the expected pixels */
	uint32_t visual;
	struct fb_pixel_format fmt;
	int fd; /* node: write/read strategies, fsync, ioctls; -1 for RAM */
	bool use_rw; /* mmap refused: vis.pixels is a RAM shadow, pread/pwrite */
	bool is_ram; /* the baseline: no fsync, no node */
	bool no_write, no_read; /* the node refused write(2), read(2) */
	struct fb_bench_facts facts; /* for auto; mapped, can_* set by the run */
};

/* Everything a run may change, to be put back. */
struct fb_bench_saved {
	uint8_t *contents; /* stride × yres bytes from vis.pixels */
	size_t len;
	bool have_hw;
	struct fb_var_screeninfo var;
	struct fb_cmap_copy cmap;
};

struct fb_bench_opts {
	double duration; /* seconds per device for the timing loops */
	bool quick; /* validate only: single passes */
	char **strategies; /* NULL-terminated filter; NULL: all */
	bool progress; /* progress lines on stderr */
	/* After each validation, the device still showing what was checked
	 * (bench --snap saves it); NULL: nothing. */
	void (*validated)(void *arg, const struct fb_bench_dev *dev, const char *op,
			  const char *strategy, bool passed);
	void *validated_arg;
	/* The caller switched the console to graphics mode for the run: once
	 * the screen is restored and read back, this puts it back into text
	 * mode (fb_bench_console_text), and the run reads the screen back
	 * again.  True when fbcon repainted dev's screen on the way.  NULL:
	 * one read-back. */
	bool (*console_text)(void *arg, const struct fb_bench_dev *dev);
	void *console_arg;
};

struct fb_bench_stat {
	double median, min, max; /* bytes per second */
	unsigned runs;
};

struct fb_bench_result {
	const char *op;
	const char *strategy;
	struct fb_bench_stat fb, ram;
	bool have_ram;
	double bytes_per_op; /* bytes one run moves */
	double pixels_per_op;
	double frames_per_op; /* 1 for whole-frame ops, 0 for rects */
	double ops_per_run; /* rectangles per run, 1 otherwise */
	double flush_seconds; /* median fsync time after a write run; < 0: not flushed */
	int verified; /* 1 passed, 0 failed, -1 not validated */
	bool best; /* highest FB median of its op: the highest ratio */
	double ratio; /* fb median / the op's fastest RAM median (any strategy) */
	double same_strategy_ratio; /* fb median / this strategy's RAM median */
	const char *auto_strategy; /* auto: what it ran ("write", "avx2", ...) */
};

struct fb_bench_mismatch {
	unsigned x, y;
	uint32_t expected, got;
	const char *op, *strategy;
};

struct fb_bench_validation {
	bool passed;
	uint64_t mismatches;
	uint64_t bytes_checked;
	bool have_first;
	struct fb_bench_mismatch first;
};

/* What the screen read back after the restore came to. */
enum fb_bench_restore_state {
	FB_BENCH_RESTORE_NO, /* not put back, or read back different */
	FB_BENCH_RESTORE_YES, /* read back as saved (both times) */
	/* as saved while the console was in graphics mode; after it went back
	 * to text mode, fbcon repainted its console on this fb */
	FB_BENCH_RESTORE_CONSOLE_REDRAWN,
};
/* "yes", "console-redrawn", "no" (JSON's names). */
const char *fb_bench_restore_name(enum fb_bench_restore_state state);

/* flip: page flips by FBIOPAN_DISPLAY between home_y and page_y. */
struct fb_bench_flip {
	bool ran;
	char skipped[224]; /* why not, when !ran */
	struct fb_bench_stat rate; /* flips per second */
	uint32_t home_y, page_y;
	bool resized; /* the virtual height was made taller for the run */
	uint32_t yres_virtual; /* the virtual height of the run */
	int verified; /* 1 page_y read back after a pan there, 0 not, -1 not checked */
};

/*
 * The flip on fd through ops: a second page below the visible one (or
 * the top page, when the visible one is lower), the virtual height set
 * for it when there is no room (FB_ACTIVATE_NOW; the caller's restore
 * puts the mode back), then timed runs of pans for budget seconds (one
 * run when quick), and one pan read back.  Ends at the home offset.  0
 * (f->ran, or f->skipped says why: the driver does not pan, has no
 * memory, refuses), -EINTR on a stop signal or -ENODEV.
 */
int fb_bench_flip(const struct fb_caps_ops *ops, int fd, double budget, bool quick,
		  struct fb_bench_flip *f);

/* The median of n values (sorts v); 0 for none. */
double fb_bench_median(double *v, unsigned n);

#define FB_BENCH_MAX_RESULTS 64
struct fb_bench_report {
	struct fb_bench_result results[FB_BENCH_MAX_RESULTS];
	size_t n_results;
	struct fb_bench_validation validation;
	struct fb_bench_flip flip;
	enum fb_bench_restore_state restore;
	bool restored; /* restore is not NO: the exit status's view */
	/* the read-back that decided restore: pixels that differ from what was
	 * saved (0: the same), the first of them (expected = saved), and
	 * whether it is the read-back after the console went back to text */
	uint64_t restore_mismatches;
	struct fb_bench_mismatch restore_first;
	bool restore_after_text;
	bool device_removed;
	/* A strategy opts named applies to no op on the device: said ("fb0:
	 * strategy write does not apply: ..."), nothing drawn, -EINVAL. */
	bool strategy_refused;
};

/*
 * The fbdev emulation against a KMS client of the same card: the same
 * operations on a dumb buffer of the card (kms_dumb_new: same size and
 * depth, the driver's stride, never shown), every strategy that needs no
 * node.  Per op, the fastest strategy of each and fb / KMS.  0 with
 * out->have, or -errno with out->why (no libdrm, no permission, a driver
 * that makes no such dumb buffer, a run that failed).
 */
struct fb_bench_kms_op {
	const char *op;
	const char *fb_strategy, *kms_strategy; /* what auto ran, for auto */
	double fb, kms; /* the fastest medians, bytes per second */
	double ratio; /* fb / kms */
};
struct fb_bench_kms {
	char card[16]; /* "card0" */
	char name[40]; /* "card0's dumb buffer", for messages */
	bool have;
	bool valid; /* every validation on the dumb buffer passed */
	char why[224];
	struct fb_bench_kms_op ops[8];
	size_t n;
};
int fb_bench_kms_compare(const struct fb_bench_dev *dev, unsigned minor,
			 const struct fb_bench_opts *opts,
			 const struct fb_bench_report *fbrep, struct fb_bench_kms *out);

/* The stop signals (src/stop-signals.h: the loops stop at the next check
 * of fb_stop_signal, and the run returns -EINTR) and SIGBUS. */
void fb_bench_install_signals(void);
void fb_bench_restore_signals(void);

/* Run fn(arg) with SIGBUS on a mapping turned into -ENODEV. */
int fb_bench_guarded(int (*fn)(void *arg), void *arg);

/* The pixel the fill writes for the format, and the bits that must read back. */
uint32_t fb_bench_fill_pixel(const struct fb_bench_dev *dev);
uint32_t fb_bench_compare_mask(const struct fb_bench_dev *dev);

/* Compare the visible area of dev with want (same geometry; its padding is
 * ignored), or with the constant pixel when want is NULL.  Counts into v. */
int fb_bench_compare(const struct fb_bench_dev *dev,
		     const struct bench_kernel_surface *want, uint32_t pixel,
		     const char *op, const char *strategy, struct fb_bench_validation *v);

/* stride × yres: the bytes of the visible rows, padding included. */
size_t fb_bench_frame_bytes(const struct fb_bench_dev *dev);
/* pread/pwrite all of len at off, retrying short transfers; 0 or -errno. */
int fb_bench_rw_all(int fd, void *buf, size_t len, off_t off, bool write_it);

int fb_bench_save(const struct fb_bench_dev *dev, struct fb_bench_saved *saved);
/* Write a whole visible frame (fb_bench_frame_bytes() of it, padding
 * included) to the device: through the mapping under the SIGBUS guard
 * (-ENODEV when the device went away), or pwrite.  0 or -errno. */
int fb_bench_put_frame(const struct fb_bench_dev *dev, const uint8_t *frame);
/* FBIOPUTCMAP of c.  0 or -errno. */
int fb_bench_put_cmap(int fd, const struct fb_cmap_copy *c);
/* Put contents, var and cmap back; frees nothing. */
int fb_bench_restore(const struct fb_bench_dev *dev, const struct fb_bench_saved *saved);
/*
 * Pure: the outcome of the read-backs after a restore, into rep.  gfx: the
 * one made while the console was still in graphics mode; text: the one
 * after it went back to text mode (NULL: none made); repainted: fbcon drew
 * the console in front on this fb as it went back.  A difference in gfx
 * is NO; one that appeared only in text is CONSOLE_REDRAWN when fbcon
 * repainted, else NO; none is YES.
 */
void fb_bench_restore_judge(const struct fb_bench_validation *gfx,
			    const struct fb_bench_validation *text, bool repainted,
			    struct fb_bench_report *rep);
void fb_bench_saved_free(struct fb_bench_saved *saved);

/*
 * Every op × strategy on dev and on a RAM buffer of the same geometry,
 * validating after fill, upload and copy.  Saves first and restores on every
 * path.  Returns 0 (see report->validation), -EINTR (stopped by a signal),
 * -ENODEV (device removed) or another -errno.  auto runs what
 * fb_bench_choose() picks for the op (said at -v), and --quick runs auto
 * alone, or the strategies opts names.
 */
int fb_bench_run(struct fb_bench_dev *dev, const struct fb_bench_opts *opts,
		 struct fb_bench_report *report);

/* Whether some op of fb_bench_run has a strategy of that name (what
 * fb_bench_opts.strategies may name). */
bool fb_bench_strategy_known(const char *name);

/*
 * What a program drawing on the device should do, from a report (pure:
 * src/bench-advice.c).  Per op, the fastest strategy measured on the device,
 * its speed against the fastest way to do the same op in RAM, and the best
 * direct strategy (not "shadow") beside it; then one summary line.  An op
 * whose best direct ratio is below FB_BENCH_SLOW is slow.
 */
#define FB_BENCH_SLOW	    0.5
#define FB_BENCH_ADVICE_MAX 8
struct fb_bench_advice_op {
	const char *op, *strategy; /* static strings of bench.c */
	double ratio; /* the strategy's device speed / the op's best RAM speed */
	const char *direct_strategy; /* the best without a shadow */
	double direct_ratio;
	char reason[192];
};
struct fb_bench_advice {
	struct fb_bench_advice_op ops[FB_BENCH_ADVICE_MAX];
	size_t n;
	char summary[512];
};
/* name: "fb0", for the text.  Nothing (n = 0, summary "") without timings
 * to compare. */
void fb_bench_advise(const struct fb_bench_report *rep, const char *name,
		     struct fb_bench_advice *adv);

/* A mapped device: the mapping and what to unmap. */
struct fb_bench_mapping {
	void *map;
	size_t map_len;
	uint8_t *shadow; /* pread/pwrite mode */
	struct fb_hwinfo hw;
	bool via_private;
	char id[sizeof(((struct fb_fix_screeninfo *)0)->id) + 1]; /* fix.id, terminated */
};

/* NULL when the visible area of var lies inside the memory fix describes
 * (bpp: the storage bits per pixel); else the first check that fails, in
 * words, written to why. */
const char *fb_bench_geometry_error(const struct fb_var_screeninfo *var,
				    const struct fb_fix_screeninfo *fix, unsigned bpp,
				    char *why, size_t len);

/* Open the node read-write, query, check the geometry, map (or fall back to
 * pread/pwrite, saying so).  Fills dev.  -errno with a message logged. */
int fb_bench_device_open(const struct fb_device *fbdev, const char *devdir,
			 struct fb_bench_dev *dev, struct fb_bench_mapping *m);
void fb_bench_device_close(struct fb_bench_dev *dev, struct fb_bench_mapping *m);

/* fbcon draws its text and cursor into a framebuffer it owns.  As X and
 * fbtest do, put the current VT (DIR/tty0) in KD_GRAPHICS for the run.
 * 1 switched, 0 nothing to do (no VT, not in text mode), -errno (warned). */
struct fb_bench_console {
	int fd;
	int mode;
};
int fb_bench_console_quiet(const char *devdir, struct fb_bench_console *con);
/* Back to the saved mode; fbcon then repaints its text.  0, or -errno
 * (warned); 0 too when nothing was switched. */
int fb_bench_console_restore(struct fb_bench_console *con);
/* fb_bench_opts.console_text, arg a struct fb_bench_console:
 * fb_bench_console_restore(), and whether fbcon repainted dev on the way:
 * the console was switched, fbcon is bound (/sys/class/vtconsole), and its
 * map (FBIOGET_CON2FBMAP) puts the console in front on dev's fb. */
bool fb_bench_console_text(void *arg, const struct fb_bench_dev *dev);

/*
 * For coldplug/daemon --validate: a quick validation of one device.
 * 0 passed, 1 validation failed (logged), -errno on error (logged;
 * -ENODEV when the device went away).
 */
int fb_bench_quick(const struct fb_device *fbdev, const char *devdir);

/*
 * bench --snap DIR: a PNG of each validated pattern (fill, upload, copy) as
 * it was read back from the device, DIR/fbN-OP.png.  One file per op: the
 * first strategy validated, replaced by the first one whose validation
 * failed, if any.  Written with fb_snap_save_at() (temporary + rename,
 * never through a symlink), converted by snap.c.
 */
#define FB_BENCH_SNAP_MAX 3
struct fb_bench_snapshot {
	const char *op, *strategy; /* static strings of bench.c */
	bool passed; /* the validation it shows */
	char file[4096]; /* DIR/fbN-OP.png */
};
struct fb_bench_snaps {
	int dirfd;
	const char *dir;
	struct fb_bench_snapshot shots[FB_BENCH_SNAP_MAX];
	size_t n;
	int error; /* the first -errno of a snapshot not written (logged) */
};
/* Open DIR (which must exist and be a writable directory) and load libpng:
 * 0, or -errno with the message logged. */
int fb_bench_snaps_open(struct fb_bench_snaps *s, const char *dir);
/* Forget the previous device's snapshots. */
void fb_bench_snaps_reset(struct fb_bench_snaps *s);
/* The fb_bench_opts.validated callback; arg is a struct fb_bench_snaps. */
void fb_bench_snaps_validated(void *arg, const struct fb_bench_dev *dev, const char *op,
			      const char *strategy, bool passed);
void fb_bench_snaps_close(struct fb_bench_snaps *s);
/* The visible area of dev as width*height RGB, through snap.c's conversion:
 * a newly allocated buffer, or NULL with *err set (-errno). */
uint8_t *fb_bench_read_rgb(const struct fb_bench_dev *dev, int *err);
