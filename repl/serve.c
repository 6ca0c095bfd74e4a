/* relay --serve (docs/serve.md): one JSON request per line on stdin, one JSON response per line on
 * stdout, over one session. A reader thread takes the lines, so that an `interrupt` can stop the
 * request being answered; this thread (the evaluation thread, which takes SIGINT) answers every
 * other request in order. What the session prints goes to file descriptors 1 and 2, which here
 * are files in memory: each answer drains them into its items, so that stdout carries nothing
 * but responses. */
#include "repl/serve.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "repl/commands.h"
#include "repl/complete.h"
#include "repl/input.h"

enum {
  MAX_REQUEST_DEPTH = 64,      /* a request nests no deeper (they nest two levels) */
  MAX_ELEMENTS = 10000,        /* a tensor value's elements in a response, unless asked otherwise */
  MAX_CAPTURED = 1 << 20,      /* bytes of printed text kept in one item (a long :trace) */
};

/* A line read, waiting for its answer (malloc'd: the reader thread hands it over). */
typedef struct Line {
  char *text;
  size_t len;
  struct Line *next;
} Line;

typedef struct Server {
  Session *s;
  bool prelude;
  bool sandbox;     /* --sandbox: the session's commands touch no file */
  double timeout_s; /* --timeout: a request's time limit in seconds, 0 for none */
  /* ---- shared with the reader thread, under `lock` */
  pthread_mutex_t lock;
  pthread_cond_t more;
  Line *head, *tail;
  bool eof;
  bool running; /* a request is being answered: an interrupt goes to `worker` */
  pthread_t worker;
  /* the time limit: the watchdog thread waits on `tick` for a request to start, then for it to end
   * or its time to pass; past it, the request is interrupted as an `interrupt` request does */
  pthread_cond_t tick;
  unsigned serial;        /* the requests started so far */
  struct timespec began;  /* when the running one started (CLOCK_MONOTONIC) */
  bool timing;            /* its method runs: past its time the watchdog interrupts it */
  bool timed_out;         /* the watchdog interrupted it */
  /* ---- responses: the real stdout, written a whole line at a time under `write_lock` */
  pthread_mutex_t write_lock;
  int out;
  bool broken; /* stdout could not be written: the client has gone */
  /* ---- what the session prints: fds 1 and 2 point into these files in memory */
  int printed, errors;
} Server;

/* ---------------------------------------------------------------- writing responses */

/* Writes a response line (a newline is added), whole, under the lock. */
static void send_line(Server *sv, const IrBuf *b) {
  pthread_mutex_lock(&sv->write_lock);
  const char *p = b->data;
  size_t left = b->len;
  bool ok = true;
  while (ok && left) {
    ssize_t n = write(sv->out, p, left);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    p += ok ? n : 0;
    left -= ok ? (size_t)n : 0;
  }
  while (ok && write(sv->out, "\n", 1) < 0 && errno == EINTR) {}
  if (!ok) sv->broken = true;
  pthread_mutex_unlock(&sv->write_lock);
}

static void put_str(IrBuf *b, const char *s) { ir_json_put_string(b, s, strlen(s)); }

/* `"key":"value",` pieces of an object being written. */
static void put_member(IrBuf *b, const char *key, const char *value) {
  ir_buf_printf(b, ",\"%s\":", key);
  put_str(b, value);
}

/* An error response (docs/serve.md lists the codes). */
static void error_line(IrBuf *b, const IrJson *id, int code, const char *message) {
  ir_buf_init(b);
  ir_buf_puts(b, "{\"id\":");
  ir_json_put(b, id);
  ir_buf_printf(b, ",\"error\":{\"code\":%d,\"message\":", code);
  put_str(b, message);
  ir_buf_puts(b, "}}");
}

/* ---------------------------------------------------------------- a request's answer */

/* Where a REPL input of an eval's text starts: its number and its first line in the text. */
typedef struct InputStart {
  int input, line;
} InputStart;

/* The answer being made: the result's members, its items, and the sink the session reports to. */
typedef struct Reply {
  SessionSink sink; /* first: the session's callbacks get it back as the Reply */
  Server *sv;
  IrBuf items;  /* the items written so far, comma-separated */
  IrBuf item;   /* the item being written: it joins items whole (memory may run out halfway) */
  size_t max_elements;
  /* eval: where each REPL input of the request's text starts, so that a diagnostic placed in one
   * also gets its line in the text (a notebook cell's line) */
  IR_VEC(InputStart) starts;
  bool quit; /* eval ran :quit: relay ends after the response */
  bool stop_said; /* the time limit's message is among the items */
} Reply;

/* Starts an item; its members go into the buffer returned, and item_end closes it and adds it. */
static IrBuf *item_begin(Reply *r, const char *kind) {
  ir_buf_init(&r->item);
  ir_buf_printf(&r->item, "%s{\"kind\":\"%s\"", r->items.len ? "," : "", kind);
  return &r->item;
}

static void item_end(Reply *r) {
  ir_buf_putc(&r->item, '}');
  ir_buf_putn(&r->items, r->item.data, r->item.len); /* all of it or, memory running out, none */
}

/* What was printed into fd since the last look, at most MAX_CAPTURED bytes of it (the rest
 * counted), or NULL when nothing was; the file is emptied. */
static const char *take_printed(int fd) {
  off_t size = lseek(fd, 0, SEEK_END);
  if (size <= 0) return NULL;
  size_t keep = (size_t)size < MAX_CAPTURED ? (size_t)size : MAX_CAPTURED;
  char *text = ir_alloc_atomic(keep + 64);
  size_t got = 0;
  while (got < keep) {
    ssize_t n = pread(fd, text + got, keep - got, (off_t)got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  if ((size_t)size > got) snprintf(text + got, 64, "\n... (%lld more bytes)\n", (long long)((size_t)size - got));
  else text[got] = '\0';
  if (ftruncate(fd, 0) != 0) {} /* a file in memory: nothing to do if it fails */
  return text;
}

static bool timed_out(Server *sv) {
  pthread_mutex_lock(&sv->lock);
  bool t = sv->timed_out;
  pthread_mutex_unlock(&sv->lock);
  return t;
}

/* What a request stopped at its time limit says, in the place of "Interrupted.". */
static const char *stop_message(const Server *sv) {
  return ir_printf("Stopped: the request ran longer than its time limit of %g s (relay --serve --timeout %g); the "
                   "session goes on.\n",
                   sv->timeout_s, sv->timeout_s);
}

/* What the session printed since the last item becomes an item of its own, before the next. */
static void drain(Reply *r) {
  fflush(stdout);
  fflush(stderr);
  const char *out = take_printed(r->sv->printed), *err = take_printed(r->sv->errors);
  size_t n = err ? strlen(err) : 0, k = strlen("Interrupted.\n");
  if (n >= k && !strcmp(err + n - k, "Interrupted.\n") && (n == k || err[n - k - 1] == '\n') && timed_out(r->sv)) {
    err = ir_printf("%.*s%s", (int)(n - k), err, stop_message(r->sv)); /* the session's word for it, made exact */
    r->stop_said = true;
  }
  if (out) {
    put_member(item_begin(r, "output"), "text", out);
    item_end(r);
  }
  if (err) {
    put_member(item_begin(r, "stderr"), "text", err);
    item_end(r);
  }
}

/* Where a span ends: its last line and the column after its last character (code points). */
static void span_end(IrSpan sp, uint32_t *line, uint32_t *col) {
  *line = sp.line;
  *col = sp.col;
  const char *t = sp.src->text;
  for (uint32_t i = sp.off; i < sp.off + sp.len && i < sp.src->len; i++) {
    if (t[i] == '\n') {
      ++*line;
      *col = 1;
    } else if (((unsigned char)t[i] & 0xc0) != 0x80) {
      ++*col;
    }
  }
}

/* input: the REPL input the diagnostics are about (IrDiags.input), as the terminal's rendering takes it. */
static void put_diag(Reply *r, const IrDiag *d, int input) {
  IrBuf *b = item_begin(r, "diagnostic");
  ir_buf_puts(b, ",\"diagnostic\":{\"kind\":");
  put_str(b, ir_diag_kind_name(d->kind));
  const char *severity = d->kind == IR_DIAG_WARNING ? "warning" : d->kind == IR_DIAG_HOLE ? "hole" : "error";
  put_member(b, "severity", severity);
  put_member(b, "message", d->message);
  const IrSpan sp = d->span;
  if (sp.src) {
    uint32_t line, col;
    span_end(sp, &line, &col);
    put_member(b, "file", sp.src->name);
    ir_buf_printf(b, ",\"line\":%u,\"column\":%u,\"end_line\":%u,\"end_column\":%u", sp.line, sp.col, line, col);
    if (input && sp.src->input && sp.src->input != input) ir_buf_printf(b, ",\"input\":%d", sp.src->input);
    for (int i = 0; sp.src->input && i < r->starts.len; i++)
      if (r->starts.items[i].input == sp.src->input)
        ir_buf_printf(b, ",\"text_line\":%u", (unsigned)r->starts.items[i].line + sp.line - 1);
  }
  ir_buf_puts(b, ",\"notes\":[");
  const char *hint = NULL;
  int shown = 0;
  for (int i = 0; i < d->notes.len; i++) {
    const char *note = d->notes.items[i];
    if (!strncmp(note, "hint: ", 6) && !hint) {
      hint = note + 6;
      continue;
    }
    if (shown++) ir_buf_putc(b, ',');
    put_str(b, note);
  }
  ir_buf_putc(b, ']');
  if (hint) put_member(b, "hint", hint);
  IrBuf text;
  ir_buf_init(&text);
  ir_diag_render(&text, d, input);
  put_member(b, "rendered", text.data);
  ir_buf_putc(b, '}');
  item_end(r);
}

static void on_diags(SessionSink *sink, const IrDiags *ds) {
  Reply *r = (Reply *)sink;
  drain(r);
  for (const IrDiag *d = ds->first; d; d = d->next) put_diag(r, d, ds->input);
}

static void on_value(SessionSink *sink, const IrTItem *it, RtValue v, const char *timing) {
  Reply *r = (Reply *)sink;
  drain(r);
  bool binding = it->src->kind == IR_ITEM_LET;
  IrBuf *b = item_begin(r, binding ? "binding" : "value");
  if (binding) put_member(b, "name", ir_printf("%%%s", it->def->name->name));
  put_member(b, "type", ir_type_str(it->type));
  IrBuf text;
  ir_buf_init(&text);
  rt_print_display(&text, v, r->sv->s->lists);
  put_member(b, "text", text.data);
  ir_buf_puts(b, ",\"value\":");
  rt_print_json(b, v, r->max_elements);
  if (timing) put_member(b, "timing", timing);
  item_end(r);
}

/* A definition or data declaration, as loaded (eval) or only checked (check): its types are the
 * checked item's. */
static void put_definition(Reply *r, const IrTItem *it) {
  if (it->src->kind == IR_ITEM_DATA) {
    const IrData *d = &it->src->data;
    IrBuf *b = item_begin(r, "data");
    put_member(b, "name", d->name->name);
    ir_buf_puts(b, ",\"constructors\":[");
    for (int k = 0; k < d->nctors; k++) {
      ir_buf_puts(b, k ? ",{\"name\":" : "{\"name\":");
      put_str(b, d->ctors[k].name->name);
      put_member(b, "type", ir_type_str(it->ctors[k].scheme));
      ir_buf_putc(b, '}');
    }
    ir_buf_putc(b, ']');
    item_end(r);
  } else if (it->src->kind == IR_ITEM_DEF) {
    IrBuf *b = item_begin(r, "definition");
    put_member(b, "name", ir_printf("@%s", it->def->name->name));
    put_member(b, "type", ir_type_str(it->def->scheme));
    item_end(r);
  }
}

static void on_definition(SessionSink *sink, const IrTItem *it) {
  Reply *r = (Reply *)sink;
  drain(r);
  put_definition(r, it);
}

/* ---------------------------------------------------------------- parameters */

/* params.key as a string; false (with the reason in *why) when it is missing or not a string. */
static bool text_param(const IrJson *params, const char *key, const char **text, size_t *len, const char **why) {
  const IrJson *v = params ? ir_json_get(params, key) : NULL;
  if (!v || v->kind != IR_JSON_STRING) {
    *why = ir_printf("params.%s must be a string%s", key, v ? ir_printf(", not %s", ir_json_kind_name(v->kind)) : "");
    return false;
  }
  *text = v->s;
  *len = v->len;
  return true;
}

/* params.key as a whole number from lo to hi; absent: *out is left as it is (when optional). */
static bool int_param(const IrJson *params, const char *key, long lo, long hi, bool optional, long *out,
                      const char **why) {
  const IrJson *v = params ? ir_json_get(params, key) : NULL;
  if (!v && optional) return true;
  char *end = NULL;
  long n = v && v->kind == IR_JSON_NUMBER && v->integer ? strtol(v->s, &end, 10) : 0;
  if (!v || v->kind != IR_JSON_NUMBER || !v->integer || end != v->s + v->len || n < lo || n > hi) {
    *why = ir_printf("params.%s must be a whole number from %ld to %ld", key, lo, hi);
    return false;
  }
  *out = n;
  return true;
}

/* ---------------------------------------------------------------- the methods */

/* Each method writes its result's members (after `"ok":...` or on their own) into res, or returns
 * why the parameters are wrong (a -32602 error). */
typedef const char *Method(Server *sv, Reply *r, const IrJson *params, IrBuf *res);

/* eval: the text's lines taken as typed at the prompt (input.c). */
static const char *method_eval(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  const char *text, *why;
  size_t len;
  long max = MAX_ELEMENTS;
  if (!text_param(params, "text", &text, &len, &why)) return why;
  if (!int_param(params, "max_elements", 0, 1L << 30, true, &max, &why)) return why;
  r->max_elements = (size_t)max;
  Session *s = sv->s;
  s->failed = false;
  ReplInput in;
  repl_input_init(&in, false);
  unsigned interrupts = rt_interrupt_count();
  int line = 1;
  for (const char *p = text, *end = text + len; p <= end && !in.quit && rt_interrupt_count() == interrupts; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    size_t n = (size_t)(stop - p);
    if (n && p[n - 1] == '\r') n--;
    size_t lead = strspn(p, " \t");
    bool bracket = lead + 2 <= n && p[lead] == ':' && (p[lead + 1] == '{' || p[lead + 1] == '}') && lead + 2 == n;
    if (in.text.len == 0 && !bracket && (in.block || lead < n)) /* the first line of an input's text */
      IR_VEC_PUSH(r->starts, ((InputStart){s->input, line}));
    if (n || nl) repl_input_line(s, &in, p, n);
    if (!nl) break;
    p = nl + 1;
  }
  if (!in.quit && rt_interrupt_count() == interrupts) repl_input_end(s, &in); /* an interrupt stops the rest */
  ir_buf_printf(res, "\"ok\":%s", s->failed ? "false" : "true");
  if (in.quit) ir_buf_puts(res, ",\"quit\":true");
  r->quit = in.quit;
  return NULL;
}

/* Parses and checks text against the session, which stays as it was: as a file's contents, or
 * (params.mode "repl") as REPL inputs are read, the session's bindings in scope and `let %x = e`
 * alone on a line a binding, its `:` command lines left out. *prog is the parse (or NULL); the typed
 * program is returned, NULL on an error or when params are wrong (*why says how). */
static IrTProgram *check_text(Server *sv, const IrJson *params, const char *text, size_t len, const IrProgram **prog,
                              const char **why) {
  const IrJson *name = params ? ir_json_get(params, "name") : NULL, *mode = params ? ir_json_get(params, "mode") : NULL;
  *prog = NULL;
  if (mode && (mode->kind != IR_JSON_STRING || (strcmp(mode->s, "file") && strcmp(mode->s, "repl")))) {
    *why = "params.mode must be \"file\" or \"repl\"";
    return NULL;
  }
  if (name && name->kind != IR_JSON_STRING) {
    *why = ir_printf("params.name must be a string, not %s", ir_json_kind_name(name->kind));
    return NULL;
  }
  bool repl = mode && !strcmp(mode->s, "repl");
  if (repl) { /* commands and block brackets become blank lines: the places of the rest stay */
    char *copy = ir_strndup(text, len);
    for (size_t i = 0; i < len;) {
      size_t end = i;
      while (end < len && copy[end] != '\n') end++;
      size_t lead = i + strspn(copy + i, " \t");
      if (lead < end && copy[lead] == ':') memset(copy + lead, ' ', end - lead);
      i = end + 1;
    }
    text = copy;
  }
  IrSource *src = ir_source_new(name ? name->s : repl ? "<repl>" : "<text>", text, len);
  IrDiags diags = {0};
  sv->s->parse.session_lets = repl;
  IrParseResult p = ir_parse_program(src, &sv->s->parse, &diags);
  sv->s->parse.session_lets = false;
  const IrProgram *checked = p.program ? p.program : p.partial; /* with parse errors, what parsed: every error */
  IrTProgram *tp = checked ? ty_check_program(sv->s->module, checked, &diags) : NULL;
  if (!p.program) tp = NULL;
  session_report(sv->s, &diags);
  *prog = checked;
  *why = NULL;
  return tp;
}

static const char *method_check(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  const char *text, *why;
  size_t len;
  if (!text_param(params, "text", &text, &len, &why)) return why;
  const IrProgram *prog;
  IrTProgram *tp = check_text(sv, params, text, len, &prog, &why);
  if (why) return why;
  for (int i = 0; tp && i < tp->nitems; i++) {
    const IrTItem *it = &tp->items[i];
    if (it->src->kind == IR_ITEM_EXPR) {
      put_member(item_begin(r, "expression"), "type", ir_type_str(it->type));
      item_end(r);
    } else if (it->src->kind == IR_ITEM_LET) {
      IrBuf *b = item_begin(r, "binding");
      put_member(b, "name", ir_printf("%%%s", it->def->name->name));
      put_member(b, "type", ir_type_str(it->type));
      item_end(r);
    } else {
      put_definition(r, it);
    }
  }
  ir_buf_printf(res, "\"ok\":%s", tp ? "true" : "false");
  return NULL;
}

static const char *method_type(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  (void)r;
  const char *text, *why;
  size_t len;
  if (!text_param(params, "text", &text, &len, &why)) return why;
  IrDiags diags = {0};
  const IrExpr *e;
  TyExplored x;
  session_explore_expression(sv->s, "<repl>", text, &e, &x, &diags);
  session_report(sv->s, &diags);
  ir_buf_printf(res, "\"ok\":%s,\"type\":", x.fn ? "true" : "false");
  if (x.fn) put_str(res, ir_type_str(x.type));
  else ir_buf_puts(res, "null");
  const char *where = x.fn ? ty_call_substitution(x.fn) : NULL;
  if (where) put_member(res, "where", where);
  return NULL;
}

/* The byte offset of (line, column) in text (both from 1, columns in code points), or -1 when
 * the text has no such place (the end of a line counts). */
static long offset_of(const char *text, size_t len, long line, long column) {
  size_t i = 0;
  for (long l = 1; l < line; l++) {
    const char *nl = memchr(text + i, '\n', len - i);
    if (!nl) return -1;
    i = (size_t)(nl - text) + 1;
  }
  for (long c = 1; c < column; c++) {
    if (i >= len || text[i] == '\n') return -1;
    i++;
    while (i < len && ((unsigned char)text[i] & 0xc0) == 0x80) i++;
  }
  return (long)i;
}

/* A binder (a let's variable, a function's parameter) whose name is at the place, with the type the
 * checker found for it: the let's value's, or the function type's parameter. */
typedef struct {
  IrSpan at;
  const IrPtrMap *types;
  IrSpan span;
  const IrType *type;
} BinderAt;

static bool within(IrSpan outer, IrSpan at) { return outer.src == at.src && at.off >= outer.off && at.off < outer.off + outer.len; }

static void binder_at(const IrExpr *e, void *env) {
  BinderAt *b = env;
  for (; e->kind == IR_EXPR_LET; e = e->u.let.body) {
    if (within(e->u.let.var.span, b->at)) {
      b->span = e->u.let.var.span;
      b->type = ir_ptrmap_get(b->types, e->u.let.value);
    }
    binder_at(e->u.let.value, b);
  }
  if (e->kind == IR_EXPR_FN) {
    const IrType *t = ir_ptrmap_get(b->types, e);
    for (int i = 0; i < e->u.fn.nparams; i++)
      if (within(e->u.fn.params[i].span, b->at)) {
        b->span = e->u.fn.params[i].span;
        b->type = t && t->kind == IR_TYPE_FUNC && i < t->u.func.nargs ? t->u.func.args[i] : NULL;
      }
  }
  ir_expr_each_child(e, binder_at, b);
}

static const char *method_type_at(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  (void)r;
  const char *text, *why;
  size_t len;
  long line = 0, column = 0;
  if (!text_param(params, "text", &text, &len, &why)) return why;
  if (!int_param(params, "line", 1, 1L << 30, false, &line, &why)) return why;
  if (!int_param(params, "column", 1, 1L << 30, false, &column, &why)) return why;
  const IrProgram *prog;
  IrTProgram *tp = check_text(sv, params, text, len, &prog, &why);
  if (why) return why;
  IrPtrMap *types = NULL;
  if (tp) {
    types = IR_NEW(IrPtrMap);
    for (int i = 0; i < tp->nitems; i++) {
      const IrTItem *it = &tp->items[i];
      if (it->def && it->def->fn) {
        ir_texpr_types(types, it->def->fn->body);
        ir_ptrmap_put(types, it->src->fn, it->def->scheme);
      } else if (it->expr) {
        ir_texpr_types(types, it->expr->body);
      }
    }
  } else if (prog) {
    types = ty_partial_types(sv->s->module, prog); /* the types found before the error */
  }
  ir_buf_printf(res, "\"ok\":%s", tp ? "true" : "false");
  long off = offset_of(text, len, line, column);
  const void *node = NULL;
  const IrType *type = NULL;
  IrSpan span = {0};
  for (int i = 0; types && off >= 0 && i < prog->nitems && !node; i++) {
    const IrItem *it = &prog->items[i];
    const IrExpr *root = it->kind == IR_ITEM_DEF ? it->fn : it->kind == IR_ITEM_EXPR || it->kind == IR_ITEM_LET ? it->expr : NULL;
    if (!root || !root->span.src) continue;
    bool on_char = (size_t)off < len && text[off] != '\n'; /* the character at the place, or the end of its line */
    IrSpan at = {root->span.src, (uint32_t)off, on_char ? 1 : 0, 0, 0};
    BinderAt b = {at, types, {0}, NULL};
    binder_at(root, &b);
    if (b.span.src) {
      node = root, span = b.span, type = b.type;
      break;
    }
    node = ir_expr_node_at(root, at, &span);
    if (node) type = ir_ptrmap_get(types, node);
  }
  ir_buf_puts(res, ",\"type\":");
  if (type) put_str(res, ir_type_str(type));
  else ir_buf_puts(res, "null");
  if (node && span.src) {
    uint32_t l, c;
    span_end(span, &l, &c);
    ir_buf_printf(res, ",\"span\":{\"line\":%u,\"column\":%u,\"end_line\":%u,\"end_column\":%u},\"expression\":", span.line,
                  span.col, l, c);
    ir_json_put_string(res, span.src->text + span.off, span.len);
  }
  return NULL;
}

static const char *method_complete(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  (void)r;
  const char *prefix, *why;
  size_t len;
  if (!text_param(params, "prefix", &prefix, &len, &why)) return why;
  ReplCandidate *c;
  int n = repl_complete(sv->s, prefix, &c);
  ir_buf_puts(res, "\"candidates\":[");
  for (int i = 0; i < n; i++) {
    ir_buf_puts(res, i ? ",{\"name\":" : "{\"name\":");
    put_str(res, c[i].name);
    put_member(res, "kind", repl_candidate_kind_name(c[i].kind));
    put_member(res, "type", repl_candidate_detail(sv->s, &c[i]));
    ir_buf_putc(res, '}');
  }
  ir_buf_putc(res, ']');
  return NULL;
}

/* annot, doc, graph: the REPL's command with the text as its argument; what it prints is `text`. */
static const char *run_command(Server *sv, Reply *r, const IrJson *params, IrBuf *res, const char *command) {
  const char *arg, *why;
  size_t len;
  if (!text_param(params, "text", &arg, &len, &why)) return why;
  if (memchr(arg, '\n', len)) return "params.text must be one line";
  drain(r);
  bool quit = false;
  bool ok = repl_command(sv->s, ir_printf("%s %s", command, arg), &quit);
  fflush(stdout);
  const char *printed = take_printed(sv->printed);
  drain(r); /* its messages */
  ir_buf_printf(res, "\"ok\":%s", ok ? "true" : "false");
  put_member(res, "text", printed ? printed : "");
  return NULL;
}

static const char *method_annot(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  return run_command(sv, r, params, res, ":annot");
}

static const char *method_doc(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  return run_command(sv, r, params, res, ":doc");
}

static const char *method_graph(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  return run_command(sv, r, params, res, ":graph");
}

/* An interrupt that reaches this thread came while nothing else ran (the reader answers the others). */
static const char *method_interrupt(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  (void)sv, (void)r, (void)params;
  ir_buf_puts(res, "\"interrupted\":false");
  return NULL;
}

static bool new_session(Server *sv) {
  SessionSink *sink = sv->s->sink;
  session_init(sv->s);
  sv->s->repl = true;
  sv->s->sandbox = sv->sandbox;
  sv->s->input = 1;
  bool ok = !sv->prelude || session_load_prelude(sv->s);
  sv->s->sink = sink;
  return ok;
}

static const char *method_reset(Server *sv, Reply *r, const IrJson *params, IrBuf *res) {
  (void)r, (void)params, (void)res;
  new_session(sv);
  return NULL;
}

static const struct {
  const char *name;
  Method *run;
} methods[] = {
    {"eval", method_eval},         {"check", method_check},   {"type", method_type},
    {"type_at", method_type_at},   {"complete", method_complete}, {"annot", method_annot},
    {"doc", method_doc},           {"graph", method_graph},   {"interrupt", method_interrupt},
    {"reset", method_reset},
};
enum { NMETHODS = sizeof methods / sizeof methods[0] };

/* ---------------------------------------------------------------- answering */

/* The column (code points, from 1) of byte off in a line, for a JSON error's place. */
static size_t column_of(const char *line, size_t off) {
  size_t col = 1;
  for (size_t i = 0; i < off; i++) col += ((unsigned char)line[i] & 0xc0) != 0x80;
  return col;
}

/* A request's members (docs/serve.md): method a string, params an object or NULL, id any value. */
typedef struct Request {
  const IrJson *id, *method, *params;
} Request;

/* Reads the request a line holds into *req; false with the error response (a -32700 or -32600)
 * in *out. req->id is set as soon as it is known, for the answer to an error after it. */
static bool read_request(const char *line, size_t len, Request *req, IrBuf *out) {
  IrJsonError err;
  const IrJson *v = ir_json_parse(line, len, MAX_REQUEST_DEPTH, &err);
  if (!v && err.cut_short) { /* the place is where the text ends; the message says where what it ends inside starts */
    const char *opened = err.off < len ? ir_printf(" (it starts at column %zu%s)", column_of(line, err.off),
                                                   strstr(err.message, "inside a string") ? "; a newline in a string is written \\n" : "")
                                       : "";
    error_line(out, NULL, -32700, ir_printf("the line is not JSON: column %zu: %s%s", column_of(line, len), err.message, opened));
    return false;
  }
  if (!v) {
    error_line(out, NULL, -32700, ir_printf("the line is not JSON: column %zu: %s", column_of(line, err.off), err.message));
    return false;
  }
  if (v->kind != IR_JSON_OBJECT) {
    error_line(out, NULL, -32600, ir_printf("a request is a JSON object, not %s", ir_json_kind_name(v->kind)));
    return false;
  }
  *req = (Request){ir_json_get(v, "id"), ir_json_get(v, "method"), ir_json_get(v, "params")};
  if (!req->method || req->method->kind != IR_JSON_STRING) {
    error_line(out, req->id, -32600, "a request needs \"method\", a string");
    return false;
  }
  if (req->params && req->params->kind != IR_JSON_OBJECT) {
    error_line(out, req->id, -32600, ir_printf("\"params\" must be an object, not %s", ir_json_kind_name(req->params->kind)));
    return false;
  }
  return true;
}

/* Answers one line: its response goes to *out; false when the session asked to quit. */
static bool answer(Server *sv, const char *line, size_t len, IrBuf *out) {
  Request *volatile req = NULL; /* volatile: set after the setjmp, its id read after the longjmp */
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    sv->s->sink = NULL;
    sv->s->parse.session_lets = false; /* check_text's, if memory ran out while it parsed */
    GC_gcollect();
    error_line(out, req ? req->id : NULL, -32603,
               ir_printf("relay ran out of memory taking the request (a request for %zu bytes); the session goes on",
                         trap.bytes));
    return true;
  }
  req = IR_NEW(Request);
  if (!read_request(line, len, req, out)) {
    ir_trap_pop(&trap);
    return true;
  }
  const IrJson *id = req->id;
  int m = 0;
  while (m < NMETHODS && strcmp(methods[m].name, req->method->s)) m++;
  if (m == NMETHODS) {
    IrBuf names;
    ir_buf_init(&names);
    for (int i = 0; i < NMETHODS; i++) ir_buf_printf(&names, "%s%s", i ? ", " : "", methods[i].name);
    error_line(out, id, -32601, ir_printf("unknown method `%s`; the methods are %s", req->method->s, names.data));
    ir_trap_pop(&trap);
    return true;
  }
  Reply r = {.sink = {on_diags, on_value, on_definition}, .sv = sv, .max_elements = MAX_ELEMENTS};
  ir_buf_init(&r.items);
  IrBuf res;
  ir_buf_init(&res);
  sv->s->sink = &r.sink;
  unsigned interrupts = rt_interrupt_count();
  fflush(stdout);
  fflush(stderr);
  take_printed(sv->printed); /* anything printed between requests is not this one's */
  take_printed(sv->errors);
  const char *bad = methods[m].run(sv, &r, req->params, &res);
  pthread_mutex_lock(&sv->lock);
  sv->timing = false; /* its work is done: the time limit cannot stop it now */
  pthread_mutex_unlock(&sv->lock);
  drain(&r);
  bool stopped = rt_interrupt_count() != interrupts && timed_out(sv);
  if (stopped && !r.stop_said) { /* stopped where nothing says "Interrupted." (checking, say) */
    put_member(item_begin(&r, "stderr"), "text", stop_message(sv));
    item_end(&r);
  }
  sv->s->sink = NULL;
  if (bad) {
    error_line(out, id, -32602, bad);
    ir_trap_pop(&trap);
    return true;
  }
  ir_buf_init(out);
  ir_buf_puts(out, "{\"id\":");
  ir_json_put(out, id);
  ir_buf_puts(out, ",\"result\":{");
  ir_buf_puts(out, res.data);
  if (r.items.len) ir_buf_printf(out, "%s\"items\":[%s]", res.len ? "," : "", r.items.data);
  if (rt_interrupt_count() != interrupts) ir_buf_printf(out, "%s\"interrupted\":true", res.len || r.items.len ? "," : "");
  if (stopped) ir_buf_puts(out, ",\"timed_out\":true");
  ir_buf_puts(out, "}}");
  ir_trap_pop(&trap);
  return !r.quit;
}

/* ---------------------------------------------------------------- the reader thread */

/* An `interrupt` request, answered at once: the request being answered (if any) gets SIGINT on
 * its thread, as Ctrl-C. Any other line is left for the queue (false). Only a line that mentions
 * `interrupt` is read as JSON here. */
static bool interrupt_now(Server *sv, const char *line, size_t len) {
  if (!memmem(line, len, "interrupt", 9)) return false;
  IrTrap trap; /* this thread's own: the trap stack is per thread */
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) return false; /* out of memory: the queue's answer will say so */
  IrJsonError err;
  const IrJson *req = ir_json_parse(line, len, MAX_REQUEST_DEPTH, &err);
  const IrJson *method = req ? ir_json_get(req, "method") : NULL, *params = req ? ir_json_get(req, "params") : NULL;
  if (!method || method->kind != IR_JSON_STRING || strcmp(method->s, "interrupt") || (params && params->kind != IR_JSON_OBJECT)) {
    ir_trap_pop(&trap);
    return false;
  }
  pthread_mutex_lock(&sv->lock);
  bool running = sv->running;
  if (running) pthread_kill(sv->worker, SIGINT);
  pthread_mutex_unlock(&sv->lock);
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_puts(&b, "{\"id\":");
  ir_json_put(&b, ir_json_get(req, "id"));
  ir_buf_printf(&b, ",\"result\":{\"interrupted\":%s}}", running ? "true" : "false");
  ir_trap_pop(&trap);
  send_line(sv, &b);
  return true;
}

static void *read_lines(void *arg) {
  Server *sv = arg;
  sigset_t intr;
  sigemptyset(&intr);
  sigaddset(&intr, SIGINT);
  pthread_sigmask(SIG_BLOCK, &intr, NULL); /* Ctrl-C is the answering thread's */
  char *text = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&text, &cap, stdin)) >= 0) {
    size_t len = (size_t)n;
    if (len && text[len - 1] == '\n') len--;
    if (len && text[len - 1] == '\r') len--;
    if (interrupt_now(sv, text, len)) continue;
    Line *l = malloc(sizeof *l);
    if (!l) { /* no memory even for the queue: the request is answered so, not left waiting */
      static char no_room[] = "{\"id\":null,\"error\":{\"code\":-32603,\"message\":\"relay ran out of memory queueing "
                              "the request; the session goes on\"}}";
      send_line(sv, &(IrBuf){no_room, sizeof no_room - 1, sizeof no_room});
      continue;
    }
    *l = (Line){text, len, NULL};
    text = NULL;
    cap = 0;
    pthread_mutex_lock(&sv->lock);
    if (sv->tail) sv->tail->next = l;
    else sv->head = l;
    sv->tail = l;
    pthread_cond_signal(&sv->more);
    pthread_mutex_unlock(&sv->lock);
  }
  free(text);
  pthread_mutex_lock(&sv->lock);
  sv->eof = true;
  pthread_cond_signal(&sv->more);
  pthread_mutex_unlock(&sv->lock);
  return NULL;
}

/* ---------------------------------------------------------------- the time limit */

/* The watchdog (--timeout): each request that runs past its time gets SIGINT on the answering
 * thread, as an `interrupt` request sends it; the response then says `timed_out`. */
static void *watch_time(void *arg) {
  Server *sv = arg;
  sigset_t intr;
  sigemptyset(&intr);
  sigaddset(&intr, SIGINT);
  pthread_sigmask(SIG_BLOCK, &intr, NULL); /* Ctrl-C is the answering thread's */
  long whole = (long)sv->timeout_s, nanos = (long)((sv->timeout_s - (double)whole) * 1e9);
  pthread_mutex_lock(&sv->lock);
  for (;;) {
    while (!sv->timing) pthread_cond_wait(&sv->tick, &sv->lock);
    unsigned serial = sv->serial;
    struct timespec deadline = {sv->began.tv_sec + whole, sv->began.tv_nsec + nanos};
    if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec++, deadline.tv_nsec -= 1000000000L;
    int rc = 0;
    while (sv->timing && sv->serial == serial && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&sv->tick, &sv->lock, &deadline);
    if (sv->timing && sv->serial == serial) {
      sv->timed_out = true;
      pthread_kill(sv->worker, SIGINT);
      while (sv->timing && sv->serial == serial) pthread_cond_wait(&sv->tick, &sv->lock);
    }
  }
  return NULL;
}

/* ---------------------------------------------------------------- the loop */

/* fd (1 or 2) now writes into a file in memory, always at its end (what is read is cut away). */
static int capture(int fd, const char *name) {
  int mem = memfd_create(name, 0);
  if (mem < 0 || fcntl(mem, F_SETFL, O_APPEND) != 0 || dup2(mem, fd) < 0) return -1;
  return mem;
}

/* The server: static, as the reader thread may outlive serve_main (after :quit it is still waiting
 * for a line when main returns). */
static Server server;

int serve_main(Session *s, const ReplOptions *opt) {
  Server *sv = &server;
  *sv = (Server){.s = s, .prelude = !opt->no_prelude, .sandbox = opt->sandbox, .timeout_s = opt->timeout_s,
                 .worker = pthread_self()};
  pthread_mutex_init(&sv->lock, NULL);
  pthread_mutex_init(&sv->write_lock, NULL);
  pthread_cond_init(&sv->more, NULL);
  pthread_condattr_t monotonic;
  pthread_condattr_init(&monotonic);
  pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
  pthread_cond_init(&sv->tick, &monotonic);
  fflush(stdout);
  fflush(stderr);
  sv->out = dup(STDOUT_FILENO);
  int real_err = dup(STDERR_FILENO);
  sv->printed = capture(STDOUT_FILENO, "relay-stdout");
  sv->errors = capture(STDERR_FILENO, "relay-stderr");
  if (sv->out < 0 || real_err < 0 || sv->printed < 0 || sv->errors < 0) {
    dprintf(real_err >= 0 ? real_err : STDERR_FILENO, "relay: cannot start --serve: %s\n", strerror(errno));
    return 1;
  }
  s->repl = true;
  s->sandbox = sv->sandbox;
  s->input = 1;
  session_catch_interrupts(NULL);
  pthread_t reader;
  if ((errno = pthread_create(&reader, NULL, read_lines, sv)) != 0) {
    dprintf(real_err, "relay: cannot start --serve's reader: %s\n", strerror(errno));
    return 1;
  }
  pthread_t watchdog;
  if (sv->timeout_s > 0) {
    if ((errno = pthread_create(&watchdog, NULL, watch_time, sv)) != 0) {
      dprintf(real_err, "relay: cannot start --serve's time limit: %s\n", strerror(errno));
      return 1;
    }
    pthread_detach(watchdog); /* it waits for the next request when the process ends */
  }
  bool more = true;
  while (more && !sv->broken) {
    pthread_mutex_lock(&sv->lock);
    while (!sv->head && !sv->eof) pthread_cond_wait(&sv->more, &sv->lock);
    Line *l = sv->head;
    if (l) {
      sv->head = l->next;
      if (!sv->head) sv->tail = NULL;
      rt_interrupt_clear(); /* one sent while nothing ran is not this request's */
      sv->running = true;
      sv->serial++;
      sv->timed_out = false;
      sv->timing = sv->timeout_s > 0;
      clock_gettime(CLOCK_MONOTONIC, &sv->began);
      pthread_cond_signal(&sv->tick);
    }
    pthread_mutex_unlock(&sv->lock);
    if (!l) break;
    IrBuf response = {0};
    more = answer(sv, l->text, l->len, &response);
    free(l->text);
    free(l);
    pthread_mutex_lock(&sv->lock);
    sv->running = false; /* before the response: an interrupt sent after reading it finds nothing running */
    sv->timing = false;   /* (answer stopped it already, unless memory ran out) */
    pthread_cond_signal(&sv->tick);
    pthread_mutex_unlock(&sv->lock);
    send_line(sv, &response);
  }
  /* The reader may still be waiting for a line: the process ends with it (main returns). */
  pthread_detach(reader);
  dup2(real_err, STDERR_FILENO); /* what main says at the end (an unwritable stdout) is seen */
  dup2(sv->out, STDOUT_FILENO);
  if (sv->broken) dprintf(real_err, "relay: --serve cannot write its responses: %s\n", strerror(EPIPE));
  return sv->broken ? 1 : 0;
}
