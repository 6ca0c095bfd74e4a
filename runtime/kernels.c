/* Element-wise kernels with numpy broadcasting (one typed loop per (dtype, operator), written once
 * as macros), the operands and results every kernel shares, and the dispatch (rt_kernel_call: each
 * operator's family from ops.def's KERNEL column, after the checks every kernel needs). Integers
 * wrap as two's complement and divide truncating toward zero, as in C; integer division by zero is
 * a run-time error; float16 is stored as RtHalf and computed in float. */
#include "runtime/kernel.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- integer helpers */

static int64_t floordiv_i64(int64_t x, int64_t y) {
  if (y == -1) return (int64_t)(0 - (uint64_t)x);
  int64_t q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) q--;
  return q;
}

static int64_t floormod_i64(int64_t x, int64_t y) {
  if (y == -1) return 0;
  int64_t r = x % y;
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}

/* x to the power y, wrapping; a negative exponent gives 1/x^|y| truncated toward zero. */
static uint64_t ipow(int64_t x, int64_t y, bool is_signed) {
  if (y < 0 && is_signed) {
    if (x == 1) return 1;
    if (x == -1) return (y & 1) ? (uint64_t)-1 : 1;
    return 0;
  }
  uint64_t r = 1, b = (uint64_t)x, e = (uint64_t)y;
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return r;
}

/* Shifts as numpy's: a count beyond the width (or negative) shifts every bit out; right shifts of
 * signed values are arithmetic. */
static uint64_t shl(uint64_t x, uint64_t y, int bits) { return y >= (uint64_t)bits ? 0 : x << y; }
static uint64_t shr_u(uint64_t x, uint64_t y, int bits) { return y >= (uint64_t)bits ? 0 : x >> y; }
static int64_t shr_s(int64_t x, uint64_t y, int bits) {
  if (y >= (uint64_t)bits) return x < 0 ? -1 : 0;
  return x < 0 ? ~(~x >> y) : x >> y;
}

static double floormod_f64(double x, double y) {
  double r = fmod(x, y);
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}

/* TVM's tir Max and Min, as its LLVM code generator emits them (src/target/llvm/codegen_llvm.cc): select(a > b, a,
 * b) and select(a < b, a, b) with ordered comparisons, so a NaN on either side gives the second operand. maximum,
 * minimum, nn.relu (max(x, 0)) and clip (max(min(x, a_max), a_min)) are these selects in topi. */
#define TVM_MAX(x, y) ((x) > (y) ? (x) : (y))
#define TVM_MIN(x, y) ((x) < (y) ? (x) : (y))

/* ---------------------------------------------------------------- binary loops */

/* The inner loop: n results from a (stride sa: 0 or 1) and b (stride sb), as S inputs computed
 * in C and stored as R. */
#define LOOP2(S, C, R, EXPR)                                                                   \
  do {                                                                                         \
    const S *A = a;                                                                            \
    const S *B = b;                                                                            \
    R *O = out;                                                                                \
    if (sa && sb)                                                                              \
      for (int64_t i = 0; i < n; i++) {                                                        \
        C x = (C)A[i], y = (C)B[i];                                                            \
        O[i] = (R)(EXPR);                                                                      \
      }                                                                                        \
    else if (sb) {                                                                             \
      C x = (C)A[0];                                                                           \
      for (int64_t i = 0; i < n; i++) {                                                        \
        C y = (C)B[i];                                                                         \
        O[i] = (R)(EXPR);                                                                      \
      }                                                                                        \
    } else if (sa) {                                                                           \
      C y = (C)B[0];                                                                           \
      for (int64_t i = 0; i < n; i++) {                                                        \
        C x = (C)A[i];                                                                         \
        O[i] = (R)(EXPR);                                                                      \
      }                                                                                        \
    } else {                                                                                   \
      C x = (C)A[0], y = (C)B[0];                                                              \
      for (int64_t i = 0; i < n; i++) O[i] = (R)(EXPR);                                        \
    }                                                                                          \
  } while (0)

#define COMPARISONS(S, C)                                                                      \
  case IR_OP_EQUAL: LOOP2(S, C, uint8_t, x == y); break;                                       \
  case IR_OP_NOT_EQUAL: LOOP2(S, C, uint8_t, x != y); break;                                   \
  case IR_OP_LESS: LOOP2(S, C, uint8_t, x < y); break;                                         \
  case IR_OP_LESS_EQUAL: LOOP2(S, C, uint8_t, x <= y); break;                                  \
  case IR_OP_GREATER: LOOP2(S, C, uint8_t, x > y); break;                                      \
  case IR_OP_GREATER_EQUAL: LOOP2(S, C, uint8_t, x >= y); break;                               \
  case IR_OP_LOGICAL_AND: LOOP2(S, C, S, (x != 0) && (y != 0)); break;                         \
  case IR_OP_LOGICAL_OR: LOOP2(S, C, S, (x != 0) || (y != 0)); break;                          \
  case IR_OP_LOGICAL_XOR: LOOP2(S, C, S, (x != 0) != (y != 0)); break;

/* Integers (and bool, as uint8 normalized afterwards). SIGNED is a constant 0 or 1. */
#define DEFINE_INT_BINARY(NAME, S, SIGNED)                                                      \
  static void NAME(IrOpId op, const void *a, int64_t sa, const void *b, int64_t sb, void *out, int64_t n, \
                   bool *div0) {                                                                \
    switch (op) {                                                                               \
    case IR_OP_ADD: LOOP2(S, S, S, (uint64_t)x + (uint64_t)y); break;                           \
    case IR_OP_SUBTRACT: LOOP2(S, S, S, (uint64_t)x - (uint64_t)y); break;                      \
    case IR_OP_MULTIPLY: LOOP2(S, S, S, (uint64_t)x * (uint64_t)y); break;                      \
    case IR_OP_DIVIDE:                                                                          \
    case IR_OP_TRUNC_DIVIDE:                                                                    \
      LOOP2(S, S, S, y == 0 ? (*div0 = true, 0) : (SIGNED && y == (S)-1) ? 0 - (uint64_t)x : (uint64_t)(x / y)); \
      break;                                                                                    \
    case IR_OP_MOD:                                                                             \
    case IR_OP_TRUNC_MOD: LOOP2(S, S, S, y == 0 ? (*div0 = true, 0) : (SIGNED && y == (S)-1) ? 0 : x % y); break; \
    case IR_OP_FLOOR_DIVIDE:                                                                    \
      LOOP2(S, S, S, y == 0 ? (*div0 = true, 0) : SIGNED ? (uint64_t)floordiv_i64((int64_t)x, (int64_t)y) : (uint64_t)(x / y)); \
      break;                                                                                    \
    case IR_OP_FLOOR_MOD:                                                                       \
      LOOP2(S, S, S, y == 0 ? (*div0 = true, 0) : SIGNED ? (uint64_t)floormod_i64((int64_t)x, (int64_t)y) : (uint64_t)(x % y)); \
      break;                                                                                    \
    case IR_OP_POWER: LOOP2(S, S, S, ipow((int64_t)x, (int64_t)y, SIGNED)); break;              \
    case IR_OP_MAXIMUM: LOOP2(S, S, S, TVM_MAX(x, y)); break;                                   \
    case IR_OP_MINIMUM: LOOP2(S, S, S, TVM_MIN(x, y)); break;                                   \
    case IR_OP_BITWISE_AND: LOOP2(S, S, S, x & y); break;                                       \
    case IR_OP_BITWISE_OR: LOOP2(S, S, S, x | y); break;                                        \
    case IR_OP_BITWISE_XOR: LOOP2(S, S, S, x ^ y); break;                                       \
    case IR_OP_LEFT_SHIFT: LOOP2(S, S, S, shl((uint64_t)x, (uint64_t)y, (int)sizeof(S) * 8)); break; \
    case IR_OP_RIGHT_SHIFT:                                                                     \
      LOOP2(S, S, S, SIGNED ? (uint64_t)shr_s((int64_t)x, (uint64_t)y, (int)sizeof(S) * 8)      \
                            : shr_u((uint64_t)x, (uint64_t)y, (int)sizeof(S) * 8));             \
      break;                                                                                    \
    COMPARISONS(S, S)                                                                           \
    default: break;                                                                             \
    }                                                                                           \
  }

#define DEFINE_FLOAT_BINARY(NAME, S, C)                                                         \
  static void NAME(IrOpId op, const void *a, int64_t sa, const void *b, int64_t sb, void *out, int64_t n, \
                   bool *div0) {                                                                \
    (void)div0;                                                                                 \
    switch (op) {                                                                               \
    case IR_OP_ADD: LOOP2(S, C, S, x + y); break;                                               \
    case IR_OP_SUBTRACT: LOOP2(S, C, S, x - y); break;                                          \
    case IR_OP_MULTIPLY: LOOP2(S, C, S, x * y); break;                                          \
    case IR_OP_DIVIDE: LOOP2(S, C, S, x / y); break;                                            \
    case IR_OP_MOD:                                                                             \
    case IR_OP_TRUNC_MOD: LOOP2(S, C, S, fmod(x, y)); break;                                    \
    case IR_OP_TRUNC_DIVIDE: LOOP2(S, C, S, trunc(x / y)); break;                               \
    case IR_OP_FLOOR_DIVIDE: LOOP2(S, C, S, floor((double)x / y)); break;                       \
    case IR_OP_FLOOR_MOD: LOOP2(S, C, S, floormod_f64(x, y)); break;                            \
    case IR_OP_POWER: LOOP2(S, C, S, pow(x, y)); break;                                         \
    case IR_OP_MAXIMUM: LOOP2(S, C, S, TVM_MAX(x, y)); break;                                   \
    case IR_OP_MINIMUM: LOOP2(S, C, S, TVM_MIN(x, y)); break;                                   \
    COMPARISONS(S, C)                                                                           \
    default: break;                                                                             \
    }                                                                                           \
  }

/* The dtypes with typed loops, in the order of dtype_index(): integers (with SIGNED), floats (with
 * the type they compute in). Bool has its own loops. */
#define INT_DTYPES(X)                                                                          \
  X(i8, int8_t, 1) X(i16, int16_t, 1) X(i32, int32_t, 1) X(i64, int64_t, 1)                    \
  X(u8, uint8_t, 0) X(u16, uint16_t, 0) X(u32, uint32_t, 0) X(u64, uint64_t, 0)
#define FLOAT_DTYPES(X) X(f16, RtHalf, float) X(f32, float, float) X(f64, double, double)

/* 0 for bool, then the order of INT_DTYPES and FLOAT_DTYPES. */
static int dtype_index(IrDType dt) {
  int size = dt.bits == 8 ? 0 : dt.bits == 16 ? 1 : dt.bits == 32 ? 2 : 3;
  switch (dt.code) {
  case IR_DT_BOOL: return 0;
  case IR_DT_INT: return 1 + size;
  case IR_DT_UINT: return 5 + size;
  default: return 9 + size - 1;
  }
}

DEFINE_INT_BINARY(binary_bool, uint8_t, 0)
#define X(NAME, S, SIGNED) DEFINE_INT_BINARY(binary_##NAME, S, SIGNED)
INT_DTYPES(X)
#undef X
#define X(NAME, S, C) DEFINE_FLOAT_BINARY(binary_##NAME, S, C)
FLOAT_DTYPES(X)
#undef X

typedef void (*BinaryLoop)(IrOpId, const void *, int64_t, const void *, int64_t, void *, int64_t, bool *);

#define X(NAME, S, T) binary_##NAME,
static const BinaryLoop binary_loops[] = {binary_bool, INT_DTYPES(X) FLOAT_DTYPES(X)};
#undef X

static bool is_comparison(IrOpId op) { return op >= IR_OP_EQUAL && op <= IR_OP_GREATER_EQUAL; }

/* ---------------------------------------------------------------- tensors as flat operands */

void rt_operand(RtOperand *o, RtValue v) {
  *o = (RtOperand){.dt = v.kind == RT_SCALAR ? v.dt : v.u.t->dt};
  if (v.kind == RT_TENSOR) {
    o->rank = v.u.t->rank;
    o->shape = v.u.t->shape;
    o->count = v.u.t->count;
    o->data = v.u.t->data;
    return;
  }
  o->count = 1;
  o->data = &o->one;
  rt_elem_set(&o->one, v.dt, 0, v);
}

void *rt_result_init(RtResult *r, IrDType dt, int rank, const int64_t *shape) {
  r->dt = dt;
  r->t = rank ? rt_tensor_new(dt, rank, shape) : NULL;
  return r->t ? r->t->data : &r->one;
}

RtValue rt_result_value(RtResult *r) {
  if (r->t) return (RtValue){.kind = RT_TENSOR, .u.t = r->t};
  return rt_elem_get(&r->one, r->dt, 0);
}

const char *rt_shape_text(int rank, const int64_t *shape) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_putc(&b, '(');
  for (int i = 0; i < rank; i++) ir_buf_printf(&b, "%s%lld", i ? ", " : "", (long long)shape[i]);
  ir_buf_putc(&b, ')'); /* `(3)`, as a tensor type writes it */
  return b.data;
}

int rt_axis(const RtSite *site, IrOpId op, int64_t axis, int rank) {
  if (axis < -rank || axis >= rank)
    rt_error(site->expr, "%s: axis %lld is out of range for a tensor of rank %d", ir_ops[op].name, (long long)axis,
             rank);
  return (int)(axis < 0 ? axis + rank : axis);
}

/* As the type error for the same shapes says it (typing/relation.c): dimensions counted from the
 * left of each argument, the rule last; lines after the first become notes. */
static _Noreturn void broadcast_error(const RtSite *site, IrOpId op, const RtOperand *a, const RtOperand *b, int axis) {
  int pa = a->rank - 1 - axis, pb = b->rank - 1 - axis;
  rt_error(site->expr,
           "`%s` cannot broadcast the shapes %s and %s\n"
           "dimension %d of the first argument is %lld, dimension %d of the second is %lld\n"
           "shapes align from the right; a dimension broadcasts when the two are equal or one is 1",
           ir_ops[op].name, rt_shape_text(a->rank, a->shape), rt_shape_text(b->rank, b->shape), pa,
           (long long)a->shape[pa], pb, (long long)b->shape[pb]);
}

/* ---------------------------------------------------------------- binary kernel */

/* A binary operator's typed loop over a row of n elements in blocks of RT_POLL_EVERY, polling
 * before each. */
static void in_blocks(BinaryLoop loop, IrOpId op, const char *a, int64_t sa, const char *b, int64_t sb, size_t ea,
                      char *out, size_t er, int64_t n, bool *div0, const RtSite *site) {
  for (int64_t i = 0; i < n; i += RT_POLL_EVERY) {
    rt_poll(site->expr);
    loop(op, a + (size_t)(i * sa) * ea, sa, b + (size_t)(i * sb) * ea, sb, out + (size_t)i * er,
         n - i < RT_POLL_EVERY ? n - i : RT_POLL_EVERY, div0);
  }
}

/* The bit operators on a dtype they do not take: a run-time error (the checker, as TVM's relations, lets them be). */
static _Noreturn void not_integers(IrOpId op, IrDType dt, const RtSite *site) {
  char name[24];
  rt_error(site->expr, "%s works on integer tensors%s, not %s (TVM's compiler refuses them too)", ir_ops[op].name,
           op == IR_OP_LEFT_SHIFT || op == IR_OP_RIGHT_SHIFT ? "" : " and bool", ir_dtype_name(dt, name));
}

static RtValue binary(IrOpId op, RtValue va, RtValue vb, const RtSite *site) {
  RtOperand a, b;
  rt_operand(&a, va);
  rt_operand(&b, vb);
  if (!ir_dtype_eq(a.dt, b.dt)) {
    char na[24], nb[24];
    rt_error(site->expr, "%s: the arguments' dtypes differ (%s and %s)", ir_ops[op].name, ir_dtype_name(a.dt, na),
             ir_dtype_name(b.dt, nb));
  }
  /* TVM types these by Broadcast, any element type, but its compiler takes integers only (type_check_integer_args
   * in src/tir/op/op.cc); a shift of bool, a one-bit integer to TVM, is undefined in its LLVM code. */
  if (op >= IR_OP_LEFT_SHIFT && op <= IR_OP_BITWISE_XOR && a.dt.code != IR_DT_INT && a.dt.code != IR_DT_UINT &&
      !(a.dt.code == IR_DT_BOOL && op >= IR_OP_BITWISE_AND))
    not_integers(op, a.dt, site);
  int rank = a.rank > b.rank ? a.rank : b.rank;
  if (rank > RT_MAX_RANK) rt_error(site->expr, "%s: tensors of rank %d are beyond the %d this kernel handles", ir_ops[op].name, rank, RT_MAX_RANK);
  int64_t shape[RT_MAX_RANK], stride_a[RT_MAX_RANK], stride_b[RT_MAX_RANK];
  int64_t acc_a = 1, acc_b = 1;
  for (int k = 0; k < rank; k++) { /* from the right */
    int ia = a.rank - 1 - k, ib = b.rank - 1 - k, io = rank - 1 - k;
    int64_t da = ia >= 0 ? a.shape[ia] : 1, db = ib >= 0 ? b.shape[ib] : 1;
    if (da != db && da != 1 && db != 1) broadcast_error(site, op, &a, &b, k);
    shape[io] = da == 1 ? db : da;
    stride_a[io] = da == 1 ? 0 : acc_a;
    stride_b[io] = db == 1 ? 0 : acc_b;
    acc_a = rt_mul_sat(acc_a, da); /* saturated: an empty result may have other dimensions past int64 */
    acc_b = rt_mul_sat(acc_b, db);
  }
  IrDType rdt = is_comparison(op) ? IR_DTYPE(IR_DT_BOOL, 1) : a.dt;
  RtResult r;
  char *out = rt_result_init(&r, rdt, rank, shape);
  int64_t count = 1;
  for (int k = 0; k < rank; k++) count = rt_mul_sat(count, shape[k]);
  size_t ea = rt_dtype_size(a.dt), er = rt_dtype_size(rdt);
  BinaryLoop loop = binary_loops[dtype_index(a.dt)];
  bool div0 = false;
  if (count == 0) {
    /* nothing to compute */
  } else if (rank == 0 || (a.count == count && b.count == count) || a.count == 1 || b.count == 1) {
    in_blocks(loop, op, a.data, a.count != 1 || count == 1, b.data, b.count != 1 || count == 1, ea, out, er, count,
              &div0, site);
  } else {
    /* Row by row over the last dimension, with an odometer over the others; short rows count
     * their work down to a poll, long ones are cut into blocks. */
    int64_t inner = shape[rank - 1], rows = count / inner, sa = stride_a[rank - 1] != 0, sb = stride_b[rank - 1] != 0;
    int64_t idx[RT_MAX_RANK] = {0}, oa = 0, ob = 0, left = 0;
    for (int64_t row = 0; row < rows; row++) {
      const char *pa = (const char *)a.data + (size_t)oa * ea, *pb = (const char *)b.data + (size_t)ob * ea;
      char *po = out + (size_t)(row * inner) * er;
      if (inner <= RT_POLL_EVERY) {
        rt_poll_work(site, &left, inner + 16);
        loop(op, pa, sa, pb, sb, po, inner, &div0);
      } else {
        in_blocks(loop, op, pa, sa, pb, sb, ea, po, er, inner, &div0, site);
      }
      for (int k = rank - 2; k >= 0; k--) {
        oa += stride_a[k];
        ob += stride_b[k];
        if (++idx[k] < shape[k]) break;
        oa -= stride_a[k] * shape[k];
        ob -= stride_b[k] * shape[k];
        idx[k] = 0;
      }
    }
  }
  if (div0) rt_error(site->expr, "integer division by zero");
  if (rdt.code == IR_DT_BOOL && !is_comparison(op)) /* bool arithmetic: back to 0 and 1, in polled blocks */
    for (int64_t i0 = 0; i0 < (r.t ? count : 1); i0 += RT_POLL_EVERY) {
      rt_poll(site->expr);
      int64_t i1 = (r.t ? count : 1) - i0 < RT_POLL_EVERY ? (r.t ? count : 1) : i0 + RT_POLL_EVERY;
      for (int64_t i = i0; i < i1; i++) ((uint8_t *)out)[i] = out[i] != 0;
    }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- unary kernels */

#define LOOP1(S, C, EXPR)                                                                      \
  do {                                                                                         \
    const S *A = a;                                                                            \
    S *O = out;                                                                                \
    for (int64_t i = 0; i < n; i++) {                                                          \
      C x = (C)A[i];                                                                           \
      (void)x;                                                                                 \
      O[i] = (S)(EXPR);                                                                        \
    }                                                                                          \
  } while (0)

/* A function, so that testing an unsigned value's sign is not a warning in the shared macro. */
static inline bool is_negative(int64_t x) { return x < 0; }

/* Transcendental functions of integers go through double and back, saturating. */
static int64_t sat(double x) { return rt_scalar_i64(rt_scalar_from_f64(IR_DTYPE(IR_DT_INT, 64), x)); }

#define DEFINE_INT_UNARY(NAME, S, SIGNED)                                                       \
  static void NAME(IrOpId op, const void *a, void *out, int64_t n, double p, double q) {        \
    switch (op) {                                                                               \
    case IR_OP_CLIP: {                                                                          \
      S lo = SIGNED ? (S)rt_f2i64(p) : (S)rt_f2u64(p), hi = SIGNED ? (S)rt_f2i64(q) : (S)rt_f2u64(q); \
      LOOP1(S, S, TVM_MAX(TVM_MIN(x, hi), lo));                                                 \
      break;                                                                                    \
    }                                                                                           \
    case IR_OP_NN_LEAKY_RELU: LOOP1(S, S, SIGNED && is_negative((int64_t)x) ? sat(p * (double)x) : (int64_t)x); break; \
    case IR_OP_NEGATIVE: LOOP1(S, S, 0 - (uint64_t)x); break;                                   \
    case IR_OP_ABS: LOOP1(S, S, SIGNED && is_negative((int64_t)x) ? 0 - (uint64_t)x : (uint64_t)x); break;     \
    case IR_OP_SIGN: LOOP1(S, S, (x > (S)0) - (SIGNED && is_negative((int64_t)x))); break;                               \
    case IR_OP_EXP: LOOP1(S, S, sat(exp((double)x))); break;                                    \
    case IR_OP_LOG: LOOP1(S, S, sat(log((double)x))); break;                                    \
    case IR_OP_SQRT: LOOP1(S, S, sat(sqrt((double)x))); break;                                  \
    case IR_OP_RSQRT: LOOP1(S, S, sat(1 / sqrt((double)x))); break;                             \
    case IR_OP_SIGMOID: LOOP1(S, S, sat(1 / (1 + exp(-(double)x)))); break;                     \
    case IR_OP_TANH: LOOP1(S, S, sat(tanh((double)x))); break;                                  \
    case IR_OP_SIN: LOOP1(S, S, sat(sin((double)x))); break;                                    \
    case IR_OP_COS: LOOP1(S, S, sat(cos((double)x))); break;                                    \
    case IR_OP_ERF: case IR_OP_FAST_ERF: LOOP1(S, S, sat(erf((double)x))); break;               \
    case IR_OP_FAST_EXP: LOOP1(S, S, sat(exp((double)x))); break;                               \
    case IR_OP_FAST_TANH: LOOP1(S, S, sat(tanh((double)x))); break;                             \
    case IR_OP_LOG2: LOOP1(S, S, sat(log2((double)x))); break;                                  \
    case IR_OP_LOG10: LOOP1(S, S, sat(log10((double)x))); break;                                \
    case IR_OP_TAN: LOOP1(S, S, sat(tan((double)x))); break;                                    \
    case IR_OP_ASIN: LOOP1(S, S, sat(asin((double)x))); break;                                  \
    case IR_OP_ACOS: LOOP1(S, S, sat(acos((double)x))); break;                                  \
    case IR_OP_ATAN: LOOP1(S, S, sat(atan((double)x))); break;                                  \
    case IR_OP_SINH: LOOP1(S, S, sat(sinh((double)x))); break;                                  \
    case IR_OP_COSH: LOOP1(S, S, sat(cosh((double)x))); break;                                  \
    case IR_OP_ASINH: LOOP1(S, S, sat(asinh((double)x))); break;                                \
    case IR_OP_ACOSH: LOOP1(S, S, sat(acosh((double)x))); break;                                \
    case IR_OP_ATANH: LOOP1(S, S, sat(atanh((double)x))); break;                                \
    case IR_OP_BITWISE_NOT: LOOP1(S, S, ~(uint64_t)x); break;                                   \
    case IR_OP_LOGICAL_NOT: LOOP1(S, S, x == 0); break;                                         \
    case IR_OP_ZEROS_LIKE: LOOP1(S, S, 0); break;                                               \
    case IR_OP_ONES_LIKE: LOOP1(S, S, 1); break;                                                \
    case IR_OP_NN_RELU: LOOP1(S, S, SIGNED && is_negative((int64_t)x) ? 0 : x); break;                                   \
    default: LOOP1(S, S, x); break; /* copy, floor, ceil, round, trunc */                              \
    }                                                                                           \
  }

#define DEFINE_FLOAT_UNARY(NAME, S, C)                                                          \
  static void NAME(IrOpId op, const void *a, void *out, int64_t n, double p, double q) {        \
    C lo = (C)p, hi = (C)q;                                                                     \
    (void)lo, (void)hi;                                                                         \
    switch (op) {                                                                               \
    case IR_OP_CLIP: LOOP1(S, C, TVM_MAX(TVM_MIN(x, hi), lo)); break; /* NaN gives hi */        \
    case IR_OP_NN_LEAKY_RELU: LOOP1(S, C, x < 0 ? lo * x : x); break;                           \
    case IR_OP_NEGATIVE: LOOP1(S, C, -x); break;                                                \
    case IR_OP_ABS: LOOP1(S, C, fabs(x)); break;                                                \
    case IR_OP_SIGN: LOOP1(S, C, x > 0 ? 1 : x < 0 ? -1 : x == 0 ? 0 : x); break;               \
    case IR_OP_EXP: LOOP1(S, C, exp(x)); break;                                                 \
    case IR_OP_LOG: LOOP1(S, C, log(x)); break;                                                 \
    case IR_OP_SQRT: LOOP1(S, C, sqrt(x)); break;                                               \
    case IR_OP_RSQRT: LOOP1(S, C, 1 / sqrt(x)); break;                                          \
    case IR_OP_SIGMOID: LOOP1(S, C, 1 / (1 + exp(-(double)x))); break;                          \
    case IR_OP_TANH: LOOP1(S, C, tanh(x)); break;                                               \
    case IR_OP_SIN: LOOP1(S, C, sin(x)); break;                                                 \
    case IR_OP_COS: LOOP1(S, C, cos(x)); break;                                                 \
    case IR_OP_FLOOR: LOOP1(S, C, floor(x)); break;                                             \
    case IR_OP_CEIL: LOOP1(S, C, ceil(x)); break;                                               \
    case IR_OP_ROUND: LOOP1(S, C, round(x)); break; /* TVM's tir.round is llvm.round: halves away from 0 */ \
    case IR_OP_TRUNC: LOOP1(S, C, trunc(x)); break;                                             \
    case IR_OP_ERF: case IR_OP_FAST_ERF: LOOP1(S, C, erf(x)); break;                            \
    case IR_OP_FAST_EXP: LOOP1(S, C, exp(x)); break;                                            \
    case IR_OP_FAST_TANH: LOOP1(S, C, tanh(x)); break;                                          \
    case IR_OP_LOG2: LOOP1(S, C, log2(x)); break;                                               \
    case IR_OP_LOG10: LOOP1(S, C, log10(x)); break;                                             \
    case IR_OP_TAN: LOOP1(S, C, tan(x)); break;                                                 \
    case IR_OP_ASIN: LOOP1(S, C, asin(x)); break;                                               \
    case IR_OP_ACOS: LOOP1(S, C, acos(x)); break;                                               \
    case IR_OP_ATAN: LOOP1(S, C, atan(x)); break;                                               \
    case IR_OP_SINH: LOOP1(S, C, sinh(x)); break;                                               \
    case IR_OP_COSH: LOOP1(S, C, cosh(x)); break;                                               \
    case IR_OP_ASINH: LOOP1(S, C, asinh(x)); break;                                             \
    case IR_OP_ACOSH: LOOP1(S, C, acosh(x)); break;                                             \
    case IR_OP_ATANH: LOOP1(S, C, atanh(x)); break;                                             \
    case IR_OP_LOGICAL_NOT: LOOP1(S, C, x == 0); break;                                         \
    case IR_OP_ZEROS_LIKE: LOOP1(S, C, 0); break;                                               \
    case IR_OP_ONES_LIKE: LOOP1(S, C, 1); break;                                                \
    case IR_OP_NN_RELU: LOOP1(S, C, TVM_MAX(x, (C)0)); break; /* NaN and -0 give 0 */            \
    default: LOOP1(S, C, x); break; /* copy */                                                  \
    }                                                                                           \
  }

#define X(NAME, S, SIGNED) DEFINE_INT_UNARY(unary_##NAME, S, SIGNED)
INT_DTYPES(X)
#undef X
#define X(NAME, S, C) DEFINE_FLOAT_UNARY(unary_##NAME, S, C)
FLOAT_DTYPES(X)
#undef X

static void unary_bool(IrOpId op, const void *a, void *out, int64_t n, double p, double q) {
  (void)p, (void)q;
  const uint8_t *A = a;
  uint8_t *O = out;
  for (int64_t i = 0; i < n; i++) {
    bool x = A[i] != 0;
    switch (op) {
    case IR_OP_LOGICAL_NOT:
    case IR_OP_BITWISE_NOT: O[i] = !x; break;
    case IR_OP_ZEROS_LIKE: O[i] = 0; break;
    case IR_OP_ONES_LIKE: O[i] = 1; break;
    default: O[i] = x; break; /* the others keep a 0 or 1 as it is */
    }
  }
}

#define X(NAME, S, T) unary_##NAME,
static void (*const unary_loops[])(IrOpId, const void *, void *, int64_t, double, double) = {
    unary_bool, INT_DTYPES(X) FLOAT_DTYPES(X)};
#undef X

/* The values an integer dtype holds, as doubles (clip's bounds are clamped to them). */
static void int_range(IrDType dt, double *lo, double *hi) {
  if (dt.code == IR_DT_UINT) {
    *lo = 0;
    *hi = ldexp(1, dt.bits) - 1;
  } else {
    *lo = -ldexp(1, dt.bits - 1);
    *hi = ldexp(1, dt.bits - 1) - 1;
  }
}

/* isnan, isinf, isfinite: a bool per element (integers are finite). */
static RtValue classify(IrOpId op, const RtOperand *a, const RtSite *site) {
  RtResult r;
  uint8_t *O = rt_result_init(&r, IR_DTYPE(IR_DT_BOOL, 1), a->rank, a->shape);
  bool is_float = a->dt.code == IR_DT_FLOAT;
  for (int64_t i = 0; i < a->count; i++) {
    rt_poll_every(site, i);
    double x = is_float ? rt_scalar_f64(rt_elem_get(a->data, a->dt, i)) : 0;
    O[i] = op == IR_OP_ISNAN ? isnan(x) : op == IR_OP_ISINF ? isinf(x) : isfinite(x);
  }
  return rt_result_value(&r);
}

static RtValue unary(IrOpId op, RtValue v, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, v);
  if (op == IR_OP_ISNAN || op == IR_OP_ISINF || op == IR_OP_ISFINITE) return classify(op, &a, site);
  if (op == IR_OP_BITWISE_NOT && a.dt.code == IR_DT_FLOAT) not_integers(op, a.dt, site);
  const IrOpAttrs *attrs = site->attrs;
  double p = 0, q = 0;
  if (op == IR_OP_CLIP) {
    p = ir_attr_at(attrs, IR_A_A_MIN)->f;
    q = ir_attr_at(attrs, IR_A_A_MAX)->f;
    if (a.dt.code == IR_DT_INT || a.dt.code == IR_DT_UINT) {
      double lo, hi;
      int_range(a.dt, &lo, &hi);
      p = trunc(p < lo ? lo : p > hi ? hi : p); /* TVM casts the bounds to the dtype */
      q = trunc(q < lo ? lo : q > hi ? hi : q);
    }
  } else if (op == IR_OP_NN_LEAKY_RELU) {
    p = ir_attr_float(attrs, IR_A_ALPHA, 0.25); /* LeakyReluAttrs' C++ default (Python's relay.nn.leaky_relu: 0.01) */
  }
  RtResult r;
  void *out = rt_result_init(&r, a.dt, a.rank, a.shape);
  size_t esize = rt_dtype_size(a.dt);
  for (int64_t i = 0; i < a.count; i += RT_POLL_EVERY) { /* in blocks, polling before each */
    rt_poll(site->expr);
    int64_t n = a.count - i < RT_POLL_EVERY ? a.count - i : RT_POLL_EVERY;
    unary_loops[dtype_index(a.dt)](op, (const char *)a.data + (size_t)i * esize, (char *)out + (size_t)i * esize, n, p, q);
  }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- dispatch */

RtValue rt_kernel_binary(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)nargs;
  return binary(op, args[0], args[1], site);
}

RtValue rt_kernel_unary(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)nargs;
  return unary(op, args[0], site);
}

/* An annotation (on_device, device_copy): relay has one device, so the value itself. */
RtValue rt_kernel_annotation(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)op, (void)nargs, (void)site;
  return args[0];
}

/* Each operator's family, as ir/ops.def names it. */
static RtValue (*const families[IR_OP_COUNT])(IrOpId, const RtValue *, int, const RtSite *) = {
#define IR_OP(id, name, min_args, max_args, attrs, rel, kernel) rt_kernel_##kernel,
#include "ir/ops.def"
#undef IR_OP
};

#ifndef NDEBUG
/* Whether value v fits type t where t is known: a tensor's rank, its constant dimensions and its
 * dtype; a tuple's fields. Shape variables, `?` and holes fit anything. */
static bool fits(RtValue v, const IrType *t) {
  if (!t) return true;
  if (t->kind == IR_TYPE_TUPLE) {
    if (v.kind != RT_TUPLE || v.u.tup->n != t->u.tuple.n) return false;
    for (int i = 0; i < t->u.tuple.n; i++)
      if (!fits(v.u.tup->f[i], t->u.tuple.fields[i])) return false;
    return true;
  }
  if (t->kind != IR_TYPE_TENSOR) return true;
  if (v.kind != RT_SCALAR && v.kind != RT_TENSOR) return false;
  const IrType *dt = t->u.tensor.dtype, *sh = t->u.tensor.shape;
  IrDType vdt = v.kind == RT_SCALAR ? v.dt : v.u.t->dt;
  if (dt->kind == IR_TYPE_DTYPE && !ir_dtype_eq(dt->u.dtype, vdt)) return false;
  if (sh->kind != IR_TYPE_SHAPE) return true;
  int rank = v.kind == RT_SCALAR ? 0 : v.u.t->rank;
  if (rank != sh->u.shape.rank) return false;
  for (int i = 0; i < rank; i++)
    if (sh->u.shape.dims[i]->kind == IR_TYPE_DIM && sh->u.shape.dims[i]->u.dim != v.u.t->shape[i]) return false;
  return true;
}

/* Debug builds check every operator call's result against the type its relation gave the call:
 * a relation and a kernel that disagree are a bug in relay (a type the checker trusts that the run
 * does not keep), caught by any test that runs the operator. A site without a type (an operator
 * used as a value, or run by another operator's kernel) is not checked. */
static RtValue checked(IrOpId op, RtValue v, const RtSite *site) {
  if (!fits(v, site->type))
    rt_error(site->expr,
             "internal error: the kernel of `%s` gave a value that does not have the call's type %s (a "
             "bug in relay: its relation and its kernel disagree)",
             ir_ops[op].name, ir_type_str(site->type));
  return v;
}
#endif

/* Kernels keep shapes and indices in arrays of RT_MAX_RANK on the stack: a tensor of higher rank (a
 * creation operator makes one) is refused here, for every kernel, before any of them reads it. */
static void check_ranks(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  for (int i = 0; i < nargs; i++) {
    const RtValue *v = &args[i];
    int n = v->kind == RT_TUPLE ? v->u.tup->n : 1;
    for (int j = 0; j < n; j++) {
      const RtValue *x = v->kind == RT_TUPLE ? &v->u.tup->f[j] : v;
      if (x->kind == RT_TENSOR && x->u.t->rank > RT_MAX_RANK)
        rt_error(site->expr, "%s: a tensor of rank %d is beyond the %d dimensions the operators support",
                 ir_ops[op].name, x->u.t->rank, RT_MAX_RANK);
    }
  }
}

/* A dtype of vector lanes (int8x4) types as in TVM, but relay's tensors hold one number an element:
 * an operator asked for one (the only way to make such a value) is refused here, for every kernel. */
static void check_lanes(IrOpId op, const RtSite *site) {
  static const IrAttrId dtype_attrs[] = {IR_A_DTYPE, IR_A_OUT_DTYPE};
  for (size_t i = 0; i < sizeof dtype_attrs / sizeof dtype_attrs[0]; i++) {
    IrDType dt = ir_attr_dtype(site->attrs, dtype_attrs[i], IR_DTYPE(IR_DT_FLOAT, 32));
    char name[24];
    if (dt.lanes != 1)
      rt_error(site->expr, "%s: %s=\"%s\" has %u vector lanes; relay's tensors have one lane", ir_ops[op].name,
               ir_attr_name(dtype_attrs[i]), ir_dtype_name(dt, name), (unsigned)dt.lanes);
  }
}

RtValue rt_kernel_call(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  ASSERT(site && site->attrs);
  check_ranks(op, args, nargs, site);
  check_lanes(op, site);
#ifndef NDEBUG
  return checked(op, families[op](op, args, nargs, site), site);
#else
  return families[op](op, args, nargs, site);
#endif
}
