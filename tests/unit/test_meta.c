/* Unit tests of ir/meta.c: a hand-built section (constants of several dtypes, attribute nodes, both
 * spellings of the root Map), a catalogue of malformed sections (each an error, none a crash),
 * random byte mutations of a valid section, and a real TVM section (argument 1: a .rly model;
 * argument 2: how many mutations, 5000 by default). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "tests/unit/tap.h"

/* ---------------------------------------------------------------- building sections */

typedef struct Blob {
  uint8_t *p;
  size_t len;
} Blob;

static void put(Blob *b, uint64_t v, int n) {
  b->p = ir_realloc(b->p, b->len + (size_t)n);
  for (int i = 0; i < n; i++) b->p[b->len++] = (uint8_t)(v >> (8 * i));
}

static void put_bytes(Blob *b, const void *data, size_t n) {
  b->p = ir_realloc(b->p, b->len + n + 1);
  ir_copy(b->p + b->len, data, n);
  b->len += n;
}

/* TVM's SaveDLTensor layout; `size` is the data's byte size as written (RIGHT: datalen). */
#define RIGHT INT64_MIN
static Blob ndarray(unsigned code, unsigned bits, unsigned lanes, int32_t ndim, const int64_t *shape, int64_t size,
                    const void *data, size_t datalen) {
  Blob b = {0};
  put(&b, 0xDD5E40F096B4A13Full, 8);
  put(&b, 0, 8);
  put(&b, 1, 4); /* kDLCPU */
  put(&b, 0, 4);
  put(&b, (uint32_t)ndim, 4);
  put(&b, code, 1);
  put(&b, bits, 1);
  put(&b, lanes, 2);
  for (int i = 0; shape && i < ndim; i++) put(&b, (uint64_t)shape[i], 8);
  put(&b, (uint64_t)(size != RIGHT ? size : (int64_t)datalen), 8);
  put_bytes(&b, data, datalen);
  return b;
}

static const char *b64(Blob b) {
  static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  IrBuf o;
  ir_buf_init(&o);
  for (size_t i = 0; i < b.len; i += 3) {
    uint32_t v = (uint32_t)b.p[i] << 16 | (i + 1 < b.len ? (uint32_t)b.p[i + 1] << 8 : 0) |
                 (i + 2 < b.len ? b.p[i + 2] : 0);
    ir_buf_putc(&o, tab[v >> 18 & 63]);
    ir_buf_putc(&o, tab[v >> 12 & 63]);
    ir_buf_putc(&o, i + 1 < b.len ? tab[v >> 6 & 63] : '=');
    ir_buf_putc(&o, i + 2 < b.len ? tab[v & 63] : '=');
  }
  return o.data;
}

/* A section whose only entry is a constant over the given base64 NDArray. */
static const char *one_constant(const char *array) {
  return ir_printf("{\"root\": 1, \"nodes\": [{\"type_key\": \"\"}, {\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], "
                   "\"data\": [2]}, {\"type_key\": \"Array\", \"data\": [3]}, {\"type_key\": \"relay.Constant\", "
                   "\"attrs\": {\"data\": \"0\", \"span\": \"0\"}}], \"b64ndarrays\": [\"%s\"]}",
                   array);
}

/* A section whose only entry is an attributes node of type `key` with the given attrs object; more
 * nodes (from index 4) may follow, for its fields to refer to. */
static const char *one_attrs(const char *key, const char *attrs, const char *more) {
  return ir_printf("{\"root\": 1, \"nodes\": [{\"type_key\": \"\"}, {\"type_key\": \"Map\", \"keys\": [\"relay.attrs.%s\"], "
                   "\"data\": [2]}, {\"type_key\": \"Array\", \"data\": [3]}, {\"type_key\": \"relay.attrs.%s\", "
                   "\"attrs\": {%s}}%s%s]}",
                   key, key, attrs, *more ? ", " : "", more);
}

/* ---------------------------------------------------------------- checking results */

static const char *last_error;
static size_t last_off;

static IrMeta *parse_n(const char *text, size_t len) {
  last_error = NULL;
  last_off = 0;
  return ir_meta_parse(text, len, &last_error, &last_off, NULL);
}

static IrMeta *parse(const char *text) { return parse_n(text, strlen(text)); }

/* "ok", or the error with its offset. */
static const char *outcome(const char *text) {
  IrMeta *m = parse(text);
  if (m) return "ok";
  return ir_printf("%zu: %s", last_off, last_error ? last_error : "(no message)");
}

/* Whether text is refused with a message containing `want`, at a sane offset. */
static void refused(const char *text, const char *want, const char *what) {
  size_t len = strlen(text);
  IrMeta *m = parse_n(text, len);
  bool ok = !m && last_error && strstr(last_error, want) && last_off <= len;
  tap_ok(ok, "refused: %s", what);
  if (!ok) tap_diag("got: %s", m ? "(parsed)" : outcome(text));
}

static const char *attrs_text(const IrMetaEntry *e) {
  IrBuf b;
  ir_buf_init(&b);
  for (int i = 0; i < e->nattrs; i++) {
    ir_buf_printf(&b, "%s%s=", i ? ", " : "", e->attrs[i].key->name);
    ir_print_attr_value(&b, &e->attrs[i].val);
  }
  return b.data;
}

static const char *type_text(const IrMetaTensor *t) {
  IrBuf b;
  ir_buf_init(&b);
  char dt[24];
  ir_buf_puts(&b, "Tensor[(");
  for (int i = 0; i < t->rank; i++) ir_buf_printf(&b, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
  ir_buf_printf(&b, "), %s]", ir_dtype_name(t->dtype, dt));
  return b.data;
}

/* ---------------------------------------------------------------- the valid section */

static const char *valid_section(void) {
  float f32[] = {1.5f, -2.0f, 0.25f, 3e38f};
  int8_t i8[] = {-128, 0, 127};
  int64_t i64[] = {-9007199254740993LL};
  uint8_t bools[] = {1, 0, 0, 1};
  int64_t s22[] = {2, 2}, s3[] = {3}, s4[] = {4};
  const char *a0 = b64(ndarray(2, 32, 1, 2, s22, RIGHT, f32, sizeof f32));
  const char *a1 = b64(ndarray(0, 8, 1, 1, s3, RIGHT, i8, sizeof i8));
  const char *a2 = b64(ndarray(0, 64, 1, 0, NULL, RIGHT, i64, sizeof i64));
  const char *a3 = b64(ndarray(1, 1, 1, 1, s4, RIGHT, bools, sizeof bools));
  return ir_printf(
      "\n{\n  \"root\": 1,\n  \"nodes\": [\n"
      "    {\"type_key\": \"\"},\n"
      /* 1 */ "    {\"type_key\": \"Map\", \"keys\": [\"relay.Constant\", \"relay.attrs.Conv2DAttrs\", "
      "\"relay.attrs.BatchNormAttrs\", \"VirtualDevice\", \"k\\u00e9\\ud83d\\ude00\"], \"data\": [2, 3, 4, 5, 6]},\n"
      /* 2 */ "    {\"type_key\": \"Array\", \"data\": [7, 8, 9, 10]},\n"
      /* 3 */ "    {\"type_key\": \"Array\", \"data\": [11]},\n"
      /* 4 */ "    {\"type_key\": \"Array\", \"data\": [12]},\n"
      /* 5 */ "    {\"type_key\": \"Array\", \"data\": [13]},\n"
      /* 6 */ "    {\"type_key\": \"Array\", \"data\": [13]},\n"
      /* 7 */ "    {\"type_key\": \"relay.Constant\", \"attrs\": {\"_checked_type_\": \"0\", \"data\": \"0\", \"span\": \"0\", "
      "\"virtual_device_\": \"13\"}},\n"
      /* 8 */ "    {\"type_key\": \"relay.Constant\", \"attrs\": {\"data\": \"1\", \"span\": \"0\"}},\n"
      /* 9 */ "    {\"type_key\": \"relay.Constant\", \"attrs\": {\"data\": \"2\"}},\n"
      /* 10 */ "    {\"type_key\": \"relay.Constant\", \"attrs\": {\"data\": \"3\"}},\n"
      /* 11 */ "    {\"type_key\": \"relay.attrs.Conv2DAttrs\", \"attrs\": {\"channels\": \"16\", \"data_layout\": \"17\", "
      "\"dilation\": \"15\", \"groups\": \"1\", \"kernel_layout\": \"18\", \"kernel_size\": \"19\", \"out_dtype\": \"\", "
      "\"out_layout\": \"20\", \"padding\": \"21\", \"strides\": \"14\"}},\n"
      /* 12 */ "    {\"type_key\": \"relay.attrs.BatchNormAttrs\", \"attrs\": {\"axis\": \"-1\", \"center\": \"1\", "
      "\"epsilon\": \"1.0000000000000001e-05\", \"scale\": \"0\"}},\n"
      /* 13 */ "    {\"type_key\": \"VirtualDevice\", \"attrs\": {\"device_type_int\": \"-1\", \"memory_scope\": \"20\", "
      "\"target\": \"0\", \"virtual_device_id\": \"-1\"}},\n"
      /* 14 */ "    {\"type_key\": \"Array\", \"data\": [22, 22]},\n"
      /* 15 */ "    {\"type_key\": \"Array\", \"data\": [23, 23]},\n"
      /* 16 */ "    {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"span\": \"0\", \"value\": \"64\"}},\n"
      /* 17 */ "    {\"type_key\": \"runtime.String\", \"repr_str\": \"NCHW\"},\n"
      /* 18 */ "    {\"type_key\": \"runtime.String\", \"repr_b64\": \"T0lIVw==\"},\n"
      /* 19 */ "    {\"type_key\": \"Array\", \"data\": [24, 24]},\n"
      /* 20 */ "    {\"type_key\": \"runtime.String\"},\n"
      /* 21 */ "    {\"type_key\": \"Array\", \"data\": [23, 23, 23, 23]},\n"
      /* 22 */ "    {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int64\", \"value\": \"2\"}},\n"
      /* 23 */ "    {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"value\": \"1\"}},\n"
      /* 24 */ "    {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"value\": \"3\"}}\n"
      "  ],\n  \"b64ndarrays\": [\n    \"%s\",\n    \"%s\",\n    \"%s\",\n    \"%s\"\n  ],\n"
      "  \"attrs\": {\"tvm_version\": \"0.14.0\"}\n}\n",
      a0, a1, a2, a3);
}

static void test_valid(void) {
  const char *text = valid_section();
  IrMeta *m = parse(text);
  if (!tap_ok(m != NULL, "a hand-built section parses")) {
    tap_diag("%s", outcome(text));
    return;
  }
  tap_is_int(m->nkinds, 5, "five kinds");
  tap_is_str(m->tvm_version, "0.14.0", "tvm_version");
  const IrMetaEntry *c0 = ir_meta_get(m, "relay.Constant", 0), *c1 = ir_meta_get(m, "relay.Constant", 1),
                    *c2 = ir_meta_get(m, "relay.Constant", 2), *c3 = ir_meta_get(m, "relay.Constant", 3);
  tap_ok(c0 && c1 && c2 && c3 && !ir_meta_get(m, "relay.Constant", 4) && !ir_meta_get(m, "relay.Constant", -1),
         "four constants, no fifth");
  if (!(c0 && c1 && c2 && c3)) return;
  tap_ok(c0->kind == IR_META_CONSTANT && !strcmp(c0->type_key, "relay.Constant"), "a constant's kind");
  tap_is_str(type_text(&c0->tensor), "Tensor[(2, 2), float32]", "float32 [2, 2]");
  const float *f = c0->tensor.data;
  tap_ok(c0->tensor.count == 4 && f[0] == 1.5f && f[1] == -2.0f && f[2] == 0.25f && f[3] == 3e38f, "its values");
  tap_is_str(type_text(&c1->tensor), "Tensor[(3), int8]", "int8 [3]");
  const int8_t *i8 = c1->tensor.data;
  tap_ok(i8[0] == -128 && i8[1] == 0 && i8[2] == 127, "its values");
  tap_is_str(type_text(&c2->tensor), "Tensor[(), int64]", "a rank-0 int64");
  tap_ok(c2->tensor.count == 1 && *(const int64_t *)c2->tensor.data == -9007199254740993LL, "its value");
  tap_is_str(type_text(&c3->tensor), "Tensor[(4), bool]", "TVM's bool (uint1) is relay's bool");
  const uint8_t *b = c3->tensor.data;
  tap_ok(b[0] == 1 && b[1] == 0 && b[2] == 0 && b[3] == 1, "one byte an element");

  const IrMetaEntry *conv = ir_meta_get(m, "relay.attrs.Conv2DAttrs", 0);
  tap_ok(conv && conv->kind == IR_META_ATTRS, "Conv2DAttrs is a set of attributes");
  if (conv)
    tap_is_str(attrs_text(conv),
               "strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, channels=64, kernel_size=[3, 3], "
               "data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"\", out_dtype=\"\"",
               "its fields in TVM's order: arrays of IntImm, ints, strings (repr_str, repr_b64, empty), a dtype");
  const IrMetaEntry *bn = ir_meta_get(m, "relay.attrs.BatchNormAttrs", 0);
  if (tap_ok(bn && bn->kind == IR_META_ATTRS, "BatchNormAttrs too"))
    tap_is_str(attrs_text(bn), "axis=-1, epsilon=0.00001, center=True, scale=False", "a negative int, a double, bools");
  const IrMetaEntry *vd = ir_meta_get(m, "VirtualDevice", 0);
  tap_ok(vd && vd->kind == IR_META_OTHER && !strcmp(vd->type_key, "VirtualDevice") && !vd->nattrs,
         "another type is kept as its type key");
  tap_ok(ir_meta_get(m, "k\xc3\xa9\xf0\x9f\x98\x80", 0) != NULL, "\\u escapes and a surrogate pair decode to UTF-8");
  tap_ok(!ir_meta_get(m, "relay.attrs.DenseAttrs", 0), "an absent kind has no entries");

  /* The older spelling of a string-keyed Map: key nodes and values alternating in "data". */
  const char *old = "{\"root\": 1, \"nodes\": [{\"type_key\": \"\"}, {\"type_key\": \"Map\", \"data\": [2, 3]}, "
                    "{\"type_key\": \"runtime.String\", \"repr_str\": \"relay.attrs.SoftmaxAttrs\"}, "
                    "{\"type_key\": \"Array\", \"data\": [4]}, "
                    "{\"type_key\": \"relay.attrs.SoftmaxAttrs\", \"attrs\": {\"axis\": \"-1\"}}]}";
  m = parse(old);
  const IrMetaEntry *sm = m ? ir_meta_get(m, "relay.attrs.SoftmaxAttrs", 0) : NULL;
  tap_is_str(sm ? attrs_text(sm) : outcome(old), "axis=-1", "a Map whose keys are runtime.String nodes");

  /* Attribute values of every shape: Optional (null), Array of Array, Bool IntImm, FloatImm. */
  m = parse(one_attrs("StridedSliceAttrs",
                      "\"axes\": \"0\", \"begin\": \"4\", \"end\": \"5\", \"slice_mode\": \"7\", \"strides\": \"0\"",
                      "{\"type_key\": \"Array\", \"data\": [6]}, {\"type_key\": \"Array\"}, "
                      "{\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int64\", \"value\": \"-9223372036854775808\"}}, "
                      "{\"type_key\": \"runtime.String\", \"repr_str\": \"end\"}"));
  tap_is_str(m ? attrs_text(&m->kinds[0].items[0]) : last_error,
             "begin=[-9223372036854775808], end=[], strides=None, slice_mode=\"end\", axes=None",
             "null is None; int64's least value; an empty Array");
  m = parse(one_attrs("PadAttrs", "\"pad_mode\": \"8\", \"pad_width\": \"4\"",
                      "{\"type_key\": \"Array\", \"data\": [5, 5]}, {\"type_key\": \"Array\", \"data\": [6, 7]}, "
                      "{\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"value\": \"0\"}}, "
                      "{\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"value\": \"2\"}}, "
                      "{\"type_key\": \"runtime.String\", \"repr_str\": \"constant\"}"));
  tap_is_str(m ? attrs_text(&m->kinds[0].items[0]) : last_error, "pad_width=[[0, 2], [0, 2]], pad_mode=\"constant\"",
             "an Array of Arrays; a shared node");
  m = parse(one_attrs("ScanopAttrs", "\"axis\": \"4\", \"dtype\": \"int64\", \"exclusive\": \"5\"",
                      "{\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"value\": \"1\"}}, "
                      "{\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"bool\", \"value\": \"1\"}}"));
  tap_is_str(m ? attrs_text(&m->kinds[0].items[0]) : last_error, "axis=1, dtype=\"int64\", exclusive=True",
             "a Bool (IntImm of dtype bool) is a boolean");
  m = parse(one_attrs("MultiBoxPriorAttrs", "\"clip\": \"0\", \"sizes\": \"4\"",
                      "{\"type_key\": \"Array\", \"data\": [5]}, "
                      "{\"type_key\": \"FloatImm\", \"attrs\": {\"dtype\": \"float32\", \"value\": \"0.5\"}}"));
  tap_is_str(m ? attrs_text(&m->kinds[0].items[0]) : last_error, "sizes=[0.5], clip=False",
             "FloatImm; fields the node lacks are left out");
  m = parse(one_attrs("OnDeviceAttrs", "\"constrain_body\": \"1\", \"constrain_result\": \"0\", \"virtual_device\": \"4\"",
                      "{\"type_key\": \"VirtualDevice\", \"attrs\": {}}"));
  tap_is_str(m ? attrs_text(&m->kinds[0].items[0]) : last_error, "constrain_result=False, constrain_body=True",
             "an object that is no value and no entry is left out");

  /* Sharing without cycles costs once per node: 60 levels, each an Array of the one below twice. */
  IrBuf nodes;
  ir_buf_init(&nodes);
  ir_buf_puts(&nodes, "{\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"value\": \"7\"}}");
  for (int k = 0; k < 60; k++) ir_buf_printf(&nodes, ", {\"type_key\": \"Array\", \"data\": [%d, %d]}", 4 + k, 4 + k);
  m = parse(one_attrs("TransposeAttrs", "\"axes\": \"64\"", nodes.data));
  tap_ok(m && m->kinds[0].items[0].nattrs == 1, "a DAG of 2^60 paths is read once per node");
}

/* ---------------------------------------------------------------- malformed sections */

static const char *deep(const char *open, int n) {
  size_t k = strlen(open);
  char *s = ir_alloc_atomic(k * (size_t)n + 1);
  for (int i = 0; i < n; i++) memcpy(s + k * (size_t)i, open, k);
  return s;
}

static void test_json_errors(void) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"", "empty"},
      {"  \n ", "empty"},
      {"{", "ends inside an object"},
      {"[", "ends where a value should be"},
      {"{\"root\": 1", "ends inside an object"},
      {"{\"root\": 1,", "ends inside an object"},
      {"\"abc", "ends inside a string"},
      {"\"a\\", "ends inside a string"},
      {"\"\\x\"", "unknown escape"},
      {"\"\\u12zz\"", "four hexadecimal digits"},
      {"\"\\u12", "ends inside a \\u escape"},
      {"\"\\ud800\"", "without its low one"},
      {"\"\\ud800\\u0041\"", "without its low one"},
      {"\"\\udc00\"", "lone low surrogate"},
      {"\"a\nb\"", "control character"},
      {"01", "text after its JSON value"},
      {"-", "a digit after its sign"},
      {"1.", "after its decimal point"},
      {"1e+", "in its exponent"},
      {"tru", "expected a value"},
      {"nul", "expected a value"},
      {"{\"a\" 1}", "expected ':'"},
      {"{1: 2}", "key must be a string"},
      {"[1,]", "expected a value"},
      {"{\"a\": 1,}", "key must be a string"},
      {"[1 2]", "expected ',' or ']'"},
      {"{\"a\": 1 \"b\": 2}", "expected ',' or '}'"},
      {"{} x", "text after its JSON value"},
      {"{}}", "text after its JSON value"},
      {"\xff", "expected a value"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    refused(cases[i].text, cases[i].want, ir_printf("JSON %zu: %s", i, cases[i].want));
  refused(deep("[", 100000), "nests deeper than", "100000 open brackets: a depth error, not a stack overflow");
  refused(deep("{\"a\":", 100000), "nests deeper than", "100000 open objects");
  refused(ir_printf("%s1%s", deep("[", 200), deep("]", 200)), "not an object", "200 levels are fine (and not an object)");
}

static void test_structure_errors(void) {
  const char *n0 = "{\"type_key\": \"\"}";
  static const char *const map = "{\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], \"data\": [2]}";
  const char *arr = "{\"type_key\": \"Array\", \"data\": [3]}";
  const struct {
    const char *text, *want, *what;
  } cases[] = {
      {"[]", "is an array, not an object", "a non-object root"},
      {"1", "is a number, not an object", "a number"},
      {"{}", "no \"nodes\"", "no nodes"},
      {"{\"nodes\": {}, \"root\": 0}", "not an array", "nodes not an array"},
      {"{\"nodes\": []}", "no \"root\"", "no root"},
      {"{\"nodes\": [], \"root\": 0}", "not a node's index", "root of an empty graph"},
      {ir_printf("{\"nodes\": [%s], \"root\": \"0\"}", n0), "not a node's index", "root a string"},
      {ir_printf("{\"nodes\": [%s], \"root\": -1}", n0), "not a node's index", "root negative"},
      {ir_printf("{\"nodes\": [%s], \"root\": 0.0}", n0), "not a node's index", "root a fraction"},
      {ir_printf("{\"nodes\": [%s], \"root\": 99999999999999999999999}", n0), "not a node's index", "root huge"},
      {ir_printf("{\"nodes\": [%s], \"root\": 1}", n0), "not a node's index", "root out of range"},
      {ir_printf("{\"nodes\": [%s], \"root\": 0}", n0), "not a Map", "root the null node"},
      {ir_printf("{\"nodes\": [%s, 5], \"root\": 0}", n0), "not an object", "a node not an object"},
      {ir_printf("{\"nodes\": [%s, {\"type_key\": 5}], \"root\": 1}", n0), "type_key is not a string", "type_key"},
      {ir_printf("{\"nodes\": [%s, {\"attrs\": []}], \"root\": 1}", n0), "attrs is not an object", "attrs"},
      {ir_printf("{\"nodes\": [%s, {\"attrs\": {\"a\": 1}}], \"root\": 1}", n0), "not a string", "an attr's value"},
      {ir_printf("{\"nodes\": [%s, {\"data\": 1}], \"root\": 1}", n0), "data is not an array", "data"},
      {ir_printf("{\"nodes\": [%s, {\"data\": [-1]}], \"root\": 1}", n0), "not a node's index", "data -1"},
      {ir_printf("{\"nodes\": [%s, {\"data\": [2]}], \"root\": 1}", n0), "not a node's index", "data out of range"},
      {ir_printf("{\"nodes\": [%s, {\"data\": [1.5]}], \"root\": 1}", n0), "not a node's index", "data 1.5"},
      {ir_printf("{\"nodes\": [%s, {\"data\": [\"1\"]}], \"root\": 1}", n0), "not a node's index", "data \"1\""},
      {ir_printf("{\"nodes\": [%s, {\"data\": [1e400]}], \"root\": 1}", n0), "not a node's index", "data 1e400"},
      {ir_printf("{\"nodes\": [%s, {\"keys\": [1]}], \"root\": 1}", n0), "keys[0] is not a string", "keys"},
      {ir_printf("{\"nodes\": [%s, {\"repr_str\": 1}], \"root\": 1}", n0), "repr_str is not a string", "repr_str"},
      {ir_printf("{\"nodes\": [%s, {\"repr_b64\": \"a\"}], \"root\": 1}", n0), "multiple of 4", "repr_b64"},
      {ir_printf("{\"nodes\": [%s, {\"type_key\": \"Array\"}], \"root\": 1}", n0), "is a Array, not a Map",
       "root an Array"},
      {ir_printf("{\"nodes\": [%s, {\"type_key\": \"Map\", \"keys\": [\"a\", \"b\"], \"data\": [0]}], \"root\": 1}", n0),
       "2 keys for 1 values", "keys and values disagree"},
      {ir_printf("{\"nodes\": [%s, {\"type_key\": \"Map\", \"data\": [0]}], \"root\": 1}", n0), "keys for",
       "an odd old-style Map"},
      {ir_printf("{\"nodes\": [%s, {\"type_key\": \"Map\", \"data\": [0, 0]}], \"root\": 1}", n0), "not a string",
       "an old-style key that is not a String"},
      {ir_printf("{\"nodes\": [%s, {\"type_key\": \"Map\", \"keys\": [\"a\"], \"data\": [0]}], \"root\": 1}", n0),
       "not an Array", "a kind's list the null node"},
      {ir_printf("{\"nodes\": [%s, {\"type_key\": \"Map\", \"keys\": [\"a\"], \"data\": [1]}], \"root\": 1}", n0),
       "not an Array", "a kind's list the Map itself"},
      {ir_printf("{\"nodes\": [%s, %s, {\"type_key\": \"Array\", \"data\": [0]}], \"root\": 1}", n0, map),
       "is the null node", "an entry the null node"},
      {ir_printf("{\"nodes\": [%s, %s, %s, {\"type_key\": \"relay.Constant\"}], \"root\": 1}", n0, map, arr),
       "has no field `data`", "a constant without data"},
      {ir_printf("{\"nodes\": [%s, %s, %s, {\"type_key\": \"relay.Constant\", \"attrs\": {\"data\": \"0\"}}], "
                 "\"root\": 1}",
                 n0, map, arr),
       "not an index of b64ndarrays", "a constant without arrays"},
      {ir_printf("{\"nodes\": [%s, %s, %s, {\"type_key\": \"relay.Constant\", \"attrs\": {\"data\": \"x\"}}], "
                 "\"root\": 1, \"b64ndarrays\": []}",
                 n0, map, arr),
       "not an index of b64ndarrays", "a constant's data not a number"},
      {ir_printf("{\"nodes\": [%s], \"root\": 0, \"b64ndarrays\": {}}", n0), "b64ndarrays is not an array",
       "b64ndarrays an object"},
      {ir_printf("{\"nodes\": [%s], \"root\": 0, \"b64ndarrays\": [1]}", n0), "b64ndarrays[0] is not a string",
       "an array not a string"},
      {one_attrs("Conv2DAttrs", "\"groups\": \"x\"", ""), "should be an integer", "an int field not an integer"},
      {one_attrs("Conv2DAttrs", "\"groups\": \"99999999999999999999\"", ""), "should be an integer", "an int too big"},
      {one_attrs("BatchNormAttrs", "\"epsilon\": \"1e-5x\"", ""), "should be a number", "a double field"},
      {one_attrs("BatchNormAttrs", "\"epsilon\": \"\"", ""), "should be a number", "an empty double"},
      {one_attrs("BatchNormAttrs", "\"center\": \"2\"", ""), "should be 0 or 1", "a bool field"},
      {one_attrs("Conv2DAttrs", "\"strides\": \"x\"", ""), "should be a node's index", "an object field not an index"},
      {one_attrs("Conv2DAttrs", "\"strides\": \"99\"", ""), "should be a node's index", "an object field out of range"},
      {one_attrs("Conv2DAttrs", "\"strides\": \"4\"", "{\"type_key\": \"IntImm\", \"attrs\": {\"value\": \"1\"}}"),
       "no field `dtype`", "an IntImm without dtype"},
      {one_attrs("Conv2DAttrs", "\"strides\": \"4\"",
                 "{\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"value\": \"1.5\"}}"),
       "not an integer", "an IntImm's value"},
      {one_attrs("Conv2DAttrs", "\"strides\": \"4\"",
                 "{\"type_key\": \"FloatImm\", \"attrs\": {\"dtype\": \"float32\", \"value\": \"x\"}}"),
       "not a number", "a FloatImm's value"},
      {one_attrs("Conv2DAttrs", "\"strides\": \"4\"", "{\"type_key\": \"Array\", \"data\": [4]}"), "cycle",
       "an Array that holds itself"},
      {one_attrs("Conv2DAttrs", "\"strides\": \"4\"",
                 "{\"type_key\": \"Array\", \"data\": [5]}, {\"type_key\": \"Array\", \"data\": [4]}"),
       "cycle", "two Arrays that hold each other"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) refused(cases[i].text, cases[i].want, cases[i].what);

  IrBuf nodes;
  ir_buf_init(&nodes);
  ir_buf_puts(&nodes, "{\"type_key\": \"Array\"}");
  for (int k = 0; k < 100; k++) ir_buf_printf(&nodes, ", {\"type_key\": \"Array\", \"data\": [%d]}", 4 + k);
  refused(one_attrs("TransposeAttrs", "\"axes\": \"104\"", nodes.data), "nests deeper than",
          "Arrays nested 100 deep");
}

static void test_ndarray_errors(void) {
  float two[] = {1, 2};
  int64_t s2[] = {2}, sneg[] = {-2}, sbig[] = {(int64_t)1 << 40, (int64_t)1 << 40}, s0[] = {0, 5};
  Blob good = ndarray(2, 32, 1, 1, s2, RIGHT, two, sizeof two);
  tap_ok(parse(one_constant(b64(good))) != NULL, "a float32 [2] constant parses");
  Blob magic = good, dev = good, shortb = good, extra = {0};
  magic.p = ir_alloc_atomic(good.len), memcpy(magic.p, good.p, good.len), magic.p[0] ^= 1;
  dev.p = ir_alloc_atomic(good.len), memcpy(dev.p, good.p, good.len), dev.p[16] = 2;
  shortb.len = 20;
  put_bytes(&extra, good.p, good.len);
  put(&extra, 0, 1);
  Blob less = good;
  less.len -= 1;
  const struct {
    const char *b64, *want, *what;
  } cases[] = {
      {"P6G0lvBAXt0A!AAAAAAAAAAA", "not base64", "a character that is not base64"},
      {"P6G0lvBAXt0", "multiple of 4", "a length that is not a multiple of 4"},
      {"P6G0=vBAXt0AAAAAAAAAAAAA", "before its end", "'=' before the end"},
      {"P6G0lvBAXt0AAAAAAAAAAA==", "too few for the header", "a header cut short"},
      {"", "too few for the header", "no bytes"},
      {b64(magic), "magic number", "a wrong magic number"},
      {b64(dev), "device type 2", "a GPU array"},
      {b64(shortb), "too few for the header", "20 bytes"},
      {b64(ndarray(2, 32, 1, -1, NULL, 0, NULL, 0)), "rank is negative", "ndim -1"},
      {b64(ndarray(2, 32, 1, INT32_MAX, NULL, 0, NULL, 0)), "only 8 bytes follow", "ndim 2^31-1"},
      {b64(ndarray(2, 32, 4, 1, s2, RIGHT, two, sizeof two)), "4 lanes", "a vector dtype"},
      {b64(ndarray(4, 16, 1, 1, s2, RIGHT, two, 4)), "bfloat16", "bfloat16"},
      {b64(ndarray(7, 32, 1, 1, s2, RIGHT, two, sizeof two)), "type code 7", "an unknown type code"},
      {b64(ndarray(0, 7, 1, 1, s2, RIGHT, two, sizeof two)), "7 bits", "int7"},
      {b64(ndarray(2, 8, 1, 1, s2, RIGHT, two, 2)), "8 bits", "float8"},
      {b64(ndarray(1, 1, 2, 1, s2, RIGHT, two, 2)), "2 lanes", "bool with lanes"},
      {b64(ndarray(2, 32, 1, 1, sneg, RIGHT, two, sizeof two)), "negative", "a negative dimension"},
      {b64(ndarray(2, 32, 1, 2, sbig, RIGHT, two, sizeof two)), "more bytes than an int64", "2^40 x 2^40 float32"},
      {b64(ndarray(2, 32, 1, 1, s2, 12, two, sizeof two)), "byte size is 12", "a byte size larger than the shape's"},
      {b64(ndarray(2, 32, 1, 1, s2, -8, two, sizeof two)), "byte size is -8", "a negative byte size"},
      {b64(ndarray(2, 32, 1, 1, s2, 4, two, 4)), "need 8", "a byte size smaller than the shape's"},
      {b64(less), "holds 7 bytes", "data cut short"},
      {b64(extra), "holds 9 bytes", "bytes after the data"},
      {b64(ndarray(2, 32, 1, 2, s0, RIGHT, NULL, 0)), "", "(an empty [0, 5] array is fine)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (!*cases[i].want) continue;
    refused(one_constant(cases[i].b64), cases[i].want, cases[i].what);
  }
  IrMeta *m = parse(one_constant(b64(ndarray(2, 32, 1, 2, s0, RIGHT, NULL, 0))));
  tap_ok(m && m->kinds[0].items[0].tensor.count == 0, "an empty [0, 5] array has no elements");
  m = parse(one_constant(b64(ndarray(6, 8, 1, 1, s2, RIGHT, "\1\0", 2))));
  tap_ok(m && m->kinds[0].items[0].tensor.dtype.code == IR_DT_BOOL, "DLPack's kDLBool is bool too");
}

/* ---------------------------------------------------------------- random mutations */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void test_mutations(int count) {
  const char *base = valid_section();
  size_t blen = strlen(base);
  static const char interesting[] = "{}[]\",:\\0123456789-.eE u=A+/";
  int parsed = 0, refusals = 0, bad = 0;
  for (int k = 0; k < count; k++) {
    char *t = ir_alloc_atomic(blen * 2 + 16);
    memcpy(t, base, blen);
    size_t len = blen;
    int edits = 1 + (int)(next_rand() % 4);
    for (int e = 0; e < edits && len; e++) {
      size_t at = (size_t)(next_rand() % len);
      switch (next_rand() % 6) {
      case 0: t[at] = (char)(next_rand() & 0xff); break;
      case 1: t[at] = interesting[next_rand() % (sizeof interesting - 1)]; break;
      case 2: { /* delete a run */
        size_t n = 1 + (size_t)(next_rand() % 8);
        if (n > len - at) n = len - at;
        memmove(t + at, t + at + n, len - at - n);
        len -= n;
        break;
      }
      case 3: /* insert a byte */
        if (len < blen * 2) {
          memmove(t + at + 1, t + at, len - at);
          t[at] = interesting[next_rand() % (sizeof interesting - 1)];
          len++;
        }
        break;
      case 4: len = at; break; /* truncate */
      default: { /* duplicate a run */
        size_t n = 1 + (size_t)(next_rand() % 16);
        if (n > len - at) n = len - at;
        if (len + n <= blen * 2) {
          memmove(t + at + n, t + at, len - at);
          len += n;
        }
        break;
      }
      }
    }
    /* An exact copy, not NUL-terminated: a reader must keep to len (ASan sees any byte past it). */
    char *exact = malloc(len ? len : 1);
    memcpy(exact, t, len);
    IrMeta *m = parse_n(exact, len);
    free(exact);
    if (m) {
      parsed++;
      for (int i = 0; i < m->nkinds; i++)
        for (int j = 0; j < m->kinds[i].n; j++) {
          const IrMetaEntry *x = &m->kinds[i].items[j];
          if (x->kind != IR_META_CONSTANT) continue;
          int64_t c = 1;
          for (int d = 0; d < x->tensor.rank; d++) c *= x->tensor.shape[d];
          if (c != x->tensor.count || !x->tensor.data) bad++;
        }
    } else {
      refusals++;
      if (!last_error || last_off > len) bad++;
    }
  }
  tap_ok(bad == 0, "%d mutations of a valid section: %d parse, %d are refused with a message at an offset in range",
         count, parsed, refusals);
}

/* ---------------------------------------------------------------- a real section */

static void test_model(const char *path) {
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f) {
    tap_skip("no model file given");
    return;
  }
  IrBuf text;
  ir_buf_init(&text);
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) ir_buf_putn(&text, chunk, n);
  fclose(f);
  const char *sec = strstr(text.data, "#[metadata]");
  if (!tap_ok(sec != NULL, "%s has a metadata section", path)) return;
  sec += strlen("#[metadata]");
  IrMeta *m = parse_n(sec, text.len - (size_t)(sec - text.data));
  if (!tap_ok(m != NULL, "TVM's section parses")) {
    tap_diag("%s at %zu", last_error, last_off);
    return;
  }
  tap_is_str(m->tvm_version ? m->tvm_version : "(none)", m->tvm_version ? m->tvm_version : "", "it names its TVM version");
  /* Each `meta[relay.Constant][i] /\* ty=T *\/` in the program: the entry's type is T. */
  int checked = 0, wrong = 0;
  const char *key = "meta[relay.Constant][";
  for (const char *p = text.data; (p = strstr(p, key)) && p < sec; p++) {
    char *end;
    long i = strtol(p + strlen(key), &end, 10);
    if (strncmp(end, "] /* ty=", 8)) continue;
    const char *ty = end + 8, *close = strstr(ty, " */");
    const IrMetaEntry *e = ir_meta_get(m, "relay.Constant", i);
    const char *got = e && e->kind == IR_META_CONSTANT ? type_text(&e->tensor) : "(no constant)";
    if (!close || strlen(got) != (size_t)(close - ty) || strncmp(got, ty, (size_t)(close - ty))) {
      if (!wrong++) tap_diag("constant %ld: %s, annotated %.*s", i, got, close ? (int)(close - ty) : 20, ty);
    }
    checked++;
  }
  tap_ok(checked > 0 && !wrong, "the dtypes and shapes of its %d constant references match the program's annotations",
         checked);
}

int main(int argc, char **argv) {
  GC_INIT();
  test_valid();
  test_json_errors();
  test_structure_errors();
  test_ndarray_errors();
  test_mutations(argc > 2 ? atoi(argv[2]) : 5000); /* more for a longer fuzz run */
  test_model(argc > 1 ? argv[1] : NULL);
  return tap_done();
}
