"""Expected values of the padding, resizing, batching and transposed operators' golden tests (tests/golden/ops/), computed by numpy following TVM's
topi.testing references: mirror_pad, space_to_batch_nd / batch_to_space_nd, conv1d/conv3d_transpose, ...
Run with /usr/bin/python3 (numpy); it rewrites the *_values.rly files it names."""
import os, sys, numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly
def write(name, header, lines):
    open(OPS + name, 'w').write(header + ''.join('// expect: %s\n' % e for e, _ in lines) + ''.join(p + '\n' for _, p in lines))
f64 = np.float64; f32 = np.float32; i32 = np.int32
rng = np.random.RandomState(7)
def ints(shape, lo=-5, hi=6, dt=f32): return rng.randint(lo, hi, size=shape).astype(dt)

# ---- nn.mirror_pad (topi: REFLECT is numpy's reflect, SYMMETRIC numpy's symmetric)
L = []
x = ints((2, 3))
L.append((rly(np.pad(x, [(1, 2), (3, 1)], mode='symmetric')), 'nn.mirror_pad(%s, pad_width=[[1, 2], [3, 1]])' % rly(x)))
L.append((rly(np.pad(x, [(1, 0), (2, 2)], mode='reflect')), 'nn.mirror_pad(%s, pad_width=[[1, 0], [2, 2]], mode="REFLECT")' % rly(x)))
x = ints((1, 2, 3, 4), dt=f64)
L.append((rly(np.pad(x, [(0, 0), (0, 0), (2, 1), (1, 3)], mode='reflect')),
          'nn.mirror_pad(%s, pad_width=[[0, 0], [0, 0], [2, 1], [1, 3]], mode="REFLECT")' % rly(x)))
x = ints((5,), dt=i32)
L.append((rly(np.pad(x, [(5, 4)], mode='symmetric')), 'nn.mirror_pad(%s, pad_width=[[5, 4]], mode="SYMMETRIC")' % rly(x)))
x = ints((2, 2), dt=np.int8)
L.append((rly(np.pad(x, [(0, 0), (0, 0)], mode='symmetric')), 'nn.mirror_pad(%s, pad_width=[[0, 0], [0, 0]])' % rly(x)))
write('mirror_pad_values.rly', '''// nn.mirror_pad (numpy's np.pad as reference): mode "SYMMETRIC" (the default; the edge repeated, up to the size)
// and "REFLECT" (the edge not repeated, up to the size - 1); float32, float64 NCHW, int32 padded by the whole size,
// int8 with no padding. Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- nn.space_to_batch_nd / nn.batch_to_space_nd (TF's definition, as topi.testing's
# space_to_batch_nd_python: pad, reshape to (batch, p1/b1, b1, ..., rest), move the blocks first, merge)
def s2b(x, block, pads, value=0):
    m = len(block)
    x = np.pad(x, [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)] * (x.ndim - m - 1), constant_values=value)
    B = x.shape[0]; rest = x.shape[m + 1:]
    sh = [B]
    for i, b in enumerate(block): sh += [x.shape[i + 1] // b, b]
    y = x.reshape(sh + list(rest))
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(2 * m + 1, y.ndim))
    y = y.transpose(perm)
    return y.reshape([B * int(np.prod(block))] + [x.shape[i + 1] // block[i] for i in range(m)] + list(rest))
def b2s(x, block, crops):
    m = len(block); P = int(np.prod(block)); B = x.shape[0] // P; rest = x.shape[m + 1:]
    y = x.reshape(list(block) + [B] + list(x.shape[1:]))
    perm = [m]
    for i in range(m): perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, y.ndim))
    y = y.transpose(perm).reshape([B] + [x.shape[i + 1] * block[i] for i in range(m)] + list(rest))
    sl = [slice(None)] + [slice(c[0], y.shape[i + 1] - c[1]) for i, c in enumerate(crops)]
    return y[tuple(sl)]
L = []
x = ints((1, 4, 4, 1))
L.append((rly(s2b(x, [2, 2], [[0, 0], [0, 0]])), 'nn.space_to_batch_nd(%s, block_shape=[2, 2], paddings=[[0, 0], [0, 0]])' % rly(x)))
x = ints((2, 3, 5, 2))
L.append((rly(s2b(x, [2, 3], [[1, 0], [0, 1]], 1.5)),
          'nn.space_to_batch_nd(%s, block_shape=[2, 3], paddings=[[1, 0], [0, 1]], pad_value=1.5f)' % rly(x)))
x = ints((2, 6), dt=i32)
L.append((rly(s2b(x, [4], [[1, 1]])), 'nn.space_to_batch_nd(%s, block_shape=[4], paddings=[[1, 1]])' % rly(x)))
x = ints((8, 1, 2, 1), dt=f64)
L.append((rly(b2s(x, [2, 2], [[0, 0], [0, 0]])), 'nn.batch_to_space_nd(%s, block_shape=[2, 2], crops=[[0, 0], [0, 0]])' % rly(x)))
x = ints((12, 2, 2, 2))
L.append((rly(b2s(x, [2, 3], [[1, 0], [0, 2]])), 'nn.batch_to_space_nd(%s, block_shape=[2, 3], crops=[[1, 0], [0, 2]])' % rly(x)))
x = ints((2, 3, 5, 2), dt=np.int8)
L.append((rly(b2s(s2b(x, [2, 3], [[1, 0], [0, 1]]), [2, 3], [[1, 0], [0, 1]])),
          'nn.batch_to_space_nd(nn.space_to_batch_nd(%s, block_shape=[2, 3], paddings=[[1, 0], [0, 1]]), block_shape=[2, 3], crops=[[1, 0], [0, 1]])' % rly(x)))
write('space_to_batch_nd_values.rly', '''// nn.space_to_batch_nd and nn.batch_to_space_nd (TF's definition, as topi.testing's numpy references): 2 blocks
// over NHWC, with paddings and a pad_value, one block over a matrix of int32; batch_to_space_nd with and without
// crops; the pair round-trips int8 data. Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- nn.conv1d_transpose / nn.conv3d_transpose (the scatter form of topi.testing.conv*_transpose_ncw/ncdhw_python,
# with groups and dilation): NC + d spatial data, IO + d spatial weights
import itertools
def conv_t(x, w, strides, lo, hi, opad, dil, groups=1):
    d = x.ndim - 2; N, C = x.shape[:2]; Og = w.shape[1]; Cg = C // groups
    ks = w.shape[2:]
    osz = [strides[i] * (x.shape[2 + i] - 1) + dil[i] * (ks[i] - 1) + 1 - lo[i] - hi[i] + opad[i] for i in range(d)]
    out = np.zeros([N, Og * groups] + osz, np.float64)
    for s in itertools.product(*[range(n) for n in x.shape[2:]]):
        for k in itertools.product(*[range(n) for n in ks]):
            p = [s[i] * strides[i] + k[i] * dil[i] - lo[i] for i in range(d)]
            if any(p[i] < 0 or p[i] >= osz[i] for i in range(d)): continue
            for g in range(groups):
                xs = x[(slice(None), slice(g * Cg, g * Cg + Cg)) + s].astype(np.float64)   # N, Cg
                ws = w[(slice(g * Cg, g * Cg + Cg), slice(None)) + k].astype(np.float64)   # Cg, Og
                out[(slice(None), slice(g * Og, g * Og + Og)) + tuple(p)] += xs @ ws
    return out.astype(x.dtype)
L = []
x = ints((2, 3, 4), -3, 4); w = ints((3, 2, 3), -2, 3)
L.append((rly(conv_t(x, w, [1], [0], [0], [0], [1])), 'nn.conv1d_transpose(%s, %s)' % (rly(x), rly(w))))
L.append((rly(conv_t(x, w, [2], [1], [0], [1], [1])),
          'nn.conv1d_transpose(%s, %s, channels=2, kernel_size=[3], strides=[2], padding=[1, 0], output_padding=[1])' % (rly(x), rly(w))))
x = ints((1, 4, 3), -3, 4, f64); w = ints((4, 1, 2), -2, 3, f64)
L.append((rly(conv_t(x, w, [1], [1], [1], [0], [2], groups=2)),
          'nn.conv1d_transpose(%s, %s, padding=[1], dilation=[2], groups=2)' % (rly(x), rly(w))))
xn = ints((1, 4, 3), -3, 4); wn = ints((2, 3, 4), -2, 3)   # NWC data, WIO weight: canonical w is (3, 4, 2)->IOW
ref = conv_t(xn.transpose(0, 2, 1), wn.transpose(1, 2, 0), [2], [0], [0], [0], [1]).transpose(0, 2, 1)
L.append((rly(ref), 'nn.conv1d_transpose(%s, %s, strides=[2], data_layout="NWC", kernel_layout="WIO")' % (rly(xn), rly(wn))))
x = ints((1, 2, 2, 2, 3), -3, 4); w = ints((2, 2, 2, 1, 2), -2, 3)
L.append((rly(conv_t(x, w, [1, 2, 1], [0, 0, 1], [0, 1, 0], [0, 1, 0], [1, 1, 1])),
          'nn.conv3d_transpose(%s, %s, strides=[1, 2, 1], padding=[0, 0, 1, 0, 1, 0], output_padding=[0, 1, 0])' % (rly(x), rly(w))))
x = ints((1, 2, 2, 1, 2), -3, 4, i32); w = ints((2, 1, 2, 2, 1), -2, 3, i32)
L.append((rly(conv_t(x, w, [2, 1, 1], [0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 1, 1])),
          'nn.conv3d_transpose(%s, %s, strides=[2, 1, 1])' % (rly(x), rly(w))))
write('conv1d_transpose_values.rly', '''// nn.conv1d_transpose and nn.conv3d_transpose (the scatter form of topi.testing's conv1d_transpose_ncw_python and
// conv3d_transpose_ncdhw_python, with groups and dilation): IOW / IODHW weights; strides, padding, output_padding;
// float64 with groups=2 and dilation 2; NWC data with a WIO weight; conv3d_transpose with per-axis padding and
// int32. Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- image.resize1d / image.resize3d / nn.upsampling3d (topi.testing.resize_python's rules: get_inx, get_closest_index,
# linear = nested lerps of the clamped neighbours)
import math
def inx(x, n, o, mode):
    s = n / o
    if mode == 'align_corners': return (n - 1) / (o - 1) * x if o > 1 else 0.0
    if mode == 'asymmetric': return s * x
    if mode == 'pytorch_half_pixel': return (x + 0.5) * s - 0.5 if o > 1 else 0.0
    if mode == 'tf_half_pixel_for_nn': return (x + 0.5) * s
    return (x + 0.5) * s - 0.5
def round_away(v):  # te.round is llvm.round: halves away from zero (np.round takes them to even)
    f = math.floor(abs(v)); return int(math.copysign(f + (abs(v) - f >= 0.5), v))
def closest(v, r):
    if r == 'round': return round_away(v)
    if r == 'round_prefer_floor': return math.ceil(v - 0.5)
    if r == 'round_prefer_ceil': return math.floor(v + 0.5)
    if r == 'ceil': return math.ceil(v - 1e-5)
    return math.floor(v + 1e-5)
def resize(x, size, method='linear', mode='half_pixel', rounding=''):
    d = len(size); sp = x.shape[2:]
    if not rounding: rounding = 'round' if mode == 'align_corners' else 'floor'
    out = np.zeros(x.shape[:2] + tuple(size), np.float64)
    cl = lambda i, n: min(max(i, 0), n - 1)
    for o in itertools.product(*[range(n) for n in size]):
        c = [inx(o[i], sp[i], size[i], mode) for i in range(d)]
        if method == 'nearest_neighbor':
            out[(Ellipsis,) + o] = x[(Ellipsis,) + tuple(cl(closest(c[i], rounding), sp[i]) for i in range(d))]
            continue
        lo = [math.floor(v) for v in c]; f = [c[i] - lo[i] for i in range(d)]
        acc = 0
        for bits in itertools.product([0, 1], repeat=d):
            w = np.prod([f[i] if bits[i] else 1 - f[i] for i in range(d)])
            acc = acc + w * x[(Ellipsis,) + tuple(cl(lo[i] + bits[i], sp[i]) for i in range(d))].astype(np.float64)
        out[(Ellipsis,) + o] = acc
    return out.astype(x.dtype)
L = []
x = ints((1, 2, 4))
L.append((rly(resize(x, [7])), 'image.resize1d(%s, size=[7])' % rly(x)))
L.append((rly(resize(x, [3], mode='align_corners')), 'image.resize1d(%s, size=[3], coordinate_transformation_mode="align_corners")' % rly(x)))
L.append((rly(resize(x, [6], 'nearest_neighbor', 'asymmetric')),
          'image.resize1d(%s, size=[6], method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="")' % rly(x)))
xn = ints((1, 3, 2), dt=f64)   # NWC
L.append((rly(resize(xn.transpose(0, 2, 1), [5], mode='pytorch_half_pixel').transpose(0, 2, 1)),
          'image.resize1d(%s, size=[5], layout="NWC", coordinate_transformation_mode="pytorch_half_pixel")' % rly(xn)))
x = ints((1, 1, 2, 2, 3))
L.append((rly(resize(x, [3, 3, 4])), 'image.resize3d(%s, size=[3, 3, 4])' % rly(x)))
x = ints((1, 2, 2, 1, 2), dt=i32)
L.append((rly(resize(x, [4, 2, 3], 'nearest_neighbor', 'half_pixel', 'round_prefer_ceil')),
          'image.resize3d(%s, size=[4, 2, 3], method="nearest_neighbor", rounding_method="round_prefer_ceil")' % rly(x)))
x = ints((1, 1, 2, 2, 2))
L.append((rly(resize(x, [4, 4, 2], 'nearest_neighbor', 'half_pixel')), 'nn.upsampling3d(%s, scale_d=2f, scale_h=2f)' % rly(x)))
L.append((rly(resize(x, [3, 2, 4], 'linear', 'align_corners')),
          'nn.upsampling3d(%s, scale_d=1.5f, scale_w=2f, method="trilinear", coordinate_transformation_mode="align_corners")' % rly(x)))
write('resize1d_values.rly', '''// image.resize1d, image.resize3d and nn.upsampling3d (topi.testing.resize_python's rules in numpy): linear with
// half_pixel (the default) and align_corners, nearest_neighbor asymmetric, NWC float64 with pytorch_half_pixel;
// trilinear resize3d, nearest resize3d of int32 with round_prefer_ceil; upsampling3d nearest (half_pixel, its default)
// and trilinear with align_corners, sizes round(n * scale). Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- nn.dilate (topi.testing.dilate_python: element i at i * stride, the rest dilation_value)
def dilate(x, strides, value=0):
    out = np.full([(n - 1) * s + 1 if n else 0 for n, s in zip(x.shape, strides)], value, x.dtype)
    out[tuple(slice(None, None, s) for s in strides)] = x
    return out
L = []
x = ints((2, 3))
L.append((rly(dilate(x, [1, 2])), 'nn.dilate(%s, strides=[1, 2])' % rly(x)))
L.append((rly(dilate(x, [3, 1], -1.5)), 'nn.dilate(%s, strides=[3, 1], dilation_value=-1.5f)' % rly(x)))
x = ints((1, 2, 2, 2), dt=i32)
L.append((rly(dilate(x, [1, 1, 2, 3], 7)), 'nn.dilate(%s, strides=[1, 1, 2, 3], dilation_value=7f)' % rly(x)))
x = ints((4,), dt=f64)
L.append((rly(dilate(x, [2])), 'nn.dilate(%s, strides=[2])' % rly(x)))
x = ints((2, 2), dt=np.uint8, lo=0)
L.append((rly(dilate(x, [1, 1])), 'nn.dilate(%s)' % rly(x)))
write('dilate_values.rly', '''// nn.dilate (topi.testing.dilate_python): element i of each axis at i * stride, the gaps dilation_value (0 by
// default); float32, int32 NCHW, float64, and uint8 with the default strides [1, 1]. Expected values:
// tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- nn.nll_loss (topi.testing.nll_loss)
def nll(p, t, w, reduction='mean', ignore=-100):
    res = np.zeros(t.shape); ws = 0.0
    for idx in np.ndindex(t.shape):
        c = t[idx]
        if c != ignore:
            res[idx] = -p[tuple([idx[0], c] + list(idx[1:]))] * w[c]; ws += w[c]
    if reduction == 'mean': return np.sum(res) / ws
    if reduction == 'sum': return np.sum(res)
    return res
L = []
p = ((rng.randn(3, 4) * 8).round() / 4).astype(f32); t = np.array([1, 3, 0], i32); w = np.array([1, 0.5, 2, 1.5], f32)
L.append((rly(f32(nll(p, t, w))), 'nn.nll_loss(%s, %s, %s)' % (rly(p), rly(t), rly(w))))
L.append((rly(f32(nll(p, t, w, 'sum'))), 'nn.nll_loss(%s, %s, %s, reduction="sum")' % (rly(p), rly(t), rly(w))))
t2 = np.array([1, 2, 2], i32)
L.append((rly(nll(p, t2, w, 'none', 2).astype(f32)), 'nn.nll_loss(%s, %s, %s, reduction="none", ignore_index=2)' % (rly(p), rly(t2), rly(w))))
p = (rng.randn(2, 3, 2, 2)).round(3); t = rng.randint(0, 3, (2, 2, 2)).astype(np.int64); w = np.array([0.25, 1, 3])
L.append((rly(f64(nll(p, t, w, 'mean', 1))), 'nn.nll_loss(%s, %s, %s, ignore_index=1)' % (rly(p), rly(t), rly(w))))
L.append((rly(nll(p, t, w, 'none')), 'nn.nll_loss(%s, %s, %s, reduction="none")' % (rly(p), rly(t), rly(w))))
write('nll_loss_values.rly', '''// nn.nll_loss (topi.testing.nll_loss): -predictions[n, t, ...] * weights[t]; "mean" (the default) divides by the
// weights taken, "sum", "none" per target; ignore_index skips a class; (N, C) float32 with int32 targets and
// (N, C, H, W) float64 with int64 targets. Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- image.crop_and_resize (topi.testing.crop_and_resize_python, in float64; TVM's middle of the box for a size 1)
def crop_resize(img, boxes, bidx, size, method='bilinear', ext=0.0):
    N, C, H, W = img.shape; OH, OW = size
    out = np.zeros((len(boxes), C, OH, OW))
    for n, (y1, x1, y2, x2) in enumerate(boxes):
        for oy in range(OH):
            iy = y1 * (H - 1) + oy * (y2 - y1) * (H - 1) / (OH - 1) if OH > 1 else 0.5 * (y1 + y2) * (H - 1)
            for ox in range(OW):
                ix = x1 * (W - 1) + ox * (x2 - x1) * (W - 1) / (OW - 1) if OW > 1 else 0.5 * (x1 + x2) * (W - 1)
                if iy < 0 or iy > H - 1 or ix < 0 or ix > W - 1: out[n, :, oy, ox] = ext; continue
                im = img[bidx[n]].astype(np.float64)
                if method == 'nearest_neighbor':
                    out[n, :, oy, ox] = im[:, round_away(iy), round_away(ix)]; continue
                t, l = math.floor(iy), math.floor(ix); b_, r_ = math.ceil(iy), math.ceil(ix)
                fy, fx = iy - t, ix - l
                top = im[:, t, l] + (im[:, t, r_] - im[:, t, l]) * fx
                bot = im[:, b_, l] + (im[:, b_, r_] - im[:, b_, l]) * fx
                out[n, :, oy, ox] = top + (bot - top) * fy
    return out
L = []
img = ints((2, 2, 5, 5))
boxes = np.array([[0, 0, 1, 1], [0.25, 0.5, 0.75, 1], [-0.25, 0, 0.5, 1.25]], f32); bidx = np.array([0, 1, 1], i32)
L.append((rly(crop_resize(img, boxes, bidx, (3, 3)).astype(f32)),
          'image.crop_and_resize(%s, %s, %s, crop_size=[3, 3])' % (rly(img), rly(boxes), rly(bidx))))
L.append((rly(crop_resize(img, boxes, bidx, (2, 5), 'nearest_neighbor', -1).astype(f32)),
          'image.crop_and_resize(%s, %s, %s, crop_size=[2, 5], method="nearest_neighbor", extrapolation_value=-1f)' % (rly(img), rly(boxes), rly(bidx))))
imgn = ints((1, 5, 5, 2), dt=f64); b1 = np.array([[0.5, 0.25, 1, 0.75]], f32); i1 = np.array([0], i32)
L.append((rly(crop_resize(imgn.transpose(0, 3, 1, 2), b1, i1, (1, 3)).transpose(0, 2, 3, 1)),
          'image.crop_and_resize(%s, %s, %s, crop_size=[1, 3], layout="NHWC")' % (rly(imgn), rly(b1), rly(i1))))
write('crop_and_resize_values.rly', '''// image.crop_and_resize (topi.testing.crop_and_resize_python in numpy): bilinear over three boxes (one reaching
// outside the image: extrapolation_value 0), nearest_neighbor (halves away from zero, te.round) with
// extrapolation_value -1, NHWC float64 with a crop height of 1 (the box's middle, as TVM's get_inx). Expected values:
// tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- image.affine_grid / image.grid_sample (topi.testing.grid_sample_python, 2-d, bilinear and nearest; nearest
# rounds halves to even, as topi's te.nearbyint, where the reference rounds them away from zero)
def affine_grid(data, ts):
    yv, xv = np.meshgrid(np.arange(ts[0]), np.arange(ts[1]))
    yv = yv.T * 2 / (ts[0] - 1) - 1; xv = xv.T * 2 / (ts[1] - 1) - 1
    grid = np.stack([xv, yv, np.ones_like(xv)]).reshape(3, -1)
    return data.reshape(-1, 3).dot(grid).reshape(data.shape[0], 2, *ts)
def grid_sample(data, grid, method='bilinear', padding_mode='zeros', align_corners=True):
    N, C, H, W = data.shape; OH, OW = grid.shape[2:]
    out = np.zeros((N, C, OH, OW))
    def px(b, c, h, w): return data[b, c, h, w] if 0 <= h <= H - 1 and 0 <= w <= W - 1 else 0
    def unnorm(h, w):
        if align_corners: return (h + 1) * (H - 1) / 2, (w + 1) * (W - 1) / 2
        return -0.5 + (h + 1) * H / 2, -0.5 + (w + 1) * W / 2
    def refl(i, size, corner):
        if corner <= i <= size + corner: return i
        idx = abs(corner - i); t = idx // size; extra = idx - t * size
        return extra + corner if t % 2 == 0 else size - extra + corner
    def src(b, h, w):
        y, x = unnorm(grid[b, 1, h, w], grid[b, 0, h, w])
        if padding_mode == 'reflection':
            y = refl(y, H - 1, 0) if align_corners else refl(y, H, -0.5)
            x = refl(x, W - 1, 0) if align_corners else refl(x, W, -0.5)
        if padding_mode in ('reflection', 'border'):
            y = min(max(y, 0), H - 1); x = min(max(x, 0), W - 1)
        return y, x
    for b in range(N):
        for c in range(C):
            for h in range(OH):
                for w in range(OW):
                    y, x = src(b, h, w)
                    if method == 'nearest':
                        ny = int(np.rint(y)); nx = int(np.rint(x))  # topi: te.nearbyint, halves to even
                        out[b, c, h, w] = px(b, c, ny, nx); continue
                    y0 = math.floor(y); x0 = math.floor(x)
                    out[b, c, h, w] = (px(b, c, y0, x0) * (1 - (y - y0)) * (1 - (x - x0)) + px(b, c, y0, x0 + 1) * (1 - (y - y0)) * (x - x0)
                                       + px(b, c, y0 + 1, x0) * (y - y0) * (1 - (x - x0)) + px(b, c, y0 + 1, x0 + 1) * (y - y0) * (x - x0))
    return out
def grid_sample3(data, grid, method='bilinear', padding_mode='zeros', align_corners=True):
    N, C, D, H, W = data.shape; OD, OH, OW = grid.shape[2:]
    out = np.zeros((N, C, OD, OH, OW))
    sz = [W, H, D]
    def px(b, c, z, y, x): return data[b, c, z, y, x] if 0 <= z <= D - 1 and 0 <= y <= H - 1 and 0 <= x <= W - 1 else 0
    def refl(i, size, corner):
        if corner <= i <= size + corner: return i
        idx = abs(corner - i); t = idx // size; extra = idx - t * size
        return extra + corner if t % 2 == 0 else size - extra + corner
    for b in range(N):
        for idx in np.ndindex(OD, OH, OW):
            cs = []
            for i in range(3):
                v = grid[(b, i) + idx]; n = sz[i]
                v = (v + 1) * (n - 1) / 2 if align_corners else -0.5 + (v + 1) * n / 2
                if padding_mode == 'reflection': v = refl(v, n - 1, 0) if align_corners else refl(v, n, -0.5)
                if padding_mode in ('reflection', 'border'): v = min(max(v, 0), n - 1)
                cs.append(v)
            x, y, z = cs
            for c in range(C):
                if method == 'nearest':
                    r = lambda v: int(np.rint(v))  # topi: te.nearbyint, halves to even
                    out[(b, c) + idx] = px(b, c, r(z), r(y), r(x)); continue
                x0, y0, z0 = math.floor(x), math.floor(y), math.floor(z); acc = 0
                for dz in (0, 1):
                    for dy in (0, 1):
                        for dx in (0, 1):
                            w = (x - x0 if dx else 1 - (x - x0)) * (y - y0 if dy else 1 - (y - y0)) * (z - z0 if dz else 1 - (z - z0))
                            acc += w * px(b, c, z0 + dz, y0 + dy, x0 + dx)
                out[(b, c) + idx] = acc
    return out
def grid_sample_bicubic(data, grid, padding_mode='zeros', align_corners=True):
    N, C, H, W = data.shape; OH, OW = grid.shape[2:]
    out = np.zeros((N, C, OH, OW)); A = -0.75
    def px(b, c, h, w): return data[b, c, h, w] if 0 <= h <= H - 1 and 0 <= w <= W - 1 else 0
    def w1(t): return ((A + 2) * t - (A + 3)) * t * t + 1
    def w2(t): return ((A * t - 5 * A) * t + 8 * A) * t - 4 * A
    def interp(p, t): return p[0] * w2(t + 1) + p[1] * w1(t) + p[2] * w1(1 - t) + p[3] * w2(2 - t)
    def refl(i, size, corner):
        if corner <= i <= size + corner: return i
        idx = abs(corner - i); t = idx // size; extra = idx - t * size
        return extra + corner if t % 2 == 0 else size - extra + corner
    def fix(v, n):
        if padding_mode == 'reflection':
            v = refl(v, n - 1, 0) if align_corners else refl(v, n, -0.5)
            return int(min(max(v, 0), n - 1))
        if padding_mode == 'border': return min(max(v, 0), n - 1)
        return v
    for b in range(N):
        for c in range(C):
            for h in range(OH):
                for w in range(OW):
                    y, x = grid[b, 1, h, w], grid[b, 0, h, w]
                    if align_corners: y, x = (y + 1) * (H - 1) / 2, (x + 1) * (W - 1) / 2
                    else: y, x = -0.5 + (y + 1) * H / 2, -0.5 + (x + 1) * W / 2
                    yf, xf = math.floor(y), math.floor(x)
                    rows = [interp([px(b, c, fix(yf - 1 + j, H), fix(xf - 1 + i, W)) for i in range(4)], x - xf) for j in range(4)]
                    out[b, c, h, w] = interp(rows, y - yf)
    return out
L = []
theta = np.array([[[1, 0, 0], [0, 1, 0]], [[0.5, 0.25, 0.125], [-0.25, 0.75, 0.5]]], f32)
L.append((rly(affine_grid(theta.astype(f64), (3, 5)).astype(f32)), 'image.affine_grid(%s, target_shape=[3, 5])' % rly(theta)))
data = ints((1, 2, 3, 4))
grid = (np.array(rng.randint(-10, 11, (1, 2, 3, 3))) / 8).astype(f32)
for kw, attrs in [({}, ''), ({'method': 'nearest'}, ', method="nearest"'),
                  ({'padding_mode': 'border', 'align_corners': False}, ', padding_mode="border", align_corners=False'),
                  ({'padding_mode': 'reflection'}, ', padding_mode="reflection"'),
                  ({'padding_mode': 'reflection', 'align_corners': False, 'method': 'nearest'}, ', method="nearest", padding_mode="reflection", align_corners=False')]:
    L.append((rly(grid_sample(data.astype(f64), grid.astype(f64), **kw).astype(f32)), 'image.grid_sample(%s, %s%s)' % (rly(data), rly(grid), attrs)))
d64 = ints((1, 1, 4, 4), dt=f64); g64 = affine_grid(np.array([[[0.75, 0, 0.25], [0, 0.5, -0.25]]]), (2, 3))
L.append((rly(grid_sample(d64, g64)), 'image.grid_sample(%s, image.affine_grid(%s, target_shape=[2, 3]))' % (rly(d64), rly(np.array([[[0.75, 0, 0.25], [0, 0.5, -0.25]]])))))
d3 = ints((1, 2, 2, 3, 3)); g3 = (rng.randint(-10, 11, (1, 3, 2, 2, 2)) / 8).astype(f32)
for kw, attrs in [({}, ''), ({'method': 'nearest', 'padding_mode': 'border'}, ', method="nearest", padding_mode="border"'),
                  ({'padding_mode': 'reflection', 'align_corners': False}, ', padding_mode="reflection", align_corners=False')]:
    L.append((rly(grid_sample3(d3.astype(f64), g3.astype(f64), **kw).astype(f32)), 'image.grid_sample(%s, %s%s)' % (rly(d3), rly(g3), attrs)))
gb = (rng.randint(-12, 13, (1, 2, 2, 3)) / 8).astype(f32)
for kw, attrs in [({}, ''), ({'padding_mode': 'border', 'align_corners': False}, ', padding_mode="border", align_corners=False'),
                  ({'padding_mode': 'reflection'}, ', padding_mode="reflection"'), ({'padding_mode': 'reflection', 'align_corners': False}, ', padding_mode="reflection", align_corners=False')]:
    L.append((rly(grid_sample_bicubic(data.astype(f64), gb.astype(f64), **kw).astype(f32)), 'image.grid_sample(%s, %s, method="bicubic"%s)' % (rly(data), rly(gb), attrs)))
write('grid_sample_values.rly', '''// image.affine_grid and image.grid_sample (topi.testing.grid_sample_python and affine_grid_python in numpy): an
// affine grid of two matrices; grid_sample bilinear (default, align_corners, zeros), nearest, border without
// align_corners, reflection, nearest reflection without align_corners; float64 through an affine grid; 5-d data
// (trilinear, nearest with border, reflection); bicubic with each padding mode.
// Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- fixed_point_multiply / fixed_point_multiply_per_axis (qnn_reference.py's q_multiply_shift; TVM's QMultiplyShift)
from qnn_reference import q_multiply_shift_scalar, w32
def fpm_per_axis(x, m, ls, rs, axes, lreq):
    shp = [1] * x.ndim
    for a, n in zip(axes, m.shape): shp[a] = n
    m = m.reshape(shp).astype(np.int64); ls = ls.reshape(shp).astype(np.int64); rs = rs.reshape(shp).astype(np.int64)
    t = x.astype(np.int64)
    if lreq: t = t << ls
    with np.errstate(over='ignore'):
        t = t * m + (np.int64(1) << (rs + 30))
    return w32(t >> (rs + 31))
L = []
x = np.array([[-1000, -3, 0, 5, 77], [123456, -65536, 2147483647, -2147483648, 1]], i32)
for m, s in [(1 << 30, 2), (1 << 30, -2), (1 << 30, 4), (1518500250, -1), (1518500250, 3), (-1073741824, 0), (2147483647, -31)]:
    L.append((rly(q_multiply_shift_scalar(x, m, s)), 'fixed_point_multiply(%s, multiplier=%d, shift=%d)' % (rly(x), m, s)))
x = rng.randint(-3000, 3000, (2, 3, 2)).astype(i32)
m = np.array([1 << 30, 1518500250, 1932735283], i32); ls = np.array([0, 2, 1], i32); rs = np.array([3, 0, 5], i32)
L.append((rly(fpm_per_axis(x, m, ls, rs, [1], True)),
          'fixed_point_multiply_per_axis(%s, %s, %s, %s, is_lshift_required=True, axes=[1])' % (rly(x), rly(m), rly(ls), rly(rs))))
L.append((rly(fpm_per_axis(x, m, ls, rs, [1], False)),
          'fixed_point_multiply_per_axis(%s, %s, %s, %s, axes=[-2])' % (rly(x), rly(m), rly(ls), rly(rs))))
m2 = rng.randint(1 << 29, 1 << 31 - 1, (2, 2)).astype(i32); l2 = np.zeros((2, 2), i32); r2 = np.array([[1, 2], [0, 4]], i32)
L.append((rly(fpm_per_axis(x, m2, l2, r2, [0, 2], False)),
          'fixed_point_multiply_per_axis(%s, %s, %s, %s, axes=[0, 2])' % (rly(x), rly(m2), rly(l2), rly(r2))))
write('fixed_point_multiply_values.rly', '''// fixed_point_multiply (TVM's tir.q_multiply_shift legalization, as tests/tools/qnn_reference.py: a multiplier of
// 2^30 is a shift with rounding, otherwise x * m in int64 rounded and shifted by 31 - shift) and
// fixed_point_multiply_per_axis (QMultiplyShift with per-channel multipliers and shifts, on axis 1 with and without
// is_lshift_required, on axes [0, 2]), int32 extremes included. Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- qnn.leaky_relu (QnnLeakyReluCanonicalize via qnn_reference.py: RequantizeOrUpcast, FixedPointMultiply)
from qnn_reference import requantize, fpm_of
def qleaky(x, s, z, os_, oz, alpha, dt):
    xi = x.astype(np.int32)
    q = xi.copy() if (np.float32(s) == np.float32(os_) and z == oz) else requantize(x, s, z, os_, oz, out_dtype='int32')
    m, sh = fpm_of(alpha); mz, shz = fpm_of(1 - alpha)
    prod = q_multiply_shift_scalar(q, m, sh); zt = q_multiply_shift_scalar(np.int32(oz), mz, shz)
    r = np.where(xi < z, w32(prod.astype(np.int64) + int(zt)), q)
    lo, hi = np.iinfo(dt).min, np.iinfo(dt).max
    return np.clip(r, lo, hi).astype(dt)
L = []
x = np.array([-128, -100, -7, -1, 0, 1, 5, 60, 127], np.int8)
L.append((rly(qleaky(x, 0.5, 0, 0.5, 0, 0.1, np.int8)), 'qnn.leaky_relu(%s, 0.5f, 0, 0.5f, 0, alpha=0.1f)' % rly(x)))
L.append((rly(qleaky(x, 0.25, 3, 0.125, -2, 0.25, np.int8)), 'qnn.leaky_relu(%s, 0.25f, 3, 0.125f, -2)' % rly(x)))
xu = np.array([[0, 10, 100], [128, 200, 255]], np.uint8)
L.append((rly(qleaky(xu, 0.05, 128, 0.1, 120, 0.3, np.uint8)), 'qnn.leaky_relu(%s, 0.05f, 128, 0.1f, 120, alpha=0.3f)' % rly(xu)))
write('qnn_leaky_relu_values.rly', '''// qnn.leaky_relu (TVM's QnnLeakyReluCanonicalize, in numpy with tests/tools/qnn_reference.py): the input
// requantized (or upcast when the parameters agree) to the output's; below the input zero point
// FixedPointMultiply(q, alpha) + FixedPointMultiply(output_zero_point, 1 - alpha); clipped into the input's dtype.
// int8 with equal and with different parameters (alpha 0.25 by default), uint8. Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- qnn.softmax (QnnSoftmaxCanonicalize, int32 numpy; the final Requantize from qnn_reference.py)
def qsoftmax(x, s, z, os_, oz, axis=-1):
    i32_ = lambda a: w32(a)
    qd = x.astype(np.int32) - np.int32(z)
    x0 = np.int32(np.round(np.float32(1) / np.float32(s)))   # std::round: half away (no ties here)
    v = qd - qd.max(axis=axis, keepdims=True)
    xp = i32_(v.astype(np.int64) + (v >> 1) - (v >> 4))
    q = np.clip(np.trunc(xp / -x0).astype(np.int32), 0, 20)
    mq = q.max(axis=axis, keepdims=True)
    r = i32_(xp.astype(np.int64) + q.astype(np.int64) * x0)
    xb = (r >> 1) + x0
    exps = i32_(xb.astype(np.int64) << (mq - q))
    sums = i32_(exps.astype(np.int64).sum(axis=axis, keepdims=True))
    f = np.trunc((1 << 30) / sums).astype(np.int32)
    out = i32_(f.astype(np.int64) * exps) >> 23
    return requantize(out, np.float32(1.0 / 128), 0, os_, oz, out_dtype='int8')
L = []
x = np.array([[-128, -50, 0, 10, 127], [3, 3, 3, 3, 3], [-20, -10, 0, 10, 20]], np.int8)
L.append((rly(qsoftmax(x, 0.125, 0, 1 / 256, -128)), 'qnn.softmax(%s, 0.125f, 0, 0.00390625f, -128)' % rly(x)))
L.append((rly(qsoftmax(x, 0.05, 5, 0.01, 0, axis=0)), 'qnn.softmax(%s, 0.05f, 5, 0.01f, 0, axis=0)' % rly(x)))
x3 = rng.randint(-128, 128, (2, 3, 2)).astype(np.int8)
L.append((rly(qsoftmax(x3, 0.25, -3, 0.0078125, -100, axis=1)), 'qnn.softmax(%s, 0.25f, -3, 0.0078125f, -100, axis=1)' % rly(x3)))
write('qnn_softmax_values.rly', '''// qnn.softmax (TVM's QnnSoftmaxCanonicalize, Algorithm 1 of arXiv 2207.01405, in numpy int32 arithmetic, then
// Requantize from scale 1/128 as tests/tools/qnn_reference.py): the last axis (default), axis 0, axis 1 of a 3-d tensor.
// Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)
L = [] # the input zero point at int32's ends: data - zp wraps in int32, as numpy's (a fuzzer's finding)
x = np.array([[-128, -50, 0, 10, 127], [3, 3, 3, 3, 3]], np.int8)
L.append((rly(qsoftmax(x, 0.125, -2147483648, 1 / 256, -128)), 'qnn.softmax(%s, 0.125f, -2147483648, 0.00390625f, -128)' % rly(x)))
L.append((rly(qsoftmax(x, 0.125, 2147483647, 1 / 256, -128)), 'qnn.softmax(%s, 0.125f, 2147483647, 0.00390625f, -128)' % rly(x)))
write('qnn_softmax_zero_point_wraps.rly', '''// qnn.softmax with an input zero point at int32's ends: data - zero point wraps in int32 arithmetic, as in
// TVM's (and numpy's), instead of overflowing (the whole-pipeline fuzzer's seed 1, input 8,884).
// Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)

# ---- qnn.conv2d_transpose (its legalization: (data - zp) and (kernel - kzp), kzp along kernel axis 1, then
# nn.conv2d_transpose in out_dtype; conv_t above as the reference)
L = []
x = rng.randint(0, 256, (1, 2, 3, 3)).astype(np.uint8); w = rng.randint(-128, 128, (2, 3, 2, 2)).astype(np.int8)
ref = conv_t(x.astype(np.int64) - 128, w.astype(np.int64) - 2, [2, 2], [0, 0], [0, 0], [0, 0], [1, 1]).astype(np.int32)
L.append((rly(ref), 'qnn.conv2d_transpose(%s, %s, 128, 2, 0.5f, 0.25f, strides=[2, 2])' % (rly(x), rly(w))))
kz = np.array([1, -3, 5], np.int32)
ref = conv_t(x.astype(np.int64) - 10, w.astype(np.int64) - kz.reshape(1, 3, 1, 1), [1, 1], [1, 0], [0, 1], [0, 0], [1, 1]).astype(np.int32)
L.append((rly(ref), 'qnn.conv2d_transpose(%s, %s, 10, %s, 0.5f, %s, padding=[1, 0, 0, 1])' % (rly(x), rly(w), rly(kz), rly(np.array([0.1, 0.2, 0.3], f32)))))
xi = rng.randint(-128, 128, (1, 2, 2, 2)).astype(np.int8); wi = rng.randint(-128, 128, (2, 1, 3, 3)).astype(np.int8)
ref = conv_t(xi.astype(np.int64) + 5, wi.astype(np.int64), [1, 1], [0, 0], [0, 0], [0, 0], [1, 1], groups=2).astype(np.int64)
L.append((rly(ref), 'qnn.conv2d_transpose(%s, %s, -5, 0, 1f, 1f, groups=2, out_dtype="int64")' % (rly(xi), rly(wi))))
write('qnn_conv2d_transpose_values.rly', '''// qnn.conv2d_transpose (TVM's legalization: the zero points subtracted, the kernel's along its axis 1, then
// nn.conv2d_transpose in out_dtype; numpy's scatter form as reference): uint8 by int8 with strides, a per-channel
// kernel zero point with asymmetric padding, int8 groups=2 into int64. Expected values: tests/tools/gen_layout_resize_ops.py.
// args: --no-prelude
''', L)
