import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qnn_reference import *
from gen_qnn_quantize import write
rng = np.random.default_rng(7)
A = np.array
calls = []
# NCHW / OIHW, uint8 data, int8 kernel, padding 1 (padded with the zero point), stride 1
x = rng.integers(0, 256, (1, 2, 4, 4)).astype(np.uint8)
w = rng.integers(-128, 128, (3, 2, 3, 3)).astype(np.int8)
calls.append((f"qnn.conv2d({fmt(x)}, {fmt(w)}, 120, 3, 0.5f, 0.25f, padding=[1, 1, 1, 1], channels=3, kernel_size=[3, 3], out_dtype=\"int32\")",
              conv2d_nchw(x, w, 120, 3, pad=(1, 1, 1, 1))))
# stride 2, per-channel kernel zero point and scale
calls.append((f"qnn.conv2d({fmt(x)}, {fmt(w)}, 7, [1, -2, 5], 0.5f, [0.25f, 0.5f, 1f], strides=[2, 2], padding=[1, 0, 0, 1], channels=3, kernel_size=[3, 3], out_dtype=\"int32\")",
              conv2d_nchw(x, w, 7, A([1, -2, 5]), stride=2, pad=(1, 0, 0, 1))))
# NHWC / HWIO (TFLite), int8 data
xh = rng.integers(-128, 128, (1, 3, 3, 2)).astype(np.int8)
wh = rng.integers(-128, 128, (2, 2, 2, 4)).astype(np.int8)
ref = conv2d_nchw(xh.transpose(0, 3, 1, 2), wh.transpose(3, 2, 0, 1), -5, 0, pad=(0, 0, 1, 1)).transpose(0, 2, 3, 1)
calls.append((f"qnn.conv2d({fmt(xh)}, {fmt(wh)}, -5, 0, 0.1f, 0.2f, padding=[0, 0, 1, 1], channels=4, kernel_size=[2, 2], data_layout=\"NHWC\", kernel_layout=\"HWIO\", out_dtype=\"int32\")", ref))
# depthwise NHWC / HWOI, groups = channels = 3
xd = rng.integers(0, 256, (1, 3, 3, 3)).astype(np.uint8)
wd = rng.integers(0, 256, (2, 2, 3, 1)).astype(np.uint8)
ref = conv2d_nchw(xd.transpose(0, 3, 1, 2), wd.transpose(2, 3, 0, 1), 128, 100, pad=(1, 1, 0, 0), groups=3).transpose(0, 2, 3, 1)
calls.append((f"qnn.conv2d({fmt(xd)}, {fmt(wd)}, 128, 100, 0.02f, [0.1f, 0.2f, 0.3f], padding=[1, 1, 0, 0], groups=3, channels=3, kernel_size=[2, 2], data_layout=\"NHWC\", kernel_layout=\"HWOI\", out_dtype=\"int32\")", ref))
# out_dtype int64
calls.append((f"qnn.conv2d({fmt(x)}, {fmt(w)}, 0, 0, 0.5f, 0.25f, channels=3, kernel_size=[3, 3], out_dtype=\"int64\")",
              conv2d_nchw(x, w, 0, 0, out_dtype=np.int64)))
write("qnn_conv2d_values.rly", [
  "qnn.conv2d as TVM v0.14 lowers it (the four-term QnnConv2DCanonicalize, equal to the convolution of data - its zero",
  "point, padded with the zero point, by kernel - its zero point, accumulated in out_dtype); numpy reference. NCHW/OIHW",
  "with padding, stride 2 with per-channel kernel zero points, NHWC/HWIO, depthwise NHWC/HWOI, out_dtype int64."], calls)

# dense
calls = []
xd = rng.integers(0, 256, (2, 5)).astype(np.uint8)
wd = rng.integers(-128, 128, (3, 5)).astype(np.int8)
def dense(x, w, zx, zw):
    zw = np.asarray(zw)
    return ((x.astype(np.int64) - zx) @ (w.astype(np.int64) - (zw.reshape(-1, 1) if zw.ndim else zw)).T).astype(np.int32)
calls.append((f"qnn.dense({fmt(xd)}, {fmt(wd)}, 128, 0, 0.5f, 0.25f, units=3, out_dtype=\"int32\")", dense(xd, wd, 128, 0)))
calls.append((f"qnn.dense({fmt(xd)}, {fmt(wd)}, 3, [1, -1, 4], 0.5f, [0.25f, 0.5f, 1f], units=3, out_dtype=\"int32\")", dense(xd, wd, 3, A([1, -1, 4]))))
calls.append((f"qnn.dense({fmt(xd)}, {fmt(wd)}, 0, 9, 0.5f, 0.25f, units=None, out_dtype=\"int64\")", dense(xd, wd, 0, 9).astype(np.int64)))
write("qnn_dense_values.rly", [
  "qnn.dense as TVM v0.14 lowers it: (data - zero point) times (weight - zero point, one per unit) transposed, in",
  "out_dtype; numpy reference."], calls)

# batch_matmul
bx = rng.integers(-128, 128, (2, 2, 3)).astype(np.int8)
by = rng.integers(-128, 128, (2, 4, 3)).astype(np.int8)
ref = np.einsum('bik,bjk->bij', bx.astype(np.int64) - 3, by.astype(np.int64) + 2).astype(np.int32)
write("qnn_batch_matmul_values.rly", [
  "qnn.batch_matmul as TVM v0.14 lowers it: (x - x_zero_point) by (y - y_zero_point) transposed, per batch, in int32;",
  "numpy reference."],
  [(f"qnn.batch_matmul({fmt(bx)}, {fmt(by)}, 3, -2, 0.5f, 0.25f, transpose_a=False, transpose_b=True, out_dtype=\"int32\")", ref)])
