/* The relations of the shape operators: Reshape (with TVM's codes 0, -1, -2, -3, -4), Transpose,
 * ExpandDims, Squeeze, Concatenate, Stack, Split, Take, StridedSlice, BroadcastTo, Where, Cast,
 * ShapeOf and BatchFlatten. Dimensions flow through symbolically: flattening (n, 3, 32, 32) gives
 * (n, 3072), concatenating (n, 3) and (m, 3) gives (n + m, 3); what only the values decide is `?`. */
#include "typing/oprel.h"

#include <string.h>

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

TyRelResult ty_rel_reshape(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape, *dtype;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, &dtype, message));
  const IrAttrValue *ns = ty_rel_attr(rel, IR_A_NEWSHAPE);
  int r = shape->u.shape.rank, src = 0, infer = -1;
  IrType **in = shape->u.shape.dims;
  IR_VEC(IrType *) out = {0};
  /* Dimensions copied by the code 0 cancel out of the -1's division, even when they are `?`. */
  bool *copied_in = IR_NEW_ARRAY(bool, r + 1), *copied_out = IR_NEW_ARRAY(bool, 2 * (size_t)ns->n + r + 1);
  const char *who = ty_rel_who(rel), *written = ints_text(ns);
  for (int j = 0; j < ns->n; j++) {
    int64_t v = ns->ints[j];
    if (v > 0) {
      IR_VEC_PUSH(out, ty_rel_dim(v));
      src++;
    } else if (v == 0) {
      if (src >= r) REL_FAIL("%s: newshape=%s copies dimension %d (the code 0), but the input %s has rank %d", who,
                             written, src, ty_rel_shape_text(cx, shape), r);
      copied_in[src] = copied_out[out.len] = true;
      IR_VEC_PUSH(out, in[src++]);
    } else if (v == -1) {
      if (infer >= 0) REL_FAIL("%s: newshape=%s has more than one -1", who, written);
      infer = out.len;
      IR_VEC_PUSH(out, NULL);
      src++;
    } else if (v == -2) {
      while (src < r) IR_VEC_PUSH(out, in[src++]);
    } else if (v == -3) {
      if (src + 1 >= r) REL_FAIL("%s: newshape=%s merges dimensions %d and %d (the code -3), but the input %s has rank %d",
                                 who, written, src, src + 1, ty_rel_shape_text(cx, shape), r);
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
      if (i != infer && !copied_out[i]) known = ty_dim_mul(cx, known, out.items[i]);
    total = ty_rel_dim(1);
    for (int i = 0; i < r; i++)
      if (!copied_in[i]) total = ty_dim_mul(cx, total, in[i]);
    int64_t k;
    if (ty_dim_value(cx, known, &k) && k == 0) REL_FAIL("%s: newshape=%s has a 0-sized dimension next to -1", who, written);
    IrType *d = ty_dim_div(cx, total, known);
    int64_t t;
    if (!d && ty_dim_value(cx, total, &t) && ty_dim_value(cx, known, &k))
      REL_FAIL("%s: newshape=%s cannot hold the %lld elements of %s: %lld is not a multiple of %lld", who, written,
               (long long)t, ty_rel_shape_text(cx, shape), (long long)t, (long long)k);
    if (!d && (ty_rel_dim_const(cx, total, &t) == TY_NOT_YET || ty_rel_dim_const(cx, known, &k) == TY_NOT_YET))
      return TY_NOT_YET; /* a hole that may become a constant */
    out.items[infer] = d ? d : ty_dim_any();
  } else {
    IrType *count = product(cx, out.len, out.items);
    TyMismatch why = TY_MISMATCH_INIT;
    if (!ty_unify(cx, count, total, &why))
      REL_FAIL("%s: newshape=%s has %s elements, but the input %s has %s", who, written, ty_rel_text(cx, count),
               ty_rel_shape_text(cx, shape), ty_rel_text(cx, total));
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(out.len, out.items), dtype), message);
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
  if (!a->given || a->none) { /* every dimension that is 1 */
    for (int i = 0; i < r; i++) {
      IrType *d = ty_prune(cx, shape->u.shape.dims[i]);
      if (d->kind == IR_TYPE_HOLE) return TY_NOT_YET;
      drop[i] = d->kind == IR_TYPE_DIM && d->u.dim == 1;
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

/* The fields of argument 0, a tuple of tensors of known ranks. */
static TyRelResult tensor_tuple(TyCtx *cx, TyRelation *rel, int *n, IrType ***shapes, IrType **dtype,
                                const char **message) {
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
    if (s->u.shape.rank != (*shapes)[0]->u.shape.rank)
      REL_FAIL("%s needs tensors of one rank, but field 0 is %s and field %d is %s", ty_rel_who(rel),
               ty_rel_shape_text(cx, (*shapes)[0]), i, ty_rel_shape_text(cx, s));
  }
  return TY_SOLVED;
}

TyRelResult ty_rel_concatenate(TyCtx *cx, TyRelation *rel, const char **message) {
  int n;
  IrType **shapes, *dtype;
  REL_TRY(tensor_tuple(cx, rel, &n, &shapes, &dtype, message));
  int r = shapes[0]->u.shape.rank, axis;
  if (r == 0) REL_FAIL("%s joins tensors along an axis, but these are scalars", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, 0), r, 0, &axis, message));
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  for (int d = 0; d < r; d++) {
    dims[d] = shapes[0]->u.shape.dims[d];
    for (int i = 1; i < n; i++) {
      IrType *di = shapes[i]->u.shape.dims[d];
      if (d == axis) {
        dims[d] = ty_dim_add(cx, dims[d], di);
      } else if (!ty_unify(cx, dims[d], di, NULL)) {
        REL_FAIL("%s: dimension %d must agree (only axis %d may differ), but field 0 is %s and field %d is %s",
                 ty_rel_who(rel), d, axis, ty_rel_shape_text(cx, shapes[0]), i, ty_rel_shape_text(cx, shapes[i]));
      }
    }
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
  if (ios->none) REL_FAIL("%s needs indices_or_sections", ty_rel_who(rel));
  if (!ios->listed) { /* equal sections */
    int64_t k = ios->ints[0], v;
    if (k <= 0) REL_FAIL("%s: indices_or_sections=%lld sections; it must be at least 1", ty_rel_who(rel), (long long)k);
    if (k > 1000000) REL_FAIL("%s: indices_or_sections=%lld sections is too many", ty_rel_who(rel), (long long)k);
    IrType *part = ty_dim_div(cx, whole, ty_rel_dim(k));
    if (!part && ty_rel_dim_const(cx, whole, &v) == TY_NOT_YET) return TY_NOT_YET;
    if (!part && ty_dim_value(cx, whole, &v))
      REL_FAIL("%s: indices_or_sections=%lld does not divide dimension %d of %s (%lld) evenly", ty_rel_who(rel),
               (long long)k, axis, ty_rel_shape_text(cx, shape), (long long)v);
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
    for (int i = 0; i < pieces; i++) {
      int64_t lo = i == 0 ? 0 : ios->ints[i - 1];
      if (i < ios->n) {
        int64_t hi = ios->ints[i];
        if (known) { /* clamped, as numpy does */
          lo = lo < v ? lo : v;
          hi = hi < v ? hi : v;
        }
        sizes[i] = ty_rel_dim(hi - lo);
      } else {
        sizes[i] = known ? ty_rel_dim(v - (lo < v ? lo : v)) : ty_dim_sub(cx, whole, ty_rel_dim(lo));
      }
    }
  }
  IrType **fields = IR_NEW_ARRAY(IrType *, pieces);
  for (int i = 0; i < pieces; i++) {
    IrType **dims = IR_NEW_ARRAY(IrType *, r);
    for (int d = 0; d < r; d++) dims[d] = d == axis ? sizes[i] : shape->u.shape.dims[d];
    fields[i] = ty_rel_tensor_type(ty_rel_shape(r, dims), dtype);
  }
  return ty_rel_result(cx, rel, 1, ir_type_tuple(pieces, fields, (IrSpan){0}), message);
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
  int n = ax->given && !ax->none ? ax->n : b->n;
  if (n > r) REL_FAIL("%s: begin=%s slices %d axes, but the tensor %s has rank %d", ty_rel_who(rel), ints_text(b), n,
                      ty_rel_shape_text(cx, shape), r);
  if (b->n != n || (e->n != n && !(e->n == 1 && n == 1)))
    REL_FAIL("%s: begin=%s and end=%s must give one value per sliced axis", ty_rel_who(rel), ints_text(b), ints_text(e));
  if (s->given && !s->none && s->n != n && s->n != 1)
    REL_FAIL("%s: strides=%s must give one value per sliced axis (or one for all)", ty_rel_who(rel), ints_text(s));
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
  for (int i = 0; i < r; i++) dims[i] = shape->u.shape.dims[i];
  for (int k = 0; k < n; k++) {
    int axis = k;
    if (ax->given && !ax->none) REL_TRY(ty_rel_axis(rel, IR_A_AXES, ax->ints[k], r, 0, &axis, message));
    int64_t stride = s->given && !s->none ? s->ints[s->n == 1 ? 0 : k] : 1;
    if (stride == 0) REL_FAIL("%s: strides=%s has a 0 stride", ty_rel_who(rel), ints_text(s));
    int64_t dim, start, begin = b->ints[k], end = e->ints[k];
    if (size_mode) {
      if (stride != 1) REL_FAIL("%s: slice_mode=\"size\" takes strides of 1", ty_rel_who(rel));
      end = end < 0 ? INT64_MAX : begin + end;
    }
    TyRelResult size = ty_rel_dim_const(cx, dims[axis], &dim);
    if (size == TY_SOLVED) dims[axis] = ty_rel_dim(ir_slice_length(dim, begin, end, stride, &start));
    else if (size == TY_NOT_YET) return size;
    else if (size_mode && end != INT64_MAX && begin >= 0) dims[axis] = ty_rel_dim(end - begin);
    else dims[axis] = ty_dim_any();
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
  for (int i = 0; i < r; i++) {
    IrType *d = shape->u.shape.dims[r - 1 - i], *t = dims[to->n - 1 - i];
    int64_t v;
    if (ty_dim_value(cx, d, &v) && v == 1) continue;
    if (!ty_unify(cx, d, t, NULL))
      REL_FAIL("%s cannot broadcast %s to shape=%s: dimension %d is %s, not 1 or %s", ty_rel_who(rel),
               ty_rel_shape_text(cx, shape), ints_text(to), r - 1 - i, ty_rel_text(cx, d), ty_rel_text(cx, t));
  }
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(ty_rel_shape(to->n, dims), dtype), message);
}

TyRelResult ty_rel_where(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *s[3], *dt[3];
  for (int i = 0; i < 3; i++) REL_TRY(ty_rel_tensor(cx, rel, i, &s[i], &dt[i], message));
  if (!ty_unify(cx, dt[0], ir_type_dtype(IR_DTYPE(IR_DT_BOOL, 1), (IrSpan){0}), NULL))
    REL_FAIL("%s chooses by a bool condition, but the condition is %s", ty_rel_who(rel), ty_rel_text(cx, dt[0]));
  REL_TRY(ty_rel_same_dtype(cx, rel, dt[1], dt[2], message));
  int r = 0;
  for (int i = 0; i < 3; i++) r = s[i]->u.shape.rank > r ? s[i]->u.shape.rank : r;
  IrType **dims = IR_NEW_ARRAY(IrType *, r + 1);
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
      if (v == TY_NOT_YET) return TY_NOT_YET;
      if (v == TY_FAILED)
        REL_FAIL("%s cannot broadcast the shapes %s, %s and %s (dimension %d from the right)", ty_rel_who(rel),
                 ty_rel_shape_text(cx, s[0]), ty_rel_shape_text(cx, s[1]), ty_rel_shape_text(cx, s[2]), k);
    }
    dims[r - 1 - k] = d;
  }
  return ty_rel_result(cx, rel, 3, ty_rel_tensor_type(ty_rel_shape(r, dims), dt[1]), message);
}

/* ---------------------------------------------------------------- Cast, ShapeOf, BatchFlatten */

TyRelResult ty_rel_cast(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *t = ty_prune(cx, rel->args[0]);
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  if (t->kind != IR_TYPE_TENSOR) REL_FAIL("%s works on tensors, but its argument is %s", ty_rel_who(rel), ty_rel_text(cx, t));
  IrType *dt = ir_type_dtype(ty_rel_attr(rel, IR_A_DTYPE)->dtype, (IrSpan){0});
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(t->u.tensor.shape, dt), message);
}

TyRelResult ty_rel_shape_of(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &shape, NULL, message));
  IrDType dt = ir_attr_dtype(rel->attrs, IR_A_DTYPE, IR_DTYPE(IR_DT_INT, 32));
  if (dt.code != IR_DT_INT && dt.code != IR_DT_UINT) REL_FAIL("%s gives integers, but dtype=%s", ty_rel_who(rel),
                                                               ty_rel_text(cx, ir_type_dtype(dt, (IrSpan){0})));
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
