// The playground page: a CodeMirror 6 editor with relay's highlighting, squiggles (`check`), types
// on hover (`type_at`), inline types of the binders written without one, Tab completion
// (`complete`), Run (`eval`, as the REPL runs typed text), a REPL pane with an input line, a graph
// tab (`graph`, drawn by Graphviz in wasm), Stop, Share and examples. relay runs in a Web Worker
// (session.js). The parts the tests use carry data-testid (docs/play.md).
import { EditorView, basicSetup } from 'codemirror';
import { keymap, hoverTooltip, Decoration, WidgetType } from '@codemirror/view';
import { StateEffect, StateField, Prec } from '@codemirror/state';
import { linter, lintGutter, forceLinting } from '@codemirror/lint';
import { autocompletion, acceptCompletion, startCompletion, completionStatus } from '@codemirror/autocomplete';
import { indentMore } from '@codemirror/commands';
import { relayLanguage } from './lang.js';
import { Session } from './session.js';
import { itemsText, richViews, escapeHtml } from './render.js';
import { encodeShare, decodeShare, PREFIX } from './share.js';
import { sectionText, splitFresh } from './tour.js';

const $ = (sel) => document.querySelector(sel);
const timing = { start: performance.now(), ready: null, firstAnswer: null };
window.relayPlay = { timing };

// ---------------------------------------------------------------- relay

const statusEl = $('#status');
const STATUS = { running: 'running…', ready: 'ready', replaying: 'replaying the session…', loading: 'loading relay…' };
const session = new Session({
  onStatus: (s) => {
    statusEl.textContent = STATUS[s] || s;
    statusEl.dataset.state = s;
    $('[data-testid=stop]').disabled = s !== 'running' && s !== 'replaying';
  },
});
statusEl.textContent = STATUS.loading;
window.relayPlay.session = session;
session.ready.then(() => {
  timing.ready = performance.now();
  statusEl.textContent = STATUS.ready;
  statusEl.dataset.state = 'ready';
}, (err) => {
  statusEl.textContent = `relay could not be loaded: ${err.message}`;
  statusEl.dataset.state = 'failed';
});

// Requests for the editor's helpers (check, type_at, complete) are skipped while an eval runs:
// the worker answers one request at a time, and a squiggle can wait for the next keystroke.
let evalRunning = false;
async function helper(method, params) {
  if (evalRunning) return null;
  try {
    return await session.request(method, params);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- the editor's helpers

// An offset in the document from a diagnostic's line and column (code points, from 1).
function offsetOf(doc, line, column) {
  if (line < 1) return 0;
  if (line > doc.lines) return doc.length;
  const l = doc.line(line);
  let off = l.from, cps = 1;
  for (const ch of l.text) {
    if (cps >= column) break;
    off += ch.length;
    cps += 1;
  }
  return Math.min(off, l.to);
}

function lineColumnOf(doc, pos) {
  const l = doc.lineAt(pos);
  return { line: l.number, column: [...l.text.slice(0, pos - l.from)].length + 1 };
}

// The text the helpers check: the editor's, with the FRESH lines blanked (a comment).
let lastCheck = { definitions: [] };
const problemsEl = $('#problems');

const relayLint = linter(async (view) => {
  const doc = view.state.doc;
  const text = doc.toString();
  const r = await helper('check', { text, mode: 'repl' });
  if (!r || view.state.doc !== doc) return [];
  const defs = (r.items || []).filter((i) => i.kind === 'definition').map((i) => i.name);
  lastCheck = { definitions: defs };
  updateGraphChoices(defs);
  const diagnostics = [];
  problemsEl.replaceChildren();
  for (const item of r.items || []) {
    if (item.kind !== 'diagnostic') continue;
    const d = item.diagnostic;
    const from = offsetOf(doc, d.line, d.column);
    let to = offsetOf(doc, d.end_line || d.line, d.end_column || d.column + 1);
    if (to <= from) to = Math.min(doc.length, from + 1);
    const message = [d.message, ...(d.notes || []), ...(d.hint ? ['hint: ' + d.hint] : [])].join('\n');
    diagnostics.push({ from, to, severity: d.severity === 'warning' ? 'warning' : d.severity === 'hole' ? 'info' : 'error', message,
      source: d.kind });
    const p = document.createElement('pre');
    p.className = 'problem ' + d.severity;
    p.dataset.testid = 'diagnostic';
    p.textContent = `${d.line}:${d.column}: ${d.kind}: ${message}`;
    p.onclick = () => { view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true }); view.focus(); };
    problemsEl.append(p);
  }
  requestInlays(view, text);
  return diagnostics;
}, { delay: 400 });

const relayHover = hoverTooltip(async (view, pos) => {
  const { line, column } = lineColumnOf(view.state.doc, pos);
  const text = view.state.doc.toString();
  const r = await helper('type_at', { text, line, column, mode: 'repl' });
  if (!r || !r.type || view.state.doc.toString() !== text) return null;
  const from = r.span ? offsetOf(view.state.doc, r.span.line, r.span.column) : pos;
  const to = r.span ? offsetOf(view.state.doc, r.span.end_line, r.span.end_column) : pos;
  return {
    pos: from, end: to, above: true,
    create() {
      const dom = document.createElement('div');
      dom.className = 'relay-hover';
      dom.dataset.testid = 'hover';
      dom.innerHTML = `<code>${escapeHtml(r.expression || '')}</code> : <code class="type">${escapeHtml(r.type)}</code>`;
      return { dom };
    },
  };
}, { hoverTime: 300 });

const KIND_TYPE = { global: 'function', binding: 'variable', constructor: 'class', data: 'type', operator: 'method', command: 'keyword' };
async function relayComplete(context) {
  const word = context.matchBefore(/(?:^:|[@%])?[A-Za-z_][A-Za-z0-9_.]*|[@%]$|^:$/m);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  if (word.text.startsWith(':') && word.from !== context.state.doc.lineAt(context.pos).from) return null;
  const r = await helper('complete', { prefix: word.text });
  if (!r || !r.candidates || !r.candidates.length) return null;
  return {
    from: word.from,
    options: r.candidates.slice(0, 200).map((c) => ({ label: c.name, detail: c.type, type: KIND_TYPE[c.kind] || 'text' })),
    validFor: /^[@%:]?[A-Za-z0-9_.]*$/,
  };
}

// Inline types: the binders written without a type (a `let` or graph binding's variable, a
// parameter, a pattern's variable), each followed by the type relay found for it: one `inlay`
// request after each check (docs/serve.md), as the language server's inlay hints.
const setInlays = StateEffect.define();
class TypeWidget extends WidgetType {
  constructor(type) { super(); this.type = type; }
  eq(other) { return other.type === this.type; }
  toDOM() {
    const s = document.createElement('span');
    s.className = 'relay-inlay';
    s.textContent = ': ' + this.type;
    return s;
  }
}
const inlayField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) if (e.is(setInlays)) return e.value;
    return tr.docChanged ? deco.map(tr.changes) : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

let inlayGeneration = 0;
async function requestInlays(view, text) {
  const generation = ++inlayGeneration;
  const r = await helper('inlay', { text, mode: 'repl' });
  if (generation !== inlayGeneration || view.state.doc.toString() !== text || !r || !r.hints) return;
  const widgets = r.hints.slice(0, 500).map((h) =>
    Decoration.widget({ widget: new TypeWidget(h.type), side: 1 }).range(offsetOf(view.state.doc, h.line, h.column)));
  view.dispatch({ effects: setInlays.of(Decoration.set(widgets, true)) });
}

// ---------------------------------------------------------------- the editor

const tabKeymap = Prec.high(keymap.of([
  { key: 'Tab', run: (view) => {
    if (completionStatus(view.state) === 'active') return acceptCompletion(view);
    const pos = view.state.selection.main.head;
    const before = view.state.doc.sliceString(Math.max(0, pos - 1), pos);
    if (view.state.selection.main.empty && /[A-Za-z0-9_.@%:]/.test(before)) return startCompletion(view);
    return indentMore(view);
  } },
  { key: 'Mod-Enter', run: () => { run(); return true; } },
]));

const editor = new EditorView({
  parent: $('#editor'),
  extensions: [
    tabKeymap,
    basicSetup,
    relayLanguage,
    relayLint,
    lintGutter(),
    relayHover,
    inlayField,
    autocompletion({ override: [relayComplete], activateOnTyping: true }),
    EditorView.contentAttributes.of({ 'data-testid': 'editor', 'aria-label': 'Relay program' }),
  ],
});
window.relayPlay.editor = editor;

function setText(text) {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
}

// ---------------------------------------------------------------- output

const outputEl = $('[data-testid=output]');

function echo(text, cls = 'input') {
  const div = document.createElement('pre');
  div.className = 'echo ' + cls;
  div.textContent = text.split('\n').map((l, i) => (i ? '... ' : 'relay> ') + l).join('\n');
  outputEl.append(div);
  return div;
}

function note(text, cls = 'note') {
  const div = document.createElement('div');
  div.className = cls;
  div.textContent = text;
  outputEl.append(div);
  outputEl.scrollTop = outputEl.scrollHeight;
  return div;
}

// An answer: each item's text as the terminal shows it (a <pre class="answer-text"> each; together
// they are the REPL's output for the input), a value's rich views (table, heatmap, tree) below it.
function showAnswer(result) {
  const div = document.createElement('div');
  div.className = 'answer' + (result.ok === false ? ' failed' : '');
  div.dataset.testid = 'answer';
  for (const item of result.items || []) {
    const pre = document.createElement('pre');
    pre.className = 'answer-text ' + item.kind + (item.diagnostic ? ' ' + item.diagnostic.severity : '');
    pre.textContent = itemsText([item]);
    div.append(pre);
    if (item.kind === 'value' || item.kind === 'binding') {
      for (const [i, view] of richViews(item).entries()) {
        const d = document.createElement('details');
        d.className = 'rich ' + view.kind;
        d.open = i === 0 && (view.kind === 'tree' || (item.text || '').includes('\n'));
        d.innerHTML = `<summary>${view.kind}</summary>${view.html}`;
        div.append(d);
      }
    } else if (item.kind === 'output' && /^\s*digraph /.test(item.text || '')) {
      drawGraph(item.text, '');
      const b = document.createElement('button');
      b.textContent = 'show it in the Graph tab';
      b.onclick = () => selectTab('graph');
      div.append(b);
    }
  }
  outputEl.append(div);
  outputEl.scrollTop = outputEl.scrollHeight;
  if (timing.firstAnswer === null) timing.firstAnswer = performance.now();
  return div;
}

function explainFailure(err) {
  if (err.stopped) return null;
  if (err.crash) {
    return /RangeError|call stack|stack/i.test(err.message)
      ? `The browser's stack ran out (${err.message}) before relay's own depth limit caught it: relay was restarted and the session's earlier inputs replayed.`
      : `relay stopped with an error (${err.message}): it was restarted and the session's earlier inputs replayed.`;
  }
  return `relay could not take the request: ${err.message}`;
}

let running = null; // the eval under way, for Stop

async function evalText(text, { echoInput = true } = {}) {
  if (echoInput) echo(text.replace(/\n+$/, ''));
  evalRunning = true;
  running = text;
  try {
    const result = await session.eval(text);
    showAnswer(result);
    return result;
  } catch (err) {
    const why = explainFailure(err);
    if (why && err.crash) {
      // the input has an answer all the same: what happened to it
      const div = document.createElement('div');
      div.className = 'answer failed crashed';
      div.dataset.testid = 'answer';
      div.append(Object.assign(document.createElement('pre'), { className: 'answer-text crash', textContent: why + '\n' }));
      outputEl.append(div);
      outputEl.scrollTop = outputEl.scrollHeight;
    } else if (why) {
      note(why, 'note error');
    }
    return null;
  } finally {
    evalRunning = false;
    running = null;
  }
}

async function run() {
  if (evalRunning) return;
  const parts = splitFresh(editor.state.doc.toString());
  const runBtn = $('[data-testid=run]');
  runBtn.disabled = true;
  try {
    for (const [i, part] of parts.entries()) {
      if (i > 0) {
        evalRunning = true;
        await session.reset().catch(() => {});
        note(`a fresh session (part ${i} of ${parts.length - 1})`, 'note fresh');
      }
      if (!part.trim()) continue;
      const r = await evalText(part);
      if (r === null || r.quit) break;
    }
  } finally {
    runBtn.disabled = false;
    forceLinting(editor);
  }
}

async function stop() {
  if (!session.busy && !evalRunning) return;
  const what = running;
  note('Stopping: the worker running relay is ended and a new one started; the session\'s earlier inputs are replayed…', 'note stop');
  const n = await session.restart();
  note(`Stopped. The session goes on with its ${n} earlier input${n === 1 ? '' : 's'} replayed: what they defined is back; what the stopped ${what && what.includes('\n') ? 'Run' : 'input'} defined is not.`, 'note stop');
}

$('[data-testid=run]').onclick = run;
$('[data-testid=stop]').onclick = stop;

// The REPL's input line: Enter runs it (Shift+Enter for another line), ↑/↓ walk its history.
const replInput = $('#repl-input');
const replHistory = [];
let replAt = 0;
replInput.addEventListener('keydown', async (e) => {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    const text = replInput.value;
    if (!text.trim() || evalRunning) return;
    replHistory.push(text);
    replAt = replHistory.length;
    replInput.value = '';
    await evalText(text);
    forceLinting(editor);
  } else if (e.key === 'ArrowUp' && !replInput.value.includes('\n') && replAt > 0) {
    e.preventDefault();
    replInput.value = replHistory[--replAt];
  } else if (e.key === 'ArrowDown' && !replInput.value.includes('\n') && replAt < replHistory.length) {
    e.preventDefault();
    replAt += 1;
    replInput.value = replHistory[replAt] || '';
  }
});

// ---------------------------------------------------------------- share

$('[data-testid=share]').onclick = async () => {
  const link = await encodeShare(editor.state.doc.toString());
  history.replaceState(null, '', link);
  const url = location.href;
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch { /* no clipboard permission: the address bar has it */ }
  const s = $('#share-note');
  s.textContent = copied ? 'Link copied: the program is in the link (nothing is stored on a server).' : 'The link is in the address bar (the clipboard was not available): the program is in the link.';
  s.dataset.link = url;
};

// ---------------------------------------------------------------- graph tab

const graphEl = $('[data-testid=graph]');
const graphSelect = $('#graph-function');
let graphviz = null;

function updateGraphChoices(defs) {
  const current = graphSelect.value;
  graphSelect.replaceChildren(...defs.map((d) => Object.assign(document.createElement('option'), { value: d, textContent: d })));
  if (defs.includes(current)) graphSelect.value = current;
}

async function drawGraph(dot, name) {
  const target = $('#graph-drawing');
  target.dataset.function = name;
  try {
    if (!graphviz) {
      const { Graphviz } = await import('@hpcc-js/wasm-graphviz');
      graphviz = await Graphviz.load();
    }
    target.innerHTML = graphviz.dot(dot);
  } catch (err) {
    console.warn('graphviz:', err);
    target.replaceChildren(Object.assign(document.createElement('pre'), { textContent: dot }));
  }
}

async function showGraph() {
  const name = graphSelect.value;
  const target = $('#graph-drawing');
  if (!name) {
    target.textContent = 'Define a function of tensors in the editor (def @f ...): its dataflow graph is drawn here.';
    return;
  }
  const r = await helper('graph', { text: name });
  if (!r) return;
  if (r.ok && r.text) await drawGraph(r.text, name);
  else target.replaceChildren(Object.assign(document.createElement('pre'), { className: 'answer-text', textContent: itemsText(r.items) }));
}
graphSelect.onchange = showGraph;

function selectTab(name) {
  for (const b of document.querySelectorAll('.tabs button')) b.classList.toggle('active', b.dataset.tab === name);
  for (const p of document.querySelectorAll('.panel')) p.hidden = p.dataset.panel !== name;
}
for (const b of document.querySelectorAll('.tabs button')) {
  b.onclick = () => {
    selectTab(b.dataset.tab);
    if (b.dataset.tab === 'graph' && !$('#graph-drawing').dataset.function) showGraph();
  };
}
$('#graph-refresh').onclick = showGraph;

// ---------------------------------------------------------------- examples, the tour, the fragment

let tour = [];
let examples = [];
const examplesEl = $('[data-testid=examples]');

async function loadJson(name) {
  try {
    return await (await fetch(name)).json();
  } catch {
    return [];
  }
}

async function openFragment() {
  const hash = location.hash;
  if (hash.startsWith(PREFIX)) {
    try {
      setText(await decodeShare(hash));
    } catch (err) {
      note(`The shared link could not be opened: ${err.message}`, 'note error');
    }
    return true;
  }
  const m = /^#tour\/(\d+)$/.exec(hash);
  if (m) {
    const section = tour.find((s) => s.number === Number(m[1]));
    if (!section) {
      note(`The tour has no section ${m[1]} (sections 1 to ${tour.length}).`, 'note error');
      return false;
    }
    setText(sectionText(section));
    const i = tour.indexOf(section);
    const link = (s, text) => (s ? `<a href="#tour/${s.number}">${text}</a>` : '');
    $('#tour-note').innerHTML = `${link(tour[i - 1], '←')} The tour, section ${section.number}: ${escapeHtml(section.title)} (docs/tour.md); each box runs in a fresh session. Press Run. ${link(tour[i + 1], '→')}`;
    return true;
  }
  return false;
}

async function init() {
  [tour, examples] = await Promise.all([loadJson('tour.json'), loadJson('examples.json')]);
  for (const [i, ex] of examples.entries()) examplesEl.append(Object.assign(document.createElement('option'), { value: String(i), textContent: ex.name }));
  const tourGroup = document.createElement('optgroup');
  tourGroup.label = 'The tour';
  for (const s of tour) tourGroup.append(Object.assign(document.createElement('option'), { value: 'tour/' + s.number, textContent: `${s.number}. ${s.title}` }));
  examplesEl.append(tourGroup);
  examplesEl.onchange = () => {
    const v = examplesEl.value;
    if (v.startsWith('tour/')) {
      location.hash = '#' + v;
    } else if (examples[Number(v)]) {
      history.replaceState(null, '', location.pathname);
      setText(examples[Number(v)].text);
      $('#tour-note').textContent = '';
    }
    examplesEl.value = '';
  };
  if (!(await openFragment()) && examples.length) setText(examples[0].text);
  window.addEventListener('hashchange', openFragment);
  document.body.dataset.loaded = 'true';
}
init();
