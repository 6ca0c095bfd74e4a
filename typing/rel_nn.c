/* The relations of the matrix products and their companions: Dense (x times w transposed), Matmul,
 * BatchMatmul, BiasAdd and Softmax. The inner dimensions must agree (symbolically: `(n, 784)` by
 * `(512, 784)` gives `(n, 512)`); a weight not known yet is given the shape the data implies. */
#include "typing/oprel.h"

/* ---------------------------------------------------------------- Dense, Matmul, BatchMatmul */

TyRelResult ty_rel_dense(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *ws, *wt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  if (xs->u.shape.rank < 1) REL_FAIL("%s multiplies matrices, but its first argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 2, &ws, &wt, "a weight (units, input size)", message));
  REL_TRY(ty_rel_product_dtypes(cx, rel, xt, wt, message));
  IrType *k = ty_rel_dim_at(xs, -1);
  if (!ty_unify(cx, ty_rel_dim_at(ws, 1), k, NULL))
    REL_FAIL("%s: the input's last dimension is %s, but the weight's second dimension is %s\n"
             "input: %s, weight: %s\n"
             "nn.dense multiplies by the weight transposed, so the weight is (units, %s)",
             ty_rel_who(rel), ty_rel_text(cx, k), ty_rel_text(cx, ty_rel_dim_at(ws, 1)), ty_rel_shape_text(cx, xs),
             ty_rel_shape_text(cx, ws), ty_rel_text(cx, k));
  const IrAttrValue *units = ty_rel_attr(rel, IR_A_UNITS);
  if (units->given && !units->none && !ty_unify(cx, ty_rel_dim_at(ws, 0), ty_rel_dim(units->ints[0]), NULL))
    REL_FAIL("%s: units=%lld, but the weight has %s rows", ty_rel_who(rel), (long long)units->ints[0],
             ty_rel_text(cx, ty_rel_dim_at(ws, 0)));
  int r = xs->u.shape.rank;
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  for (int i = 0; i < r - 1; i++) dims[i] = xs->u.shape.dims[i];
  dims[r - 1] = ty_rel_dim_at(ws, 0);
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(r, dims), ty_rel_out_dtype(rel, xt)), message);
}

TyRelResult ty_rel_matmul(TyCtx *cx, TyRelation *rel, const char **message) {
  bool ta = ty_rel_attr(rel, IR_A_TRANSPOSE_A)->b, tb = ty_rel_attr(rel, IR_A_TRANSPOSE_B)->b;
  IrType *as, *at, *bs, *bt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &as, &at, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 2, &bs, &bt, "a second argument", message));
  REL_TRY(ty_rel_product_dtypes(cx, rel, at, bt, message));
  int r = as->u.shape.rank;
  if (r < 1 || (ta && r < 2))
    REL_FAIL("%s takes a first argument of rank %s, but it is %s", ty_rel_who(rel), ta ? "2 or more (with transpose_a)" : "1 or more",
             ty_rel_text(cx, rel->args[0]));
  /* transpose_a transposes the last two axes of the first argument (TVM's MatmulRel) */
  IrType *k = ta ? ty_rel_dim_at(as, -2) : ty_rel_dim_at(as, -1), *kb = tb ? ty_rel_dim_at(bs, 1) : ty_rel_dim_at(bs, 0);
  if (!ty_unify(cx, k, kb, NULL))
    REL_FAIL("%s: the inner dimensions differ: %s in the first argument %s, %s in the second %s", ty_rel_who(rel),
             ty_rel_text(cx, k), ty_rel_shape_text(cx, as), ty_rel_text(cx, kb), ty_rel_shape_text(cx, bs));
  IrType *n = tb ? ty_rel_dim_at(bs, 0) : ty_rel_dim_at(bs, 1);
  const IrAttrValue *units = ty_rel_attr(rel, IR_A_UNITS);
  if (units->given && !units->none && !ty_unify(cx, n, ty_rel_dim(units->ints[0]), NULL))
    REL_FAIL("%s: units=%lld, but the second argument gives %s", ty_rel_who(rel), (long long)units->ints[0],
             ty_rel_text(cx, n));
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  for (int i = 0; i < r - 1; i++) dims[i] = as->u.shape.dims[i];
  if (ta) dims[r - 2] = ty_rel_dim_at(as, -1);
  dims[r - 1] = n;
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(r, dims), ty_rel_out_dtype(rel, at)), message);
}

TyRelResult ty_rel_batch_matmul(TyCtx *cx, TyRelation *rel, const char **message) {
  /* Both False when omitted: BatchMatmulAttrs' C++ defaults (include/tvm/relay/attrs/nn.h), which TVM's parser
   * fills in (Python's relay.nn.batch_matmul defaults transpose_b to True, and prints it). */
  bool ta = ty_rel_attr(rel, IR_A_TRANSPOSE_A)->b, tb = ty_rel_attr(rel, IR_A_TRANSPOSE_B)->b;
  IrType *xs, *xt, *ys, *yt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 3, &xs, &xt, "a first argument (batch, rows, inner)", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 3, &ys, &yt, "a second argument (batch, ., .)", message));
  REL_TRY(ty_rel_product_dtypes(cx, rel, xt, yt, message));
  IrType *batch;
  TyRelResult b = ty_rel_broadcast_dim(cx, ty_rel_dim_at(xs, 0), ty_rel_dim_at(ys, 0), &batch);
  if (b == TY_NOT_YET && !batch) return b;
  if (b == TY_FAILED)
    REL_FAIL("%s: the batch dimensions %s and %s differ (one may be 1)", ty_rel_who(rel), ty_rel_text(cx, ty_rel_dim_at(xs, 0)),
             ty_rel_text(cx, ty_rel_dim_at(ys, 0)));
  IrType *k = ta ? ty_rel_dim_at(xs, 1) : ty_rel_dim_at(xs, 2), *ky = tb ? ty_rel_dim_at(ys, 2) : ty_rel_dim_at(ys, 1);
  if (!ty_unify(cx, k, ky, NULL))
    REL_FAIL("%s: the inner dimensions differ: %s in %s and %s in %s%s", ty_rel_who(rel), ty_rel_text(cx, k),
             ty_rel_shape_text(cx, xs), ty_rel_text(cx, ky), ty_rel_shape_text(cx, ys),
             tb ? " (the second is transposed: transpose_b=True)" : "");
  IrType **dims = IR_NEW_ARRAY(IrType *, 3);
  dims[0] = batch;
  dims[1] = ta ? ty_rel_dim_at(xs, 2) : ty_rel_dim_at(xs, 1);
  dims[2] = tb ? ty_rel_dim_at(ys, 1) : ty_rel_dim_at(ys, 2);
  TyRelResult r = ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(3, dims), ty_rel_out_dtype(rel, xt)), message);
  return r == TY_SOLVED ? b : r; /* the batch axes still to be checked: run again */
}

/* ---------------------------------------------------------------- BiasAdd, Softmax */

TyRelResult ty_rel_bias_add(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  int r = xs->u.shape.rank, axis;
  if (r == 0) REL_FAIL("%s adds along an axis, but its first argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, 1), r, 0, &axis, message));
  IrType **d = IR_NEW_ARRAY(IrType *, 1);
  d[0] = xs->u.shape.dims[axis];
  IrType *bias = ty_rel_tensor_type(ty_rel_shape(1, d), xt);
  if (!ty_unify(cx, rel->args[1], bias, NULL))
    REL_FAIL("%s: the bias must be %s (dimension %d of %s), but it is %s", ty_rel_who(rel), ty_rel_text(cx, bias), axis,
             ty_rel_shape_text(cx, xs), ty_rel_text(cx, rel->args[1]));
  return ty_rel_result(cx, rel, 2, rel->args[0], message);
}

TyRelResult ty_rel_softmax(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  int r = xs->u.shape.rank, axis;
  if (r == 0) REL_FAIL("%s works along an axis, but its argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, -1), r, 0, &axis, message));
  REL_TRY(ty_rel_result(cx, rel, 1, rel->args[0], message));
  return ty_rel_float(cx, rel, xt, "its argument", rel->args[0], message);
}

