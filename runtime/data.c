/* The data kernels: one_hot, gather and gather_nd, scatter_elements and scatter_nd, argsort, sort and topk
 * (a stable merge sort along an axis), cumsum and cumprod; sequence_mask, invert_permutation, unravel_index,
 * matrix_set_diag, searchsorted, argwhere, unique and adv_index; sparse_to_dense, sparse_reshape,
 * sparse_fill_empty_rows, nn.sparse_dense/transpose/add; random.* (topi's Threefry, bit for bit); dft and
 * stft; nn.correlation, image.dilation2d, nn.fifo_buffer, nn.deformable_conv2d and
 * nn.conv2d_backward_weight (topi's algorithms). Indices out of range
 * are run-time errors naming the operator; negative indices count from the end, as numpy's (and
 * TVM's reference implementations). Data moves by element size, so one loop serves every dtype. */
#include "runtime/kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

static void check_rank(const RtSite *site, IrOpId op, int rank) {
  if (rank > RT_MAX_RANK)
    rt_error(site->expr, "%s: rank %d is beyond the %d supported", ir_ops[op].name, rank, RT_MAX_RANK);
}

static void copy_elem(void *dst, int64_t di, const void *src, int64_t si, size_t esize) {
  memcpy((char *)dst + (size_t)di * esize, (const char *)src + (size_t)si * esize, esize);
}

/* Element i of an integer index operand as a position along an axis of n: a negative index counts
 * from the end; out of range (either way) is a run-time error naming the operator. */
static int64_t index_at(const RtOperand *ix, int64_t i, int64_t n, IrOpId op, int axis, const RtSite *site) {
  RtValue v = rt_elem_get(ix->data, ix->dt, i);
  if (ix->dt.code == IR_DT_UINT && v.u.u > (uint64_t)INT64_MAX)
    rt_error(site->expr, "%s: index %llu is out of range for axis %d of length %lld", ir_ops[op].name,
             (unsigned long long)v.u.u, axis, (long long)n);
  int64_t k = rt_scalar_i64(v);
  if (k < -n || k >= n)
    rt_error(site->expr, "%s: index %lld is out of range for axis %d of length %lld", ir_ops[op].name, (long long)k,
             axis, (long long)n);
  return k < 0 ? k + n : k;
}

/* Products of shape[lo..hi). */
static int64_t span_count(const int64_t *shape, int lo, int hi) {
  int64_t p = 1;
  for (int i = lo; i < hi; i++) p = rt_mul_sat(p, shape[i]);
  return p;
}

/* ---------------------------------------------------------------- one_hot */

static RtValue one_hot(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand ix, on, off;
  rt_operand(&ix, args[0]);
  rt_operand(&on, args[1]);
  rt_operand(&off, args[2]);
  int r = ix.rank;
  check_rank(site, IR_OP_ONE_HOT, r + 1);
  int64_t depth = ir_attr_int(at, IR_A_DEPTH, 1), axis = ir_attr_int(at, IR_A_AXIS, -1);
  if (axis < 0) axis += r + 1;
  IrDType dt = ir_attr_dtype(at, IR_A_DTYPE, on.dt);
  RtValue von = rt_convert(rt_elem_get(on.data, on.dt, 0), dt), voff = rt_convert(rt_elem_get(off.data, off.dt, 0), dt);
  int64_t shape[RT_MAX_RANK + 1];
  for (int i = 0, k = 0; i <= r; i++) shape[i] = i == axis ? depth : ix.shape[k++];
  int64_t outer = span_count(ix.shape, 0, (int)axis), inner = span_count(ix.shape, (int)axis, r);
  RtResult res;
  void *out = rt_result_init(&res, dt, r + 1, shape);
  if (ix.count == 0) return rt_result_value(&res); /* no indices: every depth would be an empty row */
  int64_t tick = 0;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t d = 0; d < depth; d++)
      for (int64_t in = 0; in < inner; in++) {
        RT_TICK();
        RtValue v = rt_elem_get(ix.data, ix.dt, o * inner + in);
        bool hit = ix.dt.code == IR_DT_UINT ? v.u.u == (uint64_t)d : v.u.i == d;
        rt_elem_set(out, dt, (o * depth + d) * inner + in, hit ? von : voff);
      }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- gather, gather_nd */

static RtValue gather(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a, ix;
  rt_operand(&a, args[0]);
  rt_operand(&ix, args[1]);
  int r = a.rank;
  check_rank(site, IR_OP_GATHER, r);
  if (ix.rank != r) rt_error(site->expr, "gather: the indices have rank %d, the data %d", ix.rank, r);
  int axis = rt_axis(site, IR_OP_GATHER, ir_attr_int(at, IR_A_AXIS, 0), r);
  for (int i = 0; i < r; i++)
    if (i != axis && ix.shape[i] != a.shape[i])
      rt_error(site->expr, "gather: the indices %s must have the data's shape %s but along axis %d",
               rt_shape_text(ix.rank, ix.shape), rt_shape_text(r, a.shape), axis);
  int64_t strides[RT_MAX_RANK], idx[RT_MAX_RANK] = {0};
  rt_strides_of(r, a.shape, strides);
  size_t esize = rt_dtype_size(a.dt);
  RtResult res;
  void *out = rt_result_init(&res, a.dt, r, ix.shape);
  int64_t base = 0; /* the offset of idx in the data, without the axis */
  for (int64_t p = 0; p < ix.count; p++) {
    rt_poll_every(site, p);
    int64_t k = index_at(&ix, p, a.shape[axis], IR_OP_GATHER, axis, site);
    copy_elem(out, p, a.data, base + k * strides[axis], esize);
    for (int d = r - 1; d >= 0; d--) {
      if (d != axis) base += strides[d];
      if (++idx[d] < ix.shape[d]) break;
      if (d != axis) base -= strides[d] * ix.shape[d];
      idx[d] = 0;
    }
  }
  return rt_result_value(&res);
}

static RtValue gather_nd(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a, ix;
  rt_operand(&a, args[0]);
  rt_operand(&ix, args[1]);
  int r = a.rank, ri = ix.rank;
  check_rank(site, IR_OP_GATHER_ND, r + ri);
  int64_t b = ir_attr_int(at, IR_A_BATCH_DIMS, 0), m = ri > 0 ? ix.shape[0] : 0;
  if (ri < 1 || b < 0 || b > ri - 1 || m + b > r)
    rt_error(site->expr, "gather_nd: indices %s with batch_dims=%lld do not index the data %s",
             rt_shape_text(ri, ix.shape), (long long)b, rt_shape_text(r, a.shape));
  for (int i = 0; i < b; i++)
    if (a.shape[i] != ix.shape[i + 1])
      rt_error(site->expr, "gather_nd: batch dimension %d of the data %s and of the indices %s differ", i,
               rt_shape_text(r, a.shape), rt_shape_text(ri, ix.shape));
  int64_t strides[RT_MAX_RANK], shape[2 * RT_MAX_RANK];
  rt_strides_of(r, a.shape, strides);
  int n = 0;
  for (int i = 1; i < ri; i++) shape[n++] = ix.shape[i];
  for (int i = (int)(m + b); i < r; i++) shape[n++] = a.shape[i];
  int64_t ny = span_count(ix.shape, 1, ri), inner = span_count(a.shape, (int)(m + b), r);
  size_t esize = rt_dtype_size(a.dt);
  RtResult res;
  char *out = rt_result_init(&res, a.dt, n, shape);
  int64_t y[RT_MAX_RANK] = {0}, left = 0;
  for (int64_t p = 0; p < ny && inner > 0; p++) {
    rt_poll_work(site, &left, inner + m + 8);
    int64_t off = 0;
    for (int i = 0; i < b; i++) off += y[i] * strides[i];
    for (int64_t j = 0; j < m; j++)
      off += index_at(&ix, j * ny + p, a.shape[b + j], IR_OP_GATHER_ND, (int)(b + j), site) * strides[b + j];
    rt_copy(site, out + (size_t)(p * inner) * esize, (const char *)a.data + (size_t)off * esize, (size_t)inner * esize);
    for (int d = ri - 2; d >= 0; d--) {
      if (++y[d] < ix.shape[d + 1]) break;
      y[d] = 0;
    }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- scatter_elements */

enum { RED_UPDATE, RED_ADD, RED_MUL, RED_MEAN, RED_MIN, RED_MAX };

/* f(old, u) in dtype dt: floats in double rounded to dt, integers wrapping to dt's width. */
static RtValue combine(int red, IrDType dt, RtValue old, RtValue u) {
  if (red == RED_UPDATE) return u;
  if (dt.code == IR_DT_FLOAT) {
    double a = rt_scalar_f64(old), b = rt_scalar_f64(u), v = 0;
    switch (red) {
    case RED_ADD: v = a + b; break;
    case RED_MUL: v = a * b; break;
    case RED_MEAN: v = (a + b) / 2; break;
    case RED_MIN: v = b < a ? b : a; break;
    default: v = b > a ? b : a; break;
    }
    return rt_scalar_from_f64(dt, v);
  }
  bool is_signed = dt.code == IR_DT_INT;
  uint64_t a = old.u.u, b = u.u.u;
  bool less = is_signed ? (int64_t)b < (int64_t)a : b < a;
  switch (red) {
  case RED_ADD: return rt_scalar_from_u64(dt, a + b);
  case RED_MUL: return rt_scalar_from_u64(dt, a * b);
  case RED_MIN: return less ? u : old;
  case RED_MAX: return less || a == b ? old : u;
  default: { /* the sum in dt, then halved toward zero */
    RtValue s = rt_scalar_from_u64(dt, a + b);
    return is_signed ? rt_scalar_from_i64(dt, s.u.i / 2) : rt_scalar_from_u64(dt, s.u.u / 2);
  }
  }
}

static RtValue scatter_elements(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a, ix, up;
  rt_operand(&a, args[0]);
  rt_operand(&ix, args[1]);
  rt_operand(&up, args[2]);
  int r = a.rank;
  check_rank(site, IR_OP_SCATTER_ELEMENTS, r);
  int axis = rt_axis(site, IR_OP_SCATTER_ELEMENTS, ir_attr_int(at, IR_A_AXIS, 0), r);
  if (ix.rank != r || up.rank != r)
    rt_error(site->expr, "scatter_elements: the indices %s and updates %s must have the data's rank %d",
             rt_shape_text(ix.rank, ix.shape), rt_shape_text(up.rank, up.shape), r);
  for (int i = 0; i < r; i++) {
    if (ix.shape[i] != up.shape[i])
      rt_error(site->expr, "scatter_elements: the indices %s and the updates %s must have one shape",
               rt_shape_text(r, ix.shape), rt_shape_text(r, up.shape));
    if (i != axis && ix.shape[i] > a.shape[i])
      rt_error(site->expr, "scatter_elements: the indices %s are larger than the data %s along axis %d",
               rt_shape_text(r, ix.shape), rt_shape_text(r, a.shape), i);
  }
  int red = RED_UPDATE;
  const IrAttrValue *rv = ir_attr_at(at, IR_A_REDUCTION);
  if (rv->given) {
    static const char *const names[] = {"update", "add", "mul", "mean", "min", "max"};
    for (int i = 0; i < 6; i++)
      if (!strcmp(rv->str, names[i])) red = i;
  }
  RtResult res;
  void *out = rt_result_init(&res, a.dt, r, a.shape);
  if (a.count > 0) rt_copy(site, out, a.data, (size_t)a.count * rt_dtype_size(a.dt));
  int64_t dstr[RT_MAX_RANK], istr[RT_MAX_RANK];
  rt_strides_of(r, a.shape, dstr);
  rt_strides_of(r, ix.shape, istr);
  /* TVM's order: each position off the axis in turn, the positions along the axis innermost. */
  int64_t before = span_count(ix.shape, 0, axis), len = ix.shape[axis], after = span_count(ix.shape, axis + 1, r);
  if (ix.count == 0) before = 0; /* no updates: the positions off the axis may be many over an empty one */
  int64_t tick = 0;
  for (int64_t bi = 0; bi < before; bi++)
    for (int64_t ai = 0; ai < after; ai++) {
      RT_TICK();
      int64_t ibase = 0, dbase = 0, rest = bi;
      for (int d = axis - 1; d >= 0; d--) {
        int64_t c = rest % ix.shape[d];
        rest /= ix.shape[d];
        ibase += c * istr[d], dbase += c * dstr[d];
      }
      rest = ai;
      for (int d = r - 1; d > axis; d--) {
        int64_t c = rest % ix.shape[d];
        rest /= ix.shape[d];
        ibase += c * istr[d], dbase += c * dstr[d];
      }
      for (int64_t k = 0; k < len; k++) {
        RT_TICK();
        int64_t p = ibase + k * istr[axis];
        int64_t q = dbase + index_at(&ix, p, a.shape[axis], IR_OP_SCATTER_ELEMENTS, axis, site) * dstr[axis];
        rt_elem_set(out, a.dt, q, combine(red, a.dt, rt_elem_get(out, a.dt, q), rt_elem_get(up.data, up.dt, p)));
      }
    }
  return rt_result_value(&res);
}

static RtValue scatter_nd(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a, ix, up;
  rt_operand(&a, args[0]);
  rt_operand(&ix, args[1]);
  rt_operand(&up, args[2]);
  int r = a.rank, ri = ix.rank;
  check_rank(site, IR_OP_SCATTER_ND, r + ri);
  int64_t m = ri > 0 ? ix.shape[0] : 0;
  bool fits = ri >= 1 && m <= r && up.rank == ri - 1 + r - m;
  for (int i = 0; fits && i < up.rank; i++) fits = up.shape[i] == (i < ri - 1 ? ix.shape[i + 1] : a.shape[m + i - (ri - 1)]);
  if (!fits)
    rt_error(site->expr, "scatter_nd: the indices %s and updates %s do not fit the data %s",
             rt_shape_text(ri, ix.shape), rt_shape_text(up.rank, up.shape), rt_shape_text(r, a.shape));
  int red = RED_UPDATE;
  const IrAttrValue *mv = ir_attr_at(at, IR_A_MODE);
  if (mv->given) {
    static const char *const names[] = {"update", "add", "mul", "mean", "min", "max"};
    for (int i = 0; i < 6; i++)
      if (!strcmp(mv->str, names[i])) red = i;
  }
  RtResult res;
  void *out = rt_result_init(&res, a.dt, r, a.shape);
  if (a.count > 0) rt_copy(site, out, a.data, (size_t)a.count * rt_dtype_size(a.dt));
  int64_t strides[RT_MAX_RANK];
  rt_strides_of(r, a.shape, strides);
  int64_t ny = span_count(ix.shape, 1, ri), inner = span_count(a.shape, (int)m, r), tick = 0;
  for (int64_t y = 0; y < ny && inner > 0; y++) {
    int64_t off = 0;
    for (int64_t j = 0; j < m; j++) off += index_at(&ix, j * ny + y, a.shape[j], IR_OP_SCATTER_ND, (int)j, site) * strides[j];
    for (int64_t t = 0; t < inner; t++) {
      RT_TICK();
      rt_elem_set(out, a.dt, off + t,
                  combine(red, a.dt, rt_elem_get(out, a.dt, off + t), rt_elem_get(up.data, up.dt, y * inner + t)));
    }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- argsort, sort, topk */

/* One line of keys, compared by class: floats (NaN the largest), signed or unsigned integers. */
typedef struct {
  int cls; /* 0 float, 1 signed, 2 unsigned */
  bool ascend;
  double *f;
  int64_t *i;
  uint64_t *u;
} Keys;

/* Whether element a goes strictly before b. */
static bool before_key(const Keys *k, int64_t a, int64_t b) {
  int c; /* -1, 0, 1: a against b */
  if (k->cls == 0) {
    double x = k->f[a], y = k->f[b];
    bool nx = x != x, ny = y != y;
    c = nx || ny ? (nx && ny ? 0 : nx ? 1 : -1) : (x < y ? -1 : x > y ? 1 : 0);
  } else if (k->cls == 1) {
    c = k->i[a] < k->i[b] ? -1 : k->i[a] > k->i[b];
  } else {
    c = k->u[a] < k->u[b] ? -1 : k->u[a] > k->u[b];
  }
  return k->ascend ? c < 0 : c > 0;
}

/* The positions ord[0..n) sorted by their keys (kernel.h). */
RT_MERGE_SORT(merge_sort, int64_t, Keys, before_key)

static RtValue sorting(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, args[0]);
  int r = a.rank;
  check_rank(site, op, r);
  if (r == 0) rt_error(site->expr, "%s sorts along an axis, but its argument is a scalar", ir_ops[op].name);
  int axis = rt_axis(site, op, ir_attr_int(at, IR_A_AXIS, -1), r);
  const IrAttrValue *asc = ir_attr_at(at, IR_A_IS_ASCEND);
  Keys k = {.cls = a.dt.code == IR_DT_FLOAT ? 0 : a.dt.code == IR_DT_INT ? 1 : 2,
            .ascend = asc->given ? asc->b : op != IR_OP_TOPK};
  int64_t n = a.shape[axis], take = n;
  if (op == IR_OP_TOPK) {
    int64_t kk = ir_attr_int(at, IR_A_K, 1);
    if (kk > n)
      rt_error(site->expr, "topk: k=%lld is more than the %lld elements along axis %d of %s", (long long)kk,
               (long long)n, axis, rt_shape_text(r, a.shape));
    if (kk >= 1) take = kk;
  }
  IrDType idt = ir_attr_dtype(at, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32));
  int64_t shape[RT_MAX_RANK];
  memcpy(shape, a.shape, sizeof(int64_t) * (size_t)r);
  shape[axis] = take;
  const char *ret = ir_attr_at(at, IR_A_RET_TYPE)->given ? ir_attr_at(at, IR_A_RET_TYPE)->str : "both";
  bool want_values = op == IR_OP_SORT || (op == IR_OP_TOPK && strcmp(ret, "indices"));
  bool want_indices = op == IR_OP_ARGSORT || (op == IR_OP_TOPK && strcmp(ret, "values"));
  RtResult vres, ires;
  void *vout = want_values ? rt_result_init(&vres, a.dt, r, shape) : NULL;
  void *iout = want_indices ? rt_result_init(&ires, idt, r, shape) : NULL;
  int64_t outer = span_count(a.shape, 0, axis), inner = span_count(a.shape, axis + 1, r);
  if (a.count == 0) outer = 0;
  size_t cells = outer ? (size_t)n + 1 : 1; /* nothing to sort: no scratch for a long empty axis */
  int64_t *ord = rt_alloc_atomic(sizeof(int64_t) * cells), *tmp = rt_alloc_atomic(sizeof(int64_t) * cells);
  if (k.cls == 0) k.f = rt_alloc_atomic(sizeof(double) * cells);
  else if (k.cls == 1) k.i = rt_alloc_atomic(sizeof(int64_t) * cells);
  else k.u = rt_alloc_atomic(sizeof(uint64_t) * cells);
  size_t esize = rt_dtype_size(a.dt);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      int64_t base = o * n * inner + in, obase = o * take * inner + in;
      for (int64_t j = 0; j < n; j++) {
        rt_poll_every(site, j);
        RtValue v = rt_elem_get(a.data, a.dt, base + j * inner);
        if (k.cls == 0) k.f[j] = rt_scalar_f64(v);
        else if (k.cls == 1) k.i[j] = v.u.i;
        else k.u[j] = v.u.u;
        ord[j] = j;
      }
      merge_sort(site, ord, tmp, n, &k);
      for (int64_t j = 0; j < take; j++) {
        rt_poll_every(site, j + 1);
        if (vout) copy_elem(vout, obase + j * inner, a.data, base + ord[j] * inner, esize);
        if (iout) rt_elem_set(iout, idt, obase + j * inner, rt_scalar_from_i64(idt, ord[j]));
      }
    }
  if (vout && iout) {
    RtValue pair[2] = {rt_result_value(&vres), rt_result_value(&ires)};
    return rt_tuple_value(2, pair);
  }
  return vout ? rt_result_value(&vres) : rt_result_value(&ires);
}

/* ---------------------------------------------------------------- cumsum, cumprod */

static RtValue scan(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, args[0]);
  IrDType dt = ir_attr_dtype(at, IR_A_DTYPE, a.dt);
  bool prod = op == IR_OP_CUMPROD, excl = ir_attr_at(at, IR_A_EXCLUSIVE)->b;
  const IrAttrValue *ax = ir_attr_at(at, IR_A_AXIS);
  int64_t outer = 1, n = a.count, inner = 1, flat = a.count;
  RtResult res;
  void *out;
  if (ax->given && !ax->none) {
    int axis = rt_axis(site, op, ax->ints[0], a.rank);
    outer = span_count(a.shape, 0, axis), n = a.shape[axis], inner = span_count(a.shape, axis + 1, a.rank);
    if (a.count == 0) outer = 0;
    out = rt_result_init(&res, dt, a.rank, a.shape);
  } else {
    out = rt_result_init(&res, dt, 1, &flat);
  }
  RtValue one = rt_convert(rt_scalar_from_i64(IR_DTYPE(IR_DT_INT, 64), prod ? 1 : 0), dt);
  int64_t tick = 0;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      RtValue acc = one;
      int64_t base = o * n * inner + in;
      RT_TICK();
      for (int64_t j = 0; j < n; j++) {
        RT_TICK();
        int64_t p = base + j * inner;
        RtValue x = rt_convert(rt_elem_get(a.data, a.dt, p), dt);
        if (excl) rt_elem_set(out, dt, p, acc);
        acc = dt.code == IR_DT_FLOAT
                  ? rt_scalar_from_f64(dt, prod ? rt_scalar_f64(acc) * rt_scalar_f64(x) : rt_scalar_f64(acc) + rt_scalar_f64(x))
                  : rt_scalar_from_u64(dt, prod ? acc.u.u * x.u.u : acc.u.u + x.u.u);
        if (!excl) rt_elem_set(out, dt, p, acc);
      }
    }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- dispatch */

/* ---------------------------------------------------------------- sequence_mask */

/* mask_value where the position along `axis` is at or beyond valid_length[batch]. */
static RtValue sequence_mask(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a, len;
  rt_operand(&a, args[0]);
  rt_operand(&len, args[1]);
  int axis = (int)ir_attr_int(at, IR_A_AXIS, 0);
  if (a.rank < 2 || len.rank != 1 || len.shape[0] != a.shape[1 - axis])
    rt_error(site->expr, "sequence_mask: valid_length %s does not fit the data %s", rt_shape_text(len.rank, len.shape),
             rt_shape_text(a.rank, a.shape));
  RtValue mv = rt_scalar_from_f64(a.dt, ir_attr_float(at, IR_A_MASK_VALUE, 0));
  size_t esize = rt_dtype_size(a.dt);
  int64_t inner = span_count(a.shape, 2, a.rank), d1 = a.shape[1];
  RtResult res;
  char *out = rt_result_init(&res, a.dt, a.rank, a.shape);
  rt_copy(site, out, a.data, (size_t)a.count * esize);
  bool fl = len.dt.code == IR_DT_FLOAT;
  for (int64_t n = 0; inner && n < a.count; n++) {
    rt_poll_every(site, n);
    int64_t i1 = (n / inner) % d1, i0 = n / inner / d1;
    int64_t t = axis == 0 ? i0 : i1, b = axis == 0 ? i1 : i0;
    RtValue v = rt_elem_get(len.data, len.dt, b);
    bool masked = fl ? (double)t >= rt_scalar_f64(v)
                     : len.dt.code == IR_DT_UINT ? (uint64_t)t >= v.u.u : t >= rt_scalar_i64(v);
    if (masked) rt_elem_set(out, a.dt, n, mv);
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- invert_permutation, unravel_index */

static RtValue invert_permutation(const RtValue *args, const RtSite *site) {
  RtOperand p;
  rt_operand(&p, args[0]);
  int64_t n = p.count;
  RtResult res;
  void *out = rt_result_init(&res, p.dt, p.rank, p.shape);
  bool *seen = rt_alloc_atomic((size_t)(n ? n : 1));
  rt_zero(site, seen, (size_t)(n ? n : 1));
  for (int64_t i = 0; i < n; i++) {
    rt_poll_every(site, i);
    RtValue v = rt_elem_get(p.data, p.dt, i);
    int64_t k = rt_scalar_i64(v);
    if ((p.dt.code == IR_DT_UINT && v.u.u > (uint64_t)INT64_MAX) || k < 0 || k >= n || seen[k])
      rt_error(site->expr, "invert_permutation: element %lld (%lld) makes it no permutation of 0 to %lld", (long long)i,
               (long long)k, (long long)n - 1);
    seen[k] = true;
    rt_elem_set(out, p.dt, k, rt_scalar_from_i64(p.dt, i));
  }
  return rt_result_value(&res);
}

static RtValue unravel_index(const RtValue *args, const RtSite *site) {
  RtOperand ix, sh;
  rt_operand(&ix, args[0]);
  rt_operand(&sh, args[1]);
  int64_t k = sh.count, n = ix.count, total = 1;
  int64_t *dims = rt_alloc_atomic(sizeof(int64_t) * (size_t)(k ? k : 1)), tick = 0;
  for (int64_t j = 0; j < k; j++) {
    RT_TICK();
    RtValue v = rt_elem_get(sh.data, sh.dt, j);
    dims[j] = rt_scalar_i64(v);
    if (dims[j] < 0 || (sh.dt.code == IR_DT_UINT && v.u.u > (uint64_t)INT64_MAX))
      rt_error(site->expr, "unravel_index: the shape has a negative dimension");
    total = rt_mul_sat(total, dims[j]);
  }
  int64_t shape[2] = {k, n};
  RtResult res;
  void *out = rt_result_init(&res, ix.dt, ix.rank + 1, shape);
  for (int64_t i = 0; i < n; i++) {
    RT_TICK();
    RtValue v = rt_elem_get(ix.data, ix.dt, i);
    int64_t x = rt_scalar_i64(v);
    if (x < 0 || x >= total || (ix.dt.code == IR_DT_UINT && v.u.u > (uint64_t)INT64_MAX))
      rt_error(site->expr, "unravel_index: index %lld is out of range for %lld elements", (long long)x,
               (long long)total);
    for (int64_t j = k - 1; j >= 0; j--) {
      RT_TICK();
      rt_elem_set(out, ix.dt, j * n + i, rt_scalar_from_i64(ix.dt, x % dims[j]));
      x /= dims[j];
    }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- matrix_set_diag */

/* TVM's kernel: element (i, j) with k = j - i in [k1, k2] takes diagonal[..., (k2 - k), (k >= 0 ? i : j) +
 * offset], the offset right-aligning a short superdiagonal (super_diag_right_align, True when omitted) or
 * subdiagonal (sub_diag_right_align, False when omitted: MatrixSetDiagAttrs in include/tvm/relay/attrs/transform.h,
 * Python's align="RIGHT_LEFT"). */
static RtValue matrix_set_diag(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a, d;
  rt_operand(&a, args[0]);
  rt_operand(&d, args[1]);
  int64_t k1 = ir_attr_int(at, IR_A_K1, 0), k2 = ir_attr_int(at, IR_A_K2, 0);
  bool right = ir_attr_bool(at, IR_A_SUPER_DIAG_RIGHT_ALIGN, true), sub_right = ir_attr_bool(at, IR_A_SUB_DIAG_RIGHT_ALIGN, false);
  int r = a.rank;
  bool one = k1 == k2;
  if (r < 2 || d.rank != (one ? r - 1 : r))
    rt_error(site->expr, "matrix_set_diag: the diagonal's rank does not fit the data");
  int64_t m = a.shape[r - 2], n = a.shape[r - 1];
  int64_t la = m + (k2 < 0 ? k2 : 0), lb = n - (k1 > 0 ? k1 : 0), maxlen = la < lb ? la : lb;
  for (int i = 0; i < r - 2; i++)
    if (d.shape[i] != a.shape[i]) rt_error(site->expr, "matrix_set_diag: the batch dimensions of the data and the diagonal differ");
  if (m <= -k1 || n <= k2 || d.shape[d.rank - 1] != maxlen || (!one && d.shape[r - 2] != k2 - k1 + 1))
    rt_error(site->expr, "matrix_set_diag: the diagonal %s does not fit diagonals %lld to %lld of %s", rt_shape_text(d.rank, d.shape),
             (long long)k1, (long long)k2, rt_shape_text(a.rank, a.shape));
  size_t esize = rt_dtype_size(a.dt);
  RtResult res;
  char *out = rt_result_init(&res, a.dt, r, a.shape);
  rt_copy(site, out, a.data, (size_t)a.count * esize);
  int64_t nd = one ? 1 : k2 - k1 + 1;
  for (int64_t x = 0; m && n && x < a.count; x++) {
    rt_poll_every(site, x);
    int64_t j = x % n, i = (x / n) % m, b = x / n / m, k = j - i;
    if (k < k1 || k > k2) continue;
    int64_t len = k >= 0 ? (n - k < m ? n - k : m) : (n < m + k ? n : m + k);
    int64_t off = k >= 0 ? (right ? maxlen - len : 0) : (sub_right ? maxlen - len : 0);
    int64_t band = one ? 0 : k2 - k, pos = (k >= 0 ? i : j) + off;
    copy_elem(out, x, d.data, (b * nd + band) * maxlen + pos, esize);
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- searchsorted, argwhere, unique */

/* a < b (-1), a == b (0), a > b (1) for elements of dt; NaN above everything (equal to NaN). */
static int elem_cmp(RtValue a, RtValue b, IrDType dt) {
  if (dt.code == IR_DT_FLOAT) {
    double x = rt_scalar_f64(a), y = rt_scalar_f64(b);
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return x < y ? -1 : x > y;
  }
  if (dt.code == IR_DT_UINT || dt.code == IR_DT_BOOL) return a.u.u < b.u.u ? -1 : a.u.u > b.u.u;
  int64_t x = rt_scalar_i64(a), y = rt_scalar_i64(b);
  return x < y ? -1 : x > y;
}

/* The position of each value in its row of the sorted sequence: the first element >= it (> with right). */
static RtValue searchsorted(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand sq, v;
  rt_operand(&sq, args[0]);
  rt_operand(&v, args[1]);
  if (sq.rank < 1 || v.rank < 1 || !ir_dtype_eq(sq.dt, v.dt) || (sq.rank > 1 && sq.rank != v.rank))
    rt_error(site->expr, "searchsorted: the values %s do not fit the sorted sequence %s",
             rt_shape_text(v.rank, v.shape), rt_shape_text(sq.rank, sq.shape));
  for (int i = 0; sq.rank > 1 && i < v.rank - 1; i++)
    if (sq.shape[i] != v.shape[i]) rt_error(site->expr, "searchsorted: the leading dimensions of the sequence and the values differ");
  bool right = ir_attr_bool(at, IR_A_RIGHT, false);
  IrDType dt = ir_attr_dtype(at, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32));
  int64_t len = sq.shape[sq.rank - 1], vin = v.shape[v.rank - 1];
  RtResult res;
  void *out = rt_result_init(&res, dt, v.rank, v.shape);
  int64_t left = 0;
  for (int64_t i = 0; i < v.count; i++) {
    rt_poll_work(site, &left, 64); /* a binary search: at most 63 steps */
    int64_t row = sq.rank > 1 ? i / vin : 0, lo = 0, hi = len;
    RtValue x = rt_elem_get(v.data, v.dt, i);
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      int c = elem_cmp(rt_elem_get(sq.data, sq.dt, row * len + mid), x, sq.dt);
      if (c < 0 || (right && c == 0)) lo = mid + 1;
      else hi = mid;
    }
    rt_elem_set(out, dt, i, rt_scalar_from_i64(dt, lo));
  }
  return rt_result_value(&res);
}

static bool nonzero(RtValue v, IrDType dt) { return dt.code == IR_DT_FLOAT ? rt_scalar_f64(v) != 0 : v.u.u != 0; }

/* The coordinates of the nonzero elements, one row each, in row-major order: (count, rank) int32. */
static RtValue argwhere(const RtValue *args, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, args[0]);
  check_rank(site, IR_OP_ARGWHERE, a.rank);
  int64_t count = 0;
  for (int64_t i = 0; i < a.count; i++) {
    rt_poll_every(site, i);
    count += nonzero(rt_elem_get(a.data, a.dt, i), a.dt);
  }
  if (count > INT32_MAX) rt_error(site->expr, "argwhere: too many elements for int32 coordinates");
  int64_t shape[2] = {count, a.rank};
  RtResult res;
  int32_t *out = rt_result_init(&res, IR_DTYPE(IR_DT_INT, 32), 2, shape);
  for (int64_t i = 0, k = 0; i < a.count; i++) {
    rt_poll_every(site, i);
    if (!nonzero(rt_elem_get(a.data, a.dt, i), a.dt)) continue;
    for (int64_t d = a.rank - 1, x = i; d >= 0; d--) {
      out[k * a.rank + d] = (int32_t)(x % a.shape[d]);
      x /= a.shape[d];
    }
    k++;
  }
  return rt_result_value(&res);
}

/* TVM's unique: (unique, indices of first occurrences, inverse_indices, num_unique[, counts]), the padded
 * fields zero past num_unique; the unique elements ascending (sorted) or in order of first occurrence. */
static RtValue unique(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, args[0]);
  if (a.rank != 1) rt_error(site->expr, "unique takes a vector");
  int64_t n = a.count;
  if (n > INT32_MAX) rt_error(site->expr, "unique: too many elements for int32 indices");
  bool sorted = ir_attr_bool(at, IR_A_SORTED, true), counts = ir_attr_bool(at, IR_A_RETURN_COUNTS, false);
  size_t sz = sizeof(int64_t) * (size_t)(n ? n : 1);
  int64_t *ord = rt_alloc_atomic(sz), *group = rt_alloc_atomic(sz), *first = rt_alloc_atomic(sz), *cnt = rt_alloc_atomic(sz), *rank = rt_alloc_atomic(sz);
  /* the indices ordered by their elements, then by index: sort's stable merge sort, which polls (qsort
   * cannot be interrupted) */
  Keys keys = {.cls = a.dt.code == IR_DT_FLOAT ? 0 : a.dt.code == IR_DT_INT ? 1 : 2, .ascend = true};
  if (keys.cls == 0) keys.f = rt_alloc_atomic(sz);
  else if (keys.cls == 1) keys.i = rt_alloc_atomic(sz);
  else keys.u = rt_alloc_atomic(sz);
  for (int64_t i = 0; i < n; i++) {
    rt_poll_every(site, i);
    RtValue v = rt_elem_get(a.data, a.dt, i);
    if (keys.cls == 0) keys.f[i] = rt_scalar_f64(v);
    else if (keys.cls == 1) keys.i[i] = v.u.i;
    else keys.u[i] = v.u.u;
    ord[i] = i;
  }
  merge_sort(site, ord, rt_alloc_atomic(sz), n, &keys);
  int64_t g = -1;
  for (int64_t k = 0; k < n; k++) {
    rt_poll_every(site, k);
    if (k == 0 || elem_cmp(rt_elem_get(a.data, a.dt, ord[k - 1]), rt_elem_get(a.data, a.dt, ord[k]), a.dt)) {
      g++;
      first[g] = ord[k];
      cnt[g] = 0;
    }
    cnt[g]++;
    group[ord[k]] = g;
  }
  int64_t nu = g + 1;
  /* rank[g]: the group's place in the output. */
  for (int64_t q = 0; q < nu; q++) {
    rt_poll_every(site, q);
    rank[q] = q;
  }
  if (!sorted) {
    int64_t next = 0;
    for (int64_t i = 0; i < n; i++) {
      rt_poll_every(site, i);
      if (first[group[i]] == i) rank[group[i]] = next++;
    }
  }
  IrDType i32 = IR_DTYPE(IR_DT_INT, 32);
  int64_t shape[1] = {n}, one[1] = {1};
  RtResult r0, r1, r2, r3, r4;
  char *u = rt_result_init(&r0, a.dt, 1, shape);
  int32_t *ix = rt_result_init(&r1, i32, 1, shape), *inv = rt_result_init(&r2, i32, 1, shape), *num = rt_result_init(&r3, i32, 1, one);
  int32_t *ct = counts ? rt_result_init(&r4, i32, 1, shape) : NULL;
  size_t esize = rt_dtype_size(a.dt);
  rt_zero(site, u, (size_t)n * esize);
  for (int64_t i = 0; i < n; i++) {
    rt_poll_every(site, i);
    ix[i] = 0, inv[i] = (int32_t)rank[group[i]];
    if (ct) ct[i] = 0;
  }
  for (int64_t q = 0; q < nu; q++) {
    rt_poll_every(site, q);
    copy_elem(u, rank[q], a.data, first[q], esize);
    ix[rank[q]] = (int32_t)first[q];
    if (ct) ct[rank[q]] = (int32_t)cnt[q];
  }
  num[0] = (int32_t)nu;
  RtValue f[5] = {rt_result_value(&r0), rt_result_value(&r1), rt_result_value(&r2), rt_result_value(&r3)};
  if (ct) f[4] = rt_result_value(&r4);
  return rt_tuple_value(counts ? 5 : 4, f);
}

/* ---------------------------------------------------------------- adv_index */

/* numpy's advanced indexing data[i0, i1, ...]: the index tensors broadcast; negative indices count
 * from the end; the data's remaining axes follow. */
static RtValue adv_index(RtValue tuple, const RtSite *site) {
  if (tuple.kind != RT_TUPLE || tuple.u.tup->n < 2)
    rt_error(site->expr, "adv_index takes a tuple of the data and indices");
  int n = (int)tuple.u.tup->n - 1;
  RtOperand a, *ix = rt_alloc(sizeof(RtOperand) * (size_t)n);
  rt_operand(&a, tuple.u.tup->f[0]);
  if (n > a.rank) rt_error(site->expr, "adv_index: more index tensors than the data's rank");
  int rb = 0;
  for (int i = 0; i < n; i++) {
    rt_operand(&ix[i], tuple.u.tup->f[i + 1]);
    if (ix[i].dt.code != IR_DT_INT && ix[i].dt.code != IR_DT_UINT) rt_error(site->expr, "adv_index: the indices are not integers");
    if (ix[i].rank > rb) rb = ix[i].rank;
  }
  check_rank(site, IR_OP_ADV_INDEX, rb + a.rank - n);
  int64_t bshape[RT_MAX_RANK], shape[RT_MAX_RANK], ast[RT_MAX_RANK];
  for (int k = 0; k < rb; k++) {
    bshape[k] = 1;
    for (int i = 0; i < n; i++) {
      int ri = ix[i].rank;
      if (k < rb - ri) continue;
      int64_t d = ix[i].shape[k - (rb - ri)];
      if (d != 1 && bshape[k] != 1 && d != bshape[k])
        rt_error(site->expr, "adv_index: the index tensors do not broadcast");
      if (d != 1) bshape[k] = d;
    }
    shape[k] = bshape[k];
  }
  int m = rb;
  for (int i = n; i < a.rank; i++) shape[m++] = a.shape[i];
  rt_strides_of(a.rank, a.shape, ast);
  int64_t inner = span_count(a.shape, n, a.rank), outer = span_count(bshape, 0, rb);
  size_t esize = rt_dtype_size(a.dt);
  RtResult res;
  char *out = rt_result_init(&res, a.dt, m, shape);
  int64_t idx[RT_MAX_RANK] = {0}, left = 0;
  for (int64_t o = 0; o < outer && inner; o++) {
    rt_poll_work(site, &left, inner + 8 * n);
    int64_t off = 0;
    for (int i = 0; i < n; i++) {
      int64_t j = 0, mul = 1;
      for (int d = ix[i].rank - 1; d >= 0; d--) {
        int k = d + rb - ix[i].rank;
        j += (ix[i].shape[d] == 1 ? 0 : idx[k]) * mul;
        mul *= ix[i].shape[d];
      }
      off += index_at(&ix[i], j, a.shape[i], IR_OP_ADV_INDEX, i, site) * ast[i];
    }
    rt_copy(site, out + (size_t)(o * inner) * esize, (const char *)a.data + (size_t)off * esize, (size_t)inner * esize);
    for (int k = rb - 1; k >= 0; k--) {
      if (++idx[k] < bshape[k]) break;
      idx[k] = 0;
    }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- sparse_to_dense, sparse_reshape, sparse_fill_empty_rows */

static int64_t int_at(const RtOperand *o, int64_t i) { return rt_scalar_i64(rt_elem_get(o->data, o->dt, i)); }

/* topi's sparse_to_dense: default_value everywhere, then each index's value (a later index wins);
 * an index outside the output is a run-time error (topi ignores it). */
static RtValue sparse_to_dense(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand ix, v, d;
  rt_operand(&ix, args[0]);
  rt_operand(&v, args[1]);
  rt_operand(&d, args[2]);
  const IrAttrValue *os = ir_attr_at(at, IR_A_OUTPUT_SHAPE);
  int r = os->n;
  check_rank(site, IR_OP_SPARSE_TO_DENSE, r);
  int64_t shape[RT_MAX_RANK], strides[RT_MAX_RANK];
  for (int i = 0; i < r; i++) shape[i] = os->ints[i];
  rt_strides_of(r, shape, strides);
  int64_t n = ix.rank == 0 ? 1 : ix.shape[0], k = ix.rank == 2 ? ix.shape[1] : 1;
  if (k != r)
    rt_error(site->expr, "sparse_to_dense: indices of %lld coordinates for an output of rank %d", (long long)k, r);
  if (v.rank == 1 && v.shape[0] != n)
    rt_error(site->expr, "sparse_to_dense: %lld values for %lld indices", (long long)v.shape[0], (long long)n);
  RtResult res;
  char *out = rt_result_init(&res, v.dt, r, shape);
  int64_t total = span_count(shape, 0, r);
  size_t esize = rt_dtype_size(v.dt);
  int64_t tick = 0;
  for (int64_t i = 0; i < total; i++) {
    RT_TICK();
    memcpy(out + (size_t)i * esize, d.data, esize);
  }
  for (int64_t j = 0; j < n; j++) {
    int64_t off = 0;
    RT_TICK();
    for (int64_t c = 0; c < k; c++) {
      RT_TICK();
      int64_t q = int_at(&ix, j * k + c);
      if (q < 0 || q >= shape[c])
        rt_error(site->expr, "sparse_to_dense: index %lld is out of range for axis %lld of length %lld", (long long)q, (long long)c,
                 (long long)shape[c]);
      off += q * strides[c];
    }
    copy_elem(out, off, v.data, v.rank == 1 ? j : 0, esize);
  }
  return rt_result_value(&res);
}

/* topi's sparse_reshape: each index row flattened in prev_shape, unflattened in new_shape (one -1 in
 * it stands for what the element count leaves). */
static RtValue sparse_reshape(const RtValue *args, const RtSite *site) {
  RtOperand ix, ps, ns;
  rt_operand(&ix, args[0]);
  rt_operand(&ps, args[1]);
  rt_operand(&ns, args[2]);
  int64_t n = ix.shape[0], r = ix.shape[1], m = ns.shape[0];
  if (ps.shape[0] != r) rt_error(site->expr, "sparse_reshape: prev_shape has %lld dimensions for indices of %lld", (long long)ps.shape[0], (long long)r);
  int64_t total = 1, known = 1, infer = -1, tick = 0;
  for (int64_t i = 0; i < r; i++) {
    RT_TICK();
    int64_t p = int_at(&ps, i);
    if (p < 0) rt_error(site->expr, "sparse_reshape: prev_shape has a negative dimension %lld", (long long)p);
    if (__builtin_mul_overflow(total, p, &total))
      rt_error(site->expr, "sparse_reshape: prev_shape's element count overflows");
  }
  RtResult r0, r1;
  int64_t s1[1] = {m};
  void *nshape = rt_result_init(&r1, ns.dt, 1, s1);
  int64_t *nsh = rt_alloc_atomic(sizeof(int64_t) * (size_t)(m ? m : 1));
  for (int64_t i = 0; i < m; i++) {
    RT_TICK();
    nsh[i] = int_at(&ns, i);
    if (nsh[i] == -1) {
      if (infer >= 0) rt_error(site->expr, "sparse_reshape: new_shape has more than one -1");
      infer = i;
    } else if (nsh[i] < 0) {
      rt_error(site->expr, "sparse_reshape: new_shape has a negative dimension %lld", (long long)nsh[i]);
    } else if (__builtin_mul_overflow(known, nsh[i], &known)) {
      rt_error(site->expr, "sparse_reshape: new_shape's element count overflows");
    }
  }
  if (infer >= 0) {
    if (known == 0 || total % known) rt_error(site->expr, "sparse_reshape: no dimension for -1 makes %lld elements", (long long)total);
    nsh[infer] = total / known;
  } else if (known != total) {
    rt_error(site->expr, "sparse_reshape: new_shape has %lld elements, prev_shape %lld", (long long)known,
             (long long)total);
  }
  for (int64_t i = 0; i < m; i++) {
    RT_TICK();
    rt_elem_set(nshape, ns.dt, i, rt_scalar_from_i64(ns.dt, nsh[i]));
  }
  int64_t s0[2] = {n, m};
  void *out = rt_result_init(&r0, ix.dt, 2, s0);
  for (int64_t j = 0; j < n; j++) {
    int64_t flat = 0;
    RT_TICK();
    for (int64_t c = 0; c < r; c++) {
      RT_TICK();
      int64_t q = int_at(&ix, j * r + c), p = int_at(&ps, c);
      if (q < 0 || q >= p)
        rt_error(site->expr, "sparse_reshape: index %lld is out of range for axis %lld of length %lld", (long long)q, (long long)c, (long long)p);
      flat = flat * p + q;
    }
    for (int64_t c = m - 1; c >= 0; c--) {
      RT_TICK();
      rt_elem_set(out, ix.dt, j * m + c, rt_scalar_from_i64(ix.dt, nsh[c] ? flat % nsh[c] : 0));
      flat = nsh[c] ? flat / nsh[c] : 0;
    }
  }
  RtValue f[2] = {rt_result_value(&r0), rt_result_value(&r1)};
  return rt_tuple_value(2, f);
}

/* topi's sparse_fill_empty_rows: the indices (sorted by row) with a (row, 0, ...) entry of
 * default_value for each empty row of dense_shape[0]; every field int64 (values converted, as TVM's). */
static RtValue sparse_fill_empty_rows(const RtValue *args, const RtSite *site) {
  RtOperand ix, v, ds, dv;
  rt_operand(&ix, args[0]);
  rt_operand(&v, args[1]);
  rt_operand(&ds, args[2]);
  rt_operand(&dv, args[3]);
  int64_t n = ix.shape[0], r = ix.shape[1];
  if (dv.count < 1) rt_error(site->expr, "sparse_fill_empty_rows: default_value is empty");
  if (ds.count < 1 || ds.count != r)
    rt_error(site->expr, "sparse_fill_empty_rows: dense_shape does not match the indices");
  if (v.count != n)
    rt_error(site->expr, "sparse_fill_empty_rows: %lld values for %lld indices", (long long)v.count, (long long)n);
  int64_t rows = int_at(&ds, 0);
  if (rows < 0) rt_error(site->expr, "sparse_fill_empty_rows: dense_shape has a negative dimension");
  IrDType i64 = IR_DTYPE(IR_DT_INT, 64);
  int64_t prev = -1, empty = rows, tick = 0;
  for (int64_t j = 0; j < n; j++) {
    RT_TICK();
    int64_t row = int_at(&ix, j * r);
    if (row < 0 || row >= rows)
      rt_error(site->expr, "sparse_fill_empty_rows: row %lld is out of range for %lld rows", (long long)row,
               (long long)rows);
    if (row < prev) rt_error(site->expr, "sparse_fill_empty_rows: the indices are not sorted by row");
    if (row != prev) empty--;
    prev = row;
  }
  int64_t total;
  if (__builtin_add_overflow(n, empty, &total)) /* dense_shape[0] near INT64_MAX: rows no memory holds */
    rt_error(site->expr, "sparse_fill_empty_rows: %lld rows are more than memory holds", (long long)rows);
  int64_t s0[2] = {total, r}, s1[1] = {total}, s2[1] = {rows};
  RtResult r0, r1, r2;
  int64_t *oi = rt_result_init(&r0, i64, 2, s0), *ov = rt_result_init(&r1, i64, 1, s1), *oe = rt_result_init(&r2, i64, 1, s2);
  int64_t dflt = rt_scalar_i64(rt_convert(rt_elem_get(dv.data, dv.dt, 0), i64)), k = 0, next = 0;
  rt_zero(site, oe, sizeof(int64_t) * (size_t)rows);
  for (int64_t j = 0; j <= n; j++) {
    int64_t row = j < n ? int_at(&ix, j * r) : rows;
    RT_TICK();
    for (; next < row; next++) {
      RT_TICK();
      oi[k * r] = next;
      for (int64_t c = 1; c < r; c++) oi[k * r + c] = 0; /* r: the dense rank, a shape tensor's length */
      ov[k++] = dflt;
      oe[next] = 1;
    }
    if (j == n) break;
    next = row + 1;
    for (int64_t c = 0; c < r; c++) {
      RT_TICK();
      oi[k * r + c] = int_at(&ix, j * r + c);
    }
    ov[k++] = rt_scalar_i64(rt_convert(rt_elem_get(v.data, v.dt, j), i64));
  }
  RtValue f[3] = {rt_result_value(&r0), rt_result_value(&r1), rt_result_value(&r2)};
  return rt_tuple_value(3, f);
}

/* ---------------------------------------------------------------- nn.sparse_dense, nn.sparse_transpose, nn.sparse_add */

/* A CSR (data rank 1) or BSR (rank 3) matrix's arrays, checked: indptr non-decreasing from 0 within
 * the data, each index a block column below ncols (in blocks). */
typedef struct {
  RtOperand d, ix, ptr;
  int64_t nrow, bs_r, bs_c; /* block rows, block shape (1 x 1 for CSR) */
} Sparse;

static void sparse_read(Sparse *s, const RtValue *args, int64_t ncols, IrOpId op, const RtSite *site) {
  rt_operand(&s->d, args[0]);
  rt_operand(&s->ix, args[1]);
  rt_operand(&s->ptr, args[2]);
  s->bs_r = s->d.rank == 3 ? s->d.shape[1] : 1;
  s->bs_c = s->d.rank == 3 ? s->d.shape[2] : 1;
  int64_t nnz = s->d.rank ? s->d.shape[0] : 0;
  if (s->ptr.count < 1) rt_error(site->expr, "%s: indptr is empty", ir_ops[op].name);
  if (s->ix.count != nnz) rt_error(site->expr, "%s: %lld indices for %lld sparse entries", ir_ops[op].name, (long long)s->ix.count, (long long)nnz);
  s->nrow = s->ptr.count - 1;
  for (int64_t i = 0; i <= s->nrow; i++) {
    rt_poll_every(site, i);
    int64_t p = int_at(&s->ptr, i), q = i ? int_at(&s->ptr, i - 1) : 0;
    if (p < q || p > nnz || (i == 0 && p != 0))
      rt_error(site->expr, "%s: indptr[%lld] = %lld is not a row start in 0..%lld", ir_ops[op].name, (long long)i, (long long)p, (long long)nnz);
  }
  for (int64_t j = 0; j < nnz; j++) {
    rt_poll_every(site, j);
    int64_t c = int_at(&s->ix, j);
    if (c < 0 || c >= ncols)
      rt_error(site->expr, "%s: sparse index %lld is out of range for %lld columns%s", ir_ops[op].name, (long long)c, (long long)ncols,
               s->d.rank == 3 ? " (of blocks)" : "");
  }
}

/* acc + a * b in the dtype (a float's product in double, the sum rounded to the dtype; integers wrap). */
static RtValue mul_add(IrDType dt, RtValue acc, RtValue a, RtValue b) {
  if (dt.code == IR_DT_FLOAT) return rt_scalar_from_f64(dt, rt_scalar_f64(acc) + rt_scalar_f64(a) * rt_scalar_f64(b));
  uint64_t r = (uint64_t)rt_scalar_i64(acc) + (uint64_t)rt_scalar_i64(a) * (uint64_t)rt_scalar_i64(b);
  return rt_scalar_from_i64(dt, (int64_t)r);
}

/* topi's sparse_dense: dense (M, K) by S (N, K) transposed, or (sparse_lhs) S (M, K) by dense (N, K)
 * transposed; the products summed in the dtype, in the order of the sparse entries. */
static RtValue sparse_dense(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand w;
  rt_operand(&w, args[0]);
  bool lhs = ir_attr_bool(at, IR_A_SPARSE_LHS, false);
  int64_t M = w.shape[0], K = w.shape[1];
  Sparse s;
  RtOperand probe;
  rt_operand(&probe, args[1]);
  int64_t bs_c = probe.rank == 3 ? probe.shape[2] : 1;
  if (bs_c == 0 || K % bs_c) rt_error(site->expr, "nn.sparse_dense: the dense matrix's %lld columns are no multiple of the block width %lld", (long long)K, (long long)bs_c);
  sparse_read(&s, args + 1, K / bs_c, IR_OP_NN_SPARSE_DENSE, site);
  if (s.d.dt.code != w.dt.code || s.d.dt.bits != w.dt.bits) rt_error(site->expr, "nn.sparse_dense: the dense and sparse dtypes differ");
  int64_t N = rt_mul_sat(s.nrow, s.bs_r);
  int64_t shape[2] = {lhs ? N : M, lhs ? M : N};
  RtResult res;
  void *out = rt_result_init(&res, w.dt, 2, shape);
  int64_t total = rt_mul_sat(shape[0], shape[1]);
  RtValue zero = rt_scalar_from_i64(w.dt, 0);
  int64_t tick = 0;
  for (int64_t i = 0; i < total; i++) {
    RT_TICK();
    rt_elem_set(out, w.dt, i, zero);
  }
  /* S's row r = nb * bs_r + j against dense row m: sum over blocks and c of S[r, col] * dense[m, col]. */
  for (int64_t nb = 0; nb < s.nrow; nb++) {
    RT_TICK();
    for (int64_t b = int_at(&s.ptr, nb); b < int_at(&s.ptr, nb + 1); b++) {
      int64_t bc = int_at(&s.ix, b);
      for (int64_t j = 0; j < s.bs_r; j++)
        for (int64_t c = 0; c < s.bs_c; c++) {
          RT_TICK();
          RtValue sv = rt_elem_get(s.d.data, s.d.dt, (b * s.bs_r + j) * s.bs_c + c);
          int64_t r = nb * s.bs_r + j, col = bc * s.bs_c + c;
          for (int64_t m = 0; m < M; m++) {
            RT_TICK();
            int64_t o = lhs ? r * M + m : m * N + r;
            rt_elem_set(out, w.dt, o, mul_add(w.dt, rt_elem_get(out, w.dt, o), sv, rt_elem_get(w.data, w.dt, m * K + col)));
          }
        }
    }
  }
  return rt_result_value(&res);
}

/* topi's CSR transpose of a square matrix: (data, indices, indptr) of the transpose, rows in order
 * within each new row. */
static RtValue sparse_transpose(const RtValue *args, const RtSite *site) {
  RtOperand d0;
  rt_operand(&d0, args[2]);
  int64_t n = d0.count - 1;
  Sparse s;
  sparse_read(&s, args, n < 0 ? 0 : n, IR_OP_NN_SPARSE_TRANSPOSE, site);
  int64_t nnz = s.d.count;
  RtResult r0, r1, r2;
  int64_t sd[1] = {nnz}, sp[1] = {n + 1};
  void *od = rt_result_init(&r0, s.d.dt, 1, sd), *oi = rt_result_init(&r1, s.ix.dt, 1, sd), *op = rt_result_init(&r2, s.ptr.dt, 1, sp);
  int64_t *cnt = rt_alloc_atomic(sizeof(int64_t) * (size_t)(n + 1)), tick = 0;
  rt_zero(site, cnt, sizeof(int64_t) * (size_t)(n + 1));
  for (int64_t j = 0; j < nnz; j++) {
    RT_TICK();
    cnt[int_at(&s.ix, j) + 1]++;
  }
  for (int64_t i = 0; i < n; i++) {
    RT_TICK();
    cnt[i + 1] += cnt[i];
  }
  for (int64_t i = 0; i <= n; i++) {
    RT_TICK();
    rt_elem_set(op, s.ptr.dt, i, rt_scalar_from_i64(s.ptr.dt, cnt[i]));
  }
  size_t esize = rt_dtype_size(s.d.dt);
  for (int64_t row = 0; row < n; row++) {
    RT_TICK();
    for (int64_t j = int_at(&s.ptr, row); j < int_at(&s.ptr, row + 1); j++) {
      RT_TICK();
      int64_t dest = cnt[int_at(&s.ix, j)]++;
      rt_elem_set(oi, s.ix.dt, dest, rt_scalar_from_i64(s.ix.dt, row));
      copy_elem(od, dest, s.d.data, j, esize);
    }
  }
  RtValue f[3] = {rt_result_value(&r0), rt_result_value(&r1), rt_result_value(&r2)};
  return rt_tuple_value(3, f);
}

/* topi's sparse_add: the dense matrix plus each CSR entry (repeated entries add up). */
static RtValue sparse_add(const RtValue *args, const RtSite *site) {
  RtOperand w;
  rt_operand(&w, args[0]);
  Sparse s;
  sparse_read(&s, args + 1, w.shape[1], IR_OP_NN_SPARSE_ADD, site);
  if (s.nrow != w.shape[0]) rt_error(site->expr, "nn.sparse_add: the sparse matrix has %lld rows, the dense one %lld", (long long)s.nrow, (long long)w.shape[0]);
  RtResult res;
  void *out = rt_result_init(&res, w.dt, 2, w.shape);
  rt_copy(site, out, w.data, (size_t)w.count * rt_dtype_size(w.dt));
  RtValue one = rt_scalar_from_i64(w.dt, 1);
  int64_t tick = 0;
  for (int64_t r = 0; r < s.nrow; r++) {
    RT_TICK();
    for (int64_t j = int_at(&s.ptr, r); j < int_at(&s.ptr, r + 1); j++) {
      RT_TICK();
      int64_t o = r * w.shape[1] + int_at(&s.ix, j);
      rt_elem_set(out, w.dt, o, mul_add(w.dt, rt_elem_get(out, w.dt, o), rt_elem_get(s.d.data, s.d.dt, j), one));
    }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- random: topi's Threefry (python/tvm/topi/random/kernel.py) */

static const int tf_rot[8][2] = {{14, 16}, {52, 57}, {23, 40}, {5, 37}, {25, 33}, {46, 12}, {58, 22}, {32, 32}};
static const int tf_perm[4] = {0, 3, 2, 1};

/* topi's _threefry with 4 words and 20 rounds: block l of out is Threefry(key, counter + l), where
 * l is added to every counter word; a key injection before each 4 rounds, none after the last (as topi). */
static void threefry(const uint64_t key[4], const uint64_t counter[4], uint64_t *out, uint64_t nblocks) {
  uint64_t full[5];
  full[4] = 0x1BD11BDAA9FC1A22ull;
  for (int i = 0; i < 4; i++) full[i] = key[i], full[4] ^= key[i];
  for (uint64_t l = 0; l < nblocks; l++) {
    if ((l & 1023) == 0) rt_poll(NULL); /* a block is about 300 operations */
    uint64_t x[4], t[4];
    for (int j = 0; j < 4; j++) x[j] = counter[j] + l;
    for (int i = 0; i < 5; i++) {
      for (int j = 0; j < 4; j++) x[j] += full[(i + j) % 5] + (j == 3 ? (uint64_t)i : 0);
      for (int k = 0; k < 4; k++) {
        for (int j = 0; j < 2; j++) {
          int rot = tf_rot[(i * 4 + k) % 8][j];
          uint64_t a = x[2 * j], b = x[2 * j + 1], y = a + b;
          x[2 * j] = y;
          x[2 * j + 1] = y ^ ((b << rot) | (b >> (64 - rot)));
        }
        for (int j = 0; j < 4; j++) t[j] = x[tf_perm[j]];
        memcpy(x, t, sizeof x);
      }
    }
    memcpy(out + l * 4, x, sizeof x);
  }
}

/* topi's _shift_right of the 128-bit (a, b). */
static void tf_shift_right(uint64_t a, uint64_t b, uint64_t *oa, uint64_t *ob) {
  if (a == 1) *oa = 0, *ob = 0x8000000000000000ull;
  else if (a == 0) *oa = 0, *ob = b >> 1;
  else *oa = a >> 1, *ob = 0;
}

static void key_read(const RtValue *arg, uint64_t g[10], IrOpId op, const RtSite *site) {
  RtOperand k;
  rt_operand(&k, *arg);
  if (k.count != 10 || k.dt.code != IR_DT_UINT || k.dt.bits != 64) rt_error(site->expr, "%s: the key is not a (10) uint64 tensor", ir_ops[op].name);
  memcpy(g, k.data, sizeof(uint64_t) * 10);
}

static RtValue key_value(const uint64_t g[10]) {
  RtResult r;
  int64_t ten[1] = {10};
  uint64_t *p = rt_result_init(&r, IR_DTYPE(IR_DT_UINT, 64), 1, ten);
  memcpy(p, g, sizeof(uint64_t) * 10);
  return rt_result_value(&r);
}

/* topi's threefry_generate: n random words into out, the new key into ng. The test "gen[8] == 0 and
 * gen[9] == 0" of topi is, as TVM builds it (Python's `and` on a TIR comparison), gen[8] == 0 alone. */
static void threefry_generate(const uint64_t g[10], uint64_t n, uint64_t *out, uint64_t ng[10]) {
  uint64_t t[10];
  if (g[7] < UINT64_MAX - n) {
    memcpy(t, g, sizeof t);
  } else if (g[8] == 0) {
    uint64_t c[4] = {UINT64_MAX, UINT64_MAX, 0, 0}, o[4];
    /* topi's tmp_counter has 2 words; _threefry reads 4 (the rest of the allocation: taken as 0). */
    threefry(g, c, o, 1);
    for (int i = 0; i < 4; i++) t[i] = o[i];
    t[4] = t[5] = t[6] = t[7] = 0;
    t[8] = 1ull << 63;
    t[9] = 0;
  } else {
    for (int i = 0; i < 4; i++) t[i] = g[i];
    t[4] = g[4] | g[8];
    t[5] = g[5] | g[9];
    t[6] = t[7] = 0;
    tf_shift_right(g[8], g[9], &t[8], &t[9]);
  }
  if (n >= 4) threefry(t, t + 4, out, n / 4);
  if (n % 4) {
    uint64_t rem[4];
    t[7] += n / 4 * 4;
    threefry(t, t + 4, rem, 1);
    for (uint64_t i = 0; i < n % 4; i++) out[n / 4 * 4 + i] = rem[i];
  }
  for (int i = 0; i < 6; i++) ng[i] = t[i];
  ng[6] = 0;
  ng[7] = t[7] + (n % 4 ? 4 : n);
  ng[8] = t[8];
  ng[9] = t[9];
}

static int64_t out_shape_of(const IrOpAttrs *at, int64_t *shape, int *rank, IrOpId op, const RtSite *site) {
  const IrAttrValue *a = ir_attr_at(at, IR_A_OUT_SHAPE);
  *rank = a->given && !a->none ? a->n : 0;
  check_rank(site, op, *rank + 1);
  int64_t n = 1;
  for (int i = 0; i < *rank; i++) {
    shape[i] = a->ints[i];
    if (shape[i] < 0 || __builtin_mul_overflow(n, shape[i], &n) || n > ((int64_t)1 << 40))
      rt_error(site->expr, "%s: out_shape is too large", ir_ops[op].name);
  }
  return n;
}

static RtValue random_generate(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  uint64_t g[10], ng[10];
  key_read(&args[0], g, IR_OP_RANDOM_THREEFRY_GENERATE, site);
  int64_t shape[RT_MAX_RANK];
  int rank;
  int64_t n = out_shape_of(at, shape, &rank, IR_OP_RANDOM_THREEFRY_GENERATE, site);
  RtResult r;
  uint64_t *out = rt_result_init(&r, IR_DTYPE(IR_DT_UINT, 64), rank, shape);
  threefry_generate(g, (uint64_t)n, out, ng);
  RtValue f[2] = {key_value(ng), rt_result_value(&r)};
  return rt_tuple_value(2, f);
}

static RtValue random_split(const RtValue *args, const RtSite *site) {
  uint64_t g[10], L[10], R[10];
  key_read(&args[0], g, IR_OP_RANDOM_THREEFRY_SPLIT, site);
  if (g[8] == 0) { /* topi's "gen[8] == 0 and gen[9] == 0", as TVM builds it */
    threefry(g, g + 4, L, 1);
    L[4] = L[5] = L[6] = L[7] = 0;
    L[8] = 1ull << 62;
    L[9] = 0;
    memcpy(R, L, sizeof R);
    R[4] = 1ull << 63;
  } else {
    memcpy(L, g, sizeof L);
    tf_shift_right(g[8], g[9], &L[8], &L[9]);
    memcpy(R, L, sizeof R);
    R[4] = g[4] | g[8];
    R[5] = g[5] | g[9];
  }
  RtValue f[2] = {key_value(L), key_value(R)};
  return rt_tuple_value(2, f);
}

/* topi's uniform: n samples of [0, 1) from the words' top fraction bits (the low 32 bits of each word
 * for float32), times (high - low) plus low, in the dtype. */
static void uniform_fill(const uint64_t g[10], uint64_t n, IrDType dt, double low, double high, void *out, uint64_t ng[10]) {
  uint64_t *bits = rt_alloc_atomic(sizeof(uint64_t) * (size_t)(n ? n : 1));
  threefry_generate(g, n, bits, ng);
  if (dt.bits == 32) {
    float lo = (float)low, d = (float)high - lo;
    for (uint64_t i = 0; i < n; i++) {
      rt_poll_every(NULL, (int64_t)i);
      uint32_t m = ((uint32_t)bits[i] >> 9) | (127u << 23);
      float u;
      memcpy(&u, &m, 4);
      u -= 1.0f;
      volatile float p = u * d;
      ((float *)out)[i] = p + lo;
    }
  } else {
    double d = high - low;
    for (uint64_t i = 0; i < n; i++) {
      rt_poll_every(NULL, (int64_t)i);
      uint64_t m = (bits[i] >> 12) | (1023ull << 52);
      double u;
      memcpy(&u, &m, 8);
      u -= 1.0;
      volatile double p = u * d;
      ((double *)out)[i] = p + low;
    }
  }
}

static RtValue random_uniform(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  uint64_t g[10], ng[10];
  key_read(&args[0], g, op, site);
  IrDType dt = ir_attr_dtype(at, IR_A_OUT_DTYPE, IR_DTYPE(IR_DT_FLOAT, 32));
  if (dt.code != IR_DT_FLOAT || (dt.bits != 32 && dt.bits != 64)) rt_error(site->expr, "%s: out_dtype is not float32 or float64", ir_ops[op].name);
  double a = rt_scalar_f64(args[1]), b = rt_scalar_f64(args[2]);
  int64_t shape[RT_MAX_RANK];
  int rank;
  int64_t n = out_shape_of(at, shape, &rank, op, site);
  RtResult r;
  void *out = rt_result_init(&r, dt, rank, shape);
  if (op == IR_OP_RANDOM_UNIFORM) {
    uniform_fill(g, (uint64_t)n, dt, a, b, out, ng);
  } else {
    /* topi's normal: uniform (2, out_shape) in [0, 1), Box-Muller's sqrt(-2 log(1 - u0)) sin(2 pi u1),
     * times scale plus mean, each step in the dtype. */
    void *u = rt_alloc_atomic((size_t)(n > 0 ? 2 * n : 1) * (dt.bits / 8));
    uniform_fill(g, (uint64_t)(2 * n), dt, 0.0, 1.0, u, ng);
    for (int64_t i = 0; i < n; i++) {
      rt_poll_every(site, i);
      if (dt.bits == 32) {
        float u0 = 1.0f - ((float *)u)[i], u1 = ((float *)u)[n + i];
        volatile float s = sqrtf(-2.0f * logf(u0)), sn = sinf((float)(2.0 * M_PI) * u1);
        volatile float v = s * sn;
        volatile float w = v * (float)b;
        ((float *)out)[i] = w + (float)a;
      } else {
        double u0 = 1.0 - ((double *)u)[i], u1 = ((double *)u)[n + i];
        volatile double s = sqrt(-2.0 * log(u0)), sn = sin(2.0 * M_PI * u1);
        volatile double v = s * sn;
        volatile double w = v * b;
        ((double *)out)[i] = w + a;
      }
    }
  }
  RtValue f[2] = {key_value(ng), rt_result_value(&r)};
  return rt_tuple_value(2, f);
}

/* topi's multinomial: probabilities as float32, negatives clipped to 0, normalized by their sum along
 * the last axis and summed up; each float32 uniform sample picks the first index whose cumulative
 * probability exceeds it (the argmin of the positive differences; the first index when none is). */
static RtValue random_multinomial(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  uint64_t g[10], ng[10];
  key_read(&args[0], g, IR_OP_RANDOM_MULTINOMIAL, site);
  RtOperand p;
  rt_operand(&p, args[1]);
  if (p.rank < 1) rt_error(site->expr, "random.multinomial takes probabilities of rank 1 or more");
  check_rank(site, IR_OP_RANDOM_MULTINOMIAL, p.rank);
  int64_t ns = ir_attr_int(at, IR_A_NUM_SAMPLES, 1), k = p.shape[p.rank - 1];
  int64_t rows = k ? p.count / k : span_count(p.shape, 0, p.rank - 1);
  if (ns < 0 || ns > ((int64_t)1 << 32)) rt_error(site->expr, "random.multinomial: num_samples=%lld is out of range", (long long)ns);
  int64_t shape[RT_MAX_RANK], n = rt_mul_sat(rows, ns);
  if (n > ((int64_t)1 << 40)) rt_error(site->expr, "random.multinomial: too many samples");
  for (int i = 0; i < p.rank - 1; i++) shape[i] = p.shape[i];
  shape[p.rank - 1] = ns;
  float *u = rt_alloc_atomic(sizeof(float) * (size_t)(n ? n : 1)), *cum = rt_alloc_atomic(sizeof(float) * (size_t)(k ? k : 1));
  uniform_fill(g, (uint64_t)n, IR_DTYPE(IR_DT_FLOAT, 32), 0.0, 1.0, u, ng);
  RtResult r;
  int32_t *out = rt_result_init(&r, IR_DTYPE(IR_DT_INT, 32), p.rank, shape);
  int64_t tick = 0;
  for (int64_t row = 0; row < rows; row++) {
    volatile float sum = 0;
    RT_TICK();
    for (int64_t j = 0; j < k; j++) {
      RT_TICK();
      float v = (float)rt_scalar_f64(rt_elem_get(p.data, p.dt, row * k + j));
      sum = sum + (v > 0 ? v : 0);
    }
    volatile float c = 0;
    for (int64_t j = 0; j < k; j++) {
      RT_TICK();
      float v = (float)rt_scalar_f64(rt_elem_get(p.data, p.dt, row * k + j));
      volatile float q = (v > 0 ? v : 0) / sum;
      c = c + q;
      cum[j] = c;
    }
    for (int64_t s = 0; s < ns; s++) {
      float us = u[row * ns + s], best = 0;
      int64_t bi = 0;
      RT_TICK();
      for (int64_t j = 0; j < k; j++) {
        RT_TICK();
        volatile float d = cum[j] - us;
        float v = d > 0 ? d : 1.0f;
        if (j == 0 || v < best) best = v, bi = j;
      }
      out[row * ns + s] = (int32_t)bi;
    }
  }
  RtValue f[2] = {key_value(ng), rt_result_value(&r)};
  return rt_tuple_value(2, f);
}

/* ---------------------------------------------------------------- dft, stft (topi's signal.py) */

/* x + y * z in the dtype (float32 products and sums rounded to float32). */
static double in_dtype(IrDType dt, double v) { return dt.bits == 32 ? (double)(float)v : v; }

/* topi's dft along the last axis: out[n] = sum_k x[k] e^(-+2 pi i n k / N), in k order, in the dtype
 * (cos and sin of the angle rounded to it); the inverse divides by N. The angle in double (TVM's
 * is a float32 expression). */
static RtValue dft(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand re, im;
  rt_operand(&re, args[0]);
  rt_operand(&im, args[1]);
  if (re.rank < 1 || re.count != im.count || re.dt.bits != im.dt.bits) rt_error(site->expr, "dft: the real and imaginary parts differ");
  bool inv = ir_attr_bool(at, IR_A_INVERSE, false);
  int64_t n = re.shape[re.rank - 1], rows = n ? re.count / n : 0;
  RtResult r0, r1;
  void *ore = rt_result_init(&r0, re.dt, re.rank, re.shape), *oim = rt_result_init(&r1, re.dt, re.rank, re.shape);
  IrDType dt = re.dt;
  double sign = inv ? -1 : 1, factor = in_dtype(dt, inv ? 1.0 / (double)n : 1.0);
  int64_t tick = 0;
  for (int64_t b = 0; b < rows; b++)
    for (int64_t q = 0; q < n; q++) {
      double sr = 0, si = 0, w0 = sign * -2 * M_PI * (double)q / (double)n;
      for (int64_t k = 0; k < n; k++) {
        RT_TICK();
        double w = w0 * (double)k, c = in_dtype(dt, cos(w)), s = in_dtype(dt, sin(w));
        double xr = rt_scalar_f64(rt_elem_get(re.data, dt, b * n + k)), xi = rt_scalar_f64(rt_elem_get(im.data, dt, b * n + k));
        sr = in_dtype(dt, sr + in_dtype(dt, in_dtype(dt, xr * c) - in_dtype(dt, xi * s)));
        si = in_dtype(dt, si + in_dtype(dt, in_dtype(dt, xr * s) + in_dtype(dt, xi * c)));
      }
      rt_elem_set(ore, dt, b * n + q, rt_scalar_from_f64(dt, in_dtype(dt, sr * factor)));
      rt_elem_set(oim, dt, b * n + q, rt_scalar_from_f64(dt, in_dtype(dt, si * factor)));
    }
  RtValue f[2] = {rt_result_value(&r0), rt_result_value(&r1)};
  return rt_tuple_value(2, f);
}

/* topi's stft: out[b, f, t] = sum_w window[w] x[b, t * hop + w] (cos, -sin)(2 pi f w / win_length),
 * in w order in the dtype, divided by sqrt(n_fft) when normalized. */
static RtValue stft(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x, win;
  rt_operand(&x, args[0]);
  rt_operand(&win, args[1]);
  IrDType dt = x.dt;
  int64_t n_fft = ir_attr_int(at, IR_A_N_FFT, -1), hop = ir_attr_int(at, IR_A_HOP_LENGTH, -1), wl = ir_attr_int(at, IR_A_WIN_LENGTH, -1);
  if (x.rank < 1 || x.rank > 2 || n_fft < 1 || hop < 1 || wl < 1 || wl > n_fft || win.count != wl)
    rt_error(site->expr, "stft: the data, window or attributes do not fit");
  int64_t L = x.shape[x.rank - 1], B = x.rank == 2 ? x.shape[0] : 1;
  if (L < n_fft)
    rt_error(site->expr, "stft: the data's length %lld is shorter than n_fft=%lld", (long long)L, (long long)n_fft);
  int64_t F = ir_attr_bool(at, IR_A_ONESIDED, true) ? n_fft / 2 + 1 : n_fft, T = (L - n_fft) / hop + 1;
  bool norm = ir_attr_bool(at, IR_A_NORMALIZED, false);
  int64_t shape[4];
  int m = 0;
  if (x.rank == 2) shape[m++] = B;
  shape[m++] = F;
  shape[m++] = T;
  shape[m++] = 2;
  RtResult r;
  void *out = rt_result_init(&r, dt, m, shape);
  double sq = in_dtype(dt, sqrt((double)(float)n_fft));
  int64_t tick = 0;
  for (int64_t b = 0; b < B; b++)
    for (int64_t f = 0; f < F; f++)
      for (int64_t t = 0; t < T; t++) {
        double re = 0, im = 0;
        for (int64_t w = 0; w < wl; w++) {
          RT_TICK();
          double a = 2 * M_PI * (double)f * (double)w / (double)wl;
          double p = in_dtype(dt, rt_scalar_f64(rt_elem_get(win.data, dt, w)) * rt_scalar_f64(rt_elem_get(x.data, dt, b * L + t * hop + w)));
          re = in_dtype(dt, re + in_dtype(dt, p * in_dtype(dt, cos(a))));
          im = in_dtype(dt, im - in_dtype(dt, p * in_dtype(dt, sin(a))));
        }
        if (norm) re = in_dtype(dt, re / sq), im = in_dtype(dt, im / sq);
        int64_t o = ((b * F + f) * T + t) * 2;
        rt_elem_set(out, dt, o, rt_scalar_from_f64(dt, re));
        rt_elem_set(out, dt, o + 1, rt_scalar_from_f64(dt, im));
      }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- nn.correlation (topi's correlation_nchw) */

/* out[n, q, i, j] = sum over c, ky, kx (in that order, in the dtype) of f(p1[n, c, y1 + ky, x1 + kx],
 * p2[n, c, y2 + ky, x2 + kx]) / (k * k * C): p1, p2 the data zero-padded (beyond as well, as topi's pad
 * reads), y1 = i * stride1 + max_displacement, y2 = y1 + (q / D - r) * stride2, f a product or |a - b|. */
static RtValue correlation(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a, b;
  rt_operand(&a, args[0]);
  rt_operand(&b, args[1]);
  if (a.rank != 4 || b.rank != 4 || a.count != b.count) rt_error(site->expr, "nn.correlation: the data differ");
  IrDType dt = a.dt;
  int64_t k = ir_attr_int(at, IR_A_KERNEL_SIZE, 1), md = ir_attr_int(at, IR_A_MAX_DISPLACEMENT, 1),
          s1 = ir_attr_int(at, IR_A_STRIDE1, 1), s2 = ir_attr_int(at, IR_A_STRIDE2, 1), pad[4];
  ir_attr_padding(at, pad);
  bool mul = ir_attr_bool(at, IR_A_IS_MULTIPLY, true);
  int64_t N = a.shape[0], C = a.shape[1], H = a.shape[2], W = a.shape[3];
  int64_t border = md + (k - 1) / 2, rad = md / s2, D = 2 * rad + 1;
  /* in 128 bits: the size and stride1 may be near int64's end (the relation bounded the rest) */
  /* ceil((H + pads - 2 border) / stride1) where that is 1 or more: a window of 2 border + 1 (the relation's) */
  int64_t OH = rt_window_positions(site, IR_OP_NN_CORRELATION, H, 2 * border + 1, 1, s1, pad[0], pad[2], false),
          OW = rt_window_positions(site, IR_OP_NN_CORRELATION, W, 2 * border + 1, 1, s1, pad[1], pad[3], false);
  int64_t shape[4] = {N, D * D, OH, OW};
  RtResult r;
  void *out = rt_result_init(&r, dt, 4, shape);
  double div = (double)(k * k * C);
  int64_t tick = 0;
  for (int64_t n = 0; n < N; n++)
    for (int64_t q = 0; q < D * D; q++)
      for (int64_t i = 0; i < OH; i++)
        for (int64_t j = 0; j < OW; j++) {
          RT_TICK();
          int64_t y1 = i * s1 + md, x1 = j * s1 + md, y2 = y1 + (q / D - rad) * s2, x2 = x1 + (q % D - rad) * s2;
          double acc = 0;
          for (int64_t c = 0; c < C; c++)
            for (int64_t ky = 0; ky < k; ky++)
              for (int64_t kx = 0; kx < k; kx++) {
                RT_TICK();
                int64_t ya = y1 + ky - pad[0], xa = x1 + kx - pad[1], yb = y2 + ky - pad[0], xb = x2 + kx - pad[1];
                double u = ya >= 0 && ya < H && xa >= 0 && xa < W ? rt_scalar_f64(rt_elem_get(a.data, dt, ((n * C + c) * H + ya) * W + xa)) : 0;
                double v = yb >= 0 && yb < H && xb >= 0 && xb < W ? rt_scalar_f64(rt_elem_get(b.data, dt, ((n * C + c) * H + yb) * W + xb)) : 0;
                acc = in_dtype(dt, acc + (mul ? in_dtype(dt, u * v) : fabs(in_dtype(dt, u - v))));
              }
          rt_elem_set(out, dt, ((n * D * D + q) * OH + i) * OW + j, rt_scalar_from_f64(dt, in_dtype(dt, acc / in_dtype(dt, div))));
        }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- image.dilation2d (topi's dilation2d_nchw, _nhwc) */

/* out[n, c, y, x] = max over ry, rx of pad(data)[n, c, y * sh + ry * dh - top, x * sw + rx * dw - left]
 * + weight[c, ry, rx], both converted to out_dtype and added in it; the padding reads 0 (topi's pad). */
static RtValue dilation2d(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand d, w;
  rt_operand(&d, args[0]);
  rt_operand(&w, args[1]);
  const IrAttrValue *dla = ir_attr_at(at, IR_A_DATA_LAYOUT), *kla = ir_attr_at(at, IR_A_KERNEL_LAYOUT);
  bool nhwc = dla->given && !dla->none && !strcmp(dla->str, "NHWC"), hwi = kla->given && !kla->none && !strcmp(kla->str, "HWI");
  if (d.rank != 4 || w.rank != 3) rt_error(site->expr, "image.dilation2d: the data or weight has the wrong rank");
  IrDType odt = ir_attr_dtype(at, IR_A_OUT_DTYPE, d.dt);
  int64_t st[2], dil[2], pad[4];
  ir_attr_pair(at, IR_A_STRIDES, 1, st);
  ir_attr_pair(at, IR_A_DILATIONS, 1, dil);
  ir_attr_padding(at, pad);
  int64_t N = d.shape[0], C = d.shape[nhwc ? 3 : 1], H = d.shape[nhwc ? 1 : 2], W = d.shape[nhwc ? 2 : 3];
  int64_t KH = w.shape[hwi ? 0 : 1], KW = w.shape[hwi ? 1 : 2];
  if (w.shape[hwi ? 2 : 0] != C) rt_error(site->expr, "image.dilation2d: the weight's channels differ from the data's");
  int64_t OH = rt_window_positions(site, IR_OP_IMAGE_DILATION2D, H, KH, dil[0], st[0], pad[0], pad[2], false),
          OW = rt_window_positions(site, IR_OP_IMAGE_DILATION2D, W, KW, dil[1], st[1], pad[1], pad[3], false);
  int64_t shape[4] = {N, nhwc ? OH : C, nhwc ? OW : OH, nhwc ? C : OW};
  RtResult r;
  void *out = rt_result_init(&r, odt, 4, shape);
  bool fl = odt.code == IR_DT_FLOAT;
  RtValue zero = rt_convert(rt_scalar_from_i64(IR_DTYPE(IR_DT_INT, 64), 0), odt);
  int64_t tick = 0;
  if (C == 0 || OH == 0 || OW == 0) N = 0; /* an empty result: the batch may be long over no channels */
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < C; c++)
      for (int64_t y = 0; y < OH; y++)
        for (int64_t x = 0; x < OW; x++) {
          RtValue best = zero;
          RT_TICK();
          for (int64_t ry = 0; ry < KH; ry++)
            for (int64_t rx = 0; rx < KW; rx++) {
              RT_TICK();
              int64_t iy = y * st[0] + ry * dil[0] - pad[0], ix = x * st[1] + rx * dil[1] - pad[1];
              RtValue a = iy >= 0 && iy < H && ix >= 0 && ix < W
                              ? rt_convert(rt_elem_get(d.data, d.dt, nhwc ? ((n * H + iy) * W + ix) * C + c : ((n * C + c) * H + iy) * W + ix), odt)
                              : zero;
              RtValue b = rt_convert(rt_elem_get(w.data, w.dt, hwi ? (ry * KW + rx) * C + c : (c * KH + ry) * KW + rx), odt);
              RtValue v = fl ? rt_scalar_from_f64(odt, rt_scalar_f64(a) + rt_scalar_f64(b))
                             : rt_scalar_from_i64(odt, (int64_t)((uint64_t)rt_scalar_i64(a) + (uint64_t)rt_scalar_i64(b)));
              bool more = fl ? (rt_scalar_f64(v) > rt_scalar_f64(best) || isnan(rt_scalar_f64(v)))
                             : (odt.code == IR_DT_UINT ? v.u.u > best.u.u : rt_scalar_i64(v) > rt_scalar_i64(best));
              if ((ry == 0 && rx == 0) || more) best = v;
            }
          rt_elem_set(out, odt, nhwc ? ((n * OH + y) * OW + x) * C + c : ((n * C + c) * OH + y) * OW + x, best);
        }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- nn.fifo_buffer */

/* concatenate((buffer, data), axis) without its first data.shape[axis] along the axis: the buffer's shape. */
static RtValue fifo_buffer(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand d, b;
  rt_operand(&d, args[0]);
  rt_operand(&b, args[1]);
  if (d.rank != b.rank || b.rank < 1 || d.dt.bits != b.dt.bits) rt_error(site->expr, "nn.fifo_buffer: the data and buffer differ");
  int axis = rt_axis(site, IR_OP_NN_FIFO_BUFFER, ir_attr_int(at, IR_A_AXIS, 0), b.rank);
  for (int i = 0; i < b.rank; i++)
    if (i != axis && d.shape[i] != b.shape[i])
      rt_error(site->expr, "nn.fifo_buffer: the data and buffer differ off the axis");
  int64_t n = d.shape[axis], m = b.shape[axis];
  if (n >= m) rt_error(site->expr, "nn.fifo_buffer: the data is not shorter than the buffer along axis %d", axis);
  int64_t outer = span_count(b.shape, 0, axis), inner = span_count(b.shape, axis + 1, b.rank);
  size_t es = rt_dtype_size(b.dt);
  RtResult r;
  char *out = rt_result_init(&r, b.dt, b.rank, b.shape);
  int64_t left = 0;
  for (int64_t o = 0; o < outer && inner; o++) {
    rt_poll_work(site, &left, m * inner + 8);
    rt_copy(site, out + (size_t)(o * m * inner) * es, (const char *)b.data + (size_t)((o * m + n) * inner) * es, (size_t)((m - n) * inner) * es);
    rt_copy(site, out + (size_t)((o * m + m - n) * inner) * es, (const char *)d.data + (size_t)(o * n * inner) * es, (size_t)(n * inner) * es);
  }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- nn.deformable_conv2d (topi's deformable_conv2d_nchw) */

/* Each input position of the window moved by its offset (dy, dx) (per deformable group), sampled
 * bilinearly (0 outside the data and for corners outside it), then the grouped convolution's sum in
 * out_dtype (floats accumulated in double, rounded once). */
static RtValue deformable_conv2d(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x, off, w;
  rt_operand(&x, args[0]);
  rt_operand(&off, args[1]);
  rt_operand(&w, args[2]);
  if (x.rank != 4 || off.rank != 4 || w.rank != 4) rt_error(site->expr, "nn.deformable_conv2d: the data, offset or weight is not 4-d");
  IrDType odt = ir_attr_dtype(at, IR_A_OUT_DTYPE, x.dt);
  int64_t st[2], dil[2], pad[4], G = ir_attr_int(at, IR_A_GROUPS, 1), DG = ir_attr_int(at, IR_A_DEFORMABLE_GROUPS, 1);
  ir_attr_pair(at, IR_A_STRIDES, 1, st);
  ir_attr_pair(at, IR_A_DILATION, 1, dil);
  ir_attr_padding(at, pad);
  int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3], O = w.shape[0], KH = w.shape[2], KW = w.shape[3];
  if (G < 1 || DG < 1 || C % G || C % DG || O % G || w.shape[1] != C / G) rt_error(site->expr, "nn.deformable_conv2d: the channels do not fit the groups");
  /* The weight's sizes and DG are data, not bounded attributes: sizes in checked arithmetic. */
  if ((KH > 0 && dil[0] > INT64_MAX / KH) || (KW > 0 && dil[1] > INT64_MAX / KW))
    rt_error(site->expr, "nn.deformable_conv2d: the window's sizes pass int64");
  int64_t OH = rt_window_positions(site, IR_OP_NN_DEFORMABLE_CONV2D, H, KH, dil[0], st[0], pad[0], pad[2], false);
  int64_t OW = rt_window_positions(site, IR_OP_NN_DEFORMABLE_CONV2D, W, KW, dil[1], st[1], pad[1], pad[3], false);
  if (off.shape[0] != N || off.shape[1] != rt_mul_sat(rt_mul_sat(rt_mul_sat(KH, KW), DG), 2) || off.shape[2] != OH ||
      off.shape[3] != OW)
    rt_error(site->expr, "nn.deformable_conv2d: the offset's shape does not fit");
  int64_t shape[4] = {N, O, OH, OW}, cg = C / G, og = O / G, cdg = C / DG;
  RtResult r;
  void *out = rt_result_init(&r, odt, 4, shape);
  int64_t ncol = rt_mul_sat(rt_mul_sat(C, KH), KW);
  if (ncol > ((int64_t)1 << 40)) rt_error(site->expr, "nn.deformable_conv2d: the window is too large");
  double *col = rt_alloc_atomic(sizeof(double) * (size_t)(ncol > 0 ? ncol : 1));
  int64_t tick = 0;
  for (int64_t n = 0; n < N; n++)
    for (int64_t oy = 0; oy < OH; oy++)
      for (int64_t ox = 0; ox < OW; ox++) {
        RT_TICK();
        for (int64_t c = 0; c < C; c++)
          for (int64_t ky = 0; ky < KH; ky++)
            for (int64_t kx = 0; kx < KW; kx++) {
              RT_TICK();
              int64_t g = c / cdg, ch = ((g * KH + ky) * KW + kx) * 2;
              double dy = rt_scalar_f64(rt_elem_get(off.data, off.dt, ((n * off.shape[1] + ch) * OH + oy) * OW + ox));
              double dx = rt_scalar_f64(rt_elem_get(off.data, off.dt, ((n * off.shape[1] + ch + 1) * OH + oy) * OW + ox));
              double yy = (double)(oy * st[0] - pad[0] + ky * dil[0]) + dy, xx = (double)(ox * st[1] - pad[1] + kx * dil[1]) + dx, v = 0;
              if (yy >= 0 && yy < (double)H && xx >= 0 && xx < (double)W) {
                int64_t y0 = rt_f2index(floor(yy)), x0 = rt_f2index(floor(xx));
                double ly = yy - (double)y0, lx = xx - (double)x0;
                for (int a = 0; a < 2; a++)
                  for (int b = 0; b < 2; b++) {
                    int64_t py = y0 + a, px = x0 + b;
                    if (py < H && px < W)
                      v += (b ? lx : 1 - lx) * (a ? ly : 1 - ly) * rt_scalar_f64(rt_elem_get(x.data, x.dt, ((n * C + c) * H + py) * W + px));
                  }
              }
              col[(c * KH + ky) * KW + kx] = in_dtype(x.dt, v);
            }
        for (int64_t f = 0; f < O; f++) {
          int64_t g = f / og;
          double acc = 0;
          RT_TICK();
          for (int64_t rc = 0; rc < cg; rc++)
            for (int64_t k = 0; k < KH * KW; k++) {
              RT_TICK();
              acc += col[(g * cg + rc) * KH * KW + k] * rt_scalar_f64(rt_elem_get(w.data, w.dt, (f * cg + rc) * KH * KW + k));
            }
          rt_elem_set(out, odt, ((n * O + f) * OH + oy) * OW + ox, rt_scalar_from_f64(odt, acc));
        }
      }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- nn.conv2d_backward_weight */

/* dw[o, i, r, s] = sum over n, p, q of grad[n, o, p, q] * data[n, g * C/G + i, p * sh - top + r * dh,
 * q * sw - left + s * dw] (0 outside), g = o / (O / G); summed in double, rounded once. */
static RtValue conv2d_backward_weight(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  RtOperand gr, x;
  rt_operand(&gr, args[0]);
  rt_operand(&x, args[1]);
  if (gr.rank != 4 || x.rank != 4 || gr.shape[0] != x.shape[0]) rt_error(site->expr, "nn.conv2d_backward_weight: the grad and data do not fit");
  IrDType odt = ir_attr_dtype(at, IR_A_OUT_DTYPE, gr.dt);
  int64_t st[2], dil[2], pad[4], ks[2], G = ir_attr_int(at, IR_A_GROUPS, 1);
  ir_attr_pair(at, IR_A_STRIDES, 1, st);
  ir_attr_pair(at, IR_A_DILATION, 1, dil);
  ir_attr_padding(at, pad);
  ir_attr_pair(at, IR_A_KERNEL_SIZE, 1, ks);
  int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3], O = gr.shape[1], P = gr.shape[2], Q = gr.shape[3];
  if (G < 1 || C % G || O % G) rt_error(site->expr, "nn.conv2d_backward_weight: the channels do not fit the groups");
  int64_t ci = C / G, og = O / G, shape[4] = {O, ci, ks[0], ks[1]};
  RtResult r;
  void *out = rt_result_init(&r, odt, 4, shape);
  int64_t tick = 0;
  for (int64_t o = 0; o < O; o++)
    for (int64_t i = 0; i < ci; i++)
      for (int64_t a = 0; a < ks[0]; a++)
        for (int64_t b = 0; b < ks[1]; b++) {
          int64_t c = (o / og) * ci + i;
          double acc = 0;
          RT_TICK();
          for (int64_t n = 0; n < N; n++)
            for (int64_t p = 0; p < P; p++)
              for (int64_t q = 0; q < Q; q++) {
                RT_TICK();
                int64_t y = p * st[0] - pad[0] + a * dil[0], xx = q * st[1] - pad[1] + b * dil[1];
                if (y < 0 || y >= H || xx < 0 || xx >= W) continue;
                acc += rt_scalar_f64(rt_elem_get(gr.data, gr.dt, ((n * O + o) * P + p) * Q + q)) *
                       rt_scalar_f64(rt_elem_get(x.data, x.dt, ((n * C + c) * H + y) * W + xx));
              }
          rt_elem_set(out, odt, ((o * ci + i) * ks[0] + a) * ks[1] + b, rt_scalar_from_f64(odt, acc));
        }
  return rt_result_value(&r);
}

RtValue rt_kernel_data(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)nargs;
  const IrOpAttrs *at = site->attrs;
  switch (op) {
  case IR_OP_ONE_HOT: return one_hot(args, at, site);
  case IR_OP_GATHER: return gather(args, at, site);
  case IR_OP_GATHER_ND: return gather_nd(args, at, site);
  case IR_OP_SCATTER_ELEMENTS: return scatter_elements(args, at, site);
  case IR_OP_SCATTER_ND: return scatter_nd(args, at, site);
  case IR_OP_ARGSORT: case IR_OP_SORT: case IR_OP_TOPK: return sorting(op, args, at, site);
  case IR_OP_CUMSUM: case IR_OP_CUMPROD: return scan(op, args, at, site);
  case IR_OP_SEQUENCE_MASK: return sequence_mask(args, at, site);
  case IR_OP_INVERT_PERMUTATION: return invert_permutation(args, site);
  case IR_OP_UNRAVEL_INDEX: return unravel_index(args, site);
  case IR_OP_MATRIX_SET_DIAG: return matrix_set_diag(args, at, site);
  case IR_OP_SEARCHSORTED: return searchsorted(args, at, site);
  case IR_OP_ARGWHERE: return argwhere(args, site);
  case IR_OP_UNIQUE: return unique(args, at, site);
  case IR_OP_ADV_INDEX: return adv_index(args[0], site);
  case IR_OP_SPARSE_TO_DENSE: return sparse_to_dense(args, at, site);
  case IR_OP_SPARSE_RESHAPE: return sparse_reshape(args, site);
  case IR_OP_SPARSE_FILL_EMPTY_ROWS: return sparse_fill_empty_rows(args, site);
  case IR_OP_NN_SPARSE_DENSE: return sparse_dense(args, at, site);
  case IR_OP_NN_SPARSE_TRANSPOSE: return sparse_transpose(args, site);
  case IR_OP_NN_SPARSE_ADD: return sparse_add(args, site);
  case IR_OP_RANDOM_THREEFRY_GENERATE: return random_generate(args, at, site);
  case IR_OP_RANDOM_THREEFRY_SPLIT: return random_split(args, site);
  case IR_OP_RANDOM_UNIFORM: case IR_OP_RANDOM_NORMAL: return random_uniform(op, args, at, site);
  case IR_OP_RANDOM_MULTINOMIAL: return random_multinomial(args, at, site);
  case IR_OP_DFT: return dft(args, at, site);
  case IR_OP_STFT: return stft(args, at, site);
  case IR_OP_NN_CORRELATION: return correlation(args, at, site);
  case IR_OP_IMAGE_DILATION2D: return dilation2d(args, at, site);
  case IR_OP_NN_FIFO_BUFFER: return fifo_buffer(args, at, site);
  case IR_OP_NN_DEFORMABLE_CONV2D: return deformable_conv2d(args, at, site);
  case IR_OP_NN_CONV2D_BACKWARD_WEIGHT: return conv2d_backward_weight(args, at, site);
  default:
    UNREACHABLE("every operator ops.def gives this family has a case above");
    rt_error(site->expr, "the operator `%s` has no kernel", ir_ops[op].name);
  }
}
