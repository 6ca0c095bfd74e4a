/* Typed holes (`?`, `?name`), as GHC's and Agda's: a hole takes whatever type its place expects,
 * and once its group (a definition's, or a top-level expression's) is solved, checking describes
 * each hole: the type it must have, the relations that still constrain that type, and the local
 * variables in scope with their types (at the REPL, also the session's bindings). The hole's type
 * and its scope's are generalized with the group, so that their unknowns are named as the group's
 * types name them (t1, n1, ...). A chunk with holes does not check (module.c fails it once every
 * group has been described), except for the REPL's :t and :annot, which show its type and its
 * holes. */
#include "typing/check.h"

#include <stdlib.h>

/* Bounds, so that a program of many holes or many variables gets descriptions of a readable size
 * in time linear in its size: the holes described (the rest are counted), the variables in scope
 * each lists (the innermost; the rest are counted), and the REPL's session bindings (the newest). */
enum { MAX_DESCRIBED = 50, MAX_SCOPE = 12, MAX_BINDINGS = 6 };

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
  for (int i = 0; i < rels.len; i++) {
    TyRelation *rel = cx->rels.items[rels.items[i]];
    if (rel->solved || rel->given || rel->mark == said) continue;
    rel->mark = said;
    ir_diag_note(d, "where %s%s", ty_relation_text(cx, rel, &names), rel->op ? ir_printf("  (from `%s`)", rel->op) : "");
    nrels++;
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
  if (!c->session) return;
  /* At the REPL, the newest session bindings (`let %w = ...` at the prompt), but for those a local hides. */
  const IrTDef *shown[MAX_BINDINGS];
  int n = 0;
  for (int i = c->m->bindings.len - 1; i >= 0 && n < MAX_BINDINGS; i--) {
    const IrTDef *b = c->m->bindings.items[i];
    bool hidden = ir_symmap_get(&c->m->values, b->name) != b;
    for (int j = 0; j < h->nscope && !hidden; j++) hidden = h->scope[j]->name == b->name;
    if (!hidden) shown[n++] = b;
  }
  if (n) ir_diag_note(d, "bound at the prompt%s:", n == MAX_BINDINGS ? " (the newest)" : "");
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
