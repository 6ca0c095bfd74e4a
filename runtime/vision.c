/* TVM's detection operators (vision.*), computing what TVM v0.14's topi computes
 * (python/tvm/topi/vision/: reorg.py, ssd/multibox.py, nms.py, rcnn/roi_align.py, rcnn/roi_pool.py;
 * the numpy references in topi/testing). Float arithmetic is done in double and rounded to the
 * result's dtype once; counts and indices are int32. Rows that topi leaves unwritten (past the
 * valid count of multibox_transform_loc) are -1 here, as get_valid_counts fills them. */
#include "runtime/kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const IrDType I32 = {IR_DT_INT, 32, 1};

/* ---------------------------------------------------------------- helpers */

/* A tensor argument's values as doubles. */
typedef struct Arr {
  RtOperand o;
  double *v;
} Arr;

static Arr arr(RtValue val) {
  Arr a;
  rt_operand(&a.o, val);
  a.v = rt_alloc_array(a.o.count, sizeof(double));
  for (int64_t i = 0; i < a.o.count; i++) {
    rt_poll_every(NULL, i);
    a.v[i] = rt_scalar_f64(rt_elem_get(a.o.data, a.o.dt, i));
  }
  return a;
}

static void need_rank(const RtSite *site, IrOpId op, const Arr *a, int rank, const char *what) {
  if (a->o.rank != rank)
    rt_error(site->expr, "%s: %s has shape %s, but it should have rank %d", ir_ops[op].name, what,
             rt_shape_text(a->o.rank, a->o.shape), rank);
}

static void *result(RtResult *r, IrDType dt, int rank, const int64_t *shape) { return rt_result_init(r, dt, rank, shape); }

static inline void setf(void *d, IrDType dt, int64_t i, double x) { rt_elem_set(d, dt, i, rt_scalar_from_f64(dt, x)); }
static inline void seti(void *d, int64_t i, int64_t x) { ((int32_t *)d)[i] = (int32_t)x; }

/* A float-list attribute as written at the call (numbers or a list of them), or dflt (n values). */
static int floats(const RtSite *site, const char *name, int n, const double *dflt, double **out) {
  const IrExpr *e = site->expr;
  if (e && e->kind == IR_EXPR_CALL)
    for (int i = 0; i < e->u.call.nattrs; i++) {
      const IrAttr *a = &e->u.call.attrs[i];
      if (strcmp(a->key->name, name)) continue;
      const IrAttrVal *v = &a->val;
      int m = v->kind == IR_ATTR_LIST ? v->n : 1;
      double *p = rt_alloc_array(m, sizeof(double));
      for (int k = 0; k < m; k++) {
        const IrAttrVal *x = v->kind == IR_ATTR_LIST ? &v->items[k] : v;
        if (x->kind != IR_ATTR_LIT || x->lit.kind == IR_LIT_BOOL)
          rt_error(site->expr, "the attribute `%s` is not a list of numbers", name);
        p[k] = x->lit.kind == IR_LIT_FLOAT ? x->lit.f : x->lit.neg ? -(double)x->lit.mag : (double)x->lit.mag;
      }
      *out = p;
      return m;
    }
  double *p = rt_alloc_array(n, sizeof(double));
  memcpy(p, dflt, sizeof(double) * (size_t)n);
  *out = p;
  return n;
}

/* ---------------------------------------------------------------- yolo_reorg */

/* topi.vision.reorg: output element (b, k, j, i) over the (b, c*s*s, h/s, w/s) result is the input
 * element at flat index w2 + w*s*(h2 + h*s*(c2 + c/(s*s)... )) of reorg_python. */
static RtValue yolo_reorg(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand x;
  rt_operand(&x, args[0]);
  if (x.rank != 4) rt_error(site->expr, "%s: the data %s is not 4-D", ir_ops[op].name, rt_shape_text(x.rank, x.shape));
  int64_t s = ir_attr_int(site->attrs, IR_A_STRIDE, 1);
  if (s < 1) rt_error(site->expr, "%s: stride=%lld is not positive", ir_ops[op].name, (long long)s);
  int64_t B = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  int64_t oc = rt_mul_sat(C, rt_mul_sat(s, s)), oh = H / s, ow = W / s;
  int64_t shape[4] = {B, oc, oh, ow};
  RtResult r;
  void *out = result(&r, x.dt, 4, shape);
  if (x.count == 0) return rt_result_value(&r); /* without walking outer axes that may be huge */
  /* reorg_python: walks the input's (b, k, j, i) and writes the result's elements in that order,
   * reading the input at a flat index built from out_c = c / stride^2 and the input's sizes. */
  int64_t ss = rt_mul_sat(s, s), out_c = C / ss;
  if (out_c == 0 || C % ss || H % s || W % s)
    rt_error(site->expr, "%s: the data %s does not reorganize by stride %lld (channels a multiple of %lld, height and width of %lld)",
             ir_ops[op].name, rt_shape_text(4, x.shape), (long long)s, (long long)ss, (long long)s);
  int64_t cnt = 0;
  for (int64_t b = 0; b < B; b++)
    for (int64_t k = 0; k < C; k++)
      for (int64_t j = 0; j < H; j++)
        for (int64_t i = 0; i < W; i++) {
          int64_t c2 = k % out_c, off = k / out_c;
          int64_t w2 = i * s + off % s, h2 = j * s + off / s;
          int64_t idx = w2 + W * s * (h2 + H * s * (c2 + out_c * b));
          if (idx < 0 || idx >= x.count) rt_error(site->expr, "%s: index out of range", ir_ops[op].name);
          rt_poll_every(site, cnt);
          rt_elem_set(out, x.dt, cnt++, rt_elem_get(x.data, x.dt, idx));
        }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- multibox_prior */

static RtValue multibox_prior(IrOpId op, const RtValue *args, const RtSite *site) {
  RtOperand x;
  rt_operand(&x, args[0]);
  if (x.rank != 4) rt_error(site->expr, "%s: the data %s is not 4-D", ir_ops[op].name, rt_shape_text(x.rank, x.shape));
  static const double d_sizes[] = {1}, d_ratios[] = {1}, d_steps[] = {-1, -1}, d_offsets[] = {0.5, 0.5};
  double *sizes, *ratios, *steps, *offsets;
  int ns = floats(site, "sizes", 1, d_sizes, &sizes), nr = floats(site, "ratios", 1, d_ratios, &ratios);
  int nst = floats(site, "steps", 2, d_steps, &steps), no = floats(site, "offsets", 2, d_offsets, &offsets);
  if (ns < 1 || nr < 1 || nst != 2 || no != 2)
    rt_error(site->expr, "%s: needs sizes and ratios, and (y, x) steps and offsets", ir_ops[op].name);
  bool clip = ir_attr_bool(site->attrs, IR_A_CLIP, false);
  int64_t H = x.shape[2], W = x.shape[3], per = ns + nr - 1;
  int64_t shape[3] = {1, rt_mul_sat(rt_mul_sat(H, W), per), 4};
  RtResult r;
  void *out = result(&r, x.dt, 3, shape);
  double sh = steps[0] > 0 ? steps[0] : 1.0 / (double)H, sw = steps[1] > 0 ? steps[1] : 1.0 / (double)W;
  int64_t tick = 0;
  for (int64_t i = 0; i < H; i++) {
    double ch = (i + offsets[0]) * sh;
    for (int64_t j = 0; j < W; j++) {
      double cw = (j + offsets[1]) * sw;
      RT_TICK();
      for (int64_t k = 0; k < per; k++) {
        RT_TICK();
        double w, h;
        if (k < ns) {
          w = sizes[k] * H / W / 2.0;
          h = sizes[k] / 2.0;
        } else {
          double q = sqrt(ratios[k - ns + 1]);
          w = sizes[0] * H / W * q / 2.0;
          h = sizes[0] / q / 2.0;
        }
        int64_t c = (i * W + j) * per + k;
        double v[4] = {cw - w, ch - h, cw + w, ch + h};
        for (int t = 0; t < 4; t++) setf(out, x.dt, c * 4 + t, clip ? fmin(fmax(v[t], 0), 1) : v[t]);
      }
    }
  }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- multibox_transform_loc */

static RtValue multibox_transform_loc(IrOpId op, const RtValue *args, const RtSite *site) {
  Arr cls = arr(args[0]), loc = arr(args[1]), anc = arr(args[2]);
  need_rank(site, op, &cls, 3, "the class probabilities");
  need_rank(site, op, &loc, 2, "the location predictions");
  need_rank(site, op, &anc, 3, "the anchors");
  int64_t B = cls.o.shape[0], C = cls.o.shape[1], A = cls.o.shape[2];
  if (anc.o.shape[1] != A || anc.o.shape[2] != 4 || loc.o.shape[0] != B || loc.o.shape[1] != A * 4 || anc.o.shape[0] < 1)
    rt_error(site->expr, "%s: class probabilities %s, location predictions %s and anchors %s do not agree",
             ir_ops[op].name, rt_shape_text(3, cls.o.shape), rt_shape_text(2, loc.o.shape),
             rt_shape_text(3, anc.o.shape));
  const IrOpAttrs *at = site->attrs;
  bool clip = ir_attr_bool(at, IR_A_CLIP, true), keep = ir_attr_bool(at, IR_A_KEEP_BACKGROUND, false);
  double thr = (float)ir_attr_float(at, IR_A_THRESHOLD, 0.01);
  static const double d_var[] = {0.1, 0.1, 0.2, 0.2};
  double *var;
  if (floats(site, "variances", 4, d_var, &var) != 4)
    rt_error(site->expr, "%s: variances needs 4 values", ir_ops[op].name);
  for (int t = 0; t < 4; t++) var[t] = (float)var[t];
  int64_t s0[3] = {B, A, 6}, s1[1] = {B};
  RtResult r0, r1;
  void *out = result(&r0, cls.o.dt, 3, s0);
  void *cnt = result(&r1, I32, 1, s1);
  int64_t tick = 0;
  for (int64_t i = 0; i < B; i++) {
    int64_t n = 0;
    for (int64_t j = 0; j < A; j++) {
      double score = -1;
      int64_t id = 0;
      RT_TICK();
      for (int64_t k = keep ? 0 : 1; k < C; k++) {
        RT_TICK();
        double t = cls.v[(i * C + k) * A + j];
        if (t > score) id = k;
        score = fmax(t, score);
      }
      if (id > 0 && score < thr) id = 0;
      if (!(keep || id > 0)) continue;
      const double *a = &anc.v[j * 4], *p = &loc.v[i * A * 4 + j * 4];
      double aw = a[2] - a[0], ah = a[3] - a[1], ax = (a[0] + a[2]) / 2, ay = (a[1] + a[3]) / 2;
      double ox = p[0] * var[0] * aw + ax, oy = p[1] * var[1] * ah + ay;
      double ow = exp(p[2] * var[2]) * aw / 2, oh = exp(p[3] * var[3]) * ah / 2;
      double v[6] = {keep ? (double)id : (double)id - 1, score, ox - ow, oy - oh, ox + ow, oy + oh};
      for (int t = 2; t < 6 && clip; t++) v[t] = fmax(0, fmin(1, v[t]));
      for (int t = 0; t < 6; t++) setf(out, cls.o.dt, (i * A + n) * 6 + t, v[t]);
      n++;
    }
    for (int64_t j = n; j < A; j++) {
      RT_TICK();
      for (int t = 0; t < 6; t++) setf(out, cls.o.dt, (i * A + j) * 6 + t, -1);
    }
    seti(cnt, i, n);
  }
  RtValue f[2] = {rt_result_value(&r0), rt_result_value(&r1)};
  return rt_tuple_value(2, f);
}

/* ---------------------------------------------------------------- get_valid_counts */

/* The first element of a scalar-like argument (a threshold, a size). */
static double first(const RtSite *site, IrOpId op, RtValue v, const char *what) {
  RtOperand o;
  rt_operand(&o, v);
  if (o.count < 1) rt_error(site->expr, "%s: %s is empty", ir_ops[op].name, what);
  return rt_scalar_f64(rt_elem_get(o.data, o.dt, 0));
}

static int64_t box_index(const RtSite *site, IrOpId op, int64_t idx, int64_t k, const char *name) {
  int64_t i = idx;
  if (i < 0 || i >= k)
    rt_error(site->expr, "%s: %s=%lld is out of range for boxes of %lld values", ir_ops[op].name, name, (long long)idx,
             (long long)k);
  return i;
}

static RtValue get_valid_counts(IrOpId op, const RtValue *args, const RtSite *site) {
  Arr d = arr(args[0]);
  need_rank(site, op, &d, 3, "the data");
  double thr = first(site, op, args[1], "the score threshold");
  if (d.o.dt.code == IR_DT_FLOAT && d.o.dt.bits == 32) thr = (float)thr;
  const IrOpAttrs *at = site->attrs;
  int64_t B = d.o.shape[0], N = d.o.shape[1], K = d.o.shape[2];
  int64_t id_index = ir_attr_int(at, IR_A_ID_INDEX, 0);
  int64_t si = box_index(site, op, ir_attr_int(at, IR_A_SCORE_INDEX, 1), K, "score_index");
  if (id_index >= 0) box_index(site, op, id_index, K, "id_index");
  int64_t s1[1] = {B}, s3[2] = {B, N};
  RtResult r0, r1, r2;
  void *cnt = result(&r0, I32, 1, s1);
  void *out = result(&r1, d.o.dt, 3, d.o.shape);
  void *ind = result(&r2, I32, 2, s3);
  int64_t tick = 0;
  for (int64_t i = 0; i < B; i++) {
    int64_t n = 0;
    for (int64_t j = 0; j < N; j++) {
      const double *row = &d.v[(i * N + j) * K];
      RT_TICK();
      if (row[si] > thr && (id_index < 0 || row[id_index] >= 0)) {
        for (int64_t k = 0; k < K; k++) {
          RT_TICK();
          setf(out, d.o.dt, (i * N + n) * K + k, row[k]);
        }
        seti(ind, i * N + n, j);
        n++;
      }
    }
    for (int64_t j = n; j < N; j++) {
      RT_TICK();
      for (int64_t k = 0; k < K; k++) {
        RT_TICK();
        setf(out, d.o.dt, (i * N + j) * K + k, -1);
      }
      seti(ind, i * N + j, -1);
    }
    seti(cnt, i, n);
  }
  RtValue f[3] = {rt_result_value(&r0), rt_result_value(&r1), rt_result_value(&r2)};
  return rt_tuple_value(3, f);
}

/* ---------------------------------------------------------------- non_max_suppression */

typedef struct SortKey {
  double score;
  int64_t j;
} SortKey;

/* Descending scores, ties by index; NaN above every number (argsort's order), so that the order is total
 * (any sort gives the same result). */
static bool before_key(const SortKey *a, const SortKey *b) {
  bool na = isnan(a->score), nb = isnan(b->score);
  if (na != nb) return na;
  if (a->score != b->score && !na) return a->score > b->score;
  return a->j < b->j;
}

#define SCORE_BEFORE(ctx, x, y) before_key(&(x), &(y))
RT_MERGE_SORT(merge_keys, SortKey, void, SCORE_BEFORE)

/* keys[0..n) in that order (kernel.h's merge sort: qsort cannot be interrupted). */
static void sort_keys(const RtSite *site, SortKey *keys, int64_t n) {
  if (n < 2) return;
  merge_keys(site, keys, rt_alloc_array(n, sizeof(SortKey)), n, NULL);
}

/* topi.vision.non_max_suppression (hybrid_nms, then hybrid_rearrange_indices_out or
 * hybrid_rearrange_box_out). */
static RtValue nms(IrOpId op, const RtValue *args, const RtSite *site) {
  Arr d = arr(args[0]), vc = arr(args[1]), ix = arr(args[2]);
  need_rank(site, op, &d, 3, "the data");
  need_rank(site, op, &vc, 1, "the valid count");
  int64_t B = d.o.shape[0], N = d.o.shape[1], K = d.o.shape[2];
  if (vc.o.shape[0] != B)
    rt_error(site->expr, "%s: the valid count %s does not have one value for each of the %lld batches", ir_ops[op].name,
             rt_shape_text(1, vc.o.shape), (long long)B);
  double max_out = first(site, op, args[3], "max_output_size"), iou_thr = first(site, op, args[4], "iou_threshold");
  const IrOpAttrs *at = site->attrs;
  bool force = ir_attr_bool(at, IR_A_FORCE_SUPPRESS, false), ret_ind = ir_attr_bool(at, IR_A_RETURN_INDICES, true);
  bool to_bottom = ir_attr_bool(at, IR_A_INVALID_TO_BOTTOM, false);
  int64_t top_k = ir_attr_int(at, IR_A_TOP_K, -1), id_index = ir_attr_int(at, IR_A_ID_INDEX, 0);
  int64_t si = box_index(site, op, ir_attr_int(at, IR_A_SCORE_INDEX, 1), K, "score_index");
  int64_t cs = ir_attr_int(at, IR_A_COORD_START, 2);
  if (cs < 0 || cs + 4 > K)
    rt_error(site->expr, "%s: coord_start=%lld leaves no 4 coordinates in boxes of %lld values", ir_ops[op].name,
             (long long)cs, (long long)K);
  if (id_index >= 0) box_index(site, op, id_index, K, "id_index");
  if (ret_ind && (ix.o.rank != 2 || ix.o.shape[0] != B || ix.o.shape[1] != N))
    rt_error(site->expr, "%s: the indices %s are not (batch, anchors) %s", ir_ops[op].name,
             rt_shape_text(ix.o.rank, ix.o.shape), rt_shape_text(2, (int64_t[]){B, N}));
  double *o = rt_alloc_array(rt_mul_sat(B * N, K), sizeof(double));
  int64_t *bi = rt_alloc_array(B * N, sizeof(int64_t));
  SortKey *keys = rt_alloc_array(N, sizeof(SortKey));
  int64_t tick = 0, left = 0;
  for (int64_t i = 0; i < B; i++) {
    double vd = vc.v[i];
    if (!(vd >= 0 && vd <= (double)N))
      rt_error(site->expr, "%s: valid count %g of batch %lld is not between 0 and the %lld anchors", ir_ops[op].name,
               vd, (long long)i, (long long)N);
    int64_t v = rt_f2i64(vd);
    if (v < 0 || v > N) v = 0; /* cannot be (vd was checked); says so to the compiler's size analysis */
    double *O = &o[i * N * K];
    const double *D = &d.v[i * N * K];
    int64_t *BI = &bi[i * N];
    if (iou_thr > 0) {
      for (int64_t j = 0; j < v; j++) {
        RT_TICK();
        keys[j] = (SortKey){D[j * K + si], j};
      }
      sort_keys(site, keys, v);
      int64_t nkeep = top_k > 0 && top_k < v ? top_k : v;
      for (int64_t j = 0; j < nkeep; j++) {
        rt_poll_work(site, &left, K);
        rt_copy(site, &O[j * K], &D[keys[j].j * K], sizeof(double) * (size_t)K);
        BI[j] = keys[j].j;
      }
      for (int64_t j = nkeep; j < v; j++) {
        rt_poll_work(site, &left, K);
        for (int64_t k = 0; k < K; k++) O[j * K + k] = -1;
        BI[j] = -1;
      }
      int64_t nvalid = 0;
      for (int64_t j = 0; j < v; j++) {
        double *a = &O[j * K];
        rt_poll_work(site, &left, K);
        if ((double)nvalid == max_out) {
          for (int64_t k = 0; k < K; k++) a[k] = -1;
          BI[j] = -1;
        } else if (a[si] > 0) {
          bool valid = true;
          double al = fmin(a[cs], a[cs + 2]), aT = fmin(a[cs + 1], a[cs + 3]);
          double ar = fmax(a[cs], a[cs + 2]), ab = fmax(a[cs + 1], a[cs + 3]);
          for (int64_t k = 0; k < j && valid; k++) {
            RT_TICK();
            double *b = &O[k * K];
            if (!(b[si] > 0 && (id_index < 0 || b[id_index] >= 0))) continue;
            if (!force && !(id_index < 0 || a[id_index] == b[id_index])) continue;
            double bl = fmin(b[cs], b[cs + 2]), bT = fmin(b[cs + 1], b[cs + 3]);
            double br = fmax(b[cs], b[cs + 2]), bb = fmax(b[cs + 1], b[cs + 3]);
            double w = fmax(0, fmin(ar, br) - fmax(al, bl)), h = fmax(0, fmin(ab, bb) - fmax(aT, bT));
            double area = h * w, u = (ar - al) * (ab - aT) + (br - bl) * (bb - bT) - area;
            double iou = u <= 0 ? 0 : area / u;
            if (iou >= iou_thr) valid = false;
          }
          if (!valid) {
            for (int64_t k = 0; k < K; k++) a[k] = -1;
            BI[j] = -1;
          } else nvalid++;
        }
      }
    } else {
      rt_copy(site, O, D, sizeof(double) * (size_t)(v * K));
      for (int64_t j = 0; j < v; j++) {
        RT_TICK();
        BI[j] = j;
      }
    }
    for (int64_t j = v; j < N; j++) {
      rt_poll_work(site, &left, K);
      for (int64_t k = 0; k < K; k++) O[j * K + k] = -1;
      BI[j] = -1;
    }
    if (ret_ind)
      for (int64_t j = 0; j < v; j++) {
        RT_TICK();
        if (BI[j] >= 0) BI[j] = rt_f2i64(ix.v[i * N + BI[j]]);
      }
  }
  if (ret_ind) {
    int64_t s0[2] = {B, N}, s1[2] = {B, 1};
    RtResult r0, r1;
    void *out = result(&r0, I32, 2, s0);
    void *cnt = result(&r1, I32, 2, s1);
    for (int64_t i = 0; i < B; i++) {
      int64_t n = 0;
      for (int64_t j = 0; j < N; j++) {
        RT_TICK();
        int64_t x = bi[i * N + j];
        /* TVM's: an index beyond the anchors also adds a 0 (writes past the row are dropped) */
        if (x >= 0 && n < N) seti(out, i * N + n, x);
        if (x >= 0) n++;
        if ((x > N || x < -N) && n < N) seti(out, i * N + n, 0);
        if (x > N || x < -N) n++;
        if (j >= n) seti(out, i * N + j, -1);
      }
      seti(cnt, i, n);
    }
    RtValue f[2] = {rt_result_value(&r0), rt_result_value(&r1)};
    return rt_tuple_value(2, f);
  }
  RtResult r;
  void *out = result(&r, d.o.dt, 3, d.o.shape);
  for (int64_t i = 0; i < B; i++) {
    int64_t n = 0;
    for (int64_t j = 0; j < N; j++) {
      const double *row = &o[(i * N + j) * K];
      rt_poll_work(site, &left, 2 * K);
      if (!to_bottom) {
        for (int64_t k = 0; k < K; k++) setf(out, d.o.dt, (i * N + j) * K + k, row[k]);
        continue;
      }
      if (row[0] >= 0) {
        for (int64_t k = 0; k < K; k++) setf(out, d.o.dt, (i * N + n) * K + k, row[k]);
        n++;
      }
      if (j >= n)
        for (int64_t k = 0; k < K; k++) setf(out, d.o.dt, (i * N + j) * K + k, -1);
    }
  }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- all_class_non_max_suppression */

static double iou4(const double *a, const double *b) {
  double al = fmin(a[0], a[2]), aT = fmin(a[1], a[3]), ar = fmax(a[0], a[2]), ab = fmax(a[1], a[3]);
  double bl = fmin(b[0], b[2]), bT = fmin(b[1], b[3]), br = fmax(b[0], b[2]), bb = fmax(b[1], b[3]);
  double w = fmax(0, fmin(ar, br) - fmax(al, bl)), h = fmax(0, fmin(ab, bb) - fmax(aT, bT));
  double area = h * w, u = (ar - al) * (ab - aT) + (br - bl) * (bb - bT) - area;
  return u <= 0 ? 0 : area / u;
}

/* topi.vision.all_class_non_max_suppression: per (batch, class) the scores sorted (stable,
 * descending), those above score_threshold kept, then _nms_loop's greedy pass (a box is kept
 * while fewer than max_output_boxes_per_class are, when it is still > -1; later boxes with score
 * > 0 and IoU >= iou_threshold are dropped; nothing is kept when iou_threshold <= 0); collected as
 * ONNX's (batch, class, box) rows or TensorFlow's per-batch (class, box) and score, the rest 0. */
static RtValue all_class_nms(IrOpId op, const RtValue *args, const RtSite *site) {
  Arr bx = arr(args[0]), sc = arr(args[1]);
  need_rank(site, op, &bx, 3, "the boxes");
  need_rank(site, op, &sc, 3, "the scores");
  int64_t B = bx.o.shape[0], N = bx.o.shape[1], C = sc.o.shape[1];
  if (bx.o.shape[2] != 4 || sc.o.shape[0] != B || sc.o.shape[2] != N)
    rt_error(site->expr, "%s: boxes %s and scores %s are not (batch, boxes, 4) and (batch, classes, boxes)",
             ir_ops[op].name, rt_shape_text(3, bx.o.shape), rt_shape_text(3, sc.o.shape));
  double max_out = first(site, op, args[2], "max_output_boxes_per_class");
  double iou_thr = (float)first(site, op, args[3], "iou_threshold"), score_thr = (float)first(site, op, args[4], "score_threshold");
  const IrAttrValue *fv = ir_attr_at(site->attrs, IR_A_OUTPUT_FORMAT);
  bool tf = fv->given && fv->str && !strcmp(fv->str, "tensorflow");
  int64_t BC = rt_mul_sat(B, C);
  int64_t *sel = rt_alloc_array(rt_mul_sat(BC, N), sizeof(int64_t));
  double *selscore = rt_alloc_array(rt_mul_sat(BC, N), sizeof(double));
  int64_t *ndet = rt_alloc_array(BC, sizeof(int64_t));
  SortKey *keys = rt_alloc_array(N, sizeof(SortKey));
  int64_t tick = 0;
  for (int64_t i = 0; i < BC; i++) {
    int64_t b = i / C;
    RT_TICK();
    for (int64_t j = 0; j < N; j++) {
      RT_TICK();
      keys[j] = (SortKey){(float)sc.v[i * N + j], j};
    }
    sort_keys(site, keys, N);
    int64_t lo = 0, hi = N; /* binary_search: the first sorted score not above the threshold */
    while (lo < hi) {
      int64_t mid = (lo + hi) >> 1;
      if (keys[mid].score > score_thr) lo = mid + 1;
      else hi = mid;
    }
    int64_t nkeep = lo, n = 0;
    double lim = max_out > 0 ? max_out : (double)nkeep;
    if (iou_thr > 0 && nkeep > 0)
      for (int64_t j = 0; j < nkeep && (double)n < lim; j++) {
        if (!(keys[j].score > -1.0)) continue;
        sel[i * N + n] = keys[j].j;
        selscore[i * N + n] = keys[j].score;
        n++;
        for (int64_t k = j + 1; k < nkeep; k++)
          if (RT_TICK(), keys[k].score > 0 && iou4(&bx.v[(b * N + keys[j].j) * 4], &bx.v[(b * N + keys[k].j) * 4]) >= iou_thr)
            keys[k].score = -1.0;
      }
    ndet[i] = n;
  }
  static const IrDType I64 = {IR_DT_INT, 64, 1}, F32 = {IR_DT_FLOAT, 32, 1};
  if (!tf) {
    int64_t s0[2] = {rt_mul_sat(BC, N), 3}, s1[1] = {1};
    RtResult r0, r1;
    int64_t *out = result(&r0, I64, 2, s0), *cnt = result(&r1, I64, 1, s1);
    rt_zero(site, out, sizeof(int64_t) * (size_t)(s0[0] * 3));
    int64_t row = 0;
    for (int64_t i = 0; i < BC; i++)
      for (int64_t j = 0; j < ndet[i]; j++, row++) {
        RT_TICK();
        out[row * 3] = i / C;
        out[row * 3 + 1] = i % C;
        out[row * 3 + 2] = sel[i * N + j];
      }
    cnt[0] = row;
    RtValue f[2] = {rt_result_value(&r0), rt_result_value(&r1)};
    return rt_tuple_value(2, f);
  }
  int64_t CN = rt_mul_sat(C, N), s0[3] = {B, CN, 2}, s1[2] = {B, CN}, s2[1] = {B};
  RtResult r0, r1, r2;
  int64_t *out = result(&r0, I64, 3, s0), *cnt = result(&r2, I64, 1, s2);
  float *scores = result(&r1, F32, 2, s1);
  rt_zero(site, out, sizeof(int64_t) * (size_t)(B * CN * 2));
  rt_zero(site, scores, sizeof(float) * (size_t)(B * CN));
  for (int64_t b = 0; b < B; b++) {
    int64_t row = 0;
    for (int64_t c = 0; c < C; c++) {
      RT_TICK();
      for (int64_t j = 0; j < ndet[b * C + c]; j++, row++) {
        RT_TICK();
        out[(b * CN + row) * 2] = c;
        out[(b * CN + row) * 2 + 1] = sel[(b * C + c) * N + j];
        scores[b * CN + row] = (float)selscore[(b * C + c) * N + j];
      }
    }
    cnt[b] = row;
  }
  RtValue f[3] = {rt_result_value(&r0), rt_result_value(&r1), rt_result_value(&r2)};
  return rt_tuple_value(3, f);
}

/* ---------------------------------------------------------------- regular_non_max_suppression */

/* topi's hybrid_regular_nms (TFLite's detection postprocess): per class (scores' last axis from
 * label_offset = its size - num_classes) the boxes scoring >= score_threshold, sorted (stable,
 * descending), greedily kept up to max_detections_per_class while IoU (boxes as ymin, xmin, ymax,
 * xmax; 0 for an empty box) <= iou_threshold; merged with the earlier classes' by score (stable)
 * and cut to max_detections. Rows past the count are zeros. */
static RtValue regular_nms(IrOpId op, const RtValue *args, const RtSite *site) {
  Arr bx = arr(args[0]), sc = arr(args[1]);
  need_rank(site, op, &bx, 3, "the boxes");
  need_rank(site, op, &sc, 3, "the scores");
  const IrOpAttrs *at = site->attrs;
  int64_t per = ir_attr_int(at, IR_A_MAX_DETECTIONS_PER_CLASS, 0), M = ir_attr_int(at, IR_A_MAX_DETECTIONS, 0);
  int64_t nc = ir_attr_int(at, IR_A_NUM_CLASSES, 0);
  double iou_thr = (float)ir_attr_float(at, IR_A_IOU_THRESHOLD, 0), s_thr = (float)ir_attr_float(at, IR_A_SCORE_THRESHOLD, 0);
  int64_t B = sc.o.shape[0], N = sc.o.shape[1], CB = sc.o.shape[2], off = nc < 0 ? -1 : CB - nc;
  if (bx.o.shape[0] != B || bx.o.shape[1] != N || bx.o.shape[2] != 4)
    rt_error(site->expr, "%s: boxes %s and scores %s are not (batch, boxes, 4) and (batch, boxes, classes)",
             ir_ops[op].name, rt_shape_text(3, bx.o.shape), rt_shape_text(3, sc.o.shape));
  if (nc < 0 || off < 0)
    rt_error(site->expr, "%s: num_classes=%lld is not from 0 to the scores' %lld classes", ir_ops[op].name, (long long)nc, (long long)CB);
  if (M < 0) rt_error(site->expr, "%s: max_detections=%lld is negative", ir_ops[op].name, (long long)M);
  static const IrDType F32 = {IR_DT_FLOAT, 32, 1};
  int64_t s0[3] = {B, M, 4}, s1[2] = {B, M}, s2[1] = {B};
  RtResult r0, r1, r2, r3;
  float *ob = result(&r0, F32, 3, s0), *ocl = result(&r1, F32, 2, s1), *osc = result(&r2, F32, 2, s1);
  void *cnt = result(&r3, I32, 1, s2);
  SortKey *keys = rt_alloc_array(N, sizeof(SortKey));
  SortKey *merged = rt_alloc_array(M + N, sizeof(SortKey)); /* score, box * CB + class */
  bool *active = rt_alloc_array(N, sizeof(bool));
  int64_t tick = 0;
  for (int64_t b = 0; b < B; b++) {
    int64_t nsorted = 0;
    const double *BX = &bx.v[b * N * 4];
    for (int64_t c = 0; c < nc; c++) {
      int64_t nk = 0;
      RT_TICK();
      for (int64_t i = 0; i < N; i++) {
        RT_TICK();
        double s = sc.v[(b * N + i) * CB + c + off];
        if (s >= s_thr) keys[nk++] = (SortKey){s, i};
      }
      sort_keys(site, keys, nk);
      int64_t out = nsorted, sel = 0, lim = nk < per ? nk : per, nactive = nk;
      for (int64_t i = 0; i < nk; i++) {
        RT_TICK();
        active[i] = true;
      }
      for (int64_t i = 0; i < nk; i++) {
        RT_TICK();
        if (!(nactive != 0 && sel < lim && active[i])) continue;
        merged[out++] = (SortKey){keys[i].score, keys[i].j * CB + c + off};
        sel++;
        active[i] = false;
        nactive--;
        const double *p = &BX[keys[i].j * 4];
        for (int64_t j = i + 1; j < nk; j++) {
          RT_TICK();
          if (!active[j]) continue;
          const double *q = &BX[keys[j].j * 4];
          double ai = (p[2] - p[0]) * (p[3] - p[1]), aj = (q[2] - q[0]) * (q[3] - q[1]), iou = 0;
          if (ai > 0 && aj > 0) {
            double in = fmax(fmin(p[2], q[2]) - fmax(p[0], q[0]), 0) * fmax(fmin(p[3], q[3]) - fmax(p[1], q[1]), 0);
            iou = in / (ai + aj - in);
          }
          if (iou > iou_thr) {
            active[j] = false;
            nactive--;
          }
        }
      }
      /* stable descending merge of the earlier classes' and this class's; ties keep that order,
       * as the bubble sort does (SortKey's tie-break by j would not: sort positions instead) */
      for (int64_t i = 1; i < out; i++) {
        SortKey k = merged[i];
        int64_t j = i;
        RT_TICK();
        while (j > 0 && merged[j - 1].score < k.score) {
          RT_TICK();
          merged[j] = merged[j - 1];
          j--;
        }
        merged[j] = k;
      }
      nsorted = out < M ? out : M;
    }
    for (int64_t m = 0; m < M; m++) {
      RT_TICK();
      double v[4] = {0, 0, 0, 0}, cls = 0, score = 0;
      if (m < nsorted) {
        int64_t anchor = merged[m].j / CB;
        for (int t = 0; t < 4; t++) v[t] = BX[anchor * 4 + t];
        cls = (double)(merged[m].j - anchor * CB - off);
        score = merged[m].score;
      }
      for (int t = 0; t < 4; t++) ob[(b * M + m) * 4 + t] = (float)v[t];
      ocl[b * M + m] = (float)cls;
      osc[b * M + m] = (float)score;
    }
    seti(cnt, b, nsorted);
  }
  RtValue f[4] = {rt_result_value(&r0), rt_result_value(&r1), rt_result_value(&r2), rt_result_value(&r3)};
  return rt_tuple_value(4, f);
}

/* ---------------------------------------------------------------- roi_align, roi_pool */

/* Element (n, c, y, x) of 4-D data in NCHW or NHWC. */
static inline double at4(const Arr *d, bool nhwc, int64_t n, int64_t c, int64_t y, int64_t x) {
  const int64_t *s = d->o.shape;
  return nhwc ? d->v[((n * s[1] + y) * s[2] + x) * s[3] + c] : d->v[((n * s[1] + c) * s[2] + y) * s[3] + x];
}

/* roi_align_python's _bilinear. */
static double bilinear(const Arr *d, bool nhwc, int64_t n, int64_t c, double y, double x, int64_t H, int64_t W) {
  if (y < -1 || y > H || x < -1 || x > W) return 0;
  y = fmin(fmax(y, 0), (double)(H - 1));
  x = fmin(fmax(x, 0), (double)(W - 1));
  int64_t yl = rt_f2index(floor(y)), xl = rt_f2index(floor(x));
  double wyh = y - yl, wxh = x - xl, val = 0;
  double wx[2] = {1 - wxh, wxh}, wy[2] = {1 - wyh, wyh};
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++) {
      int64_t yp = yl + b, xp = xl + a;
      if (yp >= 0 && yp < H && xp >= 0 && xp < W) val += wx[a] * wy[b] * at4(d, nhwc, n, c, yp, xp);
    }
  return val;
}

static RtValue roi_op(IrOpId op, const RtValue *args, const RtSite *site) {
  Arr d = arr(args[0]), rois = arr(args[1]);
  need_rank(site, op, &d, 4, "the data");
  need_rank(site, op, &rois, 2, "the rois");
  if (rois.o.shape[1] != 5) rt_error(site->expr, "%s: the rois %s are not (n, 5)", ir_ops[op].name, rt_shape_text(2, rois.o.shape));
  const IrOpAttrs *at = site->attrs;
  const IrAttrValue *lv = ir_attr_at(at, IR_A_LAYOUT), *mv = ir_attr_at(at, IR_A_MODE);
  bool nhwc = lv->given && lv->str && !strcmp(lv->str, "NHWC");
  bool maxm = op == IR_OP_VISION_ROI_ALIGN && mv->given && mv->str && !strcmp(mv->str, "max");
  int64_t ps[2];
  ir_attr_pair(at, IR_A_POOLED_SIZE, 1, ps);
  double scale = ir_attr_float(at, IR_A_SPATIAL_SCALE, 1);
  int64_t ratio = ir_attr_int(at, IR_A_SAMPLE_RATIO, -1);
  int64_t Bn = d.o.shape[0], C = d.o.shape[nhwc ? 3 : 1], H = d.o.shape[nhwc ? 1 : 2], W = d.o.shape[nhwc ? 2 : 3];
  int64_t R = rois.o.shape[0], PH = ps[0], PW = ps[1];
  int64_t shape[4] = {R, nhwc ? PH : C, nhwc ? PW : PH, nhwc ? C : PW};
  RtResult r;
  void *out = result(&r, d.o.dt, 4, shape);
  int64_t tick = 0;
  for (int64_t i = 0; i < R; i++) {
    const double *roi = &rois.v[i * 5];
    if (!(roi[0] >= 0 && roi[0] < (double)Bn))
      rt_error(site->expr, "%s: roi %lld has batch index %g, but the data has %lld images", ir_ops[op].name, (long long)i, roi[0],
               (long long)Bn);
    int64_t n = rt_f2i64(roi[0]);
    for (int64_t c = 0; c < C; c++)
      for (int64_t ph = 0; ph < PH; ph++)
        for (int64_t pw = 0; pw < PW; pw++) {
          RT_TICK();
          double total;
          if (op == IR_OP_VISION_ROI_ALIGN) {
            double x0 = roi[1] * scale, y0 = roi[2] * scale, x1 = roi[3] * scale, y1 = roi[4] * scale;
            double rh = fmax(y1 - y0, 1.0), rw = fmax(x1 - x0, 1.0), bh = rh / PH, bw = rw / PW;
            int64_t gh = ratio > 0 ? ratio : rt_f2index(ceil(rh / PH)), gw = ratio > 0 ? ratio : rt_f2index(ceil(rw / PW));
            if (gh > 4096 || gw > 4096)
              rt_error(site->expr, "%s: a sampling grid of %lld by %lld points per bin is too large", ir_ops[op].name,
                       (long long)gh, (long long)gw);
            double count = (double)(gh * gw);
            total = maxm ? -INFINITY : 0;
            for (int64_t iy = 0; iy < gh; iy++)
              for (int64_t ix = 0; ix < gw; ix++) {
                RT_TICK();
                double y = y0 + ph * bh + (iy + 0.5) * bh / gh, x = x0 + pw * bw + (ix + 0.5) * bw / gw;
                double b = bilinear(&d, nhwc, n, c, y, x, H, W);
                total = maxm ? fmax(total, b) : total + b / count;
              }
          } else {
            /* topi's roi_pool: te.round is tir.round, which LLVM's code generator emits as llvm.round
             * (halves away from zero, src/target/llvm/intrin_rule_llvm.cc); floor and ceil with an
             * epsilon of 1e-5 */
            int64_t x0 = rt_f2index(round(roi[1] * scale)), y0 = rt_f2index(round(roi[2] * scale));
            int64_t x1 = rt_f2index(round(roi[3] * scale)), y1 = rt_f2index(round(roi[4] * scale));
            int64_t rh = y1 - y0 + 1 > 1 ? y1 - y0 + 1 : 1, rw = x1 - x0 + 1 > 1 ? x1 - x0 + 1 : 1;
            double bh = (double)rh / PH, bw = (double)rw / PW;
            /* in double: exact wherever the sum lands near the image (both terms are integers) */
            int64_t hs = rt_f2index(floor(ph * bh + 1e-5) + (double)y0), ws = rt_f2index(floor(pw * bw + 1e-5) + (double)x0);
            int64_t he = rt_f2index(ceil((ph + 1) * bh - 1e-5) + (double)y0), we = rt_f2index(ceil((pw + 1) * bw - 1e-5) + (double)x0);
            hs = hs < 0 ? 0 : hs > H ? H : hs, he = he < 0 ? 0 : he > H ? H : he;
            ws = ws < 0 ? 0 : ws > W ? W : ws, we = we < 0 ? 0 : we > W ? W : we;
            bool empty = he <= hs || we <= ws;
            total = empty ? 0 : -INFINITY;
            for (int64_t y = hs; y < he; y++)
              for (int64_t x = ws; x < we; x++) {
                RT_TICK();
                total = fmax(total, at4(&d, nhwc, n, c, y, x));
              }
          }
          int64_t o = nhwc ? ((i * PH + ph) * PW + pw) * C + c : ((i * C + c) * PH + ph) * PW + pw;
          setf(out, d.o.dt, o, total);
        }
  }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- proposal */

/* topi.vision.rcnn.proposal: anchors (generate_anchor) at every cell, regressed by the box
 * predictions (reg_bbox, or reg_iou with iou_loss), clipped to the image; boxes outside the
 * image's feature extent or smaller than rpn_min_size * scale score -1 (the small ones widened);
 * sorted by score (stable, descending), the first rpn_pre_nms_top_n kept; nms_ir removes boxes
 * whose IoU (pixel-inclusive, +1) with an earlier kept one exceeds threshold; prepare_output_ir
 * writes [batch, x1, y1, x2, y2] rows of the kept boxes, cycling through them to fill
 * rpn_post_nms_top_n rows (0 rows when none is kept). */
static RtValue proposal(IrOpId op, const RtValue *args, const RtSite *site) {
  Arr cls = arr(args[0]), del = arr(args[1]), info = arr(args[2]);
  need_rank(site, op, &cls, 4, "the class probabilities");
  need_rank(site, op, &del, 4, "the box predictions");
  need_rank(site, op, &info, 2, "the image info");
  const IrOpAttrs *at = site->attrs;
  static const double d_scales[] = {4, 8, 16, 32}, d_ratios[] = {0.5, 1, 2};
  double *scales, *ratios;
  int ns = floats(site, "scales", 4, d_scales, &scales), nr = floats(site, "ratios", 3, d_ratios, &ratios);
  int64_t stride = ir_attr_int(at, IR_A_FEATURE_STRIDE, 16), pre = ir_attr_int(at, IR_A_RPN_PRE_NMS_TOP_N, 6000);
  int64_t post = ir_attr_int(at, IR_A_RPN_POST_NMS_TOP_N, 300), min_size = ir_attr_int(at, IR_A_RPN_MIN_SIZE, 16);
  double thr = (float)ir_attr_float(at, IR_A_THRESHOLD, 0.7);
  bool iou_loss = ir_attr_bool(at, IR_A_IOU_LOSS, false);
  int64_t B = cls.o.shape[0], H = cls.o.shape[2], W = cls.o.shape[3], A = (int64_t)ns * nr;
  if (cls.o.shape[1] != 2 * A || del.o.shape[0] != B || del.o.shape[1] != 4 * A || del.o.shape[2] != H ||
      del.o.shape[3] != W || info.o.shape[0] != B || info.o.shape[1] != 3)
    rt_error(site->expr, "%s: class probabilities %s, box predictions %s and image info %s do not fit %lld anchors (%d scales by %d ratios)",
             ir_ops[op].name, rt_shape_text(4, cls.o.shape), rt_shape_text(4, del.o.shape), rt_shape_text(2, info.o.shape),
             (long long)A, ns, nr);
  if (stride < 1) rt_error(site->expr, "%s: feature_stride=%lld is not positive", ir_ops[op].name, (long long)stride);
  int64_t nb = rt_mul_sat(rt_mul_sat(H, W), A);
  if (nb > ((int64_t)1 << 24)) rt_error(site->expr, "%s: %lld boxes are too many", ir_ops[op].name, (long long)nb);
  int64_t npre = pre > 0 && pre < nb ? pre : nb;
  double *anchors = rt_alloc_array(4 * A, sizeof(double));
  for (int64_t k = 0; k < A; k++) { /* generate_anchor(ratios[k / ns], scales[k % ns], stride) */
    double ratio = ratios[k / ns], scale = scales[k % ns], w = (double)stride, h = w;
    double xc = 0.5 * (w - 1), yc = 0.5 * (h - 1), size_ratios = floor(w * h / ratio);
    double nw = floor(sqrt(size_ratios) + 0.5) * scale, nh = floor(nw / scale * ratio + 0.5) * scale;
    anchors[k * 4] = xc - 0.5 * (nw - 1), anchors[k * 4 + 1] = yc - 0.5 * (nh - 1);
    anchors[k * 4 + 2] = xc + 0.5 * (nw - 1), anchors[k * 4 + 3] = yc + 0.5 * (nh - 1);
  }
  double *bbox = rt_alloc_array(nb * 5, sizeof(double));
  SortKey *keys = rt_alloc_array(nb, sizeof(SortKey));
  double *sorted = rt_alloc_array(npre * 5, sizeof(double));
  bool *removed = rt_alloc_array(npre, sizeof(bool));
  int64_t oshape[2] = {rt_mul_sat(B, post), 5};
  RtResult r;
  void *out = result(&r, cls.o.dt, 2, oshape);
  int64_t tick = 0;
  for (int64_t b = 0; b < B; b++) {
    double imh = info.v[b * 3], imw = info.v[b * 3 + 1], msz = info.v[b * 3 + 2] * (double)min_size;
    double rh = trunc(imh / stride), rw = trunc(imw / stride);
    for (int64_t h = 0; h < H; h++)
      for (int64_t w = 0; w < W; w++)
        for (int64_t k = 0; k < A; k++) {
          RT_TICK();
          double *o = &bbox[((h * W + w) * A + k) * 5];
          double x1 = anchors[k * 4] + w * stride, y1 = anchors[k * 4 + 1] + h * stride;
          double x2 = anchors[k * 4 + 2] + w * stride, y2 = anchors[k * 4 + 3] + h * stride;
          double d[4];
          for (int i = 0; i < 4; i++) d[i] = del.v[(((b * A + k) * 4 + i) * H + h) * W + w];
          double p[4];
          if (iou_loss) {
            p[0] = x1 + d[0], p[1] = y1 + d[1], p[2] = x2 + d[2], p[3] = y2 + d[3];
          } else {
            double bw = x2 - x1 + 1, bh = y2 - y1 + 1, cx = x1 + 0.5 * (bw - 1), cy = y1 + 0.5 * (bh - 1);
            double pcx = d[0] * bw + cx, pcy = d[1] * bh + cy, pw = exp(d[2]) * bw, ph = exp(d[3]) * bh;
            p[0] = pcx - 0.5 * (pw - 1), p[1] = pcy - 0.5 * (ph - 1), p[2] = pcx + 0.5 * (pw - 1), p[3] = pcy + 0.5 * (ph - 1);
          }
          p[0] = fmax(fmin(p[0], imw - 1), 0), p[1] = fmax(fmin(p[1], imh - 1), 0);
          p[2] = fmax(fmin(p[2], imw - 1), 0), p[3] = fmax(fmin(p[3], imh - 1), 0);
          double score = cls.v[((b * A * 2 + A + k) * H + h) * W + w];
          if ((double)h >= rh || (double)w >= rw) score = -1;
          for (int i = 0; i < 4; i++) o[i] = p[i];
          o[4] = score;
          if (p[2] - p[0] + 1 < msz || p[3] - p[1] + 1 < msz) {
            o[0] -= msz / 2, o[1] -= msz / 2, o[2] += msz / 2, o[3] += msz / 2, o[4] = -1;
          }
        }
    for (int64_t i = 0; i < nb; i++) {
      RT_TICK();
      keys[i] = (SortKey){bbox[i * 5 + 4], i};
    }
    sort_keys(site, keys, nb);
    for (int64_t i = 0; i < npre; i++) {
      RT_TICK();
      memcpy(&sorted[i * 5], &bbox[keys[i].j * 5], sizeof(double) * 5);
      removed[i] = false;
    }
    for (int64_t l = 0; l + 1 < npre; l++) {
      if (removed[l]) continue;
      const double *a = &sorted[l * 5];
      RT_TICK();
      for (int64_t i = l + 1; i < npre; i++) {
        RT_TICK();
        const double *c = &sorted[i * 5];
        double w = fmax(0, fmin(a[2], c[2]) - fmax(a[0], c[0]) + 1), h = fmax(0, fmin(a[3], c[3]) - fmax(a[1], c[1]) + 1);
        double in = w * h, u = (a[2] - a[0] + 1) * (a[3] - a[1] + 1) + (c[2] - c[0] + 1) * (c[3] - c[1] + 1) - in;
        if (in / u > thr) removed[i] = true;
      }
    }
    int64_t nkeep = 0, row = 0;
    for (int64_t i = 0; i < npre; i++) {
      RT_TICK();
      nkeep += !removed[i];
    }
    for (int64_t i = 0; i < post * 5; i++) {
      RT_TICK();
      setf(out, cls.o.dt, b * post * 5 + i, 0);
    }
    while (nkeep > 0 && row < post)
      for (int64_t j = 0; j < npre && row < post; j++) {
        RT_TICK();
        if (removed[j]) continue;
        setf(out, cls.o.dt, (b * post + row) * 5, (double)b);
        for (int t = 0; t < 4; t++) setf(out, cls.o.dt, (b * post + row) * 5 + 1 + t, sorted[j * 5 + t]);
        row++;
      }
  }
  return rt_result_value(&r);
}

/* ---------------------------------------------------------------- dispatch */

RtValue rt_kernel_vision(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  (void)nargs;
  switch (op) {
  case IR_OP_VISION_YOLO_REORG: return yolo_reorg(op, args, site);
  case IR_OP_VISION_MULTIBOX_PRIOR: return multibox_prior(op, args, site);
  case IR_OP_VISION_MULTIBOX_TRANSFORM_LOC: return multibox_transform_loc(op, args, site);
  case IR_OP_VISION_GET_VALID_COUNTS: return get_valid_counts(op, args, site);
  case IR_OP_VISION_NMS: return nms(op, args, site);
  case IR_OP_VISION_ALL_CLASS_NMS: return all_class_nms(op, args, site);
  case IR_OP_VISION_PROPOSAL: return proposal(op, args, site);
  case IR_OP_VISION_REGULAR_NMS: return regular_nms(op, args, site);
  case IR_OP_VISION_ROI_ALIGN: case IR_OP_VISION_ROI_POOL: return roi_op(op, args, site);
  default:
    UNREACHABLE("every operator ops.def gives this family has a case above");
    rt_error(site->expr, "the operator `%s` has no kernel", ir_ops[op].name);
  }
}
