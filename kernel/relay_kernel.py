"""A Jupyter kernel for Relay: an ipykernel wrapper kernel over `relay --serve` (docs/kernel.md).

Run by Jupyter as `python3 relay_kernel.py -f CONNECTION_FILE [--relay=PATH] [--sandbox]
[--timeout=SECONDS] [--max-heap=MB]` (kernel/install.py writes the kernel spec). The relay run is
$RELAY_BINARY, else the `--relay` of the kernel spec, else `relay` on PATH; one `relay --serve` per
kernel, with the Prelude, given the spec's --sandbox, --timeout and --max-heap and then the options
in $RELAY_SERVE_OPTIONS (docs/serve.md, "Sandbox and limits").
"""
import os
import shlex
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
RELAY_OPTIONS = []        # the options of relay --serve: the spec's, then $RELAY_SERVE_OPTIONS's


def diagnostic(item):
    """The diagnostic of a `diagnostic` item (docs/serve.md, "Diagnostics"), or None."""
    if item.get("kind") == "diagnostic" and isinstance(item.get("diagnostic"), dict):
        return item["diagnostic"]
    return None


def failure(d):
    """Whether a diagnostic is a failure: an error, or a hole (the input did not run); not a warning."""
    return d is not None and d.get("severity") != "warning"


def lines(text):
    """A text as a traceback: its lines, without their newlines (Jupyter joins them; relay's
    diagnostics carry no colour, so none is added)."""
    return text.rstrip("\n").split("\n")


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


def pygments_lexer_name():
    """`relay` when Pygments finds a lexer of that name (relay_lexer.py, as `meson install`
    registers it), else `rust`."""
    try:
        from pygments.lexers import get_lexer_by_name
        from pygments.util import ClassNotFound
    except ImportError:
        return "rust"
    try:
        get_lexer_by_name("relay")
        return "relay"
    except (ClassNotFound, ImportError):
        return "rust"


class RelayKernel(Kernel):
    implementation = "relay_kernel"
    implementation_version = __version__
    language = "relay"
    language_version = "0.0.5"
    # CodeMirror has no mode for Relay, and a kernel cannot give JupyterLab one (that takes a
    # JupyterLab extension): Rust's suits it best (`fn`, `let`, `match`, `if`/`else`, `->`, `//`
    # and `/* */` comments, `{ }` blocks, `<a>` type parameters, literals with suffixes such as
    # `2i64`). CodeMirror 5 (the classic notebook, JupyterLab 3) and 6 (JupyterLab 4, as a language
    # of @codemirror/language-data) have `rust`. Pygments (nbconvert's HTML, Sphinx, the consoles)
    # gets relay's own lexer, made from the editors' TextMate grammar (relay_lexer.py), where
    # `meson install` registered it, and `rust` elsewhere (pygments_lexer_name).
    language_info = {
        "name": "relay",
        "mimetype": "text/x-relay",
        "file_extension": ".rly",
        "codemirror_mode": "rust",
        "pygments_lexer": "rust",
    }
    banner = "Relay: TVM's typed functional language, run by relay --serve"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.language_info = dict(RelayKernel.language_info, pygments_lexer=pygments_lexer_name())
        self.serve = Serve(find_binary(RELAY_CONFIGURED), RELAY_OPTIONS)
        self._silent = False
        self._stream_name = None
        self._stream_text = []
        self._failure = None

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

    def _error_output(self, ename, evalue, traceback):
        """An `error` output in its place among the cell's outputs (a saved notebook marks the cell);
        the first one is the cell's reply."""
        self._flush()
        if not self._silent:
            self.send_response(self.iopub_socket, "error",
                               {"ename": ename, "evalue": evalue, "traceback": traceback})
        if self._failure is None:
            self._failure = (ename, evalue, traceback)

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
        self._failure = None
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
            how = self.serve.exit_description()
            note = self._restarted_note(how)
            self.serve.restart()
            self._error_output("relay died", "relay --serve %s" % how, lines(note))
            return self._error()
        except ServeError as e:
            self._error_output("protocol error", str(e), ["relay --serve refused the request: %s" % e])
            return self._error()
        finally:
            if old is not None:
                signal.signal(signal.SIGINT, old)
        items = result.get("items", [])
        stopped, timed_out = result.get("interrupted"), result.get("timed_out")
        failed = stopped or not result.get("ok", True)
        # The stderr item that says why the cell failed, when no diagnostic does (a command's
        # message, `Interrupted.`, the time limit's message): it is shown as the error it is.
        why = None
        said = any(failure(d) for d in map(diagnostic, items))
        for k, item in enumerate(items if failed else []):
            text = item.get("text", "") if item.get("kind") == "stderr" else ""
            if text and (timed_out and text.startswith("Stopped:") or stopped and not timed_out and "Interrupted" in text
                         or not stopped and not said):
                why = k
        stop = ("Interrupted", "the evaluation was interrupted", ["Interrupted."])  # why it stopped
        for k, item in enumerate(items):
            d = diagnostic(item)
            if k == why:
                text = item["text"].strip("\n")
                if timed_out:
                    stop = ("time limit", text[len("Stopped: "):] if text.startswith("Stopped: ") else text,
                            lines(text))
                elif stopped:
                    stop = ("Interrupted", "the evaluation was interrupted", lines(text))
                else:
                    stop = ("error", text.split("\n")[0], lines(text))
                self._error_output(*stop)
            elif failure(d):
                self._error_output(d.get("kind", "error"), d.get("message", ""),
                                   lines(d.get("rendered") or d.get("message", "")))
            else:
                self._show_item(item)
        if result.get("quit"):
            # `:quit` ended relay's session (relay exits after answering): a new one starts now.
            self.serve.restart()
            self._stream("stderr", ":quit ended relay's session; a new relay --serve is started: "
                         "the session's definitions are gone.\n")
        if stopped and why is None:
            self._error_output(*stop)
        elif failed and self._failure is None:
            self._error_output("error", "the cell failed", ["relay: an input of the cell failed"])
        if stopped:
            self._failure = stop  # the reply says why the cell stopped, not an error before it
        self._flush()
        return self._error() if failed else self._ok()

    def _ok(self):
        return {"status": "ok", "execution_count": self.execution_count, "payload": [],
                "user_expressions": {}}

    def _error(self):
        """The reply of a cell that failed: its first error output (an interrupt's, if it was stopped)."""
        self._flush()
        ename, evalue, traceback = self._failure
        return {"status": "error", "execution_count": self.execution_count, "ename": ename,
                "evalue": evalue, "traceback": traceback}

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
        elif arg == "--sandbox":
            RELAY_OPTIONS.append(arg)
        elif arg.startswith(("--timeout=", "--max-heap=")):
            RELAY_OPTIONS.extend(arg.split("=", 1))
        else:
            args.append(arg)
    RELAY_OPTIONS.extend(shlex.split(os.environ.get("RELAY_SERVE_OPTIONS", "")))
    sys.argv[1:] = args
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance(kernel_class=RelayKernel)


if __name__ == "__main__":
    main()
