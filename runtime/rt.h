/* The runtime's internals, shared by its files: heap objects, compiled code, the state object
 * (RtState: the evaluator's machine, the raised error, the free lists; the one place the run time
 * keeps mutable state) and the kernel entry points.
 *
 * Compiled code is a tree of RtCode nodes, each with its own `run` function: evaluation is a
 * call of `run` on the root, with variables in frame slots chosen at compile time. A function's
 * frame lives on the C stack of the call node (the evaluation stack is 1 GiB); tail calls return
 * the RT_TAIL sentinel to the nearest call, which loops instead of recursing. */
#ifndef RUNTIME_RT_H
#define RUNTIME_RT_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdalign.h>
#include <string.h>

#include "runtime/runtime.h"

/* ---------------------------------------------------------------- heap objects */

struct RtTensor {
  IrDType dt;
  int rank;      /* >= 1 */
  int64_t count; /* product of shape */
  void *data;    /* row-major, contiguous; atomic (pointer-free) GC memory */
  int64_t shape[];
};

struct RtTuple {
  int n;
  RtValue f[];
};

typedef struct RtCtor RtCtor;

struct RtAdt {
  const RtCtor *ctor;  /* its constructor: name, tag, layout */
  alignas(8) char f[]; /* the fields, as rt_ctor_layout places them */
};

typedef struct RtFn RtFn;

struct RtClosure {
  const RtFn *fn;
  RtValue env[]; /* the captured free variables, in the order the compiler chose */
};

struct RtRef {
  RtValue v;
};

/* GC allocation that raises "out of memory" (a run-time error) instead of returning NULL. */
void *rt_alloc(size_t bytes);

/* Small objects, up to RT_SMALL_GRANULES granules, come from free lists of relay's own, one per
 * size (value.c says why and how). rt_alloc_small is rt_alloc for a size class fixed at compile
 * time, its free-list pop inline. */
enum { RT_GRANULE = 16, RT_SMALL_GRANULES = 8 };
void *rt_small_refill(size_t granules);
static inline void *rt_take_small(size_t granules);

static inline void *rt_alloc_small(size_t granules) {
  if (ir_injected_failure()) ir_out_of_memory(granules * RT_GRANULE); /* tests only */
  return rt_take_small(granules);
}

/* The size class of an object of `bytes`, or 0 when rt_alloc_small cannot take it. */
static inline size_t rt_small_class(size_t bytes) {
  size_t granules = (bytes + RT_GRANULE - 1) / RT_GRANULE;
  return granules >= 1 && granules <= RT_SMALL_GRANULES ? granules : 0;
}
void *rt_alloc_atomic(size_t bytes);
/* Room for n + 1 elements of `size` bytes (pointer-free), n >= 0: a size that overflows is the
 * out-of-memory error, never a short buffer (an empty tensor's other dimensions may be huge). */
void *rt_alloc_array(int64_t n, size_t size);

RtValue rt_tuple_value(int n, const RtValue *fields);

/* ---------------------------------------------------------------- constructor values */

/* Where one field of a constructor's values is stored. A field whose declared type fixes the kind
 * of its values (a data type, a function, a tuple, a reference, a tensor of constant rank >= 1, a
 * scalar of a constant dtype) holds 8 bytes: the pointer, or the scalar's bits. A field whose type
 * is a type parameter holds a whole RtValue. Cons(a, List[a]) takes 32 bytes, not 40. */
typedef struct {
  uint8_t kind;    /* the RtKind of every value of the field, or RT_FIELD_VALUE */
  IrDType dt;      /* RT_SCALAR: the dtype */
  uint32_t offset; /* bytes from the start of the fields */
  uint64_t head;   /* not RT_FIELD_VALUE: the first word of its values (kind and dtype), made once */
} RtField;

#define RT_FIELD_VALUE 0xff
_Static_assert(offsetof(RtValue, u) == sizeof(uint64_t), "an RtValue is a word of kind and dtype, then its payload");

/* The fields of k's values in out[0..nargs), from its checked scheme; returns the bytes they take. */
size_t rt_ctor_layout(const IrTCtor *k, RtField *out);

/* A constructor as the run time sees it, made once (compile.c): its fields' layout. */
struct RtCtor {
  const IrCtor *src;     /* its name and declaration */
  const IrType *scheme;  /* fn<params>(fields) -> D[params], as the checker made it (conform.c) */
  int tag;           /* src's tag and number of fields, copied here: a match and a constructor */
  int nargs;         /* read them with one load from the value they have */
  RtField *fields;
  size_t bytes;    /* of the fields */
  size_t granules; /* rt_small_class of a whole value, or 0 */
};

static inline RtValue rt_field_get(const RtAdt *a, RtField fl) {
  RtValue v;
  if (fl.kind == RT_FIELD_VALUE) {
    memcpy(&v, a->f + fl.offset, sizeof v);
    return v;
  }
  memcpy(&v, &fl.head, sizeof fl.head); /* two word moves, not the kind and dtype put together */
  memcpy(&v.u, a->f + fl.offset, sizeof v.u);
  return v;
}

static inline void rt_field_set(RtAdt *a, RtField fl, RtValue v) {
  if (fl.kind == RT_FIELD_VALUE) memcpy(a->f + fl.offset, &v, sizeof v);
  else memcpy(a->f + fl.offset, &v.u, sizeof v.u);
}
RtValue rt_unit(void);

/* ---------------------------------------------------------------- scalars */

/* float16 storage (GCC's _Float16; arithmetic on it is done in float). clang has no _Float16 on
 * wasm32: relay.wasm stores __fp16, whose conversions are compiler-rt's software ones, rounding to
 * nearest even as the native ones do. */
#ifndef RELAY_WASM
__extension__ typedef _Float16 RtHalf;
#else
typedef __fp16 RtHalf;
#endif

static inline RtValue rt_scalar_i(IrDType dt, int64_t i) { return (RtValue){.kind = RT_SCALAR, .dt = dt, .u.i = i}; }
static inline RtValue rt_bool(bool b) {
  return (RtValue){.kind = RT_SCALAR, .dt = IR_DTYPE(IR_DT_BOOL, 1), .u.u = b};
}

/* A scalar of dtype dt from a double or an int64 (wrapping integers to the dtype's width as C
 * does, rounding floats to float32 or float16). */
RtValue rt_scalar_from_f64(IrDType dt, double x);
RtValue rt_scalar_from_i64(IrDType dt, int64_t x);
RtValue rt_scalar_from_u64(IrDType dt, uint64_t x);
double rt_scalar_f64(RtValue v);
int64_t rt_scalar_i64(RtValue v);
/* The value of a literal at dtype dt (which the checker chose). */
RtValue rt_scalar_from_lit(const IrLit *lit, IrDType dt);
float rt_half_round(float x);

/* ---------------------------------------------------------------- tensors */

/* The size in bytes of one element (bool takes a byte, float16 two). */
size_t rt_dtype_size(IrDType dt);
/* An uninitialized tensor; rank must be >= 1. */
RtTensor *rt_tensor_new(IrDType dt, int rank, const int64_t *shape);
/* Element i of a tensor, or the scalar itself. */
RtValue rt_tensor_get(const RtTensor *t, int64_t i);
void rt_tensor_set(RtTensor *t, int64_t i, RtValue v);
/* A tensor of the given shape filled with v (a scalar when rank is 0). */
RtValue rt_tensor_fill(RtValue v, IrDType dt, int rank, const int64_t *shape);
/* An operator call as the kernels see it: where it is, its attributes, its type. */
typedef struct RtSite {
  const IrExpr *expr;     /* the call as parsed, for error locations and attributes as written; may be NULL */
  const IrOpAttrs *attrs; /* decoded by the checker; never NULL (&ir_op_attrs_none for none) */
  const IrType *type;     /* the call's type, which debug builds check the result against; NULL: unchecked */
} RtSite;

/* The kernel of an operator applied to evaluated arguments, at the call `site` (never NULL). */
RtValue rt_kernel_call(IrOpId op, const RtValue *args, int nargs, const RtSite *site);

/* ---------------------------------------------------------------- compiled code */

/* A running function's frame: its closure's environment, then its slots, in one block on the C
 * stack (the call nodes make it: exec.c's FIXED_FRAME and VARIABLE_FRAME), so that a slot is read
 * at a constant offset from the frame's address, without loading a pointer to the slots first. */
typedef struct RtFrame {
  RtValue *env;    /* the closure's captured variables */
  uint64_t zero;   /* 0: the slots start 16 bytes in, and no word of the frame is left unset */
  RtValue slots[]; /* parameters first, then let- and pattern-bound variables */
} RtFrame;

typedef struct RtCode RtCode;
typedef RtValue (*RtRun)(const RtCode *code, RtFrame *frame);

/* Every node starts with this header; the node kinds are in exec.c. */
struct RtCode {
  RtRun run;
  const IrExpr *expr; /* for error locations */
};

/* A compiled function: a Relay function body, or a native one (a constructor or an operator
 * used as a value). */
struct RtFn {
  const char *name; /* "@f", "%g", "fn", a constructor's or operator's name */
  int nparams, nslots;
  RtCode *body;
  RtValue (*native)(const RtFn *fn, RtValue *args, const IrExpr *site);
  const void *native_data; /* the constructor or operator of a native function */
  RtValue value;           /* a global's closure value (no captures), made once; a session binding's value */
};

/* Compiles a top-level expression (checked as the body of a function of no parameters). */
RtFn *rt_compile_expr(RtProgram *p, const IrTFn *e);

/* Runs a function of no parameters (a global's or a top-level expression's) under rt_protect, as
 * rt_eval does (exec.c). */
bool rt_exec_run(const RtFn *fn, RtValue *out, IrDiags *diags);

/* ---------------------------------------------------------------- the state */

#define RT_MAX_TAIL_ARGS 64

/* A call in progress, linked from the most recent: the call chain of run-time errors. The tail
 * calls a call ends in run in one more record above the call's own (finish_tail_calls in exec.c),
 * which keeps the call that entered them (the user's); `up` of such a record has its low bit set,
 * which the chain shows as "tail call" (rt_call_up). */
typedef struct RtCallRec {
  const RtFn *fn;
  const IrExpr *site;
  struct RtCallRec *up;
} RtCallRec;

static inline RtCallRec *rt_call_up(const RtCallRec *c, bool *tail) {
  *tail = (uintptr_t)c->up & 1;
  return (RtCallRec *)((uintptr_t)c->up & ~(uintptr_t)1);
}

/* A protected call: errors longjmp here. */
typedef struct RtTrap {
  IrTrap ir; /* out of memory in any allocator lands here too */
  struct RtTrap *prev;
  RtCallRec *calls;
#ifdef RELAY_WASM
  int depth; /* rt_state.depth when the protected call started */
#endif
} RtTrap;

/* The call chain of a raised error is kept as runs of identical calls (a recursion is one run
 * with its count), the oldest RT_CHAIN_HEAD and the newest RT_CHAIN_TAIL of them (error.c). */
enum { RT_CHAIN_HEAD = 3, RT_CHAIN_TAIL = 7 };

typedef struct {
  const RtFn *fn;
  const IrExpr *site;
  long count;
  bool tail; /* tail calls, which ran above the call that entered them */
} RtChainRun;

/* The error being raised. It is recorded without allocating (memory may be exhausted) and turned
 * into a diagnostic after the longjmp, when the dead evaluation's objects can be collected. */
typedef struct {
  IrSpan span;
  char message[1024];
  RtChainRun runs[RT_CHAIN_HEAD + RT_CHAIN_TAIL]; /* oldest first */
  int nruns;
  int cut_at;   /* runs before this index are the oldest ones; -1: nothing was cut */
  long skipped; /* calls left out between them */
  bool out_of_memory;
  bool interrupted; /* the error is Ctrl-C's */
} RtRaised;

/* The run time's state: the one place where the run time keeps mutable state, as lua_State and
 * WrenVM are for Lua and Wren. Nothing else in runtime/ is written after start-up (constant
 * tables and the unit tuple are const); new mutable state goes here, not in a file-scope or
 * function-static variable. Evaluation is single-threaded (on the evaluation stack), so there is
 * one instance, rt_state: a global, which the hot paths (every call's fields below, the
 * free-list pop) reach at a fixed address, with no pointer to load or pass. Its pointers (the
 * free lists, the reserve, the pending tail call's arguments) are roots: the collector scans
 * static memory. ir/ keeps its own few (the innermost trap, the interrupt flag: HACKING.md). */
typedef struct RtState {
  /* ---- small objects: one free list per size in granules (rt_take_small, value.c). First, so
   * that the inline pop indexes the state's address itself (`lea rt_state; mov (%rdx,%rdi,8)`):
   * at an offset GCC spent one more instruction on it in every constructor node. */
  void *small_free[RT_SMALL_GRANULES + 1];
  int small_kind; /* the collector kind they are of; -1 until the first refill makes it */
  /* ---- the evaluator's machine, read and written by every call (exec.c) */
  /* A pending tail call: the callee and its arguments, copied by the nearest call at once. */
  const RtFn *tail_fn;
  RtValue *tail_env;
  const IrExpr *tail_site;
  RtCallRec *calls;
  const IrExpr *at; /* the operator or allocation running now, for errors raised without a node */
  /* Every call compares its stack address with this: below it, rt_check_stack runs. It is the
   * stack's floor, or UINTPTR_MAX once Ctrl-C has tripped it (rt_interrupt), so that the same
   * compare notices an interrupt. Written by the SIGINT handler: an aligned word. */
  volatile uintptr_t stack_limit;
  volatile sig_atomic_t interrupts; /* how many times rt_interrupt was called (relay --serve's "interrupted") */
  uintptr_t stack_floor; /* below this address, a call raises "stack overflow" */
#ifdef RELAY_WASM
  /* relay.wasm: the calls in progress (exec.c's enter). WebAssembly's call stack is the browser's,
   * about 1 MB, apart from the C stack the floor above guards: past RT_WASM_MAX_CALLS calls a call
   * raises "stack overflow" before that stack runs out (a RangeError would end the worker). */
  int depth;
#endif
  RtTrap *trap;
  RtValue tail_args[RT_MAX_TAIL_ARGS];
  /* ---- the stack guard: the limit above is this thread's (rt_protect finds it once per thread) */
  size_t stack_bytes; /* the size of the evaluation stack, for the overflow message */
  pthread_t limit_thread;
  bool limit_known;
  /* ---- errors (error.c) */
  RtRaised raised;
  /* A block set aside so that reporting "out of memory" can allocate: released when an error
   * lands, made again at the next protected call. */
  void *reserve;
  size_t own_bytes; /* allocated for the run-time's own use (the reserve), not the program's */
  /* ---- OpenBLAS's products, dlsym's results, NULL until the first product loads it (nn.c) */
  void *blas_sgemm, *blas_dgemm;
  bool blas_portable; /* OpenBLAS could not be loaded (or RELAY_BLAS=portable): runtime/gemm.c's products */
  /* ---- :trace (trace.c): the traced calls in progress, for their indentation; set to 0 by each
   * evaluation, as an error leaves it where it was */
  int trace_depth;
} RtState;

/* A session's compiled program (runtime.h), across its chunks (compile.c). */
struct RtProgram {
  IR_VEC(RtFn *) globals; /* by IrTDef id */
  IrPtrMap ctors;         /* IrTCtor -> RtCtor */
  IrPtrMap ctor_values;   /* IrTCtor -> RtValue *: a nullary one's value, or its function */
  IrPtrMap checked;       /* RtFn of a definition, or IrTCtor -> its checked entry (an RtFn) */
};

/* The compiled function of a global definition (compiled by rt_compile_program), or NULL. */
static inline RtFn *rt_global_fn(const RtProgram *p, const IrTDef *def) {
  return def && def->id < p->globals.len ? p->globals.items[def->id] : NULL;
}

extern RtState rt_state;

/* Takes an object of `granules` from its free list (refilled when empty). Inline: constructor
 * nodes allocate through it. */
static inline void *rt_take_small(size_t granules) {
  void *p = rt_state.small_free[granules];
  if (__builtin_expect(!p, 0)) return rt_small_refill(granules);
  rt_state.small_free[granules] = GC_NEXT(p);
  GC_NEXT(p) = NULL;
  return p;
}

/* A shape as a tensor type writes it: "(2, 3)", "(3)", "()". */
const char *rt_shape_text(int rank, const int64_t *shape);

/* Raises a run-time error at e's span (NULL: the expression noted in `at`, else the innermost
 * call's site): longjmps to the nearest protected call. Allocates nothing until it lands there. */
_Noreturn void rt_error(const IrExpr *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Raises "out of memory" for a failed request of `bytes`; the collector reclaims what the
 * abandoned evaluation held before the error is reported. */
_Noreturn void rt_error_out_of_memory(size_t bytes);
/* Raises "interrupted" if Ctrl-C was pressed, "stack overflow" if the stack is nearly used up. */
void rt_check_stack(const IrExpr *site);
#ifdef RELAY_WASM
/* The calls a relay.wasm evaluation may nest, besides its C stack's share (error.c): 0.65 of what
 * a Chromium worker's stack holds of the Relay calls that need the least of it (1,840; node's
 * 4,480: docs/play.md). */
#ifndef RT_WASM_MAX_CALLS
#define RT_WASM_MAX_CALLS 1200
#endif
/* Raises relay.wasm's "stack overflow". */
_Noreturn void rt_too_deep(const IrExpr *site);
#endif
static inline void rt_poll(const IrExpr *site) {
  if (__builtin_expect(ir_interrupted, 0)) rt_check_stack(site);
}
/* Runs fn(arg) under a trap: true if it returned, false if a run-time error (now in diags)
 * unwound it. */
bool rt_protect(void (*fn)(void *), void *arg, IrDiags *diags);

/* A short form of v for messages (at most about 60 characters). */
char *rt_value_brief(RtValue v);

#endif
