// What the page shows of relay's answers (docs/serve.md): the REPL's text of an eval's items, and
// rich views of values as the Jupyter kernel shows them (kernel/relay_display.py: tensor tables
// and heatmaps, ADT trees). Pure functions of the response, returning strings, so that node can
// test them (tests/play/units.mjs) and the page puts them into the DOM.

// The text the terminal shows for an eval's items, in order: what `relay` prints for the same
// inputs on a pipe (tests/play/units.mjs checks it against every box of docs/tour.md).
export function itemText(item) {
  const nl = (t) => (t.endsWith('\n') ? t : t + '\n');
  switch (item.kind) {
    case 'definition':
      return `${item.name} : ${item.type}\n`;
    case 'data':
      return (item.constructors || []).map((c) => `${c.name} : ${c.type}\n`).join('');
    case 'value':
    case 'binding': {
      const head = item.kind === 'value' ? `- : ${item.type}` : `${item.name} : ${item.type}`;
      const text = item.text || '';
      const timing = item.timing ? '\n' + item.timing : '';
      return (text.includes('\n') ? `${head} =\n${text}` : `${head} = ${text}`) + timing + '\n';
    }
    case 'expression':
      return `- : ${item.type}\n`;
    case 'diagnostic': {
      const d = item.diagnostic || {};
      return nl(d.rendered || d.message || '');
    }
    case 'output':
    case 'stderr':
      return item.text ? nl(item.text) : '';
    default:
      return item.text ? nl(item.text) : '';
  }
}

export function itemsText(items) {
  return (items || []).map(itemText).join('');
}

// ---------------------------------------------------------------- values (kernel/relay_display.py)

export const MAX_SIDE = 20; // rows or columns shown in full; past it the first and last HALF
const HALF = 10;
const MAX_CELLS = 100; // heatmap: rows and columns drawn at most
const MAX_NODES = 200; // ADT tree: nodes drawn at most
const FLOATS = ['float16', 'float32', 'float64', 'bfloat16'];
const SUFFIX = {
  int32: '', float32: 'f', float64: 'f64', float16: 'f16', int64: 'i64', int16: 'i16', int8: 'i8',
  uint8: 'u8', uint16: 'u16', uint32: 'u32', uint64: 'u64',
};

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// The shortest decimal that reads back as x in its dtype (float32 through Math.fround), without a
// trailing `.0`: `10`, `0.1`, `1e-05` as Python spells it.
function shortest(x, dtype) {
  let text = String(x);
  if (dtype === 'float32' || dtype === 'float16' || dtype === 'bfloat16') {
    const want = Math.fround(x);
    for (let p = 1; p < 18; p++) {
      const s = x.toPrecision(p);
      if (Math.fround(Number(s)) === want) { text = String(Number(s)); break; }
    }
  }
  // as Python's repr: exponents below 1e-4 and from 1e16, with two digits at least (1e-05)
  const n = Number(text), a = Math.abs(n);
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) text = n.toExponential();
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

export function elementText(x, dtype) {
  if (x === true) return 'True';
  if (x === false) return 'False';
  if (FLOATS.includes(dtype) || (dtype === undefined && typeof x === 'string')) {
    const f = Number(x);
    if (Number.isNaN(f)) return typeof x === 'string' && x !== 'nan' ? x : 'nan';
    if (!Number.isFinite(f)) return f > 0 ? 'inf' : '-inf';
    return shortest(f, dtype);
  }
  return String(x);
}

export function scalarText(x, dtype) {
  const text = elementText(x, dtype);
  if (dtype === 'bool' || ['nan', 'inf', '-inf'].includes(text)) return text;
  return text + (SUFFIX[dtype] ?? '');
}

function indices(n, available) {
  if (n <= MAX_SIDE && (available === undefined || available >= n)) return [...Array(n).keys()];
  if (available !== undefined && available < n) return [...Array(Math.min(available, MAX_SIDE)).keys(), null];
  return [...Array(HALF).keys(), null, ...Array.from({ length: HALF }, (_, i) => n - HALF + i)];
}

const isTensor = (v) => v && typeof v === 'object' && v.kind === 'tensor';

// A table of a rank-1 or rank-2 tensor, captioned with its type; null for anything else.
export function tensorHtml(value, typeText) {
  if (!isTensor(value) || ![1, 2].includes((value.shape || []).length)) return null;
  const shape = value.shape.map(Number);
  const data = value.data || [];
  const dtype = value.dtype;
  const [rows, cols] = shape.length === 1 ? [1, shape[0]] : shape;
  if (rows * cols === 0) return null;
  const fullRows = cols ? Math.floor(data.length / cols) : 0;
  const rowIdx = indices(rows, data.length < rows * cols ? fullRows : undefined);
  const colIdx = shape.length === 1 && data.length < cols ? indices(cols, data.length) : indices(cols);
  const out = ['<table class="relay-tensor">', `<caption>${escapeHtml(typeText)}</caption>`];
  if (shape.length === 2) out.push('<tr><th></th>' + colIdx.map((j) => (j === null ? '<th>…</th>' : `<th>${j}</th>`)).join('') + '</tr>');
  for (const i of rowIdx) {
    const cells = [];
    if (shape.length === 2) cells.push(i === null ? '<th>…</th>' : `<th>${i}</th>`);
    for (const j of colIdx) {
      cells.push(i === null || j === null ? '<td>…</td>' : `<td>${escapeHtml(elementText(data[i * cols + j], dtype))}</td>`);
    }
    out.push('<tr>' + cells.join('') + '</tr>');
  }
  out.push('</table>');
  return out.join('\n');
}

// Viridis, sampled at 9 points: dark blue (low) to yellow (high).
const PALETTE = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
  [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]];

function colour(t) {
  t = Math.min(Math.max(t, 0), 1) * (PALETTE.length - 1);
  const k = Math.min(Math.floor(t), PALETTE.length - 2);
  const f = t - k;
  const a = PALETTE[k], b = PALETTE[k + 1];
  return '#' + [0, 1, 2].map((c) => Math.round(a[c] + (b[c] - a[c]) * f).toString(16).padStart(2, '0')).join('');
}

const fmt = (x) => (Number.isFinite(x) ? String(Number(x.toPrecision(6))) : String(x));

// A 2-D float tensor as coloured cells (at most MAX_CELLS a side), with its type and range.
export function heatmapSvg(value, typeText) {
  if (!isTensor(value) || (value.shape || []).length !== 2 || !FLOATS.includes(value.dtype)) return null;
  const [rows, cols] = value.shape.map(Number);
  const data = value.data || [];
  const shownRows = Math.min(rows, MAX_CELLS, cols ? Math.floor(data.length / cols) : 0);
  const shownCols = Math.min(cols, MAX_CELLS);
  if (!shownRows || !shownCols) return null;
  const grid = [];
  for (let i = 0; i < shownRows; i++) grid.push(Array.from({ length: shownCols }, (_, j) => Number(data[i * cols + j])));
  const finite = grid.flat().filter(Number.isFinite);
  const lo = finite.length ? Math.min(...finite) : 0, hi = finite.length ? Math.max(...finite) : 0;
  const cell = Math.max(4, Math.min(24, Math.floor(480 / Math.max(shownRows, shownCols))));
  const width = shownCols * cell, height = shownRows * cell;
  let caption = typeText;
  if (shownRows < rows || shownCols < cols) caption += ` (the first ${shownRows} × ${shownCols})`;
  const legend = finite.length ? `min ${fmt(lo)}, max ${fmt(hi)}` : 'no finite values';
  const w = Math.max(width, 240) + 2, h = height + 44;
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" class="relay-heatmap" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<title>${escapeHtml(typeText)}</title>`];
  grid.forEach((row, i) => row.forEach((x, j) => {
    const fill = Number.isFinite(x) ? colour(hi > lo ? (x - lo) / (hi - lo) : 0.5) : '#999999';
    out.push(`<rect x="${1 + j * cell}" y="${1 + i * cell}" width="${cell}" height="${cell}" fill="${fill}"><title>[${i}, ${j}] = ${escapeHtml(elementText(data[i * cols + j], value.dtype))}</title></rect>`);
  }));
  out.push(`<text x="1" y="${height + 18}" font-family="monospace" font-size="12">${escapeHtml(caption)}</text>`);
  out.push(`<text x="1" y="${height + 36}" font-family="monospace" font-size="12">${escapeHtml(legend)}</text>`);
  out.push('</svg>');
  return out.join('\n');
}

function leafLabel(v) {
  const kind = v && typeof v === 'object' ? v.kind : undefined;
  if (kind === 'tensor') {
    const shape = v.shape || [];
    if (!shape.length && v.data && v.data.length) return scalarText(v.data[0], v.dtype);
    return `Tensor[(${shape.join(', ')}), ${v.dtype}]`;
  }
  if (kind === 'closure') return '<fn>';
  if (kind === 'ref' || kind === 'constructor' || kind === 'tuple') return null;
  return '…';
}

const children = (v) => (v.kind === 'constructor' || v.kind === 'tuple' ? v.fields || [] : v.kind === 'ref' ? [v.value] : []);
const nodeLabel = (v) => (v.kind === 'constructor' ? v.name || '?' : v.kind === 'tuple' ? '( )' : v.kind === 'ref' ? 'ref' : leafLabel(v));

export const isAdt = (v) => v && typeof v === 'object' && v.kind === 'constructor';

// A constructor tree as nested HTML lists (the kernel's fallback when Graphviz is missing: here it
// is the view, since it needs no layout).
export function adtHtml(value, typeText) {
  let count = 0;
  const walk = (v) => {
    count += 1;
    if (count > MAX_NODES) return '<li>…</li>';
    const leaf = leafLabel(v);
    if (leaf !== null) return `<li><code>${escapeHtml(leaf)}</code></li>`;
    const kids = children(v);
    const label = `<code>${escapeHtml(nodeLabel(v))}</code>`;
    if (!kids.length) return `<li>${label}</li>`;
    return `<li>${label}<ul>${kids.map(walk).join('')}</ul></li>`;
  };
  return `<div class="relay-adt"><div>${escapeHtml(typeText)}</div><ul>${walk(value)}</ul></div>`;
}

// The rich views of a value or binding item: [{kind: 'table'|'heatmap'|'tree', html}] (none for
// a scalar, a closure, a tuple of scalars...).
export function richViews(item) {
  const views = [];
  const value = item.value;
  const type = item.type || '';
  const table = tensorHtml(value, type);
  if (table) {
    views.push({ kind: 'table', html: table });
    const heat = heatmapSvg(value, type);
    if (heat) views.push({ kind: 'heatmap', html: heat });
  } else if (isAdt(value)) {
    views.push({ kind: 'tree', html: adtHtml(value, type) });
  }
  return views;
}
