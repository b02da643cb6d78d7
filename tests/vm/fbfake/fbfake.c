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
 *
 * count=N registers N such framebuffers at once (the VM bench's coldplug of
 * FB_MAX nodes), as many as fit when other framebuffers already hold some of
 * the FB_MAX minors; with N > 1 each id gets its index ("fbfake0"), as the
 * by-name links need.  platform=1 puts each under a platform device of its
 * own, fbfake.I, as a real driver's fb is (a by-path id); without it the
 * framebuffers are virtual devices.
 */
#include <linux/fb.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/vmalloc.h>

static int xres = -1, yres = -1, xres_virtual = -1, yres_virtual = -1;
static int bpp = -1, line_length = -1, smem_len = -1;
static int visual = FB_VISUAL_TRUECOLOR, type = FB_TYPE_PACKED_PIXELS;
static char *id = "fbfake";
static int count = 1;
static bool platform;
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
module_param(count, int, 0444);
module_param(platform, bool, 0444);
MODULE_PARM_DESC(smem_len,
		 "bytes reported in fix.smem_len (-1: line_length * yres_virtual)");
MODULE_PARM_DESC(count, "framebuffers to register, 1 to FB_MAX (as many as fit)");
MODULE_PARM_DESC(platform, "each framebuffer under a platform device fbfake.I");

/* One framebuffer: its memory and its platform device (or NULL), in ->par */
struct fbfake {
	void *mem;
	unsigned long alloc;
	struct platform_device *pdev;
};

static struct fb_info *fbfake_infos[FB_MAX];
static int fbfake_made;

static int fbfake_mmap(struct fb_info *info, struct vm_area_struct *vma)
{
	struct fbfake *fake = info->par;
	unsigned long len = vma->vm_end - vma->vm_start;

	/* remap_vmalloc_range checks too; say why in the return code */
	if (vma->vm_pgoff > fake->alloc >> PAGE_SHIFT ||
	    len > fake->alloc - (vma->vm_pgoff << PAGE_SHIFT))
		return -EINVAL;
	return remap_vmalloc_range(vma, fake->mem, vma->vm_pgoff);
}

static const struct fb_ops fbfake_ops = {
	.owner = THIS_MODULE,
	.fb_mmap = fbfake_mmap,
};

static u32 pick(int given, u32 derived)
{
	return given < 0 ? derived : (u32)given;
}

static void fbfake_free(struct fb_info *info)
{
	struct fbfake *fake = info->par;
	struct platform_device *pdev = fake->pdev;

	vfree(fake->mem);
	framebuffer_release(info);
	platform_device_unregister(pdev); /* NULL: nothing */
}

/* fbfake_one I: register framebuffer number I; 0 or -errno (-ENXIO: all
 * FB_MAX minors are taken) */
static int fbfake_one(int i)
{
	struct platform_device *pdev = NULL;
	struct fb_info *info;
	struct fb_var_screeninfo *var;
	struct fb_fix_screeninfo *fix;
	struct fbfake *fake;
	int ret;

	if (platform) {
		pdev = platform_device_register_simple("fbfake", i, NULL, 0);
		if (IS_ERR(pdev))
			return PTR_ERR(pdev);
	}
	info = framebuffer_alloc(sizeof(*fake), pdev ? &pdev->dev : NULL);
	if (!info) {
		platform_device_unregister(pdev);
		return -ENOMEM;
	}
	fake = info->par;
	fake->pdev = pdev;
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

	if (count > 1)
		snprintf(fix->id, sizeof(fix->id), "%s%d", id, i);
	else
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

	fake->alloc = PAGE_ALIGN(max_t(unsigned long, fix->smem_len, PAGE_SIZE));
	if (fake->alloc > (64ul << 20)) {
		ret = -EINVAL;
		goto err;
	}
	fake->mem = vmalloc_user(fake->alloc); /* zeroed, VM_USERMAP for mmap */
	if (!fake->mem) {
		ret = -ENOMEM;
		goto err;
	}
	info->screen_base = (char __iomem *)fake->mem;
	info->screen_size = fix->smem_len;
	fix->smem_start = 0; /* not physical memory; mmap goes through fb_mmap */
	info->fbops = &fbfake_ops;
	info->flags = FBINFO_FLAG_DEFAULT | FBINFO_VIRTFB;

	ret = register_framebuffer(info);
	if (ret < 0)
		goto err;
	fbfake_infos[fbfake_made++] = info;
	fb_info(info,
		"fbfake %ux%u (virtual %ux%u) %u bpp, line_length %u, smem_len %u\n",
		var->xres, var->yres, var->xres_virtual, var->yres_virtual,
		var->bits_per_pixel, fix->line_length, fix->smem_len);
	return 0;

err:
	fbfake_free(info);
	return ret;
}

static void fbfake_remove_all(void)
{
	/* .owner pins the module while a /dev/fbN is open or mapped */
	while (fbfake_made > 0) {
		struct fb_info *info = fbfake_infos[--fbfake_made];

		unregister_framebuffer(info);
		fbfake_free(info);
	}
}

static int __init fbfake_init(void)
{
	int i, ret = 0;

	if (count < 1 || count > FB_MAX) {
		pr_err("fbfake: count=%d: 1 to %d\n", count, FB_MAX);
		return -EINVAL;
	}
	for (i = 0; i < count; i++) {
		ret = fbfake_one(i);
		if (ret < 0)
			break;
	}
	/* every minor taken: keep what was made, and say so */
	if (ret == -ENXIO && fbfake_made > 0) {
		pr_info("fbfake: made %d of count=%d framebuffers: the other minors of FB_MAX (%d) are taken\n",
			fbfake_made, count, FB_MAX);
		return 0;
	}
	if (ret < 0)
		fbfake_remove_all();
	return ret;
}

static void __exit fbfake_exit(void)
{
	fbfake_remove_all();
}

module_init(fbfake_init);
module_exit(fbfake_exit);
MODULE_DESCRIPTION(
	"Framebuffers with arbitrary geometry, for fbclassctl's hostile tests and VM bench");
MODULE_LICENSE("GPL");
