#!/usr/bin/env python3
"""Ctrl-C while a long input is checked (issue "Reliability"): the REPL stops checking with an
"interrupted" error, changes nothing, and answers the next input, calls included (Ctrl-C trips the
evaluator's stack limit, which the next call must not take for an overflow). The input is a
definition of 1,000,000 lets, which takes seconds to parse and check; SIGINT comes once it is
under way. Then Ctrl-C during a deep non-tail recursion (fib, which no loop edge polls: the call's
stack compare notices it). Then Ctrl-C during a long kernel of each operator family: the kernels poll
between blocks of work, so it stops within a bound (below). TAP.
Usage: interrupt_check.py RELAY"""
import os
import signal
import subprocess
import sys
import tempfile
import threading
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

# Ctrl-C during each family's long kernel: a loop of calls of one operator on large tensors (int8
# where the kernel allows, to keep the memory down), each call 3 to 5 s in a debug build, interrupted
# 1 s of CPU time into the loop: a kernel that did not poll would run on for seconds. The kernels poll
# between blocks of work, so "Interrupted." must come within LATENCY seconds (they take a few
# hundredths on an idle machine: generous, for a loaded one), and the session must answer the next
# input.
LATENCY = 1.0
KERNELS = [
    ("element-wise (add, broadcast rows of one element)",
     "add(ones(shape=[2, 100000000, 1], dtype=\"int8\"), ones(shape=[1, 100000000, 1], dtype=\"int8\"))"),
    ("reduction (argmax)", "argmax(ones(shape=[30000, 10000], dtype=\"int8\"), axis=[0])"),
    ("shape (tile)", "tile(ones(shape=[100000000], dtype=\"int8\"), reps=[4])"),
    ("creation (arange)", "arange(150000000.0f)"),
    ("matrix product (nn.dense, OpenBLAS)", "nn.dense(ones(shape=[7000, 7000]), ones(shape=[7000, 7000]))"),
    ("convolution (nn.conv2d)",
     "nn.conv2d(ones(shape=[1, 16, 512, 512], dtype=\"int8\"), ones(shape=[16, 16, 3, 3], dtype=\"int8\"), padding=[1, 1])"),
    ("data (cumsum)", "cumsum(ones(shape=[150000000], dtype=\"int8\"))"),
    ("normalization (nn.l2_normalize)", "nn.l2_normalize(ones(shape=[100000000], dtype=\"float16\"), eps=0.001f)"),
    ("quantized (qnn.quantize)", "qnn.quantize(ones(shape=[100000000]), 0.5f, 0)"),
    ("detection (vision.roi_align)",
     "vision.roi_align(ones(shape=[1, 16, 1024, 1024]), [[0f, 0f, 0f, 1000f, 1000f]], pooled_size=[512, 512], "
     "spatial_scale=1f, sample_ratio=4)"),
]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def interrupt_kernel(expr):
    """(seconds from SIGINT to "Interrupted.", or None; whether the next input was answered; stderr)."""
    k = subprocess.Popen([relay, "--no-prelude"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    seen, err = [], []

    def read_err():
        for line in k.stderr:
            err.append(line)
            if "Interrupted." in line and not seen:
                seen.append(time.monotonic())
    reader = threading.Thread(target=read_err)
    reader.start()
    k.stdin.write("def @go(%%n : int32) -> int32 { if (%%n == 0) { 0 } else { let %%y = %s; @go(%%n - 1) } }\n"
                  "@go(1000)\n" % expr)
    k.stdin.flush()
    deadline = time.monotonic() + 60
    while cpu_seconds(k.pid) < 1.0 and time.monotonic() < deadline:  # into the first call
        time.sleep(0.05)
    sent = time.monotonic()
    k.send_signal(signal.SIGINT)
    while not seen and time.monotonic() < sent + 30:
        time.sleep(0.002)
    k.stdin.write("40 + 2\n")
    k.stdin.close()
    out = k.stdout.read()
    k.wait(timeout=120)
    reader.join()
    return (seen[0] - sent if seen else None), "- : int32 = 42" in out, "".join(err)


kernel_cases = []
for name, expr in KERNELS:
    latency, answered, err3 = interrupt_kernel(expr)
    ok = latency is not None and latency < LATENCY and answered
    kernel_cases.append((ok, "Ctrl-C stops a long %s kernel within %g s (%s) and the next input is answered" %
                         (name, LATENCY, "%.3f s" % latency if latency is not None else "never"), err3))

cases = [
    (p.returncode in (0, 1), "relay ends normally after Ctrl-C (status %d)" % p.returncode),
    ("interrupted" in err, "the check stops with an 'interrupted' error"),
    ("- : int32 = 42" in out, "the next input is answered"),
    ("unknown global `@long`" in err, "the interrupted input changed nothing"),
    ("- : int32 = 1000" in out and "overflow" not in err, "calls after the interrupted check run"),
    ("Interrupted." in err2, "Ctrl-C stops a deep non-tail recursion"),
    ("- : int32 = 55" in out2, "and the next input is answered"),
]
print("1..%d" % (len(cases) + len(kernel_cases)))
for i, (ok, name) in enumerate(cases, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok:
        print("# stdout: %r\n# stderr: %r\n# second stdout: %r\n# second stderr: %r" % (out[-300:], err[-600:], out2[-300:], err2[-600:]))
for i, (ok, name, err3) in enumerate(kernel_cases, len(cases) + 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok:
        print("# stderr: %r" % err3[-600:])
sys.exit(0 if all(c[0] for c in cases + kernel_cases) else 1)
