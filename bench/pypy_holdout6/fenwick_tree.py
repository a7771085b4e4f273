# A Fenwick (binary indexed) tree for prefix sums under point updates.


class Fenwick(object):
    def __init__(self, n):
        self.n = n
        self.tree = [0] * (n + 1)

    def add(self, i, delta):
        i += 1
        while i <= self.n:
            self.tree[i] += delta
            i += i & (-i)

    def prefix(self, i):
        # sum of elements [0, i)
        s = 0
        while i > 0:
            s += self.tree[i]
            i -= i & (-i)
        return s

    def range_sum(self, lo, hi):
        return self.prefix(hi) - self.prefix(lo)


def main():
    n = 4096
    fw = Fenwick(n)
    plain = [0] * n
    seed = 12345
    checksum = 0
    wrong = 0
    for step in range(60000):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        idx = seed % n
        delta = (seed >> 12) % 201 - 100
        fw.add(idx, delta)
        plain[idx] += delta
        if step % 10 == 0:
            lo = (seed >> 3) % n
            hi = lo + (seed >> 5) % (n - lo + 1)
            got = fw.range_sum(lo, hi)
            if step % 1000 == 0 and got != sum(plain[lo:hi]):
                wrong += 1
            checksum = (checksum * 131 + got) % 1000000007
    print("checksum", checksum, "wrong", wrong)


if __name__ == "__main__":
    main()
