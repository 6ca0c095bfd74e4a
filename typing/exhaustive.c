/* Exhaustiveness and redundancy of `match`, by the usefulness of a pattern vector against a
 * matrix of earlier ones (Maranget, "Warnings for pattern matching"): a clause no earlier clauses
 * leave room for is unreachable, and a wildcard still useful after all clauses is a missing case,
 * of which the check builds an example such as `Cons(_, Nil())`. */
#include "typing/check.h"

#include <stdlib.h>
#include <string.h>

#include "ir/symmap.h"

typedef IR_VEC(IrTPattern **) Matrix; /* rows of patterns; NULL stands for a wildcard */

static bool is_wild(const IrTPattern *p) { return !p || p->kind == IR_PAT_WILD || p->kind == IR_PAT_VAR; }

static IrTPattern *wildcard(void) {
  IrTPattern *p = IR_NEW(IrTPattern);
  p->kind = IR_PAT_WILD;
  return p;
}

/* Row `row` with its first pattern (constructor or wildcard) replaced by its `arity` fields. */
static void push_specialized(Matrix *out, IrTPattern **row, int cols, int arity) {
  IrTPattern *p = row[0];
  IrTPattern **r = IR_NEW_ARRAY(IrTPattern *, arity + cols);
  for (int i = 0; i < arity; i++) r[i] = is_wild(p) ? NULL : p->args[i];
  ir_copy(r + arity, row + 1, sizeof(IrTPattern *) * (size_t)(cols - 1));
  IR_VEC_PUSH(*out, r);
}

/* The rows that match constructor k (or a tuple of arity `arity` when k is NULL), with the
 * first column replaced by the fields. */
static Matrix specialize(const Matrix *m, int cols, const IrCtor *k, int arity) {
  Matrix out = {0};
  for (int r = 0; r < m->len; r++) {
    IrTPattern *p = m->items[r][0];
    if (!is_wild(p) && (k ? p->kind != IR_PAT_CTOR || p->ctor->src != k : p->kind != IR_PAT_TUPLE)) continue;
    push_specialized(&out, m->items[r], cols, arity);
  }
  return out;
}

/* A row whose first pattern is a constructor of the column's data type: the constructor's
 * position in the declaration, and the row's. */
typedef struct Head {
  int ctor, row;
} Head;

static int head_order(const void *a, const void *b) {
  const Head *x = a, *y = b;
  if (x->ctor != y->ctor) return x->ctor < y->ctor ? -1 : 1;
  return (x->row > y->row) - (x->row < y->row);
}

/* The rows whose first column is a wildcard, without it. */
static Matrix default_rows(const Matrix *m) {
  Matrix out = {0};
  for (int r = 0; r < m->len; r++)
    if (is_wild(m->items[r][0])) IR_VEC_PUSH(out, m->items[r] + 1);
  return out;
}

static IrTPattern **with_head(IrTPattern *head, IrTPattern **rest, int cols) {
  IrTPattern **row = IR_NEW_ARRAY(IrTPattern *, cols);
  row[0] = head;
  ir_copy(row + 1, rest, sizeof(IrTPattern *) * (size_t)(cols - 1));
  return row;
}

/* `k(w0, ..., wa-1)` followed by the rest of the witness. */
static IrTPattern **rebuild(const IrCtor *k, int arity, IrTPattern **w, int cols) {
  IrTPattern *p = IR_NEW(IrTPattern);
  p->kind = k ? IR_PAT_CTOR : IR_PAT_TUPLE;
  if (k) {
    IrTCtor *tk = IR_NEW(IrTCtor); /* an example's: its name is all that is used */
    tk->src = k;
    p->ctor = tk;
  }
  p->n = arity;
  p->args = IR_NEW_ARRAY(IrTPattern *, arity);
  for (int i = 0; i < arity; i++) p->args[i] = w[i] ? w[i] : wildcard();
  return with_head(p, w + arity, cols);
}

/* The work the checks of one match may do, in rows visited. Usefulness is exponential in the worst
 * case and quadratic for clauses that are not told apart by a constructor (tuples, checked against
 * every earlier row); past the budget the match is left unchecked (these are warnings), with a
 * warning saying so, instead of a check that runs for minutes. */
enum { WORK_BUDGET = 50 * 1000 * 1000 };

typedef struct {
  long left;
  bool gave_up;
} Work;

/* A witness that q matches a value no row of m matches, or NULL. Out of budget, a witness of
 * nothing (useful: no clause is called unreachable for it) and w->gave_up. */
static IrTPattern **useful(Work *work, const Matrix *m, IrTPattern **q, int cols) {
  if (work->gave_up || (work->left -= m->len + 1) < 0) {
    work->gave_up = true;
    return IR_NEW_ARRAY(IrTPattern *, cols + 1);
  }
  if (cols == 0) return m->len == 0 ? IR_NEW_ARRAY(IrTPattern *, 1) : NULL;
  IrTPattern *head = q[0];
  if (!is_wild(head)) {
    const IrCtor *k = head->kind == IR_PAT_CTOR ? head->ctor->src : NULL;
    int arity = head->n;
    Matrix s = specialize(m, cols, k, arity);
    IrTPattern **qs = IR_NEW_ARRAY(IrTPattern *, arity + cols);
    ir_copy(qs, head->args, sizeof(IrTPattern *) * (size_t)arity);
    ir_copy(qs + arity, q + 1, sizeof(IrTPattern *) * (size_t)(cols - 1));
    IrTPattern **w = useful(work, &s, qs, arity + cols - 1);
    return w ? rebuild(k, arity, w, cols) : NULL;
  }
  /* A wildcard: what do the rows' first patterns say about the column's type? */
  const IrTPattern *shape = NULL;
  for (int r = 0; r < m->len && !shape; r++)
    if (!is_wild(m->items[r][0])) shape = m->items[r][0];
  if (shape && shape->kind == IR_PAT_TUPLE) { /* one constructor: always complete */
    int arity = shape->n;
    Matrix s = specialize(m, cols, NULL, arity);
    IrTPattern **qs = IR_NEW_ARRAY(IrTPattern *, arity + cols);
    ir_copy(qs + arity, q + 1, sizeof(IrTPattern *) * (size_t)(cols - 1));
    IrTPattern **w = useful(work, &s, qs, arity + cols - 1);
    return w ? rebuild(NULL, arity, w, cols) : NULL;
  }
  ASSERT(!shape || shape->ctor); /* check_pattern resolved every constructor pattern */
  const IrData *adt = shape && shape->ctor ? shape->ctor->src->adt : NULL;
  if (adt) {
    /* The rows by constructor (sorted, so a data type of n constructors costs O(n log n), not
     * a scan of the rows for each constructor), and the wildcard rows, which every
     * constructor's specialization keeps. */
    IR_VEC(Head) heads = {0};
    IR_VEC(int) wild = {0};
    for (int r = 0; r < m->len; r++) {
      const IrTPattern *p = m->items[r][0];
      if (is_wild(p))
        IR_VEC_PUSH(wild, r);
      else if (p->kind == IR_PAT_CTOR && p->ctor && p->ctor->src->adt == adt)
        IR_VEC_PUSH(heads, ((Head){p->ctor->src->tag, r}));
    }
    if (heads.len > 1) qsort(heads.items, (size_t)heads.len, sizeof(Head), head_order);
    int missing = -1, next = 0; /* the first constructor no row names */
    for (int i = 0; i < heads.len && missing < 0; i++) {
      if (heads.items[i].ctor > next) missing = next;
      next = heads.items[i].ctor + 1;
    }
    if (missing < 0 && next < adt->nctors) missing = next;
    if (missing < 0) {
      for (int lo = 0, hi; lo < heads.len; lo = hi) {
        for (hi = lo; hi < heads.len && heads.items[hi].ctor == heads.items[lo].ctor; hi++) continue;
        const IrCtor *k = &adt->ctors[heads.items[lo].ctor];
        Matrix s = {0}; /* k's rows and the wildcard rows, in their order */
        for (int i = lo, j = 0; i < hi || j < wild.len;) {
          int r = j >= wild.len || (i < hi && heads.items[i].row < wild.items[j]) ? heads.items[i++].row : wild.items[j++];
          push_specialized(&s, m->items[r], cols, k->nargs);
        }
        IrTPattern **qs = IR_NEW_ARRAY(IrTPattern *, k->nargs + cols);
        ir_copy(qs + k->nargs, q + 1, sizeof(IrTPattern *) * (size_t)(cols - 1));
        IrTPattern **w = useful(work, &s, qs, k->nargs + cols - 1);
        if (w) return rebuild(k, k->nargs, w, cols);
      }
      return NULL;
    }
    const IrCtor *k = &adt->ctors[missing];
    Matrix d = default_rows(m);
    IrTPattern **w = useful(work, &d, q + 1, cols - 1);
    if (!w) return NULL;
    IrTPattern **args = IR_NEW_ARRAY(IrTPattern *, k->nargs + cols);
    ir_copy(args + k->nargs, w, sizeof(IrTPattern *) * (size_t)(cols - 1));
    return rebuild(k, k->nargs, args, cols);
  }
  Matrix d = default_rows(m);
  IrTPattern **w = useful(work, &d, q + 1, cols - 1);
  return w ? with_head(wildcard(), w, cols) : NULL;
}

static void missing_case(TyCheck *c, const IrTExpr *match, IrTPattern **w);

void ty_check_exhaustive(TyCheck *c, const IrTExpr *match) {
  /* Whether a clause is reachable asks only the earlier clauses that can match what it does:
   * those of the same constructor (kept by constructor name) and wildcards, after which nothing
   * is reachable; so a match of n clauses on n constructors costs O(n), not O(n^2). Clauses of
   * other shapes (tuples) are checked against all the rows. */
  Matrix rows = {0};
  Work work = {WORK_BUDGET, false};
  IrSymMap by_ctor = {0}; /* constructor name -> Matrix * of the rows it heads */
  const IrData *adt = NULL;
  bool total = false, mixed = false; /* a wildcard row came; a row not kept by constructor came */
  for (int i = 0; i < match->u.match.nclauses; i++) {
    IrTPattern *p = match->u.match.clauses[i].pat;
    IrTPattern **q = IR_NEW_ARRAY(IrTPattern *, 1);
    q[0] = p;
    bool by_name = !is_wild(p) && p->kind == IR_PAT_CTOR && p->ctor && (!adt || adt == p->ctor->src->adt);
    Matrix *same = NULL;
    if (by_name) {
      adt = p->ctor->src->adt;
      same = ir_symmap_get(&by_ctor, p->ctor->src->name);
      if (!same) {
        same = IR_NEW(Matrix);
        ir_symmap_put(&by_ctor, p->ctor->src->name, same);
      }
    }
    bool reachable = !total && useful(&work, by_name && !mixed ? same : &rows, q, 1);
    if (!reachable) {
      IrDiag *d = ir_diag_add(c->diags, IR_DIAG_WARNING, p->src->span,
                              "this clause is unreachable: the clauses before it match every value it matches");
      ir_diag_note(d, "hint: clauses are tried in order; move it up or remove it");
    }
    IR_VEC_PUSH(rows, q);
    if (by_name)
      IR_VEC_PUSH(*same, q);
    else if (is_wild(p))
      total = true;
    else
      mixed = true;
  }
  if (!match->src->u.match.partial && !work.gave_up) {
    IrTPattern *wild = NULL;
    IrTPattern **w = useful(&work, &rows, &wild, 1);
    if (w && !work.gave_up) missing_case(c, match, w);
  }
  if (work.gave_up) {
    IrDiag *d = ir_diag_add(c->diags, IR_DIAG_WARNING, match->src->span,
                            "this match is too large to check for unreachable clauses and missing cases");
    ir_diag_note(d, "its %d clauses would take more than %d steps of the check; they run as written",
                 match->u.match.nclauses, WORK_BUDGET);
  }
}

/* The warning for a missing case, with the witness w as its example. */
/* An example as a pattern of the AST, to print: a clause's own pattern where it has one. */
static const IrPattern *written(const IrTPattern *p) {
  if (!p) return ir_pattern_new(IR_PAT_WILD, (IrSpan){0});
  if (p->src) return p->src;
  IrPattern *w = ir_pattern_new(p->kind, (IrSpan){0});
  if (p->kind == IR_PAT_CTOR) w->name = p->ctor->src->name;
  if (p->kind == IR_PAT_CTOR || p->kind == IR_PAT_TUPLE) {
    w->n = p->n;
    w->args = IR_NEW_ARRAY(IrPattern *, p->n > 0 ? p->n : 1);
    for (int i = 0; i < p->n; i++) w->args[i] = (IrPattern *)written(p->args[i]);
  }
  return w;
}

static void missing_case(TyCheck *c, const IrTExpr *match, IrTPattern **w) {
  IrBuf b;
  ir_buf_init(&b);
  ir_print_pattern(&b, written(w[0]));
  IrDiag *d = ir_diag_add(c->diags, IR_DIAG_WARNING, match->src->span,
                          "this match does not cover every value: for example %s is not matched", b.data);
  ir_diag_note(d, "hint: add a clause for it, or write `match?` if leaving it out is deliberate");
}
