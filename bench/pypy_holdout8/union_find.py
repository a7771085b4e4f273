# Union-find with path halving and union by size over pseudo-random edges, counting components per round.


class DisjointSet(object):
    def __init__(self, n):
        self.parent = list(range(n))
        self.size = [1] * n
        self.components = n

    def find(self, x):
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a, b):
        ra = self.find(a)
        rb = self.find(b)
        if ra == rb:
            return False
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]
        self.components -= 1
        return True


def edges(seed, n, count):
    for _ in range(count):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        a = seed % n
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        yield a, (a + 1 + (seed >> 8) % 97) % n


def main():
    total = 0
    merges = 0
    largest = 0
    for rnd in range(800):
        n = 3000 + rnd * 10
        ds = DisjointSet(n)
        for a, b in edges(rnd * 7 + 3, n, n // 2 + rnd * 40):
            if ds.union(a, b):
                merges += 1
        roots = {}
        for v in range(n):
            r = ds.find(v)
            roots[r] = roots.get(r, 0) + 1
        largest = max(largest, max(roots.values()))
        total += ds.components * (rnd + 1)
    print("components", total, "merges", merges, "largest", largest)


if __name__ == "__main__":
    main()
