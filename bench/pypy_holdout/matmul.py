def mm(a, b, n):
    c = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            s = 0
            for k in range(n):
                s += a[i][k] * b[k][j]
            c[i][j] = s
    return c
n = 30
a = [[(i * j) % 7 for j in range(n)] for i in range(n)]
r = mm(a, a, n)
print(r[3][4])
