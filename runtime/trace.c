/* :trace — each call of a traced global shown with its arguments, and its value, as OCaml's #trace
 * shows them. Tracing swaps the function's compiled body for a CodeTraced node around it (exec.c's
 * rt_exec_traced), and untracing swaps it back, so that no call node tests whether its callee is
 * traced: when nothing is traced, tracing costs nothing.
 *
 *   @fact <-- 3, 1
 *   @fact <-- 2, 3   (tail call)
 *   @fact --> 6
 *   @layer <-- Tensor[(64, 784), float32], Tensor[(512, 784), float32]
 *     @norm <-- Tensor[(64, 512), float32]
 *     @norm --> Tensor[(64, 512), float32]
 *   @layer --> Tensor[(64, 512), float32]
 *
 * A line is indented by the traced calls in progress. A tail call of the function itself runs as
 * a loop in the same frame, so it shows at the same depth, marked, and the loop's value shows
 * once; a tail call of another traced function shows one level deeper, marked. A run-time error
 * stops the trace where it is (the error's call chain says the rest). */
#include "runtime/code.h"

#include <stdio.h>

/* Past this depth the indentation stops growing and the line says its depth instead; values are
 * cut after about this many bytes each. */
enum { MAX_INDENT = 20, VALUE_BYTES = 100 };

static void indent(IrBuf *b, int depth) {
  for (int i = 0; i < depth && i < MAX_INDENT; i++) ir_buf_puts(b, "  ");
  if (depth > MAX_INDENT) ir_buf_printf(b, "[%d] ", depth);
}

static void show(const CodeTraced *k, IrBuf *b) {
  ir_buf_putc(b, '\n');
  fputs(b->data, k->out);
}

void rt_trace_show_call(const CodeTraced *k, int depth, const RtValue *args, bool tail) {
  IrBuf b;
  ir_buf_init(&b);
  indent(&b, depth);
  ir_buf_printf(&b, "%s <--", k->fn->name);
  if (!k->fn->nparams) ir_buf_puts(&b, " ()");
  for (int i = 0; i < k->fn->nparams; i++) {
    ir_buf_puts(&b, i ? ", " : " ");
    rt_print_summary(&b, args[i], VALUE_BYTES);
  }
  if (tail) ir_buf_puts(&b, "   (tail call)");
  show(k, &b);
}

void rt_trace_show_value(const CodeTraced *k, int depth, RtValue v) {
  IrBuf b;
  ir_buf_init(&b);
  indent(&b, depth);
  ir_buf_printf(&b, "%s --> ", k->fn->name);
  rt_print_summary(&b, v, VALUE_BYTES);
  show(k, &b);
}

bool rt_trace(RtProgram *p, const IrTDef *def, FILE *out) {
  RtFn *fn = rt_global_fn(p, def);
  if (!fn || !fn->body || fn->body->run == rt_exec_traced) return false; /* a session binding has no body */
  CodeTraced *k = IR_NEW(CodeTraced);
  k->h.run = rt_exec_traced;
  k->h.expr = fn->body->expr;
  k->fn = fn;
  k->body = fn->body;
  k->out = out;
  fn->body = &k->h;
  return true;
}

bool rt_untrace(RtProgram *p, const IrTDef *def) {
  RtFn *fn = rt_global_fn(p, def);
  if (!fn || !fn->body || fn->body->run != rt_exec_traced) return false;
  fn->body = ((CodeTraced *)fn->body)->body;
  return true;
}
