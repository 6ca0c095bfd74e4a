/* Completion: the names that start with a prefix, for the REPL's Tab and relay --serve's
 * `complete`. */
#ifndef REPL_COMPLETE_H
#define REPL_COMPLETE_H

#include "repl/session.h"

typedef enum {
  REPL_CAND_COMMAND,     /* `:type` */
  REPL_CAND_GLOBAL,      /* `@map` */
  REPL_CAND_BINDING,     /* `%x`, `%it` */
  REPL_CAND_DATA,        /* `List` */
  REPL_CAND_CONSTRUCTOR, /* `Cons` */
  REPL_CAND_OPERATOR,    /* `nn.conv2d` */
} ReplCandKind;

typedef struct ReplCandidate {
  const char *name;
  ReplCandKind kind;
  int index; /* COMMAND: its number (repl_command_names); OPERATOR: its IrOpId */
  const IrItem *item; /* GLOBAL, DATA, CONSTRUCTOR: the definition or data declaration */
  const IrCtor *ctor; /* CONSTRUCTOR */
  const IrTDef *binding; /* BINDING */
} ReplCandidate;

/* The candidates for a word: commands after `:`, globals after `@`, the session's bindings after
 * `%`, else data types, constructors and operators; each name once (the newest of a name), in the
 * order they were made. Returns their number. */
int repl_complete(const Session *s, const char *prefix, ReplCandidate **out);
/* What a candidate is, as --serve's `complete` shows it: the type of a global, binding,
 * constructor or operator, a data type's head (`data List<a>`), a command's help line. */
const char *repl_candidate_detail(const Session *s, const ReplCandidate *c);
const char *repl_candidate_kind_name(ReplCandKind kind);

#endif
