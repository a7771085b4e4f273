# Recursive pretty printer for nested dicts/lists in a JSON-like syntax with string escaping, followed by a bracket-balance scan of the output.

KEYS = ["id", "name", "tags", "price", "items", "ok", "meta", "note"]
ESCAPES = {'"': '\\"', "\\": "\\\\", "\t": "\\t", "\n": "\\n"}


def build(depth, seed):
    seed = (seed * 1103515245 + 12345) % 2147483648
    kind = (seed >> 10) % (6 if depth > 0 else 4)
    if kind == 0:
        return (seed >> 5) % 20000 - 10000, seed
    if kind == 1:
        return "s%d\"q\\%d\t" % (seed % 97, seed % 13), seed
    if kind == 2:
        return ((seed >> 7) % 100000) / 64.0, seed
    if kind == 3:
        return (True, False, None)[seed % 3], seed
    if kind == 4:
        out = []
        for _ in range((seed >> 3) % 7):
            v, seed = build(depth - 1, seed)
            out.append(v)
        return out, seed
    obj = {}
    for k in range((seed >> 4) % 7):
        v, seed = build(depth - 1, seed)
        obj[KEYS[(seed + k) % len(KEYS)]] = v
    return obj, seed


def escape(s):
    parts = ['"']
    for ch in s:
        parts.append(ESCAPES.get(ch, ch))
    parts.append('"')
    return "".join(parts)


def render(value, indent, out):
    pad = "  " * indent
    if value is None:
        out.append("null")
    elif value is True or value is False:
        out.append("true" if value else "false")
    elif isinstance(value, (int, float)):
        out.append(repr(value))
    elif isinstance(value, str):
        out.append(escape(value))
    elif not value:
        out.append("[]" if isinstance(value, list) else "{}")
    elif isinstance(value, list):
        out.append("[\n")
        for i, item in enumerate(value):
            out.append(pad + "  ")
            render(item, indent + 1, out)
            out.append(",\n" if i < len(value) - 1 else "\n")
        out.append(pad + "]")
    else:
        out.append("{\n")
        keys = sorted(value)
        for i, k in enumerate(keys):
            out.append(pad + "  " + escape(k) + ": ")
            render(value[k], indent + 1, out)
            out.append(",\n" if i < len(keys) - 1 else "\n")
        out.append(pad + "}")


def stats(text):
    depth = maxdepth = strings = 0
    in_str = False
    i = 0
    while i < len(text):
        ch = text[i]
        if in_str:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_str = False
                strings += 1
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            maxdepth = max(maxdepth, depth)
        elif ch in "]}":
            depth -= 1
        i += 1
    if depth != 0 or in_str:
        raise ValueError("unbalanced")
    return maxdepth, strings


def main():
    seed = 777
    chars = lines = deepest = strs = 0
    for doc in range(45000):
        value, seed = build(6, seed)
        out = []
        render({"doc": doc, "body": value}, 0, out)
        text = "".join(out)
        d, s = stats(text)
        deepest = max(deepest, d)
        strs += s
        chars += len(text)
        lines += text.count("\n") + 1
    print("chars", chars, "lines", lines, "deepest", deepest, "strings", strs)


main()
