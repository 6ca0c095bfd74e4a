"""A stdlib-only client of `relay --lsp` for the tests: framing, requests with ids, notifications,
and the messages the server sends on its own (diagnostics) kept in order."""
import json
import queue
import subprocess
import threading
import time


class Client:
    def __init__(self, relay, args=(), encodings=None):
        self.proc = subprocess.Popen([relay, "--lsp"] + list(args), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 0
        self.incoming = queue.Queue()
        self.notes = []  # notifications from the server, in order
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()
        caps = {"general": {"positionEncodings": encodings}} if encodings else {}
        self.init = self.request("initialize", {"processId": None, "rootUri": None, "capabilities": caps})
        self.notify("initialized", {})

    def _drain(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.incoming.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = out.read(length)
            self.incoming.put(json.loads(body))

    def send(self, msg):
        msg = dict(msg, jsonrpc="2.0")
        body = json.dumps(msg).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def start(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    def wait(self, rid, timeout=30):
        deadline = time.time() + timeout
        while True:
            msg = self.incoming.get(timeout=max(0.01, deadline - time.time()))
            if msg is None:
                raise EOFError("relay --lsp ended")
            if "id" in msg and "method" not in msg and msg["id"] == rid:
                return msg
            if "method" in msg:
                self.notes.append(msg)

    def request(self, method, params, timeout=30):
        msg = self.wait(self.start(method, params), timeout)
        if "error" in msg:
            raise RuntimeError("%s: %s" % (method, msg["error"]))
        return msg.get("result")

    def diagnostics(self, uri, version=None, timeout=30):
        """The next publishDiagnostics for uri (of that version, if given)."""
        deadline = time.time() + timeout
        while True:
            for i, n in enumerate(self.notes):
                p = n.get("params", {})
                if n["method"] == "textDocument/publishDiagnostics" and p.get("uri") == uri and \
                        (version is None or p.get("version") == version):
                    del self.notes[: i + 1]
                    return p
            msg = self.incoming.get(timeout=max(0.01, deadline - time.time()))
            if msg is None:
                raise EOFError("relay --lsp ended")
            if "method" in msg:
                self.notes.append(msg)

    def open(self, uri, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "relay",
                                                              "version": version, "text": text}})

    def change(self, uri, text, version):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                "contentChanges": [{"text": text}]})

    def close(self):
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            return self.proc.wait(10)
        except Exception:  # noqa: BLE001
            self.proc.kill()
            return self.proc.wait()
