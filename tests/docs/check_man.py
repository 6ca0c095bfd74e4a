#!/usr/bin/env python3
"""Checks the manual page against the program; prints TAP.

Usage: check_man.py RELAY_BINARY docs/relay.1

- it renders without warnings (groff -man -ww; skipped when groff is not installed),
- every option that `relay --help` shows is described in it,
- every REPL command that `:help` lists is described in it,
- each example in EXAMPLES that shows its output (`$ relay ...` then the output lines) prints
  exactly that.
"""
import re
import shlex
import shutil
import subprocess
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402  (tests/tap.py)


def man_text(source):
    """The page's words without roff markup: `\\-` as `-`, font escapes and requests dropped."""
    text = source.replace("\\-", "-").replace("\\&", "")
    text = re.sub(r"\\f[BIRP]", "", text)
    lines = []
    for line in text.split("\n"):
        if line.startswith(".\\\""):
            continue
        m = re.match(r"\.(B|I|BR|RB|BI|IB|IR|RI|TP|IP|PP|SH|TH|br|nf|fi)\b ?(.*)", line)
        if m:
            words = m.group(2)
            if m.group(1) in ("BR", "RB", "BI", "IB", "IR", "RI"):  # alternating fonts: glue the parts
                words = "".join(shlex.split(words))
            else:
                words = words.replace('"', "")
            line = words
        lines.append(line)
    return "\n".join(lines)


def main():
    relay, page = sys.argv[1], sys.argv[2]
    source = open(page, encoding="utf-8").read()
    text = man_text(source)
    results = []

    groff = shutil.which("groff")
    if groff:
        r = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", page], capture_output=True, text=True)
        results.append(("renders without warnings", r.returncode == 0 and not r.stderr.strip(), r.stderr.strip()))
    else:
        results.append(("renders without warnings # SKIP groff is not installed", True, ""))

    usage = subprocess.run([relay, "--help"], capture_output=True, text=True).stdout
    options = sorted(set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", usage)))
    missing = [o for o in options if not re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", text)]
    results.append(("describes every option of --help (%s)" % " ".join(options), not missing,
                    "missing: " + " ".join(missing)))

    help_text = subprocess.run([relay, "--no-prelude"], input=":help\n", capture_output=True, text=True).stdout
    commands = sorted(set(re.findall(r"^  (:[a-z?]+)", help_text, re.M)))
    missing = [c for c in commands if not re.search(re.escape(c) + r"(?![a-z])", text)]
    results.append(("describes every REPL command of :help (%d)" % len(commands), commands and not missing,
                    "missing: " + " ".join(missing) if commands else ":help listed no commands"))

    examples = text.split("EXAMPLES", 1)[1].split("\nSH ", 1)[0] if "EXAMPLES" in text else ""
    lines = [l for l in examples.split("\n") if l and not l.startswith(".")]
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ relay "):
            i += 1
            continue
        command, want = lines[i][2:], []
        i += 1
        while i < len(lines) and not lines[i].startswith("$ ") and not lines[i].isupper():
            want.append(lines[i])
            i += 1
        if not want:
            continue  # an example without output (a file of the reader's)
        args = shlex.split(command)[1:]
        r = subprocess.run([relay] + args, capture_output=True, text=True)
        got = r.stdout.rstrip("\n").split("\n")
        results.append(("example `%s`" % command[:60], got == want, "printed %r, the page shows %r" % (got, want)))

    return tap.report([(ok, name, why) for name, ok, why in results])


if __name__ == "__main__":
    sys.exit(main())
