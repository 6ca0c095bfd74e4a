#!/usr/bin/env python3
"""Keys around Ctrl-C, and the history of multi-line inputs, under a pseudo-terminal (the Session of
pty_session.py); prints TAP.

- A key typed right after Ctrl-C is never lost: at the prompt (the half-typed line is dropped, the
  key starts the next one), and during an evaluation (the key waits for the next prompt). Each is
  tried with the key in the same write as the Ctrl-C, right after it, and a few milliseconds after.
- Ctrl-D on the empty `...` line of an incomplete input cancels the input, not the session; a
  blank line ends an incomplete input with its error.
- History keeps a multi-line input and a :{ ... :} block as one entry: Up recalls the whole
  definition (not its last line) and Enter runs it again; the entry survives the history file
  ($RELAY_HISTORY) into the next session.

Usage: pty_keys.py RELAY_BINARY
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pty_session import Session  # noqa: E402


def main():
    relay = os.path.abspath(sys.argv[1])
    checks = []

    def check(name, fn):
        try:
            fn()
            checks.append((name, None))
        except (TimeoutError, EOFError, OSError) as e:
            checks.append((name, str(e)))

    with tempfile.TemporaryDirectory() as tmp:
        history = os.path.join(tmp, "history")
        s = Session(relay, history)
        check("the prompt appears", lambda: s.expect(r"relay> "))

        def ways(send_ctrl_c_then):
            """The three timings of a key after Ctrl-C: one write, two writes, 20 ms apart."""
            send_ctrl_c_then(lambda keys: s.send("\x03" + keys))
            send_ctrl_c_then(lambda keys: (s.send("\x03"), s.send(keys)))
            send_ctrl_c_then(lambda keys: (s.send("\x03"), time.sleep(0.02), s.send(keys)))

        def at_prompt():
            n = [0]

            def one(ctrl_c_then):
                n[0] += 1
                s.send_keys("1 +")
                time.sleep(0.1)
                ctrl_c_then("%d + 100\n" % n[0])  # the 1 + is dropped; this is a line of its own
                s.expect(r"- : int32 = %d\n" % (n[0] + 100))
                s.expect(r"relay> ")
            ways(one)
        check("a key typed right after Ctrl-C at the prompt starts the next line", at_prompt)

        def during_evaluation():
            s.send_keys("def @spin(%x : int32) -> int32 { @spin(%x) }\n")
            s.expect(r"relay> ")
            n = [0]

            def one(ctrl_c_then):
                n[0] += 1
                s.send_keys("@spin(0)\n")
                time.sleep(0.3)
                ctrl_c_then("%d + 200\n" % n[0])
                s.expect(r"Interrupted\.")
                s.expect(r"- : int32 = %d\n" % (n[0] + 200))
                s.expect(r"relay> ")
            ways(one)
        check("a key typed right after Ctrl-C during an evaluation is kept for the next prompt", during_evaluation)

        def kernel():
            s.send_keys("def @big() { ones(shape=[4000, 4000]) }\n")
            s.expect(r"relay> ")
            s.send_keys("sum(nn.dense(@big(), @big())) + sum(nn.dense(@big(), @big())) + sum(nn.dense(@big(), @big()))\n")
            time.sleep(0.5)
            s.send("\x033 + 300\n")
            s.expect(r"Interrupted\.")
            s.expect(r"- : int32 = 303\n")
            s.expect(r"relay> ")
        check("and during a long matrix product", kernel)

        up = "\x1b[A"

        def multi_line():
            s.send_keys("def @inc(%x : int32) -> int32 {\n")
            s.expect(r"\.\.\. ")
            s.send_keys("  %x + 1\n")
            s.expect(r"\.\.\. ")
            s.send_keys("}\n")
            s.expect(r"@inc : fn\(int32\) -> int32\nrelay> ")
            s.send_keys("@inc(1)\n")
            s.expect(r"- : int32 = 2\nrelay> ")
            s.send_keys(up + up)  # past @inc(1) to the definition, whole (a dumb terminal pads the
            # lines it redraws with spaces)
            s.expect(r"relay> def @inc\(%x : int32\) -> int32 \{ *\n  %x \+ 1 *\n\}")
            s.send("\n")
            s.expect(r"@inc : fn\(int32\) -> int32\nrelay> ")
        check("Up recalls a multi-line definition whole, and Enter defines it again", multi_line)

        def block():
            for line in [":{", "def @a() -> int32 { @b() + 1 }", "def @b() -> int32 { 41 }"]:
                s.send_keys(line + "\n")
                s.expect(r"\.\.\. ")
            s.send_keys(":}\n")
            s.expect(r"@b : fn\(\) -> int32\nrelay> ")
            s.send_keys(up)
            s.expect(r"relay> :\{ *\ndef @a\(\) -> int32 \{ @b\(\) \+ 1 \} *\ndef @b\(\) -> int32 \{ 41 \} *\n:\}")
            s.send("\n")
            s.expect(r"@a : fn\(\) -> int32\n@b : fn\(\) -> int32\nrelay> ")
        check("Up recalls a :{ ... :} block whole, and Enter runs it again", block)

        s.send_keys("\x04")
        s.wait()
        s.kill()

        def next_session():
            t = Session(relay, history)
            try:
                t.expect(r"relay> ")
                t.send_keys(up)
                t.expect(r"relay> :\{ *\ndef @a\(\) -> int32 \{ @b\(\) \+ 1 \} *\ndef @b\(\) -> int32 \{ 41 \} *\n:\}")
                t.send("\n")
                t.expect(r"@b : fn\(\) -> int32\nrelay> ")
                t.send_keys(up * 4)  # past the three blocks (each run adds one)
                t.expect(r"relay> def @inc\(%x : int32\) -> int32 \{ *\n  %x \+ 1 *\n\}")
                t.send("\n")
                t.expect(r"@inc : fn\(int32\) -> int32\nrelay> ")
                t.send_keys("@a() + @inc(0)\n")
                t.expect(r"- : int32 = 43\n")
                t.send_keys("\x04")
                t.wait()
            finally:
                t.kill()
        check("the next session's history has both entries whole", next_session)

        def cancel():
            u = Session(relay, history)
            try:
                u.expect(r"relay> ")
                u.send_keys("if (2 > 1) { 1 }\n")
                u.expect(r"\.\.\. ")
                u.send_keys("\x04")  # Ctrl-D on the empty `...` line: the input goes, the session stays
                u.expect(r"\(input cancelled\)\nrelay> ")
                u.send_keys("let %x\n")
                u.expect(r"\.\.\. ")
                u.send_keys("\n")  # a blank line ends the incomplete input with its error
                u.expect(r"expected `=` after the variable, found end of input")
                u.expect(r"relay> ")
                u.send_keys("40 + 2\n")
                u.expect(r"- : int32 = 42\nrelay> ")
                u.send_keys("\x04")
                if u.wait() != 0:
                    raise OSError("Ctrl-D at the prompt did not leave with status 0")
            finally:
                u.kill()
        check("Ctrl-D on a `...` line cancels the input, and a blank line ends one with its error", cancel)

    print("1..%d" % len(checks))
    for i, (name, problem) in enumerate(checks, 1):
        print("%s %d - %s" % ("not ok" if problem else "ok", i, name))
        if problem:
            print("# " + problem.replace("\n", "\n# "))


if __name__ == "__main__":
    main()
