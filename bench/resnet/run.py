#!/usr/bin/env python3
"""ResNet-18 benchmark: relay runs TVM's quick-start ResNet-18 (resnet18.rly, exactly as TVM printed
it: batch 1, 3x224x224 float32, batch_norm, conv2d, pools, dense, softmax) forward with filled
weights, and its rate in GFLOP/s is compared with single-thread cblas_sgemm (OpenBLAS) measured in
the same run.

Method: the runner writes one relay program that defines the model (its @main renamed @resnet18),
builds the data and every weight once (full() of values that keep the activations bounded:
gamma 1, beta 0, moving mean 0, moving variance 1, each convolution's or dense weight 1/fan-in),
runs the forward pass n times in a loop and prints the sum of the last softmax (1 within float32
rounding: the check that it ran). It runs with n = W + K and n = W, interleaved, N times each; the
time per forward pass is (median time of W + K - median time of W) / K, so start-up, parsing,
checking, building the weights and the warm-up cancel. The FLOPs are those of the convolutions and
the dense layer (2 * multiply-adds), computed from the shapes TVM wrote in the program:
about 3.6 GFLOP. The peer is bench/tensor/dense.c (K products of two 1024x1024 float32 matrices,
each one cblas_sgemm), timed the same way. Both run with OPENBLAS_NUM_THREADS=1: the target is
relay's rate at least 50% of one core's sgemm.

Usage: bench/resnet/run.py [RELAY_BINARY] [--runs N]   (default build-release/relay, 5 runs)
bench/run imports this file and calls run(), which returns the figures as a dict.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchargs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "resnet18.rly")
DENSE_C = os.path.join(os.path.dirname(HERE), "tensor", "dense.c")
W, K = 2, 10          # relay: warm-up and timed forward passes
PEER_W, PEER_K = 5, 40  # sgemm: warm-up and timed 1024^3 products
TARGET = 0.50


def params(text):
    """(name, shape) of @main's parameters, in order."""
    head = text[text.index("def @main("):text.index(") -> ") if ") -> " in text else text.index(") {")]
    return [(m.group(1), [int(d) for d in m.group(2).split(",")])
            for m in re.finditer(r"%(\w+): Tensor\[\(([\d, ]+)\), float32\]", head)]


def flops(text, shapes):
    """2 * multiply-adds of every nn.conv2d and nn.dense, from the weights' shapes and the result types."""
    total = 0
    for m in re.finditer(r"= nn\.(conv2d|dense)\(%\w+, %(\w+)[^/]*/\* ty=Tensor\[\(([\d, ]+)\)", text):
        out = [int(d) for d in m.group(3).split(",")]
        w = shapes[m.group(2)]
        n = 1
        for d in out:
            n *= d
        per = 1
        for d in w[1:]:
            per *= d
        total += 2 * n * per
    return total


def fill(name, shape):
    if name.endswith("gamma") or name.endswith("moving_var"):
        return "1f"
    if name.endswith("beta") or name.endswith("moving_mean") or name.endswith("bias"):
        return "0f"
    if name == "data":
        return "0.5f"
    fan_in = 1
    for d in shape[1:]:
        fan_in *= d
    return repr(1.0 / fan_in) + "f"


def program(text):
    ps = params(text)
    body = text.replace("def @main(", "def @resnet18(", 1)
    lines = [body, "", "def @bench(%n: int32) -> float32 {"]
    for name, shape in ps:
        lines.append("  let %%%s = full(%s, shape=%s);" % (name, fill(name, shape), shape))
    call = "@resnet18(%s)" % ", ".join("%" + n for n, _ in ps)
    lines.append("  let %%loop = fn (%%i: int32, %%acc: Tensor[(1, 1000), float32]) -> Tensor[(1, 1000), float32] {\n"
                 "    if (%%i == 0) { %%acc } else { %%loop(%%i - 1, %s) }\n  };" % call)
    lines.append("  sum(%loop(%n, zeros(shape=[1, 1000])))\n}")
    return "\n".join(lines) + "\n", flops(text, dict(ps))


def timed(cmd, env):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    return dt, p.stdout.strip()


def per_iter(run_n, w, k, runs):
    """(seconds per iteration, outputs): median(W + K) - median(W), over K."""
    a, b, outs = [], [], []
    for _ in range(runs):
        t, out = run_n(w + k)
        a.append(t)
        outs.append(out)
        t, _ = run_n(w)
        b.append(t)
    return (statistics.median(a) - statistics.median(b)) / k, outs


def run(relay, runs=5, log=lambda m: print(m, file=sys.stderr)):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    text = open(MODEL).read()
    src, fl = program(text)
    tmp = tempfile.mkdtemp(prefix="relay-resnet-")
    try:
        prog = os.path.join(tmp, "resnet18_bench.rly")
        with open(prog, "w") as f:
            f.write(src)
        peer = os.path.join(tmp, "dense")
        subprocess.run(["cc", "-O2", "-o", peer, DENSE_C, "-lopenblas"], check=True)

        def relay_n(n):
            with open(os.path.join(tmp, "main.rly"), "w") as f:
                f.write(src + "@bench(%d)\n" % n)
            return timed([relay, "--no-prelude", os.path.join(tmp, "main.rly")], env)

        log("resnet18: checking")
        _, out = relay_n(1)
        if abs(float(out.rstrip("f")) - 1.0) > 1e-3:
            raise RuntimeError("resnet18: the softmax sums to %s, not 1" % out)
        log("resnet18: %d runs of %d and %d forward passes" % (runs, W + K, W))
        t_relay, outs = per_iter(relay_n, W, K, runs)
        bad = [o for o in outs if abs(float(o.rstrip("f")) - 1.0) > 1e-3]
        log("sgemm peer: %d runs of %d and %d products" % (runs, PEER_W + PEER_K, PEER_W))
        t_peer, _ = per_iter(lambda n: timed([peer, str(n)], env), PEER_W, PEER_K, runs)
    finally:
        shutil.rmtree(tmp)
    relay_rate = fl / t_relay / 1e9
    peer_rate = 2 * 1024 ** 3 / t_peer / 1e9
    return {"flops": fl, "relay_s": t_relay, "relay_gflops": relay_rate, "peer_s": t_peer,
            "peer_gflops": peer_rate, "ratio": relay_rate / peer_rate, "target": TARGET,
            "met": relay_rate / peer_rate >= TARGET, "wrong": bad}


def table(r):
    return "\n".join([
        "| workload | time per pass | GFLOP/s | % of one-thread sgemm |",
        "| --- | ---: | ---: | ---: |",
        "| ResNet-18 forward (relay, %.2f GFLOP) | %.1f ms | %.1f | %.0f%% |" % (
            r["flops"] / 1e9, r["relay_s"] * 1e3, r["relay_gflops"], 100 * r["ratio"]),
        "| sgemm 1024^3 (OpenBLAS, 1 thread) | %.1f ms | %.1f | 100%% |" % (r["peer_s"] * 1e3, r["peer_gflops"]),
    ])


def main():
    relay, runs = benchargs.parse(sys.argv[1:])
    benchargs.limit_stack()
    r = run(relay, runs)
    print(table(r))
    print("\ntarget: ResNet-18 at >= %d%% of one-thread sgemm: %s" % (
        100 * TARGET, "met" if r["met"] else "missed"))
    sys.exit(1 if r["wrong"] else 0)


if __name__ == "__main__":
    main()
