/* The convolutions and pools: nn.conv2d as im2col then a matrix product (rt_gemm) per image and
 * group (NCHW data, OIHW weights), and the 2-D pools. */
#include "runtime/kernel.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- conv2d */

/* ir_window_length, with 0 positions for a window that does not fit. */
static int64_t window_out(int64_t in, int64_t k, int64_t dil, int64_t stride, int64_t lo, int64_t hi, bool ceil_mode) {
  int64_t n = ir_window_length(in, k, dil, stride, lo, hi, ceil_mode);
  return n < 0 ? 0 : n;
}

static RtValue conv2d(const RtOperand *x, const RtOperand *w, const IrOpAttrs *at, const IrExpr *e) {
  if (x->rank != 4 || w->rank != 4) rt_error(e, "nn.conv2d takes NCHW data and OIHW weights of rank 4");
  int64_t st[2], dil[2], pad[4];
  ir_attr_pair(at, IR_A_STRIDES, 1, st);
  ir_attr_pair(at, IR_A_DILATION, 1, dil);
  ir_attr_padding(at, pad);
  int64_t groups = ir_attr_int(at, IR_A_GROUPS, 1);
  int64_t N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
  int64_t O = w->shape[0], Cg = w->shape[1], KH = w->shape[2], KW = w->shape[3];
  if (Cg * groups != C || O % groups != 0)
    rt_error(e, "nn.conv2d: %s data does not fit %s weights with groups=%lld", rt_shape_text(4, x->shape),
             rt_shape_text(4, w->shape), (long long)groups);
  int64_t OH = window_out(H, KH, dil[0], st[0], pad[0], pad[2], false), OW = window_out(W, KW, dil[1], st[1], pad[1], pad[3], false);
  int64_t shape[4] = {N, O, OH, OW}, Og = O / groups, K = Cg * KH * KW, P = OH * OW;
  IrDType dt = x->dt;
  size_t esize = rt_dtype_size(dt);
  RtResult res;
  char *out = rt_result_init(&res, dt, 4, shape);
  if (N * O * P == 0) return rt_result_value(&res);
  char *col = rt_alloc_atomic((size_t)(K * P) * esize + 1);
  for (int64_t n = 0; n < N; n++) {
    for (int64_t g = 0; g < groups; g++) {
      /* col[(c, kh, kw), (oh, ow)] = x[n, g * Cg + c, oh * st - pad + kh * dil, ...], 0 outside */
      int64_t row = 0;
      for (int64_t c = 0; c < Cg; c++)
        for (int64_t kh = 0; kh < KH; kh++)
          for (int64_t kw = 0; kw < KW; kw++, row++) {
            const char *plane = (const char *)x->data + (size_t)(((n * C) + g * Cg + c) * H * W) * esize;
            for (int64_t oh = 0; oh < OH; oh++) {
              int64_t ih = oh * st[0] - pad[0] + kh * dil[0];
              char *dst = col + (size_t)(row * P + oh * OW) * esize;
              if (ih < 0 || ih >= H) {
                memset(dst, 0, (size_t)OW * esize);
                continue;
              }
              for (int64_t ow = 0; ow < OW; ow++) {
                int64_t iw = ow * st[1] - pad[1] + kw * dil[1];
                if (iw < 0 || iw >= W) memset(dst + (size_t)ow * esize, 0, esize);
                else memcpy(dst + (size_t)ow * esize, plane + (size_t)(ih * W + iw) * esize, esize);
              }
            }
          }
      rt_gemm(e, dt, false, false, Og, P, K, (const char *)w->data + (size_t)(g * Og * K) * esize, col,
           out + (size_t)((n * O + g * Og) * P) * esize);
    }
    rt_poll(e);
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- pools */

static RtValue pool2d(IrOpId op, const RtOperand *x, const IrOpAttrs *at, const IrExpr *e) {
  if (x->rank != 4) rt_error(e, "%s takes NCHW data of rank 4", ir_ops[op].name);
  int64_t ps[2], st[2], dil[2], pad[4];
  bool global = op == IR_OP_NN_GLOBAL_AVG_POOL2D, is_max = op == IR_OP_NN_MAX_POOL2D;
  int64_t N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
  ir_attr_pair(at, IR_A_POOL_SIZE, 1, ps);
  ir_attr_pair(at, IR_A_STRIDES, 1, st);
  ir_attr_pair(at, IR_A_DILATION, 1, dil);
  ir_attr_padding(at, pad);
  bool ceil_mode = at->v[IR_A_CEIL_MODE].b, include_pad = at->v[IR_A_COUNT_INCLUDE_PAD].b;
  if (global) {
    ps[0] = H, ps[1] = W, st[0] = st[1] = dil[0] = dil[1] = 1;
    for (int i = 0; i < 4; i++) pad[i] = 0;
  }
  int64_t OH = global ? 1 : window_out(H, ps[0], dil[0], st[0], pad[0], pad[2], ceil_mode);
  int64_t OW = global ? 1 : window_out(W, ps[1], dil[1], st[1], pad[1], pad[3], ceil_mode);
  int64_t shape[4] = {N, C, OH, OW};
  RtResult res;
  void *out = rt_result_init(&res, x->dt, 4, shape);
  int64_t o = 0;
  for (int64_t nc = 0; nc < N * C; nc++) {
    int64_t base = nc * H * W;
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++, o++) {
        double acc = is_max ? -INFINITY : 0;
        int64_t count = 0, padded = 0;
        for (int64_t kh = 0; kh < ps[0]; kh++)
          for (int64_t kw = 0; kw < ps[1]; kw++) {
            int64_t ih = oh * st[0] - pad[0] + kh * dil[0], iw = ow * st[1] - pad[1] + kw * dil[1];
            if (ih >= -pad[0] && ih < H + pad[2] && iw >= -pad[1] && iw < W + pad[3]) padded++;
            if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
            double v = rt_scalar_f64(rt_elem_get(x->data, x->dt, base + ih * W + iw));
            acc = is_max ? (v > acc || v != v ? v : acc) : acc + v;
            count++;
          }
        double result = is_max ? acc : acc / (double)(include_pad ? padded : count);
        if (count == 0) result = is_max ? 0 : NAN; /* the mean of no elements, as mean() gives */
        rt_elem_set(out, x->dt, o, rt_scalar_from_f64(x->dt, result));
      }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- dispatch */

RtValue rt_kernel_conv(IrOpId op, const RtValue *args, int nargs, const IrExpr *e) {
  (void)nargs;
  const IrOpAttrs *at = rt_attrs(e);
  RtOperand x, w;
  if (op == IR_OP_NN_CONV2D) {
    rt_operands_out_dtype(op, args, e, &x, &w);
    return conv2d(&x, &w, at, e);
  }
  rt_operand(&x, args[0]);
  return pool2d(op, &x, at, e);
}
