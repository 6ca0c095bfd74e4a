#!/usr/bin/env python3
"""relay --serve (docs/serve.md): every method, the program's printing captured into responses,
bad requests answered with errors while the session goes on, and interrupts (a request, SIGINT) of
a loop that never ends. Each response is compared whole with the one expected. TAP.
Usage: serve_test.py RELAY"""
import glob
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402  (tests/tap.py)
from golden_requests import golden_requests  # noqa: E402  (tests/serve/golden_requests.py)

relay = sys.argv[1]
results = []


def check(ok, name, detail=""):
    results.append((ok, name, detail))


class Server:
    def __init__(self, *args):
        self.p = subprocess.Popen([relay, "--serve"] + list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.buf = b""

    def send(self, request):
        line = request if isinstance(request, bytes) else json.dumps(request).encode()
        self.p.stdin.write(line + b"\n")
        self.p.stdin.flush()

    def read_line(self, timeout=60):
        """The next response line as sent; None after timeout seconds."""
        deadline = time.time() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def read(self, timeout=60):
        """The next response line, parsed; None after timeout seconds."""
        line = self.read_line(timeout)
        return None if line is None else json.loads(line)

    def ask(self, request, timeout=60):
        self.send(request)
        return self.read(timeout)

    def close(self):
        self.p.stdin.close()
        rest = self.p.stdout.read()
        err = self.p.stderr.read()
        return self.p.wait(timeout=60), rest, err


def same(name, got, want):
    check(got == want, name, "" if got == want else "got  %s\nwant %s" % (json.dumps(got), json.dumps(want)))


def scalar(dtype, x):
    return {"kind": "tensor", "dtype": dtype, "shape": [], "data": [x]}


def value(type_, text, v):
    return {"kind": "value", "type": type_, "text": text, "value": v}


def diag(kind, message, line, column, end_line, end_column, notes, rendered, hint=None, severity="error",
         file="<repl>", text_line=None, **more):
    d = {"kind": kind, "severity": severity, "message": message, "file": file, "line": line, "column": column,
         "end_line": end_line, "end_column": end_column}
    d.update(more)
    if text_line:
        d["text_line"] = text_line
    d["notes"] = notes
    if hint:
        d["hint"] = hint
    d["rendered"] = rendered
    return {"kind": "diagnostic", "diagnostic": d}


def result(id_, **members):
    return {"id": id_, "result": members}


def error(id_, code, message):
    return {"id": id_, "error": {"code": code, "message": message}}


# ---------------------------------------------------------------- eval

s = Server("--no-prelude")
same("eval: an expression's value, type and structure", s.ask({"id": 1, "method": "eval", "params": {"text": "1 + 2"}}),
     result(1, ok=True, items=[value("int32", "3", scalar("int32", 3))]))

same("eval: a definition, a value, a binding and a command, in order",
     s.ask({"id": 2, "method": "eval", "params": {
         "text": "def @f(%x : int32) -> int32 { %x * 2 }\n@f(21)\nlet %y = ones(shape=[2, 2])\n:t @f"}}),
     result(2, ok=True, items=[
         {"kind": "definition", "name": "@f", "type": "fn(int32) -> int32"},
         value("int32", "42", scalar("int32", 42)),
         {"kind": "binding", "name": "%y", "type": "Tensor[(2, 2), float32]", "text": "[[1f, 1f],\n [1f, 1f]]",
          "value": {"kind": "tensor", "dtype": "float32", "shape": [2, 2], "data": [1, 1, 1, 1]}},
         {"kind": "output", "text": "@f : fn(int32) -> int32\n"}]))

same("eval: later inputs see the session's bindings and %it",
     s.ask({"id": 3, "method": "eval", "params": {"text": "%y + %y\n%it"}}),
     result(3, ok=True, items=[
         value("Tensor[(2, 2), float32]", "[[2f, 2f],\n [2f, 2f]]",
               {"kind": "tensor", "dtype": "float32", "shape": [2, 2], "data": [2, 2, 2, 2]}),
         value("Tensor[(2, 2), float32]", "[[2f, 2f],\n [2f, 2f]]",
               {"kind": "tensor", "dtype": "float32", "shape": [2, 2], "data": [2, 2, 2, 2]})]))

same("eval: a data declaration, constructors, tuples and closures",
     s.ask({"id": 4, "method": "eval", "params": {
         "text": "data Opt[a] { None, Some(a) }\nSome((1, 2f))\nfn(%x : int32) { %x }"}}),
     result(4, ok=True, items=[
         {"kind": "data", "name": "Opt", "constructors": [{"name": "None", "type": "fn<a>() -> Opt[a]"},
                                                          {"name": "Some", "type": "fn<a>(a) -> Opt[a]"}]},
         value("Opt[(int32, float32)]", "Some((1, 2f))",
               {"kind": "constructor", "name": "Some", "fields": [
                   {"kind": "tuple", "fields": [scalar("int32", 1), scalar("float32", 2)]}]}),
         value("fn(int32) -> int32", "<closure>", {"kind": "closure"})]))

same("eval: a definition over several lines, and a :{ :} block, are one input each",
     s.ask({"id": 5, "method": "eval", "params": {
         "text": "def @g(%a : int32) {\n  %a + 1\n}\n:{\ndef @h() { @g(1) }\n@h()\n:}"}}),
     result(5, ok=True, items=[
         {"kind": "definition", "name": "@g", "type": "fn(int32) -> int32"},
         {"kind": "definition", "name": "@h", "type": "fn() -> int32"},
         value("int32", "2", scalar("int32", 2))]))

same("eval: a type error is a diagnostic (the session goes on to the next input)",
     s.ask({"id": 6, "method": "eval", "params": {"text": "[1f, 2f] + [1f, 2f, 3f]\n7"}}),
     result(6, ok=False, items=[
         diag("type error", "`add` cannot broadcast the shapes (2) and (3)", 1, 1, 1, 24,
              ["dimension 0 of the first argument is 2, dimension 0 of the second is 3",
               "shapes align from the right; a dimension broadcasts when the two are equal or one is 1"],
              text_line=1, rendered="<repl>:1:1: type error: `add` cannot broadcast the shapes (2) and (3)\n"
              " 1 | [1f, 2f] + [1f, 2f, 3f]\n   | ^~~~~~~~~~~~~~~~~~~~~~~\n"
              "  dimension 0 of the first argument is 2, dimension 0 of the second is 3\n"
              "  shapes align from the right; a dimension broadcasts when the two are equal or one is 1\n"),
         value("int32", "7", scalar("int32", 7))]))

same("eval: a parse error with a hint",
     s.ask({"id": 7, "method": "eval", "params": {"text": "if (1 = 1) { 2 } else { 3 }"}}),
     result(7, ok=False, items=[
         diag("parse error", "`=` binds a variable (`%x = e;`); a comparison is written `==`", 1, 7, 1, 8, [],
              text_line=1, rendered="<repl>:1:7: parse error: `=` binds a variable (`%x = e;`); a comparison is written `==`\n"
              " 1 | if (1 = 1) { 2 } else { 3 }\n   |       ^\n  hint: did you mean `==`?\n",
              hint="did you mean `==`?")]))

same("eval: a run-time error in an earlier input's definition names that input, with the call chain",
     s.ask({"id": 8, "method": "eval", "params": {"text": "def @d(%a : int32) -> int32 { 10 / %a }\n@d(0)"}}),
     result(8, ok=False, items=[
         {"kind": "definition", "name": "@d", "type": "fn(int32) -> int32"},
         diag("run-time error", "integer division by zero", 1, 31, 1, 38,
              ["call chain (most recent call last):", "  <repl>:1:1 (input 17): call of @d"],
              text_line=1, rendered="<repl>:1:31 (input 16): run-time error: integer division by zero\n"
              " 1 | def @d(%a : int32) -> int32 { 10 / %a }\n   |                               ^~~~~~~\n"
              "  call chain (most recent call last):\n    <repl>:1:1 (input 17): call of @d\n", input=16)]))

r = s.ask({"id": 15, "method": "eval", "params": {
    "text": "1\n\ndef @bad() {\n  1 + True\n}\n:{\n2\n3 + False\n:}\n  // a comment\n  4 + True"}})
same("eval: a diagnostic's text_line is its line in the request's text (inputs of several lines, a block)",
     [(i["kind"], i.get("diagnostic", {}).get("line"), i.get("diagnostic", {}).get("text_line")) for i in r["result"]["items"]],
     [("value", None, None), ("diagnostic", 2, 4), ("diagnostic", 2, 8), ("diagnostic", 2, 11)])

same("eval: a hole is described, and nothing runs",
     s.ask({"id": 9, "method": "eval", "params": {"text": "fn(%v : Tensor[(3), float32]) { %v + ?w }"}}),
     result(9, ok=False, items=[
         diag("hole", "the hole `?w` must be Tensor[s2, float32]", 1, 38, 1, 40,
              ["where Broadcast(Tensor[(3), float32], Tensor[s2, float32], Tensor[s1, float32])  (from `add`)",
               "in scope:", "  %v : Tensor[(3), float32]"],
              text_line=1, rendered="<repl>:1:38: hole: the hole `?w` must be Tensor[s2, float32]\n"
              " 1 | fn(%v : Tensor[(3), float32]) { %v + ?w }\n   |                                      ^~\n"
              "  where Broadcast(Tensor[(3), float32], Tensor[s2, float32], Tensor[s1, float32])  (from `add`)\n"
              "  in scope:\n    %v : Tensor[(3), float32]\n", severity="hole")]))

same("eval: what a command prints to stderr is a stderr item",
     s.ask({"id": 10, "method": "eval", "params": {"text": ":load /nonexistent/x.rly"}}),
     result(10, ok=False, items=[
         {"kind": "stderr", "text": "relay: cannot read /nonexistent/x.rly: No such file or directory\n"}]))

same("eval: what is printed (a command's answer, :trace's lines) is an output item before the next item",
     s.ask({"id": 11, "method": "eval", "params": {"text": ":trace @g\n@g(4)\n:untrace"}}),
     result(11, ok=True, items=[
         {"kind": "output", "text": "@g is now traced.\n@g <-- 4\n@g --> 5\n"},
         value("int32", "5", scalar("int32", 5)),
         {"kind": "output", "text": "@g is no longer traced.\n"}]))

same("eval: max_elements cuts a tensor's data",
     s.ask({"id": 12, "method": "eval", "params": {"text": "arange(5f)", "max_elements": 2}}),
     result(12, ok=True, items=[value("Tensor[(5), float32]", "[0f, 1f, 2f, 3f, 4f]",
                                      {"kind": "tensor", "dtype": "float32", "shape": [5], "data": [0, 1],
                                       "truncated": True})]))

same("eval: bool, int64, uint8 and float64 data; nan and inf as strings",
     s.ask({"id": 13, "method": "eval", "params": {
         "text": "[True, False]\n9007199254740993i64\n255u8\n[0f64, 1f64, -1f64, 0.5f64] / [0f64, 0f64, 0f64, 1f64]"}}),
     result(13, ok=True, items=[
         value("Tensor[(2), bool]", "[True, False]", {"kind": "tensor", "dtype": "bool", "shape": [2], "data": [True, False]}),
         value("int64", "9007199254740993i64", scalar("int64", 9007199254740993)),
         value("uint8", "255u8", scalar("uint8", 255)),
         value("Tensor[(4), float64]", "[nanf64, inff64, -inff64, 0.5f64]",
               {"kind": "tensor", "dtype": "float64", "shape": [4], "data": ["nan", "inf", "-inf", 0.5]})]))

# a list 150 long: constructors nest 100 levels, then "cut"
r = s.ask({"id": 14, "method": "eval", "params": {"text": ":{\ndata L { E, C(int32, L) }\ndef @mk(%n : int32) -> L { if (%n == 0) { E } else { C(%n, @mk(%n - 1)) } }\n:}\n@mk(150)"}})
depth, v = 0, r["result"]["items"][2]["value"] if r and len(r["result"].get("items", [])) == 3 else None
while v and v.get("kind") == "constructor":
    depth, v = depth + 1, v["fields"][1]
check(depth == 100 and v == {"kind": "cut"}, "eval: a value nested past 100 levels is cut there",
      "depth %d, then %r" % (depth, v))

cells = Server("--no-prelude")  # a session of its own: %it and the bindings of `s` stay as they are
r = cells.ask({"id": 16, "method": "eval", "params": {"text": "(1 2\n10\n)\n11\n(3,\n4 5)\n12"}})
same("eval: a parse error in brackets still open ends its input at its line; the lines after it are inputs of their own",
     [(i["kind"], i.get("diagnostic", {}).get("line"), i.get("diagnostic", {}).get("text_line"), i.get("text"))
      for i in r["result"]["items"]],
     [("diagnostic", 1, 1, None), ("value", None, None, "10"), ("diagnostic", 1, 3, None), ("value", None, None, "11"),
      ("diagnostic", 2, 6, None), ("value", None, None, "12")])

# A cell of 8,004 lines (bench/typing/gen.py's straight line of lets in one definition), a call of
# it, and an error whose text_line is counted past them. Each line of it was parsed again with the
# lines before it once (minutes in a debug build); now it is parsed once. Not timed here:
# bench/cell/run.py times it.
lets = ["def @chain(%x : Tensor[(n, 4), float32], %y : Tensor[(1, 4), float32]) {"]
for i in range(8000):
    a = "%x" if i == 0 else "%%v%d" % (i - 1)
    lets.append("  let %%v%d = %s %s %s;" % (i, a, "+*-"[i % 3], "%y" if i % 2 else "2f"))
lets += ["  %v7999", "}", "sum(@chain(ones(shape=[2, 4]), ones(shape=[1, 4])))", "1 + True"]
r = cells.ask({"id": 17, "method": "eval", "params": {"text": "\n".join(lets)}})
items = r["result"]["items"] if r else []
same("eval: a cell of 8,004 lines: a definition of 8,000 lets, a call of it, an error placed on its line",
     [(i["kind"], i.get("name"), i.get("type"), i.get("diagnostic", {}).get("text_line")) for i in items],
     [("definition", "@chain", "fn<n : ShapeVar>(Tensor[(n, 4), float32], Tensor[(1, 4), float32]) -> "
                                "Tensor[(n, 4), float32]", None),
      ("value", None, "float32", None), ("diagnostic", None, None, 8005)])
# Comments dropped by a blank line were where the next input started: its diagnostic had that
# line's text_line too, the member twice (JSON readers keep the last, which was right by luck).
cells.send({"id": 18, "method": "eval", "params": {"text": "// a note\n\n1 + True"}})
raw = cells.read_line() or b""
check(raw.count(b'"text_line"') == 1 and b'"text_line":3' in raw,
      "eval: an input after comments that a blank line dropped has one text_line, its own line", raw.decode()[:300])
cells.close()

# ---------------------------------------------------------------- check, type, type_at

same("check: definitions, data and expressions with their types; nothing joins the session",
     s.ask({"id": 20, "method": "check", "params": {"text": "def @pair(%a, %b) { (%b, %a) }\ndata T { A }\n@pair(1, 2f)"}}),
     result(20, ok=True, items=[
         {"kind": "definition", "name": "@pair", "type": "fn<t1, t2>(t1, t2) -> (t2, t1)"},
         {"kind": "data", "name": "T", "constructors": [{"name": "A", "type": "fn() -> T"}]},
         {"kind": "expression", "type": "(float32, int32)"}]))
same("check: the checked definitions did not join the session",
     s.ask({"id": 21, "method": "type", "params": {"text": "@pair"}}),
     result(21, ok=False, type=None, items=[
         diag("type error", "unknown global `@pair`", 1, 1, 1, 6, [],
              "<repl>:1:1: type error: unknown global `@pair`\n 1 | @pair\n   | ^~~~~\n")]))
same("check: an error is placed in the file named by `name`",
     s.ask({"id": 22, "method": "check", "params": {"text": "def @k() {\n  1 + True\n}", "name": "k.rly"}}),
     result(22, ok=False, items=[
         diag("type error", "`add` needs arguments of one element type, but they are int32 and bool", 2, 3, 2, 11,
              ["first argument: int32", "second argument: bool"],
              "k.rly:2:3: type error: `add` needs arguments of one element type, but they are int32 and bool\n"
              " 2 |   1 + True\n   |   ^~~~~~~~\n  first argument: int32\n  second argument: bool\n", file="k.rly")]))
three = ("def @a(%x : int32) -> bool { %x }\ndef @ok(%x : int32) { %x * 2 }\ndef @b() { 1 +\n"
         "def @uses_a() -> bool { @a(1) }\ndef @c() -> int32 { (1, 2) }")
same("check: every error of a text, in source order (issue 31): a parse error recovered from, no error for @uses_a",
     s.ask({"id": 37, "method": "check", "params": {"text": three, "name": "three.rly"}}),
     result(37, ok=False, items=[
         diag("type error", "the function's result has the wrong type", 1, 30, 1, 32, ["expected: bool", "found:    int32"],
              "three.rly:1:30: type error: the function's result has the wrong type\n"
              " 1 | def @a(%x : int32) -> bool { %x }\n   |                              ^~\n"
              "  expected: bool\n  found:    int32\n", file="three.rly"),
         diag("parse error", "expected an expression, found `def`", 4, 1, 4, 4, [],
              "three.rly:4:1: parse error: expected an expression, found `def`\n"
              " 4 | def @uses_a() -> bool { @a(1) }\n   | ^~~\n", file="three.rly"),
         diag("type error", "the function's result has the wrong type", 5, 21, 5, 27,
              ["expected: int32", "found:    (int32, int32)"],
              "three.rly:5:21: type error: the function's result has the wrong type\n"
              " 5 | def @c() -> int32 { (1, 2) }\n   |                     ^~~~~~\n"
              "  expected: int32\n  found:    (int32, int32)\n", file="three.rly")]))

same("type: an expression's type", s.ask({"id": 23, "method": "type", "params": {"text": "@g"}}),
     result(23, ok=True, type="fn(int32) -> int32"))
s.ask({"id": 24, "method": "eval", "params": {"text": "def @layer(%x : Tensor[(n, 784), float32]) { nn.relu(%x) }"}})
same("type: the substitution at a call",
     s.ask({"id": 25, "method": "type", "params": {"text": "@layer(ones(shape=[64, 784]))"}}),
     result(25, ok=True, type="Tensor[(64, 784), float32]", where="n := 64"))

text = "def @h2(%v : Tensor[(3), float32]) {\n  let %w = %v * 2f;\n  %w + %v\n}"
same("type_at: a use of a variable",
     s.ask({"id": 26, "method": "type_at", "params": {"text": text, "line": 3, "column": 3}}),
     result(26, ok=True, type="Tensor[(3), float32]", span={"line": 3, "column": 3, "end_line": 3, "end_column": 5},
            expression="%w"))
same("type_at: an operator call, between its parts",
     s.ask({"id": 27, "method": "type_at", "params": {"text": text, "line": 2, "column": 14}}),
     result(27, ok=True, type="Tensor[(3), float32]", span={"line": 2, "column": 12, "end_line": 2, "end_column": 19},
            expression="%v * 2f"))
same("type_at: an operator, as this call instantiates it",
     s.ask({"id": 27, "method": "type_at", "params": {"text": text, "line": 2, "column": 15}}),
     result(27, ok=True, type="fn(Tensor[(3), float32], float32) -> Tensor[(3), float32]",
            span={"line": 2, "column": 15, "end_line": 2, "end_column": 16}, expression="*"))
same("type_at: a parameter where it is bound",
     s.ask({"id": 28, "method": "type_at", "params": {"text": text, "line": 1, "column": 9}}),
     result(28, ok=True, type="Tensor[(3), float32]", span={"line": 1, "column": 9, "end_line": 1, "end_column": 11},
            expression="%v"))
same("type_at: a place with nothing there",
     s.ask({"id": 29, "method": "type_at", "params": {"text": text, "line": 9, "column": 1}}),
     result(29, ok=True, type=None))
same("type_at: in an ill-typed text, the types found before the error",
     s.ask({"id": 30, "method": "type_at", "params": {"text": "def @bad(%a : int32) { let %b = %a + 1; %b + True }",
                                                      "line": 1, "column": 29}}),
     result(30, ok=False, type="int32", span={"line": 1, "column": 28, "end_line": 1, "end_column": 30},
            expression="%b", items=[
                diag("type error", "`add` needs arguments of one element type, but they are int32 and bool",
                     1, 41, 1, 50, ["first argument: int32", "second argument: bool"],
                     "<text>:1:41: type error: `add` needs arguments of one element type, but they are int32 and bool\n"
                     " 1 | def @bad(%a : int32) { let %b = %a + 1; %b + True }\n"
                     "   |                                         ^~~~~~~~~\n"
                     "  first argument: int32\n  second argument: bool\n", file="<text>")]))

same("inlay: the binders whose type is not written, each at the end of its name",
     s.ask({"id": 37, "method": "inlay", "params": {"text": "def @h3(%v : Tensor[(3), float32], %u) {\n  let %w = %v * 2f;\n"
                                                    "  match (Some(%w)) { Some(%z) => %z + %u, None => %w }\n}"}}),
     result(37, ok=True, hints=[{"line": 1, "column": 38, "name": "%u", "type": "Tensor[s1, float32]"},
                                {"line": 2, "column": 9, "name": "%w", "type": "Tensor[(3), float32]"},
                                {"line": 3, "column": 29, "name": "%z", "type": "Tensor[(3), float32]"}]))
same("inlay: in a text with a type error, the types found before it",
     s.ask({"id": 38, "method": "inlay", "params": {"text": "def @bad(%a : int32) { let %b = %a + 1; %b + True }"}})["result"]["hints"],
     [{"line": 1, "column": 30, "name": "%b", "type": "int32"}])

groups = "def @id(%x) { %x }\ndef @pair(%a) { (@id(%a), %a) }\ndef @bad(%s : Tensor[(2), float32]) -> Missing[int32] { %s }"
r = s.ask({"id": 36, "method": "type_at", "params": {"text": groups, "line": 2, "column": 27}})
same("type_at in a text whose error comes after other definitions were checked (this crashed relay once)",
     {k: r["result"].get(k) for k in ("ok", "type", "expression")}, {"ok": False, "type": "t1", "expression": "%a"})

cell = "let %r = 6f\n:t %r\n%r * %y"
LET_IN_FILE = ("in a file, a `let` needs `;` and then the expression that uses it; "
               "a `let` alone on its line binds a name only at the prompt")
same("check in mode repl: a cell's bindings, the session's bindings in scope, commands left out",
     s.ask({"id": 31, "method": "check", "params": {"text": cell, "mode": "repl"}}),
     result(31, ok=True, items=[{"kind": "binding", "name": "%r", "type": "float32"},
                                {"kind": "expression", "type": "Tensor[(2, 2), float32]"}]))
same("type_at in mode repl: a binding the cell makes, where it is used",
     s.ask({"id": 35, "method": "type_at", "params": {"text": cell, "line": 3, "column": 2, "mode": "repl"}}),
     result(35, ok=True, type="float32", span={"line": 3, "column": 1, "end_line": 3, "end_column": 3}, expression="%r"))
same("type_at in mode file: the cell is no file",
     s.ask({"id": 32, "method": "type_at", "params": {"text": cell, "line": 3, "column": 7}}),
     result(32, ok=False, type=None, items=[
         diag("parse error", "expected `;` after the bound value, found `:`", 2, 1, 2, 2, [],
              "<text>:2:1: parse error: expected `;` after the bound value, found `:`\n 2 | :t %r\n   | ^\n"
              "  hint: " + LET_IN_FILE + "\n", hint=LET_IN_FILE, file="<text>")]))
same("type_at in mode repl: the same place read as REPL inputs, a binding from the session",
     s.ask({"id": 33, "method": "type_at", "params": {"text": cell, "line": 3, "column": 7, "mode": "repl"}}),
     result(33, ok=True, type="Tensor[(2, 2), float32]", span={"line": 3, "column": 6, "end_line": 3, "end_column": 8},
            expression="%y"))
same("check: a mode that is neither file nor repl",
     s.ask({"id": 34, "method": "check", "params": {"text": "1", "mode": "cell"}}),
     error(34, -32602, 'params.mode must be "file" or "repl"'))

# ---------------------------------------------------------------- complete, annot, doc, graph

same("complete: globals with their types",
     s.ask({"id": 40, "method": "complete", "params": {"prefix": "@l"}}),
     result(40, candidates=[{"name": "@layer", "kind": "global",
                             "type": "fn<n : ShapeVar>(Tensor[(n, 784), float32]) -> Tensor[(n, 784), float32]"}]))
same("complete: bindings, commands, constructors and operators",
     [s.ask({"id": 41, "method": "complete", "params": {"prefix": p}}) for p in ("%i", ":ty", "So", "nn.bias")],
     [result(41, candidates=[{"name": "%it", "kind": "binding", "type": "L"}]),
      result(41, candidates=[{"name": ":type", "kind": "command", "type": "EXPR: the type of an expression"}]),
      result(41, candidates=[{"name": "Some", "kind": "constructor", "type": "fn<a>(a) -> Opt[a]"}]),
      result(41, candidates=[{"name": "nn.bias_add", "kind": "operator",
                              "type": "fn<t1, t2, t3>(t1, t2) -> t3 where BiasAdd(t1, t2, t3)"}])])
same("annot: the command's text",
     s.ask({"id": 42, "method": "annot", "params": {"text": "@g"}}),
     result(42, ok=True, text="def @g(%a : int32) {\n  %a + 1 /* ty=int32 */\n}\n"))
same("doc: an unknown name fails with the REPL's message",
     s.ask({"id": 43, "method": "doc", "params": {"text": "nothing_here"}}),
     result(43, ok=False, text="", items=[
         {"kind": "stderr", "text": "<repl>: nothing is named `nothing_here` (:browse lists the definitions)\n"}]))
same("graph: the DOT of a function",
     s.ask({"id": 44, "method": "graph", "params": {"text": "@g"}}),
     result(44, ok=True, text='digraph "@g" {\n  fontname="Helvetica";\n  node [shape=box, fontname="Helvetica"];\n'
                              '  edge [fontname="Helvetica", fontsize=10];\n  n0 [label="%a", shape=ellipse];\n'
                              '  n1 [label="1", shape=plaintext];\n  n2 [label="add"];\n'
                              '  result [shape=ellipse, style=bold];\n  n0 -> n2 [label="int32"];\n'
                              '  n1 -> n2 [label="int32"];\n  n2 -> result [label="int32"];\n}\n'))

# ---------------------------------------------------------------- bad requests

bad = [
    (b"not json", error(None, -32700, "the line is not JSON: column 1: expected a value (an object, array, string, "
                                      "number, true, false or null)")),
    # A line cut short: the place is where the text ends (the column after its last character), and
    # the message says where the string, object or array it ends inside starts.
    (b'{"id": 1, "method": "eval", "params": {"text": "x"}', error(None, -32700, "the line is not JSON: column 52: "
                                                                                 "the text ends inside an object (it "
                                                                                 "starts at column 1)")),
    (b'{"id": 1, "method": "eval", "params": {"text": "1 + 2', error(None, -32700, "the line is not JSON: column 54: "
                                                                                  "the text ends inside a string (it "
                                                                                  "starts at column 48; a newline in a "
                                                                                  "string is written \\n)")),
    ('{"id": 1, "method": "eval", "params": {"text": "é ü'.encode(), error(None, -32700, "the line is not JSON: "
                                                                          "column 52: the text ends inside a string (it "
                                                                          "starts at column 48; a newline in a string "
                                                                          "is written \\n)")),
    (b'{"id": 1, "method": "eval", "params": {"text": 12', error(None, -32700, "the line is not JSON: column 50: the "
                                                                              "text ends inside an object (it starts at "
                                                                              "column 39)")),
    (b'{"id": 1, "method": "eval", "params": {"text": "\\u00', error(None, -32700, "the line is not JSON: column 53: "
                                                                                   "the text ends inside a \\u escape (it "
                                                                                   "starts at column 49)")),
    (b'[1, 2', error(None, -32700, "the line is not JSON: column 6: the text ends inside an array (it starts at "
                                   "column 1)")),
    (b'{"id": 1, "method": ', error(None, -32700, "the line is not JSON: column 21: the text ends where a value "
                                                  "should be")),
    (b"[1, 2]", error(None, -32600, "a request is a JSON object, not an array")),
    (b'{"id": 2}', error(2, -32600, 'a request needs "method", a string')),
    (b'{"id": 3, "method": 7}', error(3, -32600, 'a request needs "method", a string')),
    (b'{"id": 4, "method": "eval", "params": [1]}', error(4, -32600, '"params" must be an object, not an array')),
    (b'{"id": 5, "method": "evaluate"}', error(5, -32601, "unknown method `evaluate`; the methods are eval, check, type, "
                                                          "type_at, inlay, complete, annot, doc, graph, interrupt, reset")),
    (b'{"id": 6, "method": "eval"}', error(6, -32602, "params.text must be a string")),
    (b'{"id": 7, "method": "eval", "params": {"text": 7}}', error(7, -32602, "params.text must be a string, not a number")),
    (b'{"id": 8, "method": "type_at", "params": {"text": "1", "line": 0, "column": 1}}',
     error(8, -32602, "params.line must be a whole number from 1 to 1073741824")),
    (b'{"id": 9, "method": "eval", "params": {"text": "1", "max_elements": 1.5}}',
     error(9, -32602, "params.max_elements must be a whole number from 0 to 1073741824")),
    (b'{"id": {"a": [1, "x"]}, "method": "type", "params": {"text": "1"}}',
     result({"a": [1, "x"]}, ok=True, type="int32")),
    (b'{"method": "type", "params": {"text": "True"}}', result(None, ok=True, type="bool")),
]
for i, (line, want) in enumerate(bad):
    same("a bad request gets an error and the session goes on: %s" % line.decode(), s.ask(line), want)
same("invalid UTF-8 in a text is an error with a place, the response still JSON",
     s.ask(b'{"id": 10, "method": "type", "params": {"text": "\xff"}}')["result"]["items"][0]["diagnostic"]["rendered"],
     "<repl>:1:1: parse error: invalid UTF-8: unexpected byte 0xff\n 1 | ?\n   | ^\n")
same("after the bad requests the session still answers", s.ask({"id": 11, "method": "eval", "params": {"text": "@g(1)"}}),
     result(11, ok=True, items=[value("int32", "2", scalar("int32", 2))]))

# ---------------------------------------------------------------- interrupts, reset, quit

same("interrupt: with nothing running", s.ask({"id": 50, "method": "interrupt"}), result(50, interrupted=False))
s.send({"id": 51, "method": "eval", "params": {"text": "def @loop(%n : int32) -> int32 { @loop(%n + 1) }\n@loop(0)\n8"}})
time.sleep(0.5)
first = s.ask({"id": 52, "method": "interrupt"})
same("interrupt: of a loop that never ends, answered at once", first, result(52, interrupted=True))
same("interrupt: the stopped eval says so, and the inputs after the interrupted one do not run",
     s.read(), result(51, ok=False, interrupted=True, items=[
         {"kind": "definition", "name": "@loop", "type": "fn(int32) -> int32"},
         {"kind": "stderr", "text": "Interrupted.\n"}]))
s.send({"id": 53, "method": "eval", "params": {"text": "@loop(0)"}})
time.sleep(0.5)
s.p.send_signal(signal.SIGINT)
same("SIGINT stops the running request", s.read(),
     result(53, ok=False, interrupted=True, items=[{"kind": "stderr", "text": "Interrupted.\n"}]))
s.p.send_signal(signal.SIGINT)
time.sleep(0.2)
same("SIGINT while nothing runs does not reach the next request",
     s.ask({"id": 54, "method": "eval", "params": {"text": "@g(2)"}}),
     result(54, ok=True, items=[value("int32", "3", scalar("int32", 3))]))
same("reset: a fresh session", [s.ask({"id": 55, "method": "reset"}),
                                s.ask({"id": 56, "method": "type", "params": {"text": "%it"}})["result"]["ok"]],
     [result(55), False])
same(":quit ends the session after its response",
     s.ask({"id": 57, "method": "eval", "params": {"text": ":quit\n1"}}), result(57, ok=True, quit=True))
status, rest, err = s.close()
check(status == 0 and rest == b"" and err == b"", "after :quit relay exits 0 with nothing more on stdout or stderr",
      "status %d, stdout %r, stderr %r" % (status, rest, err))

# ---------------------------------------------------------------- mangled requests

# Requests cut short, bytes flipped, random bytes: each line gets one JSON response line, and the
# session answers a good request after them all.
rng = random.Random(20)
good = [json.dumps(r).encode() for r in (
    {"id": 1, "method": "eval", "params": {"text": "def @q(%a : int32) { %a + 1 }\n@q(1)\nlet %z = ones(shape=[2])"}},
    {"id": 2, "method": "type_at", "params": {"text": "fn(%x : float32) { %x * %x }", "line": 1, "column": 20}},
    {"id": 3, "method": "complete", "params": {"prefix": "@"}},
    {"id": 4, "method": "check", "params": {"text": "data D { X(int32) }\ndef @u(%d : D) { match (%d) { X(%n) => %n } }"}},
    {"id": 5, "method": "annot", "params": {"text": "fn(%x) { %x }"}})]
s = Server("--no-prelude")
lines = []
for i in range(400):
    line = bytearray(rng.choice(good))
    how = rng.randrange(4)
    if how == 0:
        line = line[:rng.randrange(len(line))]
    elif how == 1:
        for _ in range(rng.randrange(1, 4)):
            line[rng.randrange(len(line))] = rng.randrange(256)
    elif how == 2:
        line = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
    lines.append(bytes(line).replace(b"\n", b" "))
answered = 0
for line in lines:
    s.send(line)
    if s.read(30) is not None:
        answered += 1
check(answered == len(lines), "400 mangled requests get a response line each", "%d answered" % answered)
same("after the mangled requests a good one is answered",
     s.ask({"id": 99, "method": "type", "params": {"text": "(1, 2f)"}}), result(99, ok=True, type="(int32, float32)"))
status, rest, err = s.close()
check(status == 0 and rest == b"" and err == b"", "relay exits 0 after them, with nothing else written",
      "status %d, stdout %r, stderr %r" % (status, rest[:200], err[:200]))

# ---------------------------------------------------------------- golden texts through every method

# The golden tests' texts, some with a token slipped in, through eval, check, type_at (both modes),
# type, annot and complete: each gets its response and relay lives on (a type_at of a text whose
# error came after other definition groups crashed relay once). In the UBSan build a report ends
# relay, which this sees.
golden = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden")
texts = sorted(glob.glob(os.path.join(golden, "*", "*.rly")))
s = Server("--no-prelude")
answered, asked = 0, 0
for i, (method, params) in enumerate(golden_requests(texts, 600)):
    asked += 1
    r = s.ask({"id": i, "method": method, "params": params}, timeout=60)
    if r is None or r.get("id") != i:
        break
    answered += 1
    if i % 100 == 99:
        s.ask({"id": -1, "method": "reset"})
status, rest, err = s.close()
check(answered == asked and status == 0 and err == b"",
      "600 golden texts, some with a token slipped in, through every method: each answered, relay exits 0",
      "%d of %d answered, status %d, stderr %r" % (answered, asked, status, err[-300:]))

# ---------------------------------------------------------------- the Prelude, end of input

s = Server()
same("the Prelude is loaded without --no-prelude",
     s.ask({"id": 1, "method": "type", "params": {"text": "@map"}}), result(1, ok=True, type="fn<a, b>(fn(a) -> b, List[a]) -> List[b]"))
same("doc: a Prelude function's comment",
     s.ask({"id": 2, "method": "doc", "params": {"text": "@length"}})["result"]["text"].split("\n")[0],
     "@length : fn<a>(List[a]) -> int32")
same("eval: a list's text is the REPL's, List[...] from 5 elements; :set lists changes it",
     [[it["text"] for it in s.ask({"id": 10, "method": "eval", "params": {"text": t}})["result"]["items"]
       if it["kind"] == "value"]
      for t in ["@range(4)", "@range(5)", ":set lists constructors\n@range(5)", ":set lists auto\n@range(5)"]],
     [["Cons(0, Cons(1, Cons(2, Cons(3, Nil()))))"], ["List[0, 1, 2, 3, 4]"],
      ["Cons(0, Cons(1, Cons(2, Cons(3, Cons(4, Nil())))))"], ["List[0, 1, 2, 3, 4]"]])
s.send({"id": 3, "method": "eval", "params": {"text": "@sum(@range(10))"}})
status, rest, err = s.close()
lines = rest.decode().splitlines()
same("at the end of stdin the queued requests are answered, then relay exits 0",
     [status, [json.loads(l) for l in lines], err],
     [0, [result(3, ok=True, items=[value("int32", "45", scalar("int32", 45))])], b""])

sys.exit(tap.report(results))
