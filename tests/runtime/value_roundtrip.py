#!/usr/bin/env python3
"""Printing a value and reading it back gives an equal value (DESIGN §4); prints TAP.

Usage: value_roundtrip.py RELAY_BINARY

For each value (scalars of every dtype, random floats, tensors, tuples, constructors, refs) it runs
`relay -e EXPR`, then `relay -e PRINTED` and requires the same text back. Random floats are also
compared numerically: the shortest decimal printed must read back as exactly the same float32 or
float64. RELAY_ROUNDTRIP_SEED varies the random values.
"""
import os
import random
import struct
import subprocess
import sys
import tempfile

DEFS = """
data List<a> {
  Nil : () -> List
  Cons : (a, List[a]) -> List
}
data Optional<a> {
  None : () -> Optional
  Some : (a) -> Optional
}
"""

FIXED = [
    "3", "-2", "2147483647", "-2147483648", "7i64", "-9223372036854775807i64", "200u8", "18446744073709551615u64",
    "-128i8", "32767i16", "True", "False", "2.5f", "-0.1f", "1e20f", "1.5e-7f", "100000f", "3.4028234e38f",
    "1e-45f", "2.5f64", "0.1f64", "1e300f64", "5e-324f64", "2.5f16", "65504f16", "0.0999755859375f16",
    "(1, 2.5f)", "()", "(1,)", "((1, 2), (3, (4, True)))",
    "Cons(1, Cons(2, Nil()))", "Some((1, 2))", "None()", "Some(Some(Cons(1.5f, Nil())))",
    "[[1f, 2f], [3f, 4f]]", "[1, -2, 3]", "[[True, False]]", "[1i64, 2i64]", "[0.1f64, 0.2f64]",
    "[[[1u8, 2u8]], [[3u8, 4u8]]]", "Constant(0, (0, 3), float32)", "Constant(7, (2, 2), int8)",
    "ref(3)", "(ref(Cons(1, Nil())), 2)", "inff", "-inff", "nanf", "inff64", "-inff16", "[inff, nanf, -0f]",
    "2147483648i64",
]


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def relay(binary, defs, expr):
    p = subprocess.run([binary, "--no-prelude", defs, "-e", expr], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout.strip(), p.stderr.strip()


def main():
    binary = sys.argv[1]
    rng = random.Random(int(os.environ.get("RELAY_ROUNDTRIP_SEED", "1")))
    with tempfile.NamedTemporaryFile("w", suffix=".rly", delete=False) as f:
        f.write(DEFS)
        defs = f.name
    cases = list(FIXED)
    # Random floats of every magnitude, 400 to a tensor literal (below the summary threshold).
    for bits, suffix in ((32, "f"), (64, "f64")):
        for _ in range(3):
            vals = []
            for _ in range(400):
                x = rng.choice([rng.uniform(-1, 1), rng.uniform(-1e6, 1e6), 10 ** rng.uniform(-30, 30)])
                vals.append(f32(x) if bits == 32 else x)
            cases.append(("floats", bits, vals, "[" + ", ".join("%.17g%s" % (v, suffix) for v in vals) + "]"))
    print("1..%d" % len(cases))
    failed = 0
    for i, case in enumerate(cases, 1):
        expr = case if isinstance(case, str) else case[3]
        label = expr if isinstance(case, str) else "%d random float%d values" % (len(case[2]), case[1])
        code, first, err = relay(binary, defs, expr)
        problem = None
        if code != 0:
            problem = "relay -e failed: %s" % err[-300:]
        else:
            code2, second, err2 = relay(binary, defs, first)
            if code2 != 0:
                problem = "the printed value %r does not read back: %s" % (first[:200], err2[-300:])
            elif second != first:
                problem = "printed %r, read back and printed %r" % (first[:200], second[:200])
            elif not isinstance(case, str):
                suffix = "f" if case[1] == 32 else "f64"
                got = [float(t.strip()[: -len(suffix)]) for t in first.strip("[]").split(",")]
                if case[1] == 32:
                    got = [f32(g) for g in got]
                bad = [(a, b) for a, b in zip(case[2], got) if a != b]
                if len(got) != len(case[2]) or bad:
                    problem = "values changed: %r" % bad[:3]
        if problem:
            failed += 1
            print("not ok %d - %s" % (i, label[:80]))
            print("# " + problem)
        else:
            print("ok %d - %s" % (i, label[:80]))
    os.unlink(defs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
