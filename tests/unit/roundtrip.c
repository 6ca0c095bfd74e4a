/* The printer's promise, checked on every .rly file we have (golden tests, the Prelude, the
 * conformance suite, benchmarks): print(parse(f)) parses to the same AST, and printing is
 * idempotent. A file that does not parse must be one that expects a parse error. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "tests/unit/tap.h"
#include "tests/unit/support.h"

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
  IrBuf why;
  ir_buf_init(&why);
  if (tap_ok(round_trips(r1.program, &why), "%s: round-trips", path)) return;
  tap_diag("%s", why.data);
}

static void run(void *p) {
  TestArgs *a = p;
  PathList files = walk_rly_files(a->argc - 1, a->argv + 1);
  for (int i = 0; i < files.len; i++) check_file(files.items[i]);
  if (files.len == 0) tap_ok(false, "no .rly files found under the given paths");
  a->status = tap_done();
}

int main(int argc, char **argv) { return run_on_large_stack(run, argc, argv); }
