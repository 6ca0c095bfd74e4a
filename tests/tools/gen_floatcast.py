"""Expected values of the floatcast_*.rly golden tests: kernels fed NaN, +-inf and +-1e30 where a float
becomes an integer (a coordinate, an index, a bound, a quantized value). numpy (or Python's exact integers)
where the reference defines the result; otherwise the rule of docs/operators.md ("Float to integer
conversions"), applied here as `f2i`: truncation, NaN 0, beyond the range the nearest bound; a position
saturates at +-2^53 (outside every image). The references are transcriptions of topi.testing's
(roi_align_python, roi_pool, grid_sample_python, crop_and_resize_python), as in gen_x2.py and gen_x3.py.
Run with /usr/bin/python3 from anywhere; writes tests/golden/ops/floatcast_*.rly."""
import math, os, sys
import numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly

f32 = np.float32; f64 = np.float64; i32 = np.int32
nan, inf = math.nan, math.inf
IDX = 2 ** 53


def f2i(x, lo, hi):
    """The rule: NaN 0, truncation toward zero, saturation at [lo, hi]."""
    if math.isnan(x): return 0
    if x >= hi: return hi
    if x <= lo: return lo
    return int(x)


def f2index(x): return f2i(x, -IDX, IDX)


def write(name, header, lines):
    open(OPS + name, 'w').write(header + '// args: --no-prelude\n' + ''.join('// expect: %s\n' % e for e, _ in lines)
                                + ''.join(p + '\n' for _, p in lines))


def lit(a):  # a float32 literal list, NaN and infinities included
    return rly(np.asarray(a, f32))


# ---------------------------------------------------------------- clip of integers: bounds cast to the dtype
L = []
for dt, suf in ((np.int64, 'i64'), (np.uint64, 'u64'), (np.int8, 'i8'), (np.int32, '')):
    x = np.array([1, 5, 100] if dt == np.uint64 else [1, 5, -100], dt)
    info = np.iinfo(dt)
    for lo, hi in ((1e30, 2e30), (-1e30, 3.7), (-1e30, 1e30)):
        blo, bhi = f2i(lo, int(info.min), int(info.max)), f2i(hi, int(info.min), int(info.max))
        r = np.array([max(min(int(v), bhi), blo) for v in x], dt)  # TVM's max(min(x, hi), lo) in the dtype
        L.append((rly(r), 'clip(%s, a_min=%s, a_max=%s)' % (rly(x), repr(lo), repr(hi))))
write('floatcast_clip_int.rly', '''// clip of an integer tensor casts its float bounds to the dtype (TVM's), by the float-to-integer rule: a bound
// past int64's or uint64's range saturates (it was undefined behaviour: UBSan float-cast-overflow).
// Expected values: tests/tools/gen_floatcast.py.
''', L)


# ---------------------------------------------------------------- cast: numpy where it defines the result
L = []
vals = [nan, inf, -inf, 1e30, -1e30, 2.9, -2.9, 0.5]
x = np.array(vals, f32)
# bool: numpy's (nonzero, NaN included, is True)
L.append((rly(x.astype(np.bool_)), 'cast(%s, dtype="bool")' % lit(x)))
# int64: numpy defines the values in range (truncation); the rest is the rule
L.append((rly(np.array([f2i(float(v), -2 ** 63, 2 ** 63 - 1) for v in x], np.int64)), 'cast(%s, dtype="int64")' % lit(x)))
# narrower: the rule saturates at int64's range, then wraps as integers do (cast(300f, dtype="int8") is 44i8)
for dt, name in ((np.int32, 'int32'), (np.int8, 'int8'), (np.uint8, 'uint8'), (np.uint16, 'uint16')):
    w = [f2i(float(v), -2 ** 63, 2 ** 63 - 1) for v in x]
    L.append((rly(np.array(w, np.int64).astype(dt)), 'cast(%s, dtype="%s")' % (lit(x), name)))
write('floatcast_cast.rly', '''// cast from float to integer with NaN, infinities and values past every integer range: NaN 0, truncation
// toward zero, saturation at int64's range, then the integers' wrapping to the width; bool is numpy's (NaN is
// True). Expected values: tests/tools/gen_floatcast.py.
''', L)


# ---------------------------------------------------------------- roi_align, roi_pool
def bilinear(a, n, c, y, x, H, W):
    if y < -1 or y > H or x < -1 or x > W: return 0
    y = 0 if math.isnan(y) else y; x = 0 if math.isnan(x) else x  # the rule: a NaN position is 0
    y = min(max(y, 0), H - 1); x = min(max(x, 0), W - 1)
    yl, xl = math.floor(y), math.floor(x)
    wyh, wxh = y - yl, x - xl; val = 0
    for wx, xp in ((1 - wxh, xl), (wxh, xl + 1)):
        for wy, yp in ((1 - wyh, yl), (wyh, yl + 1)):
            if 0 <= yp < H and 0 <= xp < W: val += wx * wy * a[n, c, yp, xp]
    return val


def roi_align(a, rois, ps, scale, ratio):
    _, C, H, W = a.shape; PH, PW = ps
    out = np.zeros((len(rois), C, PH, PW))
    for i, roi in enumerate(rois.astype(f64)):
        n = int(roi[0]); x0, y0, x1, y1 = roi[1:] * scale
        rh = np.fmax(y1 - y0, 1.); rw = np.fmax(x1 - x0, 1.); bh = rh / PH; bw = rw / PW  # fmax: NaN gives 1
        for c in range(C):
            for ph in range(PH):
                for pw in range(PW):
                    tot = 0.
                    for iy in range(ratio):
                        for ix in range(ratio):
                            with np.errstate(invalid='ignore'):
                                y = y0 + ph * bh + (iy + 0.5) * bh / ratio; x = x0 + pw * bw + (ix + 0.5) * bw / ratio
                            tot += bilinear(a, n, c, float(y), float(x), H, W) / (ratio * ratio)
                    out[i, c, ph, pw] = tot
    return out


def tir_round(v):
    """tir.round as LLVM emits it (llvm.round): halves away from zero; inf and NaN unchanged."""
    if not np.isfinite(v): return v
    f = np.floor(v); d = v - f
    return f + 1 if d > 0.5 or (d == 0.5 and v > 0) else f


def roi_pool(a, rois, ps, scale):
    _, C, H, W = a.shape; PH, PW = ps
    out = np.zeros((len(rois), C, PH, PW), a.dtype)
    for i, roi in enumerate(rois.astype(f64)):
        n = int(roi[0])
        x0, y0, x1, y1 = [f2index(float(tir_round(v * scale))) for v in roi[1:]]  # exact Python ints past 2^53 agree
        rh = max(y1 - y0 + 1, 1); rw = max(x1 - x0 + 1, 1); bh = rh / PH; bw = rw / PW
        for ph in range(PH):
            for pw in range(PW):
                hs = min(max(math.floor(ph * bh + 1e-5) + y0, 0), H); he = min(max(math.ceil((ph + 1) * bh - 1e-5) + y0, 0), H)
                ws = min(max(math.floor(pw * bw + 1e-5) + x0, 0), W); we = min(max(math.ceil((pw + 1) * bw - 1e-5) + x0, 0), W)
                for c in range(C):
                    out[i, c, ph, pw] = 0 if he <= hs or we <= ws else a[n, c, hs:he, ws:we].max()
    return out


img = (np.arange(2 * 4 * 4) % 7 + 1).astype(f32).reshape(1, 2, 4, 4)
rois = np.array([[0, nan, nan, 2, 2], [0, -inf, -inf, inf, inf], [0, 1e30, 1e30, 1e30, 1e30],
                 [0, -1e30, -1e30, -1e30, -1e30], [0, 0, 0, 1e30, 1e30], [0, 1, 1, 3, 3]], f32)
L = [(rly(roi_align(img, rois, (2, 2), 1.0, 2).astype(f32)),
      'vision.roi_align(%s, %s, pooled_size=[2, 2], spatial_scale=1f, sample_ratio=2)' % (rly(img), lit(rois))),
     (rly(roi_pool(img, rois, (2, 2), 1.0)), 'vision.roi_pool(%s, %s, pooled_size=[2, 2], spatial_scale=1f)' % (rly(img), lit(rois))),
     (rly(roi_pool(img, rois[5:], (2, 2), 1e30)), 'vision.roi_pool(%s, %s, pooled_size=[2, 2], spatial_scale=1e30f)' % (rly(img), lit(rois[5:])))]
write('floatcast_roi.rly', '''// vision.roi_align and vision.roi_pool with NaN, infinite and huge roi corners: values, not errors nor undefined
// conversions. Past 2^53 a corner saturates (outside the image, as Python's exact integers in topi.testing's
// reference); NaN is 0 (roi_align's NaN sample positions clamp to 0). Adaptive sampling over an infinite roi is
// a clean error (a grid too large). Expected values: tests/tools/gen_floatcast.py.
// expect-error: run-time error: ... sampling grid
''', L)
with open(OPS + 'floatcast_roi.rly', 'a') as f:
    f.write('vision.roi_align(%s, %s, pooled_size=[2, 2], spatial_scale=1f)\n' % (rly(img), lit(rois[1:2])))


# ---------------------------------------------------------------- grid_sample, crop_and_resize
def grid_sample(data, grid, method, padding_mode, align_corners=True):
    N, C, H, W = data.shape; OH, OW = grid.shape[2:]
    out = np.zeros((N, C, OH, OW))
    def px(b, c, h, w): return data[b, c, h, w] if 0 <= h <= H - 1 and 0 <= w <= W - 1 else 0
    def src(b, h, w):
        gy, gx = float(grid[b, 1, h, w]), float(grid[b, 0, h, w])
        y, x = (gy + 1) * (H - 1) / 2, (gx + 1) * (W - 1) / 2
        if padding_mode == 'border':  # fmin/fmax: NaN gives the other operand
            y = float(np.fmin(np.fmax(y, 0), H - 1)); x = float(np.fmin(np.fmax(x, 0), W - 1))
        return y, x
    for b in range(N):
        for c in range(C):
            for h in range(OH):
                for w in range(OW):
                    y, x = src(b, h, w)
                    if not (abs(y) < IDX and abs(x) < IDX): continue  # the rule: NaN or outside every image: 0
                    if method == 'nearest':
                        ny = int(np.rint(y)); nx = int(np.rint(x))  # topi: te.nearbyint, halves to even
                        out[b, c, h, w] = px(b, c, ny, nx); continue
                    y0 = math.floor(y); x0 = math.floor(x)
                    out[b, c, h, w] = (px(b, c, y0, x0) * (1 - (y - y0)) * (1 - (x - x0)) + px(b, c, y0, x0 + 1) * (1 - (y - y0)) * (x - x0)
                                       + px(b, c, y0 + 1, x0) * (y - y0) * (1 - (x - x0)) + px(b, c, y0 + 1, x0 + 1) * (y - y0) * (x - x0))
    return out


data = np.array([[[[1, 2], [3, 4]]]], f32)
grid = np.array([[[[nan, inf, -inf, 1e30, -1e30, 0.5]], [[0, 0, 0, 0, 0, nan]]]], f32)
L = []
for method, pm in (('bilinear', 'zeros'), ('nearest', 'zeros'), ('bilinear', 'border'), ('nearest', 'border')):
    L.append((rly(grid_sample(data, grid, method, pm).astype(f32)),
              'image.grid_sample(%s, %s, method="%s", padding_mode="%s")' % (rly(data), lit(grid), method, pm)))
L.append((rly(np.zeros((1, 1, 1, 6), f32)), 'image.grid_sample(%s, %s, method="bicubic")' % (rly(data), lit(grid))))


def round_away(v):  # te.round is llvm.round: halves away from zero
    f = math.floor(abs(v)); return int(math.copysign(f + (abs(v) - f >= 0.5), v))


def crop_resize(img, boxes, bidx, size, method):
    N, C, H, W = img.shape; OH, OW = size
    out = np.zeros((len(boxes), C, OH, OW))
    with np.errstate(invalid='ignore', over='ignore'):
        for n, (y1, x1, y2, x2) in enumerate(boxes.astype(f64)):
            for oy in range(OH):
                iy = y1 * (H - 1) + oy * (y2 - y1) * (H - 1) / (OH - 1)
                for ox in range(OW):
                    ix = x1 * (W - 1) + ox * (x2 - x1) * (W - 1) / (OW - 1)
                    if not (0 <= iy <= H - 1 and 0 <= ix <= W - 1): continue  # NaN too: extrapolation_value 0
                    im = img[bidx[n]].astype(f64)
                    if method == 'nearest_neighbor':
                        out[n, :, oy, ox] = im[:, round_away(iy), round_away(ix)]; continue
                    t, l = math.floor(iy), math.floor(ix); b_, r_ = math.ceil(iy), math.ceil(ix)
                    fy, fx = iy - t, ix - l
                    top = im[:, t, l] + (im[:, t, r_] - im[:, t, l]) * fx
                    bot = im[:, b_, l] + (im[:, b_, r_] - im[:, b_, l]) * fx
                    out[n, :, oy, ox] = top + (bot - top) * fy
    return out


boxes = np.array([[nan, 0, 1, inf], [1e30, -1e30, 0, 1], [0, 0, 1, 1], [-inf, 0, inf, 1]], f32); bidx = np.array([0, 0, 0, 0], i32)
for m in ('bilinear', 'nearest_neighbor'):
    L.append((rly(crop_resize(data, boxes, bidx, (2, 2), m).astype(f32)),
              'image.crop_and_resize(%s, %s, %s, crop_size=[2, 2], method="%s")' % (rly(data), lit(boxes), rly(bidx), m)))
write('floatcast_sampling.rly', '''// image.grid_sample and image.crop_and_resize at NaN, infinite and huge positions: a NaN position, or one past
// 2^53, samples nothing (0; border padding clamps first, NaN to 0); crop boxes reaching NaN or outside give the
// extrapolation value. Expected values: tests/tools/gen_floatcast.py (topi.testing's references, defined here
// for finite positions; the rule for the rest).
''', L)


# ---------------------------------------------------------------- quantization
def quantize(x, scale, zp, dt):  # QuantizeLower in float32: round half away, + zp, TVM's select clip (NaN: max)
    info = np.iinfo(dt); r = []
    with np.errstate(over='ignore', invalid='ignore'):
        for v in np.asarray(x, f32):
            d = v / f32(scale)
            q = f32(np.sign(d) * np.floor(np.abs(d) + f32(0.5))) + f32(zp)
            q = q if q < info.max else f32(info.max)  # select(q < hi, q, hi): NaN gives hi
            q = q if q > info.min else f32(info.min)
            r.append(f2i(float(q), int(info.min), int(info.max)))  # f32(INT32_MAX) is 2^31: the rule saturates
    return np.array(r, dt)


x = [nan, inf, -inf, 1e30, -1e30, 2.5, -2.5]
L = []
for dt, name in ((np.int8, 'int8'), (np.uint8, 'uint8'), (np.int32, 'int32')):
    L.append((rly(quantize(x, 1.0, 0, dt)), 'qnn.quantize(%s, 1f, 0, out_dtype="%s")' % (lit(x), name)))
L.append((rly(quantize(x, 1e-30, 3, np.int8)), 'qnn.quantize(%s, 1e-30f, 3)' % lit(x)))
# simulated_quantize in double: clip(round(x / s) + z) to int8's range; NaN passes through (a float result)
sq = np.array([np.sign(v) * np.floor(abs(v) + 0.5) if np.isfinite(v) else v for v in x]).clip(-128, 127)
L.append((rly(sq.astype(f32)), 'qnn.simulated_quantize(%s, [1f], [1f], [0f])' % lit(x)))
# a NaN dtype code is 0 by the rule: no quantization, the data passes through
L.append((rly(np.array([1.5, -2], f32)), 'qnn.simulated_quantize([1.5f, -2f], [nanf], [1f], [0f])'))
L.append((rly(np.array([1.5, -2], f32)), 'qnn.simulated_quantize([1.5f, -2f], [1e30f], [1f], [0f])'))
write('floatcast_quantize.rly', '''// qnn.quantize and qnn.simulated_quantize with NaN, infinite and huge values and scales: TVM's clip then
// cast (NaN gives the dtype's maximum, as its select-based clip); simulated_quantize's dtype code is
// converted by the rule (NaN 0, huge saturating: either passes the data through).
// Expected values: tests/tools/gen_floatcast.py.
''', L)
