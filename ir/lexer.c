/* The lexer. One idea: the previous token decides how `.5` and `-` read — after a `.` a number is
 * a tuple index (so `%t.0.1` is two projections), everything else is context-free. The REPL's line
 * scanner (scan.c) reads comments, strings and the `#[metadata]` section as this file does: change both. */
#include "ir/lexer.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Lexer {
  const IrSource *src;
  const char *s;
  size_t pos, len;
  uint32_t line, col;
  IrDiags *diags;
  IrToken *toks;
  int ntoks, cap;
  bool failed, at_eof;
  size_t meta_off; /* where the text of a `#[metadata]` section starts, or 0 */
} Lexer;

static const char *const kind_names[] = {
#define IR_TOK(id, text) text,
#include "ir/token.def"
#undef IR_TOK
};

const char *ir_token_kind_name(IrTokKind kind) { return kind_names[kind]; }

static int peek(const Lexer *L, size_t ahead) {
  return L->pos + ahead < L->len ? (unsigned char)L->s[L->pos + ahead] : -1;
}

static void advance(Lexer *L) {
  unsigned char c = (unsigned char)L->s[L->pos++];
  if (c == '\n') {
    L->line++;
    L->col = 1;
  } else if ((c & 0xc0) != 0x80) {
    L->col++; /* count code points, not bytes */
  }
}

static IrSpan span_here(const Lexer *L, size_t len) {
  return (IrSpan){L->src, (uint32_t)L->pos, (uint32_t)len, L->line, L->col};
}

static IrDiag *error_at(Lexer *L, IrSpan span, const char *msg) {
  L->failed = true;
  return ir_diag_add(L->diags, IR_DIAG_PARSE, span, "%s", msg);
}

static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alnum(int c) { return is_alpha(c) || is_digit(c); }

/* ---------------------------------------------------------------- white space and comments */

/* Skips blanks and comments; returns whether a line break was crossed. */
static bool skip_space(Lexer *L, bool *any) {
  bool nl = false;
  for (;;) {
    int c = peek(L, 0);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      advance(L);
    } else if (c == '\n') {
      nl = true;
      advance(L);
    } else if ((c == '/' && peek(L, 1) == '/') || (c == '#' && peek(L, 1) != '[')) {
      while (L->pos < L->len && L->s[L->pos] != '\n') advance(L);
    } else if (c == '/' && peek(L, 1) == '*') {
      IrSpan open = span_here(L, 2);
      int depth = 0;
      do {
        if (peek(L, 0) == '/' && peek(L, 1) == '*') {
          depth++;
          advance(L);
        } else if (peek(L, 0) == '*' && peek(L, 1) == '/') {
          depth--;
          advance(L);
        } else if (peek(L, 0) == '\n') {
          nl = true;
        }
        advance(L);
      } while (depth > 0 && L->pos < L->len);
      if (depth > 0) {
        IrDiag *d = error_at(L, open, "this comment is never closed");
        ir_diag_note(d, "hint: `/*` comments nest; each needs its own `*/`");
        L->at_eof = true;
        return nl;
      }
    } else {
      return nl;
    }
    *any = true;
  }
}

/* ---------------------------------------------------------------- numbers */

static bool suffix_dtype(const char *suf, size_t n, IrDType *dt) {
  if (n == 1 && (suf[0] == 'f' || suf[0] == 'i')) { /* `2f` is float32, `2i` int32 (TVM's) */
    *dt = IR_DTYPE(suf[0] == 'f' ? IR_DT_FLOAT : IR_DT_INT, 32);
    return true;
  }
  char name[16];
  const char *family = suf[0] == 'f' ? "float" : suf[0] == 'i' ? "int" : suf[0] == 'u' ? "uint" : NULL;
  if (!family || n < 2 || n > 3) return false;
  int k = snprintf(name, sizeof name, "%s%.*s", family, (int)(n - 1), suf + 1);
  return ir_dtype_parse(name, (size_t)k, dt);
}

static void lex_number(Lexer *L, IrToken *t, bool index_only) {
  size_t start = L->pos;
  bool is_float = false;
  while (is_digit(peek(L, 0))) advance(L);
  if (!index_only && peek(L, 0) == '.' && is_digit(peek(L, 1))) {
    is_float = true;
    advance(L);
    while (is_digit(peek(L, 0))) advance(L);
  }
  if (!index_only && (peek(L, 0) == 'e' || peek(L, 0) == 'E') &&
      (is_digit(peek(L, 1)) || ((peek(L, 1) == '+' || peek(L, 1) == '-') && is_digit(peek(L, 2))))) {
    is_float = true;
    advance(L);
    if (peek(L, 0) == '+' || peek(L, 0) == '-') advance(L);
    while (is_digit(peek(L, 0))) advance(L);
  }
  size_t digits_end = L->pos;
  size_t suf_start = L->pos;
  while (is_alnum(peek(L, 0))) advance(L);
  size_t suf_len = L->pos - suf_start;
  t->span.len = (uint32_t)(L->pos - start);

  IrLit *lit = &t->lit;
  char text[512];
  size_t dl = digits_end - start;
  if (dl >= sizeof text) {
    error_at(L, t->span, "this number has too many digits");
    return;
  }
  memcpy(text, L->s + start, dl);
  text[dl] = '\0';

  if (suf_len) {
    if (index_only || suf_len >= sizeof lit->suffix || !suffix_dtype(L->s + suf_start, suf_len, &lit->dtype)) {
      IrDiag *d = error_at(L, t->span, index_only ? "a tuple index is a plain number"
                                                  : "unknown suffix on this number");
      if (!index_only)
        ir_diag_note(d, "hint: suffixes are f (float32), f16, f32, f64, i (int32), i8, i16, i32, i64, u8, u16, u32, u64");
      return;
    }
    lit->suffixed = true;
    memcpy(lit->suffix, L->s + suf_start, suf_len);
    if (is_float && lit->dtype.code != IR_DT_FLOAT) {
      IrDiag *d = error_at(L, t->span, "a decimal number cannot have an integer suffix");
      ir_diag_note(d, "hint: write a float suffix such as `f` or `f64`, or drop the fraction");
      return;
    }
  }
  if (is_float || (lit->suffixed && lit->dtype.code == IR_DT_FLOAT)) {
    lit->kind = IR_LIT_FLOAT;
    errno = 0;
    lit->f = strtod(text, NULL);
    /* Too large for any float; whether it fits its dtype is the parser's question for a suffixed
     * one and the checker's for the others (ir_lit_fit). Underflow to a subnormal or zero is fine. */
    if (errno == ERANGE && isinf(lit->f)) error_at(L, t->span, "this number is too large for any float type");
  } else {
    lit->kind = IR_LIT_INT;
    uint64_t v = 0;
    for (size_t i = 0; i < dl; i++) {
      uint64_t d = (uint64_t)(text[i] - '0');
      if (v > (UINT64_MAX - d) / 10) {
        error_at(L, t->span, "this integer is too large (the largest is 18446744073709551615)");
        return;
      }
      v = v * 10 + d;
    }
    lit->mag = v;
  }
}

/* ---------------------------------------------------------------- strings */

static int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void lex_string(Lexer *L, IrToken *t) {
  size_t start = L->pos;
  IrBuf b;
  ir_buf_init(&b);
  advance(L); /* the opening quote */
  for (;;) {
    int c = peek(L, 0);
    if (c < 0 || c == '\n') {
      IrDiag *d = error_at(L, t->span, "this string is never closed");
      ir_diag_note(d, "hint: a string ends with `\"` on the same line");
      L->at_eof = c < 0;
      return;
    }
    if (c == '"') {
      advance(L);
      break;
    }
    if (c != '\\') {
      ir_buf_putc(&b, (char)c);
      advance(L);
      continue;
    }
    IrSpan esc = span_here(L, 2);
    advance(L);
    int e = peek(L, 0);
    int out = -1;
    switch (e) {
    case 'n': out = '\n'; break;
    case 't': out = '\t'; break;
    case 'r': out = '\r'; break;
    case '0': out = '\0'; break;
    case '\\': out = '\\'; break;
    case '"': out = '"'; break;
    case '\'': out = '\''; break;
    case 'x':
      if (hex_value(peek(L, 1)) >= 0 && hex_value(peek(L, 2)) >= 0) {
        out = hex_value(peek(L, 1)) * 16 + hex_value(peek(L, 2));
        advance(L);
        advance(L);
      }
      break;
    default: break;
    }
    if (out < 0) {
      esc.len = e >= 0 ? 2 : 1;
      IrDiag *d = error_at(L, esc, "unknown escape in string");
      ir_diag_note(d, "hint: the escapes are \\n \\t \\r \\0 \\\\ \\\" \\' and \\xHH");
      return;
    }
    advance(L);
    ir_buf_putc(&b, (char)out);
  }
  t->span.len = (uint32_t)(L->pos - start);
  t->str = ir_sym_n(b.data, b.len);
  t->slen = b.len;
}

/* ---------------------------------------------------------------- names and punctuation */

static const struct {
  const char *word;
  IrTokKind kind;
} keywords[] = {
    {"def", IR_TOK_KW_DEF},     {"data", IR_TOK_KW_DATA},   {"type", IR_TOK_KW_TYPE},
    {"fn", IR_TOK_KW_FN},       {"let", IR_TOK_KW_LET},     {"if", IR_TOK_KW_IF},
    {"else", IR_TOK_KW_ELSE},   {"match", IR_TOK_KW_MATCH}, {"case", IR_TOK_KW_CASE},
};

static void lex_ident(Lexer *L, IrToken *t) {
  size_t start = L->pos;
  while (is_alnum(peek(L, 0))) advance(L);
  /* Dotted operator names such as nn.dense. A digit after the dot would be a projection. */
  while (peek(L, 0) == '.' && is_alpha(peek(L, 1))) {
    advance(L);
    while (is_alnum(peek(L, 0))) advance(L);
  }
  size_t n = L->pos - start;
  IrDType dt;
  if (n > 3 && (memcmp(L->s + start, "inf", 3) == 0 || memcmp(L->s + start, "nan", 3) == 0) &&
      L->s[start + 3] == 'f' && n - 3 < sizeof t->lit.suffix && suffix_dtype(L->s + start + 3, n - 3, &dt)) {
    /* `inff`, `nanf64`: a float's infinity or NaN, as TVM prints them */
    t->kind = IR_TOK_NUMBER;
    t->lit = (IrLit){.kind = IR_LIT_FLOAT, .suffixed = true, .dtype = dt, .f = L->s[start] == 'i' ? INFINITY : NAN};
    memcpy(t->lit.suffix, L->s + start + 3, n - 3);
    t->span.len = (uint32_t)n;
    return;
  }
  t->kind = IR_TOK_IDENT;
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
    if (strlen(keywords[i].word) == n && memcmp(keywords[i].word, L->s + start, n) == 0) t->kind = keywords[i].kind;
  if (t->kind == IR_TOK_KW_MATCH && peek(L, 0) == '?') {
    advance(L);
    t->kind = IR_TOK_KW_MATCHQ;
  }
  t->sym = ir_sym_n(L->s + start, n);
  t->span.len = (uint32_t)(L->pos - start);
}

/* A name after `%` or `@`: letters, digits, `_`, and as TVM prints the names its importers give
 * (`%features.0.weight`, `%resnet/conv1/weights`), `/` and dotted segments, but for trailing
 * segments of digits, which are projections (`%0.1`, `%x.0`). */
static void lex_sigil(Lexer *L, IrToken *t, IrTokKind kind) {
  size_t start = L->pos;
  advance(L);
  size_t name = L->pos;
  while (is_alnum(peek(L, 0)) || (peek(L, 0) == '/' && is_alpha(peek(L, 1)))) advance(L); /* `%x/2` divides */
  size_t end = L->pos, i = end; /* the end of the name: after the last segment that is not a number */
  while (i + 1 < L->len && L->s[i] == '.' && is_alnum((unsigned char)L->s[i + 1])) {
    bool digits = true;
    for (i++; i < L->len && (is_alnum((unsigned char)L->s[i]) ||
                             (L->s[i] == '/' && i + 1 < L->len && is_alpha((unsigned char)L->s[i + 1])));
         i++)
      digits &= is_digit((unsigned char)L->s[i]);
    if (!digits) end = i;
  }
  while (L->pos < end) advance(L);
  t->kind = kind;
  t->sym = ir_sym_n(L->s + name, L->pos - name);
  t->span.len = (uint32_t)(L->pos - start);
}

static IrTokKind punct(Lexer *L) {
  int c = peek(L, 0), d = peek(L, 1);
  IrTokKind two = IR_TOK_EOF;
  if (c == '-' && d == '>') two = IR_TOK_ARROW;
  else if (c == '=' && d == '>') two = IR_TOK_FATARROW;
  else if (c == '=' && d == '=') two = IR_TOK_EQEQ;
  else if (c == '!' && d == '=') two = IR_TOK_NE;
  else if (c == '<' && d == '=') two = IR_TOK_LE;
  else if (c == '>' && d == '=') two = IR_TOK_GE;
  else if (c == '&' && d == '&') two = IR_TOK_ANDAND;
  else if (c == '|' && d == '|') two = IR_TOK_OROR;
  else if (c == '#' && d == '[') two = IR_TOK_HASHBRACKET;
  if (two != IR_TOK_EOF) {
    advance(L);
    advance(L);
    return two;
  }
  IrTokKind one;
  switch (c) {
  case '(': one = IR_TOK_LPAREN; break;
  case ')': one = IR_TOK_RPAREN; break;
  case '[': one = IR_TOK_LBRACKET; break;
  case ']': one = IR_TOK_RBRACKET; break;
  case '{': one = IR_TOK_LBRACE; break;
  case '}': one = IR_TOK_RBRACE; break;
  case ',': one = IR_TOK_COMMA; break;
  case ';': one = IR_TOK_SEMI; break;
  case ':': one = IR_TOK_COLON; break;
  case '.': one = IR_TOK_DOT; break;
  case '=': one = IR_TOK_ASSIGN; break;
  case '+': one = IR_TOK_PLUS; break;
  case '-': one = IR_TOK_MINUS; break;
  case '*': one = IR_TOK_STAR; break;
  case '/': one = IR_TOK_SLASH; break;
  case '%': one = IR_TOK_PERCENT; break;
  case '<': one = IR_TOK_LT; break;
  case '>': one = IR_TOK_GT; break;
  case '!': one = IR_TOK_BANG; break;
  case '?': one = IR_TOK_QUESTION; break;
  default: return IR_TOK_COUNT;
  }
  advance(L);
  return one;
}

/* ---------------------------------------------------------------- habits of other languages */

/* A word of letters, digits and `_` at *p (moved past it and the blanks after it), or NULL. */
static const char *word_at(const char **p, const char *end) {
  const char *w = *p;
  while (*p < end && is_alnum((unsigned char)**p)) ++*p;
  if (*p == w || is_digit((unsigned char)*w)) return NULL;
  const char *out = ir_strndup(w, (size_t)(*p - w));
  while (*p < end && (**p == ' ' || **p == '\t')) ++*p;
  return out;
}

/* Haskell's and Elm's scalar types, as Relay names them. */
static const char *relay_type_name(const char *w) {
  static const char *const names[][2] = {{"Float", "float32"}, {"Double", "float64"}, {"Int", "int32"},
                                         {"Integer", "int64"}, {"Bool", "bool"},      {"float", "float32"},
                                         {"int", "int32"},     {"bool", "bool"}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(w, names[i][0])) return names[i][1];
  return w;
}

const char *ir_lex_data_hint(const char *line, size_t len, size_t *eq) {
  const char *p = line, *end = line + len;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  const char *kw = word_at(&p, end);
  if (!kw || (strcmp(kw, "data") && strcmp(kw, "type"))) return NULL;
  const char *name = word_at(&p, end);
  if (!name) return NULL;
  IrBuf out, params;
  ir_buf_init(&out);
  ir_buf_init(&params);
  for (const char *w; (w = word_at(&p, end));) ir_buf_printf(&params, "%s%s", params.len ? ", " : "", w);
  if (p == end || *p != '=') return NULL;
  *eq = (size_t)(p - line);
  ir_buf_printf(&out, "write `data %s%s%s%s {", name, params.len ? "<" : "", params.data, params.len ? ">" : "");
  int nctors = 0;
  for (p++; p < end;) { /* the constructors, between `|`s: a name, then its fields' types */
    while (p < end && (*p == ' ' || *p == '\t' || *p == '|')) p++;
    if (p == end) break;
    const char *ctor = word_at(&p, end);
    if (!ctor) return NULL;
    ir_buf_printf(&out, "%s %s", nctors++ ? "," : "", ctor);
    int nfields = 0;
    while (p < end && *p != '|') {
      if (*p == '*' || *p == ' ' || *p == '\t') { /* OCaml's `of float * float` */
        p++;
        continue;
      }
      const char *w = word_at(&p, end);
      if (!w) return NULL; /* a type that is more than a name: no guess */
      if (!strcmp(w, "of")) continue;
      ir_buf_printf(&out, "%s%s", nfields++ ? ", " : "(", relay_type_name(w));
    }
    if (nfields) ir_buf_putc(&out, ')');
  }
  if (!nctors) return NULL;
  ir_buf_puts(&out, " }`");
  return out.data;
}

/* `\x y -> x + y`, Haskell's lambda at L->pos: the hint that writes it as Relay does, its names
 * as locals (`fn (%x, %y) { %x + %y }`), its body up to a comma or bracket that ends it. */
static const char *lambda_hint(Lexer *L) {
  const char *p = L->s + L->pos + 1, *end = L->s + L->len;
  IR_VEC(const char *) params = {0};
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  for (const char *w; (w = word_at(&p, end));) IR_VEC_PUSH(params, w);
  if (!params.len || end - p < 2 || p[0] != '-' || p[1] != '>') return "a function is written `fn (%x) { ... }`";
  IrBuf out;
  ir_buf_init(&out);
  ir_buf_puts(&out, "a function is written `fn (");
  for (int i = 0; i < params.len; i++) ir_buf_printf(&out, "%s%%%s", i ? ", " : "", params.items[i]);
  ir_buf_puts(&out, ") { ");
  p += 2;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  const char *body = p;
  for (int depth = 0; p < end && *p != '\n'; p++) {
    if (strchr("([{", *p)) depth++;
    else if (strchr(")]}", *p) && depth-- == 0) break;
    else if (*p == ',' && depth == 0) break;
  }
  while (p > body && (p[-1] == ' ' || p[-1] == '\t')) p--;
  if (p == body || p - body > 40) {
    ir_buf_puts(&out, "... }`");
    return out.data;
  }
  for (const char *q = body; q < p;) { /* the parameters' uses become locals */
    if (is_alpha((unsigned char)*q) && (q == body || !is_alnum((unsigned char)q[-1]))) {
      const char *w = q;
      while (q < p && is_alnum((unsigned char)*q)) q++;
      for (int i = 0; i < params.len; i++)
        if (strlen(params.items[i]) == (size_t)(q - w) && !strncmp(params.items[i], w, (size_t)(q - w))) {
          ir_buf_putc(&out, '%');
          break;
        }
      ir_buf_printf(&out, "%.*s", (int)(q - w), w);
    } else {
      ir_buf_putc(&out, *q++);
    }
  }
  ir_buf_puts(&out, " }`");
  return out.data;
}

static void bad_char(Lexer *L, IrToken *t) {
  int c = peek(L, 0);
  size_t n = 1;
  while (L->pos + n < L->len && ((unsigned char)L->s[L->pos + n] & 0xc0) == 0x80) n++;
  t->span.len = (uint32_t)n;
  IrDiag *d;
  if (c == '|') { /* `data L = A | B`: Haskell's or Elm's declaration; the parser says so at `=` */
    size_t start = L->pos, stop = L->pos, eq;
    while (start > 0 && L->s[start - 1] != '\n') start--;
    while (stop < L->len && L->s[stop] != '\n') stop++;
    const char *hint = ir_lex_data_hint(L->s + start, stop - start, &eq);
    if (hint) {
      IrSpan at = t->span;
      at.off = (uint32_t)(start + eq), at.len = 1, at.col = 1;
      for (size_t i = start; i < start + eq; i++) at.col += ((unsigned char)L->s[i] & 0xc0) != 0x80;
      ir_diag_note(error_at(L, at, IR_DATA_EQUALS_MESSAGE), "hint: %s", hint);
      return;
    }
  }
  if (c >= 0x20 && c < 0x7f) {
    char msg[64];
    snprintf(msg, sizeof msg, "unexpected character `%c`", c);
    d = error_at(L, t->span, msg);
  } else if (c >= 0x80 && n == (size_t)((c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0)) {
    d = error_at(L, t->span, ir_printf("unexpected character `%.*s`", (int)n, L->s + L->pos));
  } else if (c >= 0x80) { /* not UTF-8: name the byte, not an invalid text */
    t->span.len = 1;
    d = error_at(L, t->span, ir_printf("invalid UTF-8: unexpected byte 0x%02x", (unsigned)c));
  } else {
    d = error_at(L, t->span, ir_printf("unexpected control character 0x%02x", (unsigned)c));
  }
  if (c == '&' || c == '|') ir_diag_note(d, "hint: the logical operators are `&&` and `||`");
  else if (c == '\\') ir_diag_note(d, "hint: %s", lambda_hint(L));
  else if (c == '\'') ir_diag_note(d, "hint: strings are written with double quotes");
  else if (c == '@') ir_diag_note(d, "hint: a global name follows `@` directly, as in `@main`");
}

/* ---------------------------------------------------------------- driver */

/* At `#[`: whether `#[metadata]` starts TVM's metadata section here, which runs to the end of the
 * text; then L->meta_off is where its text starts. */
static bool metadata_section(Lexer *L) {
  size_t i = L->pos + 2;
  while (i < L->len && (L->s[i] == ' ' || L->s[i] == '\t')) i++;
  if (L->len - i < 8 || memcmp(L->s + i, "metadata", 8) != 0) return false;
  for (i += 8; i < L->len && (L->s[i] == ' ' || L->s[i] == '\t'); i++) {}
  if (i >= L->len || L->s[i] != ']') return false;
  L->meta_off = i + 1;
  return true;
}


static bool push(Lexer *L, IrToken t) {
  if (L->ntoks == L->cap) {
    int cap = L->cap ? 2 * L->cap : 1024;
    IrToken *toks = cap > L->cap ? realloc(L->toks, sizeof(IrToken) * (size_t)cap) : NULL;
    if (!toks) {
      error_at(L, t.span, "out of memory: this text has too many tokens");
      return false;
    }
    L->toks = toks;
    L->cap = cap;
  }
  L->toks[L->ntoks++] = t;
  return true;
}

static void lex_all(Lexer *L);

bool ir_lex(const IrSource *src, IrTokens *out, IrDiags *diags) {
  Lexer L = {.src = src, .s = src->text, .len = src->len, .line = 1, .col = 1, .diags = diags};
  /* Out of memory (a name, a message) while the token array is malloc'd: free it, then go on
   * unwinding to the caller's trap. */
  Lexer *volatile lp = &L;
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb)) {
    free(lp->toks);
    ir_out_of_memory(trap.bytes);
  }
  lex_all(&L);
  ir_trap_pop(&trap);
  out->items = L.toks;
  out->len = L.ntoks;
  out->at_eof = L.at_eof;
  out->meta = L.meta_off != 0;
  out->meta_off = L.meta_off;
  return !L.failed;
}

static void lex_all(Lexer *Lp) {
#define L (*Lp)
  /* A UTF-8 byte order mark is not part of the program. */
  if (L.len >= 3 && memcmp(L.s, "\xef\xbb\xbf", 3) == 0) L.pos = 3;
  for (;;) {
    bool any = L.ntoks == 0;
    bool nl = skip_space(&L, &any);
    if (L.failed) break;
    if (__builtin_expect((L.ntoks & 4095) == 4095 && ir_interrupted, 0)) { /* Ctrl-C in a text of megabytes */
      ir_interrupted = 0;
      error_at(&L, span_here(&L, 0), "interrupted: reading stopped here (Ctrl-C)");
      break;
    }
    IrToken t = {0};
    t.nl_before = nl || L.ntoks == 0;
    t.space_before = any;
    t.span = span_here(&L, 0);
    int c = peek(&L, 0);
    IrTokKind prev = L.ntoks ? L.toks[L.ntoks - 1].kind : IR_TOK_EOF;
    if (c < 0) {
      t.kind = IR_TOK_EOF;
      push(&L, t);
      break;
    }
    if (c == '#' && peek(&L, 1) == '[' && metadata_section(&L)) { /* the rest is TVM's JSON */
      t.kind = IR_TOK_EOF;
      push(&L, t);
      break;
    }
    if (is_digit(c)) {
      t.kind = IR_TOK_NUMBER;
      lex_number(&L, &t, prev == IR_TOK_DOT && !any);
    } else if (is_alpha(c)) {
      lex_ident(&L, &t);
    } else if (c == '%' && is_alnum(peek(&L, 1))) {
      lex_sigil(&L, &t, IR_TOK_LOCAL);
    } else if (c == '@' && is_alpha(peek(&L, 1))) {
      lex_sigil(&L, &t, IR_TOK_GLOBAL);
    } else if (c == '"') {
      t.kind = IR_TOK_STRING;
      lex_string(&L, &t);
    } else {
      size_t start = L.pos;
      t.kind = punct(&L);
      if (t.kind == IR_TOK_COUNT) bad_char(&L, &t);
      else t.span.len = (uint32_t)(L.pos - start);
    }
    if (L.failed || !push(&L, t)) break;
  }
  if (L.failed) {
    /* Room for the closing EOF token is always there: push doubled before it failed, or the
     * failure was not about room. If even that fails, report no tokens at all. */
    IrToken eof = {.kind = IR_TOK_EOF, .span = span_here(&L, 0)};
    if (L.ntoks < L.cap) L.toks[L.ntoks++] = eof;
    else if (!push(&L, eof)) L.ntoks = 0;
  }
#undef L
}

void ir_tokens_free(IrTokens *toks) {
  free(toks->items);
  toks->items = NULL;
  toks->len = 0;
}

/* ---------------------------------------------------------------- documentation comments */

/* Appends a comment's text (the part between its markers) to doc, a line for each line, each
 * without the space after the marker, a block comment's lines without their leading `*`, and
 * without trailing blanks. */
static void doc_lines(IrBuf *doc, const char *s, size_t n, bool block) {
  bool first = true;
  for (size_t i = 0; i <= n; first = false) {
    size_t end = i;
    while (end < n && s[end] != '\n') end++;
    size_t a = i, b = end;
    if (block) {
      while (a < b && (s[a] == ' ' || s[a] == '\t')) a++;
      if (a < b && s[a] == '*' && (a + 1 == b || s[a + 1] != '/')) a++; /* ` * more text` */
    }
    if (a < b && s[a] == ' ') a++;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r')) b--;
    if (!first) ir_buf_putc(doc, '\n');
    ir_buf_putn(doc, s + a, b - a);
    i = end + 1;
  }
}

/* Drops the blank lines that start and end a documentation text. */
static const char *doc_trim(const char *d) {
  while (*d == '\n') d++;
  size_t n = strlen(d);
  while (n > 0 && d[n - 1] == '\n') n--;
  return n ? ir_strndup(d, n) : NULL;
}

const char *ir_lex_doc_comment(const IrSource *src, size_t from, size_t to) {
  const char *t = src->text;
  if (to > src->len || from > to) return NULL;
  bool trailing = from > 0; /* still on the previous token's line */
  int newlines = 0;         /* since the last comment of the block ended */
  IrBuf doc;
  ir_buf_init(&doc);
  bool have = false;
  for (size_t i = from; i < to;) {
    char c = t[i];
    if (c == '\n') {
      newlines++;
      trailing = false;
      i++;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      i++;
      continue;
    }
    size_t start, stop, next; /* the comment's text, and where it ends */
    bool block = false;
    if (c == '/' && i + 1 < to && t[i + 1] == '/') {
      start = i + 2;
      while (start < to && t[start] == '/') start++; /* `///` */
      for (stop = start; stop < to && t[stop] != '\n';) stop++;
      next = stop;
    } else if (c == '#') {
      start = i + 1;
      while (start < to && t[start] == '#') start++; /* `##` */
      for (stop = start; stop < to && t[stop] != '\n';) stop++;
      next = stop;
    } else if (c == '/' && i + 1 < to && t[i + 1] == '*') {
      block = true;
      start = i + 2;
      while (start < to && t[start] == '*') start++; /* a doc comment's extra stars */
      int depth = 1;
      size_t j = i + 2;
      while (j < to && depth > 0) {
        if (t[j] == '/' && j + 1 < to && t[j + 1] == '*') depth++, j += 2;
        else if (t[j] == '*' && j + 1 < to && t[j + 1] == '/') depth--, j += 2;
        else j++;
      }
      next = j;
      stop = depth == 0 ? j - 2 : j;
      while (stop > start && t[stop - 1] == '*') stop--; /* `**` before the closing `/` */
    } else { /* not white space or a comment (a byte order mark): no block before this point */
      have = false;
      ir_buf_init(&doc);
      i++;
      continue;
    }
    bool inner_newline = block && memchr(t + i, '\n', next - i) != NULL;
    if (trailing) { /* `} // end of @f` documents nothing below it */
      if (inner_newline) trailing = false;
      newlines = 0;
      i = next;
      continue;
    }
    if (have && newlines >= 2) { /* a blank line: the block starts again */
      have = false;
      ir_buf_init(&doc);
    }
    if (have) ir_buf_putc(&doc, newlines == 0 ? ' ' : '\n'); /* two block comments on one line: one line */
    doc_lines(&doc, t + start, stop - start, block);
    have = true;
    newlines = 0;
    i = next;
  }
  if (!have || newlines > 1) return NULL;
  return doc_trim(doc.data);
}
