/* Run-time errors: protected calls (setjmp), raising (longjmp) with the source location and the
 * chain of calls that led there, the stack-depth guard and the interrupt flag. */
#include "runtime/rt.h"

#include <pthread.h>
#ifdef RELAY_WASM
#include <emscripten/stack.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The run time's state (rt.h): the small kind is made by the first refill. */
RtState rt_state = {.small_kind = -1};

/* The call chain is shown oldest first, a run of identical calls (a recursion) as one line with
 * its count, and cut in the middle when it is longer than RT_CHAIN_HEAD + RT_CHAIN_TAIL runs. The
 * error being raised is recorded in rt_state.raised (RtRaised, rt.h). */

/* Walks the chain (newest first) as runs of identical calls; f sees each run with its index from
 * the newest. Returns the number of runs. */
static long each_run(void (*f)(long index, const RtChainRun *run, void *env), void *env) {
  long index = 0;
  RtChainRun cur = {0};
  for (const RtCallRec *c = rt_state.calls, *up; c; c = up) {
    bool tail;
    up = rt_call_up(c, &tail);
    if (!c->site) continue;
    if (cur.count && cur.fn == c->fn && cur.site == c->site && cur.tail == tail) {
      cur.count++;
      continue;
    }
    if (cur.count) f(index++, &cur, env);
    cur = (RtChainRun){c->fn, c->site, 1, tail};
  }
  if (cur.count) f(index++, &cur, env);
  return index;
}

static void ignore_run(long index, const RtChainRun *run, void *env) {
  (void)index, (void)run, (void)env;
}

/* Keeps the newest RT_CHAIN_TAIL runs and the oldest RT_CHAIN_HEAD, counting the calls in between. */
static void keep_run(long index, const RtChainRun *run, void *env) {
  long total = *(long *)env;
  long from_oldest = total - 1 - index;
  if (total <= RT_CHAIN_HEAD + RT_CHAIN_TAIL) rt_state.raised.runs[from_oldest] = *run;
  else if (index < RT_CHAIN_TAIL) rt_state.raised.runs[RT_CHAIN_HEAD + RT_CHAIN_TAIL - 1 - index] = *run;
  else if (from_oldest < RT_CHAIN_HEAD) rt_state.raised.runs[from_oldest] = *run;
  else rt_state.raised.skipped += run->count;
}

static void record_chain(void) {
  long total = each_run(ignore_run, NULL);
  rt_state.raised.nruns = total < RT_CHAIN_HEAD + RT_CHAIN_TAIL ? (int)total : RT_CHAIN_HEAD + RT_CHAIN_TAIL;
  rt_state.raised.cut_at = total > RT_CHAIN_HEAD + RT_CHAIN_TAIL ? RT_CHAIN_HEAD : -1;
  rt_state.raised.skipped = 0;
  each_run(keep_run, &total);
}

static void note_run(IrDiag *d, const RtChainRun *r) {
  const IrSpan *s = &r->site->span;
  char times[48] = "";
  if (r->count > 1) snprintf(times, sizeof times, " (%ld times)", r->count);
  const char *what = r->tail ? "tail call" : "call";
  if (s->src) ir_diag_note(d, "  %s: %s of %s%s", ir_span_place(*s), what, r->fn->name, times);
  else ir_diag_note(d, "  %s of %s%s", what, r->fn->name, times);
}

/* The raised error as a diagnostic: its message's first line, each further line a note (as a
 * type error's), then the call chain. */
static void report_raised(IrDiags *diags) {
  const char *m = rt_state.raised.message;
  size_t n = strcspn(m, "\n");
  IrDiag *d = ir_diag_add(diags, IR_DIAG_RUNTIME, rt_state.raised.span, "%.*s", (int)n, m);
  if (!d) return;
  for (m += n; *m == '\n'; m += n) {
    m++;
    n = strcspn(m, "\n");
    ir_diag_note(d, "%.*s", (int)n, m);
  }
  if (rt_state.raised.nruns == 0) return;
  ir_diag_note(d, "call chain (most recent call last):");
  for (int i = 0; i < rt_state.raised.nruns; i++) {
    if (i == rt_state.raised.cut_at) ir_diag_note(d, "  ... %ld more calls ...", rt_state.raised.skipped);
    note_run(d, &rt_state.raised.runs[i]);
  }
}

/* Where an evaluation's error is: e, else the operator or allocation running, else the innermost call. */
static void record_place(const IrExpr *e) {
  if (!e) e = rt_state.at;
  if (!e && rt_state.calls) e = rt_state.calls->site;
  rt_state.raised.span = e ? e->span : (IrSpan){0};
  record_chain();
}

/* A protected call's trap, before any allocator's failure unwinds to it. */
static void record_out_of_memory(IrTrap *trap, size_t bytes) {
  (void)trap;
  rt_state.raised.out_of_memory = true;
  snprintf(rt_state.raised.message, sizeof rt_state.raised.message, "out of memory (a request for %zu bytes)", bytes);
#ifdef RELAY_WASM /* a second line is a note (report_raised) */
  snprintf(rt_state.raised.message + strlen(rt_state.raised.message), sizeof rt_state.raised.message - strlen(rt_state.raised.message),
           "\nthe playground's heap holds %d MB and collects garbage between inputs only: split the work over inputs",
           RT_WASM_HEAP_MB);
#endif
  record_place(NULL);
}

void rt_error_out_of_memory(size_t bytes) { ir_out_of_memory(bytes); }

void rt_error(const IrExpr *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rt_state.raised.message, sizeof rt_state.raised.message, fmt, ap);
  va_end(ap);
  record_place(e);
  if (rt_state.trap) ir_unwind(&rt_state.trap->ir);
  /* No protected call: an evaluator entry point forgot its trap. Say so and stop the thread of
   * evaluation rather than run on in an unknown state. */
  fprintf(stderr, "relay: internal error: run-time error outside a protected call: %s\n", rt_state.raised.message);
  pthread_exit(NULL);
}

/* ---------------------------------------------------------------- the stack and interrupts */

void rt_interrupt(void) {
  rt_state.interrupts++;
  ir_interrupted = 1;
  rt_state.stack_limit = UINTPTR_MAX; /* the next call's stack compare fails: rt_check_stack */
}

void rt_interrupt_clear(void) {
  ir_interrupted = 0;
  rt_state.stack_limit = rt_state.stack_floor;
}

bool rt_was_interrupted(void) { return rt_state.raised.interrupted; }

unsigned rt_interrupt_count(void) { return (unsigned)rt_state.interrupts; }

/* The deepest address evaluation may use, leaving room for kernels, printing and the collector. */
enum { STACK_MARGIN = 32 << 20 };

#ifndef RELAY_WASM
static uintptr_t stack_limit_of_this_thread(size_t *stack_bytes) {
  pthread_attr_t attr;
  void *addr;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  int rc = pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  if (rc != 0) return 0;
  *stack_bytes = size;
  size_t margin = size / 4 < STACK_MARGIN ? size / 4 : STACK_MARGIN;
  return (uintptr_t)addr + margin;
}
#else
/* relay.wasm: the C stack is emscripten's, in linear memory (emscripten_stack_get_base/end), but
 * WebAssembly's own call stack is the browser's, and running out of it is a RangeError that ends
 * the worker. Evaluation uses both in proportion: each WebAssembly frame of a Relay call has its
 * share of C stack (its RtValue results, its call record). So evaluation gets only
 * EVAL_STACK_BYTES of the C stack: node's stack holds at least 4.8 times as many Relay calls as
 * 96 kB of C stack do, for every kind of call measured, and a Chromium worker's 0.41 of node's
 * (docs/play.md); this is about 0.6 of that. The rest of the 8 MB is the parser's and checker's. */
enum { EVAL_STACK_BYTES = 112 << 10, STACK_RESERVE = 256 << 10 };

/* EVAL_STACK_BYTES below the caller, keeping STACK_RESERVE at the stack's end for kernels and
 * printing. */
static uintptr_t eval_floor_below(uintptr_t here) {
  uintptr_t end = emscripten_stack_get_end() + STACK_RESERVE;
  return here > end + EVAL_STACK_BYTES ? here - EVAL_STACK_BYTES : end;
}

static uintptr_t stack_limit_of_this_thread(size_t *stack_bytes) {
  *stack_bytes = EVAL_STACK_BYTES;
  return eval_floor_below(emscripten_stack_get_base());
}

/* The stack below here is the evaluation's (repl/wasm.c, at each request): what the page put on
 * the stack above it (ccall copies a request's text there) is not counted against it. */
void rt_stack_mark(void) {
  rt_state.stack_bytes = EVAL_STACK_BYTES;
  rt_state.stack_limit = rt_state.stack_floor = eval_floor_below(emscripten_stack_get_current());
  rt_state.limit_thread = pthread_self();
  rt_state.limit_known = true;
}

void rt_too_deep(const IrExpr *site) {
  if (!rt_state.depth) /* no call: a closure's long body, a deep expression */
    rt_error(site, "stack overflow: the program is nested too deeply for the playground (relay on the command line "
                   "allows far more)");
  rt_error(site, "stack overflow: the recursion is too deep for the playground (%d nested calls; relay on the "
                 "command line allows far more)", rt_state.depth);
}
#endif

void rt_check_stack(const IrExpr *site) {
  rt_state.stack_limit = rt_state.stack_floor; /* untripped (the checker may have taken the interrupt) */
  if (ir_interrupted) {
    ir_interrupted = 0;
    rt_state.raised.interrupted = true;
    rt_error(site, "interrupted");
  }
  char here;
  if ((uintptr_t)&here < rt_state.stack_floor) {
#ifdef RELAY_WASM
    rt_too_deep(site);
#else
    rt_error(site, "stack overflow: the recursion is too deep for the %zu MB evaluation stack",
             rt_state.stack_bytes >> 20);
#endif
  }
}

/* Zeroes the stack just below the caller, where the abandoned evaluation's frames were: the calls
 * that follow would otherwise leave old pointers in their uninitialized slots, and the collector,
 * which scans stacks conservatively, would keep what they point to alive. */
static __attribute__((noinline)) void clear_dead_stack(void) {
  volatile char pad[256 << 10];
  memset((char *)pad, 0, sizeof pad);
}

/* The size of the reserve (rt_state.reserve). */
enum { RESERVE_BYTES = 1 << 20 };

bool rt_protect(void (*fn)(void *), void *arg, IrDiags *diags) {
  if (!rt_state.reserve && (rt_state.reserve = GC_MALLOC_ATOMIC(RESERVE_BYTES))) rt_state.own_bytes += RESERVE_BYTES;
  if (!rt_state.limit_known || !pthread_equal(rt_state.limit_thread, pthread_self())) {
    rt_state.stack_limit = rt_state.stack_floor = stack_limit_of_this_thread(&rt_state.stack_bytes);
    rt_state.limit_thread = pthread_self();
    rt_state.limit_known = true;
  }
  RtTrap trap = {.prev = rt_state.trap, .calls = rt_state.calls};
#ifdef RELAY_WASM
  trap.depth = rt_state.depth;
#endif
  rt_state.at = NULL; /* the last evaluation's operator is no place for this one's errors */
  rt_state.raised.out_of_memory = false;
  rt_state.raised.interrupted = false;
  rt_state.trap = &trap;
  ir_trap_push(&trap.ir, record_out_of_memory);
  if (setjmp(trap.ir.jb) == 0) {
    fn(arg);
    ir_trap_pop(&trap.ir);
    rt_state.trap = trap.prev;
    return true;
  }
  rt_state.trap = trap.prev;
  rt_state.calls = trap.calls;
#ifdef RELAY_WASM
  rt_state.depth = trap.depth;
#endif
  rt_state.at = NULL;
  /* The last tail call's arguments are a root: drop them, so the abandoned evaluation's data
   * (perhaps what exhausted the memory) can be collected before the report is made. */
  memset(rt_state.tail_args, 0, sizeof rt_state.tail_args);
  ir_interrupted = 0;
  rt_state.stack_limit = rt_state.stack_floor;
  clear_dead_stack();
  if (rt_state.raised.out_of_memory) {
    rt_state.reserve = NULL; /* what the report needs, even if the memory is still full */
    GC_gcollect();
  }
  report_raised(diags);
  return false;
}
