# An LRU cache class built on dict insertion order, with hit/miss/eviction statistics and a subclass that tracks cost.


class LRUCache(object):
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = {}
        self.hits = 0
        self.misses = 0
        self.evictions = 0

    def get(self, key):
        if key in self.data:
            value = self.data.pop(key)
            self.data[key] = value
            self.hits += 1
            return value
        self.misses += 1
        return None

    def put(self, key, value):
        if key in self.data:
            del self.data[key]
        elif len(self.data) >= self.capacity:
            oldest = next(iter(self.data))
            del self.data[oldest]
            self.evictions += 1
        self.data[key] = value


class CostedCache(LRUCache):
    def __init__(self, capacity, miss_cost):
        LRUCache.__init__(self, capacity)
        self.miss_cost = miss_cost
        self.cost = 0

    def fetch(self, key):
        value = self.get(key)
        if value is None:
            self.cost += self.miss_cost + key % 5
            value = key * key % 9973
            self.put(key, value)
        return value


def main():
    caches = [CostedCache(cap, 10 + cap // 8) for cap in (16, 64, 200)]
    seed = 42
    total = 0
    for i in range(4000000):
        seed = (seed * 214013 + 2531011) & 0xFFFFFFFF
        key = (seed >> 16) % 300 if i % 3 else (seed >> 20) % 40
        for c in caches:
            total += c.fetch(key)
    for c in caches:
        print(c.capacity, c.hits, c.misses, c.evictions, c.cost)
    print("total", total)


if __name__ == "__main__":
    main()
