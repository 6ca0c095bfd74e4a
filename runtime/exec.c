/* The evaluator: the run function of every kind of compiled node, and rt_apply, which runs a
 * function's body in a frame on the C stack and turns tail calls (the RT_TAIL sentinel) into
 * iterations of its loop. */
#include "runtime/code.h"

#include <string.h>

static inline RtValue run(const RtCode *c, RtFrame *f) { return c->run(c, f); }

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

RtValue rt_apply(const RtFn *fn, RtValue *env, const RtValue *args, const IrExpr *site) {
  RtCallRec rec = {fn, site, rt_machine.calls};
  char probe;
  if ((uintptr_t)&probe < rt_machine.stack_limit || rt_machine.interrupted) rt_check_stack(site);
  rt_machine.calls = &rec;
  for (;;) {
    if (fn->native) {
      RtValue r = fn->native(fn, (RtValue *)args, site);
      rt_machine.calls = rec.up;
      return r;
    }
    RtValue slots[fn->nslots > 0 ? fn->nslots : 1];
    copy_values(slots, args, fn->nparams);
    RtFrame frame = {slots, env};
    RtValue r = run(fn->body, &frame);
    if (r.kind != RT_TAIL) {
      rt_machine.calls = rec.up;
      return r;
    }
    fn = rt_machine.tail_fn;
    env = rt_machine.tail_env;
    args = rt_machine.tail_args;
    rec.fn = fn;
    rec.site = rt_machine.tail_site;
    rt_poll(rec.site);
  }
}

static RtValue tail(const RtFn *fn, RtValue *env, const RtValue *args, int n, const IrExpr *site) {
  copy_values(rt_machine.tail_args, args, n);
  rt_machine.tail_fn = fn;
  rt_machine.tail_env = env;
  rt_machine.tail_site = site;
  return (RtValue){.kind = RT_TAIL};
}

/* Arguments are evaluated left to right into a local array before the call: evaluating one may
 * itself make (tail) calls that use the machine's buffer. */
#define EVAL_ARGS(k, f, argv)                                                                  \
  RtValue argv[(k)->n > 0 ? (k)->n : 1];                                                        \
  for (int i = 0; i < (k)->n; i++) argv[i] = run((k)->args[i], f)

RtValue rt_exec_call_global(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  EVAL_ARGS(k, f, argv);
  return rt_apply(k->fn, NULL, argv, c->expr);
}

RtValue rt_exec_tail_global(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  EVAL_ARGS(k, f, argv);
  return tail(k->fn, NULL, argv, k->n, c->expr);
}

static RtClosure *callee(const CodeCall *k, RtFrame *f) {
  RtValue v = run(k->callee, f);
  if (v.kind != RT_CLOSURE) rt_error(k->h.expr, "internal error: calling a value that is not a function");
  return v.u.clo;
}

RtValue rt_exec_call_closure(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  RtClosure *clo = callee(k, f);
  EVAL_ARGS(k, f, argv);
  return rt_apply(clo->fn, clo->env, argv, c->expr);
}

RtValue rt_exec_tail_closure(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  RtClosure *clo = callee(k, f);
  EVAL_ARGS(k, f, argv);
  if (clo->fn->native) return clo->fn->native(clo->fn, argv, c->expr);
  return tail(clo->fn, clo->env, argv, k->n, c->expr);
}

static RtValue make_adt(const IrCtor *ctor, const RtValue *args) {
  RtAdt *a = rt_alloc(sizeof(RtAdt) + sizeof(RtValue) * (size_t)ctor->nargs);
  a->ctor = ctor;
  copy_values(a->f, args, ctor->nargs);
  return (RtValue){.kind = RT_ADT, .u.adt = a};
}

RtValue rt_exec_ctor(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  EVAL_ARGS(k, f, argv);
  rt_machine.at = c->expr;
  return make_adt(k->ctor, argv);
}

RtValue rt_exec_op(const RtCode *c, RtFrame *f) {
  const CodeCall *k = (const CodeCall *)c;
  EVAL_ARGS(k, f, argv);
  rt_machine.at = c->expr;
  return rt_kernel_call(k->op, argv, k->n, c->expr);
}

RtValue rt_exec_native_ctor(const RtFn *fn, RtValue *args, const IrExpr *site) {
  (void)site;
  return make_adt(fn->native_data, args);
}

RtValue rt_exec_native_op(const RtFn *fn, RtValue *args, const IrExpr *site) {
  return rt_kernel_call((IrOpId)(intptr_t)fn->native_data, args, fn->nparams, site);
}

/* ---------------------------------------------------------------- values and variables */

RtValue rt_exec_const(const RtCode *c, RtFrame *f) {
  (void)f;
  return ((const CodeConst *)c)->v;
}

static RtValue tensor_literal(const IrExpr *e) {
  IrType *t = e->type;
  IrDType dt = t->u.tensor.dtype->u.dtype;
  RtTensor *x = rt_tensor_new(dt, e->u.tensor.rank, e->u.tensor.shape);
  for (int64_t i = 0; i < x->count; i++) rt_tensor_set(x, i, rt_scalar_from_lit(&e->u.tensor.elems[i], dt));
  return (RtValue){.kind = RT_TENSOR, .u.t = x};
}

RtValue rt_exec_tensor_literal(const RtCode *c, RtFrame *f) {
  (void)f;
  CodeLazy *k = (CodeLazy *)c;
  if (!k->built) {
    rt_machine.at = c->expr;
    k->v = tensor_literal(c->expr);
    k->built = true;
  }
  return k->v;
}

RtValue rt_exec_fill(const RtCode *c, RtFrame *f) {
  (void)f;
  CodeLazy *k = (CodeLazy *)c;
  if (!k->built) {
    const IrExpr *e = c->expr;
    rt_machine.at = e;
    IrDType dt = e->u.fill.dtype;
    k->v = rt_tensor_fill(rt_scalar_from_lit(&e->u.fill.value, dt), dt, e->u.fill.rank, e->u.fill.shape);
    k->built = true;
  }
  return k->v;
}

RtValue rt_exec_slot(const RtCode *c, RtFrame *f) { return f->slots[((const CodeVar *)c)->index]; }
RtValue rt_exec_env(const RtCode *c, RtFrame *f) { return f->env[((const CodeVar *)c)->index]; }

RtValue rt_exec_let(const RtCode *c, RtFrame *f) {
  const CodeLet *k = (const CodeLet *)c;
  for (int i = 0; i < k->n; i++) f->slots[k->slots[i]] = run(k->values[i], f);
  return run(k->body, f);
}

RtValue rt_exec_tuple(const RtCode *c, RtFrame *f) {
  const CodeList *k = (const CodeList *)c;
  RtValue items[k->n > 0 ? k->n : 1];
  for (int i = 0; i < k->n; i++) items[i] = run(k->items[i], f);
  rt_machine.at = c->expr;
  return rt_tuple_value(k->n, items);
}

RtValue rt_exec_proj(const RtCode *c, RtFrame *f) {
  const CodePair *k = (const CodePair *)c;
  return run(k->a, f).u.tup->f[k->index];
}

RtValue rt_exec_closure(const RtCode *c, RtFrame *f) {
  const CodeClosure *k = (const CodeClosure *)c;
  rt_machine.at = c->expr;
  RtClosure *clo = rt_alloc(sizeof(RtClosure) + sizeof(RtValue) * (size_t)k->ncaps);
  clo->fn = k->fn;
  for (int i = 0; i < k->ncaps; i++)
    clo->env[i] = k->caps[i].from_env ? f->env[k->caps[i].index] : f->slots[k->caps[i].index];
  RtValue v = {.kind = RT_CLOSURE, .u.clo = clo};
  if (k->self >= 0) clo->env[k->self] = v;
  return v;
}

RtValue rt_exec_ref(const RtCode *c, RtFrame *f) {
  const CodePair *k = (const CodePair *)c;
  RtValue v = run(k->a, f);
  rt_machine.at = c->expr;
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

RtValue rt_exec_shape_check(const RtCode *c, RtFrame *f) {
  const CodeShapeCheck *k = (const CodeShapeCheck *)c;
  RtValue v = run(k->inner, f);
  int rank = v.kind == RT_TENSOR ? v.u.t->rank : 0;
  const int64_t *shape = v.kind == RT_TENSOR ? v.u.t->shape : NULL;
  bool ok = rank == k->rank;
  for (int i = 0; ok && i < rank; i++) ok = k->dims[i] < 0 || k->dims[i] == shape[i];
  if (ok) return v;
  rt_error(c->expr, "a `?` dimension disagrees at run time: the value has shape %s, but %s is expected here",
           rt_shape_text(rank, shape), ir_type_str(k->want));
}

/* ---------------------------------------------------------------- control */

RtValue rt_exec_if(const RtCode *c, RtFrame *f) {
  const CodeIf *k = (const CodeIf *)c;
  return run(k->cond, f).u.u ? run(k->then, f) : run(k->els, f);
}

static bool match(const CodePat *p, RtValue v, RtFrame *f) {
  switch (p->kind) {
  case PAT_WILD: return true;
  case PAT_VAR: f->slots[p->slot] = v; return true;
  case PAT_CTOR:
    if (v.u.adt->ctor->tag != p->tag) return false;
    for (int i = 0; i < p->n; i++)
      if (!match(p->args[i], v.u.adt->f[i], f)) return false;
    return true;
  case PAT_TUPLE:
    for (int i = 0; i < p->n; i++)
      if (!match(p->args[i], v.u.tup->f[i], f)) return false;
    return true;
  }
  return false;
}

RtValue rt_exec_match(const RtCode *c, RtFrame *f) {
  const CodeMatch *k = (const CodeMatch *)c;
  RtValue v = run(k->scrut, f);
  int i = 0;
  if (k->first && v.kind == RT_ADT) i = k->first[v.u.adt->ctor->tag];
  for (; i < k->nclauses; i++)
    if (match(k->pats[i], v, f)) return run(k->bodies[i], f);
  if (k->owner) rt_error(c->expr, "no clause of this match in %s accepts %s", k->owner, rt_value_brief(v));
  rt_error(c->expr, "no clause of this match accepts %s", rt_value_brief(v));
}

/* ---------------------------------------------------------------- scalar arithmetic */

/* Binary operators on scalars of one dtype, without dispatch or allocation. Integers wrap;
 * integer division truncates toward zero and fails on zero. */
#define SCALAR_BINARY(NAME, FIELD, T, DT, EXPR)                                                \
  static RtValue NAME(const RtCode *c, RtFrame *f) {                                           \
    const CodePair *k = (const CodePair *)c;                                                   \
    T x = (T)run(k->a, f).u.FIELD;                                                             \
    T y = (T)run(k->b, f).u.FIELD;                                                             \
    return (RtValue){.kind = RT_SCALAR, .dt = DT, .u.FIELD = (EXPR)};                         \
  }

#define SCALAR_COMPARE(NAME, FIELD, T, EXPR)                                                   \
  static RtValue NAME(const RtCode *c, RtFrame *f) {                                           \
    const CodePair *k = (const CodePair *)c;                                                   \
    T x = (T)run(k->a, f).u.FIELD;                                                             \
    T y = (T)run(k->b, f).u.FIELD;                                                             \
    return rt_bool(EXPR);                                                                      \
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

#define OP_TABLE(P, MOD)                                                                       \
  switch (op) {                                                                                \
  case IR_OP_ADD: return P##_add;                                                              \
  case IR_OP_SUBTRACT: return P##_sub;                                                         \
  case IR_OP_MULTIPLY: return P##_mul;                                                         \
  case IR_OP_DIVIDE: return P##_div;                                                           \
  case IR_OP_MOD: return MOD;                                                                  \
  case IR_OP_EQUAL: return P##_eq;                                                             \
  case IR_OP_NOT_EQUAL: return P##_ne;                                                         \
  case IR_OP_LESS: return P##_lt;                                                              \
  case IR_OP_LESS_EQUAL: return P##_le;                                                        \
  case IR_OP_GREATER: return P##_gt;                                                           \
  case IR_OP_GREATER_EQUAL: return P##_ge;                                                     \
  default: return NULL;                                                                        \
  }

RtRun rt_exec_scalar_binary(IrOpId op, IrDType dt) {
  if (dt.lanes != 1) return NULL;
  if (dt.code == IR_DT_INT && dt.bits == 32) OP_TABLE(i32, i32_mod)
  if (dt.code == IR_DT_INT && dt.bits == 64) OP_TABLE(i64, i64_mod)
  if (dt.code == IR_DT_FLOAT && dt.bits == 32) OP_TABLE(f32, NULL)
  if (dt.code == IR_DT_FLOAT && dt.bits == 64) OP_TABLE(f64, NULL)
  return NULL;
}

/* ---------------------------------------------------------------- entry points */

typedef struct {
  const RtFn *fn;
  RtValue result;
} Job;

static void run_job(void *p) {
  Job *job = p;
  job->result = rt_apply(job->fn, NULL, NULL, NULL);
}

static bool run_protected(const RtFn *fn, RtValue *out, IrDiags *diags) {
  Job job = {fn, {0}};
  if (!rt_protect(run_job, &job, diags)) return false;
  *out = job.result;
  return true;
}

bool rt_eval(IrExpr *e, RtValue *out, IrDiags *diags) { return run_protected(rt_compile_expr(e), out, diags); }

bool rt_call_global(const IrItem *def, RtValue *out, IrDiags *diags) {
  return run_protected(rt_global_fn(def), out, diags);
}
