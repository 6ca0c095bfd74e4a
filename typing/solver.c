/* The relation solver: a FIFO of relations and, for every hole, the list of relations that mention
 * it (the seed's trigger lists, which unify.c merges on union and hands down into the holes a
 * bound type contains). A relation runs when it is added and again only when a hole it mentions
 * is bound, or merged with another hole it mentions; it reports solved, progress, not yet, or
 * failed. */
#include "typing/ty.h"

#include <string.h>

void ty_requeue(TyCtx *cx, uint32_t idx) {
  TyRelation *rel = cx->rels.items[idx];
  if (rel->solved || rel->queued || rel->owned) return;
  rel->queued = true;
  IR_VEC_PUSH(cx->queue, idx);
}

TyRelation *ty_relation_add(TyCtx *cx, TyRelFn fn, const char *name, int nargs, IrType **args, IrSpan span) {
  TyRelation *rel = IR_NEW(TyRelation);
  rel->fn = fn;
  rel->name = name;
  rel->nargs = nargs;
  rel->args = args;
  rel->span = span;
  rel->attrs = &ir_op_attrs_none;
  uint32_t idx = (uint32_t)cx->rels.len;
  IR_VEC_PUSH(cx->rels, rel);
  TyIdList holes = {0};
  for (int i = 0; i < nargs; i++) ty_holes_of(cx, args[i], &holes);
  for (int i = 0; i < holes.len; i++) {
    TyIdList *list = &cx->vars.items[holes.items[i]].rels;
    if (list->len == 0 || list->items[list->len - 1] != idx) IR_VEC_PUSH(*list, idx);
  }
  ty_requeue(cx, idx);
  return rel;
}

void ty_wake(TyCtx *cx, uint32_t id) {
  TyIdList *list = &cx->vars.items[id].rels;
  int keep = 0;
  for (int i = 0; i < list->len; i++) {
    uint32_t idx = list->items[i];
    TyRelation *rel = cx->rels.items[idx];
    if (rel->solved) continue; /* drop it from the list while passing */
    list->items[keep++] = idx;
    ty_requeue(cx, idx);
  }
  list->len = keep;
}

/* Reports a failed relation: the first line of the message is the error, later lines notes. */
static void report(TyCtx *cx, TyRelation *rel, const char *message) {
  const char *nl = strchr(message, '\n');
  IrDiag *d = ir_diag_add(cx->diags, IR_DIAG_TYPE, rel->span, "%.*s", nl ? (int)(nl - message) : (int)strlen(message),
                          message);
  while (nl) {
    const char *line = nl + 1;
    nl = strchr(line, '\n');
    ir_diag_note(d, "%.*s", nl ? (int)(nl - line) : (int)strlen(line), line);
  }
}

bool ty_solve(TyCtx *cx) {
  while (cx->queue_head < cx->queue.len) {
    uint32_t idx = cx->queue.items[cx->queue_head++];
    TyRelation *rel = cx->rels.items[idx];
    rel->queued = false;
    if (rel->solved || rel->owned) continue;
    rel->runs++;
    cx->rel_runs++;
    const char *message = NULL;
    memset(&cx->message_names, 0, sizeof cx->message_names);
    switch (rel->fn(cx, rel, &message)) {
    case TY_SOLVED: rel->solved = true; break;
    case TY_PROGRESS:
    case TY_NOT_YET: break; /* it runs again when a hole it mentions changes */
    case TY_FAILED:
      rel->solved = true;
      report(cx, rel, message ? message : ir_printf("the relation %s does not hold", rel->name));
      cx->queue.len = cx->queue_head = 0;
      return false;
    }
  }
  cx->queue.len = cx->queue_head = 0;
  return true;
}
