"""Expected values of the h3-x2 operators' golden tests (tests/golden/ops/), computed by numpy following TVM's
topi.testing references: mirror_pad, space_to_batch_nd / batch_to_space_nd, conv1d/conv3d_transpose, ...
Run with /usr/bin/python3 (numpy); it rewrites the *_values.rly files it names."""
import os, sys, numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly
def write(name, header, lines):
    open(OPS + name, 'w').write(header + ''.join('// expect: %s\n' % e for e, _ in lines) + ''.join(p + '\n' for _, p in lines))
f64 = np.float64; f32 = np.float32; i32 = np.int32
rng = np.random.RandomState(7)
def ints(shape, lo=-5, hi=6, dt=f32): return rng.randint(lo, hi, size=shape).astype(dt)

# ---- nn.mirror_pad (topi: REFLECT is numpy's reflect, SYMMETRIC numpy's symmetric)
L = []
x = ints((2, 3))
L.append((rly(np.pad(x, [(1, 2), (3, 1)], mode='symmetric')), 'nn.mirror_pad(%s, pad_width=[[1, 2], [3, 1]])' % rly(x)))
L.append((rly(np.pad(x, [(1, 0), (2, 2)], mode='reflect')), 'nn.mirror_pad(%s, pad_width=[[1, 0], [2, 2]], mode="REFLECT")' % rly(x)))
x = ints((1, 2, 3, 4), dt=f64)
L.append((rly(np.pad(x, [(0, 0), (0, 0), (2, 1), (1, 3)], mode='reflect')),
          'nn.mirror_pad(%s, pad_width=[[0, 0], [0, 0], [2, 1], [1, 3]], mode="REFLECT")' % rly(x)))
x = ints((5,), dt=i32)
L.append((rly(np.pad(x, [(5, 4)], mode='symmetric')), 'nn.mirror_pad(%s, pad_width=[[5, 4]], mode="SYMMETRIC")' % rly(x)))
x = ints((2, 2), dt=np.int8)
L.append((rly(np.pad(x, [(0, 0), (0, 0)], mode='symmetric')), 'nn.mirror_pad(%s, pad_width=[[0, 0], [0, 0]])' % rly(x)))
write('mirror_pad_values.rly', '''// nn.mirror_pad (numpy's np.pad as reference): mode "SYMMETRIC" (the default; the edge repeated, up to the size)
// and "REFLECT" (the edge not repeated, up to the size - 1); float32, float64 NCHW, int32 padded by the whole size,
// int8 with no padding. Expected values: tests/tools/gen_x2.py.
// args: --no-prelude
''', L)
