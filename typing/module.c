/* The module and the checking of a chunk: data declarations first (so ADTs may refer to each
 * other), then the definitions in dependency order — strongly connected groups of the call graph
 * (Tarjan), each inferred together and generalized — then the top-level expressions. Each of these
 * units fails alone, and checking goes on with the units that do not use what failed (issue 31).
 * Nothing joins the module until the whole chunk has checked, so a failed chunk changes nothing. */
#include "typing/check.h"

#include <string.h>

/* ---------------------------------------------------------------- the module */

TyModule *ty_module_new(void) { return IR_NEW(TyModule); }

const IrTDef *ty_global_def(const TyModule *m, Sym name) { return ir_symmap_get(&m->globals, name); }

IrType *ty_global_type(const TyModule *m, Sym name) {
  const IrTDef *d = ty_global_def(m, name);
  return d ? d->scheme : NULL;
}

/* A declaration's IrTCtors are one array, as its IrCtors are: the newest declaration of its name
 * finds it, and so does any of its constructors that is still the newest of its name. The module
 * keeps no other (a declaration that no name reaches is garbage once no code uses it). */
IrType *ty_ctor_scheme(const TyModule *m, const IrCtor *k) {
  const IrData *d = k->adt;
  int index = (int)(k - d->ctors);
  if (ty_module_adt(m, d->name) == d) return ((const IrTCtor *)ir_symmap_get(&m->adt_ctors, d->name))[index].scheme;
  for (int j = 0; j < d->nctors; j++) {
    const IrTCtor *t = ir_symmap_get(&m->ctors, d->ctors[j].name);
    if (t && t->src == &d->ctors[j]) return t[index - j].scheme;
  }
  return NULL;
}

const IrTCtor *ty_module_ctor(const TyModule *m, Sym name) { return ir_symmap_get(&m->ctors, name); }

int ty_ctor_arity(void *module, Sym name) {
  const IrTCtor *k = ir_symmap_get(&((TyModule *)module)->ctors, name);
  return k ? k->src->nargs : -1;
}

/* ---------------------------------------------------------------- dependency order */

typedef IR_VEC(TyDef *) DefList;

typedef struct {
  TyCheck *c;
  DefList *out;
} RefsEnv;

static void refs_in(const IrExpr *e, void *env);

/* The chunk's definitions that e refers to. */
static void refs_of(TyCheck *c, const IrExpr *e, DefList *out) {
  RefsEnv env = {c, out};
  refs_in(e, &env);
}

static void refs_in(const IrExpr *e, void *p) {
  RefsEnv *env = p;
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) refs_in(e->u.let.value, env); /* long chains: a loop */
  if (e->kind == IR_EXPR_GLOBAL) {
    TyDef *d = ir_symmap_get(&env->c->chunk_defs, e->u.name);
    if (d) IR_VEC_PUSH(*env->out, d);
  }
  ir_expr_each_child(e, refs_in, env);
}

typedef struct {
  TyCheck *c;
  DefList stack;
  int counter;
  IR_VEC(DefList) groups; /* in the order Tarjan finds them: dependencies first */
} Tarjan;

static void strong_connect(Tarjan *t, TyDef *v) {
  v->index = v->low = ++t->counter;
  IR_VEC_PUSH(t->stack, v);
  v->on_stack = true;
  DefList succ = {0};
  refs_of(t->c, v->item->fn->u.fn.body, &succ);
  for (int i = 0; i < succ.len; i++) {
    TyDef *w = succ.items[i];
    if (!w->index) {
      strong_connect(t, w);
      if (w->low < v->low) v->low = w->low;
    } else if (w->on_stack && w->index < v->low) {
      v->low = w->index;
    }
  }
  if (v->low != v->index) return;
  DefList group = {0};
  TyDef *w;
  do {
    w = t->stack.items[--t->stack.len];
    w->on_stack = false;
    IR_VEC_PUSH(group, w);
  } while (w != v);
  /* Within a group, check in the order written, for messages that read naturally. */
  for (int i = 0; i < group.len; i++)
    for (int j = i + 1; j < group.len; j++)
      if (group.items[j]->item < group.items[i]->item) {
        TyDef *x = group.items[i];
        group.items[i] = group.items[j];
        group.items[j] = x;
      }
  IR_VEC_PUSH(t->groups, group);
}

/* ---------------------------------------------------------------- checking */

/* After generalization nothing may stay open: a relation left now mentions no hole the
 * program could still fill, so it can never be decided. */
static void no_open_relations(TyCheck *c) {
  for (int i = 0; i < c->cx.rels.len; i++) {
    TyRelation *rel = c->cx.rels.items[i];
    if (rel->solved || rel->owned) continue;
    IrSymMap names = {0}; /* one naming of holes across the arguments */
    ty_fail_notes(c, rel->span,
                  TY_NOTES(ir_printf("open: %s", ty_relation_text(&c->cx, rel, &names)),
                           "hint: annotate the types involved so that the relation can be decided"),
                  "cannot infer enough about these types to check %s%s%s", rel->name,
                  rel->op ? " for " : "", rel->op ? ir_printf("`%s`", rel->op) : "");
  }
}

/* Whether two relations are written alike (arguments and attributes). */
static bool same_relation(const IrRel *x, const IrRel *y, IrType *ret) {
  IrType a = {.kind = IR_TYPE_FUNC}, b = {.kind = IR_TYPE_FUNC};
  a.u.func.ret = b.u.func.ret = ret;
  a.u.func.nrels = b.u.func.nrels = 1;
  a.u.func.rels = (IrRel *)x;
  b.u.func.rels = (IrRel *)y;
  return ir_type_equal(&a, &b);
}

/* A scheme with the relations its `where` clause declared (assumed in the body, so not among
 * the relations generalization finds open), each once. */
static IrType *with_declared_relations(IrType *scheme, const TyHeader *h) {
  if (scheme->kind != IR_TYPE_FUNC) return scheme;
  IrType *f = ty_copy_node(scheme);
  IrRel *rels = IR_NEW_ARRAY(IrRel, f->u.func.nrels + h->nrels);
  int n = f->u.func.nrels;
  ir_copy(rels, f->u.func.rels, sizeof(IrRel) * (size_t)n);
  for (int i = 0; i < h->nrels; i++) {
    bool seen = false;
    for (int k = 0; k < f->u.func.nrels && !seen; k++) seen = same_relation(&rels[k], &h->rels[i], f->u.func.ret);
    if (!seen) rels[n++] = h->rels[i];
  }
  f->u.func.nrels = n;
  f->u.func.rels = rels;
  return f;
}

static const char *relation_text(const IrRel *r) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_printf(&b, "%s(", r->name->name);
  for (int i = 0; i < r->nargs; i++) ir_buf_printf(&b, "%s%s", i ? ", " : "", ir_type_str(r->args[i]));
  for (int i = 0; i < r->nattrs; i++) {
    ir_buf_printf(&b, "%s%s=", r->nargs || i ? ", " : "", r->attrs[i].key->name);
    ir_print_attr_value(&b, &r->attrs[i].val);
  }
  ir_buf_putc(&b, ')');
  return b.data;
}

/* A definition that declares a `where` clause states every relation its type has: one that its
 * body needs beyond them (not the declared ones, nor Broadcast's with its arguments swapped, which
 * the solver takes as given) is an error that names it, as GHC's "could not deduce" (without a where
 * clause, relay adds it to the type). `scheme` has the body's relations, before the declared ones. */
static void check_entailed(TyCheck *c, const char *name, IrType *scheme, const TyHeader *h) {
  if (scheme->kind != IR_TYPE_FUNC) return;
  for (int k = 0; k < scheme->u.func.nrels; k++) {
    const IrRel *need = &scheme->u.func.rels[k];
    bool given = false;
    for (int i = 0; i < h->nrels && !given; i++) given = same_relation(need, &h->rels[i], scheme->u.func.ret);
    if (given) continue;
    IrBuf gives;
    ir_buf_init(&gives);
    for (int i = 0; i < h->nrels; i++) ir_buf_printf(&gives, "%s%s", i ? ", " : "", relation_text(&h->rels[i]));
    ty_fail_notes(c, need->span,
                  TY_NOTES(ir_printf("the where clause gives %s", gives.data),
                           "hint: add it to the where clause, or change the body"),
                  "the body of `@%s` needs %s, which its where clause does not give", name, relation_text(need));
  }
}

static bool mentions_var(const IrType *t);

static void mentions_var_child(IrType **slot, void *found) {
  if (!*(bool *)found && mentions_var(*slot)) *(bool *)found = true;
}

static bool mentions_var(const IrType *t) {
  if (t->kind == IR_TYPE_VAR) return true;
  bool found = false;
  ty_each_child((IrType *)t, mentions_var_child, &found);
  return found;
}

/* A scheme with the relations its body left open about its own shape variables (relations
 * rels.items[from .. to - 1], those the body made): `topk(%x, k=3)` of a Tensor[(n), float32]
 * holds only if n >= 3, which no n of the body can decide. Each use checks it with the use's n, as
 * a `where` clause (TVM decides nothing there, and the kernel failed at run time). A relation open
 * about holes is generalization's; one about nothing open is a bug of its own (no_open_relations). */
static IrType *with_residual_relations(TyCheck *c, IrType *scheme, int from, int to) {
  if (scheme->kind != IR_TYPE_FUNC) return scheme;
  IR_VEC(IrRel) rels = {0};
  for (int r = from; r < to; r++) {
    TyRelation *rel = c->cx.rels.items[r];
    if (rel->solved || rel->owned) continue;
    TyIdList holes = {0};
    bool vars = false;
    IrRel ir = {ir_sym(rel->name), rel->nargs, IR_NEW_ARRAY(IrType *, rel->nargs), rel->span, rel->nattrs, rel->written,
                rel->attrs, rel->id + 1};
    for (int i = 0; i < rel->nargs; i++) {
      ty_holes_of(&c->cx, rel->args[i], &holes);
      ir.args[i] = ty_resolve(&c->cx, rel->args[i]);
      vars |= mentions_var(ir.args[i]);
    }
    if (holes.len || !vars) continue;
    rel->owned = true;
    IR_VEC_PUSH(rels, ir);
  }
  if (!rels.len) return scheme;
  IrType *f = ty_copy_node(scheme);
  IrRel *all = IR_NEW_ARRAY(IrRel, f->u.func.nrels + rels.len);
  ir_copy(all, f->u.func.rels, sizeof(IrRel) * (size_t)f->u.func.nrels);
  ir_copy(all + f->u.func.nrels, rels.items, sizeof(IrRel) * (size_t)rels.len);
  f->u.func.rels = all;
  f->u.func.nrels += rels.len;
  return f;
}

/* The types the last group noted in c->seen, as a message shows them, while its context still
 * exists: their holes are its, and the next group's context would read them as its own (a crash
 * in :graph of a definition that failed after other groups had been checked). */
static void name_seen_types(TyCheck *c) {
  IrSymMap names = {0};
  for (int i = 0; i < c->seen_group.len; i++) {
    const void *node = c->seen_group.items[i];
    ir_ptrmap_put(c->seen, node, ty_for_message(&c->cx, ir_ptrmap_get(c->seen, node), &names));
  }
  c->seen_group.len = 0;
}

static void start_group(TyCheck *c) {
  if (c->seen_group.len) name_seen_types(c);
  c->assumed_marked = false;
  ty_ctx_init(&c->cx, c->diags);
  c->cx.level = 1;
  c->literals.len = 0;
}

static void check_group(TyCheck *c, DefList *group) {
  start_group(c);
  c->holes.len = 0;
  TyHeader *headers = IR_NEW_ARRAY(TyHeader, group->len);
  for (int i = 0; i < group->len; i++) {
    TyDef *d = group->items[i];
    const IrExpr *fn = d->item->fn;
    headers[i] = ty_fn_header(c, &fn->u.fn, fn->span, true);
    d->declared = headers[i].complete;
    d->type = d->declared ? ty_header_scheme(&headers[i]) : headers[i].type;
  }
  int *rels_from = IR_NEW_ARRAY(int, group->len + 1); /* the relations each body made */
  for (int i = 0; i < group->len; i++) {
    rels_from[i] = c->cx.rels.len;
    group->items[i]->def->fn = ty_fn_body(c, group->items[i]->item->fn, &headers[i], NULL);
  }
  rels_from[group->len] = c->cx.rels.len;
  ty_solve_or_fail(c);
  ty_default_literals(c);
  c->cx.level = 0;
  int nholes = 0; /* generalized with the group, for their descriptions */
  IrType **hole_types = ty_hole_types(c, &nholes);
  int n = group->len + nholes;
  IrType **types = IR_NEW_ARRAY(IrType *, n), **schemes = IR_NEW_ARRAY(IrType *, n);
  TyParamList *declared = IR_NEW_ARRAY(TyParamList, n);
  for (int i = 0; i < group->len; i++) {
    types[i] = headers[i].type;
    declared[i] = (TyParamList){headers[i].tparams, headers[i].ntparams, headers[i].ntparams};
  }
  for (int i = 0; i < nholes; i++) types[group->len + i] = hole_types[i];
  ty_generalize_group(c, n, types, declared, schemes);
  for (int i = 0; i < group->len; i++) {
    const IrItem *item = group->items[i]->item;
    ty_check_size(c, item->span, schemes[i], true, "`@%s`", item->name->name);
    schemes[i] = with_residual_relations(c, schemes[i], rels_from[i], rels_from[i + 1]);
    if (headers[i].complete && headers[i].nrels) {
      check_entailed(c, item->name->name, schemes[i], &headers[i]);
      schemes[i] = with_declared_relations(schemes[i], &headers[i]);
    }
    group->items[i]->type = group->items[i]->def->scheme = schemes[i];
    group->items[i]->done = true;
  }
  if (!c->holes.len) no_open_relations(c); /* a hole's relations stay open: they describe it */
  c->cx.frozen = true;
  ty_check_literals(c);
  for (int i = 0; i < group->len; i++) ty_annotate(c, group->items[i]->def->fn);
  ty_report_holes(c);
}

/* A top-level expression: inferred, defaulted and generalized (for display: `Nil()` is a
 * List[t1]); its root node's type is that scheme. An expression with `free_var`s is typed as a
 * function of them, in the order they are declared; running it fails at the first. */
static IrTFn *check_expression(TyCheck *c, const IrExpr *e, IrType **type, bool *closed) {
  start_group(c);
  c->free_vars.len = 0;
  c->holes.len = 0;
  IrTFn *fn = ty_toplevel(c, e);
  IrType *t = fn->body->type;
  if (c->free_vars.len) { /* with `free_var`s, a function of them (as TVM's IRModule.from_expr makes) */
    IrType *f = ir_type_new(IR_TYPE_FUNC, (IrSpan){0});
    f->u.func.nargs = c->free_vars.len;
    f->u.func.args = IR_NEW_ARRAY(IrType *, c->free_vars.len);
    for (int i = 0; i < c->free_vars.len; i++) f->u.func.args[i] = c->free_vars.items[i]->type;
    f->u.func.ret = t;
    t = f;
  }
  ty_solve_or_fail(c);
  ty_default_literals(c);
  c->cx.level = 0;
  if (closed) {
    TyIdList holes = {0};
    ty_holes_of(&c->cx, t, &holes);
    *closed = holes.len == 0;
  }
  /* A function literal's own type parameters (`fn<a>(%x : a) { %x }`) come back by their names.
   * The holes' types are generalized with the expression's, for their descriptions. */
  int nholes = 0;
  IrType **hole_types = ty_hole_types(c, &nholes);
  IrType **types = IR_NEW_ARRAY(IrType *, 1 + nholes), **schemes = IR_NEW_ARRAY(IrType *, 1 + nholes);
  TyParamList *declared = IR_NEW_ARRAY(TyParamList, 1 + nholes);
  types[0] = t;
  for (int i = 0; i < nholes; i++) types[1 + i] = hole_types[i];
  ty_generalize_group(c, 1 + nholes, types, declared, schemes);
  IrType *scheme = schemes[0];
  ty_check_size(c, e->span, scheme, true, "this expression");
  if (!c->holes.len) no_open_relations(c); /* a hole's relations stay open: they describe it */
  c->cx.frozen = true;
  ty_check_literals(c);
  ty_annotate(c, fn);
  ty_report_holes(c);
  *type = scheme;
  return fn;
}

/* Whether e is a syntactic value (SML's value restriction): what evaluating cannot allocate a
 * reference in, so that its type may be generalized. */
static bool syntactic_value(const IrExpr *e) {
  switch (e->kind) {
  case IR_EXPR_FN:
  case IR_EXPR_LIT:
  case IR_EXPR_TENSOR:
  case IR_EXPR_FILL:
  case IR_EXPR_LOCAL:
  case IR_EXPR_GLOBAL:
  case IR_EXPR_OP:
  case IR_EXPR_CTOR: return true;
  case IR_EXPR_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      if (!syntactic_value(e->u.tuple.fields[i])) return false;
    return true;
  case IR_EXPR_CALL:
    if (e->u.call.callee->kind != IR_EXPR_CTOR) return false;
    for (int i = 0; i < e->u.call.nargs; i++)
      if (!syntactic_value(e->u.call.args[i])) return false;
    return true;
  default: return false;
  }
}

/* A top-level expression, or a REPL input's `let %x = e` (checked as `let %x = e; %x`). In a REPL
 * input each makes a session binding, `%x` or `%it`, when its type is closed, or it is a
 * syntactic value of a function type (a scheme, instantiated at each use). A `let` whose type is
 * neither is an error; an expression's just binds no `%it`. */
static void check_toplevel(TyCheck *c, IrTItem *ti) {
  const IrItem *it = ti->src;
  bool closed;
  int holes = c->holes_reported;
  ti->expr = check_expression(c, it->expr, &ti->type, &closed);
  if (!c->session || c->holes_reported > holes) return; /* with holes, described: it binds nothing */
  const IrExpr *value = it->kind == IR_ITEM_LET ? it->expr->u.let.value : it->expr;
  bool bindable = closed || (ti->type->kind == IR_TYPE_FUNC && syntactic_value(value));
  if (!bindable && it->kind == IR_ITEM_LET)
    ty_fail_notes(c, it->var.span,
                  TY_NOTES(ir_printf("hint: give `%%%s` a type with no unknown parts: `let %%%s : TYPE = ...`",
                                     it->name->name, it->name->name)),
                  "the type of `%%%s` is not fully known (%s), so later inputs could not use it", it->name->name,
                  ir_type_str(ti->type));
  if (!bindable) return;
  IrTDef *def = ti->def = IR_NEW(IrTDef);
  def->item = it;
  def->name = it->kind == IR_ITEM_LET ? it->name : ir_sym("it");
  def->id = c->m->ndefs++;
  def->scheme = ti->type;
  def->value = true;
  ir_symmap_put(&c->chunk_values, def->name, def);
}

/* ---------------------------------------------------------------- units that fail alone */

/* The state a unit (a data declaration, a definition group, a top-level expression) starts from,
 * put back after one fails halfway. */
static void start_unit(TyCheck *c) {
  c->locals = (IrSymMap){0};
  c->tparams.len = 0;
  c->implicit = NULL;
  c->flexible = NULL;
  c->scope = NULL;
  c->graph_use = NULL;
  c->arg_rel = NULL;
  c->expect_hint = NULL;
  c->holes.len = 0;
  c->free_vars.len = 0;
  c->skipped = false;
}

typedef void (*Unit)(TyCheck *c, void *arg);

/* Checks one unit with a landing place of its own: false when it failed (its error reported) or
 * was skipped (c->skipped: it used a name that failed, and what it reported is taken back). The
 * types it noted in c->seen stay there when it stopped, or with c->keep_seen. */
static bool attempt(TyCheck *c, Unit unit, void *arg) {
  jmp_buf here, *outer = c->fail;
  IrDiag *const last = c->diags->last;
  const int errors = c->diags->errors, warnings = c->diags->warnings;
  start_unit(c);
  c->fail = &here;
  if (setjmp(here)) {
    c->fail = outer;
    if (c->skipped) { /* nothing of its own to say */
      if (last) last->next = NULL;
      else c->diags->first = NULL;
      c->diags->last = last;
      c->diags->errors = errors, c->diags->warnings = warnings;
    }
    return false;
  }
  unit(c, arg);
  c->fail = outer;
  if (c->seen && !c->keep_seen) { /* its types are in its typed form */
    for (int i = 0; i < c->seen_group.len; i++) ir_ptrmap_remove(c->seen, c->seen_group.items[i]);
    c->seen_group.len = 0;
  }
  return true;
}

static void mark(IrSymMap *names, Sym name) { ir_symmap_put(names, name, (void *)1); }

/* An item that failed (skipped: its unit stopped at a name that failed): what later units must
 * not use, and what the typed program says. */
static void failed_item(TyCheck *c, IrTItem *ti, bool skipped) {
  const IrItem *it = ti->src;
  ti->failed = true;
  ti->skipped = skipped;
  if (it->kind == IR_ITEM_DEF) {
    mark(&c->failed_defs, it->name);
    if (ti->def) ti->def->fn = NULL, ti->def->scheme = NULL;
  } else if (it->kind == IR_ITEM_DATA) {
    mark(&c->failed_adts, it->name);
    for (int k = 0; k < it->data.nctors; k++) {
      mark(&c->failed_ctors, it->data.ctors[k].name);
      if (ti->ctors) ti->ctors[k].scheme = NULL;
    }
  } else {
    ti->expr = NULL;
    ti->type = NULL;
    ti->def = NULL;
    if (c->session) mark(&c->failed_values, it->kind == IR_ITEM_LET ? it->name : ir_sym("it"));
  }
}

/* The items of a program that did not parse: their names are known, and what uses them is skipped. */
static void note_broken(TyCheck *c, const IrProgram *prog) {
  for (int i = 0; i < prog->nbroken; i++) {
    const IrBroken *b = &prog->broken[i];
    if (b->kind == IR_ITEM_DEF && b->name) mark(&c->failed_defs, b->name);
    else if (b->kind == IR_ITEM_DEF) c->unnamed_def = true;
    else if (b->kind == IR_ITEM_DATA) {
      c->broken_data = true; /* its constructors are not all known */
      if (b->name) mark(&c->failed_adts, b->name);
    } else if (b->kind == IR_ITEM_LET && b->name) {
      mark(&c->failed_values, b->name);
    }
  }
}

static void data_unit(TyCheck *c, void *arg) {
  IrTItem *ti = arg;
  ty_check_data(c, &ti->src->data, ti->ctors);
}

static void group_unit(TyCheck *c, void *arg) { check_group(c, arg); }

static void toplevel_unit(TyCheck *c, void *arg) { check_toplevel(c, arg); }

/* Checks a chunk unit by unit: data declarations first (each alone), then the definition groups in
 * dependency order, then the top-level expressions; a unit that uses a name whose unit failed is
 * skipped. tp->failed when anything failed (a hole too: a program with holes does not run). */
static IrTProgram *check_items(TyCheck *c, const IrProgram *prog, bool expressions) {
  IrTProgram *tp = IR_NEW(IrTProgram);
  tp->src = prog;
  tp->nitems = prog->nitems;
  tp->items = IR_NEW_ARRAY(IrTItem, prog->nitems > 0 ? prog->nitems : 1);
  note_broken(c, prog);
  tp->failed = prog->nbroken > 0;
  /* Data declarations see each other (the failed ones too): each fails alone, and what uses a
   * failed one is skipped from the definitions on. A second declaration of a name, or of a
   * constructor's, fails: which one a use means is unknown, so the name fails too. */
  for (int i = 0; i < prog->nitems; i++) {
    const IrItem *it = &prog->items[i];
    IrTItem *ti = &tp->items[i];
    ti->src = it;
    if (it->kind != IR_ITEM_DATA) continue;
    ti->ctors = IR_NEW_ARRAY(IrTCtor, it->data.nctors > 0 ? it->data.nctors : 1);
    for (int k = 0; k < it->data.nctors; k++) ti->ctors[k].src = &it->data.ctors[k];
    if (ir_symmap_get(&c->chunk_adts, it->name) || ir_symmap_get(&c->failed_adts, it->name)) {
      if (ir_symmap_get(&c->chunk_adts, it->name)) /* else the first did not parse, which was said */
        ir_diag_add(c->diags, IR_DIAG_TYPE, it->span, "data type `%s` is defined twice here", it->name->name);
      ti->failed = true;
      continue;
    }
    ir_symmap_put(&c->chunk_adts, it->name, (void *)&it->data);
    for (int k = 0; k < it->data.nctors; k++) {
      const IrCtor *ctor = &it->data.ctors[k];
      if (ir_symmap_get(&c->chunk_ctors, ctor->name)) {
        ir_diag_add(c->diags, IR_DIAG_TYPE, ctor->span, "constructor `%s` is defined twice here", ctor->name->name);
        ti->failed = true;
        continue;
      }
      ir_symmap_put(&c->chunk_ctors, ctor->name, &ti->ctors[k]);
    }
  }
  for (int i = 0; i < prog->nitems && !c->stopped; i++)
    if (prog->items[i].kind == IR_ITEM_DATA && !tp->items[i].failed && !attempt(c, data_unit, &tp->items[i]))
      tp->items[i].failed = true, tp->items[i].skipped = c->skipped;
  for (int i = 0; i < prog->nitems; i++)
    if (tp->items[i].failed) failed_item(c, &tp->items[i], tp->items[i].skipped), tp->failed = true;

  DefList defs = {0};
  for (int i = 0; i < prog->nitems; i++) {
    const IrItem *it = &prog->items[i];
    if (it->kind != IR_ITEM_DEF) continue;
    if (ir_symmap_get(&c->chunk_defs, it->name) || ir_symmap_get(&c->failed_defs, it->name)) {
      if (ir_symmap_get(&c->chunk_defs, it->name)) /* else the first did not parse, which was said */
        ir_diag_add(c->diags, IR_DIAG_TYPE, it->span, "`@%s` is defined twice here", it->name->name);
      failed_item(c, &tp->items[i], false); /* the first is checked, but no use of the name is */
      tp->failed = true;
      continue;
    }
    TyDef *d = IR_NEW(TyDef);
    d->item = it;
    d->def = tp->items[i].def = IR_NEW(IrTDef);
    d->def->item = it;
    d->def->name = it->name;
    d->def->id = c->m->ndefs++; /* a chunk that fails leaves a gap in the numbering, nothing else */
    ir_symmap_put(&c->chunk_defs, it->name, d);
    IR_VEC_PUSH(defs, d);
  }
  Tarjan t = {.c = c};
  for (int i = 0; i < defs.len; i++)
    if (!defs.items[i]->index) strong_connect(&t, defs.items[i]);
  for (int g = 0; g < t.groups.len && !c->stopped; g++) {
    DefList *group = &t.groups.items[g];
    if (attempt(c, group_unit, group)) continue;
    tp->failed = true;
    for (int i = 0; i < group->len; i++) failed_item(c, &tp->items[group->items[i]->item - prog->items], c->skipped);
  }

  for (int i = 0; expressions && i < prog->nitems && !c->stopped; i++) {
    IrTItem *ti = &tp->items[i];
    if ((ti->src->kind == IR_ITEM_EXPR || ti->src->kind == IR_ITEM_LET) && !attempt(c, toplevel_unit, ti)) {
      failed_item(c, ti, c->skipped);
      tp->failed = true;
    }
  }
  if (c->seen_group.len) name_seen_types(c); /* while the last unit's context is there */
  if (c->holes_reported || c->stopped) tp->failed = true; /* described: a program with holes does not run */
  ir_diags_sort(c->diags);
  return tp;
}

static IrTProgram *check_chunk(TyModule *m, const IrProgram *prog, IrDiags *diags, bool expressions) {
  TyCheck c = {.m = m, .diags = diags, .session = prog->session};
  IrTProgram *tp = check_items(&c, prog, expressions);
  return tp->failed ? NULL : tp;
}


void ty_commit(TyModule *m, const IrTProgram *tp) {
  size_t ndefs = 0, nadts = 0, nctors = 0, nvalues = 0;
  for (int i = 0; i < tp->nitems; i++) {
    const IrItem *it = tp->items[i].src;
    if (it->kind == IR_ITEM_DATA) nadts++, nctors += (size_t)it->data.nctors;
    else if (it->kind == IR_ITEM_DEF) ndefs++;
    else if (tp->items[i].def) nvalues++; /* bound later (ty_bind_value), which must not allocate */
  }
  /* Room first (this may run out of memory, leaving the module as it was), then no allocation. */
  ir_symmap_reserve(&m->adts, nadts);
  ir_symmap_reserve(&m->ctors, nctors);
  ir_symmap_reserve(&m->adt_ctors, nadts);
  ir_symmap_reserve(&m->globals, ndefs);
  ir_symmap_reserve(&m->values, nvalues);
  IR_VEC_RESERVE(m->bindings, (int)nvalues);
  for (int i = 0; i < tp->nitems; i++) {
    const IrTItem *ti = &tp->items[i];
    const IrItem *it = ti->src;
    if (it->kind == IR_ITEM_DATA) {
      ir_symmap_put(&m->adts, it->name, (void *)&it->data);
      ir_symmap_put(&m->adt_ctors, it->name, ti->ctors);
      for (int k = 0; k < it->data.nctors; k++) ir_symmap_put(&m->ctors, it->data.ctors[k].name, &ti->ctors[k]);
    } else if (it->kind == IR_ITEM_DEF) {
      ir_symmap_put(&m->globals, it->name, ti->def);
    }
  }
}

struct TyNames {
  IrSymMap globals, adts, ctors, adt_ctors;
};

TyNames *ty_names_save(const TyModule *m) {
  TyNames *n = IR_NEW(TyNames);
  *n = (TyNames){ir_ptrmap_copy(&m->globals), ir_ptrmap_copy(&m->adts), ir_ptrmap_copy(&m->ctors),
                 ir_ptrmap_copy(&m->adt_ctors)};
  return n;
}

void ty_names_restore(TyModule *m, const TyNames *saved) {
  TyNames copy = {ir_ptrmap_copy(&saved->globals), ir_ptrmap_copy(&saved->adts), ir_ptrmap_copy(&saved->ctors),
                  ir_ptrmap_copy(&saved->adt_ctors)};
  m->globals = copy.globals;
  m->adts = copy.adts;
  m->ctors = copy.ctors;
  m->adt_ctors = copy.adt_ctors;
}

const IrTDef *ty_names_global(const TyNames *n, Sym name) { return ir_symmap_get(&n->globals, name); }
const IrTCtor *ty_names_ctor(const TyNames *n, Sym name) { return ir_symmap_get(&n->ctors, name); }

/* Gives name in map back what `before` had under it, or removes it. */
static void put_back(IrSymMap *map, const IrSymMap *before, Sym name) {
  void *was = ir_symmap_get(before, name);
  if (was) ir_symmap_put(map, name, was);
  else ir_ptrmap_remove(map, name);
}

void ty_unload(TyModule *m, const IrTProgram *prog, const TyNames *before) {
  for (int i = 0; i < prog->nitems; i++) {
    const IrTItem *ti = &prog->items[i];
    const IrItem *it = ti->src;
    if (it->kind == IR_ITEM_DEF && ir_symmap_get(&m->globals, it->name) == ti->def) put_back(&m->globals, &before->globals, it->name);
    if (it->kind != IR_ITEM_DATA) continue;
    if (ir_symmap_get(&m->adts, it->name) == &it->data) {
      put_back(&m->adts, &before->adts, it->name);
      put_back(&m->adt_ctors, &before->adt_ctors, it->name);
    }
    for (int k = 0; k < it->data.nctors; k++)
      if (ir_symmap_get(&m->ctors, it->data.ctors[k].name) == &ti->ctors[k])
        put_back(&m->ctors, &before->ctors, it->data.ctors[k].name);
  }
}

IrTProgram *ty_check_program(TyModule *m, const IrProgram *prog, IrDiags *diags) { return check_chunk(m, prog, diags, true); }

/* The types c->seen noted before a checking error, as its message would show them. */
static void partial_types(TyCheck *c, IrPtrMap *out) {
  IrSymMap names = {0}; /* one naming of the unknown parts, as in one message */
  for (size_t i = 0; i < c->seen->cap; i++)
    if (c->seen->keys[i] && c->seen->values[i])
      ir_ptrmap_put(out, c->seen->keys[i], ty_for_message(&c->cx, c->seen->values[i], &names));
}

IrTProgram *ty_check_program_all(TyModule *m, const IrProgram *prog, IrDiags *diags) {
  TyCheck c = {.m = m, .diags = diags, .session = prog->session, .seen = IR_NEW(IrPtrMap)};
  IrTProgram *tp = check_items(&c, prog, true);
  tp->partial = IR_NEW(IrPtrMap);
  partial_types(&c, tp->partial);
  return tp;
}

IrPtrMap *ty_partial_types(TyModule *m, const IrProgram *prog) {
  IrDiags diags = {0};
  IrPtrMap *types = IR_NEW(IrPtrMap);
  TyCheck c = {.m = m, .diags = &diags, .session = prog->session, .seen = IR_NEW(IrPtrMap), .keep_seen = true};
  check_items(&c, prog, true);
  partial_types(&c, types);
  return types;
}

void ty_bind_value(TyModule *m, const IrTDef *def) {
  ASSERT(def->value && m->bindings.len < m->bindings.cap); /* room made at ty_commit */
  const IrTDef *old = ir_symmap_get(&m->values, def->name);
  for (int i = 0; old && i < m->bindings.len; i++) /* the list keeps the newest of each name only */
    if (m->bindings.items[i] == old) {
      memmove(&m->bindings.items[i], &m->bindings.items[i + 1], sizeof(old) * (size_t)(m->bindings.len - i - 1));
      m->bindings.len--;
      break;
    }
  IR_VEC_PUSH(m->bindings, def);
  ir_symmap_put(&m->values, def->name, (void *)def);
}

int ty_bindings(const TyModule *m, const IrTDef *const **out) {
  *out = m->bindings.items;
  return m->bindings.len;
}

const IrTDef *ty_binding(const TyModule *m, Sym name) { return ir_symmap_get(&m->values, name); }

IrTProgram *ty_check_definitions(TyModule *m, const IrProgram *prog, IrDiags *diags) {
  return check_chunk(m, prog, diags, false);
}

const IrData *ty_module_adt(const TyModule *m, Sym name) { return ir_symmap_get(&m->adts, name); }

const char *ty_describe_kind(TyModule *m, IrType *written, IrDiags *diags) {
  TyCheck c = {.m = m, .diags = diags};
  jmp_buf fail;
  c.fail = &fail;
  if (setjmp(fail)) return NULL;
  switch (written->kind) {
  case IR_TYPE_DTYPE: return "BaseType (as a type: a scalar tensor, Tensor[(), ...], of kind Type)";
  case IR_TYPE_DIM:
  case IR_TYPE_ANY: return "ShapeVar (a dimension)";
  case IR_TYPE_SHAPE: {
    TyParamList implicit = {0};
    c.implicit = &implicit;
    ty_annotation(&c, written, IR_KIND_SHAPE);
    return "Shape";
  }
  case IR_TYPE_VAR: { /* a name alone: a data type, or nothing (`Foo` is no type parameter here) */
    const IrData *d = ty_find_adt(&c, written->u.var.name);
    if (!d) {
      const char *name = written->u.var.name->name;
      bool lower = name[0] >= 'a' && name[0] <= 'z';
      ty_fail_notes(&c, written->span,
                    TY_NOTES(lower ? ir_printf("hint: a type parameter such as `%s` has a kind only inside a type, "
                                               "as in `List[%s]`", name, name)
                                   : "hint: data types are declared with `data` (or `type`); :browse lists them"),
                    "no type is named `%s`", name);
    }
    if (d->ntparams) { /* `Type -> Type`; with more parameters, as Tensor's: `(Type, Type) -> Type` */
      IrBuf b;
      ir_buf_init(&b);
      if (d->ntparams > 1) ir_buf_putc(&b, '(');
      for (int i = 0; i < d->ntparams; i++) ir_buf_printf(&b, "%s%s", i ? ", " : "", ir_kind_name(d->tparams[i].kind));
      ir_buf_puts(&b, d->ntparams > 1 ? ") -> Type" : " -> Type");
      return b.data;
    }
    break;
  }
  default: break;
  }
  TyParamList implicit = {0};
  c.implicit = &implicit;
  ty_annotation(&c, written, IR_KIND_TYPE);
  return "Type";
}

IrTFn *ty_check_expression(TyModule *m, const IrExpr *e, IrType **type, IrDiags *diags) {
  TyCheck c = {.m = m, .diags = diags, .session = true};
  jmp_buf fail;
  c.fail = &fail;
  if (setjmp(fail)) return NULL;
  IrTFn *fn = check_expression(&c, e, type, NULL);
  if (c.holes_reported) return NULL; /* described: an expression with holes does not run */
  /* A global named alone shows its scheme as declared (`-t @map` keeps `a` and `b`). */
  if (fn->body->kind == IR_EXPR_GLOBAL && fn->body->u.def) *type = fn->body->u.def->scheme;
  return fn;
}

void ty_explore_expression(TyModule *m, const IrExpr *e, TyExplored *out, IrDiags *diags) {
  *out = (TyExplored){0};
  TyCheck *c = IR_NEW(TyCheck); /* not a local: read after the longjmp */
  *c = (TyCheck){.m = m, .diags = diags, .session = true, .seen = IR_NEW(IrPtrMap)};
  jmp_buf fail;
  c->fail = &fail;
  if (setjmp(fail)) { /* the types found before the error */
    partial_types(c, &out->partial);
    return;
  }
  out->fn = check_expression(c, e, &out->type, NULL);
  out->nholes = c->holes_reported;
  if (out->fn->body->kind == IR_EXPR_GLOBAL && out->fn->body->u.def) out->type = out->fn->body->u.def->scheme;
}
