#!/usr/bin/env python3
"""Checks DESIGN.md section 2's rules of the house on the C sources; prints TAP.

Usage: check_layering.py REPO_ROOT [BUILD_DIR]

Dependencies point one way, `repl -> runtime, typing -> ir`, so an `#include "X/..."` (or
`<X/...>`) naming a folder the rules forbid is a failure, reported as `# file:line: includes X`.
One test per rule, plus one that every .c/.h file opens with a comment (its role on line one).
A missing or empty folder passes.

With BUILD_DIR (meson's), the same rules are checked on the symbols the compiled objects use
(`nm`: an object of ir/ must not use a symbol that an object of typing/ defines, and so on), and
inside typing/ and runtime/ the files that call each other in a loop (a strongly connected
component of the file graph, an edge being a symbol one file uses and another defines) must be
one of those docs/HACKING.md names: typing/'s solver core, and runtime/'s evaluator with its
tracing and the operator families with their dispatch.
"""
import collections
import glob
import os
import re
import subprocess
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


# The loops of files that docs/HACKING.md allows ("Layering"): each a set of file names without .c.
ALLOWED_LOOPS = {
    "typing": [
        # the solver core: unification, dimensions, the solver, the relations it runs (and records)
        {"unify", "dim", "solver", "relation", "oprel", "failure", "rel_conv", "rel_create", "rel_data", "rel_dyn",
         "rel_nn", "rel_norm", "rel_qnn", "rel_reduce", "rel_shape", "rel_vision"},
    ],
    "runtime": [
        {"exec", "trace"},  # a traced function's node runs in exec.c and shows its calls through trace.c
        # the kernels' dispatch (kernels.c) and the families it calls, which call its element-wise kernels
        {"kernels", "conv", "data", "dyn", "nn", "norm", "qnn", "reduce", "transform", "vision"},
    ],
}


def object_symbols(build, folder):
    """{file: (defined symbols, used symbols)} of the objects of folder's static library."""
    out = {}
    for o in sorted(glob.glob(os.path.join(build, folder, "*.a.p", "*.o"))):
        name = os.path.basename(o)[:-len(".c.o")]
        text = subprocess.run(["nm", o], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
        defined, used = set(), set()
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBRC":
                defined.add(parts[2])
            elif len(parts) == 2 and parts[0] == "U":
                used.add(parts[1])
        out[name] = (defined, used)
    return out


def check_symbols(objects, applies_to, forbidden):
    owner = {sym: (folder, f) for folder in forbidden for f, (d, _) in objects.get(folder, {}).items() for sym in d}
    problems = []
    for folder in applies_to:
        for f, (_, used) in sorted(objects.get(folder, {}).items()):
            for sym in sorted(used):
                if sym in owner:
                    problems.append("%s/%s.c uses %s, defined in %s/%s.c" % (folder, f, sym, *owner[sym]))
    return problems


def loops(files):
    """The strongly connected components of more than one file (Tarjan), with an edge of each."""
    owner = {sym: f for f, (d, _) in files.items() for sym in d}
    graph = collections.defaultdict(set)
    for f, (_, used) in files.items():
        graph[f] |= {owner[s] for s in used if s in owner and owner[s] != f}
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(files):
        if v not in index:
            visit(v)
    return comps


def check_loops(objects, folder):
    problems = []
    for comp in loops(objects.get(folder, {})):
        if comp not in ALLOWED_LOOPS.get(folder, []):
            problems.append("%s/: these files call each other in a loop: %s" % (folder, " ".join(sorted(comp))))
    return problems


def report(k, description, problems):
    print("%sok %d - %s" % ("not " if problems else "", k, description))
    for p in problems:
        print("# " + p)
    return not problems


def main(argv):
    if len(argv) not in (1, 2) or not all(os.path.isdir(a) for a in argv):
        sys.stderr.write(__doc__)
        return 2
    root = argv[0]
    files = sources(root)
    objects = {f: object_symbols(argv[1], f) for f in FOLDERS} if len(argv) == 2 else None
    print("1..%d" % (len(RULES) + 1 + (len(RULES) + len(ALLOWED_LOOPS) if objects else 0)))
    ok = True
    k = 0
    for description, applies_to, forbidden in RULES:
        k += 1
        ok &= report(k, description, check_rule(root, files, applies_to, forbidden))
    k += 1
    ok &= report(k, "every .c/.h file in %s starts with a comment" %
                 ", ".join(f + "/" for f in FOLDERS), check_opening_comments(root, files))
    if objects:
        if not any(objects.values()):
            print("# no objects under %s: the symbol checks have nothing to read" % argv[1])
            ok = False
        for description, applies_to, forbidden in RULES:
            k += 1
            ok &= report(k, "symbols: " + description.replace("includes", "uses"),
                         check_symbols(objects, applies_to, forbidden))
        for folder, allowed in ALLOWED_LOOPS.items():
            k += 1
            ok &= report(k, "symbols: the only files of %s/ that call each other in a loop are %s" %
                         (folder, "; ".join(" ".join(sorted(a)) for a in allowed)), check_loops(objects, folder))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
