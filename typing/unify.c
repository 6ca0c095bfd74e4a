/* Unification: a union-find over holes (path compression, union by rank) where each root may be
 * resolved to a type, and a structural walk over tensor, tuple, function, ADT-call and ref types.
 * Binding a hole walks the type it gets once, for three things at the same time: the occurs
 * check, lowering let-levels (for generalization), and handing the hole's relations to the holes
 * inside the type (so a relation about `?a` wakes when a hole nested in what `?a` became changes). */
#include "typing/ty.h"

#include <string.h>

void ty_ctx_init(TyCtx *cx, IrDiags *diags) {
  memset(cx, 0, sizeof *cx);
  cx->diags = diags;
}

/* ---------------------------------------------------------------- variables */

IrType *ty_fresh(TyCtx *cx, IrKind kind, IrSpan origin) {
  uint32_t id = (uint32_t)cx->vars.len;
  IrType *node = ir_type_new(IR_TYPE_HOLE, (IrSpan){0});
  node->u.hole.id = id;
  node->u.hole.kind = kind;
  TyVar v = {.parent = id, .level = cx->level, .kind = kind, .origin = origin, .node = node};
  IR_VEC_PUSH(cx->vars, v);
  return node;
}

IrType *ty_fresh_literal(TyCtx *cx, TyLitClass lit, IrSpan origin) {
  IrType *t = ty_fresh(cx, IR_KIND_BASETYPE, origin);
  cx->vars.items[t->u.hole.id].lit = (uint8_t)lit;
  return t;
}

uint32_t ty_find(TyCtx *cx, uint32_t id) {
  TyVar *vs = cx->vars.items;
  uint32_t root = id;
  while (vs[root].parent != root) root = vs[root].parent;
  while (vs[id].parent != root) { /* path compression */
    uint32_t next = vs[id].parent;
    vs[id].parent = root;
    id = next;
  }
  return root;
}

IrType *ty_prune(TyCtx *cx, IrType *t) {
  while (t->kind == IR_TYPE_HOLE) {
    TyVar *v = &cx->vars.items[ty_find(cx, t->u.hole.id)];
    if (!v->resolved) return v->node;
    t = v->resolved;
  }
  return t;
}

/* ---------------------------------------------------------------- walking types */

static IrKind kind_of(TyCtx *cx, IrType *t) {
  switch (t->kind) {
  case IR_TYPE_SHAPE: return IR_KIND_SHAPE;
  case IR_TYPE_DIM:
  case IR_TYPE_ANY:
  case IR_TYPE_DIMOP: return IR_KIND_SHAPEVAR;
  case IR_TYPE_DTYPE: return IR_KIND_BASETYPE;
  case IR_TYPE_VAR: return t->u.var.kind;
  case IR_TYPE_HOLE: return cx->vars.items[ty_find(cx, t->u.hole.id)].kind;
  default: return IR_KIND_TYPE;
  }
}

void ty_each_child(IrType *t, void (*f)(IrType **slot, void *env), void *env) {
  switch (t->kind) {
  case IR_TYPE_TENSOR:
    f(&t->u.tensor.shape, env);
    f(&t->u.tensor.dtype, env);
    return;
  case IR_TYPE_SHAPE:
    for (int i = 0; i < t->u.shape.rank; i++) f(&t->u.shape.dims[i], env);
    return;
  case IR_TYPE_DIMOP:
    f(&t->u.dimop.a, env);
    f(&t->u.dimop.b, env);
    return;
  case IR_TYPE_TUPLE:
    for (int i = 0; i < t->u.tuple.n; i++) f(&t->u.tuple.fields[i], env);
    return;
  case IR_TYPE_FUNC:
    for (int i = 0; i < t->u.func.nargs; i++) f(&t->u.func.args[i], env);
    f(&t->u.func.ret, env);
    for (int r = 0; r < t->u.func.nrels; r++)
      for (int i = 0; i < t->u.func.rels[r].nargs; i++) f(&t->u.func.rels[r].args[i], env);
    return;
  case IR_TYPE_CALL:
    for (int i = 0; i < t->u.call.nargs; i++) f(&t->u.call.args[i], env);
    return;
  case IR_TYPE_REF: f(&t->u.ref, env); return;
  default: return;
  }
}

IrType *ty_copy_node(IrType *t) {
  IrType *c = IR_NEW(IrType);
  *c = *t;
  switch (t->kind) { /* arrays are copied so that writing the copy leaves t alone */
  case IR_TYPE_SHAPE:
    c->u.shape.dims = IR_NEW_ARRAY(IrType *, t->u.shape.rank);
    ir_copy(c->u.shape.dims, t->u.shape.dims, sizeof(IrType *) * (size_t)t->u.shape.rank);
    break;
  case IR_TYPE_TUPLE:
    c->u.tuple.fields = IR_NEW_ARRAY(IrType *, t->u.tuple.n);
    ir_copy(c->u.tuple.fields, t->u.tuple.fields, sizeof(IrType *) * (size_t)t->u.tuple.n);
    break;
  case IR_TYPE_FUNC:
    c->u.func.args = IR_NEW_ARRAY(IrType *, t->u.func.nargs);
    ir_copy(c->u.func.args, t->u.func.args, sizeof(IrType *) * (size_t)t->u.func.nargs);
    c->u.func.rels = IR_NEW_ARRAY(IrRel, t->u.func.nrels);
    for (int r = 0; r < t->u.func.nrels; r++) {
      c->u.func.rels[r] = t->u.func.rels[r];
      int n = t->u.func.rels[r].nargs > 0 ? t->u.func.rels[r].nargs : 0;
      c->u.func.rels[r].args = IR_NEW_ARRAY(IrType *, n);
      ir_copy(c->u.func.rels[r].args, t->u.func.rels[r].args, sizeof(IrType *) * (size_t)n);
    }
    break;
  case IR_TYPE_CALL:
    c->u.call.args = IR_NEW_ARRAY(IrType *, t->u.call.nargs);
    ir_copy(c->u.call.args, t->u.call.args, sizeof(IrType *) * (size_t)t->u.call.nargs);
    break;
  default: break;
  }
  return c;
}

/* A node's children, mapped: at most as many as the node has slots. */
typedef struct {
  IrType *(*f)(IrType *child, void *env);
  void *env;
  IrType **kids;
  int len, cap, next;
  bool changed;
} MapEnv;

static void map_child(IrType **slot, void *p) {
  MapEnv *m = p;
  IrType *r = m->f(*slot, m->env);
  if (r != *slot) m->changed = true;
  if (m->len == m->cap) { /* past the few on the C stack */
    IrType **more = IR_NEW_ARRAY(IrType *, 2 * m->cap);
    memcpy(more, m->kids, sizeof(IrType *) * (size_t)m->len);
    m->kids = more;
    m->cap *= 2;
  }
  m->kids[m->len++] = r;
}

static void store_child(IrType **slot, void *p) {
  MapEnv *m = p;
  *slot = m->kids[m->next++];
}

IrType *ty_map_children(IrType *t, IrType *(*f)(IrType *child, void *env), void *env) {
  IrType *small[8];
  MapEnv m = {f, env, small, 0, 8, 0, false};
  ty_each_child(t, map_child, &m);
  if (!m.changed) return t;
  IrType *copy = ty_copy_node(t);
  ty_each_child(copy, store_child, &m);
  return copy;
}

static IrType *resolve(TyCtx *cx, IrType *t);

static IrType *resolve_child(IrType *child, void *cx) { return resolve(cx, child); }

/* The resolution of a node that is not a hole: t itself when nothing under it changed (nothing is
 * copied then), else a copy with the resolved children. Once the context is frozen, the result is
 * remembered per node, so a type reachable along many paths (the type of `%x` inside the type of
 * `(%x, %x)`, of a tuple nested in a tuple ...) is resolved once: resolving every node of a program
 * costs the size of its types as they are shared, not as they would be written out. */
static IrType *resolve_node(TyCtx *cx, IrType *t) {
  if (cx->frozen) {
    IrType *known = ir_ptrmap_get(&cx->resolved_nodes, t);
    if (known) return known;
  }
  IrType *r = ty_map_children(t, resolve_child, cx);
  TyPoly p; /* `32 - 1` once the hole in `_a - 1` is 32: arithmetic shows in normal form, 31 */
  if (r != t && r->kind == IR_TYPE_DIMOP && (r->u.dimop.a->kind == IR_TYPE_ANY || r->u.dimop.b->kind == IR_TYPE_ANY))
    r = r->u.dimop.a->kind == IR_TYPE_ANY ? r->u.dimop.a : r->u.dimop.b; /* arithmetic on `?` is `?` */
  else if (r->kind == IR_TYPE_DIMOP && ty_dim_normalize(cx, r, &p) &&
           (r != t || p.n == 0 || (p.n == 1 && p.terms[0].n == 0))) /* a constant shows as one: 0 * 2 - 4 is -4 */
    r = ty_poly_to_dim(cx, &p);
  if (cx->frozen) ir_ptrmap_put(&cx->resolved_nodes, t, r);
  return r;
}

static IrType *resolve(TyCtx *cx, IrType *t) {
  if (t->kind != IR_TYPE_HOLE) return resolve_node(cx, t);
  uint32_t root = ty_find(cx, t->u.hole.id);
  TyVar *v = &cx->vars.items[root];
  if (!v->resolved) return v->node;
  if (v->zonked) return v->zonked;
  IrType *r = resolve(cx, v->resolved);
  /* Frozen, every node mentioning this hole shares one copy instead of making its own. */
  if (cx->frozen) cx->vars.items[root].zonked = r;
  return r;
}

IrType *ty_resolve(TyCtx *cx, IrType *t) { return resolve(cx, t); }

typedef struct {
  TyCtx *cx;
  long limit, sum;
  bool exact, open;
} CountEnv;

static long count_parts(TyCtx *cx, IrType *t, long limit, bool exact, bool *open);

static void count_child(IrType **slot, void *p) {
  CountEnv *env = p;
  if (env->sum > env->limit) return;
  env->sum += count_parts(env->cx, *slot, env->limit - env->sum, env->exact, &env->open);
}

/* The parts of t written out, up to limit + 1 (past it, counting stops), an unresolved hole
 * counting 1. A subtree without unresolved holes never changes, so its count is remembered; a
 * subtree with some may grow when they are bound, so its count is remembered only for the inexact
 * count, which a binding's check uses (a chain of `let %x = (%x,)` under a literal whose dtype is
 * decided at the end costs the chain's length, not its square). */
static long count_parts(TyCtx *cx, IrType *t, long limit, bool exact, bool *open) {
  t = ty_prune(cx, t);
  if (t->kind == IR_TYPE_HOLE) {
    *open = true;
    return 1;
  }
  uintptr_t known = (uintptr_t)ir_ptrmap_get(&cx->part_counts, t);
  if (!known && !exact && (known = (uintptr_t)ir_ptrmap_get(&cx->open_part_counts, t))) *open = true;
  if (known) return (long)known;
  CountEnv env = {cx, limit - 1, 0, exact, false};
  ty_each_child(t, count_child, &env);
  long n = 1 + env.sum;
  if (n > limit) n = limit + 1;
  if (!env.open) ir_ptrmap_put(&cx->part_counts, t, (void *)(uintptr_t)n);
  else if (!exact) ir_ptrmap_put(&cx->open_part_counts, t, (void *)(uintptr_t)n);
  if (env.open) *open = true;
  return n;
}

bool ty_larger_than(TyCtx *cx, IrType *t, long limit, bool exact) {
  bool open = false;
  return count_parts(cx, t, limit, exact, &open) > limit;
}

const char ty_too_large[] = "a type too large to check";

typedef struct {
  TyCtx *cx;
  TyIdList *out;
} HolesEnv;

static void holes_child(IrType **slot, void *p) {
  HolesEnv *env = p;
  IrType *t = ty_prune(env->cx, *slot);
  if (t->kind == IR_TYPE_HOLE) IR_VEC_PUSH(*env->out, ty_find(env->cx, t->u.hole.id));
  else ty_each_child(t, holes_child, env);
}

void ty_holes_of(TyCtx *cx, IrType *t, TyIdList *out) {
  HolesEnv env = {cx, out};
  IrType *slot = t;
  holes_child(&slot, &env);
}


/* A copy of t for a message: a hole standing for an unsuffixed literal's base type shows its
 * default (int32, float32), other holes get names _a, _b, ... shared by every type of the message.
 * Past MESSAGE_PARTS parts the rest shows as `...`: a message stays readable (and small) however
 * large the type. */
enum { MESSAGE_PARTS = 2000 };

typedef struct {
  TyCtx *cx;
  IrSymMap *names;
  long left;
} MessageEnv;

static IrType *for_message(MessageEnv *env, IrType *t);

static void message_child(IrType **slot, void *p) { *slot = for_message(p, *slot); }

static IrType *for_message(MessageEnv *env, IrType *t) {
  TyCtx *cx = env->cx;
  t = ty_prune(cx, t);
  if (env->left-- <= 0) return ir_type_var(ir_sym("..."), kind_of(cx, t), (IrSpan){0});
  if (t->kind == IR_TYPE_HOLE) {
    uint32_t root = ty_find(cx, t->u.hole.id);
    TyVar *v = &cx->vars.items[root];
    if (v->lit != TY_LIT_NONE)
      return ir_type_dtype(v->lit == TY_LIT_FLOAT ? IR_DTYPE(IR_DT_FLOAT, 32) : IR_DTYPE(IR_DT_INT, 32), (IrSpan){0});
    Sym key = ir_sym(ir_printf("%u", root));
    IrType *named = ir_symmap_get(env->names, key);
    if (!named) {
      size_t k = env->names->count;
      named = ir_type_var(ir_sym(k < 26 ? ir_printf("_%c", (char)('a' + k)) : ir_printf("_%zu", k)), v->kind, (IrSpan){0});
      ir_symmap_put(env->names, key, named);
    }
    return named;
  }
  IrType *out = ty_copy_node(t);
  ty_each_child(out, message_child, env);
  if (out->kind == IR_TYPE_FUNC) out->u.func.nrels = 0; /* a message shows the shape of the type */
  return out;
}

IrType *ty_for_message(TyCtx *cx, IrType *t, IrSymMap *names) {
  MessageEnv env = {cx, names, MESSAGE_PARTS};
  return for_message(&env, t);
}

/* ---------------------------------------------------------------- binding */

typedef struct {
  TyCtx *cx;
  uint32_t root; /* the hole being bound */
  bool occurs;
  long left; /* parts the walk may still visit: a type shared into a huge one stops it */
} AdoptEnv;

/* The walk of binding: occurs check, levels, trigger lists. */
static void adopt_child(IrType **slot, void *p) {
  AdoptEnv *env = p;
  TyCtx *cx = env->cx;
  if (env->left < 0) return;
  env->left--;
  IrType *t = ty_prune(cx, *slot);
  if (t->kind != IR_TYPE_HOLE) {
    ty_each_child(t, adopt_child, env);
    return;
  }
  uint32_t id = ty_find(cx, t->u.hole.id);
  if (id == env->root) {
    env->occurs = true;
    return;
  }
  TyVar *inner = &cx->vars.items[id], *outer = &cx->vars.items[env->root];
  if (inner->level > outer->level) inner->level = outer->level;
  for (int i = 0; i < outer->rels.len; i++) IR_VEC_PUSH(inner->rels, outer->rels.items[i]);
}

static void mismatch(TyMismatch *why, IrType *expected, IrType *found, const char *reason) {
  if (!why) return;
  why->expected = expected;
  why->found = found;
  why->reason = reason;
}

/* Why two data types of one name differ: a later declaration made a new type. */
static const char *two_declarations(const IrData *expected, const IrData *found) {
  return ir_printf("two data types are named `%s`: the one expected was declared at %s, the one found at %s; a "
                   "declaration makes a new type, which code checked before it does not accept",
                   expected->name->name, ir_span_place(expected->span), ir_span_place(found->span));
}

static bool literal_fits(TyCtx *cx, uint32_t root, IrType *t, TyMismatch *why) {
  uint8_t lit = cx->vars.items[root].lit;
  if (lit == TY_LIT_NONE) return true;
  if (t->kind == IR_TYPE_DTYPE) {
    IrDType dt = t->u.dtype;
    if (dt.code == IR_DT_BOOL || (lit == TY_LIT_FLOAT && dt.code != IR_DT_FLOAT)) {
      mismatch(why, cx->vars.items[root].node, t,
               lit == TY_LIT_FLOAT ? "a decimal literal has a float type" : "a number cannot be a bool");
      return false;
    }
    return true;
  }
  if (t->kind == IR_TYPE_VAR) {
    mismatch(why, cx->vars.items[root].node, t, "a literal cannot have a type parameter's base type");
    return false;
  }
  return true;
}

static bool kinds_agree(IrKind a, IrKind b) {
  return a == b || a == IR_KIND_UNKNOWN || b == IR_KIND_UNKNOWN;
}

bool ty_bind_hole(TyCtx *cx, IrType *hole, IrType *t, TyMismatch *why) {
  uint32_t root = ty_find(cx, hole->u.hole.id);
  TyVar *v = &cx->vars.items[root];
  if (!kinds_agree(v->kind, kind_of(cx, t))) {
    mismatch(why, hole, t, "kinds differ");
    return false;
  }
  if (!literal_fits(cx, root, t, why)) return false;
  AdoptEnv env = {cx, root, false, TY_MAX_TYPE_PARTS};
  ty_each_child(t, adopt_child, &env);
  if (env.left < 0) {
    mismatch(why, hole, t, ty_too_large);
    return false;
  }
  if (env.occurs) {
    mismatch(why, hole, t, "a type that would contain itself (an infinite type)");
    return false;
  }
  cx->vars.items[root].resolved = t;
  ty_wake(cx, root);
  return true;
}

/* Whether relation `rel` mentions the root hole `root`. */
static bool mentions(TyCtx *cx, const TyRelation *rel, uint32_t root) {
  TyIdList holes = {0};
  for (int i = 0; i < rel->nargs; i++) ty_holes_of(cx, rel->args[i], &holes);
  for (int i = 0; i < holes.len; i++)
    if (holes.items[i] == root) return true;
  return false;
}

static bool union_roots(TyCtx *cx, uint32_t a, uint32_t b, TyMismatch *why) {
  TyVar *va = &cx->vars.items[a], *vb = &cx->vars.items[b];
  if (!kinds_agree(va->kind, vb->kind)) {
    mismatch(why, va->node, vb->node, "kinds differ");
    return false;
  }
  /* Merging tells something only to a relation that mentions both holes (two of its arguments
   * are now one); a relation that mentions one of them still sees the same unresolved hole. So
   * requeue those, found from the shorter trigger list: merging a fresh hole into one that many
   * relations mention (every call's parameter meets its argument this way) costs nothing. */
  TyVar *shorter = va->rels.len <= vb->rels.len ? va : vb;
  uint32_t other = shorter == va ? b : a;
  for (int i = 0; i < shorter->rels.len; i++)
    if (mentions(cx, cx->rels.items[shorter->rels.items[i]], other)) ty_requeue(cx, shorter->rels.items[i]);
  if (va->rank < vb->rank) {
    uint32_t t = a;
    a = b;
    b = t;
    TyVar *tv = va;
    va = vb;
    vb = tv;
  }
  /* a becomes the root of both; the trigger lists are merged shorter into longer. */
  vb->parent = a;
  if (va->rank == vb->rank) va->rank++;
  if (va->kind == IR_KIND_UNKNOWN) va->kind = vb->kind;
  if (!va->hint) va->hint = vb->hint;
  if (vb->lit > va->lit) va->lit = vb->lit; /* an int literal may become a float, not back */
  if (vb->level < va->level) va->level = vb->level;
  if (va->rels.len < vb->rels.len) {
    TyIdList t = va->rels;
    va->rels = vb->rels;
    vb->rels = t;
  }
  for (int i = 0; i < vb->rels.len; i++) IR_VEC_PUSH(va->rels, vb->rels.items[i]);
  vb->rels.len = 0;
  return true;
}

/* ---------------------------------------------------------------- structure */

static bool is_dim(TyCtx *cx, IrType *t) { return kind_of(cx, t) == IR_KIND_SHAPEVAR; }

static bool unify_all(TyCtx *cx, int n, IrType **a, IrType **b, TyMismatch *why) {
  for (int i = 0; i < n; i++)
    if (!ty_unify(cx, a[i], b[i], why)) return false;
  return true;
}

static bool unify_shapes(TyCtx *cx, IrType *a, IrType *b, TyMismatch *why) {
  if (a->u.shape.rank != b->u.shape.rank) {
    mismatch(why, a, b, "the ranks differ");
    return false;
  }
  for (int i = 0; i < a->u.shape.rank; i++) {
    if (!ty_unify(cx, a->u.shape.dims[i], b->u.shape.dims[i], why)) {
      if (why) {
        why->dim = i;
        why->expected = a;
        why->found = b;
      }
      return false;
    }
  }
  return true;
}

/* Two dimensions: `?` is consistent with any; holes bind; constants and named variables compare;
 * arithmetic goes through the normal form (dim.c). */
static bool unify_dims(TyCtx *cx, IrType *a, IrType *b, TyMismatch *why) {
  if (a->kind == IR_TYPE_ANY || b->kind == IR_TYPE_ANY) {
    IrType *other = a->kind == IR_TYPE_ANY ? b : a;
    return other->kind != IR_TYPE_HOLE || ty_bind_hole(cx, other, a->kind == IR_TYPE_ANY ? a : b, why);
  }
  if (a->kind == IR_TYPE_HOLE && b->kind == IR_TYPE_HOLE)
    return union_roots(cx, ty_find(cx, a->u.hole.id), ty_find(cx, b->u.hole.id), why);
  if (a->kind == IR_TYPE_HOLE && b->kind != IR_TYPE_DIMOP) return ty_bind_hole(cx, a, b, why);
  if (b->kind == IR_TYPE_HOLE && a->kind != IR_TYPE_DIMOP) return ty_bind_hole(cx, b, a, why);
  bool same = false, decided = a->kind != IR_TYPE_DIMOP && b->kind != IR_TYPE_DIMOP &&
                              a->kind != IR_TYPE_HOLE && b->kind != IR_TYPE_HOLE;
  if (decided) {
    same = a->kind == b->kind &&
           (a->kind == IR_TYPE_DIM ? a->u.dim == b->u.dim : a->u.var.name == b->u.var.name);
  } else {
    TyMismatch inner = TY_MISMATCH_INIT;
    same = ty_unify_poly(cx, a, b, &inner);
    if (!same && why) why->reason = inner.reason;
  }
  if (!same) mismatch(why, a, b, why ? why->reason : NULL);
  return same;
}

bool ty_unify(TyCtx *cx, IrType *a, IrType *b, TyMismatch *why) {
  a = ty_prune(cx, a);
  b = ty_prune(cx, b);
  if (a == b) return true;
  if (is_dim(cx, a) && is_dim(cx, b)) return unify_dims(cx, a, b, why);
  if (a->kind == IR_TYPE_HOLE && b->kind == IR_TYPE_HOLE)
    return union_roots(cx, ty_find(cx, a->u.hole.id), ty_find(cx, b->u.hole.id), why);
  if (a->kind == IR_TYPE_HOLE) return ty_bind_hole(cx, a, b, why);
  if (b->kind == IR_TYPE_HOLE) return ty_bind_hole(cx, b, a, why);
  if (a->kind != b->kind) {
    mismatch(why, a, b, NULL);
    return false;
  }
  switch (a->kind) {
  case IR_TYPE_TENSOR:
    if (!ty_unify(cx, a->u.tensor.dtype, b->u.tensor.dtype, why)) {
      mismatch(why, a, b, why ? why->reason : NULL); /* show the tensors, not only their dtypes */
      return false;
    }
    return ty_unify(cx, a->u.tensor.shape, b->u.tensor.shape, why);
  case IR_TYPE_SHAPE: return unify_shapes(cx, a, b, why);
  case IR_TYPE_DTYPE:
    if (ir_dtype_eq(a->u.dtype, b->u.dtype)) return true;
    break;
  case IR_TYPE_VAR:
    if (a->u.var.name == b->u.var.name) return true;
    break;
  case IR_TYPE_TUPLE:
    if (a->u.tuple.n != b->u.tuple.n) break;
    return unify_all(cx, a->u.tuple.n, a->u.tuple.fields, b->u.tuple.fields, why);
  case IR_TYPE_FUNC:
    if (a->u.func.nargs != b->u.func.nargs) break;
    if (a->u.func.ntparams || b->u.func.ntparams) { /* polymorphic values compare as written */
      if (ir_type_equal(ty_resolve(cx, a), ty_resolve(cx, b))) return true;
      break;
    }
    return unify_all(cx, a->u.func.nargs, a->u.func.args, b->u.func.args, why) &&
           ty_unify(cx, a->u.func.ret, b->u.func.ret, why);
  case IR_TYPE_CALL:
    if (a->u.call.name != b->u.call.name || a->u.call.nargs != b->u.call.nargs) break;
    if (a->u.call.adt && b->u.call.adt && a->u.call.adt != b->u.call.adt) {
      mismatch(why, a, b, two_declarations(a->u.call.adt, b->u.call.adt));
      return false;
    }
    return unify_all(cx, a->u.call.nargs, a->u.call.args, b->u.call.args, why);
  case IR_TYPE_REF: return ty_unify(cx, a->u.ref, b->u.ref, why);
  default: break;
  }
  mismatch(why, a, b, NULL);
  return false;
}
