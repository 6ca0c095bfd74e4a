/* The shape kernels: reshape and its relatives (expand_dims, squeeze, batch_flatten: the same data
 * under a new shape), transpose, broadcast_to and strided_slice (strided copies), concatenate,
 * stack and split (block copies), take, where, cast and shape_of. Data moves by element size, so
 * one loop serves every dtype. */
#include "runtime/kernel.h"

#include <string.h>

/* ---------------------------------------------------------------- helpers */

static RtValue tensor_value(RtTensor *t) { return (RtValue){.kind = RT_TENSOR, .u.t = t}; }

/* a's elements under a new shape of the same count: shared when a is a tensor (values never
 * change in place), copied when it is a scalar's buffer. */
static RtValue with_shape(const RtOperand *a, int rank, const int64_t *shape) {
  if (rank == 0) return rt_elem_get(a->data, a->dt, 0);
  if (a->rank == 0) {
    RtTensor *t = rt_tensor_new(a->dt, rank, shape);
    memcpy(t->data, a->data, rt_dtype_size(a->dt));
    return tensor_value(t);
  }
  RtTensor *t = rt_alloc(sizeof(RtTensor) + sizeof(int64_t) * (size_t)rank);
  t->dt = a->dt;
  t->rank = rank;
  t->count = a->count;
  t->data = (void *)a->data;
  memcpy(t->shape, shape, sizeof(int64_t) * (size_t)rank);
  return tensor_value(t);
}

static void strides_of(int rank, const int64_t *shape, int64_t *strides) {
  int64_t acc = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = acc;
    acc = rt_mul_sat(acc, shape[i]);
  }
}

/* out[i0, ..., ik] = in[base + sum(ij * strides[j])] for every index of `shape`. */
static void gather(void *out, const void *in, size_t esize, int rank, const int64_t *shape, int64_t base,
                   const int64_t *strides) {
  int64_t count = 1;
  for (int i = 0; i < rank; i++) count = rt_mul_sat(count, shape[i]);
  if (count == 0) return;
  if (rank == 0) {
    memcpy(out, (const char *)in + (size_t)base * esize, esize);
    return;
  }
  int64_t idx[RT_MAX_RANK] = {0}, off = base, inner = shape[rank - 1], step = strides[rank - 1];
  char *o = out;
  for (int64_t done = 0; done < count; done += inner) {
#define GATHER_ROW(T)                                                                                              \
  do {                                                                                                             \
    const T *src = (const T *)in + off;                                                                            \
    T *dst = (T *)o;                                                                                               \
    for (int64_t j = 0; j < inner; j++) dst[j] = src[j * step];                                                   \
  } while (0)
    switch (esize) {
    case 1: GATHER_ROW(uint8_t); break;
    case 2: GATHER_ROW(uint16_t); break;
    case 4: GATHER_ROW(uint32_t); break;
    default: GATHER_ROW(uint64_t); break;
    }
#undef GATHER_ROW
    o += (size_t)inner * esize;
    for (int k = rank - 2; k >= 0; k--) {
      off += strides[k];
      if (++idx[k] < shape[k]) break;
      off -= strides[k] * shape[k];
      idx[k] = 0;
    }
  }
}

static void check_rank(const IrExpr *e, IrOpId op, int rank) {
  if (rank > RT_MAX_RANK) rt_error(e, "%s: rank %d is beyond the %d supported", ir_ops[op].name, rank, RT_MAX_RANK);
}

static int64_t product(int n, const int64_t *d) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) p = rt_mul_sat(p, d[i]);
  return p;
}

/* ---------------------------------------------------------------- reshape and relatives */

static RtValue reshape(const RtOperand *a, const IrOpAttrs *at, const IrExpr *e) {
  const IrAttrValue *ns = &at->v[IR_A_NEWSHAPE];
  int64_t out[RT_MAX_RANK];
  int n = 0, src = 0, infer = -1;
  for (int j = 0; j < ns->n; j++) {
    int64_t v = ns->ints[j];
    if (n + 2 > RT_MAX_RANK) rt_error(e, "reshape: the new shape has too many dimensions");
    if (v > 0) out[n++] = v, src++;
    else if (v == 0) out[n++] = src < a->rank ? a->shape[src++] : 1;
    else if (v == -1) infer = n, out[n++] = 1, src++;
    else if (v == -2) while (src < a->rank && n < RT_MAX_RANK) out[n++] = a->shape[src++];
    else if (v == -3) {
      out[n++] = rt_mul_sat(a->shape[src], a->shape[src + 1]);
      src += 2;
    } else if (v == -4) {
      int64_t x = ns->ints[j + 1], y = ns->ints[j + 2], d = a->shape[src++];
      if (x == -1) x = y ? d / y : 0;
      if (y == -1) y = x ? d / x : 0;
      if (rt_mul_sat(x, y) != d) rt_error(e, "reshape: dimension %lld does not split into %lld x %lld", (long long)d, (long long)x, (long long)y);
      out[n++] = x;
      out[n++] = y;
      j += 2;
    }
  }
  if (infer >= 0) {
    int64_t known = product(n, out);
    if (known == 0 || a->count % known != 0)
      rt_error(e, "reshape: %s cannot take the shape %s with -1", rt_shape_text(a->rank, a->shape), rt_shape_text(n, out));
    out[infer] = a->count / known;
  }
  if (product(n, out) != a->count)
    rt_error(e, "reshape: the %lld elements of %s do not fit the shape %s", (long long)a->count,
             rt_shape_text(a->rank, a->shape), rt_shape_text(n, out));
  return with_shape(a, n, out);
}

static RtValue expand_dims(const RtOperand *a, const IrOpAttrs *at, const IrExpr *e) {
  int64_t axis = at->v[IR_A_AXIS].ints[0], num = ir_attr_int(at, IR_A_NUM_NEWAXIS, 1);
  if (axis < 0) axis += a->rank + 1;
  check_rank(e, IR_OP_EXPAND_DIMS, a->rank + (int)num);
  int64_t out[RT_MAX_RANK];
  int n = 0;
  for (int i = 0; i < axis; i++) out[n++] = a->shape[i];
  for (int i = 0; i < num; i++) out[n++] = 1;
  for (int i = (int)axis; i < a->rank; i++) out[n++] = a->shape[i];
  return with_shape(a, n, out);
}

static RtValue squeeze(const RtOperand *a, const IrOpAttrs *at, const IrExpr *e) {
  const IrAttrValue *ax = &at->v[IR_A_AXIS];
  bool drop[RT_MAX_RANK] = {false};
  if (!ax->given || ax->none) {
    for (int i = 0; i < a->rank; i++) drop[i] = a->shape[i] == 1;
  } else {
    for (int i = 0; i < ax->n; i++) {
      int k = rt_axis(e, IR_OP_SQUEEZE, ax->ints[i], a->rank);
      if (a->shape[k] != 1) rt_error(e, "squeeze: axis %d has dimension %lld, not 1", k, (long long)a->shape[k]);
      drop[k] = true;
    }
  }
  int64_t out[RT_MAX_RANK];
  int n = 0;
  for (int i = 0; i < a->rank; i++)
    if (!drop[i]) out[n++] = a->shape[i];
  return with_shape(a, n, out);
}

static RtValue batch_flatten(const RtOperand *a) {
  int64_t out[2] = {a->shape[0], product(a->rank - 1, a->shape + 1)};
  return with_shape(a, 2, out);
}

/* ---------------------------------------------------------------- strided copies */

static RtValue transpose(const RtOperand *a, const IrOpAttrs *at, const IrExpr *e) {
  int r = a->rank;
  check_rank(e, IR_OP_TRANSPOSE, r);
  const IrAttrValue *axes = &at->v[IR_A_AXES];
  int64_t in_strides[RT_MAX_RANK], shape[RT_MAX_RANK], strides[RT_MAX_RANK];
  strides_of(r, a->shape, in_strides);
  for (int i = 0; i < r; i++) {
    int k = !axes->given || axes->none ? r - 1 - i : rt_axis(e, IR_OP_TRANSPOSE, axes->ints[i], r);
    shape[i] = a->shape[k];
    strides[i] = in_strides[k];
  }
  RtResult res;
  void *out = rt_result_init(&res, a->dt, r, shape);
  gather(out, a->data, rt_dtype_size(a->dt), r, shape, 0, strides);
  return rt_result_value(&res);
}

static RtValue broadcast_to(const RtOperand *a, const IrOpAttrs *at, const IrExpr *e) {
  const IrAttrValue *to = &at->v[IR_A_SHAPE];
  int r = to->n;
  check_rank(e, IR_OP_BROADCAST_TO, r);
  if (r < a->rank) rt_error(e, "broadcast_to: %s has more dimensions than %s", rt_shape_text(a->rank, a->shape), rt_shape_text(r, to->ints));
  int64_t in_strides[RT_MAX_RANK], strides[RT_MAX_RANK];
  strides_of(a->rank, a->shape, in_strides);
  for (int i = 0; i < r; i++) {
    int k = i - (r - a->rank);
    int64_t d = k >= 0 ? a->shape[k] : 1;
    if (d != 1 && d != to->ints[i])
      rt_error(e, "broadcast_to: %s does not broadcast to %s", rt_shape_text(a->rank, a->shape), rt_shape_text(r, to->ints));
    strides[i] = d == 1 ? 0 : in_strides[k];
  }
  RtResult res;
  void *out = rt_result_init(&res, a->dt, r, to->ints);
  gather(out, a->data, rt_dtype_size(a->dt), r, to->ints, 0, strides);
  return rt_result_value(&res);
}

static RtValue strided_slice(const RtOperand *a, const IrOpAttrs *at, const IrExpr *e) {
  const IrAttrValue *b = &at->v[IR_A_BEGIN], *en = &at->v[IR_A_END], *s = &at->v[IR_A_STRIDES], *ax = &at->v[IR_A_AXES],
                    *mode = &at->v[IR_A_SLICE_MODE];
  bool size_mode = mode->given && !strcmp(mode->str, "size");
  int r = a->rank;
  check_rank(e, IR_OP_STRIDED_SLICE, r);
  int64_t in_strides[RT_MAX_RANK], shape[RT_MAX_RANK], strides[RT_MAX_RANK], base = 0;
  strides_of(r, a->shape, in_strides);
  for (int i = 0; i < r; i++) shape[i] = a->shape[i], strides[i] = in_strides[i];
  int n = ax->given && !ax->none ? ax->n : b->n;
  if (n > r) rt_error(e, "strided_slice: %d axes sliced, but the tensor has rank %d", n, r);
  for (int k = 0; k < n; k++) {
    int axis = ax->given && !ax->none ? rt_axis(e, IR_OP_STRIDED_SLICE, ax->ints[k], r) : k;
    int64_t stride = s->given && !s->none ? s->ints[s->n == 1 ? 0 : k] : 1;
    int64_t begin = b->ints[k], end = en->ints[en->n == 1 ? 0 : k], start;
    if (size_mode) end = end < 0 ? INT64_MAX : begin + end;
    int64_t len = ir_slice_length(a->shape[axis], begin, end, stride, &start);
    shape[axis] = len;
    if (len > 0) base += start * in_strides[axis];
    strides[axis] = in_strides[axis] * stride;
  }
  RtResult res;
  void *out = rt_result_init(&res, a->dt, r, shape);
  gather(out, a->data, rt_dtype_size(a->dt), r, shape, base, strides);
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- block copies */

static RtValue concatenate(RtValue tuple, const IrOpAttrs *at, const IrExpr *e, bool stack) {
  const RtTuple *t = tuple.u.tup;
  int n = t->n;
  RtOperand *ops = rt_alloc(sizeof(RtOperand) * (size_t)n);
  for (int i = 0; i < n; i++) rt_operand(&ops[i], t->f[i]);
  int r = ops[0].rank, rr = stack ? r + 1 : r;
  check_rank(e, stack ? IR_OP_STACK : IR_OP_CONCATENATE, rr);
  int axis = rt_axis(e, stack ? IR_OP_STACK : IR_OP_CONCATENATE, ir_attr_int(at, IR_A_AXIS, 0), rr);
  int64_t shape[RT_MAX_RANK];
  for (int d = 0, k = 0; d < rr; d++) shape[d] = stack && d == axis ? n : ops[0].shape[k++];
  if (!stack) shape[axis] = 0;
  for (int i = 0; i < n; i++) {
    if (ops[i].rank != r) rt_error(e, "%s: the tensors' ranks differ", stack ? "stack" : "concatenate");
    for (int d = 0; d < r; d++)
      if ((stack || d != axis) && ops[i].shape[d] != ops[0].shape[d])
        rt_error(e, "%s: the shapes %s and %s differ in dimension %d", stack ? "stack" : "concatenate",
                 rt_shape_text(r, ops[0].shape), rt_shape_text(r, ops[i].shape), d);
    if (!stack) shape[axis] += ops[i].shape[axis];
  }
  size_t esize = rt_dtype_size(ops[0].dt);
  int64_t outer = product(axis, shape);
  RtResult res;
  char *out = rt_result_init(&res, ops[0].dt, rr, shape);
  for (int64_t o = 0; o < outer; o++) {
    for (int i = 0; i < n; i++) {
      int64_t block = outer ? ops[i].count / outer : 0;
      memcpy(out, (const char *)ops[i].data + (size_t)(o * block) * esize, (size_t)block * esize);
      out += (size_t)block * esize;
    }
  }
  return rt_result_value(&res);
}

static RtValue split(const RtOperand *a, const IrOpAttrs *at, const IrExpr *e) {
  const IrAttrValue *ios = &at->v[IR_A_INDICES_OR_SECTIONS];
  int axis = rt_axis(e, IR_OP_SPLIT, ir_attr_int(at, IR_A_AXIS, 0), a->rank);
  int64_t dim = a->shape[axis];
  int pieces = ios->listed ? ios->n + 1 : (int)ios->ints[0];
  int64_t *lo = rt_alloc(sizeof(int64_t) * (size_t)(pieces + 1));
  for (int i = 0; i <= pieces; i++) {
    int64_t x;
    if (!ios->listed) {
      if (dim % pieces) rt_error(e, "split: %d sections do not divide dimension %lld evenly", pieces, (long long)dim);
      x = dim / pieces * i;
    } else {
      x = i == 0 ? 0 : i == pieces ? dim : ios->ints[i - 1];
    }
    lo[i] = x < dim ? x : dim;
  }
  size_t esize = rt_dtype_size(a->dt);
  int64_t outer = product(axis, a->shape), inner = product(a->rank - axis - 1, a->shape + axis + 1);
  RtValue *fields = rt_alloc(sizeof(RtValue) * (size_t)pieces);
  int64_t shape[RT_MAX_RANK];
  memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->rank);
  for (int p = 0; p < pieces; p++) {
    int64_t len = lo[p + 1] > lo[p] ? lo[p + 1] - lo[p] : 0;
    shape[axis] = len;
    RtTensor *t = rt_tensor_new(a->dt, a->rank, shape);
    for (int64_t o = 0; o < outer; o++)
      memcpy((char *)t->data + (size_t)(o * len * inner) * esize,
             (const char *)a->data + (size_t)((o * dim + lo[p]) * inner) * esize, (size_t)(len * inner) * esize);
    fields[p] = tensor_value(t);
  }
  return rt_tuple_value(pieces, fields);
}

/* ---------------------------------------------------------------- take, where */

static RtValue take(const RtOperand *a, const RtOperand *idx, const IrOpAttrs *at, const IrExpr *e) {
  const IrAttrValue *ax = &at->v[IR_A_AXIS], *mode = &at->v[IR_A_MODE];
  bool flat = !ax->given || ax->none;
  int axis = flat ? 0 : rt_axis(e, IR_OP_TAKE, ax->ints[0], a->rank);
  int64_t dim = flat ? a->count : a->shape[axis];
  int64_t outer = flat ? 1 : product(axis, a->shape), inner = flat ? 1 : product(a->rank - axis - 1, a->shape + axis + 1);
  int64_t shape[RT_MAX_RANK];
  int r = 0;
  check_rank(e, IR_OP_TAKE, (flat ? 0 : a->rank - 1) + idx->rank);
  if (!flat)
    for (int i = 0; i < axis; i++) shape[r++] = a->shape[i];
  for (int i = 0; i < idx->rank; i++) shape[r++] = idx->shape[i];
  if (!flat)
    for (int i = axis + 1; i < a->rank; i++) shape[r++] = a->shape[i];
  size_t esize = rt_dtype_size(a->dt);
  RtResult res;
  char *out = rt_result_init(&res, a->dt, r, shape);
  if (idx->count > 0 && outer * inner > 0 && dim == 0) rt_error(e, "take: indexing into an empty dimension");
  bool wrap = mode->given && !strcmp(mode->str, "wrap"), fast = mode->given && !strcmp(mode->str, "fast");
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t j = 0; j < idx->count; j++) {
      RtValue iv = rt_elem_get(idx->data, idx->dt, j);
      int64_t k = idx->dt.code == IR_DT_UINT && iv.u.u > INT64_MAX ? INT64_MAX : rt_scalar_i64(iv);
      if (wrap) k = ((k % dim) + dim) % dim;
      else if (fast) {
        if (k < -dim || k >= dim) rt_error(e, "take: index %lld is out of range for a dimension of %lld", (long long)k, (long long)dim);
        if (k < 0) k += dim;
      } else k = k < 0 ? 0 : k >= dim ? dim - 1 : k;
      memcpy(out, (const char *)a->data + (size_t)((o * dim + k) * inner) * esize, (size_t)inner * esize);
      out += (size_t)inner * esize;
    }
  }
  return rt_result_value(&res);
}

static RtValue where(const RtValue *args, const IrExpr *e) {
  RtOperand o[3];
  for (int i = 0; i < 3; i++) rt_operand(&o[i], args[i]);
  int r = 0;
  for (int i = 0; i < 3; i++) r = o[i].rank > r ? o[i].rank : r;
  check_rank(e, IR_OP_WHERE, r);
  int64_t shape[RT_MAX_RANK], st[3][RT_MAX_RANK];
  for (int k = 0; k < r; k++) {
    int64_t d = 1;
    for (int i = 0; i < 3; i++) {
      int ki = k - (r - o[i].rank);
      int64_t di = ki >= 0 ? o[i].shape[ki] : 1;
      if (di != 1 && d != 1 && di != d)
        rt_error(e, "where: the shapes %s, %s and %s do not broadcast", rt_shape_text(o[0].rank, o[0].shape),
                 rt_shape_text(o[1].rank, o[1].shape), rt_shape_text(o[2].rank, o[2].shape));
      if (di != 1) d = di;
    }
    shape[k] = d;
  }
  for (int i = 0; i < 3; i++) {
    int64_t acc = 1;
    for (int k = r - 1; k >= 0; k--) {
      int ki = k - (r - o[i].rank);
      int64_t di = ki >= 0 ? o[i].shape[ki] : 1;
      st[i][k] = di == 1 ? 0 : acc;
      acc = rt_mul_sat(acc, di);
    }
  }
  size_t esize = rt_dtype_size(o[1].dt);
  RtResult res;
  char *out = rt_result_init(&res, o[1].dt, r, shape);
  int64_t count = product(r, shape), idx[RT_MAX_RANK] = {0}, off[3] = {0, 0, 0};
  const uint8_t *c = o[0].data;
  for (int64_t n = 0; n < count; n++) {
    const char *src = c[off[0]] ? (const char *)o[1].data + (size_t)off[1] * esize : (const char *)o[2].data + (size_t)off[2] * esize;
    memcpy(out + (size_t)n * esize, src, esize);
    for (int k = r - 1; k >= 0; k--) {
      for (int i = 0; i < 3; i++) off[i] += st[i][k];
      if (++idx[k] < shape[k]) break;
      for (int i = 0; i < 3; i++) off[i] -= st[i][k] * shape[k];
      idx[k] = 0;
    }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- cast, shape_of */

static RtValue cast(const RtOperand *a, IrDType to) {
  RtResult res;
  void *out = rt_result_init(&res, to, a->rank, a->shape);
  if (ir_dtype_eq(a->dt, to)) {
    memcpy(out, a->data, (size_t)a->count * rt_dtype_size(to));
  } else if (a->dt.code == IR_DT_BOOL && to.code == IR_DT_FLOAT && to.bits == 32) {
    const uint8_t *p = a->data;
    float *q = out;
    for (int64_t i = 0; i < a->count; i++) q[i] = p[i] ? 1.0f : 0.0f;
  } else {
    for (int64_t i = 0; i < a->count; i++) rt_elem_set(out, to, i, rt_convert(rt_elem_get(a->data, a->dt, i), to));
  }
  return rt_result_value(&res);
}

static RtValue shape_of(const RtOperand *a, const IrOpAttrs *at) {
  IrDType dt = ir_attr_dtype(at, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32));
  int64_t n = a->rank;
  RtTensor *t = rt_tensor_new(dt, 1, &n);
  for (int i = 0; i < a->rank; i++) rt_tensor_set(t, i, rt_scalar_from_i64(dt, a->shape[i]));
  return tensor_value(t);
}

/* ---------------------------------------------------------------- dispatch */

RtValue rt_kernel_transform(IrOpId op, const RtValue *args, int nargs, const IrExpr *e) {
  const IrOpAttrs *at = rt_attrs(e);
  (void)nargs;
  if (op == IR_OP_CONCATENATE || op == IR_OP_STACK) return concatenate(args[0], at, e, op == IR_OP_STACK);
  if (op == IR_OP_WHERE) return where(args, e);
  RtOperand a;
  rt_operand(&a, args[0]);
  switch (op) {
  case IR_OP_RESHAPE: return reshape(&a, at, e);
  case IR_OP_EXPAND_DIMS: return expand_dims(&a, at, e);
  case IR_OP_SQUEEZE: return squeeze(&a, at, e);
  case IR_OP_NN_BATCH_FLATTEN: return batch_flatten(&a);
  case IR_OP_TRANSPOSE: return transpose(&a, at, e);
  case IR_OP_BROADCAST_TO: return broadcast_to(&a, at, e);
  case IR_OP_STRIDED_SLICE: return strided_slice(&a, at, e);
  case IR_OP_SPLIT: return split(&a, at, e);
  case IR_OP_TAKE: {
    RtOperand idx;
    rt_operand(&idx, args[1]);
    return take(&a, &idx, at, e);
  }
  case IR_OP_CAST: return cast(&a, at->v[IR_A_DTYPE].dtype);
  case IR_OP_SHAPE_OF: return shape_of(&a, at);
  default: rt_error(e, "the operator `%s` has no kernel", ir_ops[op].name);
  }
}
