# Builds the cons list [1, ..., 1000000] (cells are tuples (h, t), None is Nil) with an accumulator
# loop, then sums it with a foldl that takes the addition as a function. Python has no tail calls, so
# the two tail-recursive functions of the other versions are written as the loops they amount to:
# each iteration rebinds the parameters exactly as the tail call would. Prints 500000500000.
Nil = None


def build(n, acc):
    # build(n, acc) = [1, ..., n] ++ acc, consing n first
    while n != 0:
        n, acc = n - 1, (n, acc)
    return acc


def foldl(f, z, l):
    while l is not Nil:
        f, z, l = f, f(z, l[0]), l[1]
    return z


print(foldl(lambda x, y: x + y, 0, build(1000000, Nil)))
