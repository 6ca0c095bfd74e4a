/* The symbol table: open addressing over FNV-1a hashes; symbols live in uncollectable memory
 * because the table itself is the only root that must keep them. And the edit distance between
 * two names, for the hints that say "did you mean". */
#include "ir/symbol.h"

#include <string.h>

#include "ir/mem.h"

static struct {
  Sym *slots;
  size_t cap, count;
} table;

static uint32_t hash_of(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static void grow(void) {
  size_t cap = table.cap ? table.cap * 2 : 1024;
  Sym *slots = ir_injected_failure() ? NULL : GC_MALLOC_UNCOLLECTABLE(cap * sizeof(Sym));
  if (!slots) ir_out_of_memory(cap * sizeof(Sym));
  for (size_t i = 0; i < table.cap; i++) {
    Sym s = table.slots[i];
    if (!s) continue;
    size_t j = s->hash & (cap - 1);
    while (slots[j]) j = (j + 1) & (cap - 1);
    slots[j] = s;
  }
  if (table.slots) GC_FREE(table.slots);
  table.slots = slots;
  table.cap = cap;
}

Sym ir_sym_n(const char *name, size_t len) {
  if (2 * (table.count + 1) > table.cap) grow();
  uint32_t h = hash_of(name, len);
  size_t j = h & (table.cap - 1);
  for (Sym s; (s = table.slots[j]); j = (j + 1) & (table.cap - 1))
    if (s->hash == h && s->len == len && memcmp(s->name, name, len) == 0) return s;
  IrSymbol *s = ir_injected_failure() ? NULL : GC_MALLOC_ATOMIC_UNCOLLECTABLE(sizeof(IrSymbol) + len + 1);
  if (!s) ir_out_of_memory(sizeof(IrSymbol) + len + 1);
  s->hash = h;
  s->len = (uint32_t)len;
  memcpy(s->name, name, len);
  s->name[len] = '\0';
  table.slots[j] = s;
  table.count++;
  return s;
}

Sym ir_sym(const char *name) { return ir_sym_n(name, strlen(name)); }

bool ir_sym_one_edit(Sym a, Sym b) {
  if (a->len > 30 || b->len > 30) return false; /* as ir_sym_distance, which gives up there */
  if (a->len < b->len) {
    Sym t = a;
    a = b, b = t;
  }
  const char *x = a->name, *y = b->name;
  uint32_t n = b->len, i = 0;
  while (i < n && x[i] == y[i]) i++; /* the common start */
  if (a->len == b->len + 1) return !strcmp(x + i + 1, y + i); /* x has one more letter, at i */
  if (a->len != b->len || i == n) return false;
  if (!strcmp(x + i + 1, y + i + 1)) return true; /* replaced at i */
  return i + 1 < n && x[i] == y[i + 1] && x[i + 1] == y[i] && !strcmp(x + i + 2, y + i + 2); /* swapped */
}

int ir_sym_distance(const char *a, const char *b) {
  int la = (int)strlen(a), lb = (int)strlen(b);
  if (la > 30 || lb > 30) return 99;
  int d[32][32];
  for (int i = 0; i <= la; i++) d[i][0] = i;
  for (int j = 0; j <= lb; j++) d[0][j] = j;
  for (int i = 1; i <= la; i++)
    for (int j = 1; j <= lb; j++) {
      int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
      d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < d[i][j])
        d[i][j] = d[i - 2][j - 2] + 1;
    }
  return d[la][lb];
}
