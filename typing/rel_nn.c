/* The relations of the neural-network operators: Dense (x times w transposed), Matmul,
 * BatchMatmul, BiasAdd, Softmax, Conv2D (NCHW data, OIHW weights), Pool2D and GlobalPool2D. The
 * inner dimensions must agree (symbolically: `(n, 784)` by `(512, 784)` gives `(n, 512)`); a
 * weight not known yet is given the shape the data implies. */
#include "typing/oprel.h"

#include <string.h>

/* out_dtype, or the input's. */
static IrType *out_dtype(const TyRelation *rel, IrType *dflt) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_OUT_DTYPE);
  return a->given && !a->none ? ir_type_dtype(a->dtype, (IrSpan){0}) : dflt;
}

/* Argument i as a tensor of known rank `rank` (or any rank when -1); a hole becomes a tensor of
 * fresh dimensions when `make` says so. */
static TyRelResult tensor_of_rank(TyCtx *cx, TyRelation *rel, int i, int rank, IrType **shape, IrType **dtype,
                                  const char *what, const char **message) {
  IrType *t = ty_prune(cx, rel->args[i]);
  if (t->kind == IR_TYPE_HOLE && rank >= 0) {
    IrType **dims = IR_NEW_ARRAY(IrType *, rank + 1);
    for (int k = 0; k < rank; k++) dims[k] = ty_fresh(cx, IR_KIND_SHAPEVAR, rel->span);
    ty_bind_hole(cx, t, ty_rel_tensor_type(ty_rel_shape(rank, dims), ty_fresh(cx, IR_KIND_BASETYPE, rel->span)), NULL);
  }
  REL_TRY(ty_rel_tensor(cx, rel, i, shape, dtype, message));
  if (rank >= 0 && (*shape)->u.shape.rank != rank)
    REL_FAIL("%s takes %s of rank %d, but it is %s", ty_rel_who(rel), what, rank, ty_rel_text(cx, rel->args[i]));
  return TY_SOLVED;
}

static IrType *dim(IrType *shape, int i) { return shape->u.shape.dims[i < 0 ? shape->u.shape.rank + i : i]; }

/* ---------------------------------------------------------------- Dense, Matmul, BatchMatmul */

TyRelResult ty_rel_dense(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *ws, *wt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  if (xs->u.shape.rank < 1) REL_FAIL("%s multiplies matrices, but its first argument is a scalar", ty_rel_who(rel));
  REL_TRY(tensor_of_rank(cx, rel, 1, 2, &ws, &wt, "a weight (units, input size)", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, xt, wt, message));
  IrType *k = dim(xs, -1);
  if (!ty_unify(cx, dim(ws, 1), k, NULL))
    REL_FAIL("%s: the input's last dimension is %s, but the weight's second dimension is %s\n"
             "input: %s, weight: %s\n"
             "nn.dense multiplies by the weight transposed, so the weight is (units, %s)",
             ty_rel_who(rel), ty_rel_text(cx, k), ty_rel_text(cx, dim(ws, 1)), ty_rel_shape_text(cx, xs),
             ty_rel_shape_text(cx, ws), ty_rel_text(cx, k));
  const IrAttrValue *units = ty_rel_attr(rel, IR_A_UNITS);
  if (units->given && !units->none && !ty_unify(cx, dim(ws, 0), ty_rel_dim(units->ints[0]), NULL))
    REL_FAIL("%s: units=%lld, but the weight has %s rows", ty_rel_who(rel), (long long)units->ints[0],
             ty_rel_text(cx, dim(ws, 0)));
  int r = xs->u.shape.rank;
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  for (int i = 0; i < r - 1; i++) dims[i] = xs->u.shape.dims[i];
  dims[r - 1] = dim(ws, 0);
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(r, dims), out_dtype(rel, xt)), message);
}

TyRelResult ty_rel_matmul(TyCtx *cx, TyRelation *rel, const char **message) {
  bool ta = ty_rel_attr(rel, IR_A_TRANSPOSE_A)->b, tb = ty_rel_attr(rel, IR_A_TRANSPOSE_B)->b;
  IrType *as, *at, *bs, *bt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &as, &at, message));
  REL_TRY(tensor_of_rank(cx, rel, 1, 2, &bs, &bt, "a second argument", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, at, bt, message));
  int r = as->u.shape.rank;
  if (r < 1 || (ta && r != 2))
    REL_FAIL("%s takes a first argument of rank %s, but it is %s", ty_rel_who(rel), ta ? "2 (with transpose_a)" : "1 or more",
             ty_rel_text(cx, rel->args[0]));
  IrType *k = ta ? dim(as, 0) : dim(as, -1), *kb = tb ? dim(bs, 1) : dim(bs, 0);
  if (!ty_unify(cx, k, kb, NULL))
    REL_FAIL("%s: the inner dimensions differ: %s in the first argument %s, %s in the second %s", ty_rel_who(rel),
             ty_rel_text(cx, k), ty_rel_shape_text(cx, as), ty_rel_text(cx, kb), ty_rel_shape_text(cx, bs));
  IrType *n = tb ? dim(bs, 0) : dim(bs, 1);
  const IrAttrValue *units = ty_rel_attr(rel, IR_A_UNITS);
  if (units->given && !units->none && !ty_unify(cx, n, ty_rel_dim(units->ints[0]), NULL))
    REL_FAIL("%s: units=%lld, but the second argument gives %s", ty_rel_who(rel), (long long)units->ints[0],
             ty_rel_text(cx, n));
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  if (ta) dims[0] = dim(as, 1);
  else
    for (int i = 0; i < r - 1; i++) dims[i] = as->u.shape.dims[i];
  dims[r - 1] = n;
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(r, dims), out_dtype(rel, at)), message);
}

TyRelResult ty_rel_batch_matmul(TyCtx *cx, TyRelation *rel, const char **message) {
  const IrAttrValue *tbv = ty_rel_attr(rel, IR_A_TRANSPOSE_B);
  bool ta = ty_rel_attr(rel, IR_A_TRANSPOSE_A)->b, tb = tbv->given ? tbv->b : true;
  IrType *xs, *xt, *ys, *yt;
  REL_TRY(tensor_of_rank(cx, rel, 0, 3, &xs, &xt, "a first argument (batch, rows, inner)", message));
  REL_TRY(tensor_of_rank(cx, rel, 1, 3, &ys, &yt, "a second argument (batch, ., .)", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, xt, yt, message));
  IrType *batch;
  TyRelResult b = ty_rel_broadcast_dim(cx, dim(xs, 0), dim(ys, 0), &batch);
  if (b == TY_NOT_YET) return b;
  if (b == TY_FAILED)
    REL_FAIL("%s: the batch dimensions %s and %s differ (one may be 1)", ty_rel_who(rel), ty_rel_text(cx, dim(xs, 0)),
             ty_rel_text(cx, dim(ys, 0)));
  IrType *k = ta ? dim(xs, 1) : dim(xs, 2), *ky = tb ? dim(ys, 2) : dim(ys, 1);
  if (!ty_unify(cx, k, ky, NULL))
    REL_FAIL("%s: the inner dimensions differ: %s in %s and %s in %s%s", ty_rel_who(rel), ty_rel_text(cx, k),
             ty_rel_shape_text(cx, xs), ty_rel_text(cx, ky), ty_rel_shape_text(cx, ys),
             tb ? " (the second is transposed: transpose_b=True by default)" : "");
  IrType **dims = IR_NEW_ARRAY(IrType *, 3);
  dims[0] = batch;
  dims[1] = ta ? dim(xs, 2) : dim(xs, 1);
  dims[2] = tb ? dim(ys, 1) : dim(ys, 2);
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(3, dims), out_dtype(rel, xt)), message);
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
  if (xt->kind == IR_TYPE_DTYPE && xt->u.dtype.code != IR_DT_FLOAT)
    REL_FAIL("%s works on floats, but its argument is %s", ty_rel_who(rel), ty_rel_text(cx, rel->args[0]));
  int r = xs->u.shape.rank, axis;
  if (r == 0) REL_FAIL("%s works along an axis, but its argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, -1), r, 0, &axis, message));
  return ty_rel_result(cx, rel, 1, rel->args[0], message);
}

/* ---------------------------------------------------------------- Conv2D, Pool2D */

static TyRelResult layout(TyRelation *rel, IrAttrId id, const char *want, const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  if (a->given && a->str && *a->str && strcmp(a->str, want))
    REL_FAIL("%s: %s=\"%s\" is not supported; only \"%s\"", ty_rel_who(rel), ir_attr_name(id), a->str, want);
  return TY_SOLVED;
}

/* The output size of a window of `k` (dilated by `dil`) sliding by `stride` over `in` padded by
 * lo + hi; NULL when the window does not fit. */
static IrType *window_out(TyCtx *cx, IrType *in, int64_t k, int64_t dil, int64_t stride, int64_t lo, int64_t hi,
                          bool ceil_mode, bool *empty) {
  int64_t n;
  *empty = false;
  if (ty_dim_value(cx, in, &n)) {
    int64_t len = ir_window_length(n, k, dil, stride, lo, hi, ceil_mode);
    *empty = len < 0;
    return *empty ? NULL : ty_rel_dim(len);
  }
  if (stride == 1) return ty_dim_add(cx, in, ty_rel_dim(lo + hi - dil * (k - 1)));
  return ty_dim_any();
}

static TyRelResult positive(TyRelation *rel, IrAttrId id, const int64_t v[2], const char **message) {
  for (int i = 0; i < 2; i++)
    if (v[i] < 1) REL_FAIL("%s: %s=%lld must be at least 1", ty_rel_who(rel), ir_attr_name(id), (long long)v[i]);
  return TY_SOLVED;
}

TyRelResult ty_rel_conv2d(TyCtx *cx, TyRelation *rel, const char **message) {
  REL_TRY(layout(rel, IR_A_DATA_LAYOUT, "NCHW", message));
  REL_TRY(layout(rel, IR_A_KERNEL_LAYOUT, "OIHW", message));
  REL_TRY(layout(rel, IR_A_OUT_LAYOUT, "NCHW", message));
  IrType *xs, *xt, *ws, *wt;
  REL_TRY(tensor_of_rank(cx, rel, 0, 4, &xs, &xt, "data (batch, channels, height, width)", message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ws, &wt, message));
  if (ws->u.shape.rank != 4)
    REL_FAIL("%s takes a weight of rank 4 (out channels, in channels / groups, height, width), but it is %s",
             ty_rel_who(rel), ty_rel_text(cx, rel->args[1]));
  REL_TRY(ty_rel_same_dtype(cx, rel, xt, wt, message));
  int64_t strides[2], dil[2], pad[4], kernel[2];
  REL_TRY(ty_rel_pair(rel, IR_A_STRIDES, 1, strides, message));
  REL_TRY(positive(rel, IR_A_STRIDES, strides, message));
  REL_TRY(ty_rel_pair(rel, IR_A_DILATION, 1, dil, message));
  REL_TRY(positive(rel, IR_A_DILATION, dil, message));
  REL_TRY(ty_rel_padding(rel, pad, message));
  const IrAttrValue *ch = ty_rel_attr(rel, IR_A_CHANNELS),
                    *ks = ty_rel_attr(rel, IR_A_KERNEL_SIZE);
  int64_t groups = ir_attr_int(rel->attrs, IR_A_GROUPS, 1);
  if (groups < 1) REL_FAIL("%s: groups=%lld must be at least 1", ty_rel_who(rel), (long long)groups);
  IrType *cin = ty_dim_mul(cx, dim(ws, 1), ty_rel_dim(groups));
  if (!ty_unify(cx, dim(xs, 1), cin, NULL))
    REL_FAIL("%s: the data has %s channels, but the weight %s takes %s (its second dimension times groups=%lld)",
             ty_rel_who(rel), ty_rel_text(cx, dim(xs, 1)), ty_rel_shape_text(cx, ws), ty_rel_text(cx, cin), (long long)groups);
  int64_t o;
  if (groups > 1 && ty_dim_value(cx, dim(ws, 0), &o) && o % groups != 0)
    REL_FAIL("%s: groups=%lld does not divide the %lld output channels", ty_rel_who(rel), (long long)groups, (long long)o);
  if (ch->given && !ch->none && !ty_unify(cx, dim(ws, 0), ty_rel_dim(ch->ints[0]), NULL))
    REL_FAIL("%s: channels=%lld, but the weight has %s output channels", ty_rel_who(rel), (long long)ch->ints[0],
             ty_rel_text(cx, dim(ws, 0)));
  if (ks->given && !ks->none) {
    REL_TRY(ty_rel_pair(rel, IR_A_KERNEL_SIZE, 1, kernel, message));
    for (int i = 0; i < 2; i++)
      if (!ty_unify(cx, dim(ws, 2 + i), ty_rel_dim(kernel[i]), NULL))
        REL_FAIL("%s: kernel_size=%lld, but the weight is %s", ty_rel_who(rel), (long long)kernel[i],
                 ty_rel_shape_text(cx, ws));
  }
  IrType **dims = IR_NEW_ARRAY(IrType *, 4);
  dims[0] = dim(xs, 0);
  dims[1] = dim(ws, 0);
  for (int i = 0; i < 2; i++) {
    int64_t k;
    if (!ty_dim_value(cx, dim(ws, 2 + i), &k)) {
      dims[2 + i] = ty_dim_any();
      continue;
    }
    bool empty;
    dims[2 + i] = window_out(cx, dim(xs, 2 + i), k, dil[i], strides[i], pad[i], pad[i + 2], false, &empty);
    if (empty)
      REL_FAIL("%s: the kernel %s (dilation %lld) does not fit the padded data %s", ty_rel_who(rel),
               ty_rel_shape_text(cx, ws), (long long)dil[i], ty_rel_shape_text(cx, xs));
  }
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(4, dims), out_dtype(rel, xt)), message);
}

TyRelResult ty_rel_pool2d(TyCtx *cx, TyRelation *rel, const char **message) {
  REL_TRY(layout(rel, IR_A_LAYOUT, "NCHW", message));
  IrType *xs, *xt;
  REL_TRY(tensor_of_rank(cx, rel, 0, 4, &xs, &xt, "data (batch, channels, height, width)", message));
  int64_t pool[2], strides[2], dil[2], pad[4];
  REL_TRY(ty_rel_pair(rel, IR_A_POOL_SIZE, 1, pool, message));
  REL_TRY(positive(rel, IR_A_POOL_SIZE, pool, message));
  REL_TRY(ty_rel_pair(rel, IR_A_STRIDES, 1, strides, message));
  REL_TRY(positive(rel, IR_A_STRIDES, strides, message));
  REL_TRY(ty_rel_pair(rel, IR_A_DILATION, 1, dil, message));
  REL_TRY(positive(rel, IR_A_DILATION, dil, message));
  REL_TRY(ty_rel_padding(rel, pad, message));
  bool ceil_mode = ty_rel_attr(rel, IR_A_CEIL_MODE)->b;
  IrType **dims = IR_NEW_ARRAY(IrType *, 4);
  dims[0] = dim(xs, 0);
  dims[1] = dim(xs, 1);
  for (int i = 0; i < 2; i++) {
    bool empty;
    dims[2 + i] = window_out(cx, dim(xs, 2 + i), pool[i], dil[i], strides[i], pad[i], pad[i + 2], ceil_mode, &empty);
    if (empty)
      REL_FAIL("%s: pool_size=%lld does not fit the padded data %s", ty_rel_who(rel), (long long)pool[i],
               ty_rel_shape_text(cx, xs));
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(4, dims), xt), message);
}

TyRelResult ty_rel_global_pool2d(TyCtx *cx, TyRelation *rel, const char **message) {
  REL_TRY(layout(rel, IR_A_LAYOUT, "NCHW", message));
  IrType *xs, *xt;
  REL_TRY(tensor_of_rank(cx, rel, 0, 4, &xs, &xt, "data (batch, channels, height, width)", message));
  IrType **dims = IR_NEW_ARRAY(IrType *, 4);
  dims[0] = dim(xs, 0);
  dims[1] = dim(xs, 1);
  dims[2] = dims[3] = ty_rel_dim(1);
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(4, dims), xt), message);
}
