/* Matrix products in plain C: sgemm and dgemm with cblas's interface, for where OpenBLAS cannot be
 * loaded (nn.c falls back to them; RELAY_BLAS=portable chooses them) and for builds without it.
 * C = alpha op(A) op(B) + beta C. Row-major products run as i, p, j loops over tiles of KB x NB,
 * the innermost loop along a row of B and of C (contiguous: the compiler vectorizes it); a
 * transposed B is first copied tile by tile into row-major order. A column-major product is the
 * row-major product of the transposes, C^T = op(B)^T op(A)^T. */
#include <stdlib.h>

#include "runtime/gemm.h"

enum { KB = 128, NB = 512 }; /* a tile of B: 256 KiB of float32 */

#define DEFINE_GEMM(NAME, T)                                                                                          \
  static void NAME##_rows(bool ta, bool tb, blasint m, blasint n, blasint k, T alpha, const T *A, blasint lda,      \
                          const T *B, blasint ldb, T beta, T *C, blasint ldc) {                                     \
    for (blasint i = 0; i < m; i++)                                                                                   \
      for (blasint j = 0; j < n; j++) C[(size_t)i * ldc + j] = beta == 0 ? 0 : beta * C[(size_t)i * ldc + j];       \
    if (k == 0 || alpha == 0) return;                                                                                 \
    T *tile = tb ? malloc(sizeof(T) * KB * NB) : NULL;                                                                \
    for (blasint p0 = 0; p0 < k; p0 += KB) {                                                                          \
      blasint pk = k - p0 < KB ? k - p0 : KB;                                                                         \
      for (blasint j0 = 0; j0 < n; j0 += NB) {                                                                        \
        blasint nj = n - j0 < NB ? n - j0 : NB;                                                                       \
        const T *b = B + (size_t)p0 * ldb + j0; /* row p of the tile: b + p * ldb */                                 \
        blasint ldt = ldb;                                                                                            \
        if (tb && tile) { /* op(B)[p][j] = B[j][p]: copied into a row-major tile */                                   \
          for (blasint p = 0; p < pk; p++)                                                                            \
            for (blasint j = 0; j < nj; j++) tile[(size_t)p * nj + j] = B[(size_t)(j0 + j) * ldb + p0 + p];          \
          b = tile, ldt = nj;                                                                                         \
        }                                                                                                             \
        for (blasint i = 0; i < m; i++) {                                                                             \
          T *c = C + (size_t)i * ldc + j0;                                                                            \
          for (blasint p = 0; p < pk; p++) {                                                                          \
            T a = alpha * (ta ? A[(size_t)(p0 + p) * lda + i] : A[(size_t)i * lda + p0 + p]);                         \
            if (tb && !tile) /* no memory for a tile: B read along its columns */                                     \
              for (blasint j = 0; j < nj; j++) c[j] += a * B[(size_t)(j0 + j) * ldb + p0 + p];                       \
            else                                                                                                      \
              for (blasint j = 0; j < nj; j++) c[j] += a * b[(size_t)p * ldt + j];                                    \
          }                                                                                                           \
        }                                                                                                             \
      }                                                                                                               \
    }                                                                                                                 \
    free(tile);                                                                                                       \
  }                                                                                                                   \
  void NAME(OPENBLAS_CONST enum CBLAS_ORDER order, OPENBLAS_CONST enum CBLAS_TRANSPOSE ta,                            \
            OPENBLAS_CONST enum CBLAS_TRANSPOSE tb, OPENBLAS_CONST blasint m, OPENBLAS_CONST blasint n,                \
            OPENBLAS_CONST blasint k, OPENBLAS_CONST T alpha, OPENBLAS_CONST T *A, OPENBLAS_CONST blasint lda,         \
            OPENBLAS_CONST T *B, OPENBLAS_CONST blasint ldb, OPENBLAS_CONST T beta, T *C, OPENBLAS_CONST blasint ldc) { \
    bool tA = ta != CblasNoTrans, tB = tb != CblasNoTrans;                                                            \
    if (order == CblasRowMajor) NAME##_rows(tA, tB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                    \
    else NAME##_rows(tB, tA, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc);                                           \
  }

DEFINE_GEMM(rt_portable_sgemm, float)
DEFINE_GEMM(rt_portable_dgemm, double)
