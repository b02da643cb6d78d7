#!/usr/bin/python3
"""tty-fit.py --wrapped COLS TTY PIPE: are the lines a command printed on
a terminal COLS wide (TTY) the words it printed to a pipe (PIPE), in the
same order, wrapped in place: none wider than COLS but a fix (to be pasted
whole) or one word longer than the line?

tty-fit.py COLS TTY PIPE PAIRS LONG: does a table printed on a terminal
COLS wide (file TTY) keep each line of the same table printed to a pipe
(PIPE) on one line, the same first cell leading it, and, where its long
columns (LONG, comma-separated headings) cut to their heading would let
it fit (widths from the -P output PAIRS), no line wider than COLS?
Prints what is wrong, one line each; exits 1 if anything is."""
import re
import sys
import unicodedata


def width(text):
    """Columns a table takes for text: \\xHH for what is not printable."""
    w = 0
    for ch in text:
        if 0xDC80 <= ord(ch) <= 0xDCFF or unicodedata.category(ch) == "Cc":
            w += 4
        else:
            w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w


def read(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape").splitlines()


def pair_rows(path):
    rows = []
    for line in read(path):
        row = []
        for key, val in re.findall(r'(\S+?)="((?:[^"\\]|\\x[0-9a-f]{2})*)"', line):
            raw = re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]),
                         val.encode("utf-8", "surrogateescape"))
            row.append((key, raw.decode("utf-8", "surrogateescape")))
        rows.append(row)
    return rows


def wrapped(cols, tty, pipe):
    bad = []
    if " ".join(tty).split() != " ".join(pipe).split():
        bad.append("the words differ from those printed to a pipe")
    for i, t in enumerate(tty):
        if width(t.rstrip(" ")) > cols and not t.lstrip().startswith("fix: ") \
                and " " in t.strip():
            bad.append(f"line {i + 1} is {width(t.rstrip(' '))} wide on a terminal of {cols}: {t!r}")
    return bad


def main():
    if sys.argv[1] == "--wrapped":
        bad = wrapped(int(sys.argv[2]), read(sys.argv[3]), read(sys.argv[4]))
        for b in bad:
            print(b)
        sys.exit(1 if bad else 0)
    cols, tty, pipe, pairs, long_ = int(sys.argv[1]), read(sys.argv[2]), read(sys.argv[3]), \
        pair_rows(sys.argv[4]), set(sys.argv[5].split(","))
    bad = []
    if len(tty) != len(pipe):
        bad.append(f"{len(tty)} lines on the terminal, {len(pipe)} to a pipe: a line broke")
    for i, (t, p) in enumerate(zip(tty, pipe)):
        if t.split()[:1] != p.split()[:1]:
            bad.append(f"line {i + 1} starts {t.split()[:1]}, not {p.split()[:1]}")
    need = 0
    if pairs:
        keys = [k for k, _ in pairs[0]]
        need = len(keys) - 1
        for c, key in enumerate(keys):
            cells = [width(row[c][1]) for row in pairs if c < len(row)]
            need += width(key) if key in long_ else max([width(key)] + cells)
    if need <= cols:
        for i, t in enumerate(tty):
            if width(t.rstrip(" ")) > cols:
                bad.append(f"line {i + 1} is {width(t.rstrip(' '))} wide on a terminal of {cols}, "
                           f"and {need} would do: {t!r}")
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
