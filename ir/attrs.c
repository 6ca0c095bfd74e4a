/* Operator attributes: the keyword arguments of a call (`sum(%x, axis=[1], keepdims=True)`)
 * checked against what the operator takes and decoded by kind, once, for the checker's relations
 * and the run time's kernels alike; and what both read from them: windows, slices, layouts, einsum
 * equations. */
#include "ir/op.h"

#include <math.h>
#include <string.h>

#include "ir/mem.h"
#include "ir/print.h"

static const struct {
  const char *name;
  IrAttrKindOf kind;
} attr_table[IR_A_COUNT] = {
#define IR_ATTR(id, name, kind) {name, IR_AK_##kind},
#include "ir/attrs.def"
#undef IR_ATTR
};

const IrOpAttrs ir_op_attrs_none;
const IrAttrValue ir_attr_absent;

const char *ir_attr_name(IrAttrId id) { return attr_table[id].name; }

/* Attribute names to ids, and the `accepted` lists of ops.def and relations.def read once each into
 * bit sets: decoding a call looks names up by their interned symbol, not by comparing text. Built
 * on first use, on whichever thread checks first (checking runs on one thread at a time). */
static IrSymMap attr_ids; /* Sym -> IrAttrId + 1 */

static int attr_lookup(Sym key) {
  if (!attr_ids.count) { /* made whole, then kept: running out of memory halfway keeps nothing */
    IrSymMap m = {0};
    for (int i = 0; i < IR_A_COUNT; i++) ir_symmap_put(&m, ir_sym(attr_table[i].name), (void *)(intptr_t)(i + 1));
    attr_ids = m;
  }
  return (int)(intptr_t)ir_symmap_get(&attr_ids, key) - 1;
}

static int attr_lookup_n(const char *name, size_t n) { return attr_lookup(ir_sym_n(name, n)); }

int ir_attr_kind(const char *key) {
  int id = attr_lookup_n(key, strlen(key));
  return id < 0 ? -1 : (int)attr_table[id].kind;
}

/* What an `accepted` list allows and requires (its words ending in `!`). */
typedef struct {
  uint64_t accepted[IR_ATTR_WORDS], required[IR_ATTR_WORDS];
  bool any_required;
} Schema;

static IrPtrMap schemas; /* the list's address -> its Schema */

static bool has(const uint64_t *set, int id) { return set[id >> 6] >> (id & 63) & 1; }

static const Schema *schema_of(const char *list) {
  Schema *sc = ir_ptrmap_get(&schemas, list);
  if (sc) return sc;
  sc = IR_NEW(Schema);
  for (const char *p = list; *p;) {
    while (*p == ' ') p++;
    const char *w = p;
    while (*p && *p != ' ' && *p != '!') p++;
    if (p == w) continue;
    int id = attr_lookup_n(w, (size_t)(p - w));
    if (id < 0) {
      UNREACHABLE("ops.def or relations.def names an attribute attrs.def lacks");
    } else {
      sc->accepted[id >> 6] |= (uint64_t)1 << (id & 63);
      if (*p == '!') sc->required[id >> 6] |= (uint64_t)1 << (id & 63), sc->any_required = true;
    }
    if (*p == '!') p++;
  }
  ir_ptrmap_put(&schemas, list, sc);
  return sc;
}

/* "axis, keepdims and exclude" */
static const char *accepted_text(const char *list) {
  IrBuf b;
  ir_buf_init(&b);
  int count = 0, total = 0;
  for (const char *p = list; *p; p++)
    if (*p != ' ' && *p != '!' && (p == list || p[-1] == ' ')) total++;
  for (const char *p = list; *p;) {
    while (*p == ' ') p++;
    if (!*p) break;
    const char *w = p;
    while (*p && *p != ' ' && *p != '!') p++;
    count++;
    ir_buf_printf(&b, "%s`%.*s`", count == 1 ? "" : count == total ? " and " : ", ", (int)(p - w), w);
    if (*p == '!') p++;
  }
  return b.data;
}

static const char *describe(const IrAttrVal *v) {
  IrBuf b;
  ir_buf_init(&b);
  ir_print_attr_value(&b, v);
  return b.data;
}

static bool integer(const IrAttrVal *v, int64_t *out) {
  if (v->kind != IR_ATTR_LIT || !ir_lit_tvm_int(&v->lit)) return false; /* `begin=[0i64]` as TVM prints it */
  if (v->lit.mag > (v->lit.neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) return false;
  *out = v->lit.neg ? (int64_t)(0 - v->lit.mag) : (int64_t)v->lit.mag;
  return true;
}

/* Decodes v as `kind` into *out; on error returns what was expected. */
static const char *decode(IrAttrKindOf kind, const IrAttrVal *v, IrAttrValue *out) {
  out->given = true;
  out->span = v->span;
  if (kind == IR_AK_ANY) return NULL;
  if (v->kind == IR_ATTR_NONE) { /* `axis=None`: no axes, all of them; elsewhere, as if not given */
    if (kind == IR_AK_INTS || kind == IR_AK_PAIRS) out->none = true;
    else out->given = false;
    return NULL;
  }
  switch (kind) {
  case IR_AK_INTS: {
    int64_t one;
    if (integer(v, &one)) {
      int64_t *p = IR_NEW(int64_t);
      *p = one;
      out->n = 1;
      out->ints = p;
      return NULL;
    }
    if (v->kind != IR_ATTR_LIST) return "an integer or a list of integers";
    int64_t *p = IR_NEW_ARRAY(int64_t, v->n + 1);
    for (int i = 0; i < v->n; i++)
      if (!integer(&v->items[i], &p[i])) return "an integer or a list of integers";
    out->listed = true;
    out->n = v->n;
    out->ints = p;
    return NULL;
  }
  case IR_AK_BOOL:
    if (v->kind != IR_ATTR_LIT || v->lit.kind != IR_LIT_BOOL) return "True or False";
    out->b = v->lit.b;
    return NULL;
  case IR_AK_FLOAT:
    if (v->kind != IR_ATTR_LIT || v->lit.kind == IR_LIT_BOOL) return "a number";
    out->f = v->lit.kind == IR_LIT_FLOAT ? v->lit.f : v->lit.neg ? -(double)v->lit.mag : (double)v->lit.mag;
    return NULL;
  case IR_AK_DTYPE:
    if (v->kind != IR_ATTR_STR) return "a base type such as \"float32\"";
    if (v->len == 0) { /* TVM writes out_dtype="" for "the input's" */
      out->none = true;
      return NULL;
    }
    if (!ir_dtype_parse(v->str, v->len, &out->dtype)) return "a base type such as \"float32\"";
    return NULL;
  case IR_AK_STR:
    if (v->kind != IR_ATTR_STR) return "a string";
    out->str = v->str;
    return NULL;
  case IR_AK_ANY: return NULL;
  case IR_AK_PAIRS: {
    const char *want = "a list of [before, after] pairs of integers";
    if (v->kind != IR_ATTR_LIST) return want;
    int64_t *p = IR_NEW_ARRAY(int64_t, 2 * v->n + 1);
    for (int i = 0; i < v->n; i++) {
      const IrAttrVal *pair = &v->items[i];
      if (pair->kind != IR_ATTR_LIST || pair->n != 2 || !integer(&pair->items[0], &p[2 * i]) ||
          !integer(&pair->items[1], &p[2 * i + 1]))
        return want;
    }
    out->listed = true;
    out->n = 2 * v->n;
    out->ints = p;
    return NULL;
  }
  }
  UNREACHABLE("an attribute of no kind");
  return NULL;
}

/* The compact set of the values vals[id] for the ids of `given` (IrAttrId order). */
static const IrOpAttrs *compact(const uint64_t given[IR_ATTR_WORDS], const IrAttrValue *const *vals) {
  int n = 0;
  for (int w = 0; w < IR_ATTR_WORDS; w++) n += __builtin_popcountll(given[w]);
  if (!n) return &ir_op_attrs_none;
  IrOpAttrs *a = ir_alloc(sizeof(IrOpAttrs) + sizeof(IrAttrValue) * (size_t)n);
  memcpy(a->given, given, sizeof a->given);
  a->n = 0;
  for (int w = 0; w < IR_ATTR_WORDS; w++)
    for (uint64_t bits = given[w]; bits; bits &= bits - 1) a->values[a->n++] = *vals[w * 64 + __builtin_ctzll(bits)];
  return a;
}

const IrOpAttrs *ir_attrs_set(const IrOpAttrs *a, IrAttrId id, IrAttrValue v) {
  uint64_t given[IR_ATTR_WORDS];
  const IrAttrValue *vals[IR_A_COUNT];
  memcpy(given, a->given, sizeof given);
  for (int w = 0, k = 0; w < IR_ATTR_WORDS; w++)
    for (uint64_t bits = given[w]; bits; bits &= bits - 1) vals[w * 64 + __builtin_ctzll(bits)] = &a->values[k++];
  if (v.given) {
    given[id >> 6] |= (uint64_t)1 << (id & 63);
    vals[id] = &v;
  } else {
    given[id >> 6] &= ~((uint64_t)1 << (id & 63));
  }
  return compact(given, vals);
}

const char *ir_attrs_decode(const char *owner, const char *accepted, int n, const IrAttr *attrs,
                            const IrOpAttrs **out, IrSpan *where) {
  *out = &ir_op_attrs_none;
  const Schema *sc = schema_of(accepted);
  if (n == 0 && !sc->any_required) return NULL; /* the usual call: nothing written, nothing required */
  uint64_t given[IR_ATTR_WORDS] = {0};
  const IrAttrValue *vals[IR_A_COUNT];
  /* decoded here, then copied into the compact set: on the stack for the calls of a few */
  IrAttrValue few[8];
  IrAttrValue *decoded = n <= 8 ? memset(few, 0, sizeof few) : IR_NEW_ARRAY(IrAttrValue, n);
  for (int i = 0; i < n; i++) {
    const IrAttr *at = &attrs[i];
    int id = attr_lookup(at->key);
    if (id < 0 || !has(sc->accepted, id)) {
      *where = at->span;
      if (!*accepted) return ir_printf("`%s` takes no attributes, but `%s` is given", owner, at->key->name);
      return ir_printf("`%s` has no attribute `%s`; it takes %s", owner, at->key->name, accepted_text(accepted));
    }
    const char *expected = decode(attr_table[id].kind, &at->val, &decoded[i]);
    if (expected) {
      *where = at->val.span;
      return ir_printf("the attribute `%s` of `%s` is %s, but %s is given", at->key->name, owner, expected,
                       describe(&at->val));
    }
    /* None where None means "not given" leaves it out (the parser refuses a name written twice) */
    if (decoded[i].given) {
      given[id >> 6] |= (uint64_t)1 << (id & 63);
      vals[id] = &decoded[i];
    } else {
      given[id >> 6] &= ~((uint64_t)1 << (id & 63));
    }
  }
  for (int w = 0; w < IR_ATTR_WORDS; w++)
    for (uint64_t bits = sc->required[w]; bits; bits &= bits - 1) {
      int id = w * 64 + __builtin_ctzll(bits);
      const IrAttrValue *v = has(given, id) ? vals[id] : NULL;
      if (!v || v->none) {
        if (v) *where = v->span; /* None, or "" for a base type, is no value */
        return ir_printf("`%s` needs the attribute `%s`", owner, attr_table[id].name);
      }
    }
  *out = compact(given, vals);
  return NULL;
}

/* ---------------------------------------------------------------- shared semantics */

/* The length of x[begin:end:stride] for a dimension of n, as numpy computes it. */
int64_t ir_slice_length(int64_t n, int64_t begin, int64_t end, int64_t stride, int64_t *start) {
  if (stride > 0) {
    begin = begin < 0 ? (begin + n < 0 ? 0 : begin + n) : (begin > n ? n : begin);
    end = end < 0 ? (end + n < 0 ? 0 : end + n) : (end > n ? n : end);
    *start = begin;
    return end > begin ? (end - begin - 1) / stride + 1 : 0;
  }
  begin = begin < 0 ? (begin + n < 0 ? -1 : begin + n) : (begin >= n ? n - 1 : begin);
  end = end < 0 ? (end + n < 0 ? -1 : end + n) : (end >= n ? n - 1 : end);
  *start = begin;
  if (begin <= end) return 0;
  return stride == INT64_MIN ? 1 : (begin - end - 1) / -stride + 1;
}


int64_t ir_attr_int(const IrOpAttrs *a, IrAttrId id, int64_t dflt) {
  const IrAttrValue *v = ir_attr_at(a, id);
  return v->given && !v->none && v->n >= 1 ? v->ints[0] : dflt;
}

bool ir_attr_bool(const IrOpAttrs *a, IrAttrId id, bool dflt) {
  const IrAttrValue *v = ir_attr_at(a, id);
  return v->given && !v->none ? v->b : dflt;
}

double ir_attr_float(const IrOpAttrs *a, IrAttrId id, double dflt) {
  const IrAttrValue *v = ir_attr_at(a, id);
  return v->given && !v->none ? v->f : dflt;
}

IrDType ir_attr_dtype(const IrOpAttrs *a, IrAttrId id, IrDType dflt) {
  const IrAttrValue *v = ir_attr_at(a, id);
  return v->given && !v->none ? v->dtype : dflt;
}

IrAttrValue ir_attr_ints(const IrOpAttrs *a, IrAttrId id, int n, const int64_t *dflt) {
  const IrAttrValue *v = ir_attr_at(a, id);
  if (v->given && !v->none) return *v;
  IrAttrValue d = {.listed = true, .n = n, .ints = dflt, .span = v->span};
  return d;
}

void ir_attr_pair(const IrOpAttrs *a, IrAttrId id, int64_t dflt, int64_t out[2]) {
  const IrAttrValue *v = ir_attr_at(a, id);
  out[0] = out[1] = dflt;
  if (v->given && !v->none && v->n >= 1) out[0] = v->ints[0], out[1] = v->ints[v->n - 1];
}

void ir_attr_padding(const IrOpAttrs *a, int64_t out[4]) {
  const IrAttrValue *v = ir_attr_at(a, IR_A_PADDING);
  for (int i = 0; i < 4; i++) out[i] = 0;
  if (!v->given || v->none) return;
  if (v->n == 1) out[0] = out[1] = out[2] = out[3] = v->ints[0];
  else if (v->n == 2) out[0] = out[2] = v->ints[0], out[1] = out[3] = v->ints[1];
  else if (v->n == 4)
    for (int i = 0; i < 4; i++) out[i] = v->ints[i];
}

int64_t ir_window_length(int64_t n, int64_t k, int64_t dil, int64_t stride, int64_t lo, int64_t hi, bool ceil_mode) {
  /* In 128 bits: n may be anything up to INT64_MAX (the attributes are bounded, the data is not). */
  IrWide avail = (IrWide)n + lo + hi - ((IrWide)dil * (k - 1) + 1);
  if (avail < 0) return -1;
  IrWide len = (avail + (ceil_mode ? stride - 1 : 0)) / stride + 1;
  return len > INT64_MAX ? IR_WINDOW_TOO_LARGE : (int64_t)len;
}

bool ir_scaled_length(int64_t n, double scale, int64_t *out) {
  double v = nearbyint((double)n * scale);
  if (!(v >= 0 && v < 0x1p63)) return false;
  *out = (int64_t)v;
  return true;
}

int64_t ir_arange_length_int(IrWide start, IrWide stop, IrWide step) {
  if (step == 0) return -1;
  IrWide span = step > 0 ? stop - start : start - stop, by = step > 0 ? step : -step;
  if (span <= 0) return 0;
  IrWide count = (span + by - 1) / by;
  return count > (IrWide)INT64_MAX ? -1 : (int64_t)count;
}

double ir_float_round(int bits, double v) {
#ifndef RELAY_WASM
  if (bits == 16) return (double)(__extension__(_Float16)(float)v);
#else
  if (bits == 16) return (double)(float)(__fp16)(float)v; /* no _Float16 on wasm32: runtime/rt.h's RtHalf */
#endif
  return bits == 32 ? (double)(float)v : v;
}

double ir_arange_length(double start, double stop, double step) {
  double count = ceil((stop - start) / step);
  return count > 0 ? count : 0;
}

/* ---------------------------------------------------------------- layouts and windows of 1 to 3 axes */

bool ir_layout_axes(const char *layout, const char *canon, int pos[]) {
  size_t n = strlen(canon);
  if (!layout || strlen(layout) != n) return false;
  for (size_t k = 0; k < n; k++) {
    const char *p = strchr(layout, canon[k]);
    if (!p) return false;
    pos[k] = (int)(p - layout);
  }
  return true;
}

void ir_attr_tuple(const IrOpAttrs *a, IrAttrId id, int d, int64_t dflt, int64_t out[]) {
  const IrAttrValue *v = ir_attr_at(a, id);
  for (int i = 0; i < d; i++) out[i] = dflt;
  if (!v->given || v->none || v->n < 1) return;
  for (int i = 0; i < d; i++) out[i] = v->ints[v->n == d ? i : 0];
}

void ir_attr_pads(const IrOpAttrs *a, int d, int64_t lo[], int64_t hi[]) {
  const IrAttrValue *v = ir_attr_at(a, IR_A_PADDING);
  for (int i = 0; i < d; i++) lo[i] = hi[i] = 0;
  if (!v->given || v->none) return;
  for (int i = 0; i < d; i++) {
    if (v->n == 1) lo[i] = hi[i] = v->ints[0];
    else if (v->n == d) lo[i] = hi[i] = v->ints[i];
    else if (v->n == 2 * d) lo[i] = v->ints[i], hi[i] = v->ints[d + i];
  }
}

const char *ir_einsum_parse(const char *s, IrEinsum *q) {
  int t = 0, k = 0;
  bool arrow = false;
  q->nin = 0;
  q->terms[0][0] = 0;
  for (const char *p = s;; p++) {
    char c = *p;
    if (c == ' ') continue;
    if (c == ',' || c == '\0' || (c == '-' && p[1] == '>')) {
      q->terms[t][k] = 0;
      if (arrow && c) return c == ',' ? "the output is one term" : "it has two arrows";
      if (!arrow) q->nin = t + 1;
      if (!c) break;
      if (c == '-') arrow = true, p++;
      if (++t > 32) return "it has more than 32 terms";
      k = 0;
      continue;
    }
    if (c == '.') {
      if (p[1] != '.' || p[2] != '.') return "a '.' is not part of '...'";
      if (k && memchr(q->terms[t], '*', (size_t)k)) return "a term has two ellipses";
      c = '*', p += 2;
    } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      return "it has a character that is not a letter, ',', '->' or '...'";
    }
    if (k == 64) return "a term is longer than 64";
    q->terms[t][k++] = c;
    q->terms[t][k] = 0;
  }
  if (!arrow) {
    char *o = q->terms[q->nin];
    int m = 0;
    bool ell = false;
    for (int i = 0; i < q->nin; i++) ell |= strchr(q->terms[i], '*') != NULL;
    if (ell) o[m++] = '*';
    for (int c = 'A'; c <= 'z'; c++) {
      int uses = 0;
      for (int i = 0; i < q->nin; i++)
        for (const char *p = q->terms[i]; *p; p++) uses += *p == c;
      if (uses == 1 && m < 64) o[m++] = (char)c;
    }
    o[m] = 0;
  } else {
    const char *o = q->terms[q->nin];
    for (const char *p = o; *p; p++) {
      if (strchr(p + 1, *p)) return "the output has a letter twice";
      bool found = false;
      for (int i = 0; i < q->nin; i++) found |= strchr(q->terms[i], *p) != NULL;
      if (!found && *p != '*') return "the output has a letter no input has";
    }
  }
  return NULL;
}
