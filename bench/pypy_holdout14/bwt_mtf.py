# Burrows-Wheeler transform followed by move-to-front and zero-run coding on bytearrays, with full inverse and round-trip check.

WORDS = "the quick brown fox jumps over lazy dog banana bandana cabana and a an panama".split()


def make_text(n, seed):
    out = []
    for _ in range(n):
        seed = (seed * 69069 + 1) % 4294967296
        out.append(WORDS[(seed >> 12) % len(WORDS)])
    return " ".join(out), seed


def bwt(data):
    n = len(data)
    doubled = data + data
    order = sorted(range(n), key=lambda i: doubled[i:i + n])
    last = bytearray(n)
    primary = 0
    for k, i in enumerate(order):
        last[k] = data[i - 1]
        if i == 0:
            primary = k
    return last, primary


def inverse_bwt(last, primary):
    n = len(last)
    counts = [0] * 256
    ranks = [0] * n
    for i in range(n):
        b = last[i]
        ranks[i] = counts[b]
        counts[b] += 1
    starts = [0] * 256
    for b in range(1, 256):
        starts[b] = starts[b - 1] + counts[b - 1]
    out = bytearray(n)
    row = primary
    for k in range(n - 1, -1, -1):
        b = last[row]
        out[k] = b
        row = starts[b] + ranks[row]
    return out


def mtf_encode(data):
    table = list(range(256))
    out = bytearray(len(data))
    for i, b in enumerate(data):
        idx = table.index(b)
        out[i] = idx
        if idx:
            del table[idx]
            table.insert(0, b)
    return out


def mtf_decode(codes):
    table = list(range(256))
    out = bytearray(len(codes))
    for i, idx in enumerate(codes):
        b = table[idx]
        out[i] = b
        if idx:
            del table[idx]
            table.insert(0, b)
    return out


def zero_runs(codes):
    runs = []
    run = 0
    for c in codes:
        if c == 0:
            run += 1
        else:
            if run:
                runs.append((0, run))
                run = 0
            runs.append((c, 1))
    if run:
        runs.append((0, run))
    return runs


def main():
    seed = 4242
    symbols = 0
    zeros = 0
    check = 0
    for block in range(500):
        text, seed = make_text(300 + (block % 40) * 7, seed)
        data = bytearray(text.encode("ascii"))
        last, primary = bwt(data)
        codes = mtf_encode(last)
        runs = zero_runs(codes)
        symbols += len(runs)
        zeros += sum(r for c, r in runs if c == 0)
        restored = inverse_bwt(mtf_decode(codes), primary)
        if restored != data:
            raise ValueError("round trip failed in block %d" % block)
        for c in codes:
            check = (check * 31 + c) % 1000003
    print("symbols", symbols, "zeros", zeros, "check", check)


main()
