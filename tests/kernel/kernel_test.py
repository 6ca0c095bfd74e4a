#!/usr/bin/env python3
"""The Jupyter kernel (kernel/) driven through jupyter_client, as a notebook drives it; prints TAP.

Usage: kernel_test.py RELAY_BINARY

The kernel spec is installed into a temporary Jupyter path (JUPYTER_PATH, JUPYTER_DATA_DIR, HOME
and the rest point into it, so the user's own configuration is never read or written). Checks:
execution and the shown items, the error status of a failing cell, `:` commands, completion and
inspection with types, rich output (HTML tables, SVG heatmaps, trees, :graph), an interrupt of an
endless loop, a new relay after relay is killed, and a sandboxed kernel (install.py --sandbox,
$RELAY_SERVE_OPTIONS). A failing input is an `error` output (ename, evalue, and the diagnostic as
relay renders it, a line each, as the traceback), where it failed among the cell's outputs. Without Jupyter's Python packages (run with
/usr/bin/python3 on Debian: python3-ipykernel, jupyter-client) it is one TAP SKIP.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402  (tests/tap.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def isolate(tmp):
    """Point every Jupyter and IPython path into tmp; returns the JUPYTER_PATH to install into."""
    env = {"HOME": tmp, "JUPYTER_DATA_DIR": os.path.join(tmp, "data"),
           "JUPYTER_CONFIG_DIR": os.path.join(tmp, "config"),
           "JUPYTER_RUNTIME_DIR": os.path.join(tmp, "runtime"),
           "IPYTHONDIR": os.path.join(tmp, "ipython"),
           "JUPYTER_PATH": os.path.join(tmp, "prefix", "share", "jupyter"),
           "JUPYTER_PLATFORM_DIRS": "0"}
    os.environ.update(env)
    os.environ.pop("JUPYTER_PREFER_ENV_PATH", None)
    return os.path.join(tmp, "prefix")


def install(prefix, relay, *options):
    p = subprocess.run([sys.executable, os.path.join(ROOT, "kernel", "install.py"), "--prefix", prefix,
                        "--relay", relay] + list(options), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError("install.py failed:\n" + p.stdout)
    return p.stdout


MATRIX_HTML = ('<table class="relay-tensor">\n<caption>Tensor[(2, 3), float32]</caption>\n'
               '<tr><th></th><th>0</th><th>1</th><th>2</th></tr>\n'
               '<tr><th>0</th><td>2</td><td>4</td><td>6</td></tr>\n'
               '<tr><th>1</th><td>8</td><td>10</td><td>12</td></tr>\n</table>\n')

MATRIX_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="242" height="92" viewBox="0 0 242 92">
<title>Tensor[(2, 3), float32]</title>
<rect x="1" y="1" width="24" height="24" fill="#440154"><title>[0, 0] = 2</title></rect>
<rect x="25" y="1" width="24" height="24" fill="#404284"><title>[0, 1] = 4</title></rect>
<rect x="49" y="1" width="24" height="24" fill="#2a778e"><title>[0, 2] = 6</title></rect>
<rect x="1" y="25" width="24" height="24" fill="#26a783"><title>[1, 0] = 8</title></rect>
<rect x="25" y="25" width="24" height="24" fill="#7bd04f"><title>[1, 1] = 10</title></rect>
<rect x="49" y="25" width="24" height="24" fill="#fde725"><title>[1, 2] = 12</title></rect>
<text x="1" y="66" font-family="monospace" font-size="12">Tensor[(2, 3), float32]</text>
<text x="1" y="84" font-family="monospace" font-size="12">min 2, max 12</text>
</svg>
"""

LAYER_DOT = r"""digraph "@layer" {
  fontname="Helvetica";
  node [shape=box, fontname="Helvetica"];
  edge [fontname="Helvetica", fontsize=10];
  n0 [label="%x", shape=ellipse];
  n1 [label="%w", shape=ellipse];
  n2 [label="nn.dense\n%h"];
  n3 [label="nn.relu"];
  result [shape=ellipse, style=bold];
  n0 -> n2 [label="Tensor[(n, 784), float32]"];
  n1 -> n2 [label="Tensor[(512, 784), float32]"];
  n2 -> n3 [label="Tensor[(n, 512), float32]"];
  n3 -> result [label="Tensor[(n, 512), float32]"];
}
"""


class Session:
    def __init__(self, km, kc):
        self.km, self.kc = km, kc

    def execute(self, code, timeout=60, wait=True):
        # stop_on_error=False: after a cell that fails, ipykernel (6.17) aborts every execute request
        # that reaches it before its abort window closes (stop_on_error_timeout, 0 s: a race), and
        # the next cell, sent as soon as the failed one's reply came, was sometimes answered
        # {'status': 'aborted'} with no outputs under CI's load (the flakes after `@loop`'s time
        # limit and before `:quit`). Each cell here is run on its own, as after a click.
        msg_id = self.kc.execute(code, stop_on_error=False)
        return self.collect(msg_id, timeout) if wait else msg_id

    def collect(self, msg_id, timeout=60):
        """The execute reply's content and the outputs: [(msg_type, content)]."""
        outputs = []
        deadline = time.time() + timeout
        while True:
            msg = self.kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            t, c = msg["msg_type"], msg["content"]
            if t == "status" and c["execution_state"] == "idle":
                break
            if t in ("stream", "display_data", "execute_result", "error"):
                outputs.append((t, c))
        reply = self.kc.get_shell_msg(timeout=max(0.1, deadline - time.time()))
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=max(0.1, deadline - time.time()))
        return reply["content"], outputs

    def request(self, method, *args, **kwargs):
        msg_id = getattr(self.kc, method)(*args, **kwargs)
        reply = self.kc.get_shell_msg(timeout=30)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=30)
        return reply["content"]


def texts(outputs):
    """The outputs as text: a stream's text, a display's text/plain, an error's traceback lines
    (one entry each, `name: text`)."""
    out = []
    for t, c in outputs:
        if t == "stream":
            out.append("%s: %s" % (c["name"], c["text"]))
        elif t in ("display_data", "execute_result"):
            out.append("display: %s" % c["data"].get("text/plain", ""))
        elif t == "error":
            out.append("error: %s" % "\n".join(c["traceback"]))
    return "\n".join(out)


def errors(outputs):
    """The error outputs' (ename, evalue)."""
    return [(c["ename"], c["evalue"]) for t, c in outputs if t == "error"]


def relay_children(kernel_pid):
    """The pids of the kernel's children (its relay --serve)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if int(fields[1]) == kernel_pid:
            pids.append(int(entry))
    return pids


def alive(pid):
    """pid runs (not gone, not a zombie)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] != "Z"


def main():
    try:
        import jupyter_client  # noqa: F401
        import ipykernel  # noqa: F401
    except ImportError as e:
        print("1..0 # SKIP Jupyter's Python packages are missing (%s): apt-get install python3-ipykernel "
              "jupyter-client, and run with /usr/bin/python3" % e)
        return 0
    relay = os.path.abspath(sys.argv[1])
    results = []

    def check(what, ok, details=""):
        results.append((what, bool(ok), details))

    tmp = tempfile.mkdtemp(prefix="relay-kernel-test-")
    km = None
    try:
        prefix = isolate(tmp)
        said = install(prefix, relay)
        # install.py put relay's Pygments lexer under the prefix: on the path of this test and of the
        # kernel it starts, Pygments finds it by its entry point.
        m = re.search(r"installed relay's Pygments lexer in (.*)/relay_pygments$", said, re.M)
        check("install.py installs relay's Pygments lexer (relay_pygments and its entry point)",
              m and os.path.isfile(os.path.join(m.group(1), "relay_pygments", "__init__.py"))
              and any(n.startswith("relay_pygments-") and n.endswith(".dist-info") for n in os.listdir(m.group(1))),
              said)
        if m:
            sys.path.insert(0, m.group(1))
            os.environ["PYTHONPATH"] = os.pathsep.join([m.group(1)] + [p for p in [os.environ.get("PYTHONPATH")] if p])
        os.environ.pop("RELAY_BINARY", None)
        from jupyter_client.manager import start_new_kernel
        km, kc = start_new_kernel(kernel_name="relay", startup_timeout=60)
        s = Session(km, kc)

        info = s.request("kernel_info")
        check("kernel_info names the language", info["language_info"]["name"] == "relay", str(info))
        # No CodeMirror mode knows Relay: Rust's fits it best (`fn`, `let`, `match`, `if`/`else`, `->`,
        # `//` and `/* */` comments, `{ }` blocks, `<a>` type parameters, `2i64`-style suffixes).
        # Pygments has relay's own lexer where `meson install` or install.py registered it (as here:
        # kernel/relay_lexer.py; tests/editors/pygments_test.py tests it), else Rust's.
        lang = info["language_info"]
        try:
            import pygments.lexers
            pygments.lexers.get_lexer_by_name("relay")
            lexer_name = "relay"
        except Exception:  # noqa: BLE001 (ImportError, pygments.util.ClassNotFound)
            lexer_name = "rust"
        check("kernel_info declares a highlighting mode that exists: codemirror_mode rust, pygments_lexer "
              + lexer_name, lang.get("codemirror_mode") == "rust" and lang.get("pygments_lexer") == lexer_name,
              str(lang))
        try:
            import pygments.lexers
            lexer = pygments.lexers.get_lexer_by_name(lang.get("pygments_lexer", ""))
            check("  ... Pygments has the lexer (%s)" % type(lexer).__name__, True)
        except ImportError:
            pass
        except Exception as e:  # noqa: BLE001 (pygments.util.ClassNotFound)
            check("  ... Pygments has the lexer", False, repr(e))
        from jupyter_client.kernelspec import KernelSpecManager
        spec = KernelSpecManager().get_kernel_spec("relay")
        check("the installed kernel.json is a valid kernel spec", spec.language == "relay"
              and spec.argv[0] == sys.executable and spec.interrupt_mode == "signal", repr(spec.to_dict()))

        reply, outs = s.execute("1 + 2")
        check("an expression shows - : int32 = 3", reply["status"] == "ok"
              and [t for t, c in outs] == ["display_data"]
              and outs[0][1]["data"] == {"text/plain": "- : int32 = 3"}, repr((reply, outs)))

        code = ("def @square(%x : int32) -> int32 { %x * %x }\n@square(12)\nlet %rate = 3\n"
                "data Shape { Circle : (float32) -> Shape  Rect : (float32, float32) -> Shape }\n")
        reply, outs = s.execute(code)
        want = ("stdout: @square : fn(int32) -> int32\n\ndisplay: - : int32 = 144\n"
                "display: %rate : int32 = 3\n"
                "stdout: Circle : fn(float32) -> Shape\nRect : fn(float32, float32) -> Shape\n")
        check("definitions, values, bindings and data in order", reply["status"] == "ok" and texts(outs) == want,
              "got:\n%s\nwant:\n%s" % (texts(outs), want))

        reply, outs = s.execute(":t 7 / 2\n:doc @square")
        want = ("stdout: 7 / 2 : int32\n@square : fn(int32) -> int32\n"
                "  (no documentation: write a comment on the lines directly above its `def`)\n")
        check(": commands in a cell", reply["status"] == "ok" and texts(outs) == want,
              "got:\n%s\nwant:\n%s" % (texts(outs), want))

        reply, outs = s.execute("1i64 + 1f\n2 + 2")
        want = ("error: <repl>:1:1: type error: `add` needs arguments of one element type, but they are "
                "int64 and float32\n 1 | 1i64 + 1f\n   | ^~~~~~~~~\n  first argument: int64\n"
                "  second argument: float32\ndisplay: - : int32 = 4")
        message = "`add` needs arguments of one element type, but they are int64 and float32"
        check("a type error: an error output (the diagnostic with its caret as the traceback) where it failed, "
              "the cell's status error (type error)",
              reply["status"] == "error" and reply["ename"] == "type error" and reply["evalue"] == message
              and errors(outs) == [("type error", message)] and texts(outs) == want
              and reply["traceback"] == outs[0][1]["traceback"],
              "reply %r\ngot:\n%s\nwant:\n%s" % (reply, texts(outs), want))
        check("  ... the traceback is plain text, a line each (no ANSI colour, no newlines inside)",
              all("\x1b" not in line and "\n" not in line for _, c in outs if "traceback" in c
                  for line in c["traceback"]), repr(outs))

        reply, outs = s.execute("?h + %rate")
        want = ("error: <repl>:1:1: hole: the hole `?h` must be Tensor[s1, int32]\n 1 | ?h + %rate\n   | ^~\n"
                "  in scope: no local variables\n  bound at the prompt, of a type that fits:\n    %rate : int32\n"
                "    %it : int32")
        check("a hole: the checker's answer as an error output, the cell's status error (hole)",
              reply["status"] == "error" and reply["ename"] == "hole"
              and reply["evalue"] == "the hole `?h` must be Tensor[s1, int32]" and texts(outs) == want
              and errors(outs) == [("hole", "the hole `?h` must be Tensor[s1, int32]")],
              "reply %r\ngot:\n%s\nwant:\n%s" % (reply, texts(outs), want))

        code = ("def @first(%s : Optional[int32]) -> int32 { match (%s) { case Some(%r) { %r } } }\n"
                "let %f = fn (%s : Optional[int32]) -> int32 { match? (%s) { case Some(%r) { %r } } }; %f(None())\n"
                "1")
        reply, outs = s.execute(code)
        want = ("stderr: <repl>:1:45: warning: this match does not cover every value: for example None() is not "
                "matched\n 1 | def @first(%s : Optional[int32]) -> int32 { match (%s) { case Some(%r) { %r } } }\n"
                "   |                                             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
                "  hint: add a clause for it, or write `match?` if leaving it out is deliberate\n\n"
                "stdout: @first : fn(Optional[int32]) -> int32\n\n"
                "error: <repl>:1:47: run-time error: no clause of this match accepts None()\n"
                " 1 | let %f = fn (%s : Optional[int32]) -> int32 { match? (%s) { case Some(%r) { %r } } }; %f(None())\n"
                "   |                                               ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
                "  call chain (most recent call last):\n    <repl>:1:87 (input 12): call of %f\n"
                "display: - : int32 = 1")
        check("a warning does not fail a cell (stderr), a run-time error does (an error output); the next input runs",
              reply["status"] == "error" and reply["ename"] == "run-time error"
              and errors(outs) == [("run-time error", "no clause of this match accepts None()")]
              and reply["evalue"] == "no clause of this match accepts None()" and texts(outs) == want,
              "reply %r\ngot:\n%s\nwant:\n%s" % (reply, texts(outs), want))

        reply = s.request("complete", "@squ", 4)
        types = reply["metadata"].get("_jupyter_types_experimental", [])
        check("completion of @squ, with the type", reply["matches"] == ["@square"]
              and reply["cursor_start"] == 0 and reply["cursor_end"] == 4
              and types and types[0]["signature"] == "fn(int32) -> int32" and types[0]["type"] == "function",
              repr(reply))
        reply = s.request("complete", "let %y = @fol", 13)
        check("completion after other text: @fol gives the folds, in order", reply["matches"] ==
              ["@foldl", "@foldr", "@foldr1"] and reply["cursor_start"] == 9 and reply["cursor_end"] == 13,
              repr(reply))

        reply = s.request("inspect", "@foldl(fn (%a : int32, %b : int32) { %a + %b }, 0, @range(3))", 3)
        text = reply["data"].get("text/plain", "")
        check("inspection of a global shows :doc (type and comment)", reply["found"]
              and text == "@foldl : fn<a, b>(fn(b, a) -> b, b, List[a]) -> b\n  Left fold: for [h1, h2, ..., hn] "
              "returns f(...f(f(z, h1), h2)..., hn). Tail-recursive.\n", repr(reply))
        reply = s.request("inspect", "let %x = 6f; %x * 7f", 14)
        check("inspection of a local shows its type (type_at)", reply["found"]
              and reply["data"].get("text/plain") == "%x : float32\n", repr(reply))

        reply = s.request("inspect", "%rate * 2", 1)
        check("inspection of a binding of an earlier cell shows its type", reply["found"]
              and reply["data"].get("text/plain") == "%rate : int32\n", repr(reply))
        reply = s.request("inspect", "let %z = 2\n%rate + %z", 15)
        check("inspection in a cell of REPL lines (a `let` binding line) still finds the binding", reply["found"]
              and reply["data"].get("text/plain") == "%rate : int32\n", repr(reply))
        reply = s.request("inspect", "let %z = 2f\n:t %z\n%z * 2f", 19)
        check("inspection of a binding the cell's own `let` line makes, past a command line", reply["found"]
              and reply["data"].get("text/plain") == "%z : float32\n", repr(reply))

        reply, outs = s.execute("[[1f, 2f, 3f], [4f, 5f, 6f]] * 2f")
        ok = reply["status"] == "ok" and len(outs) == 2
        if ok:
            first, second = outs[0][1]["data"], outs[1][1]["data"]
            ok = (first == {"text/plain": "- : Tensor[(2, 3), float32] =\n[[ 2f,  4f,  6f],\n [ 8f, 10f, 12f]]",
                            "text/html": MATRIX_HTML}
                  and second == {"text/plain": "heatmap of Tensor[(2, 3), float32]", "image/svg+xml": MATRIX_SVG}
                  and outs[1][1]["metadata"] == {"relay": {"view": "heatmap"}})
        check("a float matrix: an HTML table and an SVG heatmap, captioned with its type", ok, repr(outs))

        reply, outs = s.execute("arange(100)")
        html = outs[0][1]["data"].get("text/html", "") if outs else ""
        want = ('<table class="relay-tensor">\n<caption>Tensor[(100), float32]</caption>\n<tr>%s<td>…</td>%s</tr>\n'
                '</table>\n' % ("".join("<td>%d</td>" % i for i in range(10)),
                                "".join("<td>%d</td>" % i for i in range(90, 100))))
        check("a long vector: the table summarised with …", reply["status"] == "ok" and html == want
              and len(outs) == 1, repr(outs))

        reply, outs = s.execute("Cons(1, Cons(2, Nil()))")
        data = outs[0][1]["data"] if outs else {}
        if shutil.which("dot"):
            ok = data.get("image/svg+xml", "").find("Cons") > 0 and "Nil" in data["image/svg+xml"]
        else:
            ok = "<ul>" in data.get("text/html", "")
        check("an ADT value as a tree (%s)" % ("SVG by dot" if shutil.which("dot") else "HTML lists"),
              reply["status"] == "ok" and data.get("text/plain") == "- : List[int32] = Cons(1, Cons(2, Nil()))"
              and ok, repr(outs))
        reply, outs = s.execute("Some((1, True))")
        data = outs[0][1]["data"] if outs else {}
        check("an ADT value has a picture (SVG or HTML)", reply["status"] == "ok"
              and ("image/svg+xml" in data or "<ul>" in data.get("text/html", "")), repr(outs))
        sys.path.insert(0, os.path.join(ROOT, "kernel"))
        import relay_display
        tree = relay_display.adt_html({"kind": "constructor", "name": "Some", "fields": [
            {"kind": "tuple", "fields": [{"kind": "tensor", "dtype": "int32", "shape": [], "data": [1]},
                                         {"kind": "tensor", "dtype": "bool", "shape": [], "data": [True]}]}]},
            "Optional[(int32, bool)]")
        want = ('<div class="relay-adt"><div>Optional[(int32, bool)]</div><ul><li><code>Some</code><ul>'
                '<li><code>( )</code><ul><li><code>1</code></li><li><code>True</code></li></ul></li></ul>'
                '</li></ul></div>\n')
        check("without dot, a tree is nested HTML lists", tree == want, tree)

        layer = ("def @layer(%x : Tensor[(n, 784), float32], %w : Tensor[(512, 784), float32]) "
                 "{ let %h = nn.dense(%x, %w); nn.relu(%h) }\n:graph @layer")
        reply, outs = s.execute(layer)
        graph = outs[-1][1]["data"] if outs and outs[-1][0] == "display_data" else {}
        ok = reply["status"] == "ok" and graph.get("text/plain") == LAYER_DOT and texts(outs[:1]) == (
            "stdout: @layer : fn<n : ShapeVar>(Tensor[(n, 784), float32], Tensor[(512, 784), float32]) -> "
            "Tensor[(n, 512), float32]\n")
        if shutil.which("dot"):
            ok = ok and "nn.dense" in graph.get("image/svg+xml", "")
        check(":graph @layer as DOT text%s" % (" and SVG" if shutil.which("dot") else ""), ok, repr(outs))

        reply, outs = s.execute("def @loop(%n : int32) -> int32 { @loop(%n + 1) }")
        msg_id = s.execute("@loop(0)", wait=False)
        time.sleep(1.5)
        started = time.time()
        km.interrupt_kernel()
        try:
            reply, outs = s.collect(msg_id, timeout=20)
            took = time.time() - started
            check("an interrupt stops @loop(0): status error, an error output Interrupted.",
                  reply["status"] == "error" and reply["ename"] == "Interrupted"
                  and texts(outs) == "error: Interrupted." and took < 10
                  and errors(outs) == [("Interrupted", "the evaluation was interrupted")],
                  "after %.1fs: %r %r" % (took, reply, outs))
        except Exception as e:  # noqa: BLE001
            check("an interrupt stops @loop(0)", False, "no reply: %r" % e)
        reply, outs = s.execute("@square(3)")
        check("the session goes on after the interrupt", texts(outs) == "display: - : int32 = 9", "reply %r\noutputs %r" % (reply, outs))

        kernel_pid = km.provisioner.process.pid
        children = relay_children(kernel_pid)
        for pid in children:
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        reply, outs = s.execute("1 + 1")
        t = texts(outs)
        check("relay killed: the kernel says so, starts a new one, and runs the cell",
              len(children) == 1 and reply["status"] == "ok" and t == (
                  "stderr: relay was killed by signal 9; a new relay --serve is started: the session's "
                  "definitions are gone.\n\ndisplay: - : int32 = 2"),
              "children %r\n%s" % (children, t))
        reply, outs = s.execute("@square(3)")
        check("the new session has forgotten @square", reply["status"] == "error"
              and texts(outs) == "error: <repl>:1:1: type error: unknown global `@square`\n 1 | @square(3)\n"
              "   | ^~~~~~~", texts(outs))

        reply, outs = s.execute(":load /nonexistent/x.rly\n1")
        want = ("error: relay: cannot read /nonexistent/x.rly: No such file or directory\n"
                "display: - : int32 = 1")
        check("a failed command's message is an error output too (error)", reply["status"] == "error"
              and reply["ename"] == "error" and texts(outs) == want
              and errors(outs) == [("error", "relay: cannot read /nonexistent/x.rly: No such file or directory")],
              "reply %r\ngot:\n%s\nwant:\n%s" % (reply, texts(outs), want))

        reply, outs = s.execute("def @g() { 1 }\n:quit")
        check(":quit ends relay's session and a new one starts", reply["status"] == "ok" and texts(outs) ==
              "stdout: @g : fn() -> int32\n\nstderr: :quit ended relay's session; a new relay --serve is "
              "started: the session's definitions are gone.\n", "reply %r\noutputs %r" % (reply, outs))
        reply, outs = s.execute("@g()")
        check("after :quit, the next cell runs in the new session", reply["status"] == "error"
              and texts(outs) == "error: <repl>:1:1: type error: unknown global `@g`\n 1 | @g()\n   | ^~",
              texts(outs))
        children = relay_children(kernel_pid)
        kc.stop_channels()
        km.shutdown_kernel(now=False)
        time.sleep(0.5)
        check("shutdown ends relay", children and not any(alive(p) for p in children), repr(children))
        km = None

        # A sandboxed kernel: install.py --sandbox writes it into kernel.json's argv; the time limit
        # comes from $RELAY_SERVE_OPTIONS, read when the kernel starts relay.
        install(prefix, relay, "--name", "relay-sandbox", "--sandbox")
        spec = KernelSpecManager().get_kernel_spec("relay-sandbox")
        check("install.py --sandbox: the kernel spec passes --sandbox", "--sandbox" in spec.argv, repr(spec.argv))
        os.environ["RELAY_SERVE_OPTIONS"] = "--timeout 1"
        try:
            km, kc = start_new_kernel(kernel_name="relay-sandbox", startup_timeout=60)
        finally:
            del os.environ["RELAY_SERVE_OPTIONS"]
        s = Session(km, kc)
        reply, outs = s.execute(":load /etc/hostname\n1 + 1")
        refused = ("<repl>: :load cannot read files here: the session is sandboxed (relay --serve --sandbox); "
                   "write the definitions in the input instead")
        check("a sandboxed kernel refuses :load with an error output",
              reply["status"] == "error" and texts(outs) == "error: %s\ndisplay: - : int32 = 2" % refused
              and errors(outs) == [("error", refused)], texts(outs))
        reply, outs = s.execute("def @loop(%n : int32) -> int32 { @loop(%n + 1) }\n@loop(0)")
        stopped = ("Stopped: the request ran longer than its time limit of 1 s (relay --serve --timeout 1); "
                   "the session goes on.")
        check("$RELAY_SERVE_OPTIONS=--timeout 1: a cell over its time is stopped, an error output (time limit)",
              reply["status"] == "error" and reply["ename"] == "time limit"
              and texts(outs) == "stdout: @loop : fn(int32) -> int32\n\nerror: " + stopped
              and errors(outs) == [("time limit", stopped[len("Stopped: "):])], "reply %r\n%s" % (reply, texts(outs)))
        reply, outs = s.execute("@loop")
        check("  ... and the session goes on", reply["status"] == "ok"
              and texts(outs) == "display: - : fn(int32) -> int32 = <closure>", "reply %r\noutputs %r" % (reply, outs))
        kc.stop_channels()
        km.shutdown_kernel(now=False)
        km = None
    except Exception as e:  # noqa: BLE001
        import traceback
        check("the kernel runs", False, traceback.format_exc())
    finally:
        if km is not None:
            km.shutdown_kernel(now=True)
        shutil.rmtree(tmp, ignore_errors=True)
    return tap.report([(ok, what, details) for what, ok, details in results])


if __name__ == "__main__":
    sys.exit(main())
