/* Type schemes: a polymorphic type is an IrType FUNC with type parameters (named VARs in its
 * body) and relations, exactly as it prints. Instantiating copies it with the parameters replaced
 * by fresh holes and adds its relations to the solver; generalizing turns the holes above the
 * current let-level into named parameters, and the open relations over only those holes into the
 * `where` clause. */
#include "typing/check.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- instantiation */

typedef struct {
  int n;
  const IrTypeParam *params;
  IrType **values;
  IrSymMap by_name; /* name -> value, for many parameters (else the list is searched) */
} Subst;

enum { SUBST_SEARCHED = 8 };

static IrType *subst(const Subst *s, IrType *t);

static IrType *subst_child(IrType *child, void *s) { return subst(s, child); }

static IrType **subst_all(const Subst *s, int n, IrType **ts) {
  IrType **out = IR_NEW_ARRAY(IrType *, n);
  for (int i = 0; i < n; i++) out[i] = subst(s, ts[i]);
  return out;
}

/* t with the parameters replaced by their values (an inner polymorphic type keeps its own). */
static IrType *subst(const Subst *s, IrType *t) {
  if (t->kind == IR_TYPE_DIM || t->kind == IR_TYPE_ANY || t->kind == IR_TYPE_DTYPE || t->kind == IR_TYPE_HOLE)
    return t; /* leaves: nothing to replace */
  if (t->kind == IR_TYPE_VAR) {
    if (s->n > SUBST_SEARCHED) {
      IrType *v = ir_symmap_get(&s->by_name, t->u.var.name);
      return v ? v : t;
    }
    for (int i = 0; i < s->n; i++)
      if (s->params[i].name == t->u.var.name) return s->values[i];
    return t;
  }
  return ty_map_children(t, subst_child, (void *)s);
}

IrType *ty_instantiate(TyCheck *c, IrType *scheme, int ntargs, IrType **targs, IrSpan span, const IrExpr *call,
                       const IrOpAttrs *attrs) {
  if (scheme->kind != IR_TYPE_FUNC || (scheme->u.func.ntparams == 0 && scheme->u.func.nrels == 0)) return scheme;
  int n = scheme->u.func.ntparams;
  Subst s = {n, scheme->u.func.tparams, IR_NEW_ARRAY(IrType *, n), {0}};
  for (int i = 0; i < n; i++) {
    s.values[i] = i < ntargs ? ty_annotation(c, targs[i], scheme->u.func.tparams[i].kind)
                             : ty_fresh(&c->cx, scheme->u.func.tparams[i].kind, span);
    if (n > SUBST_SEARCHED) ir_symmap_put(&s.by_name, scheme->u.func.tparams[i].name, s.values[i]);
  }
  IrType *f = ir_type_new(IR_TYPE_FUNC, scheme->span);
  f->u.func.nargs = scheme->u.func.nargs;
  f->u.func.args = subst_all(&s, scheme->u.func.nargs, scheme->u.func.args);
  f->u.func.ret = subst(&s, scheme->u.func.ret);
  /* A global's relations are checked at its use and name it; their attributes are the scheme's. */
  const char *global = call && call->kind == IR_EXPR_GLOBAL ? call->u.name->name : NULL;
  if (global) call = NULL;
  for (int r = 0; r < scheme->u.func.nrels; r++) {
    const IrRel *rel = &scheme->u.func.rels[r];
    int id = rel->rel - 1;
    if (id < 0) { /* schemes are made from resolved relations (ops.c, annot.c, generalization) */
      UNREACHABLE("a scheme's relation is not resolved");
      continue;
    }
    TyRelation *added = ty_relation_add_registered(&c->cx, (TyRelId)id, rel->nargs, subst_all(&s, rel->nargs, rel->args), span);
    added->global = global;
    if (call && call->kind == IR_EXPR_OP) { /* an operator passed as a value: no attributes */
      added->op = ir_ops[call->u.op].name;
      added->attrs = &ir_op_attrs_none;
    } else if (call) { /* an operator's call has the attributes (kept as written for a `where`
                        * clause only when the relation reads them: clip's bounds do not change
                        * its type) */
      added->op = ir_ops[call->u.call.callee->u.op].name;
      added->call = call;
      added->attrs = attrs;
      if (*ty_relation_attrs((TyRelId)id)) {
        added->nattrs = call->u.call.nattrs;
        added->written = call->u.call.attrs;
      }
    } else if (rel->decoded) {
      added->attrs = rel->decoded;
      added->nattrs = rel->nattrs;
      added->written = rel->attrs;
    }
  }
  return f;
}

/* ---------------------------------------------------------------- literals */

/* Whether an unsuffixed integer literal of e does not fit int32: then its undecided base type
 * defaults to int64, as TVM reads 2147483648. */
static bool beyond_int32(const IrTExpr *t) {
  const IrExpr *e = t->src;
  const IrLit *lits = e->kind == IR_EXPR_LIT ? &e->u.lit : e->kind == IR_EXPR_FILL ? &e->u.fill.value : e->u.tensor.elems;
  int64_t n = e->kind == IR_EXPR_TENSOR ? e->u.tensor.count : 1;
  char why[160];
  for (int64_t k = 0; k < n; k++)
    if (!lits[k].suffixed && ir_lit_fit(&lits[k], IR_DTYPE(IR_DT_INT, 32), why, sizeof why) != IR_FIT_OK) return true;
  return false;
}

void ty_default_literals(TyCheck *c) {
  TyCtx *cx = &c->cx;
  for (int i = 0; i < c->literals.len; i++) { /* the wide ones first: int64 */
    IrTExpr *e = c->literals.items[i];
    IrType *t = e->type ? ty_prune(cx, e->type) : NULL;
    if (!t || t->kind != IR_TYPE_TENSOR || !beyond_int32(e)) continue;
    IrType *dt = ty_prune(cx, t->u.tensor.dtype);
    if (dt->kind == IR_TYPE_HOLE && cx->vars.items[ty_find(cx, dt->u.hole.id)].lit == TY_LIT_INT)
      ty_unify(cx, dt, ir_type_dtype(IR_DTYPE(IR_DT_INT, 64), (IrSpan){0}), NULL);
  }
  IrPtrMap first = {0}; /* a literal's undecided base type (its hole's node) -> the first literal of it */
  for (int i = 0; i < c->literals.len; i++) {
    IrTExpr *e = c->literals.items[i];
    IrType *t = e->type ? ty_prune(cx, e->type) : NULL;
    IrType *dt = t && t->kind == IR_TYPE_TENSOR ? ty_prune(cx, t->u.tensor.dtype) : NULL;
    if (dt && dt->kind == IR_TYPE_HOLE && !ir_ptrmap_get(&first, dt)) ir_ptrmap_put(&first, dt, e);
  }
  for (int i = 0; i < cx->vars.len; i++) {
    TyVar *v = &cx->vars.items[i];
    if (v->parent != (uint32_t)i || v->resolved || v->lit == TY_LIT_NONE) continue;
    IrDType dt = v->lit == TY_LIT_FLOAT ? IR_DTYPE(IR_DT_FLOAT, 32) : IR_DTYPE(IR_DT_INT, 32);
    const IrTExpr *lit = ir_ptrmap_get(&first, ty_prune(cx, v->node));
    IrType *d = ir_type_dtype(dt, lit ? lit->src->span : (IrSpan){0});
    if (lit) d->origin = IR_DTYPE_BY_DEFAULT;
    ty_unify(cx, v->node, d, NULL);
  }
  ty_solve_or_fail(c);
}

/* ---------------------------------------------------------------- generalization */

static int compare_ids(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void var_names(IrType *t, IrSymMap *out);

static void var_names_child(IrType **slot, void *out) { var_names(*slot, out); }

/* Every named variable in t. */
static void var_names(IrType *t, IrSymMap *out) {
  if (t->kind == IR_TYPE_VAR) ir_symmap_put(out, t->u.var.name, t);
  else ty_each_child(t, var_names_child, out);
}

static const char *prefix_of(IrKind k) {
  switch (k) {
  case IR_KIND_SHAPE: return "s";
  case IR_KIND_SHAPEVAR: return "n";
  case IR_KIND_BASETYPE: return "bt";
  default: return "t";
  }
}

static bool may_generalize(TyCtx *cx, uint32_t root) {
  TyVar *v = &cx->vars.items[root];
  /* Literal base types are not generalized: they get their defaults at the item's end. */
  return v->level > cx->level && v->lit == TY_LIT_NONE && !v->resolved;
}

static void relation_holes(TyCtx *cx, TyRelation *rel, TyIdList *out) {
  out->len = 0;
  for (int i = 0; i < rel->nargs; i++) ty_holes_of(cx, rel->args[i], out);
}

typedef struct {
  const IrSymMap *generic; /* name -> IrTypeParam of the parameters being made */
  IrSymMap *seen;
  TyParamList *out;
} NamesEnv;

static void generic_names_in(IrType *t, NamesEnv *env);

static void generic_names_child(IrType **slot, void *env) { generic_names_in(*slot, env); }

static void generic_names_in(IrType *t, NamesEnv *env) {
  if (t->kind != IR_TYPE_VAR) {
    ty_each_child(t, generic_names_child, env);
    return;
  }
  IrTypeParam *p = ir_symmap_get(env->generic, t->u.var.name);
  if (p && !ir_symmap_get(env->seen, t->u.var.name)) {
    ir_symmap_put(env->seen, t->u.var.name, p);
    IR_VEC_PUSH(*env->out, *p);
  }
}

/* The generalized parameters a resolved type mentions, in order of appearance, added to *out. */
static void generic_names(IrType *t, const IrSymMap *generic, IrSymMap *seen, TyParamList *out) {
  NamesEnv env = {generic, seen, out};
  generic_names_in(t, &env);
}

void ty_generalize_group(TyCheck *c, int n, IrType **types, const TyParamList *declared, IrType **schemes) {
  TyCtx *cx = &c->cx;
  /* 1. The holes that may be generalized: those of the types above the current level, and those
   *    of the open relations about them (an intermediate result that only relations mention). A
   *    relation that also mentions a hole from outside keeps its holes shared with the outside.
   *    Membership is a mark on the hole (and on the relation), so this is linear. */
  uint32_t in_generic = ++cx->epoch;
  /* Shared with the outside, found so: never generalized, whatever a later round finds. Each
   * round that restarts marks at least one more hole so, so the rounds end (a hole marked only
   * out of the set for one round was taken back in by the next, and two relations could pass it
   * back and forth forever). */
  uint32_t shared = ++cx->epoch;
  TyIdList generic = {0}, hs = {0};
  for (int i = 0; i < n; i++) {
    TyIdList holes = {0};
    ty_holes_of(cx, types[i], &holes);
    for (int k = 0; k < holes.len; k++) {
      TyVar *v = &cx->vars.items[holes.items[k]];
      if (!may_generalize(cx, holes.items[k]) || v->mark == in_generic) continue;
      v->mark = in_generic;
      IR_VEC_PUSH(generic, holes.items[k]);
    }
  }
  IR_VEC(TyRelation *) owned = {0};
  for (bool restart = true; restart;) {
    restart = false;
    owned.len = 0;
    uint32_t is_owned = ++cx->epoch;
    for (int g = 0; g < generic.len && !restart; g++) { /* `generic` grows as relations add holes */
      TyIdList *rels = &cx->vars.items[generic.items[g]].rels;
      for (int r = 0; r < rels->len && !restart; r++) {
        TyRelation *rel = cx->rels.items[rels->items[r]];
        if (rel->solved || rel->owned || rel->mark == is_owned) continue;
        relation_holes(cx, rel, &hs);
        bool inside = true;
        for (int k = 0; k < hs.len; k++)
          inside &= may_generalize(cx, hs.items[k]) && cx->vars.items[hs.items[k]].mark != shared;
        if (inside) {
          rel->mark = is_owned;
          IR_VEC_PUSH(owned, rel);
          for (int k = 0; k < hs.len; k++) {
            TyVar *v = &cx->vars.items[hs.items[k]];
            if (v->mark == in_generic) continue;
            v->mark = in_generic;
            IR_VEC_PUSH(generic, hs.items[k]);
          }
          continue;
        }
        for (int k = 0; k < hs.len; k++) { /* keep these shared with the enclosing scope */
          TyVar *v = &cx->vars.items[hs.items[k]];
          if (v->mark == in_generic) restart = true;
          v->mark = shared;
        }
      }
    }
    if (!restart) break;
    int kept = 0;
    for (int g = 0; g < generic.len; g++)
      if (cx->vars.items[generic.items[g]].mark == in_generic) generic.items[kept++] = generic.items[g];
    generic.len = kept;
  }
  /* 2. Name them in order of first appearance, avoiding the names already in use: the name
   *    written for one (`n` in `fn (%x : Tensor[(n, 784), float32])`) if free, else t1, n1... */
  IrSymMap used = {0}, names = {0};
  for (int i = 0; i < n; i++) {
    var_names(ty_resolve(cx, types[i]), &used);
    for (int k = 0; k < declared[i].len; k++) ir_symmap_put(&used, declared[i].items[k].name, (void *)1);
  }
  int counters[5] = {0};
  for (int g = 0; g < generic.len; g++) {
    TyVar *v = &cx->vars.items[generic.items[g]];
    IrKind k = v->kind == IR_KIND_UNKNOWN ? IR_KIND_TYPE : v->kind;
    Sym name = v->hint;
    if (!name || ir_symmap_get(&used, name)) do
        name = ir_sym(ir_printf("%s%d", prefix_of(k), ++counters[k]));
      while (ir_symmap_get(&used, name));
    ir_symmap_put(&used, name, (void *)1);
    IrTypeParam *p = IR_NEW(IrTypeParam);
    *p = (IrTypeParam){name, k, v->origin};
    ir_symmap_put(&names, name, p);
    v->resolved = ir_type_var(name, k, (IrSpan){0}); /* no wake: what it stands for is settled */
  }
  /* 3. The relations, resolved, without repeats (a declared `where` and the body's own), each
   *    with the generalized parameters it mentions, indexed by parameter. */
  IR_VEC(IrRel) rels = {0};
  IR_VEC(TyParamList) rel_params = {0};
  IrSymMap by_param = {0}; /* parameter -> TyIdList of rels */
  /* the relations kept so far, by hash (open addressing; -1 empty): a repeat is one equal to
   * (ir_rel_equal) one kept */
  int cap = 16;
  while (cap < 2 * owned.len) cap *= 2;
  int *kept = IR_NEW_ARRAY(int, (size_t)cap);
  for (int i = 0; i < cap; i++) kept[i] = -1;
  for (int r = 0; r < owned.len; r++) {
    TyRelation *rel = owned.items[r];
    rel->owned = true;
    IrRel ir = {ir_sym(rel->name), rel->nargs, IR_NEW_ARRAY(IrType *, rel->nargs), rel->span, rel->nattrs,
                rel->written, rel->attrs, rel->id + 1};
    uint64_t h = (uint64_t)(uintptr_t)ir.name * 31 + (uint64_t)ir.nattrs;
    for (int i = 0; i < rel->nargs; i++) {
      ir.args[i] = ty_resolve(cx, rel->args[i]);
      h = h * 31 + ir_type_hash(ir.args[i]);
    }
    size_t slot = (size_t)(h ^ h >> 29) & (size_t)(cap - 1);
    while (kept[slot] >= 0 && !ir_rel_equal(&rels.items[kept[slot]], &ir)) slot = (slot + 1) & (size_t)(cap - 1);
    if (kept[slot] >= 0) continue;
    kept[slot] = rels.len;
    TyParamList mentioned = {0};
    IrSymMap seen = {0};
    for (int a = 0; a < ir.nargs; a++) generic_names(ir.args[a], &names, &seen, &mentioned);
    for (int k = 0; k < mentioned.len; k++) {
      TyIdList *list = ir_symmap_get(&by_param, mentioned.items[k].name);
      if (!list) ir_symmap_put(&by_param, mentioned.items[k].name, list = IR_NEW(TyIdList));
      IR_VEC_PUSH(*list, (uint32_t)rels.len);
    }
    IR_VEC_PUSH(rels, ir);
    IR_VEC_PUSH(rel_params, mentioned);
  }
  /* 4. Each type's scheme: its declared parameters, the generalized ones it mentions, and those
   *    its relations bring in (a worklist over the index); the relations that mention any of
   *    them, in the order they were made. */
  for (int i = 0; i < n; i++) {
    IrType *t = ty_resolve(cx, types[i]);
    TyParamList params = {0}, reached = {0};
    IrSymMap seen = {0};
    generic_names(t, &names, &seen, &reached);
    bool *taken = IR_NEW_ARRAY(bool, rels.len + 1);
    TyIdList mine_ids = {0};
    for (int w = 0; w < reached.len; w++) {
      TyIdList *list = ir_symmap_get(&by_param, reached.items[w].name);
      for (int k = 0; list && k < list->len; k++) {
        uint32_t r = list->items[k];
        if (taken[r]) continue;
        taken[r] = true;
        IR_VEC_PUSH(mine_ids, r);
        for (int q = 0; q < rel_params.items[r].len; q++)
          if (!ir_symmap_get(&seen, rel_params.items[r].items[q].name)) {
            ir_symmap_put(&seen, rel_params.items[r].items[q].name, (void *)1);
            IR_VEC_PUSH(reached, rel_params.items[r].items[q]);
          }
      }
    }
    if (mine_ids.len > 1) qsort(mine_ids.items, (size_t)mine_ids.len, sizeof(uint32_t), compare_ids);
    /* Parameters: declared, then those of the type in order of appearance, then those only the
     * relations bring in, in the relations' order. */
    IrSymMap listed = {0};
    for (int k = 0; k < declared[i].len; k++) IR_VEC_PUSH(params, declared[i].items[k]);
    IrSymMap in_type = {0};
    TyParamList of_type = {0};
    generic_names(t, &names, &in_type, &of_type);
    for (int k = 0; k < of_type.len; k++) {
      IR_VEC_PUSH(params, of_type.items[k]);
      ir_symmap_put(&listed, of_type.items[k].name, (void *)1);
    }
    IR_VEC(IrRel) mine = {0};
    for (int k = 0; k < mine_ids.len; k++) {
      uint32_t r = mine_ids.items[k];
      IR_VEC_PUSH(mine, rels.items[r]);
      for (int q = 0; q < rel_params.items[r].len; q++)
        if (!ir_symmap_get(&listed, rel_params.items[r].items[q].name)) {
          ir_symmap_put(&listed, rel_params.items[r].items[q].name, (void *)1);
          IR_VEC_PUSH(params, rel_params.items[r].items[q]);
        }
    }
    if (t->kind != IR_TYPE_FUNC || (params.len == 0 && mine.len == 0)) {
      schemes[i] = t; /* a polymorphic value (Nil() : List[t1]) prints its parameters by name */
      continue;
    }
    IrType *f = ir_type_new(IR_TYPE_FUNC, t->span);
    f->u.func = t->u.func;
    f->u.func.ntparams = params.len;
    f->u.func.tparams = params.items;
    f->u.func.nrels = mine.len;
    f->u.func.rels = mine.items;
    schemes[i] = f;
  }
}

IrType *ty_generalize(TyCheck *c, IrType *t, int ndeclared, const IrTypeParam *declared) {
  TyParamList d = {(IrTypeParam *)declared, ndeclared, ndeclared};
  IrType *scheme;
  ty_generalize_group(c, 1, &t, &d, &scheme);
  return scheme;
}
