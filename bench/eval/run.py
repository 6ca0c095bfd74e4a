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

Usage: bench/eval/run.py [RELAY_BINARY] [--runs N] [--no-instructions] [--all-instructions]
(default build-release/relay, 5 runs). Build the binary first:
meson setup build-release --buildtype=release && meson compile -C build-release

Then a second table: the instructions one run of each program executes, for relay and OCaml bytecode
(also Lua 5.4 and Python 3 with --all-instructions; none with --no-instructions), each raw and minus
the same implementation's start-up (the startup workload; relay's is `relay --no-prelude -e 0`, as
the workloads run without the Prelude), and relay's ratio to OCaml bytecode on the start-up-subtracted
counts. They are counted by `perf stat -e instructions:u` where perf can read the hardware counter,
else by valgrind's callgrind (the out file's summary line, every thread of the process), under the
same 1 GiB stack limit (valgrind's --main-stacksize too), each program's output checked. Counts are
deterministic to a fraction of a percent, so one run each is enough; under callgrind the programs run
about 20-50 times slower (see bench/README.md for how long it takes).

OCaml programs are compiled into a temporary directory. Missing peers (ocaml-nox, lua5.4) are
installed with apt-get when run as root and skipped otherwise. Every program runs once untimed to
check its output, then N timed runs, each checked too. All run with a 1 GiB stack limit so that deep
recursion is never what fails. Peak RSS is /usr/bin/time's %M for each run (max over the runs); it
includes the interpreter's own footprint (about 1 MiB is /usr/bin/time's floor).

bench/run imports this file and calls ensure_packages(), versions() and run(), which returns the
figures as dicts, then counter() and count(), which return the instruction counts, and
instruction_table() and instructions().
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


def implementations(relay, tmp, workload, wanted=None):
    """(name, command) for every implementation available, or only those named in wanted, building
    what needs building."""
    src = lambda ext: os.path.join(HERE, workload + ext)
    want = lambda name: wanted is None or name in wanted
    if workload == "startup":
        impls = [("relay", [relay, "-e", "0"]), ("relay --no-prelude", [relay, "--no-prelude", "-e", "0"])]
        if shutil.which("ocaml"):
            impls.append(("ocaml toplevel", ["ocaml", src(".ml")]))
    else:
        impls = [("relay", [relay, "--no-prelude", src(".rly")])]
    if shutil.which("ocamlc") and shutil.which("ocamlrun") and want("ocaml bytecode"):
        d = os.path.join(tmp, workload + "-byte")
        os.mkdir(d)
        shutil.copy(src(".ml"), d)
        exe = os.path.join(d, workload)
        subprocess.run(["ocamlc", "-o", exe, workload + ".ml"], cwd=d, check=True)
        impls.append(("ocaml bytecode", ["ocamlrun", exe]))
    if shutil.which("ocamlopt") and want("ocaml native"):
        d = os.path.join(tmp, workload + "-native")
        os.mkdir(d)
        shutil.copy(src(".ml"), d)
        exe = os.path.join(d, workload)
        subprocess.run(["ocamlopt", "-o", exe, workload + ".ml"], cwd=d, check=True)
        impls.append(("ocaml native", [exe]))
    if shutil.which("lua5.4"):
        impls.append(("lua 5.4", ["lua5.4", src(".lua")]))
    impls.append(("python 3", [sys.executable, src(".py")]))
    return [(name, cmd) for name, cmd in impls if want(name)]


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


# --- instruction counts -------------------------------------------------------------------------

# The implementations whose instructions are counted: relay and OCaml bytecode by default, Lua and
# Python too on request (PEERS_COUNTED; they take about as long again as the rest). "relay" on the
# startup workload is `relay -e 0`, with the Prelude; the workloads run with --no-prelude, so relay's
# start-up is the "relay --no-prelude" row (STARTUP_OF).
COUNTED = ("relay", "relay --no-prelude", "ocaml bytecode")
PEERS_COUNTED = ("lua 5.4", "python 3")
STARTUP_OF = {"relay": "relay --no-prelude"}


def perf_counts():
    """Whether `perf stat -e instructions:u` reads a hardware counter here (virtual machines often
    have none: perf prints "<not supported>")."""
    if not shutil.which("perf"):
        return False
    p = subprocess.run(["perf", "stat", "-x,", "-e", "instructions:u", "true"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return p.returncode == 0 and any(line.split(",")[0].isdigit() for line in p.stderr.splitlines())


def counter():
    """How instructions are counted on this machine: "perf" when perf stat can read the hardware
    counter, else "callgrind" when valgrind is installed, else None."""
    if perf_counts():
        return "perf"
    return "callgrind" if shutil.which("valgrind") else None


def describe_counter(method):
    """The counting method in words, for the tables' notes."""
    if method == "perf":
        return "`perf stat -e instructions:u` (user-space instructions, hardware counter)"
    return ("`valgrind --tool=callgrind --main-stacksize=%d` (every thread of the process; the out file's"
            " `summary:` line)" % benchargs.STACK)


def counting(method, cmd, tmp):
    """(the command that runs cmd and counts its instructions, the file where the count goes)."""
    out = os.path.join(tmp, "count")
    if os.path.exists(out):
        os.remove(out)
    if method == "perf":
        return ["perf", "stat", "-x,", "-e", "instructions:u", "-o", out] + cmd, out
    # The main thread's stack under valgrind is at most 16 MiB unless told; relay runs on a thread
    # stack of its own (runtime/heap.c), which valgrind follows without options.
    return ["valgrind", "--tool=callgrind", "--main-stacksize=%d" % benchargs.STACK,
            "--log-file=" + os.path.join(tmp, "valgrind.log"), "--callgrind-out-file=" + out] + cmd, out


def read_count(method, path):
    """The instruction count in the file a counting command wrote, or None."""
    with open(path) as f:
        for line in f:
            fields = line.split("," if method == "perf" else None)
            if method == "perf" and len(fields) > 2 and fields[2].startswith("instructions") and fields[0].isdigit():
                return int(fields[0])
            if method == "callgrind" and len(fields) == 2 and fields[0] in ("summary:", "totals:"):
                return int(fields[1])
    return None


def count_once(method, cmd, expected, tmp):
    """Counts the instructions of one run of cmd, its output checked; returns instructions, or
    error (what went wrong)."""
    wrapped, out_file = counting(method, cmd, tmp)
    _, _, code, out, err = benchargs.run_once(wrapped, tmp)
    if code != 0 or normalize(out) != expected:
        return {"error": "under %s: exit %d, stdout %r, stderr %r" % (method, code, out[-200:], err[-300:])}
    n = read_count(method, out_file) if os.path.exists(out_file) else None
    if n is None:
        return {"error": "%s wrote no instruction count" % method}
    return {"instructions": n}


def count(relay, method, impls=COUNTED, log=benchargs.silent):
    """Counts, with method (see counter()), the instructions of one run of each implementation named
    in impls on every workload (counts are deterministic to a fraction of a percent, so one run is
    enough). Returns a dict per program, in WORKLOADS order: workload, impl and what count_once()
    returns."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for workload, expected in WORKLOADS:
            for name, cmd in implementations(relay, tmp, workload, impls):
                log("eval instructions (%s): %s / %s" % (method, workload, name))
                results.append(dict(workload=workload, impl=name, **count_once(method, cmd, expected, tmp)))
    return results


def instructions(counts, workload, impl):
    """(count, count minus the implementation's start-up) of impl on workload, each None when not
    measured; on the startup workload, "relay" is relay's start-up, `relay --no-prelude -e 0`."""
    def raw(w, name):
        return next((r["instructions"] for r in counts if r["workload"] == w and r["impl"] == name
                     and "error" not in r), None)

    if workload == "startup":
        impl = STARTUP_OF.get(impl, impl)
    n, start = raw(workload, impl), raw("startup", STARTUP_OF.get(impl, impl))
    return n, (n - start if n is not None and start is not None else None)


def instruction_table(counts):
    """(header, rows) of the instruction counts: per workload each counted implementation's count and
    the count minus its start-up, then relay's ratio to each peer on the start-up-subtracted counts.
    Headers starting with "=" are right-aligned columns (see benchargs.table)."""
    impls = [i for i in ("relay", "ocaml bytecode") + PEERS_COUNTED if any(r["impl"] == i for r in counts)]
    header = ["workload"] + [h for i in impls for h in ("=" + i, "=%s - start-up" % i)]
    header += ["=relay / %s (- start-up)" % i for i in impls[1:]]
    rows = []
    for workload, _ in WORKLOADS:
        figures = {i: instructions(counts, workload, i) for i in impls}
        row = [workload]
        for i in impls:
            n, net = figures[i]
            row += ["{:,}".format(n) if n is not None else "-",
                    "{:,}".format(net) if net is not None and workload != "startup" else "-"]
        relay = figures["relay"][1] if "relay" in figures else None
        for i in impls[1:]:
            net = figures[i][1]
            row.append("%.2f" % (relay / net) if relay is not None and net and workload != "startup" else "-")
        rows.append(row)
    return header, rows


def prelude_note(counts):
    """A sentence on relay's start-up with the Prelude, or "" when not counted."""
    with_prelude = next((r["instructions"] for r in counts if r["workload"] == "startup" and r["impl"] == "relay"
                         and "error" not in r), None)
    without = instructions(counts, "startup", "relay")[0]
    if with_prelude is None or without is None:
        return ""
    return "`relay -e 0`, with the Prelude: {:,} instructions ({:,} more than `relay --no-prelude -e 0`).".format(
        with_prelude, with_prelude - without)


def print_instructions(relay, impls):
    """Counts the instructions of impls (see count()) and prints their table; returns the counts."""
    method = counter()
    if method is None:
        print("instructions not counted: perf has no hardware counter here and valgrind is not installed",
              file=sys.stderr)
        return []
    counts = count(relay, method, impls)
    print()
    print("Instructions of one run each, counted with %s; start-up subtracted: the count minus the same"
          " implementation's on the startup workload." % describe_counter(method))
    print()
    print("\n".join(benchargs.table(*instruction_table(counts))))
    note = prelude_note(counts)
    if note:
        print()
        print(note)
    return counts


def main():
    argv = sys.argv[1:]
    skip_counts, peers_too = benchargs.flag(argv, "--no-instructions"), benchargs.flag(argv, "--all-instructions")
    relay, runs = benchargs.parse(argv)
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
    if not skip_counts:
        counts = print_instructions(relay, COUNTED + (PEERS_COUNTED if peers_too else ()))
        for r in counts:
            if "error" in r:
                print("%s / %s, counting instructions: %s" % (r["workload"], r["impl"], r["error"]), file=sys.stderr)
        results += counts
    if any("error" in r for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
