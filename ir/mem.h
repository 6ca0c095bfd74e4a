/* Memory for every part of relay: all objects live on the Boehm GC heap, so a chunk that fails to
 * parse or type-check is simply dropped. Also a growable string buffer and growable arrays. */
#ifndef IR_MEM_H
#define IR_MEM_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* relay.wasm's collector is built without threads (play/wasm/build.sh): everything runs on the caller's */
#ifndef RELAY_WASM
#define GC_THREADS
#endif
#include <gc.h>

#include "ir/config.h"

/* Running out of memory, in every phase. The allocators below (and the run time's rt_alloc, which
 * go through ir_out_of_memory too) never return NULL: when the heap is exhausted they unwind
 * (longjmp) to the innermost trap, whose owner drops what the failed work built and reports "out of
 * memory". Each entry point of a phase (a REPL input's parse, check and compile; an evaluation)
 * sets one up:
 *     IrTrap trap;
 *     ir_trap_push(&trap, NULL);
 *     if (setjmp(trap.jb) == 0) { ...work...; ir_trap_pop(&trap); } else { ...trap.bytes failed... }
 * (the unwinding pops it). Allocating with no trap set is a bug: it says so on stderr and aborts. */
typedef struct IrTrap {
  jmp_buf jb;
  struct IrTrap *prev;
  size_t bytes; /* after an unwinding: the request that failed */
  /* Called before unwinding to this trap, while the failed work's frames still exist (the run time
   * records its call chain); NULL for none. */
  void (*on_out_of_memory)(struct IrTrap *trap, size_t bytes);
} IrTrap;

/* Makes trap the innermost; on_out_of_memory as in IrTrap (NULL for none). */
void ir_trap_push(IrTrap *trap, void (*on_out_of_memory)(IrTrap *trap, size_t bytes));
void ir_trap_pop(IrTrap *trap);
/* Unwinds to the innermost trap, popping it (its on_out_of_memory, if any, runs first). */
_Noreturn void ir_out_of_memory(size_t bytes);
/* Unwinds to `trap` (with bytes 0: not for memory), popping it and every trap inside it. */
_Noreturn void ir_unwind(IrTrap *trap);

/* Allocation-failure injection, for tests (builds without NDEBUG only): with the environment
 * variable RELAY_FAIL_ALLOC=n, the n-th allocation (counting from the start) fails once, as if the
 * heap were exhausted. */
#ifdef NDEBUG
static inline bool ir_injected_failure(void) { return false; }
#else
bool ir_injected_failure(void);
#endif

/* Zeroed, GC-scanned memory. Never returns NULL (see above). */
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

/* A growable array of T: `IR_VEC(T) v = {0}; IR_VEC_PUSH(v, x);` then `v.items`, `v.len`. The
 * capacity changes only once the memory is there: running out unwinds with the vector intact. */
#define IR_VEC(T) struct { T *items; int len, cap; }
#define IR_VEC_PUSH(v, x)                                                                      \
  do {                                                                                         \
    if ((v).len == (v).cap) {                                                                  \
      int cap_ = (v).cap ? 2 * (v).cap : 4;                                                    \
      (v).items = ir_realloc((v).items, sizeof(*(v).items) * (size_t)cap_);                    \
      (v).cap = cap_;                                                                          \
    }                                                                                          \
    (v).items[(v).len++] = (x);                                                                \
  } while (0)

/* Makes room for `extra` more items, so that pushing them allocates nothing (cannot fail). */
#define IR_VEC_RESERVE(v, extra)                                                               \
  do {                                                                                         \
    int want_ = (v).len + (extra);                                                             \
    if (want_ > (v).cap) {                                                                     \
      int cap_ = (v).cap ? (v).cap : 4;                                                        \
      while (cap_ < want_) cap_ *= 2;                                                          \
      (v).items = ir_realloc((v).items, sizeof(*(v).items) * (size_t)cap_);                    \
      (v).cap = cap_;                                                                          \
    }                                                                                          \
  } while (0)

#endif
