// SPDX-License-Identifier: GPL-2.0
/*
 * fbfake: a framebuffer with whatever geometry its module parameters say,
 * including geometry no real driver reports (smem_len 0, xres 0, bpp 0,
 * line_length * yres_virtual > smem_len).  For fbclassctl's hostile-input
 * tests in a throw-away VM only.
 *
 * A parameter left at -1 is derived from the others; any other value,
 * 0 included, is reported to user space as given.  The memory behind the
 * device is always at least one page, and mmap is bounded by it.
 */
#include <linux/fb.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/vmalloc.h>

static int xres = -1, yres = -1, xres_virtual = -1, yres_virtual = -1;
static int bpp = -1, line_length = -1, smem_len = -1;
static int visual = FB_VISUAL_TRUECOLOR, type = FB_TYPE_PACKED_PIXELS;
static char *id = "fbfake";
module_param(xres, int, 0444);
module_param(yres, int, 0444);
module_param(xres_virtual, int, 0444);
module_param(yres_virtual, int, 0444);
module_param(bpp, int, 0444);
module_param(line_length, int, 0444);
module_param(smem_len, int, 0444);
module_param(visual, int, 0444);
module_param(type, int, 0444);
module_param(id, charp, 0444);
MODULE_PARM_DESC(smem_len,
		 "bytes reported in fix.smem_len (-1: line_length * yres_virtual)");

static struct fb_info *fbfake_info;
static void *fbfake_mem;
static unsigned long fbfake_alloc;

static int fbfake_mmap(struct fb_info *info, struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;

	/* remap_vmalloc_range checks too; say why in the return code */
	if (vma->vm_pgoff > fbfake_alloc >> PAGE_SHIFT ||
	    len > fbfake_alloc - (vma->vm_pgoff << PAGE_SHIFT))
		return -EINVAL;
	return remap_vmalloc_range(vma, fbfake_mem, vma->vm_pgoff);
}

static const struct fb_ops fbfake_ops = {
	.owner = THIS_MODULE,
	.fb_mmap = fbfake_mmap,
};

static u32 pick(int given, u32 derived)
{
	return given < 0 ? derived : (u32)given;
}

static int __init fbfake_init(void)
{
	struct fb_info *info;
	struct fb_var_screeninfo *var;
	struct fb_fix_screeninfo *fix;
	int ret;

	info = framebuffer_alloc(0, NULL);
	if (!info)
		return -ENOMEM;
	var = &info->var;
	fix = &info->fix;
	var->xres = pick(xres, 640);
	var->yres = pick(yres, 480);
	var->xres_virtual = pick(xres_virtual, var->xres);
	var->yres_virtual = pick(yres_virtual, var->yres);
	var->bits_per_pixel = pick(bpp, 32);
	if (var->bits_per_pixel >= 24) {
		var->red = (struct fb_bitfield){ 16, 8, 0 };
		var->green = (struct fb_bitfield){ 8, 8, 0 };
		var->blue = (struct fb_bitfield){ 0, 8, 0 };
	} else if (var->bits_per_pixel == 16) {
		var->red = (struct fb_bitfield){ 11, 5, 0 };
		var->green = (struct fb_bitfield){ 5, 6, 0 };
		var->blue = (struct fb_bitfield){ 0, 5, 0 };
	}
	var->activate = FB_ACTIVATE_NOW;
	var->height = -1;
	var->width = -1;
	var->vmode = FB_VMODE_NONINTERLACED;

	strscpy(fix->id, id, sizeof(fix->id));
	fix->type = type;
	fix->visual = visual;
	fix->line_length =
		pick(line_length,
		     (u32)(((u64)var->xres_virtual * var->bits_per_pixel + 7) / 8));
	fix->smem_len =
		pick(smem_len, (u32)min_t(u64, (u64)fix->line_length * var->yres_virtual,
					  64u << 20));
	fix->accel = FB_ACCEL_NONE;

	fbfake_alloc = PAGE_ALIGN(max_t(unsigned long, fix->smem_len, PAGE_SIZE));
	if (fbfake_alloc > (64ul << 20)) {
		ret = -EINVAL;
		goto err_info;
	}
	fbfake_mem = vmalloc_user(fbfake_alloc); /* zeroed, VM_USERMAP for mmap */
	if (!fbfake_mem) {
		ret = -ENOMEM;
		goto err_info;
	}
	info->screen_base = (char __iomem *)fbfake_mem;
	info->screen_size = fix->smem_len;
	fix->smem_start = 0; /* not physical memory; mmap goes through fb_mmap */
	info->fbops = &fbfake_ops;
	info->flags = FBINFO_FLAG_DEFAULT | FBINFO_VIRTFB;

	ret = register_framebuffer(info);
	if (ret < 0)
		goto err_mem;
	fbfake_info = info;
	fb_info(info,
		"fbfake %ux%u (virtual %ux%u) %u bpp, line_length %u, smem_len %u\n",
		var->xres, var->yres, var->xres_virtual, var->yres_virtual,
		var->bits_per_pixel, fix->line_length, fix->smem_len);
	return 0;

err_mem:
	vfree(fbfake_mem);
err_info:
	framebuffer_release(info);
	return ret;
}

static void __exit fbfake_exit(void)
{
	/* .owner pins the module while /dev/fbN is open or mapped */
	unregister_framebuffer(fbfake_info);
	vfree(fbfake_mem);
	framebuffer_release(fbfake_info);
}

module_init(fbfake_init);
module_exit(fbfake_exit);
MODULE_DESCRIPTION("Framebuffer with arbitrary geometry, for fbclassctl's hostile tests");
MODULE_LICENSE("GPL");
