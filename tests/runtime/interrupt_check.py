#!/usr/bin/env python3
"""Ctrl-C while a long input is checked (issue "Reliability"): the REPL stops checking with an
"interrupted" error, changes nothing, and answers the next input, calls included (Ctrl-C trips the
evaluator's stack limit, which the next call must not take for an overflow). The input is a
definition of 1,000,000 lets, which takes seconds to parse and check; SIGINT comes once it is
under way. Then Ctrl-C during a deep non-tail recursion (fib, which no loop edge polls: the call's
stack compare notices it). TAP.
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
    p.stdin.write("def @down(%n : int32) -> int32 { if (%n == 0) { 0 } else { 1 + @down(%n - 1) } }\n@down(1000)\n")
    p.stdin.close()
    out, err = p.stdout.read(), p.stderr.read()
    p.wait(timeout=120)

    fib = "def @fib(%n : int32) -> int32 { if (%n < 2) { %n } else { @fib(%n - 1) + @fib(%n - 2) } }\n"
    q = subprocess.Popen([relay, "--no-prelude"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    q.stdin.write(fib + "@fib(50)\n")
    q.stdin.flush()
    time.sleep(0.5)
    q.send_signal(signal.SIGINT)
    q.stdin.write("@fib(10)\n")
    q.stdin.close()
    out2, err2 = q.stdout.read(), q.stderr.read()
    q.wait(timeout=120)
cases = [
    (p.returncode in (0, 1), "relay ends normally after Ctrl-C (status %d)" % p.returncode),
    ("interrupted" in err, "the check stops with an 'interrupted' error"),
    ("- : int32 = 42" in out, "the next input is answered"),
    ("unknown global `@long`" in err, "the interrupted input changed nothing"),
    ("- : int32 = 1000" in out and "overflow" not in err, "calls after the interrupted check run"),
    ("Interrupted." in err2, "Ctrl-C stops a deep non-tail recursion"),
    ("- : int32 = 55" in out2, "and the next input is answered"),
]
print("1..%d" % len(cases))
for i, (ok, name) in enumerate(cases, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok:
        print("# stdout: %r\n# stderr: %r\n# second stdout: %r\n# second stderr: %r" % (out[-300:], err[-600:], out2[-300:], err2[-600:]))
sys.exit(0 if all(ok for ok, _ in cases) else 1)
