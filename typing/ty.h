/* The checker's working state (private to typing/): type variables in a union-find, the relations
 * waiting in the solver, and the operations every phase shares. An incomplete type is an
 * IR_TYPE_HOLE node whose id indexes `vars`; a hole of any kind (a type, a shape, a dimension, a
 * base type) lives in the same union-find, so one unifier serves them all. */
#ifndef TYPING_TY_H
#define TYPING_TY_H

#include "typing/typing.h"

/* What an unsuffixed literal allows its base type to become. */
typedef enum { TY_LIT_NONE, TY_LIT_INT, TY_LIT_FLOAT } TyLitClass;

typedef IR_VEC(uint32_t) TyIdList;

typedef struct TyVar {
  uint32_t parent; /* itself at a root */
  uint32_t rank;   /* union by rank */
  uint32_t level;  /* let-nesting depth where it may be generalized (Rémy's levels) */
  IrKind kind;
  uint8_t lit;        /* TyLitClass */
  IrType *resolved;   /* at a root: what the variable stands for, or NULL */
  TyIdList rels;      /* at a root: the relations that mention it (the "trigger list") */
  IrSpan origin;      /* the expression it was made for, for "cannot infer" */
  IrType *node;       /* the IR_TYPE_HOLE node that stands for it */
  IrType *zonked;     /* at a root, once the context is frozen: its resolved type, shared */
  uint32_t mark;      /* scratch for walks that need a set of holes: equal to TyCtx.epoch = in it */
  Sym hint;           /* at a root: the written name it stands for (`n` in a literal's annotation), for
                         the scheme to keep when generalized; or NULL */
} TyVar;

/* Where two types failed to unify: the innermost pair that differs, and for dimensions the
 * position within the shape. Start from TY_MISMATCH_INIT. */
typedef struct TyMismatch {
  IrType *expected, *found; /* the innermost differing parts */
  int dim;                  /* index of the differing dimension, or -1 */
  const char *reason;       /* e.g. "an infinite type", "ranks differ"; NULL for a plain mismatch */
} TyMismatch;

#define TY_MISMATCH_INIT ((TyMismatch){NULL, NULL, -1, NULL})

/* ---------------------------------------------------------------- relations */

typedef enum {
  TY_SOLVED,   /* holds, and will hold whatever the variables become */
  TY_PROGRESS, /* learned something (may have unified); run again when inputs change */
  TY_NOT_YET,  /* cannot decide until a variable it mentions changes */
  TY_FAILED,   /* does not hold: the message says why */
} TyRelResult;

typedef struct TyCtx TyCtx;
typedef struct TyRelation TyRelation;

/* A relation's C function. It may unify (through ty_unify) and reads its arguments through
 * ty_prune. On failure it sets *message. */
typedef TyRelResult (*TyRelFn)(TyCtx *cx, TyRelation *rel, const char **message);

struct TyRelation {
  TyRelFn fn;
  const char *name; /* as a `where` clause names it */
  int id;           /* its TyRelId (relations.def), or -1 for one of the checker's own (DimEq) */
  int nargs;
  IrType **args;
  IrSpan span;      /* the call that made it */
  const char *op;   /* the operator whose relation it is, or NULL */
  const char *global; /* else the global whose type has it (`plus` for @plus's where clause), or NULL */
  const IrOpAttrs *attrs; /* its attributes (never NULL: ir_op_attrs_none when there are none) */
  int nattrs;             /* and as written, for a `where` clause */
  IrAttr *written;
  const IrExpr *call;     /* the operator call that made it, or NULL */
  IrTExpr *node;          /* its operator call's typed node; or, for a polymorphic value's `where`
                           * clause, the node that instantiated it (a global, a local, ...); or NULL */
  bool queued, solved, owned; /* owned: moved into a generalized type's where clause */
  bool given;                 /* declared in a `where` clause: assumed in the body it heads */
  bool assumed;               /* solved by such an assumption, not decided */
  uint32_t runs;
  uint32_t mark; /* scratch, as TyVar.mark */
};

struct TyCtx {
  IR_VEC(TyVar) vars;
  IR_VEC(TyRelation *) rels;
  TyIdList givens; /* the indices of the relations declared by the `where` clauses in scope */
  TyIdList queue; /* relation indices, FIFO from queue_head */
  int queue_head;
  uint32_t level;
  uint64_t rel_runs; /* how many times any relation ran: the solver's cost */
  IrSymMap message_names; /* hole names in the message of the relation running now */
  bool frozen;            /* solved for good: ty_resolve may share one result per hole and node */
  IrPtrMap resolved_nodes; /* frozen: what ty_resolve made of each node it met */
  IrPtrMap part_counts;    /* ty_larger_than's counts of the subtrees without holes */
  IrPtrMap open_part_counts; /* and of those with holes, as they were (for the inexact count) */
  uint32_t epoch;         /* the current value of the scratch marks (bumped by each walk) */
  /* The first dimension whose arithmetic overflowed int64 (dim.c sets it: a normal form, ty_dim_add
   * and its siblings, a difference), or NULL. The solver clears it before each relation runs and
   * fails the relation if it is set after, with "dimension too large": a relation cannot take the
   * `?` that ty_dim_add returns then for an answer. A relation that reports the overflow itself,
   * naming its argument, takes it (ty_rel_overflowed in oprel.h). */
  IrType *dim_overflow;
  IrDiags *diags;
};

void ty_ctx_init(TyCtx *cx, IrDiags *diags);

/* ---------------------------------------------------------------- variables (unify.c) */

IrType *ty_fresh(TyCtx *cx, IrKind kind, IrSpan origin);
/* A fresh base type for an unsuffixed literal. */
IrType *ty_fresh_literal(TyCtx *cx, TyLitClass lit, IrSpan origin);
uint32_t ty_find(TyCtx *cx, uint32_t id);
/* Follows resolved holes at the top of t; the result is a non-hole or an unresolved root hole. */
IrType *ty_prune(TyCtx *cx, IrType *t);
/* t with every resolved hole replaced, all the way down. */
IrType *ty_resolve(TyCtx *cx, IrType *t);
/* t itself when f leaves every child as it is (nothing is copied), else a copy of the node with
 * the children f gave. */
IrType *ty_map_children(IrType *t, IrType *(*f)(IrType *child, void *env), void *env);
/* The most parts (nodes, counted as if the type were written out) a type may have. Types share
 * their parts, so doubling a value at each step (`let %x1 = (%x0, %x0); let %x2 = (%x1, %x1)`)
 * doubles its type in a few bytes; past this size checking stops with "too large" rather than
 * walk, copy or print it. */
enum { TY_MAX_TYPE_PARTS = 1000000 };
/* Whether t, written out, has more than `limit` parts (a walk of at most limit + 1 parts). Inexact
 * (cheaper), a subtree's holes count as they were when it was first counted. */
bool ty_larger_than(TyCtx *cx, IrType *t, long limit, bool exact);
/* The reason a unification gives when a type it walks is too large (compare the pointer). */
extern const char ty_too_large[];
/* Calls f on the slot of every direct part of t (including a function type's relations). */
void ty_each_child(IrType *t, void (*f)(IrType **slot, void *env), void *env);
/* A copy of the node t with its own arrays of parts, for a walk that rewrites them. */
IrType *ty_copy_node(IrType *t);
/* t as a message shows it: a literal's undecided base type as its default (int32, float32), other
 * holes as _a, _b, ..., named consistently through `names` across the types of one message. */
IrType *ty_for_message(TyCtx *cx, IrType *t, IrSymMap *names);
/* Makes a and b equal, or explains in *why (may be NULL) why they cannot be. */
bool ty_unify(TyCtx *cx, IrType *a, IrType *b, TyMismatch *why);
/* Binds an unresolved hole to t (not a hole), with the occurs check. */
bool ty_bind_hole(TyCtx *cx, IrType *hole, IrType *t, TyMismatch *why);
/* Appends the root ids of the unresolved holes in t to out (with repeats). */
void ty_holes_of(TyCtx *cx, IrType *t, TyIdList *out);

/* ---------------------------------------------------------------- dimensions (dim.c) */

/* A dimension in normal form: a sum of monomials, each a constant coefficient times a sorted
 * product of atoms (named shape variables and unresolved holes). The constant term is the
 * monomial with no atoms. Terms are sorted and have non-zero coefficients. */
typedef struct TyAtom {
  Sym name;     /* a named (rigid) shape variable, or NULL */
  uint32_t hole; /* a root hole id when name is NULL */
} TyAtom;

typedef struct TyMono {
  int64_t coef;
  int n;
  TyAtom *atoms;
} TyMono;

typedef struct TyPoly {
  int n;
  TyMono *terms;
} TyPoly;

/* The normal form of a dimension; false if it involves `?` or overflows. */
bool ty_dim_normalize(TyCtx *cx, IrType *dim, TyPoly *out);
IrType *ty_poly_to_dim(TyCtx *cx, const TyPoly *p);
bool ty_poly_equal(const TyPoly *a, const TyPoly *b);
/* a - b; n is -1 on overflow. */
TyPoly ty_poly_sub(const TyPoly *a, const TyPoly *b);
/* Unifies two dimensions through their normal forms: equal forms are equal; an equation in one
 * hole that appears only linearly is solved; an undecidable one becomes a relation that waits. */
bool ty_unify_poly(TyCtx *cx, IrType *a, IrType *b, TyMismatch *why);
/* A new `?` dimension. */
IrType *ty_dim_any(void);
/* Dimension arithmetic in normal form (`n * 3 * 32` is `n * 96`); `?` when an operand has `?`. */
IrType *ty_dim_add(TyCtx *cx, IrType *a, IrType *b);
IrType *ty_dim_sub(TyCtx *cx, IrType *a, IrType *b);
IrType *ty_dim_mul(TyCtx *cx, IrType *a, IrType *b);
/* a / b when b is one monomial that divides every term of a exactly (`n * 3072 / 3072` is `n`),
 * `?` when either has `?`, otherwise NULL. */
IrType *ty_dim_div(TyCtx *cx, IrType *a, IrType *b);
/* Whether d is a known constant, and which. */
bool ty_dim_value(TyCtx *cx, IrType *d, int64_t *out);
/* The relation DimEq(a, b) that holds an undecided dimension equation. */
TyRelResult ty_dim_eq_relation(TyCtx *cx, TyRelation *rel, const char **message);

/* ---------------------------------------------------------------- the solver (solver.c) */

TyRelation *ty_relation_add(TyCtx *cx, TyRelFn fn, const char *name, int nargs, IrType **args, IrSpan span);
/* The same for a relation of relations.def. */
TyRelation *ty_relation_add_registered(TyCtx *cx, TyRelId id, int nargs, IrType **args, IrSpan span);
/* `Reshape(t1, Tensor[(4), float32], newshape=[-1])` for a message: the arguments as ty_for_message
 * shows them (with `names`, one naming for the whole message), then the attributes as written. */
const char *ty_relation_text(TyCtx *cx, const TyRelation *rel, IrSymMap *names);
/* Queues the relations that mention root hole `id`, unless solved or already queued. */
void ty_wake(TyCtx *cx, uint32_t id);
/* Queues relation number idx, unless solved, owned or already queued. */
void ty_requeue(TyCtx *cx, uint32_t idx);
/* Runs the queue to a fixpoint. False after reporting a failed relation. */
bool ty_solve(TyCtx *cx);

/* What :explain needs of a relation that failed with message: its arguments as they are now
 * (explain.c); NULL when it is not a registered relation. */
const struct TyFailure *ty_failure_record(TyCtx *cx, const TyRelation *rel, const char *message);
/* The same for an operator call whose argument i, of type found, does not have the type its
 * parameter has (which the relation may have decided): the relation with that argument's own type
 * and a result still to be found. */
const struct TyFailure *ty_failure_of_argument(TyCtx *cx, const TyRelation *rel, int i, IrType *found);

/* The C function of a registered relation (relation.c). */
TyRelFn ty_relation_fn(TyRelId rel);

#endif
