# A hand-written binary min-heap used as a priority queue of (priority, name) jobs.


class MinHeap(object):
    def __init__(self):
        self.items = []

    def push(self, item):
        items = self.items
        items.append(item)
        i = len(items) - 1
        while i > 0:
            parent = (i - 1) // 2
            if items[i] < items[parent]:
                items[i], items[parent] = items[parent], items[i]
                i = parent
            else:
                break

    def pop(self):
        items = self.items
        last = items.pop()
        if not items:
            return last
        top = items[0]
        items[0] = last
        i, n = 0, len(items)
        while True:
            left = 2 * i + 1
            if left >= n:
                break
            child = left
            if left + 1 < n and items[left + 1] < items[left]:
                child = left + 1
            if items[child] < items[i]:
                items[i], items[child] = items[child], items[i]
                i = child
            else:
                break
        return top


def main():
    heap = MinHeap()
    seed = 7
    order_sum = 0
    count = 0
    for round_no in range(60):
        for k in range(500):
            seed = (seed * 69069 + 1) % 4294967296
            heap.push((seed % 1000, "job%d" % (k % 50)))
        while len(heap.items) > 100:
            prio, name = heap.pop()
            count += 1
            order_sum = (order_sum * 7 + prio + len(name)) % 1000000007
    print("popped", count, "left", len(heap.items), "order_sum", order_sum)


if __name__ == "__main__":
    main()
