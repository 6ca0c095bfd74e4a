/* Test support for typing/: types written as text, where a name starting with `_` is a hole
 * (`Tensor[(_n, 3), _dt]`), the same name giving the same hole within one test context. */
#ifndef TESTS_UNIT_TYPING_SUPPORT_H
#define TESTS_UNIT_TYPING_SUPPORT_H

#include <string.h>

#include "typing/ty.h"

typedef struct {
  TyCtx cx;
  IrDiags diags;
  IR_VEC(Sym) names;
  IR_VEC(IrType *) holes;
} TestTypes;

static void holes_in(TestTypes *tt, IrType **slot);

static void holes_in_all(TestTypes *tt, int n, IrType **ts) {
  for (int i = 0; i < n; i++) holes_in(tt, &ts[i]);
}

static void holes_in(TestTypes *tt, IrType **slot) {
  IrType *t = *slot;
  switch (t->kind) {
  case IR_TYPE_VAR:
    if (t->u.var.name->name[0] != '_') return;
    for (int i = 0; i < tt->names.len; i++)
      if (tt->names.items[i] == t->u.var.name) {
        *slot = tt->holes.items[i];
        return;
      }
    IR_VEC_PUSH(tt->names, t->u.var.name);
    IR_VEC_PUSH(tt->holes, ty_fresh(&tt->cx, t->u.var.kind, (IrSpan){0}));
    *slot = tt->holes.items[tt->holes.len - 1];
    return;
  case IR_TYPE_TENSOR:
    holes_in(tt, &t->u.tensor.shape);
    holes_in(tt, &t->u.tensor.dtype);
    return;
  case IR_TYPE_SHAPE: holes_in_all(tt, t->u.shape.rank, t->u.shape.dims); return;
  case IR_TYPE_DIMOP:
    holes_in(tt, &t->u.dimop.a);
    holes_in(tt, &t->u.dimop.b);
    return;
  case IR_TYPE_TUPLE: holes_in_all(tt, t->u.tuple.n, t->u.tuple.fields); return;
  case IR_TYPE_FUNC:
    holes_in_all(tt, t->u.func.nargs, t->u.func.args);
    holes_in(tt, &t->u.func.ret);
    return;
  case IR_TYPE_CALL: holes_in_all(tt, t->u.call.nargs, t->u.call.args); return;
  case IR_TYPE_REF: holes_in(tt, &t->u.ref); return;
  default: return;
  }
}

static void tt_init(TestTypes *tt) {
  memset(tt, 0, sizeof *tt);
  ty_ctx_init(&tt->cx, &tt->diags);
}

/* The type written in `text`, with `_x` names as holes. */
static IrType *ty(TestTypes *tt, const char *text) {
  const char *src = ir_printf("fn(%%x : %s) { %%x }", text);
  IrDiags d = {0};
  IrParseResult r = ir_parse_program(ir_source_new("t", src, strlen(src)), NULL, &d);
  if (!r.program) return NULL;
  IrType *t = r.program->items[0].expr->u.fn.params[0].ann;
  holes_in(tt, &t);
  return t;
}

/* The hole named `_x`. */
static IrType *hole(TestTypes *tt, const char *name) {
  for (int i = 0; i < tt->names.len; i++)
    if (!strcmp(tt->names.items[i]->name, name)) return tt->holes.items[i];
  return NULL;
}

static const char *shown(TestTypes *tt, IrType *t) { return ir_type_str(ty_resolve(&tt->cx, t)); }

#endif
