# A Bloom filter over an integer bitset, measuring its false positive rate.


class BloomFilter(object):
    def __init__(self, nbits, nhashes):
        self.nbits = nbits
        self.nhashes = nhashes
        self.words = [0] * ((nbits + 31) // 32)

    def _positions(self, key):
        h1 = (key * 2654435761) & 0xFFFFFFFF
        h2 = ((key ^ (key >> 7)) * 40503 + 1) & 0xFFFFFFFF
        for i in range(self.nhashes):
            yield (h1 + i * h2) % self.nbits

    def add(self, key):
        for pos in self._positions(key):
            self.words[pos >> 5] |= 1 << (pos & 31)

    def might_contain(self, key):
        for pos in self._positions(key):
            if not (self.words[pos >> 5] >> (pos & 31)) & 1:
                return False
        return True


def popcount(w):
    c = 0
    while w:
        w &= w - 1
        c += 1
    return c


def main():
    bf = BloomFilter(65536, 4)
    for k in range(0, 40000, 3):
        bf.add(k)
    missing = 0
    for k in range(0, 40000, 3):
        if not bf.might_contain(k):
            missing += 1
    false_pos = 0
    for k in range(100000, 160000):
        if bf.might_contain(k):
            false_pos += 1
    set_bits = 0
    for w in bf.words:
        set_bits += popcount(w)
    print("missing", missing, "false_pos", false_pos, "set_bits", set_bits)


if __name__ == "__main__":
    main()
