/* The printer's promise, checked on every .rly file we have (golden tests, the Prelude, the
 * conformance suite, benchmarks): print(parse(f)) parses to the same AST, and printing is
 * idempotent. A file that does not parse must be one that expects a parse error. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "runtime/runtime.h"
#include "tests/unit/tap.h"
#include "tests/unit/walk.h"

static bool expects_parse_error(const IrSource *src) {
  return strstr(src->text, "expect-error:") && strstr(src->text, "parse error");
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
  IrBuf p1;
  ir_buf_init(&p1);
  ir_print_program(&p1, r1.program);
  IrDiags d2 = {0};
  IrParseResult r2 = ir_parse_program(ir_source_new("<printed>", p1.data, p1.len), NULL, &d2);
  if (!r2.program) {
    IrBuf b;
    ir_buf_init(&b);
    ir_diag_render(&b, d2.first);
    tap_ok(false, "%s: the printed form does not parse", path);
    tap_diag("%s\nprinted:\n%s", b.data, p1.data);
    return;
  }
  IrBuf why;
  ir_buf_init(&why);
  if (!ir_program_equal(r1.program, r2.program, &why)) {
    tap_ok(false, "%s: reparsing the printed form gives a different AST", path);
    tap_diag("%s", why.data);
    return;
  }
  IrBuf p2;
  ir_buf_init(&p2);
  ir_print_program(&p2, r2.program);
  tap_is_str(p2.data, p1.data, "%s: round-trips", path);
}

typedef struct {
  int argc;
  char **argv;
  int status;
} Args;

static void run(void *p) {
  Args *a = p;
  PathList files = walk_rly_files(a->argc - 1, a->argv + 1);
  for (int i = 0; i < files.len; i++) check_file(files.items[i]);
  if (files.len == 0) tap_ok(false, "no .rly files found under the given paths");
  a->status = tap_done();
}

int main(int argc, char **argv) {
  rt_heap_init();
  Args a = {argc, argv, 1};
  if (!rt_stack_run(run, &a, RT_STACK_BYTES)) return 1;
  return a.status;
}
