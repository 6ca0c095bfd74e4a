#!/usr/bin/env python3
"""Input and output that fail are clean errors: relay exits 1 with a message on stderr when its stdout
is full (/dev/full) or closed, never 0 (issue "Reliability": output lost silently), and a source
past 1 GiB (/dev/zero, endless) is refused with a message instead of exhausting memory. TAP.
A pipe whose reader goes away ends the run the same way.
Usage: io_errors.py RELAY"""
import os
import subprocess
import sys

relay = sys.argv[1]
cases = []


def run(name, stdout):
    p = subprocess.run([relay, "--no-prelude", "-e", "zeros(shape=[100])"], stdout=stdout, stderr=subprocess.PIPE,
                       text=True)
    ok = p.returncode == 1 and "cannot write the output" in p.stderr
    cases.append((ok, name, "status %d, stderr %r" % (p.returncode, p.stderr[-300:])))


if os.path.exists("/dev/full"):
    with open("/dev/full", "w") as full:
        run("stdout on /dev/full: exit 1 with a message", full)
else:
    cases.append((None, "stdout on /dev/full", "no /dev/full here"))
p = subprocess.run("exec %s --no-prelude -e 'zeros(shape=[100])' >&-" % relay, shell=True, stderr=subprocess.PIPE,
                   text=True)
cases.append((p.returncode == 1 and "cannot write the output" in p.stderr, "stdout closed: exit 1 with a message",
              "status %d, stderr %r" % (p.returncode, p.stderr[-300:])))
# A reader that goes away: the rest of the output fails with EPIPE (relay ignores SIGPIPE), which
# stops the run with a message and status 1, not a death by signal nor a silent 0.
many = "\n".join("1 + %d" % i for i in range(100000)) + "\n"
p = subprocess.Popen([relay, "--no-prelude", "/dev/stdin"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
p.stdin.write(many)
p.stdin.close()
p.stdout.readline()
p.stdout.close()
err = p.stderr.read()
p.wait(timeout=120)
cases.append((p.returncode == 1 and "cannot write the output: Broken pipe" in err,
              "a pipe closed by its reader: exit 1 with a message", "status %d, stderr %r" % (p.returncode, err[-300:])))
if os.path.exists("/dev/zero"):
    p = subprocess.run([relay, "/dev/zero"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    cases.append((p.returncode == 1 and "larger than 1 GiB" in p.stderr, "an endless source (/dev/zero): refused at 1 GiB",
                  "status %d, stderr %r" % (p.returncode, p.stderr[-300:])))
print("1..%d" % len(cases))
failed = 0
for i, (ok, name, detail) in enumerate(cases, 1):
    if ok is None:
        print("ok %d - %s # SKIP %s" % (i, name, detail))
    elif ok:
        print("ok %d - %s" % (i, name))
    else:
        failed += 1
        print("not ok %d - %s\n# %s" % (i, name, detail))
sys.exit(1 if failed else 0)
