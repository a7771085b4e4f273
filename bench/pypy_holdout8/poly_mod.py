# Polynomial multiplication, remainder and evaluation over the integers modulo a prime, using lists of coefficients.

P = 10007


def poly_mul(a, b):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x == 0:
            continue
        for j, y in enumerate(b):
            out[i + j] = (out[i + j] + x * y) % P
    return out


def poly_rem(a, m):
    a = list(a)
    inv = pow(m[-1], P - 2, P)
    dm = len(m) - 1
    while len(a) > dm:
        coef = a[-1] * inv % P
        if coef:
            shift = len(a) - 1 - dm
            for k in range(dm + 1):
                a[shift + k] = (a[shift + k] - coef * m[k]) % P
        a.pop()
    while len(a) > 1 and a[-1] == 0:
        a.pop()
    return a


def horner(a, x):
    acc = 0
    for c in reversed(a):
        acc = (acc * x + c) % P
    return acc


def main():
    modulus = [3, 0, 5, 1, 0, 0, 2, 0, 0, 0, 0, 0, 1]
    acc = [1]
    base = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8]
    check = 0
    for step in range(600000):
        factor = [(c + step) % P for c in base]
        acc = poly_rem(poly_mul(acc, factor), modulus)
        if step % 7 == 0:
            check = (check * 31 + horner(acc, step % 97 + 2)) % 1000000007
    print("degree", len(acc) - 1, "check", check, "coeffs", acc[:4])


if __name__ == "__main__":
    main()
