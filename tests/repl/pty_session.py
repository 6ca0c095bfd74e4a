#!/usr/bin/env python3
"""Drives the interactive REPL under a pseudo-terminal (Python's pty module, as `script` would);
prints TAP. Checks the prompt, completion with Tab of a Prelude name, of a file name after :load
and of a session binding, Ctrl-R's search of the history, errors in colour (and not with NO_COLOR), that Ctrl-C interrupts a
running evaluation (`@loop_forever(0)`) and clears a half-typed line at the prompt, that the
session goes on afterwards, that Ctrl-D leaves with status 0, and that the history is saved.

Usage: pty_session.py RELAY_BINARY
"""
import os
import pty
import re
import select
import signal
import sys
import tempfile
import termios
import time

TIMEOUT = 10


class Session:
    def __init__(self, relay, history):
        env = dict(os.environ, RELAY_HISTORY=history, TERM="dumb", HOME=os.path.dirname(history))
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.chdir(os.path.dirname(history))
                os.execve(relay, [relay], env)
            finally:
                os._exit(127)  # never run the test's own code in the child
        self.seen = ""

    def send(self, text):
        os.write(self.fd, text.encode())

    def send_keys(self, text):
        """Types text at the prompt once the line editor has the terminal in raw mode. Before,
        the terminal's cooked mode would take Ctrl-R as 'reprint the line', and what was typed
        may be flushed when the editor switches modes (a lost Ctrl-D left relay waiting)."""
        deadline = time.time() + TIMEOUT
        while termios.tcgetattr(self.fd)[3] & termios.ICANON:
            if time.time() > deadline:
                raise TimeoutError("the terminal never left its cooked mode")
            time.sleep(0.01)
        self.send(text)

    def expect(self, pattern):
        """Reads until the output since the last match contains pattern (a regex); returns it."""
        deadline = time.time() + TIMEOUT
        while True:
            m = re.search(pattern, self.seen)
            if m:
                out = self.seen[:m.end()]
                self.seen = self.seen[m.end():]
                return out
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no %r in %r" % (pattern, self.seen[-400:]))
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    data = os.read(self.fd, 4096)
                except OSError:
                    data = b""
                if not data:
                    raise EOFError("relay ended; output %r" % self.seen[-400:])
                self.seen += data.decode(errors="replace").replace("\r", "")

    def wait(self):
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                if select.select([self.fd], [], [], 0.1)[0]:
                    os.read(self.fd, 4096)
            except OSError:
                pass
        return None

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass


def terminal_output(relay, args, env):
    """What relay writes to a pseudo-terminal when run with args until it exits."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execve(relay, [relay] + args, env)
        finally:
            os._exit(127)
    out, deadline = b"", time.time() + TIMEOUT
    while time.time() < deadline:
        if not select.select([fd], [], [], 0.1)[0]:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:
            break
        out += data
    os.waitpid(pid, 0)
    return out.decode(errors="replace")


def main():
    relay = os.path.abspath(sys.argv[1])
    checks = []

    def colour():
        env = dict(os.environ, TERM="xterm")
        env.pop("NO_COLOR", None)
        out = terminal_output(relay, ["-e", "1 + True"], env)
        if "\x1b[1;31mtype error:" not in out:
            raise EOFError("no red `type error:` in %r" % out)
        out = terminal_output(relay, ["-e", "1 + True"], dict(env, NO_COLOR="1"))
        if "\x1b[" in out or "type error:" not in out:
            raise EOFError("colour despite NO_COLOR: %r" % out)
    try:
        colour()
        checks.append(("errors in colour on a terminal, none with NO_COLOR", None))
    except (TimeoutError, EOFError) as e:
        checks.append(("errors in colour on a terminal, none with NO_COLOR", str(e)))
    with tempfile.TemporaryDirectory() as tmp:
        history = os.path.join(tmp, "history")
        s = Session(relay, history)

        def check(name, fn):
            try:
                fn()
                checks.append((name, None))
            except (TimeoutError, EOFError, OSError) as e:
                checks.append((name, str(e)))

        check("the prompt appears", lambda: s.expect(r"relay> "))

        def completion():
            s.send_keys("@leng\t")
            s.expect(r"@length")
            s.send("(Cons(1, Cons(2, Nil())))\n")
            s.expect(r"- : int32 = 2")
            s.expect(r"relay> ")
        check("Tab completes a Prelude global", completion)

        def file_completion():
            with open(os.path.join(tmp, "greeting_file.rly"), "w") as f:
                f.write("def @greet() -> int32 { 42 }\n")
            s.send_keys(":load greet\t")
            s.expect(r"greeting_file\.rly")
            s.send("\n")
            s.expect(r"@greet : fn\(\) -> int32")
            s.send_keys("@greet()\n")
            s.expect(r"- : int32 = 42")
            s.expect(r"relay> ")
        check("Tab completes a file name after :load", file_completion)

        def binding_completion():
            s.send_keys("let %threshold_value = 7\n")
            s.expect(r"%threshold_value : int32 = 7")
            s.expect(r"relay> ")
            s.send_keys("%thres\t")
            s.expect(r"%threshold_value")
            s.send(" * 6\n")
            s.expect(r"- : int32 = 42")
            s.expect(r"relay> ")
        check("Tab completes a session binding after %", binding_completion)

        def interrupt():
            s.send_keys("def @loop_forever(%x : int32) -> int32 { @loop_forever(%x) }\n")
            s.expect(r"@loop_forever : fn\(int32\) -> int32")
            s.expect(r"relay> ")
            s.send_keys("@loop_forever(0)\n")
            time.sleep(0.5)
            s.send("\x03")
            s.expect(r"Interrupted\.")
            s.expect(r"relay> ")
        check("Ctrl-C interrupts @loop_forever(0)", interrupt)

        def goes_on():
            s.send_keys("@length(@range(5)) + 1\n")
            s.expect(r"- : int32 = 6")
            s.expect(r"relay> ")
        check("the next input works, definitions intact", goes_on)

        def search():
            s.send_keys("7 * 3\n")
            s.expect(r"- : int32 = 21")
            s.expect(r"relay> ")
            s.send_keys("\x12range(5")  # Ctrl-R, then part of an earlier input
            time.sleep(0.3)
            s.send("\n")
            s.expect(r"- : int32 = 6")
            s.expect(r"relay> ")
        check("Ctrl-R finds an earlier input", search)

        def clears_line():
            s.send_keys("1 +")
            time.sleep(0.2)
            s.send("\x03")
            time.sleep(0.2)
            s.send_keys("2 + 2\n")
            s.expect(r"- : int32 = 4")
            s.expect(r"relay> ")
        check("Ctrl-C at the prompt clears the line", clears_line)

        def leaves():
            s.send_keys("\x04")
            code = s.wait()
            if code != 0:
                raise EOFError("exit status %r" % code)
        check("Ctrl-D leaves with status 0", leaves)

        def history_saved():
            with open(history) as f:
                text = f.read()
            if "loop_forever" not in text:
                raise EOFError("history file holds %r" % text[-200:])
        check("the history is saved in $RELAY_HISTORY", history_saved)
        s.kill()  # if a check failed, relay may still run

    print("1..%d" % len(checks))
    for i, (name, problem) in enumerate(checks, 1):
        print("%s %d - %s" % ("not ok" if problem else "ok", i, name))
        if problem:
            print("# " + problem.replace("\n", "\n# "))


if __name__ == "__main__":
    main()
