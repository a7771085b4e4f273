# 0/1 knapsack by dynamic programming over a capacity table, with item reconstruction, on several generated item sets.


class Item(object):
    def __init__(self, name, weight, value):
        self.name = name
        self.weight = weight
        self.value = value


def make_items(n, seed):
    items = []
    state = seed
    for i in range(n):
        state = (state * 1664525 + 1013904223) & 0xFFFFFFFF
        w = 1 + (state >> 20) % 40
        state = (state * 1664525 + 1013904223) & 0xFFFFFFFF
        v = 5 + (state >> 18) % 100
        items.append(Item("item%d" % i, w, v))
    return items


def knapsack(items, capacity):
    n = len(items)
    table = [[0] * (capacity + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        item = items[i - 1]
        w = item.weight
        v = item.value
        prev = table[i - 1]
        row = table[i]
        for c in range(capacity + 1):
            best = prev[c]
            if w <= c:
                cand = prev[c - w] + v
                if cand > best:
                    best = cand
            row[c] = best
    chosen = []
    c = capacity
    for i in range(n, 0, -1):
        if table[i][c] != table[i - 1][c]:
            chosen.append(items[i - 1])
            c -= items[i - 1].weight
    chosen.reverse()
    return table[n][capacity], chosen


def greedy(items, capacity):
    ranked = sorted(items, key=lambda it: float(it.value) / it.weight, reverse=True)
    total = 0
    used = 0
    for it in ranked:
        if used + it.weight <= capacity:
            used += it.weight
            total += it.value
    return total


def main():
    dp_total = 0
    greedy_total = 0
    picked = 0
    for seed in range(150):
        items = make_items(300, seed + 11)
        cap = 3000 + seed * 40
        best, chosen = knapsack(items, cap)
        weight = sum(it.weight for it in chosen)
        assert weight <= cap
        assert sum(it.value for it in chosen) == best
        dp_total += best
        greedy_total += greedy(items, cap)
        picked += len(chosen)
    print("dp=%d greedy=%d picked=%d" % (dp_total, greedy_total, picked))


main()
