// The playground in a real browser: Debian's chromium, headless, driven by playwright-core, against
// `play/serve` on a free loopback port, through the page's data-testid contract (docs/play.md).
// TAP on stdout; skipped (`1..0 # SKIP reason`, exit 0: under meson's TAP protocol any other
// status is a failure) when play/dist has no relay.wasm or chromium or playwright-core is missing. Screenshots of the main states go to OUTDIR/play-screenshots/.
//   node tests/play/browser.mjs SOURCE_ROOT OUTDIR
// PLAY_URL=http://127.0.0.1:PORT/ tests a page served elsewhere instead of starting play/serve.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, outdir] = process.argv.slice(2).map((p) => resolve(p));
const dist = join(root, 'play', 'dist');
const CHROMIUM = '/usr/bin/chromium';

function skip(why) {
  console.log(`1..0 # SKIP ${why}`);
  process.exit(0);
}
if (!process.env.PLAY_URL && !existsSync(join(dist, 'relay.wasm'))) skip('play/dist has no relay.wasm: build the playground with play/build');
if (!existsSync(join(dist, 'index.html'))) skip('play/dist has no page: build the playground with play/build');
if (!existsSync(CHROMIUM)) skip(`${CHROMIUM} is missing: play/install-deps.sh installs Debian's chromium`);
const playwright = join(root, 'play', 'node_modules', 'playwright-core', 'index.mjs');
if (!existsSync(playwright)) skip('play/node_modules has no playwright-core: run play/install-deps.sh');
const { chromium } = await import(pathToFileURL(playwright).href);
const { compareTranscript } = await import(pathToFileURL(join(root, 'play', 'src', 'tour.js')).href);

const shots = join(outdir, 'play-screenshots');
mkdirSync(shots, { recursive: true });

// ---------------------------------------------------------------- the server and the browser
let server = null;
let base = process.env.PLAY_URL;
if (!base) {
  server = spawn(join(root, 'play', 'serve'), ['0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((res, rej) => {
    let text = '';
    server.stdout.on('data', (d) => {
      text += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
      if (m) res(m[1]);
    });
    server.on('exit', (code) => rej(new Error(`play/serve exited with ${code}`)));
  });
}
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(base).origin }).catch(() => {});

const pageErrors = [];
async function open(fragment = '') {
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(base + fragment);
  await page.waitForSelector('body[data-loaded=true]');
  await page.waitForSelector('#status[data-state=ready]', { timeout: 60000 });
  return page;
}

async function setEditor(page, text) {
  await page.evaluate((t) => {
    const ed = window.relayPlay.editor;
    ed.dispatch({ changes: { from: 0, to: ed.state.doc.length, insert: t } });
  }, text);
}

// Types text into the editable content as a person does (keyboard events), at the end.
async function typeInEditor(page, text) {
  await page.click('[data-testid=editor]');
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text, { delay: 5 });
}

const answers = (page) => page.locator('[data-testid=answer]');
async function answerText(answer) {
  return (await answer.locator('.answer-text').allTextContents()).join('');
}
// Clicks Run and waits for n more answers; returns the texts of the new ones.
async function runAndWait(page, n = 1, timeout = 60000) {
  const before = await answers(page).count();
  await page.click('[data-testid=run]');
  await page.waitForFunction(([k]) => document.querySelectorAll('[data-testid=answer]').length >= k &&
    !document.querySelector('[data-testid=run]').disabled, [before + n], { timeout });
  const all = answers(page);
  const out = [];
  for (let i = before; i < (await all.count()); i++) out.push(await answerText(all.nth(i)));
  return out;
}
async function replInput(page, text, timeout = 60000) {
  const before = await answers(page).count();
  await page.fill('#repl-input', text);
  await page.press('#repl-input', 'Enter');
  await page.waitForFunction((k) => document.querySelectorAll('[data-testid=answer]').length > k, before, { timeout });
  return answerText(answers(page).nth(before));
}
const editorText = (page) => page.evaluate(() => window.relayPlay.editor.state.doc.toString());

// ---------------------------------------------------------------- tests
const results = [];
async function test(name, fn) {
  let problem = null;
  const t0 = Date.now();
  try {
    problem = await fn();
  } catch (err) {
    problem = String(err && err.stack ? err.stack : err).split('\n').slice(0, 6).join('\n');
  }
  results.push([name, problem, Date.now() - t0]);
  console.error(`${problem ? (problem.todo ? 'TODO' : 'FAIL') : 'ok  '} ${name} (${Date.now() - t0} ms)`);
}
const expect = (cond, what) => (cond ? null : what);

await test('type a program, run it, read the answer', async () => {
  const page = await open();
  await setEditor(page, '');
  await typeInEditor(page, 'def @twice(%x : int32) { %x * 2 }\n@twice(21)');
  const [text] = await runAndWait(page);
  await page.screenshot({ path: join(shots, '01-run.png') });
  await page.close();
  return expect(text.includes('@twice : fn(int32) -> int32') && text.includes('- : int32 = 42'), `answer: ${text}`);
});

await test("a type error's squiggle and its message", async () => {
  const page = await open();
  await setEditor(page, '');
  await typeInEditor(page, 'def @f(%x : Tensor[(2, 3), float32]) { %x }\n@f(ones(shape=[3, 2]))');
  const diag = page.locator('[data-testid=diagnostic]').first();
  await diag.waitFor({ timeout: 20000 });
  await page.waitForSelector('.cm-lintRange-error');
  const message = await diag.textContent();
  const squiggled = await page.locator('.cm-lintRange-error').first().textContent();
  await page.screenshot({ path: join(shots, '02-type-error.png') });
  await page.close();
  return expect(/type error: the first argument of `@f` has the wrong type/.test(message) && /dimension 0 differs/.test(message),
    `message: ${message}`) || expect(squiggled.includes('ones'), `the squiggle is under ${JSON.stringify(squiggled)}`);
});

await test("hover shows a binding's shape", async () => {
  const page = await open();
  await setEditor(page, 'def @g(%a : Tensor[(4, 5), float32]) {\n  let %t = transpose(%a);\n  %t\n}\n' +
    'def @h(%b : Tensor[(2), float32]) {\n  %0 = negative(%b);\n  %0\n}\n');
  const pos = (await editorText(page)).indexOf('%t =') + 1;
  const box = await page.evaluate((p) => window.relayPlay.editor.coordsAtPos(p), pos);
  await page.mouse.move(box.left + 2, (box.top + box.bottom) / 2);
  const hover = page.locator('[data-testid=hover]');
  await hover.waitFor({ timeout: 20000 });
  const text = await hover.textContent();
  await page.screenshot({ path: join(shots, '03-hover.png') });
  const inlay = await page.locator('.relay-inlay').allTextContents();
  await page.close();
  return expect(text.includes('Tensor[(5, 4), float32]'), `hover: ${text}`) ||
    expect(inlay.some((t) => t.includes('Tensor[(5, 4), float32]')) &&
           inlay.some((t) => t === ': Tensor[(2), float32]'), `inline types (a let's and a graph binding's): ${JSON.stringify(inlay)}`);
});

await test('a pasted program of 3 million characters runs (the request goes through malloc, not the C stack)', async () => {
  const page = await open();
  await setEditor(page, '// ' + 'x'.repeat(3000000) + '\n40 + 2\n');
  const [text] = await runAndWait(page);
  await page.close();
  return expect(text.includes('- : int32 = 42'), `answer: ${text.slice(0, 300)}`);
});

await test('Tab completes a name', async () => {
  const page = await open();
  await setEditor(page, '');
  await typeInEditor(page, 'zeros_l');
  // Typing may open the list by itself (a completion query per keystroke), and then Tab would
  // accept it: wait until the worker has answered everything, then open the list with Tab if it
  // is not open yet (a loaded machine answers after the last key; an idle one before it).
  await page.waitForSelector('#status[data-state=ready]', { timeout: 60000 });
  if (!(await page.locator('.cm-tooltip-autocomplete').isVisible())) await page.keyboard.press('Tab');
  await page.waitForSelector('.cm-tooltip-autocomplete', { timeout: 20000 });
  await page.screenshot({ path: join(shots, '04-completion.png') });
  const options = await page.locator('.cm-tooltip-autocomplete li').allTextContents();
  await page.keyboard.press('Tab');
  const text = await editorText(page);
  await page.close();
  return expect(options.some((o) => o.includes('zeros_like')), `options: ${JSON.stringify(options)}`) ||
    expect(text === 'zeros_like', `the editor has ${JSON.stringify(text)}`);
});

await test('the share link round-trips into a fresh page', async () => {
  const page = await open();
  const program = '// shared: λ\ndef @h(%x : float32) { %x * %x }\n@h(3f)\n';
  await setEditor(page, program);
  await page.click('[data-testid=share]');
  await page.waitForFunction(() => location.hash.startsWith('#v1/'));
  const url = page.url();
  const noted = await page.locator('#share-note').getAttribute('data-link');
  const clip = await page.evaluate(() => navigator.clipboard.readText().catch(() => null));
  await page.close();
  const fresh = await context.newPage();
  await fresh.goto(url);
  await fresh.waitForSelector('body[data-loaded=true]');
  const text = await editorText(fresh);
  await fresh.close();
  return expect(/#v1\/[A-Za-z0-9_-]+$/.test(url), `link: ${url}`) || expect(noted === url, `the page noted ${noted}`) ||
    expect(clip === null || clip === url, `the clipboard has ${clip}`) || expect(text === program, `the fresh page has ${JSON.stringify(text)}`);
});

await test("Stop ends @loop and the session's definitions survive", async () => {
  const page = await open();
  await setEditor(page, 'def @kept(%x : int32) { %x + 100 }\n');
  await runAndWait(page);
  await setEditor(page, 'def @loop(%n : int32) -> int32 { @loop(%n + 1) }\n@loop(0)\n');
  await page.click('[data-testid=run]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=stop]').disabled);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: join(shots, '05-running.png') });
  await page.click('[data-testid=stop]');
  await page.waitForFunction(() => /Stopped/.test(document.querySelector('[data-testid=output]').textContent), null, { timeout: 30000 });
  await page.waitForSelector('#status[data-state=ready]');
  const after = await replInput(page, '@kept(1)');
  await page.screenshot({ path: join(shots, '06-stopped.png') });
  await page.close();
  return expect(after.includes('- : int32 = 101'), `after Stop: ${after}`);
});

await test("a deep non-tail recursion gives relay's stack-overflow error and the page keeps working", async () => {
  const page = await open();
  await setEditor(page, 'def @deep(%n : int32) -> int32 { if (%n == 0) { 0 } else { 1 + @deep(%n - 1) } }\n@deep(10)\n');
  const [first] = await runAndWait(page);
  const text = await replInput(page, '@deep(10000000)', 120000);
  await page.waitForSelector('#status[data-state=ready]');
  const after = await replInput(page, '@deep(5) + 1');
  await page.screenshot({ path: join(shots, '07-stack-overflow.png') });
  await page.close();
  const problem = expect(first.includes('- : int32 = 10'), `@deep(10): ${first}`) ||
    expect(/run-time error: stack overflow/.test(text) || /stack ran out/.test(text), `@deep(10000000): ${text}`) ||
    expect(after.includes('- : int32 = 6'), `after it: ${after}`);
  // The browser's stack running out before relay's own depth limit (a RangeError: the page
  // restarts relay and says so) is relay.wasm's to fix, not the page's: a known failure, marked
  // TODO (an expected failure) until the stack-overflow error is relay's own.
  if (!problem && !/run-time error: stack overflow/.test(text)) {
    return { todo: "relay.wasm's depth limit is deeper than chromium's worker stack: a RangeError, not relay's stack overflow", detail: text };
  }
  return problem;
});

await test('2,000 inputs in one session stay within a bounded heap', async () => {
  const page = await open();
  const r = await page.evaluate(async () => {
    const s = window.relayPlay.session;
    const heaps = [];
    let bad = null;
    for (let i = 1; i <= 2000; i++) {
      const res = await s.eval(`sum(ones(shape=[100, 100]) * ${i}f)`);
      const v = res.items && res.items[0];
      if (!v || v.kind !== 'value' || Number(v.value.data[0]) !== 10000 * i) bad = bad || `input ${i}: ${JSON.stringify(res).slice(0, 300)}`;
      if (i % 100 === 0) heaps.push(s.heap);
    }
    return { heaps, bad };
  });
  await page.close();
  const mb = (b) => (b / 1048576).toFixed(1);
  console.error(`# heap (MiB) every 100 inputs: ${r.heaps.map(mb).join(' ')}`);
  // 2,000 inputs of 40 kB of garbage each are 80 MB: past the first 200 the heap may grow by 32 MiB
  return r.bad || expect(r.heaps[19] <= r.heaps[1] + 32 * 1048576, `the heap grew from ${mb(r.heaps[1])} MiB to ${mb(r.heaps[19])} MiB`);
});

await test('the graph tab draws :graph of a function', async () => {
  const page = await open();
  await setEditor(page, 'def @mlp(%x : Tensor[(64, 784), float32], %w : Tensor[(10, 784), float32]) { nn.softmax(nn.dense(%x, %w)) }\n');
  await runAndWait(page);
  await page.click('[data-testid=graph-tab]');
  await page.waitForSelector('[data-testid=graph] svg', { timeout: 30000 });
  const text = await page.locator('[data-testid=graph]').textContent();
  await page.screenshot({ path: join(shots, '08-graph.png') });
  await page.close();
  return expect(text.includes('nn.dense') && text.includes('Tensor[(64, 10), float32]'), `graph: ${text.slice(0, 300)}`);
});

await test('the examples menu loads an example, and a value shows as the kernel shows it', async () => {
  const page = await open();
  const options = await page.locator('[data-testid=examples] option').allTextContents();
  const lists = options.findIndex((o) => /Data types/.test(o));
  await page.selectOption('[data-testid=examples]', String(lists - 1));
  const text = await editorText(page);
  const out = await runAndWait(page);
  const tree = await page.locator('.rich.tree').count();
  await page.screenshot({ path: join(shots, '09-example.png') });
  await page.close();
  return expect(text.includes('def @total'), `the editor has ${text.slice(0, 80)}`) || expect(out[0].includes('- : int32 = 6'), out[0]) ||
    expect(!out[0].includes('warning'), `warnings: ${out[0]}`) ||
    expect(tree >= 1, 'no ADT tree');
});

await test('ResNet-18 (../shared/models/resnet18.rly) from the examples type-checks, shows types on hover, and runs', async () => {
  const examples = await (await fetch(base + 'examples.json')).json();
  const index = examples.findIndex((e) => e.name.startsWith('ResNet-18'));
  if (index < 0) return null; // no ../shared/models beside the checkout: nothing to try
  const page = await open();
  await page.selectOption('[data-testid=examples]', String(index));
  // the check finished: the graph tab's list has @main, and no squiggle
  await page.waitForFunction(() => [...document.querySelectorAll('#graph-function option')].some((o) => o.value === '@main'), null, { timeout: 60000 });
  const diagnostics = await page.locator('[data-testid=diagnostic]').allTextContents();
  const text = await editorText(page);
  const pos = text.indexOf('%85 = ') + 1;
  await page.evaluate((p) => window.relayPlay.editor.dispatch({ effects: window.relayPlay.editor.constructor.scrollIntoView(p, { y: 'center' }) }), pos);
  await page.waitForTimeout(300);
  const box = await page.evaluate((p) => window.relayPlay.editor.coordsAtPos(p), pos);
  await page.mouse.move(box.left + 3, (box.top + box.bottom) / 2);
  const hover = page.locator('[data-testid=hover]');
  await hover.waitFor({ timeout: 30000 });
  const type = await hover.textContent();
  const t0 = Date.now();
  const [out] = await runAndWait(page, 1, 300000);
  const ms = Date.now() - t0;
  await page.screenshot({ path: join(shots, '11-resnet18.png') });
  await page.close();
  console.error(`# ResNet-18: Run (check and run @main on ones) took ${ms} ms in the page`);
  return expect(diagnostics.length === 0, `diagnostics: ${diagnostics.join('; ')}`) ||
    expect(type.includes('Tensor[(1, 512, 7, 7), float32]'), `hover on %85: ${type}`) ||
    expect(/- : int32 = \d+/.test(out), `the run: ${out.slice(-400)}`);
});

const tour = await (await fetch(base + 'tour.json')).json();
for (const section of tour) {
  await test(`tour section ${section.number}'s "try it" link (play/#tour/${section.number}) runs as its transcript`, async () => {
    const page = await open(`#tour/${section.number}`);
    const texts = await runAndWait(page, section.boxes.length, 120000);
    if (section.number === 16) await page.screenshot({ path: join(shots, '10-tour-16.png') });
    await page.close();
    for (const [i, box] of section.boxes.entries()) {
      const problem = compareTranscript(box.expected, texts[i] || '');
      if (problem) return `box ${i + 1}: ${problem}`;
    }
    return null;
  });
}

await test("the tour's → goes to the next section, whose boxes run in fresh sessions after the last one's", async () => {
  const [six, seven] = [tour.find((s) => s.number === 6), tour.find((s) => s.number === 7)];
  const page = await open('#tour/6');
  await runAndWait(page, six.boxes.length, 120000);
  await page.click('#tour-note a:has-text("→")');
  await page.waitForFunction(() => location.hash === '#tour/7');
  await page.waitForFunction((t) => window.relayPlay.editor.state.doc.toString().includes(t), seven.boxes[0].inputs[0]);
  const texts = await runAndWait(page, seven.boxes.length, 120000);
  await page.close();
  for (const [i, box] of seven.boxes.entries()) {
    const problem = compareTranscript(box.expected, texts[i] || '');
    if (problem) return `section 7, box ${i + 1}: ${problem}`;
  }
  return null;
});

await test('no page errors', async () => expect(pageErrors.length === 0, pageErrors.join('\n')));

await browser.close();
if (server) server.kill();

console.log(`1..${results.length}`);
results.forEach(([name, problem], i) => {
  if (problem && problem.todo) {
    console.log(`not ok ${i + 1} - ${name} # TODO ${problem.todo}`);
    for (const l of String(problem.detail).split('\n')) console.log('# ' + l);
    return;
  }
  console.log(`${problem ? 'not ok' : 'ok'} ${i + 1} - ${name}`);
  if (problem) for (const l of String(problem).split('\n')) console.log('# ' + l);
});
const failed = results.filter((r) => r[1] && !r[1].todo).length;
if (failed) console.log(`# ${failed} of ${results.length} failed`);
process.exitCode = failed ? 1 : 0;
