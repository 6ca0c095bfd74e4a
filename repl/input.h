/* The REPL's inputs: lines gathered into inputs (an input continues while it is incomplete; a
 * :{ ... :} block; comments kept for a definition that follows), each run as a chunk or a command
 * once complete. The terminal loop (interact.c) and relay --serve's `eval` (serve.c) both take
 * their lines through here, so a notebook cell means what the same lines typed at the prompt do.
 * An input is parsed once, not once a line: the parser is asked only where the line scanner
 * (ir/scan.h) says the input may be complete. */
#ifndef REPL_INPUT_H
#define REPL_INPUT_H

#include "repl/session.h"

/* The lines of the input being gathered, and (with history) the lines as typed, its history entry. */
typedef struct ReplInput {
  /* receives each input's history entry (a multi-line definition or a block is one entry, as in
   * Julia and utop); NULL: no history is kept */
  void (*remember)(const char *entry);
  /* when not NULL, told where each input's text starts: its number (s->input) and its first line,
   * counting the lines repl_input_text took from 1; again for the same input when comments before
   * it were dropped (relay --serve places a diagnostic in the request's text so) */
  void (*started)(void *ctx, int input, int line);
  void *ctx;
  bool block;    /* inside :{ ... :} */
  bool comments; /* only comments so far: a blank line or a command drops them */
  bool quit;     /* :quit was run */
  /* a blank line ends an incomplete input with its error (the REPL's loop; a --serve cell's
   * blank lines may sit inside a definition, as in a file) */
  bool blank_line_ends;
  /* the parser is asked at every line of a short input, even inside open brackets, so that a
   * mistake shows at once (a person at the prompt); else where the input may be complete (input.c) */
  bool early_errors;
  IrBuf text, entry;
  IrScan scan;  /* the text's lines so far, for the line scanner */
  int lines;    /* in text */
  int untried;  /* the first line of text at whose end the parser was not asked, since it last was; 0: none */
  /* the number of lines at which the parser is asked even if the scanner says the input goes on
   * (input.c's take_line says when) */
  int probe;
  int line;     /* lines taken (with `started`) */
  /* lines to take again: those after a parse error that ended an input at an earlier line than the
   * one where the parser saw it, from again_at on */
  IrBuf again;
  size_t again_at;
  bool retaking; /* a line given back is being taken */
  /* repl_input_text's: stop taking lines when an interrupt arrives (a --serve request's) */
  bool stop_at_interrupt;
  unsigned interrupts;
} ReplInput;

/* remember may be NULL. */
void repl_input_init(ReplInput *in, void (*remember)(const char *entry));
/* Takes one line (len bytes, no newline); once an input is complete, runs it (s->input counts it). */
void repl_input_line(Session *s, ReplInput *in, const char *line, size_t len);
/* The end of the lines: runs what is gathered (an incomplete input gets its error). */
void repl_input_end(Session *s, ReplInput *in);
/* A whole text (relay --serve's cell), line by line as the REPL takes them, then its end; an
 * interrupt stops it, as does :quit. */
void repl_input_text(Session *s, ReplInput *in, const char *text, size_t len);
/* Drops the input being gathered (Ctrl-C at the prompt, memory that ran out). */
void repl_input_drop(ReplInput *in);
/* Whether an input is being gathered: the prompt is `... `. */
bool repl_input_pending(const ReplInput *in);

#endif
