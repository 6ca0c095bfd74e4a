/* relay --serve: the machine interface (docs/serve.md), JSON requests and responses a line each. */
#ifndef REPL_SERVE_H
#define REPL_SERVE_H

#include "repl/session.h"

/* Answers requests from stdin on stdout over the session s (the Prelude loaded into it when
 * `prelude`; `reset` loads it again) until the end of stdin or :quit; returns the exit status. */
int serve_main(Session *s, bool prelude);

#endif
