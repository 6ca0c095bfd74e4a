#!/usr/bin/env python3
"""Counts test results for .ci/run; prints `PASSED FAILED SKIPPED` as its last stdout line.

Usage: count_tests.py meson BUILD_DIR EXIT_STATUS      one `meson test -C BUILD_DIR` run
       count_tests.py conformance LOG_FILE EXIT_STATUS  one conformance run.py run

A TAP test counts each of its `ok`/`not ok` lines (`ok ... # SKIP` and `not ok ... # TODO` count
as passed) plus, as failed, the results its plan announced but it never printed (a crash). An
exit-code test counts once, by meson's result (SKIP counts as passed). A step that failed without
a failure to show for it (a test that timed out, a runner that crashed) counts one failure, so a
failed step never closes as `N passed, 0 failed`. A conformance case that fails while listed in
the known-failures file (`fail (known)`) counts as skipped: it is expected to fail, and run.py
fails the step if it passes. Details of failed TAP tests, which
`meson test --print-errorlogs` does not show, go to stderr.
"""
import json
import os
import re
import subprocess
import sys

PASSING_RESULTS = ("OK", "SKIP", "EXPECTEDFAIL")
TAP_RESULT = re.compile(r"^(not ok|ok)\b(.*)$")
TAP_PLAN = re.compile(r"^1\.\.(\d+)(.*)$")
TAP_DIRECTIVE = re.compile(r"#\s*(SKIP|TODO)", re.IGNORECASE)
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed\s*$")
DETAIL_LINES = 60


def log(text):
    sys.stderr.write(text + "\n")


# ---------------------------------------------------------------- meson test runs

def protocols(build_dir):
    """Test name -> protocol ('tap', 'exitcode', ...), from `meson introspect`; testlog.json does
    not record the protocol."""
    try:
        p = subprocess.run(["meson", "introspect", "--tests", build_dir], capture_output=True,
                           text=True, timeout=120)
        return {t["name"]: t.get("protocol", "exitcode") for t in json.loads(p.stdout)}
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return {}


def looks_like_tap(stdout):
    return any(TAP_RESULT.match(l) or TAP_PLAN.match(l) for l in stdout.splitlines())


def count_tap(stdout):
    """(passed, failed, failing lines with their diagnostics) of one TAP stream."""
    passed = failed = 0
    plan = None
    details = []
    in_failure = False
    for line in stdout.splitlines():
        m = TAP_RESULT.match(line)
        if m:
            directive = TAP_DIRECTIVE.search(m.group(2))
            todo = directive is not None and directive.group(1).upper() == "TODO"
            bad = m.group(1) == "not ok" and not todo
            passed += not bad
            failed += bad
            in_failure = bad
            if bad:
                details.append(line)
            continue
        p = TAP_PLAN.match(line)
        if p:
            plan = int(p.group(1))
            in_failure = False
            if plan == 0 and TAP_DIRECTIVE.search(p.group(2)):
                plan = None
                passed += 1  # `1..0 # SKIP`: a skipped test, as for an exit-code test
        elif in_failure and line.startswith("#"):
            details.append(line)
    if plan is not None and passed + failed < plan:
        missing = plan - passed - failed
        failed += missing
        details.append("(%d of %d planned results never printed)" % (missing, plan))
    return passed, failed, details


def count_meson(build_dir, status):
    path = os.path.join(build_dir, "meson-logs", "testlog.json")
    if not os.path.exists(path):
        log("no %s: meson test did not run" % path)
        return 0, 1
    protos = protocols(build_dir)
    passed = failed = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        runs = [json.loads(l) for l in f if l.strip()]
    for t in runs:
        name, result, stdout = t.get("name", "?"), t.get("result", "?"), t.get("stdout") or ""
        proto = protos.get(name) or ("tap" if looks_like_tap(stdout) else "exitcode")
        if proto == "tap":
            p, fl, details = count_tap(stdout)
            if result not in PASSING_RESULTS and fl == 0:
                fl = 1
                details.append("(meson result %s, exit status %s)" % (result, t.get("returncode")))
        else:
            p, fl, details = (1, 0, []) if result in PASSING_RESULTS else (0, 1, [])
        passed += p
        failed += fl
        if proto == "tap" and fl:
            log("-- %s: %s, %d passed, %d failed" % (name, result, p, fl))
            for line in details[:DETAIL_LINES]:
                log("   " + line)
            if len(details) > DETAIL_LINES:
                log("   ... %d more lines in %s" % (len(details) - DETAIL_LINES, path))
    if status != 0 and failed == 0:
        failed = 1
    return passed, failed


# ---------------------------------------------------------------- conformance runs

def count_conformance(log_file, status):
    summary = None
    with open(log_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = SUMMARY.match(line.strip())
            if m:
                summary = int(m.group(1)), int(m.group(2))
    if summary is None:
        log("conformance printed no 'N passed, N failed' line")
        return 0, 1, 0
    passed, failed = summary
    with open(log_file, encoding="utf-8", errors="replace") as f:
        known = sum(1 for line in f if line.startswith("fail (known)"))
    failed -= known
    if status != 0 and failed == 0:
        failed = 1
    return passed, failed, known


def main(argv):
    if len(argv) != 3 or argv[0] not in ("meson", "conformance"):
        sys.stderr.write(__doc__)
        return 2
    kind, where, status = argv[0], argv[1], int(argv[2])
    if kind == "meson":
        print("%d %d 0" % count_meson(where, status))
    else:
        print("%d %d %d" % count_conformance(where, status))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
