#!/usr/bin/env python3
"""Writes a straight-line Relay program of N let bindings over broadcasting operators.

Usage: gen.py N > program.rly

The bindings mix tensors of a symbolic shape (n, 4) with a broadcast row (1, 4) and unsuffixed
scalar literals, so every binding exercises the Broadcast relation, shape variables and literal
inference. The program is deterministic for a given N.
"""
import sys

OPS = ["+", "*", "-", "+", "*"]


def main():
    n = int(sys.argv[1])
    out = sys.stdout
    out.write("def @main(%x : Tensor[(n, 4), float32], %y : Tensor[(1, 4), float32]) {\n")
    for i in range(n):
        a = "%x" if i == 0 else "%%v%d" % (i - 1)
        if i % 7 == 3:
            b = "2"  # a literal: float32 from context
        elif i % 2 == 0:
            b = "%y"
        else:
            b = "%x" if i < 3 else "%%v%d" % (i - 3)
        out.write("  let %%v%d = %s %s %s;\n" % (i, a, OPS[i % len(OPS)], b))
    out.write("  %%v%d\n}\n" % (n - 1))


if __name__ == "__main__":
    main()
