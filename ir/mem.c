/* GC-backed allocation and the text buffer every printer writes into. */
#include "ir/mem.h"

#include <stdio.h>
#include <string.h>

void *ir_alloc(size_t size) {
  /* GC_MALLOC returns cleared memory. */
  return GC_MALLOC(size ? size : 1);
}

void *ir_alloc_atomic(size_t size) {
  void *p = GC_MALLOC_ATOMIC(size ? size : 1);
  if (p) memset(p, 0, size);
  return p;
}

void *ir_realloc(void *p, size_t size) { return GC_REALLOC(p, size ? size : 1); }

char *ir_strndup(const char *s, size_t n) {
  char *d = ir_alloc_atomic(n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *ir_strdup(const char *s) { return ir_strndup(s, strlen(s)); }

char *ir_vprintf(const char *fmt, va_list ap) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_vprintf(&b, fmt, ap);
  return b.data;
}

char *ir_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = ir_vprintf(fmt, ap);
  va_end(ap);
  return s;
}

/* ---------------------------------------------------------------- text buffer */

static void reserve(IrBuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  char *d = GC_MALLOC_ATOMIC(cap);
  if (b->len) memcpy(d, b->data, b->len);
  b->data = d;
  b->cap = cap;
}

void ir_buf_init(IrBuf *b) {
  b->data = NULL;
  b->len = b->cap = 0;
  reserve(b, 0);
  b->data[0] = '\0';
}

void ir_buf_putn(IrBuf *b, const char *s, size_t n) {
  reserve(b, n);
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void ir_buf_putc(IrBuf *b, char c) { ir_buf_putn(b, &c, 1); }

void ir_buf_puts(IrBuf *b, const char *s) { ir_buf_putn(b, s, strlen(s)); }

void ir_buf_vprintf(IrBuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n <= 0) return;
  reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void ir_buf_printf(IrBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void ir_buf_indent(IrBuf *b, int columns) {
  for (int i = 0; i < columns; i++) ir_buf_putc(b, ' ');
}
