#!/usr/bin/env python3
"""The Prelude's types against the golden list tests/prelude/types.txt; prints TAP.

Usage: check_types.py RELAY_BINARY PRELUDE_RLY TYPES_TXT

1. `relay --no-prelude --types prelude.rly` checks the source file and prints `@name : type` for
   each definition: the output must equal types.txt line for line, so adding, removing,
   renaming or retyping a function fails until the golden list says so too.
2. For every line of types.txt, `relay -t @name` (the copy embedded in the binary at build time)
   must print the same type, so the binary carries the Prelude that was checked.
"""
import subprocess
import sys


def main():
    relay, source, golden = sys.argv[1:4]
    with open(golden, encoding="utf-8") as f:
        want = [line.rstrip("\n") for line in f if line.strip()]
    print("1..%d" % (1 + len(want)))
    p = subprocess.run([relay, "--no-prelude", "--types", source], capture_output=True, text=True, timeout=60)
    got = [line for line in p.stdout.splitlines() if line.strip()]
    if p.returncode == 0 and got == want:
        print("ok 1 - prelude.rly checks and its types are the golden ones")
    else:
        print("not ok 1 - prelude.rly checks and its types are the golden ones")
        for line in p.stderr.splitlines():
            print("# " + line)
        for w, g in zip(want + [""] * len(got), got + [""] * len(want)):
            if w != g:
                print("# want: %s\n#  got: %s" % (w, g))
    for i, line in enumerate(want, 2):
        name, _, ty = line.partition(" : ")
        p = subprocess.run([relay, "-t", name], capture_output=True, text=True, timeout=60)
        ok = p.returncode == 0 and p.stdout.strip() == ty
        print("%s %d - embedded %s : %s" % ("ok" if ok else "not ok", i, name, ty))
        if not ok:
            print("# got: " + (p.stdout.strip() or p.stderr.strip()))


if __name__ == "__main__":
    main()
