/* The creation kernels: zeros, ones, full (a filled tensor of the attributes' shape and dtype)
 * and arange (start, stop, step). */
#include "runtime/kernel.h"

static RtValue filled(const IrOpAttrs *a, IrDType dt, RtValue v) {
  const IrAttrValue *s = ir_attr_at(a, IR_A_SHAPE);
  return rt_tensor_fill(rt_convert(v, dt), dt, s->n, s->ints);
}

RtValue rt_kernel_create(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  const IrOpAttrs *a = site->attrs;
  IrDType f32 = IR_DTYPE(IR_DT_FLOAT, 32);
  switch (op) {
  case IR_OP_ZEROS: return filled(a, ir_attr_dtype(a, IR_A_DTYPE, f32), rt_scalar_i(IR_DTYPE(IR_DT_INT, 64), 0));
  case IR_OP_ONES: return filled(a, ir_attr_dtype(a, IR_A_DTYPE, f32), rt_scalar_i(IR_DTYPE(IR_DT_INT, 64), 1));
  case IR_OP_FULL: return filled(a, ir_attr_dtype(a, IR_A_DTYPE, args[0].dt), args[0]);
  case IR_OP_ARANGE: {
    IrDType dt = ir_attr_dtype(a, IR_A_DTYPE, f32);
    if (dt.code == IR_DT_INT || dt.code == IR_DT_UINT) { /* exactly, in 128 bits: no wrapping, no rounding */
      IrWide w[3] = {0, 0, 1};
      for (int i = 0; i < nargs; i++)
        w[nargs == 1 ? 1 : i] = args[i].dt.code == IR_DT_UINT ? (IrWide)args[i].u.u : (IrWide)rt_scalar_i64(args[i]);
      if (w[2] == 0) rt_error(site->expr, "arange: the step is 0");
      int64_t n = ir_arange_length_int(w[0], w[1], w[2]);
      if (n < 0) rt_error(site->expr, "arange: its length passes int64");
      RtTensor *t = rt_tensor_new(dt, 1, &n);
      for (int64_t i = 0; i < n; i++) {
        rt_poll_every(site, i);
        IrWide x = w[0] + (IrWide)i * w[2]; /* between start and stop: it fits the dtype's range */
        rt_tensor_set(t, i, x > (IrWide)INT64_MAX ? rt_scalar_from_u64(dt, (uint64_t)x) : rt_scalar_from_i64(dt, (int64_t)x));
      }
      return (RtValue){.kind = RT_TENSOR, .u.t = t};
    }
    double v[3] = {0, 0, 1};
    for (int i = 0; i < nargs; i++) v[nargs == 1 ? 1 : i] = rt_scalar_f64(args[i]);
    if (v[2] == 0) rt_error(site->expr, "arange: the step is 0");
    double count = ir_arange_length(v[0], v[1], v[2]);
    if (!(count < 1e15)) rt_error(site->expr, "arange: %g elements are too many", count);
    int64_t n = rt_f2i64(count);
    RtTensor *t = rt_tensor_new(dt, 1, &n);
    bool integral = dt.code != IR_DT_FLOAT;
    for (int64_t i = 0; i < n; i++) {
      rt_poll_every(site, i);
      /* integers step exactly; floats as start + i * step, as numpy computes them */
      RtValue x = integral ? rt_scalar_from_i64(IR_DTYPE(IR_DT_INT, 64), rt_f2i64(v[0]) + i * rt_f2i64(v[2]))
                           : rt_scalar_from_f64(IR_DTYPE(IR_DT_FLOAT, 64), v[0] + (double)i * v[2]);
      rt_tensor_set(t, i, rt_convert(x, dt));
    }
    return (RtValue){.kind = RT_TENSOR, .u.t = t};
  }
  default:
    UNREACHABLE("every operator ops.def gives this family has a case above");
    rt_error(site->expr, "`%s` is not a creation operator", ir_ops[op].name);
  }
}
