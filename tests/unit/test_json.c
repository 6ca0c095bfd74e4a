/* Unit tests of ir/json.c: reading (values of every kind, escapes, errors with their offsets, deep
 * nesting refused without a stack overflow) and writing strings (escapes; bytes that are not UTF-8
 * become U+FFFD, so what is written is always JSON). The metadata reader's own catalogue of
 * malformed JSON is in test_meta.c. */
#include <string.h>

#include "ir/ir.h"
#include "tests/unit/tap.h"

static const char *written(const char *s, size_t n) {
  IrBuf b;
  ir_buf_init(&b);
  ir_json_put_string(&b, s, n);
  return b.data;
}

static const char *fault(const char *text, size_t *off) {
  IrJsonError err;
  const IrJson *v = ir_json_parse(text, strlen(text), 8, &err);
  *off = err.off;
  return v ? "(no error)" : err.message;
}

int main(void) {
  GC_INIT();
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  IrJsonError err;
  const char *text = " {\"id\": [1, -2.5e3, true, null], \"s\": \"a\\u00e9\\ud83d\\ude00\\n\", \"\": {}} ";
  const IrJson *v = ir_json_parse(text, strlen(text), 8, &err);
  tap_ok(v && v->kind == IR_JSON_OBJECT && v->n == 3, "an object of three members");
  const IrJson *id = v ? ir_json_get(v, "id") : NULL;
  tap_ok(id && id->kind == IR_JSON_ARRAY && id->n == 4 && id->items[0]->integer && !id->items[1]->integer &&
             id->items[1]->len == 6 && id->items[2]->b && id->items[3]->kind == IR_JSON_NULL,
         "numbers keep their text and whether they are whole; booleans; null");
  const IrJson *s = v ? ir_json_get(v, "s") : NULL;
  tap_is_str(s ? s->s : "", "a\xc3\xa9\xf0\x9f\x98\x80\n", "escapes decode to UTF-8, a surrogate pair to one character");
  tap_ok(v && ir_json_get(v, "") && !ir_json_get(v, "missing"), "an empty key; a missing one is NULL");
  size_t off;
  tap_is_str(fault("[1, 2", &off), "the text ends inside an array", "a text cut short");
  tap_ok(off == 0, "  ... at the array it is inside (%zu)", off);
  IrJsonError cut;
  tap_ok(!ir_json_parse("{\"id\": 1, \"method\"", 18, 8, &cut) && cut.cut_short &&
             !strcmp(cut.message, "the text ends inside an object"),
         "a text cut right after an object's key is cut short (more text may complete it): %s", cut.message);
  tap_ok(!ir_json_parse("{\"a\" 1}", 7, 8, &cut) && !cut.cut_short && !strcmp(cut.message, "expected ':' after an object's key"),
         "  ... and a key followed by something else than `:` is not: %s", cut.message);
  tap_is_str(fault("{\"a\": 1,, }", &off), "an object's key must be a string", "a stray comma");
  tap_ok(off == 8, "  ... at the second comma (%zu)", off);
  tap_is_str(fault("[[[[[[[[[1]]]]]]]]]", &off), "it nests deeper than 8 levels", "nesting past the limit");
  tap_is_str(fault("", &off), "the text is empty", "an empty text");
  tap_is_str(fault("1 2", &off), "there is text after its JSON value", "two values");

  tap_is_str(written("plain", 5), "\"plain\"", "a plain string");
  tap_is_str(written("q\"b\\n\n\t\r\x01\x7f", 10), "\"q\\\"b\\\\n\\n\\t\\r\\u0001\\u007f\"", "quotes, backslashes, control characters");
  tap_is_str(written("\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80", 9), "\"\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\"", "valid UTF-8 is kept");
  tap_is_str(written("a\xff" "b\xc3", 4), "\"a\\ufffdb\\ufffd\"", "a stray byte and a cut sequence become U+FFFD");
  tap_is_str(written("\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80", 9), "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"",
             "an overlong form, a surrogate and a code point past U+10FFFF: each byte U+FFFD");
  tap_is_str(written("a\0b", 3), "\"a\\u0000b\"", "a NUL byte");
  ir_trap_pop(&trap);
  return tap_done();
}
