/* Diagnostics: collection and rendering with the source line and a caret under the span. */
#include "ir/diag.h"

volatile sig_atomic_t ir_interrupted;

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

IrSource *ir_source_new(const char *name, const char *text, size_t len) {
  IrSource *s = IR_NEW(IrSource);
  s->name = ir_strdup(name);
  s->text = ir_strndup(text, len);
  s->len = len;
  return s;
}

IrSource *ir_source_read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  IrBuf b;
  ir_buf_init(&b);
  char chunk[65536];
  size_t n;
  bool too_large = false;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (b.len + n > IR_SOURCE_MAX) { /* /dev/zero, or a file no program is: stop, with an error */
      too_large = true;
      break;
    }
    ir_buf_putn(&b, chunk, n);
  }
  int failed = ferror(f);
  fclose(f);
  if (failed || too_large) {
    errno = too_large ? EFBIG : EIO;
    return NULL;
  }
  IrSource *s = IR_NEW(IrSource);
  s->name = ir_strdup(path);
  s->text = b.data;
  s->len = b.len;
  return s;
}

const char *ir_span_place(IrSpan s) {
  if (!s.src) return "relay itself";
  if (s.src->input) return ir_printf("%s:%u:%u (input %d)", s.src->name, s.line, s.col, s.src->input);
  return ir_printf("%s:%u:%u", s.src->name, s.line, s.col);
}

IrSpan ir_span_join(IrSpan a, IrSpan b) {
  if (!a.src) return b;
  if (!b.src || a.src != b.src) return a;
  IrSpan first = a.off <= b.off ? a : b;
  uint32_t end_a = a.off + a.len, end_b = b.off + b.len;
  uint32_t end = end_a > end_b ? end_a : end_b;
  first.len = end - first.off;
  return first;
}

IrDiag *ir_diag_add(IrDiags *ds, IrDiagKind kind, IrSpan span, const char *fmt, ...) {
  IrDiag *d = IR_NEW(IrDiag);
  d->kind = kind;
  d->span = span;
  va_list ap;
  va_start(ap, fmt);
  d->message = ir_vprintf(fmt, ap);
  va_end(ap);
  if (ds->last) ds->last->next = d;
  else ds->first = d;
  ds->last = d;
  if (kind == IR_DIAG_WARNING) ds->warnings++;
  else ds->errors++;
  return d;
}

void ir_diag_note(IrDiag *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *note = ir_vprintf(fmt, ap);
  va_end(ap);
  IR_VEC_PUSH(d->notes, note);
}

typedef struct {
  IrDiag *d;
  int source; /* the rank of its source, by first diagnostic */
  uint32_t off;
  int seq;
} Placed;

static int by_place(const void *a, const void *b) {
  const Placed *x = a, *y = b;
  if (x->source != y->source) return x->source < y->source ? -1 : 1;
  if (x->off != y->off) return x->off < y->off ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void ir_diags_sort(IrDiags *ds) {
  int n = 0;
  for (IrDiag *d = ds->first; d; d = d->next) n++;
  if (n < 2) return;
  Placed *all = IR_NEW_ARRAY(Placed, n);
  const IrSource *sources[8]; /* the few a chunk's diagnostics name; the rest share the last rank */
  int nsources = 0, i = 0;
  for (IrDiag *d = ds->first; d; d = d->next, i++) {
    all[i] = (Placed){d, i ? all[i - 1].source : 0, i ? all[i - 1].off : 0, i};
    if (!d->span.src) continue;
    int r = 0;
    while (r < nsources && sources[r] != d->span.src) r++;
    if (r == nsources && nsources < 8) sources[nsources++] = d->span.src;
    all[i].source = r;
    all[i].off = d->span.off;
  }
  qsort(all, (size_t)n, sizeof *all, by_place);
  ds->first = all[0].d;
  for (i = 0; i + 1 < n; i++) all[i].d->next = all[i + 1].d;
  all[n - 1].d->next = NULL;
  ds->last = all[n - 1].d;
}

const char *ir_diag_kind_name(IrDiagKind kind) {
  switch (kind) {
  case IR_DIAG_PARSE: return "parse error";
  case IR_DIAG_TYPE: return "type error";
  case IR_DIAG_RUNTIME: return "run-time error";
  case IR_DIAG_WARNING: return "warning";
  case IR_DIAG_HOLE: return "hole";
  }
  UNREACHABLE("a diagnostic of no kind");
  return "error";
}

/* Display width of the code point starting at s (East Asian wide characters take two cells). */
static int cell_width(const unsigned char *s, int *bytes) {
  unsigned c = s[0];
  int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  unsigned cp = n == 1 ? c : c & (0x7f >> n);
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) {
      n = i;
      break;
    }
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  *bytes = n;
  bool wide = (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
              (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
              (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
              (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd);
  return wide ? 2 : 1;
}

/* A source line as the excerpt shows it: a control character (NUL included, which would end the
 * message) or a byte that is not UTF-8 shows as `?`, one cell, as cell_width counts it. */
static void put_line(IrBuf *out, const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    const unsigned char *u = (const unsigned char *)s + i;
    int nb, w = cell_width(u, &nb);
    if ((size_t)nb > n - i) nb = (int)(n - i);
    int want = u[0] < 0x80 ? 1 : (u[0] >> 5) == 6 ? 2 : (u[0] >> 4) == 14 ? 3 : (u[0] >> 3) == 30 ? 4 : 0;
    bool ok = u[0] == '\t' || (u[0] >= 0x20 && u[0] != 0x7f && want == nb);
    if (ok)
      ir_buf_putn(out, (const char *)u, (size_t)nb);
    else
      for (int k = 0; k < w; k++) ir_buf_putc(out, '?');
    i += (size_t)nb;
  }
}

/* ANSI colours for a terminal: the place in bold, the kind in red (errors), magenta (warnings) or cyan (holes),
 * the caret line in green, as compilers show them. */
typedef struct {
  const char *bold, *kind, *caret, *off;
} Colours;

/* At most this many bytes of a source line are shown before and after a diagnostic's place. */
enum { EXCERPT_BEFORE = 80, EXCERPT_AFTER = 120 };

/* input: the REPL input the diagnostic is about (0: none), so that a place in another one, such as
 * a run-time error in a function defined earlier, names its input: `<repl>:1:17 (input 49): `. */
static void render(IrBuf *out, const IrDiag *d, const Colours *c, int input) {
  const IrSpan *sp = &d->span;
  const char *file = sp->src ? sp->src->name : "<relay>";
  ir_buf_puts(out, c->bold);
  if (sp->src && input && sp->src->input && sp->src->input != input)
    ir_buf_printf(out, "%s: ", ir_span_place(*sp));
  else if (sp->src) ir_buf_printf(out, "%s:%u:%u: ", file, sp->line, sp->col);
  else ir_buf_printf(out, "%s: ", file);
  ir_buf_printf(out, "%s%s:%s%s %s%s\n", c->kind, ir_diag_kind_name(d->kind), c->off, c->bold, d->message, c->off);
  if (sp->src && sp->off <= sp->src->len) {
    /* The line, or of a long one (a program on one line) a window around the place, "..." marking
     * what is left out: a diagnostic's size stays bounded, so a thousand warnings on one long line
     * print a thousand short excerpts, not a thousand copies of the line. */
    const char *text = sp->src->text;
    size_t start = sp->off;
    while (start > 0 && text[start - 1] != '\n' && sp->off - start < EXCERPT_BEFORE) start--;
    bool cut_left = start > 0 && text[start - 1] != '\n';
    while (cut_left && start < sp->off && ((unsigned char)text[start] & 0xc0) == 0x80) start++; /* whole characters */
    size_t end = sp->off;
    while (end < sp->src->len && text[end] != '\n' && text[end] != '\r' && end - sp->off < EXCERPT_AFTER) end++;
    bool cut_right = end < sp->src->len && text[end] != '\n' && text[end] != '\r';
    while (cut_right && end > sp->off && ((unsigned char)text[end] & 0xc0) == 0x80) end--;
    char gutter[16];
    int gw = snprintf(gutter, sizeof gutter, "%u", sp->line);
    ir_buf_printf(out, " %s | %s", gutter, cut_left ? "..." : "");
    put_line(out, text + start, end - start);
    ir_buf_puts(out, cut_right ? "...\n" : "\n");
    ir_buf_putc(out, ' ');
    ir_buf_indent(out, gw);
    ir_buf_puts(out, " | ");
    ir_buf_puts(out, c->caret);
    if (cut_left) ir_buf_puts(out, "   ");
    /* Pad to the span's column, keeping tabs so the caret lines up in any tab width. */
    for (size_t i = start; i < sp->off;) {
      int nb, w = cell_width((const unsigned char *)text + i, &nb);
      if (text[i] == '\t') ir_buf_putc(out, '\t');
      else ir_buf_indent(out, w);
      i += (size_t)nb;
    }
    ir_buf_putc(out, '^');
    /* Underline the rest of the span that lies on this line. */
    size_t stop = sp->off + sp->len < end ? sp->off + sp->len : end;
    size_t i = sp->off;
    if (i < stop) {
      int nb, w = cell_width((const unsigned char *)text + i, &nb);
      i += (size_t)nb;
      for (int k = 1; k < w; k++) ir_buf_putc(out, '~');
    }
    while (i < stop) {
      int nb, w = cell_width((const unsigned char *)text + i, &nb);
      for (int k = 0; k < w; k++) ir_buf_putc(out, '~');
      i += (size_t)nb;
    }
    ir_buf_puts(out, c->off);
    ir_buf_putc(out, '\n');
  }
  for (int i = 0; i < d->notes.len; i++) ir_buf_printf(out, "  %s\n", d->notes.items[i]);
}

void ir_diag_render(IrBuf *out, const IrDiag *d, int input) { render(out, d, &(Colours){"", "", "", ""}, input); }

/* Colour only on a terminal that can show it, and not when NO_COLOR is set (no-color.org). */
static bool wants_colour(FILE *f) {
  const char *term = getenv("TERM");
  return isatty(fileno(f)) && !getenv("NO_COLOR") && term && *term && strcmp(term, "dumb") != 0;
}

void ir_diags_print(FILE *f, const IrDiags *ds) {
  bool colour = wants_colour(f);
  for (const IrDiag *d = ds->first; d; d = d->next) {
    IrBuf b;
    ir_buf_init(&b);
    const char *kind = d->kind == IR_DIAG_WARNING ? "\033[1;35m" : d->kind == IR_DIAG_HOLE ? "\033[1;36m" : "\033[1;31m";
    render(&b, d, colour ? &(Colours){"\033[1m", kind, "\033[1;32m", "\033[0m"} : &(Colours){"", "", "", ""},
           ds->input);
    fputs(b.data, f);
  }
}

const char *ir_ordinal(int i) {
  static const char *const words[] = {"first",   "second", "third",  "fourth", "fifth",
                                      "sixth",   "seventh", "eighth", "ninth",  "tenth"};
  if (i >= 0 && i < 10) return words[i];
  int n = i + 1, last = n % 10;
  const char *suffix = n % 100 / 10 == 1 ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
  return ir_printf("%d%s", n, suffix);
}
