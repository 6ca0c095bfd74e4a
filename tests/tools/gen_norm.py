import os, sys, numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly
D = OPS + ''
def write(name, header, lines):
    open(D + name, 'w').write(header + ''.join('// expect: %s\n' % e for e, _ in lines) + ''.join(p + '\n' for _, p in lines))

f64 = np.float64; f32 = np.float32
# batch_norm
x = np.arange(12, dtype=f64).reshape(2, 3, 2) - 5
g = np.array([1, 2, 0.5]); b = np.array([0, 1, -1.]); m = np.array([1, 0.5, -2]); v = np.array([4, 1, 0.25])
def bn(x, g, b, m, v, axis=1, eps=1e-5, center=True, scale=True):
    sh = [1] * x.ndim; sh[axis] = -1
    s = (g if scale else 1) / np.sqrt(v + eps)
    return x * s.reshape(sh) + ((b if center else 0) - m * s).reshape(sh)
L = []
L.append(('(%s, %s, %s)' % (rly(bn(x, g, b, m, v)), rly(m), rly(v)),
          'nn.batch_norm(%s, %s, %s, %s, %s)' % (rly(x), rly(g), rly(b), rly(m), rly(v))))
L.append((rly(bn(x, g, b, m, v, eps=0.01, center=False, scale=False)),
          'nn.batch_norm(%s, %s, %s, %s, %s, epsilon=0.01f, center=False, scale=False).0' % (rly(x), rly(g), rly(b), rly(m), rly(v))))
x2 = (np.arange(8, dtype=f32).reshape(4, 2) - 3)
g2 = np.array([2, 4], f32); b2 = np.array([1, -1], f32); m2 = np.array([1, 2], f32); v2 = np.array([4, 0.25], f32)
L.append((rly(bn(x2, g2, b2, m2, v2, axis=-1, eps=0).astype(f32)),
          'nn.batch_norm(%s, %s, %s, %s, %s, axis=-1, epsilon=0f).0' % (rly(x2), rly(g2), rly(b2), rly(m2), rly(v2))))
write('batch_norm_values.rly', '''// nn.batch_norm at inference, as TVM's SimplifyInference computes it: (x - moving_mean) / sqrt(moving_var +
// epsilon) * gamma + beta per channel, with the moving statistics as the second and third fields. Channel axis 1
// (the default, float64, epsilon 1e-5), center and scale off, and the last axis of a float32 matrix.
// Expected values: numpy.
// args: --no-prelude
''', L)

def rly32(a): return rly(np.asarray(a, f64).astype(f32))
rly_in = rly32
# layer / instance / group norm
def norm(x, axes, g, b, axis, eps=1e-5, groups=0, center=True, scale=True):
    sh = [1] * x.ndim; sh[axis] = -1
    if groups:
        ns = list(x.shape); ns[axis] //= groups; ns.insert(axis, groups)
        y = x.reshape(ns)
        ax = tuple([axis + 1] + [a if a < axis else a + 1 for a in axes])
        y = (y - y.mean(ax, keepdims=True)) / np.sqrt(y.var(ax, keepdims=True) + eps)
        y = y.reshape(x.shape)
    else:
        y = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + eps)
    return y * (g.reshape(sh) if scale else 1) + (b.reshape(sh) if center else 0)
x = np.array([[1, 2, 4, 9], [3, -1, 0, 2], [5, 5, 5, 6]], f64)
g = np.array([1, 2, 0.5, -1]); b = np.array([0, 1, 2, 3])
L = [(rly32(norm(x, (1,), g, b, 1)), 'nn.layer_norm(%s, %s, %s)' % (rly32(x), rly32(g), rly32(b)))]
g0 = np.array([2, 3, 4]); b0 = np.array([1, 0, -1])
L.append((rly32(norm(x, (0,), g0, b0, 0, eps=0.5, center=False)),
          'nn.layer_norm(%s, %s, %s, axis=0, epsilon=0.5f, center=False)' % (rly32(x), rly32(g0), rly32(b0))))
write('layer_norm_values.rly', '''// nn.layer_norm: mean and (biased) variance over the axis, then gamma and beta along it; the last axis (the
// default) and axis 0 with epsilon 0.5 and center=False. Expected values: numpy.
// args: --no-prelude
''', L)

x = (np.arange(24, dtype=f64).reshape(2, 3, 4) ** 1.5) / 7
x = x.astype(f32).astype(f64)
g = np.array([1, 2, 0.5]); b = np.array([0, 1, 2])
L = [(rly32(norm(x, (2,), g, b, 1)), 'nn.instance_norm(%s, %s, %s)' % (rly32(x), rly32(g), rly32(b)))]
g4 = np.array([1, -1, 2, 0.5]); b4 = np.array([1, 2, 3, 4])
L.append((rly32(norm(x.reshape(2, 3, 4), (1,), g4, b4, 2, scale=False)),
          'nn.instance_norm(%s, %s, %s, axis=2, scale=False)' % (rly32(x), rly32(g4), rly32(b4))))
write('instance_norm_values.rly', '''// nn.instance_norm: statistics per instance and channel (over every axis but the batch and the channel axis);
// channel axis 1 (the default) and 2 with scale=False. Expected values: numpy (TVM's instance_norm_python).
// args: --no-prelude
''', L)

x = (np.arange(32, dtype=f64).reshape(2, 4, 2, 2) % 7) * 1.25
g = np.array([1, 2, 0.5, -1]); b = np.array([0, 1, 2, 3])
L = [(rly32(norm(x, (2, 3), g, b, 1, groups=2)), 'nn.group_norm(%s, %s, %s, num_groups=2)' % (rly32(x), rly32(g), rly32(b)))]
L.append((rly32(norm(x, (2, 3), g, b, 1, groups=4)), 'nn.group_norm(%s, %s, %s, num_groups=4)' % (rly32(x), rly32(g), rly32(b))))
write('group_norm_values.rly', '''// nn.group_norm: channels in num_groups groups, statistics per instance and group over its channels and the
// other axes; 2 groups of 2 channels, and 4 groups (instance normalization). Expected values: numpy (TVM's
// group_norm_python).
// args: --no-prelude
''', L)

# lrn
def lrn(a, size, axis, bias, alpha, beta):
    r = size // 2; s = np.zeros_like(a)
    C = a.shape[axis]
    am = np.moveaxis(a, axis, 0); sm = np.moveaxis(s, axis, 0)
    for c in range(C):
        lo, hi = max(0, c - r), min(C, c + r + 1)
        sm[c] = (am[lo:hi] ** 2).sum(0)
    return a / (bias + alpha * s / size) ** beta
x = np.arange(24, dtype=f64).reshape(1, 6, 2, 2) / 4 - 2
L = [(rly32(lrn(x, 5, 1, 2, 1e-4, 0.75)), 'nn.lrn(%s)' % rly32(x)),
     (rly32(lrn(x, 3, 1, 1, 0.5, 0.5)), 'nn.lrn(%s, size=3, bias=1f, alpha=0.5f, beta=0.5f)' % rly32(x))]
x3 = np.arange(12, dtype=f64).reshape(1, 2, 6) - 4
L.append((rly32(lrn(x3, 3, 2, 2, 0.25, 1)), 'nn.lrn(%s, size=3, axis=2, alpha=0.25f, beta=1f)' % rly32(x3)))
write('lrn_values.rly', '''// nn.lrn: each value over (bias + alpha * the sum of squares over `size` neighbouring channels / size)^beta,
// zero-padded at the ends; TVM's defaults (size 5, bias 2, alpha 1e-4, beta 0.75), others, and axis 2.
// Expected values: numpy (TVM's lrn_python).
// args: --no-prelude
''', L)

def l2(a, eps, axis=None):
    s = (a ** 2).sum(axis=axis, keepdims=True)
    return a / np.sqrt(np.maximum(s, eps))
x = np.array([[3, 4, 0], [1, 2, 2], [0, 0, 0]], f64)
L = [(rly32(l2(x, 1e-10, (1,))), 'nn.l2_normalize(%s, eps=1e-10f, axis=[1])' % rly32(x)),
     (rly32(l2(x, 4, (0,))), 'nn.l2_normalize(%s, eps=4f, axis=[0])' % rly32(x)),
     (rly32(l2(x, 0.1)), 'nn.l2_normalize(%s, eps=0.1f)' % rly32(x))]
write('l2_normalize_values.rly', '''// nn.l2_normalize: x / sqrt(max(sum of squares over the axes, eps)); along rows, along columns with a large eps
// (the zero row stays finite), and over every axis when none is given. Expected values: numpy (TVM's
// l2_normalize_python).
// args: --no-prelude
''', L)

x = np.array([[[-2, 1], [3, -4]], [[-1, -1], [0.5, -8]]], f32)
al = np.array([0.25, 2], f32)
def prelu(x, a, axis):
    sh = [1] * x.ndim; sh[axis] = -1
    return np.where(x < 0, x * a.reshape(sh), x)
L = [(rly32(prelu(x, al, 1)), 'nn.prelu(%s, %s)' % (rly32(x), rly32(al))),
     (rly32(prelu(x, al, 2)), 'nn.prelu(%s, %s, axis=2)' % (rly32(x), rly32(al)))]
write('prelu_values.rly', '''// nn.prelu: negative values times their channel's alpha; channel axis 1 (the default) and 2. Expected values:
// numpy.
// args: --no-prelude
''', L)

p = np.array([[0.25, 0.5, 0.25], [0.125, 0.125, 0.75]], f64)
t = np.array([[0, 1, 0], [0, 0, 1]], f64)
L = [(rly32(-(np.log(p) * t).sum() / 2), 'nn.cross_entropy(%s, %s)' % (rly32(p), rly32(t))),
     (rly32(-(p * t).sum() / 2), 'nn.cross_entropy_with_logits(%s, %s)' % (rly32(p), rly32(t)))]
write('cross_entropy_values.rly', '''// nn.cross_entropy: -sum(log(predictions) * targets) / batch, and nn.cross_entropy_with_logits: -sum(predictions
// * targets) / batch, as TVM computes them; scalars. Expected values: numpy.
// args: --no-prelude
''', L)

x = np.array([[1.5, -2], [0, 3]], f32)
L = [('(%s, %s)' % (rly32(x), rly32(np.ones_like(x))), 'nn.dropout(%s)' % rly32(x)),
     (rly32(x), 'nn.dropout(%s, rate=0.9f).0' % rly32(x))]
write('dropout_values.rly', '''// nn.dropout at inference (TVM's SimplifyInference): the data unchanged, with a mask of ones as the second field.
// args: --no-prelude
''', L)
