import os, sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qnn_reference import *
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
def write(name, header, calls):
    """calls: list of (relay_text, expected_value_array_or_str)."""
    lines = ["// " + h for h in header] + ["// args: --no-prelude"]
    lines += ["// expect: " + (e if isinstance(e, str) else fmt(e)) for _, e in calls]
    lines += [c for c, _ in calls]
    open(OUT + name, 'w').write("\n".join(lines) + "\n")

A = np.array
# ---------------- quantize
x = A([0.25, -0.25, 0.75, -0.75, 1.2, -130.0, 300.0, 0.049], np.float32)
xc = A([[0.5, -1.0, 2.0], [1.25, 0.3, -0.7]], np.float32)
write("qnn_quantize_values.rly", [
  "qnn.quantize as TVM v0.14 lowers it (numpy reimplementation of QuantizeLower): round(x / scale) with halves away",
  "from zero, plus the zero point, in float32, clipped to out_dtype; per-channel scales and zero points along axis."],
  [(f"qnn.quantize({fmt(x)}, 0.5f, 0)", quantize(x, 0.5, 0)),
   (f"qnn.quantize({fmt(x)}, 0.5f, 3, out_dtype=\"uint8\")", quantize(x, 0.5, 3, out_dtype="uint8")),
   (f"qnn.quantize({fmt(x)}, 0.1f, -5, out_dtype=\"int32\")", quantize(x, 0.1, -5, out_dtype="int32")),
   (f"qnn.quantize({fmt(x)}, 0.01f, 0, out_dtype=\"int16\")", quantize(x, 0.01, 0, out_dtype="int16")),
   (f"qnn.quantize({fmt(xc)}, [0.5f, 0.25f, 0.1f], [0, 1, -2])", quantize(xc, A([0.5, 0.25, 0.1]), A([0, 1, -2]))),
   (f"qnn.quantize({fmt(xc)}, [0.5f, 0.1f], 7, axis=0, out_dtype=\"uint8\")", quantize(xc, A([0.5, 0.1]), 7, axis=0, out_dtype="uint8")),
  ])
# ---------------- dequantize
q = A([-128, -1, 0, 5, 127], np.int8)
qu = A([[0, 128, 255], [7, 9, 200]], np.uint8)
write("qnn_dequantize_values.rly", [
  "qnn.dequantize as TVM v0.14 lowers it (numpy reimplementation of DequantizeLower): (int32(x) - zero_point) times",
  "the scale in float32; per-channel along axis; float16 out clipped to its range."],
  [(f"qnn.dequantize({fmt(q)}, 0.5f, 3)", dequantize(q, 0.5, 3)),
   (f"qnn.dequantize({fmt(q)}, 0.1f, -1)", dequantize(q, 0.1, -1)),
   (f"qnn.dequantize({fmt(qu)}, [0.5f, 2f, 0.125f], [128, 0, 10])", dequantize(qu, A([0.5, 2, 0.125]), A([128, 0, 10]))),
   (f"qnn.dequantize({fmt(qu)}, [0.25f, 4f], [1, 2], axis=0)", dequantize(qu, A([0.25, 4]), A([1, 2]), axis=0)),
   (f"qnn.dequantize([2147483647, -5], 1000f, 0, out_dtype=\"float16\")", dequantize(A([2147483647, -5], np.int32), 1000.0, 0, out_dtype="float16")),
   (f"qnn.dequantize([1000i16, -3i16], 0.5f, [2], out_dtype=\"float32\")", dequantize(A([1000, -3], np.int16), 0.5, A([2]))),
  ])
# ---------------- requantize
v = A([-7, -6, -5, -3, -1, 0, 1, 3, 5, 6, 7, 1000, -1000, 100000], np.int32)
calls = []
for (si, so) in [(0.5, 1.0), (0.75, 1.0), (0.3, 0.7), (2.0, 1.0), (1.5, 0.25), (0.0625, 1.0)]:
    for rnd in ["UPWARD", "TONEAREST"]:
        rtxt = "" if rnd == "UPWARD" else ', rounding="TONEAREST"'
        calls.append((f"qnn.requantize({fmt(v)}, {si}f, 1, {so}f, -3{rtxt}, out_dtype=\"int32\")",
                      requantize(v, si, 1, so, -3, rounding=rnd, out_dtype="int32")))
calls.append((f"qnn.requantize({fmt(v)}, 0.3f, 1, 0.7f, -3, rounding=\"UPWARD\", out_dtype=\"int8\")", requantize(v, 0.3, 1, 0.7, -3, out_dtype="int8")))
calls.append((f"qnn.requantize({fmt(v)}, 0.3f, 1, 0.7f, 100, rounding=\"TONEAREST\", out_dtype=\"uint8\")", requantize(v, 0.3, 1, 0.7, 100, rounding="TONEAREST", out_dtype="uint8")))
calls.append((f"qnn.requantize({fmt(v)}, 0.5f, 2, 0.5f, -1, out_dtype=\"int16\")", requantize(v, 0.5, 2, 0.5, -1, out_dtype="int16")))
u8 = A([0, 1, 127, 128, 200, 255], np.uint8)
calls.append((f"qnn.requantize({fmt(u8)}, 0.02f, 128, 0.015f, 0, out_dtype=\"int8\")", requantize(u8, 0.02, 128, 0.015, 0, out_dtype="int8")))
i64 = A([5000000000, -3, 11], np.int64)
calls.append((f"qnn.requantize({fmt(i64)}, 0.5f, 0, 0.25f, 0, out_dtype=\"int32\")", requantize(i64, 0.5, 0, 0.25, 0, out_dtype="int32")))
write("qnn_requantize_values.rly", [
  "qnn.requantize as TVM v0.14 lowers it (numpy reimplementation of RequantizeLowerInt): the int32 difference from the",
  "zero point times the fixed-point multiplier of scale ratio, rounded UPWARD (the default: halves up, -1.5 -> -1; a",
  "power-of-two ratio as an int32 shift) or TONEAREST (halves away from zero, -1.5 -> -2), plus the output zero point,",
  "clipped unless int32. Ratios 0.5, 0.75 (exact halves), 0.3/0.7, 2, 6, 1/16; uint8 and int64 (wrapped) data."], calls)

m = A([[-9, -3, 3, 9], [-9, -3, 3, 9], [101, -57, 33, 0]], np.int32)
calls = []
for rnd in ["UPWARD", "TONEAREST"]:
    calls.append((f"qnn.requantize({fmt(m)}, [0.5f, 0.1666f, 2f], [0, 1, -1], 1f, 2, axis=0, rounding=\"{rnd}\", out_dtype=\"int8\")",
                  requantize(m, A([0.5, 0.1666, 2]), A([0, 1, -1]), 1.0, 2, axis=0, rounding=rnd, out_dtype="int8")))
    calls.append((f"qnn.requantize({fmt(m)}, [0.5f, 0.25f, 0.75f, 3f], 0, 1f, 0, rounding=\"{rnd}\", out_dtype=\"int32\")",
                  requantize(m, A([0.5, 0.25, 0.75, 3]), 0, 1.0, 0, rounding=rnd, out_dtype="int32")))
for comp in ["float32", "float64"]:
    for rnd in ["UPWARD", "TONEAREST"]:
        calls.append((f"qnn.requantize({fmt(v)}, 0.5f, 1, 1f, -3, rounding=\"{rnd}\", compute_dtype=\"{comp}\", out_dtype=\"int8\")",
                      requantize(v, 0.5, 1, 1.0, -3, rounding=rnd, compute=comp, out_dtype="int8")))
    calls.append((f"qnn.requantize({fmt(m)}, [0.5f, 0.3f, 0.75f, 3f], 0, 0.7f, 1, compute_dtype=\"{comp}\", out_dtype=\"int16\")",
                  requantize(m, A([0.5, 0.3, 0.75, 3]), 0, 0.7, 1, compute=comp, out_dtype="int16")))
write("qnn_requantize_per_channel.rly", [
  "qnn.requantize with one input scale (and zero point) per channel along axis (TVM v0.14's FixedPointMultiplyPerChannel:",
  "no power-of-two shortcut), in both roundings; and compute_dtype float32 / float64 (RequantizeLowerFP: UPWARD floor(x +",
  "0.5), TONEAREST halves away from zero). Expected values: numpy reimplementation of the lowering."], calls)
