/* Completion (complete.h): the session's names that start with a prefix. */
#include "repl/complete.h"

#include <string.h>

#include "repl/commands.h"

/* The candidates so far: those that start with the word, each once (a map of the names seen, so
 * that a data type of 100,000 constructors completes at once). */
typedef struct {
  IR_VEC(ReplCandidate) found;
  IrSymMap seen;
  const char *prefix;
  size_t len;
} Candidates;

static void offer(Candidates *c, ReplCandidate cand) {
  if (strncmp(cand.name, c->prefix, c->len) != 0) return;
  Sym key = ir_sym(cand.name);
  if (ir_symmap_get(&c->seen, key)) return;
  ir_symmap_put(&c->seen, key, (void *)cand.name);
  IR_VEC_PUSH(c->found, cand);
}

/* The session's items newest first, so that each name offers its newest definition. */
int repl_complete(const Session *s, const char *prefix, ReplCandidate **out) {
  Candidates c = {.prefix = prefix, .len = strlen(prefix)};
  if (prefix[0] == ':') {
    for (int i = 0; repl_command_names(i); i++)
      offer(&c, (ReplCandidate){.name = repl_command_names(i), .kind = REPL_CAND_COMMAND, .index = i});
  } else if (prefix[0] == '@') {
    for (int i = s->items.len - 1; i >= 0; i--) {
      const IrItem *it = s->items.items[i];
      if (it->kind == IR_ITEM_DEF)
        offer(&c, (ReplCandidate){.name = ir_printf("@%s", it->name->name), .kind = REPL_CAND_GLOBAL, .item = it});
    }
  } else if (prefix[0] == '%') {
    const IrTDef *const *bindings;
    int n = ty_bindings(s->module, &bindings);
    for (int i = 0; i < n; i++)
      offer(&c, (ReplCandidate){.name = ir_printf("%%%s", bindings[i]->name->name), .kind = REPL_CAND_BINDING,
                                .binding = bindings[i]});
  } else {
    for (int i = s->items.len - 1; i >= 0; i--) {
      const IrItem *it = s->items.items[i];
      if (it->kind != IR_ITEM_DATA) continue;
      offer(&c, (ReplCandidate){.name = it->name->name, .kind = REPL_CAND_DATA, .item = it});
      for (int k = 0; k < it->data.nctors; k++)
        offer(&c, (ReplCandidate){.name = it->data.ctors[k].name->name, .kind = REPL_CAND_CONSTRUCTOR, .item = it,
                                  .ctor = &it->data.ctors[k]});
    }
    for (int i = 0; i < IR_OP_COUNT; i++)
      offer(&c, (ReplCandidate){.name = ir_ops[i].name, .kind = REPL_CAND_OPERATOR, .index = i});
  }
  *out = c.found.items;
  return c.found.len;
}

const char *repl_candidate_detail(const Session *s, const ReplCandidate *c) {
  switch (c->kind) {
  case REPL_CAND_COMMAND: return repl_command_help(c->index);
  case REPL_CAND_GLOBAL: return ir_type_str(ty_global_type(s->module, c->item->name));
  case REPL_CAND_BINDING: return ir_type_str(c->binding->scheme);
  case REPL_CAND_CONSTRUCTOR: return ir_type_str(ty_ctor_scheme(s->module, c->ctor));
  case REPL_CAND_OPERATOR: return ir_type_str(ty_operator_scheme(s->module, c->index));
  case REPL_CAND_DATA: {
    IrBuf b;
    ir_buf_init(&b);
    ir_print_data_head(&b, &c->item->data);
    return b.data;
  }
  }
  UNREACHABLE("a candidate of no kind");
  return "";
}

const char *repl_candidate_kind_name(ReplCandKind kind) {
  static const char *const names[] = {"command", "global", "binding", "data", "constructor", "operator"};
  return names[kind];
}
