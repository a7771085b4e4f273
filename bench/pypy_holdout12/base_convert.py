# Converts generated integers between bases by hand, formats them with thousands separators and sign, and parses them back as a round-trip check.

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def to_base(n, base):
    if n == 0:
        return "0"
    sign = ""
    if n < 0:
        sign = "-"
        n = -n
    out = []
    while n:
        n, r = divmod(n, base)
        out.append(DIGITS[r])
    out.append(sign)
    return "".join(reversed(out))


def from_base(text, base):
    neg = False
    i = 0
    if text and text[0] == "-":
        neg = True
        i = 1
    value = 0
    while i < len(text):
        d = DIGITS.find(text[i])
        if d < 0 or d >= base:
            raise ValueError("bad digit %r for base %d" % (text[i], base))
        value = value * base + d
        i += 1
    return -value if neg else value


def group_thousands(n, sep=","):
    s = str(abs(n))
    parts = []
    end = len(s)
    while end > 3:
        parts.append(s[end - 3:end])
        end -= 3
    parts.append(s[:end])
    body = sep.join(reversed(parts))
    return ("-" + body) if n < 0 else body


def pad_left(s, width, fill):
    if len(s) >= width:
        return s
    return fill * (width - len(s)) + s


def main():
    state = 31337
    roundtrip_bad = 0
    digit_sum = 0
    comma_count = 0
    longest = ""
    bad_parses = 0
    checksum = 0
    for i in range(40000):
        state = (state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        n = (state >> 20) - (1 << 43)
        base = 2 + i % 35
        text = to_base(n, base)
        if from_base(text, base) != n:
            roundtrip_bad += 1
        if int(text, base) != n:
            roundtrip_bad += 1
        for ch in text:
            if ch != "-":
                digit_sum += DIGITS.index(ch)
        grouped = group_thousands(n)
        comma_count += grouped.count(",")
        if len(text) > len(longest):
            longest = text
        padded = pad_left(to_base(abs(n) & 0xFFFF, 16), 4, "0")
        checksum = (checksum * 31 + int(padded, 16)) & 0xFFFFFFFF
        if i % 7 == 0:
            try:
                from_base(text + "z", base)
            except ValueError:
                bad_parses += 1
    print("roundtrip_bad=%d digit_sum=%d commas=%d longest=%s bad_parses=%d checksum=%08x"
          % (roundtrip_bad, digit_sum, comma_count, longest, bad_parses, checksum))
    print(group_thousands(-1234567890123), to_base(255, 2), to_base(-255, 16), from_base("zz", 36))


main()
