/* The relations of the data operators: one_hot, gathering (gather, gather_nd), scattering
 * (scatter_elements, scatter_nd), sorting (argsort, sort, topk), cumulative sums and products (cumsum,
 * cumprod: Scanop); SequenceMask, InvertPermutation, UnravelIndex, MatrixSetDiag, SearchSorted, ArgWhere,
 * Unique and AdvIndex; the sparse operators (SparseToDense, SparseReshape, SparseFillEmptyRows, SparseDense,
 * SparseTranspose, SparseAdd), the random ones (Threefry, Uniform, Normal, Multinomial), DFT and STFT,
 * Correlation, Dilation2D, FIFOBuffer, DeformableConv2D and Conv2DBackwardWeight, after TVM 0.14's
 * (src/relay/op/tensor/transform.cc, src/relay/op/algorithm/, src/relay/op/nn/sparse.cc,
 * src/relay/op/random/kernel.cc, src/relay/op/nn/, src/relay/op/image/dilation2d.cc). */
#include "typing/oprel.h"

#include <string.h>

static IrType *dtype_type(IrDType dt) { return ir_type_dtype(dt, (IrSpan){0}); }

/* Fails unless dtype (when known) is an integer type; `what` names the argument. */
static TyRelResult integer_dtype(TyCtx *cx, TyRelation *rel, IrType *dtype, const char *what, const char **message) {
  if (dtype->kind == IR_TYPE_DTYPE && dtype->u.dtype.code != IR_DT_INT && dtype->u.dtype.code != IR_DT_UINT)
    REL_FAIL("%s takes integer %s, but they are %s", ty_rel_who(rel), what, ty_rel_text(cx, dtype));
  return TY_SOLVED;
}

/* ---------------------------------------------------------------- OneHot */

/* one_hot(indices, on_value, off_value): indices' shape with `depth` inserted at `axis` (-1: last),
 * of `dtype` (the on_value's type when not given); on_value and off_value are scalars, converted. */
TyRelResult ty_rel_one_hot(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *idtype, *on_shape, *on_dtype, *off_shape, *off_dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &idtype, message));
  REL_TRY(integer_dtype(cx, rel, idtype, "indices", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 0, &on_shape, &on_dtype, "an on_value", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 0, &off_shape, &off_dtype, "an off_value", message));
  int64_t depth = ir_attr_int(rel->attrs, IR_A_DEPTH, 1);
  if (depth < 1) REL_FAIL("%s: depth=%lld must be 1 or more", ty_rel_who(rel), (long long)depth);
  int r = shape->u.shape.rank, axis;
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, -1), r, 1, &axis, message));
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  for (int i = 0, k = 0; i <= r; i++) dims[i] = i == axis ? ty_rel_dim(depth) : shape->u.shape.dims[k++];
  const IrAttrValue *dt = ty_rel_attr(rel, IR_A_DTYPE);
  IrType *out = dt->given && !dt->none ? dtype_type(dt->dtype) : on_dtype;
  return ty_rel_result(cx, rel, 3, ty_rel_tensor_type(ty_rel_shape(r + 1, dims), out), message);
}

/* ---------------------------------------------------------------- Gather, GatherND */

/* gather(data, indices, axis=): indices of data's rank, its dimensions data's but along axis (at
 * least 1 there); the result has the indices' shape and data's type. */
TyRelResult ty_rel_gather(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *ishape, *idtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank, axis;
  if (r == 0) REL_FAIL("%s cannot gather from a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, r, &ishape, &idtype, "indices", message));
  REL_TRY(integer_dtype(cx, rel, idtype, "indices", message));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, 0), r, 0, &axis, message));
  bool open = false;
  for (int i = 0; i < r; i++) {
    IrType *d = ishape->u.shape.dims[i];
    if (i == axis) { /* TVM's GatherRel: ICHECK_GE(n, 1) on a constant; at each use (or once known) otherwise */
      int64_t n;
      TyDimState known = ty_rel_dim_state(cx, d, &n);
      if (known == TY_DIM_CONST && n < 1)
        REL_FAIL("%s: the indices %s are empty along axis %d", ty_rel_who(rel), ty_rel_shape_text(cx, ishape), axis);
      open = ty_rel_dim_open(known);
    } else if (!ty_unify(cx, d, shape->u.shape.dims[i], NULL)) {
      REL_FAIL("%s: the indices %s must have the data's shape %s but along axis %d; dimension %d differs",
               ty_rel_who(rel), ty_rel_shape_text(cx, ishape), ty_rel_shape_text(cx, shape), axis, i);
    }
  }
  return ty_rel_open(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ishape, dtype), message), open);
}

/* gather_nd(data, indices): indices (M, Y_0, ..., Y_{K-1}) index the first M axes of data after
 * batch_dims B (data's first B dimensions are the Y's first B); the result is (Y_0, ..., Y_{K-1},
 * X_{B+M}, ..., X_{N-1}). M must be a constant, or given as index_rank. */
TyRelResult ty_rel_gather_nd(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *ishape, *idtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ishape, &idtype, message));
  REL_TRY(integer_dtype(cx, rel, idtype, "indices", message));
  int r = shape->u.shape.rank, ri = ishape->u.shape.rank;
  if (ri < 1) REL_FAIL("%s takes indices of rank 1 or more, but they are a scalar", ty_rel_who(rel));
  int64_t b = ir_attr_int(rel->attrs, IR_A_BATCH_DIMS, 0), m;
  if (b < 0 || b > ri - 1)
    REL_FAIL("%s: batch_dims=%lld must be from 0 to %d for indices %s", ty_rel_who(rel), (long long)b, ri - 1,
             ty_rel_shape_text(cx, ishape));
  TyRelResult k = ty_rel_dim_const(cx, ishape->u.shape.dims[0], &m);
  const IrAttrValue *ir = ty_rel_attr(rel, IR_A_INDEX_RANK);
  if (k == TY_NOT_YET) return k;
  if (k == TY_FAILED) {
    if (!ir->given || ir->none)
      REL_FAIL("%s needs the first dimension of its indices %s as a constant (or index_rank=)", ty_rel_who(rel),
               ty_rel_shape_text(cx, ishape));
    m = ir->ints[0];
  } else if (ir->given && !ir->none && ir->ints[0] != m) {
    REL_FAIL("%s: index_rank=%lld, but the indices %s index %lld axes", ty_rel_who(rel), (long long)ir->ints[0],
             ty_rel_shape_text(cx, ishape), (long long)m);
  }
  if (m < 0 || m > r - b) /* not m + b > r: m may be as large as an int64 */
    REL_FAIL("%s: indices %s index %lld axes after %lld batch axes, but the data %s has rank %d", ty_rel_who(rel),
             ty_rel_shape_text(cx, ishape), (long long)m, (long long)b, ty_rel_shape_text(cx, shape), r);
  for (int i = 0; i < b; i++)
    if (!ty_unify(cx, shape->u.shape.dims[i], ishape->u.shape.dims[i + 1], NULL))
      REL_FAIL("%s: batch dimension %d of the data %s and of the indices %s differ", ty_rel_who(rel), i,
               ty_rel_shape_text(cx, shape), ty_rel_shape_text(cx, ishape));
  int n = 0;
  IrType **dims = IR_NEW_ARRAY(IrType *, ri + r);
  for (int i = 1; i < ri; i++) dims[n++] = ishape->u.shape.dims[i];
  for (int i = (int)(m + b); i < r; i++) dims[n++] = shape->u.shape.dims[i];
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(n, dims), dtype), message);
}

/* ---------------------------------------------------------------- ScatterElements */

static const char *const reductions[] = {"update", "add", "mul", "mean", "min", "max"};

/* scatter_elements(data, indices, updates): indices and updates of one shape and data's rank,
 * updates of data's type; the result is data's type. Off the axis the indices are no larger than the
 * data (relay's kernel refuses it; topi's scatter_elements indexes the data by the indices' positions
 * there; TVM's ScatterElementsRel checks only the indices' dtype): decided on constants and where the
 * normal forms differ by a constant, a where clause over other named sizes, the kernel's over `?`. */
TyRelResult ty_rel_scatter_elements(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *ishape, *idtype, *ushape, *udtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank, axis;
  if (r == 0) REL_FAIL("%s cannot scatter into a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, r, &ishape, &idtype, "indices", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, r, &ushape, &udtype, "updates", message));
  REL_TRY(integer_dtype(cx, rel, idtype, "indices", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, dtype, udtype, message));
  for (int i = 0; i < r; i++)
    if (!ty_unify(cx, ishape->u.shape.dims[i], ushape->u.shape.dims[i], NULL))
      REL_FAIL("%s: the indices %s and the updates %s must have one shape", ty_rel_who(rel),
               ty_rel_shape_text(cx, ishape), ty_rel_shape_text(cx, ushape));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, 0), r, 0, &axis, message));
  bool open = false;
  for (int i = 0; i < r; i++) {
    if (i == axis) continue;
    IrType *d = shape->u.shape.dims[i], *n = ishape->u.shape.dims[i];
    int64_t a, b, diff;
    TyDimState ds = ty_rel_dim_state(cx, d, &a), ns = ty_rel_dim_state(cx, n, &b);
    if (ds == TY_DIM_ANY || ns == TY_DIM_ANY) continue; /* the kernel checks */
    bool known = ds == TY_DIM_CONST && ns == TY_DIM_CONST ? (diff = a - b, true)
                                                          : ty_dim_value(cx, ty_dim_sub(cx, d, n), &diff);
    if (!known) {
      open = true; /* at each use, or once known */
      continue;
    }
    if (diff < 0)
      REL_FAIL("%s: the indices %s are larger than the data %s along axis %d", ty_rel_who(rel),
               ty_rel_shape_text(cx, ishape), ty_rel_shape_text(cx, shape), i);
  }
  const IrAttrValue *red = ty_rel_attr(rel, IR_A_REDUCTION);
  if (red->given) {
    bool ok = false;
    for (size_t i = 0; i < sizeof reductions / sizeof *reductions; i++) ok = ok || !strcmp(red->str, reductions[i]);
    if (!ok)
      REL_FAIL("%s: reduction=\"%s\" is not one of \"update\", \"add\", \"mul\", \"mean\", \"min\" and \"max\"",
               ty_rel_who(rel), red->str);
  }
  return ty_rel_open(ty_rel_result(cx, rel, 3, ty_rel_tensor_type(shape, dtype), message), open);
}

/* scatter_nd(data, indices, updates): indices (M, Y_0, ..., Y_{K-1}) with M a constant, updates (Y_0, ...,
 * Y_{K-1}, X_M, ..., X_{N-1}) of data's type; the result is data's type. */
TyRelResult ty_rel_scatter_nd(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *ishape, *idtype, *ushape, *udtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ishape, &idtype, message));
  REL_TRY(integer_dtype(cx, rel, idtype, "indices", message));
  int r = shape->u.shape.rank, ri = ishape->u.shape.rank;
  if (ri < 1) REL_FAIL("%s takes indices of rank 1 or more, but they are a scalar", ty_rel_who(rel));
  int64_t m;
  TyRelResult k = ty_rel_dim_const(cx, ishape->u.shape.dims[0], &m);
  if (k == TY_NOT_YET) return k;
  if (k == TY_FAILED)
    REL_FAIL("%s needs the first dimension of its indices %s as a constant", ty_rel_who(rel),
             ty_rel_shape_text(cx, ishape));
  if (m > r)
    REL_FAIL("%s: indices %s index %lld axes, but the data %s has rank %d", ty_rel_who(rel),
             ty_rel_shape_text(cx, ishape), (long long)m, ty_rel_shape_text(cx, shape), r);
  int ru = ri - 1 + r - (int)m;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, ru, &ushape, &udtype, "updates", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, dtype, udtype, message));
  IrType **want = IR_NEW_ARRAY(IrType *, ru + 1);
  for (int i = 0; i < ru; i++)
    want[i] = i < ri - 1 ? ishape->u.shape.dims[i + 1] : shape->u.shape.dims[m + i - (ri - 1)];
  for (int i = 0; i < ru; i++)
    if (!ty_unify(cx, ushape->u.shape.dims[i], want[i], NULL))
      REL_FAIL("%s: the updates %s must be %s (the indices' %s less the first, then the data's %s less %lld)",
               ty_rel_who(rel), ty_rel_shape_text(cx, ushape), ty_rel_shape_text(cx, ty_rel_shape(ru, want)),
               ty_rel_shape_text(cx, ishape), ty_rel_shape_text(cx, shape), (long long)m);
  const IrAttrValue *mode = ty_rel_attr(rel, IR_A_MODE);
  if (mode->given && strcmp(mode->str, "update") && strcmp(mode->str, "add") && strcmp(mode->str, "mul") &&
      strcmp(mode->str, "min") && strcmp(mode->str, "max"))
    REL_FAIL("%s: mode=\"%s\" is not one of \"update\", \"add\", \"mul\", \"min\" and \"max\"", ty_rel_who(rel),
             mode->str);
  return ty_rel_result(cx, rel, 3, ty_rel_tensor_type(shape, dtype), message);
}

/* ---------------------------------------------------------------- Argsort, Sort, TopK */

/* The index dtype of argsort and topk: `dtype`, int32 by default; integers or floats. */
static TyRelResult index_dtype(TyCtx *cx, TyRelation *rel, IrType **out, const char **message) {
  IrDType dt = ir_attr_dtype(rel->attrs, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32));
  if (dt.code == IR_DT_BOOL)
    REL_FAIL("%s gives indices as numbers, but dtype=%s", ty_rel_who(rel), ty_rel_text(cx, dtype_type(dt)));
  *out = dtype_type(dt);
  return TY_SOLVED;
}

static TyRelResult sort_axis(TyRelation *rel, IrType *shape, int *axis, const char **message) {
  int r = shape->u.shape.rank;
  if (r == 0) REL_FAIL("%s sorts along an axis, but its argument is a scalar", ty_rel_who(rel));
  return ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, -1), r, 0, axis, message);
}

TyRelResult ty_rel_argsort(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *idx;
  int axis;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(sort_axis(rel, shape, &axis, message));
  REL_TRY(index_dtype(cx, rel, &idx, message));
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(shape, idx), message);
}

TyRelResult ty_rel_sort(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  int axis;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(sort_axis(rel, shape, &axis, message));
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(shape, dtype), message);
}

/* topk: the data's shape with k along axis (the whole axis when k < 1); ret_type "both" gives
 * (values, indices), "values" or "indices" one of them. */
TyRelResult ty_rel_topk(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *idx;
  int axis;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(sort_axis(rel, shape, &axis, message));
  REL_TRY(index_dtype(cx, rel, &idx, message));
  int r = shape->u.shape.rank;
  int64_t k = ir_attr_int(rel->attrs, IR_A_K, 1), n;
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  for (int i = 0; i < r; i++) dims[i] = shape->u.shape.dims[i];
  bool open = false; /* k <= n for a size not known yet: checked at each use, or once known */
  if (k >= 1) {
    TyDimState known = ty_rel_dim_state(cx, dims[axis], &n);
    if (known == TY_DIM_CONST && k > n)
      REL_FAIL("%s: k=%lld is more than the %lld elements along axis %d of %s", ty_rel_who(rel), (long long)k,
               (long long)n, axis, ty_rel_shape_text(cx, shape));
    open = ty_rel_dim_open(known);
    dims[axis] = ty_rel_dim(k);
  }
  IrType *out_shape = ty_rel_shape(r, dims);
  IrType *values = ty_rel_tensor_type(out_shape, dtype), *indices = ty_rel_tensor_type(out_shape, idx);
  const IrAttrValue *rt = ty_rel_attr(rel, IR_A_RET_TYPE);
  const char *ret = rt->given ? rt->str : "both";
  if (!strcmp(ret, "values")) return ty_rel_open(ty_rel_result(cx, rel, 1, values, message), open);
  if (!strcmp(ret, "indices")) return ty_rel_open(ty_rel_result(cx, rel, 1, indices, message), open);
  if (strcmp(ret, "both"))
    REL_FAIL("%s: ret_type=\"%s\" is not one of \"both\", \"values\" and \"indices\"", ty_rel_who(rel), ret);
  IrType **fields = IR_NEW_ARRAY(IrType *, 2);
  fields[0] = values, fields[1] = indices;
  return ty_rel_open(ty_rel_result(cx, rel, 1, ir_type_tuple(2, fields, (IrSpan){0}), message), open);
}

/* ---------------------------------------------------------------- Scanop, NdarraySize */

/* cumsum, cumprod: the data's shape along `axis`, or flattened when axis is None; of `dtype`
 * (the data's by default). */
TyRelResult ty_rel_scanop(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  const IrAttrValue *dt = ty_rel_attr(rel, IR_A_DTYPE), *ax = ty_rel_attr(rel, IR_A_AXIS);
  IrType *out = dt->given && !dt->none ? dtype_type(dt->dtype) : dtype;
  if (out->kind == IR_TYPE_DTYPE && out->u.dtype.code == IR_DT_BOOL)
    REL_FAIL("%s adds or multiplies numbers, but its result would be %s (give dtype=)", ty_rel_who(rel),
             ty_rel_text(cx, out));
  int r = shape->u.shape.rank;
  if (ax->given && !ax->none) {
    int axis;
    if (r == 0) REL_FAIL("%s along an axis of a scalar", ty_rel_who(rel));
    REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ax->ints[0], r, 0, &axis, message));
    return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(shape, out), message);
  }
  IrType **p = IR_NEW_ARRAY(IrType *, 1);
  p[0] = ty_rel_dim(1);
  for (int i = 0; i < r; i++) p[0] = ty_dim_mul(cx, p[0], shape->u.shape.dims[i]);
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(1, p), out), message);
}

/* ---------------------------------------------------------------- SequenceMask */

/* sequence_mask(data, valid_length, mask_value=0, axis=0): axis 0 or 1 is the sequence, the other of
 * the first two the batch; valid_length is a vector as long as the batch; the result is data's type. */
TyRelResult ty_rel_sequence_mask(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *ls, *ldt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int64_t axis = ir_attr_int(rel->attrs, IR_A_AXIS, 0);
  if (axis != 0 && axis != 1) REL_FAIL("%s: axis=%lld must be 0 or 1", ty_rel_who(rel), (long long)axis);
  if (shape->u.shape.rank < 2)
    REL_FAIL("%s needs a sequence axis and a batch axis, but its data is %s", ty_rel_who(rel),
             ty_rel_shape_text(cx, shape));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 1, &ls, &ldt, "valid_length, a vector,", message));
  if (ldt->kind == IR_TYPE_DTYPE && ldt->u.dtype.code == IR_DT_BOOL)
    REL_FAIL("%s takes valid_length as numbers, but they are bool", ty_rel_who(rel));
  REL_TRY(ty_rel_same_dim(cx, rel, ls->u.shape.dims[0], shape->u.shape.dims[1 - axis],
                          "the length of valid_length and the batch dimension", message));
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(shape, dtype), message);
}

/* ---------------------------------------------------------------- InvertPermutation, UnravelIndex */

/* invert_permutation(p): an integer vector, the same type (TVM's Identity). */
TyRelResult ty_rel_invert_permutation(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 1, &shape, &dtype, "a permutation, a vector,", message));
  REL_TRY(integer_dtype(cx, rel, dtype, "a permutation", message));
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(shape, dtype), message);
}

/* unravel_index(indices, shape): integer indices (a scalar or a vector of n) and shape (a vector of
 * k); the result is (k) or (k, n) of the indices' type. */
TyRelResult ty_rel_unravel_index(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ishape, *idtype, *sshape, *sdtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &ishape, &idtype, message));
  if (ishape->u.shape.rank > 1)
    REL_FAIL("%s takes a scalar or a vector of indices, but they are %s", ty_rel_who(rel), ty_rel_shape_text(cx, ishape));
  REL_TRY(integer_dtype(cx, rel, idtype, "indices", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 1, &sshape, &sdtype, "a shape, a vector,", message));
  REL_TRY(integer_dtype(cx, rel, sdtype, "a shape", message));
  IrType **dims = IR_NEW_ARRAY(IrType *, 2);
  dims[0] = sshape->u.shape.dims[0];
  if (ishape->u.shape.rank == 1) dims[1] = ishape->u.shape.dims[0];
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(ishape->u.shape.rank + 1, dims), idtype), message);
}

/* ---------------------------------------------------------------- MatrixSetDiag */

/* matrix_set_diag(data (..., M, N), diagonal, k1=0, k2=0): one diagonal (k1 == k2) is (..., L), a band
 * (..., k2 - k1 + 1, L), with L = min(M + min(k2, 0), N - max(k1, 0)) (TensorFlow's longest diagonal;
 * TVM's relation writes it with the signs swapped, which its own kernel cannot fill). Data's type. */
TyRelResult ty_rel_matrix_set_diag(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *dshape, *ddtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank;
  if (r < 2) REL_FAIL("%s works on matrices, but its data is %s", ty_rel_who(rel), ty_rel_shape_text(cx, shape));
  int64_t k1 = ir_attr_int(rel->attrs, IR_A_K1, 0), k2 = ir_attr_int(rel->attrs, IR_A_K2, 0);
  if (k1 > k2) REL_FAIL("%s: k1=%lld is above k2=%lld", ty_rel_who(rel), (long long)k1, (long long)k2);
  if (k1 < -1000000000 || k2 > 1000000000) REL_FAIL("%s: k1 or k2 is out of range", ty_rel_who(rel));
  bool one = k1 == k2;
  int rd = one ? r - 1 : r;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, rd, &dshape, &ddtype, "a diagonal", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, dtype, ddtype, message));
  for (int i = 0; i < r - 2; i++)
    REL_TRY(ty_rel_same_dim(cx, rel, shape->u.shape.dims[i], dshape->u.shape.dims[i],
                            "a batch dimension of the data and of the diagonal", message));
  if (!one)
    REL_TRY(ty_rel_same_dim(cx, rel, dshape->u.shape.dims[r - 2], ty_rel_dim(k2 - k1 + 1),
                            "the diagonal's number of diagonals and k2 - k1 + 1", message));
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(shape, dtype), message));
  int64_t m, n;
  TyDimState km = ty_rel_dim_state(cx, shape->u.shape.dims[r - 2], &m), kn = ty_rel_dim_state(cx, shape->u.shape.dims[r - 1], &n);
  if (km == TY_DIM_ANY || kn == TY_DIM_ANY) return TY_SOLVED; /* the kernel checks the diagonals and their length */
  if (km != TY_DIM_CONST || kn != TY_DIM_CONST) return TY_NOT_YET; /* at each use, with its sizes; or once known */
  if (m <= -k1 || n <= k2)
    REL_FAIL("%s: diagonals k1=%lld to k2=%lld are not all in a %lld x %lld matrix", ty_rel_who(rel), (long long)k1,
             (long long)k2, (long long)m, (long long)n);
  int64_t a = m + (k2 < 0 ? k2 : 0), b = n - (k1 > 0 ? k1 : 0);
  return ty_rel_same_dim(cx, rel, dshape->u.shape.dims[rd - 1], ty_rel_dim(a < b ? a : b),
                         "the diagonal's length and the longest diagonal's", message);
}

/* ---------------------------------------------------------------- SearchSorted, ArgWhere, Unique, AdvIndex */

/* searchsorted(sorted, values, right=False, dtype="int32"): values of rank 1 or more; a sorted sequence
 * of rank above 1 has the values' rank and their leading dimensions; the result has values' shape. */
TyRelResult ty_rel_searchsorted(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ss, *sdt, *vs, *vdt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &ss, &sdt, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &vs, &vdt, message));
  int rs = ss->u.shape.rank, rv = vs->u.shape.rank;
  if (rs < 1) REL_FAIL("%s searches a sequence, but the sorted sequence is a scalar", ty_rel_who(rel));
  if (rv < 1) REL_FAIL("%s takes values of rank 1 or more, but they are a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_same_dtype(cx, rel, sdt, vdt, message));
  if (rs > 1) {
    if (rs != rv)
      REL_FAIL("%s: the sorted sequence %s and the values %s must have one rank", ty_rel_who(rel),
               ty_rel_shape_text(cx, ss), ty_rel_shape_text(cx, vs));
    for (int i = 0; i < rv - 1; i++)
      REL_TRY(ty_rel_same_dim(cx, rel, ss->u.shape.dims[i], vs->u.shape.dims[i],
                              "a leading dimension of the sorted sequence and of the values", message));
  }
  IrDType dt = ir_attr_dtype(rel->attrs, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32));
  if (dt.code != IR_DT_INT && dt.code != IR_DT_UINT)
    REL_FAIL("%s gives integer positions, but dtype=%s", ty_rel_who(rel), ty_rel_text(cx, dtype_type(dt)));
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(vs, dtype_type(dt)), message);
}

/* argwhere(condition): (?, rank) int32, one row of coordinates per nonzero element (TVM's Any). */
TyRelResult ty_rel_argwhere(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  IrType **dims = IR_NEW_ARRAY(IrType *, 2);
  dims[0] = ty_dim_any();
  dims[1] = ty_rel_dim(shape->u.shape.rank);
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(2, dims), dtype_type(IR_DTYPE(IR_DT_INT, 32))), message);
}

/* unique(data, sorted=True, return_counts=False): a vector; TVM's fixed-size fields (unique, indices,
 * inverse_indices, num_unique[, counts]): the first num_unique elements of each padded field count. */
TyRelResult ty_rel_unique(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 1, &shape, &dtype, "a vector", message));
  IrType *i32 = dtype_type(IR_DTYPE(IR_DT_INT, 32));
  IrType **one = IR_NEW_ARRAY(IrType *, 1);
  one[0] = ty_rel_dim(1);
  bool counts = ir_attr_bool(rel->attrs, IR_A_RETURN_COUNTS, false);
  int n = counts ? 5 : 4;
  IrType **f = IR_NEW_ARRAY(IrType *, n);
  f[0] = ty_rel_tensor_type(shape, dtype);
  f[1] = f[2] = ty_rel_tensor_type(shape, i32);
  f[3] = ty_rel_tensor_type(ty_rel_shape(1, one), i32);
  if (counts) f[4] = ty_rel_tensor_type(shape, i32);
  return ty_rel_result(cx, rel, 1, ir_type_tuple(n, f, (IrSpan){0}), message);
}

/* adv_index((data, i0, i1, ...)): integer index tensors that broadcast together, no more than the
 * data's rank; the result is their broadcast shape, then the data's remaining axes. */
TyRelResult ty_rel_adv_index(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *t = ty_prune(cx, rel->args[0]);
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  if (t->kind != IR_TYPE_TUPLE || t->u.tuple.n < 2)
    REL_FAIL("%s takes a tuple of the data and one or more index tensors, but its argument is %s", ty_rel_who(rel),
             ty_rel_text(cx, t));
  int n = t->u.tuple.n;
  IrType **shapes = IR_NEW_ARRAY(IrType *, n), *dtype = NULL;
  for (int i = 0; i < n; i++) {
    IrType *f = ty_prune(cx, t->u.tuple.fields[i]);
    if (f->kind == IR_TYPE_HOLE) return TY_NOT_YET;
    if (f->kind != IR_TYPE_TENSOR) REL_FAIL("%s: field %d is %s, not a tensor", ty_rel_who(rel), i, ty_rel_text(cx, f));
    shapes[i] = ty_prune(cx, f->u.tensor.shape);
    if (shapes[i]->kind != IR_TYPE_SHAPE) return TY_NOT_YET;
    if (i == 0) dtype = f->u.tensor.dtype;
    else REL_TRY(integer_dtype(cx, rel, f->u.tensor.dtype, "index tensors", message));
  }
  int r = shapes[0]->u.shape.rank;
  if (n - 1 > r)
    REL_FAIL("%s: %d index tensors for the data %s of rank %d", ty_rel_who(rel), n - 1, ty_rel_shape_text(cx, shapes[0]), r);
  int rb = 0;
  for (int i = 1; i < n; i++) rb = shapes[i]->u.shape.rank > rb ? shapes[i]->u.shape.rank : rb;
  IrType **dims = IR_NEW_ARRAY(IrType *, rb + r + 1);
  TyRelResult pending = TY_SOLVED;
  for (int k = 0; k < rb; k++) {
    IrType *d = NULL;
    for (int i = 1; i < n; i++) {
      int ri = shapes[i]->u.shape.rank;
      if (k < rb - ri) continue;
      IrType *di = shapes[i]->u.shape.dims[k - (rb - ri)];
      if (!d) { d = di; continue; }
      TyRelResult b = ty_rel_broadcast_dim(cx, d, di, &d);
      if (b == TY_NOT_YET && !d) return b;
      if (b == TY_NOT_YET) pending = b;
      if (b == TY_FAILED)
        REL_FAIL("%s: the index tensors do not broadcast together (field %d is %s)", ty_rel_who(rel), i,
                 ty_rel_shape_text(cx, shapes[i]));
    }
    dims[k] = d;
  }
  int m = rb;
  for (int i = n - 1; i < r; i++) dims[m++] = shapes[0]->u.shape.dims[i];
  TyRelResult res = ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(m, dims), dtype), message);
  return res == TY_SOLVED ? pending : res;
}

/* ---------------------------------------------------------------- SparseToDense, SparseReshape, SparseFillEmptyRows */

/* sparse_to_dense(sparse_indices, sparse_values, default_value, output_shape=): integer indices of
 * rank 0, 1 (positions in a vector) or 2 ((N, rank) coordinates); values a scalar (for every index)
 * or one per index; default_value a scalar of the values' type; the result output_shape of it. */
TyRelResult ty_rel_sparse_to_dense(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *is, *idt, *vs, *vdt, *ds, *ddt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &is, &idt, message));
  REL_TRY(integer_dtype(cx, rel, idt, "sparse_indices", message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &vs, &vdt, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 0, &ds, &ddt, "a scalar default_value", message));
  int ri = is->u.shape.rank, rv = vs->u.shape.rank;
  if (ri > 2) REL_FAIL("%s takes sparse_indices of rank 0, 1 or 2, but they are %s", ty_rel_who(rel), ty_rel_shape_text(cx, is));
  if (rv > 1) REL_FAIL("%s takes sparse_values of rank 0 or 1, but they are %s", ty_rel_who(rel), ty_rel_shape_text(cx, vs));
  REL_TRY(ty_rel_same_dtype(cx, rel, vdt, ddt, message));
  const IrAttrValue *os = ty_rel_attr(rel, IR_A_OUTPUT_SHAPE);
  int r = os->given && !os->none ? os->n : 0;
  if (r < 1) REL_FAIL("%s needs an output_shape of rank 1 or more", ty_rel_who(rel));
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  for (int i = 0; i < r; i++) {
    if (os->ints[i] < 0) REL_FAIL("%s: output_shape has a negative dimension %lld", ty_rel_who(rel), (long long)os->ints[i]);
    dims[i] = ty_rel_dim(os->ints[i]);
  }
  if (ri < 2 && r != 1)
    REL_FAIL("%s: sparse_indices %s of rank %d index a vector, but output_shape has rank %d", ty_rel_who(rel),
             ty_rel_shape_text(cx, is), ri, r);
  if (ri == 2)
    REL_TRY(ty_rel_same_dim(cx, rel, is->u.shape.dims[1], ty_rel_dim(r),
                            "the sparse_indices' second dimension and the output's rank", message));
  if (rv == 1) {
    if (ri == 0) REL_FAIL("%s: one sparse index (a scalar) takes a scalar value, but the values are %s", ty_rel_who(rel), ty_rel_shape_text(cx, vs));
    REL_TRY(ty_rel_same_dim(cx, rel, vs->u.shape.dims[0], is->u.shape.dims[0],
                            "the number of sparse_values and of sparse_indices", message));
  }
  return ty_rel_result(cx, rel, 3, ty_rel_tensor_type(ty_rel_shape(r, dims), vdt), message);
}

/* sparse_reshape(sparse_indices, prev_shape, new_shape): (N, r) integer indices, vectors of integers;
 * the result (new indices (N, m) of the indices' type, the new shape (m) of new_shape's type). */
TyRelResult ty_rel_sparse_reshape(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *is, *idt, *ps, *pdt, *ns, *ndt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 2, &is, &idt, "(N, rank) sparse_indices", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 1, &ps, &pdt, "a vector prev_shape", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 1, &ns, &ndt, "a vector new_shape", message));
  REL_TRY(integer_dtype(cx, rel, idt, "sparse_indices", message));
  REL_TRY(integer_dtype(cx, rel, pdt, "prev_shape", message));
  REL_TRY(integer_dtype(cx, rel, ndt, "new_shape", message));
  REL_TRY(ty_rel_same_dim(cx, rel, is->u.shape.dims[1], ps->u.shape.dims[0],
                          "the sparse_indices' second dimension and prev_shape's length", message));
  IrType **d = IR_NEW_ARRAY(IrType *, 2), **f = IR_NEW_ARRAY(IrType *, 2);
  d[0] = is->u.shape.dims[0];
  d[1] = ns->u.shape.dims[0];
  f[0] = ty_rel_tensor_type(ty_rel_shape(2, d), idt);
  f[1] = ty_rel_tensor_type(ns, ndt);
  return ty_rel_result(cx, rel, 3, ir_type_tuple(2, f, (IrSpan){0}), message);
}

/* sparse_fill_empty_rows(sparse_indices, sparse_values, dense_shape, default_value): (N, r) integer
 * indices, N values, an integer vector dense_shape; TVM's result, every field int64: (new indices
 * (?, r), new values (?), empty_row_indicator (?)). */
TyRelResult ty_rel_sparse_fill_empty_rows(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *is, *idt, *vs, *vdt, *ds, *ddt, *fs, *fdt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 2, &is, &idt, "(N, rank) sparse_indices", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 1, &vs, &vdt, "a vector of sparse_values", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 1, &ds, &ddt, "a vector dense_shape", message));
  REL_TRY(ty_rel_tensor(cx, rel, 3, &fs, &fdt, message));
  REL_TRY(integer_dtype(cx, rel, idt, "sparse_indices", message));
  REL_TRY(integer_dtype(cx, rel, ddt, "dense_shape", message));
  if (fs->u.shape.rank > 1)
    REL_FAIL("%s takes a default_value of one element, but it is %s", ty_rel_who(rel), ty_rel_shape_text(cx, fs));
  REL_TRY(ty_rel_same_dtype(cx, rel, vdt, fdt, message));
  REL_TRY(ty_rel_same_dim(cx, rel, vs->u.shape.dims[0], is->u.shape.dims[0],
                          "the number of sparse_values and of sparse_indices", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ds->u.shape.dims[0], is->u.shape.dims[1],
                          "dense_shape's length and the sparse_indices' second dimension", message));
  IrType *i64 = dtype_type(IR_DTYPE(IR_DT_INT, 64));
  IrType **d2 = IR_NEW_ARRAY(IrType *, 2), **d1 = IR_NEW_ARRAY(IrType *, 1), **f = IR_NEW_ARRAY(IrType *, 3);
  d2[0] = ty_dim_any();
  d2[1] = is->u.shape.dims[1];
  d1[0] = ty_dim_any();
  f[0] = ty_rel_tensor_type(ty_rel_shape(2, d2), i64);
  f[1] = f[2] = ty_rel_tensor_type(ty_rel_shape(1, d1), i64);
  return ty_rel_result(cx, rel, 4, ir_type_tuple(3, f, (IrSpan){0}), message);
}

/* ---------------------------------------------------------------- SparseDense, SparseTranspose, SparseAdd */

/* A CSR or BSR matrix as arguments i, i+1, i+2: data (nnz) or (blocks, bs_r, bs_c), integer indices
 * and indptr vectors. *rows: its number of rows (indptr's length - 1, times bs_r for BSR). */
static TyRelResult sparse_matrix(TyCtx *cx, TyRelation *rel, int i, IrType **dt, IrType **rows, IrType **bs_c,
                                 bool *open, const char **message) {
  IrType *ds, *is, *idt, *ps, *pdt;
  REL_TRY(ty_rel_tensor(cx, rel, i, &ds, dt, message));
  int r = ds->u.shape.rank;
  if (r != 1 && r != 3)
    REL_FAIL("%s takes sparse data of rank 1 (CSR) or 3 (BSR), but it is %s", ty_rel_who(rel), ty_rel_shape_text(cx, ds));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, i + 1, 1, &is, &idt, "vector sparse indices", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, i + 2, 1, &ps, &pdt, "a vector indptr", message));
  REL_TRY(integer_dtype(cx, rel, idt, "sparse indices", message));
  REL_TRY(integer_dtype(cx, rel, pdt, "indptrs", message));
  REL_TRY(ty_rel_same_dim(cx, rel, is->u.shape.dims[0], ds->u.shape.dims[0],
                          "the number of sparse indices and of sparse data (blocks)", message));
  int64_t len; /* indptr has rows + 1 entries (TVM's relation takes 1 from its length unchecked; the kernel needs one) */
  TyDimState known = ty_rel_dim_state(cx, ps->u.shape.dims[0], &len);
  if (known == TY_DIM_CONST && len < 1) REL_FAIL("%s: indptr is empty, but it has an entry more than the rows", ty_rel_who(rel));
  *open |= ty_rel_dim_open(known);
  IrType *n = ty_dim_sub(cx, ps->u.shape.dims[0], ty_rel_dim(1));
  *rows = r == 3 ? ty_dim_mul(cx, n, ds->u.shape.dims[1]) : n;
  *bs_c = r == 3 ? ds->u.shape.dims[2] : ty_rel_dim(1);
  return TY_SOLVED;
}

/* nn.sparse_dense(dense, sparse_data, sparse_indices, sparse_indptr, sparse_lhs=False): dense (M, K)
 * times the CSR/BSR matrix S (N, K) transposed, (M, N); with sparse_lhs, S (M, K) times dense (N, K)
 * transposed, (M, N). The dense matrix's dtype. BSR blocks (bs_r, bs_c) tile the K columns: relay's
 * kernel indexes blocks of columns and needs bs_c of 1 or more dividing K (TVM's SparseDenseRel does not
 * check it; scipy's BSR, which TVM's frontends convert, tiles the matrix): with constants a type error,
 * over named sizes that the normal form does not divide a where clause, over `?` the kernel's. */
TyRelResult ty_rel_sparse_dense(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ds, *ddt, *sdt, *rows, *bsc;
  bool open = false;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 2, &ds, &ddt, "a dense matrix", message));
  REL_TRY(sparse_matrix(cx, rel, 1, &sdt, &rows, &bsc, &open, message));
  REL_TRY(ty_rel_same_dtype(cx, rel, ddt, sdt, message));
  int64_t w, k;
  IrType *kd = ds->u.shape.dims[1];
  TyDimState ws = ty_rel_dim_state(cx, bsc, &w), ks = ty_rel_dim_state(cx, kd, &k);
  if (ws == TY_DIM_CONST && (w == 0 || (ks == TY_DIM_CONST && k % w)))
    REL_FAIL("%s: the dense matrix's %s columns are no multiple of the block width %lld", ty_rel_who(rel),
             ty_rel_text(cx, kd), (long long)w);
  if (ws != TY_DIM_ANY && ks != TY_DIM_ANY && (ws != TY_DIM_CONST || ks != TY_DIM_CONST) &&
      !(ws == TY_DIM_CONST && ty_dim_div(cx, kd, bsc)))
    open = true; /* named sizes (k * 4 by 2 is decided) or a hole: at each use, or once known; `?`: the kernel */
  IrType **d = IR_NEW_ARRAY(IrType *, 2);
  if (ir_attr_bool(rel->attrs, IR_A_SPARSE_LHS, false)) d[0] = rows, d[1] = ds->u.shape.dims[0];
  else d[0] = ds->u.shape.dims[0], d[1] = rows;
  return ty_rel_open(ty_rel_result(cx, rel, 4, ty_rel_tensor_type(ty_rel_shape(2, d), ddt), message), open);
}

/* nn.sparse_transpose(data, indices, indptr): a square CSR matrix; the transpose in the same shapes. */
TyRelResult ty_rel_sparse_transpose(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ds, *ddt, *is, *idt, *ps, *pdt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 1, &ds, &ddt, "vector (CSR) sparse data", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 1, &is, &idt, "vector sparse indices", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 1, &ps, &pdt, "a vector indptr", message));
  REL_TRY(integer_dtype(cx, rel, idt, "sparse indices", message));
  REL_TRY(integer_dtype(cx, rel, pdt, "indptrs", message));
  REL_TRY(ty_rel_same_dim(cx, rel, is->u.shape.dims[0], ds->u.shape.dims[0],
                          "the number of sparse indices and of sparse data", message));
  IrType **f = IR_NEW_ARRAY(IrType *, 3);
  f[0] = ty_rel_tensor_type(ds, ddt);
  f[1] = ty_rel_tensor_type(is, idt);
  f[2] = ty_rel_tensor_type(ps, pdt);
  return ty_rel_result(cx, rel, 3, ir_type_tuple(3, f, (IrSpan){0}), message);
}

/* nn.sparse_add(dense, sparse_data, sparse_indices, sparse_indptr): dense (M, N) plus a CSR matrix of
 * M rows (indptr M + 1), of one dtype; the dense matrix's type. */
TyRelResult ty_rel_sparse_add(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ds, *ddt, *sdt, *rows, *bsc, *vs;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 2, &ds, &ddt, "a dense matrix", message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &vs, &sdt, message));
  if (vs->u.shape.rank != 1)
    REL_FAIL("%s takes CSR sparse data (a vector), but it is %s", ty_rel_who(rel), ty_rel_shape_text(cx, vs));
  bool open = false; /* rows = M, so the indptr's length is M + 1 whatever M is: nothing is left open */
  REL_TRY(sparse_matrix(cx, rel, 1, &sdt, &rows, &bsc, &open, message));
  REL_TRY(ty_rel_same_dtype(cx, rel, ddt, sdt, message));
  REL_TRY(ty_rel_same_dim(cx, rel, rows, ds->u.shape.dims[0], "the sparse matrix's rows (indptr's length - 1) and the dense matrix's", message));
  return ty_rel_result(cx, rel, 4, ty_rel_tensor_type(ds, ddt), message);
}

/* ---------------------------------------------------------------- random: Threefry, uniform, normal, multinomial */

/* TVM's Threefry key: Tensor[(10), uint64]. */
static IrType *threefry_key_type(void) {
  IrType **d = IR_NEW_ARRAY(IrType *, 1);
  d[0] = ty_rel_dim(10);
  return ty_rel_tensor_type(ty_rel_shape(1, d), dtype_type(IR_DTYPE(IR_DT_UINT, 64)));
}

/* The attribute out_shape as a shape (no negative dimension). */
static TyRelResult out_shape_attr(TyRelation *rel, IrType **out, const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_OUT_SHAPE);
  int r = a->given && !a->none ? a->n : 0;
  IrType **d = IR_NEW_ARRAY(IrType *, r ? r : 1);
  for (int i = 0; i < r; i++) {
    if (a->ints[i] < 0) REL_FAIL("%s: out_shape has a negative dimension %lld", ty_rel_who(rel), (long long)a->ints[i]);
    d[i] = ty_rel_dim(a->ints[i]);
  }
  *out = ty_rel_shape(r, d);
  return TY_SOLVED;
}

static IrType *pair_type(IrType *a, IrType *b) {
  IrType **f = IR_NEW_ARRAY(IrType *, 2);
  f[0] = a;
  f[1] = b;
  return ir_type_tuple(2, f, (IrSpan){0});
}

/* random.threefry_generate(key, out_shape=): (the new key, Tensor[out_shape, uint64]). */
TyRelResult ty_rel_threefry_generate(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape;
  REL_TRY(ty_rel_result(cx, rel, 0, threefry_key_type(), message));
  REL_TRY(out_shape_attr(rel, &shape, message));
  return ty_rel_result(cx, rel, 1, pair_type(threefry_key_type(), ty_rel_tensor_type(shape, dtype_type(IR_DTYPE(IR_DT_UINT, 64)))), message);
}

/* random.threefry_split(key): two keys. */
TyRelResult ty_rel_threefry_split(TyCtx *cx, TyRelation *rel, const char **message) {
  REL_TRY(ty_rel_result(cx, rel, 0, threefry_key_type(), message));
  return ty_rel_result(cx, rel, 1, pair_type(threefry_key_type(), threefry_key_type()), message);
}

/* random.uniform(key, low, high, out_shape=, out_dtype=) and random.normal(key, mean, scale, ...):
 * scalars of out_dtype (float32 or float64; float32 when not given); (the new key, the samples). */
TyRelResult ty_rel_uniform(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape;
  IrDType dt = ir_attr_dtype(rel->attrs, IR_A_OUT_DTYPE, IR_DTYPE(IR_DT_FLOAT, 32));
  if (dt.code != IR_DT_FLOAT || (dt.bits != 32 && dt.bits != 64))
    REL_FAIL("%s generates float32 or float64 values, but out_dtype=%s", ty_rel_who(rel), ty_rel_text(cx, dtype_type(dt)));
  IrType *s = ty_rel_tensor_type(ty_rel_shape(0, NULL), dtype_type(dt));
  REL_TRY(ty_rel_result(cx, rel, 0, threefry_key_type(), message));
  REL_TRY(ty_rel_result(cx, rel, 1, s, message));
  REL_TRY(ty_rel_result(cx, rel, 2, s, message));
  REL_TRY(out_shape_attr(rel, &shape, message));
  return ty_rel_result(cx, rel, 3, pair_type(threefry_key_type(), ty_rel_tensor_type(shape, dtype_type(dt))), message);
}

/* random.multinomial(key, probs, num_samples=1): probs of rank 1 or more; (the new key, int32 indices of
 * probs' leading shape then num_samples). */
TyRelResult ty_rel_multinomial(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ps, *pdt;
  REL_TRY(ty_rel_result(cx, rel, 0, threefry_key_type(), message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ps, &pdt, message));
  int r = ps->u.shape.rank;
  if (r < 1) REL_FAIL("%s takes probabilities of rank 1 or more, but they are a scalar", ty_rel_who(rel));
  int64_t n = ir_attr_int(rel->attrs, IR_A_NUM_SAMPLES, 1);
  if (n < 0) REL_FAIL("%s: num_samples=%lld is negative", ty_rel_who(rel), (long long)n);
  IrType **d = IR_NEW_ARRAY(IrType *, r);
  for (int i = 0; i < r - 1; i++) d[i] = ps->u.shape.dims[i];
  d[r - 1] = ty_rel_dim(n);
  REL_TRY(ty_rel_result(cx, rel, 2, pair_type(threefry_key_type(), ty_rel_tensor_type(ty_rel_shape(r, d), dtype_type(IR_DTYPE(IR_DT_INT, 32)))), message));
  return ty_rel_float(cx, rel, pdt, "its probabilities", ty_rel_tensor_type(ps, pdt), message);
}

/* ---------------------------------------------------------------- DFT, STFT */

/* dft(re_data, im_data, inverse=False): two float tensors of one shape and type; (re, im) alike. */
TyRelResult ty_rel_dft(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *rs, *rdt, *is, *idt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &rs, &rdt, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, rs->u.shape.rank, &is, &idt, "an imaginary part of the real part's rank", message));
  if (rs->u.shape.rank < 1) REL_FAIL("%s transforms along the last axis, but the data is a scalar", ty_rel_who(rel));
  for (int i = 0; i < rs->u.shape.rank; i++)
    REL_TRY(ty_rel_same_dim(cx, rel, rs->u.shape.dims[i], is->u.shape.dims[i], "a dimension of re_data and of im_data", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, rdt, idt, message));
  IrType *t = ty_rel_tensor_type(rs, rdt);
  REL_TRY(ty_rel_result(cx, rel, 2, pair_type(t, t), message));
  return ty_rel_float(cx, rel, rdt, "its data", t, message);
}

/* stft(data, window, n_fft=, hop_length=, win_length=, normalized=False, onesided=True): data (L) or
 * (B, L), a window vector; ([B,] n_fft / 2 + 1 (n_fft when not onesided), (L - n_fft) / hop + 1, 2). */
TyRelResult ty_rel_stft(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ds, *ddt, *ws, *wdt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &ds, &ddt, message));
  int r = ds->u.shape.rank;
  if (r != 1 && r != 2) REL_FAIL("%s takes data of rank 1 or 2, but it is %s", ty_rel_who(rel), ty_rel_shape_text(cx, ds));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 1, &ws, &wdt, "a window vector", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, ddt, wdt, message));
  int64_t n_fft = ir_attr_int(rel->attrs, IR_A_N_FFT, -1), hop = ir_attr_int(rel->attrs, IR_A_HOP_LENGTH, -1),
          win = ir_attr_int(rel->attrs, IR_A_WIN_LENGTH, -1);
  if (n_fft < 1 || hop < 1 || win < 1 || win > n_fft)
    REL_FAIL("%s needs n_fft, hop_length and win_length of 1 or more, win_length no more than n_fft; they are %lld, %lld, %lld",
             ty_rel_who(rel), (long long)n_fft, (long long)hop, (long long)win);
  REL_TRY(ty_rel_same_dim(cx, rel, ws->u.shape.dims[0], ty_rel_dim(win), "the window's length and win_length", message));
  IrType *L = ds->u.shape.dims[r - 1], *frames;
  int64_t l;
  TyDimState k = ty_rel_dim_state(cx, L, &l);
  if (k == TY_DIM_HOLE) return TY_NOT_YET;
  if (k == TY_DIM_CONST) {
    if (l < n_fft) REL_FAIL("%s: the data's length %lld is shorter than n_fft=%lld", ty_rel_who(rel), (long long)l, (long long)n_fft);
    frames = ty_rel_dim((l - n_fft) / hop + 1);
  } else { /* over named sizes, l >= n_fft is checked at each use */
    frames = hop == 1 ? ty_dim_add(cx, ty_dim_sub(cx, L, ty_rel_dim(n_fft)), ty_rel_dim(1)) : ty_dim_any();
  }
  IrType **d = IR_NEW_ARRAY(IrType *, 4);
  int m = 0;
  if (r == 2) d[m++] = ds->u.shape.dims[0];
  d[m++] = ty_rel_dim(ir_attr_bool(rel->attrs, IR_A_ONESIDED, true) ? n_fft / 2 + 1 : n_fft);
  d[m++] = frames;
  d[m++] = ty_rel_dim(2);
  IrType *t = ty_rel_tensor_type(ty_rel_shape(m, d), ddt);
  REL_TRY(ty_rel_result(cx, rel, 2, t, message));
  return ty_rel_open(ty_rel_float(cx, rel, ddt, "its data", ty_rel_tensor_type(ds, ddt), message), k == TY_DIM_SYMBOLIC);
}

/* ---------------------------------------------------------------- Correlation */

/* nn.correlation(data1, data2, kernel_size=1, max_displacement=1, stride1=1, stride2=1, padding=[0, 0],
 * is_multiply=True, layout="NCHW"): two NCHW tensors of one shape; (N, (2 * (max_displacement / stride2) +
 * 1)^2, ceil((H + pad - 2 * border) / stride1), the same for W), border max_displacement + (k - 1) / 2. */
TyRelResult ty_rel_correlation(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *s1, *dt1, *s2, *dt2;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &s1, &dt1, "NCHW data", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 4, &s2, &dt2, "NCHW data", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, dt1, dt2, message));
  for (int i = 0; i < 4; i++) REL_TRY(ty_rel_same_dim(cx, rel, s1->u.shape.dims[i], s2->u.shape.dims[i], "a dimension of data1 and of data2", message));
  const IrAttrValue *la = ty_rel_attr(rel, IR_A_LAYOUT);
  const char *layout = la->given && !la->none ? la->str : "NCHW";
  if (strcmp(layout, "NCHW")) REL_FAIL("%s takes layout NCHW only, but layout=\"%s\"", ty_rel_who(rel), layout);
  int64_t k = ir_attr_int(rel->attrs, IR_A_KERNEL_SIZE, 1), md = ir_attr_int(rel->attrs, IR_A_MAX_DISPLACEMENT, 1),
          st1 = ir_attr_int(rel->attrs, IR_A_STRIDE1, 1), st2 = ir_attr_int(rel->attrs, IR_A_STRIDE2, 1), pad[4];
  if (k < 1 || k % 2 == 0 || md < 0 || st1 < 1 || st2 < 1)
    REL_FAIL("%s needs an odd kernel_size, max_displacement of 0 or more and strides of 1 or more; they are %lld, %lld, %lld, %lld",
             ty_rel_who(rel), (long long)k, (long long)md, (long long)st1, (long long)st2);
  REL_TRY(ty_rel_padding(rel, pad, message));
  /* sizes from these stay far from int64's end: the displacement grid is ds * ds, the padded data n + 2 pad */
  enum { CORR_MAX = 1 << 30 };
  if (k > CORR_MAX || md > CORR_MAX || pad[0] > CORR_MAX || pad[1] > CORR_MAX || pad[2] > CORR_MAX || pad[3] > CORR_MAX)
    REL_FAIL("%s: dimension too large: kernel_size=%lld, max_displacement=%lld, padding up to %lld (each at most %d)",
             ty_rel_who(rel), (long long)k, (long long)md,
             (long long)(pad[0] > pad[2] ? (pad[0] > pad[1] ? pad[0] : pad[1]) : (pad[2] > pad[3] ? pad[2] : pad[3])),
             CORR_MAX);
  int64_t border = md + (k - 1) / 2, ds = 2 * (md / st2) + 1;
  IrType **d = IR_NEW_ARRAY(IrType *, 4);
  d[0] = s1->u.shape.dims[0];
  d[1] = ty_rel_dim(ds * ds);
  bool open = false;
  for (int a = 0; a < 2; a++) {
    /* ceil((n + pads - 2 border) / stride1) positions where that is 1 or more: a window of 2 border + 1 */
    if (ty_rel_window(cx, rel, s1->u.shape.dims[2 + a], 2 * border + 1, 1, st1, pad[a], pad[a + 2], false, &d[2 + a],
                      &open) == TY_FAILED)
      REL_FAIL("%s: the padded data %s is smaller than the border 2 * %lld", ty_rel_who(rel), ty_rel_shape_text(cx, s1), (long long)border);
    if (ty_rel_overflowed(cx))
      REL_FAIL("%s: dimension too large: the output of %s overflows int64", ty_rel_who(rel), ty_rel_shape_text(cx, s1));
  }
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(4, d), dt1), message));
  return ty_rel_open(ty_rel_float(cx, rel, dt1, "its data", ty_rel_tensor_type(s1, dt1), message), open);
}

/* ---------------------------------------------------------------- Dilation2D */

static const char *str_attr(const TyRelation *rel, IrAttrId id, const char *dflt) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  return a->given && !a->none ? a->str : dflt;
}

/* image.dilation2d(data, weight, strides=[1, 1], padding=[0, 0], dilations=[1, 1], data_layout="NCHW",
 * kernel_layout="IHW", out_dtype): data NCHW (or NHWC), weight (C, kh, kw) (or HWI); the window's
 * positions as a convolution's, of out_dtype (the data's when not given). */
TyRelResult ty_rel_dilation2d(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ds, *ddt, *ws, *wdt;
  const char *dl = str_attr(rel, IR_A_DATA_LAYOUT, "NCHW"), *kl = str_attr(rel, IR_A_KERNEL_LAYOUT, "IHW");
  bool nhwc = !strcmp(dl, "NHWC"), hwi = !strcmp(kl, "HWI");
  if ((!nhwc && strcmp(dl, "NCHW")) || (!hwi && strcmp(kl, "IHW")))
    REL_FAIL("%s takes data_layout NCHW or NHWC and kernel_layout IHW or HWI, but they are \"%s\" and \"%s\"", ty_rel_who(rel), dl, kl);
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &ds, &ddt, "4-d data", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 3, &ws, &wdt, "a 3-d weight", message));
  int ch = nhwc ? 3 : 1, hh = nhwc ? 1 : 2, wc = hwi ? 2 : 0, wh = hwi ? 0 : 1;
  REL_TRY(ty_rel_same_dim(cx, rel, ds->u.shape.dims[ch], ws->u.shape.dims[wc], "the data's channels and the weight's", message));
  int64_t st[2], dil[2], pad[4];
  REL_TRY(ty_rel_pair(rel, IR_A_STRIDES, 1, st, message));
  REL_TRY(ty_rel_pair(rel, IR_A_DILATIONS, 1, dil, message));
  REL_TRY(ty_rel_padding(rel, pad, message));
  if (st[0] < 1 || st[1] < 1 || dil[0] < 1 || dil[1] < 1)
    REL_FAIL("%s needs strides and dilations of 1 or more", ty_rel_who(rel));
  IrType **d = IR_NEW_ARRAY(IrType *, 4);
  d[0] = ds->u.shape.dims[0];
  d[ch] = ds->u.shape.dims[ch];
  bool open = false;
  for (int a = 0; a < 2; a++) {
    int64_t k;
    TyRelResult kr = ty_rel_dim_const(cx, ws->u.shape.dims[wh + a], &k);
    if (kr == TY_NOT_YET) return kr;
    if (kr == TY_FAILED) REL_FAIL("%s needs a weight of known size", ty_rel_who(rel));
    if (ty_rel_window(cx, rel, ds->u.shape.dims[hh + a], k, dil[a], st[a], pad[a], pad[a + 2], false, &d[hh + a], &open) ==
        TY_FAILED)
      REL_FAIL("%s: the window of %lld dilated by %lld is larger than the padded data %s", ty_rel_who(rel), (long long)k,
               (long long)dil[a], ty_rel_shape_text(cx, ds));
  }
  IrType *odt = ty_rel_out_dtype(rel, ddt);
  return ty_rel_open(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(4, d), odt), message), open);
}

/* ---------------------------------------------------------------- FIFOBuffer */

/* nn.fifo_buffer(data, buffer, axis=0): of one rank and type, one shape but along axis, where the data
 * is shorter than the buffer (when both are known); the buffer's type. */
TyRelResult ty_rel_fifo_buffer(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ds, *ddt, *bs, *bdt;
  REL_TRY(ty_rel_tensor(cx, rel, 1, &bs, &bdt, message));
  int r = bs->u.shape.rank, axis;
  if (r < 1) REL_FAIL("%s takes a buffer of rank 1 or more, but it is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, r, &ds, &ddt, "data of the buffer's rank", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, ddt, bdt, message));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, 0), r, 0, &axis, message));
  for (int i = 0; i < r; i++)
    if (i != axis) REL_TRY(ty_rel_same_dim(cx, rel, ds->u.shape.dims[i], bs->u.shape.dims[i], "a dimension of the data and of the buffer", message));
  int64_t gap; /* the buffer's length less the data's, in normal form (n + 1 against n is 1) */
  TyDimState known = ty_rel_dim_state(cx, ty_dim_sub(cx, bs->u.shape.dims[axis], ds->u.shape.dims[axis]), &gap);
  if (known == TY_DIM_CONST && gap <= 0)
    REL_FAIL("%s: the data %s must be shorter than the buffer %s along axis %d", ty_rel_who(rel), ty_rel_shape_text(cx, ds),
             ty_rel_shape_text(cx, bs), axis);
  return ty_rel_open(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(bs, bdt), message), ty_rel_dim_open(known));
}

/* ---------------------------------------------------------------- DeformableConv2D */

/* nn.deformable_conv2d(data, offset, weight, strides, padding, dilation, deformable_groups=1, groups=1,
 * channels, kernel_size, data_layout="NCHW", kernel_layout="OIHW", out_layout, out_dtype): NCHW data,
 * OIHW weight (C / groups inputs); the output a convolution's; the offset (N, 2 * kh * kw *
 * deformable_groups, OH, OW). Other layouts are refused. */
TyRelResult ty_rel_deformable_conv2d(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ds, *ddt, *os, *odt0, *ws, *wdt;
  const char *dl = str_attr(rel, IR_A_DATA_LAYOUT, "NCHW"), *kl = str_attr(rel, IR_A_KERNEL_LAYOUT, "OIHW"),
             *ol = str_attr(rel, IR_A_OUT_LAYOUT, "");
  if (strcmp(dl, "NCHW") || strcmp(kl, "OIHW") || (*ol && strcmp(ol, "NCHW")))
    REL_FAIL("%s: relay takes layouts NCHW and OIHW only, but they are \"%s\" and \"%s\"", ty_rel_who(rel), dl, kl);
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &ds, &ddt, "NCHW data", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 4, &ws, &wdt, "an OIHW weight", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, ddt, wdt, message));
  int64_t st[2], dil[2], pad[4], g = ir_attr_int(rel->attrs, IR_A_GROUPS, 1), dg = ir_attr_int(rel->attrs, IR_A_DEFORMABLE_GROUPS, 1);
  REL_TRY(ty_rel_pair(rel, IR_A_STRIDES, 1, st, message));
  REL_TRY(ty_rel_pair(rel, IR_A_DILATION, 1, dil, message));
  REL_TRY(ty_rel_padding(rel, pad, message));
  if (st[0] < 1 || st[1] < 1 || dil[0] < 1 || dil[1] < 1 || g < 1 || dg < 1)
    REL_FAIL("%s needs strides, dilation, groups and deformable_groups of 1 or more", ty_rel_who(rel));
  int64_t c, o, k[2];
  bool open = false; /* a check on named sizes, made at each use */
  TyDimState rc = ty_rel_dim_state(cx, ds->u.shape.dims[1], &c);
  if (rc == TY_DIM_HOLE) return TY_NOT_YET;
  if (rc == TY_DIM_CONST) {
    if (c % g || c % dg) REL_FAIL("%s: the data's %lld channels are not divisible by groups=%lld and deformable_groups=%lld", ty_rel_who(rel), (long long)c, (long long)g, (long long)dg);
    REL_TRY(ty_rel_same_dim(cx, rel, ws->u.shape.dims[1], ty_rel_dim(c / g), "the weight's input channels and the data's channels / groups", message));
  } else if (rc == TY_DIM_SYMBOLIC) {
    IrType *ci = ty_dim_div(cx, ds->u.shape.dims[1], ty_rel_dim(g)); /* c = weight's I * groups, when it divides */
    if (ci && dg == 1) REL_TRY(ty_rel_same_dim(cx, rel, ws->u.shape.dims[1], ci, "the weight's input channels and the data's channels / groups", message));
    else open = true;
  }
  for (int a = 0; a < 2; a++) {
    TyRelResult kr = ty_rel_dim_const(cx, ws->u.shape.dims[2 + a], &k[a]);
    if (kr == TY_NOT_YET) return kr;
    if (kr == TY_FAILED) REL_FAIL("%s needs a weight of known kernel size", ty_rel_who(rel));
  }
  const IrAttrValue *ks = ty_rel_attr(rel, IR_A_KERNEL_SIZE);
  if (ks->given && !ks->none && (ks->n != 2 || ks->ints[0] != k[0] || ks->ints[1] != k[1]))
    REL_FAIL("%s: kernel_size does not match the weight %s", ty_rel_who(rel), ty_rel_shape_text(cx, ws));
  const IrAttrValue *ch = ty_rel_attr(rel, IR_A_CHANNELS);
  if (ch->given && !ch->none) REL_TRY(ty_rel_same_dim(cx, rel, ws->u.shape.dims[0], ty_rel_dim(ch->ints[0]), "the weight's output channels and channels", message));
  TyDimState ro = ty_rel_dim_state(cx, ws->u.shape.dims[0], &o);
  if (ro == TY_DIM_CONST && o % g)
    REL_FAIL("%s: the weight's %lld output channels are not divisible by groups=%lld", ty_rel_who(rel), (long long)o, (long long)g);
  open |= g > 1 && ty_rel_dim_open(ro);
  IrType **d = IR_NEW_ARRAY(IrType *, 4), **od = IR_NEW_ARRAY(IrType *, 4);
  d[0] = od[0] = ds->u.shape.dims[0];
  d[1] = ws->u.shape.dims[0];
  int64_t offset_channels; /* 2 kh kw deformable_groups: the weight's sizes and dg are not bounded */
  if (__builtin_mul_overflow(k[0], k[1], &offset_channels) || __builtin_mul_overflow(offset_channels, dg, &offset_channels) ||
      __builtin_mul_overflow(offset_channels, 2, &offset_channels))
    REL_FAIL("%s: dimension too large: the offset's channels, 2 x %lld x %lld x deformable_groups=%lld, pass int64",
             ty_rel_who(rel), (long long)k[0], (long long)k[1], (long long)dg);
  od[1] = ty_rel_dim(offset_channels);
  for (int a = 0; a < 2; a++) {
    int64_t span;
    if (__builtin_mul_overflow(k[a] - 1, dil[a], &span) || __builtin_add_overflow(span, 1, &span))
      REL_FAIL("%s: dimension too large: the weight's kernel size %lld dilated by %lld passes int64", ty_rel_who(rel),
               (long long)k[a], (long long)dil[a]);
    if (ty_rel_window(cx, rel, ds->u.shape.dims[2 + a], k[a], dil[a], st[a], pad[a], pad[a + 2], false, &d[2 + a], &open) ==
        TY_FAILED)
      REL_FAIL("%s: the dilated kernel is larger than the padded data %s", ty_rel_who(rel), ty_rel_shape_text(cx, ds));
    if (ty_rel_overflowed(cx))
      REL_FAIL("%s: dimension too large: the output positions over %s pass int64", ty_rel_who(rel), ty_rel_shape_text(cx, ds));
    od[2 + a] = d[2 + a];
  }
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 4, &os, &odt0, "an NCHW offset", message));
  for (int i = 0; i < 4; i++) REL_TRY(ty_rel_same_dim(cx, rel, os->u.shape.dims[i], od[i], "a dimension of the offset and (N, 2 kh kw deformable_groups, OH, OW)", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, odt0, ddt, message));
  REL_TRY(ty_rel_result(cx, rel, 3, ty_rel_tensor_type(ty_rel_shape(4, d), ty_rel_out_dtype(rel, ddt)), message));
  return ty_rel_open(ty_rel_float(cx, rel, ddt, "its data", ty_rel_tensor_type(ds, ddt), message), open);
}

/* ---------------------------------------------------------------- Conv2DBackwardWeight */

/* nn.conv2d_backward_weight(grad, data, strides, padding, dilation, groups=1, channels, kernel_size=,
 * data_layout (the grad's), kernel_layout (the data's), out_layout (the weight's), out_dtype): NCHW grad
 * and data, an OIHW result (O, C / groups, kh, kw) of out_dtype (the grad's); TVM's depthwise case
 * (C == O == groups) gives channels / groups inputs. Constant channels, as TVM requires. */
TyRelResult ty_rel_conv2d_backward_weight(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *gs, *gdt, *ds, *ddt;
  const char *gl = str_attr(rel, IR_A_DATA_LAYOUT, "NCHW"), *dl = str_attr(rel, IR_A_KERNEL_LAYOUT, "NCHW"),
             *wl = str_attr(rel, IR_A_OUT_LAYOUT, "OIHW");
  if (strcmp(gl, "NCHW") || (strcmp(dl, "NCHW") && strcmp(dl, "OIHW")) || (*wl && strcmp(wl, "OIHW")))
    REL_FAIL("%s: relay takes an NCHW grad and data and an OIHW weight only, but the layouts are \"%s\", \"%s\", \"%s\"",
             ty_rel_who(rel), gl, dl, wl);
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &gs, &gdt, "an NCHW grad", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 4, &ds, &ddt, "NCHW data", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, gdt, ddt, message));
  REL_TRY(ty_rel_same_dim(cx, rel, gs->u.shape.dims[0], ds->u.shape.dims[0], "the grad's batch and the data's", message));
  const IrAttrValue *ks = ty_rel_attr(rel, IR_A_KERNEL_SIZE);
  if (!ks->given || ks->none || ks->n != 2 || ks->ints[0] < 1 || ks->ints[1] < 1)
    REL_FAIL("%s needs kernel_size (2 values of 1 or more)", ty_rel_who(rel));
  int64_t c, o, g = ir_attr_int(rel->attrs, IR_A_GROUPS, 1), st[2], dil[2], pad[4];
  REL_TRY(ty_rel_pair(rel, IR_A_STRIDES, 1, st, message));
  REL_TRY(ty_rel_pair(rel, IR_A_DILATION, 1, dil, message));
  REL_TRY(ty_rel_padding(rel, pad, message));
  TyRelResult rc = ty_rel_dim_const(cx, ds->u.shape.dims[1], &c), ro = ty_rel_dim_const(cx, gs->u.shape.dims[1], &o);
  if (rc == TY_NOT_YET || ro == TY_NOT_YET) return TY_NOT_YET;
  if (rc == TY_FAILED || ro == TY_FAILED) REL_FAIL("%s needs constant channels (TVM's)", ty_rel_who(rel));
  if (g < 1 || c % g || o % g || st[0] < 1 || st[1] < 1 || dil[0] < 1 || dil[1] < 1)
    REL_FAIL("%s: groups=%lld must divide the %lld input and %lld output channels; strides and dilation 1 or more", ty_rel_who(rel),
             (long long)g, (long long)c, (long long)o);
  int64_t wi = c / g;
  if (c == o && c == g) {
    const IrAttrValue *ch = ty_rel_attr(rel, IR_A_CHANNELS);
    if (!ch->given || ch->none || ch->n < 1) REL_FAIL("%s: a depthwise gradient needs channels", ty_rel_who(rel));
    wi = ch->ints[0] / g;
    if (wi != 1) REL_FAIL("%s: relay computes depthwise gradients of channel multiplier 1 only (channels=groups)", ty_rel_who(rel));
  }
  IrType **d = IR_NEW_ARRAY(IrType *, 4);
  d[0] = ty_rel_dim(o);
  d[1] = ty_rel_dim(wi);
  d[2] = ty_rel_dim(ks->ints[0]);
  d[3] = ty_rel_dim(ks->ints[1]);
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(4, d), ty_rel_out_dtype(rel, gdt)), message));
  return ty_rel_float(cx, rel, gdt, "its grad", ty_rel_tensor_type(gs, gdt), message);
}
