# Counts the solutions of n-queens for n = 10 on immutable cons lists (cells are tuples (h, t), None
# is Nil): a placement is the list of the queens' columns, latest row first; each column 1..n is
# tried for the next row, kept if safe against the list, and complete placements are counted.
# Prints 724.
Nil = None


def safe(c, d, qs):
    # column c is safe against the queens qs whose first is d rows above it
    while qs is not Nil:  # the tail call safe(c, d + 1, t), as the loop it amounts to
        q, t = qs
        if q == c or q - c == d or c - q == d:
            return False
        c, d, qs = c, d + 1, t
    return True


def count(n, k, qs):
    # the number of ways to complete the placement qs of k queens
    if k == n:
        return 1
    return tries(n, k, qs, 1)


def tries(n, k, qs, c):
    # the solutions with the next queen in column c, c + 1, ..., n
    if c > n:
        return 0
    here = count(n, k + 1, (c, qs)) if safe(c, 1, qs) else 0
    return here + tries(n, k, qs, c + 1)


print(count(10, 0, Nil))
