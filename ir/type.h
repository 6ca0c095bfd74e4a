/* Relay's types, shared by the parser (annotations) and the checker (inferred types). One node
 * type covers every kind of type-level term, so unification works on one structure: tensor,
 * tuple, function, ADT call and ref types (kind Type), shapes (kind Shape), dimensions (kind
 * ShapeVar: constants, Any, arithmetic), base types (kind BaseType), named variables of any kind
 * and incomplete types ("holes", made only by the checker). */
#ifndef IR_TYPE_H
#define IR_TYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/diag.h"
#include "ir/symbol.h"

/* ---------------------------------------------------------------- base types */

typedef enum { IR_DT_BOOL, IR_DT_INT, IR_DT_UINT, IR_DT_FLOAT } IrDTypeCode;

typedef struct IrDType {
  uint8_t code;   /* IrDTypeCode */
  uint8_t bits;   /* 1 for bool; 8/16/32/64 */
  uint16_t lanes; /* 1 unless written as e.g. float32x4 */
} IrDType;

#define IR_DTYPE(code, bits) ((IrDType){(code), (bits), 1})

/* Parses "float32", "int8", "uint64", "bool", "float32x4"; false if it is not a dtype name. */
bool ir_dtype_parse(const char *s, size_t n, IrDType *out);
/* Writes the dtype's name into buf (at least 24 bytes) and returns buf. */
const char *ir_dtype_name(IrDType dt, char *buf);
bool ir_dtype_eq(IrDType a, IrDType b);

/* ---------------------------------------------------------------- kinds */

typedef enum {
  IR_KIND_UNKNOWN, /* not written: the checker infers it from where the name is used */
  IR_KIND_TYPE,
  IR_KIND_BASETYPE,
  IR_KIND_SHAPE,
  IR_KIND_SHAPEVAR,
} IrKind;

const char *ir_kind_name(IrKind kind);

/* ---------------------------------------------------------------- types */

typedef enum {
  IR_TYPE_TENSOR, /* Tensor[shape, dtype]; a scalar is Tensor[(), dtype], written `dtype` */
  IR_TYPE_SHAPE,  /* (d1, ..., dn) */
  IR_TYPE_DIM,    /* a constant dimension */
  IR_TYPE_ANY,    /* `?` or `Any`: a dimension known only at run time */
  IR_TYPE_DIMOP,  /* d1 + d2, d1 - d2, d1 * d2 */
  IR_TYPE_DTYPE,  /* a base type such as float32 */
  IR_TYPE_VAR,    /* a name: a type parameter, or an ADT named without brackets */
  IR_TYPE_TUPLE,
  IR_TYPE_FUNC,
  IR_TYPE_CALL, /* an ADT applied to arguments: List[a], Numbers[] */
  IR_TYPE_REF,
  IR_TYPE_HOLE, /* an incomplete type, made only by the checker */
} IrTypeKind;

typedef struct IrType IrType;

typedef struct IrTypeParam {
  Sym name;
  IrKind kind; /* IR_KIND_TYPE when not written */
  IrSpan span;
} IrTypeParam;

/* A type relation in a `where` clause: `Broadcast` (bare: over all parameters and the result)
 * or `Broadcast(t1, t2, t3)`, or an operator's relation with its attributes:
 * `Reduce(t1, t2, axis=[0])`. */
typedef struct IrRel {
  Sym name;
  int nargs; /* -1 when written bare */
  IrType **args;
  IrSpan span;
  int nattrs;
  struct IrAttr *attrs;             /* as written */
  const struct IrOpAttrs *decoded; /* by the checker; NULL until then */
  int rel;                          /* the checker's relation (its TyRelId + 1) once resolved; 0 before */
} IrRel;

/* What decided a base type (IR_TYPE_DTYPE), for a message that names it: a literal's suffix
 * (`1.5f`) or a literal's default (`1.5` is float32 when nothing else types it); span is then the
 * literal's. */
typedef enum { IR_DTYPE_WRITTEN, IR_DTYPE_BY_SUFFIX, IR_DTYPE_BY_DEFAULT } IrDTypeOrigin;

struct IrType {
  IrTypeKind kind;
  uint8_t origin; /* IR_TYPE_DTYPE: an IrDTypeOrigin */
  IrSpan span;
  union {
    struct {
      IrType *shape; /* IR_TYPE_SHAPE, or a VAR/HOLE of kind Shape */
      IrType *dtype; /* IR_TYPE_DTYPE, or a VAR/HOLE of kind BaseType */
    } tensor;
    struct {
      int rank;
      IrType **dims;
    } shape;
    int64_t dim;
    struct {
      char op; /* '+', '-' or '*' */
      IrType *a, *b;
    } dimop;
    IrDType dtype;
    struct {
      Sym name;
      IrKind kind;
    } var;
    struct {
      int n;
      IrType **fields;
    } tuple;
    struct {
      int ntparams;
      IrTypeParam *tparams;
      int nargs;
      IrType **args;
      IrType *ret;
      int nrels;
      IrRel *rels;
    } func;
    struct {
      Sym name;
      int nargs;
      IrType **args;
      /* The declaration, once the checker has resolved the name: a later `data` of the same name
       * declares another type (the earlier code keeps the one it was checked against). */
      const struct IrData *adt;
    } call;
    IrType *ref;
    struct {
      uint32_t id;
      IrKind kind;
    } hole;
  } u;
};

IrType *ir_type_new(IrTypeKind kind, IrSpan span);
IrType *ir_type_dtype(IrDType dt, IrSpan span);
IrType *ir_type_dim(int64_t value, IrSpan span);
IrType *ir_type_shape(int rank, IrType **dims, IrSpan span);
IrType *ir_type_tensor(IrType *shape, IrType *dtype, IrSpan span);
/* Tensor[(), dt]. */
IrType *ir_type_scalar(IrDType dt, IrSpan span);
IrType *ir_type_var(Sym name, IrKind kind, IrSpan span);
IrType *ir_type_tuple(int n, IrType **fields, IrSpan span);

/* Whether t is Tensor[(), dtype] with a concrete dtype. */
bool ir_type_is_scalar(const IrType *t);

#endif
