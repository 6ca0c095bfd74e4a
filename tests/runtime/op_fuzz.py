"""Random operator calls through `relay -e`: convolutions and pools in both layouts, padding,
resizing, pixel shuffles, tiling, slicing, gathering, sorting, scans, normalization layers,
reductions. A crash (status other than 0 and 1), a hang, an internal error (debug builds check
each operator's result against its type: a relation and a kernel that disagree) or, when every
shape is known to the checker, any run-time error (a program the checker accepted failing for a
reason its types could have caught) is a failure. Half the calls pass their first tensor through a
parameter whose dimensions are all `?`, where run-time shape errors are legitimate.
Usage: op_fuzz.py RELAY [N [SEED]] (TAP output; default 1000 calls, seed 1)."""
import os, random, subprocess, sys
relay = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
R = random.Random(seed)
def shape(rank, lo=1, hi=5): return [R.randint(lo, hi) for _ in range(rank)]
MADE = []
def t(sh, dt="float32"):
    MADE.append((sh, dt))
    n = 1
    for d in sh: n *= d
    txt = 'cast(reshape(arange(%d.0f) - 3f, newshape=%s), dtype="%s")' % (n, sh, dt) if n else 'zeros(shape=%s, dtype="%s")' % (sh, dt)
    MADE[-1] = (sh, dt, txt)
    return txt
def l(xs): return "[" + ", ".join(map(str, xs)) + "]"
def gen():
    k = R.randrange(22)
    if k == 0:
        lay = R.choice(["NCHW", "NHWC"]); kl = R.choice(["OIHW", "HWIO", "OHWI"]) if lay == "NHWC" else "OIHW"
        n, c, h, w = shape(4); g = R.choice([1, 1, c]); o = g * R.randint(1, 3); kh, kw = R.randint(1, 3), R.randint(1, 3)
        xs = [n, c, h, w] if lay == "NCHW" else [n, h, w, c]
        ws = {"OIHW": [o, c // g, kh, kw], "HWIO": [kh, kw, c // g, o], "OHWI": [o, kh, kw, c // g]}[kl]
        if lay == "NHWC" and g > 1: kl = "HWOI"; ws = [kh, kw, o, 1] if o == c else ws
        return "nn.conv2d(%s, %s, strides=%s, padding=%s, dilation=%s, groups=%d, data_layout=\"%s\", kernel_layout=\"%s\")" % (
            t(xs), t(ws), l(shape(2, 1, 4)), l(shape(R.choice([1, 2, 4]), 0, 4)), l(shape(2, 1, 3)), g, lay, kl)
    if k == 1:
        op = R.choice(["nn.max_pool2d", "nn.avg_pool2d"]); lay = R.choice(["NCHW", "NHWC"])
        return "%s(%s, pool_size=%s, strides=%s, padding=%s, dilation=%s, ceil_mode=%s, layout=\"%s\")" % (
            op, t(shape(4)), l(shape(2, 1, 4)), l(shape(2, 1, 4)), l(shape(4, 0, 2)), l(shape(2, 1, 3)), R.choice(["True", "False"]), lay)
    if k == 2:
        op = R.choice(["nn.max_pool1d", "nn.avg_pool1d", "nn.max_pool3d", "nn.avg_pool3d"]); d = 1 if "1d" in op else 3
        return "%s(%s, pool_size=%s, strides=%s, padding=%s, ceil_mode=%s)" % (op, t(shape(d + 2)), l(shape(d, 1, 3)), l(shape(d, 1, 3)), l(shape(d, 0, 1)), R.choice(["True", "False"]))
    if k == 3:
        op = R.choice(["nn.adaptive_avg_pool2d", "nn.adaptive_max_pool2d", "nn.global_max_pool2d", "nn.global_avg_pool2d", "nn.adaptive_avg_pool1d", "nn.adaptive_max_pool3d"])
        d = 1 if "1d" in op else 3 if "3d" in op else 2
        return "%s(%s%s)" % (op, t(shape(d + 2)), ", output_size=%s" % l(shape(R.choice([1, d]), 1, 4)) if "adaptive" in op else "")
    if k == 4:
        r = R.randint(1, 4)
        return "nn.pad(%s, 1.5f, pad_width=[%s], pad_mode=\"%s\")" % (t(shape(r, 2, 4)), ", ".join(l(shape(2, 0, 1)) for _ in range(r)), R.choice(["constant", "edge", "reflect"]))
    if k == 5:
        return "image.resize2d(%s, size=%s, method=\"%s\", coordinate_transformation_mode=\"%s\")" % (t(shape(4)), l(shape(2, 1, 6)), R.choice(["nearest_neighbor", "linear"]), R.choice(["half_pixel", "align_corners", "asymmetric"]))
    if k == 6:
        return "nn.upsampling(%s, scale_h=%d, scale_w=%d, method=\"%s\")" % (t(shape(4)), R.randint(1, 3), R.randint(1, 3), R.choice(["nearest_neighbor", "bilinear"]))
    if k == 7:
        b = R.randint(1, 3)
        if R.random() < .5: return "nn.depth_to_space(%s, block_size=%d, mode=\"%s\")" % (t([R.randint(1, 2), b * b * R.randint(1, 3), R.randint(1, 3), R.randint(1, 3)]), b, R.choice(["DCR", "CRD"]))
        return "nn.space_to_depth(%s, block_size=%d)" % (t([1, R.randint(1, 3), b * R.randint(1, 3), b * R.randint(1, 3)]), b)
    if k == 8:
        r = R.randint(1, 4)
        return "tile(%s, reps=%s)" % (t(shape(r)), l(shape(R.randint(1, 5), 1, 3)))
    if k == 9:
        r = R.randint(1, 4)
        return "repeat(%s, repeats=%d, axis=%d)" % (t(shape(r)), R.randint(1, 3), R.randint(-r, r - 1))
    if k == 10:
        r = R.randint(1, 4); sh = shape(r, 0, 5)
        nb = R.randint(1, r)
        return "strided_slice(%s, begin=%s, end=%s, strides=%s)" % (t(sh), l([R.randint(-6, 6) for _ in range(nb)]), l([R.randint(-6, 6) for _ in range(nb)]), l([R.choice([1, 2, -1, -2]) for _ in range(nb)]))
    if k == 11:
        r = R.randint(1, 3); a = R.randint(0, r - 1); s1 = shape(r); s2 = list(s1); s2[a] = R.randint(0, 3)
        return "concatenate((%s, %s), axis=%d)" % (t(s1), t(s2), a)
    if k == 12:
        return "layout_transform(%s, src_layout=\"NCHW\", dst_layout=\"%s\")" % (t([1, 4 * R.randint(1, 2), 2, 3]), R.choice(["NHWC", "NCHW4c", "NCHW2c", "HWCN"]))
    if k == 13:
        r = R.randint(1, 3); sh = shape(r); a = R.randint(0, r - 1); isz = list(sh); isz[a] = R.randint(1, 4)
        return "gather(%s, cast(floor_mod(reshape(arange(%d), newshape=%s), %d), dtype=\"int64\"), axis=%d)" % (t(sh), eval("*".join(map(str, isz))), isz, sh[a], a)
    if k == 14:
        r = R.randint(1, 3); sh = shape(r); a = R.randint(-r, r - 1)
        return "topk(%s, k=%d, axis=%d, ret_type=\"%s\", is_ascend=%s)" % (t(sh), R.randint(0, 3), a, R.choice(["both", "values", "indices"]), R.choice(["True", "False"]))
    if k == 15:
        r = R.randint(1, 3); sh = shape(r)
        return "%s(%s, axis=%s, exclusive=%s)" % (R.choice(["cumsum", "cumprod"]), t(sh), R.choice(["None", str(R.randint(-r, r - 1))]), R.choice(["True", "False"]))
    if k == 16:
        r = R.randint(1, 3)
        return "one_hot(cast(floor_mod(reshape(arange(%d), newshape=%s), 4), dtype=\"int32\"), 1f, 0f, depth=%d, axis=%d)" % (eval("*".join(map(str, (s := shape(r))))), s, R.randint(1, 5), R.randint(-1, r))
    if k == 17:
        r = R.randint(2, 4); sh = shape(r); a = R.randint(-r, r - 1); c = sh[a]
        op = R.choice(["nn.batch_norm", "nn.layer_norm", "nn.instance_norm", "nn.group_norm"])
        v = "ones(shape=[%d])" % c
        if op == "nn.batch_norm": return "nn.batch_norm(%s, %s, %s, %s, %s, axis=%d).0" % (t(sh), v, v, v, v, a)
        if op == "nn.group_norm": return "nn.group_norm(%s, %s, %s, num_groups=%d, axis=%d)" % (t(sh), v, v, R.choice([1, c]), a)
        if op == "nn.instance_norm" and r < 3: sh = sh + [2]
        return "%s(%s, %s, %s, axis=%d)" % (op, t(sh), v, v, a)
    if k == 18:
        r = R.randint(1, 4); sh = shape(r)
        return "%s(%s, axis=%s, keepdims=%s, exclude=%s)" % (R.choice(["argmax", "argmin", "sum", "max"]), t(sh), l(R.sample(range(r), R.randint(1, r))), R.choice(["True", "False"]), R.choice(["True", "False"]))
    if k == 19:
        n, c, h, w = shape(4); o = R.randint(1, 3)
        return "nn.conv2d_transpose(%s, %s, strides=%s, padding=%s, output_padding=%s)" % (t([n, c, h, w]), t([c, o, R.randint(1, 3), R.randint(1, 3)]), l([2, 2]), l(shape(2, 0, 1)), l(shape(2, 0, 1)))
    if k == 20:
        r = R.randint(1, 4)
        return "reverse(%s, axis=%d)" % (t(shape(r)), R.randint(-r, r - 1))
    return "nn.conv1d(%s, %s, strides=[%d], padding=[%d])" % (t([1, 2, R.randint(1, 6)]), t([3, 2, R.randint(1, 3)]), R.randint(1, 2), R.randint(0, 2))
def gen_more_shapes():
    """One random call of fast_softmax, cast_like, slice_like, sequence_mask, trilu, einsum, meshgrid,
    invert_permutation, matrix_set_diag, unravel_index, contrib_reverse_reshape, reinterpret, strided_set,
    searchsorted, argwhere, unique, sliding_window or adv_index."""
    k = R.randrange(18)
    ints = lambda xs, dt="int32": 'cast(%s, dtype="%s")' % (l(xs) if xs else 'zeros(shape=[0], dtype="int32")', dt)
    if k == 0:
        r = R.randint(1, 3); return "nn.fast_softmax(%s, axis=%d)" % (t(shape(r)), R.randint(-r, r - 1))
    if k == 1:
        return "cast_like(%s, zeros(shape=[1], dtype=\"%s\"))" % (t(shape(R.randint(0, 3))), R.choice(["int8", "uint8", "int64", "float64", "float16"]))
    if k == 2:
        r = R.randint(1, 3); sh = shape(r); lk = [R.randint(1, d) for d in sh][:R.randint(1, r)]
        ax = "" if R.random() < .5 else ", axes=%s" % l(R.sample(range(len(lk)), R.randint(1, len(lk))))
        return "slice_like(%s, zeros(shape=%s)%s)" % (t(sh), l(lk), ax)
    if k == 3:
        r = R.randint(2, 3); sh = shape(r); a = R.randint(0, 1)
        return "sequence_mask(%s, %s, mask_value=%s, axis=%d)" % (t(sh), ints([R.randint(0, 6) for _ in range(sh[1 - a])]), R.choice(["0f", "-1.5f"]), a)
    if k == 4:
        return "trilu(%s, %d, upper=%s)" % (t(shape(R.randint(2, 4))), R.randint(-4, 4), R.choice(["True", "False"]))
    if k == 5:
        i, j, kk, b = shape(4)
        eq, shs = R.choice([("ij,jk->ik", [[i, j], [j, kk]]), ("bij,bjk->bik", [[b, i, j], [b, j, kk]]), ("ii->i", [[i, i]]),
                            ("...j,jk", [[b, i, j], [j, kk]]), ("i,j", [[i], [j]]), ("bhqd,bhkd->bhqk", [[b, 2, i, j], [b, 2, kk, j]]), ("ij->", [[i, j]])])
        return "einsum((%s,), equation=\"%s\")" % (", ".join(t(s) for s in shs), eq)
    if k == 6:
        n = R.randint(1, 3)
        return "meshgrid((%s,), indexing=\"%s\")" % (", ".join(t(shape(R.randint(0, 1))) for _ in range(n)), R.choice(["ij", "xy"]))
    if k == 7:
        p = list(range(R.randint(1, 6))); R.shuffle(p); return "invert_permutation(%s)" % ints(p, R.choice(["int32", "int64"]))
    if k == 8:
        m, n = shape(2); k1 = R.randint(-m + 1, n - 1); k2 = R.randint(k1, n - 1) if R.random() < .5 else k1
        L = min(m + min(k2, 0), n - max(k1, 0)); b = shape(R.randint(0, 1))
        d = b + ([] if k1 == k2 else [k2 - k1 + 1]) + [L]
        return "matrix_set_diag(%s, %s, k1=%d, k2=%d, super_diag_right_align=%s, sub_diag_right_align=%s)" % (t(b + [m, n]), t(d), k1, k2, R.choice(["True", "False"]), R.choice(["True", "False"]))
    if k == 9:
        sh = shape(R.randint(1, 3)); tot = 1
        for d in sh: tot *= d
        return "unravel_index(%s, %s)" % (ints([R.randrange(tot) for _ in range(R.randint(1, 4))]), ints(sh))
    if k == 10:
        sh = shape(R.randint(1, 4)); codes = R.choice([[-1], [0, -1], [-1, 0], [-2], [-2, -3] if len(sh) >= 2 else [-1], [-2, 0]])
        return "contrib_reverse_reshape(%s, newshape=%s)" % (t(sh), l(codes))
    if k == 11:
        f, to = R.choice([("float32", "int32"), ("int32", "float32"), ("int8", "uint8"), ("float64", "int64"), ("int16", "float16")])
        return "reinterpret(%s, dtype=\"%s\")" % (t(shape(R.randint(0, 3)), f), to)
    if k == 12:
        r = R.randint(1, 3); sh = shape(r); nb = R.randint(1, r)
        b = [R.randint(-5, 5) for _ in range(nb)]; e = [R.randint(-5, 6) for _ in range(nb)]; s = [R.choice([1, 2, -1]) for _ in range(nb)]
        sl = []
        for a in range(r):
            sl.append(len(range(*slice(b[a], e[a], s[a]).indices(sh[a]))) if a < nb else sh[a])
        return "strided_set(%s, %s, %s, %s, %s)" % (t(sh), "zeros(shape=%s)" % l(sl), ints(b), ints(e), ints(s))
    if k == 13:
        r = R.randint(1, 2); sh = shape(r)
        return "searchsorted(sort(%s), %s, right=%s)" % (t(sh), t(sh[:-1] + [R.randint(1, 4)]) if r > 1 else t([R.randint(1, 4)]), R.choice(["True", "False"]))
    if k == 14:
        return "argwhere(%s)" % t(shape(R.randint(0, 3)), R.choice(["float32", "int32", "bool"]))
    if k == 15:
        return "unique(floor_mod(%s, 3i64), sorted=%s, return_counts=%s)" % (t(shape(1, 0, 6), "int64"), R.choice(["True", "False"]), R.choice(["True", "False"]))
    if k == 16:
        r = R.randint(1, 3); sh = shape(r, 2, 6); a = R.randint(0, r - 1)
        w = [R.randint(1, d) for d in sh[a:]]
        return "sliding_window(%s, axis=%d, window_shape=%s, strides=%s)" % (t(sh), a, l(w), l(shape(len(w), 1, 3)))
    r = R.randint(1, 3); sh = shape(r); n = R.randint(1, r); bs = shape(R.randint(0, 2), 1, 3)
    return "adv_index((%s, %s))" % (t(sh), ", ".join(ints([R.randint(-sh[i], sh[i] - 1) for _ in range(1)]) if not bs else "reshape(%s, newshape=%s)" % (ints([R.randint(-sh[i], sh[i] - 1) for _ in range(eval("*".join(map(str, bs))))]), l(bs)) for i in range(n)))
def gen_vision():
    """Vision: one random vision.* call whose run-time checks pass when shapes are known."""
    k = R.randrange(10)
    fl = lambda xs: "[" + ", ".join("%gf" % x for x in xs) + "]"
    if k == 0:
        s = R.randint(1, 2); sh = [R.randint(1, 2), s * s * R.randint(1, 2), s * R.randint(1, 3), s * R.randint(1, 3)]
        return "vision.yolo_reorg(%s, stride=%d)" % (t(sh, R.choice(["float32", "float64", "int32"])), s)
    if k == 1:
        sz = [R.choice([0.25, 0.5, 1]) for _ in range(R.randint(1, 3))]; ra = [R.choice([0.5, 1, 2]) for _ in range(R.randint(1, 3))]
        return "vision.multibox_prior(%s, sizes=%s, ratios=%s, clip=%s)" % (t(shape(4)), fl(sz), fl(ra), R.choice(["True", "False"]))
    if k == 2:
        b, a, c = R.randint(1, 2), R.randint(1, 4), R.randint(1, 3)
        return "vision.multibox_transform_loc(sigmoid(%s), %s, sigmoid(%s), keep_background=%s)" % (
            t([b, c, a]), t([b, a * 4]), t([1, a, 4]), R.choice(["True", "False"]))
    if k == 3:
        kk = R.randint(5, 6)
        return "vision.get_valid_counts(%s, %gf, id_index=%d, score_index=%d)" % (t([R.randint(1, 2), R.randint(1, 5), kk]), R.uniform(-2, 2), R.choice([-1, 0]), R.choice([1, 2]))
    if k == 4:
        b, n = R.randint(1, 2), R.randint(1, 5)
        vc = l([R.randint(0, n) for _ in range(b)])
        ix = "[" + ", ".join(l(R.sample(range(n), n)) for _ in range(b)) + "]"
        return "vision.non_max_suppression(%s, %s, %s, %d, %gf, force_suppress=%s, top_k=%d, return_indices=%s, invalid_to_bottom=%s)" % (
            t([b, n, 6]), vc, ix, R.choice([-1, 1, 2]), R.choice([0, 0.3, 0.5]), R.choice(["True", "False"]), R.choice([-1, 2]),
            R.choice(["True", "False"]), R.choice(["True", "False"]))
    if k == 7:
        b, n, c = R.randint(1, 2), R.randint(1, 5), R.randint(1, 3)
        return "vision.all_class_non_max_suppression(%s, sigmoid(%s), %di64, %gf, %gf, output_format=\"%s\")" % (
            t([b, n, 4]), t([b, c, n]), R.choice([-1, 1, 3]), R.choice([0, 0.3, 0.5]), R.choice([0, 0.4]), R.choice(["onnx", "tensorflow"]))
    if k == 8:
        b, h, w = R.randint(1, 2), R.randint(1, 3), R.randint(1, 3); sc = [R.choice([0.25, 0.5, 1]) for _ in range(R.randint(1, 2))]
        ra = [R.choice([0.5, 1, 2]) for _ in range(R.randint(1, 2))]; a = len(sc) * len(ra)
        info = "[" + ", ".join(fl([R.randint(8, 64), R.randint(8, 64), R.choice([0.5, 1])]) for _ in range(b)) + "]"
        return "vision.proposal(sigmoid(%s), %s / 8f, %s, scales=%s, ratios=%s, feature_stride=8, threshold=%gf, rpn_pre_nms_top_n=%d, rpn_post_nms_top_n=%d, rpn_min_size=%d, iou_loss=%s)" % (
            t([b, 2 * a, h, w]), t([b, 4 * a, h, w]), info, fl(sc), fl(ra), R.choice([0.3, 0.7]), R.choice([-1, 3]), R.randint(1, 6), R.choice([1, 4]), R.choice(["True", "False"]))
    if k == 9:
        b, n, c = R.randint(1, 2), R.randint(1, 5), R.randint(1, 3)
        return "vision.regular_non_max_suppression(%s, sigmoid(%s), max_detections_per_class=%d, max_detections=%d, num_classes=%d, iou_threshold=%gf, score_threshold=%gf)" % (
            t([b, n, 4]), t([b, n, c]), R.randint(1, 4), R.randint(0, 6), R.randint(0, c), R.choice([0.3, 0.6]), R.choice([0, 0.5]))
    lay = R.choice(["NCHW", "NHWC"]); n = R.randint(1, 2)
    rois = "[" + ", ".join(fl([R.randrange(n)] + [R.uniform(-1, 6) for _ in range(4)]) for _ in range(R.randint(1, 3))) + "]"
    ps = l(shape(2, 1, 3))
    if k == 5:
        return "vision.roi_align(%s, %s, pooled_size=%s, spatial_scale=%gf, sample_ratio=%d, layout=\"%s\", mode=\"%s\")" % (
            t([n] + shape(3)), rois, ps, R.choice([0.5, 1]), R.choice([-1, 1, 2]), lay, R.choice(["avg", "max"]))
    return "vision.roi_pool(%s, %s, pooled_size=%s, spatial_scale=%gf, layout=\"%s\")" % (t([n] + shape(3)), rois, ps, R.choice([0.5, 1]), lay)
def gen_more_layers():
    """One random call of the padding, batching and transposed operators (mirror_pad, space/batch_nd, conv1d/3d_transpose, resize1d/3d,
    upsampling3d, dilate, nll_loss, crop_and_resize, affine_grid, grid_sample)."""
    k = R.randrange(17)
    if k == 12:
        return "fixed_point_multiply(%s, multiplier=%d, shift=%d)" % (t(shape(R.randint(0, 3)), "int32"), R.choice([1 << 30, R.randint(-2**31, 2**31 - 1)]), R.randint(-40, 31))
    if k == 13:
        sh = shape(R.randint(1, 3)); a = R.randrange(len(sh))
        return "fixed_point_multiply_per_axis(%s, %s, %s, %s, is_lshift_required=%s, axes=[%d])" % (t(sh, "int32"), t([sh[a]], "int32"), "zeros(shape=[%d], dtype=\"int32\")" % sh[a], "ones(shape=[%d], dtype=\"int32\")" % sh[a], R.choice(["True", "False"]), a)
    if k == 14:
        dt = R.choice(["int8", "uint8"])
        return "qnn.leaky_relu(%s, %sf, %d, %sf, %d, alpha=%sf)" % (t(shape(R.randint(0, 3)), dt), R.choice(["0.5", "0.1", "2"]), R.randint(-5, 5), R.choice(["0.5", "0.25", "3"]), R.randint(-5, 5), R.choice(["0.1", "0.25", "0.9"]))
    if k == 15:
        r = R.randint(1, 3)
        return "qnn.softmax(%s, %sf, %d, 0.00390625f, -128, axis=%d)" % (t(shape(r), "int8"), R.choice(["0.5", "0.1", "1", "0.01"]), R.randint(-3, 3), R.randint(-r, r - 1))
    if k == 16:
        c = R.randint(1, 3); o = R.randint(1, 3)
        return "qnn.conv2d_transpose(%s, %s, %d, %d, 1f, 1f, strides=%s)" % (t([1, c] + shape(2, 1, 3), "uint8"), t([c, o] + shape(2, 1, 3), "int8"), R.randint(0, 5), R.randint(-3, 3), l(shape(2, 1, 2)))
    if k == 0:
        r = R.randint(1, 4); sh = shape(r); mode = R.choice(["REFLECT", "SYMMETRIC"])
        pw = [[R.randint(0, d - (mode == "REFLECT")), R.randint(0, d - (mode == "REFLECT"))] for d in sh]
        return 'nn.mirror_pad(%s, pad_width=%s, mode="%s")' % (t(sh, R.choice(["float32", "int32", "float64"])), pw, mode)
    if k == 1:
        m = R.randint(1, 2); b = shape(m, 1, 3); pads = [[R.randint(0, 2), 0] for _ in range(m)]
        sp = [R.randint(1, 3) * b[i] for i in range(m)]
        for i in range(m): pads[i][1] = (-(sp[i] + pads[i][0])) % b[i]; sp[i] = sp[i]
        return "nn.space_to_batch_nd(%s, block_shape=%s, paddings=%s)" % (t([R.randint(1, 2)] + sp + shape(R.randint(0, 1))), l(b), pads)
    if k == 2:
        m = R.randint(1, 2); b = shape(m, 1, 3); p = 1
        for x in b: p *= x
        sp = shape(m, 1, 3); crops = [[R.randint(0, sp[i] * b[i] // 2), 0] for i in range(m)]
        return "nn.batch_to_space_nd(%s, block_shape=%s, crops=%s)" % (t([p * R.randint(1, 2)] + sp + [R.randint(1, 2)]), l(b), crops)
    if k == 3:
        d = R.choice([1, 3]); c = R.randint(1, 3); o = R.randint(1, 2)
        op = "nn.conv1d_transpose" if d == 1 else "nn.conv3d_transpose"
        return "%s(%s, %s, strides=%s, padding=%s, output_padding=%s)" % (op, t([1, c] + shape(d, 1, 3)), t([c, o] + shape(d, 1, 2)), l(shape(d, 1, 2)), l(shape(d, 0, 1)), l([0] * d))
    if k == 4:
        return 'image.resize1d(%s, size=[%d], method="%s", coordinate_transformation_mode="%s")' % (t(shape(3)), R.randint(0, 6), R.choice(["linear", "nearest_neighbor"]), R.choice(["half_pixel", "align_corners", "asymmetric"]))
    if k == 5:
        return 'image.resize3d(%s, size=%s, method="%s")' % (t(shape(5, 1, 3)), l(shape(3, 1, 4)), R.choice(["linear", "nearest_neighbor"]))
    if k == 6:
        return 'nn.upsampling3d(%s, scale_d=%s, scale_h=2f, method="%s")' % (t(shape(5, 1, 3)), R.choice(["1f", "2f", "1.5f"]), R.choice(["trilinear", "nearest_neighbor"]))
    if k == 7:
        r = R.randint(1, 4)
        return "nn.dilate(%s, strides=%s, dilation_value=%df)" % (t(shape(r, 0, 3), R.choice(["float32", "int8"])), l(shape(r, 1, 3)), R.randint(-2, 2))
    if k == 8:
        n, c = shape(2); extra = shape(R.randint(0, 2)); tg = [R.randint(0, c - 1) for _ in range(n)]
        tgt = "reshape(%s, newshape=%s)" % (l([R.randint(0, c - 1) for _ in range(n * (extra[0] if extra else 1) * (extra[1] if len(extra) > 1 else 1))]), l([n] + extra))
        return 'nn.nll_loss(%s, %s, %s, reduction="%s")' % (t([n, c] + extra), tgt, t([c]), R.choice(["mean", "sum", "none"]))
    if k == 9:
        b = R.randint(1, 3)
        return "image.crop_and_resize(%s, %s, %s, crop_size=%s)" % (t(shape(4)), "divide(%s, 4f)" % t([b, 4]), l([0] * b), l(shape(2, 1, 4)))
    if k == 10:
        return "image.affine_grid(%s, target_shape=%s)" % (t([R.randint(1, 2), 2, 3]), l(shape(2, 2, 4)))
    n = R.randint(1, 2); d = R.choice([2, 3])
    return 'image.grid_sample(%s, divide(%s, 3f), method="%s", padding_mode="%s", align_corners=%s)' % (t([n] + shape(d + 1)), t([n, d] + shape(d)), R.choice(["bilinear", "nearest"] + (["bicubic"] if d == 2 else [])), R.choice(["zeros", "border", "reflection"]), R.choice(["True", "False"]))


def gen_packed():
    """Packed layouts, Winograd, annotations, simulated quantization: one random call whose run-time checks
    pass when shapes are known."""
    k = R.randrange(8)
    if k in (0, 1):  # nn.contrib_conv2d_NCHWc / depthwise: channels split by cb, output channels by ob
        n, h, w = R.randint(1, 2), R.randint(2, 5), R.randint(2, 5); cb, ob = R.choice([1, 2, 4]), R.choice([1, 2, 4])
        kh, kw = R.randint(1, min(3, h)), R.randint(1, min(3, w)); ol = R.choice(["", "NCHW", "NCHW%dc" % ob])
        dt = R.choice(["float32", "float64", "int32"])
        if k == 0:
            c, o, g = cb * R.randint(1, 2), ob * R.randint(1, 2), 1
            ib = R.choice([d for d in (1, 2, 4) if c % d == 0])
            wsh = [o // ob, c // ib, kh, kw, ib, ob]; kl = "OIHW%di%do" % (ib, ob)
            op = "nn.contrib_conv2d_NCHWc"; extra = "channels=%d, kernel_size=[%d, %d], " % (o, kh, kw)
        else:
            c = ob * R.randint(1, 2) * cb // __import__("math").gcd(cb, ob); o, g = c, c
            wsh = [o // ob, 1, kh, kw, 1, ob]; kl = "OIHW1i%do" % ob
            op = "nn.contrib_depthwise_conv2d_NCHWc"; extra = R.choice(["", "channels=%d, kernel_size=[%d, %d], " % (o, kh, kw)])
        if ol == "":
            ol = "NCHW%dc" % cb if o % cb == 0 else "NCHW"
        return '%s(%s, %s, %sgroups=%d, padding=%s, strides=%s, data_layout="NCHW%dc", kernel_layout="%s", out_layout="%s")' % (
            op, t([n, c // cb, h, w, cb], dt), t(wsh, dt), extra, g, l([R.randint(0, 1)] * 2), l([R.randint(1, 2)] * 2), cb, kl, ol)
    if k == 2:
        m, kk, nb = R.randint(1, 3), R.randint(1, 4), R.choice([1, 2, 4]); nn_ = nb * R.randint(1, 3)
        if R.random() < 0.3:
            return 'qnn.contrib_dense_pack(%s, %s, %d, %d, 0.5f, 0.25f, weight_layout="NC%dn%dc", out_dtype="int32")' % (
                t([m, 2 * kk], "uint8"), t([nn_ // nb, kk, nb, 2], "int8"), R.randint(0, 3), R.randint(-2, 2), nb, 2)
        return 'nn.contrib_dense_pack(%s, %s, weight_layout="NC%dn")' % (t([m, kk]), t([nn_ // nb, kk, nb]), nb)
    if k == 3:
        return "nn.contrib_conv2d_winograd_weight_transform(%s, tile_size=%d)" % (t([R.randint(1, 3), R.randint(1, 3), 3, 3], R.choice(["float32", "float64"])), R.randint(2, 6))
    if k == 4:
        m, c, o = R.randint(2, 4), R.randint(1, 3), R.randint(1, 3); p = R.randint(0, 1)
        x = t([R.randint(1, 2), c, R.randint(3 - 2 * p, 7), R.randint(3 - 2 * p, 7)])
        return "nn.contrib_conv2d_winograd_without_weight_transform(%s, nn.contrib_conv2d_winograd_weight_transform(%s, tile_size=%d), tile_size=%d, channels=%d, kernel_size=[3, 3], padding=[%d, %d])" % (
            x, t([o, c, 3, 3]), m, m, o, p, p)
    if k == 6 and R.random() < 0.3:
        n, h, w, c, o, kh, kw = R.randint(1, 2), R.randint(2, 5), R.randint(2, 5), R.randint(1, 4), R.randint(1, 5), R.randint(1, 2), R.randint(1, 2)
        tr, tc = R.randint(1, 4), R.randint(1, 4)
        return 'nn.contrib_conv2d_gemm_without_weight_transform(%s, nn.contrib_conv2d_gemm_weight_transform(%s, tile_rows=%d, tile_cols=%d), channels=%d, kernel_size=[%d, %d], strides=%s, data_layout="NHWC", kernel_layout="HWIO")' % (
            t([n, h, w, c]), t([kh, kw, c, o]), tr, tc, o, kh, kw, l([R.randint(1, 2)] * 2))
    if k == 6 and R.random() < 0.5:
        sh = shape(R.randint(1, 3)); dst = "".join("%d%s" % (d, "abcd"[i]) for i, d in enumerate(sh))
        return 'auto_scheduler_layout_transform(%s, src_layout="%s", dst_layout="%s")' % (t(sh), dst, dst)
    if k == 5:
        op = R.choice(['annotation.checkpoint(%s)', 'annotation.compiler_begin(%s, compiler="dnnl")', 'annotation.compiler_end(%s, compiler="dnnl")',
                       'annotation.cast_hint(%s, dtype="float16")', 'annotation.bitpack_start(%s)', 'annotation.bitpack_end(%s)',
                       'annotation.with_funcid(%s, fid=2)', 'debug(%s)', 'annotation.stop_fusion(%s)'])
        return op % t(shape(R.randint(0, 3)), R.choice(["float32", "int8", "int64"]))
    sh = shape(R.randint(1, 3)); ax = R.randrange(len(sh)); nc = R.choice([1, sh[ax]])
    return "qnn.%s(%s, %d, %s, %s, axis=%d)" % (R.choice(["simulated_quantize", "simulated_dequantize"]), t(sh, R.choice(["float32", "float64"])),
                                               R.randint(0, 4), l(["%gf" % R.choice([0.25, 0.5, 2]) for _ in range(nc)]), l([R.randint(-3, 3) for _ in range(nc)]), ax)


def gen_sparse_random():
    """One random call of the sparse and random operators (sparse_to_dense, sparse_reshape, sparse_fill_empty_rows,
    nn.sparse_dense/transpose/add, random.*, dft, stft, nn.correlation, image.dilation2d, nn.fifo_buffer,
    nn.deformable_conv2d, nn.conv2d_backward_weight)."""
    k = R.randrange(19)
    def csr(rows, cols):
        ptr = [0]; ix = []
        for _ in range(rows):
            cs = sorted(R.sample(range(cols), R.randint(0, cols))); ix += cs; ptr.append(len(ix))
        return ix, ptr
    key = l(["%du64" % R.choice([0, 1, 5, 2**63, 2**64 - 3]) for _ in range(10)])
    if k == 0:
        sh = shape(R.randint(1, 3)); n = R.randint(1, 4)
        ix = [[R.randrange(d) for d in sh] for _ in range(n)]
        if len(sh) == 1 and R.random() < .5: ix = [i[0] for i in ix]
        return "sparse_to_dense(%s, %s, %s, output_shape=%s)" % (l(ix), t([n], "float32"), "2f", l(sh))
    if k == 1:
        sh = shape(R.randint(1, 3)); n = R.randint(1, 4); tot = 1
        for d in sh: tot *= d
        ns = [tot] if R.random() < .5 else [-1]
        return "sparse_reshape(%s, %s, %s)" % (l([l([R.randrange(d) for d in sh]) for _ in range(n)]), l(sh), l(ns))
    if k == 2:
        rows = R.randint(1, 5); c = R.randint(1, 3); rs = sorted(R.choice(range(rows)) for _ in range(R.randint(1, 4)))
        ix = l([l(["%di64" % r] + ["%di64" % R.randrange(c)]) for r in rs])
        return "sparse_fill_empty_rows(%s, %s, %s, [1f])" % (ix, t([len(rs)]), l(["%di64" % rows, "%di64" % c]))
    if k in (3, 4):
        m, kk, n = R.randint(1, 3), R.randint(1, 4), R.randint(1, 4)
        if k == 3:
            ix, ptr = csr(n, kk)
            return "nn.sparse_dense(%s, %s, %s, %s)" % (t([m, kk]), t([len(ix)]) if ix else 'zeros(shape=[0], dtype="float32")', l(ix), l(ptr))
        br, bc = R.randint(1, 2), R.randint(1, 2); ix, ptr = csr(n, kk)
        return "nn.sparse_dense(%s, %s, %s, %s, sparse_lhs=%s)" % (t([m, kk * bc]), t([len(ix), br, bc]) if ix else 'zeros(shape=[0, %d, %d], dtype="float32")' % (br, bc), l(ix), l(ptr), R.choice(["True", "False"]))
    if k == 5:
        n = R.randint(1, 4); ix, ptr = csr(n, n)
        return "nn.sparse_transpose(%s, %s, %s)" % (t([len(ix)]) if ix else 'zeros(shape=[0], dtype="float32")', l(ix), l(ptr))
    if k == 6:
        m, n = R.randint(1, 3), R.randint(1, 4); ix, ptr = csr(m, n)
        return "nn.sparse_add(%s, %s, %s, %s)" % (t([m, n]), t([len(ix)]) if ix else 'zeros(shape=[0], dtype="float32")', l(ix), l(ptr))
    if k == 7:
        return "random.threefry_generate(%s, out_shape=%s)" % (key, l(shape(R.randint(0, 3), 0, 4)))
    if k == 8:
        return "random.threefry_split(%s)" % key
    if k in (9, 10):
        dt = R.choice(["float32", "float64"]); sfx = "f" if dt == "float32" else "f64"
        return "random.%s(%s, 0%s, 2%s, out_shape=%s, out_dtype=\"%s\")" % ("uniform" if k == 9 else "normal", key, sfx, sfx, l(shape(R.randint(0, 3), 0, 4)), dt)
    if k == 11:
        return "random.multinomial(%s, sigmoid(%s), num_samples=%d)" % (key, t(shape(R.randint(1, 2))), R.randint(0, 4))
    if k == 12:
        sh = shape(R.randint(1, 3)); dt = R.choice(["float32", "float64"])
        return "dft(%s, %s, inverse=%s)" % (t(sh, dt), t(sh, dt), R.choice(["True", "False"]))
    if k == 13:
        n_fft = R.randint(1, 5); win = R.randint(1, n_fft); L = n_fft + R.randint(0, 6)
        return "stft(%s, %s, n_fft=%d, hop_length=%d, win_length=%d, normalized=%s, onesided=%s)" % (
            t([L] if R.random() < .5 else [R.randint(1, 2), L]), t([win]), n_fft, R.randint(1, 3), win, R.choice(["True", "False"]), R.choice(["True", "False"]))
    if k == 14:
        ks = R.choice([1, 3]); md = R.randint(0, 2); pad = R.randint(0, 2); h = 2 * (md + ks // 2) - 2 * pad + R.randint(1, 3)
        sh = [R.randint(1, 2), R.randint(1, 2), max(h, 1), max(h, 1) + R.randint(0, 2)]
        return "nn.correlation(%s, %s, kernel_size=%d, max_displacement=%d, stride1=%d, stride2=%d, padding=[%d, %d], is_multiply=%s)" % (
            t(sh), t(sh), ks, md, R.randint(1, 2), R.randint(1, 2), pad, pad, R.choice(["True", "False"]))
    if k == 15:
        c = R.randint(1, 3); kh, kw = R.randint(1, 3), R.randint(1, 3); nhwc = R.random() < .5
        h, w = kh + R.randint(0, 3), kw + R.randint(0, 3)
        return "image.dilation2d(%s, %s, strides=%s, padding=%s%s)" % (t([1, h, w, c] if nhwc else [1, c, h, w]), t([kh, kw, c] if nhwc else [c, kh, kw]), l(shape(2, 1, 2)), l(shape(R.choice([1, 2, 4]), 0, 1)),
                                                                       ', data_layout="NHWC", kernel_layout="HWI"' if nhwc else "")
    if k == 17:
        dg = R.randint(1, 2); c = dg * R.randint(1, 2); kh, kw = R.randint(1, 2), R.randint(1, 2); h, w = kh + R.randint(0, 2), kw + R.randint(0, 2)
        return "nn.deformable_conv2d(%s, divide(%s, 7f), %s, deformable_groups=%d)" % (t([1, c, h, w]), t([1, 2 * kh * kw * dg, h - kh + 1, w - kw + 1]), t([R.randint(1, 3), c, kh, kw]), dg)
    if k == 18:
        c, o = R.randint(1, 3), R.randint(1, 3); kh = R.randint(1, 3)
        return "nn.conv2d_backward_weight(%s, %s, channels=%d, kernel_size=[%d, %d], strides=%s, padding=%s)" % (t([1, o] + shape(2, 1, 3)), t([1, c] + shape(2, 1, 4)), o, kh, R.randint(1, 3), l(shape(2, 1, 2)), l(shape(2, 0, 1)))
    sh = shape(R.randint(1, 3), 2, 5); a = R.randrange(len(sh)); d = list(sh); d[a] = R.randint(1, sh[a] - 1)
    return "nn.fifo_buffer(%s, %s, axis=%d)" % (t(d), t(sh), a)


# The families, by how many operators each holds (a call picks a family, then an operator).
FAMILIES = [(gen, 22), (gen_more_shapes, 18), (gen_vision, 11), (gen_more_layers, 18), (gen_packed, 14), (gen_sparse_random, 20)]


def any_call():
    return R.choices([g for g, _ in FAMILIES], weights=[w for _, w in FAMILIES])[0]()

EXTREME_INTS = [0, -1, 1, 2, 3, 2**31, -2**31, 2**31 - 1, 2**32, 2**62, 2**63 - 1, -(2**63 - 1), -2**63]
EXTREME_FLOATS = ["0f", "-1f", "1e30f", "-1e30f", "9.3e18f", "4294967296f", "0.5f", "2f", "1e-30f"]
def extreme_tables():
    """The operators of ir/ops.def (name, argument counts, attributes with `!` for required ones) and the
    kind of each attribute in ir/attrs.def; string attributes take the values the golden tests write."""
    import os, re
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    kinds = dict(re.findall(r'IR_ATTR\(\w+, "(\w+)", (\w+)\)', open(os.path.join(root, "ir/attrs.def")).read()))
    ops = [(n, int(a), int(b), at.split()) for n, a, b, at in
           re.findall(r'IR_OP\(\w+, "([\w.]+)", (\d+), (\d+), "([^"]*)"', open(os.path.join(root, "ir/ops.def")).read())]
    strs = {}
    for d, _, fs in os.walk(os.path.join(root, "tests/golden")):
        for f in fs:
            if f.endswith(".rly"):
                for k, v in re.findall(r'\b(\w+)="([^"\n]*)"', open(os.path.join(d, f), errors="replace").read()):
                    strs.setdefault(k, set()).add(v)
    seeds = [] # the golden operator tests' one-line calls, whose attributes gen_extreme mutates
    for d, _, fs in os.walk(os.path.join(root, "tests/golden/ops")):
        for f in sorted(fs):
            for line in open(os.path.join(d, f), errors="replace"):
                line = line.strip()
                if line and not line.startswith(("//", "def", "let", "type")) and "%" not in line and "@" not in line \
                        and re.search(r"\w=(-?\d|\[)", line) \
                        and re.match(r"[\w.]+\(", line) and line.count("(") == line.count(")"):
                    seeds.append(line)
    return ops, kinds, {k: sorted(v) for k, v in strs.items()}, sorted(seeds)
def mutate_attrs(line):
    """The integers of a call's attributes (`name=3`, `name=[1, [2, 3]]`), each made extreme with
    probability 1/2 (shape=[...] too: huge or empty tensors)."""
    import re
    def one(m): return str(R.choice(EXTREME_INTS)) if R.random() < 0.5 else m.group(0)
    def attr(m): return m.group(1) + re.sub(r"(?<![\w.])-?\d+(?![\w.])", one, m.group(2))
    return re.sub(r"(\b\w+=)(\[[-\d\s,\[\]]*\]|-?\d+(?![\w.]))", attr, line)
EXTREME = []
def gen_extreme():
    """One call of a random operator of ir/ops.def with extreme integer attribute values (0, -1, +-2^31,
    +-(2^63 - 1), -2^63, 2^62 ...), extreme floats, and tensors that are small, empty with a huge other
    dimension (zeros(shape=[0, 2^62])), or huge and only typed (a function's parameter, not called);
    or, half the time, a golden test's call with its attributes' integers made extreme. Float data is
    sometimes NaN, infinite or huge (full(nanf, ...), literals nanf, inff, -inff, 1e30f), as are the float
    literals of a golden call and float attributes: kernels convert floats to indices and integers."""
    import re
    if not EXTREME: EXTREME.append(extreme_tables())
    ops, kinds, strs, seeds = EXTREME[0]
    specials = ["nanf", "inff", "-inff", "1e30f", "-1e30f", "3e38f", "9.3e18f"]
    if seeds and R.random() < 0.5:
        line = mutate_attrs(R.choice(seeds))
        if R.random() < 0.4:  # its float literals (data, coordinates, scales) made NaN, infinite or huge
            line = re.sub(r"(?<![\w.])-?\d+(\.\d*)?(e-?\d+)?f(?![\w.])",
                          lambda m: R.choice(specials) if R.random() < 0.3 else m.group(0), line)
        return line
    name, lo, hi, attrs = R.choice(ops)
    huge = R.random() < 0.25
    params = []
    def ext(): return R.choice(EXTREME_INTS) if R.random() < 0.6 else R.randint(-3, 6)
    def dims():
        sh = shape(R.randint(0, 4), 1, 4)
        if sh and R.random() < 0.5:
            sh[R.randrange(len(sh))] = R.choice([2**62, 2**63 - 1, 2**31, 2**32, 4611686018427387905])
            if not huge: sh[R.randrange(len(sh))] = 0
        return sh
    def tensor():
        dt = R.choice(["float32", "float32", "int32", "int64", "uint8", "bool", "float64"])
        sh = dims()
        if huge:
            params.append("%%p%d: Tensor[(%s), %s]" % (len(params), ", ".join(map(str, sh)) + ("," if len(sh) == 1 else ""), dt))
            return "%%p%d" % (len(params) - 1)
        if any(d > 2**20 for d in sh) or 0 in sh: return 'zeros(shape=%s, dtype="%s")' % (l(sh), dt)
        if R.random() < 0.25:  # NaN, infinite or huge floats, converted to dt (a cast of them when dt is not float)
            n = 1
            for d in sh: n *= d
            if R.random() < 0.4: return 'full(%s, shape=%s, dtype="%s")' % (R.choice(specials), l(sh), dt)
            vals = [R.choice(specials + ["0f", "1f", "-2.5f", "0.5f"]) for _ in range(n)]
            lit = "[%s]" % ", ".join(vals) if sh else vals[0]
            return 'cast(reshape(%s, newshape=%s), dtype="%s")' % (lit, l(sh), dt)
        return t(sh, dt)
    def arg():
        r = R.random()
        if r < 0.8: return tensor()
        if r < 0.9: return "(%s)" % ", ".join(tensor() for _ in range(R.randint(1, 3))) + ("," if R.random() < 0.3 else "")
        return R.choice(["%d" % ext(), "%di64" % ext() if -2**63 <= ext() < 2**63 else "1i64", "1f", R.choice(specials)])
    args = [arg() for _ in range(R.randint(lo, hi))]
    kw = []
    for a in attrs:
        req = a.endswith("!"); a = a.rstrip("!")
        if not req and R.random() < 0.4: continue
        k = kinds.get(a)
        if k == "INTS":
            v = "%d" % ext() if R.random() < 0.3 else l([ext() for _ in range(R.randint(0, 4))])
        elif k == "BOOL": v = R.choice(["True", "False"])
        elif k == "FLOAT": v = R.choice(EXTREME_FLOATS + ["%d" % ext()] + specials[:3])
        elif k == "DTYPE": v = '"%s"' % R.choice(["float32", "int32", "int64", "uint8", "int8", "float64", "bool", "uint64"])
        elif k == "STR": v = '"%s"' % R.choice(strs.get(a, [""]))
        elif k == "PAIRS": v = l([l([ext(), ext()]) for _ in range(R.randint(1, 4))])
        elif req: v = l([ext() for _ in range(R.randint(1, 4))])
        else: continue
        kw.append("%s=%s" % (a, v))
    call = "%s(%s)" % (name, ", ".join(args + kw))
    return "fn (%s) { %s }" % (", ".join(params), call) if params else call


# Extreme attribute values and shapes (issue "Reliability"): their run-time errors (out of memory, an
# index out of range in data the mutation changed) are expected; crashes, internal errors and hangs are not.
LENIENT = [False]


def gen_extreme_call():
    LENIENT[0] = True
    return gen_extreme()


FAMILIES.append((gen_extreme_call, 12))

# Every call runs under a 4 GiB heap: a call whose result would take more (an extreme pooled_size
# giving a 16 GiB tensor) meets the out-of-memory error at once, as on a smaller machine, instead of
# filling the memory of this one for minutes (CI runs tests side by side).
ENV = dict(os.environ, GC_MAXIMUM_HEAP_SIZE=str(4 << 30))

bad = []
for i in range(N):
    MADE.clear()
    LENIENT[0] = False
    e = any_call()
    dyn = False
    if MADE and R.random() < 0.5:  # the first tensor as a parameter whose dimensions are all `?`
        sh, dt, txt = MADE[0]
        if txt in e:
            ty = "Tensor[(%s), %s]" % (", ".join("?" for _ in sh) + ("," if len(sh) == 1 else ""), dt)
            e = "(fn (%%x: %s) { %s })(%s)" % (ty, e.replace(txt, "%x", 1), txt)
            dyn = True
    try:
        p = subprocess.run([relay, "--no-prelude", "-e", e], capture_output=True, text=True, timeout=20, env=ENV)
    except subprocess.TimeoutExpired:
        bad.append("timeout: " + e); continue
    if p.returncode not in (0, 1) or "internal error" in p.stderr or (not dyn and not LENIENT[0] and "run-time error" in p.stderr):
        bad.append("status %d: %s\n     %s" % (p.returncode, e, (p.stderr.strip().splitlines() or [""])[0][:300]))
print("1..1")
print("%s 1 - %d random operator calls (seed %d)" % ("not ok" if bad else "ok", N, seed))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
