# Fibonacci numbers modulo several primes via recursive 2x2 matrix powering, checked against fast doubling and an iterative Pisano period search.


def mat_mul(a, b, p):
    return ((a[0] * b[0] + a[1] * b[2]) % p,
            (a[0] * b[1] + a[1] * b[3]) % p,
            (a[2] * b[0] + a[3] * b[2]) % p,
            (a[2] * b[1] + a[3] * b[3]) % p)


def mat_pow(m, e, p):
    if e == 0:
        return (1, 0, 0, 1)
    if e == 1:
        return (m[0] % p, m[1] % p, m[2] % p, m[3] % p)
    half = mat_pow(m, e // 2, p)
    sq = mat_mul(half, half, p)
    if e % 2:
        sq = mat_mul(sq, m, p)
    return sq


def fib_matrix(n, p):
    return mat_pow((1, 1, 1, 0), n, p)[1]


def fib_doubling(n, p):
    a, b = 0, 1
    bit = 1
    while bit <= n:
        bit <<= 1
    bit >>= 1
    while bit:
        c = a * ((2 * b - a) % p) % p
        d = (a * a + b * b) % p
        if n & bit:
            a, b = d, (c + d) % p
        else:
            a, b = c, d
        bit >>= 1
    return a


def pisano(p):
    a, b = 0, 1
    k = 0
    while True:
        a, b = b, (a + b) % p
        k += 1
        if a == 0 and b == 1:
            return k


class Mismatch(Exception):
    pass


def main():
    primes = [7, 11, 13, 101, 997, 1009, 10007, 65537, 1000003]
    total = 0
    checked = 0
    periods = []
    for p in primes:
        periods.append(pisano(p))
    for idx in range(len(primes)):
        p = primes[idx]
        period = periods[idx]
        n = 1
        while n < 10 ** 15:
            f1 = fib_matrix(n, p)
            f2 = fib_doubling(n, p)
            if f1 != f2:
                raise Mismatch("n=%d p=%d" % (n, p))
            f3 = fib_doubling(n % period, p)
            if f3 != f1:
                raise Mismatch("pisano n=%d p=%d" % (n, p))
            total = (total * 7 + f1) % 1000000007
            checked += 1
            n = n * 3 + 1 + (n % 5)
    small = 0
    for n in range(2000, 1300000):
        try:
            if fib_matrix(n, 1000000007) != fib_doubling(n, 1000000007):
                raise Mismatch(str(n))
            small += 1
        except Mismatch:
            small -= 1000
    print("checked", checked, "small", small)
    print("periods", periods)
    print("digest", total)


main()
