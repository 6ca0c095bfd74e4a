/* The relation solver: a FIFO of relations and, for every hole, the list of relations that mention
 * it (the seed's trigger lists, which unify.c merges on union and hands down into the holes a
 * bound type contains). A relation runs when it is added and again only when a hole it mentions
 * is bound, or merged with another hole it mentions; it reports solved, progress, not yet, or
 * failed. */
#include "typing/oprel.h"

#include <string.h>

void ty_requeue(TyCtx *cx, uint32_t idx) {
  TyRelation *rel = cx->rels.items[idx];
  if (rel->solved || rel->queued || rel->owned) return;
  rel->queued = true;
  IR_VEC_PUSH(cx->queue, idx);
}

TyRelation *ty_relation_add_registered(TyCtx *cx, TyRelId id, int nargs, IrType **args, IrSpan span) {
  TyRelation *rel = ty_relation_add(cx, ty_relation_fn(id), ty_relation_name(id), nargs, args, span);
  rel->id = (int)id;
  return rel;
}

TyRelation *ty_relation_add(TyCtx *cx, TyRelFn fn, const char *name, int nargs, IrType **args, IrSpan span) {
  TyRelation *rel = IR_NEW(TyRelation);
  rel->fn = fn;
  rel->name = name;
  rel->id = -1;
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

const char *ty_relation_text(TyCtx *cx, const TyRelation *rel, IrSymMap *names) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_printf(&b, "%s(", rel->name);
  for (int i = 0; i < rel->nargs; i++) ir_buf_printf(&b, "%s%s", i ? ", " : "", ir_type_str(ty_for_message(cx, rel->args[i], names)));
  for (int i = 0; i < rel->nattrs; i++) {
    ir_buf_printf(&b, "%s%s=", rel->nargs || i ? ", " : "", rel->written[i].key->name);
    ir_print_attr_value(&b, &rel->written[i].val);
  }
  ir_buf_putc(&b, ')');
  return b.data;
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
  d->detail = ty_failure_record(cx, rel, message); /* for :explain */
  while (nl) {
    const char *line = nl + 1;
    nl = strchr(line, '\n');
    ir_diag_note(d, "%.*s", nl ? (int)(nl - line) : (int)strlen(line), line);
  }
}

static const char *attrs_text(const TyRelation *rel) {
  IrBuf b;
  ir_buf_init(&b);
  for (int i = 0; i < rel->nattrs; i++) {
    ir_buf_printf(&b, "%s=", rel->written[i].key->name);
    ir_print_attr_value(&b, &rel->written[i].val);
    ir_buf_putc(&b, ' ');
  }
  return b.data;
}

/* Whether rel is the declared relation `given`, its first two arguments swapped if `swap`; then
 * rel's holes are given's. */
typedef enum { NOT_GIVEN, GIVEN, MAYBE_GIVEN } Assumed;

static Assumed assumed_as(TyCtx *cx, const TyRelation *rel, const TyRelation *given, bool swap) {
  bool open = false;
  for (int i = 0; i < rel->nargs; i++) {
    IrType *a = ty_resolve(cx, rel->args[i]);
    int k = swap && i < 2 ? 1 - i : i;
    if (a->kind == IR_TYPE_HOLE) open |= i < rel->nargs - 1;
    else if (!ir_type_equal(ty_resolve(cx, given->args[k]), a)) return NOT_GIVEN;
  }
  if (open) return MAYBE_GIVEN;
  for (int i = 0; i < rel->nargs; i++) ty_unify(cx, rel->args[i], given->args[swap && i < 2 ? 1 - i : i], NULL);
  return GIVEN;
}

/* Whether rel is one of the relations a `where` clause in scope declares, where rel's result (its
 * last argument) may still be a hole: then it holds by assumption (the callers of the function
 * check it), and its result is what the declared relation says. While another argument is a hole
 * that may still make it one (a call's parameter not yet unified with its argument), it is
 * MAYBE_GIVEN: not run, nor bound to the declared one, until that hole is known. Broadcasting is
 * symmetric: a declared Broadcast(a, b, c) gives Broadcast(b, a, c) too (BroadcastComp likewise). */
static Assumed assumed(TyCtx *cx, const TyRelation *rel) {
  bool symmetric = rel->fn == ty_rel_broadcast || rel->fn == ty_rel_broadcast_comp;
  Assumed best = NOT_GIVEN;
  for (int g = 0; g < cx->givens.len; g++) {
    const TyRelation *given = cx->rels.items[cx->givens.items[g]];
    if (given == rel || given->fn != rel->fn || given->nargs != rel->nargs) continue;
    if (strcmp(attrs_text(given), attrs_text(rel))) continue;
    for (int swap = 0; swap <= symmetric; swap++) {
      Assumed a = assumed_as(cx, rel, given, swap);
      if (a == GIVEN) return a;
      if (a == MAYBE_GIVEN) best = a;
    }
  }
  return best;
}

static void find_parameter(IrType **slot, void *found) {
  if (*(bool *)found) return;
  if ((*slot)->kind == IR_TYPE_VAR) *(bool *)found = true;
  else ty_each_child(*slot, find_parameter, found);
}

/* Whether one of the relation's arguments is a rigid type parameter (`t1`) or, when deep, holds
 * one (the shape `s` of `Tensor[s, float32]`): such a relation may hold by assumption. */
static bool about_parameters(TyCtx *cx, const TyRelation *rel, bool deep) {
  bool found = false;
  for (int i = 0; i < rel->nargs && !found; i++) {
    IrType *a = deep ? ty_resolve(cx, rel->args[i]) : ty_prune(cx, rel->args[i]);
    if (deep) find_parameter(&a, &found);
    else found = a->kind == IR_TYPE_VAR;
  }
  return found;
}

/* The note for a relation over rigid parameters that fails where a `where` clause is in scope:
 * the body needs it (`%x + %x` under `where Broadcast(a, b, c)`), the clause gives others. */
static const char *needed_not_given(TyCtx *cx, const TyRelation *rel) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_printf(&b, "the body needs %s; the where clause gives ", ty_relation_text(cx, rel, &cx->message_names));
  for (int g = 0; g < cx->givens.len; g++)
    ir_buf_printf(&b, "%s%s", g ? ", " : "", ty_relation_text(cx, cx->rels.items[cx->givens.items[g]], &cx->message_names));
  return b.data;
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
    if (!rel->given && cx->givens.len && about_parameters(cx, rel, true)) {
      Assumed a = assumed(cx, rel);
      if (a == MAYBE_GIVEN) continue; /* it runs again when a hole it mentions changes */
      if (a == GIVEN) {
        rel->solved = rel->assumed = true;
        continue;
      }
    }
    cx->dim_overflow = NULL;
    TyRelResult result = rel->fn(cx, rel, &message);
    if (cx->dim_overflow) { /* whatever it answered, it computed with a wrapped or `?` dimension */
      IrType *big = cx->dim_overflow;
      cx->dim_overflow = NULL;
      result = TY_FAILED;
      message = ir_printf("%s: dimension too large: %s overflows int64", ty_rel_who(rel), ty_rel_text(cx, big));
    }
    if (result == TY_FAILED && rel->given && about_parameters(cx, rel, false)) result = TY_NOT_YET; /* an assumption */
    if (result == TY_FAILED && !rel->given && cx->givens.len && about_parameters(cx, rel, false))
      message = ir_printf("%s\n%s", message ? message : ir_printf("the relation %s does not hold", rel->name),
                          needed_not_given(cx, rel));
    switch (result) {
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
