# Knuth-Morris-Pratt substring search with a failure table, compared against a naive scan on a generated DNA-like text.


def failure_table(pattern):
    m = len(pattern)
    fail = [0] * m
    k = 0
    for i in range(1, m):
        while k > 0 and pattern[i] != pattern[k]:
            k = fail[k - 1]
        if pattern[i] == pattern[k]:
            k += 1
        fail[i] = k
    return fail


def kmp_find_all(text, pattern):
    fail = failure_table(pattern)
    m = len(pattern)
    hits = []
    k = 0
    for i in range(len(text)):
        c = text[i]
        while k > 0 and c != pattern[k]:
            k = fail[k - 1]
        if c == pattern[k]:
            k += 1
        if k == m:
            hits.append(i - m + 1)
            k = fail[k - 1]
    return hits


def naive_find_all(text, pattern):
    hits = []
    m = len(pattern)
    for i in range(len(text) - m + 1):
        j = 0
        while j < m and text[i + j] == pattern[j]:
            j += 1
        if j == m:
            hits.append(i)
    return hits


def make_dna(n, seed):
    alphabet = "ACGT"
    out = []
    state = seed
    for _ in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        v = (state >> 16) & 7
        if v >= 4:
            v = 0
        out.append(alphabet[v])
    return "".join(out)


def main():
    text = make_dna(4000000, 5)
    patterns = ["AAAA", "ACGA", "AAGAAT", "TTT", "AACAAC", "GATTACA", "AAAAAAAC", "CAAAC"]
    total = 0
    agree = 0
    first = []
    for p in patterns:
        a = kmp_find_all(text, p)
        b = naive_find_all(text, p)
        if a == b:
            agree += 1
        total += len(a)
        first.append(a[0] if a else -1)
    print("total=%d agree=%d/%d first=%s" % (total, agree, len(patterns), first))


main()
