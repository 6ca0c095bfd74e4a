#!/usr/bin/env python3
"""relay.wasm in node against native relay (docs/play.md, "Inside: relay.wasm"): the requests of the
serve tests (tests/serve/serve_test.py and sandbox_test.py, read from their source) and golden texts
through every method get exactly the responses `relay --serve --sandbox` gives, through the bridge
tests/play/wasm_serve.js; requests that need threads, signals or --timeout are skipped with the
reason. Then: 2,000 inputs in one session stay within a heap bound (the collector runs between
inputs), a deep non-tail recursion is relay's "stack overflow" and the next request works, and an
allocation past the heap's cap is "out of memory" with the playground's note. TAP.
Usage: wasm_serve_test.py RELAY [DIST]   (DIST: where relay.js is, play/dist by default;
skipped (TAP's "1..0 # SKIP": meson's TAP reader takes exit 77 for an error) when it has not been built:
play/build or play/wasm/build.sh play/dist)"""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.dirname(here))
import tap  # noqa: E402  (tests/tap.py)
sys.path.insert(0, os.path.join(os.path.dirname(here), "serve"))
from golden_requests import golden_requests  # noqa: E402  (tests/serve/golden_requests.py)

relay = sys.argv[1]
dist = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "play", "dist")
bridge = os.path.join(here, "wasm_serve.js")
results = []


def skip_all(why):
    print("1..0 # SKIP " + why)
    sys.exit(0)


if not os.path.exists(os.path.join(dist, "relay.js")):
    skip_all("%s/relay.js has not been built (play/wasm/build.sh %s)" % (dist, dist))
if not shutil.which("node"):
    skip_all("node is not installed")


def check(ok, name, detail=""):
    results.append((ok, name, detail))


def note(text):
    print("# " + text)


def answers(command, lines, timeout=600):
    """Sends the request lines to a server at once; its response lines, parsed (None past the end)."""
    p = subprocess.run(command, input=b"".join(l + b"\n" for l in lines), capture_output=True, timeout=timeout)
    got = [json.loads(l) for l in p.stdout.splitlines()]
    return got + [None] * (len(lines) - len(got)), p


NATIVE = [relay, "--serve", "--sandbox"]


def wasm(*extra):
    return ["node", bridge, "--dist", dist] + list(extra)


# ---------------------------------------------------------------- the serve tests' requests

# Names the tests' requests use that are not literals: a file the sandbox refuses anyway.
KNOWN = {"source": "/tmp/relay-wasm-test/secret.rly", "picture": "/tmp/relay-wasm-test/g.svg"}


def eval_(id_, text):
    return {"id": id_, "method": "eval", "params": {"text": text}}


SIMPLE = (ast.Constant, ast.JoinedStr, ast.FormattedValue, ast.BinOp, ast.Tuple, ast.List, ast.Dict, ast.Name,
          ast.operator, ast.Load, ast.expr_context)


def requests_of(path):
    """The requests a test sends, in order: the first argument of every .ask/.send call that can be
    evaluated from literals, the test's constant strings and eval_(id, text); and the `bad` lines."""
    tree = ast.parse(open(path).read())
    names = dict(KNOWN)
    found = []

    def value(node):
        return eval(compile(ast.Expression(node), path, "eval"), {"eval_": eval_}, dict(names))

    for node in ast.walk(tree):  # constants first (module level), in order
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if all(isinstance(n, SIMPLE) for n in ast.walk(node.value)):
                try:
                    names[node.targets[0].id] = value(node.value)
                except Exception:
                    pass
            if node.targets[0].id == "bad" and isinstance(node.value, ast.List):
                for t in node.value.elts:
                    if isinstance(t, ast.Tuple) and isinstance(t.elts[0], ast.Constant):
                        found.append(((t.lineno, t.col_offset), t.elts[0].value))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("ask", "send")
                and node.args):
            try:
                r = value(node.args[0])
            except Exception:
                continue  # made in a loop, or of names the test computes
            found.append(((node.lineno, node.col_offset), r))
    found.sort(key=lambda f: f[0])
    return [r if isinstance(r, bytes) else json.dumps(r).encode() for _, r in found]


def why_skipped(line):
    """Why a request cannot run in relay.wasm, or None."""
    try:
        r = json.loads(line)
    except ValueError:
        return None
    if not isinstance(r, dict):
        return None
    if r.get("method") == "interrupt":
        return "an interrupt is answered while another request runs: relay.wasm has no threads"
    text = json.dumps(r.get("params", {}))
    if re.search(r"@loop\(0\)", text):
        return "it never ends: relay stops it with --timeout or an interrupt, the page by ending its worker"
    if "nn.conv2d(ones(shape=[1, 64, 256, 256])" in text:
        return "it is --timeout's test of a long operator call (seconds natively, minutes in relay.wasm)"
    return None


# What differs by design: an out-of-memory error has the playground's note in relay.wasm.
PLAYGROUND_NOTE = "the playground's heap holds 512 MB and collects garbage between inputs only: split the work over inputs"


def without_playground_note(r):
    text = json.dumps(r)
    return json.loads(text.replace('"' + PLAYGROUND_NOTE + '"', '""').replace(",\\n  " + PLAYGROUND_NOTE, "")
                      .replace("\\n  " + PLAYGROUND_NOTE, "")) if PLAYGROUND_NOTE in text else r


def compare(label, lines):
    kept = []
    for line in lines:
        why = why_skipped(line)
        if why:
            note("skipped %s: %s (%s)" % (label, line.decode(errors="replace")[:90], why))
        else:
            kept.append(line)
    # a session per run of requests up to a :quit, which ends relay
    sessions = [[]]
    for line in kept:
        sessions[-1].append(line)
        if b":quit" in line:
            sessions.append([])
    want, got, took = [], [], 0
    for lines in sessions:
        want += answers(NATIVE, lines)[0]
        started = time.time()
        g, p = answers(wasm(), lines)
        took += time.time() - started
        got += g
    note("%s: %d requests in relay.wasm in %.1f s" % (label, len(kept), took))
    for line, w, g in zip(kept, want, got):
        name = "%s: %s" % (label, line.decode(errors="replace")[:100].replace("\n", " "))
        check(g is not None and without_playground_note(g) == w, name,
              "" if g == w else "native %s\nwasm   %s\n%s" % (json.dumps(w)[:1500], json.dumps(g)[:1500],
                                                              p.stderr.decode(errors="replace")[-500:]))


for test in ("serve_test.py", "sandbox_test.py"):
    compare(test, requests_of(os.path.join(root, "tests", "serve", test)))

# serve_test.py's cell of 8,004 lines (made in a loop there): a definition of 8,000 lets, a call of
# it, an error placed past them
lets = ["def @chain(%x : Tensor[(n, 4), float32], %y : Tensor[(1, 4), float32]) {"]
for i in range(8000):
    a = "%x" if i == 0 else "%%v%d" % (i - 1)
    lets.append("  let %%v%d = %s %s %s;" % (i, a, "+*-"[i % 3], "%y" if i % 2 else "2f"))
lets += ["  %v7999", "}", "sum(@chain(ones(shape=[2, 4]), ones(shape=[1, 4])))", "1 + True"]
compare("a cell of 8,004 lines", [json.dumps(eval_(17, "\n".join(lets))).encode()])

# Sizes past a 32-bit size_t (relay.wasm's): an empty tensor's reduction to 2^62 elements, which wrapped
# to a buffer of 8 bytes and wrote past it (found by the golden texts below)
compare("sizes past 32 bits", [json.dumps(eval_(18, 'sum(zeros(shape=[0, 4611686018427387904], dtype="int32"), axis=[0])')).encode(),
                               json.dumps(eval_(19, "1 + 1")).encode()])

# ---------------------------------------------------------------- golden texts through every method

# As serve_test.py sends them (some with a token slipped in), fewer: relay.wasm answers as relay does.
golden = os.path.join(root, "tests", "golden")
texts = sorted(os.path.join(d, f) for d, _, fs in os.walk(golden) for f in fs if f.endswith(".rly"))
lines = []
for i, (method, params) in enumerate(golden_requests(texts, 150)):
    lines.append(json.dumps({"id": i, "method": method, "params": params}).encode())
    if i % 50 == 49:
        lines.append(json.dumps({"id": -1, "method": "reset"}).encode())
compare("golden texts", lines)

# ---------------------------------------------------------------- the heap between inputs

# A quarter of the inputs allocate 2 MB each that is garbage after it (1 GB in all, twice the heap's cap):
# the session runs them all only if the collector runs between inputs, and the WebAssembly memory
# after 2,000 of them is what it was after 100, give or take what the session keeps.
inputs = []
for i in range(2000):
    kind = i % 4
    if kind == 0:
        inputs.append(eval_(i, "sum(ones(shape=[%d, 512]))" % (1000 + i % 7)))
    elif kind == 1:
        inputs.append(eval_(i, "@length(@map(fn(%%x : int32) { %%x * 2 }, @range(%d)))" % (2000 + i % 5)))
    elif kind == 2:
        inputs.append(eval_(i, "def @f%d(%%x : Tensor[(n, 4), float32]) { nn.relu(%%x) * 2f }\n@f%d(ones(shape=[3, 4]))" % (i, i)))
    else:
        inputs.append({"id": i, "method": "check", "params": {"text": "def @g(%%a : int32) { %%a + %d }" % i}})
log = os.path.join(os.environ.get("TMPDIR", "/tmp"), "relay-wasm-memory-%d.log" % os.getpid())
started = time.time()
got, p = answers(wasm("--memory-log", log), [json.dumps(r).encode() for r in inputs])
took = time.time() - started
sizes = [int(x) for x in open(log).read().split()]
os.remove(log)
ok = [g is not None and g.get("result", {}).get("ok") for g in got]
check(all(ok), "2,000 inputs in one session are all answered, ok",
      "first failure: %s" % next((json.dumps(g)[:600] for g, o in zip(got, ok) if not o), ""))
bound = (sizes[99] if len(sizes) > 99 else 0) + (48 << 20)
check(len(sizes) == 2000 and max(sizes) <= bound,
      "2,000 inputs: the WebAssembly memory stays within the size after 100 inputs + 48 MB",
      "after 100: %s, after 2,000: %s, largest %s, bound %d" % (sizes[99:100], sizes[-1:], max(sizes or [0]), bound))
note("2,000 inputs in %.1f s; memory after 1, 100, 2,000 inputs: %s, %s, %s MB" % (
    took, *[round(sizes[k] / 2**20, 1) if len(sizes) > k else None for k in (0, 99, 1999)]))

# ---------------------------------------------------------------- deep recursion, out of memory

deep = [eval_(1, "def @down(%n : int32) -> int32 { if (%n == 0) { 0 } else { 1 + @down(%n - 1) } }\n@down(1000000)"),
        eval_(2, "@down(100)"),
        eval_(3, "%s" % ("(" * 5000 + "1" + ")" * 5000)),
        eval_(4, "sum(ones(shape=[200000000]))"),
        eval_(5, "@down(3) + 1")]
got, p = answers(wasm(), [json.dumps(r).encode() for r in deep])


def first_diag(r):
    items = (r or {}).get("result", {}).get("items", [])
    ds = [i["diagnostic"] for i in items if i["kind"] == "diagnostic"]
    return ds[0] if ds else {}


d = first_diag(got[0])
check(d.get("kind") == "run-time error" and d.get("message", "").startswith(
    "stack overflow: the recursion is too deep for the playground (")
      and d["message"].endswith(" nested calls; relay on the command line allows far more)")
      and "call of @down (" in " ".join(d.get("notes", [])),
      "a deep non-tail recursion is relay's stack-overflow error, with its call chain", json.dumps(got[0])[:800])
check(got[1] is not None and got[1]["result"]["items"][0].get("text") == "100",
      "  ... and the next request works", json.dumps(got[1])[:300])
d = first_diag(got[2])
check(d.get("kind") == "parse error" and d.get("message") == "this is nested too deeply (more than 350 levels)",
      "5,000 nested brackets are the parser's clean error (350 levels in relay.wasm)", json.dumps(got[2])[:500])
d = first_diag(got[3])
check(d.get("message") == "out of memory (a request for 800000000 bytes)" and d.get("notes") == [PLAYGROUND_NOTE],
      "an allocation past the heap's cap is out of memory, with the playground's note", json.dumps(got[3])[:800])
check(got[4] is not None and got[4]["result"]["items"][0].get("text") == "4" and p.returncode == 0,
      "  ... and the session goes on", json.dumps(got[4])[:300] + p.stderr.decode(errors="replace")[-300:])

# A page may pass requests with ccall, which copies the text onto the C stack (4 bytes a character):
# evaluation's share of the stack is counted from below it, so a long text leaves recursion as deep.
pad = "// " + "x" * 200000 + "\n"
got, p = answers(wasm("--ccall"), [json.dumps(r).encode() for r in [
    eval_(1, pad + "def @down(%n : int32) -> int32 { if (%n == 0) { 0 } else { 1 + @down(%n - 1) } }\n@down(500)")]])
check(got[0] is not None and got[0]["result"]["items"][-1].get("text") == "500",
      "a request of 200,000 characters passed by ccall (on the C stack) still recurses 500 calls deep",
      json.dumps(got[0])[:500] + p.stderr.decode(errors="replace")[-300:])

sys.exit(tap.report(results))
