/* Source texts, spans into them, and diagnostics. A diagnostic renders as
 * `FILE:LINE:COL: KIND: message`, the source line, a caret line under the span, then notes.
 * Columns count Unicode code points from 1, so they match what an editor shows. */
#ifndef IR_DIAG_H
#define IR_DIAG_H

#include <signal.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/mem.h"

typedef struct IrSource {
  const char *name; /* file name, or "<repl>", "<command line>" */
  const char *text; /* NUL-terminated */
  size_t len;
  int input; /* a REPL input's number in the session (every one is <repl>), else 0 */
} IrSource;

/* A range of source text. `src == NULL` marks a node made by the implementation itself. */
typedef struct IrSpan {
  const IrSource *src;
  uint32_t off, len;  /* bytes */
  uint32_t line, col; /* of the first byte, both from 1 */
} IrSpan;

/* IR_DIAG_HOLE describes a typed hole (`?`): what its place expects and what is in scope. It is no
 * mistake, but a program with holes does not run, so it counts among the errors. */
typedef enum { IR_DIAG_PARSE, IR_DIAG_TYPE, IR_DIAG_RUNTIME, IR_DIAG_WARNING, IR_DIAG_HOLE } IrDiagKind;

typedef struct IrDiag {
  IrDiagKind kind;
  IrSpan span;
  char *message;
  IR_VEC(char *) notes; /* each a full line such as "hint: ..." or "expected: ..." */
  const void *detail;   /* what the phase that reported it keeps for a later look, or NULL: for a
                           failed type relation, typing's TyFailure (the REPL's :explain) */
  struct IrDiag *next;
} IrDiag;

typedef struct IrDiags {
  IrDiag *first, *last;
  int errors, warnings;
  int input; /* the REPL input they are about, or 0: a diagnostic placed in another input names it */
} IrDiags;

IrSource *ir_source_new(const char *name, const char *text, size_t len);
/* Ctrl-C: the front end's SIGINT handler sets it; every long-running phase polls it (the parser at
 * each item and binding, the checker at each expression, the evaluator at each call and loop edge, kernels between blocks of work) and
 * stops with an "interrupted" error, clearing it. The one interrupt flag of relay. */
extern volatile sig_atomic_t ir_interrupted;

/* "first", "second", ... for i = 0, 1, ... ("eleventh" on: "12th", "21st", "22nd"), for messages. */
const char *ir_ordinal(int i);

/* The largest source text relay reads (1 GiB); a longer file is an error (errno EFBIG). */
#define IR_SOURCE_MAX ((size_t)1 << 30)
/* Reads a whole file; NULL with errno set when it cannot. */
IrSource *ir_source_read_file(const char *path);

/* The smallest span covering both. */
IrSpan ir_span_join(IrSpan a, IrSpan b);
/* Where a span starts, for a message that points elsewhere: `file.rly:3:1`, for a REPL input
 * `<repl>:1:1 (input 4)`, and `relay itself` for a node the implementation made. */
const char *ir_span_place(IrSpan s);

IrDiag *ir_diag_add(IrDiags *ds, IrDiagKind kind, IrSpan span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ir_diag_note(IrDiag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Puts the diagnostics in the order of their places (stable): by source, the sources in the order
 * their first diagnostic came, then by offset; one without a place stays after the one before it.
 * A chunk's checker finds errors in dependency order; a reader wants them in the text's. */
void ir_diags_sort(IrDiags *ds);

const char *ir_diag_kind_name(IrDiagKind kind);
/* d as ir_diags_print writes it, without colour; input as IrDiags.input (0: none). */
void ir_diag_render(IrBuf *out, const IrDiag *d, int input);
/* Renders each to f, in colour when f is a terminal (not when NO_COLOR is set or TERM is dumb). */
void ir_diags_print(FILE *f, const IrDiags *ds);

#endif
