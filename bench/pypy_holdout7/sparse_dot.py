# Sparse vectors stored as dicts of index -> weight; pairwise dot products and cosine-like scores.


def make_vector(seed, dim, nnz):
    vec = {}
    for _ in range(nnz):
        seed = (seed * 48271) % 2147483647
        idx = seed % dim
        vec[idx] = vec.get(idx, 0.0) + ((seed >> 7) % 200 - 100) / 50.0
    return vec, seed


def dot(a, b):
    if len(a) > len(b):
        a, b = b, a
    total = 0.0
    for k, v in a.items():
        w = b.get(k)
        if w is not None:
            total += v * w
    return total


def norm_sq(a):
    s = 0.0
    for v in a.values():
        s += v * v
    return s


def main():
    seed = 1234
    vectors = []
    for i in range(120):
        vec, seed = make_vector(seed, 500, 20 + i % 40)
        vectors.append(vec)
    norms = [norm_sq(v) for v in vectors]
    best = (-2.0, 0, 0)
    total = 0.0
    for rep in range(4):
        for i in range(len(vectors)):
            for j in range(i + 1, len(vectors)):
                d = dot(vectors[i], vectors[j])
                total += d
                denom = norms[i] * norms[j]
                if denom > 0.0:
                    score = d * abs(d) / denom
                    if score > best[0]:
                        best = (score, i, j)
    print("total %.4f best %.4f pair %d %d" % (total, best[0], best[1], best[2]))


if __name__ == "__main__":
    main()
