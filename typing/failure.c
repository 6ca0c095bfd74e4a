/* Recording a failed type relation for :explain (TyFailure, failure.h): its arguments resolved and
 * copied, their holes numbered, so that the record outlives the checking context. The solver and
 * the checker's errors record; only explain.c reads the records. */
#include "typing/check.h"
#include "typing/failure.h"


/* Past this many parts the arguments are not kept (a type doubled at each step is huge written
 * out): :explain then says that they are too large. */
enum { RECORD_PARTS = 100000 };

typedef struct {
  TyCtx *cx;
  IrPtrMap ids; /* root id + 1 -> its numbered hole */
  IR_VEC(uint8_t) lits;
  long left;
} Recorder;

static IrType *record_type(Recorder *r, IrType *t);

static void record_child(IrType **slot, void *r) { *slot = record_type(r, *slot); }

static IrType *record_type(Recorder *r, IrType *t) {
  t = ty_prune(r->cx, t);
  if (r->left-- <= 0) return t;
  if (t->kind == IR_TYPE_HOLE) {
    uint32_t root = ty_find(r->cx, t->u.hole.id);
    const void *key = (const void *)(uintptr_t)(root + 1);
    IrType *h = ir_ptrmap_get(&r->ids, key);
    if (!h) {
      h = ir_type_new(IR_TYPE_HOLE, (IrSpan){0});
      h->u.hole.id = (uint32_t)r->lits.len;
      h->u.hole.kind = r->cx->vars.items[root].kind;
      IR_VEC_PUSH(r->lits, r->cx->vars.items[root].lit);
      ir_ptrmap_put(&r->ids, key, h);
    }
    return h;
  }
  IrType *out = ty_copy_node(t);
  ty_each_child(out, record_child, r);
  return out;
}

static TyFailure *record(TyCtx *cx, const TyRelation *rel, const char *message, int argument, IrType *found) {
  int id = rel->id;
  if (id < 0) return NULL; /* one of the checker's own (DimEq), which :explain does not run */
  TyFailure *f = IR_NEW(TyFailure);
  f->rel = (TyRelId)id;
  f->op = rel->op;
  f->global = rel->global;
  f->attrs = rel->attrs;
  f->nattrs = rel->nattrs;
  f->written = rel->written;
  f->message = message;
  f->argument = argument;
  f->nargs = rel->nargs;
  Recorder r = {cx, {0}, {0}, RECORD_PARTS};
  f->args = IR_NEW_ARRAY(IrType *, rel->nargs > 0 ? rel->nargs : 1);
  for (int i = 0; i < rel->nargs; i++) {
    if (argument >= 0 && i == rel->nargs - 1) { /* the call's result: still to be found */
      IrType *h = f->args[i] = ir_type_new(IR_TYPE_HOLE, (IrSpan){0});
      h->u.hole.id = (uint32_t)r.lits.len;
      h->u.hole.kind = IR_KIND_TYPE;
      IR_VEC_PUSH(r.lits, TY_LIT_NONE);
    } else {
      f->args[i] = record_type(&r, i == argument ? found : rel->args[i]);
    }
  }
  if (r.left < 0) f->args = NULL; /* too large: cut short */
  f->nholes = r.lits.len;
  f->lits = r.lits.items;
  return f;
}

const TyFailure *ty_failure_record(TyCtx *cx, const TyRelation *rel, const char *message) {
  return record(cx, rel, message, -1, NULL);
}

const TyFailure *ty_failure_of_argument(TyCtx *cx, const TyRelation *rel, int i, IrType *found) {
  if (i < 0 || i + 1 >= rel->nargs) return NULL;
  return record(cx, rel, NULL, i, found);
}
