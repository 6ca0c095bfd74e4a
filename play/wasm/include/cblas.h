/* relay.wasm has no OpenBLAS and so no <cblas.h>: the declarations runtime/nn.c and gemm.h take
 * from it (the enums' values are cblas's), for relay's own products (runtime/gemm.c). */
#ifndef RELAY_WASM_CBLAS_H
#define RELAY_WASM_CBLAS_H

typedef enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_ORDER;
typedef enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 } CBLAS_TRANSPOSE;
typedef CBLAS_ORDER CBLAS_LAYOUT;
typedef int blasint; /* OpenBLAS's, 32-bit */
#define OPENBLAS_CONST const

void cblas_sgemm(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA, const enum CBLAS_TRANSPOSE TransB,
                 const blasint M, const blasint N, const blasint K, const float alpha, const float *A, const blasint lda,
                 const float *B, const blasint ldb, const float beta, float *C, const blasint ldc);
void cblas_dgemm(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA, const enum CBLAS_TRANSPOSE TransB,
                 const blasint M, const blasint N, const blasint K, const double alpha, const double *A, const blasint lda,
                 const double *B, const blasint ldb, const double beta, double *C, const blasint ldc);

#endif
