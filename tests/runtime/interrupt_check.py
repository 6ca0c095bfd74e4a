#!/usr/bin/env python3
"""Ctrl-C while a long input is checked (issue "Reliability"): the REPL stops checking with an
"interrupted" error, changes nothing, and answers the next input. The input is a definition of
1,000,000 lets, which takes seconds to parse and check; SIGINT comes once it is under way. TAP.
Usage: interrupt_check.py RELAY"""
import os
import signal
import subprocess
import sys
import tempfile
import time

relay = sys.argv[1]
N = 1000000
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "long.rly")
    with open(path, "w") as f:
        f.write("def @long() {\n  let %x = 0;\n" + "  let %x = %x + 1;\n" * N + "  %x\n}\n")
    p = subprocess.Popen([relay, "--no-prelude"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    p.stdin.write(":load %s\n" % path)
    p.stdin.flush()
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    p.stdin.write("40 + 2\n@long\n")
    p.stdin.close()
    out, err = p.stdout.read(), p.stderr.read()
    p.wait(timeout=120)
cases = [
    (p.returncode in (0, 1), "relay ends normally after Ctrl-C (status %d)" % p.returncode),
    ("interrupted" in err, "the check stops with an 'interrupted' error"),
    ("- : int32 = 42" in out, "the next input is answered"),
    ("unknown global `@long`" in err, "the interrupted input changed nothing"),
]
print("1..%d" % len(cases))
for i, (ok, name) in enumerate(cases, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok:
        print("# stdout: %r\n# stderr: %r" % (out[-300:], err[-600:]))
sys.exit(0 if all(ok for ok, _ in cases) else 1)
