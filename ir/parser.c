/* The recursive-descent parser. An error longjmps with its diagnostic, so the code reads as the
 * grammar: to the entry point, or in a program to the item it is in, and parsing goes on at the
 * next line that starts a declaration (the failed items are the program's `broken`).
 * Top-level expressions are the one place where line breaks matter: there, a `(` or `-` that
 * starts a new line begins a new item instead of continuing the previous one. */
#include "ir/parse.h"

#include <ctype.h>
#include <setjmp.h>
#include <string.h>

#include "ir/lexer.h"
#include "ir/meta.h"
#include "ir/symmap.h"
#include "ir/op.h"

/* The names of one list so far (parameters, type parameters, constructors, attributes), for
 * "declared twice": the first few scanned, the rest in a map, so a list of n names costs O(n). */
typedef struct Seen {
  Sym few[8];
  int n;
  IrSymMap many;
} Seen;

/* Whether name was added before; adds it if not. */
static bool seen_before(Seen *s, Sym name) {
  int nfew = s->n < 8 ? s->n : 8;
  for (int i = 0; i < nfew; i++)
    if (s->few[i] == name) return true;
  if (s->n >= 8 && ir_symmap_get(&s->many, name)) return true;
  if (s->n < 8)
    s->few[s->n] = name;
  else
    ir_symmap_put(&s->many, name, (void *)1);
  s->n++;
  return false;
}

typedef struct Parser {
  IrToken *toks;
  int pos;
  IrDiags *diags;
  const IrParseOptions *opt;
  jmp_buf *fail;
  bool speculating; /* errors are expected and must not be reported */
  bool stopped;     /* Ctrl-C: the parse ends at its error, with no recovery */
  bool incomplete;
  int depth;
  int nest;          /* open brackets within the current top-level item */
  int type_lists;    /* lists of types being parsed, around the current point */
  bool toplevel;     /* parsing a top-level expression: line breaks end it */
  IrSymMap ctors;         /* constructors declared earlier in this chunk: name -> 1 + arity */
  const IrMeta *meta;     /* the text's `#[metadata]` section, or NULL */
  bool saw_meta;          /* a `meta[KIND][i]` reference was read */
  bool section_missing;   /* failed on a reference that needs the section, which this text lacks */
  bool first_incomplete, first_section_missing; /* incomplete and section_missing at a program's first error */
  IrSymMap graph;         /* the current item's graph bindings so far: name -> bound value */
  const IrToken *cond_paren; /* the `(` that opens the condition of the `if` being read, or NULL */
} Parser;

/* ---------------------------------------------------------------- tokens and errors */

static IrToken *cur(Parser *P) { return &P->toks[P->pos]; }
static IrToken *ahead(Parser *P, int k) {
  int i = P->pos;
  while (k-- > 0 && P->toks[i].kind != IR_TOK_EOF) i++;
  return &P->toks[i];
}
static bool at(Parser *P, IrTokKind k) { return cur(P)->kind == k; }
static IrToken *next(Parser *P) {
  IrToken *t = cur(P);
  if (t->kind != IR_TOK_EOF) P->pos++;
  return t;
}
static IrSpan prev_span(Parser *P) { return P->toks[P->pos > 0 ? P->pos - 1 : 0].span; }
static IrSpan span_from(Parser *P, IrSpan start) { return ir_span_join(start, prev_span(P)); }

static const char *describe(const IrToken *t) {
  switch (t->kind) {
  case IR_TOK_IDENT: return ir_printf("`%s`", t->sym->name);
  case IR_TOK_LOCAL: return ir_printf("`%%%s`", t->sym->name);
  case IR_TOK_GLOBAL: return ir_printf("`@%s`", t->sym->name);
  case IR_TOK_NUMBER:
  case IR_TOK_STRING: return ir_printf("`%.*s`", (int)t->span.len, t->span.src->text + t->span.off);
  default: return ir_token_kind_name(t->kind);
  }
}

static _Noreturn void fail_now(Parser *P) { longjmp(*P->fail, 1); }

/* Ctrl-C (ir_interrupted, which the front end's SIGINT handler sets): the parse stops here with an
 * error, and goes on at no later item. Polled at each binding of a sequence and at each item, so a
 * long text stops at once; never while speculating (that error would not be reported). */
static _Noreturn void report(Parser *P, IrSpan span, const char *hint, const char *msg);
static void poll_interrupt(Parser *P) {
  if (__builtin_expect(!ir_interrupted, 1) || P->speculating) return;
  ir_interrupted = 0;
  P->stopped = true;
  report(P, P->toks[P->pos].span, NULL, "interrupted: parsing stopped here (Ctrl-C)");
}

/* Where "end of input" is reported: just after the last token, not on the empty line below. */
static IrSpan end_of_text(Parser *P, const IrToken *eof) {
  if (eof == P->toks) return eof->span;
  IrSpan last = eof[-1].span;
  uint32_t cols = 0;
  for (uint32_t i = 0; i < last.len; i++) cols += ((unsigned char)last.src->text[last.off + i] & 0xc0) != 0x80;
  return (IrSpan){last.src, last.off + last.len, 0, last.line, last.col + cols};
}

static _Noreturn void report(Parser *P, IrSpan span, const char *hint, const char *msg) {
  if (!P->speculating) {
    IrDiag *d = ir_diag_add(P->diags, IR_DIAG_PARSE, span, "%s", msg);
    if (hint) ir_diag_note(d, "hint: %s", hint);
  }
  fail_now(P);
}

/* Reports an error at token t (with an optional hint) and stops the parse. */
static _Noreturn void error_at(Parser *P, const IrToken *t, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static _Noreturn void error_at(Parser *P, const IrToken *t, const char *hint, const char *fmt, ...) {
  if (t->kind == IR_TOK_EOF && !P->speculating) P->incomplete = true;
  va_list ap;
  va_start(ap, fmt);
  char *msg = ir_vprintf(fmt, ap);
  va_end(ap);
  report(P, t->kind == IR_TOK_EOF ? end_of_text(P, t) : t->span, hint, msg);
}

static _Noreturn void error_span(Parser *P, IrSpan span, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static _Noreturn void error_span(Parser *P, IrSpan span, const char *hint, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = ir_vprintf(fmt, ap);
  va_end(ap);
  report(P, span, hint, msg);
}

static IrToken *expect(Parser *P, IrTokKind k, const char *what) {
  if (!at(P, k))
    error_at(P, cur(P), NULL, "expected %s%s%s, found %s", ir_token_kind_name(k), what ? " " : "",
             what ? what : "", describe(cur(P)));
  return next(P);
}

static bool accept(Parser *P, IrTokKind k) {
  if (!at(P, k)) return false;
  next(P);
  return true;
}

/* Brackets: `nest` counts them so that line breaks inside brackets never end an item. */
static IrToken *open_bracket(Parser *P, IrTokKind k, const char *what) {
  IrToken *t = expect(P, k, what);
  P->nest++;
  return t;
}
static void close_bracket(Parser *P, IrTokKind k, const IrToken *opener) {
  if (!at(P, k)) {
    const char *hint = NULL;
    if (opener) hint = ir_printf("the %s at line %u, column %u is not closed", ir_token_kind_name(opener->kind),
                                 opener->span.line, opener->span.col);
    error_at(P, cur(P), hint, "expected %s, found %s", ir_token_kind_name(k), describe(cur(P)));
  }
  next(P);
  P->nest--;
}
/* Whether t can begin an expression, a type or a pattern: before it, a comma is what is missing. */
static bool starts_element(const IrToken *t) {
  switch (t->kind) {
  case IR_TOK_IDENT: case IR_TOK_LOCAL: case IR_TOK_GLOBAL: case IR_TOK_NUMBER: case IR_TOK_STRING:
  case IR_TOK_LPAREN: case IR_TOK_LBRACKET: case IR_TOK_MINUS: case IR_TOK_BANG: case IR_TOK_QUESTION:
  case IR_TOK_KW_FN: case IR_TOK_KW_IF: case IR_TOK_KW_MATCH: case IR_TOK_KW_MATCHQ: case IR_TOK_KW_LET:
    return true;
  default: return false;
  }
}

/* The end of a comma-separated list: before something that could be the next element a comma is
 * missing; before anything else the list is not closed (close_bracket says where it opened). */
static void close_list(Parser *P, IrTokKind k, const IrToken *opener) {
  if (!at(P, k) && starts_element(cur(P)))
    error_at(P, cur(P), NULL, "expected `,` or %s, found %s", ir_token_kind_name(k), describe(cur(P)));
  close_bracket(P, k, opener);
}

static void enter(Parser *P) {
  if (++P->depth > IR_PARSE_MAX_DEPTH)
    error_at(P, cur(P), "split the expression with `let` bindings",
             "this is nested too deeply (more than %d levels)", IR_PARSE_MAX_DEPTH);
}
static void leave(Parser *P) { P->depth--; }

static bool is_ident(Parser *P, const char *name) {
  return at(P, IR_TOK_IDENT) && strcmp(cur(P)->sym->name, name) == 0;
}

/* A line break before `(` or `-` ends a top-level expression: `%t` then `(1, 2).0` on the next
 * line are two items, not a call. */
static bool item_ends_here(Parser *P) { return P->toplevel && P->nest == 0 && cur(P)->nl_before; }

/* ---------------------------------------------------------------- hints for a newcomer's slips */

/* The text of a span when it is short and on one line (for a hint that quotes it), else NULL. */
static const char *short_text(IrSpan s) {
  if (!s.src || s.len == 0 || s.len > 40 || memchr(s.src->text + s.off, '\n', s.len)) return NULL;
  return ir_printf("%.*s", (int)s.len, s.src->text + s.off);
}

/* `if (%x = 1)`: a comparison written with the `=` of a binding. left and right are what stand on
 * either side of it, when known. */
static _Noreturn void assignment_in_condition(Parser *P, const IrToken *eq, IrSpan left, IrSpan right) {
  const char *l = short_text(left), *r = short_text(right);
  const char *hint = l && r ? ir_printf("did you mean `%s == %s`?", l, r) : "did you mean `==`?";
  error_at(P, eq, hint, "`=` binds a variable (`%%x = e;`); a comparison is written `==`");
}

/* `@f 3`: a function name followed on its line by what reads as its argument. */
static bool is_name_expr(const IrExpr *e) {
  return e->kind == IR_EXPR_GLOBAL || e->kind == IR_EXPR_CTOR || e->kind == IR_EXPR_OP; /* a local: not surely a function */
}
static bool is_one_token_arg(const IrToken *t) {
  return t->kind == IR_TOK_NUMBER || t->kind == IR_TOK_LOCAL || t->kind == IR_TOK_GLOBAL || t->kind == IR_TOK_IDENT ||
         t->kind == IR_TOK_STRING;
}
static _Noreturn void juxtaposed_call(Parser *P, const IrExpr *callee) {
  const char *f = short_text(callee->span);
  IrBuf args;
  ir_buf_init(&args);
  /* `@f 1 2`: the arguments that are one token each, up to the first that is not */
  for (const IrToken *t = cur(P); is_one_token_arg(t) && !t->nl_before && args.len < 40; t++)
    ir_buf_printf(&args, "%s%.*s", args.len ? ", " : "", (int)t->span.len, t->span.src->text + t->span.off);
  const char *hint = f && args.len ? ir_printf("calls are written `%s(%s)`", f, args.data)
                                   : "calls are written with the arguments in parentheses, as in `@f(3)`";
  error_at(P, cur(P), hint, "%s is followed by %s, but a call's arguments go in parentheses",
           f ? ir_printf("`%s`", f) : "this name", describe(cur(P)));
}

/* `%x[1]`, `[1f, 2f][0]`: indexing as Python and C write it, right after the value (with a space
 * between, `%x [1]` in a list is more likely a missing comma). Relay takes an element with `take`,
 * a list's with `@nth`, a tuple's field with `.0`. */
static bool indexing_follows(Parser *P) {
  const IrToken *t = cur(P);
  return t->kind == IR_TOK_LBRACKET && P->pos > 0 && t[-1].span.off + t[-1].span.len == t->span.off;
}
static _Noreturn void indexing(Parser *P, const IrExpr *e) {
  const IrToken *o = cur(P), *t = o + 1;
  for (int depth = 0; t->kind != IR_TOK_EOF; t++) { /* the matching `]` */
    if (t->kind == IR_TOK_LBRACKET || t->kind == IR_TOK_LPAREN || t->kind == IR_TOK_LBRACE) depth++;
    else if (t->kind == IR_TOK_RBRACKET || t->kind == IR_TOK_RPAREN || t->kind == IR_TOK_RBRACE) {
      if (depth == 0) break;
      depth--;
    } else if (t->kind == IR_TOK_COMMA && depth == 0) { /* `%x[0, 1]`: numpy's, no one `take` */
      t = o + 1;
      break;
    } else if (t->kind == IR_TOK_COLON && depth == 0) { /* `%x[1:3]` */
      const char *x = short_text(e->span);
      error_at(P, o, ir_printf("a slice is written `strided_slice(%s, begin=[start], end=[stop])`", x ? x : "%x"),
               "Relay has no indexing with `[...]`");
    }
  }
  const char *x = short_text(e->span), *i = NULL;
  if (t->kind == IR_TOK_RBRACKET && t > o + 1) {
    IrSpan inside = o[1].span;
    inside.len = t[-1].span.off + t[-1].span.len - inside.off;
    i = short_text(inside);
  }
  const char *hint = "write `take(%x, i)` for a tensor, `@nth(%l, i)` for a list, `%t.0` for a tuple";
  bool field = t == o + 2 && o[1].kind == IR_TOK_NUMBER && o[1].lit.kind == IR_LIT_INT && !o[1].lit.suffixed;
  if (x && i && e->kind == IR_EXPR_TENSOR) hint = ir_printf("write `take(%s, %s)`", x, i);
  else if (x && i && field)
    hint = ir_printf("write `take(%s, %s)` for a tensor, `@nth(%s, %s)` for a list, `%s.%s` for a tuple", x, i, x, i, x, i);
  else if (x && i) hint = ir_printf("write `take(%s, %s)` for a tensor, `@nth(%s, %s)` for a list", x, i, x, i);
  error_at(P, o, hint, "Relay has no indexing with `[...]`");
}

/* `for %i in @range(3) { %i * 2 }` (the cursor after `for`): Relay maps or folds over a list. */
static _Noreturn void for_loop(Parser *P, const IrToken *kw) {
  const char *hint = "write `@map(fn (%i) { ... }, @range(n))`, or `@foldl` to carry a value from one step to the next";
  const IrToken *v = cur(P), *in = v + 1;
  if (v->kind == IR_TOK_LOCAL && in->kind == IR_TOK_IDENT && !strcmp(in->sym->name, "in")) {
    const IrToken *open = in + 1, *close;
    while (open->kind != IR_TOK_EOF && open->kind != IR_TOK_LBRACE && !open->nl_before) open++;
    int depth = 0;
    for (close = open + 1; open->kind == IR_TOK_LBRACE && close->kind != IR_TOK_EOF; close++) {
      if (close->kind == IR_TOK_LBRACE) depth++;
      else if (close->kind == IR_TOK_RBRACE && depth-- == 0) break;
    }
    if (open->kind == IR_TOK_LBRACE && close->kind == IR_TOK_RBRACE && open > in + 1 && close > open + 1) {
      IrSpan list = in[1].span, body = open[1].span;
      list.len = open[-1].span.off + open[-1].span.len - list.off;
      body.len = close[-1].span.off + close[-1].span.len - body.off;
      const char *l = short_text(list), *b = short_text(body);
      if (l && b)
        hint = ir_printf("write `@map(fn (%%%s) { %s }, %s)`, or `@foldl` to carry a value from one step to the next",
                         v->sym->name, b, l);
    }
  }
  error_at(P, kw, hint, "Relay has no `for` loop: map or fold over a list, or write a function that calls itself");
}

/* ---------------------------------------------------------------- literals */

/* A suffixed literal must fit its type now (ir_lit_fit: an integer its range, a float short of
 * infinity); an unsuffixed one is checked when its type is known. */
static void check_range(Parser *P, IrSpan span, const IrLit *lit) {
  if (lit->kind == IR_LIT_INT && lit->neg && lit->mag > (uint64_t)INT64_MAX + 1)
    error_span(P, span, NULL, "this integer is too small (the smallest is -9223372036854775808)");
  if (!lit->suffixed) return;
  char why[160], name[24];
  switch (ir_lit_fit(lit, lit->dtype, why, sizeof why)) {
  case IR_FIT_OK: return;
  case IR_FIT_NEGATIVE_UNSIGNED: error_span(P, span, NULL, "a negative number cannot be %s", ir_dtype_name(lit->dtype, name));
  case IR_FIT_OUT_OF_RANGE: error_span(P, span, NULL, "%s", why);
  }
}

/* A literal, with an optional leading minus: 3, -2.5f, True. Returns false if there is none. */
static bool parse_literal(Parser *P, IrLit *out, IrSpan *span) {
  IrToken *start = cur(P);
  bool neg = false;
  if (at(P, IR_TOK_MINUS) && ahead(P, 1)->kind == IR_TOK_NUMBER) {
    neg = true;
    next(P);
  }
  if (at(P, IR_TOK_NUMBER)) {
    IrToken *t = next(P);
    *out = t->lit;
    if (neg) {
      if (out->kind == IR_LIT_FLOAT) out->f = -out->f;
      else out->neg = out->mag != 0;
    }
    *span = span_from(P, start->span);
    check_range(P, *span, out);
    return true;
  }
  if (is_ident(P, "True") || is_ident(P, "False")) {
    memset(out, 0, sizeof *out);
    out->kind = IR_LIT_BOOL;
    out->suffixed = true;
    out->dtype = IR_DTYPE(IR_DT_BOOL, 1);
    out->b = cur(P)->sym->name[0] == 'T';
    *span = next(P)->span;
    return true;
  }
  return false;
}

static IrExpr *parse_tensor_literal(Parser *P);

/* ---------------------------------------------------------------- types */

static IrType *parse_type(Parser *P);

static IrKind parse_kind(Parser *P) {
  IrToken *t = expect(P, IR_TOK_IDENT, "(a kind)");
  const char *k = t->sym->name;
  if (!strcmp(k, "Type")) return IR_KIND_TYPE;
  if (!strcmp(k, "BaseType")) return IR_KIND_BASETYPE;
  if (!strcmp(k, "Shape")) return IR_KIND_SHAPE;
  if (!strcmp(k, "ShapeVar")) return IR_KIND_SHAPEVAR;
  error_at(P, t, "the kinds are Type, BaseType, Shape and ShapeVar", "unknown kind `%s`", k);
}

/* Type parameters: `<a, s : Shape>` (seed spelling) or `[A, B]` (TVM's). */
static void parse_tparams(Parser *P, int *n, IrTypeParam **out) {
  IR_VEC(IrTypeParam) ps = {0};
  if (at(P, IR_TOK_LT) || at(P, IR_TOK_LBRACKET)) {
    IrTokKind closer = at(P, IR_TOK_LT) ? IR_TOK_GT : IR_TOK_RBRACKET;
    IrToken *opener = open_bracket(P, cur(P)->kind, NULL);
    Seen seen = {0};
    while (!at(P, closer)) {
      IrToken *t = expect(P, IR_TOK_IDENT, "(a type parameter)");
      IrTypeParam tp = {t->sym, IR_KIND_TYPE, t->span}; /* undeclared kinds default to Type */
      if (seen_before(&seen, t->sym)) error_at(P, t, NULL, "type parameter `%s` is declared twice", t->sym->name);
      if (accept(P, IR_TOK_COLON)) tp.kind = parse_kind(P);
      IR_VEC_PUSH(ps, tp);
      if (!accept(P, IR_TOK_COMMA)) break;
    }
    close_list(P, closer, opener);
  }
  *n = ps.len;
  *out = ps.items;
}

static IrType *parse_dim(Parser *P);

/* A dimension is a whole number, at most INT64_MAX, written without a suffix or with one that TVM
 * writes (ir_lit_tvm_int: ParseShape in src/relay/parser/parser.cc takes any integer token, and TVM
 * prints a dimension of dtype int64 as `10i64`); the value must fit its suffix. */
static void check_dimension(Parser *P, IrToken *t) {
  const IrLit *lit = &t->lit;
  if (lit->kind != IR_LIT_INT || lit->neg) {
    error_at(P, t, NULL, "a dimension is a whole number");
  } else if (lit->suffixed) {
    char why[160];
    if (!ir_lit_tvm_int(lit))
      error_at(P, t, NULL, "a dimension is written without a suffix or with i64 (or i32, i16), as TVM prints one");
    if (ir_lit_fit(lit, lit->dtype, why, sizeof why) != IR_FIT_OK) error_at(P, t, NULL, "%s", why);
  } else if (lit->mag > (uint64_t)INT64_MAX) {
    error_at(P, t, NULL, "this dimension is too large (the largest is 9223372036854775807)");
  }
}

static bool at_meta(Parser *P);
static IrType *meta_dim(Parser *P);

static IrType *parse_dim_atom(Parser *P) {
  IrToken *t = cur(P);
  if (at_meta(P)) return meta_dim(P);
  if (at(P, IR_TOK_NUMBER)) {
    next(P);
    check_dimension(P, t);
    return ir_type_dim((int64_t)t->lit.mag, t->span);
  }
  if (at(P, IR_TOK_QUESTION) || is_ident(P, "Any")) {
    next(P);
    return ir_type_new(IR_TYPE_ANY, t->span);
  }
  if (at(P, IR_TOK_IDENT)) {
    next(P);
    return ir_type_var(t->sym, IR_KIND_SHAPEVAR, t->span);
  }
  if (at(P, IR_TOK_LPAREN)) {
    IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
    IrType *d = parse_dim(P);
    close_bracket(P, IR_TOK_RPAREN, o);
    return d;
  }
  if (at(P, IR_TOK_MINUS)) error_at(P, t, NULL, "a dimension cannot be negative");
  error_at(P, t, NULL, "expected a dimension (a number, a shape variable or `?`), found %s", describe(t));
}

static const IrMetaEntry *parse_meta_ref(Parser *P, Sym *kind, int64_t *index, IrSpan *span);

/* A dimension written `meta[tir.SizeVar][0]`, as TVM prints a shape variable (a tir.Var or
 * tir.SizeVar in a tensor type; ParseShape in src/relay/parser/parser.cc takes the node itself):
 * the shape variable of the node's name, which TVM's type solver binds to the dimensions it meets
 * as relay binds one (UnifyDim, src/relay/analysis/type_solver.cc). An IntImm is its number. */
static IrType *meta_dim(Parser *P) {
  Sym kind;
  int64_t index;
  IrSpan span;
  const IrMetaEntry *m = parse_meta_ref(P, &kind, &index, &span);
  if (!P->meta) {
    P->section_missing = true; /* a pasted dump's section may follow */
    error_span(P, span, "TVM prints the section with astext(show_meta_data=True)",
               "`meta[%s][%lld]` refers to a `#[metadata]` section, but this text has none", kind->name, (long long)index);
  }
  if (!m) error_span(P, span, NULL, "the metadata section has no entry %lld of `%s`", (long long)index, kind->name);
  if (m->kind == IR_META_VAR) return ir_type_var(m->var, IR_KIND_SHAPEVAR, span);
  if (m->kind == IR_META_INT && m->value >= 0) return ir_type_dim(m->value, span);
  error_span(P, span, "a dimension from the metadata is a tir.Var, a tir.SizeVar or an IntImm of 0 or more",
             "`meta[%s][%lld]` is %s %s, not a dimension", kind->name, (long long)index,
             m->kind == IR_META_INT ? "a negative" : "a", m->type_key);
}

static IrType *dimop(char op, IrType *a, IrType *b) {
  IrType *t = ir_type_new(IR_TYPE_DIMOP, ir_span_join(a->span, b->span));
  t->u.dimop.op = op;
  t->u.dimop.a = a;
  t->u.dimop.b = b;
  return t;
}

static IrType *parse_dim_product(Parser *P, int *extra) {
  IrType *d = parse_dim_atom(P);
  while (at(P, IR_TOK_STAR)) {
    next(P);
    enter(P), (*extra)++;
    d = dimop('*', d, parse_dim_atom(P));
  }
  return d;
}

/* Dimensions: n, 3, ?, n * 2, n + m - 1. */
static IrType *parse_dim(Parser *P) {
  int extra = 1;
  enter(P);
  IrType *d = parse_dim_product(P, &extra);
  while (at(P, IR_TOK_PLUS) || at(P, IR_TOK_MINUS)) {
    char op = next(P)->kind == IR_TOK_PLUS ? '+' : '-';
    enter(P), extra++;
    d = dimop(op, d, parse_dim_product(P, &extra));
  }
  P->depth -= extra;
  return d;
}

/* A shape: `(d1, d2)`, `(d)`, `()`, or a shape variable `s`. */
static IrType *parse_shape(Parser *P) {
  IrToken *t = cur(P);
  if (at(P, IR_TOK_IDENT)) {
    next(P);
    return ir_type_var(t->sym, IR_KIND_SHAPE, t->span);
  }
  IrToken *o = open_bracket(P, IR_TOK_LPAREN, "to start a shape");
  IR_VEC(IrType *) dims = {0};
  while (!at(P, IR_TOK_RPAREN)) {
    IR_VEC_PUSH(dims, parse_dim(P));
    if (!accept(P, IR_TOK_COMMA)) break;
  }
  close_list(P, IR_TOK_RPAREN, o);
  return ir_type_shape(dims.len, dims.items, span_from(P, t->span));
}

static IrType *parse_base_type(Parser *P) {
  IrToken *t = expect(P, IR_TOK_IDENT, "(a base type such as float32)");
  IrDType dt;
  if (ir_dtype_parse(t->sym->name, t->sym->len, &dt)) return ir_type_dtype(dt, t->span);
  return ir_type_var(t->sym, IR_KIND_BASETYPE, t->span);
}

/* A comma-separated list of types up to `closer`, each read by `element`. */
static IrAttrVal parse_attr_value(Parser *P);
static bool at_meta(Parser *P);
static const IrMetaEntry *parse_meta_ref(Parser *P, Sym *kind, int64_t *index, IrSpan *span);

static void parse_types_with(Parser *P, IrType *(*element)(Parser *), IrTokKind closer, const IrToken *opener,
                             int *n, IrType ***out) {
  IR_VEC(IrType *) ts = {0};
  P->type_lists++;
  while (!at(P, closer)) {
    IR_VEC_PUSH(ts, element(P));
    if (!accept(P, IR_TOK_COMMA)) break;
  }
  P->type_lists--;
  close_list(P, closer, opener);
  *n = ts.len;
  *out = ts.items;
}

static void parse_type_list(Parser *P, IrTokKind closer, const IrToken *opener, int *n, IrType ***out) {
  parse_types_with(P, parse_type, closer, opener, n, out);
}

/* `where R1, R2(t1, t2)` — or `where R1 where R2`, which also reads inside a list of types,
 * where a comma ends the relations (`fn(fn(a) -> b where R, c)` has two parameters). `where` is
 * not a keyword: it also names an operator. */
static IrType *parse_type_arg(Parser *P);

/* One relation: `Broadcast`, `Broadcast(t1, t2, t3)` or `Reduce(t1, t2, axis=[0])`. */
static IrRel parse_relation(Parser *P) {
  IrToken *t = expect(P, IR_TOK_IDENT, "(a type relation such as Broadcast)");
  IrRel r = {t->sym, -1, NULL, t->span, 0, NULL, NULL, 0};
  if (at(P, IR_TOK_LPAREN)) {
    IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
    IR_VEC(IrType *) ts = {0};
    IR_VEC(IrAttr) attrs = {0};
    P->type_lists++;
    while (!at(P, IR_TOK_RPAREN)) {
      if (at(P, IR_TOK_IDENT) && ahead(P, 1)->kind == IR_TOK_ASSIGN) { /* Reduce(t1, t2, axis=[0]) */
        IrToken *k = next(P);
        next(P);
        IrAttr a = {k->sym, parse_attr_value(P), k->span};
        a.span = span_from(P, k->span);
        IR_VEC_PUSH(attrs, a);
      } else {
        if (attrs.len) error_at(P, cur(P), NULL, "types come before the relation's attributes");
        IR_VEC_PUSH(ts, parse_type_arg(P)); /* a type, or a shape or a dimension: TupleGetItem(t, 1, r) */
      }
      if (!accept(P, IR_TOK_COMMA)) break;
    }
    P->type_lists--;
    close_list(P, IR_TOK_RPAREN, o);
    r.nargs = ts.len;
    r.args = ts.items;
    r.nattrs = attrs.len;
    r.attrs = attrs.items;
    r.span = span_from(P, t->span);
  }
  return r;
}

static void parse_relations(Parser *P, int *n, IrRel **out) {
  IR_VEC(IrRel) rels = {0};
  while (is_ident(P, "where")) {
    next(P);
    do {
      IR_VEC_PUSH(rels, parse_relation(P));
    } while (P->type_lists == 0 && at(P, IR_TOK_COMMA) && ahead(P, 1)->kind == IR_TOK_IDENT && next(P));
  }
  *n = rels.len;
  *out = rels.items;
}

static IrType *parse_type_inner(Parser *P) {
  IrToken *t = cur(P);
  if (at(P, IR_TOK_KW_FN)) {
    next(P);
    IrType *f = ir_type_new(IR_TYPE_FUNC, t->span);
    parse_tparams(P, &f->u.func.ntparams, &f->u.func.tparams);
    IrToken *o = open_bracket(P, IR_TOK_LPAREN, "to start the parameter types");
    parse_type_list(P, IR_TOK_RPAREN, o, &f->u.func.nargs, &f->u.func.args);
    expect(P, IR_TOK_ARROW, "before the result type");
    f->u.func.ret = parse_type(P);
    if (is_ident(P, "where")) parse_relations(P, &f->u.func.nrels, &f->u.func.rels);
    f->span = span_from(P, t->span);
    return f;
  }
  if (at(P, IR_TOK_LPAREN)) {
    IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
    IR_VEC(IrType *) fs = {0};
    bool comma = false;
    P->type_lists++;
    while (!at(P, IR_TOK_RPAREN)) {
      IR_VEC_PUSH(fs, parse_type(P));
      if (!(comma = accept(P, IR_TOK_COMMA))) break;
    }
    P->type_lists--;
    close_list(P, IR_TOK_RPAREN, o);
    if (fs.len == 1 && !comma) return fs.items[0]; /* (T) is T; (T,) is a 1-tuple */
    return ir_type_tuple(fs.len, fs.items, span_from(P, t->span));
  }
  if (at(P, IR_TOK_QUESTION)) {
    error_at(P, t, "for a type the checker finds, write `_` (or leave the annotation out)",
             "`?` stands for an unknown dimension, not a type");
  }
  if (!at(P, IR_TOK_IDENT)) error_at(P, t, NULL, "expected a type, found %s", describe(t));
  next(P);
  const char *name = t->sym->name;
  IrDType dt;
  if (ir_dtype_parse(name, t->sym->len, &dt)) return ir_type_scalar(dt, t->span);
  if (!strcmp(name, "Tensor")) {
    IrToken *o = open_bracket(P, IR_TOK_LBRACKET, "after Tensor");
    IrType *shape = parse_shape(P);
    expect(P, IR_TOK_COMMA, "between the shape and the base type");
    IrType *base = parse_base_type(P);
    close_bracket(P, IR_TOK_RBRACKET, o);
    return ir_type_tensor(shape, base, span_from(P, t->span));
  }
  if (!strcmp(name, "ref") && at(P, IR_TOK_LPAREN)) {
    IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
    IrType *r = ir_type_new(IR_TYPE_REF, t->span);
    r->u.ref = parse_type(P);
    close_bracket(P, IR_TOK_RPAREN, o);
    r->span = span_from(P, t->span);
    return r;
  }
  if (at(P, IR_TOK_LBRACKET)) { /* a data type's arguments: types, shapes (`Vec[(2)]`) or dimensions (`Sized[4]`) */
    IrToken *o = open_bracket(P, IR_TOK_LBRACKET, NULL);
    IrType *c = ir_type_new(IR_TYPE_CALL, t->span);
    c->u.call.name = t->sym;
    parse_types_with(P, parse_type_arg, IR_TOK_RBRACKET, o, &c->u.call.nargs, &c->u.call.args);
    c->span = span_from(P, t->span);
    return c;
  }
  return ir_type_var(t->sym, IR_KIND_TYPE, t->span);
}

static IrType *parse_type(Parser *P) {
  enter(P);
  IrType *t = parse_type_inner(P);
  leave(P);
  return t;
}

/* ---------------------------------------------------------------- patterns */

/* The number of arguments of a known constructor; -1 for a name not known as one. */
static int ctor_arity(Parser *P, Sym name) {
  void *known = ir_symmap_get(&P->ctors, name);
  if (known) return (int)((intptr_t)known - 1);
  return P->opt && P->opt->ctor_arity ? P->opt->ctor_arity(P->opt->ctx, name) : -1;
}

/* Known constructors, and any capitalised name (the checker reports an unknown one). */
static bool is_ctor_name(Parser *P, Sym name) {
  return ctor_arity(P, name) >= 0 || (isupper((unsigned char)name->name[0]) && !strchr(name->name, '.'));
}

static IrPattern *parse_pattern(Parser *P);

static void parse_pattern_list(Parser *P, IrPattern *p, const IrToken *opener, bool *comma) {
  IR_VEC(IrPattern *) args = {0};
  *comma = false;
  while (!at(P, IR_TOK_RPAREN)) {
    IR_VEC_PUSH(args, parse_pattern(P));
    if (!(*comma = accept(P, IR_TOK_COMMA))) break;
  }
  close_list(P, IR_TOK_RPAREN, opener);
  p->n = args.len;
  p->args = args.items;
}

static IrPattern *parse_pattern_inner(Parser *P) {
  IrToken *t = cur(P);
  if (at(P, IR_TOK_LOCAL)) {
    next(P);
    IrPattern *p = ir_pattern_new(IR_PAT_VAR, t->span);
    p->name = t->sym;
    if (accept(P, IR_TOK_COLON)) { /* TVM's `Cons(%h : int32, _)` */
      p->ann = parse_type(P);
      p->span = span_from(P, t->span);
    }
    return p;
  }
  if (at(P, IR_TOK_LPAREN)) { /* a tuple pattern; `(p)` is a 1-tuple, as TVM reads it */
    IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
    IrPattern *p = ir_pattern_new(IR_PAT_TUPLE, t->span);
    bool comma;
    parse_pattern_list(P, p, o, &comma);
    p->span = span_from(P, t->span);
    return p;
  }
  if (is_ident(P, "_")) {
    next(P);
    return ir_pattern_new(IR_PAT_WILD, t->span);
  }
  if (at(P, IR_TOK_IDENT)) {
    if (!is_ctor_name(P, t->sym)) {
      const char *hint = ir_printf("a pattern variable needs `%%`: write `%%%s`", t->sym->name);
      error_at(P, t, hint, "`%s` is not a constructor", t->sym->name);
    }
    next(P);
    IrPattern *p = ir_pattern_new(IR_PAT_CTOR, t->span);
    p->name = t->sym;
    if (at(P, IR_TOK_LPAREN)) {
      IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
      bool comma;
      parse_pattern_list(P, p, o, &comma);
      p->span = span_from(P, t->span);
    }
    return p;
  }
  error_at(P, t, t->kind == IR_TOK_QUESTION ? "a hole `?` stands for an expression; in a pattern, `_` matches anything" : NULL,
           "expected a pattern (a constructor, `%%x`, `_` or a tuple), found %s", describe(t));
}

static IrPattern *parse_pattern(Parser *P) {
  enter(P);
  IrPattern *p = parse_pattern_inner(P);
  leave(P);
  return p;
}

/* ---------------------------------------------------------------- expressions */

static IrExpr *parse_seq(Parser *P);
static IrExpr *parse_expr(Parser *P);

static IrExpr *parse_block(Parser *P, const char *what) {
  IrToken *o = open_bracket(P, IR_TOK_LBRACE, what);
  IrExpr *e = parse_seq(P);
  close_bracket(P, IR_TOK_RBRACE, o);
  return e;
}

static IrAttr parse_attr(Parser *P, Seen *before);

/* The parameters, then any attributes: `(%p0 : T, %p1, Primitive=1, Composite="x")`. */
static void parse_params(Parser *P, IrFn *fn) {
  IrToken *o = open_bracket(P, IR_TOK_LPAREN, "to start the parameters");
  IR_VEC(IrParam) ps = {0};
  IR_VEC(IrAttr) attrs = {0};
  Seen seen = {0}, seen_attrs = {0};
  while (!at(P, IR_TOK_RPAREN)) {
    if (at(P, IR_TOK_IDENT) && ahead(P, 1)->kind == IR_TOK_ASSIGN) {
      IrAttr a = parse_attr(P, &seen_attrs);
      IR_VEC_PUSH(attrs, a);
      if (!accept(P, IR_TOK_COMMA)) break;
      continue;
    }
    if (attrs.len && at(P, IR_TOK_LOCAL)) error_at(P, cur(P), NULL, "parameters come before the function's attributes");
    if (at(P, IR_TOK_IDENT))
      error_at(P, cur(P), ir_printf("write `%%%s`", cur(P)->sym->name), "a parameter name needs `%%`");
    IrToken *t = expect(P, IR_TOK_LOCAL, "(a parameter such as %x)");
    IrParam p = {t->sym, NULL, t->span, 0, NULL};
    if (at(P, IR_TOK_LBRACE)) { /* TVM's `%x {virtual_device=meta[VirtualDevice][0]}: T` */
      IrToken *ob = open_bracket(P, IR_TOK_LBRACE, NULL);
      IR_VEC(IrAttr) pa = {0};
      Seen seen_pa = {0};
      while (at(P, IR_TOK_IDENT) && ahead(P, 1)->kind == IR_TOK_ASSIGN) {
        IrAttr a = parse_attr(P, &seen_pa);
        IR_VEC_PUSH(pa, a);
        if (!accept(P, IR_TOK_COMMA)) break;
      }
      close_list(P, IR_TOK_RBRACE, ob);
      p.nattrs = pa.len;
      p.attrs = pa.items;
    }
    if (seen_before(&seen, t->sym)) error_at(P, t, NULL, "parameter `%%%s` is declared twice", t->sym->name);
    if (accept(P, IR_TOK_COLON)) p.ann = parse_type(P);
    IR_VEC_PUSH(ps, p);
    if (!accept(P, IR_TOK_COMMA)) break;
  }
  close_list(P, IR_TOK_RPAREN, o);
  fn->nparams = ps.len;
  fn->params = ps.items;
  fn->nattrs = attrs.len;
  fn->attrs = attrs.items;
}

/* After the name of a def or the `fn` keyword: type parameters, parameters, result, relations,
 * body. */
static void parse_fn_rest(Parser *P, IrFn *fn) {
  parse_tparams(P, &fn->ntparams, &fn->tparams);
  parse_params(P, fn);
  if (at(P, IR_TOK_COLON))
    error_at(P, cur(P), "a result type is written `-> T`", "expected `->` before the result type, found `:`");
  if (accept(P, IR_TOK_ARROW)) fn->ret = parse_type(P);
  if (is_ident(P, "where")) parse_relations(P, &fn->nrels, &fn->rels);
  fn->body = parse_block(P, "to start the function body");
}

static IrExpr *parse_fn(Parser *P) {
  IrToken *t = next(P);
  IrExpr *e = ir_expr_new(IR_EXPR_FN, t->span);
  parse_fn_rest(P, &e->u.fn);
  e->span = span_from(P, t->span);
  return e;
}

static IrExpr *parse_if(Parser *P) {
  IrToken *t = next(P);
  IrExpr *e = ir_expr_new(IR_EXPR_IF, t->span);
  const IrToken *outer = P->cond_paren;
  P->cond_paren = at(P, IR_TOK_LPAREN) ? cur(P) : NULL;
  e->u.ifx.cond = parse_expr(P);
  P->cond_paren = outer;
  if (at(P, IR_TOK_ASSIGN)) assignment_in_condition(P, cur(P), e->u.ifx.cond->span, (IrSpan){0}); /* if %x = 1 { */
  e->u.ifx.then = parse_block(P, "to start the `then` branch");
  if (!at(P, IR_TOK_KW_ELSE))
    error_at(P, cur(P), "every `if` is an expression, so it needs an `else { ... }` branch",
             "expected `else`, found %s", describe(cur(P)));
  next(P);
  if (at(P, IR_TOK_KW_IF)) {
    enter(P);
    e->u.ifx.els = parse_if(P);
    leave(P);
  } else {
    e->u.ifx.els = parse_block(P, "to start the `else` branch");
  }
  e->span = span_from(P, t->span);
  return e;
}

static IrExpr *parse_match(Parser *P) {
  IrToken *t = next(P);
  IrExpr *e = ir_expr_new(IR_EXPR_MATCH, t->span);
  e->u.match.partial = t->kind == IR_TOK_KW_MATCHQ;
  e->u.match.scrut = parse_expr(P);
  IrToken *o = open_bracket(P, IR_TOK_LBRACE, "to start the match clauses");
  IR_VEC(IrClause) cs = {0};
  while (!at(P, IR_TOK_RBRACE)) {
    IrClause c;
    if (accept(P, IR_TOK_KW_CASE)) { /* seed spelling: case P { e } */
      c.pat = parse_pattern(P);
      if (at(P, IR_TOK_FATARROW)) {
        next(P);
        c.body = at(P, IR_TOK_LBRACE) ? parse_block(P, NULL) : parse_seq(P);
      } else {
        c.body = parse_block(P, "to start the clause body");
      }
    } else { /* TVM spelling: P => e, */
      c.pat = parse_pattern(P);
      expect(P, IR_TOK_FATARROW, "after the pattern");
      c.body = at(P, IR_TOK_LBRACE) ? parse_block(P, NULL) : parse_seq(P); /* `P => %0 = e; f(%0),` */
    }
    IR_VEC_PUSH(cs, c);
    accept(P, IR_TOK_COMMA);
  }
  if (cs.len == 0) error_at(P, cur(P), NULL, "a match needs at least one clause");
  close_bracket(P, IR_TOK_RBRACE, o);
  e->u.match.nclauses = cs.len;
  e->u.match.clauses = cs.items;
  e->span = span_from(P, t->span);
  return e;
}

static IrAttrVal parse_attr_value(Parser *P) {
  IrToken *t = cur(P);
  IrAttrVal v = {.span = t->span};
  enter(P);
  if (at(P, IR_TOK_LBRACKET) || at(P, IR_TOK_LPAREN)) {
    IrTokKind closer = at(P, IR_TOK_LBRACKET) ? IR_TOK_RBRACKET : IR_TOK_RPAREN;
    IrToken *o = open_bracket(P, cur(P)->kind, NULL);
    IR_VEC(IrAttrVal) items = {0};
    while (!at(P, closer)) {
      IR_VEC_PUSH(items, parse_attr_value(P));
      if (!accept(P, IR_TOK_COMMA)) break;
    }
    close_list(P, closer, o);
    v.kind = IR_ATTR_LIST;
    v.n = items.len;
    v.items = items.items;
  } else if (at(P, IR_TOK_STRING)) {
    next(P);
    v.kind = IR_ATTR_STR;
    v.str = t->str->name;
    v.len = t->slen;
  } else if (is_ident(P, "None") || is_ident(P, "nullptr")) {
    next(P);
    v.kind = IR_ATTR_NONE;
  } else if (at_meta(P)) { /* `virtual_device=meta[VirtualDevice][0]`: kept as written */
    IrSpan span;
    parse_meta_ref(P, &v.meta_kind, &v.meta_index, &span);
    v.kind = IR_ATTR_META;
  } else if (parse_literal(P, &v.lit, &v.span)) {
    v.kind = IR_ATTR_LIT;
  } else if (at(P, IR_TOK_IDENT)) { /* dtype=float32 reads as dtype="float32" */
    next(P);
    v.kind = IR_ATTR_STR;
    v.str = t->sym->name;
    v.len = t->sym->len;
  } else {
    error_at(P, t, "attributes are constants: numbers, booleans, strings, None and lists of them",
             "expected an attribute value, found %s", describe(t));
  }
  leave(P);
  v.span = span_from(P, t->span);
  return v;
}

/* `key=value`, not given before. */
static IrAttr parse_attr(Parser *P, Seen *before) {
  IrToken *k = next(P);
  next(P);
  if (seen_before(before, k->sym)) error_at(P, k, NULL, "attribute `%s` is given twice", k->sym->name);
  IrAttr a = {k->sym, parse_attr_value(P), k->span};
  a.span = span_from(P, k->span);
  return a;
}

/* Whether `meta[` starts here. */
static bool at_meta(Parser *P) { return is_ident(P, "meta") && ahead(P, 1)->kind == IR_TOK_LBRACKET; }

/* `meta[KIND][i]`, and the metadata entry it names (NULL when there is none). */
static const IrMetaEntry *parse_meta_ref(Parser *P, Sym *kind, int64_t *index, IrSpan *span) {
  P->saw_meta = true;
  IrToken *t = next(P);
  IrToken *o = open_bracket(P, IR_TOK_LBRACKET, NULL);
  *kind = expect(P, IR_TOK_IDENT, "(the kind of metadata, such as relay.Constant)")->sym;
  close_bracket(P, IR_TOK_RBRACKET, o);
  o = open_bracket(P, IR_TOK_LBRACKET, "before the index");
  IrToken *n = expect(P, IR_TOK_NUMBER, "(the index)");
  if (n->lit.kind != IR_LIT_INT || n->lit.suffixed || n->lit.mag > (uint64_t)INT64_MAX)
    error_at(P, n, NULL, "a metadata index is a whole number");
  close_bracket(P, IR_TOK_RBRACKET, o);
  *index = (int64_t)n->lit.mag;
  *span = span_from(P, t->span);
  return ir_meta_get(P->meta, (*kind)->name, *index);
}

/* A call's attributes given as `meta[relay.attrs.Conv2DAttrs][0]` (TVM does so in some programs): the
 * entry's fields, but those the operator does not take and that hold nothing (TVM's internal ones,
 * such as an empty auto_scheduler_rewritten_layout); the checker reports any other it does not take. */
static void meta_attrs(Parser *P, const IrExpr *callee, IrAttr **out, int *n) {
  Sym kind;
  int64_t index;
  IrSpan span;
  const IrMetaEntry *m = parse_meta_ref(P, &kind, &index, &span);
  if (!m && P->meta) error_span(P, span, NULL, "the metadata section has no entry %lld of `%s`", (long long)index, kind->name);
  if (!m) P->section_missing = true; /* a pasted dump's section may follow */
  if (!m)
    error_span(P, span, "TVM prints the section with astext(show_meta_data=True)",
               "`meta[%s][%lld]` refers to a `#[metadata]` section, but this text has none", kind->name, (long long)index);
  if (m->kind != IR_META_ATTRS) error_span(P, span, NULL, "`meta[%s][%lld]` is not a set of attributes", kind->name, (long long)index);
  const char *accepted = callee->kind == IR_EXPR_OP ? ir_ops[callee->u.op].attrs : "";
  IR_VEC(IrAttr) kept = {0};
  for (int i = 0; i < m->nattrs; i++) {
    IrAttr a = m->attrs[i];
    a.span = a.val.span = span;
    const char *w = strstr(accepted, a.key->name);
    size_t kl = strlen(a.key->name);
    bool takes = w && (w == accepted || w[-1] == ' ') && (w[kl] == 0 || w[kl] == ' ' || w[kl] == '!');
    bool empty = a.val.kind == IR_ATTR_NONE || (a.val.kind == IR_ATTR_STR && a.val.len == 0) ||
                 (a.val.kind == IR_ATTR_LIST && a.val.n == 0);
    if (takes || !empty) IR_VEC_PUSH(kept, a);
  }
  *out = kept.items;
  *n = kept.len;
}

static IrExpr *parse_call(Parser *P, IrExpr *callee, int ntargs, IrType **targs) {
  IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
  IrExpr *e = ir_expr_new(IR_EXPR_CALL, callee->span);
  IR_VEC(IrExpr *) args = {0};
  IR_VEC(IrAttr) attrs = {0};
  Seen seen_attrs = {0};
  while (!at(P, IR_TOK_RPAREN)) {
    if (at(P, IR_TOK_IDENT) && ahead(P, 1)->kind == IR_TOK_ASSIGN) {
      IrAttr a = parse_attr(P, &seen_attrs);
      IR_VEC_PUSH(attrs, a);
    } else if (at_meta(P) && !attrs.len && cur(P)[1].kind == IR_TOK_LBRACKET && cur(P)[2].kind == IR_TOK_IDENT &&
               !strncmp(cur(P)[2].sym->name, "relay.attrs.", 12)) {
      IrAttr *ma;
      int nma;
      meta_attrs(P, callee, &ma, &nma);
      for (int i = 0; i < nma; i++) IR_VEC_PUSH(attrs, ma[i]);
      if (!at(P, IR_TOK_RPAREN) && !(at(P, IR_TOK_COMMA) && ahead(P, 1)->kind == IR_TOK_RPAREN))
        error_at(P, cur(P), NULL, "a call's `meta[relay.attrs...]` attributes come last");
    } else {
      if (attrs.len) error_at(P, cur(P), NULL, "positional arguments come before keyword attributes");
      IR_VEC_PUSH(args, parse_seq(P));
    }
    if (!accept(P, IR_TOK_COMMA)) break;
  }
  close_list(P, IR_TOK_RPAREN, o);
  e->u.call.callee = callee;
  e->u.call.ntargs = ntargs;
  e->u.call.targs = targs;
  e->u.call.nargs = args.len;
  e->u.call.args = args.items;
  e->u.call.nattrs = attrs.len;
  e->u.call.attrs = attrs.items;
  e->span = span_from(P, callee->span);
  return e;
}

/* Whether a dimension starts here that could not be read as a type: a number, `?`, `Any`, or a
 * name followed by arithmetic. */
static bool starts_dim(Parser *P) {
  if (at(P, IR_TOK_NUMBER) || at(P, IR_TOK_QUESTION) || is_ident(P, "Any")) return true;
  IrTokKind k = ahead(P, 1)->kind;
  return at(P, IR_TOK_IDENT) && (k == IR_TOK_PLUS || k == IR_TOK_MINUS || k == IR_TOK_STAR);
}

/* A type argument is a type, or a shape for a parameter of kind Shape: `@plus<(10, 10)>(...)`.
 * A parenthesised list is a shape when one of its elements is a dimension that cannot be a type;
 * `(n, m)` stays a tuple type, which the checker reads as a shape where the kind asks for one.
 * `(n)` is the shape of rank 1 (as `Vec[(n)]` prints), which the checker reads as the type `n`
 * where the kind is Type (in a type, `(T)` is T). */
static IrType *parse_type_arg(Parser *P) {
  if (starts_dim(P)) return parse_dim(P); /* a dimension for a ShapeVar parameter: @rows<5> */
  if (!at(P, IR_TOK_LPAREN)) return parse_type(P);
  int saved = P->pos;
  IrToken *t = cur(P);
  IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
  IR_VEC(IrType *) dims = {0};
  bool shape = false, comma = false;
  while (!at(P, IR_TOK_RPAREN)) {
    bool dim = starts_dim(P);
    shape |= dim;
    IR_VEC_PUSH(dims, dim ? parse_dim(P) : parse_type(P));
    if (!(comma = accept(P, IR_TOK_COMMA))) break;
  }
  close_list(P, IR_TOK_RPAREN, o);
  if (!shape && !comma && dims.len == 1 && dims.items[0]->kind == IR_TYPE_VAR) { /* `(n)` */
    dims.items[0]->u.var.kind = IR_KIND_SHAPEVAR;
    return ir_type_shape(1, dims.items, span_from(P, t->span));
  }
  if (!shape) { /* read it again as an ordinary type */
    P->pos = saved;
    return parse_type(P);
  }
  for (int i = 0; i < dims.len; i++) {
    IrType *d = dims.items[i];
    if (d->kind == IR_TYPE_VAR) d->u.var.kind = IR_KIND_SHAPEVAR;
    else if (d->kind != IR_TYPE_DIM && d->kind != IR_TYPE_ANY && d->kind != IR_TYPE_DIMOP)
      error_span(P, d->span, NULL, "a shape's dimensions are numbers, names or `?`");
  }
  return ir_type_shape(dims.len, dims.items, span_from(P, t->span));
}

/* `@f<int32, bool>(...)`: tried only after a global or a constructor, and given up (without an
 * error) when what follows `<` is not a type list closed by `>` and followed by `(`. */
static bool try_type_args(Parser *P, int *n, IrType ***out) {
  if (!at(P, IR_TOK_LT) || cur(P)->space_before) return false;
  int saved_pos = P->pos, saved_nest = P->nest, saved_depth = P->depth;
  bool saved_spec = P->speculating;
  jmp_buf here, *saved_fail = P->fail;
  P->fail = &here;
  P->speculating = true;
  bool ok = false;
  if (!setjmp(here)) {
    IrToken *o = open_bracket(P, IR_TOK_LT, NULL);
    parse_types_with(P, parse_type_arg, IR_TOK_GT, o, n, out);
    ok = at(P, IR_TOK_LPAREN);
  }
  P->fail = saved_fail;
  P->speculating = saved_spec;
  P->depth = saved_depth;
  if (!ok) {
    P->pos = saved_pos;
    P->nest = saved_nest;
    P->type_lists = 0;
  }
  return ok;
}

/* Whether try_type_args would take what follows; nothing is consumed. */
static bool type_args_follow(Parser *P) {
  int pos = P->pos, nest = P->nest, lists = P->type_lists, n;
  IrType **args;
  bool ok = try_type_args(P, &n, &args);
  P->pos = pos, P->nest = nest, P->type_lists = lists;
  return ok;
}

static IrExpr *parse_fill(Parser *P, IrToken *t) {
  IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
  IrExpr *e = ir_expr_new(IR_EXPR_FILL, t->span);
  IrSpan ls;
  if (!parse_literal(P, &e->u.fill.value, &ls))
    error_at(P, cur(P), NULL, "Constant's first argument is its value, a literal; found %s", describe(cur(P)));
  expect(P, IR_TOK_COMMA, "after the value");
  IrToken *so = open_bracket(P, IR_TOK_LPAREN, "to start the shape, as in (10, 10)");
  IR_VEC(int64_t) dims = {0};
  while (!at(P, IR_TOK_RPAREN)) {
    IrToken *d = expect(P, IR_TOK_NUMBER, "(a dimension)");
    check_dimension(P, d);
    IR_VEC_PUSH(dims, (int64_t)d->lit.mag);
    if (!accept(P, IR_TOK_COMMA)) break;
  }
  close_list(P, IR_TOK_RPAREN, so);
  expect(P, IR_TOK_COMMA, "after the shape");
  IrToken *dt = expect(P, IR_TOK_IDENT, "(a dtype such as float32)");
  if (!ir_dtype_parse(dt->sym->name, dt->sym->len, &e->u.fill.dtype))
    error_at(P, dt, NULL, "`%s` is not a dtype", dt->sym->name);
  close_bracket(P, IR_TOK_RPAREN, o);
  e->u.fill.rank = dims.len;
  e->u.fill.shape = dims.items;
  e->span = span_from(P, t->span);
  return e;
}

/* ref(e), ref_read(r), ref_write(r, v) */
static IrExpr *parse_ref(Parser *P, IrToken *t, IrExprKind kind, int nargs) {
  IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
  IrExpr *e = ir_expr_new(kind, t->span);
  e->u.ref.a = parse_seq(P);
  if (nargs == 2) {
    expect(P, IR_TOK_COMMA, "between the reference and the new value");
    e->u.ref.b = parse_seq(P);
  }
  accept(P, IR_TOK_COMMA);
  if (!at(P, IR_TOK_RPAREN))
    error_at(P, cur(P), NULL, "`%s` takes %d argument%s", t->sym->name, nargs, nargs == 1 ? "" : "s");
  close_bracket(P, IR_TOK_RPAREN, o);
  e->span = span_from(P, t->span);
  return e;
}

static IrExpr *parse_name(Parser *P) {
  IrToken *t = next(P);
  Sym s = t->sym;
  bool call = at(P, IR_TOK_LPAREN) && !item_ends_here(P); /* `Constant` then `(...)` on a new line: two items */
  if (!strcmp(s->name, "True") || !strcmp(s->name, "False")) {
    P->pos--;
    IrExpr *e = ir_expr_new(IR_EXPR_LIT, t->span);
    parse_literal(P, &e->u.lit, &e->span);
    return e;
  }
  if (call && !strcmp(s->name, "Constant")) return parse_fill(P, t);
  /* ref, ref_read and ref_write are never values alone: their `(` may stand on the next line, and
   * at the end of the text they wait for it (the prompt reads another line). */
  static const struct {
    const char *name;
    IrExprKind kind;
    int nargs;
  } refs[] = {{"ref", IR_EXPR_REF, 1}, {"ref_read", IR_EXPR_REF_READ, 1}, {"ref_write", IR_EXPR_REF_WRITE, 2}};
  for (size_t i = 0; i < sizeof refs / sizeof *refs; i++) {
    if (strcmp(s->name, refs[i].name)) continue;
    if (at(P, IR_TOK_LPAREN)) return parse_ref(P, t, refs[i].kind, refs[i].nargs);
    if (at(P, IR_TOK_EOF)) error_at(P, cur(P), NULL, "expected `(` after `%s`, found end of input", s->name);
  }
  int op = ir_op_lookup(s->name, s->len);
  if (op >= 0) {
    IrExpr *e = ir_expr_new(IR_EXPR_OP, t->span);
    e->u.op = op;
    return e;
  }
  if (is_ctor_name(P, s)) {
    IrExpr *e = ir_expr_new(IR_EXPR_CTOR, t->span);
    e->u.name = s;
    /* A known nullary constructor written bare (TVM's `Nil`) is the value `Nil()`; not when type
     * arguments follow (`Nil<int32>()`), but so when a `<` that is not theirs does (`Nil<()`). */
    if (ctor_arity(P, s) == 0 && !call && !type_args_follow(P)) {
      IrExpr *c = ir_expr_new(IR_EXPR_CALL, t->span);
      c->u.call.callee = e;
      return c;
    }
    return e;
  }
  if (!strcmp(s->name, "meta") && at(P, IR_TOK_LBRACKET)) {
    P->pos--;
    IrExpr *e = ir_expr_new(IR_EXPR_META, t->span);
    e->u.meta.entry = parse_meta_ref(P, &e->u.meta.kind, &e->u.meta.index, &e->span);
    if (!e->u.meta.entry && P->meta)
      error_span(P, e->span, NULL, "the metadata section has no entry %lld of `%s`", (long long)e->u.meta.index,
                 e->u.meta.kind->name);
    return e;
  }
  if (!strcmp(s->name, "return")) { /* `{ ...; return %x }` */
    const IrToken *v = cur(P);
    bool alone = is_one_token_arg(v) && !v->nl_before &&
                 (v[1].kind == IR_TOK_RBRACE || v[1].kind == IR_TOK_SEMI || v[1].kind == IR_TOK_EOF);
    const char *hint = alone ? ir_printf("write `%.*s` alone, without `return`", (int)v->span.len,
                                         v->span.src->text + v->span.off)
                             : "drop `return` and end the block with the value";
    error_at(P, t, hint, "Relay has no `return`: a block's value is its last expression");
  }
  if (!strcmp(s->name, "while"))
    error_at(P, t,
             "a function that calls itself as its last step runs as a loop: "
             "`def @count(%i : int32) -> int32 { if (%i < 10) { @count(%i + 1) } else { %i } }`",
             "Relay has no `while` loop: repeat with a function that calls itself");
  if (!strcmp(s->name, "for")) for_loop(P, t);
  if (!strcmp(s->name, "lambda") || !strcmp(s->name, "fun"))
    error_at(P, t, "write `fn (%x) { ... }`", "Relay has no `%s`: a function is written with `fn`", s->name);
  const char *hint = ir_printf("a global function is written `@%s`, a local variable `%%%s`", s->name, s->name);
  error_at(P, t, hint, "unknown operator `%s`", s->name);
}

static IrExpr *parse_paren(Parser *P) {
  IrToken *t = cur(P);
  IrToken *o = open_bracket(P, IR_TOK_LPAREN, NULL);
  bool cond = t == P->cond_paren;
  if (cond && at(P, IR_TOK_LPAREN)) P->cond_paren = cur(P); /* if ((%x = 1)): the inner ones hold it too */
  IR_VEC(IrExpr *) fs = {0};
  bool comma = false;
  while (!at(P, IR_TOK_RPAREN)) {
    IR_VEC_PUSH(fs, parse_seq(P));
    if (cond && at(P, IR_TOK_ASSIGN)) /* if (%x + 1 = 2) */
      assignment_in_condition(P, cur(P), fs.items[fs.len - 1]->span, (IrSpan){0});
    if (!(comma = accept(P, IR_TOK_COMMA))) break;
  }
  close_list(P, IR_TOK_RPAREN, o);
  if (fs.len == 1 && !comma) return fs.items[0];
  IrExpr *e = ir_expr_new(IR_EXPR_TUPLE, span_from(P, t->span));
  e->u.tuple.n = fs.len;
  e->u.tuple.fields = fs.items;
  return e;
}

/* A typed hole: `?`, or `?name` with the name right after the `?` (`? x` is a hole, then `x`). In
 * types `?` is a dimension and `match?` is one token, so only an expression's `?` gets here. */
static IrExpr *parse_hole(Parser *P) {
  IrToken *q = next(P);
  IrExpr *e = ir_expr_new(IR_EXPR_HOLE, q->span);
  if (at(P, IR_TOK_IDENT) && !cur(P)->space_before) {
    IrToken *n = next(P);
    if (strchr(n->sym->name, '.'))
      error_at(P, n, "a hole's name is letters, digits and `_`, as in `?w1`",
               "`%s` cannot name a hole", n->sym->name);
    e->u.name = n->sym;
    e->span = span_from(P, q->span);
  } else if (cur(P)->kind >= IR_TOK_KW_DEF && cur(P)->kind <= IR_TOK_KW_CASE && !cur(P)->space_before) {
    /* a keyword: token.def lists them together */
    error_at(P, cur(P), "a hole is named by `?` and a name that is no keyword, as in `?w1`",
             "`%s` is a keyword, so it cannot name a hole", cur(P)->sym->name);
  } else if (at(P, IR_TOK_QUESTION) && !cur(P)->space_before) {
    error_at(P, cur(P), "a hole is one `?`, or `?name`", "`??` is not a hole");
  } else if (at(P, IR_TOK_NUMBER) && !cur(P)->space_before) {
    error_at(P, cur(P), "a hole's name starts with a letter or `_`, as in `?w1`", "%s cannot name a hole",
             describe(cur(P)));
  }
  return e;
}

static IrExpr *parse_primary(Parser *P) {
  IrToken *t = cur(P);
  switch (t->kind) {
  case IR_TOK_LOCAL: {
    next(P);
    IrExpr *e = ir_expr_new(IR_EXPR_LOCAL, t->span);
    e->u.name = t->sym;
    e->graph_value = ir_symmap_get(&P->graph, t->sym);
    return e;
  }
  case IR_TOK_GLOBAL: {
    next(P);
    IrExpr *e = ir_expr_new(IR_EXPR_GLOBAL, t->span);
    e->u.name = t->sym;
    return e;
  }
  case IR_TOK_MINUS: /* only reached before a number: parse_unary takes the other cases */
  case IR_TOK_NUMBER: {
    IrExpr *e = ir_expr_new(IR_EXPR_LIT, t->span);
    parse_literal(P, &e->u.lit, &e->span);
    return e;
  }
  case IR_TOK_IDENT: return parse_name(P);
  case IR_TOK_LPAREN: return parse_paren(P);
  case IR_TOK_LBRACKET: return parse_tensor_literal(P);
  case IR_TOK_LBRACE: return parse_block(P, NULL);
  case IR_TOK_KW_FN: return parse_fn(P);
  case IR_TOK_KW_IF: return parse_if(P);
  case IR_TOK_KW_MATCH:
  case IR_TOK_KW_MATCHQ: return parse_match(P);
  case IR_TOK_KW_LET: return parse_seq(P);
  case IR_TOK_QUESTION: return parse_hole(P);
  case IR_TOK_STRING: error_at(P, t, NULL, "strings are only used as attribute values, as in dtype=\"int64\"");
  case IR_TOK_PERCENT:
    error_at(P, t, "a local variable's name follows `%` directly, as in `%x`",
             "expected an expression, found `%%`");
  default: break;
  }
  if (t->kind == IR_TOK_EOF) error_at(P, t, NULL, "expected an expression, found end of input");
  error_at(P, t, NULL, "expected an expression, found %s", describe(t));
}

static IrExpr *parse_postfix(Parser *P) {
  IrExpr *e = parse_primary(P);
  int extra = 0;
  for (;;) {
    int ntargs = 0;
    IrType **targs = NULL;
    bool poly = e->kind == IR_EXPR_GLOBAL || e->kind == IR_EXPR_CTOR;
    if (poly && try_type_args(P, &ntargs, &targs)) {
      enter(P), extra++;
      e = parse_call(P, e, ntargs, targs);
    } else if (at(P, IR_TOK_LPAREN) && !item_ends_here(P)) {
      enter(P), extra++;
      e = parse_call(P, e, 0, NULL);
    } else if (at(P, IR_TOK_DOT) && ahead(P, 1)->kind == IR_TOK_NUMBER) {
      next(P);
      IrToken *n = next(P);
      if (n->lit.kind != IR_LIT_INT || n->lit.suffixed || n->lit.mag > INT32_MAX)
        error_at(P, n, NULL, "a tuple index is a plain whole number");
      enter(P), extra++;
      IrExpr *p = ir_expr_new(IR_EXPR_PROJ, span_from(P, e->span));
      p->u.proj.tuple = e;
      p->u.proj.index = (int)n->lit.mag;
      e = p;
    } else if (indexing_follows(P)) {
      indexing(P, e);
    } else if (at(P, IR_TOK_DOT)) {
      error_at(P, ahead(P, 1), "project a tuple field with its index, as in `%t.0`",
               "expected a field index after `.`, found %s", describe(ahead(P, 1)));
    } else {
      break;
    }
  }
  P->depth -= extra;
  return e;
}

static IrExpr *call_op(IrOpId op, IrSpan span, int nargs, IrExpr *a, IrExpr *b) {
  IrExpr *callee = ir_expr_new(IR_EXPR_OP, span);
  callee->u.op = op;
  IrExpr *e = ir_expr_new(IR_EXPR_CALL, span);
  e->u.call.callee = callee;
  e->u.call.nargs = nargs;
  e->u.call.args = IR_NEW_ARRAY(IrExpr *, nargs);
  e->u.call.args[0] = a;
  if (nargs == 2) e->u.call.args[1] = b;
  return e;
}

static IrExpr *parse_unary(Parser *P) {
  IrToken *t = cur(P);
  if ((at(P, IR_TOK_MINUS) && ahead(P, 1)->kind != IR_TOK_NUMBER) || at(P, IR_TOK_BANG)) {
    next(P);
    enter(P);
    IrExpr *a = parse_unary(P);
    leave(P);
    const IrInfix *fix = ir_infix_of(t->kind == IR_TOK_MINUS ? IR_OP_NEGATIVE : IR_OP_LOGICAL_NOT, 1);
    IrExpr *e = call_op(fix->op, t->span, 1, a, NULL);
    e->span = span_from(P, t->span); /* `-(a + b)`: up to its `)` */
    e->u.call.callee->span = t->span;
    return e;
  }
  return parse_postfix(P);
}

static const IrInfix *binary_here(Parser *P) {
  IrToken *t = cur(P);
  if (t->kind == IR_TOK_MINUS && item_ends_here(P)) return NULL;
  /* The sugar table is keyed by spelling; no name, number or string is spelled like an operator. */
  return ir_infix_binary(t->span.src->text + t->span.off, t->span.len);
}

/* Precedence climbing over the sugar table: all binary operators are left-associative. */
static IrExpr *parse_binary(Parser *P, int min_prec) {
  IrSpan start = cur(P)->span; /* `(a - b) / c` starts at its `(`: the operands' spans leave out their brackets */
  IrExpr *left = parse_unary(P);
  int extra = 0;
  for (const IrInfix *op; (op = binary_here(P)) && op->prec >= min_prec;) {
    IrToken *t = next(P);
    enter(P), extra++;
    IrExpr *right = parse_binary(P, op->prec + 1);
    IrExpr *e = call_op(op->op, t->span, 2, left, right);
    e->span = span_from(P, start);
    left = e;
  }
  P->depth -= extra;
  return left;
}

static IrExpr *parse_expr(Parser *P) {
  enter(P);
  IrExpr *e = parse_binary(P, IR_PREC_OR);
  leave(P);
  return e;
}

/* A sequence: `let` bindings, graph bindings and `a; b`, then a final expression. Built with a
 * loop, not recursion, so that long binding chains cost no stack. */
static IrExpr *parse_seq(Parser *P) {
  IrExpr *first = NULL, *last = NULL;
  for (;;) {
    poll_interrupt(P);
    IrToken *t = cur(P);
    IrExpr *let = NULL;
    if (is_ident(P, "free_var") && ahead(P, 1)->kind == IR_TOK_LOCAL) { /* TVM's `free_var %x: T;` */
      next(P);
      IrToken *v = next(P);
      let = ir_expr_new(IR_EXPR_LET, t->span);
      let->u.let.how = IR_LET_PLAIN;
      let->u.let.var = (IrParam){v->sym, NULL, v->span, 0, NULL};
      if (accept(P, IR_TOK_COLON)) let->u.let.var.ann = parse_type(P);
      let->u.let.value = ir_expr_new(IR_EXPR_FREE, span_from(P, t->span));
      let->u.let.value->u.name = v->sym;
    } else if (at(P, IR_TOK_KW_LET)) {
      next(P);
      if (at(P, IR_TOK_IDENT))
        error_at(P, cur(P), ir_printf("write `%%%s`", cur(P)->sym->name), "a let-bound name needs `%%`");
      IrToken *v = expect(P, IR_TOK_LOCAL, "(the variable to bind)");
      let = ir_expr_new(IR_EXPR_LET, t->span);
      let->u.let.how = IR_LET_PLAIN;
      let->u.let.var = (IrParam){v->sym, NULL, v->span, 0, NULL};
      if (accept(P, IR_TOK_COLON)) let->u.let.var.ann = parse_type(P);
      expect(P, IR_TOK_ASSIGN, "after the variable");
      let->u.let.value = parse_expr(P);
      /* a file's `let %w = 5` alone on its line: a session binding, which only the REPL's prompt makes */
      if (!at(P, IR_TOK_SEMI) && P->toplevel && P->nest == 0 && !(P->opt && P->opt->session_lets) &&
          (at(P, IR_TOK_EOF) || cur(P)->nl_before))
        error_at(P, cur(P),
                 "in a file, a `let` needs `;` and then the expression that uses it; "
                 "a `let` alone on its line binds a name only at the prompt",
                 "expected `;` after the bound value, found %s", describe(cur(P)));
    } else if (at(P, IR_TOK_LOCAL) && ahead(P, 1)->kind == IR_TOK_ASSIGN) {
      IrToken *v = next(P);
      next(P);
      let = ir_expr_new(IR_EXPR_LET, t->span);
      let->u.let.how = IR_LET_GRAPH;
      let->u.let.var = (IrParam){v->sym, NULL, v->span, 0, NULL};
      let->u.let.value = parse_expr(P);
      if (P->cond_paren && v == P->cond_paren + 1 && at(P, IR_TOK_RPAREN)) /* if (%x = 1) */
        assignment_in_condition(P, v + 1, v->span, let->u.let.value->span);
      ir_symmap_put(&P->graph, v->sym, let->u.let.value);
    } else {
      IrExpr *e = parse_expr(P);
      if (!at(P, IR_TOK_SEMI)) {
        /* `%a %2` reads as two expressions: %2 is a graph variable, not "remainder 2". */
        if (at(P, IR_TOK_LOCAL) && !cur(P)->nl_before && isdigit((unsigned char)cur(P)->sym->name[0]))
          error_at(P, cur(P), ir_printf("for the remainder, put a space after `%%`: `%% %s`", cur(P)->sym->name),
                   "expected an operator or `;` before `%%%s`", cur(P)->sym->name);
        if (is_name_expr(e) && starts_element(cur(P)) && !cur(P)->nl_before) juxtaposed_call(P, e); /* @f 3 */
        if (last) {
          last->u.let.body = e;
          return first;
        }
        return e;
      }
      let = ir_expr_new(IR_EXPR_LET, e->span);
      let->u.let.how = IR_LET_PLAIN;
      let->u.let.var = (IrParam){ir_sym_seq(), NULL, e->span, 0, NULL};
      let->u.let.value = e;
    }
    /* The seeds write graph bindings one a line without `;`; TVM ends them with `;`. */
    bool line_ends_it = let->u.let.how == IR_LET_GRAPH && cur(P)->nl_before && !at(P, IR_TOK_RBRACE) &&
                        !at(P, IR_TOK_EOF);
    if (!line_ends_it)
      expect(P, IR_TOK_SEMI, let->u.let.how == IR_LET_GRAPH ? "after the graph binding" : "after the bound value");
    else
      accept(P, IR_TOK_SEMI);
    let->span = span_from(P, t->span);
    if (last) last->u.let.body = let;
    else first = let;
    last = let;
  }
}

/* ---------------------------------------------------------------- tensor literals */

typedef struct TensorBuild {
  IR_VEC(IrLit) elems;
  int64_t shape[64];
  bool known[64]; /* shape[level] is fixed by the first list closed at that depth */
  int rank;       /* -1 until the first innermost element fixes it */
} TensorBuild;

static void tensor_level(Parser *P, TensorBuild *tb, int level) {
  IrToken *o = cur(P);
  open_bracket(P, IR_TOK_LBRACKET, NULL);
  enter(P);
  if (level >= 64) error_at(P, o, NULL, "a tensor literal has at most 64 dimensions");
  int64_t count = 0;
  while (!at(P, IR_TOK_RBRACKET)) {
    if (at(P, IR_TOK_LBRACKET)) {
      if (tb->rank >= 0 && level + 1 >= tb->rank)
        error_at(P, cur(P), NULL, "this tensor literal mixes numbers and nested lists at the same depth");
      tensor_level(P, tb, level + 1);
    } else {
      IrLit lit;
      IrSpan ls;
      if (tb->rank >= 0 && level + 1 != tb->rank)
        error_at(P, cur(P), NULL, "this tensor literal mixes numbers and nested lists at the same depth");
      if (at(P, IR_TOK_MINUS) && ahead(P, 1)->kind == IR_TOK_EOF) /* its number may come on the next line */
        error_at(P, ahead(P, 1), NULL, "expected a number after `-` in the tensor literal, found end of input");
      if (!parse_literal(P, &lit, &ls))
        error_at(P, cur(P), "tensor literals hold constants; build other tensors with operators",
                 "expected a number or a boolean in the tensor literal, found %s", describe(cur(P)));
      if (tb->rank < 0) tb->rank = level + 1;
      IR_VEC_PUSH(tb->elems, lit);
    }
    count++;
    if (!accept(P, IR_TOK_COMMA)) break;
  }
  if (count == 0 && tb->rank < 0) tb->rank = level + 1;
  if (count == 0 && level + 1 != tb->rank)
    error_at(P, cur(P), NULL, "this tensor literal mixes empty and non-empty lists at the same depth");
  if (tb->known[level] && tb->shape[level] != count)
    error_at(P, cur(P), NULL, "this row has %lld element%s but the first row at this depth has %lld",
             (long long)count, count == 1 ? "" : "s", (long long)tb->shape[level]);
  tb->shape[level] = count;
  tb->known[level] = true;
  close_list(P, IR_TOK_RBRACKET, o);
  leave(P);
}

static IrExpr *parse_tensor_literal(Parser *P) {
  IrToken *t = cur(P);
  TensorBuild tb = {.rank = -1};
  /* The first list closed at each depth fixes that dimension; every later one is checked. */
  tensor_level(P, &tb, 0);
  IrExpr *e = ir_expr_new(IR_EXPR_TENSOR, span_from(P, t->span));
  e->u.tensor.rank = tb.rank;
  e->u.tensor.shape = IR_NEW_ARRAY(int64_t, tb.rank);
  memcpy(e->u.tensor.shape, tb.shape, sizeof(int64_t) * (size_t)tb.rank);
  e->u.tensor.count = tb.elems.len;
  e->u.tensor.elems = tb.elems.items;
  int64_t want = 1;
  for (int i = 0; i < tb.rank; i++) want *= tb.shape[i];
  if (want != tb.elems.len) error_span(P, e->span, NULL, "the rows of this tensor literal differ in length");
  return e;
}

/* ---------------------------------------------------------------- top level */

static void parse_data(Parser *P, IrItem *item) {
  IrToken *kw = next(P);
  IrToken *name = expect(P, IR_TOK_IDENT, "(the name of the data type)");
  item->kind = IR_ITEM_DATA;
  item->name = name->sym;
  IrData *d = &item->data;
  d->name = name->sym;
  parse_tparams(P, &d->ntparams, &d->tparams);
  if (!at(P, IR_TOK_LBRACE)) { /* `data Maybe a = Just a`, as Haskell and Elm declare it */
    const char *text = kw->span.src->text + kw->span.off, *nl = memchr(text, '\n', kw->span.src->len - kw->span.off);
    size_t eq, len = nl ? (size_t)(nl - text) : kw->span.src->len - kw->span.off;
    const char *hint = ir_lex_data_hint(text, len, &eq);
    for (IrToken *t = cur(P); hint && t->kind != IR_TOK_EOF && (t == cur(P) || !t->nl_before); t++)
      if (t->kind == IR_TOK_ASSIGN && t->span.off == kw->span.off + eq) error_at(P, t, hint, IR_DATA_EQUALS_MESSAGE);
  }
  IrToken *o = open_bracket(P, IR_TOK_LBRACE, "to start the constructors");
  IR_VEC(IrCtor) cs = {0};
  Seen seen = {0};
  while (!at(P, IR_TOK_RBRACE)) {
    IrToken *c = expect(P, IR_TOK_IDENT, "(a constructor name)");
    if (ir_op_lookup(c->sym->name, c->sym->len) >= 0)
      error_at(P, c, NULL, "`%s` is an operator and cannot name a constructor", c->sym->name);
    if (seen_before(&seen, c->sym)) error_at(P, c, NULL, "constructor `%s` is declared twice", c->sym->name);
    IrCtor ctor = {.name = c->sym, .span = c->span};
    if (accept(P, IR_TOK_COLON)) { /* seed spelling: Cons : (a, List[a]) -> List */
      IrToken *po = open_bracket(P, IR_TOK_LPAREN, "to start the constructor's argument types");
      parse_type_list(P, IR_TOK_RPAREN, po, &ctor.nargs, &ctor.args);
      expect(P, IR_TOK_ARROW, "before the constructor's result");
      IrToken *r = expect(P, IR_TOK_IDENT, "(the data type's name)");
      if (r->sym != d->name)
        error_at(P, r, NULL, "constructor `%s` of `%s` must build a `%s`, not a `%s`", c->sym->name, d->name->name,
                 d->name->name, r->sym->name);
      if (at(P, IR_TOK_LBRACKET)) { /* -> List[a]: the parameters, as declared */
        IrToken *ro = open_bracket(P, IR_TOK_LBRACKET, NULL);
        int n;
        IrType **ts;
        parse_type_list(P, IR_TOK_RBRACKET, ro, &n, &ts);
      }
    } else if (at(P, IR_TOK_LPAREN)) { /* TVM spelling: Cons(A, List[A]) */
      IrToken *po = open_bracket(P, IR_TOK_LPAREN, NULL);
      parse_type_list(P, IR_TOK_RPAREN, po, &ctor.nargs, &ctor.args);
    }
    ctor.span = span_from(P, c->span);
    IR_VEC_PUSH(cs, ctor);
    ir_symmap_put(&P->ctors, c->sym, (void *)(intptr_t)(1 + ctor.nargs));
    accept(P, IR_TOK_COMMA);
  }
  close_bracket(P, IR_TOK_RBRACE, o);
  d->nctors = cs.len;
  d->ctors = cs.items;
  item->span = d->span = span_from(P, kw->span);
}

/* `extern type Name` or `extern type Name[A]`: a data type whose values come from outside Relay,
 * so it has no constructors. */
static void parse_extern_data(Parser *P, IrItem *item) {
  IrToken *kw = next(P);
  if (!at(P, IR_TOK_KW_TYPE) && !at(P, IR_TOK_KW_DATA))
    error_at(P, cur(P), NULL, "expected `type` after `extern`, found %s", describe(cur(P)));
  next(P);
  IrToken *name = expect(P, IR_TOK_IDENT, "(the name of the data type)");
  item->kind = IR_ITEM_DATA;
  item->name = name->sym;
  item->data.name = name->sym;
  item->data.external = true;
  parse_tparams(P, &item->data.ntparams, &item->data.tparams);
  if (at(P, IR_TOK_LBRACE))
    error_at(P, cur(P), "drop `extern` to declare a data type with constructors",
             "an extern type has no constructors: its values come from outside Relay");
  item->span = item->data.span = span_from(P, kw->span);
}

static void parse_def(Parser *P, IrItem *item) {
  IrToken *kw = next(P);
  if (at(P, IR_TOK_IDENT))
    error_at(P, cur(P), ir_printf("write `def @%s`", cur(P)->sym->name), "a global name needs `@`");
  IrToken *name = expect(P, IR_TOK_GLOBAL, "(the name being defined)");
  item->kind = IR_ITEM_DEF;
  item->name = name->sym;
  item->fn = ir_expr_new(IR_EXPR_FN, kw->span);
  parse_fn_rest(P, &item->fn->u.fn);
  item->fn->span = span_from(P, kw->span);
  item->span = item->fn->span;
}

static const char *parse_version(Parser *P) {
  IrToken *o = open_bracket(P, IR_TOK_HASHBRACKET, NULL);
  IrToken *k = expect(P, IR_TOK_IDENT, "(an attribute name)");
  if (strcmp(k->sym->name, "version") != 0)
    error_at(P, k, "the only file attribute is #[version = \"0.0.5\"]", "unknown attribute `%s`", k->sym->name);
  expect(P, IR_TOK_ASSIGN, "after `version`");
  IrToken *v = expect(P, IR_TOK_STRING, "(the version)");
  close_bracket(P, IR_TOK_RBRACKET, o);
  return v->str->name;
}

/* Something follows a complete top-level expression on its line. */
static _Noreturn void end_of_item_error(Parser *P) {
  IrToken *t = cur(P);
  if (t->kind == IR_TOK_RPAREN || t->kind == IR_TOK_RBRACKET || t->kind == IR_TOK_RBRACE)
    error_at(P, t, NULL, "this %s has no matching opening bracket", ir_token_kind_name(t->kind));
  if (t->kind == IR_TOK_KW_ELSE)
    error_at(P, t, "an `if` has one `else`; chain more branches with `else if (...) { ... }`",
             "this `else` has no `if`");
  error_at(P, t, "put each top-level expression on its own line",
           "expected an operator or `;` after this expression, found %s", describe(t));
}

/* A REPL input's `let %x = e` that ends its line: a session binding, whose expression is
 * `let %x = e; %x` (so that a function is recursive and generalized as any let's). False, having
 * read nothing, when a `;` follows: an ordinary let expression. */
static bool parse_session_let(Parser *P, IrItem *item) {
  int start = P->pos;
  IrToken *t = next(P);
  IrToken *v = at(P, IR_TOK_LOCAL) ? next(P) : NULL;
  if (!v) {
    P->pos = start; /* the ordinary parse says what is wrong */
    return false;
  }
  IrParam var = {v->sym, NULL, v->span, 0, NULL};
  if (accept(P, IR_TOK_COLON)) var.ann = parse_type(P);
  expect(P, IR_TOK_ASSIGN, "after the variable");
  P->toplevel = true;
  IrExpr *value = parse_expr(P);
  P->toplevel = false;
  if (!at(P, IR_TOK_EOF) && !cur(P)->nl_before) {
    P->pos = start;
    return false;
  }
  IrExpr *let = ir_expr_new(IR_EXPR_LET, span_from(P, t->span));
  let->u.let.how = IR_LET_PLAIN;
  let->u.let.var = var;
  let->u.let.value = value;
  let->u.let.body = ir_expr_new(IR_EXPR_LOCAL, v->span);
  let->u.let.body->u.name = v->sym;
  item->kind = IR_ITEM_LET;
  item->name = v->sym;
  item->var = var;
  item->expr = let;
  item->span = let->span;
  return true;
}

/* Whether token t starts a line with a declaration (`def`, `data`, `type`, `extern type`) in
 * column 1: where parsing starts again after an error. */
static bool restarts(const IrToken *t) {
  if (t->span.col != 1) return false;
  if (t->kind == IR_TOK_KW_DEF || t->kind == IR_TOK_KW_DATA || t->kind == IR_TOK_KW_TYPE) return true;
  return t->kind == IR_TOK_IDENT && !strcmp(t->sym->name, "extern") && !t[1].nl_before &&
         (t[1].kind == IR_TOK_KW_TYPE || t[1].kind == IR_TOK_KW_DATA);
}

/* What the item that starts at token t (and failed to parse) would have defined. */
static IrBroken broken_item(Parser *P, const IrToken *t) {
  IrBroken b = {IR_ITEM_EXPR, NULL, t->span};
  if (t->kind == IR_TOK_IDENT && !strcmp(t->sym->name, "extern") && t[1].kind != IR_TOK_EOF) t++;
  if (t->kind == IR_TOK_KW_DEF) {
    b.kind = IR_ITEM_DEF;
    if (t[1].kind == IR_TOK_GLOBAL || t[1].kind == IR_TOK_IDENT) b.name = t[1].sym; /* `def f`: @f was meant */
  } else if (t->kind == IR_TOK_KW_DATA || t->kind == IR_TOK_KW_TYPE) {
    b.kind = IR_ITEM_DATA;
    if (t[1].kind == IR_TOK_IDENT) b.name = t[1].sym;
  } else if (t->kind == IR_TOK_KW_LET && P->opt && P->opt->session_lets && t[1].kind == IR_TOK_LOCAL) {
    b.kind = IR_ITEM_LET; /* perhaps a `let %x = e; body` expression: its users are skipped either way */
    b.name = t[1].sym;
  }
  return b;
}

typedef IR_VEC(IrBroken) BrokenList;

static void parse_item(Parser *P, IrProgram *prog, IrItem *item, bool first);

/* Parses the item at the current token into *item; false after an error (reported), the
 * parser then at the next line that starts a declaration (or the end). Out of memory still
 * unwinds to run()'s trap. */
static bool parse_item_or_recover(Parser *P, IrProgram *prog, IrItem *item, bool first, BrokenList *broken) {
  jmp_buf here, *outer = P->fail;
  int start = P->pos;
  P->fail = &here;
  if (!setjmp(here)) {
    poll_interrupt(P);
    parse_item(P, prog, item, first);
    P->fail = outer;
    return true;
  }
  P->fail = outer;
  if (!broken->len) { /* what the REPL reads of a failed parse is its first error's */
    P->first_incomplete = P->incomplete;
    P->first_section_missing = P->section_missing;
  }
  P->speculating = false, P->toplevel = false, P->type_lists = 0, P->cond_paren = NULL;
  int to = start + 1; /* past the item's first token at least, so that parsing moves on */
  if (P->toks[start].kind == IR_TOK_EOF) to = start;
  else
    while (P->toks[to].kind != IR_TOK_EOF && !restarts(&P->toks[to])) to++;
  IrBroken b = broken_item(P, &P->toks[start]);
  b.span = ir_span_join(P->toks[start].span, P->toks[to > start + 1 ? to - 1 : start].span);
  IR_VEC_PUSH(*broken, b);
  P->pos = to;
  return false;
}

static void parse_items(Parser *P, IrProgram *prog) {
  IR_VEC(IrItem) items = {0};
  BrokenList broken = {0};
  while (!at(P, IR_TOK_EOF) && !P->stopped) {
    IrItem item = {0};
    bool version = at(P, IR_TOK_HASHBRACKET);
    if (parse_item_or_recover(P, prog, &item, !items.len && !broken.len, &broken) && !version) IR_VEC_PUSH(items, item);
  }
  prog->nbroken = broken.len;
  prog->broken = broken.items;
  prog->nitems = items.len;
  prog->items = items.items;
  /* The items are in place now: each constructor knows its position and its declaration. */
  for (int i = 0; i < prog->nitems; i++)
    for (int k = 0; prog->items[i].kind == IR_ITEM_DATA && k < prog->items[i].data.nctors; k++) {
      prog->items[i].data.ctors[k].tag = k;
      prog->items[i].data.ctors[k].adt = &prog->items[i].data;
    }
}

/* One item (or the version attribute, which `first` allows). */
static void parse_item(Parser *P, IrProgram *prog, IrItem *item, bool first) {
  P->graph = (IrSymMap){0}; /* graph bindings are the item's own */
  P->nest = 0;
  P->depth = 0;
  if (at(P, IR_TOK_HASHBRACKET)) {
    if (prog->version || !first)
      error_at(P, cur(P), NULL, "the version attribute comes first in a file, once");
    prog->version = parse_version(P);
    return;
  }
  bool declaration = at(P, IR_TOK_KW_DEF) || at(P, IR_TOK_KW_DATA) || at(P, IR_TOK_KW_TYPE) || is_ident(P, "extern");
  if (declaration) { /* its documentation: the comments just above it (the lexer kept them in the text) */
    const IrToken *before = P->pos > 0 ? cur(P) - 1 : NULL;
    item->doc = ir_lex_doc_comment(cur(P)->span.src, before ? before->span.off + before->span.len : 0, cur(P)->span.off);
  }
  if (at(P, IR_TOK_KW_DEF)) {
    parse_def(P, item);
  } else if (at(P, IR_TOK_KW_DATA) || at(P, IR_TOK_KW_TYPE)) {
    parse_data(P, item);
  } else if (at(P, IR_TOK_IDENT) && !strcmp(cur(P)->sym->name, "extern") && !cur(P)[1].nl_before &&
             (cur(P)[1].kind == IR_TOK_KW_TYPE || cur(P)[1].kind == IR_TOK_KW_DATA)) {
    parse_extern_data(P, item);
  } else if (P->opt && P->opt->session_lets && at(P, IR_TOK_KW_LET) && parse_session_let(P, item)) {
  } else {
    IrToken *t = cur(P);
    P->toplevel = true;
    item->kind = IR_ITEM_EXPR;
    item->expr = parse_seq(P);
    P->toplevel = false;
    if (!at(P, IR_TOK_EOF) && !cur(P)->nl_before) end_of_item_error(P);
    item->span = span_from(P, t->span);
  }
}

/* A span of one character at byte offset off of src, its line and column counted. */
static IrSpan span_at(const IrSource *src, size_t off) {
  IrSpan s = {src, (uint32_t)off, off < src->len ? 1 : 0, 1, 1};
  for (size_t i = 0; i < off && i < src->len; i++) {
    if (src->text[i] == '\n') s.line++, s.col = 1;
    else if (((unsigned char)src->text[i] & 0xc0) != 0x80) s.col++;
  }
  return s;
}

/* The `#[metadata]` section that ends the text, read before the program so that `meta[...]` finds
 * its entries. */
static void read_metadata(Parser *P, const IrSource *src, size_t off) {
  const char *error = NULL;
  size_t where = 0;
  bool cut_short;
  P->meta = ir_meta_parse(src->text + off, src->len - off, &error, &where, &cut_short);
  if (!P->meta && cut_short) P->incomplete = true; /* a section cut short (a paste read line by line) may go on */
  if (!P->meta) error_span(P, span_at(src, off + where), NULL, "%s", error ? error : "the metadata section cannot be read");
}

typedef enum { PARSE_PROGRAM, PARSE_EXPRESSION, PARSE_TYPE, PARSE_RELATION } ParseWhat;

static IrParseResult run(const IrSource *src, const IrParseOptions *opt, IrDiags *diags, ParseWhat what) {
  IrParseResult r = {0};
  IrTokens toks;
  if (!ir_lex(src, &toks, diags)) {
    r.incomplete = toks.at_eof;
    ir_tokens_free(&toks);
    return r;
  }
  if (toks.len == 0) return r;
  /* Out of memory while parsing: the malloc'd tokens are freed before unwinding further (a REPL
   * session that ran out on a huge input keeps no gigabytes of them). */
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb)) {
    ir_tokens_free(&toks);
    ir_out_of_memory(trap.bytes);
  }
  Parser P = {.toks = toks.items, .diags = diags, .opt = opt};
  jmp_buf fail;
  P.fail = &fail;
  if (setjmp(fail)) {
    ir_trap_pop(&trap);
    r.incomplete = P.incomplete;
    r.awaits_meta = P.section_missing && !toks.meta;
    ir_tokens_free(&toks);
    return r;
  }
  if (toks.meta) read_metadata(&P, src, toks.meta_off);
  if (what == PARSE_PROGRAM) {
    IrProgram *prog = IR_NEW(IrProgram);
    prog->src = src;
    prog->session = opt && opt->session_lets;
    if (toks.meta) {
      prog->meta = P.meta;
      prog->meta_text = src->text + toks.meta_off;
      prog->meta_len = src->len - toks.meta_off;
    }
    parse_items(&P, prog);
    if (prog->nbroken) { /* errors, each reported: the partial form, and what the first error says */
      r.partial = prog;
      r.incomplete = P.first_incomplete;
      r.awaits_meta = P.first_section_missing && !toks.meta;
    } else {
      r.program = prog;
      r.awaits_meta = P.saw_meta && !toks.meta;
    }
  } else if (what == PARSE_EXPRESSION) {
    IrExpr *e = parse_seq(&P);
    if (!at(&P, IR_TOK_EOF))
      error_at(&P, cur(&P), NULL, "expected the end of the expression, found %s", describe(cur(&P)));
    r.expr = e; /* only now: a longjmp above must leave r empty */
  } else if (what == PARSE_RELATION) {
    IrRel *rel = IR_NEW(IrRel);
    *rel = parse_relation(&P);
    if (!at(&P, IR_TOK_EOF))
      error_at(&P, cur(&P), NULL, "expected the end of the relation, found %s", describe(cur(&P)));
    r.rel = rel;
  } else {
    IrDType dt;
    IrToken *first = cur(&P);
    IrType *t = first->kind == IR_TOK_IDENT && P.toks[P.pos + 1].kind == IR_TOK_EOF &&
                        ir_dtype_parse(first->sym->name, first->sym->len, &dt)
                    ? ir_type_dtype(dt, first->span)
                    : parse_type_arg(&P);
    if (t->kind == IR_TYPE_DTYPE) next(&P);
    if (!at(&P, IR_TOK_EOF))
      error_at(&P, cur(&P), NULL, "expected the end of the type, found %s", describe(cur(&P)));
    r.type = t;
  }
  ir_trap_pop(&trap);
  ir_tokens_free(&toks);
  return r;
}

IrParseResult ir_parse_program(const IrSource *src, const IrParseOptions *opt, IrDiags *diags) {
  return run(src, opt, diags, PARSE_PROGRAM);
}

IrParseResult ir_parse_expression(const IrSource *src, const IrParseOptions *opt, IrDiags *diags) {
  return run(src, opt, diags, PARSE_EXPRESSION);
}

IrParseResult ir_parse_type(const IrSource *src, const IrParseOptions *opt, IrDiags *diags) {
  return run(src, opt, diags, PARSE_TYPE);
}

IrParseResult ir_parse_relation(const IrSource *src, const IrParseOptions *opt, IrDiags *diags) {
  return run(src, opt, diags, PARSE_RELATION);
}
