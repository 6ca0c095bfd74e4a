"""Expected values of the vision_* golden tests: numpy transcriptions of TVM v0.14's topi
(python/tvm/topi/vision/ and topi/testing/: reorg_python, hybrid_multibox_prior,
hybrid_get_valid_counts, hybrid_nms + hybrid_rearrange_*, hybrid_multibox_transform_loc,
roi_align_python, roi_pool). Computed in float64 and rounded to the dtype once, as relay's kernels
do; the inputs are chosen so that float32 arithmetic (what topi does) gives the same values.
Run with /usr/bin/python3 from anywhere; writes tests/golden/ops/vision_*_values.rly."""
import math, os, sys
import numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly

f32 = np.float32; f64 = np.float64; i32 = np.int32


def write(name, header, lines):
    open(OPS + name, 'w').write(header + '// args: --no-prelude\n' + ''.join('// expect: %s\n' % e for e, _ in lines)
                                + ''.join(p + '\n' for _, p in lines))


def tup(*xs): return '(' + ', '.join(rly(x) for x in xs) + ')'


# ---------------------------------------------------------------- yolo_reorg (reorg_python)
def reorg(a, stride):
    batch, in_channel, in_height, in_width = a.shape
    flat = a.reshape(-1)
    out_c = in_channel // (stride * stride)
    out = np.zeros(a.size, a.dtype)
    cnt = 0
    for b in range(batch):
        for k in range(in_channel):
            for j in range(in_height):
                for i in range(in_width):
                    c2 = k % out_c; offset = k // out_c
                    w2 = i * stride + offset % stride; h2 = j * stride + offset // stride
                    out[cnt] = flat[w2 + in_width * stride * (h2 + in_height * stride * (c2 + out_c * b))]
                    cnt += 1
    return out.reshape(batch, in_channel * stride * stride, in_height // stride, in_width // stride)


L = []
x = np.arange(16, dtype=f32).reshape(1, 4, 2, 2)
L.append((rly(reorg(x, 2)), 'vision.yolo_reorg(%s, stride=2)' % rly(x)))
x = np.arange(32, dtype=f64).reshape(2, 4, 2, 2)
L.append((rly(reorg(x, 1)), 'vision.yolo_reorg(%s)' % rly(x)))
x = np.arange(64, dtype=i32).reshape(1, 4, 4, 4)
L.append((rly(reorg(x, 2)), 'vision.yolo_reorg(%s, stride=2)' % rly(x)))
write('vision_yolo_reorg_values.rly', '''// vision.yolo_reorg as topi's reorg (reorg_python): (n, c, h, w) -> (n, c*s*s, h/s, w/s), the
// elements read at Darknet's flat index; stride 2 on float32 and int32, stride 1 (the default) on float64.
// Expected values: numpy (tests/tools/gen_vision.py).
''', L)


# ---------------------------------------------------------------- multibox_prior
def multibox_prior(h, w, sizes=(1.,), ratios=(1.,), steps=(-1., -1.), offsets=(.5, .5), clip=False):
    ns, nr = len(sizes), len(ratios)
    out = np.zeros((1, h * w * (ns + nr - 1), 4))
    sh = steps[0] if steps[0] > 0 else 1.0 / h
    sw = steps[1] if steps[1] > 0 else 1.0 / w
    for i in range(h):
        ch = (i + offsets[0]) * sh
        for j in range(w):
            cw = (j + offsets[1]) * sw
            for k in range(ns + nr - 1):
                if k < ns:
                    ww = sizes[k] * h / w / 2.0; hh = sizes[k] / 2.0
                else:
                    q = math.sqrt(ratios[k - ns + 1])
                    ww = sizes[0] * h / w * q / 2.0; hh = sizes[0] / q / 2.0
                c = i * w * (ns + nr - 1) + j * (ns + nr - 1) + k
                out[0, c] = [cw - ww, ch - hh, cw + ww, ch + hh]
    if clip: out = np.clip(out, 0, 1)
    return out


L = []
L.append((rly(multibox_prior(2, 2, (0.5, 0.25), (1., 4.)).astype(f32)),
          'vision.multibox_prior(zeros(shape=[1, 3, 2, 2]), sizes=[0.5f, 0.25f], ratios=[1f, 4f])'))
L.append((rly(multibox_prior(2, 2, (0.5, 0.25), (1., 4.), clip=True).astype(f32)),
          'vision.multibox_prior(zeros(shape=[1, 3, 2, 2]), sizes=[0.5f, 0.25f], ratios=[1f, 4f], clip=True)'))
L.append((rly(multibox_prior(1, 2).astype(f64)), 'vision.multibox_prior(zeros(shape=[2, 1, 1, 2], dtype="float64"))'))
L.append((rly(multibox_prior(2, 1, (1.,), (1., 0.25), steps=(0.25, 0.5), offsets=(0., 1.)).astype(f32)),
          'vision.multibox_prior(zeros(shape=[1, 1, 2, 1]), sizes=[1f], ratios=[1f, 0.25f], steps=[0.25f, 0.5f], offsets=[0f, 1f])'))
write('vision_multibox_prior_values.rly', '''// vision.multibox_prior as topi's hybrid_multibox_prior: (1, h*w*(sizes+ratios-1), 4) boxes (left, top, right,
// bottom) around each cell's centre, sizes first then the extra ratios of sizes[0]; steps -1 are 1/h and 1/w;
// clip to [0, 1]; defaults on float64; given steps and offsets. Expected values: numpy (tests/tools/gen_vision.py).
''', L)


# ---------------------------------------------------------------- get_valid_counts
def get_valid_counts(d, thr, id_index=0, score_index=1):
    B, N, K = d.shape
    cnt = np.zeros(B, i32); out = -np.ones_like(d); ind = -np.ones((B, N), i32)
    for i in range(B):
        for j in range(N):
            if d[i, j, score_index] > thr and (id_index < 0 or d[i, j, id_index] >= 0):
                out[i, cnt[i]] = d[i, j]; ind[i, cnt[i]] = j; cnt[i] += 1
    return cnt, out, ind


d1 = np.array([[[0, 0.5, 0, 0, 1, 1], [1, 0.25, 0, 0, 1, 1], [-1, 0.75, 0, 0, 1, 1], [2, 0.875, 0.5, 0.5, 1, 1]],
               [[0, 0.125, 0, 0, 1, 1], [1, 0.75, 0, 0, 0.5, 0.5], [1, 0.25, 0, 0, 1, 1], [0, 0.3125, 0, 0, 1, 1]]], f32)
d2 = np.array([[[0.5, 0, 0, 1, 1], [0.125, 0, 0, 1, 1], [0.75, 0.25, 0.25, 1, 1]]], f64)
L = []
L.append((tup(*get_valid_counts(d1, 0.3)), 'vision.get_valid_counts(%s, 0.3f)' % rly(d1)))
L.append((tup(*get_valid_counts(d1, 0., id_index=-1)), 'vision.get_valid_counts(%s, 0f, id_index=-1)' % rly(d1)))
L.append((tup(*get_valid_counts(d2, 0.25, id_index=-1, score_index=0)),
          'vision.get_valid_counts(%s, 0.25f64, id_index=-1, score_index=0)' % rly(d2)))
write('vision_get_valid_counts_values.rly', '''// vision.get_valid_counts as topi's hybrid_get_valid_counts: (count, boxes, indices) with the boxes whose score
// exceeds the threshold (and class id >= 0 unless id_index=-1) moved to the top, -1 rows and indices below.
// Expected values: numpy (tests/tools/gen_vision.py).
''', L)


# ---------------------------------------------------------------- non_max_suppression
def nms(data, valid_count, indices, max_output_size=-1, iou_threshold=0.5, force_suppress=False, top_k=-1,
        coord_start=2, score_index=1, id_index=0, return_indices=True, invalid_to_bottom=False):
    B, N, K = data.shape
    out = np.zeros(data.shape, f64); bi = np.zeros((B, N), np.int64)
    for i in range(B):
        v = int(valid_count[i])
        if iou_threshold > 0:
            if v > 0:
                order = sorted(range(v), key=lambda j: -data[i, j, score_index])  # stable, descending
                nkeep = top_k if 0 < top_k < v else v
                for j in range(nkeep):
                    out[i, j] = data[i, order[j]]; bi[i, j] = order[j]
                for j in range(nkeep, v):
                    out[i, j] = -1; bi[i, j] = -1
            cs = coord_start; nvalid = 0
            for j in range(v):
                if nvalid == max_output_size:
                    out[i, j] = -1; bi[i, j] = -1
                elif out[i, j, score_index] > 0:
                    a = out[i, j]
                    al, at_, ar, ab = min(a[cs], a[cs + 2]), min(a[cs + 1], a[cs + 3]), max(a[cs], a[cs + 2]), max(a[cs + 1], a[cs + 3])
                    valid = True
                    for k in range(j):
                        b = out[i, k]
                        check = False
                        if valid and b[score_index] > 0 and (id_index < 0 or b[id_index] >= 0):
                            if force_suppress or id_index < 0 or a[id_index] == b[id_index]: check = True
                        if check:
                            bl, bt, br, bb = min(b[cs], b[cs + 2]), min(b[cs + 1], b[cs + 3]), max(b[cs], b[cs + 2]), max(b[cs + 1], b[cs + 3])
                            w = max(0., min(ar, br) - max(al, bl)); h = max(0., min(ab, bb) - max(at_, bt))
                            area = h * w; u = (ar - al) * (ab - at_) + (br - bl) * (bb - bt) - area
                            iou = 0. if u <= 0 else area / u
                            if iou >= iou_threshold: valid = False
                    if not valid:
                        out[i, j] = -1; bi[i, j] = -1
                    else:
                        nvalid += 1
        else:
            for j in range(v):
                out[i, j] = data[i, j]; bi[i, j] = j
        for j in range(v, N):
            out[i, j] = -1; bi[i, j] = -1
        if return_indices:
            for j in range(v):
                if bi[i, j] >= 0: bi[i, j] = indices[i, bi[i, j]]
    if return_indices:
        res = -np.ones((B, N), i32); cnt = np.zeros((B, 1), i32)
        for i in range(B):
            n = 0
            for j in range(N):
                if bi[i, j] >= 0: res[i, n] = bi[i, j]; n += 1
                if bi[i, j] > N or bi[i, j] < -N: res[i, n] = 0; n += 1
                if j >= n: res[i, j] = -1
            cnt[i, 0] = n
        return res, cnt
    if invalid_to_bottom:
        r = np.zeros_like(out)
        for i in range(B):
            n = 0
            for j in range(N):
                if out[i, j, 0] >= 0: r[i, n] = out[i, j]; n += 1
                if j >= n: r[i, j] = -1
        out = r
    return out.astype(data.dtype)


bx = np.array([[[0, 0.5, 0, 0, 1, 1], [0, 0.75, 0, 0, 1, 0.875], [1, 0.625, 0, 0, 1, 1], [0, 0.25, 0.5, 0.5, 1.5, 1.5],
                [0, 0.875, 2, 2, 3, 3]]], f32)
vc = np.array([5], i32); ix = np.array([[4, 2, 3, 0, 1]], i32)
vc4 = np.array([4], i32)
L = []
call = 'vision.non_max_suppression(%s, %s, %s, %s, %s%s)'
def add(res, v, mo, thr, mo_s, thr_s, extra, **kw):
    r = nms(bx, v, ix, mo, thr, **kw)
    L.append((tup(*r) if isinstance(r, tuple) else rly(r), call % (rly(bx), rly(v), rly(ix), mo_s, thr_s, extra)))
add(None, vc, -1, 0.5, '-1', '0.5f', '')
add(None, vc, -1, 0.5, '-1', '0.5f', ', force_suppress=True', force_suppress=True)
add(None, vc, 2, 0.5, '2', '0.5f', ', force_suppress=True', force_suppress=True)
add(None, vc4, -1, 0.5, '-1', '0.5f', ', top_k=2', top_k=2)
add(None, vc, -1, 0.5, '-1', '0.5f', ', return_indices=False', return_indices=False)
add(None, vc, -1, 0.5, '-1', '0.5f', ', force_suppress=True, return_indices=False, invalid_to_bottom=True',
    force_suppress=True, return_indices=False, invalid_to_bottom=True)
add(None, vc4, -1, 0., '-1', '0f', ', return_indices=False', return_indices=False)
add(None, vc, -1, 0.25, '-1', '0.25f', ', id_index=-1', id_index=-1)
write('vision_non_max_suppression_values.rly', '''// vision.non_max_suppression as topi's hybrid_nms: boxes sorted by score (stable), top_k kept, a box dropped when
// its IoU with a kept higher-scoring box of its class (any class with force_suppress, id_index=-1) reaches the
// threshold; max_output_size caps the kept boxes; with return_indices (default) the kept boxes' original indices
// compacted with a count, otherwise the boxes (-1 rows; invalid_to_bottom compacts); a threshold <= 0 copies.
// Expected values: numpy (tests/tools/gen_vision.py).
''', L)


# ---------------------------------------------------------------- multibox_transform_loc
def mtl(cls, loc, anc, clip=True, threshold=0.01, variances=(0.1, 0.1, 0.2, 0.2), keep_background=False):
    B, C, A = cls.shape
    out = -np.ones((B, A, 6)); cnt = np.zeros(B, i32)
    v = [float(f32(x)) for x in variances]; threshold = float(f32(threshold))
    for i in range(B):
        for j in range(A):
            score = -1.0; cid = 0
            for k in range(0 if keep_background else 1, C):
                t = cls[i, k, j]
                if t > score: cid = k
                score = max(t, score)
            if cid > 0 and score < threshold: cid = 0
            if keep_background or cid > 0:
                al, at_, ar, ab = anc[0, j]; px, py, pw, ph = loc[i, j * 4:j * 4 + 4]
                aw = ar - al; ah = ab - at_; ax = (al + ar) / 2; ay = (at_ + ab) / 2
                ox = px * v[0] * aw + ax; oy = py * v[1] * ah + ay
                ow = math.exp(pw * v[2]) * aw / 2; oh = math.exp(ph * v[3]) * ah / 2
                c = [ox - ow, oy - oh, ox + ow, oy + oh]
                if clip: c = [max(0., min(1., z)) for z in c]
                out[i, cnt[i]] = [cid if keep_background else cid - 1, score] + c
                cnt[i] += 1
    return out.astype(cls.dtype), cnt


cls = np.array([[[0.5, 0.125, 0.75], [0.25, 0.875, 0.0078125], [0.25, 0, 0.2421875]]], f32)
loc = np.array([[0, 0, 0, 0, 1, -1, 0, 0, 0.5, 0.5, 0, 0]], f32)
anc = np.array([[[0, 0, 0.5, 0.5], [0.25, 0.25, 0.75, 1], [0.5, 0.5, 1.5, 1.5]]], f32)
L = []
s = 'vision.multibox_transform_loc(%s, %s, %s%%s)' % (rly(cls), rly(loc), rly(anc))
L.append((tup(*mtl(cls, loc, anc)), s % ''))
L.append((tup(*mtl(cls, loc, anc, clip=False, variances=(1, 1, 0, 0))), s % ', clip=False, variances=[1f, 1f, 0f, 0f]'))
L.append((tup(*mtl(cls, loc, anc, keep_background=True, threshold=0.3)), s % ', threshold=0.3f, keep_background=True'))
write('vision_multibox_transform_loc_values.rly', '''// vision.multibox_transform_loc as topi's hybrid_multibox_transform_loc: per anchor the best class (background
// skipped unless keep_background; below threshold it is background), boxes decoded from the anchors with the
// variances, clipped to [0, 1] by default; (boxes [id, score, l, t, r, b] compacted, count). Rows past the count
// (which topi leaves unwritten) are -1. Expected values: numpy (tests/tools/gen_vision.py).
''', L)


# ---------------------------------------------------------------- roi_align (roi_align_python), roi_pool
def bilinear(a, n, c, y, x, H, W, nhwc):
    if y < -1 or y > H or x < -1 or x > W: return 0
    y = min(max(y, 0), H - 1); x = min(max(x, 0), W - 1)
    yl, xl = int(math.floor(y)), int(math.floor(x))
    wyh, wxh = y - yl, x - xl; val = 0
    for wx, xp in ((1 - wxh, xl), (wxh, xl + 1)):
        for wy, yp in ((1 - wyh, yl), (wyh, yl + 1)):
            if 0 <= yp < H and 0 <= xp < W:
                val += wx * wy * (a[n, yp, xp, c] if nhwc else a[n, c, yp, xp])
    return val


def roi_align(a, rois, ps, scale, ratio=-1, mode='avg', nhwc=False):
    a = a.astype(f64)
    _, C, H, W = (a.shape[0], a.shape[3], a.shape[1], a.shape[2]) if nhwc else a.shape
    PH, PW = ps
    out = np.zeros((len(rois), PH, PW, C) if nhwc else (len(rois), C, PH, PW))
    for i, roi in enumerate(rois.astype(f64)):
        n = int(roi[0]); x0, y0, x1, y1 = roi[1:] * scale
        rh = max(y1 - y0, 1.); rw = max(x1 - x0, 1.); bh = rh / PH; bw = rw / PW
        gh = gw = ratio if ratio > 0 else None
        if ratio <= 0: gh = int(math.ceil(rh / PH)); gw = int(math.ceil(rw / PW))
        cnt = gh * gw
        for c in range(C):
            for ph in range(PH):
                for pw in range(PW):
                    tot = -math.inf if mode == 'max' else 0.
                    for iy in range(gh):
                        for ix in range(gw):
                            y = y0 + ph * bh + (iy + 0.5) * bh / gh; x = x0 + pw * bw + (ix + 0.5) * bw / gw
                            b = bilinear(a, n, c, y, x, H, W, nhwc)
                            tot = max(tot, b) if mode == 'max' else tot + b / cnt
                    if nhwc: out[i, ph, pw, c] = tot
                    else: out[i, c, ph, pw] = tot
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
        x0, y0, x1, y1 = [int(tir_round(v * scale)) for v in roi[1:]]  # te.round: llvm.round
        rh = max(y1 - y0 + 1, 1); rw = max(x1 - x0 + 1, 1); bh = rh / PH; bw = rw / PW
        for ph in range(PH):
            for pw in range(PW):
                hs = min(max(int(math.floor(ph * bh + 1e-5)) + y0, 0), H); he = min(max(int(math.ceil((ph + 1) * bh - 1e-5)) + y0, 0), H)
                ws = min(max(int(math.floor(pw * bw + 1e-5)) + x0, 0), W); we = min(max(int(math.ceil((pw + 1) * bw - 1e-5)) + x0, 0), W)
                for c in range(C):
                    out[i, c, ph, pw] = 0 if he <= hs or we <= ws else a[n, c, hs:he, ws:we].max()
    return out


img = (np.arange(2 * 2 * 4 * 4) % 7).astype(f32).reshape(2, 2, 4, 4)
rois = np.array([[0, 0, 0, 2, 2], [1, 1, 0.5, 3, 3.5], [0, -1, -1, 1, 1]], f32)
L = []
L.append((rly(roi_align(img, rois, (2, 2), 1.0).astype(f32)),
          'vision.roi_align(%s, %s, pooled_size=[2, 2], spatial_scale=1f)' % (rly(img), rly(rois))))
L.append((rly(roi_align(img, rois, (2, 1), 0.5, ratio=2).astype(f32)),
          'vision.roi_align(%s, %s, pooled_size=[2, 1], spatial_scale=0.5f, sample_ratio=2)' % (rly(img), rly(rois))))
L.append((rly(roi_align(img, rois, (2, 2), 1.0, ratio=2, mode='max').astype(f32)),
          'vision.roi_align(%s, %s, pooled_size=[2, 2], spatial_scale=1f, sample_ratio=2, mode="max")' % (rly(img), rly(rois))))
imgh = np.ascontiguousarray(img.transpose(0, 2, 3, 1))
L.append((rly(roi_align(imgh, rois, (2, 2), 1.0, nhwc=True).astype(f32)),
          'vision.roi_align(%s, %s, pooled_size=[2, 2], spatial_scale=1f, layout="NHWC")' % (rly(imgh), rly(rois))))
write('vision_roi_align_values.rly', '''// vision.roi_align as topi's roi_align_python: each roi (batch, x1, y1, x2, y2) scaled by spatial_scale, split
// into pooled_size bins, each the average (or max) of a sample_ratio grid (adaptive: ceil(roi / pooled) points)
// of bilinear samples; NCHW and NHWC. Expected values: numpy (tests/tools/gen_vision.py).
''', L)

rois2 = np.array([[0, 0, 0, 3, 3], [1, 2, 0, 5, 6], [0, 1.5, 2.5, 2.5, 0.5]], f32)
L = []
L.append((rly(roi_pool(img, rois2, (2, 2), 1.0)), 'vision.roi_pool(%s, %s, pooled_size=[2, 2], spatial_scale=1f)' % (rly(img), rly(rois2))))
L.append((rly(roi_pool(img, rois2, (3, 1), 0.5)), 'vision.roi_pool(%s, %s, pooled_size=[3, 1], spatial_scale=0.5f)' % (rly(img), rly(rois2))))
write('vision_roi_pool_values.rly', '''// vision.roi_pool as topi's roi_pool: roi corners rounded (halves away from zero) after scaling, at least 1x1, bins of
// floor/ceil edges (epsilon 1e-5) clipped to the image, each the max (0 when empty). Expected values: numpy
// (tests/tools/gen_vision.py).
''', L)


# ---------------------------------------------------------------- all_class_non_max_suppression
def iou4(a, b):
    al, at_, ar, ab = min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]), max(a[1], a[3])
    bl, bt, br, bb = min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])
    w = max(0., min(ar, br) - max(al, bl)); h = max(0., min(ab, bb) - max(at_, bt))
    area = h * w; u = (ar - al) * (ab - at_) + (br - bl) * (bb - bt) - area
    return 0. if u <= 0 else area / u


def all_class_nms(boxes, scores, max_out, iou_thr, score_thr, fmt='onnx'):
    B, N, _ = boxes.shape; C = scores.shape[1]
    sel = {}
    for b in range(B):
        for c in range(C):
            order = sorted(range(N), key=lambda j: -scores[b, c, j])  # argsort, stable, descending
            s = [float(scores[b, c, j]) for j in order]
            nkeep = sum(1 for x in s if x > score_thr)  # binary search on the sorted scores
            lim = max_out if max_out > 0 else nkeep
            out = []
            if iou_thr > 0 and nkeep > 0:
                for j in range(nkeep):
                    if len(out) >= lim: break
                    if not s[j] > -1.0: continue
                    out.append((order[j], s[j]))
                    for k in range(j + 1, nkeep):
                        if s[k] > 0 and iou4(boxes[b, order[j]], boxes[b, order[k]]) >= iou_thr: s[k] = -1.0
            sel[b, c] = out
    if fmt == 'onnx':
        ind = np.zeros((B * C * N, 3), np.int64); row = 0
        for b in range(B):
            for c in range(C):
                for j, _ in sel[b, c]:
                    ind[row] = [b, c, j]; row += 1
        return ind, np.array([row], np.int64)
    ind = np.zeros((B, C * N, 2), np.int64); sc = np.zeros((B, C * N), f32); cnt = np.zeros(B, np.int64)
    for b in range(B):
        row = 0
        for c in range(C):
            for j, s in sel[b, c]:
                ind[b, row] = [c, j]; sc[b, row] = s; row += 1
        cnt[b] = row
    return ind, sc, cnt


boxes = np.array([[[0, 0, 1, 1], [0, 0.125, 1, 1], [0, 0, 0.5, 0.5], [2, 2, 3, 3]],
                  [[0, 0, 1, 1], [1, 1, 0, 0], [0.5, 0.5, 1.5, 1.5], [0, 0, 0.25, 1]]], f32)
scores = np.array([[[0.5, 0.75, 0.25, 0.125], [0.0625, 0.5, 0.875, 0.75]],
                   [[0.25, 0.25, 0.5, 0.75], [0.5, 0.625, 0, 0.375]]], f32)
L = []
s = 'vision.all_class_non_max_suppression(%s, %s, %%s, %%s, %%s%%s)' % (rly(boxes), rly(scores))
L.append((tup(*all_class_nms(boxes, scores, 10, 0.5, 0.1)), s % ('10i64', '0.5f', '0.1f', '')))
L.append((tup(*all_class_nms(boxes, scores, 2, 0.25, 0.2)), s % ('2i64', '0.25f', '0.2f', '')))
L.append((tup(*all_class_nms(boxes, scores, -1, 0.5, 0.3, 'tensorflow')), s % ('-1i64', '0.5f', '0.3f', ', output_format="tensorflow"')))
L.append((tup(*all_class_nms(boxes, scores, 1, 0., 0., 'tensorflow')), s % ('1i64', '0f', '0f', ', output_format="tensorflow"')))
write('vision_all_class_non_max_suppression_values.rly', '''// vision.all_class_non_max_suppression as topi's: per batch and class the scores above score_threshold in
// descending (stable) order, greedy suppression by IoU >= iou_threshold, at most max_output_boxes_per_class kept
// (nothing when iou_threshold <= 0); ONNX's (batch, class, box) rows and total, or TensorFlow's per-batch
// (class, box), scores and counts; the rest zeros. Expected values: numpy (tests/tools/gen_vision.py).
''', L)


# ---------------------------------------------------------------- proposal (topi.vision.rcnn.proposal)
def proposal(cls, deltas, info, scales=(4., 8., 16., 32.), ratios=(0.5, 1., 2.), stride=16, threshold=0.7, pre=6000,
             post=300, min_size=16, iou_loss=False):
    B, _, H, W = cls.shape; A = len(scales) * len(ratios); nb = H * W * A
    npre = min(pre, nb) if pre > 0 else nb
    thr = float(f32(threshold))
    anchors = []
    for k in range(A):  # generate_anchor
        ratio, scale = ratios[k // len(scales)], scales[k % len(scales)]
        w = h = float(stride); xc = 0.5 * (w - 1); yc = 0.5 * (h - 1)
        sr = math.floor(w * h / ratio); nw = math.floor(math.sqrt(sr) + 0.5) * scale; nh = math.floor(nw / scale * ratio + 0.5) * scale
        anchors.append((xc - 0.5 * (nw - 1), yc - 0.5 * (nh - 1), xc + 0.5 * (nw - 1), yc + 0.5 * (nh - 1)))
    out = np.zeros((B * post, 5))
    for b in range(B):
        imh, imw, sc = [float(v) for v in info[b]]; msz = sc * min_size
        rh, rw = int(imh / stride), int(imw / stride)
        bbox = []
        for h in range(H):
            for w in range(W):
                for k in range(A):
                    x1, y1, x2, y2 = [anchors[k][i] + (w if i % 2 == 0 else h) * stride for i in range(4)]
                    d = [float(deltas[b, k * 4 + i, h, w]) for i in range(4)]
                    if iou_loss:
                        p = [x1 + d[0], y1 + d[1], x2 + d[2], y2 + d[3]]
                    else:
                        bw = x2 - x1 + 1; bh = y2 - y1 + 1; cx = x1 + 0.5 * (bw - 1); cy = y1 + 0.5 * (bh - 1)
                        pcx = d[0] * bw + cx; pcy = d[1] * bh + cy; pw = math.exp(d[2]) * bw; ph = math.exp(d[3]) * bh
                        p = [pcx - 0.5 * (pw - 1), pcy - 0.5 * (ph - 1), pcx + 0.5 * (pw - 1), pcy + 0.5 * (ph - 1)]
                    p = [max(min(p[0], imw - 1), 0), max(min(p[1], imh - 1), 0), max(min(p[2], imw - 1), 0), max(min(p[3], imh - 1), 0)]
                    score = float(cls[b, A + k, h, w])
                    if h >= rh or w >= rw: score = -1.
                    o = p + [score]
                    if p[2] - p[0] + 1 < msz or p[3] - p[1] + 1 < msz:
                        o = [p[0] - msz / 2, p[1] - msz / 2, p[2] + msz / 2, p[3] + msz / 2, -1.]
                    bbox.append(o)
        order = sorted(range(nb), key=lambda i: -bbox[i][4])[:npre]
        s = [bbox[i] for i in order]
        removed = [False] * npre
        for l in range(npre - 1):
            if removed[l]: continue
            a = s[l]
            for i in range(l + 1, npre):
                c = s[i]
                w = max(0., min(a[2], c[2]) - max(a[0], c[0]) + 1); h = max(0., min(a[3], c[3]) - max(a[1], c[1]) + 1)
                inter = w * h; u = (a[2] - a[0] + 1) * (a[3] - a[1] + 1) + (c[2] - c[0] + 1) * (c[3] - c[1] + 1) - inter
                if inter / u > thr: removed[i] = True
        kept = [s[i] for i in range(npre) if not removed[i]]
        row = 0
        while kept and row < post:
            for kb in kept:
                if row >= post: break
                out[b * post + row] = [b] + kb[:4]; row += 1
    return out


A2 = 2  # scales [0.5, 1] by ratios [1]: anchors of 8 and 16 pixels
cls = np.zeros((1, 2 * A2, 2, 3), f32)
cls[0, A2:] = np.array([[[0.5, 0.75, 0.25], [0.875, 0.125, 0.625]], [[0.3125, 0.9375, 0.0625], [0.4375, 0.5625, 0.6875]]], f32)
dl = np.zeros((1, 4 * A2, 2, 3), f32)
dl[0, 0, 0, 0] = 0.25; dl[0, 1, 1, 2] = -0.5; dl[0, 6, 0, 1] = 0.5; dl[0, 7, 1, 1] = -0.25
info = np.array([[32, 44, 1]], f32)
L = []
base = 'vision.proposal(%s, %s, %s, scales=[0.5f, 1f], ratios=[1f], feature_stride=16%%s)' % (rly(cls), rly(dl), rly(info))
L.append((rly(proposal(cls, dl, info, (0.5, 1.), (1.,), 16, 0.7, 6000, 8, 4).astype(f32)),
          base % ', threshold=0.7f, rpn_post_nms_top_n=8, rpn_min_size=4'))
L.append((rly(proposal(cls, dl, info, (0.5, 1.), (1.,), 16, 0.05, 5, 6, 4).astype(f32)),
          base % ', threshold=0.05f, rpn_pre_nms_top_n=5, rpn_post_nms_top_n=6, rpn_min_size=4'))
L.append((rly(proposal(cls, dl, info, (0.5, 1.), (1.,), 16, 0.7, 6000, 14, 10, True).astype(f32)),
          base % ', rpn_post_nms_top_n=14, rpn_min_size=10, iou_loss=True'))
write('vision_proposal_values.rly', '''// vision.proposal as topi's (rcnn/proposal.py): anchors per cell (generate_anchor), regressed (reg_bbox; reg_iou
// with iou_loss) and clipped to the image, scored -1 outside the image's feature extent or below the minimum size
// (then widened), sorted, rpn_pre_nms_top_n kept, IoU (+1 pixel) > threshold removed, the kept boxes cycled to
// fill rpn_post_nms_top_n rows of [batch, x1, y1, x2, y2]. Expected values: numpy (tests/tools/gen_vision.py).
''', L)


# ---------------------------------------------------------------- regular_non_max_suppression (hybrid_regular_nms)
def regular_nms(boxes, scores, per, M, nc, iou_thr, s_thr):
    B, N, CB = scores.shape; off = CB - nc
    iou_thr = float(f32(iou_thr)); s_thr = float(f32(s_thr))
    ob = np.zeros((B, M, 4), f32); ocl = np.zeros((B, M), f32); osc = np.zeros((B, M), f32); cnt = np.zeros(B, i32)
    for b in range(B):
        merged = []  # (score, box * CB + class)
        for c in range(nc):
            cs = [float(scores[b, i, c + off]) for i in range(N)]
            keep = [i for i in range(N) if cs[i] >= s_thr]
            keep.sort(key=lambda i: -cs[i])  # bubble sort: stable
            active = [True] * len(keep); nactive = len(keep); sel = []
            for i in range(len(keep)):
                if nactive != 0 and len(sel) < min(len(keep), per) and active[i]:
                    sel.append(keep[i]); active[i] = False; nactive -= 1
                    p = [float(x) for x in boxes[b, keep[i]]]
                    for j in range(i + 1, len(keep)):
                        if active[j]:
                            q = [float(x) for x in boxes[b, keep[j]]]
                            ai = (p[2] - p[0]) * (p[3] - p[1]); aj = (q[2] - q[0]) * (q[3] - q[1]); iou = 0.
                            if ai > 0 and aj > 0:
                                inter = max(min(p[2], q[2]) - max(p[0], q[0]), 0.) * max(min(p[3], q[3]) - max(p[1], q[1]), 0.)
                                iou = inter / (ai + aj - inter)
                            if iou > iou_thr: active[j] = False; nactive -= 1
            merged += [(cs[i], i * CB + c + off) for i in sel]
            merged.sort(key=lambda t: -t[0])  # stable
            merged = merged[:M]
        for m, (s, idx) in enumerate(merged):
            a = idx // CB
            ob[b, m] = boxes[b, a]; ocl[b, m] = idx - a * CB - off; osc[b, m] = s
        cnt[b] = len(merged)
    return ob, ocl, osc, cnt


rb = np.array([[[0, 0, 1, 1], [0, 0, 0.875, 1], [0.5, 0.5, 1.5, 1.5], [2, 2, 3, 3], [0, 0, 0, 1]]], f32)
rs = np.array([[[0.1, 0.9, 0.2], [0.2, 0.8, 0.75], [0.3, 0.3, 0.6], [0.4, 0.25, 0.875], [0.5, 0.95, 0.1]]], f32)
L = []
s = 'vision.regular_non_max_suppression(%s, %s, %%s)' % (rly(rb), rly(rs))
L.append((tup(*regular_nms(rb, rs, 3, 4, 2, 0.5, 0.2)),
          s % 'max_detections_per_class=3, max_detections=4, num_classes=2, iou_threshold=0.5f, score_threshold=0.2f'))
L.append((tup(*regular_nms(rb, rs, 1, 5, 3, 0.1, 0.)),
          s % 'max_detections_per_class=1, max_detections=5, num_classes=3, iou_threshold=0.1f, score_threshold=0f'))
L.append((tup(*regular_nms(rb, rs, 5, 10, 2, 0.9, 0.25)),
          s % 'max_detections_per_class=5, max_detections=10, num_classes=2, iou_threshold=0.9f, score_threshold=0.25f'))
write('vision_regular_non_max_suppression_values.rly', '''// vision.regular_non_max_suppression as topi's hybrid_regular_nms (TFLite's detection postprocess): per class
// (skipping the background classes before num_classes) boxes >= score_threshold by score, greedily kept up to
// max_detections_per_class while IoU <= iou_threshold (empty boxes overlap nothing), merged by score and cut to
// max_detections; (boxes, classes as float32, scores, count), zeros past the count.
// Expected values: numpy (tests/tools/gen_vision.py).
''', L)
