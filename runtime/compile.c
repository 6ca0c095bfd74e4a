/* The closure compiler: turns the typed program (ir/typed.h) into trees of RtCode nodes, once per
 * function. The checker has placed every variable (a frame slot, or an entry of the closure's
 * environment) and resolved every name; here calls in tail position become tail-call nodes, and
 * the inferred types pick specialized nodes (scalar arithmetic, direct calls of known globals,
 * constructors, a match that jumps by constructor tag). */
#include "runtime/code.h"

#include <string.h>

/* The function being compiled: the global whose body it is, for the names of errors and for calls
 * of itself in tail position. */
typedef struct FnCtx {
  RtProgram *prog;   /* what the session has compiled */
  const char *owner; /* the global whose body this is (`@hd`), or NULL at top level */
  const RtFn *fn;    /* the global whose body this is (not a function literal's in it), or NULL */
} FnCtx;

static const RtFn *global_fn(const RtProgram *p, const IrTDef *def) {
  ASSERT(def && def->id < p->globals.len && p->globals.items[def->id]); /* the checker resolved it; it is compiled */
  return rt_global_fn(p, def);
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

/* A constructor's layout (rt_ctor_layout), made once. */
static const RtCtor *ctor_layout(RtProgram *p, const IrTCtor *k) {
  RtCtor *l = ir_ptrmap_get(&p->ctors, k);
  if (l) return l;
  l = IR_NEW(RtCtor);
  l->src = k->src;
  l->scheme = k->scheme;
  l->tag = k->src->tag;
  l->nargs = k->src->nargs;
  l->fields = IR_NEW_ARRAY(RtField, k->src->nargs > 0 ? k->src->nargs : 1);
  l->bytes = rt_ctor_layout(k, l->fields);
  l->granules = rt_small_class(sizeof(RtAdt) + l->bytes);
  ir_ptrmap_put(&p->ctors, k, l);
  return l;
}

/* A constructor as a value, made once: a nullary one is the value itself, the others a function. */
static RtValue ctor_value(RtProgram *p, const IrTCtor *k) {
  RtValue *v = ir_ptrmap_get(&p->ctor_values, k);
  if (v) return *v;
  v = IR_NEW(RtValue);
  if (k->src->nargs == 0) {
    RtAdt *a = ir_alloc(sizeof(RtAdt));
    a->ctor = ctor_layout(p, k);
    *v = (RtValue){.kind = RT_ADT, .u.adt = a};
  } else {
    *v = native_fn(k->src->name->name, k->src->nargs, rt_exec_native_ctor, ctor_layout(p, k))->value;
  }
  ir_ptrmap_put(&p->ctor_values, k, v);
  return *v;
}

static RtCode *compile(FnCtx *ctx, const IrTExpr *e, bool tail);

/* ---------------------------------------------------------------- `?` dimensions */

/* The value of c, checked against the type its place expects when it arrives (the checker marked
 * it: IrTExpr.check). */
static RtCode *checked(RtCode *c, const IrTCheck *check, const IrExpr *at) {
  if (!check) return c;
  CodeShapeCheck *k = node(sizeof *k, rt_exec_shape_check, at);
  k->inner = c;
  k->check = check;
  return &k->h;
}

/* A value in a place that may check it (an argument, a let's value): never in tail position. */
static RtCode *compile_value(FnCtx *ctx, const IrTExpr *e) { return compile(ctx, e, false); }

/* The checked entry of definition def (IrTExpr.dynamic: a call gave one of its shared shape
 * variables a `?`), made once: a function that checks the arguments against the scheme's
 * parameter types, then tail-calls the definition (rt_exec_entry_check). */
static const RtFn *checked_global(RtProgram *p, const IrTDef *def) {
  const RtFn *fn = global_fn(p, def);
  if (!fn || !def->scheme || def->scheme->kind != IR_TYPE_FUNC) return fn;
  RtFn *entry = ir_ptrmap_get(&p->checked, fn);
  if (entry) return entry;
  entry = new_fn(fn->name, fn->nparams);
  CodeEntryCheck *k = node(sizeof *k, rt_exec_entry_check, def->fn->src);
  k->fn = fn;
  k->params = (const IrType *const *)def->scheme->u.func.args;
  entry->body = &k->h;
  entry->nslots = fn->nparams;
  entry->value = closure_value(entry);
  ir_ptrmap_put(&p->checked, fn, entry);
  return entry;
}

/* The checked entry of a constructor, made once: a native function that checks the arguments,
 * then builds the value (rt_exec_native_entry_check). */
static RtValue checked_ctor(RtProgram *p, const IrTCtor *c) {
  RtFn *entry = ir_ptrmap_get(&p->checked, c);
  if (entry) return entry->value;
  CodeEntryCheck *k = node(sizeof *k, NULL, NULL);
  k->params = (const IrType *const *)c->scheme->u.func.args;
  k->ctor = ctor_layout(p, c);
  entry = native_fn(c->src->name->name, c->src->nargs, rt_exec_native_entry_check, k);
  k->fn = entry;
  ir_ptrmap_put(&p->checked, c, entry);
  return entry->value;
}

/* A let-bound polymorphic function or a session binding read at an instance that gives a shared
 * shape variable a `?` (IrTExpr.dynamic): its value, wrapped at run time in a checked entry
 * (rt_exec_entry_wrap), as checked_global's for a definition. */
static RtCode *entry_wrapped(RtCode *c, const IrTExpr *e, const IrType *scheme) {
  if (!e->dynamic || !scheme || scheme->kind != IR_TYPE_FUNC) return c;
  CodeEntryWrap *k = node(sizeof *k, rt_exec_entry_wrap, e->src);
  k->inner = c;
  k->params = (const IrType *const *)scheme->u.func.args;
  return &k->h;
}

/* ---------------------------------------------------------------- expressions */

/* The values of es[0..n-1], in an array of room for n (at least 1). */
static RtCode **compile_values(FnCtx *ctx, int n, int room, IrTExpr *const *es) {
  RtCode **cs = IR_NEW_ARRAY(RtCode *, room > 0 ? room : 1);
  for (int i = 0; i < n; i++) cs[i] = compile_value(ctx, es[i]);
  return cs;
}

static RtCode **compile_list(FnCtx *ctx, int n, IrTExpr *const *es) { return compile_values(ctx, n, n, es); }

static RtFn *compile_function(FnCtx *ctx, const IrTFn *f, const char *name) {
  FnCtx inner = {.prog = ctx->prog, .owner = ctx->owner};
  RtFn *fn = new_fn(name, f->nparams);
  fn->body = compile(&inner, f->body, true);
  fn->nslots = f->nslots;
  return fn;
}

/* A function literal: a closure node that copies what it captures (or, capturing nothing, one
 * closure made now). */
static RtCode *compile_fn(FnCtx *ctx, const IrTExpr *e, const char *name) {
  const IrTFn *f = e->u.fn;
  RtFn *fn = compile_function(ctx, f, name);
  if (f->ncaptures == 0) return constant(closure_value(fn), e->src);
  CodeClosure *k = node(sizeof *k, rt_exec_closure, e->src);
  k->fn = fn;
  k->ncaps = f->ncaptures;
  k->caps = f->captures;
  k->self = f->self;
  return &k->h;
}

static RtCode *compile_let(FnCtx *ctx, const IrTExpr *e, bool tail) {
  int n = 0;
  const IrTExpr *cur = e;
  for (; cur->kind == IR_EXPR_LET; cur = cur->u.let.body) n++;
  CodeLet *k = node(sizeof *k, rt_exec_let, e->src);
  k->n = n;
  k->slots = IR_NEW_ARRAY(int, n);
  k->values = IR_NEW_ARRAY(RtCode *, n);
  cur = e;
  for (int i = 0; i < n; i++, cur = cur->u.let.body) {
    const IrTExpr *value = cur->u.let.value;
    k->slots[i] = cur->u.let.slot;
    if (value->kind == IR_EXPR_FN) /* recursive: the function sees its own name */
      k->values[i] = compile_fn(ctx, value, ir_printf("%%%s", cur->src->u.let.var.name->name));
    else
      k->values[i] = compile_value(ctx, value);
  }
  k->body = compile(ctx, cur, tail);
  return &k->h;
}

/* at: the match, where a pattern variable's check places its error. */
static CodePat *compile_pattern(FnCtx *ctx, const IrTPattern *p, const IrExpr *at) {
  CodePat *cp = IR_NEW(CodePat);
  switch (p->kind) {
  case IR_PAT_WILD: cp->kind = PAT_WILD; break;
  case IR_PAT_VAR:
    cp->kind = PAT_VAR;
    cp->slot = p->slot;
    cp->check = p->check;
    cp->at = at;
    break;
  case IR_PAT_CTOR:
  case IR_PAT_TUPLE:
    cp->kind = p->kind == IR_PAT_CTOR ? PAT_CTOR : PAT_TUPLE;
    cp->n = p->n;
    cp->args = IR_NEW_ARRAY(CodePat *, p->n > 0 ? p->n : 1);
    for (int i = 0; i < p->n; i++) cp->args[i] = compile_pattern(ctx, p->args[i], at);
    if (cp->kind == PAT_CTOR) {
      cp->tag = p->ctor->src->tag;
      cp->fields = ctor_layout(ctx->prog, p->ctor)->fields;
      cp->flat = true;
      for (int i = 0; i < p->n; i++)
        cp->flat &= (cp->args[i]->kind == PAT_VAR && !cp->args[i]->check) || cp->args[i]->kind == PAT_WILD;
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
  if (stop < k->nclauses && k->pats[stop]->kind != PAT_WILD && (k->pats[stop]->kind != PAT_VAR || k->pats[stop]->check))
    return NULL;
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

static RtCode *compile_match(FnCtx *ctx, const IrTExpr *e, bool tail) {
  CodeMatch *k = node(sizeof *k, rt_exec_match, e->src);
  int n = e->u.match.nclauses;
  k->scrut = compile(ctx, e->u.match.scrut, false);
  k->owner = ctx->owner;
  k->nclauses = n;
  k->pats = IR_NEW_ARRAY(CodePat *, n > 0 ? n : 1);
  k->bodies = IR_NEW_ARRAY(RtCode *, n > 0 ? n : 1);
  const IrData *adt = NULL;
  for (int i = 0; i < n; i++) {
    const IrTClause *cl = &e->u.match.clauses[i];
    k->pats[i] = compile_pattern(ctx, cl->pat, e->src);
    k->bodies[i] = compile(ctx, cl->body, tail);
    if (cl->pat->kind == IR_PAT_CTOR) adt = cl->pat->ctor->src->adt;
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
static RtCode *short_circuit(FnCtx *ctx, const IrTExpr *e, bool tail) {
  IrTExpr **args = e->u.call.args;
  bool is_and = e->u.call.callee->u.op == IR_OP_LOGICAL_AND;
  CodeIf *k = node(sizeof *k, rt_exec_if, e->src);
  k->cond = compile(ctx, args[0], false);
  RtCode *right = compile(ctx, args[1], tail), *decided = constant(rt_bool(!is_and), e->src);
  k->then = is_and ? right : decided;
  k->els = is_and ? decided : right;
  return &k->h;
}

/* Whether e is a call of a scalar binary operator (both operands scalars of one dtype, *dt). */
static bool scalar_operator_call(const IrTExpr *e, IrDType *dt) {
  return e->kind == IR_EXPR_CALL && e->u.call.callee->kind == IR_EXPR_OP && e->u.call.nargs == 2 &&
         scalar_dtype(e->u.call.args[0]->type, dt) && scalar_dtype(e->u.call.args[1]->type, dt);
}

/* Whether e is a call of the global whose body is being compiled. */
static bool is_self_call(const FnCtx *ctx, const IrTExpr *e) {
  return ctx->fn && e->kind == IR_EXPR_CALL && e->u.call.callee->kind == IR_EXPR_GLOBAL &&
         !e->u.call.callee->u.def->value && !e->u.call.callee->dynamic &&
         global_fn(ctx->prog, e->u.call.callee->u.def) == ctx->fn;
}

typedef struct {
  const FnCtx *ctx;
  bool found;
} SelfCallSearch;

static void find_self_call(IrTExpr *e, void *env) {
  SelfCallSearch *s = env;
  if (s->found) return;
  if (is_self_call(s->ctx, e)) s->found = true;
  else ir_texpr_each_child(e, find_self_call, s);
}

/* Whether the constructor call e, in tail position, builds its value with a tail call in its last
 * field (rt_exec_ctor_hole): the field is a call of the function itself, with no check after it,
 * and no other field calls it (a tree's two halves: the recursion is as deep as the other half's
 * anyway, and a plain call costs binary-trees 2.5% fewer instructions). */
static bool ctor_hole(const FnCtx *ctx, const IrTExpr *e) {
  int n = e->u.call.nargs;
  const IrTExpr *last = e->u.call.args[n - 1];
  if (!is_self_call(ctx, last) || last->check) return false;
  SelfCallSearch s = {ctx, false};
  for (int i = 0; i < n - 1; i++) find_self_call(e->u.call.args[i], &s);
  return !s.found;
}

static RtCode *compile_call(FnCtx *ctx, const IrTExpr *e, bool tail) {
  const IrTExpr *f = e->u.call.callee;
  int n = e->u.call.nargs;
  if (f->kind == IR_EXPR_OP) {
    IrDType dt;
    bool scalar = scalar_operator_call(e, &dt);
    if (scalar && (f->u.op == IR_OP_LOGICAL_AND || f->u.op == IR_OP_LOGICAL_OR)) return short_circuit(ctx, e, tail);
    RtCode **operands = compile_list(ctx, n, e->u.call.args); /* once: compiling twice is exponential in the nesting */
    if (scalar) {
      RtCode *special = scalar_binary(f->u.op, dt, operands[0], operands[1], e->src);
      if (special) return special;
    }
    CodeCall *k = node(sizeof *k, rt_exec_op, e->src);
    k->op = f->u.op;
    /* A result whose type was assumed (its relation left open) is checked after the kernel, with
     * the shape variables' values: not by the debug builds' check of a kernel against its type. */
    const IrTCheck *assumed = e->u.call.result_check;
    k->site = (RtSite){.expr = e->src,
                       .attrs = e->u.call.attrs ? e->u.call.attrs : &ir_op_attrs_none,
                       .type = assumed ? NULL : e->type};
    k->n = n;
    k->args = operands;
    return checked(&k->h, assumed, e->src);
  }
  if (f->kind == IR_EXPR_CTOR && f->dynamic) { /* its checked entry, a function */
    CodeCall *k = node(sizeof *k, rt_exec_call_closure, e->src);
    k->callee = compile(ctx, f, false);
    k->n = n;
    k->args = compile_list(ctx, n, e->u.call.args);
    return &k->h;
  }
  if (f->kind == IR_EXPR_CTOR) {
    if (n == 0) return constant(ctor_value(ctx->prog, f->u.ctor), e->src); /* `Nil()`: one value, made once */
    bool hole = tail && ctor_hole(ctx, e);
    RtRun fixed = hole ? rt_exec_ctor_hole : rt_exec_ctor_fixed(n);
    CodeCall *k = node(sizeof *k, fixed ? fixed : rt_exec_ctor, e->src);
    k->ctor = ctor_layout(ctx->prog, f->u.ctor);
    k->n = n;
    k->args = compile_values(ctx, n - hole, n, e->u.call.args);
    if (hole) k->args[n - 1] = compile(ctx, e->u.call.args[n - 1], true);
    return &k->h;
  }
  const RtFn *direct = f->kind == IR_EXPR_GLOBAL && !f->u.def->value ? global_fn(ctx->prog, f->u.def) : NULL;
  if (direct && f->dynamic) direct = checked_global(ctx->prog, f->u.def);
  bool can_tail = tail && n <= RT_MAX_TAIL_ARGS;
  bool self = tail && is_self_call(ctx, e);
  RtRun run = self     ? rt_exec_tail_self
               : direct ? (can_tail ? rt_exec_tail_global : rt_exec_call_global)
                        : (can_tail ? rt_exec_tail_closure : rt_exec_call_closure);
  RtRun fixed = self                                     ? rt_exec_tail_self_fixed(n)
                : direct && run == rt_exec_call_global   ? rt_exec_call_global_fixed(n, direct->nslots)
                : !direct && run == rt_exec_call_closure ? rt_exec_call_closure_fixed(n)
                                                         : NULL;
  CodeCall *k = node(sizeof *k, fixed ? fixed : run, e->src);
  if (direct) k->fn = direct;
  else k->callee = compile(ctx, f, false);
  k->n = n;
  k->args = compile_list(ctx, n, e->u.call.args);
  return &k->h;
}

/* The code that runs `then` when the condition c holds and `els` when it does not, both compiled
 * already (a node may have two parents: compiled code is a tree with shared branches). A comparison
 * of scalars is one node that compares and branches (CodeBranch: `if (%n < 2)` makes no boolean);
 * `a && b`, `a || b` and `not a` on scalars branch on a, then on b, so that every comparison in
 * them branches directly; any other condition is a CodeIf. */
static RtCode *compile_cond(FnCtx *ctx, const IrTExpr *c, RtCode *then, RtCode *els, const IrExpr *at) {
  IrDType dt;
  if (scalar_operator_call(c, &dt)) {
    IrOpId op = c->u.call.callee->u.op;
    IrTExpr *const *args = c->u.call.args;
    if (op == IR_OP_LOGICAL_AND) return compile_cond(ctx, args[0], compile_cond(ctx, args[1], then, els, at), els, at);
    if (op == IR_OP_LOGICAL_OR) return compile_cond(ctx, args[0], then, compile_cond(ctx, args[1], then, els, at), at);
    if (rt_exec_scalar_branch(op, dt, OPERANDS_NODES)) {
      RtCode *a = compile(ctx, args[0], false), *b = compile(ctx, args[1], false);
      CodeBranch *k = node(sizeof *k, rt_exec_scalar_branch(op, dt, operand_form(a, b)), c->src);
      read_operands(&k->ops, a, b);
      k->right = b;
      k->then = then;
      k->els = els;
      return &k->ops.h;
    }
  }
  if (c->kind == IR_EXPR_CALL && c->u.call.callee->kind == IR_EXPR_OP && c->u.call.callee->u.op == IR_OP_LOGICAL_NOT &&
      c->u.call.nargs == 1 && scalar_dtype(c->u.call.args[0]->type, &dt))
    return compile_cond(ctx, c->u.call.args[0], els, then, at);
  CodeIf *k = node(sizeof *k, rt_exec_if, at);
  k->cond = compile(ctx, c, false);
  k->then = then;
  k->els = els;
  return &k->h;
}

static RtCode *pair(RtRun run, const IrExpr *e, RtCode *a, RtCode *b, int index) {
  CodePair *k = node(sizeof *k, run, e);
  k->a = a;
  k->b = b;
  k->index = index;
  return &k->h;
}

static RtCode *lazy(RtRun run, const IrExpr *e) { return &((CodeLazy *)node(sizeof(CodeLazy), run, e))->h; }

static RtCode *compile_node(FnCtx *ctx, const IrTExpr *e, bool tail);

/* e's code; checked when the checker said so (then not in tail position: the check comes after). */
static RtCode *compile(FnCtx *ctx, const IrTExpr *e, bool tail) {
  if (!e->check) return compile_node(ctx, e, tail);
  return checked(compile_node(ctx, e, false), e->check, e->src);
}

static RtCode *compile_node(FnCtx *ctx, const IrTExpr *e, bool tail) {
  const IrExpr *src = e->src;
  switch (e->kind) {
  case IR_EXPR_LOCAL: {
    CodeVar *k = node(sizeof *k, e->u.var.captured ? rt_exec_env : rt_exec_slot, src);
    k->index = e->u.var.index;
    return entry_wrapped(&k->h, e, e->scheme);
  }
  case IR_EXPR_GLOBAL: {
    const RtFn *fn = global_fn(ctx->prog, e->u.def);
    if (fn && e->u.def->value) { /* a session binding, whose value a later item may set */
      CodeBinding *k = node(sizeof *k, rt_exec_binding, src);
      k->binding = fn;
      return entry_wrapped(&k->h, e, e->u.def->scheme);
    }
    if (fn && e->dynamic) fn = checked_global(ctx->prog, e->u.def);
    return constant(fn ? fn->value : rt_unit(), src);
  }
  case IR_EXPR_LIT: {
    IrDType dt;
    if (!scalar_dtype(e->type, &dt)) {
      UNREACHABLE("a literal whose type is no scalar"); /* the checker gave every literal a dtype */
      dt = IR_DTYPE(IR_DT_INT, 32);
    }
    return constant(rt_scalar_from_lit(&src->u.lit, dt), src);
  }
  case IR_EXPR_TENSOR: {
    CodeLazy *k = (CodeLazy *)lazy(rt_exec_tensor_literal, src);
    k->dt = e->type->u.tensor.dtype->u.dtype;
    return &k->h;
  }
  case IR_EXPR_FILL: return lazy(rt_exec_fill, src);
  case IR_EXPR_TUPLE: {
    CodeList *k = node(sizeof *k, rt_exec_tuple, src);
    k->n = e->u.tuple.n;
    k->items = compile_list(ctx, k->n, e->u.tuple.items);
    return &k->h;
  }
  case IR_EXPR_PROJ: return pair(rt_exec_proj, src, compile(ctx, e->u.proj.tuple, false), NULL, e->u.proj.index);
  case IR_EXPR_LET: return compile_let(ctx, e, tail);
  case IR_EXPR_FN: return compile_fn(ctx, e, "fn");
  case IR_EXPR_CALL:
    if (e->u.call.result_check && e->u.call.callee->kind != IR_EXPR_OP) /* an operator's checks its kernel's */
      return checked(compile_call(ctx, e, false), e->u.call.result_check, src);
    return compile_call(ctx, e, tail);
  case IR_EXPR_OP: {
    IrOpId op = e->u.op;
    int nargs = e->type && e->type->kind == IR_TYPE_FUNC ? e->type->u.func.nargs : ir_ops[op].min_args;
    return constant(native_fn(ir_ops[op].name, nargs, rt_exec_native_op, (void *)(intptr_t)op)->value, src);
  }
  case IR_EXPR_CTOR:
    return constant(e->dynamic ? checked_ctor(ctx->prog, e->u.ctor) : ctor_value(ctx->prog, e->u.ctor), src);
  case IR_EXPR_IF:
    return compile_cond(ctx, e->u.ifx.cond, compile(ctx, e->u.ifx.then, tail), compile(ctx, e->u.ifx.els, tail), src);
  case IR_EXPR_MATCH: return compile_match(ctx, e, tail);
  case IR_EXPR_REF: return pair(rt_exec_ref, src, compile(ctx, e->u.ref.a, false), NULL, 0);
  case IR_EXPR_REF_READ: return pair(rt_exec_ref_read, src, compile(ctx, e->u.ref.a, false), NULL, 0);
  case IR_EXPR_REF_WRITE:
    return pair(rt_exec_ref_write, src, compile(ctx, e->u.ref.a, false), compile(ctx, e->u.ref.b, false), 0);
  case IR_EXPR_FREE: return lazy(rt_exec_free, src);
  case IR_EXPR_META: return lazy(rt_exec_meta, src);
  case IR_EXPR_HOLE: /* a program with holes fails checking: it is never compiled */
    UNREACHABLE("a hole in a checked program");
    return constant(rt_unit(), src);
  }
  UNREACHABLE("an expression of no kind");
  return constant(rt_unit(), src);
}

/* ---------------------------------------------------------------- programs */

RtProgram *rt_program_new(void) { return IR_NEW(RtProgram); }

void rt_compile_program(RtProgram *p, const IrTProgram *prog) {
  /* Every definition's function exists before any body is compiled, so mutually recursive
   * definitions call each other directly. */
  for (int i = 0; i < prog->nitems; i++) {
    const IrTDef *def = prog->items[i].def;
    if (!def) continue;
    while (p->globals.len <= def->id) IR_VEC_PUSH(p->globals, NULL);
    if (def->value) { /* a session binding: its value comes when its item has run (rt_set_value) */
      p->globals.items[def->id] = new_fn(ir_printf("%%%s", def->name->name), 0);
      continue;
    }
    RtFn *fn = new_fn(ir_printf("@%s", def->name->name), def->fn->nparams);
    fn->nslots = def->fn->nslots; /* known now: calls compiled before its body size their frames */
    fn->value = closure_value(fn);
    p->globals.items[def->id] = fn;
  }
  for (int i = 0; i < prog->nitems; i++) {
    const IrTDef *def = prog->items[i].def;
    if (!def || def->value) continue;
    RtFn *fn = p->globals.items[def->id];
    FnCtx ctx = {.prog = p, .owner = fn->name, .fn = fn};
    fn->body = compile(&ctx, def->fn->body, true);
    fn->nslots = def->fn->nslots;
  }
}

/* The top level's calls are not tail calls: each is the user's call, which the call chain of an
 * error keeps (a tail call runs in its caller's record, which the top level has not). */
RtFn *rt_compile_expr(RtProgram *p, const IrTFn *e) {
  FnCtx ctx = {.prog = p};
  RtFn *fn = new_fn("top level", 0);
  fn->body = compile(&ctx, e->body, false);
  fn->nslots = e->nslots;
  return fn;
}

bool rt_eval(RtProgram *p, const IrTFn *e, RtValue *out, IrDiags *diags) {
  return rt_exec_run(rt_compile_expr(p, e), out, diags);
}

void rt_set_value(RtProgram *p, const IrTDef *def, RtValue v) {
  ASSERT(def->value);
  RtFn *fn = (RtFn *)global_fn(p, def);
  if (fn) fn->value = v;
}

void rt_forget(RtProgram *p, const IrTDef *def) {
  ASSERT(def->id < p->globals.len);
  if (def->id >= p->globals.len) return;
  if (p->globals.items[def->id]) ir_ptrmap_remove(&p->checked, p->globals.items[def->id]);
  p->globals.items[def->id] = NULL;
}

void rt_forget_ctor(RtProgram *p, const IrTCtor *k) {
  ir_ptrmap_remove(&p->ctors, k);
  ir_ptrmap_remove(&p->ctor_values, k);
  ir_ptrmap_remove(&p->checked, k);
}

RtValue rt_value_of(const RtProgram *p, const IrTDef *def) {
  const RtFn *fn = global_fn(p, def);
  return fn ? fn->value : rt_unit();
}
