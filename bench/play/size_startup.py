#!/usr/bin/env python3
"""The playground's cost to a visitor: what the page downloads (gzipped, as a server would send it)
and the time from opening the page to relay's first answer, in Debian's chromium (headless).

Usage: bench/play/size_startup.py [--dist play/dist] [--runs 5]

Build the page first (play/build). The download is every file the page loads before its first
answer: index.html, style.css, main.js, worker.js, relay.js, relay.wasm, tour.json and
examples.json; the graph tab's Graphviz chunk loads only when the tab is opened and is counted
apart. Startup is timed in the page (performance.now() from navigation): relay.wasm loaded and
instantiated (`ready`), then the first answer to `1 + 2` sent by the page's session (`first
answer`), each over --runs fresh pages served by play/serve on loopback (no network latency:
the gzipped size over a link's bandwidth adds to it). Prints a Markdown table.
"""
import argparse
import glob
import gzip
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EAGER = ["index.html", "style.css", "main.js", "worker.js", "relay.js", "relay.wasm", "tour.json", "examples.json"]

STARTUP_JS = r"""
const [playwright, url, runs] = process.argv.slice(1);
const { chromium } = await import(playwright);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'], headless: true });
const out = [];
for (let i = 0; i < Number(runs); i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  const t = await page.evaluate(async () => {
    const s = window.relayPlay.session;
    await s.ready;
    const ready = performance.now();
    const r = await s.request('eval', { text: '1 + 2' });
    if (!r.items || r.items[0].text !== '3') throw new Error('1 + 2 gave ' + JSON.stringify(r));
    return { ready, first: performance.now() };
  });
  out.push(t);
  await context.close();
}
await browser.close();
console.log(JSON.stringify(out));
"""


def gz(path):
    with open(path, "rb") as f:
        data = f.read()
    return len(data), len(gzip.compress(data, 9))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dist", default=os.path.join(ROOT, "play", "dist"))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    missing = [f for f in EAGER if not os.path.isfile(os.path.join(args.dist, f))]
    if missing:
        sys.exit("size_startup.py: %s missing from %s: run play/build first" % (", ".join(missing), args.dist))

    print("| file | bytes | gzipped |\n|---|---:|---:|")
    total = [0, 0]
    for f in EAGER:
        raw, z = gz(os.path.join(args.dist, f))
        total[0] += raw
        total[1] += z
        print("| %s | %d | %d |" % (f, raw, z))
    print("| **the page before its first answer** | **%d** | **%d** |" % tuple(total))
    for f in sorted(glob.glob(os.path.join(args.dist, "chunk-*.js"))):
        raw, z = gz(f)
        print("| %s (the graph tab's Graphviz, loaded when opened) | %d | %d |" % (os.path.basename(f), raw, z))

    serve = subprocess.Popen([os.path.join(ROOT, "play", "serve"), "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://\S+/", serve.stdout.readline()).group(0)
        playwright = os.path.join(ROOT, "play", "node_modules", "playwright-core", "index.mjs")
        p = subprocess.run(["node", "--input-type=module", "-e", STARTUP_JS, "file://" + playwright, url, str(args.runs)],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            sys.exit("size_startup.py: the browser run failed:\n" + p.stderr)
        times = json.loads(p.stdout.strip().splitlines()[-1])
    finally:
        serve.terminate()
    ready = [t["ready"] for t in times]
    first = [t["first"] for t in times]
    print("\n| chromium, %d fresh pages | median | min | max |\n|---|---:|---:|---:|" % len(times))
    for name, xs in (("relay.wasm ready (ms from navigation)", ready), ("first answer, `1 + 2` (ms)", first)):
        print("| %s | %.0f | %.0f | %.0f |" % (name, statistics.median(xs), min(xs), max(xs)))


if __name__ == "__main__":
    main()
