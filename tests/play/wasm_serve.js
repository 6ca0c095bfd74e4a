#!/usr/bin/env node
// relay.wasm behind relay --serve --sandbox's stdio protocol (docs/serve.md): one JSON request
// per line on stdin, one response per line on stdout, each answered by relay_play_request
// (repl/wasm.c) as the playground's worker calls it: inside stackSave/stackRestore, a RangeError
// (the JavaScript stack exhausted) being a crash. For tests/play/wasm_serve_test.py and people.
//
// Usage: node tests/play/wasm_serve.js [--dist DIR] [--memory-log FILE] [--ccall]
//   --dist DIR         where relay.js and relay.wasm are (default: play/dist of this checkout)
//   --memory-log FILE  after each response, the WebAssembly memory's size in bytes, a line each
//   --ccall            pass each request as a JavaScript string through cwrap, as a page may
//                      (ccall copies it onto the C stack), not as its bytes in malloc'd memory
// It ends at the end of stdin, or after a response that says `quit` (:quit), as relay does.
'use strict';
const fs = require('fs');
const path = require('path');

let dist = path.join(__dirname, '..', '..', 'play', 'dist');
let memoryLog = null;
let viaCcall = false;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--dist' && i + 1 < args.length) dist = args[++i];
  else if (args[i] === '--memory-log' && i + 1 < args.length) memoryLog = args[++i];
  else if (args[i] === '--ccall') viaCcall = true;
  else {
    process.stderr.write('usage: node tests/play/wasm_serve.js [--dist DIR] [--memory-log FILE] [--ccall]\n');
    process.exit(2);
  }
}

const createRelay = require(path.resolve(dist, 'relay.js'));
createRelay({
  wasmBinary: fs.readFileSync(path.join(dist, 'relay.wasm')),  // emscripten 3.1.6's glue cannot fetch it in node
  print: (text) => process.stderr.write(text + '\n'),          // nothing but responses on stdout
  printErr: (text) => process.stderr.write(text + '\n'),
}).then((M) => {
  // The request's bytes as they came (invalid UTF-8 too: relay answers it as relay --serve does),
  // in malloc'd memory: a large text would not fit on the stack, where ccall puts strings.
  const asString = M.cwrap('relay_play_request', 'string', ['string']);
  const request = (bytes) => {
    if (viaCcall) return asString(bytes.toString('utf8'));
    const p = M._malloc(bytes.length + 1);
    M.HEAPU8.set(bytes, p);
    M.HEAPU8[p + bytes.length] = 0;
    try {
      return M.UTF8ToString(M._relay_play_request(p));
    } finally {
      M._free(p);
    }
  };
  if (memoryLog) fs.writeFileSync(memoryLog, '');
  let pending = Buffer.alloc(0);
  let quit = false;
  const answer = (line) => {
    if (line.length && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
    const sp = M.stackSave();
    let response;
    try {
      response = request(line);
    } catch (e) {
      M.stackRestore(sp);
      // The page restarts its worker here; a test sees the crash.
      process.stdout.write(JSON.stringify({ id: null, error: { code: -32603, message: 'relay.wasm crashed: ' + e } }) + '\n');
      process.exit(3);
    }
    M.stackRestore(sp);
    process.stdout.write(response + '\n');
    if (memoryLog) fs.appendFileSync(memoryLog, M.HEAPU8.buffer.byteLength + '\n');
    quit = response.endsWith('"quit":true}}');
  };
  process.stdin.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    let nl;
    while (!quit && (nl = pending.indexOf(10)) >= 0) {
      const line = pending.subarray(0, nl);
      pending = pending.subarray(nl + 1);
      answer(line);
    }
    if (quit) process.exit(0);
  });
  process.stdin.on('end', () => {
    if (!quit && pending.length) answer(pending);
  });
}, (e) => {
  process.stderr.write('relay.wasm did not start: ' + e + '\n');
  process.exit(1);
});
