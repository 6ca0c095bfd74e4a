"""A client of `relay --serve` (docs/serve.md): one relay process, one request at a time.

`Serve(binary).request(method, params)` writes one JSON line and returns the response's `result`
(a dict), or raises `ServeError` for an `error` response and `ServeDied` when relay exits before
answering. `interrupt()` sends an `interrupt` request (from another thread, or from a signal handler
while `request` waits: it writes from a thread of its own, so a line being written is never cut);
`request` skips the interrupt's own answer.
"""
import collections
import json
import os
import shutil
import subprocess
import threading


class ServeError(Exception):
    """relay answered with a protocol error (docs/serve.md, "Requests and responses")."""

    def __init__(self, code, message):
        super().__init__("%s (code %s)" % (message, code))
        self.code = code
        self.message = message


class ServeDied(Exception):
    """relay exited (or closed its output) before answering."""


def find_binary(configured=None):
    """The relay to run: $RELAY_BINARY, else the one the kernel spec names, else `relay` on PATH."""
    for candidate in (os.environ.get("RELAY_BINARY"), configured):
        if candidate:
            return candidate
    found = shutil.which("relay")
    if found:
        return found
    raise FileNotFoundError("no relay binary: set RELAY_BINARY, or install the kernel spec with "
                            "kernel/install.py --relay PATH, or put relay on PATH")


def _load(line):
    # Numbers keep relay's spelling (a float as relay wrote it; an int64 with all its digits).
    return json.loads(line, parse_float=str)


class Serve:
    def __init__(self, binary, args=()):
        self.binary = binary
        self.args = list(args)
        self.proc = None
        self.next_id = 0
        self.write_lock = threading.Lock()
        self.stderr_tail = collections.deque(maxlen=20)
        self.start()

    def start(self):
        self.stderr_tail.clear()
        # A session of its own: Jupyter's SIGINT to the kernel's process group does not reach
        # relay; the kernel forwards it as an `interrupt` request.
        self.proc = subprocess.Popen([self.binary, "--serve"] + self.args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True)
        proc = self.proc
        threading.Thread(target=self._drain_stderr, args=(proc,), daemon=True).start()

    def _drain_stderr(self, proc):
        for raw in proc.stderr:
            self.stderr_tail.append(raw.decode("utf-8", "replace").rstrip("\n"))

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def exit_description(self):
        """How the process ended: `exited with status 1`, `killed by signal 9`."""
        code = self.proc.poll() if self.proc else None
        if code is None:
            return "stopped answering"
        if code < 0:
            return "was killed by signal %d" % -code
        return "exited with status %d" % code

    def restart(self):
        self.stop()
        self.start()

    def _send(self, method, params):
        with self.write_lock:
            self.next_id += 1
            rid = self.next_id
            line = json.dumps({"id": rid, "method": method, "params": params}) + "\n"
            try:
                self.proc.stdin.write(line.encode("utf-8"))
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError) as e:
                raise ServeDied(str(e))
        return rid

    def request(self, method, params=None):
        rid = self._send(method, params or {})
        while True:
            try:
                raw = self.proc.stdout.readline()
            except (OSError, ValueError) as e:
                raise ServeDied(str(e))
            if not raw:
                self.proc.wait()
                raise ServeDied(self.exit_description())
            try:
                response = _load(raw.decode("utf-8", "replace"))
            except ValueError:
                continue  # not a response: docs/serve.md says this never happens
            if not isinstance(response, dict) or response.get("id") != rid:
                continue  # the answer to an `interrupt` request
            if "error" in response:
                err = response["error"] or {}
                raise ServeError(err.get("code"), err.get("message", ""))
            return response.get("result") or {}

    def interrupt(self):
        """Ask relay to stop what it runs (safe in a signal handler; the answer is skipped)."""
        if not self.alive():
            return

        def send():
            try:
                self._send("interrupt", {})
            except ServeDied:
                pass
        threading.Thread(target=send, daemon=True).start()

    def stop(self, timeout=2.0):
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()  # end of input: relay finishes and exits with status 0
        except OSError:
            pass
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for f in (proc.stdout, proc.stderr):
            try:
                f.close()
            except OSError:
                pass
