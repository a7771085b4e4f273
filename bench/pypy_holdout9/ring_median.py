# A fixed-size ring buffer over a generated signal with a moving median kept in a sorted window and a spike detector.

import bisect


class RingBuffer(object):
    def __init__(self, size):
        self.size = size
        self.data = [0.0] * size
        self.head = 0
        self.count = 0

    def push(self, value):
        old = None
        if self.count == self.size:
            old = self.data[self.head]
        else:
            self.count += 1
        self.data[self.head] = value
        self.head = (self.head + 1) % self.size
        return old


class MovingMedian(object):
    def __init__(self, size):
        self.ring = RingBuffer(size)
        self.window = []

    def add(self, value):
        old = self.ring.push(value)
        if old is not None:
            idx = bisect.bisect_left(self.window, old)
            del self.window[idx]
        bisect.insort(self.window, value)
        n = len(self.window)
        if n % 2:
            return self.window[n // 2]
        return 0.5 * (self.window[n // 2 - 1] + self.window[n // 2])


def signal(n):
    x = 0.0
    seed = 99
    for i in range(n):
        seed = (seed * 69069 + 1) & 0xFFFFFFFF
        x = 0.9 * x + ((seed >> 12) % 1000) / 500.0 - 1.0
        if i % 97 == 0:
            yield x + 25.0
        else:
            yield x


def main():
    mm = MovingMedian(15)
    spikes = 0
    acc = 0.0
    for i, v in enumerate(signal(150000)):
        med = mm.add(v)
        acc += med
        if abs(v - med) > 10.0:
            spikes += 1
    print("spikes", spikes, "mean median %.6f" % (acc / 150000))


if __name__ == "__main__":
    main()
