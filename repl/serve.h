/* relay --serve: the machine interface (docs/serve.md), JSON requests and responses a line each, on
 * stdin and stdout; serve_core.h answers them. */
#ifndef REPL_SERVE_H
#define REPL_SERVE_H

#include "repl/options.h"
#include "repl/session.h"

/* Answers requests from stdin on stdout over the session s (the Prelude loaded into it unless
 * --no-prelude; `reset` loads it again) until the end of stdin or :quit; returns the exit status.
 * --sandbox refuses the commands that touch files, --timeout stops a request that runs too long. */
int serve_main(Session *s, const ReplOptions *opt);

#endif
