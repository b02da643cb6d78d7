#!/bin/bash
# The daemon's reload as systemd sees it, without systemd: a socket bound
# as NOTIFY_SOCKET reads its datagrams.  READY=1 after the start-up
# coldplug (and the --metrics file is there by then); SIGHUP gives
# RELOADING=1 with a MONOTONIC_USEC= not before the signal, then READY=1
# (what Type=notify-reload waits for); a broken rules file keeps the old
# rules and logs FILE:LINE: reason; "daemon --reload PID" (ExecReload= for
# systemd 252) returns only once the rules are read again and the metrics
# rewritten; SIGTERM gives STOPPING=1 and exit 0.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

# umockdev-run itself: the daemon must be its child (tests/umockdev-run.sh)
UMOCKDEV_RUN=${UMOCKDEV_RUN_REAL:-${UMOCKDEV_RUN:-$(command -v umockdev-run)}}
[ -x "$UMOCKDEV_RUN" ] || skip "umockdev-run not found (Debian package umockdev)"
command -v python3 >/dev/null || skip "python3 not found (Debian package python3)"
[ -x "$FBCLASSCTL" ] || skip "$FBCLASSCTL not built"
case $FBCLASSCTL in /*) ;; *) FBCLASSCTL=$PWD/$FBCLASSCTL ;; esac

work=$(mktemp -d /tmp/fbclassctl-reload.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/dev"

python3 - "$UMOCKDEV_RUN" "$FBCLASSCTL" "$top_srcdir/tests/fixtures/captured/drm-bochs.umockdev" \
	"$work" <<'PY'
import os, signal, socket, subprocess, sys, time

umockdev, fbc, fixture, work = sys.argv[1:5]
conf, prom, log = work + "/rules.conf", work + "/fb.prom", work + "/daemon.log"
failed = 0


def ok(cond, name, detail=""):
    global failed
    print(("ok - " if cond else "not ok - ") + name)
    if not cond:
        failed += 1
        for line in str(detail).splitlines():
            print("#   " + line)


def logtext():
    with open(log, errors="replace") as f:
        return f.read()


sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
name = "fbclassctl-reload-%d" % os.getpid()
sock.bind("\0" + name)
sock.settimeout(60)


def recv():
    try:
        return sock.recv(4096).decode()
    except socket.timeout:
        return "(nothing within 60 s)"


with open(conf, "w") as f:
    f.write("driver=bochs-drm link=display/one\n")
env = dict(os.environ, NOTIFY_SOCKET="@" + name)
with open(log, "w") as logf:
    umd = subprocess.Popen([umockdev, "-d", fixture, "--", fbc, "daemon", "--dev", work + "/dev",
                            "--config", conf, "--metrics", prom], env=env, stderr=logf,
                           stdout=subprocess.DEVNULL)
msg = recv()
ok(msg == "READY=1", "READY=1 after the start-up coldplug", msg + "\n" + logtext())
ok(os.path.exists(prom) and "fbclassctl_build_info" in open(prom).read(),
   "--metrics FILE is written before READY=1")
# the daemon: umockdev-run's child
with open("/proc/%d/task/%d/children" % (umd.pid, umd.pid)) as f:
    dpid = int(f.read().split()[0])


def reload_by_sighup(what):
    t0 = time.monotonic_ns() // 1000
    os.kill(dpid, signal.SIGHUP)
    m1, m2 = recv(), recv()
    lines = m1.split("\n")
    usec = int(lines[1][len("MONOTONIC_USEC="):]) if len(lines) == 2 and \
        lines[1].startswith("MONOTONIC_USEC=") else -1
    ok(lines[0] == "RELOADING=1" and usec >= t0,
       what + ": RELOADING=1 with MONOTONIC_USEC= after the signal (%d >= %d)" % (usec, t0), m1)
    ok(m2 == "READY=1", what + ": then READY=1", m2)


with open(conf, "w") as f:
    f.write("driver=bochs-drm link=display/one\ndriver=bochs-drm link=display/two\n")
reload_by_sighup("SIGHUP")
ok("reloaded, 2 rules" in logtext(), "SIGHUP: the new rules are read", logtext())

with open(conf, "w") as f:
    f.write("driver=bochs-drm link=display/one\nthis is no rule\n")
reload_by_sighup("SIGHUP, broken rules")
text = logtext()
ok(("%s:2: " % conf) in text, "broken rules: FILE:LINE: reason logged", text)
ok("not reloaded; the rules read before stay in force" in text,
   "broken rules: the old rules stay", text)

# --reload: returns once the daemon has reloaded, the metrics rewritten
with open(conf, "w") as f:
    f.write("driver=bochs-drm link=display/three\n")
os.unlink(prom)
r = subprocess.run([fbc, "daemon", "--reload", str(dpid)], capture_output=True, text=True,
                   timeout=150)
ok(r.returncode == 0, "--reload PID exits 0", r.stderr)
ok("reloaded, 1 rule" in logtext(), "--reload returns after the rules were read", logtext())
ok(os.path.exists(prom), "--reload returns after the metrics were written again")
m1, m2 = recv(), recv()
ok(m1.startswith("RELOADING=1\nMONOTONIC_USEC=") and m2 == "READY=1",
   "--reload: RELOADING=1, READY=1 too", m1 + "|" + m2)

r = subprocess.run([fbc, "daemon", "--reload", "abc"], capture_output=True, text=True)
ok(r.returncode == 2, "--reload abc: usage error (exit %d)" % r.returncode, r.stderr)
# a pid that is no process: past pid_max
r = subprocess.run([fbc, "daemon", "--reload", "2147483647"], capture_output=True, text=True)
ok(r.returncode == 1 and "--reload 2147483647: no such process" in r.stderr,
   "--reload of no process: exit 1, said (exit %d)" % r.returncode, r.stderr)

os.kill(dpid, signal.SIGTERM)
msg = recv()
ok(msg == "STOPPING=1", "SIGTERM: STOPPING=1", msg)
ok(umd.wait(timeout=60) == 0, "SIGTERM: exit 0", logtext())
print("# %d failed" % failed)
sys.exit(1 if failed else 0)
PY
