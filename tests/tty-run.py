#!/usr/bin/python3
"""tty-run.py COLS CMD...: run CMD with its stdout on a pseudo-terminal
COLS columns wide (and 50 lines), stdin and stderr as given, COLUMNS and
LINES unset so that the terminal's size is all it can go by; copy what it
wrote to our stdout (no output processing: '\\n' stays '\\n') and exit as
it did.

The end of CMD's output is not read as the master's EIO: on Linux that
can come while the last bytes CMD wrote are still on their way to the
master, and they are lost (tty.sh saw a table's last line go, once in a
CI run, under load).  We keep the terminal open ourselves, and once CMD
has exited we write an end mark to it: what CMD wrote is ahead of it in
the same queue, so everything before the mark is all of CMD's output."""
import fcntl
import os
import struct
import subprocess
import sys
import termios
import threading


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
    mark = b"\0tty-run end " + os.urandom(8).hex().encode() + b"\0"

    def end():
        proc.wait()
        os.write(slave, mark)

    # CMD may write more than the terminal holds: read while it runs
    waiter = threading.Thread(target=end)
    waiter.start()
    out = bytearray()
    while mark not in out[-len(mark) - 65536:]:
        out += os.read(master, 65536)
    waiter.join()
    sys.stdout.buffer.write(out[:out.index(mark)])
    rc = proc.returncode
    sys.exit(rc if rc >= 0 else 128 - rc)


main()
