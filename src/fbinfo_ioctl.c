/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hardware query through the node: open, FBIOGET_VSCREENINFO,
 * FBIOGET_FSCREENINFO, maybe FBIOGETCMAP, close.  Nothing stays open.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fbinfo_ioctl.h"
#include "log.h"

/* ---- node ---- */

void fb_hw_node_inspect(const struct fb_device *dev, const char *devdir,
			struct fb_hw_node *node)
{
	struct stat st;

	memset(node, 0, sizeof(*node));
	snprintf(node->path, sizeof(node->path), "%s/%s", devdir, dev->devname);
	if (fstatat(AT_FDCWD, node->path, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		node->state = FB_HW_NODE_MISSING;
		return;
	}
	node->uid = st.st_uid;
	node->gid = st.st_gid;
	node->mode = st.st_mode;
	if (S_ISCHR(st.st_mode) && st.st_rdev == dev->devnum)
		node->state = FB_HW_NODE_OK;
	else
		node->state = FB_HW_NODE_WRONG;
}

/* Open a node and make sure it still is the device we meant. */
static int open_checked(const char *path, int flags, dev_t devnum)
{
	struct stat st;
	int fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || st.st_rdev != devnum) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/* As root: a node of our own in a fresh 0700 directory, unlinked as soon
 * as it is open, so nothing is left behind even if we die. */
static int open_private_node(dev_t devnum, int flags)
{
	const char *base = access("/run", W_OK) == 0 ? "/run" : "/tmp";
	char dir[64];
	int dfd, fd, r;

	snprintf(dir, sizeof(dir), "%s/fbclassctl.XXXXXX", base);
	if (!mkdtemp(dir))
		return -errno;
	dfd = open(dir, O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (dfd < 0) {
		r = -errno;
		rmdir(dir);
		return r;
	}
	if (mknodat(dfd, "fb", S_IFCHR | 0600, devnum) < 0) {
		fd = -errno;
	} else {
		char path[80];

		snprintf(path, sizeof(path), "%s/fb", dir);
		fd = open_checked(path, flags, devnum);
		unlinkat(dfd, "fb", 0);
	}
	close(dfd);
	rmdir(dir);
	return fd;
}

int fb_chrdev_open(const char *devdir, const char *name, dev_t devnum, int flags,
		   bool allow_private, bool *via_private)
{
	char path[4096];
	struct stat st;
	bool missing;

	if (via_private)
		*via_private = false;
	snprintf(path, sizeof(path), "%s/%s", devdir, name);
	missing = fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) < 0;
	if (!missing && S_ISCHR(st.st_mode) && st.st_rdev == devnum)
		return open_checked(path, flags, devnum);
	if (!allow_private || geteuid() != 0)
		return missing ? -ENOENT : -ESTALE;
	if (via_private)
		*via_private = true;
	return open_private_node(devnum, flags);
}

int fb_hw_open(const struct fb_device *dev, const char *devdir, int flags,
	       bool allow_private, bool *via_private)
{
	return fb_chrdev_open(devdir, dev->devname, dev->devnum, flags, allow_private,
			      via_private);
}

/* ---- ioctls ---- */

static void query_cmap(int fd, struct fb_hwinfo *info)
{
	const struct fb_var_screeninfo *v = &info->var;
	struct fb_cmap_copy *c = &info->cmap;
	unsigned bits = 0;
	struct fb_cmap cmap;

	if (info->fix.visual == FB_VISUAL_PSEUDOCOLOR)
		bits = v->bits_per_pixel;
	else if (info->fix.visual == FB_VISUAL_DIRECTCOLOR)
		bits = MAX3(v->red.length, v->green.length, v->blue.length);
	else
		return;
	if (bits == 0)
		return;
	cmap.start = 0;
	cmap.len = bits >= 8 ? 256 : 1u << bits;
	cmap.red = c->red;
	cmap.green = c->green;
	cmap.blue = c->blue;
	cmap.transp = c->transp;
	if (ioctl(fd, FBIOGETCMAP, &cmap) < 0) {
		/* Some drivers refuse a transp table; ask again without. */
		cmap.transp = NULL;
		if (ioctl(fd, FBIOGETCMAP, &cmap) < 0)
			return;
	} else {
		c->has_transp = true;
	}
	c->start = cmap.start;
	c->len = cmap.len;
}

int fb_hw_query_fd(int fd, struct fb_hwinfo *info)
{
	memset(info, 0, sizeof(*info));
	if (ioctl(fd, FBIOGET_VSCREENINFO, &info->var) < 0 ||
	    ioctl(fd, FBIOGET_FSCREENINFO, &info->fix) < 0) {
		info->error = -errno;
		return info->error;
	}
	query_cmap(fd, info);
	info->valid = true;
	return 0;
}

int fb_hw_put_var(int fd, struct fb_var_screeninfo *var)
{
	return ioctl(fd, FBIOPUT_VSCREENINFO, var) < 0 ? -errno : 0;
}

int fb_hw_pan(int fd, struct fb_var_screeninfo *var)
{
	return ioctl(fd, FBIOPAN_DISPLAY, var) < 0 ? -errno : 0;
}

int fb_hw_query(const struct fb_device *dev, const char *devdir, bool allow_private,
		struct fb_hwinfo *info)
{
	bool via_private;
	int fd, r;

	fd = fb_hw_open(dev, devdir, O_RDONLY, allow_private, &via_private);
	if (fd < 0) {
		memset(info, 0, sizeof(*info));
		info->error = fd;
		return fd;
	}
	r = fb_hw_query_fd(fd, info);
	info->via_private_node = via_private;
	close(fd);
	return r;
}

/* ---- decoders ---- */

struct name_entry {
	uint32_t value;
	const char *name;
};

static const char *lookup(const struct name_entry *t, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

#define E(prefix, x)          \
	{                     \
		prefix##x, #x \
	}

static const struct name_entry type_names[] = {
	E(FB_TYPE_, PACKED_PIXELS),	 E(FB_TYPE_, PLANES),
	E(FB_TYPE_, INTERLEAVED_PLANES), E(FB_TYPE_, TEXT),
	E(FB_TYPE_, VGA_PLANES),	 E(FB_TYPE_, FOURCC),
};

static const struct name_entry text_aux_names[] = {
	E(FB_AUX_, TEXT_MDA),	      E(FB_AUX_, TEXT_CGA),
	E(FB_AUX_, TEXT_S3_MMIO),     E(FB_AUX_, TEXT_MGA_STEP16),
	E(FB_AUX_, TEXT_MGA_STEP8),   E(FB_AUX_, TEXT_SVGA_STEP2),
	E(FB_AUX_, TEXT_SVGA_STEP4),  E(FB_AUX_, TEXT_SVGA_STEP8),
	E(FB_AUX_, TEXT_SVGA_STEP16),
};

static const struct name_entry vga_aux_names[] = {
	E(FB_AUX_, VGA_PLANES_VGA4),
	E(FB_AUX_, VGA_PLANES_CFB4),
	E(FB_AUX_, VGA_PLANES_CFB8),
};

static const struct name_entry visual_names[] = {
	E(FB_VISUAL_, MONO01),	    E(FB_VISUAL_, MONO10),
	E(FB_VISUAL_, TRUECOLOR),   E(FB_VISUAL_, PSEUDOCOLOR),
	E(FB_VISUAL_, DIRECTCOLOR), E(FB_VISUAL_, STATIC_PSEUDOCOLOR),
	E(FB_VISUAL_, FOURCC),
};

static const struct name_entry accel_names[] = {
	E(FB_ACCEL_, NONE),
	E(FB_ACCEL_, ATARIBLITT),
	E(FB_ACCEL_, AMIGABLITT),
	E(FB_ACCEL_, S3_TRIO64),
	E(FB_ACCEL_, NCR_77C32BLT),
	E(FB_ACCEL_, S3_VIRGE),
	E(FB_ACCEL_, ATI_MACH64GX),
	E(FB_ACCEL_, DEC_TGA),
	E(FB_ACCEL_, ATI_MACH64CT),
	E(FB_ACCEL_, ATI_MACH64VT),
	E(FB_ACCEL_, ATI_MACH64GT),
	E(FB_ACCEL_, SUN_CREATOR),
	E(FB_ACCEL_, SUN_CGSIX),
	E(FB_ACCEL_, SUN_LEO),
	E(FB_ACCEL_, IMS_TWINTURBO),
	E(FB_ACCEL_, 3DLABS_PERMEDIA2),
	E(FB_ACCEL_, MATROX_MGA2064W),
	E(FB_ACCEL_, MATROX_MGA1064SG),
	E(FB_ACCEL_, MATROX_MGA2164W),
	E(FB_ACCEL_, MATROX_MGA2164W_AGP),
	E(FB_ACCEL_, MATROX_MGAG100),
	E(FB_ACCEL_, MATROX_MGAG200),
	E(FB_ACCEL_, SUN_CG14),
	E(FB_ACCEL_, SUN_BWTWO),
	E(FB_ACCEL_, SUN_CGTHREE),
	E(FB_ACCEL_, SUN_TCX),
	E(FB_ACCEL_, MATROX_MGAG400),
	E(FB_ACCEL_, NV3),
	E(FB_ACCEL_, NV4),
	E(FB_ACCEL_, NV5),
	E(FB_ACCEL_, CT_6555x),
	E(FB_ACCEL_, 3DFX_BANSHEE),
	E(FB_ACCEL_, ATI_RAGE128),
	E(FB_ACCEL_, IGS_CYBER2000),
	E(FB_ACCEL_, IGS_CYBER2010),
	E(FB_ACCEL_, IGS_CYBER5000),
	E(FB_ACCEL_, SIS_GLAMOUR),
	E(FB_ACCEL_, 3DLABS_PERMEDIA3),
	E(FB_ACCEL_, ATI_RADEON),
	E(FB_ACCEL_, I810),
	E(FB_ACCEL_, SIS_GLAMOUR_2),
	E(FB_ACCEL_, SIS_XABRE),
	E(FB_ACCEL_, I830),
	E(FB_ACCEL_, NV_10),
	E(FB_ACCEL_, NV_20),
	E(FB_ACCEL_, NV_30),
	E(FB_ACCEL_, NV_40),
	E(FB_ACCEL_, XGI_VOLARI_V),
	E(FB_ACCEL_, XGI_VOLARI_Z),
	E(FB_ACCEL_, OMAP1610),
	E(FB_ACCEL_, TRIDENT_TGUI),
	E(FB_ACCEL_, TRIDENT_3DIMAGE),
	E(FB_ACCEL_, TRIDENT_BLADE3D),
	/* 53 is both TRIDENT_BLADEXP and CIRRUS_ALPINE in <linux/fb.h>. */
	{ FB_ACCEL_TRIDENT_BLADEXP, "TRIDENT_BLADEXP/CIRRUS_ALPINE" },
	E(FB_ACCEL_, NEOMAGIC_NM2070),
	E(FB_ACCEL_, NEOMAGIC_NM2090),
	E(FB_ACCEL_, NEOMAGIC_NM2093),
	E(FB_ACCEL_, NEOMAGIC_NM2097),
	E(FB_ACCEL_, NEOMAGIC_NM2160),
	E(FB_ACCEL_, NEOMAGIC_NM2200),
	E(FB_ACCEL_, NEOMAGIC_NM2230),
	E(FB_ACCEL_, NEOMAGIC_NM2360),
	E(FB_ACCEL_, NEOMAGIC_NM2380),
	E(FB_ACCEL_, PXA3XX),
	E(FB_ACCEL_, SAVAGE4),
	E(FB_ACCEL_, SAVAGE3D),
	E(FB_ACCEL_, SAVAGE3D_MV),
	E(FB_ACCEL_, SAVAGE2000),
	E(FB_ACCEL_, SAVAGE_MX_MV),
	E(FB_ACCEL_, SAVAGE_MX),
	E(FB_ACCEL_, SAVAGE_IX_MV),
	E(FB_ACCEL_, SAVAGE_IX),
	E(FB_ACCEL_, PROSAVAGE_PM),
	E(FB_ACCEL_, PROSAVAGE_KM),
	E(FB_ACCEL_, S3TWISTER_P),
	E(FB_ACCEL_, S3TWISTER_K),
	E(FB_ACCEL_, SUPERSAVAGE),
	E(FB_ACCEL_, PROSAVAGE_DDR),
	E(FB_ACCEL_, PROSAVAGE_DDRK),
	E(FB_ACCEL_, PUV3_UNIGFX),
};

static const struct name_entry sync_bits[] = {
	E(FB_SYNC_, HOR_HIGH_ACT),  E(FB_SYNC_, VERT_HIGH_ACT), E(FB_SYNC_, EXT),
	E(FB_SYNC_, COMP_HIGH_ACT), E(FB_SYNC_, BROADCAST),	E(FB_SYNC_, ON_GREEN),
};

static const struct name_entry vmode_flag_bits[] = {
	E(FB_VMODE_, ODD_FLD_FIRST),
	E(FB_VMODE_, YWRAP),
	E(FB_VMODE_, SMOOTH_XPAN),
};

static const struct name_entry activate_modes[] = {
	E(FB_ACTIVATE_, NOW),
	E(FB_ACTIVATE_, NXTOPEN),
	E(FB_ACTIVATE_, TEST),
};

static const struct name_entry activate_bits[] = {
	E(FB_ACTIVATE_, VBL),	   E(FB_ACTIVATE_, ALL),     E(FB_ACTIVATE_, FORCE),
	E(FB_ACTIVATE_, INV_MODE), E(FB_ACTIVATE_, KD_TEXT),
};

#undef E

const char *fb_type_name(uint32_t type)
{
	return lookup(type_names, ARRAY_SIZE(type_names), type);
}

const char *fb_type_aux_name(uint32_t type, uint32_t aux)
{
	if (type == FB_TYPE_TEXT)
		return lookup(text_aux_names, ARRAY_SIZE(text_aux_names), aux);
	if (type == FB_TYPE_VGA_PLANES)
		return lookup(vga_aux_names, ARRAY_SIZE(vga_aux_names), aux);
	return NULL;
}

const char *fb_visual_name(uint32_t visual)
{
	return lookup(visual_names, ARRAY_SIZE(visual_names), visual);
}

const char *fb_accel_name(uint32_t accel)
{
	return lookup(accel_names, ARRAY_SIZE(accel_names), accel);
}

/* Append " NAME" for each known bit, then "0x.." for the rest. */
static void append_bits(char *buf, size_t len, size_t *pos, const struct name_entry *t,
			size_t n, uint32_t *bits)
{
	for (size_t i = 0; i < n; i++) {
		if (!(*bits & t[i].value))
			continue;
		*pos += (size_t)snprintf(buf + *pos, *pos < len ? len - *pos : 0, "%s%s",
					 *pos ? " " : "", t[i].name);
		*bits &= ~t[i].value;
	}
}

static const char *finish_bits(char *buf, size_t len, size_t pos, uint32_t rest,
			       const char *none)
{
	if (rest)
		pos += (size_t)snprintf(buf + pos, pos < len ? len - pos : 0, "%s0x%x",
					pos ? " " : "", rest);
	if (!pos)
		snprintf(buf, len, "%s", none);
	return buf;
}

const char *fb_sync_names(uint32_t sync, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = '\0';
	append_bits(buf, len, &pos, sync_bits, ARRAY_SIZE(sync_bits), &sync);
	return finish_bits(buf, len, pos, sync, "none");
}

const char *fb_vmode_names(uint32_t vmode, char *buf, size_t len)
{
	uint32_t scan = vmode & FB_VMODE_MASK;
	uint32_t flags = vmode & ~(uint32_t)FB_VMODE_MASK;
	size_t pos;

	if (scan == FB_VMODE_NONINTERLACED)
		pos = (size_t)snprintf(buf, len, "NONINTERLACED");
	else if (scan == FB_VMODE_INTERLACED)
		pos = (size_t)snprintf(buf, len, "INTERLACED");
	else if (scan == FB_VMODE_DOUBLE)
		pos = (size_t)snprintf(buf, len, "DOUBLE");
	else if (scan == (FB_VMODE_INTERLACED | FB_VMODE_ODD_FLD_FIRST))
		pos = (size_t)snprintf(buf, len, "INTERLACED ODD_FLD_FIRST");
	else
		pos = (size_t)snprintf(buf, len, "0x%x", scan);
	append_bits(buf, len, &pos, vmode_flag_bits, ARRAY_SIZE(vmode_flag_bits), &flags);
	return finish_bits(buf, len, pos, flags, "NONINTERLACED");
}

const char *fb_activate_names(uint32_t activate, char *buf, size_t len)
{
	const char *mode = lookup(activate_modes, ARRAY_SIZE(activate_modes),
				  activate & FB_ACTIVATE_MASK);
	uint32_t flags = activate & ~(uint32_t)FB_ACTIVATE_MASK;
	size_t pos;

	if (mode)
		pos = (size_t)snprintf(buf, len, "%s", mode);
	else
		pos = (size_t)snprintf(buf, len, "0x%x", activate & FB_ACTIVATE_MASK);
	append_bits(buf, len, &pos, activate_bits, ARRAY_SIZE(activate_bits), &flags);
	return finish_bits(buf, len, pos, flags, "NOW");
}

/* ---- pixel formats ---- */

struct component {
	char letter;
	uint32_t offset, length;
};

static int component_cmp(const void *a, const void *b)
{
	const struct component *x = a, *y = b;

	return x->offset < y->offset ? 1 : x->offset > y->offset ? -1 : 0;
}

/* DRM fourcc style name: letters from the most significant bit down, then
 * their widths, a gap becoming X ("XRGB8888", "RGB565", "BGRA8888"). */
static bool packed_rgb_name(const struct fb_var_screeninfo *v, char *out, size_t len)
{
	struct component c[5];
	size_t n = 0, pos = 0;
	uint32_t bpp = v->bits_per_pixel, covered = 0, next;
	char letters[8], widths[48] = "";

	if (bpp == 0 || bpp > 32)
		return false;
	if (v->red.msb_right || v->green.msb_right || v->blue.msb_right ||
	    v->transp.msb_right)
		return false;
	if (!v->red.length || !v->green.length || !v->blue.length)
		return false;
	c[n++] = (struct component){ 'R', v->red.offset, v->red.length };
	c[n++] = (struct component){ 'G', v->green.offset, v->green.length };
	c[n++] = (struct component){ 'B', v->blue.offset, v->blue.length };
	if (v->transp.length)
		c[n++] = (struct component){ 'A', v->transp.offset, v->transp.length };
	for (size_t i = 0; i < n; i++) {
		if (c[i].length > bpp || c[i].offset > bpp - c[i].length)
			return false;
		covered += c[i].length;
	}
	if (covered > bpp)
		return false;
	qsort(c, n, sizeof(c[0]), component_cmp);
	/* Walk from the top bit down; at most one gap, which becomes X. */
	next = bpp;
	size_t nl = 0, gaps = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t top = c[i].offset + c[i].length;

		if (top > next)
			return false; /* overlap */
		if (top < next) {
			if (gaps++)
				return false;
			letters[nl++] = 'X';
			pos += (size_t)snprintf(widths + pos, sizeof(widths) - pos, "%u",
						next - top);
		}
		letters[nl++] = c[i].letter;
		pos += (size_t)snprintf(widths + pos, sizeof(widths) - pos, "%u",
					c[i].length);
		next = c[i].offset;
	}
	if (next > 0) {
		if (gaps++)
			return false;
		letters[nl++] = 'X';
		pos += (size_t)snprintf(widths + pos, sizeof(widths) - pos, "%u", next);
	}
	letters[nl] = '\0';
	snprintf(out, len, "%s%s", letters, widths);
	return true;
}

unsigned fb_pixel_storage_bits(unsigned bits_per_pixel)
{
	switch (bits_per_pixel) {
	case 1:
	case 2:
	case 4:
	case 8:
	case 16:
	case 24:
	case 32:
		return bits_per_pixel;
	case 15:
		return 16;
	default:
		return 0;
	}
}

bool fb_pixel_bits_are_storage(unsigned bpp)
{
	return bpp && fb_pixel_storage_bits(bpp) == bpp;
}

void fb_pixel_format_decode(const struct fb_var_screeninfo *v, uint32_t visual,
			    struct fb_pixel_format *fmt)
{
	uint32_t bpp = v->bits_per_pixel;

	memset(fmt, 0, sizeof(*fmt));
	fmt->bpp = bpp;

	if (v->grayscale > 1) {
		char cc[5];

		for (int i = 0; i < 4; i++) {
			unsigned char ch = (unsigned char)(v->grayscale >> (8 * i));

			cc[i] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
		}
		cc[4] = '\0';
		fmt->kind = FB_PIXEL_FOURCC;
		snprintf(fmt->name, sizeof(fmt->name), "%s", cc);
		return;
	}
	if ((visual == FB_VISUAL_MONO01 || visual == FB_VISUAL_MONO10) && bpp == 1) {
		fmt->kind = FB_PIXEL_GRAY;
		snprintf(fmt->name, sizeof(fmt->name), "%s",
			 visual == FB_VISUAL_MONO10 ? "R1" : "R1_INVERTED");
		return;
	}
	if ((visual == FB_VISUAL_PSEUDOCOLOR || visual == FB_VISUAL_STATIC_PSEUDOCOLOR) &&
	    (bpp == 1 || bpp == 2 || bpp == 4 || bpp == 8)) {
		fmt->kind = v->grayscale == 1 ? FB_PIXEL_GRAY : FB_PIXEL_INDEXED;
		snprintf(fmt->name, sizeof(fmt->name), "%c%u",
			 v->grayscale == 1 ? 'R' : 'C', bpp);
		return;
	}
	if (v->grayscale == 1 && bpp >= 1 && bpp <= 8 && visual != FB_VISUAL_DIRECTCOLOR) {
		fmt->kind = FB_PIXEL_GRAY;
		snprintf(fmt->name, sizeof(fmt->name), "R%u", bpp);
		return;
	}
	if ((visual == FB_VISUAL_TRUECOLOR || visual == FB_VISUAL_DIRECTCOLOR) &&
	    packed_rgb_name(v, fmt->name, sizeof(fmt->name))) {
		fmt->kind = FB_PIXEL_RGB;
		return;
	}
	fmt->kind = FB_PIXEL_UNKNOWN;
	snprintf(fmt->name, sizeof(fmt->name), "unknown(r%u/%u,g%u/%u,b%u/%u,t%u/%u)",
		 v->red.length, v->red.offset, v->green.length, v->green.offset,
		 v->blue.length, v->blue.offset, v->transp.length, v->transp.offset);
}

uint64_t fb_refresh_mhz(const struct fb_var_screeninfo *v)
{
	unsigned __int128 htotal, vtotal, denom;

	if (!v->pixclock)
		return 0;
	htotal = (unsigned __int128)v->left_margin + v->xres + v->right_margin +
		 v->hsync_len;
	vtotal = (unsigned __int128)v->upper_margin + v->yres + v->lower_margin +
		 v->vsync_len;
	if (!htotal || !vtotal)
		return 0;
	denom = htotal * vtotal * v->pixclock;
	/* pixclock is in picoseconds: 1e12 / pixclock pixels per second. */
	unsigned __int128 mhz =
		((unsigned __int128)1000000000000000ull + denom / 2) / denom;
	if ((v->vmode & FB_VMODE_MASK) == FB_VMODE_INTERLACED)
		mhz *= 2;
	else if ((v->vmode & FB_VMODE_MASK) == FB_VMODE_DOUBLE)
		mhz /= 2;
	return mhz > UINT64_MAX ? UINT64_MAX : (uint64_t)mhz;
}

/* fbset's "(int)(vrate + 0.5)": out of range, x86-64 gives INT_MIN (the
 * "integer indefinite" value); say the same, without undefined behaviour. */
static int fbset_round(double v)
{
	v += 0.5;
	if (!(v > (double)INT_MIN - 1.0 && v < (double)INT_MAX + 1.0))
		return INT_MIN;
	return (int)v;
}

/* The mode block of "fbset -s", byte for byte (fbset 2.1 as Debian ships
 * it, including its "sync 0x.." line for sync bits it has no name for). */
void fb_print_fbset_mode(FILE *out, const struct fb_var_screeninfo *var)
{
	unsigned htotal =
		var->left_margin + var->xres + var->right_margin + var->hsync_len;
	unsigned vtotal =
		var->upper_margin + var->yres + var->lower_margin + var->vsync_len;
	unsigned scan = var->vmode & FB_VMODE_MASK;
	bool laced = scan == FB_VMODE_INTERLACED, dblscan = scan == FB_VMODE_DOUBLE;
	double drate = 0, hrate = 0, vrate = 0;

	if (dblscan)
		vtotal <<= 2;
	else if (!laced)
		vtotal <<= 1;
	if (htotal && vtotal && var->pixclock) {
		drate = 1E12 / var->pixclock;
		hrate = drate / htotal;
		vrate = hrate / vtotal * 2;
	}
	fprintf(out, "\nmode \"%dx%d", (int)var->xres, (int)var->yres);
	if (var->pixclock) {
		fprintf(out, "-%d\"\n", fbset_round(vrate));
		fprintf(out, "    # D: %5.3f MHz, H: %5.3f kHz, V: %5.3f Hz\n",
			drate / 1E6, hrate / 1E3, vrate);
	} else {
		fprintf(out, "\"\n");
	}
	fprintf(out, "    geometry %d %d %d %d %d\n", (int)var->xres, (int)var->yres,
		(int)var->xres_virtual, (int)var->yres_virtual, (int)var->bits_per_pixel);
	fprintf(out, "    timings %d %d %d %d %d %d %d\n", (int)var->pixclock,
		(int)var->left_margin, (int)var->right_margin, (int)var->upper_margin,
		(int)var->lower_margin, (int)var->hsync_len, (int)var->vsync_len);
	if (var->sync & FB_SYNC_HOR_HIGH_ACT)
		fputs("    hsync high\n", out);
	if (var->sync & FB_SYNC_VERT_HIGH_ACT)
		fputs("    vsync high\n", out);
	if (var->sync & FB_SYNC_COMP_HIGH_ACT)
		fputs("    csync high\n", out);
	if (var->sync & FB_SYNC_ON_GREEN)
		fputs("    gsync true\n", out);
	if (var->sync & FB_SYNC_EXT)
		fputs("    extsync true\n", out);
	if (var->sync & FB_SYNC_BROADCAST)
		fputs("    bcast true\n", out);
	if (var->sync & ~0x3fu)
		fprintf(out, "    sync 0x%x\n", var->sync & ~0x3fu);
	if (laced)
		fputs("    laced true\n", out);
	if (dblscan)
		fputs("    double true\n", out);
	if (var->nonstd)
		fprintf(out, "    nonstd %u\n", var->nonstd);
	if (var->accel_flags)
		fputs("    accel true\n", out);
	if (var->grayscale & 1)
		fputs("    grayscale true\n", out);
	fprintf(out, "    rgba %u/%u,%u/%u,%u/%u,%u/%u\n", var->red.length,
		var->red.offset, var->green.length, var->green.offset, var->blue.length,
		var->blue.offset, var->transp.length, var->transp.offset);
	fputs("endmode\n\n", out);
}

const char *fb_fix_id(const struct fb_fix_screeninfo *fix, char *buf, size_t len)
{
	size_t n = strnlen(fix->id, sizeof(fix->id));

	if (n >= len)
		n = len - 1;
	memcpy(buf, fix->id, n);
	buf[n] = '\0';
	return buf;
}
