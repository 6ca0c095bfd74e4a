/* Typed holes (`?`, `?name`), as GHC's and Agda's: a hole takes whatever type its place expects,
 * and once its group (a definition's, or a top-level expression's) is solved, checking describes
 * each hole: the type it must have, the relations that still constrain that type, and the local
 * variables in scope with their types. The hole's type and its scope's are generalized with the
 * group, so that their unknowns are named as the group's types name them (t1, n1, ...). A chunk
 * with holes does not check (module.c fails it once every group has been described), except for
 * the REPL's :t and :annot, which show its type and its holes. */
#include "typing/check.h"

#include <stdlib.h>

static int by_order(const void *a, const void *b) {
  uint32_t x = (*(TyLocal *const *)a)->order, y = (*(TyLocal *const *)b)->order;
  return x < y ? -1 : x > y;
}

void ty_hole(TyCheck *c, IrTExpr *node) {
  IR_VEC(TyLocal *) scope = {0};
  for (size_t i = 0; i < c->locals.cap; i++) { /* the innermost binding of each name in scope */
    TyLocal *l = c->locals.keys[i] ? c->locals.values[i] : NULL;
    if (l && l->name != ir_sym_seq()) IR_VEC_PUSH(scope, l);
  }
  if (scope.len > 1) qsort(scope.items, (size_t)scope.len, sizeof(TyLocal *), by_order);
  TyHole h = {node, scope.len, scope.items};
  IR_VEC_PUSH(c->holes, h);
}

IrType **ty_hole_types(TyCheck *c, int *n) {
  int count = 0;
  for (int i = 0; i < c->holes.len; i++) count += 1 + c->holes.items[i].nscope;
  IrType **out = IR_NEW_ARRAY(IrType *, count > 0 ? count : 1);
  int k = 0;
  for (int i = 0; i < c->holes.len; i++) {
    const TyHole *h = &c->holes.items[i];
    out[k++] = h->node->type;
    for (int j = 0; j < h->nscope; j++) out[k++] = h->scope[j]->type;
  }
  *n = count;
  return out;
}

/* ---------------------------------------------------------------- describing */

/* Adds the names of the type variables in t (resolved) to `names`. */
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

/* A type as a hole's description shows it: resolved; a hole generalization left (one of no
 * group's types) as messages show it. */
static const char *show(TyCheck *c, IrType *t, IrSymMap *names) {
  return ir_type_str(ty_for_message(&c->cx, ty_resolve(&c->cx, t), names));
}

static void describe(TyCheck *c, const TyHole *h) {
  IrSymMap names = {0};
  const IrExpr *src = h->node->src;
  IrType *t = ty_resolve(&c->cx, h->node->type);
  const char *type = show(c, t, &names);
  IrDiag *d = src->u.name ? ir_diag_add(c->diags, IR_DIAG_HOLE, src->span, "the hole `?%s` must be %s", src->u.name->name, type)
                          : ir_diag_add(c->diags, IR_DIAG_HOLE, src->span, "the hole must be %s", type);
  /* The relations still open over its unknowns: what `? + %x` asks of the hole. */
  IrSymMap unknowns = {0};
  var_names(t, &unknowns);
  int nrels = 0;
  IrSymMap said = {0};
  for (int i = 0; unknowns.count && i < c->cx.rels.len; i++) {
    const TyRelation *rel = c->cx.rels.items[i];
    if (rel->solved || rel->given) continue;
    bool relevant = false;
    IrType **args = IR_NEW_ARRAY(IrType *, rel->nargs > 0 ? rel->nargs : 1);
    for (int k = 0; k < rel->nargs; k++) {
      args[k] = ty_resolve(&c->cx, rel->args[k]);
      relevant |= mentions_any(args[k], &unknowns);
    }
    if (!relevant) continue;
    IrBuf b;
    ir_buf_init(&b);
    ir_buf_printf(&b, "where %s(", rel->name);
    for (int k = 0; k < rel->nargs; k++) ir_buf_printf(&b, "%s%s", k ? ", " : "", show(c, args[k], &names));
    ir_buf_putc(&b, ')');
    if (rel->op) ir_buf_printf(&b, "  (from `%s`)", rel->op);
    if (ir_symmap_get(&said, ir_sym(b.data))) continue;
    ir_symmap_put(&said, ir_sym(b.data), (void *)1);
    ir_diag_note(d, "%s", b.data);
    nrels++;
  }
  bool elsewhere = nrels > 0; /* whether anything else mentions the hole's unknown type */
  for (int j = 0; j < h->nscope && !elsewhere; j++) elsewhere = mentions_any(ty_resolve(&c->cx, h->scope[j]->type), &unknowns);
  if (t->kind == IR_TYPE_VAR && !elsewhere) ir_diag_note(d, "nothing here decides its type: a value of any type fits");
  if (!h->nscope) {
    ir_diag_note(d, "in scope: no local variables");
    return;
  }
  ir_diag_note(d, "in scope:");
  for (int j = 0; j < h->nscope; j++)
    ir_diag_note(d, "  %%%s : %s", h->scope[j]->name->name, show(c, h->scope[j]->type, &names));
}

void ty_report_holes(TyCheck *c) {
  for (int i = 0; i < c->holes.len; i++) describe(c, &c->holes.items[i]);
  c->holes_reported += c->holes.len;
  c->holes.len = 0;
}
