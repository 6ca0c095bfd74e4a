#!/usr/bin/env python3
"""The playground's download and start-up (issue 32), and relay.wasm's speed against native relay.

Sizes: every file the page downloads from DIST (relay.js, relay.wasm, and the page's own files when
they are there), raw and gzipped (gzip -9, as a static server would send them), and the total.
The graph tab's Graphviz chunk (chunk-*.js) loads only when the tab opens: it is counted apart.
Start-up in chromium (when /usr/bin/chromium and play/'s playwright-core are there): N fresh pages
served by play/serve on loopback, timed in the page from navigation to relay.wasm ready and to
the first answer (`1 + 2`), median, min and max (no network latency: the gzipped size over a
link's bandwidth adds to it).
Start-up in node: a fresh node process loads relay.js, compiles and instantiates relay.wasm
(`wasmBinary`), and answers its first request (`1 + 1`, which makes the session: the Prelude
parsed, checked and compiled); the median of N runs of each phase, timed inside node.
With --speed: naive fib(25) (bench/eval/fib.rly's @fib) and ResNet-18 (bench/resnet/resnet18.rly,
its weights filled as bench/resnet/run.py does: one forward pass, checked and run in one request)
in relay.wasm (node) against native `relay --serve --sandbox` over the same request (and with
RELAY_BLAS=portable, relay's own matrix products, which relay.wasm uses), the median of N runs each,
from the request sent to its response (start-up excluded); relay.wasm's first run and, in the same
session, the faster of two more (V8 optimizes the code that runs often).

Usage: bench/play/size_startup.py [DIST] [--runs N] [--speed [--relay RELAY]]
  DIST: play/dist by default (play/build or play/wasm/build.sh play/dist makes it);
  RELAY: build-release/relay by default, else build/relay.
"""
import gzip
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

NODE_TIMER = r"""
const t0 = process.hrtime.bigint();
const fs = require('fs'), path = require('path');
const dist = process.argv[1];
const ms = (a, b) => Number(b - a) / 1e6;
const createRelay = require(path.resolve(dist, 'relay.js'));
const t1 = process.hrtime.bigint();
createRelay({wasmBinary: fs.readFileSync(path.join(dist, 'relay.wasm')), print: () => {}, printErr: () => {}}).then((M) => {
  const t2 = process.hrtime.bigint();
  const request = M.cwrap('relay_play_request', 'string', ['string']);
  const first = request(JSON.stringify({id: 1, method: 'eval', params: {text: '1 + 1'}}));
  const t3 = process.hrtime.bigint();
  const times = [];
  for (const line of (process.argv[2] ? fs.readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l) : [])) {
    const t = [];  // the first run (compiled by V8's baseline compiler) and two more (optimized)
    let r;
    for (let k = 0; k < 3; k++) {
      const a = process.hrtime.bigint();
      r = request(line);
      t.push(ms(a, process.hrtime.bigint()));
    }
    times.push([t[0], Math.min(t[1], t[2]), r.slice(0, 400)]);
  }
  console.log(JSON.stringify({load_js: ms(t0, t1), instantiate: ms(t1, t2), first_request: ms(t2, t3),
                              total: ms(t0, t3), first: first, requests: times}));
});
"""


def sizes(dist):
    rows = []
    for dirpath, _, files in os.walk(dist):
        for f in sorted(files):
            path = os.path.join(dirpath, f)
            if f.endswith((".js", ".wasm", ".html", ".css", ".mjs", ".json")):
                data = open(path, "rb").read()
                rows.append((os.path.relpath(path, dist), len(data), len(gzip.compress(data, 9))))
    return rows


def node(dist, requests_file=None):
    cmd = ["node", "-e", NODE_TIMER, dist] + ([requests_file] if requests_file else [])
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def native_times(relay, lines, runs, env=None):
    """Each request's time in `relay --serve --sandbox`, from its line sent to its response read."""
    times = [[] for _ in lines]
    outs = [None] * len(lines)
    for _ in range(runs):
        p = subprocess.Popen([relay, "--serve", "--sandbox", "--timeout", "3600"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=env)
        p.stdin.write(json.dumps({"id": 0, "method": "eval", "params": {"text": "1 + 1"}}) + "\n")
        p.stdin.flush()
        p.stdout.readline()
        for i, line in enumerate(lines):
            start = time.perf_counter()
            p.stdin.write(line + "\n")
            p.stdin.flush()
            outs[i] = p.stdout.readline()[:400]
            times[i].append((time.perf_counter() - start) * 1e3)
        p.stdin.close()
        p.wait()
    return [statistics.median(t) for t in times], outs


STARTUP_JS = r"""
const [playwright, url, runs] = process.argv.slice(1);
const { chromium } = await import(playwright);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'], headless: true });
const out = [];
for (let i = 0; i < Number(runs); i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  out.push(await page.evaluate(async () => {
    const s = window.relayPlay.session;
    await s.ready;
    const ready = performance.now();
    const r = await s.request('eval', { text: '1 + 2' });
    if (!r.items || r.items[0].text !== '3') throw new Error('1 + 2 gave ' + JSON.stringify(r));
    return { ready, first: performance.now() };
  }));
  await context.close();
}
await browser.close();
console.log(JSON.stringify(out));
"""


def browser_startup(dist, runs):
    """The page's start-up in chromium: N fresh pages from play/serve, timed in the page."""
    playwright = os.path.join(ROOT, "play", "node_modules", "playwright-core", "index.mjs")
    if not (os.path.exists("/usr/bin/chromium") and os.path.exists(playwright) and
            os.path.exists(os.path.join(dist, "index.html"))):
        print("(start-up in chromium skipped: it needs /usr/bin/chromium, play/install-deps.sh's packages and play/build's page)\n")
        return
    serve = subprocess.Popen([os.path.join(ROOT, "play", "serve"), "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = serve.stdout.readline().split("at ", 1)[1].split()[0]
        p = subprocess.run(["node", "--input-type=module", "-e", STARTUP_JS, "file://" + playwright, url, str(runs)],
                           capture_output=True, text=True, timeout=600)
    finally:
        serve.terminate()
    if p.returncode != 0:
        sys.exit("bench/play: the browser run failed:\n" + p.stderr)
    times = json.loads(p.stdout.strip().splitlines()[-1])
    print("## Start-up in chromium (%d fresh pages, ms from navigation)\n" % len(times))
    print("| | median | min | max |\n|---|---:|---:|---:|")
    for name, key in (("relay.wasm ready", "ready"), ("first answer (`1 + 2`)", "first")):
        xs = [t[key] for t in times]
        print("| %s | %.0f | %.0f | %.0f |" % (name, statistics.median(xs), min(xs), max(xs)))
    print()


def speed_requests():
    fib = open(os.path.join(ROOT, "bench", "eval", "fib.rly")).read().replace("@fib(30)", "").strip()
    sys.path.insert(0, os.path.join(ROOT, "bench", "resnet"))
    import run as resnet  # noqa: E402  (bench/resnet/run.py)
    text, _ = resnet.program(open(resnet.MODEL).read())
    return [("fib(25)", {"id": 1, "method": "eval", "params": {"text": fib + "\n@fib(25)"}}),
            ("ResNet-18 check + 1 forward pass", {"id": 2, "method": "eval", "params": {"text": text + "\n@bench(1)"}})]


def main():
    args = sys.argv[1:]
    runs, speed, relay = 5, False, None
    rest = []
    i = 0
    while i < len(args):
        if args[i] == "--runs":
            runs, i = int(args[i + 1]), i + 1
        elif args[i] == "--speed":
            speed = True
        elif args[i] == "--relay":
            relay, i = args[i + 1], i + 1
        else:
            rest.append(args[i])
        i += 1
    dist = rest[0] if rest else os.path.join(ROOT, "play", "dist")
    if not os.path.exists(os.path.join(dist, "relay.js")):
        sys.exit("bench/play: %s/relay.js is missing: run play/wasm/build.sh %s first" % (dist, dist))
    print("## The playground's download (%s)\n" % os.path.relpath(dist, ROOT))
    print("| file | bytes | gzipped |\n|---|---:|---:|")
    rows = sizes(dist)
    for name, raw, gz in rows:
        print("| %s | %d | %d |" % (name, raw, gz))
    eager = [r for r in rows if not r[0].startswith("chunk-")]
    print("| total before the first answer | %d | %d |" % (sum(r[1] for r in eager), sum(r[2] for r in eager)))
    print("| total, with the graph tab's Graphviz (chunk-*.js, loaded when the tab opens) | %d | %d |\n"
          % (sum(r[1] for r in rows), sum(r[2] for r in rows)))
    browser_startup(dist, runs)
    samples = [node(dist) for _ in range(runs)]
    if '"ok":true' not in samples[0]["first"]:
        sys.exit("bench/play: the first request failed: " + samples[0]["first"])
    print("## Start-up in node %s (median of %d runs, ms)\n" % (subprocess.run(["node", "--version"], capture_output=True,
                                                                             text=True).stdout.strip(), runs))
    print("| load relay.js | compile + instantiate relay.wasm | first request (the Prelude) | total |\n|---:|---:|---:|---:|")
    print("| %s |\n" % " | ".join("%.0f" % statistics.median(s[k] for s in samples)
                                  for k in ("load_js", "instantiate", "first_request", "total")))
    if not speed:
        return
    relay = relay or next((p for p in (os.path.join(ROOT, "build-release", "relay"), os.path.join(ROOT, "build", "relay"))
                           if os.path.exists(p)), None)
    named = speed_requests()
    lines = [json.dumps(r) for _, r in named]
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "relay-bench-play-%d.jsonl" % os.getpid())
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    wasm = [node(dist, path)["requests"] for _ in range(runs)]
    os.remove(path)
    native, outs = native_times(relay, lines, runs)
    portable, _ = native_times(relay, lines, runs, dict(os.environ, RELAY_BLAS="portable"))
    print("## relay.wasm (node) against native relay (%s), median of %d runs, ms\n" % (os.path.relpath(relay, ROOT), runs))
    print("relay.wasm's first run is V8's baseline code; \"again\" is the faster of the next two runs in the same"
          " session (optimized code). Each includes the collection after the answer.\n")
    print("| request | native | native, RELAY_BLAS=portable | relay.wasm, first | relay.wasm, again | again / native |\n"
          "|---|---:|---:|---:|---:|---:|")
    for i, (name, _) in enumerate(named):
        first = statistics.median(run[i][0] for run in wasm)
        again = statistics.median(run[i][1] for run in wasm)
        ok = '"ok":true' in wasm[0][i][2] and '"ok":true' in outs[i]
        print("| %s | %.0f | %.0f | %.0f | %.0f | %.1fx%s |" % (name, native[i], portable[i], first, again, again / native[i],
                                                              "" if ok else " (FAILED)"))


if __name__ == "__main__":
    main()
