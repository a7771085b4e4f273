# Hand-written base64 encode/decode round trip over bytearray blocks.

ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
REVERSE = [-1] * 256
for _i in range(64):
    REVERSE[ALPHABET[_i]] = _i


def encode(data):
    out = bytearray()
    n = len(data)
    i = 0
    while i + 3 <= n:
        v = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2]
        out.append(ALPHABET[(v >> 18) & 63])
        out.append(ALPHABET[(v >> 12) & 63])
        out.append(ALPHABET[(v >> 6) & 63])
        out.append(ALPHABET[v & 63])
        i += 3
    rest = n - i
    if rest == 1:
        v = data[i] << 16
        out += bytes([ALPHABET[(v >> 18) & 63], ALPHABET[(v >> 12) & 63], 61, 61])
    elif rest == 2:
        v = (data[i] << 16) | (data[i + 1] << 8)
        out += bytes([ALPHABET[(v >> 18) & 63], ALPHABET[(v >> 12) & 63],
                      ALPHABET[(v >> 6) & 63], 61])
    return out


def decode(text):
    out = bytearray()
    acc = 0
    bits = 0
    for c in text:
        if c == 61:
            break
        acc = (acc << 6) | REVERSE[c]
        bits += 6
        if bits >= 8:
            bits -= 8
            out.append((acc >> bits) & 0xFF)
            acc &= (1 << bits) - 1
    return out


if __name__ == "__main__":
    total = 0
    mismatches = 0
    for block in range(400):
        size = 500 + block % 7
        data = bytearray((block * 131 + k * 17) & 0xFF for k in range(size))
        enc = encode(data)
        if decode(enc) != data:
            mismatches += 1
        total = (total + sum(enc)) % 1000003
    print("mismatches", mismatches, "checksum", total)
