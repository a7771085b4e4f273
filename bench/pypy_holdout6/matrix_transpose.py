# Transpose lists-of-lists matrices repeatedly and check symmetric products.


def make_matrix(rows, cols, seed):
    m = []
    v = seed
    for r in range(rows):
        row = []
        for c in range(cols):
            v = (v * 31 + r + c) % 97
            row.append(v - 48)
        m.append(row)
    return m


def transpose(m):
    rows = len(m)
    cols = len(m[0])
    t = [[0] * rows for _ in range(cols)]
    for r in range(rows):
        row = m[r]
        for c in range(cols):
            t[c][r] = row[c]
    return t


def trace_of_gram(m):
    # trace(M * M^T) equals the sum of squares of all entries
    t = transpose(m)
    total = 0
    for i in range(len(m)):
        row = m[i]
        for k in range(len(row)):
            total += row[k] * t[k][i]
    return total


def main():
    checks = 0
    total = 0
    for seed in range(1, 120):
        rows = 10 + seed % 13
        cols = 7 + seed % 17
        m = make_matrix(rows, cols, seed)
        tt = transpose(transpose(m))
        if tt == m:
            checks += 1
        total += trace_of_gram(m)
    print("roundtrips", checks, "total", total)


if __name__ == "__main__":
    main()
