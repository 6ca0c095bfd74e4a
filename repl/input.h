/* The REPL's inputs: lines gathered into inputs (an input continues while it is incomplete; a
 * :{ ... :} block; comments kept for a definition that follows), each run as a chunk or a command
 * once complete. The terminal loop (interact.c) and relay --serve's `eval` (serve.c) both take
 * their lines through here, so a notebook cell means what the same lines typed at the prompt do. */
#ifndef REPL_INPUT_H
#define REPL_INPUT_H

#include "repl/session.h"

/* The lines of the input being gathered, and (with history) the lines as typed, its history entry. */
typedef struct ReplInput {
  bool history; /* keep the entry */
  bool block;   /* inside :{ ... :} */
  bool comments; /* only comments so far: a blank line or a command drops them */
  bool quit;    /* :quit was run */
  /* a blank line ends an incomplete input with its error (the REPL's loop; a --serve cell's
   * blank lines may sit inside a definition, as in a file) */
  bool blank_line_ends;
  IrBuf text, entry;
} ReplInput;

void repl_input_init(ReplInput *in, bool history);
/* Takes one line (len bytes, no newline); once the input is complete, runs it (s->input counts
 * it). Returns the input's history entry when one is complete (a multi-line definition or a block
 * is one entry, as in Julia and utop), else NULL. */
const char *repl_input_line(Session *s, ReplInput *in, const char *line, size_t len);
/* The end of the lines: runs what is gathered (an incomplete input gets its error); returns its
 * history entry or NULL. */
const char *repl_input_end(Session *s, ReplInput *in);
/* Drops the input being gathered (Ctrl-C at the prompt, memory that ran out). */
void repl_input_drop(ReplInput *in);
/* Whether an input is being gathered: the prompt is `... `. */
bool repl_input_pending(const ReplInput *in);

#endif
