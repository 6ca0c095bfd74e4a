/* Interned names: every identifier, sigil name and operator name is a Sym, so names compare by
 * pointer. The table is process-wide and only grows (symbols are never freed). */
#ifndef IR_SYMBOL_H
#define IR_SYMBOL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct IrSymbol {
  uint32_t hash;
  uint32_t len;
  char name[];
} IrSymbol;

typedef const IrSymbol *Sym;

Sym ir_sym(const char *name);
Sym ir_sym_n(const char *name, size_t len);
/* The edit distance between two names, a swap of two neighbours counting as one edit (`:tpye` is
 * one from `:type`), for "did you mean"; names longer than 30 bytes are far from everything. */
int ir_sym_distance(const char *a, const char *b);
/* Whether ir_sym_distance(a, b) == 1 (one letter inserted, deleted, replaced, or two neighbours
 * swapped), in time linear in their lengths: a check that tries every name of a large file at
 * each of its errors stays fast. */
bool ir_sym_one_edit(Sym a, Sym b);

#endif
