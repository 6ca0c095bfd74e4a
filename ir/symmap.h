/* A hash map from addresses to pointers (open addressing on the key's address): names, which are
 * interned symbols, are looked up in O(1) however many globals, locals or constructors a program
 * has; the checker also keys nodes by their address. */
#ifndef IR_SYMMAP_H
#define IR_SYMMAP_H

#include "ir/symbol.h"

typedef struct IrPtrMap {
  const void **keys;
  void **values;
  size_t cap, count;
} IrPtrMap;

/* The value for key (not NULL), or NULL. */
void *ir_ptrmap_get(const IrPtrMap *m, const void *key);
/* Sets key's value (NULL removes nothing: store a value to overwrite). */
void ir_ptrmap_put(IrPtrMap *m, const void *key, void *value);

/* Removes key and its value, if there; allocates nothing. (The map holds its keys: a key that is
 * removed can become garbage.) */
void ir_ptrmap_remove(IrPtrMap *m, const void *key);

/* A copy of m that changes apart from it. */
IrPtrMap ir_ptrmap_copy(const IrPtrMap *m);

/* Makes room for `extra` more keys, so that putting them allocates nothing (cannot fail). */
void ir_ptrmap_reserve(IrPtrMap *m, size_t extra);

/* A map from symbols: equal names are one symbol, so its address is the key. */
typedef IrPtrMap IrSymMap;

static inline void *ir_symmap_get(const IrSymMap *m, Sym key) { return ir_ptrmap_get(m, key); }
static inline void ir_symmap_put(IrSymMap *m, Sym key, void *value) { ir_ptrmap_put(m, key, value); }
static inline void ir_symmap_reserve(IrSymMap *m, size_t extra) { ir_ptrmap_reserve(m, extra); }

#endif
