/* The closure compiler: turns a typed function body into a tree of RtCode nodes, once. Variables
 * become frame slots (or captured-environment indices) here, calls in tail position become
 * tail-call nodes, and the inferred types pick specialized nodes (scalar arithmetic, direct calls
 * of known globals, constructors, a match that jumps by constructor tag). */
#include "runtime/code.h"

#include <string.h>

/* ---------------------------------------------------------------- scopes */

typedef struct Var {
  Sym name;
  int slot;
  struct Var *shadowed; /* the binding of the same name that this one hides */
} Var;

typedef IR_VEC(Var *) VarList;

/* The function being compiled: its bindings in scope (name -> innermost Var), its slot counter
 * and the variables it captures from the functions around it. */
typedef struct FnCtx {
  struct FnCtx *outer;
  IrSymMap vars;
  int nslots, maxslots;
  IrSymMap captured; /* name -> capture index + 1 */
  IR_VEC(CodeCapture) caps;
  const char *owner; /* the global whose body this is (`@hd`), or NULL at top level */
  const RtFn *fn;    /* the global whose body this is (not a function literal's in it), or NULL */
} FnCtx;

static Var *bind(FnCtx *ctx, Sym name) {
  Var *v = IR_NEW(Var);
  v->name = name;
  v->slot = ctx->nslots++;
  if (ctx->nslots > ctx->maxslots) ctx->maxslots = ctx->nslots;
  v->shadowed = ir_symmap_get(&ctx->vars, name);
  ir_symmap_put(&ctx->vars, name, v);
  return v;
}

/* Bindings are released in the reverse order of bind(), so slots are reused like a stack. */
static void unbind(FnCtx *ctx, Var *v) {
  ir_symmap_put(&ctx->vars, v->name, v->shadowed);
  ctx->nslots--;
}

/* Where a variable lives as seen from ctx: a slot of its frame, or an entry of its environment
 * (captured from the enclosing functions at closure creation). */
static CodeCapture lookup(FnCtx *ctx, Sym name) {
  Var *v = ir_symmap_get(&ctx->vars, name);
  if (v) return (CodeCapture){false, v->slot};
  intptr_t k = (intptr_t)ir_symmap_get(&ctx->captured, name);
  if (k) return (CodeCapture){true, (int)k - 1};
  /* The checker resolved every local, so an enclosing function binds it. */
  if (!ctx->outer) UNREACHABLE("a local that no function binds"); /* then slot 0 in release */
  CodeCapture outer = ctx->outer ? lookup(ctx->outer, name) : (CodeCapture){false, 0};
  IR_VEC_PUSH(ctx->caps, outer);
  ir_symmap_put(&ctx->captured, name, (void *)(intptr_t)ctx->caps.len);
  return (CodeCapture){true, ctx->caps.len - 1};
}

/* ---------------------------------------------------------------- nodes */

static void *node(size_t size, RtRun run, const IrExpr *e) {
  RtCode *c = ir_alloc(size);
  c->run = run;
  c->expr = e;
  return c;
}

static RtCode *constant(RtValue v, const IrExpr *e) {
  CodeConst *k = node(sizeof *k, rt_exec_const, e);
  k->v = v;
  return &k->h;
}

/* The dtype of a scalar type, if the type is one (concrete: not a parameter). */
static bool scalar_dtype(const IrType *t, IrDType *dt) {
  if (!t || !ir_type_is_scalar(t)) return false;
  *dt = t->u.tensor.dtype->u.dtype;
  return true;
}

static RtFn *new_fn(const char *name, int nparams) {
  RtFn *fn = IR_NEW(RtFn);
  fn->name = name;
  fn->nparams = nparams;
  return fn;
}

static RtValue closure_value(const RtFn *fn) {
  RtClosure *clo = ir_alloc(sizeof(RtClosure));
  clo->fn = fn;
  return (RtValue){.kind = RT_CLOSURE, .u.clo = clo};
}

static RtFn *native_fn(const char *name, int nparams, RtValue (*native)(const RtFn *, RtValue *, const IrExpr *),
                       const void *data) {
  RtFn *fn = new_fn(name, nparams);
  fn->native = native;
  fn->native_data = data;
  fn->value = closure_value(fn);
  return fn;
}

static const CtorLayout *ctor_layout(const IrCtor *ctor) {
  CtorLayout *l = IR_NEW(CtorLayout);
  l->ctor = ctor;
  l->fields = IR_NEW_ARRAY(RtField, ctor->nargs > 0 ? ctor->nargs : 1);
  l->bytes = rt_ctor_layout(ctor, l->fields);
  l->granules = rt_small_class(sizeof(RtAdt) + l->bytes);
  return l;
}

/* A constructor as a value: nullary ones are the value itself, the others a function. */
static RtValue ctor_value(const IrCtor *ctor) {
  if (ctor->nargs == 0) {
    RtAdt *a = ir_alloc(sizeof(RtAdt));
    a->ctor = ctor;
    return (RtValue){.kind = RT_ADT, .u.adt = a};
  }
  return native_fn(ctor->name->name, ctor->nargs, rt_exec_native_ctor, ctor_layout(ctor))->value;
}

static RtCode *compile(FnCtx *ctx, IrExpr *e, bool tail);
static RtCode *compile_branch(FnCtx *ctx, IrExpr *e, bool tail);

/* ---------------------------------------------------------------- `?` dimensions */

static const IrType *shape_of(const IrType *t) {
  if (!t || t->kind != IR_TYPE_TENSOR || !t->u.tensor.shape || t->u.tensor.shape->kind != IR_TYPE_SHAPE) return NULL;
  return t->u.tensor.shape;
}

/* Whether a value of static type `have` must be checked where `want` is expected: the checker
 * let a `?` of `have` stand for a constant dimension of `want` (it cannot know). Only tensor types
 * are checked, not tensors inside tuples or constructors. */
static bool needs_check(const IrType *have, const IrType *want) {
  const IrType *hs = shape_of(have), *ws = shape_of(want);
  if (!hs || !ws || hs->u.shape.rank != ws->u.shape.rank) return false;
  for (int i = 0; i < ws->u.shape.rank; i++)
    if (hs->u.shape.dims[i]->kind == IR_TYPE_ANY && ws->u.shape.dims[i]->kind == IR_TYPE_DIM) return true;
  return false;
}

/* The value of c, checked when it arrives if needs_check says so. */
static RtCode *checked(RtCode *c, const IrType *have, const IrType *want, const IrExpr *at) {
  if (!needs_check(have, want)) return c;
  const IrType *ws = shape_of(want);
  int rank = ws->u.shape.rank;
  CodeShapeCheck *k = node(sizeof *k, rt_exec_shape_check, at);
  k->inner = c;
  k->want = want;
  k->rank = rank;
  k->dims = IR_NEW_ARRAY(int64_t, rank);
  for (int i = 0; i < rank; i++) {
    const IrType *wd = ws->u.shape.dims[i];
    k->dims[i] = wd->kind == IR_TYPE_DIM ? wd->u.dim : -1;
  }
  return &k->h;
}

/* A function's body; checked against the written result type when needed (then its calls are
 * not tail calls, as the check comes after them). */
static RtCode *compile_body(FnCtx *ctx, IrFn *f) {
  if (!f->ret || !needs_check(f->body->type, f->ret)) return compile(ctx, f->body, true);
  return checked(compile(ctx, f->body, false), f->body->type, f->ret, f->body);
}

/* ---------------------------------------------------------------- expressions */


/* Arguments, checked against the parameter types of the callee's (instantiated) type. */
static RtCode **compile_args(FnCtx *ctx, int n, IrExpr **es, const IrType *callee_type) {
  RtCode **cs = IR_NEW_ARRAY(RtCode *, n > 0 ? n : 1);
  bool typed = callee_type && callee_type->kind == IR_TYPE_FUNC && callee_type->u.func.nargs == n;
  for (int i = 0; i < n; i++) {
    cs[i] = compile(ctx, es[i], false);
    if (typed) cs[i] = checked(cs[i], es[i]->type, callee_type->u.func.args[i], es[i]);
  }
  return cs;
}

static RtCode **compile_list(FnCtx *ctx, int n, IrExpr **es) {
  RtCode **cs = IR_NEW_ARRAY(RtCode *, n > 0 ? n : 1);
  for (int i = 0; i < n; i++) cs[i] = compile(ctx, es[i], false);
  return cs;
}

/* A function literal: its body in a context of its own; a closure node that copies what it
 * captures (or, capturing nothing, one closure made now). `self` names a recursive let's
 * variable, which the closure sees as itself. */
static RtCode *compile_fn(FnCtx *ctx, IrExpr *e, const char *name, Var *self) {
  IrFn *f = &e->u.fn;
  FnCtx inner = {.outer = ctx, .owner = ctx->owner};
  Var **params = IR_NEW_ARRAY(Var *, f->nparams > 0 ? f->nparams : 1);
  for (int i = 0; i < f->nparams; i++) params[i] = bind(&inner, f->params[i].name);
  RtFn *fn = new_fn(name, f->nparams);
  fn->body = compile_body(&inner, f);
  for (int i = f->nparams - 1; i >= 0; i--) unbind(&inner, params[i]);
  fn->nslots = inner.maxslots;
  if (inner.caps.len == 0) return constant(closure_value(fn), e);
  CodeClosure *k = node(sizeof *k, rt_exec_closure, e);
  k->fn = fn;
  k->ncaps = inner.caps.len;
  k->caps = inner.caps.items;
  k->self = -1;
  for (int i = 0; self && i < k->ncaps; i++)
    if (!k->caps[i].from_env && k->caps[i].index == self->slot &&
        (intptr_t)ir_symmap_get(&inner.captured, self->name) == i + 1)
      k->self = i;
  return &k->h;
}

static RtCode *compile_let(FnCtx *ctx, IrExpr *e, bool tail) {
  int n = 0;
  IrExpr *cur = e;
  for (; cur->kind == IR_EXPR_LET; cur = cur->u.let.body) n++;
  CodeLet *k = node(sizeof *k, rt_exec_let, e);
  k->n = n;
  k->slots = IR_NEW_ARRAY(int, n);
  k->values = IR_NEW_ARRAY(RtCode *, n);
  Var **vars = IR_NEW_ARRAY(Var *, n);
  cur = e;
  for (int i = 0; i < n; i++, cur = cur->u.let.body) {
    IrParam *v = &cur->u.let.var;
    IrExpr *value = cur->u.let.value;
    if (value->kind == IR_EXPR_FN) { /* recursive: the function sees its own name */
      vars[i] = bind(ctx, v->name);
      k->values[i] = compile_fn(ctx, value, ir_printf("%%%s", v->name->name), vars[i]);
    } else {
      k->values[i] = compile(ctx, value, false);
      if (v->ann) k->values[i] = checked(k->values[i], value->type, v->ann, value);
      vars[i] = bind(ctx, v->name);
    }
    k->slots[i] = vars[i]->slot;
  }
  k->body = compile(ctx, cur, tail);
  for (int i = n - 1; i >= 0; i--) unbind(ctx, vars[i]);
  return &k->h;
}

static CodePat *compile_pattern(FnCtx *ctx, IrPattern *p, VarList *bound) {
  CodePat *cp = IR_NEW(CodePat);
  switch (p->kind) {
  case IR_PAT_WILD: cp->kind = PAT_WILD; break;
  case IR_PAT_VAR: {
    cp->kind = PAT_VAR;
    Var *v = bind(ctx, p->name);
    IR_VEC_PUSH(*bound, v);
    cp->slot = v->slot;
    break;
  }
  case IR_PAT_CTOR:
  case IR_PAT_TUPLE:
    cp->kind = p->kind == IR_PAT_CTOR ? PAT_CTOR : PAT_TUPLE;
    cp->n = p->n;
    cp->args = IR_NEW_ARRAY(CodePat *, p->n > 0 ? p->n : 1);
    for (int i = 0; i < p->n; i++) cp->args[i] = compile_pattern(ctx, p->args[i], bound);
    if (cp->kind == PAT_CTOR) {
      cp->tag = p->ctor->tag; /* the checker resolved it */
      cp->fields = ctor_layout(p->ctor)->fields;
      cp->flat = true;
      for (int i = 0; i < p->n; i++) cp->flat &= cp->args[i]->kind == PAT_VAR || cp->args[i]->kind == PAT_WILD;
    }
    break;
  }
  return cp;
}

/* The match k in the form that jumps by tag (CodeMatchTag), when its clauses allow: constructor
 * patterns whose arguments are variables or `_` (the first clause of each tag decides it), then
 * perhaps a `_` or `%x` that takes every other tag. NULL otherwise. */
static RtCode *match_by_tag(CodeMatch *k, const IrData *adt) {
  int stop = 0;
  while (stop < k->nclauses && k->pats[stop]->kind == PAT_CTOR && k->pats[stop]->flat) stop++;
  if (stop < k->nclauses && k->pats[stop]->kind != PAT_WILD && k->pats[stop]->kind != PAT_VAR) return NULL;
  CodeMatchTag *m = ir_alloc(sizeof *m);
  m->m = *k;
  m->m.h.run = rt_exec_match_tag;
  m->cases = IR_NEW_ARRAY(TagCase, adt->nctors);
  for (int t = 0; t < adt->nctors; t++) {
    TagCase *tc = &m->cases[t];
    tc->whole = -1;
    int i = k->first[t];
    if (i >= k->nclauses) continue; /* no clause: the general form says so */
    const CodePat *p = k->pats[i];
    tc->body = k->bodies[i];
    if (p->kind == PAT_VAR) tc->whole = p->slot;
    if (p->kind != PAT_CTOR) continue;
    tc->slots = IR_NEW_ARRAY(int, p->n > 0 ? p->n : 1);
    tc->fields = IR_NEW_ARRAY(RtField, p->n > 0 ? p->n : 1);
    for (int j = 0; j < p->n; j++)
      if (p->args[j]->kind == PAT_VAR) {
        tc->slots[tc->nbind] = p->args[j]->slot;
        tc->fields[tc->nbind++] = p->fields[j];
      }
  }
  return &m->m.h;
}

static RtCode *compile_match(FnCtx *ctx, IrExpr *e, bool tail) {
  CodeMatch *k = node(sizeof *k, rt_exec_match, e);
  int n = e->u.match.nclauses;
  k->scrut = compile(ctx, e->u.match.scrut, false);
  k->owner = ctx->owner;
  k->nclauses = n;
  k->pats = IR_NEW_ARRAY(CodePat *, n > 0 ? n : 1);
  k->bodies = IR_NEW_ARRAY(RtCode *, n > 0 ? n : 1);
  const IrData *adt = NULL;
  for (int i = 0; i < n; i++) {
    IrClause *cl = &e->u.match.clauses[i];
    VarList bound = {0};
    k->pats[i] = compile_pattern(ctx, cl->pat, &bound);
    k->bodies[i] = compile(ctx, cl->body, tail);
    for (int j = bound.len - 1; j >= 0; j--) unbind(ctx, bound.items[j]);
    if (cl->pat->kind == IR_PAT_CTOR && cl->pat->ctor) adt = cl->pat->ctor->adt;
  }
  /* Jump by tag: the first clause whose outermost pattern accepts the tag. */
  if (adt) {
    k->first = IR_NEW_ARRAY(int, adt->nctors);
    int stop = 0; /* the first clause that is not a constructor pattern: it accepts any tag */
    while (stop < n && k->pats[stop]->kind == PAT_CTOR) stop++;
    for (int t = 0; t < adt->nctors; t++) k->first[t] = stop;
    for (int i = stop - 1; i >= 0; i--) /* backwards, so the first clause of a tag wins: O(n + tags) */
      if (k->pats[i]->tag >= 0 && k->pats[i]->tag < adt->nctors) k->first[k->pats[i]->tag] = i;
    RtCode *by_tag = match_by_tag(k, adt);
    if (by_tag) return by_tag;
  }
  return &k->h;
}

/* How the compiled operands a and b of a scalar operator can be read: straight from a slot or a
 * constant where they are one. */
static OperandForm operand_form(const RtCode *a, const RtCode *b) {
  bool a_slot = a->run == rt_exec_slot, b_slot = b->run == rt_exec_slot, b_const = b->run == rt_exec_const;
  return a_slot && b_const  ? OPERANDS_SLOT_CONST
         : a_slot && b_slot ? OPERANDS_SLOT_SLOT
         : b_const          ? OPERANDS_NODE_CONST
                            : OPERANDS_NODES;
}

/* Fills k with where a and b are read from (their slots, b's constant), for operand_form's forms. */
static void read_operands(CodeScalarOperands *k, RtCode *a, RtCode *b) {
  k->node = a;
  if (a->run == rt_exec_slot) k->a = ((CodeVar *)a)->index;
  if (b->run == rt_exec_slot) k->b = ((CodeVar *)b)->index;
  if (b->run == rt_exec_const) k->k = ((CodeConst *)b)->v;
}

/* A scalar binary operator on the compiled operands a and b, in the form that reads them most
 * directly; NULL if the operator has no scalar node for dt. */
static RtCode *scalar_binary(IrOpId op, IrDType dt, RtCode *a, RtCode *b, const IrExpr *e) {
  OperandForm form = operand_form(a, b);
  RtRun run = rt_exec_scalar_binary(op, dt, form);
  if (!run) return NULL;
  if (form == OPERANDS_NODES) {
    CodePair *k = node(sizeof *k, run, e);
    k->a = a;
    k->b = b;
    return &k->h;
  }
  CodeScalarOperands *k = node(sizeof *k, run, e);
  read_operands(k, a, b);
  return &k->h;
}

/* `a && b` and `a || b` on scalars evaluate b only when a does not decide: an `if` whose other
 * branch is the constant a gives (a deliberate difference from TVM, docs/syntax.md). */
static RtCode *short_circuit(FnCtx *ctx, IrExpr *e, bool tail) {
  IrExpr **args = e->u.call.args;
  bool is_and = e->u.call.callee->u.op == IR_OP_LOGICAL_AND;
  CodeIf *k = node(sizeof *k, rt_exec_if, e);
  k->cond = compile(ctx, args[0], false);
  RtCode *right = compile(ctx, args[1], tail), *decided = constant(rt_bool(!is_and), e);
  k->then = is_and ? right : decided;
  k->els = is_and ? decided : right;
  return &k->h;
}

static RtCode *compile_call(FnCtx *ctx, IrExpr *e, bool tail) {
  IrExpr *f = e->u.call.callee;
  int n = e->u.call.nargs;
  IrExpr **args = e->u.call.args;
  if (f->kind == IR_EXPR_OP) {
    IrDType dt;
    if (n == 2 && (f->u.op == IR_OP_LOGICAL_AND || f->u.op == IR_OP_LOGICAL_OR) &&
        scalar_dtype(args[0]->type, &dt) && scalar_dtype(args[1]->type, &dt))
      return short_circuit(ctx, e, tail);
    RtCode **operands = compile_list(ctx, n, args); /* once: compiling twice is exponential in the nesting */
    if (n == 2 && scalar_dtype(args[0]->type, &dt) && scalar_dtype(args[1]->type, &dt)) {
      RtCode *special = scalar_binary((IrOpId)f->u.op, dt, operands[0], operands[1], e);
      if (special) return special;
    }
    CodeCall *k = node(sizeof *k, rt_exec_op, e);
    k->op = (IrOpId)f->u.op;
    k->n = n;
    k->args = operands;
    return &k->h;
  }
  if (f->kind == IR_EXPR_CTOR && f->target.ctor) {
    if (n == 0) return constant(ctor_value(f->target.ctor), e); /* `Nil()`: one value, made now */
    CodeCall *k = node(sizeof *k, rt_exec_ctor, e);
    k->ctor = ctor_layout(f->target.ctor);
    k->n = n;
    k->args = compile_args(ctx, n, args, f->type);
    return &k->h;
  }
  bool direct = f->kind == IR_EXPR_GLOBAL && f->target.def && f->target.def->code;
  bool can_tail = tail && n <= RT_MAX_TAIL_ARGS;
  bool self = direct && tail && rt_global_fn(f->target.def) == ctx->fn;
  CodeCall *k = node(sizeof *k, self     ? rt_exec_tail_self
                                : direct ? (can_tail ? rt_exec_tail_global : rt_exec_call_global)
                                         : (can_tail ? rt_exec_tail_closure : rt_exec_call_closure), e);
  if (direct) k->fn = rt_global_fn(f->target.def);
  else k->callee = compile(ctx, f, false);
  k->n = n;
  k->args = compile_args(ctx, n, args, f->type);
  return &k->h;
}

/* `if (a < b) {...} else {...}` on scalars as one node that compares and branches (CodeBranch); NULL
 * for any other `if`. */
static RtCode *compile_branch(FnCtx *ctx, IrExpr *e, bool tail) {
  IrExpr *cond = e->u.ifx.cond;
  IrDType dt;
  if (cond->kind != IR_EXPR_CALL || cond->u.call.callee->kind != IR_EXPR_OP || cond->u.call.nargs != 2) return NULL;
  IrOpId op = (IrOpId)cond->u.call.callee->u.op;
  IrExpr **args = cond->u.call.args;
  if (!scalar_dtype(args[0]->type, &dt) || !scalar_dtype(args[1]->type, &dt) ||
      !rt_exec_scalar_branch(op, dt, OPERANDS_NODES))
    return NULL; /* decided before compiling anything: each part is compiled once */
  RtCode *a = compile(ctx, args[0], false), *b = compile(ctx, args[1], false);
  OperandForm form = operand_form(a, b);
  CodeBranch *k = node(sizeof *k, rt_exec_scalar_branch(op, dt, form), e);
  read_operands(&k->ops, a, b);
  k->right = b;
  k->then = compile(ctx, e->u.ifx.then, tail);
  k->els = compile(ctx, e->u.ifx.els, tail);
  return &k->ops.h;
}

static RtCode *pair(RtRun run, const IrExpr *e, RtCode *a, RtCode *b, int index) {
  CodePair *k = node(sizeof *k, run, e);
  k->a = a;
  k->b = b;
  k->index = index;
  return &k->h;
}

static RtCode *compile(FnCtx *ctx, IrExpr *e, bool tail) {
  switch (e->kind) {
  case IR_EXPR_LOCAL: {
    CodeCapture where = lookup(ctx, e->u.name);
    CodeVar *k = node(sizeof *k, where.from_env ? rt_exec_env : rt_exec_slot, e);
    k->index = where.index;
    return &k->h;
  }
  case IR_EXPR_GLOBAL: {
    const RtFn *fn = e->target.def ? rt_global_fn(e->target.def) : NULL;
    ASSERT(fn); /* the checker resolved the name, and its definition is compiled */
    if (!fn) return constant(rt_unit(), e);
    return constant(fn->value, e);
  }
  case IR_EXPR_LIT: {
    IrDType dt;
    if (!scalar_dtype(e->type, &dt))
      dt = e->u.lit.kind == IR_LIT_BOOL  ? IR_DTYPE(IR_DT_BOOL, 1)
           : e->u.lit.kind == IR_LIT_INT ? IR_DTYPE(IR_DT_INT, 32)
                                         : IR_DTYPE(IR_DT_FLOAT, 32);
    return constant(rt_scalar_from_lit(&e->u.lit, dt), e);
  }
  case IR_EXPR_TENSOR: {
    CodeLazy *k = node(sizeof *k, rt_exec_tensor_literal, e);
    return &k->h;
  }
  case IR_EXPR_FILL: {
    CodeLazy *k = node(sizeof *k, rt_exec_fill, e);
    return &k->h;
  }
  case IR_EXPR_TUPLE: {
    CodeList *k = node(sizeof *k, rt_exec_tuple, e);
    k->n = e->u.tuple.n;
    k->items = compile_list(ctx, k->n, e->u.tuple.fields);
    return &k->h;
  }
  case IR_EXPR_PROJ: return pair(rt_exec_proj, e, compile(ctx, e->u.proj.tuple, false), NULL, e->u.proj.index);
  case IR_EXPR_LET: return compile_let(ctx, e, tail);
  case IR_EXPR_FN: return compile_fn(ctx, e, "fn", NULL);
  case IR_EXPR_CALL: return compile_call(ctx, e, tail);
  case IR_EXPR_OP: {
    IrOpId op = (IrOpId)e->u.op;
    int nargs = e->type && e->type->kind == IR_TYPE_FUNC ? e->type->u.func.nargs : ir_ops[op].min_args;
    return constant(native_fn(ir_ops[op].name, nargs, rt_exec_native_op, (void *)(intptr_t)op)->value, e);
  }
  case IR_EXPR_CTOR: return constant(ctor_value(e->target.ctor), e);
  case IR_EXPR_IF: {
    RtCode *fused = compile_branch(ctx, e, tail);
    if (fused) return fused;
    CodeIf *k = node(sizeof *k, rt_exec_if, e);
    k->cond = compile(ctx, e->u.ifx.cond, false);
    k->then = compile(ctx, e->u.ifx.then, tail);
    k->els = compile(ctx, e->u.ifx.els, tail);
    return &k->h;
  }
  case IR_EXPR_MATCH: return compile_match(ctx, e, tail);
  case IR_EXPR_REF: return pair(rt_exec_ref, e, compile(ctx, e->u.ref.a, false), NULL, 0);
  case IR_EXPR_REF_READ: return pair(rt_exec_ref_read, e, compile(ctx, e->u.ref.a, false), NULL, 0);
  case IR_EXPR_REF_WRITE:
    return pair(rt_exec_ref_write, e, compile(ctx, e->u.ref.a, false), compile(ctx, e->u.ref.b, false), 0);
  case IR_EXPR_FREE: return &((CodeLazy *)node(sizeof(CodeLazy), rt_exec_free, e))->h;
  case IR_EXPR_META: return &((CodeLazy *)node(sizeof(CodeLazy), rt_exec_meta, e))->h;
  }
  UNREACHABLE("an expression of no kind");
  return constant(rt_unit(), e);
}

/* ---------------------------------------------------------------- programs */

void rt_compile_program(IrProgram *prog) {
  /* Every definition's function exists before any body is compiled, so mutually recursive
   * definitions call each other directly. */
  for (int i = 0; i < prog->nitems; i++) {
    IrItem *it = &prog->items[i];
    if (it->kind != IR_ITEM_DEF) continue;
    RtFn *fn = new_fn(ir_printf("@%s", it->name->name), it->fn->u.fn.nparams);
    fn->value = closure_value(fn);
    it->code = fn;
  }
  for (int i = 0; i < prog->nitems; i++) {
    IrItem *it = &prog->items[i];
    if (it->kind != IR_ITEM_DEF) continue;
    RtFn *fn = it->code;
    IrFn *f = &it->fn->u.fn;
    FnCtx ctx = {.owner = fn->name, .fn = fn};
    Var **params = IR_NEW_ARRAY(Var *, f->nparams > 0 ? f->nparams : 1);
    for (int j = 0; j < f->nparams; j++) params[j] = bind(&ctx, f->params[j].name);
    fn->body = compile_body(&ctx, f);
    for (int j = f->nparams - 1; j >= 0; j--) unbind(&ctx, params[j]);
    fn->nslots = ctx.maxslots;
  }
}

RtFn *rt_compile_expr(IrExpr *e) {
  FnCtx ctx = {0};
  RtFn *fn = new_fn("top level", 0);
  fn->body = compile(&ctx, e, true);
  fn->nslots = ctx.maxslots;
  return fn;
}
