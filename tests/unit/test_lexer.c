/* Unit tests of ir/lexer.c: token kinds, decoded numbers and strings, positions, and errors. */
#include <string.h>

#include "ir/lexer.h"
#include "tests/unit/tap.h"

static IrTokens lex(const char *text, IrDiags *d) {
  IrTokens t;
  ir_lex(ir_source_new("t.rly", text, strlen(text)), &t, d);
  return t;
}

/* The kinds of all tokens but EOF, as names joined by spaces. */
static const char *kinds(const char *text) {
  IrDiags d = {0};
  IrTokens t = lex(text, &d);
  IrBuf b;
  ir_buf_init(&b);
  for (int i = 0; i < t.len && t.items[i].kind != IR_TOK_EOF; i++)
    ir_buf_printf(&b, "%s%s", i ? " " : "", ir_token_kind_name(t.items[i].kind));
  if (d.first) ir_buf_printf(&b, " !%s", d.first->message);
  return b.data;
}

static const char *first_error(const char *text) {
  IrDiags d = {0};
  lex(text, &d);
  return d.first ? ir_printf("%u:%u %s", d.first->span.line, d.first->span.col, d.first->message) : "(none)";
}

/* The documentation comment of the first `def` in text, or "(none)". */
static const char *doc_of(const char *text) {
  IrDiags d = {0};
  IrTokens t = lex(text, &d);
  for (int i = 0; i < t.len; i++)
    if (t.items[i].kind == IR_TOK_KW_DEF) {
      size_t from = i ? t.items[i - 1].span.off + t.items[i - 1].span.len : 0;
      const char *doc = ir_lex_doc_comment(t.items[i].span.src, from, t.items[i].span.off);
      return doc ? doc : "(none)";
    }
  return "(no def)";
}

int main(void) {
  GC_INIT();
  tap_is_str(kinds("%t.0.1"), "a local variable `.` a number `.` a number", "chained projection is two index tokens");
  tap_is_str(kinds("%n-1"), "a local variable `-` a number", "%%n-1 is a subtraction, not %%n and -1");
  tap_is_str(kinds("nn.dense(%x)"), "a name `(` a local variable `)`", "dotted operator names are one token");
  tap_is_str(kinds("match? match"), "`match?` `match`", "match? is its own keyword");
  tap_is_str(kinds("#[version = \"0.0.5\"] # a comment\n%x"), "`#[` a name `=` a string `]` a local variable",
             "#[ opens an attribute; # elsewhere starts a comment");
  tap_is_str(kinds("/* a /* nested */ comment */ 1 // end"), "a number", "block comments nest");
  tap_is_str(kinds("-> => == != <= >= && || ! ?"), "`->` `=>` `==` `!=` `<=` `>=` `&&` `||` `!` `?`",
             "two-character operators");
  tap_is_str(kinds("%a % %b"), "a local variable `%` a local variable", "a lone %% is the remainder operator");
  tap_is_str(kinds("@main"), "a global name", "@ names a global");

  IrDiags d = {0};
  IrTokens t = lex("1.5 1f 2i64 2.5f64 7u8 3 1e3 2.5f16", &d);
  tap_ok(t.items[0].lit.kind == IR_LIT_FLOAT && t.items[0].lit.f == 1.5 && !t.items[0].lit.suffixed, "1.5 is an unsuffixed decimal");
  tap_ok(t.items[1].lit.kind == IR_LIT_FLOAT && t.items[1].lit.f == 1.0 && !strcmp(t.items[1].lit.suffix, "f") &&
             t.items[1].lit.dtype.bits == 32, "1f is float32 one");
  tap_ok(t.items[2].lit.kind == IR_LIT_INT && t.items[2].lit.mag == 2 && t.items[2].lit.dtype.bits == 64 &&
             t.items[2].lit.dtype.code == IR_DT_INT, "2i64 is int64");
  tap_ok(t.items[3].lit.kind == IR_LIT_FLOAT && t.items[3].lit.dtype.bits == 64, "2.5f64 is float64");
  tap_ok(t.items[4].lit.dtype.code == IR_DT_UINT && t.items[4].lit.dtype.bits == 8, "7u8 is uint8");
  tap_ok(t.items[5].lit.kind == IR_LIT_INT && !t.items[5].lit.suffixed, "3 is an unsuffixed integer");
  tap_ok(t.items[6].lit.kind == IR_LIT_FLOAT && t.items[6].lit.f == 1000.0, "1e3 is a decimal");
  tap_ok(t.items[7].lit.dtype.bits == 16 && t.items[7].lit.dtype.code == IR_DT_FLOAT, "2.5f16 is float16");

  t = lex("\"a\\n\\t\\\"\\x41\"", &d);
  tap_ok(t.items[0].kind == IR_TOK_STRING && t.items[0].slen == 5 && !memcmp(t.items[0].str->name, "a\n\t\"A", 5),
         "string escapes are decoded");

  t = lex("# 中文注释\n  %x", &d);
  tap_ok(t.items[0].span.line == 2 && t.items[0].span.col == 3, "positions count lines and columns from 1");
  t = lex("/* 中文 */ %x", &d);
  tap_is_int(t.items[0].span.col, 10, "columns count code points, not bytes");
  tap_ok(t.items[0].nl_before, "the first token counts as starting a line");
  t = lex("%a\n%b %c", &d);
  tap_ok(t.items[1].nl_before && !t.items[2].nl_before, "tokens know whether a line break precedes them");

  tap_is_str(first_error("let %x = \"abc"), "1:10 this string is never closed", "unterminated string");
  tap_is_str(first_error("1 /* open"), "1:3 this comment is never closed", "unterminated comment");
  tap_is_str(first_error("  3q"), "1:3 unknown suffix on this number", "unknown suffix");
  tap_is_str(first_error("1.5i32"), "1:1 a decimal number cannot have an integer suffix", "decimal with an integer suffix");
  tap_is_str(first_error("99999999999999999999"), "1:1 this integer is too large (the largest is 18446744073709551615)",
             "integer overflow");
  tap_is_str(first_error("1e400"), "1:1 this number is too large for any float type", "float overflow");
  tap_is_str(first_error("1e39f"), "(none)", "whether a number fits its suffix is the parser's question");
  tap_is_str(first_error("%x $ 1"), "1:4 unexpected character `$`", "stray character");
  tap_is_str(first_error("%a & %b"), "1:4 unexpected character `&`", "single ampersand");
  tap_is_str(first_error("\"\\q\""), "1:2 unknown escape in string", "bad escape");
  tap_is_str(first_error("\xef\xbb\xbf%x"), "(none)", "a byte order mark is skipped");
  tap_is_str(first_error("%x \x01"), "1:4 unexpected control character 0x01", "control characters are named by code");

  IrDiags inc = {0};
  IrTokens open_comment = lex("/* never", &inc);
  tap_ok(open_comment.at_eof, "an open comment at the end marks the input incomplete");

  /* Documentation: the comment block directly above the first `def` of the text. */
  tap_is_str(doc_of("# one\n# two\ndef @f() { 1 }"), "one\ntwo", "# lines above a def are its documentation");
  tap_is_str(doc_of("1\n// a\n//\n///  b  \ndef @f() { 1 }"), "a\n\n b", "// and /// lines; an empty one stays");
  tap_is_str(doc_of("# old\n\n# new\ndef @f() { 1 }"), "new", "a blank line starts the block again");
  tap_is_str(doc_of("# far\n\ndef @f() { 1 }"), "(none)", "a blank line before the def: no documentation");
  tap_is_str(doc_of("1 // trailing\ndef @f() { 1 }"), "(none)", "a comment after code on its line is not one");
  tap_is_str(doc_of("1 /* trails\n */\n# own\ndef @f() { 1 }"), "own", "nor is a block that starts after code");
  tap_is_str(doc_of("/** A.\n * B. /* nested */\n **/\ndef @f() { 1 }"), "A.\nB. /* nested */",
             "a block comment: its stars and markers go, nested comments stay");
  tap_is_str(doc_of("/* a */ /* b */ def @f() { 1 }"), "a b", "block comments on the def's own line");
  tap_is_str(doc_of("def @f() { 1 }"), "(none)", "no comment: none");
  return tap_done();
}
