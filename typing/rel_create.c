/* The relations of the creation operators: Init (zeros, ones: a shape and a dtype from the
 * attributes), Full (a scalar fill value) and Arange (scalar bounds; a length known statically
 * when the bounds are literals). */
#include "typing/oprel.h"

static IrType *dtype_or(const TyRelation *rel, IrType *dflt) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_DTYPE);
  return a->given && !a->none ? ir_type_dtype(a->dtype, (IrSpan){0}) : dflt;
}

/* The shape given by the attribute `shape`. */
static TyRelResult shape_attr(TyRelation *rel, IrType **out, const char **message) {
  const IrAttrValue *a = ty_rel_attr(rel, IR_A_SHAPE);
  IrType **dims = IR_NEW_ARRAY(IrType *, a->n + 1);
  for (int i = 0; i < a->n; i++) {
    if (a->ints[i] < 0)
      REL_FAIL("%s: shape=%lld is negative; dimensions are 0 or more", ty_rel_who(rel), (long long)a->ints[i]);
    dims[i] = ty_rel_dim(a->ints[i]);
  }
  *out = ty_rel_shape(a->n, dims);
  return TY_SOLVED;
}

TyRelResult ty_rel_init(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape;
  REL_TRY(shape_attr(rel, &shape, message));
  IrType *dt = dtype_or(rel, ir_type_dtype(IR_DTYPE(IR_DT_FLOAT, 32), (IrSpan){0}));
  return ty_rel_result(cx, rel, 0, ty_rel_tensor_type(shape, dt), message);
}

TyRelResult ty_rel_full(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *shape;
  REL_TRY(shape_attr(rel, &shape, message));
  IrType *fill_dt = ty_fresh(cx, IR_KIND_BASETYPE, rel->span);
  IrType *fill = ty_rel_tensor_type(ty_rel_shape(0, NULL), fill_dt);
  if (!ty_unify(cx, rel->args[0], fill, NULL))
    REL_FAIL("%s fills with a scalar, but its first argument is %s", ty_rel_who(rel), ty_rel_text(cx, rel->args[0]));
  return ty_rel_result(cx, rel, 1, ty_rel_tensor_type(shape, dtype_or(rel, fill_dt)), message);
}

/* A literal's value as a double, if e is one. */
static bool literal_value(const IrExpr *e, double *out) {
  if (!e || e->kind != IR_EXPR_LIT || e->u.lit.kind == IR_LIT_BOOL) return false;
  *out = e->u.lit.kind == IR_LIT_FLOAT ? e->u.lit.f : e->u.lit.neg ? -(double)e->u.lit.mag : (double)e->u.lit.mag;
  return true;
}

/* arange(stop), arange(start, stop), arange(start, stop, step): scalars of the dtype (float32 by
 * default). */
TyRelResult ty_rel_arange(TyCtx *cx, TyRelation *rel, const char **message) {
  int n = rel->nargs - 1;
  IrType *dt = dtype_or(rel, ir_type_dtype(IR_DTYPE(IR_DT_FLOAT, 32), (IrSpan){0}));
  IrType *scalar = ty_rel_tensor_type(ty_rel_shape(0, NULL), dt);
  for (int i = 0; i < n; i++)
    if (!ty_unify(cx, rel->args[i], scalar, NULL))
      REL_FAIL("%s takes scalars of its dtype %s, but its %s argument is %s", ty_rel_who(rel), ty_rel_text(cx, dt),
               ir_ordinal(i), ty_rel_text(cx, rel->args[i]));
  double v[3] = {0, 0, 1};
  bool known = rel->call != NULL;
  for (int i = 0; i < n && known; i++) known = literal_value(rel->call->u.call.args[i], &v[n == 1 ? 1 : i]);
  IrType *len = ty_dim_any();
  IrType *d = ty_prune(cx, dt);
  if (known && d->kind == IR_TYPE_DTYPE && (d->u.dtype.code == IR_DT_INT || d->u.dtype.code == IR_DT_UINT)) {
    IrWide w[3] = {0, 0, 1}; /* integers: exactly, as the kernel counts them */
    for (int i = 0; i < n; i++) {
      const IrLit *l = &rel->call->u.call.args[i]->u.lit;
      if (l->kind != IR_LIT_INT) break;
      w[n == 1 ? 1 : i] = l->neg ? -(IrWide)l->mag : (IrWide)l->mag;
    }
    if (w[2] == 0) REL_FAIL("%s: the step is 0", ty_rel_who(rel));
    int64_t count = ir_arange_length_int(w[0], w[1], w[2]);
    if (count < 0) REL_FAIL("%s: its length passes int64", ty_rel_who(rel));
    len = ty_rel_dim(count);
  } else if (known) {
    /* the kernel computes with the arguments as the dtype holds them (1e12 as float32 is 999999995904) */
    if (d->kind == IR_TYPE_DTYPE && d->u.dtype.code == IR_DT_FLOAT)
      for (int i = 0; i < 3; i++) v[i] = ir_float_round(d->u.dtype.bits, v[i]);
    if (v[2] == 0) REL_FAIL("%s: the step is 0", ty_rel_who(rel));
    double count = ir_arange_length(v[0], v[1], v[2]);
    if (!(count < 9.2e18)) REL_FAIL("%s: %g elements are too many", ty_rel_who(rel), count);
    len = ty_rel_dim((int64_t)count);
  }
  IrType **dims = IR_NEW_ARRAY(IrType *, 1);
  dims[0] = len;
  return ty_rel_result(cx, rel, n, ty_rel_tensor_type(ty_rel_shape(1, dims), dt), message);
}
