/* Matrix products in plain C with cblas's interface (gemm.c): the products where OpenBLAS cannot
 * be loaded. Private to runtime/ (nn.c) and its tests. */
#ifndef RUNTIME_GEMM_H
#define RUNTIME_GEMM_H

#include <cblas.h>
#include <stdbool.h>

__typeof__(cblas_sgemm) rt_portable_sgemm;
__typeof__(cblas_dgemm) rt_portable_dgemm;

#endif
