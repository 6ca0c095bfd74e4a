/* Unit tests of ir/print.c: types as DESIGN §4 shows them, literals, and parenthesisation. */
#include <string.h>

#include "ir/ir.h"
#include "tests/unit/tap.h"

/* Parses `%x : TYPE` as a parameter annotation and prints the type back. */
static const char *type_of(const char *text) {
  const char *src = ir_printf("fn(%%x : %s) { %%x }", text);
  IrDiags d = {0};
  IrParseResult r = ir_parse_program(ir_source_new("t", src, strlen(src)), NULL, &d);
  if (!r.program) return d.first->message;
  return ir_type_str(r.program->items[0].expr->u.fn.params[0].ann);
}

static const char *printed(const char *text) {
  IrDiags d = {0};
  IrParseResult r = ir_parse_program(ir_source_new("t", text, strlen(text)), NULL, &d);
  if (!r.program) return d.first->message;
  IrBuf b;
  ir_buf_init(&b);
  ir_print_program(&b, r.program);
  if (b.len && b.data[b.len - 1] == '\n') b.data[--b.len] = '\0';
  return b.data;
}

static const char *dbl(double v) {
  IrBuf b;
  ir_buf_init(&b);
  ir_print_double(&b, v);
  return b.data;
}

int main(void) {
  GC_INIT();
  tap_is_str(type_of("Tensor[(), int32]"), "int32", "a scalar tensor prints as its dtype");
  tap_is_str(type_of("Tensor[(10, 10), float32]"), "Tensor[(10, 10), float32]", "a tensor type");
  tap_is_str(type_of("Tensor[(n, Any, ?), float32x4]"), "Tensor[(n, ?, ?), float32x4]", "Any prints as ?; lanes");
  tap_is_str(type_of("Tensor[(10i64, 1i64), float32]"), "Tensor[(10, 1), float32]",
             "TVM's int64 dimensions print without their suffix");
  tap_is_str(type_of("Tensor[(4), int8x4]"), "Tensor[(4), int8x4]", "vector lanes of an integer dtype");
  tap_is_str(type_of("float16x4"), "float16x4", "a scalar of vector lanes");
  tap_is_str(type_of("Tensor[(2), boolx4]"), "Tensor[(2), uint1x4]", "bool's lanes as TVM names them");
  tap_is_str(type_of("Tensor[((n + 1) * 2, n - (m - 1)), int8]"), "Tensor[((n + 1) * 2, n - (m - 1)), int8]",
             "dimension arithmetic keeps the parentheses it needs");
  tap_is_str(type_of("Tensor[(n * 2 + 1), bool]"), "Tensor[(n * 2 + 1), bool]", "and only those");
  tap_is_str(type_of("Tensor[s, bt]"), "Tensor[s, bt]", "shape and base-type variables");
  tap_is_str(type_of("(int32)"), "int32", "(T) is T");
  tap_is_str(type_of("(int32,)"), "(int32,)", "a 1-tuple keeps its comma");
  tap_is_str(type_of("()"), "()", "the empty tuple type");
  tap_is_str(type_of("fn<a, s : Shape>(a, Tensor[s, float32]) -> a"), "fn<a, s : Shape>(a, Tensor[s, float32]) -> a",
             "kinds other than Type are shown");
  tap_is_str(type_of("fn[A, B : Type](A) -> B"), "fn<A, B>(A) -> B", "TVM's [A] parameters; Type is not shown");
  tap_is_str(type_of("fn<t1, t2, t3>(t1, t2) -> t3 where Broadcast(t1, t2, t3)"),
             "fn<t1, t2, t3>(t1, t2) -> t3 where Broadcast(t1, t2, t3)", "a where clause");
  tap_is_str(type_of("fn(fn(a) -> b where R, c) -> d"), "fn((fn(a) -> b where R), c) -> d",
             "a nested function type with relations is parenthesised");
  tap_is_str(type_of("fn(a) -> (fn(b) -> c) where R"), "fn(a) -> (fn(b) -> c) where R",
             "so is a function result before an outer where");
  tap_is_str(type_of("List[Optional[int32]]"), "List[Optional[int32]]", "type calls");
  tap_is_str(type_of("Numbers[]"), "Numbers[]", "a type call without arguments");
  tap_is_str(type_of("ref((int32, bool))"), "ref((int32, bool))", "ref types");

  tap_is_str(dbl(0.1), "0.1", "shortest decimal that reads back");
  tap_is_str(dbl(1e20), "1e+20", "large values use an exponent");
  tap_is_str(dbl(2.5), "2.5", "2.5");
  tap_is_str(dbl(1.0 / 3.0), "0.3333333333333333", "all digits when needed");

  tap_is_str(printed("1.0"), "1.0", "an unsuffixed decimal stays decimal");
  tap_is_str(printed("1e3"), "1000.0", "1e3 prints as 1000.0");
  tap_is_str(printed("1f"), "1f", "a float suffix needs no point");
  tap_is_str(printed("-2.5f64"), "-2.5f64", "negative suffixed decimal");
  tap_is_str(printed("(%a + %b) * %c"), "(%a + %b) * %c", "parentheses where the tree needs them");
  tap_is_str(printed("%a - (%b - %c)"), "%a - (%b - %c)", "right operand of the same precedence");
  tap_is_str(printed("((%a * %b))"), "%a * %b", "and nowhere else");
  tap_is_str(printed("negative(2)"), "-(2)", "negating a literal is not a negative literal");
  tap_is_str(printed("- -2"), "-(-2)", "a negated negative literal");
  tap_is_str(printed("(2).0"), "(2).0", "projecting from a number keeps the parentheses");
  tap_is_str(printed("(let %x = 1; %x) + 1"), "(let %x = 1;\n %x) + 1", "a let inside an operand is parenthesised");
  tap_is_str(printed("add(%a, %b, axis=1)"), "add(%a, %b, axis=1)", "an operator with attributes stays a call");
  tap_is_str(printed("cast(%x, dtype=\"a\\\"b\\n\")"), "cast(%x, dtype=\"a\\\"b\\n\")", "strings are escaped");
  tap_is_str(printed("fn(%i) { %i * 2 }"), "fn(%i) { %i * 2 }", "a small body stays on one line");
  tap_is_str(printed("if (%c) { 1 } else if (%d) { 2 } else { 3 }"), "if (%c) { 1 } else if (%d) { 2 } else { 3 }",
             "else-if chains");
  tap_is_str(printed("type T[A] { Leaf, Node(A) }"), "data T<A> {\n  Leaf : () -> T\n  Node : (A) -> T\n}",
             "TVM ADTs print in the seed spelling");
  tap_is_str(printed("match? (%x) { _ => 1, }"), "match? (%x) {\n  case _ { 1 }\n}", "TVM clauses print as case");
  return tap_done();
}
