/* The line scanner's promise (ir/scan.h), which lets the REPL parse an input once: where it says the
 * text read so far cannot be complete, the parser (as the REPL runs it, with session bindings) does
 * not find a program there. Checked at every line of every .rly file under the given paths, and on
 * hand-written inputs whose answer is known line by line. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "prelude/prelude.h"
#include "typing/typing.h"
#include "tests/unit/tap.h"
#include "tests/unit/support.h"

static IrParseOptions opts;

/* The scanner's answers for each line of text, as a string of `y` (may be complete) and `n`. */
static const char *answers(const char *text) {
  IrScan sc;
  ir_scan_init(&sc);
  IrBuf out;
  ir_buf_init(&out);
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    ir_buf_putc(&out, ir_scan_line(&sc, p, n) ? 'y' : 'n');
    p += n + (nl != NULL);
  }
  return out.data;
}

static void expect(const char *text, const char *want, const char *what) {
  const char *got = answers(text);
  if (!tap_ok(!strcmp(got, want), "%s", what)) tap_diag("want %s, got %s", want, got);
}

static void hand_written(void) {
  expect("def @f(%x) {\n  %x\n}", "nny", "a definition's body");
  expect("\"a ( [ {\"\n", "y", "brackets in a string do not count");
  expect("\"a \\\" (\"", "y", "an escaped quote does not end the string");
  expect("\"open (\n", "y", "a string open at the end of its line is the lexer's error, for the parser to report");
  expect("1 # (\n", "y", "brackets in a # comment do not count");
  expect("1 // {\n", "y", "brackets in a // comment do not count");
  expect("/* ( /* */\n still in it )\n*/ 1", "nny", "block comments nest and span lines");
  expect("#[version = \"0.0.5\"]\n", "y", "#[ opens a bracket that ] closes");
  expect("def @main() { meta[relay.Constant][0] }\n\n#[metadata]\n{\n  \"root\": 1, \"s\": \"} ]\"\n}\n",
         "yyynny", "the #[metadata] section is JSON: its strings' brackets do not count");
  expect("(1]\n2", "yy", "a bracket that closes the wrong one: the parser says what is wrong");
  expect(")\n", "y", "a bracket that closes none");
  expect("let %x = 1;\n%x + \n# a comment\n\n1", "nnnny", "at the top level, a line ending with an operator or `;` goes on");
  expect("let %x :\nint32 = 1", "ny", "after `:` a type follows");
  expect("extern type Box<a>\n", "y", "`>` may end an item");
  expect("if (True) { 1 }\n", "y", "the parser decides what brackets cannot (an `if` without `else`)");
}

/* Whether the text's first n bytes parse as a program (as a REPL input). */
static bool parses(const IrSource *src, size_t n) {
  IrDiags d = {0};
  IrParseResult r = ir_parse_program(ir_source_new(src->name, src->text, n), &opts, &d);
  return r.program != NULL;
}

/* Checks the promise on every line of src (a sample of a large one's), called `what` in the report. */
static void check_text(const char *what, const IrSource *src) {
  /* The model files are large: a sample of their lines keeps the test quick. */
  int lines = 0;
  for (size_t i = 0; i < src->len; i++) lines += src->text[i] == '\n';
  int every = src->len > 65536 ? lines / 40 + 1 : 1;
  IrScan sc;
  ir_scan_init(&sc);
  int line = 0, checked = 0;
  for (size_t off = 0; off < src->len; line++) {
    const char *nl = memchr(src->text + off, '\n', src->len - off);
    size_t end = nl ? (size_t)(nl - src->text) : src->len;
    bool may = ir_scan_line(&sc, src->text + off, end - off);
    off = end + 1;
    if (may || line % every) continue;
    checked++;
    if (parses(src, off <= src->len ? off : src->len)) {
      tap_ok(false, "%s: the scanner says line %d cannot end an input, yet the text up to it parses", what, line + 1);
      return;
    }
  }
  tap_ok(true, "%s: %d lines where the scanner says the input goes on: none parses", what, checked);
}

/* The file as written, and again with a line break after every character that may end a line
 * wanting more (strings and comments are cut too: the promise holds for any text). */
static void check_file(const char *path) {
  IrSource *src = ir_source_read_file(path);
  if (!src) {
    tap_ok(false, "%s: cannot be read", path);
    return;
  }
  check_text(path, src);
  IrBuf cut;
  ir_buf_init(&cut);
  for (size_t i = 0; i < src->len; i++) {
    ir_buf_putc(&cut, src->text[i]);
    if (src->text[i] && strchr("+-*/%<=!&|,:;", src->text[i])) ir_buf_putc(&cut, '\n');
  }
  check_text(ir_printf("%s, broken after each operator", path), ir_source_new(path, cut.data, cut.len));
}

static void run(void *p) {
  TestArgs *a = p;
  hand_written();
  TyModule *module = ty_module_new();
  IrDiags d = {0};
  IrSource *prelude = ir_source_new(RELAY_PRELUDE_NAME, relay_prelude_text, relay_prelude_length);
  opts = (IrParseOptions){.ctor_arity = ty_ctor_arity, .ctx = module};
  IrParseResult r = ir_parse_program(prelude, &opts, &d);
  IrTProgram *tp = r.program ? ty_check_program(module, r.program, &d) : NULL;
  if (tap_ok(tp != NULL, "the Prelude checks")) ty_commit(module, tp);
  opts.session_lets = true; /* as the REPL parses */
  PathList files = walk_rly_files(a->argc - 1, a->argv + 1);
  for (int i = 0; i < files.len; i++) check_file(files.items[i]);
  if (files.len == 0) tap_ok(false, "no .rly files found under the given paths");
  a->status = tap_done();
}

int main(int argc, char **argv) { return run_on_large_stack(run, argc, argv); }
