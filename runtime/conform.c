/* Checks of values against types at run time: where a value whose static type has a `?` dimension
 * reaches a place whose type fixes it (a constant, a shape variable, arithmetic on them), and at
 * the checked entry of a definition or constructor whose shape variable a call instantiated with a
 * `?` (its parameters must then agree on it). One walk, rt_conform, compares a value with a type:
 * tensors by rank and dimensions, tuples field by field, a data type's value through its
 * constructors' field types (a list cell by cell, with a loop, not recursion), a reference by its
 * value now; functions are not checked. The shape variables a type mentions stand for sizes in an
 * RtDims: bound beforehand (a check inside a definition reads them from its parameters), or learnt
 * from the first place that shows one and compared at every other. */
#include "runtime/code.h"

#include <string.h>

/* ---------------------------------------------------------------- shape variables */

static RtDimVal *dims_find(RtDims *d, Sym name) {
  for (int i = 0; i < d->n; i++)
    if (d->v[i].name == name) return &d->v[i];
  return NULL;
}

static RtDimVal *dims_add(RtDims *d, Sym name) {
  if (d->n == d->cap) {
    int cap = d->cap ? 2 * d->cap : 8;
    RtDimVal *v = rt_alloc(sizeof(RtDimVal) * (size_t)cap);
    if (d->n) memcpy(v, d->v, sizeof(RtDimVal) * (size_t)d->n);
    d->v = v;
    d->cap = cap;
  }
  RtDimVal *e = &d->v[d->n++];
  memset(e, 0, sizeof *e);
  e->name = name;
  return e;
}

void rt_dims_bind(RtDims *d, Sym name, int64_t dim, const char *from) {
  RtDimVal *e = dims_add(d, name);
  e->rank = -1;
  e->dim = dim;
  e->from = from;
}

void rt_dims_bind_shape(RtDims *d, Sym name, int rank, const int64_t *shape, const char *from) {
  RtDimVal *e = dims_add(d, name);
  e->rank = rank;
  e->shape = shape;
  e->from = from;
}

/* ---------------------------------------------------------------- types in context */

/* A data type's parameters as one of its values is being walked: what each stands for, a type
 * read in the context it was written in. */
typedef struct Subst Subst;
struct Subst {
  const IrTypeParam *params;
  int n;
  const IrType **types;
  const Subst **ctxs;
};

/* t read in ctx, with a parameter of the data type being walked replaced by what it stands for
 * (repeatedly: that may be a parameter of an enclosing data type's walk). */
static const IrType *resolve(const IrType *t, const Subst **ctx) {
  while (t->kind == IR_TYPE_VAR && *ctx) {
    const Subst *s = *ctx;
    int i = 0;
    while (i < s->n && s->params[i].name != t->u.var.name) i++;
    if (i == s->n) return t; /* a variable of the function around: RtDims has it */
    t = s->types[i];
    *ctx = s->ctxs[i];
  }
  return t;
}

/* The value of dimension t (read in ctx): false when it is `?` or mentions a variable not bound. */
static bool dim_value(const IrType *t, const Subst *ctx, RtDims *d, int64_t *out) {
  t = resolve(t, &ctx);
  switch (t->kind) {
  case IR_TYPE_DIM: *out = t->u.dim; return true;
  case IR_TYPE_VAR: {
    RtDimVal *e = dims_find(d, t->u.var.name);
    if (!e || e->rank >= 0) return false;
    *out = e->dim;
    return true;
  }
  case IR_TYPE_DIMOP: {
    int64_t a, b;
    if (!dim_value(t->u.dimop.a, ctx, d, &a) || !dim_value(t->u.dimop.b, ctx, d, &b)) return false;
    bool overflow = t->u.dimop.op == '+'   ? __builtin_add_overflow(a, b, out)
                    : t->u.dimop.op == '-' ? __builtin_sub_overflow(a, b, out)
                                           : __builtin_mul_overflow(a, b, out);
    return !overflow;
  }
  default: return false;
  }
}

/* ---------------------------------------------------------------- the walk */

/* A step from a value to a part of it, for the message: field `field` of a constructor (or of a
 * tuple, ctor NULL). */
typedef struct {
  int field;
  const char *ctor;
} Step;

enum { STEPS = 3 }; /* the last steps a message names */

/* A part of the value still to be walked: its type read in ctx, and the last steps to it. */
typedef struct {
  RtValue v;
  const IrType *t;
  const Subst *ctx;
  int depth;
  Step steps[STEPS]; /* steps[0] the last */
} Item;

static Item part(const Item *of, RtValue v, const IrType *t, const Subst *ctx, int field, const char *ctor) {
  Item it = {v, t, ctx, of->depth + 1, {{field, ctor}}};
  for (int i = 1; i < STEPS; i++) it.steps[i] = of->steps[i - 1];
  return it;
}

/* The part `it` of the value, named from `subject`: "field 0 of the value", "field 1 of a `Cons`
 * in the second argument" (a data type's value is named by the constructor nearest the part). */
static const char *where(const Item *it, const char *subject) {
  if (it->depth == 0) return subject;
  IrBuf b;
  ir_buf_init(&b);
  int n = it->depth < STEPS ? it->depth : STEPS;
  bool in = false;
  for (int i = 0; i < n && !in; i++) {
    if (it->steps[i].ctor) ir_buf_printf(&b, "field %d of a `%s` in ", it->steps[i].field, it->steps[i].ctor), in = true;
    else ir_buf_printf(&b, "field %d of ", it->steps[i].field);
  }
  if (!in && it->depth > STEPS) ir_buf_puts(&b, "... of ");
  ir_buf_puts(&b, subject);
  return b.data;
}

/* What the shape variables of t (read in ctx) stand for, for a message: ", where n = 3". */
static void show_vars(IrBuf *b, const IrType *t, const Subst *ctx, RtDims *d, bool *first) {
  t = resolve(t, &ctx);
  if (t->kind == IR_TYPE_VAR) {
    RtDimVal *e = dims_find(d, t->u.var.name);
    if (!e) return;
    ir_buf_printf(b, "%s%s = ", *first ? ", where " : ", ", t->u.var.name->name);
    if (e->rank < 0) ir_buf_printf(b, "%lld", (long long)e->dim);
    else ir_buf_puts(b, rt_shape_text(e->rank, e->shape));
    if (e->from) ir_buf_printf(b, " (%s)", e->from);
    *first = false;
    return;
  }
  if (t->kind == IR_TYPE_SHAPE)
    for (int i = 0; i < t->u.shape.rank; i++) show_vars(b, t->u.shape.dims[i], ctx, d, first);
  if (t->kind == IR_TYPE_DIMOP) {
    show_vars(b, t->u.dimop.a, ctx, d, first);
    show_vars(b, t->u.dimop.b, ctx, d, first);
  }
}

/* The tensor type t (read in ctx) as a message shows it: its dimensions with what the parameters
 * of data types stand for; *vars the values of the shape variables known (", where n = 3"). */
static const char *show_tensor_type(const IrType *t, const Subst *ctx, RtDims *d, const char **vars) {
  IrBuf b;
  ir_buf_init(&b);
  const IrType *sh = resolve(t->u.tensor.shape, &ctx);
  const Subst *shctx = ctx;
  ir_buf_puts(&b, "Tensor[");
  if (sh->kind == IR_TYPE_SHAPE) {
    ir_buf_putc(&b, '(');
    for (int i = 0; i < sh->u.shape.rank; i++) {
      const Subst *c = shctx;
      if (i) ir_buf_puts(&b, ", ");
      ir_print_type(&b, resolve(sh->u.shape.dims[i], &c));
    }
    ir_buf_putc(&b, ')');
  } else {
    ir_print_type(&b, sh);
  }
  const Subst *dctx = ctx;
  ir_buf_puts(&b, ", ");
  ir_print_type(&b, resolve(t->u.tensor.dtype, &dctx));
  ir_buf_putc(&b, ']');
  IrBuf v;
  ir_buf_init(&v);
  bool first = true;
  show_vars(&v, sh, shctx, d, &first);
  *vars = v.data;
  return b.data;
}

/* One dimension: value `have` at a place of type t (read in ctx). A variable not yet bound is
 * learnt; one in arithmetic that is not bound is not checked (nothing here says what it is). */
static bool dim_fits(const IrType *t, const Subst *ctx, int64_t have, RtDims *d) {
  t = resolve(t, &ctx);
  if (t->kind == IR_TYPE_ANY || t->kind == IR_TYPE_HOLE) return true;
  if (t->kind == IR_TYPE_VAR && !dims_find(d, t->u.var.name)) {
    rt_dims_bind(d, t->u.var.name, have, NULL);
    return true;
  }
  int64_t want;
  if (!dim_value(t, ctx, d, &want)) return true;
  return want == have;
}

static bool tensor_fits(RtValue v, const IrType *t, const Subst *ctx, RtDims *d) {
  int rank = v.kind == RT_TENSOR ? v.u.t->rank : 0;
  const int64_t *shape = v.kind == RT_TENSOR ? v.u.t->shape : NULL;
  const IrType *sh = resolve(t->u.tensor.shape, &ctx);
  if (sh->kind == IR_TYPE_VAR) { /* a Shape variable: the whole shape */
    RtDimVal *e = dims_find(d, sh->u.var.name);
    if (!e) {
      rt_dims_bind_shape(d, sh->u.var.name, rank, shape, NULL);
      return true;
    }
    if (e->rank != rank) return false;
    for (int i = 0; i < rank; i++)
      if (e->shape[i] != shape[i]) return false;
    return true;
  }
  if (sh->kind != IR_TYPE_SHAPE) return true;
  if (sh->u.shape.rank != rank) return false;
  for (int i = 0; i < rank; i++)
    if (!dim_fits(sh->u.shape.dims[i], ctx, shape[i], d)) return false;
  return true;
}

typedef IR_VEC(Item) Items;

/* The fields of the data type's value it.v at type t (a CALL read in ctx), at their types read
 * with the data type's parameters standing for t's arguments; pushed last first, so that the last
 * field (a list's tail) is walked last and the stack stays short. */
static void push_fields(Items *todo, const Item *it, const IrType *t, const Subst *ctx) {
  const RtCtor *l = it->v.u.adt->ctor;
  const IrType *scheme = l->scheme;
  if (!scheme || scheme->kind != IR_TYPE_FUNC || l->nargs == 0) return;
  int np = scheme->u.func.ntparams < t->u.call.nargs ? scheme->u.func.ntparams : t->u.call.nargs;
  const Subst *sub = NULL;
  if (np > 0) {
    Subst *s = rt_alloc(sizeof(Subst));
    s->params = scheme->u.func.tparams;
    s->n = np;
    s->types = rt_alloc(sizeof(IrType *) * (size_t)np);
    s->ctxs = rt_alloc(sizeof(Subst *) * (size_t)np);
    for (int i = 0; i < np; i++) { /* each argument read through ctx now: a list's cells stay one deep */
      const Subst *c = ctx;
      s->types[i] = resolve(t->u.call.args[i], &c);
      s->ctxs[i] = c;
    }
    sub = s;
  }
  for (int i = l->nargs - 1; i >= 0; i--)
    IR_VEC_PUSH(*todo, part(it, rt_field_get(it->v.u.adt, l->fields[i]), scheme->u.func.args[i], sub, i,
                            l->src->name->name));
}

bool rt_conform(RtValue v, const IrType *want, RtDims *d, const char *subject, const char **why) {
  Items todo = {0};
  IR_VEC_PUSH(todo, ((Item){v, want, NULL, 0, {{0, NULL}}}));
  for (uint64_t walked = 1; todo.len; walked++) {
    Item it = todo.items[--todo.len];
    const Subst *ctx = it.ctx;
    const IrType *t = resolve(it.t, &ctx);
    switch (t->kind) {
    case IR_TYPE_TENSOR:
      if (it.v.kind != RT_TENSOR && it.v.kind != RT_SCALAR) break; /* the checker saw to that */
      if (!tensor_fits(it.v, t, ctx, d)) {
        int rank = it.v.kind == RT_TENSOR ? it.v.u.t->rank : 0;
        const char *vars, *type = show_tensor_type(t, ctx, d, &vars);
        *why = ir_printf("%s has shape %s, but %s is expected here%s", where(&it, subject),
                         rt_shape_text(rank, rank ? it.v.u.t->shape : NULL), type, vars);
        return false;
      }
      break;
    case IR_TYPE_TUPLE:
      if (it.v.kind != RT_TUPLE || it.v.u.tup->n != t->u.tuple.n) break;
      for (int i = t->u.tuple.n - 1; i >= 0; i--)
        IR_VEC_PUSH(todo, part(&it, it.v.u.tup->f[i], t->u.tuple.fields[i], ctx, i, NULL));
      break;
    case IR_TYPE_CALL:
      if (it.v.kind == RT_ADT) push_fields(&todo, &it, t, ctx);
      break;
    case IR_TYPE_REF:
      if (it.v.kind == RT_REF) IR_VEC_PUSH(todo, part(&it, it.v.u.ref->v, t->u.ref, ctx, 0, "ref"));
      break;
    default: break; /* functions, type parameters: nothing to check */
    }
    if ((walked & 4095) == 0) rt_poll(rt_state.at);
  }
  return true;
}
