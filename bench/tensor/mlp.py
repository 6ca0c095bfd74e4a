"""mlp peer: K forward passes of a 3-layer MLP (batch 64, 784-512-512-10, relu after the first
two layers, with biases) in numpy, float32, on the same inputs as the relay program run.py writes.
Prints the sum of the last output's elements (0 when K = 0), accumulated in double as relay's
`sum` does. Usage: /usr/bin/python3 mlp.py K"""
import sys

import numpy as np

# (rows, cols, row pattern, column pattern) of each input; a pattern is (mul, mod, scale) and
# gives the vector ((i * mul) % mod - mod // 2) / scale, exact in float32. A matrix is its row
# pattern as a column plus its column pattern as a row; a bias is (length, mul, mod, scale).
# run.py's MLP table is the same.
X = (64, 784, (37, 101, 64), (53, 97, 128))
W1 = (512, 784, (29, 89, 4096), (41, 103, 2048))
W2 = (512, 512, (31, 83, 2048), (43, 107, 4096))
W3 = (10, 512, (23, 79, 2048), (47, 109, 2048))
B1 = (512, 19, 73, 16)
B2 = (512, 17, 71, 8)
B3 = (10, 13, 67, 4)


def pattern(n, mul, mod, scale):
    i = np.arange(n, dtype=np.int64)
    return ((i * mul % mod - mod // 2) / scale).astype(np.float32)


def matrix(rows, cols, rp, cp):
    return pattern(rows, *rp)[:, None] + pattern(cols, *cp)[None, :]


def main():
    k = int(sys.argv[1])
    x = matrix(*X)
    w1, w2, w3 = matrix(*W1), matrix(*W2), matrix(*W3)
    b1, b2, b3 = pattern(*B1), pattern(*B2), pattern(*B3)
    y = np.zeros((64, 10), dtype=np.float32)
    for _ in range(k):
        h = np.maximum(x @ w1.T + b1, 0)
        h = np.maximum(h @ w2.T + b2, 0)
        y = h @ w3.T + b3
    print("%.9g" % np.float32(y.sum(dtype=np.float64)))


if __name__ == "__main__":
    main()
