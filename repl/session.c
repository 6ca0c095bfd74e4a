/* The session: parsing, checking and compiling chunks against the module, transactionally, and
 * running what they hold. */
#include "repl/session.h"

#include <ctype.h>
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
  s->out = stdout;
  s->err = stderr;
}

void session_report(Session *s, const IrDiags *ds) {
  if (!s->sink) ir_diags_print(s->err, ds);
  else if (ds->first) s->sink->diags(s->sink, ds);
  for (const IrDiag *d = ds->first; d; d = d->next) { /* the errors :explain does not explain, once an input */
    if (d->kind != IR_DIAG_PARSE && d->kind != IR_DIAG_RUNTIME) continue;
    const SessionError *last = s->errors_since.len ? &s->errors_since.items[s->errors_since.len - 1] : NULL;
    if (!last || last->input != s->input || last->kind != d->kind)
      IR_VEC_PUSH(s->errors_since, ((SessionError){d->kind, s->input}));
  }
}

/* Out of memory in a phase: the trap landed, so what the phase built is unreachable. */
static void report_out_of_memory(Session *s, const IrTrap *trap, const char *name, const char *doing, const char *so) {
  GC_gcollect(); /* what the failed work held, before printing needs memory */
  fprintf(s->err, "%s: error: out of memory while %s (a request for %zu bytes); %s\n", name, doing, trap->bytes, so);
}

/* A chunk's definitions of traced names are traced too (:trace follows a name that is redefined). */
static void trace_redefinitions(Session *s, const IrTProgram *tp) {
  int n = s->traced.len;
  for (int i = 0; i < tp->nitems; i++) {
    const IrTDef *def = tp->items[i].def;
    for (int j = 0; def && !def->value && j < n; j++) /* a session binding (`let %x = e`) is no global */
      if (s->traced.items[j]->name == def->name) {
        rt_trace(s->program, def, s->out);
        IR_VEC_PUSH(s->traced, def);
        break;
      }
  }
}

const SessionFailedDef *session_failed_def(const Session *s, Sym name) {
  for (int i = 0; i < s->failed_defs.len; i++)
    if (s->failed_defs.items[i].def->name == name) return &s->failed_defs.items[i];
  return NULL;
}

/* Forgets the failed definition of that name, if any. */
static void forget_failed_def(Session *s, Sym name) {
  for (int i = 0; i < s->failed_defs.len; i++)
    if (s->failed_defs.items[i].def->name == name) {
      s->failed_defs.items[i] = s->failed_defs.items[--s->failed_defs.len];
      return;
    }
}

/* Each definition of prog that a type error in diags is in, with its first one, kept for :graph
 * and :annot in the place of an earlier failed definition of its name. */
static void note_failed_defs(Session *s, const IrProgram *prog, const IrDiags *diags) {
  for (int i = 0; prog && i < prog->nitems; i++) {
    const IrItem *it = &prog->items[i];
    if (it->kind != IR_ITEM_DEF) continue;
    for (const IrDiag *d = diags->first; d; d = d->next) {
      IrSpan a = it->span, b = d->span;
      if (d->kind != IR_DIAG_TYPE || a.src != b.src || b.off < a.off || b.off + b.len > a.off + a.len) continue;
      forget_failed_def(s, it->name);
      IR_VEC_PUSH(s->failed_defs, ((SessionFailedDef){prog, it, b, d->message}));
      break;
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

/* Keeps the newest type error of ds for :explain, and the input it is in. */
static void keep_type_error(Session *s, const IrDiags *ds) {
  for (const IrDiag *d = ds->first; d; d = d->next)
    if (d->kind == IR_DIAG_TYPE) {
      s->last_type_error = d;
      s->last_type_error_input = s->input;
      s->errors_since.len = 0;
    }
}

/* ---------------------------------------------------------------- hiding the Prelude's names */

static bool from_prelude(const IrItem *it) {
  return it && it->span.src && !strcmp(it->span.src->name, RELAY_PRELUDE_NAME);
}

/* The place of `name` (a whole word) in the text of an item at or after its start, for a warning
 * about that name; the item's place when it is not found. */
static IrSpan name_span(IrSpan item, const char *name) {
  const char *text = item.src->text, *end = text + item.off + item.len;
  size_t n = strlen(name);
  for (const char *p = text + item.off; p + n <= end; p++) {
    bool word = !memcmp(p, name, n) && (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
                !(isalnum((unsigned char)p[n]) || p[n] == '_');
    if (!word) continue;
    IrSpan out = item;
    out.off = (uint32_t)(p - text);
    out.len = (uint32_t)n;
    for (const char *q = text + item.off; q < p; q++) {
      if (*q == '\n') out.line++, out.col = 1;
      else out.col++;
    }
    return out;
  }
  return item;
}

/* How a hidden Prelude name comes back, after the hint to choose another name (`what`, such as
 * "another name (such as `@my_map`)"): a definition made at the prompt hides it for the rest of
 * the session; one in a file loaded at the prompt, until it is deleted from the file and the file
 * reloaded (:reload puts back what the file's definitions hid). */
static const char *hint_hidden(const Session *s, const IrItem *it, const char *what, bool plural) {
  const char *back = it->span.src->input > 0 ? ir_printf(": defined at the prompt, yours hides %s for the rest of the session",
                                                         plural ? "them" : "it")
                     : s->repl ? ": deleting yours from the file and :reload bring the Prelude's back"
                               : "";
  return ir_printf("hint: to keep the Prelude's, give yours %s%s", what, back);
}

/* A warning for each definition or data type of a chunk that hides a Prelude name: it takes the
 * place of the Prelude's for the code checked after it, while the Prelude's own definitions keep
 * theirs. A name hidden once is the user's, so the warning comes once (a :reload, which checks
 * the file again, says it again, as it does the file's other warnings). */
static void warn_hidden_prelude(Session *s, const IrProgram *prog, IrDiags *diags) {
  const char *follows = "code checked from here on uses yours; the Prelude's own definitions keep using the Prelude's";
  for (int i = 0; i < prog->nitems; i++) {
    const IrItem *it = &prog->items[i];
    if (it->kind == IR_ITEM_DEF && from_prelude(ir_symmap_get(&s->defs, it->name))) {
      IrDiag *d = ir_diag_add(diags, IR_DIAG_WARNING, name_span(it->span, ir_printf("@%s", it->name->name)),
                              "`@%s` hides the Prelude's `@%s`, of type %s", it->name->name, it->name->name,
                              ir_type_str(ty_global_type(s->module, it->name)));
      ir_diag_note(d, "%s", follows);
      ir_diag_note(d, "%s", hint_hidden(s, it, ir_printf("another name (such as `@my_%s`)", it->name->name), false));
    }
    if (it->kind != IR_ITEM_DATA) continue;
    if (from_prelude(ir_symmap_get(&s->datas, it->name))) {
      IrDiag *d = ir_diag_add(diags, IR_DIAG_WARNING, name_span(it->span, it->name->name),
                              "`%s` hides the Prelude's data type `%s`", it->name->name, it->name->name);
      ir_diag_note(d, "%s", follows);
      ir_diag_note(d, "%s", hint_hidden(s, it, ir_printf("another name (such as `My%s`)", it->name->name), false));
      continue;
    }
    IrBuf hidden;
    ir_buf_init(&hidden);
    const char *first = NULL;
    for (int k = 0; k < it->data.nctors; k++) {
      const IrItem *was = ir_symmap_get(&s->ctors, it->data.ctors[k].name);
      if (!from_prelude(was)) continue;
      if (!first) first = it->data.ctors[k].name->name;
      ir_buf_printf(&hidden, "%s`%s` (of %s)", hidden.len ? ", " : "", it->data.ctors[k].name->name, was->name->name);
    }
    if (!first) continue;
    IrDiag *d = ir_diag_add(diags, IR_DIAG_WARNING, name_span(it->span, it->name->name),
                            "`%s` has constructors named as the Prelude's, which it hides: %s", it->name->name, hidden.data);
    ir_diag_note(d, "%s", follows);
    ir_diag_note(d, "%s", hint_hidden(s, it, ir_printf("other names (such as `My%s`)", first), true));
  }
}

/* Whether a chunk's parse waits for more lines, quietly: the text ended too early while more lines
 * may come (a blank line or the end makes it an error), or (a pasted dump) it refers to a
 * `#[metadata]` section that follows the program after a blank line; two blank lines end that
 * wait (and the references are then an error). */
static bool waits_for_more(const IrParseResult *r, const IrSource *src, SessionChunkEnd end) {
  size_t n = src->len;
  if (end == SESSION_CHUNK_MORE_MAY_COME && r->incomplete) return true;
  return end != SESSION_CHUNK_WHOLE && r->awaits_meta && !(n >= 3 && !strcmp(src->text + n - 3, "\n\n\n"));
}

/* The line of a parse error's first diagnostic, from 1. */
static int first_line(const IrDiags *diags) {
  return diags->first ? (int)diags->first->span.line : 1;
}

/* Parses, checks and compiles a chunk, then adds it to the module and the session's tables: all
 * of it or, on any error (out of memory included), nothing. With held, a parse error (one that is
 * not a wait for more lines) is not reported: *held is then its line (else 0). */
static IrTProgram *load_source(Session *s, const IrSource *src, SessionChunkEnd end, bool *incomplete, int *held,
                               bool definitions_only, bool keep_replaced) {
  IrDiags diags = {0};
  if (incomplete) *incomplete = false;
  if (held) *held = 0;
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    session_report(s, &diags);
    report_out_of_memory(s, &trap, src->name, "loading it", "nothing was changed");
    return NULL;
  }
  IrParseResult r = ir_parse_program(src, &s->parse, &diags);
  bool waits = waits_for_more(&r, src, end);
  if (waits || (held && !r.program)) {
    if (incomplete) *incomplete = waits;
    if (held && !waits) *held = first_line(&diags);
    ir_trap_pop(&trap);
    return NULL;
  }
  /* With parse errors, what parsed is checked too, for its errors (nothing of it joins). */
  const IrProgram *checked = r.program ? r.program : r.partial;
  IrTProgram *tp = !checked           ? NULL
                   : definitions_only ? ty_check_definitions(s->module, checked, &diags)
                                      : ty_check_program(s->module, checked, &diags);
  bool ok = tp != NULL && r.program;
  if (ok && s->prelude) warn_hidden_prelude(s, r.program, &diags);
  session_report(s, &diags);
  keep_type_error(s, &diags);
  if (!ok) note_failed_defs(s, checked, &diags);
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
  if (!keep_replaced) forget_replaced(s, &old); /* a :load's are kept while :reload may give their names back */
  for (int i = 0; s->failed_defs.len && i < tp->nitems; i++) /* failed definitions are replaced */
    if (tp->items[i].def && !tp->items[i].def->value) forget_failed_def(s, tp->items[i].def->name);
  trace_redefinitions(s, tp); /* out of memory here lands in the REPL's trap, the chunk loaded */
  return tp;
}

bool session_load_prelude(Session *s) {
  IrSource *src = ir_source_new(RELAY_PRELUDE_NAME, relay_prelude_text, relay_prelude_length);
  s->prelude = load_source(s, src, SESSION_CHUNK_WHOLE, NULL, NULL, false, false);
  return s->prelude != NULL;
}

const char *session_read_error(int err) {
  return err == EFBIG ? "it is larger than 1 GiB, the most relay reads" : strerror(err);
}

IrTProgram *session_load_file(Session *s, const char *path, bool definitions_only) {
  if (s->sandbox) { /* the commands refuse first (commands.c); this is the last line of defence */
    fprintf(s->err, "relay: %s was not read: the session is sandboxed (relay --serve --sandbox)\n", path);
    return NULL;
  }
  IrSource *src = ir_source_read_file(path);
  if (!src) {
    fprintf(s->err, "relay: cannot read %s: %s\n", path, session_read_error(errno));
    return NULL;
  }
  return load_source(s, src, SESSION_CHUNK_WHOLE, NULL, NULL, definitions_only, false);
}

/* ---------------------------------------------------------------- :load and :reload */

/* Gives name in map back what `before` had under it, or removes it. */
static void put_back(IrSymMap *map, const IrSymMap *before, Sym name) {
  void *was = ir_symmap_get(before, name);
  if (was) ir_symmap_put(map, name, was);
  else ir_ptrmap_remove(map, name);
}

/* Takes away what the last :load's files defined that is still the newest of its name. */
static void unload_layer(Session *s) {
  for (int p = 0; p < s->layer.nprogs; p++) {
    const IrTProgram *tp = s->layer.progs[p];
    ty_unload(s->module, tp, s->layer.before);
    for (int i = 0; i < tp->nitems; i++) {
      const IrItem *it = tp->items[i].src;
      if (it->kind == IR_ITEM_DEF && ir_symmap_get(&s->defs, it->name) == it) put_back(&s->defs, &s->layer.defs, it->name);
      if (it->kind != IR_ITEM_DATA) continue;
      if (ir_symmap_get(&s->datas, it->name) == it) put_back(&s->datas, &s->layer.datas, it->name);
      for (int k = 0; k < it->data.nctors; k++)
        if (ir_symmap_get(&s->ctors, it->data.ctors[k].name) == it) put_back(&s->ctors, &s->layer.ctors, it->data.ctors[k].name);
    }
  }
}

/* Whether a definition or constructor is still needed by name: the newest of its name, or what a
 * name of the current :load's files had before them (:reload gives it back). */
static bool def_needed(const Session *s, const IrTDef *d) {
  return ty_global_def(s->module, d->name) == d || (s->layer.before && ty_names_global(s->layer.before, d->name) == d) ||
         is_traced(s, d);
}

static bool ctor_needed(const Session *s, const IrTCtor *k) {
  return ty_module_ctor(s->module, k->src->name) == k || (s->layer.before && ty_names_ctor(s->layer.before, k->src->name) == k);
}

static bool item_needed(const Session *s, const IrItem *it) {
  if (item_named(s, it)) return true;
  if (it->kind == IR_ITEM_DEF) return ir_symmap_get(&s->layer.defs, it->name) == it;
  if (ir_symmap_get(&s->layer.datas, it->name) == it) return true;
  for (int k = 0; k < it->data.nctors; k++)
    if (ir_symmap_get(&s->layer.ctors, it->data.ctors[k].name) == it) return true;
  return false;
}

/* Once a :load or :reload has replaced the layer old (with `before`, the names it had before):
 * forgets what no name needs any more, of old's files and of what they had shadowed. */
static void forget_old_layer(Session *s, const IrTProgram **progs, int nprogs, const TyNames *before) {
  for (int p = 0; p < nprogs; p++) {
    const IrTProgram *tp = progs[p];
    for (int i = 0; i < tp->nitems; i++) {
      const IrTItem *ti = &tp->items[i];
      const IrItem *it = ti->src;
      const IrTDef *was = before && it->kind == IR_ITEM_DEF ? ty_names_global(before, it->name) : NULL;
      if (ti->def && !ti->def->value && !def_needed(s, ti->def)) rt_forget(s->program, ti->def);
      if (was && !def_needed(s, was)) rt_forget(s->program, was);
      for (int k = 0; it->kind == IR_ITEM_DATA && k < it->data.nctors; k++) {
        const IrTCtor *old = before ? ty_names_ctor(before, it->data.ctors[k].name) : NULL;
        if (!ctor_needed(s, &ti->ctors[k])) rt_forget_ctor(s->program, &ti->ctors[k]);
        if (old && !ctor_needed(s, old)) rt_forget_ctor(s->program, old);
      }
    }
  }
  int kept = 0;
  for (int j = 0; j < s->items.len; j++)
    if (item_needed(s, s->items.items[j])) s->items.items[kept++] = s->items.items[j];
  s->items.len = kept;
}

/* Where a global or constructor that a file uses was defined, when that is outside the Prelude
 * and the files loaded with it: `relay FILE` would not find it. */
typedef struct {
  Session *s;
  const IrTProgram **progs;
  int n;
  const char **files;
  IrSymMap warned; /* the names warned about */
  IrDiags *diags;
} Uses;

static void note_use(Uses *u, const char *what, Sym name, IrSpan use, IrSpan defined) {
  if (!defined.src || !strcmp(defined.src->name, RELAY_PRELUDE_NAME) || ir_symmap_get(&u->warned, name)) return;
  for (int i = 0; i < u->n; i++)
    if (u->progs[i]->src->src == defined.src) return;
  ir_symmap_put(&u->warned, name, (void *)name);
  IrBuf all;
  ir_buf_init(&all);
  for (int i = 0; i < u->n; i++) ir_buf_printf(&all, "%s%s", i ? " " : "", u->files[i]);
  bool prompt = defined.src->input > 0;
  ir_diag_add(u->diags, IR_DIAG_WARNING, use, "%s uses %s, which is defined %s, not in %s: `relay %s` would fail",
              use.src->name, what, prompt ? "at the prompt" : ir_printf("in %s", defined.src->name),
              u->n == 1 ? "the file" : "the files loaded", all.data);
}

static void uses_in_pattern(Uses *u, const IrTPattern *p) {
  if (!p) return;
  if (p->kind == IR_PAT_CTOR && p->src)
    note_use(u, p->ctor->src->name->name, p->ctor->src->name, p->src->span, p->ctor->src->adt->span);
  for (int i = 0; (p->kind == IR_PAT_CTOR || p->kind == IR_PAT_TUPLE) && i < p->n; i++) uses_in_pattern(u, p->args[i]);
}

static void uses_in(IrTExpr *e, void *env) {
  Uses *u = env;
  if (e->kind == IR_EXPR_GLOBAL && !e->u.def->value)
    note_use(u, ir_printf("@%s", e->u.def->name->name), e->u.def->name, e->src->span, e->u.def->item->span);
  if (e->kind == IR_EXPR_CTOR)
    note_use(u, e->u.ctor->src->name->name, e->u.ctor->src->name, e->src->span, e->u.ctor->src->adt->span);
  for (int i = 0; e->kind == IR_EXPR_MATCH && i < e->u.match.nclauses; i++) uses_in_pattern(u, e->u.match.clauses[i].pat);
  ir_texpr_each_child(e, uses_in, env);
}

/* Warns about each global and constructor the files use that was defined elsewhere than in the
 * Prelude and the files themselves (at the prompt, or by another :load). */
static void warn_outside_uses(Session *s, const IrTProgram **progs, int n, const char **files) {
  IrDiags diags = {0};
  Uses u = {.s = s, .progs = progs, .n = n, .files = files, .diags = &diags};
  for (int p = 0; p < n; p++)
    for (int i = 0; i < progs[p]->nitems; i++) {
      const IrTItem *ti = &progs[p]->items[i];
      const IrTFn *fn = ti->def && !ti->def->value ? ti->def->fn : ti->expr;
      if (fn && fn->body) uses_in(fn->body, &u);
    }
  session_report(s, &diags);
}

/* Whether a :load loads every file of the last one again (`:load lib.rly` after editing it): it
 * replaces them as :reload does. Another :load adds to what is loaded. */
static bool reloads(const Session *s, int n, const char **files) {
  for (int p = 0; p < s->layer.nprogs; p++) {
    bool again = false;
    for (int i = 0; i < n && !again; i++) again = !strcmp(s->layer.progs[p]->src->src->name, files[i]);
    if (!again) return false;
  }
  return s->layer.nprogs > 0;
}

bool session_load_files(Session *s, int n, const char **files, bool reload) {
  /* what to put back if a file fails */
  TyNames *names = ty_names_save(s->module);
  IrSymMap defs = ir_ptrmap_copy(&s->defs), datas = ir_ptrmap_copy(&s->datas), ctors = ir_ptrmap_copy(&s->ctors);
  const IrItem **items = IR_NEW_ARRAY(const IrItem *, (size_t)s->items.len + 1);
  if (s->items.len) memcpy(items, s->items.items, sizeof *items * (size_t)s->items.len);
  int nitems = s->items.len, ntraced = s->traced.len;
  if (reload || reloads(s, n, files)) unload_layer(s);
  TyNames *before = ty_names_save(s->module);
  IrSymMap before_defs = ir_ptrmap_copy(&s->defs), before_datas = ir_ptrmap_copy(&s->datas),
           before_ctors = ir_ptrmap_copy(&s->ctors);
  const IrTProgram **progs = IR_NEW_ARRAY(const IrTProgram *, (size_t)n + 1);
  int loaded = 0;
  for (; loaded < n; loaded++) {
    IrSource *src = ir_source_read_file(files[loaded]);
    if (!src) {
      fprintf(s->err, "relay: cannot read %s: %s\n", files[loaded], session_read_error(errno));
      break;
    }
    if (!(progs[loaded] = load_source(s, src, SESSION_CHUNK_WHOLE, NULL, NULL, false, true))) break;
  }
  if (loaded < n) { /* all as it was: the names, the tables, what is traced */
    ty_names_restore(s->module, names);
    s->defs = defs, s->datas = datas, s->ctors = ctors;
    if (nitems) memcpy(s->items.items, items, sizeof *items * (size_t)nitems);
    s->items.len = nitems;
    for (int i = ntraced; i < s->traced.len; i++) rt_untrace(s->program, s->traced.items[i]);
    s->traced.len = ntraced;
    for (int p = 0; p < loaded; p++)
      for (int i = 0; i < progs[p]->nitems; i++)
        if (progs[p]->items[i].def) rt_forget(s->program, progs[p]->items[i].def);
    if (loaded && reload) fputs("<repl>: so nothing was reloaded: the definitions are as they were before :reload\n", s->err);
    else if (loaded) fprintf(s->err, "<repl>: so none of the %d files was loaded\n", n);
    if (!reload) { /* :reload now loads the new files on top of the old ones, as this :load would have */
      const IrTProgram **old = s->layer.progs;
      int nold = s->layer.nprogs;
      TyNames *old_before = s->layer.before;
      s->layer.progs = progs, s->layer.nprogs = 0, s->layer.before = ty_names_save(s->module);
      s->layer.defs = ir_ptrmap_copy(&s->defs), s->layer.datas = ir_ptrmap_copy(&s->datas);
      s->layer.ctors = ir_ptrmap_copy(&s->ctors);
      forget_old_layer(s, old, nold, old_before);
    }
    return false;
  }
  const IrTProgram **old = s->layer.progs;
  int nold = s->layer.nprogs;
  TyNames *old_before = s->layer.before;
  s->layer.progs = progs, s->layer.nprogs = n, s->layer.before = before;
  s->layer.defs = before_defs, s->layer.datas = before_datas, s->layer.ctors = before_ctors;
  forget_old_layer(s, old, nold, old_before);
  warn_outside_uses(s, progs, n, files);
  for (int i = 0; i < n; i++)
    if (!session_run(s, progs[i], true)) return false;
  return true;
}

IrTProgram *session_load_chunk(Session *s, const char *name, const char *text, size_t len, SessionChunkEnd end,
                               bool *incomplete) {
  return session_load_input(s, name, text, len, end, incomplete, NULL);
}

IrTProgram *session_load_input(Session *s, const char *name, const char *text, size_t len, SessionChunkEnd end,
                               bool *incomplete, int *held) {
  IrSource *src = ir_source_new(name, text, len);
  src->input = s->input;
  s->parse.session_lets = true; /* a REPL input may bind `let %x = e` for the ones after it */
  IrTProgram *p = load_source(s, src, end, incomplete, held, false, false);
  s->parse.session_lets = false;
  return p;
}

int session_input_fails_to_parse(Session *s, const char *name, const char *text, size_t len) {
  IrDiags diags = {0};
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    s->parse.session_lets = false;
    ir_out_of_memory(trap.bytes); /* on to the caller's trap, which drops the input */
  }
  IrSource *src = ir_source_new(name, text, len);
  src->input = s->input;
  s->parse.session_lets = true;
  IrParseResult r = ir_parse_program(src, &s->parse, &diags);
  s->parse.session_lets = false;
  ir_trap_pop(&trap);
  return !r.program && !r.incomplete && !waits_for_more(&r, src, SESSION_CHUNK_MORE_MAY_COME) ? first_line(&diags) : 0;
}

IrType *session_check_expression(Session *s, const char *name, const char *text, IrTFn **expr) {
  IrDiags diags = {0};
  if (expr) *expr = NULL;
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    session_report(s, &diags);
    report_out_of_memory(s, &trap, name, "checking it", "nothing was changed");
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
    report_out_of_memory(s, &trap, name, "checking it", "nothing was changed");
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

bool session_explore_definitions(Session *s, const char *name, const char *text, const IrProgram **prog,
                                 IrTProgram **checked, IrPtrMap **partial, IrDiags *diags) {
  *prog = NULL;
  *checked = NULL;
  *partial = NULL;
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    session_report(s, diags);
    *diags = (IrDiags){0};
    *prog = NULL;
    report_out_of_memory(s, &trap, name, "checking it", "nothing was changed");
    return false;
  }
  IrSource *src = ir_source_new(name, text, strlen(text));
  src->input = s->input;
  IrParseResult r = ir_parse_program(src, &s->parse, diags);
  if (r.program) *checked = ty_check_definitions(s->module, r.program, diags);
  if (r.program && !*checked) *partial = ty_partial_types(s->module, r.program);
  ir_trap_pop(&trap);
  keep_type_error(s, diags);
  *prog = r.program;
  return r.program != NULL;
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
  fflush(s->out);
  if (!ok && s->repl && rt_was_interrupted()) fputs("Interrupted.\n", s->err); /* as GHCi says it */
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
    report_out_of_memory(s, &trap, "relay", "printing a value", "the rest is not run");
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
  fprintf(s->out, "%s\n", out.data);
  fflush(s->out);
  return !ferror(s->out); /* output that cannot be written stops the run (main says so) */
}

/* `@name : TYPE` after a definition; false if memory ran out while making it (said). */
static bool show_definition(Session *s, const IrTItem *it) {
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    report_out_of_memory(s, &trap, "relay", "describing a definition", "the rest is not run");
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
  if (shown) fprintf(s->out, "%s\n", out.data);
  fflush(s->out);
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
    fprintf(s->err, "%s: %s after the failed one did not run\n", prog->items[0].src->span.src->name,
            skipped == 1 ? "the expression" : ir_printf("the %d expressions", skipped));
  return !failed;
}
