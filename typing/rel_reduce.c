/* The relations of the reductions: Reduce (sum, mean, max, min, prod), LogicalReduce (all, any:
 * bool tensors), ArgReduce (argmax, argmin: int32 indices) and Variance (data and its mean).
 * `axis` is None (every axis), one axis or a list; `exclude` reduces the axes not listed;
 * `keepdims` keeps them as 1s. */
#include "typing/oprel.h"

/* Which axes of a tensor of rank r the attributes reduce. */
static TyRelResult reduced_axes(TyRelation *rel, int r, bool *reduce, const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_AXIS);
  bool exclude = ty_rel_attr(rel, IR_A_EXCLUDE)->b;
  if (!a->given || a->none || a->n == 0) { /* every axis, whatever `exclude` says (TVM's rule) */
    for (int i = 0; i < r; i++) reduce[i] = true;
    return TY_SOLVED;
  }
  for (int i = 0; i < r; i++) reduce[i] = exclude;
  bool *seen = IR_NEW_ARRAY(bool, r + 1);
  for (int i = 0; i < a->n; i++) {
    int ax;
    REL_TRY(ty_rel_axis(rel, IR_A_AXIS, a->ints[i], r, 0, &ax, message));
    if (seen[ax]) REL_FAIL("%s: axis=%lld names axis %d twice", ty_rel_who(rel), (long long)a->ints[i], ax);
    seen[ax] = true;
    reduce[ax] = !exclude;
  }
  return TY_SOLVED;
}

/* Whether the attributes reduce every axis whatever the rank, into a scalar (no axis, or axis=None, and
 * keepdims=False): the result does not depend on the shape, which may be a Shape variable. */
static bool full_to_scalar(TyRelation *rel) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_AXIS);
  return (!a->given || a->none || a->n == 0) && !ty_rel_attr(rel, IR_A_KEEPDIMS)->b;
}

static TyRelResult reduce(TyCtx *cx, TyRelation *rel, IrType *result_dtype, const char **message) {
  IrType *shape, *dtype;
  IrType *t = ty_prune(cx, rel->args[0]);
  /* `max(%x)` of a Tensor[s, float32] is a float32: GetReduceAxes (TVM's src/relay/op/tensor/reduce.cc) takes
   * every axis when axis is undefined or empty, and ReduceShapeImpl then keeps none. */
  if (t->kind == IR_TYPE_TENSOR && full_to_scalar(rel)) {
    dtype = ty_prune(cx, t->u.tensor.dtype);
    return ty_rel_result(cx, rel, rel->nargs - 1,
                         ty_rel_tensor_type(ty_rel_shape(0, NULL), result_dtype ? result_dtype : dtype), message);
  }
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank;
  bool *reduce = IR_NEW_ARRAY(bool, r + 1);
  REL_TRY(reduced_axes(rel, r, reduce, message));
  bool keep = ty_rel_attr(rel, IR_A_KEEPDIMS)->b;
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  int n = 0;
  for (int i = 0; i < r; i++)
    if (!reduce[i]) dims[n++] = shape->u.shape.dims[i];
    else if (keep) dims[n++] = ty_rel_dim(1);
  return ty_rel_result(cx, rel, rel->nargs - 1, ty_rel_tensor_type(ty_rel_shape(n, dims), result_dtype ? result_dtype : dtype),
                       message);
}

TyRelResult ty_rel_reduce(TyCtx *cx, TyRelation *rel, const char **message) { return reduce(cx, rel, NULL, message); }

TyRelResult ty_rel_logical_reduce(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  TyRelResult known = ty_rel_tensor(cx, rel, 0, &shape, &dtype, message);
  IrType *t = ty_prune(cx, rel->args[0]);
  if (known == TY_FAILED || t->kind != IR_TYPE_TENSOR) return known;
  dtype = t->u.tensor.dtype; /* known even when the shape is not (a Shape variable) */
  IrType *b = ir_type_dtype(IR_DTYPE(IR_DT_BOOL, 1), (IrSpan){0});
  if (!ty_unify(cx, dtype, b, NULL))
    REL_FAIL("%s works on bool tensors, but its argument is %s", ty_rel_who(rel), ty_rel_text(cx, rel->args[0]));
  return reduce(cx, rel, NULL, message);
}

TyRelResult ty_rel_arg_reduce(TyCtx *cx, TyRelation *rel, const char **message) {
  return reduce(cx, rel, ir_type_dtype(IR_DTYPE(IR_DT_INT, 32), (IrSpan){0}), message);
}

/* variance(data, mean): the reduction of data, of its dtype; the mean (mean(data, axis,
 * keepdims=True) as TVM's relay.variance writes it) has data's rank and element type, each
 * dimension data's or 1, so that data - mean is data's shape. */
TyRelResult ty_rel_variance(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *mshape, *mdtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank;
  if (r == 0) REL_FAIL("%s needs a tensor of rank 1 or more, but its first argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, r, &mshape, &mdtype, "a mean", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, dtype, mdtype, message));
  for (int i = 0; i < r; i++) {
    int64_t m;
    TyRelResult k = ty_rel_dim_const(cx, mshape->u.shape.dims[i], &m);
    if (k == TY_NOT_YET) return k;
    if (k == TY_SOLVED && m == 1) continue;
    if (!ty_unify(cx, shape->u.shape.dims[i], mshape->u.shape.dims[i], NULL))
      REL_FAIL("%s: the mean %s must have the data's dimensions %s or 1s, but its dimension %d is %s",
               ty_rel_who(rel), ty_rel_shape_text(cx, mshape), ty_rel_shape_text(cx, shape), i,
               ty_rel_text(cx, mshape->u.shape.dims[i]));
  }
  return reduce(cx, rel, NULL, message);
}
