/* The driver: runs the pipeline (parse, check, compile, run) for each command-line mode. */
#include "repl/repl.h"
#include "repl/lsp.h"
#include "repl/serve.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "repl/session.h"
#include "runtime/runtime.h"

/* Loads every file in order; each sees what the files before it defined. -e, -t, --types and
 * --annot load definitions only: the files' top-level expressions do not run. Otherwise each file's
 * expressions run (printing their values) once the whole file has been checked; with -i, as :load
 * shows them (each definition's type, each value with its type). */
static int load_files(Session *s, const ReplOptions *opt, IrTProgram **progs) {
  bool definitions_only = opt->mode == REPL_MODE_EVAL || opt->mode == REPL_MODE_TYPE || opt->mode == REPL_MODE_TYPES;
  bool run = !definitions_only && opt->mode != REPL_MODE_ANNOT; /* --annot checks the expressions too */
  for (int i = 0; i < opt->nfiles; i++) {
    progs[i] = session_load_file(s, opt->files[i], definitions_only);
    if (!progs[i]) return 1;
    if (run && !session_run(s, progs[i], opt->interactive)) return 1;
  }
  return 0;
}

/* After the files: `@main()`, if defined without parameters, and its value. */
static int run_main(Session *s) {
  const IrTDef *main_def = ty_global_def(s->module, ir_sym("main"));
  if (!main_def || main_def->fn->nparams != 0) return 0;
  IrDiags diags = {0};
  RtValue v;
  bool ok = rt_call_global(s->program, main_def, &v, &diags);
  ir_diags_print(stderr, &diags);
  if (!ok) return 1;
  IrBuf b;
  ir_buf_init(&b);
  rt_print_value(&b, v);
  puts(b.data);
  return 0;
}

static int print_file(const ReplOptions *opt) {
  IrDiags diags = {0};
  IrSource *src = ir_source_read_file(opt->files[0]);
  if (!src) {
    fprintf(stderr, "relay: cannot read %s: %s\n", opt->files[0], session_read_error(errno));
    return 1;
  }
  IrParseResult r = ir_parse_program(src, NULL, &diags);
  ir_diags_print(stderr, &diags);
  if (!r.program) return 1;
  IrBuf b;
  ir_buf_init(&b);
  ir_print_program(&b, r.program);
  fputs(b.data, stdout);
  return 0;
}

/* `@name : type` for every definition of the file, in the order written. */
static int print_types(Session *s, const IrTProgram *prog) {
  for (int i = 0; i < prog->nitems; i++) {
    IrBuf b;
    ir_buf_init(&b);
    if (prog->items[i].def && session_describe(s, prog->items[i].src, NULL, &b)) puts(b.data);
  }
  return 0;
}

/* The file's definitions and top-level expressions with the type of every binding and call as a
 * comment (as TVM's astext writes its ty= comments), its data types as written. Nothing runs. */
static int print_annotated(const IrTProgram *prog) {
  for (int i = 0; i < prog->nitems; i++) {
    const IrTItem *it = &prog->items[i];
    IrBuf b;
    ir_buf_init(&b);
    if (it->def) ir_print_def_typed(&b, it->def);
    else if (it->src->kind == IR_ITEM_DATA) ir_print_item(&b, it->src);
    else ir_print_expr_typed(&b, it->expr, it->type);
    puts(b.data);
  }
  return 0;
}

int repl_main(const ReplOptions *opt) {
  Session s;
  session_init(&s);
  IrTProgram **progs = ir_alloc(sizeof(IrTProgram *) * (size_t)(opt->nfiles + 1));
  switch (opt->mode) {
  case REPL_MODE_HELP: fputs(repl_options_usage(), stdout); return 0;
  case REPL_MODE_VERSION: printf("relay %s\n", RELAY_VERSION); return 0;
  case REPL_MODE_PRINT: return print_file(opt);
  default: break; /* the modes below run programs: they start from the Prelude */
  }
  if (!opt->no_prelude && !session_load_prelude(&s)) return 1;
  switch (opt->mode) {
  case REPL_MODE_RUN:
    if (load_files(&s, opt, progs)) return 1;
    return run_main(&s);
  case REPL_MODE_TYPES:
    if (load_files(&s, opt, progs)) return 1;
    return print_types(&s, progs[0]);
  case REPL_MODE_ANNOT:
    if (load_files(&s, opt, progs)) return 1;
    return print_annotated(progs[0]);
  case REPL_MODE_TYPE: { /* as :t: with holes, the type, then the holes */
    if (load_files(&s, opt, progs)) return 1;
    IrDiags diags = {0};
    const IrExpr *e;
    TyExplored x;
    session_explore_expression(&s, "<command line>", opt->expr, &e, &x, &diags);
    if (x.fn) puts(ir_type_str(x.type));
    fflush(stdout);
    ir_diags_print(stderr, &diags);
    return x.fn ? 0 : 1;
  }
  case REPL_MODE_EVAL: {
    if (load_files(&s, opt, progs)) return 1;
    IrTFn *e = NULL;
    IrType *t = session_check_expression(&s, "<command line>", opt->expr, &e);
    if (!t) return 1;
    RtValue v;
    if (!session_eval(&s, e, &v)) return 1;
    IrBuf b;
    ir_buf_init(&b);
    rt_print_value(&b, v);
    puts(b.data);
    return 0;
  }
  case REPL_MODE_REPL:
    if (load_files(&s, opt, progs)) return 1;
    return session_interact(&s);
  case REPL_MODE_SERVE: return serve_main(&s, opt);
  case REPL_MODE_LSP: return lsp_main(&s, opt);
  default: break;
  }
  UNREACHABLE("a mode of no kind (help, version and print returned above)");
  return 2;
}
