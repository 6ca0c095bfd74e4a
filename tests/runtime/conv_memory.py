#!/usr/bin/env python3
"""A convolution's scratch memory is bounded (issue 29: nn.conv3d on a 3-D U-Net, 1x1x128^3, asked for
one 14.5 GB buffer). The kernels unfold the data (im2col) and gather the transposed convolution's
columns a block of positions at a time (runtime/conv.c, docs/runtime.md), so these run under a heap
capped at HEAP_MB, which the data and the result fit but one whole unfolding did not (the old kernels
asked for 226 MB and ended with "out of memory"). Then the blocks' edges, checked exactly on small
integers (every sum exact in float32): a blocked convolution against the transposed one of the
flipped weight (im2col against col2im), and a strided, dilated, padded one cut mid-row against the
sum of its strided slices. TAP.
Usage: conv_memory.py RELAY"""
import os
import struct
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402  (tests/tap.py)

relay = sys.argv[1]
HEAP_MB = 150


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def run(text, heap_mb=None):
    with tempfile.NamedTemporaryFile("w", suffix=".rly", delete=False) as f:
        f.write(text)
    env = dict(os.environ)
    if heap_mb:
        env["GC_MAXIMUM_HEAP_SIZE"] = str(heap_mb * 1000000)
    try:
        return subprocess.run([relay, "--no-prelude", f.name], capture_output=True, text=True, env=env, timeout=300)
    finally:
        os.unlink(f.name)


def number(text):
    return float(text.strip().rstrip("f"))


# Each output is the number of taps inside the data, per axis 3 * n - 2 summed: the sum over the
# outputs is channels * (3n - 2)^3 (times the input channels for the transposed one).
CAPPED = [
    ("nn.conv3d of 1x1x128^3 by 8x1x3x3x3, padded (the issue's U-Net layer)",
     "sum(nn.conv3d(ones(shape=[1, 1, 128, 128, 128]), ones(shape=[8, 1, 3, 3, 3]), padding=[1, 1, 1]))",
     8 * (3 * 128 - 2) ** 3),
    ("nn.conv3d_transpose of 1x8x64^3 by 8x8x3x3x3, padded",
     "sum(nn.conv3d_transpose(ones(shape=[1, 8, 64, 64, 64]), ones(shape=[8, 8, 3, 3, 3]), padding=[1, 1, 1]))",
     8 * 8 * (3 * 64 - 2) ** 3),
]


def pattern(n, m, shift, shape):
    return ('reshape(cast(floor_mod(arange(0, %d, dtype="int32"), %d), dtype="float32") - %df, newshape=%s)'
            % (n, m, shift, shape))


# x in -3..3, w in -2..2: |every output| <= 3 * 2 * 54, exact
TRANSPOSE_CHECK = """let %%x = %s;
let %%w = %s;
let %%a = nn.conv3d(%%x, %%w, padding=[1, 1, 1]);
let %%wt = transpose(reverse(reverse(reverse(%%w, axis=2), axis=3), axis=4), axes=[1, 0, 2, 3, 4]);
let %%b = nn.conv3d_transpose(%%x, %%wt, padding=[1, 1, 1]);
(max(abs(%%a - %%b)), min(%%a), max(%%a))
""" % (pattern(2 * 64 ** 3, 7, 3, "[1, 2, 64, 64, 64]"), pattern(3 * 2 * 27, 5, 2, "[3, 2, 3, 3, 3]"))

# 2048^2 data, stride 2, dilation 2, padding 2: output 1024^2, out[i, j] = sum over the taps of
# w[a, b] * padded[2 i + 2 a, 2 j + 2 b]
slices = " + ".join(
    "strided_slice(%%p, begin=[0, 0, %d, %d], end=[1, 1, %d, %d], strides=[1, 1, 2, 2]) * %df"
    % (2 * a, 2 * b, 2 * a + 2047, 2 * b + 2047, (3 * a + b) % 5 - 2) for a in range(3) for b in range(3))
STRIDED_CHECK = """let %%x = %s;
let %%w = %s;
let %%a = nn.conv2d(%%x, %%w, strides=[2, 2], dilation=[2, 2], padding=[2, 2]);
let %%p = nn.pad(%%x, pad_width=[[0, 0], [0, 0], [2, 2], [2, 2]]);
let %%b = %s;
(max(abs(%%a - %%b)), min(%%a), max(%%a))
""" % (pattern(2048 * 2048, 7, 3, "[1, 1, 2048, 2048]"), pattern(9, 5, 2, "[1, 1, 3, 3]"), slices)

results = []
for name, expr, total in CAPPED:
    p = run(expr + "\n", HEAP_MB)
    ok = p.returncode == 0
    try:
        ok = ok and f32(number(p.stdout)) == f32(total)
    except ValueError:
        ok = False
    results.append((ok, "%s: runs with the heap capped at %d MB, sum %d" % (name, HEAP_MB, total),
                    "exit %d, stdout %r, stderr %r" % (p.returncode, p.stdout[-200:], p.stderr[-300:])))

for name, text in [("nn.conv3d in blocks equals nn.conv3d_transpose of the flipped weight", TRANSPOSE_CHECK),
                   ("nn.conv2d strided, dilated, padded, in blocks cut mid-row, equals its strided slices summed",
                    STRIDED_CHECK)]:
    p = run(text)
    ok = p.returncode == 0
    try:
        diff, lo, hi = (number(v) for v in p.stdout.strip().strip("()").split(","))
        ok = ok and diff == 0 and lo < 0 < hi
    except ValueError:
        ok = False
    results.append((ok, name, "exit %d, stdout %r, stderr %r" % (p.returncode, p.stdout[-200:], p.stderr[-300:])))

sys.exit(tap.report(results))
