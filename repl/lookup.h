/* What an editor asks about a text (relay --lsp): the text checked against a session, whose
 * module stays as it was, with every error; each name in it resolved to what it names (a local to
 * its binder, a global, a constructor, a data type); what is at a place and its type. */
#ifndef REPL_LOOKUP_H
#define REPL_LOOKUP_H

#include "repl/session.h"

typedef enum {
  LOOKUP_LOCAL,  /* %x: a let's variable, a function's parameter, a pattern's variable */
  LOOKUP_GLOBAL, /* @f */
  LOOKUP_CTOR,   /* Cons */
  LOOKUP_DATA,   /* List, in a written type or a data declaration */
} LookupKind;

/* One occurrence of a name. Occurrences of the same thing have the same kind and target. */
typedef struct LookupName {
  LookupKind kind;
  IrSpan span;        /* the name as written, its sigil included */
  const void *target; /* LOCAL: the binder (an IrParam or IrPattern); else the name's Sym */
  bool binder;        /* this occurrence binds or declares it */
  bool annotated;     /* a LOCAL binder whose type is written */
  const IrType *type; /* the type found for it (a binder's, a use's instance), or NULL */
  const IrExpr *use;  /* a use: its node */
} LookupName;

typedef IR_VEC(LookupName) LookupNames;

typedef struct LookupDoc {
  const IrSource *src;
  const IrProgram *prog; /* NULL when nothing parsed */
  bool ok;               /* it parsed and checked */
  const IrTProgram *checked; /* what checking gave (ty_check_program_all: its failed and skipped items), or NULL */
  IrPtrMap *types;       /* AST node -> its type, where the checker found one */
  IrPtrMap *texprs;      /* AST node -> its typed node (IrTExpr), for the groups that checked */
  IrDiags diags;         /* every error, in source order */
  LookupNames names;     /* every occurrence, in source order */
} LookupDoc;

/* Parses and checks text (len bytes, named `name` in diagnostics) as a file against the session
 * (its Prelude and what it loaded in scope), the session unchanged; then resolves its names. False
 * only when memory ran out (d->diags says so). */
bool lookup_check(Session *s, const char *name, const char *text, size_t len, LookupDoc *d);
/* The same for a text already parsed (prog, NULL when it did not parse; or its partial form) and
 * checked with the session's module: tp from ty_check_program (NULL after a type error: the types
 * found before it stand in) or from ty_check_program_all (the units that checked, and what the
 * failed ones found). */
void lookup_of(Session *s, const IrSource *src, const IrProgram *prog, IrTProgram *tp, LookupDoc *d);
/* What a place's type is about: the binder whose name is at byte offset off, else the innermost
 * expression or pattern there; its span in *span (no span: nothing there). The type is NULL where
 * none was found. */
const IrType *lookup_place(const LookupDoc *d, size_t off, IrSpan *span);
/* The next binder from names[*i] on whose type is not written but found (an inlay hint's, an
 * annotation's to add) and whose name meets the bytes from..to, or NULL; *i moves past it. */
const LookupName *lookup_next_unwritten(const LookupDoc *d, int *i, size_t from, size_t to);
/* The occurrence of a name at byte offset off, or NULL. */
const LookupName *lookup_name_at(const LookupDoc *d, size_t off);
/* The innermost expression or pattern at byte offset off with the type found for it: its span in
 * *span, NULL when there is none. */
const IrType *lookup_type_at(const LookupDoc *d, size_t off, IrSpan *span, const IrExpr **node);
/* The item (definition, data declaration, expression) whose text holds byte offset off, or NULL. */
const IrItem *lookup_item_at(const LookupDoc *d, size_t off);
/* How a use of a polymorphic global or constructor instantiated its type parameters (`n := 64`),
 * or NULL. */
const char *lookup_instance(const LookupDoc *d, const LookupName *n);
/* The definition (kind IR_ITEM_DEF) or data declaration (IR_ITEM_DATA) of that name: the text's,
 * else the session's newest, or NULL. */
const IrItem *lookup_item_named(const Session *s, const LookupDoc *d, IrItemKind kind, Sym name);
/* The documentation of a global, constructor or data type of the text or the session: its
 * doc comment, or NULL. */
const char *lookup_doc_comment(const Session *s, const LookupDoc *d, const LookupName *n);
/* The type of a global or constructor by name, in the text or the session, or NULL. */
const IrType *lookup_scheme(const Session *s, const LookupDoc *d, const LookupName *n);

#endif
