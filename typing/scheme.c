/* Type schemes: a polymorphic type is an IrType FUNC with type parameters (named VARs in its
 * body) and relations, exactly as it prints. Instantiating copies it with the parameters replaced
 * by fresh holes and adds its relations to the solver; generalizing turns the holes above the
 * current let-level into named parameters, and the open relations over only those holes into the
 * `where` clause. */
#include "typing/check.h"

#include <string.h>

/* ---------------------------------------------------------------- instantiation */

typedef struct {
  int n;
  const IrTypeParam *params;
  IrType **values;
} Subst;

static IrType *subst(const Subst *s, IrType *t);

static IrType **subst_all(const Subst *s, int n, IrType **ts) {
  IrType **out = IR_NEW_ARRAY(IrType *, n);
  for (int i = 0; i < n; i++) out[i] = subst(s, ts[i]);
  return out;
}

static IrType *subst(const Subst *s, IrType *t) {
  IrType *out;
  switch (t->kind) {
  case IR_TYPE_VAR:
    for (int i = 0; i < s->n; i++)
      if (s->params[i].name == t->u.var.name) return s->values[i];
    return t;
  case IR_TYPE_TENSOR:
    out = ir_type_tensor(subst(s, t->u.tensor.shape), subst(s, t->u.tensor.dtype), t->span);
    return out;
  case IR_TYPE_SHAPE: return ir_type_shape(t->u.shape.rank, subst_all(s, t->u.shape.rank, t->u.shape.dims), t->span);
  case IR_TYPE_DIMOP:
    out = ir_type_new(IR_TYPE_DIMOP, t->span);
    out->u.dimop.op = t->u.dimop.op;
    out->u.dimop.a = subst(s, t->u.dimop.a);
    out->u.dimop.b = subst(s, t->u.dimop.b);
    return out;
  case IR_TYPE_TUPLE: return ir_type_tuple(t->u.tuple.n, subst_all(s, t->u.tuple.n, t->u.tuple.fields), t->span);
  case IR_TYPE_FUNC:
    out = ir_type_new(IR_TYPE_FUNC, t->span);
    out->u.func = t->u.func; /* an inner polymorphic type keeps its own parameters */
    out->u.func.args = subst_all(s, t->u.func.nargs, t->u.func.args);
    out->u.func.ret = subst(s, t->u.func.ret);
    return out;
  case IR_TYPE_CALL:
    out = ir_type_new(IR_TYPE_CALL, t->span);
    out->u.call = t->u.call;
    out->u.call.args = subst_all(s, t->u.call.nargs, t->u.call.args);
    return out;
  case IR_TYPE_REF:
    out = ir_type_new(IR_TYPE_REF, t->span);
    out->u.ref = subst(s, t->u.ref);
    return out;
  default: return t;
  }
}

IrType *ty_instantiate(TyCheck *c, IrType *scheme, int ntargs, IrType **targs, IrSpan span, const char *op) {
  if (scheme->kind != IR_TYPE_FUNC || (scheme->u.func.ntparams == 0 && scheme->u.func.nrels == 0)) return scheme;
  int n = scheme->u.func.ntparams;
  Subst s = {n, scheme->u.func.tparams, IR_NEW_ARRAY(IrType *, n)};
  for (int i = 0; i < n; i++)
    s.values[i] = i < ntargs ? ty_annotation(c, targs[i], scheme->u.func.tparams[i].kind)
                             : ty_fresh(&c->cx, scheme->u.func.tparams[i].kind, span);
  IrType *f = ir_type_new(IR_TYPE_FUNC, scheme->span);
  f->u.func.nargs = scheme->u.func.nargs;
  f->u.func.args = subst_all(&s, scheme->u.func.nargs, scheme->u.func.args);
  f->u.func.ret = subst(&s, scheme->u.func.ret);
  for (int r = 0; r < scheme->u.func.nrels; r++) {
    const IrRel *rel = &scheme->u.func.rels[r];
    int id = ty_relation_find(rel->name);
    if (id < 0) continue; /* cannot happen: schemes are made from known relations */
    TyRelation *added = ty_relation_add(&c->cx, ty_relation_fn((TyRelId)id), ty_relation_name((TyRelId)id),
                                        rel->nargs, subst_all(&s, rel->nargs, rel->args), span);
    added->op = op;
  }
  return f;
}

/* ---------------------------------------------------------------- literals */

void ty_default_literals(TyCheck *c) {
  for (int i = 0; i < c->cx.vars.len; i++) {
    TyVar *v = &c->cx.vars.items[i];
    if (v->parent != (uint32_t)i || v->resolved || v->lit == TY_LIT_NONE) continue;
    IrDType dt = v->lit == TY_LIT_FLOAT ? IR_DTYPE(IR_DT_FLOAT, 32) : IR_DTYPE(IR_DT_INT, 32);
    ty_unify(&c->cx, v->node, ir_type_dtype(dt, (IrSpan){0}), NULL);
  }
  ty_solve_or_fail(c);
}

/* ---------------------------------------------------------------- generalization */

static bool in_list(const TyIdList *l, uint32_t id) {
  for (int i = 0; i < l->len; i++)
    if (l->items[i] == id) return true;
  return false;
}

static void var_names(IrType *t, IrSymMap *out) {
  switch (t->kind) {
  case IR_TYPE_VAR: ir_symmap_put(out, t->u.var.name, t); return;
  case IR_TYPE_TENSOR: var_names(t->u.tensor.shape, out); var_names(t->u.tensor.dtype, out); return;
  case IR_TYPE_SHAPE: for (int i = 0; i < t->u.shape.rank; i++) var_names(t->u.shape.dims[i], out); return;
  case IR_TYPE_DIMOP: var_names(t->u.dimop.a, out); var_names(t->u.dimop.b, out); return;
  case IR_TYPE_TUPLE: for (int i = 0; i < t->u.tuple.n; i++) var_names(t->u.tuple.fields[i], out); return;
  case IR_TYPE_FUNC:
    for (int i = 0; i < t->u.func.nargs; i++) var_names(t->u.func.args[i], out);
    var_names(t->u.func.ret, out);
    return;
  case IR_TYPE_CALL: for (int i = 0; i < t->u.call.nargs; i++) var_names(t->u.call.args[i], out); return;
  case IR_TYPE_REF: var_names(t->u.ref, out); return;
  default: return;
  }
}

static const char *prefix_of(IrKind k) {
  switch (k) {
  case IR_KIND_SHAPE: return "s";
  case IR_KIND_SHAPEVAR: return "n";
  case IR_KIND_BASETYPE: return "bt";
  default: return "t";
  }
}

/* Whether the relation's holes all lie in `generic`; `mentions` is set when it has any. */
static bool only_generic(TyCheck *c, TyRelation *rel, const TyIdList *generic, bool *mentions) {
  TyIdList holes = {0};
  for (int i = 0; i < rel->nargs; i++) ty_holes_of(&c->cx, rel->args[i], &holes);
  *mentions = holes.len > 0;
  for (int i = 0; i < holes.len; i++)
    if (!in_list(generic, holes.items[i])) return false;
  return true;
}

IrType *ty_generalize(TyCheck *c, IrType *t, int ndeclared, const IrTypeParam *declared) {
  TyCtx *cx = &c->cx;
  t = ty_resolve(cx, t);
  TyIdList holes = {0}, generic = {0};
  ty_holes_of(cx, t, &holes);
  for (int i = 0; i < holes.len; i++) {
    TyVar *v = &cx->vars.items[holes.items[i]];
    /* Literal base types are not generalized: they get their defaults at the item's end. */
    if (v->level > cx->level && v->lit == TY_LIT_NONE && !in_list(&generic, holes.items[i]))
      IR_VEC_PUSH(generic, holes.items[i]);
  }
  /* The open relations about these holes. One that also mentions a hole from outside keeps its
   * holes from being generalized (they stay shared with the enclosing scope). */
  IR_VEC(TyRelation *) owned = {0};
  for (bool changed = true; changed;) {
    changed = false;
    owned.len = 0;
    for (int g = 0; g < generic.len && !changed; g++) {
      TyIdList *rels = &cx->vars.items[generic.items[g]].rels;
      for (int r = 0; r < rels->len; r++) {
        TyRelation *rel = cx->rels.items[rels->items[r]];
        if (rel->solved || rel->owned) continue;
        bool mentions;
        if (only_generic(c, rel, &generic, &mentions)) {
          bool seen = false;
          for (int k = 0; k < owned.len; k++) seen |= owned.items[k] == rel;
          if (!seen) IR_VEC_PUSH(owned, rel);
          continue;
        }
        TyIdList hs = {0};
        for (int i = 0; i < rel->nargs; i++) ty_holes_of(cx, rel->args[i], &hs);
        for (int i = 0; i < generic.len; i++) {
          if (!in_list(&hs, generic.items[i])) continue;
          generic.items[i] = generic.items[--generic.len];
          i--;
          changed = true;
        }
      }
    }
  }
  /* Name the parameters in order of first appearance, avoiding the names already in t. */
  IrSymMap used = {0};
  var_names(t, &used);
  for (int i = 0; i < ndeclared; i++) ir_symmap_put(&used, declared[i].name, (void *)&declared[i]);
  IR_VEC(IrTypeParam) params = {0};
  for (int i = 0; i < ndeclared; i++) IR_VEC_PUSH(params, declared[i]);
  int counters[5] = {0};
  for (int h = 0; h < holes.len; h++) {
    if (!in_list(&generic, holes.items[h])) continue;
    TyVar *v = &cx->vars.items[holes.items[h]];
    if (v->resolved) continue; /* named already (it appeared twice) */
    IrKind k = v->kind == IR_KIND_UNKNOWN ? IR_KIND_TYPE : v->kind;
    Sym name;
    do name = ir_sym(ir_printf("%s%d", prefix_of(k), ++counters[k]));
    while (ir_symmap_get(&used, name));
    ir_symmap_put(&used, name, v);
    IrTypeParam p = {name, k, v->origin};
    IR_VEC_PUSH(params, p);
    v->resolved = ir_type_var(name, k, (IrSpan){0}); /* no wake: what it stands for is settled */
  }
  IR_VEC(IrRel) rels = {0};
  for (int r = 0; r < owned.len; r++) {
    TyRelation *rel = owned.items[r];
    rel->owned = true;
    IrRel ir = {ir_sym(rel->name), rel->nargs, IR_NEW_ARRAY(IrType *, rel->nargs), rel->span};
    for (int i = 0; i < rel->nargs; i++) ir.args[i] = ty_resolve(cx, rel->args[i]);
    bool duplicate = false; /* a declared `where` and the body's own relation are one */
    for (int k = 0; k < rels.len && !duplicate; k++) {
      bool same = rels.items[k].name == ir.name && rels.items[k].nargs == ir.nargs;
      for (int i = 0; same && i < ir.nargs; i++) same = ir_type_equal(rels.items[k].args[i], ir.args[i]);
      duplicate = same;
    }
    if (!duplicate) IR_VEC_PUSH(rels, ir);
  }
  t = ty_resolve(cx, t);
  if (params.len == 0 && rels.len == 0) return t;
  if (t->kind != IR_TYPE_FUNC) return t; /* a polymorphic value: its parameters print by name */
  IrType *f = ir_type_new(IR_TYPE_FUNC, t->span);
  f->u.func = t->u.func;
  f->u.func.ntparams = params.len;
  f->u.func.tparams = params.items;
  f->u.func.nrels = rels.len;
  f->u.func.rels = rels.items;
  return f;
}
