/* The typed program: what typing/ makes of a parsed chunk, and what runtime/ compiles (DESIGN §3),
 * as OCaml's typecore makes a Typedtree of a Parsetree. The parser's AST is never written after
 * parsing; each typed node points back at the node it was checked from (its span, its literal, the
 * names messages use) and adds what checking found: the node's resolved type, where each variable
 * lives (a frame slot, or an entry of the closure's environment), the definition or constructor
 * each name means, an operator call's decoded attributes, and the values whose `?` dimensions
 * must be checked when they arrive. */
#ifndef IR_TYPED_H
#define IR_TYPED_H

#include "ir/ast.h"
#include "ir/op.h"
#include "ir/symmap.h"

typedef struct IrTExpr IrTExpr;
typedef struct IrTFn IrTFn;

/* Where a variable lives, as the function that reads it sees it: a slot of its own frame, or an
 * entry of its closure's environment (copied from the function around when the closure is made). */
typedef struct IrTVar {
  bool captured;
  int index;
} IrTVar;

/* A global definition as checked. A redefinition (a later chunk) is another IrTDef: code checked
 * before keeps the one it was checked against. */
typedef struct IrTDef {
  const IrItem *item; /* as parsed */
  Sym name;
  int id;          /* 0, 1, 2, ... across the session: the run time keeps its compiled globals by it */
  IrType *scheme;  /* generalized */
  IrTFn *fn;
  /* A session binding rather than a function: `%name`, made by a REPL input's `let %x = e` or,
   * as `%it`, by its expression. Its value is the item's, once it has run (RtProgram); fn is
   * NULL. */
  bool value;
} IrTDef;

/* A constructor as checked: its declaration and its type scheme, fn<a..>(T1..Tn) -> D[a..]. Its
 * tag and data type are the declaration's (IrCtor.tag, IrCtor.adt). */
typedef struct IrTCtor {
  const IrCtor *src;
  IrType *scheme;
} IrTCtor;

/* Where a check (IrTCheck) finds the run-time value of a shape variable its type mentions: a
 * dimension (or, for a variable of kind Shape, the whole shape) of a parameter of the function the
 * check is in or of one around it, after projecting tuple fields. */
typedef struct IrTDimSource {
  Sym var;
  IrTVar param;    /* the parameter, as the checking function sees it (a slot, or a capture) */
  int npath;
  const int *path; /* tuple fields, outermost first */
  int axis;        /* the dimension; -1 for the whole shape (a Shape variable) */
  const char *what; /* for messages: "dimension 0 of %x" */
} IrTDimSource;

/* A value whose static type has a `?` dimension (anywhere: in a tensor, a tuple, a data type's
 * argument, a reference) arriving at a place whose type says more: the run time checks it
 * against `want`, finding the shape variables `want` mentions from the parameters (sources). */
typedef struct IrTCheck {
  IrType *want;
  const IrType *have;  /* a function's own type, when want is a function type: the run time wraps the
                        * function so that its arguments and result are checked at each call */
  const char *subject; /* what a message calls the value ("the result of `topk`"), or NULL: "the value" */
  int nsources;
  const IrTDimSource *sources;
} IrTCheck;

/* A function: a definition's, a literal's, or (for a top-level expression) one of no parameters
 * around it. */
struct IrTFn {
  const IrExpr *src;   /* IR_EXPR_FN, or the top-level expression */
  int nparams;         /* in slots 0 .. nparams - 1 */
  int nslots;          /* the frame: the parameters, then let- and pattern-bound variables */
  int ncaptures;       /* its environment: where each entry is read from in the function around */
  IrTVar *captures;
  int self;            /* the entry that is the function itself (a recursive let), or -1 */
  IrType *type;        /* fn(...) -> ..., resolved; NULL for a top-level expression's */
  bool written_result; /* its result type is written */
  IrTExpr *body;
};

typedef struct IrTPattern IrTPattern;
struct IrTPattern {
  IrPatKind kind;
  const IrPattern *src; /* NULL in the examples exhaustiveness checks build */
  IrType *type;
  /* VAR with a written type (`Cons(%h : T, _)`): that type while checking; then the check of the
   * value matched against it, as IrTExpr's */
  IrType *expect;
  const IrTCheck *check;
  const IrTCtor *ctor;   /* CTOR */
  int slot;              /* VAR */
  int n;               /* CTOR, TUPLE */
  IrTPattern **args;
};

typedef struct IrTClause {
  IrTPattern *pat;
  IrTExpr *body;
} IrTClause;

struct IrTExpr {
  IrExprKind kind; /* src's, except at a use of a graph binding out of its scope: the value's */
  /* GLOBAL, CTOR, LOCAL: instantiated with a `?` for a shape variable that more than one place of
   * its parameters' types shares (`@f(%any, %four)` of fn<n>(Tensor[(n)], Tensor[(n)])): the
   * places must agree at run time, which the callee's checked entry tests (runtime/conform.c). */
  bool dynamic;
  /* GLOBAL, LOCAL: a polymorphic value whose `where` clause this instance satisfies only as far as
   * its `?` dimensions allow: a call of it checks its result against the call's type. */
  bool inexact;
  const IrExpr *src;
  IrType *type;
  /* The type this value's place expects (an argument's parameter, an annotated let, a function's
   * written result, the other branch of an `if`, ...), while checking; once types are resolved,
   * the check the run time makes when a `?` of this value's type meets a dimension the place's
   * type fixes (IrTCheck), else NULL. */
  IrType *expect;
  const IrTCheck *check;
  const IrType *scheme; /* LOCAL: the type scheme of a let-bound polymorphic function, else NULL */
  union {
    IrTVar var;          /* LOCAL */
    const IrTDef *def;   /* GLOBAL */
    const IrTCtor *ctor; /* CTOR */
    IrOpId op;           /* OP */
    struct {
      int n;
      IrTExpr **items;
    } tuple;
    struct {
      IrTExpr *tuple;
      int index;
    } proj;
    struct {
      int slot;
      IrTExpr *value, *body;
    } let;
    IrTFn *fn;
    struct {
      IrTExpr *callee;
      int nargs;
      bool assumed; /* an operator's call whose relation was left open (then result_check) */
      IrTExpr **args;
      const IrOpAttrs *attrs; /* an operator's call: decoded (defaults filled in) */
      /* An operator's call whose relation was left open (a `where` clause of the function it is
       * in): the check of the kernel's result against the call's type, which was assumed. */
      const IrTCheck *result_check;
    } call;
    struct {
      IrTExpr *cond, *then, *els;
    } ifx;
    struct {
      IrTExpr *scrut;
      int nclauses;
      IrTClause *clauses;
    } match;
    struct {
      IrTExpr *a, *b;
    } ref;
  } u;
};

/* One item of a checked chunk: a definition, a data declaration's constructors, or a top-level
 * expression as the body of a function of no parameters. */
typedef struct IrTItem {
  const IrItem *src;
  IrTDef *def; /* a definition; a LET's binding; a REPL input expression's `%it`, when its type
                * allows binding it (a session binding's type is closed, or a syntactic value's) */
  IrTCtor *ctors; /* a data declaration's, in its order */
  IrTFn *expr;
  IrType *type; /* a top-level expression's type, generalized for display (`Nil()` is List[t1]) */
  /* Only in a program checked to the end with errors (ty_check_program_all): the item did not
   * check, for an error of its own (in its group, its declaration or a second definition of its
   * name) or, `skipped`, because it uses a name whose definition failed (it was not checked to the
   * end, and said nothing). Its def then has no fn and no scheme (a definition's), its ctors no
   * scheme (a data declaration's), and expr, type and def are NULL (an expression's). */
  bool failed, skipped;
} IrTItem;

typedef struct IrTProgram {
  const IrProgram *src;
  int nitems;
  IrTItem *items; /* one per item of src, in order */
  /* ty_check_program_all: whether anything failed (an item, a hole described, an item of src that
   * did not parse: src->broken); then nothing of it may run or join the module */
  bool failed;
  /* ty_check_program_all: the types found in the items that failed (or were skipped) before they
   * stopped, each AST node (IrExpr *, IrPattern *) checked then -> its type as far as it was known,
   * unknown parts shown as in messages (`_a`); NULL otherwise */
  IrPtrMap *partial;
} IrTProgram;

/* Calls f on each direct subexpression of e in evaluation order, as ir_expr_each_child does. */
void ir_texpr_each_child(IrTExpr *e, void (*f)(IrTExpr *child, void *env), void *env);
/* Puts into m each node of e's tree by the AST node it was checked from (expressions and
 * patterns) -> its type: what :annot prints, and what `relay --serve`'s type_at looks up. */
void ir_texpr_types(IrPtrMap *m, IrTExpr *e);

#endif
