/* The whole pipeline under fuzzing (issue 17): N inputs go through parsing, checking, compiling and
 * evaluating in ONE long-lived REPL session (repl/session.h, as the REPL drives it), and after each
 * input a fixed probe (`1 + 1`, and a definition loaded at the start) must still check and evaluate
 * to its value, so a failing input is proved to leave the session working.
 *
 * Inputs: token-level mutations and splices of the corpus (the .rly files under the roots given on
 * the command line), and generators of the families that broke relay before: deep nesting,
 * doubling lets and functions, big tensor literals, wide functions and data types, huge shapes,
 * extreme attribute values in operator calls.
 *
 * Bounds: an evaluation is interrupted (rt_interrupt) after RELAY_FUZZ_EVAL_MS; the heap is capped
 * (RELAY_FUZZ_HEAP_MB, unless GC_MAXIMUM_HEAP_SIZE is set), so out-of-memory paths run; a fresh session
 * starts every RELAY_FUZZ_SESSION inputs (2,000), since a session keeps what its inputs define.
 *
 * Findings (the test fails and prints the seed, the index and the input): a signal (SIGSEGV,
 * SIGBUS, SIGFPE, SIGABRT, SIGILL), parsing+checking that exceeds RELAY_FUZZ_CHECK_S seconds, an
 * evaluation that does not stop within RELAY_FUZZ_STOP_S seconds of its interrupt, an "internal
 * error" in any diagnostic, the evaluation thread exiting, and the probe failing. A UBSan report
 * aborts the run (UBSAN_OPTIONS has abort_on_error=1 in tests/meson.build): the handler prints it.
 *
 * Reproducible: input i is a function of (RELAY_FUZZ_SEED, i) only. RELAY_FUZZ_ONLY=i runs input i
 * alone (in a fresh session), RELAY_FUZZ_FROM=i starts at i, RELAY_FUZZ_SECONDS=s runs for s seconds
 * (N is then a maximum), RELAY_FUZZ_SAVE=PATH (default fuzz_pipeline_input.rly in the working
 * directory) holds the input being run, so a crash leaves it there for `relay PATH`.
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
static const char *save_path = "fuzz_pipeline_input.rly";

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

/* The session's output: values to /dev/null, diagnostics to memory (scanned afterwards). */
static FILE *capture_begin(void) {
  FILE *mem = open_memstream(&captured, &captured_len);
  fflush(stdout);
  stdout = devnull;
  stderr = mem;
  return mem;
}
static void capture_end(FILE *mem) {
  fflush(stdout);
  stdout = real_stdout;
  stderr = real_stderr;
  fclose(mem);
}

typedef struct {
  long internal_errors, probe_failures, accepted, ran, eval_failed, interrupted, skipped;
  long heap_full; /* the fuzzer's own allocation found the heap full: a fresh session followed */
} Counts;

/* What the session printed, for the report: the first `max` bytes. */
static void show_captured(size_t max) {
  if (!captured) return;
  fprintf(real_stderr, "#### the session printed:\n%.*s%s\n", (int)(captured_len < max ? captured_len : max),
          captured, captured_len > max ? "\n[...]" : "");
}

static bool check_diags(const char *where, Counts *c) {
  if (captured && strstr(captured, "internal error")) {
    c->internal_errors++;
    report_finding(where);
    show_captured(4000);
    fflush(real_stderr);
    return false;
  }
  return true;
}

static void run_input(Session *s, const char *text, bool as_expression, Counts *c) {
  save_input(text);
  cur_text = text;
  FILE *mem = capture_begin();
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
        rt_print_display(&out, v);
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
    if (p) {
      c->accepted++;
      set_phase(PH_EVAL);
      bool ok = session_run(s, p, rnd() & 1);
      set_phase(PH_IDLE);
      if (ok) c->ran++;
      else {
        c->eval_failed++;
        c->interrupted += rt_was_interrupted();
      }
    }
  }
  capture_end(mem);
  check_diags("an internal error in a diagnostic", c);
}

/* The probe: `1 + 1` is 2, and the definition loaded at the start still works. */
static const char *probe_setup =
    "type FuzzProbe { FuzzProbeA, FuzzProbeB(int32) }\n"
    "def @fuzz_probe(%p: FuzzProbe) -> int32 { match (%p) { FuzzProbeA => 0, FuzzProbeB(%n) => %n + 1 } }\n";

static bool probe_one(Session *s, const char *text, const char *want, IrBuf *why) {
  IrTFn *e = NULL;
  FILE *mem = capture_begin();
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
  capture_end(mem);
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
  FILE *mem = capture_begin();
  bool ok = session_load_prelude(s) && session_load_chunk(s, "<probe setup>", probe_setup, strlen(probe_setup), false, NULL);
  capture_end(mem);
  if (!ok) fprintf(real_stderr, "the session cannot start:\n%s\n", captured ? captured : "");
  return ok;
}

/* Per family: inputs, how many checked, seconds spent (the summary at the end). */
static const char *families[] = {"mutation", "splice", "nesting", "doubling", "tensor literal", "wide", "shapes",
                                 "operator attributes"};
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
    free(text);
    c->skipped++;
    return INPUT_SKIPPED;
  }
  struct timespec ti;
  clock_gettime(CLOCK_MONOTONIC, &ti);
  long accepted = c->accepted;
  run_input(s, text, as_expression, c);
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
  for (long b0 = from; b0 < total; b0 += batch) {
    Counts c = {0};
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long i = b0;
    for (; i < b0 + batch && i < total; i++) {
      if (seconds > 0 && since(start) >= (double)seconds) break;
      if (i > from && (i - from) % session_inputs == 0 && !new_session(&s)) break; /* drops what it defined */
      InputOutcome o = one_input_trapped(&s, i, &c, &why);
      if (o == INPUT_STOP) break;
      if (o == INPUT_RAN) done++;
    }
    if (i == b0) break;
    double t = since(t0);
    tap_ok(c.internal_errors == 0 && c.probe_failures == 0,
           "inputs %ld..%ld (%.1f s): %ld checked, %ld ran, %ld run-time errors (%ld interrupted); %ld internal "
           "errors, %ld probe failures; heap %zu MB, %zu MB live%s%s",
           b0, i - 1, t, c.accepted, c.ran, c.eval_failed, c.interrupted, c.internal_errors, c.probe_failures,
           GC_get_heap_size() >> 20, (GC_gcollect(), (GC_get_heap_size() - GC_get_free_bytes()) >> 20),
           c.skipped ? ir_printf(" (%ld skipped: RELAY_FUZZ_SKIP)", c.skipped) : "",
           c.heap_full ? ir_printf(" (%ld times the heap was full outside the session: a fresh one)", c.heap_full) : "");
    if (seconds > 0 && since(start) >= (double)seconds) break;
  }
  pthread_setspecific(exit_key, NULL);
  cur_index = -1;
  tap_diag("%ld inputs in %.1f s", done, since(start));
  for (int f = 0; f < NFAMILIES; f++)
    tap_diag("  %-20s %6ld inputs, %6ld checked, %7.1f s", families[f], fam_inputs[f], fam_checked[f], fam_seconds[f]);
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
