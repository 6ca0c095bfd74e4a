/* The type rules of operators, as schemes keyed by the registry's IDs: the element-wise binary
 * operators broadcast (Broadcast, or BroadcastComp for comparisons, whose result is bool), and
 * the plain unary element-wise operators keep their tensor argument's type (Elementwise), and `sum`
 * without attributes reduces to a scalar. The operator catalogue adds
 * the others (reductions, shapes, neural-network operators) on the same table. */
#include "typing/check.h"

static IrType *var(Sym name) { return ir_type_var(name, IR_KIND_TYPE, (IrSpan){0}); }

/* fn<t1..tn>(t1..) -> tn where rel(t1, ..., tn) */
static IrType *scheme(int ntparams, int nargs, const char *rel) {
  static const char *names[] = {"t1", "t2", "t3"};
  IrType *f = ir_type_new(IR_TYPE_FUNC, (IrSpan){0});
  f->u.func.ntparams = ntparams;
  f->u.func.tparams = IR_NEW_ARRAY(IrTypeParam, ntparams);
  for (int i = 0; i < ntparams; i++) f->u.func.tparams[i] = (IrTypeParam){ir_sym(names[i]), IR_KIND_TYPE, {0}};
  f->u.func.nargs = nargs;
  f->u.func.args = IR_NEW_ARRAY(IrType *, nargs);
  for (int i = 0; i < nargs; i++) f->u.func.args[i] = var(f->u.func.tparams[i].name);
  f->u.func.ret = var(f->u.func.tparams[ntparams - 1].name);
  if (rel) {
    f->u.func.nrels = 1;
    f->u.func.rels = IR_NEW(IrRel);
    f->u.func.rels[0] = (IrRel){ir_sym(rel), ntparams, IR_NEW_ARRAY(IrType *, ntparams), {0}};
    for (int i = 0; i < ntparams; i++) f->u.func.rels[0].args[i] = var(f->u.func.tparams[i].name);
  }
  return f;
}

/* fn<s : Shape, bt : BaseType>(Tensor[s, bt]) -> Tensor[(), bt]: a full reduction. */
static IrType *reduce_all_scheme(void) {
  IrSpan none = {0};
  Sym s = ir_sym("s"), bt = ir_sym("bt");
  IrType *f = ir_type_new(IR_TYPE_FUNC, none);
  f->u.func.ntparams = 2;
  f->u.func.tparams = IR_NEW_ARRAY(IrTypeParam, 2);
  f->u.func.tparams[0] = (IrTypeParam){s, IR_KIND_SHAPE, none};
  f->u.func.tparams[1] = (IrTypeParam){bt, IR_KIND_BASETYPE, none};
  f->u.func.nargs = 1;
  f->u.func.args = IR_NEW_ARRAY(IrType *, 1);
  f->u.func.args[0] = ir_type_tensor(ir_type_var(s, IR_KIND_SHAPE, none), ir_type_var(bt, IR_KIND_BASETYPE, none), none);
  f->u.func.ret = ir_type_tensor(ir_type_shape(0, NULL, none), ir_type_var(bt, IR_KIND_BASETYPE, none), none);
  return f;
}

IrType *ty_op_scheme(TyCheck *c, IrOpId op) {
  IrType **slot = &c->m->op_schemes[op];
  if (*slot) return *slot;
  switch (op) {
  case IR_OP_ADD: case IR_OP_SUBTRACT: case IR_OP_MULTIPLY: case IR_OP_DIVIDE: case IR_OP_MOD:
  case IR_OP_FLOOR_DIVIDE: case IR_OP_FLOOR_MOD: case IR_OP_POWER: case IR_OP_MAXIMUM: case IR_OP_MINIMUM:
  case IR_OP_LOGICAL_AND: case IR_OP_LOGICAL_OR: case IR_OP_LOGICAL_XOR:
    return *slot = scheme(3, 2, "Broadcast");
  case IR_OP_EQUAL: case IR_OP_NOT_EQUAL: case IR_OP_LESS: case IR_OP_LESS_EQUAL: case IR_OP_GREATER:
  case IR_OP_GREATER_EQUAL:
    return *slot = scheme(3, 2, "BroadcastComp");
  case IR_OP_NEGATIVE: case IR_OP_ABS: case IR_OP_SIGN: case IR_OP_EXP: case IR_OP_LOG: case IR_OP_SQRT:
  case IR_OP_RSQRT: case IR_OP_SIGMOID: case IR_OP_TANH: case IR_OP_SIN: case IR_OP_COS: case IR_OP_FLOOR:
  case IR_OP_CEIL: case IR_OP_ROUND: case IR_OP_LOGICAL_NOT: case IR_OP_COPY: case IR_OP_ZEROS_LIKE:
  case IR_OP_ONES_LIKE: case IR_OP_NN_RELU:
    return *slot = scheme(2, 1, "Elementwise");
  case IR_OP_SUM: /* without attributes; `axis` and `keepdims` come with the operator catalogue */
    return *slot = reduce_all_scheme();
  default: return NULL;
  }
}
