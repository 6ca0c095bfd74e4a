#!/usr/bin/env python3
"""Tensor benchmark: relay's tensor operators against the code they should match, and a markdown
table of the time per iteration (median, min, max over the runs), the rate it amounts to, and the
ratio of relay's median to the peer's.

Workloads (K timed iterations after W warm-up ones; the relay programs are written from the
templates below):
  dense  nn.dense(x, w) = x * w^T of two 1024x1024 float32 matrices, K = 20, W = 5
         peer: dense.c, one cblas_sgemm per product (OpenBLAS)           rate: GFLOP/s, 2 * 1024^3
  add    acc = add(acc, b) on two 4M-element float32 tensors (1024x4096), K = 100, W = 20
         peer: add.c, the loop compiled by cc -O2, into a second buffer    rate: GB/s, 3 * 4 * 4M
  mlp    3-layer MLP forward pass, batch 64, 784-512-512-10, relu after the first two layers,
         with biases, K = 1000, W = 100
         peer: mlp.py in numpy (/usr/bin/python3, float32)                 rate: GFLOP/s of the denses

Usage: bench/tensor/run.py [RELAY_BINARY] [--runs N] [--emit DIR]
  (default build-release/relay, 5 runs; --emit writes the relay programs into DIR and stops)
Build the binary first: meson setup build-release --buildtype=release && meson compile -C build-release

Method: every program builds its inputs, runs its loop n times and prints the sum of its last
result. Each program runs with n = W + K, W and 0, N times each, interleaved. The time per
iteration is (time of a W + K run - median time of the W runs) / K: start-up, building the inputs,
the final sum and the warm-up (relay's heap growing, OpenBLAS's threads starting) cancel, for relay
and the peers alike. The "from cold" column is (median W + K - median 0) / (W + K), the warm-up
included. Every run's output is checked before its time is trusted: for dense and add against the
exact sum that Python computes here, for mlp against numpy's. C peers are built into a temporary
directory; gcc, libopenblas-dev and python3-numpy are installed with apt-get when missing and run
as root, otherwise the peers that need them are skipped.

bench/run imports this file and calls ensure_packages(), versions() and run(), which returns the
figures as dicts.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchargs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"  # Debian's, which python3-numpy serves (a pyenv python3 may not have it)
RTOL = 1e-4  # the sums are of float32 results; OpenBLAS may round a product differently per run


# --- inputs -------------------------------------------------------------------------------------
# A pattern (mul, mod, scale) is the vector ((i * mul) % mod - mod // 2) / scale: small dyadic
# numbers, exact in float32, of both signs. A matrix (rows, cols, row pattern, column pattern) is
# the row pattern as a column plus the column pattern as a row (relay broadcasts a [[..]] column
# literal and a [..] row literal). dense.c, add.c and mlp.py compute the same formula.

def pattern(n, mul, mod, scale):
    return [((i * mul) % mod - mod // 2) / scale for i in range(n)]


DENSE_X = (1024, 1024, (37, 101, 64), (53, 97, 128))
DENSE_W = (1024, 1024, (29, 89, 128), (41, 103, 64))
ADD_A = (1024, 4096, (37, 101, 64), (53, 97, 128))
ADD_B = (1024, 4096, (29, 89, 128), (41, 103, 64))
MLP_X = (64, 784, (37, 101, 64), (53, 97, 128))
MLP_W = [(512, 784, (29, 89, 4096), (41, 103, 2048)),
         (512, 512, (31, 83, 2048), (43, 107, 4096)),
         (10, 512, (23, 79, 2048), (47, 109, 2048))]
MLP_B = [(512, 19, 73, 16), (512, 17, 71, 8), (10, 13, 67, 4)]  # (length, mul, mod, scale)


def lit(v):
    """A float32 literal; the values are exact, so repr is the value."""
    return repr(float(v)) + "f"


def relay_matrix(rows, cols, rp, cp):
    col = ", ".join("[%s]" % lit(v) for v in pattern(rows, *rp))
    row = ", ".join(lit(v) for v in pattern(cols, *cp))
    return "[%s] + [%s]" % (col, row)


def relay_vector(n, mul, mod, scale):
    return "[%s]" % ", ".join(lit(v) for v in pattern(n, mul, mod, scale))


# --- relay programs -----------------------------------------------------------------------------
# {K} is the number of iterations; the inputs are built in @main before the loop starts.

DENSE_RLY = """\
# K products nn.dense(x, w) = x * w^T of 1024x1024 float32 matrices; prints the sum of the last
# (of the zero matrix when K = 0). Written by bench/tensor/run.py.
def @loop(%i : int32, %x : Tensor[(1024, 1024), float32], %w : Tensor[(1024, 1024), float32],
          %y : Tensor[(1024, 1024), float32]) -> Tensor[(1024, 1024), float32] {{
  if (%i == 0) {{ %y }} else {{ @loop(%i - 1, %x, %w, nn.dense(%x, %w)) }}
}}

def @main() -> float32 {{
  let %x : Tensor[(1024, 1024), float32] = {x};
  let %w : Tensor[(1024, 1024), float32] = {w};
  sum(@loop({K}, %x, %w, Constant(0f, (1024, 1024), float32)))
}}
"""

ADD_RLY = """\
# K additions acc = add(acc, b) of 4M-element (1024x4096) float32 tensors; prints the sum of the
# final acc. Written by bench/tensor/run.py.
def @loop(%i : int32, %acc : Tensor[(1024, 4096), float32],
          %b : Tensor[(1024, 4096), float32]) -> Tensor[(1024, 4096), float32] {{
  if (%i == 0) {{ %acc }} else {{ @loop(%i - 1, add(%acc, %b), %b) }}
}}

def @main() -> float32 {{
  let %a : Tensor[(1024, 4096), float32] = {a};
  let %b : Tensor[(1024, 4096), float32] = {b};
  sum(@loop({K}, %a, %b))
}}
"""

MLP_RLY = """\
# K forward passes of a 3-layer MLP, batch 64, 784-512-512-10, relu after the first two layers;
# prints the sum of the last output (0 when K = 0). Written by bench/tensor/run.py.
def @mlp(%x : Tensor[(64, 784), float32],
         %w1 : Tensor[(512, 784), float32], %b1 : Tensor[(512), float32],
         %w2 : Tensor[(512, 512), float32], %b2 : Tensor[(512), float32],
         %w3 : Tensor[(10, 512), float32], %b3 : Tensor[(10), float32]) -> Tensor[(64, 10), float32] {{
  let %h1 = nn.relu(nn.bias_add(nn.dense(%x, %w1), %b1));
  let %h2 = nn.relu(nn.bias_add(nn.dense(%h1, %w2), %b2));
  nn.bias_add(nn.dense(%h2, %w3), %b3)
}}

def @loop(%i : int32, %x : Tensor[(64, 784), float32],
          %w1 : Tensor[(512, 784), float32], %b1 : Tensor[(512), float32],
          %w2 : Tensor[(512, 512), float32], %b2 : Tensor[(512), float32],
          %w3 : Tensor[(10, 512), float32], %b3 : Tensor[(10), float32],
          %y : Tensor[(64, 10), float32]) -> Tensor[(64, 10), float32] {{
  if (%i == 0) {{ %y }} else {{
    @loop(%i - 1, %x, %w1, %b1, %w2, %b2, %w3, %b3, @mlp(%x, %w1, %b1, %w2, %b2, %w3, %b3))
  }}
}}

def @main() -> float32 {{
  let %x : Tensor[(64, 784), float32] = {x};
  let %w1 : Tensor[(512, 784), float32] = {w1};
  let %w2 : Tensor[(512, 512), float32] = {w2};
  let %w3 : Tensor[(10, 512), float32] = {w3};
  let %b1 : Tensor[(512), float32] = {b1};
  let %b2 : Tensor[(512), float32] = {b2};
  let %b3 : Tensor[(10), float32] = {b3};
  sum(@loop({K}, %x, %w1, %b1, %w2, %b2, %w3, %b3, Constant(0f, (64, 10), float32)))
}}
"""


def relay_program(workload, k):
    if workload == "dense":
        return DENSE_RLY.format(K=k, x=relay_matrix(*DENSE_X), w=relay_matrix(*DENSE_W))
    if workload == "add":
        return ADD_RLY.format(K=k, a=relay_matrix(*ADD_A), b=relay_matrix(*ADD_B))
    w1, w2, w3 = (relay_matrix(*m) for m in MLP_W)
    b1, b2, b3 = (relay_vector(*b) for b in MLP_B)
    return MLP_RLY.format(K=k, x=relay_matrix(*MLP_X), w1=w1, w2=w2, w3=w3, b1=b1, b2=b2, b3=b3)


# --- expected results ---------------------------------------------------------------------------

def expected(workload, k):
    """The exact sum the dense and add programs print (before rounding to float32); None for mlp,
    which is checked against numpy."""
    if workload == "dense":
        if k == 0:
            return 0.0
        # sum_ij (x w^T)_ij = sum_c (sum_i x_ic) (sum_j w_jc), with x_ic = r_i + c_c
        (n, _, xr, xc), (_, _, wr, wc) = DENSE_X, DENSE_W
        sxr, swr = sum(pattern(n, *xr)), sum(pattern(n, *wr))
        return sum((sxr + n * xc_) * (swr + n * wc_) for xc_, wc_ in zip(pattern(n, *xc), pattern(n, *wc)))
    if workload == "add":
        # acc = a + K b, and the sum of a matrix r_i + c_j is cols * sum r + rows * sum c
        total = lambda rows, cols, rp, cp: cols * sum(pattern(rows, *rp)) + rows * sum(pattern(cols, *cp))
        return total(*ADD_A) + k * total(*ADD_B)
    return None


def parse_float(out):
    """The printed number: relay prints a float32 as 358375.19f, the peers as %.9g."""
    try:
        return float(out.strip().rstrip("f"))
    except ValueError:
        return None


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= RTOL * max(abs(a), abs(b), 1.0)


# --- running ------------------------------------------------------------------------------------

WORKLOADS = [
    # name, K (timed iterations), W (warm-up iterations), peer, unit of the rate, amount per iteration
    ("dense", 20, 5, "C cblas_sgemm", "GFLOP/s", 2 * 1024 ** 3 / 1e9),
    ("add", 100, 20, "C loop (cc -O2)", "GB/s", 3 * 4 * 4 * 1024 * 1024 / 1e9),
    ("mlp", 1000, 100, "numpy", "GFLOP/s", 2 * 64 * (784 * 512 + 512 * 512 + 512 * 10) / 1e9),
]
TARGETS = {"dense": 95, "add": 90, "mlp": 100}  # relay's rate at least this % of the peer's


def have_cblas():
    return any(os.path.exists(p) for p in ("/usr/include/cblas.h", "/usr/include/x86_64-linux-gnu/cblas.h",
                                           "/usr/include/aarch64-linux-gnu/cblas.h", "/usr/include/openblas/cblas.h"))


def have_numpy():
    return os.access(PYTHON, os.X_OK) and subprocess.run([PYTHON, "-c", "import numpy"],
                                                         capture_output=True).returncode == 0


def ensure_packages():
    """Installs the missing peers' needs when root; otherwise the peers that need them are skipped."""
    benchargs.install_missing({"gcc": bool(shutil.which("cc")), "libopenblas-dev": have_cblas(),
                               "python3-numpy": have_numpy()})


def versions():
    """The peers' versions: cc, OpenBLAS (and its thread count), numpy and the Python running it."""
    return {"cc": benchargs.version(["cc", "--version"]),
            "openblas": benchargs.version(["dpkg-query", "-W", "-f", "${Version}", "libopenblas0-pthread"]),
            "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "unset"),
            "numpy": benchargs.version([PYTHON, "-c", "import numpy; print(numpy.__version__)"]) if have_numpy()
            else "missing",
            "numpy_python": benchargs.version([PYTHON, "--version"])}


def peer(workload, tmp):
    """The peer's command as a function of K, building it if needed; None when it cannot run."""
    if workload in ("dense", "add"):
        cc = shutil.which("cc")
        if cc is None or (workload == "dense" and not have_cblas()):
            return None
        exe = os.path.join(tmp, workload)
        cmd = [cc, "-O2", "-o", exe, os.path.join(HERE, workload + ".c")] + (["-lopenblas"] if workload == "dense" else [])
        if subprocess.run(cmd).returncode != 0:
            return None
        return lambda k: [exe, str(k)]
    if not have_numpy():
        return None
    return lambda k: [PYTHON, os.path.join(HERE, "mlp.py"), str(k)]


def counts(workload):
    """The iteration counts each program runs with: 0, the warm-up W, and W + K."""
    _, k, w = next(x[:3] for x in WORKLOADS if x[0] == workload)
    return 0, w, w + k


def write_relay(workload, directory):
    paths = {}
    for n in counts(workload):
        paths[n] = os.path.join(directory, "%s_%d.rly" % (workload, n))
        with open(paths[n], "w") as f:
            f.write(relay_program(workload, n))
    return paths


def relay_cmd(relay, tmp, workload):
    paths = write_relay(workload, tmp)
    return lambda n: [relay, "--no-prelude", paths[n]]


def measure(name, cmd_of, workload, runs, want, tmp):
    """Times cmd_of(n) for n = 0, W and W + K; returns (the steady time per iteration of each run,
    (W + K run - W run) / K, and the time per iteration from cold, median(W + K runs) - median(0
    runs) / (W + K)) or raises RuntimeError with what went wrong. want(n, value) says whether the
    output of an n-iteration run is right."""
    zero, warm, full = counts(workload)

    def checked(n):
        wall, _, code, out, err = benchargs.run_once(cmd_of(n), tmp)
        if code != 0 or not want(n, parse_float(out)):
            raise RuntimeError("%s with %d iterations: exit %d, stdout %r, stderr %r" % (
                name, n, code, out[-200:], err[-400:]))
        return wall
    for n in (full, warm, zero):  # untimed: checks the outputs and warms the file caches
        checked(n)
    times = {n: [] for n in (full, warm, zero)}
    for _ in range(runs):  # interleaved, so that a drift of the machine hits all three alike
        for n in times:
            times[n].append(checked(n))
    steady = [(t - statistics.median(times[warm])) / (full - warm) for t in times[full]]
    cold = (statistics.median(times[full]) - statistics.median(times[zero])) / full
    return steady, cold


def run(relay, runs, log=benchargs.silent):
    """Measures relay and the peer on every workload; returns a dict per implementation, relay's
    first: workload, impl, k, w and either median, min, max (the steady time per iteration, s),
    cold (the time per iteration from cold, s), rate (the median's, in unit) and unit, or error (what
    went wrong). A peer that cannot run here is left out, with a note on stderr."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for workload, k, w, peer_name, unit, amount in WORKLOADS:
            reference = {}

            def want(n, value):
                exact = expected(workload, n)
                return close(value, exact if exact is not None else reference.get(n, value))

            impls = [("relay", relay_cmd(relay, tmp, workload))]
            peer_cmd = peer(workload, tmp)
            if peer_cmd is None:
                print("%s: no peer (%s) on this machine" % (workload, peer_name), file=sys.stderr)
            else:
                impls.append((peer_name, peer_cmd))
                if expected(workload, k) is None:  # mlp: relay's outputs are checked against numpy's
                    for n in counts(workload):
                        _, _, code, out, _ = benchargs.run_once(peer_cmd(n), tmp)
                        if code == 0 and parse_float(out) is not None:
                            reference[n] = parse_float(out)
            if expected(workload, k) is None and len(reference) < len(counts(workload)):
                print("%s: nothing to check relay's result against; skipped" % workload, file=sys.stderr)
                continue
            for name, cmd_of in impls:
                log("tensor: %s / %s" % (workload, name))
                row = dict(workload=workload, impl=name, k=k, w=w)
                try:
                    steady, cold = measure("%s / %s" % (workload, name), cmd_of, workload, runs, want, tmp)
                except RuntimeError as e:
                    row["error"] = str(e)
                else:
                    row.update(benchargs.summary(steady), cold=cold, unit=unit)
                    row["rate"] = amount / row["median"] if row["median"] > 0 else None
                results.append(row)
    return results


def main():
    argv = sys.argv[1:]
    emit = None
    if "--emit" in argv:
        i = argv.index("--emit")
        emit = argv[i + 1]
        del argv[i:i + 2]
    relay, runs = benchargs.parse(argv)
    if emit:
        os.makedirs(emit, exist_ok=True)
        for workload, *_ in WORKLOADS:
            write_relay(workload, emit)
        print("wrote %s" % " ".join(sorted(os.listdir(emit))))
        return
    benchargs.check_relay(relay)
    ensure_packages()
    peers = versions()
    print("machine: %d CPUs (nproc), %s; OpenBLAS %s (OPENBLAS_NUM_THREADS=%s); %d timed runs each" % (
        os.cpu_count(), benchargs.cpu_model(), peers["openblas"], peers["openblas_threads"], runs))
    print("relay %s (%s) | %s | numpy %s (%s)" % (
        relay, benchargs.build_description(relay), peers["cc"], peers["numpy"], peers["numpy_python"]))
    print("ms per iteration = (time of a run of W + K iterations - median time of W-iteration runs) / K;")
    print("from cold = (median time of W + K iterations - median time of 0 iterations) / (W + K)")
    print()
    print("| workload | implementation | K | W | median ms | min ms | max ms | rate (median) | relay / this (time) "
          "| from cold ms |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    results = run(relay, runs)
    for r in results:
        if "error" in r:
            print("unexpected result: %s" % r["error"], file=sys.stderr)
    verdicts = []
    for workload, *_ in WORKLOADS:
        rows = [r for r in results if r["workload"] == workload and "error" not in r]
        relay_row = rows[0] if rows and rows[0]["impl"] == "relay" else None
        for r in rows:
            ratio = "%.2f" % (relay_row["median"] / r["median"]) if relay_row and r["median"] > 0 else "-"
            rate = "%.1f %s" % (r["rate"], r["unit"]) if r["rate"] else "-"
            print("| %s | %s | %d | %d | %.3f | %.3f | %.3f | %s | %s | %.3f |" % (
                workload, r["impl"], r["k"], r["w"], r["median"] * 1e3, r["min"] * 1e3, r["max"] * 1e3, rate,
                ratio, r["cold"] * 1e3))
        if relay_row and len(rows) == 2 and relay_row["median"] > 0 and relay_row["cold"] > 0:
            other = rows[1]
            verdicts.append((workload, other["impl"], other["median"] / relay_row["median"] * 100,
                             other["cold"] / relay_row["cold"] * 100))
    if verdicts:
        print()
    for workload, name, pct, cold_pct in verdicts:
        print("%s: relay runs at %.1f%% of %s's rate (target >= %d%%: %s); from cold %.1f%%" % (
            workload, pct, name, TARGETS[workload], "met" if pct >= TARGETS[workload] else "NOT met", cold_pct))
    if any("error" in r for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
