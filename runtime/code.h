/* The nodes of compiled code, shared by the compiler (compile.c, which chooses them) and the
 * evaluator (exec.c, which runs them). Each node is an RtCode header followed by its operands;
 * its `run` function is chosen at compile time, so evaluation never switches on a node kind. */
#ifndef RUNTIME_CODE_H
#define RUNTIME_CODE_H

#include "runtime/rt.h"

typedef struct {
  RtCode h;
  RtValue v;
} CodeConst; /* a literal, a nullary constructor, a global function, a closure without captures */

typedef struct {
  RtCode h;
  RtValue v;
  bool built;
  IrDType dt; /* a tensor literal's */
} CodeLazy; /* a tensor literal or Constant(...): built on first use, then shared (tensors are immutable) */

typedef struct {
  RtCode h;
  int index;
} CodeVar; /* a frame slot or a captured variable */

typedef struct {
  RtCode h;
  const RtFn *binding;
} CodeBinding; /* a session binding (`%x`, `%it`): its value is binding->value when this runs */

typedef struct {
  RtCode h;
  int n;
  int *slots;
  RtCode **values;
  RtCode *body;
} CodeLet; /* a whole chain of lets and graph bindings, run as a loop */

typedef struct {
  RtCode h;
  int n;
  RtCode **items;
} CodeList; /* tuples */

typedef struct {
  RtCode h;
  RtCode *a, *b;
  int index;
} CodePair; /* projections, refs, scalar binary operators */

typedef struct {
  RtCode h;
  int a, b;     /* the frame slots of the operands read from slots */
  RtCode *node; /* the left operand when it is not a slot */
  RtValue k;    /* the right operand when it is a constant */
} CodeScalarOperands; /* a scalar binary operator whose operands are read without running nodes */

typedef struct {
  CodeScalarOperands ops; /* the operands as a scalar operator reads them; `node` is the left one */
  RtCode *right;          /* the right operand when it is neither a slot nor a constant */
  RtCode *then, *els;
} CodeBranch; /* `if` of a comparison of scalars, fused with it */

typedef struct {
  RtCode h;
  RtFn *fn;
  int ncaps;
  const IrTVar *caps; /* where each is read from in the frame that makes the closure */
  int self; /* the capture that is the closure itself (a recursive let), or -1 */
} CodeClosure;

typedef struct {
  RtCode h;
  RtCode *cond, *then, *els;
} CodeIf;

typedef enum { PAT_WILD, PAT_VAR, PAT_CTOR, PAT_TUPLE } PatKind;

typedef struct CodePat CodePat;
struct CodePat {
  PatKind kind;
  int slot;       /* VAR */
  const IrTCheck *check; /* VAR: the value matched, checked against its written type (or NULL) */
  const IrExpr *at;      /* VAR with a check: where its error is placed */
  int tag;        /* CTOR */
  RtField *fields; /* CTOR: where its arguments are */
  bool flat;      /* CTOR: every argument a variable or `_` (matched without recursion) */
  int n;
  CodePat **args;
};

typedef struct {
  RtCode h;
  RtCode *scrut;
  int nclauses;
  CodePat **pats;
  RtCode **bodies;
  int *first; /* for a constructor tag, the first clause that may match it (NULL: try all) */
  const char *owner; /* the global it is written in (`@hd`), named when no clause matches */
} CodeMatch;

/* What a CodeMatchTag does for one constructor tag: bind some fields, or the whole value, to slots
 * and run a body (NULL: no clause accepts the tag). */
typedef struct {
  RtCode *body;
  int nbind;
  int *slots;
  RtField *fields;
  int whole; /* the slot a catch-all `%x` clause binds, or -1 */
} TagCase;

typedef struct {
  CodeMatch m; /* the same match in the general form, for its error */
  TagCase *cases; /* by tag */
} CodeMatchTag; /* a match whose clauses are constructors with variables and `_` as arguments, then
                  * perhaps a catch-all: one jump by tag, the fields bound by a precomputed list */

typedef struct {
  RtCode h;
  RtCode *callee;     /* a closure-valued expression, or NULL */
  const RtFn *fn;     /* a known global */
  const RtCtor *ctor;     /* a constructor */
  IrOpId op;
  RtSite site; /* an operator's call as its kernel sees it */
  int n;
  RtCode **args;
} CodeCall;

typedef struct {
  RtCode h;
  RtCode *inner;
  const IrTCheck *check; /* the type the value must have, and where its shape variables are read */
} CodeShapeCheck; /* a value whose static type has `?` dimensions, meeting a type that fixes them */

typedef struct {
  RtCode h;
  const RtFn *fn;           /* the definition (or constructor) whose parameters are checked */
  const IrType *const *params; /* their types in its scheme, over its shape variables */
  const RtCtor *ctor;       /* a constructor's entry: the value to build once they pass */
} CodeEntryCheck; /* the checked entry of a definition (a function of its own that checks its
                   * arguments, then tail-calls the definition) or of a constructor */

typedef struct {
  RtCode h;
  RtCode *inner;               /* a let-bound polymorphic function, or a session binding */
  const IrType *const *params; /* its parameters' types in its scheme */
} CodeEntryWrap; /* a function value read at an instance that gives a shared shape variable a `?`
                  * (IrTExpr.dynamic): wrapped in a checked entry made at run time */

/* ---------------------------------------------------------------- values against types (conform.c) */

/* What a shape variable stands for at run time: a dimension (rank -1) or, for a Shape variable, a
 * shape; `from` says where it was read (for messages), or NULL. */
typedef struct {
  Sym name;
  int rank;
  int64_t dim;
  const int64_t *shape;
  const char *from;
} RtDimVal;

typedef struct {
  int n, cap;
  RtDimVal *v;
} RtDims;

void rt_dims_bind(RtDims *d, Sym name, int64_t dim, const char *from);
void rt_dims_bind_shape(RtDims *d, Sym name, int rank, const int64_t *shape, const char *from);
/* Whether v has type `want`, where only dimensions can differ (the checker saw to the rest):
 * false with a message (*why) at the first part that does not, naming it from `subject` ("the
 * value", "the second argument"). Shape variables of `want` not in d are bound to what the first
 * place that has one shows. */
bool rt_conform(RtValue v, const IrType *want, RtDims *d, const char *subject, const char **why);

typedef struct {
  RtCode h;
  const RtFn *fn; /* the traced function, whose body this node stands in for (trace.c) */
  RtCode *body;   /* its real body */
  FILE *out;      /* where its calls are shown */
} CodeTraced; /* a traced function's body: shows each call and its value around the real body */

/* Run functions, by node. */
RtValue rt_exec_const(const RtCode *c, RtFrame *f);
RtValue rt_exec_tensor_literal(const RtCode *c, RtFrame *f);
RtValue rt_exec_fill(const RtCode *c, RtFrame *f);
/* meta[relay.Constant][i]: the metadata's tensor, its data shared (values never change in place). */
RtValue rt_exec_meta(const RtCode *c, RtFrame *f);
/* The value of `free_var %x`: a run-time error naming the variable. */
RtValue rt_exec_free(const RtCode *c, RtFrame *f);
RtValue rt_exec_slot(const RtCode *c, RtFrame *f);
RtValue rt_exec_env(const RtCode *c, RtFrame *f);
RtValue rt_exec_binding(const RtCode *c, RtFrame *f);
RtValue rt_exec_let(const RtCode *c, RtFrame *f);
RtValue rt_exec_tuple(const RtCode *c, RtFrame *f);
RtValue rt_exec_proj(const RtCode *c, RtFrame *f);
RtValue rt_exec_closure(const RtCode *c, RtFrame *f);
RtValue rt_exec_if(const RtCode *c, RtFrame *f);
RtValue rt_exec_match(const RtCode *c, RtFrame *f);
RtValue rt_exec_match_tag(const RtCode *c, RtFrame *f);
RtValue rt_exec_ref(const RtCode *c, RtFrame *f);
RtValue rt_exec_ref_read(const RtCode *c, RtFrame *f);
RtValue rt_exec_ref_write(const RtCode *c, RtFrame *f);
RtValue rt_exec_call_global(const RtCode *c, RtFrame *f);
RtValue rt_exec_tail_global(const RtCode *c, RtFrame *f);
RtValue rt_exec_call_closure(const RtCode *c, RtFrame *f);
RtValue rt_exec_tail_closure(const RtCode *c, RtFrame *f);
RtValue rt_exec_tail_self(const RtCode *c, RtFrame *f);
/* The same specialized: a call of a global of `nargs` parameters and a frame of `nslots`, and a
 * tail call of the running function of `nargs` parameters; NULL where there is none. */
RtRun rt_exec_call_global_fixed(int nargs, int nslots);
RtRun rt_exec_tail_self_fixed(int nargs);
RtRun rt_exec_call_closure_fixed(int nargs); /* a call of a closure of `nargs` arguments */
RtRun rt_exec_ctor_fixed(int nargs);         /* a constructor of `nargs` fields */
RtValue rt_exec_ctor(const RtCode *c, RtFrame *f);
RtValue rt_exec_ctor_hole(const RtCode *c, RtFrame *f); /* in tail position, its last field a tail call of itself */
RtValue rt_exec_op(const RtCode *c, RtFrame *f);
RtValue rt_exec_shape_check(const RtCode *c, RtFrame *f);
RtValue rt_exec_entry_check(const RtCode *c, RtFrame *f);
RtValue rt_exec_entry_wrap(const RtCode *c, RtFrame *f);
RtValue rt_exec_native_entry_check(const RtFn *fn, RtValue *args, const IrExpr *site);
/* A CodeTraced: shows the call, runs the real body and finishes its tail calls itself (so that it
 * sees the value), then shows the value. */
RtValue rt_exec_traced(const RtCode *c, RtFrame *f);
/* What rt_exec_traced shows (trace.c): a call of k's function at `depth` with the arguments in
 * args (marked as a tail call when `tail`), and the value it returned. */
void rt_trace_show_call(const CodeTraced *k, int depth, const RtValue *args, bool tail);
void rt_trace_show_value(const CodeTraced *k, int depth, RtValue v);

/* The operands of a binary operator on scalars, by where they come from. */
typedef enum {
  OPERANDS_NODES,      /* any two nodes: a CodePair */
  OPERANDS_SLOT_CONST, /* a frame slot and a constant: a CodeScalarOperands (a, k) */
  OPERANDS_SLOT_SLOT,  /* two frame slots: a CodeScalarOperands (a, b) */
  OPERANDS_NODE_CONST, /* any node and a constant: a CodeScalarOperands (node, k) */
} OperandForm;

/* The specialized run function of a binary operator on scalars of dtype dt (int32, int64,
 * float32, float64) with operands of the given form, or NULL. */
RtRun rt_exec_scalar_binary(IrOpId op, IrDType dt, OperandForm form);
/* The same for an `if` whose condition is a comparison of such scalars (a CodeBranch), or NULL. */
RtRun rt_exec_scalar_branch(IrOpId op, IrDType dt, OperandForm form);

/* Native functions: a constructor or an operator used as a value. */
RtValue rt_exec_native_ctor(const RtFn *fn, RtValue *args, const IrExpr *site);
RtValue rt_exec_native_op(const RtFn *fn, RtValue *args, const IrExpr *site);

#endif
