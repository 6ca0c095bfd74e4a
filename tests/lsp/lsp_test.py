#!/usr/bin/env python3
"""relay --lsp (docs/lsp.md) through a stdlib-only client (lspclient.py): the lifecycle, every
error of a file as diagnostics, hover and inlay hints with UTF-16 and UTF-32 columns, definition,
references, outline, completion, signature help, code actions, cancelling a request, a document
edited while its check runs, and 200 random edits of golden files answered without a crash or a
stale diagnostic. Each answer is compared whole with the one expected. TAP.
Usage: lsp_test.py RELAY GOLDEN_DIR"""
import glob
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lspclient  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402  (tests/tap.py)

relay, golden = sys.argv[1], sys.argv[2]
results = []


def same(name, got, want):
    results.append((got == want, name, "" if got == want else
                    "got:  %s\nwant: %s" % (json.dumps(got, ensure_ascii=False), json.dumps(want, ensure_ascii=False))))


def check(name, ok, detail=""):
    results.append((bool(ok), name, detail))


def pos(line, character):
    return {"line": line, "character": character}


def rng(l1, c1, l2, c2):
    return {"start": pos(l1, c1), "end": pos(l2, c2)}


def doc(uri):
    return {"textDocument": {"uri": uri}}


def at(uri, line, character, **more):
    return dict(doc(uri), position=pos(line, character), **more)


def diag(r, code, message, severity=1):
    return {"range": r, "severity": severity, "source": "relay", "code": code, "message": message}


def hover_text(h):
    return h and h["contents"]["value"]


# ---------------------------------------------------------------- the lifecycle

c = lspclient.Client(relay)
same("initialize: the capabilities, UTF-16 when the client offers no encoding",
     {k: c.init["capabilities"][k] for k in ("positionEncoding", "textDocumentSync", "hoverProvider",
                                             "inlayHintProvider", "definitionProvider", "referencesProvider",
                                             "documentSymbolProvider")},
     {"positionEncoding": "utf-16", "textDocumentSync": {"openClose": True, "change": 1}, "hoverProvider": True,
      "inlayHintProvider": True, "definitionProvider": True, "referencesProvider": True,
      "documentSymbolProvider": True})
same("an unknown method is an error the session survives",
     c.wait(c.start("textDocument/rename", at("file:///nothing.rly", 0, 0)))["error"]["code"], -32601)
same("a request about a document never opened is an error",
     c.wait(c.start("textDocument/hover", at("file:///nothing.rly", 0, 0)))["error"]["code"], -32602)
c.proc.stdin.write(b"Content-Length: 9\r\n\r\n{not json")
c.proc.stdin.flush()
same("a message that is not JSON is answered with a parse error", c.wait(None)["error"]["code"], -32700)
same("shutdown then exit: status 0", c.close(), 0)

p = subprocess.Popen([relay, "--lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": at("file:///a.rly", 0, 0)})
ex = json.dumps({"jsonrpc": "2.0", "method": "exit"})
out, err = p.communicate(("Content-Length: %d\r\n\r\n%sContent-Length: %d\r\n\r\n%s" % (len(body), body, len(ex), ex)).encode())
same("a request before initialize is refused (-32002); exit without shutdown: status 1",
     [b"-32002" in out, p.returncode], [True, 1])

# ---------------------------------------------------------------- every error of a file

c = lspclient.Client(relay)
THREE = """def @one(%a : int32) -> float32 { %a }
def @two(%b : Tensor[(2), float32]) { %b + ones(shape=[3]) }
def @uses_one() { @one(1) }
def @three() -> bool { 1 }
"""
c.open("file:///tmp/three.rly", THREE)
d = c.diagnostics("file:///tmp/three.rly")
same("a file with three independent type errors: three diagnostics, in source order, version 1, no cascade",
     [d["version"], [(x["code"], x["range"]["start"]["line"]) for x in d["diagnostics"]]],
     [1, [("type error", 0), ("type error", 1), ("type error", 3)]])
same("  the first in full (range, severity, message with its notes)", d["diagnostics"][0],
     diag(rng(0, 34, 0, 36), "type error", "the function's result has the wrong type\nexpected: float32\nfound:    int32"))
same("hover on a use of a definition that failed, and on a definition that uses it: why their types are not known",
     [hover_text(c.request("textDocument/hover", at("file:///tmp/three.rly", 2, 19))),
      hover_text(c.request("textDocument/hover", at("file:///tmp/three.rly", 2, 6)))],
     ["```relay\n@one\n```\n\nits type is not known: its definition has an error",
      "```relay\n@uses_one\n```\n\nits type is not known: it uses a definition that has an error"])
c.change("file:///tmp/three.rly", "def @ok() { 1 }\n", 2)
same("an edit that fixes them: version 2, no diagnostics", c.diagnostics("file:///tmp/three.rly"),
     {"uri": "file:///tmp/three.rly", "version": 2, "diagnostics": []})
c.notify("textDocument/didClose", doc("file:///tmp/three.rly"))
same("closing a document clears its diagnostics", c.diagnostics("file:///tmp/three.rly")["diagnostics"], [])

# ---------------------------------------------------------------- hover and inlay hints, UTF-16

LAYER = """/// A dense layer then relu.
def @layer(%x : Tensor[(n, 784), float32], %w : Tensor[(128, 784), float32]) {
  let %h = nn.dense(%x, %w);
  nn.relu(%h)
}
def @main() { /* 𝔼é */ let %y = @layer(ones(shape=[64, 784]), zeros(shape=[128, 784])); %y }
def @first(%l) { match (%l) { Cons(%v, _) => %v, Nil => 0 } }
"""
U = "file:///tmp/layer%20one.rly"
c.open(U, LAYER)
same("a file with no error: no diagnostics", c.diagnostics(U)["diagnostics"], [])
# `%y` sits after `/* 𝔼é */`: 𝔼 is two UTF-16 units, é one; `%y` starts at character 28.
same("hover on a let's variable after non-ASCII text: its type, its range in UTF-16 units",
     c.request("textDocument/hover", at(U, 5, 29)),
     {"contents": {"kind": "markdown", "value": "```relay\n%y : Tensor[(64, 128), float32]\n```"},
      "range": rng(5, 28, 5, 30)})
same("hover on a global's use: its type, this use's instance with the substitution, its doc comment",
     hover_text(c.request("textDocument/hover", at(U, 5, 35))),
     "```relay\n@layer : fn<n : ShapeVar>(Tensor[(n, 784), float32], Tensor[(128, 784), float32]) -> "
     "Tensor[(n, 128), float32]\n```\n\nhere: `fn(Tensor[(64, 784), float32], Tensor[(128, 784), float32]) -> "
     "Tensor[(64, 128), float32]` where n := 64\n\nA dense layer then relu.")
same("hover on an operator: its scheme, this call's type, its attributes",
     hover_text(c.request("textDocument/hover", at(U, 2, 14))),
     "```relay\nnn.dense : fn<t1, t2, t3>(t1, t2) -> t3 where Dense(t1, t2, t3)\n```\n\nhere: "
     "`fn(Tensor[(n, 784), float32], Tensor[(128, 784), float32]) -> Tensor[(n, 128), float32]`\n\n"
     "attributes: `units`, `out_dtype`")
same("hover on a Prelude constructor: its type and doc comment",
     hover_text(c.request("textDocument/hover", at(U, 6, 31))).split("\n\n")[0],
     "```relay\nCons : fn<a>(a, List[a]) -> List[a]\n```")
same("inlay hints: every binder without a written type (let, parameter, pattern variable), shapes included",
     [(h["position"], h["label"]) for h in c.request("textDocument/inlayHint", dict(doc(U), range=rng(0, 0, 99, 0)))],
     [(pos(2, 8), ": Tensor[(n, 128), float32]"), (pos(5, 30), ": Tensor[(64, 128), float32]"),
      (pos(6, 13), ": List[int32]"), (pos(6, 37), ": int32")])
same("inlay hints only in the range asked", len(c.request("textDocument/inlayHint", dict(doc(U), range=rng(5, 0, 5, 99)))), 1)

# ---------------------------------------------------------------- definitions, references, outline

same("definition of a local's use: its binder", c.request("textDocument/definition", at(U, 3, 11)),
     {"uri": U, "range": rng(2, 6, 2, 8)})
same("definition of a global's use: its def", c.request("textDocument/definition", at(U, 5, 36)),
     {"uri": U, "range": rng(1, 4, 1, 10)})
same("definition of a Prelude constructor: none in this file", c.request("textDocument/definition", at(U, 6, 31)), None)
same("references of a parameter, its binder included",
     c.request("textDocument/references", at(U, 1, 12, context={"includeDeclaration": True})),
     [{"uri": U, "range": rng(1, 11, 1, 13)}, {"uri": U, "range": rng(2, 20, 2, 22)}])
same("references without the declaration",
     c.request("textDocument/references", at(U, 1, 12, context={"includeDeclaration": False})),
     [{"uri": U, "range": rng(2, 20, 2, 22)}])
same("the outline: each definition with its type",
     [(s["name"], s["kind"], s.get("detail")) for s in c.request("textDocument/documentSymbol", doc(U))],
     [("@layer", 12, "fn<n : ShapeVar>(Tensor[(n, 784), float32], Tensor[(128, 784), float32]) -> "
       "Tensor[(n, 128), float32]"), ("@main", 12, "fn() -> Tensor[(64, 128), float32]"),
      ("@first", 12, "fn(List[int32]) -> int32")])

# ---------------------------------------------------------------- completion, signatures, code actions

EDIT = """data Shape2 { Square(int32), Circle(float32) }
def @area(%s : Shape2, %scale : float32) {
  let %k = nn.softmax(%scale, a
"""
E = "file:///tmp/edit.rly"
c.open(E, EDIT)
c.diagnostics(E)


def labels(items):
    return sorted(i["label"] for i in items["items"])


same("completion of `%s` in a definition that does not parse: its locals",
     labels(c.request("textDocument/completion", at(E, 2, 24))), ["%s", "%scale"])
same("completion inside an operator's call: its attributes",
     labels(c.request("textDocument/completion", at(E, 2, 31))), ["axis"])
c.change(E, EDIT.replace("a\n", "@ar\n"), 2)
c.diagnostics(E)
same("completion after `@`: the file's and the Prelude's globals",
     [l for l in labels(c.request("textDocument/completion", at(E, 2, 33))) if l.startswith("@ar")], ["@area"])
c.change(E, EDIT.replace("nn.softmax(%scale, a\n", "C\n"), 3)
c.diagnostics(E)
same("completion of a capital: the file's constructors (the data declaration parsed), the Prelude's",
     labels(c.request("textDocument/completion", at(E, 2, 12))), ["Circle", "Cons"])
c.change(E, EDIT, 4)
c.diagnostics(E)
sig = c.request("textDocument/signatureHelp", at(E, 2, 30))
same("signature help in an operator's call: arguments and attributes, the active one",
     [sig["signatures"][0]["label"], sig["activeParameter"]], ["nn.softmax(%0, axis=...)", 1])
HOLE = "def @pick(%a : int32, %b : float32, %c : int32) -> int32 { let %d = %a; ?what }\n"
H = "file:///tmp/hole.rly"
c.open(H, HOLE)
same("a hole: an information diagnostic that says what it must be",
     [(x["code"], x["severity"], x["message"].split("\n")[0]) for x in c.diagnostics(H)["diagnostics"]],
     [("hole", 3, "the hole `?what` must be int32")])
acts = c.request("textDocument/codeAction", dict(doc(H), range=rng(0, 0, 0, 90), context={"diagnostics": []}))
same("code actions: the inferred type of an unannotated let, and the hole's candidates of its type",
     [(a["title"], a["edit"]["changes"][H][0]["newText"]) for a in acts],
     [("Add the inferred type of `%d`", " : int32"), ("Fill the hole with `%a`", "%a"),
      ("Fill the hole with `%c`", "%c"), ("Fill the hole with `%d`", "%d")])

# ---------------------------------------------------------------- cancel, and an edit during a check

BIG = "def @main(%x : Tensor[(n, 4), float32], %y : Tensor[(1, 4), float32]) {\n" + "".join(
    "  let %%v%d = %s %s %%y;\n" % (i, "%x" if i == 0 else "%%v%d" % (i - 1), "+-*"[i % 3]) for i in range(150000)) + \
    "  %v149999\n}\n"
B = "file:///tmp/big.rly"
c.open(B, BIG)
rid = c.start("textDocument/hover", at(B, 1, 7))  # checks the document first: long (parsing alone takes longer)
time.sleep(0.05)
c.notify("$/cancelRequest", {"id": rid})
reply = c.wait(rid, timeout=120)
same("a cancelled request that was checking a long document (seconds of work): error -32800, not its answer",
     reply.get("error", {}).get("code"), -32800)
c.change(B, BIG.replace("%v149999\n}", "%v149999 + 1i64\n}"), 2)
time.sleep(0.3)  # its check is under way (150 ms after the change), unless the machine is very fast
c.change(B, "def @small() -> int32 { True }\n", 3)
d = c.diagnostics(B, 3)
stale = [n["params"]["version"] for n in c.notes if n["method"] == "textDocument/publishDiagnostics"
         and n["params"]["uri"] == B]
same("a document edited while its check runs: the new text's diagnostics come, and none of the old after them",
     [d["version"], [x["message"].split("\n")[0] for x in d["diagnostics"]], stale],
     [3, ["the function's result has the wrong type"], []])
same("hover still answers after all that", hover_text(c.request("textDocument/hover", at(U, 2, 7))),
     "```relay\n%h : Tensor[(n, 128), float32]\n```")
same("shutdown, exit: status 0", c.close(), 0)

# ---------------------------------------------------------------- UTF-32

c = lspclient.Client(relay, encodings=["utf-32", "utf-16"])
same("a client that prefers utf-32 gets it", c.init["capabilities"]["positionEncoding"], "utf-32")
c.open(U, LAYER)
c.diagnostics(U)
same("  and columns in code points: `%y` at 27", c.request("textDocument/hover", at(U, 5, 27))["range"], rng(5, 27, 5, 29))
c.close()

# ---------------------------------------------------------------- 200 random edits

rnd = random.Random(31)
files = sorted(glob.glob(os.path.join(golden, "**", "*.rly"), recursive=True))
c = lspclient.Client(relay)
R = "file:///tmp/random.rly"
text = open(rnd.choice(files), encoding="utf-8", errors="replace").read()
c.open(R, text)
version = 1
published = []
alive = True
for i in range(200):
    if i % 40 == 0:
        text = open(rnd.choice(files), encoding="utf-8", errors="replace").read()
    else:
        at_ = rnd.randrange(len(text) + 1)
        cut = rnd.randrange(0, 6)
        text = text[:at_] + rnd.choice(["", "(", ")", "{", "}", "%x", "@f", " ", "\n", ";", "1f", "Tensor[", "é", "𝔼"]) + \
            text[at_ + cut:]
    version += 1
    c.change(R, text, version)
    if i % 10 == 0:
        lines = text.split("\n")
        line = rnd.randrange(len(lines))
        try:
            c.request("textDocument/hover", at(R, line, rnd.randrange(len(lines[line]) + 1)))
            c.request("textDocument/inlayHint", dict(doc(R), range=rng(0, 0, len(lines), 0)))
            c.request("textDocument/completion", at(R, line, 0))
        except RuntimeError:
            pass  # a cancelled or refused request is an answer too
        except Exception as e:  # noqa: BLE001
            alive = False
            check("random edits: relay answers", False, repr(e))
            break
if alive:
    last = c.diagnostics(R, version)
    versions = [n["params"].get("version") for n in c.notes if n["method"] == "textDocument/publishDiagnostics"]
    check("200 random edits of golden files: answered without a crash; the last diagnostics are the last version's",
          last["version"] == version and c.proc.poll() is None, "".join(c.stderr)[-2000:])
    same("  and every status is 0 at the end", c.close(), 0)

sys.exit(tap.report(results))
