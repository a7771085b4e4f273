# Exact determinants of generated integer matrices by Gaussian elimination on fractions kept as (numerator, denominator) int pairs.


class SingularMatrix(Exception):
    pass


def gcd(a, b):
    if a < 0:
        a = -a
    if b < 0:
        b = -b
    while b:
        a, b = b, a % b
    return a


def norm(n, d):
    if d < 0:
        n = -n
        d = -d
    g = gcd(n, d)
    if g > 1:
        n //= g
        d //= g
    return (n, d)


def fsub(a, b):
    return norm(a[0] * b[1] - b[0] * a[1], a[1] * b[1])


def fmul(a, b):
    return norm(a[0] * b[0], a[1] * b[1])


def fdiv(a, b):
    if b[0] == 0:
        raise ZeroDivisionError("fraction divide by zero")
    return norm(a[0] * b[1], a[1] * b[0])


def determinant(rows):
    n = len(rows)
    m = [[(x, 1) for x in row] for row in rows]
    det = (1, 1)
    for col in range(n):
        pivot = -1
        for r in range(col, n):
            if m[r][col][0] != 0:
                pivot = r
                break
        if pivot < 0:
            raise SingularMatrix(col)
        if pivot != col:
            m[pivot], m[col] = m[col], m[pivot]
            det = (-det[0], det[1])
        p = m[col][col]
        det = fmul(det, p)
        for r in range(col + 1, n):
            f = fdiv(m[r][col], p)
            if f[0] == 0:
                continue
            row_r = m[r]
            row_c = m[col]
            for c in range(col, n):
                row_r[c] = fsub(row_r[c], fmul(f, row_c[c]))
    return det


def make_matrix(n, state):
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            state = (state * 69069 + 1) & 0xFFFFFFFF
            row.append((state >> 20) % 11 - 5)
        rows.append(row)
    return rows, state


def main():
    state = 2024
    singular = 0
    nonint = 0
    total = 0
    biggest = 0
    for trial in range(2500):
        n = 3 + trial % 4
        rows, state = make_matrix(n, state)
        if trial % 9 == 0:
            rows[n - 1] = list(rows[0])
        try:
            d = determinant(rows)
        except SingularMatrix:
            singular += 1
            continue
        if d[1] != 1:
            nonint += 1
        total += d[0]
        if abs(d[0]) > biggest:
            biggest = abs(d[0])
    print("singular=%d nonint=%d total=%d biggest=%d" % (singular, nonint, total, biggest))


main()
