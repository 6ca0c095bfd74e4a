/* The typed program's shared walks (ir/typed.h holds the structure). */
#include "ir/typed.h"

void ir_texpr_each_child(IrTExpr *e, void (*f)(IrTExpr *child, void *env), void *env) {
  switch (e->kind) {
  case IR_EXPR_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++) f(e->u.tuple.items[i], env);
    return;
  case IR_EXPR_PROJ: f(e->u.proj.tuple, env); return;
  case IR_EXPR_LET:
    f(e->u.let.value, env);
    f(e->u.let.body, env);
    return;
  case IR_EXPR_FN: f(e->u.fn->body, env); return;
  case IR_EXPR_CALL:
    f(e->u.call.callee, env);
    for (int i = 0; i < e->u.call.nargs; i++) f(e->u.call.args[i], env);
    return;
  case IR_EXPR_IF:
    f(e->u.ifx.cond, env);
    f(e->u.ifx.then, env);
    f(e->u.ifx.els, env);
    return;
  case IR_EXPR_MATCH:
    f(e->u.match.scrut, env);
    for (int i = 0; i < e->u.match.nclauses; i++) f(e->u.match.clauses[i].body, env);
    return;
  case IR_EXPR_REF:
  case IR_EXPR_REF_READ: f(e->u.ref.a, env); return;
  case IR_EXPR_REF_WRITE:
    f(e->u.ref.a, env);
    f(e->u.ref.b, env);
    return;
  default: return; /* names, literals, operators, constructors */
  }
}

static void note_pattern(IrPtrMap *m, const IrTPattern *p) {
  if (p->src) ir_ptrmap_put(m, p->src, p->type);
  for (int i = 0; i < p->n; i++) note_pattern(m, p->args[i]);
}

static void note_child(IrTExpr *child, void *m) { ir_texpr_types(m, child); }

void ir_texpr_types(IrPtrMap *m, IrTExpr *e) {
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) { /* a loop: chains can be long */
    ir_ptrmap_put(m, e->src, e->type);
    ir_texpr_types(m, e->u.let.value);
  }
  ir_ptrmap_put(m, e->src, e->type);
  for (int i = 0; e->kind == IR_EXPR_MATCH && i < e->u.match.nclauses; i++) note_pattern(m, e->u.match.clauses[i].pat);
  ir_texpr_each_child(e, note_child, m);
}
