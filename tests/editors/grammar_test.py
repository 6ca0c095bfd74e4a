#!/usr/bin/env python3
"""The TextMate grammar (editors/relay.tmLanguage.json) under vscode-tmgrammar-test; prints TAP.

Usage: grammar_test.py EDITORS_DIR RLY_DIR...

One result per test file editors/tests/*.rly (each construct's tokens and the scopes they must and
must not have, in vscode-tmgrammar-test's format), one for the real programs of the RLY_DIRs (the
golden files that expect no error, the Prelude, the shared models: no token the grammar calls
invalid, none left without a scope), and one for the npm lock (every package pinned by version and
integrity, none from a git, file or other address). Without node or the npm packages
(editors/install-deps.sh installs them) it is one TAP SKIP.
"""
import glob
import json
import os
import shutil
import subprocess
import sys


def skip_reason(editors):
    if not shutil.which("node"):
        return "node is not installed"
    if not os.path.exists(os.path.join(editors, "node_modules", ".bin", "vscode-tmgrammar-test")):
        return "the npm packages are not installed (run editors/install-deps.sh)"
    return None


class Tap:
    def __init__(self, total):
        print("1..%d" % total, flush=True)
        self.n = 0
        self.failed = 0

    def result(self, ok, name, detail=""):
        self.n += 1
        self.failed += not ok
        print("%s %d - %s" % ("ok" if ok else "not ok", self.n, name))
        if not ok and detail:
            for line in detail.rstrip().splitlines()[:80]:
                print("# " + line)
        sys.stdout.flush()


def real_programs(dirs):
    files = []
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "**", "*.rly"), recursive=True)):
            with open(path, encoding="utf-8", errors="replace") as f:
                if "expect-error" not in f.read():
                    files.append(path)
    return files


def check_corpus(editors, files):
    """Offending tokens of files under the grammar: invalid ones and ones with no scope."""
    p = subprocess.run(["node", os.path.join(editors, "tests", "tokenize.js")] + files,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    if p.returncode != 0:
        return ["tokenize.js failed: " + p.stderr]
    bad = []
    for line in p.stdout.splitlines():
        where, rest = line.split(" ", 1)
        text, end = json.JSONDecoder().raw_decode(rest)
        scopes = rest[end:].split()
        if any(s.startswith("invalid.") for s in scopes):
            bad.append("invalid: " + line)
        elif not scopes:
            bad.append("no scope: " + line)
    return bad


def check_lock(editors):
    problems = []
    with open(os.path.join(editors, "package.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    for kind in ("dependencies", "devDependencies"):
        for name, spec in manifest.get(kind, {}).items():
            if not spec[:1].isdigit():
                problems.append("package.json: %s %s is not an exact version" % (name, spec))
    with open(os.path.join(editors, "package-lock.json"), encoding="utf-8") as f:
        lock = json.load(f)
    if lock.get("lockfileVersion") != 3:
        problems.append("package-lock.json: lockfileVersion %s, not 3" % lock.get("lockfileVersion"))
    for path, entry in lock.get("packages", {}).items():
        if path == "" or entry.get("link"):
            continue
        resolved = entry.get("resolved")
        if resolved is not None:
            problems.append("%s: downloaded from %s, not the configured registry" % (path, resolved))
        if not entry.get("version") or not entry.get("integrity", "").startswith("sha512-"):
            problems.append("%s: no version or sha512 integrity" % path)
    return problems


def main(argv):
    if len(argv) < 1:
        sys.stderr.write(__doc__)
        return 2
    editors, rly_dirs = os.path.abspath(argv[0]), argv[1:]
    reason = skip_reason(editors)
    if reason:
        print("1..0 # SKIP %s" % reason)
        return 0
    tests = sorted(glob.glob(os.path.join(editors, "tests", "*.rly")))
    tap = Tap(len(tests) + 2)
    tool = os.path.join(editors, "node_modules", ".bin", "vscode-tmgrammar-test")
    grammar = os.path.join(editors, "relay.tmLanguage.json")
    for test in tests:
        p = subprocess.run([tool, "--compact", "-g", grammar, test], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=120)
        tap.result(p.returncode == 0, "grammar test " + os.path.basename(test), p.stdout)
    files = real_programs(rly_dirs)
    bad = check_corpus(editors, files)
    tap.result(not bad, "%d real programs: no invalid token, none without a scope" % len(files), "\n".join(bad))
    problems = check_lock(editors)
    tap.result(not problems, "package-lock.json pins every package by version and integrity, from the registry",
               "\n".join(problems))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
