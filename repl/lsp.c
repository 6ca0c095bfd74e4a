/* relay --lsp (lsp.h): the Language Server Protocol over stdio. A reader thread takes the framed
 * messages (`Content-Length: N`, a blank line, N bytes of JSON) into a queue, and answers
 * `$/cancelRequest` at once by interrupting the request it names, as `interrupt` does for --serve;
 * a change to a document being checked interrupts that check, which is stale. This thread (the
 * one that takes SIGINT) answers the rest in order, and checks a changed document once its text
 * has been still for a moment (DEBOUNCE_MS), publishing its diagnostics with its version.
 * Documents are checked as files against the session (the Prelude), each alone. */
#include "repl/lsp.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "repl/complete.h"
#include "repl/lookup.h"

enum {
  DEBOUNCE_MS = 150,
  MAX_DEPTH = 256,          /* of a message's JSON */
  MAX_CANDIDATES = 500,     /* completion items in one answer */
  MAX_HEADER = 8192,        /* bytes of one header line */
  ERR_PARSE = -32700,       /* the protocol's error codes */
  ERR_INVALID = -32600,
  ERR_NO_METHOD = -32601,
  ERR_PARAMS = -32602,
  ERR_INTERNAL = -32603,
  ERR_NOT_INITIALIZED = -32002,
  ERR_CANCELLED = -32800,
  ERR_CONTENT_MODIFIED = -32801,
};

typedef enum { ENC_UTF16, ENC_UTF8, ENC_UTF32 } Encoding;

typedef struct Message {
  char *text; /* malloc'd by the reader */
  size_t len;
  struct Message *next;
} Message;

typedef struct Doc {
  const char *uri, *name; /* the name diagnostics use: the file's path */
  long version;
  const char *text;
  size_t len;
  uint32_t *lines; /* the offset of each line's start */
  int nlines;
  bool dirty;               /* changed since its last check */
  struct timespec changed;  /* when */
  bool checked;             /* look is the check of this text */
  LookupDoc look;
  const IrProgram *parsed;  /* the last of its texts that parsed, for completion while it does not */
} Doc;

typedef struct Server {
  Session *s;
  int out; /* the protocol's output (stdout, before fd 1 was pointed at stderr) */
  pthread_mutex_t lock, write_lock;
  pthread_cond_t more;
  Message *head, *tail;
  bool eof;
  pthread_t worker;
  /* What this thread runs, for the reader's interrupts: a request's id (as JSON text) or "" and
   * the document being checked or NULL. */
  char running[64];
  const char *checking;
  IR_VEC(char *) cancelled; /* ids (JSON text, malloc'd) cancelled before they ran */
  Encoding enc;
  bool initialized, shut_down;
  IR_VEC(Doc *) docs;
} Server;

static Server server; /* static: the reader may outlive lsp_main */

/* ---------------------------------------------------------------- writing */

static void send_text(Server *sv, const char *body, size_t len) {
  char head[64];
  int n = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", len);
  pthread_mutex_lock(&sv->write_lock);
  const char *parts[2] = {head, body};
  size_t lens[2] = {(size_t)n, len};
  for (int i = 0; i < 2; i++)
    for (size_t done = 0; done < lens[i];) {
      ssize_t w = write(sv->out, parts[i] + done, lens[i] - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break; /* the client went away: the end of stdin will follow */
      done += (size_t)w;
    }
  pthread_mutex_unlock(&sv->write_lock);
}

static void put_str(IrBuf *b, const char *s) { ir_json_put_string(b, s, strlen(s)); }

static void respond(Server *sv, const IrJson *id, const char *result) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
  ir_json_put(&b, id);
  ir_buf_printf(&b, ",\"result\":%s}", result);
  send_text(sv, b.data, b.len);
}

static void respond_error(Server *sv, const IrJson *id, int code, const char *message) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
  ir_json_put(&b, id);
  ir_buf_printf(&b, ",\"error\":{\"code\":%d,\"message\":", code);
  put_str(&b, message);
  ir_buf_puts(&b, "}}");
  send_text(sv, b.data, b.len);
}

/* ---------------------------------------------------------------- places */

static void index_lines(Doc *d) {
  int n = 1;
  for (size_t i = 0; i < d->len; i++) n += d->text[i] == '\n';
  d->lines = IR_NEW_ARRAY(uint32_t, n);
  d->nlines = 0;
  d->lines[d->nlines++] = 0;
  for (size_t i = 0; i < d->len; i++)
    if (d->text[i] == '\n') d->lines[d->nlines++] = (uint32_t)(i + 1);
}

/* The length of the UTF-8 sequence starting at p (1 for a byte that starts none), and its code
 * point in *cp. */
static size_t utf8_step(const unsigned char *p, size_t left, uint32_t *cp) {
  unsigned c = p[0];
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (n > left) n = 1;
  for (size_t i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80) n = 1;
  *cp = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
  for (size_t i = 1; i < n; i++) *cp = (*cp << 6) | (p[i] & 0x3f);
  return n;
}

static unsigned units(Encoding enc, uint32_t cp, size_t bytes) {
  return enc == ENC_UTF8 ? (unsigned)bytes : enc == ENC_UTF32 ? 1 : cp >= 0x10000 ? 2 : 1;
}

/* The byte offset of an LSP position (a line from 0, a character in the negotiated units); past
 * a line's end, its end; past the last line, the text's end. */
static size_t offset_of(const Server *sv, const Doc *d, long line, long character) {
  if (line < 0) return 0;
  if (line >= d->nlines) return d->len;
  size_t i = d->lines[line];
  for (long c = 0; c < character && i < d->len && d->text[i] != '\n';) {
    uint32_t cp;
    size_t n = utf8_step((const unsigned char *)d->text + i, d->len - i, &cp);
    c += units(sv->enc, cp, n);
    i += n;
  }
  return i;
}

static void put_position(const Server *sv, IrBuf *b, const Doc *d, size_t off) {
  if (off > d->len) off = d->len;
  int lo = 0, hi = d->nlines - 1;
  while (lo < hi) { /* the last line starting at or before off */
    int mid = (lo + hi + 1) / 2;
    if (d->lines[mid] <= off) lo = mid;
    else hi = mid - 1;
  }
  unsigned long c = 0;
  for (size_t i = d->lines[lo]; i < off;) {
    uint32_t cp;
    size_t n = utf8_step((const unsigned char *)d->text + i, d->len - i, &cp);
    c += units(sv->enc, cp, n);
    i += n;
  }
  ir_buf_printf(b, "{\"line\":%d,\"character\":%lu}", lo, c);
}

static void put_range(const Server *sv, IrBuf *b, const Doc *d, size_t from, size_t to) {
  ir_buf_puts(b, "{\"start\":");
  put_position(sv, b, d, from);
  ir_buf_puts(b, ",\"end\":");
  put_position(sv, b, d, to);
  ir_buf_puts(b, "}");
}

static void put_span(const Server *sv, IrBuf *b, const Doc *d, IrSpan sp) {
  put_range(sv, b, d, sp.off, (size_t)sp.off + sp.len);
}

static void put_location(const Server *sv, IrBuf *b, const Doc *d, IrSpan sp) {
  ir_buf_puts(b, "{\"uri\":");
  put_str(b, d->uri);
  ir_buf_puts(b, ",\"range\":");
  put_span(sv, b, d, sp);
  ir_buf_puts(b, "}");
}

/* ---------------------------------------------------------------- parameters */

static const IrJson *member(const IrJson *o, const char *key, IrJsonKind kind) {
  const IrJson *v = o && o->kind == IR_JSON_OBJECT ? ir_json_get(o, key) : NULL;
  return v && v->kind == kind ? v : NULL;
}

static bool number(const IrJson *o, const char *key, long *out) {
  const IrJson *v = member(o, key, IR_JSON_NUMBER);
  if (!v || !v->integer) return false;
  *out = strtol(v->s, NULL, 10);
  return true;
}

static Doc *find_doc(Server *sv, const char *uri) {
  for (int i = 0; uri && i < sv->docs.len; i++)
    if (!strcmp(sv->docs.items[i]->uri, uri)) return sv->docs.items[i];
  return NULL;
}

static Doc *doc_param(Server *sv, const IrJson *params) {
  const IrJson *td = member(params, "textDocument", IR_JSON_OBJECT), *uri = member(td, "uri", IR_JSON_STRING);
  return uri ? find_doc(sv, uri->s) : NULL;
}

/* The byte offset of params.position in its document, or -1. */
static long position_param(const Server *sv, const Doc *d, const IrJson *params) {
  const IrJson *pos = member(params, "position", IR_JSON_OBJECT);
  long line, character;
  if (!pos || !number(pos, "line", &line) || !number(pos, "character", &character)) return -1;
  return (long)offset_of(sv, d, line, character);
}

/* The byte offsets of an LSP range in its document; without a range (or a part of one), the
 * document's start and end. False when it is no range. */
static bool range_param(const Server *sv, const Doc *d, const IrJson *range, size_t *from, size_t *to) {
  const IrJson *start = member(range, "start", IR_JSON_OBJECT), *end = member(range, "end", IR_JSON_OBJECT);
  long sl = 0, sc = 0, el = d->nlines, ec = 0;
  bool whole = start && end && number(start, "line", &sl) && number(start, "character", &sc) &&
               number(end, "line", &el) && number(end, "character", &ec);
  *from = offset_of(sv, d, sl, sc);
  *to = offset_of(sv, d, el, ec);
  if (*to < *from) *to = *from;
  return whole;
}

/* A file: URI's path, percent-decoded; another URI as it is. */
static const char *uri_name(const char *uri) {
  if (strncmp(uri, "file://", 7)) return uri;
  IrBuf b;
  ir_buf_init(&b);
  for (const char *p = uri + 7; *p; p++) {
    unsigned hi, lo;
    if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%1x%1x", &hi, &lo) == 2) {
      ir_buf_putc(&b, (char)(hi * 16 + lo));
      p += 2;
    } else {
      ir_buf_putc(&b, *p);
    }
  }
  return b.data;
}

/* ---------------------------------------------------------------- checking */

/* Checks a document if it changed; false when the check was interrupted (a newer text came, or
 * the request was cancelled): it stays to be checked. */
static bool ensure_checked(Server *sv, Doc *d) {
  if (d->checked) return true;
  pthread_mutex_lock(&sv->lock);
  sv->checking = d->uri;
  pthread_mutex_unlock(&sv->lock);
  unsigned before = rt_interrupt_count();
  LookupDoc look;
  lookup_check(sv->s, d->name, d->text, d->len, &look);
  pthread_mutex_lock(&sv->lock);
  sv->checking = NULL;
  bool stopped = rt_interrupt_count() != before;
  pthread_mutex_unlock(&sv->lock);
  if (stopped) return false;
  d->look = look;
  d->checked = true;
  if (look.prog) d->parsed = look.prog;
  return true;
}

static const char *kind_code(IrDiagKind k) {
  static const char *const names[] = {"parse error", "type error", "runtime error", "warning", "hole"};
  return names[k];
}

static void publish(Server *sv, Doc *d) {
  d->dirty = false;
  rt_interrupt_clear();
  if (!ensure_checked(sv, d)) {
    d->dirty = true; /* a newer text is in the queue, and another check follows it */
    clock_gettime(CLOCK_MONOTONIC, &d->changed);
    return;
  }
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{\"uri\":");
  put_str(&b, d->uri);
  ir_buf_printf(&b, ",\"version\":%ld,\"diagnostics\":[", d->version);
  int n = 0;
  for (const IrDiag *g = d->look.diags.first; g; g = g->next) {
    if (n++) ir_buf_putc(&b, ',');
    bool here = g->span.src == d->look.src;
    ir_buf_puts(&b, "{\"range\":");
    if (here) put_span(sv, &b, d, g->span);
    else put_range(sv, &b, d, 0, 0);
    int severity = g->kind == IR_DIAG_WARNING ? 2 : g->kind == IR_DIAG_HOLE ? 3 : 1;
    ir_buf_printf(&b, ",\"severity\":%d,\"source\":\"relay\",\"code\":", severity);
    put_str(&b, kind_code(g->kind));
    IrBuf msg;
    ir_buf_init(&msg);
    if (!here && g->span.src) ir_buf_printf(&msg, "%s:%u:%u: ", g->span.src->name, g->span.line, g->span.col);
    ir_buf_puts(&msg, g->message);
    for (int i = 0; i < g->notes.len; i++) ir_buf_printf(&msg, "\n%s", g->notes.items[i]);
    ir_buf_puts(&b, ",\"message\":");
    put_str(&b, msg.data);
    ir_buf_puts(&b, "}");
  }
  ir_buf_puts(&b, "]}}");
  send_text(sv, b.data, b.len);
}

/* ---------------------------------------------------------------- documents */

static void set_text(Doc *d, const char *text, size_t len, long version) {
  d->text = ir_strndup(text, len);
  d->len = len;
  d->version = version;
  index_lines(d);
  d->dirty = true;
  d->checked = false;
  clock_gettime(CLOCK_MONOTONIC, &d->changed);
}

static void did_open(Server *sv, const IrJson *params) {
  const IrJson *td = member(params, "textDocument", IR_JSON_OBJECT), *uri = member(td, "uri", IR_JSON_STRING),
               *text = member(td, "text", IR_JSON_STRING);
  long version = 0;
  if (!uri || !text) return;
  number(td, "version", &version);
  Doc *d = find_doc(sv, uri->s);
  if (!d) {
    d = IR_NEW(Doc);
    d->uri = ir_strdup(uri->s);
    d->name = uri_name(d->uri);
    IR_VEC_PUSH(sv->docs, d);
  }
  set_text(d, text->s, text->len, version);
}

static void did_change(Server *sv, const IrJson *params) {
  Doc *d = doc_param(sv, params);
  const IrJson *changes = member(params, "contentChanges", IR_JSON_ARRAY);
  const IrJson *td = member(params, "textDocument", IR_JSON_OBJECT);
  long version = d ? d->version + 1 : 0;
  number(td, "version", &version);
  if (!d || !changes || !changes->n) return;
  /* Full sync (what initialize offers): the last change holds the whole text. A change with a
   * range (a client that ignores the offer) is applied to the text. */
  for (int i = 0; i < changes->n; i++) {
    const IrJson *c = changes->items[i], *text = member(c, "text", IR_JSON_STRING);
    const IrJson *range = member(c, "range", IR_JSON_OBJECT);
    if (!text) continue;
    if (!range) {
      set_text(d, text->s, text->len, version);
      continue;
    }
    size_t from, to;
    if (!range_param(sv, d, range, &from, &to)) continue;
    IrBuf b;
    ir_buf_init(&b);
    ir_buf_putn(&b, d->text, from);
    ir_buf_putn(&b, text->s, text->len);
    ir_buf_putn(&b, d->text + to, d->len - to);
    set_text(d, b.data, b.len, version);
  }
}

static void did_close(Server *sv, const IrJson *params) {
  Doc *d = doc_param(sv, params);
  if (!d) return;
  for (int i = 0; i < sv->docs.len; i++)
    if (sv->docs.items[i] == d) {
      sv->docs.items[i] = sv->docs.items[--sv->docs.len];
      break;
    }
  /* Its diagnostics go with it. */
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{\"uri\":");
  put_str(&b, d->uri);
  ir_buf_puts(&b, ",\"diagnostics\":[]}}");
  send_text(sv, b.data, b.len);
}

/* ---------------------------------------------------------------- hover */

static void markdown_code(IrBuf *b, const char *code) { ir_buf_printf(b, "```relay\n%s\n```", code); }

static const char *operator_text(const Server *sv, int op, const IrType *instance) {
  IrBuf b;
  ir_buf_init(&b);
  const IrOpInfo *info = &ir_ops[op];
  markdown_code(&b, ir_printf("%s : %s", info->name, ir_type_str(ty_operator_scheme(sv->s->module, op))));
  if (instance) ir_buf_printf(&b, "\n\nhere: `%s`", ir_type_str(instance));
  if (info->attrs[0]) {
    ir_buf_puts(&b, "\n\nattributes:");
    for (const char *p = info->attrs; *p;) {
      size_t n = strcspn(p, " ");
      bool required = n && p[n - 1] == '!';
      ir_buf_printf(&b, " `%.*s`%s", (int)(n - required), p, required ? " (required)" : "");
      p += n;
      p += strspn(p, " ");
      if (*p) ir_buf_putc(&b, ',');
    }
  }
  return b.data;
}

static const char *name_text(const Server *sv, const Doc *d, const LookupName *n) {
  IrBuf b;
  ir_buf_init(&b);
  const char *shown = ir_strndup(d->text + n->span.off, n->span.len);
  const IrType *scheme = lookup_scheme(sv->s, &d->look, n);
  if (n->kind == LOOKUP_DATA) {
    const IrItem *it = lookup_item_named(sv->s, &d->look, IR_ITEM_DATA, n->target);
    IrBuf head;
    ir_buf_init(&head);
    if (it) ir_print_data_head(&head, &it->data);
    else ir_buf_puts(&head, shown);
    markdown_code(&b, head.data);
  } else if (scheme && n->kind != LOOKUP_LOCAL) {
    markdown_code(&b, ir_printf("%s : %s", shown, ir_type_str(scheme)));
    const char *inst = lookup_instance(&d->look, n);
    if (n->use && n->type && inst) ir_buf_printf(&b, "\n\nhere: `%s` where %s", ir_type_str(n->type), inst);
  } else if (n->type) {
    markdown_code(&b, ir_printf("%s : %s", shown, ir_type_str(n->type)));
  } else {
    markdown_code(&b, shown);
    const IrTProgram *tp = d->look.checked;
    for (int i = 0; tp && n->kind == LOOKUP_GLOBAL && i < tp->nitems; i++) /* a definition here that did not check */
      if (tp->items[i].src->kind == IR_ITEM_DEF && tp->items[i].src->name == n->target && (tp->items[i].failed || tp->items[i].skipped))
        ir_buf_puts(&b, tp->items[i].skipped ? "\n\nits type is not known: it uses a definition that has an error"
                                             : "\n\nits type is not known: its definition has an error");
  }
  const char *doc = lookup_doc_comment(sv->s, &d->look, n);
  if (doc) ir_buf_printf(&b, "\n\n%s", doc);
  return b.data;
}

static void hover(Server *sv, const IrJson *id, const IrJson *params, Doc *d, long off) {
  IrBuf b;
  ir_buf_init(&b);
  const LookupName *n = lookup_name_at(&d->look, (size_t)off);
  IrSpan span;
  const IrExpr *node = NULL;
  const char *text = NULL;
  if (n) {
    text = name_text(sv, d, n);
    span = n->span;
  } else {
    const IrType *t = lookup_type_at(&d->look, (size_t)off, &span, &node);
    if (node && node->kind == IR_EXPR_OP) text = operator_text(sv, node->u.op, t);
    else if (t) {
      const char *code = ir_strndup(d->text + span.off, span.len > 60 ? 0 : span.len);
      text = ir_printf("```relay\n%s%s%s\n```", code, code[0] ? " : " : "", ir_type_str(t));
    }
  }
  (void)params;
  if (!text) {
    respond(sv, id, "null");
    return;
  }
  ir_buf_puts(&b, "{\"contents\":{\"kind\":\"markdown\",\"value\":");
  put_str(&b, text);
  ir_buf_puts(&b, "},\"range\":");
  put_span(sv, &b, d, span);
  ir_buf_puts(&b, "}");
  respond(sv, id, b.data);
}

/* ---------------------------------------------------------------- inlay hints, definitions, references */

static void inlay_hints(Server *sv, const IrJson *id, const IrJson *params, Doc *d) {
  size_t from, to;
  range_param(sv, d, member(params, "range", IR_JSON_OBJECT), &from, &to);
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_putc(&b, '[');
  int n = 0;
  int i = 0;
  for (const LookupName *x; (x = lookup_next_unwritten(&d->look, &i, from, to));) {
    size_t at = (size_t)x->span.off + x->span.len;
    if (n++) ir_buf_putc(&b, ',');
    ir_buf_puts(&b, "{\"position\":");
    put_position(sv, &b, d, at);
    ir_buf_puts(&b, ",\"label\":");
    put_str(&b, ir_printf(": %s", ir_type_str(x->type)));
    ir_buf_puts(&b, ",\"kind\":1,\"paddingLeft\":false,\"paddingRight\":true}");
  }
  ir_buf_putc(&b, ']');
  respond(sv, id, b.data);
}

static bool same(const LookupName *a, const LookupName *b) { return a->kind == b->kind && a->target == b->target; }

static void definition(Server *sv, const IrJson *id, Doc *d, long off) {
  const LookupName *n = lookup_name_at(&d->look, (size_t)off);
  for (int i = 0; n && i < d->look.names.len; i++) {
    const LookupName *x = &d->look.names.items[i];
    if (x->binder && same(x, n)) {
      IrBuf b;
      ir_buf_init(&b);
      put_location(sv, &b, d, x->span);
      respond(sv, id, b.data);
      return;
    }
  }
  respond(sv, id, "null"); /* the Prelude's, an operator's, or nothing's */
}

static void references(Server *sv, const IrJson *id, const IrJson *params, Doc *d, long off) {
  const IrJson *ctx = member(params, "context", IR_JSON_OBJECT), *decl = member(ctx, "includeDeclaration", IR_JSON_BOOL);
  bool with_decl = !decl || decl->b;
  const LookupName *n = lookup_name_at(&d->look, (size_t)off);
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_putc(&b, '[');
  int k = 0;
  for (int i = 0; n && i < d->look.names.len; i++) {
    const LookupName *x = &d->look.names.items[i];
    if (!same(x, n) || (x->binder && !with_decl)) continue;
    if (k++) ir_buf_putc(&b, ',');
    put_location(sv, &b, d, x->span);
  }
  ir_buf_putc(&b, ']');
  respond(sv, id, n ? b.data : "null");
}

/* ---------------------------------------------------------------- the outline */

static const LookupName *declared(const Doc *d, LookupKind kind, Sym name, IrSpan within) {
  for (int i = 0; i < d->look.names.len; i++) {
    const LookupName *x = &d->look.names.items[i];
    if (x->binder && x->kind == kind && x->target == name && x->span.off >= within.off &&
        x->span.off < within.off + within.len)
      return x;
  }
  return NULL;
}

static void symbol(const Server *sv, IrBuf *b, const Doc *d, const char *name, int kind, const char *detail, IrSpan whole,
                   IrSpan sel) {
  ir_buf_puts(b, "{\"name\":");
  put_str(b, name);
  ir_buf_printf(b, ",\"kind\":%d", kind);
  if (detail) {
    ir_buf_puts(b, ",\"detail\":");
    put_str(b, detail);
  }
  ir_buf_puts(b, ",\"range\":");
  put_span(sv, b, d, whole);
  ir_buf_puts(b, ",\"selectionRange\":");
  put_span(sv, b, d, sel.src ? sel : whole);
}

static void document_symbols(Server *sv, const IrJson *id, Doc *d) {
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_putc(&b, '[');
  int n = 0;
  const IrProgram *p = d->look.prog;
  for (int i = 0; p && i < p->nitems; i++) {
    const IrItem *it = &p->items[i];
    if (it->kind == IR_ITEM_EXPR) continue;
    if (n++) ir_buf_putc(&b, ',');
    if (it->kind == IR_ITEM_DEF) {
      const LookupName *x = declared(d, LOOKUP_GLOBAL, it->name, it->span);
      const IrType *t = d->look.types ? ir_ptrmap_get(d->look.types, it->fn) : NULL;
      symbol(sv, &b, d, ir_printf("@%s", it->name->name), 12, t ? ir_type_str(t) : NULL, it->span, x ? x->span : it->span);
      ir_buf_putc(&b, '}');
    } else if (it->kind == IR_ITEM_DATA) {
      const LookupName *x = declared(d, LOOKUP_DATA, it->name, it->span);
      IrBuf head;
      ir_buf_init(&head);
      ir_print_data_head(&head, &it->data);
      symbol(sv, &b, d, it->name->name, 10, head.data, it->span, x ? x->span : it->span);
      ir_buf_puts(&b, ",\"children\":[");
      for (int k = 0; k < it->data.nctors; k++) {
        const IrCtor *c = &it->data.ctors[k];
        const IrTCtor *tc = NULL;
        (void)tc;
        if (k) ir_buf_putc(&b, ',');
        IrSpan sel = c->span;
        sel.len = (uint32_t)strlen(c->name->name);
        symbol(sv, &b, d, c->name->name, 22, NULL, c->span, sel);
        ir_buf_putc(&b, '}');
      }
      ir_buf_puts(&b, "]}");
    } else {
      symbol(sv, &b, d, ir_printf("%%%s", it->name->name), 13, NULL, it->span, it->var.span);
      ir_buf_putc(&b, '}');
    }
  }
  ir_buf_putc(&b, ']');
  respond(sv, id, b.data);
}

/* ---------------------------------------------------------------- completion and signatures */

static bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* The start of the word that ends at off (a name with its sigil). */
static size_t word_start(const Doc *d, size_t off) {
  size_t i = off;
  while (i > 0 && word_char(d->text[i - 1])) i--;
  if (i > 0 && (d->text[i - 1] == '%' || d->text[i - 1] == '@')) i--;
  return i;
}

/* The call whose argument list holds off: the offset of its `(`, and the callee's name before it
 * (an operator's or a global's) in *name; the argument's index in *arg and, if the argument is
 * `key=...`, its key's length in *keylen. -1 when off is in no call. */
static long enclosing_call(const Doc *d, size_t off, const char **name, size_t *namelen, int *arg, const char **key,
                           size_t *keylen) {
  int depth = 0, commas = 0;
  size_t last_comma = off;
  for (size_t i = off; i-- > 0;) {
    char c = d->text[i];
    if (c == ')' || c == ']' || c == '}') depth++;
    else if (c == '[' || c == '{') {
      if (depth == 0) return -1;
      depth--;
    } else if (c == '(') {
      if (depth > 0) {
        depth--;
        continue;
      }
      size_t e = i, s = i;
      while (s > 0 && (word_char(d->text[s - 1]))) s--;
      if (s > 0 && d->text[s - 1] == '@') s--;
      if (s == e) return -1;
      *name = d->text + s;
      *namelen = e - s;
      *arg = commas;
      size_t a = (commas ? last_comma : i) + 1;
      a += strspn(d->text + a, " \t\n");
      size_t k = a;
      while (k < off && word_char(d->text[k])) k++;
      *key = d->text + a;
      *keylen = k < off && d->text[k] == '=' ? k - a : 0;
      return (long)i;
    } else if (c == ',' && depth == 0) {
      if (!commas) last_comma = i;
      commas++;
    } else if (c == ';' && depth == 0) {
      return -1;
    }
  }
  return -1;
}

static void completion_item(IrBuf *b, int *n, const char *label, int kind, const char *detail, const char *insert) {
  if (*n >= MAX_CANDIDATES) return;
  if ((*n)++) ir_buf_putc(b, ',');
  ir_buf_puts(b, "{\"label\":");
  put_str(b, label);
  ir_buf_printf(b, ",\"kind\":%d", kind);
  if (detail) {
    ir_buf_puts(b, ",\"detail\":");
    put_str(b, detail);
  }
  if (insert) {
    ir_buf_puts(b, ",\"insertText\":");
    put_str(b, insert);
  }
  ir_buf_putc(b, '}');
}

/* The start of the top-level item that off is in: the last line before it that starts with
 * `def`, `type` or `data` (or the text's start). */
static size_t item_start(const Doc *d, size_t off) {
  for (size_t i = off; i-- > 0;)
    if ((i == 0 || d->text[i - 1] == '\n') &&
        (!strncmp(d->text + i, "def ", 4) || !strncmp(d->text + i, "type ", 5) || !strncmp(d->text + i, "data ", 5)))
      return i;
  return 0;
}

static bool listed(IrSymMap *seen, Sym name) {
  if (ir_symmap_get(seen, name)) return true;
  ir_symmap_put(seen, name, (void *)name);
  return false;
}

static void completion(Server *sv, const IrJson *id, Doc *d, long off) {
  size_t start = word_start(d, (size_t)off);
  const char *prefix = ir_strndup(d->text + start, (size_t)off - start);
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_puts(&b, "{\"isIncomplete\":false,\"items\":[");
  int n = 0;
  IrSymMap seen = {0};
  const char *callee, *key;
  size_t calleelen, keylen;
  int arg;
  long call = enclosing_call(d, start, &callee, &calleelen, &arg, &key, &keylen);
  int op = call >= 0 ? ir_op_lookup(callee, calleelen) : -1;
  bool only_attrs = false;
  if (prefix[0] == '%') { /* the locals written in this item before here, with their types when known */
    size_t from = item_start(d, start);
    for (size_t i = from; i < start; i++) {
      if (d->text[i] != '%') continue;
      size_t e = i + 1;
      while (e < start && word_char(d->text[e]) && d->text[e] != '.') e++;
      if (e == i + 1) continue;
      Sym name = ir_sym_n(d->text + i + 1, e - i - 1);
      if (strncmp(name->name, prefix + 1, strlen(prefix) - 1) || listed(&seen, name)) continue;
      const char *detail = NULL;
      for (int k = 0; k < d->look.names.len; k++) {
        const LookupName *x = &d->look.names.items[k];
        if (x->kind == LOOKUP_LOCAL && x->binder && x->type && x->span.len == e - i && !memcmp(d->text + x->span.off, d->text + i, e - i))
          detail = ir_type_str(x->type);
      }
      completion_item(&b, &n, ir_printf("%%%s", name->name), 6, detail, NULL);
    }
  } else if (op >= 0 && arg >= ir_ops[op].min_args && prefix[0] != '@') { /* an attribute of the operator */
    only_attrs = arg >= ir_ops[op].max_args; /* past its arguments, only an attribute may come */
    for (const char *p = ir_ops[op].attrs; *p;) {
      size_t len = strcspn(p, " ");
      bool required = len && p[len - 1] == '!';
      const char *attr = ir_strndup(p, len - required);
      if (!strncmp(attr, prefix, strlen(prefix)))
        completion_item(&b, &n, attr, 10, required ? "required attribute" : "attribute", ir_printf("%s=", attr));
      p += len;
      p += strspn(p, " ");
    }
  }
  if (prefix[0] == '@') /* the text's definitions, also where it does not parse */
    for (size_t i = 0; i + 5 < d->len; i++)
      if ((i == 0 || d->text[i - 1] == '\n') && !strncmp(d->text + i, "def @", 5)) {
        size_t e = i + 5;
        while (e < d->len && word_char(d->text[e]) && d->text[e] != '.') e++;
        Sym name = ir_sym_n(d->text + i + 5, e - i - 5);
        if (e > i + 5 && !strncmp(name->name, prefix + 1, strlen(prefix) - 1) && !listed(&seen, name)) {
          const IrItem *it = NULL;
          for (int k = 0; d->look.prog && k < d->look.prog->nitems && !it; k++)
            if (d->look.prog->items[k].kind == IR_ITEM_DEF && d->look.prog->items[k].name == name) it = &d->look.prog->items[k];
          const IrType *t = it && d->look.types ? ir_ptrmap_get(d->look.types, it->fn) : NULL;
          completion_item(&b, &n, ir_printf("@%s", name->name), 3, t ? ir_type_str(t) : NULL, NULL);
        }
      }
  if (prefix[0] != '%' && !only_attrs) {
    /* The text's own definitions and constructors (as they last parsed), then the session's names. */
    const IrProgram *p = d->look.prog ? d->look.prog : d->parsed;
    for (int i = 0; p && i < p->nitems; i++) {
      const IrItem *it = &p->items[i];
      const IrType *t = it->kind == IR_ITEM_DEF && d->look.types && p == d->look.prog ? ir_ptrmap_get(d->look.types, it->fn) : NULL;
      if (it->kind == IR_ITEM_DEF && prefix[0] == '@' && !strncmp(it->name->name, prefix + 1, strlen(prefix) - 1) &&
          !listed(&seen, it->name))
        completion_item(&b, &n, ir_printf("@%s", it->name->name), 3, p == d->look.prog && t ? ir_type_str(t) : NULL, NULL);
      if (it->kind != IR_ITEM_DATA || prefix[0] == '@') continue;
      if (!strncmp(it->name->name, prefix, strlen(prefix)) && !listed(&seen, it->name))
        completion_item(&b, &n, it->name->name, 22, NULL, NULL);
      for (int k = 0; k < it->data.nctors; k++)
        if (!strncmp(it->data.ctors[k].name->name, prefix, strlen(prefix)) && !listed(&seen, it->data.ctors[k].name))
          completion_item(&b, &n, it->data.ctors[k].name->name, 4, NULL, NULL);
    }
    ReplCandidate *cands;
    int nc = prefix[0] || op < 0 ? repl_complete(sv->s, prefix, &cands) : 0;
    for (int i = 0; i < nc; i++) {
      const ReplCandidate *c = &cands[i];
      if (c->kind == REPL_CAND_COMMAND || c->kind == REPL_CAND_BINDING) continue;
      Sym name = ir_sym(c->kind == REPL_CAND_GLOBAL && c->name[0] == '@' ? c->name + 1 : c->name);
      if (c->kind != REPL_CAND_OPERATOR && listed(&seen, name)) continue;
      int kind = c->kind == REPL_CAND_GLOBAL ? 3 : c->kind == REPL_CAND_CONSTRUCTOR ? 4 : c->kind == REPL_CAND_DATA ? 22 : 24;
      completion_item(&b, &n, c->name, kind, repl_candidate_detail(sv->s, c), NULL);
    }
  }
  ir_buf_puts(&b, "]}");
  respond(sv, id, b.data);
}

static void signature_help(Server *sv, const IrJson *id, Doc *d, long off) {
  const char *callee, *key;
  size_t calleelen, keylen;
  int arg;
  long call = enclosing_call(d, (size_t)off, &callee, &calleelen, &arg, &key, &keylen);
  int op = call >= 0 ? ir_op_lookup(callee, calleelen) : -1;
  if (op < 0) {
    respond(sv, id, "null");
    return;
  }
  const IrOpInfo *info = &ir_ops[op];
  IrBuf label, params;
  ir_buf_init(&label);
  ir_buf_init(&params);
  ir_buf_printf(&label, "%s(", info->name);
  int nparams = 0, active = -1;
  for (int i = 0; i < info->max_args && i < 16; i++) {
    size_t from = label.len;
    ir_buf_printf(&label, "%s%s%s", i ? ", " : "", i >= info->min_args ? "?" : "", ir_printf("%%%d", i));
    ir_buf_printf(&params, "%s{\"label\":[%zu,%zu]}", nparams++ ? "," : "", from + (i ? 2 : 0), label.len);
    if (i == arg && !keylen) active = i;
  }
  if (info->max_args < 0 || info->max_args > 16) ir_buf_puts(&label, ", ...");
  for (const char *p = info->attrs; *p;) {
    size_t len = strcspn(p, " ");
    bool required = len && p[len - 1] == '!';
    size_t from = label.len + (nparams ? 2 : 0);
    ir_buf_printf(&label, "%s%.*s%s", nparams ? ", " : "", (int)(len - required), p, required ? "!" : "=...");
    if (keylen && keylen == len - required && !memcmp(key, p, keylen)) active = nparams;
    ir_buf_printf(&params, "%s{\"label\":[%zu,%zu],\"documentation\":%s}", nparams++ ? "," : "", from, label.len,
                  required ? "\"required\"" : "\"optional: the operator's default applies\"");
    p += len;
    p += strspn(p, " ");
  }
  ir_buf_putc(&label, ')');
  if (active < 0 && arg >= info->max_args && nparams > info->max_args) { /* an attribute to come: the one typed */
    size_t typed = 0;
    while (key + typed < d->text + off && word_char(key[typed])) typed++;
    int k = 0;
    for (const char *p = info->attrs; *p && active < 0; k++) {
      size_t len = strcspn(p, " ");
      if (typed <= len && !strncmp(p, key, typed)) active = info->max_args + k;
      p += len;
      p += strspn(p, " ");
    }
  }
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_puts(&b, "{\"signatures\":[{\"label\":");
  put_str(&b, label.data);
  ir_buf_puts(&b, ",\"documentation\":{\"kind\":\"markdown\",\"value\":");
  put_str(&b, ir_printf("```relay\n%s : %s\n```", info->name, ir_type_str(ty_operator_scheme(sv->s->module, op))));
  ir_buf_printf(&b, "},\"parameters\":[%s]}],\"activeSignature\":0,\"activeParameter\":%d}", params.data,
                active >= 0 ? active : nparams);
  respond(sv, id, b.data);
}

/* ---------------------------------------------------------------- code actions */

static void edit_action(const Server *sv, IrBuf *b, int *n, const Doc *d, const char *title, size_t from, size_t to,
                        const char *text, const char *kind) {
  if ((*n)++) ir_buf_putc(b, ',');
  ir_buf_puts(b, "{\"title\":");
  put_str(b, title);
  ir_buf_printf(b, ",\"kind\":\"%s\",\"edit\":{\"changes\":{", kind);
  put_str(b, d->uri);
  ir_buf_puts(b, ":[{\"range\":");
  put_range(sv, b, d, from, to);
  ir_buf_puts(b, ",\"newText\":");
  put_str(b, text);
  ir_buf_puts(b, "}]}}}");
}

static void code_actions(Server *sv, const IrJson *id, const IrJson *params, Doc *d) {
  size_t from, to;
  range_param(sv, d, member(params, "range", IR_JSON_OBJECT), &from, &to);
  IrBuf b;
  ir_buf_init(&b);
  ir_buf_putc(&b, '[');
  int n = 0;
  int i = 0;
  for (const LookupName *x; (x = lookup_next_unwritten(&d->look, &i, from, to));) { /* a binder without its type: write it */
    size_t at = (size_t)x->span.off + x->span.len;
    const char *name = ir_strndup(d->text + x->span.off, x->span.len);
    edit_action(sv, &b, &n, d, ir_printf("Add the inferred type of `%s`", name), at, at,
                ir_printf(" : %s", ir_type_str(x->type)), "quickfix");
  }
  for (const IrDiag *g = d->look.diags.first; g; g = g->next) { /* a hole: the locals of its type */
    if (g->kind != IR_DIAG_HOLE || g->span.src != d->look.src || (size_t)g->span.off + g->span.len < from ||
        g->span.off > to)
      continue;
    const char *must = strstr(g->message, " must be ");
    if (!must) continue;
    must += strlen(" must be ");
    for (int k = 0; k < g->notes.len; k++) {
      const char *note = g->notes.items[k];
      const char *colon = strstr(note, " : ");
      if (strncmp(note, "  %", 3) || !colon || strcmp(colon + 3, must)) continue;
      const char *name = ir_strndup(note + 2, (size_t)(colon - note - 2));
      edit_action(sv, &b, &n, d, ir_printf("Fill the hole with `%s`", name), g->span.off, (size_t)g->span.off + g->span.len,
                  name, "quickfix");
    }
  }
  ir_buf_putc(&b, ']');
  respond(sv, id, b.data);
}

/* ---------------------------------------------------------------- lifecycle */

static void initialize(Server *sv, const IrJson *id, const IrJson *params) {
  const IrJson *caps = member(params, "capabilities", IR_JSON_OBJECT), *general = member(caps, "general", IR_JSON_OBJECT);
  const IrJson *encs = member(general, "positionEncodings", IR_JSON_ARRAY);
  sv->enc = ENC_UTF16; /* the protocol's default, and all VS Code offers */
  for (int i = 0; encs && i < encs->n; i++) { /* the client's order is its preference */
    const IrJson *e = encs->items[i];
    if (e->kind != IR_JSON_STRING) continue;
    if (!strcmp(e->s, "utf-16")) break;
    if (!strcmp(e->s, "utf-32")) {
      sv->enc = ENC_UTF32;
      break;
    }
    if (!strcmp(e->s, "utf-8")) {
      sv->enc = ENC_UTF8;
      break;
    }
  }
  static const char *const enc_names[] = {"utf-16", "utf-8", "utf-32"};
  sv->initialized = true;
  respond(sv, id,
          ir_printf("{\"capabilities\":{\"positionEncoding\":\"%s\",\"textDocumentSync\":{\"openClose\":true,"
                    "\"change\":1},\"hoverProvider\":true,\"inlayHintProvider\":true,\"definitionProvider\":true,"
                    "\"referencesProvider\":true,\"documentSymbolProvider\":true,\"completionProvider\":{"
                    "\"triggerCharacters\":[\"@\",\"%%\",\".\"]},\"signatureHelpProvider\":{\"triggerCharacters\":"
                    "[\"(\",\",\"]},\"codeActionProvider\":{\"codeActionKinds\":[\"quickfix\"]}},"
                    "\"serverInfo\":{\"name\":\"relay\",\"version\":\"%s\"}}",
                    enc_names[sv->enc], RELAY_VERSION));
}

/* Whether a request that needs a document's check can be answered: it was checked, or the check
 * now ran whole. A cancelled request is answered so. */
static Doc *ready(Server *sv, const IrJson *id, const IrJson *params) {
  Doc *d = doc_param(sv, params);
  if (!d) {
    respond_error(sv, id, ERR_PARAMS, "params.textDocument.uri names no open document");
    return NULL;
  }
  if (!ensure_checked(sv, d)) {
    respond_error(sv, id, ERR_CANCELLED, "the request was cancelled");
    return NULL;
  }
  return d;
}

/* Answers one message; false after `exit`. */
static bool handle(Server *sv, const IrJson *msg, int *status) {
  const IrJson *method = member(msg, "method", IR_JSON_STRING), *id = msg ? ir_json_get(msg, "id") : NULL;
  const IrJson *params = msg ? ir_json_get(msg, "params") : NULL;
  if (!method) { /* a response to nothing we asked, or not a message */
    if (id && !ir_json_get(msg, "result") && !ir_json_get(msg, "error"))
      respond_error(sv, id, ERR_INVALID, "a request needs a method");
    return true;
  }
  const char *m = method->s;
  if (!strcmp(m, "exit")) {
    *status = sv->shut_down ? 0 : 1;
    return false;
  }
  if (!id) { /* notifications */
    if (!sv->initialized || sv->shut_down) return true;
    if (!strcmp(m, "textDocument/didOpen")) did_open(sv, params);
    else if (!strcmp(m, "textDocument/didChange")) did_change(sv, params);
    else if (!strcmp(m, "textDocument/didClose")) did_close(sv, params);
    return true; /* initialized, didSave, $/setTrace, ...: nothing to do */
  }
  if (!strcmp(m, "initialize")) {
    initialize(sv, id, params);
    return true;
  }
  if (!sv->initialized) {
    respond_error(sv, id, ERR_NOT_INITIALIZED, "the server is not initialized");
    return true;
  }
  if (sv->shut_down) {
    respond_error(sv, id, ERR_INVALID, "the server is shut down: only `exit` is answered");
    return true;
  }
  if (!strcmp(m, "shutdown")) {
    sv->shut_down = true;
    respond(sv, id, "null");
    return true;
  }
  static const char *const on_doc[] = {"textDocument/hover",          "textDocument/inlayHint",
                                       "textDocument/definition",     "textDocument/references",
                                       "textDocument/documentSymbol", "textDocument/completion",
                                       "textDocument/signatureHelp",  "textDocument/codeAction"};
  int which = -1;
  for (int i = 0; i < (int)(sizeof on_doc / sizeof *on_doc); i++)
    if (!strcmp(m, on_doc[i])) which = i;
  if (which < 0) {
    respond_error(sv, id, ERR_NO_METHOD, ir_printf("relay --lsp does not answer `%s`", m));
    return true;
  }
  Doc *d = ready(sv, id, params);
  if (!d) return true;
  long off = position_param(sv, d, params);
  bool needs_place = which == 0 || which == 2 || which == 3 || which == 5 || which == 6;
  if (needs_place && off < 0) {
    respond_error(sv, id, ERR_PARAMS, "params.position must be {line, character}");
    return true;
  }
  switch (which) {
  case 0: hover(sv, id, params, d, off); break;
  case 1: inlay_hints(sv, id, params, d); break;
  case 2: definition(sv, id, d, off); break;
  case 3: references(sv, id, params, d, off); break;
  case 4: document_symbols(sv, id, d); break;
  case 5: completion(sv, id, d, off); break;
  case 6: signature_help(sv, id, d, off); break;
  case 7: code_actions(sv, id, params, d); break;
  }
  return true;
}

/* ---------------------------------------------------------------- the reader */

/* Reads one message's body (malloc'd) into *body; false at the end of input. A malformed header
 * is skipped up to the next blank line. */
static bool read_message(FILE *in, char **body, size_t *len) {
  for (;;) {
    char line[MAX_HEADER];
    long length = -1;
    bool any = false;
    while (fgets(line, sizeof line, in)) {
      any = true;
      if (!strcmp(line, "\r\n") || !strcmp(line, "\n")) break;
      if (!strncasecmp(line, "Content-Length:", 15)) length = strtol(line + 15, NULL, 10);
    }
    if (!any || feof(in)) return false;
    if (length < 0 || (size_t)length > IR_SOURCE_MAX * 2) continue; /* no body to read: the next header */
    char *b = malloc((size_t)length + 1);
    if (!b) return false;
    if (fread(b, 1, (size_t)length, in) != (size_t)length) {
      free(b);
      return false;
    }
    b[length] = '\0';
    *body = b;
    *len = (size_t)length;
    return true;
  }
}

/* What the reader answers at once: a cancel of the running request (interrupted) or of a queued
 * one (remembered); a change to the document being checked (the check is stale). */
static bool read_now(Server *sv, const char *text, size_t len) {
  bool cancel = memmem(text, len, "$/cancelRequest", 15) != NULL;
  bool change = memmem(text, len, "textDocument/didChange", 22) != NULL;
  if (!cancel && !change) return false;
  IrTrap trap; /* this thread's own */
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) return false;
  IrJsonError err;
  const IrJson *msg = ir_json_parse(text, len, MAX_DEPTH, &err);
  const IrJson *method = member(msg, "method", IR_JSON_STRING), *params = msg ? ir_json_get(msg, "params") : NULL;
  bool answered = false;
  pthread_mutex_lock(&sv->lock);
  if (method && cancel && !strcmp(method->s, "$/cancelRequest")) {
    const IrJson *id = params && params->kind == IR_JSON_OBJECT ? ir_json_get(params, "id") : NULL;
    if (id) {
      IrBuf b;
      ir_buf_init(&b);
      ir_json_put(&b, id);
      if (!strcmp(b.data, sv->running)) pthread_kill(sv->worker, SIGINT);
      else {
        char *copy = strdup(b.data);
        if (copy) IR_VEC_PUSH(sv->cancelled, copy);
      }
    }
    answered = true; /* a notification: nothing to queue */
  } else if (method && change && !strcmp(method->s, "textDocument/didChange")) {
    const IrJson *td = member(params, "textDocument", IR_JSON_OBJECT), *uri = member(td, "uri", IR_JSON_STRING);
    if (uri && sv->checking && !sv->running[0] && !strcmp(uri->s, sv->checking)) pthread_kill(sv->worker, SIGINT);
  }
  pthread_mutex_unlock(&sv->lock);
  ir_trap_pop(&trap);
  return answered;
}

static void *read_messages(void *arg) {
  Server *sv = arg;
  sigset_t intr;
  sigemptyset(&intr);
  sigaddset(&intr, SIGINT);
  pthread_sigmask(SIG_BLOCK, &intr, NULL); /* SIGINT is the answering thread's */
  char *text;
  size_t len;
  while (read_message(stdin, &text, &len)) {
    if (read_now(sv, text, len)) {
      free(text);
      continue;
    }
    Message *m = malloc(sizeof *m);
    if (!m) {
      free(text);
      continue;
    }
    *m = (Message){text, len, NULL};
    pthread_mutex_lock(&sv->lock);
    if (sv->tail) sv->tail->next = m;
    else sv->head = m;
    sv->tail = m;
    pthread_cond_signal(&sv->more);
    pthread_mutex_unlock(&sv->lock);
  }
  pthread_mutex_lock(&sv->lock);
  sv->eof = true;
  pthread_cond_signal(&sv->more);
  pthread_mutex_unlock(&sv->lock);
  return NULL;
}

/* ---------------------------------------------------------------- the loop */

static double seconds(struct timespec t) { return (double)t.tv_sec + (double)t.tv_nsec * 1e-9; }

/* The document to check next: changed, and still for DEBOUNCE_MS, the one changed first; else
 * the time to wait for one in *wait (seconds; negative when none is changed). */
static Doc *due_doc(Server *sv, double *wait) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  Doc *first = NULL;
  for (int i = 0; i < sv->docs.len; i++) {
    Doc *d = sv->docs.items[i];
    if (d->dirty && (!first || seconds(d->changed) < seconds(first->changed))) first = d;
  }
  *wait = -1;
  if (!first) return NULL;
  double left = seconds(first->changed) + DEBOUNCE_MS / 1000.0 - seconds(now);
  if (left <= 0) return first;
  *wait = left;
  return NULL;
}

/* Whether a queued request was cancelled before it ran (and forgets it). */
static bool was_cancelled(Server *sv, const char *id) {
  bool found = false;
  pthread_mutex_lock(&sv->lock);
  for (int i = 0; i < sv->cancelled.len && !found; i++)
    if (!strcmp(sv->cancelled.items[i], id)) {
      free(sv->cancelled.items[i]);
      sv->cancelled.items[i] = sv->cancelled.items[--sv->cancelled.len];
      found = true;
    }
  pthread_mutex_unlock(&sv->lock);
  return found;
}

/* Answers one message's text; false after `exit`. */
static bool answer(Server *sv, const char *text, size_t len, int *status) {
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  const IrJson *volatile id = NULL;
  if (setjmp(trap.jb) != 0) {
    if (id) respond_error(sv, id, ERR_INTERNAL, "relay ran out of memory answering the request; it goes on");
    pthread_mutex_lock(&sv->lock);
    sv->running[0] = '\0';
    pthread_mutex_unlock(&sv->lock);
    return true;
  }
  IrJsonError err;
  const IrJson *msg = ir_json_parse(text, len, MAX_DEPTH, &err);
  if (!msg || msg->kind != IR_JSON_OBJECT) {
    respond_error(sv, NULL, msg ? ERR_INVALID : ERR_PARSE,
                  msg ? "a message must be a JSON object" : ir_printf("the message is not JSON: %s", err.message));
    ir_trap_pop(&trap);
    return true;
  }
  id = ir_json_get(msg, "id");
  bool go = true;
  if (id && member(msg, "method", IR_JSON_STRING)) {
    IrBuf b;
    ir_buf_init(&b);
    ir_json_put(&b, id);
    if (was_cancelled(sv, b.data)) {
      respond_error(sv, id, ERR_CANCELLED, "the request was cancelled");
      ir_trap_pop(&trap);
      return true;
    }
    rt_interrupt_clear();
    pthread_mutex_lock(&sv->lock);
    snprintf(sv->running, sizeof sv->running, "%s", b.len < sizeof sv->running ? b.data : "");
    pthread_mutex_unlock(&sv->lock);
  }
  go = handle(sv, msg, status);
  pthread_mutex_lock(&sv->lock);
  sv->running[0] = '\0';
  pthread_mutex_unlock(&sv->lock);
  ir_trap_pop(&trap);
  return go;
}

/* publish, with memory that runs out said and survived. */
static void publish_guarded(Server *sv, Doc *d) {
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) == 0) {
    publish(sv, d);
    ir_trap_pop(&trap);
  } else {
    d->dirty = false; /* the next change tries again */
    fprintf(stderr, "relay --lsp: out of memory checking %s; it goes on\n", d->name);
  }
}

int lsp_main(Session *s, const ReplOptions *opt) {
  (void)opt;
  Server *sv = &server;
  *sv = (Server){.s = s, .worker = pthread_self()};
  pthread_mutex_init(&sv->lock, NULL);
  pthread_mutex_init(&sv->write_lock, NULL);
  pthread_condattr_t monotonic;
  pthread_condattr_init(&monotonic);
  pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
  pthread_cond_init(&sv->more, &monotonic);
  /* The protocol owns stdout; whatever else would print there (a warning) goes to stderr, which
   * editors keep as the server's log. */
  fflush(stdout);
  sv->out = dup(STDOUT_FILENO);
  if (sv->out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    fprintf(stderr, "relay: cannot start --lsp: %s\n", strerror(errno));
    return 1;
  }
  s->repl = true;
  session_catch_interrupts(NULL);
  pthread_t reader;
  if ((errno = pthread_create(&reader, NULL, read_messages, sv)) != 0) {
    fprintf(stderr, "relay: cannot start --lsp's reader: %s\n", strerror(errno));
    return 1;
  }
  pthread_detach(reader); /* it may be waiting for input when the process ends */
  int status = 1;         /* the end of input without `exit` */
  for (;;) {
    Message *m = NULL;
    Doc *due = NULL;
    pthread_mutex_lock(&sv->lock);
    for (;;) {
      if (sv->head) {
        m = sv->head;
        sv->head = m->next;
        if (!sv->head) sv->tail = NULL;
        break;
      }
      if (sv->eof) break;
      double wait;
      due = due_doc(sv, &wait);
      if (due) break;
      if (wait < 0) {
        pthread_cond_wait(&sv->more, &sv->lock);
        continue;
      }
      struct timespec until;
      clock_gettime(CLOCK_MONOTONIC, &until);
      double t = seconds(until) + wait;
      until.tv_sec = (time_t)t;
      until.tv_nsec = (long)((t - (double)until.tv_sec) * 1e9);
      pthread_cond_timedwait(&sv->more, &sv->lock, &until);
    }
    pthread_mutex_unlock(&sv->lock);
    if (m) {
      bool go = answer(sv, m->text, m->len, &status);
      free(m->text);
      free(m);
      if (!go) break;
    } else if (due) {
      publish_guarded(sv, due);
    } else {
      break; /* the end of input */
    }
  }
  return status;
}
