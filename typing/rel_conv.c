/* The relations of the convolutions and pools over 1 to 3 spatial axes: Conv1D/Conv2D/Conv3D,
 * Pool1D/Pool2D/Pool3D, GlobalPool2D, in any layout that is a permutation of TVM's canonical ones
 * (data "NCHW" as "NHWC", weights "OIHW" as "HWIO", "OHWI" or "HWOI"). An output size comes from the
 * window rule (ir_window_length) once the input's size is known (a relation waits for a size that
 * is still a hole); over a named shape variable it is exact for stride 1 and `?` otherwise. */
#include "typing/oprel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- shared */

/* The largest stride, dilation, padding, window or block size taken: sizes computed from them stay
 * far from overflow. */
enum { ATTR_MAX = 1 << 30 };

static const char *spatial_letters(int d) { return d == 1 ? "W" : d == 2 ? "HW" : "DHW"; }

/* The attribute `id` as a layout over the letters of `canon` (dflt when not given or ""): *out and
 * pos[k], the axis of canon[k]. */
static TyRelResult layout_of(TyRelation *rel, IrAttrId id, const char *canon, const char *dflt, const char **out,
                             int pos[], const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  const char *s = a->given && !a->none && a->str && *a->str ? a->str : dflt;
  if (!ir_layout_axes(s, canon, pos))
    REL_FAIL("%s: %s=\"%s\" is not supported: it takes the letters of \"%s\" in any order", ty_rel_who(rel),
             ir_attr_name(id), s, canon);
  *out = s == dflt ? ir_printf("%s", s) : s; /* dflt may be the caller's local buffer */
  return TY_SOLVED;
}

static const char *counts_text(int d) {
  return d == 1 ? "1" : d == 2 ? "1 or 2 (height and width)" : "1 or 3 (depth, height and width)";
}

/* The attribute `id` as d values, each at least `lo` (1 or d written; dflt when not given). */
static TyRelResult tuple_attr(TyRelation *rel, IrAttrId id, int d, int64_t dflt, int64_t lo, int64_t out[],
                              const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  if (a->given && !a->none && a->n != 1 && a->n != d)
    REL_FAIL("%s: %s has %d values, but it takes %s", ty_rel_who(rel), ir_attr_name(id), a->n, counts_text(d));
  ir_attr_tuple(rel->attrs, id, d, dflt, out);
  for (int i = 0; i < d; i++) {
    if (out[i] < lo)
      REL_FAIL("%s: %s=%lld must be at least %lld", ty_rel_who(rel), ir_attr_name(id), (long long)out[i], (long long)lo);
    if (out[i] > ATTR_MAX) REL_FAIL("%s: %s=%lld is too large", ty_rel_who(rel), ir_attr_name(id), (long long)out[i]);
  }
  return TY_SOLVED;
}

/* padding: 1, d or 2d values, none negative. */
static TyRelResult pads_attr(TyRelation *rel, int d, int64_t lo[], int64_t hi[], const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_PADDING);
  if (a->given && !a->none && a->n != 1 && a->n != d && a->n != 2 * d)
    REL_FAIL("%s: padding has %d values, but it takes %s", ty_rel_who(rel), a->n,
             d == 1 ? "1 or 2 (left, right)"
             : d == 2 ? "1, 2 or 4 (top, left, bottom, right)"
                      : "1, 3 or 6 (front, top, left, back, bottom, right)");
  ir_attr_pads(rel->attrs, d, lo, hi);
  for (int i = 0; i < d; i++) {
    if (lo[i] < 0 || hi[i] < 0)
      REL_FAIL("%s: padding=%lld is negative", ty_rel_who(rel), (long long)(lo[i] < 0 ? lo[i] : hi[i]));
    if (lo[i] > ATTR_MAX || hi[i] > ATTR_MAX)
      REL_FAIL("%s: padding=%lld is too large", ty_rel_who(rel), (long long)(lo[i] > hi[i] ? lo[i] : hi[i]));
  }
  return TY_SOLVED;
}

/* kernel_size, when given, is the weight's spatial dimensions (at kpos[2..] in its layout kl). */
static TyRelResult kernel_size(TyCtx *cx, TyRelation *rel, int d, IrType *ws, const int *kpos, const char *kl,
                               const char **message) {
  int64_t kernel[3];
  REL_TRY(tuple_attr(rel, IR_A_KERNEL_SIZE, d, 1, 0, kernel, message));
  for (int i = 0; i < d; i++)
    if (!ty_unify(cx, ty_rel_dim_at(ws, kpos[2 + i]), ty_rel_dim(kernel[i]), NULL))
      REL_FAIL("%s: kernel_size=%lld, but the weight is %s (%s)", ty_rel_who(rel), (long long)kernel[i],
               ty_rel_shape_text(cx, ws), kl);
  return TY_SOLVED;
}

/* The result: canonical dims (N, C, spatial...) placed in the layout whose pos[] is given. */
static IrType *placed(int rank, IrType **canon, const int pos[]) {
  IrType **dims = IR_NEW_ARRAY(IrType *, rank);
  for (int k = 0; k < rank; k++) dims[pos[k]] = canon[k];
  return ty_rel_shape(rank, dims);
}

/* groups (or another count) divides dimension d, `what` in the message: checked on a constant; over named
 * sizes or a hole it sets *open (checked at each use, or once known); `?` is the kernel's to check. */
static TyRelResult divides(TyCtx *cx, TyRelation *rel, IrType *d, int64_t groups, const char *what, bool *open,
                           const char **message) {
  int64_t n;
  TyDimState k = ty_rel_dim_state(cx, d, &n);
  if (k == TY_DIM_CONST && n % groups != 0)
    REL_FAIL("%s: groups=%lld does not divide the %lld %s", ty_rel_who(rel), (long long)groups, (long long)n, what);
  *open |= ty_rel_dim_open(k);
  return TY_SOLVED;
}

/* ---------------------------------------------------------------- convolutions */

/* What a convolution and a transposed one share: the layouts (data N C spatial, the weight's first
 * two letters `kfirst` then spatial; positions in dpos, kpos, opos, the weight's layout in *kl), the
 * data and the weight as tensors of rank d + 2, and their element types (ty_rel_product_dtypes). */
static TyRelResult conv_operands(TyCtx *cx, TyRelation *rel, int d, const char *kfirst, const char **kl, int dpos[5],
                                 int kpos[5], int opos[5], IrType **xs, IrType **xt, IrType **ws, IrType **wt,
                                 const char **message) {
  char dcanon[8], kcanon[8];
  snprintf(dcanon, sizeof dcanon, "NC%s", spatial_letters(d));
  snprintf(kcanon, sizeof kcanon, "%s%s", kfirst, spatial_letters(d));
  const char *dl, *ol;
  int rank = d + 2;
  REL_TRY(layout_of(rel, IR_A_DATA_LAYOUT, dcanon, dcanon, &dl, dpos, message));
  REL_TRY(layout_of(rel, IR_A_KERNEL_LAYOUT, kcanon, kcanon, kl, kpos, message));
  REL_TRY(layout_of(rel, IR_A_OUT_LAYOUT, dcanon, dl, &ol, opos, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, rank, xs, xt, ir_printf("data (%s)", dl), message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, rank, ws, wt, ir_printf("a weight (%s)", *kl), message));
  return ty_rel_product_dtypes(cx, rel, *xt, *wt, message);
}

static TyRelResult conv_rel(TyCtx *cx, TyRelation *rel, int d, const char **message) {
  const char *kl;
  int dpos[5], kpos[5], opos[5], rank = d + 2;
  IrType *xs, *xt, *ws, *wt;
  REL_TRY(conv_operands(cx, rel, d, "OI", &kl, dpos, kpos, opos, &xs, &xt, &ws, &wt, message));
  int64_t strides[3], dil[3], lo[3], hi[3];
  REL_TRY(tuple_attr(rel, IR_A_STRIDES, d, 1, 1, strides, message));
  REL_TRY(tuple_attr(rel, IR_A_DILATION, d, 1, 1, dil, message));
  REL_TRY(pads_attr(rel, d, lo, hi, message));
  const IrAttrValue *ch = ty_rel_attr(rel, IR_A_CHANNELS), *ks = ty_rel_attr(rel, IR_A_KERNEL_SIZE);
  int64_t groups = ir_attr_int(rel->attrs, IR_A_GROUPS, 1);
  if (groups < 1) REL_FAIL("%s: groups=%lld must be at least 1", ty_rel_who(rel), (long long)groups);
  IrType *xc = ty_rel_dim_at(xs, dpos[1]), *wo = ty_rel_dim_at(ws, kpos[0]), *wi = ty_rel_dim_at(ws, kpos[1]);
  IrType *cin = ty_dim_mul(cx, wi, ty_rel_dim(groups));
  if (!ty_unify(cx, xc, cin, NULL))
    REL_FAIL("%s: the data has %s channels, but the weight %s (%s) takes %s (its I dimension times groups=%lld)",
             ty_rel_who(rel), ty_rel_text(cx, xc), ty_rel_shape_text(cx, ws), kl, ty_rel_text(cx, cin), (long long)groups);
  bool open = false;
  if (groups > 1) REL_TRY(divides(cx, rel, wo, groups, "output channels", &open, message));
  if (ch->given && !ch->none && !ty_unify(cx, wo, ty_rel_dim(ch->ints[0]), NULL))
    REL_FAIL("%s: channels=%lld, but the weight %s (%s) has %s output channels", ty_rel_who(rel),
             (long long)ch->ints[0], ty_rel_shape_text(cx, ws), kl, ty_rel_text(cx, wo));
  if (ks->given && !ks->none) REL_TRY(kernel_size(cx, rel, d, ws, kpos, kl, message));
  IrType *c[5];
  c[0] = ty_rel_dim_at(xs, dpos[0]);
  c[1] = wo;
  for (int i = 0; i < d; i++) {
    int64_t k;
    TyDimState known = ty_rel_dim_state(cx, ty_rel_dim_at(ws, kpos[2 + i]), &k);
    if (known == TY_DIM_HOLE) return TY_NOT_YET; /* the kernel's size, when something gives it */
    if (known != TY_DIM_CONST) { /* whether it fits is checked at each use (named sizes) or by the kernel (`?`) */
      c[2 + i] = ty_dim_any();
      open |= ty_rel_dim_open(known);
      continue;
    }
    if (ty_rel_window(cx, rel, ty_rel_dim_at(xs, dpos[2 + i]), k, dil[i], strides[i], lo[i], hi[i], false, &c[2 + i],
                      &open) == TY_FAILED)
      REL_FAIL("%s: the kernel %s (dilation %lld) does not fit the padded data %s", ty_rel_who(rel),
               ty_rel_shape_text(cx, ws), (long long)dil[i], ty_rel_shape_text(cx, xs));
  }
  return ty_rel_open(
      ty_rel_result(cx, rel, 2, ty_rel_tensor_type(placed(rank, c, opos), ty_rel_out_dtype(rel, xt)), message), open);
}

TyRelResult ty_rel_conv1d(TyCtx *cx, TyRelation *rel, const char **message) { return conv_rel(cx, rel, 1, message); }
TyRelResult ty_rel_conv2d(TyCtx *cx, TyRelation *rel, const char **message) { return conv_rel(cx, rel, 2, message); }
TyRelResult ty_rel_conv3d(TyCtx *cx, TyRelation *rel, const char **message) { return conv_rel(cx, rel, 3, message); }

/* nn.conv2d_transpose: data (N, C, H, W), weight IOHW (C, O / groups, KH, KW) in any order; each size is
 * stride * (n - 1) + dilation * (k - 1) + 1 - padding + output_padding, exact on symbolic sizes. */
static TyRelResult conv_transpose_rel(TyCtx *cx, TyRelation *rel, int d, const char **message) {
  const char *kl;
  int dpos[5], kpos[5], opos[5], rank = d + 2;
  IrType *xs, *xt, *ws, *wt;
  REL_TRY(conv_operands(cx, rel, d, "IO", &kl, dpos, kpos, opos, &xs, &xt, &ws, &wt, message));
  int64_t strides[3], dil[3], lo[3], hi[3], opad[3];
  REL_TRY(tuple_attr(rel, IR_A_STRIDES, d, 1, 1, strides, message));
  REL_TRY(tuple_attr(rel, IR_A_DILATION, d, 1, 1, dil, message));
  REL_TRY(tuple_attr(rel, IR_A_OUTPUT_PADDING, d, 0, 0, opad, message));
  REL_TRY(pads_attr(rel, d, lo, hi, message));
  int64_t groups = ir_attr_int(rel->attrs, IR_A_GROUPS, 1);
  if (groups < 1) REL_FAIL("%s: groups=%lld must be at least 1", ty_rel_who(rel), (long long)groups);
  IrType *xc = ty_rel_dim_at(xs, dpos[1]), *wi = ty_rel_dim_at(ws, kpos[0]), *wo = ty_rel_dim_at(ws, kpos[1]);
  if (!ty_unify(cx, xc, wi, NULL))
    REL_FAIL("%s: the data has %s channels, but the weight %s (%s) takes %s (its I dimension)", ty_rel_who(rel),
             ty_rel_text(cx, xc), ty_rel_shape_text(cx, ws), kl, ty_rel_text(cx, wi));
  bool open = false;
  if (groups > 1) REL_TRY(divides(cx, rel, xc, groups, "input channels", &open, message));
  IrType *cout = ty_dim_mul(cx, wo, ty_rel_dim(groups));
  const IrAttrValue *ch = ty_rel_attr(rel, IR_A_CHANNELS), *ks = ty_rel_attr(rel, IR_A_KERNEL_SIZE);
  if (ch->given && !ch->none && !ty_unify(cx, cout, ty_rel_dim(ch->ints[0]), NULL))
    REL_FAIL("%s: channels=%lld, but the weight %s (%s) gives %s output channels (its O dimension times groups)",
             ty_rel_who(rel), (long long)ch->ints[0], ty_rel_shape_text(cx, ws), kl, ty_rel_text(cx, cout));
  if (ks->given && !ks->none) REL_TRY(kernel_size(cx, rel, d, ws, kpos, kl, message));
  IrType *cd[5];
  cd[0] = ty_rel_dim_at(xs, dpos[0]);
  cd[1] = cout;
  for (int i = 0; i < d; i++) {
    int64_t k, n, extra;
    TyDimState known = ty_rel_dim_state(cx, ty_rel_dim_at(ws, kpos[2 + i]), &k);
    if (known == TY_DIM_HOLE) return TY_NOT_YET;
    if (known != TY_DIM_CONST) { /* a named kernel size: each use checks the padding; `?`: the kernel does */
      cd[2 + i] = ty_dim_any();
      open |= ty_rel_dim_open(known);
      continue;
    }
    if (__builtin_mul_overflow(dil[i], k - 1, &extra) || __builtin_add_overflow(extra, 1 - lo[i] - hi[i] + opad[i], &extra))
      REL_FAIL("%s: dimension too large: the kernel %s dilated by %lld passes int64", ty_rel_who(rel),
               ty_rel_shape_text(cx, ws), (long long)dil[i]);
    /* each size is stride * (n - 1) + extra, an empty axis's too (TVM's Conv2DTransposeRel), which padding
     * may make negative: over named sizes the relation stays open unless extra >= stride; over a hole the
     * size is the relation's own dimension, set once the hole is known (see ty_rel_window) */
    IrType *in = ty_rel_dim_at(xs, dpos[2 + i]);
    switch (ty_rel_dim_state(cx, in, &n)) {
    case TY_DIM_CONST: {
      int64_t len = 0;
      if (__builtin_mul_overflow(strides[i], n - 1, &len) || __builtin_add_overflow(len, extra, &len))
        REL_FAIL("%s: the output of %s is too large", ty_rel_who(rel), ty_rel_shape_text(cx, xs));
      if (len < 0)
        REL_FAIL("%s: padding removes more than the output of %s by the kernel %s has", ty_rel_who(rel),
                 ty_rel_shape_text(cx, xs), ty_rel_shape_text(cx, ws));
      cd[2 + i] = ty_rel_dim(len);
      break;
    }
    case TY_DIM_HOLE:
      if (strides[i] == 1 && extra == 1) {
        cd[2 + i] = in;
        break;
      }
      cd[2 + i] = ty_fresh(cx, IR_KIND_SHAPEVAR, rel->span);
      open = true;
      break;
    default:
      cd[2 + i] = ty_dim_add(cx, ty_dim_mul(cx, in, ty_rel_dim(strides[i])), ty_rel_dim(extra - strides[i]));
      open |= extra < strides[i] && ty_rel_dim_state(cx, in, &n) == TY_DIM_SYMBOLIC;
    }
  }
  return ty_rel_open(
      ty_rel_result(cx, rel, 2, ty_rel_tensor_type(placed(rank, cd, opos), ty_rel_out_dtype(rel, xt)), message), open);
}

TyRelResult ty_rel_conv2d_transpose(TyCtx *cx, TyRelation *rel, const char **message) {
  return conv_transpose_rel(cx, rel, 2, message);
}

/* ---------------------------------------------------------------- pools */

/* The data of a pool over d axes in its layout (and out_layout): shape, dtype, positions. */
static TyRelResult pool_data(TyCtx *cx, TyRelation *rel, int d, IrType **xs, IrType **xt, int dpos[], int opos[],
                             const char **message) {
  char canon[8];
  snprintf(canon, sizeof canon, "NC%s", spatial_letters(d));
  const char *dl, *ol;
  REL_TRY(layout_of(rel, IR_A_LAYOUT, canon, canon, &dl, dpos, message));
  REL_TRY(layout_of(rel, IR_A_OUT_LAYOUT, canon, dl, &ol, opos, message));
  return ty_rel_tensor_of_rank(cx, rel, 0, d + 2, xs, xt, ir_printf("data (%s)", dl), message);
}

static TyRelResult pool_rel(TyCtx *cx, TyRelation *rel, int d, const char **message) {
  IrType *xs, *xt;
  int dpos[5], opos[5];
  REL_TRY(pool_data(cx, rel, d, &xs, &xt, dpos, opos, message));
  int64_t pool[3], strides[3], dil[3], lo[3], hi[3];
  REL_TRY(tuple_attr(rel, IR_A_POOL_SIZE, d, 1, 1, pool, message));
  REL_TRY(tuple_attr(rel, IR_A_STRIDES, d, 1, 1, strides, message));
  REL_TRY(tuple_attr(rel, IR_A_DILATION, d, 1, 1, dil, message));
  REL_TRY(pads_attr(rel, d, lo, hi, message));
  bool ceil_mode = ty_rel_attr(rel, IR_A_CEIL_MODE)->b, open = false;
  IrType *c[5];
  c[0] = ty_rel_dim_at(xs, dpos[0]);
  c[1] = ty_rel_dim_at(xs, dpos[1]);
  for (int i = 0; i < d; i++)
    if (ty_rel_window(cx, rel, ty_rel_dim_at(xs, dpos[2 + i]), pool[i], dil[i], strides[i], lo[i], hi[i], ceil_mode,
                      &c[2 + i], &open) == TY_FAILED)
      REL_FAIL("%s: pool_size=%lld does not fit the padded data %s", ty_rel_who(rel), (long long)pool[i],
               ty_rel_shape_text(cx, xs));
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(placed(d + 2, c, opos), xt), message), open);
}

TyRelResult ty_rel_pool1d(TyCtx *cx, TyRelation *rel, const char **message) { return pool_rel(cx, rel, 1, message); }
TyRelResult ty_rel_pool2d(TyCtx *cx, TyRelation *rel, const char **message) { return pool_rel(cx, rel, 2, message); }
TyRelResult ty_rel_pool3d(TyCtx *cx, TyRelation *rel, const char **message) { return pool_rel(cx, rel, 3, message); }

TyRelResult ty_rel_global_pool2d(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  int dpos[4], opos[4];
  REL_TRY(pool_data(cx, rel, 2, &xs, &xt, dpos, opos, message));
  IrType *c[4] = {ty_rel_dim_at(xs, dpos[0]), ty_rel_dim_at(xs, dpos[1]), ty_rel_dim(1), ty_rel_dim(1)};
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(placed(4, c, opos), xt), message);
}

/* output_size over d spatial axes: none or empty keeps the input's, one value is every axis's, d
 * values are one per axis. */
static TyRelResult adaptive_pool(TyCtx *cx, TyRelation *rel, int d, const char **message) {
  IrType *xs, *xt;
  int dpos[5], opos[5];
  REL_TRY(pool_data(cx, rel, d, &xs, &xt, dpos, opos, message));
  const IrAttrValue *os = ty_rel_attr(rel, IR_A_OUTPUT_SIZE);
  IrType *c[5];
  for (int i = 0; i < d + 2; i++) c[i] = ty_rel_dim_at(xs, dpos[i]);
  if (os->given && !os->none && os->n > 0) {
    int64_t size[3];
    REL_TRY(tuple_attr(rel, IR_A_OUTPUT_SIZE, d, 1, 0, size, message));
    for (int i = 0; i < d; i++) c[2 + i] = ty_rel_dim(size[i]);
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(placed(d + 2, c, opos), xt), message);
}

TyRelResult ty_rel_adaptive_pool1d(TyCtx *cx, TyRelation *rel, const char **message) {
  return adaptive_pool(cx, rel, 1, message);
}
TyRelResult ty_rel_adaptive_pool2d(TyCtx *cx, TyRelation *rel, const char **message) {
  return adaptive_pool(cx, rel, 2, message);
}
TyRelResult ty_rel_adaptive_pool3d(TyCtx *cx, TyRelation *rel, const char **message) {
  return adaptive_pool(cx, rel, 3, message);
}

/* ---------------------------------------------------------------- Pad */

/* pad_mode as 0 constant, 1 edge, 2 reflect. */
static TyRelResult pad_mode(TyRelation *rel, int *mode, const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_PAD_MODE);
  const char *s = a->given && !a->none && a->str ? a->str : "constant";
  *mode = !strcmp(s, "constant") ? 0 : !strcmp(s, "edge") ? 1 : !strcmp(s, "reflect") ? 2 : -1;
  if (*mode < 0) REL_FAIL("%s: pad_mode=\"%s\" is not one of \"constant\", \"edge\" and \"reflect\"", ty_rel_who(rel), s);
  return TY_SOLVED;
}

/* nn.pad's and nn.mirror_pad's pad_width: one [before, after] pair per axis of the data xs. */
static TyRelResult pad_width(TyCtx *cx, TyRelation *rel, IrType *xs, const IrAttrValue **pw, const char **message) {
  *pw = ty_rel_attr(rel, IR_A_PAD_WIDTH);
  int r = xs->u.shape.rank;
  if ((*pw)->n != 2 * r)
    REL_FAIL("%s: pad_width has %d pair%s, but the data %s has %d axes (one [before, after] pair each)",
             ty_rel_who(rel), (*pw)->n / 2, (*pw)->n == 2 ? "" : "s", ty_rel_shape_text(cx, xs), r);
  return TY_SOLVED;
}

/* nn.pad(data, pad_value?): each axis grows by its pair of pad_width (negative values crop, as
 * TVM's); the pad value is a scalar of any type (converted to the data's). */
TyRelResult ty_rel_pad(TyCtx *cx, TyRelation *rel, const char **message) {
  int mode;
  REL_TRY(pad_mode(rel, &mode, message));
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  if (rel->nargs == 3) {
    IrType *vs, *vt;
    REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 0, &vs, &vt, "a pad value (a scalar)", message));
  }
  const IrAttrValue *pw;
  REL_TRY(pad_width(cx, rel, xs, &pw, message));
  int r = xs->u.shape.rank;
  bool open = false; /* a size not known yet that the checks below may refuse: checked at each use, or once known */
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  for (int i = 0; i < r; i++) {
    int64_t lo = pw->ints[2 * i], hi = pw->ints[2 * i + 1], n;
    IrType *d = ty_rel_dim_at(xs, i);
    if (lo < -(int64_t)ATTR_MAX * 1024 || lo > (int64_t)ATTR_MAX * 1024 || hi < -(int64_t)ATTR_MAX * 1024 ||
        hi > (int64_t)ATTR_MAX * 1024)
      REL_FAIL("%s: pad_width [%lld, %lld] is too large", ty_rel_who(rel), (long long)lo, (long long)hi);
    int64_t sum;
    TyDimState known = ty_rel_dim_state(cx, d, &n);
    if (ty_rel_dim_open(known))
      open |= lo + hi < 0 || (mode == 1 && lo + hi > 0) || (mode == 2 && (lo > 0 || hi > 0));
    if (known == TY_DIM_CONST) {
      if (__builtin_add_overflow(n, lo + hi, &sum))
        REL_FAIL("%s: padding axis %d of %s by [%lld, %lld] is too large", ty_rel_who(rel), i, ty_rel_shape_text(cx, xs),
                 (long long)lo, (long long)hi);
      if (sum < 0)
        REL_FAIL("%s: pad_width [%lld, %lld] leaves a negative size of axis %d of %s", ty_rel_who(rel), (long long)lo,
                 (long long)hi, i, ty_rel_shape_text(cx, xs));
      if (mode == 1 && n == 0 && lo + hi > 0)
        REL_FAIL("%s: pad_mode=\"edge\" repeats the edge of axis %d, but it is empty in %s", ty_rel_who(rel), i,
                 ty_rel_shape_text(cx, xs));
      if (mode == 2 && (lo >= n || hi >= n) && (lo > 0 || hi > 0))
        REL_FAIL("%s: pad_mode=\"reflect\" pads axis %d of %s by [%lld, %lld], but reflects at most %lld (the size - 1)",
                 ty_rel_who(rel), i, ty_rel_shape_text(cx, xs), (long long)lo, (long long)hi, (long long)(n - 1));
    }
    dims[i] = lo + hi == 0 ? d : ty_dim_add(cx, d, ty_rel_dim(lo + hi));
  }
  return ty_rel_open(ty_rel_result(cx, rel, rel->nargs - 1, ty_rel_tensor_type(ty_rel_shape(r, dims), xt), message), open);
}

/* ---------------------------------------------------------------- resizing, pixel shuffles */


/* round(n * scale) for the upsampled sizes: exact for a constant, n * scale for an integral scale,
 * otherwise `?` over a named variable (and a wait on a hole); a size past int64 fails naming the
 * attribute `id`. */
static TyRelResult scaled(TyCtx *cx, TyRelation *rel, IrAttrId id, IrType *d, double scale, IrType **out,
                          const char **message) {
  int64_t n, len;
  TyRelResult known = ty_rel_dim_const(cx, d, &n);
  switch (known) {
  case TY_SOLVED:
    if (!ir_scaled_length(n, scale, &len))
      REL_FAIL("%s: dimension too large: %lld scaled by %s=%g overflows int64", ty_rel_who(rel), (long long)n,
               ir_attr_name(id), scale);
    *out = ty_rel_dim(len);
    return TY_SOLVED;
  case TY_NOT_YET:
    if (scale != floor(scale)) return TY_NOT_YET;
    break;
  default:
    if (scale != floor(scale)) {
      *out = ty_dim_any();
      return TY_SOLVED;
    }
  }
  if (!ir_scaled_length(1, scale, &len)) {
    if (known == TY_NOT_YET) return known; /* 0 scaled stays 0: wait for the size */
    REL_FAIL("%s: dimension too large: %s=%g is past int64", ty_rel_who(rel), ir_attr_name(id), scale);
  }
  *out = ty_dim_mul(cx, d, ty_rel_dim(len));
  return TY_SOLVED;
}

TyRelResult ty_rel_up_sampling(TyCtx *cx, TyRelation *rel, const char **message) {
  static const char *const methods[] = {"nearest_neighbor", "bilinear", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_METHOD, methods, message));
  IrType *xs, *xt;
  int dpos[4];
  REL_TRY(pool_data(cx, rel, 2, &xs, &xt, dpos, dpos, message));
  const IrAttrValue *sh = ty_rel_attr(rel, IR_A_SCALE_H), *sw = ty_rel_attr(rel, IR_A_SCALE_W);
  double s[2] = {sh->given ? sh->f : 1, sw->given ? sw->f : 1};
  IrType *c[4] = {ty_rel_dim_at(xs, dpos[0]), ty_rel_dim_at(xs, dpos[1])};
  for (int i = 0; i < 2; i++) {
    if (!(s[i] > 0) || !isfinite(s[i]))
      REL_FAIL("%s: %s=%g must be a positive number", ty_rel_who(rel), ir_attr_name(i ? IR_A_SCALE_W : IR_A_SCALE_H), s[i]);
    REL_TRY(scaled(cx, rel, i ? IR_A_SCALE_W : IR_A_SCALE_H, ty_rel_dim_at(xs, dpos[2 + i]), s[i], &c[2 + i], message));
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(placed(4, c, dpos), xt), message);
}

static TyRelResult block_size(TyRelation *rel, int64_t *b, const char **message) {
  *b = ir_attr_int(rel->attrs, IR_A_BLOCK_SIZE, 1);
  if (*b > ATTR_MAX) REL_FAIL("%s: block_size=%lld is too large", ty_rel_who(rel), (long long)*b);
  if (*b < 1) REL_FAIL("%s: block_size=%lld must be at least 1", ty_rel_who(rel), (long long)*b);
  return TY_SOLVED;
}

/* d / k: exact for a constant (failing when k does not divide it), symbolic when the division is
 * exact in normal form, otherwise `?` (and over named sizes *open: whether k divides them is checked at
 * each use); a wait on a hole. */
static TyRelResult divided(TyCtx *cx, TyRelation *rel, IrType *d, int64_t k, const char *what, IrType *shape,
                           IrType **out, bool *open, const char **message) {
  int64_t n;
  switch (ty_rel_dim_state(cx, d, &n)) {
  case TY_DIM_CONST:
    if (n % k != 0)
      REL_FAIL("%s: the %s, %lld, is not a multiple of %lld in %s", ty_rel_who(rel), what,
               (long long)n, (long long)k, ty_rel_shape_text(cx, shape));
    *out = ty_rel_dim(n / k);
    return TY_SOLVED;
  case TY_DIM_HOLE: return TY_NOT_YET;
  case TY_DIM_SYMBOLIC:
    *out = ty_dim_div(cx, d, ty_rel_dim(k));
    if (!*out) *out = ty_dim_any(), *open = true;
    return TY_SOLVED;
  default: *out = ty_dim_any(); return TY_SOLVED;
  }
}

TyRelResult ty_rel_depth_to_space(TyCtx *cx, TyRelation *rel, const char **message) {
  static const char *const modes[] = {"DCR", "CRD", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_MODE, modes, message));
  int64_t b;
  REL_TRY(block_size(rel, &b, message));
  IrType *xs, *xt;
  int dpos[4];
  REL_TRY(pool_data(cx, rel, 2, &xs, &xt, dpos, dpos, message));
  IrType *c[4] = {ty_rel_dim_at(xs, dpos[0])};
  bool open = false;
  REL_TRY(divided(cx, rel, ty_rel_dim_at(xs, dpos[1]), b * b, "channel count", xs, &c[1], &open, message));
  for (int i = 2; i < 4; i++) c[i] = ty_dim_mul(cx, ty_rel_dim_at(xs, dpos[i]), ty_rel_dim(b));
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(placed(4, c, dpos), xt), message), open);
}

TyRelResult ty_rel_space_to_depth(TyCtx *cx, TyRelation *rel, const char **message) {
  int64_t b;
  REL_TRY(block_size(rel, &b, message));
  IrType *xs, *xt;
  int dpos[4];
  REL_TRY(pool_data(cx, rel, 2, &xs, &xt, dpos, dpos, message));
  IrType *c[4] = {ty_rel_dim_at(xs, dpos[0]), ty_dim_mul(cx, ty_rel_dim_at(xs, dpos[1]), ty_rel_dim(b * b))};
  bool open = false;
  REL_TRY(divided(cx, rel, ty_rel_dim_at(xs, dpos[2]), b, "height", xs, &c[2], &open, message));
  REL_TRY(divided(cx, rel, ty_rel_dim_at(xs, dpos[3]), b, "width", xs, &c[3], &open, message));
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(placed(4, c, dpos), xt), message), open);
}

/* ---------------------------------------------------------------- more padding, blocks, transposes */

/* nn.mirror_pad: each axis grows by its pair of pad_width, none negative (TVM's MirrorPadRel); mode
 * "REFLECT" (numpy's reflect: pads at most size - 1) or "SYMMETRIC" (the default: at most size). */
TyRelResult ty_rel_mirror_pad(TyCtx *cx, TyRelation *rel, const char **message) {
  const IrAttrValue *ma = ty_rel_attr(rel, IR_A_MODE);
  const char *mode = ma->given && !ma->none && ma->str ? ma->str : "SYMMETRIC";
  bool reflect = !strcmp(mode, "REFLECT");
  if (!reflect && strcmp(mode, "SYMMETRIC"))
    REL_FAIL("%s: mode=\"%s\" is not one of \"REFLECT\" and \"SYMMETRIC\"", ty_rel_who(rel), mode);
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  const IrAttrValue *pw;
  REL_TRY(pad_width(cx, rel, xs, &pw, message));
  int r = xs->u.shape.rank;
  bool open = false;
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  for (int i = 0; i < r; i++) {
    int64_t lo = pw->ints[2 * i], hi = pw->ints[2 * i + 1], n;
    if (lo < 0 || hi < 0)
      REL_FAIL("%s: pad_width [%lld, %lld] of axis %d is negative", ty_rel_who(rel), (long long)lo, (long long)hi, i);
    if (lo > ATTR_MAX || hi > ATTR_MAX)
      REL_FAIL("%s: pad_width [%lld, %lld] is too large", ty_rel_who(rel), (long long)lo, (long long)hi);
    IrType *d = ty_rel_dim_at(xs, i);
    TyDimState known = ty_rel_dim_state(cx, d, &n);
    open |= ty_rel_dim_open(known) && (lo > 0 || hi > 0); /* checked at each use, or once known */
    if (known == TY_DIM_CONST && (lo > 0 || hi > 0) && (reflect ? (lo >= n || hi >= n) : (lo > n || hi > n)))
      REL_FAIL("%s: mode=\"%s\" pads axis %d of %s by [%lld, %lld], but mirrors at most %lld (the size%s)",
               ty_rel_who(rel), mode, i, ty_rel_shape_text(cx, xs), (long long)lo, (long long)hi,
               (long long)(reflect ? n - 1 : n), reflect ? " - 1" : "");
    dims[i] = lo + hi == 0 ? d : ty_dim_add(cx, d, ty_rel_dim(lo + hi));
  }
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(r, dims), xt), message), open);
}

/* nn.space_to_batch_nd and nn.batch_to_space_nd (TF's): block_shape (M values, each at least 1) over the M axes
 * after the batch, paddings / crops one [before, after] pair each (none negative). space_to_batch_nd: batch
 * times the blocks' product, each spatial (n + pads) / block (which must divide it when n is known; `?` over a
 * named size unless block is 1); batch_to_space_nd: batch / the product, each spatial n * block - crops. */
static TyRelResult batch_space_rel(TyCtx *cx, TyRelation *rel, bool to_batch, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  static const int64_t ones[2] = {1, 1}; /* block_shape's C++ default (SpaceToBatchNDAttrs, BatchToSpaceNDAttrs) */
  IrAttrValue block = ir_attr_ints(rel->attrs, IR_A_BLOCK_SHAPE, 2, ones);
  const IrAttrValue *bs = &block, *pp = ty_rel_attr(rel, to_batch ? IR_A_PADDINGS : IR_A_CROPS);
  const char *pname = to_batch ? "paddings" : "crops";
  int r = xs->u.shape.rank, m = bs->n;
  if (m < 1) REL_FAIL("%s: block_shape is empty", ty_rel_who(rel));
  if (pp->n != 2 * m)
    REL_FAIL("%s: %s has %d pair%s, but block_shape has %d values (one [before, after] pair each)", ty_rel_who(rel),
             pname, pp->n / 2, pp->n == 2 ? "" : "s", m);
  if (r < m + 1)
    REL_FAIL("%s: the data %s has %d axes, but block_shape (%d values) takes the batch and %d more",
             ty_rel_who(rel), ty_rel_shape_text(cx, xs), r, m, m);
  int64_t prod = 1;
  for (int i = 0; i < m; i++) {
    if (bs->ints[i] < 1 || bs->ints[i] > ATTR_MAX)
      REL_FAIL("%s: block_shape value %lld must be from 1 to %lld", ty_rel_who(rel), (long long)bs->ints[i],
               (long long)ATTR_MAX);
    if (__builtin_mul_overflow(prod, bs->ints[i], &prod) || prod > ATTR_MAX)
      REL_FAIL("%s: block_shape's product is too large", ty_rel_who(rel));
    for (int j = 0; j < 2; j++)
      if (pp->ints[2 * i + j] < 0 || pp->ints[2 * i + j] > ATTR_MAX)
        REL_FAIL("%s: %s [%lld, %lld] must be from 0 to %lld", ty_rel_who(rel), pname, (long long)pp->ints[2 * i],
                 (long long)pp->ints[2 * i + 1], (long long)ATTR_MAX);
  }
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  for (int i = 0; i < r; i++) dims[i] = ty_rel_dim_at(xs, i);
  int64_t n;
  bool open = false; /* a divisibility or a crop over named sizes, checked at each use (or once a hole is known) */
  TyDimState k = ty_rel_dim_state(cx, dims[0], &n);
  if (to_batch)
    dims[0] = ty_dim_mul(cx, dims[0], ty_rel_dim(prod));
  else if (k == TY_DIM_CONST) {
    if (n % prod != 0)
      REL_FAIL("%s: the batch of %s (%lld) is not divisible by block_shape's product %lld", ty_rel_who(rel),
               ty_rel_shape_text(cx, xs), (long long)n, (long long)prod);
    dims[0] = ty_rel_dim(n / prod);
  } else if (k == TY_DIM_HOLE && prod != 1)
    return TY_NOT_YET;
  else if (prod != 1) {
    IrType *q = k == TY_DIM_SYMBOLIC ? ty_dim_div(cx, dims[0], ty_rel_dim(prod)) : NULL;
    open |= k == TY_DIM_SYMBOLIC && !q;
    dims[0] = q ? q : ty_dim_any();
  }
  for (int i = 0; i < m; i++) {
    IrType *d = dims[i + 1];
    int64_t b = bs->ints[i], lo = pp->ints[2 * i], hi = pp->ints[2 * i + 1];
    k = ty_rel_dim_state(cx, d, &n);
    int64_t size; /* the padded axis, or the cropped one: a huge axis overflows int64 ("dimension too large") */
    bool huge = k == TY_DIM_CONST && (to_batch ? __builtin_add_overflow(n, lo + hi, &size)
                                               : __builtin_mul_overflow(n, b, &size) || __builtin_sub_overflow(size, lo + hi, &size));
    if (huge) {
      if (!cx->dim_overflow) cx->dim_overflow = d;
      dims[i + 1] = ty_dim_any();
    } else if (to_batch) {
      if (k == TY_DIM_CONST) {
        if (size % b != 0)
          REL_FAIL("%s: axis %d of %s padded by [%lld, %lld] is %lld, not divisible by its block %lld",
                   ty_rel_who(rel), i + 1, ty_rel_shape_text(cx, xs), (long long)lo, (long long)hi,
                   (long long)size, (long long)b);
        dims[i + 1] = ty_rel_dim(size / b);
      } else if (b == 1)
        dims[i + 1] = lo + hi == 0 ? d : ty_dim_add(cx, d, ty_rel_dim(lo + hi));
      else if (k == TY_DIM_HOLE)
        return TY_NOT_YET;
      else {
        IrType *q = k == TY_DIM_SYMBOLIC ? ty_dim_div(cx, ty_dim_add(cx, d, ty_rel_dim(lo + hi)), ty_rel_dim(b)) : NULL;
        open |= k == TY_DIM_SYMBOLIC && !q;
        dims[i + 1] = q ? q : ty_dim_any();
      }
    } else {
      if (k == TY_DIM_CONST) {
        if (size < 0)
          REL_FAIL("%s: crops [%lld, %lld] remove more than axis %d of %s times its block %lld (%lld)",
                   ty_rel_who(rel), (long long)lo, (long long)hi, i + 1, ty_rel_shape_text(cx, xs), (long long)b,
                   (long long)(n * b));
        dims[i + 1] = ty_rel_dim(size);
      } else {
        dims[i + 1] = ty_dim_sub(cx, ty_dim_mul(cx, d, ty_rel_dim(b)), ty_rel_dim(lo + hi));
        open |= ty_rel_dim_open(k) && lo + hi > 0; /* n * b >= crops */
      }
    }
  }
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(r, dims), xt), message), open);
}

TyRelResult ty_rel_space_to_batch_nd(TyCtx *cx, TyRelation *rel, const char **message) {
  return batch_space_rel(cx, rel, true, message);
}
TyRelResult ty_rel_batch_to_space_nd(TyCtx *cx, TyRelation *rel, const char **message) {
  return batch_space_rel(cx, rel, false, message);
}

/* nn.conv1d_transpose (NCW data, IOW weight) and nn.conv3d_transpose (NCDHW, IODHW): conv2d_transpose's rule over
 * 1 or 3 spatial axes. */
TyRelResult ty_rel_conv1d_transpose(TyCtx *cx, TyRelation *rel, const char **message) {
  return conv_transpose_rel(cx, rel, 1, message);
}
TyRelResult ty_rel_conv3d_transpose(TyCtx *cx, TyRelation *rel, const char **message) {
  return conv_transpose_rel(cx, rel, 3, message);
}

/* image.resize1d (NCW), resize2d and resize3d (NCDHW): the same attributes over 1 to 3 spatial axes, `size` one
 * value per axis. */
static TyRelResult resize_nd_rel(TyCtx *cx, TyRelation *rel, int d, const char **message) {
  static const char *const methods[] = {"linear", "nearest_neighbor", NULL};
  static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel",
                                      "tf_half_pixel_for_nn", NULL};
  static const char *const roundings[] = {"", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_METHOD, methods, message));
  REL_TRY(ty_rel_choice(rel, IR_A_COORDINATE_TRANSFORMATION_MODE, modes, message));
  REL_TRY(ty_rel_choice(rel, IR_A_ROUNDING_METHOD, roundings, message));
  IrType *xs, *xt;
  int dpos[5];
  REL_TRY(pool_data(cx, rel, d, &xs, &xt, dpos, dpos, message));
  const IrAttrValue *size = ty_rel_attr(rel, IR_A_SIZE);
  if (size->none || size->n != d)
    REL_FAIL("%s: size has %d value%s, but it takes %d (%s)", ty_rel_who(rel), size->none ? 0 : size->n,
             !size->none && size->n == 1 ? "" : "s", d,
             d == 1 ? "the width" : d == 2 ? "height and width" : "depth, height and width");
  IrType *c[5] = {ty_rel_dim_at(xs, dpos[0]), ty_rel_dim_at(xs, dpos[1])};
  for (int i = 0; i < d; i++) {
    if (size->ints[i] < 0) REL_FAIL("%s: size=%lld is negative", ty_rel_who(rel), (long long)size->ints[i]);
    c[2 + i] = ty_rel_dim(size->ints[i]);
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(placed(d + 2, c, dpos), ty_rel_out_dtype(rel, xt)), message);
}
TyRelResult ty_rel_resize1d(TyCtx *cx, TyRelation *rel, const char **message) { return resize_nd_rel(cx, rel, 1, message); }
TyRelResult ty_rel_resize2d(TyCtx *cx, TyRelation *rel, const char **message) { return resize_nd_rel(cx, rel, 2, message); }
TyRelResult ty_rel_resize3d(TyCtx *cx, TyRelation *rel, const char **message) { return resize_nd_rel(cx, rel, 3, message); }

/* nn.upsampling3d: NCDHW (or NDHWC) to round(n * scale) per axis (topi's), nearest_neighbor or trilinear. */
TyRelResult ty_rel_up_sampling3d(TyCtx *cx, TyRelation *rel, const char **message) {
  static const char *const methods[] = {"nearest_neighbor", "trilinear", NULL};
  static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_METHOD, methods, message));
  REL_TRY(ty_rel_choice(rel, IR_A_COORDINATE_TRANSFORMATION_MODE, modes, message));
  IrType *xs, *xt;
  int dpos[5];
  REL_TRY(pool_data(cx, rel, 3, &xs, &xt, dpos, dpos, message));
  static const IrAttrId ids[3] = {IR_A_SCALE_D, IR_A_SCALE_H, IR_A_SCALE_W};
  IrType *c[5] = {ty_rel_dim_at(xs, dpos[0]), ty_rel_dim_at(xs, dpos[1])};
  for (int i = 0; i < 3; i++) {
    const IrAttrValue *a = ty_rel_attr(rel, ids[i]);
    double s = a->given ? a->f : 1;
    if (!(s > 0) || !isfinite(s))
      REL_FAIL("%s: %s=%g must be a positive number", ty_rel_who(rel), ir_attr_name(ids[i]), s);
    REL_TRY(scaled(cx, rel, ids[i], ty_rel_dim_at(xs, dpos[2 + i]), s, &c[2 + i], message));
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(placed(5, c, dpos), xt), message);
}

/* nn.dilate: each axis n becomes (n - 1) * stride + 1 (0 stays 0), strides one per axis (default [1, 1]), exact on
 * symbolic sizes. */
TyRelResult ty_rel_dilate(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  const IrAttrValue *st = ty_rel_attr(rel, IR_A_STRIDES);
  static const int64_t ones[2] = {1, 1};
  int r = xs->u.shape.rank, n = st->given && !st->none ? st->n : 2;
  const int64_t *s = st->given && !st->none ? st->ints : ones;
  if (n != r)
    REL_FAIL("%s: strides has %d value%s, but the data %s has %d axes", ty_rel_who(rel), n, n == 1 ? "" : "s",
             ty_rel_shape_text(cx, xs), r);
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  bool open = false;
  for (int i = 0; i < r; i++) {
    if (s[i] < 1 || s[i] > ATTR_MAX)
      REL_FAIL("%s: strides value %lld must be from 1 to %lld", ty_rel_who(rel), (long long)s[i], (long long)ATTR_MAX);
    IrType *d = ty_rel_dim_at(xs, i);
    int64_t v;
    TyDimState known = ty_rel_dim_state(cx, d, &v);
    if (s[i] == 1)
      dims[i] = d;
    else if (known == TY_DIM_CONST) {
      /* (n - 1) * stride + 1 for every n, as TVM's DilateRel: negative for an empty axis, which topi cannot make */
      if (v == 0)
        REL_FAIL("%s: axis %d of %s is empty, which strides=%lld cannot dilate ((0 - 1) * %lld + 1 elements)",
                 ty_rel_who(rel), i, ty_rel_shape_text(cx, xs), (long long)s[i], (long long)s[i]);
      if (v > ((int64_t)1 << 62) / s[i]) REL_FAIL("%s: the output of %s is too large", ty_rel_who(rel), ty_rel_shape_text(cx, xs));
      dims[i] = ty_rel_dim((v - 1) * s[i] + 1);
    } else {
      dims[i] = ty_dim_add(cx, ty_dim_mul(cx, d, ty_rel_dim(s[i])), ty_rel_dim(1 - s[i]));
      open |= ty_rel_dim_open(known); /* n >= 1, checked at each use or once known */
    }
  }
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(r, dims), xt), message), open);
}

/* image.crop_and_resize(data (N, C, H, W) in any layout, boxes (B, 4), box_indices (B)): (B, C, crop_size) in the
 * data's layout, of out_dtype (the data's by default); method bilinear or nearest_neighbor. */
TyRelResult ty_rel_crop_and_resize(TyCtx *cx, TyRelation *rel, const char **message) {
  static const char *const methods[] = {"bilinear", "nearest_neighbor", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_METHOD, methods, message));
  IrType *xs, *xt, *bs, *bt, *is, *it;
  int dpos[4];
  REL_TRY(pool_data(cx, rel, 2, &xs, &xt, dpos, dpos, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 2, &bs, &bt, "boxes (num_boxes, 4)", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 1, &is, &it, "box_indices (num_boxes)", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(bs, 1), ty_rel_dim(4), "the boxes' second dimension and 4", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(bs, 0), ty_rel_dim_at(is, 0),
                          "the number of boxes and of box_indices", message));
  if (it->kind == IR_TYPE_DTYPE && it->u.dtype.code != IR_DT_INT && it->u.dtype.code != IR_DT_UINT)
    REL_FAIL("%s takes integer box_indices, but they are %s", ty_rel_who(rel), ty_rel_text(cx, it));
  const IrAttrValue *size = ty_rel_attr(rel, IR_A_CROP_SIZE);
  if (!size->given || size->none || size->n != 2)
    REL_FAIL("%s: crop_size has %d values, but it takes 2 (height and width)", ty_rel_who(rel),
             size->given && !size->none ? size->n : 0);
  for (int i = 0; i < 2; i++)
    if (size->ints[i] < 0 || size->ints[i] > ATTR_MAX)
      REL_FAIL("%s: crop_size=%lld is out of range", ty_rel_who(rel), (long long)size->ints[i]);
  IrType *c[4] = {ty_rel_dim_at(bs, 0), ty_rel_dim_at(xs, dpos[1]), ty_rel_dim(size->ints[0]), ty_rel_dim(size->ints[1])};
  REL_TRY(ty_rel_result(cx, rel, 3, ty_rel_tensor_type(placed(4, c, dpos), ty_rel_out_dtype(rel, xt)), message));
  return ty_rel_float(cx, rel, bt, "its boxes", rel->args[1], message);
}

/* image.affine_grid(data (B, 2, 3)): (B, 2, target_shape) of the data's float type. */
TyRelResult ty_rel_affine_grid(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 3, &xs, &xt, "an affine matrix (batch, 2, 3)", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(xs, 1), ty_rel_dim(2), "the matrix's rows and 2", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(xs, 2), ty_rel_dim(3), "the matrix's columns and 3", message));
  const IrAttrValue *ts = ty_rel_attr(rel, IR_A_TARGET_SHAPE);
  if (!ts->given || ts->none || ts->n != 2)
    REL_FAIL("%s: target_shape has %d values, but it takes 2 (height and width)", ty_rel_who(rel),
             ts->given && !ts->none ? ts->n : 0);
  for (int i = 0; i < 2; i++)
    if (ts->ints[i] < 0 || ts->ints[i] > ATTR_MAX)
      REL_FAIL("%s: target_shape=%lld is out of range", ty_rel_who(rel), (long long)ts->ints[i]);
  IrType **c = IR_NEW_ARRAY(IrType *, 4);
  c[0] = ty_rel_dim_at(xs, 0), c[1] = ty_rel_dim(2), c[2] = ty_rel_dim(ts->ints[0]), c[3] = ty_rel_dim(ts->ints[1]);
  REL_TRY(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(4, c), xt), message));
  return ty_rel_float(cx, rel, xt, "its data", rel->args[0], message);
}

/* image.grid_sample(data (N, C, H, W) or (N, C, D, H, W) in its layout, grid (N, 2, OH, OW) or (N, 3, OD, OH, OW)):
 * the data's batch and channels over the grid's spatial sizes (TVM's GridSampleRel). */
TyRelResult ty_rel_grid_sample(TyCtx *cx, TyRelation *rel, const char **message) {
  static const char *const methods[] = {"bilinear", "nearest", "bicubic", NULL};
  static const char *const pads[] = {"zeros", "border", "reflection", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_METHOD, methods, message));
  REL_TRY(ty_rel_choice(rel, IR_A_PADDING_MODE, pads, message));
  IrType *xs, *xt, *gs, *gt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  int r = xs->u.shape.rank, d = r - 2, dpos[5];
  if (r != 4 && r != 5)
    REL_FAIL("%s: the data %s has %d axes, but it takes 4 (NCHW) or 5 (NCDHW)", ty_rel_who(rel),
             ty_rel_shape_text(cx, xs), r);
  const IrAttrValue *me = ty_rel_attr(rel, IR_A_METHOD);
  if (d == 3 && me->given && !me->none && me->str && !strcmp(me->str, "bicubic"))
    REL_FAIL("%s: method=\"bicubic\" samples 4-d data only, but the data is %s", ty_rel_who(rel),
             ty_rel_shape_text(cx, xs));
  char canon[8];
  snprintf(canon, sizeof canon, "NC%s", spatial_letters(d));
  const char *dl;
  REL_TRY(layout_of(rel, IR_A_LAYOUT, canon, canon, &dl, dpos, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, r, &gs, &gt, d == 2 ? "a grid (N, 2, H, W)" : "a grid (N, 3, D, H, W)", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, xt, gt, message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(gs, 1), ty_rel_dim(d), "the grid's second dimension and the spatial axes",
                          message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(gs, 0), ty_rel_dim_at(xs, dpos[0]), "the batches of the data and the grid",
                          message));
  IrType *c[5] = {ty_rel_dim_at(xs, dpos[0]), ty_rel_dim_at(xs, dpos[1])};
  for (int i = 0; i < d; i++) c[2 + i] = ty_rel_dim_at(gs, 2 + i);
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(placed(r, c, dpos), xt), message));
  return ty_rel_float(cx, rel, xt, "its data", rel->args[0], message);
}

/* ---------------------------------------------------------------- packed layouts */

/* A layout over the letters of `canon`, each once in any order, some split into an outer (capital)
 * and an inner part (a factor and the small letter): "NCHW8c", "OIHW8i8o". */
typedef struct {
  const char *s;
  int n;
  char axis[16];
  int64_t factor[16]; /* 0 for a primal axis */
} Packed;

static int packed_find(const Packed *l, char c) {
  for (int i = 0; i < l->n; i++)
    if (l->axis[i] == c) return i;
  return -1;
}

static TyRelResult packed_layout(TyRelation *rel, IrAttrId id, const char *canon, const char *dflt, Packed *l,
                                 const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  const char *s = a->given && !a->none && a->str && *a->str ? a->str : dflt;
  l->s = s;
  l->n = 0;
  const char *why = NULL;
  for (const char *p = s; *p && !why;) {
    int64_t f = 0;
    while (*p >= '0' && *p <= '9' && f <= ATTR_MAX) f = f * 10 + (*p++ - '0');
    char c = *p++, up = (char)(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    if (f > ATTR_MAX) why = "a factor is too large";
    else if (!c || !strchr(canon, up)) why = "it has a letter or character that is not one of them";
    else if (packed_find(l, c) >= 0) why = "an axis appears twice";
    else if (c != up && f < 1) why = "a split axis (small letter) needs a factor before it, such as 8c";
    else if (c == up && f) why = "a factor comes before a small letter only";
    else if (l->n == 16) why = "it has too many axes";
    else l->axis[l->n] = c, l->factor[l->n++] = f;
  }
  for (const char *c = canon; *c && !why; c++)
    if (packed_find(l, *c) < 0) why = "it lacks one";
  if (why)
    REL_FAIL("%s: %s=\"%s\" is not supported: it takes the letters of \"%s\" in any order, each possibly split "
             "(\"%s\" with 8%c); %s", ty_rel_who(rel), ir_attr_name(id), s, canon, canon, canon[1] + 'a' - 'A', why);
  return TY_SOLVED;
}

/* The canonical dimensions (in canon's order) of `shape` in the packed layout l: a split axis is its
 * outer part times the factor; the inner parts must be the factors. */
static TyRelResult packed_forward(TyCtx *cx, TyRelation *rel, const Packed *l, const char *canon, IrType *shape,
                                  const char *what, IrType **out, const char **message) {
  for (int i = 0; i < l->n; i++)
    if (l->factor[i] && !ty_unify(cx, ty_rel_dim_at(shape, i), ty_rel_dim(l->factor[i]), NULL))
      REL_FAIL("%s: axis %c of %s (%s) has %lld elements, but %s is %s", ty_rel_who(rel), l->axis[i], what, l->s,
               (long long)l->factor[i], what, ty_rel_shape_text(cx, shape));
  for (int k = 0; canon[k]; k++) {
    int p = packed_find(l, canon[k]), q = packed_find(l, (char)(canon[k] - 'A' + 'a'));
    out[k] = ty_rel_dim_at(shape, p);
    if (q >= 0) out[k] = ty_dim_mul(cx, out[k], ty_rel_dim(l->factor[q]));
  }
  return TY_SOLVED;
}

/* The shape in packed layout l of canonical dimensions `c` (canon's order): a split axis's outer part
 * is its size divided by the factor, which must divide it. */
static TyRelResult packed_backward(TyCtx *cx, TyRelation *rel, const Packed *l, const char *canon, IrType **c,
                                   IrType **out_shape, bool *open, const char **message) {
  IrType **dims = IR_NEW_ARRAY(IrType *, l->n);
  for (int i = 0; i < l->n; i++) {
    if (l->factor[i]) {
      dims[i] = ty_rel_dim(l->factor[i]);
      continue;
    }
    IrType *whole = c[strchr(canon, l->axis[i]) - canon];
    int q = packed_find(l, (char)(l->axis[i] - 'A' + 'a'));
    if (q < 0) {
      dims[i] = whole;
      continue;
    }
    int64_t f = l->factor[q], v;
    if ((dims[i] = ty_dim_div(cx, whole, ty_rel_dim(f)))) continue;
    TyDimState known = ty_rel_dim_state(cx, whole, &v);
    if (known == TY_DIM_HOLE) return TY_NOT_YET;
    if (known == TY_DIM_CONST)
      REL_FAIL("%s: the output's axis %c has %lld elements, which do not split into parts of %lld (\"%s\")",
               ty_rel_who(rel), l->axis[i], (long long)v, (long long)f, l->s);
    dims[i] = ty_dim_any(); /* named sizes: whether f divides them is checked at each use */
    *open |= known == TY_DIM_SYMBOLIC;
  }
  *out_shape = ty_rel_shape(l->n, dims);
  return TY_SOLVED;
}

/* nn.contrib_conv2d_NCHWc (TVM's Conv2DWinogradRel<Conv2DAttrs>: channels and kernel_size must be
 * given, the output is (N, channels, window sizes) in out_layout) and nn.contrib_depthwise_conv2d_NCHWc
 * (Conv2DRel: channels and kernel_size may come from the weight). Data and output layouts are NCHW with
 * C (or any axis) split, the weight's OIHW with I and O split; the weight, once known, must fit. */
static TyRelResult nchwc_rel(TyCtx *cx, TyRelation *rel, bool depthwise, const char **message) {
  Packed dl, kl, ol;
  REL_TRY(packed_layout(rel, IR_A_DATA_LAYOUT, "NCHW", "NCHW", &dl, message));
  REL_TRY(packed_layout(rel, IR_A_KERNEL_LAYOUT, "OIHW", "OIHW", &kl, message));
  REL_TRY(packed_layout(rel, IR_A_OUT_LAYOUT, "NCHW", dl.s, &ol, message));
  const IrAttrValue *ch = ty_rel_attr(rel, IR_A_CHANNELS), *ks = ty_rel_attr(rel, IR_A_KERNEL_SIZE);
  bool has_ch = ch->given && !ch->none, has_ks = ks->given && !ks->none;
  if (!depthwise && (!has_ch || !has_ks))
    REL_FAIL("%s needs channels and kernel_size (TVM's relation reads them, not the weight)", ty_rel_who(rel));
  IrType *xs, *xt, *ws, *wt, *x[4], *w[4], *c[4];
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, dl.n, &xs, &xt, ir_printf("data (%s)", dl.s), message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, kl.n, &ws, &wt, ir_printf("a weight (%s)", kl.s), message));
  REL_TRY(ty_rel_product_dtypes(cx, rel, xt, wt, message));
  REL_TRY(packed_forward(cx, rel, &dl, "NCHW", xs, "the data", x, message));
  REL_TRY(packed_forward(cx, rel, &kl, "OIHW", ws, "the weight", w, message));
  int64_t strides[2], dil[2], lo[2], hi[2], kernel[2];
  REL_TRY(tuple_attr(rel, IR_A_STRIDES, 2, 1, 1, strides, message));
  REL_TRY(tuple_attr(rel, IR_A_DILATION, 2, 1, 1, dil, message));
  REL_TRY(pads_attr(rel, 2, lo, hi, message));
  if (has_ks) REL_TRY(tuple_attr(rel, IR_A_KERNEL_SIZE, 2, 1, 0, kernel, message));
  int64_t groups = ir_attr_int(rel->attrs, IR_A_GROUPS, 1);
  if (groups < 1) REL_FAIL("%s: groups=%lld must be at least 1", ty_rel_who(rel), (long long)groups);
  IrType *cin = ty_dim_mul(cx, w[1], ty_rel_dim(groups));
  if (!ty_unify(cx, x[1], cin, NULL))
    REL_FAIL("%s: the data (%s) has %s channels, but the weight %s (%s) takes %s (its I dimension times groups=%lld)",
             ty_rel_who(rel), dl.s, ty_rel_text(cx, x[1]), ty_rel_shape_text(cx, ws), kl.s, ty_rel_text(cx, cin),
             (long long)groups);
  if (has_ch && !ty_unify(cx, w[0], ty_rel_dim(ch->ints[0]), NULL))
    REL_FAIL("%s: channels=%lld, but the weight %s (%s) has %s output channels", ty_rel_who(rel),
             (long long)ch->ints[0], ty_rel_shape_text(cx, ws), kl.s, ty_rel_text(cx, w[0]));
  bool open = false;
  if (groups > 1) REL_TRY(divides(cx, rel, w[0], groups, "output channels", &open, message));
  c[0] = x[0];
  c[1] = w[0];
  for (int i = 0; i < 2; i++) {
    int64_t k;
    if (has_ks) {
      k = kernel[i];
      if (!ty_unify(cx, w[2 + i], ty_rel_dim(k), NULL))
        REL_FAIL("%s: kernel_size=%lld, but the weight is %s (%s)", ty_rel_who(rel), (long long)k,
                 ty_rel_shape_text(cx, ws), kl.s);
    } else {
      TyDimState known = ty_rel_dim_state(cx, w[2 + i], &k);
      if (known == TY_DIM_HOLE) return TY_NOT_YET;
      if (known != TY_DIM_CONST) {
        c[2 + i] = ty_dim_any();
        open |= ty_rel_dim_open(known);
        continue;
      }
    }
    if (ty_rel_window(cx, rel, x[2 + i], k, dil[i], strides[i], lo[i], hi[i], false, &c[2 + i], &open) == TY_FAILED)
      REL_FAIL("%s: the kernel %s (dilation %lld) does not fit the padded data %s", ty_rel_who(rel),
               ty_rel_shape_text(cx, ws), (long long)dil[i], ty_rel_shape_text(cx, xs));
  }
  IrType *os;
  REL_TRY(packed_backward(cx, rel, &ol, "NCHW", c, &os, &open, message));
  return ty_rel_open(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(os, ty_rel_out_dtype(rel, xt)), message), open);
}

TyRelResult ty_rel_conv2d_nchwc(TyCtx *cx, TyRelation *rel, const char **message) {
  return nchwc_rel(cx, rel, false, message);
}
TyRelResult ty_rel_depthwise_conv2d_nchwc(TyCtx *cx, TyRelation *rel, const char **message) {
  return nchwc_rel(cx, rel, true, message);
}

/* qnn.contrib_dense_pack's zero point argument i holds as many values as relay's kernel (qnn.dense's on the
 * unpacked weight) reads: the input's (n NULL) one, the kernel's one or one per output channel n. TVM's
 * QnnDensePackRel reads neither; its Python API documents a scalar or a vector per channel. Decided on
 * constants and where the normal forms say it; over other named sizes or a hole *open (a where clause);
 * over `?` the kernel checks. */
static TyRelResult zero_point_count(TyCtx *cx, TyRelation *rel, int i, IrType *n, IrType *ws, const char *layout,
                                    bool *open, const char **message) {
  IrType *zs;
  REL_TRY(ty_rel_tensor(cx, rel, i, &zs, NULL, message));
  IrType *count = ty_rel_dim(1);
  for (int k = 0; k < zs->u.shape.rank; k++) count = ty_dim_mul(cx, count, ty_rel_dim_at(zs, k));
  int64_t c, v, d;
  TyDimState cs = ty_rel_dim_state(cx, count, &c), ns = n ? ty_rel_dim_state(cx, n, &v) : TY_DIM_CONST;
  if (!n) v = 1;
  if ((cs == TY_DIM_CONST && c == 1) || cs == TY_DIM_ANY || ns == TY_DIM_ANY) return TY_SOLVED;
  if (cs == TY_DIM_CONST && ns == TY_DIM_CONST) {
    if (c == v) return TY_SOLVED;
    if (!n)
      REL_FAIL("%s: the input zero point %s has %lld values, but it takes one", ty_rel_who(rel),
               ty_rel_shape_text(cx, zs), (long long)c);
    REL_FAIL("%s: the kernel zero point %s has %lld values, but the weight %s (%s) has %lld output channels",
             ty_rel_who(rel), ty_rel_shape_text(cx, zs), (long long)c, ty_rel_shape_text(cx, ws), layout, (long long)v);
  }
  if (n && ty_dim_value(cx, ty_dim_sub(cx, count, n), &d) && d == 0) return TY_SOLVED;
  *open = true;
  return TY_SOLVED;
}

/* nn.contrib_dense_pack (TVM's DensePackRel): data (M, K) by a weight packed in weight_layout ("NC8n":
 * (N / 8, K, 8); "NC16n4c": (N / 16, K / 4, 16, 4)) gives (M, N), N the weight's unpacked N axis (TVM's
 * w0 * w2); its unpacked C axis must be K. */
static TyRelResult dense_pack_rel(TyCtx *cx, TyRelation *rel, bool qnn, const char **message) {
  Packed wl;
  const IrAttrValue *od = ty_rel_attr(rel, IR_A_OUT_DTYPE);
  if (qnn && (!od->given || od->none))
    REL_FAIL("%s needs out_dtype (TVM's QnnDensePackRel: its bits must be more than 0)", ty_rel_who(rel));
  REL_TRY(packed_layout(rel, IR_A_WEIGHT_LAYOUT, "NC", "NC", &wl, message));
  IrType *xs, *xt, *ws, *wt, *w[2];
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 2, &xs, &xt, "2-D data", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, wl.n, &ws, &wt, ir_printf("a weight (%s)", wl.s), message));
  REL_TRY(ty_rel_product_dtypes(cx, rel, xt, wt, message));
  REL_TRY(packed_forward(cx, rel, &wl, "NC", ws, "the weight", w, message));
  if (!ty_unify(cx, ty_rel_dim_at(xs, 1), w[1], NULL))
    REL_FAIL("%s: the data %s has %s columns, but the weight %s (%s) takes %s", ty_rel_who(rel),
             ty_rel_shape_text(cx, xs), ty_rel_text(cx, ty_rel_dim_at(xs, 1)), ty_rel_shape_text(cx, ws), wl.s,
             ty_rel_text(cx, w[1]));
  IrType **dims = IR_NEW_ARRAY(IrType *, 2);
  dims[0] = ty_rel_dim_at(xs, 0);
  dims[1] = w[0];
  REL_TRY(ty_rel_result(cx, rel, qnn ? 6 : 2, ty_rel_tensor_type(ty_rel_shape(2, dims), ty_rel_out_dtype(rel, xt)), message));
  if (!qnn) return TY_SOLVED;
  bool open = false;
  REL_TRY(zero_point_count(cx, rel, 2, NULL, ws, wl.s, &open, message));
  REL_TRY(zero_point_count(cx, rel, 3, w[0], ws, wl.s, &open, message));
  return ty_rel_open(TY_SOLVED, open);
}

TyRelResult ty_rel_dense_pack(TyCtx *cx, TyRelation *rel, const char **message) {
  return dense_pack_rel(cx, rel, false, message);
}

/* qnn.contrib_dense_pack(data, weight, input_zero_point, kernel_zero_point, input_scale, kernel_scale)
 * (TVM's QnnDensePackRel): as nn.contrib_dense_pack, out_dtype required; the zero points hold the values
 * relay's kernel reads (zero_point_count), the scales are not read (nor by the kernel). */
TyRelResult ty_rel_qnn_dense_pack(TyCtx *cx, TyRelation *rel, const char **message) {
  return dense_pack_rel(cx, rel, true, message);
}

/* ---------------------------------------------------------------- Winograd */

/* tile_size (required) within topi's winograd_transform_matrices' range, 2 to 8. */
static TyRelResult tile_size(TyRelation *rel, int64_t *m, const char **message) {
  *m = ir_attr_int(rel->attrs, IR_A_TILE_SIZE, 0);
  if (*m < 2 || *m > 8)
    REL_FAIL("%s: tile_size=%lld is not supported: Winograd's tiles are 2 to 8 (topi's winograd_transform_matrices)",
             ty_rel_who(rel), (long long)*m);
  return TY_SOLVED;
}

/* A square kernel side of 3 to 7, as topi's matrices take it (what the relation knows of it). */
static TyRelResult winograd_kernel(TyCtx *cx, TyRelation *rel, IrType *kh, IrType *kw, IrType *shape, bool *open,
                                   const char **message) {
  int64_t a, b;
  TyDimState ra = ty_rel_dim_state(cx, kh, &a), rb = ty_rel_dim_state(cx, kw, &b);
  if ((ra == TY_DIM_CONST && (a < 3 || a > 7)) || (rb == TY_DIM_CONST && (b < 3 || b > 7)) ||
      (ra == TY_DIM_CONST && rb == TY_DIM_CONST && a != b))
    REL_FAIL("%s: the kernel %s is not supported: Winograd takes square kernels of 3 to 7", ty_rel_who(rel),
             ty_rel_shape_text(cx, shape));
  *open |= ty_rel_dim_open(ra) || ty_rel_dim_open(rb); /* checked at each use, or once known */
  return TY_SOLVED;
}

/* nn.contrib_conv2d_winograd_weight_transform (TVM's Conv2DWinogradWeightTransformRel): an OIHW weight
 * (O, I, KH, KW) becomes (tile + KH - 1, tile + KW - 1, O, I). */
TyRelResult ty_rel_conv2d_winograd_weight_transform(TyCtx *cx, TyRelation *rel, const char **message) {
  int64_t m;
  REL_TRY(tile_size(rel, &m, message));
  IrType *ws, *wt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &ws, &wt, "an OIHW weight", message));
  bool open = false;
  REL_TRY(winograd_kernel(cx, rel, ty_rel_dim_at(ws, 2), ty_rel_dim_at(ws, 3), ws, &open, message));
  IrType **dims = IR_NEW_ARRAY(IrType *, 4);
  dims[0] = ty_dim_add(cx, ty_rel_dim_at(ws, 2), ty_rel_dim(m - 1));
  dims[1] = ty_dim_add(cx, ty_rel_dim_at(ws, 3), ty_rel_dim(m - 1));
  dims[2] = ty_rel_dim_at(ws, 0);
  dims[3] = ty_rel_dim_at(ws, 1);
  REL_TRY(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(4, dims), wt), message));
  return ty_rel_open(ty_rel_float(cx, rel, wt, "its weight", rel->args[0], message), open);
}

/* What the convolutions on a transformed weight (Winograd, GEMM) share: the data layout (convertible
 * to canon; NCHW when omitted, Conv2DAttrs' and Conv2DWinogradAttrs' C++ default) and out_layout,
 * channels and kernel_size required (TVM's relations read them, not the weight), the data as canon's
 * dims x[], a rank-4 weight of a compatible dtype, and the window's attributes. */
static TyRelResult transformed_conv(TyCtx *cx, TyRelation *rel, const char *canon, Packed *dl, Packed *ol, IrType **xt,
                                    IrType *x[4], int64_t strides[2], int64_t dil[2], int64_t lo[2], int64_t hi[2],
                                    int64_t kernel[2], const char **message) {
  REL_TRY(packed_layout(rel, IR_A_DATA_LAYOUT, canon, "NCHW", dl, message));
  REL_TRY(packed_layout(rel, IR_A_OUT_LAYOUT, canon, dl->s, ol, message));
  const IrAttrValue *ch = ty_rel_attr(rel, IR_A_CHANNELS), *ks = ty_rel_attr(rel, IR_A_KERNEL_SIZE);
  if (!ch->given || ch->none || !ks->given || ks->none)
    REL_FAIL("%s needs channels and kernel_size (TVM's relation reads them, not the weight)", ty_rel_who(rel));
  IrType *xs, *ws, *wt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, dl->n, &xs, xt, ir_printf("data (%s)", dl->s), message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 4, &ws, &wt, "a transformed weight", message));
  REL_TRY(ty_rel_product_dtypes(cx, rel, *xt, wt, message));
  REL_TRY(packed_forward(cx, rel, dl, canon, xs, "the data", x, message));
  REL_TRY(tuple_attr(rel, IR_A_STRIDES, 2, 1, 1, strides, message));
  REL_TRY(tuple_attr(rel, IR_A_DILATION, 2, 1, 1, dil, message));
  REL_TRY(pads_attr(rel, 2, lo, hi, message));
  return tuple_attr(rel, IR_A_KERNEL_SIZE, 2, 1, 1, kernel, message);
}

/* nn.contrib_conv2d_winograd_without_weight_transform (TVM's Conv2DWinogradRel<Conv2DWinogradAttrs>):
 * channels and kernel_size required, the output (N, channels, window sizes) in out_layout. TVM's relation
 * does not read the weight (it lets backends pick its layout); relay's kernel takes the weight transform's
 * (alpha, alpha, channels, the data's channels), alpha = tile_size + kernel_size - 1, so the relation
 * unifies the weight with it (a weight without a type gets it; one of other sizes is a type error).
 * Strides and dilation must be 1, as topi's Winograd. */
TyRelResult ty_rel_conv2d_winograd(TyCtx *cx, TyRelation *rel, const char **message) {
  Packed dl, ol;
  int64_t m;
  REL_TRY(tile_size(rel, &m, message));
  const IrAttrValue *ch = ty_rel_attr(rel, IR_A_CHANNELS);
  IrType *xt, *x[4], **c = IR_NEW_ARRAY(IrType *, 4);
  int64_t strides[2], dil[2], lo[2], hi[2], kernel[2];
  REL_TRY(transformed_conv(cx, rel, "NCHW", &dl, &ol, &xt, x, strides, dil, lo, hi, kernel, message));
  if (strides[0] != 1 || strides[1] != 1 || dil[0] != 1 || dil[1] != 1)
    REL_FAIL("%s: Winograd takes strides and dilation 1 (topi's), not strides=[%lld, %lld], dilation=[%lld, %lld]",
             ty_rel_who(rel), (long long)strides[0], (long long)strides[1], (long long)dil[0], (long long)dil[1]);
  if (kernel[0] != kernel[1] || kernel[0] < 3 || kernel[0] > 7)
    REL_FAIL("%s: kernel_size=[%lld, %lld] is not supported: Winograd takes square kernels of 3 to 7", ty_rel_who(rel),
             (long long)kernel[0], (long long)kernel[1]);
  IrType *ws, *wt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 4, &ws, &wt, "a transformed weight", message));
  int64_t alpha = m + kernel[0] - 1;
  static const char *const what[4] = {"first", "second", "third", "fourth"};
  IrType *want[4] = {ty_rel_dim(alpha), ty_rel_dim(alpha), ty_rel_dim(ch->ints[0]), x[1]};
  for (int i = 0; i < 4; i++)
    REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(ws, i), want[i],
                            ir_printf("the weight's %s dimension and the transform's (%s)", what[i],
                                      i < 2 ? "tile_size + kernel_size - 1" : i == 2 ? "channels" : "the data's channels"),
                            message));
  c[0] = x[0];
  c[1] = ty_rel_dim(ch->ints[0]);
  bool open = false;
  for (int i = 0; i < 2; i++)
    if (ty_rel_window(cx, rel, x[2 + i], kernel[i], 1, 1, lo[i], hi[i], false, &c[2 + i], &open) == TY_FAILED)
      REL_FAIL("%s: the kernel_size %lld does not fit the padded data %s", ty_rel_who(rel), (long long)kernel[i],
               ty_rel_shape_text(cx, rel->args[0]));
  IrType *os;
  REL_TRY(packed_backward(cx, rel, &ol, "NCHW", c, &os, &open, message));
  IrType *ot = ty_rel_out_dtype(rel, xt);
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(os, ot), message));
  return ty_rel_open(ty_rel_float(cx, rel, ot, "its output", rel->args[2], message), open);
}

/* auto_scheduler_layout_transform (TVM's AutoSchedulerLayoutTransformRel): dst_layout such as
 * "16o4i3h3w4o" is the output's shape (each factor, then its axis name; a name may repeat, split);
 * the data's rank must be src_layout's number of axes (its factors are not read, as topi's). */
static const char *auto_layout(const char *s, int *n, int64_t *shape) {
  int64_t f = 0;
  int axes = 0;
  bool in_axis = false;
  *n = 0;
  if (!s || !*s) return "it is empty";
  for (const char *p = s; *p; p++) {
    if (*p >= 'A' && *p <= 'z') {
      if (!in_axis) {
        if (f < 1) return "an axis has no factor before it";
        if (*n == 64) return "it has more than 64 axes";
        shape[(*n)++] = f;
        f = 0;
        axes++;
      }
      in_axis = true;
    } else if (*p >= '0' && *p <= '9') {
      if (f > ATTR_MAX) return "a factor is too large";
      f = f * 10 + (*p - '0');
      in_axis = false;
    } else
      return "it has a character that is neither a letter nor a digit";
  }
  if (!in_axis) return "it ends with a factor";
  return NULL;
}

TyRelResult ty_rel_auto_scheduler_layout_transform(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  const char *src = ty_rel_attr(rel, IR_A_SRC_LAYOUT)->str, *dst = ty_rel_attr(rel, IR_A_DST_LAYOUT)->str, *why;
  int ns, nd;
  int64_t ss[64], ds[64];
  if ((why = auto_layout(src, &ns, ss))) REL_FAIL("%s: src_layout=\"%s\" is not a layout: %s", ty_rel_who(rel), src ? src : "", why);
  if ((why = auto_layout(dst, &nd, ds))) REL_FAIL("%s: dst_layout=\"%s\" is not a layout: %s", ty_rel_who(rel), dst ? dst : "", why);
  if (xs->u.shape.rank != ns)
    REL_FAIL("%s: src_layout=\"%s\" has %d axes, but the data %s has rank %d", ty_rel_who(rel), src, ns,
             ty_rel_shape_text(cx, xs), xs->u.shape.rank);
  IrType **dims = IR_NEW_ARRAY(IrType *, nd + 1);
  for (int i = 0; i < nd; i++) dims[i] = ty_rel_dim(ds[i]);
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(nd, dims), xt), message);
}

/* ---------------------------------------------------------------- GEMM convolution */

static TyRelResult gemm_tiles(TyRelation *rel, int64_t *n, int64_t *k, const char **message) {
  *n = ir_attr_int(rel->attrs, IR_A_TILE_ROWS, 0);
  *k = ir_attr_int(rel->attrs, IR_A_TILE_COLS, 0);
  if (*n < 1 || *k < 1 || *n > ATTR_MAX || *k > ATTR_MAX)
    REL_FAIL("%s: tile_rows=%lld and tile_cols=%lld must be at least 1", ty_rel_who(rel), (long long)*n, (long long)*k);
  return TY_SOLVED;
}

/* nn.contrib_conv2d_gemm_weight_transform (TVM's Conv2DGemmWeightTransformRel): an HWIO weight flattened
 * to (K = KH*KW*I, N = O), K padded to a multiple of 4 * tile_cols and N of tile_rows, gives
 * (N' / tile_rows, K' / tile_cols, tile_rows, tile_cols). */
TyRelResult ty_rel_conv2d_gemm_weight_transform(TyCtx *cx, TyRelation *rel, const char **message) {
  int64_t n, k, d[4];
  REL_TRY(gemm_tiles(rel, &n, &k, message));
  IrType *ws, *wt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &ws, &wt, "an HWIO weight", message));
  IrType **dims = IR_NEW_ARRAY(IrType *, 4);
  bool known = true;
  for (int i = 0; i < 4; i++) {
    TyRelResult r = ty_rel_dim_const(cx, ty_rel_dim_at(ws, i), &d[i]);
    if (r == TY_NOT_YET) return r;
    known &= r == TY_SOLVED;
  }
  if (known) {
    int64_t K, N = d[3], kk = 4 * k, Kpad;
    if (__builtin_mul_overflow(d[0], d[1], &K) || __builtin_mul_overflow(K, d[2], &K) ||
        __builtin_add_overflow(K, kk - 1, &Kpad) || N > INT64_MAX - (n - 1))
      REL_FAIL("%s: the weight %s is too large to flatten", ty_rel_who(rel), ty_rel_shape_text(cx, ws));
    dims[0] = ty_rel_dim((N + n - 1) / n);
    dims[1] = ty_rel_dim(Kpad / kk * kk / k);
  } else {
    dims[0] = ty_dim_any();
    dims[1] = ty_dim_any();
  }
  dims[2] = ty_rel_dim(n);
  dims[3] = ty_rel_dim(k);
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(4, dims), wt), message);
}

/* a * b of sizes (not negative), INT64_MAX when it overflows. */
static int64_t mul_sat(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* nn.contrib_conv2d_gemm_without_weight_transform (TVM's Conv2DGemmRel): data convertible to NHWC,
 * channels and kernel_size required, the output (N, window sizes, channels) in out_layout. TVM's relation
 * does not read the weight; topi's conv2d_gemm reads its blocks (N', K', tile_rows, tile_cols) at every
 * output channel and every row of the im2col, as relay's kernel does, which needs tiles of 1 or more,
 * N' * tile_rows >= channels and K' * tile_cols >= kh * kw * the data's channels: with constants a type
 * error, over named sizes a where clause (no normal form decides an inequality), over `?` the kernel's. */
TyRelResult ty_rel_conv2d_gemm(TyCtx *cx, TyRelation *rel, const char **message) {
  Packed dl, ol;
  const IrAttrValue *ch = ty_rel_attr(rel, IR_A_CHANNELS);
  IrType *xt, *x[4], **c = IR_NEW_ARRAY(IrType *, 4);
  int64_t strides[2], dil[2], lo[2], hi[2], kernel[2];
  REL_TRY(transformed_conv(cx, rel, "NHWC", &dl, &ol, &xt, x, strides, dil, lo, hi, kernel, message));
  c[0] = x[0];
  c[3] = ty_rel_dim(ch->ints[0]);
  bool open = false;
  IrType *ws, *wt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 4, &ws, &wt, "a transformed weight", message));
  int64_t b[5];
  TyDimState st[5];
  for (int i = 0; i < 5; i++) st[i] = ty_rel_dim_state(cx, i < 4 ? ty_rel_dim_at(ws, i) : x[3], &b[i]);
  /* each condition over the sizes it reads (weight dims 0-3, the data's channels 4): tiles, N', K' */
  static const int reads[3][3] = {{2, 3, 3}, {0, 2, 2}, {1, 3, 4}};
  for (int k = 0; k < 3; k++) {
    bool all = true, any = false;
    for (int j = 0; j < 3; j++) all &= st[reads[k][j]] == TY_DIM_CONST, any |= st[reads[k][j]] == TY_DIM_ANY;
    if (!all) {
      open |= !any; /* named sizes or a hole: at each use, or once known; `?`: the kernel */
      continue;
    }
    bool fits = k == 0 ? b[2] >= 1 && b[3] >= 1
                : k == 1 ? mul_sat(b[0], b[2]) >= ch->ints[0]
                         : mul_sat(b[1], b[3]) >= mul_sat(mul_sat(kernel[0], kernel[1]), b[4]);
    if (!fits)
      REL_FAIL("%s: the weight %s does not hold a %lldx%lld kernel from %s to %lld channels (blocks (N', K', "
               "tile_rows, tile_cols) with N' * tile_rows >= channels, K' * tile_cols >= %lld * %lld * the data's "
               "channels)",
               ty_rel_who(rel), ty_rel_shape_text(cx, ws), (long long)kernel[0], (long long)kernel[1],
               ty_rel_text(cx, x[3]), (long long)ch->ints[0], (long long)kernel[0], (long long)kernel[1]);
  }
  for (int i = 0; i < 2; i++)
    if (ty_rel_window(cx, rel, x[1 + i], kernel[i], dil[i], strides[i], lo[i], hi[i], false, &c[1 + i], &open) ==
        TY_FAILED)
      REL_FAIL("%s: the kernel_size %lld (dilation %lld) does not fit the padded data %s", ty_rel_who(rel),
               (long long)kernel[i], (long long)dil[i], ty_rel_shape_text(cx, rel->args[0]));
  IrType *os;
  REL_TRY(packed_backward(cx, rel, &ol, "NHWC", c, &os, &open, message));
  return ty_rel_open(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(os, ty_rel_out_dtype(rel, xt)), message), open);
}
