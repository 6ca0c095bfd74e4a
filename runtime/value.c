/* Values: GC allocation that fails cleanly, tuples, and scalars of every dtype (conversions that
 * wrap integers and round floats the way the dtype does). */
#include "runtime/rt.h"

#include <math.h>
#include <string.h>

#include <gc/gc_inline.h>
#include <gc/gc_mark.h>

/* ---------------------------------------------------------------- allocation */

/* Small objects (constructor values, closures, tuples, up to RT_SMALL_GRANULES granules of 16 bytes)
 * come from free lists of our own, one per size, refilled a block at a time: taking one is a few
 * instructions, where GC_MALLOC looks up the thread's free lists each time. Evaluation runs on one
 * thread, so the lists need no lock; they are in the state object (rt_state.small_free, rt.h), in
 * static memory, a root, so the collector leaves the objects on them alone.
 *
 * The objects are of a collector kind of our own, scanned whole (a length descriptor plus the
 * object's size): GC_malloc_many's NORMAL kind adds a byte to every object when interior pointers
 * are on, so a 32-byte Cons took 48. relay never keeps a pointer just past a small object's end
 * (fields are read from inside it), which is what that byte is for. */
void *rt_small_refill(size_t granules) {
  if (rt_state.small_kind < 0) rt_state.small_kind = (int)GC_new_kind(GC_new_free_list(), 0 | GC_DS_LENGTH, 1, 1);
  void *p = NULL;
  GC_generic_malloc_many(granules * RT_GRANULE, rt_state.small_kind, &p); /* cleared, but for each one's link */
  if (!p) rt_error_out_of_memory(granules * RT_GRANULE);
  rt_state.small_free[granules] = GC_NEXT(p);
  GC_NEXT(p) = NULL;
  return p;
}

void *rt_alloc(size_t bytes) {
  if (ir_injected_failure()) ir_out_of_memory(bytes); /* tests only: nothing in release builds */
  size_t granules = (bytes + RT_GRANULE - 1) / RT_GRANULE;
  if (granules - 1 < RT_SMALL_GRANULES) return rt_take_small(granules); /* 1 ..= RT_SMALL_GRANULES (0 wraps) */
  void *p = GC_MALLOC(bytes ? bytes : 1);
  if (!p) rt_error_out_of_memory(bytes);
  return p;
}

void *rt_alloc_atomic(size_t bytes) {
  void *p = ir_injected_failure() ? NULL : GC_MALLOC_ATOMIC(bytes ? bytes : 1);
  if (!p) rt_error_out_of_memory(bytes);
  return p;
}

void *rt_alloc_array(int64_t n, size_t size) {
  size_t bytes;
  /* (uint64_t)n >= SIZE_MAX: a 32-bit size_t (relay.wasm) cannot hold n + 1 */
  if (n < 0 || n == INT64_MAX || (uint64_t)n >= SIZE_MAX || __builtin_mul_overflow((size_t)n + 1, size, &bytes))
    rt_error(NULL, "out of memory: %lld elements of %zu bytes are more than memory holds", (long long)n, size);
  return rt_alloc_atomic(bytes);
}

/* `()`: one tuple, never written (const, in read-only memory); RtValue's pointer is not const. */
static const RtTuple unit_tuple = {0};

RtValue rt_unit(void) { return (RtValue){.kind = RT_TUPLE, .u.tup = (RtTuple *)&unit_tuple}; }

RtValue rt_tuple_value(int n, const RtValue *fields) {
  if (n == 0) return rt_unit();
  RtTuple *t = rt_alloc(sizeof(RtTuple) + sizeof(RtValue) * (size_t)n);
  t->n = n;
  memcpy(t->f, fields, sizeof(RtValue) * (size_t)n);
  return (RtValue){.kind = RT_TUPLE, .u.tup = t};
}

/* ---------------------------------------------------------------- constructor values */

/* The kind every value of type t has, with its dtype for a scalar; RT_FIELD_VALUE when t leaves
 * it open (a type parameter, a shape or base type parameter). */
static RtField field_of(const IrType *t) {
  switch (t->kind) {
  case IR_TYPE_CALL: return (RtField){.kind = RT_ADT};
  case IR_TYPE_FUNC: return (RtField){.kind = RT_CLOSURE};
  case IR_TYPE_TUPLE: return (RtField){.kind = RT_TUPLE};
  case IR_TYPE_REF: return (RtField){.kind = RT_REF};
  case IR_TYPE_TENSOR: {
    const IrType *shape = t->u.tensor.shape, *dtype = t->u.tensor.dtype;
    if (shape->kind != IR_TYPE_SHAPE) break;
    if (shape->u.shape.rank > 0) return (RtField){.kind = RT_TENSOR};
    if (dtype->kind == IR_TYPE_DTYPE) return (RtField){.kind = RT_SCALAR, .dt = dtype->u.dtype};
    break;
  }
  default: break;
  }
  return (RtField){.kind = RT_FIELD_VALUE};
}

size_t rt_ctor_layout(const IrTCtor *k, RtField *out) {
  const IrType *scheme = k->scheme;
  ASSERT(scheme); /* ty_check_data gave every constructor its scheme */
  size_t offset = 0;
  for (int i = 0; i < k->src->nargs; i++) {
    /* The checker's scheme has the declared types resolved; without it, a whole value. */
    out[i] = scheme ? field_of(scheme->u.func.args[i]) : (RtField){.kind = RT_FIELD_VALUE};
    RtValue head;
    memset(&head, 0, sizeof head);
    head.kind = out[i].kind;
    head.dt = out[i].dt;
    memcpy(&out[i].head, &head, sizeof out[i].head);
    out[i].offset = (uint32_t)offset;
    offset += out[i].kind == RT_FIELD_VALUE ? sizeof(RtValue) : sizeof(((RtValue *)0)->u);
  }
  return offset;
}

/* ---------------------------------------------------------------- scalars */

float rt_half_round(float x) { return (float)(RtHalf)x; }

RtValue rt_scalar_from_i64(IrDType dt, int64_t x) {
  RtValue v = {.kind = RT_SCALAR, .dt = dt};
  switch (dt.code) {
  case IR_DT_BOOL: v.u.u = x != 0; break;
  case IR_DT_INT:
    switch (dt.bits) {
    case 8: v.u.i = (int8_t)x; break;
    case 16: v.u.i = (int16_t)x; break;
    case 32: v.u.i = (int32_t)x; break;
    default: v.u.i = x; break;
    }
    break;
  case IR_DT_UINT: return rt_scalar_from_u64(dt, (uint64_t)x);
  case IR_DT_FLOAT: return rt_scalar_from_f64(dt, (double)x);
  }
  return v;
}

RtValue rt_scalar_from_u64(IrDType dt, uint64_t x) {
  RtValue v = {.kind = RT_SCALAR, .dt = dt};
  switch (dt.code) {
  case IR_DT_BOOL: v.u.u = x != 0; break;
  case IR_DT_INT: return rt_scalar_from_i64(dt, (int64_t)x);
  case IR_DT_UINT:
    switch (dt.bits) {
    case 8: v.u.u = (uint8_t)x; break;
    case 16: v.u.u = (uint16_t)x; break;
    case 32: v.u.u = (uint32_t)x; break;
    default: v.u.u = x; break;
    }
    break;
  case IR_DT_FLOAT: return rt_scalar_from_f64(dt, (double)x);
  }
  return v;
}

/* Float to integer as C converts in range; NaN becomes 0 and out-of-range values saturate, so the
 * conversion is never undefined. */
static int64_t f64_to_i64(double x) {
  if (isnan(x)) return 0;
  if (x >= 9223372036854775807.0) return INT64_MAX;
  if (x <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)x;
}

RtValue rt_scalar_from_f64(IrDType dt, double x) {
  RtValue v = {.kind = RT_SCALAR, .dt = dt};
  switch (dt.code) {
  case IR_DT_BOOL: v.u.u = x != 0; break;
  case IR_DT_INT: return rt_scalar_from_i64(dt, f64_to_i64(x));
  case IR_DT_UINT:
    if (isnan(x) || x <= 0) return rt_scalar_from_u64(dt, x <= -1 ? (uint64_t)f64_to_i64(x) : 0);
    return rt_scalar_from_u64(dt, x >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)x);
  case IR_DT_FLOAT:
    if (dt.bits == 64) v.u.f64 = x;
    else if (dt.bits == 16) v.u.f32 = rt_half_round((float)x);
    else v.u.f32 = (float)x;
    break;
  }
  return v;
}

double rt_scalar_f64(RtValue v) {
  switch (v.dt.code) {
  case IR_DT_INT: return (double)v.u.i;
  case IR_DT_FLOAT: return v.dt.bits == 64 ? v.u.f64 : (double)v.u.f32;
  default: return (double)v.u.u;
  }
}

int64_t rt_scalar_i64(RtValue v) {
  switch (v.dt.code) {
  case IR_DT_INT: return v.u.i;
  case IR_DT_FLOAT: return f64_to_i64(rt_scalar_f64(v));
  default: return (int64_t)v.u.u;
  }
}

RtValue rt_scalar_from_lit(const IrLit *lit, IrDType dt) {
  switch (lit->kind) {
  case IR_LIT_BOOL: return rt_bool(lit->b);
  case IR_LIT_FLOAT: return rt_scalar_from_f64(dt, lit->f);
  default:
    if (dt.code == IR_DT_FLOAT) return rt_scalar_from_f64(dt, lit->neg ? -(double)lit->mag : (double)lit->mag);
    return lit->neg ? rt_scalar_from_i64(dt, (int64_t)(0 - lit->mag)) : rt_scalar_from_u64(dt, lit->mag);
  }
}
