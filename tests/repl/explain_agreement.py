#!/usr/bin/env python3
"""`:explain` agrees with the checker; prints TAP for `meson test`.

Usage: explain_agreement.py RELAY_BINARY [CASES]

For random pairs of shapes A and B (ranks 0 to 3; dimensions 1, 2, 3, 4, shape variables n and m,
n * 2, 2 * n, `?`), one session defines `def @f(%x : Tensor[A, float32], %y : Tensor[B, float32])
{ %x + %y }`, then asks `:explain add(Tensor[A, float32], Tensor[B, float32])` and, when the
definition failed, `:explain` of that last error. The explanation must reach the checker's verdict:
the same result type as @f's, or the checker's very message (`so relay reports: MSG`) with the axis
that the message names marked as failing in the table; the last-error form must report the same
message too. The seed is fixed, so a failure can be rerun.
"""
import random
import subprocess
import sys

SYNC = ":t 8675309"
SYNC_ANSWER = "8675309 : int32"
COUNTS = {"ok": 0, "fail": 0}
DIMS = ["1", "1", "2", "3", "4", "n", "m", "n * 2", "2 * n", "?"]


def shape(rng):
    return "(" + ", ".join(rng.choice(DIMS) for _ in range(rng.randint(0, 3))) + ")"


def ask(p, line):
    """The lines relay prints for one input."""
    p.stdin.write(line + "\n" + SYNC + "\n")
    p.stdin.flush()
    out = []
    while True:
        l = p.stdout.readline()
        if not l:
            raise RuntimeError("relay stopped after: " + line)
        l = l.rstrip("\n")
        if l == SYNC_ANSWER:
            return out
        out.append(l)


def error_message(lines):
    """The message of a type error (`<repl>:1:5: type error: MSG`), or None."""
    for l in lines:
        if ": type error: " in l:
            return l.split(": type error: ", 1)[1]
    return None


def reported(lines):
    for l in lines:
        if l.startswith("so relay reports: "):
            return l[len("so relay reports: "):]
    return None


def check(p, a, b):
    """Problems with one pair of shapes (an empty list when all agree)."""
    ta, tb = "Tensor[%s, float32]" % a, "Tensor[%s, float32]" % b
    d = ask(p, "def @f(%%x : %s, %%y : %s) { %%x + %%y }" % (ta, tb))
    e = ask(p, ":explain add(%s, %s)" % (ta, tb))
    err = error_message(d)
    said = reported(e)
    problems = []
    COUNTS["fail" if err else "ok"] += 1
    if err is None:
        if not d or " -> " not in d[0]:
            return ["no type for @f: %r" % d]
        want = d[0].rsplit(" -> ", 1)[1]
        got = [l[len("result: "):] for l in e if l.startswith("result: ")]
        if got != [want]:
            problems.append("@f gives %s, :explain says %r" % (want, e))
        return problems
    if said != err:
        problems.append("the checker says %r, :explain says %r" % (err, e))
    # The note names the failing dimensions: that axis of the result is marked in the table.
    for l in d:
        if l.strip().startswith("dimension ") and "of the first argument is" in l:
            pa = int(l.split()[1])
            ra = 0 if a == "()" else a.count(",") + 1
            rb = 0 if b == "()" else b.count(",") + 1
            r = max(ra, rb)
            axis = r - 1 - (ra - 1 - pa)
            if not any(x.startswith("axis %d: " % axis) and x.endswith("✗") for x in e):
                problems.append("axis %d is not marked as failing: %r" % (axis, e))
    last = ask(p, ":explain")
    if reported(last) != err:
        problems.append("the last-error form says %r, the checker %r" % (last, err))
    return problems


def main():
    relay = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    rng = random.Random(19)
    p = subprocess.Popen([relay, "--no-prelude"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    failed, failures, seen = 0, [], set()
    for _ in range(n):
        a, b = shape(rng), shape(rng)
        if (a, b) in seen:
            continue
        seen.add((a, b))
        problems = check(p, a, b)
        if problems:
            failed += 1
            failures.append("%s and %s: %s" % (a, b, "; ".join(problems)))
    p.stdin.close()
    p.wait()
    print("1..2")
    enough = COUNTS["ok"] > 50 and COUNTS["fail"] > 50
    print("%s 1 - %d pairs of shapes checked: %d that broadcast, %d that do not" %
          ("ok" if enough else "not ok", len(seen), COUNTS["ok"], COUNTS["fail"]))
    if failed:
        print("not ok 2 - :explain disagrees with the checker on %d pairs" % failed)
        for f in failures[:20]:
            print("# " + f)
    else:
        print("ok 2 - :explain agrees with the checker on every pair")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
