import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qnn_reference import *
from gen_qnn import write
rng = np.random.default_rng(11)
A = np.array
l = A([[0, 10, 100, 255], [128, 3, 77, 250]], np.uint8)
r = A([[5, 255, 0, 128], [127, 200, 1, 64]], np.uint8)
ri = A([7, -8, 100, -128], np.int8)
li = A([[-128, -3, 64, 127], [0, 1, -1, 50]], np.int8)
calls = []
for op, f in [("add", add), ("subtract", subtract)]:
    calls.append((f"qnn.{op}({fmt(l)}, {fmt(r)}, 0.05f, 128, 0.03f, 100, 0.07f, 120)", f(l, r, 0.05, 128, 0.03, 100, 0.07, 120)))
    calls.append((f"qnn.{op}({fmt(l)}, {fmt(r)}, 0.05f, 120, 0.05f, 120, 0.05f, 120)", f(l, r, 0.05, 120, 0.05, 120, 0.05, 120)))
    calls.append((f"qnn.{op}({fmt(li)}, {fmt(ri)}, 0.5f, 0, 0.25f, -3, 1f, 2)", f(li, ri, 0.5, 0, 0.25, -3, 1.0, 2)))
    calls.append((f"qnn.{op}({fmt(li)}, {fmt(ri)}, [0.5f, 0.3f, 0.1f, 0.7f], [0, 1, 2, 3], 0.25f, -3, 0.6f, 2)",
                  f(li, ri, A([0.5, 0.3, 0.1, 0.7]), A([0, 1, 2, 3]), 0.25, -3, 0.6, 2)))
calls.append((f"qnn.mul({fmt(l)}, {fmt(r)}, 0.05f, 128, 0.03f, 100, 0.07f, 120)", mul(l, r, 0.05, 128, 0.03, 100, 0.07, 120)))
calls.append((f"qnn.mul({fmt(li)}, {fmt(ri)}, 0.5f, 0, 0.25f, -3, 8f, 2)", mul(li, ri, 0.5, 0, 0.25, -3, 8.0, 2)))
calls.append((f"qnn.mul({fmt(li)}, {fmt(ri)}, [0.5f, 0.3f, 0.1f, 0.7f], [0, 1, 2, 3], [0.25f, 0.5f, 0.1f, 0.2f], -3, 0.6f, 2)",
              mul(li, ri, A([0.5, 0.3, 0.1, 0.7]), A([0, 1, 2, 3]), A([0.25, 0.5, 0.1, 0.2]), -3, 0.6, 2)))
write("qnn_add_subtract_mul_values.rly", [
  "qnn.add, qnn.subtract and qnn.mul as TVM v0.14 lowers them (numpy reimplementation): add/subtract requantize each",
  "side to the output's scale and zero point in int32 (UPWARD; a plain cast when they are the output's), add or",
  "subtract, take off / add the output zero point, clip to the lhs dtype (uint8 and int8, broadcasting, a per-channel",
  "lhs); mul requantizes (lhs - zp) * (rhs - zp) from scale lhs_scale * rhs_scale (per channel too)."], calls)

# concatenate
a = A([[1, 2], [250, 0]], np.uint8); b = A([[100, 200]], np.uint8); c = A([[9, 18], [27, 36], [45, 255]], np.uint8)
def qcat(xs, ss, zs, os_, oz, axis=0):
    out = []
    for x, s, z in zip(xs, ss, zs):
        if np.float32(s) == np.float32(os_) and z == oz: out.append(x)
        else: out.append(requantize(x, s, z, os_, oz, out_dtype=x.dtype.name))
    return np.concatenate(out, axis=axis)
calls = [(f"qnn.concatenate(({fmt(a)}, {fmt(b)}, {fmt(c)}), (0.5f, 0.25f, 0.3f), (128, 128, 0), 0.5f, 128, axis=0)",
          qcat([a, b, c], [0.5, 0.25, 0.3], [128, 128, 0], 0.5, 128)),
         (f"qnn.concatenate(({fmt(a)}, {fmt(c[:2])}), (0.1f, 0.2f), (0, 10), 0.15f, 3, axis=1)",
          qcat([a, c[:2]], [0.1, 0.2], [0, 10], 0.15, 3, axis=1))]
write("qnn_concatenate_values.rly", [
  "qnn.concatenate as TVM v0.14 lowers it: each piece whose scale or zero point is not the output's is requantized",
  "(UPWARD, clipped to its dtype), then concatenate; numpy reference."], calls)

# avg_pool2d NHWC
x = rng.integers(0, 256, (1, 4, 4, 2)).astype(np.uint8)
def avgpool_nhwc(v, k, s, pad=(0, 0, 0, 0), include_pad=False):
    v = v.transpose(0, 3, 1, 2).astype(np.int64)
    N, C, H, W = v.shape
    OH = (H + pad[0] + pad[2] - k) // s + 1; OW = (W + pad[1] + pad[3] - k) // s + 1
    out = np.zeros((N, C, OH, OW), np.int64)
    for i in range(OH):
        for j in range(OW):
            h0 = i * s - pad[0]; w0 = j * s - pad[1]
            hs = slice(max(h0, 0), min(h0 + k, H)); ws = slice(max(w0, 0), min(w0 + k, W))
            tot = v[:, :, hs, ws].sum(axis=(2, 3))
            cnt = k * k if include_pad else (hs.stop - hs.start) * (ws.stop - ws.start)
            out[:, :, i, j] = np.trunc(tot / cnt)   # TVM's integer division truncates
    return out.transpose(0, 2, 3, 1)
def qavg(v, si, zi, so, zo, k, s, pad=(0, 0, 0, 0), inc=False):
    t = req_or_upcast(v, si, zi, so, zo)
    p = avgpool_nhwc(t, k, s, pad, inc)
    lo, hi = qrange(v.dtype); return np.clip(p, lo, hi).astype(v.dtype)
calls = [(f"qnn.avg_pool2d({fmt(x)}, 0.5f, 128, 0.5f, 128, pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0], layout=\"NHWC\")",
          qavg(x, 0.5, 128, 0.5, 128, 2, 2)),
         (f"qnn.avg_pool2d({fmt(x)}, 0.5f, 128, 0.3f, 100, pool_size=[3, 3], strides=[1, 1], padding=[1, 1, 1, 1], layout=\"NHWC\", count_include_pad=False)",
          qavg(x, 0.5, 128, 0.3, 100, 3, 1, (1, 1, 1, 1), False))]
write("qnn_avg_pool2d_values.rly", [
  "qnn.avg_pool2d as TVM v0.14 lowers it: requantized to the output's parameters in int32 (or cast), nn.avg_pool2d on",
  "int32 (integer division truncating), clipped to the data's dtype; NHWC; numpy reference."], calls)

# unary
xq = A([0, 30, 60, 100, 128, 150, 200, 255], np.uint8)
import math
def qunary(v, s, z, os_, oz, f):
    d = dequantize(v, s, z)
    return quantize(f(d).astype(np.float32), os_, oz, out_dtype=v.dtype.name)
sig = lambda d: (np.float32(1) / (np.float32(1) + np.exp(-d))).astype(np.float32)
hsw = lambda d: (d * np.clip(d + np.float32(3), 0, 6) / np.float32(6)).astype(np.float32)
calls = [(f"qnn.sigmoid({fmt(xq)}, 0.05f, 128, 0.00390625f, 0)", qunary(xq, 0.05, 128, 1 / 256, 0, sig)),
         (f"qnn.tanh({fmt(xq)}, 0.03f, 128, 0.0078125f, 128)", qunary(xq, 0.03, 128, 1 / 128, 128, np.tanh)),
         (f"qnn.hardswish({fmt(xq)}, 0.04f, 128, 0.03f, 20)", qunary(xq, 0.04, 128, 0.03, 20, hsw)),
         (f"qnn.abs([-128i8, -5i8, 0i8, 7i8, 127i8], 0.1f, 1, 0.1f, -100)", qunary(A([-128, -5, 0, 7, 127], np.int8), 0.1, 1, 0.1, -100, np.abs))]
write("qnn_unary_values.rly", [
  "qnn.sigmoid, qnn.tanh, qnn.hardswish and qnn.abs as TVM v0.14 lowers them: dequantize, the float32 operator,",
  "quantize back into the data's dtype; numpy reference."], calls)

# sqrt, rsqrt (issue 33): the same lowering; rsqrt(0) is infinite and clips to the dtype's largest value
rsqrt = lambda d: (np.float32(1) / np.sqrt(d)).astype(np.float32)
with np.errstate(divide="ignore"):
    calls = [(f"qnn.sqrt({fmt(xs)}, {s}, {z}, {os_}, {oz})", qunary(xs, float(s[:-1]), z, float(os_[:-1]), oz, f))
             for xs, s, z, os_, oz, f in [
                 (A([0, 1, 4, 9, 25, 100, 200, 255], np.uint8), "0.04f", 0, "0.01f", 10, np.sqrt),
                 (A([-128, -100, -50, 0, 50, 127], np.int8), "0.1f", -128, "0.05f", -100, np.sqrt),
                 (A([128, 129, 130, 136, 160, 192, 255], np.uint8), "0.0625f", 128, "0.02f", 0, rsqrt),
                 (A([-127, -120, -64, 0, 100, 127], np.int8), "0.01f", -128, "0.1f", -50, rsqrt)]]
calls = [(c.replace("qnn.sqrt", "qnn.rsqrt") if i >= 2 else c, e) for i, (c, e) in enumerate(calls)]
write("qnn_sqrt_rsqrt_values.rly", [
  "qnn.sqrt and qnn.rsqrt as TVM v0.14 lowers them (src/relay/qnn/op/op_common.h,",
  "QNN_UNARY_OP_DEFAULT_CANONICALIZATION, registered in unary_elementwise_op.cc): dequantize, the float32 sqrt or",
  "rsqrt, quantize back into the data's dtype (round half away from zero, clip). rsqrt of 0 is infinite and clips to",
  "255; 1.25 / 0.1f is 12.5 in float32 and rounds away to 13 (-37i8). uint8 and int8; numpy reference."], calls)
