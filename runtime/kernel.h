/* What the kernels share (private to runtime/): values seen as flat operands, results that are
 * scalars at rank 0, element access by dtype, attributes, and each operator family's entry.
 * kernels.c holds the element-wise kernels and the dispatch; create.c, transform.c, reduce.c, nn.c
 * (with gemm.c's portable products), conv.c, data.c, norm.c, qnn.c and vision.c the families; dyn.c
 * the dynamic operators, over the others' kernels. */
#ifndef RUNTIME_KERNEL_H
#define RUNTIME_KERNEL_H

#include "runtime/rt.h"

#include <string.h>

enum { RT_MAX_RANK = 64 };

/* A value seen as dtype, shape and data: a scalar points at its own one-element buffer, so an
 * operand is used in place (never copied). */
typedef struct RtOperand {
  IrDType dt;
  int rank;
  const int64_t *shape;
  int64_t count;
  const void *data;
  uint64_t one;
} RtOperand;

void rt_operand(RtOperand *o, RtValue v);

/* A result: a tensor of the shape, or (rank 0) a scalar read back from a local buffer. */
typedef struct RtResult {
  IrDType dt;
  RtTensor *t;
  uint64_t one;
} RtResult;

void *rt_result_init(RtResult *r, IrDType dt, int rank, const int64_t *shape);
RtValue rt_result_value(RtResult *r);

/* Element i of data of dtype dt, as a scalar value; and back. */
RtValue rt_elem_get(const void *data, IrDType dt, int64_t i);
void rt_elem_set(void *data, IrDType dt, int64_t i, RtValue v);
/* v converted to dtype `to` (cast's rule: floats to integers truncate toward zero, saturating;
 * integers wrap). */
RtValue rt_convert(RtValue v, IrDType to);

/* Element i of a float operand (float16, float32 or float64) as a double; and a double stored into
 * element i of float data of dtype dt (rounding once). */
static inline double rt_load_float(const RtOperand *a, int64_t i) {
  switch (a->dt.bits) {
  case 16: return (double)((const RtHalf *)a->data)[i];
  case 32: return ((const float *)a->data)[i];
  default: return ((const double *)a->data)[i];
  }
}
static inline void rt_store_float(void *out, IrDType dt, int64_t i, double x) {
  switch (dt.bits) {
  case 16: ((RtHalf *)out)[i] = (RtHalf)x; break;
  case 32: ((float *)out)[i] = (float)x; break;
  default: ((double *)out)[i] = x; break;
  }
}

/* a * b for dimensions, saturating at INT64_MAX: an empty tensor may have other dimensions whose
 * product overflows (its element count is still 0). */
static inline int64_t rt_mul_sat(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* The row-major strides of a shape, in elements (saturating: an empty axis makes no product overflow). */
static inline void rt_strides_of(int rank, const int64_t *shape, int64_t *strides) {
  int64_t acc = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = acc;
    acc = rt_mul_sat(acc, shape[i]);
  }
}

/* The call `site` running another operator's kernel (bias_add's add, a quantized operator's float
 * one): the same place, the attributes `attrs`, and no type to check the result against (the
 * site's type is the outer operator's). */
static inline RtSite rt_site_inner(const RtSite *site, const IrOpAttrs *attrs) {
  return (RtSite){.expr = site->expr, .attrs = attrs, .type = NULL};
}

/* An axis made non-negative for `rank` (the checker has checked it when the rank was known;
 * this checks again for `?` shapes). */
int rt_axis(const RtSite *site, IrOpId op, int64_t axis, int rank);

/* The operator families, as ir/ops.def names them: each is called with the operator's ID and the
 * call as an RtSite (rt.h), never NULL. A kernel reads its attributes from site->attrs and raises its
 * run-time errors at site->expr (rt_error(site->expr, ...)). */
RtValue rt_kernel_binary(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_unary(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_annotation(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_create(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_transform(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_reduce(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_nn(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_conv(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_data(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_norm(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_qnn(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_vision(IrOpId op, const RtValue *args, int nargs, const RtSite *site);
RtValue rt_kernel_dyn(IrOpId op, const RtValue *args, int nargs, const RtSite *site);

/* C (m x n) = op(A) op(B), where op(A) is m x k (A stored k x m when ta) and op(B) k x n (B stored
 * n x k when tb); every matrix contiguous and row-major, of dtype dt (nn.c). */
void rt_gemm(const RtSite *site, IrDType dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *A,
             const void *B, void *C);
/* The two operands of a product (the call's first two arguments), converted to its out_dtype
 * when it has one, as TVM computes; fails when their dtypes differ (nn.c). */
void rt_operands_out_dtype(IrOpId op, const RtValue *args, const RtSite *site, RtOperand *x, RtOperand *w);

/* The integer mean as TVM computes it: sum (the elements added mod 2^64) wrapped to dtype dt, divided truncating
 * by count, itself wrapped to dt when count_wraps (mean, the adaptive and global pools); a count that is 0 there
 * is a run-time error (reduce.c). */
RtValue rt_int_mean(IrDType dt, uint64_t sum, int64_t count, bool count_wraps, const RtSite *site);

/* The positions of a window of k (dilated by dil) sliding by stride over an axis of `in` elements padded by lo
 * and hi (ir_window_length), as the relations type them (ty_rel_window): a window that does not fit is a
 * run-time error naming operator op (reachable through `?`, where the relation left it to the kernel), but
 * over an empty axis padded short of the window by one element ("same" padding) there are none (conv.c). */
int64_t rt_window_positions(const RtSite *site, IrOpId op, int64_t in, int64_t k, int64_t dil, int64_t stride,
                            int64_t lo, int64_t hi, bool ceil_mode);

/* a from layout src to layout dst (layout_transform's kernel: "NCHW8c" to "NCHW"); both valid for a's
 * rank (transform.c). */
RtValue rt_layout_transform(const RtOperand *a, const char *src, const char *dst, const RtSite *site);

/* Float to integer, defined for every double. C leaves the conversion of NaN, of the infinities and of values
 * out of the integer's range undefined (LLVM's fptosi, which TVM emits, gives poison), so every kernel converts
 * through these: truncation toward zero in range, NaN becomes 0, beyond the range the nearest bound
 * (docs/operators.md, "Float to integer conversions"). Kernels apply floor, ceil or nearbyint first when they
 * round otherwise. lo <= 0 <= hi. */
static inline int64_t rt_f2i_range(double x, int64_t lo, int64_t hi) {
  if (x != x) return 0;
  if (x >= (double)hi) return hi; /* (double)INT64_MAX is 2^63: x below it truncates into range */
  if (x <= (double)lo) return lo;
  return (int64_t)x;
}
static inline int64_t rt_f2i64(double x) { return rt_f2i_range(x, INT64_MIN, INT64_MAX); }
static inline int32_t rt_f2i32(double x) { return (int32_t)rt_f2i_range(x, INT32_MIN, INT32_MAX); }
static inline uint64_t rt_f2u64(double x) {
  if (!(x > 0)) return 0; /* NaN too */
  return x >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)x;
}
/* A position or index computed in floating point (an ROI corner, a sampling or resizing coordinate, a bin's
 * bounds): the same rule, saturating at +-2^53 instead of int64's bounds, so that a few of them added or an
 * offset added to one cannot overflow. Every tensor is far smaller, so where a position lands (outside) is the
 * same as at int64's bounds. */
#define RT_F2I_INDEX_MAX ((int64_t)1 << 53)
static inline int64_t rt_f2index(double x) { return rt_f2i_range(x, -RT_F2I_INDEX_MAX, RT_F2I_INDEX_MAX); }

/* Ctrl-C (docs/runtime.md): a kernel polls the interrupt flag (rt_poll, a load and a compare)
 * between blocks of work, so that none runs more than a few milliseconds without looking,
 * whatever the sizes. A loop of a few operations an iteration polls every RT_POLL_EVERY iterations
 * (rt_poll_every, which also polls once per pass of a short loop nested in a long one); a loop
 * whose iterations are blocks of varying size counts their work down (rt_poll_work); a vectorized
 * loop runs in blocks of RT_POLL_EVERY elements; a copy of any size goes through rt_copy. */
enum { RT_POLL_EVERY = 1 << 14 };
static inline void rt_poll_every(const RtSite *site, int64_t i) {
  if ((i & (RT_POLL_EVERY - 1)) == 0) rt_poll(site ? site->expr : NULL);
}
/* A kernel that counts its innermost iterations (and its outputs) in `int64_t tick = 0;` polls
 * with RT_TICK() in the loop; `site` is the kernel's RtSite. */
#define RT_TICK() rt_poll_every(site, ++tick)
/* Counts `work` (elements, roughly) down from RT_POLL_EVERY and polls when it runs out; *left starts
 * at 0, so the first call polls. */
static inline void rt_poll_work(const RtSite *site, int64_t *left, int64_t work) {
  if ((*left -= work) < 0) {
    *left = RT_POLL_EVERY;
    rt_poll(site ? site->expr : NULL);
  }
}
/* memcpy and zeroing; beyond a megabyte, in blocks of a megabyte with a poll before each (site
 * NULL: the operator running). A loop of small copies polls by itself. */
enum { RT_COPY_BLOCK = 1 << 20 };
void rt_copy_blocks(const RtSite *site, void *dst, const void *src, size_t bytes);
static inline void rt_copy(const RtSite *site, void *dst, const void *src, size_t bytes) {
  if (bytes <= RT_COPY_BLOCK) memcpy(dst, src, bytes);
  else rt_copy_blocks(site, dst, src, bytes);
}
void rt_zero_blocks(const RtSite *site, void *dst, size_t bytes);
static inline void rt_zero(const RtSite *site, void *dst, size_t bytes) {
  if (bytes <= RT_COPY_BLOCK) memset(dst, 0, bytes);
  else rt_zero_blocks(site, dst, bytes);
}

/* The kernels' one sort: a stable merge sort that polls for Ctrl-C (qsort cannot be interrupted).
 * RT_MERGE_SORT(NAME, T, CTX, BEFORE) defines
 *     static void NAME(const RtSite *site, T *a, T *tmp, int64_t n, const CTX *ctx)
 * which sorts a[0..n) (tmp has room for n) by BEFORE(ctx, x, y), true when element x goes strictly
 * before element y. It is expanded where it is used, so that BEFORE is inlined. It polls every 4096
 * elements merged (each step may miss the cache twice); what is left after a merge is copied in
 * polled blocks. */
#define RT_MERGE_SORT(NAME, T, CTX, BEFORE)                                                                 \
  static void NAME(const RtSite *site, T *a, T *tmp, int64_t n, const CTX *ctx) {                          \
    (void)ctx; /* BEFORE may not need it */                                                                \
    for (int64_t w = 1; w < n; w *= 2) {                                                                     \
      for (int64_t lo = 0; lo < n; lo += 2 * w) {                                                            \
        int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, t = lo; \
        while (i < mid && j < hi) {                                                                          \
          if ((t & 4095) == 0) rt_poll(site->expr);                                                          \
          tmp[t++] = BEFORE(ctx, a[j], a[i]) ? a[j++] : a[i++];                                              \
        }                                                                                                    \
        rt_copy(site, tmp + t, a + i, sizeof(T) * (size_t)(mid - i));                                       \
        t += mid - i;                                                                                        \
        rt_copy(site, tmp + t, a + j, sizeof(T) * (size_t)(hi - j));                                         \
      }                                                                                                      \
      rt_copy(site, a, tmp, sizeof(T) * (size_t)n);                                                          \
    }                                                                                                        \
  }

#endif
