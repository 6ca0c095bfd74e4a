/* A type relation that failed, kept with its arguments as they were (failure.c records it, in the
 * diagnostic that reported it; explain.c runs it again for :explain). Private to typing/. */
#ifndef TYPING_FAILURE_H
#define TYPING_FAILURE_H

#include "typing/ty.h"

struct TyFailure {
  TyRelId rel;
  const char *op, *global; /* as TyRelation's */
  int nargs;
  IrType **args; /* resolved; its holes numbered 0, 1, ... in the order met */
  int nholes;
  uint8_t *lits; /* each hole's TyLitClass */
  const IrOpAttrs *attrs;
  int nattrs;
  IrAttr *written;
  const char *message; /* as reported: the first line, then the notes, one a line */
  int argument;        /* >= 0: not the relation failed, but this argument of the operator's call did
                          not have its parameter's type; args has the argument's own type */
};

#endif
