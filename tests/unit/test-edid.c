/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The EDID decoder's edge cases, one by one.  The expected values of the
 * base block below are what edid-decode prints for it (tests/edid/monitor.bin,
 * made by tests/edid/make-blobs.sh); each case changes a few bytes of it. */
#include <errno.h>

#include "edid.h"
#include "test.h"

/* edid-decode: Manufacturer DEL, Model 41141, Serial Number 1279995954,
 * week 12 of 2019, 1.4, 52 cm x 32 cm, DTD 1 1920x1200 59.950171 Hz
 * 154.000000 MHz, 'DELL U2415', 'CFV9N99T0ABL', Checksum 0xb1. */
static const uint8_t monitor[EDID_BLOCK_SIZE] = {
	0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x10, 0xac, 0xb5, 0xa0, 0x32,
	0x30, 0x4b, 0x4c, 0x0c, 0x1d, 0x01, 0x04, 0xa5, 0x34, 0x20, 0x78, 0xee, 0xee,
	0x91, 0xa3, 0x54, 0x4c, 0x99, 0x26, 0x0f, 0x50, 0x54, 0x21, 0x08, 0x00, 0xb3,
	0x00, 0x81, 0x80, 0xa9, 0x40, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
	0x01, 0x01, 0x28, 0x3c, 0x80, 0xa0, 0x70, 0xb0, 0x23, 0x40, 0x30, 0x20, 0x36,
	0x00, 0x06, 0x44, 0x21, 0x00, 0x00, 0x1a, 0x00, 0x00, 0x00, 0xfd, 0x00, 0x38,
	0x4c, 0x1e, 0x51, 0x11, 0x01, 0x0a, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x00,
	0x00, 0x00, 0xfc, 0x00, 0x44, 0x45, 0x4c, 0x4c, 0x20, 0x55, 0x32, 0x34, 0x31,
	0x35, 0x0a, 0x20, 0x20, 0x00, 0x00, 0x00, 0xff, 0x00, 0x43, 0x46, 0x56, 0x39,
	0x4e, 0x39, 0x39, 0x54, 0x30, 0x41, 0x42, 0x4c, 0x0a, 0x00, 0xb1,
};

/* Offsets of the four 18-byte descriptors. */
enum { D1 = 54, D2 = 72, D3 = 90, D4 = 108 };

static void fix_checksum(uint8_t *block)
{
	uint8_t sum = 0;

	for (int i = 0; i < EDID_BLOCK_SIZE - 1; i++)
		sum += block[i];
	block[EDID_BLOCK_SIZE - 1] = (uint8_t)(0x100 - sum);
}

/* Decode exactly len bytes from a buffer of exactly that size, so that
 * ASan sees any read past the end. */
static int decode_exact(const uint8_t *bytes, size_t len, struct edid_info *info)
{
	uint8_t *copy = malloc(len ? len : 1);
	int r;

	if (!copy)
		abort();
	if (len)
		memcpy(copy, bytes, len);
	r = edid_decode(copy, len, info);
	free(copy);
	return r;
}

/* The template with one descriptor's 13 text bytes replaced. */
static int decode_text_at(int offset, uint8_t tag, const uint8_t text[13],
			  struct edid_info *info)
{
	uint8_t b[EDID_BLOCK_SIZE];

	memcpy(b, monitor, sizeof(b));
	b[offset + 3] = tag;
	memcpy(b + offset + 5, text, 13);
	fix_checksum(b);
	return decode_exact(b, sizeof(b), info);
}

static void test_arguments(void)
{
	struct edid_info info;

	ASSERT_INT_EQ(edid_decode(monitor, sizeof(monitor), NULL), -EINVAL);
	ASSERT_INT_EQ(edid_decode(NULL, 128, &info), -EINVAL);
	/* no bytes at all is an empty EDID, pointer or not */
	ASSERT_INT_EQ(edid_decode(NULL, 0, &info), -ENODATA);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_EMPTY);
}

static void test_template(void)
{
	struct edid_info info;

	ASSERT_INT_EQ(decode_exact(monitor, sizeof(monitor), &info), 0);
	ASSERT_INT_EQ(info.problems, 0);
	ASSERT_TRUE(info.decoded);
	ASSERT_TRUE(info.checksum_ok);
	ASSERT_INT_EQ(info.length, 128);
	ASSERT_INT_EQ(info.version, 1);
	ASSERT_INT_EQ(info.revision, 4);
	ASSERT_STR_EQ(info.vendor, "DEL");
	ASSERT_INT_EQ(info.product, 41141);
	ASSERT_INT_EQ(info.serial_number, 1279995954u);
	ASSERT_INT_EQ(info.week, 12);
	ASSERT_INT_EQ(info.year, 2019);
	ASSERT_TRUE(!info.model_year);
	ASSERT_INT_EQ(info.width_cm, 52);
	ASSERT_INT_EQ(info.height_cm, 32);
	ASSERT_INT_EQ(info.extensions, 0);
	ASSERT_STR_EQ(info.name, "DELL U2415");
	ASSERT_STR_EQ(info.serial_text, "CFV9N99T0ABL");
	ASSERT_TRUE(info.has_preferred);
	ASSERT_INT_EQ(info.preferred.hactive, 1920);
	ASSERT_INT_EQ(info.preferred.vactive, 1200);
	ASSERT_INT_EQ(info.preferred.htotal, 2080);
	ASSERT_INT_EQ(info.preferred.vtotal, 1235);
	ASSERT_INT_EQ(info.preferred.pixel_clock_khz, 154000);
	ASSERT_TRUE(!info.preferred.interlaced);
	/* 59.950171 Hz */
	ASSERT_INT_EQ(info.preferred.refresh_mhz, 59950);
}

static void test_lengths(void)
{
	uint8_t two[2 * EDID_BLOCK_SIZE + 1];
	struct edid_info info;

	ASSERT_INT_EQ(decode_exact(monitor, 0, &info), -ENODATA);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_EMPTY);
	ASSERT_TRUE(!info.decoded);
	for (size_t len = 1; len < EDID_BLOCK_SIZE; len++) {
		ASSERT_INT_EQ(decode_exact(monitor, len, &info), -EBADMSG);
		ASSERT_INT_EQ(info.problems, EDID_PROBLEM_SHORT);
		ASSERT_INT_EQ(info.length, len);
		ASSERT_TRUE(!info.decoded && !info.checksum_ok && !info.has_preferred);
		ASSERT_STR_EQ(info.vendor, "");
		ASSERT_STR_EQ(info.name, "");
	}

	/* a stray byte after a whole base block: decoded, not trusted */
	memcpy(two, monitor, EDID_BLOCK_SIZE);
	memset(two + EDID_BLOCK_SIZE, 0, sizeof(two) - EDID_BLOCK_SIZE);
	ASSERT_INT_EQ(decode_exact(two, 129, &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_LENGTH_NOT_BLOCKS);
	ASSERT_TRUE(info.decoded);
	ASSERT_STR_EQ(info.name, "DELL U2415");
	ASSERT_INT_EQ(decode_exact(two, 255, &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_LENGTH_NOT_BLOCKS);

	/* a whole second block that byte 126 does not announce */
	two[EDID_BLOCK_SIZE] = 0x02; /* a CTA tag, and a block summing to 0: */
	two[2 * EDID_BLOCK_SIZE - 1] = 0xfe;
	ASSERT_INT_EQ(decode_exact(two, 256, &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_EXTENSION_COUNT);

	/* announced and present: trusted */
	two[126] = 1;
	fix_checksum(two);
	ASSERT_INT_EQ(decode_exact(two, 256, &info), 0);
	ASSERT_INT_EQ(info.extensions, 1);
	/* ... with a bad extension checksum */
	two[2 * EDID_BLOCK_SIZE - 1] ^= 1;
	ASSERT_INT_EQ(decode_exact(two, 256, &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_EXTENSION_CHECKSUM);
	ASSERT_TRUE(info.checksum_ok);
	two[2 * EDID_BLOCK_SIZE - 1] ^= 1;
	/* announced, and cut short: one whole block of the two, and a part */
	ASSERT_INT_EQ(decode_exact(two, 200, &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems,
		      EDID_PROBLEM_LENGTH_NOT_BLOCKS | EDID_PROBLEM_EXTENSION_COUNT);
	ASSERT_INT_EQ(decode_exact(two, 128, &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_EXTENSION_COUNT);

	/* 255 extensions announced in 128 bytes */
	memcpy(two, monitor, EDID_BLOCK_SIZE);
	two[126] = 0xff;
	fix_checksum(two);
	ASSERT_INT_EQ(decode_exact(two, 128, &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_EXTENSION_COUNT);
	ASSERT_INT_EQ(info.extensions, 255);
}

static void test_header_and_checksum(void)
{
	uint8_t b[EDID_BLOCK_SIZE];
	struct edid_info info;

	for (int i = 0; i < 8; i++) {
		memcpy(b, monitor, sizeof(b));
		b[i] ^= 0x01;
		fix_checksum(b);
		ASSERT_INT_EQ(decode_exact(b, sizeof(b), &info), -EBADMSG);
		/* not an EDID: nothing else is looked at */
		ASSERT_INT_EQ(info.problems, EDID_PROBLEM_BAD_HEADER);
		ASSERT_TRUE(!info.decoded);
		ASSERT_STR_EQ(info.vendor, "");
	}
	/* any byte off by one breaks the sum; the fields are still read */
	for (int i = 8; i < EDID_BLOCK_SIZE; i++) {
		memcpy(b, monitor, sizeof(b));
		b[i] = (uint8_t)(b[i] + 1);
		ASSERT_INT_EQ(decode_exact(b, sizeof(b), &info), -EBADMSG);
		ASSERT_TRUE(info.problems & EDID_PROBLEM_BAD_CHECKSUM);
		ASSERT_TRUE(!info.checksum_ok);
	}
	memcpy(b, monitor, sizeof(b));
	b[127]++;
	ASSERT_INT_EQ(decode_exact(b, sizeof(b), &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_BAD_CHECKSUM);
	ASSERT_TRUE(info.decoded);
	ASSERT_STR_EQ(info.vendor, "DEL");
	ASSERT_STR_EQ(info.name, "DELL U2415");

	/* structure version 2: another layout, not read */
	memcpy(b, monitor, sizeof(b));
	b[18] = 2;
	b[19] = 0;
	fix_checksum(b);
	ASSERT_INT_EQ(decode_exact(b, sizeof(b), &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_BAD_VERSION);
	ASSERT_TRUE(!info.decoded);
	ASSERT_INT_EQ(info.version, 2);
	ASSERT_STR_EQ(info.vendor, "");
	ASSERT_STR_EQ(info.name, "");
	b[18] = 0;
	fix_checksum(b);
	ASSERT_INT_EQ(decode_exact(b, sizeof(b), &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_BAD_VERSION);
}

static void check_vendor(uint8_t hi, uint8_t lo, const char *want)
{
	uint8_t b[EDID_BLOCK_SIZE];
	struct edid_info info;

	memcpy(b, monitor, sizeof(b));
	b[8] = hi;
	b[9] = lo;
	fix_checksum(b);
	decode_exact(b, sizeof(b), &info);
	ASSERT_STR_EQ(info.vendor, want);
	ASSERT_INT_EQ(!!(info.problems & EDID_PROBLEM_BAD_VENDOR), want[0] == '\0');
	if (strcmp(info.vendor, want) != 0)
		fprintf(stderr, "  vendor bytes %02x %02x\n", hi, lo);
}

static void test_vendor(void)
{
	check_vendor(0x04, 0x21, "AAA"); /* 00001 00001 00001 */
	check_vendor(0x6b, 0x5a, "ZZZ"); /* 11010 11010 11010 */
	check_vendor(0x49, 0x14, "RHT"); /* qemu's */
	check_vendor(0x90, 0xac,
		     "DEL"); /* bit 15 is reserved: ignored, as edid-decode does */
	check_vendor(0x00, 0x21, ""); /* first letter 0 */
	check_vendor(0x04, 0x01, ""); /* second letter 0 */
	check_vendor(0x04, 0x20, ""); /* third letter 0 */
	check_vendor(0x6c, 0x21, ""); /* first letter 27 */
	check_vendor(0x07, 0xe1, ""); /* second letter 31 */
	check_vendor(0x04, 0x3b, ""); /* third letter 27 */
}

static void check_date(uint8_t revision, uint8_t week, uint8_t year, int want_week,
		       bool want_model_year, bool bad)
{
	uint8_t b[EDID_BLOCK_SIZE];
	struct edid_info info;

	memcpy(b, monitor, sizeof(b));
	b[16] = week;
	b[17] = year;
	b[19] = revision;
	fix_checksum(b);
	decode_exact(b, sizeof(b), &info);
	ASSERT_INT_EQ(info.week, want_week);
	ASSERT_INT_EQ(info.model_year, want_model_year);
	ASSERT_INT_EQ(info.year, 1990 + year);
	ASSERT_INT_EQ(!!(info.problems & EDID_PROBLEM_BAD_DATE), bad);
}

static void test_date(void)
{
	check_date(4, 0, 0, 0, false, false); /* week not given */
	check_date(4, 1, 0, 1, false, false);
	check_date(4, 54, 255, 54, false, false);
	check_date(4, 55, 29, 0, false, true);
	check_date(4, 0xfe, 29, 0, false, true);
	check_date(4, 0xff, 32, 0, true, false); /* model year 2022 */
	check_date(3, 0xff, 32, 0, false, true); /* EDID 1.3 has no model year */
}

static void test_size(void)
{
	uint8_t b[EDID_BLOCK_SIZE];
	struct edid_info info;

	memcpy(b, monitor, sizeof(b));
	b[21] = 0; /* 1.4: an aspect ratio, not a size */
	fix_checksum(b);
	ASSERT_INT_EQ(decode_exact(b, sizeof(b), &info), 0);
	ASSERT_INT_EQ(info.width_cm, 0);
	ASSERT_INT_EQ(info.height_cm, 0);
	b[21] = 255;
	b[22] = 255;
	fix_checksum(b);
	decode_exact(b, sizeof(b), &info);
	ASSERT_INT_EQ(info.width_cm, 255);
	ASSERT_INT_EQ(info.height_cm, 255);
}

static void test_name(void)
{
	struct edid_info info;

	/* 13 characters fill the descriptor: no terminator, no problem */
	ASSERT_INT_EQ(decode_text_at(D3, 0xfc, (const uint8_t *)"ABCDEFGHIJKLM", &info),
		      0);
	ASSERT_STR_EQ(info.name, "ABCDEFGHIJKLM");
	/* 12 and a terminator */
	ASSERT_INT_EQ(decode_text_at(D3, 0xfc, (const uint8_t *)"ABCDEFGHIJKL\n", &info),
		      0);
	ASSERT_STR_EQ(info.name, "ABCDEFGHIJKL");
	/* one and a terminator; a space inside and at the front is text */
	ASSERT_INT_EQ(decode_text_at(D3, 0xfc, (const uint8_t *)" \n           ", &info),
		      0);
	ASSERT_STR_EQ(info.name, " ");
	ASSERT_INT_EQ(decode_text_at(D3, 0xfc, (const uint8_t *)"X\n           ", &info),
		      0);
	ASSERT_STR_EQ(info.name, "X");

	/* padded, no terminator: kept verbatim, as edid-decode prints it */
	decode_text_at(D3, 0xfc, (const uint8_t *)"DELL U2415   ", &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_NAME_UNTERMINATED);
	ASSERT_STR_EQ(info.name, "DELL U2415   ");

	/* a byte that is not printable ASCII: no name at all */
	{
		static const uint8_t bad[] = { 0x00, 0x01, 0x09, 0x1f,
					       0x7f, 0x80, 0xc3, 0xff };

		for (size_t i = 0; i < sizeof(bad); i++) {
			uint8_t text[13];

			memcpy(text, "DELL U2415\n  ", 13);
			text[4] = bad[i];
			decode_text_at(D3, 0xfc, text, &info);
			ASSERT_INT_EQ(info.problems, EDID_PROBLEM_NAME_NONPRINTABLE);
			ASSERT_STR_EQ(info.name, "");
			/* ... also as the thirteenth byte */
			memcpy(text, "ABCDEFGHIJKL", 12);
			text[12] = bad[i];
			decode_text_at(D3, 0xfc, text, &info);
			ASSERT_INT_EQ(info.problems, EDID_PROBLEM_NAME_NONPRINTABLE);
			ASSERT_STR_EQ(info.name, "");
		}
	}
	/* what follows the terminator must be spaces */
	decode_text_at(D3, 0xfc, (const uint8_t *)"DELL\nU2415   ", &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_NAME_BAD_PADDING);
	ASSERT_STR_EQ(info.name, "DELL");
	decode_text_at(D3, 0xfc, (const uint8_t *)"DELL U2415\n\0\0", &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_NAME_BAD_PADDING);
	ASSERT_STR_EQ(info.name, "DELL U2415");
	decode_text_at(D3, 0xfc, (const uint8_t *)"DELL U2415\n \n", &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_NAME_BAD_PADDING);
	/* nothing before the terminator */
	decode_text_at(D3, 0xfc, (const uint8_t *)"\n            ", &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_NAME_EMPTY);
	ASSERT_STR_EQ(info.name, "");
	/* both at once */
	decode_text_at(D3, 0xfc, (const uint8_t *)"A\001\n\001         ", &info);
	ASSERT_INT_EQ(info.problems,
		      EDID_PROBLEM_NAME_NONPRINTABLE | EDID_PROBLEM_NAME_BAD_PADDING);
	ASSERT_INT_EQ(decode_text_at(D3, 0xfc, (const uint8_t *)"\n\001           ",
				     &info),
		      -EBADMSG);
	ASSERT_INT_EQ(info.problems,
		      EDID_PROBLEM_NAME_EMPTY | EDID_PROBLEM_NAME_BAD_PADDING);

	/* no name descriptor: no name, and nothing wrong */
	ASSERT_INT_EQ(decode_text_at(D3, 0xfe, (const uint8_t *)"just text\n   ", &info),
		      0);
	ASSERT_STR_EQ(info.name, "");
	/* the first of two names counts (the kernel's choice); the second is not checked */
	{
		uint8_t b[EDID_BLOCK_SIZE];

		memcpy(b, monitor, sizeof(b));
		b[D4 + 3] = 0xfc;
		memcpy(b + D4 + 5, "\001\001", 2);
		fix_checksum(b);
		ASSERT_INT_EQ(decode_exact(b, sizeof(b), &info), 0);
		ASSERT_STR_EQ(info.name, "DELL U2415");
		ASSERT_STR_EQ(info.serial_text, "");
	}
}

static void test_serial_text(void)
{
	struct edid_info info;

	ASSERT_INT_EQ(decode_text_at(D4, 0xff, (const uint8_t *)"0123456789ABC", &info),
		      0);
	ASSERT_STR_EQ(info.serial_text, "0123456789ABC");
	decode_text_at(D4, 0xff, (const uint8_t *)"CFV9\0N99T0AB\n", &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_SERIAL_NONPRINTABLE);
	ASSERT_STR_EQ(info.serial_text, "");
	decode_text_at(D4, 0xff, (const uint8_t *)"CFV9         ", &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_SERIAL_UNTERMINATED);
	ASSERT_STR_EQ(info.serial_text, "CFV9         ");
	decode_text_at(D4, 0xff, (const uint8_t *)"CFV9\nxxxxxxxx", &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_SERIAL_BAD_PADDING);
	ASSERT_STR_EQ(info.serial_text, "CFV9");
	decode_text_at(D4, 0xff, (const uint8_t *)"\n            ", &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_SERIAL_EMPTY);
	/* the name's problems are not the serial's */
	ASSERT_STR_EQ(info.name, "DELL U2415");
}

/* A detailed timing descriptor at D1, built from its fields. */
static int decode_timing_fields(unsigned clock_10khz, unsigned ha, unsigned hb,
				unsigned va, unsigned vb, uint8_t flags,
				struct edid_info *info)
{
	uint8_t b[EDID_BLOCK_SIZE];
	uint8_t *d = b + D1;

	memcpy(b, monitor, sizeof(b));
	d[0] = (uint8_t)(clock_10khz & 0xff);
	d[1] = (uint8_t)(clock_10khz >> 8);
	d[2] = (uint8_t)(ha & 0xff);
	d[3] = (uint8_t)(hb & 0xff);
	d[4] = (uint8_t)((ha >> 8) << 4 | hb >> 8);
	d[5] = (uint8_t)(va & 0xff);
	d[6] = (uint8_t)(vb & 0xff);
	d[7] = (uint8_t)((va >> 8) << 4 | vb >> 8);
	d[17] = flags;
	fix_checksum(b);
	return decode_exact(b, sizeof(b), info);
}

static void test_timing(void)
{
	struct edid_info info;
	uint8_t b[EDID_BLOCK_SIZE];

	/* DMT 640x480: 25.175 MHz, 800 x 525: edid-decode's 59.940476 Hz */
	ASSERT_INT_EQ(decode_timing_fields(2518, 640, 160, 480, 45, 0x18, &info), 0);
	ASSERT_INT_EQ(info.preferred.pixel_clock_khz, 25180);
	/* 25.18 MHz / 420000 = 59.952381 Hz */
	ASSERT_INT_EQ(info.preferred.refresh_mhz, 59952);
	/* qemu's 1280x800: 107.3 MHz, 1728 x 828; edid-decode 74.993850 Hz */
	ASSERT_INT_EQ(decode_timing_fields(10730, 1280, 448, 800, 28, 0x18, &info), 0);
	ASSERT_INT_EQ(info.preferred.refresh_mhz, 74994);
	/* CEA 1080i: 74.25 MHz, 2200 x (2 * 562 + 1): edid-decode's 60.000000 Hz */
	ASSERT_INT_EQ(decode_timing_fields(7425, 1920, 280, 540, 22, 0x9e, &info), 0);
	ASSERT_TRUE(info.preferred.interlaced);
	ASSERT_INT_EQ(info.preferred.hactive, 1920);
	ASSERT_INT_EQ(info.preferred.vactive, 1080);
	ASSERT_INT_EQ(info.preferred.vtotal, 1125);
	ASSERT_INT_EQ(info.preferred.refresh_mhz, 60000);
	/* the largest every field can be: no overflow */
	ASSERT_INT_EQ(decode_timing_fields(0xffff, 4095, 4095, 4095, 4095, 0x18, &info),
		      0);
	ASSERT_INT_EQ(info.preferred.pixel_clock_khz, 655350);
	ASSERT_INT_EQ(info.preferred.htotal, 8190);
	ASSERT_INT_EQ(info.preferred.vtotal, 8190);
	/* 655.35 MHz / 67076100 = 9.770249 Hz */
	ASSERT_INT_EQ(info.preferred.refresh_mhz, 9770);
	ASSERT_INT_EQ(decode_timing_fields(0xffff, 4095, 4095, 4095, 4095, 0x98, &info),
		      0);
	ASSERT_INT_EQ(info.preferred.vactive, 8190);
	ASSERT_INT_EQ(info.preferred.vtotal, 16381);
	/* one pixel, one line, no blanking: 10 kHz is 10000 frames a second... */
	ASSERT_INT_EQ(decode_timing_fields(1, 1, 0, 1, 0, 0x18, &info), 0);
	ASSERT_INT_EQ(info.preferred.refresh_mhz, 10000000);
	/* ... and 655.35 MHz more millihertz than 32 bits hold */
	ASSERT_INT_EQ(decode_timing_fields(0xffff, 1, 0, 1, 0, 0x18, &info), 0);
	ASSERT_INT_EQ(info.preferred.refresh_mhz, 655350000000LL);

	/* ... and the slowest: 10 kHz over 8190 x 8190 is 0.149 mHz, which
	 * rounds to 0 (make fuzz found it; the timing is still read) */
	ASSERT_INT_EQ(decode_timing_fields(1, 4095, 4095, 4095, 4095, 0x18, &info), 0);
	ASSERT_TRUE(info.has_preferred);
	ASSERT_INT_EQ(info.preferred.refresh_mhz, 0);

	/* no pixels or no lines: no preferred mode */
	decode_timing_fields(15400, 0, 160, 1200, 35, 0x1a, &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_BAD_PREFERRED_TIMING);
	ASSERT_TRUE(!info.has_preferred);
	decode_timing_fields(15400, 1920, 160, 0, 35, 0x1a, &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_BAD_PREFERRED_TIMING);
	ASSERT_TRUE(!info.has_preferred);

	/* the first descriptor is a display descriptor */
	memcpy(b, monitor, sizeof(b));
	memcpy(b + D1, monitor + D2, 18);
	memset(b + D2, 0, 18);
	b[D2 + 3] = 0x10; /* dummy */
	fix_checksum(b);
	ASSERT_INT_EQ(decode_exact(b, sizeof(b), &info), -EBADMSG);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_NO_PREFERRED_TIMING);
	ASSERT_TRUE(!info.has_preferred);
	ASSERT_INT_EQ(info.preferred.hactive, 0);
	/* a later detailed timing is not the preferred one */
	memcpy(b + D2, monitor + D1, 18);
	fix_checksum(b);
	decode_exact(b, sizeof(b), &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_NO_PREFERRED_TIMING);
	ASSERT_TRUE(!info.has_preferred);
}

static int decode_with_descriptor_byte(int offset, int byte, uint8_t value,
				       struct edid_info *info)
{
	uint8_t b[EDID_BLOCK_SIZE];

	memcpy(b, monitor, sizeof(b));
	b[offset + byte] = value;
	fix_checksum(b);
	return decode_exact(b, sizeof(b), info);
}

static void test_odd_descriptors(void)
{
	struct edid_info info;

	/* reserved tags */
	decode_with_descriptor_byte(D2, 3, 0x42, &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_ODD_DESCRIPTOR);
	decode_with_descriptor_byte(D2, 3, 0x11, &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_ODD_DESCRIPTOR);
	decode_with_descriptor_byte(D2, 3, 0xf6, &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_ODD_DESCRIPTOR);
	/* defined tags, manufacturer tags and the dummy */
	ASSERT_INT_EQ(decode_with_descriptor_byte(D2, 3, 0xf7, &info), 0);
	ASSERT_INT_EQ(decode_with_descriptor_byte(D2, 3, 0x10, &info), 0);
	ASSERT_INT_EQ(decode_with_descriptor_byte(D2, 3, 0x00, &info), 0);
	ASSERT_INT_EQ(decode_with_descriptor_byte(D2, 3, 0x0f, &info), 0);
	/* reserved byte 2, then byte 4 (which range limits use) */
	decode_with_descriptor_byte(D3, 2, 0x01, &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_ODD_DESCRIPTOR);
	decode_with_descriptor_byte(D3, 4, 0x05, &info);
	ASSERT_INT_EQ(info.problems, EDID_PROBLEM_ODD_DESCRIPTOR);
	ASSERT_INT_EQ(decode_with_descriptor_byte(D2, 4, 0x02, &info), 0);
	/* the name is still read: the oddity is its byte 4, not its text */
	decode_with_descriptor_byte(D3, 4, 0x05, &info);
	ASSERT_STR_EQ(info.name, "DELL U2415");
}

static void test_problem_names(void)
{
	unsigned bits = 0;

	for (unsigned bit = 0; bit < EDID_PROBLEM_COUNT; bit++) {
		enum edid_problem p = (enum edid_problem)(1u << bit);
		const char *name = edid_problem_name(p),
			   *words = edid_problem_describe(p);

		ASSERT_TRUE(name != NULL);
		ASSERT_TRUE(words != NULL);
		if (!name || !words)
			continue;
		bits |= 1u << bit;
		/* each name once */
		for (unsigned other = 0; other < bit; other++)
			ASSERT_TRUE(strcmp(name, edid_problem_name((enum edid_problem)(
							 1u << other))) != 0);
	}
	ASSERT_INT_EQ(bits, EDID_PROBLEM_ALL);
	ASSERT_NULL(edid_problem_name((enum edid_problem)0));
	ASSERT_NULL(edid_problem_describe((enum edid_problem)0));
	ASSERT_NULL(edid_problem_name(
		(enum edid_problem)(EDID_PROBLEM_EMPTY | EDID_PROBLEM_SHORT)));
	ASSERT_NULL(edid_problem_name((enum edid_problem)(1u << EDID_PROBLEM_COUNT)));
	ASSERT_STR_EQ(edid_problem_name(EDID_PROBLEM_BAD_CHECKSUM), "bad-checksum");
	ASSERT_STR_EQ(edid_problem_name(EDID_PROBLEM_NAME_UNTERMINATED),
		      "name-unterminated");
	ASSERT_STR_EQ(edid_problem_name(EDID_PROBLEM_ODD_DESCRIPTOR), "odd-descriptor");
	ASSERT_STR_EQ(edid_problem_describe(EDID_PROBLEM_SHORT),
		      "the EDID is shorter than its 128-byte base block");
}

int main(void)
{
	test_arguments();
	test_template();
	test_lengths();
	test_header_and_checksum();
	test_vendor();
	test_date();
	test_size();
	test_name();
	test_serial_text();
	test_timing();
	test_odd_descriptors();
	test_problem_names();
	return test_finish("test-edid");
}
