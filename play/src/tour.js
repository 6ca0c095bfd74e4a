// The boxes of docs/tour.md, read as tests/repl_runner.py reads them: a ```relay-repl block is a
// transcript, its `> ` lines (or a lone `>`) typed inputs, its other lines the output expected
// from the inputs above. A section is `## N. Title`; play/#tour/N opens its inputs. Each box is a
// fresh session, so the editor holds the section's boxes each after a FRESH line, and Run starts a
// fresh session at each such line.

export const FRESH = '// ---- a fresh session (the next box of the tour) ----';

export function parseTour(markdown) {
  const sections = [];
  let section = null, box = null, started = false;
  for (const raw of markdown.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    if (box === null) {
      const m = /^## (\d+)\. (.*)$/.exec(line);
      if (m) {
        section = { number: Number(m[1]), title: m[2], boxes: [] };
        sections.push(section);
      } else if (line.trim() === '```relay-repl' && section) {
        box = { inputs: [], expected: [] };
        started = false;
      }
      continue;
    }
    if (line.trim() === '```') {
      while (box.expected.length && box.expected[box.expected.length - 1] === '') box.expected.pop();
      section.boxes.push(box);
      box = null;
      continue;
    }
    if (!started && line.startsWith('#')) continue; // a header line (# args: ...)
    if (line === '>' || line.startsWith('> ')) {
      started = true;
      box.inputs.push(line.slice(2));
    } else if (started || line) {
      started = true;
      box.expected.push(line);
    }
  }
  return sections.filter((s) => s.boxes.length);
}

// The editor's text for a section: its boxes' inputs, each after a FRESH line.
export function sectionText(section) {
  return section.boxes.map((b) => FRESH + '\n' + b.inputs.join('\n') + '\n').join('');
}

// The parts of an editor's text split at its FRESH lines: the first (before any FRESH line) runs
// in the session as it is, as at the prompt; each after a FRESH line in a fresh session.
export function splitFresh(text) {
  const parts = [[]];
  for (const line of text.split('\n')) {
    if (line.trim() === FRESH) parts.push([]);
    else parts[parts.length - 1].push(line);
  }
  return parts.map((p) => p.join('\n'));
}

// Whether an output line is the expected one, `<...>` in it matching any text (repl_runner.py's
// same_line).
export function sameLine(want, got) {
  if (!want.includes('<...>')) return want === got;
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp('^' + want.split('<...>').map(esc).join('.*') + '$', 's').test(got);
}

// Compares relay's output text with a box's expected lines as repl_runner.py does (trailing spaces
// and trailing blank lines aside): null when they agree, else a description of the first difference.
export function compareTranscript(expected, outputText) {
  const got = outputText.replace(/\n+$/, '').split('\n').map((l) => l.replace(/\s+$/, ''));
  if (!outputText.trim()) got.length = 0;
  const want = expected.slice();
  while (want.length && !want[want.length - 1]) want.pop();
  const n = Math.max(want.length, got.length);
  for (let i = 0; i < n; i++) {
    const w = want[i], g = got[i];
    if (w === undefined || g === undefined || !sameLine(w, g)) {
      return `first difference at output line ${i + 1}:\n   want: ${w}\n    got: ${g}`;
    }
  }
  return null;
}
