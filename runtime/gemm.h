/* Matrix products in plain C with cblas's interface (gemm.c): the products where OpenBLAS cannot
 * be loaded, and the only ones in the WebAssembly build. Private to runtime/ (nn.c) and its tests.
 * RtSgemm and RtDgemm are the type of cblas_sgemm and cblas_dgemm, which nn.c's pointers hold
 * whichever fills them. Natively the enums and blasint are <cblas.h>'s; the WebAssembly build has
 * no OpenBLAS, so they are declared here with cblas's values. */
#ifndef RUNTIME_GEMM_H
#define RUNTIME_GEMM_H

#include <stdbool.h>

#ifdef RELAY_WASM
typedef int blasint;
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
#define OPENBLAS_CONST const
#else
#include <cblas.h>
#endif

#define RT_GEMM_SIGNATURE(T)                                                                                          \
  (OPENBLAS_CONST enum CBLAS_ORDER order, OPENBLAS_CONST enum CBLAS_TRANSPOSE ta,                                     \
   OPENBLAS_CONST enum CBLAS_TRANSPOSE tb, OPENBLAS_CONST blasint m, OPENBLAS_CONST blasint n,                        \
   OPENBLAS_CONST blasint k, OPENBLAS_CONST T alpha, OPENBLAS_CONST T *A, OPENBLAS_CONST blasint lda,                 \
   OPENBLAS_CONST T *B, OPENBLAS_CONST blasint ldb, OPENBLAS_CONST T beta, T *C, OPENBLAS_CONST blasint ldc)
typedef void RtSgemm RT_GEMM_SIGNATURE(float);
typedef void RtDgemm RT_GEMM_SIGNATURE(double);

RtSgemm rt_portable_sgemm;
RtDgemm rt_portable_dgemm;

#endif
