/* Robustness of the lexer, parser and printer: N inputs (random bytes, random token soup, and
 * mutations of the golden and conformance files) must never crash or hang, and every input that
 * parses must round-trip through the printer. Deterministic: RELAY_FUZZ_SEED picks another run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "tests/unit/tap.h"
#include "tests/unit/support.h"

static uint64_t rng_state;

static uint64_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ull;
}
static size_t below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

static const char *snippets[] = {
    "(", ")", "[", "]", "{", "}", ",", ";", ":", ".", "=", "->", "=>", "+", "-", "*", "/", "%", "==",
    "!=", "<", "<=", ">", ">=", "&&", "||", "!", "?", "#[", "def", "data", "type", "fn", "let", "if",
    "else", "match", "match?", "case", "where", "%x", "%0", "@f", "@main", "Cons", "Nil", "Some",
    "None", "True", "False", "add", "nn.dense", "Constant", "ref", "ref_read", "ref_write", "Tensor",
    "float32", "int32", "List", "_", "1", "2.5", "1f", "2i64", "3u8", "-", "\"s\"", "\n", " ", "//c\n",
    "/*", "*/", "#c\n", "0.0", ".0", "axis=", "[1, 2]", "<a>", "[A]", "Shape", "(n, 3)",
};

static void append_snippet(IrBuf *b) { ir_buf_puts(b, snippets[below(sizeof snippets / sizeof snippets[0])]); }

static char *random_bytes(void) {
  IrBuf b;
  ir_buf_init(&b);
  size_t n = below(200);
  for (size_t i = 0; i < n; i++) {
    int c = (int)below(100) < 90 ? (int)(32 + below(95)) : (int)below(256);
    ir_buf_putc(&b, (char)(c ? c : ' '));
  }
  return b.data;
}

static char *token_soup(void) {
  IrBuf b;
  ir_buf_init(&b);
  size_t n = below(60);
  for (size_t i = 0; i < n; i++) {
    append_snippet(&b);
    if (below(3) == 0) ir_buf_putc(&b, ' ');
  }
  return b.data;
}

/* A few edits of a real program: deletions, duplications, insertions, swaps, truncation. */
static char *mutate(const IrSource *seed) {
  IrBuf cur;
  ir_buf_init(&cur);
  ir_buf_putn(&cur, seed->text, seed->len);
  int edits = 1 + (int)below(4);
  for (int e = 0; e < edits; e++) {
    size_t len = cur.len;
    size_t at = below(len + 1), span = below(len - at + 1 < 24 ? len - at + 1 : 24);
    IrBuf next;
    ir_buf_init(&next);
    switch (below(6)) {
    case 0: /* delete */
      ir_buf_putn(&next, cur.data, at);
      ir_buf_putn(&next, cur.data + at + span, len - at - span);
      break;
    case 1: /* duplicate */
      ir_buf_putn(&next, cur.data, at + span);
      ir_buf_putn(&next, cur.data + at, len - at);
      break;
    case 2: /* insert a token */
      ir_buf_putn(&next, cur.data, at);
      append_snippet(&next);
      ir_buf_putn(&next, cur.data + at, len - at);
      break;
    case 3: { /* move a range elsewhere */
      size_t to = below(len - span + 1);
      IrBuf rest;
      ir_buf_init(&rest);
      ir_buf_putn(&rest, cur.data, at);
      ir_buf_putn(&rest, cur.data + at + span, len - at - span);
      ir_buf_putn(&next, rest.data, to);
      ir_buf_putn(&next, cur.data + at, span);
      ir_buf_putn(&next, rest.data + to, rest.len - to);
      break;
    }
    case 4: /* replace a byte */
      ir_buf_putn(&next, cur.data, len);
      if (len) next.data[below(len)] = (char)(32 + below(95));
      break;
    default: /* truncate */
      ir_buf_putn(&next, cur.data, at);
      break;
    }
    cur = next;
  }
  return cur.data;
}

static void escaped(IrBuf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '\n') ir_buf_puts(b, "\\n");
    else if ((unsigned char)*s < 32 || (unsigned char)*s >= 127) ir_buf_printf(b, "\\x%02x", (unsigned char)*s);
    else ir_buf_putc(b, *s);
  }
}

/* Parses one input; if it parses, its printed form must parse to the same AST. */
static bool try_input(const char *text, bool *parsed) {
  IrDiags d = {0};
  IrParseResult r = ir_parse_program(ir_source_new("<fuzz>", text, strlen(text)), NULL, &d);
  /* Rendering every diagnostic exercises the caret code on odd spans too. */
  IrBuf sink;
  ir_buf_init(&sink);
  for (const IrDiag *x = d.first; x; x = x->next) ir_diag_render(&sink, x, 0);
  *parsed = r.program != NULL;
  IrBuf why;
  ir_buf_init(&why);
  return !r.program || round_trips(r.program, &why);
}

static void run(void *p) {
  TestArgs *a = p;
  long total = a->argc > 1 ? strtol(a->argv[1], NULL, 10) : 10000;
  const char *seed_env = getenv("RELAY_FUZZ_SEED");
  rng_state = seed_env ? strtoull(seed_env, NULL, 10) | 1 : 0x9e3779b97f4a7c15ull;
  tap_diag("seed %llu (set RELAY_FUZZ_SEED to vary)", (unsigned long long)rng_state);
  PathList files = walk_rly_files(a->argc - 2, a->argv + 2);
  IR_VEC(IrSource *) corpus = {0};
  for (int i = 0; i < files.len; i++) {
    IrSource *s = ir_source_read_file(files.items[i]);
    if (s) IR_VEC_PUSH(corpus, s);
  }
  tap_ok(corpus.len > 0, "corpus of %d files to mutate", corpus.len);
  const long batch = 1000;
  for (long start = 0; start < total; start += batch) {
    long parsed = 0, failures = 0;
    for (long i = start; i < start + batch && i < total; i++) {
      unsigned pick = (unsigned)below(10);
      char *text = pick == 0 ? random_bytes() : pick == 1 ? token_soup() :
                   corpus.len ? mutate(corpus.items[below((size_t)corpus.len)]) : token_soup();
      bool ok_parse;
      if (!try_input(text, &ok_parse)) {
        if (failures++ < 3) {
          IrBuf b;
          ir_buf_init(&b);
          escaped(&b, text);
          tap_diag("input %ld parses but does not round-trip: %s", i, b.data);
        }
      }
      parsed += ok_parse;
      GC_collect_a_little();
    }
    tap_ok(failures == 0, "inputs %ld..%ld: no crash, %ld parsed, %ld round-trip failures", start,
           start + batch - 1 < total ? start + batch - 1 : total - 1, parsed, failures);
  }
  a->status = tap_done();
}

int main(int argc, char **argv) { return run_on_large_stack(run, argc, argv); }
