/* Test support: collect the .rly files under a list of directories (or single files), sorted,
 * and read them. Shared by the round-trip and fuzz tests. */
#ifndef TESTS_UNIT_WALK_H
#define TESTS_UNIT_WALK_H

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/ir.h"

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

#endif
