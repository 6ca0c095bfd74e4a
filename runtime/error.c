/* Run-time errors: protected calls (setjmp), raising (longjmp) with the source location and the
 * chain of calls that led there, the stack-depth guard and the interrupt flag. */
#include "runtime/rt.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

RtMachine rt_machine;

/* The call chain is shown oldest first, a run of identical calls (a recursion) as one line with
 * its count, and cut in the middle when it is longer than this. */
enum { CHAIN_HEAD = 3, CHAIN_TAIL = 7 };

typedef struct {
  const RtCallRec *rec;
  long count;
} Run;

static bool same_call(const RtCallRec *a, const RtCallRec *b) { return a->fn == b->fn && a->site == b->site; }

static void note_run(IrDiag *d, const Run *r) {
  const IrSpan *s = &r->rec->site->span;
  char times[48] = "";
  if (r->count > 1) snprintf(times, sizeof times, " (%ld times)", r->count);
  if (s->src) ir_diag_note(d, "  %s:%u:%u: call of %s%s", s->src->name, s->line, s->col, r->rec->fn->name, times);
  else ir_diag_note(d, "  call of %s%s", r->rec->fn->name, times);
}

static void add_chain(IrDiag *d) {
  long n = 0;
  for (RtCallRec *c = rt_machine.calls; c; c = c->up) n += c->site != NULL;
  if (n == 0) return;
  const RtCallRec **recs = IR_NEW_ARRAY(const RtCallRec *, n);
  long k = n;
  for (RtCallRec *c = rt_machine.calls; c; c = c->up)
    if (c->site) recs[--k] = c;
  Run *runs = IR_NEW_ARRAY(Run, n);
  int nruns = 0;
  for (long i = 0; i < n; i++) {
    if (nruns && same_call(runs[nruns - 1].rec, recs[i])) runs[nruns - 1].count++;
    else runs[nruns++] = (Run){recs[i], 1};
  }
  ir_diag_note(d, "call chain (most recent call last):");
  for (int i = 0; i < nruns; i++) {
    if (nruns > CHAIN_HEAD + CHAIN_TAIL && i == CHAIN_HEAD) {
      long skipped = 0;
      for (int j = CHAIN_HEAD; j < nruns - CHAIN_TAIL; j++) skipped += runs[j].count;
      ir_diag_note(d, "  ... %ld more calls ...", skipped);
      i = nruns - CHAIN_TAIL;
    }
    note_run(d, &runs[i]);
  }
}

void rt_error(const IrExpr *e, const char *fmt, ...) {
  RtTrap *trap = rt_machine.trap;
  va_list ap;
  va_start(ap, fmt);
  char *msg = ir_vprintf(fmt, ap);
  va_end(ap);
  if (!e && rt_machine.calls) e = rt_machine.calls->site;
  IrSpan span = e ? e->span : (IrSpan){0};
  if (trap) {
    IrDiag *d = ir_diag_add(trap->diags, IR_DIAG_RUNTIME, span, "%s", msg);
    add_chain(d);
    longjmp(trap->jb, 1);
  }
  /* No protected call: an evaluator entry point forgot its trap. Say so and stop the thread of
   * evaluation rather than run on in an unknown state. */
  fprintf(stderr, "relay: internal error: run-time error outside a protected call: %s\n", msg);
  pthread_exit(NULL);
}

/* ---------------------------------------------------------------- the stack and interrupts */

void rt_interrupt(void) { rt_machine.interrupted = 1; }

/* The deepest address evaluation may use, leaving room for kernels, printing and the collector. */
enum { STACK_MARGIN = 32 << 20 };

static uintptr_t stack_limit_of_this_thread(void) {
  pthread_attr_t attr;
  void *addr;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  int rc = pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  if (rc != 0) return 0;
  size_t margin = size / 4 < STACK_MARGIN ? size / 4 : STACK_MARGIN;
  return (uintptr_t)addr + margin;
}

void rt_check_stack(const IrExpr *site) {
  if (rt_machine.interrupted) {
    rt_machine.interrupted = 0;
    rt_error(site, "interrupted");
  }
  char here;
  if ((uintptr_t)&here < rt_machine.stack_limit)
    rt_error(site, "stack overflow: the recursion is too deep for the %zu MB evaluation stack",
             (size_t)(RT_STACK_BYTES >> 20));
}

bool rt_protect(void (*fn)(void *), void *arg, IrDiags *diags) {
  static pthread_t limit_thread;
  static bool limit_known;
  if (!limit_known || !pthread_equal(limit_thread, pthread_self())) {
    rt_machine.stack_limit = stack_limit_of_this_thread();
    limit_thread = pthread_self();
    limit_known = true;
  }
  RtTrap trap = {.prev = rt_machine.trap, .calls = rt_machine.calls, .diags = diags};
  rt_machine.trap = &trap;
  if (setjmp(trap.jb) == 0) {
    fn(arg);
    rt_machine.trap = trap.prev;
    return true;
  }
  rt_machine.trap = trap.prev;
  rt_machine.calls = trap.calls;
  rt_machine.interrupted = 0;
  return false;
}
