def shift(text, k):
    out = []
    for ch in text:
        c = ord(ch)
        if 97 <= c <= 122:
            c = (c - 97 + k) % 26 + 97
        out.append(chr(c))
    return "".join(out)
s = "the quick brown fox jumps over the lazy dog " * 40
n = 0
for k in range(60):
    n += len(shift(s, k))
print(n)
