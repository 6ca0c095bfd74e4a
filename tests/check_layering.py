#!/usr/bin/env python3
"""Checks DESIGN.md section 2's rules of the house on the C sources; prints TAP.

Usage: check_layering.py REPO_ROOT

Dependencies point one way, `repl -> runtime, typing -> ir`, so an `#include "X/..."` (or
`<X/...>`) naming a folder the rules forbid is a failure, reported as `# file:line: includes X`.
One test per rule, plus one that every .c/.h file opens with a comment (its role on line one).
A missing or empty folder passes.
"""
import os
import re
import sys

FOLDERS = ["ir", "typing", "runtime", "prelude", "repl"]
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')

# (description, folders the rule applies to, folders they must not include)
RULES = [
    ("ir/ includes nothing from typing/, runtime/, repl/", ["ir"], ["typing", "runtime", "repl"]),
    ("typing/ includes nothing from runtime/ or repl/", ["typing"], ["runtime", "repl"]),
    ("runtime/ includes nothing from typing/ or repl/", ["runtime"], ["typing", "repl"]),
    ("nothing outside repl/ includes repl/", [f for f in FOLDERS if f != "repl"], ["repl"]),
]


def sources(root):
    """Every .c/.h file under the checked folders, as (folder, path relative to root)."""
    out = []
    for folder in FOLDERS:
        for dp, dirs, fs in os.walk(os.path.join(root, folder)):
            dirs.sort()
            for f in sorted(fs):
                if f.endswith((".c", ".h")):
                    out.append((folder, os.path.relpath(os.path.join(dp, f), root)))
    return out


def included_folder(target):
    """The project folder an include names, if any: `typing/unify.h` and `../typing/unify.h`
    both name `typing`."""
    parts = [p for p in target.split("/") if p not in ("", ".", "..")]
    return parts[0] if len(parts) > 1 and parts[0] in FOLDERS else None


def includes(root, rel):
    """(line number, include target, folder it names) for each project include in a file."""
    out = []
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m and included_folder(m.group(1)):
                out.append((n, m.group(1), included_folder(m.group(1))))
    return out


def check_rule(root, files, applies_to, forbidden):
    problems = []
    for folder, rel in files:
        if folder not in applies_to:
            continue
        for n, target, named in includes(root, rel):
            if named in forbidden:
                problems.append("%s:%d: includes %s" % (rel, n, target))
    return problems


def check_opening_comments(root, files):
    problems = []
    for _, rel in files:
        with open(os.path.join(root, rel), "rb") as f:
            start = f.read(2)
        if start not in (b"/*", b"//"):
            problems.append("%s:1: does not start with a comment (`/*` or `//`)" % rel)
    return problems


def report(k, description, problems):
    print("%sok %d - %s" % ("not " if problems else "", k, description))
    for p in problems:
        print("# " + p)
    return not problems


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        sys.stderr.write(__doc__)
        return 2
    root = argv[0]
    files = sources(root)
    print("1..%d" % (len(RULES) + 1))
    ok = True
    for k, (description, applies_to, forbidden) in enumerate(RULES, 1):
        ok &= report(k, description, check_rule(root, files, applies_to, forbidden))
    ok &= report(len(RULES) + 1, "every .c/.h file in %s starts with a comment" %
                 ", ".join(f + "/" for f in FOLDERS), check_opening_comments(root, files))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
