/* Explaining how types are found, for the REPL: `:explain` runs a type relation again in a scratch
 * context of its own and says, step by step, what it decides — for Broadcast each axis of the
 * shapes aligned from the right, for the matrix products which axes must agree, for Reshape the
 * element counts — then gives the relation's own verdict (its result, or the very message the
 * checker reports). A failed relation is kept (TyFailure, in the diagnostic that reported it) with
 * its arguments as they were (failure.c), so that the last type error can be explained later; and `:t` of a
 * call of a polymorphic global says how the callee's type parameters were instantiated.
 *
 * The one idea: every step's verdict comes from the checker's own primitives (the axis rule is
 * ty_rel_broadcast_dim, agreement is ty_unify) and the final word from the relation itself, so an
 * explanation cannot disagree with the checker; the text around them only names the case. */
#include "typing/check.h"
#include "typing/failure.h"
#include "typing/oprel.h"

#include <stdarg.h>
#include <string.h>

/* ---------------------------------------------------------------- bringing types into a context */

/* Types made by another context (a recorded failure's, a checked expression's) in this one: each
 * hole a fresh hole of its kind (a literal's base type as it was, when lits says so). */
typedef struct {
  TyCtx *cx;
  IrPtrMap holes; /* id + 1 -> fresh hole */
  const uint8_t *lits;
  int nlits;
} Importer;

static IrType *import_type(Importer *im, IrType *t);

static IrType *import_child(IrType *child, void *im) { return import_type(im, child); }

static IrType *import_type(Importer *im, IrType *t) {
  if (t->kind == IR_TYPE_HOLE) {
    const void *key = (const void *)(uintptr_t)(t->u.hole.id + 1);
    IrType *h = ir_ptrmap_get(&im->holes, key);
    if (!h) {
      uint32_t id = t->u.hole.id;
      TyLitClass lit = im->lits && id < (uint32_t)im->nlits ? (TyLitClass)im->lits[id] : TY_LIT_NONE;
      h = lit != TY_LIT_NONE ? ty_fresh_literal(im->cx, lit, (IrSpan){0}) : ty_fresh(im->cx, t->u.hole.kind, (IrSpan){0});
      ir_ptrmap_put(&im->holes, key, h);
    }
    return h;
  }
  return ty_map_children(t, import_child, im);
}

/* ---------------------------------------------------------------- the explainer */

typedef struct {
  TyCheck c;
  IrDiags scratch; /* the relation's failure, as the checker reports it */
  IrSymMap names;  /* one naming of holes (_a, _b) for the whole explanation */
  IrBuf out;
  TyRelation *rel;
  TyRelId id;
} Explainer;

static const char *show(Explainer *E, IrType *t) { return ir_type_str(ty_for_message(&E->c.cx, t, &E->names)); }

static void line(Explainer *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(Explainer *E, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_buf_puts(&E->out, ir_vprintf(fmt, ap));
  va_end(ap);
  ir_buf_putc(&E->out, '\n');
}

static IrType *prune(Explainer *E, IrType *t) { return ty_prune(&E->c.cx, t); }

static bool is_const(IrType *d, int64_t v) { return d->kind == IR_TYPE_DIM && d->u.dim == v; }

/* The display width of UTF-8 text (code points). */
static int width(const char *s) {
  int n = 0;
  for (; *s; s++) n += ((unsigned char)*s & 0xc0) != 0x80;
  return n;
}

static void pad(IrBuf *b, int n) {
  while (n-- > 0) ir_buf_putc(b, ' ');
}

/* The holes of the types ts, by name: "_a, _b". */
static const char *holes_text(Explainer *E, int n, IrType **ts) {
  TyIdList ids = {0};
  for (int i = 0; i < n; i++) ty_holes_of(&E->c.cx, ts[i], &ids);
  IrBuf t;
  ir_buf_init(&t);
  int shown = 0;
  for (int i = 0; i < ids.len; i++) {
    bool seen = false;
    for (int k = 0; k < i && !seen; k++) seen = ids.items[k] == ids.items[i];
    if (seen) continue;
    ir_buf_printf(&t, "%s%s", shown ? ", " : "", show(E, E->c.cx.vars.items[ids.items[i]].node));
    shown++;
  }
  return shown ? t.data : "its arguments";
}

static const char *holes_of2(Explainer *E, IrType *a, IrType *b) {
  IrType *ts[2] = {a, b};
  return holes_text(E, 2, ts);
}

static const char *ints_text(const IrAttrValue *a) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_putc(&b, '[');
  for (int i = 0; i < a->n; i++) ir_buf_printf(&b, "%s%lld", i ? ", " : "", (long long)a->ints[i]);
  ir_buf_putc(&b, ']');
  return b.data;
}

/* `Broadcast(Tensor[(2, 3), float32], Tensor[(3), float32], _a)` with its attributes as written. */
static const char *relation_text(Explainer *E) { return ty_relation_text(&E->c.cx, E->rel, &E->names); }

/* ---------------------------------------------------------------- Broadcast */

/* What decides one axis of a broadcast: the checker's verdict (ty_rel_broadcast_dim) with the
 * name of the case, tested in the order the checker tests them (relation.c's broadcast_dim).
 * *out is the axis of the result; *fails when the two cannot broadcast. */
static const char *broadcast_rule(Explainer *E, IrType *a0, IrType *b0, IrType **out, TyRelResult *verdict) {
  TyCtx *cx = &E->c.cx;
  TyRelResult v = *verdict = ty_rel_broadcast_dim(cx, a0, b0, out);
  IrType *a = prune(E, a0), *b = prune(E, b0);
  const char *A = show(E, a), *B = show(E, b), *O = *out ? show(E, *out) : "_";
  TyPoly pn; /* the cases read arithmetic in normal form, as the checker does (shown as written) */
  if (a->kind == IR_TYPE_DIMOP && ty_dim_normalize(cx, a, &pn)) a = ty_poly_to_dim(cx, &pn);
  if (b->kind == IR_TYPE_DIMOP && ty_dim_normalize(cx, b, &pn)) b = ty_poly_to_dim(cx, &pn);
  TyRelResult mine; /* the case's own verdict, which must be the checker's */
  const char *rule;
  bool aa = a->kind == IR_TYPE_ANY, ba = b->kind == IR_TYPE_ANY;
  TyIdList holes = {0};
  ty_holes_of(cx, a, &holes);
  ty_holes_of(cx, b, &holes);
  if (a == b || (a->kind == IR_TYPE_DIM && b->kind == IR_TYPE_DIM && a->u.dim == b->u.dim)) {
    mine = TY_SOLVED, rule = ir_printf("%s and %s are equal: %s", A, B, O);
  } else if (aa && ba) {
    mine = TY_SOLVED, rule = ir_printf("both are ? (sizes known only at run time): %s", O);
  } else if (aa || ba) {
    IrType *other = aa ? b : a;
    const char *which = aa ? "first" : "second", *that = aa ? "second" : "first", *S = show(E, other);
    if (is_const(other, 1))
      mine = TY_SOLVED, rule = ir_printf("the %s is ? (known only at run time) and the %s is 1: %s", which, that, O);
    else if (other->kind == IR_TYPE_DIM)
      mine = TY_SOLVED, rule = ir_printf("the %s is ? (known only at run time) and the %s is %s: %s (at run time the ? "
                                         "must be 1 or %s)",
                                         which, that, S, O, S);
    else if (holes.len)
      mine = TY_NOT_YET, rule = ir_printf("the %s is ? (known only at run time) and the %s is %s: not decided until %s "
                                          "%s known",
                                          which, that, S, holes_of2(E, a, b), holes.len > 1 ? "are" : "is");
    else
      mine = TY_SOLVED, rule = ir_printf("the %s is ? (known only at run time) and the %s is %s, which may be 1: %s (the "
                                         "size is known only at run time)",
                                         which, that, S, O);
  } else if (is_const(b, 1)) {
    mine = TY_SOLVED, rule = ir_printf("the second is 1, which stretches to the first's %s: %s", A, O);
  } else if (is_const(a, 1)) {
    mine = TY_SOLVED, rule = ir_printf("the first is 1, which stretches to the second's %s: %s", B, O);
  } else if (a->kind == IR_TYPE_DIM && b->kind == IR_TYPE_DIM) {
    mine = TY_FAILED, rule = ir_printf("%s and %s differ, and neither is 1", A, B);
  } else if ((a->kind == IR_TYPE_HOLE && b->kind == IR_TYPE_DIM) || (b->kind == IR_TYPE_HOLE && a->kind == IR_TYPE_DIM)) {
    const char *H = a->kind == IR_TYPE_HOLE ? A : B, *C = a->kind == IR_TYPE_HOLE ? B : A;
    mine = TY_NOT_YET;
    rule = ir_printf("%s is not known yet and %s is not 1: %s (%s must be 1 or %s: checked when %s is known)", H, C, C, H, C, H);
  } else {
    TyPoly pa, pb;
    bool normal = ty_dim_normalize(cx, a, &pa) && ty_dim_normalize(cx, b, &pb);
    if (normal && ty_poly_equal(&pa, &pb)) {
      mine = TY_SOLVED, rule = ir_printf("%s and %s are equal: %s", A, B, O);
    } else if (normal && holes.len == 0) {
      mine = TY_FAILED;
      bool ca = a->kind == IR_TYPE_DIM, cb = b->kind == IR_TYPE_DIM;
      rule = ca || cb ? ir_printf("%s is a shape variable (any size) and %s is not 1: they may differ, so relay, like "
                                  "TVM, rejects them",
                                  ca ? B : A, ca ? A : B)
                      : ir_printf("%s and %s may differ (a shape variable stands for any size), and neither is 1", A, B);
    } else {
      mine = TY_NOT_YET, rule = ir_printf("%s against %s: not decided until %s %s known", A, B, holes_of2(E, a, b),
                                          holes.len > 1 ? "are" : "is");
    }
  }
  if (mine != v) /* a case named wrongly here: say only what the checker decided */
    rule = v == TY_FAILED ? ir_printf("%s and %s do not broadcast", A, B)
           : v == TY_SOLVED ? ir_printf("%s and %s broadcast to %s", A, B, O)
                            : ir_printf("%s against %s: not decided yet", A, B);
  return rule;
}

static void explain_broadcast(Explainer *E) {
  TyRelation *rel = E->rel;
  IrType *t[3];
  for (int i = 0; i < 3; i++) t[i] = prune(E, rel->args[i]);
  const char *name[3] = {"first", "second", "result"};
  if (E->id == TY_REL_BROADCAST_COMP) line(E, "a comparison: the result's element type is bool");
  for (int i = 0; i < 2; i++) {
    if (t[i]->kind == IR_TYPE_TENSOR) continue;
    if (t[i]->kind == IR_TYPE_HOLE) line(E, "the %s argument is not known yet", name[i]);
    else line(E, "the %s argument is %s, which is not a tensor", name[i], show(E, t[i]));
    return;
  }
  IrType *da = prune(E, t[0]->u.tensor.dtype), *db = prune(E, t[1]->u.tensor.dtype);
  const char *A = show(E, da), *B = show(E, db);
  /* Made one type first, as the relation does: a literal's open base type cannot become every
   * other (`1 + True`, an int32 tensor plus 1.5). */
  bool differ = da->kind == IR_TYPE_DTYPE && db->kind == IR_TYPE_DTYPE ? !ir_dtype_eq(da->u.dtype, db->u.dtype)
                : (da->kind == IR_TYPE_HOLE || db->kind == IR_TYPE_HOLE) && !ty_unify(&E->c.cx, da, db, NULL);
  if (differ) {
    line(E, "the element types must be one type, but they are %s and %s  ✗", A, B);
    return;
  }
  IrType *s[3];
  for (int i = 0; i < 3; i++) s[i] = t[i]->kind == IR_TYPE_TENSOR ? prune(E, t[i]->u.tensor.shape) : NULL;
  if (s[2] && s[2]->kind == IR_TYPE_SHAPE && s[2]->u.shape.rank == 0) {
    line(E, "the result is given as a scalar, which Broadcast gives only from two scalars");
    return;
  }
  for (int i = 0; i < 2; i++) {
    if (s[i]->kind == IR_TYPE_SHAPE) continue;
    line(E, "the %s argument's shape %s has no known rank: Broadcast decides only when the two shapes are the same "
            "or one is a scalar",
         name[i], show(E, s[i]));
    return;
  }
  int ra = s[0]->u.shape.rank, rb = s[1]->u.shape.rank, r = ra > rb ? ra : rb;
  if (r == 0) {
    line(E, "both arguments are scalars, so the result is a scalar");
    return;
  }
  const char *shorter = ra < rb ? "first" : "second";
  line(E, "the shapes align from the right; at each axis the dimensions must be equal, or one of them 1");
  if (ra != rb)
    line(E, "(which stretches to the other); the %s, %s, is padded on the left with 1s to rank %d:", shorter,
         (ra < rb ? ra : rb) == 0 ? "a scalar" : ir_printf("of rank %d", ra < rb ? ra : rb), r);
  else
    line(E, "(which stretches to the other):");
  const char **cell[3], **rules = IR_NEW_ARRAY(const char *, r + 1);
  for (int k = 0; k < 3; k++) cell[k] = IR_NEW_ARRAY(const char *, r + 1);
  bool *failed = IR_NEW_ARRAY(bool, r + 1);
  for (int j = 0; j < r; j++) { /* result axis j; from the right, i */
    int i = r - 1 - j;
    IrType *da = i < ra ? s[0]->u.shape.dims[ra - 1 - i] : NULL, *db = i < rb ? s[1]->u.shape.dims[rb - 1 - i] : NULL;
    cell[0][j] = da ? show(E, da) : "";
    cell[1][j] = db ? show(E, db) : "";
    if (!da || !db) {
      IrType *d = da ? da : db;
      cell[2][j] = show(E, d);
      rules[j] = ir_printf("only the %s has this axis (the %s is padded with 1): %s", da ? "first" : "second", shorter,
                           cell[2][j]);
      continue;
    }
    IrType *o;
    TyRelResult v;
    rules[j] = broadcast_rule(E, da, db, &o, &v);
    failed[j] = v == TY_FAILED;
    cell[2][j] = v == TY_FAILED ? "✗" : o ? show(E, o) : "_";
  }
  for (int k = 0; k < 3; k++) {
    IrBuf *b = &E->out;
    ir_buf_printf(b, "  %s:", name[k]);
    pad(b, 7 - width(name[k]));
    for (int j = 0; j < r; j++) {
      int w = width(cell[0][j]);
      if (width(cell[1][j]) > w) w = width(cell[1][j]);
      if (width(cell[2][j]) > w) w = width(cell[2][j]);
      pad(b, 2 + w - width(cell[k][j]));
      ir_buf_puts(b, cell[k][j]);
    }
    while (b->len && b->data[b->len - 1] == ' ') b->data[--b->len] = '\0'; /* a scalar's empty row */
    ir_buf_putc(b, '\n');
  }
  for (int j = 0; j < r; j++) line(E, "axis %d: %s%s", j, rules[j], failed[j] ? "  ✗" : "");
}

/* ---------------------------------------------------------------- agreement (the products) */

/* Two dimensions that must be equal, unified as the relation unifies them: a line that says
 * whether they are (`what` names them), and false when they cannot be. */
static bool agree(Explainer *E, IrType *a, IrType *b, const char *what) {
  TyCtx *cx = &E->c.cx;
  a = prune(E, a), b = prune(E, b);
  const char *A = show(E, a), *B = show(E, b);
  TyIdList before = {0};
  ty_holes_of(cx, a, &before);
  ty_holes_of(cx, b, &before);
  bool any = a->kind == IR_TYPE_ANY || b->kind == IR_TYPE_ANY;
  if (!ty_unify(cx, a, b, NULL)) {
    bool consts = a->kind == IR_TYPE_DIM && b->kind == IR_TYPE_DIM;
    line(E, "%s: %s and %s %s  ✗", what, A, B, consts ? "differ" : "may differ (a shape variable stands for any size)");
    return false;
  }
  TyIdList after = {0};
  ty_holes_of(cx, a, &after);
  ty_holes_of(cx, b, &after);
  if (!strcmp(A, B)) line(E, "%s: %s and %s are equal", what, A, B);
  else if (any) line(E, "%s: %s against %s: ? matches any size (the run time checks it)", what, A, B);
  else if (after.len) line(E, "%s: %s and %s must be equal: decided once %s %s known", what, A, B, holes_of2(E, a, b),
                          after.len > 1 ? "are" : "is");
  else if (a->kind == IR_TYPE_HOLE || b->kind == IR_TYPE_HOLE)
    line(E, "%s: %s is not known yet, so it becomes %s", what, a->kind == IR_TYPE_HOLE ? A : B,
         a->kind == IR_TYPE_HOLE ? B : A);
  else if (before.len) line(E, "%s: %s and %s are made equal: both are %s", what, A, B, show(E, a));
  else line(E, "%s: %s and %s are equal", what, A, B);
  return true;
}

/* Argument i as a tensor of known rank: its shape, or NULL after saying why not. */
static IrType *shape_of(Explainer *E, int i, const char *what) {
  IrType *t = prune(E, E->rel->args[i]);
  if (t->kind == IR_TYPE_HOLE) {
    line(E, "the %s is not known yet", what);
    return NULL;
  }
  if (t->kind != IR_TYPE_TENSOR) {
    line(E, "the %s is %s, which is not a tensor", what, show(E, t));
    return NULL;
  }
  IrType *s = prune(E, t->u.tensor.shape);
  if (s->kind != IR_TYPE_SHAPE) {
    line(E, "the %s's shape, %s, has no known rank yet", what, show(E, s));
    return NULL;
  }
  return s;
}

static IrType *dim(IrType *shape, int i) { return ty_rel_dim_at(shape, i); }

static void explain_dense(Explainer *E) {
  line(E, "nn.dense: data (..., k) by a weight (units, k) transposed gives (..., units)");
  IrType *x = shape_of(E, 0, "data"), *w = x ? shape_of(E, 1, "weight") : NULL;
  if (!w) return;
  if (x->u.shape.rank < 1 || w->u.shape.rank != 2) {
    line(E, "the data needs rank 1 or more and the weight rank 2: they are %s and %s", show(E, x), show(E, w));
    return;
  }
  line(E, "  data:   %s: k is its last axis, %s", show(E, x), show(E, dim(x, -1)));
  line(E, "  weight: %s: units is its axis 0, %s; its axis 1 must be k", show(E, w), show(E, dim(w, 0)));
  if (!agree(E, dim(x, -1), dim(w, 1), "k (the data's last axis, the weight's axis 1)")) return;
  const IrAttrValue *units = ty_rel_attr(E->rel, IR_A_UNITS);
  if (units->given && !units->none)
    agree(E, dim(w, 0), ty_rel_dim(units->ints[0]), ir_printf("units=%lld (the weight's axis 0)", (long long)units->ints[0]));
}

static void explain_matmul(Explainer *E) {
  bool ta = ty_rel_attr(E->rel, IR_A_TRANSPOSE_A)->b, tb = ty_rel_attr(E->rel, IR_A_TRANSPOSE_B)->b;
  line(E, "nn.matmul: a (..., m, k)%s by b (k, n)%s gives (..., m, n)", ta ? " transposed (transpose_a)" : "",
       tb ? " transposed (transpose_b)" : "");
  IrType *a = shape_of(E, 0, "first argument"), *b = a ? shape_of(E, 1, "second argument") : NULL;
  if (!b) return;
  if (a->u.shape.rank < (ta ? 2 : 1) || b->u.shape.rank != 2) {
    line(E, "the first argument needs rank %s and the second rank 2: they are %s and %s", ta ? "2 or more" : "1 or more",
         show(E, a), show(E, b));
    return;
  }
  IrType *k = ta ? dim(a, -2) : dim(a, -1), *kb = tb ? dim(b, 1) : dim(b, 0);
  line(E, "  first:  %s: k is its axis %d, %s", show(E, a), a->u.shape.rank - (ta ? 2 : 1), show(E, k));
  line(E, "  second: %s: its axis %d must be k", show(E, b), tb ? 1 : 0);
  agree(E, k, kb, "k (the inner dimension)");
}

static void explain_batch_matmul(Explainer *E) {
  bool ta = ty_rel_attr(E->rel, IR_A_TRANSPOSE_A)->b, tb = ty_rel_attr(E->rel, IR_A_TRANSPOSE_B)->b;
  line(E, "nn.batch_matmul: x (batch, m, k)%s by y (batch, %s gives (batch, m, n);",
       ta ? " transposed (transpose_a)" : "", tb ? "n, k) transposed (transpose_b)" : "k, n)");
  line(E, "the batch dimensions broadcast");
  IrType *x = shape_of(E, 0, "first argument"), *y = x ? shape_of(E, 1, "second argument") : NULL;
  if (!y) return;
  if (x->u.shape.rank != 3 || y->u.shape.rank != 3) {
    line(E, "both arguments need rank 3: they are %s and %s", show(E, x), show(E, y));
    return;
  }
  IrType *o;
  TyRelResult v;
  const char *rule = broadcast_rule(E, dim(x, 0), dim(y, 0), &o, &v);
  line(E, "batch: %s%s", rule, v == TY_FAILED ? "  ✗" : "");
  if (v == TY_FAILED || !o) return;
  agree(E, ta ? dim(x, 1) : dim(x, 2), tb ? dim(y, 2) : dim(y, 1), "k (the inner dimension)");
}

/* ---------------------------------------------------------------- Reshape */

static IrType *product(TyCtx *cx, int n, IrType **dims) {
  IrType *p = ty_rel_dim(1);
  for (int i = 0; i < n; i++) p = ty_dim_mul(cx, p, dims[i]);
  return p;
}

static void explain_reshape(Explainer *E) {
  TyCtx *cx = &E->c.cx;
  IrType *s = shape_of(E, 0, "input");
  if (!s) return;
  const IrAttrValue *ns = ty_rel_attr(E->rel, IR_A_NEWSHAPE);
  int r = s->u.shape.rank;
  const char *count = show(E, product(cx, r, s->u.shape.dims));
  line(E, "reshape keeps the elements: the new shape must hold as many as the input");
  IrBuf factors;
  ir_buf_init(&factors);
  for (int i = 0; i < r; i++) ir_buf_printf(&factors, "%s%s", i ? " * " : "", show(E, s->u.shape.dims[i]));
  line(E, "  input %s: %s%s element%s", show(E, s), r > 1 && strcmp(factors.data, count) ? ir_printf("%s = ", factors.data) : "",
       count, strcmp(count, "1") ? "s" : "");
  bool plain = true, allowzero = ty_rel_attr(E->rel, IR_A_ALLOWZERO)->b; /* 0 is a size, not a code */
  for (int j = 0; j < ns->n; j++) plain &= ns->ints[j] > 0 || (ns->ints[j] == 0 && allowzero);
  if (plain) {
    IrBuf f;
    ir_buf_init(&f);
    int64_t n = 1;
    bool big = false;
    for (int j = 0; j < ns->n; j++) {
      ir_buf_printf(&f, "%s%lld", j ? " * " : "", (long long)ns->ints[j]);
      big |= __builtin_mul_overflow(n, ns->ints[j], &n);
    }
    line(E, "  newshape=%s: %s%s", ints_text(ns), ns->n > 1 ? ir_printf("%s = ", f.data) : "",
         big ? "more elements than int64 counts" : ir_printf("%lld element%s", (long long)n, n == 1 ? "" : "s"));
    return;
  }
  line(E, "  newshape=%s, code by code (TVM's codes):", ints_text(ns));
  int src = 0; /* the input's axis the next code reads, as the relation counts */
  IrType **in = s->u.shape.dims;
  for (int j = 0; j < ns->n; j++) {
    int64_t v = ns->ints[j];
    const char *what;
    if (v > 0) {
      what = ir_printf("an axis of %lld", (long long)v);
      src++;
    } else if (v == 0) {
      what = src < r ? ir_printf("copies the input's axis %d, %s", src, show(E, in[src])) : "copies an axis the input lacks";
      src++;
    } else if (v == -1) {
      what = "the size that makes the element counts equal";
      src++;
    } else if (v == -2) {
      IrBuf rest;
      ir_buf_init(&rest);
      for (int i = src; i < r; i++) ir_buf_printf(&rest, "%s%s", i > src ? ", " : "", show(E, in[i]));
      what = src < r ? ir_printf("copies the input's remaining axes: %s", rest.data) : "copies the remaining axes: none";
      src = r > src ? r : src;
    } else if (v == -3) {
      what = src + 1 < r ? ir_printf("merges the input's axes %d and %d: %s * %s", src, src + 1, show(E, in[src]),
                                     show(E, in[src + 1]))
                         : "merges two axes the input lacks";
      src += 2;
    } else if (v == -4) {
      what = j + 2 < ns->n ? ir_printf("splits the input's axis %d%s into %lld and %lld (a part of -1 is what the other "
                                       "leaves)",
                                       src, src < r ? ir_printf(", %s,", show(E, in[src])) : "",
                                       (long long)ns->ints[j + 1], (long long)ns->ints[j + 2])
                           : "splits an axis: two sizes must follow";
      src++;
      j += 2;
    } else {
      what = "no code: the codes are sizes and 0, -1, -2, -3, -4";
    }
    line(E, "    %lld: %s", (long long)v, what);
  }
}

/* ---------------------------------------------------------------- running it */

/* Runs the relation (and what it wakes) to a fixpoint and says what came of it. Returns false when
 * it failed. */
static bool verdict(Explainer *E, const char *recorded, bool argument) {
  TyCtx *cx = &E->c.cx;
  TyRelation *rel = E->rel;
  E->scratch = (IrDiags){0};
  cx->diags = &E->scratch;
  bool ok = ty_solve(cx);
  if (!ok) {
    const IrDiag *d = E->scratch.first;
    IrBuf msg;
    ir_buf_init(&msg);
    ir_buf_puts(&msg, d ? d->message : "the relation does not hold");
    for (int i = 0; d && i < d->notes.len; i++) ir_buf_printf(&msg, "\n%s", d->notes.items[i]);
    line(E, "%s: %s", argument ? ir_printf("so %s fails", rel->name) : "so relay reports", d ? d->message : msg.data);
    for (int i = 0; d && i < d->notes.len; i++) line(E, "  %s", d->notes.items[i]);
    if (recorded && strcmp(recorded, msg.data) != 0) { /* the arguments as kept differ from what the check saw */
      line(E, "(when the input was checked, the message was:");
      line(E, "  %s)", recorded);
    }
    return false;
  }
  const char *res = rel->nargs ? show(E, rel->args[rel->nargs - 1]) : "()";
  int ninputs = rel->nargs > 1 ? rel->nargs - 1 : rel->nargs;
  TyIdList open = {0};
  for (int i = 0; i < ninputs; i++) ty_holes_of(cx, rel->args[i], &open);
  if (rel->solved) line(E, "result: %s", res);
  else if (!open.len) line(E, "not decided: %s cannot decide it from these types (so far the result is %s)", rel->name, res);
  else line(E, "not decided yet: %s waits until more is known about %s (so far the result is %s)", rel->name,
            holes_text(E, rel->nargs > 1 ? rel->nargs - 1 : rel->nargs, rel->args), res);
  if (recorded) line(E, "(it holds now: when the input was checked, it failed with: %s)", recorded);
  if (argument && rel->solved)
    line(E, "(with that type the relation holds: the expected type was decided before this argument was known)");
  return true;
}

static void explain(Explainer *E, const char *recorded, bool argument) {
  line(E, "%s", relation_text(E));
  switch (E->id) {
  case TY_REL_BROADCAST:
  case TY_REL_BROADCAST_COMP: explain_broadcast(E); break;
  case TY_REL_DENSE: explain_dense(E); break;
  case TY_REL_MATMUL: explain_matmul(E); break;
  case TY_REL_BATCH_MATMUL: explain_batch_matmul(E); break;
  case TY_REL_RESHAPE: explain_reshape(E); break;
  default:
    line(E, "relay has no step-by-step explanation of %s; here is what it makes of these types (the last is the "
            "result):",
         E->rel->name);
    break;
  }
  verdict(E, recorded, argument);
}

static void start(Explainer *E, TyModule *m, IrDiags *diags, jmp_buf *fail) {
  memset(E, 0, sizeof *E);
  E->c.m = m;
  E->c.diags = diags;
  E->c.fail = fail;
  ty_ctx_init(&E->c.cx, diags);
  ir_buf_init(&E->out);
}

static TyRelation *add_relation(Explainer *E, TyRelId id, int nargs, IrType **args) {
  E->id = id;
  E->rel = ty_relation_add_registered(&E->c.cx, id, nargs, args, (IrSpan){0});
  return E->rel;
}

const char *ty_explain_failure(TyModule *m, const TyFailure *f) {
  if (!f->args) return ir_printf("the types of that relation, %s, are too large to explain\n", ty_relation_name(f->rel));
  Explainer E;
  IrDiags diags = {0};
  jmp_buf fail;
  start(&E, m, &diags, &fail);
  if (setjmp(fail)) return NULL; /* nothing below fails through the checker's trap */
  Importer im = {&E.c.cx, {0}, f->lits, f->nholes};
  IrType **args = IR_NEW_ARRAY(IrType *, f->nargs > 0 ? f->nargs : 1);
  for (int i = 0; i < f->nargs; i++) args[i] = import_type(&im, f->args[i]);
  TyRelation *rel = add_relation(&E, f->rel, f->nargs, args);
  rel->op = f->op;
  rel->global = f->global;
  rel->attrs = f->attrs;
  rel->nattrs = f->nattrs;
  rel->written = f->written;
  if (f->argument >= 0) {
    line(&E, "The %s argument's expected type came from the type relation of `%s`.", ir_ordinal(f->argument),
         f->op ? f->op : rel->name);
    line(&E, "With the argument's own type, %s:", show(&E, args[f->argument]));
  }
  else if (f->op) line(&E, "It is in the type relation of `%s`:", f->op);
  else if (f->global) line(&E, "It is in a relation that `@%s` declares (its `where` clause):", f->global);
  else line(&E, "It is in the type relation %s:", rel->name);
  explain(&E, f->message, f->argument >= 0);
  return E.out.data;
}

const char *ty_explain_relation(TyModule *m, const IrRel *written, IrDiags *diags) {
  Explainer E;
  jmp_buf fail;
  start(&E, m, diags, &fail);
  if (setjmp(fail)) return NULL;
  TyCheck *c = &E.c;
  TyParamList implicit = {0};
  c->implicit = &implicit; /* a name is a shape variable, a type parameter, ... as its place says */
  IrRel r = *written;
  int op = ir_op_lookup(r.name->name, r.name->len);
  int id = ty_relation_find(r.name);
  if (id < 0 && op < 0)
    ty_fail(c, r.span, "unknown type relation `%s`; :info add shows an operator's relation (Broadcast), and "
                       ":explain add(...) works too",
            r.name->name);
  if (r.nargs < 0) { /* an example of what to write: Broadcast's, else the relation's arity */
    const char *example = "Tensor[(2, 3), float32], ...", *after = "";
    int arity = op < 0 ? ty_relation_arity((TyRelId)id) : 0;
    bool broadcast = id == TY_REL_BROADCAST || id == TY_REL_BROADCAST_COMP;
    if (op < 0 && broadcast) {
      example = "Tensor[(2, 3), float32], Tensor[(3), float32]";
    } else if (op < 0 && arity < 0) {
      example = "TYPE, ..., RESULT";
    } else if (op < 0) {
      IrBuf b;
      ir_buf_init(&b);
      for (int i = 0; i + 1 < arity; i++) ir_buf_puts(&b, "TYPE, ");
      ir_buf_puts(&b, "RESULT");
      example = b.data, after = ", where the result may be left out";
    }
    ty_fail(c, r.span, "give the relation's argument types: %s(%s)%s", r.name->name, example, after);
  }
  const IrOpAttrs *decoded = &ir_op_attrs_none;
  if (op >= 0) { /* an operator: its relation, its attributes, its name in the messages */
    const IrOpInfo *info = &ir_ops[op];
    int lo = info->min_args, hi = info->max_args;
    bool fixed = lo == hi;
    if (r.nargs < lo || r.nargs > (fixed ? hi + 1 : hi))
      ty_fail(c, r.span, "`%s` takes %s argument%s%s, but %d %s given here", info->name,
              fixed ? ir_printf("%d", lo) : ir_printf("%d to %d", lo, hi), hi == 1 ? "" : "s",
              fixed ? " (and may be given its result's type after them)" : "", r.nargs, r.nargs == 1 ? "is" : "are");
    IrSpan at = r.span;
    const char *bad = ir_attrs_decode(info->name, info->attrs, r.nattrs, r.attrs, &decoded, &at);
    if (bad) ty_fail(c, at, "%s", bad);
    IrType *scheme = ty_op_scheme(c, (IrOpId)op, fixed ? hi : r.nargs);
    id = scheme->u.func.rels[0].rel - 1;
    int n = (fixed ? hi : r.nargs) + 1;
    IrType **args = IR_NEW_ARRAY(IrType *, n);
    for (int i = 0; i < n; i++)
      args[i] = i < r.nargs ? ty_annotation(c, r.args[i], IR_KIND_TYPE) : ty_fresh(&c->cx, IR_KIND_TYPE, r.span);
    if (id < 0) ty_fail(c, r.span, "`%s` has no type relation", info->name);
    TyRelation *rel = add_relation(&E, (TyRelId)id, n, args);
    rel->op = info->name;
    line(&E, "The type relation of `%s`:", info->name);
    rel->attrs = decoded;
    if (*ty_relation_attrs((TyRelId)id)) {
      rel->nattrs = r.nattrs;
      rel->written = r.attrs;
    }
  } else {
    int arity = ty_relation_arity((TyRelId)id);
    if (arity > 0 && r.nargs != arity && r.nargs != arity - 1)
      ty_fail(c, r.span, "%s relates %s, but %d %s given here", r.name->name,
              arity == 1 ? "1 type (the result, which may be left out)"
                         : ir_printf("%d types (the last, the result, may be left out)", arity),
              r.nargs, r.nargs == 1 ? "is" : "are");
    if (arity > 0 && r.nargs == arity - 1) { /* the result left out: whatever the relation makes it */
      IrType **args = IR_NEW_ARRAY(IrType *, arity);
      ir_copy(args, r.args, sizeof(IrType *) * (size_t)r.nargs);
      args[r.nargs] = ir_type_var(ir_sym("_"), IR_KIND_TYPE, r.span);
      r.args = args;
      r.nargs = arity;
    }
    IrType f = {.kind = IR_TYPE_FUNC};
    r = ty_relation_annotation(c, r, &f); /* known name, arity, kinds, attributes */
    TyRelation *rel = add_relation(&E, (TyRelId)id, r.nargs, r.args);
    rel->attrs = r.decoded ? r.decoded : &ir_op_attrs_none;
    rel->nattrs = r.nattrs;
    rel->written = r.attrs;
  }
  explain(&E, NULL, false);
  return E.out.data;
}

/* ---------------------------------------------------------------- the substitution at a call */

typedef struct {
  int n;
  const IrTypeParam *params;
  IrType **values;
} Subst;

static IrType *subst(Subst *s, IrType *t);

static IrType *subst_child(IrType *child, void *s) { return subst(s, child); }

static IrType *subst(Subst *s, IrType *t) {
  if (t->kind == IR_TYPE_VAR)
    for (int i = 0; i < s->n; i++)
      if (s->params[i].name == t->u.var.name) return s->values[i];
  return ty_map_children(t, subst_child, s);
}

static void find_name(IrType **slot, void *name) {
  IrType *t = *slot;
  if (!*(Sym *)name) return;
  if (t->kind == IR_TYPE_VAR && t->u.var.name == *(Sym *)name) *(Sym *)name = NULL; /* found */
  else ty_each_child(t, find_name, name);
}

/* Whether the type parameter `param` appears in a parameter's type or the result of the scheme,
 * where the user wrote it or `:t` shows it, rather than only in its where clause. */
static bool in_signature(IrType *scheme, Sym param) {
  Sym name = param;
  for (int i = 0; i < scheme->u.func.nargs && name; i++) find_name(&scheme->u.func.args[i], &name);
  if (name) find_name(&scheme->u.func.ret, &name);
  return !name;
}

const char *ty_call_substitution(const IrTFn *fn) {
  if (!fn || !fn->body || fn->body->kind != IR_EXPR_CALL) return NULL;
  return ty_instance_substitution(fn->body->u.call.callee);
}

const char *ty_instance_substitution(const IrTExpr *callee) {
  IrType *scheme = callee->kind == IR_EXPR_GLOBAL && callee->u.def  ? callee->u.def->scheme
                   : callee->kind == IR_EXPR_CTOR && callee->u.ctor ? callee->u.ctor->scheme
                                                                    : NULL;
  IrType *inst = callee->type;
  if (!scheme || scheme->kind != IR_TYPE_FUNC || scheme->u.func.ntparams == 0 || !inst || inst->kind != IR_TYPE_FUNC ||
      inst->u.func.nargs != scheme->u.func.nargs)
    return NULL;
  IrDiags diags = {0};
  TyCtx cx;
  ty_ctx_init(&cx, &diags);
  int n = scheme->u.func.ntparams;
  Subst s = {n, scheme->u.func.tparams, IR_NEW_ARRAY(IrType *, n)};
  for (int i = 0; i < n; i++) s.values[i] = ty_fresh(&cx, scheme->u.func.tparams[i].kind, (IrSpan){0});
  Importer im = {&cx, {0}, NULL, 0};
  for (int i = 0; i < inst->u.func.nargs; i++)
    if (!ty_unify(&cx, subst(&s, scheme->u.func.args[i]), import_type(&im, inst->u.func.args[i]), NULL)) return NULL;
  if (!ty_unify(&cx, subst(&s, scheme->u.func.ret), import_type(&im, inst->u.func.ret), NULL)) return NULL;
  IrBuf known, open;
  ir_buf_init(&known);
  ir_buf_init(&open);
  IrSymMap names = {0};
  int nopen = 0;
  for (int i = 0; i < n; i++) {
    Sym param = scheme->u.func.tparams[i].name;
    if (!in_signature(scheme, param)) continue; /* only in the where clause: `@h`'s t3 of Broadcast(t1, t2, t3) */
    IrType *v = ty_prune(&cx, s.values[i]);
    if (v->kind == IR_TYPE_VAR) continue; /* open, and shown so in the type line: `:t Nil()` is List[t1] */
    if (v->kind == IR_TYPE_HOLE) ir_buf_printf(&open, "%s%s", nopen++ ? ", " : "", param->name);
    else ir_buf_printf(&known, "%s%s := %s", known.len ? ", " : "", param->name, ir_type_str(ty_for_message(&cx, v, &names)));
  }
  if (!known.len && !nopen) return NULL;
  const char *left = ir_printf("%s %s left open", open.data, nopen > 1 ? "are" : "is");
  if (!known.len) return left; /* `@length(Nil())`: what the call decides does not depend on it */
  if (nopen) ir_buf_printf(&known, " (%s)", left);
  return known.data;
}
