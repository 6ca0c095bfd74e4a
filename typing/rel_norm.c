/* The relations of the normalization layers and the other layers of networks: batch, layer,
 * instance and group normalization (a data tensor and per-channel vectors), local response and L2
 * normalization, dropout (a pair at inference), prelu, and the cross-entropy losses. Shapes follow
 * TVM's relations (src/relay/op/nn/nn.cc); these layers compute on floats only. */
#include "typing/oprel.h"

#include <string.h>

/* Argument 0 as a tensor of rank >= min_rank: *xs its shape, *xt its base type. Each relation ends
 * with floats(), which waits for a literal's dtype to be decided. */
static TyRelResult float_data(TyCtx *cx, TyRelation *rel, int min_rank, IrType **xs, IrType **xt,
                              const char **message) {
  REL_TRY(ty_rel_tensor(cx, rel, 0, xs, xt, message));
  int r = (*xs)->u.shape.rank;
  if (r < min_rank)
    REL_FAIL("%s needs data of rank %d or more, but it is %s", ty_rel_who(rel), min_rank, ty_rel_text(cx, rel->args[0]));
  return TY_SOLVED;
}

static TyRelResult floats(TyCtx *cx, TyRelation *rel, IrType *xt, const char **message) {
  return ty_rel_float(cx, rel, xt, "its data", rel->args[0], message);
}

/* Arguments first .. first + n - 1 are each a vector of the channel dimension `c` of dtype xt;
 * `names` names them for the message. */
static TyRelResult channel_vectors(TyCtx *cx, TyRelation *rel, int first, int n, IrType *c, IrType *xs, IrType *xt,
                                   int axis, const char *const *names, const char **message) {
  IrType **d = IR_NEW_ARRAY(IrType *, 1);
  d[0] = c;
  IrType *vec = ty_rel_tensor_type(ty_rel_shape(1, d), xt);
  for (int i = 0; i < n; i++)
    if (!ty_unify(cx, rel->args[first + i], vec, NULL))
      REL_FAIL("%s: %s must be %s (dimension %d of the data %s), but it is %s", ty_rel_who(rel), names[i],
               ty_rel_text(cx, vec), axis, ty_rel_shape_text(cx, xs), ty_rel_text(cx, rel->args[first + i]));
  return TY_SOLVED;
}

/* The channel axis: the attribute axis (default dflt) made non-negative. */
static TyRelResult channel_axis(TyRelation *rel, IrType *xs, int64_t dflt, int *axis, const char **message) {
  return ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, dflt), xs->u.shape.rank, 0, axis, message);
}

static TyRelResult epsilon_ok(TyRelation *rel, IrAttrId id, const char **message) {
  double eps = ir_attr_float(rel->attrs, id, 1e-5);
  if (!(eps >= 0)) REL_FAIL("%s: %s=%g must be zero or more", ty_rel_who(rel), ir_attr_name(id), eps);
  return TY_SOLVED;
}

TyRelResult ty_rel_batch_norm(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  int axis;
  REL_TRY(float_data(cx, rel, 1, &xs, &xt, message));
  REL_TRY(channel_axis(rel, xs, 1, &axis, message));
  REL_TRY(epsilon_ok(rel, IR_A_EPSILON, message));
  static const char *const names[] = {"gamma", "beta", "the moving mean", "the moving variance"};
  IrType *c = ty_rel_dim_at(xs, axis);
  REL_TRY(channel_vectors(cx, rel, 1, 4, c, xs, xt, axis, names, message));
  IrType **d = IR_NEW_ARRAY(IrType *, 1);
  d[0] = c;
  IrType *vec = ty_rel_tensor_type(ty_rel_shape(1, d), xt);
  IrType **fields = IR_NEW_ARRAY(IrType *, 3);
  fields[0] = ty_rel_tensor_type(xs, xt);
  fields[1] = fields[2] = vec;
  REL_TRY(ty_rel_result(cx, rel, 5, ir_type_tuple(3, fields, rel->span), message));
  return floats(cx, rel, xt, message);
}

/* Layer, instance and group normalization: data, gamma, beta -> data's type. */
static TyRelResult norm3(TyCtx *cx, TyRelation *rel, int min_rank, int64_t dflt_axis, int64_t groups,
                         const char **message) {
  IrType *xs, *xt;
  int axis;
  REL_TRY(float_data(cx, rel, min_rank, &xs, &xt, message));
  REL_TRY(channel_axis(rel, xs, dflt_axis, &axis, message));
  REL_TRY(epsilon_ok(rel, IR_A_EPSILON, message));
  IrType *c = ty_rel_dim_at(xs, axis);
  bool open = false;
  if (groups) {
    if (groups < 1) REL_FAIL("%s: num_groups=%lld must be 1 or more", ty_rel_who(rel), (long long)groups);
    int64_t n;
    TyDimState known = ty_rel_dim_state(cx, c, &n);
    if (known == TY_DIM_CONST && n % groups)
      REL_FAIL("%s: num_groups=%lld does not divide the %lld channels (dimension %d of %s)", ty_rel_who(rel),
               (long long)groups, (long long)n, axis, ty_rel_shape_text(cx, xs));
    open = groups > 1 && ty_rel_dim_open(known); /* checked at each use, or once known */
  }
  static const char *const names[] = {"gamma", "beta"};
  REL_TRY(channel_vectors(cx, rel, 1, 2, c, xs, xt, axis, names, message));
  REL_TRY(ty_rel_result(cx, rel, 3, rel->args[0], message));
  return ty_rel_open(floats(cx, rel, xt, message), open);
}

TyRelResult ty_rel_layer_norm(TyCtx *cx, TyRelation *rel, const char **message) {
  return norm3(cx, rel, 1, -1, 0, message);
}

TyRelResult ty_rel_instance_norm(TyCtx *cx, TyRelation *rel, const char **message) {
  return norm3(cx, rel, 3, 1, 0, message);
}

TyRelResult ty_rel_group_norm(TyCtx *cx, TyRelation *rel, const char **message) {
  int64_t g = ir_attr_int(rel->attrs, IR_A_NUM_GROUPS, 0);
  if (g < 1) REL_FAIL("%s: num_groups=%lld must be 1 or more", ty_rel_who(rel), (long long)g);
  return norm3(cx, rel, 2, 1, g, message);
}

TyRelResult ty_rel_lrn(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  int axis;
  REL_TRY(float_data(cx, rel, 1, &xs, &xt, message));
  REL_TRY(channel_axis(rel, xs, 1, &axis, message));
  int64_t size = ir_attr_int(rel->attrs, IR_A_SIZE, 5);
  if (size < 1) REL_FAIL("%s: size=%lld must be 1 or more", ty_rel_who(rel), (long long)size);
  REL_TRY(ty_rel_result(cx, rel, 1, rel->args[0], message));
  return floats(cx, rel, xt, message);
}

TyRelResult ty_rel_l2_normalize(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(float_data(cx, rel, 0, &xs, &xt, message));
  REL_TRY(epsilon_ok(rel, IR_A_EPS, message));
  const IrAttrValue *ax = ty_rel_attr(rel, IR_A_AXIS);
  int r = xs->u.shape.rank, a;
  if (ax->given && !ax->none)
    for (int i = 0; i < ax->n; i++) REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ax->ints[i], r, 0, &a, message));
  REL_TRY(ty_rel_result(cx, rel, 1, rel->args[0], message));
  return floats(cx, rel, xt, message);
}

TyRelResult ty_rel_dropout(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(float_data(cx, rel, 0, &xs, &xt, message));
  double rate = ir_attr_float(rel->attrs, IR_A_RATE, 0.5);
  if (!(rate >= 0 && rate <= 1)) REL_FAIL("%s: rate=%g is not between 0 and 1", ty_rel_who(rel), rate);
  IrType **fields = IR_NEW_ARRAY(IrType *, 2);
  fields[0] = fields[1] = ty_rel_tensor_type(xs, xt);
  REL_TRY(ty_rel_result(cx, rel, 1, ir_type_tuple(2, fields, rel->span), message));
  return floats(cx, rel, xt, message);
}

TyRelResult ty_rel_prelu(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  int axis;
  REL_TRY(float_data(cx, rel, 1, &xs, &xt, message));
  REL_TRY(channel_axis(rel, xs, 1, &axis, message));
  static const char *const names[] = {"alpha"};
  REL_TRY(channel_vectors(cx, rel, 1, 1, ty_rel_dim_at(xs, axis), xs, xt, axis, names, message));
  REL_TRY(ty_rel_result(cx, rel, 2, rel->args[0], message));
  return floats(cx, rel, xt, message);
}

/* Predictions and targets, both (batch, classes), to a scalar of their dtype. */
TyRelResult ty_rel_cross_entropy(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *ys, *yt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 2, &xs, &xt, "predictions (batch, classes)", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 2, &ys, &yt, "targets (batch, classes)", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, xt, yt, message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(xs, 0), ty_rel_dim_at(ys, 0), "the batch dimensions", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(xs, 1), ty_rel_dim_at(ys, 1), "the class dimensions", message));
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(0, NULL), xt), message));
  return ty_rel_float(cx, rel, xt, "its predictions", rel->args[0], message);
}

/* nn.nll_loss(predictions (N, C, d1, ...), targets (N, d1, ...), weights (C)): predictions one axis more than the
 * targets, whose other axes they share; predictions and weights of one float type, targets signed integers; the
 * result is a scalar for reduction "mean" (the default) and "sum", the targets' shape for "none" (TVM's NLLLossRel). */
TyRelResult ty_rel_nll_loss(TyCtx *cx, TyRelation *rel, const char **message) {
  const IrAttrValue *ra = ty_rel_attr(rel, IR_A_REDUCTION);
  const char *red = ra->given && !ra->none && ra->str ? ra->str : "mean";
  if (strcmp(red, "mean") && strcmp(red, "sum") && strcmp(red, "none"))
    REL_FAIL("%s: reduction=\"%s\" is not one of \"mean\", \"sum\" and \"none\"", ty_rel_who(rel), red);
  IrType *ts, *tt, *ps, *pt, *ws, *wt;
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ts, &tt, message));
  int r = ts->u.shape.rank;
  if (r < 1) REL_FAIL("%s: the targets are a scalar, but they take a batch axis (N, d1, ...)", ty_rel_who(rel));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, r + 1, &ps, &pt, "predictions (one axis more than the targets)", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 1, &ws, &wt, "weights (classes)", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, pt, wt, message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(ps, 1), ty_rel_dim_at(ws, 0),
                          "the predictions' classes (axis 1) and the weights' length", message));
  for (int i = 0; i < r; i++)
    REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(ps, i == 0 ? 0 : i + 1), ty_rel_dim_at(ts, i),
                            ir_printf("axis %d of the predictions and axis %d of the targets", i == 0 ? 0 : i + 1, i),
                            message));
  if (tt->kind == IR_TYPE_DTYPE && tt->u.dtype.code != IR_DT_INT)
    REL_FAIL("%s takes signed integer targets, but they are %s", ty_rel_who(rel), ty_rel_text(cx, tt));
  IrType *shape = strcmp(red, "none") ? ty_rel_shape(0, NULL) : ts;
  REL_TRY(ty_rel_result(cx, rel, 3, ty_rel_tensor_type(shape, pt), message));
  return ty_rel_float(cx, rel, pt, "its predictions", rel->args[0], message);
}
