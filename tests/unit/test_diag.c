/* Unit tests of ir/diag.c: the rendered form of a diagnostic (DESIGN §7). */
#include <string.h>

#include "ir/ir.h"
#include "tests/unit/tap.h"

static const char *render(const char *text, uint32_t off, uint32_t len, const char *note) {
  IrSource *src = ir_source_new("f.rly", text, strlen(text));
  uint32_t line = 1, col = 1;
  for (uint32_t i = 0; i < off; i++) {
    if (text[i] == '\n') line++, col = 1;
    else if (((unsigned char)text[i] & 0xc0) != 0x80) col++;
  }
  IrDiags ds = {0};
  IrDiag *d = ir_diag_add(&ds, IR_DIAG_PARSE, (IrSpan){src, off, len, line, col}, "bad %s", "thing");
  if (note) ir_diag_note(d, "%s", note);
  IrBuf b;
  ir_buf_init(&b);
  ir_diag_render(&b, d, 0);
  return b.data;
}

int main(void) {
  GC_INIT();
  tap_is_str(render("let %x = 1;\nlet %y = %z;", 21, 2, "hint: try %x"),
             "f.rly:2:10: parse error: bad thing\n 2 | let %y = %z;\n   |          ^~\n  hint: try %x\n",
             "file:line:col, the line, a caret under the span, the notes");
  tap_is_str(render("\tab", 1, 2, NULL), "f.rly:1:2: parse error: bad thing\n 1 | \tab\n   | \t^~\n",
             "tabs are kept so the caret lines up");
  tap_is_str(render("# 中文\n中x", 11, 1, NULL), "f.rly:2:2: parse error: bad thing\n 2 | 中x\n   |   ^\n",
             "wide characters take two columns before the caret");
  tap_is_str(render("abc", 3, 0, NULL), "f.rly:1:4: parse error: bad thing\n 1 | abc\n   |    ^\n",
             "a span at the end of the text");
  tap_is_str(render("ab\ncd", 0, 5, NULL), "f.rly:1:1: parse error: bad thing\n 1 | ab\n   | ^~\n",
             "a span over several lines is underlined on its first line");

  IrDiags ds = {0};
  ir_diag_add(&ds, IR_DIAG_TYPE, (IrSpan){0}, "no place");
  ir_diag_add(&ds, IR_DIAG_WARNING, (IrSpan){0}, "careful");
  IrBuf b;
  ir_buf_init(&b);
  ir_diag_render(&b, ds.first, 0);
  tap_is_str(b.data, "<relay>: type error: no place\n", "a diagnostic without a source position");
  tap_ok(ds.errors == 1 && ds.warnings == 1, "errors and warnings are counted apart");
  tap_is_str(ir_diag_kind_name(IR_DIAG_RUNTIME), "run-time error", "the run-time error kind");
  const char *ords = ir_printf("%s %s %s %s %s %s %s", ir_ordinal(0), ir_ordinal(9), ir_ordinal(10), ir_ordinal(20),
                               ir_ordinal(21), ir_ordinal(22), ir_ordinal(111));
  tap_ok(!strcmp(ords, "first tenth 11th 21st 22nd 23rd 112th"), "ordinals for messages: %s", ords);
  return tap_done();
}
