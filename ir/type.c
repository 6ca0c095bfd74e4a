/* Constructors for types, and the names of base types and kinds. */
#include "ir/type.h"

#include <stdio.h>
#include <string.h>

bool ir_dtype_parse(const char *s, size_t n, IrDType *out) {
  static const struct {
    const char *prefix;
    IrDTypeCode code;
  } families[] = {{"bool", IR_DT_BOOL}, {"uint", IR_DT_UINT}, {"int", IR_DT_INT},
                  {"float", IR_DT_FLOAT}};
  for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
    size_t pl = strlen(families[f].prefix);
    if (n < pl || memcmp(s, families[f].prefix, pl) != 0) continue;
    size_t i = pl;
    unsigned bits = 0, lanes = 1;
    IrDTypeCode code = families[f].code;
    if (code == IR_DT_BOOL) {
      bits = 1;
    } else {
      if (i == n) { /* `int`, `uint`, `float`: TVM reads these as the 32-bit types */
        *out = (IrDType){(uint8_t)families[f].code, 32, 1};
        return true;
      }
      if (s[i] < '1' || s[i] > '9') return false;
      while (i < n && s[i] >= '0' && s[i] <= '9' && bits < 1000) bits = bits * 10 + (unsigned)(s[i++] - '0');
      bool ok = families[f].code == IR_DT_FLOAT ? (bits == 16 || bits == 32 || bits == 64)
                                                 : (bits == 8 || bits == 16 || bits == 32 || bits == 64);
      if (families[f].code == IR_DT_UINT && bits == 1) { /* TVM's name for bool: `uint1`, `uint1x4` */
        ok = true;
        code = IR_DT_BOOL;
      }
      if (!ok) return false;
    }
    if (i < n) {
      if (s[i] != 'x' || i + 1 >= n || s[i + 1] < '1' || s[i + 1] > '9') return false;
      lanes = 0;
      for (i++; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || lanes > 6553) return false;
        lanes = lanes * 10 + (unsigned)(s[i] - '0');
      }
      if (lanes > 65535) return false;
    }
    *out = (IrDType){(uint8_t)code, (uint8_t)bits, (uint16_t)lanes};
    return true;
  }
  return false;
}

/* As TVM's DLDataType2String (include/tvm/runtime/data_type.h) names them: bool with lanes is
 * `uint1x4`, since TVM reads no `boolx4`. */
const char *ir_dtype_name(IrDType dt, char *buf) {
  static const char *const names[] = {"bool", "int", "uint", "float"};
  int n = dt.code == IR_DT_BOOL ? snprintf(buf, 24, dt.lanes == 1 ? "bool" : "uint1")
                                : snprintf(buf, 24, "%s%u", names[dt.code & 3], (unsigned)dt.bits);
  if (dt.lanes != 1) snprintf(buf + n, (size_t)(24 - n), "x%u", (unsigned)dt.lanes);
  return buf;
}

bool ir_dtype_eq(IrDType a, IrDType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

const char *ir_kind_name(IrKind kind) {
  switch (kind) {
  case IR_KIND_UNKNOWN: return "?";
  case IR_KIND_TYPE: return "Type";
  case IR_KIND_BASETYPE: return "BaseType";
  case IR_KIND_SHAPE: return "Shape";
  case IR_KIND_SHAPEVAR: return "ShapeVar";
  }
  UNREACHABLE("a kind of no name");
  return "?";
}

IrType *ir_type_new(IrTypeKind kind, IrSpan span) {
  IrType *t = IR_NEW(IrType);
  t->kind = kind;
  t->span = span;
  return t;
}

IrType *ir_type_dtype(IrDType dt, IrSpan span) {
  IrType *t = ir_type_new(IR_TYPE_DTYPE, span);
  t->u.dtype = dt;
  return t;
}

IrType *ir_type_dim(int64_t value, IrSpan span) {
  IrType *t = ir_type_new(IR_TYPE_DIM, span);
  t->u.dim = value;
  return t;
}

IrType *ir_type_shape(int rank, IrType **dims, IrSpan span) {
  IrType *t = ir_type_new(IR_TYPE_SHAPE, span);
  t->u.shape.rank = rank;
  t->u.shape.dims = dims;
  return t;
}

IrType *ir_type_tensor(IrType *shape, IrType *dtype, IrSpan span) {
  IrType *t = ir_type_new(IR_TYPE_TENSOR, span);
  t->u.tensor.shape = shape;
  t->u.tensor.dtype = dtype;
  return t;
}

IrType *ir_type_scalar(IrDType dt, IrSpan span) {
  return ir_type_tensor(ir_type_shape(0, NULL, span), ir_type_dtype(dt, span), span);
}

IrType *ir_type_var(Sym name, IrKind kind, IrSpan span) {
  IrType *t = ir_type_new(IR_TYPE_VAR, span);
  t->u.var.name = name;
  t->u.var.kind = kind;
  return t;
}

IrType *ir_type_tuple(int n, IrType **fields, IrSpan span) {
  IrType *t = ir_type_new(IR_TYPE_TUPLE, span);
  t->u.tuple.n = n;
  t->u.tuple.fields = fields;
  return t;
}

bool ir_type_is_scalar(const IrType *t) {
  return t->kind == IR_TYPE_TENSOR && t->u.tensor.shape->kind == IR_TYPE_SHAPE &&
         t->u.tensor.shape->u.shape.rank == 0 && t->u.tensor.dtype->kind == IR_TYPE_DTYPE;
}
