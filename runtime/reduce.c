/* The reductions (sum, mean, max, min, prod, all, any over any set of axes, with keepdims and
 * exclude), argmax and argmin (over any axes: the index is row-major among the reduced elements),
 * variance, and softmax / log_softmax along an axis. Floats accumulate in
 * double, so a million float32 values sum to float32 rounding; integers wrap as in C (sum, prod),
 * and mean divides the wrapped sum truncating, as TVM's. */
#include "runtime/kernel.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- the reduced axes */

typedef struct {
  int rank;                     /* of the input */
  bool reduce[RT_MAX_RANK];     /* which input axes are reduced */
  int out_rank;                 /* with keepdims, the input's */
  int64_t out_shape[RT_MAX_RANK];
  int64_t ostride[RT_MAX_RANK]; /* per input axis: its step in the output (0 when reduced) */
  int64_t out_count, per_out;   /* output elements; input elements per output element */
} Plan;

static void plan(Plan *p, const RtOperand *a, const IrOpAttrs *at, IrOpId op, const RtSite *site) {
  const IrAttrValue *ax = ir_attr_at(at, IR_A_AXIS);
  bool exclude = ir_attr_at(at, IR_A_EXCLUDE)->b, keep = ir_attr_at(at, IR_A_KEEPDIMS)->b;
  int r = p->rank = a->rank;
  if (r > RT_MAX_RANK) rt_error(site->expr, "%s: rank %d is beyond the %d supported", ir_ops[op].name, r, RT_MAX_RANK);
  bool all = !ax->given || ax->none || ax->n == 0; /* every axis, whatever `exclude` says (TVM's rule) */
  for (int i = 0; i < r; i++) p->reduce[i] = all || exclude;
  if (!all)
    for (int i = 0; i < ax->n; i++) p->reduce[rt_axis(site, op, ax->ints[i], r)] = !exclude;
  p->out_rank = 0;
  p->out_count = p->per_out = 1;
  int64_t acc = 1;
  for (int i = r - 1; i >= 0; i--) {
    p->ostride[i] = p->reduce[i] ? 0 : acc;
    if (!p->reduce[i]) acc = rt_mul_sat(acc, a->shape[i]);
  }
  for (int i = 0; i < r; i++) {
    if (!p->reduce[i] || keep) p->out_shape[p->out_rank++] = p->reduce[i] ? 1 : a->shape[i];
    if (p->reduce[i]) p->per_out = rt_mul_sat(p->per_out, a->shape[i]);
    else p->out_count = rt_mul_sat(p->out_count, a->shape[i]);
  }
}

/* Runs the statement for every input element i with j its output element, in input order. */
#define FOR_EACH(p, a, site, ...)                                                                                  \
  do {                                                                                                             \
    int64_t idx_[RT_MAX_RANK] = {0}, j = 0;                                                                        \
    int r_ = (p)->rank;                                                                                            \
    for (int64_t i = 0; i < (a)->count; i++) {                                                                     \
      rt_poll_every(site, i);                                                                                      \
      __VA_ARGS__;                                                                                                 \
      for (int k_ = r_ - 1; k_ >= 0; k_--) {                                                                       \
        j += (p)->ostride[k_];                                                                                     \
        if (++idx_[k_] < (a)->shape[k_]) break;                                                                    \
        j -= (p)->ostride[k_] * (a)->shape[k_];                                                                    \
        idx_[k_] = 0;                                                                                              \
      }                                                                                                            \
    }                                                                                                              \
  } while (0)

/* ---------------------------------------------------------------- sum, mean, max, min, prod, all, any */

static RtValue reduce_float(IrOpId op, const RtOperand *a, const Plan *p, const RtSite *site) {
  double *acc = rt_alloc_array(p->out_count, sizeof(double));
  double init = op == IR_OP_PROD ? 1 : op == IR_OP_MAX ? -INFINITY : op == IR_OP_MIN ? INFINITY : 0;
  for (int64_t j = 0; j < p->out_count; j++) {
    rt_poll_every(site, j);
    acc[j] = init;
  }
  if ((op == IR_OP_MAX || op == IR_OP_MIN) && p->per_out == 0 && p->out_count > 0)
    rt_error(site->expr, "%s of an empty tensor: there is no first element", ir_ops[op].name);
  if (p->out_count == 1 && a->dt.bits == 32 && (op == IR_OP_SUM || op == IR_OP_MEAN)) { /* the common full sum */
    const float *x = a->data;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int64_t i = 0;
    while (i + 4 <= a->count) { /* in blocks, polling before each */
      rt_poll(site->expr);
      int64_t end = a->count - i < RT_POLL_EVERY ? a->count : i + RT_POLL_EVERY;
      for (; i + 4 <= end; i += 4) s0 += x[i], s1 += x[i + 1], s2 += x[i + 2], s3 += x[i + 3];
    }
    for (; i < a->count; i++) s0 += x[i];
    acc[0] = (s0 + s1) + (s2 + s3);
  } else {
    switch (op) {
    case IR_OP_SUM: case IR_OP_MEAN: FOR_EACH(p, a, site, acc[j] += rt_load_float(a, i)); break;
    case IR_OP_PROD: FOR_EACH(p, a, site, acc[j] *= rt_load_float(a, i)); break;
    case IR_OP_MAX: FOR_EACH(p, a, site, { double x = rt_load_float(a, i); if (x > acc[j] || x != x) acc[j] = acc[j] != acc[j] ? acc[j] : x; }); break;
    case IR_OP_MIN: FOR_EACH(p, a, site, { double x = rt_load_float(a, i); if (x < acc[j] || x != x) acc[j] = acc[j] != acc[j] ? acc[j] : x; }); break;
    default: break;
    }
  }
  RtResult res;
  void *out = rt_result_init(&res, a->dt, p->out_rank, p->out_shape);
  for (int64_t j = 0; j < p->out_count; j++) {
    rt_poll_every(site, j);
    double v = op == IR_OP_MEAN ? acc[j] / (double)p->per_out : acc[j];
    rt_elem_set(out, a->dt, j, rt_scalar_from_f64(a->dt, v));
  }
  return rt_result_value(&res);
}

/* TVM's MeanCompute (src/relay/op/tensor/reduce.cc) sums in the dtype and divides by the count cast to the dtype;
 * topi's adaptive and global pools (include/tvm/topi/nn/pooling.h) do the same, its window pools divide by the
 * count as an int32 (which the sum is widened to, so the count does not wrap). */
RtValue rt_int_mean(IrDType dt, uint64_t sum, int64_t count, bool count_wraps, const RtSite *site) {
  RtValue s = rt_scalar_from_u64(dt, sum); /* the sum wrapped to the dtype */
  RtValue c = count_wraps ? rt_scalar_from_i64(dt, count) : rt_scalar_from_i64(IR_DTYPE(IR_DT_INT, 64), count);
  if (c.u.u == 0) {
    char name[24];
    if (count == 0) rt_error(site->expr, "the mean of no integer elements: integer division by zero");
    rt_error(site->expr, "the mean of %lld elements divides by the count as TVM does, cast to the dtype: the count "
             "%lld is 0 as %s, an integer division by zero", (long long)count, (long long)count,
             ir_dtype_name(dt, name));
  }
  if (dt.code == IR_DT_INT)
    return rt_scalar_from_i64(dt, c.u.i == -1 ? (int64_t)(0 - s.u.u) : s.u.i / c.u.i); /* INT_MIN / -1 wraps */
  return rt_scalar_from_u64(dt, s.u.u / c.u.u);
}

static RtValue reduce_int(IrOpId op, const RtOperand *a, const Plan *p, const RtSite *site) {
  bool is_signed = a->dt.code == IR_DT_INT;
  uint64_t *acc = rt_alloc_array(p->out_count, sizeof(uint64_t));
  bool *seen = rt_alloc_atomic((size_t)p->out_count + 1);
  rt_zero(site, seen, (size_t)p->out_count + 1);
  uint64_t init = op == IR_OP_PROD || op == IR_OP_ALL ? 1 : 0;
  for (int64_t j = 0; j < p->out_count; j++) {
    rt_poll_every(site, j);
    acc[j] = init;
  }
  if ((op == IR_OP_MAX || op == IR_OP_MIN) && p->per_out == 0 && p->out_count > 0)
    rt_error(site->expr, "%s of an empty tensor: there is no first element", ir_ops[op].name);
  FOR_EACH(p, a, site, {
    uint64_t x = rt_elem_get(a->data, a->dt, i).u.u;
    switch (op) {
    case IR_OP_SUM: case IR_OP_MEAN: acc[j] += x; break;
    case IR_OP_PROD: acc[j] *= x; break;
    case IR_OP_ALL: acc[j] = acc[j] && x; break;
    case IR_OP_ANY: acc[j] = acc[j] || x; break;
    case IR_OP_MAX:
      if (!seen[j] || (is_signed ? (int64_t)x > (int64_t)acc[j] : x > acc[j])) acc[j] = x;
      seen[j] = true;
      break;
    case IR_OP_MIN:
      if (!seen[j] || (is_signed ? (int64_t)x < (int64_t)acc[j] : x < acc[j])) acc[j] = x;
      seen[j] = true;
      break;
    default: break;
    }
  });
  RtResult res;
  void *out = rt_result_init(&res, a->dt, p->out_rank, p->out_shape);
  for (int64_t j = 0; j < p->out_count; j++) {
    rt_poll_every(site, j);
    if (op == IR_OP_MEAN) {
      rt_elem_set(out, a->dt, j, rt_int_mean(a->dt, acc[j], p->per_out, true, site));
      continue;
    }
    uint64_t v = acc[j];
    if (a->dt.code == IR_DT_BOOL) v = v != 0;
    rt_elem_set(out, a->dt, j, rt_scalar_from_u64(a->dt, v));
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- argmax, argmin */

static RtValue arg_reduce(IrOpId op, const RtOperand *a, const Plan *p, const IrOpAttrs *at, const RtSite *site) {
  if (p->per_out == 0 && p->out_count > 0) rt_error(site->expr, "%s of an empty tensor", ir_ops[op].name);
  bool last = ir_attr_at(at, IR_A_SELECT_LAST_INDEX)->b, is_max = op == IR_OP_ARGMAX;
  bool is_float = a->dt.code == IR_DT_FLOAT, is_signed = a->dt.code == IR_DT_INT;
  /* the best value so far: a double, or an integer's bits (compared in its dtype, exact at 64 bits) */
  double *best = is_float ? rt_alloc_array(p->out_count, sizeof(double)) : NULL;
  uint64_t *ibest = is_float ? NULL : rt_alloc_array(p->out_count, sizeof(uint64_t));
  int64_t *where = rt_alloc_array(p->out_count, sizeof(int64_t));
  int64_t *count = rt_alloc_array(p->out_count, sizeof(int64_t));
  rt_zero(site, count, sizeof(int64_t) * (size_t)(p->out_count + 1));
  if (is_float)
    FOR_EACH(p, a, site, {
      double x = rt_load_float(a, i);
      int64_t k = count[j]++; /* the position within the reduced elements, in row-major order */
      bool better = k == 0 || (best[j] == best[j] && (x != x || (is_max ? x > best[j] : x < best[j]) ||
                                                    (last && x == best[j])));
      if (better) best[j] = x, where[j] = k;
    });
  else
    FOR_EACH(p, a, site, {
      uint64_t x = rt_elem_get(a->data, a->dt, i).u.u, b = ibest[j];
      int64_t k = count[j]++;
      bool above = is_signed ? (int64_t)x > (int64_t)b : x > b, below = is_signed ? (int64_t)x < (int64_t)b : x < b;
      if (k == 0 || (is_max ? above : below) || (last && x == b)) ibest[j] = x, where[j] = k;
    });
  RtResult res;
  IrDType i32 = IR_DTYPE(IR_DT_INT, 32);
  void *out = rt_result_init(&res, i32, p->out_rank, p->out_shape);
  for (int64_t j = 0; j < p->out_count; j++) {
    rt_poll_every(site, j);
    rt_elem_set(out, i32, j, rt_scalar_from_i64(i32, where[j]));
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- variance */

/* variance(data, mean): the sum of (data - mean)^2 over the reduced axes, divided by their count
 * (less one when unbiased), as TVM computes it: the mean broadcasts (each of its dimensions the
 * data's or 1). Floats in double; integers wrap to the dtype and divide truncating. */
static RtValue variance(const RtOperand *a, const RtValue *args, const Plan *p, const IrOpAttrs *at,
                        const RtSite *site) {
  RtOperand m;
  rt_operand(&m, args[1]);
  int r = a->rank;
  if (m.rank != r || m.dt.bits != a->dt.bits || m.dt.code != a->dt.code)
    rt_error(site->expr, "variance: the mean %s must have the data's rank %d and type", rt_shape_text(m.rank, m.shape),
             r);
  int64_t mstride[RT_MAX_RANK], acc = 1;
  for (int i = r - 1; i >= 0; i--) {
    if (m.shape[i] != 1 && m.shape[i] != a->shape[i])
      rt_error(site->expr, "variance: the mean %s does not broadcast to the data %s", rt_shape_text(r, m.shape),
               rt_shape_text(r, a->shape));
    mstride[i] = m.shape[i] == 1 ? 0 : acc;
    acc = rt_mul_sat(acc, m.shape[i]);
  }
  int64_t count = p->per_out - (ir_attr_at(at, IR_A_UNBIASED)->b ? 1 : 0);
  bool is_float = a->dt.code == IR_DT_FLOAT, is_signed = a->dt.code == IR_DT_INT;
  if (!is_float && count <= 0 && p->out_count > 0)
    rt_error(site->expr, "variance of %lld integer elements%s: integer division by zero", (long long)p->per_out,
             ir_attr_at(at, IR_A_UNBIASED)->b ? ", unbiased" : "");
  double *sf = rt_alloc_array(p->out_count, sizeof(double));
  uint64_t *su = rt_alloc_array(p->out_count, sizeof(uint64_t));
  rt_zero(site, sf, sizeof(double) * (size_t)(p->out_count + 1));
  rt_zero(site, su, sizeof(uint64_t) * (size_t)(p->out_count + 1));
  int64_t idx[RT_MAX_RANK] = {0}, j = 0, mo = 0;
  for (int64_t i = 0; i < a->count; i++) {
    rt_poll_every(site, i);
    if (is_float) {
      double d = rt_load_float(a, i) - rt_load_float(&m, mo);
      sf[j] += d * d;
    } else {
      uint64_t d = rt_elem_get(a->data, a->dt, i).u.u - rt_elem_get(m.data, m.dt, mo).u.u;
      su[j] += d * d;
    }
    for (int k = r - 1; k >= 0; k--) {
      j += p->ostride[k], mo += mstride[k];
      if (++idx[k] < a->shape[k]) break;
      j -= p->ostride[k] * a->shape[k], mo -= mstride[k] * a->shape[k];
      idx[k] = 0;
    }
  }
  RtResult res;
  void *out = rt_result_init(&res, a->dt, p->out_rank, p->out_shape);
  for (int64_t o = 0; o < p->out_count; o++) {
    rt_poll_every(site, o);
    RtValue v;
    if (is_float) {
      v = rt_scalar_from_f64(a->dt, sf[o] / (double)count);
    } else {
      RtValue s = rt_scalar_from_u64(a->dt, su[o]);
      v = is_signed ? rt_scalar_from_i64(a->dt, s.u.i / count) : rt_scalar_from_u64(a->dt, s.u.u / (uint64_t)count);
    }
    rt_elem_set(out, a->dt, o, v);
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- softmax */

static RtValue softmax(IrOpId op, const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  int axis = rt_axis(site, op, ir_attr_int(at, IR_A_AXIS, -1), a->rank);
  int64_t outer = 1, len = a->shape[axis], inner = 1;
  for (int i = 0; i < axis; i++) outer = rt_mul_sat(outer, a->shape[i]);
  for (int i = axis + 1; i < a->rank; i++) inner = rt_mul_sat(inner, a->shape[i]);
  if (a->count == 0) outer = 0;
  RtResult res;
  void *out = rt_result_init(&res, a->dt, a->rank, a->shape);
  bool log_form = op == IR_OP_NN_LOG_SOFTMAX;
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t in = 0; in < inner; in++) {
      int64_t base = o * len * inner + in;
      double m = -INFINITY, s = 0;
      for (int64_t k = 0; k < len; k++) {
        rt_poll_every(site, k);
        double x = rt_load_float(a, base + k * inner);
        m = x > m || x != x ? x : m;
      }
      for (int64_t k = 0; k < len; k++) {
        rt_poll_every(site, k + 1);
        s += exp(rt_load_float(a, base + k * inner) - m);
      }
      double ls = log(s);
      for (int64_t k = 0; k < len; k++) {
        rt_poll_every(site, k + 1);
        double x = rt_load_float(a, base + k * inner) - m;
        rt_elem_set(out, a->dt, base + k * inner, rt_scalar_from_f64(a->dt, log_form ? x - ls : exp(x) / s));
      }
    }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- dispatch */

RtValue rt_kernel_reduce(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)nargs;
  RtOperand a;
  rt_operand(&a, args[0]);
  const IrOpAttrs *at = site->attrs;
  if (op == IR_OP_NN_SOFTMAX || op == IR_OP_NN_LOG_SOFTMAX) {
    if (a.dt.code != IR_DT_FLOAT) rt_error(site->expr, "%s works on floats", ir_ops[op].name);
    return softmax(op, &a, at, site);
  }
  Plan p;
  plan(&p, &a, at, op, site);
  if (op == IR_OP_ARGMAX || op == IR_OP_ARGMIN) return arg_reduce(op, &a, &p, at, site);
  if (op == IR_OP_VARIANCE) return variance(&a, args, &p, at, site);
  return a.dt.code == IR_DT_FLOAT ? reduce_float(op, &a, &p, site) : reduce_int(op, &a, &p, site);
}
