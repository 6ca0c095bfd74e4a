import os, sys, numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly
def adapt(x, out, red):
    d = len(out); S = x.shape[2:]
    res = np.zeros(x.shape[:2] + tuple(out), x.dtype)
    for idx in np.ndindex(*out):
        sl = tuple(slice(i * s // o, -((-(i + 1) * s) // o)) for i, s, o in zip(idx, S, out))
        res[(Ellipsis,) + idx] = red(x[(slice(None), slice(None)) + sl], axis=tuple(range(2, 2 + d)))
    return res
x1 = (np.arange(14, dtype=np.float32).reshape(1, 2, 7) * 1.5 - 4)
x3 = (np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(1, 2, 3, 4, 5) % 11) - 3
L = [(rly(adapt(x1, (3,), np.mean)), 'nn.adaptive_avg_pool1d(%s, output_size=[3])' % rly(x1)),
     (rly(adapt(x1, (4,), np.max)), 'nn.adaptive_max_pool1d(%s, output_size=[4])' % rly(x1)),
     (rly(adapt(x3, (2, 3, 2), np.mean)), 'nn.adaptive_avg_pool3d(%s, output_size=[2, 3, 2])' % rly(x3)),
     (rly(adapt(x3, (1, 1, 1), np.max)), 'nn.adaptive_max_pool3d(%s, output_size=[1])' % rly(x3))]
hdr = '''// nn.adaptive_avg_pool1d/3d and nn.adaptive_max_pool1d/3d: output position i of an axis of n pools from
// floor(i * n / out) to ceil((i + 1) * n / out), as TVM's topi; one output_size value is every axis's (TVM's
// global_avg_pool3d is adaptive_avg_pool3d with output_size=[1]). Expected values: numpy.
// args: --no-prelude
'''
open(OPS + 'adaptive_pool_1d_3d_values.rly', 'w').write(hdr + ''.join('// expect: %s\n' % e for e, _ in L) + ''.join(p + '\n' for _, p in L))
