# Topological ordering of generated package dependency graphs with Kahn's algorithm, cycle detection and depth levels.


class CycleError(Exception):
    def __init__(self, remaining):
        Exception.__init__(self, "cycle among %d nodes" % len(remaining))
        self.remaining = remaining


class Graph(object):
    def __init__(self):
        self.edges = {}
        self.indegree = {}

    def add_node(self, name):
        if name not in self.edges:
            self.edges[name] = set()
            self.indegree[name] = 0

    def depend(self, before, after):
        self.add_node(before)
        self.add_node(after)
        if after not in self.edges[before]:
            self.edges[before].add(after)
            self.indegree[after] += 1

    def order(self):
        indeg = dict(self.indegree)
        ready = sorted(n for n, d in indeg.items() if d == 0)
        level = dict((n, 0) for n in ready)
        out = []
        while ready:
            node = ready.pop()
            out.append(node)
            for nxt in sorted(self.edges[node]):
                indeg[nxt] -= 1
                level[nxt] = max(level.get(nxt, 0), level[node] + 1)
                if indeg[nxt] == 0:
                    ready.append(nxt)
        if len(out) != len(indeg):
            raise CycleError([n for n in indeg if indeg[n] > 0])
        return out, level


def build(seed, size, with_cycle):
    g = Graph()
    names = ["pkg%02d" % i for i in range(size)]
    for name in names:
        g.add_node(name)
    for i in range(1, size):
        for _ in range(2):
            seed = (seed * 1664525 + 1013904223) & 0xFFFFFFFF
            j = (seed >> 10) % i
            g.depend(names[j], names[i])
    if with_cycle:
        g.depend(names[size - 1], names[0])
    return g, seed


def main():
    seed = 3
    cycles = 0
    checksum = 0
    deepest = 0
    for trial in range(1500):
        g, seed = build(seed, 20 + trial % 17, trial % 9 == 0)
        try:
            order, level = g.order()
        except CycleError as e:
            cycles += 1
            checksum += len(e.remaining)
            continue
        pos = dict((n, i) for i, n in enumerate(order))
        for a, succ in g.edges.items():
            for b in succ:
                assert pos[a] < pos[b]
        deepest = max(deepest, max(level.values()))
        checksum += sum(int(n[3:]) * i for i, n in enumerate(order)) % 1000
    print("cycles", cycles, "deepest", deepest, "checksum", checksum)


if __name__ == "__main__":
    main()
