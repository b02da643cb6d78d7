#!/usr/bin/python3
"""tty-run.py COLS CMD...: run CMD with its stdout on a pseudo-terminal
COLS columns wide (and 50 lines), stdin and stderr as given, COLUMNS and
LINES unset so that the terminal's size is all it can go by; copy what it
wrote to our stdout (no output processing: '\\n' stays '\\n') and exit as
it did."""
import fcntl
import os
import struct
import subprocess
import sys
import termios


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: tty-run.py COLS CMD...")
    cols = int(sys.argv[1])
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.OPOST
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen(sys.argv[2:], stdout=slave, env=env)
    os.close(slave)
    out = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer has closed the terminal
            break
        if not chunk:
            break
        out += chunk
    rc = proc.wait()
    sys.stdout.buffer.write(out)
    sys.exit(rc if rc >= 0 else 128 - rc)


main()
