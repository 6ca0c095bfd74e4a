/* add peer: K element-wise additions of two 4M-element float32 tensors (1024x4096),
 * acc = acc + b, each written to a fresh buffer as relay's `add` makes a new tensor (two buffers
 * used in turn); the loop is the compiler's (cc -O2). Prints the sum of the final acc, accumulated
 * in double as relay's `sum` does. Usage: add K.  Build: cc -O2 add.c */
#include <stdio.h>
#include <stdlib.h>

enum { ROWS = 1024, COLS = 4096 };
#define COUNT ((long)ROWS * COLS)

/* ((i * mul) % mod - mod / 2) / scale, exact in float32; run.py's pattern() is the same formula */
static float pattern(long i, long mul, long mod, float scale) {
  return (float)((i * mul) % mod - mod / 2) / scale;
}

static void add(float *restrict out, const float *restrict a, const float *restrict b, long n) {
  for (long i = 0; i < n; i++)
    out[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s K\n", argv[0]);
    return 2;
  }
  int k = atoi(argv[1]);
  float *acc = malloc(sizeof(float) * COUNT), *b = malloc(sizeof(float) * COUNT);
  float *out = malloc(sizeof(float) * COUNT);
  if (!acc || !b || !out)
    return 1;
  for (long i = 0; i < ROWS; i++)
    for (long j = 0; j < COLS; j++) {
      acc[i * COLS + j] = pattern(i, 37, 101, 64) + pattern(j, 53, 97, 128);
      b[i * COLS + j] = pattern(i, 29, 89, 128) + pattern(j, 41, 103, 64);
    }
  for (long i = 0; i < COUNT; i++) /* touch the second buffer, as the inputs are touched */
    out[i] = 0;
  for (int it = 0; it < k; it++) {
    add(out, acc, b, COUNT);
    float *t = acc;
    acc = out;
    out = t;
  }
  double s = 0;
  for (long i = 0; i < COUNT; i++)
    s += acc[i];
  printf("%.9g\n", (float)s);
  return 0;
}
