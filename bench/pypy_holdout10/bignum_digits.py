# Schoolbook big-number arithmetic on little-endian lists of base-10000 limbs: factorials, Fibonacci numbers and digit sums.

BASE = 10000


def from_int(n):
    limbs = []
    while n > 0:
        limbs.append(n % BASE)
        n //= BASE
    return limbs or [0]


def add(a, b):
    if len(a) < len(b):
        a, b = b, a
    out = []
    carry = 0
    for i in range(len(a)):
        s = a[i] + carry
        if i < len(b):
            s += b[i]
        out.append(s % BASE)
        carry = s // BASE
    if carry:
        out.append(carry)
    return out


def mul_small(a, k):
    out = []
    carry = 0
    for limb in a:
        p = limb * k + carry
        out.append(p % BASE)
        carry = p // BASE
    while carry:
        out.append(carry % BASE)
        carry //= BASE
    return out


def mul(a, b):
    out = [0] * (len(a) + len(b))
    for i in range(len(a)):
        carry = 0
        ai = a[i]
        for j in range(len(b)):
            t = out[i + j] + ai * b[j] + carry
            out[i + j] = t % BASE
            carry = t // BASE
        k = i + len(b)
        while carry:
            t = out[k] + carry
            out[k] = t % BASE
            carry = t // BASE
            k += 1
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return out


def to_str(a):
    parts = [str(a[-1])]
    for i in range(len(a) - 2, -1, -1):
        parts.append("%04d" % a[i])
    return "".join(parts)


def digit_sum(a):
    total = 0
    for limb in a:
        while limb:
            total += limb % 10
            limb //= 10
    return total


def main():
    fact = [1]
    for k in range(2, 15000):
        fact = mul_small(fact, k)
    fa, fb = [0], [1]
    for _ in range(40000):
        fa, fb = fb, add(fa, fb)
    sq = mul(fa, fa)
    check = to_str(sq)
    print("fact_digits=%d fact_sum=%d fib_sum=%d sq_len=%d sq_head=%s" % (
        len(to_str(fact)), digit_sum(fact), digit_sum(fa), len(check), check[:12]))


main()
