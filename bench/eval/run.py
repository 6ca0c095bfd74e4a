#!/usr/bin/env python3
"""Evaluator benchmark: runs the same small programs in Relay, OCaml (bytecode and native), Lua 5.4
and Python 3, and prints a markdown table of wall time (median, min, max over the runs), peak
resident memory and the ratio of relay's median to each peer's.

Workloads (one file per language, same algorithm in each):
  fib      fib(30), naive doubly recursive                                    -> 832040
  ack      ack(3, 9), the doubly recursive Ackermann function                  -> 4093
  listsum  cons list of 1..1,000,000 built with a tail-recursive accumulator,
           summed with a tail-recursive foldl taking `+` as a function         -> 500000500000
  map      the same list doubled by a direct (non-tail) recursive map, 1,000,000 calls deep,
           then summed                                                         -> 1000001000000
  nqueens  the solutions of 10 queens, placements as cons lists of columns     -> 724
  bintrees the Benchmarks Game's binary-trees at depth 16, the sum of every
           tree's node count (stretch, iterations, long-lived)                 -> 14985902
  startup  an empty program printing 0: `relay -e 0` (which parses and checks the Prelude), also
           `relay --no-prelude -e 0`, the OCaml toplevel `ocaml startup.ml`, and the
           compiled, Lua and Python programs                                   -> 0

Usage: bench/eval/run.py [RELAY_BINARY] [--runs N]   (default build-release/relay, 5 runs)
Build the binary first: meson setup build-release --buildtype=release && meson compile -C build-release

OCaml programs are compiled into a temporary directory. Missing peers (ocaml-nox, lua5.4) are
installed with apt-get when run as root and skipped otherwise. Every program runs once untimed to
check its output, then N timed runs, each checked too. All run with a 1 GiB stack limit so that deep
recursion is never what fails. Peak RSS is /usr/bin/time's %M for each run (max over the runs); it
includes the interpreter's own footprint (about 1 MiB is /usr/bin/time's floor).

bench/run imports this file and calls ensure_packages(), versions() and run(), which returns the
figures as dicts.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchargs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = [("fib", "832040"), ("ack", "4093"), ("listsum", "500000500000"), ("map", "1000001000000"),
             ("nqueens", "724"), ("bintrees", "14985902"), ("startup", "0")]


def normalize(out):
    """The printed number without a width suffix (relay prints int64 as 500000500000i64)."""
    m = re.fullmatch(r"(-?\d+)(?:[iu]\d+)?", out.strip())
    return m.group(1) if m else out.strip()


def ensure_packages():
    """Installs the missing peers when root (otherwise they are skipped); stops without /usr/bin/time."""
    benchargs.install_missing({"ocaml-nox": bool(shutil.which("ocamlopt") and shutil.which("ocamlrun")),
                               "lua5.4": bool(shutil.which("lua5.4")),
                               "time": os.access("/usr/bin/time", os.X_OK)})
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit("/usr/bin/time is needed (Debian package `time`)")


def versions():
    """The peers' versions: ocaml, lua and python."""
    return {"ocaml": benchargs.version(["ocamlc", "-version"]),
            "lua": benchargs.version(["lua5.4", "-v"]).split("  ")[0],
            "python": benchargs.version([sys.executable, "--version"])}


def implementations(relay, tmp, workload):
    """(name, command) for every implementation available, building what needs building."""
    src = lambda ext: os.path.join(HERE, workload + ext)
    if workload == "startup":
        impls = [("relay", [relay, "-e", "0"]), ("relay --no-prelude", [relay, "--no-prelude", "-e", "0"])]
        if shutil.which("ocaml"):
            impls.append(("ocaml toplevel", ["ocaml", src(".ml")]))
    else:
        impls = [("relay", [relay, "--no-prelude", src(".rly")])]
    if shutil.which("ocamlc") and shutil.which("ocamlrun"):
        d = os.path.join(tmp, workload + "-byte")
        os.mkdir(d)
        shutil.copy(src(".ml"), d)
        exe = os.path.join(d, workload)
        subprocess.run(["ocamlc", "-o", exe, workload + ".ml"], cwd=d, check=True)
        impls.append(("ocaml bytecode", ["ocamlrun", exe]))
    if shutil.which("ocamlopt"):
        d = os.path.join(tmp, workload + "-native")
        os.mkdir(d)
        shutil.copy(src(".ml"), d)
        exe = os.path.join(d, workload)
        subprocess.run(["ocamlopt", "-o", exe, workload + ".ml"], cwd=d, check=True)
        impls.append(("ocaml native", [exe]))
    if shutil.which("lua5.4"):
        impls.append(("lua 5.4", ["lua5.4", src(".lua")]))
    impls.append(("python 3", [sys.executable, src(".py")]))
    return impls


def measure(cmd, expected, runs, tmp):
    """Runs cmd once untimed (which checks its output and warms the caches), then `runs` times, each
    run's output checked before its time is trusted. Returns median, min and max (s) and rss (peak
    MiB over the runs), or error (what went wrong)."""
    times, rss = [], 0
    for i in range(runs + 1):
        wall, kib, code, out, err = benchargs.run_once(cmd, tmp, rss=True)
        if code != 0 or normalize(out) != expected:
            return {"error": "exit %d, stdout %r, stderr %r" % (code, out[-200:], err[-300:])}
        if i > 0:
            times.append(wall)
            rss = max(rss, kib)
    return dict(benchargs.summary(times), rss=rss / 1024)


def run(relay, runs, log=benchargs.silent):
    """Measures every implementation of every workload; returns a dict per implementation, in
    WORKLOADS order and relay's first: workload, impl and what measure() returns."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for workload, expected in WORKLOADS:
            for name, cmd in implementations(relay, tmp, workload):
                log("eval: %s / %s" % (workload, name))
                results.append(dict(workload=workload, impl=name, **measure(cmd, expected, runs, tmp)))
    return results


def main():
    relay, runs = benchargs.parse(sys.argv[1:])
    benchargs.check_relay(relay)
    ensure_packages()
    peers = versions()
    print("machine: %d CPUs (nproc), %s; %d timed runs each, stack limit 1 GiB" % (
        os.cpu_count(), benchargs.cpu_model(), runs))
    print("relay %s (%s) | ocaml %s | %s | %s" % (
        relay, benchargs.build_description(relay), peers["ocaml"], peers["lua"], peers["python"]))
    print()
    print("| workload | implementation | median s | min s | max s | peak RSS MiB | relay / this (median) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    results = run(relay, runs)
    for r in results:
        if "error" in r:
            print("%s / %s gave an unexpected result: %s" % (r["workload"], r["impl"], r["error"]), file=sys.stderr)
    for workload, _ in WORKLOADS:
        rows = [r for r in results if r["workload"] == workload and "error" not in r]
        base = rows[0]["median"] if rows and rows[0]["impl"] == "relay" else None
        for r in rows:
            ratio = "%.2f" % (base / r["median"]) if base else "-"
            print("| %s | %s | %.3f | %.3f | %.3f | %.1f | %s |" % (
                workload, r["impl"], r["median"], r["min"], r["max"], r["rss"], ratio))
    if any("error" in r for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
