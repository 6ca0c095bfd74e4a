// relay in a Web Worker: relay.js (emscripten, MODULARIZE, EXPORT_NAME=createRelay) answers one
// JSON request line of `relay --serve`'s protocol at a time (relay_play_request). Messages:
//   in:  {id, line}                      a request line
//   out: {ready: true} | {failed: text}  once, when relay.wasm is loaded (or could not be)
//        {id, line}                      the response line
//        {id, crash: text}               the call threw (a RangeError: the JS stack ran out); the
//                                        page starts a new worker and replays the session
/* global importScripts, createRelay */
let answer = null;
let module_ = null;

self.onmessage = (e) => {
  const { id, line } = e.data;
  if (!answer) {
    self.postMessage({ id, crash: 'relay is not loaded' });
    return;
  }
  const saved = module_.stackSave();
  try {
    const out = answer(line);
    // the wasm memory's size (it grows, never shrinks): the tests' heap bound reads it
    const heap = module_.HEAPU8 ? module_.HEAPU8.length : 0;
    self.postMessage({ id, line: out, heap });
  } catch (err) {
    // emscripten does not restore its stack pointer after a JS exception: do it here, although
    // the page replaces this worker anyway (its C state may be half-updated).
    try { module_.stackRestore(saved); } catch { /* nothing more to do */ }
    self.postMessage({ id, crash: `${err && err.name ? err.name : 'Error'}: ${err && err.message ? err.message : err}` });
  }
};

try {
  importScripts('relay.js');
  createRelay({
    print: () => {},
    printErr: (t) => console.warn('relay:', t),
  }).then((M) => {
    module_ = M;
    // The request goes in through malloc'd memory, not as a 'string' argument, which emscripten
    // copies onto the C stack (8 MB: a pasted program of a few million characters would not fit).
    const request = M.cwrap('relay_play_request', 'string', ['number']);
    answer = (line) => {
      const bytes = M.lengthBytesUTF8(line) + 1;
      const p = M._malloc(bytes);
      if (!p) throw new RangeError(`no memory for a request of ${bytes} bytes`);
      try {
        M.stringToUTF8(line, p, bytes);
        return request(p);
      } finally {
        M._free(p);
      }
    };
    self.postMessage({ ready: true });
  }, (err) => self.postMessage({ failed: String(err && err.message ? err.message : err) }));
} catch (err) {
  self.postMessage({ failed: String(err && err.message ? err.message : err) });
}
