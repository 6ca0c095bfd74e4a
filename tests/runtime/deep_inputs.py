#!/usr/bin/env python3
"""Deep inputs (issue "Reliability"): nesting up to the parser's limit (9,000 levels of tuples, refs,
ifs, function applications, matches, patterns, type annotations, chains of 9,000 scalar additions at
each dtype, and a chain of 9,000 lets each wrapping the last) is checked, run and annotated in linear memory: under a 2 GiB address-space
limit, relay ends normally (before, 4,000 nested one-tuples took 970 MB to check and 9,000 crashed
it). Past the limit, a clean parse error. Also the REPL session goes on after a deep input with the
heap capped. TAP. Usage: deep_inputs.py RELAY"""
import os
import resource
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402  (tests/tap.py)

relay = sys.argv[1]
N = 9000
LIMIT = 2 << 30


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


h = N // 2
CASES = [
    ("nested one-tuples", "(" * N + "1" + ",)" * N, "(" * N + "1" + ",)" * N),
    ("nested refs", "ref(" * N + "1" + ")" * N, None),
    ("nested ifs", "if (True) { " * N + "1" + " } else { 2 }" * N, "1"),
    ("nested applications of fn literals", "(fn(%x) { " * h + "%x" + " })(1)" * h, "1"),
    ("nested matches", "match (Some(1)) { Some(%a) => " * h + "1" + ", None => 0 }" * h, "1"),
    ("a deep pattern", "match (" + "Cons(1, " * (N // 3) + "Nil()" + ")" * (N // 3) + ") { " + "Cons(_, " * (N // 3)
     + "Nil()" + ")" * (N // 3) + " => 1, _ => 0 }", "1"),
    ("a deep type annotation", "fn(%x: " + "(" * N + "int32" + ",)" * N + ") { %x }", None),
    *[("a chain of %d additions of %s scalars" % (N, suffix), " + ".join(["1" + suffix] * N),
       "%d%s" % (N % (1 << bits), suffix) if bits else None)
      for suffix, bits in (("i8", 8), ("u8", 8), ("i16", 16), ("u16", 16), ("u32", 32), ("i64", 0), ("f16", 0), ("f64", 0))],
    ("a chain of lets, each a tuple of the last", "def @h() {\n" + "".join(
        "let %%x%d = (%s,);\n" % (i, "%%x%d" % (i - 1) if i else "1") for i in range(N)) + "%%x%d }\n@h()" % (N - 1),
     "(" * N + "1" + ",)" * N),
]

results = []
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "deep.rly")
    for name, src, expect in CASES:
        with open(path, "w") as f:
            f.write(src + "\n")
        for mode in ([], ["--annot"]):
            p = subprocess.run([relay] + mode + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=limited, timeout=300)
            ok = p.returncode == 0 and (mode or expect is None or p.stdout.strip() == expect)
            results.append((ok, "%s%s: ends normally under a 2 GiB limit" % (name, " (--annot)" if mode else ""),
                            "status %d, stderr %r" % (p.returncode, p.stderr[-300:])))
    with open(path, "w") as f:
        f.write("Cons(1, " * 10001 + "Nil()" + ")" * 10001 + "\n")
    p = subprocess.run([relay, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limited)
    results.append((p.returncode == 1 and "nested too deeply" in p.stderr, "past the parser's limit: a clean parse error",
                    "status %d, stderr %r" % (p.returncode, p.stderr[-300:])))
    deep = "(" * 2000 + "1" + ",)" * 2000
    p = subprocess.run([relay], input="1 + 1\n%s\n2 + 2\n" % deep, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=dict(os.environ, GC_MAXIMUM_HEAP_SIZE="100000000"), timeout=120)
    results.append((p.returncode == 0 and "- : int32 = 4" in p.stdout,
                    "the REPL with a 100 MB heap answers after a 2,000-deep tuple (it crashed)",
                    "status %d, stderr %r" % (p.returncode, p.stderr[-300:])))

sys.exit(tap.report(results))
