# ack(3, 9), the classic doubly recursive Ackermann function, on Python ints. Prints 4093.
# Python has no tail calls, so the two tail calls ack(m - 1, ...) of the other versions are written
# as the loop they amount to (each iteration rebinds the parameters as the tail call would); the
# inner call ack(m, n - 1) stays a real recursive call, about 4,100 deep, hence the raised limit.
import sys

sys.setrecursionlimit(10000)


def ack(m, n):
    while m != 0:
        if n == 0:
            m, n = m - 1, 1
        else:
            m, n = m - 1, ack(m, n - 1)
    return n + 1


print(ack(3, 9))
