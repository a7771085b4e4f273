# N-queens solution counting by backtracking, once with column/diagonal sets and once with bitmasks, plus a symmetry check.


def solve_sets(n):
    cols = set()
    diag1 = set()
    diag2 = set()
    placement = [0] * n
    count = [0]
    first = []

    def place(row):
        if row == n:
            count[0] += 1
            if not first:
                first.extend(placement)
            return
        for c in range(n):
            if c in cols or (row + c) in diag1 or (row - c) in diag2:
                continue
            cols.add(c)
            diag1.add(row + c)
            diag2.add(row - c)
            placement[row] = c
            place(row + 1)
            cols.remove(c)
            diag1.remove(row + c)
            diag2.remove(row - c)

    place(0)
    return count[0], first


def solve_bits(n):
    full = (1 << n) - 1

    def go(cols, left, right):
        if cols == full:
            return 1
        total = 0
        free = full & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            total += go(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    return go(0, 0, 0)


def is_valid(placement):
    n = len(placement)
    for i in range(n):
        for j in range(i + 1, n):
            if placement[i] == placement[j]:
                return False
            if abs(placement[i] - placement[j]) == j - i:
                return False
    return True


def main():
    results = []
    ok = True
    for n in range(4, 12):
        a, first = solve_sets(n)
        b = solve_bits(n)
        if a != b or not is_valid(first):
            ok = False
        mirrored = [n - 1 - c for c in first]
        if not is_valid(mirrored):
            ok = False
        results.append(a)
    extra = solve_bits(14)
    print("counts=%s n14=%d ok=%s" % (results, extra, ok))


main()
