/* Exhaustiveness and redundancy of `match`, by the usefulness of a pattern vector against a
 * matrix of earlier ones (Maranget, "Warnings for pattern matching"): a clause no earlier clauses
 * leave room for is unreachable, and a wildcard still useful after all clauses is a missing case,
 * of which the check builds an example such as `Cons(_, Nil())`. */
#include "typing/check.h"

#include <string.h>

typedef IR_VEC(IrPattern **) Matrix; /* rows of patterns; NULL stands for a wildcard */

static bool is_wild(const IrPattern *p) { return !p || p->kind == IR_PAT_WILD || p->kind == IR_PAT_VAR; }

static IrPattern *wildcard(void) { return ir_pattern_new(IR_PAT_WILD, (IrSpan){0}); }

/* The rows that match constructor k (or a tuple of arity `arity` when k is NULL), with the
 * first column replaced by the fields. */
static Matrix specialize(const Matrix *m, int cols, const IrCtor *k, int arity) {
  Matrix out = {0};
  for (int r = 0; r < m->len; r++) {
    IrPattern *p = m->items[r][0];
    if (!is_wild(p) && (k ? p->ctor != k : p->kind != IR_PAT_TUPLE)) continue;
    IrPattern **row = IR_NEW_ARRAY(IrPattern *, arity + cols);
    for (int i = 0; i < arity; i++) row[i] = is_wild(p) ? NULL : p->args[i];
    ir_copy(row + arity, m->items[r] + 1, sizeof(IrPattern *) * (size_t)(cols - 1));
    IR_VEC_PUSH(out, row);
  }
  return out;
}

/* The rows whose first column is a wildcard, without it. */
static Matrix default_rows(const Matrix *m) {
  Matrix out = {0};
  for (int r = 0; r < m->len; r++)
    if (is_wild(m->items[r][0])) IR_VEC_PUSH(out, m->items[r] + 1);
  return out;
}

static IrPattern **with_head(IrPattern *head, IrPattern **rest, int cols) {
  IrPattern **row = IR_NEW_ARRAY(IrPattern *, cols);
  row[0] = head;
  ir_copy(row + 1, rest, sizeof(IrPattern *) * (size_t)(cols - 1));
  return row;
}

/* `k(w0, ..., wa-1)` followed by the rest of the witness. */
static IrPattern **rebuild(const IrCtor *k, int arity, IrPattern **w, int cols) {
  IrPattern *p = ir_pattern_new(k ? IR_PAT_CTOR : IR_PAT_TUPLE, (IrSpan){0});
  if (k) p->name = k->name, p->ctor = k;
  p->n = arity;
  p->args = IR_NEW_ARRAY(IrPattern *, arity);
  for (int i = 0; i < arity; i++) p->args[i] = w[i] ? w[i] : wildcard();
  return with_head(p, w + arity, cols);
}

/* A witness that q matches a value no row of m matches, or NULL. */
static IrPattern **useful(const Matrix *m, IrPattern **q, int cols) {
  if (cols == 0) return m->len == 0 ? IR_NEW_ARRAY(IrPattern *, 1) : NULL;
  IrPattern *head = q[0];
  if (!is_wild(head)) {
    const IrCtor *k = head->kind == IR_PAT_CTOR ? head->ctor : NULL;
    int arity = head->n;
    Matrix s = specialize(m, cols, k, arity);
    IrPattern **qs = IR_NEW_ARRAY(IrPattern *, arity + cols);
    ir_copy(qs, head->args, sizeof(IrPattern *) * (size_t)arity);
    ir_copy(qs + arity, q + 1, sizeof(IrPattern *) * (size_t)(cols - 1));
    IrPattern **w = useful(&s, qs, arity + cols - 1);
    return w ? rebuild(k, arity, w, cols) : NULL;
  }
  /* A wildcard: what do the rows' first patterns say about the column's type? */
  const IrPattern *shape = NULL;
  for (int r = 0; r < m->len && !shape; r++)
    if (!is_wild(m->items[r][0])) shape = m->items[r][0];
  if (shape && shape->kind == IR_PAT_TUPLE) { /* one constructor: always complete */
    int arity = shape->n;
    Matrix s = specialize(m, cols, NULL, arity);
    IrPattern **qs = IR_NEW_ARRAY(IrPattern *, arity + cols);
    ir_copy(qs + arity, q + 1, sizeof(IrPattern *) * (size_t)(cols - 1));
    IrPattern **w = useful(&s, qs, arity + cols - 1);
    return w ? rebuild(NULL, arity, w, cols) : NULL;
  }
  const IrData *adt = shape && shape->ctor ? shape->ctor->adt : NULL;
  if (adt) {
    bool complete = true;
    const IrCtor *missing = NULL;
    for (int i = 0; i < adt->nctors; i++) {
      bool seen = false;
      for (int r = 0; r < m->len && !seen; r++) seen = !is_wild(m->items[r][0]) && m->items[r][0]->ctor == &adt->ctors[i];
      if (!seen && !missing) missing = &adt->ctors[i];
      complete &= seen;
    }
    if (complete) {
      for (int i = 0; i < adt->nctors; i++) {
        const IrCtor *k = &adt->ctors[i];
        Matrix s = specialize(m, cols, k, k->nargs);
        IrPattern **qs = IR_NEW_ARRAY(IrPattern *, k->nargs + cols);
        ir_copy(qs + k->nargs, q + 1, sizeof(IrPattern *) * (size_t)(cols - 1));
        IrPattern **w = useful(&s, qs, k->nargs + cols - 1);
        if (w) return rebuild(k, k->nargs, w, cols);
      }
      return NULL;
    }
    Matrix d = default_rows(m);
    IrPattern **w = useful(&d, q + 1, cols - 1);
    if (!w) return NULL;
    IrPattern **args = IR_NEW_ARRAY(IrPattern *, missing->nargs + cols);
    ir_copy(args + missing->nargs, w, sizeof(IrPattern *) * (size_t)(cols - 1));
    return rebuild(missing, missing->nargs, args, cols);
  }
  Matrix d = default_rows(m);
  IrPattern **w = useful(&d, q + 1, cols - 1);
  return w ? with_head(wildcard(), w, cols) : NULL;
}

void ty_check_exhaustive(TyCheck *c, IrExpr *match, IrType *scrutinee) {
  (void)scrutinee;
  Matrix rows = {0};
  for (int i = 0; i < match->u.match.nclauses; i++) {
    IrPattern *p = match->u.match.clauses[i].pat;
    IrPattern **q = IR_NEW_ARRAY(IrPattern *, 1);
    q[0] = p;
    if (!useful(&rows, q, 1)) {
      IrDiag *d = ir_diag_add(c->diags, IR_DIAG_WARNING, p->span,
                              "this clause is unreachable: the clauses before it match every value it matches");
      ir_diag_note(d, "hint: clauses are tried in order; move it up or remove it");
    }
    IR_VEC_PUSH(rows, q);
  }
  if (match->u.match.partial) return;
  IrPattern *wild = NULL;
  IrPattern **w = useful(&rows, &wild, 1);
  if (!w) return;
  IrBuf b;
  ir_buf_init(&b);
  ir_print_pattern(&b, w[0] ? w[0] : wildcard());
  IrDiag *d = ir_diag_add(c->diags, IR_DIAG_WARNING, match->span,
                          "this match does not cover every value: for example %s is not matched", b.data);
  ir_diag_note(d, "hint: add a clause for it, or write `match?` if leaving it out is deliberate");
}
