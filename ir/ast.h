/* The abstract syntax of Relay programs, as parsed: no phase writes into it afterwards (what the
 * checker finds is the typed program of ir/typed.h). Every node carries its source span. Sugar is
 * removed by the parser: infix operators become operator calls, `a; b` becomes `let %_ = a; b`, and
 * parentheses vanish, so the printer decides on its own where they are needed. */
#ifndef IR_AST_H
#define IR_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/type.h"

/* ---------------------------------------------------------------- literals and attributes */

typedef enum { IR_LIT_INT, IR_LIT_FLOAT, IR_LIT_BOOL } IrLitKind;

/* A scalar literal as written. An unsuffixed number takes its dtype from context later. */
typedef struct IrLit {
  uint8_t kind;   /* IrLitKind */
  bool suffixed;  /* dtype was written (`3i64`, `2.5f`); bool literals are always suffixed */
  bool neg;       /* integers: the value is -mag */
  bool b;         /* bools */
  IrDType dtype;  /* meaningful when suffixed */
  uint64_t mag;   /* integers: magnitude */
  double f;       /* floats: value, sign included */
  char suffix[8]; /* the suffix as written ("f", "f32", "i64"), for faithful printing */
} IrLit;

/* Whether a literal fits a base type: an integer its range, a number in a float dtype short of
 * infinity (70000 is too large for float16), and no literal a dtype of vector lanes (int8x4). */
typedef enum {
  IR_FIT_OK,
  IR_FIT_NEGATIVE_UNSIGNED, /* -1 as a uint8: callers say it in their context's words */
  IR_FIT_OUT_OF_RANGE,      /* `why` says "300 does not fit int8 (-128 to 127)" */
} IrFit;

IrFit ir_lit_fit(const IrLit *lit, IrDType dt, char *why, size_t n);

/* Whether an integer literal is written as TVM writes a shape's dimension or an integer attribute:
 * without a suffix, or with one of the signed widths its tokenizer knows (`i`, `i16`, `i32`, `i64`;
 * TVM prints an int64 one as `10i64`: IntImmToString in src/support/scalars.cc). Such a suffix
 * only says how TVM held the number. */
bool ir_lit_tvm_int(const IrLit *lit);

typedef enum {
  IR_ATTR_LIT,  /* a number or a boolean */
  IR_ATTR_STR,  /* "text" (a bare identifier such as float32 is read as a string) */
  IR_ATTR_LIST, /* [a, b] or (a, b) */
  IR_ATTR_NONE, /* None */
  IR_ATTR_META, /* meta[VirtualDevice][0]: an entry of a metadata table, kept as written */
} IrAttrKind;

typedef struct IrAttrVal IrAttrVal;
struct IrAttrVal {
  IrAttrKind kind;
  IrSpan span;
  IrLit lit;
  const char *str; /* decoded bytes, NUL-terminated */
  size_t len;
  int n;
  IrAttrVal *items;
  Sym meta_kind; /* META: meta[meta_kind][meta_index] */
  int64_t meta_index;
};

typedef struct IrAttr {
  Sym key;
  IrAttrVal val;
  IrSpan span;
} IrAttr;

/* ---------------------------------------------------------------- patterns */

typedef enum {
  IR_PAT_WILD,  /* _ */
  IR_PAT_VAR,   /* %x */
  IR_PAT_CTOR,  /* Cons(%h, _), Nil(), Nil */
  IR_PAT_TUPLE, /* (%a, _) */
} IrPatKind;

typedef struct IrPattern IrPattern;
struct IrPattern {
  IrPatKind kind;
  IrSpan span;
  Sym name;    /* VAR, CTOR */
  IrType *ann;               /* VAR: its annotation (`Cons(%h : int32, _)`), or NULL */
  int n;    /* CTOR, TUPLE */
  IrPattern **args;
};

/* ---------------------------------------------------------------- expressions */

typedef enum {
  IR_EXPR_LOCAL,     /* %x, %0 */
  IR_EXPR_GLOBAL,    /* @f */
  IR_EXPR_LIT,       /* 1, 2.5f, True */
  IR_EXPR_TENSOR,    /* [[1f, 2f], [3f, 4f]] */
  IR_EXPR_FILL,      /* Constant(1, (10, 10), float32) */
  IR_EXPR_TUPLE,     /* (a, b), (a,), () */
  IR_EXPR_PROJ,      /* t.0 */
  IR_EXPR_LET,       /* let %x : T = v; body   |   %0 = v; body */
  IR_EXPR_FN,        /* fn<a>(%x : a) -> a where R { body } */
  IR_EXPR_CALL,      /* f<T>(args, key=value) */
  IR_EXPR_OP,        /* an operator by name: add, nn.dense */
  IR_EXPR_CTOR,      /* a constructor by name: Cons, Nil */
  IR_EXPR_IF,        /* if (c) { a } else { b } */
  IR_EXPR_MATCH,     /* match (e) { clauses }, match? (e) { ... } */
  IR_EXPR_REF,       /* ref(e) */
  IR_EXPR_REF_READ,  /* ref_read(r) */
  IR_EXPR_REF_WRITE, /* ref_write(r, v) */
  IR_EXPR_FREE,      /* the value of `free_var %x : T; body`: a variable nothing binds */
  IR_EXPR_META,      /* meta[relay.Constant][0]: an entry of the program's metadata section */
  IR_EXPR_HOLE,      /* `?` or `?name`: a typed hole, which checking describes and nothing runs */
} IrExprKind;

typedef enum {
  IR_LET_PLAIN, /* let %x = v; body  (and `v; body`, bound to %_) */
  IR_LET_GRAPH, /* %0 = v; body */
} IrLetKind;

typedef struct IrExpr IrExpr;

/* A binder: a function parameter or a let-bound variable, with its optional annotation. */
typedef struct IrParam {
  Sym name;
  IrType *ann;
  IrSpan span;
  int nattrs;    /* TVM's `%x {virtual_device=...}: T`: kept and printed back, no meaning here */
  IrAttr *attrs;
} IrParam;

typedef struct IrFn {
  int ntparams;
  IrTypeParam *tparams;
  int nparams;
  IrParam *params;
  IrType *ret; /* NULL when not written */
  int nrels;
  IrRel *rels;
  int nattrs;     /* attributes after the parameters: `fn (%p0, Primitive=1) { ... }` (TVM's), */
  IrAttr *attrs;  /* kept and printed back; they do not change what the function means */
  IrExpr *body;
} IrFn;

typedef struct IrClause {
  IrPattern *pat;
  IrExpr *body;
} IrClause;

struct IrExpr {
  IrExprKind kind;
  IrSpan span;
  /* LOCAL: the value of a graph binding of the same name earlier in the item (`%1 = e;`), or NULL.
   * TVM's graph bindings are not scoped: its printer may refer to one out of its scope (a node
   * shared by both branches of an `if`), and the checker then reads the reference as the value. */
  IrExpr *graph_value;
  union {
    Sym name; /* LOCAL, GLOBAL, CTOR, FREE (the variable's), HOLE (its name, or NULL for `?`) */
    int op;   /* OP: an IrOpId */
    IrLit lit;
    struct {
      int rank;
      int64_t *shape;
      int64_t count;
      IrLit *elems; /* row-major */
    } tensor;
    struct {
      IrLit value;
      int rank;
      int64_t *shape;
      IrDType dtype;
    } fill;
    struct {
      int n;
      IrExpr **fields;
    } tuple;
    struct {
      IrExpr *tuple;
      int index;
    } proj;
    struct {
      IrLetKind how;
      IrParam var;
      IrExpr *value, *body;
    } let;
    IrFn fn;
    struct {
      IrExpr *callee;
      int ntargs;
      IrType **targs;
      int nargs;
      IrExpr **args;
      int nattrs;
      IrAttr *attrs;
    } call;
    struct {
      IrExpr *cond, *then, *els;
    } ifx;
    struct {
      IrExpr *scrut;
      bool partial; /* match? */
      int nclauses;
      IrClause *clauses;
    } match;
    struct {
      IrExpr *a, *b; /* REF: a; REF_READ: a; REF_WRITE: a := b */
    } ref;
    struct {
      Sym kind;     /* relay.Constant */
      int64_t index;
      const struct IrMetaEntry *entry; /* the entry, or NULL when the section lacks it (a type error) */
    } meta;
  } u;
};

/* ---------------------------------------------------------------- programs */

typedef struct IrCtor {
  Sym name;
  IrSpan span;
  int nargs;
  IrType **args;
  /* Set by the parser once the whole program is read: */
  int tag;                  /* its position in the declaration */
  const struct IrData *adt; /* the declaration */
} IrCtor;

typedef struct IrData {
  Sym name;
  int ntparams;
  IrTypeParam *tparams;
  int nctors;
  IrCtor *ctors;
  bool external; /* `extern type Storage`: declared here, no constructors (TVM's core.rly) */
  IrSpan span;   /* the declaration */
} IrData;

typedef enum {
  IR_ITEM_DEF,  /* def @name...: `fn` holds an IR_EXPR_FN */
  IR_ITEM_DATA, /* data / type declarations */
  IR_ITEM_EXPR, /* a top-level expression */
  IR_ITEM_LET,  /* a REPL input's `let %x = e` with no body: a session binding (IrParseOptions) */
} IrItemKind;

typedef struct IrItem {
  IrItemKind kind;
  IrSpan span;
  Sym name; /* DEF: the global's name (no sigil); DATA: the ADT's name; LET: the variable's */
  IrExpr *fn;
  IrData data;
  IrExpr *expr; /* EXPR; LET: `let %x = e; %x`, which checks and evaluates the binding */
  IrParam var;  /* LET: the variable and its written type, as the input wrote them */
  /* DEF, DATA: the comment block written directly above it, without its markers (:doc shows it),
   * or NULL. Not part of the program: the printer leaves it out and equality ignores it. */
  const char *doc;
} IrItem;

/* An item that failed to parse, in a program parsed with errors (IrParseResult.partial): what it
 * would have defined, as far as the parser read it, so that checking the items that parsed can
 * skip what uses it rather than report an unknown name. */
typedef struct IrBroken {
  IrItemKind kind; /* DEF, DATA (`extern type` too), LET (a REPL input's `let %x`), or EXPR */
  Sym name;        /* the name it defines; NULL for an EXPR, or when the error came before the name */
  IrSpan span;     /* from its first token to the last one the parser skipped */
} IrBroken;

typedef struct IrProgram {
  const IrSource *src;
  const char *version; /* from #[version = "..."], or NULL */
  const struct IrMeta *meta; /* the `#[metadata]` section that ends the text, or NULL */
  const char *meta_text;     /* and its text (after `#[metadata]`), printed back as it was */
  size_t meta_len;
  int nitems;
  IrItem *items;
  bool session; /* a REPL input (IrParseOptions.session_lets): it sees the session's bindings */
  int nbroken;      /* a partial program (IrParseResult.partial): the items that failed to parse, */
  IrBroken *broken; /* in order; `items` are the others. 0 in a program that parsed. */
} IrProgram;

IrExpr *ir_expr_new(IrExprKind kind, IrSpan span);
IrPattern *ir_pattern_new(IrPatKind kind, IrSpan span);

/* Calls f on each direct subexpression of e, in evaluation order (a let's value, then its body;
 * a match's scrutinee, then each clause's body). Walks that may meet long let chains loop over
 * them before calling this, so as not to recurse along them. */
void ir_expr_each_child(const IrExpr *e, void (*f)(const IrExpr *child, void *env), void *env);

/* The innermost expression or pattern within e whose span covers `span` (where a diagnostic
 * points), or NULL; its span goes to *found unless found is NULL. */
const void *ir_expr_node_at(const IrExpr *e, IrSpan span, IrSpan *found);

/* The sequencing variable: `a; b` is `let %_ = a; b`. */
Sym ir_sym_seq(void);

#endif
