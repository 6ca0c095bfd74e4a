#!/usr/bin/env python3
"""Runs relay over the texts extract.py took from TVM's repository and classifies the results.

Usage: run.py RELAY DIR [--jobs N] [--timeout S] [--list] [--no-run]

For each DIR/*.rly (with DIR/index.tsv, if present, for where each came from):

A file whose index flags say `needs=G` (TVM's nat.rly needs its prelude.rly) has G loaded
before it in steps 2 and 3.

  1. parse:  `relay --no-prelude --print F`, then the printed text again (`--print` must read
             what it wrote and print it the same: else a "round-trip" failure);
  2. type:   `relay --no-prelude --annot F` (the definitions), then `relay --no-prelude F`, which
             checks the top-level expressions too before it runs anything;
  3. run:    that same run: the expressions' values and `@main()` if it has no parameters.

Each file ends in one class: ok, ran-with-error (typed, but running it failed: a free variable,
a meta constant without its section...), parse error, unknown operator NAME, type error,
round-trip, timeout, crash (an exit status other than 0, 1, 2: always a bug, listed first).
Failures are triaged by what the text holds: `raises` (TVM's test expects an error too), a
lowered dialect (call_lowered, memory.*, vm.*, tir), qnn.*, dyn.*. Prints a summary table, the
unknown operators with counts, and the failures grouped by their first error message.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

LOCATION = re.compile(r"^\S*?:\d+:\d+:\s*")
UNKNOWN_OP = re.compile(r"unknown operator `([^`]+)`")


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                           errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def first_error(stderr):
    for line in stderr.splitlines():
        if re.search(r"(parse|type|run-time)? ?error", line) or line.startswith("relay:"):
            return LOCATION.sub("", line.strip())
    lines = [l for l in stderr.splitlines() if l.strip()]
    return LOCATION.sub("", lines[0].strip()) if lines else "(no message)"


def crashed(rc):
    return rc != "timeout" and rc not in (0, 1, 2)


def check(relay, path, timeout, do_run, needs=None):
    """(class, stage, message) for one file; `needs`: a file to load before it (type and run)."""
    base = [relay, "--no-prelude"]
    pre = [needs] if needs else []
    rc, out, err = run(base + ["--print", path], timeout)
    if rc == "timeout":
        return "timeout", "parse", ""
    if crashed(rc):
        return "crash", "parse", "exit status %s: %s" % (rc, first_error(err))
    if rc != 0:
        msg = first_error(err)
        m = UNKNOWN_OP.search(msg)
        if m:
            return "unknown operator", "parse", m.group(1)
        return "parse error", "parse", msg
    with tempfile.NamedTemporaryFile("w", suffix=".rly", delete=False) as t:
        t.write(out)
    try:
        rc2, out2, err2 = run(base + ["--print", t.name], timeout)
    finally:
        os.unlink(t.name)
    if crashed(rc2):
        return "crash", "reprint", "exit status %s: %s" % (rc2, first_error(err2))
    if rc2 != 0:
        return "round-trip", "reprint", "the printed text does not read: " + first_error(err2)
    if out2 != out:
        return "round-trip", "reprint", "the printed text prints differently"
    # --annot takes one file: with a dependency, -t loads the files' definitions the same way
    rc, out, err = run(base + (pre + [path, "-t", "()"] if pre else ["--annot", path]), timeout)
    if rc == "timeout":
        return "timeout", "type", ""
    if crashed(rc):
        return "crash", "type", "exit status %s: %s" % (rc, first_error(err))
    if rc != 0:
        return "type error", "type", first_error(err)
    if not do_run:
        return "ok", "type", ""
    rc, out, err = run(base + pre + [path], timeout)
    if rc == "timeout":
        return "timeout", "run", ""
    if crashed(rc):
        return "crash", "run", "exit status %s: %s" % (rc, first_error(err))
    if rc != 0:
        msg = first_error(err)
        if "type error" in err.split("\n")[0] or re.search(r"^\S+:\d+:\d+: type error", err, re.M):
            return "type error", "type", msg
        if re.search(r"^\S+:\d+:\d+: parse error", err, re.M):
            return "parse error", "parse", msg
        return "ran with error", "run", msg
    return "ok", "run", ""


def triage(text, kind, flags, cls, msg):
    """Why a failing text fails, when the text says so."""
    if "raises" in flags:
        return "meant to fail (pytest.raises / xfail in TVM)"
    if kind == "parse_expr" and cls == "type error":
        return "parse_expr text TVM does not type-check (ill-typed in TVM too)"
    if "module" in flags and re.search(r"unknown (global|data type|type|constructor)", msg):
        return "uses the test's init_module"
    names = [msg] if cls == "unknown operator" else []
    lowered = re.search(r"\b(call_lowered|memory\.[a-z_]+|vm\.[a-z_]+|tir\.[a-z_]+|@tvmgen_)", text)
    if lowered or any(re.match(r"(memory|vm|tir)\.", n) for n in names):
        return "lowered dialect (call_lowered, memory.*, vm.*, tir)"
    if any(n.startswith("qnn.") for n in names):
        return "qnn.* (another helper's)"
    if any(n.startswith("dyn.") for n in names):
        return "dyn.*"
    if cls == "unknown operator":
        return "operator relay lacks"
    if "meta" in flags and "meta[" in text:
        return "metadata given by the test (init_meta_table)"
    return "relay gap (syntax or typing)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("relay")
    ap.add_argument("dir")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--list", action="store_true", help="print every file's class")
    ap.add_argument("--no-run", action="store_true", help="stop after --annot")
    a = ap.parse_args()

    index = {}
    ipath = os.path.join(a.dir, "index.tsv")
    if os.path.exists(ipath):
        for line in open(ipath):
            f = line.rstrip("\n").split("\t")
            index[f[0]] = (f[1], f[2], f[3] if len(f) > 3 else "")
    files = sorted(f for f in os.listdir(a.dir) if f.endswith(".rly"))
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        def one(f):
            flags = index.get(f, ("", "", ""))[2]
            needs = [x[6:] for x in flags.split(",") if x.startswith("needs=")]
            return check(a.relay, os.path.join(a.dir, f), a.timeout, not a.no_run,
                         os.path.join(a.dir, needs[0]) if needs else None)
        results = list(pool.map(one, files))

    rows = []
    for f, (cls, stage, msg) in zip(files, results):
        src, kind, flags = index.get(f, (f, "?", ""))
        text = open(os.path.join(a.dir, f), encoding="utf-8", errors="replace").read()
        why = triage(text, kind, flags, cls, msg) if cls not in ("ok", "ran with error") else ""
        rows.append((f, src, cls, stage, msg, why))

    n = len(rows)
    parsed = sum(1 for r in rows if r[3] != "parse" or r[2] == "ok")
    typed = sum(1 for r in rows if r[2] in ("ok", "ran with error"))
    classes = collections.Counter(r[2] for r in rows)

    crashes = [r for r in rows if r[2] == "crash"]
    if crashes:
        print("CRASHES (bugs):")
        for r in crashes:
            print("  %s  (%s)  [%s] %s" % (r[0], r[1], r[3], r[4]))
        print()
    print("%d texts: %d parse (%.0f%%), %d type-check (%.0f%%)" % (n, parsed, 100.0 * parsed / max(n, 1), typed,
                                                                   100.0 * typed / max(n, 1)))
    print()
    print("%-22s %5s" % ("class", "count"))
    order = ["ok", "ran with error", "parse error", "unknown operator", "type error", "round-trip", "timeout", "crash"]
    for c in order + sorted(set(classes) - set(order)):
        if classes.get(c):
            print("%-22s %5d" % (c, classes[c]))
    print()
    fails = [r for r in rows if r[2] not in ("ok", "ran with error")]
    print("failures by category:")
    for why, c in collections.Counter(r[5] for r in fails).most_common():
        print("  %4d  %s" % (c, why))
    ops = collections.Counter(r[4] for r in rows if r[2] == "unknown operator")
    if ops:
        print()
        print("unknown operators (files):")
        for op, c in ops.most_common():
            print("  %4d  %s" % (c, op))
    print()
    print("failures grouped by first message:")
    groups = collections.defaultdict(list)
    for r in fails:
        key = (r[2], r[4] if r[2] != "unknown operator" else r[4])
        groups[key].append(r)
    for (cls, msg), rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print("  %3d  [%s] %s" % (len(rs), cls, msg))
        for r in rs[:4]:
            print("         %s  %s  (%s)" % (r[0], r[1], r[5]))
        if len(rs) > 4:
            print("         ... and %d more" % (len(rs) - 4))
    ran_err = [r for r in rows if r[2] == "ran with error"]
    if ran_err:
        print()
        print("typed, but running failed (%d):" % len(ran_err))
        for msg, c in collections.Counter(r[4] for r in ran_err).most_common():
            print("  %4d  %s" % (c, msg))
    if a.list:
        print()
        for r in rows:
            print("%s\t%s\t%s\t%s\t%s" % (r[0], r[1], r[2], r[4], r[5]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
