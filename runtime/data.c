/* The data kernels: gathering, scattering, sorting and cumulative sums. */
#include "runtime/kernel.h"

RtValue rt_kernel_data(IrOpId op, const RtValue *args, int nargs, const IrExpr *e) {
  (void)args, (void)nargs;
  rt_error(e, "the operator `%s` has no kernel", ir_ops[op].name);
}
