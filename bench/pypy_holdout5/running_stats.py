# Welford running mean/variance over synthetic measurements with z-score outlier counts.
import math


class RunningStats(object):
    def __init__(self):
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.lo = float("inf")
        self.hi = float("-inf")

    def add(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)
        if x < self.lo:
            self.lo = x
        if x > self.hi:
            self.hi = x

    def stddev(self):
        if self.n < 2:
            return 0.0
        return math.sqrt(self.m2 / (self.n - 1))


def measurement(i):
    base = 50.0 + 10.0 * math.sin(i * 0.001)
    jitter = ((i * 2654435761) % 1000) / 250.0 - 2.0
    spike = 25.0 if i % 997 == 0 else 0.0
    return base + jitter + spike


def two_pass(values):
    mean = sum(values) / len(values)
    acc = 0.0
    for v in values:
        d = v - mean
        acc += d * d
    return mean, math.sqrt(acc / (len(values) - 1))


if __name__ == "__main__":
    stats = RunningStats()
    outliers = 0
    values = []
    for i in range(400000):
        x = measurement(i)
        values.append(x)
        if stats.n > 100:
            sd = stats.stddev()
            if sd > 0.0 and abs(x - stats.mean) / sd > 3.0:
                outliers += 1
        stats.add(x)
    print("n", stats.n, "mean %.4f sd %.4f" % (stats.mean, stats.stddev()))
    print("range %.3f %.3f outliers %d" % (stats.lo, stats.hi, outliers))
    mean2, sd2 = two_pass(values)
    print("two-pass diff %.3e %.3e" % (mean2 - stats.mean, sd2 - stats.stddev()))
