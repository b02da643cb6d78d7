/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pngcmp FILE.png EXPECTED.rgb: decode FILE.png with libpng and compare
 * every pixel with EXPECTED ("W H\n" then W*H RGB bytes, as the guest's
 * fbtool wrote it).  Exit 0 when all match, 1 otherwise.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char *argv[])
{
	png_image img;
	unsigned w, h, bad = 0;
	unsigned char *got, *want;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: pngcmp FILE.png EXPECTED.rgb\n");
		return 2;
	}
	f = fopen(argv[2], "rb");
	if (!f || fscanf(f, "%u %u", &w, &h) != 2 || fgetc(f) != '\n') {
		fprintf(stderr, "pngcmp: %s: not an expected-pixels file\n", argv[2]);
		return 1;
	}
	want = malloc((size_t)w * h * 3);
	if (!want || fread(want, 3, (size_t)w * h, f) != (size_t)w * h) {
		fprintf(stderr, "pngcmp: %s: short\n", argv[2]);
		return 1;
	}
	fclose(f);
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, argv[1])) {
		fprintf(stderr, "pngcmp: %s: %s\n", argv[1], img.message);
		return 1;
	}
	if (img.width != w || img.height != h) {
		fprintf(stderr, "pngcmp: %s is %ux%u, expected %ux%u\n", argv[1],
			img.width, img.height, w, h);
		return 1;
	}
	img.format = PNG_FORMAT_RGB;
	got = malloc(PNG_IMAGE_SIZE(img));
	if (!got || !png_image_finish_read(&img, NULL, got, 0, NULL)) {
		fprintf(stderr, "pngcmp: %s: %s\n", argv[1], img.message);
		return 1;
	}
	for (size_t i = 0; i < (size_t)w * h; i++) {
		if (memcmp(got + i * 3, want + i * 3, 3) == 0)
			continue;
		if (bad++ < 5)
			fprintf(stderr,
				"pngcmp: %s: pixel (%zu,%zu) is %u,%u,%u, expected %u,%u,%u\n",
				argv[1], i % w, i / w, got[i * 3], got[i * 3 + 1],
				got[i * 3 + 2], want[i * 3], want[i * 3 + 1],
				want[i * 3 + 2]);
	}
	if (bad) {
		fprintf(stderr, "pngcmp: %s: %u of %u pixels differ\n", argv[1], bad,
			w * h);
		return 1;
	}
	printf("pngcmp: %s: all %u pixels (%ux%u) match\n", argv[1], w * h, w, h);
	return 0;
}
