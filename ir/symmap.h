/* A hash map from symbols to pointers (open addressing on the symbol's address). Names are
 * looked up in O(1) however many globals, locals or constructors a program has. */
#ifndef IR_SYMMAP_H
#define IR_SYMMAP_H

#include "ir/symbol.h"

typedef struct IrSymMap {
  Sym *keys;
  void **values;
  size_t cap, count;
} IrSymMap;

/* The value for key, or NULL. */
void *ir_symmap_get(const IrSymMap *m, Sym key);
/* Sets key's value (NULL removes nothing: store a value to overwrite). */
void ir_symmap_put(IrSymMap *m, Sym key, void *value);

#endif
