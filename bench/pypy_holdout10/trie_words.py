# A prefix trie built from generated pseudo-words, used for prefix counts and longest-common-prefix queries.


class Node(object):
    __slots__ = ("children", "count", "terminal")

    def __init__(self):
        self.children = {}
        self.count = 0
        self.terminal = 0


class Trie(object):
    def __init__(self):
        self.root = Node()
        self.size = 0

    def insert(self, word):
        node = self.root
        node.count += 1
        for ch in word:
            nxt = node.children.get(ch)
            if nxt is None:
                nxt = Node()
                node.children[ch] = nxt
            nxt.count += 1
            node = nxt
        if node.terminal == 0:
            self.size += 1
        node.terminal += 1

    def count_prefix(self, prefix):
        node = self.root
        for ch in prefix:
            node = node.children.get(ch)
            if node is None:
                return 0
        return node.count

    def contains(self, word):
        node = self.root
        for ch in word:
            node = node.children.get(ch)
            if node is None:
                return False
        return node.terminal > 0

    def longest_prefix_of(self, text):
        node = self.root
        best = 0
        depth = 0
        for ch in text:
            node = node.children.get(ch)
            if node is None:
                break
            depth += 1
            if node.terminal:
                best = depth
        return best


def make_words(n, seed):
    letters = "abcdefghij"
    words = []
    state = seed
    for _ in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        length = 3 + state % 6
        chars = []
        s = state
        for _ in range(length):
            s = (s * 69069 + 1) & 0xFFFFFFFF
            chars.append(letters[(s >> 16) % 10])
        words.append("".join(chars))
    return words


def main():
    words = make_words(300000, 7)
    trie = Trie()
    for w in words:
        trie.insert(w)
    queries = make_words(300000, 99)
    hits = 0
    prefix_total = 0
    lp_total = 0
    for q in queries:
        if trie.contains(q):
            hits += 1
        prefix_total += trie.count_prefix(q[:2])
        lp_total += trie.longest_prefix_of(q + q)
    print("distinct=%d hits=%d prefix_total=%d lp_total=%d" % (trie.size, hits, prefix_total, lp_total))


main()
