# LZ77-style compression with a sliding window, emitting (offset, length, next char) triples, then decoding and checking.


def compress(data, window=255, max_len=15):
    out = []
    i = 0
    n = len(data)
    while i < n:
        best_len = 0
        best_off = 0
        start = i - window
        if start < 0:
            start = 0
        j = start
        while j < i:
            k = 0
            while k < max_len and i + k < n - 1 and data[j + k] == data[i + k]:
                k += 1
            if k > best_len:
                best_len = k
                best_off = i - j
                if k == max_len:
                    break
            j += 1
        out.append((best_off, best_len, data[i + best_len]))
        i += best_len + 1
    return out


def decompress(triples):
    buf = []
    for off, length, ch in triples:
        start = len(buf) - off
        for p in range(length):
            buf.append(buf[start + p])
        buf.append(ch)
    return "".join(buf)


def make_text(n, seed):
    phrases = ["the cat ", "sat on ", "a mat ", "and the ", "dog ", "ran ", "far away ", "quickly "]
    parts = []
    total = 0
    state = seed
    while total < n:
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        p = phrases[(state >> 16) % len(phrases)]
        if (state >> 8) & 7 == 0:
            p = p.upper()
        parts.append(p)
        total += len(p)
    return "".join(parts)[:n]


def encoded_size(triples):
    # 1 byte offset, 1 byte length, 1 byte char
    return 3 * len(triples)


def main():
    total_in = 0
    total_out = 0
    ok = 0
    for seed in range(1, 401):
        text = make_text(20000, seed)
        triples = compress(text)
        back = decompress(triples)
        if back == text:
            ok += 1
        total_in += len(text)
        total_out += encoded_size(triples)
    print("ok=%d in=%d out=%d ratio=%.3f" % (ok, total_in, total_out, float(total_out) / total_in))


main()
