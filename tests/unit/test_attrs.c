/* Unit test of ir/attrs.c's compact attributes: a call keeps only the attributes written at it (a
 * bit per attribute and their values in order), read back through ir_attr_at, changed into a copy
 * by ir_attrs_set; decoding checks names and kinds against the operator's list and its required
 * ones (the parser refuses an attribute written twice). */
#include <string.h>

#include "ir/ir.h"
#include "tests/unit/tap.h"

/* The attributes of the call `text`, decoded against `op`'s list; NULL with *err on a refusal. */
static const IrOpAttrs *decode(const char *text, IrOpId op, const char **err) {
  IrDiags d = {0};
  IrParseResult r = ir_parse_expression(ir_source_new("<t>", text, strlen(text)), NULL, &d);
  if (!r.expr || r.expr->kind != IR_EXPR_CALL) {
    *err = "did not parse as a call";
    return NULL;
  }
  const IrOpAttrs *out;
  IrSpan where;
  *err = ir_attrs_decode(ir_ops[op].name, ir_ops[op].attrs, r.expr->u.call.nattrs, r.expr->u.call.attrs, &out, &where);
  return *err ? NULL : out;
}

int main(void) {
  GC_INIT();
  const char *err = NULL;
  const IrOpAttrs *a = decode("sum(%x, axis=[1, 2], keepdims=True)", IR_OP_SUM, &err);
  tap_ok(a && a->n == 2 && ir_attr_at(a, IR_A_AXIS)->n == 2 && ir_attr_at(a, IR_A_AXIS)->ints[1] == 2 &&
             ir_attr_at(a, IR_A_KEEPDIMS)->b && ir_attr_at(a, IR_A_EXCLUDE) == &ir_attr_absent,
         "two attributes written: two values kept, the others absent (%s)", err ? err : "decoded");
  tap_ok(sizeof(IrOpAttrs) + 2 * sizeof(IrAttrValue) < 200,
         "a call with two attributes keeps %zu bytes of them, not one value per attribute there is (%zu)",
         sizeof(IrOpAttrs) + 2 * sizeof(IrAttrValue), (size_t)IR_A_COUNT * sizeof(IrAttrValue));
  const IrOpAttrs *none = decode("sum(%x)", IR_OP_SUM, &err);
  tap_ok(none == &ir_op_attrs_none && ir_attr_at(none, IR_A_AXIS) == &ir_attr_absent,
         "a call without attributes shares ir_op_attrs_none");
  const IrOpAttrs *swapped = decode("sum(%x, keepdims=True, axis=[1, 2])", IR_OP_SUM, &err);
  tap_ok(swapped && swapped->n == 2 && ir_attr_at(swapped, IR_A_AXIS)->ints[1] == 2 && ir_attr_at(swapped, IR_A_KEEPDIMS)->b,
         "the order they are written in does not matter");

  if (a) {
    const IrOpAttrs *b = ir_attrs_set(a, IR_A_EXCLUDE, (IrAttrValue){.given = true, .b = true});
    const IrOpAttrs *c = ir_attrs_set(b, IR_A_KEEPDIMS, ir_attr_absent);
    const IrOpAttrs *e = ir_attrs_set(c, IR_A_AXIS, (IrAttrValue){.given = true, .n = 1, .ints = (int64_t[]){7}});
    tap_ok(b->n == 3 && ir_attr_at(b, IR_A_EXCLUDE)->b && ir_attr_at(b, IR_A_AXIS)->n == 2 && ir_attr_at(b, IR_A_KEEPDIMS)->b,
           "ir_attrs_set adds one, keeping the others");
    tap_ok(c->n == 2 && ir_attr_at(c, IR_A_KEEPDIMS) == &ir_attr_absent && ir_attr_at(c, IR_A_EXCLUDE)->b,
           "... removes one (given false)");
    tap_ok(e->n == 2 && ir_attr_at(e, IR_A_AXIS)->ints[0] == 7 && a->n == 2 && ir_attr_at(a, IR_A_AXIS)->n == 2,
           "... replaces one, in a copy: the original is unchanged");
  }
  /* attributes far apart in the enumeration (different words of the bit set) */
  const IrOpAttrs *hi = ir_attrs_set(&ir_op_attrs_none, (IrAttrId)(IR_A_COUNT - 1), (IrAttrValue){.given = true, .f = 2.5});
  hi = ir_attrs_set(hi, (IrAttrId)0, (IrAttrValue){.given = true, .f = 1.5});
  hi = ir_attrs_set(hi, (IrAttrId)64, (IrAttrValue){.given = true, .f = 0.5});
  tap_ok(hi->n == 3 && ir_attr_at(hi, (IrAttrId)0)->f == 1.5 && ir_attr_at(hi, (IrAttrId)64)->f == 0.5 &&
             ir_attr_at(hi, (IrAttrId)(IR_A_COUNT - 1))->f == 2.5 && ir_attr_at(hi, (IrAttrId)63) == &ir_attr_absent,
         "attributes in each word of the bit set are found at their rank");

  decode("sum(%x, axes=[1])", IR_OP_SUM, &err);
  tap_ok(err && strstr(err, "`sum` has no attribute `axes`; it takes"), "an unknown name is refused (%s)", err);
  decode("sum(%x, keepdims=1.5)", IR_OP_SUM, &err);
  tap_ok(err && strstr(err, "the attribute `keepdims` of `sum` is True or False, but 1.5 is given"),
         "a value of the wrong kind is refused (%s)", err);
  decode("reshape(%x)", IR_OP_RESHAPE, &err);
  tap_ok(err && strstr(err, "`reshape` needs the attribute `newshape`"), "a required one missing is refused (%s)", err);
  decode("add(%x, %y, axis=1)", IR_OP_ADD, &err);
  tap_ok(err && strstr(err, "`add` takes no attributes, but `axis` is given"), "an operator without attributes (%s)", err);
  return tap_done();
}
