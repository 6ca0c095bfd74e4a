# fib(30), naive and doubly recursive, on Python ints. Prints 832040.
def fib(n):
    if n < 2:
        return n
    else:
        return fib(n - 1) + fib(n - 2)


print(fib(30))
