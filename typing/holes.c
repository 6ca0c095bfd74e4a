/* Typed holes (`?`, `?name`), as GHC's and Agda's: a hole takes whatever type its place expects,
 * and once its group (a definition's, or a top-level expression's) is solved, checking describes
 * each hole: the type it must have, the relations that still constrain that type, and the local
 * variables in scope with their types (at the REPL, also the session's bindings that fit). The
 * hole's type and its scope's are generalized with the group, so that their unknowns are named as
 * the group's types name them (t1, n1, ...). A chunk with holes does not check (module.c fails it once every
 * group has been described), except for the REPL's :t and :annot, which show its type and its
 * holes. */
#include "typing/check.h"

#include <stdlib.h>

/* Bounds, so that a program of many holes or many variables gets descriptions of a readable size
 * in time linear in its size: the holes described (the rest are counted), the variables in scope
 * each lists (the innermost; the rest are counted), and the REPL's session bindings (the newest). */
enum { MAX_DESCRIBED = 50, MAX_SCOPE = 12, MAX_BINDINGS = 6 };
/* The largest type of a session binding that is tried against a hole (in parts, as types are
 * written out): a binding's type may be shared into a million parts, which no description lists
 * usefully, and each hole would walk it whole. */
enum { MAX_FIT_PARTS = 10000 };

static int by_order(const void *a, const void *b) {
  uint32_t x = (*(TyLocal *const *)a)->order, y = (*(TyLocal *const *)b)->order;
  return x < y ? -1 : x > y;
}

void ty_hole(TyCheck *c, IrTExpr *node) {
  TyHole h = {.node = node, .type = node->type};
  if (c->holes_reported + c->holes.len < MAX_DESCRIBED) {
    IR_VEC(TyLocal *) scope = {0};
    for (size_t i = 0; i < c->locals.cap; i++) { /* the innermost binding of each name in scope */
      TyLocal *l = c->locals.keys[i] ? c->locals.values[i] : NULL;
      if (l && l->name != ir_sym_seq()) IR_VEC_PUSH(scope, l);
    }
    if (scope.len > 1) qsort(scope.items, (size_t)scope.len, sizeof(TyLocal *), by_order);
    h.nscope = scope.len < MAX_SCOPE ? scope.len : MAX_SCOPE;
    h.nhidden = scope.len - h.nscope;
    h.scope = IR_NEW_ARRAY(TyLocal *, h.nscope > 0 ? h.nscope : 1);
    for (int j = 0; j < h.nscope; j++) h.scope[j] = scope.items[h.nhidden + j];
    h.ntparams = c->tparams.len;
    h.tparams = IR_NEW_ARRAY(IrTypeParam, h.ntparams > 0 ? h.ntparams : 1);
    ir_copy(h.tparams, c->tparams.items, sizeof(IrTypeParam) * (size_t)h.ntparams);
  }
  IR_VEC_PUSH(c->holes, h);
}

IrType **ty_hole_types(TyCheck *c, int *n) {
  int count = 0;
  for (int i = 0; i < c->holes.len; i++) count += 1 + c->holes.items[i].nscope;
  IrType **out = IR_NEW_ARRAY(IrType *, count > 0 ? count : 1);
  int k = 0;
  for (int i = 0; i < c->holes.len; i++) {
    const TyHole *h = &c->holes.items[i];
    out[k++] = h->type;
    for (int j = 0; j < h->nscope; j++) out[k++] = h->scope[j]->type;
  }
  *n = count;
  return out;
}

/* ---------------------------------------------------------------- describing */

/* Adds the names of the type variables in t (a type as messages show it: small) to `names`. */
static void var_names(IrType *t, IrSymMap *names);

static void var_names_child(IrType **slot, void *names) { var_names(*slot, names); }

static void var_names(IrType *t, IrSymMap *names) {
  if (t->kind == IR_TYPE_VAR) ir_symmap_put(names, t->u.var.name, (void *)1);
  else ty_each_child(t, var_names_child, names);
}

static bool mentions_any(IrType *t, const IrSymMap *names) {
  IrSymMap in_t = {0};
  var_names(t, &in_t);
  for (size_t i = 0; i < in_t.cap; i++)
    if (in_t.keys[i] && ir_symmap_get(names, (Sym)in_t.keys[i])) return true;
  return false;
}

/* The relations that mention the unknowns of a hole's type: the trigger lists of the holes in it
 * that nothing determined (generalization named them), but for those a variable in scope has too
 * (a relation about `%x` is not about the hole). With out NULL, the walk marks the unknowns of a
 * variable's type instead (`scope` is their mark). */
typedef struct {
  TyCtx *cx;
  TyIdList *out;
  uint32_t epoch, scope;
  long left; /* parts the walk may still visit */
} RelsEnv;

static void rels_of(IrType **slot, void *p) {
  RelsEnv *env = p;
  if (env->left-- <= 0) return;
  IrType *t = *slot;
  if (t->kind != IR_TYPE_HOLE) {
    ty_each_child(t, rels_of, env);
    return;
  }
  TyVar *v = &env->cx->vars.items[ty_find(env->cx, t->u.hole.id)];
  if (v->mark == env->epoch || (env->out && v->mark == env->scope)) return;
  v->mark = env->epoch;
  if (v->resolved && v->resolved->kind != IR_TYPE_VAR) {
    IrType *r = v->resolved;
    rels_of(&r, env);
    return;
  }
  for (int i = 0; env->out && i < v->rels.len; i++) IR_VEC_PUSH(*env->out, v->rels.items[i]);
}

/* ---------------------------------------------------------------- which bindings fit */

/* Whether name is a type parameter declared where the hole is (rigid: the caller chooses it). */
static bool declared(const TyHole *h, Sym name) {
  for (int j = 0; j < h->ntparams; j++)
    if (h->tparams[j].name == name) return true;
  return false;
}

/* A type copied into a scratch context, its variables in `fresh` replaced by their holes there;
 * with h, also every variable not declared where the hole is (an unknown the group left open,
 * which any type may fill), each given a hole on first sight. */
typedef struct {
  TyCtx *cx;
  IrSymMap *fresh;
  const TyHole *h;
} OpenEnv;

static IrType *open_type(IrType *t, void *p) {
  OpenEnv *env = p;
  if (t->kind != IR_TYPE_VAR) return ty_map_children(t, open_type, env);
  IrType *v = ir_symmap_get(env->fresh, t->u.var.name);
  if (!v && env->h && !declared(env->h, t->u.var.name)) {
    v = ty_fresh(env->cx, t->u.var.kind, t->span);
    ir_symmap_put(env->fresh, t->u.var.name, v);
  }
  return v ? v : t;
}

/* Whether a session binding's type (a scheme: its parameters may be anything) fits a hole, as
 * GHC's "valid hole fits": whether it unifies with the hole's type t and then the relations still
 * open over the hole hold (rels, nrels of them; t and they as a message shows them, through
 * `names`, in h's context). Tried in a scratch context, so nothing of the group changes. */
static bool fits(TyCtx *group, const TyHole *h, IrType *t, TyRelation **rels, int nrels, IrSymMap *names,
                 IrType *scheme) {
  TyCtx cx;
  IrDiags diags = {0};
  ty_ctx_init(&cx, &diags);
  if (ty_larger_than(&cx, scheme, MAX_FIT_PARTS, false)) return false;
  IrSymMap hole_vars = {0}, params = {0};
  OpenEnv open = {&cx, &hole_vars, h};
  IrType *want = open_type(t, &open);
  if (scheme->kind == IR_TYPE_FUNC && scheme->u.func.ntparams) {
    for (int i = 0; i < scheme->u.func.ntparams; i++)
      ir_symmap_put(&params, scheme->u.func.tparams[i].name,
                    ty_fresh(&cx, scheme->u.func.tparams[i].kind, scheme->u.func.tparams[i].span));
    scheme = ty_copy_node(scheme);
    scheme->u.func.ntparams = scheme->u.func.nrels = 0;
  }
  if (!ty_unify(&cx, want, open_type(scheme, &(OpenEnv){&cx, &params, NULL}), NULL)) return false;
  for (int i = 0; i < nrels; i++) {
    const TyRelation *r = rels[i];
    IrType **args = IR_NEW_ARRAY(IrType *, r->nargs > 0 ? r->nargs : 1);
    for (int k = 0; k < r->nargs; k++) args[k] = open_type(ty_for_message(group, r->args[k], names), &open);
    TyRelation *copy = ty_relation_add(&cx, r->fn, r->name, r->nargs, args, r->span);
    copy->id = r->id;
    copy->op = r->op;
    copy->global = r->global;
    copy->attrs = r->attrs;
    copy->nattrs = r->nattrs;
    copy->written = r->written;
  }
  return ty_solve(&cx);
}

static void describe(TyCheck *c, const TyHole *h) {
  IrSymMap names = {0}; /* one naming of what generalization left, for every type shown */
  TyCtx *cx = &c->cx;
  const IrExpr *src = h->node->src;
  IrType *t = ty_for_message(cx, h->type, &names);
  const char *type = ir_type_str(t);
  IrDiag *d = src->u.name ? ir_diag_add(c->diags, IR_DIAG_HOLE, src->span, "the hole `?%s` must be %s", src->u.name->name, type)
                          : ir_diag_add(c->diags, IR_DIAG_HOLE, src->span, "the hole must be %s", type);
  /* The relations still open over its unknowns: what `%x + ?` asks of the hole. */
  IrSymMap unknowns = {0};
  var_names(t, &unknowns);
  TyIdList rels = {0};
  RelsEnv in_scope = {cx, NULL, ++cx->epoch, 0, 100000};
  for (int j = 0; j < h->nscope; j++) {
    IrType *st = h->scope[j]->type;
    rels_of(&st, &in_scope);
  }
  IrType *root = h->type;
  rels_of(&root, &(RelsEnv){cx, &rels, ++cx->epoch, in_scope.epoch, 100000});
  uint32_t said = ++cx->epoch;
  int nrels = 0;
  TyRelation **open = IR_NEW_ARRAY(TyRelation *, rels.len > 0 ? rels.len : 1); /* the relations said */
  for (int i = 0; i < rels.len; i++) {
    TyRelation *rel = cx->rels.items[rels.items[i]];
    if (rel->solved || rel->given || rel->mark == said) continue;
    rel->mark = said;
    ir_diag_note(d, "where %s%s", ty_relation_text(cx, rel, &names), rel->op ? ir_printf("  (from `%s`)", rel->op) : "");
    open[nrels++] = rel;
  }
  IrType **scope = IR_NEW_ARRAY(IrType *, h->nscope > 0 ? h->nscope : 1);
  bool elsewhere = nrels > 0; /* whether anything else mentions the hole's type, when it is unknown */
  for (int j = 0; j < h->nscope; j++) {
    scope[j] = ty_for_message(cx, h->scope[j]->type, &names);
    elsewhere |= mentions_any(scope[j], &unknowns);
  }
  bool param = false; /* a declared type parameter: the signature decides it */
  for (int j = 0; t->kind == IR_TYPE_VAR && j < h->ntparams; j++) param |= h->tparams[j].name == t->u.var.name;
  if (param)
    ir_diag_note(d, "its type is the type parameter `%s`, which the caller chooses: only a value of type `%s` fits",
                 t->u.var.name->name, t->u.var.name->name);
  else if (t->kind == IR_TYPE_VAR && !elsewhere)
    ir_diag_note(d, "nothing here decides its type: a value of any type fits");
  if (!h->nscope) {
    ir_diag_note(d, "in scope: no local variables");
  } else {
    ir_diag_note(d, "in scope:");
    if (h->nhidden) ir_diag_note(d, "  (%d more, bound further out)", h->nhidden);
    for (int j = 0; j < h->nscope; j++) ir_diag_note(d, "  %%%s : %s", h->scope[j]->name->name, ir_type_str(scope[j]));
  }
  /* At the REPL, the newest session bindings (`let %w = ...` at the prompt) whose type fits the
   * hole's, but for those a local hides; none when any value fits (the note says so). */
  if (!c->session || (t->kind == IR_TYPE_VAR && !param && !elsewhere)) return;
  const IrTDef *shown[MAX_BINDINGS];
  int n = 0;
  for (int i = c->m->bindings.len - 1; i >= 0 && n < MAX_BINDINGS; i--) {
    const IrTDef *b = c->m->bindings.items[i];
    bool hidden = ir_symmap_get(&c->m->values, b->name) != b;
    for (int j = 0; j < h->nscope && !hidden; j++) hidden = h->scope[j]->name == b->name;
    if (!hidden && fits(cx, h, t, open, nrels, &names, b->scheme)) shown[n++] = b;
  }
  if (n) ir_diag_note(d, "bound at the prompt, of a type that fits%s:", n == MAX_BINDINGS ? " (the newest)" : "");
  for (int i = n - 1; i >= 0; i--) ir_diag_note(d, "  %%%s : %s", shown[i]->name->name, ir_type_str(shown[i]->scheme));
}

void ty_report_holes(TyCheck *c) {
  for (int i = 0; i < c->holes.len; i++) {
    int k = c->holes_reported + i;
    if (k < MAX_DESCRIBED) describe(c, &c->holes.items[i]);
    else if (k == MAX_DESCRIBED)
      ir_diag_add(c->diags, IR_DIAG_HOLE, c->holes.items[i].node->src->span,
                  "this hole and those after it are not described: the first %d are", MAX_DESCRIBED);
  }
  c->holes_reported += c->holes.len;
  c->holes.len = 0;
}
