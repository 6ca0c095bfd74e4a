/* Printing values in Relay's literal syntax, so that what is printed reads back as an equal value:
 * numbers with their dtype suffix and the shortest decimal that round-trips, nested brackets for
 * tensors (numpy's `...` summary past 1,000 elements), constructors, tuples, refs. */
#include "runtime/rt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  IrBuf *out;
  size_t limit; /* stop writing (with "...") past this many bytes; 0: no limit */
  bool cut;
  int chain; /* write `...` for what follows this many constructors nested in their last fields
                (the rest of a long list); 0: no limit */
  bool types; /* a tensor (of rank >= 1) as its type: `Tensor[(64, 512), float32]` */
} Printer;

/* Deeper nesting than this (other than along the last field, which is a loop) prints as `...`. */
enum { MAX_DEPTH = 10000, SUMMARY_THRESHOLD = 1000, SUMMARY_EDGE = 3 };

/* The REPL's display: lines of tensor rows wrap before this column, a list shows this many
 * elements, and the whole value at most this many bytes. */
enum { DISPLAY_WIDTH = 80, DISPLAY_CHAIN = 100, DISPLAY_BYTES = 20000 };

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

void rt_print_display(IrBuf *out, RtValue v) {
  Printer p = {out, DISPLAY_BYTES, false, DISPLAY_CHAIN, false};
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

static void put(Printer *p, RtValue v, int depth) {
  int close = 0; /* constructors whose last field is printed by the loop */
  for (;;) {
    if (full(p)) break;
    if (depth > MAX_DEPTH) {
      ir_buf_puts(p->out, "...");
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
  Printer p = {out, 0, false, 0, false};
  put(&p, v, 0);
}

char *rt_value_brief(RtValue v) {
  IrBuf b;
  ir_buf_init(&b);
  Printer p = {&b, 60, false, 0, false};
  put(&p, v, 0);
  if (p.cut) ir_buf_puts(&b, "...");
  return b.data;
}

void rt_print_summary(IrBuf *out, RtValue v, size_t limit) {
  Printer p = {out, out->len + limit, false, 0, true};
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
