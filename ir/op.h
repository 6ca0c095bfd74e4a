/* The operator registry (ir/ops.def) as an enum and a table, and the infix sugar that stands for
 * some operators (`a + b` is `add(a, b)`). The parser and the printer share the sugar table, so
 * what one reads the other writes. */
#ifndef IR_OP_H
#define IR_OP_H

#include <stddef.h>

typedef enum {
#define IR_OP(id, name, min_args, max_args) IR_OP_##id,
#include "ir/ops.def"
#undef IR_OP
  IR_OP_COUNT
} IrOpId;

typedef struct IrOpInfo {
  const char *name;
  int min_args, max_args;
} IrOpInfo;

extern const IrOpInfo ir_ops[IR_OP_COUNT];

/* The operator with this Relay name, or -1. */
int ir_op_lookup(const char *name, size_t len);

/* Infix and prefix sugar. Precedence grows with binding strength, as in C. */
enum {
  IR_PREC_OR = 1, /* || */
  IR_PREC_AND,    /* && */
  IR_PREC_EQ,     /* == != */
  IR_PREC_CMP,    /* < <= > >= */
  IR_PREC_ADD,    /* + - */
  IR_PREC_MUL,    /* * / % */
  IR_PREC_UNARY,  /* - ! */
  IR_PREC_POSTFIX /* calls, projections, atoms */
};

typedef struct IrInfix {
  const char *text;
  IrOpId op;
  int prec;
} IrInfix;

/* The binary operator spelled text[0..len), or NULL. */
const IrInfix *ir_infix_binary(const char *text, size_t len);
/* The sugar for an operator, or NULL: binary for 2 arguments, prefix for 1. */
const IrInfix *ir_infix_of(IrOpId op, int nargs);

#endif
