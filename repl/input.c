/* The REPL's inputs (input.h): lines gathered until an input is complete, then run. The parser says
 * whether an input is complete, but it is asked only at the end of a line where the line scanner
 * (ir/scan.h) says the input may be: an input of n lines is parsed once, not n times. A parse error
 * found then may lie on an earlier line, where the parser was not asked: the input ends at that
 * line, as it would have had the parser been asked there, and the lines after it are taken again. */
#include "repl/input.h"

#include <stdio.h>
#include <string.h>

#include "repl/commands.h"

typedef enum { INPUT_OK, INPUT_FAILED, INPUT_INCOMPLETE, INPUT_COMMENT, INPUT_HELD } InputResult;

/* Whether the text is a command (`:t ...`): a command is its own line, complete. */
static bool is_command(const IrBuf *text) { return text->data[strspn(text->data, " \t\n")] == ':'; }

/* Runs an input: a command, or a chunk of definitions and expressions. While more lines may come,
 * a chunk that ends too early is INPUT_INCOMPLETE (nothing printed): more lines are awaited; one
 * of comments only is INPUT_COMMENT: they may document a definition on the next line (:doc). With
 * hold, a parse error is INPUT_HELD (nothing printed), *held its line. */
static InputResult run_input(Session *s, ReplInput *in, SessionChunkEnd end, bool hold, int *held) {
  if (is_command(&in->text))
    return repl_command(s, in->text.data + strspn(in->text.data, " \t\n"), &in->quit) ? INPUT_OK : INPUT_FAILED;
  bool incomplete = false;
  IrTProgram *prog = session_load_input(s, "<repl>", in->text.data, in->text.len, end, &incomplete, hold ? held : NULL);
  if (!prog) return hold && *held ? INPUT_HELD : incomplete ? INPUT_INCOMPLETE : INPUT_FAILED;
  if (end == SESSION_CHUNK_MORE_MAY_COME && prog->nitems == 0) return INPUT_COMMENT;
  return session_run(s, prog, true) ? INPUT_OK : INPUT_FAILED;
}

/* Empties a buffer, keeping its memory: at the end of the input nothing may allocate (the
 * allocation-failure sweep counts on the allocations an input makes). */
static void clear(IrBuf *b) {
  b->len = 0;
  b->data[0] = '\0';
}

static void forget_text(ReplInput *in) {
  ir_scan_init(&in->scan);
  in->lines = in->untried = 0;
  in->probe = 1;
}

static void forget_entry(ReplInput *in) { clear(&in->entry); }

void repl_input_init(ReplInput *in, void (*remember)(const char *entry)) {
  *in = (ReplInput){.remember = remember};
  ir_buf_init(&in->text);
  ir_buf_init(&in->entry);
  ir_buf_init(&in->again);
  forget_text(in);
}

/* Hands the entry of an input that is complete to the history (a copy). */
static void remember_entry(ReplInput *in) {
  if (!in->entry.len) return;
  if (in->remember) in->remember(ir_strdup(in->entry.data));
  forget_entry(in);
}

/* Whether a line (t, n bytes, no leading blanks) starts with a command's word (`:t`, `:load`, `:{`):
 * no line of Relay starts so (a type annotation's `: int32` has a blank after its colon). */
static bool command_word(const char *t, size_t n) {
  return n >= 2 && t[0] == ':' && ((t[1] >= 'a' && t[1] <= 'z') || t[1] == '?' || t[1] == '{');
}

/* Whether the input's text so far ends inside a block comment or a `#[metadata]` section: the
 * parser says it is incomplete then, whatever the program before holds (it may fail at an earlier
 * line end, which must not be forgotten). */
static bool masked(const ReplInput *in) { return in->scan.comments > 0 || in->scan.meta; }

/* After run_input: waits for more lines, or ends the input. */
static void finish(Session *s, ReplInput *in, InputResult r) {
  in->comments = r == INPUT_COMMENT;
  if (r == INPUT_INCOMPLETE || r == INPUT_COMMENT) { /* wait for the rest */
    if (!masked(in)) in->untried = 0;
    return;
  }
  if (r == INPUT_FAILED) s->failed = true;
  s->input++;
  rt_interrupt_clear(); /* a Ctrl-C that came after the input's work was done cannot reach the next one */
  fflush(s->out);
  ir_buf_init(&in->text);
  forget_text(in);
  remember_entry(in);
}

/* The byte just after the first n lines of the input's text. */
static size_t after_lines(const ReplInput *in, int n) {
  size_t off = 0;
  for (int k = 0; k < n; k++) off = (size_t)((const char *)memchr(in->text.data + off, '\n', in->text.len - off) - in->text.data) + 1;
  return off;
}

/* Whether the input's first n lines fail to parse, as the parser would have said at line n's end:
 * the line of the error, else 0. */
static int fails(Session *s, const ReplInput *in, int n) {
  return session_input_fails_to_parse(s, "<repl>", in->text.data, after_lines(in, n));
}

/* The first of the input's lines lines[0..n) at whose end it fails to parse, by its index (n: none),
 * near a line `near`: failing at one line end, it fails at every later one, so a search out from
 * `near` finds it in a few parses. */
static int first_failing(Session *s, const ReplInput *in, const int *lines, int n, int near) {
  if (n == 0) return 0;
  int lo = 0, hi = n, k = 0; /* the index is in [lo, hi] */
  while (k < n - 1 && lines[k] < near) k++;
  if (fails(s, in, lines[k])) { /* in [lo, k]: look back, a step twice the last */
    hi = k;
    for (int step = 1; hi - step >= lo; step *= 2) {
      if (!fails(s, in, lines[hi - step])) {
        lo = hi - step + 1;
        break;
      }
      hi -= step;
    }
  } else { /* in [k + 1, hi]: look on */
    lo = k + 1;
    for (int step = 1; lo + step - 1 < hi; step *= 2) {
      if (fails(s, in, lines[lo + step - 1])) {
        hi = lo + step - 1;
        break;
      }
      lo += step;
    }
  }
  while (lo < hi) { /* bisect what is left */
    int mid = lo + (hi - lo) / 2;
    if (fails(s, in, lines[mid])) hi = mid;
    else lo = mid + 1;
  }
  return hi;
}

/* The first line from `from` to `last` at whose end the input fails to parse, knowing it fails at
 * `last` and is reported at line `near`. A text that ends inside a block comment is incomplete
 * unless the lexer failed before it, and one that ends inside a `#[metadata]` section cut short is
 * incomplete whatever the program before holds: the search looks among the lines that end in
 * neither, then among those before the line found that end in a comment, then in the section. */
static int first_failing_line(Session *s, const ReplInput *in, int from, int last, int near) {
  int *lines[3], n[3] = {0, 0, 0}; /* those that end in code, in a comment, in the section */
  for (int c = 0; c < 3; c++) lines[c] = IR_NEW_ARRAY(int, (size_t)last);
  IrScan sc;
  ir_scan_init(&sc);
  size_t off = 0;
  for (int j = 1; j < last; j++) {
    const char *p = in->text.data + off;
    size_t len = (size_t)((const char *)memchr(p, '\n', in->text.len - off) - p);
    ir_scan_line(&sc, p, len);
    off += len + 1;
    int c = sc.meta ? 2 : sc.comments ? 1 : 0;
    if (j >= from) lines[c][n[c]++] = j;
  }
  int found = last;
  for (int c = 0; c < 3; c++) {
    while (n[c] > 0 && lines[c][n[c] - 1] >= found) n[c]--;
    int k = first_failing(s, in, lines[c], n[c], near);
    if (k < n[c]) found = lines[c][k];
  }
  return found;
}

/* A parse error held back at the end of the input's last line (run_input with hold; `held` the
 * line it is reported at): the input ends at the first line, from the first untried one on, at
 * whose end it fails to parse; that error is reported as the REPL would have at that line's end,
 * and the lines after it are given back, to be taken again. */
static void end_at_error(Session *s, ReplInput *in, SessionChunkEnd end, int held) {
  int last = in->lines, at = first_failing_line(s, in, in->untried, last, held);
  int unused;
  if (at == last) {
    finish(s, in, run_input(s, in, end, false, &unused));
    return;
  }
  size_t cut = after_lines(in, at), n = in->text.len - cut;
  if (in->again_at >= n && !memcmp(in->again.data + in->again_at - n, in->text.data + cut, n)) {
    in->again_at -= n; /* they were taken from there: take them again */
  } else {
    IrBuf again; /* the lines after `at`, then those still to take again */
    ir_buf_init(&again);
    ir_buf_putn(&again, in->text.data + cut, n);
    ir_buf_putn(&again, in->again.data + in->again_at, in->again.len - in->again_at);
    in->again = again;
    in->again_at = 0;
  }
  in->text.len = cut;
  in->text.data[cut] = '\0';
  in->lines = at;
  if (in->started) in->line -= last - at;
  if (in->remember) { /* its entry: its lines as typed, which its text holds */
    forget_entry(in);
    ir_buf_putn(&in->entry, in->text.data, cut - 1);
  }
  finish(s, in, run_input(s, in, SESSION_CHUNK_MORE_MAY_COME, false, &unused));
}

/* Where the scanner says the input goes on, the parser is asked all the same, so that an error
 * inside brackets still open shows early: with early_errors at every line of an input of up to
 * PROBE_LINES lines (what a person types shows its mistake at once, as it always did), and while
 * lines given back are taken again, at 1, 2, 4, ... lines (twice the lines it was last asked at:
 * the input after an error may hold the next one, found by the time its input has twice its lines,
 * so that an input of n lines costs at most 2n lines of parsing). Otherwise an input is parsed
 * where it may be complete, and no more. */
enum { PROBE_LINES = 64 };

static void take_line(Session *s, ReplInput *in, const char *line, size_t len) {
  size_t lead = 0;
  while (lead < len && (line[lead] == ' ' || line[lead] == '\t')) lead++;
  const char *t = line + lead;
  size_t tlen = len - lead;
  if (in->started) in->line++;
  if (in->comments && (tlen == 0 || *t == ':')) { /* the comments document nothing: drop them */
    ir_buf_init(&in->text);
    forget_text(in);
    in->comments = false;
    forget_entry(in);
  }
  bool bracket = tlen == 2 && (!memcmp(t, ":{", 2) || !memcmp(t, ":}", 2));
  if (in->started && in->text.len == 0 && !bracket && (in->block || tlen > 0)) in->started(in->ctx, s->input, in->line);
  if (in->remember) {
    if (in->entry.len) ir_buf_putc(&in->entry, '\n');
    ir_buf_putn(&in->entry, line, len);
  }
  if (!in->block && in->text.len == 0) {
    if (tlen == 0) { /* an empty line between inputs */
      forget_entry(in);
      return;
    }
    if (tlen == 2 && !memcmp(t, ":{", 2)) {
      in->block = true;
      return;
    }
  }
  bool ends_block = in->block && tlen == 2 && !memcmp(t, ":}", 2);
  if (in->block && !ends_block && command_word(t, tlen)) { /* refused; the block's lines are kept */
    fprintf(s->err, "<repl>: `%.*s` is a command, which cannot run inside a :{ ... :} block; the block is still open: "
            "end it with :}\n", (int)strcspn(t, " \t"), t);
    s->failed = true;
    return;
  }
  if (!ends_block) {
    ir_buf_putn(&in->text, line, len);
    ir_buf_putc(&in->text, '\n');
    in->lines++;
  }
  if (in->block && !ends_block) return;
  in->block = false;
  SessionChunkEnd end = ends_block                        ? SESSION_CHUNK_WHOLE
                        : in->blank_line_ends && tlen == 0 ? SESSION_CHUNK_BLANK_LINE
                                                           : SESSION_CHUNK_MORE_MAY_COME;
  if (!ends_block && !is_command(&in->text) && !ir_scan_line(&in->scan, line, len) && end == SESSION_CHUNK_MORE_MAY_COME) {
    in->comments = false; /* what the parser would have said here: the input goes on (or fails: end_at_error) */
    if (!in->untried) in->untried = in->lines;
    bool typed = in->early_errors && in->lines <= PROBE_LINES;
    if (masked(in) || !(typed || (in->retaking && in->lines >= in->probe))) return;
    in->probe = 2 * in->lines;
    int error = fails(s, in, in->lines);
    if (error) end_at_error(s, in, end, error);
    else in->untried = 0; /* the parser has been asked here: it would wait */
    return;
  }
  in->probe = 2 * in->lines;
  int held = 0;
  InputResult r = run_input(s, in, end, in->untried > 0, &held);
  if (r == INPUT_HELD) end_at_error(s, in, end, held);
  else finish(s, in, r);
}

/* Whether lines go on being taken. */
static bool go_on(const ReplInput *in) {
  return !in->quit && !(in->stop_at_interrupt && rt_interrupt_count() != in->interrupts);
}

/* Takes the lines end_at_error gave back. */
static void take_again(Session *s, ReplInput *in) {
  while (in->again_at < in->again.len && go_on(in)) {
    const char *p = in->again.data + in->again_at; /* each line ends with a newline (a line may hold NUL bytes) */
    size_t n = (size_t)((const char *)memchr(p, '\n', in->again.len - in->again_at) - p);
    in->again_at += n + 1;
    in->retaking = true;
    take_line(s, in, p, n);
    in->retaking = false;
  }
  if (in->again_at >= in->again.len || !go_on(in)) { /* all taken, or the rest dropped */
    clear(&in->again);
    in->again_at = 0;
  }
}

void repl_input_line(Session *s, ReplInput *in, const char *line, size_t len) {
  take_line(s, in, line, len);
  take_again(s, in);
}

void repl_input_end(Session *s, ReplInput *in) {
  while (in->text.len && !in->quit) {
    int held = 0;
    InputResult r = run_input(s, in, SESSION_CHUNK_WHOLE, in->untried > 0, &held);
    if (r == INPUT_HELD) { /* an input ends earlier: the rest is taken again, then ended */
      end_at_error(s, in, SESSION_CHUNK_WHOLE, held);
      take_again(s, in);
      continue;
    }
    if (r == INPUT_FAILED) s->failed = true; /* says why */
    s->input++;
    break;
  }
  clear(&in->text);
  forget_text(in);
  in->block = in->comments = false;
  remember_entry(in);
}

void repl_input_text(Session *s, ReplInput *in, const char *text, size_t len) {
  in->stop_at_interrupt = true;
  in->interrupts = rt_interrupt_count();
  in->line = 0;
  for (const char *p = text, *end = text + len; p <= end && go_on(in);) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    size_t n = (size_t)(stop - p);
    if (n && p[n - 1] == '\r') n--;
    if (n || nl) repl_input_line(s, in, p, n);
    if (!nl) break;
    p = nl + 1;
  }
  if (go_on(in)) repl_input_end(s, in); /* an interrupt stops the rest */
}

void repl_input_drop(ReplInput *in) {
  ir_buf_init(&in->text);
  ir_buf_init(&in->entry);
  clear(&in->again);
  in->again_at = 0;
  forget_text(in);
  in->block = in->comments = in->retaking = false;
}

bool repl_input_pending(const ReplInput *in) { return in->text.len || in->block; }
