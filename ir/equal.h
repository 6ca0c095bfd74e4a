/* Structural equality of ASTs and types, ignoring spans and inferred types: what "printing then
 * parsing gives the same AST" means. On a difference, `why` (if not NULL) says where. */
#ifndef IR_EQUAL_H
#define IR_EQUAL_H

#include "ir/ast.h"

bool ir_type_equal(const IrType *a, const IrType *b);
bool ir_expr_equal(const IrExpr *a, const IrExpr *b);
bool ir_program_equal(const IrProgram *a, const IrProgram *b, IrBuf *why);

#endif
