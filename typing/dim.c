/* Dimensions in normal form: sums of monomials with constant coefficients over named shape
 * variables and holes, so that `n * 2 + n` and `3 * n` are the same dimension. Unifying two
 * dimensions subtracts their normal forms: zero means equal, a non-zero constant means different,
 * one hole appearing only linearly is solved for (`n * 2 = 10` gives n = 5), and anything else
 * waits as a relation until more is known. */
#include "typing/ty.h"

#include <stdlib.h>
#include <string.h>

static int atom_cmp(const TyAtom *a, const TyAtom *b) {
  if (a->name && b->name) return strcmp(a->name->name, b->name->name);
  if (a->name || b->name) return a->name ? -1 : 1; /* names before holes */
  return a->hole < b->hole ? -1 : a->hole > b->hole;
}

/* Higher degree first, the constant last: `n * m + n + 1`. */
static int mono_cmp(const TyMono *a, const TyMono *b) {
  if (a->n != b->n) return a->n > b->n ? -1 : 1;
  for (int i = 0; i < a->n; i++) {
    int c = atom_cmp(&a->atoms[i], &b->atoms[i]);
    if (c) return c;
  }
  return 0;
}

static int mono_qsort(const void *a, const void *b) { return mono_cmp(a, b); }

/* Sorts the terms, adds up equal monomials and drops zeros. False on overflow. */
static bool normalize(TyPoly *p) {
  if (p->n > 1) qsort(p->terms, (size_t)p->n, sizeof(TyMono), mono_qsort);
  int out = 0;
  for (int i = 0; i < p->n; i++) {
    if (out > 0 && mono_cmp(&p->terms[out - 1], &p->terms[i]) == 0) {
      if (__builtin_add_overflow(p->terms[out - 1].coef, p->terms[i].coef, &p->terms[out - 1].coef)) return false;
    } else {
      p->terms[out++] = p->terms[i];
    }
    if (p->terms[out - 1].coef == 0) out--;
  }
  p->n = out;
  return true;
}

static TyPoly constant(int64_t c) {
  TyPoly p = {0, NULL};
  if (c) {
    p.n = 1;
    p.terms = IR_NEW(TyMono);
    p.terms[0].coef = c;
  }
  return p;
}

static TyPoly atom(TyAtom a) {
  TyPoly p = {1, IR_NEW(TyMono)};
  p.terms[0].coef = 1;
  p.terms[0].n = 1;
  p.terms[0].atoms = IR_NEW(TyAtom);
  p.terms[0].atoms[0] = a;
  return p;
}

static bool add(const TyPoly *a, const TyPoly *b, int64_t sign, TyPoly *out) {
  out->n = a->n + b->n;
  out->terms = IR_NEW_ARRAY(TyMono, out->n + 1);
  ir_copy(out->terms, a->terms, sizeof(TyMono) * (size_t)a->n);
  for (int i = 0; i < b->n; i++) {
    out->terms[a->n + i] = b->terms[i];
    if (__builtin_mul_overflow(b->terms[i].coef, sign, &out->terms[a->n + i].coef)) return false;
  }
  return normalize(out);
}

static bool mul(const TyPoly *a, const TyPoly *b, TyPoly *out) {
  out->n = a->n * b->n;
  out->terms = IR_NEW_ARRAY(TyMono, out->n + 1);
  int k = 0;
  for (int i = 0; i < a->n; i++) {
    for (int j = 0; j < b->n; j++) {
      TyMono *m = &out->terms[k++];
      if (__builtin_mul_overflow(a->terms[i].coef, b->terms[j].coef, &m->coef)) return false;
      m->n = a->terms[i].n + b->terms[j].n;
      m->atoms = IR_NEW_ARRAY(TyAtom, m->n + 1);
      /* merge two sorted atom lists */
      int x = 0, y = 0, z = 0;
      while (x < a->terms[i].n || y < b->terms[j].n) {
        bool take_a = y >= b->terms[j].n ||
                      (x < a->terms[i].n && atom_cmp(&a->terms[i].atoms[x], &b->terms[j].atoms[y]) <= 0);
        m->atoms[z++] = take_a ? a->terms[i].atoms[x++] : b->terms[j].atoms[y++];
      }
    }
  }
  return normalize(out);
}

/* What normalizing found: a normal form, a `?` inside (no normal form, and no error), or
 * arithmetic past int64 (recorded in cx->dim_overflow: see ty.h). */
typedef enum { NORM_OK, NORM_ANY, NORM_OVERFLOW } NormResult;

static NormResult norm(TyCtx *cx, IrType *dim, TyPoly *out) {
  dim = ty_prune(cx, dim);
  switch (dim->kind) {
  case IR_TYPE_DIM: *out = constant(dim->u.dim); return NORM_OK;
  case IR_TYPE_VAR: *out = atom((TyAtom){dim->u.var.name, 0}); return NORM_OK;
  case IR_TYPE_HOLE: *out = atom((TyAtom){NULL, ty_find(cx, dim->u.hole.id)}); return NORM_OK;
  case IR_TYPE_DIMOP: {
    TyPoly a, b;
    NormResult ra = norm(cx, dim->u.dimop.a, &a);
    if (ra != NORM_OK) return ra;
    NormResult rb = norm(cx, dim->u.dimop.b, &b);
    if (rb != NORM_OK) return rb;
    bool ok = dim->u.dimop.op == '*' ? mul(&a, &b, out) : add(&a, &b, dim->u.dimop.op == '+' ? 1 : -1, out);
    if (ok) return NORM_OK;
    if (!cx->dim_overflow) cx->dim_overflow = dim; /* the innermost: where it overflows */
    return NORM_OVERFLOW;
  }
  default: return NORM_ANY; /* `?`: no normal form */
  }
}

bool ty_dim_normalize(TyCtx *cx, IrType *dim, TyPoly *out) { return norm(cx, dim, out) == NORM_OK; }

TyPoly ty_poly_sub(const TyPoly *a, const TyPoly *b) {
  TyPoly out = {0, NULL};
  if (!add(a, b, -1, &out)) out.n = -1;
  return out;
}

bool ty_poly_equal(const TyPoly *a, const TyPoly *b) {
  if (a->n != b->n) return false;
  for (int i = 0; i < a->n; i++)
    if (a->terms[i].coef != b->terms[i].coef || mono_cmp(&a->terms[i], &b->terms[i]) != 0) return false;
  return true;
}

static IrType *dimop(char op, IrType *a, IrType *b) {
  IrType *t = ir_type_new(IR_TYPE_DIMOP, (IrSpan){0});
  t->u.dimop.op = op;
  t->u.dimop.a = a;
  t->u.dimop.b = b;
  return t;
}

/* One monomial without its sign: `n * m * 2`, `n`, `3`; with it when its coefficient is INT64_MIN,
 * whose magnitude int64 cannot hold (`n * -9223372036854775808`). */
static IrType *mono_to_dim(TyCtx *cx, const TyMono *m) {
  IrType *t = NULL;
  for (int i = 0; i < m->n; i++) {
    IrType *a = m->atoms[i].name ? ir_type_var(m->atoms[i].name, IR_KIND_SHAPEVAR, (IrSpan){0})
                                 : cx->vars.items[m->atoms[i].hole].node;
    t = t ? dimop('*', t, a) : a;
  }
  int64_t c = m->coef < 0 && m->coef != INT64_MIN ? -m->coef : m->coef;
  if (!t) return ir_type_dim(c, (IrSpan){0});
  return c == 1 ? t : dimop('*', t, ir_type_dim(c, (IrSpan){0}));
}

IrType *ty_poly_to_dim(TyCtx *cx, const TyPoly *p) {
  if (p->n == 0) return ir_type_dim(0, (IrSpan){0});
  IrType *t = NULL;
  for (int i = 0; i < p->n; i++) {
    IrType *m = mono_to_dim(cx, &p->terms[i]);
    bool minus = p->terms[i].coef < 0 && p->terms[i].coef != INT64_MIN; /* INT64_MIN keeps its sign in m */
    if (!t) t = minus ? dimop('-', ir_type_dim(0, (IrSpan){0}), m) : m;
    else t = dimop(minus ? '-' : '+', t, m);
  }
  return t;
}

/* ---------------------------------------------------------------- unifying dimensions */

/* The relation that holds an equation until it can be decided. */
TyRelResult ty_dim_eq_relation(TyCtx *cx, TyRelation *rel, const char **message) {
  TyMismatch why = TY_MISMATCH_INIT;
  int pending = (int)cx->rels.len;
  bool ok = ty_unify_poly(cx, rel->args[0], rel->args[1], &why);
  if (!ok) {
    *message = "the dimensions cannot be equal";
    return TY_FAILED;
  }
  /* Still undecidable, the call above made a new equation: drop it, keep this one. */
  if ((int)cx->rels.len > pending) {
    cx->rels.items[cx->rels.len - 1]->solved = true;
    return TY_NOT_YET;
  }
  return TY_SOLVED;
}

static bool is_any(TyCtx *cx, IrType *d);

bool ty_unify_poly(TyCtx *cx, IrType *a, IrType *b, TyMismatch *why) {
  TyPoly pa, pb;
  bool na = ty_dim_normalize(cx, a, &pa), nb = na && ty_dim_normalize(cx, b, &pb);
  if (!na || !nb) {
    if (is_any(cx, a) || is_any(cx, b)) return true; /* `?` inside: the run time checks */
    /* arithmetic past int64 (`9223372036854775807 * 3`): no normal form to decide by, and no run-time
     * check could compute it either; wrapping would accept a wrong shape */
    if (why) why->reason = "the dimension is too large: its arithmetic overflows int64";
    return false;
  }
  TyPoly d = ty_poly_sub(&pa, &pb);
  if (d.n < 0) {
    if (!cx->dim_overflow) cx->dim_overflow = dimop('-', a, b);
    if (why) why->reason = "the dimensions are too large: their difference overflows int64";
    return false;
  }
  if (d.n == 0) return true;
  /* The holes of the difference, and whether one of them appears only linearly. */
  int holes = 0, linear = -1;
  uint32_t hole = 0;
  for (int i = 0; i < d.n; i++) {
    for (int k = 0; k < d.terms[i].n; k++) {
      if (d.terms[i].atoms[k].name) continue;
      if (!holes || d.terms[i].atoms[k].hole != hole) holes++;
      hole = d.terms[i].atoms[k].hole;
    }
  }
  if (holes == 0) {
    if (why) why->reason = NULL;
    return false; /* only constants and named variables: decided, and different */
  }
  if (holes == 1) {
    for (int i = 0; i < d.n; i++) {
      bool has = false;
      for (int k = 0; k < d.terms[i].n; k++) has |= !d.terms[i].atoms[k].name;
      if (!has) continue;
      if (d.terms[i].n != 1 || linear >= 0) {
        linear = -2;
        break;
      }
      linear = i;
    }
  }
  if (holes == 1 && linear >= 0) {
    int64_t c = d.terms[linear].coef;
    TyPoly rest = {0, IR_NEW_ARRAY(TyMono, d.n)};
    bool divisible = true;
    for (int i = 0; i < d.n; i++) {
      if (i == linear) continue;
      TyMono m = d.terms[i];
      /* -(coef / c), with c = -1 and 1 apart: INT64_MIN / -1 and -INT64_MIN overflow */
      if (c == -1) {
        /* -(coef / -1) is coef */
      } else if (c == 1 && m.coef == INT64_MIN) {
        if (why) why->reason = "the dimension is too large: its arithmetic overflows int64";
        return false;
      } else {
        if (m.coef % c != 0) divisible = false;
        m.coef = -(m.coef / c);
      }
      rest.terms[rest.n++] = m;
    }
    if (divisible) return ty_bind_hole(cx, cx->vars.items[hole].node, ty_poly_to_dim(cx, &rest), why);
    bool constant_rest = true;
    for (int i = 0; i < rest.n; i++) constant_rest &= rest.terms[i].n == 0;
    if (constant_rest) {
      if (why) why->reason = "no whole number solves this dimension";
      return false;
    }
  }
  IrType **args = IR_NEW_ARRAY(IrType *, 2);
  args[0] = a;
  args[1] = b;
  ty_relation_add(cx, ty_dim_eq_relation, "DimEq", 2, args, (IrSpan){0});
  return true;
}

/* ---------------------------------------------------------------- arithmetic for the relations */

static bool is_any(TyCtx *cx, IrType *d) {
  d = ty_prune(cx, d);
  if (d->kind == IR_TYPE_ANY) return true;
  if (d->kind == IR_TYPE_DIMOP) return is_any(cx, d->u.dimop.a) || is_any(cx, d->u.dimop.b);
  return false;
}

IrType *ty_dim_any(void) { return ir_type_new(IR_TYPE_ANY, (IrSpan){0}); }

static IrType *arith(TyCtx *cx, char op, IrType *a, IrType *b) {
  TyPoly pa, pb, out;
  if (!ty_dim_normalize(cx, a, &pa) || !ty_dim_normalize(cx, b, &pb)) return ty_dim_any();
  bool ok = op == '*' ? mul(&pa, &pb, &out) : add(&pa, &pb, op == '+' ? 1 : -1, &out);
  if (!ok) {
    /* past int64: the relation running now fails with "dimension too large" (solver.c); `?` is
     * only what it sees until it returns */
    if (!cx->dim_overflow) cx->dim_overflow = dimop(op, a, b);
    return ty_dim_any();
  }
  /* Nothing combined (`n + m`): keep the operands in the order written. */
  bool positive = true;
  for (int i = 0; i < pb.n; i++) positive &= pb.terms[i].coef > 0;
  if (op == '+' && positive && pa.n && pb.n && out.n == pa.n + pb.n)
    return dimop('+', ty_poly_to_dim(cx, &pa), ty_poly_to_dim(cx, &pb));
  return ty_poly_to_dim(cx, &out);
}

IrType *ty_dim_add(TyCtx *cx, IrType *a, IrType *b) { return arith(cx, '+', a, b); }
IrType *ty_dim_sub(TyCtx *cx, IrType *a, IrType *b) { return arith(cx, '-', a, b); }
IrType *ty_dim_mul(TyCtx *cx, IrType *a, IrType *b) { return arith(cx, '*', a, b); }

/* Whether monomial m contains every atom of d (both sorted); the rest goes to *rest. */
static bool mono_divides(const TyMono *m, const TyMono *d, TyMono *rest) {
  if (d->coef == 0 || (d->coef == -1 && m->coef == INT64_MIN)) return false; /* INT64_MIN / -1 overflows */
  if (m->coef % d->coef != 0) return false;
  rest->coef = m->coef / d->coef;
  rest->atoms = IR_NEW_ARRAY(TyAtom, m->n + 1);
  rest->n = 0;
  int j = 0;
  for (int i = 0; i < m->n; i++) {
    if (j < d->n && atom_cmp(&m->atoms[i], &d->atoms[j]) == 0) j++;
    else rest->atoms[rest->n++] = m->atoms[i];
  }
  return j == d->n;
}

IrType *ty_dim_div(TyCtx *cx, IrType *a, IrType *b) {
  if (is_any(cx, a) || is_any(cx, b)) return ty_dim_any();
  TyPoly pa, pb;
  if (!ty_dim_normalize(cx, a, &pa) || !ty_dim_normalize(cx, b, &pb)) return NULL;
  if (pb.n != 1) return NULL; /* only a single monomial divides */
  TyPoly out = {pa.n, IR_NEW_ARRAY(TyMono, pa.n + 1)};
  for (int i = 0; i < pa.n; i++)
    if (!mono_divides(&pa.terms[i], &pb.terms[0], &out.terms[i])) return NULL;
  if (!normalize(&out)) return NULL;
  return ty_poly_to_dim(cx, &out);
}

bool ty_dim_value(TyCtx *cx, IrType *d, int64_t *out) {
  TyPoly p;
  if (!ty_dim_normalize(cx, d, &p)) return false;
  if (p.n == 0) {
    *out = 0;
    return true;
  }
  if (p.n != 1 || p.terms[0].n != 0) return false;
  *out = p.terms[0].coef;
  return true;
}
