#!/usr/bin/env python3
"""A stand-in for `relay --serve` (docs/serve.md) built on relay's REPL, written before the real
one existed: enough of `eval` for the tour's notebook (values, bindings, definitions, data,
diagnostics, `:` commands), `interrupt`, and empty answers to the other methods. It reads the
REPL's text, which is what --serve exists to avoid, so it knows only the tour's kinds of values.

Usage: RELAY_REPL=build/relay fake_serve.py --serve
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading

SYNC, SYNC_ANSWER = ":t 8675309", "8675309 : int32"
SUFFIX = re.compile(r"(f64|f32|f16|f|i64|i32|i16|i8|u64|u32|u16|u8)$")
DIAG = re.compile(r"^<repl>:(\d+):(\d+)(?: \(input \d+\))?: (parse error|type error|run-time error|warning): (.*)$")
out_lock = threading.Lock()


def send(obj):
    with out_lock:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


def number(tok):
    tok = tok.strip()
    if tok in ("True", "False"):
        return tok == "True"
    if tok in ("nan", "inf", "-inf"):
        return tok
    tok = SUFFIX.sub("", tok)
    return float(tok) if any(c in tok for c in ".e") else int(tok)


def structure(type_text, text):
    m = re.match(r"^Tensor\[\((.*?)\), (\w+)\]$", type_text)
    if m:
        shape = [int(d) for d in m.group(1).split(",") if d.strip()]
        toks = [t for t in re.split(r"[\[\],\s]+", text) if t]
        return {"kind": "tensor", "dtype": m.group(2), "shape": shape, "data": [number(t) for t in toks]}
    if re.match(r"^(u?int\d+|float\d+|bool)$", type_text):
        return {"kind": "tensor", "dtype": type_text, "shape": [], "data": [number(text)]}
    return {"kind": "closure"} if type_text.startswith("fn") else {"kind": "cut"}


def items_of(lines, command):
    items = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = DIAG.match(line)
        if m:
            j = i + 1
            while j < len(lines) and lines[j].startswith(" "):
                j += 1
            notes = [l.strip() for l in lines[i + 1:j] if "|" not in l[:6]]
            items.append({"kind": "diagnostic", "severity": "warning" if m.group(3) == "warning" else "error",
                          "message": m.group(4), "file": "<repl>", "line": int(m.group(1)),
                          "column": int(m.group(2)), "notes": notes, "rendered": "\n".join(lines[i:j])})
            i = j
            continue
        if command:
            j = i
            while j < len(lines) and not DIAG.match(lines[j]):
                j += 1
            items.append({"kind": "output", "text": "\n".join(lines[i:j])})
            i = j
            continue
        m = re.match(r"^(-|%\w+) : (.*?) =(?: (.*))?$", line)
        if m:
            text, j = m.group(3), i + 1
            if text is None:
                while j < len(lines) and (lines[j].startswith("[") or lines[j].startswith(" ")):
                    j += 1
                text = "\n".join(lines[i + 1:j])
            item = {"kind": "value" if m.group(1) == "-" else "binding", "type": m.group(2), "text": text,
                    "value": structure(m.group(2), text)}
            if m.group(1) != "-":
                item["name"] = m.group(1)
            items.append(item)
            i = j
            continue
        m = re.match(r"^(@\w+) : (.*)$", line)
        if m:
            items.append({"kind": "definition", "name": m.group(1), "type": m.group(2)})
            i += 1
            continue
        m = re.match(r"^([A-Z]\w*) : (fn.*)$", line)
        if m:
            if not items or items[-1]["kind"] != "data":
                items.append({"kind": "data", "name": "?", "constructors": []})
            items[-1]["constructors"].append({"name": m.group(1), "type": m.group(2)})
            i += 1
            continue
        items.append({"kind": "output", "text": line})
        i += 1
    return items


class Repl:
    def __init__(self):
        self.proc = subprocess.Popen([os.environ.get("RELAY_REPL", "relay")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)

    def run(self, line):
        self.proc.stdin.write(line + "\n" + SYNC + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if not out:
                return lines
            out = out.rstrip("\n")
            if out == SYNC_ANSWER:
                return lines
            lines.append(out)


def inputs(text):
    """The cell's inputs: lines, joined while brackets are open."""
    out, cur, depth = [], [], 0
    for line in text.split("\n"):
        cur.append(line)
        depth += sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")
        if depth <= 0:
            out.append("\n".join(cur))
            cur, depth = [], 0
    if cur:
        out.append("\n".join(cur))
    return [i for i in out if i.strip()]


def evaluate(repl, text):
    items = []
    for inp in inputs(text):
        items += items_of(repl.run(inp), inp.lstrip().startswith(":"))
    ok = not any(it.get("severity") == "error" for it in items)
    return {"ok": ok, "items": items}


def main():
    repl = Repl()
    for line in sys.stdin:
        req = json.loads(line)
        m, p, rid = req.get("method"), req.get("params", {}), req.get("id")
        if m == "eval":
            send({"id": rid, "result": evaluate(repl, p["text"])})
        elif m == "interrupt":
            repl.proc.send_signal(signal.SIGINT)
            send({"id": rid, "result": {"interrupted": False}})
        elif m == "complete":
            send({"id": rid, "result": {"candidates": []}})
        else:
            send({"id": rid, "result": {"ok": False, "type": None, "text": "", "items": []}})


if __name__ == "__main__":
    main()
