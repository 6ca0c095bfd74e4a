/* A checking unit's errors: a type error reported with its notes (and, for an operator's argument,
 * the failed relation recorded for :explain), a mismatch written out as expected/found, a type too
 * large, and the unit given up (ty_skip) when it uses a name whose checking failed. Every error
 * ends the unit by longjmp to its landing place (module.c). */
#include "typing/check.h"

#include <stdarg.h>
#include <string.h>

static _Noreturn void fail_with(TyCheck *c, IrSpan span, int nnotes, const char *const *notes, const char *msg) {
  IrDiag *d = ir_diag_add(c->diags, IR_DIAG_TYPE, span, "%s", msg);
  for (int i = 0; i < nnotes; i++)
    if (notes[i]) ir_diag_note(d, "%s", notes[i]);
  if (c->arg_rel) d->detail = ty_failure_of_argument(&c->cx, c->arg_rel, c->arg_index, c->arg_type); /* :explain */
  if (c->holes.len) /* what they must be is not known while there is an error */
    ir_diag_note(d, "note: the hole%s checked before this error %s described once it is fixed",
                 c->holes.len == 1 ? "" : "s", c->holes.len == 1 ? "is" : "are");
  longjmp(*c->fail, 1);
}

_Noreturn void ty_fail(TyCheck *c, IrSpan span, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = ir_vprintf(fmt, ap);
  va_end(ap);
  fail_with(c, span, 0, NULL, msg);
}

_Noreturn void ty_fail_notes(TyCheck *c, IrSpan span, int nnotes, const char *const *notes, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = ir_vprintf(fmt, ap);
  va_end(ap);
  fail_with(c, span, nnotes, notes, msg);
}

const char *ty_show(TyCheck *c, IrType *t) {
  IrSymMap names = {0};
  return ir_type_str(ty_for_message(&c->cx, t, &names));
}

static const char too_large_note[] =
    "types share their parts, so a value built from itself at each step (`let %x1 = (%x0, %x0); let %x2 = "
    "(%x1, %x1)`, or a function applied to its own result) doubles its type in a few bytes; written out, "
    "this one would be larger than relay checks";

static _Noreturn void too_large(TyCheck *c, IrSpan span, const char *what) {
  ty_fail_notes(c, span, TY_NOTES(too_large_note), "the type of %s is too large: it has more than %d parts", what,
                TY_MAX_TYPE_PARTS);
}

void ty_check_size(TyCheck *c, IrSpan span, IrType *t, bool exact, const char *what_fmt, ...) {
  if (!ty_larger_than(&c->cx, t, TY_MAX_TYPE_PARTS, exact)) return;
  va_list ap;
  va_start(ap, what_fmt);
  const char *what = ir_vprintf(what_fmt, ap);
  va_end(ap);
  too_large(c, span, what);
}

/* The base type of t (a tensor type's, or t itself) when a literal outside `span` decided it (a
 * definition's `%x + 1.5f`, met at its call), or NULL. */
static IrType *decided_by_literal(TyCheck *c, IrType *t, IrSpan span) {
  t = ty_prune(&c->cx, t);
  if (t->kind == IR_TYPE_TENSOR) t = ty_prune(&c->cx, t->u.tensor.dtype);
  if (t->kind != IR_TYPE_DTYPE || t->origin == IR_DTYPE_WRITTEN || !t->span.src || t->span.len > 40) return NULL;
  bool inside = t->span.src == span.src && t->span.off >= span.off && t->span.off + t->span.len <= span.off + span.len;
  return inside ? NULL : t;
}

void ty_expect(TyCheck *c, IrSpan span, IrType *expected, IrType *found, const char *what_fmt, ...) {
  TyMismatch why = TY_MISMATCH_INIT;
  if (ty_unify(&c->cx, expected, found, &why)) return;
  va_list ap;
  va_start(ap, what_fmt);
  const char *what = ir_vprintf(what_fmt, ap);
  va_end(ap);
  if (why.reason == ty_too_large) too_large(c, span, what);
  IrSymMap names = {0}; /* one naming for every type of this message */
#define SHOW(t) ir_type_str(ty_for_message(&c->cx, (t), &names))
  const char *e = SHOW(expected), *f = SHOW(found);
  const char *inner = NULL;
  if (why.expected && why.found) {
    const char *ie = SHOW(why.expected), *jf = SHOW(why.found);
    if (why.dim >= 0)
      inner = ir_printf("dimension %d differs: %s against %s", why.dim,
                        SHOW(ty_prune(&c->cx, why.expected)->u.shape.dims[why.dim]),
                        SHOW(ty_prune(&c->cx, why.found)->u.shape.dims[why.dim]));
    else if (strcmp(ie, e) != 0 || strcmp(jf, f) != 0)
      inner = ir_printf("they differ in %s against %s%s%s", ie, jf, why.reason ? ": " : "", why.reason ? why.reason : "");
    else if (why.reason)
      inner = ir_printf("(%s)", why.reason);
  }
#undef SHOW
  IrType *literal = decided_by_literal(c, why.expected ? why.expected : expected, span);
  const char *by = NULL, *hint = c->expect_hint;
  if (literal) {
    char name[24];
    const IrSpan *s = &literal->span;
    const char *dt = ir_dtype_name(literal->u.dtype, name);
    const char *text = ir_printf("%.*s", (int)s->len, s->src->text + s->off);
    const char *place = s->src == span.src ? ir_printf("%s:%u:%u", s->src->name, s->line, s->col) : ir_span_place(*s);
    by = ir_printf("%s because of the literal `%s` at %s%s", dt, text, place,
                   literal->origin == IR_DTYPE_BY_DEFAULT ? ir_printf(", which is %s by default", dt) : "");
    if (!hint)
      hint = ir_printf("hint: `cast_like(%s, %%t)` gives a literal the dtype of a tensor `%%t`, for a function of "
                       "every dtype", text);
  }
  ty_fail_notes(c, span, TY_NOTES(ir_printf("expected: %s", e), ir_printf("found:    %s", f), inner, by, hint),
                "%s has the wrong type", what);
}

void ty_solve_or_fail(TyCheck *c) {
  if (!ty_solve(&c->cx)) longjmp(*c->fail, 1);
}

_Noreturn void ty_skip(TyCheck *c) {
  c->skipped = true;
  longjmp(*c->fail, 1);
}

/* ---------------------------------------------------------------- names of the chunk and the module */

const IrData *ty_find_adt(TyCheck *c, Sym name) {
  if (ir_symmap_get(&c->failed_adts, name)) ty_skip(c);
  const IrData *d = ir_symmap_get(&c->chunk_adts, name);
  return d ? d : ir_symmap_get(&c->m->adts, name);
}

const IrTCtor *ty_find_ctor(TyCheck *c, Sym name) {
  if (ir_symmap_get(&c->failed_ctors, name)) ty_skip(c);
  const IrTCtor *k = ir_symmap_get(&c->chunk_ctors, name);
  if (!k) k = ir_symmap_get(&c->m->ctors, name);
  if (!k && c->broken_data) ty_skip(c);
  return k;
}

void ty_note_seen(TyCheck *c, const void *node, IrType *t) {
  if (!c->seen) return;
  ir_ptrmap_put(c->seen, node, t);
  IR_VEC_PUSH(c->seen_group, node);
}
