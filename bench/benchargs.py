"""What every benchmark runner shares: the command line [RELAY_BINARY] [--runs N], running a program
under the 1 GiB stack limit and timing it, summarizing times, installing Debian packages, and
describing the machine, the relay binary and the peers' versions."""
import json
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STACK = 1 << 30


def parse(argv, runs=5):
    """Returns (relay binary path, number of runs); the binary defaults to build-release/relay."""
    args = list(argv)
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    relay = os.path.abspath(args[0] if args else os.path.join(ROOT, "build-release", "relay"))
    return relay, runs


def flag(argv, name):
    """Whether the option name (e.g. "--no-instructions") is in the list argv; removes it from argv."""
    if name not in argv:
        return False
    argv.remove(name)
    return True


def silent(_message):
    """The progress reporter of a runner run on its own: says nothing."""


# --- running ------------------------------------------------------------------------------------

def limit_stack():
    """Sets this process's stack limit to 1 GiB (`ulimit -s 1048576`, or the hard limit if lower).
    Every program started afterwards inherits it, so deep recursion is never what fails."""
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    soft = STACK if hard == resource.RLIM_INFINITY else min(STACK, hard)
    resource.setrlimit(resource.RLIMIT_STACK, (soft, hard))


def run_once(cmd, tmp, rss=False):
    """Runs cmd under the 1 GiB stack limit, its output going to files in the directory tmp; returns
    (wall seconds, peak RSS in KiB or None, exit status, stdout, stderr).

    With rss, cmd runs under /usr/bin/time, which measures its peak RSS and adds about 2 ms to the
    wall time. Not wait4() here: a child forked from this Python process keeps the parent's RSS as
    its high-water mark across exec, which would floor every figure at the runner's own ~11 MiB.
    /usr/bin/time's own floor is about 1 MiB."""
    limit_stack()
    rss_file = os.path.join(tmp, "rss")
    wrapper = ["/usr/bin/time", "-f", "%M", "-o", rss_file] if rss else []
    with open(os.path.join(tmp, "out"), "w+") as out, open(os.path.join(tmp, "err"), "w+") as err:
        start = time.perf_counter()
        code = subprocess.call(wrapper + cmd, stdout=out, stderr=err)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        kib = None
        if rss:
            with open(rss_file) as f:
                words = f.read().split()  # "Command exited with non-zero status N" precedes the number on failure
            kib = int(words[-1]) if words else 0
        return wall, kib, code, out.read(), err.read()


def summary(times):
    """The median, min and max of a list of times, as a dict."""
    return {"median": statistics.median(times), "min": min(times), "max": max(times)}


def install_missing(needed):
    """needed maps Debian packages to whether what they provide is there already. Installs the
    missing ones with apt-get when running as root; otherwise says so on stderr, and the caller
    skips what needs them."""
    missing = [package for package, present in needed.items() if not present]
    if not missing:
        return
    if os.geteuid() != 0:
        print("note: %s missing and not root; skipping what needs them" % ", ".join(missing), file=sys.stderr)
        return
    install = ["apt-get", "install", "-y", "-q"] + missing
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(install, env=env, stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL)
        subprocess.run(install, env=env, stdout=subprocess.DEVNULL)


# --- describing ---------------------------------------------------------------------------------

def table(header, rows):
    """A markdown table as a list of lines; columns whose header starts with "=" are right-aligned
    (the "=" dropped)."""
    names = [h.lstrip("=") for h in header]
    rule = ["---:" if h.startswith("=") else "---" for h in header]
    return ["| %s |" % " | ".join(str(c) for c in row) for row in [names, rule] + rows]


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


def machine():
    """The machine in a line: CPU model, nproc, memory, kernel release and Debian version."""
    memory = "?"
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                memory = "%.1f GiB" % (int(line.split()[1]) / 1024 ** 2)
    try:
        with open("/etc/debian_version") as f:
            debian = "Debian " + f.read().strip()
    except OSError:
        debian = "not Debian"
    return "%s, %d CPUs (nproc), %s memory, Linux %s, %s" % (cpu_model(), os.cpu_count(), memory,
                                                             os.uname().release, debian)


def relay_build(relay):
    """The buildtype and optimization of the meson build directory the binary sits in, if any."""
    info = os.path.join(os.path.dirname(relay), "meson-info", "intro-buildoptions.json")
    try:
        with open(info) as f:
            opts = {o["name"]: o["value"] for o in json.load(f)}
        return opts.get("buildtype"), str(opts.get("optimization"))
    except (OSError, ValueError, KeyError, TypeError):
        return None, None


def build_description(relay):
    """"buildtype release, -O3" for a binary in a meson build directory."""
    buildtype, opt = relay_build(relay)
    return "buildtype %s, -O%s" % (buildtype, opt) if buildtype else "build options unknown"


def repo_revision():
    """"branch @ commit" of the repository's HEAD, read from .git's files (no git command runs, so
    uncommitted changes do not show), or None outside a plain git checkout."""
    git = os.path.join(ROOT, ".git")
    try:
        with open(os.path.join(git, "HEAD")) as f:
            head = f.read().strip()
        if not head.startswith("ref: "):
            return "detached @ " + head[:12]
        ref = head[len("ref: "):]
        branch = ref.rsplit("/", 1)[-1]
        if os.path.exists(os.path.join(git, ref)):
            with open(os.path.join(git, ref)) as f:
                return "%s @ %s" % (branch, f.read().strip()[:12])
        with open(os.path.join(git, "packed-refs")) as f:  # "SHA REF" lines once refs are packed
            for line in f:
                if line.split()[1:] == [ref]:
                    return "%s @ %s" % (branch, line.split()[0][:12])
    except (OSError, IndexError):
        pass
    return None


def version(cmd):
    """The first line a program prints about its version, or "?"."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
        return (p.stdout + p.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return "?"
