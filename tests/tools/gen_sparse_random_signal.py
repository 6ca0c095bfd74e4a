"""Expected values of the sparse and random operators' golden tests (sparse_to_dense, sparse_reshape,
sparse_fill_empty_rows, ...): numpy transcriptions of topi's algorithms (python/tvm/topi, TF's semantics)."""
import os, sys, numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly
def write(name, header, lines):
    open(OPS + name, 'w').write(header + ''.join('// expect: %s\n' % e for e, _ in lines) + ''.join(p + '\n' for _, p in lines))
f32 = np.float32; f64 = np.float64; i64 = np.int64; i32 = np.int32

# ---------------------------------------------------------------- sparse_to_dense
def sparse_to_dense(ix, vals, dflt, shape):
    out = np.full(shape, dflt, dtype=np.asarray(vals).dtype)
    ix = np.asarray(ix)
    vals = np.broadcast_to(np.asarray(vals), ix.shape[:1] if ix.ndim else ())
    if ix.ndim == 0: out[ix] = vals; return out
    for j in range(ix.shape[0]):
        out[tuple(ix[j]) if ix.ndim == 2 else ix[j]] = vals[j]
    return out
L = []
ix = np.array([[0, 0], [1, 2]]); v = np.array([1, 2], f32)
L.append((rly(sparse_to_dense(ix, v, f32(0), (3, 4))), 'sparse_to_dense(%s, %s, 0f, output_shape=[3, 4])' % (rly(ix.astype(i32)), rly(v))))
ix = np.array([0, 3]); v = np.array([5, 6], i32)
L.append((rly(sparse_to_dense(ix, v, i32(9), (5,))), 'sparse_to_dense(%s, %s, 9, output_shape=[5])' % (rly(ix.astype(i32)), rly(v))))
ix = np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]], i64); v = np.array([2.5, -1, 4])
L.append((rly(sparse_to_dense(ix, v, f64(-0.5), (2, 2, 2))), 'sparse_to_dense(%s, %s, -0.5f64, output_shape=[2, 2, 2])' % (rly(ix), rly(v))))
L.append((rly(sparse_to_dense(np.array(2), np.array(7, i32), i32(1), (4,))), 'sparse_to_dense(2, 7, 1, output_shape=[4])'))
ix = np.array([1, 3]); L.append((rly(sparse_to_dense(ix, np.array(3, i32), i32(0), (4,))), 'sparse_to_dense([1, 3], 3, 0, output_shape=[4])'))
write('sparse_to_dense_values.rly', '''// sparse_to_dense(sparse_indices, sparse_values, default_value, output_shape=) as topi's: default_value
// everywhere, then each index's value (a later index wins). 2-d (N, rank) indices, 1-d positions, int64 indices
// with float64 values and a repeated index, a scalar index, scalar values for every index. Expected values: numpy
// (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- sparse_reshape
def sparse_reshape(ix, prev, new):
    new = np.array(new)
    if (new == -1).any(): new[new == -1] = np.prod(prev) // np.prod(new[new != -1])
    flat = np.ravel_multi_index(ix.T, prev) if len(ix) else np.zeros(0, int)
    return np.stack(np.unravel_index(flat, new), axis=1).reshape(len(ix), len(new)), new
L = []
for ix, prev, new, sfx in [(np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 2, 3]]), [2, 3, 6], [9, -1], ''),
                           (np.array([[0, 0], [1, 1], [2, 3]]), [3, 4], [2, 3, 2], 'i64'),
                           (np.array([[3, 1], [0, 0]]), [4, 2], [-1], '')]:
    ni, ns = sparse_reshape(ix, prev, new)
    dt = i64 if sfx else i32
    L.append(('(%s, %s)' % (rly(ni.astype(dt)), rly(ns.astype(dt))),
              'sparse_reshape(%s, %s, %s)' % (rly(ix.astype(dt)), rly(np.array(prev, dt)), rly(np.array(new, dt)))))
write('sparse_reshape_values.rly', '''// sparse_reshape(sparse_indices, prev_shape, new_shape) as topi's: each index row flattened in prev_shape,
// unflattened in new_shape, whose -1 is inferred; the result (new indices, the new shape). int32 with a -1,
// int64 to rank 3, to a vector. Expected values: numpy (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- sparse_fill_empty_rows
def fill_empty_rows(ix, v, shape, dflt):
    rows = shape[0]; oi, ov = [], []; ind = np.zeros(rows, i64); have = set(ix[:, 0].tolist())
    j = 0
    for r in range(rows):
        if r not in have:
            oi.append([r] + [0] * (ix.shape[1] - 1)); ov.append(dflt); ind[r] = 1
        while j < len(ix) and ix[j, 0] == r:
            oi.append(list(ix[j])); ov.append(v[j]); j += 1
    return np.array(oi, i64).reshape(-1, ix.shape[1]), np.array(ov).astype(i64), ind
L = []
for ix, v, shape, d, vs in [(np.array([[0, 1], [0, 3], [2, 0], [3, 1]]), np.array([1, 2, 3, 4], f32), [5, 6], 10, 'f'),
                            (np.array([[1, 0, 0], [1, 1, 1], [3, 2, 0]]), np.array([7, -8, 9], i64), [4, 3, 2], -1, 'i64'),
                            (np.zeros((0, 2), int), np.zeros(0, i32), [3, 3], 5, '')]:
    a, b, c = fill_empty_rows(ix, v, shape, d)
    vt = rly(v) if len(v) else 'zeros(shape=[0], dtype="%s")' % v.dtype
    it = rly(ix.astype(i64)) if len(ix) else 'zeros(shape=[0, 2], dtype="int64")'
    L.append(('(%s, %s, %s)' % (rly(a), rly(b), rly(c)),
              'sparse_fill_empty_rows(%s, %s, %s, %s)' % (it, vt, rly(np.array(shape, i64)), '[%d%s]' % (d, vs) if vs != 'f' else '[%df]' % d)))
write('sparse_fill_empty_rows_values.rly', '''// sparse_fill_empty_rows(sparse_indices, sparse_values, dense_shape, default_value) as topi's: the indices
// (sorted by row) with a (row, 0, ...) entry of default_value for each empty row; (new indices, new values,
// empty_row_indicator), every field int64 as TVM types them (float values converted). Empty rows between, at the
// end, and no entries at all. Expected values: numpy (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- nn.sparse_dense, nn.sparse_transpose, nn.sparse_add
import scipy.sparse as sp
def rl(a, dt): return rly(np.asarray(a, dt))
L = []
X = np.array([[1, 2, 3], [4, 5, 6]], f32)
W = sp.csr_matrix(np.array([[1, 0, 2], [0, 0, 0], [0, 3, 0]], f32))
L.append((rly((X @ W.toarray().T).astype(f32)), 'nn.sparse_dense(%s, %s, %s, %s)' % (rly(X), rly(W.data), rl(W.indices, i32), rl(W.indptr, i32))))
L.append((rly((W.toarray() @ X.T).astype(f32)), 'nn.sparse_dense(%s, %s, %s, %s, sparse_lhs=True)' % (rly(X), rly(W.data), rl(W.indices, i32), rl(W.indptr, i32))))
# BSR: a (4, 6) matrix of 2 x 3 blocks
Wd = np.array([[1, 2, 3, 0, 0, 0], [4, 5, 6, 0, 0, 0], [0, 0, 0, -1, 0, 2], [0, 0, 0, 0.5, 1, 0]])
B = sp.bsr_matrix(Wd, blocksize=(2, 3))
X2 = np.arange(12, dtype=f64).reshape(2, 6) - 4
L.append((rly(X2 @ Wd.T), 'nn.sparse_dense(%s, %s, %s, %s)' % (rly(X2), rly(B.data), rl(B.indices, i64), rl(B.indptr, i64))))
X3 = np.arange(12, dtype=f64).reshape(4, 3)
L.append((rly(Wd @ np.hstack([X3, -X3]).T),
          'nn.sparse_dense(%s, %s, %s, %s, sparse_lhs=True)' % (rly(np.hstack([X3, -X3])), rly(B.data), rl(B.indices, i64), rl(B.indptr, i64))))
Xi = np.array([[1, -2], [3, 4]], i32); Wi = sp.csr_matrix(np.array([[0, 5], [7, -1]], i32))
L.append((rly(Xi @ Wi.toarray().T), 'nn.sparse_dense(%s, %s, %s, %s)' % (rly(Xi), rly(Wi.data), rl(Wi.indices, i32), rl(Wi.indptr, i32))))
write('nn_sparse_dense_values.rly', '''// nn.sparse_dense(dense, data, indices, indptr, sparse_lhs=False) as topi's: dense times the sparse matrix
// transposed, or (sparse_lhs) the sparse matrix times dense transposed. CSR float32 both ways, BSR (2 x 3 blocks)
// float64 both ways, CSR int32. Expected values: numpy and scipy.sparse (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)
L = []
A = sp.csr_matrix(np.array([[1, 0, 2], [0, 0, 0], [0, 3, 0]], f32)); T = A.T.tocsr(); T.sort_indices()
L.append(('(%s, %s, %s)' % (rly(T.data), rl(T.indices, i32), rl(T.indptr, i32)), 'nn.sparse_transpose(%s, %s, %s)' % (rly(A.data), rl(A.indices, i32), rl(A.indptr, i32))))
A = sp.csr_matrix(np.array([[0, 4, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0], [5, 6, 7, 0]], i64)); T = A.T.tocsr(); T.sort_indices()
L.append(('(%s, %s, %s)' % (rly(T.data), rl(T.indices, i64), rl(T.indptr, i64)), 'nn.sparse_transpose(%s, %s, %s)' % (rly(A.data), rl(A.indices, i64), rl(A.indptr, i64))))
write('nn_sparse_transpose_values.rly', '''// nn.sparse_transpose(data, indices, indptr) as topi's: a square CSR matrix's transpose in CSR, each new row's
// entries in the order of their old rows. float32 with int32 indices, int64. Expected values: scipy.sparse
// (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)
L = []
D = np.array([[1, 2, 3], [4, 5, 6], [0, 0, 0]], f32); S = sp.csr_matrix(np.array([[1, 0, 2], [0, 0, 0], [0, 3, 0]], f32))
L.append((rly(D + S.toarray()), 'nn.sparse_add(%s, %s, %s, %s)' % (rly(D), rly(S.data), rl(S.indices, i32), rl(S.indptr, i32))))
Di = np.array([[10, 20], [30, 40]], i64)
L.append((rly(Di + np.array([[2, 0], [0, -5]])), 'nn.sparse_add(%s, [1i64, 1i64, -5i64], [0, 0, 1], [0, 2, 3])' % rly(Di)))
write('nn_sparse_add_values.rly', '''// nn.sparse_add(dense, data, indices, indptr) as topi's: the dense matrix plus a CSR matrix; a repeated entry
// adds twice (topi's loop). float32, int64 with a repeated column. Expected values: numpy and scipy.sparse
// (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- random: a transcription of python/tvm/topi/random/kernel.py
M64 = (1 << 64) - 1
ROT4 = [[14, 16], [52, 57], [23, 40], [5, 37], [25, 33], [46, 12], [58, 22], [32, 32]]
PERM4 = [0, 3, 2, 1]
def _threefry(key_buf, key_offset, counter_buf, counter_offset, out_buf, out_offset, out_shape):
    nrounds, nwords, iwidth = 20, 4, 64
    def mix(a, b, rotation):
        x = (a + b) & M64
        y = x ^ (((b << rotation) & M64) | (b >> (iwidth - rotation)))
        return [x, y]
    tmp = [0] * (out_shape * nwords); tmp_offset = 0
    full_key = [0] * (nwords + 1)
    for i in range(nwords): full_key[i] = key_buf[key_offset + i]
    full_key[nwords] = 0x1BD11BDAA9FC1A22
    for i in range(nwords): full_key[nwords] ^= key_buf[key_offset + i]
    for i in range(out_shape):
        for j in range(nwords):
            out_buf[out_offset + i * nwords + j] = (counter_buf[counter_offset + j] + i) & M64
    def key_schedule(s, i):
        if i == nwords - 1: return (full_key[(s + i) % (nwords + 1)] + s) & M64
        return full_key[(s + i) % (nwords + 1)]
    # topi swaps the Python names out_buf/tmp at trace time, once per k: the loops below follow it.
    ob, tb, oo, to = out_buf, tmp, out_offset, tmp_offset
    for l in range(out_shape):
        ob, tb, oo, to = out_buf, tmp, out_offset, tmp_offset
        for i in range(nrounds // 4):
            for j in range(nwords):
                ob[oo + l * nwords + j] = (ob[oo + l * nwords + j] + key_schedule(i, j)) & M64
            for k in range(4):
                for j in range(nwords // 2):
                    ob[oo + l * nwords + j * 2], ob[oo + l * nwords + j * 2 + 1] = mix(
                        ob[oo + l * nwords + j * 2], ob[oo + l * nwords + j * 2 + 1], ROT4[(i * 4 + k) % 8][j])
                for j in range(nwords):
                    tb[to + l * nwords + j] = ob[oo + l * nwords + PERM4[j]]
                ob, tb = tb, ob
                oo, to = to, oo
def _shift_right(a, b):
    if a == 1: return 0, 0x8000000000000000
    if a == 0: return 0, b >> 1
    return a >> 1, 0
def threefry_generate(gen, out_shape):
    out_len = int(np.prod(out_shape))
    gen = [int(x) for x in gen]; out_array = [0] * out_len; tmp = [0] * 10
    if gen[7] < M64 - out_len:
        tmp[:] = gen
    elif gen[8] == 0:  # topi's "gen[8] == 0 and gen[9] == 0": Python's `and` keeps the first TIR comparison
        tmp_counter = [M64, M64, 0, 0]  # a 2-word buffer read as 4 by _threefry: the rest taken as 0
        _threefry(gen, 0, tmp_counter, 0, tmp, 0, 1)
        tmp[4:10] = [0, 0, 0, 0, 1 << 63, 0]
    else:
        tmp[0:4] = gen[0:4]; tmp[4] = gen[4] | gen[8]; tmp[5] = gen[5] | gen[9]; tmp[6] = tmp[7] = 0
        tmp[8], tmp[9] = _shift_right(gen[8], gen[9])
    if out_len >= 4:
        _threefry(tmp, 0, tmp, 4, out_array, 0, out_len // 4)
    if out_len % 4 != 0:
        remaining = [0] * 4
        tmp[7] = (tmp[7] + out_len // 4 * 4) & M64
        _threefry(tmp, 0, tmp, 4, remaining, 0, 1)
        for i in range(out_len % 4): out_array[out_len // 4 * 4 + i] = remaining[i]
    out_gen = tmp[0:6] + [0, (tmp[7] + (4 if out_len % 4 else out_len)) & M64, tmp[8], tmp[9]]
    return np.array(out_gen, np.uint64), np.array(out_array, np.uint64).reshape(out_shape)
def threefry_split(gen):
    gen = [int(x) for x in gen]
    if gen[8] == 0:
        left = [0] * 10
        _threefry(gen, 0, gen, 4, left, 0, 1)
        left[4:10] = [0, 0, 0, 0, 1 << 62, 0]
        right = left[0:4] + [1 << 63, 0, 0, 0, 1 << 62, 0]
    else:
        left = gen[0:8] + list(_shift_right(gen[8], gen[9]))
        right = gen[0:4] + [gen[4] | gen[8], gen[5] | gen[9], gen[6], gen[7]] + list(_shift_right(gen[8], gen[9]))
    return np.array(left, np.uint64), np.array(right, np.uint64)
def uniform(gen, low, high, out_shape, out_dtype):
    new_gen, bits = threefry_generate(gen, out_shape)
    if out_dtype == 'float32': rdt, nbits, nfrac, fdt = np.uint32, 32, 23, np.float32
    else: rdt, nbits, nfrac, fdt = np.uint64, 64, 52, np.float64
    nexp = nbits - nfrac - 1
    bits = bits.astype(rdt)
    mant = (bits >> rdt(nbits - nfrac)) | (rdt((1 << (nexp - 1)) - 1) << rdt(nfrac))
    u = mant.view(fdt) - fdt(1)
    return new_gen, (u * (fdt(high) - fdt(low)) + fdt(low)).astype(fdt)
def normal(gen, mean, scale, out_shape, out_dtype):
    fdt = np.float32 if out_dtype == 'float32' else np.float64
    new_gen, u = uniform(gen, 0.0, 1.0, [2] + list(out_shape), out_dtype)
    u1 = fdt(1) - u[0]; u2 = u[1]
    s = np.sqrt(fdt(-2) * np.log(u1)); sn = np.sin(fdt(2 * np.pi) * u2)
    return new_gen, (s * sn * fdt(scale) + fdt(mean)).astype(fdt)
def multinomial(gen, probs, num_samples):
    probs = np.maximum(np.asarray(probs, np.float32), np.float32(0))
    probs = probs / probs.sum(axis=-1, keepdims=True, dtype=np.float32)
    cum = np.cumsum(probs, axis=-1, dtype=np.float32)
    new_gen, u = uniform(gen, 0.0, 1.0, list(probs.shape[:-1]) + [num_samples], 'float32')
    closest = cum[..., :, None] - u[..., None, :]
    closest = np.where(closest > 0, closest, np.float32(1))
    return new_gen, np.argmin(closest, axis=-2).astype(np.int32)

def key_text(k): return rly(np.asarray(k, np.uint64))
def rlye(a): return rly(a) if a.size else "Constant(0, %s, %s)" % (str(a.shape).replace(",)", ")"), a.dtype)
K0 = np.array([0, 0, 0, 0, 0, 0, 0, 0, 1 << 63, 0], np.uint64)          # threefry_key(0)
K1 = np.array([0x0123456789abcdef, 42, 7, 1 << 40, 0, 0, 0, 5, 1 << 63, 0], np.uint64)
K2 = np.array([1, 2, 3, 4, 0, 0, 0, 0, 0, 0], np.uint64)                 # no path left: a new key
K3 = np.array([9, 8, 7, 6, 5, 4, 0, M64 - 2, 1, 0], np.uint64)            # counter nearly full, path at its end
L = []
for k, shape in [(K0, [5]), (K1, [2, 4]), (K2, [3]), (K3, [2]), (K0, [0])]:
    g, r = threefry_generate(k, shape)
    L.append(('(%s, %s)' % (key_text(g), rlye(r)), 'random.threefry_generate(%s, out_shape=%s)' % (key_text(k), list(shape))))
write('random_threefry_generate_values.rly', '''// random.threefry_generate(key, out_shape=) as topi's Threefry (4 words, 20 rounds, no final key injection):
// (the new key, out_shape uint64 words). threefry_key(0), another key, a key with no path left (a new key by
// Threefry), a full counter, an empty shape. Expected values: a transcription of python/tvm/topi/random/kernel.py
// (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)
L = []
for k in [K0, K1, K2, np.array([1, 2, 3, 4, 5, 6, 7, 8, 1, 0], np.uint64)]:
    a, b = threefry_split(k)
    L.append(('(%s, %s)' % (key_text(a), key_text(b)), 'random.threefry_split(%s)' % key_text(k)))
write('random_threefry_split_values.rly', '''// random.threefry_split(key) as topi's: a 0 and a 1 appended to the path; a new key by Threefry when no
// path is left. threefry_key(0) (TVM's test_threefry_split: (.., 1 << 62, 0) and (.., 1 << 63, 0, 0, 0, 1 << 62, 0)),
// another key, no path left, the path's last bit. Expected values: tests/tools/gen_sparse_random_signal.py.
// args: --no-prelude
''', L)
L = []
for k, lo, hi, shape, dt in [(K0, 0, 1, [3], 'float32'), (K1, -2, 3, [2, 3], 'float32'), (K1, 0, 1, [5], 'float64'), (K2, -1, 1, [2], 'float64')]:
    g, r = uniform(k, lo, hi, shape, dt)
    sfx = 'f' if dt == 'float32' else 'f64'
    L.append(('(%s, %s)' % (key_text(g), rly(r)), 'random.uniform(%s, %d%s, %d%s, out_shape=%s, out_dtype="%s")' % (key_text(k), lo, sfx, hi, sfx, list(shape), dt)))
write('random_uniform_values.rly', '''// random.uniform(key, low, high, out_shape=, out_dtype=) as topi's: Threefry words' top fraction bits (of the
// low 32 bits for float32) as a float in [1, 2), less 1, times (high - low) plus low. float32 and float64.
// Expected values: a numpy transcription of topi (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)
L = []
for k, mu, sc, shape in [(K0, 0, 1, [3]), (K1, 2, 0.5, [2, 2])]:
    g, r = normal(k, mu, sc, shape, 'float64')
    L.append(('(%s, %s)' % (key_text(g), rly(r)), 'random.normal(%s, %sf64, %sf64, out_shape=%s, out_dtype="float64")' % (key_text(k), mu, sc, list(shape))))
write('random_normal_values.rly', '''// random.normal(key, mean, scale, out_shape=, out_dtype=) as topi's Box-Muller: uniform (2, out_shape) u,
// sqrt(-2 log(1 - u[0])) sin(2 pi u[1]) * scale + mean. float64 (float32 goes through the C library's logf and
// sinf, which numpy's float32 functions need not match to the last bit). Expected values: tests/tools/gen_sparse_random_signal.py.
// args: --no-prelude
''', L)
L = []
for k, p, n in [(K0, np.array([[0.1, 0.5, 0.4]], np.float32), 6), (K1, np.array([[1, 0, 3, -1], [0, 0, 0, 2]], np.float32), 4),
                (K2, np.array([0.25, 0.25, 0.5]), 5)]:
    g, r = multinomial(k, p, n)
    L.append(('(%s, %s)' % (key_text(g), rly(r)), 'random.multinomial(%s, %s, num_samples=%d)' % (key_text(k), rly(p), n)))
write('random_multinomial_values.rly', '''// random.multinomial(key, probs, num_samples=) as topi's: float32 probabilities clipped at 0 and normalized
// along the last axis, cumulative sums against float32 uniform samples (the first index whose sum exceeds the
// sample); int32 indices. Unnormalized and negative weights, a float64 vector. Expected values: tests/tools/gen_sparse_random_signal.py.
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- dft, stft: topi's loops (python/tvm/topi/signal.py), in
# their order and dtype (the angles in double; cos and sin from the C library through Python's math), checked against numpy.fft.
import math
def dft(re, im, inverse=False):
    dt = re.dtype.type; n = re.shape[-1]
    R = re.reshape(-1, n); I = im.reshape(-1, n); ore = np.zeros_like(R); oim = np.zeros_like(I)
    sign = -1 if inverse else 1; factor = dt(1.0 / n if inverse else 1.0)
    for b in range(R.shape[0]):
        for q in range(n):
            sr = dt(0); si = dt(0); w0 = sign * -2 * math.pi * q / n
            for k in range(n):
                w = w0 * k; c = dt(math.cos(w)); s = dt(math.sin(w))
                sr = dt(sr + dt(dt(R[b, k] * c) - dt(I[b, k] * s)))
                si = dt(si + dt(dt(R[b, k] * s) + dt(I[b, k] * c)))
            ore[b, q] = dt(sr * factor); oim[b, q] = dt(si * factor)
    ref = (np.fft.ifft if inverse else np.fft.fft)(re.astype(np.float64) + 1j * im.astype(np.float64))
    assert np.allclose(ore.reshape(re.shape), ref.real, atol=1e-4) and np.allclose(oim.reshape(re.shape), ref.imag, atol=1e-4)
    return ore.reshape(re.shape), oim.reshape(re.shape)
def stft(x, window, n_fft, hop, win, normalized=False, onesided=True):
    dt = x.dtype.type; X = x.reshape(-1, x.shape[-1]); L = X.shape[1]
    F = n_fft // 2 + 1 if onesided else n_fft; T = (L - n_fft) // hop + 1
    out = np.zeros((X.shape[0], F, T, 2), x.dtype); sq = dt(math.sqrt(float(np.float32(n_fft))))
    for b in range(X.shape[0]):
        for f in range(F):
            for t in range(T):
                re = dt(0); im = dt(0)
                for w in range(win):
                    a = 2 * math.pi * f * w / win; p = dt(window[w] * X[b, t * hop + w])
                    re = dt(re + dt(p * dt(math.cos(a)))); im = dt(im - dt(p * dt(math.sin(a))))
                if normalized: re = dt(re / sq); im = dt(im / sq)
                out[b, f, t] = re, im
    if win == n_fft:  # numpy's rfft of each windowed frame
        for t in range(T):
            ref = np.fft.fft(X[:, t * hop:t * hop + n_fft].astype(np.float64) * window, axis=-1)[:, :F] / (math.sqrt(n_fft) if normalized else 1)
            assert np.allclose(out[:, :, t, 0], ref.real, atol=1e-3) and np.allclose(out[:, :, t, 1], ref.imag, atol=1e-3)
    return out.reshape(x.shape[:-1] + (F, T, 2))
L = []
for re, im, inv in [(np.array([1, 2, 3, 4], f64), np.zeros(4, f64), False),
                    (np.array([[1, 0, -1], [0.5, 2, 1]], f32), np.array([[0, 1, 0], [1, -1, 0.25]], f32), False),
                    (np.array([10, -2, -2, -2], f64), np.array([0, 2, 0, -2], f64), True)]:
    a, b = dft(re, im, inv)
    L.append(('(%s, %s)' % (rly(a), rly(b)), 'dft(%s, %s%s)' % (rly(re), rly(im), ', inverse=True' if inv else '')))
write('dft_values.rly', '''// dft(re_data, im_data, inverse=False) as topi's: along the last axis, sum_k x[k] e^(-2 pi i n k / N) in k
// order in the dtype (cos and sin rounded to it); inverse: e^(+...) / N. float64, a float32 batch, the inverse.
// Expected values: topi's loop in Python (math.cos and sin), checked against numpy.fft (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)
L = []
for x, w, n_fft, hop, win, norm, one in [(np.array([1, 2, 3, 4, 5, 6], f32), np.array([4, 3, 2], f32), 3, 3, 3, False, True),
                                         (np.array([[1, -1, 2, 0, 3, 1, -2, 0.5], [0, 1, 0, 1, 0, 1, 0, 1]], f64), np.array([0.5, 1, 1, 0.5]), 4, 2, 4, True, False),
                                         (np.arange(7, dtype=f64), np.array([1, 2, 1.]), 4, 1, 3, False, True)]:
    o = stft(x, w, n_fft, hop, win, norm, one)
    attrs = 'n_fft=%d, hop_length=%d, win_length=%d%s%s' % (n_fft, hop, win, ', normalized=True' if norm else '', ', onesided=False' if not one else '')
    L.append((rly(o), 'stft(%s, %s, %s)' % (rly(x), rly(w), attrs)))
write('stft_values.rly', '''// stft(data, window, n_fft=, hop_length=, win_length=, normalized=False, onesided=True) as topi's: frame t of
// hop_length, sum_w window[w] x[t * hop + w] (cos, -sin)(2 pi f w / win_length) in the dtype; (.., F, frames, 2).
// TVM's docstring example (it prints 15 and 34 where its kernel gives 16 and 43), a normalized two-sided float64
// batch, a window shorter than n_fft. Expected values: topi's loop in Python, checked against numpy.fft.
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- nn.correlation: topi.testing's correlation_nchw_python,
# with topi's output size (ceil((padded - 2 border) / stride1)) and zeros read beyond the padding, as topi's pad
def correlation(data1, data2, kernel_size, max_displacement, stride1, stride2, padding, is_multiply):
    ph, pw = padding
    pad_h = data1.shape[2] + 2 * ph; pad_w = data1.shape[3] + 2 * pw
    kernel_radius = (kernel_size - 1) // 2; border_size = max_displacement + kernel_radius
    out_width = (pad_w - border_size * 2 + stride1 - 1) // stride1
    out_height = (pad_h - border_size * 2 + stride1 - 1) // stride1
    rad = max_displacement // stride2; gw = rad * 2 + 1; out_channel = gw * gw
    out = np.zeros((data1.shape[0], out_channel, out_height, out_width))
    big = 64
    p1 = np.zeros(data1.shape[:2] + (pad_h + big, pad_w + big)); p2 = np.zeros_like(p1)
    p1[:, :, ph:ph + data1.shape[2], pw:pw + data1.shape[3]] = data1
    p2[:, :, ph:ph + data2.shape[2], pw:pw + data2.shape[3]] = data2
    f = (lambda x, y: x * y) if is_multiply else (lambda x, y: abs(x - y))
    for i in range(out_height):
        for j in range(out_width):
            for nb in range(data1.shape[0]):
                x1 = j * stride1 + max_displacement; y1 = i * stride1 + max_displacement
                for q in range(out_channel):
                    x2 = x1 + (q % gw - rad) * stride2; y2 = y1 + (q // gw - rad) * stride2
                    for h in range(kernel_size):
                        for w in range(kernel_size):
                            for c in range(data1.shape[1]):
                                a = p1[nb, c, y1 + h, x1 + w]
                                b = p2[nb, c, y2 + h, x2 + w] if y2 + h >= 0 and x2 + w >= 0 else 0.0
                                out[nb, q, i, j] += f(a, b)
    return out / float(kernel_size ** 2 * data1.shape[1])
L = []
d1 = (np.arange(32, dtype=f64).reshape(1, 2, 4, 4) % 5) - 2; d2 = (np.arange(32, dtype=f64).reshape(1, 2, 4, 4) % 3) * 0.5
for k, md, s1, s2, pad, mul, dt in [(1, 1, 1, 1, (1, 1), True, f64), (3, 1, 1, 1, (2, 2), False, f64), (1, 2, 2, 2, (2, 2), True, f64),
                                     (1, 1, 1, 1, (0, 0), True, f32)]:
    o = correlation(d1, d2, k, md, s1, s2, pad, mul).astype(dt)
    L.append((rly(o), 'nn.correlation(%s, %s, kernel_size=%d, max_displacement=%d, stride1=%d, stride2=%d, padding=[%d, %d], is_multiply=%s)'
              % (rly(d1.astype(dt)), rly(d2.astype(dt)), k, md, s1, s2, pad[0], pad[1], mul)))
write('nn_correlation_values.rly', '''// nn.correlation(data1, data2, kernel_size, max_displacement, stride1, stride2, padding, is_multiply) as topi's
// correlation_nchw: displacements (q / D - r, q % D - r) * stride2 around y1 = i * stride1 + max_displacement, the sum
// over channels and the kernel window divided by k * k * C. Products and |a - b|, kernel 3, strides 2, float32.
// Expected values: topi.testing's correlation_nchw_python with topi's (ceil) output size (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- image.dilation2d: topi's dilation2d_nchw in numpy
def dilation2d_nchw(x, w, strides, padding, dilations, odt):
    sh, sw = strides; dh, dw = dilations; t, l, b, r = padding
    xp = np.pad(x.astype(odt), ((0, 0), (0, 0), (t, b), (l, r)))
    C, KH, KW = w.shape
    OH = (xp.shape[2] - ((KH - 1) * dh + 1)) // sh + 1; OW = (xp.shape[3] - ((KW - 1) * dw + 1)) // sw + 1
    out = np.full((x.shape[0], C, OH, OW), -np.inf if np.issubdtype(odt, np.floating) else np.iinfo(odt).min, odt)
    for ry in range(KH):
        for rx in range(KW):
            win = xp[:, :, ry * dh: ry * dh + (OH - 1) * sh + 1: sh, rx * dw: rx * dw + (OW - 1) * sw + 1: sw]
            out = np.maximum(out, (win + w[None, :, ry, rx, None, None].astype(odt)).astype(odt))
    return out
L = []
x = (np.arange(2 * 2 * 5 * 5, dtype=f32).reshape(2, 2, 5, 5) * 7 % 11) - 5
w = np.array([[[0, 1, 0], [1, 2, 1], [0, 1, 0]], [[-1, 0, -1], [0, 0, 0], [-1, 0, 3]]], f32)
L.append((rly(dilation2d_nchw(x, w, (1, 1), (0, 0, 0, 0), (1, 1), f32)), 'image.dilation2d(%s, %s)' % (rly(x), rly(w))))
L.append((rly(dilation2d_nchw(x, w, (2, 1), (1, 1, 1, 1), (1, 2), f32)), 'image.dilation2d(%s, %s, strides=[2, 1], padding=[1, 1], dilations=[1, 2])' % (rly(x), rly(w))))
xh = np.transpose(x, (0, 2, 3, 1)); wh = np.transpose(w, (1, 2, 0))
o = np.transpose(dilation2d_nchw(x, w, (1, 1), (1, 0, 0, 1), (1, 1), f32), (0, 2, 3, 1))
L.append((rly(o), 'image.dilation2d(%s, %s, padding=[1, 0, 0, 1], data_layout="NHWC", kernel_layout="HWI")' % (rly(xh), rly(wh))))
xi = (np.arange(16, dtype=np.int8).reshape(1, 1, 4, 4) * 37 % 23 - 11).astype(np.int8); wi = np.array([[[100, -3], [5, 7]]], np.int8)
L.append((rly(dilation2d_nchw(xi, wi, (1, 1), (0, 0, 0, 0), (1, 1), np.int32)), 'image.dilation2d(%s, %s, out_dtype="int32")' % (rly(xi), rly(wi))))
write('image_dilation2d_values.rly', '''// image.dilation2d(data, weight, strides, padding, dilations, data_layout, kernel_layout, out_dtype) as topi's:
// the max over the window of the (zero-)padded data plus the weight, in out_dtype. Defaults, strides, padding and
// dilations, NHWC with HWI, int8 into int32. Expected values: numpy (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- nn.fifo_buffer: topi's (concatenate, then the last slice)
def fifo_buffer(data, buf, axis):
    return np.take(np.concatenate((buf, data), axis=axis), range(data.shape[axis], data.shape[axis] + buf.shape[axis]), axis=axis)
L = []
b = np.arange(10, dtype=f32).reshape(5, 2); d = np.array([[-1, -2], [-3, -4]], f32)
L.append((rly(fifo_buffer(d, b, 0)), 'nn.fifo_buffer(%s, %s)' % (rly(d), rly(b))))
b = np.arange(24, dtype=i32).reshape(2, 4, 3); d = -np.arange(6, dtype=i32).reshape(2, 1, 3) - 1
L.append((rly(fifo_buffer(d, b, 1)), 'nn.fifo_buffer(%s, %s, axis=1)' % (rly(d), rly(b))))
b = np.arange(6, dtype=f64).reshape(2, 3); d = np.array([[9, 8], [7, 6]], f64)
L.append((rly(fifo_buffer(d, b, -1)), 'nn.fifo_buffer(%s, %s, axis=-1)' % (rly(d), rly(b))))
write('nn_fifo_buffer_values.rly', '''// nn.fifo_buffer(data, buffer, axis=0) as topi's: the buffer shifted along axis by the data's length, the data
// at its end. Axis 0, a middle axis of int32, the last axis of float64. Expected values: numpy (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- nn.deformable_conv2d: topi.testing's deformable_conv2d_nchw_python
import itertools
def deformable_conv2d_nchw_python(a_np, offset_np, w_np, stride, padding, dilation, deformable_groups, groups):
    batch, in_channel, in_height, in_width = a_np.shape
    out_channel, _, kernel_h, kernel_w = w_np.shape
    out_height, out_width = offset_np.shape[-2:]
    dtype = a_np.dtype
    ic_per_dgroup = in_channel // deformable_groups
    assert groups == 1
    stride_h, stride_w = stride; dilation_h, dilation_w = dilation; pad_top, pad_left = padding
    def _bilinear(n, c, h, w):
        y_low = int(math.floor(h)); x_low = int(math.floor(w)); y_high = y_low + 1; x_high = x_low + 1
        wy_h = h - y_low; wx_h = w - x_low; wy_l = 1 - wy_h; wx_l = 1 - wx_h
        val = 0
        for wx, xp in zip((wx_l, wx_h), (x_low, x_high)):
            for wy, yp in zip((wy_l, wy_h), (y_low, y_high)):
                if 0 <= yp < in_height and 0 <= xp < in_width:
                    val += wx * wy * a_np[n, c, yp, xp]
        return val
    a_deform = np.zeros((batch, in_channel, out_height, out_width, kernel_h, kernel_w), dtype=dtype)
    for n, h, w in itertools.product(range(batch), range(out_height), range(out_width)):
        offset = offset_np[n, :, h, w].reshape(deformable_groups, kernel_h, kernel_w, 2)
        in_h = h * stride_h - pad_top; in_w = w * stride_w - pad_left
        index_h_base, index_w_base = np.meshgrid(
            np.arange(in_h, in_h + kernel_h * dilation_h, dilation_h, dtype=offset_np.dtype),
            np.arange(in_w, in_w + kernel_w * dilation_w, dilation_w, dtype=offset_np.dtype), indexing="ij")
        for c, kh, kw in itertools.product(range(in_channel), range(kernel_h), range(kernel_w)):
            dg = c // ic_per_dgroup
            index_h = index_h_base + offset[dg, ..., 0]; index_w = index_w_base + offset[dg, ..., 1]
            y, x = index_h[kh, kw], index_w[kh, kw]
            if y < 0 or y >= in_height or x < 0 or x >= in_width: continue
            a_deform[n, c, h, w, kh, kw] = _bilinear(n, c, y, x)
    b_np = np.zeros((batch, out_channel, out_height, out_width), dtype=dtype)
    for n, c, f, h, w in itertools.product(range(batch), range(in_channel), range(out_channel), range(out_height), range(out_width)):
        b_np[n, f, h, w] += np.tensordot(a_deform[n, c, h, w], w_np[f, c])
    return b_np
L = []
x = ((np.arange(2 * 2 * 4 * 4, dtype=f64).reshape(2, 2, 4, 4) * 5) % 7) - 3
w = np.array([[[[1, 0], [0.5, -1]], [[0, 2], [1, 0]]], [[[0.25, 0], [0, 0]], [[-1, 1], [1, -1]]], [[[0, 0], [0, 1]], [[1, 0], [0, 0]]]], f64)
off = (((np.arange(2 * 8 * 3 * 3, dtype=f64).reshape(2, 8, 3, 3) * 3) % 9) - 4) * 0.25
L.append((rly(deformable_conv2d_nchw_python(x, off, w, (1, 1), (0, 0), (1, 1), 1, 1)), 'nn.deformable_conv2d(%s, %s, %s)' % (rly(x), rly(off), rly(w))))
off2 = (((np.arange(1 * 16 * 2 * 3, dtype=f64).reshape(1, 16, 2, 3) * 5) % 11) - 5) * 0.5
L.append((rly(deformable_conv2d_nchw_python(x[:1], off2, w, (2, 2), (1, 1), (2, 1), 2, 1)),
          'nn.deformable_conv2d(%s, %s, %s, strides=[2, 2], padding=[1, 1], dilation=[2, 1], deformable_groups=2)' % (rly(x[:1]), rly(off2), rly(w))))
write('nn_deformable_conv2d_values.rly', '''// nn.deformable_conv2d(data, offset, weight, ...) as topi's: each window position moved by its (dy, dx) offset
// (per deformable group), sampled bilinearly (0 outside), then the convolution. Defaults with a batch of 2;
// strides, padding, dilation and 2 deformable groups. float64. Expected values: topi.testing's
// deformable_conv2d_nchw_python (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)

# ---------------------------------------------------------------- nn.conv2d_backward_weight: topi.testing's
# conv2d_backward_weight_nchw_python (python/tvm/topi/testing/conv2d_backcward_weight_python.py)
def conv2d_backward_weight_nchw_python(dy_np, x_np, kernel_size, stride, padding, groups=1, channels=None):
    N, C, H, W = x_np.shape
    _, K, P, Q = dy_np.shape
    R, S = kernel_size; pad_h, pad_w = padding; stride_h, stride_w = stride
    is_depth_wise = C == K and C == groups
    if is_depth_wise:
        assert channels == groups
        dw = np.zeros((K, 1, R, S)).astype(dy_np.dtype)
    else:
        assert groups == 1
        dw = np.zeros((K, C, R, S)).astype(dy_np.dtype)
    for k in range(K):
        for r in range(R):
            for s in range(S):
                for c in range(dw.shape[1]):
                    acc = 0
                    for n in range(N):
                        for p in range(P):
                            for q in range(Q):
                                in_c = c if not is_depth_wise else k
                                coord = (n, in_c, p * stride_h - pad_h + r, q * stride_w - pad_w + s)
                                if coord[2] < H and coord[2] >= 0 and coord[3] < W and coord[3] >= 0:
                                    acc += dy_np[n, k, p, q] * x_np[coord]
                    dw[k, c, r, s] = acc
    return dw
L = []
x = ((np.arange(2 * 3 * 5 * 5, dtype=f32).reshape(2, 3, 5, 5) * 7) % 9) - 4
dy = ((np.arange(2 * 2 * 3 * 3, dtype=f32).reshape(2, 2, 3, 3) * 5) % 7) - 3
L.append((rly(conv2d_backward_weight_nchw_python(dy, x, (3, 3), (1, 1), (0, 0))),
          'nn.conv2d_backward_weight(%s, %s, kernel_size=[3, 3], data_layout="NCHW", kernel_layout="NCHW", out_layout="OIHW")' % (rly(dy), rly(x))))
dy2 = dy[:, :, :, :]; dy2 = ((np.arange(2 * 2 * 3 * 3, dtype=f64).reshape(2, 2, 3, 3) * 3) % 5) - 2
L.append((rly(conv2d_backward_weight_nchw_python(dy2, x.astype(f64), (2, 2), (2, 2), (1, 1))),
          'nn.conv2d_backward_weight(%s, %s, strides=[2, 2], padding=[1, 1], kernel_size=[2, 2])' % (rly(dy2), rly(x.astype(f64)))))
xd = x[:, :2]; dyd = ((np.arange(2 * 2 * 4 * 4, dtype=f32).reshape(2, 2, 4, 4) * 3) % 7) - 3
L.append((rly(conv2d_backward_weight_nchw_python(dyd, xd, (2, 2), (1, 1), (0, 0), groups=2, channels=2)),
          'nn.conv2d_backward_weight(%s, %s, groups=2, channels=2, kernel_size=[2, 2])' % (rly(dyd), rly(xd))))
write('nn_conv2d_backward_weight_values.rly', '''// nn.conv2d_backward_weight(grad, data, strides, padding, dilation, groups, channels, kernel_size, ...) as
// TVM's: the gradient of conv2d with respect to its OIHW weight. TVM's printed layouts (grad NCHW, data NCHW, weight
// OIHW), float64 with strides and padding, depthwise (groups = channels). Expected values: topi.testing's
// conv2d_backward_weight_nchw_python (tests/tools/gen_sparse_random_signal.py).
// args: --no-prelude
''', L)
