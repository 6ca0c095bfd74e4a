/* The session: parsing, checking and compiling chunks against the module, transactionally, and
 * running what they hold. */
#include "repl/session.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prelude/prelude.h"

void session_init(Session *s) {
  memset(s, 0, sizeof *s);
  s->module = ty_module_new();
  s->program = rt_program_new();
  s->parse.ctor_arity = ty_ctor_arity;
  s->parse.ctx = s->module;
  const char *check = getenv("RELAY_CHECK_VALUES");
  s->check_values = check && *check && strcmp(check, "0") != 0;
}

void session_report(Session *s, const IrDiags *ds) {
  if (!s->sink) ir_diags_print(stderr, ds);
  else if (ds->first) s->sink->diags(s->sink, ds);
}

/* Out of memory in a phase: the trap landed, so what the phase built is unreachable. */
static void report_out_of_memory(const IrTrap *trap, const char *name, const char *doing, const char *so) {
  GC_gcollect(); /* what the failed work held, before printing needs memory */
  fprintf(stderr, "%s: error: out of memory while %s (a request for %zu bytes); %s\n", name, doing, trap->bytes, so);
}

/* A chunk's definitions of traced names are traced too (:trace follows a name that is redefined). */
static void trace_redefinitions(Session *s, const IrTProgram *tp) {
  int n = s->traced.len;
  for (int i = 0; i < tp->nitems; i++) {
    const IrTDef *def = tp->items[i].def;
    for (int j = 0; def && !def->value && j < n; j++) /* a session binding (`let %x = e`) is no global */
      if (s->traced.items[j]->name == def->name) {
        rt_trace(s->program, def, stdout);
        IR_VEC_PUSH(s->traced, def);
        break;
      }
  }
}

/* The definition of prog that the first type error in diags is in, kept for :graph. */
static void note_failed_def(Session *s, const IrProgram *prog, const IrDiags *diags) {
  const IrDiag *d = diags->first;
  while (d && d->kind != IR_DIAG_TYPE) d = d->next;
  for (int i = 0; d && prog && i < prog->nitems; i++) {
    const IrItem *it = &prog->items[i];
    IrSpan a = it->span, b = d->span;
    if (it->kind == IR_ITEM_DEF && a.src == b.src && b.off >= a.off && b.off + b.len <= a.off + a.len) {
      s->failed_def.prog = prog;
      s->failed_def.def = it;
      s->failed_def.span = b;
      s->failed_def.message = d->message;
      return;
    }
  }
}

/* ---------------------------------------------------------------- what a chunk replaces */

/* DESIGN §3: a definition that a later one of its name replaces stays only as long as code checked
 * against it does. The session's tables must not keep it: what a chunk's names replaced is
 * forgotten once the chunk has joined. Every step allocates nothing. */
typedef struct Replaced {
  const IrTDef **defs;   /* the module's definitions of the chunk's `def` names */
  const IrTCtor **ctors; /* its constructors of the chunk's constructor names */
  const IrItem **items;  /* the session's items of the chunk's names */
  int ndefs, nctors, nitems;
} Replaced;

static bool is_traced(const Session *s, const IrTDef *def) {
  for (int i = 0; i < s->traced.len; i++)
    if (s->traced.items[i] == def) return true;
  return false;
}

/* Whether a name still reaches an item: the newest of its name, or (a data type) the declaration
 * of a constructor that is the newest of its name. */
static bool item_named(const Session *s, const IrItem *it) {
  if (ir_symmap_get(it->kind == IR_ITEM_DEF ? &s->defs : &s->datas, it->name) == it) return true;
  for (int k = 0; it->kind == IR_ITEM_DATA && k < it->data.nctors; k++)
    if (ir_symmap_get(&s->ctors, it->data.ctors[k].name) == it) return true;
  return false;
}

static void forget_replaced(Session *s, const Replaced *r) {
  for (int i = 0; i < r->ndefs; i++) /* a traced one stays in the table until :untrace finds it there */
    if (!is_traced(s, r->defs[i])) rt_forget(s->program, r->defs[i]);
  for (int i = 0; i < r->nctors; i++) rt_forget_ctor(s->program, r->ctors[i]);
  for (int i = 0; i < r->nitems; i++) {
    if (item_named(s, r->items[i])) continue;
    int kept = 0;
    for (int j = 0; j < s->items.len; j++)
      if (s->items.items[j] != r->items[i]) s->items.items[kept++] = s->items.items[j];
    s->items.len = kept;
  }
}

/* Keeps the newest type error of ds for :explain. */
static void keep_type_error(Session *s, const IrDiags *ds) {
  for (const IrDiag *d = ds->first; d; d = d->next)
    if (d->kind == IR_DIAG_TYPE) s->last_type_error = d;
}

/* Parses, checks and compiles a chunk, then adds it to the module and the session's tables: all
 * of it or, on any error (out of memory included), nothing. */
static IrTProgram *load_source(Session *s, const IrSource *src, bool quiet_if_incomplete, bool *incomplete,
                               bool definitions_only) {
  IrDiags diags = {0};
  if (incomplete) *incomplete = false;
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    session_report(s, &diags);
    report_out_of_memory(&trap, src->name, "loading it", "nothing was changed");
    return NULL;
  }
  IrParseResult r = ir_parse_program(src, &s->parse, &diags);
  if (incomplete) *incomplete = r.incomplete;
  /* A pasted dump: its `#[metadata]` section follows the program, after a blank line; two blank
   * lines end the wait (and the references are then an error). */
  size_t n = src->len;
  if (quiet_if_incomplete && r.awaits_meta && !(n >= 3 && !strcmp(src->text + n - 3, "\n\n\n"))) {
    if (incomplete) *incomplete = true;
    ir_trap_pop(&trap);
    return NULL;
  }
  IrTProgram *tp = !r.program           ? NULL
                   : definitions_only ? ty_check_definitions(s->module, r.program, &diags)
                                      : ty_check_program(s->module, r.program, &diags);
  bool ok = tp != NULL;
  if (ok || !(quiet_if_incomplete && r.incomplete)) {
    session_report(s, &diags);
    keep_type_error(s, &diags);
    if (!ok) note_failed_def(s, r.program, &diags);
  }
  diags = (IrDiags){0}; /* printed */
  if (!ok) {
    ir_trap_pop(&trap);
    return NULL;
  }
  rt_compile_program(s->program, tp);
  size_t nnew = 0;
  for (int i = 0; i < r.program->nitems; i++) {
    const IrItem *it = &r.program->items[i];
    if (it->kind == IR_ITEM_DEF || it->kind == IR_ITEM_DATA) nnew += 1 + (it->kind == IR_ITEM_DATA ? (size_t)it->data.nctors : 0);
  }
  ir_symmap_reserve(&s->defs, nnew); /* room, so that what follows cannot fail halfway */
  ir_symmap_reserve(&s->datas, nnew);
  ir_symmap_reserve(&s->ctors, nnew);
  IR_VEC_RESERVE(s->items, (int)nnew);
  Replaced old = {IR_NEW_ARRAY(const IrTDef *, nnew + 1), IR_NEW_ARRAY(const IrTCtor *, nnew + 1),
                  IR_NEW_ARRAY(const IrItem *, nnew + 1), 0, 0, 0};
  for (int i = 0; i < r.program->nitems; i++) {
    const IrItem *it = &r.program->items[i];
    const IrTDef *def = it->kind == IR_ITEM_DEF ? ty_global_def(s->module, it->name) : NULL;
    if (def) old.defs[old.ndefs++] = def;
    for (int k = 0; it->kind == IR_ITEM_DATA && k < it->data.nctors; k++) {
      const IrTCtor *ctor = ty_module_ctor(s->module, it->data.ctors[k].name);
      if (ctor) old.ctors[old.nctors++] = ctor;
    }
  }
  ty_commit(s->module, tp);
  ir_trap_pop(&trap); /* nothing below allocates */
  for (int i = 0; i < r.program->nitems; i++) {
    const IrItem *it = &r.program->items[i];
    if (it->kind != IR_ITEM_DEF && it->kind != IR_ITEM_DATA) continue;
    IR_VEC_PUSH(s->items, it);
    IrSymMap *names = it->kind == IR_ITEM_DEF ? &s->defs : &s->datas;
    const IrItem *was = ir_symmap_get(names, it->name);
    if (was) old.items[old.nitems++] = was;
    ir_symmap_put(names, it->name, (void *)it);
    for (int k = 0; it->kind == IR_ITEM_DATA && k < it->data.nctors; k++) {
      if ((was = ir_symmap_get(&s->ctors, it->data.ctors[k].name))) old.items[old.nitems++] = was;
      ir_symmap_put(&s->ctors, it->data.ctors[k].name, (void *)it);
    }
  }
  forget_replaced(s, &old);
  for (int i = 0; s->failed_def.def && i < tp->nitems; i++) /* the failed definition is replaced */
    if (tp->items[i].def && !tp->items[i].def->value && tp->items[i].def->name == s->failed_def.def->name)
      s->failed_def.def = NULL;
  trace_redefinitions(s, tp); /* out of memory here lands in the REPL's trap, the chunk loaded */
  return tp;
}

bool session_load_prelude(Session *s) {
  IrSource *src = ir_source_new(RELAY_PRELUDE_NAME, relay_prelude_text, relay_prelude_length);
  s->prelude = load_source(s, src, false, NULL, false);
  return s->prelude != NULL;
}

const char *session_read_error(int err) {
  return err == EFBIG ? "it is larger than 1 GiB, the most relay reads" : strerror(err);
}

IrTProgram *session_load_file(Session *s, const char *path, bool definitions_only) {
  if (s->sandbox) { /* the commands refuse first (commands.c); this is the last line of defence */
    fprintf(stderr, "relay: %s was not read: the session is sandboxed (relay --serve --sandbox)\n", path);
    return NULL;
  }
  IrSource *src = ir_source_read_file(path);
  if (!src) {
    fprintf(stderr, "relay: cannot read %s: %s\n", path, session_read_error(errno));
    return NULL;
  }
  return load_source(s, src, false, NULL, definitions_only);
}

IrTProgram *session_load_chunk(Session *s, const char *name, const char *text, size_t len, bool quiet_if_incomplete,
                               bool *incomplete) {
  IrSource *src = ir_source_new(name, text, len);
  src->input = s->input;
  s->parse.session_lets = true; /* a REPL input may bind `let %x = e` for the ones after it */
  IrTProgram *p = load_source(s, src, quiet_if_incomplete, incomplete, false);
  s->parse.session_lets = false;
  return p;
}

IrType *session_check_expression(Session *s, const char *name, const char *text, IrTFn **expr) {
  IrDiags diags = {0};
  if (expr) *expr = NULL;
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    session_report(s, &diags);
    report_out_of_memory(&trap, name, "checking it", "nothing was changed");
    return NULL;
  }
  IrSource *src = ir_source_new(name, text, strlen(text));
  src->input = s->input;
  IrParseResult r = ir_parse_expression(src, &s->parse, &diags);
  IrType *t = NULL;
  IrTFn *fn = r.expr ? ty_check_expression(s->module, r.expr, &t, &diags) : NULL;
  ir_trap_pop(&trap);
  session_report(s, &diags);
  keep_type_error(s, &diags);
  if (expr) *expr = fn;
  return fn ? t : NULL;
}

bool session_explore_expression(Session *s, const char *name, const char *text, const IrExpr **expr, TyExplored *out,
                                IrDiags *diags) {
  *expr = NULL;
  *out = (TyExplored){0};
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    session_report(s, diags);
    *diags = (IrDiags){0};
    report_out_of_memory(&trap, name, "checking it", "nothing was changed");
    return false;
  }
  IrSource *src = ir_source_new(name, text, strlen(text));
  src->input = s->input;
  IrParseResult r = ir_parse_expression(src, &s->parse, diags);
  if (r.expr) ty_explore_expression(s->module, r.expr, out, diags);
  ir_trap_pop(&trap);
  keep_type_error(s, diags); /* for :explain, as the other checks keep theirs */
  *expr = r.expr;
  return r.expr != NULL;
}

bool session_describe(const Session *s, const IrItem *item, const IrType *type, IrBuf *out) {
  if (item->kind == IR_ITEM_DATA) { /* the constructors with their types, a line each */
    const IrData *d = &item->data;
    if (d->external) ir_print_item(out, item);
    for (int i = 0; i < d->nctors; i++) {
      if (i) ir_buf_putc(out, '\n');
      ir_buf_printf(out, "%s : ", d->ctors[i].name->name);
      ir_print_type(out, ty_ctor_scheme(s->module, &d->ctors[i]));
    }
    if (!d->external && d->nctors == 0) ir_buf_printf(out, "data %s (no constructors)", d->name->name);
  } else if (item->kind == IR_ITEM_DEF) {
    ir_buf_printf(out, "@%s : ", item->name->name);
    ir_print_type(out, ty_global_type(s->module, item->name));
  } else if (item->kind == IR_ITEM_EXPR) {
    ir_buf_puts(out, "- : ");
    ir_print_type(out, type);
  } else if (item->kind == IR_ITEM_LET) {
    ir_buf_printf(out, "%%%s : ", item->name->name);
    ir_print_type(out, type);
  } else {
    UNREACHABLE("an item of no kind");
    return false;
  }
  return true;
}

/* ---------------------------------------------------------------- running */

/* The one SIGINT handler. Not SA_RESTART: a read the REPL is waiting in ends at once. */
static void on_interrupt(int sig) {
  (void)sig;
  rt_interrupt();
}

void session_catch_interrupts(struct sigaction *old) {
  struct sigaction sa = {0};
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, old);
}

bool session_eval(Session *s, const IrTFn *e, RtValue *out) {
  struct sigaction old;
  session_catch_interrupts(&old);
  IrDiags diags = {.input = s->input}; /* an error in an earlier input's definition names that input */
  bool ok = rt_eval(s->program, e, out, &diags);
  sigaction(SIGINT, &old, NULL);
  IrBuf why;
  if (ok && s->check_values && e->body && (ir_buf_init(&why), !rt_value_check(*out, e->body->type, &why))) {
    ir_diag_add(&diags, IR_DIAG_RUNTIME, e->src->span,
                "internal error: the value does not have its type %s: %s (a bug in relay: the checker gave it a "
                "type its value does not keep; RELAY_CHECK_VALUES)",
                ir_type_str(e->body->type), why.data);
    ok = false;
  }
  fflush(stdout);
  if (!ok && s->repl && rt_was_interrupted()) fputs("Interrupted.\n", stderr); /* as GHCi says it */
  else session_report(s, &diags);
  return ok;
}

/* The seconds between two clock readings. */
static double seconds(struct timespec a, struct timespec b) {
  return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
}

/* ` = VALUE` after a description; a matrix starts on its own line, its rows aligned. */
static void append_value(const Session *s, IrBuf *out, RtValue v) {
  IrBuf value;
  ir_buf_init(&value);
  rt_print_display(&value, v, s->lists);
  ir_buf_puts(out, strchr(value.data, '\n') ? " =\n" : " = ");
  ir_buf_puts(out, value.data);
}

void session_show_bindings(const Session *s, IrBuf *out) {
  const IrTDef *const *all;
  int n = ty_bindings(s->module, &all);
  for (int i = 0; i < n; i++) {
    if (out->len) ir_buf_putc(out, '\n');
    ir_buf_printf(out, "%%%s : ", all[i]->name->name);
    ir_print_type(out, all[i]->scheme);
    append_value(s, out, rt_value_of(s->program, all[i]));
  }
}

/* Prints a value as session_run shows it; false if memory ran out while formatting it (said). */
static bool print_result(Session *s, const IrTItem *it, RtValue v, bool repl_style, double seconds_taken,
                         size_t bytes) {
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    report_out_of_memory(&trap, "relay", "printing a value", "the rest is not run");
    return false;
  }
  IrBuf timing;
  ir_buf_init(&timing);
  if (s->timing) {
    double t = seconds_taken;
    ir_buf_printf(&timing, t < 1 ? "(%.2f ms, " : "(%.2f s, ", t < 1 ? t * 1e3 : t);
    if (bytes < 1000000) ir_buf_printf(&timing, "%.1f kB allocated)", (double)bytes / 1e3);
    else ir_buf_printf(&timing, "%.1f MB allocated)", (double)bytes / 1e6);
  }
  if (s->sink) {
    s->sink->value(s->sink, it, v, s->timing ? timing.data : NULL);
    ir_trap_pop(&trap);
    return true;
  }
  IrBuf out;
  ir_buf_init(&out);
  if (repl_style) {
    session_describe(s, it->src, it->type, &out);
    append_value(s, &out, v);
  } else {
    rt_print_value(&out, v);
  }
  if (s->timing) ir_buf_printf(&out, "\n%s", timing.data);
  ir_trap_pop(&trap);
  puts(out.data);
  fflush(stdout);
  return !ferror(stdout); /* output that cannot be written stops the run (main says so) */
}

/* `@name : TYPE` after a definition; false if memory ran out while making it (said). */
static bool show_definition(Session *s, const IrTItem *it) {
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    report_out_of_memory(&trap, "relay", "describing a definition", "the rest is not run");
    return false;
  }
  if (s->sink) {
    s->sink->definition(s->sink, it);
    ir_trap_pop(&trap);
    return true;
  }
  IrBuf out;
  ir_buf_init(&out);
  bool shown = session_describe(s, it->src, it->type, &out);
  ir_trap_pop(&trap);
  if (shown) puts(out.data);
  fflush(stdout);
  return true;
}

bool session_run(Session *s, const IrTProgram *prog, bool repl_style) {
  bool failed = false;
  int skipped = 0; /* expressions after the failed one */
  for (int i = 0; i < prog->nitems; i++) {
    const IrTItem *it = &prog->items[i];
    if (it->src->kind == IR_ITEM_EXPR || it->src->kind == IR_ITEM_LET) {
      RtValue v;
      struct timespec t0, t1;
      size_t bytes = rt_heap_allocated();
      clock_gettime(CLOCK_MONOTONIC, &t0);
      if (!it->expr) continue; /* loaded for its definitions only: not checked, not run */
      if (failed) {
        skipped++;
        continue;
      }
      if (!session_eval(s, it->expr, &v)) {
        if (!repl_style) return false;
        failed = true; /* the REPL goes on listing the definitions, which were made */
        continue;
      }
      clock_gettime(CLOCK_MONOTONIC, &t1);
      if (it->def) { /* `%x` or `%it`, for the inputs after this one */
        const IrTDef *old = ty_binding(s->module, it->def->name);
        rt_set_value(s->program, it->def, v);
        ty_bind_value(s->module, it->def);
        if (old) rt_forget(s->program, old); /* a big %it is not kept for ever */
      }
      if (!print_result(s, it, v, repl_style, seconds(t0, t1), rt_heap_allocated() - bytes)) return false;
    } else if (repl_style && !show_definition(s, it)) {
      return false;
    }
  }
  if (skipped)
    fprintf(stderr, "%s: %s after the failed one did not run\n", prog->items[0].src->span.src->name,
            skipped == 1 ? "the expression" : ir_printf("the %d expressions", skipped));
  return !failed;
}
