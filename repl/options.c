/* Command-line parsing: a table of options, each with whether it takes an argument. */
#include "repl/options.h"

#include <stdlib.h>
#include <string.h>

#include "ir/mem.h"
#include "runtime/runtime.h"

static const char usage[] =
    "usage: relay [options] [FILE...]\n"
    "\n"
    "  relay                 start the REPL with the Prelude loaded\n"
    "  relay FILE...         run the files' top-level expressions, then @main() if defined\n"
    "  relay [FILE...] -e EXPR   print the value of EXPR after loading the files' definitions\n"
    "  relay [FILE...] -t EXPR   print the type of EXPR (e.g. relay -t @map)\n"
    "  relay --types FILE    print `@name : type` for every global FILE defines\n"
    "  relay --print FILE    print FILE in canonical form\n"
    "  relay --annot FILE    print FILE annotated with the type of every binding and call\n"
    "  relay --serve         answer JSON requests, one a line on stdin (docs/serve.md)\n"
    "  relay --serve --sandbox   the same for graders and playgrounds: no command reads or\n"
    "                        writes a file (:load, :reload, :graph @f FILE), and the limits\n"
    "                        below are 10 s and 512 MiB unless given\n"
    "  relay --lsp           a language server for editors on stdin and stdout (docs/lsp.md)\n"
    "\n"
    "options:\n"
    "  --no-prelude          start from an empty module\n"
    "  -i                    enter the REPL after loading the files (shown as :load shows them)\n"
    "  --stack MB            the evaluation stack's size in MiB (default 1024, at least 64):\n"
    "                        how deep non-tail recursion may go\n"
    "  --max-heap MB         the heap's largest size in MiB (at least 32): a program that\n"
    "                        needs more gets an \"out of memory\" error\n"
    "  --timeout SECONDS     with --serve: a request that runs longer is stopped (0: never)\n"
    "  -h, --help            show this help\n"
    "  --version             show the version\n"
    "\n"
    "Exit status: 0 on success, 1 on a parse, type or run-time error or unwritable output,\n"
    "2 on bad usage.\n";

const char *repl_options_usage(void) { return usage; }

static bool set_mode(ReplOptions *o, ReplMode mode, const char *flag, const char **error) {
  if (o->mode != REPL_MODE_REPL && o->mode != mode) {
    *error = ir_printf("%s cannot be combined with the other mode options given", flag);
    return false;
  }
  if (o->mode == mode && (mode == REPL_MODE_EVAL || mode == REPL_MODE_TYPE || mode == REPL_MODE_PRINT ||
                          mode == REPL_MODE_TYPES || mode == REPL_MODE_ANNOT)) {
    *error = ir_printf("%s is given twice", flag);
    return false;
  }
  o->mode = mode;
  return true;
}

/* A whole number of MiB from min to 1 TiB (--stack, --max-heap). */
static bool parse_mb(const char *flag, const char *arg, long min, long *out, const char **error) {
  const long max = 1L << 20;
  char *end;
  long mb = strtol(arg, &end, 10);
  if (end == arg || *end || mb < min || mb > max) {
    *error = ir_printf("%s takes a size in MiB from %ld to %ld, not `%s`", flag, min, max, arg);
    return false;
  }
  *out = mb;
  return true;
}

/* --timeout SECONDS: a number of seconds from 0 (no limit) to a day. */
static bool parse_timeout(const char *arg, ReplOptions *o, const char **error) {
  char *end;
  double s = strtod(arg, &end);
  if (end == arg || *end || !(s >= 0 && s <= 86400)) {
    *error = ir_printf("--timeout takes a number of seconds from 0 (no limit) to 86400, not `%s`", arg);
    return false;
  }
  o->timeout_s = s;
  o->timeout_given = true;
  return true;
}

/* --stack MB: a whole number of MiB from the minimum to 1 TiB. */
static bool parse_stack(const char *arg, ReplOptions *o, const char **error) {
  return parse_mb("--stack", arg, (long)(RT_STACK_MIN_BYTES >> 20), &o->stack_mb, error);
}

bool repl_options_parse(int argc, char **argv, ReplOptions *o, const char **error) {
  memset(o, 0, sizeof *o);
  o->files = ir_alloc(sizeof(char *) * (size_t)(argc + 1));
  const char *mode_file = NULL;
  bool only_files = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (only_files || a[0] != '-' || a[1] == '\0') {
      o->files[o->nfiles++] = a;
      continue;
    }
    bool takes_arg = !strcmp(a, "-e") || !strcmp(a, "-t") || !strcmp(a, "--types") || !strcmp(a, "--print") ||
                     !strcmp(a, "--annot") || !strcmp(a, "--stack") || !strcmp(a, "--max-heap") ||
                     !strcmp(a, "--timeout");
    if (takes_arg && i + 1 >= argc) {
      *error = ir_printf("%s needs an argument", a);
      return false;
    }
    if (!strcmp(a, "--")) {
      only_files = true;
    } else if (!strcmp(a, "-e") || !strcmp(a, "-t")) {
      if (!set_mode(o, a[1] == 'e' ? REPL_MODE_EVAL : REPL_MODE_TYPE, a, error)) return false;
      o->expr = argv[++i];
    } else if (!strcmp(a, "--types") || !strcmp(a, "--print") || !strcmp(a, "--annot")) {
      if (!set_mode(o, a[2] == 't' ? REPL_MODE_TYPES : a[2] == 'p' ? REPL_MODE_PRINT : REPL_MODE_ANNOT, a, error))
        return false;
      mode_file = argv[++i];
    } else if (!strcmp(a, "--stack")) {
      if (!parse_stack(argv[++i], o, error)) return false;
    } else if (!strcmp(a, "--max-heap")) {
      if (!parse_mb(a, argv[++i], REPL_MIN_HEAP_MB, &o->max_heap_mb, error)) return false;
    } else if (!strcmp(a, "--timeout")) {
      if (!parse_timeout(argv[++i], o, error)) return false;
    } else if (!strcmp(a, "--sandbox")) {
      o->sandbox = true;
    } else if (!strcmp(a, "--serve")) {
      if (!set_mode(o, REPL_MODE_SERVE, a, error)) return false;
    } else if (!strcmp(a, "--lsp")) {
      if (!set_mode(o, REPL_MODE_LSP, a, error)) return false;
    } else if (!strcmp(a, "--no-prelude")) {
      o->no_prelude = true;
    } else if (!strcmp(a, "-i")) {
      o->interactive = true;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      o->mode = REPL_MODE_HELP;
      return true;
    } else if (!strcmp(a, "--version")) {
      o->mode = REPL_MODE_VERSION;
      return true;
    } else {
      *error = ir_printf("unknown option `%s`", a);
      return false;
    }
  }
  if (mode_file) {
    if (o->nfiles) {
      *error = ir_printf("%s takes one file; `%s` is extra",
                         o->mode == REPL_MODE_PRINT ? "--print" : o->mode == REPL_MODE_ANNOT ? "--annot" : "--types",
                         o->files[0]);
      return false;
    }
    o->files[o->nfiles++] = mode_file;
  }
  if (o->interactive && o->mode != REPL_MODE_REPL) {
    *error = "-i cannot be combined with -e, -t, --types, --print, --annot, --serve or --lsp";
    return false;
  }
  if (o->mode == REPL_MODE_SERVE && o->nfiles) {
    *error = ir_printf("--serve takes no files (`%s`); an eval of `:load FILE` loads one", o->files[0]);
    return false;
  }
  if (o->mode == REPL_MODE_LSP && o->nfiles) {
    *error = ir_printf("--lsp takes no files (`%s`): the editor sends the documents it opens", o->files[0]);
    return false;
  }
  if (o->sandbox && o->mode != REPL_MODE_SERVE) {
    *error = "--sandbox is an option of --serve (relay --serve --sandbox)";
    return false;
  }
  if (o->timeout_given && o->mode != REPL_MODE_SERVE) {
    *error = "--timeout is an option of --serve: the time limit of each request";
    return false;
  }
  if (o->sandbox) { /* the limits a sandbox has unless they are given */
    if (!o->timeout_given) o->timeout_s = REPL_SANDBOX_TIMEOUT_S;
    if (!o->max_heap_mb) o->max_heap_mb = REPL_SANDBOX_HEAP_MB;
  }
  if (o->mode == REPL_MODE_REPL && o->nfiles && !o->interactive) o->mode = REPL_MODE_RUN;
  return true;
}
