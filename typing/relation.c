/* The registry of type relations: names now; the solver's functions join them in typing/. */
#include "typing/typing.h"

#include <string.h>

static const char *names[TY_REL_COUNT] = {
#define TY_REL(id, name) name,
#include "typing/relations.def"
#undef TY_REL
};

int ty_relation_find(Sym name) {
  for (int i = 0; i < TY_REL_COUNT; i++)
    if (strcmp(names[i], name->name) == 0) return i;
  return -1;
}

const char *ty_relation_name(TyRelId rel) { return names[rel]; }
