# Spell checker: edit-distance-one candidate generator against a frequency lexicon, scoring corrections of typos.

SYLLABLES = ["ka", "ro", "mi", "tel", "san", "do", "ver", "li", "bun", "che", "pa", "nos", "gri", "ul", "te", "mar"]
ALPHABET = "abcdeghiklmnoprstuv"


class Rng:
    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) % 2147483648
        return (self.state >> 7) % n


def edits1(word):
    n = len(word)
    for i in range(n):
        yield word[:i] + word[i + 1:]
    for i in range(n - 1):
        yield word[:i] + word[i + 1] + word[i] + word[i + 2:]
    for i in range(n):
        head, tail = word[:i], word[i + 1:]
        for ch in ALPHABET:
            if ch != word[i]:
                yield head + ch + tail
    for i in range(n + 1):
        head, tail = word[:i], word[i:]
        for ch in ALPHABET:
            yield head + ch + tail


class Lexicon:
    def __init__(self):
        self.freq = {}

    def add(self, word, n):
        self.freq[word] = self.freq.get(word, 0) + n

    def correct(self, word):
        if word in self.freq:
            return word, 0
        best, best_f = word, -1
        for cand in edits1(word):
            f = self.freq.get(cand, -1)
            if f > best_f or (f == best_f and f >= 0 and cand < best):
                best, best_f = cand, f
        return best, (1 if best_f >= 0 else 2)


def make_word(rng):
    parts = [SYLLABLES[rng.below(len(SYLLABLES))] for _ in range(2 + rng.below(3))]
    return "".join(parts)


def misspell(rng, word):
    kind = rng.below(5)
    i = rng.below(len(word))
    if kind == 0:
        return word[:i] + word[i + 1:]
    if kind == 1 and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == 2:
        return word[:i] + ALPHABET[rng.below(len(ALPHABET))] + word[i + 1:]
    if kind == 3:
        return word[:i] + ALPHABET[rng.below(len(ALPHABET))] + word[i:]
    return word


def main():
    rng = Rng(99)
    lex = Lexicon()
    words = []
    for rank in range(2500):
        w = make_word(rng)
        lex.add(w, 10000 // (rank + 1) + 1)
        words.append(w)
    stats = [0, 0, 0, 0]
    check = 0
    for q in range(30000):
        target = words[(rng.below(len(words)) * rng.below(len(words))) // len(words)]
        typo = misspell(rng, target)
        fixed, kind = lex.correct(typo)
        if kind == 0:
            stats[0] += 1
        elif kind == 2:
            stats[3] += 1
        elif fixed == target:
            stats[1] += 1
        else:
            stats[2] += 1
        for ch in fixed[-4:]:
            check = (check * 37 + ord(ch)) % 1000000007
    print("exact %d fixed %d wrong %d unknown %d check %d" % (stats[0], stats[1], stats[2], stats[3], check))


main()
