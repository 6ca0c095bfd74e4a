#!/usr/bin/env python3
"""Type-inference benchmark: times `relay --no-prelude --types` on generated straight-line programs
of 10,000 and 100,000 let bindings over broadcasting operators (gen.py), and prints each size's
median and best time and the ratio of the medians. Linear inference gives a ratio near 10.

It also checks what attributes cost (issue 33): 5,000 calls `nn.softmax(%x, axis=0)` against the
same 5,000 without the attribute, time and peak memory, and their ratios (the bound is 1.5).

Usage: bench/typing/run.py [RELAY_BINARY] [--runs N]   (default build-release/relay, 5 runs)
Build the binary first: meson setup build-release --buildtype=release && meson compile -C build-release

Every run's output is checked before its time is trusted. bench/run imports this file and calls
run(), which returns the figures as dicts.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchargs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [10000, 100000]
EXPECTED = "@main : fn<n : ShapeVar>(Tensor[(n, 4), float32], Tensor[(1, 4), float32]) -> Tensor[(n, 4), float32]"


def run(relay, runs, log=benchargs.silent):
    """Times the type inference of each size; returns a dict per size: bindings and either median,
    min and max (s) or error (what went wrong)."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in SIZES:
            log("typing: %d bindings" % n)
            path = os.path.join(tmp, "bindings_%d.rly" % n)
            with open(path, "w") as f:
                subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), str(n)], stdout=f, check=True)
            row, times = {"bindings": n}, []
            for _ in range(runs):
                wall, _, code, out, err = benchargs.run_once([relay, "--no-prelude", "--types", path], tmp)
                if code != 0 or out.strip() != EXPECTED:  # check before trusting the time
                    row["error"] = "relay gave an unexpected result for %d bindings:\n%s%s" % (n, out, err)
                    break
                times.append(wall)
            else:
                row.update(benchargs.summary(times))
            results.append(row)
    return results


ATTR_CALLS = 5000
ATTR_EXPECTED = "@f : fn(Tensor[(4, 4), float32]) -> Tensor[(4, 4), float32]"


def softmax_program(n, attr):
    lines = ["def @f(%x : Tensor[(4, 4), float32]) {"]
    lines += ["  let %%y%d = nn.softmax(%%x%s);" % (i, ", axis=0" if attr else "") for i in range(n)]
    lines += ["  %%y%d" % (n - 1), "}"]
    return "\n".join(lines) + "\n"


def run_attrs(relay, runs, log=benchargs.silent):
    """The 5,000 softmax calls with and without `axis=0`: a dict per program with median, min and max
    (s) and rss_kib (the largest peak), or error."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for attr in (True, False):
            name = "%d nn.softmax calls%s" % (ATTR_CALLS, " with axis=0" if attr else "")
            log("typing: " + name)
            path = os.path.join(tmp, "softmax.rly")
            with open(path, "w") as f:
                f.write(softmax_program(ATTR_CALLS, attr))
            row, times, peak = {"program": name}, [], 0
            for _ in range(runs):
                wall, kib, code, out, err = benchargs.run_once([relay, "--no-prelude", "--types", path], tmp, rss=True)
                if code != 0 or out.strip() != ATTR_EXPECTED:
                    row["error"] = "relay gave an unexpected result for %s:\n%s%s" % (name, out, err)
                    break
                times.append(wall)
                peak = max(peak, kib)
            else:
                row.update(benchargs.summary(times))
                row["rss_kib"] = peak
            results.append(row)
    return results


def main():
    relay, runs = benchargs.parse(sys.argv[1:])
    attrs = run_attrs(relay, runs)
    for r in attrs:
        if "error" not in r:
            print("%s: median %.3f s, best %.3f s, peak %.1f MB" % (r["program"], r["median"], r["min"],
                                                                    r["rss_kib"] / 1024))
    if all("error" not in r for r in attrs):
        print("with / without the attribute: time %.2f, memory %.2f (the bound is 1.5)" %
              (attrs[0]["median"] / attrs[1]["median"], attrs[0]["rss_kib"] / attrs[1]["rss_kib"]))
    results = run(relay, runs)
    for r in results:
        if "error" not in r:
            print("%7d bindings: median %.3f s, best %.3f s (%d runs)" % (r["bindings"], r["median"], r["min"], runs))
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        sys.exit("\n".join(errors))
    print("ratio 100,000 / 10,000: %.1f (linear is about 10)" % (results[1]["median"] / results[0]["median"]))


if __name__ == "__main__":
    main()
