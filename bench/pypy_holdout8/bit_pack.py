# Packs 5-bit and 11-bit fields into a bytearray bit stream, unpacks them again and checksums the round trip.


class BitWriter(object):
    def __init__(self):
        self.buf = bytearray()
        self.acc = 0
        self.nbits = 0

    def write(self, value, width):
        self.acc |= (value & ((1 << width) - 1)) << self.nbits
        self.nbits += width
        while self.nbits >= 8:
            self.buf.append(self.acc & 0xFF)
            self.acc >>= 8
            self.nbits -= 8

    def finish(self):
        if self.nbits:
            self.buf.append(self.acc & 0xFF)
        return self.buf


def read_fields(buf, widths, count):
    pos = 0
    acc = 0
    nbits = 0
    for i in range(count):
        width = widths[i % len(widths)]
        while nbits < width:
            acc |= buf[pos] << nbits
            pos += 1
            nbits += 8
        yield acc & ((1 << width) - 1)
        acc >>= width
        nbits -= width


def main():
    widths = (5, 11, 5, 3)
    n = 20000
    digest = 0
    mismatches = 0
    for rnd in range(700):
        w = BitWriter()
        values = []
        seed = rnd + 17
        for i in range(n):
            seed = (seed ^ (seed << 13)) & 0xFFFFFFFF
            seed ^= seed >> 17
            seed = (seed ^ (seed << 5)) & 0xFFFFFFFF
            v = seed & ((1 << widths[i % 4]) - 1)
            values.append(v)
            w.write(v, widths[i % 4])
        buf = w.finish()
        for i, v in enumerate(read_fields(buf, widths, n)):
            if v != values[i]:
                mismatches += 1
            digest = ((digest << 3) ^ v ^ (digest >> 29)) & 0xFFFFFFFF
    print("bytes", len(buf), "digest", digest, "mismatches", mismatches)


if __name__ == "__main__":
    main()
