/* The normalization kernels and the other layers of networks, at inference as TVM's interpreter
 * runs them after SimplifyInference: batch_norm scales by the moving statistics (and returns them
 * as its second and third fields), dropout is the identity with a mask of ones; layer, instance and
 * group normalization compute their statistics (mean, biased variance) over their axes; lrn, l2
 * normalization, prelu and the cross-entropy losses. Floats compute in double and round once. */
#include "runtime/kernel.h"

#include <math.h>
#include <string.h>

/* The data seen as (outer, c, inner) around axis. */
static void around(const RtOperand *a, int axis, int64_t *outer, int64_t *inner) {
  *outer = *inner = 1;
  for (int i = 0; i < axis; i++) *outer = rt_mul_sat(*outer, a->shape[i]);
  for (int i = axis + 1; i < a->rank; i++) *inner = rt_mul_sat(*inner, a->shape[i]);
}

/* Argument i as a vector of n elements of the data's dtype (the checker has made it so when the
 * shapes were known; `?` shapes are checked here). */
static void vector_arg(const RtValue *args, int i, const char *what, int64_t n, IrDType dt, RtOperand *v, IrOpId op,
                       const RtSite *site) {
  rt_operand(v, args[i]);
  if (v->rank != 1 || v->shape[0] != n || v->dt.code != dt.code || v->dt.bits != dt.bits)
    rt_error(site->expr, "%s: %s must have %lld elements of the data's dtype, but it is %s", ir_ops[op].name, what,
             (long long)n, rt_shape_text(v->rank, v->shape));
}

/* out = x * s[c] + t[c] along the channel axis. */
static RtValue scale_shift(const RtOperand *x, int axis, const double *s, const double *t, const RtSite *site) {
  int64_t outer, inner, C = x->shape[axis];
  around(x, axis, &outer, &inner);
  RtResult res;
  void *out = rt_result_init(&res, x->dt, x->rank, x->shape);
  if (x->count == 0) return rt_result_value(&res);
  if (x->dt.bits == 32) { /* the common case, kept tight: a convolution network's every layer */
    const float *in = x->data;
    float *o = out;
    int64_t left = 0;
    for (int64_t b = 0; b < outer; b++)
      for (int64_t c = 0; c < C; c++) {
        float sc = (float)s[c], sh = (float)t[c];
        const float *p = in + (b * C + c) * inner;
        float *q = o + (b * C + c) * inner;
        for (int64_t k0 = 0; k0 < inner; k0 += RT_POLL_EVERY) { /* a long row in blocks */
          int64_t k1 = inner - k0 < RT_POLL_EVERY ? inner : k0 + RT_POLL_EVERY;
          rt_poll_work(site, &left, k1 - k0 + 8);
          for (int64_t k = k0; k < k1; k++) q[k] = p[k] * sc + sh;
        }
      }
  } else {
    int64_t tick = 0;
    for (int64_t b = 0; b < outer; b++)
      for (int64_t c = 0; c < C; c++)
        for (int64_t k = 0; k < inner; k++) {
          rt_poll_every(site, tick++);
          int64_t i = (b * C + c) * inner + k;
          rt_store_float(out, x->dt, i, rt_load_float(x, i) * s[c] + t[c]);
        }
  }
  return rt_result_value(&res);
}

static RtValue batch_norm(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x, g, b, m, v;
  rt_operand(&x, args[0]);
  int axis = rt_axis(site, IR_OP_NN_BATCH_NORM, ir_attr_int(at, IR_A_AXIS, 1), x.rank);
  int64_t C = x.shape[axis];
  vector_arg(args, 1, "gamma", C, x.dt, &g, IR_OP_NN_BATCH_NORM, site);
  vector_arg(args, 2, "beta", C, x.dt, &b, IR_OP_NN_BATCH_NORM, site);
  vector_arg(args, 3, "the moving mean", C, x.dt, &m, IR_OP_NN_BATCH_NORM, site);
  vector_arg(args, 4, "the moving variance", C, x.dt, &v, IR_OP_NN_BATCH_NORM, site);
  double eps = ir_attr_float(at, IR_A_EPSILON, 1e-5);
  bool center = ir_attr_bool(at, IR_A_CENTER, true), scale = ir_attr_bool(at, IR_A_SCALE, true);
  double *s = rt_alloc_array(2 * C, sizeof(double)), *t = s + C;
  for (int64_t c = 0; c < C; c++) {
    rt_poll_every(site, c);
    s[c] = (scale ? rt_load_float(&g, c) : 1.0) / sqrt(rt_load_float(&v, c) + eps);
    t[c] = (center ? rt_load_float(&b, c) : 0.0) - rt_load_float(&m, c) * s[c];
  }
  RtValue fields[3] = {scale_shift(&x, axis, s, t, site), args[3], args[4]};
  return rt_tuple_value(3, fields);
}

/* Layer, instance and group normalization: the statistics of each group of elements that agree on
 * every axis but the reduced ones (and, for groups, on the channel's group). */
static RtValue norm3(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x, g, b;
  rt_operand(&x, args[0]);
  int r = x.rank;
  if (r > RT_MAX_RANK) rt_error(site->expr, "%s: rank %d is beyond the %d supported", ir_ops[op].name, r, RT_MAX_RANK);
  int axis = rt_axis(site, op, ir_attr_int(at, IR_A_AXIS, op == IR_OP_NN_LAYER_NORM ? -1 : 1), r);
  int64_t C = x.shape[axis], groups = op == IR_OP_NN_GROUP_NORM ? ir_attr_int(at, IR_A_NUM_GROUPS, 1) : 0;
  if (groups && (groups < 1 || C % groups))
    rt_error(site->expr, "%s: num_groups=%lld does not divide the %lld channels", ir_ops[op].name, (long long)groups,
             (long long)C);
  vector_arg(args, 1, "gamma", C, x.dt, &g, op, site);
  vector_arg(args, 2, "beta", C, x.dt, &b, op, site);
  double eps = ir_attr_float(at, IR_A_EPSILON, 1e-5);
  bool center = ir_attr_bool(at, IR_A_CENTER, true), scale = ir_attr_bool(at, IR_A_SCALE, true);
  /* key stride of each axis: 0 for a reduced axis; the channel axis counts groups for group_norm */
  int64_t kstride[RT_MAX_RANK], keys = 1, per_channel = groups ? C / groups : 1;
  for (int i = r - 1; i >= 0; i--) {
    bool reduced = op == IR_OP_NN_LAYER_NORM ? i == axis : i != 0 && i != axis;
    if (groups && i == axis) reduced = false;
    kstride[i] = reduced ? 0 : keys;
    if (!reduced) keys = rt_mul_sat(keys, groups && i == axis ? groups : x.shape[i]);
  }
  RtResult res;
  void *out = rt_result_init(&res, x.dt, r, x.shape);
  if (x.count == 0) return rt_result_value(&res);
  double *sum = rt_alloc_array(2 * keys, sizeof(double)), *sq = sum + keys;
  int64_t *key = rt_alloc_atomic(sizeof(int64_t) * (size_t)x.count), *chan = rt_alloc_atomic(sizeof(int64_t) * (size_t)x.count);
  rt_zero(site, sum, sizeof(double) * (size_t)(2 * keys));
  int64_t idx[RT_MAX_RANK] = {0}, n = x.count / keys;
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    int64_t k = 0;
    for (int a = 0; a < r; a++) k += (groups && a == axis ? idx[a] / per_channel : idx[a]) * kstride[a];
    key[i] = k, chan[i] = idx[axis];
    sum[k] += rt_load_float(&x, i);
    for (int a = r - 1; a >= 0 && ++idx[a] == x.shape[a]; a--) idx[a] = 0;
  }
  for (int64_t k = 0; k < keys; k++) {
    rt_poll_every(site, k);
    sum[k] /= (double)n;
  }
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    double d = rt_load_float(&x, i) - sum[key[i]];
    sq[key[i]] += d * d;
  }
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    int64_t k = key[i], c = chan[i];
    double y = (rt_load_float(&x, i) - sum[k]) / sqrt(sq[k] / (double)n + eps);
    rt_store_float(out, x.dt, i, y * (scale ? rt_load_float(&g, c) : 1.0) + (center ? rt_load_float(&b, c) : 0.0));
  }
  return rt_result_value(&res);
}

/* x / (bias + alpha / size * (the sum of squares over a window of size channels))^beta */
static RtValue lrn(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x;
  rt_operand(&x, args[0]);
  int axis = rt_axis(site, IR_OP_NN_LRN, ir_attr_int(at, IR_A_AXIS, 1), x.rank);
  int64_t size = ir_attr_int(at, IR_A_SIZE, 5), radius = size / 2, outer, inner, C = x.shape[axis];
  double bias = ir_attr_float(at, IR_A_BIAS, 2), alpha = ir_attr_float(at, IR_A_ALPHA, 1e-4),
         beta = ir_attr_float(at, IR_A_BETA, 0.75);
  around(&x, axis, &outer, &inner);
  RtResult res;
  void *out = rt_result_init(&res, x.dt, x.rank, x.shape);
  if (x.count == 0) return rt_result_value(&res);
  int64_t tick = 0;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t c = 0; c < C; c++)
      for (int64_t k = 0; k < inner; k++) {
        double s = 0;
        rt_poll_every(site, ++tick);
        for (int64_t j = c - radius < 0 ? 0 : c - radius; j <= c + radius && j < C; j++) {
          rt_poll_every(site, ++tick);
          double v = rt_load_float(&x, (o * C + j) * inner + k);
          s += v * v;
        }
        int64_t i = (o * C + c) * inner + k;
        rt_store_float(out, x.dt, i, rt_load_float(&x, i) / pow(bias + alpha * s / (double)size, beta));
      }
  return rt_result_value(&res);
}

/* x / sqrt(max(the sum of squares over the axes, eps)) */
static RtValue l2_normalize(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x;
  rt_operand(&x, args[0]);
  int r = x.rank;
  if (r > RT_MAX_RANK) rt_error(site->expr, "nn.l2_normalize: rank %d is beyond the %d supported", r, RT_MAX_RANK);
  const IrAttrValue *ax = ir_attr_at(at, IR_A_AXIS);
  bool reduce[RT_MAX_RANK], all = !ax->given || ax->none || ax->n == 0;
  for (int i = 0; i < r; i++) reduce[i] = all;
  if (!all)
    for (int i = 0; i < ax->n; i++) reduce[rt_axis(site, IR_OP_NN_L2_NORMALIZE, ax->ints[i], r)] = true;
  int64_t kstride[RT_MAX_RANK], keys = 1;
  for (int i = r - 1; i >= 0; i--) {
    kstride[i] = reduce[i] ? 0 : keys;
    if (!reduce[i]) keys = rt_mul_sat(keys, x.shape[i]);
  }
  RtResult res;
  void *out = rt_result_init(&res, x.dt, r, x.shape);
  if (x.count == 0) return rt_result_value(&res);
  double *sq = rt_alloc_array(keys, sizeof(double));
  rt_zero(site, sq, sizeof(double) * (size_t)keys);
  double eps = ir_attr_float(at, IR_A_EPS, 0);
  for (int pass = 0; pass < 2; pass++) {
    int64_t idx[RT_MAX_RANK] = {0};
    for (int64_t i = 0; i < x.count; i++) {
      rt_poll_every(site, i);
      int64_t k = 0;
      for (int a = 0; a < r; a++) k += idx[a] * kstride[a];
      double v = rt_load_float(&x, i);
      if (pass == 0) sq[k] += v * v;
      else rt_store_float(out, x.dt, i, v / sqrt(fmax(sq[k], eps)));
      for (int a = r - 1; a >= 0 && ++idx[a] == x.shape[a]; a--) idx[a] = 0;
    }
  }
  return rt_result_value(&res);
}

static RtValue prelu(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x, al;
  rt_operand(&x, args[0]);
  int axis = rt_axis(site, IR_OP_NN_PRELU, ir_attr_int(at, IR_A_AXIS, 1), x.rank);
  int64_t outer, inner, C = x.shape[axis];
  vector_arg(args, 1, "alpha", C, x.dt, &al, IR_OP_NN_PRELU, site);
  around(&x, axis, &outer, &inner);
  RtResult res;
  void *out = rt_result_init(&res, x.dt, x.rank, x.shape);
  if (x.count == 0) return rt_result_value(&res);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t c = 0; c < C; c++)
      for (int64_t k = 0; k < inner; k++) {
        int64_t i = (o * C + c) * inner + k;
        rt_poll_every(site, i);
        double v = rt_load_float(&x, i);
        rt_store_float(out, x.dt, i, v < 0 ? v * rt_load_float(&al, c) : v);
      }
  return rt_result_value(&res);
}

/* -sum(log(x) * y) / batch, or -sum(x * y) / batch from logits, as TVM's compute. */
static RtValue cross_entropy(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand x, y;
  rt_operand(&x, args[0]);
  rt_operand(&y, args[1]);
  if (x.rank != 2 || y.rank != 2 || x.shape[0] != y.shape[0] || x.shape[1] != y.shape[1])
    rt_error(site->expr, "%s: the predictions %s and the targets %s differ in shape", ir_ops[op].name,
             rt_shape_text(x.rank, x.shape), rt_shape_text(y.rank, y.shape));
  double s = 0;
  for (int64_t i = 0; i < x.count; i++) {
    rt_poll_every(site, i);
    s += (op == IR_OP_NN_CROSS_ENTROPY ? log(rt_load_float(&x, i)) : rt_load_float(&x, i)) * rt_load_float(&y, i);
  }
  return rt_scalar_from_f64(x.dt, -s / (double)x.shape[0]);
}

/* nn.nll_loss: -predictions[n, t, d...] * weights[t] for each target t (0 where t is ignore_index); "mean" divides
 * the sum by the weights taken (topi.testing.nll_loss). */
static RtValue nll_loss(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand p, t, w;
  rt_operand(&p, args[0]);
  rt_operand(&t, args[1]);
  rt_operand(&w, args[2]);
  const IrAttrValue *ra = ir_attr_at(at, IR_A_REDUCTION);
  const char *red = ra->given && !ra->none && ra->str ? ra->str : "mean";
  int64_t ignore = ir_attr_int(at, IR_A_IGNORE_INDEX, -100);
  bool ok = p.rank == t.rank + 1 && t.rank >= 1 && w.rank == 1 && p.shape[1] == w.shape[0];
  for (int i = 0; ok && i < t.rank; i++) ok = p.shape[i == 0 ? 0 : i + 1] == t.shape[i];
  if (!ok)
    rt_error(site->expr, "nn.nll_loss: predictions %s, targets %s and weights %s do not fit",
             rt_shape_text(p.rank, p.shape), rt_shape_text(t.rank, t.shape), rt_shape_text(w.rank, w.shape));
  int64_t C = p.shape[1], inner = t.count / (t.shape[0] ? t.shape[0] : 1);
  bool none = !strcmp(red, "none");
  RtResult res;
  void *out = none ? rt_result_init(&res, p.dt, t.rank, t.shape) : NULL;
  double sum = 0, wsum = 0;
  for (int64_t i = 0; i < t.count; i++) {
    rt_poll_every(site, i);
    int64_t c = rt_scalar_i64(rt_elem_get(t.data, t.dt, i)), n = i / inner, k = i % inner;
    double v = 0;
    if (c != ignore) {
      if (c < 0 || c >= C)
        rt_error(site->expr, "nn.nll_loss: target %lld is out of range for %lld classes", (long long)c, (long long)C);
      double wc = rt_load_float(&w, c);
      v = -rt_load_float(&p, (n * C + c) * inner + k) * wc;
      wsum += wc;
    }
    if (none) rt_store_float(out, p.dt, i, v);
    sum += v;
  }
  if (none) return rt_result_value(&res);
  return rt_scalar_from_f64(p.dt, !strcmp(red, "sum") ? sum : sum / wsum);
}

RtValue rt_kernel_norm(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)nargs;
  const IrOpAttrs *at = site->attrs;
  switch (op) {
  case IR_OP_NN_BATCH_NORM: return batch_norm(args, at, site);
  case IR_OP_NN_LAYER_NORM: case IR_OP_NN_INSTANCE_NORM: case IR_OP_NN_GROUP_NORM: return norm3(op, args, at, site);
  case IR_OP_NN_LRN: return lrn(args, at, site);
  case IR_OP_NN_L2_NORMALIZE: return l2_normalize(args, at, site);
  case IR_OP_NN_PRELU: return prelu(args, at, site);
  case IR_OP_NN_NLL_LOSS: return nll_loss(args, at, site);
  case IR_OP_NN_CROSS_ENTROPY: case IR_OP_NN_CROSS_ENTROPY_WITH_LOGITS: return cross_entropy(op, args, site);
  case IR_OP_NN_DROPOUT: {
    RtOperand x;
    rt_operand(&x, args[0]);
    RtValue fields[2] = {args[0], rt_tensor_fill(rt_scalar_from_f64(x.dt, 1), x.dt, x.rank, x.shape)};
    return rt_tuple_value(2, fields);
  }
  default:
    UNREACHABLE("every operator ops.def gives this family has a case above");
    rt_error(site->expr, "the operator `%s` has no kernel", ir_ops[op].name);
  }
}
