/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Open and map a real framebuffer for bench, the console around the run, and
 * the quick validation. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench.h"
#include "console.h"
#include "display.h"
#include "holders.h"
#include "kernel-hazards.h"
#include "log.h"

static size_t page_align(size_t n, size_t page)
{
	return (n + page - 1) & ~(page - 1);
}

/* Storage bits per pixel: 15 bpp is stored in 16 bits. */
const char *fb_bench_geometry_error(const struct fb_var_screeninfo *var,
				    const struct fb_fix_screeninfo *fix, unsigned bpp,
				    char *why, size_t len)
{
	uint64_t frame = (uint64_t)fix->line_length * var->yres_virtual;
	size_t row = bench_kernel_row_bytes(bpp, var->xres);

	if (var->xres == 0 || var->yres == 0)
		snprintf(why, len, "visible size %ux%u is empty", var->xres, var->yres);
	else if (frame > fix->smem_len)
		snprintf(why, len,
			 "line_length %u × yres_virtual %u = %" PRIu64 " > smem_len %u",
			 fix->line_length, var->yres_virtual, frame, fix->smem_len);
	else if (fix->line_length < row)
		snprintf(why, len, "line_length %u < %zu bytes for %u pixels of %u bpp",
			 fix->line_length, row, var->xres, var->bits_per_pixel);
	else if ((uint64_t)var->xoffset + var->xres > var->xres_virtual ||
		 (uint64_t)var->yoffset + var->yres > var->yres_virtual)
		snprintf(why, len, "visible area %ux%u+%u+%u outside the virtual %ux%u",
			 var->xres, var->yres, var->xoffset, var->yoffset,
			 var->xres_virtual, var->yres_virtual);
	else
		return NULL;
	return why;
}

/* Open the node read-write (or a private one), saying why not.  fd or
 * -errno. */
static int bench_node_open(const struct fb_device *fbdev, const char *devdir,
			   bool *via_private)
{
	int fd = fb_hw_open(fbdev, devdir, O_RDWR, true, via_private);

	if (fd < 0 && *via_private)
		ERR("%s: cannot open %s/%s read-write: it is missing or not the right node, and a private node for %u:%u failed: %s%s",
		    fbdev->name, devdir, fbdev->devname, major(fbdev->devnum),
		    minor(fbdev->devnum), strerror(-fd),
		    fd == -ENODEV || fd == -ENXIO ? " (device removed?)" : "");
	else if (fd < 0)
		ERR("%s: cannot open %s/%s read-write: %s%s", fbdev->name, devdir,
		    fbdev->devname, strerror(-fd),
		    fd == -ENOENT || fd == -ESTALE
			    ? " ('fbclassctl coldplug' creates the node)"
		    : fd == -ENODEV || fd == -ENXIO ? " (device removed?)"
						    : "");
	return fd;
}

/* The mode bench can draw in: packed pixels of a depth it knows, a frame
 * inside smem_len.  Storage bits per pixel, or -errno (said). */
static int bench_check_mode(const char *name, const struct fb_var_screeninfo *var,
			    const struct fb_fix_screeninfo *fix)
{
	unsigned bpp = fb_pixel_storage_bits(var->bits_per_pixel);
	char why[160];

	if (fix->type != FB_TYPE_PACKED_PIXELS || !bpp) {
		ERR("%s: cannot benchmark %u bpp with type %s: only packed pixels of 1, 2, 4, 8, 15, 16, 24 or 32 bpp",
		    name, var->bits_per_pixel, fb_type_name(fix->type));
		return -EOPNOTSUPP;
	}
	/* The whole virtual frame must lie inside the memory the driver exposes. */
	if (fb_bench_geometry_error(var, fix, bpp, why, sizeof(why))) {
		ERR("%s: inconsistent geometry: %s", name, why);
		return -EINVAL;
	}
	return (int)bpp;
}

/* Map the frame, or where the driver refuses, fall back to pread/pwrite
 * through a shadow of the visible area.  0 or -errno (said). */
static int bench_map(const char *name, struct fb_bench_dev *dev,
		     struct fb_bench_mapping *m, size_t in_page, size_t vis)
{
	const struct fb_var_screeninfo *var = &m->hw.var;
	const struct fb_fix_screeninfo *fix = &m->hw.fix;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int r;

	/* mmap at offset 0 starts at the page holding smem_start. */
	m->map_len = page_align(in_page + fix->smem_len, page);
	m->map = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd, 0);
	if (m->map != MAP_FAILED) {
		dev->vis.pixels = (uint8_t *)m->map + in_page + vis;
		return 0;
	}
	r = -errno;
	if (r != -ENODEV && r != -EINVAL) {
		ERR("%s: cannot map %zu bytes: %s%s", name, m->map_len, strerror(-r),
		    r == -ENXIO ? " (device removed?)" : "");
		return r;
	}
	WRN("%s: mmap of %zu bytes refused (%s): falling back to pread/pwrite", name,
	    m->map_len, strerror(-r));
	m->shadow = malloc(fix->line_length * (size_t)var->yres);
	if (!m->shadow)
		return -ENOMEM;
	dev->use_rw = true;
	dev->vis.pixels = m->shadow;
	return 0;
}

/* Whether the node takes read(2) and write(2): one row read at the visible
 * area and written back as it was (a driver without them says EINVAL,
 * EPERM, ENOSYS...). */
static void bench_probe_rw(struct fb_bench_dev *dev)
{
	size_t row = bench_kernel_row_bytes(dev->vis.bpp, dev->vis.width);
	uint8_t *buf = malloc(row);

	if (!buf)
		return; /* unknown: tried in the run, an error there */
	dev->no_read = pread(dev->fd, buf, row, dev->vis_offset) != (ssize_t)row;
	if (!dev->no_read)
		dev->no_write =
			pwrite(dev->fd, buf, row, dev->vis_offset) != (ssize_t)row;
	if (dev->no_read || dev->no_write)
		INF("%s: the node refuses %s: %s", dev->name,
		    dev->no_read ? "read(2)" : "write(2)", strerror(errno));
	free(buf);
}

/* What auto decides from: the id, the kind, the driver, smem_start. */
static void bench_facts(const struct fb_device *fbdev, struct fb_bench_dev *dev,
			struct fb_bench_mapping *m)
{
	const struct fb_fix_screeninfo *fix = &m->hw.fix;

	memcpy(m->id, fix->id, sizeof(fix->id));
	m->id[sizeof(fix->id)] = '\0';
	dev->facts.id = m->id;
	dev->facts.kind = display_kind_name(display_kind_of(fbdev, m->id, NULL));
	for (size_t i = 0; i < fbdev->n_parents && !dev->facts.driver; i++)
		dev->facts.driver = fbdev->parents[i].driver;
	dev->facts.smem_start = fix->smem_start;
}

int fb_bench_device_open(const struct fb_device *fbdev, const char *devdir,
			 struct fb_bench_dev *dev, struct fb_bench_mapping *m)
{
	const struct fb_var_screeninfo *var = &m->hw.var;
	const struct fb_fix_screeninfo *fix = &m->hw.fix;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), in_page, vis;
	unsigned bpp;
	int r;

	*m = (struct fb_bench_mapping){ .map = MAP_FAILED };
	*dev = (struct fb_bench_dev){ .name = fbdev->name,
				      .syspath = fbdev->syspath,
				      .fd = -1 };
	r = bench_node_open(fbdev, devdir, &m->via_private);
	if (r < 0)
		return r;
	dev->fd = r;
	r = fb_hw_query_fd(dev->fd, &m->hw);
	if (r < 0) {
		ERR("%s: cannot query the mode: %s%s", fbdev->name, strerror(-r),
		    r == -ENODEV ? " (device removed?)" : "");
		goto fail;
	}
	fb_pixel_format_decode(var, fix->visual, &dev->fmt);
	dev->var = *var;
	dev->visual = fix->visual;
	r = bench_check_mode(fbdev->name, var, fix);
	if (r < 0)
		goto fail;
	bpp = (unsigned)r;
	in_page = (size_t)(fix->smem_start & (page - 1));
	vis = (size_t)var->yoffset * fix->line_length +
	      bench_kernel_row_bytes(bpp, var->xoffset);
	dev->vis = (struct bench_kernel_surface){ NULL, fix->line_length, var->xres,
						  var->yres, bpp };
	dev->vis_offset = (off_t)vis;
	kernel_hazards_warn(fbdev);
	bench_facts(fbdev, dev, m);
	r = bench_map(fbdev->name, dev, m, in_page, vis);
	if (r == 0) {
		bench_probe_rw(dev);
		return 0;
	}
fail:
	fb_bench_device_close(dev, m);
	return r;
}

void fb_bench_device_close(struct fb_bench_dev *dev, struct fb_bench_mapping *m)
{
	if (m->map != MAP_FAILED && m->map)
		munmap(m->map, m->map_len);
	m->map = MAP_FAILED;
	free(m->shadow);
	m->shadow = NULL;
	if (dev->fd >= 0)
		close(dev->fd);
	dev->fd = -1;
}

int fb_bench_console_quiet(const char *devdir, struct fb_bench_console *con)
{
	int fd, mode;

	con->fd = -1;
	/* a private node where devdir has none: fbcon draws all the same */
	fd = fb_console_tty0_open(devdir);
	if (fd < 0)
		return 0; /* no virtual terminal: nobody else draws */
	if (ioctl(fd, KDGETMODE, &mode) < 0 || mode != KD_TEXT) {
		close(fd);
		return 0;
	}
	if (ioctl(fd, KDSETMODE, KD_GRAPHICS) < 0) {
		int r = -errno;
		WRN("%s/tty0: cannot switch the console to graphics mode: %s; fbcon may draw during the benchmark and fail its validation",
		    devdir, strerror(-r));
		close(fd);
		return r;
	}
	con->fd = fd;
	con->mode = mode;
	return 1;
}

int fb_bench_console_restore(struct fb_bench_console *con)
{
	int r = 0;

	if (con->fd < 0)
		return 0;
	if (ioctl(con->fd, KDSETMODE, con->mode) < 0) {
		r = -errno;
		WRN("cannot switch the console back to text mode: %s", strerror(-r));
	}
	close(con->fd);
	con->fd = -1;
	return r;
}

/* Whether fbcon draws the console in front of tty (an open tty0) on dev:
 * fbcon bound to a vtconsole, and its map puts that console on dev's fb
 * (the node's minor is the fb's index). */
static bool fbcon_draws_on(int tty, const struct fb_bench_dev *dev)
{
	struct fb_fbcon_state st;
	struct vt_stat vt;
	struct stat sb;
	int map[FB_CONSOLE_MAX];

	if (dev->fd < 0 || fstat(dev->fd, &sb) < 0 || !S_ISCHR(sb.st_mode))
		return false;
	if (fb_fbcon_read("/sys", &st) < 0 || !st.bound)
		return false;
	if (ioctl(tty, VT_GETSTATE, &vt) < 0 || vt.v_active < 1 ||
	    vt.v_active > FB_CONSOLE_MAX)
		return false;
	if (fb_console_map_read(dev->fd, map) < 0)
		return false;
	return map[vt.v_active - 1] == (int)minor(sb.st_rdev);
}

bool fb_bench_console_text(void *arg, const struct fb_bench_dev *dev)
{
	struct fb_bench_console *con = arg;
	bool fbcon;

	if (con->fd < 0)
		return false; /* not switched: nothing repaints */
	fbcon = con->mode == KD_TEXT && fbcon_draws_on(con->fd, dev);
	return fb_bench_console_restore(con) == 0 && fbcon;
}

int fb_bench_quick(const struct fb_device *fbdev, const char *devdir)
{
	struct fb_bench_console con = { .fd = -1 };
	struct fb_bench_opts opts = { .quick = true,
				      .console_text = fb_bench_console_text,
				      .console_arg = &con };
	struct fb_bench_dev dev;
	struct fb_bench_mapping m;
	struct fb_bench_report *rep;
	int r;

	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return -ENOMEM;
	r = fb_bench_device_open(fbdev, devdir, &dev, &m);
	if (r < 0)
		goto finish;
	fb_bench_console_quiet(devdir, &con);
	r = fb_bench_run(&dev, &opts, rep);
	fb_bench_console_restore(&con);
	fb_bench_device_close(&dev, &m);
	if (r == -ENODEV || rep->device_removed) {
		ERR("%s: device removed during benchmark", fbdev->name);
		r = -ENODEV;
	} else if (r < 0) {
		ERR("%s: quick validation failed to run: %s", fbdev->name, strerror(-r));
	} else if (!rep->validation.passed) {
		const struct fb_bench_mismatch *f = &rep->validation.first;
		ERR("%s: validation failed: %llu mismatches, first at %u,%u after %s/%s: expected 0x%x, got 0x%x",
		    fbdev->name, (unsigned long long)rep->validation.mismatches, f->x,
		    f->y, f->op, f->strategy, f->expected, f->got);
		r = 1;
	}
finish:
	free(rep);
	return r;
}
