#!/usr/bin/env python3
"""A notebook cell against the same text as a file (issue 31's "parse once"): an 8,000-line cell sent
as one `relay --serve` `eval` request, timed against `relay --types FILE` on the same text, and the
ratio of the medians (the target: the cell within 2x of the file). Two cells of 8,000 lines: one
definition of 8,000 let bindings (bench/typing/gen.py's straight line), and 2,000 definitions of 4
lines each. Then a 2,000-line definition pasted at the REPL (`relay < FILE`: stdin that is not a
terminal is read as the REPL reads typed lines), against the same file. The times are CPU times
(user + system) of the relay process, which a machine busy with other work disturbs less than
wall time.

Usage: bench/cell/run.py [RELAY_BINARY] [--runs N]   (default build-release/relay, 5 runs)
Build the binary first: meson setup build-release --buildtype=release && meson compile -C build-release

Each run's output is checked before its time is trusted: the cell's response and the REPL's lines
must name every definition with the type `--types` gives it.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchargs  # noqa: E402

GEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "typing", "gen.py")
TARGET = 2.0


def straight_line(n):
    """One definition of n let bindings (bench/typing/gen.py), n + 3 lines."""
    return subprocess.run([sys.executable, GEN, str(n)], stdout=subprocess.PIPE, text=True, check=True).stdout


def definitions(n):
    """n definitions of 4 lines each, each calling the one before it."""
    out = []
    for i in range(n):
        out += ["def @f%d(%%x : Tensor[(n, 4), float32]) {" % i, "  let %%y = %%x * %d.5f;" % i,
                "  %%y + %s" % ("%x" if i == 0 else "@f%d(%%x)" % (i - 1)), "}"]
    return "\n".join(out) + "\n"


def timed(cmd, runs, stdin_path, check):
    """The CPU time (user + system, in seconds) of runs of cmd, its stdin from stdin_path (or empty),
    as benchargs.summary's median, min and max, with the median wall time as "wall"; or an error
    when its output fails check(status, stdout). The target is judged on CPU time: on a machine
    shared with other work it moves far less between runs than wall time."""
    times, walls = [], []
    benchargs.limit_stack()
    for _ in range(runs):
        with open(stdin_path or os.devnull) as f:
            before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
            p = subprocess.run(cmd, stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter() - start
        why = check(p.returncode, p.stdout)
        if why:
            return {"error": "%s: %s\n%s" % (" ".join(cmd), why, p.stderr[-2000:])}
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        walls.append(wall)
    return dict(benchargs.summary(times), wall=benchargs.summary(walls)["median"])


def types_of(out):
    """The `@name : type` lines of --types' output or the REPL's."""
    return [line for line in out.splitlines() if line.startswith("@")]


def run(relay, runs, log=benchargs.silent):
    """Times each cell and the paste; returns a list of dicts: what, lines, file and cell (or paste)
    timings (median, min, max), or error."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        cases = [("cell", "one definition of 8,000 lets", straight_line(8000)),
                 ("cell", "2,000 definitions of 4 lines", definitions(2000)),
                 ("paste", "one definition of 2,000 lets", straight_line(2000))]
        for kind, what, text in cases:
            log("cell: %s (%s)" % (what, kind))
            path = os.path.join(tmp, "text.rly")
            with open(path, "w") as f:
                f.write(text)
            request = os.path.join(tmp, "request.json")
            with open(request, "w") as f:
                f.write(json.dumps({"id": 1, "method": "eval", "params": {"text": text}}) + "\n")
            p = subprocess.run([relay, "--types", path], stdout=subprocess.PIPE, text=True)
            want = types_of(p.stdout)
            row = {"what": what, "kind": kind, "lines": text.count("\n")}
            if p.returncode or not want:
                row["error"] = "relay --types %s failed" % path
                results.append(row)
                continue

            def check_file(code, out):
                return None if code == 0 and types_of(out) == want else "not the types expected"

            def check_cell(code, out):
                try:
                    r = json.loads(out)["result"]
                    got = ["%s : %s" % (i["name"], i["type"]) for i in r.get("items", []) if i["kind"] == "definition"]
                except (ValueError, KeyError, TypeError):
                    return "no response: %r" % out[:200]
                return None if code == 0 and r["ok"] and got == want else "not the definitions expected"

            row["file"] = timed([relay, "--types", path], runs, None, check_file)
            if kind == "cell":
                row["other"] = timed([relay, "--serve"], runs, request, check_cell)
            else:
                row["other"] = timed([relay], runs, path, check_file)
            errors = [t["error"] for t in (row["file"], row["other"]) if "error" in t]
            if errors:
                row["error"] = "\n".join(errors)
            results.append(row)
    return results


def main():
    relay, runs = benchargs.parse(sys.argv[1:])
    benchargs.check_relay(relay)
    results = run(relay, runs)
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        sys.exit("\n".join(errors))
    print("%s (%s): CPU time (user + system) and wall time, medians of %d runs" %
          (relay, benchargs.build_description(relay), runs))
    rows = []
    for r in results:
        ratio = r["other"]["median"] / r["file"]["median"]
        verdict = ("met" if ratio <= TARGET else "missed") if r["kind"] == "cell" else ""
        rows.append([r["what"], r["lines"], "--serve eval" if r["kind"] == "cell" else "relay < FILE",
                     "%.3f s" % r["other"]["median"], "%.3f s" % r["file"]["median"], "%.2f" % ratio,
                     "%.3f s / %.3f s" % (r["other"]["wall"], r["file"]["wall"]), verdict])
    print("\n".join(benchargs.table(["text", "=lines", "as", "=CPU", "=as a file (--types)", "=ratio",
                                     "=wall (as a file)", "cell <= %gx the file" % TARGET], rows)))


if __name__ == "__main__":
    main()
