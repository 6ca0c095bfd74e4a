#!/usr/bin/env python3
"""The collector under pressure: building and dropping 200 lists of 100,000 elements (20 million
cons cells in all) must stay under 200 MB resident. Prints TAP.

Usage: gc_pressure.py RELAY_BINARY gc_pressure.rly
"""
import resource
import subprocess
import sys

LIMIT_KB = 200 * 1024


def main():
    binary, program = sys.argv[1], sys.argv[2]
    p = subprocess.run([binary, "--no-prelude", program], capture_output=True, text=True, timeout=300)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print("1..2")
    ok = p.returncode == 0 and p.stdout.strip() == "20000000"
    print("%s 1 - 200 lists of 100,000 cells built and measured (20000000)" % ("ok" if ok else "not ok"))
    if not ok:
        print("# exit %d, stdout %r, stderr %r" % (p.returncode, p.stdout[-200:], p.stderr[-300:]))
    print("%s 2 - peak resident memory %d MB is under %d MB" % ("ok" if peak_kb < LIMIT_KB else "not ok",
                                                              peak_kb // 1024, LIMIT_KB // 1024))
    return 0 if ok and peak_kb < LIMIT_KB else 1


if __name__ == "__main__":
    sys.exit(main())
