/* The typed program's one shared walk (ir/typed.h holds the structure). */
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
