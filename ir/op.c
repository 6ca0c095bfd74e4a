/* The operator table expanded from ir/ops.def, and the infix sugar table. */
#include "ir/op.h"

#include <string.h>


const IrOpInfo ir_ops[IR_OP_COUNT] = {
#define IR_OP(id, name, min_args, max_args, attrs, rel, kernel) {name, min_args, max_args, attrs},
#include "ir/ops.def"
#undef IR_OP
};

int ir_op_lookup(const char *name, size_t len) {
  /* Linear over ~80 names; the parser calls this once per identifier in call position. A Sym
   * index would be the next step if it ever shows in a profile. */
  for (int i = 0; i < IR_OP_COUNT; i++)
    if (strlen(ir_ops[i].name) == len && memcmp(ir_ops[i].name, name, len) == 0) return i;
  return -1;
}

static const IrInfix binary[] = {
    {"||", IR_OP_LOGICAL_OR, IR_PREC_OR},    {"&&", IR_OP_LOGICAL_AND, IR_PREC_AND},
    {"==", IR_OP_EQUAL, IR_PREC_EQ},         {"!=", IR_OP_NOT_EQUAL, IR_PREC_EQ},
    {"<", IR_OP_LESS, IR_PREC_CMP},          {"<=", IR_OP_LESS_EQUAL, IR_PREC_CMP},
    {">", IR_OP_GREATER, IR_PREC_CMP},       {">=", IR_OP_GREATER_EQUAL, IR_PREC_CMP},
    {"+", IR_OP_ADD, IR_PREC_ADD},           {"-", IR_OP_SUBTRACT, IR_PREC_ADD},
    {"*", IR_OP_MULTIPLY, IR_PREC_MUL},      {"/", IR_OP_DIVIDE, IR_PREC_MUL},
    {"%", IR_OP_MOD, IR_PREC_MUL},
};

static const IrInfix prefix[] = {
    {"-", IR_OP_NEGATIVE, IR_PREC_UNARY},
    {"!", IR_OP_LOGICAL_NOT, IR_PREC_UNARY},
};

const IrInfix *ir_infix_binary(const char *text, size_t len) {
  for (size_t i = 0; i < sizeof binary / sizeof binary[0]; i++)
    if (strlen(binary[i].text) == len && memcmp(binary[i].text, text, len) == 0) return &binary[i];
  return NULL;
}

const IrInfix *ir_infix_of(IrOpId op, int nargs) {
  const IrInfix *table = nargs == 2 ? binary : prefix;
  size_t n = nargs == 2 ? sizeof binary / sizeof binary[0] : sizeof prefix / sizeof prefix[0];
  if (nargs != 1 && nargs != 2) return NULL;
  for (size_t i = 0; i < n; i++)
    if (table[i].op == op) return &table[i];
  return NULL;
}
