/* The session: parsing chunks against what earlier chunks defined, transactionally. */
#include "repl/session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int ctor_arity(void *ctx, Sym name) {
  Session *s = ctx;
  for (int i = s->ctors.len - 1; i >= 0; i--) /* the latest definition shadows */
    if (s->ctors.items[i].name == name) return s->ctors.items[i].nargs;
  return -1;
}

void session_init(Session *s) {
  memset(s, 0, sizeof *s);
  s->parse.ctor_arity = ctor_arity;
  s->parse.ctx = s;
}

static void commit(Session *s, const IrProgram *prog) {
  for (int i = 0; i < prog->nitems; i++)
    if (prog->items[i].kind == IR_ITEM_DATA)
      for (int c = 0; c < prog->items[i].data.nctors; c++) IR_VEC_PUSH(s->ctors, prog->items[i].data.ctors[c]);
}

static IrProgram *parse_source(Session *s, const IrSource *src, bool quiet_if_incomplete, bool *incomplete) {
  IrDiags diags = {0};
  IrParseResult r = ir_parse_program(src, &s->parse, &diags);
  if (incomplete) *incomplete = r.incomplete;
  if (!r.program) {
    if (!(quiet_if_incomplete && r.incomplete)) ir_diags_print(stderr, &diags);
    return NULL;
  }
  ir_diags_print(stderr, &diags); /* warnings */
  commit(s, r.program);
  return r.program;
}

IrProgram *session_load_file(Session *s, const char *path) {
  IrSource *src = ir_source_read_file(path);
  if (!src) {
    fprintf(stderr, "relay: cannot read %s: %s\n", path, strerror(errno));
    return NULL;
  }
  return parse_source(s, src, false, NULL);
}

IrProgram *session_parse_chunk(Session *s, const char *name, const char *text, bool quiet_if_incomplete,
                               bool *incomplete) {
  return parse_source(s, ir_source_new(name, text, strlen(text)), quiet_if_incomplete, incomplete);
}

IrExpr *session_parse_expression(Session *s, const char *text) {
  IrDiags diags = {0};
  IrSource *src = ir_source_new("<command line>", text, strlen(text));
  IrParseResult r = ir_parse_expression(src, &s->parse, &diags);
  ir_diags_print(stderr, &diags);
  return r.expr;
}
