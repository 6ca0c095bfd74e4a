"""Expected values of the golden tests of the operators TVM 0.14 has that relay lacked (fast_softmax, cast_like,
slice_like, sequence_mask, trilu, einsum, ...): numpy computes them. Writes tests/golden/ops/<op>_*.rly."""
import os, sys, numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly
f32 = np.float32; f64 = np.float64
def write(name, header, lines):
    open(OPS + name, 'w').write(header + ''.join('// expect: %s\n' % e for e, _ in lines) + ''.join(p + '\n' for _, p in lines))
def raw(name, text): open(OPS + name, 'w').write(text)
def ar(shape, dt=f32, off=0): return (np.arange(int(np.prod(shape))) - off).astype(dt).reshape(shape)

# nn.fast_softmax: softmax's values (TVM approximates exp within float tolerance; relay computes exactly)
def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True)); return e / e.sum(axis, keepdims=True)
x = np.array([[1, 2, 3], [-1, 0, 4]], f64)
write('fast_softmax_values.rly', '''// nn.fast_softmax gives softmax's values (TVM's fast_exp approximates them within float tolerance; relay computes
// exactly): the last axis by default, and axis 0. Expected values: numpy.
// args: --no-prelude
''', [(rly(softmax(x).astype(f32)), 'nn.fast_softmax(%s)' % rly(x.astype(f32))),
      (rly(softmax(x, 0).astype(f32)), 'nn.fast_softmax(%s, axis=0)' % rly(x.astype(f32)))])
raw('fast_softmax_types.rly', '''// nn.fast_softmax keeps its argument's type, symbolic dimensions too; an axis beyond the rank is an error.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar>(Tensor[(n, 3), float32]) -> Tensor[(n, 3), float32]
def @a(%x : Tensor[(n, 3), float32]) { nn.fast_softmax(%x, axis=0) }
''')
raw('fast_softmax_error_axis.rly', '''// nn.fast_softmax's axis must be in range: axis=2 of a matrix is a type error naming the operator.
// args: --no-prelude
// expect-error: type error: `nn.fast_softmax`: axis=2 is out of range for a tensor of rank 2 (axes go from -2 to 1)
nn.fast_softmax([[1f, 2f]], axis=2)
''')

# cast_like
x = np.array([1.7, -2.5, 300.25], f32)
write('cast_like_values.rly', '''// cast_like(data, like) converts data to like's element type (cast's rule: floats truncate toward zero, integers
// wrap): float32 to int16 and float64, int32 to int8 (wrapping) and float32. Expected values: numpy's astype.
// args: --no-prelude
''', [(rly(x.astype(np.int16)), 'cast_like(%s, [1i16])' % rly(x)),
      (rly(x.astype(f64)), 'cast_like(%s, [[1f64]])' % rly(x)),
      (rly(np.array([1, 200, -129], np.int32).astype(np.int8)), 'cast_like([1, 200, -129], 0i8)'),
      (rly(np.array([[1, 2]], np.int32).astype(f32)), 'cast_like([[1, 2]], 0f)')])
raw('cast_like_types.rly', '''// cast_like's type: the data's shape (symbolic dimensions kept), the second argument's element type.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar, m : ShapeVar>(Tensor[(n, 2), float32], Tensor[(m), int8]) -> Tensor[(n, 2), int8]
def @a(%x : Tensor[(n, 2), float32], %y : Tensor[(m), int8]) { cast_like(%x, %y) }
''')
raw('cast_like_error_tuple.rly', '''// cast_like takes its element type from a tensor: a tuple as the second argument is a type error naming it.
// args: --no-prelude
// expect-error: type error: `cast_like` takes a tensor whose type to take, but its second argument is (int32, int32)
cast_like([1f], (1, 2))
''')

# slice_like
x = ar((3, 4, 2))
write('slice_like_values.rly', '''// slice_like(data, like, axes) keeps the first like.shape[i] elements of each axis i in axes (every axis both
// have when not given): all axes of a lower-rank like, axes=[1], axes=[-1, 0]. Expected values: numpy slicing.
// args: --no-prelude
''', [(rly(x[:2, :3]), 'slice_like(%s, zeros(shape=[2, 3]))' % rly(x)),
      (rly(x[:, :1]), 'slice_like(%s, zeros(shape=[2, 1, 2]), axes=[1])' % rly(x)),
      (rly(x[:1, :, :1].astype(np.int32)), 'slice_like(%s, zeros(shape=[1, 4, 1]), axes=[-1, 0])' % rly(x.astype(np.int32)))])
raw('slice_like_types.rly', '''// slice_like's type: the data's dimensions, like's on the axes; symbolic dimensions carry over from either.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar, m : ShapeVar>(Tensor[(n, 5), float32], Tensor[(m, 3), int8]) -> Tensor[(m, 3), float32] where SliceLike(Tensor[(n, 5), float32], Tensor[(m, 3), int8], Tensor[(m, 3), float32])
// expect-type: @b : fn<n : ShapeVar, m : ShapeVar>(Tensor[(n, 5), float32], Tensor[(m, 3), int8]) -> Tensor[(n, 3), float32]
def @a(%x : Tensor[(n, 5), float32], %y : Tensor[(m, 3), int8]) { slice_like(%x, %y) }
def @b(%x : Tensor[(n, 5), float32], %y : Tensor[(m, 3), int8]) { slice_like(%x, %y, axes=[1]) }
''')
raw('slice_like_error_larger.rly', '''// slice_like cannot grow an axis: like's 4 beyond the data's 3 is a type error naming the operator (TVM's assert).
// args: --no-prelude
// expect-error: type error: `slice_like`: dimension 0 of (4, 2) is 4, beyond the data's 3 in (3, 2)
slice_like(zeros(shape=[3, 2]), zeros(shape=[4, 2]))
''')

# trilu
def trilu(x, k, upper): return np.triu(x, k) if upper else np.tril(x, k)
x = ar((3, 4), off=-1); y = ar((2, 3, 3), np.int32)
write('trilu_values.rly', '''// trilu(data, k, upper=True) keeps the upper (j >= i + k) or lower (j <= i + k) triangle of the last two axes and
// zeroes the rest: k 0, 1, -1, beyond the matrix, a batch of int32 matrices. Expected values: numpy's triu and tril.
// args: --no-prelude
''', [(rly(trilu(x, 0, True)), 'trilu(%s, 0)' % rly(x)),
      (rly(trilu(x, 1, False)), 'trilu(%s, 1, upper=False)' % rly(x)),
      (rly(trilu(x, -1, True)), 'trilu(%s, -1i64, upper=True)' % rly(x)),
      (rly(trilu(x, 5, True)), 'trilu(%s, 5)' % rly(x)),
      (rly(trilu(y, -1, False)), 'trilu(%s, -1, upper=False)' % rly(y))])
raw('trilu_types.rly', '''// trilu keeps the data's type (symbolic dimensions too); k is an integer scalar of any width.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar, m : ShapeVar>(Tensor[(n, m), float64], Tensor[(), int64]) -> Tensor[(n, m), float64]
def @a(%x : Tensor[(n, m), float64], %k : Tensor[(), int64]) { trilu(%x, %k, upper=False) }
''')
raw('trilu_error_vector.rly', '''// trilu works on matrices: a vector is a type error naming trilu.
// args: --no-prelude
// expect-error: type error: `trilu` works on matrices (rank 2 or more), but its data is (2)
trilu([1f, 2f], 0)
''')
raw('trilu_error_k.rly', '''// trilu's k is an integer scalar: a float k is a type error naming trilu.
// args: --no-prelude
// expect-error: type error: `trilu`
// expect-error: float32
trilu([[1f, 2f]], 0f)
''')

# sequence_mask
def seqmask(x, l, mv, axis):
    x = x.copy()
    for idx in np.ndindex(x.shape):
        t, b = (idx[0], idx[1]) if axis == 0 else (idx[1], idx[0])
        if t >= l[b]: x[idx] = mv
    return x
x = ar((3, 2, 2))
write('sequence_mask_values.rly', '''// sequence_mask(data, valid_length, mask_value=0, axis=0) sets the positions at or beyond each batch's length along
// the sequence axis to mask_value: axis 0 (data (seq, batch, ...)), axis 1 (data (batch, seq)), int8 data with a
// length of 0 and one beyond the axis, float lengths (TVM casts the position to their type). Expected values: a numpy loop.
// args: --no-prelude
''', [(rly(seqmask(x, [1, 2], -1, 0)), 'sequence_mask(%s, [1, 2], mask_value=-1f)' % rly(x)),
      (rly(seqmask(ar((2, 4)), [3, 1], 0, 1)), 'sequence_mask(%s, [3i64, 1i64], axis=1)' % rly(ar((2, 4)))),
      (rly(seqmask(ar((2, 3), np.int8), [0, 7], 5, 1)), 'sequence_mask(%s, [0, 7], mask_value=5.7f, axis=1)' % rly(ar((2, 3), np.int8))),
      (rly(seqmask(ar((3, 2)), [1.5, 2.0], 9, 0)), 'sequence_mask(%s, [1.5f, 2f], mask_value=9f)' % rly(ar((3, 2))))])
raw('sequence_mask_types.rly', '''// sequence_mask keeps the data's type; valid_length is a vector as long as the batch axis (1 - axis): symbolic
// dimensions unify, a `?` length stays `?`.
// args: --no-prelude
// expect-type: @a : fn<t : ShapeVar, b : ShapeVar>(Tensor[(t, b, 4), float32], Tensor[(b), int32]) -> Tensor[(t, b, 4), float32]
// expect-type: @b : fn<b : ShapeVar, t : ShapeVar>(Tensor[(b, t), float32], Tensor[(?), int64]) -> Tensor[(b, t), float32]
def @a(%x : Tensor[(t, b, 4), float32], %l : Tensor[(b), int32]) { sequence_mask(%x, %l) }
def @b(%x : Tensor[(b, t), float32], %l : Tensor[(?), int64]) { sequence_mask(%x, %l, axis=1) }
''')
raw('sequence_mask_error_length.rly', '''// sequence_mask's valid_length must be as long as the batch axis: 3 lengths for a batch of 2 is a type error.
// args: --no-prelude
// expect-error: type error: `sequence_mask`: the length of valid_length and the batch dimension, 3 and 2, differ
sequence_mask(zeros(shape=[4, 2]), [1, 2, 3])
''')
raw('sequence_mask_error_axis.rly', '''// sequence_mask's axis is 0 or 1 (TVM's check): axis=2 is a type error naming it.
// args: --no-prelude
// expect-error: type error: `sequence_mask`: axis=2 must be 0 or 1
sequence_mask(zeros(shape=[4, 2, 2]), [1, 2], axis=2)
''')

# einsum
A = ar((2, 3), off=2); B = ar((3, 4), off=5); Ab = ar((2, 2, 3), off=4); Bb = ar((2, 3, 2), off=1)
Q = ar((1, 2, 3, 2), off=3) / 4; K = ar((1, 2, 2, 2), off=1) / 2
E = ar((2, 1, 2, 3), off=1); F = ar((4, 3, 2), off=6)
M = ar((3, 3), np.int32, off=4); v = np.array([1, -2, 3], np.int32); w = np.array([2, 5], np.int32)
cases = [('ij,jk->ik', (A, B)), ('bij,bjk->bik', (Ab, Bb)), ('bhqd,bhkd->bhqk', (Q, K)), ('...ij,...jk->...ik', (E, F)),
         ('ij,jk', (A, B)), ('ji', (A,)), ('ii', (M,)), ('ii->i', (M,)), ('i,j->ij', (v, w)), ('ij->', (A,)),
         ('bij->bji', (Ab.astype(f64),)), ('...j,j', (Ab, np.arange(3, dtype=f32)))]
L = []
for eq, xs in cases:
    r = np.einsum(eq, *[x.astype(f64) for x in xs]).astype(xs[0].dtype)
    L.append((rly(r), 'einsum((%s), equation="%s")' % (''.join(rly(x) + ', ' for x in xs)[:-2] + (',' if len(xs) == 1 else ''), eq)))
write('einsum_values.rly', '''// einsum((tensors), equation) as numpy.einsum: matmul, batch matmul, attention's bhqd,bhkd->bhqk, ellipses that
// broadcast ((2, 1) with (4)), numpy's implicit output (letters used once, in order), a transpose, a trace ('ii'), a
// diagonal, an outer product of int32 vectors, a full sum, float64. Sums in double (integers in 64 bits), rounded once.
// Expected values: numpy.einsum.
// args: --no-prelude
''', L)
raw('einsum_types.rly', '''// einsum's type: each letter's dimension (symbolic ones unify across the tensors), the ellipses broadcast
// ((n, 1) with (5) gives (n, 5)), implicit output in numpy's order.
// args: --no-prelude
// expect-type: @a : fn<b : ShapeVar, n : ShapeVar, m : ShapeVar>(Tensor[(b, n, 4), float32], Tensor[(b, 4, m), float32]) -> Tensor[(b, n, m), float32]
// expect-type: @b : fn<n : ShapeVar>(Tensor[(n, 1, 2, 3), float32], Tensor[(5, 3, 2), float32]) -> Tensor[(n, 5, 2, 2), float32]
// expect-type: @c : fn<k : ShapeVar>(Tensor[(3, k), float16]) -> Tensor[(k, 3), float16]
def @a(%x : Tensor[(b, n, 4), float32], %y : Tensor[(b, 4, m), float32]) { einsum((%x, %y), equation="bij,bjk->bik") }
def @b(%x : Tensor[(n, 1, 2, 3), float32], %y : Tensor[(5, 3, 2), float32]) { einsum((%x, %y), equation="...ij,...jk->...ik") }
def @c(%x : Tensor[(3, k), float16]) { einsum((%x,), equation="ij->ji") }
''')
raw('einsum_error_dims.rly', '''// einsum's letter j is 3 in one tensor and 2 in the other: a type error naming einsum and the letter.
// args: --no-prelude
// expect-error: type error: `einsum`: letter j
einsum((zeros(shape=[2, 3]), zeros(shape=[2, 4])), equation="ij,jk->ik")
''')
raw('einsum_error_terms.rly', '''// einsum's equation must have a term per tensor: two terms for one tensor is a type error.
// args: --no-prelude
// expect-error: type error: `einsum`
// expect-error: 2 input terms
einsum((zeros(shape=[2, 3]),), equation="ij,jk->ik")
''')
raw('einsum_error_equation.rly', '''// einsum's equation is letters, ',', '->' and '...': a digit is a type error naming the equation.
// args: --no-prelude
// expect-error: type error: `einsum`: equation="i1" is not an equation: it has a character that is not a letter, ',', '->' or '...'
einsum((zeros(shape=[2, 3]),), equation="i1")
''')

# meshgrid
a = np.array([1, 2, 3], f32); b = np.array([4, 5], f32); c = np.array([7, 8], np.int8)
def mg(xs, ix): return '(' + ', '.join(rly(g) for g in np.meshgrid(*xs, indexing=ix)) + (',)' if len(xs) == 1 else ')')
write('meshgrid_values.rly', '''// meshgrid((tensors), indexing="ij") as numpy.meshgrid: "ij", "xy" (the first two axes swapped), three vectors, a
// scalar (a length-1 axis), one vector. Expected values: numpy.meshgrid.
// args: --no-prelude
''', [(mg((a, b), 'ij'), 'meshgrid((%s, %s))' % (rly(a), rly(b))),
      (mg((a, b), 'xy'), 'meshgrid((%s, %s), indexing="xy")' % (rly(a), rly(b))),
      (mg((c, c[:1], c), 'xy'), 'meshgrid((%s, %s, %s), indexing="xy")' % (rly(c), rly(c[:1]), rly(c))),
      (mg((a, np.array([9], f32)), 'ij'), 'meshgrid((%s, 9f))' % rly(a)),
      (mg((b,), 'ij'), 'meshgrid((%s,))' % rly(b))])
raw('meshgrid_types.rly', '''// meshgrid's type: a tuple of one grid per tensor, the lengths in order (the first two swapped for "xy"), 1 for a
// scalar; symbolic lengths kept.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar, m : ShapeVar>(Tensor[(n), float32], Tensor[(m), float32]) -> (Tensor[(n, m), float32], Tensor[(n, m), float32])
// expect-type: @b : fn<n : ShapeVar, m : ShapeVar>(Tensor[(n), int32], Tensor[(m), int32], Tensor[(), int32]) -> (Tensor[(m, n, 1), int32], Tensor[(m, n, 1), int32], Tensor[(m, n, 1), int32])
def @a(%x : Tensor[(n), float32], %y : Tensor[(m), float32]) { meshgrid((%x, %y)) }
def @b(%x : Tensor[(n), int32], %y : Tensor[(m), int32], %z : Tensor[(), int32]) { meshgrid((%x, %y, %z), indexing="xy") }
''')
raw('meshgrid_error_matrix.rly', '''// meshgrid takes scalars and vectors (TVM's check): a matrix is a type error naming meshgrid.
// args: --no-prelude
// expect-error: type error: `meshgrid`
// expect-error: (2, 2)
meshgrid(([1f], [[1f, 2f], [3f, 4f]]))
''')
raw('meshgrid_error_indexing.rly', '''// meshgrid's indexing is "ij" or "xy": "ji" is a type error naming it.
// args: --no-prelude
// expect-error: type error: `meshgrid`: indexing="ji" is not "ij" or "xy"
meshgrid(([1f], [2f]), indexing="ji")
''')

# contrib_reverse_reshape: TVM's reading (reverse the shape and the codes, reshape, reverse back)
def reshape_codes(shape, codes):
    out, src, infer = [], 0, -1
    for v in codes:
        if v > 0: out.append(v); src += 1
        elif v == 0: out.append(shape[src]); src += 1
        elif v == -1: infer = len(out); out.append(1); src += 1
        elif v == -2: out += shape[src:]; src = len(shape)
        elif v == -3: out.append(shape[src] * shape[src + 1]); src += 2
    if infer >= 0: out[infer] = int(np.prod(shape)) // int(np.prod(out))
    return out
def rev_reshape(shape, codes): return reshape_codes(list(shape)[::-1], list(codes)[::-1])[::-1]
L = []
for sh, codes in [((10, 5, 4), (-1, 0)), ((2, 3, 4), (-1, 0)), ((2, 3, 4), (4, -1)), ((2, 3, 4), (-3, 0)), ((2, 3, 4, 5), (-2, -3)), ((6,), (2, 3))]:
    x = ar(sh, np.int32)
    L.append(('%s' % rly(np.array(rev_reshape(sh, codes), np.int32)), 'shape_of(contrib_reverse_reshape(zeros(shape=%s), newshape=%s))' % (list(sh), list(codes))))
x = ar((2, 3, 2)); L.append((rly(x.reshape(rev_reshape((2, 3, 2), (0, -1)))), 'contrib_reverse_reshape(%s, newshape=[0, -1])' % rly(x)))
write('contrib_reverse_reshape_values.rly', '''// contrib_reverse_reshape reads reshape's codes from the right (TVM's InferNewShape with reverse): (10, 5, 4) with
// [-1, 0] is (50, 4) (reshape gives (40, 5)); 0 copies from the right, -3 merges the last two, -2 keeps the leading
// dimensions; the data keeps its order. Expected shapes: a Python port of InferNewShape run on the reversed shape.
// args: --no-prelude
''', L)
raw('contrib_reverse_reshape_types.rly', '''// contrib_reverse_reshape's type: symbolic dimensions copied by 0 from the right; -1 divides the rest.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar>(Tensor[(n, 3, 4), float32]) -> Tensor[(n * 3, 4), float32]
// expect-type: @b : fn<n : ShapeVar>(Tensor[(2, 3, n), int8]) -> Tensor[(6, n), int8]
def @a(%x : Tensor[(n, 3, 4), float32]) { contrib_reverse_reshape(%x, newshape=[-1, 0]) }
def @b(%x : Tensor[(2, 3, n), int8]) { contrib_reverse_reshape(%x, newshape=[6, 0]) }
''')
raw('contrib_reverse_reshape_error_count.rly', '''// contrib_reverse_reshape to a shape of another element count is a type error naming the operator.
// args: --no-prelude
// expect-error: type error: `contrib_reverse_reshape`: newshape=[5, 0] has 15 elements
contrib_reverse_reshape(zeros(shape=[2, 3]), newshape=[5, 0])
''')

# reinterpret
x = np.array([1, -2, 0.5], f32); y = np.array([1, -1, 256], np.int32); z = np.array([1.5, -0.25], f64)
write('reinterpret_values.rly', '''// reinterpret keeps each element's bits under another type of the same width: float32 as int32 and uint32, int32 as
// float32 (1 is a denormal), float64 as int64, int8 as uint8. Expected values: numpy's view.
// args: --no-prelude
''', [(rly(x.view(np.int32)), 'reinterpret(%s, dtype="int32")' % rly(x)),
      (rly(x.view(np.uint32)), 'reinterpret(%s, dtype="uint32")' % rly(x)),
      (rly(y.view(f32)), 'reinterpret(%s, dtype="float32")' % rly(y)),
      (rly(z.view(np.int64)), 'reinterpret(%s, dtype="int64")' % rly(z)),
      (rly(np.array([-1, 5], np.int8).view(np.uint8)), 'reinterpret([-1i8, 5i8], dtype="uint8")')])
raw('reinterpret_types.rly', '''// reinterpret's type: the data's shape (symbolic too), dtype's element type.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar>(Tensor[(n, 2), float32]) -> Tensor[(n, 2), int32]
def @a(%x : Tensor[(n, 2), float32]) { reinterpret(%x, dtype="int32") }
''')
raw('reinterpret_error_width.rly', '''// reinterpret keeps the width: float32 as int64 is a type error naming reinterpret.
// args: --no-prelude
// expect-error: type error: `reinterpret`
// expect-error: width
reinterpret([1f], dtype="int64")
''')

# invert_permutation
L = []
for p, sfx in [([2, 0, 1], ''), ([3, 4, 0, 2, 1], 'i64'), ([0], 'u8')]:
    dt = {'': np.int32, 'i64': np.int64, 'u8': np.uint8}[sfx]
    L.append((rly(np.argsort(np.array(p)).astype(dt)), 'invert_permutation(%s)' % rly(np.array(p, dt))))
write('invert_permutation_values.rly', '''// invert_permutation(p) gives q with q[p[i]] = i: int32, int64, uint8. Expected values: numpy's argsort of p.
// args: --no-prelude
''', L)
raw('invert_permutation_types.rly', '''// invert_permutation keeps its argument's type: an integer vector, of symbolic length too.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar>(Tensor[(n), int64]) -> Tensor[(n), int64]
def @a(%x : Tensor[(n), int64]) { invert_permutation(%x) }
''')
raw('invert_permutation_error_values.rly', '''// invert_permutation of a vector that is no permutation (2 twice) is a run-time error naming the operator.
// args: --no-prelude
// expect-error: run-time error: invert_permutation: element 2 (2) makes it no permutation of 0 to 2
invert_permutation([2, 0, 2])
''')
raw('invert_permutation_error_dtype.rly', '''// invert_permutation takes integers: a float vector is a type error naming the operator.
// args: --no-prelude
// expect-error: type error: `invert_permutation`
// expect-error: float32
invert_permutation([1f, 0f])
''')

# unravel_index
L = []
for ix, sh, dt in [([22, 41, 37], [7, 6], np.int32), (5, [2, 3], np.int64), ([0, 23, 7], [2, 3, 4], np.int32), ([3], [4], np.uint8)]:
    r = np.array(np.unravel_index(np.array(ix), sh)).astype(dt)
    L.append((rly(r), 'unravel_index(%s, %s)' % (rly(np.array(ix, dt)), rly(np.array(sh, dt)))))
write('unravel_index_values.rly', '''// unravel_index(indices, shape) gives each flat index's coordinates in a row-major shape, as rows (k, n): a vector of
// indices, a scalar (result (k)), rank 3, uint8. Expected values: numpy.unravel_index.
// args: --no-prelude
''', L)
raw('unravel_index_types.rly', '''// unravel_index's type: (k) for a scalar index, (k, n) for n indices, k the shape's length; the indices' type.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar, k : ShapeVar>(Tensor[(n), int64], Tensor[(k), int32]) -> Tensor[(k, n), int64]
// expect-type: @b : fn<k : ShapeVar>(Tensor[(), int32], Tensor[(k), int32]) -> Tensor[(k), int32]
def @a(%x : Tensor[(n), int64], %s : Tensor[(k), int32]) { unravel_index(%x, %s) }
def @b(%x : Tensor[(), int32], %s : Tensor[(k), int32]) { unravel_index(%x, %s) }
''')
raw('unravel_index_error_range.rly', '''// unravel_index of 6 in a (2, 3) shape is out of range: a run-time error naming the operator (numpy's ValueError).
// args: --no-prelude
// expect-error: run-time error: unravel_index: index 6 is out of range for 6 elements
unravel_index([1, 6], [2, 3])
''')
raw('unravel_index_error_rank.rly', '''// unravel_index takes a scalar or a vector of indices: a matrix is a type error.
// args: --no-prelude
// expect-error: type error: `unravel_index` takes a scalar or a vector of indices, but they are (1, 2)
unravel_index([[1, 2]], [2, 3])
''')

# matrix_set_diag: python/tvm/topi/testing/matrix_set_diag.py, with TVM's attributes as its align string
def msd(x, d, k=0, align='RIGHT_LEFT'):
    out = np.array(x, copy=True); cols = x.shape[-1]; rows = x.shape[-2]
    one = True
    if isinstance(k, (tuple, list)):
        if len(k) < 2 or k[0] == k[1]: k = k[0]
        else: one = False
    if one:
        for i in range(d.shape[-1]):
            if k >= 0: out[..., i, i + k] = d[..., i]
            else: out[..., i - k, i] = d[..., i]
    else:
        for ki in range(k[0], k[1] + 1):
            dl = min(cols - max(ki, 0), rows + min(ki, 0)); off = 0
            if ki >= 0:
                if align[:5] == 'RIGHT': off = d.shape[-1] - dl
            else:
                if align[-5:] == 'RIGHT': off = d.shape[-1] - dl
            for i in range(dl):
                if ki >= 0: out[..., i, i + ki] = d[..., k[1] - ki, i + off]
                else: out[..., i - ki, i] = d[..., k[1] - ki, i + off]
    return out
x = ar((3, 4)); xb = ar((2, 3, 3), np.int32)
d0 = np.array([-1, -2, -3], f32); d1 = -ar((3,), f32, off=-1); db = -ar((2, 3), np.int32, off=-1)
band = -ar((3, 3), f32, off=-1)
L = [(rly(msd(x, d0)), 'matrix_set_diag(%s, %s)' % (rly(x), rly(d0))),
     (rly(msd(x, d1, 1)), 'matrix_set_diag(%s, %s, k1=1, k2=1)' % (rly(x), rly(d1))),
     (rly(msd(x, d1[:2], -1)), 'matrix_set_diag(%s, %s, k1=-1, k2=-1)' % (rly(x), rly(d1[:2]))),
     (rly(msd(xb, db)), 'matrix_set_diag(%s, %s)' % (rly(xb), rly(db))),
     (rly(msd(x, band, (-1, 1), 'RIGHT_LEFT')), 'matrix_set_diag(%s, %s, k1=-1, k2=1)' % (rly(x), rly(band))),
     (rly(msd(x, band, (-1, 1), 'LEFT_LEFT')), 'matrix_set_diag(%s, %s, k1=-1, k2=1, super_diag_right_align=False)' % (rly(x), rly(band))),
     (rly(msd(x, band, (-1, 1), 'RIGHT_RIGHT')), 'matrix_set_diag(%s, %s, k1=-1, k2=1, sub_diag_right_align=True)' % (rly(x), rly(band))),
     (rly(msd(x, band, (-1, 1), 'RIGHT_LEFT')), 'matrix_set_diag(%s, %s, k1=-1, k2=1, sub_diag_right_align=False)' % (rly(x), rly(band)))]
write('matrix_set_diag_values.rly', '''// matrix_set_diag(data, diagonal, k1=0, k2=0) writes diagonals k1..k2 of the last two axes: the main one, k=1,
// k=-1, a batch of int32 matrices, a band -1..1 in TVM's default alignment (super right, sub left: MatrixSetDiagAttrs'
// C++ defaults, Python's align="RIGHT_LEFT", TensorFlow's), both left, both right, and right/left written out.
// Expected values: TVM's topi.testing.matrix_set_diag (align from the attributes).
// args: --no-prelude
''', L)
raw('matrix_set_diag_types.rly', '''// matrix_set_diag keeps the data's type; the diagonal's batch dimensions unify with the data's (symbolic ones too).
// args: --no-prelude
// expect-type: @a : fn<b : ShapeVar>(Tensor[(b, 3, 4), float32], Tensor[(b, 3), float32]) -> Tensor[(b, 3, 4), float32]
// expect-type: @c : fn<m : ShapeVar, n : ShapeVar>(Tensor[(m, n), int8], Tensor[(2, ?), int8]) -> Tensor[(m, n), int8] where MatrixSetDiag(Tensor[(m, n), int8], Tensor[(2, ?), int8], Tensor[(m, n), int8], k1=0, k2=1)
def @a(%x : Tensor[(b, 3, 4), float32], %d) { matrix_set_diag(%x, %d) }
def @c(%x : Tensor[(m, n), int8], %d : Tensor[(2, ?), int8]) { matrix_set_diag(%x, %d, k1=0, k2=1) }
''')
raw('matrix_set_diag_error_length.rly', '''// matrix_set_diag's diagonal must be the longest diagonal's length: 4 values for the main diagonal of a 3 x 4
// matrix is a type error naming the operator.
// args: --no-prelude
// expect-error: type error: `matrix_set_diag`: the diagonal's length and the longest diagonal's, 4 and 3, differ
matrix_set_diag(zeros(shape=[3, 4]), [1f, 2f, 3f, 4f])
''')
raw('matrix_set_diag_error_k.rly', '''// matrix_set_diag's k1 must not be above k2 (TVM's check).
// args: --no-prelude
// expect-error: type error: `matrix_set_diag`: k1=1 is above k2=0
matrix_set_diag(zeros(shape=[3, 4]), zeros(shape=[2, 3]), k1=1, k2=0)
''')

# strided_set: numpy slice assignment
def sset(x, v, b, e, s=None):
    x = x.copy(); sl = []
    for i in range(x.ndim):
        st = s[i] if s is not None and i < len(s) else 1
        sl.append(slice(b[i] if i < len(b) else None, e[i] if i < len(e) else None, st))
    x[tuple(sl)] = v; return x
def slshape(x, b, e, s=None):
    sl = [slice(b[i] if i < len(b) else None, e[i] if i < len(e) else None, (s[i] if s is not None and i < len(s) else 1)) for i in range(x.ndim)]
    return x[tuple(sl)].shape
x = ar((3, 4)); L = []
for b, e, s in [([0, 1], [3, 4], [2, 2]), ([1], [3], None), ([-1, -1], [-4, -5], [-1, -2]), ([0, 1], [10, 3], [1, 1])]:
    v = -ar(slshape(x, b, e, s), off=-1)
    args = '%s, %s, %s, %s' % (rly(x), rly(v), rly(np.array(b, np.int32)), rly(np.array(e, np.int32))) + (', %s' % rly(np.array(s, np.int32)) if s else '')
    L.append((rly(sset(x, v, b, e, s)), 'strided_set(%s)' % args))
xi = ar((2, 3), np.int64); vi = np.array([[7], [8]], np.int64)
L.append((rly(sset(xi, vi, [0, 2], [2, 3])), 'strided_set(%s, %s, [0i64, 2i64], [2i64, 3i64])' % (rly(xi), rly(vi))))
write('strided_set_values.rly', '''// strided_set(data, v, begin, end[, strides]) writes v into data[begin:end:strides] (numpy's slice per axis: negative
// positions from the end, clamped; axes past the vectors whole): strides 2, one axis given, negative strides, an end
// beyond the axis, int64 data without strides. Expected values: numpy slice assignment.
// args: --no-prelude
''', L)
raw('strided_set_types.rly', '''// strided_set keeps the data's type (symbolic too); v has the data's rank and element type; an unannotated end
// becomes a vector of some integer type.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar, n1 : ShapeVar, bt1 : BaseType>(Tensor[(n, 4), float32], Tensor[(?, ?), float32], Tensor[(2), int32], Tensor[(n1), bt1]) -> Tensor[(n, 4), float32]
def @a(%x : Tensor[(n, 4), float32], %v : Tensor[(?, ?), float32], %b : Tensor[(2), int32], %e) { strided_set(%x, %v, %b, %e) }
''')
raw('strided_set_error_shape.rly', '''// strided_set's values must have the slice's shape: (2, 2) for a slice (3, 2) is a run-time error naming the operator.
// begin and end are tensors whose values decide the slice, so no type can catch it (constant sizes too).
// args: --no-prelude
// expect-error: run-time error: strided_set: the values (2, 2) do not have the slice's shape (dimension 0 is 3)
strided_set(zeros(shape=[3, 4]), ones(shape=[2, 2]), [0, 0], [3, 2])
''')
raw('strided_set_error_dtype.rly', '''// strided_set's values have the data's element type: int32 values into float32 data is a type error.
// args: --no-prelude
// expect-error: type error: `strided_set`
// expect-error: int32
strided_set(zeros(shape=[3]), [1i32], [0], [1])
''')

# sliding_window: numpy's sliding_window_view, strided
from numpy.lib.stride_tricks import sliding_window_view
def sw(x, axis, w, s):
    v = sliding_window_view(x, w, axis=tuple(range(axis, x.ndim)))
    return v[(slice(None),) * axis + tuple(slice(None, None, st) for st in s)]
x = ar((2, 5)); y = ar((1, 4, 5), np.int32)
write('sliding_window_values.rly', '''// sliding_window(data, axis, window_shape, strides): windows over the axes from `axis`, the window positions first,
// then the window: axis 1 of a matrix with stride 2, a 2-D window with strides (2, 1) over axes 1, 2, the whole
// data from axis 0. Expected values: numpy's sliding_window_view, strided.
// args: --no-prelude
''', [(rly(sw(x, 1, [3], [2])), 'sliding_window(%s, axis=1, window_shape=[3], strides=[2])' % rly(x)),
      (rly(sw(y, 1, [2, 3], [2, 1])), 'sliding_window(%s, axis=1, window_shape=[2, 3], strides=[2, 1])' % rly(y)),
      (rly(sw(x, 0, [2, 2], [1, 3])), 'sliding_window(%s, axis=0, window_shape=[2, 2], strides=[1, 3])' % rly(x))])
raw('sliding_window_types.rly', '''// sliding_window's type: ceil((d - w + 1) / s) windows per axis; a symbolic axis with stride 1 gives n - w + 1, with
// another stride `?` (as TVM's floordiv on a variable).
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar>(Tensor[(n, 7), float32]) -> Tensor[(n, 3, 3), float32]
// expect-type: @b : fn<n : ShapeVar>(Tensor[(n, 7), float32]) -> Tensor[(n - 1, 3, 2, 3), float32] where SlidingWindow(Tensor[(n, 7), float32], Tensor[(n - 1, 3, 2, 3), float32], axis=0, window_shape=[2, 3], strides=[1, 2])
// expect-type: @c : fn<n : ShapeVar>(Tensor[(n), float32]) -> Tensor[(?, 2), float32] where SlidingWindow(Tensor[(n), float32], Tensor[(?, 2), float32], axis=0, window_shape=[2], strides=[2])
def @a(%x : Tensor[(n, 7), float32]) { sliding_window(%x, axis=1, window_shape=[3], strides=[2]) }
def @b(%x : Tensor[(n, 7), float32]) { sliding_window(%x, axis=0, window_shape=[2, 3], strides=[1, 2]) }
def @c(%x : Tensor[(n), float32]) { sliding_window(%x, axis=0, window_shape=[2], strides=[2]) }
''')
raw('sliding_window_error_window.rly', '''// sliding_window's window must fit: 6 along an axis of 5 is a type error naming the operator.
// args: --no-prelude
// expect-error: type error: `sliding_window`: a window of 6 does not fit dimension 1 of the data (2, 5)
sliding_window(zeros(shape=[2, 5]), axis=1, window_shape=[6], strides=[1])
''')

# searchsorted
seq = np.array([1, 2, 2, 5, 7], f32); vals = np.array([2, 0, 7, 8, 3], f32)
seq2 = np.array([[1, 3, 5], [2, 2, 4]], np.int32); vals2 = np.array([[3, 6], [2, 0]], np.int32)
def ss2(s, v, side): return np.array([np.searchsorted(s[i], v[i], side) for i in range(len(s))])
write('searchsorted_values.rly', '''// searchsorted(sorted, values, right=False, dtype="int32"): each value's insertion position in the sorted sequence
// (the first element >= it, > it with right=True); a 2-D sequence searches row by row; dtype int64. Expected
// values: numpy.searchsorted.
// args: --no-prelude
''', [(rly(np.searchsorted(seq, vals).astype(np.int32)), 'searchsorted(%s, %s)' % (rly(seq), rly(vals))),
      (rly(np.searchsorted(seq, vals, 'right').astype(np.int64)), 'searchsorted(%s, %s, right=True, dtype="int64")' % (rly(seq), rly(vals))),
      (rly(ss2(seq2, vals2, 'left').astype(np.int32)), 'searchsorted(%s, %s)' % (rly(seq2), rly(vals2))),
      (rly(ss2(seq2, vals2, 'right').astype(np.int32)), 'searchsorted(%s, %s, right=True)' % (rly(seq2), rly(vals2)))])
raw('searchsorted_types.rly', '''// searchsorted's type: the values' shape (symbolic too), of dtype; a multi-dimensional sequence shares the leading
// dimensions with the values (a `?` there stays `?`).
// args: --no-prelude
// expect-type: @a : fn<m : ShapeVar, k : ShapeVar>(Tensor[(m), float32], Tensor[(k, 3), float32]) -> Tensor[(k, 3), int64]
// expect-type: @b : fn<b : ShapeVar, m : ShapeVar, k : ShapeVar>(Tensor[(b, m), int32], Tensor[(?, k), int32]) -> Tensor[(?, k), int32]
def @a(%s : Tensor[(m), float32], %v : Tensor[(k, 3), float32]) { searchsorted(%s, %v, dtype="int64") }
def @b(%s : Tensor[(b, m), int32], %v : Tensor[(?, k), int32]) { searchsorted(%s, %v) }
''')
raw('searchsorted_error_rank.rly', '''// searchsorted: a 2-D sorted sequence needs values of rank 2 (TVM's check): a vector is a type error.
// args: --no-prelude
// expect-error: type error: `searchsorted`: the sorted sequence (1, 2) and the values (1) must have one rank
searchsorted([[1f, 2f]], [1f])
''')

# argwhere
c1 = np.array([[0, 1.5, 0], [2, 0, -1]], f32); c2 = np.array([True, False, True, True]); c3 = np.zeros((2, 2), np.int32)
write('argwhere_values.rly', '''// argwhere(condition) gives the coordinates of the nonzero elements, a row each, in row-major order, as int32 (?,
// rank): floats, bools, none at all (shape (0, 2)). Expected values: numpy.argwhere.
// args: --no-prelude
''', [(rly(np.argwhere(c1).astype(np.int32)), 'argwhere(%s)' % rly(c1)),
      (rly(np.argwhere(c2).astype(np.int32)), 'argwhere(%s)' % rly(c2)),
      (rly(np.array(np.argwhere(c3).shape, np.int32)), 'shape_of(argwhere(%s))' % rly(c3)),
      (rly(np.array(np.argwhere(c1).shape, np.int32)), 'shape_of(argwhere(%s))' % rly(c1))])
raw('argwhere_types.rly', '''// argwhere's type: (?, rank) int32, as TVM's (the count depends on the values); the `?` takes any length at run
// time, and a later operator works on it (sum of the rows).
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar>(Tensor[(n, 3, 2), bool]) -> Tensor[(?, 3), int32]
// expect-type: @b : fn(Tensor[(4), float32]) -> Tensor[(?), int32]
// expect: %s
def @a(%%x : Tensor[(n, 3, 2), bool]) { argwhere(%%x) }
def @b(%%x : Tensor[(4), float32]) { sum(argwhere(%%x), axis=[1]) }
@b([0f, 0f, 2f, 2f])
''' % rly(np.argwhere(np.array([0, 0, 2, 2])).sum(1).astype(np.int32)))
raw('argwhere_error_tuple.rly', '''// argwhere takes a tensor: a tuple is a type error naming argwhere.
// args: --no-prelude
// expect-error: type error: `argwhere` works on tensors, but its first argument is (int32, int32)
argwhere((1, 2))
''')

# unique: TVM's padded fields (zeros past num_unique)
def uniq(x, srt, counts):
    u, first, inv, cnt = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    if not srt:
        order = np.argsort(first, kind='stable'); pos = np.empty_like(order); pos[order] = np.arange(len(order))
        u, first, cnt, inv = u[order], first[order], cnt[order], pos[inv]
    n = len(x); k = len(u)
    pad = lambda a, dt: np.concatenate([a, np.zeros(n - k, a.dtype)]).astype(dt)
    f = [pad(u, x.dtype), pad(first, np.int32), inv.astype(np.int32), np.array([k], np.int32)]
    if counts: f.append(pad(cnt, np.int32))
    return '(' + ', '.join(rly(a) for a in f) + ')'
x = np.array([4, 5, 1, 2, 3, 3, 4, 5], np.int32); y = np.array([2.5, -1, 2.5, 0], f32)
write('unique_values.rly', '''// unique(data, sorted=True, return_counts=False) as TVM 0.14: (unique, indices of first occurrences, inverse_indices,
// num_unique[, counts]), each padded to the data's length (relay pads with zeros; TVM leaves the padding unspecified).
// Sorted, in order of first occurrence, with counts, floats. Expected values: numpy.unique, reordered by first occurrence.
// args: --no-prelude
''', [(uniq(x, True, False), 'unique(%s)' % rly(x)),
      (uniq(x, False, True), 'unique(%s, sorted=False, return_counts=True)' % rly(x)),
      (uniq(y, True, True), 'unique(%s, return_counts=True)' % rly(y))])
raw('unique_types.rly', '''// unique's type: the data's length for each padded field (symbolic too), num_unique (1), counts only when asked.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar>(Tensor[(n), float32]) -> (Tensor[(n), float32], Tensor[(n), int32], Tensor[(n), int32], Tensor[(1), int32])
// expect-type: @b : fn(Tensor[(?), int8]) -> (Tensor[(?), int8], Tensor[(?), int32], Tensor[(?), int32], Tensor[(1), int32], Tensor[(?), int32])
def @a(%x : Tensor[(n), float32]) { unique(%x) }
def @b(%x : Tensor[(?), int8]) { unique(%x, return_counts=True) }
''')
raw('unique_error_rank.rly', '''// unique takes a vector (TVM's check): a matrix is a type error naming unique.
// args: --no-prelude
// expect-error: type error: `unique` takes a vector of rank 1, but it is Tensor[(2, 2), int32]
unique([[1, 2], [3, 4]])
''')

# adv_index
x = ar((3, 4)); x3 = ar((2, 3, 4), np.int32)
i0 = np.array([[0], [2]], np.int32); i1 = np.array([1, 3], np.int32); i2 = np.array([-1, 0], np.int64)
write('adv_index_values.rly', '''// adv_index((data, i0, i1, ...)) is numpy's advanced indexing data[i0, i1, ...]: indices that broadcast ((2, 1)
// with (2)), one index tensor keeping the other axes, negative int64 indices, a scalar index. Expected values: numpy.
// args: --no-prelude
''', [(rly(x[i0, i1]), 'adv_index((%s, %s, %s))' % (rly(x), rly(i0), rly(i1))),
      (rly(x3[i1[:1]]), 'adv_index((%s, %s))' % (rly(x3), rly(i1[:1]))),
      (rly(x3[i2, i2]), 'adv_index((%s, %s, %s))' % (rly(x3), rly(i2), rly(i2))),
      (rly(x3[1]), 'adv_index((%s, 1))' % rly(x3))])
raw('adv_index_types.rly', '''// adv_index's type: the indices' broadcast shape (symbolic dimensions too), then the data's remaining axes.
// args: --no-prelude
// expect-type: @a : fn<n : ShapeVar, k : ShapeVar>(Tensor[(n, 5, 6), float32], Tensor[(k, 1), int64], Tensor[(3), int32]) -> Tensor[(k, 3, 6), float32]
def @a(%x : Tensor[(n, 5, 6), float32], %i : Tensor[(k, 1), int64], %j : Tensor[(3), int32]) { adv_index((%x, %i, %j)) }
''')
raw('adv_index_error_range.rly', '''// adv_index with an index out of range (3 on an axis of 3) is a run-time error naming the operator.
// args: --no-prelude
// expect-error: run-time error: adv_index: index 3 is out of range for axis 0 of length 3
adv_index((zeros(shape=[3, 4]), [0, 3]))
''')
raw('adv_index_error_broadcast.rly', '''// adv_index's index tensors must broadcast together: (2) with (3) is a type error naming the operator.
// args: --no-prelude
// expect-error: type error: `adv_index`: the index tensors do not broadcast together (field 2 is (3))
adv_index((zeros(shape=[3, 4]), [0, 1], [0, 1, 2]))
''')
