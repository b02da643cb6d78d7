/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The EDID base block decoder: see edid.h for the contract.  Offsets and
 * field layouts are those of VESA E-EDID 1.4 (section 3). */
#include <errno.h>
#include <string.h>

#include "edid.h"
#include "macro.h"

static const uint8_t edid_header[8] = { 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00 };

#define EDID_DESCRIPTOR_SIZE  18
#define EDID_FIRST_DESCRIPTOR 54
#define EDID_DESCRIPTORS      4

/* Display descriptor tags (EDID 1.4 table 3.19) this decoder reads. */
#define EDID_TAG_SERIAL	      0xff
#define EDID_TAG_NAME	      0xfc
#define EDID_TAG_RANGE_LIMITS 0xfd
/* 0x11..0xf6 are reserved; 0x00..0x0f belong to the manufacturer. */
#define EDID_TAG_RESERVED_FIRST 0x11
#define EDID_TAG_RESERVED_LAST	0xf6

static bool block_sums_to_zero(const uint8_t *block)
{
	uint8_t sum = 0;

	for (size_t i = 0; i < EDID_BLOCK_SIZE; i++)
		sum += block[i];
	return sum == 0;
}

/* Three 5-bit letters, 1 = 'A', big endian in bytes 8 and 9; bit 15 is
 * reserved and ignored, as edid-decode does. */
static bool decode_vendor(const uint8_t *base, char vendor[4])
{
	unsigned id = (unsigned)base[8] << 8 | base[9];

	for (int i = 0; i < 3; i++) {
		unsigned letter = (id >> (10 - 5 * i)) & 0x1f;

		if (letter < 1 || letter > 26) {
			vendor[0] = '\0';
			return false;
		}
		vendor[i] = (char)('A' + letter - 1);
	}
	vendor[3] = '\0';
	return true;
}

/* Week 0 means "not given"; 0xff, from EDID 1.4 on, that the year is a
 * model year.  Anything else past week 54 is no week at all. */
static bool decode_date(const uint8_t *base, struct edid_info *info)
{
	uint8_t week = base[16];

	info->year = (uint16_t)(1990 + base[17]);
	if (week == 0xff && info->revision >= 4) {
		info->model_year = true;
		return true;
	}
	if (week > 54)
		return false;
	info->week = week;
	return true;
}

/* The problems of one text descriptor kind, so name and serial string
 * share the reading rules. */
struct text_problems {
	uint32_t unterminated, nonprintable, bad_padding, empty;
};

static const struct text_problems name_problems = {
	EDID_PROBLEM_NAME_UNTERMINATED,
	EDID_PROBLEM_NAME_NONPRINTABLE,
	EDID_PROBLEM_NAME_BAD_PADDING,
	EDID_PROBLEM_NAME_EMPTY,
};

static const struct text_problems serial_problems = {
	EDID_PROBLEM_SERIAL_UNTERMINATED,
	EDID_PROBLEM_SERIAL_NONPRINTABLE,
	EDID_PROBLEM_SERIAL_BAD_PADDING,
	EDID_PROBLEM_SERIAL_EMPTY,
};

/* Bytes 5..17 of a text descriptor: up to 13 characters, ended by 0x0a and
 * padded with 0x20 when shorter (EDID 1.4 section 3.10.3).  The text is
 * copied only when every character is printable ASCII, so what a table or
 * a rule sees is exactly what the monitor sent, or nothing. */
static uint32_t decode_text(const uint8_t *text, const struct text_problems *kind,
			    char out[EDID_TEXT_MAX + 1])
{
	uint32_t problems = 0;
	size_t len = 0;

	while (len < EDID_TEXT_MAX && text[len] != 0x0a)
		len++;
	for (size_t i = len + 1; i < EDID_TEXT_MAX; i++)
		if (text[i] != 0x20)
			problems |= kind->bad_padding;
	if (len == 0)
		return problems | kind->empty;
	for (size_t i = 0; i < len; i++)
		if (text[i] < 0x20 || text[i] > 0x7e)
			return problems | kind->nonprintable;
	/* 13 characters need no terminator; fewer, padded, do. */
	if (len == EDID_TEXT_MAX && text[len - 1] == 0x20)
		problems |= kind->unterminated;
	memcpy(out, text, len);
	out[len] = '\0';
	return problems;
}

/* An 18-byte detailed timing descriptor (EDID 1.4 section 3.10.2). */
static bool decode_timing(const uint8_t *d, struct edid_timing *t)
{
	unsigned clock_10khz = (unsigned)d[0] | (unsigned)d[1] << 8;
	unsigned hactive = d[2] | (d[4] >> 4) << 8;
	unsigned hblank = d[3] | (d[4] & 0x0f) << 8;
	unsigned vactive = d[5] | (d[7] >> 4) << 8;
	unsigned vblank = d[6] | (d[7] & 0x0f) << 8;
	uint64_t pixels_per_frame, numerator;

	if (clock_10khz == 0 || hactive == 0 || vactive == 0)
		return false;
	t->pixel_clock_khz = clock_10khz * 10;
	t->interlaced = d[17] & 0x80;
	t->hactive = (uint16_t)hactive;
	t->htotal = (uint16_t)(hactive + hblank);
	/* The descriptor gives one field of an interlaced frame; the frame has
	 * both, and the half line between them (as DRM and edid-decode count). */
	if (t->interlaced) {
		t->vactive = (uint16_t)(2 * vactive);
		t->vtotal = (uint16_t)(2 * (vactive + vblank) + 1);
	} else {
		t->vactive = (uint16_t)vactive;
		t->vtotal = (uint16_t)(vactive + vblank);
	}
	pixels_per_frame = (uint64_t)t->htotal * t->vtotal;
	/* mHz = 1000 * Hz / pixels per frame; fields count twice per frame */
	numerator = (uint64_t)t->pixel_clock_khz * 1000 * 1000 * (t->interlaced ? 2 : 1);
	t->refresh_mhz = (numerator + pixels_per_frame / 2) / pixels_per_frame;
	return true;
}

/* Bytes 0-4 of a display descriptor: 00 00 00 tag 00, where range limits
 * use byte 4 for their offsets. */
static bool display_descriptor_is_odd(const uint8_t *d)
{
	uint8_t tag = d[3];

	if (d[2] != 0)
		return true;
	if (d[4] != 0 && tag != EDID_TAG_RANGE_LIMITS)
		return true;
	return tag >= EDID_TAG_RESERVED_FIRST && tag <= EDID_TAG_RESERVED_LAST;
}

static void decode_descriptors(const uint8_t *base, struct edid_info *info)
{
	bool have_name = false, have_serial = false;

	for (int i = 0; i < EDID_DESCRIPTORS; i++) {
		const uint8_t *d =
			base + EDID_FIRST_DESCRIPTOR + i * EDID_DESCRIPTOR_SIZE;
		bool is_timing = d[0] != 0 || d[1] != 0;

		if (i == 0) {
			if (!is_timing)
				info->problems |= EDID_PROBLEM_NO_PREFERRED_TIMING;
			else if (decode_timing(d, &info->preferred))
				info->has_preferred = true;
			else
				info->problems |= EDID_PROBLEM_BAD_PREFERRED_TIMING;
		}
		if (is_timing)
			continue;
		if (display_descriptor_is_odd(d))
			info->problems |= EDID_PROBLEM_ODD_DESCRIPTOR;
		/* The first of each counts, as the kernel's
		 * drm_edid_get_monitor_name() takes the first name. */
		if (d[3] == EDID_TAG_NAME && !have_name) {
			have_name = true;
			info->problems |= decode_text(d + 5, &name_problems, info->name);
		} else if (d[3] == EDID_TAG_SERIAL && !have_serial) {
			have_serial = true;
			info->problems |=
				decode_text(d + 5, &serial_problems, info->serial_text);
		}
	}
}

/* Byte 126 against the whole blocks present, and each extension's checksum. */
static void check_extensions(const uint8_t *data, size_t len, struct edid_info *info)
{
	size_t blocks = len / EDID_BLOCK_SIZE;

	info->extensions = data[126];
	if (len % EDID_BLOCK_SIZE != 0)
		info->problems |= EDID_PROBLEM_LENGTH_NOT_BLOCKS;
	if (blocks != (size_t)info->extensions + 1)
		info->problems |= EDID_PROBLEM_EXTENSION_COUNT;
	for (size_t b = 1; b < blocks; b++)
		if (!block_sums_to_zero(data + b * EDID_BLOCK_SIZE))
			info->problems |= EDID_PROBLEM_EXTENSION_CHECKSUM;
}

static int decode_result(const struct edid_info *info)
{
	if (info->problems == 0)
		return 0;
	return info->problems & EDID_PROBLEM_EMPTY ? -ENODATA : -EBADMSG;
}

int edid_decode(const uint8_t *data, size_t len, struct edid_info *info)
{
	if (!info || (!data && len > 0))
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->length = len;
	if (len == 0) {
		info->problems = EDID_PROBLEM_EMPTY;
		return decode_result(info);
	}
	if (len < EDID_BLOCK_SIZE) {
		info->problems = EDID_PROBLEM_SHORT;
		return decode_result(info);
	}
	if (memcmp(data, edid_header, sizeof(edid_header)) != 0) {
		info->problems = EDID_PROBLEM_BAD_HEADER;
		return decode_result(info);
	}
	info->checksum_ok = block_sums_to_zero(data);
	if (!info->checksum_ok)
		info->problems |= EDID_PROBLEM_BAD_CHECKSUM;
	check_extensions(data, len, info);
	info->version = data[18];
	info->revision = data[19];
	if (info->version != 1) {
		info->problems |= EDID_PROBLEM_BAD_VERSION;
		return decode_result(info);
	}
	info->decoded = true;
	if (!decode_vendor(data, info->vendor))
		info->problems |= EDID_PROBLEM_BAD_VENDOR;
	info->product = (uint16_t)(data[10] | data[11] << 8);
	info->serial_number = (uint32_t)data[12] | (uint32_t)data[13] << 8 |
			      (uint32_t)data[14] << 16 | (uint32_t)data[15] << 24;
	if (!decode_date(data, info))
		info->problems |= EDID_PROBLEM_BAD_DATE;
	/* One of the two 0 is an aspect ratio (EDID 1.4) or "undefined": no size. */
	if (data[21] != 0 && data[22] != 0) {
		info->width_cm = data[21];
		info->height_cm = data[22];
	}
	decode_descriptors(data, info);
	return decode_result(info);
}

/* Each entry names its bit, so the table cannot drift out of order. */
static const struct {
	enum edid_problem problem;
	const char *name, *words;
} problem_texts[] = {
	{ EDID_PROBLEM_EMPTY, "empty", "the EDID is empty" },
	{ EDID_PROBLEM_SHORT, "short",
	  "the EDID is shorter than its 128-byte base block" },
	{ EDID_PROBLEM_BAD_HEADER, "bad-header",
	  "the EDID does not start with the fixed header 00 ff ff ff ff ff ff 00" },
	{ EDID_PROBLEM_BAD_CHECKSUM, "bad-checksum",
	  "the base block's checksum is wrong" },
	{ EDID_PROBLEM_BAD_VERSION, "bad-version", "the EDID structure version is not 1" },
	{ EDID_PROBLEM_LENGTH_NOT_BLOCKS, "length-not-blocks",
	  "the EDID length is not a multiple of 128 bytes" },
	{ EDID_PROBLEM_EXTENSION_COUNT, "extension-count",
	  "the number of extension blocks announced differs from the number present" },
	{ EDID_PROBLEM_EXTENSION_CHECKSUM, "extension-checksum",
	  "an extension block's checksum is wrong" },
	{ EDID_PROBLEM_BAD_VENDOR, "bad-vendor",
	  "the manufacturer id is not three letters A to Z" },
	{ EDID_PROBLEM_BAD_DATE, "bad-date", "the week of manufacture is out of range" },
	{ EDID_PROBLEM_NO_PREFERRED_TIMING, "no-preferred-timing",
	  "the first descriptor is not a detailed timing" },
	{ EDID_PROBLEM_BAD_PREFERRED_TIMING, "bad-preferred-timing",
	  "the preferred detailed timing has no pixels or no lines" },
	{ EDID_PROBLEM_NAME_UNTERMINATED, "name-unterminated",
	  "the monitor name is padded without its 0x0a terminator" },
	{ EDID_PROBLEM_NAME_NONPRINTABLE, "name-nonprintable",
	  "the monitor name holds bytes that are not printable ASCII" },
	{ EDID_PROBLEM_NAME_BAD_PADDING, "name-bad-padding",
	  "the monitor name's padding after 0x0a is not spaces" },
	{ EDID_PROBLEM_NAME_EMPTY, "name-empty", "the monitor name descriptor is empty" },
	{ EDID_PROBLEM_SERIAL_UNTERMINATED, "serial-unterminated",
	  "the serial string is padded without its 0x0a terminator" },
	{ EDID_PROBLEM_SERIAL_NONPRINTABLE, "serial-nonprintable",
	  "the serial string holds bytes that are not printable ASCII" },
	{ EDID_PROBLEM_SERIAL_BAD_PADDING, "serial-bad-padding",
	  "the serial string's padding after 0x0a is not spaces" },
	{ EDID_PROBLEM_SERIAL_EMPTY, "serial-empty",
	  "the serial string descriptor is empty" },
	{ EDID_PROBLEM_ODD_DESCRIPTOR, "odd-descriptor",
	  "a display descriptor has a reserved tag or reserved bytes set" },
};

const char *edid_problem_name(enum edid_problem problem)
{
	for (size_t i = 0; i < ARRAY_SIZE(problem_texts); i++)
		if (problem_texts[i].problem == problem)
			return problem_texts[i].name;
	return NULL;
}

const char *edid_problem_describe(enum edid_problem problem)
{
	for (size_t i = 0; i < ARRAY_SIZE(problem_texts); i++)
		if (problem_texts[i].problem == problem)
			return problem_texts[i].words;
	return NULL;
}
