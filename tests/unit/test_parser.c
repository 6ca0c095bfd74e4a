/* Unit tests of ir/parser.c: the shape of the trees it builds (precedence, desugaring, spans),
 * the top-level line-break rule, incomplete input, and the limits that keep it from crashing. */
#include <string.h>

#include "ir/ir.h"
#include "runtime/runtime.h"
#include "tests/unit/tap.h"

static IrDiags diags;

static IrParseResult parse(const char *text) {
  memset(&diags, 0, sizeof diags);
  return ir_parse_program(ir_source_new("t.rly", text, strlen(text)), NULL, &diags);
}

static IrExpr *expr(const char *text) {
  IrParseResult r = parse(text);
  return r.program && r.program->nitems == 1 && r.program->items[0].kind == IR_ITEM_EXPR ? r.program->items[0].expr
                                                                                           : NULL;
}

/* A fully parenthesised rendering of operator calls, to see the tree's shape. */
static void shape(IrBuf *b, const IrExpr *e) {
  if (e->kind == IR_EXPR_CALL && e->u.call.callee->kind == IR_EXPR_OP) {
    ir_buf_printf(b, "%s(", ir_ops[e->u.call.callee->u.op].name);
    for (int i = 0; i < e->u.call.nargs; i++) {
      if (i) ir_buf_puts(b, ", ");
      shape(b, e->u.call.args[i]);
    }
    ir_buf_putc(b, ')');
  } else {
    ir_print_expr(b, e, 0);
  }
}

static const char *tree(const char *text) {
  IrExpr *e = expr(text);
  if (!e) return diags.first ? diags.first->message : "(not one expression)";
  IrBuf b;
  ir_buf_init(&b);
  shape(&b, e);
  return b.data;
}

static const char *error(const char *text) {
  IrParseResult r = parse(text);
  if (r.program || !diags.first) return "(parsed)";
  const IrDiag *d = diags.first;
  return ir_printf("%u:%u %s%s%s", d->span.line, d->span.col, d->message, d->notes.len ? " | " : "",
                   d->notes.len ? d->notes.items[0] : "");
}

static char *repeat(const char *piece, int n) {
  size_t len = strlen(piece);
  char *s = ir_alloc_atomic(len * (size_t)n + 1);
  for (int i = 0; i < n; i++) memcpy(s + len * (size_t)i, piece, len);
  s[len * (size_t)n] = '\0';
  return s;
}

static void run(void *unused) {
  (void)unused;
  tap_is_str(tree("1 + 2 * 3"), "add(1, multiply(2, 3))", "* binds tighter than +");
  tap_is_str(tree("%a - %b - %c"), "subtract(subtract(%a, %b), %c)", "- is left-associative");
  tap_is_str(tree("%a < %b == %c <= %d"), "equal(less(%a, %b), less_equal(%c, %d))", "comparisons bind tighter than ==");
  tap_is_str(tree("%a || %b && !%c"), "logical_or(%a, logical_and(%b, logical_not(%c)))", "&& over ||, ! over &&");
  tap_is_str(tree("-%x * 2"), "multiply(negative(%x), 2)", "unary minus binds tighter than *");
  tap_is_str(tree("%x % 3 / 2"), "divide(mod(%x, 3), 2)", "%% is multiplicative and left-associative");
  tap_is_str(tree("%n-1"), "subtract(%n, 1)", "%%n-1 subtracts");
  tap_is_str(tree("-2 * 3"), "multiply(-2, 3)", "a minus before a number is part of the literal");
  tap_is_str(tree("%f(1).0.1"), "%f(1).0.1", "calls and projections chain");

  IrExpr *e = expr("%a; %b");
  tap_ok(e && e->kind == IR_EXPR_LET && e->u.let.var.name == ir_sym_seq() && e->u.let.body->kind == IR_EXPR_LOCAL,
         "a; b is let %%_ = a; b");
  e = expr("%0 = 1; %1 = %0; %1");
  tap_ok(e && e->kind == IR_EXPR_LET && e->u.let.how == IR_LET_GRAPH, "graph bindings");
  e = expr("Nil");
  tap_ok(e && e->kind == IR_EXPR_CTOR, "a bare constructor is a constructor reference");
  e = expr("Nil()");
  tap_ok(e && e->kind == IR_EXPR_CALL && e->u.call.nargs == 0, "Nil() is a call with no arguments");
  e = expr("@f<int32, bool>((1, True))");
  tap_ok(e && e->kind == IR_EXPR_CALL && e->u.call.ntargs == 2 && e->u.call.nargs == 1, "explicit type arguments");
  tap_is_str(tree("@f < 1"), "less(@f, 1)", "< after a global is a comparison when no type list follows");
  e = expr("sum(%x, axis=[1], keepdims=True)");
  tap_ok(e && e->u.call.nargs == 1 && e->u.call.nattrs == 2 && e->u.call.attrs[0].val.kind == IR_ATTR_LIST,
         "keyword attributes");
  e = expr("[[1, 2, 3], [4, 5, 6]]");
  tap_ok(e && e->kind == IR_EXPR_TENSOR && e->u.tensor.rank == 2 && e->u.tensor.shape[0] == 2 &&
             e->u.tensor.shape[1] == 3 && e->u.tensor.count == 6 && e->u.tensor.elems[5].mag == 6,
         "nested tensor literals are row-major with their shape");
  e = expr("Constant(1, (10, 10), float32)");
  tap_ok(e && e->kind == IR_EXPR_FILL && e->u.fill.rank == 2 && e->u.fill.dtype.bits == 32, "Constant(v, shape, dtype)");

  e = expr("\n  %x + %long_name");
  tap_ok(e && e->span.line == 2 && e->span.col == 3 && e->span.len == 15, "an operator call spans its operands");
  tap_ok(e && e->u.call.callee->span.col == 6, "the operator node points at the operator");

  IrParseResult r = parse("%t\n(1, 2, 3).2\n-1");
  tap_ok(r.program && r.program->nitems == 3, "at top level, a line starting with ( or - is a new item");
  r = parse("@f(1,\n 2)\n- 3");
  tap_ok(r.program && r.program->nitems == 2, "inside brackets line breaks do not matter");
  r = parse("let %x = 1;\n(%x, 2)");
  tap_ok(r.program && r.program->nitems == 1, "a let's body may start on the next line");
  r = parse("if (True) { 1 }\nelse { 2 }");
  tap_ok(r.program && r.program->nitems == 1, "else may start a line");

  tap_ok(parse("let %x = 1;").incomplete, "a let without its body is incomplete");
  tap_ok(parse("def @f(%x) {").incomplete, "an open brace is incomplete");
  tap_ok(!parse("let %x = ;").incomplete, "a real error is not incomplete");
  tap_ok(parse("/* open").incomplete, "an open comment is incomplete");
  tap_ok(parse("[1f,\n-").incomplete, "a tensor literal whose text ends at a minus sign is incomplete (`-2f]` may follow)");
  tap_ok(!parse("[1f, -]").incomplete, "  ... and one whose minus sign is followed by `]` is an error");

  /* Recovery (issue 31): after an error, parsing goes on at the next line that starts with
   * `def`, `type`, `data` or `extern` in column 1; the items that parsed are in r.partial, and
   * the ones that did not are named in partial->broken. */
  r = parse("def @a() { 1 + }\ndef @b() { 2 }\n  def @c() { 3 +\ndata D { X(\ntype T { Y }\n@b()\n(1,\n");
  tap_ok(!r.program && r.partial, "a program with parse errors: no program, its partial form");
  tap_ok(diags.errors == 4, "four parse errors: @a, @c (an item of its own, though indented), D, the last expression");
  tap_ok(r.partial && r.partial->nitems == 3 && r.partial->items[0].name == ir_sym("b") &&
             r.partial->items[1].name == ir_sym("T") && r.partial->items[2].kind == IR_ITEM_EXPR,
         "the items that parsed: @b, T and the expression @b()");
  tap_ok(r.partial && r.partial->nbroken == 4 && r.partial->broken[0].kind == IR_ITEM_DEF &&
             r.partial->broken[0].name == ir_sym("a") && r.partial->broken[1].name == ir_sym("c") &&
             r.partial->broken[2].kind == IR_ITEM_DATA && r.partial->broken[2].name == ir_sym("D") &&
             r.partial->broken[3].kind == IR_ITEM_EXPR,
         "the broken items, named: @a, @c, D, an expression");
  tap_ok(!r.incomplete, "an error before the end is not incomplete, though the last item ends too early");
  r = parse("def @a() { 1 }\ndef @b() {\n  2 +\n");
  tap_ok(r.incomplete && r.partial && r.partial->nitems == 1, "the first error at the end: incomplete, @a parsed");
  r = parse("def @a() {\n  1 +\ndef @b() { 2 }\n");
  tap_ok(!r.incomplete && r.partial && r.partial->nitems == 1 && r.partial->items[0].name == ir_sym("b"),
         "an unclosed definition ends at the next def in column 1");
  r = parse("def (%x) { 1 }\ndef f() { 1 }\ndef @g() { 2 }\n");
  tap_ok(r.partial && r.partial->nbroken == 2 && !r.partial->broken[0].name && r.partial->nitems == 1,
         "a definition broken before its name is broken without a name");
  tap_ok(r.partial && r.partial->broken[1].name == ir_sym("f"), "`def f` without its `@` names @f");
  r = parse(")\ndef @g() { 2 }\n");
  tap_ok(r.partial && r.partial->nitems == 1 && diags.errors == 1, "an item that fails on its first token is skipped");
  r = parse("def @a() { 1 }\n");
  tap_ok(r.program && !r.partial, "a program without errors has no partial form");

  tap_is_str(error("def @f(%x) : int32 { %x }"),
             "1:12 expected `->` before the result type, found `:` | hint: a result type is written `-> T`",
             "the seeds' `:` for a result type");
  tap_is_str(error("match (%n) { case Single(x) { x } }"),
             "1:26 `x` is not a constructor | hint: a pattern variable needs `%`: write `%x`", "a pattern variable without %%");
  tap_is_str(error("inc_scalar(%one)"),
             "1:1 unknown operator `inc_scalar` | hint: a global function is written `@inc_scalar`, a local variable `%inc_scalar`",
             "a global called without @");
  tap_is_str(error("if (%c) { 1 }"), "1:14 expected `else`, found end of input | hint: every `if` is an expression, so it needs an `else { ... }` branch",
             "if without else");
  tap_is_str(error("@f(1, 2"), "1:8 expected `)`, found end of input | hint: the `(` at line 1, column 3 is not closed",
             "an unclosed bracket names where it opened");
  tap_is_str(error("300u8"), "1:1 300 does not fit uint8 (0 to 255)", "a suffixed literal out of range");
  tap_is_str(error("-129i8"), "1:1 -129 does not fit int8 (-128 to 127)", "a negative literal out of range");
  tap_is_str(error("70000f16"), "1:1 70000 does not fit float16 (the largest is 65504)", "a float16 literal too large");
  tap_is_str(error("-65520f16"), "1:1 -65520 does not fit float16 (the largest is 65504)",
             "the first float16 that rounds to infinity");
  tap_is_str(error("65519.99f16"), "(parsed)", "one that rounds to 65504 is a float16");
  tap_is_str(error("1e39f"), "1:1 1e+39 does not fit float32 (the largest is 3.4028235e38)", "a float32 too large");
  tap_is_str(error("3.4028235e38f"), "(parsed)", "the largest float32 as relay prints it");
  tap_is_str(error("1e39f64"), "(parsed)", "a float64 holds it");
  tap_is_str(error("inff16"), "(parsed)", "infinity is no overflow");
  tap_is_str(error("fn(%x : Tensor[(2i64, 3i), float32]) { %x }"), "(parsed)", "dimensions as TVM prints them");
  tap_is_str(error("fn(%x : Tensor[(2i8), float32]) { %x }"),
             "1:17 a dimension is written without a suffix or with i64 (or i32, i16), as TVM prints one",
             "a suffix TVM does not write in a shape");
  tap_is_str(error("-128i8"), "(parsed)", "the smallest int8");
  tap_is_str(error("[[1, 2], [3]]"), "1:12 this row has 1 element but the first row at this depth has 2", "ragged tensor literal");
  tap_is_str(error("%a %2"), "1:4 expected an operator or `;` before `%2` | hint: for the remainder, put a space after `%`: `% 2`",
             "%%2 after an expression");
  tap_is_str(error("@f(axis=1, %x)"), "1:12 positional arguments come before keyword attributes", "positional after keyword");
  tap_is_str(error("fn<s : Size>(%x) { %x }"), "1:8 unknown kind `Size` | hint: the kinds are Type, BaseType, Shape and ShapeVar",
             "unknown kind");
  tap_is_str(error("data D { A : () -> E }"), "1:20 constructor `A` of `D` must build a `D`, not a `E`", "constructor result");

  /* Typed holes: `?` and `?name` where an expression goes; `?` stays a dimension in types. */
  IrExpr *h = expr("?");
  tap_ok(h && h->kind == IR_EXPR_HOLE && !h->u.name, "`?` is a hole");
  h = expr("?w1");
  tap_ok(h && h->kind == IR_EXPR_HOLE && h->u.name == ir_sym("w1") && h->span.len == 3, "`?w1` is a hole named w1");
  tap_is_str(tree("%x + ?b * ?"), "add(%x, multiply(?b, ?))", "holes are operands");
  h = expr("?f(1, ?)");
  tap_ok(h && h->kind == IR_EXPR_CALL && h->u.call.callee->kind == IR_EXPR_HOLE && h->u.call.args[1]->kind == IR_EXPR_HOLE,
         "a hole in function position is called");
  h = expr("?t.1");
  tap_ok(h && h->kind == IR_EXPR_PROJ && h->u.proj.tuple->kind == IR_EXPR_HOLE && h->u.proj.tuple->u.name == ir_sym("t"),
         "`?t.1` projects a hole named t");
  h = expr("let %x : Tensor[(?, 3), float32] = ?; match? (%x) { case %y { ? } }");
  tap_ok(h && h->kind == IR_EXPR_LET && h->u.let.var.ann->u.tensor.shape->u.shape.dims[0]->kind == IR_TYPE_ANY &&
             h->u.let.value->kind == IR_EXPR_HOLE && h->u.let.body->kind == IR_EXPR_MATCH && h->u.let.body->u.match.partial,
         "`?` in a shape is a dimension, `match?` still a partial match");
  tap_is_str(error("??"), "1:2 `??` is not a hole | hint: a hole is one `?`, or `?name`", "`??`");
  tap_is_str(error("?0"), "1:2 `0` cannot name a hole | hint: a hole's name starts with a letter or `_`, as in `?w1`",
             "`?0`");
  tap_is_str(error("?a.b"), "1:2 `a.b` cannot name a hole | hint: a hole's name is letters, digits and `_`, as in `?w1`",
             "a dotted hole name");
  tap_is_str(error("match (%x) { case ? { 1 } }"),
             "1:19 expected a pattern (a constructor, `%x`, `_` or a tuple), found `?` | hint: a hole `?` stands for an "
             "expression; in a pattern, `_` matches anything",
             "no holes in patterns");
  tap_is_str(error("let %x : ? = 1; %x"),
             "1:10 `?` stands for an unknown dimension, not a type | hint: for a type the checker finds, write `_` "
             "(or leave the annotation out)",
             "no holes in types");

  /* Deep nesting is an error, not a crash; long binding chains are fine. */
  const char *deep = ir_printf("%s1%s", repeat("(", 20000), repeat(")", 20000));
  tap_ok(strstr(error(deep), "nested too deeply") != NULL, "20000 nested parentheses: a clean error");
  const char *deep_call = ir_printf("%s1%s", repeat("@f(", 20000), repeat(")", 20000));
  tap_ok(strstr(error(deep_call), "nested too deeply") != NULL, "20000 nested calls: a clean error");
  const char *long_sum = ir_printf("1%s", repeat(" + 1", 20000));
  tap_ok(strstr(error(long_sum), "nested too deeply") != NULL, "a 20000-term sum: a clean error");
  const char *chain = ir_printf("def @f() {\n%s%%x\n}", repeat("let %x = 1;\n", 200000));
  r = parse(chain);
  tap_ok(r.program != NULL, "200000 let bindings parse");
  if (r.program) {
    IrBuf b;
    ir_buf_init(&b);
    ir_print_program(&b, r.program);
    IrDiags d2 = {0};
    IrParseResult r2 = ir_parse_program(ir_source_new("p", b.data, b.len), NULL, &d2);
    tap_ok(r2.program && ir_program_equal(r.program, r2.program, NULL), "and round-trip through the printer");
  }

  /* Ctrl-C while parsing: the flag set (as the SIGINT handler sets it) stops the parse at once with
   * an error, no later item is parsed or recovered, and the flag is taken. */
  ir_interrupted = 1;
  r = parse("def @a() { 1 }\ndef @b() {\n  let %x = 1;\n  %x\n}\ndef @c() { 2 }\n");
  tap_ok(!r.program && diags.errors == 1 && strstr(diags.first->message, "interrupted: parsing stopped here") &&
             !ir_interrupted && (!r.partial || r.partial->nitems == 0),
         "Ctrl-C while parsing: one \"interrupted\" error, nothing after it parsed, the flag taken (%s)",
         diags.first ? diags.first->message : "no error");

  /* Ctrl-C while the text is read into tokens (a text of many megabytes): polled every few
   * thousand tokens, it stops there with one error, and the flag is taken. */
  ir_interrupted = 1;
  r = parse(ir_printf("def @big() {\n%s0\n}\n", repeat("1 + ", 20000)));
  tap_ok(!r.program && diags.errors == 1 && strstr(diags.first->message, "interrupted: reading stopped here") &&
             !ir_interrupted,
         "Ctrl-C while reading a long text: one \"interrupted\" error, the flag taken (%s)",
         diags.first ? diags.first->message : "no error");

  IrDiags d = {0};
  IrParseResult one = ir_parse_expression(ir_source_new("<e>", "let %x = 2; %x * %x", 19), NULL, &d);
  tap_ok(one.expr && one.expr->kind == IR_EXPR_LET, "ir_parse_expression reads one expression with its lets");
  one = ir_parse_expression(ir_source_new("<e>", "1 2", 3), NULL, &d);
  tap_ok(!one.expr && strstr(d.first->message, "expected the end of the expression"), "and rejects trailing text");
}

int main(void) {
  rt_heap_init();
  if (!rt_stack_run(run, NULL, RT_STACK_BYTES)) return 1;
  return tap_done();
}
