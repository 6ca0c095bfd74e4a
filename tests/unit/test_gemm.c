/* runtime/gemm.c's portable sgemm and dgemm against OpenBLAS's cblas ones: every order, both
 * transposes of each side, alpha and beta, sizes of 0 and 1 and past the tiles (k > 128, n > 512),
 * leading dimensions wider than the matrices. The results agree up to rounding (the sums run in
 * another order): within 1e-5 (float) and 1e-12 (double) of the largest term's size times k. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/gemm.h"
#include "tests/unit/tap.h"

static uint64_t seed = 31;
static double rnd(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(seed >> 11) / (double)(1ULL << 53) * 2 - 1;
}

#define CHECK(T, GEMM, REF, EPS)                                                                                      \
  static bool check_##T(enum CBLAS_ORDER order, bool ta, bool tb, int m, int n, int k, T alpha, T beta, int pad) {   \
    int ar = order == CblasRowMajor ? (ta ? k : m) : (ta ? m : k), ac = order == CblasRowMajor ? (ta ? m : k) : (ta ? k : m); \
    int br = order == CblasRowMajor ? (tb ? n : k) : (tb ? k : n), bc = order == CblasRowMajor ? (tb ? k : n) : (tb ? n : k); \
    int cr = order == CblasRowMajor ? m : n, cc = order == CblasRowMajor ? n : m;                                       \
    int lda = ac + pad, ldb = bc + pad, ldc = cc + pad;                                                                \
    T *A = malloc(sizeof(T) * ((size_t)ar * lda + 1)), *B = malloc(sizeof(T) * ((size_t)br * ldb + 1));               \
    T *C1 = malloc(sizeof(T) * ((size_t)cr * ldc + 1)), *C2 = malloc(sizeof(T) * ((size_t)cr * ldc + 1));             \
    for (size_t i = 0; i < (size_t)ar * lda; i++) A[i] = (T)rnd();                                                     \
    for (size_t i = 0; i < (size_t)br * ldb; i++) B[i] = (T)rnd();                                                     \
    for (size_t i = 0; i < (size_t)cr * ldc; i++) C1[i] = C2[i] = (T)rnd();                                            \
    enum CBLAS_TRANSPOSE TA = ta ? CblasTrans : CblasNoTrans, TB = tb ? CblasTrans : CblasNoTrans;                      \
    GEMM(order, TA, TB, m, n, k, alpha, A, lda > 0 ? lda : 1, B, ldb > 0 ? ldb : 1, beta, C1, ldc > 0 ? ldc : 1);     \
    REF(order, TA, TB, m, n, k, alpha, A, lda > 0 ? lda : 1, B, ldb > 0 ? ldb : 1, beta, C2, ldc > 0 ? ldc : 1);      \
    double worst = 0;                                                                                                  \
    for (int i = 0; i < cr; i++)                                                                                       \
      for (int j = 0; j < ldc; j++) { /* the padding too: neither may write there */                                   \
        double d = fabs((double)C1[(size_t)i * ldc + j] - (double)C2[(size_t)i * ldc + j]);                           \
        if (d > worst) worst = d;                                                                                      \
      }                                                                                                                \
    free(A), free(B), free(C1), free(C2);                                                                              \
    return worst <= EPS * (k + 1) * (fabs((double)alpha) + fabs((double)beta) + 1);                                   \
  }

CHECK(float, rt_portable_sgemm, cblas_sgemm, 1e-5)
CHECK(double, rt_portable_dgemm, cblas_dgemm, 1e-12)

int main(void) {
  static const int sizes[][3] = {{0, 3, 4}, {3, 0, 4}, {3, 4, 0}, {1, 1, 1}, {7, 5, 3}, {33, 65, 17},
                                 {5, 600, 300}, {130, 9, 129}, {64, 513, 257}};
  int n = (int)(sizeof sizes / sizeof *sizes);
  for (int order = 0; order < 2; order++)
    for (int t = 0; t < 4; t++) {
      bool ta = t & 1, tb = t & 2, okf = true, okd = true;
      for (int s = 0; s < n; s++)
        for (int v = 0; v < 3; v++) {
          float alpha = v == 0 ? 1 : v == 1 ? 0.5f : 0, beta = v == 0 ? 0 : v == 1 ? 2 : 1;
          enum CBLAS_ORDER o = order ? CblasColMajor : CblasRowMajor;
          okf = okf && check_float(o, ta, tb, sizes[s][0], sizes[s][1], sizes[s][2], alpha, beta, s % 3);
          okd = okd && check_double(o, ta, tb, sizes[s][0], sizes[s][1], sizes[s][2], alpha, beta, s % 3);
        }
      tap_ok(okf, "sgemm %s-major, A%s B%s: as OpenBLAS's on %d sizes, 3 (alpha, beta)", order ? "column" : "row",
             ta ? "^T" : "", tb ? "^T" : "", n);
      tap_ok(okd, "dgemm %s-major, A%s B%s: as OpenBLAS's on %d sizes, 3 (alpha, beta)", order ? "column" : "row",
             ta ? "^T" : "", tb ? "^T" : "", n);
    }
  return tap_done();
}
