/* TVM's quantized operators (qnn.*), computing what TVM v0.14's canonicalization (QnnCanonicalize,
 * src/relay/qnn/op/ and utils.cc) lowers them to, in integers: zero points subtracted in int32,
 * products accumulated in out_dtype, and requantization by a fixed-point multiply (a Q31 multiplier
 * and a shift from the float ratio of the scales, computed in int64) rounded "UPWARD" (the default:
 * half toward +infinity) or "TONEAREST" (half away from zero), then the output zero point added and
 * the value clipped to the output dtype. Scales and zero points are scalars or one value per
 * channel along the operator's axis. The products reuse the float operators' kernels (nn.conv2d,
 * nn.dense, nn.batch_matmul, nn.avg_pool2d, concatenate) on the shifted int32 operands. */
#include "runtime/kernel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const IrDType I32 = {IR_DT_INT, 32, 1}, F32 = {IR_DT_FLOAT, 32, 1};

/* ---------------------------------------------------------------- parameters */

/* A scale or zero-point argument: a scalar, or one value per channel. */
typedef struct Param {
  int64_t n;
  bool vector; /* a tensor (rank >= 1), even of one value */
  float *f;    /* float values (scales) */
  int64_t *i;  /* integer values (zero points) */
} Param;

static Param param(RtValue v) {
  RtOperand o;
  rt_operand(&o, v);
  Param p = {.n = o.count, .vector = o.rank > 0};
  p.f = rt_alloc_array(o.count, sizeof(float));
  p.i = rt_alloc_array(o.count, sizeof(int64_t));
  for (int64_t k = 0; k < o.count; k++) {
    rt_poll_every(NULL, k);
    RtValue s = rt_elem_get(o.data, o.dt, k);
    p.f[k] = (float)rt_scalar_f64(s);
    p.i[k] = o.dt.code == IR_DT_FLOAT ? rt_f2i64(p.f[k]) : rt_scalar_i64(s);
  }
  return p;
}

static Param scalar_param(float f, int64_t i) {
  Param p = {.n = 1};
  p.f = rt_alloc_atomic(sizeof(float));
  p.i = rt_alloc_atomic(sizeof(int64_t));
  p.f[0] = f;
  p.i[0] = i;
  return p;
}

/* Which value of a parameter element i of a tensor uses: (i / inner) % dim. */
typedef struct Chan {
  int64_t inner, dim;
} Chan;

static inline int64_t chan(Chan c, int64_t i) { return c.dim == 1 ? 0 : (i / c.inner) % c.dim; }

/* The channels of parameter p (named `what`) along `axis` (TVM's: negative counts from the end) of a
 * tensor of rank/shape: one value serves every element. */
static Chan chan_of(const RtSite *site, IrOpId op, const char *what, const Param *p, int rank, const int64_t *shape,
                    int64_t axis) {
  if (p->n == 1) return (Chan){1, 1};
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank || shape[a] != p->n)
    rt_error(site->expr, "%s: %s has %lld values, but the data %s has no axis %lld of that size", ir_ops[op].name, what,
             (long long)p->n, rt_shape_text(rank, shape), (long long)axis);
  Chan c = {1, p->n};
  for (int k = (int)a + 1; k < rank; k++) c.inner *= shape[k];
  return c;
}

static int64_t qmin(IrDType dt) {
  return dt.code == IR_DT_UINT ? 0 : -(int64_t)((uint64_t)1 << (dt.bits - 1));
}
static int64_t qmax(IrDType dt) {
  return dt.code == IR_DT_UINT ? (int64_t)(((uint64_t)1 << dt.bits) - 1) : (int64_t)(((uint64_t)1 << (dt.bits - 1)) - 1);
}

static inline int32_t wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* v clipped to dt's range (TVM's Clip, then Cast). */
static RtValue clip_to(int64_t v, IrDType dt) {
  int64_t lo = qmin(dt), hi = qmax(dt);
  return rt_scalar_from_i64(dt, v < lo ? lo : v > hi ? hi : v);
}

/* ---------------------------------------------------------------- the fixed-point multiply */

/* GetFixedPointMultiplierShift: x = m * 2^(shift - 31), m a Q31 significand. */
typedef struct Fpm {
  int32_t m;
  int shift;
} Fpm;

static Fpm fpm_of(const RtSite *site, IrOpId op, double x) {
  if (x == 0) return (Fpm){0, 0};
  if (!isfinite(x)) rt_error(site->expr, "%s: the ratio of the scales is %g", ir_ops[op].name, x);
  int exp;
  double sig = frexp(x, &exp);
  int64_t m = rt_f2i64(round(sig * 2147483648.0)); /* sig in [0.5, 1): at most 2^31 */
  if (m == ((int64_t)1 << 31)) m /= 2, exp++;
  return (Fpm){(int32_t)m, exp};
}

/* QMultiplyShift (and FixedPointMultiplyToNearest when `nearest`): in int64, x << left shift, times
 * m, plus the rounding value (2^(s-1), or 2^(s-1) - 1 for a negative product when nearest), shifted
 * right by s = right shift + 31, cast to int32. A right shift of 64 bits or more (a multiplier below
 * 2^-32; undefined in TVM's LLVM code) gives the exact result, 0; a left shift of 64 or more (above
 * 2^33) gives what the int64 arithmetic gives modulo 2^64, 0 before the rounding. */
static int32_t fpm_generic(int32_t x, Fpm f, bool nearest) {
  int ls = f.shift > 0 ? f.shift : 0, rs = f.shift > 0 ? 0 : -f.shift, total = rs + 31;
  if (total >= 64) return 0;
  uint64_t t = ls >= 64 ? 0 : ((uint64_t)(int64_t)x << ls) * (uint64_t)(int64_t)f.m; /* mod 2^64, as int64 wraps */
  int64_t pos = (int64_t)1 << (total - 1);
  t += (uint64_t)(nearest && (int64_t)t < 0 ? pos - 1 : pos);
  return wrap32((int64_t)t >> total);
}

/* FixedPointMultiply (the scalar "UPWARD" path, tir.q_multiply_shift): a power of two (m = 2^30) is
 * a shift of the int32 value, with rounding when to the right; anything else is fpm_generic. */
static int32_t fpm_upward(int32_t x, Fpm f) {
  if (f.m != (1 << 30)) return fpm_generic(x, f, false);
  int exp = f.shift - 1;
  if (exp > 0) return exp >= 32 ? 0 : wrap32((int64_t)((uint32_t)x << exp));
  int r = -exp;
  if (r == 0) return x; /* a ratio of exactly 1 (TVM's code shifts by -1 here) */
  if (r >= 32) return 0;
  return wrap32((int64_t)wrap32((int64_t)x + ((int64_t)1 << (r - 1))) >> r);
}

/* ---------------------------------------------------------------- requantize */

typedef struct Rq {
  Param scale, zp;  /* the input's */
  float out_scale;
  int64_t out_zp;
  int64_t axis;     /* the attribute, for both */
  bool upward;      /* rounding */
  int compute;      /* 0: int64 (the default), 32 or 64: float32 / float64 */
} Rq;

static bool upward_of(const IrOpAttrs *at) {
  const IrAttrValue *r = ir_attr_at(at, IR_A_ROUNDING);
  return !(r->given && !r->none && r->str && strcmp(r->str, "TONEAREST") == 0);
}

static int compute_of(const IrOpAttrs *at) {
  const IrAttrValue *c = ir_attr_at(at, IR_A_COMPUTE_DTYPE);
  if (!c->given || c->none || !c->str) return 0;
  return strcmp(c->str, "float32") == 0 ? 32 : strcmp(c->str, "float64") == 0 ? 64 : 0;
}

/* Rounding in the float paths: UPWARD floor(x + 0.5), TONEAREST half away from zero; then to int32
 * (saturating; NaN 0). */
static int64_t round_f(double v, bool upward) {
  return rt_f2i32(upward ? floor(v + 0.5) : round(v));
}

/* RequantizeLower: x (any integer dtype) into `out`; int32 output is not clipped. */
static RtValue requant(const RtSite *site, IrOpId op, const Rq *q, const RtOperand *x, IrDType out) {
  if (q->out_scale == 0) rt_error(site->expr, "%s: the output scale is 0", ir_ops[op].name);
  Chan cz = chan_of(site, op, "the input zero point", &q->zp, x->rank, x->shape, q->axis);
  Chan cs = chan_of(site, op, "the input scale", &q->scale, x->rank, x->shape, q->axis);
  int64_t ns = q->scale.n;
  Fpm *f = rt_alloc_array(ns, sizeof(Fpm));
  double *mult = rt_alloc_array(ns, sizeof(double));
  for (int64_t k = 0; k < ns; k++) {
    rt_poll_every(site, k);
    mult[k] = (double)q->scale.f[k] / (double)q->out_scale;
    if (q->compute == 0) f[k] = fpm_of(site, op, mult[k]);
  }
  /* a scalar scale equal to the output's: no multiply (TVM's IsEqualScalar) */
  bool skip = !q->scale.vector && q->scale.f[0] == q->out_scale, i32 = ir_dtype_eq(out, I32);
  RtResult res;
  void *o = rt_result_init(&res, out, x->rank, x->shape);
  for (int64_t i = 0; i < x->count; i++) {
    rt_poll_every(site, i);
    int64_t v = rt_scalar_i64(rt_elem_get(x->data, x->dt, i)), zp = q->zp.i[chan(cz, i)], r;
    int64_t c = chan(cs, i);
    if (q->compute == 0) {
      int32_t t = wrap32((int64_t)wrap32(v) - (int64_t)wrap32(zp));
      if (!skip)
        t = q->scale.vector ? fpm_generic(t, f[c], !q->upward) : q->upward ? fpm_upward(t, f[0]) : fpm_generic(t, f[0], true);
      r = wrap32((int64_t)t + (int64_t)wrap32(q->out_zp));
    } else if (q->compute == 32) {
      float t = (float)v - (float)wrap32(zp);
      if (!skip) t = (float)mult[c] * t;
      r = round_f((double)(t + (float)wrap32(q->out_zp)), q->upward);
    } else {
      double t = (double)v - (double)wrap32(zp);
      if (!skip) t = mult[c] * t;
      r = round_f(t + (double)wrap32(q->out_zp), q->upward);
    }
    rt_elem_set(o, out, i, i32 ? rt_scalar_from_i64(out, r) : clip_to(r, out));
  }
  return rt_result_value(&res);
}

/* RequantizeOrUpcast: requantized to int32 unless the scalar parameters are the target's. */
static RtValue requant_or_upcast(const RtSite *site, IrOpId op, RtValue x, Param s, Param z, float out_s, int64_t out_z,
                                 int64_t axis) {
  RtOperand xo;
  rt_operand(&xo, x);
  if (!s.vector && !z.vector && s.f[0] == out_s && z.i[0] == out_z) {
    RtResult res;
    void *o = rt_result_init(&res, I32, xo.rank, xo.shape);
    for (int64_t i = 0; i < xo.count; i++) {
      rt_poll_every(site, i);
      rt_elem_set(o, I32, i, rt_scalar_from_i64(I32, rt_scalar_i64(rt_elem_get(xo.data, xo.dt, i))));
    }
    return rt_result_value(&res);
  }
  Rq q = {s, z, out_s, out_z, axis, true, 0};
  return requant(site, op, &q, &xo, I32);
}

/* Element-wise f(v) for every element of int32 x, clipped into dt (ConvertDtype). */
static RtValue convert(RtValue x, int64_t add, IrDType dt) {
  RtOperand xo;
  rt_operand(&xo, x);
  RtResult res;
  void *o = rt_result_init(&res, dt, xo.rank, xo.shape);
  for (int64_t i = 0; i < xo.count; i++) {
    rt_poll_every(NULL, i);
    rt_elem_set(o, dt, i, clip_to(wrap32(rt_scalar_i64(rt_elem_get(xo.data, xo.dt, i)) + add), dt));
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- quantize, dequantize */

static float fmin_tvm(float a, float b) { return a < b ? a : b; } /* TVM's select(a < b, a, b): NaN gives b */
static float fmax_tvm(float a, float b) { return a > b ? a : b; }

/* QuantizeLower: round(x / scale) + zp in float32 (round: half away from zero), clipped, cast. */
static RtValue quantize(const RtSite *site, IrOpId op, RtValue data, Param s, Param z, int64_t axis, IrDType out) {
  RtOperand x;
  rt_operand(&x, data);
  Chan cs = chan_of(site, op, "the scale", &s, x.rank, x.shape, axis), cz = chan_of(site, op, "the zero point", &z, x.rank, x.shape, axis);
  float lo = (float)qmin(out), hi = (float)qmax(out);
  RtResult res;
  void *o = rt_result_init(&res, out, x.rank, x.shape);
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    float v = (float)rt_scalar_f64(rt_elem_get(x.data, x.dt, i));
    float r = roundf(v / s.f[chan(cs, i)]) + (float)wrap32(z.i[chan(cz, i)]);
    r = fmax_tvm(fmin_tvm(r, hi), lo);
    int64_t n = r >= (float)qmax(out) ? qmax(out) : rt_f2i64(r);
    rt_elem_set(o, out, i, rt_scalar_from_i64(out, n));
  }
  return rt_result_value(&res);
}

/* DequantizeLower: (int32(x) - zp) as float32, times the scale; float16 clipped to its range. */
static RtValue dequantize(const RtSite *site, IrOpId op, RtValue data, Param s, Param z, int64_t axis, IrDType out) {
  RtOperand x;
  rt_operand(&x, data);
  Chan cs = chan_of(site, op, "the scale", &s, x.rank, x.shape, axis), cz = chan_of(site, op, "the zero point", &z, x.rank, x.shape, axis);
  RtResult res;
  void *o = rt_result_init(&res, out, x.rank, x.shape);
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    int32_t t = wrap32((int64_t)wrap32(rt_scalar_i64(rt_elem_get(x.data, x.dt, i))) - (int64_t)wrap32(z.i[chan(cz, i)]));
    float r = (float)t * s.f[chan(cs, i)];
    if (out.bits == 16) r = fmax_tvm(fmin_tvm(r, 65504.0f), -65504.0f);
    rt_elem_set(o, out, i, rt_scalar_from_f64(out, r));
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- products */

/* x - zp (zp along `axis` of x when a vector) in dtype od. */
static RtValue shifted(const RtSite *site, IrOpId op, RtValue v, const Param *zp, int64_t axis, IrDType od,
                       const char *what) {
  RtOperand x;
  rt_operand(&x, v);
  Chan c = chan_of(site, op, what, zp, x.rank, x.shape, axis);
  RtResult res;
  void *o = rt_result_init(&res, od, x.rank, x.shape);
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    int64_t a = rt_scalar_i64(rt_elem_get(x.data, x.dt, i)), b = zp->i[chan(c, i)];
    rt_elem_set(o, od, i, rt_scalar_from_u64(od, (uint64_t)a - (uint64_t)b));
  }
  return rt_result_value(&res);
}

/* qnn.conv2d, qnn.dense, qnn.batch_matmul: the float operator on (data - zp) and (weight - zp) in
 * out_dtype (zero padding of the shifted data is padding by the zero point, as TVM pads). */
static RtValue product(IrOpId op, const RtValue *args, const RtSite *site) {
  const IrOpAttrs *at = site->attrs;
  IrDType od = ir_attr_dtype(at, IR_A_OUT_DTYPE, I32);
  Param zx = param(args[2]), zw = param(args[3]);
  if (zx.n != 1) rt_error(site->expr, "%s: the input zero point must be a scalar", ir_ops[op].name);
  int64_t waxis = 0;
  IrOpId fop = op == IR_OP_QNN_CONV2D             ? IR_OP_NN_CONV2D
               : op == IR_OP_QNN_CONV2D_TRANSPOSE ? IR_OP_NN_CONV2D_TRANSPOSE
               : op == IR_OP_QNN_DENSE || op == IR_OP_QNN_CONTRIB_DENSE_PACK ? IR_OP_NN_DENSE
                                                : IR_OP_NN_BATCH_MATMUL;
  if (op == IR_OP_QNN_CONV2D_TRANSPOSE) {
    waxis = 1; /* its legalization subtracts a vector zero point by bias_add, axis 1 */
  } else if (op == IR_OP_QNN_CONV2D) {
    const IrAttrValue *kl = ir_attr_at(at, IR_A_KERNEL_LAYOUT);
    const char *s = kl->given && !kl->none && kl->str && *kl->str ? kl->str : "OIHW", *p = strchr(s, 'O');
    waxis = p ? p - s : 0;
  } else if (op == IR_OP_QNN_BATCH_MATMUL && zw.n != 1) {
    rt_error(site->expr, "%s: the zero points must be scalars", ir_ops[op].name);
  }
  RtValue ops[2] = {shifted(site, op, args[0], &zx, 0, od, "the input zero point"),
                    shifted(site, op, args[1], &zw, waxis, od, "the kernel zero point")};
  IrAttrValue odv = {.given = true, .dtype = od};
  RtSite in = rt_site_inner(site, ir_attrs_set(at, IR_A_OUT_DTYPE, odv));
  return rt_kernel_call(fop, ops, 2, &in);
}

/* ---------------------------------------------------------------- element-wise */

/* qnn.add / qnn.subtract: each side requantized to the output's parameters in int32, added or
 * subtracted, the output zero point taken off (add) or added (subtract), clipped to lhs's dtype. */
static RtValue add_sub(IrOpId op, const RtValue *args, const RtSite *site) {
  const IrOpAttrs *at = site->attrs;
  Param os = param(args[6]), oz = param(args[7]);
  RtValue l = requant_or_upcast(site, op, args[0], param(args[2]), param(args[3]), os.f[0], oz.i[0],
                                ir_attr_int(at, IR_A_LHS_AXIS, -1));
  RtValue r = requant_or_upcast(site, op, args[1], param(args[4]), param(args[5]), os.f[0], oz.i[0],
                                ir_attr_int(at, IR_A_RHS_AXIS, -1));
  RtValue lr[2] = {l, r};
  RtSite in = rt_site_inner(site, at);
  RtValue sum = rt_kernel_call(op == IR_OP_QNN_ADD ? IR_OP_ADD : IR_OP_SUBTRACT, lr, 2, &in);
  RtOperand x;
  rt_operand(&x, args[0]);
  return convert(sum, op == IR_OP_QNN_ADD ? -oz.i[0] : oz.i[0], x.dt);
}

/* qnn.mul: (lhs - zp) * (rhs - zp) in int32, requantized from the scale lhs_scale * rhs_scale (a
 * float32 product; per channel, the product in double rounded to float32) with zero point 0. */
static RtValue mul(IrOpId op, const RtValue *args, const RtSite *site) {
  const IrOpAttrs *at = site->attrs;
  Param ls = param(args[2]), lz = param(args[3]), rs = param(args[4]), rz = param(args[5]);
  Param os = param(args[6]), oz = param(args[7]);
  int64_t la = ir_attr_int(at, IR_A_LHS_AXIS, -1), ra = ir_attr_int(at, IR_A_RHS_AXIS, -1);
  RtValue lr[2] = {shifted(site, op, args[0], &lz, la, I32, "lhs_zero_point"),
                   shifted(site, op, args[1], &rz, ra, I32, "rhs_zero_point")};
  RtSite in = rt_site_inner(site, at);
  RtValue prod = rt_kernel_call(IR_OP_MULTIPLY, lr, 2, &in);
  RtOperand x, p;
  rt_operand(&x, args[0]);
  rt_operand(&p, prod);
  Rq q = {.out_scale = os.f[0], .out_zp = oz.i[0], .axis = -1, .upward = true, .compute = 0};
  q.zp = scalar_param(0, 0);
  if (!ls.vector && !rs.vector) {
    q.scale = scalar_param(ls.f[0] * rs.f[0], 0);
  } else {
    if (la != ra) rt_error(site->expr, "%s: per-channel scales need lhs_axis and rhs_axis to be the same (TVM's)", ir_ops[op].name);
    int64_t n = ls.n > rs.n ? ls.n : rs.n;
    if ((ls.n != n && ls.n != 1) || (rs.n != n && rs.n != 1))
      rt_error(site->expr, "%s: lhs_scale has %lld values and rhs_scale %lld", ir_ops[op].name, (long long)ls.n, (long long)rs.n);
    q.scale = (Param){.n = n, .vector = true, .f = rt_alloc_atomic(sizeof(float) * (size_t)n), .i = NULL};
    for (int64_t k = 0; k < n; k++) {
      rt_poll_every(site, k);
      q.scale.f[k] = (float)((double)ls.f[ls.n == 1 ? 0 : k] * (double)rs.f[rs.n == 1 ? 0 : k]);
    }
    q.axis = la;
  }
  return requant(site, op, &q, &p, x.dt);
}

/* qnn.sigmoid etc.: dequantized to float32, the float operator, quantized back into the data's
 * dtype with the output's parameters. */
static RtValue unary(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand x;
  rt_operand(&x, args[0]);
  RtValue f = dequantize(site, op, args[0], param(args[1]), param(args[2]), -1, F32);
  static const struct {
    IrOpId q, f;
  } map[] = {{IR_OP_QNN_SIGMOID, IR_OP_SIGMOID}, {IR_OP_QNN_TANH, IR_OP_TANH}, {IR_OP_QNN_EXP, IR_OP_EXP},
             {IR_OP_QNN_SQRT, IR_OP_SQRT},       {IR_OP_QNN_RSQRT, IR_OP_RSQRT}, {IR_OP_QNN_ERF, IR_OP_ERF},
             {IR_OP_QNN_LOG, IR_OP_LOG},         {IR_OP_QNN_ABS, IR_OP_ABS}};
  RtValue y = f;
  if (op == IR_OP_QNN_HARDSWISH) { /* x * clip(x + 3, 0, 6) / 6, in float32 */
    RtOperand fo;
    rt_operand(&fo, f);
    RtResult res;
    float *o = rt_result_init(&res, F32, fo.rank, fo.shape);
    const float *d = fo.data;
    for (int64_t i = 0; i < fo.count; i++) {
      rt_poll_every(site, i);
      float t = d[i] + 3.0f;
      t = fmax_tvm(fmin_tvm(t, 6.0f), 0.0f);
      o[i] = d[i] * t / 6.0f;
    }
    y = rt_result_value(&res);
  } else {
    RtSite in = rt_site_inner(site, site->attrs);
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
      if (map[k].q == op) y = rt_kernel_call(map[k].f, &f, 1, &in);
  }
  return quantize(site, op, y, param(args[3]), param(args[4]), -1, x.dt);
}

/* ---------------------------------------------------------------- concatenate, avg_pool2d */

static RtValue concatenate(IrOpId op, const RtValue *args, const RtSite *site) {
  if (args[0].kind != RT_TUPLE || args[1].kind != RT_TUPLE || args[2].kind != RT_TUPLE)
    rt_error(site->expr, "%s takes tuples of tensors, scales and zero points", ir_ops[op].name);
  const RtTuple *xs = args[0].u.tup, *ss = args[1].u.tup, *zs = args[2].u.tup;
  if (ss->n != xs->n || zs->n != xs->n)
    rt_error(site->expr, "%s: %d tensors, %d scales and %d zero points", ir_ops[op].name, xs->n, ss->n, zs->n);
  Param os = param(args[3]), oz = param(args[4]);
  RtValue *f = rt_alloc(sizeof(RtValue) * (size_t)(xs->n + 1));
  for (int k = 0; k < xs->n; k++) {
    Param s = param(ss->f[k]), z = param(zs->f[k]);
    f[k] = xs->f[k];
    if (s.f[0] == os.f[0] && z.i[0] == oz.i[0]) continue;
    RtOperand x;
    rt_operand(&x, xs->f[k]);
    Rq q = {s, z, os.f[0], oz.i[0], -1, true, 0};
    f[k] = requant(site, op, &q, &x, x.dt);
  }
  RtValue t = rt_tuple_value(xs->n, f);
  RtSite in = rt_site_inner(site, site->attrs);
  return rt_kernel_call(IR_OP_CONCATENATE, &t, 1, &in);
}

static RtValue avg_pool2d(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand x;
  rt_operand(&x, args[0]);
  Param os = param(args[3]), oz = param(args[4]);
  RtValue v = requant_or_upcast(site, op, args[0], param(args[1]), param(args[2]), os.f[0], oz.i[0], -1);
  RtSite in = rt_site_inner(site, site->attrs);
  RtValue p = rt_kernel_call(IR_OP_NN_AVG_POOL2D, &v, 1, &in);
  return convert(p, 0, x.dt);
}

/* ---------------------------------------------------------------- dispatch */

/* ---------------------------------------------------------------- fixed_point_multiply */

/* fixed_point_multiply: tir.q_multiply_shift(x, multiplier, 31, shift) on int32 (fpm_upward);
 * fixed_point_multiply_per_axis: QMultiplyShift per element with the parameters at the data's `axes`: x shifted left
 * when is_lshift_required, times m in int64, plus 2^(rs + 30), shifted right by rs + 31. */
static RtValue fixed_point(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  RtOperand x;
  rt_operand(&x, args[0]);
  if (x.dt.code != IR_DT_INT || x.dt.bits != 32) rt_error(site->expr, "%s takes int32 data", name);
  RtResult res;
  int32_t *out = rt_result_init(&res, x.dt, x.rank, x.shape);
  const int32_t *xd = x.data;
  if (op == IR_OP_FIXED_POINT_MULTIPLY) {
    int64_t m = ir_attr_int(at, IR_A_MULTIPLIER, 0), sh = ir_attr_int(at, IR_A_SHIFT, 0);
    if (m < INT32_MIN || m > INT32_MAX || sh < -64 || sh > 31) rt_error(site->expr, "%s: multiplier or shift out of range", name);
    Fpm f = {(int32_t)m, (int)sh};
    for (int64_t i = 0; i < x.count; i++) {
      rt_poll_every(site, i);
      out[i] = fpm_upward(xd[i], f);
    }
    return rt_result_value(&res);
  }
  RtOperand p[3];
  for (int k = 0; k < 3; k++) {
    rt_operand(&p[k], args[k + 1]);
    if (p[k].dt.code != IR_DT_INT || p[k].dt.bits != 32) rt_error(site->expr, "%s takes int32 parameters", name);
  }
  const IrAttrValue *ax = ir_attr_at(at, IR_A_AXES);
  bool lreq = ir_attr_bool(at, IR_A_IS_LSHIFT_REQUIRED, false);
  int axes[RT_MAX_RANK], n = ax->n;
  if (n < 1 || n > x.rank) rt_error(site->expr, "%s: axes do not fit data of rank %d", name, x.rank);
  for (int i = 0; i < n; i++) {
    axes[i] = rt_axis(site, op, ax->ints[i], x.rank);
    for (int k = 0; k < 3; k++)
      if (p[k].rank != n || p[k].shape[i] != x.shape[axes[i]])
        rt_error(site->expr, "%s: a parameter %s does not fit the data %s at axes", name,
                 rt_shape_text(p[k].rank, p[k].shape), rt_shape_text(x.rank, x.shape));
  }
  int64_t idx[RT_MAX_RANK] = {0};
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    int64_t pi = 0;
    for (int a = 0; a < n; a++) pi = pi * x.shape[axes[a]] + idx[axes[a]];
    int64_t m = ((const int32_t *)p[0].data)[pi], ls = ((const int32_t *)p[1].data)[pi];
    int64_t rs = ((const int32_t *)p[2].data)[pi], total = rs + 31;
    if (ls < 0 || ls > 63 || total < 1 || total > 63)
      rt_error(site->expr, "%s: shifts %lld and %lld are out of range", name, (long long)ls, (long long)rs);
    uint64_t t = (uint64_t)(int64_t)xd[i];
    if (lreq) t <<= ls;
    t = t * (uint64_t)m + ((uint64_t)1 << (total - 1));
    out[i] = wrap32((int64_t)t >> total);
    for (int a = x.rank - 1; a >= 0; a--) {
      if (++idx[a] < x.shape[a]) break;
      idx[a] = 0;
    }
  }
  return rt_result_value(&res);
}

/* qnn.leaky_relu (QnnLeakyReluCanonicalize): q = RequantizeOrUpcast(x) to the output's parameters; where x < its
 * zero point, FixedPointMultiply(q, alpha) + FixedPointMultiply(output_zero_point, 1 - alpha), else q; clipped
 * into x's dtype. */
static RtValue qnn_leaky_relu(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x;
  rt_operand(&x, args[0]);
  Param is = param(args[1]), iz = param(args[2]), os = param(args[3]), oz = param(args[4]);
  double alpha = ir_attr_float(at, IR_A_ALPHA, 0.25);
  RtValue q = requant_or_upcast(site, op, args[0], is, iz, os.f[0], oz.i[0], -1);
  RtOperand qo;
  rt_operand(&qo, q);
  Fpm fa = fpm_of(site, op, alpha), fz = fpm_of(site, op, 1 - alpha);
  int32_t zterm = fpm_upward(wrap32(oz.i[0]), fz), izp = wrap32(iz.i[0]);
  RtResult res;
  void *o = rt_result_init(&res, x.dt, x.rank, x.shape);
  const int32_t *qd = qo.data;
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    int64_t v = rt_scalar_i64(rt_elem_get(x.data, x.dt, i));
    int32_t r = v < izp ? wrap32((int64_t)fpm_upward(qd[i], fa) + zterm) : qd[i];
    rt_elem_set(o, x.dt, i, clip_to(r, x.dt));
  }
  return rt_result_value(&res);
}

/* qnn.softmax (QnnSoftmaxCanonicalize: Algorithm 1 of arXiv 2207.01405) on int8, in int32 along `axis`: x = (data -
 * zp) - max; x_p = x + (x >> 1) - (x >> 4); q = clip(x_p / -x0, 0, 20) with x0 = round(1 / scale); r = x_p + q * x0;
 * exps = ((r >> 1) + x0) << (max(q) - q); out = ((2^30 / sum(exps)) * exps) >> 23, requantized from scale 1/128. */
static RtValue qnn_softmax(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  RtOperand x;
  rt_operand(&x, args[0]);
  Param is = param(args[1]), iz = param(args[2]), os = param(args[3]), oz = param(args[4]);
  if (x.dt.code != IR_DT_INT || x.dt.bits != 8) rt_error(site->expr, "%s takes int8 data", name);
  if (!(is.f[0] <= 1.0f) || !(is.f[0] > 0)) rt_error(site->expr, "%s: the input scale %g must be in (0, 1]", name, (double)is.f[0]);
  if (x.rank == 0) rt_error(site->expr, "%s takes data of rank 1 or more", name);
  int axis = rt_axis(site, op, ir_attr_int(at, IR_A_AXIS, -1), x.rank);
  int64_t n = x.shape[axis], inner = 1, outer = 1;
  for (int i = axis + 1; i < x.rank; i++) inner *= x.shape[i];
  for (int i = 0; i < axis; i++) outer *= x.shape[i];
  int32_t x0 = rt_f2i32(roundf(1.0f / is.f[0])), zp = wrap32(iz.i[0]);
  RtResult mid;
  int32_t *o = rt_result_init(&mid, I32, x.rank, x.shape);
  const int8_t *d = x.data;
  bool empty = n == 0 || inner == 0 || outer == 0; /* an empty result, however long the other axes */
  int32_t *xp = rt_alloc_array(empty ? 1 : n, sizeof(int32_t)), *qv = rt_alloc_array(empty ? 1 : n, sizeof(int32_t));
  for (int64_t a = 0; a < outer && !empty; a++)
    for (int64_t b = 0; b < inner; b++) {
      int64_t base = a * n * inner + b;
      int32_t mx = INT32_MIN, mq = 0;
      /* data - zp in int32, wrapping as TVM's (the zero point may be any int32) */
      for (int64_t k = 0; k < n; k++) {
        rt_poll_every(site, k);
        int32_t c = wrap32((int64_t)d[base + k * inner] - zp);
        if (c > mx) mx = c;
      }
      for (int64_t k = 0; k < n; k++) {
        rt_poll_every(site, k + 1);
        int32_t v = wrap32((int64_t)wrap32((int64_t)d[base + k * inner] - zp) - mx);
        xp[k] = wrap32((int64_t)v + (v >> 1) - (v >> 4));
        int32_t q = xp[k] / -x0;
        qv[k] = q < 0 ? 0 : q > 20 ? 20 : q;
        if (k == 0 || qv[k] > mq) mq = qv[k];
      }
      int32_t sum = 0;
      for (int64_t k = 0; k < n; k++) {
        rt_poll_every(site, k + 1);
        int32_t r = wrap32((int64_t)xp[k] - (int64_t)qv[k] * -x0), xb = wrap32((int64_t)(r >> 1) + x0);
        xp[k] = wrap32((int64_t)((uint64_t)(int64_t)xb << (mq - qv[k])));
        sum = wrap32((int64_t)sum + xp[k]);
      }
      if (sum == 0) rt_error(site->expr, "%s: the sum of the exponentials is 0 (TVM divides by it)", name);
      int32_t f = (int32_t)((1 << 30) / sum);
      for (int64_t k = 0; k < n; k++) {
        rt_poll_every(site, k + 1);
        o[base + k * inner] = wrap32((int64_t)f * xp[k]) >> 23;
      }
    }
  float s128 = 1.0f / 128;
  int64_t z0 = 0;
  Rq q = {{1, false, &s128, NULL}, {1, false, NULL, &z0}, os.f[0], oz.i[0], 0, true, 0};
  RtValue mv = rt_result_value(&mid);
  RtOperand mo;
  rt_operand(&mo, mv);
  return requant(site, op, &q, &mo, x.dt);
}

/* topi's simulated_quantize / simulated_dequantize: the dtype code (0 none, 1 int8, 2 uint8, 3 int32; any
 * other passes the data through, as topi's if-chain) picks clip(round(x / scale) + zp) (round halves away
 * from zero, tir.round's llvm.round) or (x - zp) * scale; scale and zero point indexed by the coordinate
 * along `axis` modulo their length (topi's indexmod); in double, rounded to the data's dtype. */
static RtValue simulated(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x, code, sc, zp;
  rt_operand(&x, args[0]);
  rt_operand(&code, args[1]);
  rt_operand(&sc, args[2]);
  rt_operand(&zp, args[3]);
  const char *name = ir_ops[op].name;
  if (code.count < 1) rt_error(site->expr, "%s: the dtype code is empty", name);
  int64_t c = rt_scalar_i64(rt_elem_get(code.data, code.dt, 0));
  double lo = c == 1 ? -128 : c == 2 ? 0 : -2147483648.0, hi = c == 1 ? 127 : c == 2 ? 255 : 2147483647.0;
  bool pass = c < 1 || c > 3;
  if (!pass && (sc.count < 1 || zp.count < 1)) rt_error(site->expr, "%s: the scale or zero point is empty", name);
  int axis = x.rank ? rt_axis(site, op, ir_attr_int(at, IR_A_AXIS, -1), x.rank) : 0;
  int64_t inner = 1, len = x.rank ? x.shape[axis] : 1;
  for (int i = axis + 1; i < x.rank; i++) inner = rt_mul_sat(inner, x.shape[i]);
  RtResult res;
  void *out = rt_result_init(&res, x.dt, x.rank, x.shape);
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    double v = rt_scalar_f64(rt_elem_get(x.data, x.dt, i));
    if (!pass) {
      int64_t k = len ? (i / inner) % len : 0;
      double s = rt_scalar_f64(rt_elem_get(sc.data, sc.dt, k % sc.count));
      double z = rt_scalar_f64(rt_elem_get(zp.data, zp.dt, k % zp.count));
      if (op == IR_OP_QNN_SIMULATED_QUANTIZE) {
        v = round(v / s) + z;
        v = v > hi ? hi : v < lo ? lo : v;
      } else {
        v = (v - z) * s;
      }
    }
    rt_elem_set(out, x.dt, i, rt_scalar_from_f64(x.dt, v));
  }
  return rt_result_value(&res);
}

RtValue rt_kernel_qnn(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)nargs;
  const IrOpAttrs *at = site->attrs;
  switch (op) {
  case IR_OP_QNN_QUANTIZE:
    return quantize(site, op, args[0], param(args[1]), param(args[2]), ir_attr_int(at, IR_A_AXIS, -1),
                    ir_attr_dtype(at, IR_A_OUT_DTYPE, IR_DTYPE(IR_DT_INT, 8)));
  case IR_OP_QNN_DEQUANTIZE:
    return dequantize(site, op, args[0], param(args[1]), param(args[2]), ir_attr_int(at, IR_A_AXIS, -1),
                      ir_attr_dtype(at, IR_A_OUT_DTYPE, F32));
  case IR_OP_QNN_REQUANTIZE: {
    RtOperand x;
    rt_operand(&x, args[0]);
    Param os = param(args[3]), oz = param(args[4]);
    Rq q = {param(args[1]), param(args[2]), os.f[0], oz.i[0], ir_attr_int(at, IR_A_AXIS, -1), upward_of(at), compute_of(at)};
    return requant(site, op, &q, &x, ir_attr_dtype(at, IR_A_OUT_DTYPE, IR_DTYPE(IR_DT_INT, 8)));
  }
  case IR_OP_QNN_CONV2D: case IR_OP_QNN_CONV2D_TRANSPOSE: case IR_OP_QNN_DENSE: case IR_OP_QNN_BATCH_MATMUL: return product(op, args, site);
  case IR_OP_QNN_ADD: case IR_OP_QNN_SUBTRACT: return add_sub(op, args, site);
  case IR_OP_QNN_MUL: return mul(op, args, site);
  case IR_OP_QNN_CONCATENATE: return concatenate(op, args, site);
  case IR_OP_QNN_AVG_POOL2D: return avg_pool2d(op, args, site);
  case IR_OP_QNN_SIGMOID: case IR_OP_QNN_TANH: case IR_OP_QNN_EXP: case IR_OP_QNN_SQRT: case IR_OP_QNN_RSQRT:
  case IR_OP_QNN_ERF: case IR_OP_QNN_LOG: case IR_OP_QNN_ABS: case IR_OP_QNN_HARDSWISH: return unary(op, args, site);
  case IR_OP_QNN_SOFTMAX: return qnn_softmax(op, args, at, site);
  case IR_OP_QNN_LEAKY_RELU: return qnn_leaky_relu(op, args, at, site);
  case IR_OP_FIXED_POINT_MULTIPLY: case IR_OP_FIXED_POINT_MULTIPLY_PER_AXIS: return fixed_point(op, args, at, site);
  case IR_OP_QNN_SIMULATED_QUANTIZE:
  case IR_OP_QNN_SIMULATED_DEQUANTIZE: return simulated(op, args, at, site);
  case IR_OP_QNN_CONTRIB_DENSE_PACK: { /* qnn.dense on the weight unpacked from weight_layout to NC */
    const IrAttrValue *wl = ir_attr_at(at, IR_A_WEIGHT_LAYOUT);
    RtOperand w;
    rt_operand(&w, args[1]);
    RtValue a[6] = {args[0], rt_layout_transform(&w, wl->given && !wl->none && wl->str && *wl->str ? wl->str : "NC", "NC", site),
                    args[2], args[3], args[4], args[5]};
    return product(op, a, site);
  }
  default:
    UNREACHABLE("every operator ops.def gives this family has a case above");
    rt_error(site->expr, "the operator `%s` has no kernel", ir_ops[op].name);
  }
}
