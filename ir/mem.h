/* Memory for every part of relay: all objects live on the Boehm GC heap, so a chunk that fails to
 * parse or type-check is simply dropped. Also a growable string buffer and growable arrays. */
#ifndef IR_MEM_H
#define IR_MEM_H

#include <stdarg.h>
#include <stddef.h>

#define GC_THREADS
#include <gc.h>

/* Zeroed, GC-scanned memory. Never returns NULL: on exhaustion the GC's out-of-memory handler
 * (installed by the driver) unwinds to the nearest protected call. */
void *ir_alloc(size_t size);
/* Zeroed memory that the collector does not scan: for data that holds no pointers. */
void *ir_alloc_atomic(size_t size);
void *ir_realloc(void *p, size_t size);
char *ir_strndup(const char *s, size_t n);
char *ir_strdup(const char *s);
char *ir_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *ir_vprintf(const char *fmt, va_list ap);

#define IR_NEW(T) ((T *)ir_alloc(sizeof(T)))

/* memcpy that accepts an empty copy from a NULL array (an empty shape, a nullary constructor). */
static inline void ir_copy(void *dst, const void *src, size_t n) {
  if (n) __builtin_memcpy(dst, src, n);
}
#define IR_NEW_ARRAY(T, n) ((T *)ir_alloc(sizeof(T) * (size_t)(n)))

/* Append-only text buffer; `data` is always NUL-terminated. */
typedef struct IrBuf {
  char *data;
  size_t len, cap;
} IrBuf;

void ir_buf_init(IrBuf *b);
void ir_buf_putc(IrBuf *b, char c);
void ir_buf_putn(IrBuf *b, const char *s, size_t n);
void ir_buf_puts(IrBuf *b, const char *s);
void ir_buf_printf(IrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ir_buf_vprintf(IrBuf *b, const char *fmt, va_list ap);
void ir_buf_indent(IrBuf *b, int columns);

/* A growable array of T: `IR_VEC(T) v = {0}; IR_VEC_PUSH(v, x);` then `v.items`, `v.len`. */
#define IR_VEC(T) struct { T *items; int len, cap; }
#define IR_VEC_PUSH(v, x)                                                                      \
  do {                                                                                         \
    if ((v).len == (v).cap) {                                                                  \
      (v).cap = (v).cap ? 2 * (v).cap : 4;                                                     \
      (v).items = ir_realloc((v).items, sizeof(*(v).items) * (size_t)(v).cap);                 \
    }                                                                                          \
    (v).items[(v).len++] = (x);                                                                \
  } while (0)

#endif
