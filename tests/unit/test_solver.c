/* Unit tests of typing/solver.c and typing/relation.c: relations run again exactly when a hole
 * they mention changes (counted), and Identity, Broadcast and BroadcastComp decide as numpy does. */
#include "tests/unit/tap.h"
#include "tests/unit/typing_support.h"

static TyRelResult never_decides(TyCtx *cx, TyRelation *rel, const char **message) {
  (void)cx, (void)rel, (void)message;
  return TY_NOT_YET;
}

static IrType **args3(TestTypes *tt, const char *a, const char *b, const char *c) {
  IrType **args = IR_NEW_ARRAY(IrType *, 3);
  args[0] = ty(tt, a);
  args[1] = ty(tt, b);
  args[2] = c ? ty(tt, c) : NULL;
  return args;
}

/* Runs relation `id` on the types; returns the error message, "" if it holds or waits. */
static const char *run(TestTypes *tt, TyRelId id, const char *a, const char *b, const char *c) {
  int n = ty_relation_arity(id);
  ty_relation_add(&tt->cx, ty_relation_fn(id), ty_relation_name(id), n, args3(tt, a, b, c), (IrSpan){0});
  if (ty_solve(&tt->cx)) return "";
  IrBuf buf;
  ir_buf_init(&buf);
  for (const IrDiag *d = tt->diags.first; d; d = d->next) {
    ir_buf_puts(&buf, d->message);
    for (int i = 0; i < d->notes.len; i++) ir_buf_printf(&buf, " | %s", d->notes.items[i]);
  }
  return buf.data;
}

int main(void) {
  GC_INIT();
  TestTypes tt;

  /* Re-queueing: a relation runs when added, then only when a hole it mentions changes. */
  tt_init(&tt);
  IrType **args = args3(&tt, "(_a, _b)", "_c", NULL);
  TyRelation *rel = ty_relation_add(&tt.cx, never_decides, "Test", 2, args, (IrSpan){0});
  ty_solve(&tt.cx);
  tap_is_int(rel->runs, 1, "a new relation runs once");
  IrType *z = ty(&tt, "_z");
  ty_unify(&tt.cx, z, ty(&tt, "int32"), NULL);
  ty_solve(&tt.cx);
  tap_is_int(rel->runs, 1, "a hole it does not mention changes: it does not run");
  ty_unify(&tt.cx, hole(&tt, "_a"), ty(&tt, "(_d, bool)"), NULL);
  ty_solve(&tt.cx);
  tap_is_int(rel->runs, 2, "a hole it mentions is bound: it runs again");
  ty_unify(&tt.cx, hole(&tt, "_d"), ty(&tt, "int8"), NULL);
  ty_solve(&tt.cx);
  tap_is_int(rel->runs, 3, "a hole nested in what a mentioned hole became: it runs again");
  ty_unify(&tt.cx, hole(&tt, "_b"), hole(&tt, "_c"), NULL);
  ty_solve(&tt.cx);
  tap_is_int(rel->runs, 4, "two mentioned holes merge: it runs once more");
  ty_unify(&tt.cx, hole(&tt, "_b"), ty(&tt, "_e"), NULL);
  ty_unify(&tt.cx, hole(&tt, "_e"), ty(&tt, "float32"), NULL);
  ty_solve(&tt.cx);
  tap_is_int(rel->runs, 5, "changes between two solver runs cost one run, not one each");
  ty_unify(&tt.cx, hole(&tt, "_c"), ty_fresh(&tt.cx, IR_KIND_TYPE, (IrSpan){0}), NULL);
  ty_solve(&tt.cx);
  tap_is_int(rel->runs, 5, "a hole it mentions merges with a hole it does not: nothing it sees changed, it does not run");

  /* Identity */
  tt_init(&tt);
  tap_is_str(run(&tt, TY_REL_IDENTITY, "_a", "List[int32]", NULL), "", "Identity unifies");
  tap_is_str(shown(&tt, hole(&tt, "_a")), "List[int32]", "its arguments");
  tt_init(&tt);
  tap_is_str(run(&tt, TY_REL_IDENTITY, "int32", "bool", NULL), "Identity needs equal types, but they are int32 and bool",
             "Identity fails on different types");

  /* Broadcast */
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "Tensor[(3, 1), float32]", "Tensor[(1, 4), float32]", "_o");
  tap_is_str(shown(&tt, hole(&tt, "_o")), "Tensor[(3, 4), float32]", "1 stretches on either side");
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "Tensor[(2, 3, 4), int32]", "Tensor[(4), int32]", "_o");
  tap_is_str(shown(&tt, hole(&tt, "_o")), "Tensor[(2, 3, 4), int32]", "shapes align from the right");
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "Tensor[(?, 3), float32]", "Tensor[(5, 1), float32]", "_o");
  tap_is_str(shown(&tt, hole(&tt, "_o")), "Tensor[(5, 3), float32]", "`?` against a constant other than 1 is that constant");
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "Tensor[(?, 1), float32]", "Tensor[(n, ?), float32]", "_o");
  tap_is_str(shown(&tt, hole(&tt, "_o")), "Tensor[(?, ?), float32]",
             "`?` against a shape variable (which may be 1) or against 1 is `?`");
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "Tensor[(?), float32]", "Tensor[(_h), float32]", "_o");
  tap_ok(!tt.cx.rels.items[0]->solved, "`?` against a hole waits for the hole");
  ty_unify(&tt.cx, hole(&tt, "_h"), ty(&tt, "Tensor[(6), float32]")->u.tensor.shape->u.shape.dims[0], NULL);
  ty_solve(&tt.cx);
  tap_ok(tt.cx.rels.items[0]->solved && !strcmp(shown(&tt, hole(&tt, "_o")), "Tensor[(6), float32]"),
         "and gives the constant the hole becomes");
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "Tensor[(n, 784), float32]", "Tensor[(1, 784), float32]", "_o");
  tap_is_str(shown(&tt, hole(&tt, "_o")), "Tensor[(n, 784), float32]", "named dimensions flow through");
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "Tensor[(), _lit]", "float32", "_o");
  tap_is_str(shown(&tt, hole(&tt, "_lit")), "float32", "element types flow between the arguments");
  tap_is_str(shown(&tt, hole(&tt, "_o")), "float32", "a scalar and a scalar make a scalar");
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "_a", "_b", "int32");
  tap_ok(!strcmp(shown(&tt, hole(&tt, "_a")), "int32") && !strcmp(shown(&tt, hole(&tt, "_b")), "int32"),
         "a scalar result makes both arguments scalars");
  tt_init(&tt);
  tap_is_str(run(&tt, TY_REL_BROADCAST, "_a", "_b", "_c"), "", "three unknown types: the relation waits");
  tap_ok(!tt.cx.rels.items[0]->solved && ty_prune(&tt.cx, hole(&tt, "_a"))->kind == IR_TYPE_HOLE,
         "without deciding anything");

  tt_init(&tt);
  const char *m = run(&tt, TY_REL_BROADCAST, "Tensor[(3, 4), float32]", "Tensor[(5, 4), float32]", "_o");
  tap_ok(strstr(m, "cannot broadcast the shapes (3, 4) and (5, 4)") && strstr(m, "dimension 0 of the first argument is 3, dimension 0 of the second is 5"),
         "3 against 5: both shapes, the dimension and both values");
  tap_diag("%s", m);
  tt_init(&tt);
  m = run(&tt, TY_REL_BROADCAST, "Tensor[(n), float32]", "Tensor[(m), float32]", "_o");
  tap_ok(strstr(m, "(they may differ)") != NULL, "two named dimensions may differ: an error that says so");
  tt_init(&tt);
  m = run(&tt, TY_REL_BROADCAST, "Tensor[(2), float32]", "Tensor[(2), int32]", "_o");
  tap_ok(strstr(m, "one element type, but they are float32 and int32") != NULL, "element types must agree");
  tt_init(&tt);
  m = run(&tt, TY_REL_BROADCAST, "(int32, int32)", "int32", "_o");
  tap_ok(strstr(m, "works on tensors, but its first argument is (int32, int32)") != NULL, "tuples do not broadcast");
  tt_init(&tt);
  m = run(&tt, TY_REL_BROADCAST, "Tensor[(2, 3), int32]", "int32", "Tensor[(3, 2), int32]");
  tap_ok(strstr(m, "does not give Tensor[(3, 2), int32]") != NULL, "a known result must match");

  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST_COMP, "Tensor[(2, 2), int32]", "int32", "_o");
  tap_is_str(shown(&tt, hole(&tt, "_o")), "Tensor[(2, 2), bool]", "BroadcastComp gives bool");

  /* Elementwise */
  tt_init(&tt);
  tap_is_str(run(&tt, TY_REL_ELEMENTWISE, "Tensor[(n, 2), int8]", "_r", NULL), "", "Elementwise on a tensor");
  tap_is_str(shown(&tt, hole(&tt, "_r")), "Tensor[(n, 2), int8]", "keeps its type");
  tt_init(&tt);
  tap_is_str(run(&tt, TY_REL_ELEMENTWISE, "(int32, int32)", "_r", NULL), "Elementwise works on tensors, but its argument is (int32, int32)",
             "Elementwise rejects a tuple");
  tt_init(&tt);
  run(&tt, TY_REL_ELEMENTWISE, "_a", "_r", NULL);
  tap_ok(!tt.cx.rels.items[0]->solved && ty_find(&tt.cx, hole(&tt, "_a")->u.hole.id) == ty_find(&tt.cx, hole(&tt, "_r")->u.hole.id),
         "an unknown argument: result and argument are one type, and it waits to see a tensor");
  ty_unify(&tt.cx, hole(&tt, "_a"), ty(&tt, "List[int32]"), NULL);
  tap_ok(!ty_solve(&tt.cx), "and fails when that turns out to be something else");

  /* TupleGetItem */
  tt_init(&tt);
  IrType **tg = args3(&tt, "_t", "Tensor[(1), int32]", "_f");
  tg[1] = ir_type_dim(1, (IrSpan){0});
  TyRelation *get = ty_relation_add(&tt.cx, ty_relation_fn(TY_REL_TUPLE_GET_ITEM), "TupleGetItem", 3, tg, (IrSpan){0});
  ty_solve(&tt.cx);
  tap_ok(!get->solved, "TupleGetItem waits for its tuple");
  ty_unify(&tt.cx, hole(&tt, "_t"), ty(&tt, "(bool, float16)"), NULL);
  ty_solve(&tt.cx);
  tap_ok(get->solved, "and decides when the tuple is known");
  tap_is_str(shown(&tt, hole(&tt, "_f")), "float16", "giving the field's type");
  tt_init(&tt);
  tg = args3(&tt, "(bool, bool)", "int32", "_f");
  tg[1] = ir_type_dim(2, (IrSpan){0});
  ty_relation_add(&tt.cx, ty_relation_fn(TY_REL_TUPLE_GET_ITEM), "TupleGetItem", 3, tg, (IrSpan){0});
  tap_ok(!ty_solve(&tt.cx) && strstr(tt.diags.first->message, "no field 2"), "a field beyond the tuple fails");

  /* A hole against a constant: the result is the constant either way, but the relation stays
   * until the hole is known to be 1 or that constant. */
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "Tensor[(_h, 3), float32]", "Tensor[(4, 3), float32]", "_o");
  tap_is_str(shown(&tt, hole(&tt, "_o")), "Tensor[(4, 3), float32]", "an unknown dimension against 4 gives 4");
  tap_ok(!tt.cx.rels.items[0]->solved, "and the relation stays, to check the unknown dimension");
  ty_unify(&tt.cx, hole(&tt, "_h"), ty(&tt, "Tensor[(5), float32]")->u.tensor.shape->u.shape.dims[0], NULL);
  tap_ok(!ty_solve(&tt.cx) && strstr(tt.diags.first->message, "cannot broadcast the shapes (5, 3) and (4, 3)"),
         "which fails when it becomes neither 1 nor 4");
  tt_init(&tt);
  run(&tt, TY_REL_BROADCAST, "Tensor[(_h), float32]", "Tensor[(_g), float32]", "_o");
  TyRelation *open = tt.cx.rels.items[0];
  uint32_t before = open->runs;
  tap_ok(!open->solved && ty_prune(&tt.cx, hole(&tt, "_o"))->kind == IR_TYPE_TENSOR,
         "two unknown dimensions: the result's rank is known, its dimension waits");
  ty_unify(&tt.cx, hole(&tt, "_h"), ty(&tt, "Tensor[(7), float32]")->u.tensor.shape->u.shape.dims[0], NULL);
  ty_solve(&tt.cx);
  tap_is_str(shown(&tt, hole(&tt, "_o")), "Tensor[(7), float32]", "and is decided when one of them is known");
  /* One run for _h, one more because that run bound its own result's dimension and stayed open
   * (the other must still turn out 1 or 7). */
  tap_ok(!open->solved && open->runs == before + 2, "after two more runs, still open");
  ty_unify(&tt.cx, hole(&tt, "_g"), ty(&tt, "Tensor[(1), float32]")->u.tensor.shape->u.shape.dims[0], NULL);
  ty_solve(&tt.cx);
  tap_ok(open->solved && open->runs == before + 3, "solved when the other is known, after one more run");
  return tap_done();
}
