/* The REPL's commands (`:type`, `:info`, `:load`, ...): one table gives each its names, its
 * argument and its help line; each returns false when it fails, as a failed input does. */
#include "repl/commands.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/ir.h"
#include "repl/graph.h"

typedef struct {
  const char *name, *alias; /* `:type` and `:t` (alias NULL: none but the name's prefixes) */
  const char *arg, *help;
  bool (*run)(Session *s, const char *arg, bool *quit);
} Command;

/* ---------------------------------------------------------------- the commands */

static bool cmd_help(Session *s, const char *arg, bool *quit);

static bool cmd_quit(Session *s, const char *arg, bool *quit) {
  (void)s, (void)arg;
  *quit = true;
  return true;
}

/* An expression's type; with holes, the type and then each hole's (ty_explore_expression). */
static bool cmd_type(Session *s, const char *arg, bool *quit) {
  (void)quit;
  IrDiags diags = {0};
  const IrExpr *e;
  TyExplored x;
  session_explore_expression(s, "<repl>", arg, &e, &x, &diags);
  if (x.fn) {
    fprintf(s->out, "%s : %s\n", arg, ir_type_str(x.type));
    const char *where = ty_call_substitution(x.fn); /* `@layer(...)`: how n and the others were instantiated */
    if (where) fprintf(s->out, "  where %s\n", where);
  }
  fflush(s->out);
  session_report(s, &diags);
  return x.fn != NULL;
}

static bool cmd_kind(Session *s, const char *arg, bool *quit) {
  (void)quit;
  if (!strcmp(arg, "Tensor")) { /* no type until applied: the text format has no bare `Tensor` */
    fprintf(s->out, "%s\n", "Tensor : (Shape, BaseType) -> Type");
    return true;
  }
  IrDiags diags = {0};
  IrParseResult r = ir_parse_type(ir_source_new("<repl>", arg, strlen(arg)), &s->parse, &diags);
  const char *kind = r.type ? ty_describe_kind(s->module, r.type, &diags) : NULL;
  session_report(s, &diags);
  if (!kind) return false;
  fprintf(s->out, "%s : %s\n", arg, kind);
  return true;
}

/* The node of e that a checking error (the first type error in diags) is about, or NULL. */
static const void *failing_node(const IrExpr *e, const IrDiags *diags) {
  for (const IrDiag *d = diags->first; d; d = d->next)
    if (d->kind == IR_DIAG_TYPE) return ir_expr_node_at(e, d->span, NULL);
  return NULL;
}

/* `:annot def @f(...) { ... }`: the definitions checked (not made) and printed with their types;
 * after a type error, the types found before it, the failing node marked. */
static bool annot_definitions(Session *s, const char *arg) {
  IrDiags diags = {0};
  const IrProgram *prog;
  IrTProgram *tp;
  IrPtrMap *partial;
  session_explore_definitions(s, "<repl>", arg, &prog, &tp, &partial, &diags);
  for (int i = 0; prog && i < prog->nitems; i++) {
    const IrItem *it = &prog->items[i];
    IrBuf b;
    ir_buf_init(&b);
    const void *mark = NULL; /* the node of its type error (each definition fails alone) */
    for (const IrDiag *d = diags.first; d && !mark && it->kind == IR_ITEM_DEF; d = d->next)
      if (d->kind == IR_DIAG_TYPE) mark = ir_expr_node_at(it->fn, d->span, NULL);
    if (tp && tp->items[i].def) ir_print_def_typed(&b, tp->items[i].def);
    else if (it->kind == IR_ITEM_DEF && partial) ir_print_def_partial(&b, it, partial, mark);
    else ir_print_item(&b, it);
    fprintf(s->out, "%s\n", b.data);
  }
  fflush(s->out);
  session_report(s, &diags);
  return tp != NULL;
}

/* `@name`'s definition, or an expression, printed with the type of every binding and call; an
 * expression with a type error with the types found before it, the failing node marked. Of a name
 * whose definition failed: the one in use, as calls and :t see it, and a line saying that the
 * redefinition failed; with none in use, the failed one with the types found before its error. */
static bool cmd_annot(Session *s, const char *arg, bool *quit) {
  (void)quit;
  IrBuf b;
  ir_buf_init(&b);
  if (!strncmp(arg, "def", 3) && strchr(" \t@", arg[3])) return annot_definitions(s, arg);
  bool named = arg[0] == '@' && !arg[1 + strcspn(arg + 1, " \t()<")];
  const IrTDef *def = named ? ty_global_def(s->module, ir_sym(arg + 1)) : NULL;
  const SessionFailedDef *fd = named ? session_failed_def(s, ir_sym(arg + 1)) : NULL;
  const IrItem *failed = fd ? fd->def : NULL;
  if (def) {
    ir_print_def_typed(&b, def);
    fprintf(s->out, "%s\n", b.data);
    if (failed)
      fprintf(s->out, "// the redefinition at %s failed: this is the definition in use, from %s\n", ir_span_place(failed->span),
             ir_span_place(def->item->span));
    return true;
  }
  if (failed) {
    IrPtrMap *types = ty_partial_types(s->module, fd->prog);
    ir_print_def_partial(&b, failed, types, ir_expr_node_at(failed->fn, fd->span, NULL));
    fprintf(s->out, "%s\n", b.data);
    fflush(s->out);
    fprintf(s->err, "<repl>: %s is not defined: its definition failed with the type error at %s: %s\n", arg,
            ir_span_place(fd->span), fd->message);
    return false;
  }
  IrDiags diags = {0};
  const IrExpr *e;
  TyExplored x;
  session_explore_expression(s, "<repl>", arg, &e, &x, &diags);
  if (x.fn) ir_print_expr_typed(&b, x.fn, x.type);
  else if (e && x.partial.count) ir_print_expr_partial(&b, e, &x.partial, failing_node(e, &diags));
  if (b.len) fprintf(s->out, "%s\n", b.data);
  fflush(s->out);
  session_report(s, &diags);
  return x.fn != NULL;
}

/* The line that opens :explain of the last type error: where it is, how many inputs ago when it
 * is not the input's before, and the inputs since that failed with errors it does not explain. */
static void say_last_type_error(const Session *s) {
  const IrDiag *last = s->last_type_error;
  int ago = s->input - s->last_type_error_input;
  fprintf(s->out, "The last type error, %sat %s: %s\n", s->last_type_error_input > 0 && ago > 1 ? ir_printf("%d inputs ago, ", ago) : "",
         ir_span_place(last->span), last->message);
  if (!s->errors_since.len) return;
  IrBuf b;
  ir_buf_init(&b);
  enum { LISTED = 3 };
  for (int i = 0; i < s->errors_since.len && i < LISTED; i++)
    ir_buf_printf(&b, "%s%s error in input %d", i ? ", " : "", s->errors_since.items[i].kind == IR_DIAG_PARSE ? "a parse" : "a run-time",
                  s->errors_since.items[i].input);
  if (s->errors_since.len > LISTED) ir_buf_printf(&b, ", and %d more", s->errors_since.len - LISTED);
  fprintf(s->out, "The errors since are not type errors, which :explain does not explain: %s\n", b.data);
}

/* The last type error step by step, or a relation written out: `:explain Broadcast(...)`. */
static bool cmd_explain(Session *s, const char *arg, bool *quit) {
  (void)quit;
  const IrDiag *last = s->last_type_error;
  if (!*arg && !last) {
    fprintf(s->out, "%s\n", "No type error yet in this session. :explain explains the last one, or a relation you write, such as\n"
         "  :explain Broadcast(Tensor[(n, 3), float32], Tensor[(4, 1, 3), float32])");
    return true;
  }
  if (!*arg) say_last_type_error(s);
  if (!*arg && !last->detail) {
    for (int i = 0; i < last->notes.len; i++) fprintf(s->out, "  %s\n", last->notes.items[i]);
    fprintf(s->out, "%s\n", "It is not a type relation's, so :explain has no steps to show: it explains the failed shape rule of\n"
         "an operator (Broadcast for add, Dense for nn.dense, ...) or a relation you write.");
    return true;
  }
  IrDiags diags = {0};
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    session_report(s, &diags);
    fputs("<repl>: out of memory while explaining\n", s->err);
    return false;
  }
  const char *text;
  if (!*arg) {
    text = ty_explain_failure(s->module, last->detail);
  } else {
    IrSource *src = ir_source_new("<repl>", arg, strlen(arg));
    src->input = s->input;
    IrParseResult r = ir_parse_relation(src, &s->parse, &diags);
    text = r.rel ? ty_explain_relation(s->module, r.rel, &diags) : NULL;
  }
  ir_trap_pop(&trap);
  session_report(s, &diags);
  if (text) fputs(text, s->out);
  return text != NULL;
}

/* ---------------------------------------------------------------- names: :info, :doc */

/* The name (with its sigil) one edit from `word` that a command naming things could have meant,
 * or NULL: for `@f`, a global; for `%x`, a session binding; for a bare name, any of those or a
 * data type, a constructor, an operator or a built-in type. Of several, the first in alphabetical
 * order; names under three letters are too short to guess from (as the checker's hints). */
static const char *misspelt_name(const Session *s, const char *word) {
  const char *name = word + (word[0] == '@' || word[0] == '%');
  if (strlen(name) < 3) return NULL;
  IR_VEC(const char *) candidates = {0};
  const IrSymMap *maps[3] = {&s->defs, &s->datas, &s->ctors};
  for (int k = 0; k < 3; k++)
    for (size_t i = 0; i < maps[k]->cap && (word[0] != '%') && (k == 0 || word[0] != '@'); i++)
      if (maps[k]->keys[i]) IR_VEC_PUSH(candidates, ir_printf("%s%s", k ? "" : "@", ((Sym)maps[k]->keys[i])->name));
  const IrTDef *const *bindings;
  int n = ty_bindings(s->module, &bindings);
  for (int i = 0; i < n && word[0] != '@'; i++) IR_VEC_PUSH(candidates, ir_printf("%%%s", bindings[i]->name->name));
  if (word[0] != '@' && word[0] != '%') {
    for (int i = 0; i < IR_OP_COUNT; i++) IR_VEC_PUSH(candidates, ir_ops[i].name);
    static const char *const builtin[] = {"Tensor", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                          "uint32", "uint64", "float16", "float32", "float64"};
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) IR_VEC_PUSH(candidates, builtin[i]);
  }
  const char *best = NULL;
  for (int i = 0; i < candidates.len; i++) {
    const char *c = candidates.items[i], *bare = c + (c[0] == '@' || c[0] == '%');
    if (ir_sym_distance(name, bare) == 1 && (!best || strcmp(bare, best + (best[0] == '@' || best[0] == '%')) < 0))
      best = c;
  }
  return best;
}

/* "nothing is named `word`", with the name it may be a typo of. */
static void say_unknown(const Session *s, const char *word) {
  const char *close = misspelt_name(s, word);
  fprintf(s->err, "<repl>: nothing is named `%s`%s (:browse lists the definitions)\n", word,
          close ? ir_printf("; did you mean `%s`?", close) : "");
}

/* Tensor and the base types, which no file defines, for :info and :doc: what they are, their kind,
 * and where the tour introduces them; false if name is neither (or a data type takes the name). */
static bool describe_builtin_type(const Session *s, const char *name) {
  IrDType dt;
  if (ir_symmap_get(&s->datas, ir_sym(name))) return false;
  if (!strcmp(name, "Tensor")) {
    fprintf(s->out, "%s\n", "Tensor : (Shape, BaseType) -> Type\n"
         "  built in: the type of tensors, as Tensor[(2, 3), float32] (2 by 3, of float32); a scalar is\n"
         "  Tensor[(), float32], written float32. docs/tour.md introduces them (11. Tensors)");
    return true;
  }
  if (!ir_dtype_parse(name, strlen(name), &dt)) return false;
  fprintf(s->out, "%s : BaseType\n"
         "  built in: a base type, the type of a tensor's elements, as in Tensor[(2, 3), %s]; alone,\n"
         "  %s is the scalar type Tensor[(), %s]. The base types are bool, int8 to int64, uint8\n"
         "  to uint64, float16 to float64; docs/tour.md introduces them (2. Numbers and booleans)\n",
         name, name, name, name);
  return true;
}

/* A session binding (`%x`, made at the prompt by `let %x = e`, or `%it`) for :info and :doc: its
 * type and where it was made; false (said) when there is none of that name. */
static bool describe_binding(Session *s, const char *arg) {
  const IrTDef *def = ty_binding(s->module, ir_sym(arg + 1));
  if (!def) {
    const char *close = misspelt_name(s, arg);
    fprintf(s->err, "<repl>: no binding is named `%s`%s (:show bindings lists them)\n", arg,
            close ? ir_printf("; did you mean `%s`?", close) : "");
    return false;
  }
  fprintf(s->out, "%s : %s\n  %s at %s (:show bindings shows its value)\n", arg, ir_type_str(def->scheme),
         def->item->kind == IR_ITEM_LET ? "bound" : "the value of the expression", ir_span_place(def->item->span));
  return true;
}

static bool cmd_info(Session *s, const char *arg, bool *quit) {
  (void)quit;
  if (arg[0] == '%') return describe_binding(s, arg);
  if (describe_builtin_type(s, arg)) return true;
  const char *name = arg[0] == '@' ? arg + 1 : arg;
  Sym sym = ir_sym(name);
  const IrItem *it;
  /* `@name` is a global; a bare name is a constructor, a data type, an operator, else a global */
  bool global = arg[0] == '@' || (!ir_symmap_get(&s->ctors, sym) && !ir_symmap_get(&s->datas, sym) &&
                                  ir_op_lookup(name, strlen(name)) < 0);
  if (global) {
    if (!(it = ir_symmap_get(&s->defs, sym))) {
      say_unknown(s, arg);
      return false;
    }
    fprintf(s->out, "@%s : %s\n  defined at %s\n", name, ir_type_str(ty_global_type(s->module, sym)), ir_span_place(it->span));
    const IrFn *fn = &it->fn->u.fn;
    if (fn->nattrs) { /* TVM's function attributes: `Primitive=1, Compiler="ccompiler"` */
      IrBuf b;
      ir_buf_init(&b);
      for (int i = 0; i < fn->nattrs; i++) {
        ir_buf_printf(&b, "%s%s=", i ? ", " : "", fn->attrs[i].key->name);
        ir_print_attr_value(&b, &fn->attrs[i].val);
      }
      fprintf(s->out, "  attributes: %s\n", b.data);
    }
    return true;
  }
  if ((it = ir_symmap_get(&s->ctors, sym))) {
    for (int k = 0; k < it->data.nctors; k++)
      if (it->data.ctors[k].name == sym)
        fprintf(s->out, "%s : %s\n", name, ir_type_str(ty_ctor_scheme(s->module, &it->data.ctors[k])));
    fprintf(s->out, "  a constructor of %s, defined at %s\n", it->name->name, ir_span_place(it->span));
    return true;
  }
  if ((it = ir_symmap_get(&s->datas, sym))) {
    IrBuf b;
    ir_buf_init(&b);
    ir_print_item(&b, it);
    fprintf(s->out, "%s\n  defined at %s\n", b.data, ir_span_place(it->span));
    return true;
  }
  int op = ir_op_lookup(name, strlen(name));
  if (op >= 0) {
    const IrOpInfo *info = &ir_ops[op];
    fprintf(s->out, "%s : %s\n", info->name, ir_type_str(ty_operator_scheme(s->module, op)));
    IrBuf attrs;
    ir_buf_init(&attrs);
    for (const char *p = info->attrs; *p;) { /* "newshape! dtype" -> "newshape (required), dtype" */
      size_t n = strcspn(p, " !");
      ir_buf_printf(&attrs, "%s%.*s%s", attrs.len ? ", " : "", (int)n, p, p[n] == '!' ? " (required)" : "");
      p += n;
      p += strspn(p, " !");
    }
    fprintf(s->out, "  an operator taking %s argument%s; attributes: %s\n",
           info->min_args == info->max_args ? ir_printf("%d", info->min_args)
                                            : ir_printf("%d to %d", info->min_args, info->max_args),
           info->max_args == 1 ? "" : "s", attrs.len ? attrs.data : "none");
    return true;
  }
  UNREACHABLE("a bare name that is nothing above is looked up as a global");
  return false;
}

/* `:doc NAME`: the comment written directly above a definition (the parser keeps it as the item's
 * `doc`), after the name's type or the data type's head; NAME is looked up as :info looks it up. */
static void put_doc(Session *s, const char *doc, const char *what) {
  if (!doc) {
    fprintf(s->out, "  (no documentation: write a comment on the lines directly above its `%s`)\n", what);
    return;
  }
  for (const char *p = doc; *p;) {
    size_t n = strcspn(p, "\n");
    fprintf(s->out, n ? "  %.*s\n" : "\n", (int)n, p);
    p += n + (p[n] == '\n');
  }
}

static bool cmd_doc(Session *s, const char *arg, bool *quit) {
  (void)quit;
  if (arg[0] == '%') return describe_binding(s, arg);
  if (describe_builtin_type(s, arg)) return true;
  const char *name = arg[0] == '@' ? arg + 1 : arg;
  Sym sym = ir_sym(name);
  const IrItem *it;
  int op = arg[0] == '@' ? -1 : ir_op_lookup(name, strlen(name));
  if (arg[0] != '@' && (it = ir_symmap_get(&s->ctors, sym))) {
    for (int k = 0; k < it->data.nctors; k++)
      if (it->data.ctors[k].name == sym) fprintf(s->out, "%s : %s\n", name, ir_type_str(ty_ctor_scheme(s->module, &it->data.ctors[k])));
    put_doc(s, it->doc, "data");
  } else if (arg[0] != '@' && (it = ir_symmap_get(&s->datas, sym))) {
    IrBuf b;
    ir_buf_init(&b);
    ir_print_data_head(&b, &it->data);
    fprintf(s->out, "%s\n", b.data);
    put_doc(s, it->doc, it->data.external ? "extern type" : "data");
  } else if (op >= 0) {
    fprintf(s->out, "%s : %s\n", ir_ops[op].name, ir_type_str(ty_operator_scheme(s->module, op)));
    fprintf(s->out, "  an operator: docs/operators.md describes it; :info %s lists its attributes\n", ir_ops[op].name);
  } else if ((it = ir_symmap_get(&s->defs, sym))) {
    fprintf(s->out, "@%s : %s\n", name, ir_type_str(ty_global_type(s->module, sym)));
    put_doc(s, it->doc, "def");
  } else {
    say_unknown(s, arg);
    return false;
  }
  return true;
}

/* The newest definitions, with their types: the Prelude's or everything else's. */
static bool cmd_browse(Session *s, const char *arg, bool *quit) {
  (void)quit;
  bool prelude = !strcmp(arg, "prelude");
  if (*arg && !prelude) {
    fprintf(s->err, "<repl>: :browse takes nothing or `prelude`, not `%s`%s\n", arg,
            ir_sym_distance(arg, "prelude") <= 2 ? "; did you mean `prelude`?" : "");
    return false;
  }
  int shown = 0;
  for (int i = 0; i < s->items.len; i++) {
    const IrItem *it = s->items.items[i];
    bool from_prelude = it->span.src && !strcmp(it->span.src->name, "<prelude>");
    IrSymMap *newest = it->kind == IR_ITEM_DEF ? &s->defs : &s->datas;
    if (from_prelude != prelude || ir_symmap_get(newest, it->name) != it) continue;
    IrBuf b;
    ir_buf_init(&b);
    if (it->kind == IR_ITEM_DATA && !it->data.external) { /* `data List<a>`: an extern one is described whole */
      ir_print_data_head(&b, &it->data);
      ir_buf_putc(&b, '\n');
    }
    session_describe(s, it, NULL, &b);
    fprintf(s->out, "%s\n", b.data);
    shown++;
  }
  if (!shown) fprintf(s->out, "%s\n", prelude ? "(the Prelude is not loaded: --no-prelude)" : "(nothing defined yet; :browse prelude lists the Prelude)");
  return true;
}

/* Loads files as chunks, each running its top-level expressions; remembers them for :reload. A
 * file that cannot be opened is said once, and then none is loaded (not the ones before it,
 * whose output would bury the message). */
static bool load(Session *s, int n, const char **files, bool reload) {
  bool readable = true;
  for (int i = 0; i < n; i++) {
    FILE *f = fopen(files[i], "rb");
    if (f) fclose(f);
    else fprintf(s->err, "relay: cannot read %s: %s\n", files[i], session_read_error(errno)), readable = false;
  }
  if (!readable) {
    if (n > 1) fprintf(s->err, "<repl>: so none of the %d files was loaded\n", n);
    return false;
  }
  return session_load_files(s, n, files, reload);
}

/* A file name with a leading `~` expanded as a shell does (`~/x.rly` in $HOME, `~user/x.rly` in
 * that user's home), as GHCi's :load does; NULL after saying why when there is no such user
 * (`cannot` begins the message: "relay: cannot read"). */
static const char *expand_home(Session *s, const char *name, const char *cannot) {
  if (name[0] != '~') return name;
  size_t n = strcspn(name + 1, "/");
  const char *home = NULL;
  if (n == 0) {
    home = getenv("HOME");
    struct passwd *pw = home && *home ? NULL : getpwuid(getuid());
    if (pw) home = pw->pw_dir;
  } else {
    const char *user = ir_strndup(name + 1, n);
    struct passwd *pw = getpwnam(user);
    if (!pw) {
      fprintf(s->err, "%s %s: no user is named `%s`\n", cannot, name, user);
      return NULL;
    }
    home = pw->pw_dir;
  }
  return home ? ir_printf("%s%s", home, name + 1 + n) : name;
}

static bool cmd_load(Session *s, const char *arg, bool *quit) {
  (void)quit;
  IR_VEC(const char *) files = {0};
  const char *p = arg;
  while (*p) { /* names apart by spaces, or in double quotes (GHCi's :load "my file.hs") */
    bool quoted = *p == '"' && strchr(p + 1, '"');
    size_t len = quoted ? (size_t)(strchr(p + 1, '"') - p - 1) : strcspn(p, " \t\n");
    const char *name = expand_home(s, ir_strndup(p + quoted, len), "relay: cannot read");
    if (!name) return false;
    IR_VEC_PUSH(files, name);
    p += len + 2 * quoted;
    p += strspn(p, " \t\n");
  }
  if (!files.len) {
    fputs("<repl>: :load takes one or more file names\n", s->err);
    return false;
  }
  s->loaded = files.items;
  s->nloaded = files.len;
  return load(s, files.len, files.items, false);
}

static bool cmd_reload(Session *s, const char *arg, bool *quit) {
  (void)arg, (void)quit;
  if (!s->nloaded) {
    fputs("<repl>: nothing to reload: :load a file first\n", s->err);
    return false;
  }
  return load(s, s->nloaded, s->loaded, true);
}

static bool cmd_set(Session *s, const char *arg, bool *quit) {
  (void)quit;
  if (!strcmp(arg, "timing on") || !strcmp(arg, "timing off")) {
    s->timing = !strcmp(arg, "timing on");
    fprintf(s->out, "timing: %s\n", s->timing ? "on" : "off");
    return true;
  }
  static const char *const lists[] = {[RT_LISTS_AUTO] = "lists auto", [RT_LISTS_SUGAR] = "lists sugar",
                                      [RT_LISTS_CONSTRUCTORS] = "lists constructors"};
  for (int i = 0; i < (int)(sizeof lists / sizeof *lists); i++)
    if (!strcmp(arg, lists[i])) {
      s->lists = (RtListStyle)i;
      return true;
    }
  fprintf(s->err, "<repl>: :set knows `timing on|off` and `lists auto|sugar|constructors`, not `%s`\n", arg);
  return false;
}

/* ---------------------------------------------------------------- :trace */

/* Whether word is a variable (`%x`), after saying that `command` takes globals (`what`): what the
 * variable is (a session binding, with its type: `%it` or one bound at the prompt), or that there is
 * none of that name (the prompt has no local variables). */
static bool variable(Session *s, const char *word, const char *command, const char *what) {
  if (word[0] != '%') return false;
  const IrTDef *def = ty_binding(s->module, ir_sym(word + 1));
  if (!def) {
    fprintf(s->err, "<repl>: no binding is named `%s`: %s %s global functions (@name)\n", word, command, what);
    return true;
  }
  bool fn = def->scheme->kind == IR_TYPE_FUNC && !strcmp(command, ":trace");
  fprintf(s->err, "<repl>: `%s` is a session binding (%s), of type %s: %s %s global functions (@name)%s\n", word,
          def->item->kind == IR_ITEM_LET ? "bound at the prompt" : "the value of the last expression shown",
          ir_type_str(def->scheme), command, what,
          fn ? ir_printf("; to trace it, define it with `def @%s(...)`", word + 1) : "");
  return true;
}

/* The global that a :trace argument names (`@f`, or `f` when no constructor or operator has that
 * name), or NULL after saying why it cannot be traced. */
static const IrTDef *traceable(Session *s, const char *word) {
  if (variable(s, word, ":trace", "traces")) return NULL;
  const char *name = word[0] == '@' ? word + 1 : word;
  Sym sym = ir_sym(name);
  if (word[0] != '@' && ir_symmap_get(&s->ctors, sym)) {
    fprintf(s->err, "<repl>: `%s` is a constructor: :trace traces global functions (@name)\n", word);
    return NULL;
  }
  if (word[0] != '@' && ir_op_lookup(name, strlen(name)) >= 0) {
    fprintf(s->err, "<repl>: `%s` is an operator: :trace traces global functions (@name)\n", word);
    return NULL;
  }
  const IrTDef *def = ty_global_def(s->module, sym);
  if (!def) fprintf(s->err, "<repl>: nothing is named `@%s` (:browse lists the definitions)\n", name);
  return def;
}

/* Calls f on each word of arg; false if any call is. */
static bool each_word(Session *s, const char *arg, bool (*f)(Session *s, const char *word)) {
  bool ok = true;
  for (const char *p = arg; *p;) {
    size_t len = strcspn(p, " \t\n");
    ok &= f(s, ir_strndup(p, len));
    p += len;
    p += strspn(p, " \t\n");
  }
  return ok;
}

static bool trace_one(Session *s, const char *word) {
  const IrTDef *def = traceable(s, word);
  if (!def) return false;
  bool now = rt_trace(s->program, def, s->out);
  if (now) IR_VEC_PUSH(s->traced, def);
  fprintf(s->out, "@%s is %s traced.\n", def->name->name, now ? "now" : "already");
  return true;
}

/* Stops tracing every definition named as def is (a redefinition was traced with it). */
static bool untrace_name(Session *s, Sym name) {
  bool found = false;
  int kept = 0;
  for (int i = 0; i < s->traced.len; i++) {
    const IrTDef *d = s->traced.items[i];
    if (d->name == name) {
      rt_untrace(s->program, d);
      if (ty_global_def(s->module, name) != d) rt_forget(s->program, d); /* replaced: kept while traced */
      found = true;
    } else {
      s->traced.items[kept++] = d;
    }
  }
  s->traced.len = kept;
  return found;
}

static bool untrace_one(Session *s, const char *word) {
  if (variable(s, word, ":untrace", "stops tracing")) return false;
  const char *name = word[0] == '@' ? word + 1 : word;
  if (!untrace_name(s, ir_sym(name))) {
    fprintf(s->err, "<repl>: `@%s` is not traced (:trace lists what is)\n", name);
    return false;
  }
  fprintf(s->out, "@%s is no longer traced.\n", name);
  return true;
}

/* :trace @f... traces them; :trace alone lists the traced names. */
static bool cmd_trace(Session *s, const char *arg, bool *quit) {
  (void)quit;
  if (*arg) return each_word(s, arg, trace_one);
  IrBuf b;
  ir_buf_init(&b);
  IrSymMap listed = {0};
  for (int i = 0; i < s->traced.len; i++) {
    Sym name = s->traced.items[i]->name;
    if (ir_symmap_get(&listed, name)) continue;
    ir_symmap_put(&listed, name, (void *)name);
    ir_buf_printf(&b, "%s@%s", b.len ? ", " : "", name->name);
  }
  if (b.len) fprintf(s->out, "traced: %s\n", b.data);
  else fprintf(s->out, "%s\n", "nothing is traced (:trace @f traces @f)");
  return true;
}

/* :untrace @f... stops tracing them; :untrace alone, everything. */
static bool cmd_untrace(Session *s, const char *arg, bool *quit) {
  (void)quit;
  if (*arg) return each_word(s, arg, untrace_one);
  while (s->traced.len) {
    Sym name = s->traced.items[0]->name;
    untrace_name(s, name);
    fprintf(s->out, "@%s is no longer traced.\n", name->name);
  }
  return true;
}

/* :graph @f [FILE]: @f's dataflow graph as DOT on stdout, or drawn into FILE by Graphviz. */
static bool cmd_graph(Session *s, const char *arg, bool *quit) {
  (void)quit;
  size_t len = strcspn(arg, " \t");
  const char *word = ir_strndup(arg, len), *file = arg + len;
  file += strspn(file, " \t");
  if (strcspn(file, " \t") < strlen(file)) {
    fputs("<repl>: :graph takes @name and at most one file name\n", s->err);
    return false;
  }
  if (variable(s, word, ":graph", "draws")) return false;
  const char *name = word[0] == '@' ? word + 1 : word;
  Sym sym = ir_sym(name);
  if (word[0] != '@' && (ir_symmap_get(&s->ctors, sym) || ir_op_lookup(name, strlen(name)) >= 0)) {
    fprintf(s->err, "<repl>: `%s` is %s: :graph draws global functions (@name)\n", word,
            ir_symmap_get(&s->ctors, sym) ? "a constructor" : "an operator");
    return false;
  }
  const char *dot = repl_graph_dot(s, sym);
  if (!dot) return false;
  if (*file && !(file = expand_home(s, file, "<repl>: cannot write"))) return false;
  if (*file) return repl_graph_render(s, dot, file);
  fputs(dot, s->out);
  return true;
}

/* The session's bindings (`let %x = e` at the REPL, `%it`): `:show bindings`. */
static bool cmd_show(Session *s, const char *arg, bool *quit) {
  (void)quit;
  if (strcmp(arg, "bindings")) {
    fprintf(s->err, "<repl>: :show knows `bindings`, not `%s`\n", arg);
    return false;
  }
  IrBuf b;
  ir_buf_init(&b);
  session_show_bindings(s, &b);
  fprintf(s->out, "%s\n", b.len ? b.data : "(no bindings yet: `let %x = 1` at the prompt makes one, and each value shown is `%it`)");
  return true;
}

static const Command commands[] = {
    {":type", ":t", "EXPR", "the type of an expression", cmd_type},
    {":kind", ":k", "TYPE", "the kind of a type (Type, BaseType, Shape, ...)", cmd_kind},
    {":annot", ":a", "EXPR|@name", "an expression or a definition (@name, or def ... written out) with the type of every binding and call", cmd_annot},
    {":explain", NULL, "[REL(TYPES)]", "the last type error step by step, or a relation such as Broadcast(...)", cmd_explain},
    {":info", ":i", "NAME", "what a name is: a global (its type, where defined), a data type, an operator, a built-in type", cmd_info},
    {":doc", ":d", "NAME", "the comment written above a definition or data type, with its type", cmd_doc},
    {":browse", ":b", "[prelude]", "the definitions made so far (or the Prelude's) with their types", cmd_browse},
    {":load", ":l", "FILE...", "load files: their definitions, then their expressions' values", cmd_load},
    {":reload", ":r", "", "load the files of the last :load again, replacing what they defined", cmd_reload},
    {":show", NULL, "bindings", "the values bound by `let %x = ...` at the prompt, and `%it`", cmd_show},
    {":set", NULL, "timing on|off, lists auto|sugar|constructors",
     "time each evaluation; show lists as List[...] (auto: from 5 elements)", cmd_set},
    {":trace", NULL, "[@name...]", "show each call of these globals with its value (alone: list them)", cmd_trace},
    {":untrace", NULL, "[@name...]", "stop tracing these globals (alone: all)", cmd_untrace},
    {":graph", NULL, "@name [FILE.svg]", "a tensor function's dataflow graph as Graphviz DOT (or drawn as SVG)", cmd_graph},
    {":help", ":h", "", "this list (also :?)", cmd_help},
    {":quit", ":q", "", "leave (Ctrl-D on an empty line too)", cmd_quit},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static bool cmd_help(Session *s, const char *arg, bool *quit) {
  (void)s, (void)arg, (void)quit;
  fprintf(s->out, "%s\n", "Enter definitions (def, data, type) and expressions; an input continues on `...` lines\n"
       "while brackets are open or a definition is incomplete (a blank line ends it with its error;\n"
       "Ctrl-D on a `...` line cancels it), or between :{ and :} lines.\n"
       "After an expression relay shows `- : TYPE = VALUE` (and `%it` is that value), after a\n"
       "definition `@name : TYPE`; `let %x = EXPR` alone on its line binds `%x` for later inputs.\n"
       "Ctrl-C interrupts an evaluation; Ctrl-D leaves. Commands (each may be shortened):");
  for (int i = 0; i < NCOMMANDS; i++) {
    const Command *c = &commands[i];
    const char *head = ir_printf("%s%s%s %s", c->name, c->alias ? ", " : "", c->alias ? c->alias : "", c->arg);
    fprintf(s->out, "  %-24s %s\n", head, c->help);
  }
  return true;
}

/* ---------------------------------------------------------------- dispatch */

/* An unknown command: the one it is a typo of (one edit away), else the list of them all. */
static void unknown_command(Session *s, const char *word) {
  const char *close = NULL;
  for (int i = 0; i < NCOMMANDS && !close; i++)
    if (ir_sym_distance(word, commands[i].name) <= 1) close = commands[i].name;
  if (close) {
    fprintf(s->err, "<repl>: unknown command `%s`; did you mean %s? (:help lists them)\n", word, close);
    return;
  }
  IrBuf names;
  ir_buf_init(&names);
  for (int i = 0; i < NCOMMANDS; i++) ir_buf_printf(&names, " %s", commands[i].name);
  fprintf(s->err, "<repl>: unknown command `%s`; the commands are%s (:help says what each does)\n", word, names.data);
}

const char *repl_command_names(int i) { return i < NCOMMANDS ? commands[i].name : NULL; }

const char *repl_command_help(int i) {
  const Command *c = &commands[i];
  return ir_printf("%s%s%s", c->arg, *c->arg ? ": " : "", c->help);
}

/* relay --serve --sandbox: a command that reads or writes a file is refused, with what to do
 * instead (a new command that touches files joins this test). */
static bool refused_in_sandbox(Session *s, const Command *c, const char *arg) {
  if (c->run == cmd_load || c->run == cmd_reload) {
    fprintf(s->err, "<repl>: %s cannot read files here: the session is sandboxed (relay --serve --sandbox); write the "
            "definitions in the input instead\n", c->name);
    return true;
  }
  if (c->run == cmd_graph && arg[strcspn(arg, " \t")]) { /* a file name after @name */
    fputs("<repl>: :graph cannot write files here: the session is sandboxed (relay --serve --sandbox); :graph @f "
          "without a file name gives the DOT text\n", s->err);
    return true;
  }
  return false;
}

bool repl_command(Session *s, const char *line, bool *quit) {
  size_t len = strcspn(line, " \t\n");
  const char *word = ir_strndup(line, len);
  const char *arg = line + len;
  arg += strspn(arg, " \t\n");
  char *a = ir_strdup(arg);
  for (size_t n = strlen(a); n > 0 && strchr(" \t\n", a[n - 1]); n--) a[n - 1] = '\0';
  if (!strcmp(word, ":?")) word = ":help";
  const Command *found = NULL;
  for (int i = 0; i < NCOMMANDS && !found; i++)
    if (!strcmp(word, commands[i].name) || (commands[i].alias && !strcmp(word, commands[i].alias))) found = &commands[i];
  for (int i = 0; i < NCOMMANDS && !found && len > 2; i++) /* a longer prefix: :bro, :rel */
    if (!strncmp(commands[i].name, word, len)) found = &commands[i];
  if (!found) {
    unknown_command(s, word);
    return false;
  }
  if (s->sandbox && refused_in_sandbox(s, found, a)) return false;
  if (*found->arg && found->arg[0] != '[' && !*a) {
    fprintf(s->err, "<repl>: %s takes %s\n", found->name, found->arg);
    return false;
  }
  return found->run(s, a, quit);
}
