# Builds the cons list [1, ..., 1000000] (cells are tuples (h, t), None is Nil) with an accumulator
# loop, doubles every element with a direct (non-tail) recursive map, 1,000,000 calls deep, then sums
# it with a foldl that takes the addition as a function. Python has no tail calls, so build and foldl,
# tail-recursive in the other versions, are written as the loops they amount to; map stays recursive,
# so the recursion limit is raised and the work runs in a thread with a 1 GiB stack. Prints
# 1000001000000.
import sys
import threading

Nil = None


def build(n, acc):
    # build(n, acc) = [1, ..., n] ++ acc, consing n first
    while n != 0:
        n, acc = n - 1, (n, acc)
    return acc


def map(f, l):
    if l is Nil:
        return Nil
    return (f(l[0]), map(f, l[1]))


def foldl(f, z, l):
    while l is not Nil:
        f, z, l = f, f(z, l[0]), l[1]
    return z


def main():
    print(foldl(lambda x, y: x + y, 0, map(lambda x: x * 2, build(1000000, Nil))))


sys.setrecursionlimit(3_000_000)
threading.stack_size(1 << 30)
t = threading.Thread(target=main)
t.start()
t.join()
