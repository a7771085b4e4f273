# Echo effect on integer audio samples using a fixed-size ring buffer class.


class RingBuffer(object):
    def __init__(self, size):
        self.data = [0] * size
        self.size = size
        self.pos = 0

    def push(self, value):
        self.data[self.pos] = value
        self.pos += 1
        if self.pos == self.size:
            self.pos = 0

    def oldest(self):
        # zero-filled at start, so the slot about to be overwritten is the oldest
        return self.data[self.pos]


def clip(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


def apply_echo(samples, delay, feedback_num, feedback_den):
    ring = RingBuffer(delay)
    out = []
    clipped = 0
    for s in samples:
        delayed = ring.oldest()
        y = s + delayed * feedback_num // feedback_den
        c = clip(y, -32768, 32767)
        if c != y:
            clipped += 1
        ring.push(c)
        out.append(c)
    return out, clipped


def make_samples(n):
    samples = []
    phase = 0
    for i in range(n):
        phase = (phase + 37 + (i >> 9) % 11) % 1024
        tri = phase * 64 - 32768 if phase < 512 else (1023 - phase) * 64 - 32768
        samples.append(tri // 2)
    return samples


if __name__ == "__main__":
    out, clipped = apply_echo(make_samples(300000), 441, 4, 5)
    checksum = 0
    for v in out:
        checksum = (checksum * 31 + v) & 0xFFFFFFFF
    print("clipped", clipped, "checksum", checksum)
