/* The command line of relay (DESIGN §7), parsed into one struct. Options may come before or
 * after file names, as `relay FILE -t @f` does. */
#ifndef REPL_OPTIONS_H
#define REPL_OPTIONS_H

#include <stdbool.h>

typedef enum {
  REPL_MODE_REPL,  /* no files, or -i */
  REPL_MODE_RUN,   /* relay FILE...: run top-level expressions and @main */
  REPL_MODE_EVAL,  /* -e EXPR */
  REPL_MODE_TYPE,  /* -t EXPR */
  REPL_MODE_TYPES, /* --types FILE */
  REPL_MODE_PRINT, /* --print FILE */
  REPL_MODE_ANNOT, /* --annot FILE */
  REPL_MODE_SERVE, /* --serve: JSON requests on stdin (docs/serve.md) */
  REPL_MODE_LSP,   /* --lsp: a language server on stdin and stdout (docs/lsp.md) */
  REPL_MODE_HELP,
  REPL_MODE_VERSION,
} ReplMode;

/* relay --serve --sandbox's limits unless --timeout and --max-heap are given, and the smallest heap. */
enum { REPL_SANDBOX_TIMEOUT_S = 10, REPL_SANDBOX_HEAP_MB = 512, REPL_MIN_HEAP_MB = 32 };

typedef struct ReplOptions {
  ReplMode mode;
  bool no_prelude;
  bool interactive; /* -i: the REPL after loading the files */
  const char *expr; /* -e / -t */
  long stack_mb;    /* --stack MB: the evaluation stack's size; 0 for the default */
  long max_heap_mb; /* --max-heap MB: the heap's largest size; 0 for the default (GC_MAXIMUM_HEAP_SIZE, or
                       three quarters of the memory) */
  bool sandbox;     /* --sandbox (with --serve): no command reads or writes a file */
  bool timeout_given;
  double timeout_s; /* --timeout SECONDS (with --serve): each request's time limit; 0 for none */
  int nfiles;
  const char **files;
} ReplOptions;

/* False on bad usage, after writing the reason to *error (a static or GC string). */
bool repl_options_parse(int argc, char **argv, ReplOptions *out, const char **error);
const char *repl_options_usage(void);

#endif
