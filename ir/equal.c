/* Structural equality: a parallel walk that ignores spans and the checker's type slots. */
#include "ir/equal.h"

#include <string.h>

#include "ir/print.h"

static bool lit_equal(const IrLit *a, const IrLit *b) {
  if (a->kind != b->kind || a->suffixed != b->suffixed || strcmp(a->suffix, b->suffix) != 0) return false;
  if (a->suffixed && !ir_dtype_eq(a->dtype, b->dtype)) return false;
  switch (a->kind) {
  case IR_LIT_INT: return a->neg == b->neg && a->mag == b->mag;
  case IR_LIT_FLOAT: return memcmp(&a->f, &b->f, sizeof a->f) == 0;
  default: return a->b == b->b;
  }
}

static bool dims_equal(int rank, const int64_t *a, const int64_t *b) {
  return rank == 0 || memcmp(a, b, sizeof(int64_t) * (size_t)rank) == 0; /* rank 0: no arrays at all */
}

static bool types_equal(int n, IrType *const *a, IrType *const *b) {
  for (int i = 0; i < n; i++)
    if (!ir_type_equal(a[i], b[i])) return false;
  return true;
}

static bool tparams_equal(int n, const IrTypeParam *a, const IrTypeParam *b) {
  for (int i = 0; i < n; i++)
    if (a[i].name != b[i].name || a[i].kind != b[i].kind) return false;
  return true;
}

static bool attr_value_equal(const IrAttrVal *a, const IrAttrVal *b);

static bool attrs_equal(int n, const IrAttr *a, const IrAttr *b) {
  for (int i = 0; i < n; i++)
    if (a[i].key != b[i].key || !attr_value_equal(&a[i].val, &b[i].val)) return false;
  return true;
}

static bool rels_equal(int n, const IrRel *a, const IrRel *b) {
  for (int i = 0; i < n; i++)
    if (a[i].name != b[i].name || a[i].nargs != b[i].nargs || !types_equal(a[i].nargs, a[i].args, b[i].args) ||
        a[i].nattrs != b[i].nattrs || !attrs_equal(a[i].nattrs, a[i].attrs, b[i].attrs))
      return false;
  return true;
}

bool ir_rel_equal(const IrRel *a, const IrRel *b) { return rels_equal(1, a, b); }

uint64_t ir_type_hash(const IrType *t) {
  uint64_t h = ((uint64_t)t->kind + 1) * 0x9e3779b97f4a7c15u;
  switch (t->kind) {
  case IR_TYPE_TENSOR: return h ^ (ir_type_hash(t->u.tensor.shape) * 31 + ir_type_hash(t->u.tensor.dtype));
  case IR_TYPE_SHAPE:
    for (int i = 0; i < t->u.shape.rank; i++) h = h * 31 + ir_type_hash(t->u.shape.dims[i]);
    return h;
  case IR_TYPE_DIM: return h ^ (uint64_t)t->u.dim;
  case IR_TYPE_DIMOP: return h ^ ((uint64_t)t->u.dimop.op * 961 + ir_type_hash(t->u.dimop.a) * 31 + ir_type_hash(t->u.dimop.b));
  case IR_TYPE_DTYPE: return h ^ ((uint64_t)t->u.dtype.code << 32 | (uint64_t)t->u.dtype.bits << 16 | t->u.dtype.lanes);
  case IR_TYPE_VAR: return h ^ (uint64_t)(uintptr_t)t->u.var.name;
  case IR_TYPE_TUPLE:
    for (int i = 0; i < t->u.tuple.n; i++) h = h * 31 + ir_type_hash(t->u.tuple.fields[i]);
    return h;
  case IR_TYPE_CALL:
    h ^= (uint64_t)(uintptr_t)t->u.call.name;
    for (int i = 0; i < t->u.call.nargs; i++) h = h * 31 + ir_type_hash(t->u.call.args[i]);
    return h;
  case IR_TYPE_REF: return h ^ ir_type_hash(t->u.ref);
  case IR_TYPE_HOLE: return h ^ t->u.hole.id;
  case IR_TYPE_FUNC: /* their parameters' names may differ between equal ones: the counts only */
    return h ^ ((uint64_t)t->u.func.nargs << 8 | (uint64_t)t->u.func.nrels);
  case IR_TYPE_ANY: return h;
  }
  return h;
}

static bool opt_type_equal(const IrType *a, const IrType *b) {
  return (!a && !b) || (a && b && ir_type_equal(a, b));
}

bool ir_type_equal(const IrType *a, const IrType *b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case IR_TYPE_TENSOR:
    return ir_type_equal(a->u.tensor.shape, b->u.tensor.shape) && ir_type_equal(a->u.tensor.dtype, b->u.tensor.dtype);
  case IR_TYPE_SHAPE:
    return a->u.shape.rank == b->u.shape.rank && types_equal(a->u.shape.rank, a->u.shape.dims, b->u.shape.dims);
  case IR_TYPE_DIM: return a->u.dim == b->u.dim;
  case IR_TYPE_ANY: return true;
  case IR_TYPE_DIMOP:
    return a->u.dimop.op == b->u.dimop.op && ir_type_equal(a->u.dimop.a, b->u.dimop.a) &&
           ir_type_equal(a->u.dimop.b, b->u.dimop.b);
  case IR_TYPE_DTYPE: return ir_dtype_eq(a->u.dtype, b->u.dtype);
  case IR_TYPE_VAR: return a->u.var.name == b->u.var.name && a->u.var.kind == b->u.var.kind;
  case IR_TYPE_TUPLE:
    return a->u.tuple.n == b->u.tuple.n && types_equal(a->u.tuple.n, a->u.tuple.fields, b->u.tuple.fields);
  case IR_TYPE_FUNC:
    return a->u.func.ntparams == b->u.func.ntparams && a->u.func.nargs == b->u.func.nargs &&
           a->u.func.nrels == b->u.func.nrels &&
           tparams_equal(a->u.func.ntparams, a->u.func.tparams, b->u.func.tparams) &&
           types_equal(a->u.func.nargs, a->u.func.args, b->u.func.args) &&
           ir_type_equal(a->u.func.ret, b->u.func.ret) && rels_equal(a->u.func.nrels, a->u.func.rels, b->u.func.rels);
  case IR_TYPE_CALL:
    return a->u.call.name == b->u.call.name && a->u.call.nargs == b->u.call.nargs &&
           (!a->u.call.adt || !b->u.call.adt || a->u.call.adt == b->u.call.adt) &&
           types_equal(a->u.call.nargs, a->u.call.args, b->u.call.args);
  case IR_TYPE_REF: return ir_type_equal(a->u.ref, b->u.ref);
  case IR_TYPE_HOLE: return a->u.hole.id == b->u.hole.id;
  }
  UNREACHABLE("a type of no kind");
  return false;
}

static bool pattern_equal(const IrPattern *a, const IrPattern *b) {
  if (a->kind != b->kind || a->name != b->name || a->n != b->n || !opt_type_equal(a->ann, b->ann)) return false;
  for (int i = 0; i < a->n; i++)
    if (!pattern_equal(a->args[i], b->args[i])) return false;
  return true;
}

static bool attr_value_equal(const IrAttrVal *a, const IrAttrVal *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case IR_ATTR_LIT: return lit_equal(&a->lit, &b->lit);
  case IR_ATTR_STR: return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
  case IR_ATTR_NONE: return true;
  case IR_ATTR_META: return a->meta_kind == b->meta_kind && a->meta_index == b->meta_index;
  case IR_ATTR_LIST:
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
      if (!attr_value_equal(&a->items[i], &b->items[i])) return false;
    return true;
  }
  UNREACHABLE("an attribute value of no kind");
  return false;
}

static bool param_equal(const IrParam *a, const IrParam *b) {
  return a->name == b->name && opt_type_equal(a->ann, b->ann) && a->nattrs == b->nattrs &&
         attrs_equal(a->nattrs, a->attrs, b->attrs);
}

static bool fn_equal(const IrFn *a, const IrFn *b) {
  if (a->ntparams != b->ntparams || a->nparams != b->nparams || a->nrels != b->nrels) return false;
  if (!tparams_equal(a->ntparams, a->tparams, b->tparams) || !rels_equal(a->nrels, a->rels, b->rels)) return false;
  for (int i = 0; i < a->nparams; i++)
    if (!param_equal(&a->params[i], &b->params[i])) return false;
  return a->nattrs == b->nattrs && attrs_equal(a->nattrs, a->attrs, b->attrs) && opt_type_equal(a->ret, b->ret) &&
         ir_expr_equal(a->body, b->body);
}

static bool exprs_equal(int n, IrExpr *const *a, IrExpr *const *b) {
  for (int i = 0; i < n; i++)
    if (!ir_expr_equal(a[i], b[i])) return false;
  return true;
}

bool ir_expr_equal(const IrExpr *a, const IrExpr *b) {
  /* Let chains are walked with a loop: they may be very long. */
  while (a->kind == IR_EXPR_LET && b->kind == IR_EXPR_LET) {
    if (a->u.let.how != b->u.let.how || !param_equal(&a->u.let.var, &b->u.let.var) ||
        !ir_expr_equal(a->u.let.value, b->u.let.value))
      return false;
    a = a->u.let.body;
    b = b->u.let.body;
  }
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case IR_EXPR_LOCAL:
  case IR_EXPR_GLOBAL:
  case IR_EXPR_CTOR: return a->u.name == b->u.name;
  case IR_EXPR_OP: return a->u.op == b->u.op;
  case IR_EXPR_LIT: return lit_equal(&a->u.lit, &b->u.lit);
  case IR_EXPR_TENSOR:
    if (a->u.tensor.rank != b->u.tensor.rank || a->u.tensor.count != b->u.tensor.count) return false;
    if (!dims_equal(a->u.tensor.rank, a->u.tensor.shape, b->u.tensor.shape)) return false;
    for (int64_t i = 0; i < a->u.tensor.count; i++)
      if (!lit_equal(&a->u.tensor.elems[i], &b->u.tensor.elems[i])) return false;
    return true;
  case IR_EXPR_FILL:
    return lit_equal(&a->u.fill.value, &b->u.fill.value) && a->u.fill.rank == b->u.fill.rank &&
           dims_equal(a->u.fill.rank, a->u.fill.shape, b->u.fill.shape) &&
           ir_dtype_eq(a->u.fill.dtype, b->u.fill.dtype);
  case IR_EXPR_TUPLE:
    return a->u.tuple.n == b->u.tuple.n && exprs_equal(a->u.tuple.n, a->u.tuple.fields, b->u.tuple.fields);
  case IR_EXPR_PROJ: return a->u.proj.index == b->u.proj.index && ir_expr_equal(a->u.proj.tuple, b->u.proj.tuple);
  case IR_EXPR_LET: UNREACHABLE("lets are compared by the loop above"); return false;
  case IR_EXPR_FN: return fn_equal(&a->u.fn, &b->u.fn);
  case IR_EXPR_CALL:
    if (a->u.call.ntargs != b->u.call.ntargs || a->u.call.nargs != b->u.call.nargs ||
        a->u.call.nattrs != b->u.call.nattrs)
      return false;
    if (!ir_expr_equal(a->u.call.callee, b->u.call.callee) ||
        !types_equal(a->u.call.ntargs, a->u.call.targs, b->u.call.targs) ||
        !exprs_equal(a->u.call.nargs, a->u.call.args, b->u.call.args))
      return false;
    return attrs_equal(a->u.call.nattrs, a->u.call.attrs, b->u.call.attrs);
  case IR_EXPR_IF:
    return ir_expr_equal(a->u.ifx.cond, b->u.ifx.cond) && ir_expr_equal(a->u.ifx.then, b->u.ifx.then) &&
           ir_expr_equal(a->u.ifx.els, b->u.ifx.els);
  case IR_EXPR_MATCH:
    if (a->u.match.partial != b->u.match.partial || a->u.match.nclauses != b->u.match.nclauses ||
        !ir_expr_equal(a->u.match.scrut, b->u.match.scrut))
      return false;
    for (int i = 0; i < a->u.match.nclauses; i++)
      if (!pattern_equal(a->u.match.clauses[i].pat, b->u.match.clauses[i].pat) ||
          !ir_expr_equal(a->u.match.clauses[i].body, b->u.match.clauses[i].body))
        return false;
    return true;
  case IR_EXPR_REF:
  case IR_EXPR_REF_READ: return ir_expr_equal(a->u.ref.a, b->u.ref.a);
  case IR_EXPR_REF_WRITE: return ir_expr_equal(a->u.ref.a, b->u.ref.a) && ir_expr_equal(a->u.ref.b, b->u.ref.b);
  case IR_EXPR_FREE: return a->u.name == b->u.name;
  case IR_EXPR_META: return a->u.meta.kind == b->u.meta.kind && a->u.meta.index == b->u.meta.index;
  case IR_EXPR_HOLE: return a->u.name == b->u.name;
  }
  UNREACHABLE("an expression of no kind");
  return false;
}

static bool data_equal(const IrData *a, const IrData *b) {
  if (a->name != b->name || a->ntparams != b->ntparams || a->nctors != b->nctors || a->external != b->external) return false;
  if (!tparams_equal(a->ntparams, a->tparams, b->tparams)) return false;
  for (int i = 0; i < a->nctors; i++)
    if (a->ctors[i].name != b->ctors[i].name || a->ctors[i].nargs != b->ctors[i].nargs ||
        !types_equal(a->ctors[i].nargs, a->ctors[i].args, b->ctors[i].args))
      return false;
  return true;
}

static bool item_equal(const IrItem *a, const IrItem *b) {
  if (a->kind != b->kind || a->name != b->name) return false;
  switch (a->kind) {
  case IR_ITEM_DEF: return ir_expr_equal(a->fn, b->fn);
  case IR_ITEM_DATA: return data_equal(&a->data, &b->data);
  case IR_ITEM_EXPR:
  case IR_ITEM_LET: return ir_expr_equal(a->expr, b->expr);
  }
  UNREACHABLE("an item of no kind");
  return false;
}

bool ir_program_equal(const IrProgram *a, const IrProgram *b, IrBuf *why) {
  if ((a->version == NULL) != (b->version == NULL) || (a->version && strcmp(a->version, b->version) != 0)) {
    if (why) ir_buf_puts(why, "the version attributes differ");
    return false;
  }
  if (a->nitems != b->nitems) {
    if (why) ir_buf_printf(why, "%d items against %d", a->nitems, b->nitems);
    return false;
  }
  for (int i = 0; i < a->nitems; i++) {
    if (!item_equal(&a->items[i], &b->items[i])) {
      if (why) {
        ir_buf_printf(why, "item %d differs:\n", i + 1);
        ir_print_item(why, &a->items[i]);
        ir_buf_puts(why, "\n--- against ---\n");
        ir_print_item(why, &b->items[i]);
        ir_buf_putc(why, '\n');
      }
      return false;
    }
  }
  return true;
}
