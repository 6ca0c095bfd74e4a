"""What every benchmark runner shares: the command line [RELAY_BINARY] [--runs N], installing
Debian packages, the build type of the relay binary, and peers' versions."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(argv, runs=5):
    """Returns (relay binary path, number of runs); the binary defaults to build-release/relay."""
    args = list(argv)
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    relay = os.path.abspath(args[0] if args else os.path.join(ROOT, "build-release", "relay"))
    return relay, runs


def apt_install(packages):
    """Installs Debian packages with apt-get (the caller checks that it runs as root)."""
    install = ["apt-get", "install", "-y", "-q"] + list(packages)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(install, env=env, stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL)
        subprocess.run(install, env=env, stdout=subprocess.DEVNULL)


def check_relay(relay):
    """Stops when the binary is missing; warns when it is not an optimized build."""
    if not os.access(relay, os.X_OK):
        sys.exit("no relay binary at %s; build it first (see the runner's docstring)" % relay)
    buildtype, opt = relay_build(relay)
    if buildtype is not None and opt not in ("2", "3"):
        # `meson setup DIR --buildtype=release` on an already configured DIR keeps its old options
        print("WARNING: %s is a %s build at -O%s, not release; its times mean little here\n"
              "         (meson configure %s -Dbuildtype=release)" % (relay, buildtype, opt, os.path.dirname(relay)),
              file=sys.stderr)


def cpu_model():
    """The CPU's model name from /proc/cpuinfo, or "?"."""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "?"


def relay_build(relay):
    """The buildtype and optimization of the meson build directory the binary sits in, if any."""
    info = os.path.join(os.path.dirname(relay), "meson-info", "intro-buildoptions.json")
    try:
        with open(info) as f:
            opts = {o["name"]: o["value"] for o in json.load(f)}
        return opts.get("buildtype"), str(opts.get("optimization"))
    except (OSError, ValueError, KeyError, TypeError):
        return None, None


def version(cmd):
    """The first line a program prints about its version, or "?"."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
        return (p.stdout + p.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return "?"
