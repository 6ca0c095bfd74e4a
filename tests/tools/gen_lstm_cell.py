import os, sys, numpy as np
OPS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'golden', 'ops') + '/'
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relay_values import rly
f32 = np.float32
H = 2
x = np.array([[0.5, -1.0]], f32)
h0 = np.array([[0.25, 0.75]], f32); c0 = np.array([[-0.5, 1.0]], f32)
Wi = (np.arange(4 * H * H, dtype=f32).reshape(4 * H, H) % 5 - 2) / 4
Wh = (np.arange(4 * H * H, dtype=f32).reshape(4 * H, H) % 3 - 1) / 2
bi = np.arange(4 * H, dtype=f32) / 8 - 0.5
bh = np.ones(4 * H, f32) / 4
d = lambda a: a.astype(np.float64)
r = lambda v: np.asarray(v, np.float64).astype(f32)  # each operator's result is a float32 tensor
i2h = r(r(d(x) @ d(Wi).T) + bi); h2h = r(r(d(h0) @ d(Wh).T) + bh)
gates = r(i2h + h2h)
sig = lambda v: r(1 / (1 + np.exp(-d(v))))
th = lambda v: r(np.tanh(d(v)))
i, f, g, o = np.split(gates, 4, axis=1)
c1 = r(r(sig(f) * c0) + r(sig(i) * th(g)))
h1 = r(sig(o) * th(c1))
prog = '''// An LSTM cell as TVM's relay.testing.lstm builds it (ScopeBuilder lets with their types, dense + bias_add,
// split into four gates, sigmoid and tanh), printed in TVM's text format; run on small weights. Expected
// values: numpy, each operator's result rounded to float32 as relay's float32 tensors hold it.
// args: --no-prelude
// expect-type: @lstm_cell : fn(Tensor[(1, 2), float32], (Tensor[(1, 2), float32], Tensor[(1, 2), float32]), Tensor[(8, 2), float32], Tensor[(8), float32], Tensor[(8, 2), float32], Tensor[(8), float32]) -> (Tensor[(1, 2), float32], (Tensor[(1, 2), float32], Tensor[(1, 2), float32]))
// expect: %s
#[version = "0.0.5"]
def @lstm_cell(%%inputs: Tensor[(1, 2), float32], %%states: (Tensor[(1, 2), float32], Tensor[(1, 2), float32]), %%i2h_weight: Tensor[(8, 2), float32], %%i2h_bias: Tensor[(8), float32], %%h2h_weight: Tensor[(8, 2), float32], %%h2h_bias: Tensor[(8), float32]) -> (Tensor[(1, 2), float32], (Tensor[(1, 2), float32], Tensor[(1, 2), float32])) {
  let %%i2h: Tensor[(1, 8), float32] = nn.bias_add(nn.dense(%%inputs, %%i2h_weight, units=8) /* ty=Tensor[(1, 8), float32] */, %%i2h_bias) /* ty=Tensor[(1, 8), float32] */;
  let %%h2h: Tensor[(1, 8), float32] = nn.bias_add(nn.dense(%%states.0, %%h2h_weight, units=8) /* ty=Tensor[(1, 8), float32] */, %%h2h_bias) /* ty=Tensor[(1, 8), float32] */;
  let %%gates: Tensor[(1, 8), float32] = add(%%i2h, %%h2h) /* ty=Tensor[(1, 8), float32] */;
  let %%slice_gates: (Tensor[(1, 2), float32], Tensor[(1, 2), float32], Tensor[(1, 2), float32], Tensor[(1, 2), float32]) = split(%%gates, indices_or_sections=4, axis=1) /* ty=(Tensor[(1, 2), float32], Tensor[(1, 2), float32], Tensor[(1, 2), float32], Tensor[(1, 2), float32]) */;
  let %%in_gate: Tensor[(1, 2), float32] = sigmoid(%%slice_gates.0) /* ty=Tensor[(1, 2), float32] */;
  let %%forget_gate: Tensor[(1, 2), float32] = sigmoid(%%slice_gates.1) /* ty=Tensor[(1, 2), float32] */;
  let %%in_transform: Tensor[(1, 2), float32] = tanh(%%slice_gates.2) /* ty=Tensor[(1, 2), float32] */;
  let %%out_gate: Tensor[(1, 2), float32] = sigmoid(%%slice_gates.3) /* ty=Tensor[(1, 2), float32] */;
  let %%next_c: Tensor[(1, 2), float32] = add(multiply(%%forget_gate, %%states.1) /* ty=Tensor[(1, 2), float32] */, multiply(%%in_gate, %%in_transform) /* ty=Tensor[(1, 2), float32] */) /* ty=Tensor[(1, 2), float32] */;
  let %%next_h: Tensor[(1, 2), float32] = multiply(%%out_gate, tanh(%%next_c) /* ty=Tensor[(1, 2), float32] */) /* ty=Tensor[(1, 2), float32] */;
  let %%ret: (Tensor[(1, 2), float32], (Tensor[(1, 2), float32], Tensor[(1, 2), float32])) = (%%next_h, (%%next_h, %%next_c));
  %%ret
}

@lstm_cell(%s, (%s, %s), %s, %s, %s, %s)
''' % ('(%s, (%s, %s))' % (rly(h1.astype(f32)), rly(h1.astype(f32)), rly(c1.astype(f32))), rly(x), rly(h0), rly(c0), rly(Wi), rly(bi), rly(Wh), rly(bh))
open(os.path.join(OPS, '..', 'eval', 'tvm_lstm_cell.rly'), 'w').write(prog)
