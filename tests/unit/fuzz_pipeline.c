/* The whole pipeline under fuzzing (issue 17): N inputs go through parsing, checking, compiling and
 * evaluating in ONE long-lived REPL session (repl/session.h, as the REPL drives it), and after each
 * input a fixed probe (`1 + 1`, and a definition loaded at the start) must still check and evaluate
 * to its value, so a failing input is proved to leave the session working.
 *
 * Inputs: token-level mutations and splices of the corpus (the .rly files under the roots given on
 * the command line), and generators of the families that broke relay before: deep nesting,
 * doubling lets and functions, big tensor literals, wide functions and data types, huge shapes,
 * extreme attribute values in operator calls; and issue 29's soundness family, well-typed
 * shape-polymorphic programs (RELAY_FUZZ_MODE=sound: nothing else), judged by their values' types.
 *
 * Bounds: an evaluation is interrupted (rt_interrupt) after RELAY_FUZZ_EVAL_MS; the heap is capped
 * (RELAY_FUZZ_HEAP_MB, unless GC_MAXIMUM_HEAP_SIZE is set), so out-of-memory paths run; a fresh session
 * starts every RELAY_FUZZ_SESSION inputs (2,000), since a session keeps what its inputs define.
 *
 * Findings (the test fails and prints the seed, the index and the input): a signal (SIGSEGV,
 * SIGBUS, SIGFPE, SIGABRT, SIGILL), parsing+checking that exceeds RELAY_FUZZ_CHECK_S seconds, an
 * evaluation that does not stop within RELAY_FUZZ_STOP_S seconds of its interrupt, an "internal
 * error" in any diagnostic (every session checks each top-level value against its type:
 * RELAY_CHECK_VALUES), a run-time error in a soundness program whose types have no `?` (other than
 * those no type can catch), the evaluation thread exiting, and the probe failing. A UBSan report
 * aborts the run (UBSAN_OPTIONS has abort_on_error=1 in tests/meson.build): the handler prints it.
 * RELAY_FUZZ_KNOWN=FILE lists findings not fixed yet (`seed S input I`), which do not fail the run.
 *
 * Reproducible: input i is a function of (RELAY_FUZZ_SEED, i) only. RELAY_FUZZ_ONLY=i runs input i
 * alone (in a fresh session), RELAY_FUZZ_FROM=i starts at i, RELAY_FUZZ_SECONDS=s runs for s seconds
 * (N is then a maximum), RELAY_FUZZ_SAVE=PATH (default fuzz_pipeline_input.rly in the build
 * directory's tests/, beside this program, whatever the working directory) holds the input being
 * run, so a crash leaves it there for `relay PATH`.
 * Usage: fuzz_pipeline [N] ROOT...   (N defaults to RELAY_FUZZ_N, else 10,000). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ir/ir.h"
#include "repl/session.h"
#include "runtime/runtime.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function" /* round_trips, run_on_large_stack */
#include "tests/unit/support.h"
#pragma GCC diagnostic pop
#include "tests/unit/tap.h"

/* ---------------------------------------------------------------- settings */

static uint64_t seed;
static long eval_ms = 100;     /* an evaluation is interrupted after this */
static long check_s = 10;      /* parsing + checking + compiling longer than this (CPU time) is a finding */
static long stop_s = 20;       /* an interrupted evaluation that runs on this long is a finding */
static long heap_mb = 1024;    /* the collector's heap limit */
static long session_inputs = 2000; /* a fresh session after this many inputs (what they defined stays
                                      in a session; long runs would fill any heap) */
/* tests/meson.build defines FUZZ_SAVE_DEFAULT as its build directory's fuzz_pipeline_input.rly, so that a run
 * from the source tree does not leave the file there. */
#ifndef FUZZ_SAVE_DEFAULT
#define FUZZ_SAVE_DEFAULT "fuzz_pipeline_input.rly"
#endif
static const char *save_path = FUZZ_SAVE_DEFAULT;
static bool sound_only; /* RELAY_FUZZ_MODE=sound: every input of the soundness family */
static long show_rejected; /* RELAY_FUZZ_SHOW_REJECTED=n: print the first n programs of the family the checker refused */

static long env_long(const char *name, long dflt) {
  const char *v = getenv(name);
  return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* ---------------------------------------------------------------- randomness */

static uint64_t rng;

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint64_t rnd(void) { return splitmix(&rng); }
static size_t below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }
static bool chance(unsigned in) { return below(in) == 0; }
/* A size in [lo, hi], log-uniform: small sizes are common, the largest rare. */
static size_t logsize(size_t lo, size_t hi) {
  double l = log((double)lo), h = log((double)hi + 1);
  size_t n = (size_t)exp(l + (h - l) * ((double)(rnd() >> 11) / 9007199254740992.0));
  return n < lo ? lo : n > hi ? hi : n;
}

/* ---------------------------------------------------------------- text outside the GC heap */

/* The fuzzer's own strings live in malloc's memory, so that a test input exhausting the capped
 * collector heap does not take the fuzzer's bookkeeping with it. */
typedef struct {
  char *s;
  size_t len, cap;
} Str;

static void str_putn(Str *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (b->len + n + 1 > cap) cap *= 2;
    b->s = realloc(b->s, cap);
    if (!b->s) abort();
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}
static void str_puts(Str *b, const char *s) { str_putn(b, s, strlen(s)); }
static __attribute__((format(printf, 2, 3))) void str_printf(Str *b, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < (int)sizeof small) {
    str_putn(b, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  str_putn(b, big, (size_t)n);
  free(big);
}
static void str_repeat(Str *b, const char *s, size_t times) {
  for (size_t i = 0; i < times; i++) str_puts(b, s);
}
static char *str_done(Str *b) {
  if (!b->s) str_putn(b, "", 0);
  return b->s;
}

/* ---------------------------------------------------------------- tokens of the corpus */

typedef enum { T_NUM, T_IDENT, T_STR, T_PUNCT } TokKind;

typedef struct {
  const char *pre; /* the whitespace and comments before it */
  int prelen;
  const char *s;
  int len;
  TokKind kind;
} Tok;

typedef struct {
  Tok *t;
  int n, cap;
} Toks;

static void toks_push(Toks *v, Tok t) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 64;
    v->t = realloc(v->t, (size_t)v->cap * sizeof(Tok));
    if (!v->t) abort();
  }
  v->t[v->n++] = t;
}

static bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* Splits Relay text into tokens, roughly as the lexer does (good enough to mutate by). */
static Toks tokenize(const char *s) {
  Toks v = {0};
  const char *p = s;
  while (*p) {
    const char *pre = p;
    for (;;) { /* whitespace and comments */
      if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
      else if (p[0] == '/' && p[1] == '/') while (*p && *p != '\n') p++;
      else if (p[0] == '/' && p[1] == '*') {
        const char *e = strstr(p + 2, "*/");
        p = e ? e + 2 : p + strlen(p);
      } else break;
    }
    if (!*p) break;
    Tok t = {pre, (int)(p - pre), p, 1, T_PUNCT};
    const char *q = p;
    if (*q >= '0' && *q <= '9') {
      t.kind = T_NUM;
      while (ident_char(*q) || ((q[0] == '-' || q[0] == '+') && (q[-1] == 'e' || q[-1] == 'E'))) q++;
    } else if (*q == '%' || *q == '@' || ident_char(*q)) {
      t.kind = T_IDENT;
      q++;
      while (ident_char(*q)) q++;
    } else if (*q == '"') {
      t.kind = T_STR;
      q++;
      while (*q && *q != '"' && *q != '\n') q += q[0] == '\\' && q[1] ? 2 : 1;
      if (*q == '"') q++;
    } else {
      static const char *multi[] = {"->", "=>", "==", "!=", "<=", ">=", "&&", "||", "#[", NULL};
      q++;
      for (int i = 0; multi[i]; i++)
        if (p[0] == multi[i][0] && p[1] == multi[i][1]) q = p + 2;
    }
    t.len = (int)(q - p);
    toks_push(&v, t);
    p = q;
  }
  return v;
}

typedef struct {
  const char *path;
  char *text;
  Toks toks;
} CorpusFile;

static CorpusFile *corpus;
static int ncorpus;
static Toks idents; /* every identifier token of the corpus (repeats keep the frequencies) */
static Toks numbers;

static char *read_whole(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  Str b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) str_putn(&b, chunk, n);
  fclose(f);
  return str_done(&b);
}

static void load_corpus(int nroots, char **roots) {
  PathList files = walk_rly_files(nroots, roots);
  corpus = calloc((size_t)files.len + 1, sizeof *corpus);
  for (int i = 0; i < files.len; i++) {
    char *text = read_whole(files.items[i]);
    if (!text || strlen(text) > 200000) continue; /* the big models: too slow per input */
    CorpusFile *c = &corpus[ncorpus++];
    c->path = strdup(files.items[i]);
    c->text = text;
    c->toks = tokenize(text);
    for (int k = 0; k < c->toks.n; k++) {
      if (c->toks.t[k].kind == T_IDENT) toks_push(&idents, c->toks.t[k]);
      if (c->toks.t[k].kind == T_NUM) toks_push(&numbers, c->toks.t[k]);
    }
  }
}

/* ---------------------------------------------------------------- replacement material */

static const char *extremes[] = {
    "0", "-1", "1", "2", "3", "9223372036854775807", "-9223372036854775808i64", "9223372036854775807i64",
    "18446744073709551615u64", "4611686018427387904", "2147483647", "-2147483648", "4294967295u32",
    "4294967296", "65536", "255u8", "-128i8", "127i8", "65535u16", "-32768i16", "0i64", "0u64",
    "1e308f64", "-1e308f64", "3.4e38f", "1e39f", "1e-45f", "-0f", "0f", "0.5f", "1e400f64", "2.5",
    "1000000000000", "100000", "-9223372036854775807",
};
#define NEXTREMES (sizeof extremes / sizeof extremes[0])

static const char *extreme(void) { return extremes[below(NEXTREMES)]; }

/* Attribute kinds by name, from the registry. */
typedef struct {
  const char *name;
  IrAttrKindOf kind;
} AttrInfo;
static const AttrInfo attr_infos[] = {
#define IR_ATTR(id, name, kind) {name, IR_AK_##kind},
#include "ir/attrs.def"
#undef IR_ATTR
};
#define NATTRS (sizeof attr_infos / sizeof attr_infos[0])

static IrAttrKindOf attr_kind(const char *name, size_t len) {
  for (size_t i = 0; i < NATTRS; i++)
    if (strlen(attr_infos[i].name) == len && !memcmp(attr_infos[i].name, name, len)) return attr_infos[i].kind;
  return IR_AK_ANY;
}

static const char *dtypes[] = {"float32", "float64", "float16", "int8", "int16", "int32", "int64", "uint8",
                               "uint16", "uint32", "uint64", "bool", "bfloat16", "", "int4", "float8"};
static const char *strs[] = {"NCHW", "NHWC", "OIHW", "HWIO", "NCW", "NWC", "NCDHW", "NDHWC", "OIW", "size",
                             "end", "wrap", "clip", "fast", "raise", "nearest_neighbor", "linear", "bilinear",
                             "cubic", "SAME", "VALID", "", "x", "constant", "reflect", "edge", "half_pixel",
                             "align_corners", "asymmetric", "round", "floor", "ceil", "NCHW16c", "ij,jk->ik",
                             "ii->i", "...", "upper", "lower", "DCR", "CRD", "mean", "sum", "none"};

/* A small tensor (or scalar, or tuple) expression, to be an operator's argument. */
static const char *operands[] = {
    "zeros(shape=[2, 3])", "ones(shape=[1, 3, 4, 4])", "[1f, 2f, 3f]", "[[1, 2], [3, 4]]", "1f", "2", "True",
    "zeros(shape=[0, 4])", "ones(shape=[1, 1, 1, 1], dtype=\"int8\")", "(ones(shape=[2]), ones(shape=[2]))",
    "ones(shape=[2, 2, 3, 3])", "zeros(shape=[1, 2, 3, 4, 5])", "[1u64, 18446744073709551615u64]",
    "[9223372036854775807i64, -9223372036854775808i64]", "ones(shape=[4], dtype=\"uint8\")", "[]", "[[]]",
    "ones(shape=[3, 3], dtype=\"float64\")", "[0.5f, -1f]", "[1, 0, 2]", "(1, 2f)", "Nil", "Some(1)",
    "ones(shape=[1, 4, 8, 8])", "ones(shape=[8, 4, 3, 3])", "[-1, 1]", "arange(10f)", "zeros(shape=[1])",
    "ones(shape=[2, 3], dtype=\"bool\")", "[[[1f]]]", "ones(shape=[1, 8, 8, 4])", "ones(shape=[3, 3, 4, 8])",
};

static void put_ints(Str *b) {
  if (chance(4)) {
    str_puts(b, chance(2) ? extreme() : (const char *[]){"0", "1", "2", "-1", "None"}[below(5)]);
    return;
  }
  size_t n = below(5);
  str_puts(b, "[");
  for (size_t i = 0; i < n; i++) {
    if (i) str_puts(b, ", ");
    str_puts(b, chance(3) ? extreme() : (const char *[]){"0", "1", "2", "3", "-1", "-2", "4"}[below(7)]);
  }
  str_puts(b, "]");
}

static void put_attr_value(Str *b, IrAttrKindOf kind) {
  if (chance(8)) { /* None, which any attribute may be written as */
    str_puts(b, "None");
    return;
  }
  if (chance(12)) { /* a value of another kind */
    kind = (IrAttrKindOf)below(7);
  }
  switch (kind) {
  case IR_AK_INTS: put_ints(b); break;
  case IR_AK_BOOL: str_puts(b, chance(2) ? "True" : chance(2) ? "False" : "1"); break;
  case IR_AK_FLOAT:
    str_puts(b, (const char *[]){"0", "1", "-1", "0.5", "1e308", "-1e308", "1e-320", "3.4e38", "1e39", "nan",
                                 "9223372036854775807", "2"}[below(12)]);
    break;
  case IR_AK_DTYPE: str_printf(b, "\"%s\"", dtypes[below(sizeof dtypes / sizeof dtypes[0])]); break;
  case IR_AK_STR: str_printf(b, "\"%s\"", strs[below(sizeof strs / sizeof strs[0])]); break;
  case IR_AK_PAIRS: {
    size_t n = below(5);
    str_puts(b, "[");
    for (size_t i = 0; i < n; i++) str_printf(b, "%s[%s, %s]", i ? ", " : "", extreme(), chance(2) ? "0" : extreme());
    str_puts(b, "]");
    break;
  }
  default: str_puts(b, chance(2) ? "0" : "None"); break;
  }
}

/* One call of a random operator: arguments from `operands`, attributes with extreme values. */
static void put_op_call(Str *b, int depth) {
  const IrOpInfo *op = &ir_ops[below(IR_OP_COUNT)];
  int nargs = op->min_args + (int)below((size_t)(op->max_args - op->min_args + 1));
  if (chance(10)) nargs += chance(2) ? 1 : -1;
  str_printf(b, "%s(", op->name);
  int written = 0;
  for (int i = 0; i < nargs; i++) {
    if (written++) str_puts(b, ", ");
    if (depth < 2 && chance(6)) put_op_call(b, depth + 1);
    else str_puts(b, operands[below(sizeof operands / sizeof operands[0])]);
  }
  const char *a = op->attrs;
  while (*a) {
    while (*a == ' ') a++;
    const char *e = a;
    while (*e && *e != ' ') e++;
    if (e == a) break;
    bool required = e[-1] == '!';
    size_t len = (size_t)(e - a) - required;
    if (required ? !chance(20) : chance(2)) {
      if (written++) str_puts(b, ", ");
      str_printf(b, "%.*s=", (int)len, a);
      put_attr_value(b, attr_kind(a, len));
    }
    a = e;
  }
  if (chance(30)) str_printf(b, "%sbogus_attr=1", written ? ", " : "");
  str_puts(b, ")");
}

/* ---------------------------------------------------------------- mutation and splicing */

static void emit_toks(Str *b, const Tok *t, int n) {
  for (int i = 0; i < n; i++) {
    str_putn(b, t[i].pre, (size_t)t[i].prelen);
    str_putn(b, t[i].s, (size_t)t[i].len);
  }
}

static Tok tok_text(const char *s, TokKind kind) { return (Tok){" ", 1, s, (int)strlen(s), kind}; }

static const char *op_names_kept[IR_OP_COUNT];

/* 1 to 6 token edits of a corpus file. */
static char *mutate(const CorpusFile *f) {
  Toks cur = {0};
  for (int i = 0; i < f->toks.n; i++) toks_push(&cur, f->toks.t[i]);
  int edits = chance(2) ? 1 : 1 + (int)below(chance(4) ? 20 : 4);
  for (int e = 0; e < edits; e++) {
    int n = cur.n;
    int at = (int)below((size_t)n + 1);
    int span = 1 + (int)below(chance(3) ? 40 : 4);
    if (at + span > n) span = n - at;
    Toks next = {0};
    switch (below(11)) {
    case 0: /* delete a run of tokens */
      for (int i = 0; i < n; i++)
        if (i < at || i >= at + span) toks_push(&next, cur.t[i]);
      break;
    case 1: { /* duplicate a run (several times, now and then) */
      int times = chance(5) ? 1 + (int)below(50) : 1;
      for (int i = 0; i < at + span; i++) toks_push(&next, cur.t[i]);
      for (int k = 0; k < times; k++)
        for (int i = at; i < at + span; i++) toks_push(&next, cur.t[i]);
      for (int i = at + span; i < n; i++) toks_push(&next, cur.t[i]);
      break;
    }
    case 2: { /* swap two tokens */
      for (int i = 0; i < n; i++) toks_push(&next, cur.t[i]);
      if (n >= 2) {
        int a = (int)below((size_t)n), c = (int)below((size_t)n);
        Tok ta = next.t[a], tc = next.t[c];
        next.t[a].s = tc.s, next.t[a].len = tc.len, next.t[a].kind = tc.kind;
        next.t[c].s = ta.s, next.t[c].len = ta.len, next.t[c].kind = ta.kind;
      }
      break;
    }
    case 3: { /* insert a token from anywhere in the corpus */
      const CorpusFile *o = &corpus[below((size_t)ncorpus)];
      for (int i = 0; i < at; i++) toks_push(&next, cur.t[i]);
      if (o->toks.n) {
        Tok t = o->toks.t[below((size_t)o->toks.n)];
        t.pre = " ", t.prelen = 1;
        toks_push(&next, t);
      }
      for (int i = at; i < n; i++) toks_push(&next, cur.t[i]);
      break;
    }
    case 4:
    case 5:
    case 9:
    case 10: { /* a number by an extreme one */
      for (int i = 0; i < n; i++) toks_push(&next, cur.t[i]);
      for (int tries = 0; tries < 20 && n; tries++) {
        int k = (int)below((size_t)n);
        if (next.t[k].kind != T_NUM) continue;
        Tok t = tok_text(extreme(), T_NUM);
        t.pre = next.t[k].pre, t.prelen = next.t[k].prelen;
        next.t[k] = t;
        break;
      }
      break;
    }
    case 6:
    case 7: { /* an identifier by another: the corpus's, or an operator's name */
      for (int i = 0; i < n; i++) toks_push(&next, cur.t[i]);
      for (int tries = 0; tries < 20 && n; tries++) {
        int k = (int)below((size_t)n);
        if (next.t[k].kind != T_IDENT) continue;
        Tok t = chance(3) || !idents.n ? tok_text(op_names_kept[below(IR_OP_COUNT)], T_IDENT)
                                       : idents.t[below((size_t)idents.n)];
        t.pre = next.t[k].pre, t.prelen = next.t[k].prelen;
        next.t[k] = t;
        break;
      }
      break;
    }
    default: { /* a run moved elsewhere */
      int to = (int)below((size_t)(n - span) + 1);
      Toks rest = {0};
      for (int i = 0; i < n; i++)
        if (i < at || i >= at + span) toks_push(&rest, cur.t[i]);
      for (int i = 0; i < to; i++) toks_push(&next, rest.t[i]);
      for (int i = at; i < at + span; i++) toks_push(&next, cur.t[i]);
      for (int i = to; i < rest.n; i++) toks_push(&next, rest.t[i]);
      free(rest.t);
      break;
    }
    }
    free(cur.t);
    cur = next;
  }
  Str b = {0};
  emit_toks(&b, cur.t, cur.n);
  free(cur.t);
  return str_done(&b);
}

/* The start of one file and the end of another (or a middle piece of it), at token boundaries. */
static char *splice_files(const CorpusFile *a, const CorpusFile *c) {
  Str b = {0};
  int i = (int)below((size_t)a->toks.n + 1), j = (int)below((size_t)c->toks.n + 1);
  emit_toks(&b, a->toks.t, i);
  int end = chance(3) ? j + (int)below((size_t)(c->toks.n - j) + 1) : c->toks.n;
  emit_toks(&b, c->toks.t + j, end - j);
  if (chance(3)) emit_toks(&b, a->toks.t + i, a->toks.n - i);
  return str_done(&b);
}

/* ---------------------------------------------------------------- generators of the families */

static char *gen_nesting(void) {
  size_t d = logsize(1, chance(8) ? 12000 : 600);
  Str b = {0};
  switch (below(14)) {
  case 0: str_repeat(&b, "(", d), str_puts(&b, "1"), str_repeat(&b, ",)", d); break;
  case 1: str_repeat(&b, "let %x = (", d), str_puts(&b, "1"), str_repeat(&b, "); %x", d); break;
  case 2: str_repeat(&b, "fn (%x) { ", d), str_puts(&b, "%x"), str_repeat(&b, " }", d); break;
  case 3: str_repeat(&b, "if (True) { ", d), str_puts(&b, "1"), str_repeat(&b, " } else { 0 }", d); break;
  case 4:
    str_repeat(&b, "match (Some(1)) { Some(%y) => ", d), str_puts(&b, "%y"), str_repeat(&b, ", None => 0 }", d);
    break;
  case 5:
    str_puts(&b, "fn (%x: "), str_repeat(&b, "(", d), str_puts(&b, "int32"), str_repeat(&b, ",)", d);
    str_puts(&b, ") { %x }");
    break;
  case 6:
    str_puts(&b, "fn (%x: "), str_repeat(&b, "List[", d), str_puts(&b, "int32"), str_repeat(&b, "]", d);
    str_puts(&b, ") { %x }");
    break;
  case 7:
    str_puts(&b, "fn (%x: "), str_repeat(&b, "fn (", d), str_puts(&b, "int32"), str_repeat(&b, ") -> int32", d);
    str_puts(&b, ") { %x }");
    break;
  case 8: str_repeat(&b, "1 + (", d), str_puts(&b, "1"), str_repeat(&b, ")", d); break;
  case 9: str_repeat(&b, "[", d), str_puts(&b, "1f"), str_repeat(&b, "]", d); break;
  case 10: str_repeat(&b, "Cons(1, ", d), str_puts(&b, "Nil"), str_repeat(&b, ")", d); break;
  case 11: str_repeat(&b, "ref(", d), str_puts(&b, "1"), str_repeat(&b, ")", d); break;
  case 12: str_repeat(&b, "(", d), str_puts(&b, "1"), str_repeat(&b, ",)", d), str_repeat(&b, ".0", d); break;
  default: /* a pattern nested as deep */
    str_puts(&b, "match ("), str_repeat(&b, "Some(", d), str_puts(&b, "1"), str_repeat(&b, ")", d);
    str_puts(&b, ") { "), str_repeat(&b, "Some(", d), str_puts(&b, "%z"), str_repeat(&b, ")", d);
    str_puts(&b, " => %z, _ => 0 }");
    break;
  }
  return str_done(&b);
}

static char *gen_doubling(void) {
  Str b = {0};
  switch (below(4)) {
  case 0: { /* doubling tuples */
    size_t n = logsize(1, 30);
    str_puts(&b, "let %x0 = 1;\n");
    for (size_t i = 1; i <= n; i++) str_printf(&b, "let %%x%zu = (%%x%zu, %%x%zu);\n", i, i - 1, i - 1);
    str_printf(&b, "%%x%zu", n);
    break;
  }
  case 1: { /* doubling functions, polymorphic lets */
    size_t n = logsize(1, 8);
    str_puts(&b, "let %f0 = fn (%x) { (%x, %x) };\n");
    for (size_t i = 1; i <= n; i++) str_printf(&b, "let %%f%zu = fn (%%x) { %%f%zu(%%f%zu(%%x)) };\n", i, i - 1, i - 1);
    str_printf(&b, "%%f%zu(1)", n);
    break;
  }
  case 2: { /* the same as global definitions */
    size_t n = logsize(1, 8);
    str_puts(&b, "def @dbl0(%x) { (%x, %x) }\n");
    for (size_t i = 1; i <= n; i++) str_printf(&b, "def @dbl%zu(%%x) { @dbl%zu(@dbl%zu(%%x)) }\n", i, i - 1, i - 1);
    str_printf(&b, "@dbl%zu(1)\n", n);
    break;
  }
  default: { /* doubling applications in one function */
    size_t n = logsize(1, 24);
    str_puts(&b, "fn (%f) {\n  let %y0 = fn (%x) { %x };\n");
    for (size_t i = 1; i <= n; i++) str_printf(&b, "  let %%y%zu = fn (%%x) { %%y%zu(%%y%zu(%%x)) };\n", i, i - 1, i - 1);
    str_printf(&b, "  %%y%zu(%%f)\n}(1)", n);
    break;
  }
  }
  return str_done(&b);
}

static const char *suffixes[] = {"", "f", "i64", "u8", "f64", "i8", "u64", "f16", "i16", "u32"};

static char *gen_tensor(void) {
  Str b = {0};
  size_t n = logsize(1, chance(10) ? 300000 : 3000);
  const char *suf = suffixes[below(sizeof suffixes / sizeof suffixes[0])];
  bool wrap = chance(2);
  if (wrap) str_printf(&b, "%s(", (const char *[]){"sum", "max", "nn.softmax", "reverse", "cumsum", "sort",
                                                   "argsort", "unique", "exp", "shape_of"}[below(10)]);
  if (chance(3)) { /* a matrix, perhaps ragged */
    size_t rows = 1 + below(n < 100 ? n : 100), cols = n / rows ? n / rows : 1;
    size_t ragged = chance(4) ? below(rows) : rows;
    str_puts(&b, "[");
    for (size_t r = 0; r < rows; r++) {
      str_puts(&b, r ? ", [" : "[");
      size_t c = r == ragged ? cols - 1 : cols;
      for (size_t k = 0; k < c; k++) str_printf(&b, "%s%zu%s", k ? ", " : "", (r * cols + k) % 200, suf);
      str_puts(&b, "]");
    }
    str_puts(&b, "]");
  } else {
    str_puts(&b, "[");
    for (size_t k = 0; k < n; k++) str_printf(&b, "%s%zu%s", k ? ", " : "", k % 100, suf);
    if (chance(8)) str_printf(&b, ", %s", extreme());
    str_puts(&b, "]");
  }
  if (wrap) str_puts(&b, ")");
  return str_done(&b);
}

static char *gen_wide(void) {
  Str b = {0};
  size_t n = logsize(1, chance(10) ? 30000 : 2000);
  switch (below(5)) {
  case 0: { /* a function of n parameters, called */
    str_puts(&b, "let %w = fn (");
    for (size_t i = 0; i < n; i++) str_printf(&b, "%s%%p%zu", i ? ", " : "", i);
    str_printf(&b, ") { %%p%zu };\n%%w(", below(n));
    for (size_t i = 0; i < n; i++) str_printf(&b, "%s%zu", i ? ", " : "", i);
    str_puts(&b, ")");
    break;
  }
  case 1: { /* a data type of n constructors, and a match over all of them */
    str_puts(&b, "type Wide {");
    for (size_t i = 0; i < n; i++) str_printf(&b, "%s W%zu%s", i ? "," : "", i, i % 3 ? "" : "(int32)");
    str_puts(&b, " }\nlet %v = W0(1);\nmatch (%v) {\n");
    for (size_t i = 0; i < n; i++) str_printf(&b, "  W%zu%s => %zu,\n", i, i % 3 ? "" : "(%a)", i);
    str_puts(&b, "}");
    break;
  }
  case 2: { /* a tuple of n fields and a projection */
    str_puts(&b, "let %t = (");
    for (size_t i = 0; i < n; i++) str_printf(&b, "%s%zu", i ? ", " : "", i);
    str_printf(&b, ",);\n%%t.%zu", chance(4) ? n : below(n));
    break;
  }
  case 3: { /* a definition with n type parameters */
    str_puts(&b, "def @g<");
    for (size_t i = 0; i < n; i++) str_printf(&b, "%sT%zu", i ? ", " : "", i);
    str_puts(&b, ">(%x: T0) -> T0 { %x }\n@g(1)\n");
    break;
  }
  default: { /* a long chain of lets */
    str_puts(&b, "let %x = 0;\n");
    for (size_t i = 0; i < n * 3; i++) str_puts(&b, "let %x = %x + 1;\n");
    str_puts(&b, "%x");
    break;
  }
  }
  return str_done(&b);
}

static void put_shape(Str *b) {
  size_t n = below(6);
  str_puts(b, "[");
  for (size_t i = 0; i < n; i++)
    str_printf(b, "%s%s", i ? ", " : "", chance(2) ? extreme() : (const char *[]){"0", "1", "2", "3", "-1"}[below(5)]);
  str_puts(b, "]");
}

static char *gen_shapes(void) {
  Str b = {0};
  switch (below(9)) {
  case 0: str_puts(&b, "zeros(shape="), put_shape(&b), str_puts(&b, ")"); break;
  case 1:
    str_puts(&b, "ones(shape="), put_shape(&b);
    str_printf(&b, ", dtype=\"%s\")", dtypes[below(sizeof dtypes / sizeof dtypes[0])]);
    break;
  case 2: str_puts(&b, "reshape(zeros(shape="), put_shape(&b), str_puts(&b, "), newshape="), put_shape(&b), str_puts(&b, ")"); break;
  case 3:
    str_printf(&b, "%s(zeros(shape=", (const char *[]){"sum", "max", "mean", "min", "prod", "argmax", "all"}[below(7)]);
    put_shape(&b), str_puts(&b, "), axis="), put_ints(&b), str_puts(&b, ")");
    break;
  case 4: str_puts(&b, "full(1f, shape="), put_shape(&b), str_puts(&b, ")"); break;
  case 5: str_puts(&b, "broadcast_to(ones(shape=[1]), shape="), put_shape(&b), str_puts(&b, ")"); break;
  case 6:
    str_printf(&b, "arange(%s, %s, %s, dtype=\"%s\")", extreme(), extreme(), extreme(),
               (const char *[]){"int64", "uint64", "int32", "float32", "float64", "int8"}[below(6)]);
    break;
  case 7:
    str_puts(&b, "fn (%x: Tensor[("), str_printf(&b, "%s, %s", extreme(), extreme());
    str_printf(&b, "), float32]) { %s(%%x, %%x) }", (const char *[]){"add", "concatenate", "nn.dense"}[below(3)]);
    break;
  default:
    str_printf(&b, "%s(zeros(shape=", (const char *[]){"tile", "repeat", "expand_dims", "strided_slice", "take",
                                                       "transpose", "split", "squeeze"}[below(8)]);
    put_shape(&b), str_puts(&b, "), ");
    put_ints(&b);
    str_puts(&b, ")");
    break;
  }
  return str_done(&b);
}

static char *gen_op_calls(void) {
  Str b = {0};
  size_t n = 1 + below(3);
  for (size_t i = 0; i < n; i++) {
    if (n > 1) str_printf(&b, "let %%r%zu = ", i);
    put_op_call(&b, 0);
    str_puts(&b, n > 1 ? ";\n" : "");
  }
  if (n > 1) str_printf(&b, "%%r%zu", n - 1);
  return str_done(&b);
}

/* ---------------------------------------------------------------- the current input */

static long cur_index = -1;
static const char *cur_text;
static const char *cur_family = "";
static int err_fd = 2; /* the real stderr, kept while the session's is captured */

static void write_all(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w <= 0) return;
    s += w, n -= (size_t)w;
  }
}
static void write_str(int fd, const char *s) { write_all(fd, s, strlen(s)); }

/* Async-signal-safe decimal. */
static void write_num(int fd, unsigned long long v, bool negative) {
  char buf[32];
  int i = sizeof buf;
  do buf[--i] = (char)('0' + v % 10), v /= 10;
  while (v);
  if (negative) buf[--i] = '-';
  write_all(fd, buf + i, sizeof buf - (size_t)i);
}

/* The finding's header and its input, on the real stderr (async-signal-safe: handlers call it). */
static void report_finding(const char *what) {
  write_str(err_fd, "\n#### FINDING: ");
  write_str(err_fd, what);
  write_str(err_fd, "\n#### seed ");
  write_num(err_fd, seed, false);
  write_str(err_fd, ", input ");
  write_num(err_fd, (unsigned long long)(cur_index < 0 ? -cur_index : cur_index), cur_index < 0);
  write_str(err_fd, " (");
  write_str(err_fd, cur_family);
  write_str(err_fd, "); rerun it alone with RELAY_FUZZ_SEED=");
  write_num(err_fd, seed, false);
  write_str(err_fd, " RELAY_FUZZ_ONLY=");
  write_num(err_fd, (unsigned long long)(cur_index < 0 ? 0 : cur_index), false);
  write_str(err_fd, "; the input is in ");
  write_str(err_fd, save_path);
  write_str(err_fd, "\n#### input:\n");
  if (cur_text) {
    size_t n = strlen(cur_text);
    if (n > 4000) {
      write_all(err_fd, cur_text, 2000);
      write_str(err_fd, "\n#### [...]\n");
      write_all(err_fd, cur_text + n - 2000, 2000);
    } else {
      write_all(err_fd, cur_text, n);
    }
  }
  write_str(err_fd, "\n#### end of input\n");
}

/* The input being run, saved before it runs, so that nothing (a hang, a crash) loses it. */
static void save_input(const char *text) {
  int fd = open(save_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  write_all(fd, text, strlen(text));
  write_all(fd, "\n", 1);
  close(fd);
}

static void on_fatal_signal(int sig) {
  const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE" :
                     sig == SIGABRT ? "SIGABRT (an abort, or a UBSan report above)" : "SIGILL";
  report_finding(name);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_crash_handlers(void) {
  static char altstack[1 << 16];
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
  sigaltstack(&ss, NULL); /* per thread: called on the evaluation thread */
  struct sigaction sa = {0};
  sa.sa_handler = on_fatal_signal;
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

/* ---------------------------------------------------------------- the watchdog */

/* PH_PROBE is the probe's evaluation: never interrupted (a collection of a large heap on a loaded
 * machine can take longer than eval_ms, which made a false finding), only bounded by stop_s. */
typedef enum { PH_IDLE, PH_CHECK, PH_EVAL, PH_PROBE } Phase;

static pthread_mutex_t wd_mu = PTHREAD_MUTEX_INITIALIZER;
static Phase phase;
static struct timespec phase_start;
static bool interrupt_sent;

static double since(struct timespec a) {
  struct timespec b;
  clock_gettime(CLOCK_MONOTONIC, &b);
  return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
}

/* The session thread's CPU clock: the check's bound is on the CPU time it takes, so that a loaded
 * machine (CI running beside a long run) does not make a finding of a check that only waited. */
static clockid_t session_cpu;
static bool session_cpu_known;
static struct timespec phase_cpu_start;

static double cpu_since(struct timespec a) {
  struct timespec b;
  if (!session_cpu_known || clock_gettime(session_cpu, &b) != 0) return 0;
  return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
}

static void set_phase(Phase p) {
  if (!session_cpu_known) session_cpu_known = pthread_getcpuclockid(pthread_self(), &session_cpu) == 0;
  pthread_mutex_lock(&wd_mu);
  if (session_cpu_known) clock_gettime(session_cpu, &phase_cpu_start);
  rt_interrupt_clear(); /* a late interrupt of the evaluation that just ended: it must not reach the next phase */
  phase = p;
  interrupt_sent = false;
  clock_gettime(CLOCK_MONOTONIC, &phase_start);
  pthread_mutex_unlock(&wd_mu);
}

static void *watchdog(void *unused) {
  (void)unused;
  for (;;) {
    struct timespec nap = {0, 5 * 1000 * 1000};
    nanosleep(&nap, NULL);
    pthread_mutex_lock(&wd_mu);
    double t = phase == PH_IDLE ? 0 : since(phase_start);
    if (phase == PH_EVAL && t * 1000 >= (double)eval_ms && !interrupt_sent) {
      rt_interrupt();
      interrupt_sent = true;
    }
    const char *why = NULL;
    if (phase == PH_EVAL && t * 1000 >= (double)eval_ms + (double)stop_s * 1000)
      why = "the evaluation did not stop after its interrupt";
    if (phase == PH_PROBE && t >= (double)stop_s) why = "the probe's evaluation did not end";
    if (phase == PH_CHECK && t >= (double)check_s && (!session_cpu_known || cpu_since(phase_cpu_start) >= (double)check_s))
      why = "parsing and checking exceeded their time bound (CPU time of the session's thread)";
    if (why) {
      report_finding(why);
      _exit(3);
    }
    pthread_mutex_unlock(&wd_mu);
  }
  return NULL;
}

/* ---------------------------------------------------------------- one input through the session */

static FILE *devnull;
static FILE *real_stdout, *real_stderr;
static char *captured;
static size_t captured_len;

/* The session's output: values to /dev/null, diagnostics to memory (scanned afterwards) — both
 * the session's own streams (s->out, s->err: what it prints) and the process's (what the run time
 * prints on no session's behalf). */
static FILE *capture_begin(Session *s) {
  FILE *mem = open_memstream(&captured, &captured_len);
  fflush(stdout);
  stdout = devnull;
  stderr = mem;
  s->out = devnull;
  s->err = mem;
  return mem;
}
static void capture_end(Session *s, FILE *mem) {
  fflush(stdout);
  stdout = real_stdout;
  stderr = real_stderr;
  s->out = real_stdout;
  s->err = real_stderr;
  fclose(mem);
}

typedef struct {
  long internal_errors, probe_failures, accepted, ran, eval_failed, interrupted, skipped;
  long sound_errors; /* the soundness family: run-time errors that the types should have excluded */
  long known;        /* findings RELAY_FUZZ_KNOWN lists */
  long heap_full; /* the fuzzer's own allocation found the heap full: a fresh session followed */
} Counts;

/* What the session printed, for the report: the first `max` bytes. */
static void show_captured(size_t max) {
  if (!captured) return;
  fprintf(real_stderr, "#### the session printed:\n%.*s%s\n", (int)(captured_len < max ? captured_len : max),
          captured, captured_len > max ? "\n[...]" : "");
}

/* ---------------------------------------------------------------- the soundness family (issue 29) */

/* Well-typed shape-polymorphic programs: definitions over shape variables (n, m, k), `?` and
 * constants, whose bodies compose operators the generator knows the shapes of, then calls with
 * concrete tensors (sizes 0 and 1 among them, sometimes sizes that break the constraints). The
 * generator's model of each value's shape (GDim) steers it toward programs the checker accepts; the
 * oracle does not trust the model (sound_judge): a program the checker accepts runs with every
 * printed value checked against its type (RELAY_CHECK_VALUES), and in a program whose types have no
 * `?` anywhere, a run-time error other than those no type can catch is a finding. */

enum { GV = 3, GRANK = 4, GENV = 40, GDEFS = 4, GPARAMS = 4 };
/* Half the programs are static: the generator writes no `?` and uses no operator that gives one, so
 * the checker knows every shape up to the shape variables, and any run-time shape error is its miss. */
static bool g_static;
static const char *const gvar_names[GV] = {"n", "m", "k"};

typedef enum { GD_CONST, GD_VAR, GD_ANY, GD_EXPR } GDimKind;
/* A dimension: what the checker should see (a constant, a shape variable, `?`, arithmetic on
 * variables) and the size it stands for at run time, c0 + c[0] n + c[1] m + c[2] k, unless unknown
 * (a slice of a variable's axis, a product of variables). */
typedef struct {
  GDimKind kind;
  bool unknown;
  long c0, c[GV];
} GDim;

typedef struct {
  int rank;
  GDim d[GRANK];
} GTy; /* a float32 tensor's shape */

static GDim gd_const(long v) { return (GDim){GD_CONST, false, v, {0}}; }
static GDim gd_var(int i) {
  GDim d = {GD_VAR, false, 0, {0}};
  d.c[i] = 1;
  return d;
}
static GDim gd_any(GDim like) {
  like.kind = GD_ANY;
  return like;
}
static bool gd_lin_eq(GDim a, GDim b) {
  return !a.unknown && !b.unknown && a.c0 == b.c0 && !memcmp(a.c, b.c, sizeof a.c);
}
static bool gd_is_one(GDim a) { return a.kind == GD_CONST && a.c0 == 1; }
static bool gd_lin_one(GDim a) { return !a.unknown && a.c0 == 1 && !a.c[0] && !a.c[1] && !a.c[2]; }
/* The checker should see a and b as the same dimension. */
static bool gd_same(GDim a, GDim b) { return a.kind == b.kind && a.kind != GD_ANY && gd_lin_eq(a, b); }
/* Sizes that certainly broadcast at run time, and that the checker should let broadcast. */
static bool gd_broadcasts(GDim a, GDim b) {
  bool statically = gd_same(a, b) || gd_is_one(a) || gd_is_one(b) || a.kind == GD_ANY || b.kind == GD_ANY;
  bool at_run_time = gd_lin_eq(a, b) || gd_lin_one(a) || gd_lin_one(b);
  return statically && at_run_time;
}
/* Equal at run time, and the same or `?` for the checker. */
static bool gd_agrees(GDim a, GDim b) { return gd_lin_eq(a, b) && (gd_same(a, b) || a.kind == GD_ANY || b.kind == GD_ANY); }
static GDim gd_broadcast(GDim a, GDim b) {
  if (gd_is_one(a)) return b;
  if (gd_is_one(b)) return a;
  if (a.kind == GD_ANY) return gd_any(b);
  if (b.kind == GD_ANY) return gd_any(a);
  return a;
}
/* Arithmetic that came back to one variable is that variable. */
static GDim gd_norm(GDim d) {
  if (d.kind != GD_EXPR || d.unknown || d.c0) return d;
  int ones = 0, others = 0;
  for (int i = 0; i < GV; i++) ones += d.c[i] == 1, others += d.c[i] != 0 && d.c[i] != 1;
  if (ones == 1 && !others) d.kind = GD_VAR;
  if (!ones && !others) d.kind = GD_CONST;
  return d;
}
static GDim gd_add(GDim a, GDim b) {
  GDim r = a;
  r.unknown = a.unknown || b.unknown;
  r.c0 += b.c0;
  for (int i = 0; i < GV; i++) r.c[i] += b.c[i];
  r.kind = a.kind == GD_ANY || b.kind == GD_ANY ? GD_ANY : a.kind == GD_CONST && b.kind == GD_CONST ? GD_CONST : GD_EXPR;
  return gd_norm(r);
}
static GDim gd_mul(GDim a, GDim b) {
  if (b.kind == GD_CONST && !(a.kind == GD_CONST)) {
    GDim t = a;
    a = b, b = t;
  }
  GDim r = b;
  if (a.kind == GD_CONST) { /* c * b stays linear */
    r.c0 = a.c0 * b.c0;
    for (int i = 0; i < GV; i++) r.c[i] = a.c0 * b.c[i];
    r.kind = b.kind == GD_CONST ? GD_CONST : b.kind == GD_ANY ? GD_ANY : a.c0 == 1 ? b.kind : GD_EXPR;
    r.unknown = b.unknown;
    return gd_norm(r);
  }
  r.kind = a.kind == GD_ANY || b.kind == GD_ANY ? GD_ANY : GD_EXPR;
  r.unknown = true; /* a product of variables: the model does not follow it */
  return r;
}
static long gd_size(GDim a, const long *vals) { return a.c0 + a.c[0] * vals[0] + a.c[1] * vals[1] + a.c[2] * vals[2]; }

/* Whether put_gdim writes d as `?`. */
static bool gd_written_any(GDim d) {
  return d.kind == GD_ANY || d.unknown || d.c[0] < 0 || d.c[1] < 0 || d.c[2] < 0;
}

static void put_gdim(Str *b, GDim d) {
  if (gd_written_any(d)) {
    str_puts(b, "?");
    return;
  }
  bool first = true;
  for (int i = 0; i < GV; i++) {
    if (!d.c[i]) continue;
    str_printf(b, "%s%s", first ? "" : " + ", gvar_names[i]);
    if (d.c[i] != 1) str_printf(b, " * %ld", d.c[i]);
    first = false;
  }
  if (first) str_printf(b, "%ld", d.c0);
  else if (d.c0 > 0) str_printf(b, " + %ld", d.c0);
  else if (d.c0 < 0) str_printf(b, " - %ld", -d.c0);
}

/* d written as the size it stands for (its variables and constant), `?` or not: what an annotation
 * that trusts a `?` writes; false if that is no dimension the parser takes. */
static bool put_gdim_meant(Str *b, GDim d) {
  if (d.c0 < 0 || d.c[0] < 0 || d.c[1] < 0 || d.c[2] < 0) return false;
  d.kind = GD_EXPR;
  d.unknown = false;
  put_gdim(b, gd_norm(d));
  return true;
}

/* t as an annotation: with seen, each `?` written as what it stands for now and then (a `?` meeting
 * a shape variable or a constant, which the checker must take on trust and check at run time), the
 * shape the checker then sees going to *seen; without, as it is. */
static void put_gty_annot(Str *b, const GTy *t, GTy *seen) {
  if (seen) *seen = *t;
  if (t->rank == 0) {
    str_puts(b, "float32");
    return;
  }
  str_puts(b, "Tensor[(");
  for (int i = 0; i < t->rank; i++) {
    if (i) str_puts(b, ", ");
    GDim d = t->d[i];
    if (seen && gd_written_any(d) && chance(2)) {
      Str meant = {0};
      if (put_gdim_meant(&meant, d)) {
        str_puts(b, str_done(&meant));
        free(meant.s);
        GDim w = d;
        w.kind = GD_EXPR;
        w = gd_norm(w); /* what is written; its size stays the model's (unknown if it was) */
        if (w.kind == GD_EXPR && !w.c[0] && !w.c[1] && !w.c[2]) w.kind = GD_CONST;
        seen->d[i] = w;
        continue;
      }
      free(meant.s);
    }
    put_gdim(b, d);
    if (seen && gd_written_any(d)) seen->d[i] = gd_any(d);
  }
  str_puts(b, "), float32]");
}

static void put_gty(Str *b, const GTy *t) { put_gty_annot(b, t, NULL); }

/* A definition the generator wrote: its parameters (the first perhaps a function from one tensor to
 * another) and its results (one or two tensors). */
typedef struct {
  int nparams;
  GTy params[GPARAMS];
  bool takes_fn; /* params[0] is the function's parameter and fn_out its result */
  GTy fn_out;
  int nret;
  GTy ret[2];
} GDef;

typedef struct {
  Str *b;
  GTy env[GENV];
  int nenv;
  const GDef *defs;
  int ndefs;
  bool uses_box; /* the program declares `data GBox<a> { GBox(a) }` */
} GBody;

static int gpick(GBody *g) { return g->nenv ? (int)below((size_t)g->nenv) : -1; }

/* A value of x's rank agreeing with it on every axis but `except` (-1: every axis), at random; -1
 * when there is none (not even x itself, when the model lost one of its sizes). */
static int gpartner(const GBody *g, const GTy *xt, int except) {
  int cand[GENV], n = 0;
  for (int i = 0; i < g->nenv; i++) {
    const GTy *y = &g->env[i];
    bool ok = y->rank == xt->rank;
    for (int k = 0; ok && k < xt->rank; k++) ok = k == except || gd_agrees(xt->d[k], y->d[k]);
    if (ok) cand[n++] = i;
  }
  return n ? cand[below((size_t)n)] : -1;
}

/* Whether two shapes broadcast (numpy's alignment from the right), and their result. */
static bool gty_broadcast(const GTy *a, const GTy *b, GTy *out) {
  const GTy *big = a->rank >= b->rank ? a : b, *small = big == a ? b : a;
  *out = *big;
  for (int i = 1; i <= small->rank; i++) {
    GDim x = big->d[big->rank - i], y = small->d[small->rank - i];
    if (!gd_broadcasts(x, y)) return false;
    out->d[big->rank - i] = big == a ? gd_broadcast(x, y) : gd_broadcast(y, x);
  }
  return true;
}

/* A literal of a concrete shape: small integers as floats (exact to print), or zeros/ones when it
 * is empty or large. */
static void put_literal(Str *b, int rank, const long *shape, int salt) {
  long count = 1;
  for (int i = 0; i < rank; i++) count *= shape[i] < 0 ? 0 : shape[i]; /* a size the model got below 0: empty */
  if (rank == 0) {
    str_printf(b, "%df", (salt % 7) - 3);
    return;
  }
  if (count == 0 || count > 48) {
    str_printf(b, "%s(shape=[", count ? "ones" : "zeros");
    for (int i = 0; i < rank; i++) str_printf(b, "%s%ld", i ? ", " : "", shape[i] < 0 ? 0 : shape[i]);
    str_puts(b, "])");
    return;
  }
  long idx[GRANK + 1] = {0};
  long k = 0;
  for (int i = 0; i < rank; i++) str_puts(b, "[");
  for (;;) {
    str_printf(b, "%ldf", ((k++ * 5 + salt) % 9) - 4);
    int ax = rank - 1;
    while (ax >= 0 && ++idx[ax] == shape[ax]) {
      idx[ax] = 0;
      str_puts(b, "]");
      ax--;
    }
    if (ax < 0) break;
    str_puts(b, ", ");
    for (int i = ax + 1; i < rank; i++) str_puts(b, "[");
  }
}

/* A constant that broadcasts against t: each axis t's constant or 1, leading axes sometimes left out. */
static void put_broadcast_constant(Str *b, const GTy *t, GTy *out) {
  int drop = t->rank && chance(3) ? (int)below((size_t)t->rank + 1) : 0;
  long shape[GRANK];
  out->rank = t->rank - drop;
  for (int i = 0; i < out->rank; i++) {
    GDim d = t->d[drop + i];
    long c = d.kind == GD_CONST && d.c0 >= 0 && !chance(3) ? d.c0 : 1;
    shape[i] = c;
    out->d[i] = gd_const(c);
  }
  put_literal(b, out->rank, shape, (int)below(9));
}

static const char *unary_ops[] = {"negative", "abs", "nn.relu", "sigmoid", "tanh", "floor", "ceil", "exp"};
static const char *binary_ops[] = {"add", "subtract", "multiply", "maximum", "minimum", "divide"};
static const char *reduce_ops[] = {"sum", "mean", "max", "min", "prod"};

/* One `let %vN = ...;` of the body, from the values in scope; false when the chosen kind of operation
 * finds nothing to apply to (the caller tries another). 27 kinds; the last, a written type, twice as often. */
static bool gen_step(GBody *g) {
  Str e = {0};
  GTy t;
  int x = gpick(g);
  if (x < 0) return false;
  GTy xt = g->env[x];
  switch (below(28)) {
  case 0: /* element-wise */
    str_printf(&e, "%s(%%v%d)", unary_ops[below(sizeof unary_ops / sizeof *unary_ops)], x);
    t = xt;
    break;
  case 1:
  case 2:
  case 3: { /* broadcasting: another value, a constant, a scalar */
    const char *op = binary_ops[below(sizeof binary_ops / sizeof *binary_ops)];
    int cand[GENV], n = 0;
    for (int i = 0; i < g->nenv; i++) {
      GTy r;
      if (gty_broadcast(&xt, &g->env[i], &r)) cand[n++] = i;
    }
    bool swap = chance(2);
    if (n && !chance(4)) {
      int y = cand[below((size_t)n)];
      gty_broadcast(&xt, &g->env[y], &t);
      if (chance(5)) str_printf(&e, "where(%%v%d > %%v%d, %%v%d, %%v%d)", swap ? y : x, swap ? x : y, x, y);
      else str_printf(&e, "%s(%%v%d, %%v%d)", op, swap ? y : x, swap ? x : y);
    } else {
      GTy c;
      Str lit = {0};
      if (chance(4)) {
        str_puts(&lit, "2f");
        c.rank = 0;
      } else {
        put_broadcast_constant(&lit, &xt, &c);
      }
      if (!gty_broadcast(&xt, &c, &t)) {
        free(lit.s);
        free(e.s);
        return false;
      }
      if (swap) str_printf(&e, "%s(%s, %%v%d)", op, str_done(&lit), x);
      else str_printf(&e, "%s(%%v%d, %s)", op, x, str_done(&lit));
      free(lit.s);
    }
    break;
  }
  case 4: { /* a reduction */
    if (!xt.rank) return free(e.s), false;
    int a = (int)below((size_t)xt.rank);
    bool keep = chance(2);
    str_printf(&e, "%s(%%v%d, axis=[%d]%s)", reduce_ops[below(sizeof reduce_ops / sizeof *reduce_ops)], x,
               chance(3) ? a - xt.rank : a, keep ? ", keepdims=True" : "");
    t = xt;
    if (keep) t.d[a] = gd_const(1);
    else {
      memmove(&t.d[a], &t.d[a + 1], (size_t)(t.rank - a - 1) * sizeof(GDim));
      t.rank--;
    }
    break;
  }
  case 5: { /* transpose */
    if (xt.rank < 2) return free(e.s), false;
    int perm[GRANK];
    for (int i = 0; i < xt.rank; i++) perm[i] = i;
    for (int i = xt.rank - 1; i > 0; i--) {
      int j = (int)below((size_t)i + 1), tmp = perm[i];
      perm[i] = perm[j], perm[j] = tmp;
    }
    str_printf(&e, "transpose(%%v%d, axes=[", x);
    t.rank = xt.rank;
    for (int i = 0; i < xt.rank; i++) {
      str_printf(&e, "%s%d", i ? ", " : "", perm[i]);
      t.d[i] = xt.d[perm[i]];
    }
    str_puts(&e, "])");
    break;
  }
  case 6: { /* expand_dims, squeeze */
    if (xt.rank < GRANK && chance(2)) {
      int a = (int)below((size_t)xt.rank + 1);
      str_printf(&e, "expand_dims(%%v%d, axis=%d)", x, a);
      t = xt;
      memmove(&t.d[a + 1], &t.d[a], (size_t)(xt.rank - a) * sizeof(GDim));
      t.d[a] = gd_const(1);
      t.rank++;
      break;
    }
    int ones[GRANK], n = 0;
    bool all_const = true;
    for (int i = 0; i < xt.rank; i++) {
      if (gd_is_one(xt.d[i])) ones[n++] = i;
      if (xt.d[i].kind != GD_CONST) all_const = false;
    }
    if (!n) return free(e.s), false;
    t.rank = 0;
    if (all_const || chance(8)) { /* without axis: every axis of size 1 (TVM: an error over variables) */
      str_printf(&e, "squeeze(%%v%d)", x);
      for (int i = 0; i < xt.rank; i++)
        if (!gd_is_one(xt.d[i])) t.d[t.rank++] = xt.d[i];
    } else {
      int a = ones[below((size_t)n)];
      str_printf(&e, "squeeze(%%v%d, axis=[%d])", x, a);
      for (int i = 0; i < xt.rank; i++)
        if (i != a) t.d[t.rank++] = xt.d[i];
    }
    break;
  }
  case 7: { /* reshape: flatten, or keep the first axis */
    if (!xt.rank) return free(e.s), false;
    bool keep_first = xt.rank >= 2 && chance(2);
    GDim p = gd_const(1);
    for (int i = keep_first; i < xt.rank; i++) p = gd_mul(p, xt.d[i]);
    t.rank = 0;
    if (keep_first) t.d[t.rank++] = xt.d[0];
    t.d[t.rank++] = p;
    str_printf(&e, "reshape(%%v%d, newshape=[%s-1])", x, keep_first ? "0, " : "");
    break;
  }
  case 8: { /* concatenate along an axis, with a value that agrees on the others */
    if (!xt.rank) return free(e.s), false;
    int a = (int)below((size_t)xt.rank);
    int y = gpartner(g, &xt, a);
    if (y < 0) return free(e.s), false;
    str_printf(&e, "concatenate((%%v%d, %%v%d), axis=%d)", x, y, a);
    t = xt;
    t.d[a] = gd_add(xt.d[a], g->env[y].d[a]);
    for (int k = 0; k < xt.rank; k++)
      if (k != a && g->env[y].d[k].kind == GD_ANY) t.d[k] = gd_any(t.d[k]);
    break;
  }
  case 9: { /* strided_slice along an axis */
    if (!xt.rank) return free(e.s), false;
    int a = (int)below((size_t)xt.rank);
    GDim d = xt.d[a];
    t = xt;
    if (d.kind == GD_CONST && d.c0 >= 1) {
      long b = (long)below((size_t)d.c0), en = b + 1 + (long)below((size_t)(d.c0 - b));
      str_printf(&e, "strided_slice(%%v%d, begin=[%ld], end=[%ld], axes=[%d])", x, b, en, a);
      t.d[a] = gd_const(en - b);
    } else if (g_static) {
      return free(e.s), false;
    } else if (chance(2)) { /* the whole axis: the same size, which the checker may not see */
      str_printf(&e, "strided_slice(%%v%d, begin=[0], end=[1000000], axes=[%d])", x, a);
      t.d[a] = gd_any(d);
    } else { /* at most the first element: a `?` whose size the model does not follow */
      str_printf(&e, "strided_slice(%%v%d, begin=[0], end=[1], axes=[%d])", x, a);
      t.d[a] = gd_any(d);
      t.d[a].unknown = true;
    }
    break;
  }
  case 10: { /* nn.dense with a value or a constant weight; nn.matmul */
    if (xt.rank != 2) return free(e.s), false;
    int cand[GENV], n = 0;
    for (int i = 0; i < g->nenv; i++)
      if (g->env[i].rank == 2 && gd_agrees(xt.d[1], g->env[i].d[1])) cand[n++] = i;
    t.rank = 2;
    t.d[0] = xt.d[0];
    if (n && chance(2)) {
      int w = cand[below((size_t)n)];
      str_printf(&e, "nn.dense(%%v%d, %%v%d)", x, w);
      t.d[1] = g->env[w].d[0];
    } else if (xt.d[1].kind == GD_CONST) {
      long u = 1 + (long)below(3), shape[2] = {u, xt.d[1].c0};
      str_printf(&e, "nn.dense(%%v%d, ", x);
      put_literal(&e, 2, shape, (int)below(9));
      str_puts(&e, ")");
      t.d[1] = gd_const(u);
    } else {
      str_printf(&e, "nn.matmul(%%v%d, transpose(%%v%d))", x, x); /* (a, k) by (k, a) */
      t.d[1] = xt.d[0];
    }
    break;
  }
  case 11: { /* nn.batch_matmul (transpose_b, TVM's default in C++ is False: written out) */
    if (xt.rank != 3) return free(e.s), false;
    int cand[GENV], n = 0;
    for (int i = 0; i < g->nenv; i++) {
      const GTy *y = &g->env[i];
      if (y->rank == 3 && gd_broadcasts(xt.d[0], y->d[0]) && gd_agrees(xt.d[2], y->d[2])) cand[n++] = i;
    }
    if (!n) return free(e.s), false;
    int y = cand[below((size_t)n)];
    str_printf(&e, "nn.batch_matmul(%%v%d, %%v%d, transpose_b=True)", x, y);
    t.rank = 3;
    t.d[0] = gd_broadcast(xt.d[0], g->env[y].d[0]);
    t.d[1] = xt.d[1];
    t.d[2] = g->env[y].d[1];
    break;
  }
  case 12: { /* windows over (N, C, H, W) */
    if (xt.rank != 4) return free(e.s), false;
    t = xt;
    int kind = (int)below(4);
    if (kind == 3) {
      str_printf(&e, "nn.global_avg_pool2d(%%v%d)", x);
      t.d[2] = t.d[3] = gd_const(1);
    } else if (kind == 2 && xt.d[1].kind == GD_CONST) {
      long o = 1 + (long)below(3), kh = 1 + (long)below(2), shape[4] = {o, xt.d[1].c0, kh, kh};
      str_printf(&e, "nn.conv2d(%%v%d, ", x);
      put_literal(&e, 4, shape, (int)below(9));
      str_printf(&e, ", padding=[%ld, %ld])", kh / 2, kh / 2);
      t.d[1] = gd_const(o);
      t.d[2] = gd_add(xt.d[2], gd_const(2 * (kh / 2) - kh + 1));
      t.d[3] = gd_add(xt.d[3], gd_const(2 * (kh / 2) - kh + 1));
    } else {
      long p = 1 + (long)below(2);
      str_printf(&e, "nn.%s_pool2d(%%v%d, pool_size=[%ld, %ld])", chance(2) ? "max" : "avg", x, p, p);
      t.d[2] = gd_add(xt.d[2], gd_const(1 - p));
      t.d[3] = gd_add(xt.d[3], gd_const(1 - p));
    }
    break;
  }
  case 13: { /* a tuple and a projection */
    int y = gpick(g);
    str_printf(&e, "(%%v%d, %%v%d).%d", x, y, chance(2));
    t = e.s[e.len - 1] == '0' ? xt : g->env[y];
    break;
  }
  case 14: { /* if, between values of the same shape */
    int y = gpartner(g, &xt, -1);
    if (y < 0) return free(e.s), false;
    str_printf(&e, "if (sum(%%v%d) > 0f) { %%v%d } else { %%v%d }", x, x, y);
    t = xt;
    for (int k = 0; k < xt.rank; k++)
      if (g->env[y].d[k].kind == GD_ANY) t.d[k] = gd_any(t.d[k]);
    break;
  }
  case 15: /* through a data type's field */
    if (chance(2)) {
      g->uses_box = true;
      str_printf(&e, "match (GBox(%%v%d)) { GBox(%%b) => %%b }", x);
    } else {
      str_printf(&e, "match (Some(%%v%d)) { Some(%%b) => %%b, None => %%v%d }", x, x);
    }
    t = xt;
    break;
  case 16: { /* a lambda with an annotated parameter (a `?`, or a name of its own), applied */
    GTy pt = xt;
    Str ann = {0};
    str_puts(&ann, xt.rank ? "Tensor[(" : "float32");
    for (int i = 0; i < xt.rank; i++) {
      if (i) str_puts(&ann, ", ");
      unsigned r = (unsigned)below(3);
      if (r == 0 && g_static) r = 1;
      if (r == 0) {
        str_puts(&ann, "?");
        pt.d[i] = gd_any(xt.d[i]);
      } else if (r == 1) {
        str_printf(&ann, "p%d", i); /* a literal's own name: a hole unified with the argument's */
      } else {
        put_gdim(&ann, xt.d[i]);
      }
    }
    if (xt.rank) str_puts(&ann, "), float32]");
    str_printf(&e, "fn (%%z : %s) { %s(%%z) * 2f }(%%v%d)", str_done(&ann),
               unary_ops[below(sizeof unary_ops / sizeof *unary_ops)], x);
    free(ann.s);
    t = pt;
    break;
  }
  case 17:
  case 18: { /* a call of an earlier definition, its shape variables matched to the arguments' */
    if (!g->ndefs) return free(e.s), false;
    const GDef *d = &g->defs[below((size_t)g->ndefs)];
    if (d->takes_fn || d->nret != 1) return free(e.s), false;
    int dn = (int)(d - g->defs);
    GDim bind[GV];
    bool bound[GV] = {0};
    int args[GPARAMS];
    for (int p = 0; p < d->nparams; p++) {
      int cand[GENV], n = 0;
      for (int i = 0; i < g->nenv; i++) {
        const GTy *y = &g->env[i];
        if (y->rank != d->params[p].rank) continue;
        GDim tb[GV];
        bool tbd[GV];
        memcpy(tb, bind, sizeof tb), memcpy(tbd, bound, sizeof tbd);
        bool ok = true;
        for (int k = 0; ok && k < y->rank; k++) {
          GDim pd = d->params[p].d[k], yd = y->d[k];
          if (pd.kind == GD_CONST) ok = gd_agrees(pd, yd);
          else if (pd.kind == GD_VAR) {
            int v = pd.c[0] ? 0 : pd.c[1] ? 1 : 2;
            if (!tbd[v]) tb[v] = yd, tbd[v] = true;
            else ok = gd_agrees(tb[v], yd);
          } else ok = !yd.unknown; /* a `?` parameter: the size is what the call gives */
        }
        if (ok) cand[n++] = i;
      }
      if (!n) return free(e.s), false;
      args[p] = cand[below((size_t)n)];
      const GTy *y = &g->env[args[p]];
      for (int k = 0; k < y->rank; k++) {
        GDim pd = d->params[p].d[k];
        if (pd.kind != GD_VAR) continue;
        int v = pd.c[0] ? 0 : pd.c[1] ? 1 : 2;
        if (!bound[v]) bind[v] = y->d[k], bound[v] = true;
      }
    }
    str_printf(&e, "@g%d(", dn);
    for (int p = 0; p < d->nparams; p++) str_printf(&e, "%s%%v%d", p ? ", " : "", args[p]);
    str_puts(&e, ")");
    t = d->ret[0];
    for (int k = 0; k < t.rank; k++) { /* the result's dimensions over the caller's */
      GDim r = d->ret[0].d[k], s = gd_const(r.c0);
      if (r.kind == GD_CONST) continue;
      bool any = r.kind == GD_ANY;
      for (int v = 0; v < GV; v++)
        if (r.c[v]) {
          GDim bv = bound[v] ? bind[v] : gd_any(gd_const(0));
          if (!bound[v]) bv.unknown = true;
          s = gd_add(s, gd_mul(gd_const(r.c[v]), bv));
        }
      if (any) s = gd_any(s);
      if (r.unknown) s.unknown = true;
      t.d[k] = s;
    }
    break;
  }
  case 19: /* the same shape, along an axis */
    if (!xt.rank) return free(e.s), false;
    str_printf(&e, "%s(%%v%d, axis=%d)", (const char *[]){"nn.softmax", "cumsum", "reverse", "nn.log_softmax"}[below(4)], x,
               (int)below((size_t)xt.rank));
    t = xt;
    break;
  case 20: { /* tile, repeat: an axis times a constant */
    if (!xt.rank) return free(e.s), false;
    t = xt;
    if (chance(2)) {
      str_printf(&e, "tile(%%v%d, reps=[", x);
      for (int k = 0; k < xt.rank; k++) {
        long r = 1 + (long)below(2);
        str_printf(&e, "%s%ld", k ? ", " : "", r);
        t.d[k] = gd_mul(gd_const(r), xt.d[k]);
      }
      str_puts(&e, "])");
    } else {
      int a = (int)below((size_t)xt.rank);
      long r = 1 + (long)below(3);
      str_printf(&e, "repeat(%%v%d, repeats=%ld, axis=%d)", x, r, a);
      t.d[a] = gd_mul(gd_const(r), xt.d[a]);
    }
    break;
  }
  case 21: { /* stack with a value of the same shape */
    if (xt.rank >= GRANK) return free(e.s), false;
    int y = gpartner(g, &xt, -1);
    if (y < 0) return free(e.s), false;
    int a = (int)below((size_t)xt.rank + 1);
    str_printf(&e, "stack((%%v%d, %%v%d), axis=%d)", x, y, a);
    t.rank = xt.rank + 1;
    for (int k = 0, j = 0; k < t.rank; k++) {
      if (k == a) {
        t.d[k] = gd_const(2);
        continue;
      }
      t.d[k] = g->env[y].d[j].kind == GD_ANY ? gd_any(xt.d[j]) : xt.d[j];
      j++;
    }
    break;
  }
  case 22: { /* nn.pad with a constant */
    if (!xt.rank) return free(e.s), false;
    str_printf(&e, "nn.pad(%%v%d, 0f, pad_width=[", x);
    t = xt;
    for (int k = 0; k < xt.rank; k++) {
      long lo = (long)below(2), hi = (long)below(3);
      str_printf(&e, "%s[%ld, %ld]", k ? ", " : "", lo, hi);
      t.d[k] = gd_add(xt.d[k], gd_const(lo + hi));
    }
    str_puts(&e, "])");
    break;
  }
  case 23: { /* broadcast_to_like a value, collapse_sum_like to a constant's shape */
    GTy c;
    Str lit = {0};
    put_broadcast_constant(&lit, &xt, &c);
    if (chance(2)) {
      str_printf(&e, "broadcast_to_like(%s, %%v%d)", str_done(&lit), x);
      t = xt;
    } else {
      str_printf(&e, "collapse_sum_like(%%v%d, %s)", x, str_done(&lit));
      t = c;
    }
    free(lit.s);
    break;
  }
  case 24: { /* resizing (N, C, H, W) */
    if (xt.rank != 4) return free(e.s), false;
    t = xt;
    if (chance(2)) {
      str_printf(&e, "nn.upsampling(%%v%d, scale_h=2f, scale_w=2f)", x);
      t.d[2] = gd_mul(gd_const(2), xt.d[2]);
      t.d[3] = gd_mul(gd_const(2), xt.d[3]);
    } else {
      long h = 1 + (long)below(3), w = 1 + (long)below(3);
      str_printf(&e, "image.resize2d(%%v%d, size=[%ld, %ld])", x, h, w);
      t.d[2] = gd_const(h);
      t.d[3] = gd_const(w);
    }
    break;
  }
  case 25: { /* normalization over a constant axis: layer_norm (the last), batch_norm (the second) */
    if (!xt.rank) return free(e.s), false;
    bool batch = xt.rank >= 2 && chance(2);
    GDim c = xt.d[batch ? 1 : xt.rank - 1];
    if (c.kind != GD_CONST) return free(e.s), false;
    if (batch)
      str_printf(&e, "nn.batch_norm(%%v%d, ones(shape=[%ld]), zeros(shape=[%ld]), zeros(shape=[%ld]), ones(shape=[%ld])).0",
                 x, c.c0, c.c0, c.c0, c.c0);
    else
      str_printf(&e, "nn.layer_norm(%%v%d, ones(shape=[%ld]), zeros(shape=[%ld]))", x, c.c0, c.c0);
    t = xt;
    break;
  }
  default: { /* a let with its type written (a `?` now and then) */
    str_printf(&e, "%s(%%v%d)", unary_ops[below(sizeof unary_ops / sizeof *unary_ops)], x);
    t = xt;
    if (chance(3) && !g_static) {
      int k = xt.rank ? (int)below((size_t)xt.rank) : -1;
      if (k >= 0) t.d[k] = gd_any(t.d[k]);
    }
    for (int k = 0; k < t.rank; k++)
      if (gd_written_any(t.d[k]) && g_static) return free(e.s), false;
    str_printf(g->b, "  let %%v%d : ", g->nenv);
    GTy want = t;
    put_gty_annot(g->b, &want, &t);
    str_printf(g->b, " = %s;\n", str_done(&e));
    free(e.s);
    g->env[g->nenv++] = t;
    return true;
  }
  }
  str_printf(g->b, "  let %%v%d = %s;\n", g->nenv, str_done(&e));
  free(e.s);
  g->env[g->nenv++] = t;
  return true;
}

/* A parameter's shape: rank 0 to 4 (mostly 1 to 3), each axis a shape variable, a constant (1
 * often: broadcasting) or `?` standing for a variable or a constant. */
static GTy gen_param_type(int nvars) {
  GTy t;
  t.rank = (int)(chance(10) ? 0 : chance(8) ? 4 : 1 + below(3));
  for (int i = 0; i < t.rank; i++) {
    unsigned r = (unsigned)below(10);
    if (r < 4) t.d[i] = gd_var((int)below((size_t)nvars));
    else if (r < 8) t.d[i] = gd_const((long)(r == 4 || r == 5 ? 1 : 2 + below(3)));
    else if (g_static) t.d[i] = gd_var((int)below((size_t)nvars));
    else t.d[i] = gd_any(chance(2) ? gd_var((int)below((size_t)nvars)) : gd_const((long)below(4)));
  }
  return t;
}

/* A definition @gN, after @g0 .. @g(N-1), which its body may call. */
static void gen_def(Str *b, GDef *defs, int n, bool *uses_box) {
  GDef *d = &defs[n];
  int nvars = 1 + (int)below(GV);
  memset(d, 0, sizeof *d);
  d->takes_fn = chance(5);
  d->nparams = 1 + (int)below(3);
  GBody g = {b, {{0}}, 0, defs, n, false};
  str_printf(b, "def @g%d(", n);
  for (int p = 0; p < d->nparams; p++) {
    d->params[p] = gen_param_type(nvars);
    if (p == 0 && d->takes_fn) { /* a function from this shape to itself, or to its sum */
      str_puts(b, "%f : fn (");
      put_gty(b, &d->params[0]);
      d->fn_out = chance(3) ? (GTy){0} : d->params[0];
      str_puts(b, ") -> ");
      put_gty(b, &d->fn_out);
      str_puts(b, ", ");
    }
    str_printf(b, "%s%%v%d : ", p ? ", " : "", p);
    put_gty(b, &d->params[p]);
    g.env[g.nenv++] = d->params[p];
  }
  Str body = {0}; /* the signature's result type is written once the body is known */
  g.b = &body;
  if (d->takes_fn) {
    str_printf(&body, "  let %%v%d = %%f(%%v0);\n", g.nenv);
    g.env[g.nenv] = d->fn_out;
    g.nenv++;
  }
  int steps = 2 + (int)below(6);
  for (int s = 0, tries = 0; s < steps && tries < 100 && g.nenv < GENV; tries++)
    if (gen_step(&g)) s++;
  d->nret = chance(3) ? 2 : 1;
  int last = g.nenv - 1, other = (int)below((size_t)g.nenv);
  d->ret[0] = g.env[last];
  if (d->nret == 2) {
    d->ret[1] = g.env[other];
    str_printf(&body, "  (%%v%d, %%v%d)\n}\n", last, other);
  } else {
    str_printf(&body, "  %%v%d\n}\n", last);
  }
  bool written = chance(3); /* the result type written, a `?` in it perhaps as what it stands for */
  for (int r = 0; written && g_static && r < d->nret; r++)
    for (int k = 0; k < d->ret[r].rank; k++)
      if (gd_written_any(d->ret[r].d[k])) written = false;
  str_puts(b, ") ");
  if (written) {
    str_puts(b, "-> ");
    if (d->nret == 2) str_puts(b, "(");
    for (int r = 0; r < d->nret; r++) {
      GTy seen;
      if (r) str_puts(b, ", ");
      put_gty_annot(b, &d->ret[r], &seen);
      d->ret[r] = seen;
    }
    str_puts(b, d->nret == 2 ? ") " : " ");
  }
  str_puts(b, "{\n");
  str_puts(b, str_done(&body));
  free(body.s);
  *uses_box |= g.uses_box;
}

/* Arguments for a call of d: the shape variables given sizes (0 and 1 among them), each `?` the size
 * it stands for (sometimes another: a run-time check's business), now and then one axis of the wrong
 * size (the checker must refuse the call). */
static void gen_call(Str *b, const GDef *d, int n) {
  static const long sizes[] = {1, 2, 3, 1, 2, 0, 4, 5};
  long vals[GV];
  for (int v = 0; v < GV; v++) vals[v] = sizes[below(sizeof sizes / sizeof *sizes)];
  bool break_one = chance(10);
  str_printf(b, "@g%d(", n);
  for (int p = 0; p < d->nparams; p++) {
    const GTy *t = &d->params[p];
    if (p) str_puts(b, ", ");
    if (p == 0 && d->takes_fn) { /* an operator, a lambda annotated or not, or `add` made unary */
      switch (below(4)) {
      case 0: str_printf(b, "%s", d->fn_out.rank == t->rank && d->fn_out.rank ? unary_ops[below(5)] : "sum"); break;
      case 1:
        str_puts(b, "fn (%q : ");
        put_gty(b, t);
        str_printf(b, ") { %s(%%q) }", d->fn_out.rank == t->rank && d->fn_out.rank ? "negative" : "sum");
        break;
      case 2: str_printf(b, "fn (%%q) { %s(%%q) }", d->fn_out.rank == t->rank && d->fn_out.rank ? "nn.relu" : "sum"); break;
      default: { /* issue 29's `fn (%b) { ones(shape=[2]) + %b }`: the constant may not fit */
        if (d->fn_out.rank != t->rank || !t->rank) {
          str_puts(b, "sum");
          break;
        }
        long c = t->d[t->rank - 1].kind == GD_CONST && !chance(3) ? t->d[t->rank - 1].c0 : 1 + (long)below(3);
        str_printf(b, "fn (%%q) { ones(shape=[%ld]) + %%q }", c);
        break;
      }
      }
      str_puts(b, ", ");
    }
    long shape[GRANK];
    for (int k = 0; k < t->rank; k++) {
      GDim dd = t->d[k];
      shape[k] = dd.kind == GD_ANY && chance(8) ? (long)below(4) : gd_size(dd, vals);
      if (shape[k] < 0) shape[k] = 0;
    }
    if (break_one && t->rank) {
      int k = (int)below((size_t)t->rank);
      shape[k] = shape[k] == 1 ? 2 : 1;
      break_one = false;
    }
    bool as_any = t->rank && !g_static && chance(8); /* a value whose type has a `?` */
    if (as_any) {
      str_puts(b, "fn (%w : Tensor[(");
      for (int k = 0; k < t->rank; k++) str_printf(b, "%s?", k ? ", " : "");
      str_puts(b, "), float32]) { %w }(");
    }
    put_literal(b, t->rank, shape, (int)below(9));
    if (as_any) str_puts(b, ")");
  }
  str_puts(b, ")");
}

static char *gen_sound(void) {
  Str b = {0};
  GDef defs[GDEFS];
  int n = 1 + (int)below(GDEFS);
  bool uses_box = false;
  Str body = {0};
  g_static = chance(2);
  for (int i = 0; i < n; i++) gen_def(&body, defs, i, &uses_box);
  if (uses_box) str_puts(&b, "data GBox<a> { GBox(a) }\n");
  str_puts(&b, str_done(&body));
  free(body.s);
  int calls = 1 + (int)below(3);
  for (int c = 0; c < calls; c++) {
    int k = c == 0 ? n - 1 : (int)below((size_t)n);
    if (chance(3)) { /* two calls in a tuple */
      int j = (int)below((size_t)n);
      str_puts(&b, "(");
      gen_call(&b, &defs[k], k);
      str_puts(&b, ", ");
      gen_call(&b, &defs[j], j);
      str_puts(&b, ")\n");
    } else {
      gen_call(&b, &defs[k], k);
      str_puts(&b, "\n");
    }
  }
  return str_done(&b);
}

/* ---------------------------------------------------------------- judging the soundness family */

static bool type_has_any(const IrType *t, int depth) {
  if (!t || depth > 200) return false;
  switch (t->kind) {
  case IR_TYPE_ANY: return true;
  case IR_TYPE_TENSOR: return type_has_any(t->u.tensor.shape, depth + 1);
  case IR_TYPE_SHAPE:
    for (int i = 0; i < t->u.shape.rank; i++)
      if (type_has_any(t->u.shape.dims[i], depth + 1)) return true;
    return false;
  case IR_TYPE_DIMOP: return type_has_any(t->u.dimop.a, depth + 1) || type_has_any(t->u.dimop.b, depth + 1);
  case IR_TYPE_TUPLE:
    for (int i = 0; i < t->u.tuple.n; i++)
      if (type_has_any(t->u.tuple.fields[i], depth + 1)) return true;
    return false;
  case IR_TYPE_FUNC:
    for (int i = 0; i < t->u.func.nargs; i++)
      if (type_has_any(t->u.func.args[i], depth + 1)) return true;
    return type_has_any(t->u.func.ret, depth + 1);
  case IR_TYPE_CALL:
    for (int i = 0; i < t->u.call.nargs; i++)
      if (type_has_any(t->u.call.args[i], depth + 1)) return true;
    return false;
  case IR_TYPE_REF: return type_has_any(t->u.ref, depth + 1);
  default: return false;
  }
}

static void any_in_expr(IrTExpr *e, void *flag) {
  bool *found = flag;
  if (*found) return;
  if (type_has_any(e->type, 0)) *found = true;
  else ir_texpr_each_child(e, any_in_expr, flag);
}

/* Whether any node of the checked chunk has a `?` in its type: then a shape error at run time may
 * be what `?` means. */
static bool program_has_any(const IrTProgram *p) {
  bool found = false;
  for (int i = 0; i < p->nitems && !found; i++) {
    const IrTItem *it = &p->items[i];
    const IrTFn *fn = it->def && it->def->fn ? it->def->fn : it->expr;
    if (!fn) continue;
    if (type_has_any(fn->type, 0)) found = true;
    else if (fn->body) any_in_expr(fn->body, &found);
  }
  return found;
}

/* Run-time errors that no type could have caught: values, not shapes (a shape variable may be 0, and
 * no type says n >= 1, so an empty axis is one of them). */
static const char *const value_errors[] = {"out of range", "beyond the data", "by zero", "no clause", "out of memory",
                                           "stack overflow", "interrupted", "empty", "is not between", "batch index",
                                           "not a row start", "no permutation", "sum of the exponentials"};

/* The first run-time error's message in what the session printed, or NULL. */
static const char *runtime_error_text(void) {
  const char *p = captured ? strstr(captured, "run-time error: ") : NULL;
  return p ? p + strlen("run-time error: ") : NULL;
}

static bool is_value_error(const char *msg) {
  const char *end = strchr(msg, '\n');
  size_t n = end ? (size_t)(end - msg) : strlen(msg);
  for (size_t i = 0; i < sizeof value_errors / sizeof *value_errors; i++) {
    const char *hit = strstr(msg, value_errors[i]);
    if (hit && (size_t)(hit - msg) < n) return true;
  }
  return false;
}

/* ---------------------------------------------------------------- known findings */

/* RELAY_FUZZ_KNOWN=FILE: lines `seed S input I  # why`, findings not yet fixed (tests/meson.build gives
 * CI's list, fuzz_pipeline_known.txt). A listed input's internal error or unsound run-time error is
 * reported as known and does not fail the run; a listed input of the run's seed and range that no
 * longer gives one fails it, so that the list only shrinks. */
enum { MAX_KNOWN = 256 };
static long known_inputs[MAX_KNOWN];
static bool known_seen[MAX_KNOWN];
static int nknown;

static void load_known(const char *path) {
  FILE *f = path && *path ? fopen(path, "r") : NULL;
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f) && nknown < MAX_KNOWN) {
    unsigned long long s;
    long i;
    if (sscanf(line, " seed %llu input %ld", &s, &i) == 2 && s == seed) known_inputs[nknown++] = i;
  }
  fclose(f);
}

/* Whether the current input's finding is a known one (and notes that it was seen). */
static bool known_finding(void) {
  for (int k = 0; k < nknown; k++)
    if (known_inputs[k] == cur_index) {
      known_seen[k] = true;
      return true;
    }
  return false;
}

/* Counts a finding that does not end the run: a known one is said in a line, a new one in full. */
static void count_finding(long *counter, long *known, const char *what) {
  if (known_finding()) {
    (*known)++;
    fprintf(real_stderr, "#### known finding (RELAY_FUZZ_KNOWN), seed %llu input %ld: %s\n", (unsigned long long)seed,
            cur_index, what);
    return;
  }
  (*counter)++;
  report_finding(what);
  show_captured(4000);
  fflush(real_stderr);
}

static bool check_diags(const char *where, Counts *c) {
  if (captured && strstr(captured, "internal error")) {
    count_finding(&c->internal_errors, &c->known, where);
    return false;
  }
  return true;
}

/* The soundness family's inputs: rejected by the checker, accepted without a `?` in any type,
 * accepted with one (the summary at the end). */
static long sound_counts[3];

static void run_input(Session *s, const char *text, bool as_expression, bool sound, Counts *c) {
  save_input(text);
  cur_text = text;
  FILE *mem = capture_begin(s);
  if (as_expression) {
    IrTFn *e = NULL;
    set_phase(PH_CHECK);
    IrType *t = session_check_expression(s, "<fuzz>", text, &e);
    set_phase(PH_IDLE);
    if (t) {
      c->accepted++;
      RtValue v;
      set_phase(PH_EVAL);
      bool ok = session_eval(s, e, &v);
      set_phase(PH_IDLE);
      if (ok) {
        IrBuf out;
        ir_buf_init(&out);
        rt_print_display(&out, v, RT_LISTS_AUTO);
        c->ran++;
      } else {
        c->eval_failed++;
        c->interrupted += rt_was_interrupted();
      }
    }
  } else {
    set_phase(PH_CHECK);
    IrTProgram *p = session_load_chunk(s, "<fuzz>", text, strlen(text), false, NULL);
    set_phase(PH_IDLE);
    bool failed = false, any = false;
    if (p) {
      c->accepted++;
      any = sound && program_has_any(p);
      set_phase(PH_EVAL);
      bool ok = session_run(s, p, rnd() & 1);
      set_phase(PH_IDLE);
      if (ok) c->ran++;
      else {
        c->eval_failed++;
        c->interrupted += rt_was_interrupted();
        failed = true;
      }
    }
    if (sound) sound_counts[p ? any ? 2 : 1 : 0]++;
    capture_end(s, mem);
    if (sound && !p && show_rejected > 0) { /* tuning the generator: what the checker refused, and why */
      show_rejected--;
      fprintf(real_stderr, "#### rejected (input %ld):\n%s#### ", cur_index, text);
      show_captured(1500);
    }
    const char *msg = failed && sound && !any ? runtime_error_text() : NULL;
    if (msg && !is_value_error(msg) && !strstr(msg, "internal error"))
      count_finding(&c->sound_errors, &c->known, "a run-time error in a program the checker accepted, whose types have no `?`");
    check_diags("an internal error in a diagnostic", c);
    return;
  }
  capture_end(s, mem);
  check_diags("an internal error in a diagnostic", c);
}

/* The probe: `1 + 1` is 2, and the definition loaded at the start still works. */
static const char *probe_setup =
    "type FuzzProbe { FuzzProbeA, FuzzProbeB(int32) }\n"
    "def @fuzz_probe(%p: FuzzProbe) -> int32 { match (%p) { FuzzProbeA => 0, FuzzProbeB(%n) => %n + 1 } }\n";

static bool probe_one(Session *s, const char *text, const char *want, IrBuf *why) {
  IrTFn *e = NULL;
  FILE *mem = capture_begin(s);
  set_phase(PH_CHECK);
  IrType *t = session_check_expression(s, "<probe>", text, &e);
  set_phase(PH_IDLE);
  RtValue v;
  bool ok = false;
  if (t) {
    set_phase(PH_PROBE);
    ok = session_eval(s, e, &v);
    set_phase(PH_IDLE);
  }
  capture_end(s, mem);
  if (!t || !ok) {
    ir_buf_printf(why, "`%s` %s: %s", text, t ? "does not evaluate" : "does not check", captured ? captured : "");
    return false;
  }
  IrBuf out;
  ir_buf_init(&out);
  rt_print_value(&out, v);
  if (strcmp(out.data, want) != 0) {
    ir_buf_printf(why, "`%s` gives %s, not %s", text, out.data, want);
    return false;
  }
  return true;
}

static bool probe(Session *s, IrBuf *why) {
  return probe_one(s, "1 + 1", "2", why) && probe_one(s, "@fuzz_probe(FuzzProbeB(41))", "42", why);
}

static bool new_session(Session *s) {
  session_init(s);
  s->check_values = true; /* every value a top-level expression gives is checked against its type */
  FILE *mem = capture_begin(s);
  bool ok = session_load_prelude(s) && session_load_chunk(s, "<probe setup>", probe_setup, strlen(probe_setup), false, NULL);
  capture_end(s, mem);
  if (!ok) fprintf(real_stderr, "the session cannot start:\n%s\n", captured ? captured : "");
  return ok;
}

/* Per family: inputs, how many checked, seconds spent (the summary at the end). */
static const char *families[] = {"mutation", "splice", "nesting", "doubling", "tensor literal", "wide", "shapes",
                                 "operator attributes", "soundness"};
enum { NFAMILIES = sizeof families / sizeof families[0] };
static long fam_inputs[NFAMILIES], fam_checked[NFAMILIES];
static double fam_seconds[NFAMILIES];

/* The slowest inputs (the summary at the end). */
enum { NSLOW = 5 };
static struct {
  long index;
  const char *family;
  double seconds;
} slowest[NSLOW];

static void note_time(long index, const char *family, double t) {
  int k = NSLOW;
  while (k > 0 && slowest[k - 1].seconds < t) k--;
  if (k == NSLOW) return;
  memmove(&slowest[k + 1], &slowest[k], (size_t)(NSLOW - 1 - k) * sizeof slowest[0]);
  slowest[k].index = index, slowest[k].family = family, slowest[k].seconds = t;
}

static int family_index(const char *f) {
  for (int i = 0; i < NFAMILIES; i++)
    if (!strcmp(families[i], f)) return i;
  return 0;
}

/* Input i: a function of (seed, i) alone. */
static char *make_input(long i, bool *as_expression) {
  rng = seed ^ ((uint64_t)i * 0xd1b54a32d192ed03ull);
  rnd();
  *as_expression = false;
  unsigned pick = (unsigned)below(100);
  char *text;
  bool expr_like = true;
  if (sound_only || pick >= 95) {
    cur_family = "soundness";
    return gen_sound();
  }
  if (pick < 40 && ncorpus) {
    cur_family = "mutation";
    text = mutate(&corpus[below((size_t)ncorpus)]);
    expr_like = false;
  } else if (pick < 52 && ncorpus) {
    cur_family = "splice";
    text = splice_files(&corpus[below((size_t)ncorpus)], &corpus[below((size_t)ncorpus)]);
    expr_like = false;
  } else if (pick < 62) {
    cur_family = "nesting";
    text = gen_nesting();
  } else if (pick < 68) {
    cur_family = "doubling";
    text = gen_doubling();
  } else if (pick < 74) {
    cur_family = "tensor literal";
    text = gen_tensor();
  } else if (pick < 80) {
    cur_family = "wide";
    text = gen_wide();
    expr_like = false;
  } else if (pick < 88) {
    cur_family = "shapes";
    text = gen_shapes();
  } else {
    cur_family = "operator attributes";
    text = gen_op_calls();
  }
  if (expr_like && chance(3)) *as_expression = true;
  return text;
}

/* ---------------------------------------------------------------- the run */

/* RELAY_FUZZ_SKIP: families not to run, comma-separated ("doubling,nesting"), for hunting other
 * findings by hand while known ones are being fixed. The other inputs stay as they were. */
static bool skipped_family(const char *family) {
  const char *skip = getenv("RELAY_FUZZ_SKIP");
  if (!skip) return false;
  size_t n = strlen(family);
  for (const char *p = skip; (p = strstr(p, family)); p += n)
    if ((p == skip || p[-1] == ',') && (p[n] == 0 || p[n] == ',')) return true;
  return false;
}

/* A thread-specific value whose destructor runs if the evaluation thread exits (pthread_exit, as
 * runtime/error.c does on an error outside a protected call) before the run ends. */
static pthread_key_t exit_key;
static void on_thread_exit(void *unused) {
  (void)unused;
  report_finding("the evaluation thread exited in the middle of an input");
}

typedef enum { INPUT_RAN, INPUT_SKIPPED, INPUT_STOP } InputOutcome;

/* Input i through the session, then the probe. */
static InputOutcome one_input(Session *s, long i, Counts *c, IrBuf *why) {
  bool as_expression;
  cur_index = i;
  cur_text = NULL;
  char *text = make_input(i, &as_expression);
  if (skipped_family(cur_family)) {
    known_finding(); /* not run, so not judged: a listed one is not reported as gone */
    free(text);
    c->skipped++;
    return INPUT_SKIPPED;
  }
  struct timespec ti;
  clock_gettime(CLOCK_MONOTONIC, &ti);
  long accepted = c->accepted;
  run_input(s, text, as_expression, !strcmp(cur_family, "soundness"), c);
  int fi = family_index(cur_family);
  double t_input = since(ti);
  fam_inputs[fi]++, fam_checked[fi] += c->accepted - accepted, fam_seconds[fi] += t_input;
  note_time(i, cur_family, t_input);
  why->len = 0;
  why->data[0] = 0;
  InputOutcome o = INPUT_RAN;
  if (!probe(s, why)) {
    c->probe_failures++;
    cur_text = text;
    report_finding("the probe fails after this input");
    fprintf(real_stderr, "#### %s\n", why->data);
    fflush(real_stderr);
    if (!new_session(s)) o = INPUT_STOP;
  }
  cur_text = NULL;
  free(text);
  return o;
}

/* one_input under a trap: the fuzzer's own allocations (making an input, the probe's text) that
 * find the heap full start a fresh session (relay's own phases report it themselves). */
static InputOutcome one_input_trapped(Session *s, long i, Counts *c, IrBuf *why) {
  IrTrap trap;
  ir_trap_push(&trap, NULL);
  if (setjmp(trap.jb) != 0) {
    c->heap_full++;
    return new_session(s) ? INPUT_SKIPPED : INPUT_STOP;
  }
  InputOutcome o = one_input(s, i, c, why);
  ir_trap_pop(&trap);
  return o;
}

static void body(void *p) {
  TestArgs *a = p;
  install_crash_handlers();
  int argi = 1;
  long total = env_long("RELAY_FUZZ_N", 10000);
  if (a->argc > 1 && a->argv[1][0] >= '0' && a->argv[1][0] <= '9') total = strtol(a->argv[argi++], NULL, 10);
  long only = env_long("RELAY_FUZZ_ONLY", -1), from = env_long("RELAY_FUZZ_FROM", 0);
  long seconds = env_long("RELAY_FUZZ_SECONDS", 0);
  if (seconds > 0 && !getenv("RELAY_FUZZ_N") && !(a->argc > 1 && argi == 2)) total = LONG_MAX;
  tap_diag("seed %llu (RELAY_FUZZ_SEED), %ld inputs from %ld%s, evaluations interrupted after %ld ms, checks "
           "bounded at %ld s, heap %ld MB",
           (unsigned long long)seed, total, from, seconds ? " (time-bounded)" : "", eval_ms, check_s, heap_mb);
  for (int i = 0; IR_OP_COUNT > i; i++) op_names_kept[i] = ir_ops[i].name;
  load_corpus(a->argc - argi, a->argv + argi);
  tap_ok(ncorpus > 0, "corpus of %d files, %d identifiers, %d numbers", ncorpus, idents.n, numbers.n);

  pthread_t wd;
  pthread_create(&wd, NULL, watchdog, NULL);

  Session s;
  if (!tap_ok(new_session(&s), "the session starts and the probe definitions load")) {
    a->status = tap_done();
    return;
  }
  IrBuf why;
  ir_buf_init(&why);
  tap_ok(probe(&s, &why), "the probe works before any input%s%s", why.len ? ": " : "", why.data);

  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  const long batch = 1000;
  long done = 0;
  pthread_key_create(&exit_key, on_thread_exit);
  pthread_setspecific(exit_key, &exit_key);
  if (only >= 0) from = only, total = only + 1;
  if (getenv("RELAY_FUZZ_SKIP")) tap_diag("skipping the families %s", getenv("RELAY_FUZZ_SKIP"));
  long last_run = from; /* the inputs run are from .. last_run - 1 */
  for (long b0 = from; b0 < total; b0 += batch) {
    Counts c = {0};
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long i = b0;
    for (; i < b0 + batch && i < total; i++, last_run = i) {
      if (seconds > 0 && since(start) >= (double)seconds) break;
      if (i > from && (i - from) % session_inputs == 0 && !new_session(&s)) break; /* drops what it defined */
      InputOutcome o = one_input_trapped(&s, i, &c, &why);
      if (o == INPUT_STOP) break;
      if (o == INPUT_RAN) done++;
    }
    if (i == b0) break;
    double t = since(t0);
    tap_ok(c.internal_errors == 0 && c.probe_failures == 0 && c.sound_errors == 0,
           "inputs %ld..%ld (%.1f s): %ld checked, %ld ran, %ld run-time errors (%ld interrupted); %ld internal "
           "errors, %ld probe failures, %ld unsound run-time errors%s; heap %zu MB, %zu MB live%s%s",
           b0, i - 1, t, c.accepted, c.ran, c.eval_failed, c.interrupted, c.internal_errors, c.probe_failures,
           c.sound_errors, c.known ? ir_printf(" (and %ld known)", c.known) : "",
           GC_get_heap_size() >> 20, (GC_gcollect(), (GC_get_heap_size() - GC_get_free_bytes()) >> 20),
           c.skipped ? ir_printf(" (%ld skipped: RELAY_FUZZ_SKIP)", c.skipped) : "",
           c.heap_full ? ir_printf(" (%ld times the heap was full outside the session: a fresh one)", c.heap_full) : "");
    if (seconds > 0 && since(start) >= (double)seconds) break;
  }
  pthread_setspecific(exit_key, NULL);
  IrBuf gone;
  ir_buf_init(&gone);
  for (int k = 0; k < nknown; k++)
    if (!known_seen[k] && known_inputs[k] >= from && known_inputs[k] < last_run)
      ir_buf_printf(&gone, " %ld", known_inputs[k]);
  if (nknown)
    tap_ok(!gone.len, "every finding RELAY_FUZZ_KNOWN lists for seed %llu in the inputs run still occurs%s%s",
           (unsigned long long)seed, gone.len ? " (remove them from the list: inputs" : "", gone.len ? ir_printf("%s)", gone.data) : "");
  cur_index = -1;
  tap_diag("%ld inputs in %.1f s", done, since(start));
  for (int f = 0; f < NFAMILIES; f++)
    tap_diag("  %-20s %6ld inputs, %6ld checked, %7.1f s", families[f], fam_inputs[f], fam_checked[f], fam_seconds[f]);
  if (sound_counts[0] + sound_counts[1] + sound_counts[2])
    tap_diag("soundness: %ld programs rejected by the checker, %ld accepted without a `?` in their types, %ld with one",
             sound_counts[0], sound_counts[1], sound_counts[2]);
  for (int k = 0; k < NSLOW && slowest[k].family; k++)
    tap_diag("slow: input %ld (%s) took %.2f s", slowest[k].index, slowest[k].family, slowest[k].seconds);
  a->status = tap_done();
}

int main(int argc, char **argv) {
  const char *seed_env = getenv("RELAY_FUZZ_SEED");
  seed = seed_env && *seed_env ? strtoull(seed_env, NULL, 10) : 1;
  eval_ms = env_long("RELAY_FUZZ_EVAL_MS", eval_ms);
  check_s = env_long("RELAY_FUZZ_CHECK_S", check_s);
  stop_s = env_long("RELAY_FUZZ_STOP_S", stop_s);
  heap_mb = env_long("RELAY_FUZZ_HEAP_MB", heap_mb);
  session_inputs = env_long("RELAY_FUZZ_SESSION", session_inputs);
  if (session_inputs < 1) session_inputs = 1;
  if (getenv("RELAY_FUZZ_SAVE")) save_path = getenv("RELAY_FUZZ_SAVE");
  sound_only = getenv("RELAY_FUZZ_MODE") && !strcmp(getenv("RELAY_FUZZ_MODE"), "sound");
  show_rejected = env_long("RELAY_FUZZ_SHOW_REJECTED", 0);
  load_known(getenv("RELAY_FUZZ_KNOWN"));
  real_stdout = stdout;
  int fd = dup(2);
  err_fd = fd >= 0 ? fd : 2;
  real_stderr = fdopen(err_fd, "w");
  if (!real_stderr) real_stderr = stderr;
  setvbuf(real_stderr, NULL, _IONBF, 0);
  devnull = fopen("/dev/null", "w");
  rt_heap_init();
  if (!getenv("GC_MAXIMUM_HEAP_SIZE")) GC_set_max_heap_size((size_t)heap_mb << 20);
  TestArgs a = {argc, argv, 1};
  if (!rt_stack_run(body, &a, RT_STACK_BYTES)) return 1;
  return a.status;
}
