/* The operator registry (ir/ops.def) as an enum and a table, and the infix sugar that stands for
 * some operators (`a + b` is `add(a, b)`). The parser and the printer share the sugar table, so
 * what one reads the other writes. */
#ifndef IR_OP_H
#define IR_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ast.h"

typedef enum {
#define IR_OP(id, name, min_args, max_args, attrs, rel, kernel) IR_OP_##id,
#include "ir/ops.def"
#undef IR_OP
  IR_OP_COUNT
} IrOpId;

typedef struct IrOpInfo {
  const char *name;
  int min_args, max_args;
  const char *attrs; /* the attribute names it takes, space-separated; `!` after a required one */
} IrOpInfo;

extern const IrOpInfo ir_ops[IR_OP_COUNT];

/* The operator with this Relay name, or -1. */
int ir_op_lookup(const char *name, size_t len);

/* ---------------------------------------------------------------- attributes */

typedef enum {
#define IR_ATTR(id, name, kind) IR_A_##id,
#include "ir/attrs.def"
#undef IR_ATTR
  IR_A_COUNT
} IrAttrId;

/* ANY: any value, metadata references included, kept as written and not read (TVM's
 * virtual_device of the annotations). PAIRS: a list of [a, b] lists of integers (nn.pad's
 * pad_width), flattened into ints (n is twice the number of pairs). */
typedef enum { IR_AK_INTS, IR_AK_BOOL, IR_AK_FLOAT, IR_AK_DTYPE, IR_AK_STR, IR_AK_ANY, IR_AK_PAIRS } IrAttrKindOf;

/* One attribute of a call, decoded by its kind. */
typedef struct IrAttrValue {
  bool given;  /* written at the call; otherwise the operator's default applies */
  bool none;   /* written as None */
  bool listed; /* INTS written as a list (`axis=[1]`), not as one integer (`axis=1`) */
  int n;       /* INTS */
  const int64_t *ints;
  double f;    /* FLOAT */
  bool b;      /* BOOL */
  IrDType dtype; /* DTYPE */
  const char *str; /* STR */
  IrSpan span;
} IrAttrValue;

/* The attributes given at one call, compact: a bit per IrAttrId says which, and their values follow
 * in IrAttrId order (a call with one attribute keeps one value, not one per attribute there is).
 * Read with ir_attr_at; made by ir_attrs_decode, changed (into a copy) by ir_attrs_set. */
enum { IR_ATTR_WORDS = (IR_A_COUNT + 63) / 64 };
typedef struct IrOpAttrs {
  uint64_t given[IR_ATTR_WORDS];
  int n;
  IrAttrValue values[]; /* n values, read through ir_attr_at */
} IrOpAttrs;

/* No attribute given: every default. */
extern const IrOpAttrs ir_op_attrs_none;
/* The value of an attribute not given (given false). */
extern const IrAttrValue ir_attr_absent;

/* The value of attribute id at a call: &ir_attr_absent when it was not given. */
static inline const IrAttrValue *ir_attr_at(const IrOpAttrs *a, IrAttrId id) {
  int word = (int)id >> 6;
  uint64_t bit = (uint64_t)1 << ((int)id & 63);
  if (!(a->given[word] & bit)) return &ir_attr_absent;
  int rank = __builtin_popcountll(a->given[word] & (bit - 1));
  for (int i = 0; i < word; i++) rank += __builtin_popcountll(a->given[i]);
  return &a->values[rank];
}
/* A copy of a with attribute id's value v (given false: without it). */
const IrOpAttrs *ir_attrs_set(const IrOpAttrs *a, IrAttrId id, IrAttrValue v);

const char *ir_attr_name(IrAttrId id);
/* The kind of the attribute named `key` (an IrAttrKindOf), or -1 when no attribute has that name. */
int ir_attr_kind(const char *key);

/* Decodes the attributes written at a call against `accepted` (as IrOpInfo.attrs) of `owner` (the
 * operator's or relation's name, for messages). On error, returns the message and sets *where;
 * otherwise NULL, with *out the decoded attributes (the shared ir_op_attrs_none when none). */
/* An attribute's first integer, or dflt when it is not given (or None). */
int64_t ir_attr_int(const IrOpAttrs *a, IrAttrId id, int64_t dflt);
/* A BOOL or FLOAT attribute, or dflt when it is not given (or None). */
bool ir_attr_bool(const IrOpAttrs *a, IrAttrId id, bool dflt);
double ir_attr_float(const IrOpAttrs *a, IrAttrId id, double dflt);
/* A dtype attribute, or dflt when it is not given (or "", or None). */
IrDType ir_attr_dtype(const IrOpAttrs *a, IrAttrId id, IrDType dflt);
/* An INTS attribute as written, or the n values of dflt when it is not given (or None): the default
 * of an array attribute, such as block_shape's [1, 1]. */
IrAttrValue ir_attr_ints(const IrOpAttrs *a, IrAttrId id, int n, const int64_t *dflt);
/* TVM's (height, width) pairs: 1 or 2 values, dflt for both when not given. */
void ir_attr_pair(const IrOpAttrs *a, IrAttrId id, int64_t dflt, int64_t out[2]);
/* padding as (top, left, bottom, right) from 1, 2 or 4 values; zeros when not given. */
void ir_attr_padding(const IrOpAttrs *a, int64_t out[4]);

/* The number of positions of a window of k (dilated by dil) sliding by stride over n padded by lo
 * and hi, rounding up with ceil_mode; -1 when the window does not fit, IR_WINDOW_TOO_LARGE when the
 * count passes int64 (conv2d's and the pools' rule, for their relations and kernels alike). */
enum { IR_WINDOW_TOO_LARGE = -2 };
int64_t ir_window_length(int64_t n, int64_t k, int64_t dil, int64_t stride, int64_t lo, int64_t hi, bool ceil_mode);
/* An upsampled size, round(n * scale) (nearbyint), for the relations and kernels alike: false when
 * it is not a number from 0 to INT64_MAX (the conversion to int64 would be undefined). Halves go to
 * even: TVM's UpSamplingRel and topi's upsampling round a constant, and tvm::round folds a constant
 * with std::nearbyint (src/tir/op/op.cc), where the generated code's llvm.round would not. */
bool ir_scaled_length(int64_t n, double scale, int64_t *out);
/* The number of elements of arange(start, stop, step) (step not 0), as a double that may be huge. */
double ir_arange_length(double start, double stop, double step);
/* v as a float of `bits` (16, 32 or 64) holds it: what a literal becomes in that dtype. */
double ir_float_round(int bits, double v);

/* arange's length for integer bounds, exact (in 128-bit arithmetic, so no bound or step of int64 or
 * uint64 wraps or rounds as a double would): -1 when the step is 0 or the length passes int64. */
__extension__ typedef __int128 IrWide;
int64_t ir_arange_length_int(IrWide start, IrWide stop, IrWide step);

/* An einsum equation (numpy's): the input terms of letters, `*` standing for `...`, then the output
 * term (after "->", or numpy's implicit one: the ellipsis, then the letters used once, in order) as
 * terms[nin]. ir_einsum_parse returns NULL, or why the text is not an equation. */
typedef struct IrEinsum {
  int nin;
  char terms[33][65];
} IrEinsum;
const char *ir_einsum_parse(const char *s, IrEinsum *q);

/* The length of x[begin:end:stride] along a dimension of n, clamped as numpy clamps, and the
 * first index taken (strided_slice's rule, for its relation and its kernel alike). */
int64_t ir_slice_length(int64_t n, int64_t begin, int64_t end, int64_t stride, int64_t *start);

const char *ir_attrs_decode(const char *owner, const char *accepted, int n, const IrAttr *attrs,
                            const IrOpAttrs **out, IrSpan *where);

/* Infix and prefix sugar. Precedence grows with binding strength, as in C. */
enum {
  IR_PREC_OR = 1, /* || */
  IR_PREC_AND,    /* && */
  IR_PREC_EQ,     /* == != */
  IR_PREC_CMP,    /* < <= > >= */
  IR_PREC_ADD,    /* + - */
  IR_PREC_MUL,    /* * / % */
  IR_PREC_UNARY,  /* - ! */
  IR_PREC_POSTFIX /* calls, projections, atoms */
};

typedef struct IrInfix {
  const char *text;
  IrOpId op;
  int prec;
} IrInfix;

/* The binary operator spelled text[0..len), or NULL. */
const IrInfix *ir_infix_binary(const char *text, size_t len);
/* The sugar for an operator, or NULL: binary for 2 arguments, prefix for 1. */
const IrInfix *ir_infix_of(IrOpId op, int nargs);

/* Layouts and windows over 1 to 3 spatial axes (the convolutions and pools of any rank). Whether
 * `layout` is a permutation of the letters of `canon` ("NHWC" of "NCHW"), with pos[k] the index in
 * layout of canon[k]. */
bool ir_layout_axes(const char *layout, const char *canon, int pos[]);
/* An attribute of 1 or d values as d values (one value for every axis); dflt when not given. */
void ir_attr_tuple(const IrOpAttrs *a, IrAttrId id, int d, int64_t dflt, int64_t out[]);
/* padding of 1, d or 2d values as the padding before (lo) and after (hi) each of d axes. */
void ir_attr_pads(const IrOpAttrs *a, int d, int64_t lo[], int64_t hi[]);

#endif
