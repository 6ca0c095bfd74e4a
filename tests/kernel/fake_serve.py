#!/usr/bin/env python3
"""A stand-in for `relay --serve` (docs/serve.md) with canned answers, to develop the kernel before
the real one exists. Run as `fake_serve.py --serve`."""
import json
import signal
import sys
import threading
import time

stop = threading.Event()
running = threading.Event()
out_lock = threading.Lock()


def send(obj):
    with out_lock:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


def scalar(dtype, x):
    return {"kind": "tensor", "dtype": dtype, "shape": [], "data": [x]}


def value(t, text, v):
    return {"kind": "value", "type": t, "text": text, "value": v}


CANNED = {
    "1 + 2": [value("int32", "3", scalar("int32", 3))],
    "def @square(%x : int32) -> int32 { %x * %x }":
        [{"kind": "definition", "name": "@square", "type": "fn(int32) -> int32"}],
    "[[1f, 2f, 3f], [4f, 5f, 6f]] * 2f":
        [value("Tensor[(2, 3), float32]", "[[ 2f,  4f,  6f],\n [ 8f, 10f, 12f]]",
               {"kind": "tensor", "dtype": "float32", "shape": [2, 3],
                "data": [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]})],
    "Cons(1, Nil())":
        [value("List[int32]", "Cons(1, Nil())",
               {"kind": "constructor", "name": "Cons",
                "fields": [scalar("int32", 1), {"kind": "constructor", "name": "Nil", "fields": []}]})],
    "1i64 + 1f": [{"kind": "diagnostic", "severity": "error", "kind": "type error",
                   "message": "`add` needs arguments of one element type, but they are int64 and float32",
                   "file": "<repl>", "line": 1, "column": 1, "end_line": 1, "end_column": 10,
                   "notes": ["first argument: int64", "second argument: float32"],
                   "rendered": "<repl>:1:1: type error: `add` needs arguments of one element type, "
                               "but they are int64 and float32\n 1 | 1i64 + 1f\n   | ^~~~~~~~~\n"
                               "  first argument: int64\n  second argument: float32"}],
}


def evaluate(text):
    if text.startswith("def @loop"):
        return {"ok": True, "items": [{"kind": "definition", "name": "@loop", "type": "fn(int32) -> int32"}]}
    if text.strip() == "@loop(0)":
        running.set()
        stop.clear()
        while not stop.wait(0.05):
            pass
        running.clear()
        return {"ok": False, "interrupted": True, "items": [{"kind": "stderr", "text": "Interrupted."}]}
    items = CANNED.get(text.strip())
    if items is None:
        return {"ok": True, "items": [{"kind": "output", "text": "fake: %s" % text}]}
    return {"ok": not any(i.get("severity") == "error" for i in items), "items": items}


def on_sigint(signum, frame):
    stop.set()


def main():
    signal.signal(signal.SIGINT, on_sigint)
    queue = []
    cv = threading.Condition()

    def reader():
        for line in sys.stdin:
            req = json.loads(line)
            if req.get("method") == "interrupt":
                send({"id": req.get("id"), "result": {"interrupted": running.is_set()}})
                stop.set()
                continue
            with cv:
                queue.append(req)
                cv.notify()
        with cv:
            queue.append(None)
            cv.notify()
    threading.Thread(target=reader, daemon=True).start()
    while True:
        with cv:
            while not queue:
                cv.wait()
            req = queue.pop(0)
        if req is None:
            return
        m, p, rid = req.get("method"), req.get("params", {}), req.get("id")
        if m == "eval":
            send({"id": rid, "result": evaluate(p["text"])})
        elif m == "complete":
            names = [("@square", "global", "fn(int32) -> int32"), ("@sum", "global", "fn(List[int32]) -> int32")]
            send({"id": rid, "result": {"candidates": [
                {"name": n, "kind": k, "type": t} for n, k, t in names if n.startswith(p["prefix"])]}})
        elif m == "doc":
            if p["text"] == "@square":
                send({"id": rid, "result": {"ok": True, "text": "@square : fn(int32) -> int32", "items": []}})
            else:
                send({"id": rid, "result": {"ok": False, "text": "", "items": []}})
        elif m == "type_at":
            send({"id": rid, "result": {"ok": True, "type": "int32", "expression": "%x",
                                        "span": {"line": 1, "column": 1, "end_line": 1, "end_column": 3},
                                        "items": []}})
        else:
            send({"id": rid, "error": {"code": -32601, "message": "unknown method"}})


if __name__ == "__main__":
    main()
