/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The EDID base block (VESA E-EDID 1.4, structure version 1), decoded from
 * untrusted bytes such as /sys/class/drm/cardN-CONNECTOR/edid.  Pure: no
 * I/O, no allocation, no global state.  Debian 12 has no EDID library;
 * tests/edid-oracle.sh checks this decoder against edid-decode.
 *
 * Contract of edid_decode():
 * - It always fills *info (when info is not NULL): length, problems, and
 *   every field it could read from well-formed bytes.  A field that cannot
 *   be read is unknown, never guessed: vendor, name and serial_text are ""
 *   (a valid one is never empty), numbers documented with 0 as "not
 *   given" are 0, has_preferred is false.
 * - The base block is decoded (decoded = true) when there are at least 128
 *   bytes, the fixed header is there and the structure version is 1.  A
 *   bad checksum does not stop the decoding: the fields say what the
 *   monitor claims, the problems say it must not be believed.
 * - Empty, short or bad header: decoded is false and nothing but length
 *   and problems is filled.  Another structure version: the same, plus
 *   checksum_ok, extensions, version and revision.
 * - A field whose own bytes are bad is unknown while the rest is read: a
 *   bad manufacturer id (vendor ""), a week out of range (week 0), a name
 *   or serial string with a byte that is not printable ASCII (""), a
 *   first descriptor that is no usable timing (has_preferred false).  A
 *   name without its terminator, or with bad padding after it, is still
 *   printable and kept as sent.
 * - An EDID is trusted only when problems is 0.  Show the fields of an
 *   untrusted one next to its problems, and never act on them (rules,
 *   links).
 * - Extension blocks are not decoded; their number and checksums are
 *   checked.
 *
 * Returns 0 when the EDID is trusted, -ENODATA when it is empty, -EBADMSG
 * when it has any other problem, -EINVAL when info is NULL or data is NULL
 * with len > 0. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDID_BLOCK_SIZE 128
/* A display descriptor holds up to 13 bytes of text. */
#define EDID_TEXT_MAX 13

/* What is wrong with an EDID: bits of edid_info.problems. */
enum edid_problem {
	EDID_PROBLEM_EMPTY = 1u << 0, /* 0 bytes (nothing else is checked) */
	EDID_PROBLEM_SHORT =
		1u << 1, /* 1..127 bytes, no whole base block (nothing else is checked) */
	EDID_PROBLEM_BAD_HEADER =
		1u << 2, /* not 00 ff ff ff ff ff ff 00 (nothing else is checked) */
	EDID_PROBLEM_BAD_CHECKSUM = 1u << 3, /* the base block does not sum to 0 mod 256 */
	EDID_PROBLEM_BAD_VERSION = 1u
				   << 4, /* structure version is not 1: layout unknown */
	EDID_PROBLEM_LENGTH_NOT_BLOCKS = 1u << 5, /* length is not a multiple of 128 */
	EDID_PROBLEM_EXTENSION_COUNT =
		1u << 6, /* byte 126 disagrees with the whole blocks present */
	EDID_PROBLEM_EXTENSION_CHECKSUM = 1u
					  << 7, /* an extension block does not sum to 0 */
	EDID_PROBLEM_BAD_VENDOR = 1u << 8, /* a manufacturer letter is not A..Z */
	EDID_PROBLEM_BAD_DATE = 1u << 9, /* week not 0..54 (or 0xff with EDID 1.4) */
	EDID_PROBLEM_NO_PREFERRED_TIMING =
		1u << 10, /* first descriptor is not a detailed timing */
	EDID_PROBLEM_BAD_PREFERRED_TIMING =
		1u << 11, /* first detailed timing has no pixels or lines */
	EDID_PROBLEM_NAME_UNTERMINATED = 1u << 12, /* name padded with spaces, no 0x0a */
	EDID_PROBLEM_NAME_NONPRINTABLE = 1u << 13, /* a name byte is not printable ASCII */
	EDID_PROBLEM_NAME_BAD_PADDING = 1u
					<< 14, /* a byte other than 0x20 after the 0x0a */
	EDID_PROBLEM_NAME_EMPTY = 1u << 15, /* the name descriptor holds no text */
	EDID_PROBLEM_SERIAL_UNTERMINATED =
		1u << 16, /* the same four, for the serial string */
	EDID_PROBLEM_SERIAL_NONPRINTABLE = 1u << 17,
	EDID_PROBLEM_SERIAL_BAD_PADDING = 1u << 18,
	EDID_PROBLEM_SERIAL_EMPTY = 1u << 19,
	EDID_PROBLEM_ODD_DESCRIPTOR =
		1u << 20, /* reserved tag, or reserved byte 2 or 4 not 0 */
};
#define EDID_PROBLEM_COUNT 21
#define EDID_PROBLEM_ALL   ((1u << EDID_PROBLEM_COUNT) - 1)

/* The first detailed timing descriptor: the preferred mode, as EDID 1.3
 * and later define it.  (A CTA-861 extension can name another, which
 * edid-decode then warns about; extensions are not decoded here.) */
struct edid_timing {
	uint32_t pixel_clock_khz; /* 10..655350, in steps of 10 */
	uint16_t hactive, vactive; /* of the frame (both fields when interlaced) */
	/* active + blanking; an interlaced frame has 2 * field + 1 lines */
	uint16_t htotal, vtotal;
	bool interlaced;
	/* Frames (fields when interlaced) per 1000 s, rounded to nearest:
	 * edid-decode's Hz times 1000.  0 for an absurdly slow timing. */
	uint64_t refresh_mhz;
};

struct edid_info {
	size_t length; /* bytes given */
	uint32_t problems; /* enum edid_problem bits; 0: trusted */
	bool decoded; /* the base block was read: the fields below mean something */
	bool checksum_ok; /* the base block sums to 0 (false when there is none) */
	uint8_t version, revision; /* bytes 18, 19: 1 and 4 for EDID 1.4 */
	char vendor[4]; /* PNP id, "DEL"; "" when a letter is not A..Z */
	uint16_t product; /* manufacturer's product code */
	uint32_t serial_number; /* the binary field; 0: not given */
	uint8_t week; /* 1..54; 0: not given or bad */
	bool model_year; /* year is the model year, not the year of manufacture */
	uint16_t year; /* 1990..2245 */
	uint8_t width_cm, height_cm; /* both 0 unless both are given */
	uint8_t extensions; /* extension blocks byte 126 announces */
	/* The first monitor name (0xfc) and serial string (0xff) descriptors,
	 * printable ASCII only. */
	char name[EDID_TEXT_MAX + 1];
	char serial_text[EDID_TEXT_MAX + 1];
	bool has_preferred;
	struct edid_timing preferred;
};

int edid_decode(const uint8_t *data, size_t len, struct edid_info *info);

/* A problem's short name for scripts ("bad-checksum"), and the same in
 * words for messages ("the base block's checksum is wrong").  One bit per
 * call; NULL for 0, several bits or an unknown bit. */
const char *edid_problem_name(enum edid_problem problem);
const char *edid_problem_describe(enum edid_problem problem);
