/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The path id builder against udev's ID_PATH names. */
#include <stdlib.h>

#include "fbclass.h"
#include "test.h"

#define CHAIN(...) ((const struct fb_path_elem[]){ __VA_ARGS__ })
#define N(...)                                                  \
	(sizeof((const struct fb_path_elem[]){ __VA_ARGS__ }) / \
	 sizeof(struct fb_path_elem))
#define CHECK(expect, ...)                                                       \
	do {                                                                     \
		const char *_e = (expect);                                       \
		char *_p = fb_path_id_build(CHAIN(__VA_ARGS__), N(__VA_ARGS__)); \
		if (_e)                                                          \
			ASSERT_STR_EQ(_p, _e);                                   \
		else                                                             \
			ASSERT_NULL(_p);                                         \
		free(_p);                                                        \
	} while (0)

int main(void)
{
	/* bochs-drm: fb0 → 0000:00:02.0 (pci) → pci0000:00 (no subsystem) */
	CHECK("pci-0000:00:02.0", { "pci", "0000:00:02.0" }, { NULL, "pci0000:00" });
	/* vfb and vesafb: platform devices under /sys/devices/platform */
	CHECK("platform-vfb.0", { "platform", "vfb.0" }, { NULL, "platform" });
	CHECK("platform-vesa-framebuffer.0", { "platform", "vesa-framebuffer.0" });
	/* udlfb: interface → device → hub → root hub → xHCI on PCI */
	CHECK("pci-0000:00:14.0-usb-0:1.2:1.0", { "usb", "1-1.2:1.0" },
	      { "usb", "1-1.2" }, { "usb", "1-1" }, { "usb", "usb1" },
	      { "pci", "0000:00:14.0" }, { NULL, "pci0000:00" });
	/* A device behind a PCI bridge: udev names the nearest PCI function of
	 * a run only (skip_subsystem), as /dev/disk/by-path shows for NVMe. */
	CHECK("pci-0000:01:00.0", { "pci", "0000:01:00.0" }, { "pci", "0000:00:1c.0" },
	      { NULL, "pci0000:00" });
	/* xen-fbfront on /devices/vfb-0 */
	CHECK("xen-vfb-0", { "xen", "vfb-0" });
	/* fbtft panels on one SPI controller: the chip select tells them apart */
	CHECK("platform-3f204000.spi-cs-0", { "spi", "spi0.0" }, { NULL, "spi0" },
	      { "platform", "3f204000.spi" }, { "platform", "soc" },
	      { NULL, "platform" });
	CHECK("platform-3f204000.spi-cs-1", { "spi", "spi0.1" }, { NULL, "spi0" },
	      { "platform", "3f204000.spi" });
	/* a run of platform devices: the nearest only */
	CHECK("platform-3f204000.spi", { "platform", "3f204000.spi" },
	      { "platform", "soc" });
	/* virtio-gpu: a transport, named by its PCI function */
	CHECK("pci-0000:00:04.0", { "virtio", "virtio2" }, { "pci", "0000:00:04.0" });
	/* A root hub alone names no port. */
	CHECK("pci-0000:00:14.0", { "usb", "usb1" }, { "pci", "0000:00:14.0" });
	CHECK("acpi-PNP0A03:00", { "acpi", "PNP0A03:00" });
	/* Unsupported buses alone give no path id, as in udev. */
	CHECK(NULL, { "virtio", "virtio0" });
	CHECK(NULL, { NULL, "vfb.0" });
	CHECK(NULL, { "pci", "" });
	ASSERT_NULL(fb_path_id_build(NULL, 0));
	/* Unknown levels between supported ones are skipped. */
	CHECK("pci-0000:00:03.0", { "virtio", "virtio1" }, { "pci", "0000:00:03.0" });
	return test_finish("test-pathid");
}
