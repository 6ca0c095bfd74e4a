"""Expected values of the packed-layout, Winograd, GEMM-convolution and simulated-quantization operators' golden tests (tests/golden/ops/), computed by numpy following TVM's
topi and topi.testing references: nn.contrib_conv2d_NCHWc and its depthwise form (conv2d on the unpacked layouts),
nn.contrib_dense_pack, the annotations. Run with /usr/bin/python3 (numpy); it rewrites the *_values.rly files it names."""
import os, sys, numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly
def write(name, header, lines):
    open(OPS + name, 'w').write(header + ''.join('// expect: %s\n' % e for e, _ in lines) + ''.join(p + '\n' for _, p in lines))
f64 = np.float64; f32 = np.float32; i32 = np.int32
rng = np.random.RandomState(11)
def ints(shape, lo=-3, hi=4, dt=f32): return rng.randint(lo, hi, size=shape).astype(dt)

def conv2d_nchw(x, w, stride=(1, 1), pad=(0, 0, 0, 0), dil=(1, 1), groups=1):
    """topi.testing.conv2d_nchw_python with groups: x (N, C, H, W), w (O, C/groups, KH, KW); pad (top, left, bottom, right)."""
    N, C, H, W = x.shape; O, Cg, KH, KW = w.shape
    xp = np.pad(x.astype(f64), [(0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])])
    dkh, dkw = (KH - 1) * dil[0] + 1, (KW - 1) * dil[1] + 1
    OH = (xp.shape[2] - dkh) // stride[0] + 1; OW = (xp.shape[3] - dkw) // stride[1] + 1
    y = np.zeros((N, O, OH, OW))
    og = O // groups
    for o in range(O):
        g = o // og
        for i in range(OH):
            for j in range(OW):
                win = xp[:, g * Cg:(g + 1) * Cg, i * stride[0]:i * stride[0] + dkh:dil[0], j * stride[1]:j * stride[1] + dkw:dil[1]]
                y[:, o, i, j] = (win * w[o].astype(f64)).sum(axis=(1, 2, 3))
    return y.astype(x.dtype)

def pack_nchwc(x, c):  # NCHW -> NCHW{c}c
    N, C, H, W = x.shape
    return x.reshape(N, C // c, c, H, W).transpose(0, 1, 3, 4, 2).copy()
def pack_oihwio(w, ib, ob):  # OIHW -> OIHW{ib}i{ob}o
    O, I, H, W = w.shape
    return w.reshape(O // ob, ob, I // ib, ib, H, W).transpose(0, 2, 4, 5, 3, 1).copy()

# ---- nn.contrib_conv2d_NCHWc
L = []
x = ints((1, 8, 5, 5)); w = ints((8, 8, 3, 3))
L.append((rly(pack_nchwc(conv2d_nchw(x, w, pad=(1, 1, 1, 1)), 4)),
          'nn.contrib_conv2d_NCHWc(%s, %s, channels=8, kernel_size=[3, 3], padding=[1, 1], data_layout="NCHW4c", kernel_layout="OIHW4i4o")'
          % (rly(pack_nchwc(x, 4)), rly(pack_oihwio(w, 4, 4)))))
x = ints((2, 4, 6, 5)); w = ints((6, 4, 2, 3))
L.append((rly(pack_nchwc(conv2d_nchw(x, w, stride=(2, 1), dil=(1, 2), pad=(0, 1, 1, 0)), 3)),
          'nn.contrib_conv2d_NCHWc(%s, %s, channels=6, kernel_size=[2, 3], strides=[2, 1], dilation=[1, 2], padding=[0, 1, 1, 0], data_layout="NCHW2c", kernel_layout="OIHW2i3o", out_layout="NCHW3c")'
          % (rly(pack_nchwc(x, 2)), rly(pack_oihwio(w, 2, 3)))))
x = ints((1, 4, 4, 4), dt=f64); w = ints((4, 4, 1, 1), dt=f64)
L.append((rly(conv2d_nchw(x, w)),
          'nn.contrib_conv2d_NCHWc(%s, %s, channels=4, kernel_size=[1, 1], data_layout="NCHW4c", kernel_layout="OIHW4i1o", out_layout="NCHW")'
          % (rly(pack_nchwc(x, 4)), rly(pack_oihwio(w, 4, 1)))))
x = ints((1, 4, 3, 3), dt=i32); w = ints((4, 2, 2, 2), dt=i32)
L.append((rly(pack_nchwc(conv2d_nchw(x, w, groups=2), 2)),
          'nn.contrib_conv2d_NCHWc(%s, %s, channels=4, kernel_size=[2, 2], groups=2, data_layout="NCHW2c", kernel_layout="OIHW2i2o")'
          % (rly(pack_nchwc(x, 2)), rly(pack_oihwio(w, 2, 2)))))
write('contrib_conv2d_nchwc_values.rly', '''// nn.contrib_conv2d_NCHWc (the operator TVM's AlterOpLayout makes of nn.conv2d on x86): the value is nn.conv2d on
// the unpacked layouts (topi.testing's conv2d_nchw_python), packed into out_layout. NCHW4c by OIHW4i4o with padding;
// NCHW2c by OIHW2i3o into NCHW3c with strides, dilation and asymmetric padding; float64 into plain NCHW; int32 with
// groups=2. Expected values: tests/tools/gen_packed_conv.py.
// args: --no-prelude
''', L)

# ---- nn.contrib_depthwise_conv2d_NCHWc (topi's depthwise_conv2d_NCHWc: kernel OIHW1i{oc}o, groups = channels)
L = []
x = ints((1, 8, 4, 4)); w = ints((8, 1, 3, 3))
L.append((rly(pack_nchwc(conv2d_nchw(x, w, pad=(1, 1, 1, 1), groups=8), 4)),
          'nn.contrib_depthwise_conv2d_NCHWc(%s, %s, channels=8, kernel_size=[3, 3], padding=[1, 1], groups=8, data_layout="NCHW4c", kernel_layout="OIHW1i4o")'
          % (rly(pack_nchwc(x, 4)), rly(pack_oihwio(w, 1, 4)))))
x = ints((1, 4, 5, 5)); w = ints((4, 1, 2, 2))
L.append((rly(conv2d_nchw(x, w, stride=(2, 2), groups=4)),
          'nn.contrib_depthwise_conv2d_NCHWc(%s, %s, strides=[2, 2], groups=4, data_layout="NCHW2c", kernel_layout="OIHW1i2o", out_layout="NCHW")'
          % (rly(pack_nchwc(x, 2)), rly(pack_oihwio(w, 1, 2)))))
write('contrib_depthwise_conv2d_nchwc_values.rly', '''// nn.contrib_depthwise_conv2d_NCHWc: depthwise nn.conv2d (groups = channels) on the unpacked layouts, the weight
// packed OIHW1i{n}o as topi packs it; channels and kernel_size given, then taken from the weight. Expected values:
// tests/tools/gen_packed_conv.py.
// args: --no-prelude
''', L)

# ---- nn.contrib_dense_pack (topi.nn.dense_pack: weight (N // n, K, n), out[y, x] = sum_k data[y, k] * w[x // n, k, x % n])
L = []
x = ints((3, 5)); w = ints((8, 5))
L.append((rly(x @ w.T), 'nn.contrib_dense_pack(%s, %s, weight_layout="NC4n")' % (rly(x), rly(w.reshape(2, 4, 5).transpose(0, 2, 1).copy()))))
x = ints((2, 4), dt=f64); w = ints((6, 4), dt=f64)
L.append((rly(x @ w.T), 'nn.contrib_dense_pack(%s, %s, units=6, weight_layout="NC2n2c")'
          % (rly(x), rly(w.reshape(3, 2, 2, 2).transpose(0, 2, 1, 3).copy()))))
x = ints((2, 3), dt=np.uint8, lo=0); w = ints((4, 3), dt=np.int8)
L.append((rly(x.astype(i32) @ w.astype(i32).T), 'nn.contrib_dense_pack(%s, %s, weight_layout="NC1n", out_dtype="int32")'
          % (rly(x), rly(w.reshape(4, 1, 3).transpose(0, 2, 1).copy()))))
write('contrib_dense_pack_values.rly', '''// nn.contrib_dense_pack (what TVM's x86 AlterOpLayout makes of nn.dense): data (M, K) by the weight packed as
// topi.nn.dense_pack packs it ("NC4n": (N / 4, K, 4)); float32; float64 packed "NC2n2c" (N / 2, K / 2, 2, 2);
// uint8 by int8 into int32. Expected values: tests/tools/gen_packed_conv.py.
// args: --no-prelude
''', L)

# ---- Winograd: topi's winograd_util (Cook-Toom matrices, transcribed) and _conv2d_winograd_nchw_impl
from operator import mul
from functools import reduce
def _cook_toom_convolution(a, n, r):
    def _F_m(a, n):
        f = lambda j, i: reduce(mul, ((a[i] - a[k] if k != i else 1) for k in range(0, n - 1)), 1)
        F = np.fromfunction(np.vectorize(f), (1, n - 1), dtype=int)
        F = np.diagflat(F)
        F = np.append(F, np.zeros((n - 1, 1), dtype=int), axis=1)
        f = lambda i, j: (1 if j == (n - 1) else 0)
        z = np.fromfunction(np.vectorize(f), (1, n), dtype=int)
        return np.append(F, z, axis=0)
    def _A_m(a, m, n):
        f = lambda i, j: a[i] ** j
        A = np.fromfunction(np.vectorize(f), (m - 1, n), dtype=int)
        f = lambda i, j: (1 if j == (n - 1) else 0)
        z = np.fromfunction(np.vectorize(f), (1, n), dtype=int)
        return np.append(A, z, axis=0)
    def _B_m(a, n):
        f = lambda j, i: reduce(mul, ((a[i] - a[k] if k != i else 1) for k in range(0, n - 1)), 1)
        Ff = np.fromfunction(np.vectorize(f), (1, n - 1), dtype=int)
        f = (lambda i, nth: (reduce(mul, [(np.poly1d([1, -a[k]]) if k != i else 1) for k in range(0, n - 1)], 1)).coef[n - 1 - nth - 1] / Ff[0, i])
        F = np.fromfunction(np.vectorize(f), (n - 1, n - 1), dtype=int)
        f = lambda i, j: -a[i] ** (n - 1)
        t = np.fromfunction(np.vectorize(f), (n - 1, 1), dtype=int)
        T = np.append(np.eye(n - 1), t, axis=1)
        return np.append(F.T.dot(T), np.array([np.eye(n)[n - 1]]), axis=0)
    alpha = n + r - 1
    f = _F_m(a, alpha)
    if f[0, 0] < 0: f[0, :] *= -1
    A = _A_m(a, alpha, n)
    G = _A_m(a, alpha, r).T
    G = G.dot(np.linalg.inv(f)).T
    B = _B_m(a, alpha)
    B = B.dot(f.T)
    return (A, B, G)
PTS = {3: [0, -1, 1], 4: [0, -1, 1, 1 / 2], 5: [0, -1, 1, 1 / 2, -2], 6: [0, -1, 1, 1 / 2, -2, -1 / 2],
       7: [0, -1, 1, 1 / 2, -1 / 2, 2, -2]}
def winograd_matrices(m, r, dt):
    A, B, G = _cook_toom_convolution(np.array(PTS[m + r - 2], dtype=f64), m, r)
    return A.astype(dt).astype(f64), B.astype(dt).astype(f64), G.astype(dt).astype(f64)
def weight_transform(w, m):  # topi.nn.conv2d_winograd_weight_transform: (alpha, alpha, CO, CI)
    _, _, G = winograd_matrices(m, w.shape[3], w.dtype)
    return np.einsum('oihw,eh,nw->enoi', w.astype(f64), G, G).astype(w.dtype)
def winograd_conv(x, U, m, r, pad):  # _conv2d_winograd_nchw_impl, the weight (alpha, alpha, CO, CI)
    A, B, _ = winograd_matrices(m, r, x.dtype)
    N, CI, H, W = x.shape; n = m + r - 1; CO = U.shape[2]
    OH = H + pad[0] + pad[2] - r + 1; OW = W + pad[1] + pad[3] - r + 1
    nH, nW = (OH + m - 1) // m, (OW + m - 1) // m
    xp = np.zeros((N, CI, nH * m + r, nW * m + r))
    xp[:, :, pad[0]:pad[0] + H, pad[1]:pad[1] + W] = x
    y = np.zeros((N, CO, nH * m, nW * m))
    for b in range(N):
        for i in range(nH):
            for j in range(nW):
                d = xp[b, :, i * m:i * m + n, j * m:j * m + n]
                V = np.einsum('cab,ae,bn->enc', d, B, B)
                M = np.einsum('enc,enoc->eno', V, U.astype(f64))
                y[b, :, i * m:(i + 1) * m, j * m:(j + 1) * m] = np.einsum('abo,ah,bw->ohw', M, A, A)
    return y[:, :, :OH, :OW].astype(x.dtype)
L = []
w = ints((2, 3, 3, 3))
L.append((rly(weight_transform(w, 2)), 'nn.contrib_conv2d_winograd_weight_transform(%s, tile_size=2)' % rly(w)))
w = ints((1, 1, 3, 3), dt=f64)
L.append((rly(weight_transform(w, 4)), 'nn.contrib_conv2d_winograd_weight_transform(%s, tile_size=4)' % rly(w)))
write('contrib_conv2d_winograd_weight_transform_values.rly', '''// nn.contrib_conv2d_winograd_weight_transform (topi's conv2d_winograd_weight_transform: G w G^T with topi's
// Cook-Toom matrices, cast to the weight's dtype): F(2, 3) in float32, F(4, 3) in float64. Expected values:
// tests/tools/gen_packed_conv.py.
// args: --no-prelude
''', L)
L = []
x = ints((1, 3, 5, 6)); w = ints((4, 3, 3, 3))
U = weight_transform(w, 2); y = winograd_conv(x, U, 2, 3, (1, 1, 1, 1))
assert np.allclose(y, conv2d_nchw(x, w, pad=(1, 1, 1, 1)))
L.append((rly(y), 'nn.contrib_conv2d_winograd_without_weight_transform(%s, %s, tile_size=2, channels=4, kernel_size=[3, 3], padding=[1, 1])' % (rly(x), rly(U))))
x = ints((2, 2, 5, 4)); w = ints((2, 2, 3, 3))
U = weight_transform(w, 2); y = winograd_conv(x, U, 2, 3, (0, 1, 0, 0))
assert np.allclose(y, conv2d_nchw(x, w, pad=(0, 1, 0, 0)))
L.append((rly(pack_nchwc(y, 2)), 'nn.contrib_conv2d_winograd_without_weight_transform(%s, %s, tile_size=2, channels=2, kernel_size=[3, 3], padding=[0, 1, 0, 0], data_layout="NCHW2c")' % (rly(pack_nchwc(x, 2)), rly(U))))
x = ints((1, 2, 6, 6), dt=f64); w = ints((1, 2, 3, 3), dt=f64)
U = weight_transform(w, 4); y = winograd_conv(x, U, 4, 3, (0, 0, 0, 0))
assert np.allclose(y, conv2d_nchw(x, w))
L.append((rly(np.round(y)), 'round(nn.contrib_conv2d_winograd_without_weight_transform(%s, %s, tile_size=4, channels=1, kernel_size=[3, 3]))' % (rly(x), rly(U))))
L.append((rly(conv2d_nchw(x, w, pad=(1, 1, 1, 1))), 'round(nn.contrib_conv2d_winograd_without_weight_transform(%s, nn.contrib_conv2d_winograd_weight_transform(%s, tile_size=4), tile_size=4, channels=1, kernel_size=[3, 3], padding=[1, 1]))' % (rly(x), rly(w))))
write('contrib_conv2d_winograd_values.rly', '''// nn.contrib_conv2d_winograd_without_weight_transform (topi's _conv2d_winograd_nchw_impl, transcribed in
// tests/tools/gen_packed_conv.py, checked there against conv2d on the untransformed weight): F(2, 3) with padding; NCHW2c data
// with one-sided padding; F(4, 3) in float64 (its B and G are not exact in binary: rounded to integers, which the
// exact convolution is), then fed by nn.contrib_conv2d_winograd_weight_transform.
// args: --no-prelude
''', L)

# ---- qnn.simulated_quantize / simulated_dequantize (topi.nn.qnn: codes 0 disable, 1 int8, 2 uint8, 3 int32;
# scale and zero point indexed by the axis coordinate modulo their length; tir.round rounds halves away from zero)
def round_away(v): return np.sign(v) * np.floor(np.abs(v) + 0.5)
BOUNDS = {1: (-128, 127), 2: (0, 255), 3: (-2147483648, 2147483647)}
def sim_q(x, code, s, z, axis=-1):
    if code not in BOUNDS: return x
    s = np.atleast_1d(s); z = np.atleast_1d(z); ax = axis % x.ndim
    idx = np.arange(x.shape[ax]); sh = [1] * x.ndim; sh[ax] = -1
    S = s[idx % len(s)].reshape(sh).astype(f64); Z = z[idx % len(z)].reshape(sh).astype(f64)
    lo, hi = BOUNDS[code]
    return np.clip(round_away(x.astype(f64) / S) + Z, lo, hi).astype(x.dtype)
def sim_dq(x, code, s, z, axis=-1):
    if code not in BOUNDS: return x
    s = np.atleast_1d(s); z = np.atleast_1d(z); ax = axis % x.ndim
    idx = np.arange(x.shape[ax]); sh = [1] * x.ndim; sh[ax] = -1
    S = s[idx % len(s)].reshape(sh).astype(f64); Z = z[idx % len(z)].reshape(sh).astype(f64)
    return ((x.astype(f64) - Z) * S).astype(x.dtype)
L = []
x = np.array([[-300.0, -1.25, 0.25, 0.75], [2.5, 3.5, 100.0, 700.0]], dtype=f32)
for code, s, z, axis in [(1, np.array(0.5, f32), np.array(3, i32), -1), (2, np.array(0.5, f32), np.array(10, i32), -1),
                         (3, np.array(0.25, f32), np.array(-1, i32), -1), (0, np.array(0.5, f32), np.array(3, i32), -1),
                         (1, np.array([0.5, 2.0], f32), np.array([0, 5], i32), 0)]:
    L.append((rly(sim_q(x, code, s, z, axis)), 'qnn.simulated_quantize(%s, %s, %s, %s, axis=%d)' % (rly(x), rly(np.array(code, i32)), rly(s), rly(z), axis)))
q = np.array([[-128.0, -3.0, 0.0, 5.0], [7.0, 127.0, 200.0, 255.0]], dtype=f32)
for code, s, z, axis in [(1, np.array(0.5, f32), np.array(3, i32), -1), (2, np.array([0.25, 1.0, 2.0, 0.5], f32), np.array([1, 2, 3, 4], i32), 1),
                         (0, np.array(0.5, f32), np.array(3, i32), -1)]:
    L.append((rly(sim_dq(q, code, s, z, axis)), 'qnn.simulated_dequantize(%s, %s, %s, %s, axis=%d)' % (rly(q), rly(np.array(code, i32)), rly(s), rly(z), axis)))
write('qnn_simulated_quantize_values.rly', '''// qnn.simulated_quantize / qnn.simulated_dequantize (topi.nn.qnn's, transcribed in tests/tools/gen_packed_conv.py): the dtype
// code tensor picks int8 (1), uint8 (2), int32 (3) or none (0: the data); clip(round(x / scale) + zero_point) with
// halves away from zero, (x - zero_point) * scale; per-channel parameters along `axis`.
// args: --no-prelude
''', L)

# ---- auto_scheduler_layout_transform (topi's: per src axis, the index combined from the dst axes of its name)
import re, itertools
def parse_auto(s): return [(int(f), a) for f, a in re.findall(r'(\d+)([A-Za-z]+)', s)]
def auto_transform(x, src, dst):
    S = [a for _, a in parse_auto(src)]; D = parse_auto(dst)
    y = np.zeros([f for f, _ in D], dtype=x.dtype)
    for idx in itertools.product(*[range(f) for f, _ in D]):
        si = []
        for a in S:
            v = 0
            for (f, b), i in zip(D, idx):
                if b == a: v = v * f + i
            si.append(v)
        y[idx] = x[tuple(si)]
    return y
L = []
x = ints((8, 3, 2, 2))  # OIHW weight -> "2o3i2h2w4o" style (auto-scheduler's rewritten layout)
L.append((rly(auto_transform(x, "8o3i2h2w", "2o3i2h2w4o")), 'auto_scheduler_layout_transform(%s, src_layout="8o3i2h2w", dst_layout="2o3i2h2w4o")' % rly(x)))
x = ints((2, 6), dt=i32)
L.append((rly(auto_transform(x, "2n6k", "3k2n2k")), 'auto_scheduler_layout_transform(%s, src_layout="2n6k", dst_layout="3k2n2k")' % rly(x)))
write('auto_scheduler_layout_transform_values.rly', '''// auto_scheduler_layout_transform (topi's, transcribed in tests/tools/gen_packed_conv.py): the output has dst_layout's
// factors; an axis split in dst is read outermost first. Expected values: tests/tools/gen_packed_conv.py.
// args: --no-prelude
''', L)

# ---- qnn.contrib_dense_pack: qnn.dense's value ((x - zp_x)(w - zp_w)^T in int32) on the weight unpacked from NC{n}n{c}c
L = []
x = ints((2, 8), lo=0, hi=20, dt=np.uint8); w = ints((4, 8), lo=-20, hi=20, dt=np.int8)
wp = w.reshape(2, 2, 2, 4).transpose(0, 2, 1, 3).copy()  # NC2n4c: (N/2, K/4, 2, 4)
L.append((rly((x.astype(i32) - 3) @ (w.astype(i32) - 0).T),
          'qnn.contrib_dense_pack(%s, %s, 3, 0, 0.5f, 0.25f, weight_layout="NC2n4c", out_dtype="int32")' % (rly(x), rly(wp))))
zw = np.array([1, -2, 0, 3], i32)
L.append((rly((x.astype(i32) - 0) @ (w.astype(i32) - zw[:, None]).T),
          'qnn.contrib_dense_pack(%s, %s, 0, %s, 0.5f, [0.25f, 0.5f, 1f, 2f], weight_layout="NC2n4c", out_dtype="int32")' % (rly(x), rly(wp), rly(zw))))
write('qnn_contrib_dense_pack_values.rly', '''// qnn.contrib_dense_pack (TVM's x86 int8 dense in the NC{n}n4c packing): qnn.dense's value on the unpacked weight,
// (data - input_zero_point)(weight - kernel_zero_point)^T in int32; a scalar and a per-channel kernel zero point.
// Expected values: tests/tools/gen_packed_conv.py.
// args: --no-prelude
''', L)

# ---- GEMM convolution: topi's conv2d_gemm_weight_transform (transcribed) and conv2d NHWC on the HWIO weight
def gemm_transform(w, n, k):
    KH, KW, IC, OC = w.shape; K = KH * KW * IC; N = OC
    flat = w.reshape(K, N)
    pN = (n - N % n) % n; pK = (4 * k - K % (4 * k)) % (4 * k)
    flat = np.pad(flat, [(0, pK), (0, pN)])
    Np, Kp = N + pN, K + pK
    return flat.reshape(Kp // k, k, Np // n, n).transpose(2, 0, 3, 1).copy()
L = []
w = ints((2, 2, 3, 5))
L.append((rly(gemm_transform(w, 4, 4)), 'nn.contrib_conv2d_gemm_weight_transform(%s, tile_rows=4, tile_cols=4)' % rly(w)))
w = ints((1, 1, 4, 2), dt=i32)
L.append((rly(gemm_transform(w, 2, 1)), 'nn.contrib_conv2d_gemm_weight_transform(%s, tile_rows=2, tile_cols=1)' % rly(w)))
x = ints((1, 4, 5, 3)); w = ints((2, 2, 3, 5))
y = conv2d_nchw(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), pad=(1, 0, 0, 1)).transpose(0, 2, 3, 1)
L.append((rly(y), 'nn.contrib_conv2d_gemm_without_weight_transform(%s, %s, channels=5, kernel_size=[2, 2], padding=[1, 0, 0, 1], data_layout="NHWC", kernel_layout="HWIO")'
          % (rly(x), rly(gemm_transform(w, 4, 4)))))
x = ints((2, 5, 5, 2)); w = ints((3, 3, 2, 3))
y = conv2d_nchw(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), stride=(2, 2)).transpose(0, 2, 3, 1)
L.append((rly(y), 'nn.contrib_conv2d_gemm_without_weight_transform(%s, nn.contrib_conv2d_gemm_weight_transform(%s, tile_rows=2, tile_cols=2), channels=3, kernel_size=[3, 3], strides=[2, 2], data_layout="NHWC", kernel_layout="HWIO")'
          % (rly(x), rly(w))))
write('contrib_conv2d_gemm_values.rly', '''// nn.contrib_conv2d_gemm_weight_transform (topi's: HWIO flattened to (K, N), padded, blocked by tile_rows x
// tile_cols) and nn.contrib_conv2d_gemm_without_weight_transform (arm_cpu's conv2d_gemm: its value is conv2d NHWC
// by the HWIO weight; topi.testing's conv2d). Expected values: tests/tools/gen_packed_conv.py.
// args: --no-prelude
''', L)
