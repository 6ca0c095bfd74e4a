/* The relations of TVM's detection operators (vision.*), as TVM v0.14's src/relay/op/vision/
 * (yolo.cc, multibox_op.cc, nms.cc, rcnn_op.cc) types them: shapes from the data's, tuple results
 * with int32 counts and indices. */
#include "typing/oprel.h"

#include <string.h>

static const IrDType I32 = {IR_DT_INT, 32, 1};

static IrType *dtype_type(IrDType dt) { return ir_type_dtype(dt, (IrSpan){0}); }

/* A shape of the dimensions dims[0..rank) (copied: ir_type_shape keeps the array). */
static IrType *shape_of(int rank, IrType *const *dims) {
  IrType **d = IR_NEW_ARRAY(IrType *, rank + 1);
  for (int i = 0; i < rank; i++) d[i] = dims[i];
  return ty_rel_shape(rank, d);
}

/* The number of values of a float-list attribute (sizes, ratios, ...) as written at the call, or
 * dflt when it is not given; -1 when it is not a list of numbers. */
static int float_list_count(const TyRelation *rel, const char *name, int dflt) {
  const IrExpr *c = rel->call;
  if (!c || c->kind != IR_EXPR_CALL) return dflt;
  for (int i = 0; i < c->u.call.nattrs; i++) {
    const IrAttr *a = &c->u.call.attrs[i];
    if (strcmp(a->key->name, name)) continue;
    const IrAttrVal *v = &a->val;
    if (v->kind == IR_ATTR_LIT && v->lit.kind != IR_LIT_BOOL) return 1;
    if (v->kind != IR_ATTR_LIST) return -1;
    for (int k = 0; k < v->n; k++)
      if (v->items[k].kind != IR_ATTR_LIT || v->items[k].lit.kind == IR_LIT_BOOL) return -1;
    return v->n;
  }
  return dflt;
}

/* d / s for a positive constant s: the quotient of a constant, d / s when it divides exactly,
 * otherwise `?` (TVM's indexdiv); waits while d is a hole. */
static TyRelResult dim_div(TyCtx *cx, IrType *d, int64_t s, IrType **out) {
  int64_t n;
  TyRelResult r = ty_rel_dim_const(cx, d, &n);
  if (r == TY_NOT_YET) return r;
  if (r == TY_SOLVED) {
    *out = ty_rel_dim(n / s);
    return TY_SOLVED;
  }
  IrType *q = ty_dim_div(cx, d, ty_rel_dim(s));
  *out = q ? q : ty_dim_any();
  return TY_SOLVED;
}

/* ---------------------------------------------------------------- YoloReorg */

/* (n, c, h, w) -> (n, c * stride^2, h / stride, w / stride). The kernel (as topi's reorg, which divides by
 * c / stride^2 and reshapes h and w by the stride) needs non-empty data to have channels a positive multiple of
 * stride^2 and sizes multiples of the stride: with constants a type error, over named sizes that the normal
 * form does not decide a where clause (TVM's YoloReorgRel checks nothing). */
TyRelResult ty_rel_yolo_reorg(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &shape, &dtype, "its data", message));
  int64_t s = ir_attr_int(rel->attrs, IR_A_STRIDE, 1);
  if (s < 1 || s > (1 << 20)) REL_FAIL("%s: stride=%lld is not positive", ty_rel_who(rel), (long long)s);
  IrType *dims[4] = {ty_rel_dim_at(shape, 0), ty_dim_mul(cx, ty_rel_dim_at(shape, 1), ty_rel_dim(s * s)), NULL, NULL};
  REL_TRY(dim_div(cx, ty_rel_dim_at(shape, 2), s, &dims[2]));
  REL_TRY(dim_div(cx, ty_rel_dim_at(shape, 3), s, &dims[3]));
  REL_TRY(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(shape_of(4, dims), dtype), message));
  /* Whether each size meets its condition: channels c * stride^2 (c = 0 leaves the data empty), height and
   * width multiples of the stride; decided on constants, or in normal form on named sizes (h * 2 by 2). */
  bool empty = false, fits = true, any = false, hole = false, all_const = true;
  for (int i = 0; i < 4; i++) {
    int64_t v, by = i == 1 ? s * s : s;
    TyDimState st = ty_rel_dim_state(cx, ty_rel_dim_at(shape, i), &v);
    empty |= st == TY_DIM_CONST && v == 0;
    any |= st == TY_DIM_ANY, hole |= st == TY_DIM_HOLE, all_const &= st == TY_DIM_CONST;
    if (i == 0 || st == TY_DIM_ANY) continue;
    if (st == TY_DIM_CONST) fits &= v % by == 0 && (i > 1 || v >= by);
    else fits &= ty_dim_div(cx, ty_rel_dim_at(shape, i), ty_rel_dim(by)) != NULL;
  }
  if (empty || fits) return TY_SOLVED;
  if (all_const)
    REL_FAIL("%s: the data %s does not reorganize by stride %lld (channels a multiple of %lld, height and width of %lld)",
             ty_rel_who(rel), ty_rel_shape_text(cx, shape), (long long)s, (long long)(s * s), (long long)s);
  /* a hole: run again once known; named sizes: at each use; else `?` (the data may be empty): the kernel checks */
  return hole || !any ? TY_NOT_YET : TY_SOLVED;
}

/* ---------------------------------------------------------------- MultiBoxPrior */

/* (n, c, h, w) -> (1, h * w * (len(sizes) + len(ratios) - 1), 4), of the data's dtype. */
TyRelResult ty_rel_multibox_prior(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &shape, &dtype, "its data", message));
  static const char *const names[4] = {"sizes", "ratios", "steps", "offsets"};
  static const int dflt[4] = {1, 1, 2, 2};
  int n[4];
  for (int i = 0; i < 4; i++) {
    n[i] = float_list_count(rel, names[i], dflt[i]);
    if (n[i] < 0) REL_FAIL("%s: the attribute `%s` is not a list of numbers", ty_rel_who(rel), names[i]);
  }
  if (n[0] < 1 || n[1] < 1) REL_FAIL("%s needs at least one size and one ratio", ty_rel_who(rel));
  if (n[2] != 2 || n[3] != 2)
    REL_FAIL("%s: steps and offsets are (y, x) pairs, but they have %d and %d values", ty_rel_who(rel), n[2], n[3]);
  IrType *hw = ty_dim_mul(cx, ty_rel_dim_at(shape, 2), ty_rel_dim_at(shape, 3));
  IrType *dims[3] = {ty_rel_dim(1), ty_dim_mul(cx, hw, ty_rel_dim(n[0] + n[1] - 1)), ty_rel_dim(4)};
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(shape_of(3, dims), dtype), message);
}

/* ---------------------------------------------------------------- MultiBoxTransformLoc */

/* cls_prob (b, classes, anchors), loc_pred (b, anchors * 4), anchor (1, anchors, 4) ->
 * (Tensor[(b, anchors, 6)], Tensor[(b), int32]). TVM's MultiBoxTransformLocRel leaves the location
 * predictions' batch free and the anchors' too (topi reads the predictions at b * anchors * 4 and the first
 * anchors); the kernel needs the predictions' batch to be b and anchors to read (a batch of 1 or more). */
TyRelResult ty_rel_multibox_transform_loc(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *cs, *cd, *ls, *ld, *as, *ad;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 3, &cs, &cd, "its class probabilities", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 2, &ls, &ld, "its location predictions", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 3, &as, &ad, "its anchors", message));
  IrType *anchors = ty_rel_dim_at(as, 1);
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(cs, 2), anchors,
                          "the class probabilities' third dimension and the anchors' second", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(ls, 1), ty_dim_mul(cx, anchors, ty_rel_dim(4)),
                          "the location predictions' second dimension and 4 times the number of anchors", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(as, 2), ty_rel_dim(4), "the anchors' third dimension and 4",
                          message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(ls, 0), ty_rel_dim_at(cs, 0),
                          "the location predictions' batch and the class probabilities'", message));
  int64_t ab;
  TyDimState known = ty_rel_dim_state(cx, ty_rel_dim_at(as, 0), &ab);
  if (known == TY_DIM_CONST && ab < 1)
    REL_FAIL("%s: the anchors %s are empty; it reads the first batch's", ty_rel_who(rel), ty_rel_shape_text(cx, as));
  REL_TRY(ty_rel_same_dtype(cx, rel, cd, ld, message));
  REL_TRY(ty_rel_same_dtype(cx, rel, cd, ad, message));
  IrType *d0[3] = {ty_rel_dim_at(cs, 0), anchors, ty_rel_dim(6)}, *d1[1] = {ty_rel_dim_at(cs, 0)};
  IrType **fields = IR_NEW_ARRAY(IrType *, 2);
  fields[0] = ty_rel_tensor_type(shape_of(3, d0), cd);
  fields[1] = ty_rel_tensor_type(shape_of(1, d1), dtype_type(I32));
  REL_TRY(ty_rel_result(cx, rel, 3, ir_type_tuple(2, fields, rel->span), message));
  /* a batch of anchors 1 or more: checked at each use, or once known */
  return ty_rel_open(ty_rel_float(cx, rel, cd, "its class probabilities", ty_rel_tensor_type(cs, cd), message),
                     ty_rel_dim_open(known));
}

/* ---------------------------------------------------------------- GetValidCount */

/* The fields of the boxes in data (b, n, k) that get_valid_counts and non_max_suppression read, as their
 * kernels check them (topi would read past a box): score_index (1 by default), id_index (0; none when
 * negative) and for NMS (`coords`) coord_start's 4 coordinates (2) within the k values. TVM's relations check
 * nothing. *open is set while k is a named size or a hole (checked at each use, or once known). */
static TyRelResult box_fields(TyCtx *cx, TyRelation *rel, IrType *shape, bool coords, bool *open, const char **message) {
  int64_t si = ir_attr_int(rel->attrs, IR_A_SCORE_INDEX, 1), id = ir_attr_int(rel->attrs, IR_A_ID_INDEX, 0);
  int64_t cs = coords ? ir_attr_int(rel->attrs, IR_A_COORD_START, 2) : 0, big = (int64_t)1 << 40;
  if (si < 0 || si > big) REL_FAIL("%s: score_index=%lld is out of range", ty_rel_who(rel), (long long)si);
  if (id > big) REL_FAIL("%s: id_index=%lld is out of range", ty_rel_who(rel), (long long)id);
  if (cs < 0 || cs > big) REL_FAIL("%s: coord_start=%lld is out of range", ty_rel_who(rel), (long long)cs);
  int64_t k;
  TyDimState known = ty_rel_dim_state(cx, ty_rel_dim_at(shape, 2), &k);
  *open |= ty_rel_dim_open(known);
  if (known != TY_DIM_CONST) return TY_SOLVED;
  if (si >= k)
    REL_FAIL("%s: score_index=%lld is out of range for boxes of %lld values (the data %s)", ty_rel_who(rel),
             (long long)si, (long long)k, ty_rel_shape_text(cx, shape));
  if (coords && cs + 4 > k)
    REL_FAIL("%s: coord_start=%lld leaves no 4 coordinates in boxes of %lld values (the data %s)", ty_rel_who(rel),
             (long long)cs, (long long)k, ty_rel_shape_text(cx, shape));
  if (id >= k)
    REL_FAIL("%s: id_index=%lld is out of range for boxes of %lld values (the data %s)", ty_rel_who(rel),
             (long long)id, (long long)k, ty_rel_shape_text(cx, shape));
  return TY_SOLVED;
}

/* data (b, n, k) -> (Tensor[(b), int32], Tensor[(b, n, k)], Tensor[(b, n), int32]). */
TyRelResult ty_rel_get_valid_count(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 3, &shape, &dtype, "its data", message));
  bool open = false;
  REL_TRY(box_fields(cx, rel, shape, false, &open, message));
  IrType *d0[1] = {ty_rel_dim_at(shape, 0)}, *d2[2] = {ty_rel_dim_at(shape, 0), ty_rel_dim_at(shape, 1)};
  IrType **fields = IR_NEW_ARRAY(IrType *, 3);
  fields[0] = ty_rel_tensor_type(shape_of(1, d0), dtype_type(I32));
  fields[1] = ty_rel_tensor_type(shape, dtype);
  fields[2] = ty_rel_tensor_type(shape_of(2, d2), dtype_type(I32));
  return ty_rel_open(ty_rel_result(cx, rel, 2, ir_type_tuple(3, fields, rel->span), message), open);
}

/* ---------------------------------------------------------------- NMS */

/* data (b, n, k), valid_count (b), indices (b, n) with return_indices, max_output_size, iou_threshold -> with
 * return_indices (the default) (Tensor[(b, n), int32], Tensor[(b, 1), int32]), otherwise the data's type.
 * TVM's NMSRel reads neither the valid count's length nor the indices (topi indexes both by batch and
 * anchor); the kernel needs them. */
TyRelResult ty_rel_nms(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *vs, *vd, *is, *id;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 3, &shape, &dtype, "its data", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 1, &vs, &vd, "its valid count", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(vs, 0), ty_rel_dim_at(shape, 0),
                          "the valid count's length and the data's batch", message));
  bool open = false, indices = ir_attr_bool(rel->attrs, IR_A_RETURN_INDICES, true);
  REL_TRY(box_fields(cx, rel, shape, true, &open, message));
  if (indices) {
    REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 2, &is, &id, "its indices, (batch, anchors),", message));
    REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(is, 0), ty_rel_dim_at(shape, 0), "the indices' batch and the data's",
                            message));
    REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(is, 1), ty_rel_dim_at(shape, 1),
                            "the indices' anchors and the data's", message));
  }
  if (!indices) return ty_rel_open(ty_rel_result(cx, rel, 5, ty_rel_tensor_type(shape, dtype), message), open);
  IrType *d0[2] = {ty_rel_dim_at(shape, 0), ty_rel_dim_at(shape, 1)}, *d1[2] = {ty_rel_dim_at(shape, 0), ty_rel_dim(1)};
  IrType **fields = IR_NEW_ARRAY(IrType *, 2);
  fields[0] = ty_rel_tensor_type(shape_of(2, d0), dtype_type(I32));
  fields[1] = ty_rel_tensor_type(shape_of(2, d1), dtype_type(I32));
  return ty_rel_open(ty_rel_result(cx, rel, 5, ir_type_tuple(2, fields, rel->span), message), open);
}

/* ---------------------------------------------------------------- AllClassNMS */

/* boxes (b, n, 4), scores (b, c, n), max_output_boxes_per_class, iou_threshold, score_threshold ->
 * output_format "onnx" (the default): (Tensor[(b * c * n, 3), int64], Tensor[(1), int64]);
 * "tensorflow": (Tensor[(b, c * n, 2), int64], Tensor[(b, c * n), float32], Tensor[(b), int64]).
 * A `?` batch or box count makes the total `?`, as TVM's. TVM's AllClassNMSRel does not check that the
 * scores are of the boxes (topi indexes both by batch and box); the kernel does. */
TyRelResult ty_rel_all_class_nms(TyCtx *cx, TyRelation *rel, const char **message) {
  static const IrDType I64 = {IR_DT_INT, 64, 1}, F32 = {IR_DT_FLOAT, 32, 1};
  IrType *bs, *bd, *ss, *sd;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 3, &bs, &bd, "its boxes", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 3, &ss, &sd, "its scores", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(bs, 2), ty_rel_dim(4), "the boxes' third dimension and 4", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(ss, 0), ty_rel_dim_at(bs, 0), "the scores' batch and the boxes'", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(ss, 2), ty_rel_dim_at(bs, 1),
                          "the scores' third dimension and the number of boxes", message));
  const IrAttrValue *f = ty_rel_attr(rel, IR_A_OUTPUT_FORMAT);
  const char *fmt = f->given && f->str ? f->str : "onnx";
  IrType *batch = ty_rel_dim_at(bs, 0), *classes = ty_rel_dim_at(ss, 1), *boxes = ty_rel_dim_at(bs, 1);
  IrType *per = ty_dim_mul(cx, classes, boxes);
  IrType **fields = IR_NEW_ARRAY(IrType *, 3);
  if (!strcmp(fmt, "onnx")) {
    IrType *d0[2] = {ty_dim_mul(cx, batch, per), ty_rel_dim(3)}, *d1[1] = {ty_rel_dim(1)};
    fields[0] = ty_rel_tensor_type(shape_of(2, d0), dtype_type(I64));
    fields[1] = ty_rel_tensor_type(shape_of(1, d1), dtype_type(I64));
    return ty_rel_result(cx, rel, 5, ir_type_tuple(2, fields, rel->span), message);
  }
  if (strcmp(fmt, "tensorflow"))
    REL_FAIL("%s: output_format=\"%s\" is not \"onnx\" or \"tensorflow\"", ty_rel_who(rel), fmt);
  IrType *d0[3] = {batch, per, ty_rel_dim(2)}, *d1[2] = {batch, per}, *d2[1] = {batch};
  fields[0] = ty_rel_tensor_type(shape_of(3, d0), dtype_type(I64));
  fields[1] = ty_rel_tensor_type(shape_of(2, d1), dtype_type(F32));
  fields[2] = ty_rel_tensor_type(shape_of(1, d2), dtype_type(I64));
  return ty_rel_result(cx, rel, 5, ir_type_tuple(3, fields, rel->span), message);
}

/* ---------------------------------------------------------------- RegularNMS */

/* boxes (b, n, 4), scores (b, n, classes) -> (Tensor[(b, m, 4), float32], Tensor[(b, m), float32] classes,
 * Tensor[(b, m), float32] scores, Tensor[(b), int32]) with m = max_detections. TVM's RegularNMSRel checks
 * neither the scores against the boxes nor num_classes against the scores' classes (topi's regular_nms reads
 * the last num_classes of them); the kernel does. */
TyRelResult ty_rel_regular_nms(TyCtx *cx, TyRelation *rel, const char **message) {
  static const IrDType F32 = {IR_DT_FLOAT, 32, 1};
  IrType *bs, *bd, *ss, *sd;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 3, &bs, &bd, "its boxes", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 3, &ss, &sd, "its scores", message));
  int64_t m = ir_attr_int(rel->attrs, IR_A_MAX_DETECTIONS, 0);
  if (m < 0 || m > ((int64_t)1 << 40)) REL_FAIL("%s: max_detections=%lld is negative", ty_rel_who(rel), (long long)m);
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(bs, 2), ty_rel_dim(4), "the boxes' third dimension and 4", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(ss, 0), ty_rel_dim_at(bs, 0), "the scores' batch and the boxes'", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(ss, 1), ty_rel_dim_at(bs, 1), "the scores' boxes and the boxes'", message));
  int64_t nc = ir_attr_int(rel->attrs, IR_A_NUM_CLASSES, 0), c;
  if (nc < 0) REL_FAIL("%s: num_classes=%lld is negative", ty_rel_who(rel), (long long)nc);
  TyDimState known = ty_rel_dim_state(cx, ty_rel_dim_at(ss, 2), &c); /* num_classes <= c: at each use, or once known */
  if (known == TY_DIM_CONST && nc > c)
    REL_FAIL("%s: num_classes=%lld is more than the scores' %lld classes (the scores %s)", ty_rel_who(rel), (long long)nc,
             (long long)c, ty_rel_shape_text(cx, ss));
  IrType *b = ty_rel_dim_at(bs, 0), *d0[3] = {b, ty_rel_dim(m), ty_rel_dim(4)}, *d1[2] = {b, ty_rel_dim(m)}, *d2[1] = {b};
  IrType **fields = IR_NEW_ARRAY(IrType *, 4);
  fields[0] = ty_rel_tensor_type(shape_of(3, d0), dtype_type(F32));
  fields[1] = ty_rel_tensor_type(shape_of(2, d1), dtype_type(F32));
  fields[2] = ty_rel_tensor_type(shape_of(2, d1), dtype_type(F32));
  fields[3] = ty_rel_tensor_type(shape_of(1, d2), dtype_type(I32));
  return ty_rel_open(ty_rel_result(cx, rel, 2, ir_type_tuple(4, fields, rel->span), message), ty_rel_dim_open(known));
}

/* ---------------------------------------------------------------- ROIAlign, ROIPool */

/* data (4-D, NCHW or NHWC), rois (r, 5) -> (r, c, ph, pw) or (r, ph, pw, c). */
static TyRelResult roi(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *ds, *dd, *rs, *rd;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &ds, &dd, "its data", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 2, &rs, &rd, "its rois", message));
  const IrAttrValue *l = ty_rel_attr(rel, IR_A_LAYOUT);
  const char *layout = l->given && l->str ? l->str : "NCHW";
  bool nhwc = !strcmp(layout, "NHWC");
  if (!nhwc && strcmp(layout, "NCHW"))
    REL_FAIL("%s: layout=\"%s\" is not \"NCHW\" or \"NHWC\"", ty_rel_who(rel), layout);
  const IrAttrValue *p = ty_rel_attr(rel, IR_A_POOLED_SIZE);
  if (p->none || p->n < 1 || p->n > 2)
    REL_FAIL("%s: pooled_size has %d values; it is (height, width)", ty_rel_who(rel), p->n);
  int64_t ph = p->ints[0], pw = p->ints[p->n - 1];
  if (ph < 1 || pw < 1)
    REL_FAIL("%s: pooled_size (%lld, %lld) is not positive", ty_rel_who(rel), (long long)ph, (long long)pw);
  if (rel->fn == ty_rel_roi_align) {
    const IrAttrValue *m = ty_rel_attr(rel, IR_A_MODE);
    if (m->given && m->str && strcmp(m->str, "avg") && strcmp(m->str, "max"))
      REL_FAIL("%s: mode=\"%s\" is not \"avg\" or \"max\"", ty_rel_who(rel), m->str);
  }
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(rs, 1), ty_rel_dim(5),
                          "the rois' second dimension (batch index, x1, y1, x2, y2) and 5", message));
  IrType *c = ty_rel_dim_at(ds, nhwc ? 3 : 1);
  IrType *dims[4] = {ty_rel_dim_at(rs, 0), nhwc ? ty_rel_dim(ph) : c, nhwc ? ty_rel_dim(pw) : ty_rel_dim(ph),
                     nhwc ? c : ty_rel_dim(pw)};
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(shape_of(4, dims), dd), message));
  return ty_rel_float(cx, rel, dd, "its data", ty_rel_tensor_type(ds, dd), message);
}

TyRelResult ty_rel_roi_align(TyCtx *cx, TyRelation *rel, const char **message) { return roi(cx, rel, message); }
TyRelResult ty_rel_roi_pool(TyCtx *cx, TyRelation *rel, const char **message) { return roi(cx, rel, message); }

/* ---------------------------------------------------------------- Proposal */

/* cls_prob (b, 2a, h, w), bbox_pred (b, 4a, h, w), im_info (b, 3) -> (b * rpn_post_nms_top_n, 5), with a =
 * len(scales) * len(ratios) anchors (4 by 3 by default, ProposalAttrs'). TVM's ProposalRel checks only
 * im_info's 3 (topi reads the others by anchor, batch and position); the kernel checks them all. */
TyRelResult ty_rel_proposal(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *cs, *cd, *bs, *bd, *is, *id;
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 0, 4, &cs, &cd, "its class probabilities", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 4, &bs, &bd, "its box predictions", message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 2, 2, &is, &id, "its image info", message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(is, 1), ty_rel_dim(3), "the image info's second dimension and 3",
                          message));
  int64_t post = ir_attr_int(rel->attrs, IR_A_RPN_POST_NMS_TOP_N, 300);
  if (post < 1 || post > ((int64_t)1 << 40))
    REL_FAIL("%s: rpn_post_nms_top_n=%lld is not positive", ty_rel_who(rel), (long long)post);
  int64_t stride = ir_attr_int(rel->attrs, IR_A_FEATURE_STRIDE, 16), a = 1;
  if (stride < 1) REL_FAIL("%s: feature_stride=%lld is not positive", ty_rel_who(rel), (long long)stride);
  for (int i = 0; i < 2; i++) {
    int n = float_list_count(rel, i ? "ratios" : "scales", i ? 3 : 4);
    if (n < 1) REL_FAIL("%s: the attribute `%s` is not a list of numbers", ty_rel_who(rel), i ? "ratios" : "scales");
    a *= n;
  }
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(cs, 1), ty_rel_dim(2 * a),
                          ir_printf("the class probabilities' channels and 2 per anchor (%lld anchors)", (long long)a), message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(bs, 1), ty_rel_dim(4 * a),
                          ir_printf("the box predictions' channels and 4 per anchor (%lld anchors)", (long long)a), message));
  static const char *const axes[4] = {"batch", "", "height", "width"};
  for (int i = 0; i < 4; i++)
    if (i != 1)
      REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(bs, i), ty_rel_dim_at(cs, i),
                              ir_printf("the box predictions' %s and the class probabilities'", axes[i]), message));
  REL_TRY(ty_rel_same_dim(cx, rel, ty_rel_dim_at(is, 0), ty_rel_dim_at(cs, 0),
                          "the image info's batch and the class probabilities'", message));
  IrType *dims[2] = {ty_dim_mul(cx, ty_rel_dim_at(cs, 0), ty_rel_dim(post)), ty_rel_dim(5)};
  return ty_rel_result(cx, rel, 3, ty_rel_tensor_type(shape_of(2, dims), cd), message);
}
