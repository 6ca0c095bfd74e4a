/* Unit tests of typing/unify.c and typing/dim.c: the union-find, structural unification, the
 * occurs check, kinds and literal classes, the dimension normal form and solving. */
#include "tests/unit/tap.h"
#include "tests/unit/typing_support.h"

static bool unify_text(TestTypes *tt, const char *a, const char *b) {
  return ty_unify(&tt->cx, ty(tt, a), ty(tt, b), NULL);
}

static const char *poly_text(TestTypes *tt, const char *dim) {
  TyPoly p;
  IrType *t = ty(tt, ir_printf("Tensor[(%s), float32]", dim))->u.tensor.shape->u.shape.dims[0];
  if (!ty_dim_normalize(&tt->cx, t, &p)) return "(no normal form)";
  IrBuf b;
  ir_buf_init(&b);
  ir_print_type(&b, ty_poly_to_dim(&tt->cx, &p));
  return b.data;
}

int main(void) {
  GC_INIT();
  TestTypes tt;

  /* union-find */
  tt_init(&tt);
  IrType *a = ty_fresh(&tt.cx, IR_KIND_TYPE, (IrSpan){0}), *b = ty_fresh(&tt.cx, IR_KIND_TYPE, (IrSpan){0});
  IrType *c = ty_fresh(&tt.cx, IR_KIND_TYPE, (IrSpan){0}), *d = ty_fresh(&tt.cx, IR_KIND_TYPE, (IrSpan){0});
  ty_unify(&tt.cx, a, b, NULL);
  ty_unify(&tt.cx, c, d, NULL);
  ty_unify(&tt.cx, b, d, NULL);
  tap_ok(ty_find(&tt.cx, 0) == ty_find(&tt.cx, 3) && ty_find(&tt.cx, 1) == ty_find(&tt.cx, 2), "unions are transitive");
  uint32_t root = ty_find(&tt.cx, 0);
  tap_ok(tt.cx.vars.items[root].rank == 2, "union by rank: two rank-1 trees make a rank-2 root");
  for (uint32_t i = 0; i < 4; i++) ty_find(&tt.cx, i);
  bool flat = true;
  for (uint32_t i = 0; i < 4; i++) flat &= tt.cx.vars.items[i].parent == root;
  tap_ok(flat, "path compression points every member at the root");
  ty_unify(&tt.cx, a, ty(&tt, "int32"), NULL);
  tap_is_str(shown(&tt, d), "int32", "resolving one member resolves them all");

  /* structure */
  tt_init(&tt);
  tap_ok(unify_text(&tt, "(_a, int32)", "(float32, _b)"), "tuples unify field by field");
  tap_is_str(shown(&tt, hole(&tt, "_a")), "float32", "and bind holes on either side");
  tap_is_str(shown(&tt, hole(&tt, "_b")), "int32", "on both sides");
  tap_ok(unify_text(&tt, "fn(_c) -> List[_c]", "fn(bool) -> List[_d]"), "function types and type calls");
  tap_is_str(shown(&tt, hole(&tt, "_d")), "bool", "information flows through both");
  tap_ok(!unify_text(&tt, "List[int32]", "Optional[int32]"), "ADTs are nominal");
  tap_ok(!unify_text(&tt, "(int32, int32)", "(int32, int32, int32)"), "tuple lengths must agree");
  tap_ok(unify_text(&tt, "ref(_r)", "ref(Tensor[(2), int8])"), "ref types");

  TyMismatch why = TY_MISMATCH_INIT;
  tt_init(&tt);
  tap_ok(!ty_unify(&tt.cx, ty(&tt, "Tensor[(3, 4), float32]"), ty(&tt, "Tensor[(3, 5), float32]"), &why),
         "different dimensions do not unify");
  tap_is_int(why.dim, 1, "the mismatch names the dimension");
  why = TY_MISMATCH_INIT;
  tap_ok(!ty_unify(&tt.cx, ty(&tt, "Tensor[(3, 4), float32]"), ty(&tt, "Tensor[(3, 4, 1), float32]"), &why) &&
             why.reason && strstr(why.reason, "ranks"),
         "different ranks are named as such");

  why = TY_MISMATCH_INIT;
  tap_ok(!ty_unify(&tt.cx, ty(&tt, "_x"), ty(&tt, "(_x, int32)"), &why) && why.reason && strstr(why.reason, "infinite"),
         "the occurs check rejects an infinite type");
  why = TY_MISMATCH_INIT;
  tap_ok(!ty_unify(&tt.cx, ty(&tt, "_y"), ty(&tt, "fn(List[_y]) -> int32"), &why), "also when the hole is deep inside");

  tt_init(&tt);
  IrType *bt = ty_fresh(&tt.cx, IR_KIND_BASETYPE, (IrSpan){0});
  tap_ok(!ty_unify(&tt.cx, bt, ty(&tt, "(int32, int32)"), NULL), "a base-type hole is no tuple");
  tap_ok(ty_unify(&tt.cx, bt, ir_type_dtype(IR_DTYPE(IR_DT_INT, 8), (IrSpan){0}), NULL), "but may be int8");

  /* literal classes */
  tt_init(&tt);
  IrType *i1 = ty_fresh_literal(&tt.cx, TY_LIT_INT, (IrSpan){0}), *f1 = ty_fresh_literal(&tt.cx, TY_LIT_FLOAT, (IrSpan){0});
  IrType *i2 = ty_fresh_literal(&tt.cx, TY_LIT_INT, (IrSpan){0}), *i3 = ty_fresh_literal(&tt.cx, TY_LIT_INT, (IrSpan){0});
  tap_ok(ty_unify(&tt.cx, i1, ir_type_dtype(IR_DTYPE(IR_DT_FLOAT, 32), (IrSpan){0}), NULL), "an integer literal may be float32");
  tap_ok(!ty_unify(&tt.cx, i2, ir_type_dtype(IR_DTYPE(IR_DT_BOOL, 1), (IrSpan){0}), NULL), "but not bool");
  tap_ok(!ty_unify(&tt.cx, f1, ir_type_dtype(IR_DTYPE(IR_DT_INT, 32), (IrSpan){0}), NULL), "a decimal literal is not int32");
  IrType *f2 = ty_fresh_literal(&tt.cx, TY_LIT_FLOAT, (IrSpan){0});
  ty_unify(&tt.cx, i3, f2, NULL);
  tap_ok(!ty_unify(&tt.cx, i3, ir_type_dtype(IR_DTYPE(IR_DT_INT, 64), (IrSpan){0}), NULL),
         "an integer literal joined with a decimal one is a decimal");

  /* dimensions */
  tt_init(&tt);
  tap_is_str(poly_text(&tt, "n * 2 + n"), "n * 3", "like terms are added");
  tap_is_str(poly_text(&tt, "(n + 1) * (n - 1)"), "n * n - 1", "products are expanded");
  tap_is_str(poly_text(&tt, "m + n + 2 - 2"), "m + n", "terms are sorted and zeros dropped");
  tap_is_str(poly_text(&tt, "n - n"), "0", "cancelling to zero");
  tap_is_str(poly_text(&tt, "? + 1"), "(no normal form)", "`?` has no normal form");
  tap_ok(unify_text(&tt, "Tensor[(n + m), int32]", "Tensor[(m + n), int32]"), "equal normal forms unify");
  tap_ok(!unify_text(&tt, "Tensor[(n), int32]", "Tensor[(m), int32]"), "different named dimensions do not");
  tap_ok(unify_text(&tt, "Tensor[(_k * 2), int32]", "Tensor[(10), int32]"), "k * 2 = 10 is solved");
  tap_is_str(shown(&tt, hole(&tt, "_k")), "5", "with k = 5");
  why = TY_MISMATCH_INIT;
  tap_ok(!ty_unify(&tt.cx, ty(&tt, "Tensor[(_j * 2), int32]"), ty(&tt, "Tensor[(11), int32]"), &why),
         "j * 2 = 11 has no whole-number solution");
  tap_ok(unify_text(&tt, "Tensor[(_p + 1), int32]", "Tensor[(n * 4 + 1), int32]"), "p + 1 = n * 4 + 1 is solved");
  tap_is_str(shown(&tt, hole(&tt, "_p")), "n * 4", "with p = n * 4");
  tap_ok(!unify_text(&tt, "Tensor[(_q), int32]", "Tensor[(_q + 1), int32]"), "q = q + 1 has no solution");
  tap_ok(unify_text(&tt, "Tensor[(?, 3), int32]", "Tensor[(7, ?), int32]"), "`?` is consistent with any dimension");

  /* an equation that must wait */
  tt_init(&tt);
  tap_ok(unify_text(&tt, "Tensor[(_a * _b), int32]", "Tensor[(6), int32]"), "a * b = 6 cannot be decided yet");
  tap_is_int(tt.cx.rels.len, 1, "and waits as a relation");
  ty_solve(&tt.cx);
  ty_unify(&tt.cx, hole(&tt, "_a"), ty(&tt, "Tensor[(2), int32]")->u.tensor.shape->u.shape.dims[0], NULL);
  tap_ok(ty_solve(&tt.cx), "knowing a = 2 wakes it");
  tap_is_str(shown(&tt, hole(&tt, "_b")), "3", "and solves b = 3");
  return tap_done();
}
