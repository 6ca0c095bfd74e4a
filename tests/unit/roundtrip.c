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

static void check_typed(const char *path, const IrSource *src) {
  IrDiags d = {0};
  IrParseOptions opts = {.ctor_arity = ty_ctor_arity, .ctx = module};
  IrParseResult r = ir_parse_program(src, &opts, &d);
  if (!r.program || !ty_check_program(module, r.program, &d)) return; /* an error test */
  ty_commit(module, r.program);
  IrBuf text, why;
  ir_buf_init(&text);
  ir_buf_init(&why);
  for (int i = 0; i < r.program->nitems; i++) {
    ir_print_item_typed(&text, &r.program->items[i]);
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
      ir_diag_render(&b, d1.first);
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
  bool prelude_ok = r.program && ty_check_program(module, r.program, &d);
  tap_ok(prelude_ok, "the Prelude checks");
  if (prelude_ok) ty_commit(module, r.program);
  for (int i = 0; i < files.len; i++) check_file(files.items[i]);
  if (files.len == 0) tap_ok(false, "no .rly files found under the given paths");
  a->status = tap_done();
}

int main(int argc, char **argv) { return run_on_large_stack(run, argc, argv); }
