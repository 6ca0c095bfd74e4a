/* The relations of the shape operators: Reshape (with TVM's codes 0, -1, -2, -3, -4), Transpose,
 * ExpandDims, Squeeze, Concatenate, Stack, Split, Take, StridedSlice, BroadcastTo, Where, Cast,
 * ShapeOf, BatchFlatten; Tile, Repeat, Reverse, ReverseSequence, the *_like forms (FullLike,
 * ReshapeLike, BroadcastToLike, CollapseSumLike, CollapseSumTo), LayoutTransform and NdarraySize; CastLike,
 * SliceLike, Trilu, Einsum, Meshgrid, ReverseReshape, Reinterpret, StridedSet, SlidingWindow. Dimensions flow through symbolically: flattening (n, 3, 32, 32) gives
 * (n, 3072), concatenating (n, 3) and (m, 3) gives (n + m, 3); what only the values decide is `?`. */
#include "typing/oprel.h"

#include <string.h>

enum { RT_MAX_RANK_TY = 64 };

static const char *ints_text(const IrAttrValue *a) {
  IrBuf b;
  ir_buf_init(&b);
  if (a->listed) ir_buf_putc(&b, '[');
  for (int i = 0; i < a->n; i++) ir_buf_printf(&b, "%s%lld", i ? ", " : "", (long long)a->ints[i]);
  if (a->listed) ir_buf_putc(&b, ']');
  return b.data;
}

static IrType *product(TyCtx *cx, int n, IrType **dims) {
  IrType *p = ty_rel_dim(1);
  for (int i = 0; i < n; i++) p = ty_dim_mul(cx, p, dims[i]);
  return p;
}

/* ---------------------------------------------------------------- Reshape */

/* The new shape of `shape` under the codes of ns (`written` shows them): *result, a shape. With allowzero, 0 is
 * a dimension of 0, not the code that copies one (TVM's InferNewShape). */
static TyRelResult reshape_shape(TyCtx *cx, TyRelation *rel, IrType *shape, const IrAttrValue *ns, const char *written,
                                 IrType **result, bool *open, const char **message) {
  bool allowzero = ty_rel_attr(rel, IR_A_ALLOWZERO)->b;
  int r = shape->u.shape.rank, src = 0, infer = -1;
  IrType **in = shape->u.shape.dims;
  IR_VEC(IrType *) out = {0};
  /* As TVM's InferNewShape (src/relay/op/tensor/transform.cc), the input dimensions that 0, -2, -3 and -4 take and
   * the output dimensions they give are left out of the -1's division, even when they are `?` or 0: the -1 is the
   * product of the other input dimensions over the sizes written. */
  bool *used_in = IR_NEW_ARRAY(bool, r + 1), *used_out = IR_NEW_ARRAY(bool, 2 * (size_t)ns->n + r + 1);
  const char *who = ty_rel_who(rel);
  for (int j = 0; j < ns->n; j++) {
    int64_t v = ns->ints[j];
    if (v > 0 || (v == 0 && allowzero)) {
      IR_VEC_PUSH(out, ty_rel_dim(v));
      src++;
    } else if (v == 0) {
      if (src >= r) REL_FAIL("%s: newshape=%s copies dimension %d (the code 0), but the input %s has rank %d", who,
                             written, src, ty_rel_shape_text(cx, shape), r);
      used_in[src] = used_out[out.len] = true;
      IR_VEC_PUSH(out, in[src++]);
    } else if (v == -1) {
      if (infer >= 0) REL_FAIL("%s: newshape=%s has more than one -1", who, written);
      infer = out.len;
      IR_VEC_PUSH(out, NULL);
      src++;
    } else if (v == -2) {
      while (src < r) {
        used_in[src] = used_out[out.len] = true;
        IR_VEC_PUSH(out, in[src++]);
      }
    } else if (v == -3) {
      if (src + 1 >= r) REL_FAIL("%s: newshape=%s merges dimensions %d and %d (the code -3), but the input %s has rank %d",
                                 who, written, src, src + 1, ty_rel_shape_text(cx, shape), r);
      used_in[src] = used_in[src + 1] = used_out[out.len] = true;
      IR_VEC_PUSH(out, ty_dim_mul(cx, in[src], in[src + 1]));
      src += 2;
    } else if (v == -4) {
      if (j + 2 >= ns->n) REL_FAIL("%s: newshape=%s: the code -4 needs two values after it", who, written);
      if (src >= r) REL_FAIL("%s: newshape=%s splits dimension %d (the code -4), but the input has rank %d", who, written,
                             src, r);
      int64_t a = ns->ints[j + 1], b = ns->ints[j + 2];
      if (a < -1 || b < -1 || a == 0 || b == 0 || (a == -1 && b == -1))
        REL_FAIL("%s: newshape=%s: after -4 come two sizes, at most one of them -1", who, written);
      IrType *da = a == -1 ? ty_dim_div(cx, in[src], ty_rel_dim(b)) : ty_rel_dim(a);
      IrType *db = b == -1 ? ty_dim_div(cx, in[src], ty_rel_dim(a)) : ty_rel_dim(b);
      if (!da || !db) REL_FAIL("%s: newshape=%s: %s does not split into %lld parts", who, written,
                               ty_rel_text(cx, in[src]), (long long)(a == -1 ? b : a));
      TyRelResult ok = ty_rel_same_dim(cx, rel, ty_dim_mul(cx, da, db), in[src], "the split dimension and its parts", message);
      if (ok != TY_SOLVED) return ok;
      used_in[src] = used_out[out.len] = used_out[out.len + 1] = true;
      IR_VEC_PUSH(out, da);
      IR_VEC_PUSH(out, db);
      src++;
      j += 2;
    } else {
      REL_FAIL("%s: newshape=%s has %lld, but the codes are 0, -1, -2, -3 and -4", who, written, (long long)v);
    }
  }
  IrType *total = product(cx, r, in);
  if (infer >= 0) {
    IrType *known = ty_rel_dim(1);
    for (int i = 0; i < out.len; i++)
      if (i != infer && !used_out[i]) known = ty_dim_mul(cx, known, out.items[i]); /* the sizes written */
    total = ty_rel_dim(1);
    for (int i = 0; i < r; i++)
      if (!used_in[i]) total = ty_dim_mul(cx, total, in[i]);
    int64_t k;
    if (ty_dim_value(cx, known, &k) && k == 0) /* allowzero's 0: TVM's InferNewShape divides by it */
      REL_FAIL("%s: newshape=%s has a 0-sized dimension next to -1", who, written);
    IrType *d = ty_dim_div(cx, total, known);
    int64_t t;
    if (!d && ty_dim_value(cx, total, &t) && ty_dim_value(cx, known, &k))
      REL_FAIL("%s: newshape=%s cannot hold the %lld elements of %s: %lld is not a multiple of %lld", who, written,
               (long long)t, ty_rel_shape_text(cx, shape), (long long)t, (long long)k);
    if (!d && (ty_rel_dim_const(cx, total, &t) == TY_NOT_YET || ty_rel_dim_const(cx, known, &k) == TY_NOT_YET))
      return TY_NOT_YET; /* a hole that may become a constant */
    /* over named sizes that the division leaves (n by 2: n / 2 is not a dimension), `?`, and whether it divides
     * is checked at each use; over `?` by the kernel */
    *open |= !d && ty_rel_dim_state(cx, total, &t) == TY_DIM_SYMBOLIC && ty_rel_dim_state(cx, known, &k) != TY_DIM_ANY;
    out.items[infer] = d ? d : ty_dim_any();
  } else {
    IrType *count = product(cx, out.len, out.items);
    TyMismatch why = TY_MISMATCH_INIT;
    if (!ty_unify(cx, count, total, &why))
      REL_FAIL("%s: newshape=%s has %s elements, but the input %s has %s", who, written, ty_rel_text(cx, count),
               ty_rel_shape_text(cx, shape), ty_rel_text(cx, total));
  }
  *result = ty_rel_shape(out.len, out.items);
  return TY_SOLVED;
}

TyRelResult ty_rel_reshape(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *out;
  bool open = false;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  const IrAttrValue *ns = ty_rel_attr(rel, IR_A_NEWSHAPE);
  REL_TRY(reshape_shape(cx, rel, shape, ns, ints_text(ns), &out, &open, message));
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(out, dtype), message), open);
}

/* contrib_reverse_reshape: reshape's codes read from the right (TVM's InferNewShape with reverse):
 * the shape and the codes reversed, reshaped, and the result reversed back. -4 has no reverse form. */
TyRelResult ty_rel_reverse_reshape(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *out;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  const IrAttrValue *ns = ty_rel_attr(rel, IR_A_NEWSHAPE);
  IrAttrValue rev = *ns;
  int64_t *ints = IR_NEW_ARRAY(int64_t, ns->n + 1);
  for (int i = 0; i < ns->n; i++) {
    if (ns->ints[i] == -4) REL_FAIL("%s: newshape=%s: the code -4 has no reverse form", ty_rel_who(rel), ints_text(ns));
    ints[i] = ns->ints[ns->n - 1 - i];
  }
  rev.ints = ints;
  int r = shape->u.shape.rank;
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  for (int i = 0; i < r; i++) dims[i] = shape->u.shape.dims[r - 1 - i];
  bool open = false;
  TyRelResult k = reshape_shape(cx, rel, ty_rel_shape(r, dims), &rev, ints_text(ns), &out, &open, message);
  if (k == TY_FAILED) *message = ir_printf("%s (reading the shape and the codes from the right)", *message);
  if (k != TY_SOLVED) return k;
  int n = out->u.shape.rank;
  IrType **od = IR_NEW_ARRAY(IrType *, n + 1);
  for (int i = 0; i < n; i++) od[i] = out->u.shape.dims[n - 1 - i];
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(n, od), dtype), message), open);
}

/* reinterpret(data, dtype): the bits of each element as another type of the same width. */
TyRelResult ty_rel_reinterpret(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  IrDType to = ty_rel_attr(rel, IR_A_DTYPE)->dtype;
  IrType *tt = ir_type_dtype(to, (IrSpan){0});
  if (to.code == IR_DT_BOOL) REL_FAIL("%s cannot give bool: its bits are not a whole byte", ty_rel_who(rel));
  REL_TRY(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(shape, tt), message));
  if (dtype->kind == IR_TYPE_DTYPE && (dtype->u.dtype.code == IR_DT_BOOL || dtype->u.dtype.bits != to.bits))
    REL_FAIL("%s keeps the bits: %s and dtype=%s differ in width", ty_rel_who(rel), ty_rel_text(cx, dtype),
             ty_rel_text(cx, tt));
  return dtype->kind == IR_TYPE_DTYPE ? TY_SOLVED : TY_NOT_YET;
}

/* ---------------------------------------------------------------- Transpose, ExpandDims, Squeeze */

TyRelResult ty_rel_transpose(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank;
  const IrAttrValue *axes = ty_rel_attr(rel, IR_A_AXES);
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  if (!axes->given || axes->none) {
    for (int i = 0; i < r; i++) dims[i] = shape->u.shape.dims[r - 1 - i];
  } else {
    if (axes->n != r)
      REL_FAIL("%s: axes=%s has %d axes, but the tensor %s has rank %d", ty_rel_who(rel), ints_text(axes), axes->n,
               ty_rel_shape_text(cx, shape), r);
    bool *seen = IR_NEW_ARRAY(bool, r + 1);
    for (int i = 0; i < r; i++) {
      int a;
      REL_TRY(ty_rel_axis(rel, IR_A_AXES, axes->ints[i], r, 0, &a, message));
      if (seen[a]) REL_FAIL("%s: axes=%s is not a permutation: axis %d appears twice", ty_rel_who(rel), ints_text(axes), a);
      seen[a] = true;
      dims[i] = shape->u.shape.dims[a];
    }
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(r, dims), dtype), message);
}

TyRelResult ty_rel_expand_dims(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank, axis;
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_AXIS), *k = ty_rel_attr(rel, IR_A_NUM_NEWAXIS);
  if (a->none || a->n != 1) REL_FAIL("%s takes one axis, but axis=%s", ty_rel_who(rel), a->none ? "None" : ints_text(a));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, a->ints[0], r, 1, &axis, message));
  int64_t num = ir_attr_int(rel->attrs, IR_A_NUM_NEWAXIS, 1);
  if (k->given && (k->n != 1 || num < 0 || num > 64))
    REL_FAIL("%s: num_newaxis=%s is not a count from 0 to 64", ty_rel_who(rel), ints_text(k));
  IrType **dims = IR_NEW_ARRAY(IrType *, r + num + 1);
  int n = 0;
  for (int i = 0; i < axis; i++) dims[n++] = shape->u.shape.dims[i];
  for (int i = 0; i < num; i++) dims[n++] = ty_rel_dim(1);
  for (int i = axis; i < r; i++) dims[n++] = shape->u.shape.dims[i];
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(n, dims), dtype), message);
}

TyRelResult ty_rel_squeeze(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank;
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_AXIS);
  bool *drop = IR_NEW_ARRAY(bool, r + 1);
  if (!a->given || a->none) { /* every dimension that is 1: each must be known (TVM's SqueezeRel) */
    int unknown = -1;
    for (int i = 0; i < r; i++) {
      int64_t v;
      TyDimState k = ty_rel_dim_state(cx, shape->u.shape.dims[i], &v);
      if (k == TY_DIM_HOLE) return TY_NOT_YET;
      if (k != TY_DIM_CONST && unknown < 0) unknown = i;
      drop[i] = k == TY_DIM_CONST && v == 1;
    }
    if (unknown >= 0) {
      IrBuf axes;
      ir_buf_init(&axes);
      for (int i = 0; i < r; i++)
        if (drop[i]) ir_buf_printf(&axes, "%s%d", axes.len ? ", " : "", i);
      REL_FAIL("%s without axis drops the dimensions that are 1, so it needs each one known, but dimension %d of %s "
               "is %s (TVM: axis needs to be defined for dynamic input)\nhint: name the axes to squeeze: axis=[%s]",
               ty_rel_who(rel), unknown, ty_rel_shape_text(cx, shape), ty_rel_text(cx, shape->u.shape.dims[unknown]),
               axes.len ? axes.data : "...");
    }
  } else {
    for (int i = 0; i < a->n; i++) {
      int ax;
      REL_TRY(ty_rel_axis(rel, IR_A_AXIS, a->ints[i], r, 0, &ax, message));
      int64_t v;
      if (ty_dim_value(cx, shape->u.shape.dims[ax], &v) && v != 1)
        REL_FAIL("%s: axis=%lld has dimension %lld, but only dimensions of 1 can be squeezed (the shape is %s)",
                 ty_rel_who(rel), (long long)a->ints[i], (long long)v, ty_rel_shape_text(cx, shape));
      if (!ty_unify(cx, shape->u.shape.dims[ax], ty_rel_dim(1), NULL))
        REL_FAIL("%s: axis=%lld is %s, which is not known to be 1", ty_rel_who(rel), (long long)a->ints[i],
                 ty_rel_text(cx, shape->u.shape.dims[ax]));
      drop[ax] = true;
    }
  }
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  int n = 0;
  for (int i = 0; i < r; i++)
    if (!drop[i]) dims[n++] = shape->u.shape.dims[i];
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(n, dims), dtype), message);
}

/* ---------------------------------------------------------------- Concatenate, Stack */

/* Whether a dimension holds `?` (directly or in arithmetic). */
static bool holds_any(TyCtx *cx, IrType *d) {
  d = ty_prune(cx, d);
  if (d->kind == IR_TYPE_ANY) return true;
  return d->kind == IR_TYPE_DIMOP && (holds_any(cx, d->u.dimop.a) || holds_any(cx, d->u.dimop.b));
}

/* The fields of argument 0, a tuple of tensors of known ranks and one element type; of one rank too
 * when one_rank. */
static TyRelResult tuple_of_tensors(TyCtx *cx, TyRelation *rel, bool one_rank, int *n, IrType ***shapes,
                                    IrType **dtype, const char **message) {
  IrType *t = ty_prune(cx, rel->args[0]);
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  if (t->kind != IR_TYPE_TUPLE)
    REL_FAIL("%s takes a tuple of tensors, such as (%%a, %%b), but its argument is %s", ty_rel_who(rel),
             ty_rel_text(cx, t));
  if (t->u.tuple.n == 0) REL_FAIL("%s needs at least one tensor, but the tuple is empty", ty_rel_who(rel));
  *n = t->u.tuple.n;
  *shapes = IR_NEW_ARRAY(IrType *, *n);
  for (int i = 0; i < *n; i++) {
    IrType *f = ty_prune(cx, t->u.tuple.fields[i]);
    if (f->kind == IR_TYPE_HOLE) return TY_NOT_YET;
    if (f->kind != IR_TYPE_TENSOR)
      REL_FAIL("%s takes a tuple of tensors, but field %d is %s", ty_rel_who(rel), i, ty_rel_text(cx, f));
    IrType *s = ty_prune(cx, f->u.tensor.shape);
    if (s->kind != IR_TYPE_SHAPE) return TY_NOT_YET;
    (*shapes)[i] = s;
    if (i == 0) *dtype = f->u.tensor.dtype;
    else if (!ty_unify(cx, *dtype, f->u.tensor.dtype, NULL))
      REL_FAIL("%s needs tensors of one element type, but field 0 is %s and field %d is %s", ty_rel_who(rel),
               ty_rel_text(cx, *dtype), i, ty_rel_text(cx, f->u.tensor.dtype));
    if (one_rank && s->u.shape.rank != (*shapes)[0]->u.shape.rank)
      REL_FAIL("%s needs tensors of one rank, but field 0 is %s and field %d is %s", ty_rel_who(rel),
               ty_rel_shape_text(cx, (*shapes)[0]), i, ty_rel_shape_text(cx, s));
  }
  return TY_SOLVED;
}

static TyRelResult tensor_tuple(TyCtx *cx, TyRelation *rel, int *n, IrType ***shapes, IrType **dtype,
                                const char **message) {
  return tuple_of_tensors(cx, rel, true, n, shapes, dtype, message);
}

TyRelResult ty_rel_concatenate(TyCtx *cx, TyRelation *rel, const char **message) {
  int n;
  IrType **shapes, *dtype;
  REL_TRY(tensor_tuple(cx, rel, &n, &shapes, &dtype, message));
  int r = shapes[0]->u.shape.rank, axis;
  if (r == 0) REL_FAIL("%s joins tensors along an axis, but these are scalars", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, 0), r, 0, &axis, message));
  /* As TVM: the axis adds up (`?` if any piece has `?` there); another dimension is the pieces'
   * common value, `?` where some piece has `?` (unless the axis itself is `?`: then the known
   * value, so (1, 3) and (1, ?) give (2, ?) but (?, 3) and (?, ?) give (?, 3)). */
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  bool axis_any = false;
  for (int i = 0; i < n; i++) axis_any |= holds_any(cx, shapes[i]->u.shape.dims[axis]);
  for (int d = 0; d < r; d++) {
    if (d == axis) {
      dims[d] = shapes[0]->u.shape.dims[d];
      for (int i = 1; i < n; i++) dims[d] = ty_dim_add(cx, dims[d], shapes[i]->u.shape.dims[d]);
      if (ty_rel_overflowed(cx))
        REL_FAIL("%s: the joined dimension of %d tensors is too large: the sum of axis %d overflows int64",
                 ty_rel_who(rel), n, axis);
      if (axis_any) dims[d] = ty_dim_any();
      continue;
    }
    IrType *known = NULL;
    int known_at = 0, anys = 0;
    for (int i = 0; i < n; i++) {
      IrType *di = shapes[i]->u.shape.dims[d];
      if (ty_prune(cx, di)->kind == IR_TYPE_ANY) {
        anys++;
      } else if (!known) {
        known = di;
        known_at = i;
      } else if (!ty_unify(cx, known, di, NULL)) {
        REL_FAIL("%s: dimension %d must agree (only axis %d may differ), but field %d is %s and field %d is %s",
                 ty_rel_who(rel), d, axis, known_at, ty_rel_shape_text(cx, shapes[known_at]), i,
                 ty_rel_shape_text(cx, shapes[i]));
      }
    }
    dims[d] = known && (anys == 0 || axis_any) ? known : ty_dim_any();
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(r, dims), dtype), message);
}

TyRelResult ty_rel_stack(TyCtx *cx, TyRelation *rel, const char **message) {
  int n;
  IrType **shapes, *dtype;
  REL_TRY(tensor_tuple(cx, rel, &n, &shapes, &dtype, message));
  int r = shapes[0]->u.shape.rank, axis;
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, 0), r, 1, &axis, message));
  for (int i = 1; i < n; i++)
    if (!ty_unify(cx, shapes[0], shapes[i], NULL))
      REL_FAIL("%s needs tensors of one shape, but field 0 is %s and field %d is %s", ty_rel_who(rel),
               ty_rel_shape_text(cx, shapes[0]), i, ty_rel_shape_text(cx, shapes[i]));
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  for (int d = 0, k = 0; d <= r; d++) dims[d] = d == axis ? ty_rel_dim(n) : shapes[0]->u.shape.dims[k++];
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(r + 1, dims), dtype), message);
}

/* ---------------------------------------------------------------- Split */

TyRelResult ty_rel_split(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank, axis;
  if (r == 0) REL_FAIL("%s splits along an axis, but its argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, 0), r, 0, &axis, message));
  const IrAttrValue *ios = ty_rel_attr(rel, IR_A_INDICES_OR_SECTIONS);
  IrType *whole = shape->u.shape.dims[axis];
  int pieces;
  IrType **sizes;
  bool open = false;
  if (ios->none) REL_FAIL("%s needs indices_or_sections", ty_rel_who(rel));
  if (!ios->listed) { /* equal sections */
    int64_t k = ios->ints[0], v;
    if (k <= 0) REL_FAIL("%s: indices_or_sections=%lld sections; it must be at least 1", ty_rel_who(rel), (long long)k);
    if (k > 1000000) REL_FAIL("%s: indices_or_sections=%lld sections is too many", ty_rel_who(rel), (long long)k);
    IrType *part = ty_dim_div(cx, whole, ty_rel_dim(k));
    TyDimState known = ty_rel_dim_state(cx, whole, &v);
    if (!part && known == TY_DIM_HOLE) return TY_NOT_YET;
    if (!part && known == TY_DIM_CONST)
      REL_FAIL("%s: indices_or_sections=%lld does not divide dimension %d of %s (%lld) evenly", ty_rel_who(rel),
               (long long)k, axis, ty_rel_shape_text(cx, shape), (long long)v);
    open = !part && known == TY_DIM_SYMBOLIC; /* `?` pieces; whether k divides is checked at each use */
    pieces = (int)k;
    sizes = IR_NEW_ARRAY(IrType *, pieces);
    for (int i = 0; i < pieces; i++) sizes[i] = part ? part : ty_dim_any();
  } else {
    pieces = ios->n + 1;
    sizes = IR_NEW_ARRAY(IrType *, pieces);
    int64_t v, prev = 0;
    TyRelResult whole_known = ty_rel_dim_const(cx, whole, &v);
    if (whole_known == TY_NOT_YET) return whole_known;
    bool known = whole_known == TY_SOLVED;
    for (int i = 0; i < ios->n; i++) {
      if (ios->ints[i] < prev)
        REL_FAIL("%s: indices_or_sections=%s must be ascending, non-negative indices", ty_rel_who(rel), ints_text(ios));
      prev = ios->ints[i];
    }
    /* The pieces are clamped to the axis, as numpy does; along an axis not known yet the clamping
     * is not either, so every piece is `?` (TVM's widths, hi - lo, would promise a shape that a
     * shorter axis does not give: a piece of width 3 from an axis of 1). */
    for (int i = 0; i < pieces; i++) {
      if (!known) {
        sizes[i] = ty_dim_any();
        continue;
      }
      int64_t lo = i == 0 ? 0 : ios->ints[i - 1], hi = i < ios->n ? ios->ints[i] : v;
      lo = lo < v ? lo : v;
      hi = hi < v ? hi : v;
      sizes[i] = ty_rel_dim(hi - lo);
    }
  }
  IrType **fields = IR_NEW_ARRAY(IrType *, pieces);
  for (int i = 0; i < pieces; i++) {
    IrType **dims = IR_NEW_ARRAY(IrType *, r);
    for (int d = 0; d < r; d++) dims[d] = d == axis ? sizes[i] : shape->u.shape.dims[d];
    fields[i] = ty_rel_tensor_type(ty_rel_shape(r, dims), dtype);
  }
  return ty_rel_open(ty_rel_result(cx, rel, 1, ir_type_tuple(pieces, fields, (IrSpan){0}), message), open);
}

/* ---------------------------------------------------------------- Take */

TyRelResult ty_rel_take(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *ishape, *idtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ishape, &idtype, message));
  if (idtype->kind == IR_TYPE_DTYPE && idtype->u.dtype.code != IR_DT_INT && idtype->u.dtype.code != IR_DT_UINT)
    REL_FAIL("%s takes integer indices, but they are %s", ty_rel_who(rel), ty_rel_text(cx, idtype));
  const IrAttrValue *m = ty_rel_attr(rel, IR_A_MODE), *bd = ty_rel_attr(rel, IR_A_BATCH_DIMS);
  if (m->given && strcmp(m->str, "clip") && strcmp(m->str, "wrap") && strcmp(m->str, "fast"))
    REL_FAIL("%s: mode=\"%s\" is not one of \"clip\", \"wrap\" and \"fast\"", ty_rel_who(rel), m->str);
  if (bd->given && !bd->none && (bd->n != 1 || bd->ints[0] != 0))
    REL_FAIL("%s: batch_dims=%s is not supported; only 0", ty_rel_who(rel), ints_text(bd));
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_AXIS);
  int r = shape->u.shape.rank, ri = ishape->u.shape.rank;
  if (!a->given || a->none) /* the flattened input */
    return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ishape, dtype), message);
  int axis;
  if (r == 0) REL_FAIL("%s takes along an axis, but its first argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, a->ints[0], r, 0, &axis, message));
  IrType **dims = IR_NEW_ARRAY(IrType *, r + ri);
  int n = 0;
  for (int i = 0; i < axis; i++) dims[n++] = shape->u.shape.dims[i];
  for (int i = 0; i < ri; i++) dims[n++] = ishape->u.shape.dims[i];
  for (int i = axis + 1; i < r; i++) dims[n++] = shape->u.shape.dims[i];
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(n, dims), dtype), message);
}

/* ---------------------------------------------------------------- StridedSlice */

TyRelResult ty_rel_strided_slice(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank;
  const IrAttrValue *b = ty_rel_attr(rel, IR_A_BEGIN), *e = ty_rel_attr(rel, IR_A_END),
                    *s = ty_rel_attr(rel, IR_A_STRIDES), *ax = ty_rel_attr(rel, IR_A_AXES),
                    *mode = ty_rel_attr(rel, IR_A_SLICE_MODE);
  bool size_mode = mode->given && !strcmp(mode->str, "size");
  if (mode->given && !size_mode && strcmp(mode->str, "end"))
    REL_FAIL("%s: slice_mode=\"%s\" is not \"end\" or \"size\"", ty_rel_who(rel), mode->str);
  bool has_axes = ax->given && !ax->none, has_strides = s->given && !s->none;
  int n;
  if (has_axes) {
    n = ax->n;
    if (b->n != n || e->n != n)
      REL_FAIL("%s: begin=%s and end=%s must give one value per axis of axes=%s", ty_rel_who(rel), ints_text(b),
               ints_text(e), ints_text(ax));
    if (has_strides && s->n != n && s->n != 1)
      REL_FAIL("%s: strides=%s must give one value per sliced axis (or one for all)", ty_rel_who(rel), ints_text(s));
  } else {
    /* As TVM: begin, end and strides each padded to the rank (the whole axis, stride 1). */
    n = b->n > e->n ? b->n : e->n;
    if (has_strides && s->n > n) n = s->n;
  }
  if (n > r) REL_FAIL("%s: begin=%s, end=%s slice %d axes, but the tensor %s has rank %d", ty_rel_who(rel), ints_text(b),
                      ints_text(e), n, ty_rel_shape_text(cx, shape), r);
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  for (int i = 0; i < r; i++) dims[i] = shape->u.shape.dims[i];
  for (int k = 0; k < n; k++) {
    int axis = k;
    if (has_axes) REL_TRY(ty_rel_axis(rel, IR_A_AXES, ax->ints[k], r, 0, &axis, message));
    int64_t stride = !has_strides ? 1 : s->n == 1 && has_axes ? s->ints[0] : k < s->n ? s->ints[k] : 1;
    if (stride == 0 && !size_mode) REL_FAIL("%s: strides=%s has a 0 stride", ty_rel_who(rel), ints_text(s));
    int64_t dim, start, begin = k < b->n ? b->ints[k] : stride > 0 ? 0 : INT64_MAX;
    int64_t end = k < e->n ? e->ints[k] : stride < 0 ? 0 : INT64_MAX;
    if (size_mode) { /* TVM ignores the strides there (topi's ConvertToVec), once they have padded begin and end */
      if (k < e->n) end = end < 0 || begin > INT64_MAX - end ? INT64_MAX : begin + end;
      stride = 1;
    }
    if (begin == 0 && end == INT64_MAX && stride == 1) continue; /* the whole axis, symbolic or not */
    TyRelResult size = ty_rel_dim_const(cx, dims[axis], &dim);
    if (size == TY_SOLVED) dims[axis] = ty_rel_dim(ir_slice_length(dim, begin, end, stride, &start));
    else if (size == TY_NOT_YET) return size;
    else dims[axis] = ty_dim_any(); /* TVM: a fresh dimension (StridedSliceOutputShape); a size may not fit the axis */
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(r, dims), dtype), message);
}

/* ---------------------------------------------------------------- BroadcastTo, Where */

TyRelResult ty_rel_broadcast_to(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  const IrAttrValue *to = ty_rel_attr(rel, IR_A_SHAPE);
  int r = shape->u.shape.rank;
  if (to->n < r) REL_FAIL("%s: shape=%s has rank %d, lower than the input %s", ty_rel_who(rel), ints_text(to), to->n,
                          ty_rel_shape_text(cx, shape));
  IrType **dims = IR_NEW_ARRAY(IrType *, to->n + 1);
  for (int i = 0; i < to->n; i++) {
    if (to->ints[i] < 0) REL_FAIL("%s: shape=%s has a negative dimension", ty_rel_who(rel), ints_text(to));
    dims[i] = ty_rel_dim(to->ints[i]);
  }
  bool open = false; /* a dimension not known yet may be 1 or the target's: checked when it is known */
  for (int i = 0; i < r; i++) {
    IrType *d = shape->u.shape.dims[r - 1 - i], *t = dims[to->n - 1 - i];
    int64_t v;
    TyDimState k = ty_rel_dim_state(cx, d, &v);
    if (k == TY_DIM_CONST && v == 1) continue;
    if (k == TY_DIM_HOLE && !(ty_dim_value(cx, t, &v) && v == 1)) {
      open = true;
      continue;
    }
    if (!ty_unify(cx, d, t, NULL))
      REL_FAIL("%s cannot broadcast %s to shape=%s: dimension %d is %s, not 1 or %s", ty_rel_who(rel),
               ty_rel_shape_text(cx, shape), ints_text(to), r - 1 - i, ty_rel_text(cx, d), ty_rel_text(cx, t));
  }
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(to->n, dims), dtype), message), open);
}

/* where(condition, x, y): the condition of any element type (nonzero is true), as TVM's WhereRel. */
TyRelResult ty_rel_where(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *s[3], *dt[3];
  for (int i = 0; i < 3; i++) REL_TRY(ty_rel_tensor(cx, rel, i, &s[i], &dt[i], message));
  REL_TRY(ty_rel_same_dtype(cx, rel, dt[1], dt[2], message));
  int r = 0;
  for (int i = 0; i < 3; i++) r = s[i]->u.shape.rank > r ? s[i]->u.shape.rank : r;
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  TyRelResult pending = TY_SOLVED;
  for (int k = 0; k < r; k++) { /* from the right */
    IrType *d = NULL;
    for (int i = 0; i < 3; i++) {
      int ri = s[i]->u.shape.rank;
      if (k >= ri) continue;
      IrType *di = s[i]->u.shape.dims[ri - 1 - k];
      if (!d) {
        d = di;
        continue;
      }
      TyRelResult v = ty_rel_broadcast_dim(cx, d, di, &d);
      if (v == TY_NOT_YET && !d) return TY_NOT_YET;
      if (v == TY_NOT_YET) pending = v;
      if (v == TY_FAILED)
        REL_FAIL("%s cannot broadcast the shapes %s, %s and %s (dimension %d from the right)", ty_rel_who(rel),
                 ty_rel_shape_text(cx, s[0]), ty_rel_shape_text(cx, s[1]), ty_rel_shape_text(cx, s[2]), k);
    }
    dims[r - 1 - k] = d;
  }
  TyRelResult res = ty_rel_result(cx, rel, 3, ty_rel_tensor_type(ty_rel_shape(r, dims), dt[1]), message);
  return res == TY_SOLVED ? pending : res;
}

/* ---------------------------------------------------------------- Cast, ShapeOf, BatchFlatten */

TyRelResult ty_rel_cast(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *t = ty_prune(cx, rel->args[0]);
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  if (t->kind != IR_TYPE_TENSOR) REL_FAIL("%s", ty_rel_not_tensor(cx, rel, 0, "argument", t));
  IrType *dt = ir_type_dtype(ty_rel_attr(rel, IR_A_DTYPE)->dtype, (IrSpan){0});
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(t->u.tensor.shape, dt), message);
}

TyRelResult ty_rel_shape_of(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, NULL, message));
  IrDType dt = ir_attr_dtype(rel->attrs, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32)); /* any, as TVM's ShapeOfRel */
  IrType **dims = IR_NEW_ARRAY(IrType *, 1);
  dims[0] = ty_rel_dim(shape->u.shape.rank);
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(1, dims), ir_type_dtype(dt, (IrSpan){0})), message);
}

TyRelResult ty_rel_batch_flatten(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank;
  if (r < 1) REL_FAIL("%s needs a batch dimension, but its argument is a scalar", ty_rel_who(rel));
  IrType **dims = IR_NEW_ARRAY(IrType *, 2);
  dims[0] = shape->u.shape.dims[0];
  dims[1] = product(cx, r - 1, shape->u.shape.dims + 1);
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(2, dims), dtype), message);
}

/* ---------------------------------------------------------------- Tile, Repeat, Reverse, ReverseSequence */

/* a * b for a constant dimension, failing past int64. */
static TyRelResult times(TyRelation *rel, int64_t a, int64_t b, IrType **out, const char **message) {
  int64_t p;
  if (__builtin_mul_overflow(a, b, &p)) REL_FAIL("%s: %lld x %lld elements along an axis are too many", ty_rel_who(rel),
                                                 (long long)a, (long long)b);
  *out = ty_rel_dim(p);
  return TY_SOLVED;
}

/* tile: the input's shape and reps aligned from the right (the shorter padded with 1s); each
 * dimension times its count. A dimension not known statically gives `?`, as TVM's relation. */
TyRelResult ty_rel_tile(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  const IrAttrValue *reps = ty_rel_attr(rel, IR_A_REPS);
  if (reps->none || reps->n == 0) REL_FAIL("%s needs reps, a count per axis such as reps=[2, 1]", ty_rel_who(rel));
  for (int i = 0; i < reps->n; i++)
    if (reps->ints[i] < 1)
      REL_FAIL("%s: reps=%s has %lld, but each count must be at least 1", ty_rel_who(rel), ints_text(reps),
               (long long)reps->ints[i]);
  int r = shape->u.shape.rank, n = reps->n, t = r > n ? r : n;
  if (t > 64) REL_FAIL("%s: the result's rank %d is beyond 64", ty_rel_who(rel), t);
  IrType **dims = IR_NEW_ARRAY(IrType *, t + 1);
  for (int i = 0; i < t; i++) {
    IrType *d = i < t - r ? ty_rel_dim(1) : shape->u.shape.dims[i - (t - r)];
    int64_t rep = i < t - n ? 1 : reps->ints[i - (t - n)], v;
    TyRelResult known = ty_rel_dim_const(cx, d, &v);
    if (known == TY_NOT_YET) return known;
    if (known == TY_FAILED) dims[i] = ty_dim_any();
    else REL_TRY(times(rel, v, rep, &dims[i], message));
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(t, dims), dtype), message);
}

/* One integer attribute, required. */
static TyRelResult one_int(TyRelation *rel, IrAttrId id, int64_t *out, const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  if (a->none || a->n != 1) REL_FAIL("%s takes one integer %s, but %s=%s", ty_rel_who(rel), ir_attr_name(id),
                                     ir_attr_name(id), a->none ? "None" : ints_text(a));
  *out = a->ints[0];
  return TY_SOLVED;
}

/* repeat: dimension `axis` times `repeats` (symbolic dimensions too; `?` stays `?`). */
TyRelResult ty_rel_repeat(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank, axis;
  int64_t reps, ax, v;
  REL_TRY(one_int(rel, IR_A_REPEATS, &reps, message));
  REL_TRY(one_int(rel, IR_A_AXIS, &ax, message));
  if (reps < 1) REL_FAIL("%s: repeats=%lld, but it must be at least 1", ty_rel_who(rel), (long long)reps);
  if (r == 0) REL_FAIL("%s repeats along an axis, but its argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ax, r, 0, &axis, message));
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  for (int i = 0; i < r; i++) dims[i] = shape->u.shape.dims[i];
  IrType *d = ty_prune(cx, dims[axis]);
  if (d->kind == IR_TYPE_ANY) dims[axis] = d;
  else if (ty_dim_value(cx, d, &v)) REL_TRY(times(rel, v, reps, &dims[axis], message));
  else dims[axis] = ty_dim_mul(cx, d, ty_rel_dim(reps));
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(r, dims), dtype), message);
}

TyRelResult ty_rel_reverse(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int64_t ax;
  int axis;
  REL_TRY(one_int(rel, IR_A_AXIS, &ax, message));
  if (shape->u.shape.rank == 0) REL_FAIL("%s reverses along an axis, but its argument is a scalar", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ax, shape->u.shape.rank, 0, &axis, message));
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(shape, dtype), message);
}

/* reverse_sequence(data, seq_lengths): seq_lengths is an integer vector as long as the batch axis. */
TyRelResult ty_rel_reverse_sequence(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *ls, *ldt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 1, &ls, &ldt, "seq_lengths, a vector,", message));
  if (ldt->kind == IR_TYPE_DTYPE && ldt->u.dtype.code != IR_DT_INT)
    REL_FAIL("%s takes seq_lengths of a signed integer type, but they are %s", ty_rel_who(rel), ty_rel_text(cx, ldt));
  int r = shape->u.shape.rank, batch, seq;
  if (r < 2) REL_FAIL("%s needs a batch axis and a sequence axis, but its argument is %s", ty_rel_who(rel),
                      ty_rel_shape_text(cx, shape));
  REL_TRY(ty_rel_axis(rel, IR_A_BATCH_AXIS, ir_attr_int(rel->attrs, IR_A_BATCH_AXIS, 0), r, 0, &batch, message));
  REL_TRY(ty_rel_axis(rel, IR_A_SEQ_AXIS, ir_attr_int(rel->attrs, IR_A_SEQ_AXIS, 1), r, 0, &seq, message));
  if (batch == seq) REL_FAIL("%s: batch_axis and seq_axis are both axis %d", ty_rel_who(rel), batch);
  REL_TRY(ty_rel_same_dim(cx, rel, ls->u.shape.dims[0], shape->u.shape.dims[batch],
                          "the length of seq_lengths and the batch dimension", message));
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(shape, dtype), message);
}

/* ---------------------------------------------------------------- the *_like forms */

/* full_like(data, fill): data's type; fill is a scalar of any element type (converted). */
TyRelResult ty_rel_full_like(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *fs, *fdt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 0, &fs, &fdt, "a scalar fill value", message));
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(shape, dtype), message);
}

/* An attribute giving a position from 0 to rank (negative: from the end), or dflt when absent. */
static TyRelResult position(TyRelation *rel, IrAttrId id, int64_t dflt, int rank, int64_t *out, const char **message) {
  int64_t v = ir_attr_int(rel->attrs, id, dflt);
  if (v < 0) v += rank;
  if (v < 0 || v > rank)
    REL_FAIL("%s: %s=%lld is out of range for a shape of rank %d", ty_rel_who(rel), ir_attr_name(id),
             (long long)ir_attr_int(rel->attrs, id, dflt), rank);
  *out = v;
  return TY_SOLVED;
}

/* reshape_like(data, like): data's dimensions [lhs_begin, lhs_end) replaced by like's
 * [rhs_begin, rhs_end) (the whole shapes by default); the counts must agree when known. */
TyRelResult ty_rel_reshape_like(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *like, *ldt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &like, &ldt, message));
  int r = shape->u.shape.rank, rl = like->u.shape.rank;
  int64_t lb, le, rb, re;
  REL_TRY(position(rel, IR_A_LHS_BEGIN, 0, r, &lb, message));
  REL_TRY(position(rel, IR_A_LHS_END, r, r, &le, message));
  REL_TRY(position(rel, IR_A_RHS_BEGIN, 0, rl, &rb, message));
  REL_TRY(position(rel, IR_A_RHS_END, rl, rl, &re, message));
  if (lb > le) REL_FAIL("%s: lhs_begin is after lhs_end", ty_rel_who(rel));
  if (rb > re) REL_FAIL("%s: rhs_begin is after rhs_end", ty_rel_who(rel));
  int n = (int)(lb + (re - rb) + (r - le));
  IrType **dims = IR_NEW_ARRAY(IrType *, n + 1);
  int k = 0;
  for (int64_t i = 0; i < lb; i++) dims[k++] = shape->u.shape.dims[i];
  for (int64_t i = rb; i < re; i++) dims[k++] = like->u.shape.dims[i];
  for (int64_t i = le; i < r; i++) dims[k++] = shape->u.shape.dims[i];
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(n, dims), dtype), message));
  /* the counts agree: a difference of 0 in normal form ((n, 3) against (n * 3)); other named sizes are checked
   * at each use, `?` by the kernel (TVM's ReshapeLikeRel asserts it when it can decide) */
  IrType *a = product(cx, r, shape->u.shape.dims), *b = product(cx, n, dims);
  int64_t diff, va, vb;
  TyDimState known = ty_rel_dim_state(cx, ty_dim_sub(cx, a, b), &diff);
  if (known == TY_DIM_CONST && diff != 0) {
    if (ty_dim_value(cx, a, &va) && ty_dim_value(cx, b, &vb))
      REL_FAIL("%s cannot give %s the shape %s: %lld elements against %lld", ty_rel_who(rel),
               ty_rel_shape_text(cx, shape), ty_rel_shape_text(cx, ty_rel_shape(n, dims)), (long long)va, (long long)vb);
    REL_FAIL("%s cannot give %s the shape %s: %s elements against %s", ty_rel_who(rel), ty_rel_shape_text(cx, shape),
             ty_rel_shape_text(cx, ty_rel_shape(n, dims)), ty_rel_text(cx, a), ty_rel_text(cx, b));
  }
  return ty_rel_dim_open(known) ? TY_NOT_YET : TY_SOLVED;
}

/* `from` broadcasts to `to` (aligned from the right, each dimension 1 or equal): TY_NOT_YET while a
 * dimension of `from` may still become 1. `what` describes the direction in the message. */
static TyRelResult broadcasts_to(TyCtx *cx, TyRelation *rel, IrType *from, IrType *to, const char *what,
                                 const char **message) {
  int rf = from->u.shape.rank, rt = to->u.shape.rank;
  if (rf > rt) REL_FAIL("%s: %s %s has more dimensions than %s", ty_rel_who(rel), what, ty_rel_shape_text(cx, from),
                        ty_rel_shape_text(cx, to));
  bool open = false;
  for (int i = 0; i < rf; i++) {
    IrType *d = from->u.shape.dims[rf - 1 - i], *t = to->u.shape.dims[rt - 1 - i];
    int64_t v;
    TyDimState k = ty_rel_dim_state(cx, d, &v);
    if (k == TY_DIM_CONST && v == 1) continue;
    int64_t w; /* a hole that may be 1 is checked when it is known; towards 1, it is 1 */
    if (k == TY_DIM_HOLE && ty_prune(cx, d) != ty_prune(cx, t) && !(ty_dim_value(cx, t, &w) && w == 1)) {
      open = true;
      continue;
    }
    if (!ty_unify(cx, d, t, NULL))
      REL_FAIL("%s: %s %s does not broadcast to %s: dimension %d is %s, not 1 or %s", ty_rel_who(rel), what,
               ty_rel_shape_text(cx, from), ty_rel_shape_text(cx, to), rf - 1 - i, ty_rel_text(cx, d),
               ty_rel_text(cx, t));
  }
  return open ? TY_NOT_YET : TY_SOLVED;
}

/* broadcast_to_like(data, like): like's shape, which data broadcasts to. */
TyRelResult ty_rel_broadcast_to_like(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *like, *ldt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &like, &ldt, message));
  REL_TRY(ty_rel_same_dtype(cx, rel, dtype, ldt, message));
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(like, dtype), message));
  return broadcasts_to(cx, rel, shape, like, "the data", message);
}

/* collapse_sum_like(data, like): data summed down to like's shape, which broadcasts to data's. */
TyRelResult ty_rel_collapse_sum_like(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *like, *ldt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &like, &ldt, message));
  REL_TRY(ty_rel_same_dtype(cx, rel, dtype, ldt, message));
  REL_TRY(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(like, dtype), message));
  return broadcasts_to(cx, rel, like, shape, "the target shape", message);
}

/* collapse_sum_to(data, shape=[...]) or collapse_sum_to(data, s) with s an integer vector: the
 * attribute gives the result's shape; without it, s's length gives its rank (dimensions `?`). */
TyRelResult ty_rel_collapse_sum_to(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  int res = rel->nargs - 1;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  const IrAttrValue *to = ty_rel_attr(rel, IR_A_SHAPE);
  IrType **dims;
  int n;
  if (res == 2) {
    IrType *ss, *sdt;
    REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 1, &ss, &sdt, "the target shape, a vector,", message));
    if (sdt->kind == IR_TYPE_DTYPE && sdt->u.dtype.code != IR_DT_INT && sdt->u.dtype.code != IR_DT_UINT)
      REL_FAIL("%s takes the target shape as integers, but it is %s", ty_rel_who(rel), ty_rel_text(cx, sdt));
    if (!to->given || to->none) {
      int64_t k;
      TyRelResult known = ty_rel_dim_const(cx, ss->u.shape.dims[0], &k);
      if (known == TY_NOT_YET) return known;
      if (known == TY_FAILED) REL_FAIL("%s needs the target shape's length statically, but it is %s", ty_rel_who(rel),
                                       ty_rel_text(cx, ss->u.shape.dims[0]));
      if (k > 64) REL_FAIL("%s: a target of rank %lld is beyond 64", ty_rel_who(rel), (long long)k);
      n = (int)k;
      dims = IR_NEW_ARRAY(IrType *, n + 1);
      for (int i = 0; i < n; i++) dims[i] = ty_dim_any();
      goto have_dims;
    }
    REL_TRY(ty_rel_same_dim(cx, rel, ss->u.shape.dims[0], ty_rel_dim(to->n), "the target shape's length and shape's",
                            message));
  } else if (!to->given || to->none) {
    REL_FAIL("%s needs the target shape: shape=[...] or a second argument", ty_rel_who(rel));
  }
  n = to->n;
  dims = IR_NEW_ARRAY(IrType *, n + 1);
  for (int i = 0; i < n; i++) {
    if (to->ints[i] < 0) REL_FAIL("%s: shape=%s has a negative dimension", ty_rel_who(rel), ints_text(to));
    dims[i] = ty_rel_dim(to->ints[i]);
  }
have_dims:;
  IrType *target = ty_rel_shape(n, dims);
  REL_TRY(ty_rel_result(cx, rel, res, ty_rel_tensor_type(target, dtype), message));
  return broadcasts_to(cx, rel, target, shape, "the target shape", message);
}

/* ---------------------------------------------------------------- LayoutTransform, NdarraySize */

/* A layout such as "NCHW" or "NCHW4c": primal axes (capitals) and split-off parts of them (a
 * factor and the small letter). */
typedef struct {
  int n;
  char axis[64];
  int64_t factor[64]; /* 0 for a primal axis */
} Layout;

static const char *parse_layout(const char *s, Layout *l) {
  l->n = 0;
  if (!*s) return "it is empty";
  for (const char *p = s; *p;) {
    int64_t f = 0;
    while (*p >= '0' && *p <= '9') {
      if (f > 100000000) return "a factor is too large";
      f = f * 10 + (*p++ - '0');
    }
    char c = *p;
    bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    if (!upper && !lower) return "it has a character that is not an axis letter or a factor";
    if (lower && f == 0) return "a split axis (small letter) needs a factor before it, such as 4c";
    if (upper && f) return "a factor comes before a small letter only";
    for (int i = 0; i < l->n; i++)
      if (l->axis[i] == c) return "an axis appears twice";
    if (l->n == 64) return "it has more than 64 axes";
    l->axis[l->n] = c;
    l->factor[l->n++] = f;
    p++;
  }
  for (int i = 0; i < l->n; i++) {
    if (!l->factor[i]) continue;
    bool found = false;
    for (int j = 0; j < l->n; j++) found |= l->axis[j] == l->axis[i] - 'a' + 'A';
    if (!found) return "a split axis has no primal (capital) axis";
  }
  return NULL;
}

static int layout_find(const Layout *l, char c) {
  for (int i = 0; i < l->n; i++)
    if (l->axis[i] == c) return i;
  return -1;
}

TyRelResult ty_rel_layout_transform(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  const char *src_s = ty_rel_attr(rel, IR_A_SRC_LAYOUT)->str, *dst_s = ty_rel_attr(rel, IR_A_DST_LAYOUT)->str, *why;
  Layout src, dst;
  if ((why = parse_layout(src_s, &src))) REL_FAIL("%s: src_layout=\"%s\" is not a layout: %s", ty_rel_who(rel), src_s, why);
  if ((why = parse_layout(dst_s, &dst))) REL_FAIL("%s: dst_layout=\"%s\" is not a layout: %s", ty_rel_who(rel), dst_s, why);
  for (int i = 0; i < src.n + dst.n; i++) {
    char c = i < src.n ? src.axis[i] : dst.axis[i - src.n];
    if (c >= 'A' && c <= 'Z' && (layout_find(&src, c) < 0 || layout_find(&dst, c) < 0))
      REL_FAIL("%s cannot convert \"%s\" to \"%s\": they have different axes (%c)", ty_rel_who(rel), src_s, dst_s, c);
  }
  int r = shape->u.shape.rank;
  if (r != src.n)
    REL_FAIL("%s: src_layout=\"%s\" has %d axes, but the data %s has rank %d", ty_rel_who(rel), src_s, src.n,
             ty_rel_shape_text(cx, shape), r);
  for (int i = 0; i < r; i++)
    if (src.factor[i] && !ty_unify(cx, shape->u.shape.dims[i], ty_rel_dim(src.factor[i]), NULL))
      REL_FAIL("%s: axis %c of src_layout=\"%s\" has %lld elements, but the data %s has %s there", ty_rel_who(rel),
               src.axis[i], src_s, (long long)src.factor[i], ty_rel_shape_text(cx, shape),
               ty_rel_text(cx, shape->u.shape.dims[i]));
  IrType **dims = IR_NEW_ARRAY(IrType *, dst.n + 1);
  bool open = false;
  for (int i = 0; i < dst.n; i++) {
    if (dst.factor[i]) {
      dims[i] = ty_rel_dim(dst.factor[i]);
      continue;
    }
    char c = dst.axis[i], sub = (char)(c - 'A' + 'a');
    int ps = layout_find(&src, c), ss = layout_find(&src, sub), sd = layout_find(&dst, sub);
    IrType *whole = shape->u.shape.dims[ps];
    if (ss >= 0) whole = ty_dim_mul(cx, whole, ty_rel_dim(src.factor[ss]));
    if (sd < 0) {
      dims[i] = whole;
      continue;
    }
    int64_t f = dst.factor[sd], v;
    IrType *part = ty_dim_div(cx, whole, ty_rel_dim(f));
    if (part) {
      dims[i] = part;
      continue;
    }
    TyDimState known = ty_rel_dim_state(cx, whole, &v);
    if (known == TY_DIM_HOLE) return TY_NOT_YET;
    if (known == TY_DIM_CONST)
      REL_FAIL("%s: axis %c has %lld elements, which do not split into parts of %lld (dst_layout=\"%s\")",
               ty_rel_who(rel), c, (long long)v, (long long)f, dst_s);
    dims[i] = ty_dim_any();
    open |= known == TY_DIM_SYMBOLIC; /* whether f divides it is checked at each use */
  }
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(dst.n, dims), dtype), message), open);
}

/* ndarray_size: the element count as a scalar of dtype (int32 by default; any, as TVM's NdarraySizeRel). */
TyRelResult ty_rel_ndarray_size(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, NULL, message));
  IrDType dt = ir_attr_dtype(rel->attrs, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32));
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(0, NULL), ir_type_dtype(dt, (IrSpan){0})), message);
}

/* ---------------------------------------------------------------- CastLike, SliceLike, Trilu */

/* cast_like(data, like): data's shape, like's element type. */
TyRelResult ty_rel_cast_like(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *ls, *ldt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  IrType *t = ty_prune(cx, rel->args[1]);
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  (void)ls;
  if (t->kind != IR_TYPE_TENSOR)
    REL_FAIL("%s takes a tensor whose type to take, but its second argument is %s", ty_rel_who(rel), ty_rel_text(cx, t));
  ldt = t->u.tensor.dtype;
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(shape, ldt), message);
}

/* slice_like(data, like, axes): data's shape with like's dimensions on `axes` (every axis both have
 * when not given); a dimension beyond the data's (both constants) is an error, as TVM's assert. */
TyRelResult ty_rel_slice_like(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *like, *ldt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &like, &ldt, message));
  int r = shape->u.shape.rank, rl = like->u.shape.rank;
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  bool *on = IR_NEW_ARRAY(bool, r + 1);
  for (int i = 0; i < r; i++) dims[i] = shape->u.shape.dims[i], on[i] = false;
  const IrAttrValue *ax = ty_rel_attr(rel, IR_A_AXES);
  if (!ax->given || ax->none) {
    for (int i = 0; i < r && i < rl; i++) on[i] = true;
  } else {
    if (ax->n == 0) REL_FAIL("%s: axes=[] is empty", ty_rel_who(rel));
    for (int k = 0; k < ax->n; k++) {
      int a;
      REL_TRY(ty_rel_axis(rel, IR_A_AXES, ax->ints[k], r, 0, &a, message));
      if (a >= rl)
        REL_FAIL("%s: axis %d is beyond the shape %s it takes dimensions from", ty_rel_who(rel), a,
                 ty_rel_shape_text(cx, like));
      on[a] = true;
    }
  }
  bool open = false;
  for (int i = 0; i < r; i++) {
    if (!on[i]) continue;
    int64_t a, b, gap; /* the data's dimension less like's, in normal form: checked at each use when named */
    TyDimState known = ty_rel_dim_state(cx, ty_dim_sub(cx, shape->u.shape.dims[i], like->u.shape.dims[i]), &gap);
    if (known == TY_DIM_CONST && gap < 0) {
      if (ty_dim_value(cx, shape->u.shape.dims[i], &a) && ty_dim_value(cx, like->u.shape.dims[i], &b))
        REL_FAIL("%s: dimension %d of %s is %lld, beyond the data's %lld in %s", ty_rel_who(rel), i,
                 ty_rel_shape_text(cx, like), (long long)b, (long long)a, ty_rel_shape_text(cx, shape));
      REL_FAIL("%s: dimension %d of %s is %s, beyond the data's %s in %s", ty_rel_who(rel), i, ty_rel_shape_text(cx, like),
               ty_rel_text(cx, like->u.shape.dims[i]), ty_rel_text(cx, shape->u.shape.dims[i]), ty_rel_shape_text(cx, shape));
    }
    open |= ty_rel_dim_open(known);
    dims[i] = like->u.shape.dims[i];
  }
  return ty_rel_open(ty_rel_result(cx, rel, 2, ty_rel_tensor_type(ty_rel_shape(r, dims), dtype), message), open);
}

/* trilu(data, k, upper=True): data's type; k is an integer scalar; the data has rank 2 or more. */
TyRelResult ty_rel_trilu(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *ks, *kdt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  if (shape->u.shape.rank < 2)
    REL_FAIL("%s works on matrices (rank 2 or more), but its data is %s", ty_rel_who(rel), ty_rel_shape_text(cx, shape));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, 0, &ks, &kdt, "k, a scalar,", message));
  if (kdt->kind == IR_TYPE_DTYPE && kdt->u.dtype.code != IR_DT_INT && kdt->u.dtype.code != IR_DT_UINT)
    REL_FAIL("%s takes k as an integer, but it is %s", ty_rel_who(rel), ty_rel_text(cx, kdt));
  return ty_rel_result(cx, rel, 2, ty_rel_tensor_type(shape, dtype), message);
}

/* ---------------------------------------------------------------- Einsum, Meshgrid */

/* The fields of argument 0, a tuple of tensors of known ranks and one element type (any ranks). */
static TyRelResult tensor_fields(TyCtx *cx, TyRelation *rel, int *n, IrType ***shapes, IrType **dtype,
                                 const char **message) {
  return tuple_of_tensors(cx, rel, false, n, shapes, dtype, message);
}


/* einsum((a, b, ...), equation): one element type; each letter one dimension; the ellipses broadcast. */
TyRelResult ty_rel_einsum(TyCtx *cx, TyRelation *rel, const char **message) {
  int n;
  IrType **shapes, *dtype;
  REL_TRY(tensor_fields(cx, rel, &n, &shapes, &dtype, message));
  const char *eqs = ty_rel_attr(rel, IR_A_EQUATION)->str, *why;
  IrEinsum q;
  if ((why = ir_einsum_parse(eqs, &q))) REL_FAIL("%s: equation=\"%s\" is not an equation: %s", ty_rel_who(rel), eqs, why);
  if (q.nin != n)
    REL_FAIL("%s: equation=\"%s\" has %d input terms, but there are %d tensors", ty_rel_who(rel), eqs, q.nin, n);
  IrType *lab[128] = {0};
  IrType *ell[RT_MAX_RANK_TY] = {0};
  int ne = 0;
  TyRelResult pending = TY_SOLVED; /* an ellipsis axis known, but not yet checked */
  bool any_ell = false;
  for (int i = 0; i < n; i++) {
    const char *term = q.terms[i];
    int r = shapes[i]->u.shape.rank, letters = (int)strlen(term), has = strchr(term, '*') != NULL;
    if (has) letters--;
    if (has ? r < letters : r != letters)
      REL_FAIL("%s: term \"%s\" of equation=\"%s\" does not fit tensor %d of shape %s", ty_rel_who(rel),
               q.terms[i][0] == '*' && !q.terms[i][1] ? "..." : term, eqs, i, ty_rel_shape_text(cx, shapes[i]));
    int er = r - letters;
    if (has) any_ell = true;
    if (er > RT_MAX_RANK_TY) REL_FAIL("%s: an ellipsis of rank %d is beyond 64", ty_rel_who(rel), er);
    for (int j = 0, d = 0; term[j]; j++) {
      if (term[j] == '*') {
        for (int e = 0; e < er; e++) {
          IrType *dim = shapes[i]->u.shape.dims[d++];
          int slot = RT_MAX_RANK_TY - er + e; /* right-aligned */
          if (!ell[slot]) { ell[slot] = dim; continue; }
          IrType *b;
          TyRelResult k = ty_rel_broadcast_dim(cx, ell[slot], dim, &b);
          if (k == TY_FAILED)
            REL_FAIL("%s: the ellipsis dimensions of tensor %d %s do not broadcast with the others'", ty_rel_who(rel), i,
                     ty_rel_shape_text(cx, shapes[i]));
          if (k == TY_NOT_YET && !b) return k;
          if (k == TY_NOT_YET) pending = k;
          ell[slot] = b;
        }
        if (er > ne) ne = er;
        continue;
      }
      IrType *dim = shapes[i]->u.shape.dims[d++];
      int c = (unsigned char)term[j];
      if (!lab[c]) lab[c] = dim;
      else if (!ty_unify(cx, lab[c], dim, NULL))
        REL_FAIL("%s: letter %c of equation=\"%s\" is %s in one place and %s in another", ty_rel_who(rel), term[j], eqs,
                 ty_rel_text(cx, lab[c]), ty_rel_text(cx, dim));
    }
  }
  const char *out = q.terms[n];
  if (ne > 0 && !strchr(out, '*'))
    REL_FAIL("%s: equation=\"%s\" has ellipsis dimensions in its inputs but no '...' in its output", ty_rel_who(rel), eqs);
  (void)any_ell;
  int ro = (int)strlen(out) + (strchr(out, '*') ? ne - 1 : 0);
  IrType **dims = IR_NEW_ARRAY(IrType *, ro + 1);
  int m = 0;
  for (const char *p = out; *p; p++) {
    if (*p == '*')
      for (int e = 0; e < ne; e++) dims[m++] = ell[RT_MAX_RANK_TY - ne + e];
    else
      dims[m++] = lab[(unsigned char)*p];
  }
  TyRelResult res = ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(m, dims), dtype), message);
  return res == TY_SOLVED ? pending : res;
}

/* meshgrid((a, b, ...), indexing="ij"): scalars and vectors of one element type; a tuple of as many
 * tensors of shape (len a, len b, ...), the first two swapped for indexing="xy". */
TyRelResult ty_rel_meshgrid(TyCtx *cx, TyRelation *rel, const char **message) {
  int n;
  IrType **shapes, *dtype;
  REL_TRY(tensor_fields(cx, rel, &n, &shapes, &dtype, message));
  const IrAttrValue *ix = ty_rel_attr(rel, IR_A_INDEXING);
  const char *mode = ix->given ? ix->str : "ij";
  if (strcmp(mode, "ij") && strcmp(mode, "xy"))
    REL_FAIL("%s: indexing=\"%s\" is not \"ij\" or \"xy\"", ty_rel_who(rel), mode);
  IrType **grid = IR_NEW_ARRAY(IrType *, n + 1);
  for (int i = 0; i < n; i++) {
    int r = shapes[i]->u.shape.rank;
    if (r > 1)
      REL_FAIL("%s takes scalars and vectors, but field %d is %s", ty_rel_who(rel), i, ty_rel_shape_text(cx, shapes[i]));
    grid[i] = r == 0 ? ty_rel_dim(1) : shapes[i]->u.shape.dims[0];
  }
  if (!strcmp(mode, "xy") && n >= 2) {
    IrType *t = grid[0];
    grid[0] = grid[1], grid[1] = t;
  }
  IrType **fields = IR_NEW_ARRAY(IrType *, n);
  for (int i = 0; i < n; i++) fields[i] = ty_rel_tensor_type(ty_rel_shape(n, grid), dtype);
  return ty_rel_result(cx, rel, 1, ir_type_tuple(n, fields, (IrSpan){0}), message);
}

/* ---------------------------------------------------------------- StridedSet, SlidingWindow */

/* strided_set(data, v, begin, end[, strides]): v of data's element type and rank; begin, end and
 * strides integer vectors; the result is data's type. TVM's StridedSetRel (src/relay/op/tensor/transform.cc) checks
 * nothing else: the slice's shape depends on the values, checked at run time, but on the axes past the
 * vectors' lengths (below). */
TyRelResult ty_rel_strided_set(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype, *vs, *vdt;
  int res = rel->nargs - 1;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  REL_TRY(ty_rel_tensor_of_rank(cx, rel, 1, shape->u.shape.rank, &vs, &vdt, "values of the data's rank", message));
  REL_TRY(ty_rel_same_dtype(cx, rel, dtype, vdt, message));
  static const char *const what[] = {"begin, a vector,", "end, a vector,", "strides, a vector,"};
  IrType *len[3];
  for (int i = 2; i < res; i++) {
    IrType *s, *dt;
    REL_TRY(ty_rel_tensor_of_rank(cx, rel, i, 1, &s, &dt, what[i - 2], message));
    len[i - 2] = ty_rel_dim_at(s, 0);
    if (dt->kind == IR_TYPE_DTYPE && dt->u.dtype.code != IR_DT_INT && dt->u.dtype.code != IR_DT_UINT)
      REL_FAIL("%s takes %s as integers, but they are %s", ty_rel_who(rel), what[i - 2], ty_rel_text(cx, dt));
  }
  /* The slice's size on an axis that begin, end or strides covers depends on their values (the kernel
   * checks it); an axis past all three vectors' lengths is sliced whole (topi's strided_set: begin 0, end
   * the size, stride 1), so the values have the data's size there: unified when the lengths are
   * constants; where a named length may or may not cover it, at each use; a `?` length, the kernel. */
  int64_t covered = 0;
  bool any = false, open = false, named = false;
  for (int i = 2; i < res; i++) {
    int64_t n;
    TyDimState st = ty_rel_dim_state(cx, len[i - 2], &n);
    if (st == TY_DIM_CONST) covered = n > covered ? n : covered;
    any |= st == TY_DIM_ANY, named |= ty_rel_dim_open(st);
  }
  for (int i = (int)(covered < shape->u.shape.rank ? covered : shape->u.shape.rank); i < shape->u.shape.rank; i++) {
    IrType *d = ty_rel_dim_at(shape, i), *v = ty_rel_dim_at(vs, i);
    if (!any && !named) {
      REL_TRY(ty_rel_same_dim(cx, rel, v, d,
                              ir_printf("the values' dimension %d and the data's (an axis no value of begin, end or "
                                        "strides covers: all of it)", i),
                              message));
      continue;
    }
    int64_t x, diff;
    if (any || ty_rel_dim_state(cx, d, &x) == TY_DIM_ANY || ty_rel_dim_state(cx, v, &x) == TY_DIM_ANY ||
        (ty_dim_value(cx, ty_dim_sub(cx, v, d), &diff) && diff == 0))
      continue;
    open = true;
  }
  return ty_rel_open(ty_rel_result(cx, rel, res, ty_rel_tensor_type(shape, dtype), message), open);
}

/* sliding_window(data, axis, window_shape, strides): the axes before `axis`, then per window axis the
 * number of windows ceil((d - w + 1) / s), then the window's shape. */
TyRelResult ty_rel_sliding_window(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  int r = shape->u.shape.rank;
  const IrAttrValue *ws = ty_rel_attr(rel, IR_A_WINDOW_SHAPE), *st = ty_rel_attr(rel, IR_A_STRIDES);
  int64_t axis = ir_attr_int(rel->attrs, IR_A_AXIS, 0);
  if (axis < 0 || axis > r)
    REL_FAIL("%s: axis=%lld is out of range for the data %s", ty_rel_who(rel), (long long)axis, ty_rel_shape_text(cx, shape));
  if (ws->none || ws->n != r - axis)
    REL_FAIL("%s: window_shape=%s must have a size for each axis from %lld of the data %s", ty_rel_who(rel), ints_text(ws),
             (long long)axis, ty_rel_shape_text(cx, shape));
  if (st->none || st->n != ws->n)
    REL_FAIL("%s: strides=%s must have as many values as window_shape=%s", ty_rel_who(rel), ints_text(st), ints_text(ws));
  int n = (int)axis + 2 * ws->n;
  bool open = false;
  IrType **dims = IR_NEW_ARRAY(IrType *, n + 1);
  for (int i = 0; i < axis; i++) dims[i] = shape->u.shape.dims[i];
  for (int i = 0; i < ws->n; i++) {
    int64_t w = ws->ints[i], s = st->ints[i], d;
    if (w < 1 || s < 1) REL_FAIL("%s: window sizes and strides must be 1 or more", ty_rel_who(rel));
    IrType *di = shape->u.shape.dims[axis + i];
    TyDimState k = ty_rel_dim_state(cx, di, &d);
    if (k == TY_DIM_HOLE) return TY_NOT_YET;
    open |= k == TY_DIM_SYMBOLIC; /* d >= w, checked at each use */
    if (k == TY_DIM_CONST) {
      if (d < w)
        REL_FAIL("%s: a window of %lld does not fit dimension %lld of the data %s", ty_rel_who(rel), (long long)w,
                 (long long)(axis + i), ty_rel_shape_text(cx, shape));
      dims[axis + i] = ty_rel_dim((d - w) / s + 1);
    } else {
      dims[axis + i] = s == 1 ? ty_dim_add(cx, di, ty_rel_dim(1 - w)) : ty_dim_any();
    }
    dims[axis + ws->n + i] = ty_rel_dim(w);
  }
  return ty_rel_open(ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(n, dims), dtype), message), open);
}
