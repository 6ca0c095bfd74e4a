/* The matrix products: nn.dense, nn.matmul and nn.batch_matmul, the one gemm they and the
 * convolutions share, and nn.bias_add through the broadcasting add. float32 and float64 products
 * call OpenBLAS (sgemm, dgemm), or relay's own products where it cannot be loaded (gemm.c);
 * float16 is widened to float32 for sgemm; integers multiply in C loops that wrap as C does. */
#include "runtime/kernel.h"

#ifndef RELAY_WASM
#include <dlfcn.h>
#endif
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "runtime/gemm.h"

/* ---------------------------------------------------------------- OpenBLAS, loaded on first use */

/* OpenBLAS is opened by the first matrix product, not linked: a program without one neither
 * loads it nor its libgfortran (relocating them was 40% of `relay -e 0`'s instructions), and its
 * worker threads, which spin (calling sched_yield) for 2^28 cycles, about 0.1 s, after start-up
 * and after every product, cannot take the second core of a two-core machine from the evaluator
 * and the collector while a scalar program runs. Before opening it, OPENBLAS_THREAD_TIMEOUT
 * (log2 of the cycles; read as OpenBLAS starts) is set to 20, well under a millisecond, unless
 * the environment sets it. */
typedef struct {
  RtSgemm *sgemm;
  RtDgemm *dgemm;
} Blas;

/* The products, loading the library the first time (dlsym's results stay in rt_state); without it,
 * relay's own (gemm.c), which are the only ones in the WebAssembly build. */
static Blas load_blas(void) {
#ifdef RELAY_WASM
  return (Blas){rt_portable_sgemm, rt_portable_dgemm};
#else
  if (!rt_state.blas_sgemm && !rt_state.blas_portable) {
    setenv("OPENBLAS_THREAD_TIMEOUT", "20", 0);
    /* Its worker threads start as it loads and inherit this thread's signal mask: Ctrl-C's SIGINT
     * is for the evaluating thread alone (repl/main.c). */
    sigset_t intr, old;
    sigemptyset(&intr);
    sigaddset(&intr, SIGINT);
    pthread_sigmask(SIG_BLOCK, &intr, &old);
    const char *choice = getenv("RELAY_BLAS");
    bool portable = choice && !strcmp(choice, "portable");
    void *lib = portable ? NULL : dlopen(RELAY_OPENBLAS, RTLD_NOW | RTLD_LOCAL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    void *s = lib ? dlsym(lib, "cblas_sgemm") : NULL, *d = lib ? dlsym(lib, "cblas_dgemm") : NULL;
    if (s && d) {
      rt_state.blas_dgemm = d;
      rt_state.blas_sgemm = s;
    } else { /* no OpenBLAS (or RELAY_BLAS=portable): relay's own products, slower, the same results up to rounding */
      rt_state.blas_portable = true;
    }
  }
  if (rt_state.blas_portable) return (Blas){rt_portable_sgemm, rt_portable_dgemm};
  /* POSIX lets a data pointer from dlsym become a function pointer; ISO C has no cast for it. */
  Blas b;
  memcpy(&b.dgemm, &rt_state.blas_dgemm, sizeof b.dgemm);
  memcpy(&b.sgemm, &rt_state.blas_sgemm, sizeof b.sgemm);
  return b;
#endif
}

/* ---------------------------------------------------------------- the matrix product */

static float *widen(const RtSite *site, const RtHalf *h, int64_t n) {
  float *f = rt_alloc_array(n, sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    rt_poll_every(site, i);
    f[i] = (float)h[i];
  }
  return f;
}

/* One OpenBLAS call cannot be interrupted, so a large product is a sequence of calls on blocks,
 * with a poll before each: at most GEMM_WORK bytes' worth of multiply-adds (2^30 in float32, 2^29
 * in float64: about 25 ms on one core) and GEMM_TOUCH bytes of the three matrices (32 MB: the
 * memory-bound shapes, a vector by a matrix, and a product into fresh memory, whose page faults
 * OpenBLAS takes). The inner dimension is split first (the blocks add into C with beta 1):
 * OpenBLAS packs each element of A and B once per slice of the inner dimension anyway, so this
 * costs nothing down to slices of GEMM_K_MIN (at 128, 7% more time; rough checks, one thread).
 * Then C is cut into blocks of rows and columns, the columns kept about twice as many as the rows:
 * B is packed again for each block of rows (about 5% more at 512 rows) and A for each block of
 * columns (about 9% at 512). A product below both bounds, as bench/'s 1024 x 1024 dense and
 * ResNet-18's convolutions are, is one call; a 4000 x 4000 square one is blocks of 1000 x 2000 by
 * 500. */
enum { GEMM_K_MIN = 256 };
#define GEMM_WORK 4294967296.0 /* 2^32 */
#define GEMM_TOUCH 33554432.0 /* 2^25 */

static bool gemm_fits(int64_t m, int64_t n, int64_t k, double esize) {
  double M = (double)m, N = (double)n, K = (double)k;
  return M * N * K * esize <= GEMM_WORK && (M * K + K * N + M * N) * esize <= GEMM_TOUCH;
}

typedef struct {
  Blas blas;
  bool f64, ta, tb;
  int64_t m, n, k; /* the whole product's */
} Gemm;

/* C[i.., j..] (+)= op(A)[i.., p..] op(B)[p.., j..] for the block of mb x nb by kb at (i, j, p). */
static void gemm_block(const Gemm *g, int64_t i, int64_t j, int64_t p, int64_t mb, int64_t nb, int64_t kb,
                       const void *A, const void *B, void *C) {
  size_t es = g->f64 ? 8 : 4;
  const char *a = (const char *)A + (size_t)(g->ta ? p * g->m + i : i * g->k + p) * es;
  const char *b = (const char *)B + (size_t)(g->tb ? j * g->k + p : p * g->n + j) * es;
  char *c = (char *)C + (size_t)(i * g->n + j) * es;
  enum CBLAS_TRANSPOSE TA = g->ta ? CblasTrans : CblasNoTrans, TB = g->tb ? CblasTrans : CblasNoTrans;
  int lda = (int)(g->ta ? g->m : g->k), ldb = (int)(g->tb ? g->k : g->n), ldc = (int)g->n;
  if (g->f64)
    g->blas.dgemm(CblasRowMajor, TA, TB, (int)mb, (int)nb, (int)kb, 1.0, (const double *)a, lda, (const double *)b,
                  ldb, p ? 1.0 : 0.0, (double *)c, ldc);
  else
    g->blas.sgemm(CblasRowMajor, TA, TB, (int)mb, (int)nb, (int)kb, 1.0f, (const float *)a, lda, (const float *)b,
                  ldb, p ? 1.0f : 0.0f, (float *)c, ldc);
}

static void gemm_blas(const RtSite *site, const Gemm *g, const void *A, const void *B, void *C) {
  int64_t mb = g->m, nb = g->n, kb = g->k;
  double es = g->f64 ? 8 : 4;
  while (!gemm_fits(mb, nb, kb, es) && kb / 2 >= GEMM_K_MIN) kb = (kb + 1) / 2;
  while (!gemm_fits(mb, nb, kb, es) && (mb > 1 || nb > 1)) {
    if (mb > 1 && 2 * mb >= nb) mb = (mb + 1) / 2;
    else nb = (nb + 1) / 2;
  }
  while (!gemm_fits(mb, nb, kb, es) && kb > 1) kb = (kb + 1) / 2;
  for (int64_t i = 0; i < g->m; i += mb)
    for (int64_t j = 0; j < g->n; j += nb)
      for (int64_t p = 0; p < g->k; p += kb) {
        rt_poll(site->expr);
        gemm_block(g, i, j, p, g->m - i < mb ? g->m - i : mb, g->n - j < nb ? g->n - j : nb,
                   g->k - p < kb ? g->k - p : kb, A, B, C);
      }
}

void rt_gemm(const RtSite *site, IrDType dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *A,
                 const void *B, void *C) {
  if (m == 0 || n == 0) return;
  size_t esize = rt_dtype_size(dt);
  if (k == 0) {
    rt_zero(site, C, (size_t)(m * n) * esize);
    return;
  }
  bool blas = dt.code == IR_DT_FLOAT;
  if (blas && (m > INT_MAX || n > INT_MAX || k > INT_MAX))
    rt_error(site->expr, "a matrix product of %lld x %lld by %lld x %lld is beyond OpenBLAS's 32-bit sizes", (long long)m,
             (long long)k, (long long)k, (long long)n);
  if (blas) {
    Gemm g = {load_blas(), dt.bits == 64, ta, tb, m, n, k};
    if (dt.bits != 16) {
      gemm_blas(site, &g, A, B, C);
    } else { /* float16: in float32 */
      float *c = rt_alloc_atomic(sizeof(float) * (size_t)(m * n));
      gemm_blas(site, &g, widen(site, A, m * k), widen(site, B, k * n), c);
      for (int64_t i = 0; i < m * n; i++) {
        rt_poll_every(site, i);
        ((RtHalf *)C)[i] = (RtHalf)c[i];
      }
    }
  } else { /* integers: wrapping, i-k-j order */
    uint64_t *acc = rt_alloc_atomic(sizeof(uint64_t) * (size_t)n);
    int64_t left = 0;
    for (int64_t i = 0; i < m; i++) {
      rt_zero(site, acc, sizeof(uint64_t) * (size_t)n);
      for (int64_t p = 0; p < k; p++) {
        uint64_t a = rt_elem_get(A, dt, ta ? p * m + i : i * k + p).u.u;
        rt_poll_work(site, &left, a == 0 ? 1 : n + 1);
        if (a == 0) continue;
        for (int64_t j = 0; j < n; j++) {
          rt_poll_every(site, j + 1);
          acc[j] += a * rt_elem_get(B, dt, tb ? j * k + p : p * n + j).u.u;
        }
      }
      for (int64_t j = 0; j < n; j++) {
        rt_poll_every(site, j);
        rt_elem_set(C, dt, i * n + j, dt.code == IR_DT_BOOL ? rt_bool(acc[j] != 0) : rt_scalar_from_u64(dt, acc[j]));
      }
    }
  }
}

/* nn.dense (x by w transposed) and nn.matmul; with transpose_a, the last two axes of x are
 * transposed, one matrix product per leading index (TVM's). */
static RtValue dense(const RtOperand *x, const RtOperand *w, const IrOpAttrs *at, const RtSite *site, bool matmul) {
  bool ta = matmul && ir_attr_at(at, IR_A_TRANSPOSE_A)->b, tb = matmul ? ir_attr_at(at, IR_A_TRANSPOSE_B)->b : true;
  const char *name = matmul ? "nn.matmul" : "nn.dense";
  if (x->rank < 1 || w->rank != 2 || (ta && x->rank < 2))
    rt_error(site->expr, "%s: the arguments' ranks do not fit", name);
  int r = x->rank;
  int64_t k = ta ? x->shape[r - 2] : x->shape[r - 1], m = ta ? x->shape[r - 1] : 1;
  int64_t kw = tb ? w->shape[1] : w->shape[0], n = tb ? w->shape[0] : w->shape[1];
  if (k != kw)
    rt_error(site->expr, "%s: the inner dimensions differ: %s by %s", name, rt_shape_text(x->rank, x->shape),
             rt_shape_text(w->rank, w->shape));
  int64_t shape[RT_MAX_RANK];
  if (r > RT_MAX_RANK) rt_error(site->expr, "%s: rank %d is beyond the %d supported", name, r, RT_MAX_RANK);
  memcpy(shape, x->shape, sizeof(int64_t) * (size_t)r);
  if (ta) shape[r - 2] = m;
  shape[r - 1] = n;
  int64_t batch = 1; /* the leading dimensions: rows of one product, or (ta) separate products */
  for (int i = 0; i < r - (ta ? 2 : 1); i++) batch = rt_mul_sat(batch, x->shape[i]);
  RtResult res;
  char *out = rt_result_init(&res, x->dt, r, shape);
  if (!ta) {
    rt_gemm(site, x->dt, false, tb, batch, n, k, x->data, w->data, out);
    return rt_result_value(&res);
  }
  size_t esize = rt_dtype_size(x->dt);
  for (int64_t i = 0; i < batch && m != 0 && n != 0; i++)
    rt_gemm(site, x->dt, true, tb, m, n, k, (const char *)x->data + (size_t)(i * k * m) * esize, w->data,
            out + (size_t)(i * m * n) * esize);
  return rt_result_value(&res);
}

static RtValue batch_matmul(const RtOperand *x, const RtOperand *y, const IrOpAttrs *at, const RtSite *site) {
  bool ta = ir_attr_at(at, IR_A_TRANSPOSE_A)->b, tb = ir_attr_at(at, IR_A_TRANSPOSE_B)->b; /* False when omitted (BatchMatmulAttrs) */
  if (x->rank != 3 || y->rank != 3) rt_error(site->expr, "nn.batch_matmul takes tensors of rank 3");
  int64_t bx = x->shape[0], by = y->shape[0];
  if (bx != by && bx != 1 && by != 1) rt_error(site->expr, "nn.batch_matmul: the batch dimensions %lld and %lld differ", (long long)bx, (long long)by);
  int64_t b = bx == 1 ? by : bx;
  int64_t m = ta ? x->shape[2] : x->shape[1], k = ta ? x->shape[1] : x->shape[2];
  int64_t ky = tb ? y->shape[2] : y->shape[1], n = tb ? y->shape[1] : y->shape[2];
  if (k != ky)
    rt_error(site->expr, "nn.batch_matmul: the inner dimensions differ: %s by %s", rt_shape_text(3, x->shape), rt_shape_text(3, y->shape));
  int64_t shape[3] = {b, m, n};
  size_t esize = rt_dtype_size(x->dt);
  RtResult res;
  char *out = rt_result_init(&res, x->dt, 3, shape);
  for (int64_t i = 0; i < b && m != 0 && n != 0; i++) /* an empty product per batch: none to run */
    rt_gemm(site, x->dt, ta, tb, m, n, k, (const char *)x->data + (size_t)((bx == 1 ? 0 : i) * m * k) * esize,
         (const char *)y->data + (size_t)((by == 1 ? 0 : i) * k * n) * esize, out + (size_t)(i * m * n) * esize);
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- bias_add */

static RtValue bias_add(RtValue x, RtValue bias, const IrOpAttrs *at, const RtSite *site) {
  RtOperand a;
  rt_operand(&a, x);
  int axis = rt_axis(site, IR_OP_NN_BIAS_ADD, ir_attr_int(at, IR_A_AXIS, 1), a.rank);
  /* One element broadcasts, as TVM's expand_dims-then-add does (a `(1)` bias on a `?` channel). */
  if (bias.kind != RT_TENSOR || bias.u.t->rank != 1 || (bias.u.t->shape[0] != a.shape[axis] && bias.u.t->shape[0] != 1))
    rt_error(site->expr, "nn.bias_add: the bias must have %lld elements (dimension %d of %s)", (long long)a.shape[axis],
             axis, rt_shape_text(a.rank, a.shape));
  /* the bias as (C, 1, ..., 1), so that add broadcasts it along the axis */
  int r = a.rank - axis;
  RtTensor *b = rt_alloc(sizeof(RtTensor) + sizeof(int64_t) * (size_t)r);
  *b = *bias.u.t;
  b->rank = r;
  b->shape[0] = bias.u.t->shape[0];
  for (int i = 1; i < r; i++) b->shape[i] = 1;
  RtValue args[2] = {x, {.kind = RT_TENSOR, .u.t = b}};
  RtSite in = rt_site_inner(site, site->attrs);
  return rt_kernel_call(IR_OP_ADD, args, 2, &in);
}

/* ---------------------------------------------------------------- dispatch */

void rt_operands_out_dtype(IrOpId op, const RtValue *args, const RtSite *site, RtOperand *x, RtOperand *w) {
  const IrAttrValue *od = ir_attr_at(site->attrs, IR_A_OUT_DTYPE);
  if (od->given && !od->none) { /* as TVM: the operands in out_dtype */
    RtSite in = rt_site_inner(site, ir_attrs_set(&ir_op_attrs_none, IR_A_DTYPE, *od));
    for (int i = 0; i < 2; i++) {
      RtValue v = args[i];
      RtOperand *o = i ? w : x;
      rt_operand(o, v);
      if (!ir_dtype_eq(o->dt, od->dtype)) rt_operand(o, rt_kernel_call(IR_OP_CAST, &v, 1, &in));
    }
  } else {
    rt_operand(x, args[0]);
    rt_operand(w, args[1]);
  }
  if (!ir_dtype_eq(x->dt, w->dt)) rt_error(site->expr, "%s: the arguments' dtypes differ", ir_ops[op].name);
}

RtValue rt_kernel_nn(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)nargs;
  const IrOpAttrs *at = site->attrs;
  if (op == IR_OP_NN_BIAS_ADD) return bias_add(args[0], args[1], at, site);
  RtOperand x, w;
  rt_operands_out_dtype(op, args, site, &x, &w);
  switch (op) {
  case IR_OP_NN_DENSE: return dense(&x, &w, at, site, false);
  case IR_OP_NN_MATMUL: return dense(&x, &w, at, site, true);
  case IR_OP_NN_BATCH_MATMUL: return batch_matmul(&x, &w, at, site);
  case IR_OP_NN_CONTRIB_DENSE_PACK: {
    /* the weight unpacked from weight_layout ("NC8n") to NC by layout_transform's kernel, then nn.dense */
    const IrAttrValue *wl = ir_attr_at(at, IR_A_WEIGHT_LAYOUT);
    RtOperand wc;
    rt_operand(&wc,
               rt_layout_transform(&w, wl->given && !wl->none && wl->str && *wl->str ? wl->str : "NC", "NC", site));
    if (x.rank != 2)
      rt_error(site->expr, "nn.contrib_dense_pack takes 2-D data, not %s", rt_shape_text(x.rank, x.shape));
    return dense(&x, &wc, at, site, false);
  }
  default:
    UNREACHABLE("every operator ops.def gives this family has a case above");
    rt_error(site->expr, "the operator `%s` has no kernel", ir_ops[op].name);
  }
}
