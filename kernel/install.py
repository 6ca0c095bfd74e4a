#!/usr/bin/env python3
"""Install the Relay kernel spec for Jupyter.

    /usr/bin/python3 kernel/install.py [--user | --prefix P] [--relay PATH] [--name NAME]
                                       [--sandbox] [--timeout SECONDS] [--max-heap MB]

The kernel's Python files and a kernel.json (from kernel/kernel.json) go into Jupyter's kernels
folder: the user's (~/.local/share/jupyter/kernels/relay, the default) or PREFIX's
(P/share/jupyter/kernels/relay). kernel.json runs the kernel with the Python running this script
(so run it with /usr/bin/python3, which has Debian's ipykernel) and names the relay binary:
--relay PATH, by default this checkout's build/relay when it is built, else `relay` on PATH.
At run time $RELAY_BINARY, when set, overrides it. --sandbox, --timeout and --max-heap go into
kernel.json's argv: the kernel starts `relay --serve` with them (docs/serve.md, "Sandbox and
limits"), for a notebook server that graders or a playground share.

It also installs relay's Pygments lexer (relay_lexer.py and the editors' grammar, as the package
relay_pygments with an entry point), as `meson install` does, so that nbconvert, Sphinx and the
Jupyter consoles highlight Relay: into the user's site-packages, or with --prefix into the folder
of this Python's path under P (else P/lib/python3/dist-packages, which then must be put on
PYTHONPATH). --no-lexer leaves it out.
"""
import argparse
import json
import os
import re
import shutil
import site
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ["relay_kernel.py", "relay_serve.py", "relay_display.py"]


def default_relay():
    built = os.path.join(os.path.dirname(HERE), "build", "relay")
    if os.access(built, os.X_OK):
        return built
    return shutil.which("relay")


def write_spec(folder, python, kernel_dir, relay, options=(), display_name=None):
    """kernel.json (the template filled in, options added to its argv) and the kernel's files into folder."""
    with open(os.path.join(HERE, "kernel.json"), encoding="utf-8") as f:
        text = f.read()
    for key, val in (("@PYTHON@", python), ("@KERNEL_DIR@", kernel_dir), ("@RELAY@", relay)):
        text = text.replace(key, val.replace("\\", "\\\\").replace('"', '\\"'))
    spec = json.loads(text)
    spec["argv"] += list(options)
    if display_name:
        spec["display_name"] = display_name
    with open(os.path.join(folder, "kernel.json"), "w", encoding="utf-8") as f:
        json.dump(spec, f, indent=2)
        f.write("\n")
    for name in FILES:
        shutil.copy(os.path.join(HERE, name), os.path.join(folder, name))


def lexer_site(prefix):
    """Where the lexer package goes: the user's site-packages, or the folder of sys.path under prefix."""
    if not prefix:
        return site.getusersitepackages()
    p = os.path.abspath(prefix).rstrip("/") + "/"
    return next((d for d in sys.path if d.startswith(p + "lib") and d.endswith("-packages")),
                os.path.join(p, "lib", "python3", "dist-packages"))


def install_lexer(folder):
    """relay_pygments (the lexer, its grammar) and its dist-info with the Pygments entry point."""
    root = os.path.dirname(HERE)
    with open(os.path.join(root, "meson.build"), encoding="utf-8") as f:
        version = re.search(r"version\s*:\s*'([^']+)'", f.read()).group(1)
    package = os.path.join(folder, "relay_pygments")
    os.makedirs(package, exist_ok=True)
    shutil.copy(os.path.join(HERE, "relay_lexer.py"), os.path.join(package, "__init__.py"))
    shutil.copy(os.path.join(root, "editors", "relay.tmLanguage.json"), package)
    info = os.path.join(folder, "relay_pygments-%s.dist-info" % version)
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(HERE, "relay_pygments.dist-info", "METADATA"), encoding="utf-8") as f:
        metadata = f.read().replace("@VERSION@", version)
    with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(metadata)
    shutil.copy(os.path.join(HERE, "relay_pygments.dist-info", "entry_points.txt"), info)
    return package


def main():
    ap = argparse.ArgumentParser(description="Install the Relay Jupyter kernel spec.")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="for this user (the default)")
    where.add_argument("--prefix", help="under PREFIX/share/jupyter/kernels")
    ap.add_argument("--relay", help="the relay binary (default: build/relay, else relay on PATH)")
    ap.add_argument("--name", default="relay", help="the kernel's name (default: relay)")
    ap.add_argument("--sandbox", action="store_true",
                    help="relay --serve --sandbox: no command reads or writes a file; 10 s and 512 MiB a request "
                         "unless --timeout and --max-heap say otherwise")
    ap.add_argument("--timeout", type=float, metavar="SECONDS", help="a cell that runs longer is stopped (0: never)")
    ap.add_argument("--max-heap", type=int, metavar="MB", help="the heap's largest size in MiB (at least 32)")
    ap.add_argument("--no-lexer", action="store_true", help="do not install relay's Pygments lexer")
    args = ap.parse_args()
    options = ["--sandbox"] if args.sandbox else []
    if args.timeout is not None:
        options.append("--timeout=%g" % args.timeout)
    if args.max_heap is not None:
        options.append("--max-heap=%d" % args.max_heap)
    try:
        from jupyter_client.kernelspec import KernelSpecManager
    except ImportError:
        sys.exit("install.py: jupyter_client is missing: run it with /usr/bin/python3, or "
                 "apt-get install python3-ipykernel jupyter-client")
    relay = args.relay or default_relay()
    if not relay:
        sys.exit("install.py: no relay binary: build it (meson setup build && meson compile -C build) "
                 "or give --relay PATH")
    relay = os.path.abspath(relay)
    ksm = KernelSpecManager()
    if args.prefix:
        dest = os.path.join(os.path.abspath(args.prefix), "share", "jupyter", "kernels", args.name)
    else:
        dest = os.path.join(ksm.user_kernel_dir, args.name)
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, args.name)
        os.mkdir(folder)
        write_spec(folder, sys.executable, dest, relay, options,
                   "Relay (sandbox)" if args.sandbox else None)
        installed = ksm.install_kernel_spec(folder, args.name, user=not args.prefix,
                                            prefix=os.path.abspath(args.prefix) if args.prefix else None)
    print("installed the Relay kernel spec in %s (relay: %s%s)" % (installed, relay,
                                                                   "".join(" " + o for o in options)))
    if not args.no_lexer:
        print("installed relay's Pygments lexer in %s" % install_lexer(lexer_site(args.prefix)))


if __name__ == "__main__":
    main()
