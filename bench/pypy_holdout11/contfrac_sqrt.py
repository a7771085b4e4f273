# Continued-fraction expansions of square roots with integer recurrences, convergents compared to float sqrt, and Pell equation solutions.


def isqrt(n):
    if n < 2:
        return n
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


def sqrt_period(n):
    a0 = isqrt(n)
    if a0 * a0 == n:
        return a0, ()
    m = 0
    d = 1
    a = a0
    terms = []
    while True:
        m = d * a - m
        d = (n - m * m) // d
        a = (a0 + m) // d
        terms.append(a)
        if a == 2 * a0:
            break
    return a0, tuple(terms)


def convergents(a0, period, count):
    h_prev, h = 1, a0
    k_prev, k = 0, 1
    i = 0
    while count > 0:
        if not period:
            yield h, k
            return
        a = period[i % len(period)]
        yield h, k
        h_prev, h = h, a * h + h_prev
        k_prev, k = k, a * k + k_prev
        i += 1
        count -= 1


def pell(n, a0, period):
    for h, k in convergents(a0, period, 400):
        if h * h - n * k * k == 1:
            return h, k
    return None


def main():
    longest = (0, 0)
    error_sum = 0.0
    pell_digits = 0
    odd_periods = 0
    for n in range(2, 6000):
        a0, period = sqrt_period(n)
        if not period:
            continue
        if len(period) > longest[0]:
            longest = (len(period), n)
        if len(period) % 2 == 1:
            odd_periods += 1
        root = n ** 0.5
        for h, k in convergents(a0, period, 6):
            error_sum += abs(h / float(k) - root)
        if n < 1000:
            sol = pell(n, a0, period)
            if sol is not None:
                pell_digits += len(str(sol[0]))
    print("longest=%s odd=%d pell_digits=%d err=%.6f" % (longest, odd_periods, pell_digits, error_sum))


main()
