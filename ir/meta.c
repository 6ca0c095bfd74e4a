/* TVM's metadata section (meta.h): a JSON reader, base64, TVM's NDArray format and the node graph.
 * Not written yet: every section is an error. */
#include "ir/meta.h"

#include <string.h>

IrMeta *ir_meta_parse(const char *text, size_t len, const char **error, size_t *error_off) {
  (void)text, (void)len;
  *error = "metadata sections are not read yet";
  *error_off = 0;
  return NULL;
}

const IrMetaEntry *ir_meta_get(const IrMeta *m, const char *key, int64_t i) {
  if (!m) return NULL;
  for (int k = 0; k < m->nkinds; k++)
    if (!strcmp(m->kinds[k].key, key)) return i >= 0 && i < m->kinds[k].n ? &m->kinds[k].items[i] : NULL;
  return NULL;
}
