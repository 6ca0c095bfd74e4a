"""A Jupyter kernel for Relay: an ipykernel wrapper kernel over `relay --serve` (docs/kernel.md).

Run by Jupyter as `python3 relay_kernel.py -f CONNECTION_FILE [--relay=PATH]` (kernel/install.py
writes the kernel spec). The relay run is $RELAY_BINARY, else the `--relay` of the kernel spec,
else `relay` on PATH; one `relay --serve` per kernel, with the Prelude.
"""
import os
import signal
import sys

from ipykernel.kernelbase import Kernel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import relay_display  # noqa: E402
from relay_serve import Serve, ServeDied, ServeError, find_binary  # noqa: E402

__version__ = "0.1"

# Characters that end a word for completion and inspection (a name holds `@ % : . _` and letters).
BREAK = set(" \t\n\"(),;{}[]=+-*/<>!&|")

# Completion kinds as front ends know them (JupyterLab draws an icon per `type`).
KIND_TYPE = {"global": "function", "binding": "instance", "constructor": "class", "data": "class",
             "operator": "function", "command": "keyword"}

RELAY_CONFIGURED = None   # the spec's --relay=PATH


def diagnostic(item):
    """The diagnostic of a `diagnostic` item (docs/serve.md, "Diagnostics"), or None."""
    if item.get("kind") == "diagnostic" and isinstance(item.get("diagnostic"), dict):
        return item["diagnostic"]
    return None


def word_before(code, pos):
    start = pos
    while start > 0 and code[start - 1] not in BREAK:
        start -= 1
    return start, code[start:pos]


def word_at(code, pos):
    """The word under the cursor (or just before it): (start, word)."""
    if (pos >= len(code) or code[pos] in BREAK) and pos > 0 and code[pos - 1] not in BREAK:
        pos -= 1
    if pos >= len(code) or code[pos] in BREAK:
        return pos, ""
    start, end = pos, pos
    while start > 0 and code[start - 1] not in BREAK:
        start -= 1
    while end < len(code) and code[end] not in BREAK:
        end += 1
    return start, code[start:end]


def line_column(code, pos):
    """1-based line and column (in code points, as relay counts) of an offset."""
    before = code[:pos]
    line = before.count("\n") + 1
    return line, pos - (before.rfind("\n") + 1) + 1


def value_text_plain(head, text):
    """`- : T = v`, or with a value of several lines `- : T =` and the value below, as the REPL."""
    if "\n" in text:
        return "%s =\n%s" % (head, text)
    return "%s = %s" % (head, text)


def with_newline(text):
    return text if text.endswith("\n") else text + "\n"


class RelayKernel(Kernel):
    implementation = "relay_kernel"
    implementation_version = __version__
    language = "relay"
    language_version = "0.0.5"
    language_info = {
        "name": "relay",
        "mimetype": "text/x-relay",
        "file_extension": ".rly",
        "pygments_lexer": "text",
    }
    banner = "Relay: TVM's typed functional language, run by relay --serve"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.serve = Serve(find_binary(RELAY_CONFIGURED))
        self._silent = False
        self._stream_name = None
        self._stream_text = []

    # ------------------------------------------------------------ output

    def _stream(self, name, text):
        if self._stream_name != name:
            self._flush()
            self._stream_name = name
        self._stream_text.append(text)

    def _flush(self):
        if self._stream_name and self._stream_text and not self._silent:
            self.send_response(self.iopub_socket, "stream",
                               {"name": self._stream_name, "text": "".join(self._stream_text)})
        self._stream_name, self._stream_text = None, []

    def _display(self, bundle, metadata=None):
        self._flush()
        if not self._silent:
            self.send_response(self.iopub_socket, "display_data",
                               {"data": bundle, "metadata": metadata or {}})

    def _show_item(self, item):
        kind = item.get("kind")
        if kind == "definition":
            self._stream("stdout", "%s : %s\n" % (item.get("name"), item.get("type")))
        elif kind == "data":
            for con in item.get("constructors", []):
                self._stream("stdout", "%s : %s\n" % (con.get("name"), con.get("type")))
        elif kind in ("value", "binding"):
            head = "- : %s" % item.get("type") if kind == "value" else \
                "%s : %s" % (item.get("name"), item.get("type"))
            plain = value_text_plain(head, item.get("text", ""))
            for bundle, metadata in relay_display.value_bundles(plain, item.get("value"),
                                                                item.get("type", "")):
                self._display(bundle, metadata)
        elif kind == "output":
            text = item.get("text", "")
            if text.lstrip().startswith("digraph "):
                self._display(relay_display.graph_bundle(text))
            elif text:
                self._stream("stdout", with_newline(text))
        elif kind == "stderr":
            if item.get("text"):
                self._stream("stderr", with_newline(item["text"]))
        elif kind == "diagnostic":
            d = diagnostic(item) or {}
            self._stream("stderr", with_newline(d.get("rendered") or d.get("message", "")))
        elif kind == "expression":
            self._stream("stdout", "- : %s\n" % item.get("type"))
        elif item.get("text"):
            self._stream("stdout", with_newline(item["text"]))

    # ------------------------------------------------------------ relay's life

    def _restarted_note(self, what):
        tail = "\n".join(self.serve.stderr_tail)
        note = "relay %s; a new relay --serve is started: the session's definitions are gone.\n" % what
        return (tail + "\n" if tail else "") + note

    def _ensure_alive(self):
        if not self.serve.alive():
            note = self._restarted_note(self.serve.exit_description())
            self.serve.restart()
            self._stream("stderr", note)

    def _request(self, method, params):
        """A request outside execution (completion, inspection): None when relay cannot answer
        (when it has died, the next cell says so and starts a new one)."""
        if not self.serve.alive():
            return None
        try:
            return self.serve.request(method, params)
        except (ServeDied, ServeError):
            return None

    # ------------------------------------------------------------ execution

    def do_execute(self, code, silent, store_history=True, user_expressions=None,
                   allow_stdin=False, *, cell_id=None):
        self._silent = silent
        self._stream_name, self._stream_text = None, []
        self._ensure_alive()
        if not code.strip():
            self._flush()
            return self._ok()
        def on_sigint(signum, frame):
            self.serve.interrupt()
        try:
            old = signal.signal(signal.SIGINT, on_sigint)
        except ValueError:  # not the main thread
            old = None
        try:
            result = self.serve.request("eval", {"text": code})
        except ServeDied:
            self._stream("stderr", self._restarted_note(self.serve.exit_description()))
            self.serve.restart()
            self._flush()
            return self._error("relay died", "relay --serve %s" % self.serve.exit_description())
        except ServeError as e:
            self._stream("stderr", "relay --serve refused the request: %s\n" % e)
            self._flush()
            return self._error("protocol error", str(e))
        finally:
            if old is not None:
                signal.signal(signal.SIGINT, old)
        items = result.get("items", [])
        for item in items:
            self._show_item(item)
        if result.get("quit"):
            # `:quit` ended relay's session (relay exits after answering): a new one starts now.
            self.serve.restart()
            self._stream("stderr", ":quit ended relay's session; a new relay --serve is started: "
                         "the session's definitions are gone.\n")
        stopped = result.get("interrupted")
        if stopped and not any(i.get("kind") == "stderr" and "Interrupted" in i.get("text", "")
                               for i in items):
            self._stream("stderr", "Interrupted.\n")
        self._flush()
        if stopped:
            return self._error("Interrupted", "the evaluation was interrupted")
        if not result.get("ok", True):
            # The first diagnostic that is not a warning (an error, or a hole: the input did not run).
            failure = next((d for d in map(diagnostic, items)
                            if d and d.get("severity") != "warning"), None)
            if failure:
                return self._error(failure.get("kind", "error"), failure.get("message", ""))
            other = next((i for i in items if i.get("kind") == "stderr"), {})
            return self._error("error", other.get("text", "").strip())
        return self._ok()

    def _ok(self):
        return {"status": "ok", "execution_count": self.execution_count, "payload": [],
                "user_expressions": {}}

    def _error(self, ename, evalue):
        return {"status": "error", "execution_count": self.execution_count, "ename": ename,
                "evalue": evalue, "traceback": []}

    # ------------------------------------------------------------ completion and inspection

    def do_complete(self, code, cursor_pos):
        cursor_pos = len(code) if cursor_pos is None else cursor_pos
        start, prefix = word_before(code, cursor_pos)
        reply = {"status": "ok", "matches": [], "cursor_start": start, "cursor_end": cursor_pos,
                 "metadata": {}}
        if not prefix:
            return reply
        result = self._request("complete", {"prefix": prefix})
        if not result:
            return reply
        types = []
        # In the order of their names (relay's order is not specified; a front end keeps it).
        for cand in sorted(result.get("candidates", []), key=lambda c: c.get("name", "")):
            name = cand.get("name", "")
            reply["matches"].append(name)
            types.append({"start": start, "end": cursor_pos, "text": name,
                          "type": KIND_TYPE.get(cand.get("kind"), cand.get("kind", "")),
                          "signature": cand.get("type") or ""})
        reply["metadata"]["_jupyter_types_experimental"] = types
        return reply

    def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        cursor_pos = len(code) if cursor_pos is None else cursor_pos
        reply = {"status": "ok", "data": {}, "metadata": {}, "found": False}
        start, word = word_at(code, cursor_pos)
        if word and word[0] not in "%:" and word[0] != "." and not word[0].isdigit():
            result = self._request("doc", {"text": word})
            if result and result.get("ok") and result.get("text"):
                reply["data"]["text/plain"] = with_newline(result["text"])
                reply["found"] = True
                return reply
        if not code.strip():
            return reply
        line, column = line_column(code, start if word else cursor_pos)
        # mode repl: the cell read as the REPL reads it (its `let %x = e` lines, the session's
        # bindings, its `:` commands left out)
        result = self._request("type_at", {"text": code, "line": line, "column": column, "mode": "repl"})
        if result and result.get("type"):
            expr = result.get("expression") or word
            reply["data"]["text/plain"] = "%s : %s\n" % (expr, result["type"])
            reply["found"] = True
        elif word.startswith("%") and len(word) > 1:
            # a cell that does not check (a type error elsewhere in it): `type` of the name alone
            result = self._request("type", {"text": word})
            if result and result.get("ok") and result.get("type"):
                reply["data"]["text/plain"] = "%s : %s\n" % (word, result["type"])
                reply["found"] = True
        return reply

    # ------------------------------------------------------------ the end

    def do_shutdown(self, restart):
        self.serve.stop()
        return {"status": "ok", "restart": restart}


def main():
    global RELAY_CONFIGURED
    args = []
    for arg in sys.argv[1:]:
        if arg.startswith("--relay="):
            RELAY_CONFIGURED = arg[len("--relay="):]
        else:
            args.append(arg)
    sys.argv[1:] = args
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance(kernel_class=RelayKernel)


if __name__ == "__main__":
    main()
