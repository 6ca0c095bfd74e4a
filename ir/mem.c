/* GC-backed allocation and the text buffer every printer writes into. */
#include "ir/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- traps */

static _Thread_local IrTrap *innermost;

void ir_trap_push(IrTrap *trap, void (*on_out_of_memory)(IrTrap *trap, size_t bytes)) {
  trap->prev = innermost;
  trap->on_out_of_memory = on_out_of_memory;
  trap->bytes = 0;
  innermost = trap;
}

void ir_trap_pop(IrTrap *trap) {
  if (innermost == trap) innermost = trap->prev;
}


_Noreturn void ir_out_of_memory(size_t bytes) {
  IrTrap *trap = innermost;
  if (!trap) { /* a phase's entry point forgot its trap: nothing can be unwound safely */
    /* to the file descriptor itself: whatever stderr has been pointed at, this must be seen */
    dprintf(2, "relay: internal error: out of memory (a request for %zu bytes) outside a trap\n", bytes);
    abort();
  }
  trap->bytes = bytes ? bytes : 1;
  if (trap->on_out_of_memory) trap->on_out_of_memory(trap, bytes);
  innermost = trap->prev;
  longjmp(trap->jb, 1);
}

_Noreturn void ir_assert_failed(const char *what, const char *file, int line, const char *func) {
  dprintf(2, "relay: internal error: %s (%s:%d, in %s)\n", what, file, line, func);
  abort();
}

_Noreturn void ir_unwind(IrTrap *trap) {
  trap->bytes = 0;
  innermost = trap->prev;
  longjmp(trap->jb, 1);
}

/* ---------------------------------------------------------------- failure injection */

#ifndef NDEBUG
/* RELAY_FAIL_ALLOC=n: the n-th allocation of each thread fails, once. The count is the thread's
 * own, as its traps are: relay --serve's reader thread allocates while the main thread answers, and
 * a shared count would be a data race that moved the failure from run to run. */
bool ir_injected_failure(void) {
  static _Thread_local long countdown = -2; /* allocations left before the failure; -1: none; -2: unread */
  if (countdown == -2) {
    const char *env = getenv("RELAY_FAIL_ALLOC");
    countdown = env && atol(env) > 0 ? atol(env) : -1;
  }
  return countdown > 0 && --countdown == 0;
}
#endif

/* ---------------------------------------------------------------- allocation */

void *ir_alloc(size_t size) {
  /* GC_MALLOC returns cleared memory. */
  void *p = ir_injected_failure() ? NULL : GC_MALLOC(size ? size : 1);
  if (!p) ir_out_of_memory(size);
  return p;
}

void *ir_alloc_atomic(size_t size) {
  void *p = ir_injected_failure() ? NULL : GC_MALLOC_ATOMIC(size ? size : 1);
  if (!p) ir_out_of_memory(size);
  memset(p, 0, size);
  return p;
}

void *ir_realloc(void *p, size_t size) {
  void *q = ir_injected_failure() ? NULL : GC_REALLOC(p, size ? size : 1);
  if (!q) ir_out_of_memory(size);
  return q;
}

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
  char *d = ir_injected_failure() ? NULL : GC_MALLOC_ATOMIC(cap);
  if (!d) ir_out_of_memory(cap);
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
