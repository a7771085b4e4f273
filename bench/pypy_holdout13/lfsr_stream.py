# Generates pseudo-random bit streams from Fibonacci and Galois LFSRs via generators and closures, then measures period, bit balance, runs and serial correlation.


def fibonacci_lfsr(state, taps, width):
    mask = (1 << width) - 1
    while True:
        bit = 0
        for t in taps:
            bit ^= (state >> (width - t)) & 1
        state = ((state >> 1) | (bit << (width - 1))) & mask
        yield state & 1


def galois_lfsr(state, poly):
    while True:
        out = state & 1
        state >>= 1
        if out:
            state ^= poly
        yield out


def take(gen, n):
    out = []
    for _ in range(n):
        out.append(next(gen))
    return out


def make_counter():
    counts = {"runs": 0, "longest": 0}
    last = [-1, 0]

    def feed(bit):
        if bit == last[0]:
            last[1] += 1
        else:
            counts["runs"] += 1
            last[0] = bit
            last[1] = 1
        if last[1] > counts["longest"]:
            counts["longest"] = last[1]
    return feed, counts


def period(step, start, limit):
    state = step(start)
    n = 1
    while state != start and n < limit:
        state = step(state)
        n += 1
    return n


def galois_step(state):
    out = state & 1
    state >>= 1
    if out:
        state ^= 0xB400
    return state


def stats(bits):
    feed, counts = make_counter()
    ones = 0
    same = 0
    prev = bits[0]
    for b in bits:
        ones += b
        feed(b)
    for i in range(1, len(bits)):
        if bits[i] == bits[i - 1]:
            same += 1
        prev = bits[i]
    return ones, counts["runs"], counts["longest"], same


def pack(bits):
    value = 0
    acc = 0
    for i, b in enumerate(bits):
        value = ((value << 1) | b) & 0xFFFF
        if i % 16 == 15:
            acc = (acc * 65537 + value) % 1000000007
    return acc


def main():
    fib_bits = take(fibonacci_lfsr(0xACE1, (16, 14, 13, 11), 16), 60000)
    gal_bits = take(galois_lfsr(0xACE1, 0xB400), 60000)
    p = period(galois_step, 0xACE1, 70000)
    f_stats = stats(fib_bits)
    g_stats = stats(gal_bits)
    print("period", p)
    print("fibonacci", f_stats)
    print("galois", g_stats)
    print("checksum", (pack(fib_bits) ^ pack(gal_bits)) % 1000000007)


main()
