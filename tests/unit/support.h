/* Test support for the parser's property tests: collecting .rly files, the round-trip check
 * itself, and running a test body on relay's large stack. */
#ifndef TESTS_UNIT_SUPPORT_H
#define TESTS_UNIT_SUPPORT_H

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/ir.h"
#include "runtime/runtime.h"

typedef IR_VEC(char *) PathList;

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_collect(const char *path, PathList *out) {
  struct stat st;
  if (stat(path, &st) != 0) return;
  if (S_ISREG(st.st_mode)) {
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".rly") == 0) IR_VEC_PUSH(*out, ir_strdup(path));
    return;
  }
  if (!S_ISDIR(st.st_mode)) return;
  DIR *d = opendir(path);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    walk_collect(ir_printf("%s/%s", path, e->d_name), out);
  }
  closedir(d);
}

/* All .rly files under the given roots, sorted within each root. */
static PathList walk_rly_files(int nroots, char **roots) {
  PathList all = {0};
  for (int i = 0; i < nroots; i++) {
    PathList one = {0};
    walk_collect(roots[i], &one);
    if (one.len) qsort(one.items, (size_t)one.len, sizeof(char *), compare_paths);
    for (int k = 0; k < one.len; k++) IR_VEC_PUSH(all, one.items[k]);
  }
  return all;
}

/* Whether prog prints to text that parses back to the same AST and prints the same again.
 * On failure `why` says what went wrong. */
static inline bool round_trips(const IrProgram *prog, IrBuf *why) {
  IrBuf p1, p2;
  ir_buf_init(&p1);
  ir_print_program(&p1, prog);
  IrDiags d = {0};
  IrParseResult r = ir_parse_program(ir_source_new("<printed>", p1.data, p1.len), NULL, &d);
  if (!r.program) {
    ir_buf_puts(why, "the printed form does not parse:\n");
    ir_diag_render(why, d.first, 0);
    ir_buf_printf(why, "printed:\n%s", p1.data);
    return false;
  }
  if (!ir_program_equal(prog, r.program, why)) {
    ir_buf_puts(why, "(reparsing the printed form gives a different AST)");
    return false;
  }
  ir_buf_init(&p2);
  ir_print_program(&p2, r.program);
  if (strcmp(p1.data, p2.data) != 0) {
    ir_buf_printf(why, "printing is not stable:\n%s\n--- then ---\n%s", p1.data, p2.data);
    return false;
  }
  return true;
}

/* main() for a test whose body needs relay's large stack: returns the body's exit status. */
typedef struct {
  int argc;
  char **argv;
  int status;
} TestArgs;

static int run_on_large_stack(void (*body)(void *), int argc, char **argv) {
  rt_heap_init();
  TestArgs a = {argc, argv, 1};
  if (!rt_stack_run(body, &a, RT_STACK_BYTES)) return 1;
  return a.status;
}

#endif
