/* Printing values in Relay's literal syntax, so that what is printed reads back as an equal value:
 * numbers with their dtype suffix and the shortest decimal that round-trips, nested brackets for
 * tensors (numpy's `...` summary past 1,000 elements), constructors, tuples, refs. */
#include "runtime/rt.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  IrBuf *out;
  size_t limit; /* stop writing (with "...") past this many bytes; 0: no limit */
  bool cut;
  int chain; /* write `...` for what follows this many constructors nested in their last fields
                (the rest of a long list); 0: no limit */
  bool types; /* a tensor (of rank >= 1) as its type: `Tensor[(64, 512), float32]` */
  RtListStyle lists; /* the REPL's display: a list as `List[0, 1, 2]` or as its constructors */
} Printer;

/* Deeper nesting than this (other than along the last field, which is a loop) prints as `...`. */
enum { MAX_DEPTH = 10000, SUMMARY_THRESHOLD = 1000, SUMMARY_EDGE = 3 };

/* The REPL's display: lines of tensor rows wrap before this column, a list shows this many
 * elements, and the whole value at most this many bytes. */
enum { DISPLAY_WIDTH = 80, DISPLAY_CHAIN = 100, DISPLAY_BYTES = 20000 };

/* RT_LISTS_AUTO writes a list of this many elements or more as `List[...]`: up to 4, the
 * constructors are short enough to read, and show how the list is built. */
enum { LIST_SUGAR_FROM = 5 };

static void put(Printer *p, RtValue v, int depth);

static bool full(Printer *p) {
  if (p->limit && p->out->len > p->limit) p->cut = true;
  return p->cut;
}

/* ---------------------------------------------------------------- scalars */

static bool reads_back(const char *text, double x, int bits) {
  if (bits == 64) return strtod(text, NULL) == x;
  float f = strtof(text, NULL);
  return (bits == 16 ? rt_half_round(f) : f) == (float)x;
}

/* The shortest decimal that reads back as x, written as Python's repr writes floats (positional
 * when the decimal exponent is from -4 to 15, else scientific) in the lexer's syntax: `100000`,
 * `0.1`, `1e20`, `1.5e-7` (no `+`, no leading zeros in the exponent). */
static void put_float(IrBuf *b, double x, int bits) {
  if (isnan(x)) {
    ir_buf_puts(b, "nan");
    return;
  }
  if (isinf(x)) {
    ir_buf_puts(b, x < 0 ? "-inf" : "inf");
    return;
  }
  char sci[48];
  for (int prec = 0; prec <= 16; prec++) {
    snprintf(sci, sizeof sci, "%.*e", prec, x);
    if (reads_back(sci, x, bits)) break;
  }
  /* sci is [-]d[.ddd]e[+-]XX: collect the digits and the exponent. */
  const char *p = sci;
  if (*p == '-') ir_buf_putc(b, *p++);
  char digits[24];
  int nd = 0;
  for (; *p != 'e'; p++)
    if (*p != '.') digits[nd++] = *p;
  while (nd > 1 && digits[nd - 1] == '0') nd--;
  int exp = atoi(p + 1);
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      ir_buf_puts(b, "0.");
      for (int i = -1; i > exp; i--) ir_buf_putc(b, '0');
      ir_buf_putn(b, digits, (size_t)nd);
    } else {
      for (int i = 0; i <= exp || i < nd; i++) {
        if (i == exp + 1) ir_buf_putc(b, '.');
        ir_buf_putc(b, i < nd ? digits[i] : '0');
      }
    }
    return;
  }
  ir_buf_putc(b, digits[0]);
  if (nd > 1) {
    ir_buf_putc(b, '.');
    ir_buf_putn(b, digits + 1, (size_t)nd - 1);
  }
  ir_buf_printf(b, "e%d", exp);
}

static void put_scalar(IrBuf *b, RtValue v) {
  IrDType dt = v.dt;
  switch (dt.code) {
  case IR_DT_BOOL: ir_buf_puts(b, v.u.u ? "True" : "False"); return;
  case IR_DT_INT:
    ir_buf_printf(b, "%lld", (long long)v.u.i);
    if (dt.bits != 32) ir_buf_printf(b, "i%d", dt.bits);
    return;
  case IR_DT_UINT: ir_buf_printf(b, "%lluu%d", (unsigned long long)v.u.u, dt.bits); return;
  default: {
    double x = rt_scalar_f64(v);
    put_float(b, x, dt.bits);
    ir_buf_puts(b, dt.bits == 32 ? "f" : dt.bits == 64 ? "f64" : "f16"); /* `inff`, `nanf` too */
    return;
  }
  }
}

/* ---------------------------------------------------------------- tensors */

/* The sub-tensor at `axis` starting at element `base` (stride: elements per item of this axis). */
static void put_axis(Printer *p, const RtTensor *t, int axis, int64_t base, int64_t stride, bool summarize) {
  int64_t n = t->shape[axis];
  int64_t inner = stride / (n ? n : 1);
  ir_buf_putc(p->out, '[');
  for (int64_t i = 0; i < n; i++) {
    if (full(p)) break;
    if (i) ir_buf_puts(p->out, ", ");
    if (summarize && n > 2 * SUMMARY_EDGE && i == SUMMARY_EDGE) {
      ir_buf_puts(p->out, "...");
      i = n - SUMMARY_EDGE - 1;
      continue;
    }
    if (axis + 1 == t->rank) put_scalar(p->out, rt_tensor_get(t, base + i));
    else put_axis(p, t, axis + 1, base + i * inner, inner, summarize);
  }
  if (p->cut) return;
  ir_buf_putc(p->out, ']');
}

/* Rows aligned as numpy aligns them: the sub-tensor at `axis`, its scalars right-aligned to
 * `width` (or, when measuring, *width grown to the widest). */
static void put_rows(Printer *p, const RtTensor *t, int axis, int64_t base, int64_t stride, bool summarize,
                     size_t *width, bool measure) {
  int64_t n = t->shape[axis];
  int64_t inner = stride / (n ? n : 1);
  if (!measure) ir_buf_putc(p->out, '[');
  bool last_axis = axis + 1 == t->rank;
  for (int64_t i = 0; i < n; i++) {
    if (full(p)) return;
    bool skip = summarize && n > 2 * SUMMARY_EDGE && i == SUMMARY_EDGE;
    IrBuf one; /* this element of a row: `...` or the number, right-aligned */
    ir_buf_init(&one);
    if (last_axis && skip) {
      ir_buf_puts(&one, "...");
    } else if (last_axis) {
      IrBuf number;
      ir_buf_init(&number);
      put_scalar(&number, rt_tensor_get(t, base + i));
      if (measure && number.len > *width) *width = number.len;
      for (size_t k = number.len; k < *width; k++) ir_buf_putc(&one, ' ');
      ir_buf_puts(&one, number.data);
    }
    if (i && !measure) {
      ir_buf_putc(p->out, ',');
      const char *line = memrchr(p->out->data, '\n', p->out->len);
      size_t column = p->out->len - (line ? (size_t)(line - p->out->data) + 1 : 0);
      if (last_axis && column + 1 + one.len + 1 <= DISPLAY_WIDTH) {
        ir_buf_putc(p->out, ' ');
      } else { /* the next row, or a row too long for the line, continues under the first number */
        for (int k = axis + 2; k <= t->rank; k++) ir_buf_putc(p->out, '\n');
        if (last_axis) ir_buf_putc(p->out, '\n');
        for (int k = 0; k <= axis; k++) ir_buf_putc(p->out, ' ');
      }
    }
    if (skip) {
      if (!measure && !last_axis) ir_buf_puts(p->out, "...");
      if (!measure && last_axis) ir_buf_puts(p->out, one.data);
      i = n - SUMMARY_EDGE - 1;
      continue;
    }
    if (!last_axis) put_rows(p, t, axis + 1, base + i * inner, inner, summarize, width, measure);
    else if (!measure) ir_buf_puts(p->out, one.data);
  }
  if (!measure) ir_buf_putc(p->out, ']');
}

void rt_print_display(IrBuf *out, RtValue v, RtListStyle lists) {
  Printer p = {out, DISPLAY_BYTES, false, DISPLAY_CHAIN, false, lists};
  if (v.kind == RT_TENSOR && v.u.t->rank >= 1 && v.u.t->count > 0) {
    const RtTensor *t = v.u.t;
    size_t width = 0; /* a vector's numbers are not aligned: it is one row */
    bool summarize = t->count > SUMMARY_THRESHOLD;
    if (t->rank >= 2) put_rows(&p, t, 0, 0, t->count, summarize, &width, true);
    put_rows(&p, t, 0, 0, t->count, summarize, &width, false);
  } else {
    put(&p, v, 0);
  }
  if (p.cut) ir_buf_puts(out, "...");
}

static void put_tensor(Printer *p, const RtTensor *t) {
  if (t->count == 0) { /* no bracket literal has a dtype without elements: say how to make it */
    char dt[24];
    ir_buf_puts(p->out, "Constant(0, ");
    ir_buf_puts(p->out, rt_shape_text(t->rank, t->shape));
    ir_buf_printf(p->out, ", %s)", ir_dtype_name(t->dt, dt));
    return;
  }
  put_axis(p, t, 0, 0, t->count, t->count > SUMMARY_THRESHOLD);
}

/* ---------------------------------------------------------------- values */

/* Whether v is a cell of a list (the Prelude's `List`: `Nil()` or `Cons(head, tail)`). */
static bool is_list(RtValue v) {
  if (v.kind != RT_ADT) return false;
  const IrCtor *k = v.u.adt->ctor->src;
  if (strcmp(k->adt->name->name, "List")) return false;
  return k->nargs == 0 ? !strcmp(k->name->name, "Nil") : k->nargs == 2 && !strcmp(k->name->name, "Cons");
}

static RtValue list_tail(RtValue v) { return rt_field_get(v.u.adt, v.u.adt->ctor->fields[1]); }


/* Whether the display writes the list v as `List[...]`: in RT_LISTS_AUTO, when it has
 * LIST_SUGAR_FROM elements or more (counted no further). */
static bool list_sugar(const Printer *p, RtValue v) {
  if (p->lists == RT_LISTS_CONSTRUCTORS || !is_list(v)) return false;
  if (p->lists == RT_LISTS_SUGAR) return true;
  int n = 0;
  for (; n < LIST_SUGAR_FROM && is_list(v) && v.u.adt->ctor->nargs == 2; n++) v = list_tail(v);
  return n >= LIST_SUGAR_FROM;
}

/* `List[0, 1, 2]`: the data type's name first, so that it cannot be read as a tensor literal
 * (`[0, 1, 2]`); the display's chain limit cuts it with `...` as it cuts constructors. */
static void put_list(Printer *p, RtValue v, int depth) {
  ir_buf_puts(p->out, "List[");
  for (int n = 0; is_list(v) && v.u.adt->ctor->nargs == 2; n++) {
    if (full(p)) return;
    if (n) ir_buf_puts(p->out, ", ");
    if (p->chain && n >= p->chain) {
      ir_buf_puts(p->out, "...");
      break;
    }
    put(p, rt_field_get(v.u.adt, v.u.adt->ctor->fields[0]), depth + 1);
    if (p->cut) return;
    v = list_tail(v);
  }
  ir_buf_putc(p->out, ']');
}

static void put(Printer *p, RtValue v, int depth) {
  int close = 0; /* constructors whose last field is printed by the loop */
  for (;;) {
    if (full(p)) break;
    if (depth > MAX_DEPTH) {
      ir_buf_puts(p->out, "...");
      break;
    }
    if (list_sugar(p, v)) {
      put_list(p, v, depth);
      break;
    }
    if (v.kind == RT_ADT) {
      const RtAdt *a = v.u.adt;
      ir_buf_puts(p->out, a->ctor->src->name->name);
      ir_buf_putc(p->out, '(');
      int n = a->ctor->nargs;
      const RtField *fields = a->ctor->fields;
      if (n == 0) {
        ir_buf_putc(p->out, ')');
        break;
      }
      for (int i = 0; i < n - 1; i++) {
        put(p, rt_field_get(a, fields[i]), depth + 1);
        if (p->cut) return;
        ir_buf_puts(p->out, ", ");
      }
      close++;
      if (p->chain && close >= p->chain) { /* the REPL's display: the rest of a long list */
        ir_buf_puts(p->out, "...");
        break;
      }
      v = rt_field_get(a, fields[n - 1]);
      continue;
    }
    switch (v.kind) {
    case RT_SCALAR: put_scalar(p->out, v); break;
    case RT_TENSOR:
      if (p->types) {
        char dt[24];
        ir_buf_printf(p->out, "Tensor[%s, %s]", rt_shape_text(v.u.t->rank, v.u.t->shape), ir_dtype_name(v.u.t->dt, dt));
      } else {
        put_tensor(p, v.u.t);
      }
      break;
    case RT_TUPLE: {
      const RtTuple *t = v.u.tup;
      ir_buf_putc(p->out, '(');
      for (int i = 0; i < t->n; i++) {
        if (i) ir_buf_puts(p->out, ", ");
        put(p, t->f[i], depth + 1);
        if (p->cut) return;
      }
      ir_buf_puts(p->out, t->n == 1 ? ",)" : ")");
      break;
    }
    case RT_CLOSURE: /* in brief, a global, a constructor or an operator by its name */
      ir_buf_puts(p->out, p->types && (v.u.clo->fn->name[0] == '@' || v.u.clo->fn->native) ? v.u.clo->fn->name : "<closure>");
      break;
    case RT_REF:
      ir_buf_puts(p->out, "ref(");
      put(p, v.u.ref->v, depth + 1);
      if (p->cut) return;
      ir_buf_putc(p->out, ')');
      break;
    default: UNREACHABLE("a value of no kind"); ir_buf_puts(p->out, "<?>"); break;
    }
    break;
  }
  if (p->cut) return;
  for (int i = 0; i < close; i++) ir_buf_putc(p->out, ')');
}

void rt_print_value(IrBuf *out, RtValue v) {
  Printer p = {out, 0, false, 0, false, RT_LISTS_CONSTRUCTORS};
  put(&p, v, 0);
}

char *rt_value_brief(RtValue v) {
  IrBuf b;
  ir_buf_init(&b);
  Printer p = {&b, 60, false, 0, false, RT_LISTS_CONSTRUCTORS};
  put(&p, v, 0);
  if (p.cut) ir_buf_puts(&b, "...");
  return b.data;
}

void rt_print_summary(IrBuf *out, RtValue v, size_t limit) {
  Printer p = {out, out->len + limit, false, 0, true, RT_LISTS_CONSTRUCTORS};
  put(&p, v, 0);
  if (p.cut) ir_buf_puts(out, "...");
}

/* ---------------------------------------------------------------- JSON */

typedef struct {
  IrBuf *out;
  size_t max_elements;
  int nodes; /* constructors and tuples written so far */
} JsonPrinter;

/* Nesting deeper than this, or more constructors and tuples than that, is written `{"kind":"cut"}`. */
enum { JSON_MAX_DEPTH = 100, JSON_MAX_NODES = 10000 };

static void put_json_number(IrBuf *b, RtValue v) {
  switch (v.dt.code) {
  case IR_DT_BOOL: ir_buf_puts(b, v.u.u ? "true" : "false"); return;
  case IR_DT_INT: ir_buf_printf(b, "%lld", (long long)v.u.i); return;
  case IR_DT_UINT: ir_buf_printf(b, "%llu", (unsigned long long)v.u.u); return;
  default: {
    double x = rt_scalar_f64(v);
    if (isnan(x) || isinf(x)) ir_buf_puts(b, isnan(x) ? "\"nan\"" : x < 0 ? "\"-inf\"" : "\"inf\"");
    else put_float(b, x, v.dt.bits);
    return;
  }
  }
}

static void put_json(JsonPrinter *p, RtValue v, int depth) {
  IrBuf *b = p->out;
  char dt[24];
  if ((v.kind == RT_ADT || v.kind == RT_TUPLE || v.kind == RT_REF) &&
      (depth >= JSON_MAX_DEPTH || p->nodes++ >= JSON_MAX_NODES)) {
    ir_buf_puts(b, "{\"kind\":\"cut\"}");
    return;
  }
  switch (v.kind) {
  case RT_SCALAR:
    ir_buf_printf(b, "{\"kind\":\"tensor\",\"dtype\":\"%s\",\"shape\":[],\"data\":[", ir_dtype_name(v.dt, dt));
    put_json_number(b, v);
    ir_buf_puts(b, "]}");
    return;
  case RT_TENSOR: {
    const RtTensor *t = v.u.t;
    ir_buf_printf(b, "{\"kind\":\"tensor\",\"dtype\":\"%s\",\"shape\":[", ir_dtype_name(t->dt, dt));
    for (int i = 0; i < t->rank; i++) ir_buf_printf(b, i ? ",%lld" : "%lld", (long long)t->shape[i]);
    ir_buf_puts(b, "],\"data\":[");
    int64_t n = (uint64_t)t->count > p->max_elements ? (int64_t)p->max_elements : t->count;
    for (int64_t i = 0; i < n; i++) {
      if (i) ir_buf_putc(b, ',');
      put_json_number(b, rt_tensor_get(t, i));
    }
    ir_buf_puts(b, n < t->count ? "],\"truncated\":true}" : "]}");
    return;
  }
  case RT_TUPLE:
  case RT_ADT: {
    int n = v.kind == RT_TUPLE ? v.u.tup->n : v.u.adt->ctor->nargs;
    if (v.kind == RT_TUPLE) {
      ir_buf_puts(b, "{\"kind\":\"tuple\",\"fields\":[");
    } else {
      ir_buf_puts(b, "{\"kind\":\"constructor\",\"name\":");
      const char *name = v.u.adt->ctor->src->name->name;
      ir_json_put_string(b, name, strlen(name));
      ir_buf_puts(b, ",\"fields\":[");
    }
    for (int i = 0; i < n; i++) {
      if (i) ir_buf_putc(b, ',');
      put_json(p, v.kind == RT_TUPLE ? v.u.tup->f[i] : rt_field_get(v.u.adt, v.u.adt->ctor->fields[i]), depth + 1);
    }
    ir_buf_puts(b, "]}");
    return;
  }
  case RT_CLOSURE: ir_buf_puts(b, "{\"kind\":\"closure\"}"); return;
  case RT_REF:
    ir_buf_puts(b, "{\"kind\":\"ref\",\"value\":");
    put_json(p, v.u.ref->v, depth + 1);
    ir_buf_putc(b, '}');
    return;
  default: UNREACHABLE("a value of no kind"); ir_buf_puts(b, "{\"kind\":\"cut\"}"); return;
  }
}

void rt_print_json(IrBuf *out, RtValue v, size_t max_elements) {
  JsonPrinter p = {out, max_elements, 0};
  put_json(&p, v, 0);
}

/* ---------------------------------------------------------------- a value against its type */

/* RELAY_CHECK_VALUES (repl/session.c): a value checked against the type the checker gave it. A
 * type's parameters met inside a constructor's declared fields stand for the ADT call's arguments
 * (an environment of names, each read in the environment of the type it came from); the sizes met
 * for a named shape variable or a dimension hole are remembered, so that each stands for one size
 * throughout the type. */
typedef struct TypeEnv {
  const IrTypeParam *params;
  int n;
  IrType *const *args;
  const struct TypeEnv *outer; /* where the arguments are read */
} TypeEnv;

typedef struct {
  IrBuf *why;
  IR_VEC(const void *) keys; /* a shape variable's Sym or a hole's id + 1, and its size */
  IR_VEC(int64_t) sizes;
} Checker;

/* t with the environment's parameters replaced, as far as the top: the type and its environment. */
static const IrType *look_up(const IrType *t, const TypeEnv **env) {
  while (t && t->kind == IR_TYPE_VAR && *env) {
    const TypeEnv *e = *env;
    int i = 0;
    while (i < e->n && e->params[i].name != t->u.var.name) i++;
    if (i == e->n) return t;
    t = e->args[i];
    *env = e->outer;
  }
  return t;
}

/* The size a dimension stands for, or UNKNOWN (`?`, a first sight of a variable, arithmetic on
 * unknowns or that overflows). A named variable or hole seen for the first time is bound to `size`.
 * Arithmetic may come out below 0 (`n - 1` with n = 0, a window over a variable): no value has it. */
#define UNKNOWN_SIZE INT64_MIN
static int64_t dim_size(Checker *c, const IrType *d, const TypeEnv *env, int64_t size, bool bind) {
  d = look_up(d, &env);
  if (!d) return UNKNOWN_SIZE;
  switch (d->kind) {
  case IR_TYPE_DIM: return d->u.dim;
  case IR_TYPE_VAR:
  case IR_TYPE_HOLE: {
    const void *key = d->kind == IR_TYPE_VAR ? (const void *)d->u.var.name : (const void *)(uintptr_t)(d->u.hole.id + 1);
    for (int i = 0; i < c->keys.len; i++)
      if (c->keys.items[i] == key) return c->sizes.items[i];
    if (bind) {
      IR_VEC_PUSH(c->keys, key);
      IR_VEC_PUSH(c->sizes, size);
    }
    return UNKNOWN_SIZE;
  }
  case IR_TYPE_DIMOP: {
    int64_t a = dim_size(c, d->u.dimop.a, env, 0, false), b = dim_size(c, d->u.dimop.b, env, 0, false), r;
    if (a == UNKNOWN_SIZE || b == UNKNOWN_SIZE) return UNKNOWN_SIZE;
    bool over = d->u.dimop.op == '+' ? __builtin_add_overflow(a, b, &r)
                : d->u.dimop.op == '-' ? __builtin_sub_overflow(a, b, &r)
                                       : __builtin_mul_overflow(a, b, &r);
    return over || r == UNKNOWN_SIZE ? UNKNOWN_SIZE : r;
  }
  default: return UNKNOWN_SIZE;
  }
}

static bool mismatch(Checker *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool mismatch(Checker *c, const char *path, const char *fmt, ...) {
  if (!c->why) return false;
  if (*path) ir_buf_printf(c->why, "%s: ", path);
  va_list ap;
  va_start(ap, fmt);
  ir_buf_puts(c->why, ir_vprintf(fmt, ap));
  va_end(ap);
  return false;
}

static bool check_value(Checker *c, RtValue v, const IrType *t, const TypeEnv *env, const char *path, int depth) {
  for (;;) {
    t = look_up(t, &env);
    if (!t || depth > MAX_DEPTH) return true;
    switch (t->kind) {
    case IR_TYPE_TENSOR: {
      if (v.kind != RT_SCALAR && v.kind != RT_TENSOR) return mismatch(c, path, "a tensor type holds %s", rt_value_brief(v));
      IrDType vdt = v.kind == RT_SCALAR ? v.dt : v.u.t->dt;
      const TypeEnv *denv = env;
      const IrType *dt = look_up(t->u.tensor.dtype, &denv);
      char a[24], b[24];
      if (dt && dt->kind == IR_TYPE_DTYPE && !ir_dtype_eq(dt->u.dtype, vdt))
        return mismatch(c, path, "a value of dtype %s where the type says %s", ir_dtype_name(vdt, a),
                        ir_dtype_name(dt->u.dtype, b));
      const TypeEnv *senv = env;
      const IrType *sh = look_up(t->u.tensor.shape, &senv);
      if (!sh || sh->kind != IR_TYPE_SHAPE) return true;
      int rank = v.kind == RT_SCALAR ? 0 : v.u.t->rank;
      const int64_t *shape = v.kind == RT_SCALAR ? NULL : v.u.t->shape;
      bool ok = rank == sh->u.shape.rank;
      for (int i = 0; ok && i < rank; i++) {
        int64_t want = dim_size(c, sh->u.shape.dims[i], senv, shape[i], true);
        ok = want == UNKNOWN_SIZE || want == shape[i];
      }
      if (ok) return true;
      IrBuf want; /* the type's shape as it was read: its parameters replaced, its variables' sizes */
      ir_buf_init(&want);
      ir_buf_putc(&want, '(');
      for (int i = 0; i < sh->u.shape.rank; i++) {
        const TypeEnv *e = senv;
        const IrType *d = look_up(sh->u.shape.dims[i], &e);
        int64_t n = dim_size(c, d, e, 0, false);
        ir_buf_puts(&want, i ? ", " : "");
        if (n != UNKNOWN_SIZE) ir_buf_printf(&want, "%lld", (long long)n);
        else ir_buf_puts(&want, ir_type_str(d));
      }
      ir_buf_putc(&want, ')');
      return mismatch(c, path, "a value of shape %s where the type says %s", rt_shape_text(rank, shape), want.data);
    }
    case IR_TYPE_TUPLE:
      if (v.kind != RT_TUPLE || v.u.tup->n != t->u.tuple.n)
        return mismatch(c, path, "a tuple type of %d fields holds %s", t->u.tuple.n, rt_value_brief(v));
      for (int i = 0; i < t->u.tuple.n; i++)
        if (!check_value(c, v.u.tup->f[i], t->u.tuple.fields[i], env, ir_printf("%s%sfield %d", path, *path ? ", " : "", i),
                         depth + 1))
          return false;
      return true;
    case IR_TYPE_REF:
      if (v.kind != RT_REF) return mismatch(c, path, "a reference type holds %s", rt_value_brief(v));
      v = v.u.ref->v;
      t = t->u.ref;
      path = ir_printf("%s%sthe reference's value", path, *path ? ", " : "");
      depth++;
      continue;
    case IR_TYPE_CALL: {
      /* A constructor's field as declared (`List[a]`) names its data type without resolving it: the
       * value's own, when the names agree */
      const IrData *d = t->u.call.adt;
      if (!d && v.kind == RT_ADT && v.u.adt->ctor->src->adt->name == t->u.call.name) d = v.u.adt->ctor->src->adt;
      if (!d) return true;
      if (v.kind != RT_ADT || v.u.adt->ctor->src->adt != d)
        return mismatch(c, path, "a value of the data type %s holds %s", d->name->name, rt_value_brief(v));
      const RtAdt *a = v.u.adt;
      const IrCtor *k = a->ctor->src;
      TypeEnv *inner = ir_alloc(sizeof *inner);
      *inner = (TypeEnv){d->tparams, d->ntparams < t->u.call.nargs ? d->ntparams : t->u.call.nargs, t->u.call.args, env};
      int n = a->ctor->nargs;
      if (n == 0) return true;
      for (int i = 0; i < n - 1; i++)
        if (!check_value(c, rt_field_get(a, a->ctor->fields[i]), k->args[i], inner,
                         ir_printf("%s%s%s's field %d", path, *path ? ", " : "", k->name->name, i), depth + 1))
          return false;
      v = rt_field_get(a, a->ctor->fields[n - 1]); /* the last field in the loop: a long list */
      t = k->args[n - 1];
      env = inner;
      if (strlen(path) > 200) path = "(in a long chain of constructors)";
      else path = ir_printf("%s%s%s's field %d", path, *path ? ", " : "", k->name->name, n - 1);
      continue;
    }
    default: return true; /* functions, holes, `?` and anything not known */
    }
  }
}

bool rt_value_check(RtValue v, const IrType *t, IrBuf *why) {
  Checker c = {.why = why};
  return check_value(&c, v, t, NULL, "", 0);
}
