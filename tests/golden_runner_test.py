#!/usr/bin/env python3
"""The golden runner's expect-error (issue 33): an expectation that only the echoed source line
satisfies fails, one that names no kind fails, and a right one passes.

Usage: golden_runner_test.py RELAY_BINARY GOLDEN_DIR

Runs golden_runner.py on copies of tests/golden/ops/nn_fifo_buffer_error.rly with other
expect-error lines, and on the same program with one `)` added (a parse error, whose echoed line
still shows `nn.fifo_buffer`: the old runner, which matched all of stderr, passed it); then checks
own_texts, the cut of stderr into errors, on a rendered type error and a run-time error's call
chain."""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import golden_runner  # noqa: E402
import tap  # noqa: E402

FIFO = "ops/nn_fifo_buffer_error.rly"


def program(golden):
    """The example's program: its lines that are not directives."""
    with open(os.path.join(golden, FIFO), encoding="utf-8") as f:
        return "".join(l for l in f if not golden_runner.DIRECTIVE.match(l))


def run_case(relay, directory, name, expects, text):
    """golden_runner.py on one file: (passed, its TAP output)."""
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write("// args: --no-prelude\n")
        f.write("".join("// expect-error: %s\n" % e for e in expects))
        f.write(text)
    p = subprocess.run([sys.executable, os.path.join(HERE, "golden_runner.py"), relay, path],
                       capture_output=True, text=True, timeout=60)
    return p.returncode == 0 and re.search(r"^ok 1 ", p.stdout, re.M) is not None, p.stdout + p.stderr


def main(argv):
    relay, golden = os.path.abspath(argv[0]), argv[1]
    source = program(golden)
    unbalanced = source.rstrip("\n") + ")\n"
    message = "`nn.fifo_buffer`: the data (2) must be shorter than the buffer (2) along axis 0"
    # (what, expect-error lines, program, whether the runner must pass it, text its report must have)
    cases = [
        ("the committed expectation passes", ["type error: " + message], source, True, None),
        ("the kind and a phrase with `...` pass", ["type error: ... must be shorter than the buffer"],
         source, True, None),
        ("a note line continues the line before", ["type error: `nn.fifo_buffer`", "along axis 0"],
         source, True, None),
        ("the old expectation, no kind, fails", ["nn.fifo_buffer"], source, False, "names no kind"),
        ("the old expectation fails on the parse error", ["nn.fifo_buffer"], unbalanced, False,
         "names no kind"),
        ("the type error's expectation fails on the parse error", ["type error: " + message], unbalanced,
         False, "no error's own text has"),
        ("text only the echoed line has fails", ["parse error: ... nn.fifo_buffer"], unbalanced, False,
         "only the echoed source line"),
        ("the parse error's own words pass", ["parse error: this `)` has no matching opening bracket"],
         unbalanced, True, None),
        ("the wrong kind fails", ["run-time error: " + message], source, False, "no error's own text has"),
        ("a line after the kind's is found after it", ["type error: along axis 0", "nn.fifo_buffer"],
         source, False, "no error's own text has"),
    ]
    results = []
    with tempfile.TemporaryDirectory() as d:
        for k, (what, expects, text, want, says) in enumerate(cases):
            ok, out = run_case(relay, d, "case%d.rly" % k, expects, text)
            good = ok == want and (says is None or says in out)
            results.append((good, what, "expect-error lines %r: the runner %s; its report:\n%s" %
                            (expects, "passed" if ok else "failed", out)))

    rendered = ("f.rly:1:1: type error: `add` cannot broadcast the shapes (2) and (3)\n"
                " 1 | add(ones((2)), ones((3)))\n"
                "   | ^~~~~~~~~~~~~~~~~~~~~~~~~\n"
                "  hint: make the shapes agree\n"
                "\n"
                "f.rly:4:6: run-time error: integer division by zero\n"
                " 4 | @g(0)\n"
                "   |      ^\n"
                "  call chain (most recent call last):\n"
                "    f.rly:9:1: call of @g\n"
                "relay: cannot read g.rly: No such file or directory\n")
    want = ["f.rly:1:1: type error: `add` cannot broadcast the shapes (2) and (3)\n"
            "  hint: make the shapes agree",
            "f.rly:4:6: run-time error: integer division by zero\n"
            "  call chain (most recent call last):\n"
            "    f.rly:9:1: call of @g",
            "relay: cannot read g.rly: no such file or directory"]
    got = golden_runner.own_texts(rendered)
    results.append((got == [w.lower() for w in want], "own_texts drops the echo and caret lines, keeps notes",
                    "got %r" % got))
    checks = [(["run-time error: ... call of @g"], True), (["relay: cannot read"], True),
              (["type error: ... ones((2))"], False), (["type error: `add` cannot broadcast", "call chain"], False),
              (["type error: `add` cannot broadcast", "hint: make"], True)]
    for expects, want_ok in checks:
        problems = golden_runner.error_problems(expects, rendered)
        results.append(((not problems) == want_ok, "error_problems on %r" % expects, "\n".join(problems)))
    return tap.report(results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
