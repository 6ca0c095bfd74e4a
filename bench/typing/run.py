#!/usr/bin/env python3
"""Type-inference benchmark: times `relay --no-prelude --types` on generated straight-line programs
of 10,000 and 100,000 let bindings over broadcasting operators (gen.py), and prints each size's
median and best time and the ratio of the medians. Linear inference gives a ratio near 10.

Usage: bench/typing/run.py [RELAY_BINARY] [--runs N]   (default build-release/relay, 5 runs)
Build the binary first: meson setup build-release --buildtype=release && meson compile -C build-release
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchargs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [10000, 100000]
EXPECTED = "@main : fn<n : ShapeVar>(Tensor[(n, 4), float32], Tensor[(1, 4), float32]) -> Tensor[(n, 4), float32]"


def main():
    relay, runs = benchargs.parse(sys.argv[1:])
    medians = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in SIZES:
            path = os.path.join(tmp, "bindings_%d.rly" % n)
            with open(path, "w") as f:
                subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), str(n)], stdout=f, check=True)
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                p = subprocess.run([relay, "--no-prelude", "--types", path], capture_output=True, text=True)
                times.append(time.perf_counter() - start)
                if p.returncode != 0 or p.stdout.strip() != EXPECTED:  # check before trusting the time
                    sys.exit("relay gave an unexpected result for %d bindings:\n%s%s" % (n, p.stdout, p.stderr))
            medians[n] = statistics.median(times)
            print("%7d bindings: median %.3f s, best %.3f s (%d runs)" % (n, medians[n], min(times), runs))
    print("ratio 100,000 / 10,000: %.1f (linear is about 10)" % (medians[100000] / medians[10000]))


if __name__ == "__main__":
    main()
