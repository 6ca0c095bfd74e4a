/* Matrix products in plain C: sgemm and dgemm with cblas's interface, for where OpenBLAS cannot be
 * loaded (nn.c falls back to them; RELAY_BLAS=portable chooses them) and for the WebAssembly build,
 * which has no OpenBLAS. C = alpha op(A) op(B) + beta C.
 *
 * A row-major product runs over tiles of op(B), KB rows by NB columns, each first copied into a
 * row-major panel (256 KiB of float32: it stays in the cache while every row of A passes over it).
 * Within a tile, a micro-kernel keeps an MR x NR block of C in vector registers (GCC's vector
 * extension, which both GCC, as SSE on x86-64, and clang, as wasm's 128-bit SIMD with -msimd128,
 * compile to vector instructions): for each row p of the panel it loads NR elements of B once and
 * adds a(r, p) times them into each of the MR rows. The rows and columns left over at the edges run
 * as scalar loops. A column-major product is the row-major product of the transposes,
 * C^T = op(B)^T op(A)^T. Without memory for the panel (a failed malloc: this is also the code for
 * relay's out-of-memory paths), a plain loop over A, B and C does the product. */
#include <stdlib.h>
#include <string.h>

#include "runtime/gemm.h"

enum { KB = 128, NB = 512, MR = 4 };

#define DEFINE_GEMM(NAME, T)                                                                                          \
  typedef T NAME##_vec __attribute__((vector_size(16)));                                                            \
  enum { NAME##_LANES = 16 / sizeof(T), NAME##_NR = 2 * NAME##_LANES };                                             \
                                                                                                                      \
  /* C[i..i+MR) x [j..j+NR) += alpha * A's rows times the panel's columns j.. over its pk rows. */                    \
  static void NAME##_block(bool ta, blasint i, blasint p0, blasint pk, T alpha, const T *A, blasint lda,            \
                           const T *panel, blasint nj, blasint j, T *c, blasint ldc) {                                \
    NAME##_vec acc[MR][2];                                                                                          \
    memset(acc, 0, sizeof acc);                                                                                      \
    for (blasint p = 0; p < pk; p++) {                                                                               \
      NAME##_vec b0, b1;                                                                                             \
      memcpy(&b0, panel + (size_t)p * nj + j, sizeof b0);                                                            \
      memcpy(&b1, panel + (size_t)p * nj + j + NAME##_LANES, sizeof b1);                                             \
      for (int r = 0; r < MR; r++) {                                                                                 \
        T a = ta ? A[(size_t)(p0 + p) * lda + i + r] : A[(size_t)(i + r) * lda + p0 + p];                           \
        acc[r][0] += a * b0;                                                                                         \
        acc[r][1] += a * b1;                                                                                         \
      }                                                                                                              \
    }                                                                                                                \
    for (int r = 0; r < MR; r++) {                                                                                   \
      T sums[NAME##_NR];                                                                                             \
      memcpy(sums, acc[r], sizeof sums);                                                                             \
      T *row = c + (size_t)(i + r) * ldc + j;                                                                        \
      for (int l = 0; l < NAME##_NR; l++) row[l] += alpha * sums[l];                                                 \
    }                                                                                                                \
  }                                                                                                                  \
                                                                                                                      \
  static void NAME##_rows(bool ta, bool tb, blasint m, blasint n, blasint k, T alpha, const T *A, blasint lda,      \
                          const T *B, blasint ldb, T beta, T *C, blasint ldc) {                                     \
    for (blasint i = 0; i < m; i++)                                                                                   \
      for (blasint j = 0; j < n; j++) C[(size_t)i * ldc + j] = beta == 0 ? 0 : beta * C[(size_t)i * ldc + j];       \
    if (k == 0 || alpha == 0) return;                                                                                 \
    T *panel = malloc(sizeof(T) * KB * NB);                                                                           \
    if (!panel) {                                                                                                     \
      for (blasint i = 0; i < m; i++)                                                                                 \
        for (blasint p = 0; p < k; p++) {                                                                             \
          T a = alpha * (ta ? A[(size_t)p * lda + i] : A[(size_t)i * lda + p]);                                       \
          for (blasint j = 0; j < n; j++)                                                                             \
            C[(size_t)i * ldc + j] += a * (tb ? B[(size_t)j * ldb + p] : B[(size_t)p * ldb + j]);                     \
        }                                                                                                             \
      return;                                                                                                         \
    }                                                                                                                 \
    for (blasint p0 = 0; p0 < k; p0 += KB) {                                                                          \
      blasint pk = k - p0 < KB ? k - p0 : KB;                                                                         \
      for (blasint j0 = 0; j0 < n; j0 += NB) {                                                                        \
        blasint nj = n - j0 < NB ? n - j0 : NB;                                                                       \
        for (blasint p = 0; p < pk; p++) /* the panel: op(B)'s rows p0.., columns j0.., row-major */                  \
          for (blasint j = 0; j < nj; j++)                                                                            \
            panel[(size_t)p * nj + j] = tb ? B[(size_t)(j0 + j) * ldb + p0 + p] : B[(size_t)(p0 + p) * ldb + j0 + j]; \
        T *c = C + j0;                                                                                                \
        blasint jv = nj - nj % NAME##_NR; /* columns the micro-kernel takes */                                        \
        blasint i = 0;                                                                                                \
        for (; i + MR <= m; i += MR)                                                                                  \
          for (blasint j = 0; j < jv; j += NAME##_NR) NAME##_block(ta, i, p0, pk, alpha, A, lda, panel, nj, j, c, ldc); \
        for (blasint r = 0; r < m; r++) { /* the edges: rows past the last block, columns past jv */                  \
          blasint from = r < i ? jv : 0;                                                                              \
          if (from == nj) continue;                                                                                   \
          T *row = c + (size_t)r * ldc;                                                                               \
          for (blasint p = 0; p < pk; p++) {                                                                          \
            T a = alpha * (ta ? A[(size_t)(p0 + p) * lda + r] : A[(size_t)r * lda + p0 + p]);                         \
            const T *b = panel + (size_t)p * nj;                                                                      \
            for (blasint j = from; j < nj; j++) row[j] += a * b[j];                                                   \
          }                                                                                                           \
        }                                                                                                             \
      }                                                                                                               \
    }                                                                                                                 \
    free(panel);                                                                                                      \
  }                                                                                                                   \
  void NAME RT_GEMM_SIGNATURE(T) {                                                                                    \
    bool tA = ta != CblasNoTrans, tB = tb != CblasNoTrans;                                                            \
    if (order == CblasRowMajor) NAME##_rows(tA, tB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                    \
    else NAME##_rows(tB, tA, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc);                                           \
  }

DEFINE_GEMM(rt_portable_sgemm, float)
DEFINE_GEMM(rt_portable_dgemm, double)
