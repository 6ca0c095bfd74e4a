/* What repl/ offers main(): the driver that runs the pipeline for each mode of the command line,
 * and the interactive loop. Only repl/ knows every part of relay. */
#ifndef REPL_REPL_H
#define REPL_REPL_H

#include "repl/options.h"

/* Runs what the options ask for and returns the process's exit status (0, 1 or 2). */
int repl_main(const ReplOptions *opt);

#endif
