#!/usr/bin/env python3
"""Allocation-failure injection (issue "Reliability"), as Lua's test build does: with
RELAY_FAIL_ALLOC=n (builds without NDEBUG), the n-th allocation fails as if memory were exhausted.
For every n over parsing, checking, compiling and evaluating a few REPL sessions, relay must say
"out of memory" cleanly (exit 0 or 1, no signal, no internal error) and, when the failure was in an
input rather than at start-up, answer the next input. TAP; SKIP in release builds.
Usage: alloc_failures.py RELAY"""
import json
import subprocess
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402  (tests/tap.py)

relay = sys.argv[1]
PROBE = "40 + 2\n"
ANSWER = "- : int32 = 42"

SESSIONS = [
    ("definitions, a tensor operator, an ADT and a match", ["--no-prelude"], """\
def @f(%x: Tensor[(2, 2), float32]) { nn.relu(%x) + 1f }
@f(ones(shape=[2, 2]))
data T { A : (int32) -> T  B : () -> T }
match (A(3)) { A(%n) => %n * 2, B() => 0 }
:t @f
"""),
    ("recursion, closures, tuples, a type error and a run-time error", ["--no-prelude"], """\
def @fact(%n: int32) -> int32 { if (%n <= 1) { 1 } else { %n * @fact(%n - 1) } }
@fact(10)
let %add = fn(%a, %b) { %a + %b }; (%add(1, 2), %add(3f, 4f))
ones(shape=[2]) + ones(shape=[3])
take([1, 2, 3], 7, mode="fast")
"""),
    ("the Prelude's lists", [], """\
@map(fn(%x) { %x * 2 }, Cons(1, Cons(2, Cons(3, Nil()))))
@foldl(fn(%a, %x) { %a + %x }, 0, Cons(1, Cons(2, Nil())))
"""),
]


def run(args, text, n, probe=True):
    return subprocess.run([relay] + args, input=text + (PROBE if probe else ""), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env={"RELAY_FAIL_ALLOC": str(n)}, timeout=60)


def allocations(args, text, probe=True):
    """The number of allocations the session makes: the first n whose failure is never met."""
    lo, hi = 1, 1
    while "out of memory" in run(args, text, hi, probe).stderr:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if "out of memory" in run(args, text, mid, probe).stderr:
            lo = mid
        else:
            hi = mid
    return hi


def real_exhaustion():
    """Memory really exhausted (the issue's case: a 300,000-element literal with an 8 MB heap),
    in any build: a clean error, and the session goes on."""
    big = "[" + ", ".join(["1"] * 300000) + "]\n"
    p = subprocess.run([relay], input="1 + 1\n" + big + PROBE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env={"GC_MAXIMUM_HEAP_SIZE": "8000000"}, timeout=120)
    return (p.returncode == 1 and "out of memory" in p.stderr and ANSWER in p.stdout,
            "a 300,000-element literal with an 8 MB heap: out of memory while loading it, then the next input",
            ["status %d, stderr %r" % (p.returncode, p.stderr[-300:])])


SERVE_REQUESTS = "".join(json.dumps(r) + "\n" for r in [
    {"id": 1, "method": "eval", "params": {"text": "def @f(%x : int32) { %x + 1 }\n@f(2)\nlet %t = ones(shape=[3])\n:t @f"}},
    {"id": 2, "method": "type_at", "params": {"text": "fn(%a : float32) { %a * %a }", "line": 1, "column": 20}},
    {"id": 3, "method": "complete", "params": {"prefix": "@"}},
    {"id": 4, "method": "check", "params": {"text": "def @g() { 1 + True }"}},
    {"id": 5, "method": "eval", "params": {"text": "%t + %t"}},
])


def serve_session():
    """relay --serve with each allocation failing in turn: past start-up, every request still gets
    exactly one response line of JSON (an item half-written when memory ran out is dropped whole),
    with its id, unless memory ran out while the request itself was read (then the id is null)."""
    def serve(n):
        return subprocess.run([relay, "--serve", "--no-prelude"], input=SERVE_REQUESTS, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env={"RELAY_FAIL_ALLOC": str(n)}, timeout=60)
    startup = allocations(["--no-prelude"], "", probe=False)
    n, problems, tried = startup, [], 0
    while True:
        p = serve(n)
        lines = p.stdout.splitlines()
        try:
            answers = [json.loads(line) for line in lines]
            ids = [a["id"] if a["id"] is not None or "-32603" not in line else i + 1
                   for i, (a, line) in enumerate(zip(answers, lines))]
        except ValueError as e:
            ids = ["not JSON: %s" % e]
        if p.returncode != 0 or "internal error" in p.stderr or ids != [1, 2, 3, 4, 5]:
            problems.append("n=%d: status %d, ids %r, stderr %r" % (n, p.returncode, ids, p.stderr[-200:]))
        tried += 1
        if "out of memory" not in p.stdout:
            break
        n += 1
    return (not problems, "--serve: %d allocations failed one at a time, each request answered with one JSON line" % tried,
            problems[:5])


def main():
    if "out of memory" not in run(["--no-prelude"], "", 1).stderr:
        ok, name, problems = real_exhaustion()
        print("1..1\n%s 1 - %s" % ("ok" if ok else "not ok", name))
        for p in problems if not ok else []:
            print("# " + p)
        print("# allocation-failure injection is compiled out of this build (NDEBUG): its sweep is skipped")
        return 0 if ok else 1
        print("1..0 # SKIP allocation-failure injection is compiled out of this build (NDEBUG)")
        return 0
    results = [real_exhaustion(), serve_session()]
    for name, args, text in SESSIONS:
        total = allocations(args, text)
        inputs_end = allocations(args, text, probe=False)  # after this, the probe's own allocations
        startup = allocations(args, "", probe=False)  # where the inputs' allocations begin
        # Every allocation of the inputs themselves, and a sample of start-up's (the Prelude's are many).
        ns = sorted(set(list(range(1, startup, max(1, startup // 150))) + list(range(max(1, startup - 5), total))))
        problems = []
        for n in ns:
            p = run(args, text, n)
            if p.returncode not in (0, 1) or "internal error" in p.stderr or "out of memory" not in p.stderr:
                problems.append("n=%d: status %d, stderr %r" % (n, p.returncode, p.stderr[-300:]))
            elif n < startup and p.returncode != 1:
                problems.append("n=%d: out of memory at start-up, yet status %d" % (n, p.returncode))
            elif n >= startup and n < inputs_end and ANSWER not in p.stdout:
                problems.append("n=%d: the session did not answer the next input: %r" % (n, p.stderr[-300:]))
        results.append((not problems, "%s: %d allocations failed one at a time (of %d)" % (name, len(ns), total),
                        problems[:5]))
    return tap.report([(ok, name, "\n".join(problems)) for ok, name, problems in results])


sys.exit(main())
