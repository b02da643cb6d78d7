/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* edid-fields FILE: our decoder's view of an EDID blob, one key=value a
 * line, for tests/edid-oracle.sh to hold against edid-decode.  "unknown"
 * is a field the decoder could not read; "none" a field the EDID leaves
 * out.  Exit 0 whatever the blob holds, 1 when FILE cannot be read. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edid.h"

/* Big enough for any blob the tests use, and past the 32 kB edid-decode reads. */
static uint8_t blob[64 * 1024];

static void print_text(const char *key, const char *text, const struct edid_info *info)
{
	printf("%s=%s\n", key, info->decoded && text[0] ? text : "unknown");
}

static void print_problems(uint32_t problems)
{
	const char *sep = "";

	printf("problems=");
	if (problems == 0)
		printf("none");
	for (unsigned bit = 0; bit < 32; bit++) {
		uint32_t p = 1u << bit;
		const char *name;

		if (!(problems & p))
			continue;
		name = edid_problem_name((enum edid_problem)p);
		if (name)
			printf("%s%s", sep, name);
		else
			printf("%sbit-%u", sep, bit);
		sep = ",";
	}
	printf("\n");
}

static const char *return_name(int r)
{
	switch (r) {
	case 0:
		return "ok";
	case -ENODATA:
		return "ENODATA";
	case -EBADMSG:
		return "EBADMSG";
	case -EINVAL:
		return "EINVAL";
	default:
		return "other";
	}
}

/* Every key below but checksum, for a blob whose base block was not read. */
static const char *const undecoded_keys[] = {
	"version",   "vendor",		"product",     "serial_number", "week",
	"year",	     "model_year",	"size_cm",     "name",		"serial_text",
	"preferred", "pixel_clock_khz", "refresh_mhz", "extensions",
};

static void print_fields(const struct edid_info *info)
{
	const struct edid_timing *t = &info->preferred;

	if (info->length >= EDID_BLOCK_SIZE && !(info->problems & EDID_PROBLEM_BAD_HEADER))
		printf("checksum=%s\n", info->checksum_ok ? "ok" : "bad");
	else
		printf("checksum=unknown\n");
	if (!info->decoded) {
		for (size_t i = 0; i < sizeof(undecoded_keys) / sizeof(undecoded_keys[0]);
		     i++)
			printf("%s=unknown\n", undecoded_keys[i]);
		return;
	}
	printf("version=%u.%u\n", info->version, info->revision);
	printf("vendor=%s\n", info->vendor[0] ? info->vendor : "unknown");
	printf("product=%u\n", info->product);
	if (info->serial_number)
		printf("serial_number=%u\n", info->serial_number);
	else
		printf("serial_number=none\n");
	if (info->week)
		printf("week=%u\n", info->week);
	else
		printf("week=%s\n",
		       info->problems & EDID_PROBLEM_BAD_DATE ? "unknown" : "none");
	printf("year=%u\n", info->year);
	printf("model_year=%s\n", info->model_year ? "yes" : "no");
	if (info->width_cm)
		printf("size_cm=%ux%u\n", info->width_cm, info->height_cm);
	else
		printf("size_cm=unknown\n");
	print_text("name", info->name, info);
	print_text("serial_text", info->serial_text, info);
	if (info->has_preferred) {
		printf("preferred=%ux%u%s\n", t->hactive, t->vactive,
		       t->interlaced ? "i" : "");
		printf("pixel_clock_khz=%u\n", t->pixel_clock_khz);
		printf("refresh_mhz=%" PRIu64 "\n", t->refresh_mhz);
	} else {
		printf("preferred=unknown\npixel_clock_khz=unknown\nrefresh_mhz=unknown\n");
	}
	printf("extensions=%u\n", info->extensions);
}

int main(int argc, char **argv)
{
	struct edid_info info;
	size_t len;
	FILE *f;
	int r;

	if (argc != 2) {
		fprintf(stderr, "usage: edid-fields FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		fprintf(stderr, "edid-fields: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	len = fread(blob, 1, sizeof(blob), f);
	if (ferror(f)) {
		fprintf(stderr, "edid-fields: %s: read error\n", argv[1]);
		fclose(f);
		return 1;
	}
	fclose(f);
	r = edid_decode(blob, len, &info);
	printf("length=%zu\n", info.length);
	printf("return=%s\n", return_name(r));
	printf("decoded=%s\n", info.decoded ? "yes" : "no");
	printf("trusted=%s\n", info.problems == 0 ? "yes" : "no");
	print_problems(info.problems);
	print_fields(&info);
	return 0;
}
