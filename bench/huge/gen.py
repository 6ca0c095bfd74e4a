#!/usr/bin/env python3
"""Writes one of the huge programs of the issue "Reliability" (section "Huge inputs").

Usage: gen.py CASE N > program.rly

  seq N     `let %x = 0;` then N lines `%x + 1;`, then `%x` (8 bytes a line: N = 13,000,000 is 100 MB)
  wide N    a function of N parameters, called once: `def @f(%p0, ..., %pN-1) { %p0 }` and `@f(0, ..., 0)`
  ctors N   a data type of N constructors and a match over all of them
  tuple N   a tuple of N elements, and its last field
The programs are deterministic for a given N and print 0, 0, 7 and N-1 when run.
"""
import sys


def seq(n, out):
    out.write("let %x = 0;\n")
    chunk = "%x + 1;\n" * 10000
    for _ in range(n // 10000):
        out.write(chunk)
    out.write("%x + 1;\n" * (n % 10000))
    out.write("%x\n")


def wide(n, out):
    out.write("def @f(")
    out.write(", ".join("%%p%d" % i for i in range(n)))
    out.write(") { %p0 }\n")
    out.write("@f(" + ", ".join("0" for _ in range(n)) + ")\n")


def ctors(n, out):
    out.write("type T {\n")
    for i in range(n):
        out.write("  C%d,\n" % i)
    out.write("}\n")
    out.write("def @f(%c : T) -> int32 {\n  match (%c) {\n")
    for i in range(n):
        out.write("    C%d => %d,\n" % (i, 7 if i == n - 1 else 0))
    out.write("  }\n}\n")
    out.write("@f(C%d)\n" % (n - 1))


def tuple_(n, out):
    out.write("let %t = (" + ", ".join(str(i) for i in range(n)) + ");\n")
    out.write("%%t.%d\n" % (n - 1))


CASES = {"seq": seq, "wide": wide, "ctors": ctors, "tuple": tuple_}

if __name__ == "__main__":
    CASES[sys.argv[1]](int(sys.argv[2]), sys.stdout)
