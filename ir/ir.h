/* What ir/ offers the rest of relay: the shared data of every phase. Symbols, sources, spans and
 * diagnostics; types; the AST; the operator registry; the parser and the REPL's line scanner, TVM's
 * metadata section, the printer and structural equality. typing/ and runtime/ include only this header from ir/. */
#ifndef IR_IR_H
#define IR_IR_H

#include "ir/ast.h"
#include "ir/diag.h"
#include "ir/equal.h"
#include "ir/json.h"
#include "ir/mem.h"
#include "ir/meta.h"
#include "ir/op.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/scan.h"
#include "ir/symbol.h"
#include "ir/symmap.h"
#include "ir/type.h"
#include "ir/typed.h"

#endif
