/* The printer: writes the canonical text of any AST or type, in the seed documents' spelling
 * (`data`, `<a>`, `case P { e }`), with only the parentheses the grammar needs. Parsing what it
 * writes gives back the same AST (tests/unit/roundtrip checks this on every .rly file). */
#ifndef IR_PRINT_H
#define IR_PRINT_H

#include "ir/ast.h"
#include "ir/symmap.h"
#include "ir/typed.h"

void ir_print_program(IrBuf *b, const IrProgram *prog);
void ir_print_item(IrBuf *b, const IrItem *item);
/* A data declaration's head as written in the seed spelling, without its constructors:
 * `data List<a>`, `extern type Handle`. */
void ir_print_data_head(IrBuf *b, const IrData *d);
/* indent: the column that continuation lines of a multi-line expression start from. */
void ir_print_expr(IrBuf *b, const IrExpr *e, int indent);
void ir_print_pattern(IrBuf *b, const IrPattern *p);
/* A checked expression (its typed form, as the body of a function of no parameters) or definition
 * with the inferred type of every binding and call written after it as a comment `ty=T` (the
 * REPL's :annot). The text still parses to the same program. The expression's own type (`type`,
 * as shown for it) is written after it too. */
void ir_print_expr_typed(IrBuf *b, const IrTFn *fn, const IrType *type);
void ir_print_def_typed(IrBuf *b, const IrTDef *def);
/* An expression whose checking stopped at a type error (:annot): each node with the type found for
 * it before the error (`types`: AST node -> type, as messages show them), and `mark`, the node
 * (expression or pattern) the error is about, followed by the comment `<- type error here`. */
void ir_print_expr_partial(IrBuf *b, const IrExpr *e, const IrPtrMap *types, const void *mark);
/* The same for a definition (IR_ITEM_DEF) whose checking stopped at a type error. */
void ir_print_def_partial(IrBuf *b, const IrItem *def, const IrPtrMap *types, const void *mark);
/* A type as DESIGN §4 shows it: scalars as their dtype, fn<...>(...) -> ... where .... */
void ir_print_type(IrBuf *b, const IrType *t);
void ir_print_lit(IrBuf *b, const IrLit *lit);
void ir_print_attr_value(IrBuf *b, const IrAttrVal *v);
/* The shortest decimal text that reads back as exactly this double ("2.5", "1e+20", "3"). */
void ir_print_double(IrBuf *b, double v);

/* A convenience returning a GC-allocated string. */
char *ir_type_str(const IrType *t);

#endif
