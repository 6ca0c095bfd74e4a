/* The printer's promise, checked on every .rly file we have (golden tests, the Prelude, the
 * conformance suite, benchmarks): print(parse(f)) parses to the same AST, and printing is
 * idempotent. A file that does not parse must be one that expects a parse error. A file that
 * type-checks (with the Prelude) also prints with its types (the REPL's :annot) to text that
 * parses to the same AST. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "prelude/prelude.h"
#include "typing/typing.h"
#include "tests/unit/tap.h"
#include "tests/unit/support.h"

static bool expects_parse_error(const IrSource *src) {
  return strstr(src->text, "expect-error:") && strstr(src->text, "parse error");
}

/* The module files are checked against: the Prelude, then each file that checks, in turn. */
static TyModule *module;

/* Checking leaves the AST as the parser made it (the checker's findings are the typed program):
 * the checked program equals a fresh parse of its text. */
static void check_untouched(const char *path, const IrSource *src, const IrProgram *checked, IrParseOptions *opts) {
  IrDiags d = {0};
  IrBuf why;
  ir_buf_init(&why);
  IrParseResult fresh = ir_parse_program(src, opts, &d);
  bool ok = fresh.program && ir_program_equal(checked, fresh.program, &why);
  if (!tap_ok(ok, "%s: checking leaves its AST as parsed", path)) tap_diag("%s", why.data);
}

/* A file that does not check (an error test, or one with holes): each top-level expression as
 * :annot shows it — with the types found before its error and the failing node marked, or with its
 * holes' types — prints to text that parses to the same expression. */
static void check_explored(const char *path, const IrProgram *prog, IrParseOptions *opts) {
  for (int i = 0; i < prog->nitems; i++) {
    const IrItem *it = &prog->items[i];
    if (it->kind != IR_ITEM_EXPR) continue;
    IrDiags d = {0};
    TyExplored x;
    ty_explore_expression(module, it->expr, &x, &d);
    IrBuf text;
    ir_buf_init(&text);
    const void *mark = NULL;
    for (const IrDiag *e = d.first; e && !mark; e = e->next)
      if (e->kind == IR_DIAG_TYPE) mark = ir_expr_node_at(it->expr, e->span, NULL);
    if (x.fn) ir_print_expr_typed(&text, x.fn, x.type);
    else ir_print_expr_partial(&text, it->expr, &x.partial, mark);
    IrDiags d2 = {0};
    IrParseResult again = ir_parse_expression(ir_source_new("<printed>", text.data, text.len), opts, &d2);
    bool ok = again.expr && ir_expr_equal(it->expr, again.expr);
    if (!tap_ok(ok, "%s: item %d as :annot shows it (%s) parses back", path, i + 1,
                x.fn ? (x.nholes ? "with holes" : "checked") : "up to its error"))
      tap_diag("printed:\n%s", text.data);
  }
}

static void check_typed(const char *path, const IrSource *src) {
  IrDiags d = {0};
  IrParseOptions opts = {.ctor_arity = ty_ctor_arity, .ctx = module};
  IrParseResult r = ir_parse_program(src, &opts, &d);
  IrTProgram *tp = r.program ? ty_check_program(module, r.program, &d) : NULL;
  if (!tp) { /* an error test */
    if (r.program) check_explored(path, r.program, &opts);
    return;
  }
  check_untouched(path, src, r.program, &opts);
  ty_commit(module, tp);
  IrBuf text, why;
  ir_buf_init(&text);
  ir_buf_init(&why);
  for (int i = 0; i < tp->nitems; i++) {
    const IrTItem *it = &tp->items[i];
    if (it->def) ir_print_def_typed(&text, it->def);
    else if (it->expr) ir_print_expr_typed(&text, it->expr, it->type);
    else ir_print_item(&text, it->src);
    ir_buf_putc(&text, '\n');
  }
  IrParseResult again = ir_parse_program(ir_source_new("<printed>", text.data, text.len), &opts, &d);
  if (again.program) again.program->version = r.program->version;
  bool ok = again.program && ir_program_equal(r.program, again.program, &why);
  if (!tap_ok(ok, "%s: prints with its types to the same program", path))
    tap_diag("%s\nprinted:\n%s", why.data, text.data);
}

static void check_file(const char *path) {
  IrSource *src = ir_source_read_file(path);
  if (!src) {
    tap_ok(false, "%s: cannot read", path);
    return;
  }
  IrDiags d1 = {0};
  IrParseResult r1 = ir_parse_program(src, NULL, &d1);
  if (!r1.program) {
    if (expects_parse_error(src)) {
      tap_ok(true, "%s: rejected, as it expects", path);
    } else {
      IrBuf b;
      ir_buf_init(&b);
      ir_diag_render(&b, d1.first, 0);
      tap_ok(false, "%s: does not parse", path);
      tap_diag("%s", b.data);
    }
    return;
  }
  IrBuf why;
  ir_buf_init(&why);
  if (tap_ok(round_trips(r1.program, &why), "%s: round-trips", path)) check_typed(path, src);
  else tap_diag("%s", why.data);
}

static void run(void *p) {
  TestArgs *a = p;
  PathList files = walk_rly_files(a->argc - 1, a->argv + 1);
  module = ty_module_new();
  IrDiags d = {0};
  IrSource *prelude = ir_source_new(RELAY_PRELUDE_NAME, relay_prelude_text, relay_prelude_length);
  IrParseOptions opts = {.ctor_arity = ty_ctor_arity, .ctx = module};
  IrParseResult r = ir_parse_program(prelude, &opts, &d);
  IrTProgram *tp = r.program ? ty_check_program(module, r.program, &d) : NULL;
  tap_ok(tp != NULL, "the Prelude checks");
  if (tp) ty_commit(module, tp);
  for (int i = 0; i < files.len; i++) check_file(files.items[i]);
  if (files.len == 0) tap_ok(false, "no .rly files found under the given paths");
  a->status = tap_done();
}

int main(int argc, char **argv) { return run_on_large_stack(run, argc, argv); }
