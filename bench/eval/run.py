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
"""
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchargs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKLOADS = [("fib", "832040"), ("ack", "4093"), ("listsum", "500000500000"), ("map", "1000001000000"),
             ("nqueens", "724"), ("bintrees", "14985902"), ("startup", "0")]
STACK = 1 << 30
APT_PACKAGES = ["ocaml-nox", "lua5.4", "time"]


def set_stack():
    # runs in the child before exec: `ulimit -s 1048576`
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    soft = STACK if hard == resource.RLIM_INFINITY else min(STACK, hard)
    resource.setrlimit(resource.RLIMIT_STACK, (soft, hard))


def normalize(out):
    """The printed number without a width suffix (relay prints int64 as 500000500000i64)."""
    m = re.fullmatch(r"(-?\d+)(?:[iu]\d+)?", out.strip())
    return m.group(1) if m else out.strip()


def run_once(cmd, tmp):
    """Runs cmd; returns (wall seconds, peak RSS in KiB, exit status, stdout, stderr).

    Peak RSS is measured by /usr/bin/time, not by wait4() here: a child forked from this Python
    process keeps the parent's RSS as its high-water mark across exec, which would floor every
    figure at the runner's own ~11 MiB. /usr/bin/time's own floor is about 1 MiB."""
    rss_file = os.path.join(tmp, "rss")
    with open(os.path.join(tmp, "out"), "w+") as out, open(os.path.join(tmp, "err"), "w+") as err:
        start = time.perf_counter()
        code = subprocess.call(["/usr/bin/time", "-f", "%M", "-o", rss_file] + cmd, stdout=out, stderr=err,
                               preexec_fn=set_stack)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        with open(rss_file) as f:
            rss = f.read().split()  # "Command exited with non-zero status N" precedes the number on failure
        return wall, int(rss[-1]) if rss else 0, code, out.read(), err.read()


def ensure_packages():
    if shutil.which("ocamlopt") and shutil.which("ocamlrun") and shutil.which("lua5.4") and os.access(
            "/usr/bin/time", os.X_OK):
        return
    if os.geteuid() != 0:
        if not os.access("/usr/bin/time", os.X_OK):
            sys.exit("/usr/bin/time is needed (Debian package `time`)")
        print("note: ocaml-nox or lua5.4 missing and not root; skipping those peers", file=sys.stderr)
        return
    benchargs.apt_install(APT_PACKAGES)



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


def main():
    relay, runs = benchargs.parse(sys.argv[1:])
    benchargs.check_relay(relay)
    buildtype, opt = benchargs.relay_build(relay)
    ensure_packages()
    cpu = benchargs.cpu_model()
    print("machine: %d CPUs (nproc), %s; %d timed runs each, stack limit 1 GiB" % (os.cpu_count(), cpu, runs))
    print("relay %s (%s) | ocaml %s | %s | %s" % (
        relay, "buildtype %s, -O%s" % (buildtype, opt) if buildtype else "build options unknown",
        benchargs.version(["ocamlc", "-version"]), benchargs.version(["lua5.4", "-v"]).split("  ")[0], benchargs.version([sys.executable, "--version"])))
    print()
    print("| workload | implementation | median s | min s | max s | peak RSS MiB | relay / this (median) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for workload, expected in WORKLOADS:
            rows = []
            for name, cmd in implementations(relay, tmp, workload):
                times, rss, bad = [], 0, None
                for i in range(runs + 1):  # run 0 checks the output (and warms the caches), untimed
                    wall, kib, code, out, err = run_once(cmd, tmp)
                    if code != 0 or normalize(out) != expected:  # check before trusting the time
                        bad = "exit %d, stdout %r, stderr %r" % (code, out[-200:], err[-300:])
                        break
                    if i > 0:
                        times.append(wall)
                        rss = max(rss, kib)
                if bad:
                    print("%s / %s gave an unexpected result: %s" % (workload, name, bad), file=sys.stderr)
                    failed = True
                    continue
                rows.append((name, statistics.median(times), min(times), max(times), rss / 1024))
            base = rows[0][1] if rows and rows[0][0] == "relay" else None
            for name, med, lo, hi, mib in rows:
                ratio = "%.2f" % (base / med) if base else "-"
                print("| %s | %s | %.3f | %.3f | %.3f | %.1f | %s |" % (workload, name, med, lo, hi, mib, ratio))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
