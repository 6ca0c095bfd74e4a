/* The dynamic operators' kernels (`dyn.*`): each reads the values of its shape, size or count
 * arguments (as int64, the cast TVM's shape functions make), checks them where TVM's shape functions
 * (python/tvm/relay/op/dyn/) decide the result's shape, and runs the static operator's kernel with
 * them as its attributes, so a dynamic operator computes exactly what its static one does. */
#include "runtime/kernel.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- reading the arguments */

static const char *name_of(IrOpId op) { return ir_ops[op].name; }

/* The values of v, a vector (or a scalar: one value), into out[RT_MAX_RANK]: their count. */
static int ints_of(IrOpId op, const char *what, RtValue v, int64_t *out, const RtSite *site) {
  RtOperand o;
  rt_operand(&o, v);
  if (o.count > RT_MAX_RANK)
    rt_error(site->expr, "%s: %s has %lld values, beyond the %d dimensions the operators support", name_of(op), what,
             (long long)o.count, RT_MAX_RANK);
  for (int64_t i = 0; i < o.count; i++) out[i] = rt_scalar_i64(rt_elem_get(o.data, o.dt, i));
  return (int)o.count;
}

/* "[2, -1]" */
static const char *ints_text(int n, const int64_t *v) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_putc(&b, '[');
  for (int i = 0; i < n; i++) ir_buf_printf(&b, "%s%lld", i ? ", " : "", (long long)v[i]);
  ir_buf_putc(&b, ']');
  return b.data;
}

/* A shape read from a tensor: no dimension negative. */
static int shape_of(IrOpId op, const char *what, RtValue v, int64_t *out, const RtSite *site) {
  int n = ints_of(op, what, v, out, site);
  for (int i = 0; i < n; i++)
    if (out[i] < 0)
      rt_error(site->expr, "%s: %s %s has a negative dimension", name_of(op), what, ints_text(n, out));
  return n;
}

/* The one value of v (a scalar, or a tensor of one element). */
static RtValue one_value(IrOpId op, const char *what, RtValue v, const RtSite *site) {
  RtOperand o;
  rt_operand(&o, v);
  if (o.count != 1)
    rt_error(site->expr, "%s: %s is one value, but it has %lld", name_of(op), what, (long long)o.count);
  return rt_elem_get(o.data, o.dt, 0);
}

static const IrOpAttrs *set_ints(const IrOpAttrs *at, IrAttrId id, int n, const int64_t *v) {
  return ir_attrs_set(at, id, (IrAttrValue){.given = true, .listed = true, .n = n, .ints = v});
}

static const IrOpAttrs *set_float(const IrOpAttrs *at, IrAttrId id, double f) {
  return ir_attrs_set(at, id, (IrAttrValue){.given = true, .f = f});
}

/* The static operator `op` on args[0..nargs) with the attributes `at`, at the dynamic call's place. */
static RtValue run_static(IrOpId op, const RtValue *args, int nargs, const IrOpAttrs *at, const RtSite *site) {
  RtSite inner = rt_site_inner(site, at);
  return rt_kernel_call(op, args, nargs, &inner);
}

/* An empty tensor of this shape (a count of 0): what a static kernel would refuse to make when it
 * takes the shape as codes or counts that must be positive. */
static RtValue empty(IrDType dt, int rank, const int64_t *shape) {
  return (RtValue){.kind = RT_TENSOR, .u.t = rt_tensor_new(dt, rank, shape)};
}

static int64_t product(int n, const int64_t *d) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) p = rt_mul_sat(p, d[i]);
  return p;
}

/* ---------------------------------------------------------------- shapes as tensors */

/* dyn.reshape: TVM's _reshape_shape_func_input_data: a positive value, 0 (the data's dimension, or
 * 0 with allowzero), -1 (inferred), -3 (two of the data's dimensions merged); -2 and -4 would make the
 * rank depend on the values and are refused. */
static RtValue reshape(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, args[0]);
  int64_t ns[RT_MAX_RANK], out[RT_MAX_RANK];
  int n = ints_of(op, "newshape", args[1], ns, site), src = 0, infer = -1;
  bool allowzero = ir_attr_bool(site->attrs, IR_A_ALLOWZERO, false);
  const char *data = rt_shape_text(a.rank, a.shape);
  for (int i = 0; i < n; i++) {
    int64_t v = ns[i];
    if (v > 0) {
      out[i] = v;
    } else if (v == 0) {
      if (!allowzero && src >= a.rank)
        rt_error(site->expr, "dyn.reshape: newshape %s copies dimension %d (0), but the data %s has rank %d",
                 ints_text(n, ns), src, data, a.rank);
      out[i] = allowzero ? 0 : a.shape[src];
    } else if (v == -1) {
      if (infer >= 0) rt_error(site->expr, "dyn.reshape: newshape %s has -1 twice; one dimension can be inferred", ints_text(n, ns));
      infer = i;
      out[i] = 1;
    } else if (v == -3) {
      if (a.rank - src < 2)
        rt_error(site->expr, "dyn.reshape: newshape %s merges dimensions %d and %d (-3), but the data %s has rank %d",
                 ints_text(n, ns), src, src + 1, data, a.rank);
      out[i] = rt_mul_sat(a.shape[src], a.shape[src + 1]);
      src++;
    } else {
      rt_error(site->expr, "dyn.reshape: newshape %s has %lld; it takes sizes, 0, -1 and -3 (-2 and -4 are static "
               "reshape's only)", ints_text(n, ns), (long long)v);
    }
    src++;
  }
  if (infer >= 0) {
    int64_t known = product(n, out);
    if (known == 0 || a.count % known != 0)
      rt_error(site->expr, "dyn.reshape: the %lld elements of %s cannot take the shape %s with -1", (long long)a.count, data,
               ints_text(n, ns));
    out[infer] = a.count / known;
  }
  if (product(n, out) != a.count)
    rt_error(site->expr, "dyn.reshape: the %lld elements of %s do not fit the shape %s", (long long)a.count, data,
             rt_shape_text(n, out));
  if (a.count == 0) return empty(a.dt, n, out);
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_NEWSHAPE, n, out); /* every dimension positive: reshape's codes are the dimensions */
  return run_static(IR_OP_RESHAPE, args, 1, at, site);
}

/* dyn.tile: TVM's _tile_shape_func; a count of 0 gives an empty tensor (tile's counts are 1 or more). */
static RtValue tile(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, args[0]);
  int64_t reps[RT_MAX_RANK], out[RT_MAX_RANK];
  int n = shape_of(op, "reps", args[1], reps, site), r = a.rank, t = r > n ? r : n;
  bool zero = false;
  for (int i = 0; i < t; i++) {
    int64_t d = i < t - r ? 1 : a.shape[i - (t - r)], k = i < t - n ? 1 : reps[i - (t - n)];
    if (__builtin_mul_overflow(d, k, &out[i])) rt_error(site->expr, "dyn.tile: the result is too large");
    zero |= k == 0;
  }
  if (zero) return empty(a.dt, t, out);
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_REPS, n, reps);
  return run_static(IR_OP_TILE, args, 1, at, site);
}

static RtValue broadcast_to(IrOpId op, const RtValue *args, const RtSite *site) {
  int64_t to[RT_MAX_RANK];
  int n = shape_of(op, "shape", args[1], to, site);
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_SHAPE, n, to);
  return run_static(IR_OP_BROADCAST_TO, args, 1, at, site);
}

/* dyn.zeros, dyn.ones (no fill argument) and dyn.full (args[0], the fill value): the shape is the last
 * argument. */
static RtValue create(IrOpId op, IrOpId stat, const RtValue *args, int nargs, const RtSite *site) {
  int64_t shape[RT_MAX_RANK];
  int n = shape_of(op, "shape", args[nargs - 1], shape, site);
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_SHAPE, n, shape);
  return run_static(stat, args, nargs - 1, at, site);
}

static RtValue one_hot(IrOpId op, const RtValue *args, const RtSite *site) {
  int64_t depth = rt_scalar_i64(one_value(op, "depth", args[3], site));
  if (depth < 0) rt_error(site->expr, "dyn.one_hot: depth %lld is negative", (long long)depth);
  RtOperand ix;
  rt_operand(&ix, args[0]);
  if (ix.count == 0) { /* one_hot's kernel would step through every depth of no index (2^40 of them, untimed) */
    int64_t shape[RT_MAX_RANK + 1];
    int axis = (int)ir_attr_int(site->attrs, IR_A_AXIS, -1);
    if (axis < 0) axis += ix.rank + 1;
    for (int i = 0, k = 0; i <= ix.rank; i++) shape[i] = i == axis ? depth : ix.shape[k++];
    RtOperand on;
    rt_operand(&on, args[1]);
    return empty(ir_attr_dtype(site->attrs, IR_A_DTYPE, on.dt), ix.rank + 1, shape);
  }
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_DEPTH, 1, &depth);
  return run_static(IR_OP_ONE_HOT, args, 3, at, site);
}

/* dyn.strided_slice: begin, end and strides of one length (topi's dynamic_strided_slice), slicing the
 * first axes as strided_slice does; slice_mode="size" reads end as sizes (-1: to the end) and ignores
 * strides (TVM's _strided_slice_shape_func_input_data). The attributes begin, end, strides and axes
 * (TVM prints them None) are not read, as TVM's. */
static RtValue strided_slice(IrOpId op, const RtValue *args, const RtSite *site) {
  int64_t b[RT_MAX_RANK], e[RT_MAX_RANK], s[RT_MAX_RANK];
  int nb = ints_of(op, "begin", args[1], b, site), ne = ints_of(op, "end", args[2], e, site),
      ns = ints_of(op, "strides", args[3], s, site);
  if (ne != nb || ns != nb)
    rt_error(site->expr, "dyn.strided_slice: begin %s, end %s and strides %s must have one length", ints_text(nb, b),
             ints_text(ne, e), ints_text(ns, s));
  const IrAttrValue *mode = ir_attr_at(site->attrs, IR_A_SLICE_MODE);
  bool size_mode = mode->given && mode->str && !strcmp(mode->str, "size");
  for (int i = 0; i < nb; i++) {
    if (size_mode) {
      s[i] = 1;
      e[i] = e[i] < 0 || b[i] > INT64_MAX - e[i] ? INT64_MAX : b[i] + e[i];
    } else if (s[i] == 0) {
      rt_error(site->expr, "dyn.strided_slice: strides %s has a 0", ints_text(ns, s));
    }
  }
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_BEGIN, nb, b);
  at = set_ints(at, IR_A_END, nb, e);
  at = set_ints(at, IR_A_STRIDES, nb, s);
  at = ir_attrs_set(ir_attrs_set(at, IR_A_SLICE_MODE, ir_attr_absent), IR_A_AXES, ir_attr_absent);
  return run_static(IR_OP_STRIDED_SLICE, args, 1, at, site);
}

static RtValue sparse_to_dense(IrOpId op, const RtValue *args, const RtSite *site) {
  int64_t shape[RT_MAX_RANK];
  int n = shape_of(op, "output_shape", args[3], shape, site);
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_OUTPUT_SHAPE, n, shape);
  return run_static(IR_OP_SPARSE_TO_DENSE, args, 3, at, site);
}

/* dyn.expand_dims: axis from -(rank + 1) to rank, as expand_dims's. */
static RtValue expand_dims(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, args[0]);
  int64_t axis = rt_scalar_i64(one_value(op, "axis", args[1], site));
  if (axis < -(int64_t)a.rank - 1 || axis > a.rank)
    rt_error(site->expr, "dyn.expand_dims: axis %lld is out of range for a tensor of rank %d (axes go from %d to %d)",
             (long long)axis, a.rank, -a.rank - 1, a.rank);
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_AXIS, 1, &axis);
  return run_static(IR_OP_EXPAND_DIMS, args, 1, at, site);
}

/* dyn.squeeze: each axis once, of dimension 1 (the result's rank is the data's less their number). */
static RtValue squeeze(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, args[0]);
  int64_t axes[RT_MAX_RANK];
  int n = ints_of(op, "axes", args[1], axes, site);
  bool seen[RT_MAX_RANK] = {false};
  for (int i = 0; i < n; i++) {
    int k = rt_axis(site, op, axes[i], a.rank);
    if (seen[k]) rt_error(site->expr, "dyn.squeeze: axes %s names axis %d twice", ints_text(n, axes), k);
    if (a.shape[k] != 1)
      rt_error(site->expr, "dyn.squeeze: axis %d of %s is %lld, not 1", k, rt_shape_text(a.rank, a.shape), (long long)a.shape[k]);
    seen[k] = true;
    axes[i] = k;
  }
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_AXIS, n, axes);
  return run_static(IR_OP_SQUEEZE, args, 1, at, site);
}

/* ---------------------------------------------------------------- topk */

/* dyn.topk: k below 1 takes the whole axis (TVM's _topk_shape_func_input_data). */
static RtValue topk(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, args[0]);
  int64_t k = rt_scalar_i64(one_value(op, "k", args[1], site));
  int axis = rt_axis(site, op, ir_attr_int(site->attrs, IR_A_AXIS, -1), a.rank);
  if (k > a.shape[axis])
    rt_error(site->expr, "dyn.topk: k=%lld is more than the %lld elements along axis %d of %s", (long long)k,
             (long long)a.shape[axis], axis, rt_shape_text(a.rank, a.shape));
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_K, 1, &k);
  return run_static(IR_OP_TOPK, args, 1, at, site);
}

/* ---------------------------------------------------------------- padding, resizing */

/* dyn.nn.pad: pad_width one [before, after] row per axis of the data (TVM's _dyn_pad_shape_func). */
static RtValue pad(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand a, w;
  rt_operand(&a, args[0]);
  rt_operand(&w, args[1]);
  if (w.rank != 2 || w.shape[0] != a.rank || w.shape[1] != 2)
    rt_error(site->expr, "%s: pad_width is %s, but the data %s takes (%d, 2): one [before, after] row per axis",
             name_of(op), rt_shape_text(w.rank, w.shape), rt_shape_text(a.rank, a.shape), a.rank);
  int64_t pw[2 * RT_MAX_RANK];
  for (int64_t i = 0; i < w.count; i++) pw[i] = rt_scalar_i64(rt_elem_get(w.data, w.dt, i));
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_PAD_WIDTH, (int)w.count, pw);
  RtValue pargs[2] = {args[0], args[2]};
  return run_static(IR_OP_NN_PAD, pargs, 2, at, site);
}

/* An upsampled size as TVM's shape functions compute it (python/tvm/relay/op/dyn/nn/_nn.py,
 * _upsampling_shape_func: int64(round(dshape[axis] * scale))): the product in the scale's dtype, and
 * round in generated code, tir.round as llvm.round, halves away from zero (5 by 0.5 is 3). The static
 * operators' sizes round a constant, which TVM folds with nearbyint (ir_scaled_length), so the
 * sizes are given to the static kernel as `size`. The scale is a positive number, as the static
 * operators' attributes. */
static int64_t scaled_size(IrOpId op, const char *what, int64_t n, RtValue v, const RtSite *site) {
  RtValue s = one_value(op, what, v, site);
  double f = rt_scalar_f64(s);
  if (!(f > 0) || !isfinite(f)) rt_error(site->expr, "%s: %s=%g must be a positive number", name_of(op), what, f);
  int bits = s.dt.code == IR_DT_FLOAT ? s.dt.bits : 64;
  double p = round(ir_float_round(bits, ir_float_round(bits, (double)n) * f)); /* exact, then rounded once */
  if (!(p < 0x1p63)) rt_error(site->expr, "%s: the output is too large", name_of(op));
  return (int64_t)p;
}

/* dyn.nn.upsampling(data, scale_h, scale_w) and dyn.nn.upsampling3d(data, scale_d, scale_h, scale_w):
 * the static operator with the scales as attributes and the sizes computed as above. */
static RtValue upsampling(IrOpId op, const RtValue *args, const RtSite *site) {
  bool three = op == IR_OP_DYN_NN_UPSAMPLING3D;
  int d = three ? 3 : 2;
  static const char *const names[3] = {"scale_d", "scale_h", "scale_w"};
  static const IrAttrId ids[3] = {IR_A_SCALE_D, IR_A_SCALE_H, IR_A_SCALE_W};
  RtOperand x;
  rt_operand(&x, args[0]);
  const IrAttrValue *l = ir_attr_at(site->attrs, IR_A_LAYOUT);
  const char *layout = l->given && l->str ? l->str : three ? "NCDHW" : "NCHW";
  bool sized = x.rank == d + 2 && (int)strlen(layout) == d + 2; /* else the static kernel's error */
  int64_t *size = rt_alloc_array(3, sizeof(int64_t));
  const IrOpAttrs *at = site->attrs;
  for (int i = 0; i < d; i++) {
    const char *name = names[3 - d + i], *axis = strchr(layout, "DHW"[3 - d + i]);
    at = set_float(at, ids[3 - d + i], rt_scalar_f64(one_value(op, name, args[1 + i], site)));
    if (sized && axis) size[i] = scaled_size(op, name, x.shape[axis - layout], args[1 + i], site);
    else sized = false;
  }
  if (sized) at = set_ints(at, IR_A_SIZE, d, size);
  return run_static(three ? IR_OP_NN_UPSAMPLING3D : IR_OP_NN_UPSAMPLING, args, 1, at, site);
}

/* dyn.image.resize2d: the height and width are size's first two values (TVM's _resize2d_shape_func);
 * roi is not read (the modes that would read it are not supported, as image.resize2d's). */
static RtValue resize2d(IrOpId op, const RtValue *args, const RtSite *site) {
  int64_t size[RT_MAX_RANK];
  int n = shape_of(op, "size", args[1], size, site);
  if (n < 2) rt_error(site->expr, "dyn.image.resize2d: size %s needs a height and a width", ints_text(n, size));
  const IrOpAttrs *at = site->attrs;
  at = set_ints(at, IR_A_SIZE, 2, size);
  return run_static(IR_OP_IMAGE_RESIZE2D, args, 1, at, site);
}

/* ---------------------------------------------------------------- dispatch */

RtValue rt_kernel_dyn(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)nargs;
  switch (op) {
  case IR_OP_DYN_RESHAPE: return reshape(op, args, site);
  case IR_OP_DYN_TILE: return tile(op, args, site);
  case IR_OP_DYN_BROADCAST_TO: return broadcast_to(op, args, site);
  case IR_OP_DYN_ZEROS: return create(op, IR_OP_ZEROS, args, 1, site);
  case IR_OP_DYN_ONES: return create(op, IR_OP_ONES, args, 1, site);
  case IR_OP_DYN_FULL: return create(op, IR_OP_FULL, args, 2, site);
  case IR_OP_DYN_ONE_HOT: return one_hot(op, args, site);
  case IR_OP_DYN_STRIDED_SLICE: return strided_slice(op, args, site);
  case IR_OP_DYN_SPARSE_TO_DENSE: return sparse_to_dense(op, args, site);
  case IR_OP_DYN_EXPAND_DIMS: return expand_dims(op, args, site);
  case IR_OP_DYN_SQUEEZE: return squeeze(op, args, site);
  case IR_OP_DYN_TOPK: return topk(op, args, site);
  case IR_OP_DYN_NN_PAD: return pad(op, args, site);
  case IR_OP_DYN_NN_UPSAMPLING: return upsampling(op, args, site);
  case IR_OP_DYN_NN_UPSAMPLING3D: return upsampling(op, args, site);
  case IR_OP_DYN_IMAGE_RESIZE2D: return resize2d(op, args, site);
  default:
    UNREACHABLE("every operator ops.def gives this family has a case above");
    rt_error(site->expr, "`%s` is not a dynamic operator", ir_ops[op].name);
  }
}
