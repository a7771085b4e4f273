# Grouping generated pseudo-words into anagram classes via sorted-letter keys and letter-count tuples, with a generator pipeline and set checks.


def pseudo_words(count, seed):
    consonants = "bcdfglmnprst"
    vowels = "aeiou"
    state = seed
    for _ in range(count):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        length = 3 + (state >> 12) % 4
        letters = []
        for i in range(length):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            if i % 2 == 0:
                letters.append(consonants[(state >> 16) % len(consonants)])
            else:
                letters.append(vowels[(state >> 16) % len(vowels)])
        yield "".join(letters)


def sorted_key(word):
    return "".join(sorted(word))


def count_key(word):
    counts = [0] * 26
    for ch in word:
        counts[ord(ch) - 97] += 1
    return tuple(counts)


def distinct(words):
    seen = set()
    for w in words:
        if w not in seen:
            seen.add(w)
            yield w


def main():
    by_sorted = {}
    by_count = {}
    n = 0
    for w in distinct(pseudo_words(120000, 42)):
        n += 1
        by_sorted.setdefault(sorted_key(w), []).append(w)
        key = count_key(w)
        if key in by_count:
            by_count[key] += 1
        else:
            by_count[key] = 1
    same = len(by_sorted) == len(by_count)
    biggest_key = ""
    biggest = 0
    groups = 0
    for key, words in by_sorted.items():
        if len(words) > 1:
            groups += 1
        if len(words) > biggest or (len(words) == biggest and key < biggest_key):
            biggest = len(words)
            biggest_key = key
    sample = sorted(by_sorted[biggest_key])[:3]
    print("distinct=%d classes=%d same=%s groups=%d biggest=%d %s" % (n, len(by_sorted), same, groups, biggest, ",".join(sample)))


main()
