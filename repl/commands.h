/* The REPL's commands: a line that starts with `:`. */
#ifndef REPL_COMMANDS_H
#define REPL_COMMANDS_H

#include "repl/session.h"

/* Runs a command line (`:type 1 + 2`); false when it failed (the reason is printed). *quit is
 * set by :quit. An unknown command gets the one it is a typo of (one edit away), or the list of them. */
bool repl_command(Session *s, const char *line, bool *quit);
/* The i-th command's name (`:type`), or NULL past the last: for completion. */
const char *repl_command_names(int i);
/* The i-th command's argument and help line (`EXPR: the type of an expression`). */
const char *repl_command_help(int i);

#endif
