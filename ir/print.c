/* The canonical printer. Each expression has a precedence; a child is parenthesised when its
 * precedence is below what its position requires, so the output reparses to the same tree.
 * Blocks print on one line when their body is small and has no block of its own. */
#include "ir/print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/op.h"
#include "ir/symmap.h"
#include "ir/typed.h"

enum { PREC_SEQ = 0, PREC_EXPR = 1 }; /* below IR_PREC_OR: lets need parentheses unless in tail */

static void print_type(IrBuf *b, const IrType *t, bool nested);
typedef struct Printer Printer;
static void print_expr(Printer *p, const IrExpr *e, int ind, int ctx);

/* ---------------------------------------------------------------- literals */

void ir_print_double(IrBuf *b, double v) {
  if (!isfinite(v)) { /* with the suffix that must follow: `inff`, `-inff`, `nanf`, `-nanf` (as written) */
    ir_buf_puts(b, isnan(v) ? (signbit(v) ? "-nan" : "nan") : v < 0 ? "-inf" : "inf");
    return;
  }
  char text[400];
  int prec = 1;
  for (; prec < 17; prec++) {
    snprintf(text, sizeof text, "%.*g", prec, v);
    if (strtod(text, NULL) == v) break;
  }
  snprintf(text, sizeof text, "%.*g", prec, v);
  /* Plain notation for ordinary magnitudes (1000, not 1e+03), exponents beyond them. */
  int exp10 = v != 0 && isfinite(v) ? (int)floor(log10(fabs(v))) : 0;
  if (exp10 >= -5 && exp10 < 17) snprintf(text, sizeof text, "%.*f", prec - 1 - exp10 > 0 ? prec - 1 - exp10 : 0, v);
  ir_buf_puts(b, text);
}

void ir_print_lit(IrBuf *b, const IrLit *lit) {
  switch (lit->kind) {
  case IR_LIT_BOOL: ir_buf_puts(b, lit->b ? "True" : "False"); return;
  case IR_LIT_INT:
    ir_buf_printf(b, "%s%llu", lit->neg ? "-" : "", (unsigned long long)lit->mag);
    break;
  case IR_LIT_FLOAT: {
    IrBuf num;
    ir_buf_init(&num);
    ir_print_double(&num, lit->f);
    ir_buf_puts(b, num.data);
    /* Without a suffix, a decimal literal must look decimal to read back as one. */
    if (!lit->suffixed && !strpbrk(num.data, ".e")) ir_buf_puts(b, ".0");
    break;
  }
  }
  if (lit->suffixed) ir_buf_puts(b, lit->suffix);
}

static void print_string(IrBuf *b, const char *s, size_t n) {
  ir_buf_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '\n': ir_buf_puts(b, "\\n"); break;
    case '\t': ir_buf_puts(b, "\\t"); break;
    case '\r': ir_buf_puts(b, "\\r"); break;
    case '\0': ir_buf_puts(b, "\\0"); break;
    case '\\': ir_buf_puts(b, "\\\\"); break;
    case '"': ir_buf_puts(b, "\\\""); break;
    default:
      if (c < 0x20 || c == 0x7f) ir_buf_printf(b, "\\x%02x", c);
      else ir_buf_putc(b, (char)c);
    }
  }
  ir_buf_putc(b, '"');
}

void ir_print_attr_value(IrBuf *b, const IrAttrVal *v) {
  switch (v->kind) {
  case IR_ATTR_LIT: ir_print_lit(b, &v->lit); break;
  case IR_ATTR_STR: print_string(b, v->str, v->len); break;
  case IR_ATTR_NONE: ir_buf_puts(b, "None"); break;
  case IR_ATTR_META: ir_buf_printf(b, "meta[%s][%lld]", v->meta_kind->name, (long long)v->meta_index); break;
  case IR_ATTR_LIST:
    ir_buf_putc(b, '[');
    for (int i = 0; i < v->n; i++) {
      if (i) ir_buf_puts(b, ", ");
      ir_print_attr_value(b, &v->items[i]);
    }
    ir_buf_putc(b, ']');
    break;
  }
}

/* ---------------------------------------------------------------- types */

static int dim_prec(const IrType *d) {
  if (d->kind != IR_TYPE_DIMOP) return 3;
  return d->u.dimop.op == '*' ? 2 : 1;
}

static void print_dim(IrBuf *b, const IrType *d, int ctx) {
  bool paren = dim_prec(d) < ctx;
  if (paren) ir_buf_putc(b, '(');
  if (d->kind == IR_TYPE_DIMOP) {
    int p = dim_prec(d);
    print_dim(b, d->u.dimop.a, p);
    ir_buf_printf(b, " %c ", d->u.dimop.op);
    print_dim(b, d->u.dimop.b, p + 1);
  } else {
    print_type(b, d, true);
  }
  if (paren) ir_buf_putc(b, ')');
}

static void print_type_list(IrBuf *b, int n, IrType *const *ts) {
  for (int i = 0; i < n; i++) {
    if (i) ir_buf_puts(b, ", ");
    print_type(b, ts[i], true);
  }
}

static void print_tparams(IrBuf *b, int n, const IrTypeParam *ps) {
  if (n == 0) return;
  ir_buf_putc(b, '<');
  for (int i = 0; i < n; i++) {
    if (i) ir_buf_puts(b, ", ");
    ir_buf_puts(b, ps[i].name->name);
    if (ps[i].kind != IR_KIND_TYPE && ps[i].kind != IR_KIND_UNKNOWN)
      ir_buf_printf(b, " : %s", ir_kind_name(ps[i].kind));
  }
  ir_buf_putc(b, '>');
}

/* Relations separated by commas, or, inside a list of types where a comma would end them, each
 * after its own `where`. */
static void print_rels(IrBuf *b, int n, const IrRel *rels, bool nested) {
  if (n == 0) return;
  ir_buf_puts(b, " where ");
  for (int i = 0; i < n; i++) {
    if (i) ir_buf_puts(b, nested ? " where " : ", ");
    ir_buf_puts(b, rels[i].name->name);
    if (rels[i].nargs >= 0) {
      ir_buf_putc(b, '(');
      print_type_list(b, rels[i].nargs, rels[i].args);
      for (int k = 0; k < rels[i].nattrs; k++) {
        ir_buf_printf(b, ", %s=", rels[i].attrs[k].key->name);
        ir_print_attr_value(b, &rels[i].attrs[k].val);
      }
      ir_buf_putc(b, ')');
    }
  }
}

/* A result type is parenthesised when it is a function type and a `where` follows it, which
 * would otherwise be read as the inner function's. */
static void print_result(IrBuf *b, const IrType *ret, int nrels) {
  bool paren = nrels > 0 && ret->kind == IR_TYPE_FUNC;
  if (paren) ir_buf_putc(b, '(');
  print_type(b, ret, !paren && nrels > 0);
  if (paren) ir_buf_putc(b, ')');
}

/* nested: the type sits in a list or an annotation, where a function type's `where` clause
 * could swallow what follows; such a type is then parenthesised. */
static void print_type(IrBuf *b, const IrType *t, bool nested) {
  char name[24];
  switch (t->kind) {
  case IR_TYPE_TENSOR:
    if (ir_type_is_scalar(t)) {
      ir_buf_puts(b, ir_dtype_name(t->u.tensor.dtype->u.dtype, name));
      return;
    }
    ir_buf_puts(b, "Tensor[");
    print_type(b, t->u.tensor.shape, true);
    ir_buf_puts(b, ", ");
    print_type(b, t->u.tensor.dtype, true);
    ir_buf_putc(b, ']');
    return;
  case IR_TYPE_SHAPE:
    ir_buf_putc(b, '(');
    for (int i = 0; i < t->u.shape.rank; i++) {
      if (i) ir_buf_puts(b, ", ");
      print_dim(b, t->u.shape.dims[i], 0);
    }
    ir_buf_putc(b, ')');
    return;
  case IR_TYPE_DIM: ir_buf_printf(b, "%lld", (long long)t->u.dim); return;
  case IR_TYPE_ANY: ir_buf_putc(b, '?'); return;
  case IR_TYPE_DIMOP: print_dim(b, t, 0); return;
  case IR_TYPE_DTYPE: ir_buf_puts(b, ir_dtype_name(t->u.dtype, name)); return;
  case IR_TYPE_VAR: ir_buf_puts(b, t->u.var.name->name); return;
  case IR_TYPE_TUPLE:
    ir_buf_putc(b, '(');
    print_type_list(b, t->u.tuple.n, t->u.tuple.fields);
    if (t->u.tuple.n == 1) ir_buf_putc(b, ',');
    ir_buf_putc(b, ')');
    return;
  case IR_TYPE_FUNC: {
    bool paren = nested && t->u.func.nrels > 0;
    if (paren) ir_buf_putc(b, '(');
    ir_buf_puts(b, "fn");
    print_tparams(b, t->u.func.ntparams, t->u.func.tparams);
    ir_buf_putc(b, '(');
    print_type_list(b, t->u.func.nargs, t->u.func.args);
    ir_buf_puts(b, ") -> ");
    print_result(b, t->u.func.ret, t->u.func.nrels);
    print_rels(b, t->u.func.nrels, t->u.func.rels, nested);
    if (paren) ir_buf_putc(b, ')');
    return;
  }
  case IR_TYPE_CALL:
    /* A data type without parameters, as the checker resolved it, is its name (`Shape`), as an
     * annotation writes it; a written `Shape[]` (TVM's form) keeps its brackets, so the source
     * reads back the same. */
    if (t->u.call.nargs == 0 && t->u.call.adt) {
      ir_buf_puts(b, t->u.call.name->name);
      return;
    }
    ir_buf_printf(b, "%s[", t->u.call.name->name);
    print_type_list(b, t->u.call.nargs, t->u.call.args);
    ir_buf_putc(b, ']');
    return;
  case IR_TYPE_REF:
    ir_buf_puts(b, "ref(");
    print_type(b, t->u.ref, false);
    ir_buf_putc(b, ')');
    return;
  case IR_TYPE_HOLE: ir_buf_putc(b, '_'); return; /* a type nothing determined (:annot @length(Nil())) */
  }
}

void ir_print_type(IrBuf *b, const IrType *t) { print_type(b, t, false); }

/* ---------------------------------------------------------------- the printer's state */

/* What one printing call writes to, and how: `types` adds the inferred type of every binding and
 * call as a comment (:annot), which needs a checked AST and leaves the text parsing the same. */
struct Printer {
  IrBuf *b;
  const IrPtrMap *types; /* when printing types: each node of the AST -> the type the checker found */
  const void *mark;      /* the node a type error is about (:annot of an ill-typed expression), or NULL */
};

/* The type the checker found for an AST node (an expression or a pattern), or NULL. */
static const IrType *type_of(const Printer *p, const void *node) {
  return p->types ? ir_ptrmap_get(p->types, node) : NULL;
}

/* The comment `ty=T` after a node, when printing types and the checker gave the node one. */
static void type_comment(Printer *p, const IrType *t) {
  if (!p->types || !t) return;
  ir_buf_puts(p->b, " /* ty=");
  print_type(p->b, t, false);
  ir_buf_puts(p->b, " */");
}

/* The comment after the node a type error is about. */
static void mark_comment(Printer *p, const void *node) {
  if (node && node == p->mark) ir_buf_puts(p->b, " /* <- type error here */");
}

/* ---------------------------------------------------------------- patterns */

static void print_pattern(Printer *p, const IrPattern *pat) {
  IrBuf *b = p->b;
  switch (pat->kind) {
  case IR_PAT_WILD: ir_buf_putc(b, '_'); break;
  case IR_PAT_VAR:
    ir_buf_printf(b, "%%%s", pat->name->name);
    if (pat->ann) {
      ir_buf_puts(b, " : ");
      print_type(b, pat->ann, true);
    } else {
      type_comment(p, type_of(p, pat));
    }
    mark_comment(p, pat);
    return;
  case IR_PAT_CTOR:
  case IR_PAT_TUPLE:
    if (pat->kind == IR_PAT_CTOR) ir_buf_puts(b, pat->name->name);
    ir_buf_putc(b, '(');
    for (int i = 0; i < pat->n; i++) {
      if (i) ir_buf_puts(b, ", ");
      print_pattern(p, pat->args[i]);
    }
    if (pat->kind == IR_PAT_TUPLE && pat->n == 1) ir_buf_putc(b, ',');
    ir_buf_putc(b, ')');
    mark_comment(p, pat);
    return;
  }
  mark_comment(p, pat); /* `_` */
}

void ir_print_pattern(IrBuf *b, const IrPattern *pat) { print_pattern(&(Printer){b, NULL, NULL}, pat); }

/* ---------------------------------------------------------------- expressions */

static const IrInfix *sugar(const IrExpr *e) {
  if (e->kind != IR_EXPR_CALL || e->u.call.callee->kind != IR_EXPR_OP) return NULL;
  if (e->u.call.nattrs || e->u.call.ntargs) return NULL;
  return ir_infix_of((IrOpId)e->u.call.callee->u.op, e->u.call.nargs);
}

static int expr_prec(const IrExpr *e) {
  if (e->kind == IR_EXPR_LET) return PREC_SEQ;
  const IrInfix *s = sugar(e);
  if (s) return s->prec;
  if (e->kind == IR_EXPR_LIT && ((e->u.lit.kind == IR_LIT_INT && e->u.lit.neg) ||
                                 (e->u.lit.kind == IR_LIT_FLOAT && signbit(e->u.lit.f))))
    return IR_PREC_UNARY;
  return IR_PREC_POSTFIX;
}

/* Whether a block body is small and flat enough to print on the line of its braces. */
static int flat_size(const IrExpr *e, int budget) {
  if (budget <= 0) return budget;
  switch (e->kind) {
  case IR_EXPR_LET:
  case IR_EXPR_FN:
  case IR_EXPR_IF:
  case IR_EXPR_MATCH: return 0;
  case IR_EXPR_TENSOR: return budget - (int)(e->u.tensor.count > 16 ? budget : e->u.tensor.count);
  case IR_EXPR_TUPLE:
    budget--;
    for (int i = 0; i < e->u.tuple.n && budget > 0; i++) budget = flat_size(e->u.tuple.fields[i], budget);
    return budget;
  case IR_EXPR_PROJ: return flat_size(e->u.proj.tuple, budget - 1);
  case IR_EXPR_CALL:
    budget = flat_size(e->u.call.callee, budget - 1 - e->u.call.nattrs);
    for (int i = 0; i < e->u.call.nargs && budget > 0; i++) budget = flat_size(e->u.call.args[i], budget);
    return budget;
  case IR_EXPR_REF:
  case IR_EXPR_REF_READ: return flat_size(e->u.ref.a, budget - 1);
  case IR_EXPR_REF_WRITE: return flat_size(e->u.ref.b, flat_size(e->u.ref.a, budget - 1));
  default: return budget - 1;
  }
}

static void newline(IrBuf *b, int ind) {
  ir_buf_putc(b, '\n');
  ir_buf_indent(b, ind);
}

/* `{ body }`, on one line when the body is small, else with the body indented. With types, a
 * call in the body carries a comment, so only a body without calls stays on one line. */
static void print_block(Printer *p, const IrExpr *body, int ind) {
  if (flat_size(body, p->types ? 2 : 12) > 0) {
    ir_buf_puts(p->b, "{ ");
    print_expr(p, body, ind + 2, PREC_SEQ);
    ir_buf_puts(p->b, " }");
    return;
  }
  ir_buf_putc(p->b, '{');
  newline(p->b, ind + 2);
  print_expr(p, body, ind + 2, PREC_SEQ);
  newline(p->b, ind);
  ir_buf_putc(p->b, '}');
}

/* fn_type: the function's checked type, whose argument types the parameters show with types. */
static void print_params(Printer *p, const IrFn *fn, const IrType *fn_type) {
  IrBuf *b = p->b;
  bool typed = fn_type && fn_type->kind == IR_TYPE_FUNC && fn_type->u.func.nargs == fn->nparams;
  ir_buf_putc(b, '(');
  for (int i = 0; i < fn->nparams; i++) {
    if (i) ir_buf_puts(b, ", ");
    ir_buf_printf(b, "%%%s", fn->params[i].name->name);
    for (int k = 0; k < fn->params[i].nattrs; k++) { /* `%x {virtual_device=...}` */
      ir_buf_printf(b, "%s%s=", k ? ", " : " {", fn->params[i].attrs[k].key->name);
      ir_print_attr_value(b, &fn->params[i].attrs[k].val);
      if (k == fn->params[i].nattrs - 1) ir_buf_putc(b, '}');
    }
    if (fn->params[i].ann) {
      ir_buf_puts(b, " : ");
      print_type(b, fn->params[i].ann, true);
    } else if (typed) {
      type_comment(p, fn_type->u.func.args[i]);
    }
  }
  for (int i = 0; i < fn->nattrs; i++) { /* TVM's function attributes: `Primitive=1` */
    ir_buf_printf(b, "%s%s=", fn->nparams || i ? ", " : "", fn->attrs[i].key->name);
    ir_print_attr_value(b, &fn->attrs[i].val);
  }
  ir_buf_putc(b, ')');
}

/* Everything after `fn` or `def @name`. */
static void print_fn_rest(Printer *p, const IrFn *fn, const IrType *fn_type, int ind) {
  IrBuf *b = p->b;
  print_tparams(b, fn->ntparams, fn->tparams);
  print_params(p, fn, fn_type);
  if (fn->ret) {
    ir_buf_puts(b, " -> ");
    print_result(b, fn->ret, fn->nrels);
  }
  print_rels(b, fn->nrels, fn->rels, false);
  ir_buf_putc(b, ' ');
  print_block(p, fn->body, ind);
}

static void print_args(Printer *p, const IrExpr *e, int ind) {
  IrBuf *b = p->b;
  ir_buf_putc(b, '(');
  for (int i = 0; i < e->u.call.nargs; i++) {
    if (i) ir_buf_puts(b, ", ");
    print_expr(p, e->u.call.args[i], ind, PREC_EXPR);
  }
  for (int i = 0; i < e->u.call.nattrs; i++) {
    if (i || e->u.call.nargs) ir_buf_puts(b, ", ");
    ir_buf_printf(b, "%s=", e->u.call.attrs[i].key->name);
    ir_print_attr_value(b, &e->u.call.attrs[i].val);
  }
  ir_buf_putc(b, ')');
}

static void print_tensor_level(IrBuf *b, const IrExpr *e, int level, int64_t *index) {
  ir_buf_putc(b, '[');
  for (int64_t i = 0; i < e->u.tensor.shape[level]; i++) {
    if (i) ir_buf_puts(b, ", ");
    if (level + 1 < e->u.tensor.rank) print_tensor_level(b, e, level + 1, index);
    else ir_print_lit(b, &e->u.tensor.elems[(*index)++]);
  }
  ir_buf_putc(b, ']');
}

static void print_shape_dims(IrBuf *b, int rank, const int64_t *shape) {
  ir_buf_putc(b, '(');
  for (int i = 0; i < rank; i++) ir_buf_printf(b, "%s%lld", i ? ", " : "", (long long)shape[i]);
  ir_buf_putc(b, ')');
}

/* A chain of lets, one binding a line; iterative, so long chains cost no stack. With types, a
 * bound value that is no call (which carries its own) gets its type after it. */
static void print_lets(Printer *p, const IrExpr *e, int ind) {
  IrBuf *b = p->b;
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) {
    const IrParam *v = &e->u.let.var;
    if (e->u.let.value->kind == IR_EXPR_FREE) { /* `free_var %x : T;` */
      ir_buf_printf(b, "free_var %%%s", v->name->name);
      if (v->ann) {
        ir_buf_puts(b, " : ");
        print_type(b, v->ann, true);
      } else {
        type_comment(p, type_of(p, e->u.let.value));
      }
      ir_buf_putc(b, ';');
      mark_comment(p, e);
      newline(b, ind);
      continue;
    }
    if (e->u.let.how == IR_LET_GRAPH) {
      ir_buf_printf(b, "%%%s = ", v->name->name);
    } else if (v->name != ir_sym_seq() || v->ann) {
      ir_buf_printf(b, "let %%%s", v->name->name);
      if (v->ann) {
        ir_buf_puts(b, " : ");
        print_type(b, v->ann, true);
      }
      ir_buf_puts(b, " = ");
    }
    const IrExpr *value = e->u.let.value;
    print_expr(p, value, ind, PREC_EXPR);
    if (value->kind != IR_EXPR_CALL && value->kind != IR_EXPR_HOLE && v->name != ir_sym_seq() && value != p->mark)
      type_comment(p, type_of(p, value)); /* a call, a hole and the marked node have said it */
    ir_buf_putc(b, ';');
    mark_comment(p, e);
    newline(b, ind);
  }
  print_expr(p, e, ind, PREC_EXPR);
}

static void print_match(Printer *p, const IrExpr *e, int ind) {
  IrBuf *b = p->b;
  ir_buf_puts(b, e->u.match.partial ? "match? (" : "match (");
  print_expr(p, e->u.match.scrut, ind, PREC_SEQ);
  ir_buf_puts(b, ") {");
  for (int i = 0; i < e->u.match.nclauses; i++) {
    newline(b, ind + 2);
    ir_buf_puts(b, "case ");
    print_pattern(p, e->u.match.clauses[i].pat);
    ir_buf_putc(b, ' ');
    print_block(p, e->u.match.clauses[i].body, ind + 2);
  }
  newline(b, ind);
  ir_buf_putc(b, '}');
}

static void print_call(Printer *p, const IrExpr *e, int ind) {
  IrBuf *b = p->b;
  const IrInfix *s = sugar(e);
  /* An error about the callee marks the call: infix sugar hides the callee, and a comment between
   * `@f` and `<int32>` would part the type arguments from it. */
  if (p->mark && p->mark == e->u.call.callee) p->mark = e;
  if (s && e->u.call.nargs == 2) {
    print_expr(p, e->u.call.args[0], ind, s->prec);
    ir_buf_printf(b, " %s ", s->text);
    print_expr(p, e->u.call.args[1], ind, s->prec + 1);
  } else if (s) {
    /* `-(2)` keeps negating a literal apart from the literal -2. */
    const IrExpr *a = e->u.call.args[0];
    ir_buf_puts(b, s->text);
    bool wrap = a->kind == IR_EXPR_LIT || (sugar(a) && sugar(a)->prec == IR_PREC_UNARY);
    if (wrap) ir_buf_putc(b, '(');
    print_expr(p, a, ind, IR_PREC_UNARY);
    if (wrap) ir_buf_putc(b, ')');
  } else {
    print_expr(p, e->u.call.callee, ind, IR_PREC_POSTFIX);
    if (e->u.call.ntargs) {
      ir_buf_putc(b, '<');
      print_type_list(b, e->u.call.ntargs, e->u.call.targs);
      ir_buf_putc(b, '>');
    }
    print_args(p, e, ind);
  }
}

static void print_expr(Printer *p, const IrExpr *e, int ind, int ctx) {
  IrBuf *b = p->b;
  /* With types, a call or a hole that is an operand (of an operator, a projection, a call) is
   * parenthesised with its comment, so that each comment plainly belongs to the node before it. */
  bool commented = e->kind == IR_EXPR_CALL || e->kind == IR_EXPR_HOLE;
  bool paren = expr_prec(e) < ctx || (p->types && commented && ctx > PREC_EXPR);
  if (paren) ir_buf_putc(b, '(');
  switch (e->kind) {
  case IR_EXPR_LOCAL: ir_buf_printf(b, "%%%s", e->u.name->name); break;
  case IR_EXPR_GLOBAL: ir_buf_printf(b, "@%s", e->u.name->name); break;
  case IR_EXPR_CTOR: ir_buf_puts(b, e->u.name->name); break;
  case IR_EXPR_OP: ir_buf_puts(b, ir_ops[e->u.op].name); break;
  case IR_EXPR_LIT: ir_print_lit(b, &e->u.lit); break;
  case IR_EXPR_TENSOR: {
    int64_t index = 0;
    print_tensor_level(b, e, 0, &index);
    break;
  }
  case IR_EXPR_FILL:
    ir_buf_puts(b, "Constant(");
    ir_print_lit(b, &e->u.fill.value);
    ir_buf_puts(b, ", ");
    print_shape_dims(b, e->u.fill.rank, e->u.fill.shape);
    char name[24];
    ir_buf_printf(b, ", %s)", ir_dtype_name(e->u.fill.dtype, name));
    break;
  case IR_EXPR_TUPLE:
    ir_buf_putc(b, '(');
    for (int i = 0; i < e->u.tuple.n; i++) {
      if (i) ir_buf_puts(b, ", ");
      print_expr(p, e->u.tuple.fields[i], ind, PREC_EXPR);
    }
    if (e->u.tuple.n == 1) ir_buf_putc(b, ',');
    ir_buf_putc(b, ')');
    break;
  case IR_EXPR_PROJ: {
    /* A number before `.0` would read as a decimal: `(2).0`. */
    const IrExpr *t = e->u.proj.tuple;
    bool wrap = t->kind == IR_EXPR_LIT && expr_prec(t) >= IR_PREC_POSTFIX;
    if (wrap) ir_buf_putc(b, '(');
    print_expr(p, t, ind, IR_PREC_POSTFIX);
    if (wrap) ir_buf_putc(b, ')');
    ir_buf_printf(b, ".%d", e->u.proj.index);
    break;
  }
  case IR_EXPR_LET: print_lets(p, e, paren ? ind + 1 : ind); break;
  case IR_EXPR_FN:
    ir_buf_puts(b, "fn");
    print_fn_rest(p, &e->u.fn, type_of(p, e), ind);
    break;
  case IR_EXPR_CALL:
    print_call(p, e, ind);
    type_comment(p, type_of(p, e));
    break;
  case IR_EXPR_IF:
    for (;;) {
      ir_buf_puts(b, "if (");
      print_expr(p, e->u.ifx.cond, ind, PREC_SEQ);
      ir_buf_puts(b, ") ");
      print_block(p, e->u.ifx.then, ind);
      ir_buf_puts(b, " else ");
      if (e->u.ifx.els->kind != IR_EXPR_IF) break;
      e = e->u.ifx.els;
    }
    print_block(p, e->u.ifx.els, ind);
    break;
  case IR_EXPR_MATCH: print_match(p, e, ind); break;
  case IR_EXPR_REF:
  case IR_EXPR_REF_READ:
    ir_buf_puts(b, e->kind == IR_EXPR_REF ? "ref(" : "ref_read(");
    print_expr(p, e->u.ref.a, ind, PREC_EXPR);
    ir_buf_putc(b, ')');
    break;
  case IR_EXPR_REF_WRITE:
    ir_buf_puts(b, "ref_write(");
    print_expr(p, e->u.ref.a, ind, PREC_EXPR);
    ir_buf_puts(b, ", ");
    print_expr(p, e->u.ref.b, ind, PREC_EXPR);
    ir_buf_putc(b, ')');
    break;
  case IR_EXPR_FREE: ir_buf_printf(b, "free_var %%%s", e->u.name->name); break; /* print_lets writes these */
  case IR_EXPR_META:
    ir_buf_printf(b, "meta[%s][%lld]", e->u.meta.kind->name, (long long)e->u.meta.index);
    type_comment(p, type_of(p, e));
    break;
  case IR_EXPR_HOLE:
    ir_buf_printf(b, "?%s", e->u.name ? e->u.name->name : "");
    type_comment(p, type_of(p, e));
    break;
  }
  if (e == p->mark && e->kind != IR_EXPR_LET) { /* print_lets marks a let */
    if (e->kind != IR_EXPR_CALL && e->kind != IR_EXPR_META && e->kind != IR_EXPR_HOLE) type_comment(p, type_of(p, e));
    mark_comment(p, e);
  }
  if (paren) ir_buf_putc(b, ')');
}

void ir_print_expr(IrBuf *b, const IrExpr *e, int indent) { print_expr(&(Printer){b, NULL, NULL}, e, indent, PREC_SEQ); }

/* ---------------------------------------------------------------- typed programs */

void ir_print_expr_typed(IrBuf *b, const IrTFn *fn, const IrType *type) {
  IrPtrMap types = {0};
  ir_texpr_types(&types, fn->body);
  Printer p = {b, &types, NULL};
  print_expr(&p, fn->src, 0, PREC_SEQ);
  const IrExpr *tail = fn->src; /* what the text ends with: a call or a hole there has said the type already */
  while (tail->kind == IR_EXPR_LET) tail = tail->u.let.body;
  if (tail->kind != IR_EXPR_CALL && tail->kind != IR_EXPR_HOLE) type_comment(&p, type);
}

void ir_print_expr_partial(IrBuf *b, const IrExpr *e, const IrPtrMap *types, const void *mark) {
  Printer p = {b, types, mark};
  print_expr(&p, e, 0, PREC_SEQ);
}

/* ---------------------------------------------------------------- programs */

void ir_print_data_head(IrBuf *b, const IrData *d) {
  ir_buf_printf(b, "%s %s", d->external ? "extern type" : "data", d->name->name);
  print_tparams(b, d->ntparams, d->tparams);
}

static void print_data(IrBuf *b, const IrData *d) {
  ir_print_data_head(b, d);
  if (d->external) return;
  ir_buf_puts(b, " {");
  for (int i = 0; i < d->nctors; i++) {
    const IrCtor *c = &d->ctors[i];
    newline(b, 2);
    ir_buf_printf(b, "%s : (", c->name->name);
    print_type_list(b, c->nargs, c->args);
    ir_buf_printf(b, ") -> %s", d->name->name);
  }
  newline(b, 0);
  ir_buf_putc(b, '}');
}

static void print_item(Printer *p, const IrItem *item) {
  switch (item->kind) {
  case IR_ITEM_DEF:
    ir_buf_printf(p->b, "def @%s", item->name->name);
    print_fn_rest(p, &item->fn->u.fn, type_of(p, item->fn), 0);
    break;
  case IR_ITEM_DATA: print_data(p->b, &item->data); break;
  case IR_ITEM_EXPR: print_expr(p, item->expr, 0, PREC_SEQ); break;
  case IR_ITEM_LET:
    ir_buf_printf(p->b, "let %%%s", item->var.name->name);
    if (item->var.ann) {
      ir_buf_puts(p->b, " : ");
      print_type(p->b, item->var.ann, true);
    }
    ir_buf_puts(p->b, " = ");
    print_expr(p, item->expr->u.let.value, 0, PREC_EXPR);
    break;
  }
}

void ir_print_item(IrBuf *b, const IrItem *item) { print_item(&(Printer){b, NULL, NULL}, item); }

void ir_print_def_typed(IrBuf *b, const IrTDef *def) {
  IrPtrMap types = {0};
  ir_texpr_types(&types, def->fn->body);
  ir_ptrmap_put(&types, def->item->fn, def->scheme);
  print_item(&(Printer){b, &types, NULL}, def->item);
}

void ir_print_def_partial(IrBuf *b, const IrItem *def, const IrPtrMap *types, const void *mark) {
  print_item(&(Printer){b, types, mark}, def);
}

void ir_print_program(IrBuf *b, const IrProgram *prog) {
  if (prog->version) {
    ir_buf_puts(b, "#[version = ");
    print_string(b, prog->version, strlen(prog->version));
    ir_buf_puts(b, "]\n");
  }
  for (int i = 0; i < prog->nitems; i++) {
    const IrItem *it = &prog->items[i];
    /* A blank line around definitions; consecutive expressions stay together. */
    if (i > 0 && (it->kind != IR_ITEM_EXPR || prog->items[i - 1].kind != IR_ITEM_EXPR)) ir_buf_putc(b, '\n');
    ir_print_item(b, it);
    ir_buf_putc(b, '\n');
  }
  if (prog->meta_text) { /* TVM's metadata section, as it was written */
    ir_buf_puts(b, "\n#[metadata]");
    ir_buf_putn(b, prog->meta_text, prog->meta_len);
    if (prog->meta_len && prog->meta_text[prog->meta_len - 1] != '\n') ir_buf_putc(b, '\n');
  }
}

char *ir_type_str(const IrType *t) {
  IrBuf b;
  ir_buf_init(&b);
  ir_print_type(&b, t);
  return b.data;
}
