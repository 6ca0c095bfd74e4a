/* The parser: Relay text (both the seed documents' spelling and TVM's text format 0.0.5) to an
 * IrProgram. A program with a parse error is no program (a failed chunk changes nothing), but the
 * parser goes on after each error at the next line that starts a declaration (`def`, `type`,
 * `data`, `extern` in column 1) and reports each later error too; the items that parsed are the
 * program's partial form, which the checker checks for their errors (issue 31). Expressions,
 * types and relations stop at their first error. */
#ifndef IR_PARSE_H
#define IR_PARSE_H

#include "ir/ast.h"

/* Nesting deeper than this (brackets, calls, binary chains) is a clean error rather than a deep
 * C recursion. Let chains and `;` sequences do not nest: a function may have any number of
 * bindings. */
#ifndef RELAY_WASM
#define IR_PARSE_MAX_DEPTH 10000
#else
#define IR_PARSE_MAX_DEPTH 350 /* relay.wasm: a browser worker's stack holds about 630 (docs/play.md) */
#endif

typedef struct IrParseOptions {
  /* The number of arguments of a constructor defined by an earlier chunk, or -1 when `name` is
   * not one. It lets a lowercase constructor name be read as one, and a bare nullary
   * constructor (`Nil`) as its value (`Nil()`). May be NULL. */
  int (*ctor_arity)(void *ctx, Sym name);
  void *ctx;
  /* A REPL input: a top-level `let %x = e` with nothing after it on its line is a session binding
   * (IR_ITEM_LET), which later inputs see. */
  bool session_lets;
} IrParseOptions;

typedef struct IrParseResult {
  IrProgram *program; /* NULL on error */
  /* ir_parse_program with errors (and the text lexed): the items that parsed, those that did not
   * in its `broken` (at least one), for checking what parsed; never to be run or committed. Else NULL. */
  IrProgram *partial;
  IrExpr *expr;       /* for ir_parse_expression */
  IrType *type;       /* for ir_parse_type */
  IrRel *rel;         /* for ir_parse_relation */
  bool incomplete;    /* the (first) error is that the text ended too early: more input may complete it */
  bool awaits_meta;   /* the program refers to `meta[...]` entries but has no `#[metadata]` section (with
                         errors: the first one is such a reference) */
} IrParseResult;

IrParseResult ir_parse_program(const IrSource *src, const IrParseOptions *opt, IrDiags *diags);
/* Exactly one expression (with its lets), as given to `-e` and `-t`. */
IrParseResult ir_parse_expression(const IrSource *src, const IrParseOptions *opt, IrDiags *diags);
/* Exactly one type, shape (`(n, 3)`) or dimension (`3`), as the REPL's :kind takes; a base type
 * name alone (`float32`) is given as IR_TYPE_DTYPE, not as the scalar type it also names. */
IrParseResult ir_parse_type(const IrSource *src, const IrParseOptions *opt, IrDiags *diags);
/* Exactly one type relation as a `where` clause writes it, `Broadcast(t1, t2, t3)` (its arguments
 * and attributes; nargs -1 when written bare), as the REPL's :explain takes. */
IrParseResult ir_parse_relation(const IrSource *src, const IrParseOptions *opt, IrDiags *diags);

#endif
