#!/usr/bin/env python3
"""`:graph @f FILE.svg` draws through Graphviz's `dot`; prints TAP.

Usage: graph_render.py RELAY_BINARY

- with `dot` installed: an SVG of a function is written, with a node per operator call and an edge
  labelled with each shape; a definition that failed to check is drawn with its failing node red
  (skipped when `dot` is not on PATH: Debian's `graphviz` package provides it);
- without `dot` (PATH without it): a clear message, no file, and the session goes on.
"""
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402  (tests/tap.py)

LAYER = """:{
def @layer(%x : Tensor[(n, 784), float32], %w : Tensor[(512, 784), float32]) {
  let %h = nn.dense(%x, %w);
  nn.relu(%h)
}
:}
"""
FAILED = """:{
def @bad(%x : Tensor[(64, 784), float32], %w : Tensor[(512, 700), float32]) {
  nn.relu(nn.dense(%x, %w))
}
:}
"""


def run(relay, text, cwd, env=None):
    p = subprocess.run([relay], input=text, text=True, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    return p.returncode, p.stdout


def main():
    relay = os.path.abspath(sys.argv[1])
    results = []  # (description, ok, details)
    have_dot = shutil.which("dot") is not None
    with tempfile.TemporaryDirectory() as tmp:
        if not have_dot:
            results.append(("renders @layer as SVG # SKIP dot (graphviz) is not installed", True, ""))
            results.append(("renders a failed definition with its failing node red # SKIP dot is not installed",
                            True, ""))
        else:
            code, out = run(relay, LAYER + ":graph @layer layer.svg\n", tmp)
            path = os.path.join(tmp, "layer.svg")
            svg = open(path).read() if os.path.exists(path) else ""
            want = ["<title>n2</title>", "nn.dense", "nn.relu", "Tensor[(n, 784), float32]",
                    "Tensor[(512, 784), float32]", "Tensor[(n, 512), float32]", "result"]
            missing = [w for w in want if w not in svg]
            ok = code == 0 and "wrote layer.svg" in out and svg.startswith("<?xml") and not missing
            results.append(("renders @layer as SVG", ok, "exit %d, output:\n%s\nmissing in the SVG: %s" % (code, out, missing)))
            code, out = run(relay, FAILED + ":graph @bad bad.svg\n", tmp)
            path = os.path.join(tmp, "bad.svg")
            svg = open(path).read() if os.path.exists(path) else ""
            # the failing nn.dense: its node drawn in red, its text red too
            start = svg.find("<title>n2</title>")
            dense = svg[start:svg.find("</g>", start)] if start >= 0 else ""
            ok = "wrote bad.svg" in out and 'stroke="red"' in dense and "nn.dense" in dense and "type error" in svg
            results.append(("renders a failed definition with its failing node red", ok, "output:\n%s\nn2: %s" % (out, dense)))
        env = dict(os.environ, PATH=tmp)  # no dot there
        code, out = run(relay, LAYER + ":graph @layer nodot.svg\n1 + 1\n", tmp, env)
        ok = ("`dot` is not installed" in out and "apt-get install graphviz" in out and "- : int32 = 2" in out
              and code == 1 and not os.path.exists(os.path.join(tmp, "nodot.svg")))
        results.append(("without dot: a clear message, no file, the session goes on", ok, "exit %d, output:\n%s" % (code, out)))
    return tap.report([(ok, what, details) for what, ok, details in results])


if __name__ == "__main__":
    sys.exit(main())
