/* Unit test of rt_value_check (runtime/print.c), the oracle of RELAY_CHECK_VALUES: a value against
 * a type. A well-typed program cannot make a value that does not have its type (that is what the
 * check looks for), so the values here come from one expression and the types from another, or
 * from a definition's signature (shape variables). */
#include <string.h>

#include "repl/session.h"
#include "tests/unit/tap.h"

static const char *chunk =
    "data Box<s : Shape> { Box(Tensor[s, float32]) }\n"
    "data Two<a> { Two(a, List[a]) }\n"
    "def @same(%x : Tensor[(n), float32], %y : Tensor[(n), float32]) -> (Tensor[(n), float32], Tensor[(n), float32]) "
    "{ (%x, %y) }\n"
    "def @mat(%x : Tensor[(n, m), float32]) -> Tensor[(n * 2, m), float32] { concatenate((%x, %x)) }\n";

static Session s;

static bool value_of(const char *text, RtValue *v, IrType **t) {
  IrTFn *e = NULL;
  IrType *ty = session_check_expression(&s, "<test>", text, &e);
  if (!ty || !session_eval(&s, e, v)) return false;
  if (t) *t = e->body->type;
  return true;
}

/* The value of `value` against the type of `typed` (or, with `result`, against the result type of
 * the global `typed`): fits or not, and the reason contains `why`. */
static void check(const char *value, const char *typed, bool result, bool fits, const char *why) {
  RtValue v, w;
  IrType *t = NULL;
  if (!value_of(value, &v, NULL) || (!result && !value_of(typed, &w, &t))) {
    tap_ok(false, "%s and %s evaluate", value, typed);
    return;
  }
  if (result) t = ty_global_type(s.module, ir_sym(typed))->u.func.ret;
  IrBuf b;
  ir_buf_init(&b);
  bool got = rt_value_check(v, t, &b);
  tap_ok(got == fits && (fits || strstr(b.data, why)), "%s %s %s%s%s", value, fits ? "has the type of" : "lacks the type of",
         typed, b.len ? ": " : "", b.data);
}

/* A dimension below 0 (`0 - 1`: a window's `n - 1` at n = 0) fits no value; `(0 - 1) + 1` is 0. */
static void below_zero(void) {
  IrSpan sp = {0};
  IrType *minus = ir_type_new(IR_TYPE_DIMOP, sp), *plus = ir_type_new(IR_TYPE_DIMOP, sp);
  minus->u.dimop.op = '-', minus->u.dimop.a = ir_type_dim(0, sp), minus->u.dimop.b = ir_type_dim(1, sp);
  plus->u.dimop.op = '+', plus->u.dimop.a = minus, plus->u.dimop.b = ir_type_dim(1, sp);
  IrType *f32 = ir_type_dtype(IR_DTYPE(IR_DT_FLOAT, 32), sp);
  RtValue v;
  bool ok = value_of("zeros(shape=[0])", &v, NULL);
  IrBuf b;
  ir_buf_init(&b);
  bool fits = rt_value_check(v, ir_type_tensor(ir_type_shape(1, &minus, sp), f32, sp), &b);
  tap_ok(ok && !fits && strstr(b.data, "where the type says (-1)"), "zeros(shape=[0]) lacks Tensor[(0 - 1), float32]: %s", b.data);
  ok = value_of("zeros(shape=[0])", &v, NULL);
  tap_ok(ok && rt_value_check(v, ir_type_tensor(ir_type_shape(1, &plus, sp), f32, sp), NULL),
         "zeros(shape=[0]) has Tensor[(0 - 1 + 1), float32]");
}

static void run(void *arg) {
  int *status = arg;
  session_init(&s);
  tap_ok(session_load_prelude(&s) && session_load_chunk(&s, "<test>", chunk, strlen(chunk), false, NULL), "the chunk loads");
  check("ones(shape=[2, 3])", "zeros(shape=[2, 3])", false, true, "");
  check("ones(shape=[2, 3])", "zeros(shape=[2, 4])", false, false, "a value of shape (2, 3) where the type says (2, 4)");
  check("ones(shape=[2, 3])", "zeros(shape=[6])", false, false, "a value of shape (2, 3) where the type says (6)");
  check("[1, 2]", "[1f, 2f]", false, false, "a value of dtype int32 where the type says float32");
  check("3", "3i64", false, false, "dtype int32");
  check("(1, [1f, 2f])", "(7, [3f, 4f])", false, true, "");
  check("(1, [1f, 2f])", "(7, [3f])", false, false, "field 1: a value of shape (2) where the type says (1)");
  check("(1, (2, 3))", "(1, (2, 3, 4))", false, false, "field 1: a tuple type of 3 fields");
  check("Cons([1f], Cons([2f], Nil))", "Cons([1f], Nil)", false, true, "");
  check("Cons([1f, 2f], Nil)", "Cons([1f], Nil)", false, false, "Cons's field 0: a value of shape (2)");
  check("Some(ref([1f, 2f]))", "Some(ref([1f]))", false, false, "Some's field 0, the reference's value: a value of shape (2)");
  check("Box([1f, 2f])", "Box([1f])", false, false, "Box's field 0: a value of shape (2) where the type says (1)");
  check("Two([1f, 2f], Cons([3f, 4f], Nil))", "Two([1f], Nil)", false, false, "Two's field 0");
  /* A shape variable stands for one size throughout the type. */
  check("([1f, 2f], [3f, 4f])", "same", true, true, "");
  check("([1f, 2f], [3f])", "same", true, false, "field 1: a value of shape (1) where the type says (2)");
  check("ones(shape=[4, 3])", "mat", true, true, "");
  check("ones(shape=[0, 3])", "mat", true, true, "");
  below_zero();
  check("Nil", "Cons(1, Nil)", false, true, "");
  check("fn (%x : int32) { %x }", "fn (%x : float32) { %x }", false, true, "");
  *status = tap_done();
}

int main(void) {
  rt_heap_init();
  int status = 1;
  return rt_stack_run(run, &status, RT_STACK_BYTES) ? status : 1;
}
