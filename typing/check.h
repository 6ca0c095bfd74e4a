/* The state of checking one chunk (private to typing/): the module it checks against, the
 * solver's context, the scopes of local variables and type parameters, and the chunk's own
 * definitions while their group is being inferred. A type error is reported once and unwinds
 * (longjmp) to the unit it is in — a data declaration, a definition group, a top-level expression —
 * and checking goes on with the units that do not use what failed; the module changes only at
 * ty_commit. */
#ifndef TYPING_CHECK_H
#define TYPING_CHECK_H

#include <setjmp.h>

#include "typing/ty.h"

struct TyModule {
  IrSymMap globals; /* name -> newest IrTDef */
  IrSymMap adts;    /* name -> newest IrData */
  IrSymMap ctors;   /* name -> newest IrTCtor */
  IrSymMap adt_ctors; /* name -> the IrTCtors of the newest IrData (one array, as its ctors) */
  int ndefs;        /* IrTDef ids given so far (a chunk that fails leaves a gap) */
  IrSymMap values;  /* name (no sigil) -> newest session binding (an IrTDef with `value`) */
  IR_VEC(const IrTDef *) bindings; /* the newest session binding of each name, in order made */
  IrType *op_schemes[IR_OP_COUNT]; /* built on first use (ops.c) */
};

typedef IR_VEC(IrTypeParam) TyParamList;

/* A local variable in scope; `shadowed` is the binding of the same name it hides. */
typedef struct TyLocal {
  Sym name;
  IrType *type; /* a FUNC with type parameters when generalized (a let-bound function) */
  struct TyLocal *shadowed;
  struct TyFnScope *fn; /* the function whose frame holds it */
  int slot;
  uint32_t order; /* bound after the locals of smaller order (a hole lists its scope in this order) */
  const IrExpr *restricted; /* a let's value, not a function literal, whose function type had holes that the
                               value restriction kept from being generalized (for a hint); or NULL */
  TyIdList restricted_holes; /* those holes */
} TyLocal;

/* The function being checked, for the frames of the typed program: its slots (released in the
 * reverse order they are taken, like a stack), and the variables it captures from the functions
 * around it, each once (by name: while a function is checked, the scopes around it do not change,
 * so a name means one variable of theirs). */
typedef struct TyFnScope {
  struct TyFnScope *outer;
  int nslots, maxslots;
  IrSymMap captured; /* name -> its index in caps, + 1 */
  IR_VEC(IrTVar) caps;
  TyLocal *self; /* a recursive let's function: the variable that names it, or NULL */
  int self_index; /* the entry of caps that is self, or -1 */
} TyFnScope;

/* A definition of the chunk being checked. */
typedef struct TyDef {
  const IrItem *item;
  IrTDef *def;    /* what checking makes of it */
  IrType *type;   /* while its group is inferred: monomorphic (holes); after: the scheme */
  bool declared;  /* its signature is complete, so its scheme is known before its body */
  bool done;      /* generalized */
  int index, low; /* Tarjan's SCC bookkeeping */
  bool on_stack;
} TyDef;

/* A typed hole met while checking (holes.c): its typed node, its type as inferred (annotation
 * replaces the node's with the resolved one), and the local variables in scope there, outermost
 * first (the innermost few: nhidden more are in scope). */
typedef struct TyHole {
  IrTExpr *node;
  IrType *type;
  int nscope, nhidden;
  TyLocal **scope;
  int ntparams; /* the type parameters in scope there (declared ones, rigid) */
  IrTypeParam *tparams;
} TyHole;

typedef struct TyCheck {
  TyCtx cx;
  TyModule *m;
  IrDiags *diags;
  jmp_buf *fail;
  IrSymMap locals;                /* name -> innermost TyLocal */
  TyParamList tparams;            /* rigid type parameters in scope */
  TyParamList *implicit;          /* collects implicit parameters of a signature, or NULL */
  IrSymMap chunk_defs;            /* name -> TyDef of this chunk */
  bool session;                   /* checking a REPL input: the session's bindings are in scope */
  IrSymMap chunk_values;          /* its session bindings so far: name -> IrTDef */
  IrSymMap chunk_adts;            /* name -> IrData of this chunk */
  IrSymMap chunk_ctors;           /* name -> IrCtor of this chunk */
  IrSymMap *flexible;             /* in a literal's signature: unknown type names -> holes */
  TyFnScope *scope;               /* the function being checked */
  IR_VEC(IrTExpr *) literals;     /* unsuffixed integer literals, range-checked at the end */
  IR_VEC(IrTExpr *) free_vars;    /* the `free_var`s of the top-level expression being checked */
  const char *graph_use;          /* while checking a graph binding's value where it is used out of its
                                     scope: a note saying so, for an unknown variable in it */
  TyRelation *arg_rel;            /* while an operator call's argument arg_index (of type arg_type) is
                                     checked against its parameter: the operator's relation, which a
                                     failure keeps for :explain (ty_failure_of_argument); else NULL */
  int arg_index;
  IrType *arg_type;
  const char *expect_hint;        /* a note that ty_expect adds to its failure, or NULL */
  uint32_t nbound;                /* locals bound so far (TyLocal.order) */
  IR_VEC(TyHole) holes;           /* the holes of the group or expression being checked, not reported yet */
  int holes_reported;             /* the chunk's holes described so far */
  IrPtrMap *seen;                 /* for :annot of an ill-typed expression and :graph of a definition that failed
                                     (ty_partial_types): AST node -> the type found for it
                                     so far (holes and all), else NULL */
  IR_VEC(const void *) seen_group; /* the nodes of seen noted in the group being checked: their holes belong
                                      to its context, so they are named when the next group starts */
  bool assumed_marked;            /* the group's operator calls whose relation was left open are marked
                                     (IrTExpr.u.call.assumed), for their results to be checked */
  /* Names whose definition failed (a type error, a parse error, defined twice): a unit that uses
   * one stops silently (ty_skip), as its errors would only repeat that failure. */
  IrSymMap failed_defs, failed_adts, failed_ctors;
  IrSymMap failed_values;         /* a REPL input's `let %x` (or `%it`) whose item failed */
  bool unnamed_def, broken_data;  /* an unparsed definition without its name: an unknown global may be it;
                                     an unparsed data declaration: an unknown constructor may be its */
  bool skipped;                   /* the unit stopped at a failed name (no error of its own) */
  bool stopped;                   /* an interrupt: no more units are checked */
  bool keep_seen;                 /* seen keeps the types of the units that check too (ty_partial_types) */
} TyCheck;

/* ---------------------------------------------------------------- errors (module.c) */

_Noreturn void ty_fail(TyCheck *c, IrSpan span, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same with notes (each a line such as "expected: int32"); NULL notes are skipped. Give the
 * notes as TY_NOTES("a", maybe_null, "c"). */
_Noreturn void ty_fail_notes(TyCheck *c, IrSpan span, int nnotes, const char *const *notes, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#define TY_NOTES(...)                                                                              \
  (int)(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *)), (const char *[]){__VA_ARGS__}
/* Unifies, or fails with "<what> has the wrong type", expected and found, and the innermost
 * difference as notes. `what` is formatted only on failure: unification is the hot path. */
void ty_expect(TyCheck *c, IrSpan span, IrType *expected, IrType *found, const char *what, ...)
    __attribute__((format(printf, 5, 6)));
/* Runs the solver; a failed relation has been reported: unwind. */
/* Fails with "the type of <what> is too large" when t, written out, has more than
 * TY_MAX_TYPE_PARTS parts; inexact (each binding's check: cheap, see ty_larger_than) or exact (a
 * definition's or an expression's final type, whose printing the bound protects). */
void ty_check_size(TyCheck *c, IrSpan span, IrType *t, bool exact, const char *what, ...)
    __attribute__((format(printf, 5, 6)));
void ty_solve_or_fail(TyCheck *c);
/* Stops the unit being checked without an error: it uses a name whose definition failed. What the
 * unit reported so far (warnings) is taken back. */
_Noreturn void ty_skip(TyCheck *c);
/* Notes a node's type in c->seen (when set): what :annot and :graph show after an error. */
void ty_note_seen(TyCheck *c, const void *node, IrType *t);
/* A type for messages: resolved, holes shown as `_`. */
const char *ty_show(TyCheck *c, IrType *t);

/* ---------------------------------------------------------------- lookups (module.c) */

/* The data type or constructor a name means in the chunk, or NULL; one whose declaration failed
 * skips the unit (ty_skip), and so does an unknown constructor while a data declaration of the
 * chunk did not parse (it may be one of its). */
const IrData *ty_find_adt(TyCheck *c, Sym name);
const IrTCtor *ty_find_ctor(TyCheck *c, Sym name);

/* ---------------------------------------------------------------- annotations (annot.c) */

/* The checker's form of a written type: ADT names resolved, kinds checked, type parameters in
 * scope made rigid, and (when c->implicit is set) unknown names made implicit parameters. */
IrType *ty_annotation(TyCheck *c, IrType *written, IrKind kind);
/* `_` in a written type: an incomplete type, found by the checker (TVM's), a fresh hole each time. */
bool ty_is_wildcard(const IrType *t);
bool ty_has_wildcard(IrType *t);
/* A written `where` relation checked against the function type f (parameters and result in the
 * checker's form): known name, right arity; a bare one relates all of f's types. */
IrRel ty_relation_annotation(TyCheck *c, IrRel written, const IrType *f);
/* Pushes declared type parameters into scope; returns the old scope size for ty_pop_tparams. */
int ty_push_tparams(TyCheck *c, int n, const IrTypeParam *ps);
void ty_pop_tparams(TyCheck *c, int mark);
/* Checks a data declaration's constructors; their schemes go to out[0 .. d->nctors). */
void ty_check_data(TyCheck *c, const IrData *d, IrTCtor *out);

/* ---------------------------------------------------------------- schemes (scheme.c) */

/* A fresh instance of a scheme (a FUNC with type parameters and relations): parameters become
 * holes (or the given written type arguments), and its relations join the solver at `span`.
 * `call` is the operator's call whose attributes (`attrs`, decoded) they read, the operator itself
 * when it is passed as a value (no attributes), the global whose scheme it is (messages name it),
 * or NULL (a constructor, a let-bound function). */
IrType *ty_instantiate(TyCheck *c, IrType *scheme, int ntargs, IrType **targs, IrSpan span, const IrExpr *call,
                       const IrOpAttrs *attrs);
/* Gives unsuffixed literals still undecided their default base types: int32 (int64 for an integer
 * beyond int32's range, as TVM), float32. */
void ty_default_literals(TyCheck *c);
/* Generalizes t over the holes above the current level: they become named parameters (after the
 * declared ones), and the open relations that mention only them its `where` clause. */
IrType *ty_generalize(TyCheck *c, IrType *t, int ndeclared, const IrTypeParam *declared);
/* The same for the types of a group that share holes (definitions that call each other): each
 * scheme lists its declared parameters, then the generalized ones it mentions, and those that
 * only its relations mention (an intermediate result: `%w * %x + %b`). */
void ty_generalize_group(TyCheck *c, int n, IrType **types, const TyParamList *declared, IrType **schemes);

/* ---------------------------------------------------------------- inference (infer.c) */

/* A function's signature in the checker's form: its type parameters (declared, then implicit
 * ones in order of appearance), parameter and result types (holes where not written), and
 * `where` relations. `complete` when every parameter and the result are written. */
typedef struct TyHeader {
  int ntparams;
  IrTypeParam *tparams;
  IrType *type; /* FUNC without type parameters */
  int nrels;
  IrRel *rels;
  bool complete;
} TyHeader;

TyHeader ty_fn_header(TyCheck *c, const IrFn *fn, IrSpan span, bool is_def);
/* Checks a function's body (the function `src`, IR_EXPR_FN) against its header, in a frame of its
 * own; `self` is the variable a recursive let binds it to, or NULL. */
IrTFn *ty_fn_body(TyCheck *c, const IrExpr *src, const TyHeader *h, TyLocal *self);
/* The header as a scheme: FUNC with its type parameters and relations. */
IrType *ty_header_scheme(const TyHeader *h);
/* The typed form of e, its type still with holes (ty_annotate resolves them). */
IrTExpr *ty_infer(TyCheck *c, const IrExpr *e);
/* Checks a top-level expression as the body of a function of no parameters. */
IrTFn *ty_toplevel(TyCheck *c, const IrExpr *e);
/* Resolves every node's type, marks the values that need a run-time `?` check, and checks match
 * exhaustiveness. */
void ty_annotate(TyCheck *c, IrTFn *fn);
/* Checks that every unsuffixed integer literal fits the base type it got. */
void ty_check_literals(TyCheck *c);

/* ---------------------------------------------------------------- typed holes (holes.c) */

/* Records a hole (its typed node made, its type given) with the variables in scope. */
void ty_hole(TyCheck *c, IrTExpr *node);
/* The types to generalize with the group being checked, so that the holes' descriptions name
 * their unknowns as its types do (t1, n1): each recorded hole's type and its scope's. */
IrType **ty_hole_types(TyCheck *c, int *n);
/* Describes each recorded hole (diagnostics of kind hole: its type, the relations that constrain
 * it, the variables in scope), after its group is solved and generalized. */
void ty_report_holes(TyCheck *c);

/* ---------------------------------------------------------------- operators (ops.c) */

/* The type scheme of an operator, or NULL when its type rule is not implemented yet. */
IrType *ty_op_scheme(TyCheck *c, IrOpId op, int nargs);
/* What the operators whose relation is rel give it, for a `where` clause that names it: the fewest
 * and most types (their arguments and the result), and the attributes every one of them requires
 * (which the relation may read without a default). False when no operator has it. */
bool ty_relation_needs(TyRelId rel, int *min_types, int *max_types, bool required[IR_A_COUNT]);

/* ---------------------------------------------------------------- patterns (exhaustive.c) */

/* Warns about a match that misses values (with an example) and about unreachable clauses. */
void ty_check_exhaustive(TyCheck *c, const IrTExpr *match);

#endif
