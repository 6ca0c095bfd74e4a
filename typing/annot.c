/* Written types (annotations, signatures, constructor arguments) in the checker's form: ADT names
 * resolved and their arity checked, every part checked for the kind its position needs, type
 * parameters in scope made rigid, and, in a signature, an unknown name made an implicit type
 * parameter whose kind is that of its position (`Tensor[s, bt]` gives s : Shape, bt : BaseType). */
#include "typing/check.h"

#include <string.h>

static const char *kind_phrase(IrKind k) {
  switch (k) {
  case IR_KIND_SHAPE: return "a shape";
  case IR_KIND_SHAPEVAR: return "a dimension";
  case IR_KIND_BASETYPE: return "a base type such as float32";
  default: return "a type";
  }
}

int ty_push_tparams(TyCheck *c, int n, const IrTypeParam *ps) {
  int mark = c->tparams.len;
  for (int i = 0; i < n; i++) IR_VEC_PUSH(c->tparams, ps[i]);
  return mark;
}

void ty_pop_tparams(TyCheck *c, int mark) { c->tparams.len = mark; }

static const IrTypeParam *tparam_in_scope(TyCheck *c, Sym name) {
  for (int i = c->tparams.len - 1; i >= 0; i--)
    if (c->tparams.items[i].name == name) return &c->tparams.items[i];
  return NULL;
}

static IrType *convert(TyCheck *c, IrType *t, IrKind want);

static IrType **convert_all(TyCheck *c, int n, IrType **ts, IrKind want) {
  IrType **out = IR_NEW_ARRAY(IrType *, n);
  for (int i = 0; i < n; i++) out[i] = convert(c, ts[i], want);
  return out;
}

static void wrong_kind(TyCheck *c, IrType *t, IrKind want, IrKind have) {
  ty_fail(c, t->span, "%s is %s, but %s is expected here", ir_type_str(t), kind_phrase(have), kind_phrase(want));
}

/* ---------------------------------------------------------------- names meant as types */

static char lower(char ch) { return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch; }

/* Whether a and b are equal but for the case of ASCII letters. */
static bool equal_ignoring_case(const char *a, const char *b) {
  for (; *a && lower(*a) == lower(*b); a++, b++) {}
  return lower(*a) == lower(*b);
}

static void closer(const char *name, const char *candidate, const char **best, int *best_distance) {
  int d = equal_ignoring_case(name, candidate) ? 0 : ir_sym_distance(name, candidate);
  if (d < *best_distance || (d == *best_distance && *best && strcmp(candidate, *best) < 0)) {
    *best = candidate;
    *best_distance = d;
  }
}

/* The known type that `name` looks like a misspelling of, or NULL: a base type written in another
 * case (`Int32`, `Float`: lowered, a dtype name, shown as the canonical one), else a base type,
 * `Tensor` or a data type in scope equal but for case or one edit away (`flaot32`, `Tenser`,
 * `Lsit`); names under three letters are too short to guess from (`t`, `bt`). */
static const char *meant_type(TyCheck *c, Sym name) {
  char lowered[32];
  if (name->len < sizeof lowered) {
    for (uint32_t i = 0; i <= name->len; i++) lowered[i] = lower(name->name[i]);
    IrDType dt;
    if (strcmp(lowered, name->name) != 0 && ir_dtype_parse(lowered, name->len, &dt)) {
      char buf[24];
      return ir_printf("%s", ir_dtype_name(dt, buf));
    }
  }
  if (name->len < 3) return NULL;
  static const char *const known[] = {"bool",   "int8",    "int16",   "int32",   "int64", "uint8",
                                      "uint16", "uint32",  "uint64",  "float16", "float32", "float64", "Tensor"};
  const char *best = NULL;
  int best_distance = 2; /* one edit at most */
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) closer(name->name, known[i], &best, &best_distance);
  const IrSymMap *maps[2] = {&c->m->adts, &c->chunk_adts};
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < maps[k]->cap; i++)
      if (maps[k]->keys[i]) closer(name->name, ((Sym)maps[k]->keys[i])->name, &best, &best_distance);
  return best;
}

/* An unknown name in a place that holds a type or a base type becomes a type parameter; when it
 * looks meant as a type, say so. Warned: a name close to a known type (meant_type), or a
 * capitalised one of two letters or more (`Matrix`): base types are lower case, data types are
 * declared, and in GHC and Elm a capitalised name in a type is a type constructor, never a
 * variable. Not warned: other lower-case names (`t`, `elem`: the idiom of implicit parameters), a
 * single capital (`T`, a parameter as Java and C++ write one), and names in a shape (`N`, `H`:
 * dimensions as TVM's layouts name them), where no type could stand. */
static void warn_if_meant_as_type(TyCheck *c, IrType *t, IrKind want) {
  if (want != IR_KIND_TYPE && want != IR_KIND_BASETYPE) return;
  Sym name = t->u.var.name;
  const char *meant = meant_type(c, name);
  bool capital = name->name[0] >= 'A' && name->name[0] <= 'Z' && name->len >= 2;
  if (!meant && !capital) return;
  IrDiag *d = ir_diag_add(c->diags, IR_DIAG_WARNING, t->span, "unknown type `%s`, taken as a type parameter (%s)",
                          name->name, want == IR_KIND_BASETYPE ? "any base type" : "any type");
  if (meant) ir_diag_note(d, "hint: did you mean `%s`?", meant);
  else
    ir_diag_note(d, "hint: a data type is declared with `data` before it is used; a type parameter is written in lower "
                    "case, or declared in `<...>`");
}

/* The hint for an unknown type that is an error, or NULL. */
static const char *meant_hint(TyCheck *c, Sym name) {
  const char *meant = meant_type(c, name);
  return meant ? ir_printf("hint: did you mean `%s`?", meant) : NULL;
}

static IrType *convert_name(TyCheck *c, IrType *t, IrKind want) {
  Sym name = t->u.var.name;
  if (ty_is_wildcard(t)) return ty_fresh(&c->cx, want, t->span); /* `_`: each one whatever the checker finds */
  const IrTypeParam *p = tparam_in_scope(c, name);
  if (p) {
    if (p->kind != want && p->kind != IR_KIND_UNKNOWN) {
      if (p->kind == IR_KIND_TYPE && want != IR_KIND_TYPE)
        ty_fail(c, t->span, "`%s` is a type parameter of kind Type, but %s is expected here; declare it `<%s : %s>`",
                name->name, kind_phrase(want), name->name, ir_kind_name(want));
      ty_fail(c, t->span, "`%s` is %s (kind %s), but %s is expected here", name->name, kind_phrase(p->kind),
              ir_kind_name(p->kind), kind_phrase(want));
    }
    return ir_type_var(name, p->kind, t->span);
  }
  const IrData *adt = ty_find_adt(c, name);
  if (adt && want != IR_KIND_TYPE) /* not a new parameter that happens to share its name */
    ty_fail(c, t->span, "`%s` is a data type, but %s is expected here", name->name, kind_phrase(want));
  if (adt) {
    if (adt->ntparams)
      ty_fail(c, t->span, "`%s` takes %d type argument%s: write %s[...]", name->name, adt->ntparams,
              adt->ntparams == 1 ? "" : "s", name->name);
    IrType *call = ir_type_new(IR_TYPE_CALL, t->span);
    call->u.call.name = name;
    call->u.call.adt = adt;
    return call;
  }
  if (c->flexible) { /* `fn(%x : t) -> t` as a literal: t is whatever the uses make it */
    IrType *h = ir_symmap_get(c->flexible, name);
    if (!h) {
      warn_if_meant_as_type(c, t, want);
      h = ty_fresh(&c->cx, want, t->span);
      c->cx.vars.items[h->u.hole.id].hint = name;
      ir_symmap_put(c->flexible, name, h);
    }
    return h;
  }
  if (c->implicit) {
    /* Met before inside a nested function type, whose scope has ended since: the same one. */
    for (int i = 0; i < c->implicit->len; i++) {
      IrTypeParam *q = &c->implicit->items[i];
      if (q->name != name) continue;
      if (q->kind != want)
        ty_fail(c, t->span, "`%s` is used as %s here but as %s before", name->name, kind_phrase(want),
                kind_phrase(q->kind));
      IR_VEC_PUSH(c->tparams, *q);
      return ir_type_var(name, q->kind, t->span);
    }
    warn_if_meant_as_type(c, t, want);
    IrTypeParam q = {name, want, t->span};
    IR_VEC_PUSH(*c->implicit, q);
    IR_VEC_PUSH(c->tparams, q);
    return ir_type_var(name, want, t->span);
  }
  ty_fail_notes(c, t->span, TY_NOTES(meant_hint(c, name)), "unknown type `%s`", name->name);
}

static IrType *convert_func(TyCheck *c, IrType *t) {
  IrType *f = ir_type_new(IR_TYPE_FUNC, t->span);
  int mark = ty_push_tparams(c, t->u.func.ntparams, t->u.func.tparams);
  f->u.func.ntparams = t->u.func.ntparams;
  f->u.func.tparams = t->u.func.tparams;
  f->u.func.nargs = t->u.func.nargs;
  f->u.func.args = convert_all(c, t->u.func.nargs, t->u.func.args, IR_KIND_TYPE);
  f->u.func.ret = convert(c, t->u.func.ret, IR_KIND_TYPE);
  f->u.func.nrels = t->u.func.nrels;
  f->u.func.rels = IR_NEW_ARRAY(IrRel, t->u.func.nrels);
  for (int i = 0; i < t->u.func.nrels; i++) f->u.func.rels[i] = ty_relation_annotation(c, t->u.func.rels[i], f);
  ty_pop_tparams(c, mark);
  return f;
}

/* Whether a written dimension holds `?` (which has no normal form, and is checked at run time). */
static bool has_any(const IrType *d) {
  if (d->kind == IR_TYPE_ANY) return true;
  return d->kind == IR_TYPE_DIMOP && (has_any(d->u.dimop.a) || has_any(d->u.dimop.b));
}

/* The kind of a written type-level term that is not a name. */
static IrKind written_kind(const IrType *t) {
  switch (t->kind) {
  case IR_TYPE_DTYPE: return IR_KIND_BASETYPE;
  case IR_TYPE_SHAPE: return IR_KIND_SHAPE;
  case IR_TYPE_DIM:
  case IR_TYPE_ANY:
  case IR_TYPE_DIMOP: return IR_KIND_SHAPEVAR;
  default: return IR_KIND_TYPE;
  }
}

/* `(n)` as a type argument: the shape of rank 1 (the parser's reading), or the type `n`. */
static bool paren_name(const IrType *t) {
  return t->kind == IR_TYPE_SHAPE && t->u.shape.rank == 1 && t->u.shape.dims[0]->kind == IR_TYPE_VAR;
}

/* Whether convert takes t where `want` is expected (a name's kind is checked by convert_name). */
static bool fits_kind(const IrType *t, IrKind want) {
  if (t->kind == IR_TYPE_VAR || t->kind == IR_TYPE_HOLE || written_kind(t) == want) return true;
  if (want == IR_KIND_BASETYPE) return ir_type_is_scalar(t);
  if (want == IR_KIND_SHAPE) return t->kind == IR_TYPE_TUPLE;
  return want == IR_KIND_TYPE && paren_name(t);
}

/* Argument i of a data type's arguments, `t`, of the wrong kind: which kind its parameter takes. */
static void wrong_adt_arg(TyCheck *c, const IrData *adt, int i, IrType *t) {
  IrKind want = adt->tparams[i].kind;
  const char *name = adt->name->name;
  const char *hint = NULL;
  if (want == IR_KIND_SHAPE)
    hint = ir_printf("hint: a shape is written in parentheses: `%s[(2, 3)]`, `%s[(n)]`, or named: `%s[s]`", name, name, name);
  else if (want == IR_KIND_SHAPEVAR)
    hint = ir_printf("hint: a dimension is a number, a name or arithmetic on them: `%s[4]`, `%s[n]`, `%s[n * 2]`", name,
                     name, name);
  else if (want == IR_KIND_TYPE && written_kind(t) == IR_KIND_SHAPE)
    hint = ir_printf("hint: a tensor of that shape is `%s[Tensor[%s, float32]]`", name, ir_type_str(t));
  ty_fail_notes(c, t->span, TY_NOTES(hint), "`%s` takes %s for `%s` (kind %s), but %s is %s", name, kind_phrase(want),
                adt->tparams[i].name->name, ir_kind_name(want), ir_type_str(t), kind_phrase(written_kind(t)));
}

static IrType *convert(TyCheck *c, IrType *t, IrKind want) {
  if (t->kind == IR_TYPE_VAR) return convert_name(c, t, want);
  if (t->kind == IR_TYPE_HOLE) return t;
  IrKind have = written_kind(t);
  if (have != want) {
    if (want == IR_KIND_TYPE && paren_name(t)) return convert_name(c, t->u.shape.dims[0], want);
    /* `float32` given for a base-type parameter is written like the scalar type. */
    if (want == IR_KIND_BASETYPE && ir_type_is_scalar(t)) return t->u.tensor.dtype;
    /* `(n, m)` given for a shape parameter: a tuple of names read as a shape. */
    if (want == IR_KIND_SHAPE && t->kind == IR_TYPE_TUPLE) {
      IrType **dims = IR_NEW_ARRAY(IrType *, t->u.tuple.n);
      for (int i = 0; i < t->u.tuple.n; i++) dims[i] = convert(c, t->u.tuple.fields[i], IR_KIND_SHAPEVAR);
      return ir_type_shape(t->u.tuple.n, dims, t->span);
    }
    wrong_kind(c, t, want, have);
  }
  IrType *out = ir_type_new(t->kind, t->span);
  *out = *t;
  switch (t->kind) {
  case IR_TYPE_TENSOR:
    out->u.tensor.shape = convert(c, t->u.tensor.shape, IR_KIND_SHAPE);
    out->u.tensor.dtype = convert(c, t->u.tensor.dtype, IR_KIND_BASETYPE);
    return out;
  case IR_TYPE_SHAPE: out->u.shape.dims = convert_all(c, t->u.shape.rank, t->u.shape.dims, IR_KIND_SHAPEVAR); return out;
  case IR_TYPE_DIMOP: {
    out->u.dimop.a = convert(c, t->u.dimop.a, IR_KIND_SHAPEVAR);
    out->u.dimop.b = convert(c, t->u.dimop.b, IR_KIND_SHAPEVAR);
    TyPoly p;
    if (!has_any(out) && !ty_dim_normalize(&c->cx, out, &p))
      ty_fail(c, t->span, "the dimension %s is too large: its arithmetic overflows int64", ir_type_str(t));
    return out;
  }
  case IR_TYPE_TUPLE: out->u.tuple.fields = convert_all(c, t->u.tuple.n, t->u.tuple.fields, IR_KIND_TYPE); return out;
  case IR_TYPE_FUNC: return convert_func(c, t);
  case IR_TYPE_CALL: {
    const IrData *adt = ty_find_adt(c, t->u.call.name);
    if (!adt)
      ty_fail_notes(c, t->span, TY_NOTES(meant_hint(c, t->u.call.name)), "unknown data type `%s`",
                    t->u.call.name->name);
    if (adt->ntparams != t->u.call.nargs)
      ty_fail(c, t->span, "`%s` takes %d type argument%s, but %d %s given", t->u.call.name->name, adt->ntparams,
              adt->ntparams == 1 ? "" : "s", t->u.call.nargs, t->u.call.nargs == 1 ? "is" : "are");
    out->u.call.adt = adt;
    out->u.call.args = IR_NEW_ARRAY(IrType *, t->u.call.nargs);
    for (int i = 0; i < t->u.call.nargs; i++) {
      if (!fits_kind(t->u.call.args[i], adt->tparams[i].kind)) wrong_adt_arg(c, adt, i, t->u.call.args[i]);
      out->u.call.args[i] = convert(c, t->u.call.args[i], adt->tparams[i].kind);
    }
    return out;
  }
  case IR_TYPE_REF: out->u.ref = convert(c, t->u.ref, IR_KIND_TYPE); return out;
  default: return out;
  }
}

IrType *ty_annotation(TyCheck *c, IrType *written, IrKind kind) { return convert(c, written, kind); }

bool ty_is_wildcard(const IrType *t) { return t->kind == IR_TYPE_VAR && !strcmp(t->u.var.name->name, "_"); }

static void find_wildcard(IrType **slot, void *found) {
  if (ty_is_wildcard(*slot)) *(IrType **)found = *slot;
  else if (!*(IrType **)found) ty_each_child(*slot, find_wildcard, found);
}

/* The first `_` in t, or NULL. */
static IrType *wildcard_in(IrType *t) {
  IrType *found = NULL;
  find_wildcard(&t, &found);
  return found;
}

bool ty_has_wildcard(IrType *t) { return wildcard_in(t) != NULL; }

IrRel ty_relation_annotation(TyCheck *c, IrRel r, const IrType *f) {
  int id = ty_relation_find(r.name); /* the name as written: resolved once, here */
  if (id < 0) ty_fail(c, r.span, "unknown type relation `%s`", r.name->name);
  r.rel = id + 1;
  if (r.nargs < 0) { /* bare: over the parameters and the result */
    r.nargs = f->u.func.nargs + 1;
    r.args = IR_NEW_ARRAY(IrType *, r.nargs);
    ir_copy(r.args, f->u.func.args, sizeof(IrType *) * (size_t)f->u.func.nargs);
    r.args[f->u.func.nargs] = f->u.func.ret;
  } else {
    /* The one relation with an argument that is not a type: TupleGetItem(t, i, r) reads field i. */
    IrType *field = NULL;
    if (id == TY_REL_TUPLE_GET_ITEM && r.nargs == 3) {
      field = r.args[1];
      if (field->kind != IR_TYPE_DIM || field->u.dim < 0)
        ty_fail(c, field->span, "TupleGetItem's second argument is a field number (0, 1, ...), not %s",
                ir_type_str(field));
    }
    IrType **args = IR_NEW_ARRAY(IrType *, r.nargs);
    for (int i = 0; i < r.nargs; i++) args[i] = field && i == 1 ? field : convert(c, r.args[i], IR_KIND_TYPE);
    r.args = args;
  }
  int arity = ty_relation_arity((TyRelId)id);
  if (arity >= 0 && r.nargs != arity)
    ty_fail(c, r.span, "%s relates %d type%s, but %d %s given here", r.name->name, arity, arity == 1 ? "" : "s", r.nargs,
            r.nargs == 1 ? "is" : "are");
  int lo, hi;
  bool required[IR_A_COUNT];
  bool of_ops = ty_relation_needs((TyRelId)id, &lo, &hi, required);
  if (arity < 0 && of_ops && (r.nargs < lo || r.nargs > hi)) /* Arange, Pad: as many as their operators' calls */
    ty_fail(c, r.span, "%s relates %d to %d types (the arguments, then the result), but %d %s given here", r.name->name,
            lo, hi, r.nargs, r.nargs == 1 ? "is" : "are");
  IrSpan where = r.span;
  const char *bad = ir_attrs_decode(r.name->name, ty_relation_attrs((TyRelId)id), r.nattrs, r.attrs, &r.decoded, &where);
  if (bad) ty_fail(c, where, "%s", bad);
  for (int a = 0; a < IR_A_COUNT; a++) /* what its operators require, the relation reads without a default */
    if (required[a] && !ir_attr_at(r.decoded, (IrAttrId)a)->given)
      ty_fail(c, r.span, "%s needs the attribute `%s`", r.name->name, ir_attr_name((IrAttrId)a));
  return r;
}

void ty_check_data(TyCheck *c, const IrData *d, IrTCtor *out) {
  int mark = ty_push_tparams(c, d->ntparams, d->tparams);
  IrType **params = IR_NEW_ARRAY(IrType *, d->ntparams);
  for (int i = 0; i < d->ntparams; i++) params[i] = ir_type_var(d->tparams[i].name, d->tparams[i].kind, d->tparams[i].span);
  IrType *self = ir_type_new(IR_TYPE_CALL, (IrSpan){0});
  self->u.call.name = d->name;
  self->u.call.adt = d;
  self->u.call.nargs = d->ntparams;
  self->u.call.args = params;
  for (int i = 0; i < d->nctors; i++) {
    const IrCtor *k = &d->ctors[i];
    IrType *f = ir_type_new(IR_TYPE_FUNC, k->span);
    f->u.func.ntparams = d->ntparams;
    f->u.func.tparams = d->tparams;
    f->u.func.nargs = k->nargs;
    for (int j = 0; j < k->nargs; j++) { /* a hole here would outlive the checking that made it */
      IrType *w = wildcard_in(k->args[j]);
      if (w)
        ty_fail_notes(c, w->span, TY_NOTES("hint: a field of any type is a type parameter, as in `data Foo<a> { Bar(a) }`"),
                      "a constructor's field cannot be `_`: its type is written out");
    }
    f->u.func.args = convert_all(c, k->nargs, k->args, IR_KIND_TYPE);
    f->u.func.ret = self;
    out[i] = (IrTCtor){k, f};
  }
  ty_pop_tparams(c, mark);
}
