/* Constructors for AST nodes. */
#include "ir/ast.h"

#include <math.h>
#include <stdio.h>

#include "ir/op.h"
#include "ir/print.h"

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

void ir_expr_each_child(const IrExpr *e, void (*f)(const IrExpr *child, void *env), void *env) {
  switch (e->kind) {
  case IR_EXPR_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++) f(e->u.tuple.fields[i], env);
    return;
  case IR_EXPR_PROJ: f(e->u.proj.tuple, env); return;
  case IR_EXPR_LET:
    f(e->u.let.value, env);
    f(e->u.let.body, env);
    return;
  case IR_EXPR_FN: f(e->u.fn.body, env); return;
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

typedef struct {
  IrSpan span;
  const void *best;
  IrSpan best_span;
} NodeAt;

static bool covers(IrSpan outer, IrSpan inner) {
  return outer.src && outer.src == inner.src && outer.off <= inner.off && inner.off + inner.len <= outer.off + outer.len;
}

static void consider(NodeAt *at, const void *node, IrSpan span) {
  if (covers(span, at->span) && (!at->best || span.len <= at->best_span.len)) at->best = node, at->best_span = span;
}

static void pattern_at(const IrPattern *p, NodeAt *at) {
  if (!covers(p->span, at->span)) return;
  consider(at, p, p->span);
  for (int i = 0; i < p->n; i++) pattern_at(p->args[i], at);
}

static void node_at(const IrExpr *e, void *env) {
  NodeAt *at = env;
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) { /* a loop: chains can be long */
    consider(at, e, e->span);
    node_at(e->u.let.value, at);
  }
  consider(at, e, e->span);
  for (int i = 0; e->kind == IR_EXPR_MATCH && i < e->u.match.nclauses; i++) pattern_at(e->u.match.clauses[i].pat, at);
  ir_expr_each_child(e, node_at, at);
}

const void *ir_expr_node_at(const IrExpr *e, IrSpan span, IrSpan *found) {
  NodeAt at = {span, NULL, {0}};
  node_at(e, &at);
  if (found) *found = at.best_span;
  return at.best;
}

bool ir_lit_tvm_int(const IrLit *lit) {
  return lit->kind == IR_LIT_INT && (!lit->suffixed || (lit->dtype.code == IR_DT_INT && lit->dtype.bits >= 16));
}

IrFit ir_lit_fit(const IrLit *lit, IrDType dt, char *why, size_t n) {
  char name[24];
  ir_dtype_name(dt, name);
  if (dt.lanes != 1) { /* a type may have vector lanes (int8x4), a literal not */
    snprintf(why, n, "a literal is one number, and %s has %u lanes", name, (unsigned)dt.lanes);
    return IR_FIT_OUT_OF_RANGE;
  }
  if (dt.code == IR_DT_FLOAT && lit->kind != IR_LIT_BOOL) {
    /* Too large when it rounds to infinity in its dtype (TVM's parser refuses anything above the
     * largest finite value, ValueToFloatImm in src/support/scalars.cc; relay prints the largest
     * float32 as 3.4028235e38f, a little above it, which must read back). */
    double v = lit->kind == IR_LIT_FLOAT ? lit->f : lit->neg ? -(double)lit->mag : (double)lit->mag;
    if (isinf(v) || !isinf(ir_float_round(dt.bits, v))) return IR_FIT_OK;
    IrBuf b;
    ir_buf_init(&b);
    if (lit->kind == IR_LIT_FLOAT) ir_print_double(&b, v);
    else ir_buf_printf(&b, "%s%llu", lit->neg ? "-" : "", (unsigned long long)lit->mag);
    snprintf(why, n, "%s does not fit %s (the largest is %s)", b.data, name,
             dt.bits == 16 ? "65504" : "3.4028235e38");
    return IR_FIT_OUT_OF_RANGE;
  }
  if (lit->kind != IR_LIT_INT || dt.code == IR_DT_BOOL) return IR_FIT_OK;
  uint64_t max, min_mag; /* the range is -min_mag .. max */
  if (dt.code == IR_DT_UINT) {
    if (lit->neg && lit->mag) return IR_FIT_NEGATIVE_UNSIGNED;
    max = dt.bits == 64 ? UINT64_MAX : (UINT64_C(1) << dt.bits) - 1;
    min_mag = 0;
  } else {
    max = (UINT64_C(1) << (dt.bits - 1)) - 1;
    min_mag = max + 1;
  }
  if (lit->mag <= (lit->neg ? min_mag : max)) return IR_FIT_OK;
  if (min_mag)
    snprintf(why, n, "%s%llu does not fit %s (-%llu to %llu)", lit->neg ? "-" : "", (unsigned long long)lit->mag, name,
             (unsigned long long)min_mag, (unsigned long long)max);
  else
    snprintf(why, n, "%llu does not fit %s (0 to %llu)", (unsigned long long)lit->mag, name, (unsigned long long)max);
  return IR_FIT_OUT_OF_RANGE;
}
