/* The address map: linear probing over a power-of-two table, grown at half full. */
#include "ir/symmap.h"

#include <stdint.h>

#include "ir/mem.h"

static size_t slot_of(const void *key, size_t cap) { return (size_t)(((uintptr_t)key >> 4) * 0x9e3779b97f4a7c15ull) & (cap - 1); }

void *ir_ptrmap_get(const IrPtrMap *m, const void *key) {
  if (!m->cap) return NULL;
  for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) return m->values[i];
    if (!m->keys[i]) return NULL;
  }
}

static void grow_to(IrPtrMap *m, size_t cap) {
  const void **keys = IR_NEW_ARRAY(const void *, cap);
  void **values = IR_NEW_ARRAY(void *, cap);
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i]) continue;
    size_t j = slot_of(m->keys[i], cap);
    while (keys[j]) j = (j + 1) & (cap - 1);
    keys[j] = m->keys[i];
    values[j] = m->values[i];
  }
  m->keys = keys;
  m->values = values;
  m->cap = cap;
}

IrPtrMap ir_ptrmap_copy(const IrPtrMap *m) {
  IrPtrMap c = *m;
  if (c.cap) grow_to(&c, c.cap); /* new arrays, the same entries */
  return c;
}

void ir_ptrmap_reserve(IrPtrMap *m, size_t extra) {
  size_t cap = m->cap ? m->cap : 64;
  while (2 * (m->count + extra) > cap) cap *= 2;
  if (cap != m->cap) grow_to(m, cap);
}

void ir_ptrmap_put(IrPtrMap *m, const void *key, void *value) {
  ASSERT(key); /* NULL marks an empty slot */
  if (2 * (m->count + 1) > m->cap) grow_to(m, m->cap ? 2 * m->cap : 64);
  size_t i = slot_of(key, m->cap);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  if (!m->keys[i]) {
    m->keys[i] = key;
    m->count++;
  }
  m->values[i] = value;
}

/* Linear probing's deletion without tombstones: the keys after the hole up to the next empty slot
 * that would not be found past it move back into it. */
void ir_ptrmap_remove(IrPtrMap *m, const void *key) {
  if (!m->cap) return;
  size_t mask = m->cap - 1, i = slot_of(key, m->cap);
  while (m->keys[i] != key) {
    if (!m->keys[i]) return;
    i = (i + 1) & mask;
  }
  for (size_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
    size_t home = slot_of(m->keys[j], m->cap);
    if (((j - home) & mask) >= ((j - i) & mask)) { /* its home is at or before the hole: it may move there */
      m->keys[i] = m->keys[j];
      m->values[i] = m->values[j];
      i = j;
    }
  }
  m->keys[i] = NULL;
  m->values[i] = NULL;
  m->count--;
}
