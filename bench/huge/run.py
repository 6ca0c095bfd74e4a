#!/usr/bin/env python3
"""Huge inputs: time and peak RSS of relay on each case of gen.py at n and 2n, for running the
program and for --print, with the ratio of the two sizes (about 2 when linear, 4 when quadratic).

Usage: run.py [RELAY] [--cases seq,wide,...] [--n CASE=N ...] [--modes run,print]
Defaults: build-release/relay; seq 1,000,000 (8 MB), wide, ctors and tuple 100,000.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_N = {"seq": 1000000, "wide": 100000, "ctors": 100000, "tuple": 100000}


def measure(relay, args):
    p = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M", relay, "--no-prelude"] + args,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"TIME (\S+) (\d+)\s*$", p.stderr)
    if not m:
        return None, None, p.returncode, p.stderr[-300:]
    err = p.stderr[:m.start()].strip()
    return float(m.group(1)), int(m.group(2)), p.returncode, err[-200:]


def main():
    argv = sys.argv[1:]
    relay = os.path.join(ROOT, "build-release", "relay")
    cases = list(DEFAULT_N)
    modes = ["run", "print"]
    sizes = dict(DEFAULT_N)
    i = 0
    while i < len(argv):
        if argv[i] == "--cases":
            cases = argv[i + 1].split(",")
            i += 2
        elif argv[i] == "--modes":
            modes = argv[i + 1].split(",")
            i += 2
        elif argv[i] == "--n":
            k, v = argv[i + 1].split("=")
            sizes[k] = int(v)
            i += 2
        else:
            relay = argv[i]
            i += 1
    print("| case | mode | n | bytes | time (s) | max RSS (MB) | RSS/byte | status | 2n/n time | 2n/n RSS |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            rows = []
            for n in (sizes[case], 2 * sizes[case]):
                path = os.path.join(tmp, "%s_%d.rly" % (case, n))
                with open(path, "w") as f:
                    subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), case, str(n)], stdout=f, check=True)
                size = os.path.getsize(path)
                for mode in modes:
                    args = [path] if mode == "run" else ["--print", path]
                    t, rss, rc, err = measure(relay, args)
                    rows.append((mode, n, size, t, rss, rc, err))
                os.unlink(path)
            for mode in modes:
                r = [x for x in rows if x[0] == mode]
                for k, (m, n, size, t, rss, rc, err) in enumerate(r):
                    status = "ok" if rc == 0 else "exit %d %s" % (rc, err.replace("\n", " ")[:60])
                    ratio_t = ratio_m = ""
                    if k == 1 and r[0][3] and t:
                        ratio_t = "%.2f" % (t / max(r[0][3], 0.01))
                        ratio_m = "%.2f" % (rss / r[0][4])
                    print("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |" % (
                        case, m, n, size, "%.2f" % t if t is not None else "-",
                        "%.0f" % (rss / 1024) if rss else "-", "%.0f" % (rss * 1024 / size) if rss else "-",
                        status, ratio_t, ratio_m))
                    sys.stdout.flush()


if __name__ == "__main__":
    main()
