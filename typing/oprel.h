/* What the operators' relations share (private to typing/): reading a tensor argument, axes and
 * attributes, stating the result, and messages that name the operator. The relations themselves
 * are listed in relations.def; each family's file (rel_create.c, rel_shape.c, rel_reduce.c,
 * rel_nn.c) defines its own. */
#ifndef TYPING_OPREL_H
#define TYPING_OPREL_H

#include "typing/ty.h"

/* Sets *message and fails the relation. */
#define REL_FAIL(...)                                                                                              \
  do {                                                                                                             \
    *message = ir_printf(__VA_ARGS__);                                                                             \
    return TY_FAILED;                                                                                              \
  } while (0)

/* Returns from the relation unless r is TY_SOLVED. */
#define REL_TRY(r)                                                                                                 \
  do {                                                                                                             \
    TyRelResult r_ = (r);                                                                                          \
    if (r_ != TY_SOLVED) return r_;                                                                                \
  } while (0)

/* "`nn.dense`" for an operator's relation, the relation's name otherwise. */
const char *ty_rel_who(const TyRelation *rel);
/* A type as messages show it. */
const char *ty_rel_text(TyCtx *cx, IrType *t);
/* "(2, 3)" for a shape or a tensor type's shape. */
const char *ty_rel_shape_text(TyCtx *cx, IrType *shape);
/* Why argument i (`which`: "first argument", "argument") of type t, not a tensor, does not fit:
 * "`add` works on tensors, but its first argument is (int32, int32)"; for a type parameter, what it
 * stands for, naming the argument as the call writes it: "`%x` has type `a`, a type parameter (any
 * type), but `add` needs a tensor". */
const char *ty_rel_not_tensor(TyCtx *cx, const TyRelation *rel, int i, const char *which, IrType *t);

/* Argument i as a tensor of known rank: TY_SOLVED with *tensor, *shape (IR_TYPE_SHAPE) and
 * *dtype; TY_NOT_YET while its type or rank is unknown; TY_FAILED when it is not a tensor. */
TyRelResult ty_rel_tensor(TyCtx *cx, TyRelation *rel, int i, IrType **shape, IrType **dtype, const char **message);
/* Argument i as a tensor of rank `rank` (any rank when -1; `what` names it in the message). An
 * argument not known yet becomes a tensor of that rank with fresh dimensions and base type. */
TyRelResult ty_rel_tensor_of_rank(TyCtx *cx, TyRelation *rel, int i, int rank, IrType **shape, IrType **dtype,
                                  const char *what, const char **message);
/* Dimension i of a shape (IR_TYPE_SHAPE); a negative i counts from the end. */
IrType *ty_rel_dim_at(IrType *shape, int i);
/* The attribute out_dtype as a base type, or dflt when it is not given. */
IrType *ty_rel_out_dtype(const TyRelation *rel, IrType *dflt);
/* Unifies the relation's argument i (its result, usually) with t, or fails saying so. */
TyRelResult ty_rel_result(TyCtx *cx, TyRelation *rel, int i, IrType *t, const char **message);
/* Unifies two base types, or fails naming the operator's arguments. */
TyRelResult ty_rel_same_dtype(TyCtx *cx, TyRelation *rel, IrType *a, IrType *b, const char **message);
/* Unifies two dimensions; on failure says `what` (e.g. "the weight's second dimension") and both. */
TyRelResult ty_rel_same_dim(TyCtx *cx, TyRelation *rel, IrType *a, IrType *b, const char *what,
                            const char **message);

/* Whether base type dt is a float: TY_SOLVED; TY_FAILED saying that the operator works on floats and
 * `what` (e.g. "its data") is `t`; TY_NOT_YET while dt is a hole (an unsuffixed literal's dtype is
 * decided at the end, and the relation runs again then). Call it last, after the result is stated. */
TyRelResult ty_rel_float(TyCtx *cx, TyRelation *rel, IrType *dt, const char *what, IrType *t, const char **message);

/* The element types of a product's operands (dense, matmul, convolutions): with out_dtype they may
 * differ (uint8 data by an int8 weight into int32, as quantized programs do: the kernel computes in
 * out_dtype, as TVM's); without it they are one type. */
TyRelResult ty_rel_product_dtypes(TyCtx *cx, TyRelation *rel, IrType *a, IrType *b, const char **message);

/* The attribute `id` of the relation's call. */
const IrAttrValue *ty_rel_attr(const TyRelation *rel, IrAttrId id);
/* An axis of attribute `id` made non-negative for a tensor of `rank` (axes from -rank to
 * rank - 1; `extra` widens that for operators that insert axes); fails naming the attribute. */
TyRelResult ty_rel_axis(TyRelation *rel, IrAttrId id, int64_t axis, int rank, int extra, int *out,
                        const char **message);
/* A string attribute among `allowed` (a NULL-ended list): any of them, or not given (its first entry by
 * default); fails naming them otherwise. */
TyRelResult ty_rel_choice(TyRelation *rel, IrAttrId id, const char *const *allowed, const char **message);
/* The attribute `id` as a list of exactly 1 or 2 values (TVM's (h, w) pairs), defaulting to
 * `dflt`: out[0], out[1]. */
TyRelResult ty_rel_pair(TyRelation *rel, IrAttrId id, int64_t dflt, int64_t out[2], const char **message);
/* padding: 1, 2 or 4 values as (top, left, bottom, right). */
TyRelResult ty_rel_padding(TyRelation *rel, int64_t out[4], const char **message);

/* What a relation can know of dimension d now: TY_SOLVED with *out when it is a constant; TY_NOT_YET
 * while it holds a hole, which may still become a constant; TY_FAILED when it never will (`?`, or
 * arithmetic on named shape variables). A relation whose result needs the value (a strided window,
 * a reshape's -1) waits on TY_NOT_YET rather than giving `?`: the hole is bound later by whatever
 * node produced it, and the relation runs again then. */
TyRelResult ty_rel_dim_const(TyCtx *cx, IrType *d, int64_t *out);
/* What a relation can know of dimension d for a check that holds of some sizes and not others (topk's
 * k <= n, a window that fits, a divisor): */
typedef enum {
  TY_DIM_CONST,    /* a constant, *out: check it now */
  TY_DIM_ANY,      /* `?`, or arithmetic on one: the kernel checks it at run time, so the relation accepts it */
  TY_DIM_SYMBOLIC, /* named shape variables, or arithmetic on them: the relation accepts it for now but stays
                    * open (TY_NOT_YET once it has stated its result: ty_rel_open), so that the check
                    * becomes a `where` clause of the definition, checked at each use with its sizes */
  TY_DIM_HOLE,     /* holds a hole, which may still become anything: open too, run again when it is known */
} TyDimState;
/* d normalized (a dimension left as `3 - 2` once its hole is known is the constant 1). */
TyDimState ty_rel_dim_state(TyCtx *cx, IrType *d, int64_t *out);
/* Whether state leaves a check open (TY_DIM_SYMBOLIC or TY_DIM_HOLE). */
static inline bool ty_rel_dim_open(TyDimState state) { return state == TY_DIM_SYMBOLIC || state == TY_DIM_HOLE; }
/* A relation's verdict r, kept open when a check it makes is (`open`): TY_NOT_YET for TY_SOLVED. */
static inline TyRelResult ty_rel_open(TyRelResult r, bool open) { return r == TY_SOLVED && open ? TY_NOT_YET : r; }

/* The output size of a window of `k` (dilated by `dil`) sliding by `stride` over `in` padded by lo + hi, as
 * ir_window_length: TY_SOLVED with *out, or TY_FAILED when the window does not fit (no position), but for
 * an empty axis padded short of the window by one element ("same" padding), whose output is empty, as
 * the kernels make it (rt_window_positions). Over named shape
 * variables *out is exact arithmetic in normal form for stride 1 (`n - 2`), `?` otherwise, and *open is set
 * unless the window fits every size (padded enough): the relation must stay open (ty_rel_open), so that
 * each use checks it with its sizes. Over a hole *out is a fresh dimension and *open is set: the relation,
 * run again once the hole is known, binds it (arithmetic on the hole would stay `3 - 2` where other
 * relations meet it); a size that only passes through (stride 1, fits every size) is `in` itself. `?` in,
 * `?` out: the kernel checks. */
TyRelResult ty_rel_window(TyCtx *cx, const TyRelation *rel, IrType *in, int64_t k, int64_t dil, int64_t stride,
                          int64_t lo, int64_t hi, bool ceil_mode, IrType **out, bool *open);

IrType *ty_rel_dim(int64_t n);
IrType *ty_rel_shape(int rank, IrType **dims);
IrType *ty_rel_tensor_type(IrType *shape, IrType *dtype);
/* The broadcast of two dimensions: TY_SOLVED with *out; TY_NOT_YET with *out the result if it is
 * known already (a hole against a constant c != 1 gives c, but the relation must run again when
 * the hole is known, to check it is 1 or c) or NULL; TY_FAILED (they differ). */
TyRelResult ty_rel_broadcast_dim(TyCtx *cx, IrType *a, IrType *b, IrType **out);

/* Whether dimension arithmetic in this run of the relation overflowed int64 (a normal form,
 * ty_dim_add and its siblings: see TyCtx.dim_overflow). True takes the overflow: the relation then
 * fails with its own message naming the argument; otherwise the solver fails it with a generic
 * "dimension too large" when it returns. */
bool ty_rel_overflowed(TyCtx *cx);

#define X(id, name, fn, nargs, attrs) TyRelResult fn(TyCtx *cx, TyRelation *rel, const char **message);
#define TY_REL X
#include "typing/relations.def"
#undef TY_REL
#undef X

#endif
