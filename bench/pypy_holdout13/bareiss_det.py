# Integer matrix determinants by fraction-free Bareiss elimination with row pivoting, cross-checked against cofactor expansion on small matrices.


def gen_matrix(n, seed):
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            seed = (seed * 1664525 + 1013904223) % 4294967296
            row.append((seed >> 16) % 19 - 9)
        rows.append(row)
    return rows, seed


def bareiss(matrix):
    m = [row[:] for row in matrix]
    n = len(m)
    sign = 1
    prev = 1
    for k in range(n - 1):
        if m[k][k] == 0:
            swap = -1
            for r in range(k + 1, n):
                if m[r][k] != 0:
                    swap = r
                    break
            if swap < 0:
                return 0
            m[k], m[swap] = m[swap], m[k]
            sign = -sign
        pivot = m[k][k]
        for i in range(k + 1, n):
            row_i = m[i]
            row_k = m[k]
            lead = row_i[k]
            for j in range(k + 1, n):
                row_i[j] = (row_i[j] * pivot - lead * row_k[j]) // prev
            row_i[k] = 0
        prev = pivot
    return sign * m[n - 1][n - 1]


def cofactor(matrix):
    n = len(matrix)
    if n == 1:
        return matrix[0][0]
    if n == 2:
        return matrix[0][0] * matrix[1][1] - matrix[0][1] * matrix[1][0]
    total = 0
    for c in range(n):
        if matrix[0][c] == 0:
            continue
        minor = [row[:c] + row[c + 1:] for row in matrix[1:]]
        term = matrix[0][c] * cofactor(minor)
        total += term if c % 2 == 0 else -term
    return total


def main():
    seed = 2024
    mismatches = 0
    zero = 0
    acc = 0
    for trial in range(3000):
        n = 2 + trial % 4
        mat, seed = gen_matrix(n, seed)
        if trial % 10 == 0:
            mat[1] = mat[0][:]
        d = bareiss(mat)
        if d != cofactor(mat):
            mismatches += 1
        if d == 0:
            zero += 1
        acc = (acc * 17 + d) % 1000000007
    big = 0
    for trial in range(60):
        mat, seed = gen_matrix(18, seed)
        d = bareiss(mat)
        big = (big + abs(d)) % 1000000007
        acc = (acc ^ (d % 65521)) % 1000000007
    print("mismatches", mismatches, "singular", zero)
    print("big", big)
    print("checksum", acc)


main()
