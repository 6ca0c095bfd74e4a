"""Expected values of the h4-y1 operators' golden tests (tests/golden/ops/), computed by numpy following TVM's
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
// groups=2. Expected values: tests/tools/gen_y1.py.
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
// tests/tools/gen_y1.py.
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
// uint8 by int8 into int32. Expected values: tests/tools/gen_y1.py.
// args: --no-prelude
''', L)
