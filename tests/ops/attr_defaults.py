#!/usr/bin/env python3
"""An attribute omitted in a call means TVM's C++ default (what TVM's text parser fills in from the
attribute struct: tests/tools/tvm_attr_defaults.py explains it and wrote tvm_attr_defaults.txt).

usage: attr_defaults.py RELAY [TABLE]

For every row of the table (operator, attribute, default) this builds the operator's call on small
inputs (CALLS below) twice, once without the attribute and once with it written as the default,
runs both through one REPL session of relay (--no-prelude) and requires the same reply: the same
type and the same value. relay rejecting one and not the other fails; rejecting both fails too
unless the row is in BOTH_REJECTED with a reason. A row without a call is a failure unless
NOT_TESTABLE says why it cannot be tried. Every operator of ir/ops.def must be in the table (after
adding one, rerun the program that writes it), and every attribute relay accepts must be a field of
TVM's struct or listed in RELAY_ONLY. Prints TAP, one line per operator."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


# ------------------------------------------------------------------------------------------- inputs

def fmt(v, dtype):
    if dtype == "bool":
        return "True" if v else "False"
    if dtype.startswith("float"):
        s = repr(float(v))
        s = s[:-2] if s.endswith(".0") else s
        return s + {"float32": "f", "float64": "f64", "float16": "f16"}[dtype]
    suffix = {"int32": "", "int64": "i64", "int8": "i8", "uint8": "u8", "int16": "i16", "uint64": "u64"}[dtype]
    return str(int(v)) + suffix


def lit(shape, dtype="float32", f=None):
    """A tensor literal of `shape` with distinct, uneven values (quarters for floats)."""
    if f is None:
        if dtype.startswith("float"):
            f = lambda i: ((i * 37) % 23 - 11) / 4
        elif dtype.startswith("uint"):
            f = lambda i: (i * 37) % 23
        elif dtype == "bool":
            f = lambda i: (i * 5) % 3 == 0
        else:
            f = lambda i: (i * 37) % 23 - 11
    counter = [0]

    def build(dims):
        if not dims:
            v = fmt(f(counter[0]), dtype)
            counter[0] += 1
            return v
        return "[" + ", ".join(build(dims[1:]) for _ in range(dims[0])) + "]"
    if not shape:
        return build(())
    return build(tuple(shape))


def positive(shape, dtype="float32"):
    return lit(shape, dtype, lambda i: ((i * 37) % 23 + 1) / 4)


X24 = lit((2, 3, 4))
CONV_NCHW = lit((1, 2, 5, 5))
CONV_W = lit((3, 2, 3, 3))
POOL2 = lit((1, 2, 4, 4))
QX = lit((1, 2, 4, 4), "uint8")
QW = lit((3, 2, 3, 3), "int8")
SEED = "[1u64, 2u64, 3u64, 4u64, 5u64, 6u64, 7u64, 8u64, 9u64, 10u64]"
NMS_DATA = ("[[[0f, 0.9f, 0f, 0f, 2f, 2f], [0f, 0.8f, 0.5f, 0.5f, 2.5f, 2.5f], [1f, 0.7f, 3f, 3f, 4f, 4f], "
            "[1f, 0.6f, 0f, 0f, 2f, 2f]]]")
BOXES = "[[[0f, 0f, 2f, 2f], [0.5f, 0.5f, 2.5f, 2.5f], [3f, 3f, 4f, 4f]]]"

# The call of each operator, `{A}` where the attribute goes (", name=value" or nothing).
CALLS = {
    "nn.leaky_relu": f"nn.leaky_relu({lit((5,))}{{A}})",
    "zeros": "zeros(shape=[2]{A})",
    "ones": "ones(shape=[2]{A})",
    "full": "full(3i8, shape=[2]{A})",
    "reshape": f"reshape({X24}, newshape=[0, -1]{{A}})",
    "contrib_reverse_reshape": f"contrib_reverse_reshape({X24}, newshape=[-1, 0]{{A}})",
    "expand_dims": "expand_dims([1, 2], axis=0{A})",
    "squeeze": f"squeeze({lit((1, 3, 1))}{{A}})",
    "concatenate": f"concatenate(({lit((1, 2))}, {lit((1, 2))}){{A}})",
    "stack": "stack(([1, 2], [3, 4]){A})",
    "split": f"split({lit((4, 2))}, indices_or_sections=2{{A}})",
    "take": f"take({lit((2, 3))}, [[0, 5], [-1, 2]]{{A}})",
    "strided_slice": f"strided_slice({lit((4, 3))}, begin=[1], end=[3], strides=[1], axes=None{{A}})",
    "broadcast_to": "broadcast_to([1, 2], shape=[2, 2]{A})",
    "shape_of": f"shape_of({X24}{{A}})",
    "sum": f"sum({X24}{{A}})", "mean": f"mean({X24}{{A}})", "max": f"max({X24}{{A}})",
    "min": f"min({X24}{{A}})", "prod": f"prod({lit((2, 3))}{{A}})",
    "all": f"all({lit((2, 3), 'bool')}{{A}})", "any": f"any({lit((2, 3), 'bool')}{{A}})",
    "argmax": f"argmax({X24}{{A}})", "argmin": f"argmin({X24}{{A}})",
    "nn.dense": f"nn.dense({lit((2, 3))}, {lit((4, 3))}, units=None{{A}})",
    "nn.matmul": f"nn.matmul({lit((2, 3))}, {lit((3, 4))}, units=None{{A}})",
    # (12, 7, 64) x (12, 64, 7) in OpenAI GPT; here (2, 3, 4) x (2, 4, 3): transpose_b=False.
    "nn.batch_matmul": f"nn.batch_matmul({X24}, {lit((2, 4, 3))}{{A}})",
    "nn.bias_add": f"nn.bias_add({lit((2, 3, 2))}, [1f, 2f, 3f]{{A}})",
    "nn.softmax": f"nn.softmax({lit((2, 3))}{{A}})",
    "nn.log_softmax": f"nn.log_softmax({lit((2, 3))}{{A}})",
    "nn.fast_softmax": f"nn.fast_softmax({lit((2, 3))}{{A}})",
    "nn.conv2d": f"nn.conv2d({CONV_NCHW}, {CONV_W}{{A}})",
    "nn.max_pool2d": f"nn.max_pool2d({POOL2}, pool_size=[2, 2]{{A}})",
    "nn.avg_pool2d": f"nn.avg_pool2d({POOL2}, pool_size=[3, 3], padding=[1, 1]{{A}})",
    "nn.global_avg_pool2d": f"nn.global_avg_pool2d({POOL2}{{A}})",
    "nn.global_max_pool2d": f"nn.global_max_pool2d({POOL2}{{A}})",
    "repeat": "repeat([[1, 2], [3, 4]], repeats=2, axis=1{A})",
    "reverse": "reverse([[1, 2], [3, 4]], axis=1{A})",
    "reverse_sequence": f"reverse_sequence({lit((3, 4))}, [1, 2, 3]{{A}})",
    "reshape_like": f"reshape_like({lit((2, 3))}, {lit((3, 2))}{{A}})",
    "collapse_sum_to": f"collapse_sum_to({lit((2, 3))}, shape=[3]{{A}})",
    "ndarray_size": f"ndarray_size({X24}{{A}})",
    "trilu": f"trilu({lit((3, 3))}, 0{{A}})",
    "meshgrid": "meshgrid(([1f, 2f], [3f, 4f, 5f]){A})",
    "one_hot": "one_hot([1, 0, 2], 1f, 0f, depth=3{A})",
    "gather": f"gather({lit((2, 3))}, [[0, 1], [1, 0]], axis=1{{A}})",
    "gather_nd": f"gather_nd({lit((2, 3))}, [[1, 0]]{{A}})",
    "scatter_elements": f"scatter_elements({lit((3, 3))}, [[1, 0, 2]], [[9f, 8f, 7f]]{{A}})",
    "scatter_nd": f"scatter_nd({lit((2, 3))}, [[1, 0]], {lit((2, 3))}{{A}})",
    "argsort": f"argsort({lit((2, 4))}{{A}})",
    "sort": f"sort({lit((2, 4))}{{A}})",
    "topk": f"topk({lit((2, 4))}, k=2{{A}})",
    "cumsum": f"cumsum({lit((2, 3))}{{A}})",
    "cumprod": f"cumprod({lit((2, 3))}{{A}})",
    "variance": f"variance({lit((2, 3))}, [[0.5f]]{{A}})",
    "sequence_mask": f"sequence_mask({lit((3, 2, 2))}, [1, 2]{{A}})",
    "matrix_set_diag": f"matrix_set_diag({lit((3, 4))}, {lit((3, 3))}, k1=-1, k2=1{{A}})",
    "searchsorted": "searchsorted([1f, 2f, 2f, 3f], [2f, 0f, 5f]{A})",
    "unique": "unique([3, 1, 3, 2, 1]{A})",
    "nn.sparse_dense": f"nn.sparse_dense({lit((2, 3))}, [1f, 2f], [0, 2], [0, 1, 2]{{A}})",
    "random.uniform": f"random.uniform({SEED}, 0f, 1f, out_shape=[3]{{A}})",
    "random.normal": f"random.normal({SEED}, 0f, 1f, out_shape=[3]{{A}})",
    "random.multinomial": f"random.multinomial({SEED}, [[0.25f, 0.75f]]{{A}})",
    "dft": f"dft({lit((4,))}, {lit((4,))}{{A}})",
    "stft": f"stft({lit((8,))}, [1f, 1f, 1f, 1f], n_fft=4, hop_length=2, win_length=4{{A}})",
    "nn.correlation": f"nn.correlation({POOL2}, {lit((1, 2, 4, 4), f=lambda i: i % 5 - 2)}{{A}})",
    "image.dilation2d": f"image.dilation2d({POOL2}, {lit((2, 2, 2))}{{A}})",
    # TVM's dyn.* operators: what the static ones take as attributes are tensor arguments.
    "dyn.reshape": f"dyn.reshape({lit((2, 3))}, [0, -1]{{A}})",
    "dyn.tile": f"dyn.tile({lit((2, 3))}, [2, 1]{{A}})",
    "dyn.broadcast_to": "dyn.broadcast_to([1, 2], [2, 2]{A})",
    "dyn.zeros": "dyn.zeros([2]{A})",
    "dyn.ones": "dyn.ones([2]{A})",
    "dyn.full": "dyn.full(3i8, [2]{A})",
    "dyn.one_hot": "dyn.one_hot([1, 0, 2], 1f, 0f, 3{A})",
    "dyn.strided_slice": f"dyn.strided_slice({lit((4, 3))}, [1], [3], [1]{{A}})",
    "dyn.expand_dims": "dyn.expand_dims([1, 2], 0{A})",
    "dyn.squeeze": f"dyn.squeeze({lit((1, 3, 1))}, [0]{{A}})",
    "dyn.topk": f"dyn.topk({lit((2, 4))}, 2{{A}})",
    "dyn.nn.pad": f"dyn.nn.pad({lit((2, 2))}, [[1, 0], [0, 2]], 0f{{A}})",
    "dyn.nn.upsampling": f"dyn.nn.upsampling({lit((1, 1, 2, 2))}, 2f, 1.5f{{A}})",
    "dyn.nn.upsampling3d": f"dyn.nn.upsampling3d({lit((1, 1, 2, 2, 2))}, 2f, 1f, 1.5f{{A}})",
    "dyn.image.resize2d": f"dyn.image.resize2d({lit((1, 1, 2, 3))}, [3, 5], [0f, 0f, 0f, 0f]{{A}})",
    "nn.fifo_buffer": "nn.fifo_buffer([1f, 2f], [3f, 4f, 5f, 6f]{A})",
    "nn.deformable_conv2d": f"nn.deformable_conv2d({lit((1, 1, 4, 4))}, {lit((1, 8, 3, 3), f=lambda i: (i % 3) / 4)}, "
                            f"{lit((2, 1, 2, 2))}, kernel_size=[2, 2], channels=2{{A}})",
    "nn.conv2d_backward_weight": f"nn.conv2d_backward_weight({lit((1, 2, 3, 3))}, {lit((1, 1, 4, 4))}, kernel_size=[2, 2], channels=2{{A}})",
    "nn.batch_norm": f"nn.batch_norm({lit((2, 3, 2))}, [1f, 2f, 3f], [0.5f, 0f, 1f], [0f, 1f, -1f], [1f, 2f, 4f]{{A}})",
    "nn.layer_norm": f"nn.layer_norm({lit((2, 3))}, [1f, 2f, 3f], [0.5f, 0f, 1f]{{A}})",
    "nn.instance_norm": f"nn.instance_norm({lit((2, 2, 3))}, [1f, 2f], [0.5f, 0f]{{A}})",
    "nn.group_norm": f"nn.group_norm({lit((1, 4, 3))}, [1f, 2f, 3f, 4f], [0f, 0f, 1f, 1f], num_groups=2{{A}})",
    "nn.lrn": f"nn.lrn({lit((1, 6, 2))}{{A}})",
    "nn.dropout": f"nn.dropout({lit((2, 2))}{{A}})",
    "nn.prelu": f"nn.prelu({lit((2, 3, 2))}, [0.5f, 2f, -1f]{{A}})",
    "nn.nll_loss": f"nn.nll_loss({lit((2, 3))}, [2, 0], [1f, 2f, 3f], ignore_index=-100{{A}})",
    "nn.conv1d": f"nn.conv1d({lit((1, 2, 6))}, {lit((3, 2, 3))}{{A}})",
    "nn.conv3d": f"nn.conv3d({lit((1, 2, 3, 3, 3))}, {lit((2, 2, 2, 2, 2))}{{A}})",
    "nn.conv2d_transpose": f"nn.conv2d_transpose({lit((1, 2, 3, 3))}, {lit((2, 3, 2, 2))}{{A}})",
    "nn.conv1d_transpose": f"nn.conv1d_transpose({lit((1, 2, 4))}, {lit((2, 3, 2))}{{A}})",
    "nn.conv3d_transpose": f"nn.conv3d_transpose({lit((1, 2, 2, 2, 2))}, {lit((2, 1, 2, 2, 2))}{{A}})",
    "nn.max_pool1d": f"nn.max_pool1d({lit((1, 2, 5))}, pool_size=[2]{{A}})",
    "nn.avg_pool1d": f"nn.avg_pool1d({lit((1, 2, 5))}, pool_size=[3], padding=[1]{{A}})",
    "nn.max_pool3d": f"nn.max_pool3d({lit((1, 1, 3, 3, 3))}, pool_size=[2, 2, 2]{{A}})",
    "nn.avg_pool3d": f"nn.avg_pool3d({lit((1, 1, 3, 3, 3))}, pool_size=[3, 3, 3], padding=[1, 1, 1]{{A}})",
    "nn.adaptive_avg_pool2d": f"nn.adaptive_avg_pool2d({POOL2}{{A}})",
    "nn.adaptive_max_pool2d": f"nn.adaptive_max_pool2d({POOL2}{{A}})",
    "nn.adaptive_avg_pool1d": f"nn.adaptive_avg_pool1d({lit((1, 2, 5))}{{A}})",
    "nn.adaptive_max_pool1d": f"nn.adaptive_max_pool1d({lit((1, 2, 5))}{{A}})",
    "nn.adaptive_avg_pool3d": f"nn.adaptive_avg_pool3d({lit((1, 1, 2, 3, 2))}{{A}})",
    "nn.adaptive_max_pool3d": f"nn.adaptive_max_pool3d({lit((1, 1, 2, 3, 2))}{{A}})",
    "nn.upsampling": f"nn.upsampling({lit((1, 1, 2, 2))}, scale_h=2f, scale_w=1.5f{{A}})",
    "nn.upsampling3d": f"nn.upsampling3d({lit((1, 1, 2, 2, 2))}, scale_d=2f, scale_h=1f, scale_w=1.5f{{A}})",
    "image.resize1d": f"image.resize1d({lit((1, 1, 3))}, size=[5]{{A}})",
    "image.resize2d": f"image.resize2d({lit((1, 1, 2, 3))}, size=[3, 5]{{A}})",
    "image.resize3d": f"image.resize3d({lit((1, 1, 2, 2, 3))}, size=[3, 3, 5]{{A}})",
    "nn.depth_to_space": f"nn.depth_to_space({lit((1, 4, 1, 2))}, block_size=2{{A}})",
    "nn.space_to_depth": f"nn.space_to_depth({lit((1, 1, 2, 4))}, block_size=2{{A}})",
    "nn.pad": f"nn.pad({lit((2, 2))}, pad_width=[[1, 0], [0, 2]]{{A}})",
    "nn.mirror_pad": f"nn.mirror_pad({lit((2, 3))}, pad_width=[[1, 1], [2, 2]]{{A}})",
    "nn.space_to_batch_nd": f"nn.space_to_batch_nd({lit((1, 2, 2, 1))}, block_shape=[1, 1], paddings=[[0, 1], [1, 0]]{{A}})",
    "nn.batch_to_space_nd": f"nn.batch_to_space_nd({lit((1, 2, 2, 1))}, block_shape=[1, 1], crops=[[0, 1], [1, 0]]{{A}})",
    "nn.dilate": f"nn.dilate({lit((2, 2))}{{A}})",
    "image.crop_and_resize": f"image.crop_and_resize({lit((1, 1, 3, 3))}, [[-0.5f, 0f, 0.5f, 1.5f]], [0], crop_size=[2, 3]{{A}})",
    "image.grid_sample": f"image.grid_sample({lit((1, 1, 3, 3))}, {lit((1, 2, 2, 3), f=lambda i: (i % 7 - 3) / 2)}{{A}})",
    "nn.contrib_conv2d_NCHWc": f"nn.contrib_conv2d_NCHWc({lit((1, 2, 4, 4))}, {lit((2, 2, 2, 2))}, channels=2, kernel_size=[2, 2]{{A}})",
    "nn.contrib_depthwise_conv2d_NCHWc": f"nn.contrib_depthwise_conv2d_NCHWc({lit((1, 2, 4, 4))}, {lit((2, 1, 2, 2))}, groups=2{{A}})",
    "nn.contrib_conv2d_winograd_without_weight_transform":
        f"nn.contrib_conv2d_winograd_without_weight_transform({lit((1, 2, 4, 4))}, {lit((4, 4, 3, 2))}, tile_size=2, channels=3, kernel_size=[3, 3]{{A}})",
    "nn.contrib_conv2d_gemm_without_weight_transform":
        f"nn.contrib_conv2d_gemm_without_weight_transform({lit((1, 2, 4, 4))}, {lit((1, 2, 4, 4))}, channels=3, kernel_size=[2, 2]{{A}})",
    "nn.contrib_dense_pack": f"nn.contrib_dense_pack({lit((2, 3))}, {lit((4, 3))}, units=None{{A}})",
    "vision.yolo_reorg": f"vision.yolo_reorg({lit((1, 4, 2, 2))}{{A}})",
    "vision.multibox_prior": f"vision.multibox_prior({lit((1, 1, 2, 2))}{{A}})",
    "vision.multibox_transform_loc": f"vision.multibox_transform_loc([[[0.1f, 0.5f, 0.002f], [0.9f, 0.5f, 0.998f]]], "
                                     f"{lit((1, 12), f=lambda i: (i % 5 - 2) / 10)}, [[[0.1f, 0.1f, 0.5f, 0.5f], [0.2f, 0.2f, 0.9f, 0.9f], [0f, 0f, 1f, 1f]]]{{A}})",
    "vision.get_valid_counts": f"vision.get_valid_counts({NMS_DATA}, 0.65f{{A}})",
    "vision.non_max_suppression": f"vision.non_max_suppression({NMS_DATA}, [4], [[0, 1, 2, 3]], -1, 0.3f{{A}})",
    "vision.all_class_non_max_suppression": f"vision.all_class_non_max_suppression({BOXES}, [[[0.9f, 0.8f, 0.7f]]], 2i64, 0.3f, 0.1f{{A}})",
    "vision.roi_align": f"vision.roi_align({POOL2}, [[0f, 0.5f, 0.5f, 3f, 2.5f]], pooled_size=[2, 2], spatial_scale=1f{{A}})",
    "vision.roi_pool": f"vision.roi_pool({POOL2}, [[0f, 0f, 0f, 3f, 2f]], pooled_size=[2, 2], spatial_scale=1f{{A}})",
    "vision.proposal": f"vision.proposal({positive((1, 24, 2, 2))}, {lit((1, 48, 2, 2), f=lambda i: (i % 7 - 3) / 10)}, "
                       f"[[64f, 64f, 1f]]{{A}})",
    "qnn.quantize": f"qnn.quantize({lit((2, 3))}, 0.5f, 3, out_dtype=\"int8\"{{A}})",
    "qnn.dequantize": f"qnn.dequantize({lit((2, 3), 'int8')}, 0.5f, 3{{A}})",
    "qnn.requantize": f"qnn.requantize({lit((2, 3), 'int32')}, 0.25f, 0, 1f, 3, out_dtype=\"int8\"{{A}})",
    "qnn.conv2d": f"qnn.conv2d({QX}, {QW}, 3, 0, 0.5f, 0.25f, kernel_size=[3, 3], channels=3{{A}})",
    "qnn.dense": f"qnn.dense({lit((2, 3), 'int8')}, {lit((4, 3), 'int8')}, 1, 0, 0.5f, 0.25f, units=4{{A}})",
    "qnn.batch_matmul": f"qnn.batch_matmul({lit((2, 3, 4), 'int8')}, {lit((2, 4, 3), 'int8')}, 1, 0, 0.5f, 0.25f{{A}})",
    "qnn.add": f"qnn.add({lit((2, 3), 'int8')}, {lit((3,), 'int8')}, 0.5f, 1, 0.25f, 0, 0.5f, 2{{A}})",
    "qnn.subtract": f"qnn.subtract({lit((2, 3), 'int8')}, {lit((3,), 'int8')}, 0.5f, 1, 0.25f, 0, 0.5f, 2{{A}})",
    "qnn.mul": f"qnn.mul({lit((2, 3), 'int8')}, {lit((3,), 'int8')}, 0.5f, 1, 0.25f, 0, 0.5f, 2{{A}})",
    "qnn.concatenate": f"qnn.concatenate(({lit((1, 2), 'int8')}, {lit((1, 2), 'int8')}), (0.5f, 0.25f), (0, 1), 0.5f, 0{{A}})",
    "qnn.avg_pool2d": f"qnn.avg_pool2d({lit((1, 1, 3, 3), 'int8')}, 0.5f, 0, 0.5f, 0, pool_size=[2, 2]{{A}})",
    "qnn.leaky_relu": f"qnn.leaky_relu({lit((5,), 'int8')}, 0.5f, 0, 0.5f, 0{{A}})",
    "qnn.softmax": f"qnn.softmax({lit((2, 3), 'int8')}, 0.5f, 0, 0.0078125f, -128{{A}})",
    "qnn.conv2d_transpose": f"qnn.conv2d_transpose({lit((1, 2, 2, 2), 'uint8')}, {lit((2, 2, 2, 2), 'int8')}, 1, 0, 0.5f, 0.25f{{A}})",
    "fixed_point_multiply_per_axis": f"fixed_point_multiply_per_axis({lit((2, 3), 'int32')}, [1073741824, 1610612736, 1073741824], "
                                     f"[1, 0, 2], [0, 1, 0], axes=[1]{{A}})",
    "qnn.simulated_quantize": f"qnn.simulated_quantize({lit((2, 3))}, 1, [0.5f, 0.25f, 1f], [0, 1, 2]{{A}})",
    "qnn.simulated_dequantize": f"qnn.simulated_dequantize({lit((2, 3))}, 1, [0.5f, 0.25f, 1f], [0, 1, 2]{{A}})",
    "qnn.contrib_dense_pack": f"qnn.contrib_dense_pack({lit((2, 4), 'int8')}, {lit((3, 4), 'int8')}, 0, 0, 1f, 1f, "
                              f"out_dtype=\"int32\"{{A}})",
    "on_device": "on_device([1f, 2f]{A})",
}

# More calls, where an attribute matters only with others (a rounding method only for nearest_neighbor, ceil_mode
# only where a window does not fit evenly): each row of the operator is tried with these too.
MORE_CALLS = {
    "image.resize1d": [f"image.resize1d({lit((1, 1, 5))}, size=[3], method=\"nearest_neighbor\", "
                       f"coordinate_transformation_mode=\"asymmetric\"{{A}})"],
    "image.resize2d": [f"image.resize2d({lit((1, 1, 2, 5))}, size=[3, 3], method=\"nearest_neighbor\", "
                       f"coordinate_transformation_mode=\"asymmetric\"{{A}})"],
    "image.resize3d": [f"image.resize3d({lit((1, 1, 1, 2, 5))}, size=[1, 3, 3], method=\"nearest_neighbor\", "
                       f"coordinate_transformation_mode=\"asymmetric\"{{A}})"],
    "nn.max_pool1d": [f"nn.max_pool1d({lit((1, 1, 5))}, pool_size=[2], strides=[2]{{A}})"],
    "nn.avg_pool1d": [f"nn.avg_pool1d({lit((1, 1, 5))}, pool_size=[2], strides=[2]{{A}})"],
    "nn.max_pool2d": [f"nn.max_pool2d({lit((1, 1, 5, 5))}, pool_size=[2, 2], strides=[2, 2]{{A}})"],
    "nn.avg_pool2d": [f"nn.avg_pool2d({lit((1, 1, 5, 5))}, pool_size=[2, 2], strides=[2, 2]{{A}})"],
    "nn.max_pool3d": [f"nn.max_pool3d({lit((1, 1, 3, 3, 3))}, pool_size=[2, 2, 2], strides=[2, 2, 2]{{A}})"],
    "nn.avg_pool3d": [f"nn.avg_pool3d({lit((1, 1, 3, 3, 3))}, pool_size=[2, 2, 2], strides=[2, 2, 2]{{A}})"],
    "qnn.avg_pool2d": [f"qnn.avg_pool2d({lit((1, 1, 5, 5), 'int8')}, 0.5f, 0, 0.5f, 0, pool_size=[2, 2], strides=[2, 2]{{A}})"],
    "nn.upsampling": [f"nn.upsampling({lit((1, 1, 2, 2))}, scale_h=2f, scale_w=1.5f, method=\"bilinear\"{{A}})"],
    "nn.upsampling3d": [f"nn.upsampling3d({lit((1, 1, 2, 2, 2))}, scale_d=2f, scale_h=1f, scale_w=1.5f, "
                        f"method=\"trilinear\"{{A}})"],
    "argmax": ["argmax([[1, 3, 3], [2, 2, 1]], axis=1{A})"],
    "argmin": ["argmin([[1, 3, 1], [2, 2, 3]], axis=1{A})"],
    "nn.dilate": [f"nn.dilate({lit((2, 2))}, strides=[2, 2]{{A}})"],
    "nn.conv2d": [f"nn.conv2d({lit((1, 2, 4, 4))}, {lit((2, 1, 2, 2))}, groups=2{{A}})"],
}

# Calls for a row that the operator's call does not suit (it writes the attribute, or the default
# needs other inputs). Where the call writes the attribute and no call is given here, the row's
# call is the operator's with that attribute taken out.
ROW_CALLS = {
    ("nn.contrib_depthwise_conv2d_NCHWc", "groups"):
        f"nn.contrib_depthwise_conv2d_NCHWc({lit((1, 2, 4, 4))}, {lit((2, 2, 2, 2))}{{A}})",
    ("matrix_set_diag", "k1"): f"matrix_set_diag({lit((3, 4))}, [1f, 2f, 3f]{{A}})",
    ("matrix_set_diag", "k2"): f"matrix_set_diag({lit((3, 4))}, [1f, 2f, 3f]{{A}})",
}


def call_for(op, attr):
    if (op, attr) in ROW_CALLS:
        return ROW_CALLS[(op, attr)]
    call = CALLS[op]
    return re.sub(r", " + re.escape(attr) + r"=(\[[^\]]*\]|\"[^\"]*\"|[^,)\[]*)", "", call)


# Rows that cannot be tried, and why.
NOT_TESTABLE = {
    ("on_device", "virtual_device"): "VirtualDevice::FullyUnconstrained() has no text spelling (a virtual "
                                     "device is written as a metadata reference); relay keeps it as written",
}

# Rows that relay rejects both with and without the attribute (written as TVM's default), and why:
# where TVM's default is no usable value, relay requires the attribute.
NULL_INTEGER = "TVM's default is a null Integer, which its relation reads with IntValue() (a failed check)"
NEEDED_BY_RELATION = "TVM's relation requires it (channels and kernel_size are read, not the weight)"
BOTH_REJECTED = {
    ("repeat", "axis"): NULL_INTEGER + " (RepeatRel)",
    ("reverse", "axis"): NULL_INTEGER + " (ReverseRel)",
    ("gather", "axis"): NULL_INTEGER + " (GatherRel checks param->axis.defined())",
    ("stft", "n_fft"): "TVM's -1 gives STFTRel a dimension of (n - -1) / hop_length + 1; relay requires it",
    ("stft", "hop_length"): "TVM's -1 divides STFTRel's frame count by -1 (a negative dimension); relay requires it",
    ("stft", "win_length"): "TVM's -1 makes topi.stft's window loop empty (every value 0); relay requires it",
    ("nn.conv2d_backward_weight", "kernel_size"): "Conv2DBackwardWeightRel checks kernel_size.defined()",
    ("nn.group_norm", "num_groups"): "TVM's 0 divides the channels by zero in topi.nn.group_norm; relay requires it",
    ("image.resize1d", "size"): "Resize1DRel checks that size has 1 value (a null array has none)",
    ("image.resize2d", "size"): "Resize2DRel checks that size has 2 values (a null array has none)",
    ("image.resize3d", "size"): "Resize3DRel checks that size has 3 values (a null array has none)",
    ("image.crop_and_resize", "crop_size"): "CropAndResizeRel reads crop_size[0] and [1] of a null array",
    ("nn.contrib_conv2d_NCHWc", "channels"): NEEDED_BY_RELATION,
    ("nn.contrib_conv2d_NCHWc", "kernel_size"): NEEDED_BY_RELATION,
    ("nn.contrib_conv2d_winograd_without_weight_transform", "channels"): NEEDED_BY_RELATION,
    ("nn.contrib_conv2d_winograd_without_weight_transform", "kernel_size"): NEEDED_BY_RELATION,
    ("nn.contrib_conv2d_gemm_without_weight_transform", "channels"): NEEDED_BY_RELATION,
    ("nn.contrib_conv2d_gemm_without_weight_transform", "kernel_size"): NEEDED_BY_RELATION,
    ("qnn.contrib_dense_pack", "out_dtype"): "QnnDensePackRel checks that out_dtype has more than 0 bits",
}

# Attributes relay takes that TVM's struct lacks, and why.
RELAY_ONLY = {
    ("nn.pad", "pad_value"): "TVM v0.14 takes the pad value as nn.pad's second argument; relay also "
                             "reads the attribute of older TVM dumps",
    ("device_copy", "src_dev_type"): "the device numbers of TVM's DeviceCopyAttrs before VirtualDevice",
    ("device_copy", "dst_dev_type"): "the device numbers of TVM's DeviceCopyAttrs before VirtualDevice",
}


# ------------------------------------------------------------------------------------------ running

def read_table(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        op, attr, dflt, struct, header = line.rstrip("\n").split("\t")
        rows.append((op, attr, dflt, struct, header))
    return rows


def ops_def():
    ops = {}
    for line in open(os.path.join(ROOT, "ir", "ops.def")):
        m = re.match(r'IR_OP\(\w+, "([^"]+)", \d+, \d+, "([^"]*)"', line)
        if m:
            ops[m.group(1)] = [w.rstrip("!") for w in m.group(2).split()]
    return ops


MARK = "314159265i64"


def run_session(relay, inputs):
    """Each input's reply in one REPL session: the text relay printed for it (stdout and stderr)."""
    text = "".join(f"{MARK}\n{i}\n" for i in inputs) + f"{MARK}\n"
    p = subprocess.run([relay, "--no-prelude"], input=text, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=dict(os.environ, NO_COLOR="1"), timeout=600)
    out = p.stdout
    parts = out.split(f"- : int64 = {MARK}\n")
    if len(parts) != len(inputs) + 2:
        raise RuntimeError(f"the session's replies do not line up ({len(parts) - 2} for {len(inputs)}):\n{out[-2000:]}")
    return parts[1:-1]


def verdict(reply):
    """('ok', '- : T = V') or ('error', the diagnostic's first line without its place)."""
    lines = reply.strip("\n").split("\n")
    if lines and lines[0].startswith("- : "):
        return "ok", "\n".join(lines)
    first = lines[0] if lines else "(no reply)"
    return "error", re.sub(r"^<repl>:\d+:\d+: ", "", first)


def main():
    relay = sys.argv[1]
    table = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "tvm_attr_defaults.txt")
    rows = read_table(table)
    ops = ops_def()
    by_op = {}
    for r in rows:
        by_op.setdefault(r[0], []).append(r)
    problems = {op: [] for op in ops}
    for op in ops:
        if op not in by_op:
            problems[op].append("not in the table: rerun tests/tools/tvm_attr_defaults.py")
    for (op, attr) in RELAY_ONLY:
        if op in by_op and any(r[1] == attr and r[2] != "not-in-struct" for r in by_op[op]):
            problems[op].append(f"{attr} is listed as relay's own but TVM's struct has it")
    # The calls to make: (op, attr, omitted, written).
    trials = []
    for op, attr, dflt, struct, header in rows:
        if op not in ops or attr == "-" or dflt == "required":
            continue
        if dflt == "not-in-struct":
            if (op, attr) not in RELAY_ONLY:
                problems[op].append(f"relay takes `{attr}`, which TVM's {struct} lacks (and RELAY_ONLY does not list)")
            continue
        if (op, attr) in NOT_TESTABLE:
            continue
        if attr not in ops[op]:
            problems[op].append(f"TVM's {struct} has `{attr}` (default {dflt}), which relay does not take")
            continue
        if dflt.startswith("?"):
            problems[op].append(f"`{attr}`: no spelling for TVM's default {dflt[1:]} and NOT_TESTABLE does not say why")
            continue
        if op not in CALLS:
            problems[op].append(f"no call to try `{attr}` with (CALLS)")
            continue
        calls = [call_for(op, attr)] + [c for c in MORE_CALLS.get(op, []) if f" {attr}=" not in c]
        for call in calls:
            trials.append((op, attr, dflt, call.replace("{A}", ""), call.replace("{A}", f", {attr}={dflt}")))
    replies = run_session(relay, [t[3] for t in trials] + [t[4] for t in trials])
    n = len(trials)
    for k, (op, attr, dflt, omitted, written) in enumerate(trials):
        a, b = verdict(replies[k]), verdict(replies[n + k])
        if a[0] == "error" and b[0] == "error":
            if (op, attr) not in BOTH_REJECTED:
                problems[op].append(f"`{attr}`: both calls rejected ({a[1]}), so the row tries nothing: {omitted}")
        elif (op, attr) in BOTH_REJECTED:
            problems[op].append(f"`{attr}` is listed in BOTH_REJECTED, but relay takes the call: {omitted if a[0] == 'ok' else written}")
        elif a != b:
            problems[op].append(f"`{attr}` omitted is not `{attr}={dflt}` (TVM's default):\n"
                                f"    omitted: {a[1]}\n    {attr}={dflt}: {b[1]}\n    call: {written}")
    for key in list(NOT_TESTABLE) + list(BOTH_REJECTED):
        if key[0] not in by_op or not any(r[1] == key[1] for r in by_op[key[0]]):
            problems.setdefault(key[0], []).append(f"{key} is listed as an exception but is no row of the table")
    print(f"1..{len(problems)}")
    tried = {}
    for t in trials:
        tried[t[0]] = tried.get(t[0], 0) + 1
    for i, op in enumerate(problems, 1):
        if problems[op]:
            print(f"not ok {i} - {op}")
            for p in problems[op]:
                print("# " + p.replace("\n", "\n# "))
        else:
            print(f"ok {i} - {op} ({tried.get(op, 0)} defaults tried)")
    return 1 if any(problems.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
