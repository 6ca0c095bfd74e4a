#!/usr/bin/env python3
"""relay --lsp's latency on a real program (default ../shared/models/resnet18.rly): the time from
didOpen to its diagnostics (a full check, the debounce included and reported apart), from a
didChange to the new diagnostics, and of hover, inlay hints, completion and definition requests on
the checked document (median and max of N each). Release build by default.
Usage: bench/lsp/latency.py [RELAY] [FILE] [--runs N]"""
import argparse
import os
import statistics
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "tests", "lsp"))
import lspclient  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("relay", nargs="?", default=os.path.join(root, "build-release", "relay"))
ap.add_argument("file", nargs="?", default=os.path.join(root, "..", "shared", "models", "resnet18.rly"))
ap.add_argument("--runs", type=int, default=50)
a = ap.parse_args()
DEBOUNCE = 0.150  # repl/lsp.c's DEBOUNCE_MS

text = open(a.file, encoding="utf-8").read()
lines = text.split("\n")
# A place on a let's variable in the middle of the file, for hover.
mid = next(i for i in range(len(lines) // 2, len(lines)) if "%" in lines[i] and "=" in lines[i])
col = lines[mid].index("%") + 1
uri = "file://" + os.path.abspath(a.file)
c = lspclient.Client(a.relay)


def timed(f, n):
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1e3, max(ts) * 1e3


t = time.perf_counter()
c.open(uri, text)
d = c.diagnostics(uri)
opened = (time.perf_counter() - t) * 1e3
version = [1]


def change():
    version[0] += 1
    c.change(uri, text + "\n" * (version[0] % 2), version[0])
    c.diagnostics(uri, version[0])


pos = {"line": mid, "character": col}
doc = {"textDocument": {"uri": uri}}


def change_hover():  # a request on a changed document checks it at once, without the debounce
    version[0] += 1
    c.change(uri, text + "\n" * (version[0] % 2), version[0])
    c.request("textDocument/hover", dict(doc, position=pos))


rows = [("open -> diagnostics (full check + %d ms debounce)" % (DEBOUNCE * 1e3), opened, opened),
        ("change -> diagnostics (full check + debounce)",) + timed(change, max(5, a.runs // 5)),
        ("change, then hover at once (full check + hover)",) + timed(change_hover, a.runs)]
for name, method, params in [("hover", "textDocument/hover", dict(doc, position=pos)),
                             ("inlay hints, whole file", "textDocument/inlayHint",
                              dict(doc, range={"start": {"line": 0, "character": 0},
                                               "end": {"line": len(lines), "character": 0}})),
                             ("completion", "textDocument/completion", dict(doc, position=pos)),
                             ("definition", "textDocument/definition", dict(doc, position=pos))]:
    rows.append((name,) + timed(lambda: c.request(method, params), a.runs))
c.close()
print("relay --lsp on %s (%d lines, %d diagnostics), %s" % (os.path.basename(a.file), len(lines),
                                                           len(d["diagnostics"]), a.relay))
print("| what | median ms | max ms |\n|---|---|---|")
for name, med, mx in rows:
    print("| %s | %.1f | %.1f |" % (name, med, mx))
