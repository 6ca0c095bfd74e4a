/* The evaluator: the run function of every kind of compiled node. A call node runs the callee's
 * body in a frame on the C stack (enter) and turns tail calls (the RT_TAIL, RT_LOOP and RT_HOLE
 * sentinels) into iterations of a loop. */
#include "runtime/code.h"

#include <string.h>

/* Runs a node. Variables and constants, the most common operands, are read here without the
 * indirect call: a predictable compare costs less than a call through a pointer. */
static inline __attribute__((always_inline)) RtValue run(const RtCode *c, RtFrame *f) {
  RtRun r = c->run;
  if (r == rt_exec_slot) return f->slots[((const CodeVar *)c)->index];
  if (r == rt_exec_const) return ((const CodeConst *)c)->v;
  return r(c, f);
}

/* Copies a call's few arguments inline: a loop would be turned back into a memcpy call, which
 * cost a fifth of the time of fib(30). */
static inline void copy_values(RtValue *dst, const RtValue *src, int n) {
  switch (n) {
  case 4: dst[3] = src[3]; /* fall through */
  case 3: dst[2] = src[2]; /* fall through */
  case 2: dst[1] = src[1]; /* fall through */
  case 1: dst[0] = src[0]; /* fall through */
  case 0: break;
  default: memcpy(dst, src, sizeof(RtValue) * (size_t)n);
  }
}

/* ---------------------------------------------------------------- calls */

/* A frame of n slots on the C stack, `name` pointing to it (its environment still to be set): of
 * exactly its size when n is a constant, else a run-time-sized array (one value more, for the
 * environment pointer and the zero word). Every word of it is set before the collector can see
 * it: an unset word keeps whatever an earlier, deeper frame left there, which the conservative
 * scan takes for a pointer (with the slots 8 bytes in, binary-trees kept its 6 MB stretch tree
 * alive: peak RSS 40 MB instead of 24). */
#define FIXED_FRAME(name, n)                                                                    \
  union {                                                                                       \
    RtFrame frame;                                                                              \
    char bytes[sizeof(RtFrame) + sizeof(RtValue) * (n)];                                        \
  } name##_block;                                                                               \
  RtFrame *name = &name##_block.frame;                                                          \
  name->zero = 0
#define VARIABLE_FRAME(name, n)                                                                 \
  RtValue name##_block[(n) + 1];                                                                \
  RtFrame *name = (RtFrame *)(void *)name##_block;                                              \
  name->zero = 0

/* r is what the body of rec's function returned in frame: runs the body again while r says it
 * ended in a tail call of itself (RT_LOOP: the tail call has put the arguments in the frame's
 * slots), rec's site following the latest of those calls. */
static inline RtValue loop_body(RtCallRec *rec, RtFrame *frame, RtValue r) {
  const RtCode *body = rec->fn->body;
  while (r.kind == RT_LOOP) {
    rec->site = rt_state.tail_site;
    rt_poll(rec->site);
    r = body->run(body, frame); /* a body that loops is no variable or constant: no need to look */
  }
  return r;
}

/* The constructors that a run of tail calls is building (RT_HOLE): the first one is the run's
 * value, each later one goes into the last field of the one before, and the value the run ends
 * with into the last one's. */
typedef struct {
  RtValue first;
  RtAdt *last;
} Holes;

static void fill_hole(RtAdt *a, RtValue v) { rt_field_set(a, a->ctor->fields[a->ctor->nargs - 1], v); }

/* loop_body, once a constructor has been returned: each one (RT_HOLE) is added to holes, and the
 * body runs again, as after RT_LOOP. */
static RtValue loop_body_holes(RtCallRec *rec, RtFrame *frame, RtValue r, Holes *holes) {
  for (;;) {
    r = loop_body(rec, frame, r);
    if (r.kind != RT_HOLE) return r;
    fill_hole(holes->last, (RtValue){.kind = RT_ADT, .u.adt = r.u.adt});
    holes->last = r.u.adt;
    r.kind = RT_LOOP;
  }
}

static RtValue build_holes(RtCallRec *rec, RtFrame *frame, RtValue r);

/* Runs the pending tail calls that a body returned (RT_TAIL), each in a fresh frame, until one
 * returns a value. `rec` is the caller's call record, updated to the function running. holes:
 * the constructors the run is building, or NULL while it has built none. */
static RtValue __attribute__((noinline)) run_tail_calls(RtCallRec *rec, Holes *holes) {
  for (;;) {
    const RtFn *fn = rt_state.tail_fn;
    rec->fn = fn;
    rec->site = rt_state.tail_site;
    rt_poll(rec->site);
    if (fn->native) return fn->native(fn, rt_state.tail_args, rec->site);
    VARIABLE_FRAME(frame, fn->nslots);
    frame->env = rt_state.tail_env;
    copy_values(frame->slots, rt_state.tail_args, fn->nparams);
    RtValue r = run(fn->body, frame);
    if (holes) r = loop_body_holes(rec, frame, r, holes);
    else if ((r = loop_body(rec, frame, r)).kind == RT_HOLE) return build_holes(rec, frame, r);
    if (r.kind != RT_TAIL) return r;
  }
}

/* The rest of a run of tail calls, from its first constructor (r, RT_HOLE) on: the value is that
 * constructor, its last field filled by the rest. Reached at most once per run, so the C stack
 * stays bounded: run_tail_calls with holes never comes back here. */
static RtValue __attribute__((noinline)) build_holes(RtCallRec *rec, RtFrame *frame, RtValue r) {
  Holes holes = {.first = {.kind = RT_ADT, .u.adt = r.u.adt}, .last = r.u.adt};
  r = loop_body_holes(rec, frame, (RtValue){.kind = RT_LOOP}, &holes);
  if (r.kind == RT_TAIL) r = run_tail_calls(rec, &holes);
  fill_hole(holes.last, r);
  return holes.first;
}

/* A body returned a sentinel (RT_LOOP, RT_TAIL or RT_HOLE): the tail calls it asks for, until a
 * value. They run in a record of their own above rec, the call that made them, which stays in the
 * chain (a tail call does not hide the user's call); the new record is marked as tail calls
 * (rt_call_up) unless rec is the top level's, which no call made. */
static RtValue __attribute__((noinline)) finish_tail_calls(RtCallRec *rec, RtFrame *frame, RtValue r) {
  RtCallRec tail = {rec->fn, rec->site, (RtCallRec *)((uintptr_t)rec | (rec->site != NULL))};
  rt_state.calls = &tail;
  r = loop_body(&tail, frame, r);
  if (__builtin_expect(r.kind >= RT_TAIL, 0))
    r = r.kind == RT_TAIL ? run_tail_calls(&tail, NULL) : build_holes(&tail, frame, r);
  rt_state.calls = rec;
  return r;
}

/* Runs the body of fn (not native) in a frame whose environment is set, whose slots already hold
 * the arguments and which has room for fn->nslots values. Inlined into the call nodes, so a Relay call costs one C frame
 * besides the body's nodes. One compare guards the call: the stack's limit, which Ctrl-C trips
 * (rt_interrupt), and one more tells a value from the tail-call sentinels (the last three kinds). */
static inline __attribute__((always_inline)) RtValue enter(const RtFn *fn, RtFrame *frame, const IrExpr *site) {
  RtCallRec rec = {fn, site, rt_state.calls};
  char probe;
  if (__builtin_expect((uintptr_t)&probe < rt_state.stack_limit, 0)) rt_check_stack(site);
#ifdef RELAY_WASM
  if (__builtin_expect(++rt_state.depth > RT_WASM_MAX_CALLS, 0)) rt_too_deep(site);
#endif
  rt_state.calls = &rec;
  RtValue r = run(fn->body, frame);
  if (__builtin_expect(r.kind >= RT_TAIL, 0)) r = finish_tail_calls(&rec, frame, r);
  rt_state.calls = rec.up;
#ifdef RELAY_WASM
  rt_state.depth--;
#endif
  return r;
}

/* ---------------------------------------------------------------- tracing */

/* The body of a traced function (trace.c swaps it in for the function's own, and back), so that
 * the calls of untraced functions pay nothing for :trace. It runs in the frame that the call made
 * (rt_state.calls is that call's record), shows the call, runs the real body and, unlike a body,
 * finishes the tail calls that the body returns (as finish_tail_calls does, in a record of their
 * own) to show the value: a tail call of the function itself (a loop, RT_LOOP or RT_HOLE) is
 * shown as a call at the same depth, marked as a tail call, and the value once, at the end; a
 * tail call of another function runs inside this one, one level deeper. The stack is checked as
 * enter checks it: two traced functions that tail-call each other nest here. */
static RtValue __attribute__((noinline)) traced_tail_calls(const CodeTraced *k, RtFrame *f, RtValue r, int depth) {
  RtCallRec *rec = rt_state.calls;
  RtCallRec tail = {rec->fn, rec->site, (RtCallRec *)((uintptr_t)rec | (rec->site != NULL))};
  rt_state.calls = &tail;
  Holes holes, *h = NULL;
  while (r.kind == RT_LOOP || r.kind == RT_HOLE) {
    if (r.kind == RT_HOLE && h) {
      fill_hole(h->last, (RtValue){.kind = RT_ADT, .u.adt = r.u.adt});
      h->last = r.u.adt;
    } else if (r.kind == RT_HOLE) {
      holes = (Holes){.first = {.kind = RT_ADT, .u.adt = r.u.adt}, .last = r.u.adt};
      h = &holes;
    }
    tail.site = rt_state.tail_site;
    rt_poll(tail.site);
    rt_trace_show_call(k, depth, f->slots, true);
    r = run(k->body, f);
  }
  if (r.kind == RT_TAIL) r = run_tail_calls(&tail, h);
  if (h) {
    fill_hole(h->last, r);
    r = h->first;
  }
  rt_state.calls = rec;
  return r;
}

RtValue rt_exec_traced(const RtCode *c, RtFrame *f) {
  const CodeTraced *k = (const CodeTraced *)c;
  char probe;
  if ((uintptr_t)&probe < rt_state.stack_limit) rt_check_stack(rt_state.calls->site);
  bool tail;
  rt_call_up(rt_state.calls, &tail);
  int depth = rt_state.trace_depth;
  rt_trace_show_call(k, depth, f->slots, tail);
  rt_state.trace_depth = depth + 1;
  RtValue r = run(k->body, f);
  if (r.kind >= RT_TAIL) r = traced_tail_calls(k, f, r, depth);
  rt_state.trace_depth = depth;
  rt_trace_show_value(k, depth, r);
  return r;
}

/* A native function (a constructor or an operator used as a value), with its call record. */
static RtValue call_native(const RtFn *fn, RtValue *args, const IrExpr *site) {
  RtCallRec rec = {fn, site, rt_state.calls};
  rt_state.calls = &rec;
  RtValue r = fn->native(fn, args, site);
  rt_state.calls = rec.up;
  return r;
}

static RtValue tail(const RtFn *fn, RtValue *env, const RtValue *args, int n, const IrExpr *site) {
  copy_values(rt_state.tail_args, args, n);
  rt_state.tail_fn = fn;
  rt_state.tail_env = env;
  rt_state.tail_site = site;
  return (RtValue){.kind = RT_TAIL};
}

/* Arguments are evaluated left to right into a local array before the call: evaluating one may
 * itself make (tail) calls that use the machine's buffer. */
#define EVAL_ARGS(k, f, argv)                                                                  \
  RtValue argv[(k)->n > 0 ? (k)->n : 1];                                                        \
  for (int i = 0; i < (k)->n; i++) argv[i] = run((k)->args[i], f)

/* A call of a Relay function: the arguments go straight into the callee's frame. */
#define CALL_IN_FRAME(k, f, fn, env_)                                                          \
  VARIABLE_FRAME(callee_frame, (fn)->nslots);                                                   \
  callee_frame->env = (env_);                                                                   \
  for (int i = 0; i < (k)->n; i++) callee_frame->slots[i] = run((k)->args[i], f);              \
  return enter(fn, callee_frame, (k)->h.expr)

RtValue rt_exec_call_global(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  CALL_IN_FRAME(k, f, k->fn, NULL);
}

/* Calls of a global of A = 1 to 4 parameters whose frame is S <= 6 slots: the arguments evaluated
 * straight into a frame of fixed size, without a loop or a frame size computed at run time. The
 * other slots are cleared: until a let or a pattern sets them they hold whatever an earlier call
 * left on the stack there, which the collector, scanning the stack conservatively, takes for live
 * pointers (binary-trees' peak memory was 31 MB instead of 24 with them left as they were). */
#define ARGS_1 slots[0] = run(k->args[0], f)
#define ARGS_2 ARGS_1, slots[1] = run(k->args[1], f)
#define ARGS_3 ARGS_2, slots[2] = run(k->args[2], f)
#define ARGS_4 ARGS_3, slots[3] = run(k->args[3], f)
#define CALL_GLOBAL_FIXED(A, S)                                                                 \
  static RtValue call_global_##A##_##S(const RtCode *c, RtFrame *f) {                           \
    const CodeCall *k = (const CodeCall *)c;                                                    \
    FIXED_FRAME(callee_frame, S);                                                               \
    RtValue *slots = callee_frame->slots;                                                       \
    callee_frame->env = NULL;                                                                   \
    ARGS_##A;                                                                                   \
    for (int i = A; i < S; i++) slots[i].u.i = 0;                                               \
    return enter(k->fn, callee_frame, c->expr);                                                 \
  }
#define CALL_GLOBAL_FIXED_UP_TO_6(A) /* frames of A to 6 slots */                               \
  CALL_GLOBAL_FIXED(A, 6) CALL_GLOBAL_FIXED(A, 5) CALL_GLOBAL_FIXED(A, 4)
CALL_GLOBAL_FIXED(1, 1)
CALL_GLOBAL_FIXED(1, 2)
CALL_GLOBAL_FIXED(1, 3)
CALL_GLOBAL_FIXED(2, 2)
CALL_GLOBAL_FIXED(2, 3)
CALL_GLOBAL_FIXED(3, 3)
CALL_GLOBAL_FIXED_UP_TO_6(1)
CALL_GLOBAL_FIXED_UP_TO_6(2)
CALL_GLOBAL_FIXED_UP_TO_6(3)
CALL_GLOBAL_FIXED_UP_TO_6(4)

RtRun rt_exec_call_global_fixed(int nargs, int nslots) {
  static const RtRun by_size[5][7] = {
      {NULL},
      {NULL, call_global_1_1, call_global_1_2, call_global_1_3, call_global_1_4, call_global_1_5, call_global_1_6},
      {NULL, NULL, call_global_2_2, call_global_2_3, call_global_2_4, call_global_2_5, call_global_2_6},
      {NULL, NULL, NULL, call_global_3_3, call_global_3_4, call_global_3_5, call_global_3_6},
      {NULL, NULL, NULL, NULL, call_global_4_4, call_global_4_5, call_global_4_6},
  };
  return nargs >= 1 && nargs <= 4 && nslots >= nargs && nslots <= 6 ? by_size[nargs][nslots] : NULL;
}

/* A tail call of the running function of 1 to 3 parameters: the arguments, all evaluated first,
 * replace the parameters (as rt_exec_tail_self, without the array). */
#define TAIL_SELF_FIXED(A, ...)                                                                 \
  static RtValue tail_self_##A(const RtCode *c, RtFrame *f) {                                   \
    const CodeCall *k = (const CodeCall *)c;                                                    \
    __VA_ARGS__;                                                                                \
    rt_state.tail_site = c->expr;                                                               \
    return (RtValue){.kind = RT_LOOP};                                                          \
  }
TAIL_SELF_FIXED(1, f->slots[0] = run(k->args[0], f))
TAIL_SELF_FIXED(2, RtValue a0 = run(k->args[0], f); RtValue a1 = run(k->args[1], f); f->slots[0] = a0; f->slots[1] = a1)
TAIL_SELF_FIXED(3, RtValue a0 = run(k->args[0], f); RtValue a1 = run(k->args[1], f); RtValue a2 = run(k->args[2], f);
                f->slots[0] = a0; f->slots[1] = a1; f->slots[2] = a2)

RtRun rt_exec_tail_self_fixed(int nargs) {
  static const RtRun by_arity[4] = {NULL, tail_self_1, tail_self_2, tail_self_3};
  return nargs >= 1 && nargs <= 3 ? by_arity[nargs] : NULL;
}

RtValue rt_exec_tail_global(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  EVAL_ARGS(k, f, argv);
  return tail(k->fn, NULL, argv, k->n, c->expr);
}

/* A tail call of the function running: its arguments replace the parameters in the frame, and
 * the body runs again (loop_body). They are all evaluated before any parameter is replaced. */
RtValue rt_exec_tail_self(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  EVAL_ARGS(k, f, argv);
  copy_values(f->slots, argv, k->n);
  rt_state.tail_site = c->expr;
  return (RtValue){.kind = RT_LOOP};
}

static RtClosure *callee(const CodeCall *k, RtFrame *f) {
  RtValue v = run(k->callee, f);
  if (v.kind != RT_CLOSURE) rt_error(k->h.expr, "internal error: calling a value that is not a function");
  return v.u.clo;
}

RtValue rt_exec_call_closure(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  RtClosure *clo = callee(k, f);
  const RtFn *fn = clo->fn;
  if (fn->native) {
    EVAL_ARGS(k, f, argv);
    return call_native(fn, argv, c->expr);
  }
  CALL_IN_FRAME(k, f, fn, clo->env);
}

/* A call of the closure clo (already evaluated: k's callee) whose frame is larger than 4 slots. */
static RtValue __attribute__((noinline)) call_large_closure(const CodeCall *k, RtFrame *f, RtClosure *clo) {
  CALL_IN_FRAME(k, f, clo->fn, clo->env);
}

/* Calls of a closure of 1 to 3 arguments: the arguments straight into the callee's frame, without
 * a loop; a frame of at most 4 slots is a fixed array, its other slots cleared (see
 * CALL_GLOBAL_FIXED), a larger one is made out of line (no array sized at run time here, which
 * costs every call a frame pointer and more saved registers). */
#define CALL_CLOSURE_FIXED(A)                                                                   \
  static RtValue call_closure_##A(const RtCode *c, RtFrame *f) {                                \
    const CodeCall *k = (const CodeCall *)c;                                                    \
    RtClosure *clo = callee(k, f);                                                              \
    const RtFn *fn = clo->fn;                                                                   \
    if (__builtin_expect(fn->native != NULL, 0)) {                                              \
      RtValue slots[A];                                                                         \
      ARGS_##A;                                                                                 \
      return call_native(fn, slots, c->expr);                                                   \
    }                                                                                           \
    if (__builtin_expect(fn->nslots > 4, 0)) return call_large_closure(k, f, clo);             \
    FIXED_FRAME(callee_frame, 4);                                                               \
    RtValue *slots = callee_frame->slots;                                                       \
    callee_frame->env = clo->env;                                                               \
    ARGS_##A;                                                                                   \
    for (int i = A; i < 4; i++) slots[i].u.i = 0;                                               \
    return enter(fn, callee_frame, c->expr);                                                    \
  }
CALL_CLOSURE_FIXED(1)
CALL_CLOSURE_FIXED(2)
CALL_CLOSURE_FIXED(3)

RtRun rt_exec_call_closure_fixed(int nargs) {
  static const RtRun by_arity[4] = {NULL, call_closure_1, call_closure_2, call_closure_3};
  return nargs >= 1 && nargs <= 3 ? by_arity[nargs] : NULL;
}

RtValue rt_exec_tail_closure(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  RtClosure *clo = callee(k, f);
  EVAL_ARGS(k, f, argv);
  if (clo->fn->native) return clo->fn->native(clo->fn, argv, c->expr);
  return tail(clo->fn, clo->env, argv, k->n, c->expr);
}

/* A constructor value with its fields zero, to be set. */
static RtAdt *new_adt(const RtCtor *l) {
  RtAdt *a = l->granules ? rt_alloc_small(l->granules) : rt_alloc(sizeof(RtAdt) + l->bytes);
  a->ctor = l;
  return a;
}

/* The value is allocated first and the arguments evaluated into it: no copy, and no array of
 * them on the stack while a deep recursion runs in one (the `@map(...)` of Cons(%f(%h), @map(...))).
 * The collector sees the half-built value from this frame; its unset fields are zero. */
#define CTOR_BODY(N)                                                                            \
  const CodeCall *k = (const CodeCall *)c;                                                      \
  const RtCtor *l = k->ctor;                                                                    \
  rt_state.at = c->expr;                                                                        \
  RtAdt *a = new_adt(l);                                                                        \
  for (int i = 0; i < (N); i++) rt_field_set(a, l->fields[i], run(k->args[i], f));             \
  return (RtValue){.kind = RT_ADT, .u.adt = a}

RtValue rt_exec_ctor(const RtCode *c, RtFrame *f) { CTOR_BODY(k->n); }

/* A constructor in tail position whose last field is a tail call of the function running
 * (`Cons(%f(%h), @map(%f, %t))`), as OCaml's tail modulo constructor: the other fields set, the
 * last argument node (the tail call's) puts the call's arguments in the frame, and the value is
 * returned as RT_HOLE, its last field unset. The nearest call loops on it (loop_body) and fills
 * the field with what the next iteration gives, so such a recursion runs in constant stack. */
RtValue rt_exec_ctor_hole(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  const RtCtor *l = k->ctor;
  rt_state.at = c->expr;
  RtAdt *a = new_adt(l);
  for (int i = 0; i < k->n - 1; i++) rt_field_set(a, l->fields[i], run(k->args[i], f));
  RtValue loop = run(k->args[k->n - 1], f);
  ASSERT(loop.kind == RT_LOOP);
  (void)loop;
  return (RtValue){.kind = RT_HOLE, .u.adt = a};
}

/* The same for a constructor of A = 1 to 3 fields: the loop unrolled. */
#define CTOR_FIXED(A)                                                                           \
  static RtValue ctor_##A(const RtCode *c, RtFrame *f) { CTOR_BODY(A); }
CTOR_FIXED(1)
CTOR_FIXED(2)
CTOR_FIXED(3)

RtRun rt_exec_ctor_fixed(int nargs) {
  static const RtRun by_arity[4] = {NULL, ctor_1, ctor_2, ctor_3};
  return nargs >= 1 && nargs <= 3 ? by_arity[nargs] : NULL;
}

RtValue rt_exec_op(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  EVAL_ARGS(k, f, argv);
  rt_state.at = c->expr;
  return rt_kernel_call(k->op, argv, k->n, &k->site);
}

RtValue rt_exec_native_ctor(const RtFn *fn, RtValue *args, const IrExpr *site) {
  (void)site;
  const RtCtor *l = fn->native_data;
  RtAdt *a = new_adt(l);
  for (int i = 0; i < l->nargs; i++) rt_field_set(a, l->fields[i], args[i]);
  return (RtValue){.kind = RT_ADT, .u.adt = a};
}

/* An operator used as a value (`@foldl(add, ...)`), called at `site` (a call of a function value,
 * not of the operator): no attributes, and no type to check its result against. */
RtValue rt_exec_native_op(const RtFn *fn, RtValue *args, const IrExpr *site) {
  RtSite s = {.expr = site, .attrs = &ir_op_attrs_none, .type = NULL};
  return rt_kernel_call((IrOpId)(intptr_t)fn->native_data, args, fn->nparams, &s);
}

/* ---------------------------------------------------------------- values and variables */

RtValue rt_exec_const(const RtCode *c, RtFrame *f) {
  (void)f;
  return ((const CodeConst *)c)->v;
}

static RtValue tensor_literal(const IrExpr *e, IrDType dt) {
  RtTensor *x = rt_tensor_new(dt, e->u.tensor.rank, e->u.tensor.shape);
  for (int64_t i = 0; i < x->count; i++) rt_tensor_set(x, i, rt_scalar_from_lit(&e->u.tensor.elems[i], dt));
  return (RtValue){.kind = RT_TENSOR, .u.t = x};
}

RtValue rt_exec_tensor_literal(const RtCode *c, RtFrame *f) {
  (void)f;
  CodeLazy *k = (CodeLazy *)c;
  if (!k->built) {
    rt_state.at = c->expr;
    k->v = tensor_literal(c->expr, k->dt);
    k->built = true;
  }
  return k->v;
}

RtValue rt_exec_fill(const RtCode *c, RtFrame *f) {
  (void)f;
  CodeLazy *k = (CodeLazy *)c;
  if (!k->built) {
    const IrExpr *e = c->expr;
    rt_state.at = e;
    IrDType dt = e->u.fill.dtype;
    k->v = rt_tensor_fill(rt_scalar_from_lit(&e->u.fill.value, dt), dt, e->u.fill.rank, e->u.fill.shape);
    k->built = true;
  }
  return k->v;
}

RtValue rt_exec_meta(const RtCode *c, RtFrame *f) {
  (void)f;
  CodeLazy *k = (CodeLazy *)c;
  if (!k->built) {
    const IrMetaTensor *m = &c->expr->u.meta.entry->tensor; /* the checker made sure it is one */
    RtTensor *t = rt_alloc(sizeof(RtTensor) + sizeof(int64_t) * (size_t)m->rank);
    t->dt = m->dtype;
    t->rank = m->rank;
    t->count = m->count;
    t->data = (void *)m->data;
    ir_copy(t->shape, m->shape, sizeof(int64_t) * (size_t)m->rank);
    k->v = m->rank ? (RtValue){.kind = RT_TENSOR, .u.t = t} : rt_tensor_get(t, 0); /* a scalar is immediate */
    k->built = true;
  }
  return k->v;
}

RtValue rt_exec_free(const RtCode *c, RtFrame *f) {
  (void)f;
  rt_error(c->expr, "`%%%s` is a free variable (`free_var`): nothing gives it a value, so this expression cannot run",
           c->expr->u.name->name);
}

RtValue rt_exec_slot(const RtCode *c, RtFrame *f) { return f->slots[((const CodeVar *)c)->index]; }
RtValue rt_exec_env(const RtCode *c, RtFrame *f) { return f->env[((const CodeVar *)c)->index]; }

RtValue rt_exec_binding(const RtCode *c, RtFrame *f) {
  (void)f;
  return ((const CodeBinding *)c)->binding->value;
}

RtValue rt_exec_let(const RtCode *c, RtFrame *f) {
  const CodeLet *k = (const CodeLet *)c;
  for (int i = 0; i < k->n; i++) f->slots[k->slots[i]] = run(k->values[i], f);
  return run(k->body, f);
}

RtValue rt_exec_tuple(const RtCode *c, RtFrame *f) {
  const CodeList *k = (const CodeList *)c;
  RtValue items[k->n > 0 ? k->n : 1];
  for (int i = 0; i < k->n; i++) items[i] = run(k->items[i], f);
  rt_state.at = c->expr;
  return rt_tuple_value(k->n, items);
}

RtValue rt_exec_proj(const RtCode *c, RtFrame *f) {
  const CodePair *k = (const CodePair *)c;
  return run(k->a, f).u.tup->f[k->index];
}

RtValue rt_exec_closure(const RtCode *c, RtFrame *f) {
  const CodeClosure *k = (const CodeClosure *)c;
  rt_state.at = c->expr;
  RtClosure *clo = rt_alloc(sizeof(RtClosure) + sizeof(RtValue) * (size_t)k->ncaps);
  clo->fn = k->fn;
  for (int i = 0; i < k->ncaps; i++)
    clo->env[i] = k->caps[i].captured ? f->env[k->caps[i].index] : f->slots[k->caps[i].index];
  RtValue v = {.kind = RT_CLOSURE, .u.clo = clo};
  if (k->self >= 0) clo->env[k->self] = v;
  return v;
}

RtValue rt_exec_ref(const RtCode *c, RtFrame *f) {
  const CodePair *k = (const CodePair *)c;
  RtValue v = run(k->a, f);
  rt_state.at = c->expr;
  RtRef *r = rt_alloc(sizeof(RtRef));
  r->v = v;
  return (RtValue){.kind = RT_REF, .u.ref = r};
}

RtValue rt_exec_ref_read(const RtCode *c, RtFrame *f) {
  const CodePair *k = (const CodePair *)c;
  return run(k->a, f).u.ref->v;
}

RtValue rt_exec_ref_write(const RtCode *c, RtFrame *f) {
  const CodePair *k = (const CodePair *)c;
  RtRef *r = run(k->a, f).u.ref;
  r->v = run(k->b, f);
  return rt_unit();
}

/* ---------------------------------------------------------------- `?` dimensions */

/* A function value wrapped where it arrived at a function type that says more than its own
 * (IrTCheck.have): each call checks the arguments against the function's own parameter types and
 * the result against the place's result type, with the shape variables as they were there. */
typedef struct {
  RtValue inner;
  const IrType *have, *want;
  RtDims dims; /* the shape variables' values where it was wrapped */
  const IrExpr *at;
} Proxy;

static RtDims copy_dims(const RtDims *d) {
  RtDims c = {d->n, d->n > 0 ? d->n : 1, rt_alloc(sizeof(RtDimVal) * (size_t)(d->n > 0 ? d->n : 1))};
  if (d->n) memcpy(c.v, d->v, sizeof(RtDimVal) * (size_t)d->n);
  return c;
}

static RtValue apply(RtValue clo, RtValue *args, int n, const IrExpr *site) {
  const RtFn *fn = clo.u.clo->fn;
  if (fn->native) return call_native(fn, args, site);
  VARIABLE_FRAME(frame, fn->nslots);
  frame->env = clo.u.clo->env;
  copy_values(frame->slots, args, n);
  for (int i = n; i < fn->nslots; i++) frame->slots[i].u.i = 0;
  return enter(fn, frame, site);
}

static const char *nth_argument(int i) {
  static const char *const nth[] = {"the first argument", "the second argument", "the third argument",
                                    "the fourth argument", "the fifth argument", "the sixth argument",
                                    "the seventh argument", "the eighth argument"};
  return i < 8 ? nth[i] : ir_printf("argument %d", i + 1);
}

/* The shape variables' values a proxy keeps, for one check (a check may learn more). */
#define PROXY_DIMS(name, p)                                                                     \
  RtDimVal name##_room[8];                                                                      \
  RtDims name = (p)->dims.n <= 8 ? (RtDims){(p)->dims.n, 8, name##_room} : copy_dims(&(p)->dims); \
  if ((p)->dims.n <= 8 && (p)->dims.n) memcpy(name##_room, (p)->dims.v, sizeof(RtDimVal) * (size_t)(p)->dims.n)

/* A proxy's check of v against t failed: the message, made again with the function named. */
static _Noreturn void proxy_error(const Proxy *p, RtValue v, const IrType *t, const char *what, const IrExpr *site) {
  PROXY_DIMS(d, p);
  const char *why = "";
  rt_conform(v, t, &d, ir_printf("%s of the function given at line %d", what, p->at ? p->at->span.line : 0), &why);
  rt_error(site, "a size known only at run time does not fit its place: %s", why);
}

static RtValue wrap_functions(RtValue v, const IrType *have, const IrType *want, const RtDims *d, const IrExpr *at);

/* A call of a proxy: each argument checked against the function's own parameter type (a function
 * in it wrapped, so that it is checked in turn), the call, and the result against the place's. */
static RtValue run_proxy(const RtFn *fn, RtValue *args, const IrExpr *site) {
  const Proxy *p = fn->native_data;
  const char *why;
  for (int i = 0; i < fn->nparams; i++) {
    PROXY_DIMS(d, p);
    if (!rt_conform(args[i], p->have->u.func.args[i], &d, "", &why))
      proxy_error(p, args[i], p->have->u.func.args[i], nth_argument(i), site);
    args[i] = wrap_functions(args[i], p->want->u.func.args[i], p->have->u.func.args[i], &d, site);
  }
  RtValue r = apply(p->inner, args, fn->nparams, site);
  PROXY_DIMS(d, p);
  if (!rt_conform(r, p->want->u.func.ret, &d, "", &why)) proxy_error(p, r, p->want->u.func.ret, "the result", site);
  return wrap_functions(r, p->have->u.func.ret, p->want->u.func.ret, &d, site);
}

/* A closure of a native function made at run time (a proxy), named as the function it stands for;
 * *made its RtFn, if wanted. */
static RtValue native_closure(const char *name, int nparams, RtValue (*native)(const RtFn *, RtValue *, const IrExpr *),
                              const void *data, RtFn **made) {
  RtFn *fn = rt_alloc(sizeof(RtFn));
  *fn = (RtFn){.name = name, .nparams = nparams, .native = native, .native_data = data};
  RtClosure *clo = rt_alloc(sizeof(RtClosure));
  clo->fn = fn;
  if (made) *made = fn;
  return (RtValue){.kind = RT_CLOSURE, .u.clo = clo};
}

/* v, a function, wrapped so that each call is checked (Proxy). */
static RtValue wrap(RtValue v, const IrType *have, const IrType *want, const RtDims *d, const IrExpr *at) {
  Proxy *p = rt_alloc(sizeof(Proxy));
  *p = (Proxy){v, have, want, copy_dims(d), at};
  return native_closure(v.u.clo->fn->name, want->u.func.nargs, run_proxy, p, NULL);
}

/* v, of type `have`, arriving at a place of type `want`: its functions wrapped (Proxy), on their
 * own or in tuples (a tuple made anew when one of its fields is). A function inside a data type's
 * value or a reference is not reached: the checker refuses a place that would need it. */
static RtValue wrap_functions(RtValue v, const IrType *have, const IrType *want, const RtDims *d, const IrExpr *at) {
  if (!have || !want || have->kind != want->kind) return v;
  if (want->kind == IR_TYPE_FUNC) {
    bool plain = !have->u.func.ntparams && !want->u.func.ntparams && have->u.func.nargs == want->u.func.nargs;
    return plain && v.kind == RT_CLOSURE ? wrap(v, have, want, d, at) : v;
  }
  if (want->kind != IR_TYPE_TUPLE || v.kind != RT_TUPLE || v.u.tup->n != want->u.tuple.n ||
      have->u.tuple.n != want->u.tuple.n)
    return v;
  RtValue *fields = NULL;
  for (int i = 0; i < want->u.tuple.n; i++) {
    RtValue old = v.u.tup->f[i];
    RtValue f = wrap_functions(old, have->u.tuple.fields[i], want->u.tuple.fields[i], d, at);
    bool changed = f.kind == RT_CLOSURE ? f.u.clo != old.u.clo : f.kind == RT_TUPLE && f.u.tup != old.u.tup;
    if (!changed) continue;
    if (!fields) {
      fields = rt_alloc(sizeof(RtValue) * (size_t)want->u.tuple.n);
      memcpy(fields, v.u.tup->f, sizeof(RtValue) * (size_t)want->u.tuple.n);
    }
    fields[i] = f;
  }
  return fields ? rt_tuple_value(want->u.tuple.n, fields) : v;
}

/* Value v, arriving at `at`, checked against ck (the shape variables read from the parameters);
 * its functions are wrapped (Proxy). */
static RtValue check_value(const IrTCheck *ck, RtValue v, RtFrame *f, const IrExpr *at) {
  RtDimVal room[4];
  RtDims d = {0, 4, room};
  for (int i = 0; i < ck->nsources; i++) {
    const IrTDimSource *s = &ck->sources[i];
    if (s->param.index < 0) continue; /* not told by a parameter: learnt from the value */
    RtValue p = s->param.captured ? f->env[s->param.index] : f->slots[s->param.index];
    for (int j = 0; j < s->npath && p.kind == RT_TUPLE; j++) p = p.u.tup->f[s->path[j]];
    int rank = p.kind == RT_TENSOR ? p.u.t->rank : 0;
    if (s->axis < 0) rt_dims_bind_shape(&d, s->var, rank, rank ? p.u.t->shape : NULL, s->what);
    else if (s->axis < rank) rt_dims_bind(&d, s->var, p.u.t->shape[s->axis], s->what);
  }
  const char *why;
  if (!rt_conform(v, ck->want, &d, ck->subject ? ck->subject : "the value", &why))
    rt_error(at, "a size known only at run time does not fit its place: %s", why);
  return ck->have ? wrap_functions(v, ck->have, ck->want, &d, at) : v;
}

RtValue rt_exec_shape_check(const RtCode *c, RtFrame *f) {
  const CodeShapeCheck *k = (const CodeShapeCheck *)c;
  RtValue v = run(k->inner, f);
  return check_value(k->check, v, f, c->expr);
}

/* The arguments of a checked entry against its parameters' types, sharing their shape variables;
 * a failure is the error of the call at `site`. A function argument (or one in a tuple) is
 * wrapped, so that each of its calls is checked with the sizes the others gave. */
static void check_arguments(const CodeEntryCheck *k, RtValue *args, int n, const IrExpr *site) {
  RtDimVal room[4];
  RtDims d = {0, 4, room};
  const char *why;
  bool functions = false;
  for (int i = 0; i < n; i++) {
    int before = d.n;
    const char *subject = nth_argument(i);
    if (!rt_conform(args[i], k->params[i], &d, subject, &why))
      rt_error(site, "the arguments of `%s` do not agree on the sizes its type shares: %s", k->fn->name, why);
    for (int j = before; j < d.n; j++) d.v[j].from = ir_printf("from %s", subject);
    functions |= k->params[i]->kind == IR_TYPE_FUNC || k->params[i]->kind == IR_TYPE_TUPLE;
  }
  for (int i = 0; functions && i < n; i++) args[i] = wrap_functions(args[i], k->params[i], k->params[i], &d, site);
}

/* A definition's checked entry (compile.c, checked_entry): a function of its own, called with the
 * definition's arguments in its frame; once they pass, a tail call of the definition, so that the
 * definition's own loops run without the check. */
RtValue rt_exec_entry_check(const RtCode *c, RtFrame *f) {
  const CodeEntryCheck *k = (const CodeEntryCheck *)c;
  const IrExpr *site = rt_state.calls && rt_state.calls->site ? rt_state.calls->site : c->expr;
  int n = k->fn->nparams;
  check_arguments(k, f->slots, n, site);
  if (n <= RT_MAX_TAIL_ARGS) return tail(k->fn, NULL, f->slots, n, site);
  VARIABLE_FRAME(frame, k->fn->nslots);
  frame->env = NULL;
  copy_values(frame->slots, f->slots, n);
  return enter(k->fn, frame, site);
}

/* A checked entry made at run time (CodeEntryWrap): the function value, and its parameters'
 * types with the entry itself for messages. */
typedef struct {
  RtValue inner;
  CodeEntryCheck k;
} EntryProxy;

static RtValue run_entry_proxy(const RtFn *fn, RtValue *args, const IrExpr *site) {
  const EntryProxy *p = fn->native_data;
  check_arguments(&p->k, args, fn->nparams, site);
  return apply(p->inner, args, fn->nparams, site);
}

RtValue rt_exec_entry_wrap(const RtCode *c, RtFrame *f) {
  const CodeEntryWrap *k = (const CodeEntryWrap *)c;
  RtValue v = run(k->inner, f);
  if (v.kind != RT_CLOSURE) return v;
  EntryProxy *p = rt_alloc(sizeof *p);
  RtFn *fn;
  RtValue entry = native_closure(v.u.clo->fn->name, v.u.clo->fn->nparams, run_entry_proxy, p, &fn);
  *p = (EntryProxy){v, {.fn = fn, .params = k->params}};
  return entry;
}

/* A constructor's checked entry: its arguments checked, then the value built. */
RtValue rt_exec_native_entry_check(const RtFn *fn, RtValue *args, const IrExpr *site) {
  const CodeEntryCheck *k = fn->native_data;
  check_arguments(k, args, k->ctor->nargs, site);
  RtAdt *a = new_adt(k->ctor);
  for (int i = 0; i < k->ctor->nargs; i++) rt_field_set(a, k->ctor->fields[i], args[i]);
  return (RtValue){.kind = RT_ADT, .u.adt = a};
}

/* ---------------------------------------------------------------- control */

RtValue rt_exec_if(const RtCode *c, RtFrame *f) {
  const CodeIf *k = (const CodeIf *)c;
  return run(k->cond, f).u.u ? run(k->then, f) : run(k->els, f);
}

static bool match(const CodePat *p, RtValue v, RtFrame *f) {
  switch (p->kind) {
  case PAT_WILD: return true;
  case PAT_VAR:
    if (p->check) v = check_value(p->check, v, f, p->at);
    f->slots[p->slot] = v;
    return true;
  case PAT_CTOR:
    if (v.u.adt->ctor->tag != p->tag) return false;
    for (int i = 0; i < p->n; i++)
      if (!match(p->args[i], rt_field_get(v.u.adt, p->fields[i]), f)) return false;
    return true;
  case PAT_TUPLE:
    for (int i = 0; i < p->n; i++)
      if (!match(p->args[i], v.u.tup->f[i], f)) return false;
    return true;
  }
  UNREACHABLE("a pattern of no kind");
  return false;
}

static _Noreturn void no_clause(const CodeMatch *k, RtValue v) {
  if (k->owner) rt_error(k->h.expr, "no clause of this match in %s accepts %s", k->owner, rt_value_brief(v));
  rt_error(k->h.expr, "no clause of this match accepts %s", rt_value_brief(v));
}

RtValue rt_exec_match(const RtCode *c, RtFrame *f) {
  const CodeMatch *k = (const CodeMatch *)c;
  RtValue v = run(k->scrut, f);
  int i = 0;
  if (k->first && v.kind == RT_ADT) {
    ASSERT(v.u.adt->ctor->tag >= 0 && v.u.adt->ctor->tag < v.u.adt->ctor->src->adt->nctors);
    i = k->first[v.u.adt->ctor->tag];
  }
  for (; i < k->nclauses; i++) {
    const CodePat *p = k->pats[i];
    if (p->flat) { /* the common case, bound here without recursion */
      const RtAdt *a = v.u.adt;
      if (a->ctor->tag != p->tag) continue;
      for (int j = 0; j < p->n; j++)
        if (p->args[j]->kind == PAT_VAR) f->slots[p->args[j]->slot] = rt_field_get(a, p->fields[j]);
      return run(k->bodies[i], f);
    }
    if (match(p, v, f)) return run(k->bodies[i], f);
  }
  no_clause(k, v);
}

RtValue rt_exec_match_tag(const RtCode *c, RtFrame *f) {
  const CodeMatchTag *k = (const CodeMatchTag *)c;
  RtValue v = run(k->m.scrut, f);
  ASSERT(v.kind == RT_ADT); /* the checker gave the scrutinee a data type */
  const RtAdt *a = v.u.adt;
  const TagCase *tc = &k->cases[a->ctor->tag];
  if (__builtin_expect(!tc->body, 0)) no_clause(&k->m, v);
  switch (tc->nbind) { /* a constructor's fields, most often two (Cons, Node): unrolled */
  case 2: f->slots[tc->slots[1]] = rt_field_get(a, tc->fields[1]); /* fall through */
  case 1: f->slots[tc->slots[0]] = rt_field_get(a, tc->fields[0]); /* fall through */
  case 0: break;
  default:
    for (int j = 0; j < tc->nbind; j++) f->slots[tc->slots[j]] = rt_field_get(a, tc->fields[j]);
  }
  if (tc->whole >= 0) f->slots[tc->whole] = v;
  return run(tc->body, f);
}

/* ---------------------------------------------------------------- scalar arithmetic */

/* Binary operators on scalars of one dtype, without dispatch or allocation. Integers wrap;
 * integer division truncates toward zero and fails on zero. Each operator comes in four forms by
 * its operands (OperandForm): a leaf form reads its slot or constant directly and calls nothing,
 * so it needs no registers saved. */
#define OPERANDS_NN                                                                            \
  const CodePair *k = (const CodePair *)c;                                                     \
  RtValue va = run(k->a, f), vb = run(k->b, f)
#define OPERANDS_SC                                                                            \
  const CodeScalarOperands *k = (const CodeScalarOperands *)c;                                 \
  RtValue va = f->slots[k->a], vb = k->k
#define OPERANDS_SS                                                                            \
  const CodeScalarOperands *k = (const CodeScalarOperands *)c;                                 \
  RtValue va = f->slots[k->a], vb = f->slots[k->b]
#define OPERANDS_NC                                                                            \
  const CodeScalarOperands *k = (const CodeScalarOperands *)c;                                 \
  RtValue va = run(k->node, f), vb = k->k

#define SCALAR_FORMS(NAME, FIELD, T, RESULT)                                                   \
  SCALAR_FORM(NAME##_nn, OPERANDS_NN, FIELD, T, RESULT)                                        \
  SCALAR_FORM(NAME##_sc, OPERANDS_SC, FIELD, T, RESULT)                                        \
  SCALAR_FORM(NAME##_ss, OPERANDS_SS, FIELD, T, RESULT)                                        \
  SCALAR_FORM(NAME##_nc, OPERANDS_NC, FIELD, T, RESULT)

#define SCALAR_FORM(NAME, OPERANDS, FIELD, T, RESULT)                                          \
  static RtValue NAME(const RtCode *c, RtFrame *f) {                                           \
    OPERANDS;                                                                                  \
    T x = (T)va.u.FIELD;                                                                       \
    T y = (T)vb.u.FIELD;                                                                       \
    return RESULT;                                                                             \
  }

#define SCALAR_BINARY(NAME, FIELD, T, DT, EXPR)                                                \
  SCALAR_FORMS(NAME, FIELD, T, ((RtValue){.kind = RT_SCALAR, .dt = DT, .u.FIELD = (EXPR)}))

/* A comparison as a value, and fused with the `if` it decides (a CodeBranch): `if (%n < 2)` tests
 * the slot against the constant and runs a branch, with no boolean made in between. */
#define SCALAR_COMPARE(NAME, FIELD, T, EXPR)                                                   \
  SCALAR_FORMS(NAME, FIELD, T, rt_bool(EXPR))                                                  \
  BRANCH_FORM(NAME##_br_nn, va = run(k->ops.node, f), vb = run(k->right, f), FIELD, T, EXPR)    \
  BRANCH_FORM(NAME##_br_sc, va = f->slots[k->ops.a], vb = k->ops.k, FIELD, T, EXPR)             \
  BRANCH_FORM(NAME##_br_ss, va = f->slots[k->ops.a], vb = f->slots[k->ops.b], FIELD, T, EXPR)   \
  BRANCH_FORM(NAME##_br_nc, va = run(k->ops.node, f), vb = k->ops.k, FIELD, T, EXPR)

#define BRANCH_FORM(NAME, READ_A, READ_B, FIELD, T, EXPR)                                       \
  static RtValue NAME(const RtCode *c, RtFrame *f) {                                           \
    const CodeBranch *k = (const CodeBranch *)c;                                               \
    RtValue va, vb;                                                                            \
    READ_A;                                                                                    \
    READ_B;                                                                                    \
    T x = (T)va.u.FIELD;                                                                       \
    T y = (T)vb.u.FIELD;                                                                       \
    return (EXPR) ? run(k->then, f) : run(k->els, f);                                          \
  }

static _Noreturn void div_by_zero(const RtCode *c) { rt_error(c->expr, "integer division by zero"); }

static inline int64_t idiv(const RtCode *c, int64_t x, int64_t y, bool mod) {
  if (y == 0) div_by_zero(c);
  if (y == -1) return mod ? 0 : (int64_t)(0 - (uint64_t)x);
  return mod ? x % y : x / y;
}

#define COMPARE_OPS(P, F, T)                                                                   \
  SCALAR_COMPARE(P##_eq, F, T, x == y)                                                         \
  SCALAR_COMPARE(P##_ne, F, T, x != y)                                                         \
  SCALAR_COMPARE(P##_lt, F, T, x < y)                                                          \
  SCALAR_COMPARE(P##_le, F, T, x <= y)                                                         \
  SCALAR_COMPARE(P##_gt, F, T, x > y)                                                          \
  SCALAR_COMPARE(P##_ge, F, T, x >= y)

#define INT_OPS(P, T, DT)                                                                      \
  SCALAR_BINARY(P##_add, i, T, DT, (T)((uint64_t)x + (uint64_t)y))                             \
  SCALAR_BINARY(P##_sub, i, T, DT, (T)((uint64_t)x - (uint64_t)y))                             \
  SCALAR_BINARY(P##_mul, i, T, DT, (T)((uint64_t)x * (uint64_t)y))                             \
  SCALAR_BINARY(P##_div, i, T, DT, (T)idiv(c, x, y, false))                                    \
  SCALAR_BINARY(P##_mod, i, T, DT, (T)idiv(c, x, y, true))                                     \
  COMPARE_OPS(P, i, T)

#define FLOAT_OPS(P, F, T, DT)                                                                 \
  SCALAR_BINARY(P##_add, F, T, DT, x + y)                                                      \
  SCALAR_BINARY(P##_sub, F, T, DT, x - y)                                                      \
  SCALAR_BINARY(P##_mul, F, T, DT, x * y)                                                      \
  SCALAR_BINARY(P##_div, F, T, DT, x / y)                                                      \
  COMPARE_OPS(P, F, T)

INT_OPS(i32, int32_t, IR_DTYPE(IR_DT_INT, 32))
INT_OPS(i64, int64_t, IR_DTYPE(IR_DT_INT, 64))
FLOAT_OPS(f32, f32, float, IR_DTYPE(IR_DT_FLOAT, 32))
FLOAT_OPS(f64, f64, double, IR_DTYPE(IR_DT_FLOAT, 64))

#define BOOL_OPS(P)                                                                            \
  SCALAR_COMPARE(P##_xor, u, bool, x != y)                                                     \
  SCALAR_COMPARE(P##_eq, u, bool, x == y)

BOOL_OPS(b1)

/* The four forms of an operator, indexed by OperandForm: as a value, and fused with an `if`. */
#define FORMS(NAME) return (RtRun[]){NAME##_nn, NAME##_sc, NAME##_ss, NAME##_nc}[form]
#define BRANCH_FORMS(NAME) return (RtRun[]){NAME##_br_nn, NAME##_br_sc, NAME##_br_ss, NAME##_br_nc}[form]

/* The cases of a switch on op, for the dtype prefix P, returning through F (FORMS or BRANCH_FORMS). */
#define COMPARE_CASES(F, P)                                                                    \
  case IR_OP_EQUAL: F(P##_eq);                                                                 \
  case IR_OP_NOT_EQUAL: F(P##_ne);                                                             \
  case IR_OP_LESS: F(P##_lt);                                                                  \
  case IR_OP_LESS_EQUAL: F(P##_le);                                                            \
  case IR_OP_GREATER: F(P##_gt);                                                               \
  case IR_OP_GREATER_EQUAL: F(P##_ge);
#define ARITH_CASES(P)                                                                         \
  case IR_OP_ADD: FORMS(P##_add);                                                              \
  case IR_OP_SUBTRACT: FORMS(P##_sub);                                                         \
  case IR_OP_MULTIPLY: FORMS(P##_mul);                                                         \
  case IR_OP_DIVIDE: FORMS(P##_div);
#define INT_VALUE_CASES(P) ARITH_CASES(P) case IR_OP_MOD: FORMS(P##_mod); COMPARE_CASES(FORMS, P)
#define FLOAT_VALUE_CASES(P) ARITH_CASES(P) COMPARE_CASES(FORMS, P)
#define BRANCH_CASES(P) COMPARE_CASES(BRANCH_FORMS, P)
/* `&&` and `||` are not here: they stop early, so compile.c makes them `if`s. */
#define BOOL_CASES(F)                                                                          \
  case IR_OP_LOGICAL_XOR:                                                                      \
  case IR_OP_NOT_EQUAL: F(b1_xor);                                                             \
  case IR_OP_EQUAL: F(b1_eq);

/* The run function for op on scalars of dt, by dtype: INT(P) and FLOAT(P) give a dtype's cases. */
#define BY_DTYPE(INT, FLOAT, BOOL_F)                                                           \
  if (dt.lanes != 1) return NULL;                                                              \
  switch (dt.code == IR_DT_INT && dt.bits == 32     ? 0                                        \
          : dt.code == IR_DT_INT && dt.bits == 64   ? 1                                        \
          : dt.code == IR_DT_FLOAT && dt.bits == 32 ? 2                                        \
          : dt.code == IR_DT_FLOAT && dt.bits == 64 ? 3                                        \
          : dt.code == IR_DT_BOOL                   ? 4                                        \
                                                    : 5) {                                     \
  case 0: switch (op) { INT(i32) default: return NULL; }                                       \
  case 1: switch (op) { INT(i64) default: return NULL; }                                       \
  case 2: switch (op) { FLOAT(f32) default: return NULL; }                                     \
  case 3: switch (op) { FLOAT(f64) default: return NULL; }                                     \
  case 4: switch (op) { BOOL_CASES(BOOL_F) default: return NULL; }                             \
  default: return NULL;                                                                        \
  }

RtRun rt_exec_scalar_binary(IrOpId op, IrDType dt, OperandForm form) { BY_DTYPE(INT_VALUE_CASES, FLOAT_VALUE_CASES, FORMS) }

RtRun rt_exec_scalar_branch(IrOpId op, IrDType dt, OperandForm form) { BY_DTYPE(BRANCH_CASES, BRANCH_CASES, BRANCH_FORMS) }

/* ---------------------------------------------------------------- entry points */

typedef struct {
  const RtFn *fn;
  RtValue result;
} Job;

static void run_job(void *p) {
  Job *job = p;
  const RtFn *fn = job->fn; /* a global or a top-level expression: no parameters */
  VARIABLE_FRAME(frame, fn->nslots);
  frame->env = NULL;
  rt_state.trace_depth = 0;
  job->result = enter(fn, frame, NULL);
}

bool rt_exec_run(const RtFn *fn, RtValue *out, IrDiags *diags) {
  Job job = {fn, {0}};
  if (!rt_protect(run_job, &job, diags)) return false;
  *out = job.result;
  return true;
}

bool rt_call_global(RtProgram *p, const IrTDef *def, RtValue *out, IrDiags *diags) {
  return rt_exec_run(rt_global_fn(p, def), out, diags);
}
