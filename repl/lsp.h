/* relay --lsp: a language server (Language Server Protocol 3.17) on stdin and stdout, for
 * editors: every error of a file as diagnostics, the type at a place on hover, the types of
 * unannotated binders as inlay hints, definitions, references, an outline, completion, operators'
 * signatures and code actions (docs/lsp.md). */
#ifndef REPL_LSP_H
#define REPL_LSP_H

#include "repl/options.h"
#include "repl/session.h"

/* Serves until the client's `exit` (or the end of stdin); returns the exit status: 0 after a
 * `shutdown` request, else 1, as the protocol asks. */
int lsp_main(Session *s, const ReplOptions *opt);

#endif
