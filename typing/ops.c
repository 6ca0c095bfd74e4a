/* The type rules of operators, as schemes keyed by the registry's IDs: every operator of n
 * arguments is fn<t1, ..., tn+1>(t1, ..., tn) -> tn+1 where R(t1, ..., tn+1), R its relation
 * (relations.def), which reads the call's attributes; ir/ops.def names each operator's relation. */
#include "typing/check.h"

#include <string.h>

/* Each operator's relation, by the name ops.def writes resolved at compile time: a name that
 * relations.def lacks is an undeclared identifier, so the build fails. */
enum {
#define TY_REL(id, name, fn, nargs, attrs) REL_NAMED_##name = TY_REL_##id,
#include "typing/relations.def"
#undef TY_REL
};
static const TyRelId op_relations[IR_OP_COUNT] = {
#define IR_OP(id, name, min_args, max_args, attrs, rel, kernel) (TyRelId)REL_NAMED_##rel,
#include "ir/ops.def"
#undef IR_OP
};

static IrType *var(Sym name) { return ir_type_var(name, IR_KIND_TYPE, (IrSpan){0}); }

/* fn<t1..tn+1>(t1..tn) -> tn+1 where rel(t1, ..., tn+1) */
static IrType *scheme(int nargs, TyRelId rel) {
  int ntparams = nargs + 1;
  IrType *f = ir_type_new(IR_TYPE_FUNC, (IrSpan){0});
  f->u.func.ntparams = ntparams;
  f->u.func.tparams = IR_NEW_ARRAY(IrTypeParam, ntparams);
  for (int i = 0; i < ntparams; i++)
    f->u.func.tparams[i] = (IrTypeParam){ir_sym(ir_printf("t%d", i + 1)), IR_KIND_TYPE, {0}};
  f->u.func.nargs = nargs;
  f->u.func.args = IR_NEW_ARRAY(IrType *, nargs);
  for (int i = 0; i < nargs; i++) f->u.func.args[i] = var(f->u.func.tparams[i].name);
  f->u.func.ret = var(f->u.func.tparams[nargs].name);
  f->u.func.nrels = 1;
  f->u.func.rels = IR_NEW(IrRel);
  f->u.func.rels[0] = (IrRel){ir_sym(ty_relation_name(rel)), ntparams, IR_NEW_ARRAY(IrType *, ntparams), {0}, 0, NULL, NULL,
                              (int)rel + 1};
  for (int i = 0; i < ntparams; i++) f->u.func.rels[0].args[i] = var(f->u.func.tparams[i].name);
  return f;
}

IrType *ty_operator_scheme(TyModule *m, int op) {
  TyCheck c = {.m = m};
  return ty_op_scheme(&c, (IrOpId)op, ir_ops[op].max_args);
}

IrType *ty_op_scheme(TyCheck *c, IrOpId op, int nargs) {
  TyRelId rel = op_relations[op];
  ASSERT(nargs >= ir_ops[op].min_args && nargs <= ir_ops[op].max_args); /* the callers checked the call's arity */
  if (nargs < ir_ops[op].min_args || nargs > ir_ops[op].max_args) nargs = ir_ops[op].max_args;
  if (ir_ops[op].min_args != ir_ops[op].max_args) return scheme(nargs, rel); /* arange: one per arity */
  IrType **slot = &c->m->op_schemes[op];
  if (!*slot) *slot = scheme(nargs, rel);
  return *slot;
}

bool ty_relation_needs(TyRelId rel, int *min_types, int *max_types, bool required[IR_A_COUNT]) {
  bool any = false;
  for (int a = 0; a < IR_A_COUNT; a++) required[a] = true;
  *min_types = 1 << 30, *max_types = 0;
  for (int op = 0; op < IR_OP_COUNT; op++) {
    if (op_relations[op] != rel) continue;
    any = true;
    if (ir_ops[op].min_args + 1 < *min_types) *min_types = ir_ops[op].min_args + 1;
    if (ir_ops[op].max_args + 1 > *max_types) *max_types = ir_ops[op].max_args + 1;
    for (int a = 0; a < IR_A_COUNT; a++) { /* "newshape! dtype": required when marked `!` */
      const char *n = ir_attr_name((IrAttrId)a), *p = ir_ops[op].attrs;
      size_t len = strlen(n);
      bool marked = false;
      while ((p = strstr(p, n)) != NULL) {
        bool starts = p == ir_ops[op].attrs || p[-1] == ' ';
        if (starts && p[len] == '!') marked = true;
        p += len;
      }
      required[a] &= marked;
    }
  }
  if (!any)
    for (int a = 0; a < IR_A_COUNT; a++) required[a] = false;
  return any;
}
