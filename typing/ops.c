/* The type rules of operators, as schemes keyed by the registry's IDs: every operator of n
 * arguments is fn<t1, ..., tn+1>(t1, ..., tn) -> tn+1 where R(t1, ..., tn+1), R its relation
 * (relations.def), which reads the call's attributes. The element-wise binary operators
 * broadcast (Broadcast, or BroadcastComp for comparisons, whose result is bool); the unary ones
 * keep their argument's type (Elementwise); the others have their family's relation. */
#include "typing/check.h"

static const char *relation_of(IrOpId op) {
  switch (op) {
  case IR_OP_ADD: case IR_OP_SUBTRACT: case IR_OP_MULTIPLY: case IR_OP_DIVIDE: case IR_OP_MOD:
  case IR_OP_FLOOR_DIVIDE: case IR_OP_FLOOR_MOD: case IR_OP_POWER: case IR_OP_MAXIMUM: case IR_OP_MINIMUM:
  case IR_OP_LOGICAL_AND: case IR_OP_LOGICAL_OR: case IR_OP_LOGICAL_XOR:
    return "Broadcast";
  case IR_OP_EQUAL: case IR_OP_NOT_EQUAL: case IR_OP_LESS: case IR_OP_LESS_EQUAL: case IR_OP_GREATER:
  case IR_OP_GREATER_EQUAL:
    return "BroadcastComp";
  case IR_OP_NEGATIVE: case IR_OP_ABS: case IR_OP_SIGN: case IR_OP_EXP: case IR_OP_LOG: case IR_OP_SQRT:
  case IR_OP_RSQRT: case IR_OP_SIGMOID: case IR_OP_TANH: case IR_OP_SIN: case IR_OP_COS: case IR_OP_FLOOR:
  case IR_OP_CEIL: case IR_OP_ROUND: case IR_OP_LOGICAL_NOT: case IR_OP_COPY: case IR_OP_ZEROS_LIKE:
  case IR_OP_ONES_LIKE: case IR_OP_CLIP: case IR_OP_NN_RELU: case IR_OP_NN_LEAKY_RELU:
    return "Elementwise";
  case IR_OP_ZEROS: case IR_OP_ONES: return "Init";
  case IR_OP_FULL: return "Full";
  case IR_OP_ARANGE: return "Arange";
  case IR_OP_RESHAPE: return "Reshape";
  case IR_OP_TRANSPOSE: return "Transpose";
  case IR_OP_EXPAND_DIMS: return "ExpandDims";
  case IR_OP_SQUEEZE: return "Squeeze";
  case IR_OP_CONCATENATE: return "Concatenate";
  case IR_OP_STACK: return "Stack";
  case IR_OP_SPLIT: return "Split";
  case IR_OP_TAKE: return "Take";
  case IR_OP_STRIDED_SLICE: return "StridedSlice";
  case IR_OP_BROADCAST_TO: return "BroadcastTo";
  case IR_OP_WHERE: return "Where";
  case IR_OP_CAST: return "Cast";
  case IR_OP_SHAPE_OF: return "ShapeOf";
  case IR_OP_NN_BATCH_FLATTEN: return "BatchFlatten";
  case IR_OP_SUM: case IR_OP_MEAN: case IR_OP_MAX: case IR_OP_MIN: case IR_OP_PROD: return "Reduce";
  case IR_OP_ALL: case IR_OP_ANY: return "LogicalReduce";
  case IR_OP_ARGMAX: case IR_OP_ARGMIN: return "ArgReduce";
  case IR_OP_NN_DENSE: return "Dense";
  case IR_OP_NN_MATMUL: return "Matmul";
  case IR_OP_NN_BATCH_MATMUL: return "BatchMatmul";
  case IR_OP_NN_BIAS_ADD: return "BiasAdd";
  case IR_OP_NN_SOFTMAX: case IR_OP_NN_LOG_SOFTMAX: return "Softmax";
  case IR_OP_NN_CONV2D: return "Conv2D";
  case IR_OP_NN_MAX_POOL2D: case IR_OP_NN_AVG_POOL2D: return "Pool2D";
  case IR_OP_NN_GLOBAL_AVG_POOL2D: return "GlobalPool2D";
  case IR_OP_COUNT: break;
  }
  return NULL;
}

static IrType *var(Sym name) { return ir_type_var(name, IR_KIND_TYPE, (IrSpan){0}); }

/* fn<t1..tn+1>(t1..tn) -> tn+1 where rel(t1, ..., tn+1) */
static IrType *scheme(int nargs, const char *rel) {
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
  f->u.func.rels[0] = (IrRel){ir_sym(rel), ntparams, IR_NEW_ARRAY(IrType *, ntparams), {0}, 0, NULL, NULL};
  for (int i = 0; i < ntparams; i++) f->u.func.rels[0].args[i] = var(f->u.func.tparams[i].name);
  return f;
}

IrType *ty_operator_scheme(TyModule *m, int op) {
  TyCheck c = {.m = m};
  return ty_op_scheme(&c, (IrOpId)op, ir_ops[op].max_args);
}

IrType *ty_op_scheme(TyCheck *c, IrOpId op, int nargs) {
  const char *rel = relation_of(op);
  if (!rel) return NULL;
  if (nargs < ir_ops[op].min_args || nargs > ir_ops[op].max_args) nargs = ir_ops[op].max_args;
  if (ir_ops[op].min_args != ir_ops[op].max_args) return scheme(nargs, rel); /* arange: one per arity */
  IrType **slot = &c->m->op_schemes[op];
  if (!*slot) *slot = scheme(nargs, rel);
  return *slot;
}
