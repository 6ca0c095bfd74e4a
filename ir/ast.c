/* Constructors for AST nodes. */
#include "ir/ast.h"

IrExpr *ir_expr_new(IrExprKind kind, IrSpan span) {
  IrExpr *e = IR_NEW(IrExpr);
  e->kind = kind;
  e->span = span;
  return e;
}

IrPattern *ir_pattern_new(IrPatKind kind, IrSpan span) {
  IrPattern *p = IR_NEW(IrPattern);
  p->kind = kind;
  p->span = span;
  return p;
}

Sym ir_sym_seq(void) { return ir_sym("_"); }
