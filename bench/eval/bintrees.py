# The Benchmarks Game's binary-trees at max depth 16 (min depth 4), summed into one number: the check
# of a stretch tree of depth 17, the checks of 2^(16 - d + 4) trees of depth d for d = 4, 6, ..., 16,
# and the check of a long-lived tree of depth 16 built before them. A node is a tuple (l, r) and None
# is the empty tree; the tree of depth 0 is (None, None); check counts the nodes. Python has no tail
# calls, so the two counting loops the other versions write as tail recursions are while loops here.
# Prints 14985902.
Leaf = None


def make(d):
    return (Leaf, Leaf) if d == 0 else (make(d - 1), make(d - 1))


def check(t):
    return 0 if t is Leaf else 1 + check(t[0]) + check(t[1])


def trees(i, d, acc):
    # acc + the checks of i fresh trees of depth d
    while i != 0:
        i, d, acc = i - 1, d, acc + check(make(d))
    return acc


def depths(d, i, acc):
    # acc + the iterations for depths d, d + 2, ..., 16, starting with i trees
    while d <= 16:
        d, i, acc = d + 2, i // 4, trees(i, d, acc)
    return acc


stretch = check(make(17))
long_lived = make(16)
total = depths(4, 65536, stretch)
print(total + check(long_lived))
