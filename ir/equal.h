/* Structural equality of ASTs and types, ignoring spans and inferred types: what "printing then
 * parsing gives the same AST" means. On a difference, `why` (if not NULL) says where. */
#ifndef IR_EQUAL_H
#define IR_EQUAL_H

#include "ir/ast.h"

bool ir_type_equal(const IrType *a, const IrType *b);
/* Two relations of `where` clauses: the same name, arguments and written attributes. */
bool ir_rel_equal(const IrRel *a, const IrRel *b);
/* A hash of a type that equal types (ir_type_equal) share. */
uint64_t ir_type_hash(const IrType *t);
bool ir_expr_equal(const IrExpr *a, const IrExpr *b);
bool ir_program_equal(const IrProgram *a, const IrProgram *b, IrBuf *why);

#endif
