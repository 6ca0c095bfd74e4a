/* A session: what the REPL and the file loader share — the constructors defined so far (so the
 * parser reads later uses of them), and the diagnostics printer. It becomes the module once the
 * checker lands. */
#ifndef REPL_SESSION_H
#define REPL_SESSION_H

#include "ir/ir.h"

typedef struct Session {
  IR_VEC(IrCtor) ctors; /* name and argument types of each constructor defined so far */
  IrParseOptions parse;
} Session;

void session_init(Session *s);
/* Parses a file; on error prints the diagnostics and returns NULL, changing nothing. */
IrProgram *session_load_file(Session *s, const char *path);
/* Parses text as a chunk (named `name` in diagnostics). On success the chunk's constructors
 * join the session. *incomplete tells the REPL that more lines may complete the text. */
IrProgram *session_parse_chunk(Session *s, const char *name, const char *text, bool quiet_if_incomplete,
                               bool *incomplete);
IrExpr *session_parse_expression(Session *s, const char *text);
/* The interactive loop; returns the exit status. */
int session_interact(Session *s);

#endif
