/* The line scanner: whether a text read line by line (the REPL's input) can be complete yet, decided
 * without parsing it. The REPL asks the parser only where the scanner says the input may be complete,
 * so that an input of n lines is parsed once, not n times.
 *
 * The promise, which tests/unit/test_scan.c checks on every .rly file we have: when ir_scan_line
 * says "not yet", the parser would not find the text so far complete either (it would wait for more
 * lines, or report an error). "May be" promises nothing: the parser decides. The scanner reads as
 * the lexer does (ir/lexer.c: comments, strings, TVM's `#[metadata]` section), and says "not yet"
 * while a bracket or a block comment is open, and at the top level after a line that ends with what
 * needs more: an operator, `=`, `,`, `:` or `;`. */
#ifndef IR_SCAN_H
#define IR_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* Brackets whose kind is kept, to see `(]` at once; deeper ones are counted only. */
#define IR_SCAN_KINDS 64

typedef struct IrScan {
  int depth;                  /* brackets open: ( [ { and `#[` */
  char open[IR_SCAN_KINDS];   /* the closing bracket each of the first IR_SCAN_KINDS needs */
  int comments;               /* block comments open (they nest) */
  bool meta;                  /* inside TVM's `#[metadata]` section, which is JSON to the end */
  bool continues;             /* the last token ends the line asking for more (`+`, `;`, `=`, ...) */
  bool broken;                /* a bracket that closes none, or a string left open: only the parser can say */
} IrScan;

void ir_scan_init(IrScan *sc);
/* Takes one more line (len bytes, without its newline). Returns false when the text so far cannot be
 * complete, true when it may be. */
bool ir_scan_line(IrScan *sc, const char *line, size_t len);

#endif
