# Levenshtein edit distance between generated words with two rolling rows, plus a common-prefix/suffix trim.

ALPHABET = "abcdeghilmnorstu"


def make_word(seed, length):
    chars = []
    for _ in range(length):
        seed = (seed * 1664525 + 1013904223) % 4294967296
        chars.append(ALPHABET[(seed >> 24) % len(ALPHABET)])
    return "".join(chars), seed


def trim(a, b):
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    while a and b and a[-1] == b[-1]:
        a, b = a[:-1], b[:-1]
    return a, b


def distance(a, b):
    a, b = trim(a, b)
    if not a:
        return len(b)
    if not b:
        return len(a)
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            best = prev[j - 1] + cost
            if prev[j] + 1 < best:
                best = prev[j] + 1
            if cur[j - 1] + 1 < best:
                best = cur[j - 1] + 1
            cur[j] = best
        prev = cur
    return prev[-1]


def main():
    seed = 7
    words = []
    for i in range(4000):
        w, seed = make_word(seed, 6 + i % 11)
        words.append(w)
    total = 0
    closest = None
    for i in range(len(words)):
        for j in range(i + 1, min(i + 100, len(words))):
            d = distance(words[i], words[j] + words[i][:i % 4])
            total += d
            if closest is None or d < closest[0]:
                closest = (d, words[i], words[j])
    print("total", total, "closest", closest)


if __name__ == "__main__":
    main()
