def sieve(n):
    f = [True] * n
    c = 0
    for i in range(2, n):
        if f[i]:
            c += 1
            for j in range(i * i, n, i):
                f[j] = False
    return c
print(sieve(200000))
