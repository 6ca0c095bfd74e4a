/* The normalization kernels and the other layers of networks. */
#include "runtime/kernel.h"

RtValue rt_kernel_norm(IrOpId op, const RtValue *args, int nargs, const IrExpr *e) {
  (void)args, (void)nargs;
  rt_error(e, "the operator `%s` has no kernel", ir_ops[op].name);
}
