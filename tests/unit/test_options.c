/* Unit tests of repl/options.c: every mode of DESIGN §7 and the usage errors. */
#include <string.h>

#include "repl/options.h"
#include "tests/unit/tap.h"

#include "ir/mem.h"

static ReplOptions opt;
static const char *err;

static bool parse(const char *line) {
  char *copy = ir_strdup(line);
  char *argv[32];
  int argc = 0;
  argv[argc++] = "relay";
  for (char *tok = strtok(copy, " "); tok && argc < 31; tok = strtok(NULL, " ")) argv[argc++] = tok;
  argv[argc] = NULL;
  err = NULL;
  return repl_options_parse(argc, argv, &opt, &err);
}

int main(void) {
  GC_INIT();
  tap_ok(parse("") && opt.mode == REPL_MODE_REPL && opt.nfiles == 0, "no arguments: the REPL");
  tap_ok(parse("a.rly b.rly") && opt.mode == REPL_MODE_RUN && opt.nfiles == 2, "files: run them");
  tap_ok(parse("a.rly -t @f") && opt.mode == REPL_MODE_TYPE && !strcmp(opt.expr, "@f") && opt.nfiles == 1,
         "options may follow the files");
  tap_ok(parse("-e 1+2") && opt.mode == REPL_MODE_EVAL && !strcmp(opt.expr, "1+2"), "-e EXPR");
  tap_ok(parse("--print a.rly") && opt.mode == REPL_MODE_PRINT && opt.nfiles == 1 && !strcmp(opt.files[0], "a.rly"),
         "--print FILE");
  tap_ok(parse("--types a.rly --no-prelude") && opt.mode == REPL_MODE_TYPES && opt.no_prelude, "--types FILE");
  tap_ok(parse("--annot a.rly") && opt.mode == REPL_MODE_ANNOT && opt.nfiles == 1, "--annot FILE");
  tap_ok(!parse("--annot a.rly b.rly") && strstr(err, "--annot takes one file"), "--annot takes exactly one file");
  tap_ok(parse("a.rly -i") && opt.mode == REPL_MODE_REPL && opt.interactive && opt.nfiles == 1, "-i loads then interacts");
  tap_ok(parse("-- -odd.rly") && opt.mode == REPL_MODE_RUN && !strcmp(opt.files[0], "-odd.rly"), "-- ends the options");
  tap_ok(parse("--help") && opt.mode == REPL_MODE_HELP, "--help");
  tap_ok(parse("--version") && opt.mode == REPL_MODE_VERSION, "--version");
  tap_ok(!parse("--print") && !strcmp(err, "--print needs an argument"), "a missing argument is a usage error");
  tap_ok(!parse("-x") && !strcmp(err, "unknown option `-x`"), "an unknown option is a usage error");
  tap_ok(!parse("-e 1 -t 2") && strstr(err, "cannot be combined"), "two modes are a usage error");
  tap_ok(!parse("-e 1 -e 2") && strstr(err, "given twice"), "a mode given twice is a usage error");
  tap_ok(!parse("--print a.rly b.rly") && strstr(err, "takes one file"), "--print takes exactly one file");
  tap_ok(parse("--stack 64 a.rly") && opt.stack_mb == 64 && opt.nfiles == 1, "--stack MB");
  tap_ok(!parse("--stack 8") && strstr(err, "from 64 to"), "--stack below the minimum is a usage error");
  tap_ok(!parse("--stack 1G") && strstr(err, "not `1G`"), "--stack takes a whole number");
  tap_ok(!parse("-i -e 1") && strstr(err, "-i cannot be combined"), "-i with -e is a usage error");
  tap_ok(parse("--serve --sandbox") && opt.mode == REPL_MODE_SERVE && opt.sandbox && opt.timeout_s == 10 &&
             opt.max_heap_mb == 512,
         "--sandbox: no files, 10 s a request and a heap of 512 MiB unless given");
  tap_ok(parse("--sandbox --timeout 2.5 --max-heap 64 --serve") && opt.sandbox && opt.timeout_s == 2.5 &&
             opt.max_heap_mb == 64,
         "--sandbox with its limits given");
  tap_ok(parse("--serve --sandbox --timeout 0") && opt.sandbox && opt.timeout_s == 0, "--timeout 0: no time limit");
  tap_ok(parse("--serve --timeout 3") && !opt.sandbox && opt.timeout_s == 3 && opt.max_heap_mb == 0,
         "--timeout without --sandbox");
  tap_ok(parse("--max-heap 100 a.rly") && opt.mode == REPL_MODE_RUN && opt.max_heap_mb == 100, "--max-heap in any mode");
  tap_ok(!parse("--sandbox") && strstr(err, "--sandbox is an option of --serve"), "--sandbox alone is a usage error");
  tap_ok(!parse("a.rly --sandbox") && strstr(err, "--sandbox is an option of --serve"), "--sandbox with files");
  tap_ok(!parse("--timeout 5 a.rly") && strstr(err, "--timeout is an option of --serve"), "--timeout without --serve");
  tap_ok(!parse("--serve --timeout -1") && strstr(err, "not `-1`"), "--timeout takes seconds, not a negative number");
  tap_ok(!parse("--serve --timeout 5s") && strstr(err, "not `5s`"), "--timeout takes a number of seconds");
  tap_ok(!parse("--max-heap 8") && strstr(err, "--max-heap takes a size in MiB from 32"), "--max-heap below its minimum");
  return tap_done();
}
