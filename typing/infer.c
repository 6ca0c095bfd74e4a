/* Inference over expressions and patterns: one walk that builds the typed program (ir/typed.h),
 * giving every node a type (holes where not yet known), unifying as the typing rules require, and
 * adding the relations of every operator and polymorphic call to the solver, which runs after each
 * call so that errors point at the call that caused them. The same walk places every variable in
 * a frame slot of its function, or in the function's environment when it is captured from the
 * functions around. Let chains are walked with a loop: a function may have any number of them. */
#include "typing/check.h"

#include <string.h>

/* ---------------------------------------------------------------- locals */

static TyLocal *bind_at(TyCheck *c, Sym name, IrType *type, int slot) {
  TyLocal *l = IR_NEW(TyLocal);
  l->name = name;
  l->type = type;
  l->fn = c->scope;
  l->slot = slot;
  l->order = c->nbound++;
  l->shadowed = ir_symmap_get(&c->locals, name);
  ir_symmap_put(&c->locals, name, l);
  return l;
}

/* A variable in the next free slot of the function being checked. */
static TyLocal *bind(TyCheck *c, Sym name, IrType *type) {
  TyFnScope *f = c->scope;
  int slot = f->nslots++;
  if (f->nslots > f->maxslots) f->maxslots = f->nslots;
  return bind_at(c, name, type, slot);
}

/* Out of scope, its slot free again (variables leave scope in the reverse order they came). */
static void unbind(TyCheck *c, TyLocal *l) {
  ir_symmap_put(&c->locals, l->name, l->shadowed);
  ASSERT(l->slot == c->scope->nslots - 1);
  c->scope->nslots--;
}

/* Where l lives as the function f sees it: a slot of f's frame, or an entry of f's environment,
 * which f's closure copies from the function around it (and so on outwards) when it is made. */
static IrTVar where(TyFnScope *f, const TyLocal *l) {
  if (l->fn == f) return (IrTVar){false, l->slot};
  intptr_t k = (intptr_t)ir_symmap_get(&f->captured, l->name);
  if (k) return (IrTVar){true, (int)k - 1};
  ASSERT(f->outer); /* the function that binds l is around f */
  IrTVar outer = f->outer ? where(f->outer, l) : (IrTVar){false, 0};
  IR_VEC_PUSH(f->caps, outer);
  ir_symmap_put(&f->captured, l->name, (void *)(intptr_t)f->caps.len);
  if (l == f->self) f->self_index = f->caps.len - 1;
  return (IrTVar){true, f->caps.len - 1};
}

static IrTExpr *texpr(IrExprKind kind, const IrExpr *src, IrType *type) {
  IrTExpr *t = IR_NEW(IrTExpr);
  t->kind = kind;
  t->src = src;
  t->type = type;
  return t;
}

/* ---------------------------------------------------------------- helpers */

static IrType *scalar(IrDTypeCode code, int bits) { return ir_type_scalar(IR_DTYPE(code, bits), (IrSpan){0}); }

/* A callee's sigil and name for messages; false when it has no name. */
static bool callee_parts(const IrExpr *f, const char **sigil, const char **name) {
  switch (f->kind) {
  case IR_EXPR_GLOBAL: *sigil = "@", *name = f->u.name->name; return true;
  case IR_EXPR_LOCAL: *sigil = "%", *name = f->u.name->name; return true;
  case IR_EXPR_CTOR: *sigil = "", *name = f->u.name->name; return true;
  case IR_EXPR_OP: *sigil = "", *name = ir_ops[f->u.op].name; return true;
  default: return false;
  }
}

/* How a message names a callee. */
static const char *callee_name(const IrExpr *f) {
  const char *sigil, *name;
  return callee_parts(f, &sigil, &name) ? ir_printf("`%s%s`", sigil, name) : "this function";
}

/* ---------------------------------------------------------------- literals */

/* The base type a literal's suffix gives, which names the literal in a message. */
static IrType *suffix_dtype(IrDType dt, IrSpan literal) {
  IrType *d = ir_type_dtype(dt, literal);
  d->origin = IR_DTYPE_BY_SUFFIX;
  return d;
}

static IrType *literal_type(TyCheck *c, const IrExpr *e, const IrLit *lit) {
  if (lit->suffixed)
    return ir_type_tensor(ir_type_shape(0, NULL, (IrSpan){0}), suffix_dtype(lit->dtype, e->span), (IrSpan){0});
  return ir_type_tensor(ir_type_shape(0, NULL, (IrSpan){0}),
                        ty_fresh_literal(&c->cx, lit->kind == IR_LIT_FLOAT ? TY_LIT_FLOAT : TY_LIT_INT, e->span),
                        (IrSpan){0});
}

static IrType *tensor_literal_type(TyCheck *c, const IrExpr *e) {
  const IrLit *fixed = NULL;
  bool any_float = false, any_bool = false, any_number = false;
  for (int64_t i = 0; i < e->u.tensor.count; i++) {
    const IrLit *l = &e->u.tensor.elems[i];
    if (l->kind == IR_LIT_BOOL) any_bool = true;
    else any_number = true;
    if (l->kind == IR_LIT_FLOAT) any_float = true;
    if (l->kind != IR_LIT_BOOL && l->suffixed) {
      if (fixed && !ir_dtype_eq(fixed->dtype, l->dtype)) {
        char a[24], b[24];
        ty_fail(c, e->span, "the elements of a tensor literal share one type, but %s and %s differ here",
                ir_dtype_name(fixed->dtype, a), ir_dtype_name(l->dtype, b));
      }
      fixed = l;
    }
  }
  if (any_bool && any_number) ty_fail(c, e->span, "a tensor literal holds numbers or booleans, not both");
  IrType **dims = IR_NEW_ARRAY(IrType *, e->u.tensor.rank);
  for (int i = 0; i < e->u.tensor.rank; i++) dims[i] = ir_type_dim(e->u.tensor.shape[i], (IrSpan){0});
  IrType *dtype;
  if (any_bool) {
    dtype = ir_type_dtype(IR_DTYPE(IR_DT_BOOL, 1), (IrSpan){0});
  } else if (fixed) {
    if (any_float && fixed->dtype.code != IR_DT_FLOAT) {
      char a[24];
      ty_fail(c, e->span, "a decimal element cannot be %s", ir_dtype_name(fixed->dtype, a));
    }
    dtype = suffix_dtype(fixed->dtype, e->span);
  } else {
    dtype = ty_fresh_literal(&c->cx, any_float ? TY_LIT_FLOAT : TY_LIT_INT, e->span);
  }
  return ir_type_tensor(ir_type_shape(e->u.tensor.rank, dims, (IrSpan){0}), dtype, (IrSpan){0});
}

static IrType *fill_type(TyCheck *c, const IrExpr *e) {
  const IrLit *v = &e->u.fill.value;
  IrDType dt = e->u.fill.dtype;
  char name[24];
  if (dt.lanes != 1) ty_fail(c, e->span, "a literal is one number, and %s has %u lanes", ir_dtype_name(dt, name), (unsigned)dt.lanes);
  if ((v->kind == IR_LIT_BOOL) != (dt.code == IR_DT_BOOL) || (v->kind == IR_LIT_FLOAT && dt.code != IR_DT_FLOAT))
    ty_fail(c, e->span, "Constant's value does not fit its dtype %s", ir_dtype_name(dt, name));
  if (v->suffixed && v->kind != IR_LIT_BOOL && !ir_dtype_eq(v->dtype, dt)) {
    char other[24];
    ty_fail(c, e->span, "Constant's value is %s, but its dtype is %s", ir_dtype_name(v->dtype, other),
            ir_dtype_name(dt, name));
  }
  IrType **dims = IR_NEW_ARRAY(IrType *, e->u.fill.rank);
  for (int i = 0; i < e->u.fill.rank; i++) dims[i] = ir_type_dim(e->u.fill.shape[i], (IrSpan){0});
  return ir_type_tensor(ir_type_shape(e->u.fill.rank, dims, (IrSpan){0}), ir_type_dtype(dt, (IrSpan){0}), (IrSpan){0});
}

/* `meta[relay.Constant][i]`: the constant's type, from the metadata section (the parser has
 * reported a reference to an entry the section lacks). */
static IrType *meta_type(TyCheck *c, const IrExpr *e) {
  const IrMetaEntry *m = e->u.meta.entry;
  const char *kind = e->u.meta.kind->name;
  long long index = (long long)e->u.meta.index;
  if (!m)
    ty_fail_notes(c, e->span, TY_NOTES("hint: TVM prints the section with astext(show_meta_data=True)"),
                  "`meta[%s][%lld]` refers to the program's `#[metadata]` section, but it has none", kind, index);
  if (m->kind != IR_META_CONSTANT)
    ty_fail(c, e->span, "`meta[%s][%lld]` is a %s, not a constant: only relay.Constant entries are values", kind,
            index, m->type_key);
  IrType **dims = IR_NEW_ARRAY(IrType *, m->tensor.rank);
  for (int i = 0; i < m->tensor.rank; i++) dims[i] = ir_type_dim(m->tensor.shape[i], (IrSpan){0});
  return ir_type_tensor(ir_type_shape(m->tensor.rank, dims, (IrSpan){0}), ir_type_dtype(m->tensor.dtype, (IrSpan){0}),
                        (IrSpan){0});
}

/* ---------------------------------------------------------------- names */

/* The definition of the chunk whose text holds span, or NULL (a top-level expression): for the hint
 * on a global used before the REPL input that defines it. */
static const IrItem *enclosing_def(const TyCheck *c, IrSpan span) {
  for (size_t i = 0; i < c->chunk_defs.cap; i++) {
    const TyDef *d = c->chunk_defs.keys[i] ? c->chunk_defs.values[i] : NULL;
    if (!d) continue;
    IrSpan s = d->item->span;
    if (s.src == span.src && s.off <= span.off && span.off + span.len <= s.off + s.len) return d->item;
  }
  return NULL;
}

/* The name in maps (n of them, NULL ones skipped) one edit from name's (a typo of it), the first in
 * alphabetical order, or NULL; names under three letters are too short to guess from. */
static const char *misspelt(int n, const IrSymMap *const *maps, Sym name) {
  const char *best = NULL;
  for (int k = 0; k < n && name->len >= 3; k++)
    for (size_t i = 0; maps[k] && i < maps[k]->cap; i++) {
      Sym g = maps[k]->keys[i];
      if (g && ir_sym_one_edit(name, g) && (!best || strcmp(g->name, best) < 0)) best = g->name;
    }
  return best;
}

/* The global of the module or the chunk that name may be a typo of. */
static const char *misspelt_global(const TyCheck *c, Sym name) {
  return misspelt(2, (const IrSymMap *[]){&c->m->globals, &c->chunk_defs}, name);
}

/* "unknown constructor", with the constructor of the module or the chunk it may be a typo of. */
static _Noreturn void unknown_ctor(TyCheck *c, IrSpan span, Sym name) {
  const char *close = misspelt(2, (const IrSymMap *[]){&c->m->ctors, &c->chunk_ctors}, name);
  ty_fail_notes(c, span, TY_NOTES(close ? ir_printf("hint: did you mean `%s`?", close) : NULL),
                "unknown constructor `%s`", name->name);
}

/* A global named (or called) at e: its typed form refers to the definition it is checked against. */
/* The relations made since `mark` (a polymorphic value's `where` clause, instantiated): made by t. */
static void made_by(TyCheck *c, int mark, IrTExpr *t) {
  for (int i = mark; i < c->cx.rels.len; i++)
    if (!c->cx.rels.items[i]->node) c->cx.rels.items[i]->node = t;
}

static IrTExpr *global_ref(TyCheck *c, const IrExpr *e, int ntargs, IrType **targs) {
  Sym name = e->u.name;
  if (ir_symmap_get(&c->failed_defs, name)) ty_skip(c); /* its failure is reported: no cascade */
  TyDef *d = ir_symmap_get(&c->chunk_defs, name);
  IrTExpr *t = texpr(IR_EXPR_GLOBAL, e, NULL);
  IrType *scheme;
  if (d) {
    t->u.def = d->def;
    /* In its own group a definition without a full signature is monomorphic. */
    scheme = d->type;
    if (!d->done && !d->declared) {
      if (ntargs) ty_fail(c, e->span, "`@%s` is being inferred here, so it takes no type arguments yet", name->name);
      t->type = scheme;
      return t;
    }
  } else {
    const IrTDef *def = ir_symmap_get(&c->m->globals, name);
    t->u.def = def;
    scheme = def ? def->scheme : NULL;
    if (!scheme) {
      if (c->unnamed_def) ty_skip(c); /* perhaps the definition that did not parse */
      const char *hint = NULL;
      const IrItem *user = NULL;
      const char *close = misspelt_global(c, name);
      if (ir_symmap_get(&c->locals, name)) hint = ir_printf("hint: a local variable is written `%%%s`", name->name);
      else if (close) hint = ir_printf("hint: did you mean `@%s`?", close);
      else if (e->span.src && e->span.src->input && (user = enclosing_def(c, e->span)))
        hint = ir_printf("hint: an input can use the globals defined before it or in it: define `@%s` and `@%s` in one "
                         "input (or between lines :{ and :})", user->name->name, name->name);
      ty_fail_notes(c, e->span, TY_NOTES(hint), "unknown global `@%s`", name->name);
    }
  }
  int n = scheme->kind == IR_TYPE_FUNC ? scheme->u.func.ntparams : 0;
  if (ntargs && ntargs != n)
    ty_fail(c, e->span, "`@%s` takes %d type argument%s, but %d %s given", name->name, n, n == 1 ? "" : "s", ntargs,
            ntargs == 1 ? "is" : "are");
  int mark = c->cx.rels.len;
  t->type = ty_instantiate(c, scheme, ntargs, targs, e->span, e, NULL);
  made_by(c, mark, t);
  return t;
}

/* A constructor named (or called) at e, its type the constructor's function type. */
static IrTExpr *ctor_ref(TyCheck *c, const IrExpr *e, int ntargs, IrType **targs) {
  const IrTCtor *k = ty_find_ctor(c, e->u.name);
  if (!k) unknown_ctor(c, e->span, e->u.name);
  int n = k->scheme->u.func.ntparams;
  if (ntargs && ntargs != n)
    ty_fail(c, e->span, "`%s` takes %d type argument%s, but %d %s given", k->src->name->name, n, n == 1 ? "" : "s",
            ntargs, ntargs == 1 ? "is" : "are");
  IrTExpr *t = texpr(IR_EXPR_CTOR, e, ty_instantiate(c, k->scheme, ntargs, targs, e->span, NULL, NULL));
  t->u.ctor = k;
  return t;
}

/* An operator passed as a value (`@foldl(add, 0f, %l)`): a function of its arguments, with its
 * relation and no attributes. One that needs an attribute, or takes a varying number of
 * arguments, has to be wrapped in a function that says which. */
static IrType *op_value_type(TyCheck *c, const IrExpr *e) {
  const IrOpInfo *info = &ir_ops[e->u.op];
  const char *required = strchr(info->attrs, '!');
  if (required) {
    const char *start = required;
    while (start > info->attrs && start[-1] != ' ') start--;
    ty_fail(c, e->span, "`%s` needs its attribute `%.*s`, which an operator passed as a value cannot carry; wrap it "
            "in a function that gives it", info->name, (int)(required - start), start);
  }
  if (info->min_args != info->max_args)
    ty_fail(c, e->span, "`%s` takes %d to %d arguments, so as a value it is ambiguous; wrap it in a function "
            "that calls it with the ones you mean", info->name, info->min_args, info->max_args);
  return ty_instantiate(c, ty_op_scheme(c, (IrOpId)e->u.op, info->min_args), 0, NULL, e->span, e, NULL);
}

/* ---------------------------------------------------------------- calls */

/* Whether a call's attributes say their TVM attributes type (`attrs_type_key="attrs.TestAttrs"`),
 * which TVM allows on a call of any function: kept and printed back, they mean nothing here. */
static bool typed_attrs(const IrExpr *e) {
  for (int i = 0; i < e->u.call.nattrs; i++)
    if (!strcmp(e->u.call.attrs[i].key->name, "attrs_type_key")) return true;
  return false;
}

/* A reduction called with two tensors, as `max(%a, %b)`: the hint naming the element-wise operator
 * meant, or NULL. */
static const char *elementwise_twin(const char *op) {
  static const char *const twins[][2] = {{"max", "maximum"}, {"min", "minimum"}, {"sum", "add"}, {"prod", "multiply"}};
  for (size_t i = 0; i < sizeof twins / sizeof twins[0]; i++)
    if (!strcmp(op, twins[i][0]))
      return ir_printf("hint: `%s` reduces one tensor along its axes; did you mean `%s`, which takes two, element by "
                       "element?", op, twins[i][1]);
  return NULL;
}

/* A name written bare where an attribute takes integers (`newshape=[b, -1]`, `shape=[n]`), which
 * the parser reads as a string, in v: the first such item, or NULL. */
static const IrAttrVal *bare_name_in(const IrAttrVal *v) {
  if (v->kind == IR_ATTR_STR)
    return v->span.src && v->span.len && v->span.src->text[v->span.off] != '"' ? v : NULL;
  if (v->kind != IR_ATTR_LIST) return NULL;
  for (int i = 0; i < v->n; i++) {
    const IrAttrVal *in = bare_name_in(&v->items[i]);
    if (in) return in;
  }
  return NULL;
}

/* The failed attribute of call e at `at` when it is a name given for integers: attributes are
 * constants, fixed where the call is written (TVM's attribute structs hold integers, never the
 * dimensions of a type), so a shape variable there cannot be read. Fails saying so, with what to
 * write instead; returns otherwise. */
static void attr_name_for_ints(TyCheck *c, const IrExpr *e, const char *op, IrSpan at) {
  for (int i = 0; i < e->u.call.nattrs; i++) {
    const IrAttr *a = &e->u.call.attrs[i];
    int kind = ir_attr_kind(a->key->name);
    if (a->val.span.src != at.src || a->val.span.off != at.off || (kind != IR_AK_INTS && kind != IR_AK_PAIRS)) continue;
    const IrAttrVal *name = bare_name_in(&a->val);
    if (!name) return;
    const char *dim = NULL;
    for (int k = c->tparams.len - 1; k >= 0 && !dim; k--)
      if (c->tparams.items[k].kind == IR_KIND_SHAPEVAR && !strcmp(c->tparams.items[k].name->name, name->str))
        dim = ir_printf("`%s` is a dimension of the types here: its size is known only when the function is called",
                        name->str);
    const char *hint = NULL;
    if (!strcmp(op, "reshape") && a->val.kind == IR_ATTR_LIST) { /* TVM's newshape: 0 copies the input's dimension */
      IrBuf b;
      ir_buf_init(&b);
      ir_buf_putc(&b, '[');
      for (int k = 0; k < a->val.n; k++) {
        if (k) ir_buf_puts(&b, ", ");
        if (bare_name_in(&a->val.items[k])) ir_buf_putc(&b, '0');
        else ir_print_attr_value(&b, &a->val.items[k]);
      }
      ir_buf_putc(&b, ']');
      hint = ir_printf("hint: in `newshape`, 0 copies the input's dimension at its place: `newshape=%s`", b.data);
    } else if (!strcmp(op, "zeros")) {
      hint = "hint: `zeros_like(%t)` makes zeros of the shape and dtype of a tensor `%t` (`ones_like` and "
             "`full_like(%t, %v)` likewise)";
    } else if (!strcmp(op, "ones")) {
      hint = "hint: `ones_like(%t)` makes ones of the shape and dtype of a tensor `%t` (`zeros_like` and "
             "`full_like(%t, %v)` likewise)";
    } else if (!strcmp(op, "full")) {
      hint = "hint: `full_like(%t, %v)` makes a tensor of the shape and dtype of a tensor `%t`, filled with `%v` "
             "(`zeros_like` and `ones_like` likewise)";
    } else if (!strcmp(op, "broadcast_to")) {
      hint = "hint: `broadcast_to_like(%x, %t)` broadcasts `%x` to the shape of a tensor `%t`";
    }
    ty_fail_notes(c, name->span, TY_NOTES(dim, hint), "the attribute `%s` of `%s` is a constant, but `%s` is a name",
                  a->key->name, op, name->str);
  }
}

/* The hint for a call of l, a let-bound value of a function type kept monomorphic (the value
 * restriction, as in ML: a `let` generalizes only a function literal), whose argument did not fit
 * the type an earlier use fixed: the literal to bind instead, calling the value with n parameters. */
static const char *value_restriction_hint(const TyLocal *l, int n) {
  IrBuf params, value;
  ir_buf_init(&params);
  ir_buf_init(&value);
  for (int i = 0; i < n; i++)
    ir_buf_printf(&params, "%s%%%s", i ? ", " : "", n <= 3 ? (const char *[]){"x", "y", "z"}[i] : ir_printf("x%d", i));
  ir_print_expr(&value, l->restricted, 0);
  const IrExprKind k = l->restricted->kind;
  bool atom = k == IR_EXPR_GLOBAL || k == IR_EXPR_LOCAL || k == IR_EXPR_CALL || k == IR_EXPR_CTOR;
  const char *callee = atom ? value.data : ir_printf("(%s)", value.data);
  return ir_printf("hint: `%%%s` is bound by `let` to a value that is not a function literal, so it has one type "
                   "(the value restriction); to use it at several types, bind a function: "
                   "`let %%%s = fn (%s) { %s(%s) }`",
                   l->name->name, l->name->name, params.data, callee, params.data);
}

/* Whether l is such a value, and a use before has fixed a part of its type. */
static bool fixed_by_a_use(TyCheck *c, const TyLocal *l) {
  for (int i = 0; l->restricted && i < l->restricted_holes.len; i++)
    if (c->cx.vars.items[ty_find(&c->cx, l->restricted_holes.items[i])].resolved) return true;
  return false;
}

/* The text of a short span on one line, or NULL. */
static const char *span_text(IrSpan s) {
  if (!s.src || s.len == 0 || s.len > 40 || memchr(s.src->text + s.off, '\n', s.len)) return NULL;
  return ir_printf("%.*s", (int)s.len, s.src->text + s.off);
}

/* `@add2(1)` of a function of two parameters: functions are not curried, as they are in Haskell,
 * OCaml and Elm; the function of the rest is a literal (`fn (%b) { @add2(1, %b) }`), its
 * parameters named as the definition names them where it can. */
static const char *curry_hint(const IrExpr *e, const IrTExpr *callee, int nparams) {
  const char *head = "hint: functions are not curried: give every argument";
  IrBuf given;
  ir_buf_init(&given);
  const char *f = span_text(e->u.call.callee->span);
  for (int i = 0; f && i < e->u.call.nargs; i++) {
    const char *a = span_text(e->u.call.args[i]->span);
    if (!a) return head;
    ir_buf_printf(&given, "%s, ", a);
  }
  if (!f) return head;
  const IrFn *def = callee->kind == IR_EXPR_GLOBAL && callee->u.def && callee->u.def->item &&
                            callee->u.def->item->kind == IR_ITEM_DEF && callee->u.def->item->fn->u.fn.nparams == nparams
                        ? &callee->u.def->item->fn->u.fn
                        : NULL;
  IrBuf rest;
  ir_buf_init(&rest);
  for (int i = e->u.call.nargs; i < nparams; i++) {
    const char *name = def ? ir_printf("%%%s", def->params[i].name->name) : NULL;
    if (!name || strstr(given.data, name))
      name = nparams - e->u.call.nargs == 1 ? "%y" : ir_printf("%%y%d", i - e->u.call.nargs + 1);
    ir_buf_printf(&rest, "%s%s", rest.len ? ", " : "", name);
  }
  return ir_printf("%s, or write `fn (%s) { %s(%s%s) }` for a function of the rest", head, rest.data, f, given.data,
                   rest.data);
}

/* ---------------------------------------------------------------- polymorphic arguments */

/* A name that prints as `name` but is no other name: a skolem, the rigid stand-in for a type
 * parameter of a polymorphic parameter type while an argument is checked against it. */
static Sym skolem_sym(Sym name) {
  IrSymbol *s = ir_alloc(sizeof(IrSymbol) + name->len + 1);
  s->hash = name->hash;
  s->len = name->len;
  ir_copy(s->name, name->name, name->len + 1);
  return s;
}

typedef struct {
  TyCtx *cx;
  const IrTypeParam *skolems;
  int n;
  uint32_t epoch;
  bool found;
} SkolemWalk;

static void find_skolem(IrType **slot, void *env) {
  SkolemWalk *w = env;
  IrType *t = *slot;
  if (w->found) return;
  if (t->kind == IR_TYPE_HOLE) {
    TyVar *v = &w->cx->vars.items[ty_find(w->cx, t->u.hole.id)];
    if (v->mark == w->epoch) return;
    v->mark = w->epoch;
    if (v->resolved) find_skolem(&v->resolved, env);
    return;
  }
  if (t->kind == IR_TYPE_VAR) {
    for (int i = 0; i < w->n; i++)
      if (t->u.var.name == w->skolems[i].name) w->found = true;
    return;
  }
  ty_each_child(t, find_skolem, env);
}

static void mentions_any_child(IrType **slot, void *found);

/* Whether t has a `?` anywhere. */
static bool mentions_any_deep(const IrType *t) {
  if (t->kind == IR_TYPE_ANY) return true;
  bool found = false;
  ty_each_child((IrType *)t, mentions_any_child, &found);
  return found;
}

static void mentions_any_child(IrType **slot, void *found) {
  if (!*(bool *)found && mentions_any_deep(*slot)) *(bool *)found = true;
}

static bool mentions_skolem(SkolemWalk *w, IrType *t) {
  w->found = false;
  find_skolem(&t, w);
  return w->found;
}

/* An argument checked against a polymorphic parameter type, as GHC's RankNTypes checks one
 * (`def @app(%f : fn<a>(a) -> a)` called as `@app(fn (%x) { %x })`): the type's parameters become
 * skolems (rigid, of names no other type has), its relations hold by assumption while the argument
 * is checked against the skolemised type, and then the argument must be polymorphic: no relation
 * of it about a skolem is left open (it would hold for some instances only), and no skolem has
 * escaped into a type made before (what the argument's type would then tie to the outside). */
static IrTExpr *infer_poly_arg(TyCheck *c, const IrExpr *arg, IrType *poly, const char *what) {
  TyCtx *cx = &c->cx;
  uint32_t holes_before = (uint32_t)cx->vars.len;
  int n = poly->u.func.ntparams, rels_before = cx->rels.len, givens = cx->givens.len;
  IrTypeParam *skolems = IR_NEW_ARRAY(IrTypeParam, n);
  IrType **targs = IR_NEW_ARRAY(IrType *, n);
  for (int i = 0; i < n; i++) {
    const IrTypeParam *p = &poly->u.func.tparams[i];
    skolems[i] = (IrTypeParam){skolem_sym(p->name), p->kind == IR_KIND_UNKNOWN ? IR_KIND_TYPE : p->kind, p->span};
    targs[i] = ir_type_var(skolems[i].name, skolems[i].kind, arg->span);
  }
  int mark = ty_push_tparams(c, n, skolems);
  IrType *mono = ty_instantiate(c, poly, n, targs, arg->span, NULL, NULL);
  ty_pop_tparams(c, mark);
  for (int r = rels_before; r < cx->rels.len; r++) { /* the type's own relations: assumed */
    cx->rels.items[r]->given = true;
    IR_VEC_PUSH(cx->givens, (uint32_t)r);
  }
  int own_rels = cx->rels.len;
  IrTExpr *a = ty_infer(c, arg);
  IrBuf every;
  ir_buf_init(&every);
  for (int i = 0; i < n; i++) ir_buf_printf(&every, "%s`%s`", i ? ", " : "", skolems[i].name->name);
  ty_expect(c, arg->span, mono, a->type, "%s, a function for every %s,", what, every.data);
  ty_solve_or_fail(c);
  for (int i = givens; i < cx->givens.len; i++) cx->rels.items[cx->givens.items[i]]->solved = true;
  cx->givens.len = givens;
  SkolemWalk w = {cx, skolems, n, 0, false};
  const char *poly_text = ty_show(c, poly);
  for (int r = own_rels; r < cx->rels.len; r++) {
    TyRelation *rel = cx->rels.items[r];
    if (rel->solved || rel->owned) continue;
    w.epoch = ++cx->epoch;
    bool about = false;
    for (int k = 0; k < rel->nargs && !about; k++) about = mentions_skolem(&w, rel->args[k]);
    if (about)
      ty_fail_notes(c, arg->span,
                    TY_NOTES(ir_printf("the argument needs %s, which %s does not give",
                                       ty_relation_text(cx, rel, &cx->message_names), poly_text)),
                    "%s must work for every instance of %s, but this one does not", what, poly_text);
  }
  if (mentions_any_deep(ty_resolve(cx, a->type))) /* what `?` stands for is checked where the value arrives, against no skolem */
    ty_fail_notes(c, arg->span, TY_NOTES(ir_printf("found: %s", ty_show(c, a->type))),
                  "%s must work for every instance of %s, but its type has `?`, known only at run time", what,
                  poly_text);
  w.epoch = ++cx->epoch;
  for (uint32_t id = 0; id < holes_before; id++) {
    TyVar *v = &cx->vars.items[id];
    if (v->parent != id || !v->resolved || v->mark == w.epoch) continue;
    if (mentions_skolem(&w, v->node))
      ty_fail_notes(c, arg->span,
                    TY_NOTES(ir_printf("found: %s", ty_show(c, a->type)),
                             "hint: a function whose type is only known from its uses (an unannotated parameter, say) "
                             "cannot be polymorphic; pass a global or a function literal"),
                    "%s must work for every instance of %s, but its type depends on the types around it", what,
                    poly_text);
  }
  return a;
}

static IrTExpr *infer_call(TyCheck *c, const IrExpr *e) {
  const IrExpr *f = e->u.call.callee;
  int nt = e->u.call.ntargs;
  IrTExpr *t = texpr(IR_EXPR_CALL, e, NULL), *callee;
  TyRelation *oprel = NULL;
  if (f->kind == IR_EXPR_OP) {
    const IrOpInfo *info = &ir_ops[f->u.op];
    if (e->u.call.nargs < info->min_args || e->u.call.nargs > info->max_args) {
      int lo = info->min_args, hi = info->max_args, n = e->u.call.nargs;
      ty_fail_notes(c, e->span, TY_NOTES(n == 2 ? elementwise_twin(info->name) : NULL),
                    "`%s` takes %s%d argument%s, but %d %s given", info->name, lo == hi ? "" : ir_printf("%d to ", lo),
                    hi, hi == 1 ? "" : "s", n, n == 1 ? "is" : "are");
    }
    IrSpan at = e->span;
    const char *bad = ir_attrs_decode(info->name, info->attrs, e->u.call.nattrs, e->u.call.attrs, &t->u.call.attrs, &at);
    if (bad) {
      attr_name_for_ints(c, e, info->name, at);
      ty_fail(c, at, "%s", bad);
    }
    if (nt) ty_fail(c, f->span, "operators take no type arguments");
    callee = texpr(IR_EXPR_OP, f, ty_instantiate(c, ty_op_scheme(c, (IrOpId)f->u.op, e->u.call.nargs), 0, NULL, e->span, e,
                                                 t->u.call.attrs));
    callee->u.op = (IrOpId)f->u.op;
    oprel = c->cx.rels.len ? c->cx.rels.items[c->cx.rels.len - 1] : NULL; /* the one ty_instantiate added (:explain) */
    if (oprel) oprel->node = t;
  } else if (f->kind == IR_EXPR_GLOBAL) {
    callee = global_ref(c, f, nt, e->u.call.targs);
  } else if (f->kind == IR_EXPR_CTOR) {
    callee = ctor_ref(c, f, nt, e->u.call.targs);
  } else {
    if (nt) ty_fail(c, f->span, "only global functions and constructors take type arguments");
    callee = ty_infer(c, f);
  }
  if (f->kind != IR_EXPR_OP && e->u.call.nattrs && !typed_attrs(e))
    ty_fail(c, e->u.call.attrs[0].span, "keyword attributes are for operators; %s is a function", callee_name(f));
  t->u.call.callee = callee;
  int n = e->u.call.nargs;
  IrType *fp = ty_prune(&c->cx, callee->type);
  if (fp->kind == IR_TYPE_HOLE) { /* calling what is not known yet to be a function */
    IrType *g = ir_type_new(IR_TYPE_FUNC, (IrSpan){0});
    g->u.func.nargs = n;
    g->u.func.args = IR_NEW_ARRAY(IrType *, n);
    for (int i = 0; i < n; i++) g->u.func.args[i] = ty_fresh(&c->cx, IR_KIND_TYPE, e->u.call.args[i]->span);
    g->u.func.ret = ty_fresh(&c->cx, IR_KIND_TYPE, e->span);
    ty_expect(c, f->span, fp, g, "the called value");
    fp = g;
  }
  if (fp->kind != IR_TYPE_FUNC)
    ty_fail(c, f->span, "%s is called, but it is not a function: its type is %s", callee_name(f), ty_show(c, fp));
  if (fp->u.func.nargs != n)
    ty_fail_notes(c, e->span, TY_NOTES(n > 0 && n < fp->u.func.nargs ? curry_hint(e, callee, fp->u.func.nargs) : NULL),
                  "%s takes %d argument%s, but %d %s given", callee_name(f), fp->u.func.nargs,
                  fp->u.func.nargs == 1 ? "" : "s", n, n == 1 ? "is" : "are");
  t->u.call.nargs = n;
  t->u.call.args = IR_NEW_ARRAY(IrTExpr *, n > 0 ? n : 1);
  const TyLocal *local = f->kind == IR_EXPR_LOCAL ? ir_symmap_get(&c->locals, f->u.name) : NULL;
  const char *hint = local && fixed_by_a_use(c, local) ? value_restriction_hint(local, n) : NULL;
  for (int i = 0; i < n; i++) {
    IrType *want = ty_prune(&c->cx, fp->u.func.args[i]);
    if (want->kind == IR_TYPE_FUNC && want->u.func.ntparams > 0) { /* a polymorphic parameter */
      const char *sigil, *name;
      const char *what = callee_parts(f, &sigil, &name)
                             ? ir_printf("the %s argument of `%s%s`", ir_ordinal(i), sigil, name)
                             : ir_printf("the %s argument of this function", ir_ordinal(i));
      t->u.call.args[i] = infer_poly_arg(c, e->u.call.args[i], want, what);
      continue;
    }
    IrTExpr *a = t->u.call.args[i] = ty_infer(c, e->u.call.args[i]);
    if (f->kind != IR_EXPR_OP) a->expect = fp->u.func.args[i]; /* checked at run time if a `?` stands in (decide_check) */
    const char *sigil, *name;
    c->arg_rel = oprel, c->arg_index = i, c->arg_type = a->type; /* a failure here keeps them for :explain */
    c->expect_hint = hint;
    if (callee_parts(f, &sigil, &name))
      ty_expect(c, e->u.call.args[i]->span, fp->u.func.args[i], a->type, "the %s argument of `%s%s`", ir_ordinal(i), sigil,
                name);
    else
      ty_expect(c, e->u.call.args[i]->span, fp->u.func.args[i], a->type, "the %s argument of this function", ir_ordinal(i));
    c->arg_rel = NULL, c->expect_hint = NULL;
  }
  ty_solve_or_fail(c);
  t->type = fp->u.func.ret;
  return t;
}

/* ---------------------------------------------------------------- patterns */

typedef IR_VEC(TyLocal *) LocalList;

static IrTPattern *check_pattern(TyCheck *c, const IrPattern *p, IrType *t, LocalList *bound) {
  IrTPattern *tp = IR_NEW(IrTPattern);
  tp->kind = p->kind;
  tp->src = p;
  tp->type = t;
  tp->n = p->n;
  tp->args = IR_NEW_ARRAY(IrTPattern *, p->n > 0 ? p->n : 1);
  ty_note_seen(c, p, t);
  switch (p->kind) {
  case IR_PAT_WILD: return tp;
  case IR_PAT_VAR:
    for (int i = 0; i < bound->len; i++)
      if (bound->items[i]->name == p->name)
        ty_fail(c, p->span, "`%%%s` is bound twice in this pattern", p->name->name);
    if (p->ann) { /* `Cons(%h : int32, _)` */
      IrType *ann = ty_annotation(c, p->ann, IR_KIND_TYPE);
      ty_expect(c, p->span, ann, t, "the value `%%%s` matches", p->name->name);
      tp->expect = ann;
      t = ann;
    }
    IR_VEC_PUSH(*bound, bind(c, p->name, t));
    tp->slot = bound->items[bound->len - 1]->slot;
    return tp;
  case IR_PAT_TUPLE: {
    IrType **fields = IR_NEW_ARRAY(IrType *, p->n);
    for (int i = 0; i < p->n; i++) fields[i] = ty_fresh(&c->cx, IR_KIND_TYPE, p->args[i]->span);
    ty_expect(c, p->span, ir_type_tuple(p->n, fields, (IrSpan){0}), t, "the value matched by this tuple pattern");
    for (int i = 0; i < p->n; i++) tp->args[i] = check_pattern(c, p->args[i], fields[i], bound);
    return tp;
  }
  case IR_PAT_CTOR: {
    const IrTCtor *tk = ty_find_ctor(c, p->name);
    const IrCtor *k = tk ? tk->src : NULL;
    if (!k && (!strcmp(p->name->name, "True") || !strcmp(p->name->name, "False")))
      ty_fail_notes(c, p->span,
                    TY_NOTES("hint: patterns match constructors, tuples, variables and `_`; test a bool with `if`"),
                    "`%s` is a value, not a constructor, so it cannot be a pattern", p->name->name);
    if (!k) unknown_ctor(c, p->span, p->name);
    tp->ctor = tk;
    if (p->n != k->nargs)
      ty_fail(c, p->span, "`%s` has %d field%s, but this pattern gives %d", k->name->name, k->nargs,
              k->nargs == 1 ? "" : "s", p->n);
    IrType *ft = ty_instantiate(c, tk->scheme, 0, NULL, p->span, NULL, NULL);
    ty_expect(c, p->span, ft->u.func.ret, t, "the value matched by `%s`", k->name->name);
    for (int i = 0; i < p->n; i++) tp->args[i] = check_pattern(c, p->args[i], ft->u.func.args[i], bound);
    return tp;
  }
  }
  UNREACHABLE("a pattern of no kind");
  return tp;
}

static IrTExpr *infer(TyCheck *c, const IrExpr *e, IrType *expected, const char *what);

static IrTExpr *infer_match(TyCheck *c, const IrExpr *e, IrType *expected, const char *what) {
  IrTExpr *t = texpr(IR_EXPR_MATCH, e, expected);
  t->u.match.scrut = ty_infer(c, e->u.match.scrut);
  int n = t->u.match.nclauses = e->u.match.nclauses;
  t->u.match.clauses = IR_NEW_ARRAY(IrTClause, n > 0 ? n : 1);
  for (int i = 0; i < n; i++) {
    const IrClause *cl = &e->u.match.clauses[i];
    IrTClause *tc = &t->u.match.clauses[i];
    LocalList bound = {0};
    tc->pat = check_pattern(c, cl->pat, t->u.match.scrut->type, &bound);
    if (expected) {
      tc->body = infer(c, cl->body, expected, what);
    } else {
      tc->body = ty_infer(c, cl->body);
      if (t->type) {
        ty_expect(c, cl->body->span, t->type, tc->body->type, "this clause's result");
        tc->body->expect = t->type;
      } else {
        t->type = tc->body->type;
      }
    }
    for (int k = bound.len - 1; k >= 0; k--) unbind(c, bound.items[k]);
  }
  if (!t->type) t->type = ty_fresh(&c->cx, IR_KIND_TYPE, e->span); /* no clauses: any type */
  return t;
}

/* ---------------------------------------------------------------- functions */

TyHeader ty_fn_header(TyCheck *c, const IrFn *fn, IrSpan span, bool is_def) {
  (void)span;
  TyHeader h = {0};
  TyParamList implicit = {0};
  IrSymMap flexible = {0};
  for (int i = 0; i < fn->ntparams; i++) IR_VEC_PUSH(implicit, fn->tparams[i]);
  int mark = ty_push_tparams(c, fn->ntparams, fn->tparams);
  TyParamList *saved_implicit = c->implicit;
  IrSymMap *saved_flexible = c->flexible;
  c->implicit = is_def ? &implicit : NULL;
  c->flexible = is_def ? NULL : &flexible;
  IrType *f = ir_type_new(IR_TYPE_FUNC, (IrSpan){0});
  f->u.func.nargs = fn->nparams;
  f->u.func.args = IR_NEW_ARRAY(IrType *, fn->nparams);
  h.complete = fn->ret != NULL && !ty_has_wildcard(fn->ret); /* a signature with `_` is not complete */
  for (int i = 0; i < fn->nparams; i++) {
    const IrParam *p = &fn->params[i];
    f->u.func.args[i] = p->ann ? ty_annotation(c, p->ann, IR_KIND_TYPE) : ty_fresh(&c->cx, IR_KIND_TYPE, p->span);
    h.complete &= p->ann != NULL && !ty_has_wildcard(p->ann);
  }
  f->u.func.ret = fn->ret ? ty_annotation(c, fn->ret, IR_KIND_TYPE) : ty_fresh(&c->cx, IR_KIND_TYPE, fn->body->span);
  h.nrels = fn->nrels;
  h.rels = IR_NEW_ARRAY(IrRel, fn->nrels);
  for (int i = 0; i < fn->nrels; i++) {
    h.rels[i] = ty_relation_annotation(c, fn->rels[i], f);
    for (int k = 0; k < fn->rels[i].nargs; k++) h.complete &= !ty_has_wildcard(fn->rels[i].args[k]);
  }
  c->implicit = saved_implicit;
  c->flexible = saved_flexible;
  ty_pop_tparams(c, mark);
  h.ntparams = implicit.len;
  h.tparams = implicit.items;
  h.type = f;
  return h;
}

IrType *ty_header_scheme(const TyHeader *h) {
  IrType *s = ir_type_new(IR_TYPE_FUNC, (IrSpan){0});
  s->u.func = h->type->u.func;
  s->u.func.ntparams = h->ntparams;
  s->u.func.tparams = h->tparams;
  s->u.func.nrels = h->nrels;
  s->u.func.rels = h->rels;
  return s;
}

IrTFn *ty_fn_body(TyCheck *c, const IrExpr *src, const TyHeader *h, TyLocal *self) {
  const IrFn *fn = &src->u.fn;
  int mark = ty_push_tparams(c, h->ntparams, h->tparams);
  int givens = c->cx.givens.len;
  for (int i = 0; i < h->nrels; i++) {
    int id = h->rels[i].rel - 1;
    ASSERT(id >= 0); /* ty_fn_header resolved the names (ty_relation_annotation) */
    /* Over declared (rigid) parameters the relation is an assumption; over inferred ones it is
     * solved like any other and generalized. */
    if (h->complete) IR_VEC_PUSH(c->cx.givens, (uint32_t)c->cx.rels.len);
    TyRelation *rel = ty_relation_add_registered(&c->cx, (TyRelId)id, h->rels[i].nargs, h->rels[i].args, h->rels[i].span);
    rel->given = h->complete;
    if (h->rels[i].decoded) {
      rel->attrs = h->rels[i].decoded;
      rel->nattrs = h->rels[i].nattrs;
      rel->written = h->rels[i].attrs;
    }
  }
  TyFnScope scope = {.outer = c->scope, .self = self, .self_index = -1};
  c->scope = &scope;
  TyLocal **params = IR_NEW_ARRAY(TyLocal *, fn->nparams > 0 ? fn->nparams : 1);
  for (int i = 0; i < fn->nparams; i++) params[i] = bind(c, fn->params[i].name, h->type->u.func.args[i]);
  IrTFn *t = IR_NEW(IrTFn);
  t->src = src;
  t->nparams = fn->nparams;
  t->type = h->type;
  t->written_result = fn->ret != NULL;
  if (fn->ret) { /* a written result type: check the body against it, blaming the right part */
    t->body = infer(c, fn->body, h->type->u.func.ret, "the function's result");
  } else {
    t->body = ty_infer(c, fn->body);
    const IrExpr *tail = fn->body; /* point at the expression that gives the result, not at a let */
    while (tail->kind == IR_EXPR_LET) tail = tail->u.let.body;
    ty_expect(c, tail->span, h->type->u.func.ret, t->body->type, "the function's result");
  }
  for (int i = fn->nparams - 1; i >= 0; i--) unbind(c, params[i]);
  c->scope = scope.outer;
  t->nslots = scope.maxslots;
  t->ncaptures = scope.caps.len;
  t->captures = scope.caps.items;
  t->self = scope.self_index;
  for (int i = givens; i < c->cx.givens.len; i++) /* assumptions: the scheme keeps them, callers check */
    c->cx.rels.items[c->cx.givens.items[i]]->solved = true;
  c->cx.givens.len = givens;
  ty_pop_tparams(c, mark);
  return t;
}

IrTFn *ty_toplevel(TyCheck *c, const IrExpr *e) {
  TyFnScope scope = {.self_index = -1};
  c->scope = &scope;
  IrTFn *t = IR_NEW(IrTFn);
  t->src = e;
  t->body = ty_infer(c, e);
  c->scope = NULL;
  t->nslots = scope.maxslots;
  t->self = -1;
  return t;
}

/* An explicitly polymorphic function literal (`fn<a>(%x : a) { %x }`), its body checked with `a`
 * rigid, is instantiated where it stands, as a let-bound one is where it is used: applied to 3 it
 * is fn(int32) -> int32. The fresh variables keep the written names, for a type that is shown
 * generalized again (`-t`). */
static IrType *instantiate_literal(TyCheck *c, const IrExpr *e, const TyHeader *h) {
  IrType **args = IR_NEW_ARRAY(IrType *, h->ntparams);
  for (int i = 0; i < h->ntparams; i++) {
    args[i] = ty_fresh(&c->cx, h->tparams[i].kind == IR_KIND_UNKNOWN ? IR_KIND_TYPE : h->tparams[i].kind, e->span);
    c->cx.vars.items[args[i]->u.hole.id].hint = h->tparams[i].name;
  }
  TyHeader resolved = *h; /* the result's hole is `a` now: substitute through it */
  resolved.type = ty_resolve(&c->cx, h->type);
  return ty_instantiate(c, ty_header_scheme(&resolved), h->ntparams, args, e->span, NULL, NULL);
}

/* ---------------------------------------------------------------- let */

/* Binds one let (or graph binding) into t, its typed form: a function literal is recursive and
 * generalized (the value restriction: other values are not). */
static TyLocal *infer_binding(TyCheck *c, const IrExpr *let, IrTExpr *t) {
  const IrParam *v = &let->u.let.var;
  const IrExpr *value = let->u.let.value;
  IrType *ann = v->ann ? ty_annotation(c, v->ann, IR_KIND_TYPE) : NULL;
  TyLocal *l;
  if (value->kind != IR_EXPR_FN) {
    t->u.let.value = ty_infer(c, value);
    IrType *vt = t->u.let.value->type;
    if (ann) {
      ty_expect(c, value->span, ann, vt, "the value bound to `%%%s`", v->name->name);
      t->u.let.value->expect = ann; /* to be checked at run time if a `?` stood in for a dimension of ann */
      vt = ann;
    }
    ty_check_size(c, let->span, vt, false, "`%%%s`", v->name->name);
    l = bind(c, v->name, vt);
    if (!ann && ty_prune(&c->cx, vt)->kind == IR_TYPE_FUNC) {
      ty_holes_of(&c->cx, vt, &l->restricted_holes);
      if (l->restricted_holes.len) l->restricted = value;
    }
  } else {
    c->cx.level++;
    TyHeader h = ty_fn_header(c, &value->u.fn, value->span, false);
    ty_note_seen(c, value, h.type); /* its parameters' types, should its body fail */
    if (ann) ty_expect(c, value->span, ann, h.type, "the function bound to `%%%s`", v->name->name);
    TyLocal *self = bind(c, v->name, h.type);
    IrTFn *fn = ty_fn_body(c, value, &h, self);
    t->u.let.value = texpr(IR_EXPR_FN, value, h.type);
    t->u.let.value->u.fn = fn;
    ty_solve_or_fail(c);
    c->cx.level--;
    ir_symmap_put(&c->locals, self->name, self->shadowed); /* out of scope, its slot kept for l */
    IrType *scheme = ty_generalize(c, h.type, h.ntparams, h.tparams);
    ty_check_size(c, let->span, scheme, false, "`%%%s`", v->name->name);
    l = bind_at(c, v->name, scheme, self->slot);
  }
  t->u.let.slot = l->slot;
  return l;
}

/* ---------------------------------------------------------------- expressions */

IrTExpr *ty_infer(TyCheck *c, const IrExpr *e) { return infer(c, e, NULL, NULL); }

/* A variable's use: its type instantiated, and where the function being checked finds it. */
static IrTExpr *infer_local(TyCheck *c, const IrExpr *e, IrType *expected, const char *what) {
  TyLocal *l = ir_symmap_get(&c->locals, e->u.name);
  if (!l && e->graph_value) { /* TVM's unscoped graph binding, out of its scope: the bound value here */
    const char *outer = c->graph_use;
    c->graph_use = ir_printf("note: `%%%s` (line %d) is used out of the scope that binds it, as TVM's graph bindings "
                             "may be; its value is computed there, where this variable is not in scope",
                             e->u.name->name, e->span.line);
    IrTExpr *t = infer(c, e->graph_value, expected, what);
    c->graph_use = outer;
    return t;
  }
  if (!l && c->session) { /* a session binding: a REPL input's `let %x = e` or `%it` */
    if (ir_symmap_get(&c->failed_values, e->u.name)) ty_skip(c);
    const IrTDef *def = ir_symmap_get(&c->chunk_values, e->u.name);
    if (!def) def = ir_symmap_get(&c->m->values, e->u.name);
    if (def) {
      int mark = c->cx.rels.len;
      IrTExpr *t = texpr(IR_EXPR_GLOBAL, e, ty_instantiate(c, def->scheme, 0, NULL, e->span, NULL, NULL));
      made_by(c, mark, t);
      t->u.def = def;
      if (expected) ty_expect(c, e->span, expected, t->type, "%s", what);
      t->expect = expected;
      return t;
    }
  }
  if (!l) {
    if (c->session && !strcmp(e->u.name->name, "it"))
      ty_fail(c, e->span, "`%%it` has no value yet: it is the value of the last expression the REPL showed (one "
                          "whose type is fully known)");
    const char *hint = ir_symmap_get(&c->m->globals, e->u.name) || ir_symmap_get(&c->chunk_defs, e->u.name)
                           ? ir_printf("hint: a global function is written `@%s`", e->u.name->name)
                           : NULL;
    const char *dot = strchr(e->u.name->name, '.'); /* `%t.x`: a name with a dot, as TVM's importers give */
    if (!hint && dot && ir_symmap_get(&c->locals, ir_sym_n(e->u.name->name, (size_t)(dot - e->u.name->name))))
      hint = ir_printf("hint: names may hold dots; to project a field of `%%%.*s`, use its index, as in `%%%.*s.0`",
                       (int)(dot - e->u.name->name), e->u.name->name, (int)(dot - e->u.name->name), e->u.name->name);
    const char *close = hint ? NULL
                             : misspelt(3, (const IrSymMap *[]){&c->locals, c->session ? &c->chunk_values : NULL,
                                                                c->session ? &c->m->values : NULL},
                                        e->u.name);
    if (close) hint = ir_printf("hint: did you mean `%%%s`?", close);
    ty_fail_notes(c, e->span, TY_NOTES(hint, c->graph_use), "unknown variable `%%%s`", e->u.name->name);
  }
  int mark = c->cx.rels.len;
  IrTExpr *t = texpr(IR_EXPR_LOCAL, e, ty_instantiate(c, l->type, 0, NULL, e->span, NULL, NULL));
  made_by(c, mark, t);
  t->u.var = where(c->scope, l);
  if (l->type->kind == IR_TYPE_FUNC && l->type->u.func.ntparams) t->scheme = l->type;
  if (expected) ty_expect(c, e->span, expected, t->type, "%s", what);
  t->expect = expected;
  return t;
}

static IrTExpr *infer_proj(TyCheck *c, const IrExpr *e) {
  IrTExpr *t = texpr(IR_EXPR_PROJ, e, NULL);
  t->u.proj.tuple = ty_infer(c, e->u.proj.tuple);
  int i = t->u.proj.index = e->u.proj.index;
  IrType *tt = ty_prune(&c->cx, t->u.proj.tuple->type);
  if (tt->kind == IR_TYPE_HOLE) { /* not known yet: a relation waits for it */
    t->type = ty_fresh(&c->cx, IR_KIND_TYPE, e->span);
    IrType **args = IR_NEW_ARRAY(IrType *, 3);
    args[0] = tt;
    args[1] = ir_type_dim(i, (IrSpan){0});
    args[2] = t->type;
    ty_relation_add_registered(&c->cx, TY_REL_TUPLE_GET_ITEM, 3, args, e->span);
    ty_solve_or_fail(c);
  } else if (tt->kind != IR_TYPE_TUPLE) {
    ty_fail(c, e->span, "`.%d` takes a field of a tuple, but this value is %s", i, ty_show(c, tt));
  } else if (i >= tt->u.tuple.n) {
    ty_fail(c, e->span, "this tuple has %d field%s (numbered from 0), so there is no field %d", tt->u.tuple.n,
            tt->u.tuple.n == 1 ? "" : "s", i);
  } else {
    t->type = tt->u.tuple.fields[i];
  }
  return t;
}

/* A let chain, walked with a loop; every let of it has the type of the chain's body. */
static IrTExpr *infer_let(TyCheck *c, const IrExpr *e, IrType *expected, const char *what) {
  LocalList bound = {0};
  IR_VEC(IrTExpr *) lets = {0};
  const IrExpr *cur = e;
  for (; cur->kind == IR_EXPR_LET; cur = cur->u.let.body) {
    IrTExpr *t = texpr(IR_EXPR_LET, cur, NULL);
    IR_VEC_PUSH(bound, infer_binding(c, cur, t));
    IR_VEC_PUSH(lets, t);
  }
  IrTExpr *body = infer(c, cur, expected, what);
  for (int k = lets.len - 1; k >= 0; k--) {
    lets.items[k]->u.let.body = body;
    lets.items[k]->type = body->type;
    body = lets.items[k];
  }
  for (int k = bound.len - 1; k >= 0; k--) unbind(c, bound.items[k]);
  return body;
}

static IrTExpr *infer_if(TyCheck *c, const IrExpr *e, IrType *expected, const char *what) {
  IrTExpr *t = texpr(IR_EXPR_IF, e, NULL);
  IrTExpr *cond = t->u.ifx.cond = ty_infer(c, e->u.ifx.cond);
  ty_solve_or_fail(c);
  TyMismatch why = TY_MISMATCH_INIT;
  if (!ty_unify(&c->cx, cond->type, scalar(IR_DT_BOOL, 1), &why)) {
    IrType *p = ty_prune(&c->cx, cond->type);
    bool bool_tensor = p->kind == IR_TYPE_TENSOR && ty_prune(&c->cx, p->u.tensor.dtype)->kind == IR_TYPE_DTYPE &&
                       ty_prune(&c->cx, p->u.tensor.dtype)->u.dtype.code == IR_DT_BOOL;
    ty_fail_notes(c, e->u.ifx.cond->span,
                  TY_NOTES("expected: bool (that is, Tensor[(), bool])", ir_printf("found:    %s", ty_show(c, cond->type)),
                           bool_tensor ? "hint: a condition is one boolean; to test every element, reduce the "
                                         "tensor first"
                                       : NULL),
                  "the condition of `if` must be a single bool");
  }
  if (expected) {
    t->u.ifx.then = infer(c, e->u.ifx.then, expected, what);
    t->u.ifx.els = infer(c, e->u.ifx.els, expected, what);
    t->type = expected;
    return t;
  }
  t->u.ifx.then = ty_infer(c, e->u.ifx.then);
  t->u.ifx.els = ty_infer(c, e->u.ifx.els);
  ty_expect(c, e->u.ifx.els->span, t->u.ifx.then->type, t->u.ifx.els->type, "the `else` branch");
  t->u.ifx.els->expect = t->u.ifx.then->type;
  t->type = t->u.ifx.then->type;
  return t;
}

static IrTExpr *infer_ref(TyCheck *c, const IrExpr *e) {
  IrTExpr *t = texpr(e->kind, e, NULL);
  if (e->kind == IR_EXPR_REF) {
    t->u.ref.a = ty_infer(c, e->u.ref.a);
    t->type = ir_type_new(IR_TYPE_REF, (IrSpan){0});
    t->type->u.ref = t->u.ref.a->type;
    return t;
  }
  IrType *inner = ty_fresh(&c->cx, IR_KIND_TYPE, e->span);
  IrType *r = ir_type_new(IR_TYPE_REF, (IrSpan){0});
  r->u.ref = inner;
  t->u.ref.a = ty_infer(c, e->u.ref.a);
  ty_expect(c, e->u.ref.a->span, r, t->u.ref.a->type, "the reference given to %s",
            e->kind == IR_EXPR_REF_READ ? "ref_read" : "ref_write");
  if (e->kind == IR_EXPR_REF_READ) {
    t->type = inner;
  } else {
    t->u.ref.b = ty_infer(c, e->u.ref.b);
    ty_expect(c, e->u.ref.b->span, inner, t->u.ref.b->type, "the value written");
    t->u.ref.b->expect = inner;
    t->type = ir_type_tuple(0, NULL, (IrSpan){0});
  }
  return t;
}

/* Infers e; when `expected` is given, e is checked against it, and a mismatch is reported at the
 * part that gives the value: a let's body, a branch of `if`, a clause of `match`. */
static IrTExpr *infer_node(TyCheck *c, const IrExpr *e, IrType *expected, const char *what) {
  if (__builtin_expect(ir_interrupted, 0)) {
    ir_interrupted = 0;
    c->stopped = true; /* the chunk's other units are not checked either */
    ty_fail(c, e->span, "interrupted: checking stopped here (Ctrl-C)");
  }
  IrTExpr *t = NULL;
  switch (e->kind) {
  case IR_EXPR_LOCAL: return infer_local(c, e, expected, what);
  case IR_EXPR_GLOBAL: t = global_ref(c, e, 0, NULL); break;
  case IR_EXPR_CTOR:
    t = ctor_ref(c, e, 0, NULL);
    if (t->u.ctor->src->nargs == 0) t->type = t->type->u.func.ret; /* a bare nullary constructor is its value */
    break;
  case IR_EXPR_OP:
    t = texpr(IR_EXPR_OP, e, op_value_type(c, e));
    t->u.op = (IrOpId)e->u.op;
    break;
  case IR_EXPR_LIT:
    t = texpr(IR_EXPR_LIT, e, literal_type(c, e, &e->u.lit));
    if (!e->u.lit.suffixed) IR_VEC_PUSH(c->literals, t);
    break;
  case IR_EXPR_TENSOR:
    t = texpr(IR_EXPR_TENSOR, e, tensor_literal_type(c, e));
    IR_VEC_PUSH(c->literals, t);
    break;
  case IR_EXPR_FILL:
    t = texpr(IR_EXPR_FILL, e, fill_type(c, e));
    IR_VEC_PUSH(c->literals, t);
    break;
  case IR_EXPR_TUPLE: {
    int n = e->u.tuple.n;
    t = texpr(IR_EXPR_TUPLE, e, NULL);
    t->u.tuple.n = n;
    t->u.tuple.items = IR_NEW_ARRAY(IrTExpr *, n > 0 ? n : 1);
    IrType **fields = IR_NEW_ARRAY(IrType *, n);
    for (int i = 0; i < n; i++) fields[i] = (t->u.tuple.items[i] = ty_infer(c, e->u.tuple.fields[i]))->type;
    t->type = ir_type_tuple(n, fields, (IrSpan){0});
    break;
  }
  case IR_EXPR_PROJ: t = infer_proj(c, e); break;
  case IR_EXPR_LET: return infer_let(c, e, expected, what);
  case IR_EXPR_FN: {
    TyHeader h = ty_fn_header(c, &e->u.fn, e->span, false);
    ty_note_seen(c, e, h.type); /* its parameters' types, should its body fail */
    t = texpr(IR_EXPR_FN, e, h.type);
    t->u.fn = ty_fn_body(c, e, &h, NULL);
    if (e->u.fn.ntparams) t->type = instantiate_literal(c, e, &h);
    break;
  }
  case IR_EXPR_CALL: t = infer_call(c, e); break;
  case IR_EXPR_IF:
    t = infer_if(c, e, expected, what);
    if (expected) return t;
    break;
  case IR_EXPR_MATCH:
    t = infer_match(c, e, expected, what);
    if (expected) return t;
    break;
  case IR_EXPR_REF:
  case IR_EXPR_REF_READ:
  case IR_EXPR_REF_WRITE: t = infer_ref(c, e); break;
  case IR_EXPR_FREE: /* `free_var %x : T;`: the let's annotation gives the type */
    t = texpr(IR_EXPR_FREE, e, ty_fresh(&c->cx, IR_KIND_TYPE, e->span));
    IR_VEC_PUSH(c->free_vars, t);
    break;
  case IR_EXPR_META: t = texpr(IR_EXPR_META, e, meta_type(c, e)); break;
  case IR_EXPR_HOLE: /* whatever its place expects: it is described once the group is solved */
    t = texpr(IR_EXPR_HOLE, e, expected ? expected : ty_fresh(&c->cx, IR_KIND_TYPE, e->span));
    ty_hole(c, t);
    break;
  }
  if (!t) {
    UNREACHABLE("an expression of no kind");
    ty_fail(c, e->span, "internal error: an expression of no kind");
  }
  if (expected) ty_expect(c, e->span, expected, t->type, "%s", what);
  t->expect = expected;
  return t;
}

/* With c->seen (:annot of an expression that may fail to check), each node's type is noted as soon
 * as it is found, for showing what was found before an error. */
static IrTExpr *infer(TyCheck *c, const IrExpr *e, IrType *expected, const char *what) {
  IrTExpr *t = infer_node(c, e, expected, what);
  if (t->type) ty_note_seen(c, e, t->type);
  return t;
}

/* ---------------------------------------------------------------- annotation */

/* Every unsuffixed literal must fit the type it got (ir_lit_fit: 300 is no int8, 70000 no float16). */
void ty_check_literals(TyCheck *c) {
  char why[160];
  for (int i = 0; i < c->literals.len; i++) {
    const IrExpr *e = c->literals.items[i]->src;
    IrType *t = ty_resolve(&c->cx, c->literals.items[i]->type);
    if (t->kind != IR_TYPE_TENSOR || t->u.tensor.dtype->kind != IR_TYPE_DTYPE) continue;
    IrDType dt = t->u.tensor.dtype->u.dtype;
    const IrLit *lits = e->kind == IR_EXPR_LIT ? &e->u.lit : e->kind == IR_EXPR_FILL ? &e->u.fill.value : e->u.tensor.elems;
    int64_t n = e->kind == IR_EXPR_TENSOR ? e->u.tensor.count : 1;
    for (int64_t k = 0; k < n; k++) {
      char name[24];
      switch (ir_lit_fit(&lits[k], dt, why, sizeof why)) {
      case IR_FIT_OK: break;
      case IR_FIT_NEGATIVE_UNSIGNED:
        ty_fail(c, e->span, "-%llu cannot be %s", (unsigned long long)lits[k].mag, ir_dtype_name(dt, name));
      case IR_FIT_OUT_OF_RANGE: ty_fail(c, e->span, "%s", why);
      }
    }
  }
  c->literals.len = 0;
}

static void annotate_pattern(TyCheck *c, IrTPattern *p) {
  p->type = ty_resolve(&c->cx, p->type);
  for (int i = 0; i < p->n; i++) annotate_pattern(c, p->args[i]);
}

static void annotate(TyCheck *c, IrTExpr *e);
static void annotate_fn(TyCheck *c, IrTFn *fn);

static void annotate_child(IrTExpr *child, void *c) { annotate(c, child); }

/* e's type, resolved; a dimension whose arithmetic overflows int64 once its holes are known (a
 * relation gave `n * 4611686018427387904`, and n became 2) is an error here, not a type that the
 * run time would find wrong. */
static IrType *resolved_type(TyCheck *c, const IrTExpr *e) {
  c->cx.dim_overflow = NULL;
  IrType *t = ty_resolve(&c->cx, e->type);
  if (c->cx.dim_overflow)
    ty_fail(c, e->src->span, "dimension too large: %s overflows int64", ty_show(c, c->cx.dim_overflow));
  return t;
}

/* Children first, so that an error in a type (see resolved_type) points at the innermost
 * expression whose type has it. */
static void annotate(TyCheck *c, IrTExpr *e) {
  IrTExpr *chain = e;
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) annotate(c, e->u.let.value); /* a loop: chains can be long */
  if (e->kind == IR_EXPR_FN) annotate_fn(c, e->u.fn);
  else ir_texpr_each_child(e, annotate_child, c);
  if (e->type) e->type = resolved_type(c, e);
  for (IrTExpr *x = chain; x != e; x = x->u.let.body) x->type = ty_resolve(&c->cx, x->type); /* the body's type */
  if (e->kind == IR_EXPR_MATCH) {
    for (int i = 0; i < e->u.match.nclauses; i++) annotate_pattern(c, e->u.match.clauses[i].pat);
    ty_check_exhaustive(c, e);
  }
}

static void annotate_fn(TyCheck *c, IrTFn *fn) {
  annotate(c, fn->body);
  if (fn->type) fn->type = ty_resolve(&c->cx, fn->type);
}

/* ---------------------------------------------------------------- run-time checks of `?` */

typedef IR_VEC(Sym) SymList;
typedef IR_VEC(int) IntList;

static void add_var(SymList *vars, Sym name) {
  for (int i = 0; i < vars->len; i++)
    if (vars->items[i] == name) return;
  IR_VEC_PUSH(*vars, name);
}

static void type_vars(const IrType *t, SymList *vars);

static void has_dims_child(IrType **slot, void *found);

/* Whether t has a dimension to check (a tensor of rank 1 or more, or of a Shape variable). */
static bool has_dims(const IrType *t) {
  if (t->kind == IR_TYPE_TENSOR) return t->u.tensor.shape->kind != IR_TYPE_SHAPE || t->u.tensor.shape->u.shape.rank > 0;
  if (t->kind == IR_TYPE_FUNC) return false;
  bool found = false;
  ty_each_child((IrType *)t, has_dims_child, &found);
  return found;
}

static void has_dims_child(IrType **slot, void *found) {
  if (!*(bool *)found && has_dims(*slot)) *(bool *)found = true;
}

static void type_vars_child(IrType **slot, void *vars) { type_vars(*slot, vars); }

/* The shape variables of dimension d (arithmetic included). */
static void dim_vars(const IrType *d, SymList *vars) {
  if (d->kind == IR_TYPE_VAR) add_var(vars, d->u.var.name);
  if (d->kind == IR_TYPE_DIMOP) {
    dim_vars(d->u.dimop.a, vars);
    dim_vars(d->u.dimop.b, vars);
  }
}

static bool needs(const IrType *have, const IrType *want, SymList *vars);

/* Dimension have against want: a `?` that want fixes (a constant, a variable, arithmetic). */
static bool dim_needs(const IrType *have, const IrType *want, SymList *vars) {
  if (have->kind != IR_TYPE_ANY || want->kind == IR_TYPE_ANY || want->kind == IR_TYPE_HOLE) return false;
  dim_vars(want, vars);
  return true;
}

static bool has_any(const IrType *shape) {
  if (shape->kind != IR_TYPE_SHAPE) return false;
  for (int i = 0; i < shape->u.shape.rank; i++)
    if (shape->u.shape.dims[i]->kind == IR_TYPE_ANY) return true;
  return false;
}

static bool shape_needs(const IrType *have, const IrType *want, SymList *vars) {
  if (have->kind == IR_TYPE_SHAPE && want->kind == IR_TYPE_VAR && has_any(have)) { /* a Shape variable */
    add_var(vars, want->u.var.name);
    return true;
  }
  if (have->kind != IR_TYPE_SHAPE || want->kind != IR_TYPE_SHAPE || have->u.shape.rank != want->u.shape.rank) return false;
  bool any = false;
  for (int i = 0; i < have->u.shape.rank; i++) any |= dim_needs(have->u.shape.dims[i], want->u.shape.dims[i], vars);
  return any;
}

/* Whether a value of type `have` arriving where `want` is expected must be checked at run time: a
 * `?` of have meets a dimension that want fixes, in a tensor, a tuple, a data type's argument or a
 * reference; or a function whose result has a `?` where want's fixes it (or whose parameter fixes
 * what want's leaves `?`): the function is wrapped so that each call is checked (on its own or in
 * a tuple; inside a data type or a reference, wrapped_in_data refuses it). The shape variables at
 * such places are added to *vars: the check needs their values. */
static bool needs(const IrType *have, const IrType *want, SymList *vars) {
  if (!have || !want || have->kind != want->kind) return false;
  bool any = false;
  switch (want->kind) {
  case IR_TYPE_TENSOR: return shape_needs(have->u.tensor.shape, want->u.tensor.shape, vars);
  case IR_TYPE_TUPLE:
    if (have->u.tuple.n != want->u.tuple.n) return false;
    for (int i = 0; i < want->u.tuple.n; i++) any |= needs(have->u.tuple.fields[i], want->u.tuple.fields[i], vars);
    return any;
  case IR_TYPE_CALL:
    if (have->u.call.nargs != want->u.call.nargs) return false;
    for (int i = 0; i < want->u.call.nargs; i++) {
      const IrType *h = have->u.call.args[i], *w = want->u.call.args[i];
      any |= h->kind == IR_TYPE_ANY ? dim_needs(h, w, vars) : h->kind == IR_TYPE_SHAPE ? shape_needs(h, w, vars)
                                                                                         : needs(h, w, vars);
    }
    return any;
  case IR_TYPE_REF: return needs(have->u.ref, want->u.ref, vars);
  case IR_TYPE_FUNC: /* the place's arguments flow into the function's parameters, its result out */
    if (have->u.func.nargs != want->u.func.nargs || have->u.func.ntparams || want->u.func.ntparams) return false;
    for (int i = 0; i < want->u.func.nargs; i++) any |= needs(want->u.func.args[i], have->u.func.args[i], vars);
    return needs(have->u.func.ret, want->u.func.ret, vars) | any;
  default: return false;
  }
}

/* Whether have, arriving where want is expected, has a function that needs() would wrap inside a
 * data type's argument or a reference (in_data: below one already), where the run time cannot wrap
 * it: a list cell or a reference is shared, not made anew as a tuple is. */
static bool wrapped_in_data(const IrType *have, const IrType *want, bool in_data) {
  if (!have || !want || have->kind != want->kind) return false;
  switch (want->kind) {
  case IR_TYPE_TUPLE:
    if (have->u.tuple.n != want->u.tuple.n) return false;
    for (int i = 0; i < want->u.tuple.n; i++)
      if (wrapped_in_data(have->u.tuple.fields[i], want->u.tuple.fields[i], in_data)) return true;
    return false;
  case IR_TYPE_CALL:
    if (have->u.call.nargs != want->u.call.nargs) return false;
    for (int i = 0; i < want->u.call.nargs; i++)
      if (wrapped_in_data(have->u.call.args[i], want->u.call.args[i], true)) return true;
    return false;
  case IR_TYPE_REF: return wrapped_in_data(have->u.ref, want->u.ref, true);
  case IR_TYPE_FUNC: {
    SymList vars = {0};
    if (in_data) return needs(have, want, &vars);
    if (have->u.func.nargs != want->u.func.nargs) return false;
    for (int i = 0; i < want->u.func.nargs; i++) /* a wrapped function's arguments flow the other way */
      if (wrapped_in_data(want->u.func.args[i], have->u.func.args[i], false)) return true;
    return wrapped_in_data(have->u.func.ret, want->u.func.ret, false);
  }
  default: return false;
  }
}

/* Whether want has a function type on its own or in tuples (the run time wraps those). */
static bool has_wrappable(const IrType *want) {
  if (want->kind == IR_TYPE_FUNC) return true;
  if (want->kind != IR_TYPE_TUPLE) return false;
  for (int i = 0; i < want->u.tuple.n; i++)
    if (has_wrappable(want->u.tuple.fields[i])) return true;
  return false;
}

/* The functions around the node being decided, innermost last. */
typedef IR_VEC(IrTFn *) FnStack;

/* Where shape variable `var` shows as a dimension of one of fn's parameters (a tensor, or a tensor
 * in tuples): *param, the tuple path and the axis (-1: the whole shape, for a Shape variable). */
static bool find_in(const IrType *t, Sym var, IntList *path, int *axis) {
  if (t->kind == IR_TYPE_TENSOR) {
    const IrType *sh = t->u.tensor.shape;
    if (sh->kind == IR_TYPE_VAR && sh->u.var.name == var) return *axis = -1, true;
    if (sh->kind != IR_TYPE_SHAPE) return false;
    for (int i = 0; i < sh->u.shape.rank; i++)
      if (sh->u.shape.dims[i]->kind == IR_TYPE_VAR && sh->u.shape.dims[i]->u.var.name == var) return *axis = i, true;
    return false;
  }
  if (t->kind != IR_TYPE_TUPLE) return false;
  for (int i = 0; i < t->u.tuple.n; i++) {
    IR_VEC_PUSH(*path, i);
    if (find_in(t->u.tuple.fields[i], var, path, axis)) return true;
    path->len--;
  }
  return false;
}

/* fn at depth `depth` of the stack reads what the function at depth `from` holds in slot `slot`:
 * through captures, added to the functions between them as needed (as the walk that placed the
 * variables would have, had it known). */
static IrTVar reach(FnStack *fns, int from, int slot, int depth) {
  if (depth == from) return (IrTVar){false, slot};
  IrTVar outer = reach(fns, from, slot, depth - 1);
  IrTFn *fn = fns->items[depth];
  for (int i = 0; i < fn->ncaptures; i++)
    if (fn->captures[i].captured == outer.captured && fn->captures[i].index == outer.index) return (IrTVar){true, i};
  IrTVar *caps = IR_NEW_ARRAY(IrTVar, fn->ncaptures + 1);
  if (fn->ncaptures) memcpy(caps, fn->captures, sizeof(IrTVar) * (size_t)fn->ncaptures);
  caps[fn->ncaptures] = outer;
  fn->captures = caps;
  return (IrTVar){true, fn->ncaptures++};
}

static const char *param_name(const IrTFn *fn, int i) {
  return fn->src->kind == IR_EXPR_FN && i < fn->src->u.fn.nparams ? fn->src->u.fn.params[i].name->name : "?";
}

/* Every shape variable of t's dimensions. */
static void type_vars(const IrType *t, SymList *vars) {
  if (t->kind == IR_TYPE_VAR && (t->u.var.kind == IR_KIND_SHAPEVAR || t->u.var.kind == IR_KIND_SHAPE)) {
    add_var(vars, t->u.var.name);
    return;
  }
  if (t->kind == IR_TYPE_FUNC) return;
  ty_each_child((IrType *)t, type_vars_child, vars);
}

/* The check of a value of type `have` at a place of type `expect`, or NULL when none is needed.
 * With have NULL, the check of every dimension `expect` fixes (an operator's result whose
 * relation was left open: its type was assumed, not found), where the variables the parameters
 * tell are read from them and the others are not checked. */
static const IrTCheck *decide(TyCheck *c, FnStack *fns, const IrType *have, IrType *expect, IrSpan at) {
  if (!expect) return NULL;
  IrType *want = ty_resolve(&c->cx, expect);
  SymList vars = {0};
  if (!have && !has_dims(want)) return NULL;
  if (!have) type_vars(want, &vars);
  else if (!needs(have, want, &vars)) return NULL;
  if (have && wrapped_in_data(have, want, false))
    ty_fail_notes(c, at,
                  TY_NOTES(ir_printf("found:    %s", ty_show(c, (IrType *)have)), ir_printf("expected: %s", ty_show(c, want)),
                           "hint: relay checks such a function at each call by wrapping it where it arrives, on its own "
                           "or in a tuple; give the function a type with the sizes written, or pass it on its own"),
                  "a function whose type has `?` meets a type that fixes its sizes here, inside a data type's value or "
                  "a reference, where relay cannot check its calls");
  IrTCheck *k = IR_NEW(IrTCheck);
  k->want = want;
  if (have && has_wrappable(want)) k->have = have;
  IrTDimSource *src = IR_NEW_ARRAY(IrTDimSource, vars.len > 0 ? vars.len : 1);
  for (int v = 0; v < vars.len; v++) {
    bool found = false;
    for (int d = fns->len - 1; d >= 0 && !found; d--) { /* the innermost function that has it */
      IrTFn *fn = fns->items[d];
      if (!fn->type || fn->type->kind != IR_TYPE_FUNC) continue;
      for (int i = 0; i < fn->nparams && !found; i++) {
        IntList path = {0};
        int axis = 0;
        if (!find_in(fn->type->u.func.args[i], vars.items[v], &path, &axis)) continue;
        src[v] = (IrTDimSource){vars.items[v], reach(fns, d, i, fns->len - 1), path.len, path.items, axis,
                                axis < 0 ? ir_printf("the shape of %%%s", param_name(fn, i))
                                         : ir_printf("dimension %d of %%%s", axis, param_name(fn, i))};
        found = true;
      }
    }
    if (!found && !have) { /* not checked: the walk learns it from the value */
      src[v] = (IrTDimSource){vars.items[v], {false, -1}, 0, NULL, 0, NULL};
      continue;
    }
    if (!found)
      ty_fail_notes(c, at,
                    TY_NOTES(ir_printf("found:    %s", ty_show(c, (IrType *)have)), ir_printf("expected: %s", ty_show(c, want)),
                             ir_printf("hint: relay checks a `?` against `%s` when the value arrives, reading `%s` from a "
                                       "parameter whose type has it as a dimension; here no parameter does (give one "
                                       "that type, or write `?` in the expected type)",
                                       vars.items[v]->name, vars.items[v]->name)),
                    "a size known only at run time (`?`) meets `%s` here, which nothing at run time tells", vars.items[v]->name);
  }
  k->nsources = vars.len;
  k->sources = src;
  return k;
}

/* How many places of the parameter types `t` gives the shape variable `var` (a data type's or a
 * reference's argument counts as many, a function's parameters and result one each). */
static int occurrences(const IrType *t, Sym var, int weight) {
  if (t->kind == IR_TYPE_VAR) return t->u.var.name == var ? weight : 0;
  int n = 0;
  switch (t->kind) {
  case IR_TYPE_TENSOR: return occurrences(t->u.tensor.shape, var, weight);
  case IR_TYPE_SHAPE:
    for (int i = 0; i < t->u.shape.rank; i++) n += occurrences(t->u.shape.dims[i], var, weight);
    return n;
  case IR_TYPE_DIMOP: return occurrences(t->u.dimop.a, var, weight) + occurrences(t->u.dimop.b, var, weight);
  case IR_TYPE_TUPLE:
    for (int i = 0; i < t->u.tuple.n; i++) n += occurrences(t->u.tuple.fields[i], var, weight);
    return n;
  case IR_TYPE_CALL:
    for (int i = 0; i < t->u.call.nargs; i++) n += occurrences(t->u.call.args[i], var, 2);
    return n;
  case IR_TYPE_REF: return occurrences(t->u.ref, var, 2);
  case IR_TYPE_FUNC: /* a function argument is wrapped by the checked entry, its calls checked */
    for (int i = 0; i < t->u.func.nargs; i++) n += occurrences(t->u.func.args[i], var, weight);
    return n + occurrences(t->u.func.ret, var, weight);
  default: return 0;
  }
}

/* What scheme type s has at the place of variable `var`, in its instance i (resolved), or NULL. */
static const IrType *instance_of(const IrType *s, const IrType *i, Sym var) {
  if (!s || !i) return NULL;
  if (s->kind == IR_TYPE_VAR) return s->u.var.name == var ? i : NULL;
  if (s->kind != i->kind) return NULL;
  const IrType *r = NULL;
  switch (s->kind) {
  case IR_TYPE_TENSOR: return instance_of(s->u.tensor.shape, i->u.tensor.shape, var);
  case IR_TYPE_SHAPE:
    for (int k = 0; k < s->u.shape.rank && !r && k < i->u.shape.rank; k++) r = instance_of(s->u.shape.dims[k], i->u.shape.dims[k], var);
    return r;
  case IR_TYPE_TUPLE:
    for (int k = 0; k < s->u.tuple.n && !r && k < i->u.tuple.n; k++) r = instance_of(s->u.tuple.fields[k], i->u.tuple.fields[k], var);
    return r;
  case IR_TYPE_CALL:
    for (int k = 0; k < s->u.call.nargs && !r && k < i->u.call.nargs; k++) r = instance_of(s->u.call.args[k], i->u.call.args[k], var);
    return r;
  case IR_TYPE_REF: return instance_of(s->u.ref, i->u.ref, var);
  default: return NULL;
  }
}

static bool mentions_any(const IrType *t) {
  if (t->kind == IR_TYPE_ANY) return true;
  if (t->kind == IR_TYPE_SHAPE)
    for (int i = 0; i < t->u.shape.rank; i++)
      if (mentions_any(t->u.shape.dims[i])) return true;
  if (t->kind == IR_TYPE_DIMOP) return mentions_any(t->u.dimop.a) || mentions_any(t->u.dimop.b);
  return false;
}

/* Whether t has `var` in a function type inside a data type's argument or a reference (in_data:
 * below one already): a checked entry cannot wrap that function (wrap_functions in exec.c). */
static bool in_function_in_data(const IrType *t, Sym var, bool in_data) {
  switch (t->kind) {
  case IR_TYPE_TUPLE:
    for (int i = 0; i < t->u.tuple.n; i++)
      if (in_function_in_data(t->u.tuple.fields[i], var, in_data)) return true;
    return false;
  case IR_TYPE_CALL:
    for (int i = 0; i < t->u.call.nargs; i++)
      if (in_function_in_data(t->u.call.args[i], var, true)) return true;
    return false;
  case IR_TYPE_REF: return in_function_in_data(t->u.ref, var, true);
  case IR_TYPE_FUNC:
    if (in_data) return occurrences(t, var, 1) > 0;
    for (int i = 0; i < t->u.func.nargs; i++)
      if (in_function_in_data(t->u.func.args[i], var, false)) return true;
    return in_function_in_data(t->u.func.ret, var, false);
  default: return false;
  }
}

/* Whether the instance `inst` (resolved) of `scheme` gives a `?` to a shape variable that more
 * than one place of the parameters' types shares: then the callee's checked entry must see that
 * its arguments agree (IrTExpr.dynamic). *unchecked is set to such a variable that a function
 * inside a data type's argument or a reference has, which the entry could not check. */
static bool dynamic_instance(const IrType *scheme, const IrType *inst, Sym *unchecked) {
  if (!scheme || !inst || scheme->kind != IR_TYPE_FUNC || inst->kind != IR_TYPE_FUNC || !scheme->u.func.ntparams ||
      scheme->u.func.nargs != inst->u.func.nargs)
    return false;
  for (int p = 0; p < scheme->u.func.ntparams; p++) {
    const IrTypeParam *tp = &scheme->u.func.tparams[p];
    if (tp->kind != IR_KIND_SHAPEVAR && tp->kind != IR_KIND_SHAPE) continue;
    int n = 0;
    for (int a = 0; a < scheme->u.func.nargs; a++) n += occurrences(scheme->u.func.args[a], tp->name, 1);
    if (n < 2) continue;
    for (int a = 0; a < scheme->u.func.nargs; a++) {
      const IrType *v = instance_of(scheme->u.func.args[a], inst->u.func.args[a], tp->name);
      if (!v || !mentions_any(v)) continue;
      for (int b = 0; b < scheme->u.func.nargs && !*unchecked; b++)
        if (in_function_in_data(scheme->u.func.args[b], tp->name, false)) *unchecked = tp->name;
      return true;
    }
  }
  return false;
}

/* A call of `scheme` at instance e->type whose checked entry is needed (IrTExpr.dynamic). */
static void decide_dynamic(TyCheck *c, IrTExpr *e, const IrType *scheme) {
  Sym var = NULL;
  e->dynamic = dynamic_instance(scheme, e->type, &var);
  if (var)
    ty_fail_notes(c, e->src->span,
                  TY_NOTES(ir_printf("type:     %s", ty_show(c, (IrType *)scheme)),
                           ir_printf("instance: %s", ty_show(c, e->type)),
                           ir_printf("hint: relay checks a function's sizes at each call by wrapping it where it arrives, "
                                     "on its own or in a tuple; give the arguments types with `%s` written, or pass the "
                                     "function on its own",
                                     var->name)),
                  "a function whose type has `?` meets a type that fixes its sizes here, inside a data type's value or "
                  "a reference, where relay cannot check its calls");
}

static void decide_fn(TyCheck *c, FnStack *fns, IrTFn *fn);

typedef struct {
  TyCheck *c;
  FnStack *fns;
} DecideEnv;

static void decide_pattern(TyCheck *c, FnStack *fns, IrTPattern *p) {
  if (p->expect) p->check = decide(c, fns, p->type, p->expect, p->src->span);
  p->expect = NULL;
  for (int i = 0; i < p->n; i++) decide_pattern(c, fns, p->args[i]);
}

static void decide_checks(IrTExpr *e, void *env);

/* After annotate (types resolved): the `?` checks the run time makes, and the calls that need a
 * checked entry. A walk of its own: resolving a candidate's type during annotate would memoize
 * parts of later nodes' types first, and a dimension that overflows would then go unreported where
 * annotate looks for it (resolved_type). */
static void decide_checks(IrTExpr *e, void *env) {
  DecideEnv *d = env;
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) {
    decide_checks(e->u.let.value, d);
    e->check = decide(d->c, d->fns, e->type, e->expect, e->src->span);
    e->expect = NULL;
  }
  e->check = decide(d->c, d->fns, e->type, e->expect, e->src->span);
  e->expect = NULL;
  if (e->kind == IR_EXPR_CALL && e->u.call.callee->inexact) { /* the callee's where clause held as far as `?` allows */
    IrTCheck *k = (IrTCheck *)decide(d->c, d->fns, NULL, e->type, e->src->span);
    if (k) k->subject = "the result of this call";
    e->u.call.result_check = k;
  }
  if (e->kind == IR_EXPR_CALL && e->u.call.assumed) {
    {
      IrTCheck *k = (IrTCheck *)decide(d->c, d->fns, NULL, e->type, e->src->span);
      if (k) k->subject = ir_printf("the result of `%s`", ir_ops[e->u.call.callee->u.op].name);
      e->u.call.result_check = k;
    }
  }
  if (e->kind == IR_EXPR_GLOBAL && e->u.def) decide_dynamic(d->c, e, e->u.def->scheme);
  if (e->kind == IR_EXPR_LOCAL && e->scheme) decide_dynamic(d->c, e, e->scheme);
  if (e->kind == IR_EXPR_CTOR) decide_dynamic(d->c, e, e->u.ctor->scheme);
  if (e->kind == IR_EXPR_MATCH)
    for (int i = 0; i < e->u.match.nclauses; i++) decide_pattern(d->c, d->fns, e->u.match.clauses[i].pat);
  if (e->kind == IR_EXPR_FN) decide_fn(d->c, d->fns, e->u.fn);
  else ir_texpr_each_child(e, decide_checks, d);
}

static void decide_fn(TyCheck *c, FnStack *fns, IrTFn *fn) {
  IR_VEC_PUSH(*fns, fn);
  DecideEnv d = {c, fns};
  decide_checks(fn->body, &d);
  fns->len--;
}

void ty_annotate(TyCheck *c, IrTFn *fn) {
  annotate_fn(c, fn);
  for (int i = 0; !c->assumed_marked && i < c->cx.rels.len; i++) { /* once per group */
    TyRelation *rel = c->cx.rels.items[i];
    IrTExpr *n = rel->node;
    if (!n) continue;
    if (n->kind == IR_EXPR_CALL && (!rel->solved || rel->assumed)) n->u.call.assumed = true;
    if (n->kind != IR_EXPR_CALL && !n->inexact)
      for (int k = 0; k < rel->nargs && !n->inexact; k++) n->inexact = mentions_any_deep(ty_resolve(&c->cx, rel->args[k]));
  }
  c->assumed_marked = true;
  FnStack fns = {0};
  decide_fn(c, &fns, fn);
}
