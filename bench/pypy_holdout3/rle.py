# Exercises: run-length encoding of a list (list indexing, comparison of
# neighbours, appending (value, count) tuples, then decoding the runs).
def encode(xs):
    out = []
    i = 0
    n = len(xs)
    while i < n:
        v = xs[i]
        j = i + 1
        while j < n and xs[j] == v:
            j += 1
        out.append((v, j - i))
        i = j
    return out
def decoded_len(runs):
    s = 0
    for v, c in runs:
        s += c * (v + 1)
    return s
data = [(i // 3) % 5 for i in range(200000)]
runs = encode(data)
print(len(runs), decoded_len(runs))
