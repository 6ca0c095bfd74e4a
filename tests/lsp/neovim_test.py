#!/usr/bin/env python3
"""Debian's neovim as a real client of relay --lsp (tests/lsp/neovim_smoke.lua): it opens a file
with a type error, receives its diagnostic, and asks for a hover. Skipped (TAP) without nvim,
which editors/install-deps.sh installs. TAP.
Usage: neovim_test.py RELAY"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

relay = os.path.abspath(sys.argv[1])
nvim = shutil.which("nvim")
if not nvim:
    print("1..0 # SKIP no nvim: editors/install-deps.sh installs Debian's neovim")
    sys.exit(0)
here = os.path.dirname(os.path.abspath(__file__))
tmp = tempfile.mkdtemp()
try:
    path = os.path.join(tmp, "layer.rly")
    with open(path, "w") as f:
        f.write("def @layer(%x : Tensor[(n, 784), float32], %w : Tensor[(128, 784), float32]) {\n"
                "  // é: a column past a non-ASCII character\n"
                "  let %h = nn.dense(%x, %w);\n"
                "  nn.relu(%h)\n"
                "}\n"
                "def @wrong() -> float32 { 1i64 }\n")
    out = os.path.join(tmp, "out.json")
    env = dict(os.environ, RELAY=relay, RELAY_FILE=path, RELAY_OUT=out, HOME=tmp, XDG_CONFIG_HOME=tmp,
               XDG_DATA_HOME=tmp, XDG_STATE_HOME=tmp, XDG_CACHE_HOME=tmp)
    p = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c",
                        "luafile " + os.path.join(here, "neovim_smoke.lua")],
                       env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=90)
    got = json.load(open(out)) if os.path.exists(out) else {"nvim": p.returncode, "stderr": p.stderr.decode()[-2000:]}
finally:
    shutil.rmtree(tmp, ignore_errors=True)
checks = [
    ("neovim starts relay --lsp and attaches it", got.get("started") is True and not got.get("error")),
    ("neovim receives the type error as a diagnostic at its place",
     got.get("diagnostics") == [{"lnum": 5, "col": 26, "severity": 1,
                                 "message": "the function's result has the wrong type"}]),
    ("neovim's hover shows the let's type", got.get("hover") == "```relay\n%h : Tensor[(n, 128), float32]\n```"),
    ("the position encoding is UTF-16", got.get("encoding") == "utf-16"),
]
print("1..%d" % len(checks))
for i, (what, ok) in enumerate(checks, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
    if not ok:
        print("# got: %s" % json.dumps(got, ensure_ascii=False))
sys.exit(0 if all(ok for _, ok in checks) else 1)
