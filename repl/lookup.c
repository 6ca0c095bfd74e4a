/* What an editor asks about a text (lookup.h): the text checked, then a walk over its syntax with
 * the names in scope, which records each occurrence of a name and what it names. */
#include "repl/lookup.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the typed nodes */

static void note_texpr(IrTExpr *e, void *m);

static void note_texprs(IrPtrMap *m, IrTExpr *e) {
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) { /* a loop: chains can be long */
    if (e->src) ir_ptrmap_put(m, e->src, e);
    note_texprs(m, e->u.let.value);
  }
  if (e->src) ir_ptrmap_put(m, e->src, e);
  ir_texpr_each_child(e, note_texpr, m);
}

static void note_texpr(IrTExpr *e, void *m) { note_texprs(m, e); }

/* ---------------------------------------------------------------- names in scope */

/* A binder in scope, and the one of its name that it hides (restored when it goes out of scope). */
typedef struct {
  Sym name;
  const void *binder, *hidden;
} Bound;

typedef struct {
  Session *s;
  LookupDoc *d;
  IR_VEC(Bound) scope;
  IrSymMap visible; /* name -> the innermost binder of that name */
  IrPtrMap graph; /* a graph binding's value -> its binder (IrParam), for uses out of its scope */
} Walk;

/* The span of a name written at sp's start: the sigil (if any) and the name's bytes. */
static IrSpan name_span(IrSpan sp, const char *sigil, Sym name) {
  size_t n = strlen(sigil) + strlen(name->name);
  if (sp.src && sp.off + n <= sp.src->len && !memcmp(sp.src->text + sp.off, sigil, strlen(sigil)) &&
      !memcmp(sp.src->text + sp.off + strlen(sigil), name->name, strlen(name->name)))
    sp.len = (uint32_t)n;
  return sp;
}

/* The first place at or after sp's start where `sigil name` is written (a declaration's name after
 * its keyword), or sp itself. */
static IrSpan find_name(IrSpan sp, const char *sigil, Sym name) {
  if (!sp.src) return sp;
  const char *text = sp.src->text, *end = text + sp.off + sp.len;
  size_t sl = strlen(sigil), nl = strlen(name->name);
  uint32_t line = sp.line, col = sp.col;
  for (const char *p = text + sp.off; p + sl + nl <= end; p++) {
    if (!memcmp(p, sigil, sl) && !memcmp(p + sl, name->name, nl)) {
      IrSpan out = {sp.src, (uint32_t)(p - text), (uint32_t)(sl + nl), line, col};
      return out;
    }
    if (*p == '\n') line++, col = 1;
    else if (((unsigned char)*p & 0xc0) != 0x80) col++;
  }
  return sp;
}

static void add(Walk *w, LookupName n) { IR_VEC_PUSH(w->d->names, n); }

static const IrType *type_of(Walk *w, const void *node) { return w->d->types ? ir_ptrmap_get(w->d->types, node) : NULL; }

static bool is_data(Walk *w, Sym name) {
  if (ir_symmap_get(&w->s->datas, name)) return true;
  for (int i = 0; w->d->prog && i < w->d->prog->nitems; i++)
    if (w->d->prog->items[i].kind == IR_ITEM_DATA && w->d->prog->items[i].name == name) return true;
  return false;
}

static void written_type(Walk *w, const IrType *t) {
  if (!t) return;
  switch (t->kind) {
  case IR_TYPE_TENSOR: written_type(w, t->u.tensor.shape), written_type(w, t->u.tensor.dtype); break;
  case IR_TYPE_TUPLE:
    for (int i = 0; i < t->u.tuple.n; i++) written_type(w, t->u.tuple.fields[i]);
    break;
  case IR_TYPE_FUNC:
    for (int i = 0; i < t->u.func.nargs; i++) written_type(w, t->u.func.args[i]);
    written_type(w, t->u.func.ret);
    break;
  case IR_TYPE_REF: written_type(w, t->u.ref); break;
  case IR_TYPE_CALL:
    if (is_data(w, t->u.call.name)) add(w, (LookupName){.kind = LOOKUP_DATA, .span = name_span(t->span, "", t->u.call.name), .target = t->u.call.name});
    for (int i = 0; i < t->u.call.nargs; i++) written_type(w, t->u.call.args[i]);
    break;
  case IR_TYPE_VAR:
    if (is_data(w, t->u.var.name)) add(w, (LookupName){.kind = LOOKUP_DATA, .span = name_span(t->span, "", t->u.var.name), .target = t->u.var.name});
    break;
  default: break;
  }
}

static void bind(Walk *w, Sym name, const void *binder, IrSpan span, const IrType *ann, const IrType *type) {
  (void)type;
  IR_VEC_PUSH(w->scope, ((Bound){name, binder, ir_symmap_get(&w->visible, name)}));
  ir_symmap_put(&w->visible, name, (void *)binder);
  if (name == ir_sym_seq()) return; /* `a; b`'s, which nothing names */
  add(w, (LookupName){.kind = LOOKUP_LOCAL, .span = name_span(span, "%", name), .target = binder, .binder = true,
                      .annotated = ann != NULL, .type = type});
  written_type(w, ann);
}

static void expr(Walk *w, const IrExpr *e);

/* Takes the binders made since mark out of scope. */
static void unwind(Walk *w, int mark) {
  while (w->scope.len > mark) {
    const Bound *b = &w->scope.items[--w->scope.len];
    ir_symmap_put(&w->visible, b->name, (void *)b->hidden);
  }
}

static void child(const IrExpr *e, void *env) { expr(env, e); }

static void pattern(Walk *w, const IrPattern *p) {
  switch (p->kind) {
  case IR_PAT_VAR: bind(w, p->name, p, p->span, p->ann, type_of(w, p)); break;
  case IR_PAT_CTOR:
    add(w, (LookupName){.kind = LOOKUP_CTOR, .span = name_span(p->span, "", p->name), .target = p->name, .type = type_of(w, p)});
    /* fall through */
  case IR_PAT_TUPLE:
    for (int i = 0; i < p->n; i++) pattern(w, p->args[i]);
    break;
  default: break;
  }
}

static const IrType *param_type(const IrType *fn, int i) {
  return fn && fn->kind == IR_TYPE_FUNC && i < fn->u.func.nargs ? fn->u.func.args[i] : NULL;
}

static void function(Walk *w, const IrExpr *e, const IrType *type) {
  int mark = w->scope.len;
  const IrFn *f = &e->u.fn;
  for (int i = 0; i < f->nparams; i++)
    bind(w, f->params[i].name, &f->params[i], f->params[i].span, f->params[i].ann, param_type(type, i));
  written_type(w, f->ret);
  expr(w, f->body);
  unwind(w, mark);
}

static void expr(Walk *w, const IrExpr *e) {
  int mark = w->scope.len;
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) { /* a loop: chains can be long */
    expr(w, e->u.let.value);
    if (e->u.let.how == IR_LET_GRAPH) ir_ptrmap_put(&w->graph, e->u.let.value, (void *)&e->u.let.var);
    bind(w, e->u.let.var.name, &e->u.let.var, e->u.let.var.span, e->u.let.var.ann, type_of(w, e->u.let.value));
  }
  switch (e->kind) {
  case IR_EXPR_LOCAL: {
    const void *binder = ir_symmap_get(&w->visible, e->u.name);
    if (!binder && e->graph_value) binder = ir_ptrmap_get(&w->graph, e->graph_value);
    if (binder) add(w, (LookupName){.kind = LOOKUP_LOCAL, .span = e->span, .target = binder, .type = type_of(w, e), .use = e});
    break;
  }
  case IR_EXPR_GLOBAL:
    add(w, (LookupName){.kind = LOOKUP_GLOBAL, .span = name_span(e->span, "@", e->u.name), .target = e->u.name,
                        .type = type_of(w, e), .use = e});
    break;
  case IR_EXPR_CTOR:
    add(w, (LookupName){.kind = LOOKUP_CTOR, .span = name_span(e->span, "", e->u.name), .target = e->u.name,
                        .type = type_of(w, e), .use = e});
    break;
  case IR_EXPR_FN: function(w, e, type_of(w, e)); break;
  case IR_EXPR_MATCH:
    expr(w, e->u.match.scrut);
    for (int i = 0; i < e->u.match.nclauses; i++) {
      int m = w->scope.len;
      pattern(w, e->u.match.clauses[i].pat);
      expr(w, e->u.match.clauses[i].body);
      unwind(w, m);
    }
    break;
  case IR_EXPR_CALL:
    for (int i = 0; i < e->u.call.ntargs; i++) written_type(w, e->u.call.targs[i]);
    ir_expr_each_child(e, child, w);
    break;
  default: ir_expr_each_child(e, child, w); break;
  }
  unwind(w, mark);
}

static int by_place(const void *a, const void *b) {
  const LookupName *x = a, *y = b;
  return x->span.off < y->span.off ? -1 : x->span.off > y->span.off;
}

static void resolve(Session *s, LookupDoc *d) {
  Walk w = {.s = s, .d = d};
  for (int i = 0; i < d->prog->nitems; i++) {
    const IrItem *it = &d->prog->items[i];
    switch (it->kind) {
    case IR_ITEM_DEF: {
      add(&w, (LookupName){.kind = LOOKUP_GLOBAL, .span = find_name(it->span, "@", it->name), .target = it->name,
                           .binder = true, .type = type_of(&w, it->fn)});
      function(&w, it->fn, type_of(&w, it->fn));
      break;
    }
    case IR_ITEM_DATA:
      add(&w, (LookupName){.kind = LOOKUP_DATA, .span = find_name(it->span, "", it->name), .target = it->name, .binder = true});
      for (int k = 0; k < it->data.nctors; k++) {
        const IrCtor *c = &it->data.ctors[k];
        add(&w, (LookupName){.kind = LOOKUP_CTOR, .span = name_span(c->span, "", c->name), .target = c->name, .binder = true});
        for (int j = 0; j < c->nargs; j++) written_type(&w, c->args[j]);
      }
      break;
    case IR_ITEM_EXPR:
    case IR_ITEM_LET: expr(&w, it->expr); break;
    }
  }
  if (d->names.len > 1) qsort(d->names.items, (size_t)d->names.len, sizeof(LookupName), by_place);
}

/* ---------------------------------------------------------------- checking */

bool lookup_check(Session *s, const char *name, const char *text, size_t len, LookupDoc *d) {
  *d = (LookupDoc){0};
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    *d = (LookupDoc){0};
    ir_diag_add(&d->diags, IR_DIAG_TYPE, (IrSpan){0}, "out of memory while checking `%s`", name);
    return false;
  }
  IrSource *src = ir_source_new(name, text, len);
  IrParseResult p = ir_parse_program(src, &s->parse, &d->diags);
  unsigned interrupts = rt_interrupt_count();
  const IrProgram *prog = p.program ? p.program : p.partial; /* with parse errors, the items that parsed */
  IrTProgram *tp = prog ? ty_check_program_all(s->module, prog, &d->diags) : NULL;
  if (rt_interrupt_count() != interrupts) { /* stopped: what it found is not worth a look */
    ir_trap_pop(&trap);
    return true;
  }
  IrDiags diags = d->diags;
  lookup_of(s, src, prog, tp, d);
  d->diags = diags; /* in source order: the checker sorts them, parse errors among them */
  ir_trap_pop(&trap);
  return true;
}

void lookup_of(Session *s, const IrSource *src, const IrProgram *prog, IrTProgram *tp, LookupDoc *d) {
  *d = (LookupDoc){.src = src, .prog = prog, .ok = tp != NULL && !tp->failed, .checked = tp};
  if (!prog) return;
  d->texprs = IR_NEW(IrPtrMap);
  if (tp) { /* ty_check_program's, or ty_check_program_all's: the units that checked, and what the others found */
    d->types = IR_NEW(IrPtrMap);
    if (tp->partial) *d->types = ir_ptrmap_copy(tp->partial);
    for (int i = 0; i < tp->nitems; i++) {
      const IrTItem *it = &tp->items[i];
      if (it->failed) continue;
      if (it->def && it->def->fn) {
        ir_texpr_types(d->types, it->def->fn->body);
        note_texprs(d->texprs, it->def->fn->body);
        ir_ptrmap_put(d->types, it->src->fn, it->def->scheme);
      } else if (it->expr) {
        ir_texpr_types(d->types, it->expr->body);
        note_texprs(d->texprs, it->expr->body);
      }
    }
  } else {
    d->types = ty_partial_types(s->module, prog); /* the types found before the error */
  }
  resolve(s, d);
}

/* ---------------------------------------------------------------- questions */

static bool holds(IrSpan sp, size_t off) { return off >= sp.off && off <= (size_t)sp.off + sp.len && sp.len; }

const LookupName *lookup_name_at(const LookupDoc *d, size_t off) {
  const LookupName *best = NULL;
  for (int i = 0; i < d->names.len; i++) {
    const LookupName *n = &d->names.items[i];
    if (n->span.off > off) break;
    if (holds(n->span, off) && (!best || n->span.len <= best->span.len)) best = n;
  }
  return best;
}

const IrItem *lookup_item_at(const LookupDoc *d, size_t off) {
  for (int i = 0; d->prog && i < d->prog->nitems; i++)
    if (holds(d->prog->items[i].span, off)) return &d->prog->items[i];
  return NULL;
}

const IrType *lookup_type_at(const LookupDoc *d, size_t off, IrSpan *span, const IrExpr **node) {
  *node = NULL;
  const IrItem *it = lookup_item_at(d, off);
  const IrExpr *root = !it ? NULL : it->kind == IR_ITEM_DEF ? it->fn : it->kind == IR_ITEM_DATA ? NULL : it->expr;
  if (!root || !d->types) return NULL;
  bool on_char = off < d->src->len && d->src->text[off] != '\n';
  IrSpan at = {d->src, (uint32_t)off, on_char ? 1 : 0, 0, 0};
  const void *found = ir_expr_node_at(root, at, span);
  if (!found) return NULL;
  *node = found;
  return ir_ptrmap_get(d->types, found);
}

const IrType *lookup_place(const LookupDoc *d, size_t off, IrSpan *span) {
  *span = (IrSpan){0};
  const LookupName *n = lookup_name_at(d, off);
  if (n && n->binder && n->kind == LOOKUP_LOCAL && off < (size_t)n->span.off + n->span.len) {
    *span = n->span;
    return n->type;
  }
  const IrExpr *node;
  return lookup_type_at(d, off, span, &node);
}

/* The typed node of a use, or NULL. */
static const IrTExpr *typed(const LookupDoc *d, const LookupName *n) {
  return n->use && d->texprs ? ir_ptrmap_get(d->texprs, n->use) : NULL;
}

const char *lookup_instance(const LookupDoc *d, const LookupName *n) {
  const IrTExpr *t = typed(d, n);
  return t ? ty_instance_substitution(t) : NULL;
}

const IrItem *lookup_item_named(const Session *s, const LookupDoc *d, IrItemKind kind, Sym name) {
  for (int i = 0; d->prog && i < d->prog->nitems; i++)
    if (d->prog->items[i].kind == kind && d->prog->items[i].name == name) return &d->prog->items[i];
  return ir_symmap_get(kind == IR_ITEM_DEF ? &s->defs : &s->datas, name);
}

static const IrItem *ctor_item(const Session *s, const LookupDoc *d, Sym name) {
  for (int i = 0; d->prog && i < d->prog->nitems; i++) {
    const IrItem *it = &d->prog->items[i];
    for (int k = 0; it->kind == IR_ITEM_DATA && k < it->data.nctors; k++)
      if (it->data.ctors[k].name == name) return it;
  }
  return ir_symmap_get(&s->ctors, name);
}

const char *lookup_doc_comment(const Session *s, const LookupDoc *d, const LookupName *n) {
  const IrItem *it = n->kind == LOOKUP_GLOBAL ? lookup_item_named(s, d, IR_ITEM_DEF, n->target)
                     : n->kind == LOOKUP_DATA ? lookup_item_named(s, d, IR_ITEM_DATA, n->target)
                     : n->kind == LOOKUP_CTOR ? ctor_item(s, d, n->target)
                                              : NULL;
  return it ? it->doc : NULL;
}

const IrType *lookup_scheme(const Session *s, const LookupDoc *d, const LookupName *n) {
  const IrTExpr *t = typed(d, n);
  if (t && t->kind == IR_EXPR_GLOBAL && t->u.def) return t->u.def->scheme;
  if (t && t->kind == IR_EXPR_CTOR && t->u.ctor) return t->u.ctor->scheme;
  if (n->kind == LOOKUP_GLOBAL) {
    if (n->binder && d->types) /* a definition of the text: its generalized type */
      for (int i = 0; d->prog && i < d->prog->nitems; i++)
        if (d->prog->items[i].kind == IR_ITEM_DEF && d->prog->items[i].name == n->target)
          return ir_ptrmap_get(d->types, d->prog->items[i].fn);
    const IrTDef *def = ty_global_def(s->module, n->target);
    return def ? def->scheme : NULL;
  }
  if (n->kind == LOOKUP_CTOR) {
    const IrTCtor *c = ty_module_ctor(s->module, n->target);
    return c ? c->scheme : NULL;
  }
  return NULL;
}

const LookupName *lookup_next_unwritten(const LookupDoc *d, int *i, size_t from, size_t to) {
  for (; *i < d->names.len; (*i)++) {
    const LookupName *x = &d->names.items[*i];
    if (x->kind == LOOKUP_LOCAL && x->binder && !x->annotated && x->type && (size_t)x->span.off + x->span.len >= from &&
        x->span.off <= to) {
      (*i)++;
      return x;
    }
  }
  return NULL;
}
