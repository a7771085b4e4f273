# URL query-string encoder and parser: percent-escaping, '+' spaces, multi-valued keys, round trips and malformed input.

SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
HEX = "0123456789ABCDEF"
KEYS = ["q", "page", "lang", "sort", "filter", "tag", "from", "to", "utm_source", "id"]
PALETTE = "abcxyzKLM019 &=%/?#+-_.~:;,"


def quote(s):
    out = []
    for ch in s:
        if ch in SAFE:
            out.append(ch)
        elif ch == " ":
            out.append("+")
        else:
            b = ord(ch)
            out.append("%" + HEX[b >> 4] + HEX[b & 15])
    return "".join(out)


def hexval(c):
    v = HEX.find(c.upper())
    if v < 0:
        raise ValueError("bad hex digit %r" % c)
    return v


def unquote(s):
    out = []
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch == "%":
            if i + 2 >= n:
                raise ValueError("truncated escape at %d" % i)
            out.append(chr(hexval(s[i + 1]) * 16 + hexval(s[i + 2])))
            i += 3
        else:
            out.append(" " if ch == "+" else ch)
            i += 1
    return "".join(out)


def pairs(query):
    start = 0
    while start <= len(query):
        end = query.find("&", start)
        if end < 0:
            end = len(query)
        part = query[start:end]
        if part:
            eq = part.find("=")
            if eq < 0:
                yield part, ""
            else:
                yield part[:eq], part[eq + 1:]
        start = end + 1


class Query:
    def __init__(self):
        self.params = {}

    def add(self, key, value):
        self.params.setdefault(key, []).append(value)

    @classmethod
    def parse(cls, text):
        q = cls()
        for k, v in pairs(text):
            q.add(unquote(k), unquote(v))
        return q

    def encode(self):
        return "&".join(quote(k) + "=" + quote(v) for k in sorted(self.params) for v in self.params[k])


def main():
    seed = 2718
    bad = mismatches = check = 0
    key_counts = {}
    for n in range(30000):
        q = Query()
        for _ in range(3 + n % 6):
            seed = (seed * 1103515245 + 12345) % 2147483648
            key = KEYS[(seed >> 10) % len(KEYS)]
            chars = []
            for _ in range(2 + (seed >> 20) % 12):
                seed = (seed * 1103515245 + 12345) % 2147483648
                chars.append(PALETTE[(seed >> 12) % len(PALETTE)])
            q.add(key, "".join(chars))
            key_counts[key] = key_counts.get(key, 0) + 1
        text = q.encode()
        if Query.parse(text).params != q.params:
            mismatches += 1
        cut = text[:len(text) - (seed >> 5) % 4] + ("%G1" if n % 9 == 0 else "")
        try:
            check = (check + len(Query.parse(cut).params)) % 1000000007
        except ValueError as exc:
            bad += 1
            check = (check * 7 + len(str(exc))) % 1000000007
        for ch in text[-8:]:
            check = (check * 131 + ord(ch)) % 1000000007
    top = sorted(key_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    print("bad", bad, "mismatch", mismatches, "check", check, top)


main()
