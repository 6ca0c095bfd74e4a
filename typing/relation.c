/* The type relations of typing/: Identity, Elementwise with its bool-result sibling ElementwiseComp,
 * and Broadcast with its bool-result sibling BroadcastComp. A relation reads its arguments through ty_prune, may unify, and says whether it
 * is solved, still open, or failed with a message that names the operator, the argument, the
 * dimension and both values. */
#include "typing/oprel.h"

#include <string.h>

/* ---------------------------------------------------------------- Identity */

TyRelResult ty_rel_identity(TyCtx *cx, TyRelation *rel, const char **message) {
  TyMismatch why = TY_MISMATCH_INIT;
  if (ty_unify(cx, rel->args[0], rel->args[1], &why)) return TY_SOLVED;
  *message = ir_printf("%s needs equal types, but they are %s and %s", ty_rel_who(rel), ty_rel_text(cx, rel->args[0]),
                       ty_rel_text(cx, rel->args[1]));
  return TY_FAILED;
}

/* ---------------------------------------------------------------- Elementwise */

/* Elementwise(t1, t2): a unary element-wise operator's argument t1 is a tensor, and its result
 * t2 has the same type. */
TyRelResult ty_rel_elementwise(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *t = ty_prune(cx, rel->args[0]);
  if (t->kind == IR_TYPE_HOLE) return ty_unify(cx, rel->args[1], t, NULL) ? TY_NOT_YET : TY_FAILED;
  if (t->kind != IR_TYPE_TENSOR) {
    *message = ty_rel_not_tensor(cx, rel, 0, "argument", t);
    return TY_FAILED;
  }
  return ty_rel_result(cx, rel, 1, t, message);
}

/* ElementwiseComp(t1, t2): a test of each element (isnan, isinf, isfinite): t2 is t1's shape with
 * element type bool (TVM's IdentityCompRel). */
TyRelResult ty_rel_elementwise_comp(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *t = ty_prune(cx, rel->args[0]);
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  if (t->kind != IR_TYPE_TENSOR) REL_FAIL("%s", ty_rel_not_tensor(cx, rel, 0, "argument", t));
  IrType *r = ty_rel_tensor_type(t->u.tensor.shape, ir_type_dtype(IR_DTYPE(IR_DT_BOOL, 1), (IrSpan){0}));
  return ty_rel_result(cx, rel, 1, r, message);
}

/* ---------------------------------------------------------------- Broadcast */

/* DIM_KNOWN: the result is *out; DIM_PENDING: the result is *out, but the arguments are not yet
 * known to broadcast (a hole against a constant c != 1 gives c, and must still turn out 1 or c);
 * DIM_OPEN: not decided; DIM_CLASH: they cannot broadcast. */
typedef enum { DIM_KNOWN, DIM_PENDING, DIM_OPEN, DIM_CLASH } DimVerdict;

static bool is_const(IrType *d, int64_t c) { return d->kind == IR_TYPE_DIM && d->u.dim == c; }

/* The broadcast of two dimensions (numpy's rule: equal, or one of them is 1). A `?` is a size
 * known only at run time, where the kernel checks that it broadcasts: against 1 it is the
 * result, against a constant c != 1 it can only be 1 or c, so the result is c (as TVM v0.14's
 * ConcreteBroadcast, src/relay/op/type_relations.cc); against a shape variable or arithmetic it
 * is `?`, since the variable may be 1 and the result then the `?`'s size (TVM gives the variable
 * there, which is false when it is 1); against a hole it waits for the hole. */
/* d, pruned; arithmetic in normal form (`1 * 1` made of holes now known is the constant 1). */
static IrType *dim_now(TyCtx *cx, IrType *d) {
  d = ty_prune(cx, d);
  TyPoly p;
  if (d->kind == IR_TYPE_DIMOP && ty_dim_normalize(cx, d, &p)) d = ty_poly_to_dim(cx, &p);
  return d;
}

static DimVerdict broadcast_dim(TyCtx *cx, IrType *a, IrType *b, IrType **out) {
  a = dim_now(cx, a);
  b = dim_now(cx, b);
  *out = a;
  if (a == b) return DIM_KNOWN;
  bool aa = a->kind == IR_TYPE_ANY, ba = b->kind == IR_TYPE_ANY;
  if (is_const(b, 1)) return DIM_KNOWN;
  if (is_const(a, 1)) {
    *out = b;
    return DIM_KNOWN;
  }
  if (aa || ba) {
    IrType *any = aa ? a : b, *other = aa ? b : a;
    if (other->kind == IR_TYPE_DIM) {
      *out = other;
      return DIM_KNOWN;
    }
    TyIdList holes = {0};
    ty_holes_of(cx, other, &holes);
    *out = any;
    return holes.len ? DIM_OPEN : DIM_KNOWN;
  }
  if (a->kind == IR_TYPE_DIM && b->kind == IR_TYPE_DIM) return a->u.dim == b->u.dim ? DIM_KNOWN : DIM_CLASH;
  /* A hole against a constant c != 1 is 1 or c: either way the result is c, but which one it is
   * is decided (and checked) only when the hole is known. */
  if (a->kind == IR_TYPE_HOLE && b->kind == IR_TYPE_DIM) {
    *out = b;
    return DIM_PENDING;
  }
  if (b->kind == IR_TYPE_HOLE && a->kind == IR_TYPE_DIM) return DIM_PENDING;
  TyPoly pa, pb;
  if (ty_dim_normalize(cx, a, &pa) && ty_dim_normalize(cx, b, &pb)) {
    if (ty_poly_equal(&pa, &pb)) return DIM_KNOWN;
    TyIdList holes = {0};
    ty_holes_of(cx, a, &holes);
    ty_holes_of(cx, b, &holes);
    if (holes.len == 0) return DIM_CLASH; /* named variables that may differ */
  }
  return DIM_OPEN;
}

/* TY_SOLVED with *out; TY_NOT_YET with *out the result when it is known already (the relation
 * must still run again) or NULL; TY_FAILED. */
TyRelResult ty_rel_broadcast_dim(TyCtx *cx, IrType *a, IrType *b, IrType **out) {
  DimVerdict v = broadcast_dim(cx, a, b, out);
  if (v == DIM_OPEN) *out = NULL;
  return v == DIM_KNOWN ? TY_SOLVED : v == DIM_CLASH ? TY_FAILED : TY_NOT_YET;
}

static bool is_rank0(IrType *shape) { return shape->kind == IR_TYPE_SHAPE && shape->u.shape.rank == 0; }

/* The same shape for sure: the same hole, or the same rigid shape variable (each annotation
 * makes its own node for `s`, so compare names). */
static bool same_shape(IrType *a, IrType *b) {
  return a == b || (a->kind == IR_TYPE_VAR && b->kind == IR_TYPE_VAR && a->u.var.name == b->u.var.name);
}


static TyRelResult broadcast(TyCtx *cx, TyRelation *rel, bool comp, const char **message) {
  IrType *t[3];
  bool any_tensor = false;
  for (int i = 0; i < 3; i++) {
    t[i] = ty_prune(cx, rel->args[i]);
    any_tensor |= t[i]->kind == IR_TYPE_TENSOR;
  }
  for (int i = 0; i < 3; i++) {
    if (t[i]->kind == IR_TYPE_TENSOR || t[i]->kind == IR_TYPE_HOLE) continue;
    *message = ty_rel_not_tensor(cx, rel, i, i < 2 ? ir_printf("%s argument", ir_ordinal(i)) : "result type", t[i]);
    return TY_FAILED;
  }
  if (!any_tensor) return TY_NOT_YET; /* fn<t1, t2, t3>(t1, t2) -> t3 where Broadcast(t1, t2, t3) */
  /* Every argument is a tensor: say so, so that element types flow between them now. */
  for (int i = 0; i < 3; i++) {
    if (t[i]->kind != IR_TYPE_HOLE) continue;
    IrType *tensor = ir_type_tensor(ty_fresh(cx, IR_KIND_SHAPE, rel->span), ty_fresh(cx, IR_KIND_BASETYPE, rel->span),
                                    (IrSpan){0});
    ty_bind_hole(cx, t[i], tensor, NULL);
    t[i] = tensor;
  }
  if (!ty_unify(cx, t[0]->u.tensor.dtype, t[1]->u.tensor.dtype, NULL)) {
    *message = ir_printf("%s needs arguments of one element type, but they are %s and %s\n"
                         "first argument: %s\nsecond argument: %s",
                         ty_rel_who(rel), ty_rel_text(cx, t[0]->u.tensor.dtype), ty_rel_text(cx, t[1]->u.tensor.dtype),
                         ty_rel_text(cx, t[0]), ty_rel_text(cx, t[1]));
    return TY_FAILED;
  }
  IrType *out_dtype = comp ? ir_type_dtype(IR_DTYPE(IR_DT_BOOL, 1), (IrSpan){0}) : t[0]->u.tensor.dtype;
  if (!ty_unify(cx, t[2]->u.tensor.dtype, out_dtype, NULL)) {
    *message = ir_printf("the result of %s has element type %s, but %s was expected", ty_rel_who(rel),
                         ty_rel_text(cx, out_dtype), ty_rel_text(cx, t[2]->u.tensor.dtype));
    return TY_FAILED;
  }

  IrType *sa = ty_prune(cx, t[0]->u.tensor.shape), *sb = ty_prune(cx, t[1]->u.tensor.shape);
  IrType *so = ty_prune(cx, t[2]->u.tensor.shape);
  if (is_rank0(so)) { /* a scalar result: both arguments are scalars */
    if (!ty_unify(cx, sa, so, NULL) || !ty_unify(cx, sb, so, NULL)) {
      *message = ir_printf("%s gives a scalar only from scalars, but its arguments are %s and %s", ty_rel_who(rel),
                           ty_rel_text(cx, t[0]), ty_rel_text(cx, t[1]));
      return TY_FAILED;
    }
    return TY_SOLVED;
  }
  if (sa->kind != IR_TYPE_SHAPE || sb->kind != IR_TYPE_SHAPE) {
    /* A rank not yet known: only a scalar or an identical shape decides the result now. */
    IrType *known = same_shape(sa, sb) ? sa : is_rank0(sa) ? sb : is_rank0(sb) ? sa : NULL;
    if (!known) return TY_NOT_YET;
    if (!ty_unify(cx, so, known, NULL)) goto result_clash;
    return TY_SOLVED;
  }
  int ra = sa->u.shape.rank, rb = sb->u.shape.rank, r = ra > rb ? ra : rb;
  if (so->kind == IR_TYPE_SHAPE && so->u.shape.rank != r) goto result_clash;
  IrType **dims = IR_NEW_ARRAY(IrType *, r);
  bool open = false;
  for (int i = 0; i < r; i++) { /* aligned from the right */
    IrType *da = i < ra ? sa->u.shape.dims[ra - 1 - i] : NULL, *db = i < rb ? sb->u.shape.dims[rb - 1 - i] : NULL;
    IrType *d = NULL;
    DimVerdict v = !da ? (d = db, DIM_KNOWN) : !db ? (d = da, DIM_KNOWN) : broadcast_dim(cx, da, db, &d);
    if (v == DIM_CLASH) {
      int pa = ra - 1 - i, pb = rb - 1 - i;
      bool named = ty_prune(cx, da)->kind != IR_TYPE_DIM || ty_prune(cx, db)->kind != IR_TYPE_DIM;
      *message = ir_printf(
          "%s cannot broadcast the shapes %s and %s\n"
          "dimension %d of the first argument is %s, dimension %d of the second is %s%s\n"
          "shapes align from the right; a dimension broadcasts when the two are equal or one is 1",
          ty_rel_who(rel), ty_rel_text(cx, sa), ty_rel_text(cx, sb), pa, ty_rel_text(cx, da), pb, ty_rel_text(cx, db),
          named ? " (they may differ)" : "");
      return TY_FAILED;
    }
    if (v == DIM_PENDING) open = true;
    if (v == DIM_OPEN) {
      open = true;
      /* Keep the result's own dimension where it has one; a fresh hole only the first time. */
      d = so->kind == IR_TYPE_SHAPE ? so->u.shape.dims[r - 1 - i] : ty_fresh(cx, IR_KIND_SHAPEVAR, rel->span);
    }
    dims[r - 1 - i] = d;
  }
  if (!ty_unify(cx, so, ir_type_shape(r, dims, (IrSpan){0}), NULL)) goto result_clash;
  return open ? TY_NOT_YET : TY_SOLVED;

result_clash:
  *message = ir_printf("%s of %s and %s does not give %s", ty_rel_who(rel), ty_rel_text(cx, t[0]), ty_rel_text(cx, t[1]),
                       ty_rel_text(cx, t[2]));
  return TY_FAILED;
}

TyRelResult ty_rel_broadcast(TyCtx *cx, TyRelation *rel, const char **message) {
  return broadcast(cx, rel, false, message);
}

TyRelResult ty_rel_broadcast_comp(TyCtx *cx, TyRelation *rel, const char **message) {
  return broadcast(cx, rel, true, message);
}

/* ---------------------------------------------------------------- TupleGetItem */

/* TupleGetItem(t, i, r): t is a tuple whose field i has type r. */
TyRelResult ty_rel_tuple_get_item(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *t = ty_prune(cx, rel->args[0]);
  int64_t i = ty_prune(cx, rel->args[1])->u.dim;
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  if (t->kind != IR_TYPE_TUPLE) {
    *message = ir_printf("`.%lld` takes a field of a tuple, but this value is %s", (long long)i, ty_rel_text(cx, t));
    return TY_FAILED;
  }
  if (i >= t->u.tuple.n) {
    *message = ir_printf("this tuple has %d field%s (numbered from 0), so there is no field %lld", t->u.tuple.n,
                         t->u.tuple.n == 1 ? "" : "s", (long long)i);
    return TY_FAILED;
  }
  if (!ty_unify(cx, t->u.tuple.fields[i], rel->args[2], NULL)) {
    *message = ir_printf("field %lld of this tuple is %s, but %s is expected", (long long)i,
                         ty_rel_text(cx, t->u.tuple.fields[i]), ty_rel_text(cx, rel->args[2]));
    return TY_FAILED;
  }
  return TY_SOLVED;
}

/* ---------------------------------------------------------------- the registry */

static const struct {
  const char *name;
  TyRelFn fn;
  int nargs;
  const char *attrs;
} relations[TY_REL_COUNT] = {
#define TY_REL(id, name, fn, nargs, attrs) {#name, fn, nargs, attrs},
#include "typing/relations.def"
#undef TY_REL
};

int ty_relation_find(Sym name) {
  for (int i = 0; i < TY_REL_COUNT; i++)
    if (strcmp(relations[i].name, name->name) == 0) return i;
  return -1;
}

const char *ty_relation_name(TyRelId rel) { return relations[rel].name; }
int ty_relation_arity(TyRelId rel) { return relations[rel].nargs; }
const char *ty_relation_attrs(TyRelId rel) { return relations[rel].attrs; }
TyRelFn ty_relation_fn(TyRelId rel) { return relations[rel].fn; }
