# Dijkstra shortest paths with a hand-written binary min-heap over a generated road network, plus a path reconstruction check.


class MinHeap(object):
    def __init__(self):
        self.items = []

    def push(self, dist, node):
        items = self.items
        items.append((dist, node))
        i = len(items) - 1
        while i > 0:
            parent = (i - 1) >> 1
            if items[parent][0] <= items[i][0]:
                break
            items[parent], items[i] = items[i], items[parent]
            i = parent

    def pop(self):
        items = self.items
        top = items[0]
        last = items.pop()
        if items:
            items[0] = last
            n = len(items)
            i = 0
            while True:
                left = 2 * i + 1
                if left >= n:
                    break
                small = left
                right = left + 1
                if right < n and items[right][0] < items[left][0]:
                    small = right
                if items[i][0] <= items[small][0]:
                    break
                items[i], items[small] = items[small], items[i]
                i = small
        return top

    def __len__(self):
        return len(self.items)


def make_roads(n, seed):
    adj = {}
    state = seed
    for v in range(n):
        adj[v] = []
    for v in range(n):
        for k in range(4):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            w = state % n
            if w == v:
                continue
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            cost = 1 + (state >> 8) % 97
            adj[v].append((w, cost))
            adj[w].append((v, cost))
    return adj


def dijkstra(adj, source):
    dist = {source: 0}
    prev = {}
    done = set()
    heap = MinHeap()
    heap.push(0, source)
    while len(heap):
        d, u = heap.pop()
        if u in done:
            continue
        done.add(u)
        for w, cost in adj[u]:
            nd = d + cost
            old = dist.get(w)
            if old is None or nd < old:
                dist[w] = nd
                prev[w] = u
                heap.push(nd, w)
    return dist, prev


def path_cost(adj, prev, source, target):
    total = 0
    hops = 0
    v = target
    while v != source:
        u = prev[v]
        best = None
        for w, cost in adj[u]:
            if w == v and (best is None or cost < best):
                best = cost
        total += best
        hops += 1
        v = u
    return total, hops


def main():
    adj = make_roads(6000, 17)
    checksum = 0
    consistent = 0
    far = 0
    for source in (0, 11, 222, 3333, 4444, 5999):
        dist, prev = dijkstra(adj, source)
        for target in (1, 100, 2000, 5000):
            if target in dist:
                c, hops = path_cost(adj, prev, source, target)
                if c == dist[target]:
                    consistent += 1
                checksum += c * 7 + hops
        far = max(far, max(dist.values()))
        checksum = (checksum + sum(dist.values())) % 1000000007
    print("reach=%d consistent=%d far=%d checksum=%d" % (len(dist), consistent, far, checksum))


main()
