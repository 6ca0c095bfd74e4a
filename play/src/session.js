// The page's relay session: a Web Worker running relay.wasm (worker.js), requests in order, and
// what Stop and a crash need: end the worker, start a new one and replay the session's inputs.
// An eval that was answered is kept for the replay (its failed inputs changed nothing, and its
// other inputs may have defined something); the one that was stopped is not replayed.

export class Session {
  constructor({ onStatus = () => {}, workerUrl = 'worker.js' } = {}) {
    this.onStatus = onStatus;
    this.workerUrl = workerUrl;
    this.history = []; // [{kind: 'reset'} | {kind: 'eval', text}]
    this.nextId = 1;
    this.pending = new Map();
    this.heap = 0;
    this.start();
  }

  start() {
    this.worker = new Worker(this.workerUrl);
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (e) => {
        const m = e.data;
        if (m.ready) { resolve(); return; }
        if (m.failed) { reject(new Error(m.failed)); return; }
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.heap) this.heap = m.heap;
        if (m.crash) p.reject(Object.assign(new Error(m.crash), { crash: true }));
        else p.resolve(JSON.parse(m.line));
      };
      this.worker.onerror = (e) => {
        e.preventDefault();
        const err = Object.assign(new Error(e.message || 'the worker failed'), { crash: true });
        reject(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      };
    });
    this.ready.catch(() => {});
  }

  get busy() {
    return this.pending.size > 0;
  }

  // The result of one request (an Error for a protocol error, a crash, or a stop).
  async request(method, params = {}) {
    await this.ready;
    const id = this.nextId++;
    const line = JSON.stringify({ id, method, params });
    const answer = await new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.onStatus('running');
      this.worker.postMessage({ id, line });
    });
    if (!this.busy) this.onStatus('ready');
    if (answer.error) throw new Error(answer.error.message);
    return answer.result;
  }

  // An eval kept for the replay once it is answered; a crash restarts the session (with a replay)
  // and is rethrown for the caller to say why.
  async eval(text) {
    let result;
    try {
      result = await this.request('eval', { text });
    } catch (err) {
      if (err.crash) await this.restart();
      throw err;
    }
    this.history.push({ kind: 'eval', text });
    return result;
  }

  async reset() {
    const r = await this.request('reset', {});
    this.history.push({ kind: 'reset' });
    return r;
  }

  // Ends the worker, whatever it is doing, and starts a new one with the session replayed.
  async restart() {
    this.worker.terminate();
    const stopped = Object.assign(new Error('stopped'), { stopped: true });
    for (const p of this.pending.values()) p.reject(stopped);
    this.pending.clear();
    this.start();
    this.onStatus('replaying');
    await this.ready;
    const start = this.history.findLastIndex((h) => h.kind === 'reset');
    for (const h of this.history.slice(start + 1)) {
      const id = this.nextId++;
      await new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.worker.postMessage({ id, line: JSON.stringify({ id, method: 'eval', params: { text: h.text } }) });
      }).catch(() => {});
    }
    this.history = this.history.slice(start + 1);
    this.onStatus('ready');
    return this.history.length;
  }
}
