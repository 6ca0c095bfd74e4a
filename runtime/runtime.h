/* What runtime/ offers: the GC heap and the evaluation stack, values, tensors and their kernels,
 * the closure compiler and the evaluator, value printing. It runs the typed programs of ir/typed.h
 * (which typing/ makes) and never includes a typing/ header.
 *
 * A value is a 16-byte struct passed by value. Scalars (rank-0 tensors of every dtype) are
 * immediate, so scalar arithmetic allocates nothing; everything else points to a GC object. A
 * rank-0 tensor is always represented as a scalar, never as a tensor object. */
#ifndef RUNTIME_RUNTIME_H
#define RUNTIME_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* ---------------------------------------------------------------- values */

typedef enum {
  RT_SCALAR,  /* a rank-0 tensor: `dt` and one of i (signed), u (unsigned, bool), f32, f64 */
  RT_TENSOR,  /* t: a tensor of rank >= 1 */
  RT_TUPLE,   /* tup */
  RT_ADT,     /* adt: a constructor and its fields */
  RT_CLOSURE, /* clo */
  RT_REF,     /* ref */
  RT_TAIL,    /* internal: a pending tail call, never seen outside the evaluator */
  RT_LOOP,    /* internal: a tail call of the running function, its arguments in its frame */
  RT_HOLE,    /* internal: RT_LOOP inside a constructor (adt), whose last field it will fill */
} RtKind;

typedef struct RtTensor RtTensor;
typedef struct RtTuple RtTuple;
typedef struct RtAdt RtAdt;
typedef struct RtClosure RtClosure;
typedef struct RtRef RtRef;

typedef struct RtValue {
  uint8_t kind; /* RtKind */
  IrDType dt;   /* RT_SCALAR: its dtype (float16 is held as a float32 rounded to half) */
  union {
    int64_t i;  /* int8..int64, sign-extended */
    uint64_t u; /* uint8..uint64 and bool (0 or 1) */
    float f32;  /* float32, float16 */
    double f64; /* float64 */
    RtTensor *t;
    RtTuple *tup;
    RtAdt *adt;
    RtClosure *clo;
    RtRef *ref;
  } u;
} RtValue;

/* ---------------------------------------------------------------- the heap and the stack */

/* The size of the evaluation stack: deep non-tail recursion (a map over a million-element list)
 * runs on it. Untouched pages cost nothing. `relay --stack MB` chooses another size, not below
 * the minimum, which the parser's and checker's depth guards (10,000 levels) need. */
#define RT_STACK_BYTES ((size_t)1 << 30)
#define RT_STACK_MIN_BYTES ((size_t)64 << 20)

/* Starts the collector (with a heap limit below the machine's memory, so that exhausting it is
 * a run-time error rather than the kernel's OOM killer); call once, first thing in main(). */
void rt_heap_init(void);
/* Caps the heap at bytes (relay --max-heap), over rt_heap_init's default and GC_MAXIMUM_HEAP_SIZE:
 * an allocation past it is an "out of memory" error, as any. */
void rt_heap_set_max(size_t bytes);
/* The bytes programs allocated on the GC heap since start-up (for the REPL's :set timing). */
size_t rt_heap_allocated(void);
#ifdef RELAY_WASM
/* relay.wasm's collector runs only here, between requests (heap.c says why); the cap
 * (rt_heap_set_max) is then the program's again, without the room an "out of memory" took for
 * its report. */
void rt_heap_collect(void);
/* The C stack below the caller is the evaluation's, 112 kB of it (error.c says why): each request
 * marks it, as its text may be on the stack above (repl/wasm.c). */
void rt_stack_mark(void);
/* The heap's cap (repl/wasm.c sets it; the out-of-memory note names it): relay --serve --sandbox's. */
#define RT_WASM_HEAP_MB 512
#endif

/* Runs fn(arg) on a thread with a stack of `bytes` that the collector scans, and waits for it.
 * Returns false (with errno set) when the thread cannot be made; fn then does not run. The
 * evaluator's depth guard measures this stack. */
bool rt_stack_run(void (*fn)(void *), void *arg, size_t bytes);

/* ---------------------------------------------------------------- running programs */

/* What a session has compiled: each definition's compiled function (by its IrTDef number) and
 * each constructor's layout and value, made once. A session owns one, as it owns its module. */
typedef struct RtProgram RtProgram;
RtProgram *rt_program_new(void);

/* Compiles the definitions of a type-checked chunk into p, each function body once into a tree of
 * closures. Later code that names a definition calls the one it was checked against, so a
 * redefinition shadows only for what follows. Call before running any of its expressions. */
void rt_compile_program(RtProgram *p, const IrTProgram *prog);

/* Evaluates a type-checked top-level expression, compiled against p. On a run-time error (or an
 * interrupt) the evaluation unwinds, the error with its location and call chain goes to diags,
 * and false is returned; definitions and values made before stay intact. */
bool rt_eval(RtProgram *p, const IrTFn *e, RtValue *out, IrDiags *diags);

/* A session binding's value (IrTDef.value: `%x`, `%it`), set once its item has run; code
 * compiled against p reads it when it runs. */
void rt_set_value(RtProgram *p, const IrTDef *def, RtValue v);
RtValue rt_value_of(const RtProgram *p, const IrTDef *def);
/* Drops p's hold on a definition or a binding that a newer one of its name has replaced, or on a
 * constructor's layout and value: what was compiled for it stays only as long as code compiled
 * against it (a definition that uses it) does. Allocates nothing. */
void rt_forget(RtProgram *p, const IrTDef *def);
void rt_forget_ctor(RtProgram *p, const IrTCtor *k);

/* Calls a global function of p that takes no arguments (`@main`), as rt_eval. */
bool rt_call_global(RtProgram *p, const IrTDef *def, RtValue *out, IrDiags *diags);

/* Asks the running evaluation to stop with "interrupted" at its next call or loop edge.
 * Async-signal-safe: call it from a SIGINT handler. */
void rt_interrupt(void);
/* Forgets an interrupt that no evaluation has met (Ctrl-C while the REPL was reading). */
void rt_interrupt_clear(void);
/* Whether the last evaluation that failed stopped because of an interrupt. */
bool rt_was_interrupted(void);
/* How many interrupts have been asked for (rt_interrupt) since start-up: a request of relay
 * --serve was interrupted when the count moved while it ran. */
unsigned rt_interrupt_count(void);

/* ---------------------------------------------------------------- printing */

/* Writes v in Relay's literal syntax (`3`, `2.5f`, `(1, True)`, `Cons(1, Nil())`,
 * `[[1f, 2f], [3f, 4f]]`, `<closure>`, `ref(3)`); tensors of more than 1,000 elements are
 * summarized with `...` as numpy does. */
void rt_print_value(IrBuf *out, RtValue v);
/* How the REPL's display writes a list (the REPL's `:set lists`): as `List[0, 1, 2, 3, 4]` from 5
 * elements on and as its constructors below (the default), always as `List[...]`, or always as
 * constructors (`Cons(0, Nil())`, Relay's syntax). `List[...]` does not read back. */
typedef enum { RT_LISTS_AUTO, RT_LISTS_SUGAR, RT_LISTS_CONSTRUCTORS } RtListStyle;

/* The same as the REPL displays it: a matrix or higher tensor one row per line, the numbers
 * right-aligned in columns as numpy shows them, lines wrapped before column 80 (still Relay
 * syntax); a list written as `lists` says and cut with `...` after 100 elements, and any value
 * after 20,000 characters. */
void rt_print_display(IrBuf *out, RtValue v, RtListStyle lists);
/* v in brief, as :trace shows arguments and results: each tensor as its type
 * (`Tensor[(64, 512), float32]`), everything else in Relay's syntax, cut with `...` after about
 * `limit` more bytes of out. */
void rt_print_summary(IrBuf *out, RtValue v, size_t limit);

/* v as JSON, for `relay --serve` (docs/serve.md says the format): a tensor (a scalar too) as
 * {"kind":"tensor","dtype","shape","data"} with its first max_elements elements in row-major order
 * (and "truncated":true when there are more), a tuple or constructor with its fields, a closure
 * opaque; past 100 levels of nesting or 10,000 constructors and tuples, {"kind":"cut"}. */
void rt_print_json(IrBuf *out, RtValue v, size_t max_elements);

/* Whether v is a value of type t as far as t tells (a tensor's dtype, rank and known dimensions,
 * a tuple's and a constructor's fields, a reference's value; a shape variable one size throughout;
 * functions, holes and `?` fit). If not, why gets where and how (`field 1: a value of shape (2)
 * where the type says Tensor[(1), float32]`). The checking mode RELAY_CHECK_VALUES (repl/session.c)
 * holds every top-level value to the type the checker gave it. */
bool rt_value_check(RtValue v, const IrType *t, IrBuf *why);

/* ---------------------------------------------------------------- tracing */

/* Traces the global def of p (the REPL's :trace): each call of it writes a line to `out` with
 * its arguments, indented by the traced calls in progress, and a line with its value, as OCaml's
 * #trace does (trace.c says how tail calls show). The function's compiled body is swapped for one
 * that does this, so calls of untraced functions cost nothing. False if it was traced already. */
bool rt_trace(RtProgram *p, const IrTDef *def, FILE *out);
/* Stops tracing def; false if it was not traced. */
bool rt_untrace(RtProgram *p, const IrTDef *def);

#endif
