# Group generated words into a dict of lists by signature and count frequencies.

SYLLABLES = ["ka", "lo", "mi", "ra", "tu", "sen", "do", "vi", "an", "el"]


def generate_words(n, seed):
    words = []
    state = seed
    for _ in range(n):
        state = (state * 1664525 + 1013904223) % (2 ** 32)
        parts = 1 + state % 3
        w = ""
        s = state
        for _ in range(parts):
            w += SYLLABLES[s % len(SYLLABLES)]
            s //= len(SYLLABLES)
        words.append(w)
    return words


def group_by_letters(words):
    groups = {}
    counts = {}
    for w in words:
        key = "".join(sorted(w))
        groups.setdefault(key, []).append(w)
        counts[w] = counts.get(w, 0) + 1
    return groups, counts


def summarize(groups, counts):
    largest = max(groups.values(), key=len)
    anagram_sets = 0
    for key, members in groups.items():
        if len(set(members)) > 1:
            anagram_sets += 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    return len(groups), len(largest), anagram_sets, top


if __name__ == "__main__":
    words = generate_words(250000, 7)
    groups, counts = group_by_letters(words)
    n_groups, biggest, anagrams, top = summarize(groups, counts)
    print("groups:", n_groups, "biggest:", biggest, "anagram sets:", anagrams)
    print("top words:", ", ".join("%s(%d)" % kv for kv in top))
