/* Run-time errors: protected calls (setjmp), raising (longjmp) with the source location and the
 * chain of calls that led there, the stack-depth guard and the interrupt flag. */
#include "runtime/rt.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

RtMachine rt_machine;

/* The call chain is shown oldest first, a run of identical calls (a recursion) as one line with
 * its count, and cut in the middle when it is longer than this. */
enum { CHAIN_HEAD = 3, CHAIN_TAIL = 7 };

typedef struct {
  const RtFn *fn;
  const IrExpr *site;
  long count;
} Run;

/* The error being raised. It is recorded without allocating (memory may be exhausted) and turned
 * into a diagnostic after the longjmp, when the dead evaluation's objects can be collected. */
static struct {
  IrSpan span;
  char message[1024];
  Run runs[CHAIN_HEAD + CHAIN_TAIL]; /* oldest first */
  int nruns;
  int cut_at;   /* runs before this index are the oldest ones; -1: nothing was cut */
  long skipped; /* calls left out between them */
  bool out_of_memory;
  bool interrupted; /* the error is Ctrl-C's */
} raised;

/* Walks the chain (newest first) as runs of identical calls; f sees each run with its index from
 * the newest. Returns the number of runs. */
static long each_run(void (*f)(long index, const Run *run, void *env), void *env) {
  long index = 0;
  Run cur = {0};
  for (const RtCallRec *c = rt_machine.calls; c; c = c->up) {
    if (!c->site) continue;
    if (cur.count && cur.fn == c->fn && cur.site == c->site) {
      cur.count++;
      continue;
    }
    if (cur.count) f(index++, &cur, env);
    cur = (Run){c->fn, c->site, 1};
  }
  if (cur.count) f(index++, &cur, env);
  return index;
}

static void ignore_run(long index, const Run *run, void *env) {
  (void)index, (void)run, (void)env;
}

/* Keeps the newest CHAIN_TAIL runs and the oldest CHAIN_HEAD, counting the calls in between. */
static void keep_run(long index, const Run *run, void *env) {
  long total = *(long *)env;
  long from_oldest = total - 1 - index;
  if (total <= CHAIN_HEAD + CHAIN_TAIL) raised.runs[from_oldest] = *run;
  else if (index < CHAIN_TAIL) raised.runs[CHAIN_HEAD + CHAIN_TAIL - 1 - index] = *run;
  else if (from_oldest < CHAIN_HEAD) raised.runs[from_oldest] = *run;
  else raised.skipped += run->count;
}

static void record_chain(void) {
  long total = each_run(ignore_run, NULL);
  raised.nruns = total < CHAIN_HEAD + CHAIN_TAIL ? (int)total : CHAIN_HEAD + CHAIN_TAIL;
  raised.cut_at = total > CHAIN_HEAD + CHAIN_TAIL ? CHAIN_HEAD : -1;
  raised.skipped = 0;
  each_run(keep_run, &total);
}

static void note_run(IrDiag *d, const Run *r) {
  const IrSpan *s = &r->site->span;
  char times[48] = "";
  if (r->count > 1) snprintf(times, sizeof times, " (%ld times)", r->count);
  if (s->src) ir_diag_note(d, "  %s: call of %s%s", ir_span_place(*s), r->fn->name, times);
  else ir_diag_note(d, "  call of %s%s", r->fn->name, times);
}

static void report_raised(IrDiags *diags) {
  IrDiag *d = ir_diag_add(diags, IR_DIAG_RUNTIME, raised.span, "%s", raised.message);
  if (!d || raised.nruns == 0) return;
  ir_diag_note(d, "call chain (most recent call last):");
  for (int i = 0; i < raised.nruns; i++) {
    if (i == raised.cut_at) ir_diag_note(d, "  ... %ld more calls ...", raised.skipped);
    note_run(d, &raised.runs[i]);
  }
}

/* Where an evaluation's error is: e, else the operator or allocation running, else the innermost call. */
static void record_place(const IrExpr *e) {
  if (!e) e = rt_machine.at;
  if (!e && rt_machine.calls) e = rt_machine.calls->site;
  raised.span = e ? e->span : (IrSpan){0};
  record_chain();
}

/* A protected call's trap, before any allocator's failure unwinds to it. */
static void record_out_of_memory(IrTrap *trap, size_t bytes) {
  (void)trap;
  raised.out_of_memory = true;
  snprintf(raised.message, sizeof raised.message, "out of memory (a request for %zu bytes)", bytes);
  record_place(NULL);
}

void rt_error_out_of_memory(size_t bytes) { ir_out_of_memory(bytes); }

void rt_error(const IrExpr *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raised.message, sizeof raised.message, fmt, ap);
  va_end(ap);
  record_place(e);
  if (rt_machine.trap) ir_unwind(&rt_machine.trap->ir);
  /* No protected call: an evaluator entry point forgot its trap. Say so and stop the thread of
   * evaluation rather than run on in an unknown state. */
  fprintf(stderr, "relay: internal error: run-time error outside a protected call: %s\n", raised.message);
  pthread_exit(NULL);
}

/* ---------------------------------------------------------------- the stack and interrupts */

void rt_interrupt(void) { rt_machine.interrupted = 1; }

void rt_interrupt_clear(void) { rt_machine.interrupted = 0; }

bool rt_was_interrupted(void) { return raised.interrupted; }

/* The deepest address evaluation may use, leaving room for kernels, printing and the collector. */
enum { STACK_MARGIN = 32 << 20 };

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

void rt_check_stack(const IrExpr *site) {
  if (rt_machine.interrupted) {
    rt_machine.interrupted = 0;
    raised.interrupted = true;
    rt_error(site, "interrupted");
  }
  char here;
  if ((uintptr_t)&here < rt_machine.stack_limit)
    rt_error(site, "stack overflow: the recursion is too deep for the %zu MB evaluation stack",
             rt_machine.stack_bytes >> 20);
}

/* Zeroes the stack just below the caller, where the abandoned evaluation's frames were: the calls
 * that follow would otherwise leave old pointers in their uninitialized slots, and the collector,
 * which scans stacks conservatively, would keep what they point to alive. */
static __attribute__((noinline)) void clear_dead_stack(void) {
  volatile char pad[256 << 10];
  memset((char *)pad, 0, sizeof pad);
}

/* A block set aside so that reporting "out of memory" can allocate: released when an error lands,
 * made again at the next protected call. */
static void *reserve;
enum { RESERVE_BYTES = 1 << 20 };

bool rt_protect(void (*fn)(void *), void *arg, IrDiags *diags) {
  if (!reserve && (reserve = GC_MALLOC_ATOMIC(RESERVE_BYTES))) rt_machine.own_bytes += RESERVE_BYTES;
  static pthread_t limit_thread;
  static bool limit_known;
  if (!limit_known || !pthread_equal(limit_thread, pthread_self())) {
    rt_machine.stack_limit = stack_limit_of_this_thread(&rt_machine.stack_bytes);
    limit_thread = pthread_self();
    limit_known = true;
  }
  RtTrap trap = {.prev = rt_machine.trap, .calls = rt_machine.calls};
  raised.out_of_memory = false;
  raised.interrupted = false;
  rt_machine.trap = &trap;
  ir_trap_push(&trap.ir, record_out_of_memory);
  if (setjmp(trap.ir.jb) == 0) {
    fn(arg);
    ir_trap_pop(&trap.ir);
    rt_machine.trap = trap.prev;
    return true;
  }
  rt_machine.trap = trap.prev;
  rt_machine.calls = trap.calls;
  rt_machine.at = NULL;
  /* The last tail call's arguments are a root: drop them, so the abandoned evaluation's data
   * (perhaps what exhausted the memory) can be collected before the report is made. */
  memset(rt_machine.tail_args, 0, sizeof rt_machine.tail_args);
  rt_machine.interrupted = 0;
  clear_dead_stack();
  if (raised.out_of_memory) {
    reserve = NULL; /* what the report needs, even if the memory is still full */
    GC_gcollect();
  }
  report_raised(diags);
  return false;
}
