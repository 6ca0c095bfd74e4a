#!/usr/bin/env python3
"""Shapes at the int64 limit through every operator's relation: in each golden test with typed
definitions (tests/golden/ops, type_errors, types, typing), each of the first dimensions written in a
`Tensor[(...)]` is replaced in turn by a value at the limit (2^63 - 1, 2^62, 3037000500, whose square
passes it), and `relay --no-prelude --types` must end normally: a type or a clean error ("dimension
too large"), exit status 0 or 1, no signal, no internal error, and in a UBSan build no "runtime
error" report (an overflow there once gave a wrong type in release builds). TAP.
Usage: huge_dims.py RELAY TESTS_GOLDEN_DIR"""
import glob
import os
import re
import subprocess
import sys

relay, golden = sys.argv[1], sys.argv[2]
BIGS = ["9223372036854775807", "4611686018427387904", "3037000500"]
PER_FILE = 4  # dimensions replaced per file

files = []
for area in ("ops", "type_errors", "types", "typing"):
    files += sorted(glob.glob(os.path.join(golden, area, "*.rly")))
problems, runs = [], 0
for path in files:
    text = open(path).read()
    dims = [(m.start(1) + n.start(), m.start(1) + n.end())
            for m in re.finditer(r"Tensor\[\(([^)]*)\)", text) for n in re.finditer(r"\b\d+\b", m.group(1))]
    for k, (a, b) in enumerate(dims[:PER_FILE]):
        big = BIGS[k % len(BIGS)]
        mutated = text[:a] + big + text[b:]
        p = subprocess.run([relay, "--no-prelude", "--types", "/dev/stdin"], input=mutated.encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        runs += 1
        err = p.stderr.decode(errors="replace")
        if p.returncode not in (0, 1) or "internal error" in err or "runtime error" in err:
            problems.append("%s, dimension %d as %s: status %d, %s" % (os.path.relpath(path, golden), k, big,
                                                                      p.returncode, err.strip()[-300:]))
print("1..1")
print("%s 1 - %d definitions with a dimension at the int64 limit (%d files) end normally" %
      ("ok" if not problems else "not ok", runs, len(files)))
for p in problems[:10]:
    print("# " + p.replace("\n", "\n# "))
sys.exit(1 if problems else 0)
