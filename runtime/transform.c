/* The shape kernels: reshape and its relatives (expand_dims, squeeze, batch_flatten: the same data
 * under a new shape), transpose, broadcast_to and strided_slice (strided copies), concatenate,
 * stack and split (block copies), take, where, cast and shape_of; tile, repeat, reverse,
 * reverse_sequence, the *_like forms, collapse_sum (summing down to a shape that broadcasts),
 * layout_transform and ndarray_size; nn.fast_softmax (softmax's kernel), cast_like, slice_like, trilu,
 * einsum, meshgrid, contrib_reverse_reshape, reinterpret, strided_set and sliding_window. Data moves by element size, so
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

/* out[i0, ..., ik] = in[base + sum(ij * strides[j])] for every index of `shape`. */
static void gather(const RtSite *site, void *out, const void *in, size_t esize, int rank, const int64_t *shape, int64_t base,
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
  int64_t left = 0;
  for (int64_t done = 0; done < count; done += inner) {
    for (int64_t j0 = 0; j0 < inner; j0 += RT_POLL_EVERY) { /* a long row in blocks */
      int64_t j1 = inner - j0 < RT_POLL_EVERY ? inner : j0 + RT_POLL_EVERY;
      rt_poll_work(site, &left, j1 - j0 + 8);
#define GATHER_ROW(T)                                                                                              \
  do {                                                                                                             \
    const T *src = (const T *)in + off;                                                                            \
    T *dst = (T *)o;                                                                                               \
    for (int64_t j = j0; j < j1; j++) dst[j] = src[j * step];                                                     \
  } while (0)
      switch (esize) {
      case 1: GATHER_ROW(uint8_t); break;
      case 2: GATHER_ROW(uint16_t); break;
      case 4: GATHER_ROW(uint32_t); break;
      default: GATHER_ROW(uint64_t); break;
      }
#undef GATHER_ROW
    }
    o += (size_t)inner * esize;
    for (int k = rank - 2; k >= 0; k--) {
      off += strides[k];
      if (++idx[k] < shape[k]) break;
      off -= strides[k] * shape[k];
      idx[k] = 0;
    }
  }
}

static void check_rank(const RtSite *site, IrOpId op, int rank) {
  if (rank > RT_MAX_RANK)
    rt_error(site->expr, "%s: rank %d is beyond the %d supported", ir_ops[op].name, rank, RT_MAX_RANK);
}

static int64_t product(int n, const int64_t *d) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) p = rt_mul_sat(p, d[i]);
  return p;
}

/* ---------------------------------------------------------------- reshape and relatives */

/* The shape (n dimensions in out) that newshape's codes ns give `a`; with allowzero a 0 is a dimension of 0. The -1
 * is TVM's (InferNewShape): the product of the input dimensions that no 0, -2, -3 or -4 takes over the other sizes,
 * so that it is defined over an empty tensor ((0, 3) with [0, -1] is (0, 3)), as the relation (typing/rel_shape.c)
 * types it. */
static int reshape_shape(const RtOperand *a, const IrAttrValue *ns, bool allowzero, const RtSite *site, int64_t *out) {
  int n = 0, src = 0, infer = -1;
  bool used_in[RT_MAX_RANK + 1] = {0}, used_out[RT_MAX_RANK + 1] = {0};
  for (int j = 0; j < ns->n; j++) {
    int64_t v = ns->ints[j];
    if (n + 2 > RT_MAX_RANK) rt_error(site->expr, "reshape: the new shape has too many dimensions");
    if (v > 0 || (v == 0 && allowzero)) out[n++] = v, src++;
    else if (v == 0) {
      if (src < a->rank) used_in[src] = used_out[n] = true;
      out[n++] = src < a->rank ? a->shape[src++] : 1;
    } else if (v == -1) infer = n, out[n++] = 1, src++;
    else if (v == -2)
      while (src < a->rank && n < RT_MAX_RANK) used_in[src] = used_out[n] = true, out[n++] = a->shape[src++];
    else if (v == -3) {
      used_in[src] = used_in[src + 1] = used_out[n] = true;
      out[n++] = rt_mul_sat(a->shape[src], a->shape[src + 1]);
      src += 2;
    } else if (v == -4) {
      int64_t x = ns->ints[j + 1], y = ns->ints[j + 2], d = a->shape[src];
      used_in[src++] = used_out[n] = used_out[n + 1] = true;
      if (x == -1) x = y ? d / y : 0;
      if (y == -1) y = x ? d / x : 0;
      if (rt_mul_sat(x, y) != d) rt_error(site->expr, "reshape: dimension %lld does not split into %lld x %lld", (long long)d, (long long)x, (long long)y);
      out[n++] = x;
      out[n++] = y;
      j += 2;
    }
  }
  if (infer >= 0) {
    int64_t total = 1, known = 1;
    for (int i = 0; i < a->rank; i++)
      if (!used_in[i]) total = rt_mul_sat(total, a->shape[i]);
    for (int i = 0; i < n; i++)
      if (i != infer && !used_out[i]) known = rt_mul_sat(known, out[i]);
    if (known == 0 || total % known != 0) /* known is 0 only by allowzero's 0, which TVM divides by too */
      rt_error(site->expr, "reshape: %s cannot take the shape %s with -1", rt_shape_text(a->rank, a->shape), rt_shape_text(n, out));
    out[infer] = total / known;
  }
  if (product(n, out) != a->count)
    rt_error(site->expr, "reshape: the %lld elements of %s do not fit the shape %s", (long long)a->count,
             rt_shape_text(a->rank, a->shape), rt_shape_text(n, out));
  return n;
}

static RtValue reshape(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  int64_t out[RT_MAX_RANK];
  int n = reshape_shape(a, ir_attr_at(at, IR_A_NEWSHAPE), ir_attr_at(at, IR_A_ALLOWZERO)->b, site, out);
  return with_shape(a, n, out);
}

/* contrib_reverse_reshape: the codes read from the right. */
static RtValue reverse_reshape(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  const IrAttrValue *ns = ir_attr_at(at, IR_A_NEWSHAPE);
  if (ns->n > 2 * RT_MAX_RANK) rt_error(site->expr, "contrib_reverse_reshape: the new shape has too many dimensions");
  int64_t ints[2 * RT_MAX_RANK + 1], rshape[RT_MAX_RANK], out[RT_MAX_RANK], back[RT_MAX_RANK];
  IrAttrValue rev = *ns;
  for (int i = 0; i < ns->n; i++) ints[i] = ns->ints[ns->n - 1 - i];
  rev.ints = ints;
  RtOperand ra = *a;
  for (int i = 0; i < a->rank; i++) rshape[i] = a->shape[a->rank - 1 - i];
  ra.shape = rshape;
  int n = reshape_shape(&ra, &rev, ir_attr_at(at, IR_A_ALLOWZERO)->b, site, out);
  for (int i = 0; i < n; i++) back[i] = out[n - 1 - i];
  return with_shape(a, n, back);
}

/* reinterpret: the same bytes under another element type of the same width. */
static RtValue reinterpret(const RtOperand *a, IrDType to, const RtSite *site) {
  if (rt_dtype_size(a->dt) != rt_dtype_size(to)) rt_error(site->expr, "reinterpret: the element types differ in width");
  RtResult res;
  void *out = rt_result_init(&res, to, a->rank, a->shape);
  rt_copy(site, out, a->data, (size_t)a->count * rt_dtype_size(to));
  return rt_result_value(&res);
}

static RtValue expand_dims(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  int64_t axis = ir_attr_at(at, IR_A_AXIS)->ints[0], num = ir_attr_int(at, IR_A_NUM_NEWAXIS, 1);
  if (axis < 0) axis += a->rank + 1;
  check_rank(site, IR_OP_EXPAND_DIMS, a->rank + (int)num);
  int64_t out[RT_MAX_RANK];
  int n = 0;
  for (int i = 0; i < axis; i++) out[n++] = a->shape[i];
  for (int i = 0; i < num; i++) out[n++] = 1;
  for (int i = (int)axis; i < a->rank; i++) out[n++] = a->shape[i];
  return with_shape(a, n, out);
}

static RtValue squeeze(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  const IrAttrValue *ax = ir_attr_at(at, IR_A_AXIS);
  bool drop[RT_MAX_RANK] = {false};
  if (!ax->given || ax->none) {
    for (int i = 0; i < a->rank; i++) drop[i] = a->shape[i] == 1;
  } else {
    for (int i = 0; i < ax->n; i++) {
      int k = rt_axis(site, IR_OP_SQUEEZE, ax->ints[i], a->rank);
      if (a->shape[k] != 1)
        rt_error(site->expr, "squeeze: axis %d has dimension %lld, not 1", k, (long long)a->shape[k]);
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

static RtValue transpose(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  int r = a->rank;
  check_rank(site, IR_OP_TRANSPOSE, r);
  const IrAttrValue *axes = ir_attr_at(at, IR_A_AXES);
  int64_t in_strides[RT_MAX_RANK], shape[RT_MAX_RANK], strides[RT_MAX_RANK];
  rt_strides_of(r, a->shape, in_strides);
  for (int i = 0; i < r; i++) {
    int k = !axes->given || axes->none ? r - 1 - i : rt_axis(site, IR_OP_TRANSPOSE, axes->ints[i], r);
    shape[i] = a->shape[k];
    strides[i] = in_strides[k];
  }
  RtResult res;
  void *out = rt_result_init(&res, a->dt, r, shape);
  gather(site, out, a->data, rt_dtype_size(a->dt), r, shape, 0, strides);
  return rt_result_value(&res);
}

/* a broadcast to the shape `to` of rank r (broadcast_to, broadcast_to_like). */
static RtValue broadcast_shape(const RtOperand *a, int r, const int64_t *to, IrOpId op, const RtSite *site) {
  check_rank(site, op, r);
  if (r < a->rank) rt_error(site->expr, "%s: %s has more dimensions than %s", ir_ops[op].name, rt_shape_text(a->rank, a->shape), rt_shape_text(r, to));
  int64_t in_strides[RT_MAX_RANK], strides[RT_MAX_RANK];
  rt_strides_of(a->rank, a->shape, in_strides);
  for (int i = 0; i < r; i++) {
    int k = i - (r - a->rank);
    int64_t d = k >= 0 ? a->shape[k] : 1;
    if (d != 1 && d != to[i])
      rt_error(site->expr, "%s: %s does not broadcast to %s", ir_ops[op].name, rt_shape_text(a->rank, a->shape), rt_shape_text(r, to));
    strides[i] = d == 1 ? 0 : in_strides[k];
  }
  RtResult res;
  void *out = rt_result_init(&res, a->dt, r, to);
  gather(site, out, a->data, rt_dtype_size(a->dt), r, to, 0, strides);
  return rt_result_value(&res);
}

static RtValue broadcast_to(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  const IrAttrValue *to = ir_attr_at(at, IR_A_SHAPE);
  return broadcast_shape(a, to->n, to->ints, IR_OP_BROADCAST_TO, site);
}

static RtValue strided_slice(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  const IrAttrValue *b = ir_attr_at(at, IR_A_BEGIN), *en = ir_attr_at(at, IR_A_END), *s = ir_attr_at(at, IR_A_STRIDES), *ax = ir_attr_at(at, IR_A_AXES),
                    *mode = ir_attr_at(at, IR_A_SLICE_MODE);
  bool size_mode = mode->given && !strcmp(mode->str, "size");
  int r = a->rank;
  check_rank(site, IR_OP_STRIDED_SLICE, r);
  int64_t in_strides[RT_MAX_RANK], shape[RT_MAX_RANK], strides[RT_MAX_RANK], base = 0;
  rt_strides_of(r, a->shape, in_strides);
  for (int i = 0; i < r; i++) shape[i] = a->shape[i], strides[i] = in_strides[i];
  bool has_axes = ax->given && !ax->none, has_strides = s->given && !s->none;
  int n = has_axes ? ax->n : b->n > en->n ? b->n : en->n;
  if (!has_axes && has_strides && s->n > n) n = s->n;
  if (n > r) rt_error(site->expr, "strided_slice: %d axes sliced, but the tensor has rank %d", n, r);
  if (has_axes && (b->n != n || en->n != n))
    rt_error(site->expr, "strided_slice: begin and end must give one value per axis");
  for (int k = 0; k < n; k++) {
    int axis = has_axes ? rt_axis(site, IR_OP_STRIDED_SLICE, ax->ints[k], r) : k;
    int64_t stride = !has_strides ? 1 : s->n == 1 && has_axes ? s->ints[0] : k < s->n ? s->ints[k] : 1;
    if (stride == 0 && !size_mode) rt_error(site->expr, "strided_slice: a stride is 0");
    int64_t begin = k < b->n ? b->ints[k] : stride > 0 ? 0 : INT64_MAX, start;
    int64_t end = k < en->n ? en->ints[k] : stride < 0 ? 0 : INT64_MAX;
    if (size_mode) { /* the strides ignored, as TVM's ConvertToVec (include/tvm/topi/detail/strided_slice.h) */
      if (k < en->n) end = end < 0 || begin > INT64_MAX - end ? INT64_MAX : begin + end;
      stride = 1;
    }
    int64_t len = ir_slice_length(a->shape[axis], begin, end, stride, &start);
    shape[axis] = len;
    if (len > 0) base += start * in_strides[axis];
    strides[axis] = len > 1 ? in_strides[axis] * stride : 0; /* stepped only when len > 1: then it fits */
  }
  RtResult res;
  void *out = rt_result_init(&res, a->dt, r, shape);
  gather(site, out, a->data, rt_dtype_size(a->dt), r, shape, base, strides);
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- block copies */

static RtValue concatenate(RtValue tuple, const IrOpAttrs *at, const RtSite *site, bool stack) {
  const RtTuple *t = tuple.u.tup;
  int n = t->n;
  RtOperand *ops = rt_alloc(sizeof(RtOperand) * (size_t)n);
  for (int i = 0; i < n; i++) rt_operand(&ops[i], t->f[i]);
  int r = ops[0].rank, rr = stack ? r + 1 : r;
  check_rank(site, stack ? IR_OP_STACK : IR_OP_CONCATENATE, rr);
  int axis = rt_axis(site, stack ? IR_OP_STACK : IR_OP_CONCATENATE, ir_attr_int(at, IR_A_AXIS, 0), rr);
  int64_t shape[RT_MAX_RANK];
  for (int d = 0, k = 0; d < rr; d++) shape[d] = stack && d == axis ? n : ops[0].shape[k++];
  if (!stack) shape[axis] = 0;
  for (int i = 0; i < n; i++) {
    if (ops[i].rank != r) rt_error(site->expr, "%s: the tensors' ranks differ", stack ? "stack" : "concatenate");
    for (int d = 0; d < r; d++)
      if ((stack || d != axis) && ops[i].shape[d] != ops[0].shape[d])
        rt_error(site->expr, "%s: the shapes %s and %s differ in dimension %d", stack ? "stack" : "concatenate",
                 rt_shape_text(r, ops[0].shape), rt_shape_text(r, ops[i].shape), d);
    if (!stack && __builtin_add_overflow(shape[axis], ops[i].shape[axis], &shape[axis]))
      rt_error(site->expr, "concatenate: the joined dimension passes int64");
  }
  size_t esize = rt_dtype_size(ops[0].dt);
  int64_t outer = product(axis, shape);
  RtResult res;
  char *out = rt_result_init(&res, ops[0].dt, rr, shape);
  bool empty = product(rr, shape) == 0; /* copies nothing, however many outer slices */
  int64_t left = 0;
  for (int64_t o = 0; o < outer && !empty; o++) {
    for (int i = 0; i < n; i++) {
      int64_t block = outer ? ops[i].count / outer : 0;
      rt_poll_work(site, &left, block + 8);
      rt_copy(site, out, (const char *)ops[i].data + (size_t)(o * block) * esize, (size_t)block * esize);
      out += (size_t)block * esize;
    }
  }
  return rt_result_value(&res);
}

static RtValue split(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  const IrAttrValue *ios = ir_attr_at(at, IR_A_INDICES_OR_SECTIONS);
  int axis = rt_axis(site, IR_OP_SPLIT, ir_attr_int(at, IR_A_AXIS, 0), a->rank);
  int64_t dim = a->shape[axis];
  int pieces = ios->listed ? ios->n + 1 : (int)ios->ints[0];
  int64_t *lo = rt_alloc_atomic(sizeof(int64_t) * (size_t)(pieces + 1));
  for (int i = 0; i <= pieces; i++) {
    int64_t x;
    if (!ios->listed) {
      if (dim % pieces)
        rt_error(site->expr, "split: %d sections do not divide dimension %lld evenly", pieces, (long long)dim);
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
    int64_t left = 0;
    for (int64_t o = 0; o < outer && t->count; o++) { /* an empty piece copies nothing, however many outer slices */
      rt_poll_work(site, &left, len * inner + 8);
      rt_copy(site, (char *)t->data + (size_t)(o * len * inner) * esize,
              (const char *)a->data + (size_t)((o * dim + lo[p]) * inner) * esize, (size_t)(len * inner) * esize);
    }
    fields[p] = tensor_value(t);
  }
  return rt_tuple_value(pieces, fields);
}

/* ---------------------------------------------------------------- take, where */

static RtValue take(const RtOperand *a, const RtOperand *idx, const IrOpAttrs *at, const RtSite *site) {
  const IrAttrValue *ax = ir_attr_at(at, IR_A_AXIS), *mode = ir_attr_at(at, IR_A_MODE);
  bool flat = !ax->given || ax->none;
  int axis = flat ? 0 : rt_axis(site, IR_OP_TAKE, ax->ints[0], a->rank);
  int64_t dim = flat ? a->count : a->shape[axis];
  int64_t outer = flat ? 1 : product(axis, a->shape), inner = flat ? 1 : product(a->rank - axis - 1, a->shape + axis + 1);
  int64_t shape[RT_MAX_RANK];
  int r = 0;
  check_rank(site, IR_OP_TAKE, (flat ? 0 : a->rank - 1) + idx->rank);
  if (!flat)
    for (int i = 0; i < axis; i++) shape[r++] = a->shape[i];
  for (int i = 0; i < idx->rank; i++) shape[r++] = idx->shape[i];
  if (!flat)
    for (int i = axis + 1; i < a->rank; i++) shape[r++] = a->shape[i];
  size_t esize = rt_dtype_size(a->dt);
  RtResult res;
  char *out = rt_result_init(&res, a->dt, r, shape);
  /* An empty result reads nothing, whatever the mode (as TVM's compute); else an empty axis has nothing to read. */
  if (idx->count == 0 || outer == 0 || inner == 0) return rt_result_value(&res);
  if (dim == 0) rt_error(site->expr, "take: indexing into an empty dimension");
  bool wrap = mode->given && !strcmp(mode->str, "wrap"), fast = mode->given && !strcmp(mode->str, "fast");
  int64_t left = 0;
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t j = 0; j < idx->count; j++) {
      rt_poll_work(site, &left, inner + 8);
      RtValue iv = rt_elem_get(idx->data, idx->dt, j);
      bool big = idx->dt.code == IR_DT_UINT && iv.u.u > INT64_MAX; /* a uint64 index past int64 */
      int64_t k = big ? INT64_MAX : rt_scalar_i64(iv);
      if (wrap) k = big ? (int64_t)(iv.u.u % (uint64_t)dim) : ((k % dim) + dim) % dim;
      else if (fast) {
        if (k < -dim || k >= dim) rt_error(site->expr, "take: index %lld is out of range for a dimension of %lld", (long long)k, (long long)dim);
        if (k < 0) k += dim;
      } else k = k < 0 ? 0 : k >= dim ? dim - 1 : k;
      rt_copy(site, out, (const char *)a->data + (size_t)((o * dim + k) * inner) * esize, (size_t)inner * esize);
      out += (size_t)inner * esize;
    }
  }
  return rt_result_value(&res);
}

/* Element i of where's condition as topi reads it, `condition != 0` (include/tvm/topi/transform.h): for floats an
 * ordered comparison, so NaN is false. */
static bool condition_at(const RtOperand *c, int64_t i) {
  switch (c->dt.code) {
  case IR_DT_BOOL: return ((const uint8_t *)c->data)[i] != 0;
  case IR_DT_FLOAT: {
    double v = rt_load_float(c, i);
    return v < 0 || v > 0;
  }
  default: return rt_elem_get(c->data, c->dt, i).u.u != 0;
  }
}

static RtValue where(const RtValue *args, const RtSite *site) {
  RtOperand o[3];
  for (int i = 0; i < 3; i++) rt_operand(&o[i], args[i]);
  int r = 0;
  for (int i = 0; i < 3; i++) r = o[i].rank > r ? o[i].rank : r;
  check_rank(site, IR_OP_WHERE, r);
  int64_t shape[RT_MAX_RANK], st[3][RT_MAX_RANK];
  for (int k = 0; k < r; k++) {
    int64_t d = 1;
    for (int i = 0; i < 3; i++) {
      int ki = k - (r - o[i].rank);
      int64_t di = ki >= 0 ? o[i].shape[ki] : 1;
      if (di != 1 && d != 1 && di != d)
        rt_error(site->expr, "where: the shapes %s, %s and %s do not broadcast", rt_shape_text(o[0].rank, o[0].shape),
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
  for (int64_t n = 0; n < count; n++) {
    rt_poll_every(site, n);
    const char *src = condition_at(&o[0], off[0]) ? (const char *)o[1].data + (size_t)off[1] * esize : (const char *)o[2].data + (size_t)off[2] * esize;
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

static RtValue cast(const RtOperand *a, IrDType to, const RtSite *site) {
  RtResult res;
  void *out = rt_result_init(&res, to, a->rank, a->shape);
  if (ir_dtype_eq(a->dt, to)) {
    rt_copy(site, out, a->data, (size_t)a->count * rt_dtype_size(to));
  } else if (a->dt.code == IR_DT_BOOL && to.code == IR_DT_FLOAT && to.bits == 32) {
    const uint8_t *p = a->data;
    float *q = out;
    for (int64_t i0 = 0; i0 < a->count; i0 += RT_POLL_EVERY) { /* in blocks, polling before each */
      rt_poll(site->expr);
      int64_t i1 = a->count - i0 < RT_POLL_EVERY ? a->count : i0 + RT_POLL_EVERY;
      for (int64_t i = i0; i < i1; i++) q[i] = p[i] ? 1.0f : 0.0f;
    }
  } else {
    for (int64_t i = 0; i < a->count; i++) {
      rt_poll_every(site, i);
      rt_elem_set(out, to, i, rt_convert(rt_elem_get(a->data, a->dt, i), to));
    }
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

/* ---------------------------------------------------------------- tile, repeat, reverse, reverse_sequence */

/* The multi-index that follows idx (of `shape`, rank r) in row-major order. */
static void next_index(int64_t *idx, int r, const int64_t *shape) {
  for (int k = r - 1; k >= 0; k--) {
    if (++idx[k] < shape[k]) return;
    idx[k] = 0;
  }
}

static RtValue tile(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  const IrAttrValue *reps = ir_attr_at(at, IR_A_REPS);
  int r = a->rank, n = reps->n, t = r > n ? r : n;
  check_rank(site, IR_OP_TILE, t);
  int64_t in_shape[RT_MAX_RANK], in_strides[RT_MAX_RANK], shape[RT_MAX_RANK], idx[RT_MAX_RANK] = {0};
  for (int i = 0; i < t; i++) {
    in_shape[i] = i < t - r ? 1 : a->shape[i - (t - r)];
    int64_t rep = i < t - n ? 1 : reps->ints[i - (t - n)];
    if (rep < 1) rt_error(site->expr, "tile: reps has %lld, but each count must be at least 1", (long long)rep);
    if (__builtin_mul_overflow(in_shape[i], rep, &shape[i])) rt_error(site->expr, "tile: the result is too large");
  }
  rt_strides_of(t, in_shape, in_strides);
  size_t esize = rt_dtype_size(a->dt);
  RtResult res;
  char *out = rt_result_init(&res, a->dt, t, shape);
  int64_t count = product(t, shape);
  for (int64_t j = 0; j < count; j++) {
    rt_poll_every(site, j);
    int64_t off = 0;
    for (int k = 0; k < t; k++) off += (idx[k] % in_shape[k]) * in_strides[k];
    memcpy(out + (size_t)j * esize, (const char *)a->data + (size_t)off * esize, esize);
    next_index(idx, t, shape);
  }
  return rt_result_value(&res);
}

static RtValue repeat(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  int64_t reps = ir_attr_int(at, IR_A_REPEATS, 1);
  if (reps < 1) rt_error(site->expr, "repeat: repeats=%lld, but it must be at least 1", (long long)reps);
  if (a->rank == 0) rt_error(site->expr, "repeat: the argument is a scalar");
  int axis = rt_axis(site, IR_OP_REPEAT, ir_attr_int(at, IR_A_AXIS, 0), a->rank);
  int64_t shape[RT_MAX_RANK];
  memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->rank);
  if (__builtin_mul_overflow(shape[axis], reps, &shape[axis])) rt_error(site->expr, "repeat: the result is too large");
  size_t esize = rt_dtype_size(a->dt);
  int64_t outer = product(axis, a->shape), inner = product(a->rank - axis - 1, a->shape + axis + 1);
  size_t block = (size_t)inner * esize;
  RtResult res;
  char *out = rt_result_init(&res, a->dt, a->rank, shape);
  if (a->count == 0) return rt_result_value(&res); /* the outer loops may be long over empty blocks */
  int64_t left = 0;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < a->shape[axis]; i++) {
      const char *src = (const char *)a->data + (size_t)(o * a->shape[axis] + i) * block;
      for (int64_t k = 0; k < reps; k++, out += block) {
        rt_poll_work(site, &left, inner + 8);
        rt_copy(site, out, src, block);
      }
    }
  return rt_result_value(&res);
}

static RtValue reverse(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  if (a->rank == 0) rt_error(site->expr, "reverse: the argument is a scalar");
  int axis = rt_axis(site, IR_OP_REVERSE, ir_attr_int(at, IR_A_AXIS, 0), a->rank);
  int64_t strides[RT_MAX_RANK];
  rt_strides_of(a->rank, a->shape, strides);
  int64_t base = a->count > 0 ? (a->shape[axis] - 1) * strides[axis] : 0; /* empty: strides may saturate */
  strides[axis] = -strides[axis];
  RtResult res;
  void *out = rt_result_init(&res, a->dt, a->rank, a->shape);
  gather(site, out, a->data, rt_dtype_size(a->dt), a->rank, a->shape, base, strides);
  return rt_result_value(&res);
}

/* TVM's rule: along seq_axis, the first seq_lengths[b] elements of batch b reversed (all of them
 * when the length exceeds the axis), the rest kept; a length of 0 or 1 keeps everything. */
static RtValue reverse_sequence(const RtOperand *a, const RtOperand *len, const IrOpAttrs *at, const RtSite *site) {
  int r = a->rank;
  int batch = rt_axis(site, IR_OP_REVERSE_SEQUENCE, ir_attr_int(at, IR_A_BATCH_AXIS, 0), r);
  int seq = rt_axis(site, IR_OP_REVERSE_SEQUENCE, ir_attr_int(at, IR_A_SEQ_AXIS, 1), r);
  if (len->rank != 1 || len->shape[0] != a->shape[batch])
    rt_error(site->expr, "reverse_sequence: seq_lengths %s does not match the batch dimension of %s",
             rt_shape_text(len->rank, len->shape), rt_shape_text(r, a->shape));
  int64_t strides[RT_MAX_RANK], idx[RT_MAX_RANK] = {0};
  rt_strides_of(r, a->shape, strides);
  size_t esize = rt_dtype_size(a->dt);
  RtResult res;
  char *out = rt_result_init(&res, a->dt, r, a->shape);
  int64_t count = a->count, dim = a->shape[seq];
  for (int64_t j = 0; j < count; j++) {
    rt_poll_every(site, j);
    int64_t l = rt_scalar_i64(rt_elem_get(len->data, len->dt, idx[batch])), s = idx[seq];
    int64_t from = l <= 1 || l <= s ? s : l > dim ? dim - 1 - s : l - 1 - s;
    int64_t off = j + (from - s) * strides[seq];
    memcpy(out + (size_t)j * esize, (const char *)a->data + (size_t)off * esize, esize);
    next_index(idx, r, a->shape);
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- the *_like forms */

static RtValue reshape_like(const RtOperand *a, const RtOperand *like, const IrOpAttrs *at, const RtSite *site) {
  int r = a->rank, rl = like->rank;
  int64_t lb = ir_attr_int(at, IR_A_LHS_BEGIN, 0), le = ir_attr_int(at, IR_A_LHS_END, r);
  int64_t rb = ir_attr_int(at, IR_A_RHS_BEGIN, 0), re = ir_attr_int(at, IR_A_RHS_END, rl);
  if (lb < 0) lb += r;
  if (le < 0) le += r;
  if (rb < 0) rb += rl;
  if (re < 0) re += rl;
  if (lb < 0 || lb > le || le > r || rb < 0 || rb > re || re > rl)
    rt_error(site->expr, "reshape_like: the ranges of %s and %s are out of order", rt_shape_text(r, a->shape), rt_shape_text(rl, like->shape));
  int n = (int)(lb + (re - rb) + (r - le));
  check_rank(site, IR_OP_RESHAPE_LIKE, n);
  int64_t shape[RT_MAX_RANK];
  int k = 0;
  for (int64_t i = 0; i < lb; i++) shape[k++] = a->shape[i];
  for (int64_t i = rb; i < re; i++) shape[k++] = like->shape[i];
  for (int64_t i = le; i < r; i++) shape[k++] = a->shape[i];
  if (product(n, shape) != a->count)
    rt_error(site->expr, "reshape_like: the %lld elements of %s do not fit the shape %s", (long long)a->count,
             rt_shape_text(r, a->shape), rt_shape_text(n, shape));
  return with_shape(a, n, shape);
}

/* data summed down to `shape` (rank n), which broadcasts to data's shape. */
static RtValue collapse_sum(const RtOperand *a, int n, const int64_t *shape, IrOpId op, const RtSite *site) {
  int r = a->rank;
  check_rank(site, op, n);
  if (n > r) rt_error(site->expr, "%s: %s has more dimensions than %s", ir_ops[op].name, rt_shape_text(n, shape), rt_shape_text(r, a->shape));
  int64_t out_strides[RT_MAX_RANK], st[RT_MAX_RANK], idx[RT_MAX_RANK] = {0};
  rt_strides_of(n, shape, out_strides);
  for (int k = 0; k < r; k++) {
    int ko = k - (r - n);
    int64_t d = ko >= 0 ? shape[ko] : 1;
    if (d != 1 && d != a->shape[k])
      rt_error(site->expr, "%s: %s does not broadcast to %s", ir_ops[op].name, rt_shape_text(n, shape), rt_shape_text(r, a->shape));
    st[k] = d == 1 ? 0 : out_strides[ko];
  }
  int64_t count = product(n, shape);
  bool is_float = a->dt.code == IR_DT_FLOAT;
  double *fs = is_float ? rt_alloc_atomic(sizeof(double) * (size_t)(count ? count : 1)) : NULL;
  uint64_t *is = is_float ? NULL : rt_alloc_atomic(sizeof(uint64_t) * (size_t)(count ? count : 1));
  rt_zero(site, fs ? (void *)fs : (void *)is, sizeof(double) * (size_t)(count ? count : 1));
  for (int64_t j = 0; j < a->count; j++) {
    rt_poll_every(site, j);
    int64_t o = 0;
    for (int k = 0; k < r; k++) o += idx[k] * st[k];
    RtValue v = rt_elem_get(a->data, a->dt, j);
    if (fs) fs[o] += rt_scalar_f64(v);
    else if (a->dt.code == IR_DT_BOOL) is[o] |= v.u.u != 0;
    else is[o] += a->dt.code == IR_DT_INT ? (uint64_t)v.u.i : v.u.u;
    next_index(idx, r, a->shape);
  }
  RtResult res;
  void *out = rt_result_init(&res, a->dt, n, shape);
  for (int64_t i = 0; i < count; i++) {
    rt_poll_every(site, i);
    rt_elem_set(out, a->dt, i, fs ? rt_scalar_from_f64(a->dt, fs[i]) : rt_scalar_from_u64(a->dt, is[i]));
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- layout_transform */

typedef struct {
  int n;
  char axis[RT_MAX_RANK];
  int64_t factor[RT_MAX_RANK]; /* 0 for a primal axis */
} Layout;

/* The checker has validated both layouts. */
static void parse_layout(const char *s, Layout *l) {
  l->n = 0;
  for (const char *p = s; *p && l->n < RT_MAX_RANK; p++) {
    int64_t f = 0;
    while (*p >= '0' && *p <= '9' && f < 100000000) f = f * 10 + (*p++ - '0');
    if (!*p) break;
    l->axis[l->n] = *p;
    l->factor[l->n++] = f;
  }
}

static int layout_find(const Layout *l, char c) {
  for (int i = 0; i < l->n; i++)
    if (l->axis[i] == c) return i;
  return -1;
}

static RtValue layout_transform(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  Layout src, dst;
  parse_layout(ir_attr_at(at, IR_A_SRC_LAYOUT)->str, &src);
  parse_layout(ir_attr_at(at, IR_A_DST_LAYOUT)->str, &dst);
  if (a->rank != src.n) rt_error(site->expr, "layout_transform: the data %s does not have the source layout's rank", rt_shape_text(a->rank, a->shape));
  int64_t in_strides[RT_MAX_RANK], shape[RT_MAX_RANK], idx[RT_MAX_RANK] = {0};
  rt_strides_of(a->rank, a->shape, in_strides);
  /* Per axis of the output: where its primal axis is in the input (whole, and split part), and
   * its own factor in the output. */
  int whole_in[RT_MAX_RANK], part_in[RT_MAX_RANK], part_out[RT_MAX_RANK];
  for (int i = 0; i < src.n; i++)
    if (src.factor[i] && a->shape[i] != src.factor[i])
      rt_error(site->expr, "layout_transform: axis %c of %s has %lld elements, not %lld", src.axis[i], ir_attr_at(at, IR_A_SRC_LAYOUT)->str,
               (long long)a->shape[i], (long long)src.factor[i]);
  for (int i = 0; i < dst.n; i++) {
    char c = dst.axis[i], P = dst.factor[i] ? (char)(c - 'a' + 'A') : c, p = (char)(P - 'A' + 'a');
    whole_in[i] = layout_find(&src, P);
    part_in[i] = layout_find(&src, p);
    part_out[i] = layout_find(&dst, p);
    int64_t size = a->shape[whole_in[i]] * (part_in[i] >= 0 ? src.factor[part_in[i]] : 1);
    if (dst.factor[i]) shape[i] = dst.factor[i];
    else if (part_out[i] >= 0) {
      int64_t f = dst.factor[part_out[i]];
      if (size % f) rt_error(site->expr, "layout_transform: axis %c has %lld elements, which do not split into parts of %lld", c, (long long)size, (long long)f);
      shape[i] = size / f;
    } else shape[i] = size;
  }
  size_t esize = rt_dtype_size(a->dt);
  RtResult res;
  char *out = rt_result_init(&res, a->dt, dst.n, shape);
  int64_t count = product(dst.n, shape);
  for (int64_t j = 0; j < count; j++) {
    rt_poll_every(site, j);
    int64_t off = 0;
    for (int i = 0; i < dst.n; i++) {
      if (dst.factor[i]) continue; /* each primal axis once, with its part */
      int64_t x = idx[i] * (part_out[i] >= 0 ? dst.factor[part_out[i]] : 1) + (part_out[i] >= 0 ? idx[part_out[i]] : 0);
      if (part_in[i] >= 0) {
        int64_t f = src.factor[part_in[i]];
        off += (x / f) * in_strides[whole_in[i]] + (x % f) * in_strides[part_in[i]];
      } else {
        off += x * in_strides[whole_in[i]];
      }
    }
    memcpy(out + (size_t)j * esize, (const char *)a->data + (size_t)off * esize, esize);
    next_index(idx, dst.n, shape);
  }
  return rt_result_value(&res);
}

/* a from layout src to layout dst, both valid and a of src's rank (kernel.h). */
RtValue rt_layout_transform(const RtOperand *a, const char *src, const char *dst, const RtSite *site) {
  const IrOpAttrs *at = ir_attrs_set(&ir_op_attrs_none, IR_A_SRC_LAYOUT, (IrAttrValue){.given = true, .str = src});
  at = ir_attrs_set(at, IR_A_DST_LAYOUT, (IrAttrValue){.given = true, .str = dst});
  return layout_transform(a, at, site);
}

/* ---------------------------------------------------------------- slice_like, trilu */

/* The first like.shape[i] elements of each axis i that `axes` names (every axis both have by default). */
static RtValue slice_like(const RtOperand *a, const RtOperand *like, const IrOpAttrs *at, const RtSite *site) {
  int r = a->rank;
  check_rank(site, IR_OP_SLICE_LIKE, r);
  int64_t shape[RT_MAX_RANK], strides[RT_MAX_RANK];
  for (int i = 0; i < r; i++) shape[i] = a->shape[i];
  const IrAttrValue *ax = ir_attr_at(at, IR_A_AXES);
  bool all = !ax->given || ax->none;
  for (int k = 0; k < (all ? r : ax->n); k++) {
    int i = all ? k : rt_axis(site, IR_OP_SLICE_LIKE, ax->ints[k], r);
    if (i >= like->rank) {
      if (all) break;
      rt_error(site->expr, "slice_like: axis %d is beyond the shape %s", i, rt_shape_text(like->rank, like->shape));
    }
    if (like->shape[i] > a->shape[i])
      rt_error(site->expr, "slice_like: dimension %d of %s is beyond the data's %s", i,
               rt_shape_text(like->rank, like->shape), rt_shape_text(r, a->shape));
    shape[i] = like->shape[i];
  }
  rt_strides_of(r, a->shape, strides);
  RtResult res;
  void *out = rt_result_init(&res, a->dt, r, shape);
  gather(site, out, a->data, rt_dtype_size(a->dt), r, shape, 0, strides);
  return rt_result_value(&res);
}

/* Zero outside the upper (j >= i + k) or lower (j <= i + k) triangle of the last two axes. */
static RtValue trilu(const RtOperand *a, const RtOperand *k, const IrOpAttrs *at, const RtSite *site) {
  if (a->rank < 2) rt_error(site->expr, "trilu: the data %s is not a matrix", rt_shape_text(a->rank, a->shape));
  int64_t kk = rt_scalar_i64(rt_elem_get(k->data, k->dt, 0));
  bool upper = ir_attr_bool(at, IR_A_UPPER, true);
  int64_t rows = a->shape[a->rank - 2], cols = a->shape[a->rank - 1];
  size_t esize = rt_dtype_size(a->dt);
  RtResult res;
  char *out = rt_result_init(&res, a->dt, a->rank, a->shape);
  rt_copy(site, out, a->data, (size_t)a->count * esize);
  for (int64_t n = 0; n < a->count; n++) {
    rt_poll_every(site, n);
    int64_t j = n % cols, i = (n / cols) % rows;
    /* i + k without overflow: compare j - i with k. */
    bool keep = upper ? (j - i >= kk) : (j - i <= kk);
    if (!keep) memset(out + (size_t)n * esize, 0, esize);
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- einsum, meshgrid */

/* The equation, as the checker read it (ir_einsum_parse). */
static void parse_einsum(const char *s, IrEinsum *q, int nin, const RtSite *site) {
  const char *why = ir_einsum_parse(s ? s : "", q);
  if (why) rt_error(site->expr, "einsum: the equation is not one: %s", why);
  if (q->nin != nin) rt_error(site->expr, "einsum: the equation has %d input terms for %d tensors", q->nin, nin);
}

/* Labels: letters by their code, the ellipsis dimensions as 128 + position (right-aligned). Each
 * operand steps through its data by the sum of its strides over each label; every output element
 * is a sum over the labels the output lacks, in double (floats) or int64/uint64 (integers), then
 * converted once to the element type. */
static RtValue einsum(RtValue tuple, const IrOpAttrs *at, const RtSite *site) {
  if (tuple.kind != RT_TUPLE) rt_error(site->expr, "einsum takes a tuple of tensors");
  int n = (int)tuple.u.tup->n;
  if (n > 32) rt_error(site->expr, "einsum: more than 32 tensors");
  IrEinsum q;
  parse_einsum(ir_attr_at(at, IR_A_EQUATION)->str, &q, n, site);
  RtOperand ops[32];
  enum { NL = 128 + RT_MAX_RANK };
  int64_t size[NL];
  for (int i = 0; i < NL; i++) size[i] = -1;
  int64_t(*strides_buf)[NL] = rt_alloc_atomic(sizeof *strides_buf * (size_t)(n > 0 ? n : 1)); /* per tensor */
  int ne = 0;
  IrDType dt = {0};
  for (int i = 0; i < n; i++) {
    rt_operand(&ops[i], tuple.u.tup->f[i]);
    if (i == 0) dt = ops[i].dt;
    else if (!ir_dtype_eq(dt, ops[i].dt)) rt_error(site->expr, "einsum: tensors of different element types");
    int64_t st[RT_MAX_RANK];
    check_rank(site, IR_OP_EINSUM, ops[i].rank);
    rt_strides_of(ops[i].rank, ops[i].shape, st);
    memset(strides_buf[i], 0, sizeof strides_buf[i]);
    const char *term = q.terms[i];
    int letters = (int)strlen(term) - (strchr(term, '*') ? 1 : 0), er = ops[i].rank - letters;
    if (er < 0 || (er > 0 && !strchr(term, '*')))
      rt_error(site->expr, "einsum: term %d does not fit the shape %s", i, rt_shape_text(ops[i].rank, ops[i].shape));
    if (er > ne) ne = er;
    for (int j = 0, d = 0; term[j]; j++) {
      if (term[j] == '*') {
        for (int x = 0; x < er; x++, d++) {
          int l = 128 + RT_MAX_RANK - er + x;
          int64_t s = ops[i].shape[d];
          if (size[l] < 0 || size[l] == 1) size[l] = s;
          else if (s != 1 && s != size[l]) rt_error(site->expr, "einsum: the ellipsis dimensions do not broadcast");
          if (s != 1) strides_buf[i][l] += st[d];
        }
        continue;
      }
      int l = (unsigned char)term[j];
      int64_t s = ops[i].shape[d];
      if (size[l] >= 0 && size[l] != s)
        rt_error(site->expr, "einsum: letter %c is %lld in one place and %lld in another", term[j], (long long)size[l], (long long)s);
      size[l] = s;
      strides_buf[i][l] += st[d];
      d++;
    }
  }
  /* The output's labels, then the summed ones. */
  int lab[NL], no = 0, nl;
  bool used[NL] = {0};
  for (const char *p = q.terms[n]; *p; p++) {
    if (*p == '*')
      for (int x = 0; x < ne; x++) lab[no++] = 128 + RT_MAX_RANK - ne + x;
    else
      lab[no++] = (unsigned char)*p;
  }
  for (int i = 0; i < no; i++) used[lab[i]] = true;
  nl = no;
  for (int l = 0; l < NL; l++)
    if (size[l] >= 0 && !used[l]) lab[nl++] = l;
  int64_t shape[RT_MAX_RANK], lsz[NL];
  for (int i = 0; i < nl; i++) lsz[i] = size[lab[i]];
  for (int i = 0; i < no; i++) shape[i] = lsz[i];
  int64_t total = 1, inner = 1;
  for (int i = 0; i < nl; i++) total = rt_mul_sat(total, lsz[i]);
  for (int i = no; i < nl; i++) inner = rt_mul_sat(inner, lsz[i]);
  RtResult res;
  void *out = rt_result_init(&res, dt, no, shape);
  int64_t outn = 1;
  for (int i = 0; i < no; i++) outn = rt_mul_sat(outn, shape[i]);
  if (outn == 0) return rt_result_value(&res);
  if (total == INT64_MAX) rt_error(site->expr, "einsum: the computation is too large");
  bool fl = dt.code == IR_DT_FLOAT, un = dt.code == IR_DT_UINT || dt.code == IR_DT_BOOL;
  int64_t idx[NL] = {0}, off[32] = {0}, left = 0;
  for (int64_t o = 0; o < outn; o++) {
    double fs = 0;
    uint64_t is = 0;
    rt_poll_work(site, &left, rt_mul_sat(inner, n) / 2 + 1);
    for (int64_t s = 0; s < inner; s++) {
      rt_poll_every(site, s + 1);
      double fp = 1;
      uint64_t ip = 1;
      for (int i = 0; i < n; i++) {
        RtValue v = rt_elem_get(ops[i].data, dt, off[i]);
        if (fl) fp *= rt_scalar_f64(v);
        else ip *= un ? v.u.u : (uint64_t)rt_scalar_i64(v);
      }
      fs += fp, is += ip;
      /* next index, innermost label last */
      for (int k = nl - 1; k >= 0; k--) {
        int l = lab[k];
        for (int i = 0; i < n; i++) off[i] += strides_buf[i][l];
        if (++idx[k] < lsz[k]) break;
        for (int i = 0; i < n; i++) off[i] -= strides_buf[i][l] * lsz[k];
        idx[k] = 0;
      }
    }
    if (inner == 0) {
      for (int k = no - 1; k >= 0; k--) {
        int l = lab[k];
        for (int i = 0; i < n; i++) off[i] += strides_buf[i][l];
        if (++idx[k] < lsz[k]) break;
        for (int i = 0; i < n; i++) off[i] -= strides_buf[i][l] * lsz[k];
        idx[k] = 0;
      }
    }
    rt_elem_set(out, dt, o, fl ? rt_scalar_from_f64(dt, fs) : un ? rt_scalar_from_u64(dt, is) : rt_scalar_from_i64(dt, (int64_t)is));
  }
  return rt_result_value(&res);
}

static RtValue meshgrid(RtValue tuple, const IrOpAttrs *at, const RtSite *site) {
  if (tuple.kind != RT_TUPLE) rt_error(site->expr, "meshgrid takes a tuple of tensors");
  int n = (int)tuple.u.tup->n;
  check_rank(site, IR_OP_MESHGRID, n);
  const IrAttrValue *ix = ir_attr_at(at, IR_A_INDEXING);
  bool xy = ix->given && !strcmp(ix->str, "xy") && n >= 2;
  RtOperand ops[RT_MAX_RANK];
  int64_t shape[RT_MAX_RANK];
  for (int i = 0; i < n; i++) {
    rt_operand(&ops[i], tuple.u.tup->f[i]);
    if (ops[i].rank > 1) rt_error(site->expr, "meshgrid takes scalars and vectors");
    shape[i] = ops[i].count;
  }
  if (xy) {
    int64_t t = shape[0];
    shape[0] = shape[1], shape[1] = t;
  }
  RtValue *items = rt_alloc(sizeof(RtValue) * (size_t)(n ? n : 1));
  int64_t count = product(n, shape), st[RT_MAX_RANK];
  rt_strides_of(n, shape, st);
  for (int i = 0; i < n; i++) {
    int axis = xy && i < 2 ? 1 - i : i;
    size_t esize = rt_dtype_size(ops[i].dt);
    RtResult res;
    char *out = rt_result_init(&res, ops[i].dt, n, shape);
    for (int64_t j = 0; j < count; j++) {
      rt_poll_every(site, j);
      int64_t k = (j / st[axis]) % shape[axis];
      memcpy(out + (size_t)j * esize, (const char *)ops[i].data + (size_t)k * esize, esize);
    }
    items[i] = rt_result_value(&res);
  }
  return rt_tuple_value(n, items);
}

/* ---------------------------------------------------------------- strided_set, sliding_window */

/* data with data[begin:end:strides] (numpy's slice per axis: negative begin and end count from the
 * end, then clamp; axes past the vectors are whole) set to v, which has the slice's shape. */
static RtValue strided_set(const RtValue *args, int nargs, const RtSite *site) {
  RtOperand a, v, bo, eo, so;
  rt_operand(&a, args[0]);
  rt_operand(&v, args[1]);
  rt_operand(&bo, args[2]);
  rt_operand(&eo, args[3]);
  if (nargs > 4) rt_operand(&so, args[4]);
  int r = a.rank;
  check_rank(site, IR_OP_STRIDED_SET, r);
  if (v.rank != r || !ir_dtype_eq(a.dt, v.dt)) rt_error(site->expr, "strided_set: the values do not fit the data");
  int64_t b[RT_MAX_RANK], st[RT_MAX_RANK], len[RT_MAX_RANK], astr[RT_MAX_RANK];
  for (int i = 0; i < r; i++) {
    int64_t d = a.shape[i], s = nargs > 4 && i < so.count ? rt_scalar_i64(rt_elem_get(so.data, so.dt, i)) : 1;
    if (s == 0 || s == INT64_MIN) rt_error(site->expr, "strided_set: a stride is 0 or out of range");
    bool hb = i < bo.count, he = i < eo.count;
    int64_t x = hb ? rt_scalar_i64(rt_elem_get(bo.data, bo.dt, i)) : 0, y = he ? rt_scalar_i64(rt_elem_get(eo.data, eo.dt, i)) : 0;
    if (s > 0) {
      x = !hb ? 0 : x < 0 ? (x + d < 0 ? 0 : x + d) : (x > d ? d : x);
      y = !he ? d : y < 0 ? (y + d < 0 ? 0 : y + d) : (y > d ? d : y);
      len[i] = y > x ? (y - x - 1) / s + 1 : 0;
    } else {
      x = !hb ? d - 1 : x < 0 ? (x + d < 0 ? -1 : x + d) : (x >= d ? d - 1 : x);
      y = !he ? -1 : y < 0 ? (y + d < 0 ? -1 : y + d) : (y >= d ? d - 1 : y);
      len[i] = x > y ? (x - y - 1) / (-s) + 1 : 0;
    }
    b[i] = x, st[i] = s;
    if (v.shape[i] != len[i])
      rt_error(site->expr, "strided_set: the values %s do not have the slice's shape (dimension %d is %lld)",
               rt_shape_text(v.rank, v.shape), i, (long long)len[i]);
  }
  rt_strides_of(r, a.shape, astr);
  size_t esize = rt_dtype_size(a.dt);
  RtResult res;
  char *out = rt_result_init(&res, a.dt, r, a.shape);
  rt_copy(site, out, a.data, (size_t)a.count * esize);
  int64_t idx[RT_MAX_RANK] = {0};
  for (int64_t j = 0; j < v.count; j++) {
    rt_poll_every(site, j);
    int64_t off = 0;
    for (int i = 0; i < r; i++) off += (b[i] + idx[i] * st[i]) * astr[i];
    memcpy(out + (size_t)off * esize, (const char *)v.data + (size_t)j * esize, esize);
    next_index(idx, r, len);
  }
  return rt_result_value(&res);
}

/* sliding_window: out[pre..., k..., w...] = data[pre..., k * s + w ...]. */
static RtValue sliding_window(const RtOperand *a, const IrOpAttrs *at, const RtSite *site) {
  const IrAttrValue *ws = ir_attr_at(at, IR_A_WINDOW_SHAPE), *sv = ir_attr_at(at, IR_A_STRIDES);
  int64_t axis = ir_attr_int(at, IR_A_AXIS, 0);
  int r = a->rank, nw = ws->n, n = (int)axis + 2 * nw;
  check_rank(site, IR_OP_SLIDING_WINDOW, n);
  if (axis < 0 || axis + nw != r || sv->n != nw)
    rt_error(site->expr, "sliding_window: the window does not fit the data");
  int64_t shape[RT_MAX_RANK], astr[RT_MAX_RANK], idx[RT_MAX_RANK] = {0};
  for (int i = 0; i < axis; i++) shape[i] = a->shape[i];
  for (int i = 0; i < nw; i++) {
    int64_t d = a->shape[axis + i], w = ws->ints[i], s = sv->ints[i];
    if (d < w) rt_error(site->expr, "sliding_window: a window of %lld does not fit dimension %lld of %s", (long long)w,
                        (long long)(axis + i), rt_shape_text(r, a->shape));
    if (w < 1 || s < 1) rt_error(site->expr, "sliding_window: window sizes and strides must be 1 or more");
    shape[axis + i] = (d - w) / s + 1;
    shape[axis + nw + i] = w;
  }
  rt_strides_of(r, a->shape, astr);
  size_t esize = rt_dtype_size(a->dt);
  RtResult res;
  char *out = rt_result_init(&res, a->dt, n, shape);
  int64_t count = product(n, shape);
  for (int64_t j = 0; j < count; j++) {
    rt_poll_every(site, j);
    int64_t off = 0;
    for (int i = 0; i < axis; i++) off += idx[i] * astr[i];
    for (int i = 0; i < nw; i++) off += (idx[axis + i] * sv->ints[i] + idx[axis + nw + i]) * astr[axis + i];
    memcpy(out + (size_t)j * esize, (const char *)a->data + (size_t)off * esize, esize);
    next_index(idx, n, shape);
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- dispatch */

RtValue rt_kernel_transform(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  const IrOpAttrs *at = site->attrs;
  (void)nargs;
  if (op == IR_OP_CONCATENATE || op == IR_OP_STACK) return concatenate(args[0], at, site, op == IR_OP_STACK);
  if (op == IR_OP_WHERE) return where(args, site);
  if (op == IR_OP_EINSUM) return einsum(args[0], at, site);
  if (op == IR_OP_MESHGRID) return meshgrid(args[0], at, site);
  if (op == IR_OP_STRIDED_SET) return strided_set(args, nargs, site);
  RtOperand a, b;
  rt_operand(&a, args[0]);
  if (nargs > 1) rt_operand(&b, args[1]);
  switch (op) {
  case IR_OP_RESHAPE: return reshape(&a, at, site);
  case IR_OP_EXPAND_DIMS: return expand_dims(&a, at, site);
  case IR_OP_SQUEEZE: return squeeze(&a, at, site);
  case IR_OP_NN_BATCH_FLATTEN: return batch_flatten(&a);
  case IR_OP_TRANSPOSE: return transpose(&a, at, site);
  case IR_OP_BROADCAST_TO: return broadcast_to(&a, at, site);
  case IR_OP_STRIDED_SLICE: return strided_slice(&a, at, site);
  case IR_OP_SPLIT: return split(&a, at, site);
  case IR_OP_TAKE: {
    RtOperand idx;
    rt_operand(&idx, args[1]);
    return take(&a, &idx, at, site);
  }
  case IR_OP_CAST: return cast(&a, ir_attr_at(at, IR_A_DTYPE)->dtype, site);
  case IR_OP_SHAPE_OF: return shape_of(&a, at);
  case IR_OP_TILE: return tile(&a, at, site);
  case IR_OP_REPEAT: return repeat(&a, at, site);
  case IR_OP_REVERSE: return reverse(&a, at, site);
  case IR_OP_REVERSE_SEQUENCE: return reverse_sequence(&a, &b, at, site);
  case IR_OP_FULL_LIKE: return rt_tensor_fill(rt_convert(args[1].kind == RT_SCALAR ? args[1] : rt_elem_get(b.data, b.dt, 0), a.dt), a.dt, a.rank, a.shape);
  case IR_OP_RESHAPE_LIKE: return reshape_like(&a, &b, at, site);
  case IR_OP_BROADCAST_TO_LIKE: return broadcast_shape(&a, b.rank, b.shape, op, site);
  case IR_OP_COLLAPSE_SUM_LIKE: return collapse_sum(&a, b.rank, b.shape, op, site);
  case IR_OP_COLLAPSE_SUM_TO: {
    const IrAttrValue *to = ir_attr_at(at, IR_A_SHAPE);
    if (to->given && !to->none) return collapse_sum(&a, to->n, to->ints, op, site);
    if (nargs < 2 || b.rank != 1 || b.count > RT_MAX_RANK) rt_error(site->expr, "collapse_sum_to: the target shape is not a short vector");
    int64_t shape[RT_MAX_RANK];
    for (int64_t i = 0; i < b.count; i++) shape[i] = rt_scalar_i64(rt_elem_get(b.data, b.dt, i));
    return collapse_sum(&a, (int)b.count, shape, op, site);
  }
  case IR_OP_LAYOUT_TRANSFORM: return layout_transform(&a, at, site);
  case IR_OP_NN_FAST_SOFTMAX: return rt_kernel_reduce(IR_OP_NN_SOFTMAX, args, nargs, site);
  case IR_OP_CAST_LIKE: return cast(&a, b.dt, site);
  case IR_OP_SLICE_LIKE: return slice_like(&a, &b, at, site);
  case IR_OP_TRILU: return trilu(&a, &b, at, site);
  case IR_OP_CONTRIB_REVERSE_RESHAPE: return reverse_reshape(&a, at, site);
  case IR_OP_SLIDING_WINDOW: return sliding_window(&a, at, site);
  case IR_OP_REINTERPRET: return reinterpret(&a, ir_attr_at(at, IR_A_DTYPE)->dtype, site);
  case IR_OP_NDARRAY_SIZE: return rt_scalar_from_i64(ir_attr_dtype(at, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32)), a.count);
  default:
    UNREACHABLE("every operator ops.def gives this family has a case above");
    rt_error(site->expr, "the operator `%s` has no kernel", ir_ops[op].name);
  }
}
