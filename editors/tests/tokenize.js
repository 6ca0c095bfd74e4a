#!/usr/bin/env node
// Prints each token of a file with its TextMate scopes under editors/relay.tmLanguage.json, a line
// `LINE:COL TEXT SCOPE SCOPE...` per token (columns in UTF-16 units from 1, as vscode-textmate counts
// them): for looking at what the grammar does. With --json it prints, for each file, an array of
// its lines, each an array of its tokens [start, end, [scope...]] (UTF-16 offsets in the line, every
// scope): what tests/editors/ compares the Pygments lexer with.
//   node editors/tests/tokenize.js [--json] FILE...
'use strict';
const fs = require('fs');
const path = require('path');
const tm = require('vscode-textmate');
const onig = require('vscode-oniguruma');

async function main(args) {
  const json = args[0] === '--json';
  const files = json ? args.slice(1) : args;
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm')).buffer;
  await onig.loadWASM(wasm);
  const grammarPath = path.join(__dirname, '..', 'relay.tmLanguage.json');
  const registry = new tm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new onig.OnigScanner(patterns),
      createOnigString: (s) => new onig.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === 'source.relay' ? tm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  const grammar = await registry.loadGrammar('source.relay');
  const out = [];
  for (const file of files) {
    let stack = tm.INITIAL;
    const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
    const fileTokens = [];
    lines.forEach((line, i) => {
      const r = grammar.tokenizeLine(line, stack);
      stack = r.ruleStack;
      fileTokens.push(r.tokens.map((t) => [t.startIndex, Math.min(t.endIndex, line.length), t.scopes]));
      if (json) return;
      for (const t of r.tokens) {
        const text = line.slice(t.startIndex, t.endIndex);
        if (text.trim() === '') continue;
        out.push(`${i + 1}:${t.startIndex + 1} ${JSON.stringify(text)} ${t.scopes.slice(1).join(' ')}`);
      }
    });
    if (json) out.push(JSON.stringify(fileTokens));
  }
  process.stdout.write(out.join('\n') + '\n');
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e.message || e);
  process.exit(1);
});
