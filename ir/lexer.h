/* The lexer (private to ir/): turns a source text into an array of tokens in one pass, so the
 * parser can look ahead and back freely. Numbers are decoded here (value and suffix), strings
 * unescaped, names interned. */
#ifndef IR_LEXER_H
#define IR_LEXER_H

#include "ir/ast.h"
#include "ir/diag.h"

typedef enum {
#define IR_TOK(id, text) IR_TOK_##id,
#include "ir/token.def"
#undef IR_TOK
  IR_TOK_COUNT
} IrTokKind;

/* 64 bytes. The array of tokens lives outside the collected heap (see ir_lex), so a token holds
 * no pointer to collectable memory: names and strings are interned symbols. */
typedef struct IrToken {
  IrTokKind kind;
  bool nl_before;    /* a line break separates it from the previous token */
  bool space_before; /* any white space or comment separates it from the previous token */
  IrSpan span;
  union {
    Sym sym;   /* IDENT, LOCAL, GLOBAL: the name without its sigil */
    IrLit lit; /* NUMBER */
    struct {
      Sym str; /* STRING: the decoded bytes, interned (they may contain NUL: use slen) */
      size_t slen;
    };
  };
} IrToken;

typedef struct IrTokens {
  IrToken *items; /* malloc'd: release with ir_tokens_free */
  int len;
  bool at_eof; /* the lexer stopped because the text ended too early (open comment or string) */
  bool meta;       /* the text ends with a `#[metadata]` section (TVM's), not lexed: */
  size_t meta_off; /* its text starts here, just after `#[metadata]` */
} IrTokens;

/* False after adding a parse-error diagnostic; the tokens then end with EOF at the error. The
 * array is malloc'd, not collected: a large file's tokens are many megabytes, which the collector
 * would otherwise scan and the kernel clear page by page as the array doubles. */
bool ir_lex(const IrSource *src, IrTokens *out, IrDiags *diags);
void ir_tokens_free(IrTokens *toks);
/* The comment block written directly above a declaration (its documentation, which :doc shows),
 * found in the text between the previous token, which ends at byte `from` (0: none), and the
 * declaration's first token at byte `to`, where there is only white space and comments: the
 * comments that end on the line above it (or on its own line, before it), with no blank line
 * among them and none that trails the previous token on its line. Their text comes without the
 * markers (`#`, `//`, a block comment's opening and closing ones and the `*` that may start its
 * lines) and the space after them, a line for each line, or NULL when there is no such block. */
const char *ir_lex_doc_comment(const IrSource *src, size_t from, size_t to);
const char *ir_token_kind_name(IrTokKind kind);

/* Haskell's, Elm's or OCaml's data declaration, `data Shape = Circle Float | Square` (a line of
 * text): the hint that writes it as Relay does (`write `data Shape { Circle(float32), Square }``),
 * with *eq the offset of its `=`; NULL for another line. */
const char *ir_lex_data_hint(const char *line, size_t len, size_t *eq);
#define IR_DATA_EQUALS_MESSAGE "a data type lists its constructors in braces, not after `=`"

#endif
