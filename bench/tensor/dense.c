/* nn.dense peer: K products y = x * w^T of two 1024x1024 float32 matrices, each one call of
 * cblas_sgemm (OpenBLAS), the same inputs as the relay program run.py writes. Prints the sum of
 * the last product's elements (of the zero matrix when K = 0), accumulated in double as relay's
 * `sum` does. Usage: dense K.  Build: cc -O2 dense.c -lopenblas */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 1024 };

/* The element of a pattern vector: ((i * mul) % mod - mod / 2) / scale, exact in float32.
 * run.py's pattern() is the same formula. */
static float pattern(long i, long mul, long mod, float scale) {
  return (float)((i * mul) % mod - mod / 2) / scale;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s K\n", argv[0]);
    return 2;
  }
  int k = atoi(argv[1]);
  float *x = malloc(sizeof(float) * N * N), *w = malloc(sizeof(float) * N * N);
  float *y = calloc((size_t)N * N, sizeof(float));
  if (!x || !w || !y)
    return 1;
  /* x[i][j] = r[i] + c[j], w likewise: relay builds them by broadcasting a column and a row */
  for (long i = 0; i < N; i++)
    for (long j = 0; j < N; j++) {
      x[i * N + j] = pattern(i, 37, 101, 64) + pattern(j, 53, 97, 128);
      w[i * N + j] = pattern(i, 29, 89, 128) + pattern(j, 41, 103, 64);
    }
  for (int it = 0; it < k; it++)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, N, N, N, 1.0f, x, N, w, N, 0.0f, y, N);
  double s = 0;
  for (long i = 0; i < (long)N * N; i++)
    s += y[i];
  printf("%.9g\n", (float)s);
  return 0;
}
