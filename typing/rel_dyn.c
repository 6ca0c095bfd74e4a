/* The relations of the dynamic operators (`dyn.*`, TVM v0.14's src/relay/op/dyn/): a static operator
 * whose shape, size or count is a tensor argument instead of an attribute. Only that argument's
 * length is known before the run, so each relation gives TVM's type: the rank the length decides and
 * `?` for every dimension the values decide, the others kept. The kernels are in runtime/dyn.c. */
#include "typing/oprel.h"

#include <string.h>

/* The largest rank a result takes (the kernels' RT_MAX_RANK; tile's relation has the same bound). */
enum { DYN_MAX_RANK = 64 };

/* ---------------------------------------------------------------- shared */

/* Argument i as a vector (`what` names it) whose length is a constant: *n. TVM's relations read the
 * length as an integer (an ICHECK fails otherwise), so a shape variable or `?` there is a type error. */
static TyRelResult vector_length(TyCtx *cx, TyRelation *rel, int i, const char *what, int64_t *n, const char **message) {
  IrType *s, *dt;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, i, 1, &s, &dt, ir_printf("%s (a vector)", what), message));
  IrType *len = ty_rel_dim_at(s, 0);
  TyRelResult k = ty_rel_dim_const(cx, len, n);
  if (k == TY_FAILED)
    REL_FAIL("%s: the length of %s decides the result's rank, so it must be a constant, but %s is %s", ty_rel_who(rel),
             what, what, ty_rel_text(cx, rel->args[i]));
  return k;
}

/* Argument i as a tensor of rank `rank` of any element type (a hole becomes one). */
static TyRelResult tensor_arg(TyCtx *cx, TyRelation *rel, int i, int rank, const char *what, const char **message) {
  IrType *s, *dt;
  return ty_rel_tensor_of_rank(cx, rel, i, rank, &s, &dt, what, message);
}

static TyRelResult check_rank(TyRelation *rel, int64_t rank, const char **message) {
  if (rank > DYN_MAX_RANK)
    REL_FAIL("%s: the result's rank %lld is beyond %d", ty_rel_who(rel), (long long)rank, DYN_MAX_RANK);
  return TY_SOLVED;
}

/* A shape of `rank` dimensions: those of `keep` (rank dimensions, NULL for none) where it has one, `?`
 * elsewhere. */
static IrType *any_shape(int rank, IrType **keep) {
  IrType **dims = IR_NEW_ARRAY(IrType *, rank + 1);
  for (int i = 0; i < rank; i++) dims[i] = keep && keep[i] ? keep[i] : ty_dim_any();
  return ty_rel_shape(rank, dims);
}

static TyRelResult result(TyCtx *cx, TyRelation *rel, IrType *shape, IrType *dtype, const char **message) {
  return ty_rel_result(cx, rel, rel->nargs - 1, ty_rel_tensor_type(shape, dtype), message);
}

static IrType *dtype_attr(TyRelation *rel, IrAttrId id, IrType *dflt) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  return a->given && !a->none ? ir_type_dtype(a->dtype, (IrSpan){0}) : dflt;
}

static TyRelResult integer_dtype(TyCtx *cx, TyRelation *rel, IrType *dtype, const char *what, const char **message) {
  dtype = ty_prune(cx, dtype);
  if (dtype->kind == IR_TYPE_DTYPE && dtype->u.dtype.code != IR_DT_INT && dtype->u.dtype.code != IR_DT_UINT)
    REL_FAIL("%s takes integer %s, but they are %s", ty_rel_who(rel), what, ty_rel_text(cx, dtype));
  return TY_SOLVED;
}

/* The data of an operator on images: rank `canon`'s length, its letters in the order of the
 * attribute `layout` (a permutation of canon, as the static operators take); pos[k] is the axis of
 * canon[k]. */
static TyRelResult image_data(TyCtx *cx, TyRelation *rel, const char *canon, IrType **xs, IrType **xt, int pos[],
                              const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_LAYOUT);
  const char *layout = a->given && !a->none && a->str && *a->str ? a->str : canon;
  if (!ir_layout_axes(layout, canon, pos))
    REL_FAIL("%s: layout=\"%s\" is not supported: it takes the letters of \"%s\" in any order", ty_rel_who(rel), layout,
             canon);
  return ty_rel_tensor_of_rank(cx, rel, 0, (int)strlen(canon), xs, xt, ir_printf("data (%s)", layout), message);
}

/* The data's shape with the spatial axes (canon's letters after N and C) `?`. */
static IrType *spatial_any(IrType *xs, const int pos[]) {
  int r = xs->u.shape.rank;
  IrType **keep = IR_NEW_ARRAY(IrType *, r + 1);
  keep[pos[0]] = ty_rel_dim_at(xs, pos[0]);
  keep[pos[1]] = ty_rel_dim_at(xs, pos[1]);
  return any_shape(r, keep);
}

/* ---------------------------------------------------------------- shapes as tensors */

/* dyn.reshape(data, newshape): rank the length of newshape (ReshapeRel in tensor/transform.cc). */
TyRelResult ty_rel_dyn_reshape(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  int64_t n;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(vector_length(cx, rel, 1, "newshape", &n, message));
  REL_TRY(check_rank(rel, n, message));
  return result(cx, rel, any_shape((int)n, NULL), xt, message);
}

/* dyn.broadcast_to(data, shape): rank the length of shape (BroadCastToRel). */
TyRelResult ty_rel_dyn_broadcast_to(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  int64_t n;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(vector_length(cx, rel, 1, "shape", &n, message));
  REL_TRY(check_rank(rel, n, message));
  return result(cx, rel, any_shape((int)n, NULL), xt, message);
}

/* dyn.tile(data, reps): rank the larger of the data's and reps' length (TileRel). */
TyRelResult ty_rel_dyn_tile(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  int64_t n;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(vector_length(cx, rel, 1, "reps", &n, message));
  int64_t r = xs->u.shape.rank > n ? xs->u.shape.rank : n;
  REL_TRY(check_rank(rel, r, message));
  return result(cx, rel, any_shape((int)r, NULL), xt, message);
}

/* dyn.zeros(shape), dyn.ones(shape): of dtype (float32 when not given, as zeros' and ones'), rank
 * the length of shape (InitOpRel). */
TyRelResult ty_rel_dyn_init(TyCtx *cx, TyRelation *rel, const char **message) {
  int64_t n;
  REL_TRY(vector_length(cx, rel, 0, "shape", &n, message));
  REL_TRY(check_rank(rel, n, message));
  return result(cx, rel, any_shape((int)n, NULL), dtype_attr(rel, IR_A_DTYPE, ir_type_dtype(IR_DTYPE(IR_DT_FLOAT, 32), (IrSpan){0})),
                message);
}

/* dyn.full(fill_value, shape): a scalar fill value; of dtype, the fill value's by default (FullRel). */
TyRelResult ty_rel_dyn_full(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *vs, *vt;
  int64_t n;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 0, &vs, &vt, "a fill value (a scalar)", message));
  REL_TRY(vector_length(cx, rel, 1, "shape", &n, message));
  REL_TRY(check_rank(rel, n, message));
  return result(cx, rel, any_shape((int)n, NULL), dtype_attr(rel, IR_A_DTYPE, vt), message);
}

/* dyn.one_hot(indices, on_value, off_value, depth): the indices' shape with `?` inserted at axis (-1:
 * last) (OneHotRel); scalar on and off values, as one_hot's; of dtype, the on value's by default. */
TyRelResult ty_rel_dyn_one_hot(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *os, *ot, *fs, *ft, *ds, *dt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(integer_dtype(cx, rel, xt, "indices", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 0, &os, &ot, "an on_value (a scalar)", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 0, &fs, &ft, "an off_value (a scalar)", message));
  REL_TRY(ty_rel_tensor(cx, rel, 3, &ds, &dt, message));
  if (ds->u.shape.rank > 1)
    REL_FAIL("%s takes depth as one value (a scalar), but it is %s", ty_rel_who(rel), ty_rel_text(cx, rel->args[3]));
  int r = xs->u.shape.rank, axis;
  REL_TRY(check_rank(rel, r + 1, message));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, -1), r, 1, &axis, message));
  IrType **keep = IR_NEW_ARRAY(IrType *, r + 2);
  for (int i = 0, k = 0; i <= r; i++) keep[i] = i == axis ? NULL : xs->u.shape.dims[k++];
  return result(cx, rel, any_shape(r + 1, keep), dtype_attr(rel, IR_A_DTYPE, ot), message);
}

/* dyn.strided_slice(data, begin, end, strides): the first len(begin) axes `?`, the others the data's
 * (StridedSliceRel). */
TyRelResult ty_rel_dyn_strided_slice(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  int64_t n;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(vector_length(cx, rel, 1, "begin", &n, message));
  REL_TRY(tensor_arg(cx, rel, 2, 1, "end (a vector)", message));
  REL_TRY(tensor_arg(cx, rel, 3, 1, "strides (a vector)", message));
  int r = xs->u.shape.rank;
  if (n > r)
    REL_FAIL("%s: begin slices %lld axes, but the data %s has %d", ty_rel_who(rel), (long long)n, ty_rel_shape_text(cx, xs), r);
  IrType **keep = IR_NEW_ARRAY(IrType *, r + 1);
  for (int i = 0; i < r; i++) keep[i] = i < n ? NULL : xs->u.shape.dims[i];
  return result(cx, rel, any_shape(r, keep), xt, message);
}

/* dyn.sparse_to_dense(sparse_indices, sparse_values, default_value, output_shape): rank the length
 * of output_shape, of the values' type (SparseToDenseRel); integer indices of rank 0 to 2, values of
 * rank 0 or 1 and a default of their type, as topi's sparse_to_dense computes. */
TyRelResult ty_rel_dyn_sparse_to_dense(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *is, *it, *vs, *vt, *ds, *dt;
  int64_t n;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &is, &it, message));
  REL_TRY(integer_dtype(cx, rel, it, "sparse_indices", message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &vs, &vt, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 0, &ds, &dt, "a default_value (a scalar)", message));
  REL_TRY(vector_length(cx, rel, 3, "output_shape", &n, message));
  if (is->u.shape.rank > 2)
    REL_FAIL("%s takes sparse_indices of rank 0, 1 or 2, but they are %s", ty_rel_who(rel), ty_rel_shape_text(cx, is));
  if (vs->u.shape.rank > 1)
    REL_FAIL("%s takes sparse_values of rank 0 or 1, but they are %s", ty_rel_who(rel), ty_rel_shape_text(cx, vs));
  REL_TRY(ty_rel_same_dtype(cx, rel, vt, dt, message));
  REL_TRY(check_rank(rel, n, message));
  return result(cx, rel, any_shape((int)n, NULL), vt, message);
}

/* dyn.expand_dims(data, axis): rank the data's plus num_newaxis, every dimension `?` (ExpandDimsRel);
 * axis a scalar. */
TyRelResult ty_rel_dyn_expand_dims(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *as, *at;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 0, &as, &at, "an axis (a scalar)", message));
  int64_t num = ir_attr_int(rel->attrs, IR_A_NUM_NEWAXIS, 1);
  if (num < 0) REL_FAIL("%s: num_newaxis=%lld is negative", ty_rel_who(rel), (long long)num);
  if (num > DYN_MAX_RANK) REL_FAIL("%s: num_newaxis=%lld is beyond %d", ty_rel_who(rel), (long long)num, DYN_MAX_RANK);
  REL_TRY(check_rank(rel, xs->u.shape.rank + num, message));
  return result(cx, rel, any_shape(xs->u.shape.rank + (int)num, NULL), xt, message);
}

/* dyn.squeeze(data, axes): rank the data's less the length of axes, every dimension `?` (DynSqueezeRel). */
TyRelResult ty_rel_dyn_squeeze(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  int64_t n;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(vector_length(cx, rel, 1, "axes", &n, message));
  int r = xs->u.shape.rank;
  if (n > r)
    REL_FAIL("%s: %lld axes to remove, but the data %s has %d", ty_rel_who(rel), (long long)n, ty_rel_shape_text(cx, xs), r);
  return result(cx, rel, any_shape(r - (int)n, NULL), xt, message);
}

/* ---------------------------------------------------------------- topk */

/* dyn.topk(data, k): the data's shape with `?` along axis; values, indices (of dtype, int32 by
 * default) or both (TopKRel in algorithm/topk.cc); k a scalar or a vector of one value. */
TyRelResult ty_rel_dyn_topk(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *ks, *kt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ks, &kt, message));
  int64_t one = 1;
  TyRelResult k = ks->u.shape.rank == 1 ? ty_rel_dim_const(cx, ty_rel_dim_at(ks, 0), &one) : TY_SOLVED;
  if (k == TY_NOT_YET) /* TVM's ICHECK: the length is 1 */
    k = ty_unify(cx, ty_rel_dim_at(ks, 0), ty_rel_dim(1), NULL) ? TY_SOLVED : TY_FAILED;
  if (ks->u.shape.rank > 1 || k == TY_FAILED || one != 1)
    REL_FAIL("%s takes k as a scalar or a tensor of shape (1), but it is %s", ty_rel_who(rel), ty_rel_text(cx, rel->args[1]));
  int r = xs->u.shape.rank, axis;
  if (r == 0) REL_FAIL("%s sorts along an axis, but its argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, -1), r, 0, &axis, message));
  IrDType idt = ir_attr_dtype(rel->attrs, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32));
  if (idt.code == IR_DT_BOOL) REL_FAIL("%s gives indices as numbers, but dtype=bool", ty_rel_who(rel));
  IrType **keep = IR_NEW_ARRAY(IrType *, r + 1);
  for (int i = 0; i < r; i++) keep[i] = i == axis ? NULL : xs->u.shape.dims[i];
  IrType *shape = any_shape(r, keep);
  IrType *values = ty_rel_tensor_type(shape, xt), *indices = ty_rel_tensor_type(shape, ir_type_dtype(idt, (IrSpan){0}));
  const IrAttrValue *rt = ty_rel_attr(rel, IR_A_RET_TYPE);
  const char *ret = rt->given && rt->str ? rt->str : "both";
  if (!strcmp(ret, "values")) return ty_rel_result(cx, rel, 2, values, message);
  if (!strcmp(ret, "indices")) return ty_rel_result(cx, rel, 2, indices, message);
  if (strcmp(ret, "both"))
    REL_FAIL("%s: ret_type=\"%s\" is not one of \"both\", \"values\" and \"indices\"", ty_rel_who(rel), ret);
  IrType **fields = IR_NEW_ARRAY(IrType *, 2);
  fields[0] = values, fields[1] = indices;
  return ty_rel_result(cx, rel, 2, ir_type_tuple(2, fields, (IrSpan){0}), message);
}

/* ---------------------------------------------------------------- padding, resizing */

/* dyn.nn.pad(data, pad_width, pad_value): every dimension `?` (PadRel in nn/pad.cc): data of rank 1 or
 * more, pad_width of rank 2, a scalar pad value. */
TyRelResult ty_rel_dyn_pad(TyCtx *cx, TyRelation *rel, const char **message) {
  static const char *const modes[] = {"constant", "edge", "reflect", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_PAD_MODE, modes, message));
  IrType *xs, *xt, *vs, *vt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  if (xs->u.shape.rank == 0) REL_FAIL("%s pads the axes of its data, but it is a scalar", ty_rel_who(rel));
  REL_TRY(tensor_arg(cx, rel, 1, 2, "pad_width (a tensor of [before, after] rows)", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 0, &vs, &vt, "a pad value (a scalar)", message));
  return result(cx, rel, any_shape(xs->u.shape.rank, NULL), xt, message);
}

/* dyn.nn.upsampling(data, scale_h, scale_w): height and width `?` (UpSamplingRel in nn/upsampling.cc);
 * scalar scales; the methods of nn.upsampling. */
TyRelResult ty_rel_dyn_up_sampling(TyCtx *cx, TyRelation *rel, const char **message) {
  static const char *const methods[] = {"nearest_neighbor", "bilinear", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_METHOD, methods, message));
  IrType *xs, *xt;
  int pos[4];
  REL_TRY(image_data(cx, rel, "NCHW", &xs, &xt, pos, message));
  REL_TRY(tensor_arg(cx, rel, 1, 0, "scale_h (a scalar)", message));
  REL_TRY(tensor_arg(cx, rel, 2, 0, "scale_w (a scalar)", message));
  return result(cx, rel, spatial_any(xs, pos), xt, message);
}

/* dyn.nn.upsampling3d(data, scale_d, scale_h, scale_w): depth, height and width `?` (UpSampling3DRel). */
TyRelResult ty_rel_dyn_up_sampling3d(TyCtx *cx, TyRelation *rel, const char **message) {
  static const char *const methods[] = {"nearest_neighbor", "trilinear", NULL};
  static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_METHOD, methods, message));
  REL_TRY(ty_rel_choice(rel, IR_A_COORDINATE_TRANSFORMATION_MODE, modes, message));
  IrType *xs, *xt;
  int pos[5];
  REL_TRY(image_data(cx, rel, "NCDHW", &xs, &xt, pos, message));
  for (int i = 1; i <= 3; i++) REL_TRY(tensor_arg(cx, rel, i, 0, "a scale (a scalar)", message));
  return result(cx, rel, spatial_any(xs, pos), xt, message);
}

/* dyn.image.resize2d(data, size, roi): height and width `?`, of out_dtype (the data's by default)
 * (Resize2DRel in image/resize.cc); the methods and modes of image.resize2d. */
TyRelResult ty_rel_dyn_resize2d(TyCtx *cx, TyRelation *rel, const char **message) {
  static const char *const methods[] = {"linear", "nearest_neighbor", NULL};
  static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel",
                                      "tf_half_pixel_for_nn", NULL};
  static const char *const roundings[] = {"", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil", NULL};
  REL_TRY(ty_rel_choice(rel, IR_A_METHOD, methods, message));
  REL_TRY(ty_rel_choice(rel, IR_A_COORDINATE_TRANSFORMATION_MODE, modes, message));
  REL_TRY(ty_rel_choice(rel, IR_A_ROUNDING_METHOD, roundings, message));
  IrType *xs, *xt;
  int pos[4];
  REL_TRY(image_data(cx, rel, "NCHW", &xs, &xt, pos, message));
  REL_TRY(tensor_arg(cx, rel, 1, 1, "size (a vector)", message));
  REL_TRY(tensor_arg(cx, rel, 2, 1, "roi (a vector)", message));
  return result(cx, rel, spatial_any(xs, pos), ty_rel_out_dtype(rel, xt), message);
}
