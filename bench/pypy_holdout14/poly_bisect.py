# Real roots of polynomials built from seeded root lists, found by sign-change scanning plus bisection, using closures for Horner evaluation and a generator of brackets.


def make_poly(coeffs):
    def evaluate(x):
        acc = 0.0
        for c in coeffs:
            acc = acc * x + c
        return acc
    return evaluate


def from_roots(roots):
    coeffs = [1]
    for r in roots:
        nxt = [0] * (len(coeffs) + 1)
        for i, c in enumerate(coeffs):
            nxt[i] += c
            nxt[i + 1] -= c * r
        coeffs = nxt
    return coeffs


def derivative(coeffs):
    n = len(coeffs) - 1
    return [c * (n - i) for i, c in enumerate(coeffs[:-1])]


def brackets(f, lo, hi, steps):
    width = (hi - lo) / steps
    x0 = lo
    y0 = f(x0)
    for k in range(1, steps + 1):
        x1 = lo + k * width
        y1 = f(x1)
        if y0 == 0.0:
            yield (x0 - width * 0.25, x0 + width * 0.25)
        elif y0 * y1 < 0.0:
            yield (x0, x1)
        x0, y0 = x1, y1


class NoSignChange(Exception):
    pass


def bisect(f, a, b, tol):
    fa = f(a)
    fb = f(b)
    if fa * fb > 0.0:
        raise NoSignChange((a, b))
    iters = 0
    while b - a > tol:
        m = 0.5 * (a + b)
        fm = f(m)
        iters += 1
        if fm == 0.0:
            return m, iters
        if fa * fm < 0.0:
            b, fb = m, fm
        else:
            a, fa = m, fm
    return 0.5 * (a + b), iters


def lcg_roots(seed, count):
    roots = []
    for _ in range(count):
        seed = (seed * 214013 + 2531011) % 4294967296
        roots.append(((seed >> 16) % 41 - 20) * 0.5 + 0.25)
    return roots, seed


def main():
    seed = 31337
    found = 0
    missed = 0
    error_sum = 0.0
    total_iters = 0
    crit = 0
    for case in range(24000):
        roots, seed = lcg_roots(seed, 3 + case % 4)
        coeffs = from_roots(roots)
        f = make_poly(coeffs)
        g = make_poly(derivative(coeffs))
        distinct = sorted(set(roots))
        got = []
        for a, b in brackets(f, -12.03, 12.01, 487):
            try:
                r, it = bisect(f, a, b, 1e-11)
                got.append(r)
                total_iters += it
            except NoSignChange:
                missed += 1
        for a, b in brackets(g, -12.03, 12.01, 487):
            crit += 1
        for r in distinct:
            best = min([abs(r - x) for x in got] or [99.0])
            if best < 1e-6:
                found += 1
                error_sum += best
            else:
                missed += 1
    print("found", found, "missed", missed, "crit", crit, "iters", total_iters)
    print("mean error %.3e" % (error_sum / max(found, 1)))


main()
