// Relay's highlighting for CodeMirror 6: a StreamLanguage port of editors/relay.tmLanguage.json's
// main rules (comments, strings, keywords, @globals, %locals, :commands, numbers with their dtype
// suffixes, dtypes and Tensor, constructors and data types, operators' dotted names).
import { StreamLanguage } from '@codemirror/language';

const KEYWORDS = new Set(['def', 'fn', 'let', 'if', 'else', 'match', 'case', 'data', 'type', 'where', 'extern', 'free_var', 'ref', 'meta']);
const DTYPE = /^(?:bool|u?int(?:8|16|32|64)?|uint1|float(?:16|32|64)?|bfloat16)(?:x[1-9][0-9]*)?$/;
const KINDS = new Set(['Type', 'Shape', 'ShapeVar', 'BaseType', 'Tensor', 'Any']);

function token(stream, state) {
  if (state.comment > 0) {
    while (!stream.eol()) {
      if (stream.match('*/')) { state.comment -= 1; if (!state.comment) return 'blockComment'; }
      else if (stream.match('/*')) state.comment += 1;
      else stream.next();
    }
    return 'blockComment';
  }
  if (stream.eatSpace()) return null;
  if (stream.sol() && stream.match(/^:[A-Za-z?{}]+/)) return 'keyword';
  if (stream.match('//')) { stream.skipToEnd(); return 'lineComment'; }
  if (stream.match('/*')) { state.comment = 1; return token(stream, state) || 'blockComment'; }
  if (stream.match('#[')) return 'meta';
  if (stream.match(/^#(?!\[).*/)) return 'lineComment';
  if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
  if (stream.match(/^@[A-Za-z_][A-Za-z0-9_./]*/)) return 'labelName';
  if (stream.match(/^%[A-Za-z0-9_.]+/)) return 'variableName';
  if (stream.match(/^(?:0x[0-9A-Fa-f]+|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)(?:[fiu](?:8|16|32|64)?|b)?/)) return 'number';
  if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/)) {
    const w = stream.current();
    if (w === 'True' || w === 'False') return 'bool';
    if (KEYWORDS.has(w)) return 'keyword';
    if (KINDS.has(w) || DTYPE.test(w)) return 'typeName';
    if (/^[A-Z]/.test(w)) return 'className';
    if (w.includes('.') || /^[a-z_]/.test(w)) return 'propertyName';
    return 'variableName';
  }
  if (stream.match(/^(?:->|=>|==|!=|<=|>=|&&|\|\||[-+*\/%<>=!&|^~])/)) return 'operator';
  stream.next();
  return null;
}

export const relayLanguage = StreamLanguage.define({
  name: 'relay',
  startState: () => ({ comment: 0 }),
  token,
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});
