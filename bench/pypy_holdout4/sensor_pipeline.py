# Generator pipeline over simulated sensor readings using enumerate and zip.


def readings(n):
    value = 20.0
    for i in range(n):
        drift = ((i * 7919) % 101 - 50) / 100.0
        value += drift * 0.1
        noise = ((i * 104729) % 61 - 30) / 100.0
        yield value + noise


def moving_average(stream, window):
    buf = []
    total = 0.0
    for x in stream:
        buf.append(x)
        total += x
        if len(buf) > window:
            total -= buf.pop(0)
        yield total / len(buf)


def spikes(raw, smooth, threshold):
    for idx, (r, s) in enumerate(zip(raw, smooth)):
        if abs(r - s) > threshold:
            yield idx, r - s


def pairwise(iterable):
    it = iter(iterable)
    prev = next(it)
    for cur in it:
        yield prev, cur
        prev = cur


def main():
    n = 500000
    raw = list(readings(n))
    smooth = list(moving_average(iter(raw), 16))
    found = list(spikes(raw, smooth, 0.3))
    rising = sum(1 for a, b in pairwise(smooth) if b > a)
    worst = max(found, key=lambda t: abs(t[1])) if found else (None, 0.0)
    print("spikes:", len(found), "rising steps:", rising)
    print("worst spike at %s: %.4f" % (worst[0], worst[1]))


main()
