#!/usr/bin/env python3
"""The Pygments lexer (kernel/relay_lexer.py, made from the TextMate grammar) against the grammar
itself under vscode-textmate; prints TAP.

Usage: pygments_test.py EDITORS_DIR RLY_DIR...

For the grammar's tests (editors/tests/*.rly) and the real programs of the RLY_DIRs (the golden
files that expect no error, the Prelude, the shared models), every character but line breaks must
get the same Pygments token from both: the token kernel/relay_lexer.py's token_for_scopes gives the
grammar's scopes there. One result per group of files, with the first differences. Also: Pygments
finds the lexer through an entry point as `meson install` registers it, and then the kernel's
language_info names it. Without Pygments (run with
/usr/bin/python3: Debian's python3-pygments), node or the npm packages it is one TAP SKIP.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "kernel"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def textmate_tokens(editors, files):
    """For each file, a list per line of (start, end, scopes), offsets in code points."""
    p = subprocess.run(["node", os.path.join(editors, "tests", "tokenize.js"), "--json"] + files,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError("tokenize.js failed: " + p.stderr)
    return [json.loads(line) for line in p.stdout.splitlines()]


def code_points(line, utf16_offset):
    """The code point offset in line of a UTF-16 offset."""
    if line.isascii():
        return min(utf16_offset, len(line))
    units = 0
    for i, ch in enumerate(line):
        if units >= utf16_offset:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def differences(lexer, token_for_scopes, path, tm_lines):
    """(line, column, text, grammar's token, lexer's token) where the two differ, first 10."""
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    mine = [None] * len(text)
    for pos, token, value in lexer.get_tokens_unprocessed(text):
        for k in range(len(value)):
            mine[pos + k] = token
    out = []
    starts = [0]
    for line in text.split("\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    lines = text.split("\n")
    for n, (line, tokens) in enumerate(zip(lines, tm_lines)):
        line = line.rstrip("\r")
        for start, end, scopes in tokens:
            a, b = code_points(line, start), code_points(line, end)
            want = token_for_scopes(scopes)
            piece = mine[starts[n] + a:starts[n] + b]
            if piece.count(want) != len(piece):
                col = a + next(k for k, got in enumerate(piece) if got is not want)
                out.append((n + 1, col + 1, line[col:col + 20], want, mine[starts[n] + col]))
            if len(out) >= 10:
                return out
    return out


def registered_by_entry_point(kernel_dir):
    """Whether Pygments finds the lexer under the name `relay` when it is installed as meson does."""
    with tempfile.TemporaryDirectory() as site:
        pkg = os.path.join(site, "relay_pygments")
        os.mkdir(pkg)
        shutil.copy(os.path.join(kernel_dir, "relay_lexer.py"), os.path.join(pkg, "__init__.py"))
        shutil.copy(os.path.join(ROOT, "editors", "relay.tmLanguage.json"), pkg)
        shutil.copytree(os.path.join(kernel_dir, "relay_pygments.dist-info"),
                        os.path.join(site, "relay_pygments-0.1.0.dist-info"))
        # ... and the kernel names it in its language_info (where ipykernel is there to import it)
        code = ("import sys, pygments.lexers as L; x = L.get_lexer_by_name('relay');"
                "print(type(x).__module__, L.get_lexer_for_filename('a.rly').name)\n"
                "try:\n import ipykernel\nexcept ImportError:\n print('relay'); sys.exit()\n"
                "sys.path.insert(0, %r); import relay_kernel; print(relay_kernel.pygments_lexer_name())"
                % kernel_dir)
        env = dict(os.environ, PYTHONPATH=site)
        p = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=env, cwd=site, timeout=60)
        return p.returncode == 0 and p.stdout.split() == ["relay_pygments", "Relay", "relay"], p.stdout


def main(argv):
    if len(argv) < 1:
        sys.stderr.write(__doc__)
        return 2
    editors, rly_dirs = os.path.abspath(argv[0]), argv[1:]
    try:
        import pygments  # noqa: F401
    except ImportError:
        print("1..0 # SKIP Pygments is not installed (Debian: python3-pygments)")
        return 0
    import grammar_test
    reason = grammar_test.skip_reason(editors)
    if reason:
        print("1..0 # SKIP " + reason)
        return 0
    import relay_lexer
    lexer = relay_lexer.RelayLexer()
    groups = [("the grammar's tests", sorted(glob.glob(os.path.join(editors, "tests", "*.rly")))),
              ("the real programs", grammar_test.real_programs(rly_dirs))]
    print("1..%d" % (len(groups) + 1), flush=True)
    failed = 0
    for n, (name, files) in enumerate(groups, 1):
        report = []
        for path, tm_lines in zip(files, textmate_tokens(editors, files)):
            for line, col, text, want, got in differences(lexer, relay_lexer.token_for_scopes, path, tm_lines):
                report.append("%s:%d:%d %r: grammar %s, lexer %s" % (path, line, col, text, want, got))
        failed += bool(report)
        print("%s %d - %s (%d files): the Pygments lexer's token is the grammar's at every character"
              % ("not ok" if report else "ok", n, name, len(files)))
        for line in report[:40]:
            print("# " + line)
    ok, out = registered_by_entry_point(os.path.join(ROOT, "kernel"))
    failed += not ok
    print("%s %d - installed as meson installs it, Pygments finds the lexer by name and by file name, "
          "and the kernel's language_info names it"
          % ("ok" if ok else "not ok", len(groups) + 1))
    if not ok:
        print("# " + out.replace("\n", "\n# "))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
