/* The driver: runs the pipeline for each command-line mode. Today the pipeline ends after
 * parsing; the modes that need the checker or the evaluator say so and exit with status 2. */
#include "repl/repl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "repl/session.h"

static int not_yet(const char *what) {
  fprintf(stderr, "relay: %s is not implemented yet (this build parses and prints programs)\n", what);
  return 2;
}

/* Parses every file; the constructors each declares are known to the files after it. */
static int load_files(Session *s, const ReplOptions *opt, IrProgram **progs) {
  for (int i = 0; i < opt->nfiles; i++) {
    progs[i] = session_load_file(s, opt->files[i]);
    if (!progs[i]) return 1;
  }
  return 0;
}

int repl_main(const ReplOptions *opt) {
  Session s;
  session_init(&s);
  IrProgram **progs = ir_alloc(sizeof(IrProgram *) * (size_t)(opt->nfiles + 1));
  switch (opt->mode) {
  case REPL_MODE_HELP: fputs(repl_options_usage(), stdout); return 0;
  case REPL_MODE_VERSION: printf("relay %s\n", RELAY_VERSION); return 0;
  case REPL_MODE_PRINT: {
    if (load_files(&s, opt, progs)) return 1;
    IrBuf b;
    ir_buf_init(&b);
    ir_print_program(&b, progs[0]);
    fputs(b.data, stdout);
    return 0;
  }
  case REPL_MODE_RUN:
    if (load_files(&s, opt, progs)) return 1;
    return not_yet("running a program");
  case REPL_MODE_TYPES:
    if (load_files(&s, opt, progs)) return 1;
    return not_yet("--types");
  case REPL_MODE_EVAL:
  case REPL_MODE_TYPE: {
    if (load_files(&s, opt, progs)) return 1;
    if (!session_parse_expression(&s, opt->expr)) return 1;
    return not_yet(opt->mode == REPL_MODE_EVAL ? "-e" : "-t");
  }
  case REPL_MODE_REPL:
    if (load_files(&s, opt, progs)) return 1;
    return session_interact(&s);
  }
  return 2;
}
