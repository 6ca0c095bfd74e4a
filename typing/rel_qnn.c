/* The relations of TVM's quantized operators (qnn.*), as TVM v0.14's src/relay/qnn/op/ files type
 * them: the quantized data's element types are checked, scales are float32 and zero points int32,
 * each either a scalar or (where TVM allows it: AssignType) a vector of one value per channel along
 * the operator's axis; the shape rule is the float operator's (Conv2D, Dense, BatchMatmul,
 * Broadcast, Concatenate, Pool2D), run on the data arguments and the result. */
#include "typing/oprel.h"

#include <string.h>

/* ---------------------------------------------------------------- shared */

static const IrDType F32 = {IR_DT_FLOAT, 32, 1}, I32 = {IR_DT_INT, 32, 1};

/* The dtype names in `allowed` ("int8 uint8 int16") as a message lists them. */
static const char *allowed_text(const char *allowed) {
  char *s = ir_printf("%s", allowed);
  char *last = strrchr(s, ' ');
  IrBuf b;
  ir_buf_init(&b);
  for (char *p = s; *p; p++) {
    if (*p != ' ') ir_buf_putc(&b, *p);
    else ir_buf_puts(&b, p == last ? " or " : ", ");
  }
  return b.data;
}

static bool dtype_in(IrDType dt, const char *allowed) {
  char name[32];
  ir_dtype_name(dt, name);
  size_t n = strlen(name);
  for (const char *p = allowed; (p = strstr(p, name)) != NULL; p += n)
    if ((p == allowed || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return true;
  return false;
}

/* The element type dt of argument `what` (t its whole type) is one of `allowed`; waits while a hole. */
static TyRelResult dtype_of(TyCtx *cx, TyRelation *rel, IrType *dt, const char *allowed, const char *what, IrType *t,
                            const char **message) {
  dt = ty_prune(cx, dt);
  if (dt->kind != IR_TYPE_DTYPE) return TY_NOT_YET;
  if (!dtype_in(dt->u.dtype, allowed))
    REL_FAIL("%s takes %s of %s, but it is %s", ty_rel_who(rel), what, allowed_text(allowed), ty_rel_text(cx, t));
  return TY_SOLVED;
}

/* The attribute out_dtype (dflt when not given) is one of `allowed`. */
static TyRelResult out_dtype_of(TyRelation *rel, IrDType dflt, const char *allowed, IrDType *out, const char **message) {
  *out = ir_attr_dtype(rel->attrs, IR_A_OUT_DTYPE, dflt);
  char name[32];
  if (!dtype_in(*out, allowed))
    REL_FAIL("%s: out_dtype=\"%s\" is not one of %s", ty_rel_who(rel), ir_dtype_name(*out, name), allowed_text(allowed));
  return TY_SOLVED;
}

/* Argument i, named `what`, is a scalar of dtype dt (given that type when not known yet). */
static TyRelResult scalar_arg(TyCtx *cx, TyRelation *rel, int i, IrDType dt, const char *what, const char **message) {
  IrType *want = ty_rel_tensor_type(ty_rel_shape(0, NULL), ir_type_dtype(dt, (IrSpan){0}));
  if (ty_unify(cx, rel->args[i], want, NULL)) return TY_SOLVED;
  REL_FAIL("%s: %s (the %s argument) must be a scalar, %s, but it is %s", ty_rel_who(rel), what, ir_ordinal(i),
           ty_rel_text(cx, want), ty_rel_text(cx, rel->args[i]));
}

/* The rank of argument i, a tensor: waits while it is unknown. */
static TyRelResult arg_rank(TyCtx *cx, TyRelation *rel, int i, int *rank, const char **message) {
  IrType *s;
  REL_TRY(ty_rel_tensor(cx, rel, i, &s, NULL, message));
  *rank = s->u.shape.rank;
  return TY_SOLVED;
}

/* Whether argument i (a tensor of known shape) holds one value: rank 0, or (as TVM's Dequantize)
 * every dimension the constant 1: 1 if so, 0 if not, -1 while a dimension not known yet may be 1. */
static int one_value(TyCtx *cx, TyRelation *rel, int i) {
  IrType *s;
  const char *m;
  if (ty_rel_tensor(cx, rel, i, &s, NULL, &m) != TY_SOLVED) return 0;
  int one = 1;
  for (int k = 0; k < s->u.shape.rank; k++) {
    int64_t n;
    TyDimState d = ty_rel_dim_state(cx, s->u.shape.dims[k], &n);
    if (d == TY_DIM_HOLE) one = one ? -1 : 0;
    else if (d != TY_DIM_CONST || n != 1) one = 0;
  }
  return one;
}

/* TVM's AssignType: argument i, named `what`, is of dtype dt, and a scalar or the vector (dim). */
static TyRelResult channel_arg(TyCtx *cx, TyRelation *rel, int i, IrDType dt, IrType *dim, const char *what,
                               const char **message) {
  IrType *s, *t;
  REL_TRY(ty_rel_tensor(cx, rel, i, &s, &t, message));
  IrType *want_dt = ir_type_dtype(dt, (IrSpan){0});
  if (!ty_unify(cx, t, want_dt, NULL))
    REL_FAIL("%s: %s (the %s argument) must be of %s, but it is %s", ty_rel_who(rel), what, ir_ordinal(i),
             ty_rel_text(cx, want_dt), ty_rel_text(cx, rel->args[i]));
  if (s->u.shape.rank == 0) return TY_SOLVED;
  IrType **d = IR_NEW_ARRAY(IrType *, 1);
  d[0] = dim;
  IrType *want = ty_rel_tensor_type(ty_rel_shape(1, d), want_dt);
  if (ty_unify(cx, rel->args[i], want, NULL)) return TY_SOLVED;
  REL_FAIL("%s: %s (the %s argument) is a scalar or one value per channel, %s, but it is %s", ty_rel_who(rel), what,
           ir_ordinal(i), ty_rel_text(cx, want), ty_rel_text(cx, rel->args[i]));
}

/* The channel axis of attribute `id` (default -1) for data of `rank`, as TVM resolves it; checked
 * (0 <= axis < max(rank, 1)) when `check`. *dim is the data's dimension there (1 for a scalar). */
static TyRelResult channel_axis(TyRelation *rel, IrAttrId id, IrType *shape, bool check, IrType **dim,
                                const char **message) {
  int rank = shape->u.shape.rank;
  int64_t a = ir_attr_int(rel->attrs, id, -1);
  int64_t axis = a < 0 ? (rank > 0 ? rank + a : 0) : a;
  if (check && (axis < 0 || axis >= (rank > 0 ? rank : 1)))
    REL_FAIL("%s: %s=%lld is out of range for data of rank %d", ty_rel_who(rel), ir_attr_name(id), (long long)a, rank);
  *dim = rank > 0 && axis >= 0 && axis < rank ? shape->u.shape.dims[axis] : ty_rel_dim(1);
  return TY_SOLVED;
}

/* Runs the float operator's relation fn on arguments a, b (b < 0: none) and the result r, with
 * attributes `attrs` (the call's when NULL). */
static TyRelResult sub_relation(TyCtx *cx, TyRelation *rel, TyRelFn fn, int a, int b, int r, const IrOpAttrs *attrs,
                                const char **message) {
  TyRelation sub = *rel;
  sub.nargs = b < 0 ? 2 : 3;
  sub.args = IR_NEW_ARRAY(IrType *, 3);
  int k = 0;
  sub.args[k++] = rel->args[a];
  if (b >= 0) sub.args[k++] = rel->args[b];
  sub.args[k++] = rel->args[r];
  if (attrs) sub.attrs = attrs;
  return fn(cx, &sub, message);
}

/* sub_relation for a relation that may stay open once it has given its result (a window over named sizes:
 * ty_rel_open): then TY_SOLVED with *open set, so that the quantized relation checks its other arguments
 * and stays open too. */
static TyRelResult sub_relation_open(TyCtx *cx, TyRelation *rel, TyRelFn fn, int a, int b, int r, const IrOpAttrs *attrs,
                                     bool *open, const char **message) {
  TyRelResult k = sub_relation(cx, rel, fn, a, b, r, attrs, message);
  if (k != TY_NOT_YET || ty_prune(cx, rel->args[r])->kind == IR_TYPE_HOLE) return k;
  *open = true;
  return TY_SOLVED;
}

/* The call's attributes with out_dtype set to dt. */
static const IrOpAttrs *with_out_dtype(const TyRelation *rel, IrDType dt) {
  IrAttrValue v = *ir_attr_at(rel->attrs, IR_A_OUT_DTYPE);
  v.given = true, v.none = false, v.dtype = dt;
  return ir_attrs_set(rel->attrs, IR_A_OUT_DTYPE, v);
}

/* ---------------------------------------------------------------- quantize, dequantize, requantize */

/* qnn.quantize(data, output_scale, output_zero_point): float32 data; out_dtype (default int8). */
TyRelResult ty_rel_quantize(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *dim;
  int rs, rz;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(dtype_of(cx, rel, xt, "float32", "data", rel->args[0], message));
  REL_TRY(arg_rank(cx, rel, 1, &rs, message));
  REL_TRY(arg_rank(cx, rel, 2, &rz, message));
  REL_TRY(channel_axis(rel, IR_A_AXIS, xs, rs != 0 || rz != 0, &dim, message));
  REL_TRY(channel_arg(cx, rel, 1, F32, dim, "output_scale", message));
  REL_TRY(channel_arg(cx, rel, 2, I32, dim, "output_zero_point", message));
  IrDType od;
  REL_TRY(out_dtype_of(rel, IR_DTYPE(IR_DT_INT, 8), "int8 uint8 int16 uint16 int32", &od, message));
  return ty_rel_result(cx, rel, 3, ty_rel_tensor_type(xs, ir_type_dtype(od, (IrSpan){0})), message);
}

/* qnn.dequantize(data, input_scale, input_zero_point): out_dtype float32 (default) or float16. */
TyRelResult ty_rel_dequantize(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *dim;
  int rs, rz;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(dtype_of(cx, rel, xt, "int8 uint8 int16 uint16 int32", "data", rel->args[0], message));
  REL_TRY(arg_rank(cx, rel, 1, &rs, message));
  REL_TRY(arg_rank(cx, rel, 2, &rz, message));
  int s1 = one_value(cx, rel, 1), s2 = one_value(cx, rel, 2);
  if ((s1 < 0 && s2 != 0) || (s2 < 0 && s1 != 0)) return TY_NOT_YET; /* per tensor or per channel: not known yet */
  bool scalars = s1 > 0 && s2 > 0;
  REL_TRY(channel_axis(rel, IR_A_AXIS, xs, !scalars, &dim, message));
  if (scalars) dim = ty_rel_dim(1);
  REL_TRY(channel_arg(cx, rel, 1, F32, dim, "input_scale", message));
  REL_TRY(channel_arg(cx, rel, 2, I32, dim, "input_zero_point", message));
  IrDType od;
  REL_TRY(out_dtype_of(rel, F32, "float16 float32", &od, message));
  return ty_rel_result(cx, rel, 3, ty_rel_tensor_type(xs, ir_type_dtype(od, (IrSpan){0})), message);
}

static TyRelResult rounding_attrs(TyRelation *rel, const char **message) {
  const IrAttrValue *r = ty_rel_attr(rel, IR_A_ROUNDING), *c = ty_rel_attr(rel, IR_A_COMPUTE_DTYPE);
  if (r->given && !r->none && r->str && strcmp(r->str, "None") && strcmp(r->str, "UPWARD") && strcmp(r->str, "TONEAREST"))
    REL_FAIL("%s: rounding=\"%s\" is not one of \"UPWARD\", \"TONEAREST\" (or \"None\": UPWARD)", ty_rel_who(rel), r->str);
  if (c->given && !c->none && c->str && strcmp(c->str, "None") && strcmp(c->str, "int64") && strcmp(c->str, "float32") &&
      strcmp(c->str, "float64"))
    REL_FAIL("%s: compute_dtype=\"%s\" is not one of \"int64\", \"float32\", \"float64\" (or \"None\": int64)",
             ty_rel_who(rel), c->str);
  return TY_SOLVED;
}

/* qnn.requantize(data, input_scale, input_zero_point, output_scale, output_zero_point). */
TyRelResult ty_rel_requantize(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *dim;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(dtype_of(cx, rel, xt, "int8 uint8 int16 int32 int64", "data", rel->args[0], message));
  REL_TRY(rounding_attrs(rel, message));
  REL_TRY(channel_axis(rel, IR_A_AXIS, xs, true, &dim, message));
  REL_TRY(channel_arg(cx, rel, 1, F32, dim, "input_scale", message));
  REL_TRY(channel_arg(cx, rel, 2, I32, dim, "input_zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 3, F32, "output_scale", message));
  REL_TRY(scalar_arg(cx, rel, 4, I32, "output_zero_point", message));
  IrDType od;
  REL_TRY(out_dtype_of(rel, IR_DTYPE(IR_DT_INT, 8), "int8 uint8 int16 int32", &od, message));
  return ty_rel_result(cx, rel, 5, ty_rel_tensor_type(xs, ir_type_dtype(od, (IrSpan){0})), message);
}

/* ---------------------------------------------------------------- products */

/* The position of letter c in the layout attribute `id` (dflt when not given), or -1. */
static int layout_pos(const TyRelation *rel, IrAttrId id, const char *dflt, char c) {
  const IrAttrValue *a = ty_rel_attr(rel, id);
  const char *s = a->given && !a->none && a->str && *a->str ? a->str : dflt;
  const char *p = strchr(s, c);
  return p ? (int)(p - s) : -1;
}

/* qnn.conv2d(data, kernel, input_zero_point, kernel_zero_point, input_scale, kernel_scale). */
TyRelResult ty_rel_qnn_conv2d(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *ws, *wt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ws, &wt, message));
  REL_TRY(dtype_of(cx, rel, xt, "int8 uint8 int16", "data", rel->args[0], message));
  REL_TRY(dtype_of(cx, rel, wt, "int8 uint8 int16", "a kernel", rel->args[1], message));
  IrDType od;
  REL_TRY(out_dtype_of(rel, I32, "int16 int32 int64", &od, message));
  REL_TRY(scalar_arg(cx, rel, 2, I32, "input_zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 4, F32, "input_scale", message));
  /* Run the float relation first: it checks the layouts and the ranks. */
  bool open = false;
  REL_TRY(sub_relation_open(cx, rel, ty_rel_conv2d, 0, 1, 6, with_out_dtype(rel, od), &open, message));
  int o = layout_pos(rel, IR_A_KERNEL_LAYOUT, "OIHW", 'O'), in = layout_pos(rel, IR_A_KERNEL_LAYOUT, "OIHW", 'I');
  IrType *dim = ty_rel_dim_at(ws, o);
  int64_t groups = ir_attr_int(rel->attrs, IR_A_GROUPS, 1), c, wi, ch = 0;
  const IrAttrValue *chv = ty_rel_attr(rel, IR_A_CHANNELS);
  if (groups != 1 && chv->given && !chv->none) { /* TVM: channels, or I * O when channels is I and groups C */
    ch = chv->ints[0];
    int dc = layout_pos(rel, IR_A_DATA_LAYOUT, "NCHW", 'C');
    if (ty_rel_dim_const(cx, ty_rel_dim_at(xs, dc), &c) == TY_SOLVED && c == groups &&
        ty_rel_dim_const(cx, ty_rel_dim_at(ws, in), &wi) == TY_SOLVED && wi == ch)
      dim = ty_dim_mul(cx, ty_rel_dim_at(ws, in), ty_rel_dim_at(ws, o));
    else
      dim = ty_rel_dim(ch);
  }
  /* TVM leaves the kernel's zero point untyped; its lowering takes a scalar or one per output channel */
  REL_TRY(channel_arg(cx, rel, 3, I32, ty_rel_dim_at(ws, o), "kernel_zero_point", message));
  return ty_rel_open(channel_arg(cx, rel, 5, F32, dim, "kernel_scale", message), open);
}

/* qnn.dense(data, weight, input_zero_point, kernel_zero_point, input_scale, kernel_scale). */
TyRelResult ty_rel_qnn_dense(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *ws, *wt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ws, &wt, message));
  REL_TRY(dtype_of(cx, rel, xt, "int8 uint8 int16 uint16", "data", rel->args[0], message));
  REL_TRY(dtype_of(cx, rel, wt, "int8 uint8", "a weight", rel->args[1], message));
  IrDType od;
  REL_TRY(out_dtype_of(rel, I32, "int32 int64", &od, message));
  REL_TRY(scalar_arg(cx, rel, 2, I32, "input_zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 4, F32, "input_scale", message));
  REL_TRY(sub_relation(cx, rel, ty_rel_dense, 0, 1, 6, with_out_dtype(rel, od), message));
  const IrAttrValue *units = ty_rel_attr(rel, IR_A_UNITS);
  IrType *dim = units->given && !units->none ? ty_rel_dim(units->ints[0]) : ty_rel_dim_at(ws, 0);
  REL_TRY(channel_arg(cx, rel, 3, I32, ty_rel_dim_at(ws, 0), "kernel_zero_point", message));
  return channel_arg(cx, rel, 5, F32, dim, "kernel_scale", message);
}

/* qnn.batch_matmul(x, y, x_zero_point, y_zero_point, x_scale, y_scale): every parameter a scalar. */
TyRelResult ty_rel_qnn_batch_matmul(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *ys, *yt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ys, &yt, message));
  REL_TRY(dtype_of(cx, rel, xt, "int8 uint8", "x", rel->args[0], message));
  REL_TRY(dtype_of(cx, rel, yt, "int8 uint8", "y", rel->args[1], message));
  IrDType od;
  REL_TRY(out_dtype_of(rel, I32, "int32", &od, message));
  REL_TRY(scalar_arg(cx, rel, 2, I32, "x_zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 3, I32, "y_zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 4, F32, "x_scale", message));
  REL_TRY(scalar_arg(cx, rel, 5, F32, "y_scale", message));
  return sub_relation(cx, rel, ty_rel_batch_matmul, 0, 1, 6, with_out_dtype(rel, od), message);
}

/* ---------------------------------------------------------------- element-wise */

/* qnn.add, qnn.subtract, qnn.mul(lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point,
 * output_scale, output_zero_point): the parameters of each side per channel along lhs_axis /
 * rhs_axis (an axis of a tensor of rank 0 or 1 is 0). */
static TyRelResult side(TyCtx *cx, TyRelation *rel, int data, int scale, IrAttrId id, const char *sname,
                        const char *zname, const char **message) {
  IrType *s, *dim;
  int rs, rz;
  REL_TRY(ty_rel_tensor(cx, rel, data, &s, NULL, message));
  REL_TRY(arg_rank(cx, rel, scale, &rs, message));
  REL_TRY(arg_rank(cx, rel, scale + 1, &rz, message));
  int rank = s->u.shape.rank;
  int64_t a = ir_attr_int(rel->attrs, id, -1), axis = rank <= 1 ? 0 : a < 0 ? rank + a : a;
  if ((rs != 0 || rz != 0) && (axis < 0 || axis >= (rank > 0 ? rank : 1)))
    REL_FAIL("%s: %s=%lld is out of range for the %s argument of rank %d", ty_rel_who(rel), ir_attr_name(id),
             (long long)a, ir_ordinal(data), rank);
  dim = rank > 0 && axis >= 0 && axis < rank ? s->u.shape.dims[axis] : ty_rel_dim(1);
  REL_TRY(channel_arg(cx, rel, scale, F32, dim, sname, message));
  return channel_arg(cx, rel, scale + 1, I32, dim, zname, message);
}

TyRelResult ty_rel_qnn_broadcast(TyCtx *cx, TyRelation *rel, const char **message) {
  REL_TRY(side(cx, rel, 0, 2, IR_A_LHS_AXIS, "lhs_scale", "lhs_zero_point", message));
  REL_TRY(side(cx, rel, 1, 4, IR_A_RHS_AXIS, "rhs_scale", "rhs_zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 6, F32, "output_scale", message));
  REL_TRY(scalar_arg(cx, rel, 7, I32, "output_zero_point", message));
  return sub_relation(cx, rel, ty_rel_broadcast, 0, 1, 8, NULL, message);
}

/* qnn.sigmoid, qnn.tanh, ... (x, scale, zero_point, output_scale, output_zero_point): int8 or uint8. */
TyRelResult ty_rel_qnn_unary(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(dtype_of(cx, rel, xt, "int8 uint8", "data", rel->args[0], message));
  REL_TRY(scalar_arg(cx, rel, 1, F32, "scale", message));
  REL_TRY(scalar_arg(cx, rel, 2, I32, "zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 3, F32, "output_scale", message));
  REL_TRY(scalar_arg(cx, rel, 4, I32, "output_zero_point", message));
  return ty_rel_result(cx, rel, 5, rel->args[0], message);
}

/* qnn.avg_pool2d(data, input_scale, input_zero_point, output_scale, output_zero_point). */
TyRelResult ty_rel_qnn_avg_pool2d(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(dtype_of(cx, rel, xt, "int8 uint8", "data", rel->args[0], message));
  REL_TRY(scalar_arg(cx, rel, 1, F32, "input_scale", message));
  REL_TRY(scalar_arg(cx, rel, 2, I32, "input_zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 3, F32, "output_scale", message));
  REL_TRY(scalar_arg(cx, rel, 4, I32, "output_zero_point", message));
  return sub_relation(cx, rel, ty_rel_pool2d, 0, -1, 5, NULL, message);
}

/* ---------------------------------------------------------------- concatenate */

/* Argument i is a tuple of scalars of dtype dt (as many as the data's pieces). */
static TyRelResult scalar_tuple(TyCtx *cx, TyRelation *rel, int i, int n, IrDType dt, const char *what,
                                const char **message) {
  IrType *t = ty_prune(cx, rel->args[i]);
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  if (t->kind != IR_TYPE_TUPLE)
    REL_FAIL("%s takes a tuple of %s as its %s argument, but it is %s", ty_rel_who(rel), what, ir_ordinal(i),
             ty_rel_text(cx, t));
  if (t->u.tuple.n != n)
    REL_FAIL("%s: %d tensors but %d %s", ty_rel_who(rel), n, t->u.tuple.n, what);
  IrType *want = ty_rel_tensor_type(ty_rel_shape(0, NULL), ir_type_dtype(dt, (IrSpan){0}));
  for (int k = 0; k < n; k++)
    if (!ty_unify(cx, t->u.tuple.fields[k], want, NULL))
      REL_FAIL("%s: each of the %s must be %s, but one is %s", ty_rel_who(rel), what, ty_rel_text(cx, want),
               ty_rel_text(cx, t->u.tuple.fields[k]));
  return TY_SOLVED;
}

/* qnn.concatenate(data, input_scales, input_zero_points, output_scale, output_zero_point). */
TyRelResult ty_rel_qnn_concatenate(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *t = ty_prune(cx, rel->args[0]);
  if (t->kind == IR_TYPE_HOLE) return TY_NOT_YET;
  if (t->kind != IR_TYPE_TUPLE)
    REL_FAIL("%s takes a tuple of tensors as its first argument, but it is %s", ty_rel_who(rel), ty_rel_text(cx, t));
  int n = t->u.tuple.n;
  REL_TRY(scalar_tuple(cx, rel, 1, n, F32, "scales", message));
  REL_TRY(scalar_tuple(cx, rel, 2, n, I32, "zero points", message));
  REL_TRY(scalar_arg(cx, rel, 3, F32, "output_scale", message));
  REL_TRY(scalar_arg(cx, rel, 4, I32, "output_zero_point", message));
  return sub_relation(cx, rel, ty_rel_concatenate, 0, -1, 5, NULL, message);
}

/* ---------------------------------------------------------------- fixed-point multiplies */

/* fixed_point_multiply(x) (TVM's IdentityRel): int32 data, of the same type; multiplier and shift attributes. */
TyRelResult ty_rel_fixed_point_multiply(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(ty_rel_result(cx, rel, 1, rel->args[0], message));
  return dtype_of(cx, rel, xt, "int32", "data", rel->args[0], message);
}

/* fixed_point_multiply_per_axis(x, multipliers, left_shifts, right_shifts): int32 everywhere; the three
 * parameters have x's dimensions at `axes` (TVM indexes them so); the result is x's type. */
TyRelResult ty_rel_fixed_point_multiply_per_axis(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(ty_rel_result(cx, rel, 4, rel->args[0], message));
  const IrAttrValue *ax = ty_rel_attr(rel, IR_A_AXES);
  int r = xs->u.shape.rank, n = ax->given && !ax->none ? ax->n : 0;
  if (n < 1 || n > r) REL_FAIL("%s: axes has %d values for data of rank %d", ty_rel_who(rel), n, r);
  IrType **pd = IR_NEW_ARRAY(IrType *, n + 1);
  for (int i = 0; i < n; i++) {
    int a;
    REL_TRY(ty_rel_axis(rel, IR_A_AXES, ax->ints[i], r, 0, &a, message));
    pd[i] = ty_rel_dim_at(xs, a);
  }
  static const char *const names[3] = {"the multipliers", "the left shifts", "the right shifts"};
  IrType *want = ty_rel_tensor_type(ty_rel_shape(n, pd), ir_type_dtype(I32, (IrSpan){0}));
  for (int i = 1; i <= 3; i++)
    if (!ty_unify(cx, rel->args[i], want, NULL))
      REL_FAIL("%s: %s (the %s argument) must be %s (the data's axes %s), but they are %s", ty_rel_who(rel),
               names[i - 1], ir_ordinal(i), ty_rel_text(cx, want), ty_rel_shape_text(cx, ty_rel_shape(n, pd)),
               ty_rel_text(cx, rel->args[i]));
  return dtype_of(cx, rel, xt, "int32", "data", rel->args[0], message);
}

/* qnn.leaky_relu(x, scale, zero_point, output_scale, output_zero_point): as the quantized unary operators. */
TyRelResult ty_rel_qnn_leaky_relu(TyCtx *cx, TyRelation *rel, const char **message) {
  return ty_rel_qnn_unary(cx, rel, message);
}

/* qnn.softmax(x, scale, zero_point, output_scale, output_zero_point): int8 data (TVM's QnnSoftmaxRel), of its type;
 * axis within its rank. */
TyRelResult ty_rel_qnn_softmax(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  int a, r = xs->u.shape.rank;
  if (r == 0) REL_FAIL("%s takes data of rank 1 or more", ty_rel_who(rel));
  REL_TRY(ty_rel_axis(rel, IR_A_AXIS, ir_attr_int(rel->attrs, IR_A_AXIS, -1), r, 0, &a, message));
  REL_TRY(dtype_of(cx, rel, xt, "int8", "data", rel->args[0], message));
  REL_TRY(scalar_arg(cx, rel, 1, F32, "scale", message));
  REL_TRY(scalar_arg(cx, rel, 2, I32, "zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 3, F32, "output_scale", message));
  REL_TRY(scalar_arg(cx, rel, 4, I32, "output_zero_point", message));
  return ty_rel_result(cx, rel, 5, rel->args[0], message);
}

/* qnn.conv2d_transpose(data, kernel, input_zero_point, kernel_zero_point, input_scale, kernel_scale) (TVM's
 * QnnConv2DTransposeRel): data int8/uint8/int16/uint16, kernel int8/uint8, out_dtype int16/int32/int64 (int32 by
 * default); the shape is nn.conv2d_transpose's; the kernel's zero point a scalar or one per kernel axis 1 (its
 * legalization's bias_add), its scale one per O (I * O with groups). */
TyRelResult ty_rel_qnn_conv2d_transpose(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *ws, *wt;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &ws, &wt, message));
  REL_TRY(dtype_of(cx, rel, xt, "int8 uint8 int16 uint16", "data", rel->args[0], message));
  REL_TRY(dtype_of(cx, rel, wt, "int8 uint8", "a kernel", rel->args[1], message));
  IrDType od;
  REL_TRY(out_dtype_of(rel, I32, "int16 int32 int64", &od, message));
  REL_TRY(scalar_arg(cx, rel, 2, I32, "input_zero_point", message));
  REL_TRY(scalar_arg(cx, rel, 4, F32, "input_scale", message));
  bool open = false;
  REL_TRY(sub_relation_open(cx, rel, ty_rel_conv2d_transpose, 0, 1, 6, with_out_dtype(rel, od), &open, message));
  int o = layout_pos(rel, IR_A_KERNEL_LAYOUT, "IOHW", 'O'), in = layout_pos(rel, IR_A_KERNEL_LAYOUT, "IOHW", 'I');
  int64_t groups = ir_attr_int(rel->attrs, IR_A_GROUPS, 1);
  IrType *dim = groups == 1 ? ty_rel_dim_at(ws, o) : ty_dim_mul(cx, ty_rel_dim_at(ws, in), ty_rel_dim_at(ws, o));
  REL_TRY(channel_arg(cx, rel, 3, I32, ty_rel_dim_at(ws, 1), "kernel_zero_point", message));
  return ty_rel_open(channel_arg(cx, rel, 5, F32, dim, "kernel_scale", message), open);
}

/* qnn.simulated_quantize(data, out_dtype code, output_scale, output_zero_point) and
 * qnn.simulated_dequantize(data, in_dtype code, input_scale, input_zero_point) (TVM's
 * SimulatedQuantizeRel / SimulatedDequantizeRel): data and the code are tensors; the result has the
 * data's type (float: topi divides and rounds in it). */
TyRelResult ty_rel_simulated_quantize(TyCtx *cx, TyRelation *rel, const char **message) {
  IrType *xs, *xt, *cs;
  REL_TRY(ty_rel_tensor(cx, rel, 0, &xs, &xt, message));
  REL_TRY(ty_rel_tensor(cx, rel, 1, &cs, NULL, message));
  REL_TRY(ty_rel_result(cx, rel, 4, ty_rel_tensor_type(xs, xt), message));
  return ty_rel_float(cx, rel, xt, "its data", rel->args[0], message);
}
