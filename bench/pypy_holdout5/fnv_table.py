# FNV-1a 32-bit hashing of generated keys into an open-addressing table with masks.

FNV_OFFSET = 0x811C9DC5
FNV_PRIME = 0x01000193
MASK32 = 0xFFFFFFFF


def fnv1a(key):
    h = FNV_OFFSET
    for ch in key:
        h ^= ord(ch)
        h = (h * FNV_PRIME) & MASK32
    return h


class OpenTable(object):
    def __init__(self, bits):
        self.mask = (1 << bits) - 1
        self.keys = [None] * (1 << bits)
        self.counts = [0] * (1 << bits)
        self.probes = 0

    def add(self, key):
        i = fnv1a(key) & self.mask
        while True:
            k = self.keys[i]
            if k is None:
                self.keys[i] = key
                self.counts[i] = 1
                return
            if k == key:
                self.counts[i] += 1
                return
            self.probes += 1
            i = (i + 1) & self.mask


def make_key(i):
    return "user%d:%s" % (i % 5003, "abcdefgh"[i % 8])


if __name__ == "__main__":
    table = OpenTable(16)
    for i in range(120000):
        table.add(make_key(i * 7 + (i >> 3)))
    distinct = 0
    digest = 0
    for idx in range(len(table.keys)):
        if table.keys[idx] is not None:
            distinct += 1
            digest = (digest ^ (fnv1a(table.keys[idx]) + table.counts[idx])) & MASK32
    print("distinct", distinct, "probes", table.probes, "digest", digest)
