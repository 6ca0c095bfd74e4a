/* What typing/ offers: everything that assigns types (unifier, relation solver, relations,
 * inference, kinds, generalization, match exhaustiveness). It reads the AST of ir/ and writes
 * the inferred type into every node; it never sees a run-time value. */
#ifndef TYPING_TYPING_H
#define TYPING_TYPING_H

#include "ir/ir.h"

typedef enum {
#define TY_REL(id, name, fn, nargs) TY_REL_##id,
#include "typing/relations.def"
#undef TY_REL
  TY_REL_COUNT
} TyRelId;

/* The relation a `where` clause names, or -1 when there is none of that name. */
int ty_relation_find(Sym name);
const char *ty_relation_name(TyRelId rel);
int ty_relation_arity(TyRelId rel);

#endif
