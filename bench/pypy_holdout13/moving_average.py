# Circular-buffer moving averages over a synthetic float signal: simple, exponential and windowed variance, with threshold-crossing alarms.


class RingAverage(object):
    def __init__(self, size):
        self.buf = [0.0] * size
        self.size = size
        self.pos = 0
        self.count = 0
        self.total = 0.0
        self.total_sq = 0.0

    def push(self, x):
        old = self.buf[self.pos]
        if self.count == self.size:
            self.total -= old
            self.total_sq -= old * old
        else:
            self.count += 1
        self.buf[self.pos] = x
        self.total += x
        self.total_sq += x * x
        self.pos += 1
        if self.pos == self.size:
            self.pos = 0

    def mean(self):
        return self.total / self.count if self.count else 0.0

    def variance(self):
        if self.count < 2:
            return 0.0
        m = self.mean()
        v = self.total_sq / self.count - m * m
        return v if v > 0.0 else 0.0


def signal(n):
    out = []
    x = 0.0
    seed = 12345
    for i in range(n):
        seed = (seed * 1103515245 + 12345) % 2147483648
        noise = (seed / 2147483648.0 - 0.5) * 0.8
        phase = (i % 200) / 200.0
        tri = 4.0 * phase - 1.0 if phase < 0.5 else 3.0 - 4.0 * phase
        x = 0.9 * x + 0.1 * (tri * 2.5 + noise)
        if i % 997 == 0:
            x += 3.0
        out.append(x)
    return out


def main():
    data = signal(50000)
    short = RingAverage(16)
    long_ = RingAverage(256)
    ema = 0.0
    alpha = 2.0 / 33.0
    crossings = 0
    above = False
    alarms = 0
    max_std = 0.0
    acc = 0.0
    for i in range(len(data)):
        x = data[i]
        short.push(x)
        long_.push(x)
        ema += alpha * (x - ema)
        now_above = short.mean() > long_.mean()
        if now_above != above and i > 256:
            crossings += 1
        above = now_above
        var = long_.variance()
        std = var ** 0.5
        if std > max_std:
            max_std = std
        if abs(x - long_.mean()) > 3.0 * std and std > 0.0:
            alarms += 1
        acc += ema * 0.001 + short.mean() * 0.0001
    print("crossings", crossings, "alarms", alarms)
    print("max_std %.6f" % max_std)
    print("checksum %.6f" % acc)


main()
