/* JSON (json.h): an iterative reader, so that nesting costs no C stack, and the writing of strings.
 * Every fault in the text ends the reading through a longjmp to ir_json_parse, with one message and
 * the offset of the fault. */
#include "ir/json.h"

#include <limits.h>
#include <setjmp.h>
#include <string.h>

typedef struct Reader {
  const char *text;
  size_t len;
  int max_depth;
  IrJsonError err;
  jmp_buf fail;
} Reader;

/* ---------------------------------------------------------------- reading */

static _Noreturn void json_fail(Reader *R, size_t off, const char *what) {
  R->err.message = what;
  R->err.off = off;
  longjmp(R->fail, 1);
}

/* The text ended where JSON goes on. */
static _Noreturn void json_end(Reader *R, size_t off, const char *what) {
  R->err.cut_short = true;
  json_fail(R, off, what);
}

static void skip_ws(Reader *R, size_t *p) {
  while (*p < R->len && (R->text[*p] == ' ' || R->text[*p] == '\t' || R->text[*p] == '\n' || R->text[*p] == '\r'))
    (*p)++;
}

static int hex4(Reader *R, size_t at) {
  if (R->len - at < 4) json_end(R, at - 2, "the text ends inside a \\u escape"); /* at its backslash */
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = R->text[at + (size_t)i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) json_fail(R, at - 2, "a \\u escape needs four hexadecimal digits");
    v = v * 16 + d;
  }
  return v;
}

static void put_utf8(IrBuf *b, unsigned cp) {
  if (cp < 0x80) {
    ir_buf_putc(b, (char)cp);
  } else if (cp < 0x800) {
    ir_buf_putc(b, (char)(0xc0 | cp >> 6));
    ir_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    ir_buf_putc(b, (char)(0xe0 | cp >> 12));
    ir_buf_putc(b, (char)(0x80 | (cp >> 6 & 0x3f)));
    ir_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
  } else {
    ir_buf_putc(b, (char)(0xf0 | cp >> 18));
    ir_buf_putc(b, (char)(0x80 | (cp >> 12 & 0x3f)));
    ir_buf_putc(b, (char)(0x80 | (cp >> 6 & 0x3f)));
    ir_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
  }
}

/* A string at *p (its opening quote); decodes escapes, leaves *p after the closing quote. */
static void json_string(Reader *R, size_t *p, const char **out, size_t *outlen) {
  size_t start = *p, i = start + 1;
  size_t plain = i;
  while (plain < R->len && R->text[plain] != '"' && R->text[plain] != '\\' && (unsigned char)R->text[plain] >= 0x20)
    plain++;
  if (plain < R->len && R->text[plain] == '"') { /* the common case: no escapes */
    *out = ir_strndup(R->text + i, plain - i);
    *outlen = plain - i;
    *p = plain + 1;
    return;
  }
  IrBuf b;
  ir_buf_init(&b);
  for (;;) {
    if (i >= R->len) json_end(R, start, "the text ends inside a string");
    unsigned char c = (unsigned char)R->text[i];
    if (c == '"') break;
    if (c < 0x20) json_fail(R, i, "a control character inside a string (write it as an escape)");
    if (c != '\\') {
      ir_buf_putc(&b, (char)c);
      i++;
      continue;
    }
    if (i + 1 >= R->len) json_end(R, start, "the text ends inside a string");
    char e = R->text[i + 1];
    const char *simple = strchr("\"\\/bfnrt", e);
    if (e && simple) {
      static const char decoded[] = "\"\\/\b\f\n\r\t";
      ir_buf_putc(&b, decoded[simple - "\"\\/bfnrt"]);
      i += 2;
      continue;
    }
    if (e != 'u') json_fail(R, i, "an unknown escape in a string");
    unsigned cp = (unsigned)hex4(R, i + 2);
    size_t esc = i;
    i += 6;
    if (cp >= 0xdc00 && cp <= 0xdfff) json_fail(R, esc, "a \\u escape is a lone low surrogate");
    if (cp >= 0xd800 && cp <= 0xdbff) {
      if (R->len - i < 2 || R->text[i] != '\\' || R->text[i + 1] != 'u')
        json_fail(R, esc, "a \\u escape is a high surrogate without its low one");
      unsigned lo = (unsigned)hex4(R, i + 2);
      if (lo < 0xdc00 || lo > 0xdfff) json_fail(R, esc, "a \\u escape is a high surrogate without its low one");
      cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      i += 6;
    }
    put_utf8(&b, cp);
  }
  *out = b.data;
  *outlen = b.len;
  *p = i + 1;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static void json_number(Reader *R, size_t *p, IrJson *v) {
  size_t i = *p;
  const char *t = R->text;
  bool integer = true;
  if (i < R->len && t[i] == '-') i++;
  if (i >= R->len || !is_digit(t[i])) json_fail(R, *p, "a number needs a digit after its sign");
  if (t[i] == '0') i++;
  else
    while (i < R->len && is_digit(t[i])) i++;
  if (i < R->len && t[i] == '.') {
    integer = false;
    i++;
    if (i >= R->len || !is_digit(t[i])) json_fail(R, i, "a number needs a digit after its decimal point");
    while (i < R->len && is_digit(t[i])) i++;
  }
  if (i < R->len && (t[i] == 'e' || t[i] == 'E')) {
    integer = false;
    i++;
    if (i < R->len && (t[i] == '+' || t[i] == '-')) i++;
    if (i >= R->len || !is_digit(t[i])) json_fail(R, i, "a number needs a digit in its exponent");
    while (i < R->len && is_digit(t[i])) i++;
  }
  v->kind = IR_JSON_NUMBER;
  v->integer = integer;
  v->s = t + *p;
  v->len = i - *p;
  *p = i;
}

static bool word_at(Reader *R, size_t p, const char *w) {
  size_t n = strlen(w);
  return R->len - p >= n && memcmp(R->text + p, w, n) == 0;
}

/* An array or object being read: the iterative parser's stack holds one per open bracket. */
typedef struct Open {
  IrJson *v;
  IR_VEC(IrJson *) items;
  IR_VEC(IrJsonMember) members;
} Open;

/* A key and its colon, at *p (after whitespace). */
static void json_key(Reader *R, size_t *p, IrJsonMember *m) {
  skip_ws(R, p);
  if (*p >= R->len) json_end(R, *p, "the text ends inside an object");
  if (R->text[*p] != '"') json_fail(R, *p, "an object's key must be a string");
  json_string(R, p, &m->key, &m->klen);
  skip_ws(R, p);
  if (*p >= R->len) json_end(R, *p, "the text ends inside an object"); /* after a key: more text may complete it */
  if (R->text[*p] != ':') json_fail(R, *p, "expected ':' after an object's key");
  (*p)++;
}

static IrJson *json_parse(Reader *R) {
  IR_VEC(Open) stack = {0};
  size_t p = 0;
  for (;;) {
    /* A value starts here. */
    skip_ws(R, &p);
    if (p >= R->len) json_end(R, p, stack.len ? "the text ends where a value should be" : "the text is empty");
    IrJson *v = IR_NEW(IrJson);
    v->off = p;
    char c = R->text[p];
    if (c == '[' || c == '{') {
      if (stack.len >= R->max_depth) json_fail(R, p, ir_printf("it nests deeper than %d levels", R->max_depth));
      v->kind = c == '[' ? IR_JSON_ARRAY : IR_JSON_OBJECT;
      p++;
      skip_ws(R, &p);
      if (p < R->len && R->text[p] == (c == '[' ? ']' : '}')) {
        p++; /* empty: a finished value */
      } else {
        Open o = {v, {0}, {0}};
        if (c == '{') {
          IrJsonMember m = {0};
          json_key(R, &p, &m);
          IR_VEC_PUSH(o.members, m);
        }
        IR_VEC_PUSH(stack, o);
        continue;
      }
    } else if (c == '"') {
      v->kind = IR_JSON_STRING;
      json_string(R, &p, &v->s, &v->len);
    } else if (c == '-' || is_digit(c)) {
      json_number(R, &p, v);
    } else if (word_at(R, p, "true") || word_at(R, p, "false")) {
      v->kind = IR_JSON_BOOL;
      v->b = c == 't';
      p += v->b ? 4 : 5;
    } else if (word_at(R, p, "null")) {
      v->kind = IR_JSON_NULL;
      p += 4;
    } else {
      json_fail(R, p, "expected a value (an object, array, string, number, true, false or null)");
    }
    /* v is complete: hand it to the open container, closing containers as their brackets come. */
    for (;;) {
      if (!stack.len) {
        skip_ws(R, &p);
        if (p < R->len) json_fail(R, p, "there is text after its JSON value");
        return v;
      }
      Open *o = &stack.items[stack.len - 1];
      bool obj = o->v->kind == IR_JSON_OBJECT;
      if (obj) o->members.items[o->members.len - 1].val = v;
      else IR_VEC_PUSH(o->items, v);
      if ((obj ? o->members.len : o->items.len) >= INT_MAX / 2) json_fail(R, p, "an array or object has too many values");
      skip_ws(R, &p);
      if (p >= R->len) json_end(R, o->v->off, obj ? "the text ends inside an object" : "the text ends inside an array");
      char d = R->text[p++];
      if (d == ',') {
        if (obj) {
          IrJsonMember m = {0};
          json_key(R, &p, &m);
          IR_VEC_PUSH(o->members, m);
        }
        break; /* the next value */
      }
      if (d != (obj ? '}' : ']'))
        json_fail(R, p - 1, obj ? "expected ',' or '}' after an object's member" : "expected ',' or ']' after an array's element");
      v = o->v;
      v->n = obj ? o->members.len : o->items.len;
      v->items = o->items.items;
      v->members = o->members.items;
      stack.len--;
    }
  }
}

IrJson *ir_json_parse(const char *text, size_t len, int max_depth, IrJsonError *err) {
  Reader R = {.text = text, .len = len, .max_depth = max_depth};
  if (setjmp(R.fail)) {
    *err = R.err;
    if (err->off > len) err->off = len;
    return NULL;
  }
  IrJson *v = json_parse(&R);
  *err = (IrJsonError){0};
  return v;
}

IrJson *ir_json_get(const IrJson *o, const char *key) {
  size_t n = strlen(key);
  for (int i = 0; o->kind == IR_JSON_OBJECT && i < o->n; i++)
    if (o->members[i].klen == n && !memcmp(o->members[i].key, key, n)) return o->members[i].val;
  return NULL;
}

const char *ir_json_kind_name(IrJsonKind kind) {
  static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
  return names[kind];
}

/* ---------------------------------------------------------------- writing */

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0 when it is not one:
 * no overlong forms, no surrogates, nothing past U+10FFFF. */
static size_t utf8_length(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t k = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (k == 0 || k > n) return 0;
  for (size_t i = 1; i < k; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  if (c == 0xe0 && s[1] < 0xa0) return 0; /* overlong */
  if (c == 0xed && s[1] >= 0xa0) return 0; /* a surrogate */
  if (c == 0xf0 && s[1] < 0x90) return 0; /* overlong */
  if (c == 0xf4 && s[1] >= 0x90) return 0; /* past U+10FFFF */
  return k;
}

void ir_json_put_string(IrBuf *b, const char *s, size_t len) {
  const unsigned char *u = (const unsigned char *)s;
  ir_buf_putc(b, '"');
  for (size_t i = 0; i < len;) {
    unsigned char c = u[i];
    const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
    if (esc) {
      ir_buf_puts(b, esc);
      i++;
    } else if (c < 0x20 || c == 0x7f) {
      ir_buf_printf(b, "\\u%04x", c);
      i++;
    } else {
      size_t k = utf8_length(u + i, len - i);
      if (k) ir_buf_putn(b, s + i, k);
      else ir_buf_puts(b, "\\ufffd");
      i += k ? k : 1;
    }
  }
  ir_buf_putc(b, '"');
}

void ir_json_put(IrBuf *b, const IrJson *v) {
  if (!v) {
    ir_buf_puts(b, "null");
    return;
  }
  switch (v->kind) {
  case IR_JSON_NULL: ir_buf_puts(b, "null"); return;
  case IR_JSON_BOOL: ir_buf_puts(b, v->b ? "true" : "false"); return;
  case IR_JSON_NUMBER: ir_buf_putn(b, v->s, v->len); return;
  case IR_JSON_STRING: ir_json_put_string(b, v->s, v->len); return;
  case IR_JSON_ARRAY:
    ir_buf_putc(b, '[');
    for (int i = 0; i < v->n; i++) {
      if (i) ir_buf_putc(b, ',');
      ir_json_put(b, v->items[i]);
    }
    ir_buf_putc(b, ']');
    return;
  case IR_JSON_OBJECT:
    ir_buf_putc(b, '{');
    for (int i = 0; i < v->n; i++) {
      if (i) ir_buf_putc(b, ',');
      ir_json_put_string(b, v->members[i].key, v->members[i].klen);
      ir_buf_putc(b, ':');
      ir_json_put(b, v->members[i].val);
    }
    ir_buf_putc(b, '}');
    return;
  }
}
