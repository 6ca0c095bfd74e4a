#!/usr/bin/env python3
"""Golden-test runner for the relay binary; prints TAP for `meson test` (protocol: 'tap').

Usage: golden_runner.py RELAY_BINARY [--promote] PATH...

Each PATH is a .rly file or a directory searched recursively for *.rly (sorted). Every file is one
test. Lines starting with `//` or `#` may carry directives, with the meaning they have in
../shared/conformance/run.py, except that expect-error is stricter here:

  // args: --no-prelude      extra command-line arguments, placed before the file
  // expect: VALUE           next expected stdout line (in order; blank lines in stdout are
                             ignored; all lines must match)
  // expect-type: @f : TYPE  `relay [args] FILE -t @f` must exit 0 and print TYPE (type
                             parameters compared up to renaming, spaces ignored)
  // expect-error: TEXT      exit status 1, and TEXT is in one error's own text (case-insensitive):
                             its first line `PLACE: KIND: message` and its note lines (a run-time
                             error's call chain too), not the echoed source line ` 12 | ...` nor
                             the caret line under it. TEXT names the error's kind (`parse
                             error`, `type error`, `run-time error`, `hole:`, `internal error`;
                             or at its start `relay:` or `error:`, the command line's own
                             lines); `...`, with the spaces around it, matches any text of the
                             error: `type error: ... cannot broadcast`. Several are found in the
                             order written, each after the one before; a line that names no
                             kind continues the one before it and is found in the same error
                             (`hint: write ...`), so the first must name one. Expect lines are
                             then the values printed before the error
  // expect-errors: N        stderr has exactly N errors: diagnostic lines `PLACE: KIND error:`
                             (parse, type, run-time), holes and warnings not counted
  // expect-warning: TEXT    stderr contains TEXT (case-insensitive)
  // skip: REASON            do not run; report `ok K - FILE # SKIP REASON`

A file without expect-error must exit 0. An exit status other than 0, 1 or 2 (a crash or a
signal) always fails, and so does a run taking longer than 20 seconds. The child's stdin is
/dev/null.

--promote rewrites the `// expect:` lines of each file that has some (and no expect-error) with
the lines its run actually printed, provided the run exited 0 and printed something: in place
when the counts agree, otherwise all old expect lines are replaced by the new list where the
first one stood. The changes are reported as `#` lines; read the diff before committing it.
"""
import difflib
import os
import re
import signal
import subprocess
import sys

TIMEOUT = 20
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRECTIVE = re.compile(
    r"(\s*(?://|#)\s*(args|expect|expect-type|expect-errors|expect-error|expect-warning|skip):\s?)(.*?)\s*$")
# A diagnostic's first line, as ir_diags_print writes it: `FILE:LINE:COL: parse error: ...`.
ERROR_LINE = re.compile(r"^\S.*?:\d+:\d+: [a-z-]+ error: ", re.M)
# Any diagnostic's first line, as ir/diag.c's render writes it: `PLACE: KIND: message`, PLACE being
# `FILE:LINE:COL`, `<repl>:1:17 (input 4)` or `<relay>`, KIND one of ir_diag_kind_name's.
DIAG_HEAD = re.compile(r"^\S.*?: (parse error|type error|run-time error|warning|hole): ")
# The echoed source line under a diagnostic's first line: ` 12 | text`; the caret line follows it.
ECHO_LINE = re.compile(r"^ (\d+) \| ")
# What an expect-error names as its error's kind: a diagnostic's kind (ir_diag_kind_name; a warning
# is expect-warning's), an internal error (a run-time error's or relay's own), or at the start, the
# command line's own lines (repl/driver.c, repl/session.c, repl/main.c: `relay: cannot read ...`).
KINDS = ("parse error", "type error", "run-time error", "hole:", "internal error")
LINE_KINDS = ("relay:", "error:")


# ---------------------------------------------------------------- reading a case

def directives(path):
    """The directives of one case file, by kind, in file order."""
    d = {"args": [], "expect": [], "types": [], "errors": [], "nerrors": None, "warnings": [], "skip": None}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = DIRECTIVE.match(line)
            if not m:
                continue
            key, val = m.group(2), m.group(3)
            if key == "args":
                d["args"] += val.split()
            elif key == "expect":
                d["expect"].append(val)
            elif key == "expect-type":
                d["types"].append(val)
            elif key == "expect-error":
                d["errors"].append(val)
            elif key == "expect-errors":
                d["nerrors"] = int(val)
            elif key == "expect-warning":
                d["warnings"].append(val)
            elif d["skip"] is None:
                d["skip"] = val or "no reason given"
    return d


def norm_type(t):
    """Spaces out, scalar Tensor[(), dt] -> dt, fn<...> parameters renamed in order.

    Identical to norm_type in ../shared/conformance/run.py."""
    t = re.sub(r"\s+", "", t)
    t = re.sub(r"Tensor\[\(\),([a-z0-9]+)\]", r"\1", t)
    names = []
    for m in re.finditer(r"fn<([^>]*)>", t):
        for p in m.group(1).split(","):
            p = p.split(":")[0]
            if p and p not in names:
                names.append(p)
    for i, n in enumerate(names):
        t = re.sub(r"(?<![A-Za-z0-9_@%.])" + re.escape(n) + r"(?![A-Za-z0-9_])", "\x00%d" % i, t)
    return t


# ---------------------------------------------------------------- running relay

class Result:
    """One run of relay: exit status (None on timeout or failure to start), stdout, stderr."""

    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    def lines(self):
        """The non-blank stdout lines, right-stripped: what `// expect:` lines are matched to."""
        return [l.rstrip() for l in self.out.splitlines() if l.strip()]


def run(binary, args):
    try:
        p = subprocess.run([binary] + args, capture_output=True, text=True, errors="replace",
                           timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        return Result(p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired:
        return Result(None, "", "timed out after %ds" % TIMEOUT)
    except OSError as e:
        return Result(None, "", "cannot run %s: %s" % (binary, e))


def describe_status(code):
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return "killed by %s" % signal.Signals(-code).name
        except ValueError:
            return "killed by signal %d" % -code
    return "exit status %d" % code


def tail(text, limit=400):
    text = text.strip()
    if not text:
        return "(empty)"
    return text if len(text) <= limit else "..." + text[-limit:]


# ---------------------------------------------------------------- judging a run

def status_problems(d, r):
    """Exit status and stderr against the directives."""
    problems = []
    want = 1 if d["errors"] or d["nerrors"] else 0
    if r.code not in (0, 1, 2):
        problems.append("crashed or odd exit status (%s); stderr:\n%s" %
                        (describe_status(r.code), tail(r.err)))
    elif r.code != want:
        problems.append("%s, expected %d; stderr:\n%s" %
                        (describe_status(r.code), want, tail(r.err)))
    problems += error_problems(d["errors"], r.err)
    if d["nerrors"] is not None and len(ERROR_LINE.findall(r.err)) != d["nerrors"]:
        problems.append("%d errors reported, expected %d; stderr was:\n%s" %
                        (len(ERROR_LINE.findall(r.err)), d["nerrors"], tail(r.err, 2000)))
    for w in d["warnings"]:
        if w.lower() not in r.err.lower():
            problems.append("stderr lacks warning %r; stderr was:\n%s" % (w, tail(r.err)))
    return problems


def names_kind(text):
    """Whether an expect-error's TEXT names the kind of error it expects."""
    t = text.lower()
    return any(k in t for k in KINDS) or t.lstrip().startswith(LINE_KINDS)


def own_texts(stderr):
    """stderr cut into its errors, each as its own text, lower-cased: a diagnostic's first line and
    its note lines (indented), without the echoed source line and the caret line under it; any other
    line that does not start with a space (`relay: cannot read ...`) with the indented lines after
    it. Blank lines are dropped."""
    items, lines, i = [], stderr.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip():
            continue
        if line[0].isspace() and items:
            items[-1].append(line)
            continue
        items.append([line])
        if DIAG_HEAD.match(line) and i < len(lines) and (m := ECHO_LINE.match(lines[i])):
            i += 1
            if i < len(lines) and lines[i].startswith(" " * (len(m.group(1)) + 2) + "| "):
                i += 1
    return ["\n".join(item).lower() for item in items]


def expect_pattern(text):
    """An expect-error's TEXT as a regular expression: case-insensitive (the texts are lower-cased),
    `...` (with the spaces around it) matching any text of the same error."""
    return re.compile(".*?".join(re.escape(part) for part in re.split(r"\s*\.\.\.\s*", text.lower())), re.S)


def error_problems(expected, stderr):
    """The expect-error lines against the errors' own texts: each found after the one before, one
    that names no kind in the same error as the one before."""
    problems, texts = [], own_texts(stderr)
    at, offset = 0, 0  # where the last match ended: an error's index, an offset in its text
    for k, e in enumerate(expected):
        kind = names_kind(e)
        if not kind and k == 0:
            problems.append("expect-error %r names no kind: begin it with the error's kind, e.g. "
                            "`type error: ... %s` (or `parse error:`, `run-time error:`, ...)" % (e, e))
            continue
        pattern, found = expect_pattern(e), None
        for i in range(at, len(texts) if kind else min(at + 1, len(texts))):
            m = pattern.search(texts[i], offset if i == at else 0)
            if m:
                found = i, m
                break
        if found:
            at, offset = found[0], found[1].end()
            continue
        anywhere = [t for t in texts if pattern.search(t)]
        if anywhere:
            why = (" after the expect-error line before it" if kind else
                   " in the error of the expect-error line before it (a line that names no kind "
                   "must be found in the same error: name the kind to look in a later one)")
        elif pattern.search(stderr.lower()):
            why = " (only the echoed source line or the caret line has it, and they do not count)"
        else:
            why = ""
        problems.append("no error's own text has %r%s; stderr was:\n%s" % (e, why, tail(stderr)))
    return problems


def stdout_problems(d, r):
    """Printed values against the `// expect:` lines; with an expected error, the values printed
    before it."""
    if not d["expect"]:
        return []
    got = r.lines()
    if got == d["expect"]:
        return []
    return ["stdout differs from the expect lines:\n" + line_diff(d["expect"], got)]


def line_diff(want, got):
    """The first mismatching line and the counts: enough to find the problem quickly."""
    out = []
    for i in range(max(len(want), len(got))):
        w = want[i] if i < len(want) else None
        g = got[i] if i < len(got) else None
        if w != g:
            out.append("first difference at expect line %d:" % (i + 1))
            out.append("   want: %s" % ("(nothing)" if w is None else w))
            out.append("    got: %s" % ("(nothing)" if g is None else g))
            break
    out.append("%d lines expected, %d printed" % (len(want), len(got)))
    return "\n".join(out)


def type_problems(binary, path, d):
    problems = []
    for t in d["types"]:
        name, _, want = t.partition(":")
        name = name.strip()
        r = run(binary, d["args"] + [path, "-t", name])
        if r.code != 0 or norm_type(r.out.strip()) != norm_type(want):
            status = r.err if r.code is None else describe_status(r.code)
            problems.append("`-t %s` printed %r (%s), expected %r" %
                            (name, r.out.strip()[-300:], status, want.strip()))
            if r.err.strip() and r.code is not None:
                problems.append("stderr:\n" + tail(r.err, 200))
    return problems


# ---------------------------------------------------------------- promotion

def promote(path, new):
    """Rewrites the file's `// expect:` lines to `new`; returns the old values."""
    with open(path, encoding="utf-8", newline="") as f:
        lines = f.read().splitlines(keepends=True)
    where = [i for i, l in enumerate(lines) if (m := DIRECTIVE.match(l)) and m.group(2) == "expect"]
    old = [DIRECTIVE.match(lines[i]).group(3) for i in where]
    first = lines[where[0]]
    prefix = DIRECTIVE.match(first).group(1)
    eol = first[len(first.rstrip("\r\n")):] or "\n"
    if len(where) == len(new):
        for i, val in zip(where, new):
            m = DIRECTIVE.match(lines[i])
            lines[i] = m.group(1) + val + (lines[i][len(lines[i].rstrip("\r\n")):] or eol)
    else:
        at = where[0]
        lines = [l for i, l in enumerate(lines) if i not in where]
        lines[at:at] = [prefix + val + eol for val in new]
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("".join(lines))
    return old


def maybe_promote(path, d, r):
    """Promotes when allowed and needed; returns report lines (empty if nothing changed)."""
    if not d["expect"] or d["errors"] or r.code != 0:
        return []
    got = r.lines()
    if got == d["expect"]:
        return []
    if not got:
        return ["not promoted: the run printed nothing, which would delete every expect line"]
    old = promote(path, got)
    d["expect"] = got
    changes = [l for l in difflib.unified_diff(old, got, lineterm="", n=0)
               if not l.startswith(("---", "+++", "@@"))]
    return ["promoted %s: %d expect lines -> %d" % (display_name(path), len(old), len(got))] + \
        ["  " + l for l in changes]


# ---------------------------------------------------------------- driver

def check(binary, path, promoting):
    """Runs one case; returns (problems, notes), notes being `#` lines that are not failures."""
    d = directives(path)
    r = run(binary, d["args"] + [path])
    if r.code is None:  # timed out or could not start: the -t runs would fare no better
        return [r.err], []
    notes = maybe_promote(path, d, r) if promoting else []
    return status_problems(d, r) + stdout_problems(d, r) + type_problems(binary, path, d), notes


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for dp, _, fs in os.walk(p):
                found += [os.path.join(dp, f) for f in fs if f.endswith(".rly")]
            files += sorted(found)
        else:
            files.append(p)
    return files


def display_name(path):
    full = os.path.abspath(path)
    if full.startswith(REPO_ROOT + os.sep):
        return os.path.relpath(full, REPO_ROOT)
    return path


def diag(text):
    for line in text.splitlines() or [""]:
        print("# " + line)


def main(argv):
    promoting = "--promote" in argv
    argv = [a for a in argv if a != "--promote"]
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    binary = os.path.abspath(argv[0])
    files = collect(argv[1:])
    print("1..%d%s" % (len(files), "" if files else " # SKIP no .rly files found"), flush=True)
    failed = 0
    for k, path in enumerate(files, 1):
        name = display_name(path)
        if not os.path.isfile(path):
            problems, notes = ["no such file"], []
        else:
            skip = directives(path)["skip"]
            if skip is not None:
                print("ok %d - %s # SKIP %s" % (k, name, skip), flush=True)
                continue
            problems, notes = check(binary, path, promoting)
        print("%sok %d - %s" % ("not " if problems else "", k, name))
        for p in problems + notes:
            diag(p)
        sys.stdout.flush()
        failed += bool(problems)
    if failed:
        diag("%d of %d golden tests failed" % (failed, len(files)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
