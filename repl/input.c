/* The REPL's inputs (input.h): lines gathered until an input is complete, then run. */
#include "repl/input.h"

#include <stdio.h>
#include <string.h>

#include "repl/commands.h"

void repl_input_init(ReplInput *in, bool history) {
  *in = (ReplInput){.history = history};
  ir_buf_init(&in->text);
  ir_buf_init(&in->entry);
}

typedef enum { INPUT_OK, INPUT_FAILED, INPUT_INCOMPLETE, INPUT_COMMENT } InputResult;

/* Runs an input: a command, or a chunk of definitions and expressions. While more lines may come,
 * a chunk that ends too early is INPUT_INCOMPLETE (nothing printed): more lines are awaited; one
 * of comments only is INPUT_COMMENT: they may document a definition on the next line (:doc). */
static InputResult run_input(Session *s, const IrBuf *text, SessionChunkEnd end, bool *quit) {
  const char *t = text->data + strspn(text->data, " \t\n");
  if (t[0] == ':') return repl_command(s, t, quit) ? INPUT_OK : INPUT_FAILED;
  bool incomplete = false;
  IrTProgram *prog = session_load_chunk(s, "<repl>", text->data, text->len, end, &incomplete);
  if (!prog) return incomplete ? INPUT_INCOMPLETE : INPUT_FAILED;
  if (end == SESSION_CHUNK_MORE_MAY_COME && prog->nitems == 0) return INPUT_COMMENT;
  return session_run(s, prog, true) ? INPUT_OK : INPUT_FAILED;
}

/* Empties a buffer, keeping its memory: at the end of the input nothing may allocate (the
 * allocation-failure sweep counts on the allocations an input makes). */
static void clear(IrBuf *b) {
  b->len = 0;
  b->data[0] = '\0';
}

static void forget_entry(ReplInput *in) { clear(&in->entry); }

/* The entry of an input that is complete, for the caller's history (a copy), or NULL. */
static const char *take_entry(ReplInput *in) {
  if (!in->entry.len) return NULL;
  const char *e = ir_strdup(in->entry.data);
  forget_entry(in);
  return e;
}

/* Whether a line (t, n bytes, no leading blanks) starts with a command's word (`:t`, `:load`, `:{`):
 * no line of Relay starts so (a type annotation's `: int32` has a blank after its colon). */
static bool command_word(const char *t, size_t n) {
  return n >= 2 && t[0] == ':' && ((t[1] >= 'a' && t[1] <= 'z') || t[1] == '?' || t[1] == '{');
}

const char *repl_input_line(Session *s, ReplInput *in, const char *line, size_t len) {
  size_t lead = strspn(line, " \t");
  const char *t = line + lead;
  size_t tlen = len - lead;
  if (in->comments && (tlen == 0 || *t == ':')) { /* the comments document nothing: drop them */
    ir_buf_init(&in->text);
    in->comments = false;
    forget_entry(in);
  }
  if (in->history) {
    if (in->entry.len) ir_buf_putc(&in->entry, '\n');
    ir_buf_putn(&in->entry, line, len);
  }
  if (!in->block && in->text.len == 0) {
    if (tlen == 0) { /* an empty line between inputs */
      forget_entry(in);
      return NULL;
    }
    if (tlen == 2 && !memcmp(t, ":{", 2)) {
      in->block = true;
      return NULL;
    }
  }
  bool ends_block = in->block && tlen == 2 && !memcmp(t, ":}", 2);
  if (in->block && !ends_block && command_word(t, tlen)) { /* refused; the block's lines are kept */
    fprintf(s->err, "<repl>: `%.*s` is a command, which cannot run inside a :{ ... :} block; the block is still open: "
            "end it with :}\n", (int)strcspn(t, " \t"), t);
    s->failed = true;
    return NULL;
  }
  if (!ends_block) {
    ir_buf_putn(&in->text, line, len);
    ir_buf_putc(&in->text, '\n');
  }
  if (in->block && !ends_block) return NULL;
  in->block = false;
  SessionChunkEnd end = ends_block                        ? SESSION_CHUNK_WHOLE
                        : in->blank_line_ends && tlen == 0 ? SESSION_CHUNK_BLANK_LINE
                                                           : SESSION_CHUNK_MORE_MAY_COME;
  InputResult r = run_input(s, &in->text, end, &in->quit);
  in->comments = r == INPUT_COMMENT;
  if (r == INPUT_INCOMPLETE || r == INPUT_COMMENT) return NULL; /* wait for the rest */
  if (r == INPUT_FAILED) s->failed = true;
  s->input++;
  rt_interrupt_clear(); /* a Ctrl-C that came after the input's work was done cannot reach the next one */
  fflush(s->out);
  ir_buf_init(&in->text);
  return take_entry(in);
}

const char *repl_input_end(Session *s, ReplInput *in) {
  if (in->text.len && run_input(s, &in->text, SESSION_CHUNK_WHOLE, &in->quit) == INPUT_FAILED) s->failed = true; /* says why */
  if (in->text.len) s->input++;
  clear(&in->text);
  in->block = in->comments = false;
  return take_entry(in);
}

void repl_input_drop(ReplInput *in) {
  ir_buf_init(&in->text);
  ir_buf_init(&in->entry);
  in->block = in->comments = false;
}

bool repl_input_pending(const ReplInput *in) { return in->text.len || in->block; }
