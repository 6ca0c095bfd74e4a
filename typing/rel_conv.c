/* The relations of the convolutions and pools: Conv2D (NCHW data, OIHW weights), Pool2D and
 * GlobalPool2D. An output size comes from the window rule (ir_window_length) once the input's
 * size is known (a relation waits for a size that is still a hole); over a named shape variable
 * it is exact for stride 1 and `?` otherwise. */
#include "typing/oprel.h"

#include <string.h>

/* ---------------------------------------------------------------- Conv2D, Pool2D */

static TyRelResult layout(TyRelation *rel, IrAttrId id, const char *want, const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  if (a->given && a->str && *a->str && strcmp(a->str, want))
    REL_FAIL("%s: %s=\"%s\" is not supported; only \"%s\"", ty_rel_who(rel), ir_attr_name(id), a->str, want);
  return TY_SOLVED;
}

/* The output size of a window of `k` (dilated by `dil`) sliding by `stride` over `in` padded by
 * lo + hi: TY_SOLVED with *out; TY_NOT_YET while the size is a hole that a stride needs the value
 * of; TY_FAILED when the window does not fit. With stride 1 the size is exact arithmetic on any
 * dimension (`n - 2`); over a named shape variable, a stride gives `?`. */
static TyRelResult window_out(TyCtx *cx, IrType *in, int64_t k, int64_t dil, int64_t stride, int64_t lo, int64_t hi,
                              bool ceil_mode, IrType **out) {
  int64_t n;
  switch (ty_rel_dim_const(cx, in, &n)) {
  case TY_SOLVED: {
    int64_t len = ir_window_length(n, k, dil, stride, lo, hi, ceil_mode);
    if (len < 0) return TY_FAILED;
    *out = ty_rel_dim(len);
    return TY_SOLVED;
  }
  case TY_NOT_YET:
    if (stride != 1) return TY_NOT_YET;
    break;
  default:
    if (stride != 1) {
      *out = ty_dim_any();
      return TY_SOLVED;
    }
    break;
  }
  *out = ty_dim_add(cx, in, ty_rel_dim(lo + hi - dil * (k - 1)));
  return TY_SOLVED;
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
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &xs, &xt, "data (batch, channels, height, width)", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 4, &ws, &wt,
                                "a weight (out channels, in channels / groups, height, width)", message));
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
  IrType *cin = ty_dim_mul(cx, ty_rel_dim_at(ws, 1), ty_rel_dim(groups));
  if (!ty_unify(cx, ty_rel_dim_at(xs, 1), cin, NULL))
    REL_FAIL("%s: the data has %s channels, but the weight %s takes %s (its second dimension times groups=%lld)",
             ty_rel_who(rel), ty_rel_text(cx, ty_rel_dim_at(xs, 1)), ty_rel_shape_text(cx, ws), ty_rel_text(cx, cin), (long long)groups);
  int64_t o;
  if (groups > 1 && ty_rel_dim_const(cx, ty_rel_dim_at(ws, 0), &o) == TY_SOLVED && o % groups != 0)
    REL_FAIL("%s: groups=%lld does not divide the %lld output channels", ty_rel_who(rel), (long long)groups, (long long)o);
  if (ch->given && !ch->none && !ty_unify(cx, ty_rel_dim_at(ws, 0), ty_rel_dim(ch->ints[0]), NULL))
    REL_FAIL("%s: channels=%lld, but the weight has %s output channels", ty_rel_who(rel), (long long)ch->ints[0],
             ty_rel_text(cx, ty_rel_dim_at(ws, 0)));
  if (ks->given && !ks->none) {
    REL_TRY(ty_rel_pair(rel, IR_A_KERNEL_SIZE, 1, kernel, message));
    for (int i = 0; i < 2; i++)
      if (!ty_unify(cx, ty_rel_dim_at(ws, 2 + i), ty_rel_dim(kernel[i]), NULL))
        REL_FAIL("%s: kernel_size=%lld, but the weight is %s", ty_rel_who(rel), (long long)kernel[i],
                 ty_rel_shape_text(cx, ws));
  }
  IrType **dims = IR_NEW_ARRAY(IrType *, 4);
  dims[0] = ty_rel_dim_at(xs, 0);
  dims[1] = ty_rel_dim_at(ws, 0);
  for (int i = 0; i < 2; i++) {
    int64_t k;
    TyRelResult known = ty_rel_dim_const(cx, ty_rel_dim_at(ws, 2 + i), &k);
    if (known == TY_NOT_YET) return known; /* the kernel's size, when something gives it */
    if (known == TY_FAILED) {
      dims[2 + i] = ty_dim_any();
      continue;
    }
    TyRelResult r = window_out(cx, ty_rel_dim_at(xs, 2 + i), k, dil[i], strides[i], pad[i], pad[i + 2], false, &dims[2 + i]);
    if (r == TY_NOT_YET) return r;
    if (r == TY_FAILED)
      REL_FAIL("%s: the kernel %s (dilation %lld) does not fit the padded data %s", ty_rel_who(rel),
               ty_rel_shape_text(cx, ws), (long long)dil[i], ty_rel_shape_text(cx, xs));
  }
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(4, dims), ty_rel_out_dtype(rel, xt)), message);
}

TyRelResult ty_rel_pool2d(TyCtx *cx, TyRelation *rel, const char **message) {
  REL_TRY(layout(rel, IR_A_LAYOUT, "NCHW", message));
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &xs, &xt, "data (batch, channels, height, width)", message));
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
  dims[0] = ty_rel_dim_at(xs, 0);
  dims[1] = ty_rel_dim_at(xs, 1);
  for (int i = 0; i < 2; i++) {
    TyRelResult r = window_out(cx, ty_rel_dim_at(xs, 2 + i), pool[i], dil[i], strides[i], pad[i], pad[i + 2], ceil_mode,
                               &dims[2 + i]);
    if (r == TY_NOT_YET) return r;
    if (r == TY_FAILED)
      REL_FAIL("%s: pool_size=%lld does not fit the padded data %s", ty_rel_who(rel), (long long)pool[i],
               ty_rel_shape_text(cx, xs));
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(4, dims), xt), message);
}

TyRelResult ty_rel_global_pool2d(TyCtx *cx, TyRelation *rel, const char **message) {
  REL_TRY(layout(rel, IR_A_LAYOUT, "NCHW", message));
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &xs, &xt, "data (batch, channels, height, width)", message));
  IrType **dims = IR_NEW_ARRAY(IrType *, 4);
  dims[0] = ty_rel_dim_at(xs, 0);
  dims[1] = ty_rel_dim_at(xs, 1);
  dims[2] = dims[3] = ty_rel_dim(1);
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(4, dims), xt), message);
}
