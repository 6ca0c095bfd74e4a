/* Unit tests of ty_check_program_all (typing/module.c), what an editor gets of a file with errors
 * (issue 31): every unit that checked with its types, the failed and skipped items marked, the
 * types found in a failed definition, the diagnostics in source order. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "runtime/runtime.h"
#include "tests/unit/tap.h"
#include "typing/typing.h"

static const char text[] = "def @ok(%x : int32) { %x * 2 }\n"                          /* 1 */
                           "def @bad(%a : int32) { let %b = %a + 1; %b + True }\n"    /* 2 */
                           "def @user() { @bad(1) }\n"                               /* 3 */
                           "def @broken() { 1 + }\n"                                 /* 4 */
                           "def @uses_broken() { @broken() }\n"                      /* 5 */
                           "data Box { Box(Tensr[(2), float32]) }\n"                 /* 6 */
                           "def @unbox(%b : Box) { 1 }\n"                            /* 7 */
                           "@ok(2)\n"                                                /* 8 */
                           "@bad(3)\n"                                               /* 9 */
                           "def @twice() { 1 }\n"                                    /* 10 */
                           "def @twice() { 2 }\n";                                   /* 11 */

/* The item of tp that defines `name` (a definition or data type), or the n-th expression (name NULL). */
static const IrTItem *item(const IrTProgram *tp, const char *name, int n) {
  for (int i = 0; i < tp->nitems; i++) {
    const IrItem *it = tp->items[i].src;
    if (name && it->kind != IR_ITEM_EXPR && !strcmp(it->name->name, name)) return &tp->items[i];
    if (!name && it->kind == IR_ITEM_EXPR && n-- == 0) return &tp->items[i];
  }
  return NULL;
}

static void run(void *unused) {
  (void)unused;
  IrDiags diags = {0};
  IrParseResult r = ir_parse_program(ir_source_new("t.rly", text, strlen(text)), NULL, &diags);
  tap_ok(!r.program && r.partial && r.partial->nbroken == 1, "the text parses with an error: its partial form");
  TyModule *m = ty_module_new();
  IrTProgram *tp = ty_check_program_all(m, r.partial, &diags);
  tap_ok(tp && tp->failed && tp->nitems == r.partial->nitems, "never NULL; failed, with an item per item parsed");

  const IrTItem *ok = item(tp, "ok", 0);
  tap_ok(ok && !ok->failed && ok->def && ok->def->fn && ok->def->scheme, "a definition that checked has its body and scheme");
  tap_is_str(ok && ok->def->scheme ? ir_type_str(ok->def->scheme) : "(none)", "fn(int32) -> int32", "its scheme");
  const IrTItem *bad = item(tp, "bad", 0);
  tap_ok(bad && bad->failed && !bad->skipped && !bad->def->fn && !bad->def->scheme,
         "a definition with an error: failed, no body, no scheme");
  const IrExpr *let = bad ? bad->src->fn->u.fn.body : NULL;
  const IrType *found = let && let->kind == IR_EXPR_LET ? ir_ptrmap_get(tp->partial, let->u.let.value) : NULL;
  tap_is_str(found ? ir_type_str(found) : "(none)", "int32", "the type found in it before its error (partial)");
  const IrTItem *user = item(tp, "user", 0), *uses_broken = item(tp, "uses_broken", 0), *unbox = item(tp, "unbox", 0);
  tap_ok(user && user->failed && user->skipped, "a user of the failed definition: skipped");
  tap_ok(uses_broken && uses_broken->failed && uses_broken->skipped, "a user of a definition that did not parse: skipped");
  const IrTItem *box = item(tp, "Box", 0);
  tap_ok(box && box->failed && !box->skipped && box->ctors && !box->ctors[0].scheme, "a failed data declaration");
  tap_ok(unbox && unbox->failed && unbox->skipped, "a user of the failed data type: skipped");
  const IrTItem *e0 = item(tp, NULL, 0), *e1 = item(tp, NULL, 1);
  tap_ok(e0 && !e0->failed && e0->expr && e0->type && !strcmp(ir_type_str(e0->type), "int32"),
         "an expression that checked, with its type");
  tap_ok(e1 && e1->failed && e1->skipped && !e1->expr && !e1->type, "an expression that uses the failed one: skipped");

  IrBuf lines;
  ir_buf_init(&lines);
  for (const IrDiag *d = diags.first; d; d = d->next) ir_buf_printf(&lines, "%u:%s ", d->span.line, ir_diag_kind_name(d->kind));
  tap_is_str(lines.data, "2:type error 4:parse error 6:type error 11:type error ", "every error, in source order");
  const IrTItem *first = NULL, *second = NULL;
  for (int i = 0; i < tp->nitems; i++)
    if (tp->items[i].src->kind == IR_ITEM_DEF && tp->items[i].src->name == ir_sym("twice"))
      *(first ? &second : &first) = &tp->items[i];
  tap_ok(first && second && !first->failed && first->def->scheme && second->failed && !second->skipped && !second->def,
         "a name defined twice: the first checks, the second fails (an error of its own, not skipped)");
  tap_ok(ty_global_def(m, ir_sym("ok")) == NULL, "nothing joined the module");

  IrDiags again = {0};
  tap_ok(ty_check_program(m, r.partial, &again) == NULL && again.errors == 3, "ty_check_program: NULL, the same errors");

  const char *good = "def @f(%x) { %x }\n@f(1)\n";
  IrDiags none = {0};
  IrParseResult g = ir_parse_program(ir_source_new("g.rly", good, strlen(good)), NULL, &none);
  tp = g.program ? ty_check_program_all(m, g.program, &none) : NULL;
  tap_ok(tp && !tp->failed && !tp->items[0].failed && !tp->items[1].failed && tp->partial && !none.first,
         "a program without errors: nothing failed");
}

/* The "did you mean" of each unknown name tries every name of the file (ir_sym_one_edit, linear in
 * the names' lengths, so that a file of thousands of errors stays fast): it agrees with the edit
 * distance on random names of a small alphabet (so that near ones are many), 0 to 6 letters. */
static void one_edit_agrees(void) {
  srand(31);
  bool agree = true;
  int near = 0;
  for (int k = 0; k < 200000 && agree; k++) {
    char a[8], b[8];
    int la = rand() % 7, lb = la + rand() % 3 - 1;
    if (lb < 0) lb = 0;
    for (int i = 0; i < la; i++) a[i] = "abc"[rand() % 3];
    a[la] = '\0';
    for (int i = 0; i < lb; i++) b[i] = i < la && rand() % 4 ? a[i] : "abc"[rand() % 3];
    b[lb] = '\0';
    bool want = ir_sym_distance(a, b) == 1;
    near += want;
    agree = ir_sym_one_edit(ir_sym(a), ir_sym(b)) == want;
    if (!agree) tap_diag("disagree: `%s` `%s`", a, b);
  }
  tap_ok(agree && near > 10000, "ir_sym_one_edit is ir_sym_distance == 1 (%d of the pairs one edit apart)", near);
}

int main(void) {
  rt_heap_init();
  if (!rt_stack_run(run, NULL, RT_STACK_BYTES)) return 1;
  one_edit_agrees();
  return tap_done();
}
