/* What typing/ offers: everything that assigns types (unifier, relation solver, relations,
 * inference, kinds, generalization, match exhaustiveness). It reads the AST of ir/, never writing
 * into it, and makes the typed program of ir/typed.h; it never sees a run-time value. */
#ifndef TYPING_TYPING_H
#define TYPING_TYPING_H

#include "ir/ir.h"

typedef enum {
#define TY_REL(id, name, fn, nargs, attrs) TY_REL_##id,
#include "typing/relations.def"
#undef TY_REL
  TY_REL_COUNT
} TyRelId;

/* ---------------------------------------------------------------- the module */

/* The definitions checked so far: globals with their type schemes, data types and their
 * constructors. A later definition of a name shadows the earlier one for the code after it. */
typedef struct TyModule TyModule;

TyModule *ty_module_new(void);

/* Checks a parsed chunk (a file, a REPL input) against the module: data types, then the
 * definitions in dependency order (each strongly connected group generalized together), then the
 * top-level expressions. Returns the typed program, or NULL when the chunk has an error. The
 * module is unchanged: on success, the chunk's definitions join it at ty_commit (after the run
 * time has compiled them). Errors and warnings are reported in diags: every error, as a unit (a
 * data declaration, a definition group, a top-level expression) that fails does not stop the
 * others, but the units that use a name that failed are skipped, saying nothing (no cascade);
 * then diags is sorted by place (ir_diags_sort, with what it held before: the parse errors). */
IrTProgram *ty_check_program(TyModule *m, const IrProgram *prog, IrDiags *diags);
/* The same for the definitions only (data and defs), as `-e` and `-t` load files: their
 * top-level expressions are neither run nor checked. */
IrTProgram *ty_check_definitions(TyModule *m, const IrProgram *prog, IrDiags *diags);
/* ty_check_program for an editor (relay --lsp): never NULL. With errors, the typed program has
 * every unit that checked (its types, definitions' schemes, annotated bodies) and marks the items
 * that did not (IrTItem.failed, .skipped; IrTProgram.failed), with the types found in them before
 * they stopped (IrTProgram.partial: hover in a broken definition). prog may be a program parsed
 * with errors (IrParseResult.partial): its items that did not parse count as failed definitions,
 * their names known, their users skipped. Never to be run or committed when tp->failed. */
IrTProgram *ty_check_program_all(TyModule *m, const IrProgram *prog, IrDiags *diags);
/* Adds a checked chunk's data types and definitions to the module: all of them, or (out of
 * memory, unwinding to the caller's trap) none. */
void ty_commit(TyModule *m, const IrTProgram *prog);

/* The module's names (its newest global, data type and constructor of each name) as they are now,
 * for the REPL's :load and :reload, which replace the definitions of files as a whole: a copy,
 * which later changes of the module leave alone. */
typedef struct TyNames TyNames;
TyNames *ty_names_save(const TyModule *m);
/* Puts the module's names back as they were saved (a :reload that failed); the definitions
 * committed since stay compiled, but no name reaches them. */
void ty_names_restore(TyModule *m, const TyNames *saved);
/* Unloads a committed chunk (a file that :reload loads again): each of its definitions, data
 * types and constructors that is still the newest of its name gives way to what `before` (saved
 * before the chunk was committed) had under that name, or the name is gone. Names that later
 * chunks defined again keep those. */
void ty_unload(TyModule *m, const IrTProgram *prog, const TyNames *before);
/* What saved names had under a name: its global, its constructor (NULL: none). */
const IrTDef *ty_names_global(const TyNames *n, Sym name);
const IrTCtor *ty_names_ctor(const TyNames *n, Sym name);

/* What checking found in a chunk with type errors (the REPL's :graph of a definition that failed):
 * checks prog again, the module unchanged, and maps each expression of it (IrExpr *) that was
 * inferred (in a unit that failed, before its error) to its type as far as it was known then,
 * unknown parts as `_a`. */
IrPtrMap *ty_partial_types(TyModule *m, const IrProgram *prog);
/* Session bindings: a REPL input's `let %x = e` and `%it` (IrTItem.def with `value`), checked
 * with their input but joining the module only here, once their value has been computed (an
 * evaluation that fails binds nothing). Later REPL inputs and expressions see the newest of
 * each name; files do not. */
void ty_bind_value(TyModule *m, const IrTDef *def); /* allocates nothing: ty_commit made room */
/* The newest binding of each name, in the order they were made; returns their number. */
int ty_bindings(const TyModule *m, const IrTDef *const **out);
const IrTDef *ty_binding(const TyModule *m, Sym name);

/* A standalone expression (`-t`, `-e`, `:t`), checked as the body of a function of no parameters;
 * *type is its type, generalized for display. NULL on error. */
IrTFn *ty_check_expression(TyModule *m, const IrExpr *e, IrType **type, IrDiags *diags);

/* What the REPL's :t and :annot show of an expression (ty_explore_expression). */
typedef struct TyExplored {
  IrTFn *fn;    /* its typed form, or NULL when it has a type error; with holes, never to be compiled */
  IrType *type; /* its type, generalized for display (holes and all), or NULL */
  int nholes;   /* the holes it has, each described in the diagnostics (IR_DIAG_HOLE) */
  IrPtrMap partial; /* when it has a type error: each AST node checked before the error -> the type found
                     * for it then, unknowns shown as in messages (_a, _b) */
} TyExplored;

/* Checks an expression as ty_check_expression does, for a look at how its types are found: an
 * expression with holes checks (its holes described in diags), and one with a type error keeps
 * the types found before it (out->partial, for ir_print_expr_partial). */
void ty_explore_expression(TyModule *m, const IrExpr *e, TyExplored *out, IrDiags *diags);

/* The kind of a written type, for the REPL's :kind: `Type` for a type (whose unknown names are
 * taken as type parameters), `BaseType`, `Shape`, `ShapeVar`, or `Type -> Type` (`(Type, Type) ->
 * Type`) for a data type named without its arguments. NULL, with the reason in diags, when it is
 * no valid type; a name alone that names no data type is none. */
const char *ty_describe_kind(TyModule *m, IrType *written, IrDiags *diags);
/* An operator's type scheme, `fn<t1, t2>(t1) -> t2 where Reshape(t1, t2)` (with the most
 * arguments it takes), for the REPL's :info. */
IrType *ty_operator_scheme(TyModule *m, int op);
/* The data type `name` (the newest), or NULL. */
const IrData *ty_module_adt(const TyModule *m, Sym name);
/* The newest global `name` and its type scheme, or NULL. */
const IrTDef *ty_global_def(const TyModule *m, Sym name);
IrType *ty_global_type(const TyModule *m, Sym name);
/* The type scheme of a constructor that joined the module and that a name still reaches: its
 * declaration's (the newest data type of its name) or one of its declaration's constructors (the
 * newest of their names); else NULL. */
IrType *ty_ctor_scheme(const TyModule *m, const IrCtor *k);
/* The newest constructor `name`, or NULL. */
const IrTCtor *ty_module_ctor(const TyModule *m, Sym name);
/* The number of arguments of the newest constructor `name`, or -1 (the parser's callback). */
int ty_ctor_arity(void *module, Sym name);

/* ---------------------------------------------------------------- relations */

/* The relation a `where` clause names, or -1 when there is none of that name. */
int ty_relation_find(Sym name);
const char *ty_relation_name(TyRelId rel);
int ty_relation_arity(TyRelId rel); /* -1: any number */
const char *ty_relation_attrs(TyRelId rel);

/* ---------------------------------------------------------------- explaining (explain.c) */

/* A type relation that failed while checking, as the diagnostic that reported it keeps it
 * (IrDiag.detail): the relation, its operator or global, its arguments' types as they were. */
typedef struct TyFailure TyFailure;
/* The REPL's :explain: a relation such as `Broadcast(Tensor[(n, 3), float32], Tensor[(4, 1, 3),
 * float32])` (its result may be left out; an operator's name stands for its relation) run again
 * step by step — for Broadcast each axis of the shapes aligned from the right with the rule that
 * decides it — then the relation's own verdict: its result, or the checker's message. Text of
 * lines; NULL, with the reason in diags, when the relation is not well written. */
const char *ty_explain_relation(TyModule *m, const IrRel *written, IrDiags *diags);
/* The same for a failed relation that was kept. */
const char *ty_explain_failure(TyModule *m, const TyFailure *f);
/* How a checked expression that is a call of a polymorphic global or constructor instantiated
 * the callee's type parameters: "n := 64, t1 := float32", or NULL (no such call, nothing known). */
const char *ty_call_substitution(const IrTFn *expr);
/* The same for one use of a global or constructor (a typed GLOBAL or CTOR node), called or not. */
const char *ty_instance_substitution(const IrTExpr *use);

#endif
