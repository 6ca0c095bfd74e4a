/* The convolutions and pools over 1 to 3 spatial axes, in any layout: data and weights not in the
 * canonical layouts (NC + spatial axes, OI + spatial axes) are permuted into them and the result
 * out of them. Every operator is seen over 3 spatial axes, the missing ones of size 1. A
 * convolution is im2col (rows copied whole, typed strided loops) then a matrix product (rt_gemm)
 * per image, group and block of output positions (its scratch memory is bounded: CONV_BLOCK); a 1x1
 * window at stride 1 without padding needs no im2col: the data is the matrix. Float pools work in
 * double, integer pools in their dtype (exact at 64 bits). */
#include "runtime/kernel.h"

#include <float.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- copies, layouts */

/* dst[i] = src[i * stride] for n elements of esize bytes; a long row in blocks, polling between them. */
static void copy_strided(void *dst, const void *src, size_t esize, int64_t n, int64_t stride) {
  for (; n > RT_POLL_EVERY; n -= RT_POLL_EVERY) {
    copy_strided(dst, src, esize, RT_POLL_EVERY, stride);
    rt_poll(NULL);
    dst = (char *)dst + (size_t)RT_POLL_EVERY * esize;
    src = (const char *)src + (size_t)(RT_POLL_EVERY * stride) * esize;
  }
  if (stride == 1) {
    memcpy(dst, src, (size_t)n * esize);
    return;
  }
#define COPY(T)                                                                                                    \
  do {                                                                                                             \
    T *d_ = dst;                                                                                                   \
    const T *s_ = src;                                                                                             \
    for (int64_t i = 0; i < n; i++) d_[i] = s_[i * stride];                                                        \
  } while (0)
  switch (esize) {
  case 1: COPY(uint8_t); break;
  case 2: COPY(uint16_t); break;
  case 4: COPY(uint32_t); break;
  case 8: COPY(uint64_t); break;
  default:
    for (int64_t i = 0; i < n; i++) memcpy((char *)dst + (size_t)i * esize, (const char *)src + (size_t)(i * stride) * esize, esize);
  }
#undef COPY
}

/* dst = src transposed: dst's axis i is src's axis perm[i] (src of `shape`, rank <= 8). */
static void permute_into(void *dst, const void *src, size_t esize, int rank, const int64_t *shape, const int *perm) {
  int64_t sstride[8], ds[8], st[8], idx[8] = {0}, s = 1, total = 1;
  for (int i = rank - 1; i >= 0; i--) sstride[i] = s, s *= shape[i];
  for (int i = 0; i < rank; i++) ds[i] = shape[perm[i]], st[i] = sstride[perm[i]], total *= ds[i];
  if (total == 0) return;
  int64_t inner = ds[rank - 1], rows = total / inner, off = 0, left = 0;
  char *d = dst;
  for (int64_t r = 0; r < rows; r++, d += (size_t)inner * esize) {
    rt_poll_work(NULL, &left, inner + 8);
    copy_strided(d, (const char *)src + (size_t)off * esize, esize, inner, st[rank - 1]);
    for (int i = rank - 2; i >= 0; i--) {
      off += st[i];
      if (++idx[i] < ds[i]) break;
      off -= st[i] * ds[i];
      idx[i] = 0;
    }
  }
}

static bool identity(int rank, const int pos[]) {
  for (int k = 0; k < rank; k++)
    if (pos[k] != k) return false;
  return true;
}

static const char *spatial_letters(int d) { return d == 1 ? "W" : d == 2 ? "HW" : "DHW"; }

/* The layout attribute `id` (dflt when not given or ""): pos[k] is the axis of canon[k]. */
static const char *layout_of(const IrOpAttrs *at, IrAttrId id, const char *canon, const char *dflt, int pos[],
                             IrOpId op, const RtSite *site) {
  const IrAttrValue *a = ir_attr_at(at, id);
  const char *s = a->given && !a->none && a->str && *a->str ? a->str : dflt;
  if (!ir_layout_axes(s, canon, pos))
    rt_error(site->expr, "%s: %s=\"%s\" is not a permutation of \"%s\"", ir_ops[op].name, ir_attr_name(id), s, canon);
  return s;
}

/* x in canonical order (axis k of the result is axis pos[k] of x): its data, and its shape in cs. */
static const void *to_canon(const RtOperand *x, const int pos[], int64_t cs[]) {
  for (int k = 0; k < x->rank; k++) cs[k] = x->shape[pos[k]];
  if (identity(x->rank, pos) || x->count == 0) return x->data;
  size_t esize = rt_dtype_size(x->dt);
  void *p = rt_alloc_atomic((size_t)x->count * esize + 1);
  permute_into(p, x->data, esize, x->rank, x->shape, pos);
  return p;
}

/* A result computed in canonical order (shape cs) and stored in the layout whose pos[] is given. */
typedef struct Out {
  RtResult res;
  char *out, *canon;
  int rank, pos[5];
  int64_t cs[5];
  size_t esize;
} Out;

static char *out_init(Out *o, IrDType dt, int rank, const int64_t cs[], const int pos[]) {
  int64_t shape[5], count = 1;
  o->rank = rank;
  o->esize = rt_dtype_size(dt);
  for (int k = 0; k < rank; k++) o->cs[k] = cs[k], o->pos[k] = pos[k], shape[pos[k]] = cs[k], count = rt_mul_sat(count, cs[k]);
  o->out = rt_result_init(&o->res, dt, rank, shape);
  o->canon = identity(rank, pos) || count == 0 ? o->out : rt_alloc_atomic((size_t)count * o->esize + 1);
  return o->canon;
}

static RtValue out_done(Out *o) {
  if (o->canon != o->out) {
    int inv[5];
    for (int k = 0; k < o->rank; k++) inv[o->pos[k]] = k;
    permute_into(o->out, o->canon, o->esize, o->rank, o->cs, inv);
  }
  return rt_result_value(&o->res);
}

int64_t rt_window_positions(const RtSite *site, IrOpId op, int64_t in, int64_t k, int64_t dil, int64_t stride,
                            int64_t lo, int64_t hi, bool ceil_mode) {
  int64_t n = ir_window_length(in, k, dil, stride, lo, hi, ceil_mode);
  if (n == IR_WINDOW_TOO_LARGE)
    rt_error(site->expr, "%s: the number of window positions over %lld passes int64", ir_ops[op].name, (long long)in);
  /* an empty axis padded short of the window by one element ("same" padding) gives an empty output */
  if (n < 0 && !(in == 0 && (IrWide)dil * (k - 1) + 1 - lo - hi == 1))
    rt_error(site->expr, "%s: a window of %lld (dilation %lld) does not fit an axis of %lld padded by %lld and %lld",
             ir_ops[op].name, (long long)k, (long long)dil, (long long)in, (long long)lo, (long long)hi);
  return n < 0 ? 0 : n;
}

static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* A window over 3 axes (the d given ones last; the others of size 1, stride 1, no padding). */
typedef struct Win {
  int64_t k[3], st[3], dil[3], lo[3], hi[3];
} Win;

static void win_read(Win *w, const IrOpAttrs *at, int d, IrAttrId size_id, const int64_t *ksize) {
  int64_t t[3], l[3], h[3];
  for (int i = 0; i < 3; i++) w->k[i] = w->st[i] = w->dil[i] = 1, w->lo[i] = w->hi[i] = 0;
  int z = 3 - d;
  if (ksize)
    for (int i = 0; i < d; i++) w->k[z + i] = ksize[i];
  else {
    ir_attr_tuple(at, size_id, d, 1, t);
    for (int i = 0; i < d; i++) w->k[z + i] = t[i];
  }
  ir_attr_tuple(at, IR_A_STRIDES, d, 1, t);
  for (int i = 0; i < d; i++) w->st[z + i] = t[i] < 1 ? 1 : t[i];
  ir_attr_tuple(at, IR_A_DILATION, d, 1, t);
  for (int i = 0; i < d; i++) w->dil[z + i] = t[i] < 1 ? 1 : t[i];
  ir_attr_pads(at, d, l, h);
  for (int i = 0; i < d; i++) w->lo[z + i] = l[i], w->hi[z + i] = h[i];
}

/* ---------------------------------------------------------------- convolutions */

/* What a convolution and a transposed one share: the layouts (data N C spatial, the weight's first
 * two letters `kfirst` then spatial, out_layout's positions in opos), the operands in canonical
 * order (shapes xs, ws; data xd, wd) and the window from the weight's spatial sizes. */
static void conv_operands(IrOpId op, int d, const char *kfirst, const RtOperand *x, const RtOperand *w,
                          const IrOpAttrs *at, const RtSite *site, int opos[5], int64_t xs[5], int64_t ws[5],
                          const char **xd, const char **wd, Win *win) {
  char dcanon[8], kcanon[8];
  snprintf(dcanon, sizeof dcanon, "NC%s", spatial_letters(d));
  snprintf(kcanon, sizeof kcanon, "%s%s", kfirst, spatial_letters(d));
  int dpos[5], kpos[5], rank = d + 2;
  const char *dl = layout_of(at, IR_A_DATA_LAYOUT, dcanon, dcanon, dpos, op, site);
  layout_of(at, IR_A_KERNEL_LAYOUT, kcanon, kcanon, kpos, op, site);
  layout_of(at, IR_A_OUT_LAYOUT, dcanon, dl, opos, op, site);
  if (x->rank != rank || w->rank != rank)
    rt_error(site->expr, "%s takes data and weights of rank %d", ir_ops[op].name, rank);
  *xd = to_canon(x, dpos, xs);
  *wd = to_canon(w, kpos, ws);
  win_read(win, at, d, IR_A_KERNEL_SIZE, ws + 2);
}

/* A convolution's scratch memory is bounded: the unfolded data (im2col) and a transposed convolution's
 * columns are made for a block of positions at a time, of about CONV_BLOCK bytes (a 3x3x3 window over
 * 128^3 data unfolded whole took 226 MB per input channel; a U-Net's layer asked for 14.5 GB). A block
 * has at least CONV_BLOCK_MIN positions, so that a huge window still gives matrix products of some
 * width (its block is then 32 to 64 positions' worth). 16 MB holds every convolution of
 * ResNet-18 at 224x224 in one block (the largest, the first layer's, unfolds to 7.4 MB), so its run is
 * unchanged (bench/resnet). */
enum { CONV_BLOCK = 1 << 24, CONV_BLOCK_MIN = 32, CONV_BLOCK_ALIGN = 64 };

/* The positions of a block when each takes `per` bytes of scratch (per <= INT64_MAX / CONV_BLOCK_ALIGN):
 * all P when they fit, else about P split evenly, rounded up to a multiple of CONV_BLOCK_ALIGN. A block
 * then starts where a tile of OpenBLAS's kernels started in the product of all P (its tiles are 2 to 16
 * columns wide), so that each output is computed by the same code as before, in the same order: one
 * thread's results are bitwise those of the unblocked product. (Two threads split a product's columns
 * where its width says, whether blocked or not, and already moved the last bit of a few results.) */
static int64_t block_positions(int64_t P, int64_t per) {
  if (per == 0) return P; /* nothing to unfold: no channels, or an empty window */
  int64_t most = CONV_BLOCK / per;
  if (most < CONV_BLOCK_MIN) most = CONV_BLOCK_MIN;
  if (most >= P) return P;
  int64_t blocks = (P + most - 1) / most, nb = (P + blocks - 1) / blocks;
  nb += (CONV_BLOCK_ALIGN - nb % CONV_BLOCK_ALIGN) % CONV_BLOCK_ALIGN;
  return nb < P ? nb : P;
}

/* What a convolution reads for one image and group: Cg channels of S[0] x S[1] x S[2] data at x, through
 * the window, for outputs of OS[0] x OS[1] x OS[2]. */
typedef struct Unfold {
  const char *x;
  int64_t Cg;
  const int64_t *S, *OS;
  const Win *win;
  size_t esize;
} Unfold;

/* The unfolded data of the output positions p0 <= p < p1 (row-major over OS), a row of p1 - p0 per
 * (c, k0, k1, k2): col[(c, k), p - p0] = x[c, o * st - lo + k * dil] at the position o of p, 0 outside.
 * Each stretch of a row of outputs is a zeroed head, a strided copy and a zeroed tail. */
static void unfold(const RtSite *site, const Unfold *u, int64_t p0, int64_t p1, char *col, int64_t *left) {
  const Win w = *u->win;
  const int64_t S0 = u->S[0], S1 = u->S[1], S2 = u->S[2], OS1 = u->OS[1], OS2 = u->OS[2];
  const size_t es = u->esize;
  int64_t first = p0 / OS2, f0 = first / OS1, f1 = first % OS1, f2 = p0 % OS2;
  char *dst = col;
  for (int64_t c = 0; c < u->Cg; c++)
    for (int64_t k0 = 0; k0 < w.k[0]; k0++)
      for (int64_t k1 = 0; k1 < w.k[1]; k1++)
        for (int64_t k2 = 0; k2 < w.k[2]; k2++) {
          /* along axis 2 the tap falls inside the data for the outputs b <= o2 < end */
          int64_t a = w.lo[2] - k2 * w.dil[2], s2 = w.st[2];
          int64_t b = -floor_div(-a, s2), end = floor_div(S2 - 1 + a, s2) + 1;
          if (b < 0) b = 0;
          if (end > OS2) end = OS2;
          if (end < 0) end = 0; /* the window's tap falls left of every output (wide padding, dilation) */
          if (b > end) b = end;
          int64_t i0 = f0 * w.st[0] - w.lo[0] + k0 * w.dil[0], i1 = f1 * w.st[1] - w.lo[1] + k1 * w.dil[1];
          int64_t i1first = k1 * w.dil[1] - w.lo[1], o1 = f1, o2 = f2;
          for (int64_t p = p0; p < p1;) {
            int64_t e2 = OS2 - o2 <= p1 - p ? OS2 : o2 + (p1 - p), n = e2 - o2;
            rt_poll_work(site, left, n + 8);
            if (i0 < 0 || i0 >= S0 || i1 < 0 || i1 >= S1) {
              rt_zero(site, dst, (size_t)n * es);
            } else {
              int64_t cb = b, ce = end; /* the part of [o2, e2) inside [b, end) */
              if (n < OS2) cb = b < o2 ? o2 : b > e2 ? e2 : b, ce = end > e2 ? e2 : end < cb ? cb : end;
              char *d = dst + (size_t)(cb - o2) * es;
              const char *src = u->x + (size_t)(((c * S0 + i0) * S1 + i1) * S2 + (cb * s2 - a)) * es;
              if (cb > o2) rt_zero(site, dst, (size_t)(cb - o2) * es);
              if (s2 == 1 && ce - cb <= RT_POLL_EVERY) memcpy(d, src, (size_t)(ce - cb) * es);
              else if (ce > cb) copy_strided(d, src, es, ce - cb, s2);
              if (e2 > ce) rt_zero(site, d + (size_t)(ce - cb) * es, (size_t)(e2 - ce) * es);
            }
            dst += (size_t)n * es;
            p += n;
            o2 = 0;
            i1 += w.st[1];
            if (++o1 == OS1) o1 = 0, i1 = i1first, i0 += w.st[0];
          }
        }
}

static RtValue conv(IrOpId op, int d, const RtOperand *x, const RtOperand *w, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  int opos[5], rank = d + 2, z = 3 - d;
  int64_t xs[5], ws[5];
  const char *xd, *wd;
  Win win;
  conv_operands(op, d, "OI", x, w, at, site, opos, xs, ws, &xd, &wd, &win);
  int64_t groups = ir_attr_int(at, IR_A_GROUPS, 1);
  int64_t N = xs[0], C = xs[1], O = ws[0], Cg = ws[1], S[3] = {1, 1, 1}, OS[3];
  for (int i = 0; i < d; i++) S[z + i] = xs[2 + i];
  if (groups < 1 || Cg * groups != C || O % groups != 0)
    rt_error(site->expr, "%s: %s data does not fit %s weights with groups=%lld", name, rt_shape_text(rank, x->shape),
             rt_shape_text(rank, w->shape), (long long)groups);
  int64_t cs[5] = {N, O}, P = 1, KK = Cg;
  for (int i = 0; i < 3; i++) {
    OS[i] = rt_window_positions(site, op, S[i], win.k[i], win.dil[i], win.st[i], win.lo[i], win.hi[i], false);
    P = rt_mul_sat(P, OS[i]);
    KK = rt_mul_sat(KK, win.k[i]);
  }
  for (int i = 0; i < d; i++) cs[2 + i] = OS[z + i];
  IrDType dt = x->dt;
  size_t esize = rt_dtype_size(dt);
  Out res;
  char *out = out_init(&res, dt, rank, cs, opos);
  int64_t Og = O / groups;
  if (N == 0 || O == 0 || P == 0) return out_done(&res);
  bool direct = true; /* 1x1, stride 1, no padding: the data is the matrix */
  for (int i = 0; i < 3; i++) direct = direct && win.k[i] == 1 && win.st[i] == 1 && win.lo[i] == 0 && win.hi[i] == 0;
  /* per output position of a block: a column of the unfolded data, and one of the product when the
   * output is made in blocks (the product of a block goes to scratch, then to its place in each row) */
  int64_t nb = P;
  char *col = NULL, *prod = NULL;
  if (!direct) {
    if (KK == INT64_MAX || P == INT64_MAX || KK > (INT64_MAX / CONV_BLOCK_ALIGN - Og) / (int64_t)esize)
      rt_error(site->expr, "%s: the unfolded data (%lld x %lld) is too large", name, (long long)KK, (long long)P);
    nb = block_positions(P, (KK + Og) * (int64_t)esize);
    col = rt_alloc_atomic((size_t)(KK * nb) * esize + 1);
    if (nb < P) prod = rt_alloc_atomic((size_t)(Og * nb) * esize + 1);
  }
  int64_t plane = S[0] * S[1] * S[2], left = 0;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t g = 0; g < groups; g++) {
      const char *xg = xd + (size_t)((n * C + g * Cg) * plane) * esize, *wg = wd + (size_t)(g * Og * KK) * esize;
      char *og = out + (size_t)((n * O + g * Og) * P) * esize;
      if (direct) {
        rt_gemm(site, dt, false, false, Og, P, KK, wg, xg, og);
        continue;
      }
      Unfold u = {xg, Cg, S, OS, &win, esize};
      for (int64_t p0 = 0; p0 < P; p0 += nb) {
        int64_t m = P - p0 < nb ? P - p0 : nb;
        unfold(site, &u, p0, p0 + m, col, &left);
        rt_gemm(site, dt, false, false, Og, m, KK, wg, col, m == P ? og : prod);
        if (m < P)
          for (int64_t o = 0; o < Og; o++) {
            rt_poll_work(site, &left, m + 8);
            rt_copy(site, og + (size_t)(o * P + p0) * esize, prod + (size_t)(o * m) * esize, (size_t)m * esize);
          }
      }
    }
    rt_poll(site->expr);
  }
  return out_done(&res);
}

/* nn.conv2d_transpose (over 3 axes as the rest): per image and group, col = w_g^T x_g (a matrix product: (O/g *
 * KK) x spatial), then col2im adds each column into the output window it came from. The columns are made
 * for a block of input positions at a time (as the unfolding, CONV_BLOCK), the blocks from the last
 * positions to the first: the input position whose term an output element receives from tap k falls as
 * k rises (o = i * st - lo + k * dil, on every axis), so each output element still receives its terms in
 * the order of the taps, as when the columns were made whole, and float sums are unchanged. */
/* stride * (n - 1) + dil * (k - 1) + 1 - lo - hi + opad, TVM's Conv2DTransposeRel for every n (an empty axis
 * too: the output is then zeros, nothing being added into it); negative (padding that removes more than
 * there is) is a run-time error, as the relation's type error with constants. */
static int64_t transpose_len(const RtSite *site, IrOpId op, int64_t n, int64_t k, int64_t st, int64_t dil, int64_t lo,
                             int64_t hi, int64_t opad) {
  IrWide len = (IrWide)st * (n - 1) + (IrWide)dil * (k - 1) + 1 - lo - hi + opad;
  if (len < 0)
    rt_error(site->expr, "%s: padding [%lld, %lld] removes more than the output of an axis of %lld has",
             ir_ops[op].name, (long long)lo, (long long)hi, (long long)n);
  if (len > INT64_MAX) rt_error(site->expr, "%s: the output of an axis of %lld passes int64", ir_ops[op].name, (long long)n);
  return (int64_t)len;
}

static RtValue conv_transpose(IrOpId op, int d, const RtOperand *x, const RtOperand *w, const IrOpAttrs *at,
                              const RtSite *site) {
  const char *name = ir_ops[op].name;
  int opos[5], rank = d + 2, z = 3 - d;
  int64_t xs[5], ws[5], t[3];
  const char *xd, *wd;
  Win win;
  conv_operands(op, d, "IO", x, w, at, site, opos, xs, ws, &xd, &wd, &win);
  int64_t opad[3] = {0, 0, 0};
  ir_attr_tuple(at, IR_A_OUTPUT_PADDING, d, 0, t);
  for (int i = 0; i < d; i++) opad[z + i] = t[i];
  int64_t groups = ir_attr_int(at, IR_A_GROUPS, 1);
  int64_t N = xs[0], C = xs[1], Og = ws[1], S[3] = {1, 1, 1}, OS[3];
  for (int i = 0; i < d; i++) S[z + i] = xs[2 + i];
  if (groups < 1 || ws[0] != C || C % groups != 0)
    rt_error(site->expr, "%s: %s data does not fit %s weights with groups=%lld", name, rt_shape_text(rank, x->shape),
             rt_shape_text(rank, w->shape), (long long)groups);
  int64_t Cg = C / groups, O = Og * groups, cs[5] = {N, O}, P = 1, KK = 1, OP = 1;
  for (int i = 0; i < 3; i++) {
    OS[i] = transpose_len(site, op, S[i], win.k[i], win.st[i], win.dil[i], win.lo[i], win.hi[i], opad[i]);
    P = rt_mul_sat(P, S[i]);
    KK = rt_mul_sat(KK, win.k[i]);
    OP = rt_mul_sat(OP, OS[i]);
  }
  for (int i = 0; i < d; i++) cs[2 + i] = OS[z + i];
  IrDType dt = x->dt;
  size_t esize = rt_dtype_size(dt);
  Out res;
  char *out = out_init(&res, dt, rank, cs, opos);
  if (N == 0 || O == 0 || OP == 0) return out_done(&res);
  if (P == 0) { /* an empty input axis: nothing to add into the output */
    rt_zero(site, out, (size_t)rt_mul_sat(rt_mul_sat(N, O), OP) * esize);
    return out_done(&res);
  }
  /* per input position of a block: a column of the columns (Og * KK), and one of the data when it is
   * made in blocks (the block's data copied together, a matrix of its own) */
  int64_t rows;
  if (__builtin_mul_overflow(Og, KK, &rows) || rows > (INT64_MAX / CONV_BLOCK_ALIGN - Cg) / (int64_t)esize)
    rt_error(site->expr, "%s: the columns (%lld x %lld) are too large", name, (long long)rows, (long long)P);
  int64_t nb = block_positions(P, (rows + Cg) * (int64_t)esize);
  char *col = rt_alloc_atomic((size_t)(rows * nb) * esize + 1), *xb = nb < P ? rt_alloc_atomic((size_t)(Cg * nb) * esize + 1) : NULL;
  bool f32 = dt.code == IR_DT_FLOAT && dt.bits == 32, f64 = dt.code == IR_DT_FLOAT && dt.bits == 64;
  double *acc = f32 || f64 ? NULL : rt_alloc_array(Og * OP, sizeof(double)); /* a group's output: at most all of it */
  uint64_t *iacc = dt.code == IR_DT_FLOAT ? NULL : (uint64_t *)acc;
  int64_t left = 0;
  for (int64_t n = 0; n < N; n++) {
    for (int64_t g = 0; g < groups; g++) {
      const char *xg = xd + (size_t)((n * C + g * Cg) * P) * esize, *wg = wd + (size_t)(g * Cg * rows) * esize;
      char *og = out + (size_t)((n * O + g * Og) * OP) * esize;
      if (acc) rt_zero(site, acc, sizeof(double) * (size_t)(Og * OP));
      else rt_zero(site, og, (size_t)(Og * OP) * esize);
      for (int64_t p0 = (P - 1) / nb * nb; p0 >= 0; p0 -= nb) {
        int64_t p1 = P - p0 < nb ? P : p0 + nb, m = p1 - p0, first = p0 / S[2], f0 = first / S[1], f1 = first % S[1], f2 = p0 % S[2];
        const char *xm = xg;
        if (m < P) {
          for (int64_t c = 0; c < Cg; c++) {
            rt_poll_work(site, &left, m + 8);
            rt_copy(site, xb + (size_t)(c * m) * esize, xg + (size_t)(c * P + p0) * esize, (size_t)m * esize);
          }
          xm = xb;
        }
        /* col[(o, k0, k1, k2), s] = sum over c of w[g * Cg + c, o, k] x[n, g * Cg + c, p0 + s] */
        rt_gemm(site, dt, true, false, rows, m, Cg, wg, xm, col);
        for (int64_t o = 0; o < Og; o++) {
          char *dst = og + (size_t)(o * OP) * esize;
          double *a = acc ? acc + o * OP : NULL;
          uint64_t *ia = iacc ? iacc + o * OP : NULL;
          int64_t row = o * KK;
          for (int64_t k0 = 0; k0 < win.k[0]; k0++)
            for (int64_t k1 = 0; k1 < win.k[1]; k1++)
              for (int64_t k2 = 0; k2 < win.k[2]; k2++, row++) {
                int64_t src = row * m;
                for (int64_t p = p0, i0 = f0, i1 = f1, i2 = f2; p < p1;) {
                  int64_t e2 = S[2] - i2 <= p1 - p ? S[2] : i2 + (p1 - p);
                  int64_t o0 = i0 * win.st[0] - win.lo[0] + k0 * win.dil[0];
                  int64_t o1 = i1 * win.st[1] - win.lo[1] + k1 * win.dil[1];
                  bool inside = o0 >= 0 && o0 < OS[0] && o1 >= 0 && o1 < OS[1];
                  rt_poll_work(site, &left, e2 - i2 + 8);
                  p += e2 - i2;
                  for (; i2 < e2; i2++, src++) {
                    rt_poll_every(site, i2 + 1);
                    int64_t o2 = i2 * win.st[2] - win.lo[2] + k2 * win.dil[2];
                    if (!inside || o2 < 0 || o2 >= OS[2]) continue;
                    int64_t at_ = (o0 * OS[1] + o1) * OS[2] + o2;
                    if (f32) ((float *)dst)[at_] += ((const float *)col)[src];
                    else if (f64) ((double *)dst)[at_] += ((const double *)col)[src];
                    else if (ia) ia[at_] += rt_elem_get(col, dt, src).u.u;
                    else a[at_] += rt_scalar_f64(rt_elem_get(col, dt, src));
                  }
                  i2 = 0;
                  if (++i1 == S[1]) i1 = 0, i0++;
                }
              }
        }
      }
      if (acc)
        for (int64_t i = 0; i < Og * OP; i++) {
          rt_poll_every(site, i);
          rt_elem_set(og, dt, i, iacc ? (dt.code == IR_DT_BOOL ? rt_bool(iacc[i] != 0) : rt_scalar_from_u64(dt, iacc[i]))
                                      : rt_scalar_from_f64(dt, acc[i]));
        }
    }
  }
  return out_done(&res);
}

/* ---------------------------------------------------------------- pools */

/* The dtype's lowest value (TVM's min_value: the lowest finite float), what max pooling pads with. */
static RtValue lowest_value(IrDType dt) {
  switch (dt.code) {
  case IR_DT_FLOAT: return rt_scalar_from_f64(dt, dt.bits == 16 ? -65504.0 : dt.bits == 32 ? -FLT_MAX : -DBL_MAX);
  case IR_DT_INT: return rt_scalar_from_i64(dt, dt.bits >= 64 ? INT64_MIN : -((int64_t)1 << (dt.bits - 1)));
  default: return rt_scalar_from_u64(dt, 0);
  }
}

/* A pooling window along one axis at one output position. */
typedef struct {
  int64_t start, klo, khi, padded;
} AxisWin;

static IrWide ceil_div(IrWide x, int64_t d) { return x >= 0 ? (x + d - 1) / d : -((-x) / d); }

/* The k of 0 <= k < kc with lo <= start + k dil < hi (dil >= 1): [*a, *b), empty when *a >= *b. */
static void window_positions(int64_t start, int64_t dil, int64_t kc, IrWide lo, IrWide hi, int64_t *a, int64_t *b) {
  IrWide from = ceil_div(lo - start, dil), to = ceil_div(hi - start, dil);
  if (from < 0) from = 0;
  if (to > kc) to = kc;
  *a = (int64_t)(from < kc ? from : kc);
  *b = (int64_t)(to > *a ? to : *a);
}

static RtValue pool(IrOpId op, int d, const RtOperand *x, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  bool is_max = op == IR_OP_NN_MAX_POOL1D || op == IR_OP_NN_MAX_POOL2D || op == IR_OP_NN_MAX_POOL3D ||
                op == IR_OP_NN_GLOBAL_MAX_POOL2D;
  bool global = op == IR_OP_NN_GLOBAL_AVG_POOL2D || op == IR_OP_NN_GLOBAL_MAX_POOL2D;
  bool adaptive = op == IR_OP_NN_ADAPTIVE_AVG_POOL1D || op == IR_OP_NN_ADAPTIVE_MAX_POOL1D ||
                  op == IR_OP_NN_ADAPTIVE_AVG_POOL2D || op == IR_OP_NN_ADAPTIVE_MAX_POOL2D ||
                  op == IR_OP_NN_ADAPTIVE_AVG_POOL3D || op == IR_OP_NN_ADAPTIVE_MAX_POOL3D;
  is_max = is_max || op == IR_OP_NN_ADAPTIVE_MAX_POOL1D || op == IR_OP_NN_ADAPTIVE_MAX_POOL2D ||
           op == IR_OP_NN_ADAPTIVE_MAX_POOL3D;
  char canon[8];
  snprintf(canon, sizeof canon, "NC%s", spatial_letters(d));
  int dpos[5], opos[5], rank = d + 2, z = 3 - d;
  const char *dl = layout_of(at, IR_A_LAYOUT, canon, canon, dpos, op, site);
  layout_of(at, IR_A_OUT_LAYOUT, canon, dl, opos, op, site);
  if (x->rank != rank) rt_error(site->expr, "%s takes data of rank %d", name, rank);
  int64_t xs[5];
  const void *xd = to_canon(x, dpos, xs);
  int64_t S[3] = {1, 1, 1}, OS[3];
  for (int i = 0; i < d; i++) S[z + i] = xs[2 + i];
  Win win;
  win_read(&win, at, d, IR_A_POOL_SIZE, global ? S + z : NULL);
  if (global || adaptive)
    for (int i = 0; i < 3; i++) win.st[i] = win.dil[i] = 1, win.lo[i] = win.hi[i] = 0;
  bool ceil_mode = ir_attr_at(at, IR_A_CEIL_MODE)->b, include_pad = ir_attr_at(at, IR_A_COUNT_INCLUDE_PAD)->b;
  int64_t cs[5] = {xs[0], xs[1]};
  if (!adaptive)
    for (int i = 0; i < 3; i++)
      OS[i] = rt_window_positions(site, op, S[i], win.k[i], win.dil[i], win.st[i], win.lo[i], win.hi[i], ceil_mode);
  else
    OS[0] = OS[1] = OS[2] = 1;
  if (adaptive) { /* output_size: none keeps the size, one value is every axis's */
    int64_t t[3];
    for (int i = 0; i < d; i++) t[i] = S[z + i];
    const IrAttrValue *os = ir_attr_at(at, IR_A_OUTPUT_SIZE);
    if (os->given && !os->none && os->n >= 1) ir_attr_tuple(at, IR_A_OUTPUT_SIZE, d, 1, t);
    for (int i = 0; i < d; i++) {
      OS[z + i] = t[i];
      if (t[i] < 0) rt_error(site->expr, "%s: output_size must not be negative", name);
    }
  }
  for (int i = 0; i < d; i++) cs[2 + i] = OS[z + i];
  Out res;
  void *out = out_init(&res, x->dt, rank, cs, opos);
  /* saturated: data with an empty axis may have others whose product is past int64 */
  int64_t planes = rt_mul_sat(xs[0], xs[1]), plane = rt_mul_sat(rt_mul_sat(S[0], S[1]), S[2]), o = 0;
  if (planes == 0 || OS[0] == 0 || OS[1] == 0 || OS[2] == 0) return out_done(&res); /* nothing to compute */
  bool f32 = x->dt.code == IR_DT_FLOAT && x->dt.bits == 32;
  bool int_avg = !is_max && x->dt.code != IR_DT_FLOAT; /* summed in the dtype, as topi's pool_sum */
  bool int_max = is_max && x->dt.code != IR_DT_FLOAT;  /* compared in the dtype, exact at 64 bits */
  bool is_signed = x->dt.code == IR_DT_INT;
  RtValue lowest = lowest_value(x->dt);
  /* Per axis and output position: where the window starts, its positions inside the data (klo..khi)
   * and how many fall inside the padded data; computed once, not per output element. */
  AxisWin *aw[3];
  for (int i = 0; i < 3; i++) {
    aw[i] = rt_alloc_array(OS[i], sizeof(AxisWin));
    for (int64_t oi = 0; oi < OS[i]; oi++) {
      rt_poll_every(site, oi);
      AxisWin *w = &aw[i][oi];
      int64_t kc = win.k[i];
      w->start = oi * win.st[i] - win.lo[i];
      if (adaptive) { /* TVM's: from floor(o * S / OS) to ceil((o + 1) * S / OS) */
        w->start = (int64_t)((IrWide)oi * S[i] / OS[i]); /* in 128 bits: S may be near int64's end */
        kc = (int64_t)(((IrWide)(oi + 1) * S[i] + OS[i] - 1) / OS[i] - w->start);
      }
      /* the window's positions start + k dil (0 <= k < kc) inside the data, and inside the padded
       * data: computed, not counted (a global pool's window is as long as its axis, up to 2^63) */
      int64_t a, b;
      window_positions(w->start, win.dil[i], kc, 0, S[i], &a, &b);
      if (a < b) w->klo = a, w->khi = b;
      else w->klo = w->khi = kc;
      window_positions(w->start, win.dil[i], kc, -(IrWide)win.lo[i], (IrWide)S[i] + win.hi[i], &a, &b);
      w->padded = b - a;
    }
  }
  int64_t left = 0;
  for (int64_t nc = 0; nc < planes; nc++) {
    int64_t base = nc * plane;
    for (int64_t o0 = 0; o0 < OS[0]; o0++)
      for (int64_t o1 = 0; o1 < OS[1]; o1++)
        for (int64_t o2 = 0; o2 < OS[2]; o2++, o++) {
          double acc = is_max ? -INFINITY : 0;
          uint64_t isum = int_max ? lowest.u.u : 0; /* the sum, or the maximum as the dtype's bits */
          int64_t oi[3] = {o0, o1, o2}, start[3], klo[3], khi[3], count = 1, padded = 1;
          for (int i = 0; i < 3; i++) {
            const AxisWin *w = &aw[i][oi[i]];
            start[i] = w->start, klo[i] = w->klo, khi[i] = w->khi;
            count *= w->khi - w->klo, padded *= w->padded;
          }
          rt_poll_work(site, &left, 8);
          if (count)
            for (int64_t k0 = klo[0]; k0 < khi[0]; k0++)
              for (int64_t k1 = klo[1]; k1 < khi[1]; k1++) {
                int64_t row = base + ((start[0] + k0 * win.dil[0]) * S[1] + start[1] + k1 * win.dil[1]) * S[2] + start[2];
                int64_t step = win.dil[2];
                rt_poll_work(site, &left, khi[2] - klo[2]);
                if (f32) {
                  const float *p = (const float *)xd + row;
                  if (is_max)
                    for (int64_t k2 = klo[2]; k2 < khi[2]; k2++) {
                      rt_poll_every(site, k2 - klo[2] + 1); /* a global pool's row may be long */
                      double v = p[k2 * step];
                      acc = v > acc || v != v ? (acc != acc ? acc : v) : acc;
                    }
                  else
                    for (int64_t k2 = klo[2]; k2 < khi[2]; k2++) {
                      rt_poll_every(site, k2 - klo[2] + 1);
                      acc += p[k2 * step];
                    }
                } else if (int_avg) {
                  for (int64_t k2 = klo[2]; k2 < khi[2]; k2++) {
                    rt_poll_every(site, k2 - klo[2] + 1);
                    isum += rt_elem_get(xd, x->dt, row + k2 * step).u.u;
                  }
                } else if (int_max) {
                  for (int64_t k2 = klo[2]; k2 < khi[2]; k2++) {
                    rt_poll_every(site, k2 - klo[2] + 1);
                    uint64_t v = rt_elem_get(xd, x->dt, row + k2 * step).u.u;
                    if (is_signed ? (int64_t)v > (int64_t)isum : v > isum) isum = v;
                  }
                } else {
                  for (int64_t k2 = klo[2]; k2 < khi[2]; k2++) {
                    rt_poll_every(site, k2 - klo[2] + 1);
                    double v = rt_scalar_f64(rt_elem_get(xd, x->dt, row + k2 * step));
                    acc = is_max ? (v > acc || v != v ? (acc != acc ? acc : v) : acc) : acc + v;
                  }
                }
              }
          /* TVM's: a window pool's mean divides by max(elements, 1), so a window of padding only
           * is 0 (an adaptive or global pool's empty window is 0 / 0, NaN, as mean's); the maximum
           * of one is the padding value, the dtype's lowest */
          int64_t divisor = include_pad ? padded : count;
          if (divisor < 1 && !global && !adaptive) divisor = 1;
          double result = is_max ? acc : acc / (double)divisor;
          if (count == 0 && is_max) {
            rt_elem_set(out, x->dt, o, lowest);
            continue;
          }
          if (int_max) {
            rt_elem_set(out, x->dt, o, rt_scalar_from_u64(x->dt, isum));
            continue;
          }
          if (int_avg) { /* topi: an adaptive or global pool casts the count to the dtype, a window pool does not */
            rt_elem_set(out, x->dt, o, rt_int_mean(x->dt, isum, divisor, global || adaptive, site));
            continue;
          }
          rt_elem_set(out, x->dt, o, rt_scalar_from_f64(x->dt, result));
        }
  }
  return out_done(&res);
}

/* ---------------------------------------------------------------- pad */

/* nn.pad: each output index maps to an input index per axis (-1: the pad value), by pad_mode. */
static RtValue pad(IrOpId op, const RtValue *args, int nargs, const IrOpAttrs *at, const RtSite *site) {
  RtOperand x;
  rt_operand(&x, args[0]);
  const char *name = ir_ops[op].name;
  const IrAttrValue *pw = ir_attr_at(at, IR_A_PAD_WIDTH), *pm = ir_attr_at(at, op == IR_OP_NN_MIRROR_PAD ? IR_A_MODE : IR_A_PAD_MODE);
  const char *ms = pm->given && !pm->none && pm->str ? pm->str : op == IR_OP_NN_MIRROR_PAD ? "SYMMETRIC" : "constant";
  /* 0 constant, 1 edge, 2 reflect (REFLECT), 3 symmetric (SYMMETRIC: the edge repeated) */
  int mode = !strcmp(ms, "edge") ? 1 : !strcmp(ms, "reflect") || !strcmp(ms, "REFLECT") ? 2 : !strcmp(ms, "SYMMETRIC") ? 3 : 0;
  int r = x.rank;
  if (pw->n != 2 * r) rt_error(site->expr, "%s: pad_width has %d pairs for data of rank %d", name, pw->n / 2, r);
  if (r == 0) return args[0];
  int64_t shape[RT_MAX_RANK], *map[RT_MAX_RANK];
  for (int i = 0; i < r; i++) {
    int64_t n = x.shape[i], lo = pw->ints[2 * i], hi = pw->ints[2 * i + 1];
    if (__builtin_add_overflow(n, lo, &shape[i]) || __builtin_add_overflow(shape[i], hi, &shape[i]) || shape[i] < 0)
      rt_error(site->expr, "%s: pad_width [%lld, %lld] does not fit axis %d of %s", name, (long long)lo, (long long)hi,
               i, rt_shape_text(r, x.shape));
    if ((mode == 1 && n == 0 && shape[i] > 0) || (mode == 2 && (lo > 0 || hi > 0) && (lo >= n || hi >= n)) ||
        (mode == 3 && (lo > n || hi > n || lo < 0 || hi < 0)))
      rt_error(site->expr, "%s: mode \"%s\" cannot pad axis %d of %s by [%lld, %lld]", name, ms, i,
               rt_shape_text(r, x.shape), (long long)lo, (long long)hi);
  }
  IrDType dt = x.dt;
  size_t esize = rt_dtype_size(dt);
  RtResult res;
  char *out = rt_result_init(&res, dt, r, shape);
  int64_t total = 1;
  for (int i = 0; i < r; i++) total = rt_mul_sat(total, shape[i]);
  if (total == 0) return rt_result_value(&res);
  for (int i = 0; i < r; i++) {
    int64_t n = x.shape[i], lo = pw->ints[2 * i];
    map[i] = rt_alloc_atomic(sizeof(int64_t) * (size_t)shape[i] + 1);
    for (int64_t o = 0; o < shape[i]; o++) {
      rt_poll_every(site, o);
      int64_t k = o - lo;
      if (k < 0 || k >= n)
        k = mode == 0   ? -1
            : mode == 1 ? (k < 0 ? 0 : n - 1)
            : mode == 2 ? (k < 0 ? -k : 2 * n - 2 - k)
                        : (k < 0 ? -k - 1 : 2 * n - 1 - k);
      map[i][o] = k;
    }
  }
  RtValue fill = rt_convert(nargs > 1 ? args[1] : rt_scalar_from_f64(IR_DTYPE(IR_DT_FLOAT, 64), ir_attr_at(at, IR_A_PAD_VALUE)->f), dt);
  RtOperand fv;
  rt_operand(&fv, fill);
  int64_t stride[RT_MAX_RANK], idx[RT_MAX_RANK] = {0}, s = 1;
  for (int i = r - 1; i >= 0; i--) stride[i] = s, s *= x.shape[i];
  int64_t inner = shape[r - 1], rows = total / inner;
  const char *src = x.data;
  char *dst = out;
  int64_t left = 0;
  for (int64_t row = 0; row < rows; row++) {
    rt_poll_work(site, &left, inner + 8);
    int64_t off = 0;
    bool outside = false;
    for (int i = 0; i < r - 1; i++) {
      if (map[i][idx[i]] < 0) outside = true;
      off += map[i][idx[i]] * stride[i];
    }
    for (int64_t o = 0; o < inner; o++, dst += esize) {
      rt_poll_every(site, o + 1);
      int64_t k = outside ? -1 : map[r - 1][o];
      memcpy(dst, k < 0 ? fv.data : src + (size_t)(off + k) * esize, esize);
    }
    for (int i = r - 2; i >= 0; i--) {
      if (++idx[i] < shape[i]) break;
      idx[i] = 0;
    }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- resizing, pixel shuffles */

static const char *str_attr(const IrOpAttrs *at, IrAttrId id, const char *dflt) {
  const IrAttrValue *a = ir_attr_at(at, id);
  return a->given && !a->none && a->str ? a->str : dflt;
}

/* TVM's get_inx: the input coordinate of output coordinate x. */
static double in_coord(int64_t x, int64_t in, int64_t out, const char *mode) {
  double scale = (double)in / (double)out;
  if (!strcmp(mode, "align_corners")) return out > 1 ? (double)(in - 1) / (double)(out - 1) * (double)x : 0;
  if (!strcmp(mode, "asymmetric")) return scale * (double)x;
  if (!strcmp(mode, "pytorch_half_pixel")) return out > 1 ? ((double)x + 0.5) * scale - 0.5 : 0;
  if (!strcmp(mode, "tf_half_pixel_for_nn")) return ((double)x + 0.5) * scale;
  return ((double)x + 0.5) * scale - 0.5; /* half_pixel */
}

/* TVM's get_closest_index (python/tvm/topi/image/resize.py): "round" is te.round, which LLVM's code generator emits
 * as llvm.round (halves away from zero, src/target/llvm/intrin_rule_llvm.cc). */
static int64_t closest(double v, const char *rounding) {
  if (!strcmp(rounding, "round")) return rt_f2index(round(v));
  if (!strcmp(rounding, "round_prefer_floor")) return rt_f2index(ceil(v - 0.5));
  if (!strcmp(rounding, "round_prefer_ceil")) return rt_f2index(floor(v + 0.5));
  if (!strcmp(rounding, "ceil")) return rt_f2index(ceil(v - 1e-5));
  return rt_f2index(floor(v + 1e-5));
}

static int64_t clamp_index(int64_t i, int64_t n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/* topi's _resize_2d takes nearest_neighbor with asymmetric coordinates along an axis whose output is a whole multiple
 * k of its input n as the integer index x / k, whatever the rounding method (can_convert_multiply_to_intdiv in
 * python/tvm/topi/image/resize.py): the k, or 0 where topi computes in floats (a ratio that is no whole number, or
 * one above its bound 1 / (1e-5 n + 1e-5), the 1e-5 a float32 constant as TIR makes it). Only resize2d (and
 * nn.upsampling, which topi computes as resize2d) has this path; resize1d and resize3d always round the float. */
static int64_t int_div_factor(int64_t n, int64_t out) {
  if (n <= 0 || out % n != 0) return 0;
  double eps = (float)1e-5;
  return (double)out / (double)n > 1 / (eps * (double)n + eps) ? 0 : out / n;
}

/* image.resize2d and nn.upsampling (TVM's upsampling is resize2d with asymmetric or align_corners
 * coordinates): nearest_neighbor or linear, on NCHW in double, neighbours clamped to the edge; an integer result
 * truncates the interpolated value, as topi's _cast_output (astype). */
static RtValue resize(IrOpId op, const RtOperand *x, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  int dpos[4];
  layout_of(at, IR_A_LAYOUT, "NCHW", "NCHW", dpos, op, site);
  if (x->rank != 4) rt_error(site->expr, "%s takes data of rank 4", name);
  int64_t xs[4];
  const void *xd = to_canon(x, dpos, xs);
  int64_t H = xs[2], W = xs[3], OH, OW;
  const char *method, *mode, *rounding;
  IrDType odt = x->dt;
  if (op == IR_OP_NN_UPSAMPLING) {
    const IrAttrValue *sh = ir_attr_at(at, IR_A_SCALE_H), *sw = ir_attr_at(at, IR_A_SCALE_W), *size = ir_attr_at(at, IR_A_SIZE);
    if (size->given && size->n == 2) /* dyn.nn.upsampling's, from its shape function */
      OH = size->ints[0], OW = size->ints[1];
    else if (!ir_scaled_length(H, sh->given ? sh->f : 1, &OH) || !ir_scaled_length(W, sw->given ? sw->f : 1, &OW))
      rt_error(site->expr, "%s: the output is too large", name);
    method = !strcmp(str_attr(at, IR_A_METHOD, "nearest_neighbor"), "bilinear") ? "linear" : "nearest_neighbor";
    mode = ir_attr_at(at, IR_A_ALIGN_CORNERS)->b ? "align_corners" : "asymmetric";
    rounding = "";
  } else {
    const IrAttrValue *size = ir_attr_at(at, IR_A_SIZE);
    if (size->n != 2) rt_error(site->expr, "%s: size takes 2 values", name);
    OH = size->ints[0], OW = size->ints[1];
    method = str_attr(at, IR_A_METHOD, "linear");
    mode = str_attr(at, IR_A_COORDINATE_TRANSFORMATION_MODE, "half_pixel");
    rounding = str_attr(at, IR_A_ROUNDING_METHOD, "round"); /* Resize*DAttrs' C++ default; "" is topi's own choice */
    odt = ir_attr_dtype(at, IR_A_OUT_DTYPE, x->dt);
  }
  if (OH < 0 || OW < 0) rt_error(site->expr, "%s: the output size is negative", name);
  bool nearest = !strcmp(method, "nearest_neighbor");
  if (!*rounding) rounding = !strcmp(mode, "align_corners") ? "round" : "floor";
  bool int_div = nearest && !strcmp(mode, "asymmetric");
  int64_t ky = int_div ? int_div_factor(H, OH) : 0, kx = int_div ? int_div_factor(W, OW) : 0;
  int64_t cs[4] = {xs[0], xs[1], OH, OW};
  Out res;
  void *out = out_init(&res, odt, 4, cs, dpos);
  /* saturated: data with an empty axis may have others whose product is past int64 */
  int64_t planes = rt_mul_sat(xs[0], xs[1]), o = 0;
  if (planes == 0 || OH == 0 || OW == 0) return out_done(&res);
  if (H == 0 || W == 0) rt_error(site->expr, "%s: resizing an empty image", name);
  for (int64_t p = 0; p < planes; p++) {
    int64_t base = p * H * W;
    for (int64_t oy = 0; oy < OH; oy++) {
      double iy = in_coord(oy, H, OH, mode);
      for (int64_t ox = 0; ox < OW; ox++, o++) {
        rt_poll_every(site, o);
        double ix = in_coord(ox, W, OW, mode), v;
        if (nearest) {
          int64_t y = ky ? oy / ky : clamp_index(closest(iy, rounding), H);
          int64_t xx = kx ? ox / kx : clamp_index(closest(ix, rounding), W);
          RtValue got = rt_elem_get(xd, x->dt, base + y * W + xx);
          rt_elem_set(out, odt, o, rt_convert(got, odt));
          continue;
        }
        int64_t y0 = rt_f2index(floor(iy)), x0 = rt_f2index(floor(ix));
        double fy = iy - (double)y0, fx = ix - (double)x0, q[2][2];
        for (int j = 0; j < 2; j++)
          for (int i = 0; i < 2; i++)
            q[j][i] = rt_scalar_f64(rt_elem_get(xd, x->dt, base + clamp_index(y0 + j, H) * W + clamp_index(x0 + i, W)));
        double top = q[0][0] + (q[0][1] - q[0][0]) * fx, bottom = q[1][0] + (q[1][1] - q[1][0]) * fx;
        v = top + (bottom - top) * fy;
        rt_elem_set(out, odt, o, rt_scalar_from_f64(odt, v));
      }
    }
  }
  return out_done(&res);
}

/* image.resize1d, image.resize3d and nn.upsampling3d: resize2d's rules over d spatial axes (canonical NC + d),
 * nearest_neighbor or (multi)linear from the 2^d neighbours, clamped to the edge, in double, an integer result
 * truncated. */
static RtValue resize_nd(IrOpId op, int d, const RtOperand *x, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  char canon[8];
  snprintf(canon, sizeof canon, "NC%s", spatial_letters(d));
  int dpos[5], rank = d + 2;
  layout_of(at, IR_A_LAYOUT, canon, canon, dpos, op, site);
  if (x->rank != rank) rt_error(site->expr, "%s takes data of rank %d", name, rank);
  int64_t xs[5], cs[5];
  const void *xd = to_canon(x, dpos, xs);
  const char *method, *mode, *rounding;
  IrDType odt = x->dt;
  cs[0] = xs[0], cs[1] = xs[1];
  if (op == IR_OP_NN_UPSAMPLING3D) {
    static const IrAttrId ids[3] = {IR_A_SCALE_D, IR_A_SCALE_H, IR_A_SCALE_W};
    const IrAttrValue *size = ir_attr_at(at, IR_A_SIZE);
    for (int i = 0; i < 3; i++)
      if (size->given && size->n == 3) cs[2 + i] = size->ints[i]; /* dyn.nn.upsampling3d's, from its shape function */
      else if (!ir_scaled_length(xs[2 + i], ir_attr_float(at, ids[i], 1), &cs[2 + i]))
        rt_error(site->expr, "%s: the output is too large", name);
    method = !strcmp(str_attr(at, IR_A_METHOD, "nearest_neighbor"), "trilinear") ? "linear" : "nearest_neighbor";
    mode = str_attr(at, IR_A_COORDINATE_TRANSFORMATION_MODE, "half_pixel");
    rounding = "";
  } else {
    const IrAttrValue *size = ir_attr_at(at, IR_A_SIZE);
    if (size->n != d) rt_error(site->expr, "%s: size takes %d values", name, d);
    for (int i = 0; i < d; i++) cs[2 + i] = size->ints[i];
    method = str_attr(at, IR_A_METHOD, "linear");
    mode = str_attr(at, IR_A_COORDINATE_TRANSFORMATION_MODE, "half_pixel");
    rounding = str_attr(at, IR_A_ROUNDING_METHOD, "round"); /* Resize*DAttrs' C++ default; "" is topi's own choice */
    odt = ir_attr_dtype(at, IR_A_OUT_DTYPE, x->dt);
  }
  int64_t total = 1, in_plane = 1, out_plane = 1;
  for (int i = 0; i < d; i++) {
    if (cs[2 + i] < 0 || cs[2 + i] > ((int64_t)1 << 40))
      rt_error(site->expr, "%s: the output size is out of range", name);
    in_plane = rt_mul_sat(in_plane, xs[2 + i]), out_plane = rt_mul_sat(out_plane, cs[2 + i]);
  }
  bool nearest = !strcmp(method, "nearest_neighbor");
  if (!*rounding) rounding = !strcmp(mode, "align_corners") ? "round" : "floor";
  Out res;
  void *out = out_init(&res, odt, rank, cs, dpos);
  for (int i = 0; i < rank; i++) total = rt_mul_sat(total, cs[i]);
  if (total == 0) return out_done(&res);
  if (in_plane == 0) rt_error(site->expr, "%s: resizing an empty image", name);
  int64_t planes = xs[0] * xs[1], o = 0, istride[3], s = 1; /* planes * in_plane elements are in memory */
  for (int i = d - 1; i >= 0; i--) istride[i] = s, s *= xs[2 + i];
  /* per axis: the input coordinate of every output index */
  double *coord[3];
  for (int i = 0; i < d; i++) {
    coord[i] = rt_alloc_atomic(sizeof(double) * (size_t)cs[2 + i] + 1);
    for (int64_t k = 0; k < cs[2 + i]; k++) {
      rt_poll_every(site, k);
      coord[i][k] = in_coord(k, xs[2 + i], cs[2 + i], mode);
    }
  }
  for (int64_t p = 0; p < planes; p++) {
    int64_t base = p * in_plane, idx[3] = {0, 0, 0};
    for (int64_t q = 0; q < out_plane; q++, o++) {
      rt_poll_every(site, o);
      if (nearest) {
        int64_t off = base;
        for (int i = 0; i < d; i++) off += clamp_index(closest(coord[i][idx[i]], rounding), xs[2 + i]) * istride[i];
        rt_elem_set(out, odt, o, rt_convert(rt_elem_get(xd, x->dt, off), odt));
      } else {
        int64_t lo[3];
        double f[3], v = 0;
        for (int i = 0; i < d; i++) lo[i] = rt_f2index(floor(coord[i][idx[i]])), f[i] = coord[i][idx[i]] - (double)lo[i];
        for (int corner = 0; corner < (1 << d); corner++) {
          double wgt = 1;
          int64_t off = base;
          for (int i = 0; i < d; i++) {
            int bit = (corner >> (d - 1 - i)) & 1;
            wgt *= bit ? f[i] : 1 - f[i];
            off += clamp_index(lo[i] + bit, xs[2 + i]) * istride[i];
          }
          if (wgt != 0) v += wgt * rt_scalar_f64(rt_elem_get(xd, x->dt, off));
        }
        rt_elem_set(out, odt, o, rt_scalar_from_f64(odt, v));
      }
      for (int i = d - 1; i >= 0; i--) {
        if (++idx[i] < cs[2 + i]) break;
        idx[i] = 0;
      }
    }
  }
  return out_done(&res);
}

/* nn.depth_to_space (DCR: the channel is (i, j, c); CRD: (c, i, j)) and nn.space_to_depth (channel
 * (i, j, c)), on NCHW, element by element. */
static RtValue pixel_shuffle(IrOpId op, const RtOperand *x, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  int dpos[4];
  layout_of(at, IR_A_LAYOUT, "NCHW", "NCHW", dpos, op, site);
  if (x->rank != 4) rt_error(site->expr, "%s takes data of rank 4", name);
  int64_t xs[4], b = ir_attr_int(at, IR_A_BLOCK_SIZE, 1);
  const char *xd = to_canon(x, dpos, xs);
  int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
  bool d2s = op == IR_OP_NN_DEPTH_TO_SPACE, crd = d2s && !strcmp(str_attr(at, IR_A_MODE, "DCR"), "CRD");
  if (b < 1 || (d2s && C % (b * b) != 0) || (!d2s && (H % b != 0 || W % b != 0)))
    rt_error(site->expr, "%s: block_size=%lld does not fit %s", name, (long long)b, rt_shape_text(4, x->shape));
  int64_t cs[4] = {N, d2s ? C / (b * b) : C * b * b, d2s ? H * b : H / b, d2s ? W * b : W / b};
  size_t esize = rt_dtype_size(x->dt);
  Out res;
  char *out = out_init(&res, x->dt, 4, cs, dpos);
  int64_t OC = cs[1], OH = cs[2], OW = cs[3], o = 0;
  if (x->count == 0) return out_done(&res); /* the outer loops may be long over empty rows */
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < OC; c++)
      for (int64_t y = 0; y < OH; y++)
        for (int64_t xx = 0; xx < OW; xx++, o++) {
          rt_poll_every(site, o);
          int64_t src;
          if (d2s) {
            int64_t i = y % b, j = xx % b, ic = crd ? (c * b + i) * b + j : (i * b + j) * OC + c;
            src = ((n * C + ic) * H + y / b) * W + xx / b;
          } else {
            int64_t ij = c / C, ic = c % C, i = ij / b, j = ij % b;
            src = ((n * C + ic) * H + y * b + i) * W + xx * b + j;
          }
          memcpy(out + (size_t)o * esize, xd + (size_t)src * esize, esize);
        }
  return out_done(&res);
}

/* ---------------------------------------------------------------- space_to_batch_nd, batch_to_space_nd */

/* TF's: the output batch index is (block offset k, flattened with k_1 outermost) * batch + b; a spatial index i
 * of a block's view maps to the padded (uncropped) index i * block + k. */
static RtValue batch_space(IrOpId op, const RtOperand *x, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  bool to_batch = op == IR_OP_NN_SPACE_TO_BATCH_ND;
  static const int64_t ones[2] = {1, 1}; /* block_shape's C++ default (SpaceToBatchNDAttrs, BatchToSpaceNDAttrs) */
  IrAttrValue block = ir_attr_ints(at, IR_A_BLOCK_SHAPE, 2, ones);
  const IrAttrValue *bs = &block, *pp = ir_attr_at(at, to_batch ? IR_A_PADDINGS : IR_A_CROPS);
  int r = x->rank, m = bs->n;
  if (m < 1 || pp->n != 2 * m || r < m + 1)
    rt_error(site->expr, "%s: block_shape does not fit data of rank %d", name, r);
  int64_t prod = 1, shape[RT_MAX_RANK];
  for (int i = 0; i < m; i++) {
    if (bs->ints[i] < 1 || pp->ints[2 * i] < 0 || pp->ints[2 * i + 1] < 0 ||
        __builtin_mul_overflow(prod, bs->ints[i], &prod))
      rt_error(site->expr, "%s: block_shape or its pairs out of range", name);
  }
  for (int i = 0; i < r; i++) shape[i] = x->shape[i];
  if (to_batch) {
    if (__builtin_mul_overflow(x->shape[0], prod, &shape[0])) rt_error(site->expr, "%s: the output is too large", name);
  } else {
    if (x->shape[0] % prod) rt_error(site->expr, "%s: the batch %lld is not divisible by %lld", name, (long long)x->shape[0], (long long)prod);
    shape[0] = x->shape[0] / prod;
  }
  for (int i = 0; i < m; i++) {
    int64_t n = x->shape[i + 1], b = bs->ints[i], lo = pp->ints[2 * i], hi = pp->ints[2 * i + 1], t;
    if (to_batch) {
      if (__builtin_add_overflow(n, lo + hi, &t) || t % b)
        rt_error(site->expr, "%s: axis %d of %s padded is not divisible by its block %lld", name, i + 1,
                 rt_shape_text(r, x->shape), (long long)b);
      shape[i + 1] = t / b;
    } else {
      if (__builtin_mul_overflow(n, b, &t) || t - lo - hi < 0)
        rt_error(site->expr, "%s: crops do not fit axis %d of %s", name, i + 1, rt_shape_text(r, x->shape));
      shape[i + 1] = t - lo - hi;
    }
  }
  size_t esize = rt_dtype_size(x->dt);
  RtResult res;
  char *out = rt_result_init(&res, x->dt, r, shape);
  int64_t total = 1, inner = 1;
  for (int i = 0; i < r; i++) total = rt_mul_sat(total, shape[i]);
  for (int i = m + 1; i < r; i++) inner *= shape[i];
  if (total == 0) return rt_result_value(&res);
  double pv = ir_attr_float(at, IR_A_PAD_VALUE, 0);
  RtValue fill = rt_convert(rt_scalar_from_f64(IR_DTYPE(IR_DT_FLOAT, 64), pv), x->dt);
  RtOperand fv;
  rt_operand(&fv, fill);
  int64_t xstride[RT_MAX_RANK], s = 1;
  for (int i = r - 1; i >= 0; i--) xstride[i] = s, s *= x->shape[i];
  /* the outer index (batch and spatial axes) of the output, row-major */
  int64_t idx[RT_MAX_RANK] = {0}, outer = total / inner, batch = to_batch ? x->shape[0] : shape[0];
  const char *src = x->data;
  char *dst = out;
  int64_t left = 0;
  for (int64_t o = 0; o < outer; o++, dst += (size_t)inner * esize) {
    rt_poll_work(site, &left, inner + 8);
    int64_t off = 0, kflat, bidx;
    bool outside = false;
    if (to_batch) {
      kflat = idx[0] / batch, bidx = idx[0] % batch;
      off = bidx * xstride[0];
      for (int i = m - 1; i >= 0; i--) {
        int64_t k = kflat % bs->ints[i];
        kflat /= bs->ints[i];
        int64_t p = idx[i + 1] * bs->ints[i] + k - pp->ints[2 * i];
        if (p < 0 || p >= x->shape[i + 1]) outside = true;
        off += p * xstride[i + 1];
      }
    } else {
      int64_t kf = 0, mul = 1;
      for (int i = m - 1; i >= 0; i--) {
        int64_t u = idx[i + 1] + pp->ints[2 * i];
        kf += (u % bs->ints[i]) * mul;
        mul *= bs->ints[i];
        off += (u / bs->ints[i]) * xstride[i + 1];
      }
      off += (kf * batch + idx[0]) * xstride[0];
    }
    if (outside)
      for (int64_t j = 0; j < inner; j++) {
        rt_poll_every(site, j + 1);
        memcpy(dst + (size_t)j * esize, fv.data, esize);
      }
    else
      rt_copy(site, dst, src + (size_t)off * esize, (size_t)inner * esize);
    for (int i = m; i >= 0; i--) {
      if (++idx[i] < shape[i]) break;
      idx[i] = 0;
    }
  }
  return rt_result_value(&res);
}

/* nn.dilate: element i of each axis goes to i * stride; the rest is dilation_value. */
static RtValue dilate(IrOpId op, const RtOperand *x, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  const IrAttrValue *st = ir_attr_at(at, IR_A_STRIDES);
  static const int64_t ones[2] = {1, 1};
  int r = x->rank, n = st->given && !st->none ? st->n : 2;
  const int64_t *s = st->given && !st->none ? st->ints : ones;
  if (n != r) rt_error(site->expr, "%s: strides has %d values for data of rank %d", name, n, r);
  int64_t shape[RT_MAX_RANK], total = 1;
  for (int i = 0; i < r; i++) {
    if (s[i] < 1) rt_error(site->expr, "%s: strides must be positive", name);
    if (x->shape[i] == 0 && s[i] > 1) /* (0 - 1) * stride + 1 elements: the relation's type error */
      rt_error(site->expr, "%s: axis %d of %s is empty, which strides=%lld cannot dilate", name, i,
               rt_shape_text(r, x->shape), (long long)s[i]);
    if (x->shape[i] == 0)
      shape[i] = 0;
    else if (__builtin_mul_overflow(x->shape[i] - 1, s[i], &shape[i]) || shape[i] == INT64_MAX)
      rt_error(site->expr, "%s: the output is too large", name);
    else
      shape[i] += 1;
    total = rt_mul_sat(total, shape[i]);
  }
  size_t esize = rt_dtype_size(x->dt);
  RtResult res;
  char *out = rt_result_init(&res, x->dt, r, shape);
  if (total == 0 || r == 0) {
    if (r == 0) memcpy(out, x->data, esize);
    return rt_result_value(&res);
  }
  if (total == INT64_MAX) rt_error(site->expr, "%s: the output is too large", name);
  RtValue fill = rt_convert(rt_scalar_from_f64(IR_DTYPE(IR_DT_FLOAT, 64), ir_attr_float(at, IR_A_DILATION_VALUE, 0)), x->dt);
  RtOperand fv;
  rt_operand(&fv, fill);
  for (int64_t i = 0; i < total; i++) {
    rt_poll_every(site, i);
    memcpy(out + (size_t)i * esize, fv.data, esize);
  }
  int64_t ostride[RT_MAX_RANK], idx[RT_MAX_RANK] = {0}, acc = 1;
  for (int i = r - 1; i >= 0; i--) ostride[i] = acc * s[i], acc *= shape[i];
  const char *src = x->data;
  for (int64_t k = 0; k < x->count; k++) {
    int64_t off = 0;
    for (int i = 0; i < r; i++) off += idx[i] * ostride[i];
    memcpy(out + (size_t)off * esize, src + (size_t)k * esize, esize);
    for (int i = r - 1; i >= 0; i--) {
      if (++idx[i] < x->shape[i]) break;
      idx[i] = 0;
    }
    rt_poll_every(site, k + 1);
  }
  return rt_result_value(&res);
}

/* image.crop_and_resize: TVM's tf_crop_and_resize coordinates, y1 * (H - 1) + y * (y2 - y1) * (H - 1) / (ch - 1)
 * (the box's middle when ch is 1); outside the image extrapolation_value; bilinear (neighbours clamped) or the
 * nearest (topi's get_closest_index with boxes: te.round, halves away from zero), in double, an integer result
 * truncated. */
static RtValue crop_and_resize(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  RtOperand x, b, bi;
  rt_operand(&x, args[0]);
  rt_operand(&b, args[1]);
  rt_operand(&bi, args[2]);
  int dpos[4];
  layout_of(at, IR_A_LAYOUT, "NCHW", "NCHW", dpos, op, site);
  if (x.rank != 4 || b.rank != 2 || b.shape[1] != 4 || bi.rank != 1 || bi.shape[0] != b.shape[0])
    rt_error(site->expr, "%s: data %s, boxes %s and box_indices %s do not fit", name, rt_shape_text(x.rank, x.shape),
             rt_shape_text(b.rank, b.shape), rt_shape_text(bi.rank, bi.shape));
  const IrAttrValue *size = ir_attr_at(at, IR_A_CROP_SIZE);
  if (size->n != 2 || size->ints[0] < 0 || size->ints[1] < 0) rt_error(site->expr, "%s: crop_size takes 2 sizes", name);
  int64_t xs[4];
  const void *xd = to_canon(&x, dpos, xs);
  int64_t H = xs[2], W = xs[3], C = xs[1], OH = size->ints[0], OW = size->ints[1], B = b.shape[0];
  bool nearest = !strcmp(str_attr(at, IR_A_METHOD, "bilinear"), "nearest_neighbor");
  double ext = ir_attr_float(at, IR_A_EXTRAPOLATION_VALUE, 0);
  IrDType odt = ir_attr_dtype(at, IR_A_OUT_DTYPE, x.dt);
  int64_t cs[4] = {B, C, OH, OW};
  Out res;
  void *out = out_init(&res, odt, 4, cs, dpos);
  if (B == 0 || C == 0 || OH == 0 || OW == 0) return out_done(&res);
  int64_t o = 0;
  for (int64_t n = 0; n < B; n++) {
    double y1 = rt_scalar_f64(rt_elem_get(b.data, b.dt, n * 4)), x1 = rt_scalar_f64(rt_elem_get(b.data, b.dt, n * 4 + 1));
    double y2 = rt_scalar_f64(rt_elem_get(b.data, b.dt, n * 4 + 2)), x2 = rt_scalar_f64(rt_elem_get(b.data, b.dt, n * 4 + 3));
    int64_t img = rt_scalar_i64(rt_elem_get(bi.data, bi.dt, n));
    if (img < 0 || img >= xs[0])
      rt_error(site->expr, "%s: box index %lld is out of range for a batch of %lld", name, (long long)img,
               (long long)xs[0]);
    for (int64_t c = 0; c < C; c++) {
      int64_t base = (img * C + c) * H * W;
      for (int64_t oy = 0; oy < OH; oy++) {
        double iy = OH > 1 ? y1 * (double)(H - 1) + (double)oy * (y2 - y1) * (double)(H - 1) / (double)(OH - 1)
                           : 0.5 * (y1 + y2) * (double)(H - 1);
        for (int64_t ox = 0; ox < OW; ox++, o++) {
          rt_poll_every(site, o);
          double ix = OW > 1 ? x1 * (double)(W - 1) + (double)ox * (x2 - x1) * (double)(W - 1) / (double)(OW - 1)
                             : 0.5 * (x1 + x2) * (double)(W - 1);
          double v;
          if (!(iy >= 0 && iy <= (double)(H - 1) && ix >= 0 && ix <= (double)(W - 1)))
            v = ext;
          else if (nearest) { /* the pixel as it is (TVM's select with the float32 extrapolation value casts it) */
            RtValue got = rt_elem_get(xd, x.dt, base + clamp_index(closest(iy, "round"), H) * W + clamp_index(closest(ix, "round"), W));
            rt_elem_set(out, odt, o, rt_convert(got, odt));
            continue;
          } else {
            int64_t y0 = rt_f2index(floor(iy)), x0 = rt_f2index(floor(ix));
            double fy = iy - (double)y0, fx = ix - (double)x0, q[2][2];
            for (int j = 0; j < 2; j++)
              for (int i = 0; i < 2; i++)
                q[j][i] = rt_scalar_f64(rt_elem_get(xd, x.dt, base + clamp_index(y0 + j, H) * W + clamp_index(x0 + i, W)));
            double top = q[0][0] + (q[0][1] - q[0][0]) * fx, bottom = q[1][0] + (q[1][1] - q[1][0]) * fx;
            v = top + (bottom - top) * fy;
          }
          rt_elem_set(out, odt, o, rt_scalar_from_f64(odt, v));
        }
      }
    }
  }
  return out_done(&res);
}

/* image.affine_grid: out[b, k, i, j] = data[b, k, 0] * x_j + data[b, k, 1] * y_i + data[b, k, 2], with x and y from -1
 * to 1 (topi.testing.affine_grid_python). */
static RtValue affine_grid(IrOpId op, const RtOperand *x, const IrOpAttrs *at, const RtSite *site) {
  const IrAttrValue *ts = ir_attr_at(at, IR_A_TARGET_SHAPE);
  if (x->rank != 3 || x->shape[1] != 2 || x->shape[2] != 3 || ts->n != 2 || ts->ints[0] < 0 || ts->ints[1] < 0)
    rt_error(site->expr, "%s: data %s is not (batch, 2, 3) or target_shape is not 2 sizes", ir_ops[op].name,
             rt_shape_text(x->rank, x->shape));
  int64_t H = ts->ints[0], W = ts->ints[1], shape[4] = {x->shape[0], 2, H, W}, o = 0;
  RtResult res;
  void *out = rt_result_init(&res, x->dt, 4, shape);
  for (int64_t b = 0; b < shape[0]; b++)
    for (int k = 0; k < 2; k++) {
      double m[3];
      for (int j = 0; j < 3; j++) m[j] = rt_scalar_f64(rt_elem_get(x->data, x->dt, (b * 2 + k) * 3 + j));
      for (int64_t i = 0; i < H; i++)
        for (int64_t j = 0; j < W; j++, o++) {
          rt_poll_every(site, o);
          double yv = (double)i * 2 / (double)(H - 1) - 1, xv = (double)j * 2 / (double)(W - 1) - 1;
          rt_elem_set(out, x->dt, o, rt_scalar_from_f64(x->dt, m[0] * xv + m[1] * yv + m[2]));
        }
    }
  return rt_result_value(&res);
}

/* grid_sample's reflection of coordinate v at the borders corner and corner + size (topi.testing). */
static double gs_reflect(double v, double size, double corner) {
  if (size <= 0) return 0;
  if (corner <= v && v <= size + corner) return v;
  double idx = fabs(corner - v), times = floor(idx / size), extra = idx - times * size;
  return fmod(times, 2) == 0 ? extra + corner : size - extra + corner;
}

/* grid_sample's cubic weights (A = -0.75) and one cubic interpolation. */
static double gs_cubic(const double p[4], double t) {
  const double A = -0.75;
  double w[4], u;
  u = t + 1, w[0] = ((A * u - 5 * A) * u + 8 * A) * u - 4 * A;
  w[1] = ((A + 2) * t - (A + 3)) * t * t + 1;
  u = 1 - t, w[2] = ((A + 2) * u - (A + 3)) * u * u + 1;
  u = 2 - t, w[3] = ((A * u - 5 * A) * u + 8 * A) * u - 4 * A;
  return p[0] * w[0] + p[1] * w[1] + p[2] * w[2] + p[3] * w[3];
}

/* image.grid_sample on NCHW or NCDHW (any order of their letters): the grid's (x, y[, z]) in [-1, 1] unnormalized
 * (align_corners or not), padding_mode zeros / border / reflection, bilinear (trilinear), nearest (half away from
 * zero) or bicubic (2-d); pixels outside the image are 0 (topi.testing.grid_sample_python). */
static RtValue grid_sample(IrOpId op, const RtOperand *x, const RtOperand *g, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  const char *method = str_attr(at, IR_A_METHOD, "bilinear"), *pm = str_attr(at, IR_A_PADDING_MODE, "zeros");
  bool ac = ir_attr_bool(at, IR_A_ALIGN_CORNERS, true);
  int d = x->rank - 2, rank = x->rank;
  if (d != 2 && d != 3) rt_error(site->expr, "%s takes 4-d or 5-d data", name);
  bool nearest = !strcmp(method, "nearest"), cubic = !strcmp(method, "bicubic");
  if (cubic && d == 3) rt_error(site->expr, "%s: bicubic sampling is 2-d only", name);
  char canon[8];
  snprintf(canon, sizeof canon, "NC%s", spatial_letters(d));
  int dpos[5];
  layout_of(at, IR_A_LAYOUT, canon, canon, dpos, op, site);
  int64_t xs[5];
  const void *xd = to_canon(x, dpos, xs);
  if (g->rank != rank || g->shape[0] != xs[0] || g->shape[1] != d)
    rt_error(site->expr, "%s: the grid %s does not fit the data", name, rt_shape_text(g->rank, g->shape));
  int64_t cs[5] = {xs[0], xs[1]}, plane = 1, in_plane = 1, N = xs[0], C = xs[1];
  for (int i = 0; i < d; i++) cs[2 + i] = g->shape[2 + i], plane *= g->shape[2 + i], in_plane *= xs[2 + i];
  Out res;
  void *out = out_init(&res, x->dt, rank, cs, dpos);
  int mode = !strcmp(pm, "border") ? 1 : !strcmp(pm, "reflection") ? 2 : 0;
  /* sizes in the grid's coordinate order: x (width) first */
  double size[3];
  int64_t isz[3], istr[3];
  for (int i = 0; i < d; i++) size[i] = (double)xs[1 + d - i], isz[i] = xs[1 + d - i];
  for (int i = 0; i < d; i++) istr[i] = i == 0 ? 1 : istr[i - 1] * isz[i - 1];
  int64_t done = 0;
  for (int64_t b = 0; b < N; b++)
    for (int64_t p = 0; p < plane; p++) {
      rt_poll_every(site, done++);
      double c[3];
      bool ok = true;
      for (int i = 0; i < d; i++) {
        double v = rt_scalar_f64(rt_elem_get(g->data, g->dt, (b * d + i) * plane + p));
        v = ac ? (v + 1) * (size[i] - 1) / 2 : -0.5 + (v + 1) * size[i] / 2;
        if (!cubic) {
          if (mode == 2) v = ac ? gs_reflect(v, size[i] - 1, 0) : gs_reflect(v, size[i], -0.5);
          if (mode >= 1) v = fmin(fmax(v, 0), size[i] - 1);
        }
        if (!(fabs(v) < (double)RT_F2I_INDEX_MAX)) ok = false; /* NaN, or outside every image: 0 */
        c[i] = v;
      }
      for (int64_t ch = 0; ch < C; ch++) {
        rt_poll_every(site, done++);
        int64_t base = (b * C + ch) * in_plane;
        double v = 0;
#define GS_PIX(ix, iy, iz)                                                                                             \
  (((ix) >= 0 && (ix) < isz[0] && (iy) >= 0 && (iy) < isz[1] && (d == 2 || ((iz) >= 0 && (iz) < isz[2])))            \
       ? rt_scalar_f64(rt_elem_get(xd, x->dt, base + (ix) * istr[0] + (iy) * istr[1] + (d == 3 ? (iz) * istr[2] : 0))) \
       : 0.0)
        if (!ok) {
          v = 0;
        } else if (nearest) {
          int64_t k[3] = {0, 0, 0};
          /* topi's _nearest_sample: te.nearbyint, halves to even (topi.testing's reference rounds them away
           * from zero) */
          for (int i = 0; i < d; i++) k[i] = rt_f2index(nearbyint(c[i]));
          v = GS_PIX(k[0], k[1], k[2]);
        } else if (!cubic) {
          int64_t f[3] = {0, 0, 0};
          double fr[3] = {0, 0, 0};
          for (int i = 0; i < d; i++) f[i] = rt_f2index(floor(c[i])), fr[i] = c[i] - (double)f[i];
          for (int corner = 0; corner < (1 << d); corner++) {
            double w = 1;
            int64_t k[3] = {0, 0, 0};
            for (int i = 0; i < d; i++) {
              int bit = (corner >> i) & 1;
              w *= bit ? fr[i] : 1 - fr[i];
              k[i] = f[i] + bit;
            }
            if (w != 0) v += w * GS_PIX(k[0], k[1], k[2]);
          }
        } else {
          int64_t fx = rt_f2index(floor(c[0])), fy = rt_f2index(floor(c[1]));
          double tx = c[0] - (double)fx, ty = c[1] - (double)fy, rows[4], px[4];
          for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 4; i++) {
              double cx = (double)(fx - 1 + i), cy = (double)(fy - 1 + j);
              if (mode == 2) {
                cx = ac ? gs_reflect(cx, size[0] - 1, 0) : gs_reflect(cx, size[0], -0.5);
                cy = ac ? gs_reflect(cy, size[1] - 1, 0) : gs_reflect(cy, size[1], -0.5);
              }
              if (mode >= 1) cx = fmin(fmax(cx, 0), size[0] - 1), cy = fmin(fmax(cy, 0), size[1] - 1);
              int64_t kx = rt_f2index(cx), ky = rt_f2index(cy);
              px[i] = GS_PIX(kx, ky, 0);
            }
            rows[j] = gs_cubic(px, tx);
          }
          v = gs_cubic(rows, ty);
        }
#undef GS_PIX
        rt_elem_set(out, x->dt, (b * C + ch) * plane + p, rt_scalar_from_f64(x->dt, v));
      }
    }
  return out_done(&res);
}

/* ---------------------------------------------------------------- dispatch */

/* The attributes at with the data, kernel and output layouts given as these (a packed or GEMM
 * convolution run as the plain one in its canonical layouts). */
static const IrOpAttrs *with_layouts(const IrOpAttrs *at, const char *data, const char *kernel, const char *out) {
  at = ir_attrs_set(at, IR_A_DATA_LAYOUT, (IrAttrValue){.given = true, .str = data});
  at = ir_attrs_set(at, IR_A_KERNEL_LAYOUT, (IrAttrValue){.given = true, .str = kernel});
  return ir_attrs_set(at, IR_A_OUT_LAYOUT, (IrAttrValue){.given = true, .str = out});
}

/* ---------------------------------------------------------------- packed layouts */

static const char *layout_or(const IrOpAttrs *at, IrAttrId id, const char *dflt) {
  const IrAttrValue *a = ir_attr_at(at, id);
  return a->given && !a->none && a->str && *a->str ? a->str : dflt;
}

/* nn.contrib_conv2d_NCHWc, nn.contrib_depthwise_conv2d_NCHWc: the data and weight unpacked to NCHW
 * and OIHW (layout_transform's kernel), nn.conv2d's kernel, the result packed into out_layout. */
static RtValue conv2d_nchwc(IrOpId op, const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  const char *name = ir_ops[op].name;
  const char *dl = layout_or(at, IR_A_DATA_LAYOUT, "NCHW"), *kl = layout_or(at, IR_A_KERNEL_LAYOUT, "OIHW"),
             *ol = layout_or(at, IR_A_OUT_LAYOUT, dl);
  RtOperand x, w, xc, wc, yc;
  rt_operands_out_dtype(op, args, site, &x, &w);
  rt_operand(&xc, rt_layout_transform(&x, dl, "NCHW", site));
  rt_operand(&wc, rt_layout_transform(&w, kl, "OIHW", site));
  const IrAttrValue *ch = ir_attr_at(at, IR_A_CHANNELS), *ks = ir_attr_at(at, IR_A_KERNEL_SIZE);
  if (ch->given && !ch->none && ch->ints[0] != wc.shape[0])
    rt_error(site->expr, "%s: channels=%lld, but the weight %s (%s) has %lld output channels", name,
             (long long)ch->ints[0], rt_shape_text(w.rank, w.shape), kl, (long long)wc.shape[0]);
  if (ks->given && !ks->none) {
    int64_t k[2];
    ir_attr_tuple(at, IR_A_KERNEL_SIZE, 2, 1, k);
    if (k[0] != wc.shape[2] || k[1] != wc.shape[3])
      rt_error(site->expr, "%s: kernel_size=[%lld, %lld], but the weight is %s (%s)", name, (long long)k[0],
               (long long)k[1], rt_shape_text(w.rank, w.shape), kl);
  }
  const IrOpAttrs *canon = with_layouts(at, "NCHW", "OIHW", "NCHW");
  rt_operand(&yc, conv(op, 2, &xc, &wc, canon, site));
  return rt_layout_transform(&yc, "NCHW", ol, site);
}

/* ---------------------------------------------------------------- Winograd */

/* topi's winograd_transform_matrices for tiles of m and kernels of r (Cook-Toom over the interpolation
 * points of Barabasz et al. for degree m + r - 2), rounded to dt as TVM casts them: A (alpha x m),
 * B (alpha x alpha), G (alpha x r), row-major, alpha = m + r - 1 (at most 14). */
static void winograd_matrices(int m, int r, IrDType dt, double *A, double *B, double *G) {
  static const double pts[13][13] = {
      {0}, {0}, {0, -1, 1}, {0, -1, 1, 0.5}, {0, -1, 1, 0.5, -2}, {0, -1, 1, 0.5, -2, -0.5},
      {0, -1, 1, 0.5, -0.5, 2, -2}, {0, -1, 1, 0.5, -0.5, 2, -2, -0.25}, {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 4},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 0.75, -4.0 / 3},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 4, 0.75, -4.0 / 3},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 4, 0.75, -4.0 / 3, 0.25},
      {0, -1, 1, 0.5, -0.5, 2, -2, -0.25, 4, 0.25, -0.75, 4.0 / 3, -4},
  };
  int n = m + r - 1, d = n - 1; /* d points */
  const double *a = pts[d - 1];
  double f[16], fs[16], F[16][16];
  for (int i = 0; i < d; i++) {
    f[i] = 1;
    for (int k = 0; k < d; k++)
      if (k != i) f[i] *= a[i] - a[k];
  }
  f[d] = 1;
  for (int i = 0; i <= d; i++) fs[i] = f[i];
  if (fs[0] < 0) fs[0] = -fs[0];
  for (int l = 0; l < d; l++) { /* the coefficients of prod_{k != l} (x - a_k), over f_l */
    double c[16] = {1};
    int deg = 0;
    for (int k = 0; k < d; k++) {
      if (k == l) continue;
      for (int p = deg + 1; p >= 0; p--) c[p] = (p > 0 ? c[p - 1] : 0) - a[k] * c[p];
      deg++;
    }
    for (int p = 0; p < d; p++) F[l][p] = c[p] / f[l];
  }
  bool single = dt.bits == 32;
#define ROUND(v) (single ? (double)(float)(v) : (v))
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) A[i * m + j] = ROUND(i < d ? pow(a[i], j) : j == m - 1);
    for (int j = 0; j < r; j++) G[i * r + j] = ROUND(i < d ? pow(a[i], j) / fs[i] : j == r - 1);
    for (int j = 0; j < n; j++) {
      double v;
      if (i == d) v = j == d;
      else if (j < d) v = F[j][i];
      else {
        v = 0;
        for (int l = 0; l < d; l++) v -= F[l][i] * pow(a[l], d);
      }
      B[i * n + j] = ROUND(v * fs[j]);
    }
  }
#undef ROUND
}

static double get_f64(const RtOperand *x, int64_t i) { return rt_scalar_f64(rt_elem_get(x->data, x->dt, i)); }

/* nn.contrib_conv2d_winograd_weight_transform: (O, I, k, k) -> (alpha, alpha, O, I), G w G^T. */
static RtValue winograd_weight_transform(const RtOperand *w, const IrOpAttrs *at, const RtSite *site) {
  int64_t m = ir_attr_int(at, IR_A_TILE_SIZE, 0);
  if (w->rank != 4 || w->shape[2] != w->shape[3] || w->shape[2] < 3 || w->shape[2] > 7 || m < 2 || m > 8)
    rt_error(site->expr,
             "nn.contrib_conv2d_winograd_weight_transform: the weight %s with tile_size=%lld is not supported",
             rt_shape_text(w->rank, w->shape), (long long)m);
  int r = (int)w->shape[2], n = (int)m + r - 1;
  double A[14 * 8], B[14 * 14], G[14 * 7];
  winograd_matrices((int)m, r, w->dt, A, B, G);
  int64_t O = w->shape[0], I = w->shape[1], shape[4] = {n, n, O, I};
  RtResult res;
  void *out = rt_result_init(&res, w->dt, 4, shape);
  if (w->count == 0) return rt_result_value(&res); /* O may be long over no input channels */
  int64_t done = 0;
  for (int eps = 0; eps < n; eps++)
    for (int nu = 0; nu < n; nu++)
      for (int64_t o = 0; o < O; o++)
        for (int64_t i = 0; i < I; i++) {
          if ((++done & 1023) == 0) rt_poll(site->expr); /* 49 multiply-adds an element at most */
          double acc = 0;
          for (int kh = 0; kh < r; kh++)
            for (int kw = 0; kw < r; kw++)
              acc += get_f64(w, ((o * I + i) * r + kh) * r + kw) * G[eps * r + kh] * G[nu * r + kw];
          rt_elem_set(out, w->dt, ((eps * n + nu) * O + o) * I + i, rt_scalar_from_f64(w->dt, acc));
        }
  return rt_result_value(&res);
}

/* nn.contrib_conv2d_winograd_without_weight_transform: topi's _conv2d_winograd_nchw_impl on the data
 * unpacked to NCHW, with the transformed weight (alpha, alpha, O, I): per m x m output tile,
 * A^T [sum_i U[., ., o, i] (B^T d_i B)] A, in double; padding past the data is 0. */
static RtValue winograd_conv(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  const char *name = "nn.contrib_conv2d_winograd_without_weight_transform";
  const char *dl = layout_or(at, IR_A_DATA_LAYOUT, "NCHW"), *ol = layout_or(at, IR_A_OUT_LAYOUT, dl);
  RtOperand x0, u, x;
  rt_operands_out_dtype(IR_OP_NN_CONTRIB_CONV2D_WINOGRAD_WITHOUT_WEIGHT_TRANSFORM, args, site, &x0, &u);
  rt_operand(&x, rt_layout_transform(&x0, dl, "NCHW", site));
  int64_t m = ir_attr_int(at, IR_A_TILE_SIZE, 0), k[2], lo[2], hi[2];
  ir_attr_tuple(at, IR_A_KERNEL_SIZE, 2, 0, k);
  ir_attr_pads(at, 2, lo, hi);
  int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3], O = ir_attr_int(at, IR_A_CHANNELS, 0);
  int r = (int)k[0], n = (int)m + r - 1;
  if (m < 2 || m > 8 || r < 3 || r > 7 || k[1] != k[0])
    rt_error(site->expr, "%s: tile_size=%lld with kernel_size=[%lld, %lld] is not supported", name, (long long)m,
             (long long)k[0], (long long)k[1]);
  if (u.rank != 4 || u.shape[0] != n || u.shape[1] != n || u.shape[2] != O || u.shape[3] != C)
    rt_error(site->expr, "%s: the weight %s is not the transform of a %lldx%lld kernel from %lld to %lld channels (%d, %d, %lld, %lld)",
             name, rt_shape_text(u.rank, u.shape), (long long)r, (long long)r, (long long)C, (long long)O, n, n,
             (long long)O, (long long)C);
  IrOpId op = IR_OP_NN_CONTRIB_CONV2D_WINOGRAD_WITHOUT_WEIGHT_TRANSFORM;
  int64_t OH = rt_window_positions(site, op, H, r, 1, 1, lo[0], hi[0], false),
          OW = rt_window_positions(site, op, W, r, 1, 1, lo[1], hi[1], false);
  double A[14 * 8], B[14 * 14], G[14 * 7];
  winograd_matrices((int)m, r, x.dt, A, B, G);
  int64_t shape[4] = {N, O, OH, OW};
  RtResult res;
  void *out = rt_result_init(&res, x.dt, 4, shape);
  double *V = rt_alloc_atomic(sizeof(double) * (size_t)(C * n * n) + 1), tile[14 * 14], t[14 * 14], M[14 * 14];
  for (int64_t b = 0; b < N; b++)
    for (int64_t th = 0; th < OH; th += m)
      for (int64_t tw = 0; tw < OW; tw += m) {
        for (int64_t c = 0; c < C; c++) { /* V_c = B^T d B */
          rt_poll(site->expr);
          for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
              int64_t h = th + i - lo[0], w = tw + j - lo[1];
              tile[i * n + j] = h >= 0 && h < H && w >= 0 && w < W ? get_f64(&x, ((b * C + c) * H + h) * W + w) : 0;
            }
          for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
              double acc = 0;
              for (int a = 0; a < n; a++) acc += tile[a * n + j] * B[a * n + i];
              t[i * n + j] = acc;
            }
          for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
              double acc = 0;
              for (int a = 0; a < n; a++) acc += t[i * n + a] * B[a * n + j];
              V[(c * n + i) * n + j] = acc;
            }
        }
        for (int64_t o = 0; o < O; o++) {
          for (int i = 0; i < n * n; i++) {
            double acc = 0;
            rt_poll(site->expr);
            for (int64_t c = 0; c < C; c++) {
              rt_poll_every(site, c + 1);
              acc += V[c * n * n + i] * get_f64(&u, ((int64_t)i * O + o) * C + c);
            }
            M[i] = acc;
          }
          for (int vh = 0; vh < m; vh++)
            for (int j = 0; j < n; j++) {
              double acc = 0;
              for (int a = 0; a < n; a++) acc += M[a * n + j] * A[a * m + vh];
              t[vh * n + j] = acc;
            }
          for (int vh = 0; vh < m && th + vh < OH; vh++)
            for (int vw = 0; vw < m && tw + vw < OW; vw++) {
              double acc = 0;
              for (int a = 0; a < n; a++) acc += t[vh * n + a] * A[a * m + vw];
              rt_elem_set(out, x.dt, ((b * O + o) * OH + th + vh) * OW + tw + vw, rt_scalar_from_f64(x.dt, acc));
            }
        }
      }
  RtOperand y;
  rt_operand(&y, rt_result_value(&res));
  return rt_layout_transform(&y, "NCHW", ol, site);
}

/* ---------------------------------------------------------------- auto_scheduler_layout_transform */

typedef struct {
  int n;
  int64_t size[RT_MAX_RANK];
  const char *name[RT_MAX_RANK];
  int len[RT_MAX_RANK];
} AutoLayout;

/* "16o4i3h3w4o" as topi's parse_auto_scheduler_layout reads it (the checker has validated it). */
static void auto_layout(const char *s, AutoLayout *l) {
  int64_t f = 0;
  l->n = 0;
  for (const char *p = s; *p && l->n < RT_MAX_RANK;) {
    if (*p >= '0' && *p <= '9') {
      f = f * 10 + (*p++ - '0');
      continue;
    }
    const char *q = p;
    while (*q >= 'A' && *q <= 'z') q++;
    l->size[l->n] = f, l->name[l->n] = p, l->len[l->n++] = (int)(q - p);
    f = 0;
    p = q;
  }
}

static bool same_axis(const AutoLayout *a, int i, const AutoLayout *b, int j) {
  return a->len[i] == b->len[j] && memcmp(a->name[i], b->name[j], (size_t)a->len[i]) == 0;
}

/* topi's auto_scheduler_layout_transform: each output element reads the data at, per src axis, the index
 * combined (outermost first) from the output's axes of that name; an index past the data is an error. */
static RtValue auto_scheduler_layout_transform(const RtOperand *x, const IrOpAttrs *at, const RtSite *site) {
  AutoLayout src, dst;
  auto_layout(ir_attr_at(at, IR_A_SRC_LAYOUT)->str, &src);
  auto_layout(ir_attr_at(at, IR_A_DST_LAYOUT)->str, &dst);
  if (x->rank != src.n)
    rt_error(site->expr, "auto_scheduler_layout_transform: the data %s does not have src_layout's %d axes",
             rt_shape_text(x->rank, x->shape), src.n);
  int64_t strides[RT_MAX_RANK], idx[RT_MAX_RANK] = {0}, count = 1;
  int64_t st = 1;
  for (int i = x->rank - 1; i >= 0; i--) strides[i] = st, st = rt_mul_sat(st, x->shape[i]);
  for (int i = 0; i < dst.n; i++) count = rt_mul_sat(count, dst.size[i]);
  size_t esize = rt_dtype_size(x->dt);
  RtResult res;
  char *out = rt_result_init(&res, x->dt, dst.n, dst.size);
  for (int64_t j = 0; j < count; j++) {
    rt_poll_every(site, j);
    int64_t off = 0;
    for (int k = 0; k < src.n; k++) {
      int64_t v = 0;
      for (int i = 0; i < dst.n; i++)
        if (same_axis(&src, k, &dst, i)) v = v * dst.size[i] + idx[i];
      if (v >= x->shape[k])
        rt_error(site->expr, "auto_scheduler_layout_transform: dst_layout=\"%s\" reads index %lld of axis %.*s, beyond the data %s",
                 ir_attr_at(at, IR_A_DST_LAYOUT)->str, (long long)v, src.len[k], src.name[k], rt_shape_text(x->rank, x->shape));
      off += v * strides[k];
    }
    memcpy(out + (size_t)j * esize, (const char *)x->data + (size_t)off * esize, esize);
    for (int i = dst.n - 1; i >= 0; i--) {
      if (++idx[i] < dst.size[i]) break;
      idx[i] = 0;
    }
  }
  return rt_result_value(&res);
}

/* ---------------------------------------------------------------- GEMM convolution */

/* topi's conv2d_gemm_weight_transform: HWIO flattened to (K, N), zero-padded (K to 4 * tile_cols, N to
 * tile_rows), blocked: out[x, y, z, w] = flat[w + tile_cols * y, z + tile_rows * x]. */
static RtValue gemm_weight_transform(const RtOperand *w, const IrOpAttrs *at, const RtSite *site) {
  int64_t n = ir_attr_int(at, IR_A_TILE_ROWS, 1), k = ir_attr_int(at, IR_A_TILE_COLS, 1);
  if (w->rank != 4 || n < 1 || k < 1)
    rt_error(site->expr, "nn.contrib_conv2d_gemm_weight_transform takes an HWIO weight");
  int64_t K = rt_mul_sat(rt_mul_sat(w->shape[0], w->shape[1]), w->shape[2]), N = w->shape[3], kk = rt_mul_sat(4, k);
  int64_t shape[4] = {(N + n - 1) / n, (K + kk - 1) / kk * kk / k, n, k};
  size_t esize = rt_dtype_size(w->dt);
  RtResult res;
  char *out = rt_result_init(&res, w->dt, 4, shape);
  int64_t count = rt_mul_sat(rt_mul_sat(shape[0], shape[1]), n * k);
  rt_zero(site, out, (size_t)count * esize);
  int64_t done = 0;
  for (int64_t x = 0; x < shape[0]; x++)
    for (int64_t y = 0; y < shape[1]; y++)
      for (int64_t z = 0; z < n; z++)
        for (int64_t v = 0; v < k; v++) {
          rt_poll_every(site, done++);
          int64_t r = v + k * y, c = z + n * x;
          if (r < K && c < N)
            memcpy(out + (size_t)(((x * shape[1] + y) * n + z) * k + v) * esize,
                   (const char *)w->data + (size_t)(r * N + c) * esize, esize);
        }
  return rt_result_value(&res);
}

/* nn.contrib_conv2d_gemm_without_weight_transform: the HWIO weight recovered from the transform's blocks
 * (kernel_size, the data's channels, channels), then nn.conv2d's kernel in NHWC. */
static RtValue gemm_conv(const RtValue *args, const IrOpAttrs *at, const RtSite *site) {
  IrOpId op = IR_OP_NN_CONTRIB_CONV2D_GEMM_WITHOUT_WEIGHT_TRANSFORM;
  /* NCHW when omitted: Conv2DAttrs' C++ default (topi's GEMM convolution itself is NHWC) */
  const char *dl = layout_or(at, IR_A_DATA_LAYOUT, "NCHW"), *ol = layout_or(at, IR_A_OUT_LAYOUT, dl);
  RtOperand x0, b, x, wc, yc;
  rt_operands_out_dtype(op, args, site, &x0, &b);
  rt_operand(&x, rt_layout_transform(&x0, dl, "NHWC", site));
  int64_t ks[2], O = ir_attr_int(at, IR_A_CHANNELS, 0), I = x.shape[3];
  ir_attr_tuple(at, IR_A_KERNEL_SIZE, 2, 1, ks);
  int64_t K = rt_mul_sat(rt_mul_sat(ks[0], ks[1]), I);
  if (b.rank != 4 || b.shape[2] < 1 || b.shape[3] < 1 || rt_mul_sat(b.shape[0], b.shape[2]) < O ||
      rt_mul_sat(b.shape[1], b.shape[3]) < K)
    rt_error(site->expr, "%s: the weight %s does not hold a %lldx%lld kernel from %lld to %lld channels",
             ir_ops[op].name, rt_shape_text(b.rank, b.shape), (long long)ks[0], (long long)ks[1], (long long)I,
             (long long)O);
  int64_t n = b.shape[2], k = b.shape[3], wshape[4] = {ks[0], ks[1], I, O};
  size_t esize = rt_dtype_size(b.dt);
  RtResult wres;
  char *w = rt_result_init(&wres, b.dt, 4, wshape);
  int64_t done = 0;
  for (int64_t r = 0; r < K; r++)
    for (int64_t c = 0; c < O; c++) {
      rt_poll_every(site, done++);
      memcpy(w + (size_t)(r * O + c) * esize,
             (const char *)b.data + (size_t)((((c / n) * b.shape[1] + r / k) * n + c % n) * k + r % k) * esize, esize);
    }
  rt_operand(&wc, rt_result_value(&wres));
  const IrOpAttrs *canon = with_layouts(at, "NHWC", "HWIO", "NHWC");
  rt_operand(&yc, conv(op, 2, &x, &wc, canon, site));
  return rt_layout_transform(&yc, "NHWC", ol, site);
}

RtValue rt_kernel_conv(IrOpId op, const RtValue *args, int nargs, const RtSite *site) {
  const IrOpAttrs *at = site->attrs;
  RtOperand x, w;
  switch (op) {
  case IR_OP_NN_CONV1D:
  case IR_OP_NN_CONV2D:
  case IR_OP_NN_CONV3D:
    rt_operands_out_dtype(op, args, site, &x, &w);
    return conv(op, op == IR_OP_NN_CONV1D ? 1 : op == IR_OP_NN_CONV2D ? 2 : 3, &x, &w, at, site);
  case IR_OP_NN_CONV1D_TRANSPOSE:
  case IR_OP_NN_CONV2D_TRANSPOSE:
  case IR_OP_NN_CONV3D_TRANSPOSE:
    rt_operands_out_dtype(op, args, site, &x, &w);
    return conv_transpose(op, op == IR_OP_NN_CONV1D_TRANSPOSE ? 1 : op == IR_OP_NN_CONV2D_TRANSPOSE ? 2 : 3, &x, &w, at, site);
  case IR_OP_NN_MAX_POOL1D:
  case IR_OP_NN_AVG_POOL1D:
  case IR_OP_NN_ADAPTIVE_AVG_POOL1D:
  case IR_OP_NN_ADAPTIVE_MAX_POOL1D: rt_operand(&x, args[0]); return pool(op, 1, &x, at, site);
  case IR_OP_NN_MAX_POOL3D:
  case IR_OP_NN_AVG_POOL3D:
  case IR_OP_NN_ADAPTIVE_AVG_POOL3D:
  case IR_OP_NN_ADAPTIVE_MAX_POOL3D: rt_operand(&x, args[0]); return pool(op, 3, &x, at, site);
  case IR_OP_NN_MAX_POOL2D:
  case IR_OP_NN_AVG_POOL2D:
  case IR_OP_NN_GLOBAL_AVG_POOL2D:
  case IR_OP_NN_GLOBAL_MAX_POOL2D:
  case IR_OP_NN_ADAPTIVE_AVG_POOL2D:
  case IR_OP_NN_ADAPTIVE_MAX_POOL2D: rt_operand(&x, args[0]); return pool(op, 2, &x, at, site);
  case IR_OP_NN_PAD:
  case IR_OP_NN_MIRROR_PAD: return pad(op, args, nargs, at, site);
  case IR_OP_NN_SPACE_TO_BATCH_ND:
  case IR_OP_NN_BATCH_TO_SPACE_ND: rt_operand(&x, args[0]); return batch_space(op, &x, at, site);
  case IR_OP_NN_UPSAMPLING:
  case IR_OP_IMAGE_RESIZE2D: rt_operand(&x, args[0]); return resize(op, &x, at, site);
  case IR_OP_IMAGE_CROP_AND_RESIZE: return crop_and_resize(op, args, at, site);
  case IR_OP_IMAGE_AFFINE_GRID: rt_operand(&x, args[0]); return affine_grid(op, &x, at, site);
  case IR_OP_IMAGE_GRID_SAMPLE:
    rt_operand(&x, args[0]);
    rt_operand(&w, args[1]);
    return grid_sample(op, &x, &w, at, site);
  case IR_OP_NN_DILATE: rt_operand(&x, args[0]); return dilate(op, &x, at, site);
  case IR_OP_IMAGE_RESIZE1D: rt_operand(&x, args[0]); return resize_nd(op, 1, &x, at, site);
  case IR_OP_IMAGE_RESIZE3D:
  case IR_OP_NN_UPSAMPLING3D: rt_operand(&x, args[0]); return resize_nd(op, 3, &x, at, site);
  case IR_OP_NN_DEPTH_TO_SPACE:
  case IR_OP_NN_SPACE_TO_DEPTH: rt_operand(&x, args[0]); return pixel_shuffle(op, &x, at, site);
  case IR_OP_NN_CONTRIB_CONV2D_NCHWC:
  case IR_OP_NN_CONTRIB_DEPTHWISE_CONV2D_NCHWC: return conv2d_nchwc(op, args, at, site);
  case IR_OP_NN_CONTRIB_CONV2D_WINOGRAD_WEIGHT_TRANSFORM: rt_operand(&w, args[0]); return winograd_weight_transform(&w, at, site);
  case IR_OP_NN_CONTRIB_CONV2D_WINOGRAD_WITHOUT_WEIGHT_TRANSFORM: return winograd_conv(args, at, site);
  case IR_OP_NN_CONTRIB_CONV2D_GEMM_WEIGHT_TRANSFORM: rt_operand(&w, args[0]); return gemm_weight_transform(&w, at, site);
  case IR_OP_NN_CONTRIB_CONV2D_GEMM_WITHOUT_WEIGHT_TRANSFORM: return gemm_conv(args, at, site);
  case IR_OP_AUTO_SCHEDULER_LAYOUT_TRANSFORM: rt_operand(&x, args[0]); return auto_scheduler_layout_transform(&x, at, site);
  default:
    UNREACHABLE("every operator ops.def gives this family has a case above");
    rt_error(site->expr, "the operator `%s` has no kernel", ir_ops[op].name);
  }
}
