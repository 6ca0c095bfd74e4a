// The playground's pieces in node, without a browser: share links, the tour's boxes as the page
// reads them (the same count as tests/repl_runner.py), and the page's text of relay's answers
// against every box of docs/tour.md, answered by the native `relay --serve --sandbox` (the same
// requests the page sends to relay.wasm). TAP on stdout.
//   node tests/play/units.mjs RELAY_BINARY SOURCE_ROOT
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [relay, root] = process.argv.slice(2);
const src = pathToFileURL(resolve(root, 'play', 'src')).href;
const { encodeShare, decodeShare } = await import(src + '/share.js');
const { parseTour, sectionText, splitFresh, compareTranscript, FRESH } = await import(src + '/tour.js');
const { itemsText, richViews, elementText, scalarText } = await import(src + '/render.js');

const results = [];
function check(name, problem) {
  results.push([name, problem]);
}

// ---------------------------------------------------------------- share links
for (const text of ['', '1 + 2', 'def @f(%x : Tensor[(2, 3), float32]) { %x }\n// λ → ü\n' + 'x'.repeat(5000)]) {
  const link = await encodeShare(text);
  const back = await decodeShare(link);
  check(`share link round-trips a text of ${text.length} characters`,
    !/^#v1\/[A-Za-z0-9_-]*$/.test(link) ? `not #v1/ + base64url: ${link.slice(0, 40)}` : back !== text ? 'decoded text differs' : null);
}
for (const bad of ['#v1/!!!', '#v1/AAAA', '#v2/abc']) {
  let message = null;
  try { await decodeShare(bad); } catch (e) { message = e.message; }
  check(`a bad share link (${bad}) is refused with a message`, message ? null : 'decoded without complaint');
}

// ---------------------------------------------------------------- values
check('elements are spelled as the kernel spells them',
  [elementText(0.1, 'float32') === '0.1', elementText(1e-5, 'float32') === '1e-05', elementText('nan', 'float32') === 'nan',
    elementText(true, 'bool') === 'True', scalarText(2, 'float32') === '2f', scalarText(7, 'int64') === '7i64']
    .every(Boolean) ? null : 'a spelling differs');
{
  const views = richViews({ type: 'Tensor[(2, 2), float32]', value: { kind: 'tensor', dtype: 'float32', shape: [2, 2], data: [1, 2, 3, 4] } });
  check('a 2-D float tensor has a table and a heatmap',
    views.map((v) => v.kind).join(',') === 'table,heatmap' && views[0].html.includes('<td>4</td>') ? null : JSON.stringify(views.map((v) => v.kind)));
  const tree = richViews({ type: 'List[int32]', value: { kind: 'constructor', name: 'Cons', fields: [{ kind: 'tensor', dtype: 'int32', shape: [], data: [1] }, { kind: 'constructor', name: 'Nil', fields: [] }] } });
  check('an ADT value is a tree', tree.length === 1 && tree[0].kind === 'tree' && tree[0].html.includes('<code>Nil</code>') ? null : JSON.stringify(tree));
}

// ---------------------------------------------------------------- the tour
const markdown = readFileSync(join(root, 'docs', 'tour.md'), 'utf8');
const sections = parseTour(markdown);
const fences = markdown.split('\n').filter((l) => l.trim() === '```relay-repl').length;
const boxes = sections.reduce((n, s) => n + s.boxes.length, 0);
check(`the tour's ${fences} boxes are all read, in ${sections.length} sections`, boxes === fences ? null : `read ${boxes}`);
check('every section is numbered in order', sections.every((s, i) => s.number === i + 1) ? null : sections.map((s) => s.number).join(','));
for (const s of sections) {
  const [before, ...parts] = splitFresh(sectionText(s));
  const ok = before === '' && parts.length === s.boxes.length && parts.every((p, i) => p.replace(/\n$/, '') === s.boxes[i].inputs.join('\n'));
  check(`section ${s.number}'s editor text splits back into its ${s.boxes.length} boxes, each after "${FRESH}"`, ok ? null : JSON.stringify(parts).slice(0, 200));
}

// Each section with boxes says where to try it, with its own number (and no other section does).
{
  const bad = [];
  for (const part of markdown.split(/^(?=## )/m)) {
    const m = /^## (\d+)\. /.exec(part);
    if (!m) continue;
    const links = [...part.matchAll(/Try it in the playground: `play\/#tour\/(\d+)`/g)].map((l) => l[1]);
    const want = part.includes('```relay-repl') ? [m[1]] : [];
    if (links.join() !== want.join()) bad.push(`section ${m[1]}: links ${JSON.stringify(links)}, expected ${JSON.stringify(want)}`);
  }
  check('each tour section with boxes has its "Try it in the playground: `play/#tour/N`" line', bad.join('\n') || null);
}

// Every box through the native relay --serve, as the page sends it: reset, then one eval.
if (relay) {
  const p = spawn(relay, ['--serve', '--sandbox'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: p.stdout })[Symbol.asyncIterator]();
  let id = 0;
  const ask = async (method, params) => {
    p.stdin.write(JSON.stringify({ id: ++id, method, params }) + '\n');
    return JSON.parse((await lines.next()).value);
  };
  for (const s of sections) {
    for (const [b, box] of s.boxes.entries()) {
      await ask('reset', {});
      const r = await ask('eval', { text: box.inputs.join('\n') });
      const problem = r.error ? JSON.stringify(r.error) : compareTranscript(box.expected, itemsText(r.result.items));
      check(`tour section ${s.number}, box ${b + 1}: the page's text of relay's answer is the transcript`, problem);
    }
  }
  p.stdin.end();
}

console.log(`1..${results.length}`);
results.forEach(([name, problem], i) => {
  console.log(`${problem ? 'not ok' : 'ok'} ${i + 1} - ${name}`);
  if (problem) for (const l of String(problem).split('\n')) console.log('# ' + l);
});
const failed = results.filter((r) => r[1]).length;
if (failed) console.log(`# ${failed} of ${results.length} failed`);
process.exitCode = failed ? 1 : 0;
