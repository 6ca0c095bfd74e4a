/* relay --serve's core (docs/serve.md): a request's text in, its response out, over one session. The
 * methods, reading a request, and the items a response collects: what the session reports (through
 * its sink) and what it prints (through its `out` and `err` streams, which write into buffers here),
 * each in its place. No threads, signals or file descriptors: the transports (serve.c, the language
 * server) bring those. */
#include "repl/serve_core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/commands.h"
#include "repl/complete.h"
#include "repl/lookup.h"
#include "repl/input.h"

enum {
  MAX_ELEMENTS = 10000,        /* a tensor value's elements in a response, unless asked otherwise */
  MAX_CAPTURED = 1 << 20,      /* bytes of printed text kept in one item (a long :trace) */
};

/* What a session's stream has printed since the core last took it: up to MAX_CAPTURED bytes of it,
 * the rest only counted. malloc'd, as the stream's cookie lives in the C library's memory, out of
 * the collector's sight; and a write never fails (memory running out loses the text, counted). */
typedef struct Printed {
  char *data;
  size_t len, cap;
  size_t more; /* bytes printed past MAX_CAPTURED */
} Printed;

struct ServeCore {
  Session *s;
  bool prelude;
  bool sandbox;     /* --sandbox: the session's commands touch no file */
  double timeout_s; /* --timeout: a request's time limit in seconds, for its message */
  ServeCoreClock clock;
  /* what the session prints: its out and err streams write into these */
  FILE *out, *err;
  Printed *printed, *errors;
};

/* ---------------------------------------------------------------- what the session prints */

static ssize_t printed_write(void *cookie, const char *buf, size_t size) {
  Printed *p = cookie;
  size_t keep = p->len < MAX_CAPTURED ? MAX_CAPTURED - p->len : 0;
  if (keep > size) keep = size;
  if (p->len + keep > p->cap) {
    size_t cap = p->cap ? p->cap : 4096;
    while (cap < p->len + keep) cap *= 2;
    if (cap > MAX_CAPTURED) cap = MAX_CAPTURED;
    char *data = realloc(p->data, cap);
    if (data) p->data = data, p->cap = cap;
    else keep = 0;
  }
  if (keep) memcpy(p->data + p->len, buf, keep);
  p->len += keep;
  p->more += size - keep;
  return (ssize_t)size;
}

/* A stream whose writes go into a Printed; NULL when it cannot be made. */
static FILE *printed_stream(Printed **p) {
  *p = calloc(1, sizeof **p);
  FILE *f = *p ? fopencookie(*p, "w", (cookie_io_functions_t){.write = printed_write}) : NULL;
  if (f) setvbuf(f, NULL, _IOFBF, BUFSIZ);
  return f;
}

/* What was printed into f since the last look, at most MAX_CAPTURED bytes of it (the rest
 * counted), or NULL when nothing was; the buffer is emptied. */
static const char *take_printed(FILE *f, Printed *p) {
  fflush(f);
  if (!p->len && !p->more) return NULL;
  char *text = ir_alloc_atomic(p->len + 64);
  memcpy(text, p->data, p->len);
  if (p->more) snprintf(text + p->len, 64, "\n... (%zu more bytes)\n", p->more);
  else text[p->len] = '\0';
  p->len = p->more = 0;
  return text;
}

/* ---------------------------------------------------------------- writing responses */

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
  ServeCore *sv;
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

/* Whether the interrupt that stopped the request was the transport's time limit. */
static bool timed_out(ServeCore *sv) { return sv->clock.timed_out && sv->clock.timed_out(sv->clock.arg); }

/* What a request stopped at its time limit says, in the place of "Interrupted.". */
static const char *stop_message(const ServeCore *sv) {
  return ir_printf("Stopped: the request ran longer than its time limit of %g s (relay --serve --timeout %g); the "
                   "session goes on.\n",
                   sv->timeout_s, sv->timeout_s);
}

/* What the session printed since the last item becomes an item of its own, before the next. */
static void drain(Reply *r) {
  const char *out = take_printed(r->sv->out, r->sv->printed), *err = take_printed(r->sv->err, r->sv->errors);
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
typedef const char *Method(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res);

/* eval: the text's lines taken as typed at the prompt (input.c). */
/* Where an eval's input starts in its text (ReplInput.started): once an input, the last said. */
static void note_start(void *ctx, int input, int line) {
  Reply *r = ctx;
  if (r->starts.len && r->starts.items[r->starts.len - 1].input == input) r->starts.items[r->starts.len - 1].line = line;
  else IR_VEC_PUSH(r->starts, ((InputStart){input, line}));
}

static const char *method_eval(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
  const char *text, *why;
  size_t len;
  long max = MAX_ELEMENTS;
  if (!text_param(params, "text", &text, &len, &why)) return why;
  if (!int_param(params, "max_elements", 0, 1L << 30, true, &max, &why)) return why;
  r->max_elements = (size_t)max;
  Session *s = sv->s;
  s->failed = false;
  ReplInput in;
  repl_input_init(&in, NULL);
  in.started = note_start;
  in.ctx = r;
  repl_input_text(s, &in, text, len);
  ir_buf_printf(res, "\"ok\":%s", s->failed ? "false" : "true");
  if (in.quit) ir_buf_puts(res, ",\"quit\":true");
  r->quit = in.quit;
  return NULL;
}

/* Parses and checks text against the session, which stays as it was: as a file's contents, or
 * (params.mode "repl") as REPL inputs are read, the session's bindings in scope and `let %x = e`
 * alone on a line a binding, its `:` command lines left out. *prog is the parse (with parse errors the
 * items that parsed, checked for theirs: every error is reported; NULL when nothing could); the typed
 * program is returned, NULL on an error or when params are wrong (*why says how). */
static IrTProgram *check_text(ServeCore *sv, const IrJson *params, const char *text, size_t len, const IrProgram **prog,
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

/* The `text` of params checked as check_text checks it: NULL, or why the request is refused. */
static const char *text_checked(ServeCore *sv, const IrJson *params, const char **text, size_t *len,
                                const IrProgram **prog, IrTProgram **tp) {
  const char *why;
  if (!text_param(params, "text", text, len, &why)) return why;
  *tp = check_text(sv, params, *text, *len, prog, &why);
  return why;
}

static const char *method_check(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
  const char *text, *why;
  size_t len;
  const IrProgram *prog;
  IrTProgram *tp;
  if ((why = text_checked(sv, params, &text, &len, &prog, &tp))) return why;
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

static const char *method_type(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
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

static const char *method_type_at(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
  (void)r;
  const char *text, *why;
  size_t len;
  long line = 0, column = 0;
  if (!int_param(params, "line", 1, 1L << 30, false, &line, &why)) return why;
  if (!int_param(params, "column", 1, 1L << 30, false, &column, &why)) return why;
  const IrProgram *prog;
  IrTProgram *tp;
  if ((why = text_checked(sv, params, &text, &len, &prog, &tp))) return why;
  LookupDoc d;
  lookup_of(sv->s, prog ? prog->src : NULL, prog, tp, &d);
  ir_buf_printf(res, "\"ok\":%s", tp ? "true" : "false");
  long off = offset_of(text, len, line, column);
  IrSpan span = {0};
  const IrType *type = off >= 0 && prog ? lookup_place(&d, (size_t)off, &span) : NULL;
  ir_buf_puts(res, ",\"type\":");
  if (type) put_str(res, ir_type_str(type));
  else ir_buf_puts(res, "null");
  if (span.src) {
    uint32_t l, c;
    span_end(span, &l, &c);
    ir_buf_printf(res, ",\"span\":{\"line\":%u,\"column\":%u,\"end_line\":%u,\"end_column\":%u},\"expression\":", span.line,
                  span.col, l, c);
    ir_json_put_string(res, span.src->text + span.off, span.len);
  }
  return NULL;
}

/* The types of the text's binders whose type is not written (a `let`'s variable, a parameter, a
 * pattern's variable), for an editor's inline hints: each at the end of the name. */
static const char *method_inlay(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
  (void)r;
  const char *text, *why;
  size_t len;
  const IrProgram *prog;
  IrTProgram *tp;
  if ((why = text_checked(sv, params, &text, &len, &prog, &tp))) return why;
  LookupDoc d;
  lookup_of(sv->s, prog ? prog->src : NULL, prog, tp, &d);
  ir_buf_printf(res, "\"ok\":%s,\"hints\":[", tp ? "true" : "false");
  int n = 0, i = 0;
  for (const LookupName *x; (x = lookup_next_unwritten(&d, &i, 0, len));) {
    uint32_t l, c;
    span_end(x->span, &l, &c);
    ir_buf_printf(res, "%s{\"line\":%u,\"column\":%u,\"name\":", n++ ? "," : "", l, c);
    ir_json_put_string(res, x->span.src->text + x->span.off, x->span.len);
    put_member(res, "type", ir_type_str(x->type));
    ir_buf_putc(res, '}');
  }
  ir_buf_putc(res, ']');
  return NULL;
}

static const char *method_complete(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
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
static const char *run_command(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res, const char *command) {
  const char *arg, *why;
  size_t len;
  if (!text_param(params, "text", &arg, &len, &why)) return why;
  if (memchr(arg, '\n', len)) return "params.text must be one line";
  drain(r);
  bool quit = false;
  bool ok = repl_command(sv->s, ir_printf("%s %s", command, arg), &quit);
  const char *printed = take_printed(sv->out, sv->printed);
  drain(r); /* its messages */
  ir_buf_printf(res, "\"ok\":%s", ok ? "true" : "false");
  put_member(res, "text", printed ? printed : "");
  return NULL;
}

static const char *method_annot(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
  return run_command(sv, r, params, res, ":annot");
}

static const char *method_doc(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
  return run_command(sv, r, params, res, ":doc");
}

static const char *method_graph(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
  return run_command(sv, r, params, res, ":graph");
}

/* An interrupt that reaches this thread came while nothing else ran (the reader answers the others). */
static const char *method_interrupt(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
  (void)sv, (void)r, (void)params;
  ir_buf_puts(res, "\"interrupted\":false");
  return NULL;
}

static bool new_session(ServeCore *sv) {
  SessionSink *sink = sv->s->sink;
  session_init(sv->s);
  sv->s->out = sv->out; /* the Prelude's messages, if it fails, are the response's */
  sv->s->err = sv->err;
  sv->s->repl = true;
  sv->s->sandbox = sv->sandbox;
  sv->s->input = 1;
  bool ok = !sv->prelude || session_load_prelude(sv->s);
  sv->s->sink = sink;
  return ok;
}

static const char *method_reset(ServeCore *sv, Reply *r, const IrJson *params, IrBuf *res) {
  (void)r, (void)params, (void)res;
  new_session(sv);
  return NULL;
}

static const struct {
  const char *name;
  Method *run;
} methods[] = {
    {"eval", method_eval},         {"check", method_check},   {"type", method_type},
    {"type_at", method_type_at},   {"inlay", method_inlay},       {"complete", method_complete}, {"annot", method_annot},
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
  const IrJson *v = ir_json_parse(line, len, REPL_SERVE_MAX_DEPTH, &err);
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

bool serve_core_answer(ServeCore *sv, const char *line, size_t len, IrBuf *out) {
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
  take_printed(sv->out, sv->printed); /* anything printed between requests is not this one's */
  take_printed(sv->err, sv->errors);
  const char *bad = methods[m].run(sv, &r, req->params, &res);
  if (sv->clock.done) sv->clock.done(sv->clock.arg); /* its work is done: the time limit cannot stop it now */
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


/* ---------------------------------------------------------------- the core */

ServeCore *serve_core_new(Session *s, const ReplOptions *opt) {
  ServeCore *sv = IR_NEW(ServeCore);
  *sv = (ServeCore){.s = s, .prelude = !opt->no_prelude, .sandbox = opt->sandbox, .timeout_s = opt->timeout_s};
  sv->out = printed_stream(&sv->printed);
  sv->err = printed_stream(&sv->errors);
  if (!sv->out || !sv->err) {
    if (!errno) errno = ENOMEM;
    return NULL;
  }
  s->repl = true;
  s->sandbox = sv->sandbox;
  s->input = 1;
  s->out = sv->out;
  s->err = sv->err;
  return sv;
}

void serve_core_set_clock(ServeCore *c, const ServeCoreClock *clock) { c->clock = *clock; }
