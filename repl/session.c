/* The session: parsing and checking chunks against the module, transactionally. */
#include "repl/session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void session_init(Session *s) {
  memset(s, 0, sizeof *s);
  s->module = ty_module_new();
  s->parse.ctor_arity = ty_ctor_arity;
  s->parse.ctx = s->module;
}

static IrProgram *load_source(Session *s, const IrSource *src, bool quiet_if_incomplete, bool *incomplete,
                              bool definitions_only) {
  IrDiags diags = {0};
  IrParseResult r = ir_parse_program(src, &s->parse, &diags);
  if (incomplete) *incomplete = r.incomplete;
  bool ok = r.program && (definitions_only ? ty_check_definitions(s->module, r.program, &diags)
                                           : ty_check_program(s->module, r.program, &diags));
  if (ok || !(quiet_if_incomplete && r.incomplete)) ir_diags_print(stderr, &diags);
  return ok ? r.program : NULL;
}

IrProgram *session_load_file(Session *s, const char *path, bool definitions_only) {
  IrSource *src = ir_source_read_file(path);
  if (!src) {
    fprintf(stderr, "relay: cannot read %s: %s\n", path, strerror(errno));
    return NULL;
  }
  return load_source(s, src, false, NULL, definitions_only);
}

IrProgram *session_load_chunk(Session *s, const char *name, const char *text, bool quiet_if_incomplete,
                              bool *incomplete) {
  return load_source(s, ir_source_new(name, text, strlen(text)), quiet_if_incomplete, incomplete, false);
}

IrType *session_check_expression(Session *s, const char *text, IrExpr **expr) {
  IrDiags diags = {0};
  IrSource *src = ir_source_new("<command line>", text, strlen(text));
  IrParseResult r = ir_parse_expression(src, &s->parse, &diags);
  IrType *t = r.expr ? ty_check_expression(s->module, r.expr, &diags) : NULL;
  ir_diags_print(stderr, &diags);
  if (expr) *expr = r.expr;
  return t;
}

bool session_describe(const Session *s, const IrItem *item, IrBuf *out) {
  if (item->kind == IR_ITEM_DEF) {
    ir_buf_printf(out, "@%s : ", item->name->name);
    ir_print_type(out, ty_global_type(s->module, item->name));
  } else if (item->kind == IR_ITEM_EXPR) {
    ir_buf_puts(out, "- : ");
    ir_print_type(out, item->expr->type);
  } else {
    return false;
  }
  return true;
}
