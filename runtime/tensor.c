/* Tensors: allocation (dtype, shape, contiguous row-major data in pointer-free GC memory),
 * element access by dtype, and filled tensors. */
#include "runtime/kernel.h"

#include <string.h>

size_t rt_dtype_size(IrDType dt) {
  if (dt.code == IR_DT_BOOL) return 1;
  return dt.bits / 8;
}

/* Beyond this a tensor is refused outright: no machine this runs on has the memory. */
#ifndef RELAY_WASM
#define MAX_TENSOR_BYTES ((int64_t)1 << 40)
#else
#define MAX_TENSOR_BYTES ((int64_t)1 << 31) /* wasm32: memory of 2 GiB, a 32-bit size_t */
#endif

RtTensor *rt_tensor_new(IrDType dt, int rank, const int64_t *shape) {
  int64_t count = 1;
  size_t esize = rt_dtype_size(dt);
  bool empty = false;
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0) rt_error(NULL, "a tensor cannot have a negative dimension (%lld)", (long long)shape[i]);
    empty |= shape[i] == 0;
  }
  for (int i = 0; i < rank && !empty; i++) {
    if (count > MAX_TENSOR_BYTES / (int64_t)esize / shape[i])
      rt_error(NULL, "out of memory: a tensor of this shape needs more than %lld GiB",
               (long long)(MAX_TENSOR_BYTES >> 30));
    count *= shape[i];
  }
  if (empty) count = 0;
  ASSERT(rank >= 1); /* a rank-0 value is a scalar, never a tensor object (runtime.h) */
  size_t shape_bytes = sizeof(int64_t) * (unsigned)rank;
  RtTensor *t = rt_alloc(sizeof(RtTensor) + shape_bytes);
  t->dt = dt;
  t->rank = rank;
  t->count = count;
  ir_copy(t->shape, shape, shape_bytes);
  size_t bytes = (size_t)count * esize;
  /* A large block is kept alive only by the header's pointer to its start, so the collector
   * need not treat interior addresses as references (fewer false retentions). */
  t->data = ir_injected_failure() ? NULL : bytes >= 65536 ? GC_MALLOC_ATOMIC_IGNORE_OFF_PAGE(bytes) : GC_MALLOC_ATOMIC(bytes ? bytes : 1);
  if (!t->data) rt_error_out_of_memory(bytes);
  return t;
}

RtValue rt_tensor_get(const RtTensor *t, int64_t i) { return rt_elem_get(t->data, t->dt, i); }

void rt_tensor_set(RtTensor *t, int64_t i, RtValue v) { rt_elem_set(t->data, t->dt, i, v); }

RtValue rt_elem_get(const void *p, IrDType dt, int64_t i) {
  switch (dt.code) {
  case IR_DT_BOOL: return rt_bool(((const uint8_t *)p)[i] != 0);
  case IR_DT_INT:
    switch (dt.bits) {
    case 8: return rt_scalar_i(dt, ((const int8_t *)p)[i]);
    case 16: return rt_scalar_i(dt, ((const int16_t *)p)[i]);
    case 32: return rt_scalar_i(dt, ((const int32_t *)p)[i]);
    default: return rt_scalar_i(dt, ((const int64_t *)p)[i]);
    }
  case IR_DT_UINT:
    switch (dt.bits) {
    case 8: return rt_scalar_from_u64(dt, ((const uint8_t *)p)[i]);
    case 16: return rt_scalar_from_u64(dt, ((const uint16_t *)p)[i]);
    case 32: return rt_scalar_from_u64(dt, ((const uint32_t *)p)[i]);
    default: return rt_scalar_from_u64(dt, ((const uint64_t *)p)[i]);
    }
  default:
    switch (dt.bits) {
    case 16: return (RtValue){.kind = RT_SCALAR, .dt = dt, .u.f32 = (float)((const RtHalf *)p)[i]};
    case 32: return (RtValue){.kind = RT_SCALAR, .dt = dt, .u.f32 = ((const float *)p)[i]};
    default: return (RtValue){.kind = RT_SCALAR, .dt = dt, .u.f64 = ((const double *)p)[i]};
    }
  }
}

void rt_elem_set(void *p, IrDType dt, int64_t i, RtValue v) {
  switch (dt.code) {
  case IR_DT_BOOL: ((uint8_t *)p)[i] = v.u.u != 0; break;
  case IR_DT_INT:
  case IR_DT_UINT:
    switch (dt.bits) {
    case 8: ((uint8_t *)p)[i] = (uint8_t)v.u.u; break;
    case 16: ((uint16_t *)p)[i] = (uint16_t)v.u.u; break;
    case 32: ((uint32_t *)p)[i] = (uint32_t)v.u.u; break;
    default: ((uint64_t *)p)[i] = v.u.u; break;
    }
    break;
  default:
    switch (dt.bits) {
    case 16: ((RtHalf *)p)[i] = (RtHalf)v.u.f32; break;
    case 32: ((float *)p)[i] = v.u.f32; break;
    default: ((double *)p)[i] = v.u.f64; break;
    }
  }
}

void rt_copy_blocks(const RtSite *site, void *dst, const void *src, size_t bytes) {
  for (size_t i = 0; i < bytes; i += RT_COPY_BLOCK) {
    rt_poll(site ? site->expr : NULL);
    memcpy((char *)dst + i, (const char *)src + i, bytes - i < RT_COPY_BLOCK ? bytes - i : RT_COPY_BLOCK);
  }
}

void rt_zero_blocks(const RtSite *site, void *dst, size_t bytes) {
  for (size_t i = 0; i < bytes; i += RT_COPY_BLOCK) {
    rt_poll(site ? site->expr : NULL);
    memset((char *)dst + i, 0, bytes - i < RT_COPY_BLOCK ? bytes - i : RT_COPY_BLOCK);
  }
}

RtValue rt_tensor_fill(RtValue v, IrDType dt, int rank, const int64_t *shape) {
  if (rank == 0) return v;
  RtTensor *t = rt_tensor_new(dt, rank, shape);
  if (t->count > 0) {
    size_t esize = rt_dtype_size(dt);
    rt_tensor_set(t, 0, v);
    /* Doubling copies: log2(count) memcpy calls. */
    int64_t done = 1;
    while (done < t->count) {
      int64_t n = done < t->count - done ? done : t->count - done;
      rt_copy(NULL, (char *)t->data + (size_t)done * esize, t->data, (size_t)n * esize);
      done += n;
    }
  }
  return (RtValue){.kind = RT_TENSOR, .u.t = t};
}

RtValue rt_convert(RtValue v, IrDType to) {
  if (to.code == IR_DT_FLOAT || v.dt.code == IR_DT_FLOAT) return rt_scalar_from_f64(to, rt_scalar_f64(v));
  if (to.code == IR_DT_BOOL) return rt_bool(v.u.u != 0);
  return v.dt.code == IR_DT_INT ? rt_scalar_from_i64(to, v.u.i) : rt_scalar_from_u64(to, v.u.u);
}
