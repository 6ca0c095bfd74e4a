/* TVM's metadata section (meta.h), in four layers: JSON (json.h), base64, TVM's NDArray save format,
 * and the node graph with its attribute schema. Every fault in the text ends in one error (message
 * and offset) through a longjmp to ir_meta_parse. */
#include "ir/meta.h"
#include "ir/symmap.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir/json.h"
#include "ir/mem.h"
#include "ir/symbol.h"

/* JSON nesting beyond this is refused; TVM's sections nest four levels. */
#define MAX_JSON_DEPTH 256
/* Attribute values nest (arrays of arrays) at most this deep. */
#define MAX_ATTR_DEPTH 64

typedef struct Reader {
  const char *text;
  size_t len;
  const char *error;
  size_t error_off;
  bool cut_short; /* the error is that the text ended: more text might complete it */
  jmp_buf fail;
} Reader;

static _Noreturn __attribute__((format(printf, 3, 4))) void fail(Reader *R, size_t off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  R->error = ir_vprintf(fmt, ap);
  va_end(ap);
  R->error_off = off;
  longjmp(R->fail, 1);
}

/* ---------------------------------------------------------------- numbers in text */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* A decimal integer (optional '-'), all of s[0..n), within int64; false otherwise. */
static bool parse_i64(const char *s, size_t n, int64_t *out) {
  size_t i = 0;
  bool neg = n && s[0] == '-';
  if (neg) i++;
  if (i == n) return false;
  uint64_t mag = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < n; i++) {
    if (!is_digit(s[i])) return false;
    unsigned d = (unsigned)(s[i] - '0');
    if (mag > (limit - d) / 10) return false;
    mag = mag * 10 + d;
  }
  *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
  return true;
}

/* An index below `count` written as a JSON integer or a decimal string; -1 when it is not one. */
static int64_t index_of(const char *s, size_t n, int64_t count) {
  int64_t v;
  if (!parse_i64(s, n, &v) || v < 0 || v >= count || (n > 1 && s[0] == '0')) return -1;
  return v;
}

/* ---------------------------------------------------------------- base64 */

static int b64_digit(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/* Decodes standard base64 (padded, as TVM writes it); NULL with *why on a fault. */
static uint8_t *b64_decode(const char *s, size_t n, size_t *outlen, const char **why) {
  if (n % 4) {
    *why = ir_printf("its base64 text has %zu characters, not a multiple of 4", n);
    return NULL;
  }
  size_t pad = n && s[n - 1] == '=' ? (n >= 2 && s[n - 2] == '=' ? 2 : 1) : 0;
  size_t len = n / 4 * 3 - pad;
  uint8_t *out = ir_alloc_atomic(len);
  size_t o = 0;
  for (size_t i = 0; i < n; i += 4) {
    uint32_t acc = 0;
    for (size_t k = 0; k < 4; k++) {
      unsigned char c = (unsigned char)s[i + k];
      int d = b64_digit(c);
      if (d < 0 && c == '=' && i + 4 == n && k >= 4 - pad) d = 0;
      if (d < 0) {
        *why = c == '=' ? ir_printf("its base64 text has '=' at character %zu, before its end", i + k)
                        : ir_printf("its base64 text has a character that is not base64 at %zu", i + k);
        return NULL;
      }
      acc = acc << 6 | (uint32_t)d;
    }
    uint8_t b3[3] = {(uint8_t)(acc >> 16), (uint8_t)(acc >> 8), (uint8_t)acc};
    for (int k = 0; k < 3 && o < len; k++) out[o++] = b3[k];
  }
  *outlen = len;
  return out;
}

/* ---------------------------------------------------------------- TVM's NDArray format */

#define NDARRAY_MAGIC 0xDD5E40F096B4A13Full

typedef struct Bytes {
  const uint8_t *p;
  size_t len, at;
} Bytes;

static bool take(Bytes *b, size_t n, uint64_t *out) { /* n <= 8 bytes, little endian */
  if (b->len - b->at < n) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint64_t)b->p[b->at + i] << (8 * i);
  b->at += n;
  *out = v;
  return true;
}

/* The relay dtype of a DLDataType; NULL, or what is wrong with it. */
static const char *dl_dtype(unsigned code, unsigned bits, unsigned lanes, IrDType *dt) {
  if (lanes != 1) return ir_printf("its dtype has %u lanes; relay's constants have one", lanes);
  bool intbits = bits == 8 || bits == 16 || bits == 32 || bits == 64;
  if ((code == 1 && bits == 1) || (code == 6 && bits == 8)) *dt = IR_DTYPE(IR_DT_BOOL, 1); /* TVM's bool; DLPack's kDLBool */
  else if (code == 0 && intbits) *dt = IR_DTYPE(IR_DT_INT, bits);
  else if (code == 1 && intbits) *dt = IR_DTYPE(IR_DT_UINT, bits);
  else if (code == 2 && (bits == 16 || bits == 32 || bits == 64)) *dt = IR_DTYPE(IR_DT_FLOAT, bits);
  else if (code == 4) return ir_printf("its dtype is bfloat%u, which relay does not have", bits);
  else return ir_printf("its dtype (type code %u, %u bits) is not one relay has", code, bits);
  return NULL;
}

/* Reads one NDArray from its bytes into t; NULL, or what is wrong with it. */
static const char *ndarray_read(const uint8_t *p, size_t len, IrMetaTensor *t) {
  Bytes b = {p, len, 0};
  uint64_t magic, reserved, devtype, devid, ndim, code, bits, lanes;
  if (!take(&b, 8, &magic) || !take(&b, 8, &reserved)) return ir_printf("it has %zu bytes, too few for the header", len);
  if (magic != NDARRAY_MAGIC) return "it does not start with TVM's NDArray magic number";
  if (!take(&b, 4, &devtype) || !take(&b, 4, &devid) || !take(&b, 4, &ndim) || !take(&b, 1, &code) ||
      !take(&b, 1, &bits) || !take(&b, 2, &lanes))
    return ir_printf("it has %zu bytes, too few for the header", len);
  if (devtype != 1) return ir_printf("it is saved for device type %d; TVM saves arrays as CPU (1) arrays", (int32_t)devtype);
  int32_t rank = (int32_t)(uint32_t)ndim;
  if (rank < 0) return ir_printf("its rank is negative (%d)", rank);
  const char *why = dl_dtype((unsigned)code, (unsigned)bits, (unsigned)lanes, &t->dtype);
  if (why) return why;
  if ((size_t)rank > (b.len - b.at) / 8) return ir_printf("its rank is %d, but only %zu bytes follow", rank, b.len - b.at);
  int64_t *shape = ir_alloc_atomic(sizeof(int64_t) * (size_t)rank);
  int64_t count = 1;
  bool empty = false;
  for (int i = 0; i < rank; i++) {
    uint64_t d = 0; /* the rank check above leaves 8 bytes for each dimension */
    take(&b, 8, &d);
    shape[i] = (int64_t)d;
    if (shape[i] < 0) return ir_printf("dimension %d of its shape is negative (%lld)", i, (long long)shape[i]);
    empty |= shape[i] == 0;
  }
  int64_t esize = bits == 1 ? 1 : (int64_t)bits / 8;
  for (int i = 0; i < rank && !empty; i++) {
    if (count > INT64_MAX / esize / shape[i]) return "its shape has more bytes than an int64 counts";
    count *= shape[i];
  }
  if (empty) count = 0;
  uint64_t size;
  if (!take(&b, 8, &size)) return "it ends before its data's byte size";
  int64_t want = count * esize;
  if ((int64_t)size != want)
    return ir_printf("its data's byte size is %lld, but its shape and dtype need %lld", (long long)(int64_t)size,
                     (long long)want);
  if ((uint64_t)(b.len - b.at) != size)
    return ir_printf("it holds %zu bytes of data, but says %lld", b.len - b.at, (long long)want);
  uint8_t *data = ir_alloc_atomic((size_t)want);
  ir_copy(data, b.p + b.at, (size_t)want);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  for (int64_t i = 0; esize > 1 && i < count; i++)
    for (int64_t k = 0; k < esize / 2; k++) {
      uint8_t tmp = data[i * esize + k];
      data[i * esize + k] = data[i * esize + esize - 1 - k];
      data[i * esize + esize - 1 - k] = tmp;
    }
#endif
  t->rank = rank;
  t->shape = shape;
  t->count = count;
  t->data = data;
  return NULL;
}

/* ---------------------------------------------------------------- attribute schemas */

/* The fields TVM's reflection saves for each relay.attrs type, in declaration order, from
 * the headers of include/tvm/relay/attrs/ at v0.14. A field's kind is its C++ type's: I int, F double, B bool,
 * S std::string, D DataType (saved as their text), N an object (saved as a node index: Array,
 * IntImm, runtime.String, ...). Only the kind matters, since a node says what it is. */
static const struct {
  const char *name; /* after "relay.attrs." */
  const char *fields;
} schemas[] = {
    {"AdaptivePool1DAttrs", "output_size:N layout:S out_layout:N"},
    {"AdaptivePool2DAttrs", "output_size:N layout:S out_layout:N"},
    {"AdaptivePool3DAttrs", "output_size:N layout:S out_layout:N"},
    {"AffineGridAttrs", "target_shape:N"},
    {"AllClassNonMaximumSuppressionAttrs", "output_format:S"},
    {"ArangeAttrs", "start:N stop:N step:N dtype:D"},
    {"ArgReduceAttrs", "axis:N keepdims:B select_last_index:B exclude:B"},
    {"ArgsortAttrs", "axis:I is_ascend:B dtype:D"},
    {"AutoSchedulerLayoutTransformAttrs", "src_layout:S dst_layout:S"},
    {"AvgPool1DAttrs", "pool_size:N strides:N dilation:N padding:N layout:S out_layout:N ceil_mode:B count_include_pad:B"},
    {"AvgPool2DAttrs", "pool_size:N strides:N dilation:N padding:N layout:N out_layout:N ceil_mode:B count_include_pad:B"},
    {"AvgPool3DAttrs", "pool_size:N strides:N dilation:N padding:N layout:S out_layout:N ceil_mode:B count_include_pad:B"},
    {"BatchMatmulAttrs", "out_dtype:D transpose_a:B transpose_b:B"},
    {"BatchNormAttrs", "axis:I epsilon:F center:B scale:B"},
    {"BatchToSpaceNDAttrs", "block_shape:N crops:N"},
    {"BiasAddAttrs", "axis:I"},
    {"CastAttrs", "dtype:D"},
    {"CastHintAttrs", "dtype:D"},
    {"ClipAttrs", "a_min:F a_max:F"},
    {"CompilerAttrs", "compiler:S"},
    {"ConcatenateAttrs", "axis:I"},
    {"Conv1DAttrs", "strides:N padding:N dilation:N groups:I channels:N kernel_size:N data_layout:N kernel_layout:N out_layout:N out_dtype:D"},
    {"Conv1DTransposeAttrs", "channels:N kernel_size:N strides:N output_padding:N padding:N dilation:N groups:I data_layout:S kernel_layout:S out_layout:S out_dtype:D"},
    {"Conv2DAttrs", "strides:N padding:N dilation:N groups:I channels:N kernel_size:N data_layout:N kernel_layout:N out_layout:N out_dtype:D"},
    {"Conv2DTransposeAttrs", "channels:N kernel_size:N strides:N output_padding:N padding:N dilation:N groups:I data_layout:S kernel_layout:S out_layout:S out_dtype:D"},
    {"Conv2DWinogradAttrs", "tile_size:I strides:N padding:N dilation:N groups:I channels:N kernel_size:N data_layout:N kernel_layout:N out_layout:N out_dtype:D"},
    {"Conv2DWinogradNNPACKWeightTransformAttrs", "convolution_algorithm:I out_dtype:D"},
    {"Conv3DAttrs", "strides:N padding:N dilation:N groups:I channels:N kernel_size:N data_layout:N kernel_layout:N out_layout:N out_dtype:D"},
    {"Conv3DTransposeAttrs", "channels:N kernel_size:N strides:N output_padding:N padding:N dilation:N groups:I data_layout:N kernel_layout:N out_layout:N out_dtype:D"},
    {"Conv3DWinogradAttrs", "tile_size:I strides:N padding:N dilation:N groups:I channels:N kernel_size:N data_layout:S kernel_layout:S out_layout:S out_dtype:D"},
    {"ConvGemmWeightTransformAttrs", "tile_rows:I tile_cols:I"},
    {"ConvWinogradWeightTransformAttrs", "tile_size:I"},
    {"CorrelationAttrs", "kernel_size:I max_displacement:I stride1:I stride2:I padding:N is_multiply:B layout:N"},
    {"CropAndResizeAttrs", "crop_size:N layout:S method:S extrapolation_value:F out_dtype:D"},
    {"DFTAttrs", "inverse:N"},
    {"DeformableConv2DAttrs", "strides:N padding:N dilation:N deformable_groups:I groups:I channels:N kernel_size:N data_layout:S kernel_layout:S out_layout:S out_dtype:D"},
    {"DenseAttrs", "units:N out_dtype:D"},
    {"DensePackAttrs", "units:N out_dtype:D weight_layout:N"},
    {"DeviceCopyAttrs", "src_virtual_device:N dst_virtual_device:N"},
    {"DilateAttrs", "strides:N dilation_value:F"},
    {"Dilation2DAttrs", "strides:N padding:N dilations:N data_layout:S kernel_layout:S out_dtype:D"},
    {"DropoutAttrs", "rate:F"},
    {"DynExpandDimsAttrs", "num_newaxis:I"},
    {"EinsumAttrs", "equation:N"},
    {"ExpandDimsAttrs", "axis:I num_newaxis:I"},
    {"FIFOBufferAttrs", "axis:I"},
    {"FixedPointMultiplyAttrs", "multiplier:I shift:I"},
    {"FixedPointMultiplyPerAxisAttrs", "is_lshift_required:B is_rshift_required:B axes:N"},
    {"GatherAttrs", "axis:N"},
    {"GatherNDAttrs", "batch_dims:N index_rank:N"},
    {"GetValidCountsAttrs", "score_threshold:N id_index:I score_index:I"},
    {"GlobalPool2DAttrs", "layout:N out_layout:N"},
    {"GridSampleAttrs", "method:N layout:N padding_mode:N align_corners:B"},
    {"GroupNormAttrs", "num_groups:I axis:I epsilon:F center:B scale:B"},
    {"InitOpAttrs", "shape:N dtype:D"},
    {"InstanceNormAttrs", "axis:I epsilon:F center:B scale:B"},
    {"L2NormalizeAttrs", "eps:F axis:N"},
    {"LRNAttrs", "size:I axis:I bias:F alpha:F beta:F"},
    {"LayerNormAttrs", "axis:I epsilon:F center:B scale:B"},
    {"LayoutTransformAttrs", "src_layout:S dst_layout:S"},
    {"LeakyReluAttrs", "alpha:F"},
    {"MatmulAttrs", "units:N out_dtype:D transpose_a:B transpose_b:B"},
    {"MatrixSetDiagAttrs", "k1:I k2:I super_diag_right_align:B sub_diag_right_align:B"},
    {"MaxPool1DAttrs", "pool_size:N strides:N dilation:N padding:N layout:S out_layout:N ceil_mode:B"},
    {"MaxPool2DAttrs", "pool_size:N strides:N dilation:N padding:N layout:N out_layout:N ceil_mode:B"},
    {"MaxPool3DAttrs", "pool_size:N strides:N dilation:N padding:N layout:S out_layout:N ceil_mode:B"},
    {"MeshgridAttrs", "indexing:S"},
    {"MetaScheduleLayoutTransformAttrs", "index_map:N"},
    {"MirrorPadAttrs", "mode:S pad_width:N"},
    {"MultiBoxPriorAttrs", "sizes:N ratios:N steps:N offsets:N clip:B"},
    {"MultiBoxTransformLocAttrs", "clip:B threshold:F variances:N keep_background:B"},
    {"NLLLossAttrs", "reduction:S ignore_index:I"},
    {"NdarraySizeAttrs", "dtype:D"},
    {"NonMaximumSuppressionAttrs", "force_suppress:B top_k:I coord_start:I score_index:I id_index:I return_indices:B invalid_to_bottom:B"},
    {"OnDeviceAttrs", "virtual_device:N constrain_result:B constrain_body:B"},
    {"OneHotAttrs", "depth:I axis:I dtype:D"},
    {"PReluAttrs", "axis:I"},
    {"PadAttrs", "pad_width:N pad_mode:N"},
    {"ProposalAttrs", "scales:N ratios:N feature_stride:I threshold:F rpn_pre_nms_top_n:I rpn_post_nms_top_n:I rpn_min_size:I iou_loss:B"},
    {"ROIAlignAttrs", "pooled_size:N spatial_scale:F sample_ratio:I layout:S mode:S"},
    {"ROIPoolAttrs", "pooled_size:N spatial_scale:F layout:S"},
    {"ReduceAttrs", "axis:N keepdims:B exclude:B"},
    {"RegularNonMaximumSuppressionAttrs", "max_detections_per_class:I max_detections:I num_classes:I iou_threshold:F score_threshold:F"},
    {"RepeatAttrs", "repeats:N axis:N"},
    {"ReshapeAttrs", "newshape:N allowzero:B"},
    {"ReshapeLikeAttrs", "lhs_begin:I lhs_end:N rhs_begin:I rhs_end:N"},
    {"Resize1DAttrs", "size:N roi:N layout:S method:S coordinate_transformation_mode:S rounding_method:S cubic_alpha:F cubic_exclude:I extrapolation_value:F out_dtype:D"},
    {"Resize2DAttrs", "size:N roi:N layout:S method:S coordinate_transformation_mode:S rounding_method:S cubic_alpha:F cubic_exclude:I extrapolation_value:F out_dtype:D"},
    {"Resize3DAttrs", "size:N roi:N layout:S method:S coordinate_transformation_mode:S rounding_method:S cubic_alpha:F cubic_exclude:I extrapolation_value:F out_dtype:D"},
    {"ReverseAttrs", "axis:N"},
    {"ReverseSequenceAttrs", "seq_axis:N batch_axis:N"},
    {"ScanopAttrs", "axis:N dtype:D exclusive:N"},
    {"ScatterElementsAttrs", "axis:N reduction:N"},
    {"ScatterNDAttrs", "mode:N"},
    {"SearchSortedAttrs", "right:B dtype:D"},
    {"SequenceMaskAttrs", "mask_value:F axis:I"},
    {"ShapeOfAttrs", "dtype:D"},
    {"SliceLikeAttrs", "axes:N"},
    {"SlidingWindowAttrs", "axis:I window_shape:N strides:N"},
    {"SoftmaxAttrs", "axis:I"},
    {"SpaceToBatchNDAttrs", "block_shape:N paddings:N pad_value:F"},
    {"SparseDenseAttrs", "sparse_lhs:B"},
    {"SparseToDenseAttrs", "output_shape:N"},
    {"SparseTransposeAttrs", ""},
    {"SplitAttrs", "indices_or_sections:N axis:I"},
    {"SqueezeAttrs", "axis:N"},
    {"StackAttrs", "axis:N"},
    {"StftAttrs", "n_fft:I hop_length:I win_length:I normalized:B onesided:B"},
    {"StridedSliceAttrs", "begin:N end:N strides:N slice_mode:N axes:N"},
    {"SubPixelAttrs", "block_size:I layout:S mode:S"},
    {"TakeAttrs", "batch_dims:N axis:N mode:N"},
    {"TileAttrs", "reps:N"},
    {"TopkAttrs", "k:N axis:I ret_type:S is_ascend:B dtype:D"},
    {"TransposeAttrs", "axes:N"},
    {"TriluAttrs", "upper:B"},
    {"UniqueAttrs", "sorted:B return_counts:B"},
    {"UpSampling3DAttrs", "scale_d:F scale_h:F scale_w:F layout:S method:S coordinate_transformation_mode:S"},
    {"UpSamplingAttrs", "scale_h:F scale_w:F layout:N method:N align_corners:B"},
    {"VarianceAttrs", "axis:N keepdims:B exclude:B unbiased:B"},
    {"YoloReorgAttrs", "stride:N"},
};

static const char *schema_of(const char *type_key) {
  if (strncmp(type_key, "relay.attrs.", 12)) return NULL;
  for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++)
    if (!strcmp(schemas[i].name, type_key + 12)) return schemas[i].fields;
  return NULL;
}

/* ---------------------------------------------------------------- the node graph */

typedef struct Node {
  const IrJson *j;
  const char *type_key; /* "" for the null node */
  const IrJson *attrs;    /* an object of strings, or NULL */
  const IrJson *data;     /* an array of node indices, or NULL */
  const IrJson *keys;     /* an array of strings, or NULL */
  const char *repr;     /* repr_str, or repr_b64 decoded; NULL when neither */
  size_t repr_len;
  Sym meta_kind;        /* where the root map lists it (the first place), for references to it */
  int64_t meta_index;
  enum { FRESH, CONVERTING, CONVERTED, NO_VALUE } state;
  IrAttrVal val;
} Node;

typedef struct Graph {
  Reader *R;
  int n;
  Node *nodes;
  int ntensors;
  IrMetaTensor *tensors;
} Graph;

static Node *node_at(Graph *G, int64_t i) { return &G->nodes[i]; }

static void check_node(Graph *G, int i) {
  Reader *R = G->R;
  Node *nd = node_at(G, i);
  const IrJson *j = nd->j;
  if (j->kind != IR_JSON_OBJECT) fail(R, j->off, "the metadata's nodes[%d] is %s, not an object", i, ir_json_kind_name(j->kind));
  const IrJson *tk = ir_json_get(j, "type_key");
  if (tk && tk->kind != IR_JSON_STRING) fail(R, tk->off, "the metadata's nodes[%d].type_key is not a string", i);
  nd->type_key = tk ? tk->s : "";
  if ((nd->attrs = ir_json_get(j, "attrs"))) {
    if (nd->attrs->kind != IR_JSON_OBJECT) fail(R, nd->attrs->off, "the metadata's nodes[%d].attrs is not an object", i);
    for (int k = 0; k < nd->attrs->n; k++)
      if (nd->attrs->members[k].val->kind != IR_JSON_STRING)
        fail(R, nd->attrs->members[k].val->off, "the metadata's nodes[%d].attrs.%s is %s, not a string", i,
             nd->attrs->members[k].key, ir_json_kind_name(nd->attrs->members[k].val->kind));
  }
  if ((nd->data = ir_json_get(j, "data"))) {
    if (nd->data->kind != IR_JSON_ARRAY) fail(R, nd->data->off, "the metadata's nodes[%d].data is not an array", i);
    for (int k = 0; k < nd->data->n; k++) {
      const IrJson *x = nd->data->items[k];
      if (x->kind != IR_JSON_NUMBER || !x->integer || index_of(x->s, x->len, G->n) < 0)
        fail(R, x->off, "the metadata's nodes[%d].data[%d] is not a node's index (0 to %d)", i, k, G->n - 1);
    }
  }
  if ((nd->keys = ir_json_get(j, "keys"))) {
    if (nd->keys->kind != IR_JSON_ARRAY) fail(R, nd->keys->off, "the metadata's nodes[%d].keys is not an array", i);
    for (int k = 0; k < nd->keys->n; k++)
      if (nd->keys->items[k]->kind != IR_JSON_STRING)
        fail(R, nd->keys->items[k]->off, "the metadata's nodes[%d].keys[%d] is not a string", i, k);
  }
  const IrJson *rs = ir_json_get(j, "repr_str"), *rb = ir_json_get(j, "repr_b64");
  if (rs) {
    if (rs->kind != IR_JSON_STRING) fail(R, rs->off, "the metadata's nodes[%d].repr_str is not a string", i);
    nd->repr = rs->s;
    nd->repr_len = rs->len;
  } else if (rb) {
    const char *why;
    if (rb->kind != IR_JSON_STRING) fail(R, rb->off, "the metadata's nodes[%d].repr_b64 is not a string", i);
    uint8_t *bytes = b64_decode(rb->s, rb->len, &nd->repr_len, &why);
    if (!bytes) fail(R, rb->off, "the metadata's nodes[%d].repr_b64: %s", i, why);
    char *s = ir_alloc_atomic(nd->repr_len + 1);
    ir_copy(s, bytes, nd->repr_len);
    nd->repr = s;
  }
}

static int64_t data_index(const Node *nd, int k) {
  int64_t v = 0;
  parse_i64(nd->data->items[k]->s, nd->data->items[k]->len, &v); /* checked by check_node */
  return v;
}

/* Field `name` of node i's attrs (a string value), or NULL. */
static const IrJson *field(Graph *G, int64_t i, const char *name) {
  const Node *nd = node_at(G, i);
  return nd->attrs ? ir_json_get(nd->attrs, name) : NULL;
}

static const IrJson *need_field(Graph *G, int64_t i, const char *name) {
  const IrJson *f = field(G, i, name);
  if (!f) fail(G->R, node_at(G, i)->j->off, "the metadata's nodes[%lld] (%s) has no field `%s`", (long long)i,
               node_at(G, i)->type_key, name);
  return f;
}

/* ---------------------------------------------------------------- attribute values */

static IrLit lit_int(int64_t v) {
  IrLit l = {0};
  l.kind = IR_LIT_INT;
  l.neg = v < 0;
  l.mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  return l;
}

static IrLit lit_bool(bool b) {
  IrLit l = {0};
  l.kind = IR_LIT_BOOL;
  l.suffixed = true;
  l.dtype = IR_DTYPE(IR_DT_BOOL, 1);
  l.b = b;
  return l;
}

static IrAttrVal val_lit(IrLit l) { return (IrAttrVal){.kind = IR_ATTR_LIT, .lit = l}; }

static bool text_double(const char *s, size_t n, double *out) {
  if (!n || !(is_digit(s[0]) || s[0] == '-' || s[0] == '+' || s[0] == '.' || s[0] == 'i' || s[0] == 'n' ||
              s[0] == 'I' || s[0] == 'N'))
    return false;
  char *end;
  errno = 0;
  *out = strtod(s, &end); /* s is NUL-terminated (a decoded JSON string) */
  return end == s + n;
}

/* A POD field written as text (kind I, F, B, S or D). */
static IrAttrVal pod_value(Graph *G, int64_t node, const char *name, char kind, const IrJson *f) {
  int64_t i;
  double d;
  switch (kind) {
  case 'I':
    if (!parse_i64(f->s, f->len, &i)) break;
    return val_lit(lit_int(i));
  case 'F': {
    if (!text_double(f->s, f->len, &d)) break;
    IrLit l = {0};
    l.kind = IR_LIT_FLOAT;
    l.f = d;
    return val_lit(l);
  }
  case 'B':
    if (f->len != 1 || (f->s[0] != '0' && f->s[0] != '1')) break;
    return val_lit(lit_bool(f->s[0] == '1'));
  default: return (IrAttrVal){.kind = IR_ATTR_STR, .str = f->s, .len = f->len};
  }
  static const char *const want[] = {['I'] = "an integer", ['F'] = "a number", ['B'] = "0 or 1"};
  fail(G->R, f->off, "the metadata's nodes[%lld] (%s) has `%s` = \"%s\", which should be %s", (long long)node,
       node_at(G, node)->type_key, name, f->s, want[(unsigned char)kind]);
}

/* The attribute value node i stands for: IntImm, FloatImm, runtime.String, Array of them, None
 * (node 0), or a reference to an entry of the root map; false for any other node. Results are
 * kept per node, so shared subgraphs cost once; a cycle is an error. */
static bool node_value(Graph *G, int64_t i, int depth, IrAttrVal *out) {
  Reader *R = G->R;
  Node *nd = node_at(G, i);
  if (i == 0) {
    *out = (IrAttrVal){.kind = IR_ATTR_NONE};
    return true;
  }
  if (nd->state == CONVERTED) {
    *out = nd->val;
    return true;
  }
  if (nd->state == NO_VALUE) return false;
  if (nd->state == CONVERTING) fail(R, nd->j->off, "the metadata's node graph has a cycle through nodes[%lld]", (long long)i);
  if (depth > MAX_ATTR_DEPTH) fail(R, nd->j->off, "an attribute value in the metadata nests deeper than %d levels", MAX_ATTR_DEPTH);
  nd->state = CONVERTING;
  IrAttrVal v = {0};
  bool ok = true;
  const char *tk = nd->type_key;
  if (!strcmp(tk, "IntImm")) {
    const IrJson *dt = need_field(G, i, "dtype"), *val = need_field(G, i, "value");
    int64_t x;
    if (!parse_i64(val->s, val->len, &x))
      fail(R, val->off, "the metadata's nodes[%lld] (IntImm) has the value \"%s\", not an integer", (long long)i, val->s);
    v = val_lit(!strcmp(dt->s, "bool") ? lit_bool(x != 0) : lit_int(x));
  } else if (!strcmp(tk, "FloatImm")) {
    const IrJson *val = need_field(G, i, "value");
    IrLit l = {0};
    l.kind = IR_LIT_FLOAT;
    if (!text_double(val->s, val->len, &l.f))
      fail(R, val->off, "the metadata's nodes[%lld] (FloatImm) has the value \"%s\", not a number", (long long)i, val->s);
    v = val_lit(l);
  } else if (!strcmp(tk, "runtime.String")) {
    v = (IrAttrVal){.kind = IR_ATTR_STR, .str = nd->repr ? nd->repr : "", .len = nd->repr ? nd->repr_len : 0};
  } else if (!strcmp(tk, "Array")) {
    int n = nd->data ? nd->data->n : 0;
    v = (IrAttrVal){.kind = IR_ATTR_LIST, .n = n, .items = IR_NEW_ARRAY(IrAttrVal, n)};
    for (int k = 0; k < n && ok; k++) ok = node_value(G, data_index(nd, k), depth + 1, &v.items[k]);
  } else if (nd->meta_kind) {
    v = (IrAttrVal){.kind = IR_ATTR_META, .meta_kind = nd->meta_kind, .meta_index = nd->meta_index};
  } else {
    ok = false;
  }
  nd->state = ok ? CONVERTED : NO_VALUE;
  nd->val = v;
  *out = v;
  return ok;
}

/* An attributes node's fields, in the schema's order. Fields the node lacks are left out (the
 * operator's default applies), and so are fields holding objects that are not values. */
static void attrs_entry(Graph *G, int64_t i, const char *schema, IrMetaEntry *e) {
  IR_VEC(IrAttr) out = {0};
  for (const char *p = schema; *p;) {
    while (*p == ' ') p++;
    const char *colon = strchr(p, ':');
    char name[64];
    size_t n = (size_t)(colon - p);
    memcpy(name, p, n);
    name[n] = 0;
    char kind = colon[1];
    p = colon + 2;
    const IrJson *f = field(G, i, name);
    if (!f) continue;
    IrAttr a = {.key = ir_sym(name)};
    if (kind == 'N') {
      int64_t ref = index_of(f->s, f->len, G->n);
      if (ref < 0)
        fail(G->R, f->off, "the metadata's nodes[%lld] (%s) has `%s` = \"%s\", which should be a node's index (0 to %d)",
             (long long)i, node_at(G, i)->type_key, name, f->s, G->n - 1);
      if (!node_value(G, ref, 0, &a.val)) continue;
    } else {
      a.val = pod_value(G, i, name, kind, f);
    }
    IR_VEC_PUSH(out, a);
  }
  e->kind = IR_META_ATTRS;
  e->nattrs = out.len;
  e->attrs = out.items;
}

static void read_tensors(Graph *G, const IrJson *arrays) {
  Reader *R = G->R;
  if (!arrays) return;
  if (arrays->kind != IR_JSON_ARRAY) fail(R, arrays->off, "the metadata's b64ndarrays is not an array");
  G->ntensors = arrays->n;
  G->tensors = IR_NEW_ARRAY(IrMetaTensor, arrays->n);
  for (int k = 0; k < arrays->n; k++) {
    const IrJson *s = arrays->items[k];
    if (s->kind != IR_JSON_STRING) fail(R, s->off, "the metadata's b64ndarrays[%d] is not a string", k);
    const char *why;
    size_t len;
    uint8_t *bytes = b64_decode(s->s, s->len, &len, &why);
    if (bytes) why = ndarray_read(bytes, len, &G->tensors[k]);
    if (why) fail(R, s->off, "b64ndarrays[%d] is not a TVM NDArray: %s", k, why);
  }
}

static void read_entry(Graph *G, int64_t i, IrMetaEntry *e) {
  Reader *R = G->R;
  Node *nd = node_at(G, i);
  e->type_key = nd->type_key;
  const char *schema;
  if (!strcmp(nd->type_key, "relay.Constant")) {
    const IrJson *f = need_field(G, i, "data");
    int64_t t = index_of(f->s, f->len, G->ntensors);
    if (t < 0)
      fail(R, f->off, "the metadata's nodes[%lld] (relay.Constant) has data \"%s\", not an index of b64ndarrays (it has %d)",
           (long long)i, f->s, G->ntensors);
    e->kind = IR_META_CONSTANT;
    e->tensor = G->tensors[t];
  } else if ((schema = schema_of(nd->type_key))) {
    attrs_entry(G, i, schema, e);
  } else if (!strcmp(nd->type_key, "tir.Var") || !strcmp(nd->type_key, "tir.SizeVar")) {
    e->kind = IR_META_VAR;
    e->var = ir_sym(need_field(G, i, "name")->s); /* made an identifier, and distinct, by distinct_vars */
  } else if (!strcmp(nd->type_key, "IntImm")) {
    const IrJson *val = need_field(G, i, "value");
    if (!parse_i64(val->s, val->len, &e->value))
      fail(R, val->off, "the metadata's nodes[%lld] (IntImm) has the value \"%s\", not an integer", (long long)i, val->s);
    e->kind = IR_META_INT;
  } else {
    e->kind = IR_META_OTHER;
  }
}

/* A variable's name as relay writes a shape variable: an identifier ([A-Za-z_][A-Za-z0-9_]*, other
 * bytes made `_`) that reads back as one (not a keyword, `Any`, `meta`, nor a float's `inff`/`nanf`). */
static const char *var_identifier(const char *name) {
  static const char *const reserved[] = {"def", "data", "type", "fn", "let", "if", "else", "match", "case", "Any", "meta"};
  size_t n = strlen(name);
  if (!n) return "dim";
  char *s = IR_NEW_ARRAY(char, n + 3);
  size_t k = 0;
  if (is_digit(name[0])) s[k++] = '_';
  for (size_t i = 0; i < n; i++) {
    char c = name[i];
    s[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ? c : '_';
  }
  bool clash = (k > 3 && (!strncmp(s, "inf", 3) || !strncmp(s, "nan", 3)));
  for (size_t r = 0; r < sizeof reserved / sizeof reserved[0]; r++) clash = clash || !strcmp(s, reserved[r]);
  if (clash) s[k++] = '_';
  s[k] = 0;
  return s;
}

/* The section's variables get distinct identifiers, in the root Map's order: TVM tells two
 * variables apart by identity, not by name, so a second `n` is `n_1` (then `n_2`, ...). */
static void distinct_vars(IrMeta *meta) {
  IrSymMap taken = {0}, next = {0}; /* the names given; per name, the next suffix to try */
  for (int k = 0; k < meta->nkinds; k++)
    for (int e = 0; e < meta->kinds[k].n; e++) {
      IrMetaEntry *x = &meta->kinds[k].items[e];
      if (x->kind != IR_META_VAR) continue;
      const char *base = var_identifier(x->var->name);
      Sym b = ir_sym(base), s = b;
      intptr_t suffix = (intptr_t)ir_symmap_get(&next, b);
      while (ir_symmap_get(&taken, s)) s = ir_sym(ir_printf("%s_%lld", base, (long long)++suffix));
      ir_symmap_put(&next, b, (void *)suffix);
      ir_symmap_put(&taken, s, x);
      x->var = s;
    }
}

/* The root Map: a kind's name to the Array of its entries. TVM writes a map with string keys as
 * "keys" beside "data"; older versions alternate key nodes (runtime.String) and values in "data". */
static IrMeta *read_root(Graph *G, int64_t root) {
  Reader *R = G->R;
  Node *m = node_at(G, root);
  if (strcmp(m->type_key, "Map"))
    fail(R, m->j->off, "the metadata's root, nodes[%lld], is a %s, not a Map", (long long)root,
         *m->type_key ? m->type_key : "null node");
  int nd = m->data ? m->data->n : 0;
  int nk = m->keys ? m->keys->n : nd / 2;
  if (m->keys ? nk != nd : nd % 2)
    fail(R, m->j->off, "the metadata's root Map has %d keys for %d values", m->keys ? nk : (nd + 1) / 2, m->keys ? nd : nd / 2);
  IrMeta *meta = IR_NEW(IrMeta);
  meta->nkinds = nk;
  meta->kinds = IR_NEW_ARRAY(IrMetaKindList, nk);
  int64_t *lists = IR_NEW_ARRAY(int64_t, nk);
  for (int k = 0; k < nk; k++) {
    IrMetaKindList *kl = &meta->kinds[k];
    if (m->keys) {
      kl->key = m->keys->items[k]->s;
      lists[k] = data_index(m, k);
    } else {
      Node *key = node_at(G, data_index(m, 2 * k));
      if (strcmp(key->type_key, "runtime.String"))
        fail(R, key->j->off, "the metadata's root Map has a key that is a %s, not a string",
             *key->type_key ? key->type_key : "null node");
      kl->key = key->repr ? key->repr : "";
      lists[k] = data_index(m, 2 * k + 1);
    }
    Node *arr = node_at(G, lists[k]);
    if (strcmp(arr->type_key, "Array"))
      fail(R, arr->j->off, "the metadata's `%s` is a %s, not an Array", kl->key, *arr->type_key ? arr->type_key : "null node");
    kl->n = arr->data ? arr->data->n : 0;
    kl->items = IR_NEW_ARRAY(IrMetaEntry, kl->n);
    for (int e = 0; e < kl->n; e++) {
      Node *x = node_at(G, data_index(arr, e));
      if (!*x->type_key) fail(R, arr->data->items[e]->off, "the metadata's `%s`[%d] is the null node", kl->key, e);
      if (!x->meta_kind) {
        x->meta_kind = ir_sym(kl->key);
        x->meta_index = e;
      }
    }
  }
  for (int k = 0; k < nk; k++) {
    IrMetaKindList *kl = &meta->kinds[k];
    Node *arr = node_at(G, lists[k]);
    for (int e = 0; e < kl->n; e++) read_entry(G, data_index(arr, e), &kl->items[e]);
  }
  distinct_vars(meta);
  return meta;
}

/* ---------------------------------------------------------------- entry points */

static IrMeta *read_section(Reader *R) {
  IrJsonError err;
  IrJson *top = ir_json_parse(R->text, R->len, MAX_JSON_DEPTH, &err);
  if (!top) {
    R->cut_short = err.cut_short;
    fail(R, err.off, "the metadata section is not valid JSON: %s", err.message);
  }
  if (top->kind != IR_JSON_OBJECT)
    fail(R, top->off, "the metadata section is %s, not an object (TVM's SaveJSON writes one)", ir_json_kind_name(top->kind));
  const IrJson *nodes = ir_json_get(top, "nodes"), *root = ir_json_get(top, "root");
  if (!nodes) fail(R, top->off, "the metadata section has no \"nodes\"");
  if (nodes->kind != IR_JSON_ARRAY) fail(R, nodes->off, "the metadata's \"nodes\" is %s, not an array", ir_json_kind_name(nodes->kind));
  if (!root) fail(R, top->off, "the metadata section has no \"root\"");
  int64_t r = root->kind == IR_JSON_NUMBER && root->integer ? index_of(root->s, root->len, nodes->n) : -1;
  if (r < 0) fail(R, root->off, "the metadata's \"root\" is not a node's index (it has %d nodes)", nodes->n);
  Graph *G = IR_NEW(Graph);
  G->R = R;
  G->n = nodes->n;
  G->nodes = IR_NEW_ARRAY(Node, nodes->n);
  for (int i = 0; i < nodes->n; i++) {
    G->nodes[i].j = nodes->items[i];
    check_node(G, i);
  }
  read_tensors(G, ir_json_get(top, "b64ndarrays"));
  IrMeta *meta = read_root(G, r);
  const IrJson *attrs = ir_json_get(top, "attrs"), *version = attrs && attrs->kind == IR_JSON_OBJECT ? ir_json_get(attrs, "tvm_version") : NULL;
  if (version && version->kind == IR_JSON_STRING) meta->tvm_version = version->s;
  return meta;
}

IrMeta *ir_meta_parse(const char *text, size_t len, const char **error, size_t *error_off, bool *cut_short) {
  Reader *R = IR_NEW(Reader);
  R->text = text;
  R->len = len;
  if (cut_short) *cut_short = false;
  if (setjmp(R->fail)) {
    *error = R->error;
    *error_off = R->error_off <= len ? R->error_off : len;
    if (cut_short) *cut_short = R->cut_short;
    return NULL;
  }
  IrMeta *meta = read_section(R);
  *error = NULL;
  *error_off = 0;
  return meta;
}

const IrMetaEntry *ir_meta_get(const IrMeta *m, const char *key, int64_t i) {
  if (!m) return NULL;
  for (int k = 0; k < m->nkinds; k++)
    if (!strcmp(m->kinds[k].key, key)) return i >= 0 && i < m->kinds[k].n ? &m->kinds[k].items[i] : NULL;
  return NULL;
}
