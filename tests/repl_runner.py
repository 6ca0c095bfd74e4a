#!/usr/bin/env python3
"""Transcript tests of the REPL; prints TAP for `meson test`.

Usage: repl_runner.py RELAY_BINARY PATH...

Each PATH is a transcript (`*.txt`) or a directory searched for them, or a Markdown file whose
```relay-repl fenced blocks are transcripts (docs/tour.md), one test and one session per block;
a block's exit status is not checked (a tour shows errors freely; its output shows them). A transcript is
what a session shows without a terminal: lines starting with `> ` (or a lone `>`) are typed
input, every other line is the output expected from the inputs above it, stdout and stderr
together, in order. Header lines before the first input:

  # args: --no-prelude     extra command-line arguments
  # exit: 1                the expected exit status (default 0; 1 when an input failed)
  # env: NAME=VALUE        an environment variable for relay (HOME=. makes ~ the scratch directory)
  # any other `# ...` line is a comment

The inputs are fed to `relay [args]` on stdin (not a terminal: no prompt, no colour), in a
scratch directory holding the transcript's `# file: NAME` blocks (a line `# file: NAME`, then the
file's lines each starting with `#| `), so :load has files to read. Among the inputs, a
`# edit: NAME` block (followed by `#| ` lines) rewrites the file at that point of the session:
the runner waits until relay has answered the inputs before it (by sending `:t 8675309` and
reading up to its answer, which it leaves out), then writes the file. The output must equal
the expected lines exactly, apart from trailing spaces, except that `<...>` in an expected line
matches any text within that line (for what varies from run to run, such as :set timing's times).
"""
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 30


SYNC = ":t 8675309"
SYNC_ANSWER = "8675309 : int32"


def parse(lines):
    """(args, exit status, files, steps, expected output, environment) of one transcript's lines.
    steps is a list of ("input", line) and ("edit", name, text) in order."""
    args, status, files, steps, expected, env = [], 0, {}, [], [], {}
    block = None  # the file being collected: (dict to put it in, name)
    started = False
    for line in lines:
        line = line.rstrip("\n").rstrip()
        if line.startswith("#|") and block is not None:
            block[0][block[1]].append(line[3:] if line.startswith("#| ") else line[2:])
            continue
        m = re.match(r"#\s*(args|exit|env|file|edit):\s*(.*)$", line)
        if m and m.group(1) == "edit":
            edit = {m.group(2).strip(): []}
            steps.append(("edit", edit))
            block = (edit, m.group(2).strip())
            continue
        block = None
        if not started and line.startswith("#"):
            if m and m.group(1) == "args":
                args += m.group(2).split()
            elif m and m.group(1) == "exit":
                status = int(m.group(2))
            elif m and m.group(1) == "env":
                name, _, value = m.group(2).strip().partition("=")
                env[name] = value
            elif m and m.group(1) == "file":
                files[m.group(2).strip()] = []
                block = (files, m.group(2).strip())
            continue
        if line == ">" or line.startswith("> "):
            started = True
            steps.append(("input", line[2:]))
        elif started or line:
            started = True
            expected.append(line)
    return args, status, files, steps, expected, env


def converse(relay, args, tmp, steps, env=None):
    """Runs relay on the steps (with env added to the environment); returns (exit status, output lines)."""
    p = subprocess.Popen([relay] + args, cwd=tmp, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, env=dict(os.environ, **(env or {})))
    out = []
    for step in steps:
        if step[0] == "input":
            p.stdin.write(step[1] + "\n")
            continue
        p.stdin.write(SYNC + "\n")
        p.stdin.flush()
        while True:
            line = p.stdout.readline()
            if not line or line.rstrip("\n") == SYNC_ANSWER:
                break
            out.append(line)
        for name, body in step[1].items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write("\n".join(body) + "\n")
    rest, _ = p.communicate(timeout=TIMEOUT)
    return p.returncode, "".join(out) + rest


def same_line(want, got):
    """Whether an output line is the expected one, `<...>` in it matching any text."""
    if "<...>" not in want:
        return want == got
    pattern = ".*".join(re.escape(part) for part in want.split("<...>"))
    return re.fullmatch(pattern, got) is not None


def run_case(relay, name, lines, check_status):
    args, status, files, steps, expected, env = parse(lines)
    with tempfile.TemporaryDirectory() as tmp:
        for fname, body in files.items():
            with open(os.path.join(tmp, fname), "w") as f:
                f.write("\n".join(body) + "\n")
        try:
            code, stdout = converse(relay, args, tmp, steps, env)
        except subprocess.TimeoutExpired:
            return ["timed out after %d s" % TIMEOUT]
    got = [l.rstrip() for l in stdout.rstrip("\n").split("\n")] if stdout.strip() else []
    while expected and not expected[-1]:
        expected.pop()
    problems = []
    printed = got
    got = [w if w is not None and same_line(w, g) else g for w, g in zip(expected + [None] * len(got), got)]
    if check_status and code != status:
        problems.append("exit status %d, expected %d" % (code, status))
    if got != expected:
        for i, (w, g) in enumerate(zip(expected + [None] * len(got), got + [None] * len(expected))):
            if w != g:
                problems.append("first difference at output line %d:\n   want: %s\n    got: %s" % (i + 1, w, g))
                break
        problems.append("whole output:\n" + "\n".join("    " + l for l in printed))
    return problems


def cases(path):
    """(name, lines, whether to check the exit status) for every transcript in path."""
    if os.path.isdir(path):
        out = []
        for f in sorted(os.listdir(path)):
            if f.endswith(".txt"):
                out += cases(os.path.join(path, f))
        return out
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    if not path.endswith(".md"):
        return [(path, lines, True)]
    out, block, start = [], None, 0
    for n, line in enumerate(lines, 1):
        if block is None and line.strip() == "```relay-repl":
            block, start = [], n
        elif block is not None and line.strip() == "```":
            out.append(("%s:%d" % (path, start), block, False))
            block = None
        elif block is not None:
            block.append(line)
    return out


def main():
    relay = os.path.abspath(sys.argv[1])
    all_cases = [c for p in sys.argv[2:] for c in cases(p)]
    print("1..%d" % len(all_cases))
    failed = 0
    for i, (name, lines, check_status) in enumerate(all_cases, 1):
        problems = run_case(relay, name, lines, check_status)
        print("%s %d - %s" % ("not ok" if problems else "ok", i, name))
        for p in problems:
            for line in p.split("\n"):
                print("# " + line)
        failed += bool(problems)
    if failed:
        print("# %d of %d transcripts failed" % (failed, len(all_cases)))


if __name__ == "__main__":
    main()
