/* The helpers the operators' relations share: reading tensor arguments and attributes, axes,
 * stating results, and messages that name the operator and the values. */
#include "typing/oprel.h"

#include <string.h>

const char *ty_rel_who(const TyRelation *rel) {
  if (rel->op) return ir_printf("`%s`", rel->op);
  if (rel->global) return ir_printf("%s (a relation of `@%s`)", rel->name, rel->global);
  return rel->name;
}

const char *ty_rel_text(TyCtx *cx, IrType *t) { return ir_type_str(ty_for_message(cx, t, &cx->message_names)); }

const char *ty_rel_shape_text(TyCtx *cx, IrType *t) {
  t = ty_prune(cx, t);
  if (t->kind == IR_TYPE_TENSOR) t = ty_prune(cx, t->u.tensor.shape);
  if (t->kind != IR_TYPE_SHAPE) return ty_rel_text(cx, t);
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_putc(&b, '(');
  for (int i = 0; i < t->u.shape.rank; i++) {
    if (i) ir_buf_puts(&b, ", ");
    ir_buf_puts(&b, ty_rel_text(cx, t->u.shape.dims[i]));
  }
  ir_buf_putc(&b, ')'); /* `(3)`, as a tensor type writes it */
  return b.data;
}

const char *ty_rel_not_tensor(TyCtx *cx, const TyRelation *rel, int i, const char *which, IrType *t) {
  if (t->kind != IR_TYPE_VAR)
    return ir_printf("%s works on tensors, but its %s is %s", ty_rel_who(rel), which, ty_rel_text(cx, t));
  const IrExpr *arg = rel->op && rel->call && i < rel->call->u.call.nargs ? rel->call->u.call.args[i] : NULL;
  const char *what = arg && arg->kind == IR_EXPR_LOCAL ? ir_printf("`%%%s`", arg->u.name->name)
                                                       : ir_printf("the %s of %s", which, ty_rel_who(rel));
  return ir_printf("%s has type `%s`, a type parameter (any type), but %s needs a tensor", what, ty_rel_text(cx, t),
                   ty_rel_who(rel));
}

TyRelResult ty_rel_tensor(TyCtx *cx, TyRelation *rel, int i, IrType **shape, IrType **dtype, const char **message) {
  IrType *t = ty_prune(cx, rel->args[i]);
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  if (t->kind != IR_TYPE_TENSOR)
    REL_FAIL("%s", ty_rel_not_tensor(cx, rel, i, ir_printf("%s argument", ir_ordinal(i)), t));
  IrType *s = ty_prune(cx, t->u.tensor.shape);
  if (s->kind != IR_TYPE_SHAPE) return TY_NOT_YET;
  *shape = s;
  if (dtype) *dtype = ty_prune(cx, t->u.tensor.dtype);
  return TY_SOLVED;
}

TyRelResult ty_rel_tensor_of_rank(TyCtx *cx, TyRelation *rel, int i, int rank, IrType **shape, IrType **dtype,
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

IrType *ty_rel_dim_at(IrType *shape, int i) { return shape->u.shape.dims[i < 0 ? shape->u.shape.rank + i : i]; }

IrType *ty_rel_out_dtype(const TyRelation *rel, IrType *dflt) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_OUT_DTYPE);
  return a->given && !a->none ? ir_type_dtype(a->dtype, (IrSpan){0}) : dflt;
}

/* Whether `computed`, a relation's result, has a `?` where `bound` (what the result's type already
 * is) says more: a constant, a shape variable (a skolem of a polymorphic parameter's type too) or
 * arithmetic, not a hole, which unification makes `?`. */
static bool any_meets_fixed(TyCtx *cx, IrType *computed, IrType *bound) {
  computed = ty_prune(cx, computed);
  bound = ty_prune(cx, bound);
  if (computed->kind == IR_TYPE_ANY) return bound->kind != IR_TYPE_ANY && bound->kind != IR_TYPE_HOLE;
  if (computed->kind != bound->kind) return false;
  switch (computed->kind) {
  case IR_TYPE_TENSOR: return any_meets_fixed(cx, computed->u.tensor.shape, bound->u.tensor.shape);
  case IR_TYPE_SHAPE:
    if (computed->u.shape.rank != bound->u.shape.rank) return false;
    for (int k = 0; k < computed->u.shape.rank; k++)
      if (any_meets_fixed(cx, computed->u.shape.dims[k], bound->u.shape.dims[k])) return true;
    return false;
  case IR_TYPE_TUPLE:
    if (computed->u.tuple.n != bound->u.tuple.n) return false;
    for (int k = 0; k < computed->u.tuple.n; k++)
      if (any_meets_fixed(cx, computed->u.tuple.fields[k], bound->u.tuple.fields[k])) return true;
    return false;
  default: return false;
  }
}

TyRelResult ty_rel_result(TyCtx *cx, TyRelation *rel, int i, IrType *t, const char **message) {
  /* the result's type already fixed where the relation found only `?`: what the call gives there
   * is assumed, to be checked at run time (IrTExpr.u.call.assumed) */
  bool assumed = i == rel->nargs - 1 && any_meets_fixed(cx, t, rel->args[i]);
  if (ty_unify(cx, rel->args[i], t, NULL)) {
    rel->assumed |= assumed;
    return TY_SOLVED;
  }
  if (i == rel->nargs - 1)
    REL_FAIL("the result of %s is %s, but %s is expected", ty_rel_who(rel), ty_rel_text(cx, t),
             ty_rel_text(cx, rel->args[i]));
  REL_FAIL("the %s argument of %s must be %s, but it is %s", ir_ordinal(i), ty_rel_who(rel), ty_rel_text(cx, t),
           ty_rel_text(cx, rel->args[i]));
}

TyRelResult ty_rel_same_dtype(TyCtx *cx, TyRelation *rel, IrType *a, IrType *b, const char **message) {
  if (ty_unify(cx, a, b, NULL)) return TY_SOLVED;
  REL_FAIL("%s needs arguments of one element type, but they are %s and %s", ty_rel_who(rel), ty_rel_text(cx, a),
           ty_rel_text(cx, b));
}

TyRelResult ty_rel_same_dim(TyCtx *cx, TyRelation *rel, IrType *a, IrType *b, const char *what,
                            const char **message) {
  TyMismatch why = TY_MISMATCH_INIT;
  if (ty_unify(cx, a, b, &why)) return TY_SOLVED;
  REL_FAIL("%s: %s, %s and %s, differ", ty_rel_who(rel), what, ty_rel_text(cx, a), ty_rel_text(cx, b));
}

const IrAttrValue *ty_rel_attr(const TyRelation *rel, IrAttrId id) { return ir_attr_at(rel->attrs, id); }

TyRelResult ty_rel_axis(TyRelation *rel, IrAttrId id, int64_t axis, int rank, int extra, int *out,
                        const char **message) {
  int64_t lo = -(int64_t)rank - extra, hi = rank + extra - 1;
  if (axis < lo || axis > hi)
    REL_FAIL("%s: %s=%lld is out of range for a tensor of rank %d (axes go from %lld to %lld)", ty_rel_who(rel),
             ir_attr_name(id), (long long)axis, rank, (long long)lo, (long long)hi);
  *out = (int)(axis < 0 ? axis + rank + extra : axis);
  return TY_SOLVED;
}

TyRelResult ty_rel_choice(TyRelation *rel, IrAttrId id, const char *const *allowed, const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  if (!a->given || a->none || !a->str) return TY_SOLVED;
  for (int i = 0; allowed[i]; i++)
    if (!strcmp(a->str, allowed[i])) return TY_SOLVED;
  IrBuf b;
  ir_buf_init(&b);
  for (int i = 0; allowed[i]; i++) ir_buf_printf(&b, "%s\"%s\"", i ? allowed[i + 1] ? ", " : " and " : "", allowed[i]);
  REL_FAIL("%s: %s=\"%s\" is not supported; it takes %s", ty_rel_who(rel), ir_attr_name(id), a->str, b.data);
}

TyRelResult ty_rel_pair(TyRelation *rel, IrAttrId id, int64_t dflt, int64_t out[2], const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  if (a->given && !a->none && a->n != 1 && a->n != 2)
    REL_FAIL("%s: %s has %d values, but it takes 1 or 2 (height and width)", ty_rel_who(rel), ir_attr_name(id), a->n);
  ir_attr_pair(rel->attrs, id, dflt, out);
  return TY_SOLVED;
}

TyRelResult ty_rel_padding(TyRelation *rel, int64_t out[4], const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_PADDING);
  if (a->given && !a->none && a->n != 1 && a->n != 2 && a->n != 4)
    REL_FAIL("%s: padding has %d values, but it takes 1, 2 or 4 (top, left, bottom, right)", ty_rel_who(rel), a->n);
  ir_attr_padding(rel->attrs, out);
  for (int i = 0; i < 4; i++)
    if (out[i] < 0) REL_FAIL("%s: padding=%lld is negative", ty_rel_who(rel), (long long)out[i]);
  return TY_SOLVED;
}

TyDimState ty_rel_dim_state(TyCtx *cx, IrType *d, int64_t *out) {
  TyPoly p;
  if (!ty_dim_normalize(cx, d, &p)) return TY_DIM_ANY;
  if (p.n == 0 || (p.n == 1 && p.terms[0].n == 0)) {
    *out = p.n ? p.terms[0].coef : 0;
    return TY_DIM_CONST;
  }
  for (int i = 0; i < p.n; i++)
    for (int k = 0; k < p.terms[i].n; k++)
      if (!p.terms[i].atoms[k].name) return TY_DIM_HOLE;
  return TY_DIM_SYMBOLIC;
}

TyRelResult ty_rel_dim_const(TyCtx *cx, IrType *d, int64_t *out) {
  switch (ty_rel_dim_state(cx, d, out)) {
  case TY_DIM_CONST: return TY_SOLVED;
  case TY_DIM_HOLE: return TY_NOT_YET;
  default: return TY_FAILED; /* `?`, or named sizes */
  }
}

IrType *ty_rel_dim(int64_t n) { return ir_type_dim(n, (IrSpan){0}); }
IrType *ty_rel_shape(int rank, IrType **dims) { return ir_type_shape(rank, dims, (IrSpan){0}); }
IrType *ty_rel_tensor_type(IrType *shape, IrType *dtype) { return ir_type_tensor(shape, dtype, (IrSpan){0}); }

TyRelResult ty_rel_float(TyCtx *cx, TyRelation *rel, IrType *dt, const char *what, IrType *t, const char **message) {
  dt = ty_prune(cx, dt);
  if (dt->kind != IR_TYPE_DTYPE) return TY_NOT_YET;
  if (dt->u.dtype.code != IR_DT_FLOAT) REL_FAIL("%s works on floats, but %s is %s", ty_rel_who(rel), what, ty_rel_text(cx, t));
  return TY_SOLVED;
}

TyRelResult ty_rel_product_dtypes(TyCtx *cx, TyRelation *rel, IrType *a, IrType *b, const char **message) {
  const IrAttrValue *od = ty_rel_attr(rel, IR_A_OUT_DTYPE);
  if ((od->given && !od->none) || ty_unify(cx, a, b, NULL)) return TY_SOLVED;
  REL_FAIL("%s needs arguments of one element type, but they are %s and %s\n"
           "hint: with out_dtype (say out_dtype=\"int32\") it multiplies different ones, in that type",
           ty_rel_who(rel), ty_rel_text(cx, a), ty_rel_text(cx, b));
}

bool ty_rel_overflowed(TyCtx *cx) {
  bool was = cx->dim_overflow != NULL;
  cx->dim_overflow = NULL;
  return was;
}

TyRelResult ty_rel_window(TyCtx *cx, const TyRelation *rel, IrType *in, int64_t k, int64_t dil, int64_t stride,
                          int64_t lo, int64_t hi, bool ceil_mode, IrType **out, bool *open) {
  int64_t n;
  TyDimState state = ty_rel_dim_state(cx, in, &n);
  if (state == TY_DIM_ANY) {
    *out = ty_dim_any();
    return TY_SOLVED;
  }
  /* Every size from `need` on fits, and 0 when need is 1 (an empty axis padded short of the window by
   * one element, "same" padding: an empty output, n - need + 1 as for the others). In 128 bits: a
   * weight's size is not bounded. */
  IrWide need = (IrWide)dil * (k - 1) + 1 - lo - hi;
  if (state == TY_DIM_CONST) {
    int64_t len = ir_window_length(n, k, dil, stride, lo, hi, ceil_mode);
    if (len == IR_WINDOW_TOO_LARGE) { /* the solver fails the relation: "dimension too large" */
      if (!cx->dim_overflow) cx->dim_overflow = in;
      *out = ty_dim_any();
      return TY_SOLVED;
    }
    if (len < 0 && !(n == 0 && need == 1)) return TY_FAILED;
    *out = ty_rel_dim(len < 0 ? 0 : len);
    return TY_SOLVED;
  }
  if (need > INT64_MAX) { /* a window past any size (a huge weight, dilated): the solver fails the relation */
    if (!cx->dim_overflow) cx->dim_overflow = in;
    *out = ty_dim_any();
    return TY_SOLVED;
  }
  if (state == TY_DIM_SYMBOLIC) {
    *out = stride == 1 ? ty_dim_add(cx, in, ty_rel_dim((int64_t)(1 - need))) : ty_dim_any();
    if (need > 1) *open = true;
    return TY_SOLVED;
  }
  if (stride == 1 && need == 1) { /* a hole that passes through */
    *out = in;
    return TY_SOLVED;
  }
  *out = ty_fresh(cx, IR_KIND_SHAPEVAR, rel->span);
  *open = true;
  return TY_SOLVED;
}
