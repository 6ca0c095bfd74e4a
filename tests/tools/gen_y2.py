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
// (tests/tools/gen_y2.py).
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
// int64 to rank 3, to a vector. Expected values: numpy (tests/tools/gen_y2.py).
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
// end, and no entries at all. Expected values: numpy (tests/tools/gen_y2.py).
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
// float64 both ways, CSR int32. Expected values: numpy and scipy.sparse (tests/tools/gen_y2.py).
// args: --no-prelude
''', L)
L = []
A = sp.csr_matrix(np.array([[1, 0, 2], [0, 0, 0], [0, 3, 0]], f32)); T = A.T.tocsr(); T.sort_indices()
L.append(('(%s, %s, %s)' % (rly(T.data), rl(T.indices, i32), rl(T.indptr, i32)), 'nn.sparse_transpose(%s, %s, %s)' % (rly(A.data), rl(A.indices, i32), rl(A.indptr, i32))))
A = sp.csr_matrix(np.array([[0, 4, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0], [5, 6, 7, 0]], i64)); T = A.T.tocsr(); T.sort_indices()
L.append(('(%s, %s, %s)' % (rly(T.data), rl(T.indices, i64), rl(T.indptr, i64)), 'nn.sparse_transpose(%s, %s, %s)' % (rly(A.data), rl(A.indices, i64), rl(A.indptr, i64))))
write('nn_sparse_transpose_values.rly', '''// nn.sparse_transpose(data, indices, indptr) as topi's: a square CSR matrix's transpose in CSR, each new row's
// entries in the order of their old rows. float32 with int32 indices, int64. Expected values: scipy.sparse
// (tests/tools/gen_y2.py).
// args: --no-prelude
''', L)
L = []
D = np.array([[1, 2, 3], [4, 5, 6], [0, 0, 0]], f32); S = sp.csr_matrix(np.array([[1, 0, 2], [0, 0, 0], [0, 3, 0]], f32))
L.append((rly(D + S.toarray()), 'nn.sparse_add(%s, %s, %s, %s)' % (rly(D), rly(S.data), rl(S.indices, i32), rl(S.indptr, i32))))
Di = np.array([[10, 20], [30, 40]], i64)
L.append((rly(Di + np.array([[2, 0], [0, -5]])), 'nn.sparse_add(%s, [1i64, 1i64, -5i64], [0, 0, 1], [0, 2, 3])' % rly(Di)))
write('nn_sparse_add_values.rly', '''// nn.sparse_add(dense, data, indices, indptr) as topi's: the dense matrix plus a CSR matrix; a repeated entry
// adds twice (topi's loop). float32, int64 with a repeated column. Expected values: numpy and scipy.sparse
// (tests/tools/gen_y2.py).
// args: --no-prelude
''', L)
