#!/usr/bin/env python3
"""Checks README's first command, the one that installs, builds and starts relay; prints TAP.

Usage: check_readme.py README.md

The command runs under bash with stand-ins for apt-get, meson, build/relay and sudo that only
record how they were called, twice: as root on a machine without sudo (a fresh Debian
container), where apt-get must run directly, and as a user with sudo, where every apt-get must go
through sudo. Both must update the package lists (a fresh container has none) before installing,
and then build and start relay.
"""
import os
import re
import stat
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tap  # noqa: E402  (tests/tap.py)

STUB = '#!/bin/sh\necho "%s $*" >> "$RECORD"\n'
SUDO = '#!/bin/sh\necho "sudo $*" >> "$RECORD"\nexec "$@"\n'


def first_command(readme):
    """The first ```sh block's text."""
    m = re.search(r"^```sh\n(.*?)^```", readme, re.M | re.S)
    return m.group(1).strip() if m else None


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def run(command, with_sudo):
    """The calls the command makes, one line each, with PATH holding only the stand-ins."""
    with tempfile.TemporaryDirectory() as tmp:
        bin_dir = os.path.join(tmp, "bin")
        os.makedirs(bin_dir)
        os.makedirs(os.path.join(tmp, "build"))
        for name in ("apt-get", "meson"):
            write(os.path.join(bin_dir, name), STUB % name)
        write(os.path.join(tmp, "build", "relay"), STUB % "build/relay")
        if with_sudo:
            write(os.path.join(bin_dir, "sudo"), SUDO)
        record = os.path.join(tmp, "record")
        env = {"PATH": bin_dir, "RECORD": record}
        r = subprocess.run(["/bin/bash", "-c", command], cwd=tmp, env=env, capture_output=True, text=True)
        calls = open(record).read().split("\n")[:-1] if os.path.exists(record) else []
        return r.returncode, r.stderr.strip(), calls


def main():
    readme = open(sys.argv[1], encoding="utf-8").read()
    command = first_command(readme)
    results = [("README starts with a sh block", command is not None, "")]
    if command:
        code, err, calls = run(command, False)
        apt = [c for c in calls if c.startswith("apt-get")]
        ok = (code == 0 and not any(c.startswith("sudo") for c in calls) and len(apt) >= 2 and
              apt[0] == "apt-get update" and apt[1].startswith("apt-get install -y ") and
              calls[-3:] == ["meson setup build", "meson compile -C build", "build/relay "])
        results.append(("as root without sudo: apt-get update, apt-get install, build, start", ok,
                        "status %d, stderr %r, calls %r" % (code, err, calls)))
        code, err, calls = run(command, True)
        sudo = [c for c in calls if c.startswith("sudo")]
        ok = (code == 0 and sudo == ["sudo apt-get update", "sudo " + apt[1]] if len(apt) >= 2 else False)
        ok = ok and calls[-3:] == ["meson setup build", "meson compile -C build", "build/relay "]
        results.append(("as a user with sudo: both apt-get calls through sudo, then build, start", ok,
                        "status %d, stderr %r, calls %r" % (code, err, calls)))
    return tap.report([(ok, name, why) for name, ok, why in results])


if __name__ == "__main__":
    sys.exit(main())
